#include "passes/long_composites/struct_split.h"

#include <algorithm>
#include <format>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>

#include "ir/instruction_text.h"
#include "passes/long_composites/instructions.h"

namespace vkpolyfill::lowering::long_composites {
namespace {

// Why chunk boundaries are safe. A member that is a struct is aligned to its own alignment A (its
// largest member's, rounded up to 16 under std140), and the member after it may not start before its
// end rounded up to A. Each chunk struct is placed at the offset of its first member, so that offset
// must be a multiple of the chunk's A; the previous chunk then ends, rounded up, no later than that
// offset, because the original members did not overlap. The exact A depends on the storage class's
// layout rules, so this uses a bound every layout respects (std140, std430, scalar): a boundary at a
// multiple of the largest bound of any member, and of 16, is safe in all of them.
class AlignmentBounds {
  public:
    explicit AlignmentBounds(const ir::Module& module) : module_(module) {}

    // A power of two at least the alignment `type` has under any of Vulkan's layouts. Past
    // ir::kMostNesting levels (a stack frame each) the largest alignment there is, which bounds any.
    uint32_t of(uint32_t type_id, uint32_t depth = 0) {
        if (depth > ir::kMostNesting) return kLargest;
        if (const auto it = memo_.find(type_id); it != memo_.end()) return it->second;
        const uint32_t bound = compute(type_id, depth);
        memo_[type_id] = bound;
        return bound;
    }

  private:
    static constexpr uint32_t kLargest = 32;  // a 64-bit four-component vector

    uint32_t compute(uint32_t type_id, uint32_t depth) {
        const ir::Instruction* type = module_.find_definition(type_id);
        if (!type) return kLargest;
        switch (type->opcode()) {
            case spv::OpTypeInt:
            case spv::OpTypeFloat:
                return std::max(1u, type->word(2) / 8);
            case spv::OpTypeBool:
                return 4;
            case spv::OpTypePointer:
            case spv::OpTypeUntypedPointerKHR:
                return 8;
            case spv::OpTypeVector:  // three- and four-component vectors align as four
                return 4 * of(type->word(2), depth + 1);
            case spv::OpTypeMatrix:
            case spv::OpTypeArray:
            case spv::OpTypeRuntimeArray:  // std140 rounds these up to 16
                return std::max(16u, of(type->word(2), depth + 1));
            case spv::OpTypeStruct: {
                uint32_t bound = 16;
                for (uint32_t member : type->operand_words()) {
                    bound = std::max(bound, of(member, depth + 1));
                    if (bound == kLargest) break;
                }
                return bound;
            }
            default:
                return kLargest;
        }
    }

    const ir::Module& module_;
    std::unordered_map<uint32_t, uint32_t> memo_;
};

class StructPlanner {
  public:
    StructPlanner(const ir::Module& module, const ir::Instruction& type, std::span<const std::optional<uint32_t>> offsets,
                  Diagnostics& diagnostics)
        : module_(module), type_(type), offsets_(offsets), diagnostics_(diagnostics), bounds_(module) {}

    std::optional<SplitType> plan() {
        SplitType split;
        split.id = type_.result_id();
        split.is_struct = true;
        split.member_types.assign(type_.operand_words().begin(), type_.operand_words().end());
        split.length = static_cast<uint32_t>(split.member_types.size());
        const ir::Instruction* last = module_.find_definition(split.member_types.back());
        const bool runtime_array_last = last && last->opcode() == spv::OpTypeRuntimeArray;
        const uint32_t chunked = split.length - (runtime_array_last ? 1 : 0);
        if (!offsets_.empty() && !check_offsets()) return std::nullopt;

        const uint32_t boundary = offsets_.empty() ? 1 : std::max(16u, largest_bound(split.member_types, 0, chunked));
        for (uint32_t first = 0; first < chunked;) {
            const std::optional<uint32_t> end = chunk_end(first, chunked, boundary);
            if (!end) return std::nullopt;
            split.groups.push_back({first, *end - first, false, 0, offset_of(first)});
            first = *end;
        }
        if (runtime_array_last) {
            if (!runtime_array_fits(split.member_types, split.groups.back())) return std::nullopt;
            split.groups.push_back({chunked, 1, true, split.member_types.back(), offset_of(chunked)});
        }
        if (split.groups.size() > kMaxStructMembers) {
            return fail(std::format("it has {} members, more than two levels of {} can hold", split.length, kMaxStructMembers));
        }
        for (uint32_t g = 0; g < split.groups.size(); ++g) {
            split.group_of_member.insert(split.group_of_member.end(), split.groups[g].count, g);
        }
        return split;
    }

