// vkpolyfill-lower: reads a SPIR-V module, lowers it with the same lowering::lower() the layer calls
// at pipeline creation, and writes the result. Messages and exit codes follow the SPIRV-Tools tools:
// "error: ..." lines on standard error, exit code 1 on any failure.
#include <cstdio>
#include <iostream>

#include <vkpolyfill/lowering/lower.h>
#include <vkpolyfill/lowering/validate.h>

#include "options.h"
#include "spirv_files.h"

namespace {

int fail(const std::string& message) {
    std::cerr << "error: " << message << '\n';
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace vkpolyfill;
    std::string error;
    const std::optional<cli::Options> options = cli::parse_options(argc, argv, error);
    if (!options) return fail(error);
    if (options->help) {
        std::cout << cli::usage(argv[0]);
        return 0;
    }
    const std::optional<std::vector<uint32_t>> input = cli::read_spirv(options->input, error);
    if (!input) return fail(error);

    const std::string name = options->input == "-" ? "<stdin>" : options->input;
    lowering::Options lowering_options;
    lowering_options.module_name = name;
    lowering_options.specialization = options->specialization;
    const lowering::Result result = lowering::lower(*input, options->target, lowering_options);
    for (const lowering::Diagnostic& diagnostic : result.diagnostics) std::cerr << lowering::format(diagnostic, name) << '\n';
    if (!result.ok) return 1;
    if (options->validate) {
        if (const std::string problem = lowering::validate(result.words, options->target.vulkan_version); !problem.empty()) {
            return fail(name + ": the lowered module is invalid: " + problem);
        }
    }
    if (!cli::write_spirv(options->output, result.words, error)) return fail(error);
    return 0;
}
