#include <exception>
#include <format>
#include <new>

#include "diagnostics.h"
#include "emulated_sets.h"
#include "ir/instruction_text.h"
#include "ir/parser.h"
#include "pass_runner.h"
#include "vkpolyfill/lowering/lower.h"

namespace vkpolyfill::lowering {

namespace {

Result failure(Diagnostics& diagnostics) {
    Result result;
    result.diagnostics = diagnostics.take();
    return result;
}

// Turns an exception into the failed Result; if even that cannot be allocated, an empty failed Result.
Result failure_from_exception(Diagnostics& diagnostics, const char* what) noexcept {
    try {
        diagnostics.error(std::string("lowering stopped: ") + what);
        return failure(diagnostics);
    } catch (...) {
        return Result{};
    }
}

const ir::Instruction* first_too_long_instruction(const ir::Module& module) {
    const ir::Instruction* too_long = nullptr;
    module.for_each_instruction([&](const ir::Instruction& instruction) {
        if (!too_long && instruction.words().size() > ir::kMaxWordCount) too_long = &instruction;
    });
    return too_long;
}

}  // namespace

// Diagnostics name no module: the caller formats them with its name (format()).
Result lower(std::span<const uint32_t> words, const Target& target, const Options& options) {
    Diagnostics diagnostics;
    try {
        const auto module = ir::parse(words, diagnostics);
        if (!module) return failure(diagnostics);
        const bool changed = run_emulation_passes(*module, target, options.specialization, emulated_sets(), diagnostics);
        if (diagnostics.has_errors()) return failure(diagnostics);
        // The passes take ids past the input's bound; a module already near the limit has no room for them.
        if (module->header.bound > ir::kMaxIdBound + 1) {
            diagnostics.error(std::format("the lowered module needs an id bound of {}, past SPIR-V's limit of {}",
                                          module->header.bound, ir::kMaxIdBound + 1));
            return failure(diagnostics);
        }
        // A pass may grow an instruction (an entry point's interface, a composite) past the words its
        // first word can count: such a module could not be read back. The parser checked the input's.
        const ir::Instruction* too_long = changed ? first_too_long_instruction(*module) : nullptr;
        if (too_long) {
            diagnostics.error(std::format("the lowered module needs {} words in one {}, past SPIR-V's limit of {}",
                                          too_long->words().size(), too_long->name(), ir::kMaxWordCount),
                              too_long->source_offset(), ir::short_instruction_text(too_long->words(), *module));
            return failure(diagnostics);
        }
        Result result;
        result.ok = true;
        result.changed = changed;
        result.words = changed ? module->to_words() : std::vector<uint32_t>(words.begin(), words.end());
        result.diagnostics = diagnostics.take();
        return result;
    } catch (const std::bad_alloc&) {
        return failure_from_exception(diagnostics, "out of memory");
    } catch (const std::exception& exception) {
        return failure_from_exception(diagnostics, exception.what());
    }
}

}  // namespace vkpolyfill::lowering
