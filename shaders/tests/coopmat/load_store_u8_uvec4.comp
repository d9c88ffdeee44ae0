// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// uint8 matrices through uvec4 arrays (sixteen bytes each).
#define ELEMENT uint8_t
#define POINTEE uvec4
#include "load_store.glsl"
