/*
 * hsa-gpu qtest: Fault injection and Function Level Reset, and interrupts
 * that reset or unplug their own device.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "hsagpu-qtest.h"

static bool qom_get_bool(Fixture *f, const char *prop)
{
    QDict *rsp = qtest_qmp(f->qts, "{ 'execute': 'qom-get', 'arguments': "
                           "{ 'path': %s, 'property': %s } }", GPU_PATH, prop);
    bool v;

    g_assert(qdict_haskey(rsp, "return"));
    v = qdict_get_bool(rsp, "return");
    qobject_unref(rsp);
    return v;
}

/* Poll a QOM count until the device has used it up (a sync point). */
static bool wait_qom_zero(Fixture *f, const char *prop)
{
    for (int i = 0; i < 5000; i++) {
        if (!qom_get_int(f, prop)) {
            return true;
        }
        g_usleep(1000);
    }
    return false;
}

static uint16_t pci_status(Fixture *f)
{
    return qpci_config_readw(f->gpu, PCI_STATUS);
}

/* Reports from the BQL-free processor arrive from a bottom half. */
static bool wait_pci_status(Fixture *f, uint16_t bits)
{
    for (int i = 0; i < 5000; i++) {
        if ((pci_status(f) & bits) == bits) {
            return true;
        }
        g_usleep(1000);
    }
    return false;
}

/* Extended config space through the MCH's ECAM window. */
static void ecam_enable(Fixture *f)
{
    QPCIDevice *mch = qpci_device_find(f->bus, 0);

    qpci_config_writel(mch, 0x60, ECAM_BASE | 1);
    g_free(mch);
}

static uint32_t aer_uncor(Fixture *f)
{
    return ecam_readl(f, HSAGPU_EXT_CAP_AER_OFFSET + PCI_ERR_UNCOR_STATUS);
}

static bool wait_aer_uncor(Fixture *f, uint32_t bits)
{
    for (int i = 0; i < 5000; i++) {
        if ((aer_uncor(f) & bits) == bits) {
            return true;
        }
        g_usleep(1000);
    }
    return false;
}

/* A NOP on @q whose signal has an event: it raises the queue's vector. */
static void nop_event(Fixture *f, unsigned q, uint64_t sig)
{
    struct hsagpu_agent_dispatch_packet a;

    signal_init(f, sig, 1);
    qtest_writeq(f->qts, sig + 16, Q_MBOX);
    qtest_writel(f->qts, sig + 24, 5);
    agent_packet(&a, HSAGPU_AGENT_NOP, 0, sig);
    queue_submit(f, q, &a);
}

static void engine_fetchadd(Fixture *f, uint64_t addr, uint64_t val)
{
    qtest_writeq(f->qts, MMIO_BASE + HSAGPU_REG_ATOMIC_ADDR_LO, addr);
    qtest_writeq(f->qts, MMIO_BASE + HSAGPU_REG_ATOMIC_SRC0, val);
    reg_write(f, HSAGPU_REG_ATOMIC_CTRL, HSAGPU_ATOMIC_OP_FETCHADD |
              HSAGPU_ATOMIC_SIZE_64 | HSAGPU_ATOMIC_GO);
}

/*
 * inject-atomic-ur/-ca: the next AtomicOps complete with UR or CA as if
 * the completer refused them; the requester records Received Master /
 * Target Abort, AER logs the error, the register engine and a queue
 * report them, and the count reads back what is left.
 */
