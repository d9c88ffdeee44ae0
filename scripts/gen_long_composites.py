#!/usr/bin/env python3
"""Writes the SPV_INTEL_long_composites test modules as SPIR-V assembly, sizes as parameters.

    gen_long_composites.py KIND [--size N] [--max-words W] -o OUT.spvasm

tests/long_composites/CMakeLists.txt runs it at build time and assembles the output with spirv-as.
Every instruction longer than W words (65,535 by default, SPIR-V's limit) is continued by its
*ContinuedINTEL instruction, the way compilers emit them. Each module but `fragment` and `ray-generation` is a compute shader; what it
computes is stated by its function below, and the tests (tests/lowering/test_long_composites_*.cpp,
tests/vulkan/test_long_composites.cpp, tests/bench/long_composites_bench.cpp) check it against the
same formulas.

Kinds:
  struct     an N-member Block of uints in two storage buffers: the shader rewrites some members
             through access chains, and writes two more from a constant of the Block's type read by
             OpCompositeExtract/Insert; with --runtime-array the Block ends in a runtime array, whose
             OpArrayLength it writes instead
  table      an N-element float constant table (OpConstantComposite) with lookups by invocation:
             --lookups-from private reads it from a Private variable it initializes (the shape
             OpenCL's __constant tables take); --lookups-from buffer reads a storage buffer whose array
             has the table's own type, and reads the constant itself at the sample indexes only
  table-buffer  the same lookups from a storage buffer, with no long composite (the baseline)
  construct  an OpCompositeConstruct of N uints made from a loaded value, read by extract and insert
  spec       an N-element uint OpSpecConstantComposite of specialization constants and constants,
             read at the sample indexes
  fits       a struct type, a constant, a specialization constant and a construct, each spread over
             continuations although it would fit one instruction (use a small --max-words)
  fragment   a fragment shader whose color output is four elements of an N-element float constant table
  ray-generation  a ray generation shader writing the same four elements to a storage buffer per launch

Lavapipe turns a Private or Function array into per-invocation memory written element by element
(a few thousand elements already take a minute to compile), so the modules meant to run there read
their long constants at constant indexes, which the driver folds, and index dynamically only memory.
"""

import argparse
import sys

SPIRV_MAX_WORDS = 65535


def table_value(i):
    """Element i of the float table: exact in binary32 for every index below 2**22."""
    return 0.5 + 0.25 * i


def struct_member_touched(k, members):
    """Members the struct shader rewrites through access chains (in[k] * 3 + k)."""
    return k % 4096 in (0, 4095) or k == members - 1


