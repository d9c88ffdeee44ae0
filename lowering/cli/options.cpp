#include "options.h"

#include <charconv>
#include <cstring>
#include <format>
#include <limits>
#include <string_view>

namespace vkpolyfill::cli {
namespace {

constexpr uint32_t vulkan(uint32_t minor) { return (1u << 22) | (minor << 12); }

struct Preset {
    std::string_view name;
    uint32_t vulkan_version;
    uint32_t spirv_version;
    uint32_t subgroup_size;  // 0: the device family is unknown, --subgroup-size says
    uint32_t shared_memory;  // the version's guaranteed minimum, or the device's
    bool simd_lane_invocations;  // a CPU driver whose invocations are SIMD lanes
    bool subgroup_shuffles;      // compute shaders have the shuffle and ballot subgroup operations
};

constexpr Preset kPresets[] = {
    {"lavapipe", vulkan(4), 0x00010600, 8, 32768, true, true},
    {"vulkan1.4", vulkan(4), 0x00010600, 0, 16384, false, false},
    {"vulkan1.3", vulkan(3), 0x00010600, 0, 16384, false, false},
    {"vulkan1.2", vulkan(2), 0x00010500, 0, 16384, false, false},
};

struct SetName {
    std::string_view name;
    lowering::Emulated set;
};

// Named after the SPIR-V extension each set lowers.
constexpr SetName kSets[] = {
    {"SPV_KHR_cooperative_matrix", lowering::Emulated::KhrCooperativeMatrix},
    {"SPV_NV_cooperative_matrix2", lowering::Emulated::NvCooperativeMatrix2},
    {"SPV_NV_tensor_addressing", lowering::Emulated::NvTensorAddressing},
    {"SPV_NV_cooperative_matrix_decode_vector", lowering::Emulated::NvCooperativeMatrixDecodeVector},
    {"SPV_ARM_tensors", lowering::Emulated::ArmTensors},
    {"SPV_EXT_shader_tile_image", lowering::Emulated::ExtShaderTileImage},
    {"SPV_INTEL_long_composites", lowering::Emulated::IntelLongComposites},
    // Not an extension: f16 arithmetic in f32, for a device without shaderFloat16 (not in "all").
    {"Float16", lowering::Emulated::Float16},
};

lowering::EmulatedSet every_set() {
    lowering::EmulatedSet all = 0;
    for (const SetName& s : kSets) all |= lowering::bit(s.set);
    all &= ~lowering::bit(lowering::Emulated::Float16);
    return all;
}

lowering::Target target_of(const Preset& preset) {
    lowering::Target target;
    target.vulkan_version = preset.vulkan_version;
    target.spirv_version = preset.spirv_version;
    target.subgroup_size = preset.subgroup_size;
    target.max_shared_memory_bytes = preset.shared_memory;
    target.simd_lane_invocations = preset.simd_lane_invocations;
    target.subgroup_shuffles = preset.subgroup_shuffles;
    target.emulate = every_set();
    return target;
}

template <typename T>
bool parse_number(std::string_view text, T& value) {
    int base = 10;
    if (text.starts_with("0x") || text.starts_with("0X")) {
        text.remove_prefix(2);
        base = 16;
    }
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

// A count option's value, or nullopt with `error` saying what the option expects.
std::optional<uint32_t> count_of(std::string_view option, std::string_view text, std::string_view unit, std::string& error) {
    uint32_t value = 0;
    if (parse_number(text, value)) return value;
    error = std::format("{} expects a number of {}, not '{}'", option, unit, text);
    return std::nullopt;
}

std::vector<uint8_t> bytes_of(const auto& value) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(&value);
    return {bytes, bytes + sizeof(value)};
}

// true/false (a 4-byte VkBool32), an integer (4 bytes, or 8 when it does not fit in 32 bits), or a
// float (4 bytes): the bytes a VkSpecializationInfo would carry for the constant.
std::optional<std::vector<uint8_t>> spec_value_bytes(std::string_view text) {
    if (text == "true" || text == "false") return bytes_of(static_cast<uint32_t>(text == "true"));
    int64_t signed_value = 0;
    uint64_t unsigned_value = 0;
    if (parse_number(text, signed_value)) {
        if (signed_value >= std::numeric_limits<int32_t>::min() && signed_value <= std::numeric_limits<uint32_t>::max()) {
            return bytes_of(static_cast<uint32_t>(signed_value));
        }
        return bytes_of(signed_value);
    }
    if (parse_number(text, unsigned_value)) return bytes_of(unsigned_value);
    float float_value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), float_value);
    if (error == std::errc() && end == text.data() + text.size() && !text.empty()) return bytes_of(float_value);
    return std::nullopt;
}

