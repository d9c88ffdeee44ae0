#version 450
#extension GL_GOOGLE_include_directive : require
#define STENCIL
#define NON_COHERENT
#include "depth_stencil.glsl"
