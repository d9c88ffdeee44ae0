#include "passes/cooperative_matrix/multiply_add.h"

#include <algorithm>
#include <format>
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

#include "helpers/link_helper.h"
#include "ir/builtin_variable.h"
#include "ir/function_builder.h"
#include "ir/instruction_text.h"
#include "passes/cooperative_matrix/element_loop.h"
#include "passes/cooperative_matrix/matrix_units.h"
#include "passes/cooperative_matrix/placement.h"
#include "passes/cooperative_matrix/relayout.h"
#include "passes/cooperative_matrix/scratch.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

// Banded workgroup multiply-adds between the barriers that keep a CPU driver's subgroups in step
// (in_step below). Measured on lavapipe 26, gemm_coopmat2.comp 512x64x16 with 128 invocations (a
// multiply-add per K step of 16), CPU ms relative to no barrier, with a barrier() in the shader,
// medians over 4-7 processes taking turns, load 5-8, 2026-11-23: every step 0.86 at 2048^3 but 1.06
// at 1024^3; every 2nd 0.87 / 0.99; every 4th 0.85 / 1.02. This lowering, against itself without the
// barrier in one process: 0.84-0.88 at 2048^3, 0.92-1.01 at 1024^3 (tests/bench/README.md, "Subgroups
// in step").
constexpr uint32_t kStepsBetweenBarriers = 4;

// The most products one call of the float kernel writes out (the driver unrolls its loops) where
// invocations are SIMD lanes of a CPU thread; a multiply-add with more calls the kernel in a loop over
// chunks of K that the driver keeps (k_steps below). The attention benchmark with head dimension 64
// and blocks of 256 keys (two multiply-adds of 32768 products an invocation) took lavapipe 26 7-11
// minutes to compile with all of K unrolled, and 29 s of CPU in chunks; blocks of 128 37 -> 13 s (on
// lavapipe 25 60 -> 13 s). Its per-element code was not the cause (all of it looped: 31 s). The GEMM
// kernels' multiply-adds (4096 products at most) and the default attention's (1024) stay one call.
constexpr uint32_t kUnrolledProducts = 4096;

// The constant every component of `value` holds, where it is a composite constant of one constituent
// repeated (a matrix filled with it); 0 otherwise.
uint32_t filling_constant(const ir::Module& module, uint32_t value) {
    const ir::Instruction* definition = module.find_definition(value);
    if (!definition || (definition->opcode() != spv::OpConstantComposite && definition->opcode() != spv::OpSpecConstantComposite)) return 0;
    const auto constituents = definition->operand_words();
    if (constituents.empty() || !std::ranges::all_of(constituents, [&](uint32_t c) { return c == constituents[0]; })) return 0;
    return constituents[0];
}

// How a workgroup multiply-add that runs neither on the driver's units nor on the accumulator's bands
// multiplies its staged operands: streamed K step by K step (the GPU layout, and any target where the
// bands of all of K are longer than it writes out: llama.cpp's f16 GEMM, 128x256x64, chunks of 16;
// ggml's test-backend-ops perf, GFLOP/s over several runs: lavapipe 26 5.9-7.2 streamed, 6.48 on the
// chunks' bands; lavapipe 25 2.7-3.3 and 1.88, tests/bench/README.md), else by the kernel on the staged
// chunks' bands. Integers keep the kernel, which adds C (saturating or not) after the whole sum.
bool on_bands(const MultiplyAddOperands& o) { return o.a.spread == o.c.spread && o.b.spread == o.c.spread; }
bool streams_staged(const PassContext& context, const MultiplyAddOperands& o) {
    return o.result.component.is_float && (distributes_matrices(context) || !bands_written_out(context, o.c.spread, o.a.columns));
}

class MultiplyAdd {
  public:
    MultiplyAdd(LoweringState& state, Scratch& scratch, const ir::Instruction& instruction)
        : state_(state), scratch_(scratch), module_(state.module()), instruction_(instruction) {}

    // Returns the generated function's id, 0 after reporting why there is none.
    uint32_t function() {
        const auto operands = instruction_.operand_words();
        a_ = state_.matrices.of_value(module_, operands[0]);
        b_ = state_.matrices.of_value(module_, operands[1]);
        c_ = state_.matrices.of_value(module_, operands[2]);
        r_ = state_.matrices.find(instruction_.type_id());
        mask_ = operands.size() > 3 ? operands[3] : 0;
        if (!a_ || !b_ || !c_ || !r_) return fail("an operand is not a lowered cooperative matrix");
        if (a_->use != Use::A || b_->use != Use::B || c_->use != Use::Accumulator || r_->use != Use::Accumulator) {
            return fail("the operands' uses must be MatrixA, MatrixB, MatrixAccumulator and the result's MatrixAccumulator");
        }
        if (a_->rows != r_->rows || a_->columns != b_->rows || b_->columns != r_->columns || c_->rows != r_->rows ||
            c_->columns != r_->columns) {
            return fail(std::format("the shapes do not form an MxNxK multiply-add (A {}x{}, B {}x{}, C {}x{}, result {}x{})",
                                    a_->rows, a_->columns, b_->rows, b_->columns, c_->rows, c_->columns, r_->rows,
                                    r_->columns));
        }
        is_float_ = r_->component.is_float;
        for (const MatrixType* m : {a_, b_, c_, r_}) {
            if (m->component.is_float != is_float_) return fail("mixing integer and floating-point matrices is not supported");
            if (m->component.width > 32) return fail("components wider than 32 bits are not supported");
        }
        if (!is_float_ && saturating() && r_->component.width != 32) {
            return fail("saturating accumulation is supported for 32-bit results only");
        }

        if (a_->workgroup != c_->workgroup || b_->workgroup != c_->workgroup || r_->workgroup != c_->workgroup) {
            return fail("the operands' scopes differ");
        }
        return c_->workgroup ? workgroup_function() : subgroup_function(*a_, *b_);
    }

