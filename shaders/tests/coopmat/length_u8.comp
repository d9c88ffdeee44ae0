// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// Length and the element mapping of uint8 matrices.
#define TYPE uint8_t
#include "length.glsl"
