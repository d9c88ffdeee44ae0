#version 460
#extension GL_GOOGLE_include_directive : require
#define ELEMENT uint8_t
#define OUT_OF_BOUNDS uint8_t(250)
#include "elements.glsl"
