// The module's cooperative-matrix types, each with its lane layout and the array type that replaces
// it: every component an invocation holds, in element order (lane_layout.h).
#pragma once

#include <cstdint>
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

#include "passes/cooperative_matrix/lane_layout.h"
#include "passes/pass.h"
#include "vkpolyfill/lowering/cooperative_matrix.h"

namespace vkpolyfill::lowering::cooperative_matrix {

struct ComponentInfo {
    uint32_t type;    // the scalar type id
    bool is_float;
    uint32_t width;   // bits
};

// How a workgroup-scope matrix (SPV_NV_cooperative_matrix2) is spread over the workgroup's
// invocations (subgroup id * subgroup size + lane):
//  - Accumulators are tiled in bands, one per subgroup (band_rows x band_columns, bands_across
//    bands per row of bands; subgroup s holds band row s / bands_across, band column
//    s % bands_across), each band in the subgroup layout of lane_layout.h.
//  - A and B that a multiply-add pairs with such an accumulator take its bands (the layout of a
//    workgroup matrix is the implementation's choice): subgroup s holds A's rows of its band (all
//    K columns) in the subgroup A layout, B's columns of its band (all K rows) in the subgroup B
//    layout; subgroups that share band rows (A) or band columns (B) hold the same copy. A
//    multiply-add is then the subgroup one on each band, with no shared memory and no barrier.
//    Measured on lavapipe 26 (f16 GEMM, 128x128x16 per 256-invocation workgroup, 512^3): staged
//    through shared memory with two workgroup barriers per step 29.9 ms, the same bands without
//    staging 12.9 ms. Loads read each copy once per sharing subgroup (from cache, mostly).
//    Only where uniform loads are scalar (Target::scalar_uniform_loads): on lavapipe 25, which loads
//    A's uniform elements per invocation, bands made the same GEMM 1.4-1.6x slower than striping.
//    And not in the GPU layout (Target::distributed_matrices), whose invocations' registers cannot
//    hold a band of A and B: there they are striped and the multiply-add streams them.
//    Nor where a band's A or B is longer than the target writes out (bands_written_out below).
//  - Other A and B (not multiplied, multiplied with accumulators of different bands, or all where
//    uniform loads are per invocation) are striped in runs of `run` neighbouring elements of a row:
//    row-major run r is held by invocation r % invocations, at indices (r / invocations) * run and
//    on; a multiply-add stages them through shared memory. Runs of 2 in the GPU layout: the two
//    components a 16-bit pair of registers holds (packed_16bit_arrays.h) are then neighbours in memory,
//    read and written as one 32-bit word, and the compilers keep them in one register. Runs of 2
//    for B on lavapipe too: the streamed multiply-add stages a run of 16-bit floats as one word. With runs
//    of 1, flash attention's loop-invariant Q (64x128 f16 over 128 invocations) took 64 registers
//    in its loop on RADV and NAK, one a half. Runs depend on the shape only, so that conversions
//    between component types of one shape stay component-wise.
struct WorkgroupLayout {
    uint32_t invocations = 0;
    uint32_t band_rows = 0;  // 0 when striped
    uint32_t band_columns = 0;
    uint32_t bands_across = 0;
    uint32_t run = 1;  // striped

    bool operator==(const WorkgroupLayout&) const = default;
};

// A workgroup accumulator kept in the driver's own tiles from one multiply-add to the next
// (resident_accumulators.h): subgroup s holds a block of block_rows x block_columns tiles, block row
// s / grid_columns, block column s % grid_columns of the tile grid.
struct ResidentTiles {
    CooperativeMatrixConfiguration unit;  // the configuration its multiply-adds run on
    uint32_t tile;                        // the driver's accumulator tile type (unit.m x unit.n)
    uint32_t grid_columns;
    uint32_t block_rows, block_columns;
    uint32_t array;  // what replaces the matrix type: an array of the block's tiles, row by row
    uint32_t plain;  // a matrix type of the same shape lowered to components, for every other operation
    // The narrower component type of A, whose workgroup region the multiply-adds stage A in, through
    // which the tiles go to the plain layout and back (0: through the region of their own type). One
    // region instead of two: on RADV the f16 GEMM's kept f32 sum took another 16 KiB and half the waves.
    uint32_t carrier;
    // The rows those conversions move at once (a multiple of unit.m): no more than the multiply-adds'
    // A and B take, so the area grows no larger than theirs (the GEMM's 64x64 f32 sum next to K 32).
    uint32_t band_rows;
};

struct MatrixType {
    uint32_t id;  // the OpTypeCooperativeMatrixKHR
    ComponentInfo component;
    uint32_t rows;
    uint32_t columns;
    Use use;
    bool workgroup = false;   // Scope Workgroup, else Subgroup
    LaneLayout layout;        // subgroup scope: the layout; workgroup accumulators: each band's
    WorkgroupLayout spread;   // workgroup scope only
    uint32_t length;          // components each invocation holds (OpCooperativeMatrixLengthKHR)
    uint32_t lowered;         // OpTypeArray of `length` components
    std::optional<ResidentTiles> resident{};  // workgroup accumulators only; `lowered` is then the plain type's
    // Values of an accumulator type whose rows each hold one value (row_values.h) take a type of their
    // own, which holds one component per row an invocation holds: this is then the full type's id.
    uint32_t rows_of = 0;

