// lowering::tile_image_usage: what the layer must provide for a lowered fragment shader.
#include <algorithm>
#include <spirv/unified1/spirv.hpp>

#include "ir/parser.h"
#include "passes/tile_image/interlocked_outputs.h"
#include "passes/tile_image/tile_variables.h"
#include "vkpolyfill/lowering/tile_image.h"

namespace vkpolyfill::lowering {
namespace {

// The id of the Fragment entry point named `name`, 0 if there is none.
uint32_t fragment_entry_point(const ir::Module& module, std::string_view name) {
    for (const auto& entry_point : module.entry_points) {
        if (entry_point->word(1) == spv::ExecutionModelFragment &&
            ir::decode_literal_string(entry_point->words().subspan(3)) == name) {
            return entry_point->word(2);
        }
    }
    return 0;
}

void read_execution_modes(const ir::Module& module, uint32_t entry_point, TileImageUsage& usage) {
    usage.coherent_color = usage.coherent_depth = usage.coherent_stencil = true;
    for (const auto& mode : module.execution_modes) {
        if (mode->opcode() != spv::OpExecutionMode || mode->word(1) != entry_point) continue;
        switch (mode->word(2)) {
            case spv::ExecutionModeNonCoherentColorAttachmentReadEXT: usage.coherent_color = false; break;
            case spv::ExecutionModeNonCoherentDepthAttachmentReadEXT: usage.coherent_depth = false; break;
            case spv::ExecutionModeNonCoherentStencilAttachmentReadEXT: usage.coherent_stencil = false; break;
            case spv::ExecutionModeEarlyFragmentTests: usage.early_fragment_tests = true; break;
            default: break;
        }
    }
}

}  // namespace

TileImageUsage tile_image_usage(std::span<const uint32_t> words, std::string_view entry_point) {
    TileImageUsage usage;
    try {
        Diagnostics diagnostics;
        const auto module = ir::parse(words, diagnostics);
        if (!module || !tile_image::declares_tile_image(*module)) {
            usage.ok = module != nullptr;
            if (!module) usage.error = diagnostics.list().front().message;
            return usage;
        }
        const uint32_t id = fragment_entry_point(*module, entry_point);
        if (id == 0) {  // other stages cannot read tile images
            usage.ok = true;
            return usage;
        }
        const std::vector<tile_image::TileVariable> variables = tile_image::find_tile_variables(*module, diagnostics);
        for (const tile_image::TileVariable& v : variables) usage.colors.push_back({v.location, v.count});
        if (diagnostics.has_errors()) {
            usage.error = diagnostics.list().front().message;
            return usage;
        }
        std::ranges::sort(usage.colors, {}, &TileImageColors::location);
        for (const auto& function : module->functions) {
            function->for_each_instruction([&](const ir::Instruction& instruction) {
                usage.depth |= instruction.opcode() == spv::OpDepthAttachmentReadEXT;
                usage.stencil |= instruction.opcode() == spv::OpStencilAttachmentReadEXT;
            });
        }
        read_execution_modes(*module, id, usage);
        usage.interlock_obstacle = tile_image::interlock_obstacle(*module, variables);
        usage.ok = true;
    } catch (...) {  // out of memory: no usage to report
        usage = {};
        usage.error = "out of memory";
    }
    return usage;
}

}  // namespace vkpolyfill::lowering
