/*
 * hsa-gpu qtest: AQL queues: registration, dispatch, errors, long kernels,
 * suspend and drain, vendor packets, the AMD queue structure, the DMA
 * engine and the PCIe link timing model.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "hsagpu-qtest.h"

/* A fill dispatch end to end: doorbell, kernel, signal, mailbox, ids. */
static void test_queue_dispatch(void)
{
    struct hsagpu_kernel_dispatch_packet k;
    struct hsagpu_kargs_fill args = { .dst = Q_BUF, .value = 0xc0ffee };
    Fixture f;

    queue_fixture(&f);
    g_assert_cmpuint(queue_create(&f, 0, HSAGPU_QF_PROFILE), ==,
                     HSAGPU_QRES_OK);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    /* Registration is frozen while enabled; enabling twice is refused. */
    qreg_write(&f, 0, HSAGPU_QREG_RING_SIZE, 32);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_RING_SIZE), ==, Q_RING_SIZE);
    qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_ENABLE);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_CMD), ==,
                     HSAGPU_QRES_BAD_STATE);

    qtest_memwrite(f.qts, Q_KARG, &args, sizeof(args));
    qtest_writeq(f.qts, Q_BUF + 4 * 100, 0x5a5a5a5a5a5a5a5aULL);
    signal_init(&f, Q_SIG, 1);
    qtest_writeq(f.qts, Q_SIG + 16, Q_MBOX);
    qtest_writel(f.qts, Q_SIG + 24, 77);
    fill_packet(&k, 100, 32, Q_SIG);
    queue_submit(&f, 0, &k);

    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    for (unsigned i = 0; i < 100; i++) {
        g_assert_cmphex(qtest_readl(f.qts, Q_BUF + 4 * i), ==, 0xc0ffee);
    }
    g_assert_cmphex(qtest_readq(f.qts, Q_BUF + 400), ==,
                    0x5a5a5a5a5a5a5a5aULL);
    g_assert_cmpuint(qtest_readq(f.qts, Q_MBOX), ==, 77);
    g_assert_cmpuint(qtest_readq(f.qts, Q_DESC + HSAGPU_QUEUE_DESC_RPTR), ==,
                     1);
    g_assert_cmpuint(qtest_readw(f.qts, Q_RING), ==, HSAGPU_PKT_TYPE_INVALID);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 40), >=,
                     qtest_readq(f.qts, Q_SIG + 32));
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_RETIRED), ==, 1);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_PKT_PROCESSED), ==, 1);

    qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_DESTROY);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_CMD), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_DISABLED);
    fixture_fini(&f);
}

/* Registration errors are reported, not ignored. */
static void test_queue_registration(void)
{
    Fixture f;

    queue_fixture(&f);
    qreg_write(&f, 1, HSAGPU_QREG_RING_SIZE, 12);
    qreg_write(&f, 1, HSAGPU_QREG_CMD, HSAGPU_QCMD_ENABLE);
    g_assert_cmpuint(qreg_read(&f, 1, HSAGPU_QREG_CMD), ==,
                     HSAGPU_QRES_BAD_RING);
    qreg_write(&f, 1, HSAGPU_QREG_CMD, 99);
    g_assert_cmpuint(qreg_read(&f, 1, HSAGPU_QREG_CMD), ==,
                     HSAGPU_QRES_BAD_COMMAND);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    /* Queue 2 on queue 0's doorbell */
    qreg_write(&f, 2, HSAGPU_QREG_DOORBELL, 0);
    qreg_write(&f, 2, HSAGPU_QREG_RING_LO, Q_RING);
    qreg_write(&f, 2, HSAGPU_QREG_RING_SIZE, Q_RING_SIZE);
    qreg_write(&f, 2, HSAGPU_QREG_RPTR_LO, Q_DESC + 128);
    qreg_write(&f, 2, HSAGPU_QREG_WPTR_LO, Q_DESC + 56);
    qreg_write(&f, 2, HSAGPU_QREG_CMD, HSAGPU_QCMD_ENABLE);
    g_assert_cmpuint(qreg_read(&f, 2, HSAGPU_QREG_CMD), ==,
                     HSAGPU_QRES_BAD_DOORBELL);
    /* Ring outside memory */
    qreg_write(&f, 2, HSAGPU_QREG_DOORBELL, 7);
    qreg_write(&f, 2, HSAGPU_QREG_RING_LO, 0xd0000000);
    qreg_write(&f, 2, HSAGPU_QREG_CMD, HSAGPU_QCMD_ENABLE);
    g_assert_cmpuint(qreg_read(&f, 2, HSAGPU_QREG_CMD), ==,
                     HSAGPU_QRES_BAD_ADDRESS);
    qreg_write(&f, 2, HSAGPU_QREG_RING_LO, Q_RING + 8);
    qreg_write(&f, 2, HSAGPU_QREG_CMD, HSAGPU_QCMD_ENABLE);
    g_assert_cmpuint(qreg_read(&f, 2, HSAGPU_QREG_CMD), ==,
                     HSAGPU_QRES_BAD_RING);
    qreg_write(&f, 2, HSAGPU_QREG_RING_LO, Q_RING);
    qreg_write(&f, 2, HSAGPU_QREG_VECTOR, 4096);
    qreg_write(&f, 2, HSAGPU_QREG_CMD, HSAGPU_QCMD_ENABLE);
    g_assert_cmpuint(qreg_read(&f, 2, HSAGPU_QREG_CMD), ==,
                     HSAGPU_QRES_BAD_VECTOR);
    fixture_fini(&f);
}

