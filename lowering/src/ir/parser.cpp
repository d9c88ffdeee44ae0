#include "ir/parser.h"

#include <format>
#include <spirv/unified1/spirv.hpp>
#include <unordered_set>

#include "ir/instruction_text.h"
#include "ir/layout.h"

namespace vkpolyfill::lowering::ir {

namespace {

constexpr uint32_t kByteSwappedMagicNumber = 0x03022307u;

// An id used before its definition, to be judged once the whole module is read.
struct ForwardUse {
    uint32_t id;
    const Instruction* user;
    bool any_definition_allowed;  // the user may name anything defined later (OpName, OpPhi, ...)
};

class Parser {
  public:
    Parser(std::span<const uint32_t> words, Diagnostics& diagnostics)
        : words_(words), diagnostics_(diagnostics), module_(std::make_unique<Module>()) {}

    std::unique_ptr<Module> parse() {
        if (!parse_header()) return nullptr;
        while (offset_ < words_.size()) {
            if (!parse_instruction()) return nullptr;
        }
        if (!finish()) return nullptr;
        return std::move(module_);
    }

  private:
    bool parse_header() {
        if (words_.size() < kHeaderWords) {
            return fail(std::format("truncated module: {} word(s), the header alone takes {}", words_.size(),
                                    kHeaderWords),
                        0);
        }
        if (words_[0] == kByteSwappedMagicNumber) {
            return fail("the module is byte-swapped (big-endian words); it must be in host byte order", 0);
        }
        if (words_[0] != kMagicNumber) return fail(std::format("bad magic number {:#010x}", words_[0]), 0);
        ModuleHeader& header = module_->header;
        header = {words_[0], words_[1], words_[2], words_[3], words_[4]};
        if (header.bound == 0 || header.bound > kMaxIdBound + 1) {
            return fail(std::format("id bound {} is outside 1..{}", header.bound, kMaxIdBound + 1), 3);
        }
        offset_ = kHeaderWords;
        return true;
    }

    bool parse_instruction() {
        const uint32_t first = words_[offset_];
        const uint32_t word_count = first >> 16;
        const uint32_t opcode = first & 0xFFFFu;
        const auto available = words_.subspan(offset_);
        if (word_count == 0) {
            return fail("instruction with word count 0", offset_, raw_instruction_text(available.first(1)));
        }
        if (word_count > available.size()) {
            return fail(std::format("instruction of {} words runs past the end of the module ({} left)", word_count,
                                    available.size()),
                        offset_, raw_instruction_text(available));
        }
        const auto words = available.first(word_count);
        const grammar::InstructionInfo* info = grammar::find_instruction(opcode);
        if (!info) return fail(std::format("unknown opcode {}", opcode), offset_, raw_instruction_text(words));
        if (const std::string error = walk_operands(words, *module_, operands_); !error.empty()) {
            return fail(std::format("malformed {}: {}", info->name, error), offset_, raw_instruction_text(words));
        }
        auto instruction = std::make_unique<Instruction>(words, *info, offset_);
        if (!check_ids(*instruction) || !check_import(*instruction) || !check_vector(*instruction) ||
            !check_type_operands(*instruction) || !check_source_file(*instruction)) {
            return false;
        }
        module_->register_definition(*instruction);  // after check_ids: a use of its own result is a forward use
        if (!place(std::move(instruction))) return false;
        offset_ += word_count;
        return true;
    }

