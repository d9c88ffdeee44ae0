#include "passes/tile_image/interlocked_outputs.h"

#include <array>
#include <format>
#include <span>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <unordered_set>

#include "ir/builtin_variable.h"
#include "ir/decorations.h"
#include "ir/function_builder.h"

namespace vkpolyfill::lowering::tile_image {
namespace {

const ir::Instruction* pointee(const ir::Module& module, uint32_t variable) {
    const ir::Instruction* definition = module.find_definition(variable);
    const ir::Instruction* pointer = definition ? module.find_definition(definition->type_id()) : nullptr;
    return pointer ? module.find_definition(pointer->word(3)) : nullptr;
}

// The sampled type of a tile-image variable (of its elements, for an array).
uint32_t sampled_type(const ir::Module& module, const TileVariable& v) {
    const ir::Instruction* type = pointee(module, v.id);
    if (type && type->opcode() == spv::OpTypeArray) type = module.find_definition(type->word(2));
    return type && type->opcode() == spv::OpTypeImage ? type->word(2) : 0;
}

const TileVariable* reading(const std::vector<TileVariable>& variables, uint32_t location) {
    for (const TileVariable& v : variables) {
        if (location >= v.location && location - v.location < v.count) return &v;
    }
    return nullptr;
}

// The locations an output spans: an array's length (all that follow, if not a constant), else 1.
uint32_t span(const ir::Module& module, const ir::Instruction& type) {
    if (type.opcode() != spv::OpTypeArray) return 1;
    const ir::Instruction* length = module.find_definition(type.word(3));
    return length && length->opcode() == spv::OpConstant ? length->word(3) : ~0u;
}

bool reads_any(const std::vector<TileVariable>& variables, uint32_t first, uint32_t count) {
    for (const TileVariable& v : variables) {
        if (first < uint64_t{v.location} + v.count && v.location < uint64_t{first} + count) return true;
    }
    return false;
}

bool is_fragment_test_output(uint32_t builtin) {
    return builtin == spv::BuiltInFragDepth || builtin == spv::BuiltInFragStencilRefEXT || builtin == spv::BuiltInSampleMask;
}

// The outputs of the read locations; the obstacle, if any, in `obstacle`.
std::vector<ReadOutput> read_outputs(const ir::Module& module, const std::vector<TileVariable>& variables, std::string& obstacle) {
    std::vector<ReadOutput> outputs;
    std::unordered_set<uint32_t> written;
    for (const auto& instruction : module.types_values_constants) {
        if (instruction->opcode() != spv::OpVariable || instruction->word(3) != spv::StorageClassOutput) continue;
        const uint32_t id = instruction->result_id();
        if (const auto builtin = ir::find_decoration(module, id, spv::DecorationBuiltIn); builtin && is_fragment_test_output(*builtin)) {
            obstacle = "it writes depth, stencil or the sample mask (the fragment tests must run before the shader)";
            return {};
        }
        const auto location = ir::find_decoration(module, id, spv::DecorationLocation);
        const ir::Instruction* type = pointee(module, id);
        if (!location || type == nullptr) continue;
        const uint32_t locations = span(module, *type);
        if (!reads_any(variables, *location, locations)) continue;
        const TileVariable* read = reading(variables, *location);
        if (locations > 1 || ir::find_decoration(module, id, spv::DecorationComponent) || !written.insert(*location).second) {
            obstacle = std::format("it writes color location {} through an output array or components", *location);
            return {};
        }
        const bool vector = type->opcode() == spv::OpTypeVector;
        const uint32_t component_type = vector ? type->word(2) : type->result_id();
        if (component_type != sampled_type(module, *read)) {
            obstacle = std::format("its output at color location {} is not of its tile image's component type", *location);
            return {};
        }
        outputs.push_back({id, *location, type->result_id(), component_type, vector ? type->word(3) : 1});
    }
    return outputs;
}

// The storage image array of each sampled type at the layer's color storage binding.
std::unordered_map<uint32_t, uint32_t> storage_arrays(const ir::Module& module, const TileImageTarget& target) {
    std::unordered_map<uint32_t, uint32_t> arrays;
    for (const auto& instruction : module.types_values_constants) {
        if (instruction->opcode() != spv::OpVariable || instruction->word(3) != spv::StorageClassUniformConstant) continue;
        const uint32_t id = instruction->result_id();
        if (ir::find_decoration(module, id, spv::DecorationDescriptorSet) != target.descriptor_set ||
            ir::find_decoration(module, id, spv::DecorationBinding) != target.depth_binding + 2) {
            continue;
        }
        const ir::Instruction* array = pointee(module, id);
        const ir::Instruction* image = array ? module.find_definition(array->word(2)) : nullptr;
        if (image) arrays[image->word(2)] = id;
    }
    return arrays;
}

uint32_t texel(PassContext& context, ir::Builder& builder, const ReadOutput& output) {
    ir::TypeManager& types = context.types;
    const uint32_t value = builder.add(spv::OpLoad, output.value_type, {output.variable});
    if (output.components == 4) return value;
    std::vector<uint32_t> constituents{value};
    const uint32_t zero = types.get_constant_null(output.component_type);
    constituents.resize(1 + 4 - output.components, zero);
    return builder.add(spv::OpCompositeConstruct, types.get_type_vector(output.component_type, 4), constituents);
}

// The outputs' writes to their storage images (`images` and `texels`) at each sample the invocation
// covers after the early tests (PostDepthCoverage), as the attachment writes they replace.
void write_covered_samples(PassContext& context, ir::FunctionBuilder& wrapper, uint32_t coordinate, std::span<const uint32_t> images,
                           std::span<const uint32_t> texels) {
    ir::Module& module = context.module;
    ir::TypeManager& types = context.types;
    const uint32_t int_type = types.get_type_int(32, true);
    const uint32_t mask_array = types.get_type_array(int_type, types.get_constant_uint32(1));
    const uint32_t mask_variable = ir::get_builtin_input(module, types, spv::BuiltInSampleMask, mask_array);
    const uint32_t mask_type = pointee(module, mask_variable)->word(2);  // int, or the uint of the module's own
    const uint32_t pointer = wrapper.body().add(spv::OpAccessChain, types.get_type_pointer(spv::StorageClassInput, mask_type),
                                                {mask_variable, types.get_constant_uint32(0)});
    const uint32_t mask = wrapper.body().add(spv::OpLoad, mask_type, {pointer});
    const uint32_t sample = wrapper.begin_loop(types.get_constant_uint32(context.target.tile_image.samples));
    const uint32_t shifted = wrapper.body().add(spv::OpShiftRightLogical, mask_type, {mask, sample});
    const uint32_t one = types.get_constant(mask_type, std::array{1u});
    const uint32_t bit = wrapper.body().add(spv::OpBitwiseAnd, mask_type, {shifted, one});
    wrapper.begin_if(wrapper.body().add(spv::OpINotEqual, types.get_type_bool(), {bit, types.get_constant_null(mask_type)}));
    for (size_t i = 0; i < images.size(); ++i) {
        wrapper.body().add(spv::OpImageWrite, 0, {images[i], coordinate, texels[i], spv::ImageOperandsSampleMask, sample});
    }
    wrapper.end_if();
    wrapper.end_loop();
}

void add_execution_mode(ir::Module& module, uint32_t entry_point, spv::ExecutionMode mode) {
    for (const auto& existing : module.execution_modes) {
        if (existing->opcode() == spv::OpExecutionMode && existing->word(1) == entry_point && existing->word(2) == mode) return;
    }
    module.execution_modes.push_back(ir::make_instruction(spv::OpExecutionMode, std::array{entry_point, uint32_t{mode}}));
}

}  // namespace

std::string interlock_obstacle(const ir::Module& module, const std::vector<TileVariable>& variables) {
    if (module.memory_model.empty() || module.memory_model.front()->word(2) == spv::MemoryModelVulkan) {
        return "it uses the Vulkan memory model";
    }
    std::string obstacle;
    module.for_each_instruction([&](const ir::Instruction& i) {
        switch (i.opcode()) {
            case spv::OpKill:
            case spv::OpTerminateInvocation:
            case spv::OpDemoteToHelperInvocation:
                obstacle = "it discards or demotes fragments (its outputs would already be written)";
                break;
            case spv::OpBeginInvocationInterlockEXT:
                obstacle = "it uses a fragment shader interlock itself";
                break;
            default:
                break;
        }
    });
    if (!obstacle.empty()) return obstacle;
    read_outputs(module, variables, obstacle);
    return obstacle;
}

uint32_t pixel_coordinate(PassContext& context, ir::Builder& builder) {
    ir::TypeManager& types = context.types;
    const uint32_t float_type = types.get_type_float(ir::kFloat32);
    const uint32_t int_type = types.get_type_int(32, true);
    const uint32_t vec4 = types.get_type_vector(float_type, 4);
    const uint32_t frag_coord = ir::get_builtin_input(context.module, types, spv::BuiltInFragCoord, vec4);
    const uint32_t position = builder.add(spv::OpLoad, vec4, {frag_coord});
    const uint32_t xy = builder.add(spv::OpVectorShuffle, types.get_type_vector(float_type, 2), {position, position, 0, 1});
    return builder.add(spv::OpConvertFToS, types.get_type_vector(int_type, 2), {xy});
}

std::optional<std::vector<ReadOutput>> interlocked_outputs(PassContext& context, const std::vector<TileVariable>& variables) {
    const ir::Module& module = context.module;
    std::string obstacle = interlock_obstacle(module, variables);
    std::vector<ReadOutput> outputs;
    if (obstacle.empty()) outputs = read_outputs(module, variables, obstacle);
    if (obstacle.empty()) return outputs;
    context.diagnostics.error("coherent tile-image reads cannot be ordered by a fragment shader interlock: " + obstacle);
    return std::nullopt;
}

void write_outputs_in_interlock(PassContext& context, const std::vector<ReadOutput>& outputs) {
    ir::Module& module = context.module;
    const std::unordered_map<uint32_t, uint32_t> arrays = storage_arrays(module, context.target.tile_image);
    ir::TypeManager& types = context.types;
    const uint32_t void_type = types.get_type_void();
    const bool multisampled = context.target.tile_image.samples > 1;
    for (const auto& entry_point : module.entry_points) {
        if (entry_point->word(1) != spv::ExecutionModelFragment) continue;
        const uint32_t application = entry_point->word(2);
        ir::FunctionBuilder wrapper(module, types, void_type, {});
        wrapper.body().add(spv::OpBeginInvocationInterlockEXT, 0, {});
        wrapper.body().add(spv::OpFunctionCall, void_type, {application});
        const uint32_t coordinate = pixel_coordinate(context, wrapper.body());
        std::vector<uint32_t> images, texels;
        for (const ReadOutput& output : outputs) {
            const auto array = arrays.find(output.component_type);
            if (array == arrays.end()) continue;  // no tile image of that type: its location has no attachment
            const uint32_t image_type = pointee(module, array->second)->word(2);
            const uint32_t pointer = wrapper.body().add(spv::OpAccessChain,
                                                        types.get_type_pointer(spv::StorageClassUniformConstant, image_type),
                                                        {array->second, types.get_constant_uint32(output.location)});
            images.push_back(wrapper.body().add(spv::OpLoad, image_type, {pointer}));
            texels.push_back(texel(context, wrapper.body(), output));
        }
        if (multisampled) {
            write_covered_samples(context, wrapper, coordinate, images, texels);
        } else {
            for (size_t i = 0; i < images.size(); ++i) wrapper.body().add(spv::OpImageWrite, 0, {images[i], coordinate, texels[i]});
        }
        wrapper.body().add(spv::OpEndInvocationInterlockEXT, 0, {});
        const uint32_t entry = wrapper.id();
        wrapper.finish(0);
        entry_point->set_word(2, entry);
        for (const auto& mode : module.execution_modes) {
            if (mode->word(1) == application) mode->set_word(1, entry);
        }
        add_execution_mode(module, entry, spv::ExecutionModePixelInterlockOrderedEXT);
        add_execution_mode(module, entry, spv::ExecutionModeEarlyFragmentTests);
        if (multisampled) add_execution_mode(module, entry, spv::ExecutionModePostDepthCoverage);
    }
    for (const auto& [type, array] : arrays) {
        module.annotations.push_back(ir::make_instruction(spv::OpDecorate, std::array{array, uint32_t{spv::DecorationCoherent}}));
    }
    module.add_capability(spv::CapabilityFragmentShaderPixelInterlockEXT);
    module.add_capability(spv::CapabilityStorageImageReadWithoutFormat);
    module.add_capability(spv::CapabilityStorageImageWriteWithoutFormat);
    module.add_extension("SPV_EXT_fragment_shader_interlock");
    if (multisampled) {
        module.add_capability(spv::CapabilityStorageImageMultisample);
        module.add_capability(spv::CapabilitySampleMaskPostDepthCoverage);
        module.add_extension("SPV_KHR_post_depth_coverage");
    }
}

}  // namespace vkpolyfill::lowering::tile_image