// MxNxK:A,B,C,R with VkComponentTypeKHR's types by lowering::to_string's names (float16, float32, ...).
bool parse_native_matrix(std::string_view text, std::vector<lowering::CooperativeMatrixConfiguration>& units, std::string& error) {
    lowering::CooperativeMatrixConfiguration unit{};
    const auto fail = [&] {
        error = std::format("--native-matrix expects MxNxK:A,B,C,R (e.g. 16x16x16:float16,float16,float32,float32), not '{}'", text);
        return false;
    };
    const size_t colon = text.find(':');
    if (colon == std::string_view::npos) return fail();
    std::string_view shape = text.substr(0, colon), types = text.substr(colon + 1);
    for (uint32_t* size : {&unit.m, &unit.n, &unit.k}) {
        const size_t end = std::min(shape.find('x'), shape.size());
        if (!parse_number(shape.substr(0, end), *size) || *size == 0) return fail();
        shape.remove_prefix(std::min(end + 1, shape.size()));
    }
    for (lowering::ComponentType* type : {&unit.a, &unit.b, &unit.c, &unit.result}) {
        const size_t end = std::min(types.find(','), types.size());
        bool known = false;
        for (uint32_t t = 0; t <= static_cast<uint32_t>(lowering::ComponentType::UInt32) && !known; ++t) {
            *type = static_cast<lowering::ComponentType>(t);
            known = lowering::to_string(*type) == types.substr(0, end);
        }
        if (!known) return fail();
        types.remove_prefix(std::min(end + 1, types.size()));
    }
    if (!shape.empty() || !types.empty()) return fail();
    units.push_back(unit);
    return true;
}

bool parse_spec_constant(std::string_view text, std::vector<lowering::SpecializationValue>& values, std::string& error) {
    const size_t equals = text.find('=');
    uint32_t id = 0;
    std::optional<std::vector<uint8_t>> bytes;
    if (equals != std::string_view::npos && parse_number(text.substr(0, equals), id)) bytes = spec_value_bytes(text.substr(equals + 1));
    if (!bytes) {
        error = std::format("--spec-const expects ID=VALUE (VALUE an integer, a float, true or false), not '{}'", text);
        return false;
    }
    values.push_back({id, std::move(*bytes)});
    return true;
}

bool parse_sets(std::string_view text, lowering::EmulatedSet& sets, std::string& error) {
    sets = 0;
    while (!text.empty()) {
        const size_t comma = text.find(',');
        const std::string_view name = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
        if (name == "all") {
            sets |= every_set();
            continue;
        }
        bool known = false;
        for (const SetName& s : kSets) {
            if (s.name == name) {
                sets |= lowering::bit(s.set);
                known = true;
            }
        }
        if (!known) {
            error = std::format("--emulate: unknown set '{}' (see --help)", name);
            return false;
        }
    }
    return true;
}

// The option's value: "--name=value" or "--name value".
std::optional<std::string_view> value_of(std::string_view name, int argc, const char* const* argv, int& i) {
    const std::string_view arg = argv[i];
    if (arg.size() > name.size() && arg.starts_with(name) && arg[name.size()] == '=') return arg.substr(name.size() + 1);
    if (arg != name || i + 1 >= argc) return std::nullopt;
    return std::string_view(argv[++i]);
}

}  // namespace

