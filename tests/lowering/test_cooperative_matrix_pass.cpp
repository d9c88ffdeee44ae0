// The KHR cooperative-matrix pass on every coopmat module of the corpus, at the subgroup sizes real
// devices have: the output must no longer declare the capability and must pass spirv-val. The lane
// layout it relies on is checked against a direct enumeration of the matrix.
#include <gtest/gtest.h>

#include <algorithm>
#include <format>
#include <iterator>
#include <map>
#include <sstream>
#include <set>
#include <spirv/unified1/spirv.hpp>
#include <tuple>
#include <utility>

#include "passes/cooperative_matrix/lane_layout.h"
#include "coopmat_target.h"
#include "diagnostic_text.h"
#include "spirv_corpus.h"
#include "spirv_facts.h"
#include "spirv_text.h"
#include "vkpolyfill/lowering/cooperative_matrix.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"

namespace vkpolyfill::lowering::test {
namespace {

constexpr uint32_t kVulkan13 = (1u << 22) | (3u << 12);

TEST(CooperativeMatrixPass, EveryCoopmatModuleLowersToValidSpirvAtEverySubgroupSize) {
    size_t lowered = 0;
    for (const CorpusModule& module : corpus()) {
        if (!(scan_emulated_capabilities(module.words) & bit(Emulated::KhrCooperativeMatrix))) continue;
        // SIMD lanes with scalar uniform loads (lavapipe 26) and without (lavapipe 25), and GPU sizes,
        // with A replicated and distributed (GPUs: Target::distributed_matrices, which needs shuffles).
        for (auto [subgroup_size, simd_lanes, scalar_loads, distributed] :
             {std::tuple{8u, false, true, false}, {8u, true, true, false}, {8u, true, false, false}, {16u, false, true, false},
              {32u, false, true, false}, {64u, false, true, false}, {4u, true, true, true}, {8u, false, true, true},
              {16u, false, true, true}, {32u, false, true, true}, {64u, false, true, true}, {128u, false, true, true}}) {
            SCOPED_TRACE(module.name + " at subgroup size " + std::to_string(subgroup_size) + (simd_lanes ? " (SIMD lanes)" : "") +
                         (scalar_loads ? "" : " (uniform loads per invocation)") + (distributed ? " (A distributed)" : ""));
            Target target = emulating_coopmat(subgroup_size, simd_lanes);
            target.scalar_uniform_loads = scalar_loads;
            target.distributed_matrices = target.subgroup_shuffles = distributed;
            const Result result = lower(module.words, target, {});
            // A workgroup narrower than the subgroup cannot hold workgroup-scope matrices: reported.
            if (!result.ok && messages(result).find("is not whole subgroups of") != std::string::npos) continue;
            ASSERT_TRUE(result.ok) << messages(result);
            EXPECT_TRUE(result.changed);
            EXPECT_EQ(scan_emulated_capabilities(result.words) & ~bit(Emulated::Float16), 0u);
            EXPECT_EQ(validate(result.words, kVulkan13), "");
            ++lowered;
        }
    }
    EXPECT_GE(lowered, 4u) << "the corpus has no cooperative-matrix module";
}

// Every element of the matrix, for every invocation of the subgroup: which (row, column) it holds.
std::multiset<std::pair<uint32_t, uint32_t>> held(uint32_t rows, uint32_t columns, cooperative_matrix::Use use,
                                                  uint32_t subgroup_size, bool distributed_matrices = false,
                                                  bool square_blocks = false, bool split_a_columns = false) {
    const auto layout =
        cooperative_matrix::lane_layout(rows, columns, use, subgroup_size, distributed_matrices, square_blocks, split_a_columns);
    std::multiset<std::pair<uint32_t, uint32_t>> elements;
    for (uint32_t lane = 0; lane < subgroup_size; ++lane) {
        for (uint32_t e = 0; e < layout->length; ++e) {
            const uint32_t group = (lane / layout->column_lanes) % layout->row_groups;
            elements.insert({layout->row(e, group), layout->column(e, lane % layout->column_lanes)});
        }
    }
    return elements;
}

TEST(CooperativeMatrixLaneLayout, AccumulatorElementsHaveOneWriterEachAndAIsWholeEverywhere) {
    for (uint32_t subgroup_size : {4u, 8u, 16u, 32u, 64u, 128u}) {
        // 24 and 80 columns: fewer column lanes than min(S, N), several columns each (gcd(S, N) lanes);
        // 4x2 and 15x12: fewer rows than groups of column lanes at some sizes (repeated elements).
        for (auto [rows, columns] : {std::pair{16u, 16u}, {16u, 8u}, {8u, 8u}, {32u, 16u}, {24u, 24u}, {64u, 80u}, {4u, 2u}, {15u, 12u}}) {
            SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(columns) + " at " + std::to_string(subgroup_size));
            if (!cooperative_matrix::lane_layout(rows, columns, cooperative_matrix::Use::Accumulator, subgroup_size)) continue;
            // Each element once, or in each repeat of the layout's writers where there are fewer rows
            // than groups of column lanes; the writers alone hold each element once.
            const auto layout = cooperative_matrix::lane_layout(rows, columns, cooperative_matrix::Use::Accumulator, subgroup_size);
            const uint32_t repeats = subgroup_size / layout->writers();
            const auto accumulator = held(rows, columns, cooperative_matrix::Use::Accumulator, subgroup_size);
            ASSERT_EQ(accumulator.size(), rows * columns * repeats);
            const auto written = held(rows, columns, cooperative_matrix::Use::Accumulator, layout->writers());
            for (uint32_t r = 0; r < rows; ++r) {
                for (uint32_t c = 0; c < columns; ++c) {
                    EXPECT_EQ(accumulator.count({r, c}), repeats) << r << "," << c;
                    EXPECT_EQ(written.count({r, c}), 1u) << r << "," << c;
                }
            }
            const auto a = held(rows, columns, cooperative_matrix::Use::A, subgroup_size);
            for (uint32_t r = 0; r < rows; ++r) {
                for (uint32_t c = 0; c < columns; ++c) EXPECT_EQ(a.count({r, c}), subgroup_size);
            }
            // B: every invocation holds whole columns, and every column is held.
            const auto b = held(rows, columns, cooperative_matrix::Use::B, subgroup_size);
            for (uint32_t c = 0; c < columns; ++c) EXPECT_GE(b.count({0, c}), 1u);
        }
    }
}

// Square blocks (the GPU layout's workgroup accumulators): every element held once, by blocks that
// take no more A and B values a K step than gcd(S, N) column lanes would; where rows cannot split
// over more groups, the gcd layout as it was.
TEST(CooperativeMatrixLaneLayout, SquareBlocksHoldEachElementOnceWithFewerReadsAStep) {
    using cooperative_matrix::Use;
    for (uint32_t subgroup_size : {4u, 8u, 16u, 32u, 64u, 128u}) {
        for (auto [rows, columns] : {std::pair{32u, 64u}, {64u, 64u}, {16u, 16u}, {64u, 32u}, {8u, 128u}, {24u, 24u}, {64u, 80u}, {4u, 2u}}) {
            SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(columns) + " at " + std::to_string(subgroup_size));
            const auto gcd_lanes = cooperative_matrix::lane_layout(rows, columns, Use::Accumulator, subgroup_size);
            const auto square = cooperative_matrix::lane_layout(rows, columns, Use::Accumulator, subgroup_size, false, true);
            ASSERT_TRUE(gcd_lanes && square);
            if (gcd_lanes->writers() < subgroup_size) {
                EXPECT_EQ(square->column_lanes, gcd_lanes->column_lanes);
                EXPECT_EQ(square->length, gcd_lanes->length);
                continue;
            }
            EXPECT_EQ(square->writers(), subgroup_size);
            EXPECT_EQ(square->length, rows * columns / subgroup_size);
            EXPECT_LE(square->rows_per_lane + square->columns_per_lane, gcd_lanes->rows_per_lane + gcd_lanes->columns_per_lane);
            const auto elements = held(rows, columns, Use::Accumulator, subgroup_size, false, true);
            ASSERT_EQ(elements.size(), size_t{rows} * columns);
            for (uint32_t r = 0; r < rows; ++r) {
                for (uint32_t c = 0; c < columns; ++c) EXPECT_EQ(elements.count({r, c}), 1u) << r << "," << c;
            }
        }
    }
    // llama.cpp's coopmat2 GEMM band on a 64-wide GPU: 4 rows x 8 columns (12 reads for 32
    // products a step) instead of 32 x 1 (33).
    const auto band = cooperative_matrix::lane_layout(32, 64, Use::Accumulator, 64, false, true);
    EXPECT_EQ(band->rows_per_lane, 4u);
    EXPECT_EQ(band->columns_per_lane, 8u);
}

