"""What exists for an extension, from the registries rather than from the tests: its commands,
feature bits and SPIR-V capability mapping from the Vulkan registry (vk.xml), and the SPIR-V
capabilities, instructions and operand enumerants its SPIR-V extensions bring from SPIRV-Headers'
grammar."""
import xml.etree.ElementTree as ET

from spirv_scan import ID_ENUM_OPERANDS

VK_XML = "/usr/share/vulkan/registry/vk.xml"
GRAMMAR = "/usr/include/spirv/unified1/spirv.core.grammar.json"


class VulkanRegistry:
    def __init__(self, path=VK_XML):
        self.root = ET.parse(path).getroot()
        self.types = {t.get("name"): t for t in self.root.iter("type") if t.get("category") == "struct"}

    def feature_members(self, struct):
        members = [m.findtext("name") for m in self.types[struct].findall("member")]
        return [m for m in members if m not in ("sType", "pNext")]

    def extension(self, name):
        """{commands, features [(struct, member)], spirv_extensions, capability_features}."""
        ext = self.root.find(f"./extensions/extension[@name='{name}']")
        info = {"commands": [], "features": [], "spirv_extensions": [], "capability_features": {}}
        if ext is None:  # a SPIR-V extension no Vulkan extension names (SPV_INTEL_long_composites)
            info["spirv_extensions"] = [name]
            return info
        for req in ext.findall("require"):
            info["commands"] += [c.get("name") for c in req.findall("command")]
            for t in req.findall("type"):
                struct = self.types.get(t.get("name"))
                if struct is not None and "VkPhysicalDeviceFeatures2" in (struct.get("structextends") or ""):
                    info["features"] += [(t.get("name"), m) for m in self.feature_members(t.get("name"))]
        for spv in self.root.iter("spirvextension"):
            if any(e.get("extension") == name for e in spv.findall("enable")):
                info["spirv_extensions"].append(spv.get("name"))
        for cap in self.root.iter("spirvcapability"):
            for e in cap.findall("enable"):
                if e.get("struct") and name in (e.get("requires") or "").split(","):
                    info["capability_features"].setdefault(cap.get("name"), []).append((e.get("struct"), e.get("feature")))
        return info


def _value(v):
    return int(v, 16) if isinstance(v, str) else v


def spirv_universe(grammar_json, spirv_extensions):
    """{capabilities: {name: [aliases]}, instructions: {opcode: opname}, operands: ["Kind.Enumerant"],
    scanned_opcodes: the instructions whose operands can hold those enumerants}."""
    capability_kind = next(k for k in grammar_json["operand_kinds"] if k["kind"] == "Capability")
    caps = {}
    for e in capability_kind["enumerants"]:
        if set(e.get("extensions", [])) & set(spirv_extensions):
            caps[e["enumerant"]] = e.get("aliases", [])
    cap_names = set(caps) | {a for aliases in caps.values() for a in aliases}
    instructions = {i["opcode"]: i for i in grammar_json["instructions"] if set(i.get("capabilities", [])) & cap_names}
    # A kind is an extension's when no core instruction (one that needs no extension's capability)
    # takes it: CooperativeMatrixOperands is, MemoryAccess (OpLoad's too) is not.
    extension_caps = {e["enumerant"] for e in capability_kind["enumerants"] if e.get("extensions")}
    core_kinds = set()
    for i in grammar_json["instructions"]:
        if not set(i.get("capabilities", [])) & extension_caps:
            core_kinds |= {o["kind"] for o in i.get("operands", [])}
    kinds = {k["kind"]: k for k in grammar_json["operand_kinds"]}
    chosen = set()
    for i in instructions.values():
        for o in i.get("operands", []):
            name = o.get("name", "").strip("'")
            if o["kind"] == "IdRef" and name in ID_ENUM_OPERANDS:
                chosen.add(ID_ENUM_OPERANDS[name])
            kind = kinds.get(o["kind"], {})
            if "enumerants" not in kind or o["kind"] == "Capability":
                continue
            gated = any(set(e.get("capabilities", [])) & cap_names for e in kind["enumerants"])
            if gated or o["kind"] not in core_kinds:
                chosen.add(o["kind"])
    operands = []
    for kind in sorted(chosen):
        for e in kinds[kind]["enumerants"]:
            if kinds[kind]["category"] == "BitEnum" and _value(e["value"]) == 0:
                continue  # "None": the operand left out
            own_caps, own_exts = set(e.get("capabilities", [])), set(e.get("extensions", []))
            if (own_caps and not own_caps & cap_names) or (own_exts and not own_exts & set(spirv_extensions)):
                continue  # belongs to another extension (RowBlockedInterleavedARM, DecodeVectorFunc)
            operands.append(f"{kind}.{e['enumerant']}")
    # Enumerants the extension's capabilities enable in kinds its instructions do not take (the
    # execution modes and storage class of tile image; all of decode_vector, which has no instructions).
    for kind in sorted(set(kinds) - chosen - {"Capability"}):
        operands += [f"{kind}.{e['enumerant']}" for e in kinds[kind].get("enumerants", [])
                     if set(e.get("capabilities", [])) & set(caps)]
    operand_kinds = {o.split(".")[0] for o in operands}
    scanned = {i["opcode"] for i in grammar_json["instructions"]
               if {o["kind"] for o in i.get("operands", [])} & operand_kinds}
    return {"capabilities": caps, "instructions": {op: i["opname"] for op, i in instructions.items()},
            "operands": operands, "scanned_opcodes": scanned | set(instructions)}
