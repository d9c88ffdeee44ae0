#include "pipelines/placeholder_module.h"

#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill {
namespace {

constexpr uint32_t op(spv::Op opcode, uint32_t word_count) { return (word_count << 16) | opcode; }

// Ids: 1 main, 2 void, 3 void(), 4 the label.
constexpr uint32_t kPlaceholder[] = {
    spv::MagicNumber, 0x00010000, 0, 5, 0,
    op(spv::OpCapability, 2), spv::CapabilityShader,
    op(spv::OpMemoryModel, 3), spv::AddressingModelLogical, spv::MemoryModelGLSL450,
    op(spv::OpEntryPoint, 5), spv::ExecutionModelGLCompute, 1, 0x6e69616d /* "main" */, 0,
    op(spv::OpExecutionMode, 6), 1, spv::ExecutionModeLocalSize, 1, 1, 1,
    op(spv::OpTypeVoid, 2), 2,
    op(spv::OpTypeFunction, 3), 3, 2,
    op(spv::OpFunction, 5), 2, 1, spv::FunctionControlMaskNone, 3,
    op(spv::OpLabel, 2), 4,
    op(spv::OpReturn, 1),
    op(spv::OpFunctionEnd, 1),
};

}  // namespace

std::span<const uint32_t> placeholder_module() { return kPlaceholder; }

}  // namespace vkpolyfill
