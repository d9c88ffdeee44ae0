// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// float32 matrices through uint16_t arrays (two halves each).
#define ELEMENT float
#define POINTEE uint16_t
#include "load_store.glsl"
