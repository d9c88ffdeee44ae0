// vkpolyfill-lower's command line: what to read, where to write, and the Target to lower for.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <vkpolyfill/lowering/lower.h>

namespace vkpolyfill::cli {

struct Options {
    std::string input;   // a file, or "-" for standard input
    std::string output;  // a file, or "-" for standard output
    lowering::Target target;
    std::vector<lowering::SpecializationValue> specialization;
    bool validate = false;
    bool help = false;
};

// Parses argv; on a usage error returns nullopt with the reason in `error`.
std::optional<Options> parse_options(int argc, const char* const* argv, std::string& error);

// The --help text.
std::string usage(const char* program);

}  // namespace vkpolyfill::cli
