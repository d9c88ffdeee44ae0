#!/usr/bin/env python3
"""Generates the lowering library's SPIR-V grammar tables from SPIRV-Headers' JSON grammars.

Run by the build (lowering/CMakeLists.txt); the tables are never written by hand:

    gen_spirv_grammar.py --grammar-dir <SPIRV-Headers>/include/spirv/unified1 \
                         --header <out>/spirv_grammar_kinds.h --source <out>/spirv_grammar_tables.cpp

The header holds the enums the library's code names (operand kinds, instruction classes); the source
holds the tables behind lowering/src/grammar/tables.h. Everything is keyed by number: SPIRV-Headers
lists aliases (OpCooperativeMatrixReduceNV == ...EXT) under one entry, and so do these tables.
"""

import argparse
import json
import os
import re
import sys

# Extended instruction sets: grammar file stem -> (OpExtInstImport name, C++ prefix, version suffix
# allowed). A set is recognised by its import name; versioned reflection sets ("...Reflection.6")
# are matched by prefix, as SPIRV-Tools does. Grammar files missing here are not tabled: their
# import names are not registered anywhere machine-readable, so they cannot be recognised.
EXT_INST_SETS = {
    "glsl.std.450": ("GLSL.std.450", "GlslStd450", False),
    "opencl.std.100": ("OpenCL.std", "OpenClStd", False),
    "opencl.debuginfo.100": ("OpenCL.DebugInfo.100", "OpenClDebugInfo100", False),
    "debuginfo": ("DebugInfo", "DebugInfo", False),
    "nonsemantic.shader.debuginfo.100": ("NonSemantic.Shader.DebugInfo.100", "ShaderDebugInfo100", False),
    "nonsemantic.clspvreflection": ("NonSemantic.ClspvReflection.", "ClspvReflection", True),
    "nonsemantic.vkspreflection": ("NonSemantic.VkspReflection.", "VkspReflection", True),
    "nonsemantic.debugprintf": ("NonSemantic.DebugPrintf", "DebugPrintf", False),
    "nonsemantic.debugbreak": ("NonSemantic.DebugBreak", "DebugBreak", False),
    "spv-amd-shader-ballot": ("SPV_AMD_shader_ballot", "AmdShaderBallot", False),
    "spv-amd-shader-trinary-minmax": ("SPV_AMD_shader_trinary_minmax", "AmdTrinaryMinmax", False),
    "spv-amd-gcn-shader": ("SPV_AMD_gcn_shader", "AmdGcnShader", False),
    "spv-amd-shader-explicit-vertex-parameter":
        ("SPV_AMD_shader_explicit_vertex_parameter", "AmdExplicitVertexParameter", False),
    "tosa.001000.1": ("TOSA.001000.1", "Tosa001000", False),
    "arm.motion-engine.100": ("Arm.MotionEngine.100", "ArmMotionEngine100", False),
}

CATEGORIES = ("Id", "Literal", "ValueEnum", "BitEnum", "Composite")
QUANTIFIERS = {None: "One", "?": "Optional", "*": "Variadic"}


def value_of(enumerant):
    value = enumerant["value"]
    return int(value, 0) if isinstance(value, str) else int(value)


