#version 450
#extension GL_GOOGLE_include_directive : require
#define TYPE uvec4
#define ATTACHMENT uattachmentEXT
#define NON_COHERENT
#include "color.glsl"
