#include "helpers/link_helper.h"

#include <format>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <vector>

#include "helpers/helper_modules.h"
#include "ir/parser.h"
#include "specialization.h"

namespace vkpolyfill::lowering::helpers {
namespace {

class Linker {
  public:
    Linker(ir::Module& helper, ir::Module& target, ir::TypeManager& types, Diagnostics& diagnostics)
        : helper_(helper), target_(target), types_(types), diagnostics_(diagnostics) {}

    uint32_t link(const ir::Function& root) {
        std::vector<const ir::Function*> functions{&root};
        for (size_t i = 0; i < functions.size(); ++i) {  // the call graph, breadth first
            functions[i]->for_each_instruction([&](const ir::Instruction& instruction) {
                if (instruction.opcode() != spv::OpFunctionCall) return;
                const ir::Function* callee = find_function(instruction.operand_words()[0]);
                if (callee && std::ranges::find(functions, callee) == functions.end()) functions.push_back(callee);
            });
        }
        for (const ir::Function* function : functions) {
            function->for_each_instruction([&](const ir::Instruction& instruction) {
                if (const uint32_t id = instruction.result_id()) local_[id] = target_.take_next_id();
            });
        }
        for (const ir::Function* function : functions) {
            if (!copy(*function)) return 0;
        }
        return local_.at(root.id());
    }

  private:
    const ir::Function* find_function(uint32_t id) const {
        for (const auto& function : helper_.functions) {
            if (function->id() == id) return function.get();
        }
        return nullptr;
    }

    bool copy(const ir::Function& function) {
        auto copied = std::make_unique<ir::Function>();
        bool ok = true;
        const auto clone = [&](const ir::InstructionList& from, ir::InstructionList& to) {
            for (const auto& instruction : from) {
                auto words = std::vector<uint32_t>(instruction->words().begin(), instruction->words().end());
                if (!remap(*instruction, words)) ok = false;
                to.push_back(ir::make_instruction(instruction->opcode(), std::span(words).subspan(1)));
                target_.register_definition(*to.back());
            }
        };
        clone(function.header, copied->header);
        for (const ir::BasicBlock& block : function.blocks) clone(block.instructions, copied->blocks.emplace_back().instructions);
        clone(function.epilogue, copied->epilogue);
        if (ok) target_.functions.push_back(std::move(copied));
        return ok;
    }

    // Rewrites the ids in `words` (a copy of `instruction`) into the target's.
    bool remap(const ir::Instruction& instruction, std::vector<uint32_t>& words) {
        std::vector<ir::Operand> operands;
        ir::walk_operands(instruction.words(), helper_, operands);
        for (const ir::Operand& operand : operands) {
            if (!ir::is_id(operand.kind)) continue;
            const uint32_t id = words[operand.first_word];
            const auto local = local_.find(id);
            const uint32_t mapped = local != local_.end() ? local->second : global(id);
            if (mapped == 0) return false;
            words[operand.first_word] = mapped;
        }
        return true;
    }

    // A type, constant or extended-instruction import of the helper, found or made in the target.
    uint32_t global(uint32_t id) {
        if (const auto it = global_.find(id); it != global_.end()) return it->second;
        const ir::Instruction* definition = helper_.find_definition(id);
        uint32_t mapped = 0;
        if (definition && definition->opcode() == spv::OpExtInstImport) {
            mapped = target_.get_ext_inst_import(ir::decode_literal_string(definition->operand_words()));
        } else if (definition && (definition->info().instruction_class == grammar::InstructionClass::TypeDeclaration ||
                                  definition->info().instruction_class == grammar::InstructionClass::ConstantCreation)) {
            std::vector<uint32_t> words(definition->words().begin(), definition->words().end());
            std::vector<ir::Operand> operands;
            ir::walk_operands(definition->words(), helper_, operands);
            for (const ir::Operand& operand : operands) {
                if (!ir::is_id(operand.kind) || operand.kind == grammar::OperandKind::IdResult) continue;
                if ((words[operand.first_word] = global(words[operand.first_word])) == 0) return 0;
            }
            const uint32_t type = definition->info().has_result_type ? words[1] : 0;
            const size_t first_operand = words.size() - definition->operand_words().size();
            mapped = types_.get_equivalent(definition->opcode(), type, std::span(words).subspan(first_operand));
        } else {
            diagnostics_.error(std::format("internal: helper function uses %{} ({}), which cannot be linked", id,
                                           definition ? definition->name() : "undefined"));
            return 0;
        }
        global_[id] = mapped;
        return mapped;
    }

    ir::Module& helper_;
    ir::Module& target_;
    ir::TypeManager& types_;
    Diagnostics& diagnostics_;
    std::unordered_map<uint32_t, uint32_t> local_;   // ids defined inside the copied functions
    std::unordered_map<uint32_t, uint32_t> global_;  // types, constants, imports
};

const ir::Function* find_named_function(const ir::Module& module, std::string_view name) {
    for (const auto& entry : module.debug_names) {
        if (entry->opcode() != spv::OpName) continue;
        const std::string full = ir::decode_literal_string(entry->words().subspan(2));
        if (full.size() <= name.size() || full.compare(0, name.size(), name) != 0 || full[name.size()] != '(') continue;
        for (const auto& function : module.functions) {
            if (function->id() == entry->word(1)) return function.get();
        }
    }
    return nullptr;
}

}  // namespace

SpecializationValue uint_value(uint32_t spec_id, uint32_t number) {
    return {spec_id, {static_cast<uint8_t>(number), static_cast<uint8_t>(number >> 8), static_cast<uint8_t>(number >> 16),
                      static_cast<uint8_t>(number >> 24)}};
}

uint32_t link_helper_function(ir::Module& target, ir::TypeManager& types, std::string_view helper,
                              std::string_view function, std::span<const SpecializationValue> values,
                              Diagnostics& diagnostics) {
    const std::span<const uint32_t> words = helper_module(helper);
    Diagnostics helper_diagnostics;
    const std::unique_ptr<ir::Module> module = words.empty() ? nullptr : ir::parse(words, helper_diagnostics);
    const ir::Function* root = module ? find_named_function(*module, function) : nullptr;
    if (!root) {
        diagnostics.error(std::format("internal: helper {}::{} is missing from this build", helper, function));
        return 0;
    }
    // Freeze every specialization constant: the given values, the rest at their defaults.
    std::vector<uint32_t> specialized;
    for (const auto& instruction : module->types_values_constants) {
        const uint32_t opcode = instruction->opcode();
        if (opcode == spv::OpSpecConstant || opcode == spv::OpSpecConstantTrue || opcode == spv::OpSpecConstantFalse ||
            opcode == spv::OpSpecConstantOp) {
            specialized.push_back(instruction->result_id());
        }
    }
    for (uint32_t id : specialized) {
        if (!freeze_constant(*module, id, values, diagnostics)) return 0;
    }
    return Linker(*module, target, types, diagnostics).link(*root);
}

}  // namespace vkpolyfill::lowering::helpers
