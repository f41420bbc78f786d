#!/usr/bin/env python3
"""Checks that the modules of src/ form layers: a module uses only names that the modules
before it (in the generator's order) define.

A name is a function, macro, type, enum constant or file-scope variable of the project
(ecs_sched_*, ECS_SCHED_*). The module that defines it is the one holding its body: a
function's definition, a struct's members, a macro's #define, a typedef, an enum's list. A
prototype of another module's function counts as a use. Comments and string literals are
left out before counting.

  tools/check_layers.py            lists every use of a later module's name and fails if any
  tools/check_layers.py --summary  one line per pair of modules, and the circles they make
  tools/check_layers.py --dot F    writes the module graph (Graphviz) to F: an edge from each
                                   module to the earlier modules whose names it uses
"""
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
src = root / "src"

NAME = re.compile(r"\b(?:ecs_sched|ECS_SCHED)\w*")
FUNC_DEF = re.compile(r"\b((?:ecs_sched|ECS_SCHED)\w*)\s*\(([^;{}()]|\([^;{}()]*\))*\)\s*\{")
MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+((?:ecs_sched|ECS_SCHED)\w*)", re.M)
BODY_TYPE = re.compile(r"\b(?:struct|union|enum)\s+((?:ecs_sched|ECS_SCHED)\w*)\s*\{")
ENUM_BODY = re.compile(r"\benum\b[^{;]*\{([^}]*)\}")
ENUM_CONST = re.compile(r"(?:^|,)\s*((?:ecs_sched|ECS_SCHED)\w*)")
VARIABLE = re.compile(r"^(?:static\s+|extern\s+)?(?:const\s+|volatile\s+|_Thread_local\s+|"
                      r"ECS_SCHED__THREAD_LOCAL\s+)*[A-Za-z_]\w*(?:\s*\*)*\s+"
                      r"((?:ecs_sched|ECS_SCHED)\w*)\s*(?:\[[^\]]*\]\s*)*(?:=|;)", re.M)


def strip(text):
    """The text with comments, string and character literals blanked (lines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join("\n" if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def typedef_names(text):
    """Names a typedef gives: the last identifier of each typedef statement (function
    pointer typedefs give the name in parentheses)."""
    names = []
    for m in re.finditer(r"\btypedef\b", text):
        depth, j = 0, m.end()
        while j < len(text):
            ch = text[j]
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == ";" and depth == 0:
                break
            j += 1
        stmt = text[m.end():j]
        tail = stmt[stmt.rfind("}") + 1:] if "}" in stmt else stmt
        fp = re.search(r"\(\s*\*\s*((?:ecs_sched|ECS_SCHED)\w*)\s*\)", tail)
        if fp:
            names.append(fp.group(1))
            continue
        ids = NAME.findall(re.sub(r"\[[^\]]*\]", "", tail))
        if ids:
            names.append(ids[-1])
    return names


def module_order():
    import os
    if os.environ.get("LAYER_ORDER"):   # to try an order before writing its includes
        return os.environ["LAYER_ORDER"].split()
    out = subprocess.run([sys.executable, str(root / "tools" / "amalgamate.py"), "--order"],
                         check=True, capture_output=True, text=True).stdout
    return out.split()


def definitions(text):
    """The names the text defines: (with a body, by a typedef only). A typedef of a struct
    whose members another module lists names that module's struct, not a type of its own."""
    names = set(MACRO.findall(text))
    names |= {m.group(1) for m in FUNC_DEF.finditer(text)}
    names |= set(BODY_TYPE.findall(text))
    for body in ENUM_BODY.findall(text):
        names |= set(ENUM_CONST.findall(re.sub(r"=[^,]*", "", body)))
    names |= set(VARIABLE.findall(text))
    return names, set(typedef_names(text)) - names


