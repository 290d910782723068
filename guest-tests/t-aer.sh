#!/bin/sh
# AER errors injected from the host (HMP pcie_aer_inject_error through the
# harness channel): a non-fatal one changes nothing, a fatal one runs the
# driver's recovery. Not in the default run (QEMU cannot migrate a guest
# after an AER injection): scripts/test runs it in boot-hotplug.
exec /tests/t-recover aer
