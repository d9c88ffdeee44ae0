#version 460
#extension GL_GOOGLE_include_directive : require
#define ELEMENT float16_t
#define OUT_OF_BOUNDS float16_t(-7.5)
#include "elements.glsl"
