// Splits an instruction into operands by the generated grammar, so every id in a module can be found
// and remapped without per-opcode code.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "grammar/grammar.h"

namespace vkpolyfill::lowering::ir {

struct Operand {
    grammar::OperandKind kind;  // a composite's parts and an enumerant's parameters come as their own kinds
    uint32_t first_word;        // index into the instruction's words
    uint32_t word_count;
};

// What the walker needs to know about other instructions: some operands' sizes depend on them.
class OperandContext {
  public:
    virtual ~OperandContext() = default;
    // Words a literal of the numeric scalar type `type_id` takes; 0 if `type_id` is no such type.
    virtual uint32_t literal_word_count(uint32_t type_id) const = 0;
    // The result type of the instruction defining `id`, 0 if unknown.
    virtual uint32_t type_of(uint32_t id) const = 0;
    // The set an OpExtInstImport `set_id` imports, nullptr if unknown.
    virtual const grammar::ExtInstSetInfo* ext_inst_set(uint32_t set_id) const = 0;
};

// Fills `operands` with every operand of `words` (opcode word excluded) and returns an empty string,
// or returns why the words do not match the grammar. `words` must be one whole instruction whose
// opcode the grammar knows.
std::string walk_operands(std::span<const uint32_t> words, const OperandContext& context,
                          std::vector<Operand>& operands);

inline bool is_id(grammar::OperandKind kind) { return grammar::operand_kind(kind).category == grammar::Category::Id; }

}  // namespace vkpolyfill::lowering::ir
