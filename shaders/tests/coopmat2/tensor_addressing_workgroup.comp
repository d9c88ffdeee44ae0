// target-env: vulkan1.3
#version 460
// Tensor-addressed loads and stores of a workgroup-scope matrix (tensor_addressing.glsl).
layout(local_size_x = 32) in;
#define SCOPE gl_ScopeWorkgroup
#define ROWS 32
#define COLS 32
#extension GL_GOOGLE_include_directive : require
#include "tensor_addressing.glsl"
