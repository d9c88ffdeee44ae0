// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// Constants and composites of uint32 matrices.
#define TYPE uint
#include "composite.glsl"
