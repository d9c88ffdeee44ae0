// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// float16 matrices through uint arrays (two halves each).
#define ELEMENT float16_t
#define POINTEE uint
#include "load_store.glsl"
