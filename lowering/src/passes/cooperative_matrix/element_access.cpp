#include "passes/cooperative_matrix/element_access.h"

#include <algorithm>
#include <format>
#include <spirv/unified1/spirv.hpp>

#include "grammar/grammar.h"
#include "ir/indexed_type.h"
#include "passes/cooperative_matrix/component_bits.h"
#include "passes/cooperative_matrix/wide_components.h"
#include "specialization.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

uint32_t storage_class_of(const ir::Module& module, uint32_t pointer) {
    const ir::Instruction* type = module.find_definition(module.type_of(pointer));
    return type && type->opcode() == spv::OpTypePointer ? type->word(2) : ~0u;
}

// Whether the path's last index selects an element of an array, the one index the generated code
// moves from element to element; the indices before it are followed through the types.
bool ends_in_an_array(const ir::Module& module, const AccessPath& path) {
    uint32_t type = module.find_definition(module.type_of(path.base))->word(3);  // trace() checked the pointer
    for (size_t i = 0; i + 1 < path.indices.size(); ++i) {
        type = ir::indexed_type(module, type, evaluate_constant(module, path.indices[i], {}));
    }
    const ir::Instruction* container = module.find_definition(type);
    return container && (container->opcode() == spv::OpTypeArray || container->opcode() == spv::OpTypeRuntimeArray);
}

}  // namespace

std::optional<AccessPath> trace(const ir::Module& module, uint32_t pointer) {
    std::vector<std::span<const uint32_t>> chains;  // innermost first
    uint32_t current = pointer;
    for (int depth = 0; depth < 256; ++depth) {
        const ir::Instruction* definition = module.find_definition(current);
        if (!definition) return std::nullopt;
        const auto operands = definition->operand_words();
        switch (definition->opcode()) {
            case spv::OpAccessChain:
            case spv::OpInBoundsAccessChain:
                chains.push_back(operands.subspan(1));
                current = operands[0];
                continue;
            case spv::OpCopyObject:
                current = operands[0];
                continue;
            default:
                break;
        }
        AccessPath path;
        path.base = current;
        path.storage_class = storage_class_of(module, current);
        if (path.storage_class == ~0u) return std::nullopt;  // its type is not a pointer type
        if (definition->opcode() == spv::OpVariable) {
            path.base_is_global = path.storage_class != spv::StorageClassFunction;
        } else if (path.storage_class != spv::StorageClassPhysicalStorageBuffer) {
            return std::nullopt;  // a pointer from OpPhi, OpSelect, a parameter...: cannot be re-derived
        }
        for (auto chain = chains.rbegin(); chain != chains.rend(); ++chain) {
            path.indices.insert(path.indices.end(), chain->begin(), chain->end());
        }
        if (path.indices.empty()) return std::nullopt;  // the pointer must point into an array
        return path;
    }
    return std::nullopt;
}

bool is_integer_scalar(const ir::Module& module, uint32_t id) {
    const ir::Instruction* type = module.find_definition(module.type_of(id));
    return type && type->opcode() == spv::OpTypeInt;
}

uint32_t as_uint(LoweringState& state, ir::Builder& b, uint32_t value) {
    const ir::Instruction* type = state.module().find_definition(state.module().type_of(value));
    if (type->word(2) != 32) return b.add(spv::OpUConvert, state.uint_type(), {value});
    if (type->word(3) != 0) return b.add(spv::OpBitcast, state.uint_type(), {value});
    return value;
}

namespace {

// Whether Memory Operand `bit` is followed by a parameter (a literal or an id).
bool has_parameter(uint32_t bit) {
    switch (bit) {
        case spv::MemoryAccessAlignedMask:
        case spv::MemoryAccessMakePointerAvailableMask:
        case spv::MemoryAccessMakePointerVisibleMask:
        case spv::MemoryAccessAliasScopeINTELMaskMask:
        case spv::MemoryAccessNoAliasINTELMaskMask:
            return true;
        default:
            return false;
    }
}

}  // namespace

