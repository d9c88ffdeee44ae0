#include "passes/long_composites/split_plan.h"

#include <format>
#include <map>
#include <spirv/unified1/spirv.hpp>
#include <unordered_set>

#include "ir/instruction_text.h"
#include "passes/long_composites/array_split.h"
#include "passes/long_composites/instructions.h"
#include "passes/long_composites/struct_split.h"
#include "specialization.h"

namespace vkpolyfill::lowering::long_composites {
namespace {

bool spells_out_constituents(uint32_t opcode) {
    return opcode == spv::OpConstantComposite || opcode == spv::OpSpecConstantComposite ||
           opcode == spv::OpCompositeConstruct;
}

class Planner {
  public:
    explicit Planner(PassContext& context) : context_(context), module_(context.module) {}

    SplitTypes plan(std::span<const uint32_t> merged_composites) {
        merged_.insert(merged_composites.begin(), merged_composites.end());
        plan_structs();
        for (const auto& annotation : module_.annotations) {
            if (annotation->opcode() == spv::OpDecorate && annotation->word(2) == spv::DecorationArrayStride) {
                strided_.insert(annotation->word(1));
            }
        }
        for (const auto& instruction : module_.types_values_constants) check_composite(*instruction);
        for (const auto& function : module_.functions) {
            for (const ir::BasicBlock& block : function->blocks) {
                for (const auto& instruction : block.instructions) check_composite(*instruction);
            }
        }
        reject_group_member_decorations();
        return std::move(splits_);
    }

  private:
    void plan_structs() {
        std::map<uint32_t, std::vector<std::optional<uint32_t>>> offsets;  // of the structs to split, by id
        for (const auto& instruction : module_.types_values_constants) {
            if (instruction->opcode() == spv::OpTypeStruct && instruction->operand_words().size() > kMaxStructMembers) {
                offsets[instruction->result_id()];
            }
        }
        if (offsets.empty()) return;
        for (const auto& annotation : module_.annotations) {
            if (annotation->opcode() != spv::OpMemberDecorate || annotation->word(3) != spv::DecorationOffset) continue;
            const auto it = offsets.find(annotation->word(1));
            if (it == offsets.end()) continue;
            const ir::Instruction* type = module_.find_definition(it->first);
            it->second.resize(type->operand_words().size());
            if (annotation->word(2) < it->second.size()) it->second[annotation->word(2)] = annotation->word(4);
        }
        for (const auto& [id, member_offsets] : offsets) {
            if (auto split = plan_struct_split(module_, *module_.find_definition(id), member_offsets, context_.diagnostics)) {
                splits_.emplace(id, std::move(*split));
            }
        }
    }

    // Constituents a composite of `type` takes, when the module says: members, elements (at the
    // pipeline's specialization), components or columns.
    std::optional<uint64_t> constituents_of(uint32_t type_id) const {
        const ir::Instruction* type = module_.find_definition(type_id);
        if (!type) return std::nullopt;
        switch (type->opcode()) {
            case spv::OpTypeStruct: return type->operand_words().size();
            case spv::OpTypeArray: return evaluate_constant(module_, type->word(3), context_.specialization);
            case spv::OpTypeVector:
            case spv::OpTypeMatrix: return type->word(3);
            default: return std::nullopt;
        }
    }

    // A composite spelled out over continuations must match its type; one too long for an instruction
    // makes its array type split.
    void check_composite(const ir::Instruction& composite) {
        if (!spells_out_constituents(composite.opcode())) return;
        const size_t count = composite.operand_words().size();
        const bool too_long = count > kMaxConstituents;
        if (!too_long && !merged_.contains(composite.result_id())) return;
        const uint32_t type = composite.type_id();
        if (const std::optional<uint64_t> expected = constituents_of(type); expected && *expected != count) {
            fail(std::format("{} %{} has {} constituents (its continuations included), but its type %{} takes {}",
                             composite.name(), composite.result_id(), count, type, *expected),
                 composite);
            return;
        }
        if (!too_long || splits_.contains(type)) return;
        const ir::Instruction* definition = module_.find_definition(type);
        if (!definition || definition->opcode() != spv::OpTypeArray) {
            fail(std::format("{} %{} has {} constituents, more than one instruction holds, and its type %{} is not an "
                             "array or a struct the pass can nest",
                             composite.name(), composite.result_id(), count, type),
                 composite);
            return;
        }
        // Splitting fixes the length: a specialization constant's is frozen to the pipeline's value.
        const std::optional<uint64_t> length =
            freeze_constant(module_, definition->word(3), context_.specialization, context_.diagnostics);
        if (!length) return;
        if (auto split = plan_array_split(module_, *definition, static_cast<uint32_t>(*length), strided_.contains(type),
                                          context_.diagnostics)) {
            splits_.emplace(type, std::move(*split));
        }
    }

    // Decoration groups are deprecated and name members by index: not worth nesting.
    void reject_group_member_decorations() {
        for (const auto& annotation : module_.annotations) {
            if (annotation->opcode() != spv::OpGroupMemberDecorate) continue;
            const auto words = annotation->words();
            for (size_t i = 2; i < words.size(); i += 2) {
                if (splits_.contains(words[i])) {
                    fail(std::format("OpGroupMemberDecorate on struct %{}, which must be split, is not supported", words[i]),
                         *annotation);
                }
            }
        }
    }

    void fail(const std::string& message, const ir::Instruction& at) {
        context_.diagnostics.error(message, at.source_offset(), ir::short_instruction_text(at.words(), module_));
    }

    PassContext& context_;
    ir::Module& module_;
    std::unordered_set<uint32_t> merged_;
    std::unordered_set<uint32_t> strided_;  // types with an ArrayStride
    SplitTypes splits_;
};

}  // namespace

SplitTypes plan_splits(PassContext& context, std::span<const uint32_t> merged_composites) {
    return Planner(context).plan(merged_composites);
}

}  // namespace vkpolyfill::lowering::long_composites
