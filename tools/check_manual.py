#!/usr/bin/env python3
"""Compiles and runs every C example of the manual, and checks its links.

    python3 tools/check_manual.py [options] [README.md docs/*.md]

`make manual-check` runs it with the flags the Makefile gives the examples. Every ```c block
of README.md and docs/*.md is a program: it is written to build/manual/<page>_<line>.c,
compiled as C99 with warnings as errors and the sanitizers, linked against the implementation
object the unit tests use (tests/impl.c, compiled once per configuration with ECS_SCHED_JSON
and ECS_SCHED_TRACE; the threaded one tuned to spread every run over the threads), and run;
a compiler error, a nonzero exit status or a sanitizer report fails the check, naming the
page and the line where the block starts. Blocks in other languages (sh, json, cpp, none)
are not compiled.

A block is a whole program unless an HTML comment on the line before its opening fence (blank
lines between are allowed) says otherwise; the comment holds one or more of these words:

    <!-- fragment -->       statements, not a program: pasted into the body of
                            `int main(void)`, after a prelude (FRAGMENT_PRELUDE below) that
                            includes the header and <assert.h>, <stdio.h>, <stdlib.h>,
                            <string.h>, and creates a world `w` (destroyed after the block)
    <!-- compile-only -->   a file of a program that has no main (the implementation file,
                            say): compiled, neither linked nor run
    <!-- threads -->        built as C11 with ECS_SCHED_THREADS against the threaded
                            implementation object, and linked with -lpthread

A whole program defines ECS_SCHED_IMPLEMENTATION before including the header, as it would
built on its own; that one line is dropped here, and the prebuilt implementation linked in
its place, so the check compiles the implementation once and each block in a fraction of a
second. A program runs in build/manual/, so the files it writes land there.

Links: every relative link of these pages, [text](path) or [text](path#heading), must name a
file of the repository and, for a Markdown page, a heading of that page (GitHub's anchors:
lower case, punctuation dropped, spaces as hyphens). And every row of the README's feature
table (the table under "## What is in it") must link to the manual (docs/), where the feature
is taught with an example.

Exit status 0 when every block builds and runs and every link resolves, 1 otherwise.
"""
import argparse
import concurrent.futures
import pathlib
import re
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

FRAGMENT_PRELUDE = """\
#include "ecs_sched.h"
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    ecs_sched_world *w = ecs_sched_world_create(NULL);
    {
#line %(line)d "%(page)s"
%(body)s
    }
    ecs_sched_world_destroy(w);
    return 0;
}
"""

MARKERS = {"fragment", "compile-only", "threads"}
FENCE = re.compile(r"^(`{3,})\s*([\w+-]*)\s*$")
MARKER = re.compile(r"^<!--\s*([\w\s-]+?)\s*-->\s*$")
IMPLEMENTATION_LINE = re.compile(r"^\s*#\s*define\s+ECS_SCHED_IMPLEMENTATION\s*$")


class Block:
    def __init__(self, page, line, lang, text, markers):
        self.page, self.line, self.lang, self.text, self.markers = page, line, lang, text, markers

    @property
    def name(self):
        stem = str(self.page.relative_to(ROOT).with_suffix("")).replace("/", "_")
        return f"{stem}_{self.line}"

    @property
    def where(self):
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks_of(page):
    """The fenced code blocks of a Markdown page, with the markers in the comment before each."""
    lines = page.read_text(encoding="utf-8").split("\n")
    found, problems = [], []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang, start = m.group(1), m.group(2).lower(), i
        j = i + 1
        while j < len(lines) and lines[j].strip() != fence:
            j += 1
        if j == len(lines):
            problems.append(f"{page.relative_to(ROOT)}:{start + 1}: a code block that never ends")
            break
        k = start - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        markers = set()
        mm = MARKER.match(lines[k].strip()) if k >= 0 else None
        if mm:
            words = set(mm.group(1).split())
            if words & MARKERS:
                unknown = words - MARKERS
                if unknown:
                    problems.append(f"{page.relative_to(ROOT)}:{start + 1}: unknown marker(s) "
                                    f"{', '.join(sorted(unknown))} (known: "
                                    f"{', '.join(sorted(MARKERS))})")
                markers = words & MARKERS
        found.append(Block(page, start + 2, lang, "\n".join(lines[start + 1: j]) + "\n",
                           markers))
        i = j + 1
    return found, problems


def source_of(block):
    """The C file compiled for a block."""
    page = block.page.relative_to(ROOT)
    if "fragment" in block.markers:
        return FRAGMENT_PRELUDE % {"line": block.line, "page": page, "body": block.text}
    kept = ["" if IMPLEMENTATION_LINE.match(l) else l for l in block.text.split("\n")]
    return f'#line {block.line} "{page}"\n' + "\n".join(kept)


def write_if_changed(path, text):
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


def up_to_date(target, sources):
    if not target.exists():
        return False
    t = target.stat().st_mtime
    return all(s.stat().st_mtime <= t for s in sources)


