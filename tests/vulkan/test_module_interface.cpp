// The harness's reading of a module's resource interface (module_interface.h), which lays out pipelines
// for modules nobody described (vkpolyfill_compile_kernels --spirv), against the shaders' own GLSL
// declarations.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "module_interface.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

struct Expected {
    uint32_t binding;
    VkDescriptorType type;
    uint32_t count;
};

void expect_set(const ModuleInterface& interface, uint32_t set, const std::vector<Expected>& expected) {
    ASSERT_TRUE(interface.sets.count(set)) << "set " << set;
    const auto& bindings = interface.sets.at(set);
    ASSERT_EQ(bindings.size(), expected.size());
    for (const Expected& e : expected) {
        ASSERT_TRUE(bindings.count(e.binding)) << "binding " << e.binding;
        const VkDescriptorSetLayoutBinding& b = bindings.at(e.binding);
        EXPECT_EQ(b.descriptorType, e.type) << "binding " << e.binding;
        EXPECT_EQ(b.descriptorCount, e.count) << "binding " << e.binding;
    }
}

TEST(ModuleInterface, StorageBuffersAndPushConstants) {
    const ModuleInterface i = reflect_interface(read_shader("tests/vector_add.comp"));
    EXPECT_EQ(i.sets.size(), 1u);
    expect_set(i, 0, {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}, {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
                      {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}});
    EXPECT_TRUE(i.push_constants);
}

TEST(ModuleInterface, ImagesSamplersAndTheirCombinations) {
    const ModuleInterface i = reflect_interface(read_shader("tests/textured.frag"));
    expect_set(i, 0, {{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1}, {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
                      {2, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1}, {3, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1},
                      {4, VK_DESCRIPTOR_TYPE_SAMPLER, 1}});
}

TEST(ModuleInterface, ArmTensorArraysCountTheirElements) {
    const ModuleInterface i = reflect_interface(read_shader("tests/arm_tensors/arrays.comp"));
    expect_set(i, 0, {{0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 4}, {1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1}});
}

TEST(ModuleInterface, BufferArraysCountTheirElements) {
    const ModuleInterface i = reflect_interface(read_shader("tests/tensors/read_descriptors.comp"));
    ASSERT_TRUE(i.sets.count(0));
    uint32_t eight = 0;
    for (const auto& [binding, b] : i.sets.at(0)) eight += b.descriptorCount == 8 ? 1 : 0;
    EXPECT_EQ(eight, 1u) << "the 8 tensor bindings read as words";
}

TEST(ModuleInterface, RefusesWhatIsNotAModule) {
    std::vector<uint32_t> words = read_shader("tests/vector_add.comp");
    words.push_back(4u << 16);  // an instruction of four words with none after it
    EXPECT_THROW(reflect_interface(words), std::invalid_argument);
    EXPECT_THROW(reflect_interface(std::vector<uint32_t>{1, 2, 3}), std::invalid_argument);
}

}  // namespace
}  // namespace vkpolyfill::test