def analyse():
    order = module_order()
    rank = {m: i for i, m in enumerate(order)}
    texts = {m: strip((src / (m + ".h")).read_text(encoding="utf-8")) for m in order}
    owner, declared = {}, {}
    for m in order:   # a name defined twice belongs to the first module defining it
        bodies, typedefs = definitions(texts[m])
        for name in bodies:
            owner.setdefault(name, m)
        for name in typedefs:
            declared.setdefault(name, m)
    for name, m in declared.items():
        owner.setdefault(name, m)
    uses = {}   # (user, owner) -> {name: first line}
    for m in order:
        for lineno, line in enumerate(texts[m].splitlines(), 1):
            for name in NAME.findall(line):
                o = owner.get(name)
                if o is None or o == m:
                    continue
                uses.setdefault((m, o), {}).setdefault(name, lineno)
    return order, rank, uses


def circles(order, edges):
    """The strongly connected components of more than one module (Tarjan)."""
    graph = {m: set() for m in order}
    for a, b in edges:
        graph[a].add(b)
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp, key=order.index))

    sys.setrecursionlimit(10000)
    for v in order:
        if v not in index:
            visit(v)
    return out


def write_dot(path, order, rank, uses):
    """The modules in their layers, bottom up, with an edge from each module to the earlier
    ones it uses, implied edges left out (a uses c, and a uses b which uses c: no a -> c)."""
    sys.path.insert(0, str(root / "tools"))
    import amalgamate
    layer = amalgamate.layer_of(order)
    edges = {m: set() for m in order}
    for (a, b) in uses:
        edges[a].add(b)

    def reach(m, seen):
        for d in edges[m]:
            if d not in seen:
                seen.add(d)
                reach(d, seen)
        return seen

    lines = ["digraph modules {", "  rankdir=BT; newrank=true; nodesep=0.25; ranksep=0.35;",
             '  node [shape=box, style="rounded,filled", fillcolor=white, fontname=Helvetica,'
             ' fontsize=11];', '  edge [color="#8090a0", arrowsize=0.6];']
    for i, (name, _) in enumerate(amalgamate.LAYERS):
        members = [m for m in order if layer[m] == i]
        lines.append(f'  subgraph cluster_{i} {{ label="{name}"; fontname=Helvetica; '
                     f'style=filled; fillcolor="#f2f4f7"; color="#c0c8d0";')
        lines.append("    " + " ".join(f'"{m}";' for m in members) + " }")
    for a in order:
        indirect = set()
        for d in edges[a]:
            indirect |= reach(d, set())
        for b in sorted(edges[a] - indirect, key=lambda m: rank[m]):
            style = "" if rank[b] < rank[a] else " [color=red, penwidth=2]"
            lines.append(f'  "{a}" -> "{b}"{style};')
    lines.append("}")
    pathlib.Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def main():
    order, rank, uses = analyse()
    back = {k: v for k, v in uses.items() if rank[k[1]] > rank[k[0]]}
    count = sum(len(v) for v in back.values())
    args = sys.argv[1:]
    if args[:1] == ["--dot"]:
        write_dot(args[1], order, rank, uses)
        print(f"wrote {args[1]}")
        return
    if args[:1] == ["--summary"]:
        for (a, b), names in sorted(back.items(), key=lambda kv: (rank[kv[0][0]], rank[kv[0][1]])):
            print(f"{a} -> {b}: {len(names)}")
        for c in circles(order, back.keys() | uses.keys()):
            print(f"circle of {len(c)}: {' '.join(c)}")
    else:
        for (a, b), names in sorted(back.items(), key=lambda kv: (rank[kv[0][0]], rank[kv[0][1]])):
            listed = ", ".join(f"{n} (line {ln})" for n, ln in sorted(names.items(),
                                                                     key=lambda kv: kv[1]))
            print(f"src/{a}.h uses what the later src/{b}.h defines: {listed}")
    print(f"{len(order)} modules, {count} uses of a later module's names in {len(back)} pairs")
    if count:
        print("A module may use only what the modules before it define (docs/architecture.md): "
              "move the code that needs the later module up into it, or make the lower module "
              "report what the upper one acts on.")
        sys.exit(1)


if __name__ == "__main__":
    main()
