// The layer as the loader sees it: listed, negotiated, named by tooling info, and implicit when
// its manifest's environment variables say so.
#include <dlfcn.h>

#include <algorithm>
#include <cstring>

#include <gtest/gtest.h>
#include <vulkan/vk_layer.h>

#include "scoped_env.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

std::vector<VkPhysicalDeviceToolProperties> tools_of(VkPhysicalDevice physical_device) {
    uint32_t count = 0;
    check(vkGetPhysicalDeviceToolProperties(physical_device, &count, nullptr), "vkGetPhysicalDeviceToolProperties");
    std::vector<VkPhysicalDeviceToolProperties> tools(count);
    check(vkGetPhysicalDeviceToolProperties(physical_device, &count, tools.data()), "vkGetPhysicalDeviceToolProperties");
    tools.resize(count);
    return tools;
}

bool names_layer(const std::vector<VkPhysicalDeviceToolProperties>& tools) {
    for (const auto& tool : tools) {
        if (std::strcmp(tool.layer, kLayerName) == 0) return true;
    }
    return false;
}

TEST(LayerLoading, ListedWithItsInstanceExtension) {
    check(volkInitialize(), "volkInitialize");
    uint32_t count = 0;
    check(vkEnumerateInstanceLayerProperties(&count, nullptr), "vkEnumerateInstanceLayerProperties");
    std::vector<VkLayerProperties> layers(count);
    check(vkEnumerateInstanceLayerProperties(&count, layers.data()), "vkEnumerateInstanceLayerProperties");
    auto ours = std::find_if(layers.begin(), layers.end(), [](const auto& l) { return std::strcmp(l.layerName, kLayerName) == 0; });
    ASSERT_NE(ours, layers.end()) << "is VK_ADD_LAYER_PATH pointing at the build tree's json/?";
    EXPECT_GE(ours->specVersion, VK_API_VERSION_1_3);
    EXPECT_NE(std::strlen(ours->description), 0u);

    check(vkEnumerateInstanceExtensionProperties(kLayerName, &count, nullptr), "vkEnumerateInstanceExtensionProperties");
    std::vector<VkExtensionProperties> extensions(count);
    check(vkEnumerateInstanceExtensionProperties(kLayerName, &count, extensions.data()), "vkEnumerateInstanceExtensionProperties");
    EXPECT_TRUE(std::any_of(extensions.begin(), extensions.end(),
                            [](const auto& e) { return std::strcmp(e.extensionName, VK_EXT_LAYER_SETTINGS_EXTENSION_NAME) == 0; }));
}

TEST(LayerLoading, ToolingInfoNamesTheLayerFirst) {
    Context with_layer({});
    const auto tools = tools_of(with_layer.physical_device);
    ASSERT_FALSE(tools.empty());
    EXPECT_STREQ(tools[0].layer, kLayerName);
    EXPECT_TRUE(tools[0].purposes & VK_TOOL_PURPOSE_ADDITIONAL_FEATURES_BIT);
    EXPECT_TRUE(tools[0].purposes & VK_TOOL_PURPOSE_MODIFYING_FEATURES_BIT);

    // The two-call idiom: a short array gets VK_INCOMPLETE and only what fits.
    uint32_t count = 0;
    VkPhysicalDeviceToolProperties one{};
    EXPECT_EQ(vkGetPhysicalDeviceToolProperties(with_layer.physical_device, &count, &one), VK_INCOMPLETE);
    EXPECT_EQ(count, 0u);

    Context without_layer({.layer = false});
    EXPECT_FALSE(names_layer(tools_of(without_layer.physical_device)));
}

