#!/usr/bin/env python3
"""The benchmark against an earlier version: is the working tree slower?

    python3 tools/bench_compare.py BASE [--rounds N] [--limit PERCENT] [FILTER...]
    make bench-compare BASE=<git ref> [ROUNDS=5] [ROWS="spawn commands"]

Builds bench/ (the working tree's benchmark program) twice: against the ecs_sched.h of the git
commit BASE, and against the working tree's ecs_sched.h. Then it runs the two programs in
alternation, ROUNDS times each (old then new, then new then old, ...), on the same machine, and
prints for each row the median value of each side, the ratio new/old, the spread of each side
(max - min over its rounds, in percent of its median), and the ratio of the rows' own ratios
(value / baseline, the baseline being measured in the same process as the value: it cancels
what the machine does between runs).

A row is named WORSE when new/old exceeds 1 + PERCENT/100 (default 5 %) and every round of the
new side is slower than every round of the old one (the difference is beyond the spread);
BETTER the other way round. The exit status is 1 when a row is worse, 2 when something could
not be built or run.

A benchmark row that uses what BASE's header lacks cannot be built against it: the row files
of bench/ (bench/*_rows.c) can each be left out with -DBENCH_WITHOUT_<NAME>_ROWS (see the end
of bench/bench.c). The tool compiles against BASE, leaves out each row file the compiler
complains about, tries again, and builds the new side without the same files, so that both
sides are the same program; the rows left out are listed.
"""
import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join("build", "compare")


def run(cmd, **kw):
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, **kw)


def pkg_cflags():
    r = run(["pkg-config", "--cflags", "stb"])
    return shlex.split(r.stdout) if r.returncode == 0 else ["-I/usr/include/stb"]


def pkg_libs():
    r = run(["pkg-config", "--libs", "stb"])
    return shlex.split(r.stdout) if r.returncode == 0 else ["-lstb"]


def base_header(ref):
    r = run(["git", "rev-parse", "--short", ref + "^{commit}"])
    if r.returncode != 0:
        sys.exit(f"bench-compare: BASE={ref} is not a commit of this repository: {r.stderr.strip()}")
    short = r.stdout.strip()
    text = run(["git", "show", f"{short}:ecs_sched.h"])
    if text.returncode != 0:
        sys.exit(f"bench-compare: commit {short} has no ecs_sched.h: {text.stderr.strip()}")
    directory = os.path.join(BUILD, short)
    os.makedirs(os.path.join(ROOT, directory), exist_ok=True)
    with open(os.path.join(ROOT, directory, "ecs_sched.h"), "w") as f:
        f.write(text.stdout)
    return short, directory


FLAGS = ["-std=c11", "-O2", "-DECS_SCHED_THREADS", "-DECS_SCHED_JSON",
         "-Werror=implicit-function-declaration"]
ALIGNED = ["-falign-functions=64", "-falign-loops=64"]


def build(name, include, without):
    """Builds build/compare/<name>/bench against the ecs_sched.h in `include`; returns the
    program's path, or (None, the compiler's errors)."""
    out = os.path.join(BUILD, name)
    os.makedirs(os.path.join(ROOT, out), exist_ok=True)
    defines = ["-DBENCH_WITHOUT_%s_ROWS" % w.upper() for w in without]
    incs = ([f"-I{include}"] if include else []) + ["-I."] + pkg_cflags()
    objects = []
    for src in ("untraced_copy", "traced_copy"):
        obj = os.path.join(out, src + ".o")
        r = run(["cc"] + FLAGS + ALIGNED + defines + incs + ["-c", f"bench/{src}.c", "-o", obj])
        if r.returncode != 0:
            return None, r.stderr
        objects.append(obj)
    program = os.path.join(out, "bench")
    r = run(["cc"] + FLAGS + defines + incs + ["bench/bench.c", "bench/game_loop_row.c"] + objects +
            pkg_libs() + ["-lcjson", "-lpthread", "-o", program])
    if r.returncode != 0:
        return None, r.stderr
    return program, ""


def row_files_in(errors):
    return sorted(set(re.findall(r"bench/(\w+)_rows\.c:\d+:\d+: error", errors)))


