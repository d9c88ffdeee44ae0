#version 460
#extension GL_GOOGLE_include_directive : require
#define RANK 3
#include "ranks.glsl"
