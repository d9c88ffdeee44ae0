#include "core/settings.h"

#include <algorithm>
#include <array>

#include <vulkan/layer/vk_layer_settings.hpp>

#include "layer_info.h"

namespace vkpolyfill {
namespace {

constexpr std::array kLogLevelNames = {"error", "warning", "info", "debug"};
constexpr std::array kUniformLoadsNames = {"auto", "scalar", "per_invocation"};
constexpr std::array kMatrixLayoutNames = {"auto", "replicated", "distributed"};
constexpr std::array kDistributedANames = {"auto", "shuffles", "shared_memory"};
constexpr std::array kMatrixUnitsNames = {"auto", "native", "kept_accumulators", "plain"};
constexpr std::array kTensorLoopsNames = {"auto", "chunked", "per_element"};
constexpr std::array kTileImageIndexingNames = {"auto", "constant"};
constexpr std::array kTileImageOrderingNames = {"auto", "draw_splitting", "interlock"};

// The enumerator whose name (in `names`, in enumerator order) is the setting's value; a value that
// is none of them is a problem, and the default stays.
template <typename Enum, size_t N>
void read_choice(VkuLayerSettingSet set, const char* key, const std::array<const char*, N>& names, Enum& value,
                 std::vector<std::string>& problems) {
    if (!vkuHasLayerSetting(set, key)) return;
    std::string text;
    vkuGetLayerSettingValue(set, key, text);
    for (size_t i = 0; i < N; ++i) {
        if (text == names[i]) {
            value = static_cast<Enum>(i);
            return;
        }
    }
    std::string known;
    for (const char* name : names) known += (known.empty() ? "" : ", ") + std::string(name);
    problems.push_back(std::string(key) + " '" + text + "' is not one of " + known + "; using " +
                       names[static_cast<size_t>(value)]);
}

// The settings library reports parse problems through a callback without user data; a
// thread-local sink collects them for the one read_settings call running on this thread.
thread_local std::vector<std::string>* t_problem_sink = nullptr;

void VKAPI_PTR collect_problem(const char* setting, const char* message) {
    if (t_problem_sink) t_problem_sink->push_back(std::string(setting) + ": " + message);
}

void report_unknown_settings(VkuLayerSettingSet set, const VkInstanceCreateInfo* create_info,
                             std::vector<std::string>& problems) {
    static constexpr const char* kKnown[] = {"force_emulation", "log_level", "validate_output", "dump_dir",
                                             "cache_dir", "uniform_loads", "matrix_layout", "distributed_a", "matrix_units", "tensor_loops",
                                             "tile_image_indexing", "tile_image_ordering"};
    const VkLayerSettingsCreateInfoEXT* first = vkuFindLayerSettingsCreateInfo(create_info);
    std::vector<const char*> unknown;
    vkuGetUnknownSettings(set, static_cast<uint32_t>(std::size(kKnown)), const_cast<const char**>(kKnown), first,
                          unknown);
    for (const char* name : unknown) problems.push_back(std::string("unknown setting '") + name + "' ignored");
}

}  // namespace

bool Settings::forces_emulation_of(std::string_view extension) const {
    return std::any_of(force_emulation.begin(), force_emulation.end(),
                       [&](const std::string& name) { return name == "all" || name == extension; });
}

const char* to_string(LogLevel level) { return kLogLevelNames[static_cast<size_t>(level)]; }

const char* to_string(UniformLoads loads) { return kUniformLoadsNames[static_cast<size_t>(loads)]; }

const char* to_string(MatrixLayout layout) { return kMatrixLayoutNames[static_cast<size_t>(layout)]; }

const char* to_string(DistributedA exchange) { return kDistributedANames[static_cast<size_t>(exchange)]; }

const char* to_string(MatrixUnits units) { return kMatrixUnitsNames[static_cast<size_t>(units)]; }

const char* to_string(TensorLoops loops) { return kTensorLoopsNames[static_cast<size_t>(loops)]; }

const char* to_string(TileImageIndexing indexing) { return kTileImageIndexingNames[static_cast<size_t>(indexing)]; }

const char* to_string(TileImageOrdering ordering) { return kTileImageOrderingNames[static_cast<size_t>(ordering)]; }

Settings read_settings(const VkInstanceCreateInfo* create_info, std::vector<std::string>& problems) {
    Settings settings;
    t_problem_sink = &problems;
    VkuLayerSettingSet set = VK_NULL_HANDLE;
    if (vkuCreateLayerSettingSet(kLayerName, vkuFindLayerSettingsCreateInfo(create_info), nullptr, collect_problem,
                                 &set) != VK_SUCCESS) {
        t_problem_sink = nullptr;
        problems.push_back("the layer settings could not be read; using defaults");
        return settings;
    }
    if (vkuHasLayerSetting(set, "force_emulation")) vkuGetLayerSettingValues(set, "force_emulation", settings.force_emulation);
    read_choice(set, "log_level", kLogLevelNames, settings.log_level, problems);
    if (vkuHasLayerSetting(set, "validate_output")) vkuGetLayerSettingValue(set, "validate_output", settings.validate_output);
    if (vkuHasLayerSetting(set, "dump_dir")) vkuGetLayerSettingValue(set, "dump_dir", settings.dump_dir);
    if (vkuHasLayerSetting(set, "cache_dir")) vkuGetLayerSettingValue(set, "cache_dir", settings.cache_dir);
    read_choice(set, "uniform_loads", kUniformLoadsNames, settings.uniform_loads, problems);
    read_choice(set, "matrix_layout", kMatrixLayoutNames, settings.matrix_layout, problems);
    read_choice(set, "distributed_a", kDistributedANames, settings.distributed_a, problems);
    read_choice(set, "matrix_units", kMatrixUnitsNames, settings.matrix_units, problems);
    read_choice(set, "tensor_loops", kTensorLoopsNames, settings.tensor_loops, problems);
    read_choice(set, "tile_image_indexing", kTileImageIndexingNames, settings.tile_image_indexing, problems);
    read_choice(set, "tile_image_ordering", kTileImageOrderingNames, settings.tile_image_ordering, problems);
    report_unknown_settings(set, create_info, problems);
    vkuDestroyLayerSettingSet(set, nullptr);
    t_problem_sink = nullptr;
    return settings;
}

}  // namespace vkpolyfill