def build_both(short, directory):
    without = []
    while True:
        old, errors = build(short, directory, without)
        if old:
            break
        files = [f for f in row_files_in(errors) if f not in without]
        if not files:
            first = "\n".join(errors.splitlines()[:30])
            sys.exit(f"bench-compare: the benchmark does not build against {short}'s header, and "
                     f"not because of a row file that can be left out:\n{first}")
        without += files
    new, errors = build("working-tree", None, without)
    if not new:
        sys.exit("bench-compare: the benchmark does not build against the working tree:\n" +
                 "\n".join(errors.splitlines()[:30]))
    return old, new, without


def run_side(program, header_dir, json_path, filters):
    env = dict(os.environ, BENCH_HEADER_DIR=header_dir)
    r = subprocess.run([os.path.join(ROOT, program), f"--json={json_path}"] + filters, cwd=ROOT,
                       env=env, capture_output=True, text=True)
    try:
        with open(os.path.join(ROOT, json_path)) as f:
            rows = json.load(f)
    except (OSError, ValueError):
        sys.exit(f"bench-compare: {program} wrote no figures (exit {r.returncode}):\n"
                 + r.stdout[-2000:] + r.stderr[-2000:])
    return {row["name"]: row for row in rows}, r.stdout


def spread(values):
    m = statistics.median(values)
    return 100.0 * (max(values) - min(values)) / m if m else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("base", help="the git commit (or branch, tag) to compare with")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--limit", type=float, default=5.0, help="percent worse that names a row")
    ap.add_argument("filters", nargs="*", help="only the rows whose name contains one of these")
    args = ap.parse_intermixed_args()
    if args.rounds < 2:
        sys.exit("bench-compare: --rounds must be 2 or more (a spread needs two rounds)")

    short, directory = base_header(args.base)
    print(f"bench-compare: building the benchmark against {short}'s ecs_sched.h and the working tree's")
    old, new, without = build_both(short, directory)
    if without:
        print("  left out (the rows of these files use what %s lacks): %s" %
              (short, ", ".join(f"bench/{w}_rows.c" for w in without)))

    figures = {"old": [], "new": []}
    sides = {"old": (old, directory), "new": (new, ".")}
    for r in range(args.rounds):
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        for side in order:
            program, header_dir = sides[side]
            print(f"  round {r + 1}/{args.rounds}: {side}", flush=True)
            rows, _ = run_side(program, header_dir, os.path.join(BUILD, f"{side}.json"), args.filters)
            figures[side].append(rows)

    names = [n for n in figures["new"][0] if all(n in f for f in figures["old"] + figures["new"])]
    worse, better = [], []
    print(f"\n{'row':34} {'old':>11} {'new':>11} {'unit':10} {'new/old':>8} "
          f"{'spread old':>10} {'spread new':>10} {'ratio new/old':>13}  verdict")
    for name in names:
        o = [f[name]["value"] for f in figures["old"]]
        n = [f[name]["value"] for f in figures["new"]]
        ro = [f[name]["ratio"] for f in figures["old"]]
        rn = [f[name]["ratio"] for f in figures["new"]]
        mo, mn = statistics.median(o), statistics.median(n)
        change = mn / mo if mo else float("nan")
        rr = statistics.median(rn) / statistics.median(ro) if statistics.median(ro) else float("nan")
        verdict = ""
        if change > 1 + args.limit / 100 and min(n) > max(o):
            verdict = "WORSE"
            worse.append(name)
        elif change < 1 - args.limit / 100 and max(n) < min(o):
            verdict = "better"
            better.append(name)
        unit = figures["new"][0][name]["unit"]
        print(f"{name:34} {mo:11.4g} {mn:11.4g} {unit:10} {change:8.3f} {spread(o):9.1f}% "
              f"{spread(n):9.1f}% {rr:13.3f}  {verdict}")
    missing = [n for n in figures["old"][0] if n not in names]
    if missing:
        print("\nrows only %s measured: %s" % (short, ", ".join(missing)))
    print(f"\n{len(names)} rows, {args.rounds} rounds each side, alternating; new = working tree, "
          f"old = {short}")
    if worse:
        print("WORSE by more than %g %% beyond the spread: %s" % (args.limit, ", ".join(worse)))
        return 1
    print("no row worse by more than %g %% beyond the spread" % args.limit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
