#include "emulated_sets.h"

#include "passes/arm_tensors/arm_tensors_pass.h"
#include "passes/cooperative_matrix/cooperative_matrix_pass.h"
#include "passes/float16/float16_pass.h"
#include "passes/long_composites/long_composites_pass.h"
#include "passes/tile_image/tile_image_pass.h"

#include <algorithm>
#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::lowering {

namespace {

constexpr uint32_t kKhrCooperativeMatrixCapabilities[] = {spv::CapabilityCooperativeMatrixKHR};
constexpr std::string_view kKhrCooperativeMatrixExtensions[] = {"SPV_KHR_cooperative_matrix"};

// Reductions and PerElementOperations share their numbers with SPV_EXT_cooperative_matrix_maintenance1's
// capabilities; a module declaring those needs the same lowering.
constexpr uint32_t kNvCooperativeMatrix2Capabilities[] = {
    spv::CapabilityCooperativeMatrixReductionsNV,         spv::CapabilityCooperativeMatrixConversionsNV,
    spv::CapabilityCooperativeMatrixPerElementOperationsNV, spv::CapabilityCooperativeMatrixTensorAddressingNV,
    spv::CapabilityCooperativeMatrixBlockLoadsNV,
};
constexpr std::string_view kNvCooperativeMatrix2Extensions[] = {"SPV_NV_cooperative_matrix2"};

constexpr uint32_t kNvDecodeVectorCapabilities[] = {spv::CapabilityCooperativeMatrixDecodeVectorNV};
constexpr std::string_view kNvDecodeVectorExtensions[] = {"SPV_NV_cooperative_matrix_decode_vector"};

constexpr uint32_t kNvTensorAddressingCapabilities[] = {spv::CapabilityTensorAddressingNV};
constexpr std::string_view kNvTensorAddressingExtensions[] = {"SPV_NV_tensor_addressing"};

constexpr uint32_t kArmTensorsCapabilities[] = {
    spv::CapabilityTensorsARM,
    spv::CapabilityStorageTensorArrayDynamicIndexingARM,
    spv::CapabilityStorageTensorArrayNonUniformIndexingARM,
};
constexpr std::string_view kArmTensorsExtensions[] = {"SPV_ARM_tensors"};

constexpr uint32_t kExtShaderTileImageCapabilities[] = {
    spv::CapabilityTileImageColorReadAccessEXT,
    spv::CapabilityTileImageDepthReadAccessEXT,
    spv::CapabilityTileImageStencilReadAccessEXT,
};
constexpr std::string_view kExtShaderTileImageExtensions[] = {"SPV_EXT_shader_tile_image"};

constexpr uint32_t kIntelLongCompositesCapabilities[] = {spv::CapabilityLongCompositesINTEL};
constexpr std::string_view kIntelLongCompositesExtensions[] = {"SPV_INTEL_long_composites"};

constexpr uint32_t kFloat16Capabilities[] = {spv::CapabilityFloat16};

// Each capability's issue fills in its pass factory. Passes run in this order: SPV_INTEL_long_composites
// first, since the other passes take every struct type and composite to be one instruction; Float16
// last, since the others write f16 arithmetic of their own (lowered f16 matrices).
constexpr EmulatedSetInfo kEmulatedSets[] = {
    {Emulated::IntelLongComposites, "SPV_INTEL_long_composites", kIntelLongCompositesCapabilities,
     kIntelLongCompositesExtensions, &make_long_composites_pass},
    {Emulated::KhrCooperativeMatrix, "SPV_KHR_cooperative_matrix", kKhrCooperativeMatrixCapabilities,
     kKhrCooperativeMatrixExtensions, &make_cooperative_matrix_pass},
    {Emulated::NvCooperativeMatrix2, "SPV_NV_cooperative_matrix2", kNvCooperativeMatrix2Capabilities,
     kNvCooperativeMatrix2Extensions, &make_cooperative_matrix_pass},
    {Emulated::NvTensorAddressing, "SPV_NV_tensor_addressing", kNvTensorAddressingCapabilities,
     kNvTensorAddressingExtensions, &make_cooperative_matrix_pass},
    {Emulated::NvCooperativeMatrixDecodeVector, "SPV_NV_cooperative_matrix_decode_vector", kNvDecodeVectorCapabilities,
     kNvDecodeVectorExtensions, &make_cooperative_matrix_pass},
    {Emulated::ArmTensors, "SPV_ARM_tensors", kArmTensorsCapabilities, kArmTensorsExtensions,
     &make_arm_tensors_pass},
    {Emulated::ExtShaderTileImage, "SPV_EXT_shader_tile_image", kExtShaderTileImageCapabilities,
     kExtShaderTileImageExtensions, &make_tile_image_pass},
    {Emulated::Float16, "Float16 arithmetic (shaderFloat16)", kFloat16Capabilities, {}, &make_float16_pass},
};

}  // namespace

std::span<const EmulatedSetInfo> emulated_sets() { return kEmulatedSets; }

EmulatedSet sets_of_capability(std::span<const EmulatedSetInfo> sets, uint32_t capability) {
    EmulatedSet found = 0;
    for (const EmulatedSetInfo& info : sets) {
        if (std::ranges::find(info.capabilities, capability) != info.capabilities.end()) found |= bit(info.set);
    }
    return found;
}

EmulatedSet sets_of_extension(std::span<const EmulatedSetInfo> sets, std::string_view extension) {
    EmulatedSet found = 0;
    for (const EmulatedSetInfo& info : sets) {
        if (std::ranges::find(info.extensions, extension) != info.extensions.end()) found |= bit(info.set);
    }
    return found;
}

}  // namespace vkpolyfill::lowering
