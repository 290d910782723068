"""scripts/test --shard K/N: which of the suite's jobs shard K of N runs.

The same job list, the same table of expected seconds and the same N give
every machine the same split, whatever each machine's own
results/job-times.json says: the split reads only what is committed,
shard_times.json next to this file (job -> expected seconds, whole
numbers) and, for a job missing from it, the guess the caller passes
(scripts/test's JOB_GUESS, also committed).

Jobs that wait for a build job run with it: a unit is a build job and the
jobs that need it (@build_of names it for a job), or one job alone. Units
are placed longest first (ties by name), each onto the shard with the
least expected time so far (ties: the lowest K). Within a shard, jobs keep
the suite's order.

scripts/test --shard-times rewrites shard_times.json from the last run's
results/job-times.json (docs/testing.md, Running the suite on several
machines).
"""
import json
import os
import re

TIMES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'shard_times.json')


def parse(spec):
    """'K/N' -> (K, N), 1 <= K <= N; ValueError otherwise."""
    m = re.match(r'^\s*(\d+)\s*/\s*(\d+)\s*$', spec or '')
    if not m:
        raise ValueError('a shard is K/N, e.g. 1/3: %r' % spec)
    k, n = int(m.group(1)), int(m.group(2))
    if not 1 <= k <= n:
        raise ValueError('shard %d/%d: K must be between 1 and N' % (k, n))
    return k, n


def load_times(path=TIMES):
    """The committed table: {job: whole seconds}; {} when it is missing."""
    try:
        with open(path) as f:
            return {str(k): int(v) for k, v in json.load(f).items()}
    except (OSError, ValueError):
        return {}


def expected(name, times, guess):
    """Whole seconds, at least 1: the table's, else guess(name)'s."""
    return max(1, int(round(times[name] if name in times else guess(name))))


def units(names, build_of):
    """The jobs of @names in groups that must share a shard: a build job
    with every job that waits for it, each other job alone. Each group in
    the order of @names."""
    key = {}
    for n in names:
        b = build_of(n)
        key[n] = b if b in names else n
    groups = {}
    for n in names:
        groups.setdefault(key[n], []).append(n)
    return list(groups.values())


def partition(names, n, times, guess, build_of):
    """@names (the suite's job names, in its order) split into @n lists."""
    loads = [0] * n
    shards = [[] for _ in range(n)]
    weighted = [(sum(expected(j, times, guess) for j in u), min(u), u)
                for u in units(names, build_of)]
    for secs, _, u in sorted(weighted, key=lambda w: (-w[0], w[1])):
        k = min(range(n), key=lambda i: (loads[i], i))
        loads[k] += secs
        shards[k] += u
    pos = {name: i for i, name in enumerate(names)}
    return [sorted(s, key=pos.get) for s in shards]


def pick(names, k, n, times, guess, build_of):
    """The names of shard @k of @n (1-based), in the suite's order."""
    return partition(names, n, times, guess, build_of)[k - 1]


def check(names, shards, build_of):
    """What is wrong with @shards (lists of job names, shard 1 first) as
    a split of @names: jobs in no shard, in two, not of the suite, a
    build apart from its jobs. [] when the shards are disjoint and their
    union is @names."""
    where = {}
    for k, s in enumerate(shards, 1):
        for j in s:
            where.setdefault(j, []).append(k)
    bad = []
    for j in names:
        if j not in where:
            bad.append('%s: in no shard' % j)
        elif len(where[j]) > 1:
            bad.append('%s: in shards %s' % (j, ','.join(map(str, where[j]))))
    for j in where:
        if j not in names:
            bad.append('%s: in shard %s but not a job of the suite' % (j, where[j][0]))
    for j in names:
        b = build_of(j)
        if b in where and j in where and where[b][0] != where[j][0]:
            bad.append('%s: shard %d, its build %s shard %d' % (j, where[j][0], b, where[b][0]))
    return bad


def refresh(measured, names, path=TIMES):
    """Rewrite the table: the jobs of @names, each at its @measured
    seconds (job-times.json), else at its old entry. Returns the lines
    that say what changed."""
    old = load_times(path)
    new = {}
    for j in names:
        if j in measured:
            new[j] = max(1, int(round(measured[j])))
        elif j in old:
            new[j] = old[j]
    said = []
    for j in sorted(set(old) | set(new)):
        if old.get(j) != new.get(j):
            said.append('%s: %s -> %s' % (j, old.get(j, '-'), new.get(j, '-')))
    with open(path + '.tmp', 'w') as f:
        json.dump(new, f, indent=1, sort_keys=True)
        f.write('\n')
    os.replace(path + '.tmp', path)
    return said
