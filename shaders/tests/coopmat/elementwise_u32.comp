// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// Element-wise arithmetic on uint32 matrices.
#define TYPE uint
#include "elementwise.glsl"
