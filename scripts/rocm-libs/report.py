#!/usr/bin/env python3
"""Pass counts of scripts/test-rocm-libs: for each library and test
binary, the test cases the binary has (its --gtest_list_tests, run on the
host where listing needs no GPU, else in a guest), how many passed, failed, were skipped, and
how many the guest never reached (the binary crashed or ran out of time
first). Binaries the build did not produce are listed by target name.

    report.py [--out FILE] --timeout S --command CMD PKG:VER:JUNIT:BUILDDIR...
"""
import argparse
import datetime
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


KERNEL_LINE = re.compile(r'^\[\s*\d+\.\d+\]')
SUITE_LINE = re.compile(r'^(\S+\.)(\s+#.*)?$')
TEST_LINE = re.compile(r'^  (\S+)(\s+#.*)?$')


def listed(binary, gfilter, shard=None, text=None):
    """Test names (Suite.Name) of a GoogleTest binary; with shard (K, N)
    those GoogleTest's sharding runs in shard K: the K-th, (K+N)-th, ...
    of the tests that match the filter. text: its --gtest_list_tests
    output (filter applied) taken elsewhere, instead of running it."""
    if text is None:
        args = [binary, '--gtest_list_tests']
        if gfilter:
            args.append('--gtest_filter=' + gfilter)
        try:
            r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               timeout=120, text=True)
        except (OSError, subprocess.TimeoutExpired):
            return None
        # some (rocSPARSE's) look for a GPU before they list
        if r.returncode:
            return None
        text = r.stdout
    names, suite = [], None
    for line in text.splitlines():
        m = SUITE_LINE.match(line)
        if m:
            suite = m.group(1)
            continue
        m = TEST_LINE.match(line)
        if m and suite:
            names.append(suite + m.group(1))
        elif line.strip():
            suite = None        # a line of something else: no suite open
    # disabled tests are listed, never run, and not counted by the sharding
    names = [n for n in names if 'DISABLED_' not in n]
    if shard:
        names = [n for i, n in enumerate(names) if i % shard[1] == shard[0]]
    return names


def list_main(argv):
    """--list BINARY [--filter F] [--shard K/N] [--console LOG]: the test
    names the guest runs, one per line. LOG: the console of a guest boot
    in which the guest program named after BINARY printed its
    --gtest_list_tests."""
    ap = argparse.ArgumentParser(prog='report.py --list')
    ap.add_argument('binary')
    ap.add_argument('--filter')
    ap.add_argument('--shard')
    ap.add_argument('--console')
    # a GoogleTest filter may start with '-' (tests to leave out), which
    # argparse would take for an option: keep it attached
    args, i = [], 0
    while i < len(argv):
        if argv[i] == '--filter' and i + 1 < len(argv):
            args.append('--filter=' + argv[i + 1])
            i += 2
        else:
            args.append(argv[i])
            i += 1
    a = ap.parse_args(args)
    shard = tuple(int(x) for x in a.shard.split('/')) if a.shard else None
    text = None
    if a.console:
        sys.path.insert(0, os.path.join(ROOT, 'scripts', 'lib'))
        import hsagpu_harness as H
        with open(a.console, errors='replace') as fh:
            blocks, _ = H.user_blocks(fh.read())
        # the guest kernel's messages may come in between
        text = '\n'.join(line for line in blocks.get(os.path.basename(a.binary), [])
                         if not KERNEL_LINE.match(line))
    names = listed(a.binary, a.filter, shard, text)
    if names is None:
        print('%s: cannot list its tests' % a.binary, file=sys.stderr)
        return 1
    sys.stdout.write(''.join(n + '\n' for n in names))
    return 0


def junit_cases(path):
    """{binary: [(name, state, message)]}, state in pass/fail/skip."""
    out = {}
    if not os.path.exists(path):
        return out
    for s in ET.parse(path).getroot().iter('testsuite'):
        binary = s.get('name').rsplit('/', 1)[-1]
        for c in s.iter('testcase'):
            f = c.find('failure')
            state = 'skip' if c.find('skipped') is not None else 'fail' if f is not None else 'pass'
            out.setdefault(binary, []).append((c.get('name'), state,
                                               (f.text or '') if f is not None else ''))
    return out


