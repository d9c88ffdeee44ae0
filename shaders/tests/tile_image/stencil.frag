#version 450
#extension GL_GOOGLE_include_directive : require
#define STENCIL
#include "depth_stencil.glsl"