static void test_fault_atomic(void)
{
    Fixture f;

    queue_fixture_props(&f, ",id=gpu0");
    ecam_enable(&f);
    qtest_writeq(f.qts, Q_BUF, 40);
    qom_set_int(&f, "inject-atomic-ur", 2);
    g_assert_cmpint(qom_get_int(&f, "inject-atomic-ur"), ==, 2);
    engine_fetchadd(&f, Q_BUF, 2);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ATOMIC_STATUS), ==,
                    HSAGPU_ATOMIC_DONE | HSAGPU_ATOMIC_ST_UR);
    g_assert_cmpuint(qtest_readq(f.qts, Q_BUF), ==, 40);
    g_assert_cmpint(qom_get_int(&f, "inject-atomic-ur"), ==, 1);
    g_assert_true(pci_status(&f) & PCI_STATUS_REC_MASTER_ABORT);
    g_assert_false(pci_status(&f) & PCI_STATUS_REC_TARGET_ABORT);
    g_assert_true(aer_uncor(&f) & PCI_ERR_UNC_UNSUP);
    g_assert_true(reg_read(&f, HSAGPU_REG_ERROR_STATUS) & HSAGPU_ERR_ATOMIC);

    /*
     * The queue's first FetchAdd (its read index) takes the second: a
     * UR completion is the queue error an unmapped address gives.
     */
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    nop_event(&f, 0, Q_SIG);
    expect_qerr(&f, 0, HSAGPU_QERR_ADDRESS);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 8), ==, 1);
    g_assert_cmpint(qom_get_int(&f, "inject-atomic-ur"), ==, 0);

    qom_set_int(&f, "inject-atomic-ca", 1);
    engine_fetchadd(&f, Q_BUF, 2);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ATOMIC_STATUS), ==,
                    HSAGPU_ATOMIC_DONE | HSAGPU_ATOMIC_ST_CA);
    g_assert_true(pci_status(&f) & PCI_STATUS_REC_TARGET_ABORT);
    g_assert_true(aer_uncor(&f) & PCI_ERR_UNC_COMP_ABORT);
    /* Used up: the next one is performed. */
    engine_fetchadd(&f, Q_BUF, 2);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ATOMIC_STATUS), ==,
                    HSAGPU_ATOMIC_DONE | HSAGPU_ATOMIC_ST_OK);
    g_assert_cmpuint(qtest_readq(f.qts, Q_BUF), ==, 42);
    fixture_fini(&f);
}

/*
 * inject-dma-ur/-ca/-poison on the device's reads: DMA engine data, a
 * descriptor list and a kernel's buffer. UR/CA: the queue stops with
 * ADDRESS at the source, nothing is written, PCI Status shows the abort.
 * Poison: the data arrives corrupted, the queue stops with POISON, the
 * device logs Poisoned TLP Received (non-fatal) and Detected Parity.
 */
static void test_fault_dma(void)
{
    struct hsagpu_dma_desc list[1] = { { 0x11223344, Q_BUF + 0x3000, 8, 0 } };
    struct hsagpu_kargs_copy kc = { .src = Q_BUF, .dst = Q_BUF + 0x4000 };
    struct hsagpu_kernel_dispatch_packet k;
    struct hsagpu_dma_packet d;
    uint8_t src[64], got[64], inv[64];
    uint32_t sev;
    Fixture f;

    queue_fixture_props(&f, ",id=gpu0");
    ecam_enable(&f);
    for (unsigned i = 0; i < sizeof(src); i++) {
        src[i] = i + 1;
        inv[i] = ~src[i];
    }
    qtest_memwrite(f.qts, Q_BUF, src, sizeof(src));

    /* UR on the data read */
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    qom_set_int(&f, "inject-dma-ur", 1);
    dma_packet(&d, HSAGPU_DMA_OP_COPY, Q_BUF + 0x1000, Q_BUF, 64, Q_SIG);
    signal_init(&f, Q_SIG, 1);
    queue_submit(&f, 0, &d);
    expect_qerr(&f, 0, HSAGPU_QERR_ADDRESS);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_DMA_BAD_ADDR_LO), ==, Q_BUF);
    g_assert_cmpuint(qtest_readq(f.qts, Q_BUF + 0x1000), ==, 0);
    g_assert_true(wait_pci_status(&f, PCI_STATUS_REC_MASTER_ABORT));
    g_assert_cmpint(qom_get_int(&f, "inject-dma-ur"), ==, 0);

    /* CA on a kernel's buffer read */
    queue_cmd(&f, 0, HSAGPU_QCMD_DESTROY, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    qom_set_int(&f, "inject-dma-ca", 1);
    qtest_memwrite(f.qts, Q_KARG, &kc, sizeof(kc));
    fill_packet(&k, 16, 16, Q_SIG);
    k.kernel_object = HSAGPU_KERNEL_COPY;
    queue_submit(&f, 0, &k);
    expect_qerr(&f, 0, HSAGPU_QERR_ADDRESS);
    g_assert_cmpuint(qtest_readq(f.qts, Q_BUF + 0x4000), ==, 0);
    g_assert_true(wait_pci_status(&f, PCI_STATUS_REC_TARGET_ABORT));

    /* Poisoned data: delivered corrupted, then the queue stops. */
    g_assert_false(aer_uncor(&f) & PCI_ERR_UNC_POISON_TLP);
    queue_cmd(&f, 0, HSAGPU_QCMD_DESTROY, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    qom_set_int(&f, "inject-dma-poison", 1);
    signal_init(&f, Q_SIG, 1);
    dma_packet(&d, HSAGPU_DMA_OP_COPY, Q_BUF + 0x2000, Q_BUF, 64, Q_SIG);
    queue_submit(&f, 0, &d);
    expect_qerr(&f, 0, HSAGPU_QERR_POISON);
    qtest_memread(f.qts, Q_BUF + 0x2000, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), inv, sizeof(inv));
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 8), ==, 1);
    g_assert_true(wait_aer_uncor(&f, PCI_ERR_UNC_POISON_TLP));
    sev = ecam_readl(&f, HSAGPU_EXT_CAP_AER_OFFSET + PCI_ERR_UNCOR_SEVER);
    g_assert_false(sev & PCI_ERR_UNC_POISON_TLP);
    g_assert_true(pci_status(&f) & PCI_STATUS_DETECTED_PARITY);

    /* A poisoned descriptor list: the list address is to blame. */
    queue_cmd(&f, 0, HSAGPU_QCMD_DESTROY, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    qtest_memwrite(f.qts, Q_KARG + 256, list, sizeof(list));
    qom_set_int(&f, "inject-dma-poison", 1);
    dma_packet(&d, HSAGPU_DMA_OP_FILL_SG, 0, Q_KARG + 256, 1, Q_SIG);
    queue_submit(&f, 0, &d);
    expect_qerr(&f, 0, HSAGPU_QERR_POISON);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_DMA_BAD_ADDR_LO), ==,
                    Q_KARG + 256);
    g_assert_cmpuint(qtest_readq(f.qts, Q_BUF + 0x3000), ==, 0);

    /* Nothing armed any more: the same copy works. */
    queue_cmd(&f, 0, HSAGPU_QCMD_DESTROY, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    signal_init(&f, Q_SIG, 1);
    dma_packet(&d, HSAGPU_DMA_OP_COPY, Q_BUF + 0x2000, Q_BUF, 64, Q_SIG);
    queue_submit(&f, 0, &d);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    qtest_memread(f.qts, Q_BUF + 0x2000, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), src, sizeof(src));
    fixture_fini(&f);
}

