#include "passes/arm_tensors/element_storage.h"

#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::lowering::arm_tensors {
namespace {

constexpr uint32_t kSpirv13 = 0x00010300;
constexpr uint32_t kSpirv15 = 0x00010500;

}  // namespace

std::optional<ElementStorage> element_storage(const ir::Module& module, ir::TypeManager& types, uint32_t element_type) {
    const ir::Instruction* type = module.find_definition(element_type);
    if (type == nullptr) return std::nullopt;
    switch (type->opcode()) {
        case spv::OpTypeBool:
            return ElementStorage{element_type, types.get_type_int(8, false), 8, true};
        case spv::OpTypeInt:
        case spv::OpTypeFloat:
            return ElementStorage{element_type, element_type, type->word(2), false};
        default:
            return std::nullopt;
    }
}

void require_storage(ir::Module& module, const ElementStorage& storage) {
    if (storage.width == 8) {
        module.add_capability(spv::CapabilityStorageBuffer8BitAccess);
        if (module.header.version < kSpirv15) module.add_extension("SPV_KHR_8bit_storage");
    } else if (storage.width == 16) {
        module.add_capability(spv::CapabilityStorageBuffer16BitAccess);
        if (module.header.version < kSpirv13) module.add_extension("SPV_KHR_16bit_storage");
    }
}

uint32_t element_from_stored(ir::Builder& b, ir::TypeManager& types, const ElementStorage& storage, uint32_t stored) {
    if (!storage.is_bool) return stored;
    const uint32_t byte = b.add(spv::OpUConvert, types.get_type_int(32, false), {stored});
    return b.add(spv::OpINotEqual, storage.element_type, {byte, types.get_constant_uint32(0)});
}

uint32_t stored_from_element(ir::Builder& b, ir::TypeManager& types, const ElementStorage& storage, uint32_t element) {
    if (!storage.is_bool) return element;
    const uint32_t u = types.get_type_int(32, false);
    const uint32_t byte = b.add(spv::OpSelect, u, {element, types.get_constant_uint32(1), types.get_constant_uint32(0)});
    return b.add(spv::OpUConvert, storage.stored_type, {byte});
}

}  // namespace vkpolyfill::lowering::arm_tensors
