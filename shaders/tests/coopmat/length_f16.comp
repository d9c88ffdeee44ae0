// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// Length and the element mapping of float16 matrices.
#define TYPE float16_t
#include "length.glsl"
