// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// Element-wise arithmetic on float32 matrices.
#define TYPE float
#include "elementwise.glsl"
