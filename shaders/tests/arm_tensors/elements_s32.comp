#version 460
#extension GL_GOOGLE_include_directive : require
#define ELEMENT int
#define OUT_OF_BOUNDS -70000
#include "elements.glsl"
