#include "spirv_mutator.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <random>
#include <vector>

#include <spirv/unified1/spirv.hpp>

#include "grammar/grammar.h"

namespace vkpolyfill::lowering::fuzz {

namespace {

constexpr size_t kHeaderWords = 5;
constexpr size_t kBoundWord = 3;

// A module as its header and the words of each instruction.
struct Module {
    std::vector<uint32_t> header;
    std::vector<std::vector<uint32_t>> instructions;
};

// The module in the bytes if they are a header and at least one instruction, each with a nonzero
// word count, the last ending exactly at the end.
std::optional<Module> split(const uint8_t* data, size_t size) {
    if (size % 4 != 0 || size < (kHeaderWords + 1) * 4) return {};
    std::vector<uint32_t> words(size / 4);
    std::memcpy(words.data(), data, size);
    if (words[0] != spv::MagicNumber) return {};
    Module module{{words.begin(), words.begin() + kHeaderWords}, {}};
    for (size_t at = kHeaderWords; at < words.size();) {
        const size_t count = words[at] >> 16;
        if (count == 0 || count > words.size() - at) return {};
        module.instructions.emplace_back(words.begin() + static_cast<ptrdiff_t>(at),
                                         words.begin() + static_cast<ptrdiff_t>(at + count));
        at += count;
    }
    return module;
}

// Writes the module's words to out; 0 (and nothing written) if they take more than max_size bytes.
size_t join(const Module& module, uint8_t* out, size_t max_size) {
    size_t words = module.header.size();
    for (const auto& instruction : module.instructions) words += instruction.size();
    if (words * 4 > max_size) return 0;
    std::memcpy(out, module.header.data(), module.header.size() * 4);
    out += module.header.size() * 4;
    for (const auto& instruction : module.instructions) {
        std::memcpy(out, instruction.data(), instruction.size() * 4);
        out += instruction.size() * 4;
    }
    return words * 4;
}

// The word index of the instruction's result id, 0 if it has none.
size_t result_position(const std::vector<uint32_t>& instruction) {
    const grammar::InstructionInfo* info = grammar::find_instruction(instruction[0] & 0xFFFFu);
    if (!info || !info->has_result) return 0;
    const size_t position = info->has_result_type ? 2 : 1;
    return position < instruction.size() ? position : 0;
}

class Mutator {
  public:
    Mutator(Module& module, unsigned int seed) : module_(module), random_(seed) {
        for (const auto& instruction : module.instructions) {
            if (const size_t at = result_position(instruction)) ids_.push_back(instruction[at]);
        }
    }

    // One mutation; false if the one picked does not apply to this module. Weighted by how often
    // each alone left the corpus modules parseable (40%, 45%, 20-35%; the last four 9-12%).
    bool mutate() {
        switch (pick(12)) {
            case 0: case 1: case 2: case 3: return replace_operand();
            case 4: case 5: return remove_instruction();
            case 6: case 7: return copy_instruction();
            case 8: return move_instruction();
            case 9: return add_operand();
            case 10: return remove_operand();
            default: return borrow_opcode();
        }
    }

  private:
    size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(random_); }
    std::vector<uint32_t>& any_instruction() { return module_.instructions[pick(module_.instructions.size())]; }
    static void set_word_count(std::vector<uint32_t>& instruction) {
        instruction[0] = static_cast<uint32_t>(instruction.size()) << 16 | (instruction[0] & 0xFFFFu);
    }

    // Another defined id (types, values, functions: what a pass looks up), a small number (sizes,
    // enumerants, literal indices), a neighbour of the old value, or any word.
    uint32_t operand_value(uint32_t old) {
        switch (pick(4)) {
            case 0: return ids_.empty() ? old : ids_[pick(ids_.size())];
            case 1: return static_cast<uint32_t>(pick(17));
            case 2: return pick(2) ? old + 1 : old - 1;
            default: return static_cast<uint32_t>(random_());
        }
    }

