#version 460
// Tensor addressing of SPV_NV_cooperative_matrix2 (OpCooperativeMatrixLoadTensorNV / StoreTensorNV):
// matrixCoordToTensorElement and matrixCoordToTensorElementWithView for one matrix element,
// transcribed from the spec's pseudo-code. The lowering instantiates it per tensor layout and view
// type (their dimension counts, clamp mode, hasDimensions and permutation are literals or constants
// of the type, frozen here as specialization constants), links it into the module and calls it once
// per element (lowering/src/passes/cooperative_matrix/tensor_memory.cpp), through the split entry
// points at the end.
//
// A tensor layout's state is an array of uints (tensor_types.h): blockSize[LDIM], layoutDimension[LDIM],
// stride[LDIM], offset[LDIM] (int32 bits), span[LDIM], clampValue. A view's: viewDimension[VDIM],
// viewStride[VDIM], clipRowOffset, clipRowSpan, clipColOffset, clipColSpan.
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 1) in;

layout(constant_id = 0) const uint LDIM = 1;        // the tensor layout's dimensions
layout(constant_id = 1) const uint CLAMP_MODE = 0;  // its TensorClampMode
layout(constant_id = 2) const bool STORE = false;   // a store: out-of-bounds elements are discarded
layout(constant_id = 3) const uint N = 1;           // columns of the matrix
layout(constant_id = 4) const uint VDIM = 1;        // the tensor view's dimensions
layout(constant_id = 5) const bool HAS_DIMENSIONS = false;
layout(constant_id = 6) const uint P0 = 0;          // the view's permutation
layout(constant_id = 7) const uint P1 = 1;
layout(constant_id = 8) const uint P2 = 2;
layout(constant_id = 9) const uint P3 = 3;
layout(constant_id = 10) const uint P4 = 4;
// Array lengths as constants of their own: glslang cannot match array types sized by expressions.
layout(constant_id = 11) const uint LAYOUT_WORDS = 6;  // 5 * LDIM + 1
layout(constant_id = 12) const uint VIEW_WORDS = 6;    // 2 * VDIM + 4
layout(constant_id = 13) const uint M = 1;             // rows of the matrix
layout(constant_id = 14) const bool CLIP = true;       // whether any view in the module sets a clip region

// What becomes of the element (the helpers' return value).
const uint ELEMENT = 0;  // accessed at *index
const uint CLIPPED = 1;  // outside the view's clip region: a load keeps Object's value, a store skips it
const uint OUTSIDE = 2;  // out of bounds with the Constant clamp mode: a load gives clampValue; a store
                         // discards it (stores treat every mode but Undefined as Constant)
const uint GENERAL = 3;  // direct_element only: the element needs the general path

const uint UNDEFINED = 0, CONSTANT = 1, CLAMP_TO_EDGE = 2, REPEAT = 3, MIRROR_REPEAT = 4;

uint block_size(const uint t[LAYOUT_WORDS], uint dim) { return t[dim]; }
uint layout_dimension(const uint t[LAYOUT_WORDS], uint dim) { return t[LDIM + dim]; }
uint stride(const uint t[LAYOUT_WORDS], uint dim) { return t[2 * LDIM + dim]; }
int offset(const uint t[LAYOUT_WORDS], uint dim) { return int(t[3 * LDIM + dim]); }
uint span(const uint t[LAYOUT_WORDS], uint dim) { return t[4 * LDIM + dim]; }

uint permutation(uint dim) {
    return dim == 0 ? P0 : dim == 1 ? P1 : dim == 2 ? P2 : dim == 3 ? P3 : P4;
}

// OpSMod for a positive divisor, spelled out so it does not depend on how GLSL's % treats negatives.
int remainder(int c, int divisor) {
    const int r = c % divisor;
    return r < 0 ? r + divisor : r;
}