/*
 * inject-msix-drop loses the next message; inject-msix-delay delivers it
 * inject-msix-delay-ms of virtual time late (virtual time only moves
 * when the test steps it, so "not yet" is exact).
 */
static void test_fault_msix(void)
{
    Fixture f;

    queue_fixture_props(&f, ",id=gpu0");
    msix_setup(&f);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    nop_event(&f, 0, Q_SIG);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_true(wait_u64(&f, Q_MSI + 4, FAULT_MSI_DATA(1)));

    qtest_writel(f.qts, Q_MSI + 4, 0);
    qom_set_int(&f, "inject-msix-drop", 1);
    nop_event(&f, 0, Q_SIG);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_true(wait_qom_zero(&f, "inject-msix-drop"));
    g_assert_cmphex(msi_seen(&f, 1), ==, 0);
    nop_event(&f, 0, Q_SIG);
    g_assert_true(wait_u64(&f, Q_MSI + 4, FAULT_MSI_DATA(1)));

    qtest_writel(f.qts, Q_MSI + 4, 0);
    qom_set_int(&f, "inject-msix-delay-ms", 50);
    qom_set_int(&f, "inject-msix-delay", 1);
    nop_event(&f, 0, Q_SIG);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_true(wait_qom_zero(&f, "inject-msix-delay"));
    g_assert_cmphex(msi_seen(&f, 1), ==, 0);
    qtest_clock_step(f.qts, 49 * 1000000LL);
    g_assert_cmphex(msi_seen(&f, 1), ==, 0);
    qtest_clock_step(f.qts, 2 * 1000000LL);
    g_assert_cmphex(msi_seen(&f, 1), ==, FAULT_MSI_DATA(1));

    /* A reset forgets what is armed; the delay is a setting and stays. */
    qom_set_int(&f, "inject-msix-drop", 3);
    qom_set_int(&f, "inject-dma-poison", 3);
    qtest_system_reset(f.qts);
    g_assert_cmpint(qom_get_int(&f, "inject-msix-drop"), ==, 0);
    g_assert_cmpint(qom_get_int(&f, "inject-dma-poison"), ==, 0);
    g_assert_cmpint(qom_get_int(&f, "inject-msix-delay-ms"), ==, 50);
    fixture_fini(&f);
}

/*
 * inject-queue-hang: the queue accepts doorbells but consumes nothing,
 * other queues run; -1 lets it go on; DESTROY ends the hang.
 */
