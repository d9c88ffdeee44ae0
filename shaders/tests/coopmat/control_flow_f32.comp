// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// float32 matrices through control flow.
#define TYPE float
#include "control_flow.glsl"