def class_identifier(name):
    """'Type-Declaration' -> 'TypeDeclaration', '@exclude' -> 'Exclude'."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", name) if part)


class Tables:
    """Flattened tables: operand-spec lists are slices of one array, referenced by offset."""

    def __init__(self):
        self.kinds = []            # [(identifier, display name, category, enumerants, bases)]
        self.kind_index = {}       # (scope, grammar name) -> index into kinds
        self.specs = []            # [(kind index, quantifier)]
        self.spec_slices = {}      # tuple of specs -> offset, so equal lists are shared

    def spec_slice(self, operands, scope):
        specs = tuple((self.resolve(o["kind"], scope), QUANTIFIERS[o.get("quantifier")]) for o in operands)
        if not specs:
            return (0, 0)
        if specs not in self.spec_slices:
            self.spec_slices[specs] = len(self.specs)
            self.specs.extend(specs)
        return (self.spec_slices[specs], len(specs))

    def resolve(self, kind, scope):
        """A kind named inside an extended set's grammar is that set's own, else the core one."""
        for key in ((scope, kind), ("", kind)):
            if key in self.kind_index:
                return self.kind_index[key]
        sys.exit(f"gen_spirv_grammar: unknown operand kind {kind!r} (in {scope or 'core'})")

    def declare_kinds(self, operand_kinds, scope, prefix):
        for kind in operand_kinds:
            if kind["category"] not in CATEGORIES:
                sys.exit(f"gen_spirv_grammar: unknown category {kind['category']!r}")
            identifier = f"{prefix}_{kind['kind']}" if prefix else kind["kind"]
            display = f"{scope}:{kind['kind']}" if scope else kind["kind"]
            self.kind_index[(scope, kind["kind"])] = len(self.kinds)
            self.kinds.append([identifier, display, kind["category"], kind, scope])

    def finish_kinds(self):
        """Second step, once every kind is known: enumerants' parameters and composites' bases."""
        for entry in self.kinds:
            identifier, display, category, kind, scope = entry
            enumerants = []
            values = set()
            for enumerant in kind.get("enumerants", []):
                value = value_of(enumerant)
                if value in values:
                    sys.exit(f"gen_spirv_grammar: {display} lists value {value} twice")
                values.add(value)
                enumerants.append((value, enumerant["enumerant"],
                                   self.spec_slice(enumerant.get("parameters", []), scope)))
            enumerants.sort()
            bases = [self.resolve(base, scope) for base in kind.get("bases", [])]
            entry[3:] = [enumerants, bases]


def instruction_entry(tables, instruction):
    kinds = [o["kind"] for o in instruction.get("operands", [])]
    has_type = bool(kinds) and kinds[0] == "IdResultType"
    has_result = "IdResult" in kinds[:2]
    return (instruction["opcode"], instruction["opname"], class_identifier(instruction["class"]),
            has_type, has_result, tables.spec_slice(instruction.get("operands", []), ""))


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def cpp_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def cpp_span(array, slice_):
    offset, count = slice_
    return f"{{{array} + {offset}, {count}}}" if count else "{}"


def rows(items, per_line=12):
    return "\n".join("    " + ", ".join(items[i:i + per_line]) + "," for i in range(0, len(items), per_line))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grammar-dir", required=True)
    parser.add_argument("--header", required=True)
    parser.add_argument("--source", required=True)
    args = parser.parse_args()

    core = load(os.path.join(args.grammar_dir, "spirv.core.grammar.json"))
    tables = Tables()
    tables.declare_kinds(core["operand_kinds"], "", "")

    ext_sets = []
    for stem, (import_name, prefix, prefix_match) in sorted(EXT_INST_SETS.items()):
        path = os.path.join(args.grammar_dir, f"extinst.{stem}.grammar.json")
        if not os.path.exists(path):
            continue  # an older SPIRV-Headers without this set
        grammar = load(path)
        tables.declare_kinds(grammar.get("operand_kinds", []), import_name, prefix)
        ext_sets.append((import_name, prefix_match, grammar))
    tables.finish_kinds()

    instructions = sorted((instruction_entry(tables, i) for i in core["instructions"]), key=lambda e: e[0])
    if len({e[0] for e in instructions}) != len(instructions):
        sys.exit("gen_spirv_grammar: two instructions share an opcode")
    classes = sorted({e[2] for e in instructions})
    opcode_index = [0xFFFF] * (instructions[-1][0] + 1)
    for index, entry in enumerate(instructions):
        opcode_index[entry[0]] = index

    ext_insts = []   # flattened, each set a slice
    ext_set_rows = []
    for import_name, prefix_match, grammar in ext_sets:
        entries = sorted((i["opcode"], i["opname"], tables.spec_slice(i.get("operands", []), import_name))
                         for i in grammar["instructions"])
        ext_set_rows.append((import_name, prefix_match, import_name.startswith("NonSemantic."),
                             (len(ext_insts), len(entries))))
        ext_insts.extend(entries)

    extensions = set()
    for item in core["instructions"] + [e for k in core["operand_kinds"] for e in k.get("enumerants", [])]:
        extensions.update(item.get("extensions", []))

    revision = f"{core['major_version']}.{core['minor_version']} revision {core['revision']}"
    banner = (f"// Generated by scripts/gen_spirv_grammar.py from SPIRV-Headers' grammar (SPIR-V {revision}). "
              "Do not edit.\n")

    header = [banner, "#pragma once\n\n#include <cstdint>\n\nnamespace vkpolyfill::lowering::grammar {\n"]
    header.append("// Every operand kind of the core grammar, then the extended instruction sets' own kinds.")
    header.append("enum class OperandKind : uint16_t {")
    header.extend(f"    {entry[0]}," for entry in tables.kinds)
    header.append("};\n")
    header.append(f"inline constexpr uint32_t kOperandKindCount = {len(tables.kinds)};\n")
    header.append("// The grammar's instruction classes (\"Type-Declaration\" -> TypeDeclaration).")
    header.append("enum class InstructionClass : uint8_t {")
    header.extend(f"    {name}," for name in classes)
    header.append("};\n")
    header.append("}  // namespace vkpolyfill::lowering::grammar\n")

    source = [banner, '#include "grammar/tables.h"\n', "namespace vkpolyfill::lowering::grammar {", "namespace {\n"]
    source.append("constexpr OperandSpec kSpecs[] = {")
    source.append(rows([f"{{OperandKind::{tables.kinds[k][0]}, Quantifier::{q}}}" for k, q in tables.specs], 3))
    source.append("};\n")
    enumerant_rows, kind_rows = [], []
    for identifier, display, category, enumerants, bases in tables.kinds:
        first = len(enumerant_rows)
        enumerant_rows.extend(f"{{{value:#x}u, {cpp_string(name)}, {cpp_span('kSpecs', params)}}}"
                              for value, name, params in enumerants)
        kind_rows.append((display, category, (first, len(enumerants)), bases))
    source.append("constexpr EnumerantInfo kEnumerants[] = {")
    source.append(rows(enumerant_rows, 2))
    source.append("};\n")
    base_list = [b for _, _, _, bases in kind_rows for b in bases]
    source.append("constexpr OperandKind kBases[] = {")
    source.append(rows([f"OperandKind::{tables.kinds[b][0]}" for b in base_list], 4))
    source.append("};\n")
    source.append("constexpr OperandKindInfo kOperandKinds[] = {")
    base_offset = 0
    for display, category, enumerants, bases in kind_rows:
        source.append(f"    {{{cpp_string(display)}, Category::{category}, {cpp_span('kEnumerants', enumerants)}, "
                      f"{cpp_span('kBases', (base_offset, len(bases)))}}},")
        base_offset += len(bases)
    source.append("};\n")
    source.append("constexpr InstructionInfo kInstructions[] = {")
    for opcode, name, klass, has_type, has_result, operands in instructions:
        source.append(f"    {{{opcode}u, {cpp_string(name)}, InstructionClass::{klass}, "
                      f"{str(has_type).lower()}, {str(has_result).lower()}, {cpp_span('kSpecs', operands)}}},")
    source.append("};\n")
    source.append("constexpr uint16_t kOpcodeIndex[] = {")
    source.append(rows([str(i) for i in opcode_index], 16))
    source.append("};\n")
    source.append("constexpr ExtInstInfo kExtInsts[] = {")
    source.append(rows([f"{{{number}u, {cpp_string(name)}, {cpp_span('kSpecs', operands)}}}"
                        for number, name, operands in ext_insts], 2))
    source.append("};\n")
    source.append("constexpr ExtInstSetInfo kExtInstSets[] = {")
    for import_name, prefix_match, non_semantic, slice_ in ext_set_rows:
        source.append(f"    {{{cpp_string(import_name)}, {str(prefix_match).lower()}, {str(non_semantic).lower()}, "
                      f"{cpp_span('kExtInsts', slice_)}}},")
    source.append("};\n")
    source.append("constexpr std::string_view kExtensionNames[] = {")
    source.append(rows([cpp_string(name) for name in sorted(extensions)], 3))
    source.append("};\n")
    source.append("}  // namespace\n")
    for function, element, array in (("instruction_table", "InstructionInfo", "kInstructions"),
                                     ("opcode_index_table", "uint16_t", "kOpcodeIndex"),
                                     ("operand_kind_table", "OperandKindInfo", "kOperandKinds"),
                                     ("ext_inst_set_table", "ExtInstSetInfo", "kExtInstSets"),
                                     ("extension_name_table", "std::string_view", "kExtensionNames")):
        source.append(f"std::span<const {element}> {function}() {{ return {array}; }}")
    source.append("\n}  // namespace vkpolyfill::lowering::grammar\n")

    for path, lines in ((args.header, header), (args.source, source)):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))


if __name__ == "__main__":
    main()