std::optional<Options> parse_options(int argc, const char* const* argv, std::string& error) {
    Options options;
    options.target = target_of(kPresets[2]);  // vulkan1.3
    std::optional<uint32_t> subgroup_size, shared_memory, unroll_up_to;
    std::optional<bool> scalar_uniform_loads, distributed_matrices, subgroup_shuffles;
    std::optional<lowering::EmulatedSet> sets;
    std::vector<lowering::CooperativeMatrixConfiguration> native_matrices;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto option = [&](std::string_view name) -> std::optional<std::string_view> {
            if (!arg.starts_with(name)) return std::nullopt;
            if (auto value = value_of(name, argc, argv, i)) return value;
            if (arg == name) error = std::format("{} needs a value", name);
            return std::nullopt;
        };
        if (arg == "-h" || arg == "--help") {
            options.help = true;
        } else if (arg == "--validate") {
            options.validate = true;
        } else if (auto out = option("-o")) {
            options.output = *out;
        } else if (auto name = option("--target")) {
            const Preset* preset = nullptr;
            for (const Preset& p : kPresets) preset = p.name == *name ? &p : preset;
            if (preset == nullptr) {
                error = std::format("--target: unknown target '{}' (lavapipe, vulkan1.4, vulkan1.3, vulkan1.2)", *name);
                return std::nullopt;
            }
            options.target = target_of(*preset);
        } else if (auto size = option("--subgroup-size")) {
            uint32_t value = 0;
            if (!parse_number(*size, value) || value == 0 || (value & (value - 1)) != 0) {
                error = std::format("--subgroup-size expects a power of two, not '{}'", *size);
                return std::nullopt;
            }
            subgroup_size = value;
        } else if (auto bytes = option("--shared-memory")) {
            if (!(shared_memory = count_of("--shared-memory", *bytes, "bytes", error))) return std::nullopt;
        } else if (auto count = option("--unroll-up-to")) {
            if (!(unroll_up_to = count_of("--unroll-up-to", *count, "components", error))) return std::nullopt;
        } else if (auto loads = option("--uniform-loads")) {
            if (*loads != "scalar" && *loads != "per-invocation") {
                error = std::format("--uniform-loads expects scalar or per-invocation, not '{}'", *loads);
                return std::nullopt;
            }
            scalar_uniform_loads = *loads == "scalar";
        } else if (auto layout = option("--matrix-layout")) {
            if (*layout != "replicated" && *layout != "distributed") {
                error = std::format("--matrix-layout expects replicated or distributed, not '{}'", *layout);
                return std::nullopt;
            }
            distributed_matrices = *layout == "distributed";
        } else if (auto shuffles = option("--subgroup-shuffles")) {
            if (*shuffles != "yes" && *shuffles != "no") {
                error = std::format("--subgroup-shuffles expects yes or no, not '{}'", *shuffles);
                return std::nullopt;
            }
            subgroup_shuffles = *shuffles == "yes";
        } else if (auto names = option("--emulate")) {
            lowering::EmulatedSet value = 0;
            if (!parse_sets(*names, value, error)) return std::nullopt;
            sets = value;
        } else if (auto configuration = option("--native-matrix")) {
            if (!parse_native_matrix(*configuration, native_matrices, error)) return std::nullopt;
        } else if (arg == "--distributed-a-from-shared-memory") {
            options.target.distributed_a_from_shared_memory = true;
        } else if (arg == "--whole-b-rows") {
            options.target.split_b_rows = false;
        } else if (auto narrow = option("--long-narrow-loads")) {
            if (*narrow == "elements") options.target.long_narrow_loads = lowering::LongNarrowLoads::Elements;
            else if (*narrow == "words") options.target.long_narrow_loads = lowering::LongNarrowLoads::Words;
            else if (*narrow == "rolled-words") options.target.long_narrow_loads = lowering::LongNarrowLoads::RolledWords;
            else {
                error = std::format("--long-narrow-loads expects elements, words or rolled-words, not '{}'", *narrow);
                return std::nullopt;
            }
        } else if (arg == "--chunked-element-loops") {
            options.target.chunked_element_loops = true;
        } else if (arg == "--shader-int16") {
            options.target.shader_int16 = true;
        } else if (arg == "--multiply-on-native") {
            options.target.multiply_on_native_matrices = lowering::NativeMultiplyAdds::All;
        } else if (arg == "--multiply-kept-on-native") {
            options.target.multiply_on_native_matrices = lowering::NativeMultiplyAdds::KeptAccumulators;
        } else if (auto spec = option("--spec-const")) {
            if (!parse_spec_constant(*spec, options.specialization, error)) return std::nullopt;
        } else if (!error.empty()) {
            return std::nullopt;
        } else if (arg.size() > 1 && arg.starts_with('-')) {
            error = std::format("unknown option '{}' (see --help)", arg);
            return std::nullopt;
        } else if (!options.input.empty()) {
            error = std::format("more than one input file ('{}' and '{}')", options.input, arg);
            return std::nullopt;
        } else {
            options.input = arg;
        }
        if (!error.empty()) return std::nullopt;
    }
    if (options.help) return options;
    // Overrides apply to whichever preset was chosen, wherever they stand on the command line.
    if (subgroup_size) options.target.subgroup_size = *subgroup_size;
    if (shared_memory) options.target.max_shared_memory_bytes = *shared_memory;
    if (unroll_up_to) options.target.unroll_up_to = *unroll_up_to;
    if (scalar_uniform_loads) options.target.scalar_uniform_loads = *scalar_uniform_loads;
    if (subgroup_shuffles) options.target.subgroup_shuffles = *subgroup_shuffles;
    if (distributed_matrices) {
        options.target.distributed_matrices = *distributed_matrices;
        // The distributed multiply-add shuffles: shuffles unless said otherwise.
        if (!subgroup_shuffles) options.target.subgroup_shuffles |= *distributed_matrices;
    }
    if (sets) options.target.emulate = *sets;
    if (!native_matrices.empty()) {  // the device's own KHR cooperative matrices: not lowered as such
        options.target.native_matrices = std::move(native_matrices);
        options.target.native |= lowering::bit(lowering::Emulated::KhrCooperativeMatrix);
        options.target.emulate &= ~lowering::bit(lowering::Emulated::KhrCooperativeMatrix);
    }
    if (options.input.empty()) {
        error = "no input file (give a .spv file, or - for standard input)";
    } else if (options.output.empty()) {
        error = "no output file (give -o FILE, or -o - for standard output)";
    }
    return error.empty() ? std::optional(std::move(options)) : std::nullopt;
}

