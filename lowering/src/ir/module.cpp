#include "ir/module.h"

#include <algorithm>
#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::lowering::ir {

std::array<const InstructionList*, 11> Module::global_sections() const {
    return {&capabilities,  &extensions,  &ext_inst_imports,       &memory_model, &entry_points,
            &execution_modes, &debug_source, &debug_names, &debug_module_processed, &annotations,
            &types_values_constants};
}

uint32_t Module::take_next_id() { return header.bound++; }

void Module::register_definition(const Instruction& instruction) {
    const uint32_t id = instruction.result_id();
    if (id == 0) return;
    // Grown to the ids really defined (geometrically), not to the header's bound: a few-word module may claim
    // a bound of four million, and sizing for it cost fuzzing 35% of its time in allocation.
    if (definitions_.size() <= id) definitions_.resize(id + 1, nullptr);
    definitions_[id] = &instruction;
    if (instruction.opcode() == spv::OpExtInstImport) {
        const auto name = decode_literal_string(instruction.operand_words());
        ext_inst_sets_[id] = grammar::find_ext_inst_set(name);
    }
}

const Instruction* Module::find_definition(uint32_t id) const {
    return id < definitions_.size() ? definitions_[id] : nullptr;
}

void Module::forget_definition(uint32_t id) {
    if (id < definitions_.size()) definitions_[id] = nullptr;
}

bool Module::has_capability(uint32_t capability) const {
    return std::ranges::any_of(capabilities, [&](const auto& i) { return i->word(1) == capability; });
}

void Module::add_capability(uint32_t capability) {
    if (has_capability(capability)) return;
    const uint32_t operand[] = {capability};
    capabilities.push_back(make_instruction(spv::OpCapability, operand));
}

bool Module::has_extension(std::string_view name) const {
    return std::ranges::any_of(extensions,
                               [&](const auto& i) { return decode_literal_string(i->operand_words()) == name; });
}

void Module::add_extension(std::string_view name) {
    if (has_extension(name)) return;
    std::vector<uint32_t> operands;
    append_literal_string(operands, name);
    extensions.push_back(make_instruction(spv::OpExtension, operands));
}

uint32_t Module::get_ext_inst_import(std::string_view name) {
    for (const auto& import : ext_inst_imports) {
        if (decode_literal_string(import->operand_words()) == name) return import->result_id();
    }
    std::vector<uint32_t> words{take_next_id()};
    append_literal_string(words, name);
    ext_inst_imports.push_back(make_instruction(spv::OpExtInstImport, words));
    register_definition(*ext_inst_imports.back());
    return words[0];
}

std::vector<uint32_t> Module::to_words() const {
    size_t size = kHeaderWords;  // counted first: a module can be megabytes
    for_each_instruction([&](const Instruction& instruction) { size += instruction.words().size(); });
    std::vector<uint32_t> words;
    words.reserve(size);
    words.insert(words.end(), {header.magic, header.version, header.generator, header.bound, header.schema});
    for_each_instruction([&](const Instruction& instruction) {
        words.insert(words.end(), instruction.words().begin(), instruction.words().end());
    });
    return words;
}

uint32_t Module::literal_word_count(uint32_t type_id) const {
    const Instruction* type = find_definition(type_id);
    if (!type || (type->opcode() != spv::OpTypeInt && type->opcode() != spv::OpTypeFloat)) return 0;
    return (type->word(2) + 31) / 32;
}

uint32_t Module::type_of(uint32_t id) const {
    const Instruction* definition = find_definition(id);
    return definition ? definition->type_id() : 0;
}

const grammar::ExtInstSetInfo* Module::ext_inst_set(uint32_t set_id) const {
    const auto it = ext_inst_sets_.find(set_id);
    return it != ext_inst_sets_.end() ? it->second : nullptr;
}

}  // namespace vkpolyfill::lowering::ir