// A distributed A: each invocation holds M / min(S, M) rows (all K columns), and every element is
// held by S / min(S, M) invocations, the first min(S, M) of them (its writers) once each.
TEST(CooperativeMatrixLaneLayout, ADistributedHoldsEachRowInOneRowLaneOfEachReplica) {
    using cooperative_matrix::Use;
    for (uint32_t subgroup_size : {4u, 8u, 16u, 32u, 64u, 128u}) {
        for (auto [rows, columns] : {std::pair{16u, 16u}, {16u, 8u}, {8u, 8u}, {32u, 16u}, {8u, 32u}}) {
            SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(columns) + " at " + std::to_string(subgroup_size));
            const auto layout = cooperative_matrix::lane_layout(rows, columns, Use::A, subgroup_size, true);
            ASSERT_TRUE(layout.has_value());
            const uint32_t row_lanes = std::min(subgroup_size, rows);
            EXPECT_EQ(layout->length, rows / row_lanes * columns);
            EXPECT_EQ(layout->writers(), row_lanes);
            const auto a = held(rows, columns, Use::A, subgroup_size, true);
            ASSERT_EQ(a.size(), size_t{subgroup_size} * layout->length);
            for (uint32_t r = 0; r < rows; ++r) {
                for (uint32_t c = 0; c < columns; ++c) EXPECT_EQ(a.count({r, c}), subgroup_size / row_lanes) << r << "," << c;
            }
            const auto writers = held(rows, columns, Use::A, row_lanes, true);  // the first row lanes alone
            for (uint32_t r = 0; r < rows; ++r) EXPECT_EQ(writers.count({r, 0}), 1u);
        }
    }
    // Rows that do not spread evenly over the row lanes keep the replicated layout.
    EXPECT_EQ(cooperative_matrix::lane_layout(24, 16, Use::A, 16, true)->length, 24u * 16u);
}

// A distributed A whose row lanes' copies split its K columns (split_a_columns, where A goes through
// shared memory): each element held by S / writers invocations, and the value the kernel's shuffle
// asks for (shaders/lowering/coopmat_muladd.comp, SHUFFLED_A) for accumulator row group + u * G and
// column k is that element, at the same index in every invocation's source lane.
TEST(CooperativeMatrixLaneLayout, AColumnsSplitOverTheCopiesAreFoundWhereTheMultiplyAddShufflesFrom) {
    using cooperative_matrix::Use;
    size_t split = 0;
    for (uint32_t subgroup_size : {4u, 8u, 16u, 32u, 64u, 128u}) {
        for (auto [m, n, k_columns] : {std::tuple{16u, 16u, 16u}, {8u, 8u, 8u}, {16u, 8u, 16u}, {8u, 32u, 16u}, {4u, 8u, 2u}, {32u, 16u, 8u}}) {
            SCOPED_TRACE(std::format("{}x{}x{} at {}", m, n, k_columns, subgroup_size));
            const auto a = cooperative_matrix::lane_layout(m, k_columns, Use::A, subgroup_size, true, false, true);
            const auto c = cooperative_matrix::lane_layout(m, n, Use::Accumulator, subgroup_size);
            ASSERT_TRUE(a && c);
            const uint32_t row_lanes = a->row_groups, parts = a->column_lanes, columns = a->columns_per_lane;
            EXPECT_EQ(row_lanes, std::min(subgroup_size, m));
            EXPECT_EQ(parts * columns, k_columns);
            split += parts > 1;
            const auto elements = held(m, k_columns, Use::A, subgroup_size, true, false, true);
            for (uint32_t r = 0; r < m; ++r) {
                for (uint32_t col = 0; col < k_columns; ++col) {
                    EXPECT_EQ(elements.count({r, col}), subgroup_size / a->writers()) << r << "," << col;
                }
            }
            for (uint32_t lane = 0; lane < subgroup_size; ++lane) {
                const uint32_t group = (lane / c->column_lanes) % c->row_groups;
                for (uint32_t u = 0; u < c->rows_per_lane; ++u) {
                    const uint32_t row = group + u * c->row_groups;
                    for (uint32_t k = 0; k < k_columns; ++k) {
                        const uint32_t source = row % row_lanes * parts + k / columns;
                        const uint32_t e = u * c->row_groups / row_lanes * columns + k % columns;
                        ASSERT_LT(source, subgroup_size);
                        EXPECT_EQ(a->row(e, (source / parts) % row_lanes), row);
                        EXPECT_EQ(a->column(e, source % parts), k);
                    }
                }
            }
        }
    }
    EXPECT_GT(split, 0u);
    EXPECT_EQ(cooperative_matrix::lane_layout(8, 8, Use::A, 32, true)->length, 8u);  // copies repeat K
    EXPECT_EQ(cooperative_matrix::lane_layout(8, 8, Use::A, 32, true, false, true)->length, 2u);
}

