// Tensor descriptors in descriptor buffers (VK_EXT_descriptor_buffer, which both lavapipes have): the
// reported feature and descriptor size against the driver's storage-buffer descriptor size, set-layout
// sizes and offsets with room for every tensor element, an array-of-tensors kernel reading and writing
// tensors whose descriptors vkGetDescriptorEXT wrote into a descriptor buffer against a CPU reference
// (also with a compute tensor copy between the binds and the dispatch: the copy puts the application's
// descriptor-buffer offsets back), and the bad uses refused with their VUIDs.
#include <algorithm>
#include <cstring>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "arm_tensor_device.h"
#include "coverage_tags.h"

namespace vkpolyfill::test {
namespace {

struct DescriptorBufferSizes {
    VkPhysicalDeviceDescriptorBufferPropertiesEXT driver = vku::InitStructHelper();
    VkPhysicalDeviceDescriptorBufferTensorPropertiesARM tensor = vku::InitStructHelper();
};

DescriptorBufferSizes descriptor_buffer_sizes(VkPhysicalDevice physical_device) {
    DescriptorBufferSizes sizes;
    sizes.tensor.pNext = &sizes.driver;
    VkPhysicalDeviceProperties2 properties = vku::InitStructHelper(&sizes.tensor);
    vkGetPhysicalDeviceProperties2(physical_device, &properties);
    sizes.tensor.pNext = nullptr;
    return sizes;
}

// tests/arm_tensors/arrays.comp over descriptor buffers: set 0 holds tables[4] (binding 0) and
// out_tensor (binding 1), both tensor bindings; a push constant picks a table.
class DescriptorBufferArrays {
  public:
    explicit DescriptorBufferArrays(TensorDevice& device) : c_(device.context()) {
        const VkDescriptorSetLayoutBinding bindings[] = {{0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 4, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
                                                         {1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
        layout_ = create_one_set_layout(c_, bindings, VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT, 4, set_layout_);
        pipeline_ = create_shader_pipeline(c_, read_shader("tests/arm_tensors/arrays.comp"), layout_, VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT, module_);
        c_.vk.vkGetDescriptorSetLayoutSizeEXT(c_.device, set_layout_, &layout_size_);
        c_.vk.vkGetDescriptorSetLayoutBindingOffsetEXT(c_.device, set_layout_, 0, &tables_offset_);
        c_.vk.vkGetDescriptorSetLayoutBindingOffsetEXT(c_.device, set_layout_, 1, &out_offset_);
        for (const char* command : {"vkGetDescriptorSetLayoutSizeEXT", "vkGetDescriptorSetLayoutBindingOffsetEXT"}) covers(command);
        descriptors_ = c_.create_buffer(layout_size_, VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT |
                                                          VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
        VkBufferDeviceAddressInfo address = vku::InitStructHelper();
        address.buffer = descriptors_.buffer;
        descriptors_address_ = c_.vk.vkGetBufferDeviceAddress(c_.device, &address);
    }
    ~DescriptorBufferArrays() {
        c_.vk.vkDestroyPipeline(c_.device, pipeline_, nullptr);
        c_.vk.vkDestroyShaderModule(c_.device, module_, nullptr);
        c_.vk.vkDestroyPipelineLayout(c_.device, layout_, nullptr);
        c_.vk.vkDestroyDescriptorSetLayout(c_.device, set_layout_, nullptr);
    }

    // Element `element` of `binding`: at the binding's offset plus that many tensor descriptors.
    void write(uint32_t binding, uint32_t element, VkTensorViewARM view, size_t descriptor_size) {
        VkDescriptorGetTensorInfoARM tensor = vku::InitStructHelper();
        tensor.tensorView = view;
        VkDescriptorGetInfoEXT info = vku::InitStructHelper(&tensor);
        info.type = VK_DESCRIPTOR_TYPE_TENSOR_ARM;
        const VkDeviceSize offset = (binding == 0 ? tables_offset_ : out_offset_) + element * descriptor_size;
        c_.vk.vkGetDescriptorEXT(c_.device, &info, descriptor_size, static_cast<std::byte*>(descriptors_.mapped) + offset);
        covers("vkGetDescriptorEXT");
    }

    // Binds the descriptor buffer at offset 0 for set 0, the pipeline and `pick`, for a dispatch.
    void record_binds(VkCommandBuffer cb, uint32_t pick) {
        VkDescriptorBufferBindingInfoEXT binding = vku::InitStructHelper();
        binding.address = descriptors_address_;
        binding.usage = VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT;
        c_.vk.vkCmdBindDescriptorBuffersEXT(cb, 1, &binding);
        const uint32_t index = 0;
        const VkDeviceSize offset = 0;
        c_.vk.vkCmdSetDescriptorBufferOffsetsEXT(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &index, &offset);
        c_.vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
        c_.vk.vkCmdPushConstants(cb, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &pick);
    }

    VkDeviceSize layout_size() const { return layout_size_; }
    VkDeviceSize tables_offset() const { return tables_offset_; }
    VkDeviceSize out_offset() const { return out_offset_; }

  private:
    Context& c_;
    VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkShaderModule module_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    VkDeviceSize layout_size_ = 0, tables_offset_ = 0, out_offset_ = 0;
    Buffer descriptors_;  // the context's, destroyed with it
    VkDeviceAddress descriptors_address_ = 0;
};

TEST(ArmTensorsDescriptorBuffer, TheFeatureAndTheDescriptorSizeFollowTheDriversStorageBuffers) {
    Context with_layer({});
    VkPhysicalDeviceDescriptorBufferTensorFeaturesARM tensor = vku::InitStructHelper();
    VkPhysicalDeviceDescriptorBufferFeaturesEXT driver = vku::InitStructHelper(&tensor);
    VkPhysicalDeviceFeatures2 features = vku::InitStructHelper(&driver);
    vkGetPhysicalDeviceFeatures2(with_layer.physical_device, &features);
    ASSERT_TRUE(driver.descriptorBuffer) << "both lavapipes have descriptor buffers";
    EXPECT_TRUE(tensor.descriptorBufferTensorDescriptors);
    const DescriptorBufferSizes sizes = descriptor_buffer_sizes(with_layer.physical_device);
    // Two storage-buffer descriptors (the tensor's data and its shape record, lowering/arm_tensors.h).
    EXPECT_EQ(sizes.tensor.tensorDescriptorSize, 2 * sizes.driver.storageBufferDescriptorSize);
    EXPECT_EQ(sizes.driver.storageBufferDescriptorSize, sizes.driver.robustStorageBufferDescriptorSize);
    // Capture and replay is not emulated: no capture data.
    EXPECT_EQ(sizes.tensor.tensorCaptureReplayDescriptorDataSize, 0u);
    EXPECT_EQ(sizes.tensor.tensorViewCaptureReplayDescriptorDataSize, 0u);
}

TEST(ArmTensorsDescriptorBuffer, SetLayoutsHaveRoomForEveryTensorDescriptor) {
    TensorDevice device({.descriptor_buffer = true});
    const size_t size = descriptor_buffer_sizes(device.context().physical_device).tensor.tensorDescriptorSize;
    DescriptorBufferArrays arrays(device);
    // tables[4] then out_tensor, whichever order the driver puts them in, without overlapping.
    const VkDeviceSize first = std::min(arrays.tables_offset(), arrays.out_offset());
    const VkDeviceSize second = std::max(arrays.tables_offset(), arrays.out_offset());
    const VkDeviceSize first_extent = (first == arrays.tables_offset() ? 4 : 1) * size;
    const VkDeviceSize second_extent = (second == arrays.tables_offset() ? 4 : 1) * size;
    EXPECT_GE(second, first + first_extent);
    EXPECT_GE(arrays.layout_size(), second + second_extent);
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor"), 0u) << device.messages.dump();
}

// Tables t = 0..3 of 16 ints; out[i] = tables[2][i] + tables[pick][i] + tables[i % 4][i] (arrays.comp).
void run_arrays(bool copy_between) {
    TensorDevice device({.descriptor_buffer = true});
    Context& c = device.context();
    const size_t size = descriptor_buffer_sizes(c.physical_device).tensor.tensorDescriptorSize;
    DescriptorBufferArrays arrays(device);
    std::vector<TestTensor> tables;
    for (uint32_t t = 0; t < 4; ++t) {
        tables.push_back(device.create(VK_FORMAT_R32_SINT, {16}));
        for (int32_t i = 0; i < 16; ++i) reinterpret_cast<int32_t*>(tables[t].data)[i] = static_cast<int32_t>(t) * 1000 + i * 7 - 50;
        arrays.write(0, t, device.view(tables[t], VK_FORMAT_R32_SINT), size);
    }
    const TestTensor out = device.create(VK_FORMAT_R32_SINT, {16});
    arrays.write(1, 0, device.view(out, VK_FORMAT_R32_SINT), size);
    // Short rows with gaps: the layer's compute copy, which binds descriptor sets of its own.
    const TestTensor source = device.create(VK_FORMAT_R32_UINT, {6, 3}, {32, 4});
    const TestTensor destination = device.create(VK_FORMAT_R32_UINT, {6, 3}, {16, 4});
    for (uint32_t i = 0; i < 48; ++i) reinterpret_cast<uint32_t*>(source.data)[i] = i * 11 + 1;
    const uint32_t pick = 1;
    device.run([&](VkCommandBuffer cb) {
        arrays.record_binds(cb, pick);
        if (copy_between) {
            const std::vector<uint64_t> zero{0, 0}, extent{6, 3};
            VkTensorCopyARM region = vku::InitStructHelper();
            region.dimensionCount = 2;
            region.pSrcOffset = zero.data();
            region.pDstOffset = zero.data();
            region.pExtent = extent.data();
            VkCopyTensorInfoARM copy = vku::InitStructHelper();
            copy.srcTensor = source.tensor;
            copy.dstTensor = destination.tensor;
            copy.regionCount = 1;
            copy.pRegions = &region;
            c.vk.vkCmdCopyTensorARM(cb, &copy);
        }
        c.vk.vkCmdDispatch(cb, 1, 1, 1);
    });
    for (int32_t i = 0; i < 16; ++i) {
        const auto table = [&](size_t t) { return reinterpret_cast<const int32_t*>(tables[t].data)[i]; };
        EXPECT_EQ(reinterpret_cast<const int32_t*>(out.data)[i], table(2) + table(pick) + table(static_cast<size_t>(i) % 4)) << i;
    }
    EXPECT_TRUE(TensorDevice::canaries_intact(out));
    if (copy_between) {
        for (uint32_t y = 0; y < 6; ++y) {
            for (uint32_t x = 0; x < 3; ++x) {
                EXPECT_EQ(reinterpret_cast<const uint32_t*>(destination.data)[y * 4 + x], (y * 8 + x) * 11 + 1) << y << "," << x;
            }
        }
    }
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor"), 0u) << device.messages.dump();
}

TEST(ArmTensorsDescriptorBuffer, AnArrayOfTensorsIsReadAndWrittenThroughADescriptorBuffer) { run_arrays(false); }

TEST(ArmTensorsDescriptorBuffer, TheDescriptorBufferOffsetsSurviveAComputeCopy) { run_arrays(true); }

TEST(ArmTensorsDescriptorBuffer, BadDescriptorRequestsAreRefusedWithTheirRule) {
    TensorDevice device({.descriptor_buffer = true});
    Context& c = device.context();
    const size_t size = descriptor_buffer_sizes(c.physical_device).tensor.tensorDescriptorSize;
    const TestTensor tensor = device.create(VK_FORMAT_R32_SINT, {4});
    const VkTensorViewARM view = device.view(tensor, VK_FORMAT_R32_SINT);
    std::vector<std::byte> out(2 * size, std::byte{0x5a});
    VkDescriptorGetTensorInfoARM tensor_info = vku::InitStructHelper();
    tensor_info.tensorView = view;
    VkDescriptorGetInfoEXT info = vku::InitStructHelper(&tensor_info);
    info.type = VK_DESCRIPTOR_TYPE_TENSOR_ARM;
    c.vk.vkGetDescriptorEXT(c.device, &info, size / 2, out.data());
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", "VUID-vkGetDescriptorEXT-dataSize-08125"), 1u) << device.messages.dump();
    info.pNext = nullptr;
    c.vk.vkGetDescriptorEXT(c.device, &info, size, out.data());
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", "VUID-VkDescriptorGetInfoEXT-type-09701"), 1u) << device.messages.dump();
    info.pNext = &tensor_info;
    tensor_info.tensorView = VK_NULL_HANDLE;  // nullDescriptor is not enabled
    c.vk.vkGetDescriptorEXT(c.device, &info, size, out.data());
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", "VUID-VkDescriptorGetTensorInfoARM-nullDescriptor-09899"), 1u)
        << device.messages.dump();
    tensor_info.tensorView = reinterpret_cast<VkTensorViewARM>(out.data());  // no view of this device
    c.vk.vkGetDescriptorEXT(c.device, &info, size, out.data());
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", "is not a tensor view of this device"), 1u) << device.messages.dump();
    EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](std::byte b) { return b == std::byte{0x5a}; })) << "nothing is written";

    // Capture and replay needs descriptorBufferCaptureReplay, which neither driver has.
    VkTensorCaptureDescriptorDataInfoARM capture = vku::InitStructHelper();
    capture.tensor = tensor.tensor;
    EXPECT_EQ(c.vk.vkGetTensorOpaqueCaptureDescriptorDataARM(c.device, &capture, out.data()), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", "VUID-vkGetTensorOpaqueCaptureDescriptorDataARM-descriptorBufferCaptureReplay-09702"),
              1u);
    VkTensorViewCaptureDescriptorDataInfoARM view_capture = vku::InitStructHelper();
    view_capture.tensorView = view;
    EXPECT_EQ(c.vk.vkGetTensorViewOpaqueCaptureDescriptorDataARM(c.device, &view_capture, out.data()), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_EQ(
        device.messages.count("vkpolyfill-tensor", "VUID-vkGetTensorViewOpaqueCaptureDescriptorDataARM-descriptorBufferCaptureReplay-09706"),
        1u);
    for (const char* command : {"vkGetTensorOpaqueCaptureDescriptorDataARM", "vkGetTensorViewOpaqueCaptureDescriptorDataARM"}) covers(command);
    VkTensorViewCreateInfoARM view_info = vku::InitStructHelper();
    view_info.flags = VK_TENSOR_VIEW_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM;
    view_info.tensor = tensor.tensor;
    view_info.format = VK_FORMAT_R32_SINT;
    VkTensorViewARM refused = VK_NULL_HANDLE;
    EXPECT_EQ(c.vk.vkCreateTensorViewARM(c.device, &view_info, nullptr, &refused), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_EQ(refused, VK_NULL_HANDLE);
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", "VUID-VkTensorViewCreateInfoARM-flags-09745"), 1u) << device.messages.dump();
}

}  // namespace
}  // namespace vkpolyfill::test
