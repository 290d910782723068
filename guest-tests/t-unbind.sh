#!/bin/sh
# Unbind/bind through sysfs and module unload/reload leave no trace and
# bring every device back.
fail=0
check() { if eval "$2"; then echo "# ok: $1"; else echo "# FAIL: $1 ($2)"; fail=1; fi; }
drv=/sys/bus/pci/drivers/hsagpu
devs=$(lspci -D -n -d 1b36:00f0 | cut -d' ' -f1)
n=$(echo "$devs" | wc -w)
first=$(echo "$devs" | head -n1)

check "devices bound" "[ \$(ls -d $drv/0000:* 2>/dev/null | wc -l) -eq $n ]"
echo "$first" > $drv/unbind
check "unbind removes the device link" "[ ! -e $drv/$first ]"
check "one device node fewer" "[ \$(ls /dev/hsagpu* 2>/dev/null | wc -l) -eq $((n - 1)) ]"
echo "$first" > $drv/bind
check "bind brings it back" "[ -e $drv/$first ] && [ -e /sys/bus/pci/devices/$first/hsagpu/vram_size ]"
check "all device nodes back" "[ \$(ls /dev/hsagpu* 2>/dev/null | wc -l) -eq $n ]"

for round in 1 2 3; do
    rmmod hsagpu || { echo "# FAIL: rmmod (round $round)"; fail=1; }
    check "module gone (round $round)" "[ ! -e $drv ] && [ -z \"\$(ls /dev/hsagpu* 2>/dev/null)\" ]"
    insmod /lib/modules/hsagpu.ko || { echo "# FAIL: insmod (round $round)"; fail=1; }
    check "rebound after reload (round $round)" "[ \$(ls -d $drv/0000:* 2>/dev/null | wc -l) -eq $n ]"
done
# Queues need platform atomics unless the degraded mode is asked for.
atomics=$(sed -n 's/.*hsagpu_test\.atomics=\([^ ]*\).*/\1/p' /proc/cmdline)
q=$(cat /sys/bus/pci/devices/$first/hsagpu/queues)
if [ "$atomics" = unsupported ]; then
    check "queues refused without AtomicOps ($q)" "echo '$q' | grep -q '^refused'"
    rmmod hsagpu && insmod /lib/modules/hsagpu.ko allow_no_atomics=1
    check "degraded mode with allow_no_atomics=1" "grep -q '^degraded' /sys/bus/pci/devices/$first/hsagpu/queues"
    rmmod hsagpu && insmod /lib/modules/hsagpu.ko
else
    check "queues allowed with AtomicOps ($q)" "[ '$q' = allowed ]"
fi
check "no failed probe" "! dmesg | grep -q 'probe of .* failed'"
# Leave the driver as the boot loaded it (hsagpu_test.modparams): tests
# that run after this one expect the boot's parameters.
mp=$(sed -n 's/.*hsagpu_test\.modparams=\([^ ]*\).*/\1/p' /proc/cmdline | tr ',' ' ')
if [ -n "$mp" ]; then
    rmmod hsagpu && insmod /lib/modules/hsagpu.ko $mp
    check "reloaded with the boot's parameters ($mp)" "[ \$(ls -d $drv/0000:* 2>/dev/null | wc -l) -eq $n ]"
fi
exit $fail
