#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_float_e5m2 : require
#extension GL_ARM_tensors_float_e5m2 : require
#define ELEMENT floate5m2_t
#define OUT_OF_BOUNDS floate5m2_t(-7.5)
#include "elements.glsl"