size_t memory_operands_length(std::span<const uint32_t> operands) {
    if (operands.empty()) return 0;
    size_t length = 1;
    for (uint32_t bit = 1; bit != 0; bit <<= 1) {
        if ((operands[0] & bit) && has_parameter(bit)) ++length;
    }
    return length;
}

std::vector<uint32_t> element_memory_operands(std::span<const uint32_t> original, uint32_t storage_class,
                                              uint32_t element_bytes) {
    uint32_t mask = original.empty() ? 0 : original[0];
    size_t next = 1;
    std::vector<uint32_t> parameters;
    uint32_t alignment = element_bytes;
    for (uint32_t bit = 1; bit != 0 && bit <= mask; bit <<= 1) {
        if (!(mask & bit) || !has_parameter(bit) || next >= original.size()) continue;
        if (bit == spv::MemoryAccessAlignedMask) {
            alignment = std::min(alignment, original[next++]);
        } else {
            parameters.push_back(original[next++]);
        }
    }
    const bool aligned = storage_class == spv::StorageClassPhysicalStorageBuffer || (mask & spv::MemoryAccessAlignedMask);
    mask = aligned ? (mask | spv::MemoryAccessAlignedMask) : (mask & ~uint32_t{spv::MemoryAccessAlignedMask});
    std::vector<uint32_t> result;
    if (mask == 0) return result;
    result.push_back(mask);
    if (aligned) result.push_back(alignment);  // Aligned is the lowest bit that has a parameter
    result.insert(result.end(), parameters.begin(), parameters.end());
    return result;
}

ElementAccess::ElementAccess(LoweringState& state, AccessPath path, Pointee pointee, const ComponentInfo& component,
                             const ComponentInfo& scalar, uint32_t per_scalar, uint32_t span)
    : state_(&state), path_(std::move(path)), pointee_(pointee), component_(component), scalar_(scalar), per_scalar_(per_scalar),
      span_(span) {}

std::optional<AccessPath> ElementAccess::traced(const ir::Module& module, uint32_t pointer, std::string& why) {
    std::optional<AccessPath> path = trace(module, pointer);
    if (!path) {
        why = "its pointer does not come from an access chain into an array of a variable or of a "
              "PhysicalStorageBuffer pointer (pointers through OpPhi, OpSelect or parameters are not supported)";
        return std::nullopt;
    }
    // The storage classes SPV_KHR_cooperative_matrix and SPV_NV_cooperative_matrix2 allow.
    if (path->storage_class != spv::StorageClassStorageBuffer && path->storage_class != spv::StorageClassPhysicalStorageBuffer &&
        path->storage_class != spv::StorageClassWorkgroup) {
        why = std::format("its pointer is into storage class {}, not StorageBuffer, PhysicalStorageBuffer or Workgroup",
                          grammar::enumerant_name(grammar::OperandKind::StorageClass, path->storage_class));
        return std::nullopt;
    }
    for (uint32_t index : path->indices) {
        if (!is_integer_scalar(module, index)) {
            why = "an index of its access chain is not a scalar integer";
            return std::nullopt;
        }
    }
    if (!ends_in_an_array(module, *path)) {
        why = "its pointer does not point to an element of an array (the last index of its access chain must select one)";
        return std::nullopt;
    }
    return path;
}

std::optional<ElementAccess> ElementAccess::describe_blocks(LoweringState& state, uint32_t pointer, std::string& why) {
    const ir::Module& module = state.module();
    const std::optional<AccessPath> path = traced(module, pointer, why);
    if (!path) return std::nullopt;
    const ir::Instruction* pointer_type = module.find_definition(module.type_of(pointer));
    if (!pointer_type || pointer_type->opcode() != spv::OpTypePointer) {
        why = "its pointer operand is not of a pointer type";
        return std::nullopt;
    }
    const uint32_t block = pointer_type->word(3);
    return ElementAccess(state, *path, Pointee{block, block, 1, 0}, ComponentInfo{}, ComponentInfo{}, 1, 1);
}

