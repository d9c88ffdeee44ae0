#include "passes/long_composites/composite_rewrite.h"

#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::lowering::long_composites {
namespace {

// The opcode that spells out the constituents of a composite made by `opcode`, 0 if it makes none.
uint32_t spelled_out(uint32_t opcode) {
    switch (opcode) {
        case spv::OpConstantComposite:
        case spv::OpConstantCompositeReplicateEXT:
            return spv::OpConstantComposite;
        case spv::OpSpecConstantComposite:
        case spv::OpSpecConstantCompositeReplicateEXT:
            return spv::OpSpecConstantComposite;
        case spv::OpCompositeConstruct:
        case spv::OpCompositeConstructReplicateEXT:
            return spv::OpCompositeConstruct;
        default:
            return 0;
    }
}

}  // namespace

std::unique_ptr<ir::Instruction> nest_composite(const ir::Instruction& composite, const SplitTypes& splits,
                                                const Emit& emit) {
    const uint32_t opcode = spelled_out(composite.opcode());
    const SplitType* split = opcode ? find_split(splits, composite.type_id()) : nullptr;
    if (!split) return nullptr;
    const std::span<const uint32_t> constituents = composite.operand_words();
    // A replicate's chunks replicate its constituent too (an array's padding past its end is never
    // read, so it may be the constituent as well): spelling each out took 70,000 words a replicate.
    const bool replicate = opcode != composite.opcode();  // whose one constituent the grammar ensures
    std::vector<uint32_t> words{composite.type_id(), composite.result_id()};
    for (const Group& group : split->groups) {
        if (replicate) {
            words.push_back(group.direct ? constituents.front() : emit(composite.opcode(), group.type, constituents));
            continue;
        }
        if (group.direct) {
            words.push_back(constituents[group.first]);
            continue;
        }
        std::vector<uint32_t> chunk(constituents.begin() + group.first, constituents.begin() + group.first + group.count);
        if (chunk.size() < split->chunk_length) chunk.resize(split->chunk_length, split->padding);
        words.push_back(emit(opcode, group.type, chunk));
    }
    return ir::make_instruction(opcode, words);
}

void rewrite_constructs(ir::Module& module, const SplitTypes& splits) {
    for (const auto& function : module.functions) {
        for (ir::BasicBlock& block : function->blocks) {
            ir::InstructionList rewritten;
            rewritten.reserve(block.instructions.size());
            const Emit emit = emit_into(module, rewritten);
            for (auto& instruction : block.instructions) {
                if (auto nested = nest_composite(*instruction, splits, emit)) {
                    instruction = std::move(nested);
                    module.register_definition(*instruction);
                }
                rewritten.push_back(std::move(instruction));
            }
            block.instructions = std::move(rewritten);
        }
    }
}

}  // namespace vkpolyfill::lowering::long_composites
