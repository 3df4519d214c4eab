#!/usr/bin/env python3
"""Lists the functions of a Rust source tree longer than a limit (python3, standard library only).

A function's length is the number of lines from its `fn` line to its closing brace that hold
code: blank lines, comment lines and doc comments are not counted. Test modules
(`#[cfg(test)] mod … { … }`) and files named tests.rs are left out, as are the paths given with
--allow (folders or files: the search kernels and the textbook algorithms, kept whole so that
they read as one loop). Exits 1 when a function outside those is longer than --max lines.

    scripts/function-lengths.py [--max 80] [--allow PATH …] ROOT …
"""
import argparse
import pathlib
import re
import sys

from rust_source import block_end, strip

FN = re.compile(r"\bfn\s+(\w+)")


def functions(text):
    """(name, first line, code lines) of each function with a body in `text`."""
    code = strip(text, macro_bodies=False)
    for m in FN.finditer(code):
        # The body starts at the first `{` after the signature, unless a `;` ends it first (a
        # trait's declaration). Generic bounds hold no braces in this code base.
        i = m.end()
        while i < len(code) and code[i] not in "{;":
            i += 1
        if i >= len(code) or code[i] == ";":
            continue
        end = block_end(code, i)
        start_line = code.count("\n", 0, m.start()) + 1
        lines = code[code.rfind("\n", 0, m.start()) + 1:end + 1].split("\n")
        yield m.group(1), start_line, sum(1 for line in lines if line.strip())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("roots", nargs="+", type=pathlib.Path)
    ap.add_argument("--max", type=int, default=80)
    ap.add_argument("--allow", action="append", default=[], type=pathlib.Path)
    args = ap.parse_args()
    allowed = [p.resolve() for p in args.allow]
    found = []
    for root in args.roots:
        for path in sorted(root.rglob("*.rs")):
            if path.name == "tests.rs":
                continue
            real = path.resolve()
            if any(real == a or a in real.parents for a in allowed):
                continue
            for name, line, length in functions(path.read_text()):
                if length > args.max:
                    found.append((length, f"{path}:{line}", name))
    for length, where, name in sorted(found, reverse=True):
        print(f"{where}: fn {name} has {length} lines of code (at most {args.max})")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
