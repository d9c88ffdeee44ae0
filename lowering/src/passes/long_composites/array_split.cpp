#include "passes/long_composites/array_split.h"

#include <algorithm>
#include <format>

#include "ir/instruction_text.h"
#include "passes/long_composites/instructions.h"

namespace vkpolyfill::lowering::long_composites {
namespace {

uint32_t divide_rounding_up(uint32_t a, uint32_t b) { return a / b + (a % b != 0); }

// The fewest chunks that divide the array evenly, each within one composite; 0 when none does.
uint32_t even_chunk_count(uint32_t length) {
    for (uint32_t chunks = divide_rounding_up(length, kMaxConstituents); chunks <= kMaxConstituents; ++chunks) {
        if (length % chunks == 0) return chunks;
    }
    return 0;
}

}  // namespace

std::optional<SplitType> plan_array_split(const ir::Module& module, const ir::Instruction& type, uint32_t length,
                                          bool has_stride, Diagnostics& diagnostics) {
    // Even chunks keep every element where it was in memory. Without them the last chunk is padded,
    // which only an array with no explicit layout (ArrayStride) may be: its size is nobody else's.
    uint32_t chunks = even_chunk_count(length);
    if (chunks == 0 && has_stride) {
        diagnostics.error(std::format("cannot split array %{} of {} elements with an ArrayStride: no chunk length of at "
                                      "most {} divides it, and padding would change its size",
                                      type.result_id(), length, kMaxConstituents),
                          type.source_offset(), ir::short_instruction_text(type.words(), module));
        return std::nullopt;
    }
    if (chunks == 0) chunks = divide_rounding_up(length, kMaxConstituents);

    SplitType split;
    split.id = type.result_id();
    split.element_type = type.word(2);
    split.length = length;
    split.chunk_length = divide_rounding_up(length, chunks);
    for (uint32_t first = 0; first < length; first += split.chunk_length) {
        split.groups.push_back({first, std::min(split.chunk_length, length - first), false, 0, std::nullopt});
    }
    return split;
}

}  // namespace vkpolyfill::lowering::long_composites
