#!/usr/bin/env python3
"""Writes ecs_sched.h from the module sources in src/.

Each module file holds its public part, a line '/*@@ implementation @@*/', then its
implementation part. The header gets src/doc.h (the documentation block), the public parts
of all modules in order, then the implementation parts inside ECS_SCHED_IMPLEMENTATION, each
under a banner naming its source file. The output depends on the sources only.
"""
import pathlib
import sys

MODULES = ["base", "pool", "world", "context", "condition", "graph", "executor"]
MARKER = "/*@@ implementation @@*/"

root = pathlib.Path(__file__).resolve().parent.parent


def read(name):
    return (root / "src" / name).read_text(encoding="utf-8")


def split_module(name):
    text = read(name + ".h")
    if text.count(MARKER) != 1:
        sys.exit(f"src/{name}.h: expected exactly one line '{MARKER}'")
    public, implementation = text.split(MARKER)
    return public.strip("\n"), implementation.strip("\n")


def banner(path, part):
    title = f" {path} ({part}) "
    return "/*" + title.center(92, "=") + "*/"


def generate():
    out = [read("doc.h").rstrip("\n"), ""]
    out += ["#ifndef ECS_SCHED_H", "#define ECS_SCHED_H", ""]
    parts = [(m, *split_module(m)) for m in MODULES]
    out += ["#ifdef __cplusplus", 'extern "C" {', "#endif", ""]
    for name, public, _ in parts:
        out += [banner(f"src/{name}.h", "public"), public, ""]
    out += ["#ifdef __cplusplus", "}", "#endif", "", "#endif /* ECS_SCHED_H */", ""]
    out += ["#if defined(ECS_SCHED_IMPLEMENTATION) && !defined(ECS_SCHED__IMPLEMENTED)",
            "#define ECS_SCHED__IMPLEMENTED",
            "",
            "/* With ECS_SCHED_API defined as static, functions the including file does not",
            "   call are not an error. */",
            "#if defined(__GNUC__) || defined(__clang__)",
            "#pragma GCC diagnostic push",
            '#pragma GCC diagnostic ignored "-Wunused-function"',
            "#endif",
            ""]
    for name, _, implementation in parts:
        out += [banner(f"src/{name}.h", "implementation"), implementation, ""]
    out += ["#if defined(__GNUC__) || defined(__clang__)",
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
    target.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
