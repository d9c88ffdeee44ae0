// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// OpBitcast from u8 to s8 matrices.
#define FROM_TYPE uint8_t
#define TO_TYPE int8_t
#include "convert.glsl"