/* A malformed packet stops its queue with a code; another queue runs. */
static void test_queue_error(void)
{
    struct hsagpu_kernel_dispatch_packet k;
    struct hsagpu_kargs_fill args = { .dst = Q_BUF, .value = 5 };
    Fixture f;

    queue_fixture(&f);
    reg_write(&f, HSAGPU_REG_ERROR_STATUS, HSAGPU_ERR_ALL);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_QUEUE_ERROR_FIRST), ==,
                    0xffffffff);
    fill_packet(&k, 4, 4, 0);
    k.header = (k.header & ~0xff) | 7;
    queue_submit(&f, 0, &k);
    g_assert_true(wait_qstate(&f, 0, HSAGPU_QSTATE_ERROR));
    g_assert_cmphex(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ERROR |
                    HSAGPU_QERR_PACKET_TYPE << HSAGPU_QSTATE_ERR_SHIFT);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_ERROR_ID_LO), ==, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_QUEUE_ERROR_FIRST), ==, 0);
    g_assert_true(reg_read(&f, HSAGPU_REG_ERROR_STATUS) & HSAGPU_ERR_QUEUE);

    qtest_memwrite(f.qts, Q_KARG, &args, sizeof(args));
    signal_init(&f, Q_SIG, 1);
    fill_packet(&k, 4, 4, Q_SIG);
    queue_submit(&f, 1, &k);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_cmphex(qtest_readl(f.qts, Q_BUF), ==, 5);

    /* A busy kernel completes when virtual time has passed. */
    {
        struct hsagpu_kargs_busy busy = { .ns = 1000000 };

        qtest_memwrite(f.qts, Q_KARG + 64, &busy, sizeof(busy));
        signal_init(&f, Q_SIG + 64, 1);
        fill_packet(&k, 1, 1, Q_SIG + 64);
        k.kernel_object = HSAGPU_KERNEL_BUSY;
        k.kernarg_address = Q_KARG + 64;
        queue_submit(&f, 1, &k);
        g_assert_true(wait_u64(&f, Q_DESC + 256 + HSAGPU_QUEUE_DESC_RPTR, 2));
        g_usleep(20000);
        g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 64 + 8), ==, 1);
        qtest_clock_step(f.qts, 2000000);
        g_assert_true(wait_u64(&f, Q_SIG + 64 + 8, 0));
    }
    fixture_fini(&f);
}

/*
 * A large kernel runs in slices: meanwhile queue registers answer,
 * another queue's packet completes, SUSPEND stops it and RESUME goes on
 * from where it was, DESTROY ends it; the counts come out exact.
 */
static void test_queue_long_kernel(void)
{
    struct hsagpu_agent_dispatch_packet a;
    uint64_t big = Q_SIG + 128, nop = Q_SIG + 192, c;
    Fixture f;

    queue_fixture(&f);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    qtest_writeq(f.qts, BIG_COUNTER, 0);
    submit_big(&f, big);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    signal_init(&f, nop, 1);
    agent_packet(&a, HSAGPU_AGENT_NOP, 0, nop);
    queue_submit(&f, 1, &a);
    g_assert_true(wait_u64(&f, nop + 8, 0));
    /* Done while the big kernel still runs: it did not hold the device. */
    g_assert_cmpuint(qtest_readq(f.qts, big + 8), ==, 1);
    g_assert_true(wait_u64_long(&f, big + 8, 0));
    g_assert_cmpuint(qtest_readq(f.qts, BIG_COUNTER), ==, BIG_ITEMS);

    /* Suspended in the middle: no more slices until RESUME. */
    submit_big(&f, big);
    qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_SUSPEND);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_CMD), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_SUSPENDED);
    c = qtest_readq(f.qts, BIG_COUNTER);
    g_assert_cmpuint(c, <, 2ULL * BIG_ITEMS);
    g_usleep(50000);
    g_assert_cmpuint(qtest_readq(f.qts, BIG_COUNTER), ==, c);
    g_assert_cmpuint(qtest_readq(f.qts, big + 8), ==, 1);
    qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_RESUME);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_CMD), ==, HSAGPU_QRES_OK);
    g_assert_true(wait_u64_long(&f, big + 8, 0));
    g_assert_cmpuint(qtest_readq(f.qts, BIG_COUNTER), ==, 2ULL * BIG_ITEMS);

    /* Destroyed in the middle: it stops at once. */
    submit_big(&f, big);
    qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_DESTROY);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_CMD), ==, HSAGPU_QRES_OK);
    c = qtest_readq(f.qts, BIG_COUNTER);
    g_usleep(50000);
    g_assert_cmpuint(qtest_readq(f.qts, BIG_COUNTER), ==, c);
    g_assert_cmpuint(qtest_readq(f.qts, big + 8), ==, 1);
    fixture_fini(&f);
}

