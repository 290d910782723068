#!/usr/bin/env python3
"""Which opcodes the GCN interpreter implements have no per-instruction test.

  tests/gcn/insn_gaps.py [--list] --known GAPS HEADER INSNS.S MEM.S ...

HEADER is hw/hsagpu/gcn/hsagpu-gcn-opcodes.h: its enum names are the
opcodes the interpreter runs (it refuses every other one). An opcode is
tested when one of the assembly files (tests/gcn/insns.s, run by
tests/unit/test-gcn-insn.c against CPU references, and tests/gcn/mem.s,
run by tests/unit/test-gcn-mem.c) has a line whose mnemonic names it
(_e32, _e64, _sdwa and _dpp forms alike; global_ and scratch_ ones are
flat_ ones). tests/gcn/opcodes.s does not count: it checks encodings,
not results.

ALLOWED below lists what cannot be checked one instruction at a time,
each with its reason. GAPS (tests/gcn/insn-gaps.txt) lists the opcodes
still waiting for a test, one per line ('#' comments): the debt when the
check came in, which may only shrink. Exits 1 when an implemented opcode
is in none of the three (a new opcode without a test), or when an entry
of ALLOWED or GAPS names no opcode or a tested one (remove it), after
printing them; --list prints every opcode's state. TAP output (meson's
gcn-insn-gaps test), one line per failure kind.
"""
import re
import sys

# Opcode names (header spelling without GCN_ and the encoding) that no
# single-instruction test can check, and why. Keep it short: anything
# with a result a lane or SGPR holds belongs in insns.s.
ALLOWED = {
    # it synchronises the waves of a workgroup: one wave alone passes it,
    # so only several waves show it works (test-gcn: the LDS reduction,
    # the scan, the matrix multiply, all through barriers)
    's_barrier': 'needs several waves',
}

ENC_PREFIX = re.compile(r'^(SOP1|SOP2|SOPK|SOPC|SOPP|SMEM|VOP3P|VOP3)_')
NAME = re.compile(r'^    GCN_([A-Z0-9_]+) *=')
SUFFIX = re.compile(r'_(e32|e64|sdwa|dpp)$')


def implemented(header):
    out = []
    for line in open(header):
        m = NAME.match(line)
        if m:
            out.append(ENC_PREFIX.sub('', m.group(1)).lower())
    return out


def mnemonics(path):
    out = set()
    for line in open(path):
        line = line.split('//')[0].strip()
        if not line or line.startswith('.') or line.endswith(':'):
            continue
        mn = SUFFIX.sub('', line.split()[0].lower())
        for seg in ('global_', 'scratch_'):
            if mn.startswith(seg):
                mn = 'flat_' + mn[len(seg):]
        out.add(mn)
    return out


def known_gaps(path):
    out = []
    for line in open(path):
        line = line.split('#')[0].strip()
        if line:
            out.append(line)
    return out


def main(argv):
    show = '--list' in argv
    args = [a for a in argv if a != '--list']
    gaps = []
    if '--known' in args:
        i = args.index('--known')
        gaps = known_gaps(args[i + 1])
        del args[i:i + 2]
    if len(args) < 2:
        print(__doc__)
        return 2
    names = implemented(args[0])
    tested = set()
    for path in args[1:]:
        tested |= mnemonics(path)
    missing = [n for n in names
               if n not in tested and n not in ALLOWED and n not in gaps]
    stale = sorted(n for n in list(ALLOWED) + gaps
                   if n not in names or n in tested)
    print('1..2')
    print('%s 1 - %d implemented opcodes: %d with a per-instruction test, '
          '%d allowed without one, %d known gaps, %d new without a test' %
          ('not ok' if missing else 'ok', len(names),
           len([n for n in names if n in tested]),
           len([n for n in names if n in ALLOWED]),
           len([n for n in names if n in gaps and n not in tested]),
           len(missing)))
    for n in missing:
        print('#   untested: %s (add a test to tests/gcn/insns.s)' % n)
    print('%s 2 - allow-list and known-gap entries that are no opcode or '
          'are tested now: %d' % ('not ok' if stale else 'ok', len(stale)))
    for n in stale:
        print('#   stale: %s (remove it)' % n)
    if show:
        for n in names:
            print('# %s %s' % ('tested ' if n in tested else
                               'allowed' if n in ALLOWED else
                               'gap    ' if n in gaps else 'MISSING', n))
    return 1 if missing or stale else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
