// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// uint32 matrices through uvec4 arrays (four each).
#define ELEMENT uint
#define POINTEE uvec4
#include "load_store.glsl"
