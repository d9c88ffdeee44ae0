// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// sint8 A and B, sint32 accumulators (wrapping).
#define A_TYPE int8_t
#define B_TYPE int8_t
#define C_TYPE int
#define MULADD(a, b, c) coopMatMulAdd(a, b, c)
#include "muladd.glsl"