static uint64_t dma_cnt(Fixture *f, unsigned cls, unsigned n)
{
    return qtest_readq(f->qts, MMIO_BASE + HSAGPU_REG_DMA_CNT(cls, n));
}

/*
 * DMA packets end to end: system memory to VRAM and back, a fill list,
 * link settings from DevCtl and the TLP counters, a bad address.
 */
static void test_dma(void)
{
    struct hsagpu_dma_desc list[2] = {
        { 0x11223344, Q_BUF + 0x3000, 6, 0 },
        { 0xa5a5a5a5, Q_BUF + 0x3009, 3, 0 },
    };
    uint8_t src[3000], got[3000], guard[16];
    struct hsagpu_dma_packet d;
    uint64_t rd, wr;
    g_autofree char *props = g_strconcat(",vram-size=1M", queue_props, NULL);
    uint8_t exp;
    Fixture f;

    queue_fixture_props(&f, props);
    qpci_config_writel(f.gpu, PCI_BASE_ADDRESS_0, VRAM_BASE);
    qpci_config_writel(f.gpu, PCI_BASE_ADDRESS_1, 0);
    exp = find_cap(&f, PCI_CAP_ID_EXP);
    g_assert_true(reg_read(&f, HSAGPU_REG_CAPS) & HSAGPU_CAP_DMA);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_LINK_MPS), ==, 128);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_LINK_MRRS), ==, 512);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_P2P_ADDR_BITS), ==, 44);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_P2P_STATUS), ==,
                    HSAGPU_P2P_VRAM_OK | HSAGPU_P2P_DOORBELL_OK |
                    HSAGPU_P2P_OK);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);

    /* System memory to VRAM, odd addresses; the device reads 512-byte */
    for (unsigned i = 0; i < sizeof(src); i++) {
        src[i] = i * 13 + 1;
    }
    qtest_memwrite(f.qts, Q_BUF + 1, src, sizeof(src));
    memset(guard, 0xcc, sizeof(guard));
    qtest_memwrite(f.qts, VRAM_BASE, guard, sizeof(guard));
    qtest_memwrite(f.qts, VRAM_BASE + 5 + sizeof(src), guard, sizeof(guard));
    signal_init(&f, Q_SIG, 1);
    dma_packet(&d, HSAGPU_DMA_OP_COPY, VRAM_BASE + 5, Q_BUF + 1, sizeof(src),
               Q_SIG);
    queue_submit(&f, 0, &d);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    qtest_memread(f.qts, VRAM_BASE + 5, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), src, sizeof(src));
    qtest_memread(f.qts, VRAM_BASE, got, 5);
    g_assert_cmpmem(got, 5, guard, 5);
    qtest_memread(f.qts, VRAM_BASE + 5 + sizeof(src), got, 16);
    g_assert_cmpmem(got, 16, guard, 16);
    /* MRRS 512: blocks 0..5 of Q_BUF+1..Q_BUF+3000 */
    g_assert_cmpuint(dma_cnt(&f, HSAGPU_DMA_CLASS_SYSTEM,
                             HSAGPU_DMA_CNT_RD_REQS), ==, 6);
    g_assert_cmpuint(dma_cnt(&f, HSAGPU_DMA_CLASS_SYSTEM,
                             HSAGPU_DMA_CNT_RD_BYTES), ==, sizeof(src));
    g_assert_cmpuint(dma_cnt(&f, HSAGPU_DMA_CLASS_LOCAL,
                             HSAGPU_DMA_CNT_WR_BYTES), ==, sizeof(src));
    g_assert_cmpuint(dma_cnt(&f, HSAGPU_DMA_CLASS_LOCAL,
                             HSAGPU_DMA_CNT_WR_TLPS), ==, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DMA_PACKETS), ==, 1);

    /* The guest programs MPS 256, MRRS 128: VRAM back to memory. */
    qpci_config_writew(f.gpu, exp + PCI_EXP_DEVCTL,
                       PCI_EXP_DEVCTL_PAYLOAD_256B |
                       PCI_EXP_DEVCTL_READRQ_128B);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_LINK_MPS), ==, 256);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_LINK_MRRS), ==, 128);
    rd = dma_cnt(&f, HSAGPU_DMA_CLASS_SYSTEM, HSAGPU_DMA_CNT_RD_REQS);
    wr = dma_cnt(&f, HSAGPU_DMA_CLASS_SYSTEM, HSAGPU_DMA_CNT_WR_TLPS);
    signal_init(&f, Q_SIG, 1);
    dma_packet(&d, HSAGPU_DMA_OP_COPY, Q_BUF + 0x10000, VRAM_BASE + 5,
               1000, Q_SIG);
    queue_submit(&f, 0, &d);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    qtest_memread(f.qts, Q_BUF + 0x10000, got, 1000);
    g_assert_cmpmem(got, 1000, src, 1000);
    g_assert_cmpuint(dma_cnt(&f, HSAGPU_DMA_CLASS_SYSTEM,
                             HSAGPU_DMA_CNT_WR_TLPS) - wr, ==, 4);
    g_assert_cmpuint(dma_cnt(&f, HSAGPU_DMA_CLASS_SYSTEM,
                             HSAGPU_DMA_CNT_RD_REQS), ==, rd);
    /* Above what DevCap offers: the device stays at 256. */
    qpci_config_writew(f.gpu, exp + PCI_EXP_DEVCTL,
                       PCI_EXP_DEVCTL_PAYLOAD_512B);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_LINK_MPS), ==, 256);

    /* A fill list the device fetches; each range starts the pattern. */
    qtest_memwrite(f.qts, Q_KARG, list, sizeof(list));
    memset(guard, 0, sizeof(guard));
    qtest_memwrite(f.qts, Q_BUF + 0x3000, guard, sizeof(guard));
    signal_init(&f, Q_SIG, 1);
    dma_packet(&d, HSAGPU_DMA_OP_FILL_SG, 0, Q_KARG, 2, Q_SIG);
    queue_submit(&f, 0, &d);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    qtest_memread(f.qts, Q_BUF + 0x3000, got, 16);
    {
        static const uint8_t want[16] = {
            0x44, 0x33, 0x22, 0x11, 0x44, 0x33, 0, 0, 0,
            0xa5, 0xa5, 0xa5, 0, 0, 0, 0,
        };
        g_assert_cmpmem(got, 16, want, 16);
    }

    /* Nothing at the destination: the queue stops, the address shows. */
    signal_init(&f, Q_SIG, 1);
    dma_packet(&d, HSAGPU_DMA_OP_COPY, 0xd0000000, Q_BUF, 64, Q_SIG);
    queue_submit(&f, 0, &d);
    g_assert_true(wait_qstate(&f, 0, HSAGPU_QSTATE_ERROR));
    g_assert_cmphex(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ERROR |
                    HSAGPU_QERR_ADDRESS << HSAGPU_QSTATE_ERR_SHIFT);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_DMA_BAD_ADDR_LO), ==, 0xd0000000);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_DMA_BAD_ADDR_HI), ==, 0);
    fixture_fini(&f);
}

