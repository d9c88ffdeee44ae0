#include "passes/cooperative_matrix/matrix_types.h"

#include <format>
#include <functional>
#include <map>
#include <tuple>
#include <spirv/unified1/spirv.hpp>

#include "ir/instruction_text.h"
#include "passes/common/workgroup_size.h"
#include "specialization.h"

namespace vkpolyfill::lowering::cooperative_matrix {

std::optional<ComponentInfo> component_info(const ir::Module& module, uint32_t type_id) {
    const ir::Instruction* type = module.find_definition(type_id);
    if (!type || (type->opcode() != spv::OpTypeFloat && type->opcode() != spv::OpTypeInt)) return std::nullopt;
    // The widths SPIR-V numbers have; any other is an invalid module, and the lowering divides by it.
    const uint32_t width = type->word(2);
    if (width != 8 && width != 16 && width != 32 && width != 64) return std::nullopt;
    return ComponentInfo{type_id, type->opcode() == spv::OpTypeFloat, width};
}

namespace {

using Report = const std::function<void(std::string)>&;

// Bounds far beyond any real shader's matrices (the largest flexible-dimension tiles are a few hundred
// rows) and workgroups (devices allow about a thousand invocations), which keep a hostile module from
// making the lowering unroll billions of components or overflow their count.
constexpr uint64_t kMaxDimension = 4096;
constexpr uint32_t kMaxComponentsPerInvocation = 4096;
constexpr uint64_t kMaxWorkgroupInvocations = 65536;

std::optional<MatrixType> subgroup_type(uint32_t rows, uint32_t columns, Use use, const PassContext& context, Report error) {
    const uint32_t subgroup_size = context.target.subgroup_size;
    // B's K rows are split over row groups (Target::split_b_rows) where the multiply-add shuffles A
    // in, and then shuffles B's values in too; where A comes from shared memory, the shuffles B would
    // take cost more than the registers B saves (RX 6800, the project's 16x16x16 GEMM: 22,398 ->
    // 43,483 cycles, 248 registers either way; docs/real_gpus.md, "B's rows split over the row groups").
    const bool split_b = context.target.split_b_rows && !context.target.distributed_a_from_shared_memory;
    const bool distributed = distributes_matrices(context) && (use != Use::B || split_b);
    // Where A goes through shared memory, its copies split K: each invocation converts and stores a
    // share of A, not all its rows (RX 6800: the project's 8x8x8 GEMM 9,660 -> 6,016 cycles, 12 ->
    // 16 waves; docs/real_gpus.md, "A's columns split over its copies"). Where A is shuffled, NAK
    // took more registers with it.
    const bool split_a = distributed && context.target.distributed_a_from_shared_memory;
    const std::optional<LaneLayout> layout = lane_layout(rows, columns, use, subgroup_size, distributed, false, split_a);
    if (!layout) {
        error(std::format("a {}x{} matrix cannot be spread evenly over a subgroup of {} invocations", rows, columns,
                          subgroup_size));
        return std::nullopt;
    }
    return MatrixType{0, {}, rows, columns, use, false, *layout, {}, layout->length, 0};
}

}  // namespace

bool distributes_matrices(const PassContext& context) {
    return context.target.distributed_matrices && context.target.subgroup_shuffles && context.module.header.version >= 0x00010300;
}

bool bands_written_out(const PassContext& context, const WorkgroupLayout& spread, uint32_t k) {
    const uint32_t subgroup_size = context.target.subgroup_size;
    const std::optional<LaneLayout> a = lane_layout(spread.band_rows, k, Use::A, subgroup_size, distributes_matrices(context));
    const std::optional<LaneLayout> b = lane_layout(k, spread.band_columns, Use::B, subgroup_size);
    const uint32_t most = context.target.unroll_up_to;
    return a && b && a->length <= most && b->length <= most;
}

std::optional<WorkgroupLayout> accumulator_bands(uint32_t rows, uint32_t columns, uint32_t invocations, uint32_t subgroup_size) {
    const uint32_t subgroups = invocations / subgroup_size;
    std::optional<WorkgroupLayout> best;
    uint64_t best_cost = ~uint64_t{0};
    for (uint32_t across = 1; across <= subgroups; ++across) {
        if (subgroups % across != 0 || columns % across != 0 || rows % (subgroups / across) != 0) continue;
        const uint32_t band_rows = rows / (subgroups / across), band_columns = columns / across;
        const std::optional<LaneLayout> layout = lane_layout(band_rows, band_columns, Use::Accumulator, subgroup_size);
        if (!layout) continue;
        // Bands whose elements some invocations repeat (fewer rows than row groups) only where no
        // other fits: they compute those elements more than once.
        const bool repeated = layout->writers() < subgroup_size;
        const uint64_t cost = band_rows + (band_columns + subgroup_size - 1) / subgroup_size + (repeated ? uint64_t{1} << 32 : 0);
        if (cost < best_cost) {
            best_cost = cost;
            best = WorkgroupLayout{invocations, band_rows, band_columns, across};
        }
    }
    return best;
}

std::optional<MatrixType> MatrixTypes::workgroup_type(uint32_t rows, uint32_t columns, Use use, PassContext& context,
                                                      Report error) {
    const uint32_t subgroup_size = context.target.subgroup_size;
    if (!workgroup_size_) workgroup_size_ = workgroup_size(context.module, context.specialization, context.diagnostics);
    if (!*workgroup_size_) {
        error("its workgroup size is unknown");
        return std::nullopt;
    }
    const uint64_t workgroup_invocations =
        uint64_t{(**workgroup_size_)[0]} * (**workgroup_size_)[1] * (**workgroup_size_)[2];
    if (workgroup_invocations == 0) {
        error("its workgroup size has a dimension of 0");
        return std::nullopt;
    }
    if (workgroup_invocations > kMaxWorkgroupInvocations) {
        error(std::format("a workgroup of {} invocations is beyond the lowering's {}", workgroup_invocations,
                          kMaxWorkgroupInvocations));
        return std::nullopt;
    }
    const auto invocations = static_cast<uint32_t>(workgroup_invocations);
    if (invocations % subgroup_size != 0) {
        error(std::format("a workgroup of {} invocations is not whole subgroups of {}", invocations, subgroup_size));
        return std::nullopt;
    }
    if (use != Use::Accumulator) {  // striped
        if ((rows * columns) % invocations != 0) {
            error(std::format("a {}x{} matrix cannot be spread evenly over {} invocations", rows, columns, invocations));
            return std::nullopt;
        }
        const uint32_t length = rows * columns / invocations;
        // Runs of 2 in the GPU layout, and for B where invocations are SIMD lanes: a streamed
        // multiply-add there stages B's 16-bit floats a run to a word (multiply_add.cpp).
        const bool paired = distributes_matrices(context) || (use == Use::B && context.target.simd_lane_invocations);
        const uint32_t run = paired && columns % 2 == 0 && length % 2 == 0 ? 2 : 1;
        return MatrixType{0, {}, rows, columns, use, true, {}, WorkgroupLayout{invocations, 0, 0, 0, run}, length, 0};
    }
    const std::optional<WorkgroupLayout> spread = accumulator_bands(rows, columns, invocations, subgroup_size);
    if (!spread) {
        error(std::format("a {}x{} accumulator cannot be tiled into one band per subgroup ({} subgroups of {})", rows, columns,
                          invocations / subgroup_size, subgroup_size));
        return std::nullopt;
    }
    const LaneLayout layout =
        *lane_layout(spread->band_rows, spread->band_columns, use, subgroup_size, false, distributes_matrices(context));
    return MatrixType{0, {}, rows, columns, use, true, layout, *spread, layout.length, 0};
}

bool MatrixTypes::collect(PassContext& context) {
    ir::Module& module = context.module;
    std::vector<const ir::Instruction*> declarations;
    for (const auto& instruction : module.types_values_constants) {
        if (instruction->opcode() == spv::OpTypeCooperativeMatrixKHR) declarations.push_back(instruction.get());
    }
    bool ok = true;
    for (const ir::Instruction* declaration : declarations) {
        const auto operands = declaration->operand_words();
        const uint32_t id = declaration->result_id();
        const uint32_t offset = declaration->source_offset();
        const std::string text = ir::instruction_text(declaration->words(), module);
        const auto error = [&](std::string message) {
            context.diagnostics.error(std::format("cooperative matrix type %{}: {}", id, message), offset, text);
            ok = false;
        };
        std::optional<uint64_t> values[4];
        for (int i = 0; i < 4; ++i) {
            values[i] = freeze_constant(module, operands[1 + i], context.specialization, context.diagnostics);
            if (!values[i]) ok = false;
        }
        if (!values[0] || !values[1] || !values[2] || !values[3]) continue;
        const std::optional<ComponentInfo> component = component_info(module, operands[0]);
        if (!component) {
            error("the component type is not a scalar number of 8, 16, 32 or 64 bits");
            continue;
        }
        if (*values[0] != spv::ScopeSubgroup && *values[0] != spv::ScopeWorkgroup) {
            error(std::format("scope {} is neither Subgroup nor Workgroup", *values[0]));
            continue;
        }
        if (*values[3] > 2) {
            error(std::format("use {} is not MatrixA, MatrixB or MatrixAccumulator", *values[3]));
            continue;
        }
        if (context.target.subgroup_size == 0) {
            error("the target's subgroup size is unknown; it is needed to spread the matrix over the subgroup");
            continue;
        }
        if (*values[1] == 0 || *values[2] == 0) {
            error(std::format("a {}x{} matrix has no components", *values[1], *values[2]));
            continue;
        }
        if (*values[1] > kMaxDimension || *values[2] > kMaxDimension) {
            error(std::format("a {}x{} matrix is beyond the lowering's {} rows and columns", *values[1], *values[2],
                              kMaxDimension));
            continue;
        }
        const auto rows = static_cast<uint32_t>(*values[1]);
        const auto columns = static_cast<uint32_t>(*values[2]);
        const Use use = static_cast<Use>(*values[3]);
        std::optional<MatrixType> type;
        if (*values[0] == spv::ScopeSubgroup) {
            type = subgroup_type(rows, columns, use, context, error);
        } else {
            type = workgroup_type(rows, columns, use, context, error);
        }
        if (!type) continue;
        if (type->length > kMaxComponentsPerInvocation) {
            error(std::format("a {}x{} matrix would take {} components per invocation, beyond the lowering's {}", rows,
                              columns, type->length, kMaxComponentsPerInvocation));
            continue;
        }
        type->id = id;
        type->component = *component;
        type->lowered = context.types.get_type_array(component->type, context.types.get_constant_uint32(type->length));
        types_.emplace(id, *type);
    }
    band_workgroup_operands(context);
    return ok;
}

void MatrixTypes::band_workgroup_operands(PassContext& context) {
    // Banded copies are read once per subgroup that shares them, A's by every invocation of it:
    // cheap where uniform loads are scalar, not where each invocation loads again (WorkgroupLayout).
    // The GPU layout keeps A and B striped too: a band of each is more than a GPU invocation's
    // registers hold (multiply_add.cpp streams the staged operands instead).
    if (!context.target.scalar_uniform_loads || distributes_matrices(context)) return;
    // Keyed by use and shape, not type, so that conversions between types of one shape (f32 to f16
    // A) keep the layout; a shape paired with accumulators of different bands stays striped.
    using Shape = std::tuple<Use, uint32_t, uint32_t>;
    std::map<Shape, std::optional<WorkgroupLayout>> bands;
    const ir::Module& module = context.module;
    module.for_each_instruction([&](const ir::Instruction& instruction) {
        if (instruction.opcode() != spv::OpCooperativeMatrixMulAddKHR || instruction.operand_words().size() < 3) return;
        const MatrixType* result = find(instruction.type_id());
        if (!result || !result->workgroup || result->use != Use::Accumulator) return;
        // Float bands too long to write out leave both operands striped, for the multiply-add to
        // stream (integer multiply-adds do not stream: staging would only add to their bands).
        const MatrixType* a = of_value(module, instruction.operand_words()[0]);
        std::optional<WorkgroupLayout> spread;
        if (a && (!result->component.is_float || bands_written_out(context, result->spread, a->columns))) spread = result->spread;
        for (const uint32_t operand : instruction.operand_words().first(2)) {
            const MatrixType* m = of_value(module, operand);
            if (!m || !m->workgroup || m->use == Use::Accumulator) continue;
            const auto [known, added] = bands.try_emplace(Shape{m->use, m->rows, m->columns}, spread);
            if (!added && known->second != spread) known->second = std::nullopt;
        }
    });
    const uint32_t subgroup_size = context.target.subgroup_size;
    for (auto& [id, type] : types_) {
        if (!type.workgroup || type.use == Use::Accumulator) continue;
        const auto band = bands.find(Shape{type.use, type.rows, type.columns});
        if (band == bands.end() || !band->second) continue;
        const WorkgroupLayout& spread = *band->second;
        const uint32_t down = spread.invocations / subgroup_size / spread.bands_across;
        const bool is_a = type.use == Use::A;
        // A must have the accumulator's rows, B its columns (a mismatched multiply-add is reported later).
        if (is_a ? type.rows != spread.band_rows * down : type.columns != spread.band_columns * spread.bands_across) continue;
        const std::optional<LaneLayout> layout = is_a ? lane_layout(spread.band_rows, type.columns, Use::A, subgroup_size, distributes_matrices(context))
                                                      : lane_layout(type.rows, spread.band_columns, Use::B, subgroup_size);
        if (!layout || layout->length > kMaxComponentsPerInvocation) continue;
        type.layout = *layout;
        type.spread = spread;
        type.length = layout->length;
        type.lowered = context.types.get_type_array(type.component.type, context.types.get_constant_uint32(type.length));
    }
}

const MatrixType* MatrixTypes::find(uint32_t type_id) const {
    const auto it = types_.find(type_id);
    return it != types_.end() ? &it->second : nullptr;
}

namespace {

// A second declaration of matrix type `id` under a new id, for values of its shape the pass holds
// otherwise (its tiles' plain type, its row values): the pass replaces both by their arrays.
uint32_t declare_copy(ir::Module& module, uint32_t id) {
    const ir::Instruction& declaration = *module.find_definition(id);
    std::vector<uint32_t> words(declaration.words().begin() + 1, declaration.words().end());
    words[0] = module.take_next_id();
    module.types_values_constants.push_back(ir::make_instruction(spv::OpTypeCooperativeMatrixKHR, words));
    module.register_definition(*module.types_values_constants.back());
    return words[0];
}

}  // namespace

uint32_t MatrixTypes::row_values_type(PassContext& context, uint32_t id) {
    for (const auto& [other, type] : types_) {
        if (type.rows_of == id) return other;
    }
    MatrixType rows = types_.at(id);
    rows.id = declare_copy(context.module, id);
    rows.rows_of = id;
    rows.layout = LaneLayout{rows.layout.rows_per_lane, rows.layout.column_lanes, rows.layout.row_groups, 1, rows.layout.rows_per_lane};
    rows.length = rows.layout.length;
    rows.lowered = context.types.get_type_array(rows.component.type, context.types.get_constant_uint32(rows.length));
    types_.emplace(rows.id, rows);
    return rows.id;
}

void MatrixTypes::keep_in_tiles(ir::Module& module, uint32_t id, ResidentTiles tiles) {
    MatrixType& matrix = types_.at(id);
    tiles.plain = declare_copy(module, id);
    MatrixType plain = matrix;
    plain.id = tiles.plain;
    types_.emplace(plain.id, plain);
    matrix.resident = tiles;
}

bool passes_matrices_through(uint32_t opcode) {
    switch (opcode) {
        case spv::OpLoad:
        case spv::OpStore:
        case spv::OpCopyObject:
        case spv::OpCopyLogical:
        case spv::OpPhi:
        case spv::OpSelect:
        case spv::OpCompositeExtract:
        case spv::OpCompositeInsert:
        case spv::OpCompositeConstruct:
        case spv::OpAccessChain:
        case spv::OpInBoundsAccessChain:
        case spv::OpVariable:
        case spv::OpFunction:
        case spv::OpFunctionParameter:
        case spv::OpFunctionCall:
        case spv::OpReturnValue:
        case spv::OpUndef:
        case spv::OpName:
        case spv::OpLine:
        case spv::OpNoLine:
            return true;
        default:
            return false;
    }
}

bool converts_components(uint32_t opcode) {
    switch (opcode) {
        case spv::OpFConvert:
        case spv::OpSConvert:
        case spv::OpUConvert:
        case spv::OpConvertFToS:
        case spv::OpConvertFToU:
        case spv::OpConvertSToF:
        case spv::OpConvertUToF:
            return true;
        default:
            return false;
    }
}

bool only_describes_values(const ir::Module& module, const ir::Instruction& instruction) {
    if (instruction.opcode() != spv::OpExtInst) return false;
    const grammar::ExtInstSetInfo* set = module.ext_inst_set(instruction.word(3));
    return set && set->non_semantic;
}

const MatrixType* MatrixTypes::of_value(const ir::Module& module, uint32_t id) const { return find(module.type_of(id)); }

}  // namespace vkpolyfill::lowering::cooperative_matrix
