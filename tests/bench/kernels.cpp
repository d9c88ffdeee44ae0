#include "kernels.h"

#include <algorithm>
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
        // See shaders/bench/gemm_coopmat2.comp. Swept through the layer's emulation on lavapipe 26
        // (2026-11-23, process CPU ms at 1024^3 / 2048^3, load 4-6): 512x64x16 with 128 invocations
        // 87.6-95.8 / 790-975 against 126-151 / 1306-1859 for 128x128x16 with 256 (the scalar shader
        // 78-92 / 669-1039 in the same processes); 1024x64x16 / 256 90-95 / 973; 256x64 / 128 102-109
        // / 1077-1149; 256x256x16 / 256 105-120 / 1020-1326; bk 32 no better; 1024x64 / 128 and
        // 512x64x32 / 128 563 and 584 (their bands of A, 1024 components an invocation, were looped
        // over in memory; now streamed: 2026-12-04 in the log). tests/bench/README.md, VK_NV_cooperative_matrix2 GEMM, has the whole
        // sweep. Lavapipe 25 has its own (kCoopmat2OnLavapipe25).
        return {kernel, {{"invocations", 128}, {"bm", 512}, {"bn", 64}, {"bk", 16}}};
    }
    // See shaders/bench/gemm_coopmat.comp.
    return {kernel, {{"tm", 8}, {"tn", 8}, {"tk", 8}, {"wm", 4}, {"wn", 4}, {"sgm", 2}, {"sgn", 2}, {"bk", 16}, {"stage", 1}}};
}

std::vector<KernelConfig> scalar_tunings(std::string_view driver) {
    KernelConfig zen5 = default_config(Kernel::Scalar), xeon = zen5;
    if (driver == "plain") zen5.override_with("rm=8,rn=16,sgm=1,sgn=1,bk=8,bsel=0");  // lavapipe 25 has no uniform loads
    // Lavapipe 26 on an Intel Xeon (AVX-512; 2026-11-26, process CPU ms at 1024^3): the Zen 5 tuning
    // 200-227, this one 101-154, rm=16 rn=8 with one subgroup 97-146, rm=8 rn=16 159-195; on lavapipe
    // 25 there it ties with lavapipe 25's own (424-427 against 419).
    xeon.override_with("rm=16,rn=8,sgm=1,sgn=2,bk=8,bsel=0");
    return {zen5, xeon};
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
        // The scalar shader: 76-83 in its fast processes (tests/bench/README.md, VK_KHR_cooperative_matrix GEMM).
        config.override_with("wm=2,wn=8,sgm=1,sgn=1");
    }
    return config;
}

KernelConfig flexible_coopmat_config() {
    // Swept through the layer's emulation on lavapipe 26 (2026-11-23, process CPU ms at 1024^3 /
    // 2048^3, load 4-6): 32x64x16 in 2x1 tiles of 2x2 subgroups 84.9-99.6 / 740-928 against 98-112 /
    // 963 for 32x32x16 in 1x1 tiles of 2x2 (the scalar shader 78-90 / 865-1039 in the same processes);
    // 32x32x16 in 1x4 tiles of 2x1 94-104 / 863; 2x2 tiles of 1x1 95-107 / 804; 16x16, 16x32, 16x64
    // 110-149; tk 32 or bk 32 slower; staged A/B 145-181; tm 64 (an A of 1024 components an
    // invocation, looped) 1050. Lavapipe 25 has its own (kFlexibleOnLavapipe25). bk is set here: the
    // KHR kernel's default is not this kernel's business.
    KernelConfig config = default_config(Kernel::Coopmat);
    config.override_with("tm=32,tn=64,tk=16,wm=2,wn=1,sgm=2,sgn=2,bk=16,stage=0");
    config.flexible = true;
    return config;
}

KernelConfig fitted(KernelConfig config, uint32_t m, uint32_t n) {
    if (config.kernel != Kernel::Coopmat2) return config;
    for (auto& [key, value] : config.parameters) {
        if (key == "bm") value = std::min(value, m);
        if (key == "bn") value = std::min(value, n);
    }
    return config;
}

std::string KernelConfig::label() const {
    if (kernel == Kernel::Scalar) return "scalar";
    if (kernel == Kernel::Coopmat2) {
        return "coopmat2 workgroup " + std::to_string(get("bm")) + "x" + std::to_string(get("bn")) + "x" +
               std::to_string(get("bk")) + " (" + std::to_string(get("invocations")) + " invocations), A/B from the buffers";
    }
    const std::string shape = std::to_string(get("tm")) + "x" + std::to_string(get("tn")) + "x" + std::to_string(get("tk"));
    const std::string tiles = std::to_string(get("wm")) + "x" + std::to_string(get("wn")) + " tiles of " +
                              std::to_string(get("sgm")) + "x" + std::to_string(get("sgn")) + " subgroups";
    return (flexible ? "coopmat2 subgroup " + shape + " (flexible, " + tiles + ")" : "coopmat " + shape) +
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
