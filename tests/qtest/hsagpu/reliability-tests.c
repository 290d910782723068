/*
 * hsa-gpu qtest: Reliability findings: the processor without the BQL, bus-
 * master races, the queue lock budget of a pass, realize failures, unplug
 * while busy, intel-iommu wrong-sized accesses (patches/0007).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "hsagpu-qtest.h"

/*
 * Finding 1: the queue processor never waits for the BQL (so that
 * unrealize can join it without dropping the BQL). While the main thread
 * holds the BQL, packets that raise interrupts and barriers the test
 * opens through guest RAM keep completing.
 */
static void test_processor_without_bql(void)
{
    struct hsagpu_agent_dispatch_packet a;
    struct hsagpu_barrier_packet b;
    uint64_t s1 = Q_SIG, x = Q_SIG + 64, s3 = Q_SIG + 128, y = Q_SIG + 192;
    uint64_t s5 = Q_SIG + 256;
    SharedRam r;
    Fixture f;
    bool s3_done, s5_done;
    int fd;

    shared_ram_init(&r);
    queue_fixture_machine(&f, r.machine, "");
    shared_ram_map(&r);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    signal_init(&f, x, 1);
    signal_init(&f, y, 1);
    submit_nop_irq(&f, 0, s1);
    barrier_packet(&b, x);
    queue_submit(&f, 0, &b);
    submit_nop_irq(&f, 0, s3);
    barrier_packet(&b, y);
    queue_submit(&f, 0, &b);
    signal_init(&f, s5, 1);
    agent_packet(&a, HSAGPU_AGENT_NOP, 0, s5);
    queue_submit(&f, 0, &a);
    g_assert_true(wait_u64(&f, s1 + 8, 0));

    fd = hold_bql(&f, &r);
    /* An interrupt after the barrier, then a barrier: the BQL is held. */
    __atomic_store_n(shm_u64(&r, x + 8), 0, __ATOMIC_RELEASE);
    s3_done = shm_wait(&r, s3 + 8, 0);
    __atomic_store_n(shm_u64(&r, y + 8), 0, __ATOMIC_RELEASE);
    s5_done = s3_done && shm_wait(&r, s5 + 8, 0);
    release_bql(&f, fd);

    g_assert_true(s3_done);
    g_assert_true(s5_done);
    g_assert_cmpuint(qtest_readq(f.qts, Q_MBOX), ==, 1);
    fixture_fini(&f);
    shared_ram_fini(&r);
}

/*
 * Run the current test's body in a subprocess: a deadlocked QEMU is a
 * failure after @secs, not a stalled suite (QEMU dies with its parent).
 */
static bool in_subprocess_guarded(unsigned secs)
{
    if (g_test_subprocess()) {
        return true;
    }
    g_test_trap_subprocess(NULL, (guint64)secs * G_TIME_SPAN_SECOND,
                           G_TEST_SUBPROCESS_INHERIT_STDERR);
    g_test_trap_assert_passed();
    return false;
}

#define DEADLOCK_ROUNDS 40

/*
 * Finding 2: the review's reproducer. Without AtomicOp Requester Enable
 * every workgroup of a huge ATOMIC_INC reads and writes through the
 * DMA path; turning bus mastering off in the middle makes the address
 * space change under the processor, and a queue register read follows.
 * Before the fix the processor dispatched into MMIO (taking the BQL
 * while it held the queue lock) and QEMU deadlocked.
 */
static void test_bus_master_off_race(void)
{
    uint8_t exp;
    Fixture f;

    if (!in_subprocess_guarded(120)) {
        return;
    }
    queue_fixture(&f);
    exp = find_cap(&f, PCI_CAP_ID_EXP);
    qpci_config_writew(f.gpu, exp + PCI_EXP_DEVCTL2, 0);
    for (int i = 0; i < DEADLOCK_ROUNDS; i++) {
        struct hsagpu_kargs_atomic_inc args = { .counter = BIG_COUNTER };
        struct hsagpu_kernel_dispatch_packet k;

        qpci_config_writew(f.gpu, PCI_COMMAND,
                           PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
        qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_DESTROY);
        g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
        qtest_memwrite(f.qts, Q_KARG + 128, &args, sizeof(args));
        fill_packet(&k, 0xffffffffU, 1, 0);
        k.kernel_object = HSAGPU_KERNEL_ATOMIC_INC;
        k.kernarg_address = Q_KARG + 128;
        queue_submit(&f, 0, &k);
        g_usleep(20000);
        qpci_config_writew(f.gpu, PCI_COMMAND, PCI_COMMAND_MEMORY);
        qreg_read(&f, 0, HSAGPU_QREG_STATE);
    }
    fixture_fini(&f);
}

