/*
 * hsa-gpu qtest: Identity, BARs, capabilities, the BAR5 register file, the
 * expansion ROM, AtomicOp completers at the root port and the register-
 * issued atomic engine.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "hsagpu-qtest.h"

#define ROM_BASE        0xe0100000U

static void test_identity(void)
{
    Fixture f;

    fixture_init(&f, "");
    g_assert_cmphex(qpci_config_readw(f.gpu, PCI_VENDOR_ID), ==,
                    HSAGPU_PCI_VENDOR_ID);
    g_assert_cmphex(qpci_config_readw(f.gpu, PCI_DEVICE_ID), ==,
                    HSAGPU_PCI_DEVICE_ID);
    g_assert_cmphex(qpci_config_readl(f.gpu, PCI_CLASS_REVISION) >> 8, ==,
                    HSAGPU_PCI_CLASS_CODE);
    g_assert_cmphex(qpci_config_readw(f.gpu, PCI_SUBSYSTEM_VENDOR_ID), ==,
                    HSAGPU_PCI_SUBSYS_VENDOR_ID);
    fixture_fini(&f);

    fixture_init(&f, ",vendor-id=0x1af4,device-id=0x1234,revision=7");
    g_assert_cmphex(qpci_config_readw(f.gpu, PCI_VENDOR_ID), ==, 0x1af4);
    g_assert_cmphex(qpci_config_readw(f.gpu, PCI_DEVICE_ID), ==, 0x1234);
    g_assert_cmphex(qpci_config_readb(f.gpu, PCI_REVISION_ID), ==, 7);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_DEVICE_ID), ==, 0x12341af4);
    fixture_fini(&f);
}

static void test_bars(void)
{
    Fixture f;
    uint32_t flags;
    uint32_t rom;

    fixture_init(&f, ",vram-size=64M");
    qpci_config_writew(f.gpu, PCI_COMMAND, 0);   /* sizing: decode off */
    g_assert_cmphex(bar_size(&f, 0, &flags), ==, 64 * 1024 * 1024);
    g_assert_cmphex(flags, ==, PCI_BASE_ADDRESS_MEM_TYPE_64 |
                    PCI_BASE_ADDRESS_MEM_PREFETCH);
    g_assert_cmphex(bar_size(&f, 2, &flags), ==, HSAGPU_DOORBELL_BAR_SIZE);
    g_assert_cmphex(flags, ==, PCI_BASE_ADDRESS_MEM_TYPE_64 |
                    PCI_BASE_ADDRESS_MEM_PREFETCH);
    g_assert_cmphex(bar_size(&f, 4, &flags), ==, 0);    /* no I/O BAR */
    g_assert_cmphex(bar_size(&f, 5, &flags), ==, HSAGPU_MMIO_BAR_SIZE);
    g_assert_cmphex(flags, ==, PCI_BASE_ADDRESS_MEM_TYPE_32);

    qpci_config_writel(f.gpu, PCI_ROM_ADDRESS, PCI_ROM_ADDRESS_MASK);
    rom = qpci_config_readl(f.gpu, PCI_ROM_ADDRESS) & PCI_ROM_ADDRESS_MASK;
    g_assert_cmphex(~rom + 1, ==, HSAGPU_ROM_SIZE);
    fixture_fini(&f);

    fixture_init(&f, ",io-bar=on");
    g_assert_cmphex(bar_size(&f, 4, &flags), ==, HSAGPU_IO_BAR_SIZE);
    g_assert_cmphex(flags & PCI_BASE_ADDRESS_SPACE, ==,
                    PCI_BASE_ADDRESS_SPACE_IO);
    fixture_fini(&f);
}

