#include "passes/long_composites/split_type.h"

namespace vkpolyfill::lowering::long_composites {

Path SplitType::path(uint32_t index) const {
    if (!is_struct) return {index / chunk_length, index % chunk_length};
    const uint32_t outer = group_of_member[index];
    const Group& group = groups[outer];
    if (group.direct) return {outer, std::nullopt};
    return {outer, index - group.first};
}

bool SplitType::same_grouping(const SplitType& other) const {
    if (is_struct != other.is_struct || length != other.length || chunk_length != other.chunk_length ||
        groups.size() != other.groups.size()) {
        return false;
    }
    for (size_t g = 0; g < groups.size(); ++g) {
        if (groups[g].first != other.groups[g].first || groups[g].direct != other.groups[g].direct) return false;
    }
    return true;
}

}  // namespace vkpolyfill::lowering::long_composites
