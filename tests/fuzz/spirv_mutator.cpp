#include "spirv_mutator.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include <spirv/unified1/spirv.hpp>

#include "grammar/grammar.h"

namespace vkpolyfill::lowering::fuzz {

namespace {

constexpr size_t kHeaderWords = 5;
constexpr size_t kBoundWord = 3;

// A module as one pool of words, the header first, and its instructions, in module order, as ranges
// of the pool. A mutation moves, drops or edits ranges; an instruction that grows or is copied is
// written again at the pool's end. So a call allocates a few times, not once an instruction: with a
// vector each, splitting and joining took a third of a lowering target's CPU.
struct Range {
    size_t first;
    size_t count;
};

struct Module {
    std::vector<uint32_t> pool;
    std::vector<Range> instructions;
};

// Appends the module in the bytes to the pool and its instructions to `ranges`: false unless the bytes
// are a header and at least one instruction, each with a nonzero word count, the last ending exactly
// at the end.
bool load(const uint8_t* data, size_t size, Module& module, std::vector<Range>& ranges) {
    if (size % 4 != 0 || size < (kHeaderWords + 1) * 4) return false;
    std::vector<uint32_t>& pool = module.pool;
    const size_t base = pool.size();
    pool.resize(base + size / 4);
    std::memcpy(pool.data() + base, data, size);
    if (pool[base] != spv::MagicNumber) return false;
    for (size_t at = base + kHeaderWords; at < pool.size();) {
        const size_t count = pool[at] >> 16;
        if (count == 0 || count > pool.size() - at) return false;
        ranges.push_back({at, count});
        at += count;
    }
    return true;
}

std::optional<Module> split(const uint8_t* data, size_t size) {
    Module module;
    if (!load(data, size, module, module.instructions)) return {};
    return module;
}

// Writes the module's words to out; 0 (and nothing written) if they take more than max_size bytes.
size_t join(const Module& module, uint8_t* out, size_t max_size) {
    size_t words = kHeaderWords;
    for (const Range& instruction : module.instructions) words += instruction.count;
    if (words * 4 > max_size) return 0;
    std::memcpy(out, module.pool.data(), kHeaderWords * 4);
    out += kHeaderWords * 4;
    for (const Range& instruction : module.instructions) {
        std::memcpy(out, module.pool.data() + instruction.first, instruction.count * 4);
        out += instruction.count * 4;
    }
    return words * 4;
}

// The word index of the instruction's result id, 0 if it has none.
size_t result_position(std::span<const uint32_t> instruction) {
    const grammar::InstructionInfo* info = grammar::find_instruction(instruction[0] & 0xFFFFu);
    if (!info || !info->has_result) return 0;
    const size_t position = info->has_result_type ? 2 : 1;
    return position < instruction.size() ? position : 0;
}

class Mutator {
  public:
    Mutator(Module& module, unsigned int seed) : module_(module), random_(seed) {}

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
    Range& any_instruction() { return module_.instructions[pick(module_.instructions.size())]; }
    std::span<uint32_t> words(const Range& instruction) { return {module_.pool.data() + instruction.first, instruction.count}; }
    uint32_t& bound() { return module_.pool[kBoundWord]; }
    void set_word_count(const Range& instruction) {
        uint32_t& first = module_.pool[instruction.first];
        first = static_cast<uint32_t>(instruction.count) << 16 | (first & 0xFFFFu);
    }
    // The instruction's words again at the pool's end, with `extra` words of room after them.
    Range rewrite(const Range& instruction, size_t extra) {
        std::vector<uint32_t>& pool = module_.pool;
        const Range copy{pool.size(), instruction.count + extra};
        pool.resize(pool.size() + copy.count);
        std::copy_n(pool.begin() + static_cast<ptrdiff_t>(instruction.first), instruction.count,
                    pool.begin() + static_cast<ptrdiff_t>(copy.first));
        return copy;
    }

    // The result ids the module defines, found the first time an operand wants one.
    const std::vector<uint32_t>& ids() {
        if (!ids_) {
            ids_.emplace();
            for (const Range& instruction : module_.instructions) {
                if (const size_t at = result_position(words(instruction))) ids_->push_back(words(instruction)[at]);
            }
        }
        return *ids_;
    }

    // Another defined id (types, values, functions: what a pass looks up), a small number (sizes,
    // enumerants, literal indices), a neighbour of the old value, or any word.
    uint32_t operand_value(uint32_t old) {
        switch (pick(4)) {
            case 0: return ids().empty() ? old : ids()[pick(ids().size())];
            case 1: return static_cast<uint32_t>(pick(17));
            case 2: return pick(2) ? old + 1 : old - 1;
            default: return static_cast<uint32_t>(random_());
        }
    }

    bool replace_operand() {
        const Range& instruction = any_instruction();
        if (instruction.count < 2) return false;
        uint32_t& word = module_.pool[instruction.first + 1 + pick(instruction.count - 1)];
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
        const Range copy = rewrite(list[original], 0);
        if (const size_t at = result_position(words(copy)); at && pick(4) != 0) words(copy)[at] = bound()++;
        const size_t to = pick(4) != 0 ? original + 1 : pick(list.size() + 1);
        list.insert(list.begin() + static_cast<ptrdiff_t>(to), copy);
        return true;
    }

    bool move_instruction() {
        auto& list = module_.instructions;
        if (list.size() < 2) return false;
        const size_t from = pick(list.size());
        const Range moved = list[from];
        list.erase(list.begin() + static_cast<ptrdiff_t>(from));
        list.insert(list.begin() + static_cast<ptrdiff_t>(pick(list.size() + 1)), moved);
        return true;
    }

    bool add_operand() {
        Range& instruction = any_instruction();
        if (instruction.count >= 0xFFFFu) return false;
        instruction = rewrite(instruction, 1);
        words(instruction).back() = operand_value(0);
        set_word_count(instruction);
        return true;
    }

    bool remove_operand() {
        Range& instruction = any_instruction();
        if (instruction.count < 2) return false;
        --instruction.count;
        set_word_count(instruction);
        return true;
    }

    // An instruction takes the opcode of another in the module: the same words read as another
    // instruction (a type where a value was, a load where a store was).
    bool borrow_opcode() {
        const uint32_t opcode = module_.pool[any_instruction().first] & 0xFFFFu;
        uint32_t& first = module_.pool[any_instruction().first];
        first = (first & 0xFFFF0000u) | opcode;
        return true;
    }

    Module& module_;
    std::minstd_rand random_;
    std::optional<std::vector<uint32_t>> ids_;
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
    if (!into) return 0;
    const size_t b_header = into->pool.size();
    std::vector<Range> source;
    if (!load(b, b_size, *into, source)) return 0;
    std::minstd_rand random(seed);
    const size_t first = random() % source.size();
    const size_t last = first + 1 + random() % (source.size() - first);
    into->instructions.insert(into->instructions.begin() + static_cast<ptrdiff_t>(random() % (into->instructions.size() + 1)),
                              source.begin() + static_cast<ptrdiff_t>(first), source.begin() + static_cast<ptrdiff_t>(last));
    into->pool[kBoundWord] = std::max(into->pool[kBoundWord], into->pool[b_header + kBoundWord]);
    return join(*into, out, max_out);
}

}  // namespace vkpolyfill::lowering::fuzz
