#!/bin/sh
# Debian's stock amdgpu driver on the device's Vega10 personality
# (scripts/test-boot --amdgpu, docs/amdgpu.md), under the guest's busybox:
# load amdgpu.ko and the modules it needs (/lib/modules/VERSION/amdgpu,
# in the order of its ORDER), each with its MODULE.PARAM=VALUE words of
# the kernel command line; wait for the probe (bounded); report TAP:
#
#   amdgpu-probe       amdgpu bound the PCI device, which has a card and a
#                      render node
#   amdgpu-dmesg       no kernel message from amdgpu or DRM at err level or
#                      worse, but those of the harness's allow-list
#   amdgpu-ring-tests  no ring test failed, and every ring with a fence
#                      driver passed its ring test
#   amdgpu-ib-tests    no IB test failed at the late init, and debugfs'
#                      amdgpu_test_ib runs them again and they pass, on
#                      every ring that has them (all but KIQ)
#   amdgpu-ih          amdgpu's interrupt count rose across that IB test,
#                      and no fence since the probe needed amdgpu's fallback
#                      timer (which signals a fence the interrupt did not,
#                      half a second late: "Fence fallback timer expired",
#                      amdgpu_fence.c)
#   amdkfd-rocminfo    amdkfd's /dev/kfd, and Debian's rocminfo lists the
#                      device as a gfx900 agent with its chip ID and VRAM
#   amdkfd-dispatch    Debian's ROCr on amdkfd runs kernels and copies:
#                      t-hsa-basic, t-hsa-codeobj, t-hsa-copy, t-hsa-evict
#                      (queues evicted and restored, also mid-dispatch),
#                      t-hsa-kill (a process killed mid-kernel) and
#                      (with the hardware scheduler) t-hsa-procs (more
#                      processes than VMIDs) pass, with either scheduling
#                      policy
#   amdkfd-hip         (the HIP initramfs only: scripts/test-boot --hip)
#                      Debian's HIP runtime on amdkfd: t-hip and
#                      t-hip-runtime pass, a cooperative launch with
#                      grid-wide barriers (amdkfd's GWS queue) among them
#   amdgpu-reset       debugfs amdgpu_gpu_recover twice, IB tests after each
#   amdgpu-vmfault     a process's GFX IB writes where it mapped nothing
#                      (t-amdgpu-cs fault): amdgpu's fault handler reports
#                      that page, a user VMID (the same in the IV and in the
#                      hub's fault status) and the process (by the PASID
#                      the device put in the IV); the job completes
#   amdgpu-hang        inject-queue-hang holds the GFX ring under a
#                      process's job (t-amdgpu-cs hang): amdgpu's job
#                      timeout recovers the GPU, the job fails, a new job
#                      runs, every ring's IB test passes again
#   amdkfd-hang-hws    (hardware scheduler only) amdkfd's debugfs hang_hws:
#                      the HIQ stops, amdkfd resets the GPU, a new ROCr
#                      process runs
#   amdgpu-rebind      unbind and bind through sysfs, IB tests after
#   amdgpu-reload      rmmod amdgpu and insmod again, IB tests after
#
# It always prints amdgpu's and DRM's kernel messages, the firmware
# package and the firmware versions the driver reports, so that a failing
# boot explains itself. Files the harness adds (hsagpu_harness.py,
# amdgpu_boot()): /tests/amdgpu/firmware-package ("NAME VERSION" of
# /lib/firmware/amdgpu), /tests/amdgpu/dmesg-allow (AMDGPU_DMESG_ALLOWED:
# one grep -E expression a line). Exit status 1 when a test failed.
here=/tests/amdgpu
kver=$(uname -r)
md=/lib/modules/$kver/amdgpu
# how long the probe (insmod amdgpu.ko), amdgpu's late init (its IB tests,
# AMDGPU_RESUME_MS = 2 s after the probe) and a debugfs IB test may take
probe_secs=180
late_init_secs=30
ib_secs=60
# the ROCm programs' own watchdog (60 s without progress) names the phase
# a stuck one is in and its threads' kernel stacks, before the timeouts
# here would kill it without a word (guest-tests/rocm/hsat.h)
export HSAT_WATCHDOG_MAX=60