#define PASS_DMA_SIZE   (4 << 20)
#define PASS_DMA_SRC    0x1000000ULL
#define PASS_DMA_DST    0x1800000ULL
#define PASS_PACKETS    8

/*
 * Eight 4 MiB copies, each done in one slice, published at once, with a
 * pass budget of @budget slices (x-pass-slices): no pass runs more (the
 * most one ran, x-pass-max-slices, is measured where slices run). Before
 * the first fix one pass ran all of them (16 GiB possible with 64 queues
 * of 64 packets) while holding the queue lock. The main loop serves no
 * register access during a run, so there a pass runs exactly @budget;
 * the thread yields after one slice when a qtest read waits.
 */
static void pass_budget(unsigned budget)
{
    g_autofree char *props = g_strdup_printf("%s,x-pass-slices=%u",
                                             queue_props, budget);
    uint64_t ring = Q_RING, wptr = Q_DESC + HSAGPU_QUEUE_DESC_WPTR;
    uint64_t sig = Q_SIG, max;
    struct hsagpu_dma_packet d;
    Fixture f;

    queue_fixture_props(&f, props);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    signal_init(&f, sig, PASS_PACKETS);
    for (unsigned i = 0; i < PASS_PACKETS; i++) {
        dma_packet(&d, HSAGPU_DMA_OP_COPY, PASS_DMA_DST, PASS_DMA_SRC,
                   PASS_DMA_SIZE, sig);
        qtest_memwrite(f.qts, ring + 64 * i + 4, (uint8_t *)&d + 4, 60);
        qtest_writel(f.qts, ring + 64 * i, *(uint32_t *)&d);
    }
    qtest_writeq(f.qts, wptr, PASS_PACKETS);
    qtest_writeq(f.qts, DB_BASE, PASS_PACKETS - 1);
    g_assert_true(wait_u64_long(&f, sig + 8, 0));
    max = qom_get_uint(&f, "x-pass-max-slices");
    g_assert_cmpuint(max, >=, 1);
    g_assert_cmpuint(max, <=, budget);
    if (strstr(queue_props, "mainloop")) {
        g_assert_cmpuint(max, ==, budget);
    }
    fixture_fini(&f);
}

/* Review of dev, finding 6: the budget is the test's, not a copy. */
static void test_pass_budget(void)
{
    pass_budget(1);
    pass_budget(3);
}

/* The lowest file descriptor number free in process @pid. */
static int lowest_free_fd(pid_t pid)
{
    g_autofree char *dir = g_strdup_printf("/proc/%d/fd", (int)pid);

    for (int fd = 0;; fd++) {
        g_autofree char *p = g_strdup_printf("%s/%d", dir, fd);

        if (access(p, F_OK)) {
            return fd;
        }
    }
}

/*
 * Realize refuses what it cannot set up, with a clear error, and undoes
 * what it did: QEMU stays up, the VM can stop and run (no handler of the
 * failed device left), and the same device can be added afterwards.
 * Before the fix the eventfd's failure was ignored (device_add succeeded
 * with a notifier of fd -1; a later ENABLE would make KVM abort).
 */
static void test_realize_failure(void)
{
    QTestState *qts = qtest_init("-M q35 -nic none "
                                 "-device pcie-root-port,id=rp1,"
                                 "bus=pcie.0,chassis=2,addr=0x5");
    pid_t pid = qtest_pid(qts);
    struct rlimit old, tight;
    QDict *rsp;

    g_assert_cmpint(prlimit(pid, RLIMIT_NOFILE, NULL, &old), ==, 0);
    tight = old;
    tight.rlim_cur = lowest_free_fd(pid);
    g_assert_cmpint(prlimit(pid, RLIMIT_NOFILE, &tight, NULL), ==, 0);
    device_add_gpu1(qts, "", "hsa-gpu: cannot create the queue processor");
    g_assert_cmpint(prlimit(pid, RLIMIT_NOFILE, &old, NULL), ==, 0);

    device_add_gpu1(qts, ", 'x-processor': 'sideways'",
                    "x-processor must be auto, thread or mainloop");
    device_add_gpu1(qts, ", 'x-pass-slices': 0",
                    "x-pass-slices must be at least 1");
    qtest_qmp_assert_success(qts, "{ 'execute': 'stop' }");
    qtest_qmp_assert_success(qts, "{ 'execute': 'cont' }");
    device_add_gpu1(qts, "", NULL);
    rsp = qtest_qmp(qts, "{ 'execute': 'qom-get', 'arguments': { 'path': "
                    "'/machine/peripheral/gpu1', 'property': "
                    "'x-pass-max-slices' } }");
    g_assert_cmpint(qdict_get_int(rsp, "return"), ==, 0);
    qobject_unref(rsp);
    qtest_quit(qts);
}

