// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// sint32 matrices through control flow.
#define TYPE int
#include "control_flow.glsl"
