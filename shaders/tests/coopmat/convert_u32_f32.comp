// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// OpConvertUToF from u32 to f32 matrices.
#define FROM_TYPE uint
#define TO_TYPE float
#include "convert.glsl"
