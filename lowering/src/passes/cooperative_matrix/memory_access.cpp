#include "passes/cooperative_matrix/memory_access.h"

#include "passes/cooperative_matrix/placement.h"

#include "passes/cooperative_matrix/word_view.h"

#include <algorithm>
#include <array>
#include <format>
#include <map>
#include <optional>
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

#include "ir/function_builder.h"
#include "ir/instruction_text.h"
#include "specialization.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

// The pointer of a load or store, as the variable (or PhysicalStorageBuffer pointer value) it
// starts from and the access-chain indices leading from there to the first element.
struct AccessPath {
    uint32_t base = 0;
    bool base_is_global = false;  // a module-scope variable: generated functions use it directly
    uint32_t storage_class = 0;
    std::vector<uint32_t> indices;
};

uint32_t storage_class_of(const ir::Module& module, uint32_t pointer) {
    const ir::Instruction* type = module.find_definition(module.type_of(pointer));
    return type && type->opcode() == spv::OpTypePointer ? type->word(2) : ~0u;
}

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

struct Pointee {
    uint32_t type;
    uint32_t scalar_type;
    uint32_t count;  // 1 for a scalar
    uint32_t scalar_width;
};

std::optional<Pointee> pointee_of(const ir::Module& module, uint32_t pointer) {
    const ir::Instruction* pointer_type = module.find_definition(module.type_of(pointer));
    if (!pointer_type || pointer_type->opcode() != spv::OpTypePointer) return std::nullopt;
    const uint32_t type = pointer_type->word(3);
    const ir::Instruction* definition = module.find_definition(type);
    if (!definition) return std::nullopt;
    uint32_t scalar = type, count = 1;
    if (definition->opcode() == spv::OpTypeVector) {
        scalar = definition->word(2);
        count = definition->word(3);
    }
    const std::optional<ComponentInfo> info = component_info(module, scalar);
    if (!info) return std::nullopt;
    return Pointee{type, scalar, count, info->width};
}

// Memory operands: the mask and its parameters, in the order of the mask's bits.
struct MemoryOperands {
    std::vector<uint32_t> words;  // empty: none
};

// Element accesses through a PhysicalStorageBuffer pointer must say their alignment; an element is
// aligned to its own size at most.
MemoryOperands element_memory_operands(std::span<const uint32_t> original, uint32_t storage_class, uint32_t element_bytes) {
    MemoryOperands result;
    uint32_t mask = original.empty() ? 0 : original[0];
    size_t next = 1;
    std::vector<uint32_t> parameters;
    uint32_t alignment = element_bytes;
    for (uint32_t bit = 1; bit != 0 && bit <= mask; bit <<= 1) {
        if (!(mask & bit)) continue;
        switch (bit) {
            case spv::MemoryAccessAlignedMask:
                if (next < original.size()) alignment = std::min(alignment, original[next++]);
                break;
            case spv::MemoryAccessMakePointerAvailableMask:
            case spv::MemoryAccessMakePointerVisibleMask:
            case spv::MemoryAccessAliasScopeINTELMaskMask:
            case spv::MemoryAccessNoAliasINTELMaskMask:
                if (next < original.size()) parameters.push_back(original[next++]);
                break;
            default:
                break;
        }
    }
    const bool aligned = storage_class == spv::StorageClassPhysicalStorageBuffer || (mask & spv::MemoryAccessAlignedMask);
    mask = aligned ? (mask | spv::MemoryAccessAlignedMask) : (mask & ~uint32_t{spv::MemoryAccessAlignedMask});
    if (mask == 0) return result;
    result.words.push_back(mask);
    if (aligned) result.words.push_back(alignment);  // Aligned is the lowest bit that has a parameter
    result.words.insert(result.words.end(), parameters.begin(), parameters.end());
    return result;
}

class AccessFunction {
  public:
    AccessFunction(LoweringState& state, const ir::Instruction& instruction, bool is_store)
        : state_(state), module_(state.module()), instruction_(instruction), is_store_(is_store) {}

