#include "pass_runner.h"

#include <algorithm>
#include <format>
#include <spirv/unified1/spirv.hpp>

#include "implicit_cooperative_matrix2.h"
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
    return declared;
}

bool run_emulation_passes(ir::Module& module, const Target& target, std::span<const SpecializationValue> specialization,
                          std::span<const EmulatedSetInfo> sets, Diagnostics& diagnostics) {
    std::vector<DeclaredSet> used = declared_sets(module, sets);
    // SPV_NV_cooperative_matrix2 used with only SPV_KHR_cooperative_matrix declared: lowered as the former.
    const auto khr = std::ranges::find_if(used, [](const DeclaredSet& d) { return d.set->set == Emulated::KhrCooperativeMatrix; });
    const auto nv2 = std::ranges::find_if(sets, [](const EmulatedSetInfo& info) { return info.set == Emulated::NvCooperativeMatrix2; });
    if (khr != used.end() && nv2 != sets.end() &&
        std::ranges::none_of(used, [](const DeclaredSet& d) { return d.set->set == Emulated::NvCooperativeMatrix2; }) &&
        uses_cooperative_matrix2_implicitly(module, target, specialization)) {
        used.push_back({&*nv2, khr->declaration});
    }
    std::vector<const EmulatedSetInfo*> to_lower;
    for (const DeclaredSet& declared : used) {
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
    std::vector<PassFactory> ran;
    for (const EmulatedSetInfo* info : to_lower) {
        // One pass lowers several sets (the cooperative-matrix one: KHR, NV2, tensor addressing, decode
        // vectors) in one run; a second run would take what the first left for the driver (the KHR tiles
        // of multiply-adds on its own units) for more to lower.
        if (std::ranges::find(ran, info->make_pass) != ran.end()) continue;
        ran.push_back(info->make_pass);
        const auto pass = info->make_pass();
        changed = pass->run(context) || changed;
        if (diagnostics.has_errors()) return changed;
    }
    for (const DeclaredSet& left : declared_sets(module, sets)) {
        if (std::ranges::find(to_lower, left.set) != to_lower.end()) {
            report(diagnostics, module, std::format("{} is still declared after its pass ran", left.set->name),
                   *left.declaration);
        }
    }
    return changed;
}

}  // namespace vkpolyfill::lowering
