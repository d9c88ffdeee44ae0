// The split types themselves, in one pass over the types section: at each split type its chunk types
// (and what an array's need: lengths, a padding null), then the outer type under the original id; at
// each constant composite of a split type its inner composites, then the nested composite. Everything
// new goes right before its first user, so the section stays in definition order without sorting a
// hundred thousand constants. Then member decorations and names move to where the members are.
#pragma once

#include "ir/module.h"
#include "ir/type_manager.h"
#include "passes/long_composites/split_type.h"

namespace vkpolyfill::lowering::long_composites {

// Records each chunk type in its groups (and an array's padding) for the rewrites after it. Chunk
// types are new types, not the type manager's: an explicit layout decorates them.
void rewrite_types_section(ir::Module& module, ir::TypeManager& types, SplitTypes& splits);

// Member decorations and names follow their members into the chunks, Offsets made relative to the
// chunk's own; each chunk gets the Offset of its first member, an array's chunks the original
// ArrayStride and the outer array one chunk's size, so every member stays at its byte offset.
void move_member_annotations(ir::Module& module, const SplitTypes& splits);

}  // namespace vkpolyfill::lowering::long_composites
