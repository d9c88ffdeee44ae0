// Tensor descriptors as the layer gives them to the driver (lowering/arm_tensors.h), read back by a
// plain shader that declares the binding as what the contract says it is: 2N storage buffers, the
// tensor's data at 2i and its view's 80-byte shape record at 2i + 1. Written by vkUpdateDescriptorSets,
// copied between sets, written through an update template and pushed.
#include <cstring>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "arm_tensor_device.h"

namespace vkpolyfill::test {
namespace {

constexpr uint32_t kTensors = 4;  // elements of the tensor binding (tests/tensors/read_descriptors.comp)

struct Reader {
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkShaderModule module = VK_NULL_HANDLE;
};

// The reader's pipeline; with `variable`, the tensors are the last binding, of up to 16 elements,
// update-after-bind, partially bound and of variable count (the sets are allocated with 4).
Reader make_reader(Context& c, VkDescriptorSetLayoutCreateFlags flags, bool variable = false) {
    Reader r;
    const uint32_t tensors = variable ? 1 : 0, out = variable ? 0 : 1;
    const VkDescriptorSetLayoutBinding bindings[] = {
        {tensors, VK_DESCRIPTOR_TYPE_TENSOR_ARM, variable ? 16 : kTensors, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {out, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
    };
    const VkDescriptorBindingFlags binding_flags[] = {VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT | VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT |
                                                          VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT,
                                                      VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT};
    VkDescriptorSetLayoutBindingFlagsCreateInfo flags_info = vku::InitStructHelper();
    flags_info.bindingCount = 2;
    flags_info.pBindingFlags = binding_flags;
    VkDescriptorSetLayoutCreateInfo set_info = vku::InitStructHelper(variable ? &flags_info : nullptr);
    set_info.flags = flags | (variable ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT : 0);
    set_info.bindingCount = 2;
    set_info.pBindings = bindings;
    check(c.vk.vkCreateDescriptorSetLayout(c.device, &set_info, nullptr, &r.set_layout), "vkCreateDescriptorSetLayout");
    VkPipelineLayoutCreateInfo layout_info = vku::InitStructHelper();
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &r.set_layout;
    check(c.vk.vkCreatePipelineLayout(c.device, &layout_info, nullptr, &r.layout), "vkCreatePipelineLayout");
    const std::vector<uint32_t> code = read_shader(variable ? "tests/tensors/read_descriptors_last.comp" : "tests/tensors/read_descriptors.comp");
    VkShaderModuleCreateInfo module_info = vku::InitStructHelper();
    module_info.codeSize = code.size() * 4;
    module_info.pCode = code.data();
    check(c.vk.vkCreateShaderModule(c.device, &module_info, nullptr, &r.module), "vkCreateShaderModule");
    VkComputePipelineCreateInfo info = vku::InitStructHelper();
    info.stage = vku::InitStructHelper();
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = r.module;
    info.stage.pName = "main";
    info.layout = r.layout;
    check(c.vk.vkCreateComputePipelines(c.device, VK_NULL_HANDLE, 1, &info, nullptr, &r.pipeline), "vkCreateComputePipelines");
    return r;
}

void destroy(Context& c, const Reader& r) {
    c.vk.vkDestroyPipeline(c.device, r.pipeline, nullptr);
    c.vk.vkDestroyShaderModule(c.device, r.module, nullptr);
    c.vk.vkDestroyPipelineLayout(c.device, r.layout, nullptr);
    c.vk.vkDestroyDescriptorSetLayout(c.device, r.set_layout, nullptr);
}

// Four tensors of different shapes; word 0 of each tensor's data is 100 + its index.
struct Tensors {
    std::vector<TestTensor> tensors;
    std::vector<VkTensorViewARM> views;
};

Tensors make_tensors(TensorDevice& device) {
    Tensors t;
    t.tensors.push_back(device.create(VK_FORMAT_R32_UINT, {3, 5}));
    t.tensors.push_back(device.create(VK_FORMAT_R32_SFLOAT, {2, 3, 4}, {64, 16, 4}));
    t.tensors.push_back(device.create(VK_FORMAT_R16_UINT, {7, 2, 2, 2, 2, 3}));
    t.tensors.push_back(device.create(VK_FORMAT_R8_UINT, {9, 4}, {8, 1}));
    for (size_t i = 0; i < t.tensors.size(); ++i) {
        const uint32_t word = 100 + static_cast<uint32_t>(i);
        std::memcpy(t.tensors[i].data, &word, sizeof(word));
        const VkFormat format = i == 0 ? VK_FORMAT_R32_UINT : i == 1 ? VK_FORMAT_R32_SFLOAT : i == 2 ? VK_FORMAT_R16_UINT : VK_FORMAT_R8_UINT;
        t.views.push_back(device.view(t.tensors[i], format));
    }
    return t;
}

// Runs the reader and checks element e of the binding holds tensors[order[e]].
void check_binding(TensorDevice& device, const Reader& reader, const Tensors& t, const std::vector<size_t>& order,
                   const std::function<void(VkCommandBuffer, const Buffer&)>& bind) {
    Context& c = device.context();
    const Buffer out = c.create_buffer((8 + 8 * 32) * 4);
    device.run([&](VkCommandBuffer cb) {
        c.vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, reader.pipeline);
        bind(cb, out);
        c.vk.vkCmdDispatch(cb, 1, 1, 1);
    });
    const std::span<const uint32_t> words = out.as<const uint32_t>();
    for (uint32_t e = 0; e < kTensors; ++e) {
        SCOPED_TRACE(e);
        const TestTensor& tensor = t.tensors[order[e]];
        // Data: the whole buffer, at least the tensor's extent.
        EXPECT_GE(uint64_t{words[2 * e]} * 4, uint64_t(tensor.strides[0] * tensor.dimensions[0]));
        EXPECT_EQ(words[8 + 2 * e * 32], 100 + order[e]);
        // Shape record: 20 words, rank, 3 reserved, 8 dimensions, 8 strides in elements.
        EXPECT_EQ(words[2 * e + 1], 20u);
        const uint32_t* record = &words[8 + (2 * e + 1) * 32];
        EXPECT_EQ(record[0], tensor.dimensions.size());
        for (size_t d = 0; d < 8; ++d) {
            const bool in_rank = d < tensor.dimensions.size();
            EXPECT_EQ(record[4 + d], in_rank ? uint32_t(tensor.dimensions[d]) : 0u) << d;
            EXPECT_EQ(record[12 + d], in_rank ? uint32_t(tensor.strides[d] / tensor.element_size) : 0u) << d;
        }
    }
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor"), 0u) << device.messages.dump();
}

struct Pool {
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkDescriptorSet sets[2]{};
};

Pool allocate_sets(Context& c, const Reader& reader) {
    Pool p;
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_TENSOR_ARM, 2 * kTensors}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}};
    VkDescriptorPoolCreateInfo info = vku::InitStructHelper();
    info.maxSets = 2;
    info.poolSizeCount = 2;
    info.pPoolSizes = sizes;
    check(c.vk.vkCreateDescriptorPool(c.device, &info, nullptr, &p.pool), "vkCreateDescriptorPool");
    const VkDescriptorSetLayout layouts[] = {reader.set_layout, reader.set_layout};
    VkDescriptorSetAllocateInfo allocate = vku::InitStructHelper();
    allocate.descriptorPool = p.pool;
    allocate.descriptorSetCount = 2;
    allocate.pSetLayouts = layouts;
    check(c.vk.vkAllocateDescriptorSets(c.device, &allocate, p.sets), "vkAllocateDescriptorSets");
    return p;
}

