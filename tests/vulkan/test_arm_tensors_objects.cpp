// Tensor and tensor-view objects: creation of valid descriptions (packed, strided, optimal), memory
// requirements, binds, dedicated allocations, views, names; and every checked rule of
// VkTensorCreateInfoARM / VkTensorDescriptionARM refused with VK_ERROR_VALIDATION_FAILED_EXT and a
// message naming the rule.
#include <functional>
#include <string>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "arm_tensor_device.h"
#include "coverage_tags.h"

namespace vkpolyfill::test {
namespace {

VkMemoryRequirements tensor_requirements(Context& c, VkTensorARM tensor) {
    VkTensorMemoryRequirementsInfoARM info = vku::InitStructHelper();
    info.tensor = tensor;
    VkMemoryRequirements2 requirements = vku::InitStructHelper();
    c.vk.vkGetTensorMemoryRequirementsARM(c.device, &info, &requirements);
    return requirements.memoryRequirements;
}

TEST(ArmTensorsObjects, PackedStridedAndOptimalTensorsHaveTheMemoryTheirLayoutsNeed) {
    TensorDevice device;
    Context& c = device.context();
    struct Case {
        std::vector<int64_t> dimensions, strides;
        VkFormat format;
        uint64_t bytes;  // the specification's extent: strides[0] * dimensions[0]
    };
    const Case cases[] = {
        {{2, 3, 5}, {}, VK_FORMAT_R32_SFLOAT, 2 * 3 * 5 * 4},
        {{2, 3, 5}, {64, 16, 2}, VK_FORMAT_R16_SINT, 128},
        {{7}, {1}, VK_FORMAT_R8_UINT, 7},
        {{1, 2, 1, 2, 1, 2, 1, 2}, {}, VK_FORMAT_R64_UINT, 16 * 8},
    };
    for (const Case& k : cases) {
        const VkTensorDescriptionARM description =
            tensor_description(k.format, k.dimensions, k.strides, VK_TENSOR_USAGE_SHADER_BIT_ARM | VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM);
        VkTensorCreateInfoARM info = vku::InitStructHelper();
        info.pDescription = &description;
        VkTensorARM tensor = VK_NULL_HANDLE;
        ASSERT_EQ(c.vk.vkCreateTensorARM(c.device, &info, nullptr, &tensor), VK_SUCCESS);
        const VkMemoryRequirements requirements = tensor_requirements(c, tensor);
        EXPECT_GE(requirements.size, k.bytes);
        EXPECT_NE(requirements.memoryTypeBits, 0u);
        // The device-level query answers the same without a tensor.
        VkDeviceTensorMemoryRequirementsARM device_info = vku::InitStructHelper();
        device_info.pCreateInfo = &info;
        VkMemoryRequirements2 from_info = vku::InitStructHelper();
        c.vk.vkGetDeviceTensorMemoryRequirementsARM(c.device, &device_info, &from_info);
        covers("vkGetDeviceTensorMemoryRequirementsARM");
        EXPECT_EQ(from_info.memoryRequirements.size, requirements.size);
        EXPECT_EQ(from_info.memoryRequirements.alignment, requirements.alignment);
        c.vk.vkDestroyTensorARM(c.device, tensor, nullptr);
    }
}

TEST(ArmTensorsObjects, SeveralTensorsBindAtOnceAndDedicatedAllocationsWork) {
    TensorDevice device;
    Context& c = device.context();
    const std::vector<int64_t> dimensions{16, 16};
    const VkTensorDescriptionARM description = tensor_description(VK_FORMAT_R32_UINT, dimensions, {}, VK_TENSOR_USAGE_SHADER_BIT_ARM);
    VkTensorCreateInfoARM info = vku::InitStructHelper();
    info.pDescription = &description;
    VkTensorARM tensors[3];
    for (VkTensorARM& t : tensors) ASSERT_EQ(c.vk.vkCreateTensorARM(c.device, &info, nullptr, &t), VK_SUCCESS);
    const VkMemoryRequirements requirements = tensor_requirements(c, tensors[0]);

    // Two tensors in one allocation, the third in memory dedicated to it.
    const VkDeviceSize stride = (requirements.size + requirements.alignment - 1) / requirements.alignment * requirements.alignment;
    VkMemoryAllocateInfo shared = vku::InitStructHelper();
    shared.allocationSize = 2 * stride;
    shared.memoryTypeIndex = static_cast<uint32_t>(std::countr_zero(requirements.memoryTypeBits));
    VkDeviceMemory memory[2];
    ASSERT_EQ(c.vk.vkAllocateMemory(c.device, &shared, nullptr, &memory[0]), VK_SUCCESS);
    VkMemoryDedicatedAllocateInfoTensorARM dedicated_info = vku::InitStructHelper();
    dedicated_info.tensor = tensors[2];
    VkMemoryAllocateInfo dedicated = vku::InitStructHelper(&dedicated_info);
    dedicated.allocationSize = requirements.size;
    dedicated.memoryTypeIndex = shared.memoryTypeIndex;
    ASSERT_EQ(c.vk.vkAllocateMemory(c.device, &dedicated, nullptr, &memory[1]), VK_SUCCESS);
    VkBindTensorMemoryInfoARM binds[3];
    for (int i = 0; i < 3; ++i) {
        binds[i] = vku::InitStructHelper();
        binds[i].tensor = tensors[i];
        binds[i].memory = i < 2 ? memory[0] : memory[1];
        binds[i].memoryOffset = i < 2 ? i * stride : 0;
    }
    EXPECT_EQ(c.vk.vkBindTensorMemoryARM(c.device, 3, binds), VK_SUCCESS);
    // A second bind of the same tensor is refused and named.
    EXPECT_EQ(c.vk.vkBindTensorMemoryARM(c.device, 1, &binds[0]), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", "pBindInfos[0].tensor"), 1u) << device.messages.dump();

    // Views of bound tensors, named like any object.
    VkTensorViewCreateInfoARM view_info = vku::InitStructHelper();
    view_info.tensor = tensors[1];
    view_info.format = VK_FORMAT_R32_UINT;
    VkTensorViewARM view = VK_NULL_HANDLE;
    ASSERT_EQ(c.vk.vkCreateTensorViewARM(c.device, &view_info, nullptr, &view), VK_SUCCESS);
    VkDebugUtilsObjectNameInfoEXT name = vku::InitStructHelper();
    name.objectType = VK_OBJECT_TYPE_TENSOR_ARM;
    name.objectHandle = reinterpret_cast<uint64_t>(tensors[1]);
    name.pObjectName = "weights";
    EXPECT_EQ(vkSetDebugUtilsObjectNameEXT(c.device, &name), VK_SUCCESS);
    name.objectType = VK_OBJECT_TYPE_TENSOR_VIEW_ARM;
    name.objectHandle = reinterpret_cast<uint64_t>(view);
    EXPECT_EQ(vkSetDebugUtilsObjectNameEXT(c.device, &name), VK_SUCCESS);
    // A view's format must be its tensor's (no VK_TENSOR_CREATE_MUTABLE_FORMAT_BIT_ARM).
    view_info.format = VK_FORMAT_R32_SFLOAT;
    VkTensorViewARM refused = VK_NULL_HANDLE;
    EXPECT_EQ(c.vk.vkCreateTensorViewARM(c.device, &view_info, nullptr, &refused), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", "MUTABLE_FORMAT"), 1u) << device.messages.dump();

    c.vk.vkDestroyTensorViewARM(c.device, view, nullptr);
    for (VkTensorARM t : tensors) c.vk.vkDestroyTensorARM(c.device, t, nullptr);
    for (VkDeviceMemory m : memory) c.vk.vkFreeMemory(c.device, m, nullptr);
}

TEST(ArmTensorsObjects, AMutableFormatTensorHasViewsOfEveryFormatOfItsElementSize) {
    TensorDevice device;
    Context& c = device.context();
    const std::vector<int64_t> dimensions{6, 2};
    const VkTensorDescriptionARM description = tensor_description(VK_FORMAT_R32_UINT, dimensions, {}, VK_TENSOR_USAGE_SHADER_BIT_ARM);
    VkTensorCreateInfoARM info = vku::InitStructHelper();
    info.flags = VK_TENSOR_CREATE_MUTABLE_FORMAT_BIT_ARM;
    info.pDescription = &description;
    VkTensorARM tensor = VK_NULL_HANDLE;
    ASSERT_EQ(c.vk.vkCreateTensorARM(c.device, &info, nullptr, &tensor), VK_SUCCESS);
    VkTensorViewCreateInfoARM view_info = vku::InitStructHelper();
    view_info.tensor = tensor;
    view_info.format = VK_FORMAT_R32_SFLOAT;
    VkTensorViewARM view = VK_NULL_HANDLE;
    // Not yet bound: refused.
    EXPECT_EQ(c.vk.vkCreateTensorViewARM(c.device, &view_info, nullptr, &view), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", "must be bound to memory"), 1u) << device.messages.dump();
    const VkMemoryRequirements requirements = tensor_requirements(c, tensor);
    VkMemoryAllocateInfo allocate = vku::InitStructHelper();
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = static_cast<uint32_t>(std::countr_zero(requirements.memoryTypeBits));
    VkDeviceMemory memory;
    ASSERT_EQ(c.vk.vkAllocateMemory(c.device, &allocate, nullptr, &memory), VK_SUCCESS);
    VkBindTensorMemoryInfoARM bind = vku::InitStructHelper();
    bind.tensor = tensor;
    bind.memory = memory;
    ASSERT_EQ(c.vk.vkBindTensorMemoryARM(c.device, 1, &bind), VK_SUCCESS);
    EXPECT_EQ(c.vk.vkCreateTensorViewARM(c.device, &view_info, nullptr, &view), VK_SUCCESS);
    view_info.format = VK_FORMAT_R16_UINT;  // another element size
    VkTensorViewARM refused = VK_NULL_HANDLE;
    EXPECT_EQ(c.vk.vkCreateTensorViewARM(c.device, &view_info, nullptr, &refused), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", "element size of the tensor's format (4 bytes)"), 1u) << device.messages.dump();
    // Unknown handles are named, not followed.
    c.vk.vkDestroyTensorViewARM(c.device, reinterpret_cast<VkTensorViewARM>(uintptr_t{0xbad0}), nullptr);
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", "is not a tensor view of this device"), 1u) << device.messages.dump();
    c.vk.vkDestroyTensorViewARM(c.device, view, nullptr);
    c.vk.vkDestroyTensorARM(c.device, tensor, nullptr);
    c.vk.vkFreeMemory(c.device, memory, nullptr);
}

struct InvalidCase {
    const char* name;
    const char* vuid;  // what the message must name
    std::function<void(VkTensorCreateInfoARM&, VkTensorDescriptionARM&, std::vector<int64_t>& dimensions, std::vector<int64_t>& strides)>
        spoil;
};

class ArmTensorsInvalid : public testing::TestWithParam<InvalidCase> {};

TEST_P(ArmTensorsInvalid, IsRefusedWithAMessageNamingTheRule) {
    TensorDevice device;
    Context& c = device.context();
    std::vector<int64_t> dimensions{4, 8};
    std::vector<int64_t> strides{64, 4};
    VkTensorDescriptionARM description =
        tensor_description(VK_FORMAT_R32_SFLOAT, dimensions, strides, VK_TENSOR_USAGE_SHADER_BIT_ARM);
    VkTensorCreateInfoARM info = vku::InitStructHelper();
    info.pDescription = &description;
    GetParam().spoil(info, description, dimensions, strides);
    description.pDimensions = dimensions.data();
    if (description.pStrides) description.pStrides = strides.data();
    VkTensorARM tensor = reinterpret_cast<VkTensorARM>(uintptr_t{0x1234});
    EXPECT_EQ(c.vk.vkCreateTensorARM(c.device, &info, nullptr, &tensor), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_EQ(tensor, VK_NULL_HANDLE);
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", GetParam().vuid), 1u) << device.messages.dump();
    // The device-level memory query says the same and answers nothing.
    VkDeviceTensorMemoryRequirementsARM query = vku::InitStructHelper();
    query.pCreateInfo = &info;
    VkMemoryRequirements2 requirements = vku::InitStructHelper();
    c.vk.vkGetDeviceTensorMemoryRequirementsARM(c.device, &query, &requirements);
    EXPECT_EQ(requirements.memoryRequirements.size, 0u);
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", GetParam().vuid), 2u) << device.messages.dump();
}

using D = VkTensorDescriptionARM;
using I = VkTensorCreateInfoARM;
using V = std::vector<int64_t>;
INSTANTIATE_TEST_SUITE_P(
    Rules, ArmTensorsInvalid,
    testing::Values(
        InvalidCase{"OptimalWithStrides", "VUID-VkTensorCreateInfoARM-pDescription-09720",
                    [](I&, D& d, V&, V&) { d.tiling = VK_TENSOR_TILING_OPTIMAL_ARM; }},
        InvalidCase{"TooManyElements", "VUID-VkTensorCreateInfoARM-tensorElements-09721",
                    [](I&, D& d, V& dims, V&) {
                        dims = {1 << 20, 1 << 20};
                        d.pStrides = nullptr;
                    }},
        InvalidCase{"ConcurrentWithOneFamily", "VUID-VkTensorCreateInfoARM-sharingMode-09723",
                    [](I& i, D&, V&, V&) {
                        static const uint32_t family = 0;
                        i.sharingMode = VK_SHARING_MODE_CONCURRENT;
                        i.queueFamilyIndexCount = 1;
                        i.pQueueFamilyIndices = &family;
                    }},
        InvalidCase{"ProtectedWithoutTheFeature", "VUID-VkTensorCreateInfoARM-protectedMemory-09729",
                    [](I& i, D&, V&, V&) { i.flags = VK_TENSOR_CREATE_PROTECTED_BIT_ARM; }},
        InvalidCase{"CaptureReplay", "VUID-VkTensorCreateInfoARM-flags-09726",
                    [](I& i, D&, V&, V&) { i.flags = VK_TENSOR_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM; }},
        InvalidCase{"ImageAliasingUsage", "VUID-VkTensorCreateInfoARM-pDescription-09728",
                    [](I&, D& d, V&, V&) {
                        d.tiling = VK_TENSOR_TILING_OPTIMAL_ARM;
                        d.pStrides = nullptr;
                        d.usage = VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM;
                    }},
        InvalidCase{"ShaderUsageOfBfloat16", "VUID-VkTensorCreateInfoARM-pDescription-09728",
                    [](I&, D& d, V&, V& s) {
                        d.format = VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM;
                        s = {32, 2};
                    }},
        InvalidCase{"AliasingWithLinearTiling", "VUID-VkTensorDescriptionARM-tiling-09742",
                    [](I&, D& d, V&, V&) { d.usage = VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM; }},
        InvalidCase{"NoDimensions", "VUID-VkTensorDescriptionARM-dimensionCount-arraylength", [](I&, D& d, V&, V&) { d.dimensionCount = 0; }},
        InvalidCase{"NineDimensions", "VUID-VkTensorDescriptionARM-dimensionCount-09733",
                    [](I&, D& d, V& dims, V&) {
                        dims.assign(9, 1);
                        d.dimensionCount = 9;
                        d.pStrides = nullptr;
                        d.tiling = VK_TENSOR_TILING_OPTIMAL_ARM;
                    }},
        InvalidCase{"ZeroDimension", "VUID-VkTensorDescriptionARM-pDimensions-09734", [](I&, D&, V& dims, V&) { dims[1] = 0; }},
        InvalidCase{"HugeDimension", "VUID-VkTensorDescriptionARM-pDimensions-09883",
                    [](I&, D& d, V& dims, V&) {
                        dims = {int64_t{1} << 40, 1};
                        d.pStrides = nullptr;
                    }},
        InvalidCase{"TwoComponentFormat", "VUID-VkTensorDescriptionARM-format-09735", [](I&, D& d, V&, V&) { d.format = VK_FORMAT_R32G32_SFLOAT; }},
        InvalidCase{"NoUsage", "VUID-VkTensorDescriptionARM-usage-requiredbitmask", [](I&, D& d, V&, V&) { d.usage = 0; }},
        InvalidCase{"InnermostStrideNotTheElement", "VUID-VkTensorDescriptionARM-pStrides-09736", [](I&, D&, V&, V& s) { s[1] = 8; }},
        InvalidCase{"StrideNotAMultiple", "VUID-VkTensorDescriptionARM-pStrides-09737", [](I&, D&, V&, V& s) { s[0] = 66; }},
        InvalidCase{"NegativeStride", "VUID-VkTensorDescriptionARM-pStrides-09738", [](I&, D&, V&, V& s) { s[0] = -64; }},
        InvalidCase{"OverlappingRows", "VUID-VkTensorDescriptionARM-pStrides-09739", [](I&, D&, V&, V& s) { s[0] = 16; }},
        InvalidCase{"TooLarge", "VUID-VkTensorDescriptionARM-pStrides-09738",
                    [](I&, D&, V&, V& s) { s[0] = int64_t{1} << 40; }},
        InvalidCase{"UnknownTiling", "VUID-VkTensorDescriptionARM-tiling-parameter",
                    [](I&, D& d, V&, V&) { d.tiling = VK_TENSOR_TILING_BRICK_8_WIDE_ARM; }}),
    [](const testing::TestParamInfo<InvalidCase>& param) { return std::string(param.param.name); });

// Without tensorNonPacked, strided descriptions are refused.
TEST(ArmTensorsObjects, NonPackedTensorsNeedTheirFeature) {
    DebugMessages messages;
    VkPhysicalDeviceTensorFeaturesARM features = vku::InitStructHelper();
    features.tensors = VK_TRUE;
    Context c({.instance_extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME},
               .device_extensions = {VK_ARM_TENSORS_EXTENSION_NAME},
               .device_features_next = &features});
    const ScopedMessenger messenger(c.instance, messages);
    const std::vector<int64_t> dimensions{4, 8};
    const std::vector<int64_t> strides{64, 4};
    const VkTensorDescriptionARM description = tensor_description(VK_FORMAT_R32_SFLOAT, dimensions, strides, VK_TENSOR_USAGE_SHADER_BIT_ARM);
    VkTensorCreateInfoARM info = vku::InitStructHelper();
    info.pDescription = &description;
    VkTensorARM tensor = VK_NULL_HANDLE;
    EXPECT_EQ(c.vk.vkCreateTensorARM(c.device, &info, nullptr, &tensor), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_EQ(messages.count("vkpolyfill-tensor", "VUID-VkTensorDescriptionARM-None-09740"), 1u) << messages.dump();
    // Packed strides are fine.
    const std::vector<int64_t> packed{32, 4};
    const VkTensorDescriptionARM packed_description = tensor_description(VK_FORMAT_R32_SFLOAT, dimensions, packed, VK_TENSOR_USAGE_SHADER_BIT_ARM);
    info.pDescription = &packed_description;
    ASSERT_EQ(c.vk.vkCreateTensorARM(c.device, &info, nullptr, &tensor), VK_SUCCESS);
    c.vk.vkDestroyTensorARM(c.device, tensor, nullptr);
}

}  // namespace
}  // namespace vkpolyfill::test
