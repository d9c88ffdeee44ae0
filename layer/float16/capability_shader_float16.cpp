#include "float16/capability_shader_float16.h"

#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "core/feature_enabling.h"

namespace vkpolyfill {
namespace {

constexpr const char* kExtension = VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME;

std::string missing_requirements(const PhysicalDeviceFacts&) { return {}; }

bool is_native(const PhysicalDeviceFacts& facts) { return facts.vulkan12.shaderFloat16 == VK_TRUE; }

// The feature lives in the Vulkan 1.2 struct and in the extension's own; a chain may have either.
template <typename Visit>
void for_each_feature_struct(const void* chain, Visit&& visit) {
    void* next = const_cast<void*>(chain);
    if (auto* v12 = vku::FindStructInPNextChain<VkPhysicalDeviceVulkan12Features>(next)) visit(v12->shaderFloat16);
    if (auto* own = vku::FindStructInPNextChain<VkPhysicalDeviceShaderFloat16Int8Features>(next)) visit(own->shaderFloat16);
}

void report_features(const PhysicalDeviceFacts&, VkBaseOutStructure* chain) {
    for_each_feature_struct(chain->pNext, [](VkBool32& bit) { bit = VK_TRUE; });
}

// Float controls for f16 would govern arithmetic that happens in f32: the lowering refuses them.
void report_properties(const PhysicalDeviceFacts&, VkBaseOutStructure* chain) {
    const auto no_f16_controls = [](auto* properties) {
        if (properties == nullptr) return;
        properties->shaderSignedZeroInfNanPreserveFloat16 = VK_FALSE;
        properties->shaderDenormPreserveFloat16 = VK_FALSE;
        properties->shaderDenormFlushToZeroFloat16 = VK_FALSE;
        properties->shaderRoundingModeRTEFloat16 = VK_FALSE;
        properties->shaderRoundingModeRTZFloat16 = VK_FALSE;
    };
    no_f16_controls(vku::FindStructInPNextChain<VkPhysicalDeviceVulkan12Properties>(chain->pNext));
    no_f16_controls(vku::FindStructInPNextChain<VkPhysicalDeviceFloatControlsProperties>(chain->pNext));
}

bool enabled_in(const VkDeviceCreateInfo* create_info) {
    bool enabled = false;
    for_each_feature_struct(create_info->pNext, [&](VkBool32& bit) { enabled = enabled || bit == VK_TRUE; });
    return enabled;
}

// The driver never sees the bit; shaderInt8, in the same structs, stays the application's. Where the
// application enabled it, shaderInt16 (the driver's) lets the lowering keep f16 data in shared memory
// as 16-bit integers rather than widened (lowering::Target::shader_int16).
void prepare_device_create_info(const PhysicalDeviceFacts& facts, uint32_t, bool, vku::safe_VkDeviceCreateInfo& create_info) {
    if (enabled_in(create_info.ptr())) enable_core_feature(create_info, &VkPhysicalDeviceFeatures::shaderInt16, facts.features.shaderInt16);
    for_each_feature_struct(create_info.pNext, [](VkBool32& bit) { bit = VK_FALSE; });
}

// A driver listing the extension for shaderInt8 keeps it enabled; f16 arithmetic is never its own here.
bool driver_runs(const PhysicalDeviceFacts&, std::span<const uint32_t>) { return false; }

}  // namespace

Capability shader_float16_capability() {
    return Capability{
        .extension = kExtension,
        .spec_version = VK_KHR_SHADER_FLOAT16_INT8_SPEC_VERSION,
        .lowering = lowering::Emulated::Float16,
        .missing_requirements = missing_requirements,
        .is_native = is_native,
        .report_features = report_features,
        .report_properties = report_properties,
        .prepare_device_create_info = prepare_device_create_info,
        .driver_runs = driver_runs,
        .physical_device_functions = {},
        .enabled_in = enabled_in,
    };
}

}  // namespace vkpolyfill
