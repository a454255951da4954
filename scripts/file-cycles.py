#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Circles between source files: the graph "file A uses a non-static function defined in file B"
# (a call or its address taken) over the .c files of the given folders, and its strongly
# connected components of more than one file. A circle means no file of it can be read, tested
# or replaced without the others; layered code has none. Exit 0 when there is none, 1 (and the
# circles, with the functions that close them) when there are, 2 for bad usage.
import argparse
import os
import re
import sys

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "_Alignof", "_Static_assert", "defined"}


def strip(text):
    """The text without comments, string and character literals or #include lines (each
    replaced by a space, newlines kept so that nothing joins)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(" " + "\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" ")
            i = j + 1
        else:
            out.append(c)
            i += 1
    return re.sub(r"^[ \t]*#[ \t]*include[^\n]*", "", "".join(out), flags=re.M)


def definitions(code):
    """Names of the functions code defines, each with whether it is static."""
    defs, depth, start = {}, 0, 0
    code = re.sub(r"^[ \t]*#[^\n]*(\\\n[^\n]*)*", lambda m: " " * len(m.group(0)), code, flags=re.M)
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if c == "{":
            if depth == 0:
                head = code[start:i]
                m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(([^()]|\([^()]*\))*\)\s*$", head)
                if m and m.group(1) not in KEYWORDS and "=" not in head[: m.start()]:
                    defs[m.group(1)] = re.search(r"\bstatic\b", head[: m.start()]) is not None
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif c == ";" and depth == 0:
            start = i + 1
        i += 1
    return defs


def scan(root, folders):
    files = {}
    for folder in folders:
        path = os.path.join(root, folder)
        if not os.path.isdir(path):
            sys.exit(f"file-cycles: {path} is not a folder")
        for name in sorted(os.listdir(path)):
            if name.endswith(".c"):
                with open(os.path.join(path, name), encoding="utf-8") as f:
                    files[f"{folder}/{name}"] = strip(f.read())
    owner = {}
    for name, code in files.items():
        for fn, static in definitions(code).items():
            if not static:
                owner.setdefault(fn, set()).add(name)
    edges = {name: {} for name in files}
    for name, code in files.items():
        for ident in set(IDENT.findall(code)):
            for other in owner.get(ident, ()):
                if other != name:
                    edges[name].setdefault(other, set()).add(ident)
    return edges


def components(edges):
    """Tarjan's strongly connected components with more than one file."""
    index, low, stack, on, out = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
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

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    ap = argparse.ArgumentParser(
        description="List circles between the .c files of FOLDERs: files that use each other's non-static "
        "functions in a loop. Exit 0 when there is none, 1 when there are (they are printed).")
    ap.add_argument("folders", nargs="*", default=["engine", "cache", "ptxgen"], metavar="FOLDER",
                    help="folders relative to --root (default: engine cache ptxgen)")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                    help="the source tree (default: this script's repository)")
    ap.add_argument("--allow", action="append", default=[], metavar="A,B",
                    help="a circle of exactly these files that is known and tolerated (may be repeated)")
    ap.add_argument("--edges", action="store_true", help="also print every edge between files")
    args = ap.parse_args()
    edges = scan(os.path.abspath(args.root), args.folders)
    if args.edges:
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(f"{a} -> {b}: {', '.join(sorted(edges[a][b]))}")
    allowed = {tuple(sorted(x.split(","))) for x in args.allow}
    bad = 0
    for comp in components(edges):
        known = tuple(comp) in allowed
        bad += not known
        print(f"{'known circle' if known else 'circle'} of {len(comp)} files: {' '.join(comp)}")
        for a in comp:
            for b in sorted(edges[a]):
                if b in comp:
                    print(f"  {a} -> {b}: {', '.join(sorted(edges[a][b]))}")
    if not bad:
        print(f"file-cycles: no circle between the files of {' '.join(args.folders)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
