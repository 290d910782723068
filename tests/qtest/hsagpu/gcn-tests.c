/*
 * hsa-gpu qtest: The GCN interpreter seen from the device: long workgroups
 * in slices, endless kernels, the set-up bound of a slice.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "hsagpu-qtest.h"

#define GCN_CODE        (Q_BUF + 0x10000)       /* descriptor; code +256 */
#define GCN_OUT         (Q_BUF + 0x20000)
#define GCN_ITERS       (1U << 20)              /* 4M wave instructions */

/*
 * Workgroups of one wave of a code object: out[lane] = the number of
 * times a loop ran, its count loaded once from the kernel arguments
 * (out[64] = 1 before the loop starts); each workgroup writes the same.
 * Hand-assembled; the encodings are llvm-mc's (gfx900).
 */
static void gcn_long_submit_n(Fixture *f, uint64_t sig, uint32_t iters,
                              uint32_t nwg)
{
    static const uint32_t code[] = {
        0xc0060100, 0x00000000,     /* s_load_dwordx2 s[4:5], s[0:1], 0x0 */
        0xc0020080, 0x00000008,     /* s_load_dword s2, s[0:1], 0x8 */
        0x7e020280,                 /* v_mov_b32 v1, 0 */
        0xbf8cc07f,                 /* s_waitcnt lgkmcnt(0) */
        0x7e040280,                 /* v_mov_b32 v2, 0 */
        0x7e060281,                 /* v_mov_b32 v3, 1 */
        0xdc708100, 0x00040302,     /* global_store_dword v2, v3, s[4:5] */
                                    /*   offset:256: "started" */
        0x68020281,                 /* v_add_u32 v1, 1, v1 */
        0x80828102,                 /* s_sub_u32 s2, s2, 1 */
        0xbf078002,                 /* s_cmp_lg_u32 s2, 0 */
        0xbf85fffc,                 /* s_cbranch_scc1 -4 */
        0x24040082,                 /* v_lshlrev_b32 v2, 2, v0 */
        0xdc708000, 0x00040102,     /* global_store_dword v2, v1, s[4:5] */
        0xbf810000,                 /* s_endpgm */
    };
    uint32_t kd[16] = { 0 };
    uint64_t args[2] = { GCN_OUT, iters };
    struct hsagpu_kernel_dispatch_packet k;

    kd[4] = 256;                    /* entry offset */
    kd[13] = 2 << 1;                /* rsrc2: two user SGPRs */
    kd[14] = 1 << 3;                /* properties: kernarg pointer */
    qtest_memwrite(f->qts, GCN_CODE, kd, sizeof(kd));
    qtest_memwrite(f->qts, GCN_CODE + 256, code, sizeof(code));
    qtest_memwrite(f->qts, Q_KARG + 256, args, sizeof(args));
    qtest_memset(f->qts, GCN_OUT, 0, 264);
    signal_init(f, sig, 1);
    fill_packet(&k, 64 * nwg, 64, sig);
    k.kernel_object = GCN_CODE;
    k.kernarg_address = Q_KARG + 256;
    queue_submit(f, 0, &k);
}

/* One workgroup of it */
static void gcn_long_submit(Fixture *f, uint64_t sig, uint32_t iters)
{
    gcn_long_submit_n(f, sig, iters, 1);
}

/* Wave instructions and vector lane operations of one gcn_long kernel */
#define GCN_LONG_INSNS(n)       (4ULL * (n) + 10)
#define GCN_LONG_LANE_OPS(n)    (64ULL * ((n) + 6))

static uint64_t gcn_cnt(Fixture *f, uint32_t reg)
{
    return reg == HSAGPU_REG_GCN_WAVES ?
           qtest_readl(f->qts, MMIO_BASE + reg) :
           qtest_readq(f->qts, MMIO_BASE + reg);
}

static unsigned gcn_long_wrong(Fixture *f, uint32_t want)
{
    unsigned bad = 0;

    for (unsigned l = 0; l < 64; l++) {
        bad += qtest_readl(f->qts, GCN_OUT + 4 * l) != want;
    }
    if (bad) {
        g_test_message("lane 0: %u, want %u", qtest_readl(f->qts, GCN_OUT),
                       want);
    }
    return bad;
}

/*
 * A workgroup of a code object is stopped between two instructions at
 * the end of each slice: another queue's packet completes while its one
 * wave still loops, and a migration while the wave is stopped carries
 * its registers, so the destination goes on with the loop count the
 * wave had loaded, not the one the guest wrote since.
 */
