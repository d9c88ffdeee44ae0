// One SPIR-V instruction: its words, with the grammar entry that says where its result type and
// result id are.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "grammar/grammar.h"

namespace vkpolyfill::lowering::ir {

inline constexpr uint32_t kNoOffset = ~0u;  // an instruction the lowering created, not parsed
inline constexpr uint32_t kMaxWordCount = 0xFFFF;  // the word count's 16 bits in word 0

class Instruction {
  public:
    // `words` is one whole instruction whose opcode the grammar knows (the parser checks both);
    // `source_offset` is its word offset in the parsed module.
    Instruction(std::span<const uint32_t> words, const grammar::InstructionInfo& info,
                uint32_t source_offset = kNoOffset);

    uint32_t opcode() const { return words_[0] & 0xFFFFu; }
    const grammar::InstructionInfo& info() const { return *info_; }
    std::string_view name() const { return info_->name; }

    std::span<const uint32_t> words() const { return words_; }
    uint32_t word(size_t index) const { return words_[index]; }
    // Rewrites one operand word (an id being remapped, say); never word 0.
    void set_word(size_t index, uint32_t value) { words_[index] = value; }

    uint32_t type_id() const { return info_->has_result_type ? words_[1] : 0; }
    uint32_t result_id() const { return info_->has_result ? words_[info_->has_result_type ? 2 : 1] : 0; }
    // The words after the opcode, result type and result id.
    std::span<const uint32_t> operand_words() const {
        return words().subspan(1u + info_->has_result_type + info_->has_result);
    }

    uint32_t source_offset() const { return source_offset_; }

  private:
    std::vector<uint32_t> words_;
    const grammar::InstructionInfo* info_;
    uint32_t source_offset_;
};

using InstructionList = std::vector<std::unique_ptr<Instruction>>;

// A new instruction from its opcode (which the grammar must know) and every word after word 0.
std::unique_ptr<Instruction> make_instruction(uint32_t opcode, std::span<const uint32_t> operand_words);

// A LiteralString operand: UTF-8 bytes, nul-terminated, zero-padded to whole little-endian words.
void append_literal_string(std::vector<uint32_t>& words, std::string_view text);
// The string starting at words[0], up to its nul or the end of `words`.
std::string decode_literal_string(std::span<const uint32_t> words);
// Where an OpEntryPoint's interface ids start: the word after its name.
size_t entry_point_interface_start(std::span<const uint32_t> entry_point_words);

}  // namespace vkpolyfill::lowering::ir
