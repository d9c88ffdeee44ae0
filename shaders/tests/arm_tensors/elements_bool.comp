#version 460
#extension GL_GOOGLE_include_directive : require
#define ELEMENT bool
#define OUT_OF_BOUNDS true
#include "elements.glsl"
