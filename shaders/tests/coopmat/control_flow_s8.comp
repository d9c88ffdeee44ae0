// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// sint8 matrices through control flow.
#define TYPE int8_t
#include "control_flow.glsl"
