#include "kernels.h"

#include <stdexcept>

#include "text_parsing.h"

namespace vkpolyfill::bench {

uint32_t KernelConfig::get(std::string_view name) const {
    for (const auto& [key, value] : parameters) {
        if (key == name) return value;
    }
    throw std::invalid_argument("no kernel parameter '" + std::string(name) + "'");
}

std::string KernelConfig::describe() const {
    std::string text;
    for (const auto& [key, value] : parameters) text += (text.empty() ? "" : " ") + key + "=" + std::to_string(value);
    return text;
}

void KernelConfig::override_with(std::string_view assignments) {
    for (const std::string_view item : split_list(assignments)) {
        const size_t equals = item.find('=');
        if (equals == std::string_view::npos) throw std::invalid_argument("expected name=value, got '" + std::string(item) + "'");
        const std::string_view name = item.substr(0, equals);
        bool found = false;
        for (auto& [key, value] : parameters) {
            if (key == name) {
                value = parse_uint(item.substr(equals + 1), item);
                found = true;
            }
        }
        if (!found) throw std::invalid_argument("unknown kernel parameter in '" + std::string(item) + "' (have: " + describe() + ")");
    }
}

KernelConfig default_config(Kernel kernel) {
    if (kernel == Kernel::Scalar) {
        // See shaders/bench/gemm_scalar.comp for what these mean and how they were chosen.
        return {kernel, {{"rm", 16}, {"rn", 2}, {"sgm", 1}, {"sgn", 8}, {"bk", 8}, {"bsel", 1}}};
    }
    if (kernel == Kernel::Coopmat2) {
        // See shaders/bench/gemm_coopmat2.comp.
        return {kernel, {{"invocations", 256}, {"bm", 128}, {"bn", 128}, {"bk", 16}}};
    }
    // See shaders/bench/gemm_coopmat.comp.
    return {kernel, {{"tm", 8}, {"tn", 8}, {"tk", 8}, {"wm", 4}, {"wn", 4}, {"sgm", 2}, {"sgn", 2}, {"bk", 16}, {"stage", 1}}};
}

KernelConfig flexible_coopmat_config() {
    KernelConfig config = default_config(Kernel::Coopmat);
    config.override_with("tm=32,tn=32,tk=16,wm=1,wn=1,sgm=2,sgn=2,stage=0");
    config.flexible = true;
    return config;
}

std::string KernelConfig::label() const {
    if (kernel == Kernel::Scalar) return "scalar";
    if (kernel == Kernel::Coopmat2) {
        return "coopmat2 workgroup " + std::to_string(get("bm")) + "x" + std::to_string(get("bn")) + "x" +
               std::to_string(get("bk")) + " (" + std::to_string(get("invocations")) + " invocations), A/B from the buffers";
    }
    const std::string shape = std::to_string(get("tm")) + "x" + std::to_string(get("tn")) + "x" + std::to_string(get("tk"));
    return (flexible ? "coopmat2 subgroup " + shape + " (flexible)" : "coopmat " + shape) +
           (get("stage") ? ", A/B via shared memory" : ", A/B from the buffers");
}

const char* shader_path(Kernel kernel) {
    switch (kernel) {
        case Kernel::Scalar: return "bench/gemm_scalar.comp";
        case Kernel::Coopmat: return "bench/gemm_coopmat.comp";
        case Kernel::Coopmat2: return "bench/gemm_coopmat2.comp";
    }
    return "";
}

Geometry geometry(const KernelConfig& c, uint32_t subgroup_size) {
    if (c.kernel == Kernel::Coopmat2) return {c.get("invocations"), c.get("bm"), c.get("bn"), c.get("bk")};
    // A subgroup computes sub_m x sub_n of C; the workgroup has sgm x sgn subgroups.
    const bool scalar = c.kernel == Kernel::Scalar;
    const uint32_t sub_m = scalar ? c.get("rm") : c.get("wm") * c.get("tm");
    const uint32_t sub_n = scalar ? c.get("rn") * subgroup_size : c.get("wn") * c.get("tn");
    return {c.get("sgm") * c.get("sgn") * subgroup_size, c.get("sgm") * sub_m, c.get("sgn") * sub_n, c.get("bk")};
}

std::vector<uint32_t> specialization(const KernelConfig& config, uint32_t subgroup_size) {
    std::vector<uint32_t> values{geometry(config, subgroup_size).invocations, subgroup_size};
    for (const auto& parameter : config.parameters) values.push_back(parameter.second);
    return values;
}

}  // namespace vkpolyfill::bench
