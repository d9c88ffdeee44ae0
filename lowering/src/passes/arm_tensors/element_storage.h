// How a tensor element is held in the storage buffer the layer binds as the tensor's data: bool as
// an 8-bit 0 or 1 (VK_FORMAT_R8_BOOL), every other scalar (bfloat16 and the 8-bit floats included)
// as itself. The 8-bit integer of a bool is only loaded, stored and converted, which 8-bit storage
// allows without the Int8 capability.
#pragma once

#include <cstdint>
#include <optional>

#include "ir/builder.h"
#include "ir/type_manager.h"

namespace vkpolyfill::lowering::arm_tensors {

struct ElementStorage {
    uint32_t element_type = 0;  // the tensor's Element Type
    uint32_t stored_type = 0;   // the type of the buffer's array elements
    uint32_t width = 0;         // of the stored type, in bits
    bool is_bool = false;
};

// nullopt when `element_type` is no scalar type (bool, integer or float) a tensor can hold.
std::optional<ElementStorage> element_storage(const ir::Module& module, ir::TypeManager& types, uint32_t element_type);

// Declares what loading and storing the stored type needs: 8- or 16-bit storage-buffer access (and,
// before the SPIR-V version that made them core, their extensions).
void require_storage(ir::Module& module, const ElementStorage& storage);

// The element held in `stored` (a value of the stored type), and the reverse.
uint32_t element_from_stored(ir::Builder& b, ir::TypeManager& types, const ElementStorage& storage, uint32_t stored);
uint32_t stored_from_element(ir::Builder& b, ir::TypeManager& types, const ElementStorage& storage, uint32_t element);

}  // namespace vkpolyfill::lowering::arm_tensors
