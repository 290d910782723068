#!/bin/sh
# What "scripts/demo" shows: the device as the guest sees it, the driver's
# view, and a few register, doorbell and VRAM operations from user space.
dev=$(lspci -D -n -d 1b36:00f0 | head -n1 | cut -d' ' -f1)
hr() { echo; echo "==== $* ===="; }
hr "guest kernel $(uname -r)"
if [ -z "$dev" ]; then echo "no hsa-gpu device found"; exit 1; fi
hr "lspci -vvv -s $dev"
lspci -vvv -s "$dev" 2>/dev/null
hr "driver log"
dmesg | grep -i hsagpu
hr "sysfs: /sys/bus/pci/devices/$dev/hsagpu"
for f in /sys/bus/pci/devices/$dev/hsagpu/*; do
    printf '%-22s %s\n' "$(basename "$f")" "$(cat "$f")"
done
hr "hsagpu-info (user space: ioctl, registers, doorbells, VRAM)"
/tests/hsagpu-info
hr "hsagpu-demo (libhsagpu: queue, kernels in VRAM, barrier across queues, packet stream)"
/tests/hsagpu-demo