/*
 * AMD's vendor packets as ROCr 5.2.3 sends them: PM4_IB with the
 * ACQUIRE_MEM of GpuAgent::InvalidateCodeCaches, BARRIER_VALUE; other
 * formats and PM4 the device does not run stop their queue.
 */
static void pm4_packet(struct hsagpu_pm4_ib_packet *p, uint64_t ib,
                       uint32_t ndw, uint64_t sig)
{
    memset(p, 0, sizeof(*p));
    p->header = HSAGPU_PKT_TYPE_VENDOR_SPECIFIC;
    p->format = HSAGPU_VENDOR_FORMAT_PM4_IB;
    p->ib_jump_cmd[0] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER, 4);
    p->ib_jump_cmd[1] = (uint32_t)ib;
    p->ib_jump_cmd[2] = (uint32_t)(ib >> 32);
    p->ib_jump_cmd[3] = ndw | HSAGPU_PM4_IB_VALID;
    p->dw_cnt_remain = 0xa;
    p->completion_signal = sig;
}

/*
 * The link timing model (docs/link-model.md), deterministic under qtest
 * where virtual time moves only by clock_step: a copy from VRAM to host
 * memory over an x4 Gen2 link completes when its modelled time has
 * passed, with timestamps that span exactly that time; two at once share
 * the link; without the model the same copy takes no virtual time. The
 * link reads as configured (Link Capabilities and the port's Status).
 */
#define LINK_LEN        65536ULL

/* 64 KiB in 512 TLPs of 128 + 20 bytes at 4 x 0.5 x 0.952 B/ns, + port */
#define LINK_ONE_NS     40058ULL
#define LINK_TWO_NS     79857ULL    /* two sharing the link */

