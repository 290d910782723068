/*
 * hsa-gpu qtest: SDMA rings (HSAGPU_QF_SDMA): packets, translated VMIDs,
 * errors, wrap-around, rectangles, migration.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "hsagpu-qtest.h"

static uint64_t sdma_rptr(SdmaRing *r)
{
    return qtest_readq(r->f->qts, S_PTRS);
}

static void sdma_poll_eq(SdmaRing *r, uint64_t addr, uint32_t ref)
{
    SDMA_PUT(r, HSAGPU_SDMA_OP_POLL_REGMEM | HSAGPU_SDMA_POLL_MEM |
             HSAGPU_SDMA_FUNC_EQ << 28, (uint32_t)addr, addr >> 32, ref,
             0xffffffff, 0x0fff0004);
}

static void sdma_timestamp(SdmaRing *r, uint64_t addr)
{
    SDMA_PUT(r, HSAGPU_SDMA_HDR(HSAGPU_SDMA_OP_TIMESTAMP,
                                HSAGPU_SDMA_SUBOP_TIMESTAMP_GET_GLOBAL),
             (uint32_t)addr, addr >> 32);
}

/*
 * What ROCr's BlitSdmaV4 submits for an async copy with a dependency and
 * an interrupt signal (10 packets), plus a fill, with addresses in the
 * queue's space; the completion signal at Q_SIG + 64, the dependency at
 * Q_SIG.
 */
static void sdma_rocr_copy(SdmaRing *r, uint64_t dst, uint64_t src,
                           uint32_t len, uint64_t fill, uint32_t fill_dw)
{
    sdma_poll_eq(r, Q_SIG + 8 + 4, 0);
    sdma_poll_eq(r, Q_SIG + 8, 0);
    sdma_timestamp(r, Q_SIG + 64 + 32);
    SDMA_PUT(r, HSAGPU_SDMA_OP_POLL_REGMEM | HSAGPU_SDMA_POLL_HDP_FLUSH |
             HSAGPU_SDMA_FUNC_EQ << 28, 0, 0, 0, 0, 0x0fff000a);
    sdma_copy(r, dst, src, len);
    sdma_fill(r, fill, 0xfeedf00d, fill_dw);
    sdma_timestamp(r, Q_SIG + 64 + 40);
    sdma_atomic_dec(r, Q_SIG + 64 + 8);
    sdma_fence(r, Q_MBOX, 77);
    SDMA_PUT(r, HSAGPU_SDMA_OP_TRAP, 77);
}

static void sdma_seq(Fixture *f, uint64_t addr, uint32_t len)
{
    g_autofree uint8_t *b = g_malloc(len);

    for (uint32_t i = 0; i < len; i++) {
        b[i] = i * 7 + (i >> 8);
    }
    qtest_memwrite(f->qts, addr, b, len);
}

static void sdma_check_seq(Fixture *f, uint64_t addr, uint32_t len)
{
    g_autofree uint8_t *b = g_malloc(len);

    qtest_memread(f->qts, addr, b, len);
    for (uint32_t i = 0; i < len; i++) {
        g_assert_cmpuint(b[i], ==, (uint8_t)(i * 7 + (i >> 8)));
    }
}

/*
 * An SDMA ring in VMID 0 runs ROCr's sequence: it waits on the
 * dependency's memory (an AQL queue next to it keeps running), goes on
 * when the CPU clears it, without a doorbell, and completes with the
 * AtomicOp, the mailbox and the MSI-X vector.
 */