// linearToSpanCoord, spanCoordToTensorCoord and tensorCoordToLinear: from an index into the slice's
// span to the element's index in the tensor, with the coordinates a decode function receives.
// The outputs of an element that is not accessed. Every output is defined on every path: the out
// parameters' copies live in the caller, which drivers inline into the shader's loops, where an
// output left unwritten would carry the previous iteration's value (64 registers in llama.cpp's
// flash attention).
void no_element(out uint element, out uint blockCoord[LDIM], out uint coordInBlock[LDIM]) {
    element = 0;
    [[unroll]] for (uint dim = 0; dim < LDIM; ++dim) {
        blockCoord[dim] = 0;
        coordInBlock[dim] = 0;
    }
}

uint span_index_to_element(const uint t[LAYOUT_WORDS], uint index, out uint element, out uint blockCoord[LDIM],
                                   out uint coordInBlock[LDIM]) {
    no_element(element, blockCoord, coordInBlock);
    // linearToSpanCoord
    uint spanCoord[LDIM];
    [[unroll]] for (int dim = int(LDIM) - 1; dim >= 0; --dim) {
        spanCoord[dim] = index % span(t, dim);
        index /= span(t, dim);
    }
    // spanCoordToTensorCoord. The spec returns at the first coordinate outside with the Constant
    // mode; this notes it and returns after the loop, which then has a single exit: the compilers
    // unroll only such loops, and a loop left rolled indexes the layout and coordinate arrays at run
    // time, which NAK keeps in local memory.
    bool outside = false;
    [[unroll]] for (uint dim = 0; dim < LDIM; ++dim) {
        int c = int(spanCoord[dim]) + offset(t, dim);
        const uint extent = layout_dimension(t, dim);
        if (c < 0 || uint(c) >= extent) {
            // For stores, other than Undefined, everything is treated as "discard".
            const uint mode = STORE && CLAMP_MODE != UNDEFINED ? CONSTANT : CLAMP_MODE;
            if (mode == CONSTANT) outside = true;
            if (mode == CLAMP_TO_EDGE) {
                c = clamp(c, 0, int(extent) - 1);
            } else if (mode == REPEAT) {
                c = remainder(c, int(extent));
            } else if (mode == MIRROR_REPEAT) {
                // The spec's pseudo-code compares with `dim`, its loop index; the mirror it describes
                // (and the clamp-mode table: c % (2*dim-2), then 2*dim-2-c past dim) is about the
                // dimension's size. A dimension of 1 has a period of 0: its only coordinate is 0.
                const int period = 2 * int(extent) - 2;
                c = period <= 0 ? 0 : remainder(c, period);
                c = c >= int(extent) ? period - c : c;
            }
            // Undefined: undefined behavior; the coordinate is used as it is.
        }
        coordInBlock[dim] = uint(c) % block_size(t, dim);
        blockCoord[dim] = uint(c) / block_size(t, dim);
    }
    if (outside) {
        no_element(element, blockCoord, coordInBlock);
        return OUTSIDE;
    }
    // tensorCoordToLinear
    element = 0;
    [[unroll]] for (uint dim = 0; dim < LDIM; ++dim) element += blockCoord[dim] * stride(t, dim);
    return ELEMENT;
}

// matrixCoordToTensorElement: the element's index in the tensor (in elements of the pointee, or in
// blocks with a block size), and its block coordinates for a decode function.
uint tensor_element(const uint t[LAYOUT_WORDS], const uint row, const uint col, out uint element, out uint blockCoord[LDIM],
                    out uint coordInBlock[LDIM]) {
    return span_index_to_element(t, row * N + col, element, blockCoord, coordInBlock);
}

