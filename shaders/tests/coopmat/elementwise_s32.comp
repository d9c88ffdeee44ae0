// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// Element-wise arithmetic on sint32 matrices.
#define TYPE int
#include "elementwise.glsl"
