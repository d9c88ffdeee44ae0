// What a cooperative-matrix case observed and how it is judged: buffers compared element by element
// with a CPU reference (bit-exact unless a tolerance says otherwise), and properties that hold
// whatever the implementation's mapping of elements to invocations.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "coopmat_scalars.h"

namespace vkpolyfill::test::coopmat {

// How far a float result may be from the reference; both zero means equal values (integers are
// always compared bit for bit).
struct Tolerance {
    double ulps = 0;      // in units of the last place of the result type at the reference
    double relative = 0;  // times the element's scale (Output::scale), or |reference| without one
};

struct Output {
    std::string name;  // what this buffer is, e.g. "D, rowmajor, padded strides"
    Component type;
    std::vector<std::byte> actual;
    std::vector<std::byte> expected;
    Tolerance tolerance;
    std::vector<double> scale;                       // per element, for relative tolerances
    std::function<std::string(size_t index)> where;  // "tile 1 row 3 col 7"; may be empty
};

struct Observation {
    std::vector<Output> outputs;
    std::vector<testing::AssertionResult> properties;  // mapping-independent checks
};

// Every element within tolerance of `reference` (the expected bytes, or another run's actual
// bytes); the failure names the first mismatching elements with where they are.
testing::AssertionResult matches(const Output& output, std::span<const std::byte> reference,
                                 const std::string& reference_name);

// Float results against their CPU values (the coopmat2 cases, which compute in floats): matches()
// on them, with `scale` per element for a relative tolerance (empty: |expected|).
testing::AssertionResult floats_match(const std::string& name, std::span<const float> actual, std::span<const float> expected,
                                      Tolerance tolerance = {}, std::function<std::string(size_t index)> where = {},
                                      std::vector<double> scale = {});

// The actual bytes of a buffer after a run.
std::vector<std::byte> bytes_of(const void* mapped, size_t size);

}  // namespace vkpolyfill::test::coopmat