static void test_fault_queue_hang(void)
{
    Fixture f;

    queue_fixture_props(&f, ",id=gpu0");
    g_assert_cmpint(qom_get_int(&f, "inject-queue-hang"), ==, -1);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    qom_set_int(&f, "inject-queue-hang", 0);
    g_assert_cmpint(qom_get_int(&f, "inject-queue-hang"), ==, 0);
    nop_event(&f, 0, Q_SIG);
    /* Queue 1's packet, rung after queue 0's, completes. */
    nop_pass(&f, Q_SIG + 128);
    nop_pass(&f, Q_SIG + 128);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 8), ==, 1);
    g_assert_cmpuint(qtest_readq(f.qts, Q_DESC + HSAGPU_QUEUE_DESC_RPTR), ==,
                     0);
    g_assert_cmpuint(qreg_read(&f, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    qom_set_int(&f, "inject-queue-hang", -1);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));

    qom_set_int(&f, "inject-queue-hang", 0);
    queue_cmd(&f, 0, HSAGPU_QCMD_DESTROY, HSAGPU_QRES_OK);
    g_assert_cmpint(qom_get_int(&f, "inject-queue-hang"), ==, -1);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    nop_event(&f, 0, Q_SIG);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    fixture_fini(&f);
}

/*
 * inject-fatal: every enabled queue fails with DEVICE_FATAL, ENABLE is
 * refused, ERROR_STATUS.FATAL interrupts, AER logs an Uncorrectable
 * Internal Error of fatal severity; clearing it is refused, only a reset
 * recovers.
 */
static void test_fault_fatal(void)
{
    uint8_t exp;
    uint32_t sev, lnkcap;
    Fixture f;

    queue_fixture_props(&f, ",id=gpu0");
    ecam_enable(&f);
    msix_setup(&f);
    exp = find_cap(&f, PCI_CAP_ID_EXP);
    reg_write(&f, HSAGPU_REG_ERROR_INT_ENABLE, HSAGPU_ERR_FATAL);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    queue_cmd(&f, 1, HSAGPU_QCMD_SUSPEND, HSAGPU_QRES_OK);
    g_assert_false(qom_get_bool(&f, "inject-fatal"));
    lnkcap = qpci_config_readl(f.gpu, exp + PCI_EXP_LNKCAP);
    qtest_qmp_assert_success(f.qts, "{ 'execute': 'qom-set', 'arguments': "
                             "{ 'path': %s, 'property': 'inject-fatal', "
                             "'value': true } }", GPU_PATH);
    /*
     * The error report sets Device Status, a 16-bit register: Link
     * Capabilities next to it must not change (a migration destination
     * compares it and refuses the stream).
     */
    g_assert_cmphex(qpci_config_readl(f.gpu, exp + PCI_EXP_LNKCAP), ==,
                    lnkcap);
    g_assert_true(qom_get_bool(&f, "inject-fatal"));
    for (unsigned q = 0; q < 2; q++) {
        g_assert_cmphex(qreg_read(&f, q, HSAGPU_QREG_STATE), ==,
                        HSAGPU_QSTATE_ERROR |
                        HSAGPU_QERR_DEVICE_FATAL << HSAGPU_QSTATE_ERR_SHIFT);
    }
    g_assert_true(reg_read(&f, HSAGPU_REG_ERROR_STATUS) & HSAGPU_ERR_FATAL);
    g_assert_true(reg_read(&f, HSAGPU_REG_ERROR_STATUS) & HSAGPU_ERR_QUEUE);
    g_assert_cmphex(msi_seen(&f, 0), ==, FAULT_MSI_DATA(0));
    g_assert_true(aer_uncor(&f) & PCI_ERR_UNC_INTN);
    sev = ecam_readl(&f, HSAGPU_EXT_CAP_AER_OFFSET + PCI_ERR_UNCOR_SEVER);
    g_assert_true(sev & PCI_ERR_UNC_INTN);
    g_assert_true(qpci_config_readw(f.gpu, exp + PCI_EXP_DEVSTA) &
                  PCI_EXP_DEVSTA_FED);
    g_assert_cmpuint(queue_create(&f, 2, 0), ==, HSAGPU_QRES_DEVICE_FATAL);
    {
        QDict *rsp = qtest_qmp(f.qts, "{ 'execute': 'qom-set', "
                               "'arguments': { 'path': %s, "
                               "'property': 'inject-fatal', "
                               "'value': false } }", GPU_PATH);

        g_assert_true(qdict_haskey(rsp, "error"));
        qobject_unref(rsp);
    }
    g_assert_true(qom_get_bool(&f, "inject-fatal"));

    qtest_system_reset(f.qts);
    g_assert_false(qom_get_bool(&f, "inject-fatal"));
    setup_bridge_and_bars(&f);
    qpci_config_writew(f.gpu, PCI_COMMAND,
                       PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
    qpci_config_writew(f.gpu, exp + PCI_EXP_DEVCTL2,
                       PCI_EXP_DEVCTL2_ATOMIC_REQ);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ERROR_STATUS), ==, 0);
    g_assert_cmpuint(queue_create(&f, 2, 0), ==, HSAGPU_QRES_OK);
    fixture_fini(&f);
}

