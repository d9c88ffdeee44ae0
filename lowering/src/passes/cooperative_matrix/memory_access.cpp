#include "passes/cooperative_matrix/memory_access.h"

#include <format>
#include <map>
#include <optional>
#include <utility>
#include <vector>
#include <spirv/unified1/spirv.hpp>

#include "ir/function_builder.h"
#include "ir/instruction_text.h"
#include "passes/cooperative_matrix/element_access.h"
#include "passes/cooperative_matrix/element_loop.h"
#include "passes/cooperative_matrix/placement.h"
#include "passes/cooperative_matrix/word_view.h"
#include "specialization.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

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

        std::string why;
        access_ = ElementAccess::describe(state_, pointer, matrix_->component, is_store_, why);
        if (!access_) return fail(why);
        if (!is_integer_scalar(module_, stride_)) return fail("its Stride is not a scalar integer");

        // Per-invocation narrow loads on a SIMD-lane driver: read whole words instead (word_view.h).
        const AccessPath& path = access_->path();
        if (!is_store_ && matrix_->use != Use::A && state_.context.target.simd_lane_invocations &&
            access_->is_narrow_scalar_array() && access_->span() == 1 && path.base_is_global) {
            view_ = word_view(state_, path.base, path.indices, access_->pointee_type());
        }

        std::vector<uint32_t> arguments = access_->arguments();
        arguments.push_back(stride_);
        if (is_store_) arguments.push_back(matrix_value);
        const uint32_t function = get_function(arguments);
        if (!function) return false;
        add_access_call(state_, builder, function, arguments, instruction_, *matrix_);
        return true;
    }

  private:
    bool fail(const std::string& why) {
        state_.context.diagnostics.error(
            std::format("{} cannot be lowered: {}", is_store_ ? "OpCooperativeMatrixStoreKHR" : "OpCooperativeMatrixLoadKHR", why),
            instruction_.source_offset(), ir::instruction_text(instruction_.words(), module_));
        return false;
    }

    // Every word that decides the generated code; equal keys share one function.
    std::vector<uint32_t> key() const {
        std::vector<uint32_t> key{is_store_ ? 1u : 0u, matrix_->id, column_major_ ? 1u : 0u, module_.type_of(stride_)};
        access_->append_key(key);
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
        generate(function);
        state_.remember_function(std::move(function_key), function.id());
        return function.id();
    }

    // The address of element `e`'s array element (of its piece `piece`, when a component spans
    // several array scalars). Elements that share one (the components of a vector, the same row of
    // a replicated A) share the instructions: computed once, loaded once.
    ElementAccess::Address element_address(ir::Builder& b, const Iteration& e, const Placement& place, const ElementAccess::Bound& bound,
                                           uint32_t stride, uint32_t piece = 0) {
        const uint32_t row = place.row(b, e);
        const uint32_t column = place.column(b, e);
        // The index along a row (RowMajor) or column (ColumnMajor) and the one across them, in
        // addressing units (components, or their pieces).
        const uint32_t major = column_major_ ? column : row;
        const uint32_t u = state_.uint_type();
        const uint32_t span = access_->span();
        std::optional<uint32_t> minor_value =
            !e.fixed ? std::nullopt : column_major_ ? place.fixed_row(*e.fixed) : place.fixed_column(*e.fixed);
        uint32_t minor = column_major_ ? row : column;
        if (span > 1) {
            minor_value = minor_value ? std::optional<uint32_t>(*minor_value * span + piece) : std::nullopt;
            minor = minor_value ? state_.uint_constant(*minor_value)
                                : b.add(spv::OpIAdd, u, {b.add(spv::OpIMul, u, {minor, state_.uint_constant(span)}), state_.uint_constant(piece)});
        }
        const uint32_t ratio = access_->ratio();
        uint32_t element = minor;
        std::optional<uint32_t> sub;
        uint32_t sub_id = 0;
        if (ratio > 1) {
            const uint32_t ratio_id = state_.uint_constant(ratio);
            element = minor_value ? state_.uint_constant(*minor_value / ratio) : b.add(spv::OpUDiv, u, {minor, ratio_id});
            if (minor_value) sub = *minor_value % ratio;
            sub_id = minor_value ? state_.uint_constant(*minor_value % ratio) : b.add(spv::OpUMod, u, {minor, ratio_id});
        }
        auto [known, added] = addresses_.try_emplace({major, element});
        if (added) {
            auto& line = lines_[major];  // first + major * stride: one per row (or column)
            if (line == 0) line = b.add(spv::OpIAdd, u, {bound.first, b.add(spv::OpIMul, u, {major, stride})});
            known->second = access_->array_element(b, bound, b.add(spv::OpIAdd, u, {line, element}));
        }
        ElementAccess::Address result = known->second;
        result.sub = sub;
        result.sub_id = sub_id;
        return result;
    }

    void generate(ir::FunctionBuilder& function) {
        ir::Builder& b = function.body();
        size_t parameter = 0;
        const ElementAccess::Bound bound = access_->bind(function, parameter);
        const uint32_t stride = as_uint(state_, b, function.parameter(parameter++));
        const uint32_t value = is_store_ ? function.parameter(parameter) : 0;
        const Placement place(state_, b, *matrix_);
        const std::vector<uint32_t> memory =
            element_memory_operands(memory_operands_, access_->path().storage_class, access_->pointee_bytes());

        if (!is_store_ && !view_) {
            function.finish(load_matrix(function, place, bound, stride, memory, Read::Elements));
            return;
        }
        if (!is_store_) {
            // Whole words may reach past the end of a buffer whose size is not a multiple of four,
            // where robust access reads zeros: use them only when the matrix's last word is inside.
            // Where an invocation's elements come in runs that fill whole words (row-major, the
            // lane layout's runs of neighbouring columns), one load serves a word's elements when
            // every row starts a word.
            const uint32_t u = state_.uint_type();
            const uint32_t bool_type = state_.types().get_type_bool();
            const uint32_t per_word = state_.uint_constant(32 / matrix_->component.width);
            const uint32_t majors = column_major_ ? matrix_->columns : matrix_->rows;
            const uint32_t minors = column_major_ ? matrix_->rows : matrix_->columns;
            const uint32_t start = b.add(spv::OpIAdd, u, {bound.first, state_.uint_constant(view_->first_element)});
            const uint32_t last = b.add(spv::OpIAdd, u, {b.add(spv::OpIAdd, u, {start, state_.uint_constant(minors - 1)}),
                                                         b.add(spv::OpIMul, u, {state_.uint_constant(majors - 1), stride})});
            const uint32_t last_word = b.add(spv::OpUDiv, u, {last, per_word});
            const uint32_t words = b.add(spv::OpArrayLength, u, {view_->variable, 0});
            const uint32_t fits = b.add(spv::OpULessThan, bool_type, {last_word, words});
            const auto both = [&](uint32_t x, uint32_t y) { return b.add(spv::OpLogicalAnd, bool_type, {x, y}); };
            const auto is_not = [&](uint32_t x) { return b.add(spv::OpLogicalNot, bool_type, {x}); };
            std::vector<std::pair<uint32_t, Read>> reads;
            if (reads_whole_words()) {
                const uint32_t starts = b.add(spv::OpBitwiseOr, u, {start, stride});
                const uint32_t aligned = b.add(spv::OpIEqual, bool_type, {b.add(spv::OpUMod, u, {starts, per_word}), state_.uint_constant(0)});
                reads = {{both(fits, aligned), Read::WholeWords}, {both(fits, is_not(aligned)), Read::Words}};
            } else {
                reads = {{fits, Read::Words}};
            }
            reads.emplace_back(is_not(fits), Read::Elements);
            const uint32_t result = function.add_variable(state_.types().get_type_pointer(spv::StorageClassFunction, matrix_->lowered));
            for (const auto& [condition, read] : reads) {
                function.begin_if(condition);
                const uint32_t matrix = load_matrix(function, place, bound, stride, memory, read);
                function.body().add(spv::OpStore, 0, {result, matrix});
                function.end_if();
            }
            function.finish(function.body().add(spv::OpLoad, matrix_->lowered, {result}));
            return;
        }
        // Copies of the same element (all of A, B across row groups) are written by one of them.
        Components components(state_, function, matrix_->lowered, matrix_->component.type, matrix_->length, value);
        const uint32_t writer = place.sole_writer(b);
        if (writer) function.begin_if(writer);
        repeat(state_, function, matrix_->length, [&](const Iteration& e) {
            const uint32_t component = components.get(e);
            const std::vector<uint32_t> pieces = access_->span() == 1 ? std::vector<uint32_t>{component} : access_->split(b, component);
            for (uint32_t piece = 0; piece < pieces.size(); ++piece) {
                access_->store(b, bound, element_address(b, e, place, bound, stride, piece), pieces[piece], memory);
            }
        });
        if (writer) function.end_if();
        function.finish(0);
    }

    // How load_matrix reads: each element through the shader's own access chain, each through its
    // word in view_, or each word once for the run of elements it holds (WholeWords: only where
    // reads_whole_words(), and only when each run starts a word).
    enum class Read { Elements, Words, WholeWords };

    // Whether the elements an invocation holds come in runs of neighbours that can fill words: a
    // row-major subgroup B or accumulator of narrow components whose lane layout gives each column
    // lane a multiple of a word's components, its elements written out one by one.
    bool reads_whole_words() const {
        const uint32_t per_word = 32 / matrix_->component.width;
        return per_word > 1 && !column_major_ && !matrix_->striped() && matrix_->layout.columns_per_lane % per_word == 0 &&
               unrolls(state_, matrix_->length);
    }

    // Every element this invocation holds (unrolled in one block, or in a loop), read as `read` says.
    uint32_t load_matrix(ir::FunctionBuilder& function, const Placement& place, const ElementAccess::Bound& bound, uint32_t stride,
                         std::span<const uint32_t> memory, Read read) {
        addresses_.clear();  // what another block computed is not available here
        lines_.clear();
        access_->forget_loads();
        ir::Builder& b = function.body();
        const uint32_t per_word = 32 / matrix_->component.width;
        Components components(state_, function, matrix_->lowered, matrix_->component.type, matrix_->length);
        repeat(state_, function, matrix_->length, [&](const Iteration& e) {
            if (read == Read::WholeWords && *e.fixed % per_word != 0) return;  // read with the run's first
            const ElementAccess::Address address = element_address(b, e, place, bound, stride);
            const uint32_t index = address.chain.back();
            if (read == Read::WholeWords) {
                const std::vector<uint32_t> run = load_word_through_view(state_, b, *view_, index, matrix_->component);
                for (uint32_t i = 0; i < per_word; ++i) components.set(Iteration{state_.uint_constant(*e.fixed + i), *e.fixed + i}, run[i]);
                return;
            }
            if (read == Read::Words) {
                components.set(e, load_through_word_view(state_, b, *view_, index, matrix_->component));
                return;
            }
            std::vector<uint32_t> pieces{access_->load(b, bound, address, memory)};
            for (uint32_t piece = 1; piece < access_->span(); ++piece) {
                pieces.push_back(access_->load(b, bound, element_address(b, e, place, bound, stride, piece), memory));
            }
            components.set(e, pieces.size() == 1 ? pieces[0] : access_->assemble(b, pieces));
        });
        return components.value();
    }

    LoweringState& state_;
    ir::Module& module_;
    const ir::Instruction& instruction_;
    bool is_store_;
    const MatrixType* matrix_ = nullptr;
    bool column_major_ = false;
    uint32_t stride_ = 0;
    std::span<const uint32_t> memory_operands_;
    std::optional<ElementAccess> access_;
    std::optional<WordView> view_;
    // Per generated function: shared address computations.
    std::map<std::pair<uint32_t, uint32_t>, ElementAccess::Address> addresses_;
    std::map<uint32_t, uint32_t> lines_;
};

}  // namespace

void add_access_call(LoweringState& state, ir::Builder& builder, uint32_t function, std::span<const uint32_t> arguments,
                     const ir::Instruction& replaced, const MatrixType& matrix) {
    std::vector<uint32_t> call{function};
    call.insert(call.end(), arguments.begin(), arguments.end());
    if (replaced.result_id() == 0) {  // a store
        builder.add(spv::OpFunctionCall, state.types().get_type_void(), call);
    } else {
        // The matrix type stays until the pass replaces every matrix type at the end.
        builder.add(spv::OpFunctionCall, matrix.id, call, replaced.result_id());
    }
}

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
