// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// OpConvertFToU from f32 to u32 matrices.
#define FROM_TYPE float
#define TO_TYPE uint
#include "convert.glsl"