    // The call replacing the instruction, added by `builder`.
    bool lower(ir::Builder& builder) {
        const auto operands = instruction_.operand_words();
        const uint32_t pointer = operands[0];
        const uint32_t matrix_value = is_store_ ? operands[1] : 0;
        const size_t rest = is_store_ ? 2 : 1;
        matrix_ = is_store_ ? state_.matrices.of_value(module_, matrix_value) : state_.matrices.find(instruction_.type_id());
        if (!matrix_) return fail("its matrix type was not lowered");
        if (operands.size() < rest + 2) return fail("it has no Stride operand, which RowMajorKHR and ColumnMajorKHR require");
        const std::optional<uint64_t> layout =
            freeze_constant(module_, operands[rest], state_.context.specialization, state_.context.diagnostics);
        if (!layout) return false;
        if (*layout > 1) return fail(std::format("memory layout {} is neither RowMajorKHR nor ColumnMajorKHR", *layout));
        column_major_ = *layout == 1;
        stride_ = operands[rest + 1];
        memory_operands_ = operands.subspan(rest + 2);

        const std::optional<AccessPath> path = trace(module_, pointer);
        if (!path) {
            return fail("its pointer does not come from an access chain into an array of a variable or of a "
                        "PhysicalStorageBuffer pointer (pointers through OpPhi, OpSelect or parameters are not supported)");
        }
        path_ = *path;
        const std::optional<Pointee> pointee = pointee_of(module_, pointer);
        if (!pointee) return fail("its pointer does not point to a scalar or vector");
        pointee_ = *pointee;
        const uint32_t width = matrix_->component.width;
        if (pointee_.scalar_width < width || pointee_.scalar_width % width != 0) {
            return fail(std::format("a {}-bit component cannot be read from {}-bit array elements", width, pointee_.scalar_width));
        }
        per_scalar_ = pointee_.scalar_width / width;
        if (per_scalar_ > 4) return fail("more than four components in one array scalar are not supported");
        if (is_store_ && per_scalar_ > 1 && !packed_store_supported()) {
            return fail("a store of components packed into wider array elements needs 32-bit integer array elements");
        }

        // Per-invocation narrow loads on a SIMD-lane driver: read whole words instead (word_view.h).
        if (!is_store_ && matrix_->use != Use::A && state_.context.target.simd_lane_invocations && pointee_.count == 1 &&
            per_scalar_ == 1 && path_.base_is_global) {
            view_ = word_view(state_, path_.base, path_.indices, pointee_.type);
        }

        std::vector<uint32_t> arguments;
        if (!path_.base_is_global) arguments.push_back(path_.base);
        for (uint32_t index : path_.indices) {
            if (!is_constant(index)) arguments.push_back(index);
        }
        arguments.push_back(stride_);
        if (is_store_) arguments.push_back(matrix_value);
        const uint32_t function = get_function(arguments);
        if (!function) return false;
        std::vector<uint32_t> call{function};
        call.insert(call.end(), arguments.begin(), arguments.end());
        if (is_store_) {
            builder.add(spv::OpFunctionCall, state_.types().get_type_void(), call);
        } else {
            // The matrix type stays until the pass replaces every matrix type at the end.
            builder.add(spv::OpFunctionCall, matrix_->id, call, instruction_.result_id());
        }
        return true;
    }

  private:
    bool fail(const std::string& why) {
        state_.context.diagnostics.error(
            std::format("{} cannot be lowered: {}", is_store_ ? "OpCooperativeMatrixStoreKHR" : "OpCooperativeMatrixLoadKHR", why),
            instruction_.source_offset(), ir::instruction_text(instruction_.words(), module_));
        return false;
    }

    bool is_constant(uint32_t id) const {
        const ir::Instruction* definition = module_.find_definition(id);
        return definition && definition->opcode() == spv::OpConstant;
    }

    bool packed_store_supported() const {
        const ir::Instruction* scalar = module_.find_definition(pointee_.scalar_type);
        return scalar->opcode() == spv::OpTypeInt && pointee_.scalar_width == 32;
    }

