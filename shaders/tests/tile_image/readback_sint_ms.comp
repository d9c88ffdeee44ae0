#version 450
#extension GL_GOOGLE_include_directive : require
#define SAMPLER itexture2DMS
#define TO_BITS uvec4
#define MS
#include "readback.glsl"
