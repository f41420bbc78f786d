#!/usr/bin/env python3
"""Writes ecs_sched.h from the module sources in src/.

Each module src/<name>.h holds its public part, a line '/*@@ implementation @@*/', then its
implementation part. A module names the modules it uses with '#include "<module>.h"' lines
(and '#pragma once'), so that each one parses on its own in an editor; the order of the
modules in the header is derived from those includes (a module comes after everything it
includes), and the lines themselves are left out of the header.

The header gets the documentation block (src/doc/*.txt, joined in file-name order: one part per
group of sections), the public parts of all modules in
order, then the implementation parts inside ECS_SCHED_IMPLEMENTATION, each under a banner
naming its source file. The output depends on the sources only.
"""
import pathlib
import re
import sys

MARKER = "/*@@ implementation @@*/"
DOC_PARTS = "doc"
INCLUDE = re.compile(r'^#include "([a-z_]+)\.h"\s*$')
# A line '/*@@ embed <file> @@*/' in a module is replaced by the text of src/<file> as C string
# literals, one per piece of at most EMBED_PIECE characters (C99 promises string literals of
# 4095 characters only), each followed by a comma: the elements of an array of strings.
EMBED = re.compile(r'^\s*/\*@@ embed ([A-Za-z0-9_.]+) @@\*/\s*$')
EMBED_PIECE = 2000
PRAGMA_ONCE = "#pragma once"

root = pathlib.Path(__file__).resolve().parent.parent
src = root / "src"


def module_names():
    return sorted(p.stem for p in src.glob("*.h") if p.name != "doc.h")


def read_doc():
    """The documentation block, from its parts in src/doc/, in file-name order."""
    parts = sorted((src / DOC_PARTS).glob("*.txt"))
    if not parts:
        sys.exit("src/doc/: no parts of the documentation block (*.txt)")
    return "".join(p.read_text(encoding="utf-8") for p in parts)


def read(name):
    return (src / name).read_text(encoding="utf-8")


def dependencies(name, modules):
    deps = []
    for line in read(name + ".h").splitlines():
        m = INCLUDE.match(line)
        if m and m.group(1) in modules:
            deps.append(m.group(1))
    return deps


# The layers, bottom up (docs/architecture.md). The generator puts every module after the
# modules it includes, and otherwise a lower layer first: a module's layer may not be below
# the layer of a module it includes.
LAYERS = [
    ("platform", ["base", "pool"]),
    ("core", ["registry", "ticks", "table", "list", "query", "table_graph", "commands",
              "context", "trace_events", "observer", "queue", "sparse", "component",
              "message", "resource", "entity", "entity_access"]),
    ("scheduling", ["timer", "condition", "graph", "build", "access", "plan", "change", "trace",
                    "stepping", "executor", "dot"]),
    ("world features", ["relation_store", "relation", "hierarchy", "sort", "sparse_query", "name",
                        "inherit", "iter", "bulk", "disable", "reflect", "scope", "query_text",
                        "emit"]),
    ("data", ["prefab", "json", "json_load", "json_save", "snapshot"]),
    ("game", ["time", "state", "transition", "delay"]),
    ("scripting", ["script", "script_native", "script_lua_run", "script_lua_columns", "script_lua"]),
    ("top", ["world", "app"]),
    ("services", ["remote_page", "remote", "remote_world", "remote_library", "remote_dispatch",
                  "remote_server"]),
]


# The modules a switch leaves out (docs/building.md, Leaving features out): the generator
# wraps each one's public part and its implementation in #ifndef SWITCH. What a switch implies
# (ECS_SCHED_MINIMAL, a feature that needs another) is resolved at the top of base.h; modules
# that keep working without a feature guard their own uses of it.
OPTIONAL = {
    "relation_store": "ECS_SCHED_NO_RELATIONS",
    "relation": "ECS_SCHED_NO_RELATIONS",
    "hierarchy": "ECS_SCHED_NO_RELATIONS",
    "inherit": "ECS_SCHED_NO_INHERITANCE",
    "prefab": "ECS_SCHED_NO_INHERITANCE",
    "reflect": "ECS_SCHED_NO_REFLECT",
    "snapshot": "ECS_SCHED_NO_SNAPSHOT",
    "stepping": "ECS_SCHED_NO_STEPPING",
    "state": "ECS_SCHED_NO_STATES",
    "transition": "ECS_SCHED_NO_STATES",
    "app": "ECS_SCHED_NO_APP",
    "query_text": "ECS_SCHED_NO_QUERY_TEXT",
    "scope": "ECS_SCHED_NO_RELATIONS",
}


