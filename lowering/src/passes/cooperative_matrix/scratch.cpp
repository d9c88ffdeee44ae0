#include "passes/cooperative_matrix/scratch.h"

#include <algorithm>
#include <format>
#include <unordered_map>
#include <vector>
#include <spirv/unified1/spirv.hpp>

#include "ir/builtin_variable.h"
#include "passes/common/shared_memory.h"
#include "passes/common/workgroup_size.h"

namespace vkpolyfill::lowering::cooperative_matrix {

Scratch::Slice& Scratch::slice(std::map<uint32_t, Slice>& slices, uint32_t component_type, uint32_t elements) {
    auto [it, inserted] = slices.try_emplace(component_type);
    if (inserted) {
        it->second.variable = state_.module().take_next_id();
        it->second.length = state_.module().take_next_id();
    }
    it->second.elements = std::max(it->second.elements, elements);
    return it->second;
}

uint32_t Scratch::element_pointer(ir::Builder& builder, uint32_t component_type, uint32_t index, uint32_t elements,
                                  bool workgroup) {
    const Slice& s = slice(workgroup ? workgroup_ : slices_, component_type, elements);
    uint32_t at = index;
    if (!workgroup) {
        const uint32_t subgroup = state_.load_builtin(builder, spv::BuiltInSubgroupId);
        at = builder.add(spv::OpIAdd, state_.uint_type(), {builder.add(spv::OpIMul, state_.uint_type(), {subgroup, s.length}), index});
    }
    return builder.add(spv::OpAccessChain, state_.types().get_type_pointer(spv::StorageClassWorkgroup, component_type),
                       {s.variable, at});
}

uint32_t Scratch::carried_ratio(uint32_t type, uint32_t carrier) const {
    if (carrier == 0 || carrier == type) return 1;
    const auto width = [&](uint32_t t) { return state_.context.module.find_definition(t)->word(2); };
    return width(type) / width(carrier);
}

uint32_t Scratch::load(ir::Builder& builder, uint32_t type, uint32_t index, uint32_t elements, bool workgroup, uint32_t carrier) {
    const uint32_t ratio = carried_ratio(type, carrier);
    if (ratio == 1) return builder.add(spv::OpLoad, type, {element_pointer(builder, type, index, elements, workgroup)});
    const uint32_t u = state_.uint_type();
    const uint32_t first = builder.add(spv::OpIMul, u, {index, state_.uint_constant(ratio)});
    std::vector<uint32_t> parts;
    for (uint32_t i = 0; i < ratio; ++i) {
        const uint32_t at = i == 0 ? first : builder.add(spv::OpIAdd, u, {first, state_.uint_constant(i)});
        parts.push_back(builder.add(spv::OpLoad, carrier, {element_pointer(builder, carrier, at, elements * ratio, workgroup)}));
    }
    // OpBitcast puts the lower-numbered components in the lower-order bits, as memory does.
    const uint32_t vector = builder.add(spv::OpCompositeConstruct, state_.types().get_type_vector(carrier, ratio), parts);
    return builder.add(spv::OpBitcast, type, {vector});
}

void Scratch::store(ir::Builder& builder, uint32_t type, uint32_t index, uint32_t value, uint32_t elements, bool workgroup,
                    uint32_t carrier) {
    const uint32_t ratio = carried_ratio(type, carrier);
    if (ratio == 1) {
        builder.add(spv::OpStore, 0, {element_pointer(builder, type, index, elements, workgroup), value});
        return;
    }
    const uint32_t u = state_.uint_type();
    const uint32_t first = builder.add(spv::OpIMul, u, {index, state_.uint_constant(ratio)});
    const uint32_t parts = builder.add(spv::OpBitcast, state_.types().get_type_vector(carrier, ratio), {value});
    for (uint32_t i = 0; i < ratio; ++i) {
        const uint32_t at = i == 0 ? first : builder.add(spv::OpIAdd, u, {first, state_.uint_constant(i)});
        builder.add(spv::OpStore, 0,
                    {element_pointer(builder, carrier, at, elements * ratio, workgroup), builder.add(spv::OpCompositeExtract, carrier, {parts, i})});
    }
}

void Scratch::barrier(ir::Builder& builder, bool workgroup) {
    const uint32_t scope = state_.uint_constant(workgroup ? spv::ScopeWorkgroup : spv::ScopeSubgroup);
    const uint32_t semantics =
        state_.uint_constant(spv::MemorySemanticsAcquireReleaseMask | spv::MemorySemanticsWorkgroupMemoryMask);
    builder.add(spv::OpControlBarrier, 0, {scope, scope, semantics});
}

// Declares the arrays of `slices`, `copies` slices each, adding their size to `bytes`.
void Scratch::declare(std::map<uint32_t, Slice>& slices, uint32_t copies, uint64_t& bytes) {
    ir::Module& module = state_.module();
    for (const auto& [component, s] : slices) {
        const uint32_t length[] = {state_.uint_type(), s.length, s.elements};
        module.types_values_constants.push_back(ir::make_instruction(spv::OpConstant, length));
        module.register_definition(*module.types_values_constants.back());
        const uint32_t array = state_.types().get_type_array(component, state_.uint_constant(copies * s.elements));
        const uint32_t variable[] = {state_.types().get_type_pointer(spv::StorageClassWorkgroup, array), s.variable,
                                     spv::StorageClassWorkgroup};
        module.types_values_constants.push_back(ir::make_instruction(spv::OpVariable, variable));
        module.register_definition(*module.types_values_constants.back());
        ir::add_to_entry_point_interfaces(module, s.variable);
        bytes += uint64_t{copies} * s.elements * WorkgroupBytes(module).of(component);
    }
}

std::optional<uint32_t> Scratch::subgroups(Diagnostics& diagnostics) const {
    PassContext& context = state_.context;
    const std::optional<std::array<uint32_t, 3>> size = workgroup_size(context.module, context.specialization, diagnostics);
    if (!size) return std::nullopt;
    const uint32_t invocations = (*size)[0] * (*size)[1] * (*size)[2];
    return (invocations + context.target.subgroup_size - 1) / context.target.subgroup_size;
}

bool Scratch::finish() {
    if (slices_.empty() && workgroup_.empty()) return true;
    PassContext& context = state_.context;
    ir::Module& module = state_.module();
    const uint64_t own = module_shared_memory(module);
    const std::optional<uint32_t> subgroups = this->subgroups(context.diagnostics);
    if (!subgroups) return false;
    uint64_t reserved = 0;
    declare(slices_, *subgroups, reserved);
    declare(workgroup_, 1, reserved);
    reserved_bytes_ = static_cast<uint32_t>(reserved);
    // Staged multiply-adds keep within the reserve (multiply_add.cpp); a layout change of a large
    // workgroup matrix may not, and is then served when the shader's own arrays leave room.
    const uint32_t limit = context.target.max_shared_memory_bytes;
    if (limit != 0 && own + reserved > limit) {
        context.diagnostics.error(std::format(
            "the lowering needs {} bytes of shared memory to change matrix layouts and stage multiply-adds; with the "
            "shader's own {} bytes that exceeds the device's {} (maxComputeSharedMemorySize)",
            reserved, own, limit));
        return false;
    }
    return true;
}

uint32_t staging_budget(const Target& target) {
    return target.reserved_shared_memory_bytes ? target.reserved_shared_memory_bytes : target.max_shared_memory_bytes / 2;
}

uint32_t items_at_once(uint32_t total, uint64_t bytes_each, uint32_t budget) {
    uint32_t items = total;
    while (items > 1 && (total % items != 0 || bytes_each * items > budget)) --items;
    return items;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
