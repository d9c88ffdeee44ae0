#include "passes/arm_tensors/tensor_uses.h"

#include <algorithm>
#include <format>
#include <optional>
#include <spirv/unified1/spirv.hpp>
#include <vector>

#include "ir/function_clone.h"
#include "ir/instruction_text.h"
#include "passes/common/id_operands.h"

namespace vkpolyfill::lowering::arm_tensors {
namespace {

struct ParameterKey {
    const TensorBinding* binding;
    bool non_uniform;
    bool operator==(const ParameterKey&) const = default;
};

class UseRewriter {
  public:
    UseRewriter(PassContext& context, const std::unordered_map<uint32_t, TensorBinding>& bindings,
                const std::unordered_set<uint32_t>& tensor_types, TensorAccess& access)
        : context_(context), module_(context.module), tensor_types_(tensor_types), access_(access) {
        const uint32_t zero = context.types.get_constant_uint32(0);
        for (const auto& [variable, binding] : bindings) refs_[variable] = {&binding, zero, false};
        for (const auto& annotation : module_.annotations) {
            if (annotation->opcode() == spv::OpDecorate && annotation->word(2) == spv::DecorationNonUniform) {
                non_uniform_.insert(annotation->word(1));
            }
        }
    }

    std::unordered_set<uint32_t> run() {
        order_ = callers_first();
        for (size_t i = 0; i < order_.size(); ++i) {  // clones join the order as calls make them
            ir::Function& function = *order_[i];
            if (!rewrite_parameters(function)) continue;
            access_.descriptors().begin_function(function);
            for (ir::BasicBlock& block : function.blocks) rewrite_block(block);
            access_.descriptors().end_function();
        }
        std::erase_if(module_.functions, [&](const auto& f) { return removed_.contains(f->id()); });
        return std::move(removed_);
    }

  private:
    void report(std::string message, const ir::Instruction& at) {
        context_.diagnostics.error(std::move(message), at.source_offset(), ir::instruction_text(at.words(), module_));
    }

    // Every function after all its callers (SPIR-V forbids recursion): a tensor parameter's binding is
    // known from the calls by the time its function is rewritten. A depth-first post-order kept on the
    // heap, so a malformed module's chain of thousands of calls cannot exhaust the stack.
    std::vector<ir::Function*> callers_first() {
        std::unordered_map<uint32_t, ir::Function*> by_id;
        for (const auto& function : module_.functions) by_id[function->id()] = function.get();
        const auto callees = [&](const ir::Function& function) {
            std::vector<ir::Function*> found;
            function.for_each_instruction([&](const ir::Instruction& i) {
                if (i.opcode() != spv::OpFunctionCall) return;
                if (const auto callee = by_id.find(i.word(3)); callee != by_id.end()) found.push_back(callee->second);
            });
            return found;
        };
        std::vector<ir::Function*> post_order;
        std::unordered_set<const ir::Function*> visited;
        struct Frame {
            ir::Function* function;
            std::vector<ir::Function*> callees;
            size_t next = 0;
        };
        for (const auto& root : module_.functions) {
            if (!visited.insert(root.get()).second) continue;
            std::vector<Frame> stack;
            stack.push_back({root.get(), callees(*root)});
            while (!stack.empty()) {
                Frame& top = stack.back();
                if (top.next == top.callees.size()) {
                    post_order.push_back(top.function);
                    stack.pop_back();
                    continue;
                }
                ir::Function* callee = top.callees[top.next++];
                if (visited.insert(callee).second) stack.push_back({callee, callees(*callee)});
            }
        }
        return {post_order.rbegin(), post_order.rend()};
    }

    // Tensor parameters become uint indexes. Returns false for a function nothing calls with tensors,
    // which is removed: nothing says which binding its tensors would come from.
    bool rewrite_parameters(ir::Function& function) {
        const uint32_t u = context_.types.get_type_int(32, false);
        const auto keys = call_keys_.find(function.id());
        std::vector<uint32_t> parameter_types;
        bool changed = false;
        size_t index = 0;
        for (size_t i = 1; i < function.header.size(); ++i) {
            ir::Instruction& parameter = *function.header[i];
            if (parameter.opcode() != spv::OpFunctionParameter) continue;
            const size_t k = index++;
            if (!tensor_types_.contains(parameter.type_id())) {
                parameter_types.push_back(parameter.type_id());
                continue;
            }
            if (keys == call_keys_.end() || k >= keys->second.size() || !keys->second[k]) {
                function.for_each_instruction([&](const ir::Instruction& instruction) {
                    if (const uint32_t id = instruction.result_id()) removed_.insert(id);
                });
                return false;
            }
            refs_[parameter.result_id()] = {keys->second[k]->binding, parameter.result_id(), keys->second[k]->non_uniform};
            parameter.set_word(1, u);
            parameter_types.push_back(u);
            changed = true;
        }
        if (changed) {
            ir::Instruction& header = *function.header.front();
            // The new type comes from the declared parameters, the calls pass one argument per parameter
            // of the old one.
            const ir::Instruction* type = module_.find_definition(header.word(4));
            if (!type || type->operand_words().size() - 1 != parameter_types.size()) {
                report(std::format("the function takes a tensor and declares {} parameters, not those of its type", parameter_types.size()),
                       header);
                return true;
            }
            header.set_word(4, context_.types.get_type_function(header.type_id(), parameter_types));
        }
        return true;
    }