def check_block(block, args, out):
    """(block, None) when it builds and runs, else (block, what went wrong)."""
    threads = "threads" in block.markers
    cflags = shlex.split(args.threads_cflags if threads else args.cflags)
    impl = pathlib.Path(args.threads_impl if threads else args.impl)
    libs = shlex.split(args.threads_libs if threads else args.libs)
    src = out / (block.name + ".c")
    write_if_changed(src, source_of(block))
    header = ROOT / "ecs_sched.h"
    if "compile-only" in block.markers:
        obj = out / (block.name + ".o")
        if up_to_date(obj, [src, header]):
            return block, None
        cmd = [args.cc] + cflags + ["-c", str(src), "-o", str(obj)]
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        return block, (None if r.returncode == 0 else
                       f"does not compile:\n  {' '.join(cmd)}\n{r.stdout}{r.stderr}")
    exe = out / block.name
    if not up_to_date(exe, [src, header, impl]):
        cmd = [args.cc] + cflags + [str(src), str(impl)] + libs + ["-o", str(exe)]
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            if exe.exists():
                exe.unlink()
            return block, f"does not build:\n  {' '.join(cmd)}\n{r.stdout}{r.stderr}"
    try:
        r = subprocess.run([str(exe.resolve())], cwd=out, capture_output=True, text=True,
                           timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return block, f"ran longer than {args.timeout} s: {exe}"
    sanitizer = re.search(r"ERROR: (Address|Leak|UndefinedBehavior)Sanitizer|runtime error:",
                          r.stderr)
    if r.returncode != 0 or sanitizer:
        return block, (f"exits with status {r.returncode}"
                       f"{' and a sanitizer report' if sanitizer else ''}: {exe}\n"
                       f"{r.stdout[-2000:]}{r.stderr[-4000:]}")
    return block, None


def slug(heading):
    """GitHub's anchor for a heading."""
    text = re.sub(r"`|\*\*?|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors_of(page):
    found, seen = set(), {}
    in_code = False
    for line in page.read_text(encoding="utf-8").split("\n"):
        if FENCE.match(line):
            in_code = not in_code
        m = None if in_code else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            found.add(s if n == 0 else f"{s}-{n}")
            seen[s] = n + 1
    return found


LINK = re.compile(r"\[(?:[^\]`]|`[^`]*`)*\]\(([^)\s]+)\)")


def prose_of(page):
    """The page without its code blocks and inline code, for finding links."""
    text = re.sub(r"^(`{3,}).*?^\1\s*$", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "``", text)


def broken_links(page):
    problems = []
    for target in LINK.findall(prose_of(page)):
        if re.match(r"^[a-z]+:", target):
            continue                        # https:, mailto:...
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            problems.append(f"{page.relative_to(ROOT)}: the link ({target}) names no file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors_of(dest):
            problems.append(f"{page.relative_to(ROOT)}: the link ({target}) names no heading "
                            f"of {dest.relative_to(ROOT)}")
    return problems


def untaught_features(readme):
    """Rows of the README's feature table that do not link to the manual."""
    text = readme.read_text(encoding="utf-8")
    section = re.search(r"^## What is in it\s*$(.*?)(?=^## )", text, re.M | re.S)
    if not section:
        return ["README.md has no '## What is in it' section (the feature table)"]
    rows = [l for l in section.group(1).split("\n")
            if l.startswith("|") and not re.match(r"^\|[\s|:-]*$", l)]
    if len(rows) < 2:
        return ["README.md: the feature table under '## What is in it' has no rows"]
    return [f"README.md: the feature '{row.split('|')[1].strip()}' links to no page of docs/"
            for row in rows[1:] if not re.search(r"\]\(docs/[^)]+\.md", row)]


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("pages", nargs="*")
    p.add_argument("--out", default="build/manual")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=60)
    p.add_argument("--cc", default="gcc")
    p.add_argument("--cflags", default="")
    p.add_argument("--libs", default="")
    p.add_argument("--impl", default="build/gcc/impl.o")
    p.add_argument("--threads-cflags", default="")
    p.add_argument("--threads-libs", default="")
    p.add_argument("--threads-impl", default="build/gcc-mt/impl.o")
    args = p.parse_args(argv[1:])
    if not args.cflags or not args.threads_cflags:
        print("check_manual: no --cflags / --threads-cflags given: run it as `make manual-check` "
              "(MANUAL_PAGES=docs/x.md for one page), which passes the examples' flags")
        return 2

    pages = ([(ROOT / x).resolve() for x in args.pages] if args.pages else
             [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md")))
    problems, blocks = [], []
    for page in pages:
        found, bad = blocks_of(page)
        problems += bad + broken_links(page)
        blocks += [b for b in found if b.lang == "c"]
    if not args.pages or ROOT / "README.md" in pages:
        problems += untaught_features(ROOT / "README.md")

    out = (ROOT / args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    missing = [impl for impl in {args.impl, args.threads_impl} if not (ROOT / impl).exists()]
    for impl in sorted(missing):
        problems.append(f"check_manual: no implementation object {impl} (make manual-check "
                        "builds it)")
    failures = []
    if not missing:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for block, failure in pool.map(lambda b: check_block(b, args, out), blocks):
                if failure:
                    failures.append(f"check_manual: the example at {block.where} {failure}")
    for line in problems + failures:
        print(line if line.startswith("check_manual") else f"check_manual: {line}")
    if problems or failures:
        print(f"check_manual: {len(failures)} of {len(blocks)} examples failed, "
              f"{len(problems)} other problem(s)")
        return 1
    print(f"check_manual: {len(blocks)} examples of {len(pages)} pages build and run; "
          "every link resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
