// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// uint32 matrices through uint8_t arrays (four bytes each).
#define ELEMENT uint
#define POINTEE uint8_t
#include "load_store.glsl"