  private:
    // The per-subgroup multiply-add of `a` x `b` + C in the subgroup layouts (C's layout is the
    // subgroup's band at workgroup scope).
    uint32_t subgroup_function(const MatrixType& a, const MatrixType& b) {
        ka_ = &a;
        kb_ = &b;
        std::vector<uint32_t> key{0x4D4D4144u /* "MMAD" */, a.lowered, a.component.type, a.rows, a.columns, b.lowered,
                                  b.component.type, b.rows, b.columns, c_->id, r_->id, mask_};
        if (const uint32_t existing = state_.find_function(key)) return existing;
        const bool staged = stages_distributed_a();
        const uint32_t kernel = staged ? 0 : link_kernel();
        if (!staged && !kernel) return 0;
        const uint32_t parameters[] = {a.lowered, b.lowered, c_->lowered};
        ir::FunctionBuilder function(module_, state_.types(), r_->lowered, parameters);
        if (staged) {
            generate_with_staged_a(function);
        } else {
            generate(function, kernel);
        }
        state_.remember_function(std::move(key), function.id());
        return function.id();
    }

    // A (band_rows x K) and B (K x band_columns) as a subgroup holds them for its band. B takes the
    // accumulator's column lanes, which may be fewer than B's own layout would have (square blocks:
    // lane_layout.h).
    std::optional<MatrixType> band_operand(const MatrixType& whole, uint32_t rows, uint32_t columns, Use use) {
        const LaneLayout& c = c_->layout;
        const std::optional<LaneLayout> layout =
            use == Use::B ? LaneLayout{rows * c.columns_per_lane, c.column_lanes, 1, c.columns_per_lane, rows}
                          : lane_layout(rows, columns, use, state_.context.target.subgroup_size, distributes_matrices(state_.context));
        if (!layout) return std::nullopt;
        const uint32_t lowered = state_.types().get_type_array(whole.component.type, state_.uint_constant(layout->length));
        return MatrixType{0, whole.component, rows, columns, use, false, *layout, {}, layout->length, lowered};
    }

    // The subgroup multiply-add on the band of the accumulator this subgroup holds, with the rows
    // of A and columns of B it needs: A and B already hold them when they take the accumulator's
    // bands (matrix_types.h); otherwise they are staged through the workgroup's shared memory.
    uint32_t workgroup_function() {
        const MultiplyAddOperands operands{*a_, *b_, *c_, *r_, mask_};
        if (const auto unit = matrix_unit_for(state_, operands)) return multiply_add_on_units(state_, scratch_, operands, *unit);
        const WorkgroupLayout& spread = c_->spread;
        const uint32_t m = a_->rows, k = a_->columns, n = b_->columns;
        if (on_bands(operands)) {
            band_a_ = band_operand(*a_, spread.band_rows, k, Use::A);
            band_b_ = band_operand(*b_, k, spread.band_columns, Use::B);
            if (!band_a_ || !band_b_) return fail("a band's operands cannot be spread over the subgroup");
            const uint32_t inner = subgroup_function(*band_a_, *band_b_);
            const bool shared = spread.invocations > state_.context.target.subgroup_size;
            return inner && shared && state_.context.target.simd_lane_invocations ? in_step(inner) : inner;
        }
        std::vector<uint32_t> key{0x574D4D41u /* "WMMA" */, a_->id, b_->id, c_->id, r_->id, mask_};
        if (const uint32_t existing = state_.find_function(key)) return existing;
        // K in chunks of kc, each staged and multiplied in turn, when the whole would take more
        // shared memory than the chunk budget.
        const uint32_t kc = staged_k_chunk(m, k, n);
        // Streamed even where the bands of a chunk of K would be written out (streams_staged).
        const bool streamed = streams_staged(state_.context, operands);
        b_filling_ = streamed ? filling_constant(module_, instruction_.operand_words()[1]) : 0;
        key.push_back(b_filling_);
        if (!streamed) {
            band_a_ = band_operand(*a_, spread.band_rows, kc, Use::A);
            band_b_ = band_operand(*b_, kc, spread.band_columns, Use::B);
            if (!band_a_ || !band_b_) return fail("a band's operands cannot be spread over the subgroup");
        }
        const uint32_t inner = streamed ? 0 : subgroup_function(*band_a_, *band_b_);
        if (!streamed && !inner) return 0;

        b_words_ = streamed && !b_filling_ && stages_b_in_words(n);
        // A at the start of its component type's area, B after it when they share the type (and B is
        // staged at all, as components).
        const bool shared_type = a_->component.type == b_->component.type && !b_filling_ && !b_words_;
        const uint32_t b_offset = shared_type ? m * kc : 0;
        const uint32_t a_area = shared_type ? m * kc + kc * n : m * kc;
        const uint32_t b_area = shared_type ? a_area : kc * n;
        const uint32_t parameters[] = {a_->lowered, b_->lowered, c_->lowered};
        ir::FunctionBuilder function(module_, state_.types(), r_->lowered, parameters);
        const uint32_t u = state_.uint_type();
        uint32_t accumulator = function.parameter(2);
        std::optional<ScratchWindow> a_window, b_window;
        uint32_t running = 0;  // the sum so far, across chunks
        if (kc != k) {
            running = function.add_variable(state_.types().get_type_pointer(spv::StorageClassFunction, c_->lowered));
            function.body().add(spv::OpStore, 0, {running, accumulator});
            const uint32_t chunk = function.begin_loop(state_.uint_constant(k / kc));
            const uint32_t first = function.body().add(spv::OpIMul, u, {chunk, state_.uint_constant(kc)});
            a_window = ScratchWindow{false, first, kc};
            b_window = ScratchWindow{true, first, kc};
            accumulator = function.body().add(spv::OpLoad, c_->lowered, {running});
        }
        scratch_.barrier(function.body(), true);  // the previous stage's reads are done
        store_to_scratch(state_, scratch_, function, *a_, function.parameter(0), 0, kc, false, a_area, a_window);
        if (!b_filling_) {
            store_to_scratch(state_, scratch_, function, *b_, function.parameter(1), b_offset, n, false, b_area, b_window,
                             b_words_ ? u : 0);
        }
        ir::Builder& b = function.body();
        scratch_.barrier(b, true);
        uint32_t result = 0;
        if (streamed) {
            result = stream(function, accumulator, kc, a_area, b_offset, n, b_area);
        } else {
            result = multiply_bands(function, inner, accumulator, kc, a_area, b_offset, n, b_area);
        }
        if (running) {
            b.add(spv::OpStore, 0, {running, result});
            function.end_loop();
            result = function.body().add(spv::OpLoad, c_->lowered, {running});
        }
        function.finish(result);
        state_.remember_function(std::move(key), function.id());
        return function.id();
    }