# modparams MODULE: its PARAM=VALUE words of the kernel command line
# ('-' and '_' alike in module names)
modparams() {
    m=$(echo "$1" | tr - _)
    read -r words < /proc/cmdline
    for w in $words; do
        case $w in
        *.*=*)
            [ "$(echo "${w%%.*}" | tr - _)" = "$m" ] && echo "${w#*.}" ;;
        esac
    done
}
# wait_pid PID SECS: whether PID ended within SECS
wait_pid() {
    t=0
    while kill -0 "$1" 2>/dev/null; do
        [ "$t" -ge $(($2 * 10)) ] && return 1
        sleep 0.1
        t=$((t + 1))
    done
    return 0
}
# the kernel log's amdgpu and DRM lines: dmesg_drm [MAXLEVEL] (raw, with
# their <level>; 0-7, default 6: no debug messages; not the command line,
# which names amdgpu's parameters)
dmesg_drm() {
    dmesg -r | grep -E "^<[0-${1:-6}]>" | grep -iE 'amdgpu|drm|kfd|ttm|gpu.sched' |
        grep -v '[Cc]ommand line: '
}
# irqs: amdgpu's interrupts in /proc/interrupts, all CPUs and vectors
irqs() {
    awk '/amdgpu/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i } END { print n + 0 }' \
        /proc/interrupts
}
diag() { sed -e 's/^/# /'; }
n=0
failed=0
# hsagpu_test.amdgpu_skip=NAME[,NAME]: checks this boot leaves out (the
# harness's choice, or scripts/test-boot --amdgpu-skip; each reported as
# a SKIP that says so)
skipped=$(sed -n 's/.*hsagpu_test\.amdgpu_skip=\([^ ]*\).*/,\1,/p' /proc/cmdline)
# not_here NAME: NAME is left out of this boot (reported)
not_here() {
    case $skipped in
    *",$1,"*) result skip "$1" "left out of this boot (hsagpu_test.amdgpu_skip)"; return 0 ;;
    esac
    return 1
}
# run_programs SECS PROGRAM...: each of /tests (at most SECS), its
# output into the log; $why names those that failed, and then the
# kernel's last words on amdkfd, faults and timeouts follow
run_programs() {
    secs=$1
    shift
    why=
    for t in "$@"; do
        timeout "$secs" "/tests/$t" > "/tmp/amdkfd-$t" 2>&1
        rc=$?
        diag < "/tmp/amdkfd-$t"
        [ "$rc" -eq 0 ] || why="${why:+$why; }$t: exit status $rc"
    done
    [ -z "$why" ] || dmesg | grep -iE 'kfd|fault|timeout' | tail -n 20 | diag
}
# verdict NAME: NAME passed unless $why says why not
verdict() {
    if [ -n "$why" ]; then
        result fail "$1" "$why"
    else
        result ok "$1"
    fi
}
result() {  # result ok|fail|skip NAME [WHY]
    n=$((n + 1))
    case $1 in
    ok) echo "ok $n - $2" ;;
    skip) echo "ok $n - $2 # SKIP $3" ;;
    *) [ -z "$3" ] || echo "# $2: $3"
       echo "not ok $n - $2"
       failed=1 ;;
    esac
}

echo "TAP version 13"
echo "1..14"
echo "# amdgpu: kernel $kver; firmware $(cat "$here/firmware-package" 2>/dev/null ||
    echo 'package unknown')"
echo "# amdgpu: modules $(tr '\n' ' ' < "$md/ORDER" 2>/dev/null)"
while read -r ko; do
    p=$(modparams "${ko%.ko}" | tr '\n' ' ')
    [ -z "$p" ] || echo "# amdgpu: ${ko%.ko} parameters $p"
done < "$md/ORDER"

# the device: the first PCI function with AMD's vendor ID
dev=
for d in /sys/bus/pci/devices/*; do
    if [ "$(cat "$d/vendor")" = 0x1002 ]; then
        dev=$d
        break
    fi
done
bdf=${dev##*/}
if [ -n "$dev" ]; then
    echo "# amdgpu: device $bdf, $(cat "$dev/vendor"):$(cat "$dev/device") class $(cat "$dev/class")"
else
    echo "# amdgpu: no PCI device with vendor 0x1002"
    lspci -nn 2>/dev/null | diag
fi

# the modules, dependencies first; amdgpu.ko in the background, waited
# for up to $probe_secs (a probe that hangs is reported, not waited for)
hung=
while read -r ko; do
    name=$(echo "${ko%.ko}" | tr - _)
    grep -q "^$name " /proc/modules && continue
    if [ "$name" != amdgpu ]; then
        # shellcheck disable=SC2046 # one word per parameter
        insmod "$md/$ko" $(modparams "$name") 2>&1 | diag
        continue
    fi
    t0=$(date +%s)
    # shellcheck disable=SC2046
    insmod "$md/$ko" $(modparams amdgpu) > /tmp/amdgpu-insmod 2>&1 &
    pid=$!
    if wait_pid $pid $probe_secs; then
        wait $pid
        echo "# amdgpu: insmod amdgpu.ko: exit status $? after $(($(date +%s) - t0)) s"
    else
        hung=1
        echo "# amdgpu: insmod amdgpu.ko has not returned after $probe_secs s: the probe hangs"
    fi
    diag < /tmp/amdgpu-insmod
done < "$md/ORDER"

