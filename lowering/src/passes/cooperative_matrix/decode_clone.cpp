#include "passes/cooperative_matrix/decode_clone.h"

#include <algorithm>
#include <format>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <vector>

#include "ir/builder.h"
#include "ir/decorations.h"
#include "ir/operand_walker.h"
#include "passes/cooperative_matrix/byte_address.h"
#include "passes/cooperative_matrix/element_access.h"

namespace vkpolyfill::lowering::cooperative_matrix {
namespace {

// What a clone makes of each parameter of the function it copies.
enum class Parameter : uint32_t {
    Keep,          // as it is
    Offset,        // a PhysicalStorageBuffer pointer into the block: its byte offset, a uint
    OffsetHolder,  // a Function variable holding such a pointer (how glslang passes one on): a uint variable
};

// The functions being cloned for one DecodeFunc, the outermost first (a clone of a callee is made
// inside its caller's), and how many clones it took so far.
struct CallChain {
    std::vector<uint32_t> functions;
    size_t clones = 0;
};

uint32_t clone_for_words(LoweringState& state, uint32_t function, uint32_t words, const std::vector<Parameter>& parameters,
                         CallChain& chain, std::string& why);

class DecodeClone {
  public:
    DecodeClone(LoweringState& state, uint32_t words, CallChain& chain)
        : state_(state), module_(state.module()), words_(words), address_(state, words), chain_(chain) {}

    uint32_t clone(const ir::Function& original, const std::vector<Parameter>& parameters, std::string& why) {
        original.for_each_instruction([&](const ir::Instruction& instruction) {
            if (const uint32_t id = instruction.result_id()) ids_[id] = module_.take_next_id();
        });
        auto copy = std::make_unique<ir::Function>();
        const ir::Instruction& header = *original.header.front();
        std::vector<uint32_t> parameter_types;
        std::vector<std::pair<const ir::Instruction*, uint32_t>> parameter_words;  // original, the clone's type
        for (size_t i = 1; i < original.header.size(); ++i) {
            const ir::Instruction& parameter = *original.header[i];
            if (parameter.opcode() != spv::OpFunctionParameter) continue;
            const Parameter kind = parameter_words.size() < parameters.size() ? parameters[parameter_words.size()] : Parameter::Keep;
            uint32_t type = parameter.type_id();
            if (kind == Parameter::Offset) {
                if (!is_physical_pointer(type)) {
                    fail(why, "a pointer argument's parameter is not a PhysicalStorageBuffer pointer");
                    return 0;
                }
                tracked_[parameter.result_id()] = {ids_.at(parameter.result_id()), pointee(type)};
                type = state_.uint_type();
            } else if (kind == Parameter::OffsetHolder) {
                if (!holds_physical_pointer(type)) {
                    fail(why, "a pointer variable's parameter does not hold a pointer");
                    return 0;
                }
                variables_[parameter.result_id()] = pointee(pointee(type));
                type = state_.types().get_type_pointer(spv::StorageClassFunction, state_.uint_type());
            }
            parameter_types.push_back(type);
            parameter_words.emplace_back(&parameter, type);
        }
        // The clone's type comes from the declared parameters, its calls pass one argument per parameter
        // of the original's type.
        const ir::Instruction* original_type = module_.find_definition(header.word(4));
        const size_t typed = original_type ? original_type->operand_words().size() - 1 : 0;
        if (typed != original.declared_parameters()) {
            fail(why, std::format("%{} declares {} parameters where its type has {}", header.result_id(), original.declared_parameters(), typed));
            return 0;
        }
        const uint32_t function_type = state_.types().get_type_function(header.type_id(), parameter_types);
        const uint32_t function_words[] = {header.type_id(), ids_.at(header.result_id()), header.word(3), function_type};
        add(copy->header, spv::OpFunction, function_words);
        for (const auto& [parameter, type] : parameter_words) {
            const uint32_t words[] = {type, ids_.at(parameter->result_id())};
            add(copy->header, spv::OpFunctionParameter, words);
        }
        for (const ir::BasicBlock& block : original.blocks) {
            ir::BasicBlock& to = copy->blocks.emplace_back();
            for (const auto& instruction : block.instructions) {
                if (!rewrite(to, *instruction, why)) return 0;
            }
            for (const auto& instruction : block.trailing) copy_instruction(to.trailing, *instruction);
        }
        for (const auto& instruction : original.epilogue) copy_instruction(copy->epilogue, *instruction);
        module_.functions.push_back(std::move(copy));
        return ids_.at(header.result_id());
    }

  private:
    struct Tracked {
        uint32_t offset;   // the byte offset (a uint id in the clone)
        uint32_t pointee;  // the type the pointer points to
    };

