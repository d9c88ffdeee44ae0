#include "passes/cooperative_matrix/tensor_memory.h"

#include <algorithm>
#include <format>
#include <optional>
#include <spirv/unified1/spirv.hpp>

#include "helpers/link_helper.h"
#include "ir/function_builder.h"
#include "ir/instruction_text.h"
#include "passes/cooperative_matrix/component_bits.h"
#include "passes/cooperative_matrix/decode_call.h"
#include "passes/cooperative_matrix/element_access.h"
#include "passes/cooperative_matrix/memory_access.h"
#include "passes/cooperative_matrix/placement.h"
#include "passes/cooperative_matrix/word_view.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

// tensor_addressing.comp's results; its third, 1 (clipped: the element keeps its value), needs no test.
constexpr uint32_t kElement = 0, kOutside = 2;
// Mesa's drivers unroll loops of at most this many iterations (nir_opt_loop_unroll's limit).
constexpr uint32_t kUnrolledElements = 32;

class TensorAccessFunction {
  public:
    TensorAccessFunction(LoweringState& state, const ir::Instruction& instruction)
        : state_(state), module_(state.module()), instruction_(instruction),
          is_store_(instruction.opcode() == spv::OpCooperativeMatrixStoreTensorNV) {}

    // The call replacing the instruction, added by `builder`.
    bool lower(ir::Builder& builder) {
        const auto operands = instruction_.operand_words();  // Pointer, Object, TensorLayout, memory, addressing
        if (operands.size() < 4) return fail("it has too few operands");
        const uint32_t object = operands[1];
        matrix_ = is_store_ ? state_.matrices.of_value(module_, object) : state_.matrices.find(instruction_.type_id());
        if (!matrix_ || (!is_store_ && module_.type_of(object) != instruction_.type_id())) {
            return fail("its matrix type was not lowered, or Object's type is not the result type");
        }
        layout_ = state_.tensors.layout(module_.type_of(operands[2]));
        if (!layout_) return fail("its TensorLayout is not a tensor layout");
        const size_t memory_length = memory_operands_length(operands.subspan(3));
        memory_operands_ = operands.subspan(3, memory_length);
        const std::span<const uint32_t> addressing = operands.subspan(3 + memory_length);
        if (!read_addressing_operands(addressing)) return false;
        direct_ = known_direct();

        std::string why;
        access_ = decode_function_ ? ElementAccess::describe_blocks(state_, operands[0], why)
                                   : ElementAccess::describe(state_, operands[0], matrix_->component, is_store_, why);
        if (!access_) return fail(why);
        if (decode_function_) {
            decode_ = DecodeCall::prepare(state_, decode_function_, *access_, *matrix_, layout_->dimensions, false, why);
            if (!decode_) return fail(why);
        }
        if (decode_vector_function_ && !prepare_vector_decode(why)) return fail(why);
        // Components wider than the array's elements (f16 or f32 in a uint8_t array) are read whole,
        // through a view of the buffer as elements of their width (word_view.h), where every element
        // is read (Constant layouts on the direct path too: reads_without_branches). Where each is
        // tested first (Constant layouts on the general path, clipping views), RADV left the 16-bit
        // loads in their branches instead of reading them together and selecting, as it does the
        // bytes (llama.cpp's flash attention: 8-13% more cycles at head size 128 while its mask
        // branched), so those keep reading bytes. So do f16 components where
        // invocations are SIMD lanes: a 16-bit load with per-lane addresses is a gather written out
        // lane by lane there, and ggml's f16 flash attention ran no faster on lavapipe 26 (54.9-61.3 s
        // against 49.7-55.4 s reading bytes).
        const AccessPath& path = access_->path();
        const uint32_t width = matrix_->component.width;
        const bool wide = width == 32 || (width == 16 && !state_.context.target.simd_lane_invocations);
        if (!is_store_ && !decode_function_ && access_->span() > 1 && access_->is_narrow_scalar_array() && path.base_is_global &&
            wide && (always_accessed() || reads_without_branches())) {
            whole_view_ = word_view(state_, path.base, path.indices, access_->pointee_type(), width);
        }

        std::vector<uint32_t> arguments = access_->arguments();
        arguments.push_back(operands[2]);
        if (view_) arguments.push_back(view_value_);
        arguments.push_back(object);
        const uint32_t function = get_function(arguments);
        if (!function) return false;
        add_access_call(state_, builder, function, arguments, instruction_, *matrix_);
        return true;
    }