static void test_capabilities(void)
{
    Fixture f;
    uint8_t exp, msix;
    uint16_t flags;

    fixture_init(&f, "");
    g_assert(qpci_config_readw(f.gpu, PCI_STATUS) & PCI_STATUS_CAP_LIST);
    g_assert_cmpint(find_cap(&f, PCI_CAP_ID_PM), ==, HSAGPU_CAP_PM_OFFSET);
    exp = find_cap(&f, PCI_CAP_ID_EXP);
    g_assert_cmpint(exp, ==, HSAGPU_CAP_PCIE_OFFSET);
    flags = qpci_config_readw(f.gpu, exp + PCI_EXP_FLAGS);
    g_assert_cmpint(flags & PCI_EXP_FLAGS_VERS, ==, 2);
    g_assert_cmpint((flags & PCI_EXP_FLAGS_TYPE) >> 4, ==,
                    PCI_EXP_TYPE_ENDPOINT);
    g_assert_cmphex(qpci_config_readl(f.gpu, exp + PCI_EXP_DEVCAP2) &
                    (PCI_EXP_DEVCAP2_ATOMIC_COMP32 |
                     PCI_EXP_DEVCAP2_ATOMIC_COMP64 |
                     PCI_EXP_DEVCAP2_ATOMIC_COMP128), ==,
                    PCI_EXP_DEVCAP2_ATOMIC_COMP32 |
                    PCI_EXP_DEVCAP2_ATOMIC_COMP64 |
                    PCI_EXP_DEVCAP2_ATOMIC_COMP128);

    /* AtomicOp Requester Enable is writable and visible in STATUS. */
    g_assert_false(reg_read(&f, HSAGPU_REG_STATUS) &
                   HSAGPU_STATUS_ATOMIC_REQ_EN);
    qpci_config_writew(f.gpu, exp + PCI_EXP_DEVCTL2,
                       PCI_EXP_DEVCTL2_ATOMIC_REQ);
    g_assert(qpci_config_readw(f.gpu, exp + PCI_EXP_DEVCTL2) &
             PCI_EXP_DEVCTL2_ATOMIC_REQ);
    g_assert(reg_read(&f, HSAGPU_REG_STATUS) & HSAGPU_STATUS_ATOMIC_REQ_EN);

    msix = find_cap(&f, PCI_CAP_ID_MSIX);
    g_assert_cmpint(msix, ==, HSAGPU_CAP_MSIX_OFFSET);
    g_assert_cmpint((qpci_config_readw(f.gpu, msix + PCI_MSIX_FLAGS) &
                     PCI_MSIX_FLAGS_QSIZE) + 1, ==,
                    HSAGPU_NUM_QUEUES_DEFAULT + 1);
    g_assert_cmphex(qpci_config_readl(f.gpu, msix + PCI_MSIX_TABLE), ==,
                    HSAGPU_MSIX_TABLE_OFFSET | HSAGPU_BAR_MMIO);
    g_assert_cmphex(qpci_config_readl(f.gpu, msix + PCI_MSIX_PBA), ==,
                    HSAGPU_MSIX_PBA_OFFSET | HSAGPU_BAR_MMIO);

    /* Extended capabilities, through ECAM. */
    qpci_config_writel(qpci_device_find(f.bus, 0), 0x60,
                       ECAM_BASE | 1);
    g_assert_cmphex(PCI_EXT_CAP_ID(ecam_readl(&f, HSAGPU_EXT_CAP_AER_OFFSET)),
                    ==, PCI_EXT_CAP_ID_ERR);
    g_assert_cmphex(PCI_EXT_CAP_NEXT(ecam_readl(&f,
                                                HSAGPU_EXT_CAP_AER_OFFSET)),
                    ==, HSAGPU_EXT_CAP_DSN_OFFSET);
    g_assert_cmphex(PCI_EXT_CAP_ID(ecam_readl(&f, HSAGPU_EXT_CAP_DSN_OFFSET)),
                    ==, PCI_EXT_CAP_ID_DSN);
    fixture_fini(&f);

    fixture_init(&f, ",atomic-comp128=off,atomic-comp32=off");
    exp = find_cap(&f, PCI_CAP_ID_EXP);
    g_assert_cmphex(qpci_config_readl(f.gpu, exp + PCI_EXP_DEVCAP2) &
                    (PCI_EXP_DEVCAP2_ATOMIC_COMP32 |
                     PCI_EXP_DEVCAP2_ATOMIC_COMP64 |
                     PCI_EXP_DEVCAP2_ATOMIC_COMP128), ==,
                    PCI_EXP_DEVCAP2_ATOMIC_COMP64);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_CAPS) &
                    (HSAGPU_CAP_ATOMIC_COMP32 | HSAGPU_CAP_ATOMIC_COMP64 |
                     HSAGPU_CAP_ATOMIC_COMP128), ==, HSAGPU_CAP_ATOMIC_COMP64);
    fixture_fini(&f);
}