// A B in the distributed layout: its K rows split over the row groups of the accumulator's column
// lanes, each element held by S / writers invocations; and the value the multiply-add shuffles in
// for K row k and the invocation's column t (shaders/lowering/coopmat_muladd.comp, SHUFFLED_B) is
// that element, at the same index in every invocation's source lane.
TEST(CooperativeMatrixLaneLayout, BSplitOverRowGroupsIsFoundWhereTheMultiplyAddShufflesFrom) {
    using cooperative_matrix::Use;
    size_t split = 0;
    for (uint32_t subgroup_size : {4u, 8u, 16u, 32u, 64u, 128u}) {
        for (auto [rows, columns] : {std::pair{16u, 16u}, {16u, 8u}, {8u, 8u}, {32u, 16u}, {8u, 32u}, {4u, 2u}, {24u, 24u}}) {
            SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(columns) + " at " + std::to_string(subgroup_size));
            const auto b = cooperative_matrix::lane_layout(rows, columns, Use::B, subgroup_size, true);
            const auto c = cooperative_matrix::lane_layout(16, columns, Use::Accumulator, subgroup_size);
            ASSERT_TRUE(b && c);
            EXPECT_EQ(b->column_lanes, c->column_lanes);
            EXPECT_EQ(b->columns_per_lane, c->columns_per_lane);
            const uint32_t groups = b->row_groups, lanes = b->column_lanes;
            split += groups > 1;
            const auto elements = held(rows, columns, Use::B, subgroup_size, true);
            for (uint32_t r = 0; r < rows; ++r) {
                for (uint32_t col = 0; col < columns; ++col) {
                    EXPECT_EQ(elements.count({r, col}), subgroup_size / b->writers()) << r << "," << col;
                }
            }
            for (uint32_t lane = 0; lane < subgroup_size; ++lane) {
                for (uint32_t k = 0; k < rows; ++k) {
                    for (uint32_t t = 0; t < b->columns_per_lane; ++t) {
                        const uint32_t source = lane % lanes + k % groups * lanes, e = k / groups * b->columns_per_lane + t;
                        ASSERT_LT(source, subgroup_size);
                        EXPECT_EQ(b->row(e, (source / lanes) % groups), k);
                        EXPECT_EQ(b->column(e, source % lanes), lane % lanes * b->columns_per_lane + t);
                    }
                }
            }
        }
    }
    EXPECT_GT(split, 0u);
    // Elsewhere every invocation holds all K rows.
    EXPECT_EQ(cooperative_matrix::lane_layout(16, 16, Use::B, 32)->length, 16u);
    EXPECT_EQ(cooperative_matrix::lane_layout(16, 16, Use::B, 32, true)->length, 8u);
}

// The OpControlBarrier count of corpus module `name` (its workgroup size specialization constant 0 =
// `invocations`), lowered for subgroups of 8 with or without scalar uniform loads, for lavapipe or
// (`simd_lanes` false) a GPU, checked valid.
size_t barriers_when_lowered(const std::string& name, uint32_t invocations, bool scalar_loads, bool simd_lanes = true) {
    Target target = emulating_coopmat(8, simd_lanes);
    target.scalar_uniform_loads = scalar_loads;
    const Result result = lowered_corpus_module(name, {invocations}, target);
    EXPECT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    return read_facts(result.words).count(spv::OpControlBarrier);
}

// The workgroup GEMM (shaders/bench/gemm_coopmat2.comp, 256 invocations): where uniform loads are
// scalar, A and B take the accumulator's bands and the multiply-add needs no barrier for its data (on
// a GPU none at all; on lavapipe one, which keeps the subgroups in step); where each invocation loads
// again, they are striped and the multiply-add stages them with barriers.
TEST(CooperativeMatrixPass, WorkgroupOperandsAreBandedOnlyWhereUniformLoadsAreScalar) {
    EXPECT_EQ(barriers_when_lowered("gemm_coopmat2.comp.spv", 256, true, false), 0u);
    EXPECT_EQ(barriers_when_lowered("gemm_coopmat2.comp.spv", 256, true), 1u);
    EXPECT_GE(barriers_when_lowered("gemm_coopmat2.comp.spv", 256, false), 2u);
}

// The selection controls of a module's OpSelectionMerges, function by function, read from its words:
// entry-point functions under 0, the others under their ids.
std::map<uint32_t, std::vector<uint32_t>> selection_controls(const std::vector<uint32_t>& words) {
    std::set<uint32_t> entry_functions;
    std::map<uint32_t, std::vector<uint32_t>> controls;
    uint32_t function = 0;
    for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
        const uint32_t opcode = words[at] & 0xFFFF;
        if (opcode == spv::OpEntryPoint) entry_functions.insert(words[at + 2]);
        if (opcode == spv::OpFunction) function = entry_functions.contains(words[at + 2]) ? 0 : words[at + 2];
        if (opcode == spv::OpSelectionMerge) controls[function].push_back(words[at + 2]);
    }
    return controls;
}

// Target::unflattened_selections marks DontFlatten the selections of the entry point's own code
// (workgroup_gemm_loop.comp's tests of OP), not those of the functions the lowering adds, and leaves
// a control the module gives (Flatten on the first) as it is.
TEST(CooperativeMatrixPass, UnflattenedSelectionsMarkTheEntryPointsOwnSelections) {
    const auto module = std::ranges::find_if(corpus(), [](const CorpusModule& m) { return m.name == "workgroup_gemm_loop.comp.spv"; });
    ASSERT_NE(module, corpus().end());
    std::vector<uint32_t> words = module->words;
    const std::optional<size_t> first = find_opcode(words, spv::OpSelectionMerge);
    ASSERT_TRUE(first);
    words[*first + 2] = spv::SelectionControlFlattenMask;
    Options options;
    options.specialization.push_back({0, {0, 0, 0, 0}});
    for (const bool unflattened : {false, true}) {
        SCOPED_TRACE(unflattened ? "unflattened" : "as given");
        Target target = emulating_coopmat(8, true);
        target.unflattened_selections = unflattened;
        const Result result = lower(words, target, options);
        ASSERT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        const auto controls = selection_controls(result.words);
        ASSERT_TRUE(controls.contains(0));
        const std::vector<uint32_t>& own = controls.at(0);
        ASSERT_GE(own.size(), 2u);
        EXPECT_EQ(own[0], uint32_t{spv::SelectionControlFlattenMask});
        for (size_t i = 1; i < own.size(); ++i) {
            EXPECT_EQ(own[i], unflattened ? uint32_t{spv::SelectionControlDontFlattenMask} : uint32_t{spv::SelectionControlMaskNone}) << i;
        }
        size_t added = 0;
        for (const auto& [function, list] : controls) {
            if (function == 0) continue;
            added += list.size();
            for (const uint32_t control : list) EXPECT_EQ(control, uint32_t{spv::SelectionControlMaskNone}) << "function %" << function;
        }
        EXPECT_GT(added, 0u);  // the lowering's own functions branch too
    }
}

