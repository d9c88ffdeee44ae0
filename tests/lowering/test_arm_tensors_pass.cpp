// The SPV_ARM_tensors pass against the layer contract (vkpolyfill/lowering/arm_tensors.h) and the
// Vulkan rules for tensor accesses, checked on the output's words read independently (spirv_facts.h):
// every tensor module of the corpus (every element type, ranks 1-8, arrays of tensors, functions,
// vertex and fragment shaders, SPIR-V 1.5 and 1.6, with and without spirv-opt) lowers to SPIR-V that
// spirv-val accepts for its Vulkan version; each tensor binding becomes the two aliased storage-buffer
// variables of the contract indexed 2i / 2i + 1; every data load is at an offset forced to 0 outside
// the tensor and every data store sits behind a branch. Hand-written modules cover what GLSL cannot
// write (SPIR-V 1.0, 16- and 64-bit signed coordinates, memory-model operands, tensors passed by
// value, specialization-constant ranks) and the inputs the pass must refuse with a diagnostic.
#include <gtest/gtest.h>

#include <algorithm>
#include <format>
#include <map>
#include <set>
#include <spirv/unified1/spirv.hpp>
#include <string>

#include "diagnostic_text.h"
#include "spirv_corpus.h"
#include "spirv_facts.h"
#include "spirv_text.h"
#include "vkpolyfill/lowering/arm_tensors.h"
#include "vkpolyfill/lowering/lower.h"
#include "vkpolyfill/lowering/validate.h"

