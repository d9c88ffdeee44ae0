#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#define ELEMENT int64_t
#define OUT_OF_BOUNDS int64_t(-5000000000l)
#include "elements.glsl"
