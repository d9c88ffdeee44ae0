"""What a SPIR-V module uses, read with SPIRV-Headers' grammar: capabilities, opcodes, and the
enumerants its operands take (also enumerants passed as constants through <id> operands, such as
a cooperative matrix's Use and a load's MemoryLayout). Only what coverage.py asks about is decoded."""
import struct

# <id> operands whose constant value is an enumerant of a grammar kind (the grammar types them IdRef).
ID_ENUM_OPERANDS = {"MemoryLayout": "CooperativeMatrixLayout", "Use": "CooperativeMatrixUse",
                    "ClampMode": "TensorClampMode"}
ONE_WORD = {"IdResultType", "IdResult", "IdRef", "IdScope", "IdMemorySemantics", "LiteralInteger",
            "LiteralExtInstInteger", "LiteralSpecConstantOpInteger", "LiteralFloat"}


class Grammar:
    def __init__(self, grammar_json):
        self.instructions = {i["opcode"]: i for i in grammar_json["instructions"]}
        self.kinds = {k["kind"]: k for k in grammar_json["operand_kinds"]}
        self.enumerants = {}  # kind -> {value: enumerant}
        for kind in grammar_json["operand_kinds"]:
            values = {}
            for e in kind.get("enumerants", []):
                v = e["value"]
                values[int(v, 16) if isinstance(v, str) else v] = e
            self.enumerants[kind["kind"]] = values
        self.capabilities = {v: e["enumerant"] for v, e in self.enumerants["Capability"].items()}


def _words(path):
    data = open(path, "rb").read()
    if len(data) < 20 or len(data) % 4:
        return []
    magic = struct.unpack_from("<I", data)[0]
    order = "<" if magic == 0x07230203 else ">"
    return list(struct.unpack(f"{order}{len(data) // 4}I", data))


def _enum_params(grammar, kind, value):
    category = grammar.kinds[kind]["category"]
    values = grammar.enumerants[kind]
    if category == "ValueEnum":
        hits = [values[value]] if value in values else []
    else:
        hits = [e for v, e in sorted(values.items()) if v and value & v]
    return hits, [p["kind"] for e in hits for p in e.get("parameters", [])]


def _decode(grammar, operands, words, found):
    """Walks `words` by the grammar's `operands`; adds (kind, enumerant) pairs and id-enum uses to
    `found` as ("kind", name) or ("id", kind, id)."""
    queue = [(o["kind"], o.get("name", "").strip("'"), o.get("quantifier", "")) for o in operands]
    pos = 0
    while queue and pos < len(words):
        kind, name, quantifier = queue.pop(0)
        if quantifier == "*":
            queue.insert(0, (kind, name, "*"))
        if kind in ONE_WORD:
            if kind == "IdRef" and name in ID_ENUM_OPERANDS:
                found.append(("id", ID_ENUM_OPERANDS[name], words[pos]))
            pos += 1
        elif kind == "LiteralString":
            while pos < len(words) and (words[pos] >> 24) != 0:
                pos += 1
            pos += 1
        elif kind == "LiteralContextDependentNumber":
            pos = len(words)
        elif kind.startswith("Pair"):
            pos += 2
        elif kind in grammar.kinds and "enumerants" in grammar.kinds[kind]:
            hits, params = _enum_params(grammar, kind, words[pos])
            if not hits and grammar.kinds[kind]["category"] == "BitEnum" and words[pos] == 0:
                hits = [e for v, e in grammar.enumerants[kind].items() if v == 0]
            found.extend(("kind", kind, e["enumerant"]) for e in hits)
            pos += 1
            queue[0:0] = [(p, "", "") for p in params]
        else:
            return  # a kind this walk does not know: stop rather than misread


def scan(path, grammar, opcodes_of_interest):
    """{capabilities, opcodes, operands} of the module at `path`; operands are "Kind.Enumerant"
    seen in instructions whose opcode is in `opcodes_of_interest`."""
    words = _words(path)
    capabilities, opcodes, operands, constants, raw = set(), set(), set(), {}, []
    i = 5
    while i < len(words):
        count, opcode = words[i] >> 16, words[i] & 0xFFFF
        if count == 0:
            break
        body = words[i + 1:i + count]
        opcodes.add(opcode)
        if opcode == 17 and body:  # OpCapability
            capabilities.add(grammar.capabilities.get(body[0], str(body[0])))
        elif opcode in (43, 50) and len(body) >= 3:  # OpConstant, OpSpecConstant: id -> first word
            constants[body[1]] = body[2]
        elif opcode in opcodes_of_interest and opcode in grammar.instructions:
            _decode(grammar, grammar.instructions[opcode].get("operands", []), body, raw)
        i += count
    for entry in raw:
        if entry[0] == "kind":
            operands.add(f"{entry[1]}.{entry[2]}")
        elif entry[2] in constants:
            e = grammar.enumerants[entry[1]].get(constants[entry[2]])
            if e:
                operands.add(f"{entry[1]}.{e['enumerant']}")
    return {"capabilities": capabilities, "opcodes": opcodes, "operands": operands}