  private:
    bool fail(const std::string& why) {
        state_.context.diagnostics.error(std::format("{} cannot be lowered: {}", instruction_.name(), why),
                                         instruction_.source_offset(), ir::instruction_text(instruction_.words(), module_));
        return false;
    }

    // DecodeVectorFunc (SPV_NV_cooperative_matrix_decode_vector) is checked always and called where an
    // invocation's consecutive elements run along a row of the tensor (no view to permute them): there
    // one call serves V of them. Elsewhere DecodeFunc decodes each element, as the spec allows.
    bool prepare_vector_decode(std::string& why) {
        const bool worth_it = !view_ && Placement::holds_row_runs(*matrix_);
        if (!worth_it) return DecodeCall::check_signature(state_, decode_vector_function_, *matrix_, layout_->dimensions, true, why);
        decode_vector_ = DecodeCall::prepare(state_, decode_vector_function_, *access_, *matrix_, layout_->dimensions, true, why);
        return decode_vector_.has_value();
    }

    // The Tensor Addressing Operands: a mask, then the view's and the decode functions' ids.
    bool read_addressing_operands(std::span<const uint32_t> addressing) {
        if (addressing.empty()) return fail("it has no Tensor Addressing Operands");
        const uint32_t mask = addressing[0];
        size_t next = 1;
        if (mask & ~uint32_t{spv::TensorAddressingOperandsTensorViewMask | spv::TensorAddressingOperandsDecodeFuncMask |
                             spv::TensorAddressingOperandsDecodeVectorFuncMask}) {
            return fail(std::format("Tensor Addressing Operands 0x{:x} has bits this lowering does not know", mask));
        }
        if (mask & spv::TensorAddressingOperandsTensorViewMask) {
            if (next >= addressing.size()) return fail("its TensorView operand is missing");
            view_value_ = addressing[next++];
            view_ = state_.tensors.view(module_.type_of(view_value_));
            if (!view_) return fail("its TensorView operand is not a tensor view");
            if (!view_->has_dimensions && view_->dimensions > layout_->dimensions) {
                return fail(std::format("a {}-dimensional view without its own dimensions takes the spans of a {}-dimensional layout, "
                                        "which has too few",
                                        view_->dimensions, layout_->dimensions));
            }
        }
        if (mask & spv::TensorAddressingOperandsDecodeFuncMask) {
            if (is_store_) return fail("DecodeFunc is not allowed with a store");
            if (next >= addressing.size()) return fail("its DecodeFunc operand is missing");
            decode_function_ = addressing[next++];
        }
        if (mask & spv::TensorAddressingOperandsDecodeVectorFuncMask) {
            if (is_store_) return fail("DecodeVectorFunc is not allowed with a store");
            if (!decode_function_) return fail("DecodeVectorFunc needs a DecodeFunc beside it");
            if (next >= addressing.size()) return fail("its DecodeVectorFunc operand is missing");
            decode_vector_function_ = addressing[next++];
        }
        if (next != addressing.size()) return fail("it has operands after its Tensor Addressing Operands");
        return true;
    }

