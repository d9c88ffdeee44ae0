#version 460
#extension GL_GOOGLE_include_directive : require
#define ELEMENT double
#define OUT_OF_BOUNDS -7.5lf
#include "elements.glsl"
