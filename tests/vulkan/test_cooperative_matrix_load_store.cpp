// OpCooperativeMatrixLoadKHR / StoreKHR round trips, VK-GL-CTS style: every matrix type of the
// covered configurations (each use), each storage class (StorageBuffer, Workgroup arrays,
// PhysicalStorageBuffer), pointee types wider than the component type (f16 through f16vec2 / uint /
// uvec4, int8 through uint / uvec4, f32 and u32 through uvec4), narrower (f16, f32 and u32 through
// uint8_t, f32 through uint16_t: a component spans several array elements) and of the same width
// (f16 through uint16_t, int8 through uint8_t: the bits reinterpreted), and within each case
// every pair of load and store layouts with tight, padded and zero (broadcast) load strides at
// non-zero offsets.
// The whole target buffer is compared, so stray writes into padding show too.
//
// A round trip cannot see a layout that loads and stores consistently transposed; the MulAdd cases
// (test_cooperative_matrix_muladd.cpp) can, since a product depends on orientation.
#include <algorithm>

#include "coopmat_cases.h"
#include "coopmat_matrix.h"

namespace vkpolyfill::test::coopmat {
namespace {

struct Pointee {
    Component element;
    const char* glsl;  // the array's element type in the shader
    uint32_t bytes;
    bool reinterpreted = false;  // another type of the component's width