namespace vkpolyfill::lowering::test {
namespace {

constexpr uint32_t kVulkan10 = 1u << 22;
constexpr uint32_t kVulkan12 = (1u << 22) | (2u << 12);
constexpr uint32_t kVulkan13 = (1u << 22) | (3u << 12);
constexpr uint32_t kShapeWords = sizeof(TensorShapeRecord) / 4;

Target emulating_tensors() {
    Target target;
    target.emulate = bit(Emulated::ArmTensors);
    return target;
}

// The Vulkan version whose SPIR-V the module is (1.5: Vulkan 1.2, 1.6: Vulkan 1.3).
uint32_t vulkan_version_for(const Words& words) { return words[1] <= 0x00010500u ? kVulkan12 : kVulkan13; }

// A tensor variable of the input.
struct InputTensor {
    uint32_t set = 0, binding = 0;
    uint32_t count = 1;          // array length, 0 for a runtime array
    uint32_t element_bytes = 0;  // as stored: a bool is one byte
    uint32_t rank = 0;           // 0 when not an OpConstant
};

std::vector<InputTensor> input_tensors(const SpirvFacts& in) {
    std::vector<InputTensor> tensors;
    for (const auto& [id, words] : in.definitions) {
        if ((words[0] & 0xFFFFu) != spv::OpVariable || words[3] != spv::StorageClassUniformConstant) continue;
        uint32_t pointee = in.definitions.at(words[1])[3];
        InputTensor tensor;
        if (in.opcode_of(pointee) == spv::OpTypeArray || in.opcode_of(pointee) == spv::OpTypeRuntimeArray) {
            const Words& array = in.definitions.at(pointee);
            tensor.count = in.opcode_of(pointee) == spv::OpTypeArray ? in.constant(array[3]).value_or(0) : 0;
            pointee = array[2];
        }
        if (in.opcode_of(pointee) != spv::OpTypeTensorARM) continue;
        const Words& type = in.definitions.at(pointee);
        const Words& element = in.definitions.at(type[2]);
        tensor.element_bytes = (element[0] & 0xFFFFu) == spv::OpTypeBool ? 1 : element[2] / 8;
        tensor.rank = type.size() > 3 ? in.constant(type[3]).value_or(0) : 0;
        tensor.set = in.decoration(id, spv::DecorationDescriptorSet).value();
        tensor.binding = in.decoration(id, spv::DecorationBinding).value();
        tensors.push_back(tensor);
    }
    return tensors;
}

bool is_uint(const SpirvFacts& f, uint32_t type) {
    return f.opcode_of(type) == spv::OpTypeInt && f.definitions.at(type)[2] == 32 && f.definitions.at(type)[3] == 0;
}

// The two storage-buffer variables at a tensor's set and binding: the data buffers (a Block of one
// runtime array of elements) and the shape records (a Block of 20 uints).
struct Pair {
    uint32_t data = 0, shape = 0;
};

Pair lowered_pair(const SpirvFacts& out, const InputTensor& tensor) {
    Pair pair;
    size_t found = 0;
    for (const auto& [id, words] : out.definitions) {
        if ((words[0] & 0xFFFFu) != spv::OpVariable || out.decoration(id, spv::DecorationDescriptorSet) != tensor.set ||
            out.decoration(id, spv::DecorationBinding) != tensor.binding) {
            continue;
        }
        ++found;
        EXPECT_EQ(words[3], spv::StorageClassStorageBuffer);
        const Words& descriptors = out.definitions.at(out.definitions.at(words[1])[3]);
        if (tensor.count == 0) {
            EXPECT_EQ(descriptors[0] & 0xFFFFu, spv::OpTypeRuntimeArray);
        } else {
            EXPECT_EQ(descriptors[0] & 0xFFFFu, spv::OpTypeArray);
            EXPECT_EQ(out.constant(descriptors[3]), 2 * tensor.count) << "descriptorCount 2N";
        }
        const uint32_t block = descriptors[2];
        EXPECT_TRUE(out.decoration(block, spv::DecorationBlock).has_value());
        EXPECT_EQ(out.member_decoration(block, 0, spv::DecorationOffset), 0u);
        const uint32_t member = out.definitions.at(block)[2];
        const Words& array = out.definitions.at(member);
        if ((array[0] & 0xFFFFu) == spv::OpTypeRuntimeArray) {
            pair.data = id;
            EXPECT_EQ(out.decoration(member, spv::DecorationArrayStride), tensor.element_bytes);
        } else {
            pair.shape = id;
            EXPECT_TRUE(is_uint(out, array[2]));
            EXPECT_EQ(out.constant(array[3]), kShapeWords);
            EXPECT_EQ(out.decoration(member, spv::DecorationArrayStride), 4u);
        }
    }
    EXPECT_EQ(found, 2u) << "set " << tensor.set << " binding " << tensor.binding;
    return pair;
}

// The arguments a function parameter receives, at every call.
std::vector<uint32_t> arguments_of(const SpirvFacts& f, uint32_t parameter) {
    uint32_t function = 0, index = 0;
    for (const CodeInstruction& i : f.code) {
        const uint32_t opcode = i.words[0] & 0xFFFFu;
        if (opcode == spv::OpFunction) function = i.words[2], index = 0;
        if (opcode == spv::OpFunctionParameter && i.words[2] == parameter) break;
        if (opcode == spv::OpFunctionParameter) ++index;
    }
    std::vector<uint32_t> arguments;
    for (const CodeInstruction& i : f.code) {
        if ((i.words[0] & 0xFFFFu) == spv::OpFunctionCall && i.words[3] == function) arguments.push_back(i.words[4 + index]);
    }
    return arguments;
}

// 2i: a constant even number or x * 2, or a parameter that is one at every call.
bool is_data_index(const SpirvFacts& f, uint32_t id) {
    if (const auto value = f.constant(id)) return *value % 2 == 0;
    if (f.opcode_of(id) == spv::OpFunctionParameter) {
        const std::vector<uint32_t> arguments = arguments_of(f, id);
        return !arguments.empty() && std::ranges::all_of(arguments, [&](uint32_t a) { return is_data_index(f, a); });
    }
    if (f.opcode_of(id) != spv::OpIMul) return false;
    const Words& mul = f.definitions.at(id);
    return f.constant(mul[3]) == 2u || f.constant(mul[4]) == 2u;
}

// 2i + 1: a constant odd number or 2i + 1.
bool is_shape_index(const SpirvFacts& f, uint32_t id) {
    if (const auto value = f.constant(id)) return *value % 2 == 1;
    if (f.opcode_of(id) != spv::OpIAdd) return false;
    const Words& add = f.definitions.at(id);
    return (f.constant(add[4]) == 1u && is_data_index(f, add[3])) || (f.constant(add[3]) == 1u && is_data_index(f, add[4]));
}

struct ContractCheck {
    std::set<uint32_t> shape_words;  // shape-record words read, over every tensor
    size_t data_loads = 0, data_stores = 0, non_uniform_chains = 0, dynamic_chains = 0;
};

// Everything the contract and the Vulkan rules say about the output of `in`.
ContractCheck check_contract(const Words& in_words, const Words& out_words) {
    const SpirvFacts in = read_facts(in_words);
    const SpirvFacts out = read_facts(out_words);
    ContractCheck check;
    EXPECT_FALSE(out.capabilities.contains(spv::CapabilityTensorsARM));
    EXPECT_FALSE(out.extensions.contains("SPV_ARM_tensors"));
    // The layer enables a device feature for each capability the lowering adds: only these may be new
    // (a bool's byte needs no Int8, a bfloat16 no Int16).
    static const std::set<uint32_t> kAddable = {
        spv::CapabilityStorageBuffer8BitAccess, spv::CapabilityStorageBuffer16BitAccess,
        spv::CapabilityStorageBufferArrayDynamicIndexing, spv::CapabilityStorageBufferArrayNonUniformIndexing,
        spv::CapabilityShaderNonUniform, spv::CapabilityVulkanMemoryModelDeviceScope};
    for (const uint32_t capability : out.capabilities) {
        EXPECT_TRUE(in.capabilities.contains(capability) || kAddable.contains(capability)) << "capability " << capability;
    }
    std::set<uint32_t> data_variables, shape_variables;
    for (const InputTensor& tensor : input_tensors(in)) {
        const Pair pair = lowered_pair(out, tensor);
        data_variables.insert(pair.data);
        shape_variables.insert(pair.shape);
        EXPECT_TRUE(tensor.element_bytes != 1 || out.capabilities.contains(spv::CapabilityStorageBuffer8BitAccess));
        EXPECT_TRUE(tensor.element_bytes != 2 || out.capabilities.contains(spv::CapabilityStorageBuffer16BitAccess));
    }
    std::set<uint32_t> data_chains;
    std::set<uint32_t> written;  // data variables some store writes
    std::set<uint32_t> guarded_blocks;  // true targets of conditional branches
    for (const CodeInstruction& i : out.code) {
        const Words& w = i.words;
        const uint32_t opcode = w[0] & 0xFFFFu;
        if (opcode == spv::OpBranchConditional) guarded_blocks.insert(w[2]);
        if (opcode != spv::OpAccessChain) continue;
        const bool data = data_variables.contains(w[3]), shape = shape_variables.contains(w[3]);
        if (!data && !shape) continue;
        EXPECT_EQ(w.size(), 7u) << "descriptor, member 0, element";
        EXPECT_EQ(out.constant(w[5]), 0u);
        EXPECT_TRUE(data ? is_data_index(out, w[4]) : is_shape_index(out, w[4])) << "descriptor index of %" << w[2];
        const bool non_uniform = out.decoration(w[2], spv::DecorationNonUniform).has_value();
        check.non_uniform_chains += non_uniform;
        check.dynamic_chains += !out.constant(w[4]).has_value();
        if (data) data_chains.insert(w[2]);
        if (shape) {
            const auto word = out.constant(w[6]);
            EXPECT_TRUE(word.has_value()) << "shape words are read at constant indexes";
            if (word) check.shape_words.insert(*word);
        }
    }
    for (const CodeInstruction& i : out.code) {
        const Words& w = i.words;
        const uint32_t opcode = w[0] & 0xFFFFu;
        if (opcode == spv::OpLoad && data_chains.contains(w[3])) {
            ++check.data_loads;
            // The offset: OpSelect(in_bounds, offset, 0), so no load leaves the tensor.
            const uint32_t offset = out.definitions.at(w[3])[6];
            EXPECT_EQ(out.opcode_of(offset), spv::OpSelect) << "load %" << w[2];
            EXPECT_TRUE(out.opcode_of(offset) != spv::OpSelect || out.constant(out.definitions.at(offset)[5]) == 0u);
        }
        if (opcode == spv::OpStore && data_chains.contains(w[1])) {
            ++check.data_stores;
            EXPECT_TRUE(guarded_blocks.contains(i.block)) << "a data store outside an in-bounds branch";
            written.insert(out.definitions.at(w[1])[3]);
        }
    }
    // Tensors nothing writes are NonWritable (what vertex and fragment shaders need without the
    // stores-and-atomics features), the shape records always.
    for (const uint32_t variable : data_variables) {
        EXPECT_EQ(out.decoration(variable, spv::DecorationNonWritable).has_value(), !written.contains(variable));
    }
    for (const uint32_t variable : shape_variables) EXPECT_TRUE(out.decoration(variable, spv::DecorationNonWritable));
    if (check.non_uniform_chains) {
        EXPECT_TRUE(out.capabilities.contains(spv::CapabilityStorageBufferArrayNonUniformIndexing));
        EXPECT_TRUE(out.capabilities.contains(spv::CapabilityShaderNonUniform));
    }
    EXPECT_TRUE(!check.dynamic_chains || out.capabilities.contains(spv::CapabilityStorageBufferArrayDynamicIndexing));
    return check;
}

Result lower_tensors(const Words& words, const Options& options = {}) { return lower(words, emulating_tensors(), options); }

bool is_tensor_module(const CorpusModule& module) {
    return (scan_emulated_capabilities(module.words) & bit(Emulated::ArmTensors)) != 0;
}

TEST(ArmTensorsPass, EveryTensorModuleLowersToValidSpirvKeepingTheContract) {
    size_t lowered = 0;
    for (const CorpusModule& module : corpus()) {
        if (!is_tensor_module(module)) continue;
        SCOPED_TRACE(module.name);
        const Result result = lower_tensors(module.words);
        ASSERT_TRUE(result.ok) << messages(result);
        EXPECT_TRUE(result.changed);
        EXPECT_EQ(scan_emulated_capabilities(result.words) & ~bit(Emulated::Float16), 0u);
        EXPECT_EQ(validate(result.words, vulkan_version_for(module.words)), "");
        const ContractCheck check = check_contract(module.words, result.words);
        EXPECT_GT(check.data_loads, 0u);
        EXPECT_TRUE(module.name.starts_with("vertex") || check.data_stores > 0);
        ++lowered;
    }
    EXPECT_GE(lowered, 50u) << "the corpus lacks the shaders/tests/arm_tensors modules";
}

// Ranks 1-8: a read and a write with coordinates of RANK entries compare every coordinate with its
// dimension and use every stride but the innermost (one element); nothing past the rank is read from
// the shape record, and each word once, at the top of main (the tensors are known there).
TEST(ArmTensorsPass, EveryRankChecksEveryCoordinate) {
    size_t ranks = 0;
    for (const CorpusModule& module : corpus()) {
        if (!module.name.starts_with("ranks_") || module.name.ends_with("+opt")) continue;
        SCOPED_TRACE(module.name);
        const uint32_t rank = static_cast<uint32_t>(module.name[6] - '0');
        const Result result = lower_tensors(module.words);
        ASSERT_TRUE(result.ok) << messages(result);
        const ContractCheck check = check_contract(module.words, result.words);
        std::set<uint32_t> expected;
        for (uint32_t d = 0; d < rank; ++d) {
            expected.insert(kTensorShapeDimensionsWord + d);
            // The innermost stride is one element by the API's rule: it is never read.
            if (d + 1 < rank) expected.insert(kTensorShapeStridesWord + d);
        }
        EXPECT_EQ(check.shape_words, expected);
        EXPECT_GE(read_facts(result.words).count(spv::OpULessThan), 2u * rank) << "a read and a write of rank " << rank;
        const SpirvFacts out = read_facts(result.words);
        size_t shape_loads = 0;
        for (const CodeInstruction& i : out.code) {
            // Shape words are at constant places; data elements at selected offsets.
            const Words& w = i.words;
            shape_loads += (w[0] & 0xFFFFu) == spv::OpAccessChain && w.size() == 7 && out.constant(w[4]).has_value() &&
                           out.constant(w[6]).has_value();
        }
        EXPECT_EQ(shape_loads, 2 * (2 * rank - 1)) << "src's and dst's words, each once";
        ++ranks;
    }
    EXPECT_EQ(ranks, 8u);
}

// tables[2] (a constant: descriptors 4 and 5), tables[pick] (dynamically uniform) and
// tables[nonuniformEXT(i % 4)] (NonUniform carried over to every access of that tensor).
TEST(ArmTensorsPass, ArraysOfTensorsKeepConstantDynamicAndNonUniformIndexes) {
    for (const CorpusModule& module : corpus()) {
        if (!module.name.starts_with("arrays.comp")) continue;
        SCOPED_TRACE(module.name);
        const Result result = lower_tensors(module.words);
        ASSERT_TRUE(result.ok) << messages(result);
        const ContractCheck check = check_contract(module.words, result.words);
        EXPECT_GT(check.non_uniform_chains, 0u);
        EXPECT_GT(check.dynamic_chains, check.non_uniform_chains) << "the uniform pick is dynamic, not NonUniform";
        const std::string text = disassemble(result.words);
        EXPECT_TRUE(contains(text, "%uint_4 %uint_0")) << "tables[2]'s data is descriptor 4\n" << text;
        EXPECT_TRUE(contains(text, "%uint_5 %uint_0")) << "tables[2]'s shape record is descriptor 5\n" << text;
    }
}

// What GLSL cannot write: 16- and 64-bit signed coordinates (negative ones out of bounds), a tensor
// passed by value, a Rank from a specialization constant, memory-model tensor operands, Nontemporal.
constexpr std::string_view kHandWritten = R"(
OpCapability Shader
OpCapability Int16
OpCapability Int64
OpCapability TensorsARM
OpCapability VulkanMemoryModel
OpExtension "SPV_ARM_tensors"
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %src %dst %gid
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %src DescriptorSet 0
OpDecorate %src Binding 0
OpDecorate %dst DescriptorSet 0
OpDecorate %dst Binding 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %rank SpecId 3
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%short = OpTypeInt 16 1
%long = OpTypeInt 64 1
%float = OpTypeFloat 32
%v3uint = OpTypeVector %uint 3
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%device = OpConstant %uint 1
%rank = OpSpecConstant %uint 2
%float_m1 = OpConstant %float -1
%tensor = OpTypeTensorARM %float %rank
%ptr_tensor = OpTypePointer UniformConstant %tensor
%src = OpVariable %ptr_tensor UniformConstant
%dst = OpVariable %ptr_tensor UniformConstant
%ptr_in = OpTypePointer Input %v3uint
%gid = OpVariable %ptr_in Input
%short_coords = OpTypeArray %short %uint_2
%long_coords = OpTypeArray %long %uint_2
%float3 = OpTypeArray %float %uint_3
%rfn = OpTypeFunction %float %tensor %short
%read = OpFunction %float None %rfn
%t = OpFunctionParameter %tensor
%x = OpFunctionParameter %short
%rl = OpLabel
%c = OpCompositeConstruct %short_coords %x %x
%v = OpTensorReadARM %float %t %c OutOfBoundsValueARM|MakeElementVisibleARM|NonPrivateElementARM %float_m1 %device
OpReturnValue %v
OpFunctionEnd
%main = OpFunction %void None %fn
%ml = OpLabel
%g = OpLoad %v3uint %gid
%g0 = OpCompositeExtract %uint %g 0
%gs = OpBitcast %int %g0
%s = OpSConvert %short %gs
%l = OpSConvert %long %gs
%ls = OpSNegate %long %l
%tv = OpLoad %tensor %src
%value = OpFunctionCall %float %read %tv %s
%lc = OpCompositeConstruct %long_coords %ls %l
%arr = OpTensorReadARM %float3 %tv %lc NontemporalARM
%a1 = OpCompositeExtract %float %arr 1
%sum = OpFAdd %float %value %a1
%dv = OpLoad %tensor %dst
%size = OpTensorQuerySizeARM %short %dv %uint_1
%sf = OpConvertSToF %float %size
%out = OpFAdd %float %sum %sf
OpTensorWriteARM %dv %lc %out MakeElementAvailableARM|NonPrivateElementARM %device
OpTensorWriteARM %dv %lc %arr
OpReturn
OpFunctionEnd
)";

// A valid tensor module (assembled from `text`) lowered, and its output checked: valid for Vulkan 1.3,
// keeping the contract.
struct Checked {
    Words input;
    Result result;
    ContractCheck check;
};

Checked lower_and_check(std::string_view text) {
    Checked checked{assemble(text), {}, {}};
    EXPECT_EQ(validate(checked.input, kVulkan13), "") << "the input is valid SPIR-V";
    checked.result = lower_tensors(checked.input);
    EXPECT_TRUE(checked.result.ok) << messages(checked.result);
    if (!checked.result.ok) return checked;
    EXPECT_EQ(validate(checked.result.words, kVulkan13), "");
    checked.check = check_contract(checked.input, checked.result.words);
    return checked;
}

TEST(ArmTensorsPass, WideAndNarrowSignedCoordinatesMemoryOperandsAndTensorValues) {
    const Checked checked = lower_and_check(kHandWritten);
    const Result& result = checked.result;
    ASSERT_TRUE(result.ok);
    const ContractCheck& check = checked.check;
    EXPECT_EQ(check.data_loads, 4u);   // one scalar read, one array read of three
    EXPECT_EQ(check.data_stores, 2u);  // two store functions: one per set of memory operands
    const std::string text = disassemble(result.words);
    EXPECT_TRUE(contains(text, "MakePointerVisible|NonPrivatePointer")) << text;
    EXPECT_TRUE(contains(text, "MakePointerAvailable|NonPrivatePointer")) << text;
    EXPECT_TRUE(contains(text, "Nontemporal")) << text;
    EXPECT_TRUE(contains(text, "OpCapability VulkanMemoryModelDeviceScope")) << text;
    // 16-bit coordinates are sign-extended (negatives stay out of bounds); 64-bit ones are compared
    // at 64 bits with the dimension widened.
    EXPECT_TRUE(contains(text, "OpSConvert %int")) << text;
    EXPECT_TRUE(contains(text, "OpUConvert %ulong")) << text;
    // The tensor parameter is now the tensor's index in its binding.
    EXPECT_TRUE(contains(text, "OpFunctionParameter %uint")) << text;
}

TEST(ArmTensorsPass, ASpecializedRankIsTheOneLowered) {
    Options options;
    options.specialization.push_back({3, {3, 0, 0, 0}});  // rank 3: the two coordinates no longer fit
    const Result result = lower_tensors(assemble(kHandWritten), options);
    ASSERT_FALSE(result.ok);
    EXPECT_TRUE(contains(result.diagnostics.front().message, "not an array of 3 integers")) << messages(result);
}

// SPIR-V 1.0: the StorageBuffer class, 8-bit storage and descriptor indexing come as extensions, and
// interfaces keep listing only Input and Output variables.
constexpr std::string_view kSpirv10 = R"(
OpCapability Shader
OpCapability Int8
OpCapability TensorsARM
OpCapability StorageTensorArrayNonUniformIndexingARM
OpCapability ShaderNonUniform
OpExtension "SPV_ARM_tensors"
OpExtension "SPV_EXT_descriptor_indexing"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %tables DescriptorSet 1
OpDecorate %tables Binding 2
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %index NonUniform
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uchar = OpTypeInt 8 0
%v3uint = OpTypeVector %uint 3
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_3 = OpConstant %uint 3
%tensor = OpTypeTensorARM %uchar %uint_1
%tables_t = OpTypeArray %tensor %uint_3
%ptr_tables = OpTypePointer UniformConstant %tables_t
%ptr_tensor = OpTypePointer UniformConstant %tensor
%tables = OpVariable %ptr_tables UniformConstant
%ptr_in = OpTypePointer Input %v3uint
%gid = OpVariable %ptr_in Input
%coords_t = OpTypeArray %uint %uint_1
%main = OpFunction %void None %fn
%ml = OpLabel
%g = OpLoad %v3uint %gid
%g0 = OpCompositeExtract %uint %g 0
%index = OpUMod %uint %g0 %uint_3
%element = OpAccessChain %ptr_tensor %tables %index
%t = OpLoad %tensor %element
%c = OpCompositeConstruct %coords_t %g0
%v = OpTensorReadARM %uchar %t %c
%n = OpTensorQuerySizeARM %uint %t %uint_0
%c2 = OpCompositeConstruct %coords_t %n
OpTensorWriteARM %t %c2 %v
OpReturn
OpFunctionEnd
)";

