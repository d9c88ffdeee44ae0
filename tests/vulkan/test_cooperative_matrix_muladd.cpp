// OpCooperativeMatrixMulAddKHR against a CPU reference, for every covered configuration:
//   MulAdd            each layout combination and each storage class, values whose sums are exact;
//   MulAddWrapping    integer accumulators near their limits: the sum wraps (low 32 bits);
//   MulAddSaturating  the same values with SaturatingAccumulation: the sum clamps;
//   MulAddLoop        4 K-steps accumulated through a loop (large K); f16 accumulators get the
//                     relative tolerance 3/1024 (of the sum of magnitudes), as VK-GL-CTS allows;
//                     also after spirv-opt -O, whose output carries the accumulator in an OpPhi.
// Signedness comes from the component types (glslang sets the Matrix*SignedComponents operands):
// sint8 values span -128..127 and uint8 0..255 so sign- and zero-extension differ.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "coopmat_cases.h"
#include "coopmat_matrix.h"

namespace vkpolyfill::test::coopmat {
namespace {

constexpr uint32_t kTilesX = 2;  // subgroups per workgroup (tile columns)
constexpr uint32_t kTilesY = 2;  // workgroups (tile rows)

struct Layouts {
    const char* name;
    bool a, b, c, d;  // column-major?
};
constexpr Layouts kRowMajor{"rowmajor", false, false, false, false};
constexpr Layouts kColMajor{"colmajor", true, true, true, true};
constexpr Layouts kMixed{"mixed", false, true, true, false};  // A row, B column, C column, D row

enum class Values { Exact, NearLimits };

struct MulAddCase {
    Configuration configuration;
    Layouts layouts;
    Storage storage;
    uint32_t k_tiles;
    Values values;
    bool optimize;
};

std::string shader_of(const Configuration& c) {
    std::string name = "tests/coopmat/muladd_" + std::string(short_name(c.a));
    if (c.b != c.a) name += "_" + std::string(short_name(c.b));
    return name + "_" + std::string(short_name(c.c)) + (c.saturating ? "_sat" : "") + ".comp";
}

// The four big matrices: every tile of A is M x (K * k_tiles), of B (K * k_tiles) x N, of C and D
// M x N; strides leave a few elements of padding after each line.
struct Matrices {
    MemoryLayout a, b, c, d;
};

MemoryLayout big(uint32_t rows, uint32_t cols, bool column_major, uint32_t padding) {
    return {rows, cols, column_major, (column_major ? rows : cols) + padding, 0};
}

Matrices big_matrices(const MulAddCase& t) {
    const Configuration& c = t.configuration;
    const uint32_t k = c.k * t.k_tiles;
    return {big(kTilesY * c.m, kTilesX * k, t.layouts.a, 2), big(kTilesY * k, kTilesX * c.n, t.layouts.b, 3),
            big(kTilesY * c.m, kTilesX * c.n, t.layouts.c, 1), big(kTilesY * c.m, kTilesX * c.n, t.layouts.d, 5)};
}

// Elements a workgroup stages for a band of `rows` rows of `layout` (Workgroup storage).
uint32_t band_elements(const MemoryLayout& layout, uint32_t rows) {
    MemoryLayout band = layout;
    band.rows = rows;
    return static_cast<uint32_t>(band.end());
}

// Test values: halves in [-2, 5.5] for floats (products and their sums stay exact in f16 for
// K <= 16, as in VK-GL-CTS); the full range of 8-bit integers; 32-bit accumulators within 2^20 of
// zero (Exact), or near a limit (NearLimits) by about what the products add up to, so that some
// sums overflow and some do not.
double draw(Component type, Values values, std::mt19937& rng) {
    if (is_float(type)) return (static_cast<double>(rng() & 0xf) - 4.0) / 2.0;
    if (component_bytes(type) == 1) {
        return is_signed(type) ? static_cast<double>(static_cast<int>(rng() % 256) - 128) : static_cast<double>(rng() % 256);
    }
    if (values == Values::Exact) {
        const double magnitude = static_cast<double>(rng() % (1u << 21));
        return is_signed(type) ? magnitude - (1 << 20) : magnitude;
    }
    if (!is_signed(type)) return std::numeric_limits<uint32_t>::max() - static_cast<double>(rng() % (1u << 20));
    const double offset = static_cast<double>(rng() % (1u << 15));
    return (rng() & 1) ? std::numeric_limits<int32_t>::max() - offset : std::numeric_limits<int32_t>::min() + offset;
}

double clamp_to(Component type, double value) {
    if (is_signed(type)) {
        return std::clamp(value, static_cast<double>(std::numeric_limits<int32_t>::min()),
                          static_cast<double>(std::numeric_limits<int32_t>::max()));
    }
    return std::clamp(value, 0.0, static_cast<double>(std::numeric_limits<uint32_t>::max()));
}

struct Push {
    VkDeviceAddress a, b, c, d;
};

Observation run_muladd(CoopmatDevice& device, const MulAddCase& t) {
    const Configuration& c = t.configuration;
    const Matrices big = big_matrices(t);
    std::mt19937 rng(c.m * 131 + c.n * 17 + c.k + t.k_tiles);
    const std::vector<std::byte> a = generated(c.a, big.a.end(), [&] { return draw(c.a, t.values, rng); });
    const std::vector<std::byte> b = generated(c.b, big.b.end(), [&] { return draw(c.b, t.values, rng); });
    const std::vector<std::byte> cm = generated(c.c, big.c.end(), [&] { return draw(c.c, t.values, rng); });
    const std::vector<std::byte> d_before = patterned(c.result, big.d.end(), 3);

    const bool staged = t.storage == Storage::Workgroup;
    const uint32_t k = c.k * t.k_tiles;
    const ComputePipeline pipeline = device.pipeline(
        {.shader = shader_of(c),
         .constants = {kTilesX * device.subgroup_size(), c.m, c.n, c.k, t.k_tiles, layout_constant(t.layouts.a),
          layout_constant(t.layouts.b), layout_constant(t.layouts.c), layout_constant(t.layouts.d), big.a.stride,
          big.b.stride, big.c.stride, big.d.stride, static_cast<uint32_t>(t.storage),
          staged ? band_elements(big.a, c.m) : 1, staged ? band_elements(big.b, k) : 1,
          staged ? band_elements(big.c, c.m) : 1, staged ? band_elements(big.d, c.m) : 1},
         .buffers = 4,
         .push_constant_bytes = sizeof(Push),
         .optimize = t.optimize});
    Buffer buffers[4];
    const std::vector<std::byte>* contents[] = {&a, &b, &cm, &d_before};
    for (int i = 0; i < 4; ++i) {
        buffers[i] = device.buffer(contents[i]->size());
        std::ranges::copy(*contents[i], static_cast<std::byte*>(buffers[i].mapped));
    }
    const Push push{device.address(buffers[0]), device.address(buffers[1]), device.address(buffers[2]),
                    device.address(buffers[3])};
    const Buffer* bound[] = {&buffers[0], &buffers[1], &buffers[2], &buffers[3]};
    device.dispatch(pipeline, bound, std::as_bytes(std::span(&push, 1)), kTilesY);

    Output d{"D (" + std::string(t.layouts.name) + ", " + std::string(storage_name(t.storage)) + ")", c.result,
             bytes_of(buffers[3].mapped, buffers[3].size), d_before, {}, std::vector<double>(big.d.end(), 0.0),
             [layout = big.d, m = c.m, n = c.n](size_t i) {
                 const auto at = layout.position(i);
                 if (!at) return std::string("outside the matrix");
                 return "tile (" + std::to_string(at->first / m) + "," + std::to_string(at->second / n) + ") row " +
                        std::to_string(at->first % m) + " col " + std::to_string(at->second % n);
             }};
    if (c.result == VK_COMPONENT_TYPE_FLOAT16_KHR && t.k_tiles > 1) d.tolerance.relative = 3.0 / 1024.0;
    for (uint32_t row = 0; row < kTilesY * c.m; ++row) {
        for (uint32_t col = 0; col < kTilesX * c.n; ++col) {
            const uint32_t tile_x = col / c.n;
            double sum = element(cm, c.c, big.c, row, col), magnitude = std::fabs(sum);
            for (uint32_t kk = 0; kk < k; ++kk) {
                const double product = element(a, c.a, big.a, row, tile_x * k + kk) *
                                       element(b, c.b, big.b, (row / c.m) * k + kk, col);
                sum += product;
                magnitude += std::fabs(product);
            }
            const size_t at = big.d.index(row, col);
            write_value(d.expected, c.result, at, c.saturating ? clamp_to(c.result, sum) : sum);
            d.scale[at] = magnitude;
        }
    }
    Observation observation;
    observation.outputs.push_back(std::move(d));
    return observation;
}

std::string case_name(const MulAddCase& t) {
    std::string name = types_name(t.configuration) + "/" + shape_name(t.configuration);
    if (t.k_tiles > 1) return name + "_" + std::to_string(t.k_tiles) + "steps" + (t.optimize ? "_optimized" : "");
    return name + "_" + t.layouts.name + "_" + std::string(storage_name(t.storage));
}

void add(std::vector<Case>& cases, const std::string& group, const MulAddCase& t) {
    cases.push_back({group, case_name(t), {t.configuration, matrices_of(t.configuration)},
                     [t](CoopmatDevice& device) { return run_muladd(device, t); }});
}

// Every layout combination through StorageBuffer, and each other storage class with one of them;
// the glslang form of the loop where the driver may run it natively (8x8x8), the optimized form
// (OpPhi) everywhere.
constexpr struct {
    Layouts layouts;
    Storage storage;
} kPlacements[] = {{kRowMajor, Storage::Buffer},    {kColMajor, Storage::Buffer},
                   {kMixed, Storage::Buffer},       {kRowMajor, Storage::Workgroup},
                   {kMixed, Storage::PhysicalBuffer}};

std::vector<Case> make_cases() {
    std::vector<Case> cases;
    for (const Configuration& c : covered_configurations()) {
        if (c.saturating) {
            add(cases, "MulAddSaturating", {c, kRowMajor, Storage::Buffer, 1, Values::NearLimits, false});
            add(cases, "MulAddSaturating", {c, kMixed, Storage::Workgroup, 1, Values::NearLimits, false});
            continue;
        }
        for (const auto& [layouts, storage] : kPlacements) add(cases, "MulAdd", {c, layouts, storage, 1, Values::Exact, false});
        if (!is_float(c.result)) add(cases, "MulAddWrapping", {c, kRowMajor, Storage::Buffer, 1, Values::NearLimits, false});
        for (bool optimize : {false, true}) {
            if (optimize || c.k == 8) add(cases, "MulAddLoop", {c, kRowMajor, Storage::Buffer, 4, Values::Exact, optimize});
        }
    }
    return cases;
}

const bool registered = register_cases(make_cases);

}  // namespace
}  // namespace vkpolyfill::test::coopmat
