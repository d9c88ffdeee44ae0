#include "tensors/tensor_description.h"

#include <format>
#include <set>

#include "tensors/capability_arm_tensors.h"
#include "core/physical_device_facts.h"
#include "tensors/tensor_formats.h"

namespace vkpolyfill {
namespace {

constexpr VkTensorUsageFlagsARM kKnownUsage = VK_TENSOR_USAGE_SHADER_BIT_ARM | VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM |
                                              VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM | VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM |
                                              VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM;

// The format features each usage needs (the specification's format-feature-dependent usage flags).
struct UsageFeature {
    VkTensorUsageFlagsARM usage;
    VkFormatFeatureFlags2 feature;
    const char* usage_name;
};
constexpr UsageFeature kUsageFeatures[] = {
    {VK_TENSOR_USAGE_SHADER_BIT_ARM, VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM, "VK_TENSOR_USAGE_SHADER_BIT_ARM"},
    {VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM, VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT, "VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM"},
    {VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM, VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT, "VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM"},
    {VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM, VK_FORMAT_FEATURE_2_TENSOR_IMAGE_ALIASING_BIT_ARM, "VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM"},
    {VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM, VK_FORMAT_FEATURE_2_TENSOR_DATA_GRAPH_BIT_ARM, "VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM"},
};

std::string check_sharing(const VkTensorCreateInfoARM& info, const TensorDeviceFeatures& features) {
    if (info.sharingMode != VK_SHARING_MODE_CONCURRENT) return {};
    if (info.queueFamilyIndexCount <= 1) {
        return std::format("queueFamilyIndexCount ({}) must be greater than 1 with VK_SHARING_MODE_CONCURRENT "
                           "(VUID-VkTensorCreateInfoARM-sharingMode-09723)", info.queueFamilyIndexCount);
    }
    if (info.pQueueFamilyIndices == nullptr) {
        return "pQueueFamilyIndices must not be NULL with VK_SHARING_MODE_CONCURRENT (VUID-VkTensorCreateInfoARM-sharingMode-09722)";
    }
    std::set<uint32_t> seen;
    for (uint32_t i = 0; i < info.queueFamilyIndexCount; ++i) {
        const uint32_t family = info.pQueueFamilyIndices[i];
        if (family >= features.queue_family_count || !seen.insert(family).second) {
            return std::format("pQueueFamilyIndices[{}] ({}) must be unique and less than the device's {} queue families "
                               "(VUID-VkTensorCreateInfoARM-sharingMode-09725)", i, family, features.queue_family_count);
        }
    }
    return {};
}

std::string check_flags(const VkTensorCreateInfoARM& info, const TensorDeviceFeatures& features) {
    if (info.flags & ~(VK_TENSOR_CREATE_MUTABLE_FORMAT_BIT_ARM | VK_TENSOR_CREATE_PROTECTED_BIT_ARM |
                       VK_TENSOR_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM | VK_TENSOR_CREATE_DESCRIPTOR_HEAP_CAPTURE_REPLAY_BIT_ARM)) {
        return std::format("flags (0x{:x}) has bits VK_ARM_tensors does not define (VUID-VkTensorCreateInfoARM-flags-parameter)", info.flags);
    }
    if ((info.flags & VK_TENSOR_CREATE_PROTECTED_BIT_ARM) && !features.protected_memory) {
        return "flags has VK_TENSOR_CREATE_PROTECTED_BIT_ARM but protectedMemory is not enabled (VUID-VkTensorCreateInfoARM-protectedMemory-09729)";
    }
    if ((info.flags & VK_TENSOR_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM) && !features.capture_replay) {
        return "flags has VK_TENSOR_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM but descriptorBufferCaptureReplay is not enabled "
               "(VUID-VkTensorCreateInfoARM-flags-09726)";
    }
    if (info.flags & (VK_TENSOR_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM | VK_TENSOR_CREATE_DESCRIPTOR_HEAP_CAPTURE_REPLAY_BIT_ARM)) {
        return "flags asks for descriptor capture and replay, which the emulated tensors do not have (their descriptors hold the "
               "device addresses of the tensor's buffer and of a shape record the layer places)";
    }
    return {};
}

std::string check_format_and_usage(const VkTensorDescriptionARM& d, const PhysicalDeviceFacts& facts) {
    if (d.format == VK_FORMAT_UNDEFINED || tensor_element_size(d.format) == 0) {
        return std::format("pDescription->format ({}) must be a one-component format a tensor can have "
                           "(VUID-VkTensorDescriptionARM-format-09735)", static_cast<int>(d.format));
    }
    if (d.usage == 0) return "pDescription->usage must not be 0 (VUID-VkTensorDescriptionARM-usage-requiredbitmask)";
    if (d.usage & ~kKnownUsage) {
        return std::format("pDescription->usage (0x{:x}) has bits VK_ARM_tensors does not define "
                           "(VUID-VkTensorDescriptionARM-usage-parameter)", d.usage);
    }
    if (d.tiling == VK_TENSOR_TILING_LINEAR_ARM && (d.usage & VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM)) {
        return "pDescription->usage has VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM with VK_TENSOR_TILING_LINEAR_ARM "
               "(VUID-VkTensorDescriptionARM-tiling-09742)";
    }
    const VkFormatFeatureFlags2 supported = tensor_format_features(facts, d.format);
    for (const UsageFeature& u : kUsageFeatures) {
        if ((d.usage & u.usage) && !(supported & u.feature)) {
            return std::format("pDescription->usage has {} but format {} lacks the tensor format feature it needs "
                               "(VUID-VkTensorCreateInfoARM-pDescription-09728)", u.usage_name, static_cast<int>(d.format));
        }
    }
    return {};
}

std::string check_dimensions(const VkTensorDescriptionARM& d, const VkPhysicalDeviceTensorPropertiesARM& limits) {
    if (d.dimensionCount == 0) return "pDescription->dimensionCount must be greater than 0 (VUID-VkTensorDescriptionARM-dimensionCount-arraylength)";
    if (d.dimensionCount > limits.maxTensorDimensionCount) {
        return std::format("pDescription->dimensionCount ({}) must be at most maxTensorDimensionCount ({}) "
                           "(VUID-VkTensorDescriptionARM-dimensionCount-09733)", d.dimensionCount, limits.maxTensorDimensionCount);
    }
    if (d.pDimensions == nullptr) return "pDescription->pDimensions must not be NULL (VUID-VkTensorDescriptionARM-pDimensions-parameter)";
    uint64_t elements = 1;
    for (uint32_t i = 0; i < d.dimensionCount; ++i) {
        const int64_t n = d.pDimensions[i];
        if (n <= 0) {
            return std::format("pDescription->pDimensions[{}] ({}) must be greater than 0 (VUID-VkTensorDescriptionARM-pDimensions-09734)", i, n);
        }
        if (static_cast<uint64_t>(n) > limits.maxPerDimensionTensorElements) {
            return std::format("pDescription->pDimensions[{}] ({}) must be at most maxPerDimensionTensorElements ({}) "
                               "(VUID-VkTensorDescriptionARM-pDimensions-09883)", i, n, limits.maxPerDimensionTensorElements);
        }
        // Both factors are at most 2^32, so the product is checked before it can overflow.
        elements = elements > limits.maxTensorElements ? elements : elements * static_cast<uint64_t>(n);
    }
    if (elements > limits.maxTensorElements) {
        return std::format("pDescription->pDimensions describe more than maxTensorElements ({}) elements "
                           "(VUID-VkTensorCreateInfoARM-tensorElements-09721)", limits.maxTensorElements);
    }
    return {};
}

bool packed(const VkTensorDescriptionARM& d, uint32_t element_size) {
    if (d.pStrides == nullptr) return true;
    int64_t expected = element_size;
    for (uint32_t i = d.dimensionCount; i-- > 0;) {
        if (d.pStrides[i] != expected) return false;
        expected *= d.pDimensions[i];
    }
    return true;
}

std::string check_strides(const VkTensorDescriptionARM& d, const VkPhysicalDeviceTensorPropertiesARM& limits,
                          const TensorDeviceFeatures& features) {
    if (d.pStrides == nullptr) return {};
    if (d.tiling == VK_TENSOR_TILING_OPTIMAL_ARM) {
        return "pDescription->pStrides must be NULL with VK_TENSOR_TILING_OPTIMAL_ARM (VUID-VkTensorCreateInfoARM-pDescription-09720)";
    }
    const int64_t element = tensor_element_size(d.format);
    const uint32_t last = d.dimensionCount - 1;
    if (d.pStrides[last] != element) {
        return std::format("pDescription->pStrides[{}] ({}) must equal the element size ({}) "
                           "(VUID-VkTensorDescriptionARM-pStrides-09736)", last, d.pStrides[last], element);
    }
    for (uint32_t i = 0; i < d.dimensionCount; ++i) {
        const int64_t s = d.pStrides[i];
        if (s <= 0 || s > limits.maxTensorStride) {
            return std::format("pDescription->pStrides[{}] ({}) must be greater than 0 and at most maxTensorStride ({}) "
                               "(VUID-VkTensorDescriptionARM-pStrides-09738)", i, s, limits.maxTensorStride);
        }
        if (s % element != 0) {
            return std::format("pDescription->pStrides[{}] ({}) must be a multiple of the element size ({}) "
                               "(VUID-VkTensorDescriptionARM-pStrides-09737)", i, s, element);
        }
        // Strides and dimensions are at most 2^32 each: their product fits.
        if (i > 0 && d.pStrides[i - 1] < s * d.pDimensions[i]) {
            return std::format("pDescription->pStrides[{}] ({}) must be at least pStrides[{}] * pDimensions[{}] ({}) "
                               "(VUID-VkTensorDescriptionARM-pStrides-09739)", i - 1, d.pStrides[i - 1], i, i, s * d.pDimensions[i]);
        }
    }
    if (static_cast<uint64_t>(d.pStrides[0]) * static_cast<uint64_t>(d.pDimensions[0]) > limits.maxTensorSize) {
        return std::format("pDescription->pStrides[0] * pDimensions[0] ({}) must be at most maxTensorSize ({}) "
                           "(VUID-VkTensorDescriptionARM-pStrides-09884)", d.pStrides[0] * d.pDimensions[0], limits.maxTensorSize);
    }
    if (!features.non_packed && !packed(d, static_cast<uint32_t>(element))) {
        return "pDescription->pStrides describe a tensor that is not packed, and tensorNonPacked is not enabled "
               "(VUID-VkTensorDescriptionARM-None-09740)";
    }
    return {};
}

}  // namespace

std::string check_tensor_create_info(const VkTensorCreateInfoARM& info, const PhysicalDeviceFacts& facts,
                                     const TensorDeviceFeatures& features) {
    const VkTensorDescriptionARM* d = info.pDescription;
    if (d == nullptr || d->sType != VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM) {
        return "pDescription must point to a VkTensorDescriptionARM (VUID-VkTensorCreateInfoARM-pDescription-parameter)";
    }
    if (d->tiling != VK_TENSOR_TILING_OPTIMAL_ARM && d->tiling != VK_TENSOR_TILING_LINEAR_ARM) {
        return std::format("pDescription->tiling ({}) must be VK_TENSOR_TILING_OPTIMAL_ARM or VK_TENSOR_TILING_LINEAR_ARM "
                           "(VUID-VkTensorDescriptionARM-tiling-parameter)", static_cast<int>(d->tiling));
    }
    const VkPhysicalDeviceTensorPropertiesARM limits = tensor_properties(facts);
    for (std::string problem : {check_flags(info, features), check_sharing(info, features), check_format_and_usage(*d, facts)}) {
        if (!problem.empty()) return problem;
    }
    if (std::string problem = check_dimensions(*d, limits); !problem.empty()) return problem;
    return check_strides(*d, limits, features);
}

TensorLayout tensor_layout(const VkTensorDescriptionARM& d) {
    TensorLayout layout;
    layout.format = d.format;
    layout.element_size = tensor_element_size(d.format);
    layout.rank = d.dimensionCount;
    int64_t packed_stride = layout.element_size;
    for (uint32_t i = d.dimensionCount; i-- > 0;) {
        layout.dimensions[i] = d.pDimensions[i];
        layout.strides[i] = d.pStrides ? d.pStrides[i] : packed_stride;
        packed_stride *= d.pDimensions[i];
    }
    const uint64_t extent = static_cast<uint64_t>(layout.strides[0]) * static_cast<uint64_t>(layout.dimensions[0]);
    layout.size = (extent + 15) & ~uint64_t{15};
    return layout;
}

}  // namespace vkpolyfill
