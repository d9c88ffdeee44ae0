#version 460
// f16 arithmetic of every kind the Float16 emulation rewrites (lowering/src/passes/float16): run as
// written on a driver with shaderFloat16 and lowered (f32 registers, rounded after each operation), the
// results of single operations (`precise`, so that the driver fuses none) must agree bit for bit;
// those of several at once (fma, dot, matrix products, which the emulation rounds once) and of
// transcendental functions within their precision.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 64) in;

struct Record {
    float16_t x;
    f16vec3 v;
    uint tag;
    f16vec2 pair[2];
};

layout(std430, binding = 0) readonly buffer Inputs {
    float16_t a[64];
    float16_t b[64];
    float wide[64];
    Record records[64];
};

// Exact results (compared bit for bit) and transcendental ones (within a few ulp).
layout(std430, binding = 1) writeonly buffer Exact {
    float16_t halves[64][20];
    uint words[64][9];
    Record copied[64];
};
layout(std430, binding = 2) writeonly buffer Approximate {
    float16_t functions[64][10];
};

shared float16_t staged[64];
float16_t scale_private = float16_t(0.75);

// Through a function with f16 parameters and result.
float16_t mixed(float16_t x, f16vec2 y) {
    precise float16_t r = x * y.x - y.y;
    return r;
}

void main() {
    const uint i = gl_LocalInvocationID.x;
    const float16_t x = a[i];
    const float16_t y = b[i];
    precise float16_t sum = x + y;
    precise float16_t difference = x - y;
    precise float16_t product = x * y;
    precise float16_t quotient = x / y;
    halves[i][0] = sum;
    halves[i][1] = difference;
    halves[i][2] = product;
    halves[i][3] = quotient;
    halves[i][4] = float16_t(wide[i]);             // f32 -> f16 rounds
    halves[i][5] = float16_t(int(i) * 37 - 900);   // int -> f16
    precise float16_t smaller = min(x, y) + abs(x) * scale_private;
    halves[i][6] = smaller;
    // f16 accumulation: rounded after every step, like the driver's.
    precise float16_t accumulated = float16_t(0);
    for (uint k = 0; k < 16; ++k) {
        precise float16_t term = a[(i + k) % 64] * b[(i * 3 + k) % 64];
        accumulated = accumulated + term;
    }
    halves[i][7] = accumulated;
    halves[i][8] = mixed(x, f16vec2(y, sum));
    halves[i][9] = float16_t(float(x) * 3.0);      // f16 -> f32 is exact
    // Bit casts both ways.
    const uint16_t bits = float16BitsToUint16(x);
    halves[i][10] = uint16BitsToFloat16(uint16_t(bits ^ uint16_t(0x8000)));
    const uint packed = packFloat2x16(f16vec2(y, product));
    const f16vec2 unpacked = unpackFloat2x16(packed ^ 0x00010000u);
    halves[i][11] = unpacked.x;
    halves[i][12] = unpacked.y;
    halves[i][13] = int16BitsToFloat16(float16BitsToInt16(sum));
    // Through shared memory, from a neighbour.
    staged[i] = product;
    barrier();
    halves[i][14] = staged[(i + 1) % 64] + x;
    // Overflow to infinity as f16 does it.
    precise float16_t large = x * float16_t(4096);
    precise float16_t larger = large * float16_t(16);
    halves[i][15] = larger;
    halves[i][16] = float16_t(uint(bits) & 0x3FFu);
    halves[i][17] = -product;
    const f16vec3 lanes = f16vec3(x, y, sum);
    precise f16vec3 lanes_product = lanes * lanes.zxy;
    halves[i][18] = lanes_product.y;
    halves[i][19] = lanes_product.z;
    words[i][0] = uint(bits);
    words[i][1] = packed;
    words[i][2] = uint(x < y) | uint(x == y) << 1 | uint(isinf(larger)) << 2;
    words[i][3] = uint(int(sum * float16_t(3)));
    words[i][4] = packFloat2x16(f16vec2(quotient, accumulated));
    words[i][5] = floatBitsToUint(float(quotient));
    words[i][6] = uint(float16BitsToUint16(float16_t(wide[i] * 0.001)));
    words[i][7] = uint(uint16_t(max(x, float16_t(0)) * float16_t(8)));
    // A vector bit cast each way through 16-bit integers (a component each): the lowest mantissa bits flipped.
    const i16vec2 lane_bits = float16BitsToInt16(f16vec2(x, y)) ^ i16vec2(int16_t(1));
    words[i][8] = packFloat2x16(int16BitsToFloat16(lane_bits));
    // A struct read and written whole.
    Record r = records[i];
    r.x = r.x * y;
    r.v = r.v + f16vec3(x);
    // A laid-out array copied whole into a plain one and back (both widen to one type).
    f16vec2 pairs[2] = records[i].pair;
    pairs[1] = pairs[0] * float16_t(2);
    r.pair = pairs;
    copied[i] = r;
    copied[i].pair = pairs;
    functions[i][0] = exp(x * float16_t(0.25));
    functions[i][1] = sqrt(abs(y));
    functions[i][2] = sin(x);
    functions[i][3] = pow(abs(x) + float16_t(0.5), float16_t(1.5));
    functions[i][4] = fma(x, y, float16_t(0.3));
    const f16vec4 p = f16vec4(x, y, sum, product);
    const f16vec4 q = f16vec4(y, float16_t(0.5), x, difference);
    functions[i][5] = dot(p, q);
    const f16vec4 scaled = p * float16_t(1.25) + q;
    functions[i][6] = scaled.x;
    functions[i][7] = scaled.w;
    const f16vec2 mv = f16mat2(x, y, sum, difference) * f16vec2(product, float16_t(2));
    functions[i][8] = mv.x;
    functions[i][9] = mv.y;
}