def samples(size):
    """The indexes read at constant positions: both ends, the middle, and where the pass's chunks meet
    (struct chunks of 16,380 or 16,383 members, an even array split) or a continuation starts."""
    near = {0, 1, 2, 3, 4, 15, 16, 17, size // 2 - 1, size // 2, size // 2 + 1, size - 4, size - 3, size - 2, size - 1}
    for edge in (16380, 16383, 32760, 32766, 65532, 65533):
        near |= {edge - 1, edge, edge + 1}
    return sorted(k for k in near if 0 <= k < size)


def spec_constituent(i):
    """Constituent i of the specialization-constant composite: a specialization constant (SpecId 0..2,
    or their sum as OpSpecConstantOp) every fourth element, else one of 1,000 constants."""
    if i % 4 == 0:
        return f"%sc{(i // 4) % 4}"
    return f"%k{i % 1000}"


class Module:
    def __init__(self, max_words, long_composites=True):
        self.max_words = max_words
        self.head = ["OpCapability Shader"]
        if long_composites:
            self.head += ["OpCapability LongCompositesINTEL", 'OpExtension "SPV_INTEL_long_composites"']
        self.head.append("OpMemoryModel Logical GLSL450")
        self.annotations = []
        self.strided = set()
        self.names = []
        self.types = []
        self.body = []
        self.interface = []

    def long(self, section, head, continuation, operands, fixed_words):
        """`head` (an instruction text before its operand list, `fixed_words` words long) with
        `operands`, spread over `continuation` instructions past max_words words."""
        room = self.max_words - fixed_words
        section.append(" ".join([head] + operands[:room]))
        rest = operands[room:]
        room = self.max_words - 1
        for start in range(0, len(rest), room):
            section.append(" ".join([continuation] + rest[start:start + room]))

    def buffer(self, name, binding, members, block_name, offsets, strides=None, readonly=False):
        """A StorageBuffer Block variable %name with members given as type ids, at set 0."""
        for index, offset in enumerate(offsets):
            self.annotations.append(f"OpMemberDecorate %{block_name} {index} Offset {offset}")
        for type_id, stride in (strides or {}).items():
            if type_id not in self.strided:  # a type is decorated once, whichever buffer names it first
                self.strided.add(type_id)
                self.annotations.append(f"OpDecorate %{type_id} ArrayStride {stride}")
        self.annotations += [f"OpDecorate %{block_name} Block", f"OpDecorate %{name} DescriptorSet 0",
                             f"OpDecorate %{name} Binding {binding}"]
        if readonly:
            self.annotations.append(f"OpDecorate %{name} NonWritable")
        self.long(self.types, f"%{block_name} = OpTypeStruct", "OpTypeStructContinuedINTEL", members, 2)
        self.types += [f"%ptr_{block_name} = OpTypePointer StorageBuffer %{block_name}",
                       f"%{name} = OpVariable %ptr_{block_name} StorageBuffer"]
        self.interface.append(f"%{name}")

    def text(self, local_size=64):
        """A compute shader; the body has %x, the invocation's global index."""
        entry = " ".join(["OpEntryPoint GLCompute %main \"main\" %gid"] + self.interface)
        return self.assemble([entry, f"OpExecutionMode %main LocalSize {local_size} 1 1"],
                             ["OpDecorate %gid BuiltIn GlobalInvocationId"], COMMON_TYPES,
                             ["%gid3 = OpLoad %v3uint %gid", "%x = OpCompositeExtract %uint %gid3 0"], [])

    def fragment_text(self):
        """A fragment shader writing the body's %rgba to its color output at location 0."""
        return self.assemble(["OpEntryPoint Fragment %main \"main\" %color", "OpExecutionMode %main OriginUpperLeft"],
                             ["OpDecorate %color Location 0"], FRAGMENT_TYPES, [], ["OpStore %color %rgba"])

    def ray_generation_text(self):
        """A ray generation shader; the body has %x, the launch's x."""
        entry = " ".join(["OpEntryPoint RayGenerationKHR %main \"main\" %launch"] + self.interface)
        return self.assemble([entry], ["OpDecorate %launch BuiltIn LaunchIdKHR"], RAY_GENERATION_TYPES,
                             ["%launch3 = OpLoad %v3uint %launch", "%x = OpCompositeExtract %uint %launch3 0"], [])

    def assemble(self, entry, decorations, common_types, prologue, epilogue):
        return "\n".join(self.head + entry + self.names + decorations + self.annotations + common_types + self.types +
                         ["%main = OpFunction %void None %fn", "%entry = OpLabel"] + prologue + self.body + epilogue +
                         ["OpReturn", "OpFunctionEnd"]) + "\n"


COMMON_TYPES = [
    "%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%uint = OpTypeInt 32 0", "%int = OpTypeInt 32 1",
    "%float = OpTypeFloat 32", "%v3uint = OpTypeVector %uint 3", "%ptr_in_v3uint = OpTypePointer Input %v3uint",
    "%gid = OpVariable %ptr_in_v3uint Input", "%uint_0 = OpConstant %uint 0", "%uint_1 = OpConstant %uint 1",
    "%int_0 = OpConstant %int 0", "%int_1 = OpConstant %int 1", "%uint_arr = OpTypeRuntimeArray %uint",
    "%float_arr = OpTypeRuntimeArray %float", "%ptr_sb_uint = OpTypePointer StorageBuffer %uint",
    "%ptr_sb_float = OpTypePointer StorageBuffer %float",
]


FRAGMENT_TYPES = [
    "%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%uint = OpTypeInt 32 0", "%float = OpTypeFloat 32",
    "%v4float = OpTypeVector %float 4", "%ptr_out_v4float = OpTypePointer Output %v4float",
    "%color = OpVariable %ptr_out_v4float Output",
]


RAY_GENERATION_TYPES = [
    "%void = OpTypeVoid", "%fn = OpTypeFunction %void", "%uint = OpTypeInt 32 0", "%int = OpTypeInt 32 1",
    "%float = OpTypeFloat 32", "%v3uint = OpTypeVector %uint 3", "%ptr_in_v3uint = OpTypePointer Input %v3uint",
    "%launch = OpVariable %ptr_in_v3uint Input", "%int_0 = OpConstant %int 0", "%uint_4 = OpConstant %uint 4",
    "%float_arr = OpTypeRuntimeArray %float", "%ptr_sb_float = OpTypePointer StorageBuffer %float",
]


def uint_io(m, output_type="uint_arr"):
    """Binding 0: uint indices (read); binding 1: the results, a runtime array `output_type`."""
    m.buffer("indices", 0, ["%uint_arr"], "Indices", [0], {"uint_arr": 4}, readonly=True)
    m.buffer("results", 1, [f"%{output_type}"], "Results", [0], {output_type: 4})


def load_index(m, result, position):
    """%result = indices[position] (position a uint id)."""
    m.body += [f"%{result}_p = OpAccessChain %ptr_sb_uint %indices %int_0 {position}",
               f"%{result} = OpLoad %uint %{result}_p"]


def gen_struct(m, members, runtime_array):
    """For every touched member k: dst.m[k] = src.m[k] * 3 + k. Without a runtime array, also from
    %init, a constant of the Block type whose member k is 100 + k % 16: dst.m[members/2] =
    init.m[members/2], and dst.m[members/2 + 1] = init.m[members - 3] + 1 written into a copy of %init
    by OpCompositeInsert and read back. With a runtime array after the members (a constant cannot hold
    one): dst.tail[0] = the length of src.tail (OpArrayLength)."""
    member_types = ["%uint"] * members + (["%uint_arr"] if runtime_array else [])
    m.names += ['OpName %Big "Big"', 'OpMemberName %Big 0 "first"', f'OpMemberName %Big {members - 1} "last"']
    m.buffer("src", 0, member_types, "Big", [4 * k for k in range(len(member_types))], {"uint_arr": 4}, readonly=True)
    m.annotations += ["OpDecorate %dst DescriptorSet 0", "OpDecorate %dst Binding 1"]
    m.types += ["%dst = OpVariable %ptr_Big StorageBuffer", "%uint_3 = OpConstant %uint 3"]
    m.interface.append("%dst")
    if runtime_array:
        m.names.append(f'OpMemberName %Big {members} "tail"')
        m.types.append(f"%int_tail = OpConstant %int {members}")
        m.body += [f"%length = OpArrayLength %uint %src {members}",
                   "%tail0 = OpAccessChain %ptr_sb_uint %dst %int_tail %int_0", "OpStore %tail0 %length"]
    else:
        middle = members // 2
        m.types += [f"%init{v} = OpConstant %uint {100 + v}" for v in range(16)]
        m.long(m.types, "%init = OpConstantComposite %Big", "OpConstantCompositeContinuedINTEL",
               [f"%init{k % 16}" for k in range(members)], 3)
        m.types += [f"%int_middle = OpConstant %int {middle}", f"%int_after = OpConstant %int {middle + 1}"]
        m.body += [f"%mid = OpCompositeExtract %uint %init {middle}", f"%picked = OpCompositeExtract %uint %init {members - 3}",
                   "%bumped = OpIAdd %uint %picked %uint_1",
                   f"%changed = OpCompositeInsert %Big %bumped %init {middle + 1}",
                   f"%back = OpCompositeExtract %uint %changed {middle + 1}",
                   "%pmid = OpAccessChain %ptr_sb_uint %dst %int_middle", "OpStore %pmid %mid",
                   "%pafter = OpAccessChain %ptr_sb_uint %dst %int_after", "OpStore %pafter %back"]
    for k in (k for k in range(members) if struct_member_touched(k, members)):
        m.types += [f"%i{k} = OpConstant %int {k}", f"%u{k} = OpConstant %uint {k}"]
        m.body += [f"%sp{k} = OpAccessChain %ptr_sb_uint %src %i{k}", f"%sv{k} = OpLoad %uint %sp{k}",
                   f"%sm{k} = OpIMul %uint %sv{k} %uint_3", f"%sr{k} = OpIAdd %uint %sm{k} %u{k}",
                   f"%dp{k} = OpAccessChain %ptr_sb_uint %dst %i{k}", f"OpStore %dp{k} %sr{k}"]


def lookups(m, read, size, count):
    """results[x] = the sum over j < count of table[(indices[x] + 7919 * j) % size], `read(result, i)`
    emitting %result = table[%i]."""
    load_index(m, "i0", "%x")
    m.types += [f"%size = OpConstant %uint {size}", "%step = OpConstant %uint 7919", "%float_0 = OpConstant %float 0"]
    acc = "%float_0"
    for j in range(count):
        m.types.append(f"%j{j} = OpConstant %uint {j}")
        m.body += [f"%o{j} = OpIMul %uint %step %j{j}", f"%s{j} = OpIAdd %uint %i0 %o{j}",
                   f"%i{j}_m = OpUMod %uint %s{j} %size"]
        read(f"v{j}", f"%i{j}_m")
        m.body.append(f"%a{j} = OpFAdd %float {acc} %v{j}")
        acc = f"%a{j}"
    m.body += ["%out = OpAccessChain %ptr_sb_float %results %int_0 %x", f"OpStore %out {acc}"]


def table_values(size):
    return [f"%f{i}" for i in range(size)], [f"%f{i} = OpConstant %float {table_value(i)!r}" for i in range(size)]


def write_samples(m, composite, element, pointer, binding, size, first_invocation_only):
    """samples[s] = `composite`[samples(size)[s]] (OpCompositeExtract), in a storage buffer at
    `binding`, written by invocation 0 alone when others run too."""
    m.buffer("samples", binding, [f"%{element}_arr"], "Samples", [0], {f"{element}_arr": 4})
    m.types.append("%bool = OpTypeBool")
    if first_invocation_only:
        m.body += ["%first = OpIEqual %bool %x %uint_0", "OpSelectionMerge %sampled None",
                   "OpBranchConditional %first %sampling %sampled", "%sampling = OpLabel"]
    for s, sample in enumerate(samples(size)):
        m.types.append(f"%slot{s} = OpConstant %uint {s}")
        m.body += [f"%e{s} = OpCompositeExtract %{element} {composite} {sample}",
                   f"%r{s} = OpAccessChain {pointer} %samples %int_0 %slot{s}", f"OpStore %r{s} %e{s}"]
    if first_invocation_only:
        m.body += ["OpBranch %sampled", "%sampled = OpLabel"]


def gen_table(m, size, count, lookups_from):
    """`lookups`, each plus the table's last element (OpCompositeExtract of the constant), from a
    Private variable the constant table initializes, or from a storage buffer at binding 2 holding
    table_value(i) in an array of the table's own type; then the samples (binding 3) from the constant."""
    uint_io(m, "float_arr")
    ids, constants = table_values(size)
    m.types += [f"%n = OpConstant %uint {size}", "%Table = OpTypeArray %float %n"] + constants
    m.long(m.types, "%table = OpConstantComposite %Table", "OpConstantCompositeContinuedINTEL", ids, 3)
    m.body.append(f"%last = OpCompositeExtract %float %table {size - 1}")
    if lookups_from == "private":
        m.types += ["%ptr_priv_Table = OpTypePointer Private %Table", "%ptr_priv_float = OpTypePointer Private %float",
                    "%tab = OpVariable %ptr_priv_Table Private %table"]
        m.interface.append("%tab")
        lookups(m, lambda result, index: table_read(m, result, "%ptr_priv_float %tab", index), size, count)
        return
    m.buffer("stored", 2, ["%Table"], "Stored", [0], {"Table": 4}, readonly=True)
    lookups(m, lambda result, index: table_read(m, result, "%ptr_sb_float %stored %int_0", index), size, count)
    write_samples(m, "%table", "float", "%ptr_sb_float", 3, size, True)


def table_read(m, result, base, index):
    """%result = the element at `index` of the table `base` (a pointer type and base for OpAccessChain)
    plus %last."""
    m.body += [f"%{result}_p = OpAccessChain {base} {index}", f"%{result}_t = OpLoad %float %{result}_p",
               f"%{result} = OpFAdd %float %{result}_t %last"]


def gen_table_buffer(m, size, count):
    """The same results as `table`, from a storage buffer at binding 2 holding table_value(i)."""
    uint_io(m, "float_arr")
    m.types += [f"%n = OpConstant %uint {size}", "%Table = OpTypeArray %float %n"]
    m.buffer("stored", 2, ["%Table"], "Stored", [0], {"Table": 4}, readonly=True)
    m.types.append(f"%int_last = OpConstant %int {size - 1}")
    m.body += ["%last_p = OpAccessChain %ptr_sb_float %stored %int_0 %int_last", "%last = OpLoad %float %last_p"]
    lookups(m, lambda result, index: table_read(m, result, "%ptr_sb_float %stored %int_0", index), size, count)


def gen_construct(m, size):
    """v = indices[0]; big[i] = v + i % 16 (an OpCompositeConstruct of `size` constituents);
    big2 = big with element size - 2 set to 777 (OpCompositeInsert); results[s] = big2[samples[s]]."""
    uint_io(m)
    load_index(m, "base", "%uint_0")
    m.types += [f"%n = OpConstant %uint {size}", "%Big = OpTypeArray %uint %n", "%uint_777 = OpConstant %uint 777"]
    for j in range(16):
        m.types.append(f"%c{j} = OpConstant %uint {j}")
        m.body.append(f"%v{j} = OpIAdd %uint %base %c{j}")
    m.long(m.body, "%big = OpCompositeConstruct %Big", "OpCompositeConstructContinuedINTEL",
           [f"%v{i % 16}" for i in range(size)], 3)
    m.body.append(f"%big2 = OpCompositeInsert %Big %uint_777 %big {size - 2}")
    for s, sample in enumerate(samples(size)):
        m.types.append(f"%slot{s} = OpConstant %uint {s}")
        m.body += [f"%e{s} = OpCompositeExtract %uint %big2 {sample}",
                   f"%r{s} = OpAccessChain %ptr_sb_uint %results %int_0 %slot{s}", f"OpStore %r{s} %e{s}"]


def gen_spec(m, size):
    """samples[s] = composite[samples(size)[s]] (binding 0), the composite's constituents given by
    spec_constituent; %sc0..2 have SpecId 0..2 and defaults 11, 22, 33, and %sc3 = sc0 + sc1."""
    m.types += [f"%n = OpConstant %uint {size}", "%Spec = OpTypeArray %uint %n"]
    for s, default in enumerate((11, 22, 33)):
        m.annotations.append(f"OpDecorate %sc{s} SpecId {s}")
        m.types.append(f"%sc{s} = OpSpecConstant %uint {default}")
    m.types.append("%sc3 = OpSpecConstantOp %uint IAdd %sc0 %sc1")
    m.types += [f"%k{c} = OpConstant %uint {1000 + c}" for c in range(1000)]
    m.long(m.types, "%composite = OpSpecConstantComposite %Spec", "OpSpecConstantCompositeContinuedINTEL",
           [spec_constituent(i) for i in range(size)], 3)
    write_samples(m, "%composite", "uint", "%ptr_sb_uint", 0, size, False)


def gen_fits(m, broken):
    """Each of the four continued instructions on something that fits one instruction:
    results = Fits{ header = indices[0], five = {v, v+1, v+2, v+3, v+4} (an OpCompositeConstruct),
    constants = {10, 20, 30, 40, 50, 60}, spec = {sc0 (SpecId 0, default 7), 8, 9, sc0} }.
    `broken` makes it malformed: "order" puts an instruction between the constant's head and its
    continuation, "count" leaves the constant one constituent short."""
    m.buffer("indices", 0, ["%uint_arr"], "Indices", [0], {"uint_arr": 4}, readonly=True)
    m.types += ["%n4 = OpConstant %uint 4", "%n6 = OpConstant %uint 6", "%Six = OpTypeArray %uint %n6",
                "%Four = OpTypeArray %uint %n4"]
    m.long(m.types, "%Five = OpTypeStruct", "OpTypeStructContinuedINTEL", ["%uint"] * 5, 2)
    m.buffer("results", 1, ["%uint", "%Five", "%Six", "%Four"], "Fits", [0, 4, 24, 48],
             {"Six": 4, "Four": 4})
    m.annotations += [f"OpMemberDecorate %Five {k} Offset {4 * k}" for k in range(5)]
    m.annotations.append("OpDecorate %sc0 SpecId 0")
    m.types += [f"%c{v} = OpConstant %uint {v}" for v in (2, 3, 4, 8, 9, 10, 20, 30, 40, 50, 60)]
    m.types.append("%sc0 = OpSpecConstant %uint 7")
    six = [f"%c{v}" for v in (10, 20, 30, 40, 50, 60)]
    m.long(m.types, "%six = OpConstantComposite %Six", "OpConstantCompositeContinuedINTEL",
           six[:-1] if broken == "count" else six, 3)
    if broken == "order":  # an instruction between the head and its continuation
        m.types.insert(len(m.types) - 1, "%c99 = OpConstant %uint 99")
    m.long(m.types, "%four = OpSpecConstantComposite %Four", "OpSpecConstantCompositeContinuedINTEL",
           ["%sc0", "%c8", "%c9", "%sc0"], 3)
    m.types += ["%ptr_sb_Five = OpTypePointer StorageBuffer %Five", "%ptr_sb_Six = OpTypePointer StorageBuffer %Six",
                "%ptr_sb_Four = OpTypePointer StorageBuffer %Four", "%int_2 = OpConstant %int 2",
                "%int_3 = OpConstant %int 3"]
    load_index(m, "v", "%uint_0")
    m.body += [f"%v{k} = OpIAdd %uint %v %c{k}" for k in (2, 3, 4)]
    m.body.append("%v1 = OpIAdd %uint %v %uint_1")
    m.long(m.body, "%five = OpCompositeConstruct %Five", "OpCompositeConstructContinuedINTEL",
           ["%v", "%v1", "%v2", "%v3", "%v4"], 3)
    m.body += ["%hp = OpAccessChain %ptr_sb_uint %results %int_0", "OpStore %hp %v",
               "%fp = OpAccessChain %ptr_sb_Five %results %int_1", "OpStore %fp %five",
               "%sp = OpAccessChain %ptr_sb_Six %results %int_2", "OpStore %sp %six",
               "%qp = OpAccessChain %ptr_sb_Four %results %int_3", "OpStore %qp %four"]


def fragment_samples(size):
    """The table elements the fragment shader writes as its color's four components: both ends, the
    first one in a continuation, the middle."""
    return [0, min(SPIRV_MAX_WORDS - 3, size - 1), size // 2, size - 1]


def gen_fragment(m, size):
    """A fragment shader whose color is the float table's elements at fragment_samples(size)
    (OpCompositeExtract of the constant, at every pixel)."""
    ids, constants = table_values(size)
    m.types += [f"%n = OpConstant %uint {size}", "%Table = OpTypeArray %float %n"] + constants
    m.long(m.types, "%table = OpConstantComposite %Table", "OpConstantCompositeContinuedINTEL", ids, 3)
    for c, sample in enumerate(fragment_samples(size)):
        m.body.append(f"%c{c} = OpCompositeExtract %float %table {sample}")
    m.body.append("%rgba = OpCompositeConstruct %v4float %c0 %c1 %c2 %c3")


def gen_ray_generation(m, size):
    """results[4x + c] = the float table's element fragment_samples(size)[c] (OpCompositeExtract of the
    constant), for every launch x."""
    m.buffer("results", 0, ["%float_arr"], "Results", [0], {"float_arr": 4})
    ids, constants = table_values(size)
    m.types += [f"%n = OpConstant %uint {size}", "%Table = OpTypeArray %float %n"] + constants
    m.long(m.types, "%table = OpConstantComposite %Table", "OpConstantCompositeContinuedINTEL", ids, 3)
    m.body.append("%base = OpIMul %uint %x %uint_4")
    for c, sample in enumerate(fragment_samples(size)):
        m.types.append(f"%slot{c} = OpConstant %uint {c}")
        m.body += [f"%e{c} = OpCompositeExtract %float %table {sample}", f"%at{c} = OpIAdd %uint %base %slot{c}",
                   f"%p{c} = OpAccessChain %ptr_sb_float %results %int_0 %at{c}", f"OpStore %p{c} %e{c}"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["struct", "table", "table-buffer", "construct", "spec", "fits", "fragment",
                                         "ray-generation"])
    parser.add_argument("--size", type=int, default=70000, help="members or elements (not for fits)")
    parser.add_argument("--runtime-array", action="store_true", help="struct: end the struct with a runtime array")
    parser.add_argument("--broken", choices=["order", "count"], help="fits: a malformed continuation")
    parser.add_argument("--lookups", type=int, default=4, help="table lookups per invocation (table kinds)")
    parser.add_argument("--lookups-from", choices=["private", "buffer"], default="private", help="table: see above")
    parser.add_argument("--max-words", type=int, default=SPIRV_MAX_WORDS,
                        help="longest instruction before a continuation (default: SPIR-V's limit)")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    if not 4 <= args.max_words <= SPIRV_MAX_WORDS:  # a composite's head needs room for one constituent
        sys.exit(f"--max-words must be within 4..{SPIRV_MAX_WORDS}")

    m = Module(args.max_words, long_composites=args.kind != "table-buffer")
    local_size = 64
    if args.kind == "struct":
        gen_struct(m, args.size, args.runtime_array)
        local_size = 1
    elif args.kind == "table":
        gen_table(m, args.size, args.lookups, args.lookups_from)
    elif args.kind == "table-buffer":
        gen_table_buffer(m, args.size, args.lookups)
    elif args.kind == "construct":
        gen_construct(m, args.size)
        local_size = 1
    elif args.kind == "spec":
        gen_spec(m, args.size)
        local_size = 1
    elif args.kind == "fragment":
        gen_fragment(m, args.size)
    elif args.kind == "ray-generation":
        m.head.insert(1, "OpCapability RayTracingKHR")
        m.head.insert(-1, 'OpExtension "SPV_KHR_ray_tracing"')
        gen_ray_generation(m, args.size)
    else:
        gen_fits(m, args.broken)
        local_size = 1
    with open(args.output, "w") as out:
        if args.kind == "fragment":
            out.write(m.fragment_text())
        elif args.kind == "ray-generation":
            out.write(m.ray_generation_text())
        else:
            out.write(m.text(local_size))


if __name__ == "__main__":
    main()
