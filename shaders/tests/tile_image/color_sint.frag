#version 450
#extension GL_GOOGLE_include_directive : require
#define TYPE ivec4
#define ATTACHMENT iattachmentEXT
#include "color.glsl"