    // Where invocations are SIMD lanes (lavapipe), a load whose address differs per lane is a
    // gather, emulated lane by lane for 16-bit data, and the streamed multiply-add reads an
    // invocation's B values of a K step (its accumulator columns, neighbours) with one load each. B's
    // 16-bit floats are staged two to a uint instead (B's runs of 2, matrix_types.h), read a word
    // at a time: half the gathers. The columns an invocation holds must pair up from an even one.
    bool stages_b_in_words(uint32_t n) const {
        return state_.context.target.simd_lane_invocations && !distributes_matrices(state_.context) &&
               state_.types().float_format(b_->component.type) == ir::kFloat16 && b_->spread.run % 2 == 0 && n % 2 == 0 &&
               c_->layout.columns_per_lane % 2 == 0;
    }

    // The band multiply-add on the staged operands: this subgroup's band of A (rows of the
    // accumulator's band, kc columns) and of B read into the subgroup layouts, then the kernel.
    uint32_t multiply_bands(ir::FunctionBuilder& function, uint32_t inner, uint32_t accumulator, uint32_t kc, uint32_t a_area,
                            uint32_t b_offset, uint32_t n, uint32_t b_area) {
        ir::Builder& b = function.body();
        const uint32_t u = state_.uint_type();
        const Placement band(state_, b, *c_);
        const auto read = [&](const MatrixType& operand, uint32_t row, uint32_t column, uint32_t offset, uint32_t pitch,
                              uint32_t area) {
            const uint32_t line = b.add(spv::OpIAdd, u, {state_.uint_constant(offset), b.add(spv::OpIMul, u, {row, state_.uint_constant(pitch)})});
            return b.add(spv::OpLoad, operand.component.type,
                         {scratch_.element_pointer(b, operand.component.type, b.add(spv::OpIAdd, u, {line, column}), area, true)});
        };
        std::vector<uint32_t> a_components, b_components;
        const Placement in_a(state_, b, *band_a_);
        for (uint32_t e = 0; e < band_a_->length; ++e) {
            a_components.push_back(read(*a_, b.add(spv::OpIAdd, u, {band.band_row(), in_a.row(b, e)}), in_a.column(b, e), 0, kc, a_area));
        }
        const Placement in_b(state_, b, *band_b_);
        for (uint32_t e = 0; e < band_b_->length; ++e) {
            b_components.push_back(read(*b_, in_b.row(b, e), b.add(spv::OpIAdd, u, {band.band_column(), in_b.column(b, e)}), b_offset, n, b_area));
        }
        const uint32_t band_a = b.add(spv::OpCompositeConstruct, band_a_->lowered, a_components);
        const uint32_t band_b = b.add(spv::OpCompositeConstruct, band_b_->lowered, b_components);
        return b.add(spv::OpFunctionCall, r_->lowered, {inner, band_a, band_b, accumulator});
    }

