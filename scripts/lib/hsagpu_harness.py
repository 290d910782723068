"""hsagpu host-side test harness: QEMU command lines for the topology
presets, guest test boots with TAP collection, KVM probing, JUnit XML.

Used by scripts/test, scripts/test-boot and scripts/demo.
"""
import os
import re
import resource
import shlex
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CACHE = os.environ.get('HSAGPU_CACHE') or os.path.join(
    os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'), 'hsagpu')
QEMU = os.path.join(CACHE, 'qemu-build', 'qemu-system-x86_64')
KERNEL = os.path.join(CACHE, 'guest-kernel', 'vmlinuz')
INITRD = os.path.join(CACHE, 'initramfs.cpio.gz')

# Kernel messages that mean the guest went wrong, whatever the tests said.
KERNEL_TROUBLE = re.compile(
    r'(Kernel panic|BUG: |Oops|WARNING: .* at |general protection fault|'
    r'Call Trace:|kernel BUG|unable to handle)')


def parse_size(s):
    m = re.fullmatch(r'(\d+)([KMGT]?)', s.strip())
    if not m:
        raise ValueError('bad size %r' % s)
    return int(m.group(1)) << (10 * ' KMGT'.index(m.group(2) or ' '))


def dev_args(props):
    """Parse 'vram-size=64M,io-bar=on' into a dict."""
    out = {}
    for kv in filter(None, (props or '').split(',')):
        k, _, v = kv.partition('=')
        out[k] = v
    return out


# Topology presets. Each returns the -device arguments for the fabric and
# the devices, given one property string per hsa-gpu. The device always
# sits below a pcie-root-port: on the root bus it would be a root-complex
# integrated endpoint, which Linux treats differently for AtomicOps.
RP_ATOMICS = ',atomic-routing=on,atomic-comp32=on,atomic-comp64=on,atomic-comp128=on'


def _gpu(i, bus, props):
    return ['-device', 'hsa-gpu,id=gpu%d,bus=%s%s' % (i, bus, (',' + props) if props else '')]


def _root_ports(rp_props=''):
    def build(devprops):
        args = []
        for i, props in enumerate(devprops):
            args += ['-device', 'pcie-root-port,id=rp%d,bus=pcie.0,chassis=%d,addr=0x%x%s'
                     % (i, i + 1, 0x10 + i, rp_props)]
            args += _gpu(i, 'rp%d' % i, props)
        return args
    return build


def _switch(down_routing):
    """Root port (completer, routing) -> x3130 upstream -> one downstream
    port per device; down_routing(i) says whether port i routes AtomicOps."""
    def build(devprops):
        args = ['-device', 'pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10' + RP_ATOMICS,
                '-device', 'x3130-upstream,id=up0,bus=rp0,atomic-routing=on']
        for i, props in enumerate(devprops):
            args += ['-device', 'xio3130-downstream,id=dn%d,bus=up0,chassis=%d,slot=%d%s'
                     % (i, 10 + i, i, ',atomic-routing=on' if down_routing(i) else '')]
            args += _gpu(i, 'dn%d' % i, props)
        return args
    return build


def _switch_tree(groups, per_group):
    """Root port (completer, routing) -> x3130 upstream -> @groups
    downstream ports -> one x3130 switch each -> @per_group downstream
    ports with one device each; every port routes AtomicOps. Mirrors a
    PLX-based box of 2 x 4 FPGAs below one common switch."""
    def build(devprops):
        args = ['-device', 'pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10' + RP_ATOMICS,
                '-device', 'x3130-upstream,id=up0,bus=rp0,atomic-routing=on']
        for g in range(groups):
            args += ['-device', 'xio3130-downstream,id=dn%d,bus=up0,chassis=%d,slot=%d,'
                     'atomic-routing=on' % (g, 10 + g, g),
                     '-device', 'x3130-upstream,id=up%d,bus=dn%d,atomic-routing=on'
                     % (g + 1, g)]
        for i, props in enumerate(devprops):
            g, k = divmod(i, per_group)
            args += ['-device', 'xio3130-downstream,id=dn%d%d,bus=up%d,chassis=%d,slot=%d,'
                     'atomic-routing=on' % (g + 1, k, g + 1, 20 + g, k)]
            args += _gpu(i, 'dn%d%d' % (g + 1, k), props)
        return args
    return build


def _with_iommu(build):
    """QEMU's Intel VT-d in front of everything (listed first, so that it
    exists before the devices it translates for); no interrupt remapping,
    which TCG does not need."""
    def wrap(devprops):
        return ['-device', 'intel-iommu,intremap=off'] + build(devprops)
    return wrap


def _with_edu(build):
    """Add QEMU's edu device on the root bus: a reference for the cost of
    a trapped MMIO access and of a round trip through a device thread."""
    def wrap(devprops):
        return build(devprops) + ['-device', 'edu,bus=pcie.0,addr=0x8']
    return wrap


# atomics: what pci_enable_atomic_ops_to_root() must give in the guest
# ("unsupported", or the operand sizes it enabled); devprops: defaults.
PRESETS = {
    'single': {
        'desc': 'one hsa-gpu on a stock pcie-root-port (no AtomicOp completer)',
        'ndev': 1, 'atomics': 'unsupported', 'build': _root_ports(),
    },
    'dual': {
        'desc': 'two hsa-gpus, each on its own stock pcie-root-port',
        'ndev': 2, 'atomics': 'unsupported', 'build': _root_ports(),
    },
    'rp-atomics': {
        'desc': 'one hsa-gpu on a root port completing 32/64/128-bit AtomicOps',
        'ndev': 1, 'atomics': '32,64,128', 'build': _root_ports(RP_ATOMICS),
    },
    'rp-atomics-no128': {
        'desc': 'one hsa-gpu on a root port completing 32/64-bit AtomicOps only',
        'ndev': 1, 'atomics': '32,64',
        'build': _root_ports(',atomic-routing=on,atomic-comp32=on,atomic-comp64=on'),
    },
    'switch': {
        'desc': 'one hsa-gpu behind an x3130 switch whose ports route AtomicOps',
        'ndev': 1, 'atomics': '32,64,128', 'build': _switch(lambda i: True),
    },
    'switch-noroute': {
        'desc': 'one hsa-gpu behind a switch downstream port that does not route AtomicOps',
        'ndev': 1, 'atomics': 'unsupported', 'build': _switch(lambda i: False),
    },
    'bench': {
        'desc': 'scripts/bench: rp-atomics plus QEMU edu on pcie.0 for reference',
        'ndev': 1, 'atomics': '32,64,128', 'build': _with_edu(_root_ports(RP_ATOMICS)),
    },
    'p2p': {
        'desc': 'two hsa-gpus behind one routing switch; gpu1 completes no AtomicOps',
        'ndev': 2, 'atomics': '32,64,128', 'build': _switch(lambda i: True),
        'devprops': ['', 'atomic-comp32=off,atomic-comp64=off,atomic-comp128=off'],
        'params': {'p2p': 'switch'},
    },
    # Issue 5 topologies (DMA engine, peer-to-peer). 'p2p' tells the guest
    # tests how peers reach each other: 'switch' (a common switch routes
    # BAR to BAR), 'root' (through the root complex), 'limit' (refused:
    # BARs above the devices' p2p-addr-bits).
    'rp2': {
        'desc': 'two hsa-gpus, each on its own root port completing AtomicOps',
        'ndev': 2, 'atomics': '32,64,128', 'build': _root_ports(RP_ATOMICS),
        'params': {'p2p': 'root'},
    },
    'sw4': {
        'desc': 'four hsa-gpus (16 queues each) behind one routing switch',
        'ndev': 4, 'atomics': '32,64,128', 'build': _switch(lambda i: True),
        'devprops': ['num-queues=16'] * 4,
        'params': {'p2p': 'switch'},
    },
    'sw8': {
        'desc': 'root port -> switch -> 2 switches -> 4 hsa-gpus each (8-FPGA PLX box)',
        'ndev': 8, 'atomics': '32,64,128', 'build': _switch_tree(2, 4),
        'devprops': ['num-queues=16'] * 8, 'mem': 2048,
        'params': {'p2p': 'switch'},
    },
    'sw8-iommu': {
        'desc': 'sw8 with intel-iommu (guest intel_iommu=on)',
        'ndev': 8, 'atomics': '32,64,128', 'build': _with_iommu(_switch_tree(2, 4)),
        'devprops': ['num-queues=16'] * 8, 'mem': 2048,
        'append': ['intel_iommu=on'], 'params': {'p2p': 'switch', 'iommu': 1},
    },
    'rp2-iommu': {
        'desc': 'rp2 with intel-iommu (guest intel_iommu=on): P2P through IOMMU mappings',
        'ndev': 2, 'atomics': '32,64,128', 'build': _with_iommu(_root_ports(RP_ATOMICS)),
        'append': ['intel_iommu=on'], 'params': {'p2p': 'root', 'iommu': 1},
    },
    'p2p-limit': {
        # 2 x 1 GiB of prefetchable BARs do not fit the 32-bit window
        # below the q35 MMCONFIG/IOAPIC holes: firmware puts every 64-bit
        # BAR above 4 GiB, out of reach of 32 address bits.
        'desc': 'two hsa-gpus behind a switch, p2p-addr-bits=32, BARs above 4 GiB',
        'ndev': 2, 'atomics': '32,64,128', 'build': _switch(lambda i: True),
        'devprops': ['vram-size=1G,p2p-addr-bits=32,num-queues=16'] * 2,
        'params': {'p2p': 'limit'},
    },
}


def kvm_usable():
    """KVM only when a short probe boot proves it works (cached per host
    boot): some hosts expose a /dev/kvm that cannot run these guests."""
    if not os.access('/dev/kvm', os.R_OK | os.W_OK):
        return False
    try:
        boot_id = open('/proc/sys/kernel/random/boot_id').read().strip()
    except OSError:
        boot_id = 'unknown'
    stamp = os.path.join(CACHE, 'kvm-probe')
    try:
        cached_id, verdict = open(stamp).read().split()
        if cached_id == boot_id:
            return verdict == 'yes'
    except (OSError, ValueError):
        pass
    cmd = base_cmd('kvm') + ['-append', 'console=ttyS0 panic=-1 hsagpu_test.probe=1']
    try:
        # A failing KVM may abort QEMU: leave no core file behind.
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, timeout=30,
                             preexec_fn=lambda: resource.setrlimit(
                                 resource.RLIMIT_CORE, (0, 0))
                             ).stdout.decode(errors='replace')
        ok = 'HSAGPU-PROBE-OK' in out
    except subprocess.TimeoutExpired:
        ok = False
    os.makedirs(CACHE, exist_ok=True)
    with open(stamp, 'w') as f:
        f.write('%s %s\n' % (boot_id, 'yes' if ok else 'no'))
    return ok


