// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// float16 matrices through f16vec2 arrays.
#define ELEMENT float16_t
#define POINTEE f16vec2
#include "load_store.glsl"