    // The GPU layout's multiply-add on the staged operands (Target::distributed_matrices; elsewhere
    // where the bands are longer than the target writes out, bands_written_out): one K
    // step at a time, each invocation reads from shared memory the A values of its accumulator rows
    // and the B values of its columns and adds their products into its accumulators, as a tiled GEMM
    // does. An invocation then holds its accumulators and one column of A and row of B at a time,
    // never the band of A and B the kernel takes: llama.cpp's coopmat2 GEMM (64x64x64, 128
    // invocations) needs 64 + 128 components an invocation for those bands on a 32-wide GPU.
    // Products are summed in K order with fused multiply-adds, as the kernel sums them. Where B is a
    // matrix filled with one constant (llama.cpp's flash attention sums P's rows by a multiply-add with
    // a B of ones, every step), B is not staged: each invocation sums the A values of its rows and
    // adds the sum times the constant to its accumulators at the end, a fused multiply-add each.
    uint32_t stream(ir::FunctionBuilder& function, uint32_t accumulator, uint32_t kc, uint32_t a_area, uint32_t b_offset,
                    uint32_t n, uint32_t b_area) {
        ir::Builder& b = function.body();
        const uint32_t u = state_.uint_type(), wide = wide_type();
        const LaneLayout& layout = c_->layout;
        const Placement held(state_, b, *c_);
        // Of the accumulators held: element i * NL + t is (rows[i], columns[t]), each an id the same
        // for all plus a constant, which the loads' addresses add last (their offsets, on a GPU).
        std::vector<Placement::Split> rows, columns;
        for (uint32_t i = 0; i < layout.rows_per_lane; ++i) rows.push_back(held.row_split(b, i * layout.columns_per_lane));
        for (uint32_t t = 0; t < layout.columns_per_lane; ++t) columns.push_back(held.column_split(b, t));
        const uint32_t wide_array = state_.types().get_type_array(wide, state_.uint_constant(c_->length));
        const uint32_t sums = function.add_variable(state_.types().get_type_pointer(spv::StorageClassFunction, wide_array));
        b.add(spv::OpStore, 0, {sums, widened(function, accumulator, *c_, false)});
        const uint32_t wide_pointer = state_.types().get_type_pointer(spv::StorageClassFunction, wide);
        const uint32_t fma_set = module_.get_ext_inst_import("GLSL.std.450");
        const uint32_t row_sums_type = state_.types().get_type_array(wide, state_.uint_constant(static_cast<uint32_t>(rows.size())));
        const uint32_t row_sums = b_filling_ ? function.add_variable(state_.types().get_type_pointer(spv::StorageClassFunction, row_sums_type)) : 0;
        if (row_sums) b.add(spv::OpStore, 0, {row_sums, state_.types().get_constant_null(row_sums_type)});
        const auto staged = [&](const MatrixType& operand, uint32_t index, uint32_t area, bool is_signed) {
            const uint32_t value =
                b.add(spv::OpLoad, operand.component.type, {scratch_.element_pointer(b, operand.component.type, index, area, true)});
            return widen(b, value, operand, is_signed);
        };
        // Two K steps an iteration in the GPU layout: an A row's two values are neighbours in shared
        // memory, which the compilers read at once (one 32-bit read for two 16-bit values). Not where
        // the accumulators alone crowd the registers: with 256 an invocation (the project's workgroup
        // GEMM, 512x64 over 128 invocations) the second step's values spilled more on every GPU
        // (docs/real_gpus.md, "Square register blocks"); llama.cpp's kernels hold 32 and 64.
        constexpr uint32_t kMostAccumulatorsForTwoSteps = 64;
        // Where every lane of a subgroup holds the same accumulator rows, a row's A value at a K step is
        // one address for the whole subgroup. A driver whose invocations are SIMD lanes and that loads
        // such a value per lane (lavapipe 25: for 16-bit data a gather emulated lane by lane) has each
        // lane read its own K step of the row instead, one read for as many steps as the subgroup has
        // lanes, each step taking its value from its lane by a broadcast (a vector element there).
        // llama.cpp's f16 GEMM (ggml's test-backend-ops perf, GFLOP/s) on lavapipe 25: 5.73 -> 7.56; on
        // lavapipe 26, whose uniform loads read the value once: 7.65 -> 6.17, so not there.
        const Target& target = state_.context.target;
        const uint32_t lanes = target.subgroup_size;
        const bool a_broadcast = target.simd_lane_invocations && !target.scalar_uniform_loads && target.subgroup_shuffles &&
                                 module_.header.version >= 0x00010300 && layout.row_groups == 1 && lanes > 1 && kc % lanes == 0;
        const uint32_t lane = a_broadcast ? state_.load_lane(b) : 0;
        if (a_broadcast) {
            module_.add_capability(spv::CapabilityGroupNonUniform);
            module_.add_capability(spv::CapabilityGroupNonUniformBallot);
        }
        uint32_t unrolled = 1;
        if (a_broadcast) {
            unrolled = lanes;
        } else if (distributes_matrices(state_.context) && kc % 2 == 0 && c_->length <= kMostAccumulatorsForTwoSteps) {
            unrolled = 2;
        }
        const uint32_t iteration = function.begin_loop(state_.uint_constant(kc / unrolled));
        const uint32_t k = unrolled == 1 ? iteration : b.add(spv::OpIMul, u, {iteration, state_.uint_constant(unrolled)});
        std::vector<uint32_t> a_bases, b_bases;
        for (const Placement::Split& row : rows) a_bases.push_back(b.add(spv::OpIAdd, u, {b.add(spv::OpIMul, u, {row.base, state_.uint_constant(kc)}), k}));
        if (!row_sums) {
            // In words, a base for each pair of columns (the first of the pair's).
            const uint32_t line = b.add(spv::OpIMul, u, {k, state_.uint_constant(n)});
            for (size_t t = 0; t < columns.size(); t += b_words_ ? 2 : 1) {
                const uint32_t base = b.add(spv::OpIAdd, u, {line, columns[t].base});
                b_bases.push_back(b_words_ ? b.add(spv::OpShiftRightLogical, u, {base, state_.uint_constant(1)}) : base);
            }
        }
        std::vector<uint32_t> lane_a_values;
        if (a_broadcast) {
            for (uint32_t i = 0; i < rows.size(); ++i) {
                const uint32_t at = b.add(spv::OpIAdd, u, {a_bases[i], lane});
                lane_a_values.push_back(staged(*a_, b.add(spv::OpIAdd, u, {at, state_.uint_constant(rows[i].constant * kc)}), a_area, false));
            }
        }
        for (uint32_t step = 0; step < unrolled; ++step) {
            std::vector<uint32_t> a_values, b_values;
            for (uint32_t i = 0; i < rows.size(); ++i) {
                if (a_broadcast) {
                    a_values.push_back(b.add(spv::OpGroupNonUniformBroadcast, wide,
                                             {state_.uint_constant(spv::ScopeSubgroup), lane_a_values[i], state_.uint_constant(step)}));
                    continue;
                }
                const uint32_t offset = rows[i].constant * kc + step;
                a_values.push_back(staged(*a_, b.add(spv::OpIAdd, u, {a_bases[i], state_.uint_constant(offset)}), a_area, false));
            }
            if (row_sums) {
                for (uint32_t i = 0; i < rows.size(); ++i) {
                    const uint32_t pointer = b.add(spv::OpAccessChain, wide_pointer, {row_sums, state_.uint_constant(i)});
                    b.add(spv::OpStore, 0, {pointer, b.add(spv::OpFAdd, wide, {b.add(spv::OpLoad, wide, {pointer}), a_values[i]})});
                }
                continue;
            }
            for (uint32_t t = 0; t < columns.size(); t += b_words_ ? 2 : 1) {
                const uint32_t offset = b_offset + columns[t].constant + step * n;
                if (!b_words_) {
                    b_values.push_back(staged(*b_, b.add(spv::OpIAdd, u, {b_bases[t], state_.uint_constant(offset)}), b_area, false));
                    continue;
                }
                const uint32_t word = scratch_.load(b, u, b.add(spv::OpIAdd, u, {b_bases[t / 2], state_.uint_constant(offset / 2)}), b_area / 2, true);
                const uint32_t pair = b.add(spv::OpExtInst, state_.types().get_type_vector(wide, 2), {fma_set, GLSLstd450UnpackHalf2x16, word});
                for (uint32_t i = 0; i < 2; ++i) b_values.push_back(b.add(spv::OpCompositeExtract, wide, {pair, i}));
            }
            for (uint32_t i = 0; i < rows.size(); ++i) {
                for (uint32_t t = 0; t < columns.size(); ++t) {
                    const uint32_t pointer = b.add(spv::OpAccessChain, wide_pointer, {sums, state_.uint_constant(i * layout.columns_per_lane + t)});
                    const uint32_t sum = b.add(spv::OpLoad, wide, {pointer});
                    b.add(spv::OpStore, 0,
                          {pointer, b.add(spv::OpExtInst, wide, {fma_set, GLSLstd450Fma, a_values[i], b_values[t], sum})});
                }
            }
        }
        function.end_loop();
        if (row_sums) {
            const uint32_t filling = widen(b, b_filling_, *b_, false);
            for (uint32_t i = 0; i < rows.size(); ++i) {
                const uint32_t sum = b.add(spv::OpLoad, wide, {b.add(spv::OpAccessChain, wide_pointer, {row_sums, state_.uint_constant(i)})});
                for (uint32_t t = 0; t < columns.size(); ++t) {
                    const uint32_t pointer = b.add(spv::OpAccessChain, wide_pointer, {sums, state_.uint_constant(i * layout.columns_per_lane + t)});
                    b.add(spv::OpStore, 0, {pointer, b.add(spv::OpExtInst, wide, {fma_set, GLSLstd450Fma, sum, filling, b.add(spv::OpLoad, wide, {pointer})})});
                }
            }
        }
        const uint32_t total = b.add(spv::OpLoad, wide_array, {sums});
        Components wide_sums(state_, function, wide_array, wide, c_->length, total);
        Components components(state_, function, r_->lowered, r_->component.type, r_->length);
        repeat(state_, function, r_->length, [&](const Iteration& e) { components.set(e, narrow(b, wide_sums.get(e))); });
        return components.value();
    }