static void link_copy(Fixture *f, unsigned q, uint64_t sig)
{
    struct hsagpu_dma_packet d;

    signal_init(f, sig, 1);
    dma_packet(&d, HSAGPU_DMA_OP_COPY, Q_BUF + 0x40000 + q * LINK_LEN,
               VRAM_BASE, LINK_LEN, sig);
    queue_submit(f, q, &d);
}

static void link_stamps(Fixture *f, uint64_t sig, uint64_t *start,
                        uint64_t *end)
{
    *start = qtest_readq(f->qts, sig + 32);
    *end = qtest_readq(f->qts, sig + 40);
}

static void test_link_model(void)
{
    uint64_t s0, e0, s1, e1, rptr0 = Q_DESC + HSAGPU_QUEUE_DESC_RPTR;
    uint8_t exp;
    uint16_t lnk;
    Fixture f;

    queue_fixture_props(&f, ",vram-size=1M,link-model=on,link-speed=5,"
                        "link-width=4");
    qpci_config_writel(f.gpu, PCI_BASE_ADDRESS_0, VRAM_BASE);
    qpci_config_writel(f.gpu, PCI_BASE_ADDRESS_1, 0);
    exp = find_cap(&f, PCI_CAP_ID_EXP);
    lnk = qpci_config_readw(f.gpu, exp + PCI_EXP_LNKSTA);
    g_assert_cmphex(lnk & PCI_EXP_LNKSTA_CLS, ==, PCI_EXP_LNKSTA_CLS_5_0GB);
    g_assert_cmphex((lnk & PCI_EXP_LNKSTA_NLW) >> 4, ==, 4);
    g_assert_cmphex(qpci_config_readl(f.gpu, exp + PCI_EXP_LNKCAP) &
                    (PCI_EXP_LNKCAP_SLS | PCI_EXP_LNKCAP_MLW), ==, 0x42);
    g_assert_cmpuint(queue_create(&f, 0, HSAGPU_QF_PROFILE), ==,
                     HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 1, HSAGPU_QF_PROFILE), ==,
                     HSAGPU_QRES_OK);

    /* One copy: its data moved, the packet consumed, not yet complete. */
    link_copy(&f, 0, Q_SIG);
    g_assert_true(wait_u64(&f, rptr0, 1));
    g_usleep(20000);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 8), ==, 1);
    qtest_clock_step(f.qts, LINK_ONE_NS - 1);
    g_usleep(20000);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 8), ==, 1);
    qtest_clock_step(f.qts, 1);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    link_stamps(&f, Q_SIG, &s0, &e0);
    g_assert_cmpuint(e0 - s0, ==, LINK_ONE_NS);

    /* Two queues at once on the one link: each at half the rate. */
    link_copy(&f, 0, Q_SIG);
    link_copy(&f, 1, Q_SIG + 64);
    g_assert_true(wait_u64(&f, rptr0, 2));
    g_assert_true(wait_u64(&f, Q_DESC + 256 + HSAGPU_QUEUE_DESC_RPTR, 1));
    qtest_clock_step(f.qts, LINK_ONE_NS + 1000);
    g_usleep(20000);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 8), ==, 1);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 64 + 8), ==, 1);
    qtest_clock_step(f.qts, LINK_TWO_NS - LINK_ONE_NS - 1000);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_true(wait_u64(&f, Q_SIG + 64 + 8, 0));
    link_stamps(&f, Q_SIG, &s0, &e0);
    link_stamps(&f, Q_SIG + 64, &s1, &e1);
    g_assert_cmpuint(s0, ==, s1);
    g_assert_cmpuint(e0 - s0, ==, LINK_TWO_NS);
    g_assert_cmpuint(e1 - s1, ==, LINK_TWO_NS);
    fixture_fini(&f);

    /* Model off: the same copy completes without virtual time. */
    queue_fixture_props(&f, ",vram-size=1M,link-speed=5,link-width=4");
    qpci_config_writel(f.gpu, PCI_BASE_ADDRESS_0, VRAM_BASE);
    qpci_config_writel(f.gpu, PCI_BASE_ADDRESS_1, 0);
    g_assert_cmpuint(queue_create(&f, 0, HSAGPU_QF_PROFILE), ==,
                     HSAGPU_QRES_OK);
    link_copy(&f, 0, Q_SIG);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    link_stamps(&f, Q_SIG, &s0, &e0);
    g_assert_cmpuint(e0, ==, s0);
    fixture_fini(&f);
}