static void test_gcn_long_workgroup(void)
{
    g_autofree char *dir = g_dir_make_tmp("hsagpu-gcn-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "stream", NULL);
    g_autofree char *st = NULL;
    struct hsagpu_agent_dispatch_packet a;
    uint64_t big = Q_SIG + 128, nop = Q_SIG + 192;
    unsigned kernels = 1;
    bool caught = false;
    Fixture f, g = { 0 };

    queue_fixture(&f);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    gcn_long_submit(&f, big, GCN_ITERS);
    signal_init(&f, nop, 1);
    agent_packet(&a, HSAGPU_AGENT_NOP, 0, nop);
    queue_submit(&f, 1, &a);
    g_assert_true(wait_u64(&f, nop + 8, 0));
    /* done while the single wave still runs */
    g_assert_cmpuint(qtest_readq(f.qts, big + 8), ==, 1);
    g_assert_true(wait_u64_long(&f, big + 8, 0));
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    g_assert_cmpuint(gcn_long_wrong(&f, GCN_ITERS), ==, 0);
    /* the interpreter's counters: exact for this program */
    g_assert_cmpuint(gcn_cnt(&f, HSAGPU_REG_GCN_INSNS_LO), ==,
                     GCN_LONG_INSNS(GCN_ITERS));
    g_assert_cmpuint(gcn_cnt(&f, HSAGPU_REG_GCN_LANE_OPS_LO), ==,
                     GCN_LONG_LANE_OPS(GCN_ITERS));
    g_assert_cmpuint(gcn_cnt(&f, HSAGPU_REG_GCN_WAVES), ==, 1);

    for (int tries = 0; tries < 10 && !caught; tries++) {
        kernels++;
        gcn_long_submit(&f, big, GCN_ITERS);
        /* the wave has its count (and stored "started") */
        g_assert_true(wait_u64(&f, GCN_OUT + 256, 1));
        qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_SUSPEND);
        caught = qtest_readq(f.qts, big + 8) == 1;
        if (!caught) {
            qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_RESUME);
        }
    }
    if (!caught) {
        fixture_fini(&f);
        g_test_skip("the workgroup was never caught between two slices");
        return;
    }
    /* the guest changes the count the wave loaded long ago */
    qtest_writeq(f.qts, Q_KARG + 256 + 8, 3);
    migrate_to_file(&f, path);
    fixture_fini(&f);

    st = migrate_from_file(&g, path);
    g_assert_cmpstr(st, ==, "completed");
    qtest_qmp_assert_success(g.qts, "{ 'execute': 'cont' }");
    qreg_write(&g, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_RESUME);
    g_assert_true(wait_u64_long(&g, big + 8, 0));
    g_assert_cmpuint(qreg_read(&g, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    g_assert_cmpuint(gcn_long_wrong(&g, GCN_ITERS), ==, 0);
    /* the counters came along, and the workgroup was not run twice */
    g_assert_cmpuint(gcn_cnt(&g, HSAGPU_REG_GCN_INSNS_LO), ==,
                     kernels * GCN_LONG_INSNS(GCN_ITERS));
    g_assert_cmpuint(gcn_cnt(&g, HSAGPU_REG_GCN_WAVES), ==, kernels);
    qtest_quit(g.qts);
    unlink(path);
    rmdir(dir);
}

/*
 * A wave in an endless loop (s_branch -1) runs in slices: another queue's
 * packets complete meanwhile, the counters move, and DESTROY ends it.
 */
static void test_gcn_endless(void)
{
    uint32_t kd[16] = { 0 }, code = 0xbf82ffff;    /* s_branch -1 */
    struct hsagpu_kernel_dispatch_packet k;
    struct hsagpu_agent_dispatch_packet a;
    uint64_t sig = Q_SIG + 128, nop = Q_SIG + 192, i0, i1;
    Fixture f;

    queue_fixture(&f);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    kd[4] = 256;                                    /* entry offset */
    qtest_memwrite(f.qts, GCN_CODE, kd, sizeof(kd));
    qtest_memwrite(f.qts, GCN_CODE + 256, &code, 4);
    signal_init(&f, sig, 1);
    fill_packet(&k, 64, 64, sig);
    k.kernel_object = GCN_CODE;
    queue_submit(&f, 0, &k);
    for (int n = 0; n < 3; n++) {
        signal_init(&f, nop, 1);
        agent_packet(&a, HSAGPU_AGENT_NOP, 0, nop);
        queue_submit(&f, 1, &a);
        g_assert_true(wait_u64(&f, nop + 8, 0));
    }
    i0 = gcn_cnt(&f, HSAGPU_REG_GCN_INSNS_LO);
    g_usleep(20000);
    i1 = gcn_cnt(&f, HSAGPU_REG_GCN_INSNS_LO);
    g_assert_cmpuint(i1, >, i0);
    g_assert_cmpuint(qtest_readq(f.qts, sig + 8), ==, 1);
    queue_cmd(&f, 0, HSAGPU_QCMD_DESTROY, HSAGPU_QRES_OK);
    i0 = gcn_cnt(&f, HSAGPU_REG_GCN_INSNS_LO);
    g_usleep(20000);
    g_assert_cmpuint(gcn_cnt(&f, HSAGPU_REG_GCN_INSNS_LO), ==, i0);
    g_assert_cmpuint(qtest_readq(f.qts, sig + 8), ==, 1);
    fixture_fini(&f);
}

/*
 * Global wave sync on the hsa-gpu personality (HSAGPU_REG_QUEUE_GWS):
 * the capability is there; a queue's count reads 0, holds 0..64, refuses
 * 65 as a bad register access; a kernel's ds_gws_sema_v on resource 1
 * completes with 2 resources and fails the queue (ILLEGAL_INSTRUCTION, as
 * on a queue without GWS) with 1; DESTROY reads 0 again; a count goes
 * with a migration.
 */
static void test_gcn_gws(void)
{
    static const uint32_t code[] = {
        0xbefc0080,                 /* s_mov_b32 m0, 0 */
        0xd9350001, 0x00000000,     /* ds_gws_sema_v offset:1 gds */
        0xbf8cc07f,                 /* s_waitcnt lgkmcnt(0) */
        0xbf810000,                 /* s_endpgm */
    };
    g_autofree char *dir = g_dir_make_tmp("hsagpu-gws-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "stream", NULL);
    g_autofree char *st = NULL;
    struct hsagpu_kernel_dispatch_packet k;
    uint32_t kd[16] = { 0 }, bad;
    uint64_t sig = Q_SIG + 128;
    Fixture f, g = { 0 };

    queue_fixture(&f);
    g_assert_true(reg_read(&f, HSAGPU_REG_CAPS) & HSAGPU_CAP_GWS);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_QUEUE_GWS(0)), ==, 0);
    bad = reg_read(&f, HSAGPU_REG_BAD_ACCESS_COUNT);
    reg_write(&f, HSAGPU_REG_QUEUE_GWS(0), HSAGPU_GWS_MAX + 1);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_BAD_ACCESS_COUNT), ==, bad + 1);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_BAD_ACCESS_INFO), ==,
                    HSAGPU_BAD_ACCESS_WRITE | 4 |
                    HSAGPU_BAD_REASON_VALUE << HSAGPU_BAD_ACCESS_REASON_SHIFT);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_QUEUE_GWS(0)), ==, 0);
    reg_write(&f, HSAGPU_REG_QUEUE_GWS(0), HSAGPU_GWS_MAX);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_QUEUE_GWS(0)), ==,
                     HSAGPU_GWS_MAX);

    kd[4] = 256;                    /* entry offset */
    qtest_memwrite(f.qts, GCN_CODE, kd, sizeof(kd));
    qtest_memwrite(f.qts, GCN_CODE + 256, code, sizeof(code));
    reg_write(&f, HSAGPU_REG_QUEUE_GWS(0), 2);
    signal_init(&f, sig, 1);
    fill_packet(&k, 64, 64, sig);
    k.kernel_object = GCN_CODE;
    queue_submit(&f, 0, &k);
    g_assert_true(wait_u64(&f, sig + 8, 0));
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);

    reg_write(&f, HSAGPU_REG_QUEUE_GWS(0), 1);
    signal_init(&f, sig, 1);
    queue_submit(&f, 0, &k);
    expect_qerr(&f, 0, HSAGPU_QERR_ILLEGAL_INSTRUCTION);
    g_assert_cmpuint(qtest_readq(f.qts, sig + 8), ==, 1);

    queue_cmd(&f, 0, HSAGPU_QCMD_DESTROY, HSAGPU_QRES_OK);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_QUEUE_GWS(0)), ==, 0);

    /* the count goes with a migration, and the kernel runs after it */
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    reg_write(&f, HSAGPU_REG_QUEUE_GWS(1), 2);
    migrate_to_file(&f, path);
    fixture_fini(&f);
    st = migrate_from_file(&g, path);
    g_assert_cmpstr(st, ==, "completed");
    qtest_qmp_assert_success(g.qts, "{ 'execute': 'cont' }");
    g_assert_cmpuint(reg_read(&g, HSAGPU_REG_QUEUE_GWS(1)), ==, 2);
    signal_init(&g, sig, 1);
    queue_submit(&g, 1, &k);
    g_assert_true(wait_u64(&g, sig + 8, 0));
    g_assert_cmpuint(qreg_read(&g, 1, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    qtest_quit(g.qts);
    unlink(path);
    rmdir(dir);
}

/*
 * compute-threads: read back as chosen (the host's CPUs, at most
 * compute-units, by default; one under the deterministic main loop,
 * whatever was asked); twelve workgroups on three threads all run, once
 * each (the counters are exact), and so on the main loop's one.
 */
static void test_gcn_threads(void)
{
    static const char *const props[] = {
        ",compute-threads=3", ",compute-threads=3,x-processor=mainloop",
    };
    uint64_t sig = Q_SIG + 128, n;
    Fixture f;

    queue_fixture(&f);
    n = qom_get_uint(&f, "compute-threads");
    g_assert_cmpuint(n, >=, 1);
    g_assert_cmpuint(n, <=, qom_get_uint(&f, "compute-units"));
    fixture_fini(&f);
    for (unsigned i = 0; i < 2; i++) {
        queue_fixture_props(&f, props[i]);
        g_assert_cmpuint(qom_get_uint(&f, "compute-threads"), ==,
                         i ? 1 : 3);
        g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
        gcn_long_submit_n(&f, sig, 1 << 14, 12);
        g_assert_true(wait_u64_long(&f, sig + 8, 0));
        g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                         HSAGPU_QSTATE_ACTIVE);
        g_assert_cmpuint(gcn_long_wrong(&f, 1 << 14), ==, 0);
        g_assert_cmpuint(gcn_cnt(&f, HSAGPU_REG_GCN_WAVES), ==, 12);
        g_assert_cmpuint(gcn_cnt(&f, HSAGPU_REG_GCN_INSNS_LO), ==,
                         12 * GCN_LONG_INSNS(1 << 14));
        fixture_fini(&f);
    }
}

