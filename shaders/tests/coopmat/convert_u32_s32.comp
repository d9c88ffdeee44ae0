// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// OpBitcast from u32 to s32 matrices.
#define FROM_TYPE uint
#define TO_TYPE int
#include "convert.glsl"