// The workgroup GEMM with A and B striped and staged: within the default budget (half the device's
// 32 KiB) all of K at once; with a reserve of 1 KiB K in chunks, staged and multiplied in a loop.
TEST(CooperativeMatrixPass, StagedMultiplyAddsStageKInChunksThatFitTheReserve) {
    const auto loops = [](uint32_t reserve) {
        Target target = emulating_coopmat(8);
        target.scalar_uniform_loads = false;
        target.reserved_shared_memory_bytes = reserve;
        const Result result = lowered_corpus_module("gemm_coopmat2.comp.spv", {256}, target);
        EXPECT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        return read_facts(result.words).count(spv::OpLoopMerge);
    };
    EXPECT_GT(loops(1024), loops(0));
}

// The longest array an invocation holds in the lowered module (arrays in shared memory left out):
// what a GPU compiler must keep in registers, or spill.
uint32_t longest_invocation_array(const std::vector<uint32_t>& words) {
    std::map<std::string, uint32_t> constants, arrays;
    std::set<std::string> shared;
    std::istringstream lines(disassemble(words));
    for (std::string line; std::getline(lines, line);) {
        std::istringstream fields(line);
        std::vector<std::string> f{std::istream_iterator<std::string>(fields), std::istream_iterator<std::string>()};
        if (f.size() == 5 && f[1] == "=" && f[2] == "OpConstant" && f[3] == "%uint") constants[f[0]] = std::stoul(f[4]);
        if (f.size() == 5 && f[1] == "=" && f[2] == "OpTypeArray") arrays[f[0]] = constants[f[4]];
        if (f.size() == 5 && f[1] == "=" && f[2] == "OpTypePointer" && f[3] == "Workgroup") shared.insert(f[4]);
    }
    uint32_t longest = 0;
    for (const auto& [name, length] : arrays) longest = shared.contains(name) ? longest : std::max(longest, length);
    return longest;
}

// The workgroup GEMM (gemm_coopmat2.comp: 128x128 of C over 128 invocations, K steps of 16) for a
// 32-wide GPU: in lavapipe's layout each invocation holds its subgroup's band of A whole (32 rows x
// 16: 512 components); in the GPUs' layout its share of the accumulator (128 components) is the
// most, A and B striped and streamed from shared memory.
TEST(CooperativeMatrixPass, TheGpuLayoutHoldsNoBandOfAWorkgroupOperand) {
    const auto longest = [](bool distributed) {
        Target target = emulating_coopmat(32);
        target.distributed_matrices = target.subgroup_shuffles = distributed;
        const Result result = lowered_corpus_module("gemm_coopmat2.comp.spv", {128}, target);
        EXPECT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        return longest_invocation_array(result.words);
    };
    EXPECT_EQ(longest(false), 512u);
    EXPECT_EQ(longest(true), 128u);
}

// The workgroup GEMM at llama.cpp's coopmat2 tile (gemm_coopmat2.comp: 128x256 of C over 256
// invocations, K steps of 64) for lavapipe (subgroups of 8): a band of A or B would hold 1024
// components an invocation, more than the target writes out (Target::unroll_up_to 512), so A and B
// are striped and the multiply-add streams them from shared memory: an invocation's longest array is
// its 128 accumulators. At the benchmark's 512x64x16 over 128 invocations the bands are held (A: 32
// rows x 16, 512 components; staged through shared memory, 32 x 8 of them at a time). Where the target writes out 1024, the large tile's bands
// are held too (whole, or per staged chunk of K where uniform loads are per invocation).
TEST(CooperativeMatrixPass, WorkgroupBandsLongerThanTheTargetWritesOutAreStreamed) {
    const auto longest = [](const std::vector<uint32_t>& constants, bool scalar_loads, uint32_t unroll_up_to) {
        Target target = emulating_coopmat(8, true);
        target.scalar_uniform_loads = scalar_loads;
        target.unroll_up_to = unroll_up_to;
        const Result result = lowered_corpus_module("gemm_coopmat2.comp.spv", constants, target);
        EXPECT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        return longest_invocation_array(result.words);
    };
    const std::vector<uint32_t> engine{256, 8, 256, 128, 256, 64}, bench{128, 8, 128, 512, 64, 16};
    for (const bool scalar_loads : {true, false}) {
        SCOPED_TRACE(scalar_loads ? "scalar uniform loads" : "per-invocation uniform loads");
        EXPECT_EQ(longest(engine, scalar_loads, 512), 128u);
        EXPECT_EQ(longest(bench, scalar_loads, 512), scalar_loads ? 512u : 256u);  // staged: K in chunks of 8
        EXPECT_GT(longest(engine, scalar_loads, 1024), 128u);
    }
}

// In the streamed multiply-add of llama.cpp's GEMM tile (every lane of a subgroup holds the same
// accumulator rows), on SIMD lanes that load a value every lane reads per lane (lavapipe 25), A's
// values come a K step a lane and reach the other lanes by broadcasts; where uniform loads are scalar,
// or invocations are not SIMD lanes, each invocation reads them itself. Results are checked on the
// device by vulkan.*.CooperativeMatrix2Workgroup/*StreamedOnLanes.
TEST(CooperativeMatrixPass, StreamedAOnSimdLanesWithPerLaneLoadsIsBroadcast) {
    const auto broadcasts = [](bool simd_lanes, bool scalar_loads) {
        Target target = emulating_coopmat(8, simd_lanes);
        target.scalar_uniform_loads = scalar_loads;
        target.subgroup_shuffles = true;
        const Result result = lowered_corpus_module("gemm_coopmat2.comp.spv", {256, 8, 256, 128, 256, 64}, target);
        EXPECT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        return read_facts(result.words).count(spv::OpGroupNonUniformBroadcast);
    };
    EXPECT_EQ(broadcasts(true, false), 8u * 8u);  // 8 rows an invocation, 8 K steps an iteration
    EXPECT_EQ(broadcasts(true, true), 0u);
    EXPECT_EQ(broadcasts(false, false), 0u);
}