driver=
[ -z "$dev" ] || driver=$(basename "$(readlink "$dev/driver" 2>/dev/null)" 2>/dev/null)
card=
render=
if [ -n "$dev" ]; then
    for f in "$dev"/drm/card* "$dev"/drm/renderD*; do
        [ -e "$f" ] || continue
        f=${f##*/}
        [ -c "/dev/dri/$f" ] || continue
        case $f in card*) card=$f ;; renderD*) render=$f ;; esac
    done
fi
bound=
[ "$driver" = amdgpu ] && [ -n "$card" ] && [ -n "$render" ] && bound=1

# debugfs: amdgpu's files are in the directory of the device's primary
# minor, /sys/kernel/debug/dri/N; the rings with a fence driver, from its
# amdgpu_fence_info; those with IB tests: all but KIQ (amdgpu_ib.c), and
# on 6.12 (not 6.1) not gfx9's hardware GFX ring: its ring functions have
# no test_ib there, the software rings of MCBP have it
dbg=
rings=
ibrings=
if [ -n "$bound" ]; then
    [ -d /sys/kernel/debug/dri ] || mount -t debugfs debugfs /sys/kernel/debug
    for d in /sys/kernel/debug/dri/*; do
        if [ -f "$d/amdgpu_firmware_info" ] && grep -q "$bdf" "$d/name" 2>/dev/null; then
            dbg=$d
            break
        fi
    done
fi
if [ -n "$dbg" ]; then
    rings=$(sed -n 's/^--- ring [0-9]* (\(.*\)) ---$/\1/p' "$dbg/amdgpu_fence_info")
    ibrings=$(echo "$rings" | grep -v '^kiq')
    case "$(uname -r)" in
    6.1.*) ;;
    *) ibrings=$(echo "$ibrings" | grep -vx 'gfx') ;;
    esac
fi
# ib_tested RING: the number of "ib test on RING succeeded" in the kernel log
ib_tested() { dmesg | grep -cF "ib test on $1 succeeded"; }
# the late init's IB tests: wait (bounded) for a line of each ring's, or
# for the gfx ring's failure, which ends them
if [ -n "$bound" ]; then
    t=0
    while [ $t -lt $late_init_secs ]; do
        dmesg > /tmp/amdgpu-log
        grep -q 'ib ring test failed' /tmp/amdgpu-log && break
        left=
        for r in $ibrings; do
            grep -qF -e "ib test on $r succeeded" -e "IB test failed on $r (" /tmp/amdgpu-log ||
                left="$left $r"
        done
        [ -z "$left" ] && break
        sleep 1
        t=$((t + 1))
    done
    [ -z "$left" ] || echo "# amdgpu: after $late_init_secs s no late-init IB test line for:$left"
fi

# amdgpu-probe
echo "# amdgpu: kernel messages of amdgpu and DRM:"
dmesg_drm | diag
if [ -n "$dbg" ]; then
    echo "# amdgpu: $dbg/amdgpu_firmware_info:"
    diag < "$dbg/amdgpu_firmware_info"
fi
if [ -n "$bound" ]; then
    result ok amdgpu-probe
elif [ -z "$dev" ]; then
    result fail amdgpu-probe "no device with vendor 0x1002"
elif [ -n "$hung" ]; then
    result fail amdgpu-probe "the probe did not end in $probe_secs s"
else
    result fail amdgpu-probe "driver '${driver:-none}', card '${card:-none}', render node '${render:-none}'"
fi

# amdgpu-dmesg
dmesg_drm 3 > /tmp/amdgpu-errors
if [ -s "$here/dmesg-allow" ]; then
    grep -vE -f "$here/dmesg-allow" /tmp/amdgpu-errors > /tmp/amdgpu-errors.left
else
    cp /tmp/amdgpu-errors /tmp/amdgpu-errors.left
fi
if [ -s /tmp/amdgpu-errors.left ]; then
    echo "# amdgpu: err level or worse, not in the allow-list:"
    diag < /tmp/amdgpu-errors.left
    result fail amdgpu-dmesg "$(wc -l < /tmp/amdgpu-errors.left) messages"
else
    result ok amdgpu-dmesg
fi

# amdgpu-ring-tests: every ring with a fence driver (amdgpu_fence_info)
# said "ring test on NAME succeeded" (a debug message: drm.debug=0x1)
dmesg -r | grep -E 'ring [^ ]+ test failed|KCQ enable failed' > /tmp/amdgpu-ring-fail
if [ -s /tmp/amdgpu-ring-fail ]; then
    diag < /tmp/amdgpu-ring-fail
    result fail amdgpu-ring-tests "$(wc -l < /tmp/amdgpu-ring-fail) ring tests failed"
elif [ -z "$bound" ]; then
    result skip amdgpu-ring-tests "amdgpu did not bind"
elif [ -z "$dbg" ]; then
    result fail amdgpu-ring-tests "no amdgpu debugfs directory"
else
    dmesg > /tmp/amdgpu-log
    untested=
    for r in $rings; do
        grep -qF "ring test on $r succeeded" /tmp/amdgpu-log || untested="$untested $r"
    done
    echo "# amdgpu: rings: $(echo "$rings" | tr '\n' ' ')"
    if [ -z "$rings" ]; then
        result fail amdgpu-ring-tests "amdgpu_fence_info lists no ring"
    elif [ -n "$untested" ]; then
        result fail amdgpu-ring-tests "no 'ring test on NAME succeeded' (drm.debug=0x1?) for:$untested"
    else
        result ok amdgpu-ring-tests
    fi
fi

# amdgpu-ib-tests: the late init's, then debugfs' amdgpu_test_ib
dmesg -r | grep -E 'IB test failed on|ib ring test failed' > /tmp/amdgpu-ib-fail
before=
after=
untested=
if [ -n "$dbg" ]; then
    for r in $ibrings; do
        echo "$r $(ib_tested "$r")"
    done > /tmp/amdgpu-ib-before
    before=$(irqs)
    cat "$dbg/amdgpu_test_ib" > /tmp/amdgpu-test-ib 2>&1 &
    pid=$!
    if wait_pid $pid $ib_secs; then
        wait $pid
        ibrc=$?
    else
        ibrc="none: still running after $ib_secs s"
    fi
    after=$(irqs)
    echo "# amdgpu: $dbg/amdgpu_test_ib (exit status $ibrc):"
    diag < /tmp/amdgpu-test-ib
    echo "# amdgpu: $dbg/amdgpu_fence_info:"
    diag < "$dbg/amdgpu_fence_info"
    # the rings the debugfs run did not test (a ring whose test failed
    # before is skipped: not ready)
    while read -r r count; do
        [ "$(ib_tested "$r")" -gt "$count" ] || untested="$untested $r"
    done < /tmp/amdgpu-ib-before
fi
if [ -s /tmp/amdgpu-ib-fail ]; then
    diag < /tmp/amdgpu-ib-fail
    result fail amdgpu-ib-tests "IB tests failed"
elif [ -z "$bound" ]; then
    result skip amdgpu-ib-tests "amdgpu did not bind"
elif [ -z "$dbg" ]; then
    result fail amdgpu-ib-tests "no amdgpu debugfs directory"
elif ! grep -q 'ib ring tests passed' /tmp/amdgpu-test-ib; then
    result fail amdgpu-ib-tests "amdgpu_test_ib did not pass"
elif [ -z "$ibrings" ] || [ -n "$untested" ]; then
    result fail amdgpu-ib-tests "no 'ib test on NAME succeeded' (drm.debug=0x1?) from amdgpu_test_ib for:${untested:- any ring}"
else
    echo "# amdgpu: IB tests passed on: $(echo "$ibrings" | tr '\n' ' ')"
    result ok amdgpu-ib-tests
fi

# amdgpu-ih
if not_here amdgpu-ih; then
    :
elif [ -z "$bound" ]; then
    result skip amdgpu-ih "amdgpu did not bind"
elif [ -z "$dbg" ]; then
    result fail amdgpu-ih "no amdgpu debugfs directory"
else
    grep amdgpu /proc/interrupts | diag
    fallbacks=$(dmesg | grep -c 'Fence fallback timer expired')
    echo "# amdgpu: interrupts $before before the IB test, $after after; fence fallback" \
        "timer expirations since the probe: $fallbacks"
    dmesg | grep 'Fence fallback timer expired' | diag
    if [ "$after" -le "$before" ]; then
        result fail amdgpu-ih "no interrupt during the IB test"
    elif [ "$fallbacks" -gt 0 ]; then
        result fail amdgpu-ih "fences signalled by the fallback timer, not by interrupts"
    else
        result ok amdgpu-ih
    fi
fi

# amdkfd-rocminfo: Linux's own amdkfd (part of amdgpu.ko) came up on the
# device: /dev/kfd, and Debian's rocminfo (ROCr 5.2.3 through libhsakmt,
# no hsagpu code) lists it as a gfx900 GPU agent with its PCI device ID as
# chip ID and a first memory pool of the size of its VRAM (BAR0)
if not_here amdkfd-rocminfo; then
    :
elif [ -z "$bound" ]; then
    result skip amdkfd-rocminfo "amdgpu did not bind"
else
    why=
    if [ ! -c /dev/kfd ]; then
        why="no /dev/kfd"
    elif ! timeout 120 rocminfo > /tmp/rocminfo 2>&1; then
        why="rocminfo failed"
    else
        sed -n '/^Agent 2/,/^Agent 3/p' /tmp/rocminfo > /tmp/rocminfo.gpu
        chip=$(printf '%d' "$(cat "$dev/device")")
        vram_kb=$(($(stat -c %s "$dev/resource0") / 1024))
        grep -qE '^ +Name: +gfx900 *$' /tmp/rocminfo.gpu || why="agent 2 is not gfx900"
        grep -qE '^ +Device Type: +GPU *$' /tmp/rocminfo.gpu || why="${why:-agent 2 is not a GPU}"
        grep -qE "^ +Chip ID: +$chip\(" /tmp/rocminfo.gpu || why="${why:-chip ID is not $chip}"
        [ "$(sed -n 's/^ *Size: *\([0-9]*\)(.*/\1/p' /tmp/rocminfo.gpu | head -n 1)" = "$vram_kb" ] ||
            why="${why:-the first pool is not the ${vram_kb} KB of VRAM}"
    fi
    grep -E '^ +(Name|Marketing Name|Device Type|Chip ID|Compute Unit|Size):' /tmp/rocminfo.gpu 2>/dev/null | diag
    [ -z "$why" ] || tail -n 20 /tmp/rocminfo 2>/dev/null | diag
    verdict amdkfd-rocminfo
