#include "passes/arm_tensors/tensor_bindings.h"

#include <algorithm>
#include <array>
#include <spirv/unified1/spirv.hpp>

#include "ir/decorations.h"
#include "ir/instruction_text.h"
#include "specialization.h"
#include "vkpolyfill/lowering/arm_tensors.h"

namespace vkpolyfill::lowering::arm_tensors {
namespace {

constexpr uint32_t kSpirv13 = 0x00010300;
constexpr uint32_t kSpirv14 = 0x00010400;
constexpr uint32_t kShapeRecordWords = sizeof(TensorShapeRecord) / 4;

class BindingWriter {
  public:
    explicit BindingWriter(PassContext& context) : context_(context), module_(context.module), types_(context.types) {}

    void rewrite(ir::Instruction& variable, std::unordered_map<uint32_t, TensorBinding>& bindings) {
        const ir::Instruction* pointer = module_.find_definition(variable.type_id());
        const ir::Instruction* pointee = module_.find_definition(pointer->word(3));
        const ir::Instruction* tensor = pointee;
        if (pointee->opcode() == spv::OpTypeArray || pointee->opcode() == spv::OpTypeRuntimeArray) {
            tensor = module_.find_definition(pointee->word(2));
        }
        const uint32_t id = variable.result_id();
        const auto set = ir::find_decoration(module_, id, spv::DecorationDescriptorSet);
        const auto binding = ir::find_decoration(module_, id, spv::DecorationBinding);
        if (tensor == nullptr || tensor->opcode() != spv::OpTypeTensorARM) {
            return report("a UniformConstant variable of an array of arrays of tensors is not supported", variable);
        }
        if (variable.words().size() > 4) return report("a tensor variable has an initializer", variable);
        if (!set || !binding) return report("a tensor variable has no DescriptorSet or Binding decoration", variable);
        const auto storage = element_storage(module_, types_, tensor->word(2));
        if (!storage) return report("a tensor's Element Type is not a scalar type", *tensor);

        std::optional<uint32_t> length;  // of the descriptor array, none for a runtime array
        if (pointee->opcode() == spv::OpTypeArray) {
            const auto count = evaluate_constant(module_, pointee->word(3), context_.specialization);
            if (!count || *count == 0 || *count > 0x7FFFFFFFu) return report("a tensor array's length is not a constant", *pointee);
            length = static_cast<uint32_t>(2 * *count);
        } else if (pointee->opcode() != spv::OpTypeRuntimeArray) {
            length = 2u;
        }
        const uint32_t data_type = descriptor_array(data_block(*storage), length);
        variable.set_word(1, types_.get_type_pointer(spv::StorageClassStorageBuffer, data_type));
        variable.set_word(3, spv::StorageClassStorageBuffer);
        const uint32_t shape = add_variable(descriptor_array(shape_block(), length));
        ir::decorate(module_, shape, spv::DecorationDescriptorSet, std::array{*set});
        ir::decorate(module_, shape, spv::DecorationBinding, std::array{*binding});
        ir::decorate(module_, shape, spv::DecorationNonWritable);
        name_after(id, shape, "_shape");
        // NonReadable is a tensor variable's hint (SPV_ARM_tensors revision 2); a storage buffer's
        // reads need no such promise.
        std::erase_if(module_.annotations, [&](const auto& a) {
            return a->opcode() == spv::OpDecorate && a->word(1) == id && a->word(2) == spv::DecorationNonReadable;
        });
        if (module_.header.version >= kSpirv14) list_next_to(id, shape);
        bindings.emplace(id, TensorBinding{id, shape, tensor->result_id(), *storage});
    }

  private:
    void report(std::string message, const ir::Instruction& at) {
        context_.diagnostics.error(std::move(message), at.source_offset(), ir::instruction_text(at.words(), module_));
    }

    uint32_t add_type(uint32_t opcode, std::span<const uint32_t> operands) {
        const uint32_t id = module_.take_next_id();
        std::vector<uint32_t> words{id};
        words.insert(words.end(), operands.begin(), operands.end());
        module_.types_values_constants.push_back(ir::make_instruction(opcode, words));
        module_.register_definition(*module_.types_values_constants.back());
        return id;
    }

    uint32_t add_variable(uint32_t type) {
        const uint32_t id = module_.take_next_id();
        const uint32_t words[] = {types_.get_type_pointer(spv::StorageClassStorageBuffer, type), id,
                                  spv::StorageClassStorageBuffer};
        module_.types_values_constants.push_back(ir::make_instruction(spv::OpVariable, words));
        module_.register_definition(*module_.types_values_constants.back());
        return id;
    }

