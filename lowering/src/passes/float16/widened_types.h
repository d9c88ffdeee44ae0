// Which types hold 16-bit floats, and the type each becomes in registers: on a device without
// shaderFloat16 every f16 value is held as an f32 (rounded to f16 after each operation), while
// memory with an explicit layout (buffers, push constants, explicitly laid out workgroup blocks)
// keeps its f16 data, read and written through conversions (16-bit storage allows those). Plain
// workgroup memory is widened to f32 too, unless the module may declare 16-bit integers
// (Target::shader_int16): there it keeps each f16's 16 bits as an unsigned 16-bit integer, converted
// where read and written, so that shared memory is not twice what the module was sized for.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "diagnostics.h"
#include "ir/module.h"
#include "ir/type_manager.h"

namespace vkpolyfill::lowering::float16 {

class WidenedTypes {
  public:
    WidenedTypes(ir::Module& module, ir::TypeManager& types, Diagnostics& diagnostics, bool int16);

    uint32_t half() const { return half_; }
    uint32_t single() const { return single_; }

    // Whether `type` has an f16 anywhere in it (through arrays, structs, vectors, matrices, pointers
    // to value storage, function types).
    bool holds_half(uint32_t type);
    // The type a value of `type` has in registers: `type` itself when it holds no f16 or is a pointer
    // into explicitly laid-out memory, else its copy with f32 for f16.
    uint32_t widened(uint32_t type);
    // A pointer into memory whose f16 data stays 16 bits wide.
    bool is_laid_out_pointer(uint32_t pointer_type) const;
    // The storage class of laid-out memory a pointer type points into, if it does.
    bool laid_out(uint32_t storage_class) const;
    // Whether a pointer of `original_pointer_type` (its type before the remap) points into plain
    // workgroup memory that holds f16 data as 16-bit integers.
    bool points_at_bits(uint32_t original_pointer_type);
    // The type in registers of a value read from plain workgroup memory of such a type.
    uint32_t registers_of_bits(uint32_t type) const { return registers_of_bits_.at(type); }
    bool uses_bits() const { return !registers_of_bits_.empty(); }

    // type -> widened type, for every type widened() was asked for that changes.
    std::unordered_map<uint32_t, uint32_t> changed() const;
    // The f16-holding types that laid-out memory uses: they stay declared. The rest are replaced.
    const std::unordered_set<uint32_t>& in_memory() const { return in_memory_; }

  private:
    void collect_memory_types(uint32_t type, uint32_t depth);
    uint32_t widen_struct(const ir::Instruction& definition);
    bool workgroup_bits_possible(bool int16);
    bool made_of_arrays_and_vectors(uint32_t type, uint32_t depth) const;
    uint32_t bits(uint32_t type);

    ir::Module& module_;
    ir::TypeManager& types_;
    Diagnostics& diagnostics_;
    uint32_t half_ = 0;
    uint32_t single_ = 0;
    bool workgroup_laid_out_ = false;
    bool workgroup_bits_ = false;  // plain workgroup memory holds f16 data as 16-bit integers
    std::unordered_map<uint32_t, bool> holds_half_;
    std::unordered_map<uint32_t, uint32_t> widened_;
    std::unordered_set<uint32_t> in_memory_;
    std::unordered_map<uint32_t, uint32_t> bits_;               // f16-holding type -> its 16-bit-integer form
    std::unordered_map<uint32_t, uint32_t> registers_of_bits_;  // that form -> the type in registers
};

}  // namespace vkpolyfill::lowering::float16