    // Every word that decides the generated code; equal keys share one function.
    std::vector<uint32_t> key() const {
        std::vector<uint32_t> key{is_store_ ? 1u : 0u, matrix_->id, column_major_ ? 1u : 0u, path_.base_is_global ? path_.base : 0,
                                  module_.type_of(path_.base), pointee_.type, module_.type_of(stride_)};
        for (uint32_t index : path_.indices) key.push_back(is_constant(index) ? index : module_.type_of(index) | 0x80000000u);
        key.push_back(view_ ? view_->variable : 0xFFFFFFFFu);
        key.insert(key.end(), memory_operands_.begin(), memory_operands_.end());
        return key;
    }

    uint32_t get_function(std::span<const uint32_t> arguments) {
        std::vector<uint32_t> function_key = key();
        if (const uint32_t existing = state_.find_function(function_key)) return existing;
        std::vector<uint32_t> parameter_types;
        for (uint32_t argument : arguments) parameter_types.push_back(module_.type_of(argument));
        if (is_store_) parameter_types.back() = matrix_->lowered;
        const uint32_t return_type = is_store_ ? state_.types().get_type_void() : matrix_->lowered;
        ir::FunctionBuilder function(module_, state_.types(), return_type, parameter_types);
        if (!generate(function)) return 0;
        state_.remember_function(std::move(function_key), function.id());
        return function.id();
    }

    // Converts an index-like integer to a 32-bit unsigned one.
    uint32_t as_uint(ir::Builder& builder, uint32_t value) {
        const ir::Instruction* type = module_.find_definition(module_.type_of(value));
        if (type->word(2) != 32) return builder.add(spv::OpUConvert, state_.uint_type(), {value});
        if (type->word(3) != 0) return builder.add(spv::OpBitcast, state_.uint_type(), {value});
        return value;
    }

    struct ElementAddress {
        uint32_t pointer;           // to the array element (the pointee)
        std::vector<uint32_t> chain;  // the access chain's operands after the base, for a longer chain
        std::optional<uint32_t> sub;  // the component's place in the element, when fixed
        uint32_t sub_id;              // the same as an id
    };

    // The address of element `e`'s array element. Elements that share one (the components of a
    // vector, the same row of a replicated A) share the instructions: computed once, loaded once.
    ElementAddress element_address(ir::Builder& b, uint32_t e, const Placement& place, uint32_t base,
                                   std::span<const uint32_t> indices, uint32_t first, uint32_t stride) {
        const uint32_t row = place.row(b, e);
        const uint32_t column = place.column(b, e);
        // The index along a row (RowMajor) or column (ColumnMajor) and the one across them.
        const uint32_t major = column_major_ ? column : row;
        const uint32_t minor = column_major_ ? row : column;
        const std::optional<uint32_t> minor_value = column_major_ ? place.fixed_row(e) : place.fixed_column(e);
        const uint32_t ratio = pointee_.count * per_scalar_;
        const uint32_t u = state_.uint_type();
        uint32_t element = minor;
        ElementAddress result;
        if (ratio > 1) {
            const uint32_t ratio_id = state_.uint_constant(ratio);
            element = minor_value ? state_.uint_constant(*minor_value / ratio) : b.add(spv::OpUDiv, u, {minor, ratio_id});
            if (minor_value) result.sub = *minor_value % ratio;
            result.sub_id = minor_value ? state_.uint_constant(*minor_value % ratio) : b.add(spv::OpUMod, u, {minor, ratio_id});
        }
        if (const auto known = addresses_.find({major, element}); known != addresses_.end()) {
            result.chain = known->second.chain;
            result.pointer = known->second.pointer;
            return result;
        }
        auto& line = lines_[major];  // first + major * stride: one per row (or column)
        if (line == 0) line = b.add(spv::OpIAdd, u, {first, b.add(spv::OpIMul, u, {major, stride})});
        result.chain.assign(indices.begin(), indices.end() - 1);
        result.chain.push_back(b.add(spv::OpIAdd, u, {line, element}));
        std::vector<uint32_t> operands{base};
        operands.insert(operands.end(), result.chain.begin(), result.chain.end());
        result.pointer = b.add(spv::OpAccessChain, state_.types().get_type_pointer(storage(), pointee_.type), operands);
        addresses_[{major, element}] = result;
        return result;
    }

