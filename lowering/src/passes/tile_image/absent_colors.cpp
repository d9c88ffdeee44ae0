#include "passes/tile_image/absent_colors.h"

#include <array>
#include <format>
#include <spirv/unified1/spirv.hpp>
#include <unordered_set>

#include "ir/id_remap.h"
#include "ir/instruction_text.h"
#include "passes/common/id_operands.h"
#include "passes/tile_image/read_operands.h"

namespace vkpolyfill::lowering::tile_image {
namespace {

enum class Presence { All, None, Some };

// Whether the pipeline has attachments at a variable's locations (an array's run of them).
Presence presence(uint32_t color_locations, const TileVariable& v) {
    bool any = false, all = true;
    const uint64_t end = uint64_t{v.location} + v.count;
    for (uint64_t location = v.location; location < end && location < 32; ++location) {
        const bool present = (color_locations >> location) & 1u;
        any |= present;
        all &= present;
    }
    any |= end > 32;  // locations from 32 on count as present
    return all ? Presence::All : any ? Presence::Some : Presence::None;
}

bool derives_pointer_or_image(uint32_t opcode) {
    return opcode == spv::OpLoad || opcode == spv::OpAccessChain || opcode == spv::OpInBoundsAccessChain ||
           opcode == spv::OpCopyObject;
}

std::string locations_text(const TileVariable& v) {
    return v.count == 1 ? std::format("color location {}", v.location)
                        : std::format("color locations {}-{}", v.location, uint64_t{v.location} + v.count - 1);
}

}  // namespace

std::vector<TileVariable> remove_absent_colors(PassContext& context, const std::vector<TileVariable>& variables) {
    ir::Module& module = context.module;
    const uint32_t color_locations = context.target.tile_image.color_locations;
    std::vector<TileVariable> kept;
    std::unordered_set<uint32_t> absent;  // variable ids
    for (const TileVariable& v : variables) {
        switch (presence(color_locations, v)) {
            case Presence::All: kept.push_back(v); break;
            case Presence::None: absent.insert(v.id); break;
            case Presence::Some: {
                const ir::Instruction& definition = *module.find_definition(v.id);
                context.diagnostics.error("a tile-image array covers " + locations_text(v) +
                                              ", and the pipeline has a color attachment at some of them only",
                                          definition.source_offset(), ir::instruction_text(definition.words(), module));
                break;
            }
        }
    }
    if (absent.empty()) return kept;

    // What reaches the absent variables: their access chains and loads (block order has definitions
    // before uses), which go; their reads, which read zeros; and anything else, which is reported.
    std::unordered_set<uint32_t> reached = absent;
    std::unordered_set<const ir::Instruction*> removed;
    std::vector<ir::Instruction*> reads;
    const auto report_use = [&](const ir::Instruction& instruction) {
        if (!refers_to(module, instruction, [&](uint32_t id) { return reached.contains(id); })) return;
        context.diagnostics.error("a tile image of a color location where the pipeline has no color attachment is used other "
                                  "than by its reads",
                                  instruction.source_offset(), ir::instruction_text(instruction.words(), module));
    };
    for (const auto& instruction : module.types_values_constants) {
        if (!absent.contains(instruction->result_id())) report_use(*instruction);  // debug information, say
    }
    for (const auto& function : module.functions) {
        for (ir::BasicBlock& block : function->blocks) {
            for (const auto& instruction : block.instructions) {
                const uint32_t opcode = instruction->opcode();
                const bool from_absent = instruction->words().size() > 3 && reached.contains(instruction->word(3));
                if (from_absent && derives_pointer_or_image(opcode)) {
                    reached.insert(instruction->result_id());
                    removed.insert(instruction.get());
                } else if (from_absent && opcode == spv::OpColorAttachmentReadEXT) {
                    reads.push_back(instruction.get());
                } else {
                    report_use(*instruction);
                }
            }
        }
    }
    if (context.diagnostics.has_errors()) return kept;

    for (ir::Instruction* read : reads) {
        const std::array operands{read->type_id(), read->result_id(), context.types.get_constant_null(read->type_id())};
        *read = *ir::make_instruction(spv::OpCopyObject, operands);
    }
    for (const auto& function : module.functions) {
        for (ir::BasicBlock& block : function->blocks) {
            std::erase_if(block.instructions, [&](const std::unique_ptr<ir::Instruction>& i) { return removed.contains(i.get()); });
        }
    }
    remove_from_interfaces(module, absent);
    ir::remove_global_definitions(module, absent);
    return kept;
}

}  // namespace vkpolyfill::lowering::tile_image
