// How the pass splits a type too long for SPIR-V's universal limits (a struct of more than 16,383
// members, an array whose composites need more than 65,532 constituents): consecutive members or
// elements are grouped into chunks, and the type becomes a struct or array of those chunks. The type
// keeps its id, now for the outer type, so whatever names it (pointers, variables, function types,
// other aggregates) still means the same thing; only what indexes into it or spells it out changes.
#pragma once

#include <cstdint>
#include <optional>
#include <map>
#include <vector>

namespace vkpolyfill::lowering::long_composites {

inline constexpr uint32_t kMaxStructMembers = 16383;    // SPIR-V's universal limit (spec 2.17)
inline constexpr uint32_t kMaxConstituents = 0xFFFF - 3;  // a composite's words after opcode, type and id

// One member of the outer type: a chunk of consecutive members or elements, or a struct member kept
// as it was (a runtime array must stay the last member of its Block).
struct Group {
    uint32_t first = 0;  // the first member or element it holds
    uint32_t count = 0;  // how many; an array's last chunk may hold fewer than chunk_length (and is padded)
    bool direct = false;
    uint32_t type = 0;   // the outer member's type: the chunk type, or the member's own when direct
    std::optional<uint32_t> offset;  // the outer member's Offset, when the struct has an explicit layout
};

// Where an index into the original type goes: the outer member and, unless it is direct, the index
// inside that chunk.
struct Path {
    uint32_t outer = 0;
    std::optional<uint32_t> inner;
};

struct SplitType {
    uint32_t id = 0;
    bool is_struct = false;
    std::vector<uint32_t> member_types;  // a struct's members as declared
    uint32_t element_type = 0;           // an array's
    uint32_t length = 0;                 // members or elements
    uint32_t chunk_length = 0;           // an array's elements per chunk
    std::vector<Group> groups;
    std::vector<uint32_t> group_of_member;  // a struct's: the group holding each member
    uint32_t padding = 0;  // an array's OpConstantNull element filling its last chunk, when that is short

    uint32_t type_at(uint32_t index) const { return is_struct ? member_types[index] : element_type; }
    Path path(uint32_t index) const;
    // Whether two split types nest their members the same way (OpCopyLogical needs that).
    bool same_grouping(const SplitType& other) const;
};

// Ordered by id, so the pass makes its new ids in the same order on every run.
using SplitTypes = std::map<uint32_t, SplitType>;

inline const SplitType* find_split(const SplitTypes& splits, uint32_t type) {
    const auto it = splits.find(type);
    return it != splits.end() ? &it->second : nullptr;
}

}  // namespace vkpolyfill::lowering::long_composites
