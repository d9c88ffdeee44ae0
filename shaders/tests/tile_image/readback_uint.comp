#version 450
#extension GL_GOOGLE_include_directive : require
#define SAMPLER utexture2D
#define TO_BITS uvec4
#include "readback.glsl"
