#version 460
// Loops, branches, a switch, function calls and structs: the control-flow shapes the lowering's
// parser and passes must keep intact.
layout(local_size_x = 32) in;

struct Particle {
    vec3 position;
    float mass;
    ivec2 cell;
};

layout(std430, set = 0, binding = 0) buffer Particles { Particle particles[]; };
layout(std430, set = 0, binding = 1) buffer Histogram { uint bins[16]; };
layout(push_constant) uniform Push { uint count; int steps; float dt; };

float weight(Particle p, int step) {
    float w = p.mass;
    for (int i = 0; i < step; ++i) {
        if (w > 100.0) break;
        if ((i & 1) == 0) continue;
        w *= 1.5;
    }
    return w;
}

ivec2 cell_of(vec3 position) { return ivec2(floor(position.xy)); }

void main() {
    uint index = gl_GlobalInvocationID.x;
    if (index >= count) return;
    Particle p = particles[index];
    int step = 0;
    while (step < steps) {
        p.position += vec3(0.0, -9.8, 0.0) * dt * weight(p, step);
        ++step;
    }
    do {
        p.mass *= 0.5;
    } while (p.mass > 10.0);
    p.cell = cell_of(p.position);
    uint bin;
    switch (p.cell.x & 7) {
        case 0: bin = 0u; break;
        case 1:
        case 2: bin = 1u; break;
        case 5: bin = uint(p.cell.y) & 15u; break;
        default: bin = 15u; break;
    }
    atomicAdd(bins[bin], 1u);
    particles[index] = p;
}
