#!/usr/bin/env python3
"""Checks that the documentation block at the top of ecs_sched.h names every public function.

The public functions are those declared with ECS_SCHED_API in the header; the documentation
block is the leading comment (from src/doc.h). A function counts as named when its full name
appears (the block's API INDEX lists them all, by module). Names the block mentions that the header does not declare are reported too: they are stale.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
header = (root / "ecs_sched.h").read_text(encoding="utf-8")
doc_end = header.index("#ifndef ECS_SCHED_H")
doc = header[:doc_end]
body = header[doc_end:header.index("#endif /* ECS_SCHED_H */")]

declared = set(re.findall(r"ECS_SCHED_API\s+[^;(]*?\b(ecs_sched_\w+)\s*\(", body, re.S))
mentioned = set(re.findall(r"\b(ecs_sched_\w+)\s*\(", doc))
named = set(re.findall(r"\b(ecs_sched_\w+)", doc))
missing = sorted(declared - named)
stale = sorted(n for n in mentioned - declared
               if not n.startswith("ecs_sched__") and n not in declared)
types_and_macros = set(re.findall(r"\b(ecs_sched_\w+)\b", body))
stale = [n for n in stale if n not in types_and_macros]
if missing or stale:
    if missing:
        print("the documentation block (src/doc.h) does not name these public functions:")
        for n in missing:
            print("  " + n)
    if stale:
        print("the documentation block calls functions the header does not declare:")
        for n in stale:
            print("  " + n)
    sys.exit(1)
print(f"the documentation block names all {len(declared)} public functions")
