/*
 * hsa-gpu qtest: Peer to peer behind a switch: one bus resolver for DMA
 * and AtomicOps, the limits of a peer window, a peer unplugged under
 * traffic.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "hsagpu-qtest.h"

/*
 * The register-programmed AtomicOp engine obeys p2p-addr-bits like DMA:
 * a FetchAdd to a peer whose VRAM BAR is above the limit is refused
 * with P2P_LIMIT and nothing is sent (it used to be performed).
 */
static void test_p2p_limit_atomic_engine(void)
{
    Fixture f;

    /* Within reach: the switch turns the FetchAdd around to the peer. */
    p2p_fixture(&f, 33);
    qtest_writeq(f.qts, MMIO_BASE + HSAGPU_REG_ATOMIC_ADDR_LO, PEER_COUNTER);
    qtest_writeq(f.qts, MMIO_BASE + HSAGPU_REG_ATOMIC_SRC0, 2);
    reg_write(&f, HSAGPU_REG_ATOMIC_CTRL, HSAGPU_ATOMIC_OP_FETCHADD |
              HSAGPU_ATOMIC_SIZE_64 | HSAGPU_ATOMIC_GO);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ATOMIC_STATUS), ==,
                    HSAGPU_ATOMIC_DONE | HSAGPU_ATOMIC_ST_OK);
    g_assert_cmpuint(qtest_readq(f.qts, PEER_COUNTER), ==, 42);
    fixture_fini(&f);

    p2p_fixture(&f, 32);
    qtest_writeq(f.qts, MMIO_BASE + HSAGPU_REG_ATOMIC_ADDR_LO, PEER_COUNTER);
    qtest_writeq(f.qts, MMIO_BASE + HSAGPU_REG_ATOMIC_SRC0, 2);
    reg_write(&f, HSAGPU_REG_ATOMIC_CTRL, HSAGPU_ATOMIC_OP_FETCHADD |
              HSAGPU_ATOMIC_SIZE_64 | HSAGPU_ATOMIC_GO);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ATOMIC_STATUS), ==,
                    HSAGPU_ATOMIC_DONE | HSAGPU_ATOMIC_ST_P2P_LIMIT);
    g_assert_cmpuint(qtest_readq(f.qts, PEER_COUNTER), ==, 40);
    g_assert(reg_read(&f, HSAGPU_REG_ERROR_STATUS) & HSAGPU_ERR_ATOMIC);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_ATOMIC_CNT_ST(
                         HSAGPU_ATOMIC_ST_P2P_LIMIT)), ==, 1);
    fixture_fini(&f);
}

/*
 * Queue-issued accesses to that peer: a DMA copy fails with P2P_LIMIT
 * (as before), and so does an ATOMIC_INC kernel's FetchAdd (which used
 * to be performed).
 */
static void test_p2p_limit_queue(void)
{
    struct hsagpu_kargs_atomic_inc inc = { .counter = PEER_COUNTER };
    struct hsagpu_kernel_dispatch_packet k;
    struct hsagpu_dma_packet d;
    Fixture f;

    /* Within reach: ATOMIC_INC adds to the peer's counter. */
    p2p_fixture(&f, 33);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    qtest_memwrite(f.qts, Q_KARG, &inc, sizeof(inc));
    signal_init(&f, Q_SIG + 64, 1);
    fill_packet(&k, 3, 1, Q_SIG + 64);
    k.kernel_object = HSAGPU_KERNEL_ATOMIC_INC;
    queue_submit(&f, 1, &k);
    g_assert_true(wait_u64(&f, Q_SIG + 64 + 8, 0));
    g_assert_cmpuint(qtest_readq(f.qts, PEER_COUNTER), ==, 43);
    fixture_fini(&f);

    p2p_fixture(&f, 32);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);

    signal_init(&f, Q_SIG, 1);
    dma_packet(&d, HSAGPU_DMA_OP_COPY, PEER_COUNTER, Q_BUF, 64, Q_SIG);
    queue_submit(&f, 0, &d);
    g_assert_true(wait_qstate(&f, 0, HSAGPU_QSTATE_ERROR));
    g_assert_cmphex(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ERROR |
                    HSAGPU_QERR_P2P_LIMIT << HSAGPU_QSTATE_ERR_SHIFT);

    qtest_memwrite(f.qts, Q_KARG, &inc, sizeof(inc));
    signal_init(&f, Q_SIG + 64, 1);
    fill_packet(&k, 1, 1, Q_SIG + 64);
    k.kernel_object = HSAGPU_KERNEL_ATOMIC_INC;
    queue_submit(&f, 1, &k);
    g_assert_true(wait_qstate(&f, 1, HSAGPU_QSTATE_ERROR));
    g_assert_cmphex(qreg_read(&f, 1, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ERROR |
                    HSAGPU_QERR_P2P_LIMIT << HSAGPU_QSTATE_ERR_SHIFT);
    g_assert_cmpuint(qtest_readq(f.qts, PEER_COUNTER), ==, 40);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 64 + 8), ==, 1);
    fixture_fini(&f);
}

