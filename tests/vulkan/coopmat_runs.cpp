#include "coopmat_runs.h"

#include <random>

#include "coopmat_matrix.h"

namespace vkpolyfill::test::coopmat {

std::vector<uint32_t> matrix_constants(const CoopmatDevice& device, const MatrixType& m, std::vector<uint32_t> extra) {
    std::vector<uint32_t> constants{device.subgroup_size(), m.rows, m.cols, static_cast<uint32_t>(m.use)};
    constants.insert(constants.end(), extra.begin(), extra.end());
    return constants;
}

std::vector<std::byte> run_a_b_to_o(CoopmatDevice& device, const PipelineSpec& spec, const MatrixType& m,
                                    const std::vector<std::byte>& a, const std::vector<std::byte>& b,
                                    std::span<const std::byte> push_constants) {
    const size_t bytes = static_cast<size_t>(m.rows) * m.cols * component_bytes(m.type);
    return device.run(spec, {a, b, std::vector<std::byte>(bytes)}, push_constants)[2];
}

Output matrix_output(std::string name, const MatrixType& m, std::vector<std::byte> actual) {
    const size_t size = actual.size();
    return {std::move(name), m.type, std::move(actual), std::vector<std::byte>(size), {}, {},
            [layout = MemoryLayout{m.rows, m.cols, false, m.cols, 0}](size_t i) { return layout.where(i); }};
}

std::vector<std::byte> random_matrix(const MatrixType& m, uint32_t seed) {
    std::mt19937 rng(seed);
    return generated(m.type, static_cast<size_t>(m.rows) * m.cols, [&] { return random_value(m.type, rng); });
}

}  // namespace vkpolyfill::test::coopmat
