// target-env: vulkan1.3
#version 460
// tensor_addressing_subgroup.comp over buffers declared as bytes, as llama.cpp's attention kernels
// declare theirs (read-only): each float component of the matrix is four array elements, which the
// lowering reads as one word. tensor_addressing_workgroup_bytes.comp keeps the source writable, read
// a byte at a time.
layout(local_size_x = 8, local_size_x_id = 90) in;  // one subgroup: the harness sets constant 90 to its size
#define SCOPE gl_ScopeSubgroup
#define ROWS 16
#define COLS 16
#define STORAGE uint8_t
#define PER_FLOAT 4
#define SOURCE_ACCESS readonly
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_8bit_storage : require
#include "tensor_addressing.glsl"
