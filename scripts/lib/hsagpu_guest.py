"""A running test guest: its QEMU process(es), the serial console, the QMP
socket and the guest <-> host channel on the guest's /dev/ttyS1
(docs/testing.md, "Talking to the host"), plus live migration to a fresh
QEMU on request or every N seconds.

The guest writes one request line on ttyS1, "#TAG REQUEST"; the harness
answers one line, "#TAG {json}" (guest-tests/lib/gthost.c):

  PING                   {"return": "pong"}
  QMP {json command}     QEMU's response (its "id" is the guest's, if any)
  MIGRATE                live migration to a fresh QEMU; the reply comes
                         from the destination
  EVENT NAME [K=V]... [S]  the next QMP event NAME (with data K == V) not
                         handed out before, waiting up to S seconds (30)
  DEVARGS ID             {"return": "<the -device option with id=ID>"}

Used by hsagpu_harness.run_boot().
"""
import json
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time


def _connect(path, deadline, proc):
    """Connect to QEMU's unix socket server as soon as it listens."""
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            s.settimeout(30)
            return s
        except (FileNotFoundError, ConnectionRefusedError):
            s.close()
        if proc.poll() is not None or time.time() > deadline:
            return None
        time.sleep(0.02)


def _opt_id(opt):
    """The id= of a -device option string, or None."""
    for kv in re.split(r'(?<!,),(?!,)', opt):
        if kv.startswith('id='):
            return kv[3:]
    return None


def channel_args(qmp_path, host_path):
    """QEMU options of the channel: QMP on @qmp_path; the console stays on
    stdio (ttyS0, with the monitor muxed in, as -nographic does), ttyS1 is
    a socket server the harness connects to. wait=off: QEMU does not block
    for the harness (which connects before the guest has booted)."""
    return ['-qmp', 'unix:%s,server=on,wait=off' % qmp_path,
            '-chardev', 'socket,id=gthost,path=%s,server=on,wait=off' % host_path,
            '-serial', 'mon:stdio', '-serial', 'chardev:gthost']


