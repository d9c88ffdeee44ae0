#include "passes/common/packed_16bit_arrays.h"

#include <algorithm>
#include <array>
#include <optional>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/builder.h"
#include "ir/id_remap.h"
#include "ir/operand_walker.h"
#include "ir/type_dedup.h"
#include "ir/type_order.h"

namespace vkpolyfill::lowering {
namespace {

// An array of 16-bit numbers (narrow: packed) or of such arrays, at any depth (its indices lead to one).
struct ArrayType {
    uint32_t element;
    uint32_t length;  // narrow arrays: even
    bool narrow;
    bool excluded = false;
};

// Which instructions may make a value of an array type the rewrite follows.
bool makes_array(uint32_t opcode) {
    switch (opcode) {
        case spv::OpLoad:
        case spv::OpCompositeConstruct:
        case spv::OpCompositeExtract:
        case spv::OpCompositeInsert:
        case spv::OpCopyObject:
        case spv::OpPhi:
        case spv::OpSelect:
        case spv::OpUndef:
        case spv::OpConstantNull:
        case spv::OpConstantComposite:
        case spv::OpFunctionParameter:
        case spv::OpFunctionCall:
        case spv::OpFunction:
            return true;
        default:
            return false;
    }
}

bool makes_pointer(uint32_t opcode) {
    return opcode == spv::OpVariable || opcode == spv::OpFunctionParameter || opcode == spv::OpAccessChain ||
           opcode == spv::OpInBoundsAccessChain;
}

class ArrayPacking {
  public:
    ArrayPacking(ir::Module& module, ir::TypeManager& types) : module_(module), types_(types) {}

    bool run() {
        find_arrays();
        module_.for_each_instruction([&](const ir::Instruction& instruction) { check(instruction); });
        for (auto& [id, a] : arrays_) {
            if (a.excluded && !a.narrow) innermost(id).excluded = true;  // its elements keep their type
        }
        std::erase_if(arrays_, [](const auto& entry) { return entry.second.narrow && entry.second.excluded; });
        if (std::ranges::none_of(arrays_, [](const auto& entry) { return entry.second.narrow; })) return false;
        rewrite();
        return true;
    }

  private:
    void find_arrays() {
        for (const auto& instruction : module_.types_values_constants) {
            if (instruction->opcode() != spv::OpTypeArray) continue;
            const uint32_t element_id = instruction->word(2);
            if (arrays_.contains(element_id)) {
                arrays_[instruction->result_id()] = {element_id, 0, false};
                continue;
            }
            const ir::Instruction* element = module_.find_definition(element_id);
            const ir::Instruction* length = module_.find_definition(instruction->word(3));
            if (!element || !length || length->opcode() != spv::OpConstant || length->words().size() != 4) continue;
            const bool narrow = (element->opcode() == spv::OpTypeFloat && element->words().size() == 3 && element->word(2) == 16) ||
                                (element->opcode() == spv::OpTypeInt && element->word(2) == 16);
            if (narrow && length->word(3) >= 2 && length->word(3) % 2 == 0) {
                arrays_[instruction->result_id()] = {element_id, length->word(3), true};
            }
        }
    }

    ArrayType* array(uint32_t type) {
        const auto it = arrays_.find(type);
        return it == arrays_.end() ? nullptr : &it->second;
    }
    ArrayType* pointee(uint32_t pointer_type) {
        const auto it = pointers_.find(pointer_type);
        return it == pointers_.end() ? nullptr : array(it->second);
    }
    ArrayType& innermost(uint32_t type) {
        ArrayType* a = &arrays_.at(type);  // outer arrays are only made of arrays in arrays_
        while (!a->narrow) a = &arrays_.at(a->element);
        return *a;
    }

    // Where a chain of indices into `type` reaches a packed array and indexes it: the position of
    // that index, nullopt if it does not.
    std::optional<size_t> packed_index(uint32_t type, size_t indices) {
        for (size_t k = 0; k < indices; ++k) {
            const ArrayType* a = array(type);
            if (!a) return std::nullopt;
            if (a->narrow) return k;
            type = a->element;
        }
        return std::nullopt;
    }