fi

# amdkfd-dispatch: Debian's ROCr on amdkfd runs GPU work: the guest's ROCm
# programs t-hsa-basic (queues, built-in kernels, blocked and active
# signal waits, whose interrupts come through amdkfd's events),
# t-hsa-codeobj (code objects compiled by clang, dispatched through ROCr
# and checked item by item), t-hsa-copy (ROCr's copies on amdkfd's SDMA
# queues and on its blit kernels), t-hsa-evict (the process's queues
# evicted by amdkfd under it and restored: its next kernel runs),
# t-hsa-kill (a process killed mid-kernel: amdkfd removes its queues, a
# new process runs), t-hsa-procs (with the hardware scheduler only: 9
# processes with queues at once, one more than amdkfd has VMIDs for: the
# scheduler gives them turns). Skipped where the initramfs has
# no ROCm programs (built only where Debian's ROCr is installed). No VM
# fault may appear in amdgpu's log meanwhile.
if not_here amdkfd-dispatch; then
    :
elif [ -z "$bound" ]; then
    result skip amdkfd-dispatch "amdgpu did not bind"
elif [ ! -x /tests/t-hsa-basic ] || [ ! -x /tests/t-hsa-codeobj ] ||
     [ ! -x /tests/t-hsa-copy ] || [ ! -x /tests/t-hsa-evict ] ||
     [ ! -x /tests/t-hsa-kill ] || [ ! -x /tests/t-hsa-procs ]; then
    result skip amdkfd-dispatch "no ROCm programs in the initramfs"
