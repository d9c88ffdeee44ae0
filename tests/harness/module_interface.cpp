#include "module_interface.h"

#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <spirv/unified1/spirv.hpp>

namespace vkpolyfill::test {
namespace {

constexpr size_t kHeaderWords = 5;

struct Instruction {
    spv::Op op;
    std::span<const uint32_t> operands;  // the words after the opcode word
};

std::vector<Instruction> instructions(std::span<const uint32_t> spirv) {
    if (spirv.size() < kHeaderWords || spirv[0] != spv::MagicNumber) throw std::invalid_argument("not a SPIR-V module");
    std::vector<Instruction> out;
    for (size_t at = kHeaderWords; at < spirv.size();) {
        const uint32_t count = spirv[at] >> 16;
        if (count == 0 || at + count > spirv.size()) throw std::invalid_argument("truncated instruction at word " + std::to_string(at));
        out.push_back({static_cast<spv::Op>(spirv[at] & 0xFFFFu), spirv.subspan(at + 1, count - 1)});
        at += count;
    }
    return out;
}

// What the module declares about each id that the interface depends on.
struct Declarations {
    std::unordered_map<uint32_t, Instruction> types;     // result id -> its OpType* (or OpConstant: array lengths)
    std::unordered_map<uint32_t, uint32_t> sets, bindings;
    std::unordered_map<uint32_t, bool> buffer_blocks;     // struct id -> BufferBlock (a storage buffer in Uniform)

    explicit Declarations(const std::vector<Instruction>& module) {
        for (const Instruction& i : module) {
            if (i.op == spv::OpDecorate && i.operands.size() >= 2) {
                const uint32_t target = i.operands[0], decoration = i.operands[1];
                if (decoration == spv::DecorationDescriptorSet && i.operands.size() > 2) sets[target] = i.operands[2];
                if (decoration == spv::DecorationBinding && i.operands.size() > 2) bindings[target] = i.operands[2];
                if (decoration == spv::DecorationBufferBlock) buffer_blocks[target] = true;
            } else if ((i.op >= spv::OpTypeVoid && i.op <= spv::OpTypeForwardPointer) || i.op == spv::OpTypeTensorARM ||
                       i.op == spv::OpTypeAccelerationStructureKHR) {
                if (!i.operands.empty()) types.emplace(i.operands[0], i);
            } else if (i.op == spv::OpConstant && i.operands.size() > 2) {  // %type %result value
                types.emplace(i.operands[1], i);
            }
        }
    }

    const Instruction& type(uint32_t id) const {
        const auto found = types.find(id);
        if (found == types.end()) throw std::invalid_argument("no declaration of type %" + std::to_string(id));
        return found->second;
    }
};

// The descriptor type and count of a variable of `pointee` in `storage`.
std::pair<VkDescriptorType, uint32_t> descriptor(const Declarations& d, spv::StorageClass storage, uint32_t pointee) {
    uint32_t count = 1;
    const Instruction* type = &d.type(pointee);
    if (type->op == spv::OpTypeArray) {
        const Instruction& length = d.type(type->operands[2]);
        count = length.operands.size() > 2 ? length.operands[2] : 1;
        type = &d.type(type->operands[1]);
    } else if (type->op == spv::OpTypeRuntimeArray) {
        type = &d.type(type->operands[1]);
    }
    switch (storage) {
        case spv::StorageClassStorageBuffer:
            return {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, count};
        case spv::StorageClassUniform:
            return {d.buffer_blocks.count(type->operands[0]) ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, count};
        case spv::StorageClassUniformConstant:
            break;
        default:
            throw std::invalid_argument("a descriptor in storage class " + std::to_string(storage));
    }
    switch (type->op) {
        case spv::OpTypeSampler:
            return {VK_DESCRIPTOR_TYPE_SAMPLER, count};
        case spv::OpTypeSampledImage:
            return {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, count};
        case spv::OpTypeTensorARM:
            return {VK_DESCRIPTOR_TYPE_TENSOR_ARM, count};
        case spv::OpTypeAccelerationStructureKHR:
            return {VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, count};
        case spv::OpTypeImage: {
            // OpTypeImage %result %sampled-type Dim Depth Arrayed MS Sampled Format
            const bool buffer = type->operands[2] == spv::DimBuffer, storage_image = type->operands[6] == 2;
            if (type->operands[2] == spv::DimSubpassData) return {VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, count};
            if (buffer) return {storage_image ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, count};
            return {storage_image ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, count};
        }
        default:
            throw std::invalid_argument("a UniformConstant variable of type opcode " + std::to_string(type->op));
    }
}

}  // namespace

ModuleInterface reflect_interface(std::span<const uint32_t> spirv) {
    const std::vector<Instruction> module = instructions(spirv);
    const Declarations d(module);
    ModuleInterface out;
    for (const Instruction& i : module) {
        if (i.op == spv::OpCapability && !i.operands.empty()) out.capabilities.push_back(i.operands[0]);
        if (i.op == spv::OpExtension) {  // a nul-terminated literal string in the operand words
            const char* text = reinterpret_cast<const char*>(i.operands.data());
            out.extensions.emplace_back(text, strnlen(text, i.operands.size() * sizeof(uint32_t)));
        }
        if (i.op != spv::OpVariable || i.operands.size() < 3) continue;
        const auto storage = static_cast<spv::StorageClass>(i.operands[2]);
        if (storage == spv::StorageClassPushConstant) out.push_constants = true;
        const uint32_t id = i.operands[1];
        if (!d.bindings.count(id)) continue;
        const Instruction& pointer = d.type(i.operands[0]);  // OpTypePointer %result Storage %pointee
        const auto [type, count] = descriptor(d, storage, pointer.operands[2]);
        const uint32_t set = d.sets.count(id) ? d.sets.at(id) : 0, binding = d.bindings.at(id);
        out.sets[set].emplace(binding, VkDescriptorSetLayoutBinding{binding, type, count, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    }
    return out;
}

}  // namespace vkpolyfill::test