    spv::StorageClass storage() const { return static_cast<spv::StorageClass>(path_.storage_class); }

    // Index `index` of a vector value, fixed or not.
    uint32_t extract(ir::Builder& b, uint32_t type, uint32_t vector, std::optional<uint32_t> index, uint32_t index_id) {
        if (index) return b.add(spv::OpCompositeExtract, type, {vector, *index});
        return b.add(spv::OpVectorExtractDynamic, type, {vector, index_id});
    }

    // Where the component of `address` sits in the array element: the scalar index within a vector
    // element and the component index within that scalar.
    struct Place {
        std::optional<uint32_t> scalar;
        uint32_t scalar_id;
        std::optional<uint32_t> within;
        uint32_t within_id;
    };

    Place place(ir::Builder& b, const ElementAddress& address) {
        Place p{address.sub, address.sub_id, address.sub, address.sub_id};
        if (per_scalar_ == 1) return p;
        const uint32_t u = state_.uint_type();
        const uint32_t per = state_.uint_constant(per_scalar_);
        if (address.sub) {
            p.scalar = *address.sub / per_scalar_;
            p.within = *address.sub % per_scalar_;
            p.scalar_id = state_.uint_constant(*p.scalar);
            p.within_id = state_.uint_constant(*p.within);
        } else {
            p.scalar_id = b.add(spv::OpUDiv, u, {address.sub_id, per});
            p.within_id = b.add(spv::OpUMod, u, {address.sub_id, per});
        }
        return p;
    }

    uint32_t load_component(ir::Builder& b, const ElementAddress& address, uint32_t base, const MemoryOperands& memory) {
        const uint32_t component = matrix_->component.type;
        const Place p = place(b, address);
        uint32_t scalar;
        if (pointee_.count > 1 && !p.scalar) {
            // Each invocation wants a different scalar of the vector: load just that one, rather
            // than the vector and a per-invocation dynamic extract (slow on SIMD-lane drivers).
            std::vector<uint32_t> load{scalar_pointer(b, address, base, p)};
            load.insert(load.end(), memory.words.begin(), memory.words.end());
            scalar = b.add(spv::OpLoad, pointee_.scalar_type, load);
        } else {
            uint32_t& value = loaded_[address.pointer];  // elements sharing an array element load it once
            if (value == 0) {
                std::vector<uint32_t> load{address.pointer};
                load.insert(load.end(), memory.words.begin(), memory.words.end());
                value = b.add(spv::OpLoad, pointee_.type, load);
            }
            scalar = pointee_.count > 1 ? extract(b, pointee_.scalar_type, value, p.scalar, p.scalar_id) : value;
        }
        if (per_scalar_ == 1) return pointee_.scalar_type == component ? scalar : b.add(spv::OpBitcast, component, {scalar});
        const uint32_t vector = b.add(spv::OpBitcast, state_.types().get_type_vector(component, per_scalar_), {scalar});
        return extract(b, component, vector, p.within, p.within_id);
    }

    // A pointer to the scalar of a vector element that holds the component.
    uint32_t scalar_pointer(ir::Builder& b, const ElementAddress& address, uint32_t base, const Place& p) {
        if (pointee_.count == 1) return address.pointer;
        std::vector<uint32_t> operands{base};
        operands.insert(operands.end(), address.chain.begin(), address.chain.end());
        operands.push_back(p.scalar_id);
        return b.add(spv::OpAccessChain, state_.types().get_type_pointer(storage(), pointee_.scalar_type), operands);
    }

