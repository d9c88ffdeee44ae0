#version 460
#extension GL_GOOGLE_include_directive : require
#define RANK 8
#include "ranks.glsl"
