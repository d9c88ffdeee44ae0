#include "ir/type_manager.h"

#include <array>

namespace vkpolyfill::lowering::ir {

namespace {

// Constants whose value is fixed in the module: the only ones lookups may hand out.
bool is_fixed_constant(uint32_t opcode) {
    switch (opcode) {
        case spv::OpConstantTrue:
        case spv::OpConstantFalse:
        case spv::OpConstant:
        case spv::OpConstantComposite:
        case spv::OpConstantNull:
            return true;
        default:
            return false;
    }
}

bool is_type(const Instruction& instruction) {
    return instruction.info().instruction_class == grammar::InstructionClass::TypeDeclaration &&
           instruction.info().has_result;
}

std::vector<uint32_t> concat(uint32_t first, std::span<const uint32_t> rest) {
    std::vector<uint32_t> words{first};
    words.insert(words.end(), rest.begin(), rest.end());
    return words;
}

}  // namespace

TypeManager::TypeManager(Module& module) : module_(module) {
    for (const auto& annotation : module.annotations) {
        const auto words = annotation->words();
        switch (annotation->opcode()) {
            case spv::OpDecorationGroup:
                break;
            case spv::OpGroupDecorate:
                decorated_.insert(words.begin() + 2, words.end());
                break;
            case spv::OpGroupMemberDecorate:
                for (size_t i = 2; i < words.size(); i += 2) decorated_.insert(words[i]);
                break;
            default:
                decorated_.insert(words[1]);
                break;
        }
    }
    // A long composite's module has 100,000 constants: no rehashing them, now or when a pass adds a few.
    ids_.reserve(module.types_values_constants.size() * 2);
    for (const auto& instruction : module.types_values_constants) index(*instruction);
}

size_t TypeManager::WordsHash::operator()(const std::vector<uint32_t>& words) const {
    uint64_t hash = 0xcbf29ce484222325u;  // FNV-1a
    for (uint32_t word : words) hash = (hash ^ word) * 0x100000001b3u;
    return static_cast<size_t>(hash);
}

std::vector<uint32_t> TypeManager::key(uint32_t opcode, uint32_t type, std::span<const uint32_t> operands) {
    std::vector<uint32_t> words{opcode, type};
    words.insert(words.end(), operands.begin(), operands.end());
    return words;
}

void TypeManager::index(const Instruction& instruction) {
    if (!is_type(instruction) && !is_fixed_constant(instruction.opcode())) return;
    // A decorated array, struct, pointer or constant may be declared again, undecorated, for a pass;
    // any other type may be declared once only (SPIR-V 2.8), so even a decorated one is handed out.
    const bool may_repeat = !is_type(instruction) || instruction.opcode() == spv::OpTypeArray ||
                            instruction.opcode() == spv::OpTypeRuntimeArray || instruction.opcode() == spv::OpTypeStruct ||
                            instruction.opcode() == spv::OpTypePointer;
    if (may_repeat && decorated_.contains(instruction.result_id())) return;
    ids_.try_emplace(key(instruction.opcode(), instruction.type_id(), instruction.operand_words()),
                     instruction.result_id());
}

uint32_t TypeManager::find(uint32_t opcode, uint32_t type, std::span<const uint32_t> operands) const {
    const auto it = ids_.find(key(opcode, type, operands));
    return it != ids_.end() ? it->second : 0;
}

uint32_t TypeManager::get(uint32_t opcode, uint32_t type, std::span<const uint32_t> operands) {
    const uint32_t id = find(opcode, type, operands);
    return id ? id : create(opcode, type, operands);
}

uint32_t TypeManager::create(uint32_t opcode, uint32_t type, std::span<const uint32_t> operands) {
    const uint32_t id = module_.take_next_id();
    std::vector<uint32_t> words;
    if (type) words.push_back(type);
    words.push_back(id);
    words.insert(words.end(), operands.begin(), operands.end());
    auto& instruction = module_.types_values_constants.emplace_back(make_instruction(opcode, words));
    module_.register_definition(*instruction);
    index(*instruction);
    return id;
}

uint32_t TypeManager::get_equivalent(uint32_t opcode, uint32_t type, std::span<const uint32_t> operands) {
    return opcode == spv::OpTypeStruct ? create(opcode, type, operands) : get(opcode, type, operands);
}

void TypeManager::forget(const Instruction& definition) {
    const auto it = ids_.find(key(definition.opcode(), definition.type_id(), definition.operand_words()));
    if (it != ids_.end() && it->second == definition.result_id()) ids_.erase(it);
}

uint32_t TypeManager::find_type_void() const { return find(spv::OpTypeVoid, 0, {}); }
uint32_t TypeManager::get_type_void() { return get(spv::OpTypeVoid, 0, {}); }
uint32_t TypeManager::find_type_bool() const { return find(spv::OpTypeBool, 0, {}); }
uint32_t TypeManager::get_type_bool() { return get(spv::OpTypeBool, 0, {}); }

uint32_t TypeManager::find_type_int(uint32_t width, bool is_signed) const {
    return find(spv::OpTypeInt, 0, std::array{width, uint32_t{is_signed}});
}
uint32_t TypeManager::get_type_int(uint32_t width, bool is_signed) {
    return get(spv::OpTypeInt, 0, std::array{width, uint32_t{is_signed}});
}

// IEEE floats have no encoding operand, so the operand list is one word or two.
uint32_t TypeManager::find_type_float(FloatFormat format) const {
    const std::array operands{format.width, format.encoding.value_or(0)};
    return find(spv::OpTypeFloat, 0, std::span(operands).first(format.encoding ? 2 : 1));
}
uint32_t TypeManager::get_type_float(FloatFormat format) {
    const std::array operands{format.width, format.encoding.value_or(0)};
    return get(spv::OpTypeFloat, 0, std::span(operands).first(format.encoding ? 2 : 1));
}

uint32_t TypeManager::find_type_vector(uint32_t component_type, uint32_t component_count) const {
    return find(spv::OpTypeVector, 0, std::array{component_type, component_count});
}
uint32_t TypeManager::get_type_vector(uint32_t component_type, uint32_t component_count) {
    return get(spv::OpTypeVector, 0, std::array{component_type, component_count});
}

uint32_t TypeManager::find_type_array(uint32_t element_type, uint32_t length_constant) const {
    return find(spv::OpTypeArray, 0, std::array{element_type, length_constant});
}
uint32_t TypeManager::get_type_array(uint32_t element_type, uint32_t length_constant) {
    return get(spv::OpTypeArray, 0, std::array{element_type, length_constant});
}

uint32_t TypeManager::find_type_runtime_array(uint32_t element_type) const {
    return find(spv::OpTypeRuntimeArray, 0, std::array{element_type});
}
uint32_t TypeManager::get_type_runtime_array(uint32_t element_type) {
    return get(spv::OpTypeRuntimeArray, 0, std::array{element_type});
}

uint32_t TypeManager::find_type_struct(std::span<const uint32_t> member_types) const {
    return find(spv::OpTypeStruct, 0, member_types);
}
uint32_t TypeManager::create_type_struct(std::span<const uint32_t> member_types) {
    return create(spv::OpTypeStruct, 0, member_types);
}

uint32_t TypeManager::find_type_pointer(spv::StorageClass storage_class, uint32_t pointee_type) const {
    return find(spv::OpTypePointer, 0, std::array{uint32_t{storage_class}, pointee_type});
}
uint32_t TypeManager::get_type_pointer(spv::StorageClass storage_class, uint32_t pointee_type) {
    return get(spv::OpTypePointer, 0, std::array{uint32_t{storage_class}, pointee_type});
}

uint32_t TypeManager::find_type_function(uint32_t return_type, std::span<const uint32_t> parameter_types) const {
    return find(spv::OpTypeFunction, 0, concat(return_type, parameter_types));
}
uint32_t TypeManager::get_type_function(uint32_t return_type, std::span<const uint32_t> parameter_types) {
    return get(spv::OpTypeFunction, 0, concat(return_type, parameter_types));
}

uint32_t TypeManager::find_type_cooperative_matrix(const CooperativeMatrixType& type) const {
    return find(spv::OpTypeCooperativeMatrixKHR, 0,
                std::array{type.component_type, type.scope, type.rows, type.columns, type.use});
}
uint32_t TypeManager::get_type_cooperative_matrix(const CooperativeMatrixType& type) {
    return get(spv::OpTypeCooperativeMatrixKHR, 0,
               std::array{type.component_type, type.scope, type.rows, type.columns, type.use});
}

std::optional<FloatFormat> TypeManager::float_format(uint32_t type_id) const {
    const Instruction* type = module_.find_definition(type_id);
    if (!type || type->opcode() != spv::OpTypeFloat) return std::nullopt;
    const auto words = type->words();
    return FloatFormat{words[2], words.size() > 3 ? std::optional<uint32_t>(words[3]) : std::nullopt};
}

uint32_t TypeManager::find_constant(uint32_t type, std::span<const uint32_t> value) const {
    return find(spv::OpConstant, type, value);
}
uint32_t TypeManager::get_constant(uint32_t type, std::span<const uint32_t> value) {
    return get(spv::OpConstant, type, value);
}
uint32_t TypeManager::get_constant_uint32(uint32_t value) {
    return get_constant(get_type_int(32, false), std::array{value});
}
uint32_t TypeManager::get_constant_bool(bool value) {
    return get(value ? spv::OpConstantTrue : spv::OpConstantFalse, get_type_bool(), {});
}

uint32_t TypeManager::find_constant_null(uint32_t type) const { return find(spv::OpConstantNull, type, {}); }
uint32_t TypeManager::get_constant_null(uint32_t type) { return get(spv::OpConstantNull, type, {}); }

uint32_t TypeManager::find_constant_composite(uint32_t type, std::span<const uint32_t> constituents) const {
    return find(spv::OpConstantComposite, type, constituents);
}
uint32_t TypeManager::get_constant_composite(uint32_t type, std::span<const uint32_t> constituents) {
    return get(spv::OpConstantComposite, type, constituents);
}

}  // namespace vkpolyfill::lowering::ir