    bool scalar() const { return bytes == component_bytes(element) && !reinterpreted; }
    // Components in one pointee, and pointees in one component: one of them is 1.
    uint32_t per_pointee() const { return std::max(1u, bytes / component_bytes(element)); }
    uint32_t span() const { return std::max(1u, component_bytes(element) / bytes); }
    std::string shader() const {
        return "tests/coopmat/load_store_" + std::string(short_name(element)) + "_" +
               (scalar() ? std::string(short_name(element)) : std::string(glsl)) + ".comp";
    }
};

constexpr Pointee kPointees[] = {
    {VK_COMPONENT_TYPE_FLOAT16_KHR, "float16_t", 2}, {VK_COMPONENT_TYPE_FLOAT16_KHR, "f16vec2", 4},
    {VK_COMPONENT_TYPE_FLOAT16_KHR, "uint", 4},      {VK_COMPONENT_TYPE_FLOAT16_KHR, "uvec4", 16},
    {VK_COMPONENT_TYPE_FLOAT32_KHR, "float", 4},     {VK_COMPONENT_TYPE_FLOAT32_KHR, "uvec4", 16},
    {VK_COMPONENT_TYPE_SINT8_KHR, "int8_t", 1},      {VK_COMPONENT_TYPE_SINT8_KHR, "uint", 4},
    {VK_COMPONENT_TYPE_UINT8_KHR, "uint8_t", 1},     {VK_COMPONENT_TYPE_UINT8_KHR, "uint", 4},
    {VK_COMPONENT_TYPE_UINT8_KHR, "uvec4", 16},      {VK_COMPONENT_TYPE_SINT32_KHR, "int", 4},
    {VK_COMPONENT_TYPE_UINT32_KHR, "uint", 4},       {VK_COMPONENT_TYPE_UINT32_KHR, "uvec4", 16},
    {VK_COMPONENT_TYPE_FLOAT16_KHR, "uint8_t", 1},   {VK_COMPONENT_TYPE_FLOAT32_KHR, "uint8_t", 1},
    {VK_COMPONENT_TYPE_FLOAT32_KHR, "uint16_t", 2},  {VK_COMPONENT_TYPE_UINT32_KHR, "uint8_t", 1},
    {VK_COMPONENT_TYPE_FLOAT16_KHR, "uint16_t", 2, true}, {VK_COMPONENT_TYPE_SINT8_KHR, "uint8_t", 1, true},
};

struct Push {
    VkDeviceAddress source, target;
    uint32_t load_offset, load_stride, store_offset, store_stride;
    uint32_t source_count, target_count;
};

struct Strides {
    const char* name;
    uint32_t load_extra;  // pointees past the tight stride; kZero loads with stride 0
    uint32_t store_extra;
};
constexpr uint32_t kZero = ~0u;
constexpr Strides kStrides[] = {{"tight", 0, 0}, {"padded", 3, 2}, {"stride0", kZero, 1}};
constexpr uint32_t kLoadOffset = 1, kStoreOffset = 2;  // pointees

// One load/store layout pair of a case: where the matrix is read and written, in pointees and in
// elements, for each stride variant. Offsets and extra strides count whole components (a narrower
// pointee's `span` of them), so the expected matrix is indexed by component.
struct Placement {
    uint32_t load_offset, store_offset;   // pointees
    uint32_t load_stride, store_stride;   // pointees
    MemoryLayout load, store;             // elements
    uint32_t source_count, target_count;  // pointees
};

Placement place(const MatrixType& m, const Pointee& p, bool load_columns, bool store_columns, const Strides& s) {
    const uint32_t per_pointee = p.per_pointee(), span = p.span();
    const auto in_elements = [&](uint32_t pointees) { return pointees * per_pointee / span; };
    const auto in_pointees = [&](size_t elements) { return static_cast<uint32_t>(elements * span / per_pointee); };
    const uint32_t load_tight = in_pointees(load_columns ? m.rows : m.cols);
    const uint32_t store_tight = in_pointees(store_columns ? m.rows : m.cols);
    Placement placed;
    placed.load_offset = kLoadOffset * span;
    placed.store_offset = kStoreOffset * span;
    placed.load_stride = s.load_extra == kZero ? 0 : load_tight + s.load_extra * span;
    placed.store_stride = store_tight + s.store_extra * span;
    placed.load = {m.rows, m.cols, load_columns, in_elements(placed.load_stride), in_elements(placed.load_offset)};
    placed.store = {m.rows, m.cols, store_columns, in_elements(placed.store_stride), in_elements(placed.store_offset)};
    placed.source_count = in_pointees(placed.load.end()) + span;
    placed.target_count = in_pointees(placed.store.end()) + span;
    return placed;
}

Observation run_round_trips(CoopmatDevice& device, const MatrixType& m, const Pointee& p, Storage storage) {
    const uint32_t per_pointee = p.per_pointee(), span = p.span();
    Observation observation;
    for (const bool load_columns : {false, true}) {
        for (const bool store_columns : {false, true}) {
            uint32_t shared_pointees = 1;
            for (const Strides& s : kStrides) {
                const Placement placed = place(m, p, load_columns, store_columns, s);
                shared_pointees = std::max({shared_pointees, placed.source_count, placed.target_count});
            }
            const ComputePipeline pipeline = device.pipeline(
                {.shader = p.shader(),
                 .constants = {device.subgroup_size(), m.rows, m.cols, static_cast<uint32_t>(m.use), layout_constant(load_columns),
                  layout_constant(store_columns), static_cast<uint32_t>(storage),
                  storage == Storage::Workgroup ? shared_pointees : 1},
                 .buffers = 2,
                 .push_constant_bytes = sizeof(Push)});
            for (const Strides& s : kStrides) {
                const Placement placed = place(m, p, load_columns, store_columns, s);
                const std::vector<std::byte> source_data = patterned(m.type, placed.source_count * per_pointee / span, 1);
                const std::vector<std::byte> target_data = patterned(m.type, placed.target_count * per_pointee / span, 7);
                Buffer source = device.buffer(source_data.size());
                Buffer target = device.buffer(target_data.size());
                std::ranges::copy(source_data, static_cast<std::byte*>(source.mapped));
                std::ranges::copy(target_data, static_cast<std::byte*>(target.mapped));
                const Push push{device.address(source), device.address(target), placed.load_offset, placed.load_stride,
                                placed.store_offset, placed.store_stride, placed.source_count, placed.target_count};
                const Buffer* buffers[] = {&source, &target};
                device.dispatch(pipeline, buffers, std::as_bytes(std::span(&push, 1)), 1);

                Output output{std::string(layout_name(load_columns)) + " load, " + std::string(layout_name(store_columns)) +
                                  " store, " + s.name + " (load stride " + std::to_string(placed.load_stride) +
                                  ", store stride " + std::to_string(placed.store_stride) + " " + p.glsl + ")",
                              m.type, bytes_of(target.mapped, target.size), target_data, {}, {},
                              [store = placed.store](size_t i) { return store.where(i); }};
                for (uint32_t r = 0; r < m.rows; ++r) {
                    for (uint32_t c = 0; c < m.cols; ++c) {
                        write_value(output.expected, m.type, placed.store.index(r, c),
                                    element(source_data, m.type, placed.load, r, c));
                    }
                }
                observation.outputs.push_back(std::move(output));
            }
        }
    }
    return observation;
}

// A pointee fits a matrix when each row and each column fills whole pointees (a narrower one always does).
bool fits(const MatrixType& m, const Pointee& p) {
    const uint32_t line_bytes = std::min(m.rows, m.cols) * component_bytes(m.type);
    return line_bytes % p.bytes == 0 && (std::max(m.rows, m.cols) * component_bytes(m.type)) % p.bytes == 0;
}

std::vector<Case> make_cases() {
    std::vector<Case> cases;
    // Component-typed arrays on every matrix type, wider pointees on a few shapes.
    const std::vector<MatrixType> all = covered_matrix_types(), few = representatives(all);
    for (const Pointee& p : kPointees) {
        for (const MatrixType& m : p.scalar() ? all : few) {
            if (m.type != p.element || !fits(m, p)) continue;
            for (Storage storage : kStorages) {
                cases.push_back({"LoadStore",
                                 std::string(component_name(m.type)) + "/" + matrix_name(m) + "_" +
                                     std::string(storage_name(storage)) + "_" + p.glsl,
                                 {std::nullopt, {m}},
                                 [m, p, storage](CoopmatDevice& device) { return run_round_trips(device, m, p, storage); }});
            }
        }
    }
    return cases;
}

const bool registered = register_cases(make_cases);

}  // namespace
}  // namespace vkpolyfill::test::coopmat
