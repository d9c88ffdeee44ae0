// vkCmdCopyTensorARM against a CPU reference: packed tensors (one buffer copy), strided tensors with
// long rows (buffer copies per row) and with short ones (the layer's compute copy), many regions at
// once, every element size, bfloat16 and float8 values; canaries around and between the destination's
// elements stay; and the application's compute pipeline, descriptor sets (bound, pushed, pushed
// through a template, and their maintenance6 forms) and push constants survive a compute copy.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
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

Region whole(const std::vector<int64_t>& dimensions) {
    Region r;
    for (int64_t n : dimensions) {
        r.source_offset.push_back(0);
        r.destination_offset.push_back(0);
        r.extent.push_back(static_cast<uint64_t>(n));
    }
    return r;
}

void fill_source(const TestTensor& t) {
    const size_t bytes = static_cast<size_t>(t.strides[0] * t.dimensions[0]);
    for (size_t i = 0; i < bytes; ++i) t.data[i] = static_cast<std::byte>((i * 7 + 3) & 0xff);
}

// What the destination holds after the copy: the source's element bytes at every copied position,
// the canary everywhere else in the destination's memory.
std::vector<std::byte> reference(const TestTensor& source, const TestTensor& destination, const std::vector<Region>& regions) {
    std::vector<std::byte> expected(destination.size, kCanary);
    for (const Region& given : regions) {
        const Region r = given.extent.empty() ? whole(source.dimensions) : given;
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
        VkTensorCopyARM region = vku::InitStructHelper();  // an empty Region: dimensionCount 0, the whole tensor
        region.dimensionCount = static_cast<uint32_t>(r.extent.size());
        region.pSrcOffset = r.source_offset.empty() ? nullptr : r.source_offset.data();
        region.pDstOffset = r.destination_offset.empty() ? nullptr : r.destination_offset.data();
        region.pExtent = r.extent.empty() ? nullptr : r.extent.data();
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

TEST(ArmTensorsCopy, APackedTensorIsCopiedWhole) {
    check_copy(VK_FORMAT_R32_SFLOAT, {3, 5, 7}, {}, {}, {whole({3, 5, 7})});
}

TEST(ArmTensorsCopy, ARegionOfDimensionCountZeroIsTheWholeTensor) {
    check_copy(VK_FORMAT_R32_SFLOAT, {3, 5, 7}, {}, {}, {Region{}});                          // packed: one buffer copy
    check_copy(VK_FORMAT_R16_UINT, {5, 3, 3}, {3 * 5 * 2, 5 * 2, 2}, {3 * 4 * 2, 4 * 2, 2}, {Region{}});  // compute copy
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

// The value of an encoded element (the formats' definitions: bfloat16 is the high half of a float;
// float8 E4M3 has bias 7, no infinities and NaN at S.1111.111; E5M2 has bias 15 and IEEE specials).
double decode(VkFormat format, const std::byte* element) {
    if (format == VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM) {
        uint16_t half;
        std::memcpy(&half, element, 2);
        const uint32_t bits = uint32_t{half} << 16;
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
    }
    const bool e4m3 = format == VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM;
    const uint32_t byte = std::to_integer<uint32_t>(*element);
    const int mantissa_bits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
    const uint32_t exponent = (byte & 0x7f) >> mantissa_bits, mantissa = byte & ((1u << mantissa_bits) - 1);
    const double sign = (byte & 0x80) ? -1.0 : 1.0;
    const uint32_t max_exponent = (1u << (7 - mantissa_bits)) - 1;
    if (e4m3 && (byte & 0x7f) == 0x7f) return std::nan("");
    if (!e4m3 && exponent == max_exponent) return mantissa ? std::nan("") : sign * INFINITY;
    if (exponent == 0) return sign * std::ldexp(mantissa, 1 - bias - mantissa_bits);
    return sign * std::ldexp((1u << mantissa_bits) + mantissa, static_cast<int>(exponent) - bias - mantissa_bits);
}

// bfloat16 and float8 tensors are copied (packed: a buffer copy; short strided rows: the compute
// copy) element for element: every value the source held, the destination holds.
TEST(ArmTensorsCopy, Bfloat16AndFloat8ElementsKeepTheirValues) {
    EXPECT_EQ(decode(VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM, std::array{std::byte{0x80}, std::byte{0x3f}}.data()), 1.0);
    EXPECT_EQ(decode(VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM, std::array{std::byte{0x38}}.data()), 1.0);
    EXPECT_EQ(decode(VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM, std::array{std::byte{0x7e}}.data()), 448.0);
    EXPECT_EQ(decode(VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM, std::array{std::byte{0x3c}}.data()), 1.0);
    EXPECT_EQ(decode(VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM, std::array{std::byte{0x7b}}.data()), 57344.0);
    for (VkFormat format : {VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM, VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM,
                            VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM}) {
        SCOPED_TRACE(format);
        const int64_t e = element_size(format);
        for (bool strided : {false, true}) {
            TensorDevice device;
            const std::vector<int64_t> dimensions{16, 16};
            // Transfers only: no lowered shader reads these formats.
            constexpr VkTensorUsageFlagsARM kUsage = VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM | VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM;
            const std::vector<int64_t> no_strides;
            const TestTensor source = device.create(format, dimensions, strided ? std::vector<int64_t>{20 * e, e} : no_strides, kUsage);
            const TestTensor destination = device.create(format, dimensions, strided ? std::vector<int64_t>{17 * e, e} : no_strides, kUsage);
            // Every 8-bit pattern; for bfloat16 the high bytes of floats from -1000 to 1000.
            std::vector<double> expected;
            for (uint32_t y = 0; y < 16; ++y) {
                for (uint32_t x = 0; x < 16; ++x) {
                    std::byte* element = source.data + source.offset({y, x});
                    if (e == 1) {
                        *element = std::byte(y * 16 + x);
                    } else {
                        const float f = (static_cast<float>(y * 16 + x) - 128.0f) * 7.8125f;
                        uint32_t bits;
                        std::memcpy(&bits, &f, 4);
                        const uint16_t high = static_cast<uint16_t>(bits >> 16);
                        std::memcpy(element, &high, 2);
                    }
                    expected.push_back(decode(format, element));
                }
            }
            device.run([&](VkCommandBuffer cb) { copy(device, source, destination, {whole(dimensions)}, cb); });
            size_t wrong = 0;
            for (uint32_t y = 0; y < 16; ++y) {
                for (uint32_t x = 0; x < 16; ++x) {
                    const double want = expected[y * 16 + x], got = decode(format, destination.data + destination.offset({y, x}));
                    if (!(got == want || (std::isnan(got) && std::isnan(want)))) ++wrong;
                }
            }
            EXPECT_EQ(wrong, 0u) << (strided ? "strided" : "packed");
            EXPECT_TRUE(TensorDevice::canaries_intact(destination));
            EXPECT_EQ(device.messages.count("vkpolyfill-tensor"), 0u) << device.messages.dump();
        }
    }
}

// How the application gives compute_state.comp its two buffers and its constants.
enum class StateCalls {
    Push,           // vkCmdPushDescriptorSetKHR, vkCmdPushConstants
    PushTemplate,   // vkCmdPushDescriptorSetWithTemplateKHR through a compute push template
    Push2,          // maintenance6: vkCmdPushDescriptorSet2KHR, vkCmdPushConstants2KHR
    PushTemplate2,  // maintenance6: vkCmdPushDescriptorSetWithTemplate2KHR, vkCmdPushConstants2KHR
    Bind2,          // maintenance6: vkCmdBindDescriptorSets2KHR of a set, vkCmdPushConstants2KHR
};

// The application's buffers and constants, given by `calls`, are what its dispatch after a compute
// copy uses (the data a template read is overwritten after the push: the layer must have kept its own).
void check_state_survives(StateCalls calls) {
    const bool maintenance6 = calls == StateCalls::Push2 || calls == StateCalls::PushTemplate2 || calls == StateCalls::Bind2;
    TensorDevice device({.maintenance6 = maintenance6});
    Context& c = device.context();
    const TestTensor source = device.create(VK_FORMAT_R16_UINT, {9, 5}, {16, 2});
    const TestTensor destination = device.create(VK_FORMAT_R16_UINT, {9, 5});
    fill_source(source);
    const VkDescriptorSetLayoutBinding bindings[] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
                                                     {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    VkDescriptorSetLayout set_layout;
    const VkPipelineLayout layout = create_one_set_layout(
        c, bindings, calls == StateCalls::Bind2 ? 0 : VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT, 8, set_layout);
    VkShaderModule module;
    const VkPipeline pipeline = create_shader_pipeline(c, read_shader("tests/tensors/compute_state.comp"), layout, 0, module);
    Buffer in = c.create_buffer(64 * 4), out = c.create_buffer(64 * 4), wrong = c.create_buffer(64 * 4);
    for (uint32_t i = 0; i < 64; ++i) in.as<uint32_t>()[i] = i;
    VkDescriptorBufferInfo infos[] = {{in.buffer, 0, VK_WHOLE_SIZE}, {out.buffer, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet write = vku::InitStructHelper();
    write.descriptorCount = 2;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = infos;

    VkDescriptorUpdateTemplate update_template = VK_NULL_HANDLE;
    const VkDescriptorUpdateTemplateEntry entry{0, 0, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, sizeof(VkDescriptorBufferInfo)};
    VkDescriptorUpdateTemplateCreateInfo template_info = vku::InitStructHelper();
    template_info.descriptorUpdateEntryCount = 1;
    template_info.pDescriptorUpdateEntries = &entry;
    template_info.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS;
    template_info.pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
    template_info.pipelineLayout = layout;
    ASSERT_EQ(c.vk.vkCreateDescriptorUpdateTemplate(c.device, &template_info, nullptr, &update_template), VK_SUCCESS);

    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkDescriptorSet set = VK_NULL_HANDLE;
    if (calls == StateCalls::Bind2) {
        const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
        VkDescriptorPoolCreateInfo pool_info = vku::InitStructHelper();
        pool_info.maxSets = 1;
        pool_info.poolSizeCount = 1;
        pool_info.pPoolSizes = &size;
        ASSERT_EQ(c.vk.vkCreateDescriptorPool(c.device, &pool_info, nullptr, &pool), VK_SUCCESS);
        VkDescriptorSetAllocateInfo allocate = vku::InitStructHelper();
        allocate.descriptorPool = pool;
        allocate.descriptorSetCount = 1;
        allocate.pSetLayouts = &set_layout;
        ASSERT_EQ(c.vk.vkAllocateDescriptorSets(c.device, &allocate, &set), VK_SUCCESS);
        write.dstSet = set;
        c.vk.vkUpdateDescriptorSets(c.device, 1, &write, 0, nullptr);
    }

    const uint32_t constants[] = {5, 7};
    const std::vector<Region> regions{whole({9, 5})};
    device.run([&](VkCommandBuffer cb) {
        c.vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        const VkPushConstantsInfo push_constants{VK_STRUCTURE_TYPE_PUSH_CONSTANTS_INFO, nullptr, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                                 sizeof(constants), constants};
        switch (calls) {
            case StateCalls::Push:
                c.vk.vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &write);
                break;
            case StateCalls::PushTemplate:
                c.vk.vkCmdPushDescriptorSetWithTemplateKHR(cb, update_template, layout, 0, infos);
                covers("vkCmdPushDescriptorSetWithTemplateKHR");
                break;
            case StateCalls::Push2: {
                const VkPushDescriptorSetInfo info{VK_STRUCTURE_TYPE_PUSH_DESCRIPTOR_SET_INFO, nullptr, VK_SHADER_STAGE_COMPUTE_BIT, layout, 0, 1, &write};
                c.vk.vkCmdPushDescriptorSet2KHR(cb, &info);
                covers("vkCmdPushDescriptorSet2KHR");
                break;
            }
            case StateCalls::PushTemplate2: {
                const VkPushDescriptorSetWithTemplateInfo info{VK_STRUCTURE_TYPE_PUSH_DESCRIPTOR_SET_WITH_TEMPLATE_INFO, nullptr, update_template, layout, 0,
                                                               infos};
                c.vk.vkCmdPushDescriptorSetWithTemplate2KHR(cb, &info);
                covers("vkCmdPushDescriptorSetWithTemplate2KHR");
                break;
            }
            case StateCalls::Bind2: {
                const VkBindDescriptorSetsInfo info{VK_STRUCTURE_TYPE_BIND_DESCRIPTOR_SETS_INFO, nullptr, VK_SHADER_STAGE_COMPUTE_BIT, layout, 0, 1, &set,
                                                    0, nullptr};
                c.vk.vkCmdBindDescriptorSets2KHR(cb, &info);
                covers("vkCmdBindDescriptorSets2KHR");
                break;
            }
        }
        if (maintenance6) {
            c.vk.vkCmdPushConstants2KHR(cb, &push_constants);
            covers("vkCmdPushConstants2KHR");
        } else {
            c.vk.vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(constants), constants);
        }
        infos[0].buffer = infos[1].buffer = wrong.buffer;  // what the application pushed was read already
        copy(device, source, destination, regions, cb);   // 10-byte rows: the compute copy
        c.vk.vkCmdDispatch(cb, 1, 1, 1);
    });
    for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(out.as<uint32_t>()[i], i * 5 + 7) << i;
    EXPECT_EQ(std::memcmp(destination.data, reference(source, destination, regions).data(), destination.size), 0);
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor"), 0u) << device.messages.dump();
    c.vk.vkDestroyDescriptorPool(c.device, pool, nullptr);
    c.vk.vkDestroyDescriptorUpdateTemplate(c.device, update_template, nullptr);
    c.vk.vkDestroyPipeline(c.device, pipeline, nullptr);
    c.vk.vkDestroyShaderModule(c.device, module, nullptr);
    c.vk.vkDestroyPipelineLayout(c.device, layout, nullptr);
    c.vk.vkDestroyDescriptorSetLayout(c.device, set_layout, nullptr);
}

TEST(ArmTensorsCopy, TheApplicationsPushedDescriptorsSurviveAComputeCopy) { check_state_survives(StateCalls::Push); }
TEST(ArmTensorsCopy, DescriptorsPushedThroughATemplateSurviveAComputeCopy) { check_state_survives(StateCalls::PushTemplate); }
TEST(ArmTensorsCopy, Maintenance6PushesSurviveAComputeCopy) { check_state_survives(StateCalls::Push2); }
TEST(ArmTensorsCopy, Maintenance6TemplatePushesSurviveAComputeCopy) { check_state_survives(StateCalls::PushTemplate2); }
TEST(ArmTensorsCopy, Maintenance6BindsSurviveAComputeCopy) { check_state_survives(StateCalls::Bind2); }

// A refused copy records nothing: the destination keeps every byte, and the message names the rule.
void check_refused(TensorDevice& device, const TestTensor& source, const TestTensor& destination, const std::vector<Region>& regions,
                   const char* message) {
    const std::vector<std::byte> before(destination.data, destination.data + destination.size);
    const size_t reported = device.messages.count("vkpolyfill-tensor", message);
    device.run([&](VkCommandBuffer cb) { copy(device, source, destination, regions, cb); });
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", message), reported + 1) << device.messages.dump();
    EXPECT_TRUE(std::equal(before.begin(), before.end(), destination.data));
    EXPECT_TRUE(TensorDevice::canaries_intact(destination));
}

TEST(ArmTensorsCopy, ACopyBetweenMismatchedTensorsIsRefusedWithAMessage) {
    TensorDevice device;
    const TestTensor a = device.create(VK_FORMAT_R32_UINT, {4, 4});
    const TestTensor b = device.create(VK_FORMAT_R32_UINT, {2, 4});
    check_refused(device, a, b, {whole({4, 4})}, "pRegions[0] in dimension 0");
}

TEST(ArmTensorsCopy, OffsetsThatWouldWrapAroundAreRefused) {
    TensorDevice device;
    const TestTensor a = device.create(VK_FORMAT_R32_UINT, {4, 4});
    const TestTensor b = device.create(VK_FORMAT_R32_UINT, {4, 4});
    fill_source(a);
    // offset + extent wraps to 1: within the tensor if the sum were trusted.
    check_refused(device, a, b, {{{UINT64_MAX, 0}, {0, 0}, {2, 4}}}, "pRegions[0] in dimension 0");
    check_refused(device, a, b, {{{0, 0}, {0, 2}, {4, UINT64_MAX - 1}}}, "pRegions[0] in dimension 1");
}

TEST(ArmTensorsCopy, OverlappingRegionsAreRefused) {
    TensorDevice device;
    const TestTensor a = device.create(VK_FORMAT_R32_UINT, {4, 4});
    const TestTensor b = device.create(VK_FORMAT_R32_UINT, {4, 4});
    fill_source(a);
    check_refused(device, a, a, {{{0, 0}, {1, 0}, {2, 4}}}, "same tensor and pRegions[0]'s destination overlaps pRegions[0]'s source");
    check_refused(device, a, a, {{{0, 0}, {2, 0}, {2, 4}}, {{2, 0}, {0, 0}, {1, 4}}}, "pRegions[0]'s destination overlaps pRegions[1]'s source");
    check_refused(device, a, b, {{{0, 0}, {0, 0}, {2, 4}}, {{2, 0}, {1, 0}, {2, 4}}}, "the destinations of pRegions[0] and pRegions[1] overlap");
    check_refused(device, a, a, {Region{}}, "same tensor");
}

TEST(ArmTensorsCopy, DisjointRegionsOfOneTensorAreCopied) {
    TensorDevice device;
    const TestTensor a = device.create(VK_FORMAT_R32_UINT, {4, 4});
    fill_source(a);
    const std::vector<std::byte> before(a.data, a.data + a.size);
    device.run([&](VkCommandBuffer cb) { copy(device, a, a, {{{0, 0}, {2, 0}, {2, 4}}}, cb); });  // rows 0-1 onto rows 2-3
    const size_t half = a.offset({2, 0});
    EXPECT_TRUE(std::equal(before.begin(), before.begin() + half, a.data));         // the source rows are unchanged
    EXPECT_TRUE(std::equal(before.begin(), before.begin() + half, a.data + half));  // and now the destination's too
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor"), 0u) << device.messages.dump();
}

TEST(ArmTensorsCopy, ACopyOfATensorWithoutMemoryIsRefused) {
    TensorDevice device;
    const TestTensor bound = device.create(VK_FORMAT_R32_UINT, {4, 4});
    const VolkDeviceTable& vk = device.context().vk;
    const std::vector<int64_t> dimensions = {4, 4};
    const VkTensorDescriptionARM description = tensor_description(VK_FORMAT_R32_UINT, dimensions, {}, VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM);
    VkTensorCreateInfoARM info = vku::InitStructHelper();
    info.pDescription = &description;
    TestTensor unbound = bound;
    ASSERT_EQ(vk.vkCreateTensorARM(device.context().device, &info, nullptr, &unbound.tensor), VK_SUCCESS);
    check_refused(device, unbound, bound, {Region{}}, "srcTensor is not bound to memory (VUID-VkCopyTensorInfoARM-srcTensor-09694)");
    vk.vkDestroyTensorARM(device.context().device, unbound.tensor, nullptr);
}

}  // namespace
}  // namespace vkpolyfill::test