/*
 * Function Level Reset: DevCap advertises it; Initiate FLR while a big
 * kernel runs destroys the queues (the kernel stops), clears errors and
 * injections, turns decoding, BARs and MSI-X off; afterwards the device
 * works again once the driver programs it.
 */
static void test_flr(void)
{
    uint64_t big = Q_SIG + 128, c;
    uint8_t exp, msix;
    Fixture f;

    queue_fixture_props(&f, ",id=gpu0");
    exp = find_cap(&f, PCI_CAP_ID_EXP);
    msix = find_cap(&f, PCI_CAP_ID_MSIX);
    g_assert_true(qpci_config_readl(f.gpu, exp + PCI_EXP_DEVCAP) &
                  PCI_EXP_DEVCAP_FLR);
    msix_setup(&f);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    qtest_writeq(f.qts, BIG_COUNTER, 0);
    submit_big(&f, big);
    reg_write(&f, HSAGPU_REG_MAGIC, 1);          /* read-only: an error */
    g_assert_true(reg_read(&f, HSAGPU_REG_ERROR_STATUS) & HSAGPU_ERR_BAD_MMIO);
    qom_set_int(&f, "inject-dma-poison", 2);
    qom_set_int(&f, "inject-queue-hang", 1);

    qpci_config_writew(f.gpu, exp + PCI_EXP_DEVCTL,
                       qpci_config_readw(f.gpu, exp + PCI_EXP_DEVCTL) |
                       PCI_EXP_DEVCTL_BCR_FLR);
    g_assert_false(qpci_config_readw(f.gpu, exp + PCI_EXP_DEVCTL) &
                   PCI_EXP_DEVCTL_BCR_FLR);
    g_assert_cmphex(qpci_config_readw(f.gpu, PCI_COMMAND), ==, 0);
    g_assert_cmphex(qpci_config_readl(f.gpu, PCI_BASE_ADDRESS_5), ==, 0);
    g_assert_false(qpci_config_readw(f.gpu, msix + PCI_MSIX_FLAGS) &
                   PCI_MSIX_FLAGS_ENABLE);
    g_assert_cmpint(qom_get_int(&f, "inject-dma-poison"), ==, 0);
    g_assert_cmpint(qom_get_int(&f, "inject-queue-hang"), ==, -1);
    c = qtest_readq(f.qts, BIG_COUNTER);
    g_assert_cmpuint(c, <, BIG_ITEMS);
    g_usleep(50000);
    g_assert_cmpuint(qtest_readq(f.qts, BIG_COUNTER), ==, c);
    g_assert_cmpuint(qtest_readq(f.qts, big + 8), ==, 1);

    gpu_reprogram(&f);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ERROR_STATUS), ==, 0);
    for (unsigned q = 0; q < 2; q++) {
        g_assert_cmpuint(qreg_read(&f, q, HSAGPU_QREG_STATE), ==,
                         HSAGPU_QSTATE_DISABLED);
    }
    msix_setup(&f);
    g_assert_cmpuint(queue_create(&f, 1, 0), ==, HSAGPU_QRES_OK);
    nop_event(&f, 1, Q_SIG);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_true(wait_u64(&f, Q_MSI + 4, FAULT_MSI_DATA(1)));
    fixture_fini(&f);
}

#define BOTH_X          (Q_SIG + 256)   /* the barrier both queues wait on */

/* MSI-X table entry @vec: a 32-bit write of @data at @addr. */
static void msix_entry(Fixture *f, unsigned vec, uint64_t addr, uint32_t data)
{
    uint32_t e = HSAGPU_MSIX_TABLE_OFFSET + 16 * vec;

    reg_write(f, e + PCI_MSIX_ENTRY_LOWER_ADDR, addr);
    reg_write(f, e + PCI_MSIX_ENTRY_UPPER_ADDR, addr >> 32);
    reg_write(f, e + PCI_MSIX_ENTRY_DATA, data);
    reg_write(f, e + PCI_MSIX_ENTRY_VECTOR_CTRL, 0);
}