static void test_registers(void)
{
    Fixture f;

    fixture_init(&f, ",vram-size=128M,num-queues=8");
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_MAGIC), ==, HSAGPU_MAGIC_VALUE);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ABI_VERSION), ==,
                    HSAGPU_ABI_VERSION);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_VRAM_SIZE_LO), ==, 128 << 20);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_VRAM_SIZE_HI), ==, 0);
    g_assert_cmphex(qtest_readq(f.qts, MMIO_BASE + HSAGPU_REG_VRAM_SIZE_LO),
                    ==, 128 << 20);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_NUM_QUEUES), ==, 8);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_MSIX_VECTORS), ==, 9);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DOORBELL_COUNT), ==,
                     HSAGPU_DOORBELL_COUNT);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_ROM_SIZE), ==, HSAGPU_ROM_SIZE);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_COMPUTE_UNITS), ==,
                     HSAGPU_COMPUTE_UNITS_DEFAULT);

    /* Scratch registers hold what is written; identification is RO. */
    reg_write(&f, HSAGPU_REG_SCRATCH0, 0xdeadbeef);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_SCRATCH0), ==, 0xdeadbeef);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_BAD_ACCESS_COUNT), ==, 0);
    reg_write(&f, HSAGPU_REG_MAGIC, 0);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_MAGIC), ==, HSAGPU_MAGIC_VALUE);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_BAD_ACCESS_COUNT), ==, 1);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_BAD_ACCESS_INFO), ==,
                    HSAGPU_BAD_ACCESS_WRITE | 4 |
                    HSAGPU_BAD_REASON_READONLY <<
                    HSAGPU_BAD_ACCESS_REASON_SHIFT);

    /* Unimplemented offsets read as zero, ignore writes, are counted. */
    g_assert_cmphex(reg_read(&f, 0x2000), ==, 0);
    reg_write(&f, 0x2000, 0x1234);
    g_assert_cmphex(reg_read(&f, 0x2000), ==, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_BAD_ACCESS_COUNT), ==, 4);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_BAD_ACCESS_ADDR), ==,
                    (HSAGPU_BAR_MMIO << 28) | 0x2000);

    /* Byte accesses are not part of the interface. */
    g_assert_cmphex(qtest_readb(f.qts, MMIO_BASE + HSAGPU_REG_MAGIC), ==, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_BAD_ACCESS_COUNT), ==, 5);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ERROR_STATUS), ==,
                    HSAGPU_ERR_BAD_MMIO);
    reg_write(&f, HSAGPU_REG_ERROR_STATUS, HSAGPU_ERR_BAD_MMIO);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ERROR_STATUS), ==, 0);

    /* Reset restores the power-on state. */
    qtest_system_reset(f.qts);
    setup_bridge_and_bars(&f);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_SCRATCH0), ==, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_BAD_ACCESS_COUNT), ==, 0);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_MAGIC), ==, HSAGPU_MAGIC_VALUE);
    fixture_fini(&f);
}

static void test_timestamp(void)
{
    Fixture f;
    uint64_t t0, t1;

    fixture_init(&f, "");
    t0 = qtest_readq(f.qts, MMIO_BASE + HSAGPU_REG_TIMESTAMP_LO);
    qtest_clock_step(f.qts, 1000000);
    t1 = qtest_readq(f.qts, MMIO_BASE + HSAGPU_REG_TIMESTAMP_LO);
    g_assert_cmpuint(t1 - t0, ==, 1000000);
    fixture_fini(&f);
}