def pick_accel(want):
    if want == 'auto':
        return 'kvm' if kvm_usable() else 'tcg'
    return want


def base_cmd(accel, mem=1024):
    cpu = 'host' if accel == 'kvm' else 'max'
    # Multi-threaded TCG: vCPUs run in parallel, as the atomicity tests need.
    accel_opt = 'tcg,thread=multi' if accel == 'tcg' else accel
    return [QEMU, '-M', 'q35,sata=off,smbus=off', '-accel', accel_opt, '-cpu', cpu,
            '-smp', '2', '-m', str(mem), '-nic', 'none', '-vga', 'none',
            '-nographic', '-no-reboot', '-kernel', KERNEL, '-initrd', INITRD]


def boot_cmd(preset, devprops, accel='tcg', params=None, extra=None):
    p = PRESETS[preset]
    defaults = p.get('devprops', [''] * p['ndev'])
    devprops = [','.join(filter(None, (d, u))) for d, u in
                zip(defaults, list(devprops) + [''] * p['ndev'])]
    vram, queues, iobar, comp, bits = [], [], [], [], []
    for props in devprops:
        d = dev_args(props)
        vram.append(str(parse_size(d.get('vram-size', '256M'))))
        bits.append(d.get('p2p-addr-bits', '44'))
        queues.append(d.get('num-queues', '64'))
        iobar.append('1' if d.get('io-bar') in ('on', 'true', 'yes') else '0')
        comp.append(''.join('1' if d.get('atomic-comp%d' % b, 'on') == 'on' else '0'
                            for b in (32, 64, 128)))
    append = ['console=ttyS0', 'panic=-1', 'iomem=relaxed', 'loglevel=4',
              'hsagpu_test.devs=%d' % len(devprops),
              'hsagpu_test.vram=' + ','.join(vram),
              'hsagpu_test.queues=' + ','.join(queues),
              'hsagpu_test.iobar=' + ','.join(iobar),
              'hsagpu_test.atomics=' + p['atomics'],
              'hsagpu_test.comp=' + ','.join(comp),
              'hsagpu_test.p2pbits=' + ','.join(bits),
              'hsagpu_test.preset=' + preset]
    append[3:3] = p.get('append', [])
    for k, v in dict(p.get('params', {}), **(params or {})).items():
        append.append('hsagpu_test.%s=%s' % (k, v))
    return (base_cmd(accel, p.get('mem', 1024)) + ['-append', ' '.join(append)] +
            p['build'](devprops) + (extra or []))