/*
 * The peer a running ATOMIC_INC kernel increments in is hot-unplugged
 * (the guest powers off its switch slot) while the processor thread
 * uses it: the thread must not read the departed peer's config space or
 * topology, nor drop the last reference to it without the BQL. The
 * queue fails (nothing answers any more) and QEMU stays up.
 */
static void test_p2p_peer_unplug(void)
{
    struct hsagpu_kargs_atomic_inc inc = { .counter = PEER_COUNTER };
    struct hsagpu_kernel_dispatch_packet k;
    QPCIDevice *dn1;
    uint8_t exp;
    Fixture f;

    p2p_fixture(&f, 33);
    dn1 = qpci_device_find(f.bus, SW_UP_BUS << 8 | QPCI_DEVFN(1, 0));
    g_assert(dn1);
    exp = qpci_find_capability(dn1, PCI_CAP_ID_EXP, 0);
    g_assert_true(qpci_config_readl(dn1, exp + PCI_EXP_SLTCAP) &
                  PCI_EXP_SLTCAP_PCP);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    qtest_memwrite(f.qts, Q_KARG, &inc, sizeof(inc));
    signal_init(&f, Q_SIG + 64, 1);
    fill_packet(&k, BIG_ITEMS, 1, Q_SIG + 64);
    k.kernel_object = HSAGPU_KERNEL_ATOMIC_INC;
    queue_submit(&f, 1, &k);
    g_assert_true(wait_u64(&f, Q_DESC + 256 + HSAGPU_QUEUE_DESC_RPTR, 0));
    /* Several slices in: the thread is busy with the peer's counter. */
    for (int i = 0; i < 5000 && qtest_readq(f.qts, PEER_COUNTER) < 40 + 4096;
         i++) {
        g_usleep(1000);
    }
    g_assert_cmpuint(qtest_readq(f.qts, PEER_COUNTER), >=, 40 + 4096);
    qpci_config_writew(dn1, exp + PCI_EXP_SLTCTL,
                       PCI_EXP_SLTCTL_PWR_OFF | PCI_EXP_SLTCTL_PWR_IND_OFF);
    g_assert_false(qpci_config_readw(dn1, exp + PCI_EXP_SLTSTA) &
                   PCI_EXP_SLTSTA_PDS);
    g_assert_true(wait_qstate(&f, 1, HSAGPU_QSTATE_ERROR));
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 64 + 8), ==, 1);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_MAGIC), ==, HSAGPU_MAGIC_VALUE);
    g_free(dn1);
    fixture_fini(&f);
}

void hsagpu_qtest_add_p2p(void)
{
    qtest_add_func("/hsa-gpu/p2p-limit/atomic-engine",
                   test_p2p_limit_atomic_engine);
    qtest_add_func("/hsa-gpu/p2p-limit/queue", test_p2p_limit_queue);
    qtest_add_func("/hsa-gpu/p2p-peer-unplug", test_p2p_peer_unplug);
}