static void test_vendor_packets(void)
{
    static const uint32_t acquire_mem[7] = {
        HSAGPU_PM4_HDR(HSAGPU_PM4_OP_ACQUIRE_MEM, 7), 0x28840000,
        0xffffffff, 0xff, 0, 0, 0,
    };
    const uint32_t release_mem = HSAGPU_PM4_HDR(0x49, 7);
    struct hsagpu_pm4_ib_packet p;
    struct hsagpu_barrier_value_packet b;
    struct hsagpu_agent_dispatch_packet a;
    struct hsagpu_dma_packet d;
    Fixture f;

    queue_fixture(&f);
    for (unsigned q = 0; q < 4; q++) {
        g_assert_cmpuint(queue_create(&f, q, 0), ==, HSAGPU_QRES_OK);
    }

    /* PM4_IB: completes, read index first (ROCr waits on it) */
    qtest_memwrite(f.qts, Q_BUF, acquire_mem, sizeof(acquire_mem));
    signal_init(&f, Q_SIG, 1);
    pm4_packet(&p, Q_BUF, 7, 0);
    queue_submit(&f, 0, &p);
    pm4_packet(&p, Q_BUF, 7, Q_SIG);
    queue_submit(&f, 0, &p);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_cmpuint(qtest_readq(f.qts, Q_DESC + HSAGPU_QUEUE_DESC_RPTR), ==,
                     2);
    g_assert_cmphex(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ACTIVE);

    /* BARRIER_VALUE holds queue 1 until (value & 0xff) == 2 ... */
    signal_init(&f, Q_SIG + 64, 0x301);
    signal_init(&f, Q_SIG + 128, 1);
    memset(&b, 0, sizeof(b));
    b.header = HSAGPU_PKT_TYPE_VENDOR_SPECIFIC | HSAGPU_PKT_HDR_BARRIER;
    b.format = HSAGPU_VENDOR_FORMAT_BARRIER_VALUE;
    b.signal = Q_SIG + 64;
    b.value = 2;
    b.mask = 0xff;
    b.cond = HSAGPU_SIGNAL_COND_EQ;
    b.completion_signal = Q_SIG + 128;
    queue_submit(&f, 1, &b);
    /* ... while queue 2 of the same level keeps running */
    signal_init(&f, Q_SIG + 192, 1);
    agent_packet(&a, HSAGPU_AGENT_NOP, 0, Q_SIG + 192);
    queue_submit(&f, 2, &a);
    g_assert_true(wait_u64(&f, Q_SIG + 192 + 8, 0));
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 128 + 8), ==, 1);
    g_assert_cmpuint(qtest_readq(f.qts, Q_DESC + 256 +
                                 HSAGPU_QUEUE_DESC_RPTR), ==, 0);
    qtest_writeq(f.qts, Q_SIG + 64 + 8, 0x7702);
    g_assert_true(wait_u64(&f, Q_SIG + 128 + 8, 0));
    g_assert_cmphex(qreg_read(&f, 1, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ACTIVE);

    /* A RELEASE_MEM in the IB: PM4 the device does not run */
    qtest_writel(f.qts, Q_BUF + 0x100, release_mem);
    pm4_packet(&p, Q_BUF + 0x100, 7, Q_SIG);
    signal_init(&f, Q_SIG, 1);
    queue_submit(&f, 0, &p);
    g_assert_true(wait_qstate(&f, 0, HSAGPU_QSTATE_ERROR));
    g_assert_cmphex(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ERROR |
                    HSAGPU_QERR_PM4_PACKET << HSAGPU_QSTATE_ERR_SHIFT);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_ERROR_ID_LO), ==, 2);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 8), ==, 1);

    /*
     * An ABI 1.3 COPY (its 16-bit op 1 where the format goes) reads as a
     * PM4_IB without an INDIRECT_BUFFER, and copies nothing
     */
    qtest_writeq(f.qts, Q_BUF + 0x2000, 0);
    dma_packet(&d, HSAGPU_DMA_OP_COPY, Q_BUF + 0x2000, Q_BUF, 64, 0);
    d.format = HSAGPU_DMA_OP_COPY;
    d.op = 0;
    queue_submit(&f, 3, &d);
    g_assert_true(wait_qstate(&f, 3, HSAGPU_QSTATE_ERROR));
    g_assert_cmphex(qreg_read(&f, 3, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ERROR |
                    HSAGPU_QERR_PM4_IB << HSAGPU_QSTATE_ERR_SHIFT);
    g_assert_cmphex(qtest_readq(f.qts, Q_BUF + 0x2000), ==, 0);
    /* A format nobody defined */
    g_assert_cmpuint(queue_create(&f, 4, 0), ==, HSAGPU_QRES_OK);
    d.format = 0x7f;
    d.op = HSAGPU_DMA_OP_COPY;
    queue_submit(&f, 4, &d);
    g_assert_true(wait_qstate(&f, 4, HSAGPU_QSTATE_ERROR));
    g_assert_cmphex(qreg_read(&f, 4, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ERROR |
                    HSAGPU_QERR_VENDOR_FORMAT << HSAGPU_QSTATE_ERR_SHIFT);
    g_assert_cmphex(qtest_readq(f.qts, Q_BUF + 0x2000), ==, 0);
    fixture_fini(&f);
}

/*
 * FLAGS.AMD_QUEUE: ROCr's amd_queue_t around the read index. A queue
 * error is stored into queue_inactive_signal (with its event), and
 * profiling follows queue_properties.
 */
static void test_amd_queue(void)
{
    const uint64_t desc0 = Q_DESC, desc1 = Q_DESC + 256;
    const uint64_t isig = Q_SIG + 256;
    struct hsagpu_agent_dispatch_packet a;
    Fixture f;

    queue_fixture(&f);
    g_assert_cmpuint(queue_create(&f, 0, HSAGPU_QF_AMD_QUEUE), ==,
                     HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 1, HSAGPU_QF_AMD_QUEUE), ==,
                     HSAGPU_QRES_OK);

    /* Profiling on through the descriptor, then off again */
    qtest_writel(f.qts, desc1 + HSAGPU_AMD_QUEUE_PROPERTIES,
                 HSAGPU_AMD_QUEUE_PROP_PROFILING);
    /* qtest's virtual clock may read 0: mark the timestamp fields */
    signal_init(&f, Q_SIG, 1);
    qtest_writeq(f.qts, Q_SIG + 32, ~0ULL);
    qtest_writeq(f.qts, Q_SIG + 40, ~0ULL);
    agent_packet(&a, HSAGPU_AGENT_NOP, 0, Q_SIG);
    queue_submit(&f, 1, &a);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_cmphex(qtest_readq(f.qts, Q_SIG + 32), !=, ~0ULL);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 40), >=,
                     qtest_readq(f.qts, Q_SIG + 32));
    qtest_writel(f.qts, desc1 + HSAGPU_AMD_QUEUE_PROPERTIES, 0);
    signal_init(&f, Q_SIG, 1);
    qtest_writeq(f.qts, Q_SIG + 32, ~0ULL);
    queue_submit(&f, 1, &a);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_cmphex(qtest_readq(f.qts, Q_SIG + 32), ==, ~0ULL);

    /* An error: ROCr's handler sees 1 << 63 | 0x20 (packet format) */
    signal_init(&f, isig, 0);
    qtest_writeq(f.qts, isig + 16, Q_MBOX);
    qtest_writel(f.qts, isig + 24, 0x55);
    qtest_writeq(f.qts, Q_MBOX, 0);
    qtest_writeq(f.qts, desc0 + HSAGPU_AMD_QUEUE_INACTIVE_SIGNAL, isig);
    agent_packet(&a, 99, 0, 0);
    queue_submit(&f, 0, &a);
    g_assert_true(wait_qstate(&f, 0, HSAGPU_QSTATE_ERROR));
    g_assert_true(wait_u64(&f, isig + 8, HSAGPU_AMD_QUEUE_ERROR |
                           HSAGPU_AMD_QERR_PACKET_FORMAT));
    g_assert_true(wait_u64(&f, Q_MBOX, 0x55));
    /* queue 1 is not touched by queue 0's error */
    g_assert_cmphex(qreg_read(&f, 1, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ACTIVE);

    /* ENABLE refuses an amd_queue_t that is not 64-byte aligned */
    qreg_write(&f, 2, HSAGPU_QREG_RPTR_LO, Q_DESC + 512 + 8);
    g_assert_cmpuint(qreg_read(&f, 2, HSAGPU_QREG_RPTR_LO), ==,
                     Q_DESC + 512 + 8);
    qreg_write(&f, 2, HSAGPU_QREG_RING_LO, Q_RING + 2 * Q_RING_SIZE * 64);
    qreg_write(&f, 2, HSAGPU_QREG_RING_SIZE, Q_RING_SIZE);
    qreg_write(&f, 2, HSAGPU_QREG_DOORBELL, 2);
    qreg_write(&f, 2, HSAGPU_QREG_WPTR_LO, Q_DESC + 512 + 56);
    qreg_write(&f, 2, HSAGPU_QREG_VECTOR, 1);
    qreg_write(&f, 2, HSAGPU_QREG_FLAGS, HSAGPU_QF_AMD_QUEUE);
    qreg_write(&f, 2, HSAGPU_QREG_CMD, HSAGPU_QCMD_ENABLE);
    g_assert_cmpuint(qreg_read(&f, 2, HSAGPU_QREG_CMD), ==,
                     HSAGPU_QRES_BAD_POINTER);
    fixture_fini(&f);
}

