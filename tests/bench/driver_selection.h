// Pointing the loader at the driver a benchmark runs on, and at this build tree's layer, before
// anything touches Vulkan (as the Vulkan tests' main does).
#pragma once

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

namespace vkpolyfill::bench {

// `driver` is "plain", "native" (the scripts/env.sh drivers) or "system" (the loader's default).
// Returns an error message, empty on success.
std::string select_driver(const std::string& driver);

// A benchmark tool's main: parses its options (std::invalid_argument is a usage error: the message,
// then `usage`), selects `options.driver`, runs; any failure is a message and exit status 2.
template <typename Options, typename Parse, typename Run>
int tool_main(const char* name, const char* usage, int argc, char** argv, Parse parse, Run run) {
    try {
        const Options options = parse(argc, argv);
        if (const std::string error = select_driver(options.driver); !error.empty()) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 2;
        }
        run(options);
        return 0;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "%s%s", *e.what() ? (std::string(e.what()) + "\n").c_str() : "", usage);
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", name, e.what());
        return 2;
    }
}

}  // namespace vkpolyfill::bench