// Where invocations are SIMD lanes (lavapipe, per-lane uniform loads or not), the streamed
// multiply-add of llama.cpp's GEMM tile stages B's f16 values two to a word, and an invocation reads
// its 16 accumulator columns of a K step as 8 words (unpacked to two floats each); the GPU layout
// keeps B's halves. Results are checked on the device by vulkan.*.CooperativeMatrix2Workgroup/*
// (the StreamedOnLanes variants and the layer's runs of the same tile).
TEST(CooperativeMatrixPass, StreamedBOnSimdLanesIsReadInWords) {
    const auto unpacks = [](bool simd_lanes, bool scalar_loads, bool distributed) {
        Target target = emulating_coopmat(8, simd_lanes);
        target.scalar_uniform_loads = scalar_loads;
        target.subgroup_shuffles = true;
        target.distributed_matrices = distributed;
        const Result result = lowered_corpus_module("gemm_coopmat2.comp.spv", {256, 8, 256, 128, 256, 64}, target);
        EXPECT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        // Unpacks of a word loaded from shared memory (those of words loaded from the buffers are not B's staging).
        std::map<std::string, std::vector<std::string>> definitions;
        std::istringstream lines(disassemble(result.words));
        for (std::string line; std::getline(lines, line);) {
            std::istringstream fields(line);
            std::vector<std::string> f{std::istream_iterator<std::string>(fields), std::istream_iterator<std::string>()};
            if (f.size() > 2 && f[1] == "=") definitions[f[0]] = f;
        }
        const auto defined_as = [&](const std::string& id, const std::string& opcode, const std::string& type) {
            const auto found = definitions.find(id);
            return found != definitions.end() && found->second[2] == opcode && found->second[3] == type;
        };
        size_t count = 0;
        for (const auto& [id, f] : definitions) {
            if (f.size() != 7 || f[2] != "OpExtInst" || f[5] != "UnpackHalf2x16" || !defined_as(f[6], "OpLoad", "%uint")) continue;
            if (defined_as(definitions[f[6]][4], "OpAccessChain", "%_ptr_Workgroup_uint")) ++count;
        }
        return count;
    };
    EXPECT_EQ(unpacks(true, false, false), 8u * 8u);  // 8 words a K step, 8 K steps an iteration (A broadcast)
    EXPECT_EQ(unpacks(true, true, false), 8u);
    EXPECT_EQ(unpacks(false, true, true), 0u);
    EXPECT_EQ(unpacks(false, true, false), 0u);
}

// A workgroup-scope conversion larger than the reserve (workgroup_attention.comp's 32x32 P to an f16
// A: 2 KiB) goes through shared memory a few rows at a time, in a loop, and the lowering takes no more
// shared memory than the reserve for it (vulkan.*.CooperativeMatrix2Workgroup/*InChunks run it).
TEST(CooperativeMatrixPass, RelayoutsLargerThanTheReserveGoThroughSharedMemoryInChunks) {
    const auto lowered = [](uint32_t reserve) {
        Target target = emulating_coopmat(8);
        target.reserved_shared_memory_bytes = reserve;
        const Result result = lowered_corpus_module("workgroup_attention.comp.spv", {0}, target);
        EXPECT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        return result.words;
    };
    const auto whole = lowered(0), chunked = lowered(512);
    EXPECT_GT(read_facts(chunked).count(spv::OpLoopMerge), read_facts(whole).count(spv::OpLoopMerge));
    EXPECT_TRUE(contains(disassemble(whole), "OpTypeArray %half %uint_1024")) << "the whole P in shared memory";
    EXPECT_FALSE(contains(disassemble(chunked), "OpTypeArray %half %uint_1024"));
}

// A workgroup of one subgroup shares no band: no barrier even on lavapipe (32x32 of C, K steps of 16:
// bands of 512 and 64 components).
TEST(CooperativeMatrixPass, OneSubgroupWorkgroupsNeedNoStepBarrier) {
    Target target = emulating_coopmat(8, true);
    const Result result = lowered_corpus_module("gemm_coopmat2.comp.spv", {8, 8, 8, 32, 32, 16}, target);
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    EXPECT_EQ(read_facts(result.words).count(spv::OpControlBarrier), 0u);
}

// The shader's own shared memory, counted against the device's beside the lowering's scratch, is
// sized once per type: a Workgroup struct of two of the struct below, 40 deep, has 2^40 paths to its
// floats (this took hours), and its 2^42 bytes are reported exactly.
TEST(CooperativeMatrixPass, SharedTypesOfTheShadersWorkgroupMemoryAreSizedOnce) {
    const auto module = std::find_if(corpus().begin(), corpus().end(), [](const CorpusModule& m) { return m.name == "workgroup_layouts.comp.spv"; });
    ASSERT_NE(module, corpus().end());
    std::string nested = "%float = OpTypeFloat 32\n%900 = OpTypeStruct %float %float\n";
    for (int k = 1; k < 40; ++k) nested += std::format("%{} = OpTypeStruct %{} %{}\n", 900 + k, 900 + k - 1, 900 + k - 1);
    nested += "%990 = OpTypePointer Workgroup %939\n%991 = OpVariable %990 Workgroup\n";
    const std::string text = replaced(disassemble(module->words), "%float = OpTypeFloat 32\n", nested);
    const Result result = lower(assemble(text), emulating_coopmat(8), {});
    ASSERT_FALSE(result.ok);
    EXPECT_TRUE(contains(messages(result), "with the shader's own 4398046511104 bytes")) << messages(result);
}

// The attention kernel's row reductions (shaders/bench/attention_coopmat2.comp, one subgroup):
// where uniform loads are per invocation, the lanes share each line's total out, a barrier more in
// each generated reduction function.
TEST(CooperativeMatrixPass, RowReductionsShareTheirTotalsWhereUniformLoadsArePerInvocation) {
    const size_t scalar = barriers_when_lowered("attention_coopmat2.comp.spv", 8, true);
    EXPECT_GT(scalar, 0u);
    EXPECT_GT(barriers_when_lowered("attention_coopmat2.comp.spv", 8, false), scalar);
}

// The attention kernel's row reductions and its P conversion (an accumulator to an A) where the target
// has subgroup shuffles: shuffle steps and broadcasts between the lanes, no barrier and no scratch
// area left; without them, through shared memory.
TEST(CooperativeMatrixPass, SubgroupRowReductionsAndConversionsShuffleWhereTheTargetCan) {
    for (bool shuffles : {false, true}) {
        SCOPED_TRACE(shuffles ? "with shuffles" : "without shuffles");
        Target target = emulating_coopmat(8, true);
        target.subgroup_shuffles = shuffles;
        const Result result = lowered_corpus_module("attention_coopmat2.comp.spv", {8}, target);
        ASSERT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        const auto facts = read_facts(result.words);
        EXPECT_EQ(facts.count(spv::OpGroupNonUniformShuffleXor) > 0, shuffles);
        EXPECT_EQ(facts.count(spv::OpGroupNonUniformBroadcast) > 0, shuffles);
        EXPECT_EQ(facts.count(spv::OpControlBarrier) == 0, shuffles);
    }
}

