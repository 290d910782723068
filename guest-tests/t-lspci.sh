#!/bin/sh
# lspci -vvv in the guest decodes the device with exactly the intended
# layout: BAR sizes and flags, 128K ROM, capabilities, AtomicOp completer
# bits, MSI-X, AER, DSN, and our driver in use.
fail=0
param() { sed -n "s/.*hsagpu_test\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
nth() { echo "$1" | cut -d, -f"$2"; }
human() {  # bytes or K/M/G suffix -> lspci's size notation
    case "$1" in
    *K|*M|*G) echo "$1" ;;
    *) awk -v b="$1" 'BEGIN { s="KMGT"; b/=1024; i=1; while (b >= 1024 && b % 1024 == 0) { b/=1024; i++ } printf "%d%s\n", b, substr(s,i,1) }' ;;
    esac
}
# Checks are queued per device and run by one awk over its lspci output
# (a grep per check was ~20 processes per device: seconds under TCG).
# Regexes are EREs, as grep -E takes them.
expect() {  # dev description regex: some line matches
    printf 'expect\t%s\t%s\n' "$2" "$3" >> "/tmp/lspci-checks.$1"
}
reject() {  # dev description regex: no line matches
    printf 'reject\t%s\t%s\n' "$2" "$3" >> "/tmp/lspci-checks.$1"
}
verdict() {  # dev: run its checks
    awk -F'\t' -v dev="$1" '
        FNR == NR { kind[NR] = $1; desc[NR] = $2; re[NR] = $3; n = NR; next }
        { for (i = 1; i <= n; i++) if ($0 ~ re[i]) hit[i] = 1 }
        END {
            bad = 0
            for (i = 1; i <= n; i++) {
                if (kind[i] == "expect" && hit[i]) {
                    print "# ok: " desc[i]
                } else if (kind[i] == "expect") {
                    print "# FAIL " dev ": " desc[i] " (no line matching: " re[i] ")"; bad = 1
                } else if (hit[i]) {
                    print "# FAIL " dev ": " desc[i] " (unexpected line matching: " re[i] ")"; bad = 1
                }
            }
            exit bad
        }' "/tmp/lspci-checks.$1" "/tmp/lspci.$1" || fail=1
}
i=0
devs=$(lspci -D -n -d 1b36:00f0 | cut -d' ' -f1)
[ -n "$devs" ] || { echo "# FAIL: lspci finds no 1b36:00f0"; exit 1; }
# One lspci for all devices (each run walks the whole bus and parses
# pci.ids: seconds per run under TCG with 8 devices), split per device.
lspci -vvv -D -d 1b36:00f0 2>&1 |
    awk '/^[0-9a-f]+:[0-9a-f]+:[0-9a-f]+\.[0-9a-f] / { f = "/tmp/lspci." $1 } f { print > f }'
p_vram=$(param vram); p_queues=$(param queues); p_iobar=$(param iobar); p_comp=$(param comp)
p_ralias=$(param ralias)
for d in $devs; do
    i=$((i + 1))
    rm -f "/tmp/lspci-checks.$d"
    [ -f "/tmp/lspci.$d" ] || { echo "# FAIL $d: not in the output of lspci -vvv -d 1b36:00f0"; fail=1; }
    sed 's/^/#   /' "/tmp/lspci.$d"
    vram=$(nth "$p_vram" $i); vram=$(human "${vram:-268435456}")
    q=$(nth "$p_queues" $i); q=${q:-64}
    iobar=$(nth "$p_iobar" $i)
    expect "$d" "class" "(Processing accelerators|Class 1200)"
    expect "$d" "BAR0 VRAM" "Region 0: Memory at [0-9a-f]+ \(64-bit, prefetchable\) \[size=$vram\]"
    expect "$d" "BAR2 doorbells" "Region 2: Memory at [0-9a-f]+ \(64-bit, prefetchable\) \[size=2M\]"
    expect "$d" "BAR5 registers" "Region 5: Memory at [0-9a-f]+ \(32-bit, non-prefetchable\) \[size=256K\]"
    expect "$d" "expansion ROM" "Expansion ROM at [0-9a-f]+ .*\[size=128K\]"
    ralias=$(nth "$p_ralias" $i); ralias=${ralias:-0}
    if [ "$iobar" = 1 ]; then
        expect "$d" "BAR4 legacy I/O" "Region 4: I/O ports at [0-9a-f]+ \[size=256\]"
    elif [ "${ralias%p}" != 0 ]; then
        # non-prefetchable unless read-alias-prefetchable=on (a "p" suffix)
        pf=non-prefetchable; [ "${ralias%p}" = "$ralias" ] || pf=prefetchable
        expect "$d" "BAR4 cached read alias" \
            "Region 4: Memory at [0-9a-f]+ \(32-bit, $pf\) \[size=$(human "${ralias%p}")\]"
    else
        reject "$d" "no BAR4 by default" "Region 4:"
    fi
    reject "$d" "no BAR1/3 of their own" "Region (1|3):"
    expect "$d" "power management 1.2" "Capabilities: \[50\] Power Management version 3"
    expect "$d" "PCIe v2 endpoint" "Capabilities: \[64\] Express \(v2\) Endpoint"
    comp=$(nth "$p_comp" $i); comp=${comp:-111}
    pm() { [ "$(echo "$comp" | cut -c"$1")" = 1 ] && echo '\+' || echo '-'; }
    expect "$d" "AtomicOp completer bits ($comp)" "AtomicOpsCap: 32bit$(pm 1) 64bit$(pm 2) 128bitCAS$(pm 3)"
    expect "$d" "MSI-X enabled, all vectors" "MSI-X: Enable\+ Count=$((q + 1)) "
    expect "$d" "MSI-X table in BAR5" "Vector table: BAR=5 offset=00038000"
    expect "$d" "AER" "Capabilities: \[100 v2\] Advanced Error Reporting"
    expect "$d" "DSN" "Capabilities: \[150 v1\] Device Serial Number"
    expect "$d" "driver" "Kernel driver in use: hsagpu"
    verdict "$d"
done
exit $fail