TEST(LayerLoading, ExtensionEntryPointReachableThroughGetInstanceProcAddr) {
    // Some drivers (lavapipe 25) lack VK_EXT_tooling_info; the layer provides it, so its entry point
    // must resolve through the loader and reach the layer.
    Context context({.device_extensions = {VK_EXT_TOOLING_INFO_EXTENSION_NAME}});
    auto get_tools = reinterpret_cast<PFN_vkGetPhysicalDeviceToolPropertiesEXT>(
        vkGetInstanceProcAddr(context.instance, "vkGetPhysicalDeviceToolPropertiesEXT"));
    ASSERT_NE(get_tools, nullptr);
    uint32_t count = 0;
    check(get_tools(context.physical_device, &count, nullptr), "vkGetPhysicalDeviceToolPropertiesEXT");
    std::vector<VkPhysicalDeviceToolProperties> tools(count);
    check(get_tools(context.physical_device, &count, tools.data()), "vkGetPhysicalDeviceToolPropertiesEXT");
    EXPECT_TRUE(names_layer(tools));
}

TEST(LayerLoading, ExportsOnlyTheLoaderInterface) {
    void* library = dlopen(VKPOLYFILL_LAYER_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library, nullptr) << dlerror();
    for (const char* name : {"vkNegotiateLoaderLayerInterfaceVersion", "vk_layerGetPhysicalDeviceProcAddr",
                             "vkGetInstanceProcAddr", "vkGetDeviceProcAddr", "vkEnumerateInstanceLayerProperties",
                             "vkEnumerateInstanceExtensionProperties", "vkEnumerateDeviceLayerProperties",
                             "vkEnumerateDeviceExtensionProperties"}) {
        EXPECT_NE(dlsym(library, name), nullptr) << name;
    }
    // Hooks and the static libraries inside (SPIRV-Tools, settings) stay private.
    EXPECT_EQ(dlsym(library, "vkCreateInstance"), nullptr);
    EXPECT_EQ(dlsym(library, "spvContextCreate"), nullptr);

    auto negotiate = reinterpret_cast<PFN_vkNegotiateLoaderLayerInterfaceVersion>(
        dlsym(library, "vkNegotiateLoaderLayerInterfaceVersion"));
    VkNegotiateLayerInterface version{LAYER_NEGOTIATE_INTERFACE_STRUCT, nullptr, 5, nullptr, nullptr, nullptr};
    ASSERT_EQ(negotiate(&version), VK_SUCCESS);
    EXPECT_EQ(version.loaderLayerInterfaceVersion, 2u);
    EXPECT_NE(version.pfnGetInstanceProcAddr, nullptr);
    EXPECT_NE(version.pfnGetDeviceProcAddr, nullptr);
    EXPECT_NE(version.pfnGetPhysicalDeviceProcAddr, nullptr);
    // The physical-device proc-addr export answers for the layer's physical-device functions.
    EXPECT_NE(version.pfnGetPhysicalDeviceProcAddr(VK_NULL_HANDLE, "vkGetPhysicalDeviceToolPropertiesEXT"), nullptr);
    VkNegotiateLayerInterface too_old{LAYER_NEGOTIATE_INTERFACE_STRUCT, nullptr, 1, nullptr, nullptr, nullptr};
    EXPECT_EQ(negotiate(&too_old), VK_ERROR_INITIALIZATION_FAILED);
    dlclose(library);
}

TEST(LayerLoading, ImplicitManifestFollowsItsEnvironmentVariables) {
    ScopedEnv implicit_path("VK_ADD_IMPLICIT_LAYER_PATH", VKPOLYFILL_IMPLICIT_MANIFEST_DIR);
    {
        ScopedEnv enable("VK_POLYFILL_ENABLE", nullptr);
        Context context({.layer = false});
        EXPECT_FALSE(names_layer(tools_of(context.physical_device))) << "implicit layer on without VK_POLYFILL_ENABLE";
    }
    {
        ScopedEnv enable("VK_POLYFILL_ENABLE", "1");
        Context context({.layer = false});
        EXPECT_TRUE(names_layer(tools_of(context.physical_device))) << "VK_POLYFILL_ENABLE=1 did not enable it";
    }
    {
        ScopedEnv enable("VK_POLYFILL_ENABLE", "1");
        ScopedEnv disable("VK_POLYFILL_DISABLE", "1");
        Context context({.layer = false});
        EXPECT_FALSE(names_layer(tools_of(context.physical_device))) << "VK_POLYFILL_DISABLE=1 did not disable it";
    }
}

}  // namespace
}  // namespace vkpolyfill::test
