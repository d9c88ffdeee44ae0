// The generated tables (spirv_grammar_tables.cpp in the build tree) behind grammar.h's lookups.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "grammar/grammar.h"

namespace vkpolyfill::lowering::grammar {

std::span<const InstructionInfo> instruction_table();  // sorted by opcode
std::span<const uint16_t> opcode_index_table();         // opcode -> index in instruction_table, 0xFFFF: none
std::span<const OperandKindInfo> operand_kind_table();  // indexed by OperandKind
std::span<const ExtInstSetInfo> ext_inst_set_table();
std::span<const std::string_view> extension_name_table();  // sorted

}  // namespace vkpolyfill::lowering::grammar