TEST(ArmTensorsPass, SpirV10GetsTheExtensionsItNeeds) {
    Words words = assemble(kSpirv10);
    words[1] = 0x00010000;
    const Result result = lower_tensors(words);
    ASSERT_TRUE(result.ok) << messages(result);
    EXPECT_EQ(validate(result.words, kVulkan10), "");
    const SpirvFacts out = read_facts(result.words);
    EXPECT_TRUE(out.extensions.contains("SPV_KHR_storage_buffer_storage_class"));
    EXPECT_TRUE(out.extensions.contains("SPV_KHR_8bit_storage"));
    EXPECT_TRUE(out.capabilities.contains(spv::CapabilityStorageBufferArrayNonUniformIndexing));
    const ContractCheck check = check_contract(words, result.words);
    EXPECT_GT(check.non_uniform_chains, 0u);
    EXPECT_TRUE(contains(disassemble(result.words), "\"main\" %gl_GlobalInvocationID\n")) << "only Input and Output listed";
}

// A runtime array of tensors (descriptorCount from the layout: twice the application's) and an
// unranked tensor type, legal where nothing reads it: declared, lowered, never accessed.
constexpr std::string_view kRuntimeArrayAndUnranked = R"(
OpCapability Shader
OpCapability TensorsARM
OpCapability RuntimeDescriptorArray
OpCapability StorageTensorArrayDynamicIndexingARM
OpExtension "SPV_ARM_tensors"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %tables %spare %index
OpExecutionMode %main LocalSize 1 1 1
OpName %tables "tables"
OpDecorate %tables DescriptorSet 0
OpDecorate %tables Binding 0
OpDecorate %spare DescriptorSet 0
OpDecorate %spare Binding 1
OpDecorate %spare NonReadable
OpDecorate %index BuiltIn LocalInvocationIndex
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%uint_1 = OpConstant %uint 1
%ranked = OpTypeTensorARM %int %uint_1
%unranked = OpTypeTensorARM %int
%tables_t = OpTypeRuntimeArray %ranked
%ptr_tables = OpTypePointer UniformConstant %tables_t
%ptr_ranked = OpTypePointer UniformConstant %ranked
%ptr_unranked = OpTypePointer UniformConstant %unranked
%tables = OpVariable %ptr_tables UniformConstant
%spare = OpVariable %ptr_unranked UniformConstant
%ptr_in = OpTypePointer Input %uint
%index = OpVariable %ptr_in Input
%coords_t = OpTypeArray %uint %uint_1
%main = OpFunction %void None %fn
%ml = OpLabel
%i = OpLoad %uint %index
%element = OpAccessChain %ptr_ranked %tables %i
%t = OpLoad %ranked %element
%c = OpCompositeConstruct %coords_t %i
%v = OpTensorReadARM %int %t %c
OpTensorWriteARM %t %c %v
OpReturn
OpFunctionEnd
)";