std::string usage(const char* program) {
    std::string sets;
    for (const SetName& s : kSets) sets += std::format("                        {}\n", s.name);
    return std::format(R"({0} - lower SPIR-V that uses extensions a driver lacks into core SPIR-V

Usage: {0} [options] <input.spv | -> -o <output.spv | ->

The input is a SPIR-V binary (- reads standard input); the lowered binary goes to the -o file
(- writes standard output). A module that uses none of the emulated sets comes out unchanged.

Options:
  -o FILE               Where the lowered module goes (- for standard output).
  --target NAME         The device to lower for (default vulkan1.3):
                          lavapipe   Vulkan 1.4, SPIR-V 1.6, subgroup size 8, 32768 bytes of shared memory,
                                     invocations as SIMD lanes (narrow loads read 32 bits at a time,
                                     barriers keep a workgroup's subgroups in step over banded MulAdds),
                                     scalar uniform loads (lavapipe 26; 25 needs --uniform-loads per-invocation),
                                     subgroup shuffles and broadcasts (subgroup-scope row reductions and
                                     accumulator-to-A conversions move values between lanes without shared memory)
                          vulkan1.4  Vulkan 1.4, SPIR-V 1.6, 16384 bytes of shared memory
                          vulkan1.3  Vulkan 1.3, SPIR-V 1.6, 16384 bytes of shared memory
                          vulkan1.2  Vulkan 1.2, SPIR-V 1.5, 16384 bytes of shared memory
                        The vulkan* targets leave the subgroup size open: lowerings that depend on it
                        (cooperative matrices) need --subgroup-size.
  --subgroup-size N     The subgroup size the pipeline will run at (a power of two).
  --shared-memory BYTES maxComputeSharedMemorySize of the device.
  --uniform-loads KIND  How the device loads a value every invocation of a subgroup reads from one
                        address: scalar (once per subgroup, the default: GPUs, lavapipe 26) or
                        per-invocation (lavapipe 25). Per invocation, workgroup-scope A and B are
                        striped over the workgroup and staged through shared memory.
  --matrix-layout KIND  How subgroup-scope A matrices are held: replicated (every invocation holds the
                        whole matrix, the default: lavapipe) or distributed (each holds a share of the
                        rows, shuffled to where a multiply-add needs them: GPUs; implies subgroup
                        shuffles unless --subgroup-shuffles no, and the module must be SPIR-V 1.3 or
                        later to use them).
  --distributed-a-from-shared-memory
                        A distributed A reaches the invocations multiplying with it through the
                        subgroup's shared memory instead of a shuffle per product (the layer's choice
                        on AMD's GPUs).
  --whole-b-rows        In the distributed layout every invocation holds all of B's K rows, instead
                        of its row group's share shuffled to where a multiply-add needs them (the
                        layer's choice on Honeykrisp).
  --long-narrow-loads elements|words|rolled-words
                        How tensor loads of more than 32 narrow components an invocation iterate:
                        an element at a time (the layer's choice on lavapipe 25), a 32-bit word at
                        a time (the default), or a word at a time in a loop kept rolled (NVK).
  --chunked-element-loops
                        Other tensor loads and stores of more than 32 components an invocation, or
                        of 8- or 16-bit ones, take several an iteration (at least a 32-bit word's
                        worth), in a loop of at most 32 that the driver unrolls (NVK).
  --subgroup-shuffles yes|no
                        Whether compute shaders have the subgroup shuffle and ballot operations
                        (default: yes for lavapipe, no for the vulkan* targets; a GPU has them). With
                        them, subgroup-scope row reductions and accumulator-to-A conversions move
                        values between invocations without shared memory.
  --native-matrix MxNxK:A,B,C,R
                        A subgroup-scope KHR cooperative-matrix configuration the device has itself
                        (repeatable; types float16, float32, bfloat16, sint8, ...). With any, the
                        device runs SPV_KHR_cooperative_matrix: a module declaring only that is
                        lowered only where it uses coopmat2 (workgroup scope, or a matrix none of
                        these configurations offers) and SPV_NV_cooperative_matrix2 is lowered.
  --multiply-on-native  Workgroup-scope multiply-adds whose types a --native-matrix configuration fits
                        run on it, staged through shared memory; the module keeps
                        SPV_KHR_cooperative_matrix for them.
  --multiply-kept-on-native
                        Only those whose accumulator stays in the configuration's tiles (converted or
                        stored otherwise; the layer's choice on NVIDIA's drivers).
  --unroll-up-to N      Per-element code is written out for up to N components an invocation holds,
                        a loop beyond (default 512; 0 makes every such repetition a loop).
  --emulate SET[,SET]   The sets to lower (default all); the module's use of the others is kept:
{1}                        all (every set above but Float16: f16 arithmetic done in f32, for a device
                        without shaderFloat16, is lowered only when named)
  --shader-int16        The device has 16-bit integers (shaderInt16): with Float16 emulated, f16 data
                        in plain workgroup memory keeps its 16 bits (as integers) instead of widening
                        to f32.
  --spec-const ID=VALUE The value of specialization constant ID (repeatable): an integer (4 bytes,
                        8 if it needs them), a float (4 bytes), true or false. Constants that shape
                        what is lowered are frozen to these values (or their defaults); the others
                        stay specializable.
  --validate            Run spirv-val on the lowered module; a module it rejects is an error.
  -h, --help            Print this help.

Messages go to standard error as '<input>: error: ...'. The exit code is 0 on success and 1 on any
error (nothing is written then).
)",
                       program, sets);
}

}  // namespace vkpolyfill::cli
