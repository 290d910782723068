"""hsagpu host-side test harness: QEMU command lines for the topology
presets, guest test boots with TAP collection, KVM probing, JUnit XML.

Used by scripts/test, scripts/test-boot and scripts/demo.
"""
import gzip
import hashlib
import lzma
import os
import re
import resource
import shlex
import shutil
import subprocess
import tempfile
import time
import xml.etree.ElementTree as ET

import hsagpu_guest as G

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CACHE = os.environ.get('HSAGPU_CACHE') or os.path.join(
    os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'), 'hsagpu')
QEMU = os.path.join(CACHE, 'qemu-build', 'qemu-system-x86_64')
KERNEL = os.path.join(CACHE, 'guest-kernel', 'vmlinuz')
INITRD = os.path.join(CACHE, 'initramfs.cpio')
# the initramfs plus Debian's HIP runtime (scripts/build-guest; boot-hip)
INITRD_HIP = os.path.join(CACHE, 'initramfs-hip.cpio')
# the demo's alone (scripts/build-guest --demo; the suite's build removes
# it, its initramfs has the demo too)
INITRD_DEMO = os.path.join(CACHE, 'initramfs-demo.cpio')

# Guest kernels (scripts/deps unpacks them, scripts/build-guest builds
# hsagpu.ko for each): name -> cache directory with vmlinuz and version.
KERNELS = {'6.1': 'guest-kernel', '6.12': 'guest-kernel-6.12'}
DEFAULT_KERNEL = '6.1'


def kernel_image(kernel):
    """The image QEMU boots for one of our guest kernels (None: the
    default), or @kernel itself (a path). Ours boot uncompressed: the
    vmlinux scripts/deps extracts, through QEMU's PVH entry, about 3 s
    less per boot under TCG than the kernel decompressing itself;
    HSAGPU_BOOT_IMAGE=vmlinuz boots the compressed image as Debian ships
    it. (The aborts once seen with PVH boots were the TCG race that QEMU
    patch 0005 fixes; docs/testing.md.)"""
    if kernel is None or kernel in KERNELS:
        d = os.path.join(CACHE, KERNELS[kernel or DEFAULT_KERNEL])
        vmlinux = os.path.join(d, 'vmlinux')
        if os.path.exists(vmlinux) and os.environ.get('HSAGPU_BOOT_IMAGE') != 'vmlinuz':
            return vmlinux
        return os.path.join(d, 'vmlinuz')
    return kernel


def kernel_version(kernel):
    try:
        return open(os.path.join(CACHE, KERNELS[kernel], 'version')).read().strip()
    except (KeyError, OSError):
        return None


def module_build_failure(kernel):
    """Why hsagpu.ko did not build for one of our kernels, or None."""
    ver = kernel_version(kernel)
    if ver is None:
        return 'guest kernel %s is missing: run scripts/deps' % kernel
    try:
        return open(os.path.join(CACHE, 'driver-' + ver, 'BUILD-FAILED')).read()
    except OSError:
        pass
    if not os.path.exists(os.path.join(CACHE, 'driver-' + ver, 'hsagpu.ko')):
        return 'hsagpu.ko for %s was not built: run scripts/build-guest' % ver
    return None


# Guest clocksource. Under multi-threaded TCG the guest marks the TSC
# unstable and falls back to HPET, where every clock read traps into QEMU
# (docs/testing.md). 'tsc' boots with tsc=reliable, 'hpet' forces HPET
# (how boots ran before), 'kernel' passes nothing and checks nothing.
# A boot fails when the guest is not on the clocksource asked for.
CLOCKSOURCES = {'tsc': ['tsc=reliable'], 'hpet': ['clocksource=hpet'], 'kernel': []}
CLOCKSOURCE = os.environ.get('HSAGPU_CLOCKSOURCE', 'tsc')

# Kernel messages that mean the guest went wrong, whatever the tests said.
# the device's guest-error log lines of a failed queue (hsagpu-irq.c)
QUEUE_ERROR = re.compile(r'hsa-gpu: queue \d+[: ]')
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
# the devices, given one property string per hsa-gpu, and the device type
# (hsa-gpu; another personality of it, e.g. hsa-gpu-vega10 for
# scripts/test-boot --amdgpu). The device always sits below a
# pcie-root-port: on the root bus it would be a root-complex integrated
# endpoint, which Linux treats differently for AtomicOps.
RP_ATOMICS = ',atomic-routing=on,atomic-comp32=on,atomic-comp64=on,atomic-comp128=on'
# hsa-gpu link properties of the study preset (sw8-study)
STUDY_LINK = ('link-model=on,link-speed=5,link-width=4,max-payload=512,'
              'link-host-write-ns=88')


DEVICE = 'hsa-gpu'


def _gpu(i, bus, props, device=DEVICE):
    return ['-device', '%s,id=gpu%d,bus=%s%s' % (device, i, bus, (',' + props) if props else '')]


def _root_ports(rp_props=''):
    def build(devprops, device=DEVICE):
        args = []
        for i, props in enumerate(devprops):
            args += ['-device', 'pcie-root-port,id=rp%d,bus=pcie.0,chassis=%d,addr=0x%x%s'
                     % (i, i + 1, 0x10 + i, rp_props)]
            args += _gpu(i, 'rp%d' % i, props, device)
        return args
    return build


def _switch(down_routing):
    """Root port (completer, routing) -> x3130 upstream -> one downstream
    port per device; down_routing(i) says whether port i routes AtomicOps."""
    def build(devprops, device=DEVICE):
        args = ['-device', 'pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10' + RP_ATOMICS,
                '-device', 'x3130-upstream,id=up0,bus=rp0,atomic-routing=on']
        for i, props in enumerate(devprops):
            args += ['-device', 'xio3130-downstream,id=dn%d,bus=up0,chassis=%d,slot=%d%s'
                     % (i, 10 + i, i, ',atomic-routing=on' if down_routing(i) else '')]
            args += _gpu(i, 'dn%d' % i, props, device)
        return args
    return build


def _switch_tree(groups, per_group, up_link='', dev_link=''):
    """Root port (completer, routing) -> x3130 upstream -> @groups
    downstream ports -> one x3130 switch each -> @per_group downstream
    ports with one device each; every port routes AtomicOps. Mirrors a
    PLX-based box of 2 x 4 FPGAs below one common switch. @up_link: link
    properties (x-speed, x-width) of the links between switches and to
    the root port, @dev_link those of the devices' slots."""
    def build(devprops, device=DEVICE):
        args = ['-device', 'pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10'
                + RP_ATOMICS + up_link,
                '-device', 'x3130-upstream,id=up0,bus=rp0,atomic-routing=on' + up_link]
        for g in range(groups):
            args += ['-device', 'xio3130-downstream,id=dn%d,bus=up0,chassis=%d,slot=%d,'
                     'atomic-routing=on%s' % (g, 10 + g, g, up_link),
                     '-device', 'x3130-upstream,id=up%d,bus=dn%d,atomic-routing=on%s'
                     % (g + 1, g, up_link)]
        for i, props in enumerate(devprops):
            g, k = divmod(i, per_group)
            args += ['-device', 'xio3130-downstream,id=dn%d%d,bus=up%d,chassis=%d,slot=%d,'
                     'atomic-routing=on%s' % (g + 1, k, g + 1, 20 + g, k, dev_link)]
            args += _gpu(i, 'dn%d%d' % (g + 1, k), props, device)
        return args
    return build


def _native_hotplug(build):
    """PCIe native hotplug (the guest's pciehp) instead of q35's default
    ACPI hotplug of root ports: QMP device_del presses the slot's
    attention button, the guest powers the slot off, QEMU removes the
    device; the guest can power a slot off itself (t-hotplug)."""
    def wrap(devprops, device=DEVICE):
        return (['-global', 'ICH9-LPC.acpi-pci-hotplug-with-bridge-support=off'] +
                build(devprops, device))
    return wrap


def _with_iommu(build):
    """QEMU's Intel VT-d in front of everything (listed first, so that it
    exists before the devices it translates for); no interrupt remapping,
    which TCG does not need."""
    def wrap(devprops, device=DEVICE):
        return ['-device', 'intel-iommu,intremap=off'] + build(devprops, device)
    return wrap


def _with_edu(build):
    """Add QEMU's edu device on the root bus: a reference for the cost of
    a trapped MMIO access and of a round trip through a device thread."""
    def wrap(devprops, device=DEVICE):
        return build(devprops, device) + ['-device', 'edu,bus=pcie.0,addr=0x8']
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
    # Issue 15: the link timing model configured as the published
    # 8-FPGA study (docs/link-model.md): x4 Gen2 device links, x8 Gen2
    # between switches and to the host, the root complex's posted-write
    # pace; payloads up to 512 bytes for the payload sweep.
    'sw8-study': {
        'desc': 'sw8 with the link timing model on: x4 Gen2 devices, x8 Gen2 upstream',
        'ndev': 8, 'atomics': '32,64,128',
        'build': _switch_tree(2, 4, ',x-speed=5,x-width=8', ',x-speed=5,x-width=4'),
        'devprops': ['num-queues=16,' + STUDY_LINK] * 8, 'mem': 2048,
        # t-link's arithmetic: the model's parameters (property defaults
        # but link-host-write-ns) and the links the preset configures
        'params': {'p2p': 'switch', 'linkmodel': '260,160,550,88,4,952',
                   'linkwidth': '4,8', 'linkspeed': 5},
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
    'hotplug': {
        'desc': 'rp-atomics with native PCIe hotplug (pciehp) on the root port, slot 1',
        'ndev': 1, 'atomics': '32,64,128',
        'build': _native_hotplug(_root_ports(',slot=1' + RP_ATOMICS)),
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


def base_cmd(accel, mem=1024, kernel=None, initrd=None):
    cpu = 'host' if accel == 'kvm' else 'max'
    # Multi-threaded TCG: vCPUs run in parallel, as the atomicity tests need.
    accel_opt = 'tcg,thread=multi' if accel == 'tcg' else accel
    return [QEMU, '-M', 'q35,sata=off,smbus=off', '-accel', accel_opt, '-cpu', cpu,
            '-smp', '2', '-m', str(mem), '-nic', 'none', '-vga', 'none',
            '-nographic', '-no-reboot', '-kernel', kernel_image(kernel),
            '-initrd', initrd or INITRD]


def boot_cmd(preset, devprops, accel='tcg', params=None, extra=None, kernel=None,
             initrd=None, clocksource=None, mem=None, device=None, cmdline=None):
    """The QEMU command of a boot of @preset. device: the device type of
    every GPU (default hsa-gpu); cmdline: more words for the kernel
    command line (an --amdgpu boot's module parameters)."""
    p = PRESETS[preset]
    defaults = p.get('devprops', [''] * p['ndev'])
    devprops = [','.join(filter(None, (d, u))) for d, u in
                zip(defaults, list(devprops) + [''] * p['ndev'])]
    vram, queues, iobar, comp, bits = [], [], [], [], []
    ralias = []     # cached read alias: BAR4 bytes per device
    for props in devprops:
        d = dev_args(props)
        ralias.append(str(parse_size(d.get('read-alias-size', '0'))) +
                      ('p' if d.get('read-alias-prefetchable') in ('on', 'true', 'yes')
                       else ''))
        vram.append(str(parse_size(d.get('vram-size', '256M'))))
        bits.append(d.get('p2p-addr-bits', '44'))
        queues.append(d.get('num-queues', '64'))
        iobar.append('1' if d.get('io-bar') in ('on', 'true', 'yes') else '0')
        comp.append(''.join('1' if d.get('atomic-comp%d' % b, 'on') == 'on' else '0'
                            for b in (32, 64, 128)))
    append = (['console=ttyS0', 'panic=-1', 'iomem=relaxed', 'loglevel=4'] +
              CLOCKSOURCES[clocksource or CLOCKSOURCE] +
              ['hsagpu_test.devs=%d' % len(devprops),
               'hsagpu_test.vram=' + ','.join(vram),
               'hsagpu_test.queues=' + ','.join(queues),
               'hsagpu_test.iobar=' + ','.join(iobar),
               'hsagpu_test.atomics=' + p['atomics'],
               'hsagpu_test.comp=' + ','.join(comp),
               'hsagpu_test.p2pbits=' + ','.join(bits),
               'hsagpu_test.preset=' + preset])
    # cached read alias: only when a device has one (preset lines unchanged)
    if any(not r.startswith('0') for r in ralias):
        append.append('hsagpu_test.ralias=' + ','.join(ralias))
    append[3:3] = p.get('append', [])
    params = dict(p.get('params', {}), **(params or {}))
    # hsagpu.ko parameters for every boot (scripts/test --modparams,
    # scripts/test-boot --modparams, e.g. vm=0 for bus addresses)
    extra_mp = os.environ.get('HSAGPU_MODPARAMS')
    if extra_mp:
        params['modparams'] = ','.join(filter(None, (params.get('modparams'), extra_mp)))
    for k, v in params.items():
        append.append('hsagpu_test.%s=%s' % (k, v))
    append += cmdline or []
    # QEMU options of the user's for every boot, e.g. traces of the device:
    # HSAGPU_QEMU_ARGS='-trace hsagpu_gcn_* -D /tmp/q.log' (split as a shell
    # would split them)
    user = shlex.split(os.environ.get('HSAGPU_QEMU_ARGS', ''))
    return (base_cmd(accel, mem or p.get('mem', 1024), kernel, initrd) +
            ['-append', ' '.join(append)] + p['build'](devprops, device or DEVICE) +
            (extra or []) + user)


def doc_cmd(cmd):
    """A boot command as the README shows it: cache paths as $C, one
    option group per line."""
    # our kernels as the usual case has them (kernel_image(): vmlinuz)
    ours = {os.path.join(CACHE, d, 'vmlinux'): os.path.join(CACHE, d, 'vmlinuz')
            for d in KERNELS.values()}
    words = [ours.get(w, w).replace(CACHE, '$C') for w in cmd]
    lines, cur = [], []
    for w in words:
        if w in ('-device', '-global', '-kernel', '-append', '-smp') and cur:
            lines.append(cur)
            cur = []
        cur.append(w)
    lines.append(cur)

    def q(w):
        return w if w.startswith('$C/') else shlex.quote(w)
    return ' \\\n  '.join(' '.join(q(w) for w in l) for l in lines)


PRESETS_DOC = os.path.join(ROOT, 'docs', 'presets.md')


def presets_markdown():
    """docs/presets.md: every preset's QEMU command line (scripts/test
    checks that the file is exactly this)."""
    out = ['# Topology presets: QEMU command lines', '',
           '<!-- generated by `scripts/test-boot --list --doc > docs/presets.md`; '
           'scripts/test checks it -->', '',
           'What `scripts/test-boot --preset NAME --shell` runs, with `$C` the '
           'cache (`~/.cache/hsagpu`): QEMU from `scripts/build-qemu`, the guest '
           'kernel from `scripts/deps` (uncompressed, booted through QEMU\'s PVH entry; '
           '`vmlinuz` where the kernel has no PVH note) and the initramfs from '
           '`scripts/build-guest`. '
           'Boots use the TSC as the guest clocksource (`tsc=reliable`, see '
           '[testing.md](testing.md#guest-clocksource)). The table in the README '
           'says what each preset is for.', '']
    for name in sorted(PRESETS):
        out += ['## `%s`' % name, '', PRESETS[name]['desc'], '', '```sh',
                doc_cmd(boot_cmd(name, [], 'tcg', {'mode': 'shell'}, clocksource='tsc')),
                '```', '']
    return '\n'.join(out)


def presets_doc_current():
    """Whether docs/presets.md is what presets_markdown() gives."""
    try:
        return open(PRESETS_DOC).read() == presets_markdown()
    except OSError:
        return False


class Result:
    """One JUnit testcase. infra: a failure of the boot itself (timeout,
    panic, QEMU crash, wrong clocksource), not of a test."""
    def __init__(self, suite, name, ok, skipped=False, output='', time=0.0, infra=False):
        self.suite, self.name, self.ok = suite, name, ok
        self.skipped, self.output, self.time, self.infra = skipped, output, time, infra


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
            directive = (m.group(4) or '').upper()
            ok = m.group(1) == 'ok'
            skipped = directive.startswith('# SKIP')
            out = '\n'.join(diag)
            if directive.startswith('# TODO'):
                # TAP: a TODO test's failure is expected (reported as
                # skipped, with its reason); its pass is not, so that
                # the known-failure list shrinks as fixes land.
                out = '%s\n%s' % (m.group(4), out)
                if ok:
                    out = 'unexpected pass of a known failure (remove it from ' \
                          'the list):\n' + out
                ok = skipped = not ok
            results.append(Result(suite, m.group(3), ok, skipped, out))
            diag = []
        elif line.startswith('#'):
            diag.append(line)
    return results, plan


# KTAP (Documentation/dev-tools/ktap.rst) and kselftest's TAP 13: version
# lines, plans, results with directives, "# Subtest:" and nested levels
# indented by any amount (KUnit: 4 spaces, others 2), "Bail out!".
KTAP_VERSION = re.compile(r'^(?:KTAP version \d+|TAP version \d+)$')
KTAP_PLAN = re.compile(r'^1\.\.(\d+)')
KTAP_RESULT = re.compile(r'^(not ok|ok)(?:\s+(\d+))?(?:\s+-)?\s*(.*)$')
KTAP_SUBTEST = re.compile(r'^#\s*Subtest:\s*(.*)$')
KTAP_BAIL = re.compile(r'^Bail out!\s*(.*)$')


class _Level:
    def __init__(self, indent):
        self.indent, self.plan, self.nodes, self.diag = indent, None, [], []
        self.name, self.bail, self.pending, self.seen = None, None, None, False


class _Node:
    def __init__(self, num, name, ok, directive, diag):
        self.num, self.name, self.ok, self.diag = num, name, ok, diag
        d = directive.strip().upper()
        self.skipped = d.startswith('SKIP')
        self.todo = d.startswith('TODO') or d.startswith('XFAIL')
        self.children = None


def _split_directive(desc):
    """'name # SKIP why' -> ('name', 'SKIP why'); '\#' is a literal #."""
    m = re.search(r'(?<!\\)#', desc)
    if not m:
        return desc.strip().replace('\\#', '#'), ''
    return desc[:m.start()].strip().replace('\\#', '#'), desc[m.end():]


def parse_ktap(text):
    """Parse KTAP/TAP output into a tree. Returns (root level, found),
    found = whether any KTAP line was seen. Lines that are no KTAP (a
    program's own output, kernel messages) are kept as diagnostics."""
    stack = []

    def close():
        done = stack.pop()
        stack[-1].pending = done

    for raw in text.splitlines():
        raw = raw.rstrip('\r').expandtabs(8)
        line = raw.lstrip()
        indent = len(raw) - len(line)
        kinds = [(KTAP_VERSION, 'version'), (KTAP_SUBTEST, 'subtest'), (KTAP_PLAN, 'plan'),
                 (KTAP_RESULT, 'result'), (KTAP_BAIL, 'bail')]
        kind, m = None, None
        for rx, k in kinds:
            m = rx.match(line)
            if m:
                kind = k
                break
        if kind is None:
            if stack and line:
                stack[-1].diag.append(line)
            continue
        if not stack:
            stack.append(_Level(indent))
        while indent < stack[-1].indent and len(stack) > 1:
            close()
        if indent > stack[-1].indent:
            # a nested level starts; a result at this level closes it
            stack.append(_Level(indent))
        top = stack[-1]
        top.seen = True
        if kind == 'subtest':
            top.name = m.group(1).strip()
        elif kind == 'plan':
            top.plan = int(m.group(1))
        elif kind == 'bail':
            top.bail = m.group(1).strip() or 'no reason given'
        elif kind == 'result':
            name, directive = _split_directive(m.group(3))
            node = _Node(m.group(2), name or 'test %s' % (m.group(2) or len(top.nodes) + 1),
                         m.group(1) == 'ok', directive, top.diag)
            top.diag = []
            if top.pending is not None:
                node.children = top.pending
                top.pending = None
            top.nodes.append(node)
    if not stack:
        return _Level(0), False
    # an unfinished nested level (its parent's result never came)
    while len(stack) > 1:
        close()
    root = stack[0]
    if root.pending is not None:
        lost = _Node(None, root.pending.name or 'subtest', False, '',
                     ['# no result line for this subtest'])
        lost.children = root.pending
        root.nodes.append(lost)
    return root, True


def ktap_results(suite, text, ok_without_ktap=None):
    """JUnit Results from KTAP/TAP text: every leaf result is a testcase
    named by its path (parent.child); a parent is a testcase of its own
    only where its verdict is not explained by its children. Missing or
    wrong plans and bail-outs are failures. Without any KTAP, returns
    None (the caller judges the exit status)."""
    root, found = parse_ktap(text)
    if not found or (not root.nodes and root.plan is None):
        return None
    out = []

    def walk(level, prefix):
        names = {}
        for n in level.nodes:
            name = prefix + n.name
            names[name] = names.get(name, 0) + 1
            if names[name] > 1:
                name += '#%d' % names[name]
            diag = '\n'.join(n.diag)
            if n.children is not None and n.children.nodes:
                before = len(out)
                walk(n.children, name + '.')
                sub_failed = any(not r.ok for r in out[before:])
                if not n.ok and not n.todo and not sub_failed:
                    out.append(Result(suite, name, False, False, diag))
                elif n.ok and n.skipped:
                    out.append(Result(suite, name, True, True, diag))
            else:
                if n.children is not None:
                    walk(n.children, name + '.')
                out.append(Result(suite, name, n.ok or n.todo, n.ok and n.skipped or n.todo,
                                  diag))
        where = prefix or 'top level'
        if level.bail is not None:
            out.append(Result(suite, prefix + 'bail-out', False, False,
                              'Bail out! ' + level.bail))
        elif level.plan is None and (level.nodes or not prefix):
            if not prefix:
                out.append(Result(suite, 'plan', False, False, 'no KTAP plan (1..N) at ' + where))
        elif level.plan is not None and level.plan != len(level.nodes):
            out.append(Result(suite, prefix + 'plan', False, False,
                              'plan 1..%d but %d results at %s'
                              % (level.plan, len(level.nodes), where)))
    walk(root, '')
    return out


USER_BEGIN = re.compile(r'# hsagpu-user-begin (\S+)\s*$')
USER_END = re.compile(r'# hsagpu-user-end (\S+) (\d+)\s*$')


def user_blocks(text):
    """What each user program printed on the console ({name: [line]}) and
    its exit status ({name: status}, missing if it never finished)."""
    blocks, cur, ends = {}, None, {}
    for line in text.splitlines():
        line = line.rstrip('\r')
        m = USER_BEGIN.search(line)
        if m:
            cur = m.group(1)
            blocks[cur] = []
            continue
        m = USER_END.search(line)
        if m and m.group(1) == cur:
            ends[cur] = int(m.group(2))
            cur = None
            continue
        if cur is not None:
            blocks[cur].append(line)
    return blocks, ends


def user_results(suite, text, names):
    """Results of the user programs (scripts/test-boot --cmd/--run-program):
    one JUnit suite per program, '<suite>/<name>'."""
    blocks, ends = user_blocks(text)
    out = []
    for name in names:
        s = '%s/%s' % (suite, name)
        body = '\n'.join(blocks.get(name, []))
        rc = ends.get(name)
        rs = ktap_results(s, body) if name in blocks else None
        if name not in blocks:
            out.append(Result(s, name, False, output='the guest never ran it (see the boot '
                                                      'testcase of %s)' % suite))
            continue
        if rs is None:
            rs = [Result(s, name, rc == 0 or rc == 77, rc == 77,
                         body + '\n# exit status %s' % rc)]
        elif rc != 0 and all(r.ok for r in rs):
            rs.append(Result(s, 'exit-status', False, output=body[-3000:] +
                             '\n# exit status %s (124/143: timed out)' % rc))
        if rc is None:
            rs.append(Result(s, 'exit-status', False,
                             output=body[-3000:] + '\n# did not finish: the guest stopped'))
        out += rs
    return out


def user_initrd(base, files, run, modules, out_path, archives=()):
    """The initramfs plus a second cpio archive (the kernel unpacks both)
    with the user's files: files = [(src, dest)], run = [(name, timeout,
    command)], modules = [.ko paths] (/user/modules, loaded in order);
    archives: more cpio archives, appended as they are between the two
    (an --amdgpu boot's modules)."""
    stage = tempfile.mkdtemp(prefix='hsagpu-user-')
    try:
        os.makedirs(os.path.join(stage, 'user'))
        for src, dest in files:
            dst = os.path.join(stage, dest.lstrip('/'))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            if os.path.isdir(src):
                shutil.copytree(src, dst, symlinks=True, dirs_exist_ok=True)
            else:
                shutil.copy2(src, dst)
        if modules:
            md = os.path.join(stage, 'user', 'modules')
            os.makedirs(md, exist_ok=True)
            for ko in modules:
                shutil.copy2(ko, md)
            with open(os.path.join(md, 'ORDER'), 'w') as f:
                f.write(''.join(os.path.basename(k) + '\n' for k in modules))
        if run:
            with open(os.path.join(stage, 'user', 'RUN'), 'w') as f:
                for name, secs, cmd in run:
                    f.write('%s\t%d\t%s\n' % (name, secs, cmd))
        listing = subprocess.run('find . | LC_ALL=C sort', shell=True, cwd=stage,
                                 stdout=subprocess.PIPE, check=True).stdout
        cpio = subprocess.run(['cpio', '-o', '-H', 'newc', '--quiet', '-R', '0:0'], cwd=stage,
                              input=listing, stdout=subprocess.PIPE, check=True).stdout
        gz = subprocess.run(['gzip', '-1'], input=cpio, stdout=subprocess.PIPE,
                            check=True).stdout
        with open(out_path, 'wb') as f:
            for a in [base] + list(archives):
                with open(a, 'rb') as b:
                    shutil.copyfileobj(b, f)
            f.write(gz)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return out_path


# -- Debian's stock amdgpu driver (scripts/test-boot --amdgpu, docs/amdgpu.md)
#
# A boot with the Vega10 personality of the device (PCI 1002:6860) in
# place of hsa-gpu, and no hsagpu.ko: the guest loads amdgpu.ko and what
# it needs from our guest kernel's own module tree, with the Vega10 files
# of Debian's firmware-amd-graphics, and reports TAP
# (guest-tests/amdgpu.sh).

AMDGPU_DEVICE = 'hsa-gpu-vega10'
AMDGPU_SCRIPT = os.path.join(ROOT, 'guest-tests', 'amdgpu.sh')
# where the guest finds the script, its files and amdgpu's modules
AMDGPU_GUEST_DIR = '/tests/amdgpu'
AMDGPU_GUEST_MODULES = '/lib/modules/%s/amdgpu'   # % kernel version

# The module parameters of an --amdgpu boot, on the kernel command line
# (MODULE.PARAM=VALUE): the guest hands each module's words to its insmod
# (busybox's insmod does not read the command line as modprobe does).
# scripts/test-boot --amdgpu-params adds more; a later word wins.
AMDGPU_PARAMS = [
    # direct microcode loading: the driver writes the CP (PFP, ME, CE, MEC),
    # RLC and SDMA microcode through their ucode registers itself, with no
    # PSP in the way (no PSP IP block, no sos/asd firmware)
    'amdgpu.fw_load_type=0',
    # no display: no DC/DM IP block and no display firmware; the device has
    # no display engine
    'amdgpu.dc=0',
    # IP blocks 0-4 only. For CHIP_VEGA10 both kernels (6.1, 6.12) add them
    # in amdgpu_discovery_set_ip_blocks() as: 0 soc15_common, 1 gmc_v9_0,
    # 2 vega10_ih, (psp and smu here only with PSP loading, dm only with
    # dc), 3 gfx_v9_0, 4 sdma_v4_0, 5 powerplay (the SMU, added after SDMA
    # with direct loading), 6 uvd_v7_0, 7 vce_v4_0: masks the SMU, UVD and
    # VCE, which the device does not model
    'amdgpu.ip_block_mask=0x1f',
    # (amdgpu.gpu_recovery: the default; no amdgpu.emu_mode: the device is
    # to work without it)
    # DRM's core debug messages: "ring test on X succeeded", "ib test on X
    # succeeded" (amdgpu-ring-tests, amdgpu-ib-tests) are DRM_DEV_DEBUG,
    # category core, into the kernel log only (loglevel=4 keeps them off
    # the console)
    'drm.debug=0x1',
    # a kernel log that keeps the whole probe with those messages
    'log_buf_len=4M',
]

# Kernel messages from amdgpu or DRM at err level or worse that do not
# fail amdgpu-dmesg: (extended regular expression as grep -E takes it,
# why). Kept short: each entry hides a message for good.
AMDGPU_DMESG_ALLOWED = [
    ('disabled ip block: [0-9]+ <(powerplay|uvd_v7_0|vce_v4_0)>',
     "6.1 reports each block amdgpu.ip_block_mask masks with DRM_ERROR (6.12 with "
     "DRM_WARN); the mask is ours (AMDGPU_PARAMS)"),
]

# The firmware files amdgpu loads for CHIP_VEGA10 with AMDGPU_PARAMS, on
# both kernels (amdgpu/NAME): amdgpu_device_parse_gpu_info_fw()
# (gpu_info), gfx_v9_0_init_microcode() (pfp, me, ce, rlc, mec; mec2 is
# optional but in the package), sdma_v4_0_init_microcode() (sdma, sdma1).
AMDGPU_FIRMWARE = ['vega10_gpu_info.bin', 'vega10_pfp.bin', 'vega10_me.bin',
                   'vega10_ce.bin', 'vega10_rlc.bin', 'vega10_mec.bin', 'vega10_mec2.bin',
                   'vega10_sdma.bin', 'vega10_sdma1.bin']
# ...and the rest of the vega10 files amdgpu.ko names (MODULE_FIRMWARE),
# with why a boot does without them
AMDGPU_FIRMWARE_UNUSED = {
    'vega10_sos.bin': 'PSP: not with amdgpu.fw_load_type=0',
    'vega10_asd.bin': 'PSP: not with amdgpu.fw_load_type=0',
    'vega10_cap.bin': 'PSP: not with amdgpu.fw_load_type=0',
    'vega10_smc.bin': 'SMU: masked by amdgpu.ip_block_mask',
    'vega10_acg_smc.bin': 'SMU: masked by amdgpu.ip_block_mask',
    'vega10_uvd.bin': 'UVD: masked by amdgpu.ip_block_mask',
    'vega10_vce.bin': 'VCE: masked by amdgpu.ip_block_mask',
    'vega10_ip_discovery.bin': '6.12 asks for it, optional (only for sysfs: '
                               'amdgpu_discovery_set_ip_blocks()); not in bookworm\'s package',
}
AMDGPU_FIRMWARE_TOP = os.path.join(CACHE, 'firmware-amd')


class AmdgpuSetupError(Exception):
    """Something an --amdgpu boot needs is missing (the message says what
    to run)."""


def amdgpu_firmware():
    """(directory whose amdgpu/ has the vega10 files, 'PACKAGE VERSION')
    of the firmware scripts/deps unpacked (common.sh:
    hsagpu_amd_firmware)."""
    try:
        ver = open(os.path.join(AMDGPU_FIRMWARE_TOP, 'version')).read().strip()
        d = os.path.join(AMDGPU_FIRMWARE_TOP, ver)
        return d, open(os.path.join(d, 'PACKAGE')).read().strip()
    except OSError:
        raise AmdgpuSetupError('no Vega10 firmware in %s: run scripts/deps'
                               % AMDGPU_FIRMWARE_TOP) from None


def kernel_modules_dir(kernel):
    """lib/modules/VERSION of one of our guest kernels, as scripts/deps
    unpacked it (with the modules.dep it makes)."""
    ver = kernel_version(kernel)
    if ver is None:
        raise AmdgpuSetupError('guest kernel %s is missing: run scripts/deps' % kernel)
    return os.path.join(CACHE, KERNELS[kernel], 'root', 'lib', 'modules', ver)


def _module_name(path):
    return os.path.basename(path).split('.ko')[0].replace('-', '_')


def module_closure(tree, name):
    """The modules @name needs by @tree's modules.dep, dependencies before
    the modules that need them, @name last: paths relative to @tree."""
    deps = {}
    try:
        with open(os.path.join(tree, 'modules.dep')) as f:
            for line in f:
                mod, sep, rest = line.partition(':')
                if sep:
                    deps[mod] = rest.split()
    except OSError:
        raise AmdgpuSetupError('%s/modules.dep is missing: run scripts/deps' % tree) from None
    by_name = {_module_name(m): m for m in deps}
    if name not in by_name:
        raise AmdgpuSetupError('%s is not in %s/modules.dep' % (name, tree))
    order = []

    def visit(m, path):
        if m in order:
            return
        if m in path:
            raise AmdgpuSetupError('modules.dep: a dependency cycle through %s' % m)
        for d in deps.get(m, []):
            visit(d, path + [m])
        order.append(m)
    visit(by_name[name], [])
    return order


def _decompressed(path):
    """A module file's contents, .ko.xz/.ko.zst/.ko.gz decompressed (the
    guest's busybox insmod reads plain .ko only)."""
    if path.endswith('.xz'):
        return lzma.open(path).read()
    if path.endswith('.gz'):
        return gzip.open(path).read()
    if path.endswith('.zst'):
        return subprocess.run(['zstd', '-qdc', path], stdout=subprocess.PIPE,
                              check=True).stdout
    return open(path, 'rb').read()


def amdgpu_modules(kernel):
    """amdgpu.ko and the modules it needs (modules.dep) of one of our
    guest kernels, decompressed, in a cpio archive for the guest's
    AMDGPU_GUEST_MODULES with ORDER (load order, one file name a line):
    (archive path, [file names]). Made once per kernel version (again
    when modules.dep changes) in $CACHE/amdgpu-modules."""
    return modules_archive(kernel, ['amdgpu'], AMDGPU_GUEST_MODULES, 'amdgpu-modules')


def builtin_modules(tree):
    """The names of the modules built into the kernel of @tree."""
    try:
        with open(os.path.join(tree, 'modules.builtin')) as f:
            return {_module_name(l.strip()) for l in f if l.strip()}
    except OSError:
        return set()


def modules_archive(kernel, wanted, guest_dir, cache_name):
    """The modules @wanted (names) and what they need (modules.dep) of one
    of our guest kernels, those built in left out, decompressed, in a cpio
    archive for the guest's @guest_dir (% kernel version) with ORDER (load
    order, one file name a line): (archive path, [file names]). Made once
    per kernel version (again when modules.dep changes) in
    $CACHE/@cache_name."""
    tree = kernel_modules_dir(kernel)
    ver = kernel_version(kernel)
    top = os.path.join(CACHE, cache_name)
    out = os.path.join(top, ver + '.cpio')
    order_file = os.path.join(top, ver + '.order')
    builtin = builtin_modules(tree)
    closure = []
    for name in wanted:
        if name in builtin:
            continue
        closure += [m for m in module_closure(tree, name) if m not in closure]
    names = [os.path.basename(m).split('.ko')[0] + '.ko' for m in closure]
    dep = os.path.join(tree, 'modules.dep')
    try:
        if (os.path.getmtime(out) >= os.path.getmtime(dep) and
                open(order_file).read().split() == names):
            return out, names
    except OSError:
        pass
    os.makedirs(top, exist_ok=True)
    stage = tempfile.mkdtemp(prefix='stage-', dir=top)
    try:
        md = os.path.join(stage, guest_dir.lstrip('/') % ver)
        os.makedirs(md)
        for rel, n in zip(closure, names):
            with open(os.path.join(md, n), 'wb') as f:
                f.write(_decompressed(os.path.join(tree, rel)))
        with open(os.path.join(md, 'ORDER'), 'w') as f:
            f.write(''.join(n + '\n' for n in names))
        listing = subprocess.run('find . | LC_ALL=C sort', shell=True, cwd=stage,
                                 stdout=subprocess.PIPE, check=True).stdout
        tmp = '%s.tmp.%d' % (out, os.getpid())
        with open(tmp, 'wb') as f:
            subprocess.run(['cpio', '-o', '-H', 'newc', '--quiet', '-R', '0:0'], cwd=stage,
                           input=listing, stdout=f, check=True)
        os.replace(tmp, out)
        with open(order_file + '.tmp', 'w') as f:
            f.write(''.join(n + '\n' for n in names))
        os.replace(order_file + '.tmp', order_file)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return out, names


def amdgpu_extra_params(words):
    """--amdgpu-params 'emu_mode=1,drm.debug=0': MODULE.PARAM=VALUE words
    for the kernel command line (amdgpu's when no module is named)."""
    out = []
    for w in filter(None, (words or '').split(',')):
        k, sep, _ = w.partition('=')
        if not sep or not k:
            raise AmdgpuSetupError('--amdgpu-params %s: not PARAM=VALUE' % w)
        out.append(w if '.' in k else 'amdgpu.' + w)
    return out


def amdgpu_boot(kernel, device=AMDGPU_DEVICE, extra_params=None, timeout=300,
                work_dir=None):
    """What an --amdgpu boot adds to one of ours (scripts/test-boot):
    dict(device=TYPE, props=PROPS (for every GPU), cmdline=[words],
    files=[(src, dest)], run=[(name, timeout, command)], archives=[cpio]).
    device: TYPE[,PROPS], e.g. 'hsa-gpu,vendor-id=0x1002,device-id=0x6860'
    (the existing device under Vega10 IDs: amdgpu probes it and fails on
    its vBIOS). Raises AmdgpuSetupError when something is missing."""
    if kernel not in KERNELS:
        raise AmdgpuSetupError('--amdgpu boots one of our kernels (%s): their module '
                               'trees have amdgpu.ko' % ', '.join(KERNELS))
    dtype, _, props = (device or AMDGPU_DEVICE).partition(',')
    fw_dir, fw_package = amdgpu_firmware()
    missing = [f for f in AMDGPU_FIRMWARE
               if not os.path.exists(os.path.join(fw_dir, 'amdgpu', f))]
    if missing:
        raise AmdgpuSetupError('%s in %s lacks %s' % (fw_package, fw_dir, ', '.join(missing)))
    archive, _ = amdgpu_modules(kernel)
    # the allow-list, one expression a line, for the guest's grep -E -f
    work_dir = work_dir or os.path.join(CACHE, 'results')
    os.makedirs(work_dir, exist_ok=True)
    allow = os.path.join(work_dir, 'amdgpu-dmesg-allow')
    # scripts/test runs several boots at once from threads of one process:
    # each writes its own temporary file, the last rename wins (same bytes)
    fd, tmp = tempfile.mkstemp(prefix='amdgpu-dmesg-allow.', dir=work_dir)
    with os.fdopen(fd, 'w') as f:
        f.write(''.join(rx + '\n' for rx, _ in AMDGPU_DMESG_ALLOWED))
    os.replace(tmp, allow)
    g = AMDGPU_GUEST_DIR
    return dict(device=dtype, props=props,
                cmdline=AMDGPU_PARAMS + amdgpu_extra_params(extra_params),
                files=[(AMDGPU_SCRIPT, g + '/amdgpu.sh'), (allow, g + '/dmesg-allow'),
                       (os.path.join(fw_dir, 'PACKAGE'), g + '/firmware-package'),
                       (os.path.join(fw_dir, 'amdgpu'), '/lib/firmware/amdgpu')],
                run=[('amdgpu', timeout, 'sh %s/amdgpu.sh' % g)],
                archives=[archive])


# -- Debian trixie's ROCm on Linux's own amdkfd (scripts/test-boot --amdgpu
# --trixie, docs/rocm.md)
#
# An --amdgpu boot of the 6.12 kernel with a second disk: the image of
# trixie's ROCm user space (scripts/build-trixie-rocm), read-only on
# virtio-blk; after amdgpu's checks, guest-tests/trixie/trixie.sh mounts
# it and runs rocminfo, a HIP program and a rocBLAS SGEMM chrooted in it.

TRIXIE_SCRIPT = os.path.join(ROOT, 'guest-tests', 'trixie', 'trixie.sh')
TRIXIE_BUILD = os.path.join(ROOT, 'scripts', 'build-trixie-rocm')
TRIXIE_GUEST_DIR = '/tests/trixie'
TRIXIE_GUEST_MODULES = '/lib/modules/%s/trixie'   # % kernel version
# what reads the disk: virtio's PCI transport and block driver, ext4 (and
# what modules.dep says it needs, and the crc32c its mount asks the crypto
# API for by name: "Cannot load crc32c driver" without it, even with no
# metadata checksums); those built into a kernel are left out
TRIXIE_MODULES = ['virtio_pci', 'virtio_blk', 'crc32c_generic', 'ext4']
# amdgpu.sh's checks a trixie boot leaves out (hsagpu_test.amdgpu_skip):
# the other amdgpu boots run them; this one keeps the probe and the ring
# and IB tests, and spends its time on trixie's ROCm
TRIXIE_AMDGPU_SKIP = ['amdgpu-ih', 'amdkfd-rocminfo', 'amdkfd-dispatch', 'amdgpu-reset',
                      'amdgpu-vmfault', 'amdgpu-hang', 'amdkfd-hang-hws', 'amdgpu-rebind',
                      'amdgpu-reload']


def trixie_image():
    """The trixie ROCm image, built (or found up to date) by
    scripts/build-trixie-rocm; AmdgpuSetupError with its output when it
    cannot be."""
    p = subprocess.run([TRIXIE_BUILD], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    lines = p.stdout.strip().splitlines()
    if p.returncode or not lines or not os.path.isfile(lines[-1]):
        raise AmdgpuSetupError('scripts/build-trixie-rocm failed:\n' + p.stdout[-3000:])
    return lines[-1]


def trixie_boot(kernel, timeout=600):
    """What a trixie boot adds to an --amdgpu one: dict(files, run,
    archives, extra (QEMU options: the image's drive), skip (amdgpu.sh's
    checks to leave out))."""
    if kernel != '6.12':
        raise AmdgpuSetupError('the trixie boot needs the 6.12 kernel (--kernel 6.12): '
                               'the one whose amdkfd it tests')
    img = trixie_image()
    archive, _ = modules_archive(kernel, TRIXIE_MODULES, TRIXIE_GUEST_MODULES,
                                 'trixie-modules')
    g = TRIXIE_GUEST_DIR
    return dict(files=[(TRIXIE_SCRIPT, g + '/trixie.sh')],
                run=[('trixie', timeout, 'sh %s/trixie.sh' % g)],
                archives=[archive],
                # QEMU's guest-error log on the console: where a kernel of
                # rocBLAS or HIP fails its queue (an instruction the GCN
                # interpreter does not implement: docs/isa.md, Failing
                # clearly), amdkfd hears nothing and the program waits
                # until its timeout; the device's line names the
                # instruction, and the boot fails with it (queue_errors)
                extra=['-drive', 'file=%s,if=none,id=trixie,format=raw,readonly=on' % img,
                       '-device', 'virtio-blk-pci,drive=trixie', '-d', 'guest_errors'],
                skip=list(TRIXIE_AMDGPU_SKIP))


KFDTEST_BUILD = os.path.join(ROOT, 'scripts', 'build-kfdtest')
GTEST_TAP = os.path.join(ROOT, 'scripts', 'rocm-libs', 'gtest-tap.sh')
# The kfdtest tests scripts/test's boot-amdgpu runs: AMD's bring-up set
# (kfdtest.exclude's FILTER[core]: queues of each kind, local memory, an
# event, CWSR; without AllSdmaQueues, which AMD leaves out on a Vega10,
# and without CWSR's fourth case, 1,024 work-items preempted 1,000
# times: a throughput test under the interpreter, whose time a 2-core CI
# host cannot promise), and the PM4 dispatches, events and queue updates
# whose device bugs kfdtest found (docs/rocm.md "AMD's kfdtest")
KFDTEST_CI = ('KFDQMTest.CreateDestroyCpQueue:KFDQMTest.SubmitNopCpQueue:'
              'KFDQMTest.SubmitPacketCpQueue:KFDQMTest.AllCpQueues:'
              'KFDQMTest.CreateDestroySdmaQueue:KFDQMTest.SubmitNopSdmaQueue:'
              'KFDQMTest.SubmitPacketSdmaQueue:KFDQMTest.AllQueues:'
              'KFDLocalMemoryTest.AccessLocalMem:KFDEventTest.SignalEvent:'
              'KFDCWSRTest.BasicTest/0:KFDCWSRTest.BasicTest/1:'
              'KFDCWSRTest.BasicTest/2:KFDQMTest.SimpleWriteDispatch:'
              'KFDMemoryTest.MemoryRegister:KFDQMTest.DisableCpQueueByUpdateWithNullAddress:'
              'KFDGWSTest.Semaphore:KFDMemoryTest.FlatScratchAccess')


def kfdtest_boot(gtest_filter='', timeout=60, budget=3000):
    """What running AMD's kfdtest adds to a boot (scripts/test-boot
    --kfdtest): dict(files, run). The tests are those AMD's runner runs on
    a Vega10 (scripts/build-kfdtest's list), narrowed by gtest_filter
    (GoogleTest's syntax); each is a TAP line (gtest-tap.sh), one that
    runs past @timeout seconds fails and kfdtest goes on after it, and
    none starts after @budget seconds. AmdgpuSetupError when kfdtest
    cannot be built or no test matches."""
    p = subprocess.run([KFDTEST_BUILD], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    lines = p.stdout.strip().splitlines()
    out = lines[-1] if lines else ''
    binary = os.path.join(out, 'kfdtest')
    if p.returncode or not os.path.isfile(binary):
        raise AmdgpuSetupError('scripts/build-kfdtest failed:\n' + p.stdout[-3000:])
    with open(os.path.join(out, 'kfdtest.filter')) as f:
        vega10 = f.read().strip()
    q = subprocess.run([binary, '--gtest_list_tests', '--gtest_filter=' + gtest_filter + vega10],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True)
    tests, group = [], ''
    for line in q.stdout.splitlines():
        if line[:1].isalpha():
            group = line.split()[0]
        elif line.startswith('  ') and group:
            tests.append(group + line.split()[0])
    if not tests:
        raise AmdgpuSetupError('no kfdtest test matches %r' % gtest_filter)
    # one list per set of tests, beside the build
    text = '\n'.join(tests) + '\n'
    listing = os.path.join(out, 'run-%s.list' % hashlib.sha1(text.encode()).hexdigest()[:12])
    with open(listing + '.tmp', 'w') as f:
        f.write(text)
    os.replace(listing + '.tmp', listing)
    # kfdtest's libraries beyond the initramfs's: the terminal database
    # LLVM's static libraries link to
    tinfo = '/lib/x86_64-linux-gnu/libtinfo.so.6'
    return dict(files=[(binary, '/user/kfdtest'), (listing, '/user/kfdtest.list'),
                       (GTEST_TAP, '/user/gtest-tap.sh'), (tinfo, tinfo)],
                run=[('kfdtest', budget + 120,
                      'sh /user/gtest-tap.sh -t %d -T %d -l /user/kfdtest.list /user/kfdtest'
                      % (timeout, budget))])


def amdgpu_checks():
    """scripts/test's config checks of the --amdgpu boots, without a boot:
    [(name, ok, output)]. For each of our kernels: amdgpu.ko and every
    module it needs are in the tree (modules.dep), every AMDGPU_PARAMS
    parameter of a module is one that module has, every vega10 file
    amdgpu.ko names is in AMDGPU_FIRMWARE or AMDGPU_FIRMWARE_UNUSED; and
    the firmware package has every file of AMDGPU_FIRMWARE."""
    out = []
    for kernel in sorted(KERNELS):
        why = []
        try:
            tree = kernel_modules_dir(kernel)
            closure = module_closure(tree, 'amdgpu')
            lost = [m for m in closure if not os.path.exists(os.path.join(tree, m))]
            if lost:
                why.append('in modules.dep but not in the tree: ' + ', '.join(lost))
            paths = {_module_name(m): os.path.join(tree, m) for m in closure}
            for w in AMDGPU_PARAMS:
                mod, _, rest = w.partition('.')
                param = rest.partition('=')[0]
                if mod not in paths:
                    continue        # a kernel parameter (log_buf_len)
                have = subprocess.run(['modinfo', '-F', 'parm', paths[mod]],
                                      stdout=subprocess.PIPE, universal_newlines=True).stdout
                if param not in [l.partition(':')[0] for l in have.splitlines()]:
                    why.append('%s: %s.ko has no parameter %s' % (w, mod, param))
            fw = subprocess.run(['modinfo', '-F', 'firmware', paths['amdgpu']],
                                stdout=subprocess.PIPE, universal_newlines=True).stdout.split()
            vega10 = [os.path.basename(f) for f in fw if os.path.basename(f).startswith('vega10_')]
            new = [f for f in vega10 if f not in AMDGPU_FIRMWARE and
                   f not in AMDGPU_FIRMWARE_UNUSED]
            if new:
                why.append('amdgpu.ko names firmware the harness does not know '
                           '(AMDGPU_FIRMWARE or AMDGPU_FIRMWARE_UNUSED): ' + ', '.join(new))
            gone = [f for f in AMDGPU_FIRMWARE if f not in vega10]
            if gone:
                why.append('AMDGPU_FIRMWARE has files amdgpu.ko does not name: ' +
                           ', '.join(gone))
            about = '%s: %s' % (kernel_version(kernel),
                                ' '.join(os.path.basename(m).split('.ko')[0] for m in closure))
        except AmdgpuSetupError as e:
            why.append(str(e))
            about = kernel
        out.append(('amdgpu-modules-' + kernel, not why, '\n'.join([about] + why)))
    try:
        fw_dir, fw_package = amdgpu_firmware()
        missing = [f for f in AMDGPU_FIRMWARE
                   if not os.path.exists(os.path.join(fw_dir, 'amdgpu', f))]
        out.append(('amdgpu-firmware', not missing, '%s in %s%s' % (
            fw_package, fw_dir, '; missing: ' + ', '.join(missing) if missing else '')))
    except AmdgpuSetupError as e:
        out.append(('amdgpu-firmware', False, str(e)))
    return out


TEST_GROUPS = {'all', 'fabric', 'rocm'}
GUEST_INFO = re.compile(r'# hsagpu: (kernel|clocksource) (\S*)\s*$')


def run_boot(suite, preset, devprops, run='all', accel='tcg', timeout=600,
             log_dir=None, params=None, extra=None, echo=False, kernel=None,
             clocksource=None, user=None, migrate_every=None, hip=False, mem=None,
             device=None, cmdline=None, queue_errors=False):
    """Boot a guest, run the tests, return Results. Missing results, a
    timeout or kernel trouble are failures too. user: dict(files, run,
    modules, archives) from scripts/test-boot; run='none' runs none of
    our tests. hip: boot the HIP initramfs (INITRD_HIP); mem: guest MiB
    instead of the preset's; device, cmdline: as boot_cmd() takes them;
    queue_errors: a queue the device failed (its QEMU guest-error line,
    with '-d guest_errors' in @extra) fails the boot, naming it."""
    params = dict(params or {})
    params['run'] = run
    clocksource = clocksource or CLOCKSOURCE
    log_dir = log_dir or os.path.join(CACHE, 'results')
    os.makedirs(log_dir, exist_ok=True)
    initrd = base = INITRD_HIP if hip else None
    if hip and not os.path.exists(INITRD_HIP):
        raise SystemExit('%s is missing: is hipcc installed (scripts/deps), and '
                         'scripts/build-guest run?' % INITRD_HIP)
    user_names = []
    if user and (user.get('files') or user.get('run') or user.get('modules') or
                 user.get('archives')):
        initrd = user_initrd(base or INITRD, user.get('files', []), user.get('run', []),
                             user.get('modules', []),
                             os.path.join(log_dir, suite + '.initrd.gz'),
                             user.get('archives', ()))
        user_names = [n for n, _, _ in user.get('run', [])]
    # the harness serves the guest <-> host channel (hsagpu_guest.py)
    params['host'] = 1
    cmd = boot_cmd(preset, devprops, accel, params, extra, kernel, initrd, clocksource,
                   mem, device, cmdline)
    log_path = os.path.join(log_dir, suite + '.console.log')
    t0 = time.time()
    with open(log_path, 'wb') as log:
        log.write(('$ ' + ' '.join(cmd) + '\n').encode())
        log.flush()
        sess = G.Session(cmd, log, echo=echo, tmp_parent=os.path.join(log_dir, 'tmp'))
        returncode, timed_out = sess.run(timeout, migrate_every=migrate_every)
    elapsed = time.time() - t0
    text = sess.text()
    # our tests' TAP: everything before the first user program
    ours = text.split('# hsagpu-user-begin ', 1)[0]
    results, plan = parse_tap(suite, ours) if run != 'none' else ([], 0)
    for r in results:
        r.suite = suite
    timing = boot_timing(sess.timed_lines(), t0, elapsed, results)
    timing['cpu'] = sess.cpu_seconds()
    # 'all', 'fabric' and 'rocm' are lists the init expands (/tests/ALL, ...)
    wanted = (run.split(',') if run != 'none' and not set(run.split(',')) & TEST_GROUPS
              else None)
    info = dict(m.groups() for m in map(GUEST_INFO.search, text.splitlines()) if m)
    problems, infra = [], []
    if timed_out:
        infra.append('timed out after %ds' % timeout)
    elif returncode != 0:
        infra.append('QEMU exited with status %d' % returncode)
    infra += sess.problems
    if 'kernel' not in info:
        infra.append('the guest never started the test init')
    want_cs = {'tsc': ('tsc', 'kvm-clock') if accel == 'kvm' else ('tsc',),
               'hpet': ('hpet',)}.get(clocksource)
    if want_cs and 'clocksource' in info and info['clocksource'].strip() not in want_cs:
        infra.append('GUEST CLOCKSOURCE IS %r, NOT %s (asked for with %s)'
                     % (info['clocksource'], ' or '.join(want_cs),
                        ' '.join(CLOCKSOURCES[clocksource])))
    if run != 'none':
        if plan is None:
            problems.append('the guest printed no TAP plan')
        elif len(results) < plan:
            problems.append('%d of %d results missing' % (plan - len(results), plan))
        if wanted and plan is not None and plan != len(wanted):
            problems.append('plan %d for %d requested tests' % (plan, len(wanted)))
    lines = text.splitlines()
    panic = [l for l in lines if 'Kernel panic' in l]
    if panic:
        infra.append('kernel panic: ' + panic[0])
    trouble = [l for l in lines if KERNEL_TROUBLE.search(l) and 'Kernel panic' not in l]
    if trouble:
        problems.append('kernel trouble: ' + '; '.join(trouble[:5]))
    qerr = [l for l in lines if QUEUE_ERROR.search(l)] if queue_errors else []
    if qerr:
        problems.append('the device failed a queue: ' + '; '.join(qerr[:5]))
    results += user_results(suite, text, user_names)
    tail = '\n'.join(lines[-40:])
    bad = infra + problems
    if migrate_every and not timed_out and len(sess.migrations) < 2:
        # every N s of the test run: a run with fewer proves little
        problems.append('only %d live migrations during the tests (every %ss asked for)'
                        % (len(sess.migrations), migrate_every))
    about = 'kernel %s, clocksource %s, %s, %.1fs (%s)' % (
        info.get('kernel', '?'), info.get('clocksource', '?'), accel, elapsed,
        timing_summary(timing))
    if sess.migrations:
        about += ', %d live migrations (longest %.1fs, downtime up to %s ms)' % (
            len(sess.migrations), max(m[0] for m in sess.migrations),
            max((m[1] or 0) for m in sess.migrations))
    # the boot testcase has the time no test had (firmware, kernel, init,
    # user programs, shutdown): a suite's testcases add up to its wall time
    boot = Result(suite, 'boot', not bad, False,
                  about + ('\n' + '\n'.join(bad) + '\n--- console tail ---\n' + tail
                           if bad else ''),
                  max(0.0, elapsed - sum(r.time for r in results)), infra=bool(infra))
    boot.timing = timing
    results.append(boot)
    return results, log_path, elapsed


def boot_timing(timed, t0, elapsed, results):
    """Where a boot's wall time went, from the host time each console
    line arrived: 'init' (QEMU start to the init's first line: firmware
    and kernel), 'tests' (the init's first line to our last result),
    'after' (the user programs, the kernel log dump and power-off); each
    of our test results gets its share as Result.time (from the previous
    result, or from the init's first line). Never a verdict."""
    t_init = next((t for t, l in timed if '# hsagpu: kernel' in l), None)
    tap = [t for t, l in timed if TAP_LINE.match(l)][:len(results)]
    prev = t_init
    tests = []
    if len(tap) == len(results) and t_init is not None:
        for r, t in zip(results, tap):
            r.time = max(0.0, t - prev)
            prev = t
            tests.append((r.name, r.time))
    init = (t_init - t0) if t_init is not None else elapsed
    return {'wall': elapsed, 'init': init,
            'tests': (prev - t_init) if t_init is not None else 0.0,
            'after': (t0 + elapsed - prev) if t_init is not None else 0.0,
            'per_test': tests}


def timing_summary(timing, slowest=3):
    """'init 5.1s, tests 40.2s (t-dma 12.0s, t-atomic 6.1s, ...), after 1.9s'."""
    top = sorted(timing['per_test'], key=lambda nt: -nt[1])[:slowest]
    return 'init %.1fs, tests %.1fs%s, after %.1fs; QEMU CPU %.1fs' % (
        timing['init'], timing['tests'],
        ' (%s)' % ', '.join('%s %.1fs' % nt for nt in top) if top else '', timing['after'],
        timing.get('cpu', 0.0))


def exit_status(results):
    """test-boot's exit status: 0 all passed, 1 a test failed, 3 the boot
    itself failed (timeout, panic, QEMU crash, wrong clocksource)."""
    if any(r.infra and not r.ok for r in results):
        return 3
    return 1 if any(not r.ok for r in results) else 0


_XML_BAD = re.compile('[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]')


def _xml_text(text):
    """Console output without what XML 1.0 cannot carry (escape sequences
    from the firmware, NULs)."""
    return _XML_BAD.sub(lambda m: '\\x%02x' % ord(m.group()[0]), text)


def write_junit(path, results, suite_times=None):
    """suite_times: {suite: wall seconds} for suites whose testcases are
    not timed one by one (the qtest, the fuzz smoke): the testsuite's
    time, when larger than the sum of its testcases'."""
    suites = {}
    for r in results:
        suites.setdefault(r.suite, []).append(r)
    root = ET.Element('testsuites', tests=str(len(results)),
                      failures=str(sum(not r.ok for r in results)))
    for name, rs in suites.items():
        secs = max(sum(r.time for r in rs), (suite_times or {}).get(name, 0.0))
        s = ET.SubElement(root, 'testsuite', name=name, tests=str(len(rs)),
                          failures=str(sum(not r.ok for r in rs)),
                          skipped=str(sum(r.skipped for r in rs)),
                          time='%.3f' % secs)
        for r in rs:
            c = ET.SubElement(s, 'testcase', classname='hsagpu.' + name, name=_xml_text(r.name),
                              time='%.3f' % r.time)
            if r.skipped:
                ET.SubElement(c, 'skipped')
            elif not r.ok:
                f = ET.SubElement(c, 'failure', message='failed')
                f.text = _xml_text(r.output)
            if r.output:
                ET.SubElement(c, 'system-out').text = _xml_text(r.output)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    ET.ElementTree(root).write(path, encoding='utf-8', xml_declaration=True)