static void test_sdma_packets(void)
{
    struct hsagpu_kernel_dispatch_packet k;
    struct hsagpu_kargs_fill args = { .dst = Q_BUF + 0x40000, .value = 9 };
    uint32_t processed, dmas, sdmas;
    SdmaRing r;
    Fixture f;

    queue_fixture(&f);
    msix_to_ram(&f, 1);
    qtest_writel(f.qts, MSI_ADDR + 16, 0);
    g_assert_cmpuint(sdma_create(&r, &f, 0, 4096, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    processed = reg_read(&f, HSAGPU_REG_PKT_PROCESSED);
    dmas = reg_read(&f, HSAGPU_REG_DMA_PACKETS);
    sdmas = reg_read(&f, HSAGPU_REG_SDMA_PACKETS);
    signal_init(&f, Q_SIG, 1);
    signal_init(&f, Q_SIG + 64, 1);
    /* Timestamps: the virtual clock, which qtest may leave at 0 */
    qtest_writeq(f.qts, Q_SIG + 64 + 32, UINT64_MAX);
    qtest_writeq(f.qts, Q_SIG + 64 + 40, UINT64_MAX);
    sdma_seq(&f, Q_BUF, 8192);
    sdma_rocr_copy(&r, Q_BUF + 0x10000, Q_BUF, 8192, Q_BUF + 0x20000, 1024);
    sdma_kick(&r);

    /* The first poll passes (high dword 0), the second waits. */
    g_assert_true(wait_u64(&f, S_PTRS, 24));
    qtest_memwrite(f.qts, Q_KARG, &args, sizeof(args));
    signal_init(&f, Q_SIG + 128, 1);
    fill_packet(&k, 64, 64, Q_SIG + 128);
    queue_submit(&f, 1, &k);
    g_assert_true(wait_u64(&f, Q_SIG + 128 + 8, 0));
    g_assert_cmpuint(sdma_rptr(&r), ==, 24);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 64 + 8), ==, 1);
    g_assert_cmpuint(qtest_readl(f.qts, Q_BUF + 0x10000), ==, 0);

    qtest_writeq(f.qts, Q_SIG + 8, 0);
    /* No doorbell: the processor polls (in virtual time with mainloop) */
    qtest_clock_step(f.qts, 10 * 1000 * 1000);
    g_assert_true(wait_u64(&f, Q_SIG + 64 + 8, 0));
    g_assert_true(wait_u64(&f, S_PTRS, r.wp));
    sdma_check_seq(&f, Q_BUF + 0x10000, 8192);
    for (unsigned i = 0; i < 1024; i++) {
        g_assert_cmphex(qtest_readl(f.qts, Q_BUF + 0x20000 + 4 * i), ==,
                        0xfeedf00d);
    }
    g_assert_cmphex(qtest_readl(f.qts, Q_BUF + 0x20000 + 4096), ==, 0);
    g_assert_cmpuint(qtest_readl(f.qts, Q_MBOX), ==, 77);
    g_assert_true(wait_u64(&f, MSI_ADDR + 16, MSI_DATA + 1));
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 64 + 40), !=, UINT64_MAX);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 64 + 40), >=,
                     qtest_readq(f.qts, Q_SIG + 64 + 32));
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 64 + 40), <=,
                     qtest_readq(f.qts, MMIO_BASE + HSAGPU_REG_TIMESTAMP_LO));
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_RETIRED), ==, 10);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    /* 10 SDMA packets and the dispatch; the copy and the fill */
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_PKT_PROCESSED) - processed, ==,
                     11);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DMA_PACKETS) - dmas, ==, 2);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_SDMA_PACKETS) - sdmas, ==, 10);

    /* DRAIN on an idle ring suspends it; RESUME and DESTROY as for AQL */
    qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_DRAIN);
    g_assert_true(wait_qstate(&f, 0, HSAGPU_QSTATE_SUSPENDED));
    sdma_fence(&r, Q_MBOX, 78);
    sdma_kick(&r);
    g_usleep(20000);
    g_assert_cmpuint(qtest_readl(f.qts, Q_MBOX), ==, 77);
    qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_RESUME);
    g_assert_true(wait_u64(&f, S_PTRS, r.wp));
    g_assert_cmpuint(qtest_readl(f.qts, Q_MBOX), ==, 78);
    qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_DESTROY);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_CMD), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_DISABLED);
    fixture_fini(&f);
}