    // Block { member data[]; } with an explicit layout, made once per member type and stride.
    uint32_t block_of_array(uint32_t array) {
        const uint32_t members[] = {array};
        const uint32_t block = types_.create_type_struct(members);
        ir::decorate(module_, block, spv::DecorationBlock);
        ir::decorate_member(module_, block, 0, spv::DecorationOffset, std::array{0u});
        return block;
    }

    uint32_t data_block(const ElementStorage& storage) {
        uint32_t& block = data_blocks_[storage.stored_type];
        if (block == 0) {
            const uint32_t runtime_array[] = {storage.stored_type};
            const uint32_t array = add_type(spv::OpTypeRuntimeArray, runtime_array);
            ir::decorate(module_, array, spv::DecorationArrayStride, std::array{storage.width / 8});
            block = block_of_array(array);
        }
        return block;
    }

    uint32_t shape_block() {
        if (shape_block_ == 0) {
            const uint32_t words[] = {types_.get_type_int(32, false), types_.get_constant_uint32(kShapeRecordWords)};
            const uint32_t array = add_type(spv::OpTypeArray, words);
            ir::decorate(module_, array, spv::DecorationArrayStride, std::array{4u});
            shape_block_ = block_of_array(array);
        }
        return shape_block_;
    }

    uint32_t descriptor_array(uint32_t block, std::optional<uint32_t> length) {
        return length ? types_.get_type_array(block, types_.get_constant_uint32(*length)) : types_.get_type_runtime_array(block);
    }

    // "<name>_shape" for the variable next to one the module names, so disassembly and debuggers show
    // which tensor it belongs to.
    void name_after(uint32_t named, uint32_t id, std::string_view suffix) {
        for (const auto& name : module_.debug_names) {
            if (name->opcode() != spv::OpName || name->word(1) != named) continue;
            std::vector<uint32_t> operands{id};
            ir::append_literal_string(operands, ir::decode_literal_string(name->words().subspan(2)) + std::string(suffix));
            module_.debug_names.push_back(ir::make_instruction(spv::OpName, operands));
            return;
        }
    }

    // SPIR-V 1.4+ interfaces list every global an entry point uses: the shape variable joins the data
    // variable wherever the tensor variable was listed.
    void list_next_to(uint32_t listed, uint32_t added) {
        for (auto& entry_point : module_.entry_points) {
            const auto words = entry_point->words();
            const size_t name_end = 3 + (ir::decode_literal_string(words.subspan(3)).size() + 4) / 4;
            if (std::find(words.begin() + static_cast<ptrdiff_t>(name_end), words.end(), listed) == words.end()) continue;
            std::vector<uint32_t> operands(words.begin() + 1, words.end());
            operands.push_back(added);
            entry_point = ir::make_instruction(spv::OpEntryPoint, operands);
        }
    }

    PassContext& context_;
    ir::Module& module_;
    ir::TypeManager& types_;
    std::unordered_map<uint32_t, uint32_t> data_blocks_;  // stored type -> its Block
    uint32_t shape_block_ = 0;
};

bool is_tensor_variable(const ir::Module& module, const ir::Instruction& instruction) {
    if (instruction.opcode() != spv::OpVariable || instruction.word(3) != spv::StorageClassUniformConstant) return false;
    const ir::Instruction* pointer = module.find_definition(instruction.type_id());
    const ir::Instruction* pointee = pointer ? module.find_definition(pointer->word(3)) : nullptr;  // the parser saw to a pointer
    while (pointee && (pointee->opcode() == spv::OpTypeArray || pointee->opcode() == spv::OpTypeRuntimeArray)) {
        pointee = module.find_definition(pointee->word(2));
    }
    return pointee && pointee->opcode() == spv::OpTypeTensorARM;
}

}  // namespace

std::unordered_map<uint32_t, TensorBinding> rewrite_tensor_variables(PassContext& context) {
    std::unordered_map<uint32_t, TensorBinding> bindings;
    BindingWriter writer(context);
    std::vector<ir::Instruction*> variables;
    for (const auto& instruction : context.module.types_values_constants) {
        if (is_tensor_variable(context.module, *instruction)) variables.push_back(instruction.get());
    }
    for (ir::Instruction* variable : variables) writer.rewrite(*variable, bindings);
    if (!bindings.empty() && context.module.header.version < kSpirv13) {
        context.module.add_extension("SPV_KHR_storage_buffer_storage_class");
    }
    return bindings;
}

}  // namespace vkpolyfill::lowering::arm_tensors