    // The K columns of A (rows of B) a staged workgroup multiply-add stages at once: all of K when
    // A and B fit in the staging budget, else the largest divisor of K whose chunk does. Chunks add
    // their products into the accumulator one after another, so only a result of C's own type,
    // summed without saturation, is chunked (a float sum then rounds to the accumulator's type
    // between chunks, as hardware rounds between its K steps).
    uint32_t staged_k_chunk(uint32_t m, uint32_t k, uint32_t n) const {
        const uint32_t budget = staging_budget(state_.context.target);
        if (budget == 0 || r_->id != c_->id || saturating()) return k;
        return items_at_once(k, uint64_t{m} * a_->component.width / 8 + uint64_t{n} * b_->component.width / 8, budget);
    }

    // The banded multiply-add `inner`, and a workgroup barrier every kStepsBetweenBarriers-th call.
    // Where invocations are SIMD lanes of a CPU thread (Target::simd_lane_invocations: lavapipe), the
    // subgroups of a workgroup run one after another from barrier to barrier: with no barrier, each
    // subgroup goes through the shader's whole K loop alone, and the band of A or B the subgroups
    // share (B, in bands of whole accumulator rows) has left the caches by the time the next subgroup
    // reads it; rows a power-of-two pitch apart fall into few cache sets and leave soonest. The
    // barrier keeps the subgroups within a few steps of each other, so a shared band is read from
    // memory about once. A workgroup-scope multiply-add is reached by the whole workgroup in uniform
    // control flow (the staged one's barriers rely on it too), so the count, an invocation's own, is
    // the same in every invocation.
    uint32_t in_step(uint32_t inner) {
        std::vector<uint32_t> key{0x53544550u /* "STEP" */, inner};
        if (const uint32_t existing = state_.find_function(key)) return existing;
        const uint32_t u = state_.uint_type();
        const uint32_t calls = module_.take_next_id();  // this function's calls so far, modulo the period
        const uint32_t declaration[] = {state_.types().get_type_pointer(spv::StorageClassPrivate, u), calls,
                                        spv::StorageClassPrivate, state_.uint_constant(0)};
        module_.types_values_constants.push_back(ir::make_instruction(spv::OpVariable, declaration));
        module_.register_definition(*module_.types_values_constants.back());
        ir::add_to_entry_point_interfaces(module_, calls);

        const uint32_t parameters[] = {band_a_->lowered, band_b_->lowered, c_->lowered};
        ir::FunctionBuilder function(module_, state_.types(), r_->lowered, parameters);
        ir::Builder& b = function.body();
        const uint32_t result =
            b.add(spv::OpFunctionCall, r_->lowered, {inner, function.parameter(0), function.parameter(1), function.parameter(2)});
        const uint32_t count = b.add(spv::OpUMod, u, {b.add(spv::OpIAdd, u, {b.add(spv::OpLoad, u, {calls}), state_.uint_constant(1)}),
                                                      state_.uint_constant(kStepsBetweenBarriers)});
        b.add(spv::OpStore, 0, {calls, count});
        function.begin_if(b.add(spv::OpIEqual, state_.types().get_type_bool(), {count, state_.uint_constant(0)}));
        const uint32_t workgroup = state_.uint_constant(spv::ScopeWorkgroup);
        function.body().add(spv::OpControlBarrier, 0, {workgroup, workgroup, state_.uint_constant(spv::MemorySemanticsMaskNone)});
        function.end_if();
        function.finish(result);
        state_.remember_function(std::move(key), function.id());
        return function.id();
    }

