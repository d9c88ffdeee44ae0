#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_float_e4m3 : require
#extension GL_ARM_tensors_float_e4m3 : require
#define ELEMENT floate4m3_t
#define OUT_OF_BOUNDS floate4m3_t(-7.5)
#include "elements.glsl"