TEST(ArmTensorsPass, RuntimeArraysOfTensorsAndUnreadUnrankedTensors) {
    const Checked checked = lower_and_check(kRuntimeArrayAndUnranked);  // runtime arrays of twice nothing
    const Result& result = checked.result;
    ASSERT_TRUE(result.ok);
    // The read's data and dimension, the write's dimension, the store function's data (rank 1: the
    // innermost stride is never read).
    EXPECT_EQ(checked.check.dynamic_chains, 4u);
    const std::string text = disassemble(result.words);
    EXPECT_TRUE(contains(text, "OpName %tables_shape \"tables_shape\"")) << text;
    EXPECT_FALSE(contains(text, "NonReadable")) << text;
    // SPIR-V 1.6: both new shape variables join the interface next to their tensors'.
    const size_t start = text.find("OpEntryPoint");
    const std::string entry_point = text.substr(start, text.find('\n', start) - start);
    EXPECT_TRUE(contains(entry_point, " %tables_shape ")) << entry_point;
    EXPECT_EQ(std::ranges::count(entry_point, '%'), 6) << entry_point;
}

// What the pass must refuse (most of these spirv-val rejects too, but an application may not
// validate): each edit of kHandWritten, the words its diagnostic must say, and the instruction it names.
struct Refusal {
    std::string_view from, to, message, instruction;
};

