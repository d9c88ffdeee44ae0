// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// OpConvertFToS from f16 to s8 matrices.
#define FROM_TYPE float16_t
#define TO_TYPE int8_t
#include "convert.glsl"
