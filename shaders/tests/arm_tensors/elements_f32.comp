#version 460
#extension GL_GOOGLE_include_directive : require
#define ELEMENT float
#define OUT_OF_BOUNDS -7.5
#include "elements.glsl"