// A workgroup row reduction into the same shape whose bands are whole rows (64x64 over 2 subgroups of 32:
// bands of 32x64, shaders/tests/coopmat2/subgroup_reduce_shapes.comp) combines each row by shuffles
// in its subgroup where the target has them, as a subgroup's rows are, instead of every invocation
// reading the row's partials from shared memory for each element it holds.
TEST(CooperativeMatrixPass, WorkgroupRowReductionsOverWholeRowBandsShuffle) {
    constexpr uint32_t kRow = 1, kScopeWorkgroup = 2;
    for (bool shuffles : {false, true}) {
        SCOPED_TRACE(shuffles ? "with shuffles" : "without shuffles");
        Target target = emulating_coopmat(32, false);
        target.distributed_matrices = true;
        target.subgroup_shuffles = shuffles;
        const Result result =
            lowered_corpus_module("subgroup_reduce_shapes.comp.spv", {kRow, 64, 64, 32, 64, 32, 32, 1, 64, kScopeWorkgroup}, target);
        ASSERT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        EXPECT_EQ(read_facts(result.words).count(spv::OpGroupNonUniformShuffleXor) > 0, shuffles);
    }
}

// Phis in loops' continue targets whose result type is an OpTypeCooperativeMatrixKHR (`matrix_type`)
// or an array (the lowering's matrices).
size_t continue_target_phis(const Words& words, uint32_t matrix_type) {
    const SpirvFacts facts = read_facts(words);
    std::set<uint32_t> continue_targets;
    for (const CodeInstruction& i : facts.code) {
        if ((i.words[0] & 0xffffu) == spv::OpLoopMerge) continue_targets.insert(i.words[2]);
    }
    return std::ranges::count_if(facts.code, [&](const CodeInstruction& i) {
        return (i.words[0] & 0xffffu) == spv::OpPhi && continue_targets.contains(i.block) &&
               facts.opcode_of(i.words[1]) == matrix_type;
    });
}

// A matrix a loop carries through a `continue` (shaders/tests/coopmat/control_flow.glsl's loop after
// spirv-opt -O) arrives as a phi in the header and another in the continue target; Mesa runs the
// continue construct at the top of the next iteration, so both would go around the loop. The lowered
// loop carries it in one variable: no matrix phi is left in a continue target.
TEST(CooperativeMatrixPass, AMatrixALoopCarriesThroughItsContinueTargetIsCarriedOnce) {
    constexpr uint32_t kAccumulator = 2, kLoop = 1;
    const auto module = std::ranges::find(corpus(), std::string("control_flow_f32.comp.spv+opt"), &CorpusModule::name);
    ASSERT_NE(module, corpus().end());
    ASSERT_EQ(continue_target_phis(module->words, spv::OpTypeCooperativeMatrixKHR), 1u);
    for (bool distributed : {false, true}) {
        Target target = emulating_coopmat(8, !distributed);
        target.distributed_matrices = target.subgroup_shuffles = distributed;
        const Result result = lowered_corpus_module("control_flow_f32.comp.spv+opt", {8, 16, 16, kAccumulator, kLoop}, target);
        ASSERT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        EXPECT_EQ(continue_target_phis(result.words, spv::OpTypeArray), 0u);
    }
}

// The loops the driver is asked to keep (OpLoopMerge with DontUnroll) in the attention kernel
// (shaders/bench/attention_coopmat2.comp, one subgroup of 8) with head dimension `head` and blocks of
// `block` keys, lowered for lavapipe or (`simd_lanes` false) a GPU, checked valid.
size_t kept_loops_when_lowered(uint32_t head, uint32_t block, bool simd_lanes) {
    const Result result = lowered_corpus_module("attention_coopmat2.comp.spv", {8, 256, head, block}, emulating_coopmat(8, simd_lanes));
    EXPECT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    return std::ranges::count_if(read_facts(result.words).code, [](const CodeInstruction& i) {
        return (i.words[0] & 0xffffu) == spv::OpLoopMerge && (i.words[3] & spv::LoopControlDontUnrollMask) != 0;
    });
}

// A distributed A's values reach the multiply-add's invocations by a shuffle per product, or
// (Target::distributed_a_from_shared_memory) from the subgroup's shared memory, where A is stored
// widened between two subgroup barriers; the project's attention (a 16x16 by 16x32 and a 16x32 by
// 32x16 multiply-add a block) at 32 and 64 lanes. Both pass spirv-val; what they compute is checked on
// lavapipe (vulkan.plain@distributed_a_shared_memory.*).
TEST(CooperativeMatrixPass, DistributedAReachesTheMultiplyAddByShufflesOrSharedMemory) {
    // Subgroup-scope barriers in a module's code.
    const auto subgroup_barriers = [](const SpirvFacts& facts) {
        return std::count_if(facts.code.begin(), facts.code.end(), [&](const CodeInstruction& i) {
            return (i.words[0] & 0xFFFF) == spv::OpControlBarrier && facts.constant(i.words[1]) == spv::ScopeSubgroup;
        });
    };
    for (uint32_t subgroup_size : {32u, 64u}) {
        std::map<bool, SpirvFacts> lowered;
        for (bool staged : {false, true}) {
            SCOPED_TRACE(std::format("{} lanes, {}", subgroup_size, staged ? "shared memory" : "shuffles"));
            Target target = emulating_coopmat(subgroup_size, false);
            target.distributed_matrices = target.subgroup_shuffles = true;
            target.distributed_a_from_shared_memory = staged;
            const Result result = lowered_corpus_module("attention_coopmat2.comp.spv", {subgroup_size}, target);
            ASSERT_TRUE(result.ok) << messages(result);
            EXPECT_EQ(validate(result.words, kVulkan13), "");
            lowered[staged] = read_facts(result.words);
        }
        EXPECT_GT(lowered[false].count(spv::OpGroupNonUniformShuffle), 0u);
        EXPECT_EQ(lowered[true].count(spv::OpGroupNonUniformShuffle), 0u);
        EXPECT_EQ(subgroup_barriers(lowered[true]) - subgroup_barriers(lowered[false]), 4)
            << "two for each of the block's two multiply-adds";
    }
}