std::optional<ElementAccess> ElementAccess::describe(LoweringState& state, uint32_t pointer, const ComponentInfo& component,
                                                     bool is_store, std::string& why) {
    const ir::Module& module = state.module();
    const std::optional<AccessPath> path = traced(module, pointer, why);
    if (!path) return std::nullopt;
    const ir::Instruction* pointer_type = module.find_definition(module.type_of(pointer));
    const bool is_pointer = pointer_type && pointer_type->opcode() == spv::OpTypePointer;
    const ir::Instruction* definition = is_pointer ? module.find_definition(pointer_type->word(3)) : nullptr;
    Pointee pointee{};
    if (definition) {
        pointee = {definition->result_id(), definition->result_id(), 1, 0};
        if (definition->opcode() == spv::OpTypeVector) pointee = {definition->result_id(), definition->word(2), definition->word(3), 0};
    }
    const std::optional<ComponentInfo> scalar = definition ? component_info(module, pointee.scalar_type) : std::nullopt;
    if (!scalar) {
        why = "its pointer does not point to a scalar or vector";
        return std::nullopt;
    }
    pointee.scalar_width = scalar->width;
    const uint32_t width = component.width;
    if (pointee.scalar_width < width) {  // each component made of several scalars
        if (const std::optional<std::string> problem = wide_component_problem(state.types(), *scalar, component)) {
            why = *problem;
            return std::nullopt;
        }
        return ElementAccess(state, *path, pointee, component, *scalar, 1, width / pointee.scalar_width);
    }
    if (pointee.scalar_width % width != 0) {
        why = std::format("a {}-bit component cannot be read from {}-bit array elements", width, pointee.scalar_width);
        return std::nullopt;
    }
    if (pointee.scalar_width / width > 4) {
        why = "more than four components in one array scalar are not supported";
        return std::nullopt;
    }
    if (is_store && pointee.scalar_width > width && (scalar->is_float || pointee.scalar_width != 32)) {
        why = "a store of components packed into wider array elements needs 32-bit integer array elements";
        return std::nullopt;
    }
    return ElementAccess(state, *path, pointee, component, *scalar, pointee.scalar_width / width, 1);
}

uint32_t ElementAccess::pointee_bytes() const {
    const uint32_t scalar_bytes = pointee_.scalar_width / 8;
    return pointee_.count == 2 || pointee_.count == 4 ? scalar_bytes * pointee_.count : scalar_bytes;
}

bool ElementAccess::is_constant(uint32_t id) const {
    const ir::Instruction* definition = state_->module().find_definition(id);
    return definition && definition->opcode() == spv::OpConstant;
}

std::vector<uint32_t> ElementAccess::arguments() const {
    std::vector<uint32_t> arguments;
    if (!path_.base_is_global) arguments.push_back(path_.base);
    for (uint32_t index : path_.indices) {
        if (!is_constant(index)) arguments.push_back(index);
    }
    return arguments;
}

void ElementAccess::append_key(std::vector<uint32_t>& key) const {
    const ir::Module& module = state_->module();
    key.insert(key.end(), {path_.base_is_global ? path_.base : 0, module.type_of(path_.base), pointee_.type});
    for (uint32_t index : path_.indices) key.push_back(is_constant(index) ? index : module.type_of(index) | 0x80000000u);
}

ElementAccess::Bound ElementAccess::bind(ir::FunctionBuilder& function, size_t& parameter) const {
    Bound bound;
    bound.base = path_.base_is_global ? path_.base : function.parameter(parameter++);
    for (uint32_t index : path_.indices) bound.indices.push_back(is_constant(index) ? index : function.parameter(parameter++));
    bound.first = as_uint(*state_, function.body(), bound.indices.back());
    return bound;
}

ElementAccess::Address ElementAccess::array_element(ir::Builder& b, const Bound& bound, uint32_t element) {
    Address address;
    address.chain.assign(bound.indices.begin(), bound.indices.end() - 1);
    address.chain.push_back(element);
    std::vector<uint32_t> operands{bound.base};
    operands.insert(operands.end(), address.chain.begin(), address.chain.end());
    address.pointer = b.add(spv::OpAccessChain, state_->types().get_type_pointer(storage(), pointee_.type), operands);
    return address;
}

