#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#define ELEMENT uint64_t
#define OUT_OF_BOUNDS uint64_t(10000000000ul)
#include "elements.glsl"
