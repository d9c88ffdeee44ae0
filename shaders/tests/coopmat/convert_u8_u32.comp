// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// OpUConvert from u8 to u32 matrices.
#define FROM_TYPE uint8_t
#define TO_TYPE uint
#include "convert.glsl"