    bool striped() const { return workgroup && spread.band_rows == 0; }
};

class MatrixTypes {
  public:
    // Collects every OpTypeCooperativeMatrixKHR, freezing the constants that shape it to the
    // pipeline's values. Reports each type that cannot be lowered; returns whether all can.
    bool collect(PassContext& context);

    const MatrixType* find(uint32_t type_id) const;
    // The matrix type of value `id`, nullptr when its type is not a cooperative matrix.
    const MatrixType* of_value(const ir::Module& module, uint32_t id) const;
    const std::unordered_map<uint32_t, MatrixType>& all() const { return types_; }

    // The type of `id`'s values whose rows each hold one value (row_values.h), declared on first use.
    // Its layout is `id`'s with one column per column lane: invocations hold the same rows of both,
    // one component a row (standing at column lane l's column l, which nothing that keeps row values
    // reads).
    uint32_t row_values_type(PassContext& context, uint32_t id);

    // Keeps values of matrix type `id` in the driver's tiles, and declares the plain type of the same
    // shape (tiles.plain is filled in).
    void keep_in_tiles(ir::Module& module, uint32_t id, ResidentTiles tiles);

  private:
    // Gives workgroup A and B types the bands of the accumulators multiply-adds pair them with.
    void band_workgroup_operands(PassContext& context);
    std::optional<MatrixType> workgroup_type(uint32_t rows, uint32_t columns, Use use, PassContext& context,
                                             const std::function<void(std::string)>& error);

    std::unordered_map<uint32_t, MatrixType> types_;
    std::optional<std::optional<std::array<uint32_t, 3>>> workgroup_size_;  // read on first use
};

// Instructions that move matrices around without looking inside: after the types are replaced they
// are the same instructions on arrays.
bool passes_matrices_through(uint32_t opcode);
// The numeric conversions (OpFConvert, OpSConvert, ... OpConvertUToF), which SPIR-V applies to
// cooperative matrices component by component.
bool converts_components(uint32_t opcode);
// Non-semantic extended instructions (debug information), which only describe values.
bool only_describes_values(const ir::Module& module, const ir::Instruction& instruction);

std::optional<ComponentInfo> component_info(const ir::Module& module, uint32_t type_id);

// Whether this module's subgroup-scope A matrices take the distributed layout (Target::distributed_matrices).
bool distributes_matrices(const PassContext& context);

// Whether the A and B a subgroup holds for its band of `spread`, K deep (A: band_rows x K, B: K x
// band_columns), are each within what the target writes out component by component
// (Target::unroll_up_to). Beyond, the code over them (the loads into the band, the kernel's widened
// copies) loops over arrays the driver keeps in memory, and a workgroup multiply-add streams its
// staged operands instead (multiply_add.cpp). Measured on lavapipe 26, f16 GEMM 1024^3 through the
// layer, GPU ms (2026-12-04): 128x256x64 with 256 invocations (bands of 16x64 or 8x128: 1024 or
// 512 components of A, 512 or 1024 of B) banded 432-600, streamed 126, banded with every component
// written out 126 but 45 s to compile; 512x64x32 with 128 (1024 and 256) banded 400, written out 99;
// 128x128x64 with 256 (512 and 512) banded 73, streamed 129; 512x64x16 with 128 (512 and 128)
// banded 50, streamed 97. llama.cpp's coopmat2 GEMM on lavapipe is the 128x256x64 one.
bool bands_written_out(const PassContext& context, const WorkgroupLayout& spread, uint32_t k);

// The bands of a workgroup accumulator: one per subgroup, each a valid subgroup layout, chosen to
// need the fewest reads per multiply-add (the band's rows of A are uniform loads, its columns of B
// per-invocation ones: rows + columns / subgroup size). Measured without staging on lavapipe 26
// (128x128 accumulator, 32 subgroups of 8, K step 16, 512^3 GEMM, CPU ms): bands 4x128 13.9,
// 8x64 11.8 (this rule's choice), 16x32 12.5, 32x16 16.9. nullopt when none fits.
std::optional<WorkgroupLayout> accumulator_bands(uint32_t rows, uint32_t columns, uint32_t invocations, uint32_t subgroup_size);

}  // namespace vkpolyfill::lowering::cooperative_matrix