    bool check_ids(const Instruction& instruction) {
        const uint32_t bound = module_->header.bound;
        for (const Operand& operand : operands_) {
            if (!is_id(operand.kind)) continue;
            const uint32_t id = instruction.word(operand.first_word);
            if (id == 0 || id >= bound) {
                return fail(std::format("id {} is outside 1..{} (the bound)", id, bound - 1), instruction);
            }
            const Instruction* definition = module_->find_definition(id);
            const bool defined = definition != nullptr;
            if (operand.kind == grammar::OperandKind::IdResultType) {
                // Every pass reads an instruction's type through this operand; an earlier type is all it can be.
                if (!is_type_declaration(definition)) {
                    return fail(std::format("result type %{} is not a type declared before this instruction", id),
                                instruction);
                }
                // Passes take a variable's pointee from its pointer type's third word.
                if (instruction.opcode() == spv::OpVariable && definition->opcode() != spv::OpTypePointer) {
                    return fail(std::format("the variable's result type %{} is not an OpTypePointer", id), instruction);
                }
            }
            if (operand.kind == grammar::OperandKind::IdResult) {
                if (defined) return fail(std::format("%{} is defined twice", id), instruction);
            } else if (!defined) {
                forward_uses_.push_back({id, &instruction, may_use_any_later_definition(instruction)});
            }
        }
        if (instruction.opcode() == spv::OpTypeForwardPointer) forward_pointers_.insert(instruction.word(1));
        return true;
    }

    // Passes expand a vector into its components: SPIR-V has vectors of 2, 3 and 4 components, and of
    // 8 and 16 with the Vector16 capability (a fuzzed vector of 711 million made one unroll them all).
    bool check_vector(const Instruction& instruction) {
        if (instruction.opcode() != spv::OpTypeVector) return true;
        const uint32_t count = instruction.word(3);
        if (count == 2 || count == 3 || count == 4 || count == 8 || count == 16) return true;
        return fail(std::format("a vector of {} components (SPIR-V allows 2, 3, 4, 8 and 16)", count), instruction);
    }

    // Passes walk a type's members, elements, pointee and parameters as types (a struct naming a
    // variable as a member kept that id where a type belongs through the Float16 pass). Only a
    // forward pointer may be named before its definition (any instruction may name a later label).
    bool check_type_operands(const Instruction& instruction) {
        std::span<const uint32_t> types;
        switch (instruction.opcode()) {
            case spv::OpTypeStruct:
            case spv::OpTypeFunction:
                types = instruction.words().subspan(2);
                break;
            case spv::OpTypeVector:
            case spv::OpTypeMatrix:
            case spv::OpTypeArray:
            case spv::OpTypeRuntimeArray:
                types = instruction.words().subspan(2, 1);
                break;
            case spv::OpTypePointer:
                types = instruction.words().subspan(3, 1);
                break;
            default:
                return true;
        }
        for (const uint32_t id : types) {
            if (is_type_declaration(module_->find_definition(id)) || forward_pointers_.contains(id)) continue;
            return fail(std::format("%{} in {} is not a type declared before it", id, instruction.name()), instruction);
        }
        return true;
    }

    static bool is_type_declaration(const Instruction* definition) {
        return definition && definition->info().instruction_class == grammar::InstructionClass::TypeDeclaration;
    }

    // Instructions SPIR-V lets name ids defined further on, whatever those are.
    bool may_use_any_later_definition(const Instruction& instruction) const {
        switch (instruction.info().instruction_class) {
            case grammar::InstructionClass::Annotation:
            case grammar::InstructionClass::Debug:
            case grammar::InstructionClass::ModeSetting:
                return true;
            default:
                break;
        }
        switch (instruction.opcode()) {
            case spv::OpPhi:
            case spv::OpTypeForwardPointer:
            case spv::OpExtInstWithForwardRefsKHR:
                return true;
            case spv::OpExtInst: {
                const grammar::ExtInstSetInfo* set = module_->ext_inst_set(instruction.word(3));
                return set && set->non_semantic;
            }
            default:
                return false;
        }
    }

    // Any instruction may name a later block label (branches, merges) or function (calls, the
    // functions coopmat2 operations take), or a pointer type declared by OpTypeForwardPointer.
    bool may_be_used_before_definition(const Instruction& definition) const {
        return definition.opcode() == spv::OpLabel || definition.opcode() == spv::OpFunction ||
               forward_pointers_.contains(definition.result_id());
    }

