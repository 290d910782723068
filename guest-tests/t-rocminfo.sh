#!/bin/sh
# Debian's unmodified rocminfo (ROCm 5.2.3) on the KFD facade: it finds the
# module ("ROCk module is loaded"), lists a CPU agent and exactly one GPU
# agent per hsa-gpu bound to hsagpu, each a gfx900 whose PCI location
# (BDFID), compute units and VRAM pool are the device's own: read here
# from the device's sysfs (vram_size) and its expansion ROM
# (compute_units, 0 on an older device = 8), not from the KFD topology.
fail=0
bad() { echo "# FAIL: $*"; fail=1; }

[ -c /dev/kfd ] || { echo "# FAIL: no /dev/kfd (boot with hsagpu_test.kfd=1, scripts/test-boot --kfd)"; exit 1; }

# rocminfo colours its lines: drop the escape sequences
rocminfo > /tmp/rocminfo.raw 2>&1
rc=$?
sed 's/\x1b\[[0-9;]*m//g' /tmp/rocminfo.raw > /tmp/rocminfo.out
sed 's/^/#   /' /tmp/rocminfo.out
[ "$rc" = 0 ] || bad "rocminfo exited with status $rc"
grep -q 'ROCk module is loaded' /tmp/rocminfo.out || bad "rocminfo did not find the module (lsmod | grep amdgpu)"

# one line per agent: TYPE NAME CU BDFID COARSE_POOL_KB ISA
awk '
function flush() { if (n) print type, name, cu, bdf, pool, isa }
/^Agent [0-9]+/ { flush(); n++; type = name = cu = bdf = pool = isa = "-"; inpool = coarse = 0; next }
!n { next }
/^  Name:/ && name == "-" { name = $2 }
/^  Device Type:/ { type = $3 }
/^  Compute Unit:/ { cu = $3 }
/^  BDFID:/ { bdf = $2 }
/^  Pool Info:/ { inpool = 1 }
/^  ISA Info:/ { inpool = 0 }
inpool && /Segment:.*GLOBAL.*COARSE GRAINED/ && pool == "-" { coarse = 1; next }
coarse && /Size:/ { v = $2; sub(/[^0-9].*/, "", v); pool = v; coarse = 0 }
/^ +Name: +amdgcn-/ && isa == "-" { isa = $2 }
END { flush() }' /tmp/rocminfo.out > /tmp/agents
echo "# agents (type name cu bdfid coarse-pool-KB isa):"
sed 's/^/#   /' /tmp/agents

grep -q '^CPU ' /tmp/agents || bad "no CPU agent"
ngpu=$(grep -c '^GPU ' /tmp/agents)

le() {  # le FILE OFFSET BYTES: little-endian unsigned integer
    od -An -tu"$3" -j "$2" -N "$3" "$1" | tr -d ' '
}
ndev=0
for d in /sys/bus/pci/devices/*; do
    [ "$(cat "$d/vendor")" = 0x1b36 ] && [ "$(cat "$d/device")" = 0x00f0 ] || continue
    [ "$(basename "$(readlink "$d/driver" 2>/dev/null)")" = hsagpu ] || continue
    ndev=$((ndev + 1))
    bdf=$(basename "$d")                   # 0000:01:00.0
    bus=$((0x$(echo "$bdf" | cut -d: -f2)))
    slot=$((0x$(echo "$bdf" | cut -d: -f3 | cut -d. -f1)))
    fn=$(echo "$bdf" | cut -d. -f2)
    bdfid=$(( (bus << 8) | (slot << 3) | fn ))
    vram_kb=$(( $(cat "$d/hsagpu/vram_size") / 1024 ))
    echo 1 > "$d/rom"
    cat "$d/rom" > /tmp/rom.bin
    echo 0 > "$d/rom"
    info=$(le /tmp/rom.bin 28 2)
    # struct hsagpu_rom_info: compute_units (was reserved0) at byte 44
    cu=$(le /tmp/rom.bin $((info + 44)) 4)
    [ "$cu" != 0 ] || cu=8
    echo "# device $bdf: BDFID $bdfid, $cu compute units, VRAM $vram_kb KB"
    line=$(grep "^GPU [^ ]* [^ ]* $bdfid " /tmp/agents)
    if [ -z "$line" ]; then
        bad "$bdf: no GPU agent with BDFID $bdfid"
        continue
    fi
    [ "$(echo "$line" | wc -l)" = 1 ] || bad "$bdf: more than one GPU agent with BDFID $bdfid"
    set -- $line
    [ "$2" = gfx900 ] || bad "$bdf: agent name '$2', not gfx900"
    [ "$3" = "$cu" ] || bad "$bdf: agent has $3 compute units, the device $cu"
    [ "$5" = "$vram_kb" ] || bad "$bdf: coarse-grained pool $5 KB, VRAM $vram_kb KB"
    case $6 in  # a target ID may follow (gfx900:xnack-)
    amdgcn-amd-amdhsa--gfx900|amdgcn-amd-amdhsa--gfx900:*) ;;
    *) bad "$bdf: ISA '$6', not amdgcn-amd-amdhsa--gfx900" ;;
    esac
done
[ "$ndev" -gt 0 ] || bad "no hsa-gpu bound to hsagpu"
[ "$ngpu" = "$ndev" ] || bad "$ngpu GPU agents for $ndev devices"
exit $fail