static void test_rom(void)
{
    Fixture f;
    uint32_t pcir, info;
    uint8_t sum = 0;

    fixture_init(&f, ",vram-size=32M,compute-units=60");
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_COMPUTE_UNITS), ==, 60);
    qpci_config_writel(f.gpu, PCI_ROM_ADDRESS,
                       ROM_BASE | PCI_ROM_ADDRESS_ENABLE);
    g_assert_cmphex(qtest_readw(f.qts, ROM_BASE), ==, 0xaa55);
    pcir = qtest_readw(f.qts, ROM_BASE + 0x18);
    g_assert_cmphex(qtest_readl(f.qts, ROM_BASE + pcir), ==, 0x52494350);
    g_assert_cmphex(qtest_readw(f.qts, ROM_BASE + pcir + 4), ==,
                    HSAGPU_PCI_VENDOR_ID);
    g_assert_cmphex(qtest_readw(f.qts, ROM_BASE + pcir + 6), ==,
                    HSAGPU_PCI_DEVICE_ID);
    g_assert_cmphex(qtest_readw(f.qts, ROM_BASE + pcir + 0x10) * 512, ==,
                    HSAGPU_ROM_SIZE);
    info = qtest_readw(f.qts, ROM_BASE + HSAGPU_ROM_INFO_PTR_OFFSET);
    g_assert_cmphex(qtest_readl(f.qts, ROM_BASE + info), ==,
                    HSAGPU_ROM_INFO_SIGNATURE);
    g_assert_cmphex(qtest_readq(f.qts, ROM_BASE + info + 16), ==, 32 << 20);
    g_assert_cmpuint(qtest_readl(f.qts, ROM_BASE + info +
                                 offsetof(struct hsagpu_rom_info,
                                          compute_units)), ==, 60);
    for (int i = 0; i < HSAGPU_ROM_INFO_SIZE; i++) {
        sum += qtest_readb(f.qts, ROM_BASE + info + i);
    }
    g_assert_cmpuint(sum, ==, 0);
    fixture_fini(&f);
}

/* patches/0002: AtomicOp properties of pcie-root-port, default off. */
static void test_root_port_atomics(void)
{
    const uint32_t bits = PCI_EXP_DEVCAP2_ATOMIC_ROUTE |
                          PCI_EXP_DEVCAP2_ATOMIC_COMP32 |
                          PCI_EXP_DEVCAP2_ATOMIC_COMP64 |
                          PCI_EXP_DEVCAP2_ATOMIC_COMP128;
    Fixture f;
    uint8_t exp;

    fixture_init(&f, "");
    exp = qpci_find_capability(f.rp, PCI_CAP_ID_EXP, 0);
    g_assert_cmphex(qpci_config_readl(f.rp, exp + PCI_EXP_DEVCAP2) & bits,
                    ==, 0);
    /* No routing, no egress blocking bit */
    qpci_config_writew(f.rp, exp + PCI_EXP_DEVCTL2,
                       PCI_EXP_DEVCTL2_ATOMIC_EGRESS_BLOCK);
    g_assert_false(qpci_config_readw(f.rp, exp + PCI_EXP_DEVCTL2) &
                   PCI_EXP_DEVCTL2_ATOMIC_EGRESS_BLOCK);
    fixture_fini(&f);

    fixture_init_rp(&f, ",atomic-routing=on,atomic-comp32=on,"
                    "atomic-comp64=on", "");
    exp = qpci_find_capability(f.rp, PCI_CAP_ID_EXP, 0);
    g_assert_cmphex(qpci_config_readl(f.rp, exp + PCI_EXP_DEVCAP2) & bits,
                    ==, PCI_EXP_DEVCAP2_ATOMIC_ROUTE |
                    PCI_EXP_DEVCAP2_ATOMIC_COMP32 |
                    PCI_EXP_DEVCAP2_ATOMIC_COMP64);
    qpci_config_writew(f.rp, exp + PCI_EXP_DEVCTL2,
                       PCI_EXP_DEVCTL2_ATOMIC_EGRESS_BLOCK);
    g_assert_true(qpci_config_readw(f.rp, exp + PCI_EXP_DEVCTL2) &
                  PCI_EXP_DEVCTL2_ATOMIC_EGRESS_BLOCK);
    qtest_system_reset(f.qts);
    g_assert_false(qpci_config_readw(f.rp, exp + PCI_EXP_DEVCTL2) &
                   PCI_EXP_DEVCTL2_ATOMIC_EGRESS_BLOCK);
    fixture_fini(&f);
}

