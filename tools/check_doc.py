#!/usr/bin/env python3
"""Checks that the documentation block of ecs_sched.h names every public function and
promises nothing it already has.

    python3 tools/check_doc.py [path/to/ecs_sched.h]

The public functions are those the public part of the header (from `#ifndef ECS_SCHED_H` to
its `#endif`) declares with ECS_SCHED_API. The documentation block is everything before
`#ifndef ECS_SCHED_H`: the leading comment, generated from src/doc/. The check fails when

  - a public function is not named anywhere in the block (its API index lists them all), or
  - the block calls a function `ecs_sched_xxx(` that the public part does not declare (not a
    function, macro or type there): most likely a name the API has since lost or renamed, or
  - a sentence speaks of something as still to come ("the next modules", "to come",
    "planned"...) and names a topic the block's CONTENTS has a section for (States, Time...),
  - the header (block or comments) sends the reader to a section that does not exist:
    "see SECTION" and "see Paragraph in SECTION" must name one of the block's headings, or
  - a macro of the configuration list (ECS_SCHED__CONFIGURATION_LIST, the macros that size
    public structs and so belong to the link-time check) has no entry in CONFIGURATION.

Exit status 0 when the block and the API agree, 1 otherwise.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
NAME = r"ecs_sched_[A-Za-z0-9]\w*"  # public names; ecs_sched__x are internal


def strip_comments_and_strings(code):
    """The code with its comments, string and character literals blanked out."""
    token = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)

    def blank(m):
        text = m.group(0)
        if text.startswith("/"):
            return " " if "\n" not in text else "\n" * text.count("\n")
        return '""'

    return token.sub(blank, code)


def split_directives(code):
    """(code without preprocessor lines, the preprocessor lines joined at backslashes)."""
    code = code.replace("\\\n", " ")
    plain, directives = [], []
    for line in code.split("\n"):
        (directives if line.lstrip().startswith("#") else plain).append(line)
    return "\n".join(plain), directives


def line_of(text, pattern, start=0):
    """The line number in text of the first match of pattern from start (0: none)."""
    m = re.compile(pattern, re.S).search(text, start)
    return text.count("\n", 0, m.start()) + 1 if m else 0


# Wording that speaks of something as not there yet.
FUTURE = re.compile(r"\b(to come|next modules?|coming (?:soon|next)|not yet (?:available|"
                    r"implemented|supported)|planned|a future version|later versions?)\b", re.I)


def promises_kept(doc):
    """(sentence, topic) for each sentence of the block that speaks of a topic as still to come
    although the block's CONTENTS lists a section for it (States, Time, The app...)."""
    contents = re.search(r"^\s*CONTENTS\s*$(.*?)^\s*[A-Z][A-Z ]+$", doc, re.M | re.S)
    topics = []
    for line in (contents.group(1) if contents else "").splitlines():
        m = re.match(r"\s+([A-Za-z_][A-Za-z_ ]*?)\s*\.{2,}", line)
        if m:
            topics.append(re.sub(r"^The ", "", m.group(1)))
    text = re.sub(r"\s+", " ", doc)
    found = []
    for sentence in re.split(r"(?<=[.;])\s", text):
        if not FUTURE.search(sentence):
            continue
        for topic in topics:
            if re.search(r"\b%s\b" % re.escape(topic), sentence, re.I):
                found.append((sentence.strip(), topic))
    return found


# "see THE WORLD", "see Sparse storage in THE WORLD": the section named (macros excepted).
SEE = re.compile(r"\bsee (?:[A-Z][a-z][^().;]*? in )?([A-Z][A-Z0-9'_+]*(?: [A-Z][A-Z0-9'_+]*)*)")


def dangling_references(header, doc):
    """(reference, line) for each "see SECTION" of the header whose SECTION is no heading of
    the documentation block."""
    headings = set()
    for m in re.finditer(r"^ {3}([A-Z][A-Z0-9 ,'/&()+_-]*[A-Z+)])\s*$", doc, re.M):
        headings.add(m.group(1))
        headings.add(m.group(1).split(" (")[0])   # SEEING A FRAME (ECS_SCHED_TRACE)
    found = []
    for m in SEE.finditer(re.sub(r"\n\s*(?:\*\s*)?", " ", header)):
        name = m.group(1)
        if name.startswith("ECS_SCHED_") or name in headings:
            continue
        found.append(m.group(0))
    return sorted(set(found))


