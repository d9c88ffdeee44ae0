// The body of tensor_addressing_{subgroup,workgroup}.comp: one ROWS x COLS float accumulator of
// SCOPE loaded or stored through tensor layouts and views (SPV_NV_tensor_addressing), built from
// the parameters in `p` (tests/vulkan/tensor_cases.h lists them). OP picks the case, CLAMP the
// layout's clamp mode. Loads start from Object = -1 everywhere (what clipped elements keep) and
// store the matrix row-major to `result`; stores load it row-major from `source`. The buffers hold
// floats; a wrapper may declare them as arrays of STORAGE, PER_FLOAT elements to a float (uint8_t
// and 4, as llama.cpp's attention kernels declare theirs), so every index and stride scales by it.
// With VIEWS_UNCLIPPED defined, no view's clip region is set (the module has no
// OpTensorViewSetClipNV, as llama.cpp's attention kernels have none): the lowering then never keeps
// Object's values, and the harness runs only the cases whose clip is the default one.
// SOURCE_ACCESS qualifies `source`: readonly, as llama.cpp declares its inputs, lets the lowering read
// components wider than the array's elements a word at a time; writable, it reads them element by element.
// OPs 7-9 build their layout in main with the matrix's shape as the slice's spans and no block size,
// as llama.cpp does: the lowering then knows the addressing's direct path applies (where the clamp
// mode allows) and instantiates it alone.
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types : require

layout(constant_id = 0) const uint OP = 0;
layout(constant_id = 1) const int CLAMP = 0;

#ifndef STORAGE
#define STORAGE float
#define PER_FLOAT 1
#endif
#ifndef SOURCE_ACCESS
#define SOURCE_ACCESS
#endif

layout(std430, set = 0, binding = 0) readonly buffer Params { uint p[]; };
layout(std430, set = 0, binding = 1) SOURCE_ACCESS buffer Source { STORAGE source[]; };
layout(std430, set = 0, binding = 2) buffer Result { STORAGE result[]; };

// Where each parameter sits in p (kept in step with tensor_cases.h).
const uint DIM = 0, OFFSET = 5, SPAN = 10, CLAMP_VALUE = 15, STRIDE = 16, SET_STRIDE = 21, BLOCK = 22, SET_BLOCK = 27;
const uint VIEW_DIM = 28, VIEW_STRIDE = 33, SET_VIEW_STRIDE = 38, CLIP = 39, ELEMENT = 43;

#define MAT coopmat<float, SCOPE, ROWS, COLS, gl_MatrixUseAccumulator>
#ifdef VIEWS_UNCLIPPED
#define CLIP_VIEW(v)
#else
#define CLIP_VIEW(v) v = setTensorViewClipNV(v, p[CLIP], p[CLIP + 1], p[CLIP + 2], p[CLIP + 3])
#endif


tensorLayoutNV<2, CLAMP> layout2() {
    tensorLayoutNV<2, CLAMP> t = createTensorLayoutNV(2, CLAMP);
    if (p[SET_BLOCK] != 0) t = setTensorLayoutBlockSizeNV(t, p[BLOCK], p[BLOCK + 1]);
    t = setTensorLayoutDimensionNV(t, p[DIM], p[DIM + 1]);
    if (p[SET_STRIDE] != 0) t = setTensorLayoutStrideNV(t, p[STRIDE], p[STRIDE + 1]);
    t = sliceTensorLayoutNV(t, p[OFFSET], p[SPAN], p[OFFSET + 1], p[SPAN + 1]);
    return setTensorLayoutClampValueNV(t, p[CLAMP_VALUE]);
}

void store_result(MAT m) { coopMatStore(m, result, 0, COLS * PER_FLOAT, gl_CooperativeMatrixLayoutRowMajor); }