constexpr Refusal kRefusals[] = {
    {"OpDecorate %dst Binding 1\n", "", "no DescriptorSet or Binding", "OpVariable"},
    {"%rank = OpSpecConstant %uint 2", "%rank = OpSpecConstant %uint 9", "Rank is not a constant from 1 to 8",
     "OpTensorReadARM"},
    {"%tensor = OpTypeTensorARM %float %rank", "%tensor = OpTypeTensorARM %float", "unranked tensor", "OpTensor"},
    {"OutOfBoundsValueARM|MakeElementVisibleARM|NonPrivateElementARM %float_m1 %device",
     "OutOfBoundsValueARM|MakeElementVisibleARM|NonPrivateElementARM %uint_1 %device", "not of the tensor's Element Type",
     "OpTensorReadARM"},
    {"OutOfBoundsValueARM|MakeElementVisibleARM|NonPrivateElementARM %float_m1 %device",
     "MakeElementAvailableARM|NonPrivateElementARM %device", "not valid on OpTensorReadARM", "OpTensorReadARM"},
    {"%size = OpTensorQuerySizeARM %short %dv %uint_1", "%size = OpTensorQuerySizeARM %short %dv %uint_2",
     "Dimension is not a constant below the tensor's Rank 2", "OpTensorQuerySizeARM"},
    {"%size = OpTensorQuerySizeARM %short %dv %uint_1", "%size = OpTensorQuerySizeARM %float %dv %uint_1",
     "not an integer type", "OpTensorQuerySizeARM"},
    {"%lc = OpCompositeConstruct %long_coords %ls %l", "%lc = OpCompositeConstruct %float3 %value %value %value",
     "Coordinates are not an array of 2 integers", "OpTensorReadARM"},
    {"OpTensorWriteARM %dv %lc %arr", "OpTensorWriteARM %dv %lc %lc", "neither the tensor's Element Type",
     "OpTensorWriteARM"},
    {"%tv = OpLoad %tensor %src", "%tv = OpUndef %tensor", "used by OpUndef", "OpUndef"},
    {"%float3 = OpTypeArray %float %uint_3", "%float3 = OpTypeArray %float %uint_3\n%holder = OpTypeStruct %tensor",
     "used outside a UniformConstant variable", "OpTypeStruct"},
    {"%float3 = OpTypeArray %float %uint_3", "%uint_257 = OpConstant %uint 257\n%float3 = OpTypeArray %float %uint_257",
     "constant length from 1 to 256", "OpTensorReadARM"},
    {"%tv = OpLoad %tensor %src", "%chain = OpAccessChain %ptr_tensor %src %float_m1\n%tv = OpLoad %tensor %chain",
     "not one integer index into an array of tensors", "OpAccessChain"},
    {"%sf = OpConvertSToF %float %size", "%sf = OpConvertSToF %float %size\n%copy = OpCopyLogical %tensor %dv",
     "used by OpCopyLogical", "OpCopyLogical"},
    // Valid (spirv-val compares parameters with the type only at calls), but the rewritten type would
    // come from the one declared parameter while the call passes two.
    {"%x = OpFunctionParameter %short\n%rl = OpLabel", "%rl = OpLabel\n%x = OpUndef %short",
     "declares 1 parameters, not those of its type", "OpFunction"},
};