    uint32_t pointee(uint32_t pointer_type) const { return module_.find_definition(pointer_type)->word(3); }
    bool is_physical_pointer(uint32_t type) const {
        const ir::Instruction* definition = module_.find_definition(type);
        return definition && definition->opcode() == spv::OpTypePointer && definition->word(2) == spv::StorageClassPhysicalStorageBuffer;
    }
    // A Function variable holding a PhysicalStorageBuffer pointer.
    bool holds_physical_pointer(uint32_t type) const {
        const ir::Instruction* definition = module_.find_definition(type);
        return definition && definition->opcode() == spv::OpTypePointer && definition->word(2) == spv::StorageClassFunction &&
               is_physical_pointer(definition->word(3));
    }

    void add(ir::InstructionList& list, uint32_t opcode, std::span<const uint32_t> words) {
        list.push_back(ir::make_instruction(opcode, words));
        module_.register_definition(*list.back());
    }

    // The instruction with the clone's ids.
    void copy_instruction(ir::InstructionList& list, const ir::Instruction& instruction) {
        std::vector<uint32_t> words(instruction.words().begin(), instruction.words().end());
        std::vector<ir::Operand> operands;
        ir::walk_operands(instruction.words(), module_, operands);
        for (const ir::Operand& operand : operands) {
            if (!ir::is_id(operand.kind)) continue;
            const auto mapped = ids_.find(words[operand.first_word]);
            if (mapped != ids_.end()) words[operand.first_word] = mapped->second;
        }
        add(list, instruction.opcode(), std::span(words).subspan(1));
    }

    bool rewrite(ir::BasicBlock& to, const ir::Instruction& instruction, std::string& why) {
        const auto operands = instruction.operand_words();
        const uint32_t opcode = instruction.opcode();
        const uint32_t result = instruction.result_id();
        const auto tracked = [&](size_t i) { return i < operands.size() ? tracked_.find(operands[i]) : tracked_.end(); };
        ir::Builder b(module_, to, to.instructions.size());
        if (opcode == spv::OpVariable && holds_physical_pointer(instruction.type_id())) {
            b.add(spv::OpVariable, state_.types().get_type_pointer(spv::StorageClassFunction, state_.uint_type()),
                  {spv::StorageClassFunction}, ids_.at(result));
            variables_[result] = pointee(pointee(instruction.type_id()));
            return true;
        }
        if (opcode == spv::OpStore && variables_.contains(operands[0]) && tracked_.contains(operands[1])) {
            b.add(spv::OpStore, 0, {ids_.at(operands[0]), tracked_.at(operands[1]).offset});
            return true;
        }
        if (opcode == spv::OpLoad && variables_.contains(operands[0])) {
            tracked_[result] = {b.add(spv::OpLoad, state_.uint_type(), {ids_.at(operands[0])}), variables_.at(operands[0])};
            return true;
        }
        const auto base = tracked(0);
        if (base != tracked_.end()) {
            const Tracked from = base->second;
            switch (opcode) {
                case spv::OpAccessChain:
                case spv::OpInBoundsAccessChain:
                case spv::OpPtrAccessChain:
                case spv::OpInBoundsPtrAccessChain: {
                    std::vector<uint32_t> indices;
                    for (size_t i = 1; i < operands.size(); ++i) indices.push_back(mapped(operands[i]));
                    if (!is_physical_pointer(instruction.type_id())) {
                        return fail(why, std::format("its {} from the pointer does not give a PhysicalStorageBuffer pointer", instruction.name()));
                    }
                    uint32_t at = from.offset, type = from.pointee;
                    if (opcode == spv::OpPtrAccessChain || opcode == spv::OpInBoundsPtrAccessChain) {
                        // Element: whole pointees, by the pointer type's ArrayStride.
                        const std::optional<uint32_t> stride =
                            ir::find_decoration(module_, module_.type_of(operands[0]), spv::DecorationArrayStride);
                        if (!stride) return fail(why, "an OpPtrAccessChain through a pointer type without ArrayStride");
                        if (!is_integer_scalar(module_, indices.front())) return fail(why, "its OpPtrAccessChain's Element is not a scalar integer");
                        const uint32_t u = state_.uint_type();
                        at = b.add(spv::OpIAdd, u, {at, b.add(spv::OpIMul, u, {as_uint(state_, b, indices.front()), state_.uint_constant(*stride)})});
                        indices.erase(indices.begin());
                    }
                    const std::optional<uint32_t> reached = address_.offset(b, at, type, indices, why);
                    if (!reached) return false;
                    tracked_[result] = {*reached, pointee(instruction.type_id())};
                    return true;
                }
                case spv::OpBitcast:
                case spv::OpCopyObject:
                    if (!is_physical_pointer(instruction.type_id())) break;
                    tracked_[result] = {from.offset, pointee(instruction.type_id())};
                    return true;
                case spv::OpLoad: {
                    const std::optional<uint32_t> value = address_.load(b, instruction.type_id(), from.offset, why);
                    if (!value) return false;
                    b.add(spv::OpCopyObject, instruction.type_id(), {*value}, ids_.at(result));
                    return true;
                }
                default:
                    break;
            }
        }
        if (opcode == spv::OpFunctionCall) return call(to, b, instruction, why);
        for (size_t i = 0; i < operands.size(); ++i) {
            if (tracked_.contains(operands[i]) || variables_.contains(operands[i])) {
                return fail(why, std::format("its pointer reaches {}", instruction.name()));
            }
        }
        copy_instruction(to.instructions, instruction);
        return true;
    }

