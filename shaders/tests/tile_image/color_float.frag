#version 450
#extension GL_GOOGLE_include_directive : require
#define TYPE vec4
#define ATTACHMENT attachmentEXT
#include "color.glsl"