/*
 * Eight workgroups in flight on four threads, stopped between two
 * slices, migrate to a device with one thread: it goes on with all of
 * them, none lost and none run twice (the counters are exact).
 */
static void test_gcn_threads_migrate(void)
{
    g_autofree char *dir = g_dir_make_tmp("hsagpu-gcn-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "stream", NULL);
    g_autofree char *st = NULL;
    uint64_t sig = Q_SIG + 128;
    Fixture f, g = { 0 };

    queue_fixture_props(&f, ",compute-threads=4");
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    gcn_long_submit_n(&f, sig, GCN_ITERS / 4, 8);
    g_assert_true(wait_u64(&f, GCN_OUT + 256, 1));
    qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_SUSPEND);
    if (qtest_readq(f.qts, sig + 8) != 1) {
        fixture_fini(&f);
        g_test_skip("the dispatch ended before it was suspended");
        return;
    }
    g_assert_cmpuint(gcn_cnt(&f, HSAGPU_REG_GCN_WAVES), >=, 1);
    migrate_to_file(&f, path);
    fixture_fini(&f);

    st = migrate_from_file_opts(&g, path,
                                "-global hsa-gpu.compute-threads=1");
    g_assert_cmpstr(st, ==, "completed");
    g_assert_cmpuint(qom_get_uint(&g, "compute-threads"), ==, 1);
    qtest_qmp_assert_success(g.qts, "{ 'execute': 'cont' }");
    qreg_write(&g, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_RESUME);
    g_assert_true(wait_u64_long(&g, sig + 8, 0));
    g_assert_cmpuint(qreg_read(&g, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    g_assert_cmpuint(gcn_long_wrong(&g, GCN_ITERS / 4), ==, 0);
    g_assert_cmpuint(gcn_cnt(&g, HSAGPU_REG_GCN_WAVES), ==, 8);
    g_assert_cmpuint(gcn_cnt(&g, HSAGPU_REG_GCN_INSNS_LO), ==,
                     8 * GCN_LONG_INSNS(GCN_ITERS / 4));
    qtest_quit(g.qts);
    unlink(path);
    rmdir(dir);
}

/*
 * A Function Level Reset while eight workgroups run on four threads
 * stops them all at once (the counters stand still after it), and the
 * device runs a new dispatch on its threads afterwards; an unplug while
 * they run leaves QEMU going.
 */
static void test_gcn_threads_reset(void)
{
    uint64_t sig = Q_SIG + 128, i0;
    uint8_t exp;
    Fixture f;

    queue_fixture_machine(&f, "-global ICH9-LPC.acpi-pci-hotplug-with-"
                          "bridge-support=off", ",compute-threads=4");
    exp = find_cap(&f, PCI_CAP_ID_EXP);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    gcn_long_submit_n(&f, sig, GCN_ITERS, 8);
    g_assert_true(wait_u64(&f, GCN_OUT + 256, 1));
    qpci_config_writew(f.gpu, exp + PCI_EXP_DEVCTL,
                       qpci_config_readw(f.gpu, exp + PCI_EXP_DEVCTL) |
                       PCI_EXP_DEVCTL_BCR_FLR);
    gpu_reprogram(&f);
    i0 = gcn_cnt(&f, HSAGPU_REG_GCN_INSNS_LO);
    g_usleep(50000);
    g_assert_cmpuint(gcn_cnt(&f, HSAGPU_REG_GCN_INSNS_LO), ==, i0);
    g_assert_cmpuint(qtest_readq(f.qts, sig + 8), ==, 1);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    gcn_long_submit_n(&f, sig, 1 << 12, 8);
    g_assert_true(wait_u64_long(&f, sig + 8, 0));
    g_assert_cmpuint(gcn_long_wrong(&f, 1 << 12), ==, 0);

    /* busy again, and the guest powers the slot off: unplugged at once */
    gcn_long_submit_n(&f, sig, GCN_ITERS, 8);
    g_assert_true(wait_u64(&f, GCN_OUT + 256, 1));
    exp = qpci_find_capability(f.rp, PCI_CAP_ID_EXP, 0);
    qpci_config_writew(f.rp, exp + PCI_EXP_SLTCTL,
                       qpci_config_readw(f.rp, exp + PCI_EXP_SLTCTL) |
                       PCI_EXP_SLTCTL_PCC | PCI_EXP_SLTCTL_PIC);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_MAGIC), !=, HSAGPU_MAGIC_VALUE);
    qtest_qmp_assert_success(f.qts, "{ 'execute': 'query-status' }");
    fixture_fini(&f);
}

