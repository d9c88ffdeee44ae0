#include "coopmat2_target.h"

#include <vulkan/utility/vk_struct_helper.hpp>

#include <algorithm>
#include <cstring>

#include "coopmat_scalars.h"

#include "library_lowering.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {

BlockLoadFeatures::BlockLoadFeatures() {
    v11_ = vku::InitStructHelper();
    v11_.storageBuffer16BitAccess = VK_TRUE;
    v13_ = vku::InitStructHelper(&v11_);
    v13_.maintenance4 = VK_TRUE;
    v12_ = vku::InitStructHelper(&v13_);
    v12_.shaderFloat16 = VK_TRUE;
    v12_.shaderInt8 = VK_TRUE;
    v12_.storageBuffer8BitAccess = VK_TRUE;  // tensor_decode.comp's uint8_t view of its Q8_0 blocks
    v12_.vulkanMemoryModel = VK_TRUE;
    v12_.bufferDeviceAddress = VK_TRUE;  // the application's decode functions stay in the module
    decode_vector_ = vku::InitStructHelper();
    decode_vector_.cooperativeMatrixDecodeVector = VK_TRUE;
    coopmat2_ = vku::InitStructHelper();
    coopmat2_.cooperativeMatrixWorkgroupScope = VK_TRUE;
    coopmat2_.cooperativeMatrixFlexibleDimensions = VK_TRUE;
    coopmat2_.cooperativeMatrixConversions = VK_TRUE;
    coopmat2_.cooperativeMatrixTensorAddressing = VK_TRUE;
    coopmat2_.cooperativeMatrixBlockLoads = VK_TRUE;
    coopmat_ = vku::InitStructHelper(&coopmat2_);
    coopmat_.cooperativeMatrix = VK_TRUE;
}

ContextOptions BlockLoadFeatures::options(bool through_layer, bool decode_vector) {
    ContextOptions options{.layer = through_layer, .device_features_next = &v12_};
    options.device_features.shaderInt16 = VK_TRUE;
    v11_.pNext = through_layer ? &coopmat_ : nullptr;
    coopmat2_.pNext = decode_vector ? &decode_vector_ : nullptr;
    if (through_layer) options.device_extensions = {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME, VK_NV_COOPERATIVE_MATRIX_2_EXTENSION_NAME};
    if (through_layer && decode_vector) options.device_extensions.push_back(VK_NV_COOPERATIVE_MATRIX_DECODE_VECTOR_EXTENSION_NAME);
    return options;
}

Coopmat2ComputeFeatures::Coopmat2ComputeFeatures(bool workgroup_scope) {
    coopmat2_ = vku::InitStructHelper();
    coopmat2_.cooperativeMatrixWorkgroupScope = workgroup_scope;
    coopmat2_.cooperativeMatrixFlexibleDimensions = VK_TRUE;
    coopmat2_.cooperativeMatrixReductions = VK_TRUE;
    coopmat2_.cooperativeMatrixConversions = VK_TRUE;
    coopmat2_.cooperativeMatrixPerElementOperations = VK_TRUE;
    coopmat_ = vku::InitStructHelper(&coopmat2_);
    coopmat_.cooperativeMatrix = VK_TRUE;
}

uint32_t subgroup_size(VkPhysicalDevice physical_device) {
    VkPhysicalDeviceSubgroupProperties subgroup = vku::InitStructHelper();
    VkPhysicalDeviceProperties2 properties = vku::InitStructHelper(&subgroup);
    vkGetPhysicalDeviceProperties2(physical_device, &properties);
    return subgroup.subgroupSize;
}

lowering::Target coopmat2_target(VkPhysicalDevice physical_device, uint32_t max_shared_memory_bytes) {
    lowering::Target target;
    target.subgroup_size = subgroup_size(physical_device);
    target.max_shared_memory_bytes = max_shared_memory_bytes;
    target.emulate = lowering::bit(lowering::Emulated::KhrCooperativeMatrix) | lowering::bit(lowering::Emulated::NvCooperativeMatrix2) |
                     lowering::bit(lowering::Emulated::NvTensorAddressing) |
                     lowering::bit(lowering::Emulated::NvCooperativeMatrixDecodeVector);
    return target;
}

std::vector<float> run_block_load(const BlockLoadRun& r) {
    BlockLoadFeatures features;
    Context context(features.options(r.through_layer, r.decode_vector));
    std::vector<uint32_t> words = read_shader(r.shader);
    if (!r.through_layer) words = lower_checked(words, coopmat2_target(context.physical_device, 16384));
    if (words.empty()) return {};

    std::vector<Buffer> buffers;
    buffers.push_back(context.create_buffer(r.params.size() * sizeof(uint32_t)));
    std::memcpy(buffers.back().mapped, r.params.data(), r.params.size() * sizeof(uint32_t));
    std::vector<VkDeviceAddress> addresses;  // pushed, for shaders that read the weights through buffer references
    for (std::span<const uint8_t> bytes : r.weights) {
        buffers.push_back(context.create_buffer(bytes.size(), VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT));
        std::memcpy(buffers.back().mapped, bytes.data(), bytes.size());
        addresses.push_back(context.address(buffers.back()));
    }
    buffers.push_back(context.create_buffer(std::max<size_t>(r.b.size(), 2) * 2));
    for (size_t i = 0; i < r.b.size(); ++i) buffers.back().as<uint16_t>()[i] = coopmat::half_from_double(r.b[i]);
    buffers.push_back(context.create_buffer(r.outputs * sizeof(float)));
    for (float& x : buffers.back().as<float>()) x = kUntouched;

    const VkSpecializationMapEntry entry{0, 0, sizeof(uint32_t)};
    const VkSpecializationInfo specialization{1, &entry, sizeof(uint32_t), &r.op};
    const std::span<const std::byte> push = std::as_bytes(std::span(addresses));
    ComputePipeline pipeline = context.create_compute_pipeline(words, uint32_t(buffers.size()), uint32_t(push.size()), &specialization);
    std::vector<const Buffer*> bound;
    for (const Buffer& buffer : buffers) bound.push_back(&buffer);
    context.dispatch(pipeline, bound, push, r.groups_x, r.groups_y);
    const std::span<float> out = buffers.back().as<float>();
    return {out.begin(), out.end()};
}

}  // namespace vkpolyfill::test