    uint32_t fail(const std::string& why) {
        state_.context.diagnostics.error(std::format("OpCooperativeMatrixMulAddKHR cannot be lowered: {}", why),
                                         instruction_.source_offset(), ir::instruction_text(instruction_.words(), module_));
        return 0;
    }

    bool has(uint32_t bit) const { return (mask_ & bit) != 0; }
    bool saturating() const { return has(spv::CooperativeMatrixOperandsSaturatingAccumulationKHRMask); }

    uint32_t wide_type() {
        return is_float_ ? state_.types().get_type_float(ir::kFloat32) : state_.types().get_type_int(32, true);
    }

    uint32_t link_kernel() {
        const LaneLayout& c = c_->layout;
        using helpers::uint_value;
        const std::vector<SpecializationValue> values = {
            uint_value(0, ka_->rows),         uint_value(1, ka_->columns),     uint_value(2, c.columns_per_lane),
            uint_value(3, c.row_groups),      uint_value(4, c.rows_per_lane),  uint_value(5, saturating() ? 1 : 0),
            uint_value(6, has(spv::CooperativeMatrixOperandsMatrixResultSignedComponentsKHRMask) ? 1 : 0),
            uint_value(7, ka_->length),       uint_value(8, kb_->length),      uint_value(9, c_->length),
            uint_value(10, k_steps()),        uint_value(11, ka_->layout.row_groups), uint_value(12, kb_->layout.row_groups),
            uint_value(13, kb_->layout.column_lanes), uint_value(14, ka_->layout.column_lanes)};
        const bool distributed = shuffles_operands();
        std::vector<uint32_t> key{0x4B524E4Cu /* "KRNL" */, is_float_ ? 1u : 0u};
        for (const SpecializationValue& v : values) key.push_back(v.bytes[0] | v.bytes[1] << 8 | v.bytes[2] << 16 | v.bytes[3] << 24);
        if (const uint32_t existing = state_.find_function(key)) return existing;
        const std::string name = std::string(is_float_ ? "coopmat_muladd_float" : "coopmat_muladd_int") + (distributed ? "_distributed" : "");
        const uint32_t kernel =
            helpers::link_helper_function(module_, state_.types(), "coopmat_muladd", name, values, state_.context.diagnostics);
        if (kernel && distributed) {
            module_.add_capability(spv::CapabilityGroupNonUniform);
            module_.add_capability(spv::CapabilityGroupNonUniformShuffle);
        }
        if (kernel) state_.remember_function(std::move(key), kernel);
        return kernel;
    }

    // Whether the kernel shuffles A's or B's values in (the *_distributed kernels): a distributed A
    // (row lanes in its row groups, maybe column lanes) or a B whose K rows are split over row groups
    // (lane_layout.h).
    bool shuffles_operands() const { return ka_->layout.writers() > 1 || kb_->layout.row_groups > 1; }

    // The invocation's column lane of B (0 where B has one).
    uint32_t b_column_lane(ir::Builder& b) {
        const uint32_t lanes = kb_->layout.column_lanes;
        if (lanes == 1) return state_.uint_constant(0);
        return b.add(spv::OpUMod, state_.uint_type(), {state_.load_lane(b), state_.uint_constant(lanes)});
    }

    // The K steps one call of the kernel takes: all of K, or on a SIMD-lane target (where the
    // driver compiles the unrolled kernel as one long block) the largest divisor of K that keeps a
    // call within kUnrolledProducts. The integer kernel always takes all of K: its saturating add of
    // C comes after the whole sum.
    uint32_t k_steps() const {
        const uint32_t k = ka_->columns;
        if (!is_float_ || !state_.context.target.simd_lane_invocations) return k;
        uint32_t steps = k;
        while (steps > 1 && (k % steps != 0 || uint64_t{c_->length} * steps > kUnrolledProducts)) --steps;
        return steps;
    }

    // A 32-bit component for the kernel: floats converted, integers sign- or zero-extended as the
    // Matrix*SignedComponents operands say (the component type's own signedness does not count).
    uint32_t widen(ir::Builder& b, uint32_t value, const MatrixType& matrix, bool is_signed) {
        const ComponentInfo& c = matrix.component;
        const uint32_t wide = wide_type();
        if (is_float_) {
            return state_.types().float_format(c.type) == ir::kFloat32 ? value : b.add(spv::OpFConvert, wide, {value});
        }
        if (c.width < 32) {
            if (is_signed) return b.add(spv::OpSConvert, wide, {value});
            value = b.add(spv::OpUConvert, state_.uint_type(), {value});
            return b.add(spv::OpBitcast, wide, {value});
        }
        return c.type == wide ? value : b.add(spv::OpBitcast, wide, {value});
    }

    uint32_t narrow(ir::Builder& b, uint32_t value) {
        const ComponentInfo& r = r_->component;
        if (is_float_) return state_.types().float_format(r.type) == ir::kFloat32 ? value : b.add(spv::OpFConvert, r.type, {value});
        if (r.width < 32) return b.add(spv::OpSConvert, r.type, {value});  // the low-order bits, as the spec asks
        return r.type == wide_type() ? value : b.add(spv::OpBitcast, r.type, {value});
    }

