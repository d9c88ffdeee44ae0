// Finds and makes the module's types and constants, named as in the validation layers' GPU-AV IR:
//   find_*   returns the id of an existing one, 0 if the module has none;
//   get_*    finds one or makes it;
//   create_* always makes one (structs: SPIR-V never merges two struct types).
// Lookups key on an instruction's words without its result id. Arrays, structs, pointers and
// constants the module decorates (an array with ArrayStride, a Block struct) are never handed out:
// what a pass asks for is a plain type it can use in any storage class. Other types are declared
// once only, decorated or not. New types and constants go at the end of the types section; adding the
// capabilities they need is the caller's job.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <spirv/unified1/spirv.hpp>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/module.h"

namespace vkpolyfill::lowering::ir {

// A float type is its width and its encoding (FPEncoding operand); no encoding is IEEE 754.
struct FloatFormat {
    uint32_t width;
    std::optional<uint32_t> encoding;
    bool operator==(const FloatFormat&) const = default;
};
inline constexpr FloatFormat kFloat16{16, std::nullopt};
inline constexpr FloatFormat kFloat32{32, std::nullopt};
inline constexpr FloatFormat kBFloat16{16, spv::FPEncodingBFloat16KHR};
inline constexpr FloatFormat kFloat8E4M3{8, spv::FPEncodingFloat8E4M3EXT};
inline constexpr FloatFormat kFloat8E5M2{8, spv::FPEncodingFloat8E5M2EXT};

// OpTypeCooperativeMatrixKHR's operands; all but the component type are ids of constants.
struct CooperativeMatrixType {
    uint32_t component_type;
    uint32_t scope;
    uint32_t rows;
    uint32_t columns;
    uint32_t use;
};

class TypeManager {
  public:
    explicit TypeManager(Module& module);

    uint32_t find_type_void() const;
    uint32_t get_type_void();
    uint32_t find_type_bool() const;
    uint32_t get_type_bool();
    uint32_t find_type_int(uint32_t width, bool is_signed) const;
    uint32_t get_type_int(uint32_t width, bool is_signed);
    uint32_t find_type_float(FloatFormat format) const;
    uint32_t get_type_float(FloatFormat format);
    uint32_t find_type_vector(uint32_t component_type, uint32_t component_count) const;
    uint32_t get_type_vector(uint32_t component_type, uint32_t component_count);
    uint32_t find_type_array(uint32_t element_type, uint32_t length_constant) const;
    uint32_t get_type_array(uint32_t element_type, uint32_t length_constant);
    uint32_t find_type_runtime_array(uint32_t element_type) const;
    uint32_t get_type_runtime_array(uint32_t element_type);
    uint32_t find_type_struct(std::span<const uint32_t> member_types) const;
    uint32_t create_type_struct(std::span<const uint32_t> member_types);
    uint32_t find_type_pointer(spv::StorageClass storage_class, uint32_t pointee_type) const;
    uint32_t get_type_pointer(spv::StorageClass storage_class, uint32_t pointee_type);
    uint32_t find_type_function(uint32_t return_type, std::span<const uint32_t> parameter_types) const;
    uint32_t get_type_function(uint32_t return_type, std::span<const uint32_t> parameter_types);
    uint32_t find_type_cooperative_matrix(const CooperativeMatrixType& type) const;
    uint32_t get_type_cooperative_matrix(const CooperativeMatrixType& type);

    // A type or constant equal to one defined elsewhere (a helper module's): `opcode` with its result
    // type (0 for a type) and operand words, the ids already this module's. Structs are created.
    uint32_t get_equivalent(uint32_t opcode, uint32_t type, std::span<const uint32_t> operands);

    // A pass is about to redefine `definition`'s id in place (a type split into nested ones): lookups
    // must no longer find that id for what it was.
    void forget(const Instruction& definition);

    // The format of float type `type_id`, nullopt if it is not one.
    std::optional<FloatFormat> float_format(uint32_t type_id) const;

    // Constants, never specialization constants (their values change at pipeline creation).
    // `value` holds the literal's words, low word first.
    uint32_t find_constant(uint32_t type, std::span<const uint32_t> value) const;
    uint32_t get_constant(uint32_t type, std::span<const uint32_t> value);
    uint32_t get_constant_uint32(uint32_t value);
    uint32_t get_constant_bool(bool value);
    uint32_t find_constant_null(uint32_t type) const;
    uint32_t get_constant_null(uint32_t type);
    uint32_t find_constant_composite(uint32_t type, std::span<const uint32_t> constituents) const;
    uint32_t get_constant_composite(uint32_t type, std::span<const uint32_t> constituents);

  private:
    struct WordsHash {
        size_t operator()(const std::vector<uint32_t>& words) const;
    };
    static std::vector<uint32_t> key(uint32_t opcode, uint32_t type, std::span<const uint32_t> operands);
    uint32_t find(uint32_t opcode, uint32_t type, std::span<const uint32_t> operands) const;
    uint32_t get(uint32_t opcode, uint32_t type, std::span<const uint32_t> operands);
    uint32_t create(uint32_t opcode, uint32_t type, std::span<const uint32_t> operands);
    void index(const Instruction& instruction);

    Module& module_;
    std::unordered_set<uint32_t> decorated_;
    std::unordered_map<std::vector<uint32_t>, uint32_t, WordsHash> ids_;  // key() -> first such id
};

}  // namespace vkpolyfill::lowering::ir
