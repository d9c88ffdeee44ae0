// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
#define ELEMENT uvec2
#include "tensor_copy.glsl"
