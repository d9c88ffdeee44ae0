#version 460
#extension GL_GOOGLE_include_directive : require
#define ELEMENT uint
#define OUT_OF_BOUNDS 4000000000u
#include "elements.glsl"
