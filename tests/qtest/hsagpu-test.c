/*
 * QTest for the hsa-gpu device, without booting a guest: the PCI
 * personality, the register file, queues, DMA and SDMA engines, peer to
 * peer, GPU virtual memory, migration, fault injection and reset, and the
 * reliability findings.
 *
 * The device sits behind a pcie-root-port on q35. No firmware runs under
 * qtest, so the tests program the bridge and the BARs themselves and read
 * extended config space through the MCH's ECAM window
 * (hsagpu/hsagpu-qtest.c). The tests live in hsagpu/<area>-tests.c, one
 * file per area, as QEMU's migration-test keeps its own in migration/.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "hsagpu/hsagpu-qtest.h"

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    hsagpu_qtest_add_regs();
    hsagpu_qtest_add_queue();
    hsagpu_qtest_add_p2p();
    hsagpu_qtest_add_migration();
    hsagpu_qtest_add_gcn();
    hsagpu_qtest_add_reliability();
    hsagpu_qtest_add_mainloop();
    hsagpu_qtest_add_fault();
    hsagpu_qtest_add_vm();
    hsagpu_qtest_add_sdma();
    hsagpu_qtest_add_alias();
    hsagpu_qtest_add_vega10();
    return g_test_run();
}
