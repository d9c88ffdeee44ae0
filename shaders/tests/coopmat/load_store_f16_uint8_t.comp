// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
// float16 matrices through uint8_t arrays (two bytes each: llama.cpp's attention kernels declare their buffers so).
#define ELEMENT float16_t
#define POINTEE uint8_t
#include "load_store.glsl"
