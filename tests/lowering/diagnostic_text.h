// The diagnostics of a lowering as text, for test failure messages and checks on what they say.
#pragma once

#include <string>
#include <string_view>

#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering::test {

// Every diagnostic, formatted, one a line.
std::string messages(const Result& result);

inline bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

}  // namespace vkpolyfill::lowering::test