def guarded(name, text):
    """The module's part, inside the #ifndef of the switch that leaves it out, if any."""
    switch = OPTIONAL.get(name)
    if not switch:
        return [text]
    return [f"#ifndef {switch}", text, f"#endif /* {switch} */"]


def layer_of(modules):
    rank = {}
    for i, (_, names) in enumerate(LAYERS):
        for name in names:
            rank[name] = i
    missing = sorted(m for m in modules if m not in rank)
    if missing:
        sys.exit("src/: module(s) in no layer: " + ", ".join(missing) +
                 " (add each to LAYERS in tools/amalgamate.py and to docs/architecture.md)")
    return rank


def module_order():
    """Every module after the modules it includes; among those ready, the lowest layer first,
    then alphabetical order. Fails when the includes make a cycle, or put a module after one
    of a higher layer."""
    modules = module_names()
    deps = {m: dependencies(m, modules) for m in modules}
    rank = layer_of(modules)
    state = {}

    def visit(m, path):   # cycles, with their path
        if state.get(m) == "done":
            return
        if state.get(m) == "visiting":
            sys.exit("src/: the modules include each other in a cycle: " +
                     " -> ".join(path + [m]))
        state[m] = "visiting"
        for d in deps[m]:
            visit(d, path + [m])
        state[m] = "done"

    for m in modules:
        visit(m, [])
    for m in modules:
        for d in deps[m]:
            if rank[d] > rank[m]:
                sys.exit(f"src/{m}.h ({LAYERS[rank[m]][0]}) includes src/{d}.h, of the higher "
                         f"layer {LAYERS[rank[d]][0]}: move what it needs down, or move "
                         f"{m} up (docs/architecture.md)")
    order, done = [], set()
    while len(order) < len(modules):
        ready = [m for m in modules if m not in done and all(d in done for d in deps[m])]
        m = min(ready, key=lambda x: (rank[x], x))
        order.append(m)
        done.add(m)
    return order


def c_string(text):
    """text as a C string literal: quotes, backslashes, control and non-ASCII bytes escaped
    (octal, three digits), and no trigraph (a '?' after a '?' escaped)."""
    out = []
    for byte in text.encode("utf-8"):
        c = chr(byte)
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "?" and out and out[-1] in ("?", "\\?"):
            out.append("\\?")
        elif 32 <= byte < 127:
            out.append(c)
        else:
            out.append("\\%03o" % byte)
    return '"' + "".join(out) + '"'


def embedded(name):
    """src/<name> as the lines of string literals, a piece of whole lines (at most EMBED_PIECE
    characters) per literal, each literal written over several lines of the header."""
    path = src / name
    if not path.exists():
        sys.exit(f"src/{name}: missing (a module embeds it)")
    pieces, piece = [], ""
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        while len(line) > EMBED_PIECE:
            pieces.append(piece + line[:EMBED_PIECE - len(piece)])
            line = line[EMBED_PIECE - len(piece):]
            piece = ""
        if len(piece) + len(line) > EMBED_PIECE:
            pieces.append(piece)
            piece = ""
        piece += line
    if piece:
        pieces.append(piece)
    out = []
    for p in pieces:
        lines = p.splitlines(keepends=True)
        out += ["    " + c_string(l) for l in lines[:-1]]
        out.append("    " + c_string(lines[-1]) + ",")
    return out


def embed_files(text):
    lines = []
    for line in text.splitlines():
        m = EMBED.match(line)
        lines += embedded(m.group(1)) if m else [line]
    return "\n".join(lines)


def strip_module_lines(text, modules):
    kept = []
    for line in text.splitlines():
        if line.strip() == PRAGMA_ONCE:
            continue
        m = INCLUDE.match(line)
        if m and m.group(1) in modules:
            continue
        kept.append(line)
    return "\n".join(kept)


def split_module(name, modules):
    text = read(name + ".h")
    if text.count(MARKER) != 1:
        sys.exit(f"src/{name}.h: expected exactly one line '{MARKER}'")
    public, implementation = embed_files(strip_module_lines(text, modules)).split(MARKER)
    return public.strip("\n"), implementation.strip("\n")


