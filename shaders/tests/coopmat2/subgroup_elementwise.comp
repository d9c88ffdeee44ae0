// target-env: vulkan1.3
#version 460
// subgroup_ops.comp without the reductions: per-element op, conversion and transpose (OP 0 and 5).
#extension GL_GOOGLE_include_directive : require
#define WITH_REDUCTIONS 0
#include "subgroup_ops.glsl"
