// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// OpSConvert from s8 to s32 matrices.
#define FROM_TYPE int8_t
#define TO_TYPE int
#include "convert.glsl"