def split_module_with_lines(name, modules):
    """The module's two parts as split_module gives them, each line where it stands in
    src/<name>.h: a '#line' directive before each part and after each embedded file, and the
    lines the header leaves out (includes, '#pragma once') kept as empty lines. For the
    coverage build only: gcov then counts each line against its module."""
    path = f"src/{name}.h"
    lines = read(name + ".h").splitlines()
    marker = [i for i, line in enumerate(lines) if line.strip() == MARKER]
    if len(marker) != 1:
        sys.exit(f"src/{name}.h: expected exactly one line '{MARKER}'")

    def part(first, end):
        out = [f'#line {first + 1} "{path}"']
        for i in range(first, end):
            line = lines[i]
            include = INCLUDE.match(line)
            embed = EMBED.match(line)
            if line.strip() == PRAGMA_ONCE or (include and include.group(1) in modules):
                out.append("")
            elif embed:
                out += embedded(embed.group(1))
                out.append(f'#line {i + 2} "{path}"')
            else:
                out.append(line)
        return "\n".join(out)

    return part(0, marker[0]), part(marker[0] + 1, len(lines))


def banner(path, part):
    title = f" {path} ({part}) "
    return "/*" + title.center(92, "=") + "*/"


def generate(line_directives=False):
    modules = set(module_names())
    unknown = sorted(set(OPTIONAL) - modules)
    if unknown:
        sys.exit("tools/amalgamate.py: OPTIONAL names no module " + ", ".join(unknown))
    split = split_module_with_lines if line_directives else split_module
    parts = [(m, *split(m, modules)) for m in module_order()]
    out = [read_doc().rstrip("\n"), ""]
    out += ["#ifndef ECS_SCHED_H", "#define ECS_SCHED_H", ""]
    out += ["#ifdef __cplusplus", 'extern "C" {', "#endif", ""]
    for name, public, _ in parts:
        out += [banner(f"src/{name}.h", "public"), *guarded(name, public), ""]
    out += ["#ifdef __cplusplus", "}", "#endif", "", "#endif /* ECS_SCHED_H */", ""]
    out += ["#if defined(ECS_SCHED_IMPLEMENTATION) && !defined(ECS_SCHED__IMPLEMENTED)",
            "#define ECS_SCHED__IMPLEMENTED",
            "",
            "/* With ECS_SCHED_STATIC, functions the including file does not call are not an",
            "   error; nor, with features left out, the helpers only those features call. */",
            "#if (defined(ECS_SCHED_STATIC) || defined(ECS_SCHED__LEAVES_OUT)) && \\",
            "    (defined(__GNUC__) || defined(__clang__))",
            "#pragma GCC diagnostic push",
            '#pragma GCC diagnostic ignored "-Wunused-function"',
            "#endif",
            ""]
    for name, _, implementation in parts:
        out += [banner(f"src/{name}.h", "implementation"), *guarded(name, implementation), ""]
    out += ["#if (defined(ECS_SCHED_STATIC) || defined(ECS_SCHED__LEAVES_OUT)) && \\",
            "    (defined(__GNUC__) || defined(__clang__))",
            "#pragma GCC diagnostic pop",
            "#endif",
            "",
            "#endif /* ECS_SCHED_IMPLEMENTATION */", ""]
    return "\n".join(out)


def main():
    target = root / "ecs_sched.h"
    text = generate()
    if len(sys.argv) > 1 and sys.argv[1] == "--check":
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != text:
            sys.exit("ecs_sched.h differs from the generator's output: run 'make amalgamate' "
                     "and commit both")
        print("ecs_sched.h matches src/")
        return
    # A copy of the header whose lines name their place in src/ (#line), for the coverage
    # report: python3 tools/amalgamate.py --line-directives build/coverage/ecs_sched.h
    if len(sys.argv) > 2 and sys.argv[1] == "--line-directives":
        copy = pathlib.Path(sys.argv[2])
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(generate(line_directives=True), encoding="utf-8")
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--order":
        print(" ".join(module_order()))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--layers":
        rank = layer_of(module_names())
        for m in module_order():
            print(" ".join([LAYERS[rank[m]][0], m] + ([OPTIONAL[m]] if m in OPTIONAL else [])))
        return
    target.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