    bool replace_operand() {
        auto& instruction = any_instruction();
        if (instruction.size() < 2) return false;
        uint32_t& word = instruction[1 + pick(instruction.size() - 1)];
        word = operand_value(word);
        return true;
    }

    bool remove_instruction() {
        if (module_.instructions.size() < 2) return false;
        module_.instructions.erase(module_.instructions.begin() + static_cast<ptrdiff_t>(pick(module_.instructions.size())));
        return true;
    }

    // A copy that defined its result id again would be rejected at once: most copies get a new id,
    // and most go right after the original, where everything it uses is defined.
    bool copy_instruction() {
        auto& list = module_.instructions;
        const size_t original = pick(list.size());
        std::vector<uint32_t> copy = list[original];
        if (const size_t at = result_position(copy); at && pick(4) != 0) {
            copy[at] = module_.header[kBoundWord]++;
            ids_.push_back(copy[at]);
        }
        const size_t to = pick(4) != 0 ? original + 1 : pick(list.size() + 1);
        list.insert(list.begin() + static_cast<ptrdiff_t>(to), std::move(copy));
        return true;
    }

    bool move_instruction() {
        auto& list = module_.instructions;
        if (list.size() < 2) return false;
        const size_t from = pick(list.size());
        std::vector<uint32_t> moved = std::move(list[from]);
        list.erase(list.begin() + static_cast<ptrdiff_t>(from));
        list.insert(list.begin() + static_cast<ptrdiff_t>(pick(list.size() + 1)), std::move(moved));
        return true;
    }

    bool add_operand() {
        auto& instruction = any_instruction();
        if (instruction.size() >= 0xFFFFu) return false;
        instruction.push_back(operand_value(0));
        set_word_count(instruction);
        return true;
    }

    bool remove_operand() {
        auto& instruction = any_instruction();
        if (instruction.size() < 2) return false;
        instruction.pop_back();
        set_word_count(instruction);
        return true;
    }

    // An instruction takes the opcode of another in the module: the same words read as another
    // instruction (a type where a value was, a load where a store was).
    bool borrow_opcode() {
        const uint32_t opcode = any_instruction()[0] & 0xFFFFu;
        auto& instruction = any_instruction();
        instruction[0] = (instruction[0] & 0xFFFF0000u) | opcode;
        return true;
    }

    Module& module_;
    std::minstd_rand random_;
    std::vector<uint32_t> ids_;
};

}  // namespace

size_t mutate_module(uint8_t* data, size_t size, size_t max_size, unsigned int seed, const ByteMutator& bytes) {
    std::minstd_rand random(seed);
    std::optional<Module> module = split(data, size);
    if (!module || random() % 4 == 0) return bytes(data, size, max_size);
    // One mutation per call: libFuzzer stacks them itself, running the target after each.
    const bool changed = Mutator(*module, static_cast<unsigned int>(random())).mutate();
    const size_t new_size = changed ? join(*module, data, max_size) : 0;
    return new_size ? new_size : bytes(data, size, max_size);
}

size_t cross_over_modules(const uint8_t* a, size_t a_size, const uint8_t* b, size_t b_size, uint8_t* out, size_t max_out,
                          unsigned int seed) {
    std::optional<Module> into = split(a, a_size);
    const std::optional<Module> from = split(b, b_size);
    if (!into || !from) return 0;
    std::minstd_rand random(seed);
    const auto& source = from->instructions;
    const size_t first = random() % source.size();
    const size_t last = first + 1 + random() % (source.size() - first);
    into->instructions.insert(into->instructions.begin() + static_cast<ptrdiff_t>(random() % (into->instructions.size() + 1)),
                              source.begin() + static_cast<ptrdiff_t>(first), source.begin() + static_cast<ptrdiff_t>(last));
    into->header[kBoundWord] = std::max(into->header[kBoundWord], from->header[kBoundWord]);
    return join(*into, out, max_out);
}

}  // namespace vkpolyfill::lowering::fuzz