else
    # 0: the hardware scheduler (the HIQ's runlist), 2: amdkfd loads the
    # queues into the HQD registers itself
    echo "amdgpu.sched_policy=$(cat /sys/module/amdgpu/parameters/sched_policy)" | diag
    export HSAT_PROCS=9
    # more processes than VMIDs is the scheduler's to time-slice; without
    # it amdkfd refuses their queues itself, nothing of the device's
    procs='t-hsa-procs'
    [ "$(cat /sys/module/amdgpu/parameters/sched_policy)" != 2 ] || procs=
    faults=$(dmesg | grep -c 'page fault')
    # shellcheck disable=SC2086 # $procs: one word or none
    run_programs 120 t-hsa-basic t-hsa-codeobj t-hsa-copy t-hsa-evict \
        t-hsa-kill $procs
    # none of them touches memory it has not mapped: the device must not
    # either (a queue drained in the kernel's VMID 0 did, until fixed)
    faults=$(($(dmesg | grep -c 'page fault') - faults))
    [ "$faults" -eq 0 ] ||
        why="${why:+$why; }$faults VM faults in amdgpu's log during the programs"
    verdict amdkfd-dispatch
fi

# amdkfd-hip: Debian's HIP runtime on amdkfd runs the HIP programs of
# the facade's HIP boot with the same assertions (t-hip: kernels,
# streams, events, copies; t-hip-runtime: what the runtime asks beyond,
# device printf and malloc, clocks, and under the hardware scheduler a
# cooperative launch whose workgroups meet at grid barriers through the
# GWS queue amdkfd gives the process). Skipped outside the HIP
# initramfs, which alone carries the runtime.
if not_here amdkfd-hip; then
    :
elif [ -z "$bound" ]; then
    result skip amdkfd-hip "amdgpu did not bind"
elif [ ! -x /tests/t-hip ] || [ ! -x /tests/t-hip-runtime ]; then
    result skip amdkfd-hip "no HIP programs in the initramfs (--hip)"
else
    run_programs 300 t-hip t-hip-runtime
    verdict amdkfd-hip
fi