/* The same in a translated VMID: every address is a GPU VA. */
static void test_sdma_vm(void)
{
    g_autofree char *props = g_strconcat(",vram-size=1M", queue_props, NULL);
    uint32_t st;
    SdmaRing r;
    Fixture f;

    queue_fixture_props(&f, props);
    qpci_config_writel(f.gpu, PCI_BASE_ADDRESS_0, VRAM_BASE);
    qpci_config_writel(f.gpu, PCI_BASE_ADDRESS_1, 0);
    vm_tables(&f);
    vm_ctx(&f, VM_VMID, PT_ROOT, HSAGPU_VM_CNTL_ENABLE);
    msix_to_ram(&f, 1);
    qxreg_write(&f, 0, HSAGPU_QXREG_VMID, VM_VMID);
    g_assert_cmpuint(sdma_create(&r, &f, 0, 4096, 0), ==, HSAGPU_QRES_OK);
    signal_init(&f, Q_SIG, 0);
    signal_init(&f, Q_SIG + 64, 1);
    /* VA_BUF is PA_BUF; VA_VRAM is VRAM offset 0x1000 */
    sdma_seq(&f, PA_BUF, 2048);
    qtest_writel(f.qts, Q_BUF, 0x5a5a5a5a);
    SDMA_PUT(&r, 0, 0);                         /* NOPs */
    sdma_rocr_copy(&r, VA_VRAM, VA_BUF, 2048, VA_BUF + 2048, 8);
    sdma_kick(&r);
    g_assert_true(wait_u64(&f, Q_SIG + 64 + 8, 0));
    g_assert_true(wait_u64(&f, S_PTRS, r.wp));
    sdma_check_seq(&f, VRAM_BASE + 0x1000, 2048);
    g_assert_cmphex(qtest_readl(f.qts, PA_BUF + 2048), ==, 0xfeedf00d);
    g_assert_cmphex(qtest_readl(f.qts, PA_BUF + 2048 + 28), ==, 0xfeedf00d);
    g_assert_cmphex(qtest_readl(f.qts, PA_BUF + 2048 + 32), ==, 0);
    g_assert_cmphex(qtest_readl(f.qts, Q_BUF), ==, 0x5a5a5a5a);
    g_assert_true(wait_u64(&f, MSI_ADDR + 16, MSI_DATA + 1));
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_VM_WALKS), >, 0);

    /* A copy to an unmapped VA: VM fault, nothing written */
    sdma_copy(&r, VA_HOLE, VA_BUF, 64);
    sdma_fence(&r, Q_MBOX, 99);
    sdma_kick(&r);
    g_assert_true(wait_qstate(&f, 0, HSAGPU_QSTATE_ERROR));
    st = qreg_read(&f, 0, HSAGPU_QREG_STATE);
    g_assert_cmpuint(st >> HSAGPU_QSTATE_ERR_SHIFT, ==, HSAGPU_QERR_VM_FAULT);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_ERROR_ID_LO), ==,
                     r.wp - 28 - 16);
    g_assert_cmpuint(qxreg_read(&f, 0, HSAGPU_QXREG_FAULT_ADDR_LO), ==,
                     VA_HOLE);
    g_assert_cmpuint(qtest_readl(f.qts, Q_MBOX), ==, 77);
    fixture_fini(&f);
}

