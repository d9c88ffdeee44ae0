// The layer's settings take effect from each of their three sources, and problems with them are
// reported rather than ignored.
#include <fstream>

#include <gtest/gtest.h>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "debug_messages.h"
#include "scoped_env.h"
#include "temp_dir.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

// Creates an instance + device with a messenger chained to the instance create info (it hears
// what the layer says while vkCreateInstance runs) and `settings` in VkLayerSettingsCreateInfoEXT.
void create_with_settings(DebugMessages& messages, std::span<const VkLayerSettingEXT> settings) {
    VkDebugUtilsMessengerCreateInfoEXT messenger = messages.create_info();
    VkLayerSettingsCreateInfoEXT layer_settings = vku::InitStructHelper(&messenger);
    layer_settings.settingCount = static_cast<uint32_t>(settings.size());
    layer_settings.pSettings = settings.data();
    Context context({.instance_extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_LAYER_SETTINGS_EXTENSION_NAME},
                     .instance_next = &layer_settings});
}

VkLayerSettingEXT string_setting(const char* name, const char* const* value) {
    return {kLayerName, name, VK_LAYER_SETTING_TYPE_STRING_EXT, 1, value};
}

TEST(Settings, FromLayerSettingsCreateInfo) {
    DebugMessages messages;
    const char* debug = "debug";
    const VkBool32 off = VK_FALSE;
    const char* per_invocation = "per_invocation";
    const char* distributed = "distributed";
    const char* shared_memory = "shared_memory";
    const char* native = "native";
    const char* chunked = "chunked";
    const char* constant = "constant";
    const char* draw_splitting = "draw_splitting";
    const VkLayerSettingEXT settings[] = {string_setting("log_level", &debug),
                                          {kLayerName, "validate_output", VK_LAYER_SETTING_TYPE_BOOL32_EXT, 1, &off},
                                          string_setting("uniform_loads", &per_invocation),
                                          string_setting("matrix_layout", &distributed),
                                          string_setting("distributed_a", &shared_memory),
                                          string_setting("matrix_units", &native),
                                          string_setting("tensor_loops", &chunked),
                                          string_setting("tile_image_indexing", &constant),
                                          string_setting("tile_image_ordering", &draw_splitting)};
    create_with_settings(messages, settings);
    EXPECT_EQ(messages.count("vkpolyfill-instance", "log_level=debug validate_output=false"), 1u) << messages.dump();
    EXPECT_EQ(messages.count("vkpolyfill-instance", "uniform_loads=per_invocation matrix_layout=distributed "
                                                    "distributed_a=shared_memory matrix_units=native tensor_loops=chunked "
                                                    "tile_image_indexing=constant "
                                                    "tile_image_ordering=draw_splitting"),
              1u)
        << messages.dump();
}

TEST(Settings, FromEnvironment) {
    ScopedEnv level("VK_POLYFILL_EXTENSIONS_LOG_LEVEL", "info");
    ScopedEnv validate("VK_POLYFILL_EXTENSIONS_VALIDATE_OUTPUT", "false");
    DebugMessages messages;
    create_with_settings(messages, {});
    EXPECT_EQ(messages.count("vkpolyfill-instance", "log_level=info validate_output=false"), 1u) << messages.dump();
}

TEST(Settings, FromSettingsFile) {
    TempDir dir;
    std::ofstream(dir.path() / "vk_layer_settings.txt") << "polyfill_extensions.log_level = debug\n"
                                                        << "polyfill_extensions.force_emulation = all\n";
    ScopedEnv path("VK_LAYER_SETTINGS_PATH", dir.path().c_str());
    DebugMessages messages;
    create_with_settings(messages, {});
    EXPECT_EQ(messages.count("vkpolyfill-instance", "log_level=debug"), 1u) << messages.dump();
    EXPECT_EQ(messages.count("vkpolyfill-instance", "force_emulation=all"), 1u) << messages.dump();
}