VkWriteDescriptorSet output_write(VkDescriptorSet set, const VkDescriptorBufferInfo* info) {
    VkWriteDescriptorSet write = vku::InitStructHelper();
    write.dstSet = set;
    write.dstBinding = 1;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = info;
    return write;
}

TEST(ArmTensorsDescriptors, WritesAndCopiesPlaceDataAndShapeRecordsPerTheContract) {
    TensorDevice device;
    Context& c = device.context();
    const Reader reader = make_reader(c, 0);
    const Tensors t = make_tensors(device);
    const Pool pool = allocate_sets(c, reader);

    // Element 0 alone, then 1..3 in one write, in reverse order of the tensors.
    const VkTensorViewARM first[] = {t.views[0]};
    const VkTensorViewARM rest[] = {t.views[3], t.views[2], t.views[1]};
    VkWriteDescriptorSetTensorARM tensor_writes[2] = {vku::InitStructHelper(), vku::InitStructHelper()};
    tensor_writes[0].tensorViewCount = 1;
    tensor_writes[0].pTensorViews = first;
    tensor_writes[1].tensorViewCount = 3;
    tensor_writes[1].pTensorViews = rest;
    VkWriteDescriptorSet writes[2] = {vku::InitStructHelper(&tensor_writes[0]), vku::InitStructHelper(&tensor_writes[1])};
    for (int i = 0; i < 2; ++i) {
        writes[i].dstSet = pool.sets[0];
        writes[i].dstBinding = 0;
        writes[i].dstArrayElement = i == 0 ? 0 : 1;
        writes[i].descriptorCount = i == 0 ? 1 : 3;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM;
    }
    c.vk.vkUpdateDescriptorSets(c.device, 2, writes, 0, nullptr);
    const std::vector<size_t> order{0, 3, 2, 1};
    check_binding(device, reader, t, order, [&](VkCommandBuffer cb, const Buffer& out) {
        const VkDescriptorBufferInfo info{out.buffer, 0, VK_WHOLE_SIZE};
        const VkWriteDescriptorSet write = output_write(pool.sets[0], &info);
        c.vk.vkUpdateDescriptorSets(c.device, 1, &write, 0, nullptr);
        c.vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, reader.layout, 0, 1, &pool.sets[0], 0, nullptr);
    });

    // Copy elements 1..2 of set 0 to elements 2..3 of set 1, element 0 to 0 and 1.
    VkCopyDescriptorSet copies[3];
    const uint32_t from[] = {1, 0, 0}, to[] = {2, 0, 1}, count[] = {2, 1, 1};
    for (int i = 0; i < 3; ++i) {
        copies[i] = vku::InitStructHelper();
        copies[i].srcSet = pool.sets[0];
        copies[i].srcArrayElement = from[i];
        copies[i].dstSet = pool.sets[1];
        copies[i].dstArrayElement = to[i];
        copies[i].descriptorCount = count[i];
    }
    c.vk.vkUpdateDescriptorSets(c.device, 0, nullptr, 3, copies);
    check_binding(device, reader, t, {0, 0, 3, 2}, [&](VkCommandBuffer cb, const Buffer& out) {
        const VkDescriptorBufferInfo info{out.buffer, 0, VK_WHOLE_SIZE};
        const VkWriteDescriptorSet write = output_write(pool.sets[1], &info);
        c.vk.vkUpdateDescriptorSets(c.device, 1, &write, 0, nullptr);
        c.vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, reader.layout, 0, 1, &pool.sets[1], 0, nullptr);
    });
    c.vk.vkDestroyDescriptorPool(c.device, pool.pool, nullptr);
    destroy(c, reader);
}

