#!/usr/bin/env python3
"""Calls between the device's QEMU glue files (hw/hsagpu/*.c): which file
calls a function another one defines, and the cycles among them.

  scripts/lib/callgraph.py [--check]

Prints "file -> callees" lines and a "cycles:" line; --check exits 1 when
there is a cycle (scripts/test runs it with its configuration checks, so
that docs/architecture.md's "no call cycle" stays true). A grep, not a
compiler: a function is a non-static definition at the start of a line,
a call is its name followed by "(" outside comments.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
GLUE = os.path.join(ROOT, 'hw', 'hsagpu')
DEF = re.compile(r'^(?!static)[A-Za-z][\w \*]*?\b(hsagpu_\w+)\s*\([^;{]*\)\s*\{', re.M)


def graph():
    src, defs = {}, {}
    for f in sorted(os.listdir(GLUE)):
        if f.endswith('.c'):
            text = open(os.path.join(GLUE, f)).read()
            src[f] = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
            for m in DEF.finditer(src[f]):
                defs[m.group(1)] = f
    edges = {}
    for f, text in src.items():
        for name, owner in defs.items():
            if owner != f and re.search(r'\b' + name + r'\s*\(', text):
                edges.setdefault(f, set()).add(owner)
    return edges


def cycles(edges):
    def reaches(a, b, seen):
        return any(n == b or (n not in seen and reaches(n, b, seen | {n}))
                   for n in edges.get(a, ()))
    return sorted({tuple(sorted((a, b))) for a in edges for b in edges[a]
                   if reaches(b, a, {b})})


def main():
    edges = graph()
    short = lambda f: f[len('hsagpu-'):-2]
    for f in sorted(edges):
        print('%s -> %s' % (short(f), ', '.join(sorted(short(g) for g in edges[f]))))
    found = cycles(edges)
    print('cycles: %s' % (', '.join('%s <-> %s' % (short(a), short(b)) for a, b in found)
                          if found else 'none'))
    return 1 if found and '--check' in sys.argv[1:] else 0


if __name__ == '__main__':
    sys.exit(main())