/*
 * Unplug of a device whose processor is busy, in a slot the guest powered
 * off (finding 1's path): unrealize stops the processor with the BQL
 * held, the device is gone, QEMU goes on. (This passed before the fix
 * too: the window it had needed a second vCPU, which qtest has not.)
 */
static void test_unplug_busy(void)
{
    uint8_t exp;
    Fixture f;
    QDict *rsp;

    /* Native PCIe hotplug (the slot's power controller), not ACPI. */
    queue_fixture_machine(&f, "-global ICH9-LPC.acpi-pci-hotplug-with-"
                          "bridge-support=off", queue_props);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    qtest_writeq(f.qts, BIG_COUNTER, 0);
    submit_big(&f, Q_SIG + 128);
    for (int i = 0; i < 5000 && !qtest_readq(f.qts, BIG_COUNTER); i++) {
        g_usleep(1000);
    }
    g_assert_cmpuint(qtest_readq(f.qts, BIG_COUNTER), !=, 0);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 128 + 8), ==, 1);
    /* The guest powers the slot off: QEMU unplugs the device at once. */
    exp = qpci_find_capability(f.rp, PCI_CAP_ID_EXP, 0);
    qpci_config_writew(f.rp, exp + PCI_EXP_SLTCTL,
                       qpci_config_readw(f.rp, exp + PCI_EXP_SLTCTL) |
                       PCI_EXP_SLTCTL_PCC | PCI_EXP_SLTCTL_PIC);
    rsp = qtest_qmp(f.qts, "{ 'execute': 'qom-get', 'arguments': { 'path': "
                    "'/machine/peripheral/gpu0', 'property': "
                    "'x-pass-max-slices' } }");
    g_assert_true(qdict_haskey(rsp, "error"));
    qobject_unref(rsp);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_MAGIC), !=, HSAGPU_MAGIC_VALUE);
    /* Config writes to where it was (the old window's crash) do nothing. */
    qpci_config_writew(f.gpu, PCI_COMMAND, PCI_COMMAND_MEMORY);
    qpci_config_writel(f.gpu, PCI_BASE_ADDRESS_5, MMIO_BASE + 0x100000);
    qtest_qmp_assert_success(f.qts, "{ 'execute': 'query-status' }");
    fixture_fini(&f);
}

#define VTD_BASE        0xfed90000ULL   /* Q35_HOST_BRIDGE_IOMMU_ADDR */
#define VTD_VER         0x00
#define VTD_CAP         0x08
#define VTD_RTADDR      0x20
#define VTD_FSTS        0x34
#define VTD_FECTL       0x38
#define VTD_FEDATA      0x3c
#define VTD_ICS         0x9c
#define VTD_IECTL       0xa0
#define VTD_IEDATA      0xa4
#define VTD_IEADDR      0xa8
#define VTD_CTL_IM      0x80000000u     /* FECTL/IECTL interrupt mask */

/*
 * QEMU 10.0's VT-d handlers assert(size == 4) on the 32-bit registers;
 * its MemoryRegionOps take 8-byte accesses, so one guest quadword store
 * to FECTL, IECTL or IEADDR (8-byte aligned) aborted QEMU. With patch
 * 0007 they are guest errors: logged, the write dropped. 1- and 2-byte
 * accesses are refused by the memory core (.valid): dropped, reads 0.
 */
