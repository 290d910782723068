#!/usr/bin/env python3
"""Mirror files by content: sync_tree.py [--delete] SRC DST NAME...

Copies each NAME (a file or a directory, relative to SRC) to the same
place below DST, but only the files whose bytes differ: an unchanged file
keeps its old modification time, so that make/ninja in DST rebuild only
what really changed. A fresh clone (every file new to make) of sources
the cache has built before then costs no rebuild (scripts/build-guest).
--delete also removes files below a NAME directory in DST that SRC no
longer has. Prints how many files it copied.
"""
import filecmp
import os
import shutil
import sys

SKIP = {'.git', '__pycache__'}


def sync_file(src, dst):
    if os.path.isfile(dst) and filecmp.cmp(src, dst, shallow=False):
        if (os.stat(src).st_mode & 0o777) != (os.stat(dst).st_mode & 0o777):
            shutil.copymode(src, dst)
        return 0
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    tmp = dst + '.sync-tmp'
    shutil.copyfile(src, tmp)
    shutil.copymode(src, tmp)
    os.replace(tmp, dst)
    return 1


def sync(src, dst, delete):
    if not os.path.isdir(src):
        return sync_file(src, dst)
    n = 0
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = [d for d in dirnames if d not in SKIP]
        rel = os.path.relpath(dirpath, src)
        for f in filenames:
            n += sync_file(os.path.join(dirpath, f), os.path.normpath(os.path.join(dst, rel, f)))
    if delete and os.path.isdir(dst):
        for dirpath, dirnames, filenames in os.walk(dst):
            rel = os.path.relpath(dirpath, dst)
            for f in filenames:
                if not os.path.exists(os.path.join(src, rel, f)):
                    os.remove(os.path.join(dirpath, f))
    return n


def main(argv):
    delete = argv[:1] == ['--delete']
    if delete:
        argv = argv[1:]
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    src, dst, names = argv[0], argv[1], argv[2:]
    n = 0
    for name in names:
        n += sync(os.path.join(src, name), os.path.join(dst, name), delete)
    print(n)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
