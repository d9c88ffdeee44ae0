// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// sint32 matrices through int arrays.
#define ELEMENT int
#define POINTEE int
#include "load_store.glsl"
