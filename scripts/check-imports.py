#!/usr/bin/env python3
"""Checks how the files of a Rust crate import each other (python3, standard library only).

Reads every .rs file under the crate's source folder (src/, or --root), maps each to its module
path and resolves what it names: `use crate::…`, `use super::…`, `use self::…`, `use child::…`
and paths written inline in code from `crate`, `super` or `self` (not a bare `child::f()`), to
the longest prefix that is a module file. A name that prefix re-exports (`pub use`) is followed
to the file that defines it, so a mod.rs that only re-exports is no link in a circle. Comments,
literals, macro bodies (their paths resolve where they expand), `#[cfg(test)] mod … { … }`
blocks and tests.rs files are left out (tests may import anything). Exits 1, listing each
finding, on
  (a) a circle between files (a strongly connected component of more than one file),
  (b) a circle between top-level modules (the first path segment under the crate), and
  (c) a file other than the crate root that imports through the root's re-exports
      (`crate::X` where X is not a module).
--graph prints the graph of the top-level modules first.
"""
import argparse
import pathlib
import re
import sys

from rust_source import blank, block_end, strip

USE = re.compile(r"\b(pub(?:\s*\([^)]*\))?\s+)?use\s+([^;]+);")
PATH = re.compile(r"(?<![\w:$])\$?((?:crate|self|super)(?:::(?:\w+|\*))+)")
INLINE_MOD = re.compile(r"\bmod\s+(\w+)\s*\{")


def module_at(code, mod, pos):
    """The module at `pos` of the file of module `mod`: inside `mod name { … }`, a child."""
    for m in INLINE_MOD.finditer(code, 0, pos):
        if block_end(code, m.end() - 1) > pos:
            mod += (m.group(1),)
    return mod


def expand(tree):
    """The paths of a use tree with their names: `a::{b, c::{d as e}}` -> ([a,b],b), ([a,c,d],e)."""
    tree = re.sub(r"\s+", " ", tree).strip()
    if "{" not in tree:
        path, _, alias = tree.partition(" as ")
        segs = [s.strip() for s in path.split("::")]
        return [(segs, alias.strip() or segs[-1])]
    prefix = [s.strip() for s in tree[:tree.index("{")].split("::") if s.strip()]
    body, parts, depth, start = tree[tree.index("{") + 1:tree.rindex("}")] + ",", [], 0, 0
    for i, ch in enumerate(body):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    return [(prefix + [s for s in segs if s != "self"], prefix[-1] if alias == "self" else alias)
            for part in parts if part.strip() for segs, alias in expand(part)]


def circles(graph):
    """The strongly connected components of more than one node: the nodes that reach each other."""
    reach = {}
    for v in graph:
        seen, todo = set(), [v]
        while todo:
            new = graph[todo.pop()] - seen
            seen |= new
            todo += new
        reach[v] = seen
    comps = {tuple(sorted(w for w in reach[v] if v in reach[w])) for v in graph if v in reach[v]}
    return sorted(comp for comp in comps if len(comp) > 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default="src", help="the crate's source folder (default: src)")
    ap.add_argument("--graph", action="store_true", help="print the top-level module graph")
    args = ap.parse_args()
    root = pathlib.Path(args.root)
    crate_root = next(root / f for f in ("lib.rs", "main.rs") if (root / f).exists())
    files = {}  # module path -> file
    for f in sorted(root.rglob("*.rs")):
        parts = f.relative_to(root).with_suffix("").parts
        if f.name != "tests.rs":
            files[() if f == crate_root else parts[:-1] if parts[-1] == "mod" else parts] = f
    code = {m: strip(f.read_text()) for m, f in files.items()}

    def absolute(mod, segs):
        """`segs` as a path from the crate root, seen from `mod`; None for another crate."""
        if segs[0] == "crate":
            return segs[1:]
        if segs[0] in ("self", "super"):
            here = list(mod)
            while segs and segs[0] in ("self", "super"):
                here = here[:-1] if segs.pop(0) == "super" else here
            return here + segs
        return list(mod) + segs if mod + (segs[0],) in files else None

    reexports = {m: {} for m in files}  # module -> name -> path it re-exports
    for m, text in code.items():
        for u in USE.finditer(text):
            for segs, alias in expand(u.group(2)) if u.group(1) else []:
                target = absolute(module_at(text, m, u.start()), segs)
                if target is not None and alias != "*":
                    reexports[m][alias] = target

    def resolve(segs, depth=0):
        """The module file `segs` names, and whether the crate root's re-exports led there."""
        segs = [s for s in segs if s != "*"]
        k = max(k for k in range(len(segs) + 1) if tuple(segs[:k]) in files)
        mod, rest = tuple(segs[:k]), segs[k:]
        if rest and rest[0] in reexports[mod] and depth < 8:
            target, via_root = resolve(reexports[mod][rest[0]] + rest[1:], depth + 1)
            return target, via_root or (mod == () and depth == 0)
        return mod, False

    edges, problems = {m: set() for m in files}, []
    for m, text in code.items():
        uses = [(u.start(), segs) for u in USE.finditer(text) if not u.group(1)
                for segs, _ in expand(u.group(2))]
        inline = USE.sub(lambda u: blank(u.group()), text)
        uses += [(p.start(), p.group(1).split("::")) for p in PATH.finditer(inline)]
        for pos, segs in uses:
            target = absolute(module_at(text, m, pos), segs)
            if not target:
                continue
            mod, via_root = resolve(target)
            finding = (f"{files[m]}:{text.count(chr(10), 0, pos) + 1}: crate::{target[0]} is a "
                       "re-export of the crate root: import it from its home module")
            if via_root and m != () and finding not in problems:
                problems.append(finding)
            if mod not in (m, ()):
                edges[m].add(mod)

    for comp in circles(edges):
        problems.append("file circle: " + " <-> ".join(str(files[m].relative_to(root)) for m in comp))
    top = {m[0]: set() for m in files if m}
    for m, targets in edges.items():
        if m:
            top[m[0]].update(t[0] for t in targets if t[0] != m[0])
    problems += ["module circle: " + " <-> ".join(comp) for comp in circles(top)]
    if args.graph:
        for m in sorted(top):
            print(f"{m} -> {', '.join(sorted(top[m])) or '(nothing)'}")
    print("\n".join(problems + [f"{len(problems)} import problem(s) in {root}"]) if problems else
          f"{root}: {len(files)} files, no import circles, no imports through the crate root")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