static void test_vtd_wrong_size(void)
{
    static const uint32_t regs32[] = {
        VTD_FSTS, VTD_FECTL, VTD_FEDATA, VTD_ICS, VTD_IECTL, VTD_IEDATA,
        VTD_IEADDR,
    };
    QTestState *qts = qtest_init("-M q35 -nic none -device intel-iommu");
    uint64_t cap = qtest_readq(qts, VTD_BASE + VTD_CAP);
    unsigned i;

    g_assert_cmphex(qtest_readl(qts, VTD_BASE + VTD_VER), ==, 0x10);
    g_assert_cmphex(cap, !=, 0);
    g_assert_cmphex(qtest_readl(qts, VTD_BASE + VTD_FECTL), ==, VTD_CTL_IM);
    g_assert_cmphex(qtest_readl(qts, VTD_BASE + VTD_IECTL), ==, VTD_CTL_IM);
    qtest_writel(qts, VTD_BASE + VTD_FEDATA, 0x1234);
    qtest_writel(qts, VTD_BASE + VTD_IEDATA, 0x4321);
    qtest_writel(qts, VTD_BASE + VTD_IEADDR, 0xfee00000);

    /* 8 bytes at the 8-byte aligned 32-bit registers: used to abort */
    qtest_writeq(qts, VTD_BASE + VTD_FECTL, 0);
    qtest_writeq(qts, VTD_BASE + VTD_IECTL, 0);
    qtest_writeq(qts, VTD_BASE + VTD_IEADDR, 0xfffffffcfffffffcULL);
    g_assert_cmphex(qtest_readl(qts, VTD_BASE + VTD_FECTL), ==, VTD_CTL_IM);
    g_assert_cmphex(qtest_readl(qts, VTD_BASE + VTD_FEDATA), ==, 0x1234);
    g_assert_cmphex(qtest_readl(qts, VTD_BASE + VTD_IECTL), ==, VTD_CTL_IM);
    g_assert_cmphex(qtest_readl(qts, VTD_BASE + VTD_IEDATA), ==, 0x4321);
    g_assert_cmphex(qtest_readl(qts, VTD_BASE + VTD_IEADDR), ==, 0xfee00000);
    /* 8-byte reads have no side effects: they return both registers */
    g_assert_cmphex(qtest_readq(qts, VTD_BASE + VTD_FECTL), ==,
                    (0x1234ULL << 32) | VTD_CTL_IM);
    g_assert_cmphex(qtest_readq(qts, VTD_BASE + VTD_IECTL), ==,
                    (0x4321ULL << 32) | VTD_CTL_IM);
    qtest_readq(qts, VTD_BASE + VTD_IEADDR);

    /* 1 and 2 bytes: refused, writes dropped, reads 0 */
    for (i = 0; i < ARRAY_SIZE(regs32); i++) {
        uint64_t r = VTD_BASE + regs32[i];
        uint32_t old = qtest_readl(qts, r);

        qtest_writeb(qts, r, 0xff);
        qtest_writeb(qts, r + 3, 0);
        qtest_writew(qts, r, 0xffff);
        qtest_writew(qts, r + 2, 0);
        g_assert_cmphex(qtest_readb(qts, r + 3), ==, 0);
        g_assert_cmphex(qtest_readw(qts, r + 2), ==, 0);
        g_assert_cmphex(qtest_readl(qts, r), ==, old);
    }

    /* QEMU is alive and the registers work at their sizes */
    qtest_writel(qts, VTD_BASE + VTD_FECTL, 0);
    qtest_writel(qts, VTD_BASE + VTD_IECTL, 0);
    g_assert_cmphex(qtest_readl(qts, VTD_BASE + VTD_FECTL), ==, 0);
    g_assert_cmphex(qtest_readl(qts, VTD_BASE + VTD_IECTL), ==, 0);
    qtest_writeq(qts, VTD_BASE + VTD_RTADDR, 0x123456789000ULL);
    g_assert_cmphex(qtest_readq(qts, VTD_BASE + VTD_RTADDR), ==,
                    0x123456789000ULL);
    g_assert_cmphex(qtest_readl(qts, VTD_BASE + VTD_RTADDR + 4), ==, 0x1234);
    g_assert_cmphex(qtest_readl(qts, VTD_BASE + VTD_VER), ==, 0x10);
    g_assert_cmphex(qtest_readq(qts, VTD_BASE + VTD_CAP), ==, cap);
    qtest_quit(qts);
}

void hsagpu_qtest_add_reliability(void)
{
    qtest_add_func("/hsa-gpu/reliability/processor-without-bql",
                   test_processor_without_bql);
    qtest_add_func("/hsa-gpu/reliability/bus-master-off-race",
                   test_bus_master_off_race);
    qtest_add_func("/hsa-gpu/reliability/pass-budget", test_pass_budget);
    qtest_add_func("/hsa-gpu/reliability/realize-failure",
                   test_realize_failure);
    qtest_add_func("/hsa-gpu/reliability/unplug-busy", test_unplug_busy);
    qtest_add_data_func("/hsa-gpu/mainloop/unplug-busy", test_unplug_busy,
                        run_mainloop);
    qtest_add_func("/hsa-gpu/vtd/wrong-size", test_vtd_wrong_size);
    qtest_add_data_func("/hsa-gpu/mainloop/pass-budget", test_pass_budget,
                        run_mainloop);
}
