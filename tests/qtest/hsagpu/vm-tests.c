/*
 * hsa-gpu qtest: GPU virtual memory (docs/vm.md): translation, ROCr's blit
 * kernel in a VMID, faults, ENABLE checks, atomics, migration and peers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "hsagpu-qtest.h"

#define PA_BUF2         0x600000ULL
#define VA_RO           (VA_BUF + 0x1000)   /* read-only page */

/* Queue 0 in VMID VM_VMID over vm_tables(), VRAM BAR0 at VRAM_BASE. */
static void vm_fixture(Fixture *f)
{
    g_autofree char *props = g_strconcat(",vram-size=1M", queue_props, NULL);

    queue_fixture_props(f, props);
    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_0, VRAM_BASE);
    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_1, 0);
    g_assert_true(reg_read(f, HSAGPU_REG_CAPS) & HSAGPU_CAP_VM);
    vm_tables(f);
    vm_ctx(f, VM_VMID, PT_ROOT, HSAGPU_VM_CNTL_ENABLE);
    qxreg_write(f, 0, HSAGPU_QXREG_VMID, VM_VMID);
    g_assert_cmpuint(queue_create(f, 0, 0), ==, HSAGPU_QRES_OK);
}

static void vm_fill(Fixture *f, uint64_t dst, uint32_t value, uint32_t n)
{
    struct hsagpu_kernel_dispatch_packet k;
    struct hsagpu_kargs_fill args = { .dst = dst, .value = value };

    qtest_memwrite(f->qts, Q_KARG, &args, sizeof(args));
    signal_init(f, Q_SIG, 1);
    fill_packet(&k, n, n < 64 ? n : 64, Q_SIG);
    queue_submit(f, 0, &k);
}

/* A queue's accesses are translated: data lands where the PTEs say. */
static void test_vm_translate(void)
{
    struct hsagpu_dma_packet d;
    uint32_t walks;
    Fixture f;

    vm_fixture(&f);
    g_assert_cmpuint(qxreg_read(&f, 0, HSAGPU_QXREG_VMID), ==, VM_VMID);
    qtest_writel(f.qts, Q_BUF, 0x5a5a5a5a);
    vm_fill(&f, VA_BUF, 0xc0ffee, 64);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    for (unsigned i = 0; i < 64; i++) {
        g_assert_cmphex(qtest_readl(f.qts, PA_BUF + 4 * i), ==, 0xc0ffee);
    }
    /* The bus address that equals the VA was not touched. */
    g_assert_cmphex(qtest_readl(f.qts, Q_BUF), ==, 0x5a5a5a5a);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_VM_WALKS), >, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_VM_TLB_HITS), >, 0);

    /* DMA from system memory to a VRAM page, both named by VA. */
    signal_init(&f, Q_SIG, 1);
    dma_packet(&d, HSAGPU_DMA_OP_COPY, VA_VRAM + 8, VA_BUF, 16, Q_SIG);
    queue_submit(&f, 0, &d);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_cmphex(qtest_readl(f.qts, VRAM_BASE + 0x1000 + 8), ==, 0xc0ffee);
    g_assert_cmphex(qtest_readl(f.qts, VRAM_BASE + 0x1000 + 20), ==,
                    0xc0ffee);

    /*
     * The TLB keeps a translation until it is invalidated: the PTE moves
     * to other RAM, the next fill still lands in the old page.
     */
    pte_set(&f, PT_L0B, 0, PA_BUF2 | PTE_RW | HSAGPU_PTE_SYSTEM);
    vm_fill(&f, VA_BUF, 0x1111, 4);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_cmphex(qtest_readl(f.qts, PA_BUF), ==, 0x1111);
    g_assert_cmphex(qtest_readl(f.qts, PA_BUF2), ==, 0);
    walks = reg_read(&f, HSAGPU_REG_VM_WALKS);
    reg_write(&f, HSAGPU_REG_VM_INVALIDATE_REQ, 1U << VM_VMID);
    g_assert_true(reg_read(&f, HSAGPU_REG_VM_INVALIDATE_ACK) &
                  1U << VM_VMID);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_VM_INVALIDATIONS), ==, 1);
    vm_fill(&f, VA_BUF, 0x2222, 4);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_cmphex(qtest_readl(f.qts, PA_BUF2), ==, 0x2222);
    g_assert_cmphex(qtest_readl(f.qts, PA_BUF), ==, 0x1111);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_VM_WALKS), >, walks);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_VM_FAULT_STATUS), ==, 0);
    fixture_fini(&f);
}

