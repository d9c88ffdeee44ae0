#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_bfloat16 : require
#extension GL_ARM_tensors_bfloat16 : require
#define ELEMENT bfloat16_t
#define OUT_OF_BOUNDS bfloat16_t(-7.5)
#include "elements.glsl"