// B's K rows split over the row groups (Target::split_b_rows, the distributed layout): the project's
// 16x16x16 GEMM (shaders/bench/gemm_coopmat.comp, 2x8 tiles) at 32 lanes is another module with
// them than with B whole; with A from shared memory B stays whole, the module the same either way.
// All pass spirv-val; the layouts are checked above, what the split B computes on lavapipe
// (vulkan.plain@subgroup16@distributed.*MulAdd*16x8x*, labelled split-b-rows).
TEST(CooperativeMatrixPass, SplitBRowsAreShuffledInWhereAIsShuffled) {
    const auto lowered = [](bool split_b, bool a_from_shared_memory) {
        SCOPED_TRACE(std::format("split_b_rows {}, distributed A from shared memory {}", split_b, a_from_shared_memory));
        Target target = emulating_coopmat(32, false);
        target.distributed_matrices = target.subgroup_shuffles = true;
        target.split_b_rows = split_b;
        target.distributed_a_from_shared_memory = a_from_shared_memory;
        const Result result = lowered_corpus_module("gemm_coopmat.comp.spv", {32, 32, 16, 16, 16, 2, 8, 1, 1, 16}, target);
        EXPECT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        return result.words;
    };
    EXPECT_NE(lowered(true, false), lowered(false, false));
    const std::vector<uint32_t> staged = lowered(true, true);
    EXPECT_EQ(staged, lowered(false, true));
    EXPECT_EQ(read_facts(staged).count(spv::OpGroupNonUniformShuffle), 0u);
}

// Head dimension 64 and blocks of 256 keys: both multiply-adds (16x64 by 64x256, 16x256 by 256x64)
// take 32768 products an invocation; on lavapipe the kernel is called in a kept loop over chunks of
// K instead of being unrolled over all of K (multiply_add.cpp). A GPU, and the benchmark's default
// (head 16, blocks of 32: 1024 products), get one call.
TEST(CooperativeMatrixPass, LongMultiplyAddsLoopOverKOnSimdLanes) {
    EXPECT_EQ(kept_loops_when_lowered(64, 256, true), 2u);
    EXPECT_EQ(kept_loops_when_lowered(64, 256, false), 0u);
    EXPECT_EQ(kept_loops_when_lowered(16, 32, true), 0u);
}

// Whether an M x N accumulator spreads evenly over a subgroup, as lane_layout.h describes it: the
// columns dealt to min(S, N) lanes, the rows split between the S / lanes groups.
// OpCooperativeMatrixReduceNV (shaders/tests/coopmat2/subgroup_reduce_shapes.comp; run on the device
// at 8 lanes by vulkan.*.CooperativeMatrix2SubgroupReductionShapes) over a grid of source shapes, modes
// and result extents, at every subgroup size with and without scalar uniform loads: valid everywhere,
// also where a source is narrower than the subgroup (lanes that hold no element of a line, lines some
// lanes miss) or has fewer rows than groups of column lanes (repeated elements).
TEST(CooperativeMatrixPass, ReductionsOfEveryShapeLowerToValidSpirv) {
    size_t lowered = 0;
    for (auto [subgroup_size, scalar_loads, shuffles] : {std::tuple{8u, true, true}, {8u, false, false}, {8u, true, false}, {16u, true, false},
                                                         {16u, false, true}, {32u, true, true}, {64u, false, false}}) {
        for (uint32_t m : {4u, 8u, 16u, 32u}) {
            for (uint32_t n : {2u, 4u, 8u, 16u}) {
                for (uint32_t extent : {1u, 8u, 16u}) {
                    for (uint32_t mode : {1u, 2u, 3u, 4u}) {
                        SCOPED_TRACE(std::format("mode {} of {}x{} (free extent {}) at {}{}{}", mode, m, n, extent, subgroup_size,
                                                 scalar_loads ? "" : " per-invocation loads", shuffles ? " shuffles" : ""));
                        Target target = emulating_coopmat(subgroup_size, subgroup_size == 8);
                        target.scalar_uniform_loads = scalar_loads;
                        target.subgroup_shuffles = shuffles;
                        const Result result = lowered_corpus_module("subgroup_reduce_shapes.comp.spv",
                                                                    {mode, m, n, extent, extent, m / 2, n / 2, mode % 2}, target);
                        ASSERT_TRUE(result.ok) << messages(result);
                        EXPECT_EQ(validate(result.words, kVulkan13), "");
                        ++lowered;
                    }
                }
            }
        }
    }
    EXPECT_EQ(lowered, 7u * 4 * 4 * 3 * 4);
}

// The same reductions at workgroup scope over two and four subgroups (vulkan.*.Workgroup/
// CooperativeMatrix2SubgroupReductionShapes runs some at 8 lanes): valid, or reported where the bands
// do not divide the matrices.
TEST(CooperativeMatrixPass, WorkgroupReductionsLowerToValidSpirvOrAreReported) {
    constexpr uint32_t kScopeWorkgroup = 2;
    size_t lowered = 0;
    for (auto [subgroup_size, scalar_loads] : {std::pair{8u, true}, {8u, false}, {16u, true}, {32u, true}, {64u, false}}) {
        for (uint32_t subgroups : {2u, 4u}) {
            for (auto [m, n] : {std::pair{16u, 16u}, {32u, 16u}, {16u, 32u}, {32u, 32u}, {64u, 64u}}) {
                for (uint32_t mode : {1u, 2u, 3u, 4u}) {
                    SCOPED_TRACE(std::format("mode {} of {}x{} over {} subgroups of {}{}", mode, m, n, subgroups, subgroup_size,
                                             scalar_loads ? "" : " per-invocation loads"));
                    Target target = emulating_coopmat(subgroup_size, subgroup_size == 8);
                    target.scalar_uniform_loads = scalar_loads;
                    const Result result = lowered_corpus_module(
                        "subgroup_reduce_shapes.comp.spv",
                        {mode, m, n, m / 2, n / 2, m / 2, n / 2, mode % 2, subgroups * subgroup_size, kScopeWorkgroup}, target);
                    if (!result.ok) {
                        EXPECT_FALSE(result.diagnostics.empty());
                        continue;
                    }
                    EXPECT_EQ(validate(result.words, kVulkan13), "");
                    ++lowered;
                }
            }
        }
    }
    EXPECT_GE(lowered, 150u);
}

