#include "passes/common/entry_point_reach.h"

#include <format>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/instruction_text.h"

namespace vkpolyfill::lowering {

bool report_outside_allowed_stages(const ir::Module& module, const StageRule& rule, Diagnostics& diagnostics) {
    std::unordered_map<uint32_t, const ir::Function*> functions;
    for (const auto& function : module.functions) functions.emplace(function->id(), function.get());
    std::unordered_set<const ir::Instruction*> reported;
    for (const auto& entry_point : module.entry_points) {
        if (rule.allowed_model(entry_point->word(1))) continue;
        const std::string name = ir::decode_literal_string(entry_point->words().subspan(3));
        // The functions the entry point calls, directly or not.
        std::vector<uint32_t> pending{entry_point->word(2)};
        std::unordered_set<uint32_t> visited;
        while (!pending.empty()) {
            const uint32_t id = pending.back();
            pending.pop_back();
            const auto found = functions.find(id);
            if (!visited.insert(id).second || found == functions.end()) continue;
            found->second->for_each_instruction([&](const ir::Instruction& instruction) {
                if (instruction.opcode() == spv::OpFunctionCall) pending.push_back(instruction.word(3));
                if (!rule.watched(instruction.opcode()) || !reported.insert(&instruction).second) return;
                diagnostics.error(std::format("{} is reachable from entry point \"{}\", which is not {}: {}", instruction.name(), name,
                                              rule.allowed_stages, rule.rule),
                                  instruction.source_offset(), ir::instruction_text(instruction.words(), module));
            });
        }
    }
    return !reported.empty();
}

}  // namespace vkpolyfill::lowering
