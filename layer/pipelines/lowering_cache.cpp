#include "pipelines/lowering_cache.h"

#include <cstring>

#include "core/build_identity.h"
#include "core/file_io.h"
#include "layer_info.h"

namespace vkpolyfill {
namespace {

constexpr uint32_t kFileMagic = 0x4c50564b;  // "KVPL"
constexpr uint32_t kFileFormat = 1;

void append_u32(std::string& out, uint32_t value) { out.append(reinterpret_cast<const char*>(&value), sizeof(value)); }

void append_bytes(std::string& out, std::string_view bytes) {
    append_u32(out, static_cast<uint32_t>(bytes.size()));
    out.append(bytes);
}

// Reads front to back; any read past the end makes the whole file invalid.
class Reader {
  public:
    explicit Reader(std::span<const std::byte> bytes) : bytes_(bytes) {}
    bool u32(uint32_t& value) { return take(&value, sizeof(value)); }
    bool take(void* out, size_t size) {
        if (size > bytes_.size() - offset_) return false;
        if (size) std::memcpy(out, bytes_.data() + offset_, size);
        offset_ += size;
        return true;
    }
    bool at_end() const { return offset_ == bytes_.size(); }

  private:
    std::span<const std::byte> bytes_;
    size_t offset_ = 0;
};

std::string file_contents(const std::string& key, const std::vector<uint32_t>& words) {
    std::string out;
    append_u32(out, kFileMagic);
    append_u32(out, kFileFormat);
    append_bytes(out, key);
    append_bytes(out, std::string_view(reinterpret_cast<const char*>(words.data()), words.size() * sizeof(uint32_t)));
    const ContentHash check = hash_of(std::span(words));
    out.append(reinterpret_cast<const char*>(&check), sizeof(check));
    return out;
}

LoweredWords parse_file(std::span<const std::byte> bytes, const std::string& key) {
    Reader in(bytes);
    uint32_t magic = 0, format = 0, key_size = 0, words_size = 0;
    if (!in.u32(magic) || magic != kFileMagic || !in.u32(format) || format != kFileFormat) return nullptr;
    if (!in.u32(key_size) || key_size != key.size()) return nullptr;
    std::string stored_key(key_size, '\0');
    if (!in.take(stored_key.data(), key_size) || stored_key != key) return nullptr;
    if (!in.u32(words_size) || words_size % sizeof(uint32_t) != 0 || words_size > bytes.size()) return nullptr;
    std::vector<uint32_t> words(words_size / sizeof(uint32_t));
    ContentHash check;
    if (!in.take(words.data(), words_size) || !in.take(&check, sizeof(check)) || !in.at_end()) return nullptr;
    if (check != hash_of(std::span<const uint32_t>(words))) return nullptr;
    return std::make_shared<const std::vector<uint32_t>>(std::move(words));
}

}  // namespace

LoweringKey lowering_key(const ContentHash& module, std::string_view entry_point,
                         std::span<const lowering::SpecializationValue> specialization, const lowering::Target& target) {
    LoweringKey key;
    std::string& out = key.bytes;
    append_bytes(out, kLayerVersionString);  // a new layer may lower differently
    out.append(reinterpret_cast<const char*>(&module), sizeof(module));
    append_bytes(out, entry_point);
    append_u32(out, static_cast<uint32_t>(specialization.size()));
    for (const lowering::SpecializationValue& value : specialization) {
        append_u32(out, value.spec_id);
        append_bytes(out, std::string_view(reinterpret_cast<const char*>(value.bytes.data()), value.bytes.size()));
    }
    for (uint32_t field : {target.spirv_version, target.vulkan_version, target.subgroup_size, target.max_shared_memory_bytes,
                           target.emulate, target.native, target.simd_lane_invocations ? 1u : 0u,
                           target.scalar_uniform_loads ? 1u : 0u, target.unflattened_selections ? 1u : 0u, target.subgroup_shuffles ? 1u : 0u,
                           target.distributed_matrices ? 1u : 0u, target.distributed_a_from_shared_memory ? 1u : 0u,
                           target.split_b_rows ? 1u : 0u, static_cast<uint32_t>(target.long_narrow_loads),
                           target.chunked_element_loops ? 1u : 0u,
                           target.shader_int16 ? 1u : 0u, target.unroll_up_to,
                           target.tile_image.descriptor_set, target.tile_image.depth_binding, target.tile_image.samples,
                           target.tile_image.color_locations, target.tile_image.dynamic_indexing ? 1u : 0u,
                           target.tile_image.interlock ? 1u : 0u}) {
        append_u32(out, field);
    }
    append_u32(out, static_cast<uint32_t>(target.multiply_on_native_matrices));
    append_u32(out, static_cast<uint32_t>(target.native_matrices.size()));
    for (const lowering::CooperativeMatrixConfiguration& unit : target.native_matrices) {
        for (uint32_t field : {unit.m, unit.n, unit.k, static_cast<uint32_t>(unit.a), static_cast<uint32_t>(unit.b),
                               static_cast<uint32_t>(unit.c), static_cast<uint32_t>(unit.result), unit.saturating_accumulation ? 1u : 0u}) {
            append_u32(out, field);
        }
    }
    key.hash = hash_of(std::span<const char>(out));
    return key;
}

LoweringCache::LoweringCache(std::filesystem::path directory)
    : directory_(std::move(directory)), identity_(directory_.empty() ? std::string() : build_identity()) {}

std::filesystem::path LoweringCache::file_of(const LoweringKey& key) const {
    if (directory_.empty()) return {};
    return directory_ / (hash_of(std::span<const char>(disk_key(key))).hex() + ".vkpolyfill-lowered");
}

std::optional<LoweringCache::Hit> LoweringCache::find(const LoweringKey& key) {
    if (const auto found = memory_.find(key.hash.low); found->first && *found->second.key == key.bytes) {
        return Hit{found->second.words, false};
    }
    if (directory_.empty()) return std::nullopt;
    const std::optional<std::vector<std::byte>> bytes = read_file(file_of(key));
    if (!bytes) return std::nullopt;
    LoweredWords words = parse_file(*bytes, disk_key(key));
    if (!words) return std::nullopt;
    memory_.insert_or_assign(key.hash.low, Entry{std::make_shared<const std::string>(key.bytes), words});
    return Hit{std::move(words), true};
}

bool LoweringCache::store(const LoweringKey& key, LoweredWords words) {
    memory_.insert_or_assign(key.hash.low, Entry{std::make_shared<const std::string>(key.bytes), words});
    if (directory_.empty()) return true;
    const std::string contents = file_contents(disk_key(key), *words);
    return write_file_atomically(file_of(key), std::as_bytes(std::span(contents)));
}

}  // namespace vkpolyfill
