/*
 * hsa-gpu qtest: Live migration: queues, DMA in flight, bad queue and GWS
 * state in the stream, interrupts and pending work across a migration,
 * loads over used memory.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "hsagpu-qtest.h"

/* Rewrite the first big-endian u32 run @find of @path with @repl. */
static bool patch_file(const char *path, const uint32_t *find, size_t n,
                       size_t at, uint32_t repl)
{
    g_autofree char *buf = NULL;
    g_autofree uint32_t *pat = g_new(uint32_t, n);
    size_t len;

    g_assert_true(g_file_get_contents(path, &buf, &len, NULL));
    for (size_t i = 0; i < n; i++) {
        pat[i] = GUINT32_TO_BE(find[i]);
    }
    for (size_t off = 0; off + n * 4 <= len; off++) {
        if (!memcmp(buf + off, pat, n * 4)) {
            uint32_t v = GUINT32_TO_BE(repl);

            memcpy(buf + off + at * 4, &v, 4);
            return g_file_set_contents(path, buf, len, NULL);
        }
    }
    return false;
}

/*
 * Rewrite the big-endian u32 @at u32s after subsection @name's header
 * (its name, then version 1) in the stream at @path with @repl.
 */
static bool patch_subsection(const char *path, const char *name, size_t at,
                             uint32_t repl)
{
    g_autofree char *buf = NULL;
    size_t len, n = strlen(name);
    const char ver[4] = { 0, 0, 0, 1 };
    uint32_t v = GUINT32_TO_BE(repl);

    g_assert_true(g_file_get_contents(path, &buf, &len, NULL));
    for (size_t off = 1; off + n + 4 + (at + 1) * 4 <= len; off++) {
        if ((uint8_t)buf[off - 1] == n && !memcmp(buf + off, name, n) &&
            !memcmp(buf + off + n, ver, 4)) {
            memcpy(buf + off + n + 4 + at * 4, &v, 4);
            return g_file_set_contents(path, buf, len, NULL);
        }
    }
    return false;
}

/*
 * The register file and the queues survive migration: scratch and error
 * registers, a failed queue, an idle queue whose doorbell still works and
 * a queue suspended in the middle of a sliced kernel, which goes on from
 * its cursor (the counter ends exact, not one restart too high).
 */
