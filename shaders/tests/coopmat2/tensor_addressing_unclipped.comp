// target-env: vulkan1.3
#version 460
// Tensor-addressed loads and stores of a subgroup-scope matrix through views whose clip region the
// module never sets (tensor_addressing.glsl).
layout(local_size_x = 8, local_size_x_id = 90) in;  // one subgroup: the harness sets constant 90 to its size
#define SCOPE gl_ScopeSubgroup
#define ROWS 16
#define COLS 16
#define VIEWS_UNCLIPPED
#extension GL_GOOGLE_include_directive : require
#include "tensor_addressing.glsl"