/*
 * The processor keeps the pages it resolved mapped (hsagpu-bus.c), but
 * not across a change of the memory map: a signal in VRAM named by its
 * BAR0 address completes, BAR0 moves, and the same address is nothing
 * now (a queue error), not the VRAM a mapping made before the move held.
 */
static void test_maps_topology(void)
{
    g_autofree char *props = g_strconcat(",vram-size=1M", queue_props, NULL);
    const uint64_t sig = VRAM_BASE + 0x100;
    struct hsagpu_agent_dispatch_packet a;
    Fixture f;

    queue_fixture_props(&f, props);
    qpci_config_writel(f.gpu, PCI_BASE_ADDRESS_0, VRAM_BASE);
    qpci_config_writel(f.gpu, PCI_BASE_ADDRESS_1, 0);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    signal_init(&f, sig, 2);
    agent_packet(&a, HSAGPU_AGENT_NOP, 0, sig);
    queue_submit(&f, 0, &a);
    g_assert_true(wait_u64(&f, sig + 8, 1));
    /* Out of the root port's window: VRAM_BASE decodes to nothing. */
    qpci_config_writel(f.gpu, PCI_BASE_ADDRESS_0, VRAM_BASE + (1 << 20));
    queue_submit(&f, 0, &a);
    expect_qerr(&f, 0, HSAGPU_QERR_ADDRESS);
    qpci_config_writel(f.gpu, PCI_BASE_ADDRESS_0, VRAM_BASE);
    g_assert_cmpuint(qtest_readq(f.qts, sig + 8), ==, 1);
    fixture_fini(&f);
}

/*
 * ROCr's CopyAligned blit kernel, its code taken from Debian's ROCr
 * 5.2.3 (the window ending in s_endpgm whose length and FNV-1a 64 are
 * hsagpu-blit.c's fingerprint), dispatched on a ROCr queue (AMD_QUEUE)
 * in a GPU address space: the device reads the code through the VM and
 * copies a page of system memory into VRAM, both named by VA.
 */