// matrixCoordToTensorElementWithView.
uint tensor_element_view(const uint t[LAYOUT_WORDS], const uint v[VIEW_WORDS], const uint row, const uint col, out uint element,
                         out uint blockCoord[LDIM], out uint coordInBlock[LDIM]) {
    // matrixCoordToLinear
    const uint clipRowOffset = v[2 * VDIM], clipRowSpan = v[2 * VDIM + 1];
    const uint clipColOffset = v[2 * VDIM + 2], clipColSpan = v[2 * VDIM + 3];
    // Without a clip region set, the default (offsets 0, spans 0xFFFFFFFF) clips nothing.
    if (CLIP && (row < clipRowOffset || row >= clipRowOffset + clipRowSpan || col < clipColOffset ||
                 col >= clipColOffset + clipColSpan)) {
        no_element(element, blockCoord, coordInBlock);
        return CLIPPED;
    }
    const uint width = min(N, clipColSpan);
    uint index = (row - clipRowOffset) * width + (col - clipColOffset);

    // linearToViewCoord; without its own dimensions the view uses the layout's spans.
    uint viewCoord[VDIM];
    [[unroll]] for (int dim = int(VDIM) - 1; dim >= 0; --dim) {
        const uint i = permutation(dim);
        const uint extent = HAS_DIMENSIONS ? v[i] : span(t, i);
        viewCoord[i] = index % extent;
        index /= extent;
    }

    // viewCoordToLinear
    uint viewStride[VDIM];
    if (HAS_DIMENSIONS) {
        [[unroll]] for (uint dim = 0; dim < VDIM; ++dim) viewStride[dim] = v[VDIM + dim];
    } else {
        viewStride[VDIM - 1] = 1;
        [[unroll]] for (int dim = int(VDIM) - 2; dim >= 0; --dim) viewStride[dim] = viewStride[dim + 1] * span(t, dim + 1);
    }
    index = 0;
    [[unroll]] for (int dim = int(VDIM) - 1; dim >= 0; --dim) index += viewCoord[dim] * viewStride[dim];

    return span_index_to_element(t, index, element, blockCoord, coordInBlock);
}

// The split entry points: a matrix element at (row_base + row_k, col_base + col_k), where the bases
// are the same for every element an invocation holds and the k's the same in every invocation. Where
// a two-dimensional layout's slice has the matrix's shape (as wide as it, at least as tall; its
// transpose through a transposing view), with blocks of one element (llama.cpp's GEMMs and
// attention), the matrix coordinates are the span coordinates, and direct_element computes an
// element in bounds as one per-invocation base plus uniform products of the k's: once the caller's
// loop over the elements is unrolled, the compilers keep one address and scalar offsets rather than
// a multiplied address per element (which ACO kept live in registers across llama.cpp's K loop).

// The element at span coordinates (base0 + k0, base1 + k1) of a two-dimensional layout with blocks
// of one element; GENERAL where the clamp mode moves it. OUTSIDE leaves *element 0, the tensor's
// first element, which a Constant load reads and replaces by the clamp value (tensor_memory.cpp).
uint direct_element(const uint t[LAYOUT_WORDS], const uint base0, const uint k0, const uint base1, const uint k1, out uint element,
                    out uint blockCoord[LDIM], out uint coordInBlock[LDIM]) {
    no_element(element, blockCoord, coordInBlock);
    const int first0 = int(base0) + offset(t, 0), first1 = int(base1) + offset(t, LDIM - 1);
    const int c0 = first0 + int(k0), c1 = first1 + int(k1);
    const bool inside = c0 >= 0 && uint(c0) < layout_dimension(t, 0) && c1 >= 0 && uint(c1) < layout_dimension(t, LDIM - 1);
    const uint mode = STORE && CLAMP_MODE != UNDEFINED ? CONSTANT : CLAMP_MODE;
    if (!inside && mode == CONSTANT) return OUTSIDE;
    if (!inside && mode != UNDEFINED) return GENERAL;
    blockCoord[0] = uint(c0);
    blockCoord[LDIM - 1] = uint(c1);
    element = uint(first0) * stride(t, 0) + uint(first1) * stride(t, LDIM - 1) + k0 * stride(t, 0) + k1 * stride(t, LDIM - 1);
    return ELEMENT;
}

