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

KernelConfig coopmat_config(uint32_t tm, uint32_t tn, uint32_t tk) {
    KernelConfig config = default_config(Kernel::Coopmat);
    config.override_with("tm=" + std::to_string(tm) + ",tn=" + std::to_string(tn) + ",tk=" + std::to_string(tk));
    if (tm == 16 && tn == 16 && tk == 16) {
        // Tuned for the layer's emulation (no driver runs 16x16x16 natively), process CPU ms per 1024^3
        // GEMM from the buffers, 2026-11-23, load 4-6. Lavapipe 26, one process each: the 8x8x8 tiling
        // (wm=wn=4, sgm=sgn=2) 97; wm x wn 1x1 149, 2x2 114, 2x4 90-95, 4x2 103, 1x8 88, 4x8 86,
        // 2x16 79, 2x8 79-82, and with one subgroup a workgroup (sgm=sgn=1) 2x8 69-85, 2x16 76, 4x8
        // 82, 4x4 86; other sgm x sgn for 2x8 73-88; bk=32 132-145. In one process: 8x8x8's tiling
        // 102.6 (2048^3: 851.5), 2x8 with one subgroup 79.6 (676.7), 2x8 sgm=sgn=2 78.6 (774.4), 2x16
        // 86.4-88.6 (687-735), 4x8 82.5 (776.7). Lavapipe 25, one process: 774.9 -> 297.5 (staged
        // 428.9 -> 469.5). Each A tile a subgroup loads (uniform f16 loads, the emulation's dearest
        // part) serves WN multiply-adds, so wide beats square at the same 16 accumulators.
        // The scalar shader: 76-83 in its fast processes (README, VK_KHR_cooperative_matrix performance).
        config.override_with("wm=2,wn=8,sgm=1,sgn=1");
    }
    return config;
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
