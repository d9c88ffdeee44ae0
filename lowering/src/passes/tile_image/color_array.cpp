#include "passes/tile_image/color_array.h"

#include <algorithm>
#include <array>
#include <format>
#include <set>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <unordered_set>

#include "ir/builder.h"
#include "ir/builtin_variable.h"
#include "ir/id_remap.h"
#include "ir/instruction_text.h"
#include "passes/common/id_operands.h"

namespace vkpolyfill::lowering::tile_image {
namespace {

bool is_access_chain(uint32_t opcode) { return opcode == spv::OpAccessChain || opcode == spv::OpInBoundsAccessChain; }

bool is_constant(const ir::Instruction* definition) {
    if (definition == nullptr) return false;
    switch (definition->opcode()) {
        case spv::OpConstant:
        case spv::OpConstantNull:
        case spv::OpSpecConstant:
        case spv::OpSpecConstantOp:
            return true;
        default:
            return false;
    }
}

// A tile-image variable and the array element(s) it becomes.
struct Gathered {
    uint32_t location = 0;
    uint32_t count = 1;
    bool array = false;    // an array of tile images: reached through access chains only
    uint32_t alias = 0;    // the array variable of its image type
    uint32_t element = 0;  // a single image's pointer type
};

class ColorArray {
  public:
    explicit ColorArray(PassContext& context) : context_(context), module_(context.module), types_(context.types) {}

    DynamicElements run(const std::vector<TileVariable>& variables) {
        for (const TileVariable& v : variables) gather(v);
        if (context_.diagnostics.has_errors()) return {};
        std::unordered_set<uint32_t> ids;
        for (const auto& [id, g] : gathered_) ids.insert(id);
        ir::remove_names_and_decorations(module_, ids);
        for (const auto& function : module_.functions) {
            for (const ir::BasicBlock& block : function->blocks) {
                for (const auto& instruction : block.instructions) {
                    if (instruction->opcode() != spv::OpVariable) in_blocks_.insert(instruction.get());
                }
            }
        }
        report_uses(context_, ids, [this](const ir::Instruction& i) { return in_blocks_.contains(&i) && fits(i); },
                    "a tile image is used outside a function's code, or a tile-image array other than as the base of an "
                    "access chain with an integer index");
        if (context_.diagnostics.has_errors()) return {};
        for (const auto& function : module_.functions) rewrite(*function);
        ir::remove_from_entry_point_interfaces(module_, ids);
        ir::remove_global_definitions(module_, ids);
        return std::move(dynamic_);
    }

  private:
    void gather(const TileVariable& v) {
        const ir::Instruction& variable = *module_.find_definition(v.id);
        const ir::Instruction* pointer = module_.find_definition(variable.type_id());
        const ir::Instruction* pointee = pointer ? module_.find_definition(pointer->word(3)) : nullptr;
        const bool array = pointee && pointee->opcode() == spv::OpTypeArray;
        const ir::Instruction* image = array ? module_.find_definition(pointee->word(2)) : pointee;
        if (image == nullptr || image->opcode() != spv::OpTypeImage) {
            return error("a tile-image variable is not an image or an array of images", variable);
        }
        const uint32_t colors = context_.target.tile_image.depth_binding;
        if (uint64_t{v.location} + v.count > colors) {
            return error(std::format("a tile image of color location {} lies beyond the {} color locations of the layer's set",
                                     uint64_t{v.location} + v.count - 1, colors),
                         variable);
        }
        const uint32_t image_type = image->result_id();
        uint32_t& alias = aliases_[image_type];
        if (!alias) {
            const uint32_t length = types_.get_constant_uint32(colors);
            // Read through an interlock, the colors are storage images at their own binding.
            const TileImageTarget& target = context_.target.tile_image;
            const uint32_t binding = target.interlock ? target.depth_binding + 2 : 0;
            alias = add_layer_variable(context_, types_.get_type_array(image_type, length), binding);
            if (!target.interlock) {
                module_.annotations.push_back(
                    ir::make_instruction(spv::OpDecorate, std::array{alias, uint32_t{spv::DecorationInputAttachmentIndex}, 0u}));
            }
        }
        // A single image's pointer keeps the variable's pointer type (UniformConstant once the pass has
        // rewritten it): the type of any function parameter it is passed to. Pointer types are not merged.
        gathered_[v.id] = {v.location, v.count, array, alias, array ? 0u : pointer->result_id()};
    }

    // What a function may do with a tile image: anything with a single one (it gets a pointer to its
    // element), access chains with an index into an array.
    bool fits(const ir::Instruction& i) const {
        const auto words = i.words();
        return !refers_to(module_, i, [&](uint32_t id) {
            const auto found = gathered_.find(id);
            if (found == gathered_.end() || !found->second.array) return false;
            const bool base_only = is_access_chain(i.opcode()) && words.size() > 4 && i.word(3) == id &&
                                   std::find(words.begin() + 4, words.end(), id) == words.end();
            return !(base_only && integer_type(i.word(4)));
        });
    }

