// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// float16 A and B, float32 accumulators.
#define A_TYPE float16_t
#define B_TYPE float16_t
#define C_TYPE float
#define MULADD(a, b, c) coopMatMulAdd(a, b, c)
#include "muladd.glsl"
