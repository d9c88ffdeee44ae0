#include "attention_kernels.h"

namespace vkpolyfill::bench {

AttentionSpecialization::AttentionSpecialization(uint32_t subgroup_size, const AttentionShape& shape)
    : constants{subgroup_size, shape.keys, shape.head, shape.block} {}

std::string coopmat2_attention_unavailable(const BenchDevice& device, const AttentionShape& shape) {
    const std::string scores = device.flexible_unavailable(MatrixShape{kAttentionBlockRows, shape.block, shape.head}, 0);
    return scores.empty() ? device.flexible_unavailable(MatrixShape{kAttentionBlockRows, shape.head, shape.block}, 0) : scores;
}

}  // namespace vkpolyfill::bench