    // Whether every element takes the addressing helper's direct path, decided from what the module
    // fixes of the layout (tensor_layout_values.h) as the helper's split entry points would test it
    // per element: two dimensions with blocks of one element, a slice as wide as the matrix and at
    // least as tall (its transpose through a view that swaps the dimensions), and a clamp mode that
    // never sends an element outside to the general path (a load's Undefined or Constant; a store
    // discards such elements under every mode).
    bool known_direct() const {
        const TensorLayoutValues::Words* words = state_.layout_values.of(instruction_.operand_words()[2]);
        if (!words || layout_->dimensions != 2 || words->size() != layout_->words()) return false;
        const auto word = [&](uint32_t i) { return (*words)[i]; };
        if (word(layout_->block_size(0)) != 1u || word(layout_->block_size(1)) != 1u) return false;
        if (!is_store_ && layout_->clamp_mode != spv::TensorClampModeUndefined && layout_->clamp_mode != spv::TensorClampModeConstant) {
            return false;
        }
        const std::optional<uint32_t> first = word(layout_->span(0)), second = word(layout_->span(1));
        if (!first || !second) return false;
        const auto shaped = [&](uint32_t along_rows, uint32_t along_columns) {
            return along_columns == matrix_->columns && along_rows >= matrix_->rows;
        };
        if (!view_) return shaped(*first, *second);
        if (clips() || view_->has_dimensions || view_->dimensions != 2) return false;
        if (view_->permutation[0] == 0 && view_->permutation[1] == 1) return shaped(*first, *second);
        if (view_->permutation[0] == 1 && view_->permutation[1] == 0) return shaped(*second, *first);
        return false;
    }

    // Every word that decides the generated code; equal keys share one function.
    std::vector<uint32_t> key() const {
        std::vector<uint32_t> key{0x544E5352u /* "TNSR" */, is_store_ ? 1u : 0u, direct_ ? 1u : 0u, matrix_->id,
                                  module_.type_of(instruction_.operand_words()[2]), view_ ? module_.type_of(view_value_) : 0};
        access_->append_key(key);
        if (decode_) decode_->append_key(key);
        if (decode_vector_) decode_vector_->append_key(key);
        key.push_back(whole_view_ ? whole_view_->variable : 0xFFFFFFFFu);
        key.insert(key.end(), memory_operands_.begin(), memory_operands_.end());
        return key;
    }

    uint32_t get_function(std::span<const uint32_t> arguments) {
        std::vector<uint32_t> function_key = key();
        if (const uint32_t existing = state_.find_function(function_key)) return existing;
        addressing_ = link_addressing();
        if (!addressing_) return 0;
        std::vector<uint32_t> parameter_types;
        for (uint32_t argument : arguments) parameter_types.push_back(module_.type_of(argument));
        parameter_types[parameter_types.size() - 1] = matrix_->lowered;
        parameter_types[parameter_types.size() - (view_ ? 3 : 2)] = layout_->lowered;
        if (view_) parameter_types[parameter_types.size() - 2] = view_->lowered;
        const uint32_t return_type = is_store_ ? state_.types().get_type_void() : matrix_->lowered;
        ir::FunctionBuilder function(module_, state_.types(), return_type, parameter_types);
        generate(function);
        state_.remember_function(std::move(function_key), function.id());
        return function.id();
    }

    // The addressing helper instantiated for this layout, view, matrix width and direction: its
    // direct path alone where known_direct().
    uint32_t link_addressing() {
        using helpers::uint_value;
        std::vector<SpecializationValue> values{uint_value(0, layout_->dimensions), uint_value(1, layout_->clamp_mode),
                                                uint_value(2, is_store_ ? 1 : 0), uint_value(3, matrix_->columns),
                                                uint_value(11, layout_->words()), uint_value(13, matrix_->rows)};
        if (view_) {
            values.push_back(uint_value(4, view_->dimensions));
            values.push_back(uint_value(5, view_->has_dimensions ? 1 : 0));
            for (uint32_t i = 0; i < 5; ++i) values.push_back(uint_value(6 + i, view_->permutation[i]));
            values.push_back(uint_value(12, view_->words()));
            values.push_back(uint_value(14, state_.tensors.views_clip() ? 1 : 0));
        }
        std::vector<uint32_t> key{0x54414452u /* "TADR" */, view_ ? 1u : 0u, direct_ ? 1u : 0u};
        for (const SpecializationValue& v : values) key.push_back(v.bytes[0] | v.bytes[1] << 8 | v.bytes[2] << 16 | v.bytes[3] << 24);
        if (const uint32_t existing = state_.find_function(key)) return existing;
        const std::string_view entry = view_ ? (direct_ ? "tensor_element_view_direct" : "tensor_element_view_split")
                                             : (direct_ ? "tensor_element_direct" : "tensor_element_split");
        const uint32_t helper = helpers::link_helper_function(module_, state_.types(), "tensor_addressing", entry, values,
                                                              state_.context.diagnostics);
        if (helper) state_.remember_function(std::move(key), helper);
        return helper;
    }

