// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// int8 matrices through uint8_t arrays (same width, the other signedness).
#define ELEMENT int8_t
#define POINTEE uint8_t
#include "load_store.glsl"
