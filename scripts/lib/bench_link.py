"""scripts/bench --link: the link timing model against the published study.

The arithmetic here is written apart from the device's C model
(hw/hsagpu/core/hsagpu-link.c), from docs/link-model.md, so that the
benchmark compares what the guest measured with the device's timestamps
against an independent computation of the same rules, and both against
the study's published figures.
"""
import os
import shutil
import subprocess

# The published figures (MB/s, ns) the sw8-study preset is set up after
STUDY = {
    'host_write_mps128': 1451,
    'host_read': 1000,
    'e2e_write_mps128': 1603,
    'e2e_write_mps256': 1740,
    'shared_upstream': 3225,
    'lat_1sw': 706,
    'lat_3sw': 1038,
}

# hsa-gpu property defaults and the sw8-study preset (hsagpu_harness.py)
PARAMS = {
    'port_ns': 260, 'switch_ns': 160, 'host_ns': 550, 'host_write_ns': 88,
    'read_tags': 4, 'efficiency': 0.952, 'mrrs': 512,
    'dev_lanes': 4, 'up_lanes': 8, 'gts': 5.0,
}

FRAMING = 8          # STP/END framing, sequence number, LCRC


def lane_rate(gts):
    """Bytes per ns of one lane after encoding (8b/10b up to 5 GT/s)."""
    return gts * (0.8 if gts <= 5 else 128 / 130) / 8


def link(lanes, p=PARAMS):
    """Wire bytes per ns a link carries each way."""
    return lanes * lane_rate(p['gts']) * p['efficiency']


def hdr(addr64):
    return FRAMING + (16 if addr64 else 12)


def tlp_rate(wire_rate, payload, overhead):
    """MB/s of payload when every TLP of @payload bytes costs @overhead."""
    return wire_rate * payload / (payload + overhead) * 1000


def latency(nswitch, links, addr64, p=PARAMS):
    """A 4-byte posted write between two endpoints: both ports, the
    switches, and the TLP serialized once on each link."""
    tlp = 4 + hdr(addr64)
    return 2 * p['port_ns'] + nswitch * p['switch_ns'] + sum(tlp / r for r in links)


