#!/usr/bin/env python3
"""Structure report of fabric's sources: files over a line limit, functions
over a line limit, and import cycles between files.

    python3 scripts/structure.py [--max-file 600] [--max-fn 120]

Counts every line of a file; test-only files (tests/, benches, and the
`tests.rs` files under src/) are left out of the file limit. A function is
measured from its `fn` line to the line of its closing brace, by brace
depth (strings and comments are stripped first). An import edge goes from
a file to each file of the crate that a `use crate::...`, `use super::...`
or `super::x::` path in it names; cycles are strongly connected
components of more than one file. Exit code 1 when any limit is broken.
"""
import argparse
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SRC = os.path.join(ROOT, "src")


def rust_files():
    for d, _, fs in os.walk(SRC):
        for f in fs:
            if f.endswith(".rs"):
                yield os.path.relpath(os.path.join(d, f), ROOT)


def strip(text):
    """The text with comments, strings and char literals blanked (newlines
    kept, so line numbers hold)."""
    out, i, n = [], 0, len(text)

    def blank(seg):
        return "".join(c if c == "\n" else " " for c in seg)

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            j = n if end < 0 else end + 1 + len(hashes)
            out.append(blank(text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(blank(text[i:j + 1]))
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\(x..|u\{[0-9a-fA-F]+\}|.)|[^\\'])'", text[i:i + 12])
            if m:
                out.append(blank(m.group(0)))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(text):
    lines = strip(text).split("\n")
    out = []
    for i, line in enumerate(lines):
        m = re.search(r"\bfn\s+(\w+)", line)
        if not m:
            continue
        depth, started = 0, False
        for j in range(i, len(lines)):
            for c in lines[j]:
                if c == "{":
                    depth += 1
                    started = True
                elif c == "}":
                    depth -= 1
            if started and depth == 0:
                out.append((m.group(1), i + 1, j - i + 1))
                break
            if not started and ";" in lines[j]:
                break
    return out


def module_of(path):
    rel = os.path.relpath(path, "src")[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return rel


def file_of(module, files):
    for cand in ("/".join(["src"] + module) + ".rs", "/".join(["src"] + module + ["mod.rs"])):
        if cand in files:
            return cand
    return None


def imports(path, text, files):
    """Files of the crate that `crate::` and `super::` paths in `path` name
    (`super` of a module is its parent, for `mod.rs` files and others)."""
    mod = module_of(path)
    targets = set()
    clean = strip(text)
    found = re.findall(r"\b(crate|super)((?:::\w+)+)", clean)
    # Grouped imports: `use super::{a::B, c}` names `super::a` and `super::c`.
    for head, prefix, inner in re.findall(r"\buse\s+(crate|super)((?:::\w+)*)::\{([^;]*)\};", clean):
        found += [(head, prefix + "::" + t) for t in re.findall(r"\w+(?:::\w+)*", inner)]
    for head, rest in found:
        parts = rest.strip(":").split("::")
        base = [] if head == "crate" else mod[:-1]
        # The longest prefix that names a file.
        for k in range(len(parts), 0, -1):
            f = file_of(base + parts[:k], files)
            if f and f != path:
                targets.add(f)
                break
    return targets


def cycles(graph):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
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
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-file", type=int, default=600)
    ap.add_argument("--max-fn", type=int, default=120)
    a = ap.parse_args()
    os.chdir(ROOT)
    files = sorted(rust_files())
    texts = {f: open(f, encoding="utf-8").read() for f in files}
    bad = 0
    long_files = [(len(t.split("\n")) - 1, f) for f, t in texts.items()
                  if not f.endswith("tests.rs") and len(t.split("\n")) - 1 > a.max_file]
    print(f"files over {a.max_file} lines (tests left out): {len(long_files)}")
    for n, f in sorted(long_files, reverse=True):
        print(f"  {n:5} {f}")
    long_fns = []
    for f, t in texts.items():
        for name, line, n in functions(t):
            if n > a.max_fn:
                long_fns.append((n, f"{f}:{line} {name}"))
    print(f"functions over {a.max_fn} lines: {len(long_fns)}")
    for n, where in sorted(long_fns, reverse=True):
        print(f"  {n:5} {where}")
    graph = {f: imports(f, t, set(files)) for f, t in texts.items()}
    cyc = cycles(graph)
    print(f"import cycles between files: {len(cyc)}")
    for c in cyc:
        print("  " + " <-> ".join(c))
    bad = len(long_files) + len(long_fns) + len(cyc)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
