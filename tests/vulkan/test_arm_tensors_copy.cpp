// vkCmdCopyTensorARM against a CPU reference: packed tensors (one buffer copy), strided tensors with
// long rows (buffer copies per row) and with short ones (the layer's compute copy), many regions at
// once, every element size; canaries around and between the destination's elements stay; and the
// application's compute pipeline, descriptor set and push constants survive a compute copy.
#include <cstring>
#include <algorithm>
#include <numeric>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "arm_tensor_device.h"
#include "coverage_tags.h"

namespace vkpolyfill::test {
namespace {

struct Region {
    std::vector<uint64_t> source_offset, destination_offset, extent;
};

void fill_source(const TestTensor& t) {
    const size_t bytes = static_cast<size_t>(t.strides[0] * t.dimensions[0]);
    for (size_t i = 0; i < bytes; ++i) t.data[i] = static_cast<std::byte>((i * 7 + 3) & 0xff);
}

// What the destination holds after the copy: the source's element bytes at every copied position,
// the canary everywhere else in the destination's memory.
std::vector<std::byte> reference(const TestTensor& source, const TestTensor& destination, const std::vector<Region>& regions) {
    std::vector<std::byte> expected(destination.size, kCanary);
    for (const Region& r : regions) {
        const size_t rank = r.extent.size();
        std::vector<uint64_t> index(rank, 0);
        const uint64_t count = std::accumulate(r.extent.begin(), r.extent.end(), uint64_t{1}, std::multiplies<>());
        for (uint64_t n = 0; n < count; ++n) {
            std::vector<uint64_t> s(rank), d(rank);
            for (size_t k = 0; k < rank; ++k) {
                s[k] = r.source_offset[k] + index[k];
                d[k] = r.destination_offset[k] + index[k];
            }
            std::memcpy(&expected[destination.offset(d)], source.data + source.offset(s), source.element_size);
            for (size_t k = rank; k-- > 0;) {
                if (++index[k] < r.extent[k]) break;
                index[k] = 0;
            }
        }
    }
    return expected;
}

void copy(TensorDevice& device, const TestTensor& source, const TestTensor& destination, const std::vector<Region>& regions,
          VkCommandBuffer cb) {
    std::vector<VkTensorCopyARM> copies;
    for (const Region& r : regions) {
        VkTensorCopyARM region = vku::InitStructHelper();
        region.dimensionCount = static_cast<uint32_t>(r.extent.size());
        region.pSrcOffset = r.source_offset.data();
        region.pDstOffset = r.destination_offset.data();
        region.pExtent = r.extent.data();
        copies.push_back(region);
    }
    VkCopyTensorInfoARM info = vku::InitStructHelper();
    info.srcTensor = source.tensor;
    info.dstTensor = destination.tensor;
    info.regionCount = static_cast<uint32_t>(copies.size());
    info.pRegions = copies.data();
    device.context().vk.vkCmdCopyTensorARM(cb, &info);
    covers("vkCmdCopyTensorARM");
}

void check_copy(VkFormat format, const std::vector<int64_t>& dimensions, const std::vector<int64_t>& source_strides,
                const std::vector<int64_t>& destination_strides, const std::vector<Region>& regions) {
    TensorDevice device;
    const TestTensor source = device.create(format, dimensions, source_strides);
    const TestTensor destination = device.create(format, dimensions, destination_strides);
    fill_source(source);
    device.run([&](VkCommandBuffer cb) { copy(device, source, destination, regions, cb); });
    const std::vector<std::byte> expected = reference(source, destination, regions);
    size_t wrong = 0, first = SIZE_MAX;
    for (size_t i = 0; i < expected.size(); ++i) {
        if (destination.data[i] != expected[i]) {
            ++wrong;
            first = std::min(first, i);
        }
    }
    EXPECT_EQ(wrong, 0u) << "first wrong byte at " << first;
    EXPECT_TRUE(TensorDevice::canaries_intact(destination));
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor"), 0u) << device.messages.dump();
}

Region whole(const std::vector<int64_t>& dimensions) {
    Region r;
    for (int64_t n : dimensions) {
        r.source_offset.push_back(0);
        r.destination_offset.push_back(0);
        r.extent.push_back(static_cast<uint64_t>(n));
    }
    return r;
}

TEST(ArmTensorsCopy, APackedTensorIsCopiedWhole) {
    check_copy(VK_FORMAT_R32_SFLOAT, {3, 5, 7}, {}, {}, {whole({3, 5, 7})});
}

TEST(ArmTensorsCopy, StridedTensorsWithLongRowsAreCopiedRowByRow) {
    // Rows of 32 floats (128 bytes) with gaps between them in both tensors.
    check_copy(VK_FORMAT_R32_UINT, {4, 6, 32}, {6 * 160, 160, 4}, {6 * 136 + 8, 136, 4}, {whole({4, 6, 32})});
}

TEST(ArmTensorsCopy, StridedTensorsWithShortRowsAreCopiedByTheLayersComputeShader) {
    for (VkFormat format : {VK_FORMAT_R8_UINT, VK_FORMAT_R16_SFLOAT, VK_FORMAT_R32_SINT, VK_FORMAT_R64_UINT}) {
        SCOPED_TRACE(format);
        const int64_t e = element_size(format);
        check_copy(format, {5, 3, 3}, {3 * 5 * e, 5 * e, e}, {3 * 4 * e, 4 * e, e}, {whole({5, 3, 3})});
    }
}

TEST(ArmTensorsCopy, ManyLongRowsAreCopiedInChunksByTheComputeShader) {
    // More rows than the buffer-copy path takes, each 40 elements: chunks of 16, 16 and 8.
    check_copy(VK_FORMAT_R32_UINT, {4100, 40}, {176, 4}, {168, 4}, {whole({4100, 40})});
}

TEST(ArmTensorsCopy, ManyRegionsOfEveryKindInOneCopy) {
    std::vector<Region> regions;
    // Disjoint destination blocks of a 6 x 8 x 8 tensor: each plane of the outer dimension one region.
    for (uint64_t i = 0; i < 6; ++i) regions.push_back({{5 - i, 0, 0}, {i, 0, 0}, {1, 8, 8}});
    check_copy(VK_FORMAT_R16_UINT, {6, 8, 8}, {}, {}, regions);                              // packed planes
    check_copy(VK_FORMAT_R16_UINT, {6, 8, 8}, {8 * 24, 24, 2}, {8 * 20, 20, 2}, regions);    // short rows: compute
    regions = {{{0, 0, 0}, {1, 2, 3}, {2, 3, 4}}, {{3, 4, 2}, {4, 5, 0}, {2, 3, 3}}, {{5, 7, 7}, {0, 0, 7}, {1, 1, 1}}};
    check_copy(VK_FORMAT_R32_UINT, {6, 8, 8}, {}, {8 * 12 * 4, 12 * 4, 4}, regions);  // sub-blocks at offsets
}

// The application's compute state around a copy through the compute path.
TEST(ArmTensorsCopy, TheApplicationsComputeStateSurvivesAComputeCopy) {
    TensorDevice device;
    Context& c = device.context();
    const TestTensor source = device.create(VK_FORMAT_R32_UINT, {8, 3}, {64, 4});
    const TestTensor destination = device.create(VK_FORMAT_R32_UINT, {8, 3}, {32, 4});
    fill_source(source);
    const ComputePipeline pipeline = c.create_compute_pipeline(read_shader("tests/tensors/compute_state.comp"), 2, 8);
    Buffer in = c.create_buffer(64 * 4), out = c.create_buffer(64 * 4);
    for (uint32_t i = 0; i < 64; ++i) in.as<uint32_t>()[i] = i;

    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo pool_info = vku::InitStructHelper();
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = 1;
    pool_info.pPoolSizes = &size;
    VkDescriptorPool pool;
    ASSERT_EQ(c.vk.vkCreateDescriptorPool(c.device, &pool_info, nullptr, &pool), VK_SUCCESS);
    VkDescriptorSetAllocateInfo allocate = vku::InitStructHelper();
    allocate.descriptorPool = pool;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &pipeline.set_layout;
    VkDescriptorSet set;
    ASSERT_EQ(c.vk.vkAllocateDescriptorSets(c.device, &allocate, &set), VK_SUCCESS);
    const VkDescriptorBufferInfo infos[] = {{in.buffer, 0, VK_WHOLE_SIZE}, {out.buffer, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet write = vku::InitStructHelper();
    write.dstSet = set;
    write.descriptorCount = 2;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = infos;
    c.vk.vkUpdateDescriptorSets(c.device, 1, &write, 0, nullptr);

    const uint32_t constants[] = {3, 1000};
    const std::vector<Region> regions{whole({8, 3})};
    device.run([&](VkCommandBuffer cb) {
        c.vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
        c.vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set, 0, nullptr);
        c.vk.vkCmdPushConstants(cb, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(constants), constants);
        copy(device, source, destination, regions, cb);
        c.vk.vkCmdDispatch(cb, 1, 1, 1);  // with what the application bound, not the copy's
    });
    for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(out.as<uint32_t>()[i], i * 3 + 1000) << i;
    EXPECT_EQ(std::memcmp(destination.data, reference(source, destination, regions).data(), destination.size), 0);
    c.vk.vkDestroyDescriptorPool(c.device, pool, nullptr);
}

// The same with the application's buffers pushed (VK_KHR_push_descriptor) rather than bound.
TEST(ArmTensorsCopy, TheApplicationsPushedDescriptorsSurviveAComputeCopy) {
    TensorDevice device;
    Context& c = device.context();
    const TestTensor source = device.create(VK_FORMAT_R16_UINT, {9, 5}, {16, 2});
    const TestTensor destination = device.create(VK_FORMAT_R16_UINT, {9, 5});
    fill_source(source);
    const VkDescriptorSetLayoutBinding bindings[] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
                                                     {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    VkDescriptorSetLayoutCreateInfo set_info = vku::InitStructHelper();
    set_info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT;
    set_info.bindingCount = 2;
    set_info.pBindings = bindings;
    VkDescriptorSetLayout set_layout;
    ASSERT_EQ(c.vk.vkCreateDescriptorSetLayout(c.device, &set_info, nullptr, &set_layout), VK_SUCCESS);
    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
    VkPipelineLayoutCreateInfo layout_info = vku::InitStructHelper();
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout;
    layout_info.pushConstantRangeCount = 1;
    layout_info.pPushConstantRanges = &range;
    VkPipelineLayout layout;
    ASSERT_EQ(c.vk.vkCreatePipelineLayout(c.device, &layout_info, nullptr, &layout), VK_SUCCESS);
    const std::vector<uint32_t> code = read_shader("tests/tensors/compute_state.comp");
    VkShaderModuleCreateInfo module_info = vku::InitStructHelper();
    module_info.codeSize = code.size() * 4;
    module_info.pCode = code.data();
    VkShaderModule module;
    ASSERT_EQ(c.vk.vkCreateShaderModule(c.device, &module_info, nullptr, &module), VK_SUCCESS);
    VkComputePipelineCreateInfo info = vku::InitStructHelper();
    info.stage = vku::InitStructHelper();
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.layout = layout;
    VkPipeline pipeline;
    ASSERT_EQ(c.vk.vkCreateComputePipelines(c.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), VK_SUCCESS);
    Buffer in = c.create_buffer(64 * 4), out = c.create_buffer(64 * 4);
    for (uint32_t i = 0; i < 64; ++i) in.as<uint32_t>()[i] = i;

    const uint32_t constants[] = {5, 7};
    const std::vector<Region> regions{whole({9, 5})};
    device.run([&](VkCommandBuffer cb) {
        c.vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        const VkDescriptorBufferInfo infos[] = {{in.buffer, 0, VK_WHOLE_SIZE}, {out.buffer, 0, VK_WHOLE_SIZE}};
        VkWriteDescriptorSet write = vku::InitStructHelper();
        write.descriptorCount = 2;
        write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        write.pBufferInfo = infos;
        c.vk.vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &write);
        c.vk.vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(constants), constants);
        copy(device, source, destination, regions, cb);  // 10-byte rows: the compute copy
        c.vk.vkCmdDispatch(cb, 1, 1, 1);
    });
    for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(out.as<uint32_t>()[i], i * 5 + 7) << i;
    EXPECT_EQ(std::memcmp(destination.data, reference(source, destination, regions).data(), destination.size), 0);
    c.vk.vkDestroyPipeline(c.device, pipeline, nullptr);
    c.vk.vkDestroyShaderModule(c.device, module, nullptr);
    c.vk.vkDestroyPipelineLayout(c.device, layout, nullptr);
    c.vk.vkDestroyDescriptorSetLayout(c.device, set_layout, nullptr);
}

TEST(ArmTensorsCopy, ACopyBetweenMismatchedTensorsIsRefusedWithAMessage) {
    TensorDevice device;
    const TestTensor a = device.create(VK_FORMAT_R32_UINT, {4, 4});
    const TestTensor b = device.create(VK_FORMAT_R32_UINT, {2, 4});
    device.run([&](VkCommandBuffer cb) { copy(device, a, b, {whole({4, 4})}, cb); });
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", "pRegions[0] in dimension 0"), 1u) << device.messages.dump();
    EXPECT_TRUE(std::all_of(b.data, b.data + b.size, [](std::byte x) { return x == kCanary; }));
}

}  // namespace
}  // namespace vkpolyfill::test