static void test_vm_blit(void)
{
    uint8_t code[BLIT_ALIGNED_LEN], zero[256] = { 0 }, page[4096];
    struct hsagpu_kernel_dispatch_packet k;
    uint64_t args[11] = { 0 };
    Fixture f;

    if (!rocr_copy_aligned(code)) {
        g_test_skip("no ROCr 5.2.3 library with its blit kernels");
        return;
    }
    vm_fixture(&f);
    qxreg_write(&f, 1, HSAGPU_QXREG_VMID, VM_VMID);
    g_assert_cmpuint(queue_create(&f, 1, HSAGPU_QF_AMD_QUEUE), ==,
                     HSAGPU_QRES_OK);
    /* amd_kernel_code_t, entry at +256, then the code */
    qtest_memwrite(f.qts, BLIT_CODE, zero, sizeof(zero));
    qtest_writeq(f.qts, BLIT_CODE + 16, 256);
    qtest_memwrite(f.qts, BLIT_CODE + 256, code, sizeof(code));
    for (unsigned i = 0; i < sizeof(page); i++) {
        page[i] = i * 13 + 1;
    }
    qtest_memwrite(f.qts, PA_BUF, page, sizeof(page));
    /*
     * ROCr's phases for 4 KiB between page-aligned buffers with 512
     * work-items: phase 1 (to 256-byte alignment) and phase 2 (8 KiB
     * blocks) are empty, phase 3 (dwords) is all of it, phase 4 empty.
     */
    args[0] = args[2] = args[4] = VA_BUF;
    args[1] = args[3] = args[5] = VA_VRAM;
    args[6] = args[8] = VA_BUF + 4096;
    args[7] = args[9] = VA_VRAM + 4096;
    args[10] = 512;
    qtest_memwrite(f.qts, Q_KARG, args, sizeof(args));
    signal_init(&f, Q_SIG, 1);
    fill_packet(&k, 512, 64, Q_SIG);
    k.kernel_object = BLIT_CODE;
    queue_submit(&f, 1, &k);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_cmphex(qreg_read(&f, 1, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ACTIVE);
    for (unsigned i = 0; i < sizeof(page); i += 4) {
        g_assert_cmphex(qtest_readl(f.qts, VRAM_BASE + 0x1000 + i), ==,
                        (uint32_t)ldl_le_p(page + i));
    }
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DMA_PACKETS), ==, 1);

    /*
     * The same dispatch on a queue that is not ROCr's is not taken for
     * the blit kernel: the GCN interpreter runs its code, which faults
     * here (it reads what this test does not map); no DMA ran.
     */
    signal_init(&f, Q_SIG, 1);
    queue_submit(&f, 0, &k);
    g_assert_true(wait_qstate(&f, 0, HSAGPU_QSTATE_ERROR));
    g_assert_cmphex(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ERROR |
                    HSAGPU_QERR_VM_FAULT << HSAGPU_QSTATE_ERR_SHIFT);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DMA_PACKETS), ==, 1);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 8), ==, 1);
    fixture_fini(&f);
}

/* A fault touches nothing, fails the queue and says what happened. */
static void vm_fault_check(Fixture *f, uint64_t va, unsigned client,
                           unsigned access, unsigned reason)
{
    uint32_t info, st;

    g_assert_true(wait_qstate(f, 0, HSAGPU_QSTATE_ERROR));
    g_assert_cmpuint(qreg_read(f, 0, HSAGPU_QREG_STATE) >>
                     HSAGPU_QSTATE_ERR_SHIFT & 0xff, ==,
                     HSAGPU_QERR_VM_FAULT);
    info = qxreg_read(f, 0, HSAGPU_QXREG_FAULT_INFO);
    st = reg_read(f, HSAGPU_REG_VM_FAULT_STATUS);
    g_assert_cmphex(qxreg_read(f, 0, HSAGPU_QXREG_FAULT_ADDR_LO), ==,
                    (uint32_t)va);
    g_assert_cmphex(qxreg_read(f, 0, HSAGPU_QXREG_FAULT_ADDR_HI), ==,
                    va >> 32);
    g_assert_true(info & HSAGPU_VM_FAULT_VALID);
    g_assert_cmpuint((info & HSAGPU_VM_FAULT_VMID_MASK) >>
                     HSAGPU_VM_FAULT_VMID_SHIFT, ==, VM_VMID);
    g_assert_cmpuint((info & HSAGPU_VM_FAULT_CLIENT_MASK) >>
                     HSAGPU_VM_FAULT_CLIENT_SHIFT, ==, client);
    g_assert_cmpuint((info & HSAGPU_VM_FAULT_ACCESS_MASK) >>
                     HSAGPU_VM_FAULT_ACCESS_SHIFT, ==, access);
    g_assert_cmpuint((info & HSAGPU_VM_FAULT_REASON_MASK) >>
                     HSAGPU_VM_FAULT_REASON_SHIFT, ==, reason);
    g_assert_cmpuint((info & HSAGPU_VM_FAULT_QUEUE_MASK) >>
                     HSAGPU_VM_FAULT_QUEUE_SHIFT, ==, 0);
    /* The global latch holds the first fault since it was cleared. */
    g_assert_cmphex(st & ~HSAGPU_VM_FAULT_MORE, ==, info);
    g_assert_cmphex(reg_read(f, HSAGPU_REG_VM_FAULT_ADDR_LO), ==,
                    (uint32_t)va);
    g_assert_true(reg_read(f, HSAGPU_REG_ERROR_STATUS) & HSAGPU_ERR_VM_FAULT);
    g_assert_true(reg_read(f, HSAGPU_REG_ERROR_STATUS) & HSAGPU_ERR_QUEUE);
}

