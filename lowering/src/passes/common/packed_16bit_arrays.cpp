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

// Where a chain of indices into an array type reaches a packed array: the position of the index into
// it, and that array's 16-bit element type.
struct PackedIndex {
    size_t position;
    uint32_t element;
};

class ArrayPacking {
  public:
    ArrayPacking(ir::Module& module, ir::TypeManager& types, PairForm form)
        : module_(module), types_(types), form_(form) {}

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

    // Where a chain of `indices` indices into `type` reaches a packed array and indexes it; nullopt
    // if it does not.
    std::optional<PackedIndex> packed_index(uint32_t type, size_t indices) {
        for (size_t k = 0; k < indices; ++k) {
            const ArrayType* a = array(type);
            if (!a) return std::nullopt;
            if (a->narrow) return PackedIndex{k, a->element};
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
        if (form_ == PairForm::Word) check_word_form(instruction);
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
            } else if (const auto e = element_pointers_.find(id); e != element_pointers_.end()) {
                // A word has no addressable halves: a pointer to one is only loaded from or stored to.
                const bool accessed = (opcode == spv::OpLoad || opcode == spv::OpStore) && position == 0;
                if (!accessed) arrays_.at(e->second).excluded = true;
            }
        }
    }

    // In the word form, the pointers to single elements (rewritten as pointers to their words) and
    // constant arrays whose elements must be literal to make words of.
    void check_word_form(const ir::Instruction& instruction) {
        const uint32_t opcode = instruction.opcode();
        const auto operands = instruction.operand_words();
        if ((opcode == spv::OpAccessChain || opcode == spv::OpInBoundsAccessChain) && operands.size() >= 2) {
            const auto it = pointers_.find(module_.type_of(operands[0]));
            if (it == pointers_.end()) return;
            uint32_t type = it->second;
            for (size_t k = 1; k < operands.size(); ++k) {
                const ArrayType* a = array(type);
                if (!a) return;
                if (a->narrow) {
                    element_pointers_[instruction.result_id()] = type;
                    return;
                }
                type = a->element;
            }
        }
        if (opcode == spv::OpConstantComposite) {
            ArrayType* a = array(instruction.type_id());
            if (a && a->narrow && !std::ranges::all_of(operands, [&](uint32_t e) { return literal_bits(e).has_value(); })) {
                a->excluded = true;
            }
        }
    }

    // The 16 bits of a constant element, if it is a literal or null.
    std::optional<uint32_t> literal_bits(uint32_t id) const {
        const ir::Instruction* definition = module_.find_definition(id);
        if (!definition) return std::nullopt;
        if (definition->opcode() == spv::OpConstantNull) return 0u;
        if (definition->opcode() == spv::OpConstant && definition->words().size() == 4) return definition->word(3) & 0xFFFFu;
        return std::nullopt;
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
                return !k || splittable_index(operands[1 + k->position]);
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
            packed[id] = types_.get_type_array(pair_type(a.element), types_.get_constant_uint32(a.length / 2));
            removed.insert(id);
        }
        std::vector<const ir::Instruction*> constants;
        for (const auto& instruction : module_.types_values_constants) {
            if (instruction->opcode() == spv::OpConstantComposite && packed.contains(instruction->type_id())) {
                constants.push_back(instruction.get());
            }
        }
        for (const ir::Instruction* constant : constants) {
            const uint32_t element = arrays_.at(constant->type_id()).element;
            std::vector<uint32_t> pairs;
            const auto elements = constant->operand_words();
            for (size_t i = 0; i + 1 < elements.size(); i += 2) {
                if (form_ == PairForm::Word) {
                    const uint32_t bits = *literal_bits(elements[i]) | *literal_bits(elements[i + 1]) << 16;
                    pairs.push_back(types_.get_constant_uint32(bits));
                } else {
                    pairs.push_back(types_.get_constant_composite(pair_type(element), std::array{elements[i], elements[i + 1]}));
                }
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
                const size_t at = first + 1 + k->position;
                const auto [vector, component] = split(b, words[at]);
                words[at] = vector;
                if (form_ == PairForm::Word) {
                    // A pointer to the word, under the element pointer's id; its loads and stores take the half.
                    const uint32_t storage = module_.find_definition(module_.type_of(operands[0]))->word(2);
                    words[0] = types_.get_type_pointer(static_cast<spv::StorageClass>(storage), word_type());
                    halves_[instruction.result_id()] = component;
                } else {
                    words.insert(words.begin() + static_cast<std::ptrdiff_t>(at + 1), component);
                }
                break;
            }
            case spv::OpLoad:
            case spv::OpStore: {
                const auto half = halves_.find(operands[0]);
                return half == halves_.end() ? i : access_half(block, i, half->second);
            }
            case spv::OpCompositeExtract:
            case spv::OpCompositeInsert: {
                const size_t composite = instruction.opcode() == spv::OpCompositeExtract ? 0 : 1;
                const auto k = packed_index(module_.type_of(operands[composite]), operands.size() - composite - 1);
                if (!k) return i;
                const size_t at = first + composite + 1 + k->position;
                const uint32_t index = words[at];
                words[at] = index / 2;
                if (form_ == PairForm::Word) {
                    words.resize(at + 1);
                    return index_word(block, i, words, k->element, index % 2);
                }
                words.insert(words.begin() + static_cast<std::ptrdiff_t>(at + 1), index % 2);
                break;
            }
            case spv::OpCompositeConstruct: {
                const ArrayType* a = array(instruction.type_id());
                if (!a || !a->narrow) return i;
                const uint32_t vector = types_.get_type_vector(a->element, 2);
                std::vector<uint32_t> pairs;
                for (size_t k = 0; k + 1 < operands.size(); k += 2) {
                    const uint32_t pair = b.add(spv::OpCompositeConstruct, vector, {operands[k], operands[k + 1]});
                    pairs.push_back(form_ == PairForm::Word ? b.add(spv::OpBitcast, word_type(), {pair}) : pair);
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

    uint32_t word_type() { return types_.get_type_int(32, false); }
    uint32_t pair_type(uint32_t element) {
        return form_ == PairForm::Word ? word_type() : types_.get_type_vector(element, 2);
    }

    // Component `component` (an id) of a word, as a value of `element`.
    uint32_t half_of(ir::Builder& b, uint32_t word, uint32_t element, uint32_t component, uint32_t result = 0) {
        const uint32_t pair = b.add(spv::OpBitcast, types_.get_type_vector(element, 2), {word});
        return b.add(spv::OpVectorExtractDynamic, element, {pair, component}, result);
    }
    // The word with component `component` (an id) replaced by `value`.
    uint32_t with_half(ir::Builder& b, uint32_t word, uint32_t element, uint32_t component, uint32_t value) {
        const uint32_t vector = types_.get_type_vector(element, 2);
        const uint32_t pair = b.add(spv::OpBitcast, vector, {word});
        return b.add(spv::OpBitcast, word_type(), {b.add(spv::OpVectorInsertDynamic, vector, {pair, value, component})});
    }

    // A load or store through an element pointer, now a pointer to the element's word.
    size_t access_half(ir::BasicBlock& block, size_t i, uint32_t component) {
        return ir::replace_instruction(module_, block, i, [&](ir::Builder& b, const ir::Instruction& old) {
            const uint32_t pointer = old.operand_words()[0];
            const uint32_t word = b.add(spv::OpLoad, word_type(), {pointer});
            if (old.opcode() == spv::OpLoad) {
                half_of(b, word, old.type_id(), component, old.result_id());
            } else {
                const uint32_t value = old.operand_words()[1];
                b.add(spv::OpStore, 0, {pointer, with_half(b, word, module_.type_of(value), component, value)});
            }
        });
    }

    // An extract of one element from a value holding packed arrays, or an insert of one: `words` are
    // the instruction's own words with its indices ending at the element's word.
    size_t index_word(ir::BasicBlock& block, size_t i, std::vector<uint32_t> words, uint32_t element, uint32_t component) {
        return ir::replace_instruction(module_, block, i, [&](ir::Builder& b, const ir::Instruction& old) {
            const uint32_t half = types_.get_constant_uint32(component);
            if (old.opcode() == spv::OpCompositeExtract) {
                const std::span<const uint32_t> chain(words.begin() + 2, words.end());  // composite, indices
                half_of(b, b.add(spv::OpCompositeExtract, word_type(), chain), element, half, old.result_id());
                return;
            }
            const std::span<const uint32_t> chain(words.begin() + 3, words.end());  // composite, indices
            const uint32_t word = with_half(b, b.add(spv::OpCompositeExtract, word_type(), chain), element, half, words[2]);
            words[2] = word;
            b.add(spv::OpCompositeInsert, old.type_id(), std::span<const uint32_t>(words.begin() + 2, words.end()), old.result_id());
        });
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
    PairForm form_;
    std::unordered_map<uint32_t, ArrayType> arrays_;   // by type id
    std::unordered_map<uint32_t, uint32_t> pointers_;  // Function and Private pointer types -> the array type
    // The word form: access chains to one element -> the packed array they index; after their
    // rewrite, -> the id of the element's component within its word.
    std::unordered_map<uint32_t, uint32_t> element_pointers_;
    std::unordered_map<uint32_t, uint32_t> halves_;
};

}  // namespace

bool pack_16bit_arrays(ir::Module& module, ir::TypeManager& types, PairForm form) {
    return ArrayPacking(module, types, form).run();
}

}  // namespace vkpolyfill::lowering
