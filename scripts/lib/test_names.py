#!/usr/bin/env python3
"""Compare the test names of two suite runs: which tests of the first are
missing from the second (a restructuring must lose none).

  scripts/lib/test_names.py BEFORE AFTER

BEFORE and AFTER are scripts/test's JUnit XML files or its console logs
(PASS/FAIL/SKIP lines). Numbers in names (addresses, timings the tests
print) are masked, since they change from run to run. Prints the counts,
each missing name, and exits 1 when a name is missing.
"""
import re
import sys
import xml.etree.ElementTree as ET

NUM = re.compile(r'0x[0-9a-fA-F]+|\d+')


def names(path):
    out = set()
    if path.endswith('.xml'):
        for case in ET.parse(path).getroot().iter('testcase'):
            out.add(NUM.sub('N', '%s/%s' % (case.get('classname'), case.get('name'))))
        return out
    for line in open(path, errors='replace'):
        m = re.match(r'^(PASS|FAIL|SKIP) (.*)$', line.rstrip('\n'))
        if m:
            out.add(NUM.sub('N', m.group(2)))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = names(sys.argv[1]), names(sys.argv[2])
    gone = sorted(before - after)
    print('# %d names before, %d after: %d missing, %d new'
          % (len(before), len(after), len(gone), len(after - before)))
    for n in gone:
        print('missing: ' + n)
    return 1 if gone else 0


if __name__ == '__main__':
    sys.exit(main())