TEST(Settings, ProblemsAreReportedAndTheInstanceStillWorks) {
    DebugMessages messages;
    const char* loud = "loud";
    const char* bogus = "VK_FAKE_not_an_extension";
    const VkLayerSettingEXT settings[] = {string_setting("log_level", &loud), string_setting("no_such_setting", &loud),
                                          string_setting("force_emulation", &bogus), string_setting("uniform_loads", &loud),
                                          string_setting("matrix_layout", &loud)};
    create_with_settings(messages, settings);
    EXPECT_EQ(messages.count("vkpolyfill-settings", "log_level 'loud'"), 1u) << messages.dump();
    EXPECT_EQ(messages.count("vkpolyfill-settings",
                             "uniform_loads 'loud' is not one of auto, scalar, per_invocation; using auto"),
              1u)
        << messages.dump();
    EXPECT_EQ(messages.count("vkpolyfill-settings",
                             "matrix_layout 'loud' is not one of auto, replicated, distributed; using auto"),
              1u)
        << messages.dump();
    EXPECT_EQ(messages.count("vkpolyfill-settings", "no_such_setting"), 1u) << messages.dump();
    EXPECT_EQ(messages.count("vkpolyfill-settings", "VK_FAKE_not_an_extension"), 1u) << messages.dump();
    EXPECT_EQ(messages.count("vkpolyfill-instance", "log_level=warning"), 1u) << messages.dump();
    EXPECT_EQ(messages.count("vkpolyfill-instance", "uniform_loads=auto matrix_layout=auto"), 1u) << messages.dump();
}

TEST(Settings, StderrFollowsLogLevel) {
    DebugMessages messages;
    testing::internal::CaptureStderr();
    create_with_settings(messages, {});
    const std::string quiet = testing::internal::GetCapturedStderr();
    EXPECT_EQ(quiet.find("[vkpolyfill] debug"), std::string::npos) << quiet;

    const char* debug = "debug";
    const VkLayerSettingEXT settings[] = {string_setting("log_level", &debug)};
    testing::internal::CaptureStderr();
    create_with_settings(messages, settings);
    const std::string chatty = testing::internal::GetCapturedStderr();
    EXPECT_NE(chatty.find("[vkpolyfill] debug: VK_LAYER_POLYFILL_extensions"), std::string::npos) << chatty;
}

TEST(Settings, MessagesReachAnApplicationMessenger) {
    // A messenger created after the instance hears the layer's later messages (device creation).
    const char* debug = "debug";
    const VkLayerSettingEXT settings[] = {string_setting("log_level", &debug)};
    VkLayerSettingsCreateInfoEXT layer_settings = vku::InitStructHelper();
    layer_settings.settingCount = 1;
    layer_settings.pSettings = settings;
    DebugMessages messages;
    {
        Context context({.instance_extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, VK_EXT_LAYER_SETTINGS_EXTENSION_NAME},
                         .instance_next = &layer_settings});
        const VkDebugUtilsMessengerCreateInfoEXT info = messages.create_info();
        VkDebugUtilsMessengerEXT messenger;
        check(vkCreateDebugUtilsMessengerEXT(context.instance, &info, nullptr, &messenger), "vkCreateDebugUtilsMessengerEXT");
        VkDevice second = VK_NULL_HANDLE;
        const float priority = 1.0f;
        VkDeviceQueueCreateInfo queue = vku::InitStructHelper();
        queue.queueFamilyIndex = context.queue_family;
        queue.queueCount = 1;
        queue.pQueuePriorities = &priority;
        VkDeviceCreateInfo device_info = vku::InitStructHelper();
        device_info.queueCreateInfoCount = 1;
        device_info.pQueueCreateInfos = &queue;
        check(vkCreateDevice(context.physical_device, &device_info, nullptr, &second), "vkCreateDevice");
        vkDestroyDevice(second, nullptr);
        vkDestroyDebugUtilsMessengerEXT(context.instance, messenger, nullptr);
    }
    EXPECT_EQ(messages.count("vkpolyfill-device", "emulating"), 1u) << messages.dump();
}

}  // namespace
}  // namespace vkpolyfill::test
