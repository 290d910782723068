#!/usr/bin/python3
"""Keep only one GPU's part of a Tensile catalogue (rocBLAS's
library/TensileLibrary.dat, MessagePack), for scripts/build-trixie-rocm.

  tensile_prune.py FILE PROCESSOR      rewrite FILE in place, e.g. gfx900

Debian's rocBLAS 5.5 is built without Tensile's lazy loading: its one
catalogue covers every target (117 MB), and rocblas_initialize (or the
first GEMM) reads it whole, which under TCG takes most of half a minute.
The catalogue is {"solutions": [...], "library": {"type": "Hardware",
"rows": [{"predicate", "library"}, ...]}}: Tensile takes the first row
whose predicate matches the device, and its libraries name solutions by
their "index" (the entries of a Matching table, a Single library). This
keeps the rows whose predicate names PROCESSOR or no processor at all
(TruePred: the fallback every device reaches), in their order, and the
solutions they name, unchanged: for PROCESSOR, Tensile selects the same
solution as with the whole catalogue. A catalogue of another shape is
left as it is (exit status 0, a message on stderr); exit status 1 when
msgpack (python3-msgpack) is missing or the file cannot be read.
"""
import os
import sys

try:
    import msgpack
except ImportError:
    print('tensile_prune: no msgpack module (python3-msgpack)', file=sys.stderr)
    sys.exit(1)


def processors(pred, out):
    """The "Processor" values a predicate names."""
    if isinstance(pred, dict):
        if pred.get('type') == 'Processor':
            out.add(pred.get('value'))
        for v in pred.values():
            processors(v, out)
    elif isinstance(pred, list):
        for v in pred:
            processors(v, out)
    return out


def solution_refs(lib, out):
    """The solution indices a library (and those below it) names: Matching
    tables' entries ({"key", "index", "speed"}) and Single libraries."""
    if isinstance(lib, dict):
        if isinstance(lib.get('index'), int) and ('key' in lib or lib.get('type') == 'Single'):
            out.add(lib['index'])
        for v in lib.values():
            solution_refs(v, out)
    elif isinstance(lib, list):
        for v in lib:
            solution_refs(v, out)
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    path, proc = sys.argv[1:]
    with open(path, 'rb') as f:
        cat = msgpack.unpackb(f.read(), raw=False, strict_map_key=False)
    lib = cat.get('library') if isinstance(cat, dict) else None
    if (not isinstance(lib, dict) or lib.get('type') != 'Hardware' or
            not isinstance(cat.get('solutions'), list)):
        print('tensile_prune: %s: not a Hardware catalogue; left whole' % path,
              file=sys.stderr)
        return 0
    rows = [r for r in lib['rows']
            if not processors(r.get('predicate'), set()) or
            proc in processors(r.get('predicate'), set())]
    if not any(proc in processors(r.get('predicate'), set()) for r in rows):
        print('tensile_prune: %s: no row for %s; left whole' % (path, proc), file=sys.stderr)
        return 0
    wanted = solution_refs(rows, set())
    sols = [s for s in cat['solutions'] if s.get('index') in wanted]
    missing = wanted - {s.get('index') for s in sols}
    if missing:
        print('tensile_prune: %s: %d solutions named but absent; left whole'
              % (path, len(missing)), file=sys.stderr)
        return 0
    out = dict(cat, solutions=sols, library=dict(lib, rows=rows))
    tmp = '%s.tmp.%d' % (path, os.getpid())
    with open(tmp, 'wb') as f:
        f.write(msgpack.packb(out, use_bin_type=True))
    print('tensile_prune: %s: %d of %d rows, %d of %d solutions for %s, %d of %d bytes'
          % (os.path.basename(path), len(rows), len(lib['rows']), len(sols),
             len(cat['solutions']), proc, os.path.getsize(tmp), os.path.getsize(path)),
          file=sys.stderr)
    os.replace(tmp, path)
    return 0


if __name__ == '__main__':
    sys.exit(main())
