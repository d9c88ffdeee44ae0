#include "fuzz_checks.h"

#include <vector>

#include "ir/parser.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"

namespace vkpolyfill::lowering::fuzz {

namespace {

Target target_for(Pass pass) {
    Target target;
    switch (pass) {
        case Pass::KhrCooperativeMatrix:
            target.emulate = bit(Emulated::KhrCooperativeMatrix);
            target.subgroup_size = 8;
            target.simd_lane_invocations = true;
            target.max_shared_memory_bytes = 32768;
            break;
        case Pass::NvCooperativeMatrix2:
            // A GTX 1080's: f16 arithmetic emulated too (docs/float16.md).
            target.emulate = bit(Emulated::KhrCooperativeMatrix) | bit(Emulated::NvCooperativeMatrix2) |
                             bit(Emulated::NvTensorAddressing) | bit(Emulated::NvCooperativeMatrixDecodeVector) |
                             bit(Emulated::Float16);
            target.subgroup_size = 32;
            target.max_shared_memory_bytes = 49152;
            // A GPU's: reductions and conversions between lanes by shuffles, its matrix layout.
            target.subgroup_shuffles = target.distributed_matrices = true;
            break;
        case Pass::TileImage:
            target.emulate = bit(Emulated::ExtShaderTileImage);
            // Attachments at locations 0 and 2 only: the seeds' second color (location 1) and arrays of
            // two reach the code for tile images without an attachment, the first color the usual one.
            target.tile_image = {.descriptor_set = 7, .depth_binding = 8, .samples = 4, .color_locations = 0b101};
            break;
        case Pass::LongComposites:
            target.emulate = bit(Emulated::IntelLongComposites);
            break;
        case Pass::ArmTensors:
            target.emulate = bit(Emulated::ArmTensors);
            break;
        case Pass::Float16:
            target.emulate = bit(Emulated::Float16);
            target.subgroup_size = 32;
            break;
    }
    return target;
}

}  // namespace

std::string parse_problem(std::span<const uint32_t> words) {
    Diagnostics diagnostics;
    const auto module = ir::parse(words, diagnostics);
    if (!module) return diagnostics.list().size() == 1 ? "" : "a rejected module without exactly one diagnostic";
    if (!diagnostics.list().empty()) return "a parsed module with diagnostics";
    if (module->to_words() != std::vector<uint32_t>(words.begin(), words.end())) return "parse -> emit changed the words";
    return "";
}

std::string lower_problem(std::span<const uint32_t> words, Pass pass) {
    const Target target = target_for(pass);
    const Result result = lower(words, target, Options{.module_name = "fuzz", .specialization = {}});
    if (!result.ok) return result.diagnostics.empty() ? "lower() failed without a diagnostic" : "";
    Diagnostics diagnostics;
    if (!ir::parse(result.words, diagnostics)) return "the lowered module does not parse: " + diagnostics.list()[0].message;
    if (scan_emulated_capabilities(result.words) & target.emulate) return "the lowered module still declares what it emulates";
    // spirv-val runs last and only on what lowered: it costs more than the lowering.
    if (!result.changed || !validate(words, target.vulkan_version).empty()) return "";
    const std::string problem = validate(result.words, target.vulkan_version);
    return problem.empty() ? "" : "a valid module lowered into one spirv-val rejects: " + problem;
}

}  // namespace vkpolyfill::lowering::fuzz