void main() {
    MAT m = MAT(-1.0);
    if (OP == 0) {  // a 2-D slice
        coopMatLoadTensorNV(m, source, p[ELEMENT] * PER_FLOAT, layout2());
        store_result(m);
    } else if (OP == 1) {  // a 2-D slice through a transposing view with a clip region
        tensorViewNV<2, false, 1, 0> v = createTensorViewNV(2, false, 1, 0);
        CLIP_VIEW(v);
        coopMatLoadTensorNV(m, source, p[ELEMENT] * PER_FLOAT, layout2(), v);
        store_result(m);
    } else if (OP == 2) {  // a store into a 2-D slice
        coopMatLoad(m, source, 0, COLS * PER_FLOAT, gl_CooperativeMatrixLayoutRowMajor);
        coopMatStoreTensorNV(m, result, p[ELEMENT] * PER_FLOAT, layout2());
    } else if (OP == 3) {  // a store through a transposing view with a clip region
        coopMatLoad(m, source, 0, COLS * PER_FLOAT, gl_CooperativeMatrixLayoutRowMajor);
        tensorViewNV<2, false, 1, 0> v = createTensorViewNV(2, false, 1, 0);
        CLIP_VIEW(v);
        coopMatStoreTensorNV(m, result, p[ELEMENT] * PER_FLOAT, layout2(), v);
    } else if (OP == 4) {  // a 1-D slice
        tensorLayoutNV<1, CLAMP> t = createTensorLayoutNV(1, CLAMP);
        t = setTensorLayoutDimensionNV(t, p[DIM]);
        t = sliceTensorLayoutNV(t, p[OFFSET], p[SPAN]);
        t = setTensorLayoutClampValueNV(t, p[CLAMP_VALUE]);
        coopMatLoadTensorNV(m, source, p[ELEMENT] * PER_FLOAT, t);
        store_result(m);
    } else if (OP == 5) {  // a 5-D slice
        tensorLayoutNV<5, CLAMP> t = createTensorLayoutNV(5, CLAMP);
        t = setTensorLayoutDimensionNV(t, p[DIM], p[DIM + 1], p[DIM + 2], p[DIM + 3], p[DIM + 4]);
        t = sliceTensorLayoutNV(t, p[OFFSET], p[SPAN], p[OFFSET + 1], p[SPAN + 1], p[OFFSET + 2], p[SPAN + 2],
                                p[OFFSET + 3], p[SPAN + 3], p[OFFSET + 4], p[SPAN + 4]);
        t = setTensorLayoutClampValueNV(t, p[CLAMP_VALUE]);
        coopMatLoadTensorNV(m, source, p[ELEMENT] * PER_FLOAT, t);
        store_result(m);
    } else if (OP == 6) {  // a 3-D slice through a view with its own dimensions, strides and permutation
        tensorLayoutNV<3, CLAMP> t = createTensorLayoutNV(3, CLAMP);
        t = setTensorLayoutDimensionNV(t, p[DIM], p[DIM + 1], p[DIM + 2]);
        t = sliceTensorLayoutNV(t, p[OFFSET], p[SPAN], p[OFFSET + 1], p[SPAN + 1], p[OFFSET + 2], p[SPAN + 2]);
        t = setTensorLayoutClampValueNV(t, p[CLAMP_VALUE]);
        tensorViewNV<3, true, 2, 0, 1> v = createTensorViewNV(3, true, 2, 0, 1);
        v = setTensorViewDimensionsNV(v, p[VIEW_DIM], p[VIEW_DIM + 1], p[VIEW_DIM + 2]);
        if (p[SET_VIEW_STRIDE] != 0) v = setTensorViewStrideNV(v, p[VIEW_STRIDE], p[VIEW_STRIDE + 1], p[VIEW_STRIDE + 2]);
        CLIP_VIEW(v);
        coopMatLoadTensorNV(m, source, p[ELEMENT] * PER_FLOAT, t, v);
        store_result(m);
    } else if (OP == 7 || OP == 8 || OP == 9) {  // OPs 0, 1 and 2 with the spans the matrix's shape
        tensorLayoutNV<2, CLAMP> t = createTensorLayoutNV(2, CLAMP);
        t = setTensorLayoutDimensionNV(t, p[DIM], p[DIM + 1]);
        if (p[SET_STRIDE] != 0) t = setTensorLayoutStrideNV(t, p[STRIDE], p[STRIDE + 1]);
        t = setTensorLayoutClampValueNV(t, p[CLAMP_VALUE]);
        if (OP == 7) {
            coopMatLoadTensorNV(m, source, p[ELEMENT] * PER_FLOAT, sliceTensorLayoutNV(t, p[OFFSET], ROWS, p[OFFSET + 1], COLS));
            store_result(m);
        } else if (OP == 8) {  // transposed: the slice's spans swap (ROWS == COLS here)
            tensorViewNV<2, false, 1, 0> v = createTensorViewNV(2, false, 1, 0);
            CLIP_VIEW(v);
            coopMatLoadTensorNV(m, source, p[ELEMENT] * PER_FLOAT, sliceTensorLayoutNV(t, p[OFFSET], COLS, p[OFFSET + 1], ROWS), v);
            store_result(m);
        } else {
            coopMatLoad(m, source, 0, COLS * PER_FLOAT, gl_CooperativeMatrixLayoutRowMajor);
            coopMatStoreTensorNV(m, result, p[ELEMENT] * PER_FLOAT, sliceTensorLayoutNV(t, p[OFFSET], ROWS, p[OFFSET + 1], COLS));
        }
    }
}