// The application's template data: tensor views interleaved with the output buffer's info.
struct TemplateData {
    VkDescriptorBufferInfo output;
    struct {
        uint64_t padding;
        VkTensorViewARM view;
    } tensors[kTensors];
};

VkDescriptorUpdateTemplate make_template(Context& c, const Reader& reader, VkDescriptorUpdateTemplateType type) {
    VkDescriptorUpdateTemplateEntry entries[2] = {};
    entries[0] = {0, 0, kTensors, VK_DESCRIPTOR_TYPE_TENSOR_ARM, offsetof(TemplateData, tensors) + 8, 16};
    entries[1] = {1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(TemplateData, output), sizeof(VkDescriptorBufferInfo)};
    VkDescriptorUpdateTemplateCreateInfo info = vku::InitStructHelper();
    info.descriptorUpdateEntryCount = 2;
    info.pDescriptorUpdateEntries = entries;
    info.templateType = type;
    info.descriptorSetLayout = reader.set_layout;
    info.pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
    info.pipelineLayout = reader.layout;
    VkDescriptorUpdateTemplate handle;
    check(c.vk.vkCreateDescriptorUpdateTemplate(c.device, &info, nullptr, &handle), "vkCreateDescriptorUpdateTemplate");
    return handle;
}

TemplateData template_data(const Tensors& t, const std::vector<size_t>& order, const Buffer& out) {
    TemplateData data{};
    data.output = {out.buffer, 0, VK_WHOLE_SIZE};
    for (uint32_t e = 0; e < kTensors; ++e) data.tensors[e].view = t.views[order[e]];
    return data;
}