def undocumented_configuration(doc, directives):
    """The macros of ECS_SCHED__CONFIGURATION_LIST without an entry of their own (the name
    alone on a line) in the block's CONFIGURATION section; None when the list is missing."""
    listed = None
    for d in directives:
        m = re.match(r"\s*#\s*define\s+ECS_SCHED__CONFIGURATION_LIST\(X\)(.*)", d)
        if m:
            listed = re.findall(r"\bX\((\w+)\)", m.group(1))
    if not listed:
        return None
    section = re.search(r"^   CONFIGURATION\s*$(.*?)^   [A-Z][A-Z ]+$", doc, re.M | re.S)
    text = section.group(1) if section else ""
    return [n for n in listed
            if not re.search(r"^\s+ECS_SCHED_%s\s*$" % n, text, re.M)]


def main(argv):
    path = pathlib.Path(argv[1]) if len(argv) > 1 else ROOT / "ecs_sched.h"
    header = path.read_text(encoding="utf-8")

    start = re.search(r"^#ifndef ECS_SCHED_H\s*$", header, re.M)
    if not start:
        print(f"check_doc: {path} has no '#ifndef ECS_SCHED_H'")
        return 1
    end = re.search(r"^#endif\s*/\*\s*ECS_SCHED_H\s*\*/", header[start.end():], re.M)
    doc = header[: start.start()]
    public = header[start.start(): start.end() + end.start()] if end else header[start.start():]

    code, directives = split_directives(strip_comments_and_strings(public))

    # ECS_SCHED_API <return type> ecs_sched_name(  -- the return type may itself name types.
    api = {}
    for m in re.finditer(r"\bECS_SCHED_API\b([^;{}()]*?)\b(%s)\s*\(" % NAME, code):
        api.setdefault(m.group(2), None)
    if not api:
        print(f"check_doc: found no function declared with ECS_SCHED_API in {path}")
        return 1

    macros = set()
    for d in directives:
        m = re.match(r"\s*#\s*define\s+(%s)" % NAME, d)
        if m:
            macros.add(m.group(1))
    known = set(re.findall(r"\b(%s)\b" % NAME, code)) | macros

    named = set(re.findall(r"\b(%s)\b" % NAME, doc))
    called = set(re.findall(r"\b(%s)\s*\(" % NAME, doc))

    comment = doc.strip()
    if not comment.startswith("/*") or comment.count("/*") != 1 or comment.count("*/") != 1:
        print(f"check_doc: the documentation block of {path.name} must be one comment: it has "
              f"{comment.count('/*')} '/*' and {comment.count('*/')} '*/' (write comments "
              "inside it with //)")
        return 1
    missing = sorted(set(api) - named)
    stale = sorted(called - set(api) - known)
    promised = promises_kept(doc)
    dangling = dangling_references(header, doc)
    for reference in dangling:
        print(f"check_doc: '{reference}' names no section of the documentation block")
    if dangling:
        print("  -> name an existing heading (or 'Paragraph in HEADING') in src/, then "
              "`make amalgamate`")
        return 1
    for sentence, topic in promised:
        print(f"check_doc: the block speaks of '{topic}' as still to come, but the header has "
              f"its section:\n  {sentence}")
    if promised:
        print("  -> say what the header holds now, in src/doc/, then `make amalgamate`")
        return 1

    unlisted = undocumented_configuration(doc, directives)
    if unlisted is None:
        print("check_doc: the public part has no ECS_SCHED__CONFIGURATION_LIST")
        return 1
    if unlisted:
        print("check_doc: CONFIGURATION has no entry for these macros of "
              "ECS_SCHED__CONFIGURATION_LIST (they size public structs):")
        for n in unlisted:
            print(f"  ECS_SCHED_{n}")
        print("  -> give each an entry in src/doc/1_introduction.txt, then `make amalgamate`")
        return 1

    where = "the documentation block of %s (generated from src/doc/)" % path.name
    if not missing and not stale:
        print(f"check_doc: {where} names all {len(api)} public functions")
        return 0
    if missing:
        print(f"check_doc: {len(missing)} of the {len(api)} public functions (ECS_SCHED_API) "
              f"are not named in {where}:")
        for n in missing:
            decl = r"ECS_SCHED_API[^;{}()]*?\b%s\s*\(" % n
            print(f"  {n}    (declared at {path.name}:{line_of(header, decl, start.start())})")
        print("  -> name them in the block's API index in src/doc/, then `make amalgamate`")
    if stale:
        print(f"check_doc: {where} calls {len(stale)} function(s) the header does not declare "
              "(likely stale):")
        for n in stale:
            call = r"\b%s\s*\(" % n
            print(f"  {n}(    ({path.name}:{line_of(doc, call)})")
        print("  -> rename or remove them in src/doc/, then `make amalgamate`")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