static void vm_requeue(Fixture *f)
{
    qreg_write(f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_DESTROY);
    reg_write(f, HSAGPU_REG_VM_FAULT_STATUS, HSAGPU_VM_FAULT_VALID);
    reg_write(f, HSAGPU_REG_ERROR_STATUS, HSAGPU_ERR_ALL);
    g_assert_cmpuint(reg_read(f, HSAGPU_REG_VM_FAULT_STATUS), ==, 0);
    qxreg_write(f, 0, HSAGPU_QXREG_VMID, VM_VMID);
    g_assert_cmpuint(queue_create(f, 0, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(qxreg_read(f, 0, HSAGPU_QXREG_FAULT_INFO), ==, 0);
}

static void test_vm_faults(void)
{
    struct hsagpu_dma_packet d;
    Fixture f;

    vm_fixture(&f);
    /* A kernel writing an unmapped page */
    qtest_writel(f.qts, VA_HOLE, 0x77);
    vm_fill(&f, VA_HOLE + 0x40, 1, 4);
    vm_fault_check(&f, VA_HOLE + 0x40, HSAGPU_VM_CLIENT_KERNEL,
                   HSAGPU_VM_ACCESS_WRITE, HSAGPU_VM_REASON_NOT_PRESENT);
    g_assert_cmphex(qtest_readl(f.qts, VA_HOLE + 0x40), ==, 0);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 8), ==, 1);

    /* DMA writing a read-only page */
    vm_requeue(&f);
    signal_init(&f, Q_SIG, 1);
    dma_packet(&d, HSAGPU_DMA_OP_COPY, VA_RO, VA_BUF, 64, Q_SIG);
    queue_submit(&f, 0, &d);
    vm_fault_check(&f, VA_RO, HSAGPU_VM_CLIENT_DMA, HSAGPU_VM_ACCESS_WRITE,
                   HSAGPU_VM_REASON_PERMISSION);
    g_assert_cmphex(qtest_readl(f.qts, PA_BUF + 0x1000), ==, 0);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_DMA_BAD_ADDR_LO), ==,
                    (uint32_t)VA_RO);

    /* A completion signal at an unmapped address */
    vm_requeue(&f);
    signal_init(&f, Q_SIG, 1);
    {
        struct hsagpu_agent_dispatch_packet a;

        agent_packet(&a, HSAGPU_AGENT_NOP, 0, VA_HOLE);
        queue_submit(&f, 0, &a);
    }
    vm_fault_check(&f, VA_HOLE, HSAGPU_VM_CLIENT_SIGNAL,
                   HSAGPU_VM_ACCESS_READ, HSAGPU_VM_REASON_NOT_PRESENT);

    /* Beyond the context's VA range */
    vm_requeue(&f);
    reg_write(&f, HSAGPU_REG_VM_CTX(VM_VMID) + HSAGPU_VM_CTX_END_LO,
              (VA_BUF >> 12) + 1);
    reg_write(&f, HSAGPU_REG_VM_CTX(VM_VMID) + HSAGPU_VM_CTX_END_HI, 0);
    vm_fill(&f, VA_VRAM, 1, 4);
    vm_fault_check(&f, VA_VRAM, HSAGPU_VM_CLIENT_KERNEL,
                   HSAGPU_VM_ACCESS_WRITE, HSAGPU_VM_REASON_RANGE);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_VM_FAULT_COUNT), ==, 4);
    fixture_fini(&f);
}

