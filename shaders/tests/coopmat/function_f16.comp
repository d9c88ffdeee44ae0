// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// float16 matrices through functions and variables.
#define TYPE float16_t
#include "function.glsl"