def host_read_cap(p=PARAMS, nswitch=2):
    """Read requests in flight bound a read: MB/s of payload."""
    cpl = p['mrrs'] + (p['mrrs'] // 128) * (FRAMING + 12)
    rtt = 2 * (p['port_ns'] + nswitch * p['switch_ns']) + p['host_ns'] + \
        cpl / link(p['dev_lanes'], p)
    return p['read_tags'] * cpl / rtt * 128 / (128 + FRAMING + 12) * 1000


def maxmin(flows, caps):
    """Max-min fair rates: @flows is a list of sets of link names, @caps
    maps link name -> capacity; progressive filling."""
    rate = [0.0] * len(flows)
    frozen = [False] * len(flows)
    load = dict.fromkeys(caps, 0.0)
    while not all(frozen):
        users = {l: sum(1 for i, f in enumerate(flows) if not frozen[i] and l in f)
                 for l in caps}
        inc = min((caps[l] - load[l]) / users[l] for l in caps if users[l])
        for i, f in enumerate(flows):
            if not frozen[i]:
                rate[i] += inc
                for l in f:
                    load[l] += inc
        for i, f in enumerate(flows):
            if not frozen[i] and any(load[l] >= caps[l] * (1 - 1e-9) for l in f):
                frozen[i] = True
    return rate


def concurrent(k, write, p=PARAMS):
    """k devices (0-3 behind switch 1, 4-7 behind switch 2) moving data
    to or from host memory at once: per-device and total MB/s."""
    cpl = FRAMING + 12
    ovh = hdr(False) if write else cpl
    if write:
        # the root complex's pace: one MPS TLP per host_write_ns
        cap = (128 + ovh) / p['host_write_ns']
    else:
        cap = host_read_cap(p) / 1000 * (128 + cpl) / 128
    caps = {'root': link(p['up_lanes'], p), 'leaf0': link(p['up_lanes'], p),
            'leaf1': link(p['up_lanes'], p)}
    flows = []
    for i in range(k):
        caps['dev%d' % i] = link(p['dev_lanes'], p)
        caps['cap%d' % i] = cap
        flows.append({'root', 'leaf%d' % (i // 4), 'dev%d' % i, 'cap%d' % i})
    rates = [r * 128 / (128 + ovh) * 1000 for r in maxmin(flows, caps)]
    return sorted(rates)[k // 2], sum(rates)


def model(vals, p=PARAMS):
    """The arithmetic for every row the guest measured."""
    a1 = vals.get('addr64_peer1', 1) != 0
    a4 = vals.get('addr64_peer4', 1) != 0
    dev, up = link(p['dev_lanes'], p), link(p['up_lanes'], p)
    m = {
        'lat_1sw': latency(1, [dev, dev], a1, p),
        'lat_3sw': latency(3, [dev, up, up, dev], a4, p),
        'e2e_write_mps128': tlp_rate(dev, 128, hdr(a1)),
        'e2e_write_mps256': tlp_rate(dev, 256, hdr(a1)),
        'host_write_mps128': min(tlp_rate(dev, 128, hdr(False)),
                                 128 / p['host_write_ns'] * 1000),
        'host_read': min(tlp_rate(dev, 128, FRAMING + 12), host_read_cap(p)),
        'shared_upstream': concurrent(8, False, p)[1],
    }
    for pl in (32, 64, 128, 256, 512):
        m['payload_%d' % pl] = tlp_rate(dev, pl, hdr(a1))
    for k in range(1, 9):
        for w, name in ((True, 'write'), (False, 'read')):
            m['%s_k%d_dev' % (name, k)], m['%s_k%d_total' % (name, k)] = \
                concurrent(k, w, p)
    return m


TABLE = [
    ('endpoint -> host memory write, MPS 128 [MB/s]', 'host_write_mps128', 'host_write_mps128'),
    ('host memory -> endpoint read, 1 device [MB/s]', 'host_read', 'host_read'),
    ('endpoint -> endpoint write, MPS 128 [MB/s]', 'e2e_write_mps128', 'e2e_write_mps128'),
    ('endpoint -> endpoint write, MPS 256 [MB/s]', 'e2e_write_mps256', 'e2e_write_mps256'),
    ('shared x8 upstream, 8 devices reading [MB/s]', 'shared_upstream', 'read_k8_total'),
    ('endpoint -> endpoint latency, 1 switch [ns]', 'lat_1sw', 'lat_1sw'),
    ('endpoint -> endpoint latency, 3 switches [ns]', 'lat_3sw', 'lat_3sw'),
]


def table(vals, m):
    """Rows: study, measured, model; deviation of measured from study."""
    out = ['%-46s %9s %9s %9s %8s' % ('sw8-study, model on', 'study', 'measured',
                                       'model', 'vs study'),
           '-' * 86]
    worst = 0.0
    for label, skey, mkey in TABLE:
        got = vals.get(mkey)
        dev = (got / STUDY[skey] - 1) * 100 if got else None
        worst = max(worst, abs(dev)) if dev is not None else worst
        out.append('%-46s %9d %9s %9.0f %8s' % (
            label, STUDY[skey], '%.0f' % got if got else '-', m[skey],
            '%+.1f%%' % dev if dev is not None else '-'))
    return out, worst


def write_plots(vals, m, outdir):
    """Data files and gnuplot PNGs: rate against payload size, and
    per-device and total rate against concurrent transfers."""
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'payload.dat'), 'w') as f:
        f.write('# payload_bytes measured_MBps model_MBps\n')
        for pl in (32, 64, 128, 256, 512):
            f.write('%d %s %.1f\n' % (pl, vals.get('payload_%d' % pl, 'NaN'),
                                      m['payload_%d' % pl]))
    with open(os.path.join(outdir, 'study.dat'), 'w') as f:
        f.write('# payload_bytes study_MBps\n128 %d\n256 %d\n' % (
            STUDY['e2e_write_mps128'], STUDY['e2e_write_mps256']))
    for name in ('write', 'read'):
        with open(os.path.join(outdir, 'concurrent-%s.dat' % name), 'w') as f:
            f.write('# k dev_measured total_measured dev_model total_model\n')
            for k in range(1, 9):
                f.write('%d %s %s %.1f %.1f\n' % (
                    k, vals.get('%s_k%d_dev' % (name, k), 'NaN'),
                    vals.get('%s_k%d_total' % (name, k), 'NaN'),
                    m['%s_k%d_dev' % (name, k)], m['%s_k%d_total' % (name, k)]))
    gp = shutil.which('gnuplot')
    if not gp:
        return None
    script = '''
set terminal pngcairo size 800,500 noenhanced
set grid
set key bottom right
set output "payload.png"
set title "Peer-to-peer write rate against TLP payload (x4 Gen2, model on)"
set xlabel "payload per TLP [bytes]"
set ylabel "MB/s"
set logscale x 2
set xrange [24:640]
set yrange [0:2100]
plot "payload.dat" u 1:3 w lp t "model arithmetic", \\
     "payload.dat" u 1:2 w p pt 7 ps 1.5 t "measured in the guest", \\
     "study.dat" u 1:2 w p pt 5 ps 1.5 t "published study"
unset logscale x
set xrange [0.5:8.5]
set yrange [0:*]
set key right center
set xlabel "concurrent transfers (devices)"
do for [n in "write read"] {
  set output sprintf("concurrent-%s.png", n)
  set title sprintf("Host memory %s: per-device and total rate (sw8-study)", \\
                    n eq "write" ? "writes (endpoint -> host)" : "reads (host -> endpoint)")
  plot sprintf("concurrent-%s.dat", n) u 1:4 w lp t "per device, model", \\
       "" u 1:2 w p pt 7 ps 1.5 t "per device, measured", \\
       "" u 1:5 w lp t "total, model", \\
       "" u 1:3 w p pt 5 ps 1.5 t "total, measured", \\
       3225 w l dt 2 t "study: shared x8 upstream"
}
'''
    with open(os.path.join(outdir, 'plots.gp'), 'w') as f:
        f.write(script)
    subprocess.run([gp, 'plots.gp'], cwd=outdir, check=True)
    return [os.path.join(outdir, n) for n in
            ('payload.png', 'concurrent-write.png', 'concurrent-read.png')]
