// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// OpBitcast from s8 to u8 matrices.
#define FROM_TYPE int8_t
#define TO_TYPE uint8_t
#include "convert.glsl"
