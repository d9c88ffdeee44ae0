// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#define ELEMENT uint16_t
#include "tensor_copy.glsl"
