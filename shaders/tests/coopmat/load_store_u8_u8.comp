// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// uint8 matrices through uint8_t arrays.
#define ELEMENT uint8_t
#define POINTEE uint8_t
#include "load_store.glsl"
