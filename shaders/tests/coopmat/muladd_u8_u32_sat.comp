// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// uint8 A and B, uint32 accumulators, saturating accumulation.
#define A_TYPE uint8_t
#define B_TYPE uint8_t
#define C_TYPE uint
#define MULADD(a, b, c) coopMatMulAdd(a, b, c, gl_MatrixOperandsSaturatingAccumulation)
#include "muladd.glsl"