class Instance:
    """One QEMU process of a session."""

    def __init__(self, sess, n, cmd, incoming=None):
        self.n = n
        self.qmp_path = os.path.join(sess.tmp, 'qmp%d' % n)
        self.host_path = os.path.join(sess.tmp, 'host%d' % n)
        self.cmd = cmd + channel_args(self.qmp_path, self.host_path)
        if incoming:
            # paused after the migration: the harness resumes it (migrate())
            self.cmd += ['-S', '-incoming', incoming]
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.qmp = self.host = None
        self.qmp_buf = b''
        self.replies = {}
        self.console_eof = False
        self.cpu = 0.0            # CPU seconds of the process, as last read

    def read_cpu(self):
        """utime + stime from /proc (while the process exists)."""
        try:
            with open('/proc/%d/stat' % self.proc.pid) as f:
                fields = f.read().rsplit(')', 1)[1].split()
            self.cpu = (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')
        except (OSError, ValueError, IndexError):
            pass

    def kill(self):
        if self.proc.poll() is None:
            self.read_cpu()
            self.proc.kill()
        self.proc.wait()
        for s in (self.qmp, self.host):
            if s:
                s.close()
        self.qmp = self.host = None


class Session:
    """One guest boot: QEMU started from @cmd (plus the channel options),
    its console appended to @log (and echoed to stdout with @echo), the
    channel served; the guest moves between QEMU processes when migrated.
    Sockets live in a fresh directory below @tmp_parent."""

    def __init__(self, cmd, log, echo=False, tmp_parent=None):
        self.base_cmd = cmd
        self.log, self.echo = log, echo
        # unix socket paths must stay short (108 bytes)
        parent = tmp_parent if tmp_parent and len(tmp_parent) < 70 else None
        if parent:
            os.makedirs(parent, exist_ok=True)
        self.tmp = tempfile.mkdtemp(prefix='g', dir=parent)
        self.instances = []
        self.all_instances = []   # for cpu_seconds()
        self.current = None
        self.held = set()         # instances whose output waits (migrate())
        self.guest_qom = []       # (path, property) the guest qom-set
        self.unplugged = set()    # ids of command-line devices QEMU deleted
        self.plugged = []         # [id, -device option] the guest added
        self.chunks = []
        self.line_times = []      # host time each console line ended (its '\n' came)
        self.seen = b''           # the console's last bytes (markers)
        self.tests_running = False    # between the init's start and its dmesg dump
        self.last_reply = 0.0
        self.requests = []
        # the guest's ttyS1 output, one stream across QEMU processes
        self.host_buf = b''
        self.events = []
        self.next_id = 0
        self.nspawned = 0
        self.migrations = []      # (seconds, downtime ms) of each migration
        self.problems = []        # harness-side failures: the boot fails

    # -- processes -------------------------------------------------------

    def current_cmd(self):
        """The command line of the guest's machine as it is now: without
        the -device options of devices the guest unplugged, with those it
        plugged (a migration destination must have the same devices)."""
        cmd, skip = [], False
        for i, w in enumerate(self.base_cmd):
            if skip:
                skip = False
                continue
            if (w == '-device' and i + 1 < len(self.base_cmd) and
                    _opt_id(self.base_cmd[i + 1]) in self.unplugged):
                skip = True
                continue
            cmd.append(w)
        for _, opt in self.plugged:
            cmd += ['-device', opt]
        return cmd

    def spawn(self, incoming=None):
        inst = Instance(self, self.nspawned, self.current_cmd(), incoming)
        self.nspawned += 1
        self.instances.append(inst)
        self.all_instances.append(inst)
        self.note('started QEMU instance %d%s: %s' % (
            inst.n, ' (incoming)' if incoming else '', ' '.join(inst.cmd)))
        return inst

    def connect(self, inst, timeout=30):
        """QMP (capabilities negotiated) and the host channel of @inst."""
        deadline = time.time() + timeout
        inst.qmp = _connect(inst.qmp_path, deadline, inst.proc)
        if inst.qmp and 'return' in self.qmp(inst, 'qmp_capabilities', timeout=timeout):
            inst.host = _connect(inst.host_path, deadline, inst.proc)
        return inst.host is not None

    def retire(self, inst, how='quit'):
        """Stop @inst and read its console to the end."""
        if how == 'quit' and inst.qmp and inst.proc.poll() is None:
            self.qmp(inst, 'quit', timeout=10)
        deadline = time.time() + 10
        while not inst.console_eof and time.time() < deadline:
            self.pump(0.05)
        inst.kill()
        if not inst.console_eof:
            self._console(inst)
        self.instances.remove(inst)

    def note(self, msg):
        """A harness line in the console log (not in the parsed text)."""
        self.log.write(('# hsagpu-harness: %s\n' % msg).encode())
        self.log.flush()

    # -- I/O --------------------------------------------------------------

    def _console(self, inst):
        try:
            data = os.read(inst.proc.stdout.fileno(), 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b''
        if not data:
            inst.console_eof = True
            return
        self.chunks.append(data)
        now = time.time()
        self.line_times += [now] * data.count(b'\n')
        # the init's first line and its kernel-log dump (markers may be
        # split between reads)
        self.seen = self.seen[-64:] + data
        if b'# hsagpu: kernel' in self.seen:
            self.tests_running = True
            self.seen = self.seen.replace(b'# hsagpu: kernel', b'')
        if b'# hsagpu-dmesg-begin' in self.seen:
            self.tests_running = False
            self.seen = b''
        self.log.write(data)
        self.log.flush()
        if self.echo:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()

    def _recv(self, sock):
        try:
            return sock.recv(65536)
        except (BlockingIOError, socket.timeout):
            return None
        except OSError:
            return b''

    def pump(self, timeout):
        """Read whatever the QEMU processes have for us, up to @timeout s.
        The destination's console and ttyS1 are held back while the source
        of a migration still has output: the log stays in order, and a
        request line the guest had half written when the source stopped is
        completed by what it writes on the destination."""
        fds = {}
        for inst in self.instances:
            if not inst.console_eof and inst not in self.held:
                fds[inst.proc.stdout.fileno()] = (inst, 'console')
            if inst.qmp:
                fds[inst.qmp.fileno()] = (inst, 'qmp')
            if inst.host and inst not in self.held:
                fds[inst.host.fileno()] = (inst, 'host')
        if not fds:
            time.sleep(timeout)
            return
        ready, _, _ = select.select(list(fds), [], [], timeout)
        for fd in ready:
            inst, kind = fds[fd]
            if kind == 'console':
                self._console(inst)
            elif kind == 'qmp':
                data = self._recv(inst.qmp)
                if data == b'':
                    inst.qmp.close()
                    inst.qmp = None
                elif data:
                    inst.qmp_buf += data
                    self._qmp_messages(inst)
            else:
                data = self._recv(inst.host)
                if data == b'':
                    inst.host.close()
                    inst.host = None
                elif data:
                    self.host_buf += data
                    *lines, self.host_buf = self.host_buf.split(b'\n')
                    for line in lines:
                        line = line.decode(errors='replace').strip('\r\x00 ')
                        if line:
                            self.requests.append(line)

    def _qmp_messages(self, inst):
        *lines, inst.qmp_buf = inst.qmp_buf.split(b'\n')
        for line in lines:
            line = line.strip()
            if not line:
                continue
            try:
                msg = json.loads(line)
            except ValueError:
                self.note('QMP %d: unparsable %r' % (inst.n, line[:200]))
                continue
            if 'event' in msg:
                msg['taken'] = False
                self.events.append(msg)
                dev = (msg.get('data') or {}).get('device')
                if msg['event'] == 'DEVICE_DELETED' and dev and inst is self.current:
                    self._device_deleted(dev)
                self.note('QMP event on %d: %s' % (inst.n, line.decode(errors='replace')))
            elif 'id' in msg:
                inst.replies[msg['id']] = msg

    def qmp(self, inst, execute=None, arguments=None, raw=None, timeout=60):
        """One QMP command on @inst; its response (an {"error"} when QEMU
        never answers)."""
        cmd = dict(raw) if raw is not None else {'execute': execute}
        if arguments is not None:
            cmd['arguments'] = arguments
        self.next_id += 1
        my_id = 'hsagpu-%d' % self.next_id
        guest_id = cmd.pop('id', None)
        cmd['id'] = my_id
        if not inst.qmp:
            return {'error': {'class': 'GenericError', 'desc': 'no QMP connection'}}
        try:
            inst.qmp.sendall(json.dumps(cmd).encode() + b'\n')
        except OSError as e:
            return {'error': {'class': 'GenericError', 'desc': 'QMP send: %s' % e}}
        deadline = time.time() + timeout
        while my_id not in inst.replies:
            if time.time() > deadline or not inst.qmp:
                return {'error': {'class': 'GenericError',
                                  'desc': 'no QMP response to %s' % cmd.get('execute')}}
            self.pump(0.05)
        resp = inst.replies.pop(my_id)
        resp.pop('id', None)
        if guest_id is not None:
            resp['id'] = guest_id
        return resp

    # -- guest requests -----------------------------------------------------

    def handle(self, line):
        t0 = time.time()
        m = re.match(r'(#\S+ )?(.*)$', line)
        tag, req = m.group(1) or '', m.group(2).strip()
        word, _, rest = req.partition(' ')
        word = word.upper()
        if word == 'PING':
            reply = {'return': 'pong'}
        elif word == 'QMP':
            try:
                cmd = json.loads(rest)
                if not isinstance(cmd, dict):
                    raise ValueError('not a JSON object')
            except ValueError as e:
                reply = {'error': {'class': 'GenericError', 'desc': 'bad JSON: %s' % e}}
            else:
                reply = self.qmp(self.current, raw=cmd)
                args = cmd.get('arguments') or {}
                key = (args.get('path'), args.get('property'))
                if (cmd.get('execute') == 'qom-set' and 'return' in reply and
                        key not in self.guest_qom):
                    self.guest_qom.append(key)
                self._device_added(cmd, reply)
        elif word == 'MIGRATE':
            reply = self.migrate('guest request')
        elif word == 'EVENT':
            reply = self.wait_event(rest.split())
        elif word == 'DEVARGS':
            reply = self.device_args(rest.strip())
        else:
            reply = {'error': {'class': 'GenericError',
                               'desc': 'unknown request %r (PING, QMP, MIGRATE, EVENT, DEVARGS)'
                                       % word}}
        out = json.dumps(reply)
        self.note('guest: %s -> %s (%.0f ms)' % (req[:300], out[:300],
                                                  (time.time() - t0) * 1000))
        if self.current.host:
            try:
                self.current.host.sendall((tag + out + '\n').encode())
                self.last_reply = time.time()
            except OSError as e:
                self.note('reply lost: %s' % e)

    def device_args(self, dev_id):
        """The -device option of @dev_id: the one it was last plugged with,
        or the command line's (also after the guest unplugged it)."""
        for i, opt in reversed(self.plugged):
            if i == dev_id:
                return {'return': opt}
        for w, val in zip(self.base_cmd, self.base_cmd[1:]):
            if w == '-device' and _opt_id(val) == dev_id:
                return {'return': val}
        return {'error': {'class': 'DeviceNotFound',
                          'desc': 'no -device with id=%s on the command line' % dev_id}}

    def _device_deleted(self, dev_id):
        self.plugged = [p for p in self.plugged if p[0] != dev_id]
        self.unplugged.add(dev_id)

    def _device_added(self, cmd, reply):
        """Note a successful device_add (QMP, or HMP through QMP)."""
        ex, args = cmd.get('execute'), cmd.get('arguments') or {}
        opt = None
        if ex == 'device_add' and 'return' in reply:
            words = [str(args.get('driver'))]
            for k, v in args.items():
                if k != 'driver':
                    v = ('on' if v else 'off') if isinstance(v, bool) else str(v)
                    words.append('%s=%s' % (k, v.replace(',', ',,')))
            opt = ','.join(words)
        elif (ex == 'human-monitor-command' and reply.get('return') == '' and
              str(args.get('command-line', '')).startswith('device_add ')):
            opt = args['command-line'][len('device_add '):].strip()
        if opt:
            dev_id = _opt_id(opt)
            self.plugged = [p for p in self.plugged if p[0] != dev_id or dev_id is None]
            self.plugged.append([dev_id, opt])
            self.note('plugged %s: migration destinations get -device %s' % (dev_id, opt))

    def wait_event(self, words):
        name = words[0] if words else ''
        match, timeout = {}, 30.0
        for w in words[1:]:
            k, eq, v = w.partition('=')
            if eq:
                match[k] = v
            else:
                try:
                    timeout = float(w)
                except ValueError:
                    return {'error': {'class': 'GenericError', 'desc': 'bad word %r' % w}}
        deadline = time.time() + timeout
        while True:
            for ev in self.events:
                data = ev.get('data') or {}
                if (not ev['taken'] and ev['event'] == name and
                        all(str(data.get(k)) == v for k, v in match.items())):
                    ev['taken'] = True
                    return {'return': {k: v for k, v in ev.items() if k != 'taken'}}
            if time.time() > deadline:
                return {'error': {'class': 'Timeout',
                                  'desc': 'no event %s %s within %gs' % (name, match, timeout)}}
            self.pump(0.05)

    # -- migration ----------------------------------------------------------

    def migrate(self, why):
        """Live-migrate the guest from the current QEMU to a fresh one with
        the same command line (+ -incoming); the source is quit. Returns
        the reply for the guest."""
        src = self.current
        t0 = time.time()
        path = os.path.join(self.tmp, 'mig%d' % self.nspawned)
        dst = self.spawn(incoming='unix:' + path)

        def fail(desc):
            self.note('migration %d -> %d failed: %s' % (src.n, dst.n, desc))
            self.held.discard(dst)
            self.retire(dst, how='kill')
            if src.proc.poll() is None:
                self.qmp(src, 'cont')       # the guest goes on on the source
            return {'error': {'class': 'MigrationFailed', 'desc': desc}}
        # the source's output first, then the destination's (pump())
        self.held.add(dst)
        if not self.connect(dst):
            return fail('the destination QEMU did not start: %s' % self._tail(dst))
        # no bandwidth cap (the default is 128 MiB/s): this is a local socket
        self.qmp(src, 'migrate-set-parameters', {'max-bandwidth': 8 << 30})
        r = self.qmp(src, 'migrate', {'uri': 'unix:' + path})
        if 'error' in r:
            return fail(r['error'].get('desc', str(r)))
        deadline = time.time() + 300
        while True:
            info = self.qmp(src, 'query-migrate').get('return', {})
            status = info.get('status')
            if status == 'completed':
                break
            if status in ('failed', 'cancelled') or src.proc.poll() is not None:
                return fail('%s: %s' % (status or 'source QEMU exited',
                                        info.get('error-desc', '')))
            if time.time() > deadline:
                self.qmp(src, 'migrate_cancel')
                return fail('not completed within 300 s: %s' % info)
            self.pump(0.05)
        # The destination (-S) has the state once it leaves 'inmigrate'.
        deadline = time.time() + 60
        while True:
            st = self.qmp(dst, 'query-status').get('return', {})
            if st.get('status') not in (None, 'inmigrate'):
                break
            if dst.proc.poll() is not None or time.time() > deadline:
                return fail('the destination did not load the state: %s (%s)'
                            % (self._tail(dst), st))
            self.pump(0.05)
        self.carry_guest_qom(src, dst)
        r = self.qmp(dst, 'cont')
        if 'error' in r:
            return fail('cont on the destination: %s' % r['error'].get('desc'))
        self.current = dst
        self.retire(src)
        self.held.discard(dst)
        running = False
        deadline = time.time() + 60
        while time.time() < deadline:
            st = self.qmp(dst, 'query-status').get('return', {})
            if st.get('running') or dst.proc.poll() is not None:
                running = bool(st.get('running'))
                break
            self.pump(0.05)
        if not running:
            desc = 'the destination did not resume the guest: %s' % self._tail(dst)
            self.note(desc)
            return {'error': {'class': 'MigrationFailed', 'desc': desc}}
        secs = time.time() - t0
        self.migrations.append((secs, info.get('downtime')))
        self.note('migrated %d -> %d (%s) in %.1fs, downtime %s ms'
                  % (src.n, dst.n, why, secs, info.get('downtime')))
        return {'return': {}}

    def carry_guest_qom(self, src, dst):
        """Properties the guest set with qom-set that QEMU does not migrate
        (the fault-injection counts, docs/reliability.md) keep their
        source values on the destination, so that a test's injected fault
        survives a periodic migration: whatever differs between the paused
        source and the loaded destination is set on the destination."""
        for path, prop in self.guest_qom:
            args = {'path': path, 'property': prop}
            a = self.qmp(src, 'qom-get', args)
            b = self.qmp(dst, 'qom-get', args)
            if 'return' in a and 'return' in b and a['return'] != b['return']:
                r = self.qmp(dst, 'qom-set', dict(args, value=a['return']))
                self.note('carried %s %s = %s to %d: %s' % (
                    path, prop, json.dumps(a['return']), dst.n, json.dumps(r)))

    def _tail(self, inst):
        if inst.proc.poll() is None:
            return 'still running'
        return 'exit status %s' % inst.proc.returncode

    # -- the whole boot -----------------------------------------------------

    def text(self):
        return b''.join(self.chunks).decode(errors='replace')

    def cpu_seconds(self):
        """CPU time of all QEMU processes of the boot (read every 0.5 s
        while they ran, so a little low): how much of the host it took."""
        return sum(i.cpu for i in self.all_instances)

    def timed_lines(self):
        """[(host time the line arrived, line)] of the console: what the
        harness times the boot's phases and each guest test by."""
        lines = b''.join(self.chunks).split(b'\n')
        last = self.line_times[-1] if self.line_times else time.time()
        return [(self.line_times[i] if i < len(self.line_times) else last,
                 l.decode(errors='replace').rstrip('\r'))
                for i, l in enumerate(lines)]

    def run(self, timeout, migrate_every=None):
        """Boot, serve the channel, migrate every @migrate_every seconds
        of the test run (from the init's first line to its kernel log
        dump). Returns (returncode of the last QEMU, timed_out)."""
        deadline = time.time() + timeout
        timed_out = False
        try:
            self.current = self.spawn()
            if not self.connect(self.current):
                self.problems.append('could not connect to QEMU\'s QMP/host channel sockets')
            last_migration = None
            last_cpu = 0.0
            while True:
                self.pump(0.05)
                if time.time() - last_cpu >= 0.5:
                    for inst in self.instances:
                        if inst.proc.poll() is None:
                            inst.read_cpu()
                    last_cpu = time.time()
                while self.requests:
                    self.handle(self.requests.pop(0))
                cur = self.current
                if cur.console_eof and cur.proc.poll() is not None:
                    break
                if time.time() > deadline:
                    timed_out = True
                    break
                # Periodic migrations while the tests run, with the channel
                # quiet for a second: a reply the guest has not read yet
                # when the source stops would be lost with the source's
                # socket (the UART takes 16 bytes at a time).
                if migrate_every and self.tests_running:
                    last_migration = last_migration or time.time()
                    if (time.time() - last_migration >= migrate_every and
                            time.time() - self.last_reply >= 1.0):
                        r = self.migrate('every %ss' % migrate_every)
                        last_migration = time.time()
                        if 'error' in r and self.current.proc.poll() is None:
                            self.problems.append('migration %d failed: %s' % (
                                len(self.migrations) + 1, r['error']['desc']))
                            migrate_every = None
            return self.current.proc.returncode, timed_out
        finally:
            for inst in list(self.instances):
                inst.kill()
                end = time.time() + 5
                while not inst.console_eof and time.time() < end:
                    self._console(inst)
            shutil.rmtree(self.tmp, ignore_errors=True)
