#include "coopmat_assembly.h"

#include <stdexcept>

#include <spirv-tools/libspirv.hpp>

namespace vkpolyfill::test::coopmat {
namespace {

struct Declaration {
    const char* capabilities;
    const char* type;
};

Declaration declaration(Component type) {
    switch (type) {
        case VK_COMPONENT_TYPE_FLOAT16_KHR: return {"OpCapability Float16\nOpCapability StorageBuffer16BitAccess\n", "OpTypeFloat 16"};
        case VK_COMPONENT_TYPE_FLOAT32_KHR: return {"", "OpTypeFloat 32"};
        case VK_COMPONENT_TYPE_SINT8_KHR: return {"OpCapability Int8\nOpCapability StorageBuffer8BitAccess\n", "OpTypeInt 8 1"};
        case VK_COMPONENT_TYPE_UINT8_KHR: return {"OpCapability Int8\nOpCapability StorageBuffer8BitAccess\n", "OpTypeInt 8 0"};
        case VK_COMPONENT_TYPE_SINT32_KHR: return {"", "OpTypeInt 32 1"};
        case VK_COMPONENT_TYPE_UINT32_KHR: return {"", "OpTypeInt 32 0"};
        default: throw std::invalid_argument("no assembly declaration for this component type");
    }
}

}  // namespace

std::string module_head(Component type, uint32_t buffers, const std::string& interface, const std::string& decorations) {
    const Declaration d = declaration(type);
    std::string variables, buffer_decorations;
    for (uint32_t i = 0; i < buffers; ++i) {
        const std::string name = "%buffer" + std::to_string(i);
        variables += " " + name;
        buffer_decorations += "OpDecorate " + name + " DescriptorSet 0\nOpDecorate " + name + " Binding " + std::to_string(i) + "\n";
    }
    std::string text = "OpCapability Shader\nOpCapability VulkanMemoryModel\nOpCapability CooperativeMatrixKHR\n" +
                       std::string(d.capabilities) +
                       "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
                       "OpMemoryModel Logical Vulkan\n"
                       "OpEntryPoint GLCompute %main \"main\"" + variables + " " + interface + "\n"
                       "OpExecutionMode %main LocalSize 1 1 1\n"
                       "OpDecorate %wg_x SpecId 0\nOpDecorate %rows SpecId 1\nOpDecorate %cols SpecId 2\nOpDecorate %use SpecId 3\n"
                       "OpDecorate %wg_size BuiltIn WorkgroupSize\n"
                       "OpDecorate %array ArrayStride " + std::to_string(component_bytes(type)) + "\n"
                       "OpDecorate %block Block\nOpMemberDecorate %block 0 Offset 0\n" +
                       buffer_decorations + decorations +
                       "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n%bool = OpTypeBool\n"
                       "%v3uint = OpTypeVector %uint 3\n"
                       "%component = " + d.type + "\n"
                       "%uint_0 = OpConstant %uint 0\n%uint_1 = OpConstant %uint 1\n%subgroup = OpConstant %uint 3\n"
                       "%wg_x = OpSpecConstant %uint 8\n%wg_size = OpSpecConstantComposite %v3uint %wg_x %uint_1 %uint_1\n"
                       "%rows = OpSpecConstant %uint 8\n%cols = OpSpecConstant %uint 8\n%use = OpSpecConstant %uint 2\n"
                       "%matrix = OpTypeCooperativeMatrixKHR %component %subgroup %rows %cols %use\n"
                       "%array = OpTypeRuntimeArray %component\n%block = OpTypeStruct %array\n"
                       "%block_ptr = OpTypePointer StorageBuffer %block\n%element = OpTypePointer StorageBuffer %component\n";
    for (uint32_t i = 0; i < buffers; ++i) text += "%buffer" + std::to_string(i) + " = OpVariable %block_ptr StorageBuffer\n";
    return text;
}

std::vector<uint32_t> assemble(const std::string& text) {
    spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
    std::string errors;
    tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& at, const char* message) {
        errors += "line " + std::to_string(at.line) + ": " + message + "\n";
    });
    std::vector<uint32_t> words;
    if (!tools.Assemble(text, &words)) throw std::runtime_error("assembling a test module failed:\n" + errors + text);
    return words;
}

}  // namespace vkpolyfill::test::coopmat