    // Excludes the arrays `instruction` uses in a way the rewrite does not follow.
    void check(const ir::Instruction& instruction) {
        const uint32_t opcode = instruction.opcode();
        if (opcode == spv::OpTypePointer) {
            if (ArrayType* a = array(instruction.word(3))) {
                const uint32_t storage = instruction.word(2);
                if (storage == spv::StorageClassFunction || storage == spv::StorageClassPrivate) {
                    pointers_[instruction.result_id()] = instruction.word(3);
                } else {
                    a->excluded = true;
                }
            }
            return;
        }
        if (ArrayType* a = array(instruction.type_id()); a && !makes_array(opcode)) a->excluded = true;
        if (ArrayType* a = pointee(instruction.type_id()); a && !makes_pointer(opcode)) a->excluded = true;
        std::vector<ir::Operand> operands;
        if (!ir::walk_operands(instruction.words(), module_, operands).empty()) return;
        const size_t first_operand = instruction.words().size() - instruction.operand_words().size();
        for (const ir::Operand& operand : operands) {
            if (!ir::is_id(operand.kind) || operand.kind == grammar::OperandKind::IdResult ||
                operand.kind == grammar::OperandKind::IdResultType) {
                continue;
            }
            const uint32_t id = instruction.word(operand.first_word);
            const size_t position = operand.first_word - first_operand;
            if (ArrayType* a = array(id)) {
                // The type itself: named, an element of another array, or a function's parameter or
                // result; not decorated, nor a member of a struct.
                if (opcode != spv::OpName && opcode != spv::OpTypeFunction && opcode != spv::OpTypeArray) a->excluded = true;
            } else if (ArrayType* v = array(module_.type_of(id))) {
                if (!takes_value(instruction, position)) v->excluded = true;
            } else if (ArrayType* p = pointee(module_.type_of(id))) {
                if (!takes_pointer(instruction, position)) p->excluded = true;
            }
        }
    }

    // Whether operand `position` of `instruction` may be a value of an array type the rewrite follows.
    bool takes_value(const ir::Instruction& instruction, size_t position) const {
        const size_t count = instruction.operand_words().size();
        switch (instruction.opcode()) {
            case spv::OpStore: return position == 1;
            case spv::OpCompositeExtract: return position == 0 && count >= 2;
            case spv::OpCompositeInsert: return count >= 3;  // the object too: an element of an outer array
            case spv::OpSelect: return position > 0;
            case spv::OpVariable: return position == 1;
            case spv::OpFunctionCall:  // the arguments, and the function (type_of: its result type)
            case spv::OpCompositeConstruct:  // the elements of an outer array
            case spv::OpConstantComposite:
            case spv::OpCopyObject:
            case spv::OpPhi:
            case spv::OpReturnValue:
            case spv::OpName:
            case spv::OpDecorate:
                return true;
            default: return false;
        }
    }

    // Whether operand `position` of `instruction` may be a pointer to an array type the rewrite follows.
    bool takes_pointer(const ir::Instruction& instruction, size_t position) {
        const auto operands = instruction.operand_words();
        switch (instruction.opcode()) {
            case spv::OpLoad: return position == 0;
            case spv::OpStore: return position == 0;
            case spv::OpCopyMemory: return position < 2;
            case spv::OpAccessChain:
            case spv::OpInBoundsAccessChain: {
                if (position != 0 || operands.size() < 2) return false;
                const auto k = packed_index(pointers_.at(module_.type_of(operands[0])), operands.size() - 1);
                return !k || splittable_index(operands[1 + *k]);
            }
            case spv::OpFunctionCall: return position > 0;
            case spv::OpName:
            case spv::OpDecorate:
                return true;
            default: return false;
        }
    }

    // An index the rewrite can split in two: a 32-bit constant or a 32-bit integer.
    bool splittable_index(uint32_t index) const {
        const ir::Instruction* definition = module_.find_definition(index);
        if (definition && definition->opcode() == spv::OpConstant) return definition->words().size() == 4;
        const ir::Instruction* type = module_.find_definition(module_.type_of(index));
        return type && type->opcode() == spv::OpTypeInt && type->word(2) == 32;
    }