# amdgpu-reset: the GPU reset through amdgpu's own recovery (debugfs
# amdgpu_gpu_recover), twice, and the IB tests after each: the recovery
# says "GPU reset(N) succeeded" and every ring runs an IB again
if not_here amdgpu-reset; then
    :
elif [ -z "$bound" ]; then
    result skip amdgpu-reset "amdgpu did not bind"
elif [ -z "$dbg" ] || [ ! -e "$dbg/amdgpu_gpu_recover" ]; then
    result fail amdgpu-reset "no amdgpu_gpu_recover in debugfs"
else
    why=
    # (k, not n: n numbers the TAP lines)
    for k in 1 2; do
        cat "$dbg/amdgpu_gpu_recover" > /tmp/amdgpu-recover 2>&1
        if ! dmesg | grep -q "GPU reset($k) succeeded"; then
            why="reset $k did not succeed"
            break
        fi
        cat "$dbg/amdgpu_test_ib" > /tmp/amdgpu-test-ib 2>&1
        if ! grep -q 'ib ring tests passed' /tmp/amdgpu-test-ib; then
            diag < /tmp/amdgpu-test-ib
            why="the IB tests after reset $k failed"
            break
        fi
    done
    dmesg | grep -E 'GPU reset|asic|VRAM is lost' | diag
    verdict amdgpu-reset
fi