/*
 * SUSPEND stops a queue (its doorbell is ignored until RESUME), RESUME
 * goes on; DRAIN finishes what is queued, waits for an in-flight busy
 * kernel and then leaves the queue SUSPENDED; commands in the wrong state
 * are refused.
 */
static void test_queue_suspend_drain(void)
{
    struct hsagpu_kargs_busy busy = { .ns = 1000000 };
    struct hsagpu_agent_dispatch_packet a;
    struct hsagpu_kernel_dispatch_packet k;
    uint64_t s0 = Q_SIG, s1 = Q_SIG + 64, s2 = Q_SIG + 128;
    uint64_t rptr0 = Q_DESC + HSAGPU_QUEUE_DESC_RPTR;
    Fixture f;

    queue_fixture(&f);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    queue_cmd(&f, 0, HSAGPU_QCMD_RESUME, HSAGPU_QRES_BAD_STATE);
    queue_cmd(&f, 0, HSAGPU_QCMD_SUSPEND, HSAGPU_QRES_OK);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_SUSPENDED);
    queue_cmd(&f, 0, HSAGPU_QCMD_SUSPEND, HSAGPU_QRES_BAD_STATE);
    signal_init(&f, s0, 1);
    agent_packet(&a, HSAGPU_AGENT_NOP, 0, s0);
    queue_submit(&f, 0, &a);
    nop_pass(&f, s2);
    g_assert_cmpuint(qtest_readq(f.qts, s0 + 8), ==, 1);
    g_assert_cmpuint(qtest_readq(f.qts, rptr0), ==, 0);
    queue_cmd(&f, 0, HSAGPU_QCMD_RESUME, HSAGPU_QRES_OK);
    g_assert_true(wait_u64(&f, s0 + 8, 0));
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);

    /* DRAIN from SUSPENDED: the queued packet runs, then SUSPENDED. */
    queue_cmd(&f, 0, HSAGPU_QCMD_SUSPEND, HSAGPU_QRES_OK);
    signal_init(&f, s0, 1);
    queue_submit(&f, 0, &a);
    queue_cmd(&f, 0, HSAGPU_QCMD_DRAIN, HSAGPU_QRES_OK);
    g_assert_true(wait_u64(&f, s0 + 8, 0));
    g_assert_true(wait_qstate(&f, 0, HSAGPU_QSTATE_SUSPENDED));
    queue_cmd(&f, 0, HSAGPU_QCMD_RESUME, HSAGPU_QRES_OK);

    /* DRAIN with a busy kernel in flight: done only once it is. */
    qtest_memwrite(f.qts, Q_KARG + 64, &busy, sizeof(busy));
    signal_init(&f, s1, 1);
    fill_packet(&k, 1, 1, s1);
    k.kernel_object = HSAGPU_KERNEL_BUSY;
    k.kernarg_address = Q_KARG + 64;
    queue_submit(&f, 0, &k);
    g_assert_true(wait_u64(&f, rptr0, 3));
    queue_cmd(&f, 0, HSAGPU_QCMD_DRAIN, HSAGPU_QRES_OK);
    queue_cmd(&f, 0, HSAGPU_QCMD_DRAIN, HSAGPU_QRES_BAD_STATE);
    nop_pass(&f, s2);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_DRAINING);
    g_assert_cmpuint(qtest_readq(f.qts, s1 + 8), ==, 1);
    qtest_clock_step(f.qts, 2000000);
    g_assert_true(wait_u64(&f, s1 + 8, 0));
    g_assert_true(wait_qstate(&f, 0, HSAGPU_QSTATE_SUSPENDED));
    queue_cmd(&f, 0, HSAGPU_QCMD_RESUME, HSAGPU_QRES_OK);
    signal_init(&f, s0, 1);
    queue_submit(&f, 0, &a);
    g_assert_true(wait_u64(&f, s0 + 8, 0));
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_RETIRED), ==, 4);
    fixture_fini(&f);
}