/*
 * Vector @vec's message goes to the root port's Slot Control through
 * ECAM and powers the slot off: QEMU unplugs the device while it sends.
 * (32 bits: Slot Status above it gets no bit to clear.)
 */
static void msix_aim_slot_off(Fixture *f, unsigned vec)
{
    uint8_t exp = qpci_find_capability(f->rp, PCI_CAP_ID_EXP, 0);
    uint16_t ctl = qpci_config_readw(f->rp, exp + PCI_EXP_SLTCTL);

    ecam_enable(f);
    msix_entry(f, vec, ECAM_BASE + ((uint64_t)RP_DEVFN << 12) + exp +
               PCI_EXP_SLTCTL, ctl | PCI_EXP_SLTCTL_PCC | PCI_EXP_SLTCTL_PIC);
}

/* ... to the device's own Device Control: Initiate FLR. */
static void msix_aim_flr(Fixture *f, unsigned vec)
{
    uint8_t exp = find_cap(f, PCI_CAP_ID_EXP);
    uint16_t ctl = qpci_config_readw(f->gpu, exp + PCI_EXP_DEVCTL);

    ecam_enable(f);
    msix_entry(f, vec, ECAM_BASE + ((uint64_t)GPU_BUS << 20) + exp +
               PCI_EXP_DEVCTL, ctl | PCI_EXP_DEVCTL_BCR_FLR);
}

static void msix_enable(Fixture *f)
{
    uint8_t cap = find_cap(f, PCI_CAP_ID_MSIX);

    qpci_config_writew(f->gpu, cap + PCI_MSIX_FLAGS, PCI_MSIX_FLAGS_ENABLE);
}

/*
 * Queues 0 and 1 (vectors 1 and 2) wait on one barrier, each with a NOP
 * behind it that raises its vector.
 */
static void both_queues_setup(Fixture *f)
{
    struct hsagpu_barrier_packet b;

    g_assert_cmpuint(queue_create_vec(f, 0, 0, 1), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create_vec(f, 1, 0, 2), ==, HSAGPU_QRES_OK);
    signal_init(f, BOTH_X, 1);
    for (unsigned q = 0; q < 2; q++) {
        barrier_packet(&b, BOTH_X);
        queue_submit(f, q, &b);
        submit_nop_irq(f, q, Q_SIG + 64 * q);
    }
}

/*
 * Open the barrier so that one pass completes what both queues can, and
 * one delivery sends what they raised: with the BQL held (thread) or in
 * one run of the main-loop processor (its polling timer).
 */
static void both_queues_go(Fixture *f, SharedRam *r, bool done0, bool done1)
{
    int fd;

    if (strstr(queue_props, "mainloop")) {
        qtest_writeq(f->qts, BOTH_X + 8, 0);
        qtest_clock_step(f->qts, 10 * 1000 * 1000);
        return;
    }
    fd = hold_bql(f, r);
    __atomic_store_n(shm_u64(r, BOTH_X + 8), 0, __ATOMIC_RELEASE);
    g_assert_true(!done0 || shm_wait(r, Q_SIG + 8, 0));
    g_assert_true(!done1 || shm_wait(r, Q_SIG + 64 + 8, 0));
    release_bql(f, fd);
}

/*
 * Finding 1 of the review of the BQL-free processor: vector 1's message
 * unplugs the device in the middle of a delivery. QEMU goes on, and the
 * device sends nothing after it is gone (vector 2, owed by the same
 * delivery). Before the fix the delivery went on over arrays unrealize
 * had freed, and the main-loop processor rescheduled its deleted bottom
 * half: QEMU crashed.
 */
