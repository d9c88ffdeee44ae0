#include "diagnostic_text.h"

namespace vkpolyfill::lowering::test {

std::string messages(const Result& result) {
    std::string text;
    for (const Diagnostic& d : result.diagnostics) text += format(d, "module") + "\n";
    return text;
}

}  // namespace vkpolyfill::lowering::test
