// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// OpBitcast from s32 to u32 matrices.
#define FROM_TYPE int
#define TO_TYPE uint
#include "convert.glsl"
