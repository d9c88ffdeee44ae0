// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// OpConvertUToF from u8 to f16 matrices.
#define FROM_TYPE uint8_t
#define TO_TYPE float16_t
#include "convert.glsl"
