#include "temp_dir.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace vkpolyfill::test {

TempDir::TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "vkpolyfill-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

std::vector<std::filesystem::path> TempDir::files_ending_with(const std::string& suffix) const {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(path_)) {
        const std::string name = entry.path().filename().string();
        if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace vkpolyfill::test