void hsagpu_qtest_add_queue(void)
{
    qtest_add_func("/hsa-gpu/queue-dispatch", test_queue_dispatch);
    qtest_add_func("/hsa-gpu/queue-registration", test_queue_registration);
    qtest_add_func("/hsa-gpu/queue-error", test_queue_error);
    qtest_add_func("/hsa-gpu/dma", test_dma);
    qtest_add_func("/hsa-gpu/link-model", test_link_model);
    qtest_add_func("/hsa-gpu/vendor-packets", test_vendor_packets);
    qtest_add_func("/hsa-gpu/amd-queue", test_amd_queue);
    qtest_add_func("/hsa-gpu/queue-long-kernel", test_queue_long_kernel);
    qtest_add_func("/hsa-gpu/queue-suspend-drain", test_queue_suspend_drain);
    qtest_add_data_func("/hsa-gpu/mainloop/queue-dispatch",
                        test_queue_dispatch, run_mainloop);
    qtest_add_data_func("/hsa-gpu/mainloop/queue-error", test_queue_error,
                        run_mainloop);
    qtest_add_data_func("/hsa-gpu/mainloop/dma", test_dma, run_mainloop);
    qtest_add_data_func("/hsa-gpu/mainloop/queue-long-kernel",
                        test_queue_long_kernel, run_mainloop);
    qtest_add_data_func("/hsa-gpu/mainloop/queue-suspend-drain",
                        test_queue_suspend_drain, run_mainloop);
}
