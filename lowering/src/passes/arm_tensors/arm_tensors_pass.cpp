#include "passes/arm_tensors/arm_tensors_pass.h"

#include <spirv/unified1/spirv.hpp>
#include <unordered_set>

#include "ir/decorations.h"
#include "ir/id_remap.h"
#include "ir/instruction_text.h"
#include "ir/type_dedup.h"
#include "ir/type_order.h"
#include "passes/common/id_operands.h"
#include "passes/arm_tensors/tensor_access.h"
#include "passes/arm_tensors/tensor_bindings.h"
#include "passes/arm_tensors/tensor_uses.h"

namespace vkpolyfill::lowering {
namespace {

using arm_tensors::TensorBinding;

constexpr uint32_t kSpirv15 = 0x00010500;

bool is_arm_tensors_capability(uint32_t capability) {
    return capability == spv::CapabilityTensorsARM || capability == spv::CapabilityStorageTensorArrayDynamicIndexingARM ||
           capability == spv::CapabilityStorageTensorArrayNonUniformIndexingARM;
}

class ArmTensorsPass final : public Pass {
  public:
    std::string_view name() const override { return "SPV_ARM_tensors"; }

    bool run(PassContext& context) override {
        ir::Module& module = context.module;
        const std::unordered_set<uint32_t> tensor_types = find_tensor_types(module);
        if (!check_globals(context, tensor_types)) return false;
        const std::unordered_map<uint32_t, TensorBinding> bindings = arm_tensors::rewrite_tensor_variables(context);
        if (context.diagnostics.has_errors()) return false;
        arm_tensors::TensorAccess access(context);
        std::unordered_set<uint32_t> removed = arm_tensors::rewrite_tensor_uses(context, bindings, tensor_types, access);
        if (context.diagnostics.has_errors()) return false;

        removed.insert(tensor_types.begin(), tensor_types.end());
        ir::remove_global_definitions(module, removed);
        if (!check_nothing_uses(context, removed)) return false;
        std::erase_if(module.capabilities, [](const auto& i) { return is_arm_tensors_capability(i->word(1)); });
        std::erase_if(module.extensions,
                      [](const auto& i) { return ir::decode_literal_string(i->operand_words()) == "SPV_ARM_tensors"; });
        for (const auto& [variable, binding] : bindings) {
            arm_tensors::require_storage(module, binding.storage);
            // Vertex and fragment shaders may only have writable storage buffers where the device has
            // vertexPipelineStoresAndAtomics / fragmentStoresAndAtomics: tensors they only read say so.
            if (!access.written().contains(variable) && !ir::find_decoration(module, variable, spv::DecorationNonWritable)) {
                ir::decorate(module, variable, spv::DecorationNonWritable);
            }
        }
        declare_indexing(module, access.descriptors());
        ir::merge_duplicate_types(module);
        ir::sort_types_values_constants(module);
        return true;
    }

  private:
    // OpTypeTensorARM, arrays of and pointers to them, and function types taking them: nothing of
    // these is left after the pass.
    static std::unordered_set<uint32_t> find_tensor_types(const ir::Module& module) {
        std::unordered_set<uint32_t> types;
        for (const auto& instruction : module.types_values_constants) {
            switch (instruction->opcode()) {
                case spv::OpTypeTensorARM:
                    types.insert(instruction->result_id());
                    break;
                case spv::OpTypeArray:
                case spv::OpTypeRuntimeArray:
                    if (types.contains(instruction->word(2))) types.insert(instruction->result_id());
                    break;
                case spv::OpTypePointer:
                    if (types.contains(instruction->word(3))) types.insert(instruction->result_id());
                    break;
                case spv::OpTypeFunction:
                    for (size_t w = 2; w < instruction->words().size(); ++w) {  // the return type too
                        if (types.contains(instruction->word(w))) types.insert(instruction->result_id());
                    }
                    break;
                default:
                    break;
            }
        }
        return types;
    }

    // Outside functions, tensors may only be declared: types and UniformConstant variables. A tensor
    // constant, a struct holding a tensor or a function returning one is reported.
    static bool check_globals(PassContext& context, const std::unordered_set<uint32_t>& tensor_types) {
        ir::Module& module = context.module;
        for (const auto& instruction : module.types_values_constants) {
            const uint32_t opcode = instruction->opcode();
            if (tensor_types.contains(instruction->result_id())) {
                if (opcode == spv::OpTypeFunction && tensor_types.contains(instruction->word(2))) {
                    report(context, "a function returns a tensor", *instruction);
                }
                continue;
            }
            if (opcode == spv::OpVariable && instruction->word(3) == spv::StorageClassUniformConstant) continue;
            if (refers_to(module, *instruction, [&](uint32_t id) { return tensor_types.contains(id); })) {
                report(context, "a tensor is used outside a UniformConstant variable, which the lowering does not support",
                       *instruction);
            }
        }
        return !context.diagnostics.has_errors();
    }

    // Ids the pass removed (tensor types, loads and access chains of tensors) may still be named by
    // instructions it never looks at in a malformed module: an entry point's interface listing a
    // function's tensor load, say. Reported rather than left dangling.
    static bool check_nothing_uses(PassContext& context, const std::unordered_set<uint32_t>& removed) {
        context.module.for_each_instruction([&](const ir::Instruction& instruction) {
            if (refers_to(context.module, instruction, [&](uint32_t id) { return removed.contains(id); })) {
                report(context, "an instruction refers to a tensor value or type the lowering removes", instruction);
            }
        });
        return !context.diagnostics.has_errors();
    }

    static void report(PassContext& context, std::string message, const ir::Instruction& at) {
        context.diagnostics.error(std::move(message), at.source_offset(), ir::instruction_text(at.words(), context.module));
    }

    static void declare_indexing(ir::Module& module, const arm_tensors::DescriptorAccess& descriptors) {
        if (descriptors.indexed_dynamically()) module.add_capability(spv::CapabilityStorageBufferArrayDynamicIndexing);
        if (descriptors.indexed_non_uniformly()) {
            module.add_capability(spv::CapabilityShaderNonUniform);
            module.add_capability(spv::CapabilityStorageBufferArrayNonUniformIndexing);
            if (module.header.version < kSpirv15) module.add_extension("SPV_EXT_descriptor_indexing");
        }
    }
};

}  // namespace

std::unique_ptr<Pass> make_arm_tensors_pass() { return std::make_unique<ArmTensorsPass>(); }

}  // namespace vkpolyfill::lowering
