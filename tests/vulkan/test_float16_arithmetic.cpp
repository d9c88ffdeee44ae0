// The Float16 emulation on its own (lowering/src/passes/float16), for devices with 16-bit storage but
// no shaderFloat16: shaders/tests/float16/arithmetic.comp runs as written on lavapipe, which has
// shaderFloat16 (the reference), and lowered with the Float16 set (f32 registers rounded to f16 after
// each operation). Single operations must agree bit for bit; fused ones (fma, dot, matrix products,
// which the emulation rounds once) and transcendental functions within a few f16 ulp. Once by the
// library, once through the layer with its emulation forced (force_emulation of
// VK_KHR_shader_float16_int8, as on a GTX 1080, whose driver lacks shaderFloat16).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <format>
#include <map>
#include <optional>
#include <vulkan/utility/vk_struct_helper.hpp>

#include "coopmat_scalars.h"
#include "library_lowering.h"
#include "scoped_env.h"
#include "spy_records.h"
#include "temp_dir.h"
#include "vkpolyfill/lowering/lower.h"
#include "vulkan_context.h"

namespace vkpolyfill::test {
namespace {

using coopmat::double_from_half;
using coopmat::half_from_double;

constexpr uint32_t kInvocations = 64;
// std430 offsets in the shader's buffers.
constexpr size_t kInputBytes = 512 + kInvocations * 32;  // a, b, wide, then 32-byte records
constexpr size_t kExactBytes = 4864 + kInvocations * 32;  // halves[64][20], words[64][9], records
constexpr size_t kApproximateHalves = kInvocations * 10;

struct Outputs {
    std::vector<std::byte> exact;
    std::vector<uint16_t> approximate;
};

void put_half(std::span<std::byte> bytes, size_t offset, double value) {
    const uint16_t bits = half_from_double(value);
    std::memcpy(bytes.data() + offset, &bits, sizeof bits);
}

std::vector<std::byte> inputs() {
    std::vector<std::byte> bytes(kInputBytes);
    for (uint32_t i = 0; i < kInvocations; ++i) {
        put_half(bytes, 2 * i, (double(i) - 31.5) * 0.37);                            // a
        put_half(bytes, 128 + 2 * i, (i % 2 ? -1.0 : 1.0) * (0.5 + double(i) * 0.11));  // b, never 0
        const float wide = float(i) * 1.2345678f - 17.0f;
        std::memcpy(bytes.data() + 256 + 4 * i, &wide, sizeof wide);
        const size_t record = 512 + 32 * i;
        put_half(bytes, record, double(i) * 0.1 - 2.0);  // x
        for (uint32_t c = 0; c < 3; ++c) put_half(bytes, record + 8 + 2 * c, double(c + i) * 0.25);
        const uint32_t tag = 1000 + i;
        std::memcpy(bytes.data() + record + 16, &tag, sizeof tag);
        for (uint32_t c = 0; c < 4; ++c) put_half(bytes, record + 20 + 2 * c, double(i) * 0.5 - double(c));
    }
    return bytes;
}

Outputs run(Context& context, std::span<const uint32_t> spirv) {
    ComputePipeline pipeline = context.create_compute_pipeline(spirv, 3, 0);
    Buffer in = context.create_buffer(kInputBytes);
    Buffer exact = context.create_buffer(kExactBytes);
    Buffer approximate = context.create_buffer(kApproximateHalves * 2);
    const std::vector<std::byte> data = inputs();
    std::memcpy(in.mapped, data.data(), data.size());
    std::memset(exact.mapped, 0, kExactBytes);
    std::memset(approximate.mapped, 0, kApproximateHalves * 2);
    const Buffer* buffers[] = {&in, &exact, &approximate};
    context.dispatch(pipeline, buffers, {}, 1);
    Outputs out;
    const auto exact_bytes = exact.as<std::byte>();
    out.exact.assign(exact_bytes.begin(), exact_bytes.end());
    const auto halves = approximate.as<uint16_t>();
    out.approximate.assign(halves.begin(), halves.end());
    return out;
}

double half_at(std::span<const std::byte> bytes, size_t offset) {
    uint16_t bits = 0;
    std::memcpy(&bits, bytes.data() + offset, sizeof bits);
    return double_from_half(bits);
}

// The sum of the magnitudes of the terms of the shader's dot(p, q) for invocation i.
double dot_terms(std::span<const std::byte> inputs, uint32_t i) {
    const auto h = [](double v) { return double_from_half(half_from_double(v)); };
    const double x = half_at(inputs, 2 * i), y = half_at(inputs, 128 + 2 * i);
    const double sum = h(x + y), difference = h(x - y), product = h(x * y);
    return std::abs(x * y) + std::abs(y * 0.5) + std::abs(sum * x) + std::abs(product * difference);
}

bool declares_float16(std::span<const uint32_t> words) {
    for (size_t i = 5; i < words.size() && (words[i] >> 16) != 0; i += words[i] >> 16) {
        if (words[i] == ((2u << 16) | 17u) && i + 1 < words.size() && words[i + 1] == 9u) return true;  // OpCapability Float16
    }
    return false;
}

// The bits of each element of the module's Workgroup arrays (the element's OpTypeInt or OpTypeFloat width).
std::vector<uint32_t> shared_element_widths(std::span<const uint32_t> words) {
    std::map<uint32_t, std::span<const uint32_t>> definitions;  // result id -> the instruction's words
    std::vector<uint32_t> widths;
    for (size_t i = 5; i < words.size() && (words[i] >> 16) != 0; i += words[i] >> 16) {
        const std::span<const uint32_t> instruction = words.subspan(i, std::min<size_t>(words[i] >> 16, words.size() - i));
        const uint32_t opcode = instruction[0] & 0xFFFFu;
        if (opcode >= 19 && opcode <= 39 && instruction.size() > 1) definitions[instruction[1]] = instruction;  // types
        if (opcode != 59 || instruction.size() < 4 || instruction[3] != 4) continue;  // OpVariable, Workgroup
        const auto pointer = definitions.find(instruction[1]);
        if (pointer == definitions.end()) continue;
        const auto array = definitions.find(pointer->second[3]);
        if (array == definitions.end() || (array->second[0] & 0xFFFFu) != 28) continue;  // OpTypeArray
        const auto element = definitions.find(array->second[2]);
        if (element != definitions.end()) widths.push_back(element->second[2]);
    }
    return widths;
}

// A device with f16 arithmetic and storage, through the layer (and the spy layer below it) or not.
class Float16Device {
  public:
    explicit Float16Device(bool layer) {
        features11_.storageBuffer16BitAccess = VK_TRUE;
        features12_.shaderFloat16 = VK_TRUE;
        ContextOptions options{.layer = layer, .spy = layer, .device_features_next = &features12_};
        options.device_features.shaderInt16 = VK_TRUE;
        context_.emplace(options);
    }
    Context& context() { return *context_; }