// 16-bit array elements in a module with 16-bit storage access but no Int16 (and 8-bit ones
// without Int8 where the matrix is not 8-bit): spirv-val allows such types in width conversions
// only, so the lowering must not bitcast them. Half matrices through ushort arrays (same width),
// through uchar arrays (two per component), uchar matrices through ushort arrays (two per element),
// and bfloat16 matrices through ushort arrays and into uint arrays (two per element).
constexpr std::string_view kNarrowStorageOnly = R"(
OpCapability Shader
OpCapability Float16
OpCapability Int8
OpCapability StorageBuffer8BitAccess
OpCapability StorageBuffer16BitAccess
OpCapability VulkanMemoryModel
OpCapability CooperativeMatrixKHR
OpCapability BFloat16TypeKHR
OpCapability BFloat16CooperativeMatrixKHR
OpExtension "SPV_KHR_8bit_storage"
OpExtension "SPV_KHR_16bit_storage"
OpExtension "SPV_KHR_bfloat16"
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %shorts %bytes %words
OpExecutionMode %main LocalSize 32 1 1
OpDecorate %short_array ArrayStride 2
OpDecorate %byte_array ArrayStride 1
OpDecorate %word_array ArrayStride 4
OpMemberDecorate %word_block 0 Offset 0
OpDecorate %word_block Block
OpDecorate %words DescriptorSet 0
OpDecorate %words Binding 2
OpMemberDecorate %short_block 0 Offset 0
OpMemberDecorate %byte_block 0 Offset 0
OpDecorate %short_block Block
OpDecorate %byte_block Block
OpDecorate %shorts DescriptorSet 0
OpDecorate %shorts Binding 0
OpDecorate %bytes DescriptorSet 0
OpDecorate %bytes Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%half = OpTypeFloat 16
%uchar = OpTypeInt 8 0
%ushort = OpTypeInt 16 0
%bfloat = OpTypeFloat 16 BFloat16KHR
%uint_0 = OpConstant %uint 0
%uint_3 = OpConstant %uint 3
%uint_16 = OpConstant %uint 16
%uint_8 = OpConstant %uint 8
%uint_32 = OpConstant %uint 32
%row_major = OpConstant %uint 0
%use_a = OpConstant %uint 0
%half_a = OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %use_a
%uchar_a = OpTypeCooperativeMatrixKHR %uchar %uint_3 %uint_16 %uint_16 %use_a
%bfloat_a = OpTypeCooperativeMatrixKHR %bfloat %uint_3 %uint_16 %uint_16 %use_a
%word_array = OpTypeRuntimeArray %uint
%word_block = OpTypeStruct %word_array
%word_block_ptr = OpTypePointer StorageBuffer %word_block
%word_ptr = OpTypePointer StorageBuffer %uint
%words = OpVariable %word_block_ptr StorageBuffer
%short_array = OpTypeRuntimeArray %ushort
%byte_array = OpTypeRuntimeArray %uchar
%short_block = OpTypeStruct %short_array
%byte_block = OpTypeStruct %byte_array
%short_block_ptr = OpTypePointer StorageBuffer %short_block
%byte_block_ptr = OpTypePointer StorageBuffer %byte_block
%short_ptr = OpTypePointer StorageBuffer %ushort
%byte_ptr = OpTypePointer StorageBuffer %uchar
%shorts = OpVariable %short_block_ptr StorageBuffer
%bytes = OpVariable %byte_block_ptr StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%short_0 = OpAccessChain %short_ptr %shorts %uint_0 %uint_0
%short_256 = OpAccessChain %short_ptr %shorts %uint_0 %uint_32
%byte_0 = OpAccessChain %byte_ptr %bytes %uint_0 %uint_0
%byte_512 = OpAccessChain %byte_ptr %bytes %uint_0 %uint_32
%from_shorts = OpCooperativeMatrixLoadKHR %half_a %short_0 %row_major %uint_16
OpCooperativeMatrixStoreKHR %short_256 %from_shorts %row_major %uint_16
%from_bytes = OpCooperativeMatrixLoadKHR %half_a %byte_0 %row_major %uint_32
OpCooperativeMatrixStoreKHR %byte_512 %from_bytes %row_major %uint_32
%bytes_from_shorts = OpCooperativeMatrixLoadKHR %uchar_a %short_0 %row_major %uint_8
OpCooperativeMatrixStoreKHR %byte_0 %bytes_from_shorts %row_major %uint_16
%bfloats = OpCooperativeMatrixLoadKHR %bfloat_a %short_0 %row_major %uint_16
OpCooperativeMatrixStoreKHR %short_256 %bfloats %row_major %uint_16
%word_0 = OpAccessChain %word_ptr %words %uint_0 %uint_0
OpCooperativeMatrixStoreKHR %word_0 %bfloats %row_major %uint_8
OpReturn
OpFunctionEnd
)";

TEST(CooperativeMatrixPass, NarrowArrayElementsWithoutNarrowArithmeticLowerToValidSpirv) {
    const std::vector<uint32_t> words = assemble(kNarrowStorageOnly);
    ASSERT_EQ(validate(words, kVulkan13), "");  // valid as it is: no Int16 needed
    for (auto [subgroup_size, simd_lanes] : {std::pair{8u, true}, {8u, false}, {32u, false}}) {
        SCOPED_TRACE("subgroup size " + std::to_string(subgroup_size) + (simd_lanes ? " (SIMD lanes)" : ""));
        const Result result = lower(words, emulating_coopmat(subgroup_size, simd_lanes), {});
        ASSERT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        EXPECT_EQ(read_facts(result.words).capabilities.count(spv::CapabilityInt16), 0u);
    }
}

// kNarrowStorageOnly whose entry point lists as many Private variables as one instruction can hold
// beside its three buffers: the lowering's own interface variables would take the OpEntryPoint past
// 65,535 words (whose word count then wrapped), so the module is refused.
TEST(CooperativeMatrixPass, AnEntryPointGrownPastOneInstructionIsReported) {
    constexpr int kMostInterfaceIds = 65535 - 5;  // the word count, model, function and "main"
    std::string variables, interface;
    for (int i = 3; i < kMostInterfaceIds; ++i) {
        variables += std::format("%p{} = OpVariable %private_uint Private\n", i);
        interface += std::format(" %p{}", i);
    }
    std::string text = replaced(std::string(kNarrowStorageOnly), "%shorts %bytes %words\n", "%shorts %bytes %words" + interface + "\n");
    text = replaced(text, "%main = OpFunction", "%private_uint = OpTypePointer Private %uint\n" + variables + "%main = OpFunction");
    const std::vector<uint32_t> words = assemble(text);
    const Result result = lower(words, emulating_coopmat(8), {});
    ASSERT_FALSE(result.ok);
    ASSERT_FALSE(result.diagnostics.empty());
    EXPECT_TRUE(contains(result.diagnostics.front().message, "words in one OpEntryPoint, past SPIR-V's limit of 65535")) << messages(result);
    EXPECT_TRUE(contains(result.diagnostics.front().instruction, "OpEntryPoint GLCompute")) << messages(result);
}

TEST(CooperativeMatrixConfigurations, OfferedShapesFitTheSubgroupAndTheArithmetic) {
    const ArithmeticSupport everything{true, true, true};
    const auto at8 = cooperative_matrix_configurations(8, everything);
    EXPECT_EQ(at8.size(), 15u);
    const auto no_int8 = cooperative_matrix_configurations(8, {true, false, false});
    for (const auto& c : no_int8) {
        EXPECT_NE(c.a, ComponentType::SInt8);
        EXPECT_NE(c.a, ComponentType::BFloat16);
    }
    // Every shape at every subgroup size: 128 invocations hold an 8x8 accumulator's 64 elements in
    // 64 of them, the other 64 repeating them.
    EXPECT_EQ(cooperative_matrix_configurations(128, everything).size(), at8.size());
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
