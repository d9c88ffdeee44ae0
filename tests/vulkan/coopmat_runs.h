// The shape most cooperative-matrix cases share: matrices A and B in (bindings 0 and 1), O out
// (binding 2), all one type, tight row-major, one subgroup; constants 0..3 are the workgroup size,
// rows, columns and use.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "coopmat_compare.h"
#include "coopmat_configurations.h"
#include "coopmat_device.h"

namespace vkpolyfill::test::coopmat {

// {subgroup size, rows, cols, use, extra...}
std::vector<uint32_t> matrix_constants(const CoopmatDevice& device, const MatrixType& m, std::vector<uint32_t> extra = {});

// Runs `spec` (whose constants and buffer count the caller set) on A and B; returns O.
std::vector<std::byte> run_a_b_to_o(CoopmatDevice& device, const PipelineSpec& spec, const MatrixType& m,
                                    const std::vector<std::byte>& a, const std::vector<std::byte>& b,
                                    std::span<const std::byte> push_constants = {});

// An Output for a tight row-major matrix of `m`'s shape, expected bytes zeroed for the caller.
Output matrix_output(std::string name, const MatrixType& m, std::vector<std::byte> actual);

// `count` random values of the type (random_value), from a generator seeded by `seed`.
std::vector<std::byte> random_matrix(const MatrixType& m, uint32_t seed);

}  // namespace vkpolyfill::test::coopmat