    // Whether the view may clip elements (a clipped element keeps Object's value in a load, is skipped
    // in a store).
    bool clips() const { return view_ && state_.tensors.views_clip(); }

    // Unless clipped, every element of a load is accessed unless the Constant mode can put it
    // outside; every element of a store unless any mode but Undefined can (they all discard).
    bool always_accessed() const {
        if (clips()) return false;
        return is_store_ ? layout_->clamp_mode == spv::TensorClampModeUndefined : layout_->clamp_mode != spv::TensorClampModeConstant;
    }

    // A load in the Constant mode on the direct path reads every element without a branch: an element
    // outside at the tensor's first element (the helper leaves *element 0 for it), replaced by the
    // clamp value. With a branch an element (llama.cpp's flash attention: its Q, and its mask where
    // the rows are not a multiple of the block's), RADV on RDNA3 and NAK kept the element loop
    // rolled, indexing the components at run time (chains of selects; local memory). Reading the
    // nearest element inside instead made the loop too long for RADV to unroll llama.cpp's GEMM
    // loads. A layout with an empty dimension has nothing to read, so the loop is skipped for it.
    bool reads_without_branches() const {
        return !is_store_ && direct_ && !clips() && !decode_function_ && layout_->clamp_mode == spv::TensorClampModeConstant;
    }