# new_dmesg FROM: the kernel log's lines after the first FROM
new_dmesg() { dmesg | tail -n +$(($1 + 1)); }
# run_cs CASE: t-amdgpu-cs CASE on the render node, its output in
# /tmp/amdgpu-cs (printed); sets rc, and from (the kernel log's length
# before it)
run_cs() {
    from=$(dmesg | wc -l)
    /tests/t-amdgpu-cs "$1" "/dev/dri/$render" > /tmp/amdgpu-cs 2>&1
    rc=$?
    diag < /tmp/amdgpu-cs
}
# test_ib_now: debugfs amdgpu_test_ib of the device's current amdgpu
# instance passes (a new instance after a bind or reload)
test_ib_now() {
    for d in /sys/kernel/debug/dri/*; do
        if [ -f "$d/amdgpu_test_ib" ] && grep -q "$bdf" "$d/name" 2>/dev/null; then
            dbg=$d
        fi
    done
    cat "$dbg/amdgpu_test_ib" > /tmp/amdgpu-test-ib 2>&1
    grep -q 'ib ring tests passed' /tmp/amdgpu-test-ib
}

# amdgpu-vmfault: the device's VM fault as amdgpu reports it
# (gmc_v9_0_process_interrupt): "[gfxhub0] no-retry page fault (src_id:0
# ring:R vmid:V pasid:P)", " for process NAME pid PID thread ...", "  in
# page starting at address 0x... from IH client 0x1b (UTCL2)", and
# VM_L2_PROTECTION_FAULT_STATUS, whose VMID field is [23:20]
if not_here amdgpu-vmfault; then
    :
elif [ -z "$bound" ]; then
    result skip amdgpu-vmfault "amdgpu did not bind"
else
    run_cs fault
    new_dmesg "$from" > /tmp/amdgpu-fault
    diag < /tmp/amdgpu-fault
    va=$(sed -n 's/^fault-va //p' /tmp/amdgpu-cs)
    pid=$(sed -n 's/^pid //p' /tmp/amdgpu-cs)
    iv=$(sed -n 's/.*\[gfxhub0\] no-retry page fault (src_id:0 ring:[0-9]* vmid:\([0-9]*\) pasid:\([0-9]*\)[,)].*/\1 \2/p' \
        /tmp/amdgpu-fault | head -n 1)
    vmid=${iv% *}
    pasid=${iv#* }
    status=$(sed -n 's/.*VM_L2_PROTECTION_FAULT_STATUS:0x\([0-9A-Fa-f]*\).*/\1/p' /tmp/amdgpu-fault |
        head -n 1)
    why=
    if [ "$rc" -ne 0 ]; then
        why="t-amdgpu-cs fault: exit status $rc"
    elif [ -z "$iv" ]; then
        why="no gfxhub0 no-retry page fault reported"
    elif [ "$vmid" -lt 1 ] || [ "$vmid" -gt 15 ] || [ "$pasid" -eq 0 ]; then
        why="the fault's VMID $vmid or PASID $pasid is not a process's"
    elif ! grep -qF " for process t-amdgpu-cs pid $pid " /tmp/amdgpu-fault; then
        why="the fault was not traced to t-amdgpu-cs, pid $pid (its PASID)"
    elif ! grep -qF "in page starting at address $va from IH client 0x1b" /tmp/amdgpu-fault; then
        why="no fault reported at $va from the UTCL2"
    elif [ -z "$status" ]; then
        why="no VM_L2_PROTECTION_FAULT_STATUS reported"
    elif [ $(((0x$status >> 20) & 15)) -ne "$vmid" ]; then
        # the hub keeps the first fault until the driver clears it: with
        # MORE_FAULTS set the status is an earlier fault's, whose VMID it
        # names; without, it must be this one's
        if [ $((0x$status & 1)) -eq 0 ]; then
            why="VM_L2_PROTECTION_FAULT_STATUS 0x$status does not name VMID $vmid"
        else
            echo "# amdgpu: the hub's status 0x$status is an earlier fault's (MORE_FAULTS)"
        fi
    fi
    if [ -n "$why" ]; then
        result fail amdgpu-vmfault "$why"
    else
        echo "# amdgpu: the fault at $va: VMID $vmid, PASID $pasid, pid $pid, status 0x$status"
        result ok amdgpu-vmfault
    fi
fi

# amdgpu-hang: a hang injected on the GFX ring under a job; amdgpu's own
# timeout ("ring gfx... timeout") and recovery ("GPU reset(N) succeeded")
if not_here amdgpu-hang; then
    :
elif [ -z "$bound" ]; then
    result skip amdgpu-hang "amdgpu did not bind"
else
    run_cs hang
    new_dmesg "$from" | grep -E 'timeout|GPU reset|reset begin|ring .* test|VRAM' | diag
    why=
    if [ "$rc" -eq 77 ]; then
        result skip amdgpu-hang "$(sed -n 's/^# SKIP: //p' /tmp/amdgpu-cs)"
    else
        if [ "$rc" -ne 0 ]; then
            why="t-amdgpu-cs hang: exit status $rc"
        elif ! new_dmesg "$from" | grep -qE 'ring gfx[^ ]* timeout'; then
            why="no GFX ring timeout reported by amdgpu"
        elif ! new_dmesg "$from" | grep -qE 'GPU reset\([0-9]+\) succeeded'; then
            why="no successful GPU reset after the timeout"
        elif ! test_ib_now; then
            diag < /tmp/amdgpu-test-ib
            why="the IB tests after the recovery failed"
        fi
        if [ -n "$why" ]; then
            result fail amdgpu-hang "$why"
        else
            result ok amdgpu-hang
        fi
    fi
fi

# amdkfd-hang-hws: amdkfd's own test of a hung hardware scheduler (its
# debugfs hang_hws writes garbage to the HIQ, sched_policy 0 only): the
# device's HIQ stops on it, amdkfd finds its next preemption unanswered,
# resets the GPU, and a new ROCr process runs (t-hsa-basic)
if not_here amdkfd-hang-hws; then
    :
elif [ -z "$bound" ]; then
    result skip amdkfd-hang-hws "amdgpu did not bind"
elif [ "$(cat /sys/module/amdgpu/parameters/sched_policy 2>/dev/null)" = 2 ]; then
    result skip amdkfd-hang-hws "no hardware scheduler (amdgpu.sched_policy=2)"
elif [ ! -e /sys/kernel/debug/kfd/hang_hws ] || [ ! -x /tests/t-hsa-basic ]; then
    result skip amdkfd-hang-hws "no kfd/hang_hws in debugfs, or no ROCm programs"
else
    why=
    from=$(dmesg | wc -l)
    resets=$(dmesg | grep -c "GPU reset(.*) succeeded")
    gpu_id=$(cat /sys/class/kfd/kfd/topology/nodes/1/gpu_id 2>/dev/null)
    echo "$gpu_id" > /sys/kernel/debug/kfd/hang_hws 2>/tmp/hang-hws ||
        why="writing gpu_id $gpu_id to hang_hws failed: $(cat /tmp/hang-hws)"
    # amdkfd waits queue_preemption_timeout_ms (9 s) for the fence
    i=0
    while [ -z "$why" ] && [ $i -lt 60 ] &&
          [ "$(dmesg | grep -c "GPU reset(.*) succeeded")" -le "$resets" ]; do
        sleep 1
        i=$((i + 1))
    done
    # amdgpu says "succeeded" before it hands the device back to amdkfd
    # (amdgpu_amdkfd_post_reset): until then amdkfd is locked and
    # refuses to open /dev/kfd, and a ROCr starting then fails hsa_init with
    # OUT_OF_RESOURCES, on a real GPU as here. What a user's script does:
    # wait until it opens
    i=0
    while [ -z "$why" ] && [ $i -lt 300 ] && ! (exec 3< /dev/kfd) 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
    new_dmesg "$from" | grep -E 'HWS|preemption|GPU reset|VRAM|kfd' | diag
    if [ -n "$why" ]; then
        :
    elif ! new_dmesg "$from" | grep -q 'unsuccessful queues preemption'; then
        why="amdkfd did not find the scheduler hung"
    elif [ "$(dmesg | grep -c "GPU reset(.*) succeeded")" -le "$resets" ]; then
        why="no GPU reset succeeded within 60 s"
    elif ! timeout 120 /tests/t-hsa-basic > /tmp/amdkfd-hws-after 2>&1; then
        diag < /tmp/amdkfd-hws-after
        why="t-hsa-basic failed after the reset"
    fi
    verdict amdkfd-hang-hws
fi

# amdgpu-rebind: the driver unbound from the device and bound again
# (sysfs), as a developer reloading it does: the new instance probes the
# device as left by the old one, and runs every ring's IB test
if not_here amdgpu-rebind; then
    :
elif [ -z "$bound" ]; then
    result skip amdgpu-rebind "amdgpu did not bind"
else
    why=
    echo "$bdf" > /sys/bus/pci/drivers/amdgpu/unbind 2>/tmp/amdgpu-rebind ||
        why="unbind failed: $(cat /tmp/amdgpu-rebind)"
    if [ -z "$why" ]; then
        echo "$bdf" > /sys/bus/pci/drivers/amdgpu/bind 2>/tmp/amdgpu-rebind ||
            why="bind failed: $(cat /tmp/amdgpu-rebind)"
    fi
    dbg2=
    for d in /sys/kernel/debug/dri/*; do
        if [ -f "$d/amdgpu_test_ib" ] && grep -q "$bdf" "$d/name" 2>/dev/null; then
            dbg2=$d
        fi
    done
    if [ -z "$why" ] && [ -z "$dbg2" ]; then
        why="no amdgpu debugfs directory after the bind"
    fi
    if [ -z "$why" ]; then
        cat "$dbg2/amdgpu_test_ib" > /tmp/amdgpu-test-ib 2>&1
        grep -q 'ib ring tests passed' /tmp/amdgpu-test-ib ||
            why="the IB tests after the bind failed"
    fi
    [ -z "$why" ] || dmesg | tail -n 30 | diag
    verdict amdgpu-rebind
fi

# amdgpu-reload: the module removed and loaded again, as a developer
# trying a new build does: amdgpu's exit tears every block down, the new
# module probes the device as the old one left it
if not_here amdgpu-reload; then
    :
elif [ -z "$bound" ]; then
    result skip amdgpu-reload "amdgpu did not bind"
else
    why=
    # each GPU reset above left a device coredump (amdgpu_coredump), which
    # holds a reference to the module until it is read or dismissed (or
    # for 5 minutes): dismissed, as a developer does before an rmmod (not
    # read: 6.12's amdgpu_devcoredump_read dereferences NULL reading the
    # dump of a reset without a job, debugfs amdgpu_gpu_recover's)
    for d in /sys/class/devcoredump/devcd*; do
        [ -e "$d/data" ] || continue
        echo "# amdgpu: $(grep PCI_SLOT_NAME "$d/failing_device/uevent" 2>/dev/null) coredump $d dismissed"
        echo 1 > "$d/data"
    done
    rmmod amdgpu > /tmp/amdgpu-rmmod 2>&1 || why="rmmod amdgpu failed: $(cat /tmp/amdgpu-rmmod)"
    if [ -z "$why" ] && [ -e "$dev/driver" ]; then
        why="the device is still bound after rmmod"
    fi
    if [ -z "$why" ]; then
        # shellcheck disable=SC2046 # one word per parameter
        insmod "$md/amdgpu.ko" $(modparams amdgpu) \
            > /tmp/amdgpu-insmod 2>&1 &
        pid=$!
        if ! wait_pid $pid $probe_secs; then
            why="insmod after rmmod has not returned after $probe_secs s"
        elif ! wait $pid; then
            why="insmod after rmmod failed: $(cat /tmp/amdgpu-insmod)"
        elif [ "$(basename "$(readlink "$dev/driver" 2>/dev/null)" 2>/dev/null)" != amdgpu ]; then
            why="the reloaded amdgpu did not bind the device"
        else
            test_ib_now || why="the IB tests after the reload failed"
        fi
    fi
    [ -z "$why" ] || dmesg | tail -n 30 | diag
    verdict amdgpu-reload
fi

# A kernel oops in amdgpu (taint D) can leave the device locked by the
# insmod it killed: the init's power-off would wait for that lock in
# device_shutdown() for ever. Once the init is in its power-off and still
# there after 5 s, reboot without shutting devices down (QEMU runs with
# -no-reboot: it exits).
if [ $(($(cat /proc/sys/kernel/tainted) & 128)) -ne 0 ]; then
    echo "# amdgpu: the kernel oopsed: a power-off that hangs becomes a reboot"
    # shellcheck disable=SC2016 # for the inner shell
    setsid sh -c 'until pidof poweroff > /dev/null; do sleep 1; done; sleep 5
                  echo b > /proc/sysrq-trigger' < /dev/null > /dev/null 2>&1 &
fi
exit $failed