    void rewrite() {
        ir::IdMap packed;
        std::unordered_set<uint32_t> removed;
        for (const auto& [id, a] : arrays_) {
            if (!a.narrow) continue;
            const uint32_t pair = types_.get_type_vector(a.element, 2);
            packed[id] = types_.get_type_array(pair, types_.get_constant_uint32(a.length / 2));
            removed.insert(id);
        }
        std::vector<const ir::Instruction*> constants;
        for (const auto& instruction : module_.types_values_constants) {
            if (instruction->opcode() == spv::OpConstantComposite && packed.contains(instruction->type_id())) {
                constants.push_back(instruction.get());
            }
        }
        for (const ir::Instruction* constant : constants) {
            const uint32_t pair = types_.get_type_vector(array(constant->type_id())->element, 2);
            std::vector<uint32_t> pairs;
            const auto elements = constant->operand_words();
            for (size_t i = 0; i + 1 < elements.size(); i += 2) {
                pairs.push_back(types_.get_constant_composite(pair, std::array{elements[i], elements[i + 1]}));
            }
            packed[constant->result_id()] = types_.get_constant_composite(packed.at(constant->type_id()), pairs);
            removed.insert(constant->result_id());
        }
        for (const auto& function : module_.functions) {
            for (ir::BasicBlock& block : function->blocks) {
                for (size_t i = 0; i < block.instructions.size(); ++i) i = rewrite_indexing(block, i);
            }
        }
        for (const uint32_t id : removed) types_.forget(*module_.find_definition(id));
        ir::remap_id_operands(module_, packed);
        ir::remove_global_definitions(module_, removed);
        ir::merge_duplicate_types(module_);
        ir::sort_types_values_constants(module_);
    }

    // Rewrites instruction i of `block` if it indexes into a packed array or builds one; returns the
    // index of the instruction that replaced it.
    size_t rewrite_indexing(ir::BasicBlock& block, size_t i) {
        const ir::Instruction& instruction = *block.instructions[i];
        const auto operands = instruction.operand_words();
        std::vector<uint32_t> words(instruction.words().begin() + 1, instruction.words().end());
        const size_t first = words.size() - operands.size();  // where the operands start in `words`
        ir::Builder b(module_, block, i);
        switch (instruction.opcode()) {
            case spv::OpAccessChain:
            case spv::OpInBoundsAccessChain: {
                const auto it = pointers_.find(module_.type_of(operands[0]));
                const auto k = it == pointers_.end() ? std::nullopt : packed_index(it->second, operands.size() - 1);
                if (!k) return i;
                const size_t at = first + 1 + *k;
                const auto [vector, component] = split(b, words[at]);
                words[at] = vector;
                words.insert(words.begin() + static_cast<std::ptrdiff_t>(at + 1), component);
                break;
            }
            case spv::OpCompositeExtract:
            case spv::OpCompositeInsert: {
                const size_t composite = instruction.opcode() == spv::OpCompositeExtract ? 0 : 1;
                const auto k = packed_index(module_.type_of(operands[composite]), operands.size() - composite - 1);
                if (!k) return i;
                const size_t at = first + composite + 1 + *k;
                const uint32_t index = words[at];
                words[at] = index / 2;
                words.insert(words.begin() + static_cast<std::ptrdiff_t>(at + 1), index % 2);
                break;
            }
            case spv::OpCompositeConstruct: {
                const ArrayType* a = array(instruction.type_id());
                if (!a || !a->narrow) return i;
                const uint32_t pair = types_.get_type_vector(a->element, 2);
                std::vector<uint32_t> pairs;
                for (size_t k = 0; k + 1 < operands.size(); k += 2) {
                    pairs.push_back(b.add(spv::OpCompositeConstruct, pair, {operands[k], operands[k + 1]}));
                }
                words.resize(first);
                words.insert(words.end(), pairs.begin(), pairs.end());
                break;
            }
            default:
                return i;
        }
        const size_t at = b.position();
        block.instructions[at] = ir::make_instruction(instruction.opcode(), words);
        module_.register_definition(*block.instructions[at]);
        return at;
    }

    // Index i of an array element as the index of its pair and the component within it.
    std::pair<uint32_t, uint32_t> split(ir::Builder& b, uint32_t index) {
        const ir::Instruction* definition = module_.find_definition(index);
        if (definition->opcode() == spv::OpConstant) {
            return {types_.get_constant_uint32(definition->word(3) / 2), types_.get_constant_uint32(definition->word(3) % 2)};
        }
        const uint32_t type = module_.type_of(index);
        const uint32_t one = types_.get_constant(type, std::array{1u});
        return {b.add(spv::OpShiftRightLogical, type, {index, one}), b.add(spv::OpBitwiseAnd, type, {index, one})};
    }

    ir::Module& module_;
    ir::TypeManager& types_;
    std::unordered_map<uint32_t, ArrayType> arrays_;   // by type id
    std::unordered_map<uint32_t, uint32_t> pointers_;  // Function and Private pointer types -> the array type
};

}  // namespace

bool pack_16bit_arrays(ir::Module& module, ir::TypeManager& types) { return ArrayPacking(module, types).run(); }

}  // namespace vkpolyfill::lowering