TEST(ArmTensorsDescriptors, UpdateTemplatesTranslateTheApplicationsData) {
    TensorDevice device;
    Context& c = device.context();
    const Reader reader = make_reader(c, 0);
    const Tensors t = make_tensors(device);
    const Pool pool = allocate_sets(c, reader);
    const VkDescriptorUpdateTemplate update = make_template(c, reader, VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET);
    const std::vector<size_t> order{2, 0, 3, 1};
    check_binding(device, reader, t, order, [&](VkCommandBuffer cb, const Buffer& out) {
        const TemplateData data = template_data(t, order, out);
        c.vk.vkUpdateDescriptorSetWithTemplate(c.device, pool.sets[0], update, &data);
        c.vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, reader.layout, 0, 1, &pool.sets[0], 0, nullptr);
    });
    c.vk.vkDestroyDescriptorUpdateTemplate(c.device, update, nullptr);
    c.vk.vkDestroyDescriptorPool(c.device, pool.pool, nullptr);
    destroy(c, reader);
}

TEST(ArmTensorsDescriptors, PushedTensorDescriptorsWorkWithWritesAndTemplates) {
    TensorDevice device;
    Context& c = device.context();
    const Reader reader = make_reader(c, VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT);
    const Tensors t = make_tensors(device);
    const std::vector<size_t> order{3, 1, 0, 2};
    check_binding(device, reader, t, order, [&](VkCommandBuffer cb, const Buffer& out) {
        VkTensorViewARM views[kTensors];
        for (uint32_t e = 0; e < kTensors; ++e) views[e] = t.views[order[e]];
        VkWriteDescriptorSetTensorARM tensor_write = vku::InitStructHelper();
        tensor_write.tensorViewCount = kTensors;
        tensor_write.pTensorViews = views;
        const VkDescriptorBufferInfo info{out.buffer, 0, VK_WHOLE_SIZE};
        VkWriteDescriptorSet writes[2] = {vku::InitStructHelper(&tensor_write), output_write(VK_NULL_HANDLE, &info)};
        writes[0].descriptorCount = kTensors;
        writes[0].descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM;
        c.vk.vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, reader.layout, 0, 2, writes);
    });
    const VkDescriptorUpdateTemplate push = make_template(c, reader, VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS);
    const std::vector<size_t> pushed{1, 1, 2, 0};
    check_binding(device, reader, t, pushed, [&](VkCommandBuffer cb, const Buffer& out) {
        const TemplateData data = template_data(t, pushed, out);
        c.vk.vkCmdPushDescriptorSetWithTemplateKHR(cb, push, reader.layout, 0, &data);
    });
    c.vk.vkDestroyDescriptorUpdateTemplate(c.device, push, nullptr);
    destroy(c, reader);
}