def reasons(console):
    """{test: why} of the tests that did not end, from the guest's TAP
    (gtest-tap.sh's directive: timed out, the signal, the exit status)."""
    out = {}
    try:
        with open(console, errors='replace') as fh:
            for line in fh:
                m = re.match(r'^not ok \d+ (\S+) # (did not end.*)$', line.rstrip('\r\n'))
                if m:
                    out[m.group(1)] = m.group(2)
    except OSError:
        pass
    return out


def build_targets(builddir):
    """Names of the test_* targets the build defines."""
    try:
        out = subprocess.run(['make', '-C', builddir, 'help'], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True).stdout
    except OSError:
        return []
    return sorted(set(re.findall(r'^\.\.\. (test_\w+)$', out, re.M)))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--list':
        return list_main(sys.argv[2:])
    ap = argparse.ArgumentParser()
    ap.add_argument('--out')
    ap.add_argument('--timeout', type=int, required=True)
    ap.add_argument('--command', required=True)
    ap.add_argument('--shard', help='K/N')
    ap.add_argument('--test', dest='tests', action='append', default=[],
                    help='the test binaries asked for (default: all)')
    ap.add_argument('runs', nargs='+')
    a = ap.parse_args()
    commit = subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'],
                            stdout=subprocess.PIPE, text=True).stdout.strip()
    lines = ['Command: `%s` at commit %s, %s. Each test binary ran as one guest program, '
             'up to %d s a test case (`--timeout`)%s.' %
             (a.command, commit, datetime.date.today().isoformat(), a.timeout,
              ', shard %s of each (GoogleTest\'s numbering; rocSPARSE: of the cases its data '
              'generator makes; the tests column counts that shard)' % a.shard
              if a.shard else ''), '',
             '| library | test binary | tests | passed | failed | skipped | not reached |',
             '|---|---|---:|---:|---:|---:|---:|']
    totals = [0] * 5
    notes, origins = [], []
    for run in a.runs:
        pkg, ver, junit, builddir = run.split(':', 3)
        cases = junit_cases(junit)
        why = reasons(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(builddir))),
                                   'results', 'rocm-libs-%s.console.log' % pkg))
        try:
            with open(os.path.join(os.path.dirname(os.path.dirname(builddir)), 'src',
                                   os.path.basename(builddir), '.origin')) as fh:
                origins.append('- %s' % fh.read().strip())
        except OSError:
            pass
        bindir = os.path.join(os.path.dirname(os.path.dirname(builddir)), 'stage', pkg, 'bin')
        built = sorted(os.listdir(bindir)) if os.path.isdir(bindir) else []
        for t in build_targets(builddir):
            if a.tests and t not in a.tests:
                continue
            if t not in built:
                notes.append('%s %s: `%s` did not build with this hipcc (see the build log)'
                             % (pkg, ver, t))
        for b in built:
            if b not in cases or (a.tests and b not in a.tests):
                continue
            # the list the guest ran (test-rocm-libs wrote it: filter and
            # shard applied)
            try:
                with open(os.path.join(bindir, b + '.tests')) as fh:
                    names = fh.read().split()
            except OSError:
                names = None
            got = [c for c in cases[b] if c[0] != 'exit-status']
            p = sum(s == 'pass' for _, s, _ in got)
            f = sum(s == 'fail' for _, s, _ in got)
            k = sum(s == 'skip' for _, s, _ in got)
            n = len(names) if names is not None else len(got)
            nr = max(0, n - len(got))
            for i, v in enumerate((n, p, f, k, nr)):
                totals[i] += v
            lines.append('| %s %s | %s | %d | %d | %d | %d | %d |' % (pkg, ver, b, n, p, f, k, nr))
            for name, st, _ in got:
                if st == 'fail':
                    notes.append('%s: %s (%s)' % (b, name, why.get(name, 'a check failed')))
    lines.append('| **all** | | %d | %d | %d | %d | %d |' % tuple(totals))
    text = '\n'.join(lines) + '\n'
    if origins:
        text += '\nSources:\n\n' + '\n'.join(origins) + '\n'
    if notes:
        text += '\nFailures:\n\n' + ''.join('- %s\n' % n for n in notes)
    sys.stdout.write(text)
    if a.out:
        with open(a.out, 'w') as fh:
            fh.write(text)
    print('%d passed, %d failed, %d skipped' % (totals[1], totals[2] + totals[4], totals[3]))
    return 0 if totals[2] + totals[4] == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
