#version 450
#extension GL_GOOGLE_include_directive : require
#define DEPTH
#define NON_COHERENT
#include "depth_stencil.glsl"
