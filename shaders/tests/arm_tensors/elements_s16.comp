#version 460
#extension GL_GOOGLE_include_directive : require
#define ELEMENT int16_t
#define OUT_OF_BOUNDS int16_t(-700)
#include "elements.glsl"