    void generate(ir::FunctionBuilder& function) {
        size_t parameter = 0;
        const ElementAccess::Bound bound = access_->bind(function, parameter);
        const uint32_t layout = function.parameter(parameter++);
        const uint32_t view = view_ ? function.parameter(parameter++) : 0;
        const uint32_t object = function.parameter(parameter);
        const Placement place(state_, function.body(), *matrix_);
        if (!decode_) memory_ = element_memory_operands(memory_operands_, access_->path().storage_class, access_->pointee_bytes());
        access_->forget_loads();

        const uint32_t u = state_.uint_type();
        const uint32_t coordinates = state_.types().get_type_array(u, state_.uint_constant(layout_->dimensions));
        element_ = variable(function, u);
        block_coordinates_ = variable(function, coordinates);
        coordinates_in_block_ = variable(function, coordinates);
        if (decode_vector_) start_groups(function, coordinates);

        const uint32_t writer = is_store_ ? place.sole_writer(function.body()) : 0;
        if (writer) function.begin_if(writer);  // copies of an element (all of A, B across row groups) are written once
        // The components in a variable the loop indexes: a store's value; a load's result, starting as
        // Object only where elements may be clipped and keep its values. Elsewhere every element is
        // written in the loop, so that Object (glslang's: the variable's value before the load, in a
        // loop the previous iteration's) does not stay live: in llama.cpp's flash attention it kept
        // each step's K and V matrices alive into the next.
        const uint32_t components = variable(function, matrix_->lowered);
        if (is_store_ || clips()) function.body().add(spv::OpStore, 0, {components, object});
        const uint32_t clamp_value = !is_store_ && layout_->clamp_mode == spv::TensorClampModeConstant
                                         ? component_from_bits(state_, function.body(),
                                                               function.body().add(spv::OpCompositeExtract, u, {layout, layout_->clamp_value()}),
                                                               matrix_->component)
                                         : 0;
        const uint32_t nonempty = reads_without_branches() ? begin_nonempty_layout(function, layout, components, clamp_value) : 0;
        // A loop over the elements: the addressing (and a decode function) is compiled once an
        // iteration, not once per element. On the direct path alone the loop is a few instructions an
        // element, which the drivers may unroll. A loop too long for that may take several elements an
        // iteration, through an array of chunks the loop indexes by its counter and as long as its
        // trip count, which NIR then unrolls whatever the loop's size (nir_loop_analyze's array
        // heuristic): a 32-bit word's worth of a load of narrow components (Target::long_narrow_loads),
        // elsewhere as many as leave at most the iterations the drivers unroll
        // (Target::chunked_element_loops).
        const uint32_t per_iteration = elements_per_iteration();
        const uint32_t iterations = matrix_->length / per_iteration;
        const uint32_t chunk_type = per_iteration > 1 ? state_.types().get_type_vector(matrix_->component.type, per_iteration) : 0;
        const uint32_t chunks_type = chunk_type ? state_.types().get_type_array(chunk_type, state_.uint_constant(iterations)) : 0;
        const uint32_t chunk = chunk_type ? variable(function, chunk_type) : 0;
        const uint32_t chunks = chunk_type ? variable(function, chunks_type) : 0;
        const bool reads_components = is_store_ || clips();
        if (chunks && reads_components) {
            ir::Builder& b = function.body();
            b.add(spv::OpStore, 0, {chunks, to_chunks(b, b.add(spv::OpLoad, matrix_->lowered, {components}), chunk_type, chunks_type, per_iteration)});
        }
        const bool rolled = by_words() && state_.context.target.long_narrow_loads == LongNarrowLoads::RolledWords;
        const uint32_t iteration = function.begin_loop(state_.uint_constant(iterations), rolled ? spv::LoopControlDontUnrollMask : spv::LoopControlMaskNone);
        const uint32_t this_chunk =
            chunk ? function.body().add(spv::OpAccessChain, state_.types().get_type_pointer(spv::StorageClassFunction, chunk_type), {chunks, iteration}) : 0;
        if (chunk && reads_components) function.body().add(spv::OpStore, 0, {chunk, function.body().add(spv::OpLoad, chunk_type, {this_chunk})});
        const uint32_t component_pointer = state_.types().get_type_pointer(spv::StorageClassFunction, matrix_->component.type);
        for (uint32_t k = 0; k < per_iteration; ++k) {
            ir::Builder& b = function.body();
            const uint32_t e = chunk ? b.add(spv::OpIAdd, u, {b.add(spv::OpIMul, u, {iteration, state_.uint_constant(per_iteration)}), state_.uint_constant(k)})
                                     : iteration;
            const uint32_t slot = b.add(spv::OpAccessChain, component_pointer, {chunk ? chunk : components, chunk ? state_.uint_constant(k) : e});
            access_element(function, place, bound, layout, view, e, slot, clamp_value, nonempty);
        }
        if (chunk && !is_store_) function.body().add(spv::OpStore, 0, {this_chunk, function.body().add(spv::OpLoad, chunk_type, {chunk})});
        function.end_loop();
        if (chunks && !is_store_) {
            ir::Builder& b = function.body();
            b.add(spv::OpStore, 0, {components, from_chunks(b, b.add(spv::OpLoad, chunks_type, {chunks}), per_iteration)});
        }
        if (nonempty) function.end_if();
        if (writer) function.end_if();
        const uint32_t result = is_store_ ? 0 : function.body().add(spv::OpLoad, matrix_->lowered, {components});
        function.finish(result);
    }

    // A new Function-storage variable of `type` in `function`.
    uint32_t variable(ir::FunctionBuilder& function, uint32_t type) {
        return function.add_variable(state_.types().get_type_pointer(spv::StorageClassFunction, type));
    }

    // A matrix's components (`components`, a value) as an array of chunks of `per_chunk`.
    uint32_t to_chunks(ir::Builder& b, uint32_t components, uint32_t chunk_type, uint32_t chunks_type, uint32_t per_chunk) {
        std::vector<uint32_t> chunks;
        for (uint32_t first = 0; first < matrix_->length; first += per_chunk) {
            std::vector<uint32_t> values;
            for (uint32_t e = first; e < first + per_chunk; ++e) values.push_back(b.add(spv::OpCompositeExtract, matrix_->component.type, {components, e}));
            chunks.push_back(b.add(spv::OpCompositeConstruct, chunk_type, values));
        }
        return b.add(spv::OpCompositeConstruct, chunks_type, chunks);
    }

    // The components of an array of chunks of `per_chunk` (a value), in order, as the matrix's.
    uint32_t from_chunks(ir::Builder& b, uint32_t chunks, uint32_t per_chunk) {
        std::vector<uint32_t> values;
        for (uint32_t e = 0; e < matrix_->length; ++e) values.push_back(b.add(spv::OpCompositeExtract, matrix_->component.type, {chunks, e / per_chunk, e % per_chunk}));
        return b.add(spv::OpCompositeConstruct, matrix_->lowered, values);
    }