/* ENABLE checks the VMID and the queue's memory in its space. */
static void test_vm_enable(void)
{
    uint32_t info;
    Fixture f;

    vm_fixture(&f);
    qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_DESTROY);
    qxreg_write(&f, 1, HSAGPU_QXREG_VMID, 16);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_BAD_VMID);
    /* A context that is not enabled translates nothing. */
    qxreg_write(&f, 1, HSAGPU_QXREG_VMID, 9);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_BAD_ADDRESS);
    g_assert_cmpuint((reg_read(&f, HSAGPU_REG_VM_FAULT_STATUS) &
                      HSAGPU_VM_FAULT_REASON_MASK) >>
                     HSAGPU_VM_FAULT_REASON_SHIFT, ==,
                     HSAGPU_VM_REASON_CONTEXT);
    /* The queue's fault registers say why; they are read-only. */
    info = qxreg_read(&f, 1, HSAGPU_QXREG_FAULT_INFO);
    g_assert_cmpuint((info & HSAGPU_VM_FAULT_CLIENT_MASK) >>
                     HSAGPU_VM_FAULT_CLIENT_SHIFT, ==,
                     HSAGPU_VM_CLIENT_PACKET);
    g_assert_cmphex(qxreg_read(&f, 1, HSAGPU_QXREG_FAULT_ADDR_LO), ==,
                    Q_RING + Q_RING_SIZE * 64);
    qxreg_write(&f, 1, HSAGPU_QXREG_FAULT_INFO, 0x1234);
    g_assert_cmpuint(qxreg_read(&f, 1, HSAGPU_QXREG_FAULT_INFO), ==, info);
    /* VMID 0's context cannot be set. */
    reg_write(&f, HSAGPU_REG_VM_CTX(0) + HSAGPU_VM_CTX_CNTL, 1);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_VM_CTX(0) + HSAGPU_VM_CTX_CNTL),
                     ==, 0);
    /* VMID 0 is bus addresses, as without GPU virtual memory. */
    qxreg_write(&f, 1, HSAGPU_QXREG_VMID, 0);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    fixture_fini(&f);
}

