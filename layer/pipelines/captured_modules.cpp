#include "pipelines/captured_modules.h"

#include <format>

namespace vkpolyfill {

std::shared_ptr<const CapturedModule> capture(std::span<const uint32_t> words) {
    return std::make_shared<const CapturedModule>(CapturedModule{{words.begin(), words.end()}, hash_of(words)});
}

void CapturedModules::add(VkShaderModule module, std::shared_ptr<const CapturedModule> captured) {
    modules_.insert_or_assign(module, std::move(captured));
}

std::shared_ptr<const CapturedModule> CapturedModules::find(VkShaderModule module) const {
    return modules_.find(module)->second;
}

void CapturedModules::set_name(VkShaderModule module, const char* name) {
    if (name == nullptr || *name == '\0') {
        names_.erase(module);
    } else {
        names_.insert_or_assign(module, name);
    }
}

std::string CapturedModules::name(VkShaderModule module) const {
    const auto found = names_.find(module);
    if (found->first) return found->second;
    return handle_text("VkShaderModule", reinterpret_cast<uint64_t>(module));
}

void CapturedModules::remove(VkShaderModule module) {
    modules_.erase(module);
    names_.erase(module);
}

std::string handle_text(const char* type_name, uint64_t handle) { return std::format("{} 0x{:x}", type_name, handle); }

}  // namespace vkpolyfill