/*
 * A workgroup's set-up counts toward its slice. 512 workgroups of 1,024
 * items with the most state a descriptor can ask for (256 VGPRs, 64 KiB
 * of LDS, 2 KiB private per item: 3.1 MiB cleared each) and only
 * s_endpgm to run: a slice that counted their 16 wave instructions alone
 * would clear all 512 (1.5 GiB) while it holds the queue lock; it clears
 * at most its budget's worth (16 MiB, one instruction per KiB) plus one
 * workgroup, on each of the compute-threads that share the slice's time.
 * Every workgroup still runs.
 */
static void test_gcn_setup_bound(void)
{
    uint32_t kd[16] = { 0 }, code = 0xbf810000;    /* s_endpgm */
    struct hsagpu_kernel_dispatch_packet k;
    uint64_t sig = Q_SIG + 128, cleared, threads;
    Fixture f;

    queue_fixture(&f);
    threads = qom_get_uint(&f, "compute-threads");
    g_assert_cmpuint(threads, >=, 1);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    kd[0] = 65536;                                  /* LDS bytes */
    kd[1] = 2048;                                   /* private bytes */
    kd[4] = 256;                                    /* entry offset */
    kd[12] = 0x3f;                                  /* rsrc1: 256 VGPRs */
    qtest_memwrite(f.qts, GCN_CODE, kd, sizeof(kd));
    qtest_memwrite(f.qts, GCN_CODE + 256, &code, 4);
    signal_init(&f, sig, 1);
    fill_packet(&k, 512 * 1024, 1024, sig);
    k.kernel_object = GCN_CODE;
    queue_submit(&f, 0, &k);
    g_assert_true(wait_u64_long(&f, sig + 8, 0));
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    g_assert_cmpuint(gcn_cnt(&f, HSAGPU_REG_GCN_WAVES), ==, 512 * 16);
    g_assert_cmpuint(gcn_cnt(&f, HSAGPU_REG_GCN_INSNS_LO), ==, 512 * 16);
    cleared = qom_get_uint(&f, "x-gcn-slice-max-cleared");
    g_test_message("most cleared by one slice: %" PRIu64 " bytes", cleared);
    g_assert_cmpuint(cleared, >=, 3 * 1024 * 1024);
    g_assert_cmpuint(cleared, <=, threads * 20 * 1024 * 1024);
    fixture_fini(&f);
}

