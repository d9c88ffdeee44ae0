// Reading and writing one matrix component at a time through the pointer of a cooperative-matrix
// load or store, for the generated functions that replace them (memory_access.cpp for the KHR
// instructions, tensor_memory.cpp for the tensor ones): the access chain the pointer came from is
// re-derived per element, so StorageBuffer, Workgroup and PhysicalStorageBuffer memory all work in
// Logical addressing. The pointee may be wider than a component (f16 matrices in uint or uvec4
// arrays): loads pick the component out, stores of packed components use atomic AND/OR so that
// invocations sharing a word do not overwrite each other. Its scalars may also be narrower than a
// component (f16 matrices in uint8_t arrays): then a component is span() consecutive scalars, each
// addressed as a component of the scalar's width would be (wide_components.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ir/function_builder.h"
#include "passes/cooperative_matrix/lowering_state.h"

namespace vkpolyfill::lowering::cooperative_matrix {

// The pointer of a load or store, as the variable (or PhysicalStorageBuffer pointer value) it
// starts from and the access-chain indices leading from there to the first element.
struct AccessPath {
    uint32_t base = 0;
    bool base_is_global = false;  // a module-scope variable: generated functions use it directly
    uint32_t storage_class = 0;
    std::vector<uint32_t> indices;
};

// nullopt when the pointer cannot be re-derived (it comes through OpPhi, OpSelect, a parameter...)
// or does not point into an array.
std::optional<AccessPath> trace(const ir::Module& module, uint32_t pointer);

// Whether `id` is a value of an integer scalar type (what as_uint() takes).
bool is_integer_scalar(const ir::Module& module, uint32_t id);
// An index-like integer (any width and signedness) as a 32-bit unsigned one.
uint32_t as_uint(LoweringState& state, ir::Builder& builder, uint32_t value);

// Memory operands for one element's access, from the instruction's (mask first, then parameters):
// accesses through a PhysicalStorageBuffer pointer must say their alignment, and an element is
// aligned to its own size at most.
std::vector<uint32_t> element_memory_operands(std::span<const uint32_t> original, uint32_t storage_class,
                                              uint32_t element_bytes);

// How many words the Memory Operands at the start of `operands` take (the mask and its parameters).
size_t memory_operands_length(std::span<const uint32_t> operands);


class ElementAccess {
  public:
    // How components of `component` are reached through `pointer`; nullopt after setting `why`.
    static std::optional<ElementAccess> describe(LoweringState& state, uint32_t pointer, const ComponentInfo& component,
                                                 bool is_store, std::string& why);

    // For a load with a DecodeFunc: the pointer's pointee is a block of any type, which only
    // array_element() addresses.
    static std::optional<ElementAccess> describe_blocks(LoweringState& state, uint32_t pointer, std::string& why);

    const AccessPath& path() const { return path_; }
    uint32_t pointee_type() const { return pointee_.type; }
    // Addressing units in one array element (a vector's scalars times the components in each
    // scalar): a unit is a component, or a scalar of a component that spans several.
    uint32_t ratio() const { return pointee_.count * per_scalar_; }
    // Units per component: 1, or the array scalars a wider component is made of.
    uint32_t span() const { return span_; }
    bool packs_components() const { return per_scalar_ > 1; }
    bool is_narrow_scalar_array() const { return pointee_.count == 1 && per_scalar_ == 1; }
    // The array element's size as an access's alignment.
    uint32_t pointee_bytes() const;

    // What a generated function must be given to re-derive the pointer: the base unless it is a
    // module variable, then every index that is not a constant. The key words say the same for
    // function caches.
    std::vector<uint32_t> arguments() const;
    void append_key(std::vector<uint32_t>& key) const;

    // The pointer re-derived inside a generated function from its parameters (starting at
    // `parameter`, which moves past them): base, indices, and the first index as a uint.
    struct Bound {
        uint32_t base;
        std::vector<uint32_t> indices;
        uint32_t first;
    };
    Bound bind(ir::FunctionBuilder& function, size_t& parameter) const;

    struct Address {
        uint32_t pointer;             // to the array element (the pointee)
        std::vector<uint32_t> chain;  // the access chain's operands after the base
        std::optional<uint32_t> sub;  // the component's place in the array element, when fixed
        uint32_t sub_id = 0;          // the same as an id (when ratio() > 1)
    };
    // Array element `element` (a uint id: an index into the array the pointer points into), with
    // the sub place left to the caller.
    Address array_element(ir::Builder& builder, const Bound& bound, uint32_t element);
    // Unit `index` (a uint id) counted from the pointer.
    Address component(ir::Builder& builder, const Bound& bound, uint32_t index);

    // Loads the unit at `address` (a component, or a piece of one as the array's scalar type);
    // units of one array element share one load until forget_loads() (a new block cannot use what
    // another computed).
    uint32_t load(ir::Builder& builder, const Bound& bound, const Address& address, std::span<const uint32_t> memory);
    void forget_loads() { loaded_.clear(); }
    // Stores a unit: a component, or a piece of one as split() gave it.
    void store(ir::Builder& builder, const Bound& bound, const Address& address, uint32_t value,
               std::span<const uint32_t> memory);
    // A component from the span() pieces load() gave, and back.
    uint32_t assemble(ir::Builder& builder, std::span<const uint32_t> pieces) const;
    std::vector<uint32_t> split(ir::Builder& builder, uint32_t component) const;

    // Component `index` (a uint id, counted in components from the pointer), whatever its span.
    uint32_t load_component(ir::Builder& builder, const Bound& bound, uint32_t index, std::span<const uint32_t> memory);
    void store_component(ir::Builder& builder, const Bound& bound, uint32_t index, uint32_t value, std::span<const uint32_t> memory);

  private:
    struct Pointee {
        uint32_t type;
        uint32_t scalar_type;
        uint32_t count;  // 1 for a scalar
        uint32_t scalar_width;
    };
    // Where the component sits in the array element: the scalar within a vector element and the
    // component within that scalar.
    struct Place {
        std::optional<uint32_t> scalar;
        uint32_t scalar_id;
        std::optional<uint32_t> within;
        uint32_t within_id;
    };

    ElementAccess(LoweringState& state, AccessPath path, Pointee pointee, const ComponentInfo& component,
                  const ComponentInfo& scalar, uint32_t per_scalar, uint32_t span);
    // Unit `index` + `piece`, where `index` counts components: the first unit of a component and
    // its pieces after it.
    uint32_t unit(ir::Builder& builder, uint32_t index, uint32_t piece) const;
    static std::optional<AccessPath> traced(const ir::Module& module, uint32_t pointer, std::string& why);
    bool is_constant(uint32_t id) const;
    spv::StorageClass storage() const { return static_cast<spv::StorageClass>(path_.storage_class); }
    Place place(ir::Builder& builder, const Address& address) const;
    uint32_t extract(ir::Builder& builder, uint32_t type, uint32_t vector, std::optional<uint32_t> index, uint32_t index_id) const;
    uint32_t scalar_pointer(ir::Builder& builder, const Address& address, uint32_t base, const Place& place) const;
    // The bit offset of the component within its scalar.
    uint32_t shift_within_scalar(ir::Builder& builder, const Place& place) const;

    LoweringState* state_;
    AccessPath path_;
    Pointee pointee_;
    ComponentInfo component_;
    ComponentInfo scalar_;  // the array's scalar, a component's piece when span_ > 1
    uint32_t per_scalar_;
    uint32_t span_;
    std::map<uint32_t, uint32_t> loaded_;  // array element pointer -> its loaded value
};

}  // namespace vkpolyfill::lowering::cooperative_matrix