TEST(ArmTensorsPass, UnsupportedInputIsReportedWithItsInstruction) {
    for (const Refusal& refusal : kRefusals) {
        std::string text(kHandWritten);
        const size_t at = text.find(refusal.from);
        ASSERT_NE(at, std::string::npos) << refusal.from;
        text.replace(at, refusal.from.size(), refusal.to);
        SCOPED_TRACE(std::string(refusal.to));
        const Result result = lower_tensors(assemble(text));
        ASSERT_FALSE(result.ok);
        ASSERT_FALSE(result.diagnostics.empty());
        EXPECT_TRUE(contains(result.diagnostics.front().message, refusal.message)) << messages(result);
        EXPECT_TRUE(contains(result.diagnostics.front().instruction, refusal.instruction)) << messages(result);
        EXPECT_NE(result.diagnostics.front().word_offset, ~0u) << messages(result);
    }
}

// A function called with tensors of two bindings is cloned: each copy reads its own binding.
TEST(ArmTensorsPass, AFunctionCalledWithTwoBindingsIsClonedForEach) {
    std::string text(kHandWritten);
    const std::string_view call = "%value = OpFunctionCall %float %read %tv %s";
    text.replace(text.find(call), call.size(),
                 "%dst_value = OpLoad %tensor %dst\n%other = OpFunctionCall %float %read %dst_value %s\n"
                 "%first = OpFunctionCall %float %read %tv %s\n%value = OpFAdd %float %first %other");
    const Checked checked = lower_and_check(text);
    const Result& result = checked.result;
    ASSERT_TRUE(result.ok);
    EXPECT_EQ(checked.check.data_loads, 5u);  // the read function twice, the array read of three
    // Each copy reads the shape record of its own binding's variable (main reads two: the array
    // read's and the writes'; the store functions none).
    const SpirvFacts out = read_facts(result.words);
    std::map<uint32_t, std::set<uint32_t>> shape_variables_by_function;
    uint32_t function = 0;
    for (const CodeInstruction& i : out.code) {
        const uint32_t opcode = i.words[0] & 0xFFFFu;
        if (opcode == spv::OpFunction) function = i.words[2];
        if (opcode == spv::OpAccessChain && out.decoration(i.words[3], spv::DecorationNonWritable).has_value() &&
            out.constant(i.words[6]) == kTensorShapeStridesWord) {
            shape_variables_by_function[function].insert(i.words[3]);
        }
    }
    std::set<uint32_t> read_alone;  // by functions reading one binding
    for (const auto& [id, variables] : shape_variables_by_function) {
        if (variables.size() == 1) read_alone.insert(*variables.begin());
    }
    EXPECT_EQ(read_alone.size(), 2u) << disassemble(result.words);
}

