// Tensors in graphics shaders through the layer: a vertex shader taking its positions from a tensor
// (array reads), and a fragment shader reading a tensor smaller than the framebuffer at its pixel
// (OutOfBoundsValueARM outside) and writing what it read to another tensor. Against a CPU reference.
#include <cstring>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "arm_tensor_device.h"
#include "triangle_draw.h"

namespace vkpolyfill::test {
namespace {

constexpr uint32_t kSize = 8;  // framebuffer width and height

// Draws one triangle into an 8 x 8 RGBA8 image with `tensors` pushed at set 0 (binding b: tensors[b])
// to both stages, and returns the pixels.
std::vector<uint32_t> draw(TensorDevice& device, const std::string& vertex, const std::string& fragment,
                           const std::vector<VkTensorViewARM>& tensors) {
    Context& c = device.context();
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (uint32_t b = 0; b < tensors.size(); ++b) {
        bindings.push_back({b, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, nullptr});
    }
    VkDescriptorSetLayoutCreateInfo set_info = vku::InitStructHelper();
    set_info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT;
    set_info.bindingCount = static_cast<uint32_t>(bindings.size());
    set_info.pBindings = bindings.data();
    VkDescriptorSetLayout set_layout;
    check(c.vk.vkCreateDescriptorSetLayout(c.device, &set_info, nullptr, &set_layout), "vkCreateDescriptorSetLayout");
    VkPipelineLayoutCreateInfo layout_info = vku::InitStructHelper();
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout;
    VkPipelineLayout layout;
    check(c.vk.vkCreatePipelineLayout(c.device, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");

    const std::vector<uint32_t> vertex_code = read_shader(vertex), fragment_code = read_shader(fragment);
    const auto push_tensors = [&](VkCommandBuffer cb) {
        std::vector<VkWriteDescriptorSetTensorARM> tensor_writes(tensors.size());
        std::vector<VkWriteDescriptorSet> writes(tensors.size());
        for (uint32_t b = 0; b < tensors.size(); ++b) {
            tensor_writes[b] = vku::InitStructHelper();
            tensor_writes[b].tensorViewCount = 1;
            tensor_writes[b].pTensorViews = &tensors[b];
            writes[b] = vku::InitStructHelper(&tensor_writes[b]);
            writes[b].dstBinding = b;
            writes[b].descriptorCount = 1;
            writes[b].descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM;
        }
        c.vk.vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, static_cast<uint32_t>(writes.size()), writes.data());
    };
    const std::vector<std::byte> texels =
        draw_triangle(c, {.vertex = vertex_code, .fragment = fragment_code, .layout = layout, .size = kSize, .bind = push_tensors});
    std::vector<uint32_t> result(texels.size() / sizeof(uint32_t));
    std::memcpy(result.data(), texels.data(), texels.size());
    c.vk.vkDestroyPipelineLayout(c.device, layout, nullptr);
    c.vk.vkDestroyDescriptorSetLayout(c.device, set_layout, nullptr);
    return result;
}

TEST(ArmTensorsGraphics, AFragmentShaderReadsAndWritesTensorsAtItsPixel) {
    TensorDevice device;
    const TestTensor image = device.create(VK_FORMAT_R32_SFLOAT, {5, 6}, {32, 4});  // smaller than the framebuffer
    const TestTensor written = device.create(VK_FORMAT_R32_SFLOAT, {kSize, kSize});
    for (uint64_t y = 0; y < 5; ++y) {
        for (uint64_t x = 0; x < 6; ++x) *reinterpret_cast<float*>(image.data + image.offset({y, x})) = static_cast<float>(y * 10 + x);
    }
    draw(device, "tests/tensors/fullscreen.vert", "tests/arm_tensors/fragment.frag",
         {device.view(image, VK_FORMAT_R32_SFLOAT), device.view(written, VK_FORMAT_R32_SFLOAT)});
    for (uint64_t y = 0; y < kSize; ++y) {
        for (uint64_t x = 0; x < kSize; ++x) {
            const float expected = y < 5 && x < 6 ? static_cast<float>(y * 10 + x) : 0.25f;  // OutOfBoundsValueARM outside
            EXPECT_EQ(*reinterpret_cast<const float*>(written.data + written.offset({y, x})), expected) << x << "," << y;
        }
    }
    EXPECT_TRUE(TensorDevice::canaries_intact(written));
    EXPECT_EQ(device.messages.count("vkpolyfill-tensor"), 0u) << device.messages.dump();
}

TEST(ArmTensorsGraphics, AVertexShaderTakesItsPositionsFromATensor) {
    TensorDevice device;
    // A triangle (-1,-1), (0,-1), (-1,1): the corner of the framebuffer left of the line 2x + y = -1.
    const TestTensor positions = device.create(VK_FORMAT_R32_SFLOAT, {3, 4});
    const float corners[3][4] = {{-1, -1, 0, 1}, {0, -1, 0, 1}, {-1, 1, 0, 1}};
    std::memcpy(positions.data, corners, sizeof(corners));
    const std::vector<uint32_t> pixels =
        draw(device, "tests/arm_tensors/vertex.vert", "tests/tensors/flat_color.frag", {device.view(positions, VK_FORMAT_R32_SFLOAT)});
    for (uint32_t y = 0; y < kSize; ++y) {
        for (uint32_t x = 0; x < kSize; ++x) {
            // The pixel centre in normalized coordinates is ((2x + 1) / 8 - 1, (2y + 1) / 8 - 1); it is inside
            // when 2 nx + ny < -1, i.e. 4x + 2y + 3 < 16 (never equal: no centre lies on the edge). The flat
            // vertex index is that of the provoking (first) vertex, 0.
            const bool inside = 4 * x + 2 * y + 3 < 16;
            const uint32_t expected = inside ? 0xffff00ffu : 0u;  // RGBA8 (1, 0, 1, 1), little-endian
            EXPECT_EQ(pixels[y * kSize + x], expected) << x << "," << y;
        }
    }
}

}  // namespace
}  // namespace vkpolyfill::test