/* The engine refuses to send without Requester Enable, then UR. */
static void test_atomic_engine(void)
{
    Fixture f;
    uint8_t exp;

    fixture_init(&f, "");
    exp = find_cap(&f, PCI_CAP_ID_EXP);
    qpci_config_writew(f.gpu, PCI_COMMAND,
                       PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
    reg_write(&f, HSAGPU_REG_ATOMIC_ADDR_LO, 0x1000);
    reg_write(&f, HSAGPU_REG_ATOMIC_CTRL, HSAGPU_ATOMIC_OP_FETCHADD |
              HSAGPU_ATOMIC_SIZE_64 | HSAGPU_ATOMIC_GO);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ATOMIC_STATUS), ==,
                    HSAGPU_ATOMIC_DONE | HSAGPU_ATOMIC_ST_NOT_ENABLED);
    qpci_config_writew(f.gpu, exp + PCI_EXP_DEVCTL2,
                       PCI_EXP_DEVCTL2_ATOMIC_REQ);
    /* Stock root port: no completer for system memory */
    reg_write(&f, HSAGPU_REG_ATOMIC_CTRL, HSAGPU_ATOMIC_OP_FETCHADD |
              HSAGPU_ATOMIC_SIZE_64 | HSAGPU_ATOMIC_GO);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ATOMIC_STATUS), ==,
                    HSAGPU_ATOMIC_DONE | HSAGPU_ATOMIC_ST_UR);
    g_assert(reg_read(&f, HSAGPU_REG_ERROR_STATUS) & HSAGPU_ERR_ATOMIC);
    fixture_fini(&f);

    fixture_init_rp(&f, ",atomic-comp64=on", "");
    exp = find_cap(&f, PCI_CAP_ID_EXP);
    qpci_config_writew(f.gpu, PCI_COMMAND,
                       PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
    qpci_config_writew(f.gpu, exp + PCI_EXP_DEVCTL2,
                       PCI_EXP_DEVCTL2_ATOMIC_REQ);
    qtest_writeq(f.qts, 0x1000, 40);
    qtest_writeq(f.qts, MMIO_BASE + HSAGPU_REG_ATOMIC_ADDR_LO, 0x1000);
    qtest_writeq(f.qts, MMIO_BASE + HSAGPU_REG_ATOMIC_SRC0, 2);
    reg_write(&f, HSAGPU_REG_ATOMIC_CTRL, HSAGPU_ATOMIC_OP_FETCHADD |
              HSAGPU_ATOMIC_SIZE_64 | HSAGPU_ATOMIC_GO);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ATOMIC_STATUS), ==,
                    HSAGPU_ATOMIC_DONE | HSAGPU_ATOMIC_ST_OK);
    g_assert_cmpuint(qtest_readq(f.qts, MMIO_BASE + HSAGPU_REG_ATOMIC_RESULT),
                     ==, 40);
    g_assert_cmpuint(qtest_readq(f.qts, 0x1000), ==, 42);
    /* 32-bit is not completed by this root port */
    reg_write(&f, HSAGPU_REG_ATOMIC_CTRL, HSAGPU_ATOMIC_OP_FETCHADD |
              HSAGPU_ATOMIC_SIZE_32 | HSAGPU_ATOMIC_GO);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ATOMIC_STATUS), ==,
                    HSAGPU_ATOMIC_DONE | HSAGPU_ATOMIC_ST_UR);
    g_assert_cmpuint(qtest_readq(f.qts, 0x1000), ==, 42);

    /*
     * ATOMIC_REPEAT runs inside one MMIO write with the BQL held: its cap
     * keeps that write short (at most 2^16 host atomics).
     */
    qtest_writeq(f.qts, 0x1000, 0);
    qtest_writeq(f.qts, MMIO_BASE + HSAGPU_REG_ATOMIC_SRC0, 1);
    reg_write(&f, HSAGPU_REG_ATOMIC_REPEAT, 1U << 24);
    reg_write(&f, HSAGPU_REG_ATOMIC_CTRL, HSAGPU_ATOMIC_OP_FETCHADD |
              HSAGPU_ATOMIC_SIZE_64 | HSAGPU_ATOMIC_GO);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_ATOMIC_STATUS), ==,
                    HSAGPU_ATOMIC_DONE | HSAGPU_ATOMIC_ST_OK);
    g_assert_cmpuint(qtest_readq(f.qts, 0x1000), <=, 1U << 16);
    g_assert_cmpuint(qtest_readq(f.qts, 0x1000), ==,
                     HSAGPU_ATOMIC_REPEAT_MAX);
    fixture_fini(&f);
}