// Functions f0..f`depth` of `count` tensor parameters, each calling the next twice, with its first
// tensor from %src and from %dst and the rest shifted along: f_i is called with 2^min(i, count) sets
// of bindings, each a clone.
std::string with_binding_fanout(int count, int depth) {
    std::string tensors, text = R"(OpCapability Shader
OpCapability TensorsARM
OpCapability VulkanMemoryModel
OpExtension "SPV_ARM_tensors"
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %src %dst
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %src DescriptorSet 0
OpDecorate %src Binding 0
OpDecorate %dst DescriptorSet 0
OpDecorate %dst Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_2 = OpConstant %uint 2
%tensor = OpTypeTensorARM %float %uint_2
%ptr_tensor = OpTypePointer UniformConstant %tensor
%src = OpVariable %ptr_tensor UniformConstant
%dst = OpVariable %ptr_tensor UniformConstant
)";
    for (int k = 0; k < count; ++k) tensors += " %tensor";
    text += "%tfn = OpTypeFunction %void" + tensors + "\n";
    text += "%main = OpFunction %void None %fn\n%ml = OpLabel\n%sv = OpLoad %tensor %src\n%c = OpFunctionCall %void %f0";
    for (int k = 0; k < count; ++k) text += " %sv";
    text += "\nOpReturn\nOpFunctionEnd\n";
    for (int i = 0; i <= depth; ++i) {
        text += std::format("%f{} = OpFunction %void None %tfn\n", i);
        std::string rest;
        for (int k = 0; k < count; ++k) text += std::format("%p{}_{} = OpFunctionParameter %tensor\n", i, k);
        for (int k = 0; k + 1 < count; ++k) rest += std::format(" %p{}_{}", i, k);
        text += std::format("%l{} = OpLabel\n", i);
        if (i < depth) {
            text += std::format("%s{0} = OpLoad %tensor %src\n%d{0} = OpLoad %tensor %dst\n", i);
            text += std::format("%ca{0} = OpFunctionCall %void %f{1} %s{0}{2}\n%cb{0} = OpFunctionCall %void %f{1} %d{0}{2}\n", i, i + 1, rest);
        }
        text += "OpReturn\nOpFunctionEnd\n";
    }
    return text;
}

