// Workgroup-scope multiply-adds on the driver's own cooperative matrices (Target::native_matrices,
// multiply_on_native_matrices): the tile the lowering picks, which multiply-adds run there, the output keeping
// SPV_KHR_cooperative_matrix for subgroup-scope tiles only and passing spirv-val, and plain code where
// no unit fits. And modules that use SPV_NV_cooperative_matrix2's matrices (workgroup scope, shapes the
// driver does not offer) with only SPV_KHR_cooperative_matrix declared are lowered as such.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <set>
#include <spirv/unified1/spirv.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <format>

#include "coopmat_target.h"
#include "diagnostic_text.h"
#include "spirv_corpus.h"
#include "spirv_facts.h"
#include "vkpolyfill/lowering/cooperative_matrix.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"

namespace vkpolyfill::lowering::test {
namespace {

constexpr uint32_t kVulkan13 = (1u << 22) | (3u << 12);
using CT = ComponentType;

CooperativeMatrixConfiguration unit(uint32_t m, uint32_t n, uint32_t k, CT accumulator = CT::Float32) {
    return {m, n, k, CT::Float16, CT::Float16, accumulator, accumulator, false};
}

// A GPU with KHR cooperative matrices of its own (not emulated) in configurations `units`, on which
// the workgroup multiply-adds `multiply` says run.
Target gpu_with_units(uint32_t subgroup_size, std::vector<CooperativeMatrixConfiguration> units,
                      NativeMultiplyAdds multiply = NativeMultiplyAdds::All) {
    Target target = emulating_coopmat(subgroup_size);
    target.emulate &= ~bit(Emulated::KhrCooperativeMatrix);
    target.native = bit(Emulated::KhrCooperativeMatrix);
    target.distributed_matrices = target.subgroup_shuffles = true;
    target.max_shared_memory_bytes = 65536;
    target.native_matrices = std::move(units);
    target.multiply_on_native_matrices = multiply;
    return target;
}

// The cooperative-matrix types left in a module, "RxC scope" each (scope 3 is Subgroup).
std::multiset<std::string> matrix_types(const std::vector<uint32_t>& words) {
    std::multiset<std::string> types;
    std::istringstream lines(disassemble(words));
    for (std::string line; std::getline(lines, line);) {
        std::istringstream fields(line);
        std::string id, equals, opcode, component, scope, rows, columns;
        fields >> id >> equals >> opcode >> component >> scope >> rows >> columns;
        if (opcode == "OpTypeCooperativeMatrixKHR") types.insert(rows.substr(6) + "x" + columns.substr(6) + " " + scope);
    }
    return types;
}

// The lengths of the arrays of subgroup-scope accumulator tiles (OpTypeArray of an
// OpTypeCooperativeMatrixKHR with Use 2) in a module, and how often each tile type is loaded.
struct AccumulatorTiles {
    std::multiset<std::string> arrays;  // the lengths' constants, "%uint_4"
    size_t loads = 0;
};

AccumulatorTiles accumulator_tiles(const std::vector<uint32_t>& words) {
    std::set<std::string> tiles;
    AccumulatorTiles found;
    std::istringstream lines(disassemble(words));
    for (std::string line; std::getline(lines, line);) {
        std::istringstream fields(line);
        std::string id, equals, opcode, first, second, third, fourth, use;
        fields >> id >> equals >> opcode >> first >> second >> third >> fourth >> use;
        const auto named = [](const std::string& name, const std::string& constant) {
            return name == constant || name.starts_with(constant + "_");
        };
        if (opcode == "OpTypeCooperativeMatrixKHR" && named(second, "%uint_3") && named(use, "%uint_2")) tiles.insert(id);
        if (opcode == "OpTypeArray" && tiles.contains(first)) found.arrays.insert(second.substr(0, second.find('_', 6)));
        if (opcode == "OpCooperativeMatrixLoadKHR" && tiles.contains(first)) ++found.loads;
    }
    return found;
}

// gemm_coopmat2.comp (shaders/bench): 128 invocations, 64x64 of C, K steps of 32, for subgroups of 32.
Result lowered_gemm(const Target& target) { return lowered_corpus_module("gemm_coopmat2.comp.spv", {128, 32, 128, 64, 64, 32}, target); }

TEST(MatrixUnits, WorkgroupMultiplyAddsRunOnTheLargestTileThatFits) {
    const Result result = lowered_gemm(gpu_with_units(32, {unit(8, 8, 8), unit(16, 16, 16, CT::Float16), unit(16, 16, 16), unit(16, 16, 48)}));
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    const SpirvFacts facts = read_facts(result.words);
    EXPECT_TRUE(facts.capabilities.contains(spv::CapabilityCooperativeMatrixKHR));
    EXPECT_TRUE(facts.extensions.contains("SPV_KHR_cooperative_matrix"));
    EXPECT_FALSE(facts.extensions.contains("SPV_NV_cooperative_matrix2"));
    // One per tile of the 2x2 block of C's 4x4 tiles each of the 4 subgroups holds.
    EXPECT_EQ(facts.count(spv::OpCooperativeMatrixMulAddKHR), 4u);
    // A, B and the f32 accumulator at 16x16x16 (16x16x48 does not divide K = 32; f16 sums differ).
    EXPECT_EQ(matrix_types(result.words), (std::multiset<std::string>{"16x16 %uint_3", "16x16 %uint_3", "16x16 %uint_3"}));
}

// The GEMM's accumulator stays in the driver's tiles across its K loop (resident_accumulators.h):
// an array of the 2x2 block of tiles each subgroup holds, never loaded from shared memory (C starts
// as a constant and its multiply-adds keep it), stored there once per tile for the final store.
TEST(MatrixUnits, AccumulatorsStayInTheDriversTilesAcrossMultiplyAdds) {
    const Result result = lowered_gemm(gpu_with_units(32, {unit(16, 16, 16)}));
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    const AccumulatorTiles tiles = accumulator_tiles(result.words);
    EXPECT_EQ(tiles.arrays, std::multiset<std::string>{"%uint_4"});
    EXPECT_EQ(tiles.loads, 0u);
    EXPECT_EQ(read_facts(result.words).count(spv::OpCooperativeMatrixStoreKHR), 4u);
}

// workgroup_gemm_loop.comp (shaders/tests/coopmat2) on lavapipe 26's 8x8x8 tiles at its 8 lanes (4
// subgroups): the 32x32 accumulator (4x4 tiles) stays in tiles, 2x2 a subgroup; the 32x16 one,
// read element by element, stays plain whatever OP the pipeline takes (every OP's code is in the
// module): its multiply-add loads its C tile from shared memory, and the 32x32 one's tiles are loaded
// back from there after OP 1's per-element operation (4), nowhere else.
TEST(MatrixUnits, AccumulatorsReadElementByElementStayPlain) {
    for (uint32_t op : {0u, 1u, 2u}) {
        SCOPED_TRACE(std::format("OP {}", op));
        const Result result = lowered_corpus_module("workgroup_gemm_loop.comp.spv", {op}, gpu_with_units(8, {unit(8, 8, 8)}));
        ASSERT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        const AccumulatorTiles tiles = accumulator_tiles(result.words);
        EXPECT_EQ(tiles.arrays, std::multiset<std::string>{"%uint_4"});
        EXPECT_EQ(tiles.loads, 5u);
    }
}

// NativeMultiplyAdds::KeptAccumulators takes a multiply-add only where its accumulator stays in the
// tiles and leaves them no more than once (conversions, stores). Each
// module as lowered under All and KeptAccumulators: the arrays of accumulator tiles (kept C) and the
// driver's multiply-adds.
TEST(MatrixUnits, KeptAccumulatorsTakeOnlySumsThatStayInTheTiles) {
    using Arrays = std::multiset<std::string>;
    const auto lowered = [](const std::string& name, uint32_t op, uint32_t subgroup_size, NativeMultiplyAdds multiply) {
        const auto units = subgroup_size == 8 ? std::vector{unit(8, 8, 8)} : std::vector{unit(16, 16, 16)};  // lavapipe 26's, a GPU's
        const Result result = lowered_corpus_module(name, {op}, gpu_with_units(subgroup_size, units, multiply));
        EXPECT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        return std::pair{accumulator_tiles(result.words).arrays, read_facts(result.words).count(spv::OpCooperativeMatrixMulAddKHR)};
    };
    constexpr auto kept = NativeMultiplyAdds::KeptAccumulators, all = NativeMultiplyAdds::All;
    // A GEMM's sum over K: kept in tiles either way, a 2x2 block of them a subgroup.
    const Result gemm = lowered_gemm(gpu_with_units(32, {unit(16, 16, 16)}, kept));
    ASSERT_TRUE(gemm.ok) << messages(gemm);
    EXPECT_EQ(validate(gemm.words, kVulkan13), "");
    EXPECT_EQ(accumulator_tiles(gemm.words).arrays, Arrays{"%uint_4"});
    EXPECT_EQ(read_facts(gemm.words).count(spv::OpCooperativeMatrixMulAddKHR), 4u);
    // Attention's 32x32 scores go on to a reduction and per-element work: plain code; its 32x16
    // output (two tiles) is only stored.
    EXPECT_EQ(lowered("workgroup_attention.comp.spv", 0, 32, all), std::pair(Arrays{"%uint_4", "%uint_2"}, size_t{6}));
    EXPECT_EQ(lowered("workgroup_attention.comp.spv", 0, 32, kept), std::pair(Arrays{"%uint_2"}, size_t{2}));
    // A GEMM whose A a DecodeFunc loads (a quantized GEMM): its sum is kept as well.
    EXPECT_EQ(lowered("tensor_decode_superblock.comp.spv", 1, 32, all), std::pair(Arrays{"%uint_4"}, size_t{4}));
    EXPECT_EQ(lowered("tensor_decode_superblock.comp.spv", 1, 32, kept), std::pair(Arrays{"%uint_4"}, size_t{4}));
    // The 32x32 accumulator goes through a per-element operation under OP 1, the 32x16 one is read
    // element by element: both plain.
    EXPECT_EQ(lowered("workgroup_gemm_loop.comp.spv", 0, 8, all).first, Arrays{"%uint_4"});
    EXPECT_EQ(lowered("workgroup_gemm_loop.comp.spv", 0, 8, kept), std::pair(Arrays{}, size_t{0}));
}

// Bytes of the module's Workgroup variables, arrays (of arrays) of scalars and vectors.
uint64_t workgroup_bytes(const SpirvFacts& facts) {
    const std::function<uint64_t(uint32_t)> size = [&](uint32_t type) -> uint64_t {
        const auto it = facts.definitions.find(type);
        if (it == facts.definitions.end()) return 0;
        const Words& t = it->second;
        switch (t[0] & 0xFFFFu) {
            case spv::OpTypeInt:
            case spv::OpTypeFloat: return t[2] / 8;
            case spv::OpTypeVector: return size(t[2]) * t[3];
            case spv::OpTypeArray: return size(t[2]) * facts.constant(t[3]).value_or(0);
            default: ADD_FAILURE() << "a Workgroup variable of opcode " << (t[0] & 0xFFFFu); return 0;
        }
    };
    uint64_t bytes = 0;
    for (const auto& [id, words] : facts.definitions) {
        if ((words[0] & 0xFFFFu) != spv::OpVariable || words[3] != spv::StorageClassWorkgroup) continue;
        bytes += size(facts.definitions.at(words[1])[3]);  // the pointer type's pointee
    }
    return bytes;
}

// A kept f32 sum goes to its plain layout for the final store through the shared memory its f16 A and B
// are staged in, as pairs of halves, in bands of rows no larger than their chunk: the GEMM (64x64 of C,
// 16 KiB as f32, over K 32: 8 KiB of A and B) takes no more shared memory on the units than as plain
// code, and runs there (4 multiply-adds, its tiles stored through a pointer to halves).
TEST(MatrixUnits, KeptSumsGoToPlainCodeThroughTheirOperandsSharedMemory) {
    const Result units = lowered_gemm(gpu_with_units(32, {unit(16, 16, 16)}, NativeMultiplyAdds::KeptAccumulators));
    const Result plain = lowered_gemm(gpu_with_units(32, {unit(16, 16, 16)}, NativeMultiplyAdds::None));
    ASSERT_TRUE(units.ok && plain.ok) << messages(units) << messages(plain);
    EXPECT_EQ(validate(units.words, kVulkan13), "");
    const SpirvFacts facts = read_facts(units.words);
    EXPECT_EQ(facts.count(spv::OpCooperativeMatrixMulAddKHR), 4u);
    EXPECT_EQ(workgroup_bytes(facts), 8192u);
    EXPECT_EQ(workgroup_bytes(facts), workgroup_bytes(read_facts(plain.words)));
}

// A module declaring SPV_NV_tensor_addressing (and so on) beside SPV_NV_cooperative_matrix2 is lowered
// by one run of the pass that lowers them all: a second run took the driver's tiles the first had
// left for the multiply-adds on the units for more matrices to lower, into plain code.
TEST(MatrixUnits, TheUnitsSurviveTheOtherSetsAModuleDeclares) {
    const Result result = lowered_corpus_module("tensor_decode_superblock.comp.spv", {1}, gpu_with_units(32, {unit(16, 16, 16)}));
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan13), "");
    const SpirvFacts facts = read_facts(result.words);
    EXPECT_TRUE(facts.extensions.contains("SPV_KHR_cooperative_matrix"));
    EXPECT_GT(facts.count(spv::OpCooperativeMatrixMulAddKHR), 0u);
}

