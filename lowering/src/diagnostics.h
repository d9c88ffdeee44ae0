// Collects the diagnostics lower() returns.
#pragma once

#include <string>
#include <vector>

#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering {

class Diagnostics {
  public:
    void error(std::string message, uint32_t word_offset = ~0u, std::string instruction = {}) {
        list_.push_back({Diagnostic::Severity::Error, std::move(message), word_offset, std::move(instruction)});
    }
    bool has_errors() const {
        for (const Diagnostic& diagnostic : list_) {
            if (diagnostic.severity == Diagnostic::Severity::Error) return true;
        }
        return false;
    }
    const std::vector<Diagnostic>& list() const { return list_; }
    std::vector<Diagnostic> take() { return std::move(list_); }

  private:
    std::vector<Diagnostic> list_;
};

}  // namespace vkpolyfill::lowering
