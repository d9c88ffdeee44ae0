#include "passes/tile_image/absent_colors.h"

#include <array>
#include <format>
#include <spirv/unified1/spirv.hpp>
#include <unordered_set>

#include "ir/builtin_variable.h"
#include "ir/id_remap.h"
#include "ir/instruction_text.h"

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

    // What reaches the absent variables: their access chains and loads, which go, found to a fixed point
    // (a module nobody validated may use an id before its definition).
    std::unordered_set<uint32_t> reached = absent;
    const auto from_absent = [&](const ir::Instruction& i) { return i.words().size() > 3 && reached.contains(i.word(3)); };
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto& function : module.functions) {
            function->for_each_instruction([&](const ir::Instruction& i) {
                if (derives_pointer_or_image(i.opcode()) && from_absent(i)) grew |= reached.insert(i.result_id()).second;
            });
        }
    }
    // Their reads read zeros; any other use is reported (and the lowering drops the module). Names and
    // decorations go with the ids, and an entry point may list the variables in its interface (not name
    // one as its function).
    ir::remove_names_and_decorations(module, reached);
    const auto rewritten = [&](const ir::Instruction& i) {
        return from_absent(i) && (derives_pointer_or_image(i.opcode()) || i.opcode() == spv::OpColorAttachmentReadEXT);
    };
    report_uses(context, reached, rewritten,
                "a tile image of a color location where the pipeline has no color attachment is used other than by its reads");
    if (context.diagnostics.has_errors()) return kept;

    for (const auto& function : module.functions) {
        for (ir::BasicBlock& block : function->blocks) {
            std::erase_if(block.instructions, [&](const std::unique_ptr<ir::Instruction>& i) {
                return derives_pointer_or_image(i->opcode()) && from_absent(*i);
            });
            for (auto& i : block.instructions) {
                if (!rewritten(*i)) continue;
                const std::array operands{i->type_id(), i->result_id(), context.types.get_constant_null(i->type_id())};
                i = ir::make_instruction(spv::OpCopyObject, operands);
            }
        }
    }
    ir::remove_from_entry_point_interfaces(module, reached);
    ir::remove_global_definitions(module, absent);
    return kept;
}

}  // namespace vkpolyfill::lowering::tile_image