    // A uint id for an integer index (a constant stays a constant).
    uint32_t as_uint(ir::Builder& b, uint32_t id) {
        ir::TypeManager& types = context_.types;
        const ir::Instruction* definition = module_.find_definition(id);
        const ir::Instruction* type = module_.find_definition(module_.type_of(id));
        if (definition && definition->opcode() == spv::OpConstant) return types.get_constant_uint32(definition->word(3));
        const uint32_t u = types.get_type_int(32, false);
        if (type->word(2) != 32) return b.add(spv::OpUConvert, u, {id});
        return type->word(3) ? b.add(spv::OpBitcast, u, {id}) : id;
    }

    const TensorRef* ref_of(uint32_t id) const {
        const auto it = refs_.find(id);
        return it == refs_.end() ? nullptr : &it->second;
    }

    void rewrite_block(ir::BasicBlock& block) {
        for (size_t i = 0; i < block.instructions.size();) {
            ir::Instruction& instruction = *block.instructions[i];
            ir::Builder b(module_, block, i);
            const std::optional<bool> handled = rewrite(b, instruction);
            if (!handled || !*handled) {
                if (!handled) check_no_tensor(instruction);
                ++i;
                continue;
            }
            // A read's or query's result id lives on in its replacement; the others' ids are gone, and
            // must not resolve to the erased instruction for the rewrites still to come.
            const uint32_t opcode = instruction.opcode();
            if (opcode != spv::OpTensorReadARM && opcode != spv::OpTensorQuerySizeARM) {
                removed_.insert(instruction.result_id());
                module_.forget_definition(instruction.result_id());
            }
            i = b.position();
            block.instructions.erase(block.instructions.begin() + static_cast<ptrdiff_t>(i));
        }
    }

    // true: lowered, the instruction is to go; false: kept (a failed lowering was reported);
    // nullopt: not a tensor instruction.
    std::optional<bool> rewrite(ir::Builder& b, ir::Instruction& instruction) {
        switch (instruction.opcode()) {
            case spv::OpLoad:
            case spv::OpCopyObject: {
                const TensorRef* ref = ref_of(instruction.word(3));
                if (!ref) return std::nullopt;
                TensorRef value = *ref;
                value.non_uniform |= non_uniform_.contains(instruction.result_id());
                refs_[instruction.result_id()] = value;
                return true;
            }
            case spv::OpAccessChain:
            case spv::OpInBoundsAccessChain:
                return access_chain(b, instruction);
            case spv::OpFunctionCall:
                call(instruction);
                return false;
            case spv::OpTensorReadARM:
            case spv::OpTensorQuerySizeARM:
            case spv::OpTensorWriteARM: {
                const bool is_write = instruction.opcode() == spv::OpTensorWriteARM;
                const TensorRef* ref = ref_of(instruction.word(is_write ? 1 : 3));
                if (!ref) {
                    report("the Tensor does not come from a tensor variable", instruction);
                    return false;
                }
                if (is_write) return access_.write(b, instruction, *ref);
                if (instruction.opcode() == spv::OpTensorReadARM) return access_.read(b, instruction, *ref);
                return access_.query(b, instruction, *ref);
            }
            default:
                return std::nullopt;
        }
    }

