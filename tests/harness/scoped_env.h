// Sets (or unsets) an environment variable for one scope; the loader and the layer settings read
// the environment at each vkCreateInstance, so tests can vary it between instances.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace vkpolyfill::test {

class ScopedEnv {
  public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        value ? setenv(name, value, 1) : unsetenv(name);
    }
    ~ScopedEnv() { old_ ? setenv(name_.c_str(), old_->c_str(), 1) : unsetenv(name_.c_str()); }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

  private:
    std::string name_;
    std::optional<std::string> old_;
};

}  // namespace vkpolyfill::test
