#include "pass_runner.h"

#include <algorithm>
#include <format>
#include <spirv/unified1/spirv.hpp>

#include "ir/instruction_text.h"
#include "passes/pass.h"

namespace vkpolyfill::lowering {

namespace {

EmulatedSet sets_declared_by(const ir::Instruction& instruction, std::span<const EmulatedSetInfo> sets) {
    if (instruction.opcode() == spv::OpCapability) return sets_of_capability(sets, instruction.word(1));
    return sets_of_extension(sets, ir::decode_literal_string(instruction.operand_words()));
}

// "capability CooperativeMatrixKHR" or "extension SPV_KHR_cooperative_matrix".
std::string declaration_text(const ir::Instruction& instruction) {
    if (instruction.opcode() == spv::OpCapability) {
        return std::format("capability {}", grammar::capability_name(instruction.word(1)));
    }
    return std::format("extension {}", ir::decode_literal_string(instruction.operand_words()));
}

// Whether a cooperative-matrix type has a scope other than a Subgroup constant (Workgroup, or a
// specialization constant that may be Workgroup).
bool has_workgroup_scope_matrices(const ir::Module& module) {
    for (const auto& instruction : module.types_values_constants) {
        if (instruction->opcode() != spv::OpTypeCooperativeMatrixKHR) continue;
        const ir::Instruction* scope = module.find_definition(instruction->word(3));
        if (!scope || scope->opcode() != spv::OpConstant || scope->word(3) != spv::ScopeSubgroup) return true;
    }
    return false;
}

void report(Diagnostics& diagnostics, const ir::Module& module, std::string message, const ir::Instruction& at) {
    diagnostics.error(std::move(message), at.source_offset(), ir::instruction_text(at.words(), module));
}

}  // namespace

std::vector<DeclaredSet> declared_sets(const ir::Module& module, std::span<const EmulatedSetInfo> sets) {
    std::vector<DeclaredSet> declared;
    EmulatedSet seen = 0;
    for (const ir::InstructionList* section : {&module.capabilities, &module.extensions}) {
        for (const auto& instruction : *section) {
            const EmulatedSet found = sets_declared_by(*instruction, sets) & ~seen;
            for (const EmulatedSetInfo& info : sets) {
                if (found & bit(info.set)) declared.push_back({&info, instruction.get()});
            }
            seen |= found;
        }
    }
    // Workgroup-scope matrices are SPV_NV_cooperative_matrix2's (VK_NV_cooperative_matrix2's
    // cooperativeMatrixWorkgroupScope) even where the module declares only SPV_KHR_cooperative_matrix,
    // as glslang writes a GL_NV_cooperative_matrix2 shader that uses nothing else of it.
    const auto khr = std::ranges::find_if(declared, [](const DeclaredSet& d) { return d.set->set == Emulated::KhrCooperativeMatrix; });
    const auto nv2 = std::ranges::find_if(sets, [](const EmulatedSetInfo& info) { return info.set == Emulated::NvCooperativeMatrix2; });
    if (khr != declared.end() && nv2 != sets.end() && !(seen & bit(Emulated::NvCooperativeMatrix2)) && has_workgroup_scope_matrices(module)) {
        declared.push_back({&*nv2, khr->declaration});
    }
    return declared;
}

bool run_emulation_passes(ir::Module& module, const Target& target, std::span<const SpecializationValue> specialization,
                          std::span<const EmulatedSetInfo> sets, Diagnostics& diagnostics) {
    std::vector<const EmulatedSetInfo*> to_lower;
    for (const DeclaredSet& declared : declared_sets(module, sets)) {
        if (!(target.emulate & bit(declared.set->set))) continue;  // the driver has it: leave it alone
        if (!declared.set->make_pass) {
            report(diagnostics, module,
                   std::format("{} is not implemented by this build (the module declares {})", declared.set->name,
                               declaration_text(*declared.declaration)),
                   *declared.declaration);
        }
        to_lower.push_back(declared.set);
    }
    if (to_lower.empty() || diagnostics.has_errors()) return false;
    std::ranges::sort(to_lower);  // in the order of `sets`, whatever order the module declares them in

    ir::TypeManager types(module);
    PassContext context{module, types, target, diagnostics, specialization};
    bool changed = false;
    for (const EmulatedSetInfo* info : to_lower) {
        const auto pass = info->make_pass();
        changed = pass->run(context) || changed;
        if (diagnostics.has_errors()) return changed;
    }
    for (const DeclaredSet& left : declared_sets(module, sets)) {
        // Multiply-adds on the driver's matrix units keep its SPV_KHR_cooperative_matrix (Target::matrix_units).
        if (left.set->set == Emulated::KhrCooperativeMatrix && !target.matrix_units.empty()) continue;
        if (std::ranges::find(to_lower, left.set) != to_lower.end()) {
            report(diagnostics, module, std::format("{} is still declared after its pass ran", left.set->name),
                   *left.declaration);
        }
    }
    return changed;
}

}  // namespace vkpolyfill::lowering
