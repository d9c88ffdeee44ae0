// vkpolyfill_capability_matrix: what one device gets from the layer, feature bit by feature bit: native
// (the driver reports it without the layer), emulated (only the layer reports it) or unavailable (and
// the layer's reason). The device is the one VK_DRIVER_FILES names (scripts/gpu-proxy.sh, or
// scripts/env.sh's lavapipes).
//   --json    one JSON object instead of the table (scripts/gpu-sweep.sh combines them)
//   --check   also checks the layer against the driver's own report, and fails on any difference:
//             every bit the driver has stays on through the layer; an extension the layer calls native
//             is the driver's, one it emulates is listed with at least one bit on, and one it cannot
//             provide is not listed and has a reason; the limits the layer reports smaller stay at or
//             above Vulkan's minimums
#include <cstdio>
#include <cstring>
#include <exception>
#include <format>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "debug_messages.h"
#include "device_report.h"
#include "json_writer.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

struct Row {
    std::string extension, feature;
    std::string provision;  // native | emulated | unavailable
};

std::vector<Row> rows_of(const DeviceReport& driver, const DeviceReport& layered, const std::map<std::string, Decision>& decisions) {
    std::vector<Row> rows;
    for (const FeatureBit& bit : feature_bits()) {
        const bool native = driver.has(bit), through = layered.has(bit);
        rows.push_back({bit.extension, bit.name, native ? "native" : through ? "emulated" : "unavailable"});
    }
    // What only SPIR-V names has no feature bit: the layer's word is all there is.
    for (const auto& [extension, decision] : decisions) {
        if (!is_vulkan_capability(extension)) rows.push_back({extension, "(SPIR-V only)", decision.provision});
    }
    return rows;
}

// Why a row is unavailable, or empty: the layer's reason for the extension, or, where the driver has
// the extension itself, that its own lacks the bit (the layer passes a native extension through whole).
std::string reason_unavailable(const Row& r, const std::map<std::string, Decision>& decisions) {
    if (r.provision != "unavailable") return {};
    const auto decision = decisions.find(r.extension);
    if (decision == decisions.end()) return "the layer said nothing about it";
    if (decision->second.provision == "native") return "the driver has the extension without this feature";
    return decision->second.reason;
}

void print_json(const DeviceReport& driver, const std::vector<Row>& rows, const std::map<std::string, Decision>& decisions) {
    bench::JsonWriter json;
    json.begin_object().key("device").value(driver.device_name).key("driver").value(driver.driver_info);
    json.key("rows").begin_array();
    for (const Row& r : rows) {
        json.begin_object().key("extension").value(r.extension).key("feature").value(r.feature);
        json.key("provision").value(r.provision).key("reason").value(reason_unavailable(r, decisions));
        json.end_object();
    }
    json.end_array().end_object();
    std::printf("%s\n", json.text().c_str());
}

void print_table(const DeviceReport& driver, const std::vector<Row>& rows, const std::map<std::string, Decision>& decisions) {
    std::printf("%s (%s)\n", driver.device_name.c_str(), driver.driver_info.c_str());
    std::set<std::string> explained;
    for (const Row& r : rows) {
        std::printf("  %-40s %-44s %s\n", r.extension.c_str(), r.feature.c_str(), r.provision.c_str());
    }
    for (const Row& r : rows) {
        const std::string reason = reason_unavailable(r, decisions);
        if (!reason.empty() && explained.insert(r.extension + reason).second) {
            std::printf("  %s: %s\n", r.extension.c_str(), reason.c_str());
        }
    }
}

// Differences between what the layer decided and what the application sees, as sentences.
std::vector<std::string> disagreements(const DeviceReport& driver, const DeviceReport& layered,
                               const std::map<std::string, Decision>& decisions) {
    std::vector<std::string> problems;
    // What the layer takes from the limits leaves the application what Vulkan guarantees.
    for (const ReducibleLimit& limit : reducible_limits()) {
        const uint32_t reported = layered.limits.at(limit.name), own = driver.limits.at(limit.name);
        if (reported > own || (reported < limit.vulkan_minimum && reported != own)) {
            problems.push_back(std::format("{}: {} through the layer, {} from the driver (Vulkan requires at least {})", limit.name,
                                           reported, own, limit.vulkan_minimum));
        }
    }
    for (const FeatureBit& bit : feature_bits()) {
        if (driver.has(bit) && !layered.has(bit)) {
            problems.push_back(std::string(bit.name) + ": the driver has it, but not through the layer");
        }
    }
    for (const char* extension : capability_extensions()) {
        const auto found = decisions.find(extension);
        if (found == decisions.end()) {
            problems.push_back(std::string(extension) + ": the layer said nothing about it");
            continue;
        }
        const Decision& d = found->second;
        bool any_bit = false;
        for (const FeatureBit& bit : feature_bits()) any_bit |= bit.extension == std::string(extension) && layered.has(bit);
        if (d.provision == "native" && !driver.lists(extension)) {
            problems.push_back(std::string(extension) + ": called native, but the driver does not list it");
        } else if (d.provision == "emulated" && (!layered.lists(extension) || !any_bit)) {
            problems.push_back(std::string(extension) + ": called emulated, but not listed with a feature on through the layer");
        } else if (d.provision == "unavailable" && (layered.lists(extension) != driver.lists(extension) || d.reason.empty())) {
            problems.push_back(std::string(extension) + ": called unavailable, yet listed through the layer or without a reason");
        }
    }
    return problems;
}

int run(bool json, bool check_layer) {
    check(volkInitialize(), "volkInitialize (is the Vulkan loader installed?)");
    const DeviceReport driver = read_device(false, nullptr);
    DebugMessages messages;
    const DeviceReport layered = read_device(true, &messages);
    const std::map<std::string, Decision> decisions = layer_decisions(messages);
    const std::vector<Row> rows = rows_of(driver, layered, decisions);
    if (json) {
        print_json(driver, rows, decisions);
    } else {
        print_table(driver, rows, decisions);
    }
    std::fflush(stdout);
    if (!check_layer) return 0;
    const std::vector<std::string> problems = disagreements(driver, layered, decisions);
    for (const std::string& p : problems) std::fprintf(stderr, "capability check: %s\n", p.c_str());
    if (problems.empty()) std::fprintf(stderr, "capability check: the layer's report agrees with the driver's on %s\n",
                                       driver.device_name.c_str());
    return problems.empty() ? 0 : 1;
}

}  // namespace
}  // namespace vkpolyfill::test

int main(int argc, char** argv) {
    bool json = false, check_layer = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (std::strcmp(argv[i], "--check") == 0) {
            check_layer = true;
        } else {
            std::fprintf(stderr, "usage: vkpolyfill_capability_matrix [--json] [--check]\n");
            return 2;
        }
    }
    setenv("VK_ADD_LAYER_PATH", VKPOLYFILL_LAYER_MANIFEST_PATH, 1);
    try {
        return vkpolyfill::test::run(json, check_layer);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkpolyfill_capability_matrix: %s\n", e.what());
        return 2;
    }
}
