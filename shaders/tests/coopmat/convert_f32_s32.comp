// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// OpConvertFToS from f32 to s32 matrices.
#define FROM_TYPE float
#define TO_TYPE int
#include "convert.glsl"