    // The whole matrix widened: an array value of 32-bit components, or (`in_variable`) a Function
    // variable holding it, which the kernel can take.
    uint32_t widened(ir::FunctionBuilder& function, uint32_t matrix_value, const MatrixType& matrix, bool is_signed,
                     bool in_variable = false) {
        ir::Builder& b = function.body();
        const uint32_t array = state_.types().get_type_array(wide_type(), state_.uint_constant(matrix.length));
        Components narrow_components(state_, function, matrix.lowered, matrix.component.type, matrix.length, matrix_value);
        Components wide_components(state_, function, array, wide_type(), matrix.length);
        repeat(state_, function, matrix.length,
               [&](const Iteration& e) { wide_components.set(e, widen(b, narrow_components.get(e), matrix, is_signed)); });
        if (!in_variable) return wide_components.value();
        const uint32_t variable = function.add_variable(state_.types().get_type_pointer(spv::StorageClassFunction, array));
        b.add(spv::OpStore, 0, {variable, wide_components.value()});
        return variable;
    }

    // Whether a float multiply-add with a distributed A reads A from the subgroup's shared memory
    // rather than shuffling each value in (Target::distributed_a_from_shared_memory): subgroup-scope
    // accumulators only (a workgroup band's rows are not A's), where the workgroup's subgroups' copies
    // of A fit the staging budget and all of K's products stay within kUnrolledProducts. From shared
    // memory, four neighbouring K values of a row are one read; the kernel shuffles one per product.
    bool stages_distributed_a() const {
        if (!state_.context.target.distributed_a_from_shared_memory) return false;
        if (!is_float_ || ka_->layout.row_groups <= 1 || c_->workgroup) return false;
        if (kb_->layout.row_groups > 1) return false;  // B's values must be the invocation's own
        if (uint64_t{c_->length} * ka_->columns > kUnrolledProducts) return false;  // K is written out
        Diagnostics ignored;  // an unknown size is reported where the scratch is declared
        const std::optional<uint32_t> subgroups = scratch_.subgroups(ignored);
        if (!subgroups) return false;
        const uint64_t bytes = uint64_t{*subgroups} * ka_->rows * ka_->columns * 4;  // widened
        const uint32_t budget = staging_budget(state_.context.target);
        return budget == 0 || bytes <= budget;
    }

    // Accumulator rows summed together: four independent sums in flight (every row at once, NAK read
    // all rows' values of four K steps ahead: 240 registers where 168 do).
    static constexpr uint32_t kStagedRowBlock = 4;

    // The multiply-add with A stored to the subgroup's shared memory and each accumulator row's A
    // values read back at each K step; B's values are the invocation's own (B's column lanes are the
    // accumulator's). K is written out, as the kernel's loops are; products are summed in K order
    // with fused multiply-adds, as the kernel sums them.
    void generate_with_staged_a(ir::FunctionBuilder& function) {
        const uint32_t k = ka_->columns, area = ka_->rows * k;
        const uint32_t u = state_.uint_type(), wide = wide_type();
        // A is staged widened: each invocation converts the values it holds once, where converting
        // those it reads would take a conversion per product.
        MatrixType wide_a = *ka_;
        wide_a.component = ComponentInfo{wide, true, 32};
        wide_a.lowered = state_.types().get_type_array(wide, state_.uint_constant(ka_->length));
        const uint32_t a_values = widened(function, function.parameter(0), *ka_, false);
        scratch_.barrier(function.body(), false);  // earlier reads of the subgroup's slice are done
        store_to_scratch(state_, scratch_, function, wide_a, a_values, 0, k, false, area);
        ir::Builder& b = function.body();
        scratch_.barrier(b, false);
        const uint32_t fma_set = module_.get_ext_inst_import("GLSL.std.450");
        const LaneLayout& layout = c_->layout;
        const Placement held(state_, b, *c_);
        std::vector<uint32_t> row_starts;  // the first of each accumulator row's K values in the slice
        for (uint32_t i = 0; i < layout.rows_per_lane; ++i) {
            const Placement::Split row = held.row_split(b, i * layout.columns_per_lane);
            const uint32_t start = b.add(spv::OpIMul, u, {row.base, state_.uint_constant(k)});
            row_starts.push_back(b.add(spv::OpIAdd, u, {start, state_.uint_constant(row.constant * k)}));
        }
        const uint32_t matrix_b = function.parameter(1), accumulator = function.parameter(2);
        std::vector<uint32_t> sums;
        for (uint32_t e = 0; e < c_->length; ++e) {
            sums.push_back(widen(b, b.add(spv::OpCompositeExtract, c_->component.type, {accumulator, e}), *c_, false));
        }
        // B's values widened once; then kStagedRowBlock rows at a time, K step after K step.
        std::vector<uint32_t> b_values;
        for (uint32_t e = 0; e < kb_->length; ++e) {
            b_values.push_back(widen(b, b.add(spv::OpCompositeExtract, kb_->component.type, {matrix_b, e}), *kb_, false));
        }
        for (uint32_t first = 0; first < layout.rows_per_lane; first += kStagedRowBlock) {
            const uint32_t last = std::min(first + kStagedRowBlock, layout.rows_per_lane);
            for (uint32_t step = 0; step < k; ++step) {
                for (uint32_t i = first; i < last; ++i) {
                    const uint32_t index = b.add(spv::OpIAdd, u, {row_starts[i], state_.uint_constant(step)});
                    const uint32_t a_value = scratch_.load(b, wide, index, area, false);
                    for (uint32_t t = 0; t < layout.columns_per_lane; ++t) {
                        uint32_t& sum = sums[i * layout.columns_per_lane + t];
                        const uint32_t b_value = b_values[step * layout.columns_per_lane + t];
                        sum = b.add(spv::OpExtInst, wide, {fma_set, GLSLstd450Fma, a_value, b_value, sum});
                    }
                }
            }
        }
        std::vector<uint32_t> results;
        for (uint32_t e = 0; e < r_->length; ++e) results.push_back(narrow(b, sums[e]));
        function.finish(b.add(spv::OpCompositeConstruct, r_->lowered, results));
    }