TEST(ArmTensorsDescriptors, UpdateAfterBindPartiallyBoundVariableCountBindingsDoubleTheirCounts) {
    TensorDevice device;
    Context& c = device.context();
    const Reader reader = make_reader(c, 0, true);
    const Tensors t = make_tensors(device);
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_TENSOR_ARM, 16}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
    VkDescriptorPoolCreateInfo pool_info = vku::InitStructHelper();
    pool_info.flags = VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT;
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = 2;
    pool_info.pPoolSizes = sizes;
    VkDescriptorPool pool;
    check(c.vk.vkCreateDescriptorPool(c.device, &pool_info, nullptr, &pool), "vkCreateDescriptorPool");
    const uint32_t count = kTensors;
    VkDescriptorSetVariableDescriptorCountAllocateInfo variable = vku::InitStructHelper();
    variable.descriptorSetCount = 1;
    variable.pDescriptorCounts = &count;
    VkDescriptorSetAllocateInfo allocate = vku::InitStructHelper(&variable);
    allocate.descriptorPool = pool;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &reader.set_layout;
    VkDescriptorSet set;
    ASSERT_EQ(c.vk.vkAllocateDescriptorSets(c.device, &allocate, &set), VK_SUCCESS);
    const std::vector<size_t> order{1, 3, 0, 2};
    check_binding(device, reader, t, order, [&](VkCommandBuffer cb, const Buffer& out) {
        // Bound first, written after: update-after-bind.
        c.vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, reader.layout, 0, 1, &set, 0, nullptr);
        VkTensorViewARM views[kTensors];
        for (uint32_t e = 0; e < kTensors; ++e) views[e] = t.views[order[e]];
        VkWriteDescriptorSetTensorARM tensor_write = vku::InitStructHelper();
        tensor_write.tensorViewCount = kTensors;
        tensor_write.pTensorViews = views;
        const VkDescriptorBufferInfo info{out.buffer, 0, VK_WHOLE_SIZE};
        VkWriteDescriptorSet writes[2] = {vku::InitStructHelper(&tensor_write), output_write(set, &info)};
        writes[0].dstSet = set;
        writes[0].dstBinding = 1;
        writes[0].descriptorCount = kTensors;
        writes[0].descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM;
        writes[1].dstBinding = 0;
        c.vk.vkUpdateDescriptorSets(c.device, 2, writes, 0, nullptr);
    });

    // The layout-support query halves the storage-buffer answer for a variable-count tensor binding.
    auto variable_support = [&](VkDescriptorType type, uint32_t n) {
        const VkDescriptorSetLayoutBinding binding{0, type, n, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
        const VkDescriptorBindingFlags flag = VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT;
        VkDescriptorSetLayoutBindingFlagsCreateInfo flags_info = vku::InitStructHelper();
        flags_info.bindingCount = 1;
        flags_info.pBindingFlags = &flag;
        VkDescriptorSetLayoutCreateInfo info = vku::InitStructHelper(&flags_info);
        info.bindingCount = 1;
        info.pBindings = &binding;
        VkDescriptorSetVariableDescriptorCountLayoutSupport count_support = vku::InitStructHelper();
        VkDescriptorSetLayoutSupport support = vku::InitStructHelper(&count_support);
        c.vk.vkGetDescriptorSetLayoutSupport(c.device, &info, &support);
        EXPECT_TRUE(support.supported);
        return count_support.maxVariableDescriptorCount;
    };
    EXPECT_EQ(variable_support(VK_DESCRIPTOR_TYPE_TENSOR_ARM, 16), variable_support(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 32) / 2);
    c.vk.vkDestroyDescriptorPool(c.device, pool, nullptr);
    destroy(c, reader);
}

TEST(ArmTensorsDescriptors, AMutableDescriptorThatMayHoldATensorIsRefusedWithAMessage) {
    TensorDevice device;
    Context& c = device.context();
    const VkDescriptorType types[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_TENSOR_ARM};
    const VkMutableDescriptorTypeListEXT list{2, types};
    VkMutableDescriptorTypeCreateInfoEXT mutable_info = vku::InitStructHelper();
    mutable_info.mutableDescriptorTypeListCount = 1;
    mutable_info.pMutableDescriptorTypeLists = &list;
    const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_MUTABLE_EXT, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo info = vku::InitStructHelper(&mutable_info);
    info.bindingCount = 1;
    info.pBindings = &binding;
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    EXPECT_EQ(c.vk.vkCreateDescriptorSetLayout(c.device, &info, nullptr, &layout), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", "pMutableDescriptorTypeLists[0] lists VK_DESCRIPTOR_TYPE_TENSOR_ARM"), 1u)
        << device.messages.dump();
}

TEST(ArmTensorsDescriptors, AWriteNamingAnUnknownViewIsReported) {
    TensorDevice device;
    Context& c = device.context();
    const Reader reader = make_reader(c, 0);
    const Pool pool = allocate_sets(c, reader);
    const VkTensorViewARM bogus = reinterpret_cast<VkTensorViewARM>(uintptr_t{0xbad0});
    VkWriteDescriptorSetTensorARM tensor_write = vku::InitStructHelper();
    tensor_write.tensorViewCount = 1;
    tensor_write.pTensorViews = &bogus;
    VkWriteDescriptorSet write = vku::InitStructHelper(&tensor_write);
    write.dstSet = pool.sets[0];
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM;
    c.vk.vkUpdateDescriptorSets(c.device, 1, &write, 0, nullptr);
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor", "pDescriptorWrites[0] pTensorViews[0]"), 1u) << device.messages.dump();
    c.vk.vkDestroyDescriptorPool(c.device, pool.pool, nullptr);
    destroy(c, reader);
}

}  // namespace
}  // namespace vkpolyfill::test