    std::optional<bool> access_chain(ir::Builder& b, const ir::Instruction& chain) {
        const TensorRef* base = ref_of(chain.word(3));
        if (!base) return std::nullopt;
        const ir::Instruction* pointer = module_.find_definition(chain.type_id());
        const ir::Instruction* pointee =
            pointer && pointer->opcode() == spv::OpTypePointer ? module_.find_definition(pointer->word(3)) : nullptr;
        const ir::Instruction* index_type =
            chain.words().size() == 5 ? module_.find_definition(module_.type_of(chain.word(4))) : nullptr;
        if (!pointee || pointee->opcode() != spv::OpTypeTensorARM || !index_type || index_type->opcode() != spv::OpTypeInt) {
            report("an access chain into tensors is not one integer index into an array of tensors", chain);
            return false;
        }
        const TensorRef array = *base;  // refs_ may grow below
        const uint32_t index = chain.word(4);
        uint32_t element = as_uint(b, index);
        const ir::Instruction* first = module_.find_definition(array.element);
        if (!first || first->opcode() != spv::OpConstant || first->word(3) != 0) {
            element = b.add(spv::OpIAdd, context_.types.get_type_int(32, false), {array.element, element});
        }
        const bool non_uniform = array.non_uniform || non_uniform_.contains(index) || non_uniform_.contains(chain.result_id());
        refs_[chain.result_id()] = {array.binding, element, non_uniform};
        return true;
    }

    // Tensor arguments become their index; the callee's parameters take their bindings. A callee
    // already called with other bindings (or uniformity) is cloned for these: each function then
    // reads one binding per tensor parameter.
    void call(ir::Instruction& call) {
        std::vector<std::optional<ParameterKey>> keys;
        for (size_t w = 4; w < call.words().size(); ++w) {
            const TensorRef* ref = ref_of(call.word(w));
            keys.push_back(ref ? std::optional<ParameterKey>({ref->binding, ref->non_uniform}) : std::nullopt);
            if (ref) call.set_word(w, ref->element);
        }
        if (std::ranges::none_of(keys, [](const auto& key) { return key.has_value(); })) return;
        if (std::ranges::find(order_, call.word(3), &ir::Function::id) == order_.end()) {
            report("a tensor is passed to something that is not a function of the module", call);
            return;
        }
        const uint32_t function = instance(call.word(3), keys);
        if (function == 0) {
            report(std::format("the tensors passed to functions need more than {} copies of them (one per set of bindings)", kMostClones),
                   call);
            return;
        }
        call.set_word(3, function);
    }

    // The function to call for `keys`: the original for its first keys, else a clone made for them;
    // 0 past kMostClones clones.
    uint32_t instance(uint32_t callee, const std::vector<std::optional<ParameterKey>>& keys) {
        std::vector<Instance>& instances = instances_[callee];
        for (const Instance& known : instances) {
            if (known.keys == keys) return known.function;
        }
        uint32_t function = callee;
        if (!instances.empty()) {
            if (++clones_ > kMostClones) return 0;
            const auto original = std::ranges::find(order_, callee, &ir::Function::id);
            ir::IdMap ids;
            ir::Function& clone = ir::clone_function(module_, **original, ids);
            for (const auto& [from, to] : ids) {
                if (non_uniform_.contains(from)) non_uniform_.insert(to);
            }
            order_.insert(original + 1, &clone);  // after every caller, before every callee
            function = clone.id();
        }
        instances.push_back({keys, function});
        call_keys_[function] = keys;
        return function;
    }

    void check_no_tensor(const ir::Instruction& instruction) {
        if (refers_to(module_, instruction, [&](uint32_t id) { return refs_.contains(id) || tensor_types_.contains(id); })) {
            report(std::format("a tensor is used by {}, which the SPV_ARM_tensors lowering does not support", instruction.name()),
                   instruction);
        }
    }

    PassContext& context_;
    ir::Module& module_;
    const std::unordered_set<uint32_t>& tensor_types_;
    TensorAccess& access_;
    std::unordered_map<uint32_t, TensorRef> refs_;
    std::unordered_set<uint32_t> non_uniform_;  // ids decorated NonUniform
    std::unordered_map<uint32_t, std::vector<std::optional<ParameterKey>>> call_keys_;  // function -> per parameter
    struct Instance {
        std::vector<std::optional<ParameterKey>> keys;
        uint32_t function;
    };
    std::unordered_map<uint32_t, std::vector<Instance>> instances_;  // original function -> its versions
    // Functions passing tensors on in different places reach 2^parameters sets of bindings; real
    // shaders call a function with a handful.
    static constexpr size_t kMostClones = 256;
    size_t clones_ = 0;
    std::vector<ir::Function*> order_;  // callers first
    std::unordered_set<uint32_t> removed_;
};

}  // namespace

std::unordered_set<uint32_t> rewrite_tensor_uses(PassContext& context, const std::unordered_map<uint32_t, TensorBinding>& bindings,
                                                 const std::unordered_set<uint32_t>& tensor_types, TensorAccess& access) {
    return UseRewriter(context, bindings, tensor_types, access).run();
}

}  // namespace vkpolyfill::lowering::arm_tensors
