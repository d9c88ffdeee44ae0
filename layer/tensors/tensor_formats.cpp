#include "tensors/tensor_formats.h"

namespace vkpolyfill {
namespace {

enum class Kind { Integer, Float, Bool, Encoded };

struct TensorFormat {
    VkFormat format;
    uint32_t size;
    Kind kind;
};

// SPV_ARM_tensors element types: 8- to 64-bit integers, 16- to 64-bit floats and 8-bit booleans.
// bfloat16 and float8 tensors hold bytes the layer can copy but no lowered shader reads.
constexpr TensorFormat kFormats[] = {
    {VK_FORMAT_R8_UINT, 1, Kind::Integer},
    {VK_FORMAT_R8_SINT, 1, Kind::Integer},
    {VK_FORMAT_R8_BOOL_ARM, 1, Kind::Bool},
    {VK_FORMAT_R16_UINT, 2, Kind::Integer},
    {VK_FORMAT_R16_SINT, 2, Kind::Integer},
    {VK_FORMAT_R16_SFLOAT, 2, Kind::Float},
    {VK_FORMAT_R32_UINT, 4, Kind::Integer},
    {VK_FORMAT_R32_SINT, 4, Kind::Integer},
    {VK_FORMAT_R32_SFLOAT, 4, Kind::Float},
    {VK_FORMAT_R64_UINT, 8, Kind::Integer},
    {VK_FORMAT_R64_SINT, 8, Kind::Integer},
    {VK_FORMAT_R64_SFLOAT, 8, Kind::Float},
    {VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM, 2, Kind::Encoded},
    {VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM, 1, Kind::Encoded},
    {VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM, 1, Kind::Encoded},
};

const TensorFormat* find(VkFormat format) {
    for (const TensorFormat& f : kFormats) {
        if (f.format == format) return &f;
    }
    return nullptr;
}

// Elements of this size can be stored one by one (copies and lowered writes never touch a neighbour).
bool storable(const PhysicalDeviceFacts& facts, uint32_t size) {
    switch (size) {
        case 1: return facts.vulkan12.storageBuffer8BitAccess;
        case 2: return facts.vulkan11.storageBuffer16BitAccess;
        case 8: return true;  // copied as pairs of 32-bit words
        default: return true;
    }
}

// The lowered code computes in the element's own type.
bool arithmetic(const PhysicalDeviceFacts& facts, const TensorFormat& f) {
    switch (f.kind) {
        case Kind::Bool: return true;
        case Kind::Encoded: return false;
        case Kind::Integer:
            return f.size == 1 ? facts.vulkan12.shaderInt8 : f.size == 2 ? facts.features.shaderInt16 : f.size != 8 || facts.features.shaderInt64;
        case Kind::Float:
            return f.size == 2 ? facts.vulkan12.shaderFloat16 : f.size != 8 || facts.features.shaderFloat64;
    }
    return false;
}

}  // namespace

uint32_t tensor_element_size(VkFormat format) {
    const TensorFormat* f = find(format);
    return f ? f->size : 0;
}

VkFormatFeatureFlags2 tensor_format_features(const PhysicalDeviceFacts& facts, VkFormat format) {
    const TensorFormat* f = find(format);
    if (f == nullptr || !storable(facts, f->size)) return 0;
    VkFormatFeatureFlags2 features = VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
    if (arithmetic(facts, *f)) features |= VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM;
    return features;
}

uint32_t largest_tensor_element(const PhysicalDeviceFacts& facts) {
    uint32_t largest = 0;
    for (const TensorFormat& f : kFormats) {
        if (tensor_format_features(facts, f.format) != 0 && f.size > largest) largest = f.size;
    }
    return largest;
}

}  // namespace vkpolyfill