  private:
    VkPhysicalDeviceVulkan11Features features11_ = vku::InitStructHelper();
    VkPhysicalDeviceVulkan12Features features12_ = vku::InitStructHelper(&features11_);
    std::optional<Context> context_;
};

// What differs between the driver's f16 and the emulation's, beyond what the header allows.
std::string mismatches(const Outputs& reference, const Outputs& emulated) {
    std::string mismatches;
    for (size_t offset = 0; offset + 2 <= kExactBytes && mismatches.size() < 2000; offset += 2) {
        uint16_t want = 0, got = 0;
        std::memcpy(&want, reference.exact.data() + offset, 2);
        std::memcpy(&got, emulated.exact.data() + offset, 2);
        if (want != got) mismatches += std::format("exact byte {}: driver 0x{:04x}, emulated 0x{:04x}\n", offset, want, got);
    }
    const std::vector<std::byte> data = inputs();
    for (size_t k = 0; k < kApproximateHalves && mismatches.size() < 2000; ++k) {
        const double want = double_from_half(reference.approximate[k]);
        const double got = double_from_half(emulated.approximate[k]);
        // Within 4 ulp of the larger (f16 has 10 fraction bits), or 2^-12 near 0 (sin of small values);
        // a dot product within 4 ulp of its largest terms' sum (the driver rounds each step, the
        // emulation once: cancellation makes those differ).
        double magnitude = std::max(std::abs(want), std::abs(got));
        if (k % 10 == 5) magnitude = std::max(magnitude, dot_terms(data, static_cast<uint32_t>(k / 10)));
        const double tolerance = std::max(std::ldexp(magnitude, -8), 0x1p-12);
        if (!(std::abs(want - got) <= tolerance)) {
            mismatches += std::format("invocation {} function {}: driver {}, emulated {}\n", k / 10, k % 10, want, got);
        }
    }
    return mismatches;
}

// Shared memory (the shader's `staged`) as f32, and as 16-bit integers where the device has shaderInt16.
TEST(Float16Emulation, ArithmeticMatchesTheDriversFloat16) {
    Float16Device device(false);
    const std::vector<uint32_t> original = read_shader("tests/float16/arithmetic.comp");
    const Outputs reference = run(device.context(), original);
    EXPECT_TRUE(declares_float16(original));
    for (const bool int16 : {false, true}) {
        SCOPED_TRACE(int16 ? "shaderInt16" : "no shaderInt16");
        lowering::Target target;
        target.subgroup_size = device.context().subgroup_size;
        target.emulate = lowering::bit(lowering::Emulated::Float16);
        target.shader_int16 = int16;
        const std::vector<uint32_t> lowered = lower_checked(original, target);
        ASSERT_FALSE(lowered.empty());
        EXPECT_FALSE(declares_float16(lowered));
        EXPECT_EQ(shared_element_widths(lowered), std::vector<uint32_t>{int16 ? 16u : 32u});
        EXPECT_EQ(mismatches(reference, run(device.context(), lowered)), "");
    }
}

TEST(Float16Emulation, ThroughTheLayerMatchesTheDriversFloat16) {
    const std::vector<uint32_t> original = read_shader("tests/float16/arithmetic.comp");
    Outputs reference;
    {
        Float16Device device(false);
        reference = run(device.context(), original);
    }
    TempDir spy;
    const ScopedEnv spy_dir("VKPOLYFILL_SPY_DIR", spy.path().c_str());
    const ScopedEnv forced("VK_POLYFILL_EXTENSIONS_FORCE_EMULATION", VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME);
    Float16Device device(true);
    const Outputs emulated = run(device.context(), original);
    // The module the pipeline reached the driver with, created last (NNNN-module.spv or -stage.spv).
    std::vector<std::filesystem::path> reached = spy.files_ending_with(".spv");
    ASSERT_FALSE(reached.empty());
    std::ranges::sort(reached);
    EXPECT_FALSE(declares_float16(read_words(reached.back()))) << "the driver got f16 arithmetic: " << reached.back();
    // The application enabled shaderInt16: shared memory keeps its f16 as 16 bits.
    EXPECT_EQ(shared_element_widths(read_words(reached.back())), std::vector<uint32_t>{16u});
    EXPECT_EQ(mismatches(reference, emulated), "");
}

}  // namespace
}  // namespace vkpolyfill::test
