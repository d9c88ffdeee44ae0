#include "ir/function_clone.h"

#include <spirv/unified1/spirv.hpp>
#include <vector>

namespace vkpolyfill::lowering::ir {
namespace {

void copy_list(Module& module, const InstructionList& from, InstructionList& to, const IdMap& ids) {
    for (const auto& original : from) {
        auto copy = std::make_unique<Instruction>(original->words(), original->info(), original->source_offset());
        remap_id_operands(*copy, ids, module);
        if (const uint32_t result = original->result_id()) {
            copy->set_word(original->info().has_result_type ? 2 : 1, ids.at(result));
            module.register_definition(*copy);
        }
        to.push_back(std::move(copy));
    }
}

// OpName and OpDecorate (with its literal forms) of the original ids, for the clone's.
void copy_names_and_decorations(InstructionList& section, const IdMap& ids) {
    const size_t count = section.size();
    for (size_t i = 0; i < count; ++i) {
        const Instruction& annotation = *section[i];
        const uint32_t opcode = annotation.opcode();
        if (opcode != spv::OpName && opcode != spv::OpDecorate && opcode != spv::OpDecorateString) continue;
        const auto target = ids.find(annotation.word(1));
        if (target == ids.end()) continue;
        std::vector<uint32_t> operands{target->second};
        operands.insert(operands.end(), annotation.words().begin() + 2, annotation.words().end());
        section.push_back(make_instruction(opcode, operands));
    }
}

}  // namespace

Function& clone_function(Module& module, const Function& function, IdMap& ids) {
    function.for_each_instruction([&](const Instruction& instruction) {
        if (const uint32_t id = instruction.result_id()) ids[id] = module.take_next_id();
    });
    auto copy = std::make_unique<Function>();
    copy_list(module, function.header, copy->header, ids);
    for (const BasicBlock& block : function.blocks) {
        BasicBlock& to = copy->blocks.emplace_back();
        copy_list(module, block.instructions, to.instructions, ids);
        copy_list(module, block.trailing, to.trailing, ids);
    }
    copy_list(module, function.epilogue, copy->epilogue, ids);
    copy_names_and_decorations(module.debug_names, ids);
    copy_names_and_decorations(module.annotations, ids);
    module.functions.push_back(std::move(copy));
    return *module.functions.back();
}

}  // namespace vkpolyfill::lowering::ir
