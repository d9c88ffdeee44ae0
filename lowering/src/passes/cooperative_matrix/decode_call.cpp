#include "passes/cooperative_matrix/decode_call.h"

#include <format>
#include <spirv/unified1/spirv.hpp>

#include "passes/common/id_operands.h"
#include "passes/cooperative_matrix/block_layout.h"
#include "passes/cooperative_matrix/byte_address.h"
#include "passes/cooperative_matrix/decode_clone.h"
#include "passes/cooperative_matrix/word_view.h"

namespace vkpolyfill::lowering::cooperative_matrix {

namespace {

struct Signature {
    uint32_t return_type;
    uint32_t components;                // 1, or the vector's V
    std::vector<uint32_t> parameters;  // the function type's parameter types
};

const ir::Function* find_function(const ir::Module& module, uint32_t function) {
    for (const auto& candidate : module.functions) {
        if (candidate->id() == function) return candidate.get();
    }
    return nullptr;
}

size_t declared_parameters(const ir::Module& module, uint32_t function) {
    const ir::Function* found = find_function(module, function);
    return found ? found->declared_parameters() : 0;
}

// Whether the decode function refers to its block pointer at all. Only then does the pointer's value
// matter, and with it the block's size the spec steps it by: llama.cpp's MUL_MAT_ID GEMM gathers B
// rows by their coordinates through a decode function whose block is a runtime array it never reads.
bool uses_block_pointer(const ir::Module& module, uint32_t function) {
    const ir::Function* found = find_function(module, function);
    const auto parameter = std::ranges::find_if(found->header, [](const auto& i) { return i->opcode() == spv::OpFunctionParameter; });
    const uint32_t pointer = (*parameter)->result_id();
    bool used = false;
    found->for_each_instruction([&](const ir::Instruction& instruction) {
        used = used || refers_to(module, instruction, [&](uint32_t id) { return id == pointer; });
    });
    return used;
}

// The decode function's type, checked against the spec's rules for DecodeFunc (returns the matrix's
// component type) or DecodeVectorFunc (a vector of 2, 4 or 8 of them); both take a
// PhysicalStorageBuffer pointer and two uint[dimensions] arrays (by value or as Function pointers).
std::optional<Signature> signature(LoweringState& state, uint32_t function, const MatrixType& matrix, uint32_t dimensions,
                                   bool vector, std::string& why) {
    const ir::Module& module = state.module();
    const char* operand = vector ? "DecodeVectorFunc" : "DecodeFunc";
    const ir::Instruction* definition = module.find_definition(function);
    const ir::Instruction* type = definition && definition->opcode() == spv::OpFunction ? module.find_definition(definition->word(4)) : nullptr;
    const auto words = type ? type->operand_words() : std::span<const uint32_t>{};  // return type, parameter types
    const uint32_t coordinates = state.types().get_type_array(state.uint_type(), state.uint_constant(dimensions));
    const auto takes_coordinates = [&](uint32_t parameter) {
        return parameter == coordinates ||
               parameter == state.types().find_type_pointer(spv::StorageClassFunction, coordinates);
    };
    const ir::Instruction* pointer = words.size() == 4 ? module.find_definition(words[1]) : nullptr;
    if (!pointer || pointer->opcode() != spv::OpTypePointer || pointer->word(2) != spv::StorageClassPhysicalStorageBuffer ||
        !takes_coordinates(words[2]) || !takes_coordinates(words[3])) {
        why = std::format("{} must take a PhysicalStorageBuffer pointer and two uint[{}] arrays", operand, dimensions);
        return std::nullopt;
    }
    // spirv-val checks a function's parameters against its type only where it is called, and the
    // lowered code is what calls it.
    if (declared_parameters(module, function) != words.size() - 1) {
        why = std::format("{} declares {} parameters but its type has {}", operand, declared_parameters(module, function),
                          words.size() - 1);
        return std::nullopt;
    }
    uint32_t components = 1;
    if (vector) {
        const ir::Instruction* result = module.find_definition(words[0]);
        const bool is_vector = result && result->opcode() == spv::OpTypeVector && result->word(2) == matrix.component.type;
        components = is_vector ? result->word(3) : 0;
        if (components != 2 && components != 4 && components != 8) {
            why = "DecodeVectorFunc must return a vector of 2, 4 or 8 of the matrix's component type";
            return std::nullopt;
        }
    } else if (words[0] != matrix.component.type) {
        why = "DecodeFunc must return the matrix's component type";
        return std::nullopt;
    }
    return Signature{words[0], components, std::vector<uint32_t>(words.begin() + 1, words.end())};
}

// How many elements of the array the Pointer points into one decode block spans: the spec steps the
// function's pointer by the size of its pointee, whatever the array's element is.
std::optional<uint32_t> elements_per_block(LoweringState& state, uint32_t pointer_type, const AccessPath& path,
                                           std::string& why) {
    const std::optional<uint64_t> block = layout_bytes(state, state.module().find_definition(pointer_type)->word(3), why);
    const std::optional<uint32_t> stride = block ? indexed_array_stride(state.module(), path, why) : std::nullopt;
    if (!stride) return std::nullopt;
    if (*block == 0 || *stride == 0 || *block % *stride != 0 || *block / *stride > UINT32_MAX) {
        why = std::format("its decode blocks of {} bytes do not start on elements of the {}-byte array its pointer points into",
                          *block, *stride);
        return std::nullopt;
    }
    return uint32_t(*block / *stride);
}

}  // namespace

bool DecodeCall::check_signature(LoweringState& state, uint32_t function, const MatrixType& matrix, uint32_t dimensions,
                                 bool vector, std::string& why) {
    return signature(state, function, matrix, dimensions, vector, why).has_value();
}

std::optional<DecodeCall> DecodeCall::prepare(LoweringState& state, uint32_t function, const ElementAccess& access,
                                              const MatrixType& matrix, uint32_t dimensions, bool vector, std::string& why) {
    std::optional<Signature> checked = signature(state, function, matrix, dimensions, vector, why);
    if (!checked) return std::nullopt;
    const AccessPath& path = access.path();
    const bool physical = path.storage_class == spv::StorageClassPhysicalStorageBuffer;
    const bool descriptor = path.storage_class == spv::StorageClassStorageBuffer && path.base_is_global;
    const char* const wrong_source = "with DecodeFunc, the pointer must come from a PhysicalStorageBuffer pointer or a StorageBuffer descriptor";
    if (!physical && !descriptor) {
        why = wrong_source;
        return std::nullopt;
    }
    if (!uses_block_pointer(state.module(), function)) {
        return DecodeCall(state, function, checked->return_type, checked->components, std::move(checked->parameters), 1,
                          Block::Unused, 0);
    }
    const std::optional<uint32_t> per_block = elements_per_block(state, checked->parameters[0], path, why);
    if (!per_block) {
        why = std::format("{} %{} uses its pointer, which the spec steps by its block's size: {}",
                          vector ? "DecodeVectorFunc" : "DecodeFunc", function, why);
        return std::nullopt;
    }
    if (physical) {
        return DecodeCall(state, function, checked->return_type, checked->components, std::move(checked->parameters),
                          *per_block, Block::Pointer, 0);
    }
    const std::optional<uint32_t> view = binding_word_view(state, path.base);
    if (!view) {
        why = wrong_source;
        return std::nullopt;
    }
    // The block's byte offset must be computable from the layout decorations: check on scratch code.
    const ir::Module& module = state.module();
    ir::BasicBlock scratch;
    ir::Builder b(state.module(), scratch, 0);
    uint32_t reached = module.find_definition(module.type_of(path.base))->word(3);
    if (!ByteAddress(state, *view).offset(b, state.uint_constant(0), reached, path.indices, why)) return std::nullopt;
    const uint32_t clone = decode_through_words(state, function, *view, why);
    if (!clone) return std::nullopt;
    return DecodeCall(state, clone, checked->return_type, checked->components, std::move(checked->parameters), *per_block,
                      Block::ByteOffset, *view);
}

uint32_t DecodeCall::block_argument(ir::Builder& b, ElementAccess& access, const ElementAccess::Bound& bound, uint32_t index) const {
    if (block_ == Block::Unused) return b.add(spv::OpUndef, parameter_types_[0], {});
    const uint32_t u = state_->uint_type();
    const uint32_t blocks = elements_per_block_ == 1 ? index : b.add(spv::OpIMul, u, {index, state_->uint_constant(elements_per_block_)});
    const uint32_t element = b.add(spv::OpIAdd, u, {bound.first, blocks});
    if (block_ == Block::ByteOffset) {
        std::vector<uint32_t> indices = bound.indices;
        indices.back() = element;
        const ir::Module& module = state_->module();
        uint32_t reached = module.find_definition(module.type_of(access.path().base))->word(3);
        std::string unused;  // prepare() checked the chain
        return *ByteAddress(*state_, words_).offset(b, state_->uint_constant(0), reached, indices, unused);
    }
    const uint32_t block = access.array_element(b, bound, element).pointer;
    const uint32_t type = state_->module().type_of(block);
    return type == parameter_types_[0] ? block : b.add(spv::OpBitcast, parameter_types_[0], {block});
}

uint32_t DecodeCall::call(ir::Builder& b, ElementAccess& access, const ElementAccess::Bound& bound, uint32_t index,
                          uint32_t block_coordinates, uint32_t coordinates_in_block) const {
    const uint32_t block = block_argument(b, access, bound, index);
    std::vector<uint32_t> call{callee_, block};
    for (size_t i = 1; i < 3; ++i) {
        const uint32_t variable = i == 1 ? block_coordinates : coordinates_in_block;
        const ir::Instruction* parameter = state_->module().find_definition(parameter_types_[i]);
        call.push_back(parameter->opcode() == spv::OpTypePointer ? variable : b.add(spv::OpLoad, parameter_types_[i], {variable}));
    }
    return b.add(spv::OpFunctionCall, return_type_, call);
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
