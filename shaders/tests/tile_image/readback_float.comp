#version 450
#extension GL_GOOGLE_include_directive : require
#define SAMPLER texture2D
#define TO_BITS floatBitsToUint
#include "readback.glsl"
