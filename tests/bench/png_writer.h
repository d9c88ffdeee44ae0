// Writes 8-bit RGBA pixels as a PNG file (stored, uncompressed deflate blocks: no zlib needed).
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace vkpolyfill::bench {

// `rgba` holds width * height pixels, rows top to bottom. Returns false if the file cannot be written.
bool write_png(const std::string& path, uint32_t width, uint32_t height, std::span<const uint8_t> rgba);

}  // namespace vkpolyfill::bench