ElementAccess::Address ElementAccess::component(ir::Builder& b, const Bound& bound, uint32_t index) {
    const uint32_t u = state_->uint_type();
    if (ratio() == 1) return array_element(b, bound, b.add(spv::OpIAdd, u, {bound.first, index}));
    const uint32_t ratio_id = state_->uint_constant(ratio());
    Address address = array_element(b, bound, b.add(spv::OpIAdd, u, {bound.first, b.add(spv::OpUDiv, u, {index, ratio_id})}));
    address.sub_id = b.add(spv::OpUMod, u, {index, ratio_id});
    return address;
}

uint32_t ElementAccess::extract(ir::Builder& b, uint32_t type, uint32_t vector, std::optional<uint32_t> index,
                                uint32_t index_id) const {
    if (index) return b.add(spv::OpCompositeExtract, type, {vector, *index});
    return b.add(spv::OpVectorExtractDynamic, type, {vector, index_id});
}

ElementAccess::Place ElementAccess::place(ir::Builder& b, const Address& address) const {
    Place p{address.sub, address.sub_id, address.sub, address.sub_id};
    if (per_scalar_ == 1) return p;
    const uint32_t u = state_->uint_type();
    const uint32_t per = state_->uint_constant(per_scalar_);
    if (address.sub) {
        p.scalar = *address.sub / per_scalar_;
        p.within = *address.sub % per_scalar_;
        p.scalar_id = state_->uint_constant(*p.scalar);
        p.within_id = state_->uint_constant(*p.within);
    } else {
        p.scalar_id = b.add(spv::OpUDiv, u, {address.sub_id, per});
        p.within_id = b.add(spv::OpUMod, u, {address.sub_id, per});
    }
    return p;
}

uint32_t ElementAccess::load(ir::Builder& b, const Bound& bound, const Address& address, std::span<const uint32_t> memory) {
    const uint32_t component = component_.type;
    const Place p = place(b, address);
    uint32_t scalar;
    if (pointee_.count > 1 && !p.scalar) {
        // Each invocation wants a different scalar of the vector: load just that one, rather
        // than the vector and a per-invocation dynamic extract (slow on SIMD-lane drivers).
        std::vector<uint32_t> load{scalar_pointer(b, address, bound.base, p)};
        load.insert(load.end(), memory.begin(), memory.end());
        scalar = b.add(spv::OpLoad, pointee_.scalar_type, load);
    } else {
        uint32_t& value = loaded_[address.pointer];  // elements sharing an array element load it once
        if (value == 0) {
            std::vector<uint32_t> load{address.pointer};
            load.insert(load.end(), memory.begin(), memory.end());
            value = b.add(spv::OpLoad, pointee_.type, load);
        }
        scalar = pointee_.count > 1 ? extract(b, pointee_.scalar_type, value, p.scalar, p.scalar_id) : value;
    }
    if (span_ > 1 || pointee_.scalar_type == component) return scalar;  // a piece, or the component itself
    if (per_scalar_ == 1) return reinterpret_component(*state_, b, scalar, scalar_, component_);
    if (scalar_.width < 32) {  // a narrow scalar goes through its bits, not a bitcast (component_bits.h)
        const uint32_t bits = b.add(spv::OpShiftRightLogical, state_->uint_type(),
                                    {component_to_bits(*state_, b, scalar, scalar_), shift_within_scalar(b, p)});
        return component_from_bits(*state_, b, bits, component_);
    }
    const uint32_t vector = b.add(spv::OpBitcast, state_->types().get_type_vector(component, per_scalar_), {scalar});
    return extract(b, component, vector, p.within, p.within_id);
}

// A pointer to the scalar of a vector element that holds the component.
uint32_t ElementAccess::scalar_pointer(ir::Builder& b, const Address& address, uint32_t base, const Place& p) const {
    if (pointee_.count == 1) return address.pointer;
    std::vector<uint32_t> operands{base};
    operands.insert(operands.end(), address.chain.begin(), address.chain.end());
    operands.push_back(p.scalar_id);
    return b.add(spv::OpAccessChain, state_->types().get_type_pointer(storage(), pointee_.scalar_type), operands);
}

