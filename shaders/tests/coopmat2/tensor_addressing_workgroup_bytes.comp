// target-env: vulkan1.3
#version 460
// tensor_addressing_workgroup.comp over buffers declared as bytes, as llama.cpp's attention kernels
// declare theirs: each float component of the matrix is four array elements. Its source stays
// writable, so the lowering reads a component a byte at a time (the subgroup one's is read-only).
layout(local_size_x = 32) in;
#define SCOPE gl_ScopeWorkgroup
#define ROWS 32
#define COLS 32
#define STORAGE uint8_t
#define PER_FLOAT 4
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_8bit_storage : require
#include "tensor_addressing.glsl"
