// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// float16 matrices through float16_t arrays.
#define ELEMENT float16_t
#define POINTEE float16_t
#include "load_store.glsl"
