// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// OpUConvert from u32 to u8 matrices.
#define FROM_TYPE uint
#define TO_TYPE uint8_t
#include "convert.glsl"