/* Registration checks at ENABLE and packet errors name the problem. */
static void test_sdma_errors(void)
{
    SdmaRing r;
    Fixture f;
    uint32_t st;

    queue_fixture(&f);
    g_assert_cmpuint(sdma_create(&r, &f, 0, 512, 0), ==,
                     HSAGPU_QRES_BAD_RING);
    g_assert_cmpuint(sdma_create(&r, &f, 0, 3072, 0), ==,
                     HSAGPU_QRES_BAD_RING);
    g_assert_cmpuint(sdma_create(&r, &f, 0, 4096, 6), ==,
                     HSAGPU_QRES_BAD_POINTER);
    qreg_write(&f, 0, HSAGPU_QREG_RING_LO, S_RING + 64);
    qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_ENABLE);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_CMD), ==,
                     HSAGPU_QRES_BAD_RING);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_DISABLED);

    /* A ring that starts where a previous one stopped */
    g_assert_cmpuint(sdma_create(&r, &f, 0, 4096, 8), ==, HSAGPU_QRES_OK);
    sdma_fence(&r, Q_MBOX, 1);
    SDMA_PUT(&r, 3);                            /* no such opcode */
    sdma_fence(&r, Q_MBOX, 2);
    sdma_kick(&r);
    g_assert_true(wait_qstate(&f, 0, HSAGPU_QSTATE_ERROR));
    st = qreg_read(&f, 0, HSAGPU_QREG_STATE);
    g_assert_cmpuint(st >> HSAGPU_QSTATE_ERR_SHIFT, ==,
                     HSAGPU_QERR_SDMA_OPCODE);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_ERROR_ID_LO), ==, 8 + 16);
    g_assert_cmpuint(sdma_rptr(&r), ==, 8 + 16);
    g_assert_cmpuint(qtest_readl(f.qts, Q_MBOX), ==, 1);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_PKT_ERRORS), ==, 1);

    /* DESTROY, and a new ring with a malformed packet */
    qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_DESTROY);
    g_assert_cmpuint(sdma_create(&r, &f, 0, 1024, 0), ==, HSAGPU_QRES_OK);
    SDMA_PUT(&r, HSAGPU_SDMA_OP_ATOMIC | 48U << 25, Q_SIG + 8, 0, 1, 0, 0,
             0, 0);
    sdma_kick(&r);
    g_assert_true(wait_qstate(&f, 0, HSAGPU_QSTATE_ERROR));
    st = qreg_read(&f, 0, HSAGPU_QREG_STATE);
    g_assert_cmpuint(st >> HSAGPU_QSTATE_ERR_SHIFT, ==,
                     HSAGPU_QERR_SDMA_PACKET);

    /* A write pointer more than a ring ahead */
    qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_DESTROY);
    g_assert_cmpuint(sdma_create(&r, &f, 0, 1024, 0), ==, HSAGPU_QRES_OK);
    r.wp = 2048;
    sdma_kick(&r);
    g_assert_true(wait_qstate(&f, 0, HSAGPU_QSTATE_ERROR));
    st = qreg_read(&f, 0, HSAGPU_QREG_STATE);
    g_assert_cmpuint(st >> HSAGPU_QSTATE_ERR_SHIFT, ==,
                     HSAGPU_QERR_RING_OVERRUN);

    /* A reset forgets the ring */
    qtest_system_reset(f.qts);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_DISABLED);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_FLAGS), ==, 0);
    fixture_fini(&f);
}

/*
 * Laps around a 1 KiB ring, ROCr style: a submission that would cross
 * the end pads it with zero dwords (NOPs) and starts at 0; the read
 * pointer only grows.
 */
static void test_sdma_wrap(void)
{
    static const uint32_t nop;
    SdmaRing r;
    Fixture f;

    queue_fixture(&f);
    g_assert_cmpuint(sdma_create(&r, &f, 0, 1024, 0), ==, HSAGPU_QRES_OK);
    for (uint32_t i = 1; i <= 100; i++) {
        unsigned n = 1 + i % 7;             /* fences per submission */

        if ((r.wp & 1023) + 16 * n > 1024) {
            while (r.wp & 1023) {
                sdma_put(&r, &nop, 1);
            }
        }
        for (unsigned k = 0; k < n; k++) {
            sdma_fence(&r, Q_MBOX + 4 * k, i);
        }
        sdma_kick(&r);
        g_assert_true(wait_u64(&f, S_PTRS, r.wp));
        g_assert_cmpuint(qtest_readl(f.qts, Q_MBOX + 4 * (n - 1)), ==, i);
    }
    g_assert_cmpuint(r.wp, >, 4 * 1024);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    fixture_fini(&f);
}

/*
 * COPY_LINEAR_RECT as ROCr encodes hsa_amd_memory_async_copy_rect: a
 * 5 x 3 x 2 window of 4-byte elements between differently pitched
 * buffers lands element by element, nothing around it.
 */