  private:
    std::optional<uint32_t> offset_of(uint32_t member) const {
        return offsets_.empty() ? std::nullopt : offsets_[member];
    }

    bool check_offsets() {
        for (size_t m = 0; m < offsets_.size(); ++m) {
            if (!offsets_[m]) {
                fail(std::format("member {} has no Offset while others have one", m));
                return false;
            }
            if (m > 0 && *offsets_[m] <= *offsets_[m - 1]) {
                fail(std::format("member {}'s Offset {} is not past member {}'s ({}); chunks need members in offset order",
                                 m, *offsets_[m], m - 1, *offsets_[m - 1]));
                return false;
            }
        }
        return true;
    }

    uint32_t largest_bound(std::span<const uint32_t> member_types, uint32_t first, uint32_t end) {
        uint32_t bound = 1;
        for (uint32_t m = first; m < end; ++m) bound = std::max(bound, bounds_.of(member_types[m]));
        return bound;
    }

    // Where the chunk starting at `first` ends: as late as the member limit allows, then earlier until
    // the next chunk can start there (a multiple of `boundary`, without layout any member).
    std::optional<uint32_t> chunk_end(uint32_t first, uint32_t chunked, uint32_t boundary) {
        if (first == 0 && offset_of(0).value_or(0) % boundary != 0) {
            fail(std::format("its first member's Offset {} is not a multiple of {}, where a nested struct can start",
                             *offset_of(0), boundary));
            return std::nullopt;
        }
        uint32_t end = std::min(chunked, first + kMaxStructMembers);
        if (end == chunked) return end;
        while (end > first && offset_of(end).value_or(0) % boundary != 0) --end;
        if (end == first) {
            fail(std::format("no member among the {} after member {} has an Offset that is a multiple of {}, where a "
                             "nested struct can start without moving any member",
                             kMaxStructMembers, first, boundary));
            return std::nullopt;
        }
        return end;
    }

    // The runtime array stays a direct member after the last chunk: it must not start inside the
    // padding that rounds the chunk up to its alignment.
    bool runtime_array_fits(std::span<const uint32_t> member_types, const Group& last_chunk) {
        const uint32_t bound = largest_bound(member_types, last_chunk.first, last_chunk.first + last_chunk.count);
        const uint32_t offset = offset_of(last_chunk.first + last_chunk.count).value_or(0);
        if (offset % bound == 0) return true;
        fail(std::format("its runtime array's Offset {} is not a multiple of {}, so it could start inside the last "
                         "chunk's padding",
                         offset, bound));
        return false;
    }

    std::nullopt_t fail(const std::string& why) {
        diagnostics_.error(std::format("cannot split struct %{} into nested structs of at most {} members: {}",
                                       type_.result_id(), kMaxStructMembers, why),
                           type_.source_offset(), ir::short_instruction_text(type_.words(), module_));
        return std::nullopt;
    }

    const ir::Module& module_;
    const ir::Instruction& type_;
    std::span<const std::optional<uint32_t>> offsets_;
    Diagnostics& diagnostics_;
    AlignmentBounds bounds_;
};

}  // namespace

std::optional<SplitType> plan_struct_split(const ir::Module& module, const ir::Instruction& type,
                                           std::span<const std::optional<uint32_t>> offsets, Diagnostics& diagnostics) {
    return StructPlanner(module, type, offsets, diagnostics).plan();
}

}  // namespace vkpolyfill::lowering::long_composites