TEST(MatrixUnits, MultiplyAddsNoUnitFitsAreLoweredToPlainCode) {
    const auto plain = [](const Target& target) {
        const Result result = lowered_gemm(target);
        EXPECT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(validate(result.words, kVulkan13), "");
        return matrix_types(result.words).empty() && (scan_emulated_capabilities(result.words) & ~bit(Emulated::Float16)) == 0;
    };
    EXPECT_FALSE(plain(gpu_with_units(32, {unit(16, 16, 16)})));
    EXPECT_TRUE(plain(gpu_with_units(32, {unit(16, 16, 16)}, NativeMultiplyAdds::None))) << "multiplying on them not asked for";
    EXPECT_TRUE(plain(gpu_with_units(32, {unit(16, 16, 16, CT::Float16)}))) << "the accumulator's type differs";
    EXPECT_TRUE(plain(gpu_with_units(32, {unit(48, 16, 16), unit(16, 16, 64)}))) << "no tile divides 64x64x32";
    Target small = gpu_with_units(32, {unit(16, 16, 16)});
    small.reserved_shared_memory_bytes = 16384;  // C alone (64x64 f32) takes all of it
    EXPECT_TRUE(plain(small)) << "C and a tile of K must fit the staging budget";
}

// Every cooperative-matrix module of the corpus, on lavapipe 26's configurations at its 8 lanes and on a
// 32-wide GPU's: lowered to valid SPIR-V (or reported, for a workgroup narrower than a subgroup).
TEST(MatrixUnits, EveryCoopmatModuleLowersToValidSpirvWithUnits) {
    size_t on_units = 0;
    for (const CorpusModule& module : corpus()) {
        if (!(scan_emulated_capabilities(module.words) & bit(Emulated::NvCooperativeMatrix2))) continue;
        for (uint32_t subgroup_size : {8u, 32u}) {
            SCOPED_TRACE(module.name + " at subgroup size " + std::to_string(subgroup_size));
            const Result result = lower(module.words, gpu_with_units(subgroup_size, {unit(8, 8, 8), unit(16, 16, 16), unit(16, 16, 16, CT::Float16)}), {});
            if (!result.ok && messages(result).find("is not whole subgroups of") != std::string::npos) continue;
            ASSERT_TRUE(result.ok) << messages(result);
            EXPECT_EQ(validate(result.words, kVulkan13), "");
            for (const std::string& type : matrix_types(result.words)) EXPECT_TRUE(type.ends_with("%uint_3")) << type;
            on_units += read_facts(result.words).count(spv::OpCooperativeMatrixMulAddKHR) != 0;
        }
    }
    EXPECT_GE(on_units, 4u) << "few modules multiplied on the units";
}

