// OpCooperativeMatrixLengthKHR and the element mapping (shaders/tests/coopmat/length.glsl). Which
// element an invocation's component holds is the implementation's choice, so no CPU model of it
// exists; what any mapping must satisfy is checked instead:
//  - every invocation reports the same length L, 1 <= L <= rows * cols (as VK-GL-CTS), and the
//    subgroup holds enough components: subgroup size * L >= rows * cols;
//  - writing tag (invocation * L + e) into every component e and storing the matrix leaves a valid
//    tag in every element, and no two elements with the same tag (each element came from its own
//    component: the store covers the matrix exactly once);
//  - loading a matrix whose elements hold their own index, the component an element was stored
//    from holds that element's index (loads and stores agree on the mapping), and every component
//    holds some element's index.
// This case's results differ between implementations, so forced emulation is not compared with
// the native run; both must satisfy the properties.
#include <cstring>
#include <map>
#include <sstream>

#include "coopmat_cases.h"
#include "coopmat_matrix.h"
#include "coopmat_runs.h"

namespace vkpolyfill::test::coopmat {
namespace {

constexpr uint32_t kBase = 64;  // digits every component type holds exactly

struct Mapping {
    const MatrixType& m;
    uint32_t subgroup_size;
    std::vector<std::byte> tags;  // 3 digit planes
    std::vector<uint32_t> loaded, lengths;

    size_t elements() const { return static_cast<size_t>(m.rows) * m.cols; }
    uint64_t tag(size_t element) const {
        uint64_t value = 0;
        for (int d = 2; d >= 0; --d) value = value * kBase + static_cast<uint64_t>(read_value(tags, m.type, d * elements() + element));
        return value;
    }
    std::string where(size_t element) const {
        return "element (row " + std::to_string(element / m.cols) + ", col " + std::to_string(element % m.cols) + ")";
    }
};

testing::AssertionResult lengths_agree(const Mapping& map) {
    const uint32_t length = map.lengths[0];
    for (uint32_t i = 0; i < map.subgroup_size; ++i) {
        if (map.lengths[i] != length) {
            return testing::AssertionFailure() << "invocation " << i << " reports length " << map.lengths[i]
                                               << ", invocation 0 " << length;
        }
    }
    if (length < 1 || length > map.elements() || static_cast<size_t>(length) * map.subgroup_size < map.elements()) {
        return testing::AssertionFailure() << "length " << length << " for a " << map.m.rows << "x" << map.m.cols
                                           << " matrix over " << map.subgroup_size << " invocations";
    }
    return testing::AssertionSuccess();
}

testing::AssertionResult store_covers_once(const Mapping& map) {
    const uint64_t components = static_cast<uint64_t>(map.lengths[0]) * map.subgroup_size;
    std::map<uint64_t, size_t> owner;
    for (size_t x = 0; x < map.elements(); ++x) {
        const uint64_t tag = map.tag(x);
        if (tag >= components) {
            return testing::AssertionFailure() << map.where(x) << " holds tag " << tag << ", not a component (" << components
                                               << " of them)";
        }
        if (const auto [it, fresh] = owner.emplace(tag, x); !fresh) {
            return testing::AssertionFailure() << map.where(x) << " and " << map.where(it->second) << " both came from invocation "
                                               << tag / map.lengths[0] << " component " << tag % map.lengths[0];
        }
    }
    return testing::AssertionSuccess();
}

testing::AssertionResult load_agrees_with_store(const Mapping& map) {
    std::ostringstream wrong;
    size_t count = 0;
    for (size_t x = 0; x < map.elements(); ++x) {
        const uint64_t tag = map.tag(x);
        if (tag < map.loaded.size() && map.loaded[tag] != x && count++ < 8) {
            wrong << "\n  " << map.where(x) << " was stored from invocation " << tag / map.lengths[0] << " component "
                  << tag % map.lengths[0] << ", which loaded element index " << map.loaded[tag];
        }
    }
    const size_t components = static_cast<size_t>(map.lengths[0]) * map.subgroup_size;
    for (size_t c = 0; c < components && c < map.loaded.size(); ++c) {
        if (map.loaded[c] >= map.elements() && count++ < 8) {
            wrong << "\n  invocation " << c / map.lengths[0] << " component " << c % map.lengths[0] << " loaded "
                  << map.loaded[c] << ", no element's index";
        }
    }
    if (count == 0) return testing::AssertionSuccess();
    return testing::AssertionFailure() << count << " disagreements between load and store:" << wrong.str();
}

Observation run_length(CoopmatDevice& device, const MatrixType& m) {
    const size_t elements = static_cast<size_t>(m.rows) * m.cols;
    std::vector<std::byte> digits(3 * elements * component_bytes(m.type));
    for (size_t x = 0; x < elements; ++x) {
        for (size_t d = 0, rest = x; d < 3; ++d, rest /= kBase) write_value(digits, m.type, d * elements + x, rest % kBase);
    }
    const uint32_t s = device.subgroup_size();
    const std::vector<uint32_t> unset(s * elements, ~0u);
    const auto as_bytes = [](const std::vector<uint32_t>& v) {
        const auto* p = reinterpret_cast<const std::byte*>(v.data());
        return std::vector<std::byte>(p, p + v.size() * sizeof(uint32_t));
    };
    const auto after = device.run({.shader = "tests/coopmat/length_" + std::string(short_name(m.type)) + ".comp",
                                   .constants = matrix_constants(device, m),
                                   .buffers = 4},
                                  {digits, std::vector<std::byte>(digits.size()), as_bytes(unset),
                                   as_bytes(std::vector<uint32_t>(s, 0))});
    const auto as_words = [](const std::vector<std::byte>& bytes) {
        std::vector<uint32_t> words(bytes.size() / sizeof(uint32_t));
        std::memcpy(words.data(), bytes.data(), words.size() * sizeof(uint32_t));
        return words;
    };
    const Mapping map{m, s, after[1], as_words(after[2]), as_words(after[3])};
    Observation observation;
    observation.properties.push_back(lengths_agree(map));
    if (observation.properties.back()) {
        observation.properties.push_back(store_covers_once(map));
        observation.properties.push_back(load_agrees_with_store(map));
    }
    return observation;
}

std::vector<Case> make_cases() {
    std::vector<Case> cases;
    for (const MatrixType& m : representatives(covered_matrix_types())) {
        cases.push_back({"Length", std::string(component_name(m.type)) + "/" + matrix_name(m), {std::nullopt, {m}},
                         [m](CoopmatDevice& device) { return run_length(device, m); }, false});
    }
    return cases;
}

const bool registered = register_cases(make_cases);

}  // namespace
}  // namespace vkpolyfill::test::coopmat