// Clones per set of bindings are bounded (16 tensors 24 calls deep asked for 2^16 copies of each
// function: the lowering ran for hours); a few sets are cloned as before.
TEST(ArmTensorsPass, CopiesOfFunctionsForTheirBindingsAreBounded) {
    const Words few_words = assemble(with_binding_fanout(2, 4));
    const Result few = lower_tensors(few_words);
    EXPECT_TRUE(few.ok) << messages(few);
    EXPECT_EQ(validate(few.words, vulkan_version_for(few_words)), "");
    const Result many = lower_tensors(assemble(with_binding_fanout(16, 24)));
    ASSERT_FALSE(many.ok);
    ASSERT_FALSE(many.diagnostics.empty());
    EXPECT_TRUE(contains(many.diagnostics.front().message, "need more than 256 copies")) << messages(many);
    EXPECT_TRUE(contains(many.diagnostics.front().instruction, "OpFunctionCall")) << messages(many);
}

// Tensor Operands whose ids are missing (the assembler refuses to write it: the words are cut).
TEST(ArmTensorsPass, TensorOperandsWithoutTheirIdsAreReported) {
    Words words = assemble(kHandWritten);
    const auto read = find_opcode(words, spv::OpTensorReadARM);
    ASSERT_TRUE(read.has_value());
    const uint32_t word_count = words[*read] >> 16;
    words.erase(words.begin() + static_cast<ptrdiff_t>(*read + word_count - 1));  // the scope id
    words[*read] = ((word_count - 1) << 16) | spv::OpTensorReadARM;
    const Result result = lower_tensors(words);
    ASSERT_FALSE(result.ok);
    ASSERT_FALSE(result.diagnostics.empty());
    EXPECT_TRUE(contains(messages(result), "OpTensorReadARM")) << messages(result);
}

TEST(ArmTensorsPass, NotEmulatedTheModuleStaysAsItIs) {
    const Words words = assemble(kHandWritten);
    EXPECT_EQ(scan_emulated_capabilities(words), bit(Emulated::ArmTensors));
    Target target;
    target.emulate = bit(Emulated::KhrCooperativeMatrix);
    const Result result = lower(words, target, {});
    ASSERT_TRUE(result.ok);
    EXPECT_FALSE(result.changed);
    EXPECT_EQ(result.words, words);
}

}  // namespace
}  // namespace vkpolyfill::lowering::test
