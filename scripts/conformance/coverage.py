"""Coverage accounting per extension: which SPIR-V capabilities, instructions and operand variants,
which feature bits and which commands have at least one passing case, and which have none.

What exists comes from the registries (registry.py); what a case covers comes from the case: the
SPIR-V modules it handed the layer (dumped per case, scanned with the grammar) and the tags the
harness printed (enabled feature bits, extension commands called: tests/harness/coverage_tags.h).
A feature bit with a SPIR-V capability (vk.xml's <spirvcapabilities>) counts as exercised when a
passing case's module declares that capability; one without (robust buffer access, workgroup
scope, ...) when a passing case enabled it. "Advertised" is what vulkaninfo reports through the
layer on the drivers of the run (struct by struct where vulkaninfo knows it; otherwise every bit of
an advertised extension counts as advertised)."""
import os
import re
import subprocess

from case_names import EXTENSIONS
from registry import VulkanRegistry, spirv_universe
from spirv_scan import scan


def advertised(build_dir, icds):
    """{"extensions": set, "features": {(struct, member): bool}} reported through the layer."""
    extensions, features = set(), {}
    env = {**os.environ, "VK_INSTANCE_LAYERS": "VK_LAYER_POLYFILL_extensions",
           "VK_ADD_LAYER_PATH": os.path.join(build_dir, "json")}
    for icd in icds:
        out = subprocess.run(["vulkaninfo"], env={**env, "VK_DRIVER_FILES": icd}, capture_output=True, text=True).stdout
        extensions |= set(re.findall(r"^\s+(VK_\w+)\s+: extension revision", out, re.M))
        for struct, body in re.findall(r"^(VkPhysicalDevice\w+Features\w*):\n-+\n((?:\t.*\n)+)", out, re.M):
            for member, value in re.findall(r"^\t(\w+)\s*= (\w+)", body, re.M):
                features[(struct, member)] = features.get((struct, member), False) or value == "true"
    return {"extensions": extensions, "features": features}


def scan_cases(tests, grammar, interesting_opcodes):
    """Per passing test: the union of what its original modules use; also returns the tags."""
    used = {"capabilities": set(), "opcodes": set(), "operands": set(), "tags": set()}
    for t in tests:
        if t.outcome.get("outcome") != "pass":
            continue
        used["tags"] |= set(t.outcome.get("tags", []))
        directory = t.dump_dir
        if not os.path.isdir(directory):
            continue
        for f in os.listdir(directory):
            if f.endswith(".original.spv"):
                s = scan(os.path.join(directory, f), grammar, interesting_opcodes)
                for key in ("capabilities", "opcodes", "operands"):
                    used[key] |= s[key]
    return used


def account(tests, grammar_json, grammar, vk, reported):
    universes = {}
    for _, cts, extension in EXTENSIONS:
        if cts in universes:
            continue
        info = vk.extension(extension)
        universes[cts] = (extension, info, spirv_universe(grammar_json, info["spirv_extensions"]))
    interesting = {op for _, _, u in universes.values() for op in u["scanned_opcodes"]}
    used = scan_cases(tests, grammar, interesting)
    enabled = set()
    for tag in used["tags"]:
        struct, _, index = tag.partition("#")
        if index.isdigit() and struct in vk.types:
            enabled.add((struct, vk.feature_members(struct)[int(index)]))
    result = {}
    for cts, (extension, info, universe) in universes.items():
        is_vulkan = extension.startswith("VK_")
        on = (not is_vulkan) or reported is None or extension in reported["extensions"]
        exercised = {f for cap, fs in info["capability_features"].items() if cap in used["capabilities"] for f in fs}
        features = []
        for f in info["features"]:
            bit_on = reported is None or reported["features"].get(f, True)
            how = "exercised" if f in exercised else "enabled" if f in enabled else ""
            features.append({"name": f"{f[0]}.{f[1]}", "advertised": on and bit_on, "covered": how})
        caps = [{"name": c, "covered": bool({c, *aliases} & used["capabilities"])}
                for c, aliases in universe["capabilities"].items()]
        instructions = [{"name": n, "covered": op in used["opcodes"]} for op, n in sorted(universe["instructions"].items())]
        operands = [{"name": o, "covered": o in used["operands"]} for o in universe["operands"]]
        commands = [{"name": c, "covered": c in used["tags"]} for c in info["commands"]]
        result[cts] = {"extension": extension, "advertised": on, "features": features, "capabilities": caps,
                       "instructions": instructions, "operands": operands, "commands": commands}
    return result


def gaps(coverage):
    """[(extension, kind, name)] of what an advertised extension has that no passing case covers."""
    found = []
    for cts, c in coverage.items():
        if not c["advertised"]:
            continue
        found += [(cts, "feature", f["name"]) for f in c["features"] if f["advertised"] and not f["covered"]]
        for kind, singular in (("capabilities", "capability"), ("instructions", "instruction"),
                               ("operands", "operand"), ("commands", "command")):
            found += [(cts, singular, i["name"]) for i in c[kind] if not i["covered"]]
    return found


def coverage_text(coverage, list_gaps=True):
    """The table per extension, and the gaps (only counted for a run that chose some of the cases)."""
    width = max([26] + [len(cts) + 2 for cts in coverage])
    lines = [f"{'extension':<{width}}{'advertised':>11}{'features':>10}{'capab.':>8}{'instr.':>8}{'operands':>10}{'commands':>10}"]
    for cts, c in coverage.items():
        def ratio(items, only_advertised=False):
            items = [i for i in items if i.get("advertised", True)] if only_advertised else items
            return f"{sum(1 for i in items if i['covered'])}/{len(items)}" if items else "-"
        lines.append(f"{cts:<{width}}{'yes' if c['advertised'] else 'no':>11}{ratio(c['features'], True):>10}"
                     f"{ratio(c['capabilities']):>8}{ratio(c['instructions']):>8}{ratio(c['operands']):>10}"
                     f"{ratio(c['commands']):>10}")
    missing = gaps(coverage)
    lines.append("")
    lines.append(f"coverage gaps (advertised, no passing case): {len(missing) or 'none'}"
                 + ("" if list_gaps or not missing else " in this partial run (results.json lists them)"))
    for ext, kind, name in missing if list_gaps else []:
        lines.append(f"  {ext}: {kind} {name}")
    return "\n".join(lines)
