// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// Length and the element mapping of float32 matrices.
#define TYPE float
#include "length.glsl"
