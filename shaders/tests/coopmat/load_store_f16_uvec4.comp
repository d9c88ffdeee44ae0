// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// float16 matrices through uvec4 arrays (eight halves each).
#define ELEMENT float16_t
#define POINTEE uvec4
#include "load_store.glsl"
