// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// Element-wise arithmetic on float16 matrices.
#define TYPE float16_t
#include "elementwise.glsl"