static void test_sdma_rect(void)
{
    const uint32_t sp = 16, ss = 16 * 8, dp = 8, ds = 8 * 6;
    SdmaRing r;
    Fixture f;

    queue_fixture(&f);
    g_assert_cmpuint(sdma_create(&r, &f, 0, 1024, 0), ==, HSAGPU_QRES_OK);
    sdma_seq(&f, Q_BUF, 4096);
    for (uint32_t i = 0; i < 1024; i++) {
        qtest_writel(f.qts, Q_BUF + 0x10000 + 4 * i, 0xcccccccc);
    }
    /* src offset (2, 1, 1), dst offset (1, 2, 0), pitches in elements */
    SDMA_PUT(&r, HSAGPU_SDMA_HDR(HSAGPU_SDMA_OP_COPY,
                                 HSAGPU_SDMA_SUBOP_COPY_LINEAR_RECT) | 2 << 29,
             Q_BUF, 0, 2 | 1 << 16, 1 | (sp - 1) << 13, ss - 1,
             Q_BUF + 0x10000, 0, 1 | 2 << 16, 0 | (dp - 1) << 13, ds - 1,
             (5 - 1) | (3 - 1) << 16, 2 - 1);
    sdma_kick(&r);
    g_assert_true(wait_u64(&f, S_PTRS, 52));
    for (uint32_t z = 0; z < 3; z++) {
        for (uint32_t y = 0; y < 6; y++) {
            for (uint32_t x = 0; x < dp; x++) {
                bool in = x >= 1 && x < 6 && y >= 2 && y < 5 && z < 2;
                uint32_t got = qtest_readl(f.qts, Q_BUF + 0x10000 +
                                           4 * (x + y * dp + z * ds));
                uint32_t want = in ? qtest_readl(f.qts, Q_BUF + 4 *
                                                 ((x - 1 + 2) +
                                                  (y - 2 + 1) * sp +
                                                  (z + 1) * ss))
                                   : 0xcccccccc;

                g_assert_cmphex(got, ==, want);
            }
        }
    }
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    fixture_fini(&f);
}

/* A ring waiting on a poll migrates and goes on at the destination. */
static void test_sdma_migration(void)
{
    g_autofree char *dir = g_dir_make_tmp("hsagpu-sdmamig-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "stream", NULL);
    g_autofree char *st = NULL;
    SdmaRing r;
    Fixture f, g = { 0 };

    queue_fixture(&f);
    g_assert_cmpuint(sdma_create(&r, &f, 0, 2048, 0), ==, HSAGPU_QRES_OK);
    qtest_writel(f.qts, Q_SIG, 0);
    sdma_fence(&r, Q_MBOX, 5);
    sdma_poll_eq(&r, Q_SIG, 1);
    sdma_fence(&r, Q_MBOX, 6);
    sdma_kick(&r);
    g_assert_true(wait_u64(&f, S_PTRS, 16));
    migrate_to_file(&f, path);
    fixture_fini(&f);

    st = migrate_from_file(&g, path);
    g_assert_cmpstr(st, ==, "completed");
    qtest_qmp_assert_success(g.qts, "{ 'execute': 'cont' }");
    g_assert_cmpuint(qreg_read(&g, 0, HSAGPU_QREG_FLAGS), ==, HSAGPU_QF_SDMA);
    g_assert_cmpuint(qreg_read(&g, 0, HSAGPU_QREG_RING_SIZE), ==, 2048);
    g_assert_cmpuint(qtest_readl(g.qts, Q_MBOX), ==, 5);
    qtest_writel(g.qts, Q_SIG, 1);
    g_assert_true(wait_u64(&g, S_PTRS, 16 + 24 + 16));
    g_assert_cmpuint(qtest_readl(g.qts, Q_MBOX), ==, 6);
    r.f = &g;
    sdma_fence(&r, Q_MBOX, 7);
    sdma_kick(&r);
    g_assert_true(wait_u64(&g, S_PTRS, r.wp));
    g_assert_cmpuint(qtest_readl(g.qts, Q_MBOX), ==, 7);
    qtest_quit(g.qts);
    unlink(path);
    rmdir(dir);
}

void hsagpu_qtest_add_sdma(void)
{
    qtest_add_func("/hsa-gpu/sdma/packets", test_sdma_packets);
    qtest_add_data_func("/hsa-gpu/mainloop/sdma/packets", test_sdma_packets,
                        run_mainloop);
    qtest_add_func("/hsa-gpu/sdma/vm", test_sdma_vm);
    qtest_add_func("/hsa-gpu/sdma/errors", test_sdma_errors);
    qtest_add_func("/hsa-gpu/sdma/wrap", test_sdma_wrap);
    qtest_add_func("/hsa-gpu/sdma/rect", test_sdma_rect);
    qtest_add_func("/hsa-gpu/sdma/migration", test_sdma_migration);
}