    // Whether the element loop takes a 32-bit word's worth of narrow components an iteration: a load
    // in a loop the drivers keep rolled, where every element is written (not clipped), unless the
    // target takes them one by one.
    bool by_words() const {
        const uint32_t width = matrix_->component.width;
        return width < 32 && matrix_->length > kUnrolledElements && matrix_->length % (32 / width) == 0 && !is_store_ && !clips() &&
               state_.context.target.long_narrow_loads != LongNarrowLoads::Elements;
    }

    // Elements an iteration of the element loop: a word's (by_words), else, where the target asks,
    // the fewest that leave at most the iterations the drivers unroll and, of narrow components, at
    // least a word's worth (the lowered matrix holds them in pairs: an element an iteration would
    // index the pairs' halves, and NIR's array heuristic would not apply).
    uint32_t elements_per_iteration() const {
        const uint32_t width = matrix_->component.width;
        if (by_words()) return 32 / width;
        if (!state_.context.target.chunked_element_loops) return 1;
        uint32_t chunk = std::max(width < 32 ? 32 / width : 1, (matrix_->length + kUnrolledElements - 1) / kUnrolledElements);
        while (matrix_->length % chunk != 0) ++chunk;
        return chunk <= 4 ? chunk : 1;  // a chunk is a vector
    }

    // Element `e`'s access into `slot`: addressed by the helper, then read without a branch or
    // tested first.
    void access_element(ir::FunctionBuilder& function, const Placement& place, const ElementAccess::Bound& bound, uint32_t layout,
                        uint32_t view, uint32_t e, uint32_t slot, uint32_t clamp_value, uint32_t nonempty) {
        const uint32_t u = state_.uint_type();
        ir::Builder& b = function.body();
        const Placement::SplitAt row = place.row_split_at(b, e), column = place.column_split_at(b, e);
        std::vector<uint32_t> call{addressing_, layout, view, row.base, row.offset, column.base, column.offset,
                                   element_, block_coordinates_, coordinates_in_block_};
        if (!view) call.erase(call.begin() + 2);
        const uint32_t status = b.add(spv::OpFunctionCall, u, call);
        if (nonempty) {
            const uint32_t index = b.add(spv::OpLoad, u, {element_});
            const uint32_t value = load_element(b, bound, index);
            b.add(spv::OpStore, 0, {slot, b.add(spv::OpSelect, matrix_->component.type, {is(b, status, kElement), value, clamp_value})});
        } else {
            generate_branches(function, bound, status, slot, clamp_value);
        }
    }

    // An element's access where it is tested first: a store, a Constant load that branches, a
    // clipping view, decode functions.
    void generate_branches(ir::FunctionBuilder& function, const ElementAccess::Bound& bound, uint32_t status, uint32_t slot,
                           uint32_t clamp_value) {
        const uint32_t u = state_.uint_type();
        if (clamp_value && clips()) {
            function.begin_if(is(function.body(), status, kOutside));
            function.body().add(spv::OpStore, 0, {slot, clamp_value});
            function.end_if();
        } else if (clamp_value) {  // an element not loaded below is outside
            function.body().add(spv::OpStore, 0, {slot, clamp_value});
        }
        const bool branch = !always_accessed();
        if (branch) function.begin_if(is(function.body(), status, kElement));
        ir::Builder& accessed = function.body();
        const uint32_t index = accessed.add(spv::OpLoad, u, {element_});
        if (decode_vector_) {
            const uint32_t value = decode_in_group(function, bound, index);
            function.body().add(spv::OpStore, 0, {slot, value});
        } else if (decode_) {
            accessed.add(spv::OpStore, 0, {slot, decode_->call(accessed, *access_, bound, index, block_coordinates_, coordinates_in_block_)});
        } else if (is_store_) {
            const uint32_t component = accessed.add(spv::OpLoad, matrix_->component.type, {slot});
            access_->store_component(accessed, bound, index, component, memory_);
        } else {
            accessed.add(spv::OpStore, 0, {slot, load_element(accessed, bound, index)});
        }
        if (branch) function.end_if();
    }