/* Register-issued AtomicOps in a VMID; a device reset forgets contexts. */
static void test_vm_atomic_reset(void)
{
    Fixture f;
    uint8_t exp;

    vm_fixture(&f);
    qtest_writeq(f.qts, PA_BUF + 8, 40);
    reg_write(&f, HSAGPU_REG_ATOMIC_VMID, VM_VMID);
    reg_write(&f, HSAGPU_REG_ATOMIC_ADDR_LO, VA_BUF + 8);
    reg_write(&f, HSAGPU_REG_ATOMIC_ADDR_HI, 0);
    reg_write(&f, HSAGPU_REG_ATOMIC_SRC0, 2);
    reg_write(&f, HSAGPU_REG_ATOMIC_SRC0 + 4, 0);
    reg_write(&f, HSAGPU_REG_ATOMIC_CTRL, HSAGPU_ATOMIC_GO |
              HSAGPU_ATOMIC_OP_FETCHADD | HSAGPU_ATOMIC_SIZE_64);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ATOMIC_STATUS), ==,
                    HSAGPU_ATOMIC_DONE | HSAGPU_ATOMIC_ST_OK);
    g_assert_cmpuint(qtest_readq(f.qts, PA_BUF + 8), ==, 42);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_ATOMIC_RESULT), ==, 40);
    /*
     * Read-only page: an atomic needs both permissions. The fault alone
     * raises the error interrupt when ERROR_INT_ENABLE has VM_FAULT.
     */
    msix_setup(&f);
    reg_write(&f, HSAGPU_REG_ERROR_INT_ENABLE, HSAGPU_ERR_VM_FAULT);
    reg_write(&f, HSAGPU_REG_ATOMIC_ADDR_LO, VA_RO);
    reg_write(&f, HSAGPU_REG_ATOMIC_CTRL, HSAGPU_ATOMIC_GO |
              HSAGPU_ATOMIC_OP_FETCHADD | HSAGPU_ATOMIC_SIZE_64);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ATOMIC_STATUS), ==,
                    HSAGPU_ATOMIC_DONE | HSAGPU_ATOMIC_ST_VM_FAULT);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_VM_FAULT_STATUS) &
                    (HSAGPU_VM_FAULT_CLIENT_MASK |
                     HSAGPU_VM_FAULT_ACCESS_MASK |
                     HSAGPU_VM_FAULT_REASON_MASK |
                     HSAGPU_VM_FAULT_QUEUE_MASK), ==,
                    HSAGPU_VM_CLIENT_ATOMIC << HSAGPU_VM_FAULT_CLIENT_SHIFT |
                    HSAGPU_VM_ACCESS_ATOMIC << HSAGPU_VM_FAULT_ACCESS_SHIFT |
                    HSAGPU_VM_REASON_PERMISSION <<
                    HSAGPU_VM_FAULT_REASON_SHIFT |
                    HSAGPU_VM_FAULT_QUEUE_NONE << HSAGPU_VM_FAULT_QUEUE_SHIFT);
    g_assert_true(reg_read(&f, HSAGPU_REG_ERROR_STATUS) & HSAGPU_ERR_VM_FAULT);
    for (int i = 0; i < 5000 && msi_seen(&f, 0) != FAULT_MSI_DATA(0); i++) {
        g_usleep(1000);
    }
    g_assert_cmphex(msi_seen(&f, 0), ==, FAULT_MSI_DATA(0));

    /* FLR: contexts, VMIDs and faults are gone */
    exp = find_cap(&f, PCI_CAP_ID_EXP);
    qpci_config_writew(f.gpu, exp + PCI_EXP_DEVCTL,
                       qpci_config_readw(f.gpu, exp + PCI_EXP_DEVCTL) |
                       PCI_EXP_DEVCTL_BCR_FLR);
    gpu_reprogram(&f);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_VM_CTX(VM_VMID) +
                              HSAGPU_VM_CTX_CNTL), ==, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_VM_FAULT_STATUS), ==, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_ATOMIC_VMID), ==, 0);
    g_assert_cmpuint(qxreg_read(&f, 0, HSAGPU_QXREG_VMID), ==, 0);
    fixture_fini(&f);
}

/*
 * Contexts, the queue's VMID and ATOMIC_VMID migrate; translations do
 * not: a PTE changed without an invalidation before the migration is
 * what the destination uses (its TLB starts empty).
 */
