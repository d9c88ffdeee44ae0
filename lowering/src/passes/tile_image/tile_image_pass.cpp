#include "passes/tile_image/tile_image_pass.h"

#include <algorithm>
#include <optional>
#include <spirv/unified1/spirv.hpp>

#include "ir/type_dedup.h"
#include "ir/type_order.h"
#include "passes/common/entry_point_reach.h"
#include "passes/tile_image/absent_colors.h"
#include "passes/tile_image/attachment_reads.h"
#include "passes/tile_image/color_array.h"
#include "passes/tile_image/interlocked_outputs.h"
#include "passes/tile_image/read_operands.h"
#include "passes/tile_image/tile_variables.h"

namespace vkpolyfill::lowering {
namespace {

using tile_image::TileVariable;

constexpr uint32_t kSpirv15 = 0x00010500;

constexpr StageRule kFragmentOnly{[](uint32_t model) { return model == spv::ExecutionModelFragment; }, tile_image::is_tile_image_read,
                                  "a fragment shader", "tile images are read by fragment shaders only"};

class TileImagePass final : public Pass {
  public:
    std::string_view name() const override { return "SPV_EXT_shader_tile_image"; }

    bool run(PassContext& context) override {
        const std::vector<TileVariable> declared = tile_image::find_tile_variables(context.module, context.diagnostics);
        if (context.diagnostics.has_errors()) return false;
        if (report_outside_allowed_stages(context.module, kFragmentOnly, context.diagnostics)) return false;
        if (tile_image::report_malformed_reads(context.module, context.diagnostics)) return false;
        const std::vector<TileVariable> variables = tile_image::remove_absent_colors(context, declared);
        if (context.diagnostics.has_errors()) return false;
        ir::Module& module = context.module;
        const TileImageTarget& target = context.target.tile_image;
        std::optional<std::vector<tile_image::ReadOutput>> outputs;
        if (target.interlock && !(outputs = tile_image::interlocked_outputs(context, variables))) return false;
        const tile_image::DynamicElements dynamic = tile_image::gather_colors(context, variables);
        if (context.diagnostics.has_errors()) return false;
        rewrite_types(module, target);

        tile_image::AttachmentReads reads(context, dynamic);
        for (const auto& function : module.functions) {
            for (ir::BasicBlock& block : function->blocks) {
                // Backwards, so the instructions a rewrite inserts never shift the ones still to come.
                for (size_t i = block.instructions.size(); i-- > 0;) reads.lower(block, i);
            }
        }
        if (!reads.remove_dynamic_elements()) return false;
        if (outputs) tile_image::write_outputs_in_interlock(context, *outputs);
        remove_declarations(module);
        module.add_capability(spv::CapabilityInputAttachment);
        // A run-time index into the colors needs their array's dynamic indexing.
        if (!dynamic.empty() && target.dynamic_indexing && target.interlock) {
            module.add_capability(spv::CapabilityStorageImageArrayDynamicIndexing);
        } else if (!dynamic.empty() && target.dynamic_indexing) {
            module.add_capability(spv::CapabilityInputAttachmentArrayDynamicIndexing);
            if (module.header.version < kSpirv15) module.add_extension("SPV_EXT_descriptor_indexing");
        }
        ir::merge_duplicate_types(module);
        ir::sort_types_values_constants(module);
        return true;
    }

  private:
    // Tile images become SubpassData images (multisampled when the pipeline is), or 2D storage images
    // read through an interlock, and the storage class of their pointers and variables UniformConstant,
    // in place: every id that named them still does.
    static void rewrite_types(ir::Module& module, const TileImageTarget& target) {
        for (auto& instruction : module.types_values_constants) {
            switch (instruction->opcode()) {
                case spv::OpTypeImage:
                    if (instruction->word(3) == spv::DimTileImageDataEXT) {
                        instruction->set_word(3, target.interlock ? spv::Dim2D : spv::DimSubpassData);
                        instruction->set_word(6, target.samples > 1 ? 1 : 0);
                    }
                    break;
                case spv::OpTypePointer:
                    if (instruction->word(2) == spv::StorageClassTileImageEXT) instruction->set_word(2, spv::StorageClassUniformConstant);
                    break;
                case spv::OpVariable:
                    if (instruction->word(3) == spv::StorageClassTileImageEXT) instruction->set_word(3, spv::StorageClassUniformConstant);
                    break;
                default:
                    break;
            }
        }
    }

    static void remove_declarations(ir::Module& module) {
        std::erase_if(module.capabilities, [](const std::unique_ptr<ir::Instruction>& i) {
            const uint32_t capability = i->word(1);
            return capability == spv::CapabilityTileImageColorReadAccessEXT ||
                   capability == spv::CapabilityTileImageDepthReadAccessEXT ||
                   capability == spv::CapabilityTileImageStencilReadAccessEXT;
        });
        std::erase_if(module.extensions, [](const std::unique_ptr<ir::Instruction>& i) {
            return ir::decode_literal_string(i->operand_words()) == "SPV_EXT_shader_tile_image";
        });
        std::erase_if(module.execution_modes, [](const std::unique_ptr<ir::Instruction>& i) {
            const uint32_t mode = i->word(2);
            return i->opcode() == spv::OpExecutionMode && (mode == spv::ExecutionModeNonCoherentColorAttachmentReadEXT ||
                                                           mode == spv::ExecutionModeNonCoherentDepthAttachmentReadEXT ||
                                                           mode == spv::ExecutionModeNonCoherentStencilAttachmentReadEXT);
        });
    }
};

}  // namespace

std::unique_ptr<Pass> make_tile_image_pass() { return std::make_unique<TileImagePass>(); }

}  // namespace vkpolyfill::lowering
