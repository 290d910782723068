#!/bin/sh
# Debian trixie's ROCm user space on Linux's own amdkfd (scripts/test-boot
# --amdgpu --trixie, scripts/test's boot-amdgpu-trixie; docs/rocm.md),
# under the guest's busybox, after guest-tests/amdgpu.sh has loaded
# amdgpu: the trixie image (scripts/build-trixie-rocm: trixie's rocminfo,
# ROCr, libhsakmt, HIP, rocBLAS and their libc) is a read-only virtio
# disk; this script loads the modules that read it
# (/lib/modules/VERSION/trixie, in the order of its ORDER: virtio_blk,
# ext4 and what it needs), mounts it, binds /dev, /proc and /sys into it
# and runs each test chrooted there. TAP:
#
#   trixie-mount    the disk is there, mounts, is trixie's (its libc),
#                   and /dev/kfd and a render node are visible inside
#   trixie-rocminfo trixie's rocminfo runs and lists a gfx900 GPU agent
#   trixie-hip      t-trixie-hip (HIP built by bookworm's hipcc, on
#                   trixie's HIP 5.7 runtime) passes
#   trixie-sgemm    t-trixie-sgemm (trixie's rocBLAS: a 128^3 SGEMM
#                   checked element by element against the CPU, then
#                   three timed 256^3 ones, the first checked too: the
#                   BENCH lines scripts/bench --sgemm reads) passes
#
# Each program's output is printed as TAP diagnostics ("# "), with the
# seconds it took. Exit status 1 when a test failed.
kver=$(uname -r)
md=/lib/modules/$kver/trixie
mnt=/mnt/trixie
disk=/dev/vda
n=0
failed=0
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
# secs: seconds since boot, to the hundredth
secs() { cut -d' ' -f1 /proc/uptime; }
# chrun NAME TIMEOUT PROGRAM...: PROGRAM chrooted in the image, its
# output as diagnostics; sets rc (124/143: timed out) and took (seconds)
chrun() {
    name=$1 limit=$2
    shift 2
    t0=$(secs)
    timeout "$limit" chroot "$mnt" env -i PATH=/usr/bin:/usr/sbin HOME=/tmp "$@" \
        > "/tmp/$name.out" 2>&1 < /dev/null
    rc=$?
    took=$(awk -v a="$t0" -v b="$(secs)" 'BEGIN { printf "%.2f", b - a }')
    sed -e 's/^#* \{0,1\}/# /' "/tmp/$name.out"
    echo "# $name: exit status $rc after $took s"
}

# timed_out: what a timeout ($rc 124 or 143) most likely was
timed_out() {
    case $rc in
    124|143) echo " (timed out: a kernel whose queue the device failed leaves the" \
                  "program waiting; the boot testcase names the device's queue error," \
                  "from QEMU's guest-error log)" ;;
    esac
}

echo "TAP version 13"
echo "1..4"

# 1. the disk, its file system, the chroot
why=
echo "# trixie: modules $(tr '\n' ' ' < "$md/ORDER" 2>/dev/null)"
if [ ! -f "$md/ORDER" ]; then
    why="no $md/ORDER in the initramfs (the harness's trixie_boot() adds it)"
else
    while read -r ko; do
        grep -q "^$(echo "${ko%.ko}" | tr - _) " /proc/modules && continue
        insmod "$md/$ko" || why="insmod $ko failed"
    done < "$md/ORDER"
fi
i=0
while [ -z "$why" ] && [ ! -b "$disk" ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
if [ -z "$why" ] && [ ! -b "$disk" ]; then
    why="no $disk after 10 s: no virtio disk (-drive of the trixie image)"
fi
if [ -z "$why" ]; then
    mkdir -p "$mnt"
    mount -t ext4 -o ro "$disk" "$mnt" || why="mount -t ext4 -o ro $disk failed"
fi
if [ -z "$why" ]; then
    for d in dev proc sys; do
        mount --bind "/$d" "$mnt/$d" || why="mount --bind /$d failed"
    done
    # libhsakmt's shm_open(), and a writable /tmp
    mkdir -p /dev/shm
    mount -t tmpfs tmpfs "$mnt/dev/shm" || why="no tmpfs on /dev/shm"
    mount -t tmpfs tmpfs "$mnt/tmp" || why="no tmpfs on /tmp"
fi
if [ -z "$why" ]; then
    grep -E '^(libc6|rocminfo|libhsa-runtime64-1|libhsakmt1|libamdhip64-5|librocblas0) ' \
        "$mnt/PACKAGES" | sed -e 's/^/# trixie: package /'
    v=$(sed -n 's/^libc6 //p' "$mnt/PACKAGES")
    case $v in
    2.4[1-9]*|2.[5-9]*|2.3[89]*) ;;
    *) why="the image's libc6 is '$v', not trixie's (>= 2.38)" ;;
    esac
    [ -c "$mnt/dev/kfd" ] || why="${why:+$why; }no /dev/kfd in the chroot (amdkfd did not come up?)"
    ls "$mnt"/dev/dri/renderD* > /dev/null 2>&1 ||
        why="${why:+$why; }no render node in the chroot's /dev/dri"
fi
if [ -n "$why" ]; then
    result fail trixie-mount "$why"
    for t in trixie-rocminfo trixie-hip trixie-sgemm; do
        result fail "$t" "the trixie image is not mounted (trixie-mount)"
    done
    exit 1
fi
result ok trixie-mount

# 2. rocminfo: a gfx900 GPU agent
chrun rocminfo 60 /usr/bin/rocminfo
why=
[ "$rc" = 0 ] || why="rocminfo exited with $rc"
grep -qE '^ *Name: *gfx900 *$' /tmp/rocminfo.out || why="${why:+$why; }no gfx900 agent listed"
grep -qE '^ *Device Type: *GPU *$' /tmp/rocminfo.out || why="${why:+$why; }no GPU agent listed"
if [ -n "$why" ]; then result fail trixie-rocminfo "$why"; else result ok trixie-rocminfo; fi

# 3. HIP
chrun hip 120 /tests/trixie/t-trixie-hip
if [ "$rc" = 0 ]; then result ok trixie-hip
else result fail trixie-hip "t-trixie-hip exited with $rc$(timed_out)"; fi

# 4. rocBLAS SGEMM
chrun sgemm 240 /tests/trixie/t-trixie-sgemm --bench 3
if [ "$rc" = 0 ]; then result ok trixie-sgemm
else result fail trixie-sgemm "t-trixie-sgemm exited with $rc$(timed_out)"; fi

# the kernel messages of amdgpu and amdkfd since the tests began (queue
# errors, faults), for a failing run to explain itself
[ "$failed" = 0 ] || dmesg | grep -iE "amdgpu|kfd" | tail -n 30 | sed -e "s/^/# dmesg: /"
for d in tmp dev/shm dev proc sys; do umount "$mnt/$d" 2>/dev/null; done
umount "$mnt" 2>/dev/null
exit $failed
