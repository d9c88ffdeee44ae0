// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// OpFConvert from f16 to f32 matrices.
#define FROM_TYPE float16_t
#define TO_TYPE float
#include "convert.glsl"
