#include "passes/arm_tensors/tensor_access.h"

#include <format>
#include <spirv/unified1/spirv.hpp>

#include "ir/instruction_text.h"
#include "specialization.h"
#include "vkpolyfill/lowering/arm_tensors.h"

namespace vkpolyfill::lowering::arm_tensors {
namespace {

constexpr uint32_t kSpirv14 = 0x00010400;
// Array accesses are unrolled element by element; the layer reports maxTensorShaderAccessArrayLength
// 16, and longer arrays are refused rather than unrolled into code that only grows.
constexpr uint32_t kMaxArrayElements = 256;

}  // namespace

void TensorAccess::report(std::string message, const ir::Instruction& at) {
    context_.diagnostics.error(std::move(message), at.source_offset(), ir::instruction_text(at.words(), context_.module));
}

std::optional<uint32_t> TensorAccess::rank(const TensorRef& ref, const ir::Instruction& at) {
    const ir::Instruction* tensor = context_.module.find_definition(ref.binding->tensor_type);
    if (tensor->words().size() < 4) {
        report("an unranked tensor is accessed (SPV_ARM_tensors requires a Rank)", at);
        return std::nullopt;
    }
    const auto rank = evaluate_constant(context_.module, tensor->word(3), context_.specialization);
    if (!rank || *rank == 0 || *rank > kMaxTensorRank) {
        report(std::format("a tensor's Rank is not a constant from 1 to {}, the highest rank emulated", kMaxTensorRank), at);
        return std::nullopt;
    }
    return static_cast<uint32_t>(*rank);
}

std::optional<CoordinatesInput> TensorAccess::coordinates(const ir::Instruction& at, uint32_t coordinates, uint32_t rank) {
    const ir::Module& module = context_.module;
    const ir::Instruction* array = module.find_definition(module.type_of(coordinates));
    const ir::Instruction* component = array && array->opcode() == spv::OpTypeArray ? module.find_definition(array->word(2)) : nullptr;
    const auto length = component ? evaluate_constant(module, array->word(3), context_.specialization) : std::nullopt;
    if (!component || component->opcode() != spv::OpTypeInt || length != rank) {
        report(std::format("the Coordinates are not an array of {} integers (the tensor's Rank)", rank), at);
        return std::nullopt;
    }
    return CoordinatesInput{coordinates, component->result_id(), rank, 1};
}

std::optional<TensorAccess::ValueShape> TensorAccess::value_shape(const ir::Instruction& at, uint32_t type, const TensorRef& ref) {
    const uint32_t element = ref.binding->storage.element_type;
    if (type == element) return ValueShape{1, false};
    const ir::Module& module = context_.module;
    const ir::Instruction* array = module.find_definition(type);
    if (array && array->opcode() == spv::OpTypeArray && array->word(2) == element) {
        const auto length = evaluate_constant(module, array->word(3), context_.specialization);
        if (length && *length > 0 && *length <= kMaxArrayElements) return ValueShape{static_cast<uint32_t>(*length), true};
    }
    report(std::format("the value is neither the tensor's Element Type nor an array of it with a constant length "
                       "from 1 to {}", kMaxArrayElements),
           at);
    return std::nullopt;
}

// Tensor Operands -> Memory Operands. Bits in increasing order, each with its following ids.
std::optional<TensorAccess::Operands> TensorAccess::operands(const ir::Instruction& at, size_t first_word, bool is_read) {
    Operands result;
    if (at.words().size() <= first_word) return result;
    const uint32_t mask = at.word(first_word);
    const uint32_t allowed = spv::TensorOperandsNontemporalARMMask | spv::TensorOperandsNonPrivateElementARMMask |
                             (is_read ? spv::TensorOperandsOutOfBoundsValueARMMask | spv::TensorOperandsMakeElementVisibleARMMask
                                      : spv::TensorOperandsMakeElementAvailableARMMask);
    size_t next = first_word + 1;
    const auto take_id = [&]() -> uint32_t { return next < at.words().size() ? at.word(next++) : 0; };
    uint32_t memory_mask = 0, available = 0, visible = 0;
    if (mask & ~allowed) {
        report(std::format("Tensor Operands 0x{:x} are not valid on {}", mask & ~allowed, at.name()), at);
        return std::nullopt;
    }
    // These three need the VulkanMemoryModel capability (SPV_ARM_tensors' table), and their memory
    // operands would need it in the lowered module too; spirv-val does not check it on the tensor form.
    const uint32_t memory_model_bits = spv::TensorOperandsNonPrivateElementARMMask | spv::TensorOperandsMakeElementAvailableARMMask |
                                       spv::TensorOperandsMakeElementVisibleARMMask;
    if ((mask & memory_model_bits) && !context_.module.has_capability(spv::CapabilityVulkanMemoryModel)) {
        report(std::format("Tensor Operands 0x{:x} need the VulkanMemoryModel capability, which the module does not declare",
                           mask & memory_model_bits),
               at);
        return std::nullopt;
    }
    if ((mask & spv::TensorOperandsNontemporalARMMask) && context_.module.header.version >= kSpirv14) {
        memory_mask |= spv::MemoryAccessNontemporalMask;  // a hint; SPIR-V before 1.4 has no way to give it
    }
    if (mask & spv::TensorOperandsOutOfBoundsValueARMMask) result.out_of_bounds = take_id();
    if (mask & spv::TensorOperandsMakeElementAvailableARMMask) {
        memory_mask |= spv::MemoryAccessMakePointerAvailableMask;
        available = take_id();
    }
    if (mask & spv::TensorOperandsMakeElementVisibleARMMask) {
        memory_mask |= spv::MemoryAccessMakePointerVisibleMask;
        visible = take_id();
    }
    if (mask & spv::TensorOperandsNonPrivateElementARMMask) memory_mask |= spv::MemoryAccessNonPrivatePointerMask;
    const bool missing = (mask & spv::TensorOperandsOutOfBoundsValueARMMask && result.out_of_bounds == 0) ||
                         (mask & spv::TensorOperandsMakeElementAvailableARMMask && available == 0) ||
                         (mask & spv::TensorOperandsMakeElementVisibleARMMask && visible == 0);
    if (missing || next != at.words().size()) {
        report("the Tensor Operands do not match the ids that follow them", at);
        return std::nullopt;
    }
    for (const uint32_t scope : {available, visible}) {
        // As on any other access, Device scope under the Vulkan memory model needs its capability.
        if (scope && evaluate_constant(context_.module, scope, context_.specialization) == spv::ScopeDevice) {
            context_.module.add_capability(spv::CapabilityVulkanMemoryModelDeviceScope);
        }
    }
    if (memory_mask) result.memory.push_back(memory_mask);
    if (available) result.memory.push_back(available);
    if (visible) result.memory.push_back(visible);
    return result;
}

std::optional<std::vector<ElementPosition>> TensorAccess::positions(ir::Builder& b, const ir::Instruction& at,
                                                                    const TensorRef& ref, uint32_t coordinates,
                                                                    uint32_t count, uint32_t shape_index) {
    const auto r = rank(ref, at);
    if (!r) return std::nullopt;
    auto input = this->coordinates(at, coordinates, *r);
    if (!input) return std::nullopt;
    input->count = count;
    return element_positions(b, context_, descriptors_, ref, shape_index, *input);
}

bool TensorAccess::read(ir::Builder& b, const ir::Instruction& read, const TensorRef& ref) {
    const auto shape = value_shape(read, read.type_id(), ref);
    const auto ops = shape ? operands(read, 5, true) : std::nullopt;
    if (!ops) return false;
    const ElementStorage& storage = ref.binding->storage;
    ir::TypeManager& types = context_.types;
    if (ops->out_of_bounds && context_.module.type_of(ops->out_of_bounds) != storage.element_type) {
        report("the OutOfBoundsValueARM is not of the tensor's Element Type", read);
        return false;
    }
    // Checked before anything is added, so a failed read leaves its block as it was.
    if (!rank(ref, read) || !coordinates(read, read.word(4), *rank(ref, read))) return false;
    const DescriptorAccess::Indexes indexes = descriptors_.indexes(b, ref);
    const auto positions = this->positions(b, read, ref, read.word(4), shape->count, indexes.shape);
    const uint32_t replacement = ops->out_of_bounds ? ops->out_of_bounds : types.get_constant_null(storage.element_type);
    const uint32_t u = types.get_type_int(32, false);
    std::vector<uint32_t> elements;
    for (uint32_t j = 0; j < shape->count; ++j) {
        const ElementPosition& at = (*positions)[j];
        const uint32_t offset = b.add(spv::OpSelect, u, {at.in_bounds, at.offset, types.get_constant_uint32(0)});
        const uint32_t pointer = descriptors_.data_pointer(b, *ref.binding, indexes.data, offset, ref.non_uniform);
        std::vector<uint32_t> load{pointer};
        load.insert(load.end(), ops->memory.begin(), ops->memory.end());
        const uint32_t stored = b.add(spv::OpLoad, storage.stored_type, load);
        if (ref.non_uniform) descriptors_.decorate_non_uniform(stored);
        const uint32_t value = element_from_stored(b, types, storage, stored);
        const bool last = !shape->array;
        elements.push_back(b.add(spv::OpSelect, storage.element_type, {at.in_bounds, value, replacement},
                                 last ? read.result_id() : 0));
    }
    if (shape->array) b.add(spv::OpCompositeConstruct, read.type_id(), elements, read.result_id());
    return true;
}

bool TensorAccess::write(ir::Builder& b, const ir::Instruction& write, const TensorRef& ref) {
    const uint32_t object = write.word(3);
    const auto shape = value_shape(write, context_.module.type_of(object), ref);
    const auto ops = shape ? operands(write, 4, false) : std::nullopt;
    if (!ops) return false;
    if (!rank(ref, write) || !coordinates(write, write.word(2), *rank(ref, write))) return false;
    const DescriptorAccess::Indexes indexes = descriptors_.indexes(b, ref);
    const auto positions = this->positions(b, write, ref, write.word(2), shape->count, indexes.shape);
    ir::TypeManager& types = context_.types;
    const ElementStorage& storage = ref.binding->storage;
    const uint32_t store = stores_.function(*ref.binding, indexes.data, ref.non_uniform, ops->memory);
    written_.insert(ref.binding->data_variable);
    for (uint32_t j = 0; j < shape->count; ++j) {
        const uint32_t element = shape->array ? b.add(spv::OpCompositeExtract, storage.element_type, {object, j}) : object;
        const ElementPosition& at = (*positions)[j];
        b.add(spv::OpFunctionCall, types.get_type_void(), {store, indexes.data, at.offset, at.in_bounds, element});
    }
    return true;
}

bool TensorAccess::query(ir::Builder& b, const ir::Instruction& query, const TensorRef& ref) {
    const auto r = rank(ref, query);
    if (!r) return false;
    const ir::Module& module = context_.module;
    const auto dimension = evaluate_constant(module, query.word(4), context_.specialization);
    if (!dimension || *dimension >= *r) {
        report(std::format("the Dimension is not a constant below the tensor's Rank {}", *r), query);
        return false;
    }
    const ir::Instruction* result = module.find_definition(query.type_id());
    if (!result || result->opcode() != spv::OpTypeInt) {
        report("the Result Type is not an integer type", query);
        return false;
    }
    const DescriptorAccess::Indexes indexes = descriptors_.indexes(b, ref);
    const uint32_t size =
        descriptors_.load_shape_word(b, ref, indexes.shape, kTensorShapeDimensionsWord + static_cast<uint32_t>(*dimension));
    ir::TypeManager& types = context_.types;
    const uint32_t width = result->word(2);
    const bool is_signed = result->word(3) != 0;
    uint32_t value = size;
    if (width != 32) value = b.add(spv::OpUConvert, types.get_type_int(width, false), {size}, is_signed ? 0 : query.result_id());
    if (is_signed) value = b.add(spv::OpBitcast, query.type_id(), {value}, query.result_id());
    if (value == size) b.add(spv::OpCopyObject, query.type_id(), {size}, query.result_id());
    return true;
}

}  // namespace vkpolyfill::lowering::arm_tensors
