// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// sint8 matrices through int8_t arrays.
#define ELEMENT int8_t
#define POINTEE int8_t
#include "load_store.glsl"
