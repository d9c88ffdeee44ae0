#version 460
// Specialization constants (OpSpecConstantOp from constant expressions, a spec-sized workgroup),
// shared memory, barriers and atomics.
layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint kTile = 16;
layout(constant_id = 2) const int kBias = -4;
layout(constant_id = 3) const bool kClamp = true;
const uint kTileArea = kTile * kTile + 1u;
const int kShifted = (kBias << 2) | 1;

layout(std430, set = 0, binding = 0) buffer Data { uint data[]; };
shared uint tile[64];
shared uint counter;

void main() {
    uint local = gl_LocalInvocationID.x;
    if (local == 0u) counter = 0u;
    tile[local % 64u] = data[gl_GlobalInvocationID.x] + kTileArea;
    barrier();
    uint value = tile[(local + 1u) % 64u];
    if (kClamp) value = min(value, kTileArea);
    atomicAdd(counter, value);
    memoryBarrierShared();
    barrier();
    data[gl_GlobalInvocationID.x] = counter + uint(kShifted);
}