/*
 * gcn-private-budget bounds the private memory of all the device's
 * queues: a 1,024-item workgroup writing 4 MiB of scratch fails its
 * queue with error 7 on a device whose budget is 1 MiB, and runs on one
 * with the default budget, which then holds it (x-gcn-private-used).
 */
static void gcn_private_run(Fixture *f, uint64_t sig)
{
    static const uint32_t code[] = {
        0xbe840080,                 /* s_mov_b32 s4, 0 */
        0x7e040280,                 /* v_mov_b32 v2, 0 */
        0xe0701000, 0x80000002,     /* buffer_store_dword v0, v2, s[0:3] */
                                    /*   0 offen */
        0x680404c0,                 /* v_add_u32 v2, 64, v2 */
        0x80048104,                 /* s_add_u32 s4, s4, 1 */
        0xbf0aff04, 64,             /* s_cmp_lt_u32 s4, 64 */
        0xbf85fff9,                 /* s_cbranch_scc1 -7 */
        0xbf810000,                 /* s_endpgm */
    };
    uint32_t kd[16] = { 0 };
    struct hsagpu_kernel_dispatch_packet k;

    g_assert_cmpuint(queue_create(f, 0, 0), ==, HSAGPU_QRES_OK);
    kd[1] = 16384;                  /* private bytes a lane */
    kd[4] = 256;                    /* entry offset */
    kd[13] = 4 << 1;                /* rsrc2: four user SGPRs */
    kd[14] = 1 << 0;                /* properties: private segment buffer */
    qtest_memwrite(f->qts, GCN_CODE, kd, sizeof(kd));
    qtest_memwrite(f->qts, GCN_CODE + 256, code, sizeof(code));
    signal_init(f, sig, 1);
    fill_packet(&k, 1024, 1024, sig);
    k.kernel_object = GCN_CODE;
    queue_submit(f, 0, &k);
}

