// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// OpFConvert from f32 to f16 matrices.
#define FROM_TYPE float
#define TO_TYPE float16_t
#include "convert.glsl"