uint32_t ElementAccess::shift_within_scalar(ir::Builder& b, const Place& p) const {
    const uint32_t width = component_.width;
    return p.within ? state_->uint_constant(*p.within * width)
                    : b.add(spv::OpIMul, state_->uint_type(), {p.within_id, state_->uint_constant(width)});
}

void ElementAccess::store(ir::Builder& b, const Bound& bound, const Address& address, uint32_t value,
                          std::span<const uint32_t> memory) {
    const Place p = place(b, address);
    const uint32_t pointer = scalar_pointer(b, address, bound.base, p);
    if (per_scalar_ == 1) {
        const bool as_is = span_ > 1 || pointee_.scalar_type == component_.type;  // a piece, or the component itself
        const uint32_t stored = as_is ? value : reinterpret_component(*state_, b, value, component_, scalar_);
        std::vector<uint32_t> store{pointer, stored};
        store.insert(store.end(), memory.begin(), memory.end());
        b.add(spv::OpStore, 0, store);
        return;
    }
    // Several components share a 32-bit scalar, and other invocations own the others: clear this
    // component's bits and set them with atomics, which leave the other bits alone.
    const uint32_t u = state_->uint_type();
    const uint32_t width = component_.width;
    const uint32_t bits = component_to_bits(*state_, b, value, component_);
    const uint32_t shift = shift_within_scalar(b, p);
    const uint32_t shifted = b.add(spv::OpShiftLeftLogical, u, {bits, shift});
    const uint32_t mask = b.add(spv::OpShiftLeftLogical, u, {state_->uint_constant((1u << width) - 1), shift});
    const uint32_t keep = b.add(spv::OpNot, u, {mask});
    const uint32_t scalar = pointee_.scalar_type;
    const auto as_scalar = [&](uint32_t x) { return scalar == u ? x : b.add(spv::OpBitcast, scalar, {x}); };
    const uint32_t scope =
        state_->uint_constant(storage() == spv::StorageClassWorkgroup ? spv::ScopeWorkgroup : spv::ScopeQueueFamily);
    const uint32_t relaxed = state_->uint_constant(spv::MemorySemanticsMaskNone);
    b.add(spv::OpAtomicAnd, scalar, {pointer, scope, relaxed, as_scalar(keep)});
    b.add(spv::OpAtomicOr, scalar, {pointer, scope, relaxed, as_scalar(shifted)});
}

uint32_t ElementAccess::assemble(ir::Builder& b, std::span<const uint32_t> pieces) const {
    return assemble_component(*state_, b, pieces, scalar_, component_);
}

std::vector<uint32_t> ElementAccess::split(ir::Builder& b, uint32_t component) const {
    return split_component(*state_, b, component, scalar_, component_);
}

uint32_t ElementAccess::unit(ir::Builder& b, uint32_t index, uint32_t piece) const {
    if (span_ == 1) return index;
    const uint32_t u = state_->uint_type();
    const uint32_t first = b.add(spv::OpIMul, u, {index, state_->uint_constant(span_)});
    return piece ? b.add(spv::OpIAdd, u, {first, state_->uint_constant(piece)}) : first;
}

uint32_t ElementAccess::load_component(ir::Builder& b, const Bound& bound, uint32_t index, std::span<const uint32_t> memory) {
    std::vector<uint32_t> pieces;
    for (uint32_t piece = 0; piece < span_; ++piece) pieces.push_back(load(b, bound, component(b, bound, unit(b, index, piece)), memory));
    return span_ == 1 ? pieces[0] : assemble(b, pieces);
}

void ElementAccess::store_component(ir::Builder& b, const Bound& bound, uint32_t index, uint32_t value, std::span<const uint32_t> memory) {
    const std::vector<uint32_t> pieces = span_ == 1 ? std::vector<uint32_t>{value} : split(b, value);
    for (uint32_t piece = 0; piece < span_; ++piece) store(b, bound, component(b, bound, unit(b, index, piece)), pieces[piece], memory);
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
