#version 460
#extension GL_GOOGLE_include_directive : require
#define RANK 6
#include "ranks.glsl"
