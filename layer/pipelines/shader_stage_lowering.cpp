#include "pipelines/shader_stage_lowering.h"

#include <chrono>
#include <format>
#include <new>

#include <vkpolyfill/lowering/validate.h>

#include "core/file_io.h"

namespace vkpolyfill {
namespace {

constexpr const char* kMessageId = "vkpolyfill-lowering";

std::vector<lowering::SpecializationValue> specialization_values(const VkSpecializationInfo* info) {
    std::vector<lowering::SpecializationValue> values;
    if (info == nullptr) return values;
    const auto* data = static_cast<const uint8_t*>(info->pData);
    for (uint32_t i = 0; i < info->mapEntryCount; ++i) {
        const VkSpecializationMapEntry& entry = info->pMapEntries[i];
        if (entry.offset > info->dataSize || entry.size > info->dataSize - entry.offset) continue;  // invalid usage
        values.push_back({entry.constantID, {data + entry.offset, data + entry.offset + entry.size}});
    }
    return values;
}

LogLevel level_of(lowering::Diagnostic::Severity severity) {
    switch (severity) {
        case lowering::Diagnostic::Severity::Error: return LogLevel::Error;
        case lowering::Diagnostic::Severity::Warning: return LogLevel::Warning;
        case lowering::Diagnostic::Severity::Info: break;
    }
    return LogLevel::Info;
}

std::span<const LoggedObject> objects_of(const StageCode& code) {
    if (code.object.handle == 0) return {};
    return std::span(&code.object, 1);
}

void dump(const std::string& directory, const LoweringKey& key, const char* kind, std::span<const uint32_t> words) {
    const std::filesystem::path path = std::filesystem::path(directory) / std::format("{}.{}.spv", key.hash.hex(), kind);
    write_file_atomically(path, std::as_bytes(words));
}

// The lowering itself, after a cache miss. Fails (null words) with every diagnostic logged.
LoweredWords lower_and_check(const DeviceData& device, const StageCode& code, const char* entry_point,
                             const lowering::Target& target, const lowering::Options& options, const LoweringKey& key) {
    const Logger& logger = device.instance->logger;
    const Settings& settings = device.instance->settings;
    if (!settings.dump_dir.empty()) dump(settings.dump_dir, key, "original", code.module->words);

    const auto start = std::chrono::steady_clock::now();
    lowering::Result result = lowering::lower(code.module->words, target, options);
    const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
    for (const lowering::Diagnostic& diagnostic : result.diagnostics) {
        logger.log(level_of(diagnostic.severity), kMessageId, lowering::format(diagnostic, code.name), objects_of(code));
    }
    if (!result.ok) {
        if (result.diagnostics.empty()) {
            logger.log(LogLevel::Error, kMessageId, code.name + ": error: lowering failed without a diagnostic", objects_of(code));
        }
        return nullptr;
    }
    // Left as it was (a module that declares only SPV_KHR_cooperative_matrix and uses nothing of
    // VK_NV_cooperative_matrix2 the driver lacks: DeviceShaders::needs_lowering): the application's
    // own words, not the layer's output to dump or validate.
    if (!result.changed) return std::make_shared<const std::vector<uint32_t>>(std::move(result.words));
    if (!settings.dump_dir.empty()) dump(settings.dump_dir, key, "lowered", result.words);
    if (settings.validate_output) {
        if (std::string problem = lowering::validate(result.words, target.vulkan_version); !problem.empty()) {
            logger.log(LogLevel::Error, kMessageId,
                       code.name + ": error: spirv-val rejects the lowered module (a layer bug): " + problem, objects_of(code));
            return nullptr;
        }
    }
    if (logger.enabled(LogLevel::Debug)) {
        logger.log(LogLevel::Debug, kMessageId,
                   std::format("{}: lowered entry point {} for subgroup size {}: {} words -> {} words in {} us", code.name,
                               entry_point, target.subgroup_size, code.module->words.size(),
                               result.words.size(), elapsed.count()));
    }
    return std::make_shared<const std::vector<uint32_t>>(std::move(result.words));
}

// Logging allocates too; after an exception it may fail again, and nothing may escape the hook.
void log_if_possible(const Logger& logger, const char* text) noexcept {
    try {
        logger.log(LogLevel::Error, kMessageId, text);
    } catch (...) {
    }
}

}  // namespace

LoweredStage lower_stage(const DeviceData& device, const StageCode& code, const StageRequest& request) noexcept {
    const Logger& logger = device.instance->logger;
    try {
        lowering::Target target = device.shaders->target;
        target.subgroup_size = request.subgroup_size;
        target.tile_image.samples = request.rasterization_samples;
        target.tile_image.color_locations = request.color_locations;
        target.tile_image.interlock = request.interlock;
        lowering::Options options;
        options.module_name = code.name;
        options.specialization = specialization_values(request.specialization);
        const LoweringKey key = lowering_key(code.module->hash, request.entry_point, options.specialization, target);

        LoweringCache& cache = device.shaders->cache;
        if (std::optional<LoweringCache::Hit> hit = cache.find(key)) {
            if (logger.enabled(LogLevel::Debug)) {
                logger.log(LogLevel::Debug, kMessageId,
                           std::format("{}: cache hit ({}) for entry point {}, subgroup size {}", code.name,
                                       hit->from_disk ? "disk: " + cache.file_of(key).string() : std::string("memory"),
                                       request.entry_point, target.subgroup_size));
            }
            return {VK_SUCCESS, std::move(hit->words)};
        }
        LoweredWords words = lower_and_check(device, code, request.entry_point, target, options, key);
        if (!words) return {VK_ERROR_UNKNOWN, nullptr};
        if (!cache.store(key, words)) {
            logger.log(LogLevel::Warning, kMessageId, "could not write the cache file " + cache.file_of(key).string());
        }
        return {VK_SUCCESS, std::move(words)};
    } catch (const std::bad_alloc&) {
        log_if_possible(logger, "out of host memory while lowering a shader");
        return {VK_ERROR_OUT_OF_HOST_MEMORY, nullptr};
    } catch (...) {
        log_if_possible(logger, "unexpected failure while lowering a shader");
        return {VK_ERROR_UNKNOWN, nullptr};
    }
}

}  // namespace vkpolyfill