    void store_component(ir::Builder& b, const ElementAddress& address, uint32_t base, uint32_t value,
                         const MemoryOperands& memory) {
        const Place p = place(b, address);
        const uint32_t pointer = scalar_pointer(b, address, base, p);
        if (per_scalar_ == 1) {
            const uint32_t stored = pointee_.scalar_type == matrix_->component.type ? value
                                                                                   : b.add(spv::OpBitcast, pointee_.scalar_type, {value});
            std::vector<uint32_t> store{pointer, stored};
            store.insert(store.end(), memory.words.begin(), memory.words.end());
            b.add(spv::OpStore, 0, store);
            return;
        }
        // Several components share a 32-bit scalar, and other invocations own the others: clear this
        // component's bits and set them with atomics, which leave the other bits alone.
        const uint32_t u = state_.uint_type();
        const uint32_t width = matrix_->component.width;
        const uint32_t bits = component_bits(b, value);
        const uint32_t shift = p.within ? state_.uint_constant(*p.within * width)
                                        : b.add(spv::OpIMul, u, {p.within_id, state_.uint_constant(width)});
        const uint32_t shifted = b.add(spv::OpShiftLeftLogical, u, {bits, shift});
        const uint32_t mask = b.add(spv::OpShiftLeftLogical, u, {state_.uint_constant((1u << width) - 1), shift});
        const uint32_t keep = b.add(spv::OpNot, u, {mask});
        const uint32_t scalar = pointee_.scalar_type;
        const auto as_scalar = [&](uint32_t x) { return scalar == u ? x : b.add(spv::OpBitcast, scalar, {x}); };
        const uint32_t scope = state_.uint_constant(storage() == spv::StorageClassWorkgroup ? spv::ScopeWorkgroup : spv::ScopeQueueFamily);
        const uint32_t relaxed = state_.uint_constant(spv::MemorySemanticsMaskNone);
        b.add(spv::OpAtomicAnd, scalar, {pointer, scope, relaxed, as_scalar(keep)});
        b.add(spv::OpAtomicOr, scalar, {pointer, scope, relaxed, as_scalar(shifted)});
    }

    // A component's bits in the low bits of a 32-bit unsigned integer.
    uint32_t component_bits(ir::Builder& b, uint32_t value) {
        const ComponentInfo& c = matrix_->component;
        const uint32_t u = state_.uint_type();
        if (c.is_float && c.width == 16 && state_.types().float_format(c.type) == ir::kFloat16) {
            // PackHalf2x16 needs no 16-bit integer type (the device may lack Int16).
            const uint32_t f32 = state_.types().get_type_float(ir::kFloat32);
            const uint32_t wide = b.add(spv::OpFConvert, f32, {value});
            const uint32_t pair = b.add(spv::OpCompositeConstruct, state_.types().get_type_vector(f32, 2),
                                        {wide, state_.types().get_constant(f32, std::array<uint32_t, 1>{0})});
            return b.add(spv::OpExtInst, u, {module_.get_ext_inst_import("GLSL.std.450"), GLSLstd450PackHalf2x16, pair});
        }
        const uint32_t narrow = state_.types().get_type_int(c.width, false);
        const uint32_t raw = c.is_float || module_.find_definition(c.type)->word(3) != 0 ? b.add(spv::OpBitcast, narrow, {value}) : value;
        return b.add(spv::OpUConvert, u, {raw});
    }

