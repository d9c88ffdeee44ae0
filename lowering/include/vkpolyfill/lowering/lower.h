// The lowering library's one entry point: SPIR-V words + a Target -> SPIR-V words + diagnostics.
// No Vulkan calls live behind this header; the layer fills the Target from device facts.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "vkpolyfill/lowering/cooperative_matrix.h"

namespace vkpolyfill::lowering {

// Capabilities the library can emulate, each one pass. The layer sets `Target::native` from what the
// driver has, and `Target::emulate` from what it advertises on the driver's behalf.
enum class Emulated : uint32_t {
    KhrCooperativeMatrix = 1u << 0,
    NvCooperativeMatrix2 = 1u << 1,
    NvTensorAddressing = 1u << 2,
    ArmTensors = 1u << 3,
    ExtShaderTileImage = 1u << 4,
    IntelLongComposites = 1u << 5,
    NvCooperativeMatrixDecodeVector = 1u << 6,
    // The Float16 capability (shaderFloat16) on a device with 16-bit storage but no f16 arithmetic.
    Float16 = 1u << 7,
};
using EmulatedSet = uint32_t;
constexpr EmulatedSet bit(Emulated e) { return static_cast<EmulatedSet>(e); }

// Where lowered SPV_EXT_shader_tile_image reads find their attachments (tile_image.h): input
// attachments in the layer's descriptor set, color location L as element L of an array at binding 0
// (`depth_binding` elements long: the color locations the set has), depth and stencil at
// `depth_binding` and the binding after it, multisampled when the pipeline rasterizes `samples` > 1.
struct TileImageTarget {
    uint32_t descriptor_set = 0;
    uint32_t depth_binding = 8;  // also the number of color locations; a tile image at or past it is reported
    uint32_t samples = 1;
    // The color locations the pipeline has an attachment at (bit L for location L; locations from 32
    // on count as present). A tile image of another location reads zeros (the extension leaves its
    // value undefined) and becomes no input attachment, whose index would lie outside the pipeline's
    // attachments (VUID-VkGraphicsPipelineCreateInfo-renderPass-09652).
    uint32_t color_locations = ~0u;
    // Whether the device indexes input-attachment arrays at run time
    // (shaderInputAttachmentArrayDynamicIndexing). Without, a tile-image array indexed at run time is
    // read at each of its elements with a constant index and the index selects the texel.
    bool dynamic_indexing = true;
    // Coherent color reads ordered by fragment shader interlock (a device without rasterization-order
    // attachment access): the colors the shader reads become storage images at `depth_binding` + 2
    // (element L for location L, read at the fragment's pixel) and the shader, inside a pixel-ordered
    // critical section around the whole entry point, writes its outputs of those locations there
    // itself, to each sample it covers after the early tests (the layer masks the attachments' own
    // writes; tile_image.h's interlock_obstacle says which shaders can).
    bool interlock = false;
};

// How a tensor load of more narrow (8- or 16-bit) components an invocation than Mesa's drivers
// unroll (32) goes through them (passes/cooperative_matrix/tensor_memory.cpp).
enum class LongNarrowLoads : uint8_t {
    // An element an iteration. Lavapipe 25: ggml's f16 GEMM ran slower by words.
    Elements,
    // A 32-bit word's worth an iteration, written whole into an array of words: where the loop stays
    // rolled that array is in local memory, and NAK read, merged and wrote back the word for every
    // f16 of llama.cpp's flash-attention K and V. Lavapipe 26 ran ggml's f16 GEMM and flash attention
    // faster so.
    Words,
    // Words, the loop asking to stay rolled (DontUnroll): NAK unrolled the halved loops and spilled
    // 27 registers on the RTX 2080 (llama.cpp's flash attention at head 128). RADV unrolls such loops
    // at any length and holds them; asked to keep them rolled, the RX 6800 took 26% more cycles.
    RolledWords,
};

// Which workgroup-scope multiply-adds run on the driver's own cooperative matrices
// (passes/cooperative_matrix/matrix_units.h, resident_accumulators.h).
enum class NativeMultiplyAdds : uint8_t {
    None,
    // Those whose accumulator stays in the driver's tiles from one multiply-add to the next and goes
    // through nothing but conversions and stores otherwise (a GEMM's sum over K): where the units pay
    // for staging A and B (measured: NVK's f16 and q4_0 GEMMs). Accumulators that leave the tiles for
    // per-element work at every step (flash attention's) stay on plain code.
    KeptAccumulators,
    // Every one a configuration of the driver's fits, C staged around it where it cannot stay in tiles.
    All,
};

// What the lowered code may rely on: facts about the device and the pipeline stage.
struct Target {
    uint32_t spirv_version = 0x00010600;  // highest SPIR-V version the device consumes
    uint32_t vulkan_version = (1u << 22) | (3u << 12);  // VK_MAKE_API_VERSION(0, 1, 3, 0)
    uint32_t subgroup_size = 0;            // fixed subgroup size, 0 when unknown
    uint32_t max_shared_memory_bytes = 0;  // maxComputeSharedMemorySize
    // The most shared memory the lowering may take for itself (what the layer reports as
    // cooperativeMatrixWorkgroupScopeReservedSharedMemory); 0: only the device limit applies.
    uint32_t reserved_shared_memory_bytes = 0;
    EmulatedSet emulate = 0;  // capabilities the layer advertises on the driver's behalf
    // The module may declare 16-bit integers (shaderInt16, enabled on the device). Where f16
    // arithmetic is emulated (Emulated::Float16), f16 data in plain workgroup memory is then held as
    // its 16 bits rather than widened to f32, so it takes the shared memory the module and the
    // lowering's staging were sized for (passes/float16/widened_types.h).
    bool shader_int16 = false;
    // Invocations are SIMD lanes of a CPU thread (lavapipe): there a load whose address differs per
    // invocation is a gather, emulated lane by lane for 8- and 16-bit data, so the lowering reads
    // narrow data 32 bits at a time where it can; and the subgroups of a workgroup run one after
    // another from barrier to barrier, so a workgroup-scope multiply-add whose operands sit in the
    // subgroups' bands ends with a barrier that keeps them in step (passes/cooperative_matrix/multiply_add.cpp).
    bool simd_lane_invocations = false;
    // A load that every invocation of a subgroup makes from one address is done once for the subgroup
    // (GPUs: scalar or uniform loads; lavapipe 26: its uniform-load path). false where each invocation
    // loads it again (lavapipe 25): there workgroup-scope A and B are striped over the workgroup and
    // staged through shared memory, each element read once per workgroup, rather than copied into the
    // bands of every subgroup that needs them (passes/cooperative_matrix/matrix_types.h).
    bool scalar_uniform_loads = true;
    // The selection constructs of a module's own entry-point code are marked DontFlatten where it
    // gives no control (the cooperative-matrix pass does it to the modules it lowers), so that the
    // driver branches on them rather than folding them into selects (NIR's peephole select honours
    // the hint). Lavapipe 25: llama.cpp's coopmat2 GEMMs, whose prologue tests the tile's alignment in
    // a chain of short-circuit ifs before taking one of its K loops, ran 2x faster through the layer
    // with the chain kept (f16 and q4_0, ggml's test-backend-ops perf); the driver's reason was not
    // traced. Lavapipe 26 ran them alike either way.
    bool unflattened_selections = false;
    // Compute shaders have the subgroup shuffle and ballot operations (VkPhysicalDeviceSubgroupProperties)
    // and the module may use them (SPIR-V 1.3 on): subgroup-scope row reductions and accumulator-to-A
    // conversions then move values between invocations with shuffles and broadcasts instead of
    // through shared memory and barriers (passes/cooperative_matrix/relayout.cpp).
    bool subgroup_shuffles = false;
    // Subgroup-scope A matrices are distributed over the subgroup (each invocation holds M / S of
    // their rows; a multiply-add shuffles A's values where they are needed) rather than replicated in
    // every invocation (passes/cooperative_matrix/lane_layout.h). GPUs need it: an invocation has about
    // 255 32-bit registers, and a whole 16x16 A (256 components) spills on every GPU compiler.
    // Lavapipe, whose invocations are SIMD lanes of a CPU thread, runs the replicated A faster. Takes
    // effect where the shuffles can be used (subgroup_shuffles, a module of SPIR-V 1.3 on).
    bool distributed_matrices = false;
    // A subgroup-scope float multiply-add with a distributed A reads A's values from the subgroup's
    // shared memory (stored there widened, once) instead of shuffling each to the invocations that
    // multiply with it (a shuffle per product). Chosen where measured faster: AMD's GPUs, whose
    // shuffles are LDS instructions (ds_bpermute) themselves, and Adreno's under Turnip, whose compiler
    // writes a shuffle out long (passes/cooperative_matrix/multiply_add.cpp).
    bool distributed_a_from_shared_memory = false;
    // In the distributed layout, where a multiply-add shuffles A's values in (not from shared memory),
    // B's K rows are split over the accumulator's row groups, each invocation holding its share, and
    // the multiply-add shuffles B's values in too (passes/cooperative_matrix/lane_layout.h). NAK then
    // held the project's 16x16x16 GEMM in registers where it spilled. Off where measured worse: AGX
    // (Honeykrisp) spilled more.
    bool split_b_rows = true;
    // Code repeated for each matrix component an invocation holds is written out component after
    // component up to this many, as a loop beyond (measured on lavapipe: passes/cooperative_matrix/
    // element_loop.h). 0 makes every such repetition a loop.
    uint32_t unroll_up_to = 512;
    LongNarrowLoads long_narrow_loads = LongNarrowLoads::Words;
    // Tensor loads and stores of more components an invocation than Mesa's drivers unroll (32), and
    // any of narrow components, other than those taken by words (long_narrow_loads), take several
    // components an iteration through an array of chunks the loop indexes by its counter, so that the
    // driver unrolls the loop and the components stay in registers. NAK kept the rolled loops' arrays
    // in local memory: llama.cpp's flash attention at head 128 loads Q (64 f32 an invocation) and,
    // with split k, stores O so; its q4_0 GEMM its 16 decoded f16 (passes/cooperative_matrix/
    // tensor_memory.cpp).
    bool chunked_element_loops = false;
    // Capabilities the driver implements itself: a pass may lower onto them (coopmat2 onto native KHR
    // coopmat); a module's use of them is left alone.
    EmulatedSet native = 0;
    // The driver's own subgroup-scope KHR cooperative-matrix configurations, where it runs the module's
    // SPV_KHR_cooperative_matrix itself (not in `emulate`). A module that declares only that extension
    // but has a matrix type none of them offers (coopmat2's flexible dimensions, often shaped by
    // specialization constants) is lowered as SPV_NV_cooperative_matrix2 where that is emulated, rather
    // than handed to a driver that lacks the shape (pass_runner.cpp).
    std::vector<CooperativeMatrixConfiguration> native_matrices;
    // Which workgroup-scope multiply-adds (SPV_NV_cooperative_matrix2) run on native_matrices: A, B and
    // C staged through shared memory and multiplied tile by tile on the driver's units
    // (passes/cooperative_matrix/matrix_units.h); the rest are lowered to plain code.
    NativeMultiplyAdds multiply_on_native_matrices = NativeMultiplyAdds::None;
    TileImageTarget tile_image{};
};

// One specialization constant's value as the application gave it (VkSpecializationMapEntry's bytes).
struct SpecializationValue {
    uint32_t spec_id = 0;
    std::vector<uint8_t> bytes;  // 1, 2, 4 or 8 bytes; a bool is a 4-byte VkBool32
};

struct Options {
    std::string module_name;  // named in diagnostics (the debug-utils name or "module 0x…")
    // The pipeline's specialization. Constants that shape what is lowered (matrix dimensions, scopes,
    // uses) are frozen to these values (or their defaults) in the output; every other specialization
    // constant stays specializable, so the same VkSpecializationInfo still applies to the output.
    std::vector<SpecializationValue> specialization;
};

struct Diagnostic {
    enum class Severity { Error, Warning, Info };
    Severity severity = Severity::Error;
    std::string message;          // says what is wrong and, when known, why
    uint32_t word_offset = ~0u;   // offset of the offending instruction in the input, ~0u if none
    std::string instruction;      // that instruction, disassembled, when there is one
};

// Diagnostics formatted on one line each: "<module>: error: <message> at word N: <instruction>".
std::string format(const Diagnostic& diagnostic, const std::string& module_name);

struct Result {
    bool ok = false;        // false: words is empty and diagnostics say why
    bool changed = false;   // false: words equals the input exactly
    std::vector<uint32_t> words;
    std::vector<Diagnostic> diagnostics;
};

// Which emulated capabilities a module uses (declared OpCapability / OpExtension), cheap enough to
// run at vkCreateShaderModule on every module. Malformed modules report 0: lower() will say why.
EmulatedSet scan_emulated_capabilities(std::span<const uint32_t> words);

// Rewrites every instruction of the capabilities in target.emulate into core SPIR-V. A module that
// uses none of them comes back unchanged (changed == false, same words). Never throws.
Result lower(std::span<const uint32_t> words, const Target& target, const Options& options);

}  // namespace vkpolyfill::lowering
