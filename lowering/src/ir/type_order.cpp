#include "ir/type_order.h"

#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace vkpolyfill::lowering::ir {

void sort_types_values_constants(Module& module) {
    InstructionList& section = module.types_values_constants;
    std::unordered_map<uint32_t, size_t> defined_at;  // result id -> index in the section
    std::unordered_set<uint32_t> forward_declared;
    for (size_t i = 0; i < section.size(); ++i) {
        if (const uint32_t id = section[i]->result_id()) defined_at[id] = i;
        if (section[i]->opcode() == spv::OpTypeForwardPointer) forward_declared.insert(section[i]->word(1));
    }

    std::vector<uint8_t> state(section.size(), 0);  // 0 new, 1 visiting, 2 placed
    std::vector<size_t> order;
    order.reserve(section.size());
    std::vector<Operand> operands;
    // A type (a struct or an array of pointers in a struct pointing at itself) may name a pointer type
    // before its OpTypePointer when an OpTypeForwardPointer declared it: that is not a dependency
    // (following it would break the cycle in the wrong place), and the forward declarations all go first.
    const auto dependencies_of = [&](size_t index) {
        const Instruction& instruction = *section[index];
        const bool is_type = instruction.info().instruction_class == grammar::InstructionClass::TypeDeclaration;
        std::vector<uint32_t> dependencies;
        operands.clear();
        if (instruction.opcode() != spv::OpTypeForwardPointer && walk_operands(instruction.words(), module, operands).empty()) {
            for (const Operand& operand : operands) {
                if (!is_id(operand.kind) || operand.kind == grammar::OperandKind::IdResult) continue;
                const uint32_t id = instruction.word(operand.first_word);
                if (is_type && forward_declared.contains(id)) continue;
                dependencies.push_back(id);
            }
        }
        return dependencies;
    };
    // Depth-first, dependencies first, on a stack of its own: a chain of definitions each naming the
    // next (non-semantic instructions may name later ids) is as deep as the section is long.
    struct Frame {
        size_t index;
        std::vector<uint32_t> dependencies;
        size_t next = 0;
    };
    std::vector<Frame> stack;
    const auto visit = [&](size_t root) {
        if (state[root] != 0) return;
        state[root] = 1;
        stack.push_back({root, dependencies_of(root)});
        while (!stack.empty()) {
            Frame& top = stack.back();
            if (top.next == top.dependencies.size()) {
                state[top.index] = 2;
                order.push_back(top.index);
                stack.pop_back();
                continue;
            }
            const auto it = defined_at.find(top.dependencies[top.next++]);
            if (it == defined_at.end() || state[it->second] != 0) continue;
            state[it->second] = 1;
            stack.push_back({it->second, dependencies_of(it->second)});
        }
    };
    for (size_t i = 0; i < section.size(); ++i) {
        if (section[i]->opcode() == spv::OpTypeForwardPointer) visit(i);
    }
    for (size_t i = 0; i < section.size(); ++i) visit(i);

    InstructionList sorted;
    sorted.reserve(section.size());
    for (size_t index : order) sorted.push_back(std::move(section[index]));
    section = std::move(sorted);
}

}  // namespace vkpolyfill::lowering::ir
