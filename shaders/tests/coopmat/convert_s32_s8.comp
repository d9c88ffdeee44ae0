// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// OpSConvert from s32 to s8 matrices.
#define FROM_TYPE int
#define TO_TYPE int8_t
#include "convert.glsl"
