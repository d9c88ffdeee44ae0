// A fresh directory for one test, removed with its contents at the end of the scope.
#pragma once

#include <filesystem>
#include <vector>
#include <string>

namespace vkpolyfill::test {

class TempDir {
  public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    // Files in the directory whose name ends with `suffix`, sorted by name.
    std::vector<std::filesystem::path> files_ending_with(const std::string& suffix) const;

  private:
    std::filesystem::path path_;
};

}  // namespace vkpolyfill::test