static void test_migration(void)
{
    g_autofree char *dir = g_dir_make_tmp("hsagpu-mig-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "stream", NULL);
    g_autofree char *st = NULL;
    struct hsagpu_kernel_dispatch_packet k;
    struct hsagpu_agent_dispatch_packet a;
    uint64_t big = Q_SIG + 128, nop = Q_SIG + 192, c;
    Fixture f, g = { 0 };

    queue_fixture(&f);
    reg_write(&f, HSAGPU_REG_SCRATCH0, 0x12345678);
    reg_write(&f, HSAGPU_REG_ERROR_INT_ENABLE, HSAGPU_ERR_ALL);
    reg_write(&f, HSAGPU_REG_ERROR_STATUS, HSAGPU_ERR_ALL);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 2, 0), ==, HSAGPU_QRES_OK);
    fill_packet(&k, 4, 4, 0);
    k.header = (k.header & ~0xff) | 7;
    queue_submit(&f, 2, &k);
    g_assert_true(wait_qstate(&f, 2, HSAGPU_QSTATE_ERROR));
    qtest_writeq(f.qts, BIG_COUNTER, 0);
    submit_big(&f, big);
    qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_SUSPEND);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_SUSPENDED);
    c = qtest_readq(f.qts, BIG_COUNTER);
    g_assert_cmpuint(c, <, BIG_ITEMS);
    migrate_to_file(&f, path);
    qtest_quit(f.qts);
    g_free(f.gpu);
    g_free(f.rp);
    qpci_free_pc(f.bus);

    st = migrate_from_file(&g, path);
    g_assert_cmpstr(st, ==, "completed");
    qtest_qmp_assert_success(g.qts, "{ 'execute': 'cont' }");
    g_assert_cmphex(reg_read(&g, HSAGPU_REG_SCRATCH0), ==, 0x12345678);
    g_assert_cmphex(reg_read(&g, HSAGPU_REG_ERROR_INT_ENABLE), ==,
                    HSAGPU_ERR_ALL);
    g_assert_true(reg_read(&g, HSAGPU_REG_ERROR_STATUS) & HSAGPU_ERR_QUEUE);
    g_assert_cmphex(qreg_read(&g, 2, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ERROR |
                    HSAGPU_QERR_PACKET_TYPE << HSAGPU_QSTATE_ERR_SHIFT);
    g_assert_cmpuint(reg_read(&g, HSAGPU_REG_QUEUE_ERROR_FIRST), ==, 2);
    g_assert_cmphex(qreg_read(&g, 1, HSAGPU_QREG_RING_LO), ==,
                    Q_RING + Q_RING_SIZE * 64);
    g_assert_cmpuint(qreg_read(&g, 1, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    signal_init(&g, nop, 1);
    agent_packet(&a, HSAGPU_AGENT_NOP, 0, nop);
    queue_submit(&g, 1, &a);
    g_assert_true(wait_u64(&g, nop + 8, 0));
    g_assert_cmpuint(qtest_readq(g.qts, BIG_COUNTER), ==, c);
    qreg_write(&g, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_RESUME);
    g_assert_cmpuint(qreg_read(&g, 0, HSAGPU_QREG_CMD), ==, HSAGPU_QRES_OK);
    g_assert_true(wait_u64_long(&g, big + 8, 0));
    g_assert_cmpuint(qtest_readq(g.qts, BIG_COUNTER), ==, BIG_ITEMS);
    qtest_quit(g.qts);
    unlink(path);
    rmdir(dir);
}

#define MIG_SRC         0x2000000ULL
#define MIG_DST         0x4000000ULL
#define MIG_LEN         (32ULL << 20)   /* 8 slices of 4 MiB */
#define MIG_PATTERN     0x0d0c0b0aULL
#define MIG_WANT        (MIG_PATTERN | MIG_PATTERN << 32)

/* Queue 0 of a new fixture, and MIG_LEN bytes of MIG_PATTERN at MIG_SRC. */
static void mig_source(Fixture *f)
{
    struct hsagpu_dma_packet d;

    queue_fixture(f);
    g_assert_cmpuint(queue_create(f, 0, 0), ==, HSAGPU_QRES_OK);
    signal_init(f, Q_SIG, 1);
    dma_packet(&d, HSAGPU_DMA_OP_FILL, MIG_SRC, 0, MIG_LEN, Q_SIG);
    d.pattern = MIG_PATTERN;
    queue_submit(f, 0, &d);
    g_assert_true(wait_u64_long(f, Q_SIG + 8, 0));
}

/*
 * Submit @pkt, a copy of MIG_SRC to MIG_DST, on queue 0 made anew with
 * @flags, and SUSPEND the queue right after its doorbell, until the copy
 * is caught between two slices (its start copied, its end not, its
 * signal not done); the ring slot of the packet in *slot. Catching it
 * depends on the host's speed: false when ten tries never did.
 */
static bool mig_catch_copy(Fixture *f, const void *pkt, uint32_t flags,
                           uint64_t *slot)
{
    for (int tries = 0; tries < 10; tries++) {
        uint64_t first, last;

        queue_cmd(f, 0, HSAGPU_QCMD_DESTROY, HSAGPU_QRES_OK);
        g_assert_cmpuint(queue_create(f, 0, flags), ==, HSAGPU_QRES_OK);
        qtest_writeq(f->qts, MIG_DST, 0);
        qtest_writeq(f->qts, MIG_DST + MIG_LEN - 8, 0);
        signal_init(f, Q_SIG, 1);
        *slot = Q_RING + (queue_submit(f, 0, pkt) % Q_RING_SIZE) * 64;
        qreg_write(f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_SUSPEND);
        first = qtest_readq(f->qts, MIG_DST);
        last = qtest_readq(f->qts, MIG_DST + MIG_LEN - 8);
        if (qtest_readq(f->qts, Q_SIG + 8) == 1 && first == MIG_WANT &&
            last == 0) {
            return true;
        }
    }
    return false;
}

/* Migrate @f through @path into @g, which then runs. */
static void mig_move(Fixture *f, Fixture *g, const char *path)
{
    g_autofree char *st = NULL;

    migrate_to_file(f, path);
    fixture_fini(f);
    st = migrate_from_file(g, path);
    g_assert_cmpstr(st, ==, "completed");
    qtest_qmp_assert_success(g->qts, "{ 'execute': 'cont' }");
}

/* RESUME the suspended copy on @g: it completes, the queue stays up. */
static void mig_finish_copy(Fixture *g)
{
    qreg_write(g, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_RESUME);
    g_assert_true(wait_u64_long(g, Q_SIG + 8, 0));
    g_assert_cmpuint(qreg_read(g, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    g_assert_cmphex(qtest_readq(g->qts, MIG_DST + MIG_LEN - 8), ==, MIG_WANT);
    g_assert_cmphex(qtest_readq(g->qts, MIG_DST + MIG_LEN), ==, 0);
}

/*
 * A DMA copy caught between slices (SUSPEND right after its doorbell)
 * migrates with the packet the device fetched: the guest rewrites the
 * ring slot (an invalid op and a huge size) before the migration, yet on
 * the destination the copy completes as submitted. Catching it between
 * slices depends on the host's speed: the test retries, and skips if the
 * copy always finished (or had not started) by the time SUSPEND landed.
 */
static void test_migration_dma(void)
{
    g_autofree char *dir = g_dir_make_tmp("hsagpu-mig-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "stream", NULL);
    struct hsagpu_dma_packet d;
    uint64_t slot;
    Fixture f, g = { 0 };

    mig_source(&f);
    dma_packet(&d, HSAGPU_DMA_OP_COPY, MIG_DST, MIG_SRC, MIG_LEN, Q_SIG);
    if (!mig_catch_copy(&f, &d, 0, &slot)) {
        fixture_fini(&f);
        g_test_skip("the copy was never caught between two slices");
        return;
    }
    /* The guest scribbles over the slot of the packet in flight. */
    qtest_writeb(f.qts, slot + offsetof(struct hsagpu_dma_packet, format),
                 0x55);
    qtest_writeb(f.qts, slot + offsetof(struct hsagpu_dma_packet, op), 99);
    qtest_writeq(f.qts, slot + offsetof(struct hsagpu_dma_packet, size),
                 1ULL << 39);
    mig_move(&f, &g, path);
    mig_finish_copy(&g);
    qtest_quit(g.qts);
    unlink(path);
    rmdir(dir);
}

/*
 * ROCr's CopyAligned blit kernel on a ROCr queue (AMD_QUEUE), caught
 * between two of its 4 MiB slices and migrated: its byte cursor
 * (blit_off, subsection hsa-gpu/queue/blit) goes with the queue, so the
 * destination finishes the copy where the source stopped, with the one
 * DMA packet the dispatch counts.
 */
static void test_migration_blit(void)
{
    g_autofree char *dir = g_dir_make_tmp("hsagpu-mig-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "stream", NULL);
    uint8_t code[BLIT_ALIGNED_LEN], zero[256] = { 0 };
    struct hsagpu_kernel_dispatch_packet k;
    uint64_t args[11] = { 0 }, slot;
    uint32_t npkt;
    Fixture f, g = { 0 };

    if (!rocr_copy_aligned(code)) {
        g_test_skip("no ROCr 5.2.3 library with its blit kernels");
        return;
    }
    mig_source(&f);
    qtest_memwrite(f.qts, BLIT_CODE, zero, sizeof(zero));
    qtest_writeq(f.qts, BLIT_CODE + 16, 256);
    qtest_memwrite(f.qts, BLIT_CODE + 256, code, sizeof(code));
    /* phase 3 (dwords) is all of it; VMID 0: bus addresses */
    args[0] = args[2] = args[4] = MIG_SRC;
    args[1] = args[3] = args[5] = MIG_DST;
    args[6] = args[8] = MIG_SRC + MIG_LEN;
    args[7] = args[9] = MIG_DST + MIG_LEN;
    args[10] = 512;
    qtest_memwrite(f.qts, Q_KARG, args, sizeof(args));
    fill_packet(&k, 512, 64, Q_SIG);
    k.kernel_object = BLIT_CODE;
    if (!mig_catch_copy(&f, &k, HSAGPU_QF_AMD_QUEUE, &slot)) {
        fixture_fini(&f);
        g_test_skip("the blit was never caught between two slices");
        return;
    }
    npkt = reg_read(&f, HSAGPU_REG_DMA_PACKETS);
    mig_move(&f, &g, path);
    /* the source wrote the start; the destination must not redo it */
    qtest_writeq(g.qts, MIG_DST, 0);
    mig_finish_copy(&g);
    g_assert_cmphex(qtest_readq(g.qts, MIG_DST), ==, 0);
    /* the blit is one DMA packet, counted when it completes */
    g_assert_cmpuint(reg_read(&g, HSAGPU_REG_DMA_PACKETS), ==, npkt + 1);
    qtest_quit(g.qts);
    unlink(path);
    rmdir(dir);
}

/*
 * A stream whose enabled queue has an impossible priority (an index into
 * the scheduler's table) is refused by post_load; QEMU stays up.
 */
static void test_migration_bad_queue(void)
{
    g_autofree char *dir = g_dir_make_tmp("hsagpu-mig-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "stream", NULL);
    g_autofree char *st = NULL;
    /* queue 1's registration as VMState sends it, up to PRIORITY */
    const uint32_t reg[8] = {
        Q_RING + Q_RING_SIZE * 64, 0, Q_RING_SIZE, 1,
        Q_DESC + 256 + HSAGPU_QUEUE_DESC_RPTR, 0,
        Q_DESC + 256 + HSAGPU_QUEUE_DESC_WPTR, 0,
    };
    Fixture f, g = { 0 };

    queue_fixture(&f);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    migrate_to_file(&f, path);
    fixture_fini(&f);
    g_assert_true(patch_file(path, reg, 8, 8, 0x40000000));

    st = migrate_from_file(&g, path);
    g_assert_cmpstr(st, ==, "failed");
    g_assert_cmphex(reg_read(&g, HSAGPU_REG_MAGIC), ==, HSAGPU_MAGIC_VALUE);
    qtest_quit(g.qts);
    unlink(path);
    rmdir(dir);
}

/*
 * A stream whose queue claims more global wave sync resources than the
 * register holds (num_gws) or the interpreter has counters for (the
 * counters' num, which bounds a ds_gws_* resource index) is refused on
 * load; QEMU stays up, and the unpatched stream still loads.
 */
static void test_migration_bad_gws(void)
{
    g_autofree char *dir = g_dir_make_tmp("hsagpu-mig-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "stream", NULL);
    g_autofree char *good = NULL;
    size_t len;
    /* u32s after the header: num_gws, then the counters' num */
    static const struct {
        size_t at;
        uint32_t val;
    } bad[] = {
        { 0, HSAGPU_GWS_MAX + 1 }, { 1, HSAGPU_GWS_MAX + 1 },
        { 1, 0xffffffff },
    };
    Fixture f;

    queue_fixture(&f);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    reg_write(&f, HSAGPU_REG_QUEUE_GWS(1), 2);
    migrate_to_file(&f, path);
    fixture_fini(&f);
    g_assert_true(g_file_get_contents(path, &good, &len, NULL));

    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        g_autofree char *st = NULL;
        Fixture g = { 0 };

        g_assert_true(g_file_set_contents(path, good, len, NULL));
        g_assert_true(patch_subsection(path, "hsa-gpu/queue/gws", bad[i].at,
                                       bad[i].val));
        st = migrate_from_file(&g, path);
        g_assert_cmpstr(st, ==, "failed");
        g_assert_cmphex(reg_read(&g, HSAGPU_REG_MAGIC), ==,
                        HSAGPU_MAGIC_VALUE);
        qtest_quit(g.qts);
    }

    {
        g_autofree char *st = NULL;
        Fixture g = { 0 };

        g_assert_true(g_file_set_contents(path, good, len, NULL));
        st = migrate_from_file(&g, path);
        g_assert_cmpstr(st, ==, "completed");
        qtest_qmp_assert_success(g.qts, "{ 'execute': 'cont' }");
        g_assert_cmpuint(reg_read(&g, HSAGPU_REG_QUEUE_GWS(1)), ==, 2);
        qtest_quit(g.qts);
    }
    unlink(path);
    rmdir(dir);
}

/* Until @qts reports the VM running; then the main loop went round. */
static void wait_running(QTestState *qts)
{
    for (;;) {
        QDict *rsp = qtest_qmp_assert_success_ref(qts, "{ 'execute': "
                                                  "'query-status' }");
        bool running = qdict_get_bool(rsp, "running");

        qobject_unref(rsp);
        if (running) {
            break;
        }
        g_usleep(1000);
    }
    /* Bottom halves scheduled when it started have run. */
    qtest_qmp_assert_success(qts, "{ 'execute': 'query-status' }");
}

/*
 * Review of dev, finding 5: an error interrupt the guest got is not sent
 * again by the destination. Before the fix every load raised it again
 * while an enabled ERROR_STATUS bit was latched: one more message per
 * migration, loadvm or COLO checkpoint (the MSI-X write came back here).
 */
static void test_migration_error_irq(void)
{
    g_autofree char *dir = g_dir_make_tmp("hsagpu-mig-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "stream", NULL);
    g_autofree char *st = NULL;
    Fixture f, g = { 0 };

    queue_fixture(&f);
    msix_to_ram(&f, HSAGPU_MSIX_VEC_ERROR);
    reg_write(&f, HSAGPU_REG_ERROR_INT_ENABLE, HSAGPU_ERR_ALL);
    reg_write(&f, HSAGPU_REG_MAGIC, 1);        /* read-only: bad access */
    g_assert_true(reg_read(&f, HSAGPU_REG_ERROR_STATUS) &
                  HSAGPU_ERR_BAD_MMIO);
    g_assert_cmphex(qtest_readl(f.qts, MSI_ADDR), ==, MSI_DATA);
    /* The guest took it. */
    qtest_writel(f.qts, MSI_ADDR, 0);
    migrate_to_file(&f, path);
    fixture_fini(&f);

    st = migrate_from_file(&g, path);
    g_assert_cmpstr(st, ==, "completed");
    qtest_qmp_assert_success(g.qts, "{ 'execute': 'cont' }");
    wait_running(g.qts);
    g_assert_true(reg_read(&g, HSAGPU_REG_ERROR_STATUS) &
                  HSAGPU_ERR_BAD_MMIO);
    g_assert_cmphex(qtest_readl(g.qts, MSI_ADDR), ==, 0);
    qtest_quit(g.qts);
    unlink(path);
    rmdir(dir);
}

/*
 * Review of dev, finding 6 (vmstate_hsagpu_pending never exercised), and
 * finding 5's other half: an error interrupt raised while the VM is
 * stopped is not sent to the stopped VM; it waits in the pending state,
 * travels through a destination that never runs (incoming with -S, then
 * migrated again) and arrives when the last destination runs. Before,
 * the message was written into the stopped VM's RAM at once.
 */
static void test_migration_pending(void)
{
    g_autofree char *dir = g_dir_make_tmp("hsagpu-mig-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "stream", NULL);
    g_autofree char *path2 = g_build_filename(dir, "stream2", NULL);
    g_autofree char *st = NULL, *st2 = NULL;
    Fixture f, g = { 0 }, h = { 0 };

    queue_fixture(&f);
    msix_to_ram(&f, HSAGPU_MSIX_VEC_ERROR);
    reg_write(&f, HSAGPU_REG_ERROR_INT_ENABLE, HSAGPU_ERR_ALL);
    qtest_qmp_assert_success(f.qts, "{ 'execute': 'stop' }");
    reg_write(&f, HSAGPU_REG_MAGIC, 1);        /* read-only: bad access */
    g_assert_true(reg_read(&f, HSAGPU_REG_ERROR_STATUS) &
                  HSAGPU_ERR_BAD_MMIO);
    g_assert_cmphex(qtest_readl(f.qts, MSI_ADDR), ==, 0);
    migrate_to_file(&f, path);
    fixture_fini(&f);

    st = migrate_from_file_opts(&g, path, "-S");
    g_assert_cmpstr(st, ==, "completed");
    qtest_qmp_assert_success(g.qts, "{ 'execute': 'query-status' }");
    g_assert_cmphex(qtest_readl(g.qts, MSI_ADDR), ==, 0);
    migrate_to_file(&g, path2);
    qtest_quit(g.qts);

    st2 = migrate_from_file(&h, path2);
    g_assert_cmpstr(st2, ==, "completed");
    /* The source was stopped: so is the destination, until cont. */
    qtest_qmp_assert_success(h.qts, "{ 'execute': 'query-status' }");
    g_assert_cmphex(qtest_readl(h.qts, MSI_ADDR), ==, 0);
    qtest_qmp_assert_success(h.qts, "{ 'execute': 'cont' }");
    g_assert_true(wait_u64(&h, MSI_ADDR, MSI_DATA));
    qtest_quit(h.qts);
    unlink(path);
    unlink(path2);
    rmdir(dir);
}

/*
 * Finding 9: post_load assumed a freshly reset device and added doorbell
 * ioeventfds without removing those already registered. Loading over a
 * device in use (COLO does; here the destination's queues are set up
 * before the incoming stream) left stale or duplicate ones: 8-byte writes
 * to such a doorbell never reached the device again (KVM aborts QEMU on
 * the duplicate). The doorbell read-back shows where writes go.
 */
static void test_load_over_used(void)
{
    g_autofree char *dir = g_dir_make_tmp("hsagpu-mig-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "stream", NULL);
    g_autofree char *uri = g_strdup_printf("file:%s", path);
    g_autofree char *st = NULL;
    Fixture f, g;

    queue_fixture(&f);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    migrate_to_file(&f, path);
    fixture_fini(&f);

    /* Queue 0 (only here) and queue 1 (also in the stream) in use. */
    queue_fixture_machine(&g, "-incoming defer", queue_props);
    g_assert_cmpuint(queue_create(&g, 0, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&g, 1, 0), ==, HSAGPU_QRES_OK);
    qtest_qmp_assert_success(g.qts, "{ 'execute': 'migrate-incoming', "
                             "'arguments': { 'uri': %s, "
                             "'exit-on-error': false } }", uri);
    st = migrate_wait(g.qts);
    g_assert_cmpstr(st, ==, "completed");
    qtest_qmp_assert_success(g.qts, "{ 'execute': 'cont' }");
    g_assert_cmpuint(qreg_read(&g, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_DISABLED);
    qtest_writeq(g.qts, DB_BASE, 0x1234);
    g_assert_cmphex(qtest_readq(g.qts, DB_BASE), ==, 0x1234);
    g_assert_cmpuint(qreg_read(&g, 1, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    nop_pass(&g, Q_SIG);
    queue_cmd(&g, 1, HSAGPU_QCMD_DESTROY, HSAGPU_QRES_OK);
    qtest_writeq(g.qts, DB_BASE + 8, 0x5678);
    g_assert_cmphex(qtest_readq(g.qts, DB_BASE + 8), ==, 0x5678);
    fixture_fini(&g);
    unlink(path);
    rmdir(dir);
}

void hsagpu_qtest_add_migration(void)
{
    qtest_add_func("/hsa-gpu/migration", test_migration);
    qtest_add_func("/hsa-gpu/migration-bad-queue", test_migration_bad_queue);
    qtest_add_func("/hsa-gpu/migration-bad-gws", test_migration_bad_gws);
    qtest_add_func("/hsa-gpu/migration-dma", test_migration_dma);
    qtest_add_func("/hsa-gpu/migration-blit", test_migration_blit);
    qtest_add_func("/hsa-gpu/reliability/migration-error-irq",
                   test_migration_error_irq);
    qtest_add_func("/hsa-gpu/reliability/migration-pending",
                   test_migration_pending);
    qtest_add_func("/hsa-gpu/reliability/load-over-used",
                   test_load_over_used);
}
