// VK_NV_cooperative_matrix_decode_vector as a Capability: one feature bit, no properties or commands.
// A module declaring it is lowered whole with VK_NV_cooperative_matrix2 (whose blockLoads it
// requires), so the layer offers it only where it lowers that extension: on a driver with all of
// VK_NV_cooperative_matrix2 but not this, modules would go to the driver and it is not offered.
#include "cooperative_matrix/capability_nv_cooperative_matrix_decode_vector.h"

#include <vulkan/utility/vk_safe_struct_utils.hpp>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "cooperative_matrix/capability_nv_cooperative_matrix2.h"

namespace vkpolyfill {
namespace {

constexpr const char* kExtension = VK_NV_COOPERATIVE_MATRIX_DECODE_VECTOR_EXTENSION_NAME;

std::string missing_requirements(const PhysicalDeviceFacts& facts) {
    if (driver_has_all_of_cooperative_matrix2(facts)) {
        return "the driver runs VK_NV_cooperative_matrix2 itself, and the layer lowers decode-vector loads only with the rest of it";
    }
    return cooperative_matrix2_missing_requirements(facts);
}

bool is_native(const PhysicalDeviceFacts& facts) { return facts.native_spec_version(kExtension) != 0; }

void report_features(const PhysicalDeviceFacts&, VkBaseOutStructure* chain) {
    if (auto* features = vku::FindStructInPNextChain<VkPhysicalDeviceCooperativeMatrixDecodeVectorFeaturesNV>(chain->pNext)) {
        features->cooperativeMatrixDecodeVector = VK_TRUE;
    }
}

void report_properties(const PhysicalDeviceFacts&, VkBaseOutStructure*) {}  // the extension has none

void prepare_device_create_info(const PhysicalDeviceFacts&, uint32_t, bool, vku::safe_VkDeviceCreateInfo& create_info) {
    vku::RemoveFromPnext(create_info, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_DECODE_VECTOR_FEATURES_NV);
}

}  // namespace

Capability nv_cooperative_matrix_decode_vector_capability() {
    return Capability{
        .extension = kExtension,
        .spec_version = VK_NV_COOPERATIVE_MATRIX_DECODE_VECTOR_SPEC_VERSION,
        .lowering = lowering::Emulated::NvCooperativeMatrixDecodeVector,
        .missing_requirements = missing_requirements,
        .is_native = is_native,
        .report_features = report_features,
        .report_properties = report_properties,
        .prepare_device_create_info = prepare_device_create_info,
        .driver_runs = nullptr,
        .physical_device_functions = {},
    };
}

}  // namespace vkpolyfill
