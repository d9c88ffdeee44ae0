// Shared by the cooperative-matrix test shaders (tests/vulkan/test_cooperative_matrix_*.cpp): the
// extensions they use, and the workgroup size, which the test sets (constant_id 0) to the
// subgroup size times the number of subgroups it wants.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require

layout(local_size_x_id = 0) in;
