#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering {

namespace {

const char* severity_name(Diagnostic::Severity severity) {
    switch (severity) {
        case Diagnostic::Severity::Error: return "error";
        case Diagnostic::Severity::Warning: return "warning";
        case Diagnostic::Severity::Info: return "info";
    }
    return "?";
}

}  // namespace

std::string format(const Diagnostic& diagnostic, const std::string& module_name) {
    try {
        std::string line = module_name.empty() ? std::string() : module_name + ": ";
        line += severity_name(diagnostic.severity);
        line += ": " + diagnostic.message;
        if (diagnostic.word_offset != ~0u) line += " at word " + std::to_string(diagnostic.word_offset);
        if (!diagnostic.instruction.empty()) line += ": " + diagnostic.instruction;
        return line;
    } catch (...) {  // out of memory: no line rather than an exception across the API
        return {};
    }
}

}  // namespace vkpolyfill::lowering