    bool generate(ir::FunctionBuilder& function) {
        ir::Builder& b = function.body();
        size_t parameter = 0;
        const uint32_t base = path_.base_is_global ? path_.base : function.parameter(parameter++);
        std::vector<uint32_t> indices;
        for (uint32_t index : path_.indices) indices.push_back(is_constant(index) ? index : function.parameter(parameter++));
        const uint32_t stride = as_uint(b, function.parameter(parameter++));
        const uint32_t first = as_uint(b, indices.back());
        const uint32_t value = is_store_ ? function.parameter(parameter) : 0;
        const Placement place(state_, b, *matrix_);
        const MemoryOperands memory = element_memory_operands(memory_operands_, path_.storage_class, pointee_bytes());

        if (!is_store_ && !view_) {
            function.finish(load_matrix(b, place, base, indices, first, stride, memory, false));
            return true;
        }
        if (!is_store_) {
            // Whole words may reach past the end of a buffer whose size is not a multiple of four,
            // where robust access reads zeros: use them only when the matrix's last word is inside.
            const uint32_t u = state_.uint_type();
            const uint32_t bool_type = state_.types().get_type_bool();
            const uint32_t majors = column_major_ ? matrix_->columns : matrix_->rows;
            const uint32_t minors = column_major_ ? matrix_->rows : matrix_->columns;
            const uint32_t last = b.add(spv::OpIAdd, u, {b.add(spv::OpIAdd, u, {first, state_.uint_constant(view_->first_element + minors - 1)}),
                                                         b.add(spv::OpIMul, u, {state_.uint_constant(majors - 1), stride})});
            const uint32_t last_word = b.add(spv::OpUDiv, u, {last, state_.uint_constant(32 / matrix_->component.width)});
            const uint32_t words = b.add(spv::OpArrayLength, u, {view_->variable, 0});
            const uint32_t fits = b.add(spv::OpULessThan, bool_type, {last_word, words});
            const uint32_t result = function.add_variable(state_.types().get_type_pointer(spv::StorageClassFunction, matrix_->lowered));
            for (const bool through_words : {true, false}) {
                function.begin_if(through_words ? fits : function.body().add(spv::OpLogicalNot, bool_type, {fits}));
                const uint32_t matrix = load_matrix(function.body(), place, base, indices, first, stride, memory, through_words);
                function.body().add(spv::OpStore, 0, {result, matrix});
                function.end_if();
            }
            function.finish(function.body().add(spv::OpLoad, matrix_->lowered, {result}));
            return true;
        }
        // Copies of the same element (all of A, B across row groups) are written by one of them.
        const uint32_t writer = place.sole_writer(b);
        if (writer) function.begin_if(writer);
        ir::Builder& body = function.body();
        for (uint32_t e = 0; e < matrix_->length; ++e) {
            const uint32_t component = body.add(spv::OpCompositeExtract, matrix_->component.type, {value, e});
            store_component(body, element_address(body, e, place, base, indices, first, stride), base, component, memory);
        }
        if (writer) function.end_if();
        function.finish(0);
        return true;
    }

    // Every element this invocation holds, in one block; `through_words` reads them via view_.
    uint32_t load_matrix(ir::Builder& b, const Placement& place, uint32_t base, std::span<const uint32_t> indices,
                         uint32_t first, uint32_t stride, const MemoryOperands& memory, bool through_words) {
        addresses_.clear();  // what another block computed is not available here
        lines_.clear();
        loaded_.clear();
        std::vector<uint32_t> components;
        for (uint32_t e = 0; e < matrix_->length; ++e) {
            const ElementAddress address = element_address(b, e, place, base, indices, first, stride);
            components.push_back(through_words ? load_through_word_view(state_, b, *view_, address.chain.back(), matrix_->component)
                                               : load_component(b, address, base, memory));
        }
        return b.add(spv::OpCompositeConstruct, matrix_->lowered, components);
    }

    uint32_t pointee_bytes() const {
        const uint32_t scalar_bytes = pointee_.scalar_width / 8;
        return pointee_.count == 2 || pointee_.count == 4 ? scalar_bytes * pointee_.count : scalar_bytes;
    }

    LoweringState& state_;
    ir::Module& module_;
    const ir::Instruction& instruction_;
    bool is_store_;
    const MatrixType* matrix_ = nullptr;
    bool column_major_ = false;
    uint32_t stride_ = 0;
    std::span<const uint32_t> memory_operands_;
    AccessPath path_;
    Pointee pointee_{};
    uint32_t per_scalar_ = 1;
    std::optional<WordView> view_;
    // Per generated function: shared address computations and loads.
    std::map<std::pair<uint32_t, uint32_t>, ElementAddress> addresses_;
    std::map<uint32_t, uint32_t> lines_;
    std::map<uint32_t, uint32_t> loaded_;
};

}  // namespace

bool lower_memory_access(LoweringState& state, ir::BasicBlock& block, size_t index) {
    std::unique_ptr<ir::Instruction> instruction = std::move(block.instructions[index]);
    block.instructions.erase(block.instructions.begin() + static_cast<ptrdiff_t>(index));
    ir::Builder builder(state.module(), block, index);
    const bool is_store = instruction->opcode() == spv::OpCooperativeMatrixStoreKHR;
    const bool ok = AccessFunction(state, *instruction, is_store).lower(builder);
    if (!ok) block.instructions.insert(block.instructions.begin() + static_cast<ptrdiff_t>(builder.position()), std::move(instruction));
    return ok;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