static void test_vm_migration(void)
{
    g_autofree char *dir = g_dir_make_tmp("hsagpu-vmmig-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "stream", NULL);
    g_autofree char *st = NULL;
    Fixture f, g = { 0 };

    queue_fixture(&f);
    vm_tables(&f);
    vm_ctx(&f, VM_VMID, PT_ROOT, HSAGPU_VM_CNTL_ENABLE);
    qxreg_write(&f, 0, HSAGPU_QXREG_VMID, VM_VMID);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    reg_write(&f, HSAGPU_REG_ATOMIC_VMID, VM_VMID);
    vm_fill(&f, VA_BUF, 0x1111, 4);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_cmphex(qtest_readl(f.qts, PA_BUF), ==, 0x1111);
    pte_set(&f, PT_L0B, 0, PA_BUF2 | PTE_RW | HSAGPU_PTE_SYSTEM);
    migrate_to_file(&f, path);
    fixture_fini(&f);

    st = migrate_from_file(&g, path);
    g_assert_cmpstr(st, ==, "completed");
    qtest_qmp_assert_success(g.qts, "{ 'execute': 'cont' }");
    g_assert_cmphex(reg_read(&g, HSAGPU_REG_VM_CTX(VM_VMID) +
                             HSAGPU_VM_CTX_PT_BASE_LO), ==,
                    PT_ROOT | HSAGPU_VM_PT_SYSTEM);
    g_assert_cmpuint(reg_read(&g, HSAGPU_REG_VM_CTX(VM_VMID) +
                              HSAGPU_VM_CTX_CNTL), ==, HSAGPU_VM_CNTL_ENABLE);
    g_assert_cmpuint(qxreg_read(&g, 0, HSAGPU_QXREG_VMID), ==, VM_VMID);
    g_assert_cmpuint(reg_read(&g, HSAGPU_REG_ATOMIC_VMID), ==, VM_VMID);
    vm_fill(&g, VA_BUF, 0x2222, 4);
    g_assert_true(wait_u64(&g, Q_SIG + 8, 0));
    g_assert_cmphex(qtest_readl(g.qts, PA_BUF2), ==, 0x2222);
    g_assert_cmphex(qtest_readl(g.qts, PA_BUF), ==, 0x1111);
    qtest_quit(g.qts);
    unlink(path);
    rmdir(dir);
}

/*
 * A PTE can name a peer's VRAM by its bus address: the switch turns the
 * access around, and the P2P address limit applies to the translated
 * address as it does to a bus address (P2P_LIMIT, not a VM fault).
 */
static void test_vm_p2p(void)
{
    struct hsagpu_kargs_atomic_inc inc = {
        .counter = VA_HOLE + (PEER_COUNTER & 0xfff),
    };
    struct hsagpu_kernel_dispatch_packet k;
    Fixture f;

    for (unsigned bits = 33; bits >= 32; bits--) {
        p2p_fixture(&f, bits);
        vm_tables(&f);
        pte_set(&f, PT_L0B, VA_HOLE >> 12 & 511,
                (PEER_COUNTER & ~0xfffULL) | PTE_RW | HSAGPU_PTE_SYSTEM);
        vm_ctx(&f, VM_VMID, PT_ROOT, HSAGPU_VM_CNTL_ENABLE);
        qxreg_write(&f, 0, HSAGPU_QXREG_VMID, VM_VMID);
        g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
        qtest_memwrite(f.qts, Q_KARG, &inc, sizeof(inc));
        signal_init(&f, Q_SIG, 1);
        fill_packet(&k, 2, 1, Q_SIG);
        k.kernel_object = HSAGPU_KERNEL_ATOMIC_INC;
        queue_submit(&f, 0, &k);
        if (bits == 33) {
            g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
            g_assert_cmpuint(qtest_readq(f.qts, PEER_COUNTER), ==, 42);
        } else {
            g_assert_true(wait_qstate(&f, 0, HSAGPU_QSTATE_ERROR));
            g_assert_cmphex(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                            HSAGPU_QSTATE_ERROR |
                            HSAGPU_QERR_P2P_LIMIT << HSAGPU_QSTATE_ERR_SHIFT);
            g_assert_cmpuint(qtest_readq(f.qts, PEER_COUNTER), ==, 40);
            g_assert_cmpuint(reg_read(&f, HSAGPU_REG_VM_FAULT_COUNT), ==, 0);
        }
        fixture_fini(&f);
    }
}

void hsagpu_qtest_add_vm(void)
{
    qtest_add_func("/hsa-gpu/vm/translate", test_vm_translate);
    qtest_add_func("/hsa-gpu/vm/blit", test_vm_blit);
    qtest_add_func("/hsa-gpu/maps-topology", test_maps_topology);
    qtest_add_data_func("/hsa-gpu/mainloop/vm/translate", test_vm_translate,
                        run_mainloop);
    qtest_add_func("/hsa-gpu/vm/faults", test_vm_faults);
    qtest_add_data_func("/hsa-gpu/mainloop/vm/faults", test_vm_faults,
                        run_mainloop);
    qtest_add_func("/hsa-gpu/vm/enable", test_vm_enable);
    qtest_add_func("/hsa-gpu/vm/atomic-reset", test_vm_atomic_reset);
    qtest_add_func("/hsa-gpu/vm/migration", test_vm_migration);
    qtest_add_func("/hsa-gpu/vm/p2p", test_vm_p2p);
}