// glslang declares only SPV_KHR_cooperative_matrix for a GL_NV_cooperative_matrix2 shader whose only
// use of it is workgroup scope (gemm_coopmat2.comp): on a device with KHR cooperative matrices of its
// own, the module must still be lowered, not handed to a driver that has no workgroup scope.
TEST(CooperativeMatrix2Scope, WorkgroupScopeDeclaredOnlyAsKhrCountsAsNv2) {
    const auto& modules = corpus();
    const auto gemm = std::ranges::find_if(modules, [](const CorpusModule& m) { return m.name == "gemm_coopmat2.comp.spv"; });
    const auto khr = std::ranges::find_if(modules, [](const CorpusModule& m) { return m.name == "coopmat_khr.comp.spv"; });
    ASSERT_NE(gemm, modules.end());
    ASSERT_NE(khr, modules.end());
    EXPECT_FALSE(read_facts(gemm->words).extensions.contains("SPV_NV_cooperative_matrix2")) << "the case this test is about";
    EXPECT_TRUE(scan_emulated_capabilities(gemm->words) & bit(Emulated::NvCooperativeMatrix2));
    EXPECT_FALSE(scan_emulated_capabilities(khr->words) & bit(Emulated::NvCooperativeMatrix2));

    const Target target = gpu_with_units(32, {unit(16, 16, 16)}, NativeMultiplyAdds::None);
    const Result lowered = lowered_gemm(target);
    ASSERT_TRUE(lowered.ok) << messages(lowered);
    EXPECT_TRUE(lowered.changed);
    EXPECT_TRUE(matrix_types(lowered.words).empty());
    EXPECT_EQ(validate(lowered.words, kVulkan13), "");
    const Result kept = lower(khr->words, target, {});
    ASSERT_TRUE(kept.ok) << messages(kept);
    EXPECT_FALSE(kept.changed) << "subgroup-scope KHR matrices are the driver's";
}

