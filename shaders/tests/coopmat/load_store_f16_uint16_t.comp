// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// float16 matrices through uint16_t arrays (same width, another type: the bits are reinterpreted).
#define ELEMENT float16_t
#define POINTEE uint16_t
#include "load_store.glsl"
