// target-env: vulkan1.3
#version 460
// The tensors last, as a variable-count binding must be.
#extension GL_GOOGLE_include_directive : require
#define TENSORS 1
#define OUT 0
#include "read_descriptors.glsl"
