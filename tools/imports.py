#!/usr/bin/env python3
"""The import graph of millbase's sources, checked against its layers (docs/DESIGN.md).

    tools/imports.py            # check; prints the layer graph, exits 1 on a violation
    tools/imports.py --modules  # also prints the module-level graph

Checks:
  1. Each library layer (a folder of src/) imports only the layers it may (ALLOWED below);
     library code names layers, not the crate root's re-exports. Test modules
     (`#[cfg(test)] mod ...` to the end of the file) are not counted.
  2. No cycle between modules (src/<layer>/<module>), apart from a module and its own
     submodules.
  3. The program (src/main.rs, src/cli, src/serve, src/report.rs) is a separate crate that
     uses only `millbase::` (the library's public API); no command file of src/cli imports
     another command's module (only the shared modules SHARED; a command's own parts live in
     its folder, e.g. src/cli/probe/batch.rs).
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent / "src"

# What each library layer may import (besides itself).
ALLOWED = {
    "sys": set(),
    "game": {"sys"},
    "sector": {"sys", "game"},
    "solve": {"sys", "game", "sector"},
    "table": {"sys", "game", "sector"},
    "build": {"sys", "game", "sector", "solve", "table"},
    "probe": {"sys", "game", "sector", "table"},
    "engine": {"sys", "game", "sector", "probe"},
    "export": {"sys", "game", "sector", "table"},
}
PROGRAM = {"main.rs", "cli", "serve", "report.rs"}
SHARED = {"mod", "common", "signals"}


def code_lines(path):
    """The file's lines of code: comments dropped, test modules left out."""
    lines = path.read_text().splitlines()
    out = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped == "#[cfg(test)]" and i + 1 < len(lines) and re.match(
            r"\s*(pub(\(crate\))? )?mod \w+", lines[i + 1]
        ) and not lines[i + 1].rstrip().endswith(";"):
            break
        out.append(re.sub(r"//.*", "", line))
    return "\n".join(out)


def crate_refs(text):
    """Every `crate::a::b` path, `use crate::{a::x, b}` groups expanded to their heads."""
    refs = set()
    for m in re.finditer(r"crate::\{([^}]*)\}", text):
        for part in m.group(1).split(","):
            part = part.strip()
            if part:
                refs.add(tuple(re.findall(r"\w+", part)[:2]))
    for m in re.finditer(r"crate::(\w+)(?:::(\w+))?", text):
        refs.add((m.group(1),) + ((m.group(2),) if m.group(2) else ()))
    return refs


def main():
    problems = []
    layers = set(ALLOWED)
    module_edges = {}
    layer_edges = set()
    for path in sorted(ROOT.rglob("*.rs")):
        rel = path.relative_to(ROOT)
        top = rel.parts[0]
        text = code_lines(path)
        if top in PROGRAM:
            for ref in crate_refs(text):
                if ref[0] in layers or ref[0] in ("sys",):
                    problems.append(f"{rel}: the program reaches into the library's layer {ref[0]}")
            if top == "cli" and len(rel.parts) == 2:
                me = rel.stem
                for m in re.finditer(r"(?:crate::cli::|super::)(\w+)", text):
                    other = m.group(1)
                    if other != me and other not in SHARED and (ROOT / "cli" / f"{other}.rs").exists():
                        problems.append(f"{rel}: imports the command module cli/{other}.rs")
            continue
        if top == "lib.rs":
            continue
        module = (top, rel.parts[1].removesuffix(".rs")) if len(rel.parts) > 1 and rel.parts[1] != "mod.rs" else (top,)
        if len(module) > 1:
            names = [m.group(1) for m in re.finditer(r"\bsuper::(\w+)", text)]
            for m in re.finditer(r"\bsuper::\{([^}]*)\}", text):
                names += re.findall(r"(?:^|,)\s*(\w+)", m.group(1))
            for other in names:
                if other != module[1] and ((ROOT / top / f"{other}.rs").exists() or (ROOT / top / other).is_dir()):
                    module_edges.setdefault(module, set()).add((top, other))
        for ref in crate_refs(text):
            head = ref[0]
            if head == top:
                if len(ref) > 1 and len(module) > 1 and ref[1] != module[1]:
                    module_edges.setdefault(module, set()).add((head, ref[1]))
                continue
            if head not in layers:
                problems.append(f"{rel}: crate::{'::'.join(ref)} goes through the crate root, not a layer")
                continue
            layer_edges.add((top, head))
            if head not in ALLOWED[top]:
                problems.append(f"{rel}: layer {top} imports layer {head}")
            if len(ref) > 1:
                module_edges.setdefault(module, set()).add((head, ref[1]))
    # Cycles between modules (depth-first search).
    state = {}
    stack = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(module_edges.get(node, ())):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                problems.append("cycle: " + " -> ".join("::".join(n) for n in cycle))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(module_edges):
        if node not in state:
            visit(node)
    print("layers (importer -> imported):")
    for layer in ALLOWED:
        print(f"  {layer:7} -> {', '.join(sorted(h for t, h in layer_edges if t == layer)) or '-'}")
    if "--modules" in sys.argv:
        for node in sorted(module_edges):
            print("  " + "::".join(node) + " -> " + ", ".join("::".join(n) for n in sorted(module_edges[node])))
    problems = list(dict.fromkeys(problems))
    if problems:
        print(f"{len(problems)} problem(s):")
        for p in problems:
            print("  " + p)
        sys.exit(1)
    print("no violations: every layer imports only those below it, no module cycles, "
          "the program uses the public API")


main()
