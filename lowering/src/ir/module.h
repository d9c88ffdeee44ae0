// A SPIR-V module held in the sections of the logical layout (SPIR-V spec 2.4), so passes can add to
// one section without shifting the others, and written back by concatenation.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/function.h"
#include "ir/instruction.h"
#include "ir/operand_walker.h"

namespace vkpolyfill::lowering::ir {

inline constexpr uint32_t kMagicNumber = 0x07230203u;
inline constexpr uint32_t kHeaderWords = 5;
// How deep the lowering follows a nesting of types or constant expressions: its walks recurse once a
// level (a native stack frame each), and SPIR-V itself nests structs at most this deep.
inline constexpr uint32_t kMostNesting = 255;

struct ModuleHeader {
    uint32_t magic = kMagicNumber;
    uint32_t version = 0;
    uint32_t generator = 0;
    uint32_t bound = 1;  // every result id is below it
    uint32_t schema = 0;
};

class Module final : public OperandContext {
  public:
    ModuleHeader header;
    InstructionList capabilities;
    InstructionList extensions;
    InstructionList ext_inst_imports;
    InstructionList memory_model;  // OpMemoryModel, then OpSamplerImageAddressingModeNV if any
    InstructionList entry_points;
    InstructionList execution_modes;
    InstructionList debug_source;  // OpString, OpSourceExtension, OpSource, OpSourceContinued
    InstructionList debug_names;   // OpName, OpMemberName
    InstructionList debug_module_processed;
    InstructionList annotations;
    InstructionList types_values_constants;  // also OpLine and non-semantic OpExtInst between them
    std::vector<std::unique_ptr<Function>> functions;

    // The sections before the functions, in layout order.
    std::array<const InstructionList*, 11> global_sections() const;

    template <typename Visit>
    void for_each_instruction(Visit&& visit) const {
        for (const InstructionList* section : global_sections()) {
            for (const auto& instruction : *section) visit(*instruction);
        }
        for (const auto& function : functions) function->for_each_instruction(visit);
    }

    // A fresh result id: the bound grows by one.
    uint32_t take_next_id();

    // Every instruction that enters the module is registered here, so ids resolve to their
    // definitions (instructions without a result id are ignored). The id must be below the bound.
    void register_definition(const Instruction& instruction);
    const Instruction* find_definition(uint32_t id) const;
    // For an instruction that leaves the module: its id no longer resolves (to freed memory).
    void forget_definition(uint32_t id);

    bool has_capability(uint32_t capability) const;
    void add_capability(uint32_t capability);
    bool has_extension(std::string_view name) const;
    void add_extension(std::string_view name);

    // The id of OpExtInstImport `name`, adding the import if the module has none.
    uint32_t get_ext_inst_import(std::string_view name);

    std::vector<uint32_t> to_words() const;

    // OperandContext
    uint32_t literal_word_count(uint32_t type_id) const override;
    uint32_t type_of(uint32_t id) const override;
    const grammar::ExtInstSetInfo* ext_inst_set(uint32_t set_id) const override;

  private:
    std::vector<const Instruction*> definitions_;  // indexed by id
    std::unordered_map<uint32_t, const grammar::ExtInstSetInfo*> ext_inst_sets_;  // import id -> set
};

}  // namespace vkpolyfill::lowering::ir
