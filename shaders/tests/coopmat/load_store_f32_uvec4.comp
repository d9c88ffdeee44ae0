// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// float32 matrices through uvec4 arrays (four floats each).
#define ELEMENT float
#define POINTEE uvec4
#include "load_store.glsl"