static void test_gcn_private_budget(void)
{
    uint64_t sig = Q_SIG + 128;
    Fixture f;

    queue_fixture_props(&f, ",gcn-private-budget=1M");
    gcn_private_run(&f, sig);
    g_assert_true(wait_qstate(&f, 0, HSAGPU_QSTATE_ERROR));
    g_assert_cmphex(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ERROR |
                    HSAGPU_QERR_KERNEL_OBJECT << HSAGPU_QSTATE_ERR_SHIFT);
    g_assert_cmpuint(qom_get_uint(&f, "x-gcn-private-used"), <=, 1 << 20);
    fixture_fini(&f);

    queue_fixture(&f);
    gcn_private_run(&f, sig);
    g_assert_true(wait_u64_long(&f, sig + 8, 0));
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    g_assert_cmpuint(qom_get_uint(&f, "x-gcn-private-used"), ==, 4 << 20);
    fixture_fini(&f);
}

void hsagpu_qtest_add_gcn(void)
{
    qtest_add_func("/hsa-gpu/gcn/long-workgroup", test_gcn_long_workgroup);
    qtest_add_func("/hsa-gpu/gcn/endless", test_gcn_endless);
    qtest_add_func("/hsa-gpu/gcn/gws", test_gcn_gws);
    qtest_add_func("/hsa-gpu/gcn/setup-bound", test_gcn_setup_bound);
    qtest_add_func("/hsa-gpu/gcn/threads", test_gcn_threads);
    qtest_add_func("/hsa-gpu/gcn/threads-migrate", test_gcn_threads_migrate);
    qtest_add_func("/hsa-gpu/gcn/threads-reset", test_gcn_threads_reset);
    qtest_add_func("/hsa-gpu/gcn/private-budget", test_gcn_private_budget);
}