bool single_element_blocks(const uint t[LAYOUT_WORDS]) {
    return LDIM == 2 && block_size(t, 0) == 1 && block_size(t, LDIM - 1) == 1;
}

// tensor_element.
uint tensor_element_split(const uint t[LAYOUT_WORDS], const uint row_base, const uint row_k, const uint col_base, const uint col_k,
                          out uint element, out uint blockCoord[LDIM], out uint coordInBlock[LDIM]) {
    if (single_element_blocks(t) && span(t, LDIM - 1) == N && span(t, 0) >= M) {
        const uint status = direct_element(t, row_base, row_k, col_base, col_k, element, blockCoord, coordInBlock);
        if (status != GENERAL) return status;
    }
    return tensor_element(t, row_base + row_k, col_base + col_k, element, blockCoord, coordInBlock);
}

// tensor_element_view, direct for a view without a clip region and dimensions of its own that keeps
// or swaps the layout's two dimensions.
uint tensor_element_view_split(const uint t[LAYOUT_WORDS], const uint v[VIEW_WORDS], const uint row_base, const uint row_k,
                               const uint col_base, const uint col_k, out uint element, out uint blockCoord[LDIM],
                               out uint coordInBlock[LDIM]) {
    if (!CLIP && !HAS_DIMENSIONS && VDIM == 2 && single_element_blocks(t)) {
        uint status = GENERAL;
        if (P0 == 0 && P1 == 1 && span(t, LDIM - 1) == N && span(t, 0) >= M) {
            status = direct_element(t, row_base, row_k, col_base, col_k, element, blockCoord, coordInBlock);
        } else if (P0 == 1 && P1 == 0 && span(t, 0) == N && span(t, LDIM - 1) >= M) {
            status = direct_element(t, col_base, col_k, row_base, row_k, element, blockCoord, coordInBlock);
        }
        if (status != GENERAL) return status;
    }
    return tensor_element_view(t, v, row_base + row_k, col_base + col_k, element, blockCoord, coordInBlock);
}

// The direct path alone, linked where the lowering found its conditions in the module's constants
// (the layout's blocks of one element, its slice in the matrix's shape, a clamp mode under which no
// element needs the general path: tensor_memory.cpp), so the module carries no general path.
uint tensor_element_direct(const uint t[LAYOUT_WORDS], const uint row_base, const uint row_k, const uint col_base, const uint col_k,
                           out uint element, out uint blockCoord[LDIM], out uint coordInBlock[LDIM]) {
    return direct_element(t, row_base, row_k, col_base, col_k, element, blockCoord, coordInBlock);
}

// The same through a view that keeps (P0 = 0) or swaps the layout's two dimensions.
uint tensor_element_view_direct(const uint t[LAYOUT_WORDS], const uint v[VIEW_WORDS], const uint row_base, const uint row_k,
                                const uint col_base, const uint col_k, out uint element, out uint blockCoord[LDIM],
                                out uint coordInBlock[LDIM]) {
    return P0 == 0 ? direct_element(t, row_base, row_k, col_base, col_k, element, blockCoord, coordInBlock)
                   : direct_element(t, col_base, col_k, row_base, row_k, element, blockCoord, coordInBlock);
}

// Calls keep the functions alive through the optimizer's dead-function elimination; never run.
void main() {
    uint t[LAYOUT_WORDS], v[VIEW_WORDS], element, blockCoord[LDIM], coordInBlock[LDIM];
    tensor_element_split(t, 0, 0, 0, 0, element, blockCoord, coordInBlock);
    tensor_element_view_split(t, v, 0, 0, 0, 0, element, blockCoord, coordInBlock);
    tensor_element_direct(t, 0, 0, 0, 0, element, blockCoord, coordInBlock);
    tensor_element_view_direct(t, v, 0, 0, 0, 0, element, blockCoord, coordInBlock);
}
