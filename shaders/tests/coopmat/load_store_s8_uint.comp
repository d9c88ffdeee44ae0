// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// sint8 matrices through uint arrays (four bytes each).
#define ELEMENT int8_t
#define POINTEE uint
#include "load_store.glsl"
