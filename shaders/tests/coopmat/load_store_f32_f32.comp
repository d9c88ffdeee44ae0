// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// float32 matrices through float arrays.
#define ELEMENT float
#define POINTEE float
#include "load_store.glsl"