// gemm_coopmat.comp (shaders/bench) declares only SPV_KHR_cooperative_matrix and takes its shape from
// specialization constants: at a shape the driver offers it is the driver's; at one it does not (a
// coopmat2 flexible dimension, 32x32x16) it is lowered, as NAK crashed on it and RADV miscompiles it.
TEST(CooperativeMatrix2Scope, ShapesTheDriverDoesNotOfferCountAsNv2) {
    const Target target = gpu_with_units(32, {unit(16, 16, 16), unit(16, 8, 16)}, NativeMultiplyAdds::None);
    const auto gemm = [&](uint32_t tm, uint32_t tn, uint32_t tk) {
        return lowered_corpus_module("gemm_coopmat.comp.spv", {128, 32, tm, tn, tk, 1, 1, 2, 2, 32}, target);
    };
    for (auto [tm, tn, tk, lowered] : {std::tuple{16u, 16u, 16u, false}, {16u, 8u, 16u, false}, {32u, 32u, 16u, true},
                                        {16u, 16u, 32u, true}, {8u, 8u, 8u, true}}) {
        SCOPED_TRACE(std::format("{}x{}x{}", tm, tn, tk));
        const Result result = gemm(tm, tn, tk);
        ASSERT_TRUE(result.ok) << messages(result);
        EXPECT_EQ(result.changed, lowered);
        if (lowered) {
            EXPECT_TRUE(matrix_types(result.words).empty());
            EXPECT_EQ(validate(result.words, kVulkan13), "");
        }
    }
    Target lowering_khr = target;  // where the KHR extension is emulated too, its own pass lowers every shape
    lowering_khr.emulate |= bit(Emulated::KhrCooperativeMatrix);
    EXPECT_TRUE(lowered_corpus_module("gemm_coopmat.comp.spv", {128, 32, 16, 16, 16, 1, 1, 2, 2, 32}, lowering_khr).changed);
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