    // OpSource's and OpLine's file is an OpString, declared before them (passes remove other ids).
    bool check_source_file(const Instruction& instruction) {
        const uint32_t opcode = instruction.opcode();
        const bool names_file = (opcode == spv::OpSource && instruction.words().size() > 3) || opcode == spv::OpLine;
        if (!names_file) return true;
        const uint32_t file = instruction.word(opcode == spv::OpSource ? 3 : 1);
        const Instruction* definition = module_->find_definition(file);
        if (definition && definition->opcode() == spv::OpString) return true;
        return fail(std::format("the file %{} of {} is not an OpString declared before it", file, instruction.name()),
                    instruction);
    }

    bool check_import(const Instruction& instruction) {
        if (instruction.opcode() != spv::OpExtInstImport) return true;
        const std::string name = decode_literal_string(instruction.operand_words());
        if (grammar::find_ext_inst_set(name)) return true;
        return fail(std::format("unknown extended instruction set \"{}\"", name), instruction);
    }

    bool place(std::unique_ptr<Instruction> instruction) {
        if (function_) return place_in_function(std::move(instruction));
        const Placement placement = placement_of(*instruction, *module_);
        const uint32_t opcode = instruction->opcode();
        if (placement.section == Section::Functions) {
            if (opcode != spv::OpFunction) {
                return fail(std::format("{} must be inside a function", instruction->name()), *instruction);
            }
            if (!reach(Section::Functions, *instruction)) return false;
            function_ = module_->functions.emplace_back(std::make_unique<Function>()).get();
            function_->header.push_back(std::move(instruction));
            return true;
        }
        if (section_ == Section::Functions && placement.also_outside_blocks) {
            module_->functions.back()->epilogue.push_back(std::move(instruction));  // between two functions
            return true;
        }
        if (opcode == spv::OpMemoryModel && memory_model_seen_) return fail("a second OpMemoryModel", *instruction);
        if (!reach(placement.section, *instruction)) return false;
        memory_model_seen_ = memory_model_seen_ || opcode == spv::OpMemoryModel;
        section_list(placement.section).push_back(std::move(instruction));
        return true;
    }

    // Moves the layout forward to `section`; sections never come back, and everything after the
    // memory model needs one.
    bool reach(Section section, const Instruction& instruction) {
        if (section < section_) {
            return fail(std::format("{} belongs in the {} section, which ends before the {} section",
                                    instruction.name(), section_name(section), section_name(section_)),
                        instruction);
        }
        if (section > Section::MemoryModel && !memory_model_seen_) {
            return fail(std::format("{} comes before OpMemoryModel", instruction.name()), instruction);
        }
        section_ = section;
        return true;
    }

    bool place_in_function(std::unique_ptr<Instruction> instruction) {
        const uint32_t opcode = instruction->opcode();
        const Placement placement = placement_of(*instruction, *module_);
        if (placement.section != Section::Functions && !placement.also_in_blocks) {
            return fail(std::format("{} cannot appear inside a function", instruction->name()), *instruction);
        }
        if (block_) {
            if (opcode == spv::OpLabel || opcode == spv::OpFunctionEnd || opcode == spv::OpFunctionParameter ||
                opcode == spv::OpFunction) {
                return fail(std::format("block %{} ends without a branch or return before this {}",
                                        block_->label_id(), instruction->name()),
                            *instruction);
            }
            block_->instructions.push_back(std::move(instruction));
            if (is_block_terminator(opcode)) block_ = nullptr;
            return true;
        }
        switch (opcode) {
            case spv::OpLabel:
                block_ = &function_->blocks.emplace_back();
                block_->instructions.push_back(std::move(instruction));
                return true;
            case spv::OpFunctionEnd:
                function_->epilogue.push_back(std::move(instruction));
                function_ = nullptr;
                return true;
            case spv::OpFunctionParameter:
            case spv::OpLine:
            case spv::OpNoLine:
                if (function_->blocks.empty()) {
                    function_->header.push_back(std::move(instruction));
                    return true;
                }
                break;
            default:
                break;
        }
        if (placement.also_outside_blocks && !function_->blocks.empty()) {
            function_->blocks.back().trailing.push_back(std::move(instruction));
            return true;
        }
        return fail(std::format("{} must be inside a block", instruction->name()), *instruction);
    }

