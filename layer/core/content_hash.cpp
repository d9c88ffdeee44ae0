// MurmurHash3's x64 128-bit mixing (public domain, by Austin Appleby): fast on 32-bit SPIR-V words and
// well distributed; not a cryptographic hash, which nothing here needs.
#include "core/content_hash.h"

#include <bit>
#include <cstring>
#include <format>

namespace vkpolyfill {
namespace {

constexpr uint64_t kC1 = 0x87c37b91114253d5ull;
constexpr uint64_t kC2 = 0x4cf5ad432745937full;

uint64_t final_mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    return k ^ (k >> 33);
}

uint64_t mix_k1(uint64_t k) { return std::rotl(k * kC1, 31) * kC2; }
uint64_t mix_k2(uint64_t k) { return std::rotl(k * kC2, 33) * kC1; }

}  // namespace

std::string ContentHash::hex() const { return std::format("{:016x}{:016x}", high, low); }

ContentHash hash_bytes(std::span<const std::byte> bytes) {
    uint64_t h1 = 0, h2 = 0;
    const size_t blocks = bytes.size() / 16;
    for (size_t i = 0; i < blocks; ++i) {
        uint64_t k1, k2;
        std::memcpy(&k1, bytes.data() + i * 16, 8);
        std::memcpy(&k2, bytes.data() + i * 16 + 8, 8);
        h1 ^= mix_k1(k1);
        h1 = (std::rotl(h1, 27) + h2) * 5 + 0x52dce729;
        h2 ^= mix_k2(k2);
        h2 = (std::rotl(h2, 31) + h1) * 5 + 0x38495ab5;
    }
    // The tail, zero-padded to one more block; the length below tells tails of different sizes apart.
    uint64_t tail[2] = {0, 0};
    if (const size_t rest = bytes.size() - blocks * 16) std::memcpy(tail, bytes.data() + blocks * 16, rest);
    h1 ^= mix_k1(tail[0]);
    h2 ^= mix_k2(tail[1]);

    h1 ^= bytes.size();
    h2 ^= bytes.size();
    h1 += h2;
    h2 += h1;
    h1 = final_mix(h1);
    h2 = final_mix(h2);
    h1 += h2;
    h2 += h1;
    return {h1, h2};
}

}  // namespace vkpolyfill
