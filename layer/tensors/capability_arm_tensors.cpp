// VK_ARM_tensors as a Capability: when the driver has it, what the emulation needs, what the layer
// reports (features, properties, and the storage-buffer descriptors tensors take), and what it turns
// on at vkCreateDevice.
#include "tensors/capability_arm_tensors.h"

#include <algorithm>
#include <limits>

#include <vkpolyfill/lowering/arm_tensors.h>
#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "core/extension_list.h"
#include "core/feature_enabling.h"
#include "tensors/tensor_formats.h"
#include "tensors/tensor_physical_device_hooks.h"

namespace vkpolyfill {
namespace {

constexpr const char* kExtension = VK_ARM_TENSORS_EXTENSION_NAME;

// Every tensor descriptor is two storage-buffer descriptors (data and shape record). The layer gives
// tensors a quarter of the driver's storage-buffer budget (half of it in descriptors) and the
// application's storage buffers the other half, so an application within both limits is within the
// driver's.
uint32_t tensor_share(uint32_t storage_buffers) { return storage_buffers / 4; }
uint32_t storage_buffer_share(uint32_t storage_buffers) { return storage_buffers - 2 * tensor_share(storage_buffers); }

// Array reads and writes the lowered code unrolls element by element.
constexpr uint32_t kMaxShaderAccessArrayLength = 16;

std::string missing_requirements(const PhysicalDeviceFacts& facts) {
    std::string missing;
    auto need = [&missing](const char* what) { missing += (missing.empty() ? "needs " : ", ") + std::string(what); };
    if (facts.properties.apiVersion < VK_API_VERSION_1_3) need("Vulkan 1.3");
    if (!facts.vulkan13.synchronization2) need("synchronization2");
    const VkPhysicalDeviceLimits& limits = facts.properties.limits;
    // Halved, the storage-buffer limits must still meet Vulkan's minimums (4 per stage, 24 per set).
    if (limits.maxPerStageDescriptorStorageBuffers < 8 || limits.maxDescriptorSetStorageBuffers < 48) {
        need("storage-buffer descriptors to share with tensors");
    }
    if (limits.maxPushConstantsSize < 128) need("128 bytes of push constants (tensor copies)");
    return missing;
}

bool is_native(const PhysicalDeviceFacts& facts) {
    return facts.native_spec_version(kExtension) != 0 && facts.arm_tensors.tensors;
}

void report_features(const PhysicalDeviceFacts& facts, VkBaseOutStructure* chain) {
    if (auto* features = vku::FindStructInPNextChain<VkPhysicalDeviceTensorFeaturesARM>(chain->pNext)) {
        features->tensors = VK_TRUE;
        features->tensorNonPacked = VK_TRUE;
        features->shaderTensorAccess = VK_TRUE;
        features->shaderStorageTensorArrayDynamicIndexing = facts.features.shaderStorageBufferArrayDynamicIndexing;
        features->shaderStorageTensorArrayNonUniformIndexing = facts.vulkan12.shaderStorageBufferArrayNonUniformIndexing;
        features->descriptorBindingStorageTensorUpdateAfterBind = facts.vulkan12.descriptorBindingStorageBufferUpdateAfterBind;
    }
    if (auto* features = vku::FindStructInPNextChain<VkPhysicalDeviceDescriptorBufferTensorFeaturesARM>(chain->pNext)) {
        features->descriptorBufferTensorDescriptors = tensor_descriptor_size(facts) != 0;
    }
}

void report_limits(const PhysicalDeviceFacts& facts, VkBaseOutStructure* chain) {
    VkPhysicalDeviceLimits& limits = reinterpret_cast<VkPhysicalDeviceProperties2*>(chain)->properties.limits;
    const VkPhysicalDeviceLimits& driver = facts.properties.limits;
    limits.maxPerStageDescriptorStorageBuffers = storage_buffer_share(driver.maxPerStageDescriptorStorageBuffers);
    limits.maxDescriptorSetStorageBuffers = storage_buffer_share(driver.maxDescriptorSetStorageBuffers);
    // A tensor counts once in the application's resources and twice in the driver's.
    limits.maxPerStageResources -= std::min(limits.maxPerStageResources, tensor_share(driver.maxPerStageDescriptorStorageBuffers));
    const VkPhysicalDeviceVulkan12Properties& driver12 = facts.vulkan12_properties;
    auto reduce_update_after_bind = [&driver12](auto* properties) {
        if (properties == nullptr) return;
        properties->maxPerStageDescriptorUpdateAfterBindStorageBuffers =
            storage_buffer_share(driver12.maxPerStageDescriptorUpdateAfterBindStorageBuffers);
        properties->maxDescriptorSetUpdateAfterBindStorageBuffers =
            storage_buffer_share(driver12.maxDescriptorSetUpdateAfterBindStorageBuffers);
        properties->maxPerStageUpdateAfterBindResources -=
            std::min(properties->maxPerStageUpdateAfterBindResources,
                     tensor_share(driver12.maxPerStageDescriptorUpdateAfterBindStorageBuffers));
    };
    reduce_update_after_bind(vku::FindStructInPNextChain<VkPhysicalDeviceVulkan12Properties>(chain->pNext));
    reduce_update_after_bind(vku::FindStructInPNextChain<VkPhysicalDeviceDescriptorIndexingProperties>(chain->pNext));
}

void report_properties(const PhysicalDeviceFacts& facts, VkBaseOutStructure* chain) {
    report_limits(facts, chain);
    if (auto* properties = vku::FindStructInPNextChain<VkPhysicalDeviceTensorPropertiesARM>(chain->pNext)) {
        VkPhysicalDeviceTensorPropertiesARM reported = tensor_properties(facts);
        reported.sType = properties->sType;
        reported.pNext = properties->pNext;
        *properties = reported;
    }
    if (auto* properties = vku::FindStructInPNextChain<VkPhysicalDeviceDescriptorBufferTensorPropertiesARM>(chain->pNext)) {
        // No capture data: capture and replay of tensor descriptors is not emulated (tensor_description.cpp).
        properties->tensorCaptureReplayDescriptorDataSize = 0;
        properties->tensorViewCaptureReplayDescriptorDataSize = 0;
        properties->tensorDescriptorSize = tensor_descriptor_size(facts);
    }
}

// The driver never sees the extension's feature structs; when the application enabled the extension,
// the copy turns on what lowered shaders and tensor copies use, where the device has it.
void prepare_device_create_info(const PhysicalDeviceFacts& facts, uint32_t, bool, vku::safe_VkDeviceCreateInfo& create_info) {
    const auto* asked = vku::FindStructInPNextChain<VkPhysicalDeviceTensorFeaturesARM>(create_info.pNext);
    const VkPhysicalDeviceTensorFeaturesARM tensor = asked ? *asked : VkPhysicalDeviceTensorFeaturesARM{};
    const auto* asked_buffer = vku::FindStructInPNextChain<VkPhysicalDeviceDescriptorBufferTensorFeaturesARM>(create_info.pNext);
    const bool descriptor_buffer = asked_buffer && asked_buffer->descriptorBufferTensorDescriptors && tensor_descriptor_size(facts) != 0;
    vku::RemoveFromPnext(create_info, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM);
    vku::RemoveFromPnext(create_info, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_FEATURES_ARM);
    if (!enables_extension(&create_info, kExtension)) return;
    // Tensor descriptors in descriptor buffers point at the tensors' buffers and shape records by address.
    if (descriptor_buffer) {
        enable_feature(create_info, &VkPhysicalDeviceVulkan12Features::bufferDeviceAddress,
                       &VkPhysicalDeviceBufferDeviceAddressFeatures::bufferDeviceAddress);
    }
    if (facts.vulkan12.storageBuffer8BitAccess) {
        enable_feature(create_info, &VkPhysicalDeviceVulkan12Features::storageBuffer8BitAccess,
                       &VkPhysicalDevice8BitStorageFeatures::storageBuffer8BitAccess);
    }
    if (facts.vulkan11.storageBuffer16BitAccess) {
        enable_feature(create_info, &VkPhysicalDeviceVulkan11Features::storageBuffer16BitAccess,
                       &VkPhysicalDevice16BitStorageFeatures::storageBuffer16BitAccess);
    }
    if (facts.vulkan12.shaderInt8) {
        enable_feature(create_info, &VkPhysicalDeviceVulkan12Features::shaderInt8,
                       &VkPhysicalDeviceShaderFloat16Int8Features::shaderInt8);
    }
    if (facts.vulkan12.shaderFloat16) {
        enable_feature(create_info, &VkPhysicalDeviceVulkan12Features::shaderFloat16,
                       &VkPhysicalDeviceShaderFloat16Int8Features::shaderFloat16);
    }
    enable_core_feature(create_info, &VkPhysicalDeviceFeatures::shaderInt16, facts.features.shaderInt16);
    enable_core_feature(create_info, &VkPhysicalDeviceFeatures::shaderInt64, facts.features.shaderInt64);
    enable_core_feature(create_info, &VkPhysicalDeviceFeatures::shaderFloat64, facts.features.shaderFloat64);
    // Tensor arrays are storage-buffer arrays.
    enable_core_feature(create_info, &VkPhysicalDeviceFeatures::shaderStorageBufferArrayDynamicIndexing,
                        tensor.shaderStorageTensorArrayDynamicIndexing);
    if (tensor.shaderStorageTensorArrayNonUniformIndexing) {
        enable_feature(create_info, &VkPhysicalDeviceVulkan12Features::shaderStorageBufferArrayNonUniformIndexing,
                       &VkPhysicalDeviceDescriptorIndexingFeatures::shaderStorageBufferArrayNonUniformIndexing);
    }
    if (tensor.descriptorBindingStorageTensorUpdateAfterBind) {
        enable_feature(create_info, &VkPhysicalDeviceVulkan12Features::descriptorBindingStorageBufferUpdateAfterBind,
                       &VkPhysicalDeviceDescriptorIndexingFeatures::descriptorBindingStorageBufferUpdateAfterBind);
    }
}

}  // namespace

VkPhysicalDeviceTensorPropertiesARM tensor_properties(const PhysicalDeviceFacts& facts) {
    const VkPhysicalDeviceLimits& limits = facts.properties.limits;
    const VkPhysicalDeviceVulkan12Properties& limits12 = facts.vulkan12_properties;
    // A tensor is one storage-buffer descriptor over its whole buffer, which the layer rounds up to
    // 16 bytes; shape records hold dimensions and element strides as 32-bit words.
    const uint64_t max_size = limits.maxStorageBufferRange & ~uint64_t{15};
    VkPhysicalDeviceTensorPropertiesARM p = vku::InitStructHelper();
    p.maxTensorDimensionCount = lowering::kMaxTensorRank;
    p.maxTensorSize = max_size;
    p.maxTensorElements = max_size / std::max(1u, largest_tensor_element(facts));
    p.maxPerDimensionTensorElements = std::min<uint64_t>(max_size, std::numeric_limits<uint32_t>::max());
    p.maxTensorStride = static_cast<int64_t>(max_size);
    p.maxTensorShaderAccessArrayLength = kMaxShaderAccessArrayLength;
    p.maxTensorShaderAccessSize = kMaxShaderAccessArrayLength * 8;
    p.maxDescriptorSetStorageTensors = tensor_share(limits.maxDescriptorSetStorageBuffers);
    p.maxPerStageDescriptorSetStorageTensors = tensor_share(limits.maxPerStageDescriptorStorageBuffers);
    p.maxDescriptorSetUpdateAfterBindStorageTensors = tensor_share(limits12.maxDescriptorSetUpdateAfterBindStorageBuffers);
    p.maxPerStageDescriptorUpdateAfterBindStorageTensors = tensor_share(limits12.maxPerStageDescriptorUpdateAfterBindStorageBuffers);
    p.shaderStorageTensorArrayNonUniformIndexingNative = limits12.shaderStorageBufferArrayNonUniformIndexingNative;
    // The stages the lowering handles; each reads storage buffers on every device.
    p.shaderTensorSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    return p;
}

size_t tensor_descriptor_size(const PhysicalDeviceFacts& facts) {
    const VkPhysicalDeviceDescriptorBufferPropertiesEXT& sizes = facts.descriptor_buffer_properties;
    // The binding's stride is the driver's storage-buffer descriptor size, which robustBufferAccess
    // may change; a tensor descriptor has one size whatever the device enables.
    if (!facts.descriptor_buffer.descriptorBuffer || !facts.vulkan12.bufferDeviceAddress ||
        sizes.storageBufferDescriptorSize != sizes.robustStorageBufferDescriptorSize) {
        return 0;
    }
    return 2 * sizes.storageBufferDescriptorSize;
}

Capability arm_tensors_capability() {
    return Capability{
        .extension = kExtension,
        .spec_version = VK_ARM_TENSORS_SPEC_VERSION,
        .lowering = lowering::Emulated::ArmTensors,
        .missing_requirements = missing_requirements,
        .is_native = is_native,
        .report_features = report_features,
        .report_properties = report_properties,
        .prepare_device_create_info = prepare_device_create_info,
        .physical_device_functions = tensor_physical_device_functions(),
    };
}

}  // namespace vkpolyfill
