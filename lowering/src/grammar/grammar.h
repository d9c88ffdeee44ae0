// The SPIR-V grammar as tables generated from SPIRV-Headers (scripts/gen_spirv_grammar.py), with the
// lookups the parser and the operand walker make per instruction.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "spirv_grammar_kinds.h"

namespace vkpolyfill::lowering::grammar {

enum class Category : uint8_t { Id, Literal, ValueEnum, BitEnum, Composite };
enum class Quantifier : uint8_t { One, Optional, Variadic };

struct OperandSpec {
    OperandKind kind;
    Quantifier quantifier;
};

struct InstructionInfo {
    uint32_t opcode;
    std::string_view name;
    InstructionClass instruction_class;
    bool has_result_type;
    bool has_result;
    std::span<const OperandSpec> operands;  // all of them, IdResultType and IdResult included
};

struct EnumerantInfo {
    uint32_t value;
    std::string_view name;
    std::span<const OperandSpec> parameters;  // operands that follow when this value is given
};

struct OperandKindInfo {
    std::string_view name;  // an extended set's own kind reads "<set>:<kind>"
    Category category;
    std::span<const EnumerantInfo> enumerants;  // sorted by value
    std::span<const OperandKind> bases;         // a Composite's parts, in order
};

struct ExtInstInfo {
    uint32_t number;
    std::string_view name;
    std::span<const OperandSpec> operands;  // after the OpExtInst's Set and Instruction operands
};

struct ExtInstSetInfo {
    std::string_view import_name;  // as OpExtInstImport names it
    bool versioned;                // import_name is a prefix a version number follows
    bool non_semantic;             // "NonSemantic.*": every operand an id, forward references allowed
    std::span<const ExtInstInfo> instructions;  // sorted by number
};

const InstructionInfo* find_instruction(uint32_t opcode);
const OperandKindInfo& operand_kind(OperandKind kind);
const EnumerantInfo* find_enumerant(OperandKind kind, uint32_t value);

// The set OpExtInstImport names; an unknown "NonSemantic.*" set yields a set without instruction
// grammars (every operand an id), any other unknown name nullptr.
const ExtInstSetInfo* find_ext_inst_set(std::string_view import_name);
const ExtInstInfo* find_ext_inst(const ExtInstSetInfo& set, uint32_t number);

bool is_known_extension(std::string_view name);

// Names for messages; empty when the grammar does not know the number.
std::string_view opcode_name(uint32_t opcode);
std::string_view capability_name(uint32_t capability);
std::string_view enumerant_name(OperandKind kind, uint32_t value);  // a storage class, a dimension, ...

}  // namespace vkpolyfill::lowering::grammar
