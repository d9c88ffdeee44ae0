#version 450
#extension GL_GOOGLE_include_directive : require
#define SAMPLER texture2DMS
#define TO_BITS floatBitsToUint
#define MS
#include "readback.glsl"
