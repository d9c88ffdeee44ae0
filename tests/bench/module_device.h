// A device for compiling modules nobody described (an engine's shaders, every module of the suite): on
// the driver alone, or through the layer with its own per-device decisions, or through it with every
// emulation forced. It enables every extension the layer provides that the device lists (and the
// compilers' statistics, and the float formats the shaders may use), with every feature those and
// Vulkan 1.0-1.3 report, as an application that asks for everything would.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "debug_messages.h"
#include "module_interface.h"
#include "vulkan_context.h"

namespace vkpolyfill::bench {

enum class ModuleRoute { Driver, Layer, Emulated };

// "driver", "layer", "emulated"; nullopt for another word.
std::optional<ModuleRoute> module_route(const std::string& name);

class ModuleDevice {
  public:
    explicit ModuleDevice(ModuleRoute route);
    ~ModuleDevice();
    ModuleDevice(const ModuleDevice&) = delete;
    ModuleDevice& operator=(const ModuleDevice&) = delete;

    test::Context& context() { return *context_; }
    std::string device_name;
    bool captures_statistics = false;  // pipelineExecutableInfo is on
    // What the layer reported at warning or error severity so far (failure reasons).
    std::string layer_problems() const;
    // Empty when the device has (on this route) what the module declares it needs: the Vulkan extension
    // of each SPIR-V extension it names, and the feature of each capability among those engines' and
    // the suite's shaders use (the numeric types, 8- and 16-bit storage, the memory model); otherwise
    // what it lacks. Such a module is not valid on the device, and a driver handed one may crash.
    std::string lacks(const test::ModuleInterface& module) const;
    bool enabled(const std::string& extension) const { return extensions_.contains(extension); }

  private:
    std::set<std::string> extensions_;     // enabled
    std::map<uint32_t, bool> capabilities_;  // SPIR-V capability -> its feature enabled
    test::DebugMessages messages_;
    std::unique_ptr<test::Context> context_;
    std::unique_ptr<test::ScopedMessenger> messenger_;
};

}  // namespace vkpolyfill::bench