static void test_deliver_unplug(void)
{
    g_autofree char *machine = NULL;
    SharedRam r;
    Fixture f;
    QDict *rsp;

    shared_ram_init(&r);
    /* Native PCIe hotplug (the slot's power controller), not ACPI. */
    machine = g_strdup_printf("%s -global ICH9-LPC.acpi-pci-hotplug-with-"
                              "bridge-support=off", r.machine);
    queue_fixture_machine(&f, machine, queue_props);
    shared_ram_map(&r);
    both_queues_setup(&f);
    msix_aim_slot_off(&f, 1);
    msix_entry(&f, 2, MSI_ADDR + 32, MSI_DATA + 2);
    msix_enable(&f);
    both_queues_go(&f, &r, true, true);

    qtest_qmp_assert_success(f.qts, "{ 'execute': 'query-status' }");
    rsp = qtest_qmp(f.qts, "{ 'execute': 'qom-get', 'arguments': { 'path': "
                    "'/machine/peripheral/gpu0', 'property': "
                    "'x-pass-max-slices' } }");
    g_assert_true(qdict_haskey(rsp, "error"));
    qobject_unref(rsp);
    g_assert_cmphex(qtest_readl(f.qts, MSI_ADDR + 32), ==, 0);
    fixture_fini(&f);
    shared_ram_fini(&r);
}

/*
 * Completion interrupts go out from the processor thread itself when the
 * BQL is free, but only messages to the local APICs (0xfeeXXXXX): this
 * one powers the device's slot off, and unrealize joins that very
 * thread. It must go through the main loop: sent by the thread, the
 * unplug joined the thread from itself and QEMU aborted.
 */
static void test_deliver_unplug_free_bql(void)
{
    bool gone = false;
    Fixture f;

    queue_fixture_machine(&f, "-global ICH9-LPC.acpi-pci-hotplug-with-"
                          "bridge-support=off", queue_props);
    g_assert_cmpuint(queue_create_vec(&f, 0, 0, 1), ==, HSAGPU_QRES_OK);
    msix_aim_slot_off(&f, 1);
    msix_enable(&f);
    submit_nop_irq(&f, 0, Q_SIG);
    for (int i = 0; i < 5000 && !gone; i++) {
        QDict *rsp = qtest_qmp(f.qts, "{ 'execute': 'qom-get', 'arguments': "
                               "{ 'path': '/machine/peripheral/gpu0', "
                               "'property': 'x-pass-max-slices' } }");

        gone = qdict_haskey(rsp, "error");
        qobject_unref(rsp);
        g_usleep(1000);
    }
    g_assert_true(gone);
    qtest_qmp_assert_success(f.qts, "{ 'execute': 'query-status' }");
    fixture_fini(&f);
}

/*
 * The same mechanism in the fault layer's late-MSI-X timer: two delayed
 * messages (inject-msix-delay), the first powers the slot off. Before
 * the fix the timer's loop went on with the next vector over the array
 * unrealize had freed (NULL): QEMU died of SIGSEGV.
 */
static void test_late_msix_unplug(void)
{
    Fixture f;
    QDict *rsp;

    queue_fixture_machine(&f, "-global ICH9-LPC.acpi-pci-hotplug-with-"
                          "bridge-support=off", queue_props);
    g_assert_cmpuint(queue_create_vec(&f, 0, 0, 1), ==, HSAGPU_QRES_OK);
    g_assert_cmpuint(queue_create_vec(&f, 1, 0, 2), ==, HSAGPU_QRES_OK);
    msix_aim_slot_off(&f, 1);
    msix_entry(&f, 2, MSI_ADDR + 32, MSI_DATA + 2);
    msix_enable(&f);
    qom_set_int(&f, "inject-msix-delay", 2);
    submit_nop_irq(&f, 0, Q_SIG);
    submit_nop_irq(&f, 1, Q_SIG + 64);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_true(wait_u64(&f, Q_SIG + 64 + 8, 0));
    g_assert_true(wait_qom_zero(&f, "inject-msix-delay"));
    qtest_clock_step(f.qts, 1000 * 1000 * 1000);

    qtest_qmp_assert_success(f.qts, "{ 'execute': 'query-status' }");
    rsp = qtest_qmp(f.qts, "{ 'execute': 'qom-get', 'arguments': { 'path': "
                    "'/machine/peripheral/gpu0', 'property': "
                    "'x-pass-max-slices' } }");
    g_assert_true(qdict_haskey(rsp, "error"));
    qobject_unref(rsp);
    g_assert_cmphex(qtest_readl(f.qts, MSI_ADDR + 32), ==, 0);
    fixture_fini(&f);
}

/*
 * And in inject-fatal: every queue fails, ERROR_STATUS gets QUEUE and
 * FATAL, the error interrupt (aimed at the root port's Slot Control)
 * unplugs the device. Before the fix the error interrupt went out for
 * QUEUE, unplugged the device, and FATAL's interrupt and the AER report
 * followed on the freed config space and MSI-X table: reads and writes
 * of freed memory that only a memory checker sees (this test passed
 * before the fix without one).
 */