    // The component at element `index`: one load through whole_view_ where there is one, else
    // through the access's pointer (a load per byte of a narrow array).
    uint32_t load_element(ir::Builder& b, const ElementAccess::Bound& bound, uint32_t index) {
        if (!whole_view_) return access_->load_component(b, bound, index, memory_);
        const uint32_t u = state_.uint_type();
        const uint32_t unit = b.add(spv::OpIAdd, u, {bound.first, b.add(spv::OpIMul, u, {index, state_.uint_constant(access_->span())})});
        return load_whole_component(state_, b, *whole_view_, unit, matrix_->component.width / access_->span(), matrix_->component);
    }

    // For reads_without_branches(): a layout with an empty dimension gives the clamp value everywhere;
    // the rest is generated inside an if on the opposite, whose condition this returns.
    uint32_t begin_nonempty_layout(ir::FunctionBuilder& function, uint32_t layout, uint32_t components, uint32_t clamp_value) {
        const uint32_t u = state_.uint_type(), boolean = state_.types().get_type_bool();
        uint32_t nonempty = 0;
        for (uint32_t d = 0; d < layout_->dimensions; ++d) {
            ir::Builder& b = function.body();
            const uint32_t extent = b.add(spv::OpCompositeExtract, u, {layout, layout_->layout_dimension(d)});
            const uint32_t some = b.add(spv::OpINotEqual, boolean, {extent, state_.uint_constant(0)});
            nonempty = nonempty ? b.add(spv::OpLogicalAnd, boolean, {nonempty, some}) : some;
        }
        function.begin_if(function.body().add(spv::OpLogicalNot, boolean, {nonempty}));
        const std::vector<uint32_t> clamped(matrix_->length, clamp_value);
        function.body().add(spv::OpStore, 0, {components, function.body().add(spv::OpCompositeConstruct, matrix_->lowered, clamped)});
        function.end_if();
        function.begin_if(nonempty);
        return nonempty;
    }

    // The group of V elements last decoded: its block, coordinates and values. Its innermost
    // coordinate starts at 1, which no group has (theirs are multiples of V), so the first element
    // misses; the rest start defined too, since the first comparison reads them.
    void start_groups(ir::FunctionBuilder& function, uint32_t coordinates) {
        group_index_ = variable(function, state_.uint_type());
        group_blocks_ = variable(function, coordinates);
        group_within_ = variable(function, coordinates);
        group_values_ = variable(function, decode_vector_->result_type());
        std::vector<uint32_t> impossible(layout_->dimensions, state_.uint_constant(0));
        ir::Builder& b = function.body();
        b.add(spv::OpStore, 0, {group_index_, state_.uint_constant(0)});
        b.add(spv::OpStore, 0, {group_blocks_, state_.types().get_constant_composite(coordinates, impossible)});
        impossible.back() = state_.uint_constant(1);
        b.add(spv::OpStore, 0, {group_within_, state_.types().get_constant_composite(coordinates, impossible)});
        b.add(spv::OpStore, 0, {group_values_, state_.types().get_constant_null(decode_vector_->result_type())});
    }

