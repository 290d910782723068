#!/usr/bin/env python3
"""rocSPARSE's test data for one test category only.

rocsparse-test reads every case of every category from
rocsparse_test.data (207 MB for 5.7.1) before it runs or even lists
one, minutes in a TCG guest. This runs rocSPARSE's own generator
(clients/common/rocsparse_gentest.py, from the source package) with its
output limited to the cases of CATEGORY, so the guest gets the cases
the --gtest_filter of scripts/rocm-libs/libs.list selects anyway.

    rocsparse-data.py --category quick [--shard K/N] SRCDIR OUTFILE

--shard K/N keeps the K-th, (K+N)-th, ... of those cases as the
generator makes them (135,033 for quick in 5.7.1): the guest then lists
and runs only these.
"""
import argparse
import importlib.util
import os
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--category', required=True)
    ap.add_argument('--shard', help='K/N')
    ap.add_argument('src', help="rocSPARSE's unpacked source")
    ap.add_argument('out')
    a = ap.parse_args()
    tests = os.path.join(a.src, 'clients', 'tests')
    spec = importlib.util.spec_from_file_location(
        'rocsparse_gentest', os.path.join(a.src, 'clients', 'common', 'rocsparse_gentest.py'))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    write_all = gen.write_test
    k, n = (int(x) for x in a.shard.split('/')) if a.shard else (0, 1)
    seen = [0]
    kept = [0]

    def write_test(test):
        if test.get('category') != a.category:
            return
        # numbered as the generator makes them, before it drops duplicates
        if seen[0] % n == k:
            before = len(gen.testcases)
            write_all(test)
            kept[0] += len(gen.testcases) - before
        seen[0] += 1

    gen.write_test = write_test
    # it tells its enum types by the module they were made in, its own as
    # a script
    gen.__name__ = '__main__'
    out = os.path.abspath(a.out)
    # the generator reads its arguments and includes relative to tests/
    os.chdir(tests)
    sys.argv = ['rocsparse_gentest.py', '-I', '../include', 'rocsparse_test.yaml', '-o', out]
    # it prints every matrix file it does not find (none: WITH_TEST_MATRICIES=OFF)
    with open(os.devnull, 'w') as null:
        stdout, sys.stdout = sys.stdout, null
        try:
            gen.main()
        finally:
            sys.stdout = stdout
    print('%s: %d cases of category %s%s' % (a.out, kept[0], a.category,
                                            ', shard %s' % a.shard if a.shard else ''),
          file=sys.stderr)
    return 0 if kept[0] else 1


if __name__ == '__main__':
    sys.exit(main())
