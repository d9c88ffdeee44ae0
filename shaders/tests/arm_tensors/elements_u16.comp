#version 460
#extension GL_GOOGLE_include_directive : require
#define ELEMENT uint16_t
#define OUT_OF_BOUNDS uint16_t(65000)
#include "elements.glsl"