/*
 * BAR2 read-back keeps the last doorbell written through the device per
 * 4 KiB page (512 doorbells): 32-bit halves merge into it, another
 * doorbell of the page replaces it, other pages keep theirs.
 */
static void test_doorbell_readback(void)
{
    Fixture f;

    queue_fixture(&f);
    qtest_writeq(f.qts, DB_BASE + 8 * 5, 0x1122334455667788ULL);
    g_assert_cmphex(qtest_readq(f.qts, DB_BASE + 8 * 5), ==,
                    0x1122334455667788ULL);
    qtest_writel(f.qts, DB_BASE + 8 * 5 + 4, 0xcafef00d);
    g_assert_cmphex(qtest_readq(f.qts, DB_BASE + 8 * 5), ==,
                    0xcafef00d55667788ULL);
    g_assert_cmphex(qtest_readl(f.qts, DB_BASE + 8 * 5), ==, 0x55667788);
    qtest_writeq(f.qts, DB_BASE + 4096 + 8 * 511, 42);
    g_assert_cmphex(qtest_readq(f.qts, DB_BASE + 8 * 5), ==,
                    0xcafef00d55667788ULL);
    g_assert_cmphex(qtest_readq(f.qts, DB_BASE + 4096 + 8 * 511), ==, 42);
    qtest_writel(f.qts, DB_BASE + 8 * 6, 7);
    g_assert_cmphex(qtest_readq(f.qts, DB_BASE + 8 * 6), ==, 7);
    g_assert_cmphex(qtest_readq(f.qts, DB_BASE + 8 * 5), ==, 0);
    g_assert_cmphex(qtest_readq(f.qts, DB_BASE + HSAGPU_DOORBELL_BAR_SIZE - 8),
                    ==, 0);
    /* An enabled queue's doorbell only wakes the processor. */
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    qtest_writeq(f.qts, DB_BASE, 99);
    g_assert_cmphex(qtest_readq(f.qts, DB_BASE), ==, 0);
    g_assert_cmphex(qtest_readq(f.qts, DB_BASE + 8 * 6), ==, 7);
    fixture_fini(&f);
}

void hsagpu_qtest_add_regs(void)
{
    qtest_add_func("/hsa-gpu/identity", test_identity);
    qtest_add_func("/hsa-gpu/bars", test_bars);
    qtest_add_func("/hsa-gpu/capabilities", test_capabilities);
    qtest_add_func("/hsa-gpu/registers", test_registers);
    qtest_add_func("/hsa-gpu/timestamp", test_timestamp);
    qtest_add_func("/hsa-gpu/rom", test_rom);
    qtest_add_func("/hsa-gpu/root-port-atomics", test_root_port_atomics);
    qtest_add_func("/hsa-gpu/atomic-engine", test_atomic_engine);
    qtest_add_func("/hsa-gpu/doorbell-readback", test_doorbell_readback);
}
