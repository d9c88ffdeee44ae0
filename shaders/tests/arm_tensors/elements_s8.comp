#version 460
#extension GL_GOOGLE_include_directive : require
#define ELEMENT int8_t
#define OUT_OF_BOUNDS int8_t(-7)
#include "elements.glsl"