    // The type of an integer value, else null.
    const ir::Instruction* integer_type(uint32_t value) const {
        const ir::Instruction* definition = module_.find_definition(value);
        const ir::Instruction* type = definition ? module_.find_definition(definition->type_id()) : nullptr;
        return type && type->opcode() == spv::OpTypeInt ? type : nullptr;
    }

    void rewrite(ir::Function& function) {
        // The single tile images the function names, each a pointer to its element made after the
        // entry block's leading variables (so it dominates every use, phis included, and precedes any
        // in a module that puts code before a variable); ordered for stable ids.
        std::set<uint32_t> named;
        function.for_each_instruction([&](const ir::Instruction& i) {
            refers_to(module_, i, [&](uint32_t id) {
                const auto found = gathered_.find(id);
                if (found != gathered_.end() && !found->second.array) named.insert(id);
                return false;
            });
        });
        ir::IdMap pointers;
        if (!named.empty()) {
            ir::BasicBlock& entry = function.blocks.front();
            size_t at = 1;  // after the OpLabel
            while (at < entry.instructions.size() && entry.instructions[at]->opcode() == spv::OpVariable) ++at;
            ir::Builder builder(module_, entry, at);
            for (const uint32_t id : named) {
                const Gathered& g = gathered_.at(id);
                pointers[id] = builder.add(spv::OpAccessChain, g.element, {g.alias, types_.get_constant_uint32(g.location)});
            }
        }
        for (ir::BasicBlock& block : function.blocks) {
            // Backwards, so an index computed before an access chain never shifts the ones still to come.
            for (size_t i = block.instructions.size(); i-- > 0;) {
                ir::Instruction& instruction = *block.instructions[i];
                const auto found = is_access_chain(instruction.opcode()) ? gathered_.find(instruction.word(3)) : gathered_.end();
                if (found != gathered_.end() && found->second.array) {
                    const Gathered& g = found->second;
                    const bool constant = is_constant(module_.find_definition(instruction.word(4)));
                    const uint32_t index = shifted_index(block, i, instruction.word(4), g.location);
                    instruction.set_word(3, g.alias);
                    instruction.set_word(4, index);
                    if (!constant) dynamic_[instruction.result_id()] = {g.alias, g.location, g.count, index};
                }
                if (!pointers.empty()) ir::remap_id_operands(instruction, pointers, module_);
            }
        }
    }

    // `index` + `location`, of the index's type: folded for a 32-bit constant, a specialization
    // constant for other constants, an OpIAdd before the access chain otherwise.
    uint32_t shifted_index(ir::BasicBlock& block, size_t at, uint32_t index, uint32_t location) {
        const ir::Instruction* type = integer_type(index);  // fits() made sure
        if (location == 0 || type == nullptr) return index;
        const ir::Instruction* definition = module_.find_definition(index);
        const uint32_t width = type->word(2);
        const uint32_t type_id = type->result_id();
        const uint32_t offset = width == 64 ? types_.get_constant(type_id, std::array{location, 0u})
                                            : types_.get_constant(type_id, std::array{location});
        switch (definition->opcode()) {
            case spv::OpConstant:
                if (width == 32) return types_.get_constant(type_id, std::array{definition->word(3) + location});
                [[fallthrough]];
            case spv::OpConstantNull:
            case spv::OpSpecConstant:
            case spv::OpSpecConstantOp: {
                const uint32_t sum = module_.take_next_id();
                module_.types_values_constants.push_back(ir::make_instruction(
                    spv::OpSpecConstantOp, std::array{type_id, sum, uint32_t{spv::OpIAdd}, index, offset}));
                module_.register_definition(*module_.types_values_constants.back());
                return sum;
            }
            default: {
                ir::Builder builder(module_, block, at);
                return builder.add(spv::OpIAdd, type_id, {index, offset});
            }
        }
    }

    void error(const std::string& message, const ir::Instruction& instruction) {
        context_.diagnostics.error(message, instruction.source_offset(), ir::instruction_text(instruction.words(), module_));
    }

    PassContext& context_;
    ir::Module& module_;
    ir::TypeManager& types_;
    std::unordered_map<uint32_t, Gathered> gathered_;       // by variable id
    std::unordered_map<uint32_t, uint32_t> aliases_;        // image type -> its array variable
    std::unordered_set<const ir::Instruction*> in_blocks_;  // the functions' instructions but their variables
    DynamicElements dynamic_;
};

}  // namespace

DynamicElements gather_colors(PassContext& context, const std::vector<TileVariable>& variables) {
    return ColorArray(context).run(variables);
}

}  // namespace vkpolyfill::lowering::tile_image
