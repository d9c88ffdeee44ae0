#include "ir/layout.h"

#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::lowering::ir {

Placement placement_of(const Instruction& instruction, const OperandContext& context) {
    switch (instruction.opcode()) {
        case spv::OpCapability:
            return {Section::Capabilities};
        case spv::OpExtension:
            return {Section::Extensions};
        case spv::OpExtInstImport:
            return {Section::ExtInstImports};
        case spv::OpMemoryModel:
        case spv::OpSamplerImageAddressingModeNV:
            return {Section::MemoryModel};
        case spv::OpEntryPoint:
            return {Section::EntryPoints};
        case spv::OpExecutionMode:
        case spv::OpExecutionModeId:
            return {Section::ExecutionModes};
        case spv::OpString:
        case spv::OpSourceExtension:
        case spv::OpSource:
        case spv::OpSourceContinued:
            return {Section::DebugSource};
        case spv::OpName:
        case spv::OpMemberName:
            return {Section::DebugNames};
        case spv::OpModuleProcessed:
            return {Section::DebugModuleProcessed};
        case spv::OpVariable:
        case spv::OpUntypedVariableKHR:
        case spv::OpUndef:
            return {Section::Types, true, false};
        case spv::OpLine:
        case spv::OpNoLine:
        case spv::OpExtInstWithForwardRefsKHR:
            return {Section::Types, true, true};
        case spv::OpExtInst: {
            const grammar::ExtInstSetInfo* set = context.ext_inst_set(instruction.word(3));
            return set && set->non_semantic ? Placement{Section::Types, true, true} : Placement{Section::Functions};
        }
        default:
            break;
    }
    switch (instruction.info().instruction_class) {
        case grammar::InstructionClass::Annotation:
            return {Section::Annotations};
        case grammar::InstructionClass::TypeDeclaration:
        case grammar::InstructionClass::ConstantCreation:
            return {Section::Types};
        default:
            return {Section::Functions};
    }
}

std::string_view section_name(Section section) {
    switch (section) {
        case Section::Capabilities: return "capabilities";
        case Section::Extensions: return "extensions";
        case Section::ExtInstImports: return "extended instruction set imports";
        case Section::MemoryModel: return "memory model";
        case Section::EntryPoints: return "entry points";
        case Section::ExecutionModes: return "execution modes";
        case Section::DebugSource: return "debug source";
        case Section::DebugNames: return "debug names";
        case Section::DebugModuleProcessed: return "OpModuleProcessed";
        case Section::Annotations: return "annotations";
        case Section::Types: return "types, constants and global variables";
        case Section::Functions: return "functions";
    }
    return "?";
}

bool is_block_terminator(uint32_t opcode) {
    switch (opcode) {
        case spv::OpBranch:
        case spv::OpBranchConditional:
        case spv::OpSwitch:
        case spv::OpReturn:
        case spv::OpReturnValue:
        case spv::OpKill:
        case spv::OpUnreachable:
        case spv::OpTerminateInvocation:
        case spv::OpIgnoreIntersectionKHR:
        case spv::OpTerminateRayKHR:
        case spv::OpEmitMeshTasksEXT:
        case spv::OpAbortKHR:
            return true;
        default:
            return false;
    }
}

}  // namespace vkpolyfill::lowering::ir
