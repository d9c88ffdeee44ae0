// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#define ELEMENT uint8_t
#include "tensor_copy.glsl"
