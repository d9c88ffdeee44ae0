// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// uint32 matrices through uint arrays.
#define ELEMENT uint
#define POINTEE uint
#include "load_store.glsl"