    void generate(ir::FunctionBuilder& function, uint32_t kernel) {
        const uint32_t a = widened(function, function.parameter(0), *ka_, has(spv::CooperativeMatrixOperandsMatrixASignedComponentsKHRMask), true);
        const uint32_t b = widened(function, function.parameter(1), *kb_, has(spv::CooperativeMatrixOperandsMatrixBSignedComponentsKHRMask), true);
        const uint32_t c = widened(function, function.parameter(2), *c_, has(spv::CooperativeMatrixOperandsMatrixCSignedComponentsKHRMask), true);
        ir::Builder& body = function.body();
        const Placement place(state_, body, *c_);
        const uint32_t uint_pointer = state_.types().get_type_pointer(spv::StorageClassFunction, state_.uint_type());
        const uint32_t group = function.add_variable(uint_pointer);
        body.add(spv::OpStore, 0, {group, place.row_group()});
        const uint32_t void_type = state_.types().get_type_void();
        uint32_t column_lane = 0;  // the *_distributed kernels' last parameter
        if (shuffles_operands()) {
            column_lane = function.add_variable(uint_pointer);
            body.add(spv::OpStore, 0, {column_lane, b_column_lane(body)});
        }
        const auto call = [&](ir::Builder& at, std::vector<uint32_t> arguments) {
            if (column_lane) arguments.push_back(column_lane);
            at.add(spv::OpFunctionCall, void_type, arguments);
        };
        if (!is_float_) {
            call(body, {kernel, a, b, c, group});
        } else {
            // The kernel takes K_STEPS steps from k_first: one call, or a loop the driver keeps.
            const uint32_t steps = k_steps(), k = ka_->columns;
            const uint32_t k_first = function.add_variable(uint_pointer);
            if (steps == k) {
                body.add(spv::OpStore, 0, {k_first, state_.uint_constant(0)});
                call(body, {kernel, a, b, c, group, k_first});
            } else {
                const uint32_t chunk = function.begin_loop(state_.uint_constant(k / steps), spv::LoopControlDontUnrollMask);
                ir::Builder& loop = function.body();
                loop.add(spv::OpStore, 0, {k_first, loop.add(spv::OpIMul, state_.uint_type(), {chunk, state_.uint_constant(steps)})});
                call(loop, {kernel, a, b, c, group, k_first});
                function.end_loop();
            }
        }
        const uint32_t wide_array = state_.types().get_type_array(wide_type(), state_.uint_constant(c_->length));
        Components sums(state_, function, wide_array, wide_type(), c_->length, body.add(spv::OpLoad, wide_array, {c}));
        Components components(state_, function, r_->lowered, r_->component.type, r_->length);
        repeat(state_, function, r_->length, [&](const Iteration& e) { components.set(e, narrow(body, sums.get(e))); });
        function.finish(components.value());
    }

    LoweringState& state_;
    Scratch& scratch_;
    ir::Module& module_;
    const ir::Instruction& instruction_;
    const MatrixType* a_ = nullptr;
    const MatrixType* b_ = nullptr;
    const MatrixType* c_ = nullptr;
    const MatrixType* r_ = nullptr;
    uint32_t mask_ = 0;
    bool is_float_ = false;
    uint32_t b_filling_ = 0;  // the constant filling B, where the streamed multiply-add sums A's rows instead
    bool b_words_ = false;    // B staged as words of two 16-bit floats (stages_b_in_words)
    const MatrixType* ka_ = nullptr;  // the kernel's A and B: the operands, or a band's parts
    const MatrixType* kb_ = nullptr;
    std::optional<MatrixType> band_a_;
    std::optional<MatrixType> band_b_;
};

}  // namespace

bool sums_rows_of_a(LoweringState& state, const ir::Instruction& instruction) {
    const ir::Module& module = state.module();
    const auto operands = instruction.operand_words();
    if (instruction.opcode() != spv::OpCooperativeMatrixMulAddKHR || operands.size() < 3) return false;
    const MatrixType* a = state.matrices.of_value(module, operands[0]);
    const MatrixType* b = state.matrices.of_value(module, operands[1]);
    const MatrixType* c = state.matrices.of_value(module, operands[2]);
    const MatrixType* r = state.matrices.find(instruction.type_id());
    // Row values are the GPU layout's (row_values.h).
    if (!a || !b || !c || !r || !c->workgroup || !distributes_matrices(state.context) || !filling_constant(module, operands[1])) {
        return false;
    }
    // As MultiplyAdd::workgroup_function() decides.
    const MultiplyAddOperands o{*a, *b, *c, *r, operands.size() > 3 ? operands[3] : 0};
    return !on_bands(o) && streams_staged(state.context, o) && !matrix_unit_for(state, o);
}

bool lower_multiply_add(LoweringState& state, Scratch& scratch, ir::BasicBlock& block, size_t index) {
    const ir::Instruction& instruction = *block.instructions[index];
    const uint32_t function = MultiplyAdd(state, scratch, instruction).function();
    if (!function) return false;
    const auto operands = instruction.operand_words();
    const uint32_t call[] = {function, operands[0], operands[1], operands[2]};
    const uint32_t type = instruction.type_id();  // replaced with the array type at the end of the pass
    const uint32_t result = instruction.result_id();
    block.instructions.erase(block.instructions.begin() + static_cast<ptrdiff_t>(index));  // `instruction` dies here
    ir::Builder(state.module(), block, index).add(spv::OpFunctionCall, type, call, result);
    return true;
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
