// target-env: vulkan1.2
#version 460
// The element access of elements.glsl in SPIR-V 1.5 (Vulkan 1.2), 8-bit elements.
#extension GL_GOOGLE_include_directive : require
#define ELEMENT uint8_t
#define OUT_OF_BOUNDS uint8_t(9)
#include "elements.glsl"
