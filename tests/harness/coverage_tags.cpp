#include "coverage_tags.h"

#include <mutex>
#include <utility>

namespace vkpolyfill::test {
namespace {

std::mutex& tags_mutex() {
    static std::mutex mutex;
    return mutex;
}

std::set<std::string>& tags() {
    static std::set<std::string> set;
    return set;
}

}  // namespace

void covers(std::string_view item) {
    std::lock_guard lock(tags_mutex());
    tags().emplace(item);
}

std::set<std::string> take_coverage_tags() {
    std::lock_guard lock(tags_mutex());
    return std::exchange(tags(), {});
}

}  // namespace vkpolyfill::test
