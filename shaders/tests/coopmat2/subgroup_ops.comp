// target-env: vulkan1.3
#version 460
#extension GL_GOOGLE_include_directive : require
#define WITH_REDUCTIONS 1
#include "subgroup_ops.glsl"
