#include "conformance_listener.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "coverage_tags.h"

namespace vkpolyfill::test {
namespace {

class ConformanceListener : public testing::EmptyTestEventListener {
    void OnTestStart(const testing::TestInfo& test) override {
        take_coverage_tags();
        const char* root = std::getenv("VKPOLYFILL_CONFORMANCE_DUMP_ROOT");
        if (root == nullptr || *root == '\0') return;
        std::string name = std::string(test.test_suite_name()) + "." + test.name();
        for (char& c : name) {
            if (c == '/') c = '~';
        }
        const char* driver = std::getenv("VKPOLYFILL_TEST_DRIVER");
        const std::filesystem::path dir = std::filesystem::path(root) / (driver ? driver : "default") / name;
        std::error_code error;
        std::filesystem::create_directories(dir, error);
        if (error) std::fprintf(stderr, "conformance: cannot create %s: %s\n", dir.c_str(), error.message().c_str());
        setenv("VK_POLYFILL_EXTENSIONS_DUMP_DIR", dir.c_str(), 1);
    }

    void OnTestEnd(const testing::TestInfo&) override {
        for (const std::string& tag : take_coverage_tags()) std::printf("[  COVERS  ] %s\n", tag.c_str());
        std::fflush(stdout);
    }
};

}  // namespace

void add_conformance_listener() {
    testing::UnitTest::GetInstance()->listeners().Append(new ConformanceListener);
}

}  // namespace vkpolyfill::test