    bool finish() {
        if (function_) {
            return fail(std::format("the module ends inside function %{} (no OpFunctionEnd)", function_->id()),
                        words_.size());
        }
        if (!memory_model_seen_) return fail("the module has no OpMemoryModel", words_.size());
        for (const ForwardUse& use : forward_uses_) {
            const Instruction* definition = module_->find_definition(use.id);
            if (!definition) return fail(std::format("%{} is used but never defined", use.id), *use.user);
            if (!use.any_definition_allowed && !may_be_used_before_definition(*definition)) {
                return fail(std::format("%{} is used before its definition at word {}", use.id,
                                        definition->source_offset()),
                            *use.user);
            }
        }
        return check_entry_points();
    }

    // What passes take an entry point's ids for: its function, its interface's variables, the function
    // each execution mode applies to.
    bool check_entry_points() {
        const auto is = [&](uint32_t id, uint32_t opcode) {
            const Instruction* definition = module_->find_definition(id);
            return definition && definition->opcode() == opcode;
        };
        for (const auto& entry_point : module_->entry_points) {
            const std::span<const uint32_t> words = entry_point->words();
            if (!is(words[2], spv::OpFunction)) {
                return fail(std::format("entry point %{} is not a function", words[2]), *entry_point);
            }
            for (const uint32_t id : words.subspan(entry_point_interface_start(words))) {
                if (!is(id, spv::OpVariable) && !is(id, spv::OpUntypedVariableKHR)) {
                    return fail(std::format("interface %{} of an entry point is not a variable", id), *entry_point);
                }
            }
        }
        for (const auto& mode : module_->execution_modes) {
            if (!is(mode->word(1), spv::OpFunction)) {
                return fail(std::format("execution mode of %{}, which is not a function", mode->word(1)), *mode);
            }
            // OpExecutionModeId's operands are constants (the passes freeze LocalSizeId's; a type there
            // kept its id through the Float16 pass's renaming of types, and the module did not parse).
            if (mode->opcode() != spv::OpExecutionModeId) continue;
            for (const uint32_t id : mode->words().subspan(3)) {
                const Instruction* definition = module_->find_definition(id);
                if (!definition || definition->info().instruction_class != grammar::InstructionClass::ConstantCreation) {
                    return fail(std::format("operand %{} of OpExecutionModeId is not a constant", id), *mode);
                }
            }
        }
        return true;
    }

    InstructionList& section_list(Section section) {
        switch (section) {
            case Section::Capabilities: return module_->capabilities;
            case Section::Extensions: return module_->extensions;
            case Section::ExtInstImports: return module_->ext_inst_imports;
            case Section::MemoryModel: return module_->memory_model;
            case Section::EntryPoints: return module_->entry_points;
            case Section::ExecutionModes: return module_->execution_modes;
            case Section::DebugSource: return module_->debug_source;
            case Section::DebugNames: return module_->debug_names;
            case Section::DebugModuleProcessed: return module_->debug_module_processed;
            case Section::Annotations: return module_->annotations;
            case Section::Types:
            case Section::Functions: break;
        }
        return module_->types_values_constants;
    }

    bool fail(std::string message, size_t offset, std::string instruction = {}) {
        diagnostics_.error(std::move(message), static_cast<uint32_t>(offset), std::move(instruction));
        return false;
    }
    bool fail(std::string message, const Instruction& instruction) {
        return fail(std::move(message), instruction.source_offset(), instruction_text(instruction.words(), *module_));
    }

    std::span<const uint32_t> words_;
    Diagnostics& diagnostics_;
    std::unique_ptr<Module> module_;
    size_t offset_ = 0;
    Section section_ = Section::Capabilities;
    bool memory_model_seen_ = false;
    Function* function_ = nullptr;
    BasicBlock* block_ = nullptr;
    std::vector<Operand> operands_;  // reused for every instruction
    std::vector<ForwardUse> forward_uses_;
    std::unordered_set<uint32_t> forward_pointers_;
};

}  // namespace

std::unique_ptr<Module> parse(std::span<const uint32_t> words, Diagnostics& diagnostics) {
    return Parser(words, diagnostics).parse();
}

}  // namespace vkpolyfill::lowering::ir
