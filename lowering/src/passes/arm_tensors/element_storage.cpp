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
            return ElementStorage{ElementStorage::Kind::Bool, element_type, types.get_type_int(8, false), 8};
        case spv::OpTypeInt:
            return ElementStorage{ElementStorage::Kind::Same, element_type, element_type, type->word(2)};
        case spv::OpTypeFloat: {
            const uint32_t width = type->word(2);
            if (type->words().size() > 3) {  // an FPEncoding: bfloat16, float8
                return ElementStorage{ElementStorage::Kind::Bits, element_type, types.get_type_int(width, false), width};
            }
            return ElementStorage{ElementStorage::Kind::Same, element_type, element_type, width};
        }
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
    // Integer types the module did not declare itself (a bool's byte, a bfloat16's bits) need their
    // arithmetic capability to be declared at all.
    if (storage.kind != ElementStorage::Kind::Same) {
        module.add_capability(storage.width == 8 ? spv::CapabilityInt8 : spv::CapabilityInt16);
    }
}

uint32_t element_from_stored(ir::Builder& b, ir::TypeManager& types, const ElementStorage& storage, uint32_t stored) {
    switch (storage.kind) {
        case ElementStorage::Kind::Same:
            return stored;
        case ElementStorage::Kind::Bits:
            return b.add(spv::OpBitcast, storage.element_type, {stored});
        case ElementStorage::Kind::Bool: {
            const uint32_t u = types.get_type_int(32, false);
            const uint32_t byte = b.add(spv::OpUConvert, u, {stored});
            return b.add(spv::OpINotEqual, storage.element_type, {byte, types.get_constant_uint32(0)});
        }
    }
    return 0;
}

uint32_t stored_from_element(ir::Builder& b, ir::TypeManager& types, const ElementStorage& storage, uint32_t element) {
    switch (storage.kind) {
        case ElementStorage::Kind::Same:
            return element;
        case ElementStorage::Kind::Bits:
            return b.add(spv::OpBitcast, storage.stored_type, {element});
        case ElementStorage::Kind::Bool: {
            const uint32_t u = types.get_type_int(32, false);
            const uint32_t byte = b.add(spv::OpSelect, u, {element, types.get_constant_uint32(1), types.get_constant_uint32(0)});
            return b.add(spv::OpUConvert, storage.stored_type, {byte});
        }
    }
    return 0;
}

}  // namespace vkpolyfill::lowering::arm_tensors