def doc_cmd(cmd):
    """A boot command as the README shows it: cache paths as $C, one
    option group per line."""
    words = [w.replace(CACHE, '$C') for w in cmd]
    lines, cur = [], []
    for w in words:
        if w in ('-device', '-kernel', '-append', '-smp') and cur:
            lines.append(cur)
            cur = []
        cur.append(w)
    lines.append(cur)

    def q(w):
        return w if w.startswith('$C/') else shlex.quote(w)
    return ' \\\n  '.join(' '.join(q(w) for w in l) for l in lines)


DOC_BEGIN = '<!-- preset command lines: generated by scripts/test-boot --list --doc -->'
DOC_END = '<!-- end of generated preset command lines -->'


def presets_markdown():
    """README's command line of every preset (scripts/test checks that
    README.md has exactly this between DOC_BEGIN and DOC_END)."""
    out = [DOC_BEGIN, '']
    for name in sorted(PRESETS):
        out += ['`%s`: %s' % (name, PRESETS[name]['desc']), '', '```sh',
                doc_cmd(boot_cmd(name, [], 'tcg', {'mode': 'shell'})), '```', '']
    return '\n'.join(out + [DOC_END])


def readme_presets_current():
    """Whether README.md shows the command lines presets_markdown() gives."""
    text = open(os.path.join(ROOT, 'README.md')).read()
    i, j = text.find(DOC_BEGIN), text.find(DOC_END)
    return i >= 0 and j > i and text[i:j + len(DOC_END)] == presets_markdown()