static void test_fatal_unplug(void)
{
    Fixture f;
    QDict *rsp;

    queue_fixture_machine(&f, "-global ICH9-LPC.acpi-pci-hotplug-with-"
                          "bridge-support=off", queue_props);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    reg_write(&f, HSAGPU_REG_ERROR_INT_ENABLE, HSAGPU_ERR_ALL);
    msix_aim_slot_off(&f, HSAGPU_MSIX_VEC_ERROR);
    msix_enable(&f);
    qtest_qmp_assert_success(f.qts, "{ 'execute': 'qom-set', 'arguments': "
                             "{ 'path': '/machine/peripheral/gpu0', "
                             "'property': 'inject-fatal', 'value': true } }");

    qtest_qmp_assert_success(f.qts, "{ 'execute': 'query-status' }");
    rsp = qtest_qmp(f.qts, "{ 'execute': 'qom-get', 'arguments': { 'path': "
                    "'/machine/peripheral/gpu0', 'property': "
                    "'x-pass-max-slices' } }");
    g_assert_true(qdict_haskey(rsp, "error"));
    qobject_unref(rsp);
    fixture_fini(&f);
}

/*
 * The same with a reset: vector 1's message starts an FLR. What the same
 * delivery still owed belongs to the device before the reset: the
 * AtomicOp that failed in the same pass (an ATOMIC_INC kernel whose
 * counter is no memory: UR) must not be reported on the reset device.
 * Before the fix ERROR_STATUS and Received Master Abort showed it after
 * the FLR. Main loop only: there one run does the three packets and
 * their delivery; the thread's passes may split them.
 */
static void test_deliver_reset(void)
{
    struct hsagpu_kargs_atomic_inc inc = { .counter = 0x40000000 };
    struct hsagpu_kernel_dispatch_packet k;
    struct hsagpu_barrier_packet b;
    uint8_t exp;
    Fixture f;

    queue_fixture_props(&f, ",x-processor=mainloop");
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    signal_init(&f, BOTH_X, 1);
    barrier_packet(&b, BOTH_X);
    queue_submit(&f, 0, &b);
    submit_nop_irq(&f, 0, Q_SIG);
    qtest_memwrite(f.qts, Q_KARG, &inc, sizeof(inc));
    fill_packet(&k, 64, 64, 0);
    k.kernel_object = HSAGPU_KERNEL_ATOMIC_INC;
    queue_submit(&f, 0, &k);
    msix_aim_flr(&f, 1);
    msix_enable(&f);
    qtest_writeq(f.qts, BOTH_X + 8, 0);
    qtest_clock_step(f.qts, 10 * 1000 * 1000);

    exp = find_cap(&f, PCI_CAP_ID_EXP);
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 8), ==, 0);
    g_assert_cmphex(qpci_config_readl(f.gpu, PCI_BASE_ADDRESS_5), ==, 0);
    g_assert_false(qpci_config_readw(f.gpu, exp + PCI_EXP_DEVCTL) &
                   PCI_EXP_DEVCTL_BCR_FLR);
    gpu_reprogram(&f);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ERROR_STATUS), ==, 0);
    g_assert_false(pci_status(&f) & PCI_STATUS_REC_MASTER_ABORT);
    fixture_fini(&f);
}

void hsagpu_qtest_add_fault(void)
{
    qtest_add_func("/hsa-gpu/fault/atomic", test_fault_atomic);
    qtest_add_func("/hsa-gpu/fault/dma", test_fault_dma);
    qtest_add_func("/hsa-gpu/fault/msix", test_fault_msix);
    qtest_add_func("/hsa-gpu/fault/queue-hang", test_fault_queue_hang);
    qtest_add_func("/hsa-gpu/fault/fatal", test_fault_fatal);
    qtest_add_func("/hsa-gpu/flr", test_flr);
    qtest_add_func("/hsa-gpu/reliability/deliver-unplug-free-bql",
                   test_deliver_unplug_free_bql);
    qtest_add_func("/hsa-gpu/reliability/deliver-unplug",
                   test_deliver_unplug);
    qtest_add_data_func("/hsa-gpu/mainloop/deliver-unplug",
                        test_deliver_unplug, run_mainloop);
    qtest_add_func("/hsa-gpu/mainloop/deliver-reset", test_deliver_reset);
    qtest_add_func("/hsa-gpu/fault/late-msix-unplug", test_late_msix_unplug);
    qtest_add_func("/hsa-gpu/fault/fatal-unplug", test_fatal_unplug);
}
