"""CTS-style case names (<extension>.<group>.<case>) for the project's ctest tests.

The names follow from the test names by one convention, so test authors keep them true by naming
their tests: a GoogleTest name [Prefix/]Suite.Test[/Param] becomes snake_case words; the words of
an entry of EXTENSIONS (in the prefix or the suite) pick the extension; the rest of the suite is
the group; the test and its parameters are the case. Mode words in the prefix (Native, Emulated,
Forced) give the mode instead of a name part, so one case has one name in every mode.

  vulkan.plain.CooperativeMatrixEmulated/MulAdd.float16_float32/16x16x16_rowmajor_buffer
      -> cooperative_matrix.khr.mul_add.float16_float32.16x16x16_rowmajor_buffer   (emulated)
  vulkan.native.Cts/TileImageColorReads.EverySampleMatchesTheSimulation/Rgba32fOneDraw
      -> shader_tile_image.color_reads.cts.every_sample_matches_the_simulation.rgba32f_one_draw
  lowering.CooperativeMatrixPass.LowersMulAdd -> cooperative_matrix.khr.lowering.pass.lowers_mul_add

Tests of the layer's own suites whose test name starts with an extension's words belong to it
(PipelineInterception.CooperativeMatrixModulesPassThrough... -> cooperative_matrix.khr.pipeline_interception.modules_pass_through...).
Tests outside the vulkan tier (lowering.*, linked_app.*, bench.*, validation.*: vulkan cases again over
the Khronos validation layer) get the tier as their group.
Tests that name no extension belong to "vkpolyfill" (the layer itself: loading, settings, ...).
"""
import re
from dataclasses import dataclass

# (words in test names, CTS-style extension name, the extension as Vulkan / SPIR-V names it).
# Longer keys first: "cooperative_matrix2" before "cooperative_matrix" (at one position the first
# entry wins). A capability adds its row.
EXTENSIONS = [
    ("cooperative_matrix2_decode_vector", "cooperative_matrix_decode_vector.nv", "VK_NV_cooperative_matrix_decode_vector"),
    ("cooperative_matrix2", "cooperative_matrix2.nv", "VK_NV_cooperative_matrix2"),
    ("cooperative_matrix", "cooperative_matrix.khr", "VK_KHR_cooperative_matrix"),
    ("tensor_addressing", "cooperative_matrix2.nv", "VK_NV_cooperative_matrix2"),  # SPV_NV_tensor_addressing
    ("arm_tensor", "tensor", "VK_ARM_tensors"),
    ("tensor", "tensor", "VK_ARM_tensors"),
    ("tile_image", "shader_tile_image", "VK_EXT_shader_tile_image"),
    ("long_composites", "long_composites", "SPV_INTEL_long_composites"),
    ("float16", "shader_float16", "VK_KHR_shader_float16_int8"),  # shaderFloat16 (f16 arithmetic)
]
LAYER = "vkpolyfill"
MODES = {"native": "native", "emulated": "emulated", "forced": "forced"}


@dataclass(frozen=True)
class CaseName:
    extension: str  # "cooperative_matrix.khr"
    group: str      # "mul_add"
    case: str       # "float16_float32.16x16x16_rowmajor_buffer"
    mode: str       # native | emulated | forced | layer (through the layer, no mode of its own) | compile-only | unit

    @property
    def full(self):
        return f"{self.extension}.{self.group}.{self.case}"


def snake(text):
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", text)
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_").lower()


def words(text):
    return [w for w in snake(text).split("_") if w]


def find_key(tokens):
    """(index, length, cts extension, extension) of the first EXTENSIONS entry in tokens, or None."""
    best = None
    for key, cts, extension in EXTENSIONS:
        kw = key.split("_")
        for i in range(len(tokens) - len(kw) + 1):
            if all(t == k or t == k + "s" for t, k in zip(tokens[i:i + len(kw)], kw)):
                if best is None or i < best[0]:
                    best = (i, len(kw), cts, extension)
                break
    return best


def name_case(tier, gtest_name):
    """The CaseName of a test of `tier` (vulkan, lowering, ...) named `gtest_name` by GoogleTest
    (or by add_test, for tests that are not GoogleTest's)."""
    suite_full, _, test_full = gtest_name.partition(".")
    if not test_full:  # an add_test name without a dot (gemm_smoke): all of it is the case
        suite_full, test_full = "", gtest_name
    prefix, _, suite = suite_full.rpartition("/")
    prefix_words, suite_words = words(prefix), words(suite)
    # gpu.*: on a real GPU's driver through drm-shim, which compiles but executes nothing
    mode = "layer" if tier in ("vulkan", "validation", "linked_app") else "compile-only" if tier == "gpu" else "unit"
    for w in list(prefix_words):
        if w in MODES:
            prefix_words.remove(w)
            mode = MODES[w]
    case_words_front = []
    extension = LAYER
    found = find_key(prefix_words)
    if found:
        i, n, extension, _ = found
        rest = prefix_words[:i] + prefix_words[i + n:]
        group_words, case_words_front = suite_words, rest
    else:
        found = find_key(suite_words)
        if found:
            i, n, extension, _ = found
            group_words = suite_words[:i] + suite_words[i + n:]
        else:
            group_words = suite_words
        case_words_front = prefix_words
    test_parts = [snake(p) for p in test_full.split("/") if p]
    if not found:  # a test of the layer's own suites may still be about one extension
        tokens = words(test_parts[0]) if test_parts else []
        hit = find_key(tokens)
        if hit:
            i, n, extension, _ = hit
            test_parts[0] = "_".join(tokens[:i] + tokens[i + n:]) or "run"
    group = "_".join(group_words) or "api"
    if tier != "vulkan":
        case_words_front = ([group] if group_words else []) + case_words_front
        group = tier
    case = ".".join(([("_".join(case_words_front))] if case_words_front else []) + test_parts)
    return CaseName(extension, group, case, mode)


def vulkan_extension_of(cts_extension):
    for _, cts, extension in EXTENSIONS:
        if cts == cts_extension:
            return extension
    return None
