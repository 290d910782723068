#!/usr/bin/env python3
"""Calls between the device's files: which file calls a function another
one defines, the cycles among them, and calls against the folders' order
(vega10 -> glue -> cp -> gcn, all -> core).

  scripts/lib/callgraph.py [--check]

Prints, per folder, "file -> callees" lines and a "cycles:" line, then a
"layering:" line. --check exits 1 when the QEMU glue (hw/hsagpu/*.c) or
the command processor (hw/hsagpu/cp/) or the Vega10 personality
(hw/hsagpu/vega10/) has a cycle between its files, or when a call goes
against the folders' order: vega10 -> glue -> cp -> gcn and all ->
core, never back (scripts/test runs it with its configuration
checks, so that docs/architecture.md's statements stay true). The GCN
interpreter's files call one another by design (step, decode, execute,
register access): one unit, listed but not checked for cycles.

A grep, not a compiler: a function is a non-static definition at the
start of a line, a call is its name followed by "(" outside comments.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
DEV = os.path.join(ROOT, 'hw', 'hsagpu')
DEF = re.compile(r'^(?!static)[A-Za-z][\w \*]*?\b(hsagpu_\w+)\s*\([^;{]*\)\s*\{', re.M)
# folder -> the folders its files may call (besides their own); a
# personality (vega10/) sits above the glue and the engines it presents
FOLDERS = {'vega10': {'', 'core', 'cp', 'gcn'}, '': {'core', 'cp', 'gcn'},
           'cp': {'core', 'gcn'}, 'core': set(), 'gcn': set()}
CHECK_CYCLES = ('vega10', '', 'cp')


def graph():
    src, defs = {}, {}
    for folder in FOLDERS:
        d = os.path.join(DEV, folder)
        for f in sorted(os.listdir(d)):
            if f.endswith('.c'):
                name = os.path.join(folder, f) if folder else f
                text = open(os.path.join(d, f)).read()
                src[name] = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
                for m in DEF.finditer(src[name]):
                    defs[m.group(1)] = name
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


def folder_of(f):
    return os.path.dirname(f)


def short(f):
    return re.sub(r'hsagpu-', '', f.replace('gcn/hsagpu-gcn-', 'gcn/'))[:-2]


def main():
    edges = graph()
    bad = 0
    for folder in FOLDERS:
        inner = {f: {g for g in gs if folder_of(g) == folder}
                 for f, gs in edges.items() if folder_of(f) == folder}
        inner = {f: gs for f, gs in inner.items() if gs}
        print('%s:' % (folder or 'glue'))
        for f in sorted(inner):
            print('  %s -> %s' % (short(f), ', '.join(sorted(short(g) for g in inner[f]))))
        found = cycles(inner)
        checked = folder in CHECK_CYCLES
        print('  cycles: %s%s' % (', '.join('%s <-> %s' % (short(a), short(b)) for a, b in found)
                                  if found else 'none', '' if checked else ' (not checked)'))
        bad += bool(found) and checked
    against = sorted('%s -> %s' % (short(f), short(g)) for f, gs in edges.items() for g in gs
                     if folder_of(g) != folder_of(f) and
                     folder_of(g) not in FOLDERS[folder_of(f)])
    print('layering: %s' % (', '.join(against) if against else
                            'vega10 -> glue -> cp -> gcn, all -> core'))
    bad += bool(against)
    return 1 if bad and '--check' in sys.argv[1:] else 0


if __name__ == '__main__':
    sys.exit(main())
