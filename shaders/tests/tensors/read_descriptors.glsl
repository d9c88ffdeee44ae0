// Reads a tensor binding of 4 elements as the layer rewrote it (lowering/arm_tensors.h): 8 storage
// buffers, element 2i the tensor's data and 2i + 1 its view's shape record. Word w of descriptor d
// lands at out_words[d * 32 + w]; the length of each buffer at lengths[d].
layout(local_size_x = 1) in;
// The wrappers define TENSORS and OUT, the bindings of the tensors and of the output.
layout(set = 0, binding = TENSORS) readonly buffer Words { uint words[]; } tensor_binding[8];
layout(set = 0, binding = OUT) writeonly buffer Out { uint lengths[8]; uint out_words[]; };

void main() {
    for (int d = 0; d < 8; ++d) {
        const uint n = tensor_binding[d].words.length();
        lengths[d] = n;
        for (uint w = 0; w < 32 && w < n; ++w) out_words[d * 32 + w] = tensor_binding[d].words[w];
    }
}