    // A call passing the pointer on (or a variable holding it) calls a clone of the callee that takes
    // the offset instead; any other call is copied.
    bool call(ir::BasicBlock& to, ir::Builder& b, const ir::Instruction& instruction, std::string& why) {
        const auto operands = instruction.operand_words();
        if (operands.empty() || tracked_.contains(operands[0]) || variables_.contains(operands[0])) {
            return fail(why, "its pointer reaches OpFunctionCall as the function to call");
        }
        std::vector<Parameter> parameters;
        std::vector<uint32_t> arguments{0};
        for (size_t i = 1; i < operands.size(); ++i) {
            if (const auto it = tracked_.find(operands[i]); it != tracked_.end()) {
                parameters.push_back(Parameter::Offset);
                arguments.push_back(it->second.offset);
            } else if (variables_.contains(operands[i])) {
                parameters.push_back(Parameter::OffsetHolder);
                arguments.push_back(ids_.at(operands[i]));
            } else {
                parameters.push_back(Parameter::Keep);
                arguments.push_back(mapped(operands[i]));
            }
        }
        if (std::ranges::all_of(parameters, [](Parameter p) { return p == Parameter::Keep; })) {
            copy_instruction(to.instructions, instruction);
            return true;
        }
        if (is_physical_pointer(instruction.type_id())) return fail(why, "a function it passes its pointer to returns a pointer");
        arguments[0] = clone_for_words(state_, operands[0], words_, parameters, chain_, why);
        if (arguments[0] == 0) return false;
        b.add(spv::OpFunctionCall, instruction.type_id(), arguments, ids_.at(instruction.result_id()));
        return true;
    }

    uint32_t mapped(uint32_t id) const {
        const auto it = ids_.find(id);
        return it != ids_.end() ? it->second : id;
    }

    static bool fail(std::string& why, std::string message) {
        why = std::move(message);
        return false;
    }

    LoweringState& state_;
    ir::Module& module_;
    uint32_t words_;
    ByteAddress address_;
    CallChain& chain_;
    std::unordered_map<uint32_t, uint32_t> ids_;          // original -> clone
    std::unordered_map<uint32_t, Tracked> tracked_;       // original pointer values -> their offsets
    std::unordered_map<uint32_t, uint32_t> variables_;    // original pointer variables -> the pointee of what they hold
};

uint32_t clone_for_words(LoweringState& state, uint32_t function, uint32_t words, const std::vector<Parameter>& parameters,
                         CallChain& chain, std::string& why) {
    // spirv-val lets a function call itself, which Vulkan forbids; a clone is made per call depth on
    // the native stack, so the depth is bounded as well.
    constexpr size_t kMaxCallDepth = 64;
    // A clone per function and kind of its parameters: functions that pass their pointers on in
    // different places reach 2^parameters kinds; real decode functions take a handful.
    constexpr size_t kMostClones = 256;
    if (std::ranges::find(chain.functions, function) != chain.functions.end()) {
        why = std::format("DecodeFunc reaches %{} again through the calls it passes its pointer to (recursion)", function);
        return 0;
    }
    if (chain.functions.size() == kMaxCallDepth) {
        why = std::format("DecodeFunc passes its pointer down more than {} nested calls", kMaxCallDepth);
        return 0;
    }
    std::vector<uint32_t> key{0x44434F44u /* "DCOD" */, function, words};
    for (Parameter p : parameters) key.push_back(static_cast<uint32_t>(p));
    if (const uint32_t existing = state.find_function(key)) return existing;
    if (++chain.clones > kMostClones) {
        why = std::format("DecodeFunc needs more than {} copies of the functions it passes its pointer to", kMostClones);
        return 0;
    }
    const ir::Function* original = nullptr;
    for (const auto& candidate : state.module().functions) {
        if (candidate->id() == function) original = candidate.get();
    }
    if (!original) {
        why = "DecodeFunc (or a function it calls) is not a function of the module";
        return 0;
    }
    chain.functions.push_back(function);
    const uint32_t clone = DecodeClone(state, words, chain).clone(*original, parameters, why);
    chain.functions.pop_back();
    if (clone) state.remember_function(std::move(key), clone);
    return clone;
}

}  // namespace

uint32_t decode_through_words(LoweringState& state, uint32_t function, uint32_t words, std::string& why) {
    CallChain chain;
    return clone_for_words(state, function, words, {Parameter::Offset}, chain, why);
}

}  // namespace vkpolyfill::lowering::cooperative_matrix
