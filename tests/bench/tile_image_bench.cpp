// vkpolyfill_tile_image_bench: what emulated tile-image reads cost (scripts/bench.sh runs it).
//  - The blending scene (translucent quads over the framebuffer, blended source-over) drawn by
//    tile-image reads through the layer against the same scene blended by the blend unit, on the
//    same driver, with and without the layer, and by tile-image reads ordered by split draws or by a
//    fragment shader interlock (the paths of GPUs without rasterization-order access): time per frame,
//    and the ratio.
//  - The layer's overhead per draw and per render pass instance: recording (and running) thousands
//    of draws, or of begin/end pairs, through the layer and without it.
// Times are wall-clock medians of --reps runs; on lavapipe the work is the CPU's.
#include <cstdio>
#include <exception>
#include <format>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "driver_selection.h"
#include "figures.h"
#include "scoped_env.h"
#include "stats.h"
#include "text_parsing.h"
#include "tile_image_setup.h"

namespace vkpolyfill::bench {
namespace {

constexpr const char* kUsage =
    "usage: vkpolyfill_tile_image_bench [--driver plain|native|system] [--size N] [--patches N] [--frames N] [--reps N]\n"
    "                                   [--json PATH]\n"
    "  --driver   the driver (default native: lavapipe 26 through scripts/env.sh)\n"
    "  --size     the blending scene's framebuffer width and height, a multiple of 16 (default 512)\n"
    "  --patches  translucent quads in the blending scene (default 64)\n"
    "  --frames   frames per measured submission (default 4)\n"
    "  --reps     measured submissions per figure; the median is reported (default 5)\n"
    "  --json     also write the figures (median, quartiles, range) for scripts/bench.sh's report\n";

struct Options {
    std::string driver = "native";
    uint32_t size = 512, patches = 64, frames = 4, reps = 5;
    std::string json;
};

Options parse(int argc, char** argv) {
    Options options;
    const std::pair<const char*, std::string*> texts[] = {{"--driver", &options.driver}, {"--json", &options.json}};
    const std::pair<const char*, uint32_t*> numbers[] = {
        {"--size", &options.size}, {"--patches", &options.patches}, {"--frames", &options.frames}, {"--reps", &options.reps}};
    parse_flags(argc, argv, texts, numbers);
    if (options.size == 0 || options.size % test::tile_image::kSize != 0) throw std::invalid_argument("--size must be a multiple of 16");
    return options;
}

struct Measured {
    Summary record, execute;          // ms
    test::tile_image::Samples image;  // the first color attachment of the last run
};

// Renders `spec` once to warm up (pipeline compiles, first-use costs), then `reps` times.
Measured measure(bool layer, const test::tile_image::SceneSpec& spec, const std::vector<test::tile_image::Patch>& patches,
                 uint32_t reps) {
    const std::unique_ptr<test::Context> context = tile_image_context(layer);
    test::tile_image::SceneRenderer renderer(*context);
    Measured measured;
    measured.image = renderer.render(spec, patches)[0];
    std::vector<double> record, execute;
    for (uint32_t r = 0; r < reps; ++r) {
        renderer.render(spec, patches);
        record.push_back(renderer.last_timing().record_ms);
        execute.push_back(renderer.last_timing().execute_ms);
    }
    measured.record = summarize(record);
    measured.execute = summarize(execute);
    return measured;
}

void run(const Options& options) {
    using test::tile_image::SceneSpec;
    const auto scene = test::tile_image::translucent_patches(options.patches, options.size);
    const Measured programmable = measure(true, blend_scene(true, options.size, options.patches, options.frames), scene, options.reps);
    const Measured fixed_layer = measure(true, blend_scene(false, options.size, options.patches, options.frames), scene, options.reps);
    const Measured fixed_plain = measure(false, blend_scene(false, options.size, options.patches, options.frames), scene, options.reps);
    // The paths of GPUs without rasterization-order access: a fragment shader interlock (where the
    // driver has one: lavapipe 26; elsewhere the setting leaves (a)'s path), or a draw per triangle, a
    // barrier before each.
    const auto ordered_by = [&](const char* ordering) {
        const test::ScopedEnv setting("VK_POLYFILL_EXTENSIONS_TILE_IMAGE_ORDERING", ordering);
        return measure(true, blend_scene(true, options.size, options.patches, options.frames), scene, options.reps);
    };
    const Measured split = ordered_by("draw_splitting");
    const Measured interlock = ordered_by("interlock");
    const double frames = options.frames;
    Figures figures("VK_EXT_shader_tile_image", options.driver);
    const std::string blending = std::format("blending {}x{}, {} quads", options.size, options.size, options.patches);
    std::printf("## Tile-image blending (%ux%u RGBA8, %u translucent quads, %u frames a submission, median of %u)\n\n",
                options.size, options.size, options.patches, options.frames, options.reps);
    std::printf("| path | ms per frame | fixed function without the layer / this |\n| --- | ---: | ---: |\n");
    for (const auto& [name, m] : {std::pair{"(a) programmable: tile-image reads through the layer", &programmable},
                                  std::pair{"(b) fixed-function blending, through the layer", &fixed_layer},
                                  std::pair{"(c) fixed-function blending, without the layer", &fixed_plain},
                                  std::pair{"(d) programmable, coherent reads ordered by split draws", &split},
                                  std::pair{"(e) programmable, coherent reads ordered by a fragment shader interlock", &interlock}}) {
        std::printf("| %s | %.2f | %.2f |\n", name, m->execute.median / frames, fixed_plain.execute.median / m->execute.median);
        figures.add(blending, name, "ms per frame", scaled(m->execute, 1.0 / frames));
    }
    std::printf("\n(a) and (b) differ by at most %u/255 per channel, (d) and (a) by %u/255, (e) and (a) by %u/255.\n\n",
                max_difference(programmable.image, fixed_layer.image), max_difference(split.image, programmable.image),
                max_difference(interlock.image, programmable.image));

    // Overhead: many one-quad draws in one render pass instance, then many render pass instances of one draw.
    constexpr uint32_t kDraws = 4000, kBegins = 2000;
    SceneSpec draws = blend_scene(true, test::tile_image::kSize, 0, 1);
    draws.patches_per_draw.assign(kDraws, 1);
    const SceneSpec begins = blend_scene(true, test::tile_image::kSize, 1, kBegins);
    std::printf("## Layer overhead (per call: recorded CPU time, and the submission's run time; median of %u)\n\n", options.reps);
    std::printf("| what | without the layer | through the layer, fixed function | through the layer, tile-image reads |\n"
                "| --- | ---: | ---: | ---: |\n");
    for (const auto& [name, spec, calls] : {std::tuple{"draw", static_cast<const SceneSpec*>(&draws), kDraws}, std::tuple{"render pass begin+end", &begins, kBegins}}) {
        const auto patches = test::tile_image::translucent_patches(calls == kDraws ? kDraws : 1);
        SceneSpec fixed = *spec;
        fixed.fragment_shader = "tests/tile_image/blend_fixed_function.frag";
        fixed.blend = true;
        const Measured runs[] = {measure(false, fixed, patches, options.reps), measure(true, fixed, patches, options.reps),
                                 measure(true, *spec, patches, options.reps)};
        const double us = 1000.0 / calls;
        std::printf("| %s: record (us) | %.3f | %.3f | %.3f |\n", name, runs[0].record.median * us, runs[1].record.median * us, runs[2].record.median * us);
        std::printf("| %s: run (us) | %.3f | %.3f | %.3f |\n", name, runs[0].execute.median * us, runs[1].execute.median * us, runs[2].execute.median * us);
        const char* series[] = {"without the layer", "through the layer, fixed function", "through the layer, tile-image reads"};
        for (int r = 0; r < 3; ++r) {
            figures.add(std::string(name) + ": record", series[r], "us per call", scaled(runs[r].record, us));
            figures.add(std::string(name) + ": run", series[r], "us per call", scaled(runs[r].execute, us));
        }
    }
    if (!options.json.empty()) figures.write(options.json);
}

}  // namespace
}  // namespace vkpolyfill::bench

int main(int argc, char** argv) {
    using namespace vkpolyfill::bench;
    return tool_main<Options>("vkpolyfill_tile_image_bench", kUsage, argc, argv, parse, run);
}
