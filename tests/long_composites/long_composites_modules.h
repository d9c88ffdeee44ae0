// The generated SPV_INTEL_long_composites modules (tests/long_composites/CMakeLists.txt) and what they
// compute: scripts/gen_long_composites.py's formulas in C++, for the tests and the benchmark to
// check results against.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "long_composites_sizes.h"

namespace vkpolyfill::test::long_composites {

// The words of module `name` ("struct", "table", "fits", ...); empty when it cannot be read.
std::vector<uint32_t> read_module(const std::string& name);

// The indexes a module reads its long composite of `size` elements at, by constant index, in order.
std::vector<uint32_t> samples(uint32_t size);

// table: element i of the constant table.
float table_value(uint32_t i);
// table, table_in_buffer, table_buffer: results[x] when indices[x] = i.
float table_result(uint32_t i, uint32_t size, uint32_t lookups);

// fragment: the table elements its color's four components are (ray_generation: what every launch
// writes, in order).
std::array<uint32_t, 4> fragment_samples(uint32_t size);

// struct: whether the shader rewrites member k through access chains (to src.m[k] * 3 + k), and
// member k of its constant of the Block's type.
bool struct_member_touched(uint32_t k, uint32_t members);
uint32_t struct_constant_member(uint32_t k);

// spec: element i of the composite when SpecId 0..2 have `spec_values`.
uint32_t spec_element(uint32_t i, const std::array<uint32_t, 3>& spec_values);
inline constexpr std::array<uint32_t, 3> kSpecDefaults = {11, 22, 33};

}  // namespace vkpolyfill::test::long_composites
