// vkpolyfill_tensor_bench: what emulated VK_ARM_tensors costs (scripts/bench.sh runs it), on one
// driver through the layer:
//  - an element-wise kernel (z = 2x + y) and a matrix product written with tensors (lowered by the
//    layer) against the same kernels written with storage buffers (bounds-checked like tensor
//    accesses): time per dispatch and the ratio buffers / tensors (1.0 = as fast);
//  - vkCmdCopyTensorARM of packed tensors against vkCmdCopyBuffer of the same bytes, and a strided
//    copy (short rows: the layer's compute copy) in GB/s.
// Each result is checked against a CPU reference before it is timed. Times are wall-clock medians of
// --reps submissions (record, submit, wait); on lavapipe the work is the CPU's.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include <vulkan/utility/vk_struct_helper.hpp>

#include "arm_tensor_device.h"
#include "driver_selection.h"
#include "figures.h"
#include "stats.h"
#include "text_parsing.h"

namespace vkpolyfill::bench {
namespace {

using test::TensorComputePipeline;
using test::TensorDevice;
using test::TestTensor;

constexpr const char* kUsage =
    "usage: vkpolyfill_tensor_bench [--driver plain|native|system] [--elements N] [--matrix N] [--reps N] [--json PATH]\n"
    "  --driver    the driver (default native: lavapipe 26 through scripts/env.sh)\n"
    "  --elements  elements of the element-wise kernel's tensors, a multiple of 65536 (default 4194304)\n"
    "  --matrix    the matrix product's size, a multiple of 8 (default 256)\n"
    "  --reps      measured submissions per figure; the median is reported (default 7)\n"
    "  --json      also write the figures (median, quartiles, range) for scripts/bench.sh's report\n";

struct Options {
    std::string driver = "native";
    uint32_t elements = 1u << 22, matrix = 256, reps = 7;
    std::string json;
};

Options parse(int argc, char** argv) {
    Options options;
    const std::pair<const char*, std::string*> texts[] = {{"--driver", &options.driver}, {"--json", &options.json}};
    const std::pair<const char*, uint32_t*> numbers[] = {{"--elements", &options.elements}, {"--matrix", &options.matrix}, {"--reps", &options.reps}};
    parse_flags(argc, argv, texts, numbers);
    if (options.elements == 0 || options.elements % 65536 != 0) throw std::invalid_argument("--elements must be a multiple of 65536");
    if (options.matrix == 0 || options.matrix % 8 != 0) throw std::invalid_argument("--matrix must be a multiple of 8");
    return options;
}

float* floats(const TestTensor& t) { return reinterpret_cast<float*>(t.data); }
float* floats(const test::Buffer& b) { return static_cast<float*>(b.mapped); }

void require(bool ok, const char* what) {
    if (!ok) throw std::runtime_error(std::string("wrong result: ") + what);
}

// One kernel's row, and its two series in the figures.
void row(Figures& figures, const std::string& what, const Summary& tensor, const Summary& buffer) {
    std::printf("| %s | %.3f | %.3f | %.2f |\n", what.c_str(), tensor.median, buffer.median, buffer.median / tensor.median);
    figures.add(what, "tensors through the layer", "ms per dispatch", tensor);
    figures.add(what, "storage buffers", "ms per dispatch", buffer);
}

void kernels(TensorDevice& device, const Options& o, Figures& figures) {
    test::Context& c = device.context();
    using Binding = TensorComputePipeline::Binding;
    const Binding tensor{VK_DESCRIPTOR_TYPE_TENSOR_ARM}, buffer{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    std::printf("## Tensor kernels against storage-buffer kernels (through the layer, median of %u)\n\n", o.reps);
    std::printf("| kernel | tensors (ms) | storage buffers (ms) | buffers / tensors |\n| --- | ---: | ---: | ---: |\n");

    // Element-wise.
    const int64_t n = o.elements;
    const TestTensor x = device.create(VK_FORMAT_R32_SFLOAT, {n}), y = device.create(VK_FORMAT_R32_SFLOAT, {n}),
                     z = device.create(VK_FORMAT_R32_SFLOAT, {n});
    const test::Buffer bx = c.create_buffer(n * 4), by = c.create_buffer(n * 4), bz = c.create_buffer(n * 4);
    for (int64_t i = 0; i < n; ++i) floats(x)[i] = floats(bx)[i] = static_cast<float>(i % 1000), floats(y)[i] = floats(by)[i] = 0.5f;
    TensorComputePipeline tensor_axpy(device, "bench/tensor_axpy.comp", {{tensor, tensor, tensor}});
    tensor_axpy.write_tensors(0, 0, {device.view(x, VK_FORMAT_R32_SFLOAT)});
    tensor_axpy.write_tensors(0, 1, {device.view(y, VK_FORMAT_R32_SFLOAT)});
    tensor_axpy.write_tensors(0, 2, {device.view(z, VK_FORMAT_R32_SFLOAT)});
    TensorComputePipeline buffer_axpy(device, "bench/buffer_axpy.comp", {{buffer, buffer, buffer}});
    buffer_axpy.write_buffer(0, 0, bx);
    buffer_axpy.write_buffer(0, 1, by);
    buffer_axpy.write_buffer(0, 2, bz);
    const uint32_t rows = static_cast<uint32_t>(n / 64 / 1024);
    const Summary tensor_ms = time_ms(o.reps, [&] { tensor_axpy.dispatch(1024, rows); });
    const Summary buffer_ms = time_ms(o.reps, [&] { buffer_axpy.dispatch(1024, rows); });
    for (int64_t i = 0; i < n; ++i) require(floats(z)[i] == 2.0f * static_cast<float>(i % 1000) + 0.5f && floats(bz)[i] == floats(z)[i], "axpy");
    row(figures, "z = 2x + y, " + std::to_string(n) + " floats", tensor_ms, buffer_ms);

    // Matrix product.
    const int64_t m = o.matrix;
    const TestTensor a = device.create(VK_FORMAT_R32_SFLOAT, {m, m}), b = device.create(VK_FORMAT_R32_SFLOAT, {m, m}),
                     out = device.create(VK_FORMAT_R32_SFLOAT, {m, m});
    const test::Buffer ba = c.create_buffer(m * m * 4), bb = c.create_buffer(m * m * 4), bout = c.create_buffer(m * m * 4);
    for (int64_t i = 0; i < m * m; ++i) {
        floats(a)[i] = floats(ba)[i] = static_cast<float>((i * 7) % 5) - 2.0f;
        floats(b)[i] = floats(bb)[i] = static_cast<float>((i * 3) % 4) - 1.0f;
    }
    TensorComputePipeline tensor_matmul(device, "bench/tensor_matmul.comp", {{tensor, tensor, tensor}});
    tensor_matmul.write_tensors(0, 0, {device.view(a, VK_FORMAT_R32_SFLOAT)});
    tensor_matmul.write_tensors(0, 1, {device.view(b, VK_FORMAT_R32_SFLOAT)});
    tensor_matmul.write_tensors(0, 2, {device.view(out, VK_FORMAT_R32_SFLOAT)});
    TensorComputePipeline buffer_matmul(device, "bench/buffer_matmul.comp", {{buffer, buffer, buffer}}, 4);
    buffer_matmul.write_buffer(0, 0, ba);
    buffer_matmul.write_buffer(0, 1, bb);
    buffer_matmul.write_buffer(0, 2, bout);
    const uint32_t groups = static_cast<uint32_t>(m / 8), size = static_cast<uint32_t>(m);
    const Summary tensor_mm = time_ms(o.reps, [&] { tensor_matmul.dispatch(groups, groups); });
    const Summary buffer_mm = time_ms(o.reps, [&] { buffer_matmul.dispatch(groups, groups, 1, std::as_bytes(std::span(&size, 1))); });
    for (int64_t i = 0; i < m; i += 17) {  // small integers: exact in any summation order
        for (int64_t j = 0; j < m; j += 13) {
            float expected = 0;
            for (int64_t k = 0; k < m; ++k) expected += floats(a)[i * m + k] * floats(b)[k * m + j];
            require(floats(out)[i * m + j] == expected && floats(bout)[i * m + j] == expected, "matmul");
        }
    }
    row(figures, "C = AB, " + std::to_string(m) + "^3 floats", tensor_mm, buffer_mm);
    std::printf("\n");
}

void copies(TensorDevice& device, const Options& o, Figures& figures) {
    test::Context& c = device.context();
    std::printf("## vkCmdCopyTensorARM (through the layer, median of %u)\n\n", o.reps);
    std::printf("| copy | ms | GB/s | vkCmdCopyBuffer of the same bytes (ms) | copy buffer / copy tensor |\n| --- | ---: | ---: | ---: | ---: |\n");
    const int64_t n = o.elements;
    const TestTensor src = device.create(VK_FORMAT_R32_UINT, {n / 1024, 1024}), dst = device.create(VK_FORMAT_R32_UINT, {n / 1024, 1024});
    for (int64_t i = 0; i < n; ++i) reinterpret_cast<uint32_t*>(src.data)[i] = static_cast<uint32_t>(i * 2654435761u);
    const test::Buffer bsrc = c.create_buffer(n * 4), bdst = c.create_buffer(n * 4);
    auto copy_tensor = [&](const TestTensor& from, const TestTensor& to) {
        VkTensorCopyARM region = vku::InitStructHelper();
        region.dimensionCount = 2;
        VkCopyTensorInfoARM info = vku::InitStructHelper();
        info.srcTensor = from.tensor;
        info.dstTensor = to.tensor;
        info.regionCount = 1;
        info.pRegions = &region;  // no offsets or extent: the whole tensor
        device.run([&](VkCommandBuffer cb) { c.vk.vkCmdCopyTensorARM(cb, &info); });
    };
    const Summary tensor = time_ms(o.reps, [&] { copy_tensor(src, dst); });
    const double tensor_ms = tensor.median;
    require(std::memcmp(src.data, dst.data, n * 4) == 0, "packed copy");
    const Summary buffer = time_ms(o.reps, [&] {
        device.run([&](VkCommandBuffer cb) {
            const VkBufferCopy region{0, 0, static_cast<VkDeviceSize>(n * 4)};
            c.vk.vkCmdCopyBuffer(cb, bsrc.buffer, bdst.buffer, 1, &region);
        });
    });
    const double buffer_ms = buffer.median;
    const std::string packed_group = "packed copy, " + std::to_string(n * 4 / 1024) + " KiB";
    figures.add(packed_group, "vkCmdCopyTensorARM through the layer", "ms per copy", tensor);
    figures.add(packed_group, "vkCmdCopyBuffer of the same bytes", "ms per copy", buffer);
    const double gb = n * 4 / 1e9;
    std::printf("| packed, %lld x 1024 uint32 | %.3f | %.2f | %.3f | %.2f |\n", static_cast<long long>(n / 1024), tensor_ms,
                gb / (tensor_ms / 1e3), buffer_ms, buffer_ms / tensor_ms);

    // Rows of 12 bytes 16 bytes apart, into a packed tensor: the compute copy.
    const int64_t rows = n / 4;
    const TestTensor strided = device.create(VK_FORMAT_R32_UINT, {rows, 3}, {16, 4}), packed = device.create(VK_FORMAT_R32_UINT, {rows, 3});
    std::memcpy(strided.data, src.data, static_cast<size_t>(rows * 16));
    const Summary strided_summary = time_ms(o.reps, [&] { copy_tensor(strided, packed); });
    const double strided_ms = strided_summary.median;
    figures.add("strided copy, " + std::to_string(rows) + " rows of 12 bytes", "vkCmdCopyTensorARM (compute copy)", "ms per copy",
                strided_summary);
    for (int64_t r = 0; r < rows; r += 997) require(std::memcmp(packed.data + r * 12, strided.data + r * 16, 12) == 0, "strided copy");
    const double strided_gb = rows * 12 / 1e9;
    std::printf("| strided (12-byte rows 16 bytes apart), %lld rows | %.3f | %.2f | | |\n\n", static_cast<long long>(rows), strided_ms,
                strided_gb / (strided_ms / 1e3));
}

void run(const Options& options) {
    TensorDevice device;
    Figures figures("VK_ARM_tensors", options.driver);
    kernels(device, options, figures);
    copies(device, options, figures);
    if (!options.json.empty()) figures.write(options.json);
}

}  // namespace
}  // namespace vkpolyfill::bench

int main(int argc, char** argv) {
    using namespace vkpolyfill::bench;
    return tool_main<Options>("vkpolyfill_tensor_bench", kUsage, argc, argv, parse, run);
}
