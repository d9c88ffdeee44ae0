// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// uint8 matrices through uint arrays (four bytes each).
#define ELEMENT uint8_t
#define POINTEE uint
#include "load_store.glsl"
