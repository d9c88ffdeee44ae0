// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// Constants and composites of sint32 matrices.
#define TYPE int
#include "composite.glsl"