class Result:
    def __init__(self, suite, name, ok, skipped=False, output='', time=0.0):
        self.suite, self.name, self.ok = suite, name, ok
        self.skipped, self.output, self.time = skipped, output, time


TAP_LINE = re.compile(r'^(not ok|ok) (\d+)(?: -)? ([^#]*?)\s*(#.*)?$')


def parse_tap(suite, text):
    """TAP from the guest runner, qtest (glib) or the unit tests."""
    results, plan, diag = [], None, []
    for line in text.splitlines():
        line = line.rstrip('\r')
        m = re.match(r'^1\.\.(\d+)', line)
        if m:
            plan = int(m.group(1))
            continue
        m = TAP_LINE.match(line)
        if m:
            skipped = (m.group(4) or '').startswith('# SKIP')
            results.append(Result(suite, m.group(3), m.group(1) == 'ok', skipped,
                                  '\n'.join(diag)))
            diag = []
        elif line.startswith('#'):
            diag.append(line)
    return results, plan


def run_boot(suite, preset, devprops, run='all', accel='tcg', timeout=600,
             log_dir=None, params=None, extra=None, echo=False):
    """Boot a guest, run the tests, return Results. Missing results, a
    timeout or kernel trouble are failures too."""
    params = dict(params or {})
    params['run'] = run
    cmd = boot_cmd(preset, devprops, accel, params, extra)
    log_dir = log_dir or os.path.join(CACHE, 'results')
    os.makedirs(log_dir, exist_ok=True)
    log_path = os.path.join(log_dir, suite + '.console.log')
    t0 = time.time()
    timed_out = False
    with open(log_path, 'wb') as log:
        log.write(('$ ' + ' '.join(cmd) + '\n').encode())
        log.flush()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
        chunks = []
        deadline = t0 + timeout
        os.set_blocking(proc.stdout.fileno(), False)
        while True:
            data = proc.stdout.read()
            if data:
                chunks.append(data)
                log.write(data)
                if echo:
                    sys.stdout.buffer.write(data)
                    sys.stdout.flush()
            if proc.poll() is not None and not data:
                break
            if time.time() > deadline:
                timed_out = True
                proc.kill()
                proc.wait()
                break
            time.sleep(0.05)
    elapsed = time.time() - t0
    text = b''.join(chunks).decode(errors='replace')
    results, plan = parse_tap(suite, text)
    for r in results:
        r.suite = suite
    wanted = run.split(',') if run != 'all' else None
    problems = []
    if timed_out:
        problems.append('timed out after %ds' % timeout)
    elif proc.returncode != 0:
        problems.append('QEMU exited with status %d' % proc.returncode)
    if plan is None:
        problems.append('the guest printed no TAP plan')
    elif len(results) < plan:
        problems.append('%d of %d results missing' % (plan - len(results), plan))
    if wanted and plan is not None and plan != len(wanted):
        problems.append('plan %d for %d requested tests' % (plan, len(wanted)))
    trouble = [l for l in text.splitlines() if KERNEL_TROUBLE.search(l)]
    if trouble:
        problems.append('kernel trouble: ' + '; '.join(trouble[:5]))
    tail = '\n'.join(text.splitlines()[-40:])
    results.append(Result(suite, 'boot', not problems, False,
                          '\n'.join(problems) + ('\n--- console tail ---\n' + tail
                                                 if problems else ''), elapsed))
    return results, log_path, elapsed


def write_junit(path, results):
    suites = {}
    for r in results:
        suites.setdefault(r.suite, []).append(r)
    root = ET.Element('testsuites', tests=str(len(results)),
                      failures=str(sum(not r.ok for r in results)))
    for name, rs in suites.items():
        s = ET.SubElement(root, 'testsuite', name=name, tests=str(len(rs)),
                          failures=str(sum(not r.ok for r in rs)),
                          skipped=str(sum(r.skipped for r in rs)),
                          time='%.3f' % sum(r.time for r in rs))
        for r in rs:
            c = ET.SubElement(s, 'testcase', classname='hsagpu.' + name, name=r.name,
                              time='%.3f' % r.time)
            if r.skipped:
                ET.SubElement(c, 'skipped')
            elif not r.ok:
                f = ET.SubElement(c, 'failure', message='failed')
                f.text = r.output
            if r.output:
                ET.SubElement(c, 'system-out').text = r.output
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    ET.ElementTree(root).write(path, encoding='utf-8', xml_declaration=True)
