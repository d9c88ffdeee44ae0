// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// uint8 matrices through functions and variables.
#define TYPE uint8_t
#include "function.glsl"
