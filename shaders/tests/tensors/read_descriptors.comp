// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
#define TENSORS 0
#define OUT 1
#include "read_descriptors.glsl"