    // The component for the element at block `index` (block_coordinates_ and coordinates_in_block_
    // as the addressing left them): taken from the group last decoded when the element is in it, else
    // from a new DecodeVectorFunc call for its group (the spec's: the same block, the same
    // coordinates but the innermost, which is rounded down to a multiple of V).
    uint32_t decode_in_group(ir::FunctionBuilder& function, const ElementAccess::Bound& bound, uint32_t index) {
        ir::Builder& b = function.body();
        const uint32_t u = state_.uint_type(), boolean = state_.types().get_type_bool();
        const uint32_t coordinates = state_.types().get_type_array(u, state_.uint_constant(layout_->dimensions));
        const uint32_t innermost_dimension = layout_->dimensions - 1, v = decode_vector_->components();
        const uint32_t blocks = b.add(spv::OpLoad, coordinates, {block_coordinates_});
        uint32_t within = b.add(spv::OpLoad, coordinates, {coordinates_in_block_});
        const uint32_t innermost = b.add(spv::OpCompositeExtract, u, {within, innermost_dimension});
        const uint32_t first = b.add(spv::OpBitwiseAnd, u, {innermost, state_.uint_constant(~(v - 1))});
        within = b.add(spv::OpCompositeInsert, coordinates, {first, within, innermost_dimension});
        uint32_t same = b.add(spv::OpIEqual, boolean, {index, b.add(spv::OpLoad, u, {group_index_})});
        const uint32_t pairs[2][2] = {{blocks, b.add(spv::OpLoad, coordinates, {group_blocks_})},
                                      {within, b.add(spv::OpLoad, coordinates, {group_within_})}};
        for (const auto& [ours, group] : pairs) {
            for (uint32_t d = 0; d < layout_->dimensions; ++d) {
                const uint32_t equal = b.add(spv::OpIEqual, boolean, {b.add(spv::OpCompositeExtract, u, {ours, d}),
                                                                      b.add(spv::OpCompositeExtract, u, {group, d})});
                same = b.add(spv::OpLogicalAnd, boolean, {same, equal});
            }
        }
        function.begin_if(b.add(spv::OpLogicalNot, boolean, {same}));
        ir::Builder& miss = function.body();
        miss.add(spv::OpStore, 0, {coordinates_in_block_, within});
        const uint32_t values = decode_vector_->call(miss, *access_, bound, index, block_coordinates_, coordinates_in_block_);
        miss.add(spv::OpStore, 0, {group_values_, values});
        miss.add(spv::OpStore, 0, {group_index_, index});
        miss.add(spv::OpStore, 0, {group_blocks_, blocks});
        miss.add(spv::OpStore, 0, {group_within_, within});
        function.end_if();
        ir::Builder& hit = function.body();
        const uint32_t group = hit.add(spv::OpLoad, decode_vector_->result_type(), {group_values_});
        return hit.add(spv::OpVectorExtractDynamic, matrix_->component.type,
                       {group, hit.add(spv::OpBitwiseAnd, u, {innermost, state_.uint_constant(v - 1)})});
    }

    uint32_t is(ir::Builder& b, uint32_t status, uint32_t value) {
        return b.add(spv::OpIEqual, state_.types().get_type_bool(), {status, state_.uint_constant(value)});
    }

    LoweringState& state_;
    ir::Module& module_;
    const ir::Instruction& instruction_;
    const bool is_store_;
    bool direct_ = false;  // every element on the addressing helper's direct path
    const MatrixType* matrix_ = nullptr;
    const TensorLayoutType* layout_ = nullptr;
    const TensorViewType* view_ = nullptr;
    uint32_t view_value_ = 0;
    std::span<const uint32_t> memory_operands_;
    std::optional<ElementAccess> access_;
    std::optional<WordView> whole_view_;  // a load's components read whole (word_view.h)
    uint32_t decode_function_ = 0;
    std::optional<DecodeCall> decode_;
    uint32_t decode_vector_function_ = 0;
    std::optional<DecodeCall> decode_vector_;  // when the lowering calls it
    // While generating: the helper, its out variables, the per-element memory operands.
    uint32_t addressing_ = 0;
    uint32_t element_ = 0, block_coordinates_ = 0, coordinates_in_block_ = 0;
    uint32_t group_index_ = 0, group_blocks_ = 0, group_within_ = 0, group_values_ = 0;  // DecodeVectorFunc's last group
    std::vector<uint32_t> memory_;
};

}  // namespace

bool lower_tensor_memory_access(LoweringState& state, ir::BasicBlock& block, size_t index) {
    std::unique_ptr<ir::Instruction> instruction = std::move(block.instructions[index]);
    block.instructions.erase(block.instructions.begin() + static_cast<ptrdiff_t>(index));
    ir::Builder builder(state.module(), block, index);
    const bool ok = TensorAccessFunction(state, *instruction).lower(builder);
    if (!ok) block.instructions.insert(block.instructions.begin() + static_cast<ptrdiff_t>(builder.position()), std::move(instruction));
    return ok;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
