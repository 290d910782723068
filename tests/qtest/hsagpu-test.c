/*
 * QTest for the hsa-gpu device: PCI personality (IDs, BAR sizes and flags,
 * expansion ROM, capabilities, AtomicOp completer bits) and the BAR5
 * register file, without booting a guest.
 *
 * The device sits behind a pcie-root-port on q35. No firmware runs under
 * qtest, so the test programs the bridge and the BARs itself and reads
 * extended config space through the MCH's ECAM window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include <sys/resource.h>
#include "libqtest.h"
#include "libqos/pci-pc.h"
#include "qobject/qdict.h"
#include "qemu/bswap.h"
#include "hw/pci/pci_regs.h"
#include "hsagpu/hsagpu_regs.h"
#include "hsagpu/hsagpu_aql.h"
#include "hsagpu/hsagpu_sdma.h"

#define RP_DEVFN        QPCI_DEVFN(4, 0)
#define GPU_BUS         1
#define ECAM_BASE       0xb0000000ULL
#define MMIO_BASE       0xe0000000U     /* BAR5 */
#define ROM_BASE        0xe0100000U
#define WINDOW_BASE     0xe0000000U
#define WINDOW_LIMIT    0xe01fffffU

typedef struct Fixture {
    QTestState *qts;
    QPCIBus *bus;
    QPCIDevice *rp;
    QPCIDevice *gpu;
} Fixture;

static void setup_bridge_and_bars(Fixture *f)
{
    qpci_config_writeb(f->rp, PCI_PRIMARY_BUS, 0);
    qpci_config_writeb(f->rp, PCI_SECONDARY_BUS, GPU_BUS);
    qpci_config_writeb(f->rp, PCI_SUBORDINATE_BUS, GPU_BUS);
    qpci_config_writew(f->rp, PCI_MEMORY_BASE, WINDOW_BASE >> 16);
    qpci_config_writew(f->rp, PCI_MEMORY_LIMIT, WINDOW_LIMIT >> 16);
    qpci_config_writew(f->rp, PCI_COMMAND,
                       PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);

    f->gpu = qpci_device_find(f->bus, (GPU_BUS << 8) | QPCI_DEVFN(0, 0));
    g_assert(f->gpu);
    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_5, MMIO_BASE);
    qpci_config_writew(f->gpu, PCI_COMMAND, PCI_COMMAND_MEMORY);
}

/* @machine: more QEMU options; @rp, @extra: root port and device props */
static void fixture_init_machine(Fixture *f, const char *machine,
                                 const char *rp, const char *extra)
{
    f->qts = qtest_initf("-M q35 -nic none %s -device pcie-root-port,id=rp0,"
                         "bus=pcie.0,chassis=1,addr=0x4%s "
                         "-device hsa-gpu,id=gpu0,bus=rp0%s", machine, rp,
                         extra);
    f->bus = qpci_new_pc(f->qts, NULL);
    f->rp = qpci_device_find(f->bus, RP_DEVFN);
    g_assert(f->rp);
    setup_bridge_and_bars(f);
}

static void fixture_init_rp(Fixture *f, const char *rp, const char *extra)
{
    fixture_init_machine(f, "", rp, extra);
}

static void fixture_init(Fixture *f, const char *extra)
{
    fixture_init_rp(f, "", extra);
}

static void fixture_fini(Fixture *f)
{
    g_free(f->gpu);
    g_free(f->rp);
    qpci_free_pc(f->bus);
    qtest_quit(f->qts);
}

static uint32_t reg_read(Fixture *f, uint32_t off)
{
    return qtest_readl(f->qts, MMIO_BASE + off);
}

static void reg_write(Fixture *f, uint32_t off, uint32_t val)
{
    qtest_writel(f->qts, MMIO_BASE + off, val);
}

static uint32_t ecam_readl(Fixture *f, uint16_t off)
{
    return qtest_readl(f->qts, ECAM_BASE + ((uint64_t)GPU_BUS << 20) + off);
}

/* Size a memory BAR (or a 64-bit BAR pair) by the all-ones method. */
static uint64_t bar_size(Fixture *f, int bar, uint32_t *flags)
{
    uint8_t off = PCI_BASE_ADDRESS_0 + 4 * bar;
    uint32_t lo, hi = 0xffffffff;
    uint64_t mask;

    qpci_config_writel(f->gpu, off, 0xffffffff);
    lo = qpci_config_readl(f->gpu, off);
    *flags = lo & 0xf;
    if ((lo & PCI_BASE_ADDRESS_MEM_TYPE_MASK) == PCI_BASE_ADDRESS_MEM_TYPE_64) {
        qpci_config_writel(f->gpu, off + 4, 0xffffffff);
        hi = qpci_config_readl(f->gpu, off + 4);
    }
    if (lo & PCI_BASE_ADDRESS_SPACE_IO) {
        mask = (uint64_t)(lo & PCI_BASE_ADDRESS_IO_MASK) | 0xffffffff00000000;
    } else {
        mask = ((uint64_t)hi << 32) | (lo & PCI_BASE_ADDRESS_MEM_MASK);
    }
    return lo ? ~mask + 1 : 0;
}

static uint8_t find_cap(Fixture *f, uint8_t id)
{
    uint8_t pos = qpci_config_readb(f->gpu, PCI_CAPABILITY_LIST);

    while (pos) {
        if (qpci_config_readb(f->gpu, pos) == id) {
            return pos;
        }
        pos = qpci_config_readb(f->gpu, pos + 1);
    }
    return 0;
}

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

/* ------------------------------------------------------------------ */
/* AQL queues                                                          */
/* ------------------------------------------------------------------ */

#define DB_BASE         0xe0400000ULL   /* BAR2, prefetchable window */
#define Q_RING          0x100000ULL
#define Q_DESC          0x110000ULL
#define Q_SIG           0x120000ULL
#define Q_KARG          0x130000ULL
#define Q_MBOX          0x140000ULL
#define Q_BUF           0x200000ULL
#define Q_RING_SIZE     16
#define QUEUE_RP        ",atomic-comp32=on,atomic-comp64=on"

#define VRAM_BASE       0xe0600000ULL   /* BAR0 with vram-size=1M */

static void queue_fixture_machine(Fixture *f, const char *machine,
                                  const char *props)
{
    uint8_t exp;

    fixture_init_machine(f, machine, QUEUE_RP, props);
    qpci_config_writew(f->rp, PCI_PREF_MEMORY_BASE, DB_BASE >> 16);
    qpci_config_writew(f->rp, PCI_PREF_MEMORY_LIMIT,
                       (VRAM_BASE + (1 << 20) - 1) >> 16);
    qpci_config_writel(f->rp, PCI_PREF_BASE_UPPER32, 0);
    qpci_config_writel(f->rp, PCI_PREF_LIMIT_UPPER32, 0);
    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_2, DB_BASE);
    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_3, 0);
    qpci_config_writew(f->gpu, PCI_COMMAND,
                       PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
    exp = find_cap(f, PCI_CAP_ID_EXP);
    qpci_config_writew(f->gpu, exp + PCI_EXP_DEVCTL2,
                       PCI_EXP_DEVCTL2_ATOMIC_REQ);
}

static void queue_fixture_props(Fixture *f, const char *props)
{
    queue_fixture_machine(f, "", props);
}

/* Device properties of queue_fixture(): the mainloop variants set them. */
static const char *queue_props = "";

static void queue_fixture(Fixture *f)
{
    queue_fixture_props(f, queue_props);
}

static void qreg_write(Fixture *f, unsigned q, uint32_t reg, uint32_t val)
{
    reg_write(f, HSAGPU_REG_QUEUE(q) + reg, val);
}

static uint32_t qreg_read(Fixture *f, unsigned q, uint32_t reg)
{
    return reg_read(f, HSAGPU_REG_QUEUE(q) + reg);
}

/* Register queue @q with its ring, descriptor, doorbell @q, vector @vec. */
static uint32_t queue_create_vec(Fixture *f, unsigned q, uint32_t flags,
                                 unsigned vec)
{
    uint64_t ring = Q_RING + q * Q_RING_SIZE * 64, desc = Q_DESC + q * 256;

    for (unsigned i = 0; i < Q_RING_SIZE; i++) {
        qtest_writew(f->qts, ring + 64 * i, HSAGPU_PKT_TYPE_INVALID);
    }
    qtest_writeq(f->qts, desc + HSAGPU_QUEUE_DESC_RPTR, 0);
    qtest_writeq(f->qts, desc + HSAGPU_QUEUE_DESC_WPTR, 0);
    qreg_write(f, q, HSAGPU_QREG_RING_LO, ring);
    qreg_write(f, q, HSAGPU_QREG_RING_HI, 0);
    qreg_write(f, q, HSAGPU_QREG_RING_SIZE, Q_RING_SIZE);
    qreg_write(f, q, HSAGPU_QREG_DOORBELL, q);
    qreg_write(f, q, HSAGPU_QREG_RPTR_LO, desc + HSAGPU_QUEUE_DESC_RPTR);
    qreg_write(f, q, HSAGPU_QREG_RPTR_HI, 0);
    qreg_write(f, q, HSAGPU_QREG_WPTR_LO, desc + HSAGPU_QUEUE_DESC_WPTR);
    qreg_write(f, q, HSAGPU_QREG_WPTR_HI, 0);
    qreg_write(f, q, HSAGPU_QREG_VECTOR, vec);
    qreg_write(f, q, HSAGPU_QREG_FLAGS, flags);
    qreg_write(f, q, HSAGPU_QREG_CMD, HSAGPU_QCMD_ENABLE);
    return qreg_read(f, q, HSAGPU_QREG_CMD);
}

static uint32_t queue_create(Fixture *f, unsigned q, uint32_t flags)
{
    return queue_create_vec(f, q, flags, 1);
}

/* Write a packet body at the write index, publish its header, ring. */
static uint64_t queue_submit(Fixture *f, unsigned q, const void *pkt)
{
    uint64_t ring = Q_RING + q * Q_RING_SIZE * 64;
    uint64_t wptr = Q_DESC + q * 256 + HSAGPU_QUEUE_DESC_WPTR;
    uint64_t idx = qtest_readq(f->qts, wptr);
    uint64_t slot = ring + (idx % Q_RING_SIZE) * 64;

    qtest_memwrite(f->qts, slot + 4, (const uint8_t *)pkt + 4, 60);
    qtest_writel(f->qts, slot, *(const uint32_t *)pkt);
    qtest_writeq(f->qts, wptr, idx + 1);
    qtest_writeq(f->qts, DB_BASE + 8 * q, idx);
    return idx;
}

static void signal_init(Fixture *f, uint64_t sig, int64_t value)
{
    uint8_t zero[64] = { 0 };

    qtest_memwrite(f->qts, sig, zero, sizeof(zero));
    qtest_writeq(f->qts, sig, HSAGPU_SIGNAL_KIND_USER);
    qtest_writeq(f->qts, sig + 8, value);
}

/* The processor runs in its own thread: poll for its result. */
static bool wait_u64(Fixture *f, uint64_t addr, uint64_t want)
{
    for (int i = 0; i < 5000; i++) {
        if (qtest_readq(f->qts, addr) == want) {
            return true;
        }
        g_usleep(1000);
    }
    return false;
}

static bool wait_qstate(Fixture *f, unsigned q, uint32_t state)
{
    for (int i = 0; i < 5000; i++) {
        if ((qreg_read(f, q, HSAGPU_QREG_STATE) & HSAGPU_QSTATE_MASK) ==
            state) {
            return true;
        }
        g_usleep(1000);
    }
    return false;
}

static void fill_packet(struct hsagpu_kernel_dispatch_packet *k,
                        uint32_t grid, uint16_t wg, uint64_t sig)
{
    memset(k, 0, sizeof(*k));
    k->header = HSAGPU_PKT_TYPE_KERNEL_DISPATCH |
                HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_ACQUIRE_SHIFT |
                HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_RELEASE_SHIFT;
    k->setup = 1;
    k->workgroup_size_x = wg;
    k->workgroup_size_y = k->workgroup_size_z = 1;
    k->grid_size_x = grid;
    k->grid_size_y = k->grid_size_z = 1;
    k->kernel_object = HSAGPU_KERNEL_FILL;
    k->kernarg_address = Q_KARG;
    k->completion_signal = sig;
}

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

/* Wait for a long kernel: no bound on the host's speed, only a backstop. */
static bool wait_u64_long(Fixture *f, uint64_t addr, uint64_t want)
{
    for (int i = 0; i < 120000; i++) {
        if (qtest_readq(f->qts, addr) == want) {
            return true;
        }
        g_usleep(1000);
    }
    return false;
}

static void agent_packet(struct hsagpu_agent_dispatch_packet *a,
                         uint16_t type, uint64_t ret, uint64_t sig)
{
    memset(a, 0, sizeof(*a));
    a->header = HSAGPU_PKT_TYPE_AGENT_DISPATCH |
                HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_ACQUIRE_SHIFT |
                HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_RELEASE_SHIFT;
    a->type = type;
    a->return_address = ret;
    a->completion_signal = sig;
}

#define BIG_ITEMS       (1U << 23)
#define BIG_COUNTER     (Q_BUF + 0x8000)

/* An ATOMIC_INC of BIG_ITEMS one-item workgroups on queue 0. */
static void submit_big(Fixture *f, uint64_t sig)
{
    struct hsagpu_kargs_atomic_inc args = { .counter = BIG_COUNTER };
    struct hsagpu_kernel_dispatch_packet k;

    qtest_memwrite(f->qts, Q_KARG + 128, &args, sizeof(args));
    signal_init(f, sig, 1);
    fill_packet(&k, BIG_ITEMS, 1, sig);
    k.kernel_object = HSAGPU_KERNEL_ATOMIC_INC;
    k.kernarg_address = Q_KARG + 128;
    queue_submit(f, 0, &k);
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

static void dma_packet(struct hsagpu_dma_packet *d, uint8_t op, uint64_t dst,
                       uint64_t src, uint64_t size, uint64_t sig)
{
    memset(d, 0, sizeof(*d));
    d->header = HSAGPU_PKT_TYPE_VENDOR_SPECIFIC |
                HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_ACQUIRE_SHIFT |
                HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_RELEASE_SHIFT;
    d->format = HSAGPU_VENDOR_FORMAT_DMA;
    d->op = op;
    d->dst = dst;
    d->src = src;
    d->size = size;
    d->completion_signal = sig;
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

/* ------------------------------------------------------------------ */
/* Peer to peer: one bus resolver for DMA and AtomicOps                */
/* ------------------------------------------------------------------ */

#define SW_UP_BUS       2
#define SW_DN0_BUS      3
#define SW_DN1_BUS      4
#define PEER_VRAM       0x100000000ULL  /* gpu1's BAR0: 2^32 */
#define PEER_COUNTER    (PEER_VRAM + 0x100)

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

static void bridge_setup(QPCIDevice *d, uint8_t pri, uint8_t sec, uint8_t sub,
                         uint64_t pref_base, uint64_t pref_limit)
{
    qpci_config_writeb(d, PCI_PRIMARY_BUS, pri);
    qpci_config_writeb(d, PCI_SECONDARY_BUS, sec);
    qpci_config_writeb(d, PCI_SUBORDINATE_BUS, sub);
    qpci_config_writew(d, PCI_MEMORY_BASE, WINDOW_BASE >> 16);
    qpci_config_writew(d, PCI_MEMORY_LIMIT, WINDOW_LIMIT >> 16);
    qpci_config_writew(d, PCI_PREF_MEMORY_BASE, (pref_base >> 16) & 0xfff0);
    qpci_config_writew(d, PCI_PREF_MEMORY_LIMIT, (pref_limit >> 16) & 0xfff0);
    qpci_config_writel(d, PCI_PREF_BASE_UPPER32, pref_base >> 32);
    qpci_config_writel(d, PCI_PREF_LIMIT_UPPER32, pref_limit >> 32);
    qpci_config_writew(d, PCI_COMMAND, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
}

/*
 * The p2p-limit preset in small: root port -> x3130 switch -> dn0 with
 * gpu0, dn1 with gpu1; every port routes AtomicOps and both devices have
 * p2p-addr-bits=@bits. gpu0's BAR5 and doorbells sit below 4 GiB; gpu1's
 * VRAM BAR at 4 GiB is out of gpu0's reach with 32 bits although the
 * switch would route a request to it, and within reach with 33.
 */
static void p2p_fixture(Fixture *f, unsigned bits)
{
    const char *route = ",atomic-routing=on";
    QPCIDevice *up, *dn0, *dn1, *peer;
    uint8_t exp;

    f->qts = qtest_initf("-M q35 -nic none -device pcie-root-port,id=rp0,"
                         "bus=pcie.0,chassis=1,addr=0x4%s%s "
                         "-device x3130-upstream,id=up0,bus=rp0%s "
                         "-device xio3130-downstream,id=dn0,bus=up0,addr=0,"
                         "chassis=10,slot=0%s "
                         "-device xio3130-downstream,id=dn1,bus=up0,addr=1,"
                         "chassis=11,slot=1%s "
                         "-device hsa-gpu,bus=dn0,p2p-addr-bits=%u "
                         "-device hsa-gpu,bus=dn1,p2p-addr-bits=%u,"
                         "vram-size=1M", QUEUE_RP, route, route, route,
                         route, bits, bits);
    f->bus = qpci_new_pc(f->qts, NULL);
    f->rp = qpci_device_find(f->bus, RP_DEVFN);
    g_assert(f->rp);
    bridge_setup(f->rp, 0, GPU_BUS, SW_DN1_BUS, DB_BASE,
                 PEER_VRAM + (1 << 20) - 1);
    up = qpci_device_find(f->bus, GPU_BUS << 8);
    g_assert(up);
    bridge_setup(up, GPU_BUS, SW_UP_BUS, SW_DN1_BUS, DB_BASE,
                 PEER_VRAM + (1 << 20) - 1);
    dn0 = qpci_device_find(f->bus, SW_UP_BUS << 8);
    dn1 = qpci_device_find(f->bus, SW_UP_BUS << 8 | QPCI_DEVFN(1, 0));
    g_assert(dn0 && dn1);
    bridge_setup(dn0, SW_UP_BUS, SW_DN0_BUS, SW_DN0_BUS, DB_BASE,
                 DB_BASE + HSAGPU_DOORBELL_BAR_SIZE - 1);
    bridge_setup(dn1, SW_UP_BUS, SW_DN1_BUS, SW_DN1_BUS, PEER_VRAM,
                 PEER_VRAM + (1 << 20) - 1);

    peer = qpci_device_find(f->bus, SW_DN1_BUS << 8);
    g_assert(peer);
    qpci_config_writel(peer, PCI_BASE_ADDRESS_0, (uint32_t)PEER_VRAM);
    qpci_config_writel(peer, PCI_BASE_ADDRESS_1, PEER_VRAM >> 32);
    qpci_config_writew(peer, PCI_COMMAND, PCI_COMMAND_MEMORY);

    f->gpu = qpci_device_find(f->bus, SW_DN0_BUS << 8);
    g_assert(f->gpu);
    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_5, MMIO_BASE);
    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_2, DB_BASE);
    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_3, 0);
    qpci_config_writew(f->gpu, PCI_COMMAND,
                       PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
    exp = find_cap(f, PCI_CAP_ID_EXP);
    qpci_config_writew(f->gpu, exp + PCI_EXP_DEVCTL2,
                       PCI_EXP_DEVCTL2_ATOMIC_REQ);
    g_free(up);
    g_free(dn0);
    g_free(dn1);
    g_free(peer);

    g_assert_cmpuint(reg_read(f, HSAGPU_REG_P2P_ADDR_BITS), ==, bits);
    qtest_writeq(f->qts, PEER_COUNTER, 40);
    g_assert_cmpuint(qtest_readq(f->qts, PEER_COUNTER), ==, 40);
}

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

/* A NOP on queue 1 that completed: the thread has made a pass since. */
static void nop_pass(Fixture *f, uint64_t sig)
{
    struct hsagpu_agent_dispatch_packet a;

    signal_init(f, sig, 1);
    agent_packet(&a, HSAGPU_AGENT_NOP, 0, sig);
    queue_submit(f, 1, &a);
    g_assert_true(wait_u64(f, sig + 8, 0));
}

static void queue_cmd(Fixture *f, unsigned q, uint32_t cmd, uint32_t want)
{
    qreg_write(f, q, HSAGPU_QREG_CMD, cmd);
    g_assert_cmpuint(qreg_read(f, q, HSAGPU_QREG_CMD), ==, want);
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

/* ------------------------------------------------------------------ */
/* Migration                                                           */
/* ------------------------------------------------------------------ */

static char *migrate_status(QTestState *qts)
{
    QDict *rsp = qtest_qmp_assert_success_ref(qts,
                                              "{ 'execute': 'query-migrate' }");
    char *st = g_strdup(qdict_haskey(rsp, "status") ?
                        qdict_get_str(rsp, "status") : "none");

    qobject_unref(rsp);
    return st;
}

/* Poll until the migration on @qts leaves the running states. */
static char *migrate_wait(QTestState *qts)
{
    for (;;) {
        char *st = migrate_status(qts);

        if (strcmp(st, "completed") && strcmp(st, "failed") &&
            strcmp(st, "cancelled")) {
            g_free(st);
            g_usleep(10000);
            continue;
        }
        return st;
    }
}

/* Save @f's VM to @path: stopped, so nothing changes while it is sent. */
static void migrate_to_file(Fixture *f, const char *path)
{
    g_autofree char *uri = g_strdup_printf("file:%s", path);
    g_autofree char *st = NULL;

    qtest_qmp_assert_success(f->qts, "{ 'execute': 'stop' }");
    qtest_qmp_assert_success(f->qts, "{ 'execute': 'migrate', "
                             "'arguments': { 'uri': %s } }", uri);
    st = migrate_wait(f->qts);
    g_assert_cmpstr(st, ==, "completed");
}

/*
 * A second QEMU like the queue fixture's (@extra: more options), loading
 * @path: its status.
 */
static char *migrate_from_file_opts(Fixture *f, const char *path,
                                    const char *extra)
{
    g_autofree char *uri = g_strdup_printf("file:%s", path);

    f->qts = qtest_initf("-M q35 -nic none -device pcie-root-port,id=rp0,"
                         "bus=pcie.0,chassis=1,addr=0x4" QUEUE_RP
                         " -device hsa-gpu,id=gpu0,bus=rp0 -incoming defer "
                         "%s", extra);
    qtest_qmp_assert_success(f->qts, "{ 'execute': 'migrate-incoming', "
                             "'arguments': { 'uri': %s, "
                             "'exit-on-error': false } }", uri);
    return migrate_wait(f->qts);
}

static char *migrate_from_file(Fixture *f, const char *path)
{
    return migrate_from_file_opts(f, path, "");
}

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
    g_autofree char *st = NULL;
    uint64_t want = MIG_PATTERN | MIG_PATTERN << 32, slot = 0;
    struct hsagpu_dma_packet d;
    bool caught = false;
    Fixture f, g = { 0 };

    queue_fixture(&f);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    signal_init(&f, Q_SIG, 1);
    dma_packet(&d, HSAGPU_DMA_OP_FILL, MIG_SRC, 0, MIG_LEN, Q_SIG);
    d.pattern = MIG_PATTERN;
    queue_submit(&f, 0, &d);
    g_assert_true(wait_u64_long(&f, Q_SIG + 8, 0));

    for (int tries = 0; tries < 10 && !caught; tries++) {
        uint64_t first, last;

        queue_cmd(&f, 0, HSAGPU_QCMD_DESTROY, HSAGPU_QRES_OK);
        g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
        qtest_writeq(f.qts, MIG_DST, 0);
        qtest_writeq(f.qts, MIG_DST + MIG_LEN - 8, 0);
        signal_init(&f, Q_SIG, 1);
        dma_packet(&d, HSAGPU_DMA_OP_COPY, MIG_DST, MIG_SRC, MIG_LEN, Q_SIG);
        slot = Q_RING + (queue_submit(&f, 0, &d) % Q_RING_SIZE) * 64;
        qreg_write(&f, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_SUSPEND);
        first = qtest_readq(f.qts, MIG_DST);
        last = qtest_readq(f.qts, MIG_DST + MIG_LEN - 8);
        caught = qtest_readq(f.qts, Q_SIG + 8) == 1 && first == want &&
                 last == 0;
    }
    if (!caught) {
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
    migrate_to_file(&f, path);
    fixture_fini(&f);

    st = migrate_from_file(&g, path);
    g_assert_cmpstr(st, ==, "completed");
    qtest_qmp_assert_success(g.qts, "{ 'execute': 'cont' }");
    qreg_write(&g, 0, HSAGPU_QREG_CMD, HSAGPU_QCMD_RESUME);
    g_assert_true(wait_u64_long(&g, Q_SIG + 8, 0));
    g_assert_cmpuint(qreg_read(&g, 0, HSAGPU_QREG_STATE), ==,
                     HSAGPU_QSTATE_ACTIVE);
    g_assert_cmphex(qtest_readq(g.qts, MIG_DST + MIG_LEN - 8), ==, want);
    g_assert_cmphex(qtest_readq(g.qts, MIG_DST + MIG_LEN), ==, 0);
    qtest_quit(g.qts);
    unlink(path);
    rmdir(dir);
}

#define GCN_CODE        (Q_BUF + 0x10000)       /* descriptor; code +256 */
#define GCN_OUT         (Q_BUF + 0x20000)
#define GCN_ITERS       (1U << 20)              /* 4M wave instructions */

/*
 * One workgroup, one wave of a code object: out[lane] = the number of
 * times a loop ran, its count loaded once from the kernel arguments
 * (out[64] = 1 before the loop starts).
 * Hand-assembled; the encodings are llvm-mc's (gfx900).
 */
static void gcn_long_submit(Fixture *f, uint64_t sig, uint32_t iters)
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
    fill_packet(&k, 64, 64, sig);
    k.kernel_object = GCN_CODE;
    k.kernarg_address = Q_KARG + 256;
    queue_submit(f, 0, &k);
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

/* ------------------------------------------------------------------ */
/* Reliability: locking (review of the device, findings 1 and 2)       */
/* ------------------------------------------------------------------ */

/* Backstop for work that must happen without the main loop (seconds). */
#define HANG_BACKSTOP_S 20

/* Guest RAM in a file the test maps too, to watch it without QEMU. */
typedef struct SharedRam {
    char *dir;
    char *ram;
    char *fifo;
    char *machine;
    uint8_t *p;
} SharedRam;

#define SHM_RAM_SIZE    (128 << 20)

static void shared_ram_init(SharedRam *r)
{
    r->dir = g_dir_make_tmp("hsagpu-shm-XXXXXX", NULL);
    g_assert_nonnull(r->dir);
    r->ram = g_build_filename(r->dir, "ram", NULL);
    r->fifo = g_build_filename(r->dir, "fifo", NULL);
    g_assert_cmpint(mkfifo(r->fifo, 0600), ==, 0);
    r->machine = g_strdup_printf("-m 128M -object memory-backend-file,"
                                 "id=ram0,size=128M,mem-path=%s,share=on "
                                 "-machine memory-backend=ram0", r->ram);
}

static void shared_ram_map(SharedRam *r)
{
    int fd = open(r->ram, O_RDWR);

    g_assert_cmpint(fd, >=, 0);
    r->p = mmap(NULL, SHM_RAM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                0);
    g_assert_true(r->p != MAP_FAILED);
    close(fd);
}

static void shared_ram_fini(SharedRam *r)
{
    munmap(r->p, SHM_RAM_SIZE);
    unlink(r->ram);
    unlink(r->fifo);
    rmdir(r->dir);
    g_free(r->dir);
    g_free(r->ram);
    g_free(r->fifo);
    g_free(r->machine);
}

static uint64_t *shm_u64(SharedRam *r, uint64_t addr)
{
    return (uint64_t *)(r->p + addr);
}

/* Poll guest RAM directly, with a backstop: QEMU's main loop is busy. */
static bool shm_wait(SharedRam *r, uint64_t addr, uint64_t want)
{
    for (int i = 0; i < HANG_BACKSTOP_S * 1000; i++) {
        if (__atomic_load_n(shm_u64(r, addr), __ATOMIC_ACQUIRE) == want) {
            return true;
        }
        g_usleep(1000);
    }
    return false;
}

/*
 * The main thread takes the BQL and keeps it: a pmemsave into a FIFO
 * that nobody reads yet. Returns the FIFO's read end once QEMU is in.
 */
static int hold_bql(Fixture *f, SharedRam *r)
{
    int fd;

    qtest_qmp_send(f->qts, "{ 'execute': 'pmemsave', 'arguments': "
                   "{ 'val': 0, 'size': %d, 'filename': %s } }",
                   64 << 20, r->fifo);
    /* Returns once QEMU opened the FIFO, i.e. inside pmemsave. */
    fd = open(r->fifo, O_RDONLY);
    g_assert_cmpint(fd, >=, 0);
    return fd;
}

static void release_bql(Fixture *f, int fd)
{
    char buf[65536];

    while (read(fd, buf, sizeof(buf)) > 0) {
        continue;
    }
    close(fd);
    qobject_unref(qtest_qmp_receive(f->qts));
}

static void barrier_packet(struct hsagpu_barrier_packet *b, uint64_t dep)
{
    memset(b, 0, sizeof(*b));
    b->header = HSAGPU_PKT_TYPE_BARRIER_AND |
                HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_ACQUIRE_SHIFT |
                HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_RELEASE_SHIFT;
    b->dep_signal[0] = dep;
}

/* A NOP whose signal carries an event: the queue's interrupt fires. */
static void submit_nop_irq(Fixture *f, unsigned q, uint64_t sig)
{
    struct hsagpu_agent_dispatch_packet a;

    signal_init(f, sig, 1);
    qtest_writeq(f->qts, sig + 16, Q_MBOX);
    qtest_writel(f->qts, sig + 24, 1);
    agent_packet(&a, HSAGPU_AGENT_NOP, 0, sig);
    queue_submit(f, q, &a);
}

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

/* ------------------------------------------------------------------ */
/* Reliability: how long the processor keeps the queue lock (finding 3) */
/* ------------------------------------------------------------------ */

#define PASS_DMA_SIZE   (4 << 20)
#define PASS_DMA_SRC    0x1000000ULL
#define PASS_DMA_DST    0x1800000ULL
#define PASS_PACKETS    8

static uint64_t qom_get_uint(Fixture *f, const char *prop)
{
    QDict *rsp = qtest_qmp(f->qts, "{ 'execute': 'qom-get', 'arguments': "
                           "{ 'path': '/machine/peripheral/gpu0', "
                           "'property': %s } }", prop);
    uint64_t v;

    g_assert_true(qdict_haskey(rsp, "return"));
    v = qdict_get_int(rsp, "return");

    qobject_unref(rsp);
    return v;
}

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

/*
 * A workgroup's set-up counts toward its slice. 512 workgroups of 1,024
 * items with the most state a descriptor can ask for (256 VGPRs, 64 KiB
 * of LDS, 2 KiB private per item: 3.1 MiB cleared each) and only
 * s_endpgm to run: a slice that counted their 16 wave instructions alone
 * would clear all 512 (1.5 GiB) while it holds the queue lock; it clears
 * at most its budget's worth (16 MiB, one instruction per KiB) plus one
 * workgroup. Every workgroup still runs.
 */
static void test_gcn_setup_bound(void)
{
    uint32_t kd[16] = { 0 }, code = 0xbf810000;    /* s_endpgm */
    struct hsagpu_kernel_dispatch_packet k;
    uint64_t sig = Q_SIG + 128, cleared;
    Fixture f;

    queue_fixture(&f);
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
    g_assert_cmpuint(cleared, <=, 20 * 1024 * 1024);
    fixture_fini(&f);
}

/* ------------------------------------------------------------------ */
/* Reliability: migration and loads (findings 4 and 9)                */
/* ------------------------------------------------------------------ */

#define MSI_ADDR        0x160000ULL
#define MSI_DATA        0x4e5

/* MSI-X on, vector @vec written to guest RAM at MSI_ADDR + 16 * @vec. */
static void msix_to_ram(Fixture *f, unsigned vec)
{
    uint8_t msix = find_cap(f, PCI_CAP_ID_MSIX);
    uint32_t entry = HSAGPU_MSIX_TABLE_OFFSET + 16 * vec;

    reg_write(f, entry + PCI_MSIX_ENTRY_LOWER_ADDR, MSI_ADDR + 16 * vec);
    reg_write(f, entry + PCI_MSIX_ENTRY_UPPER_ADDR, 0);
    reg_write(f, entry + PCI_MSIX_ENTRY_DATA, MSI_DATA + vec);
    reg_write(f, entry + PCI_MSIX_ENTRY_VECTOR_CTRL, 0);
    qpci_config_writew(f->gpu, msix + PCI_MSIX_FLAGS,
                       qpci_config_readw(f->gpu, msix + PCI_MSIX_FLAGS) |
                       PCI_MSIX_FLAGS_ENABLE);
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

/* ------------------------------------------------------------------ */
/* Reliability: realize (finding 10)                                   */
/* ------------------------------------------------------------------ */

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

static void device_add_gpu1(QTestState *qts, const char *props,
                            const char *want_error)
{
    g_autofree char *cmd = g_strdup_printf("{ 'execute': 'device_add', "
                                           "'arguments': { 'driver': "
                                           "'hsa-gpu', 'id': 'gpu1', "
                                           "'bus': 'rp1' %s } }", props);
    QDict *rsp = qtest_qmp(qts, cmd);

    if (want_error) {
        QDict *err = qdict_get_qdict(rsp, "error");

        g_assert_nonnull(err);
        g_assert_nonnull(strstr(qdict_get_str(err, "desc"), want_error));
    } else {
        g_assert_false(qdict_haskey(rsp, "error"));
    }
    qobject_unref(rsp);
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

/* ------------------------------------------------------------------ */
/* The main-loop processor (x-processor=mainloop)                      */
/* ------------------------------------------------------------------ */

static void run_mainloop(const void *data)
{
    void (*fn)(void) = data;

    queue_props = ",x-processor=mainloop";
    fn();
    queue_props = "";
}

/*
 * Main-loop mode is deterministic under qtest: a doorbell's work is done
 * by the main loop in the iteration after the doorbell, without polling
 * in time. The first read after the doorbell may be served before or
 * after that run, in the same iteration (glib dispatches ready sources
 * in its own order: review of dev, finding 6); the second read comes
 * after it whatever that order.
 */
static uint64_t readq_after_run(Fixture *f, uint64_t addr)
{
    qtest_readq(f->qts, addr);
    return qtest_readq(f->qts, addr);
}

static void test_mainloop_deterministic(void)
{
    struct hsagpu_kernel_dispatch_packet k;
    struct hsagpu_kargs_fill args = { .dst = Q_BUF, .value = 0x77 };
    Fixture f;

    queue_fixture_props(&f, ",x-processor=mainloop");
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    msix_to_ram(&f, 1);
    qtest_memwrite(f.qts, Q_KARG, &args, sizeof(args));
    for (int i = 0; i < 20; i++) {
        signal_init(&f, Q_SIG, 1);
        qtest_writeq(f.qts, Q_SIG + 16, Q_MBOX);
        qtest_writel(f.qts, Q_SIG + 24, 1);
        qtest_writel(f.qts, MSI_ADDR + 16, 0);
        fill_packet(&k, 64, 64, Q_SIG);
        queue_submit(&f, 0, &k);
        g_assert_cmpuint(readq_after_run(&f, Q_SIG + 8), ==, 0);
        g_assert_cmphex(qtest_readl(f.qts, MSI_ADDR + 16), ==, MSI_DATA + 1);
    }
    fixture_fini(&f);
}

static char *qom_get_str(QTestState *qts, const char *path, const char *prop)
{
    QDict *rsp = qtest_qmp(qts, "{ 'execute': 'qom-get', 'arguments': "
                           "{ 'path': %s, 'property': %s } }", path, prop);
    char *v = g_strdup(qdict_get_str(rsp, "return"));

    qobject_unref(rsp);
    return v;
}

/*
 * x-processor=auto picks the thread, or the main loop behind a vIOMMU
 * (where the thread used to hold the BQL for its passes); a thread is
 * refused there. The main loop is deterministic there too.
 */
static void test_processor_auto(void)
{
    g_autofree char *mode = NULL;
    Fixture f;

    queue_fixture(&f);
    mode = qom_get_str(f.qts, "/machine/peripheral/gpu0", "x-processor");
    g_assert_cmpstr(mode, ==, "thread");
    fixture_fini(&f);
    g_free(g_steal_pointer(&mode));

    queue_fixture_machine(&f, "-device intel-iommu -device pcie-root-port,"
                          "id=rp1,bus=pcie.0,chassis=2,addr=0x5", "");
    mode = qom_get_str(f.qts, "/machine/peripheral/gpu0", "x-processor");
    g_assert_cmpstr(mode, ==, "mainloop");
    device_add_gpu1(f.qts, ", 'x-processor': 'thread'",
                    "x-processor=thread is not possible behind a vIOMMU");
    /* DMA is untranslated until the guest enables the IOMMU. */
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    signal_init(&f, Q_SIG, 1);
    {
        struct hsagpu_agent_dispatch_packet a;

        agent_packet(&a, HSAGPU_AGENT_NOP, 0, Q_SIG);
        queue_submit(&f, 0, &a);
    }
    g_assert_cmpuint(qtest_readq(f.qts, Q_SIG + 8), ==, 0);
    fixture_fini(&f);
}

/* ------------------------------------------------------------------ */
/* intel-iommu: wrong-sized guest accesses (patches/0007)              */
/* ------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------ */
/* Fault injection and Function Level Reset                            */
/* ------------------------------------------------------------------ */

#define GPU_PATH        "/machine/peripheral/gpu0"
#define Q_MSI           0x150000ULL     /* MSI-X messages land here */
#define FAULT_MSI_DATA(v)     (0x4100 + (v))

static void qom_set_int(Fixture *f, const char *prop, int64_t val)
{
    qtest_qmp_assert_success(f->qts, "{ 'execute': 'qom-set', 'arguments': "
                             "{ 'path': %s, 'property': %s, 'value': %"
                             PRId64 " } }", GPU_PATH, prop, val);
}

static int64_t qom_get_int(Fixture *f, const char *prop)
{
    QDict *rsp = qtest_qmp(f->qts, "{ 'execute': 'qom-get', 'arguments': "
                           "{ 'path': %s, 'property': %s } }", GPU_PATH, prop);
    int64_t v;

    g_assert(qdict_haskey(rsp, "return"));
    v = qdict_get_int(rsp, "return");
    qobject_unref(rsp);
    return v;
}

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

/* MSI-X on, vectors 0 and 1 unmasked, each writing FAULT_MSI_DATA(v) to RAM. */
static void msix_setup(Fixture *f)
{
    uint8_t cap = find_cap(f, PCI_CAP_ID_MSIX);

    for (unsigned v = 0; v < 2; v++) {
        uint64_t e = MMIO_BASE + HSAGPU_MSIX_TABLE_OFFSET + 16 * v;

        qtest_writel(f->qts, Q_MSI + 4 * v, 0);
        qtest_writel(f->qts, e, Q_MSI + 4 * v);
        qtest_writel(f->qts, e + 4, 0);
        qtest_writel(f->qts, e + 8, FAULT_MSI_DATA(v));
        qtest_writel(f->qts, e + 12, 0);
    }
    qpci_config_writew(f->gpu, cap + PCI_MSIX_FLAGS, PCI_MSIX_FLAGS_ENABLE);
}

static uint32_t msi_seen(Fixture *f, unsigned v)
{
    return qtest_readl(f->qts, Q_MSI + 4 * v);
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

static void expect_qerr(Fixture *f, unsigned q, unsigned err)
{
    g_assert_true(wait_qstate(f, q, HSAGPU_QSTATE_ERROR));
    g_assert_cmphex(qreg_read(f, q, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ERROR | err << HSAGPU_QSTATE_ERR_SHIFT);
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

/* After a reset of the function: BARs, decoding, AtomicOp requests. */
static void gpu_reprogram(Fixture *f)
{
    uint8_t exp = find_cap(f, PCI_CAP_ID_EXP);

    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_5, MMIO_BASE);
    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_2, DB_BASE);
    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_3, 0);
    qpci_config_writew(f->gpu, PCI_COMMAND,
                       PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
    qpci_config_writew(f->gpu, exp + PCI_EXP_DEVCTL2,
                       PCI_EXP_DEVCTL2_ATOMIC_REQ);
}

/*
 * Review of dev, finding 4: a delivery sends one message per vector, not
 * one per completion (up to 64 x vectors per bottom half before); raises
 * that came before the message merge into it, and PKT_IRQS counts every
 * raise. One main-loop run completes 16 NOPs whose signals carry events;
 * inject-msix-drop counts the messages (it takes each one sent). Before
 * the fix 16 messages went out (the drop count fell by 16).
 */
static void test_irq_burst(void)
{
    uint64_t ring = Q_RING, wptr = Q_DESC + HSAGPU_QUEUE_DESC_WPTR;
    struct hsagpu_agent_dispatch_packet a;
    Fixture f;

    queue_fixture_props(&f, ",x-processor=mainloop");
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    msix_to_ram(&f, 1);
    qom_set_int(&f, "inject-msix-drop", 1000);
    for (unsigned i = 0; i < Q_RING_SIZE; i++) {
        uint64_t sig = Q_SIG + 64 * i;

        signal_init(&f, sig, 1);
        qtest_writeq(f.qts, sig + 16, Q_MBOX);
        qtest_writel(f.qts, sig + 24, 1);
        agent_packet(&a, HSAGPU_AGENT_NOP, 0, sig);
        qtest_memwrite(f.qts, ring + 64 * i + 4, (uint8_t *)&a + 4, 60);
        qtest_writel(f.qts, ring + 64 * i, *(uint32_t *)&a);
    }
    qtest_writeq(f.qts, wptr, Q_RING_SIZE);
    qtest_writeq(f.qts, DB_BASE, Q_RING_SIZE - 1);
    g_assert_cmpuint(readq_after_run(&f, Q_SIG + 64 * (Q_RING_SIZE - 1) + 8),
                     ==, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_PKT_IRQS), ==, Q_RING_SIZE);
    g_assert_cmpint(qom_get_int(&f, "inject-msix-drop"), ==, 999);
    fixture_fini(&f);
}

/*
 * Review of dev, finding 7: PKT_DOORBELLS counts the processor's wake-ups
 * by doorbells and commands, in both modes. In the main loop every kick
 * counted, also those that found the run already scheduled: one 16-byte
 * write (two 8-byte doorbell accesses, one run) counted 2 before the fix.
 */
static void test_doorbell_wakeups(void)
{
    uint8_t buf[16] = { 1 };
    uint32_t d0;
    Fixture f;

    queue_fixture_props(&f, ",x-processor=mainloop");
    d0 = reg_read(&f, HSAGPU_REG_PKT_DOORBELLS);
    qtest_memwrite(f.qts, DB_BASE, buf, sizeof(buf));
    qtest_qmp_assert_success(f.qts, "{ 'execute': 'query-status' }");
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_PKT_DOORBELLS) - d0, ==, 1);
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

/* ------------------------------------------------------------------ */
/* Interrupts that reset or unplug their own device (review of dev, 1) */
/* ------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------ */
/* GPU virtual memory (docs/vm.md)                                     */
/* ------------------------------------------------------------------ */

/*
 * Page tables built by hand in guest RAM: root, level 2, level 1 and two
 * level-0 tables. VA 0..2 MiB maps the queue's structures one to one;
 * VA_BUF (2 MiB..) is backed by other RAM and by VRAM, so that data
 * landing at the right place proves the translation.
 */
#define PT_ROOT         0x400000ULL
#define PT_L2           0x401000ULL
#define PT_L1           0x402000ULL
#define PT_L0A          0x403000ULL     /* VA 0 .. 2 MiB */
#define PT_L0B          0x404000ULL     /* VA 2 MiB .. 4 MiB */
#define VA_BUF          0x200000ULL     /* = Q_BUF, but translated */
#define PA_BUF          0x500000ULL
#define PA_BUF2         0x600000ULL
#define VA_RO           (VA_BUF + 0x1000)   /* read-only page */
#define VA_VRAM         (VA_BUF + 0x2000)   /* VRAM offset 0x1000 */
#define VA_HOLE         (VA_BUF + 0x3000)   /* not mapped */
#define VM_VMID         5
#define PTE_RW          (HSAGPU_PTE_VALID | HSAGPU_PTE_READABLE | \
                         HSAGPU_PTE_WRITEABLE)

static void pte_set(Fixture *f, uint64_t table, unsigned idx, uint64_t e)
{
    qtest_writeq(f->qts, table + 8 * idx, e);
}

static void vm_tables(Fixture *f)
{
    uint8_t zero[4096] = { 0 };

    for (uint64_t t = PT_ROOT; t <= PT_L0B; t += 4096) {
        qtest_memwrite(f->qts, t, zero, sizeof(zero));
    }
    pte_set(f, PT_ROOT, 0, PT_L2 | HSAGPU_PTE_VALID | HSAGPU_PTE_SYSTEM);
    pte_set(f, PT_L2, 0, PT_L1 | HSAGPU_PTE_VALID | HSAGPU_PTE_SYSTEM);
    pte_set(f, PT_L1, 0, PT_L0A | HSAGPU_PTE_VALID | HSAGPU_PTE_SYSTEM);
    pte_set(f, PT_L1, 1, PT_L0B | HSAGPU_PTE_VALID | HSAGPU_PTE_SYSTEM);
    /* The queue's ring, descriptors, signals, kernargs, mailbox: 1:1 */
    for (uint64_t va = Q_RING; va < Q_MBOX + 0x1000; va += 0x1000) {
        pte_set(f, PT_L0A, va >> 12 & 511,
                va | PTE_RW | HSAGPU_PTE_SYSTEM | HSAGPU_PTE_SNOOPED);
    }
    pte_set(f, PT_L0B, 0, PA_BUF | PTE_RW | HSAGPU_PTE_SYSTEM);
    pte_set(f, PT_L0B, 1, (PA_BUF + 0x1000) | HSAGPU_PTE_VALID |
            HSAGPU_PTE_READABLE | HSAGPU_PTE_SYSTEM);
    pte_set(f, PT_L0B, 2, 0x1000 | PTE_RW);     /* VRAM offset 0x1000 */
}

static void vm_ctx(Fixture *f, unsigned v, uint64_t root, uint32_t cntl)
{
    uint32_t base = HSAGPU_REG_VM_CTX(v);

    reg_write(f, base + HSAGPU_VM_CTX_PT_BASE_LO,
              (uint32_t)root | HSAGPU_VM_PT_SYSTEM);
    reg_write(f, base + HSAGPU_VM_CTX_PT_BASE_HI, root >> 32);
    reg_write(f, base + HSAGPU_VM_CTX_START_LO, 0);
    reg_write(f, base + HSAGPU_VM_CTX_START_HI, 0);
    reg_write(f, base + HSAGPU_VM_CTX_END_LO, 0xffffffff);
    reg_write(f, base + HSAGPU_VM_CTX_END_HI, 0xf);
    reg_write(f, base + HSAGPU_VM_CTX_CNTL, cntl);
}

static void qxreg_write(Fixture *f, unsigned q, uint32_t reg, uint32_t val)
{
    reg_write(f, HSAGPU_REG_QUEUE_X(q) + reg, val);
}

static uint32_t qxreg_read(Fixture *f, unsigned q, uint32_t reg)
{
    return reg_read(f, HSAGPU_REG_QUEUE_X(q) + reg);
}

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
#define ROCR_LIB        "/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1"
#define BLIT_ALIGNED_LEN 496
#define BLIT_ALIGNED_FNV 0xc9ed7ddde0f282c7ULL
#define BLIT_CODE       (Q_KARG + 0x1000)   /* identity-mapped page */

static bool rocr_copy_aligned(uint8_t code[BLIT_ALIGNED_LEN])
{
    g_autofree uint8_t *lib = NULL;
    gsize len;

    if (!g_file_get_contents(ROCR_LIB, (gchar **)&lib, &len, NULL)) {
        return false;
    }
    for (gsize off = BLIT_ALIGNED_LEN; off <= len; off += 4) {
        const uint8_t *w = lib + off - BLIT_ALIGNED_LEN;
        uint64_t h = 0xcbf29ce484222325ULL;

        if ((uint32_t)ldl_le_p(lib + off - 4) != 0xbf810000) { /* s_endpgm */
            continue;
        }
        for (unsigned i = 0; i < BLIT_ALIGNED_LEN; i++) {
            h = (h ^ w[i]) * 0x100000001b3ULL;
        }
        if (h == BLIT_ALIGNED_FNV) {
            memcpy(code, w, BLIT_ALIGNED_LEN);
            return true;
        }
    }
    return false;
}

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

/* ------------------------------------------------------------------ */
/* SDMA rings (HSAGPU_QF_SDMA)                                         */
/* ------------------------------------------------------------------ */

#define S_RING          0x10c000ULL     /* up to 16 KiB, 256 B aligned */
#define S_PTRS          0x111800ULL     /* rptr, then wptr (u64 each) */

typedef struct SdmaRing {
    Fixture *f;
    unsigned q;
    uint32_t size;              /* bytes */
    uint64_t wp;                /* write pointer, bytes */
} SdmaRing;

static uint64_t sdma_rptr(SdmaRing *r)
{
    return qtest_readq(r->f->qts, S_PTRS);
}

/* Register queue @q as an SDMA ring of @size bytes, vector 1. */
static uint32_t sdma_create(SdmaRing *r, Fixture *f, unsigned q,
                            uint32_t size, uint64_t rptr0)
{
    uint8_t zero[4096] = { 0 };

    r->f = f;
    r->q = q;
    r->size = size;
    r->wp = rptr0;
    for (uint32_t off = 0; off < 16384; off += sizeof(zero)) {
        qtest_memwrite(f->qts, S_RING + off, zero, sizeof(zero));
    }
    qtest_writeq(f->qts, S_PTRS, rptr0);
    qtest_writeq(f->qts, S_PTRS + 8, rptr0);
    qreg_write(f, q, HSAGPU_QREG_RING_LO, S_RING);
    qreg_write(f, q, HSAGPU_QREG_RING_HI, 0);
    qreg_write(f, q, HSAGPU_QREG_RING_SIZE, size);
    qreg_write(f, q, HSAGPU_QREG_DOORBELL, q);
    qreg_write(f, q, HSAGPU_QREG_RPTR_LO, S_PTRS);
    qreg_write(f, q, HSAGPU_QREG_RPTR_HI, 0);
    qreg_write(f, q, HSAGPU_QREG_WPTR_LO, S_PTRS + 8);
    qreg_write(f, q, HSAGPU_QREG_WPTR_HI, 0);
    qreg_write(f, q, HSAGPU_QREG_VECTOR, 1);
    qreg_write(f, q, HSAGPU_QREG_FLAGS, HSAGPU_QF_SDMA);
    qreg_write(f, q, HSAGPU_QREG_CMD, HSAGPU_QCMD_ENABLE);
    return qreg_read(f, q, HSAGPU_QREG_CMD);
}

/* Write dwords at the write pointer, wrapping at the end of the ring. */
static void sdma_put(SdmaRing *r, const uint32_t *dw, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        qtest_writel(r->f->qts, S_RING + (r->wp & (r->size - 1)), dw[i]);
        r->wp += 4;
    }
}

/* Publish the write pointer in memory, then ring the doorbell with it. */
static void sdma_kick(SdmaRing *r)
{
    qtest_writeq(r->f->qts, S_PTRS + 8, r->wp);
    qtest_writeq(r->f->qts, DB_BASE + 8 * r->q, r->wp);
}

#define SDMA_PUT(r, ...) do { \
    const uint32_t p_[] = { __VA_ARGS__ }; \
    sdma_put(r, p_, ARRAY_SIZE(p_)); \
} while (0)

static void sdma_copy(SdmaRing *r, uint64_t dst, uint64_t src, uint32_t n)
{
    SDMA_PUT(r, HSAGPU_SDMA_HDR(HSAGPU_SDMA_OP_COPY,
                                HSAGPU_SDMA_SUBOP_COPY_LINEAR),
             n - 1, 0, (uint32_t)src, src >> 32, (uint32_t)dst, dst >> 32);
}

static void sdma_fill(SdmaRing *r, uint64_t dst, uint32_t v, uint32_t ndw)
{
    SDMA_PUT(r, HSAGPU_SDMA_OP_CONST_FILL | HSAGPU_SDMA_FILL_DWORD << 30,
             (uint32_t)dst, dst >> 32, v, (ndw - 1) * 4);
}

static void sdma_fence(SdmaRing *r, uint64_t addr, uint32_t v)
{
    SDMA_PUT(r, HSAGPU_SDMA_OP_FENCE, (uint32_t)addr, addr >> 32, v);
}

static void sdma_atomic_dec(SdmaRing *r, uint64_t addr)
{
    SDMA_PUT(r, HSAGPU_SDMA_OP_ATOMIC | HSAGPU_SDMA_ATOMIC_ADD64 << 25,
             (uint32_t)addr, addr >> 32, 0xffffffff, 0xffffffff, 0, 0, 0);
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
    SDMA_PUT(&r, 2);                            /* no such opcode */
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

/* ------------------------------------------------------------------ */
/* Cached read alias (BAR4) and its dirty-line directory               */
/* ------------------------------------------------------------------ */

#define ALIAS_BASE      0xe0700000ULL   /* BAR4 with read-alias-size=1M */

static uint64_t dir_rdq(Fixture *f, uint32_t off)
{
    return qtest_readq(f->qts, MMIO_BASE + off);
}

/* The directory's word @i, read without clearing */
static uint64_t dir_word(Fixture *f, uint32_t i)
{
    reg_write(f, HSAGPU_REG_DIR_CURSOR, i);
    return dir_rdq(f, HSAGPU_REG_DIR_WORD);
}

static void alias_fixture(Fixture *f)
{
    queue_fixture_props(f, ",vram-size=1M,read-alias-size=1M");
    qpci_config_writew(f->rp, PCI_PREF_MEMORY_LIMIT,
                       (ALIAS_BASE + (1 << 20) - 1) >> 16);
    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_0, VRAM_BASE);
    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_1, 0);
    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_4, ALIAS_BASE);
}

/*
 * BAR4 aliases VRAM; CPU writes through either BAR mark nothing; a DMA
 * copy and a fill kernel mark exactly their lines (partial ones at both
 * ends); the cursor, NEXT, WORD, masked TAKE and clears; bad accesses
 * are reported; FLR clears the directory.
 */
static void test_read_alias(void)
{
    struct hsagpu_kernel_dispatch_packet k;
    struct hsagpu_kargs_fill args = { .dst = VRAM_BASE + 0x10000 + 60,
                                      .value = 0x77 };
    uint8_t src[3000], got[3000];
    struct hsagpu_dma_packet d;
    uint32_t flags, cnt, exp;
    Fixture f;

    alias_fixture(&f);
    g_assert_cmpuint(bar_size(&f, HSAGPU_BAR_READ_ALIAS, &flags), ==, 1 << 20);
    g_assert_cmphex(flags, ==, PCI_BASE_ADDRESS_SPACE_MEMORY |
                    PCI_BASE_ADDRESS_MEM_TYPE_32);
    qpci_config_writel(f.gpu, PCI_BASE_ADDRESS_4, ALIAS_BASE);
    g_assert_true(reg_read(&f, HSAGPU_REG_CAPS) & HSAGPU_CAP_READ_ALIAS);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_RALIAS_SIZE_LO), ==, 1 << 20);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_RALIAS_SIZE_HI), ==, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_WORDS), ==, 256);
    g_assert_cmphex(dir_rdq(&f, HSAGPU_REG_DIR_MASK), ==, UINT64_MAX);

    /* CPU stores through BAR0 and BAR4: the same bytes, nothing marked */
    qtest_writel(f.qts, VRAM_BASE + 0x100, 0x12345678);
    g_assert_cmphex(qtest_readl(f.qts, ALIAS_BASE + 0x100), ==, 0x12345678);
    qtest_writel(f.qts, ALIAS_BASE + 0x2000, 0x9abcdef0);
    g_assert_cmphex(qtest_readl(f.qts, VRAM_BASE + 0x2000), ==, 0x9abcdef0);
    reg_write(&f, HSAGPU_REG_DIR_CURSOR, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_NEXT), ==, 256);

    /* A DMA copy of 3000 bytes to VRAM + 5: lines 0..46 of word 0 */
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    for (unsigned i = 0; i < sizeof(src); i++) {
        src[i] = i * 7 + 3;
    }
    qtest_memwrite(f.qts, Q_BUF, src, sizeof(src));
    signal_init(&f, Q_SIG, 1);
    dma_packet(&d, HSAGPU_DMA_OP_COPY, VRAM_BASE + 5, Q_BUF, sizeof(src),
               Q_SIG);
    queue_submit(&f, 0, &d);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    qtest_memread(f.qts, ALIAS_BASE + 5, got, sizeof(got));
    g_assert_cmpmem(got, sizeof(got), src, sizeof(src));
    g_assert_cmphex(dir_word(&f, 0), ==, (1ULL << 47) - 1);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_CURSOR), ==, 1);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_NEXT), ==, 256);

    /* A fill kernel of 100 dwords at VRAM + 0x10000 + 60: word 16, 0..7 */
    qtest_memwrite(f.qts, Q_KARG, &args, sizeof(args));
    signal_init(&f, Q_SIG, 1);
    fill_packet(&k, 100, 32, Q_SIG);
    queue_submit(&f, 0, &k);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_cmphex(qtest_readl(f.qts, ALIAS_BASE + 0x10000 + 60 + 396), ==,
                    0x77);
    g_assert_cmphex(dir_word(&f, 16), ==, 0xff);
    reg_write(&f, HSAGPU_REG_DIR_CURSOR, 1);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_NEXT), ==, 16);
    reg_write(&f, HSAGPU_REG_DIR_CURSOR, 17);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_NEXT), ==, 256);

    /* Clear lines 10..14; then a masked TAKE takes lines 0..3 only */
    reg_write(&f, HSAGPU_REG_DIR_CLEAR_FIRST, 10);
    reg_write(&f, HSAGPU_REG_DIR_CLEAR_COUNT, 5);
    g_assert_cmphex(dir_word(&f, 0), ==, ((1ULL << 47) - 1) & ~(0x1fULL << 10));
    qtest_writeq(f.qts, MMIO_BASE + HSAGPU_REG_DIR_MASK, 0xf);
    reg_write(&f, HSAGPU_REG_DIR_CURSOR, 0);
    g_assert_cmphex(dir_rdq(&f, HSAGPU_REG_DIR_TAKE), ==, 0xf);
    qtest_writeq(f.qts, MMIO_BASE + HSAGPU_REG_DIR_MASK, UINT64_MAX);
    g_assert_cmphex(dir_word(&f, 0), ==,
                    ((1ULL << 47) - 1) & ~(0x1fULL << 10) & ~0xfULL);
    reg_write(&f, HSAGPU_REG_DIR_CURSOR, 0);
    g_assert_cmphex(dir_rdq(&f, HSAGPU_REG_DIR_TAKE), ==,
                    ((1ULL << 47) - 1) & ~(0x1fULL << 10) & ~0xfULL);
    g_assert_cmphex(dir_word(&f, 0), ==, 0);
    /* Cleared lines stay clear until the device writes them again */
    qtest_writel(f.qts, VRAM_BASE + 8, 1);
    g_assert_cmphex(dir_word(&f, 0), ==, 0);
    signal_init(&f, Q_SIG, 1);
    dma_packet(&d, HSAGPU_DMA_OP_COPY, VRAM_BASE + 64 * 2, Q_BUF, 64, Q_SIG);
    queue_submit(&f, 0, &d);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_cmphex(dir_word(&f, 0), ==, 1ULL << 2);
    reg_write(&f, HSAGPU_REG_DIR_CTRL, HSAGPU_DIR_CTRL_CLEAR_ALL);
    reg_write(&f, HSAGPU_REG_DIR_CURSOR, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_NEXT), ==, 256);

    /*
     * A completion signal in VRAM (word 32, line 0): its decrement is an
     * AtomicOp, through the processor's page mapping the second time.
     */
    for (int i = 0; i < 2; i++) {
        signal_init(&f, VRAM_BASE + 0x20000, 1);
        dma_packet(&d, HSAGPU_DMA_OP_FILL, Q_BUF + 0x8000, 0, 64,
                   VRAM_BASE + 0x20000);
        queue_submit(&f, 0, &d);
        g_assert_true(wait_u64(&f, VRAM_BASE + 0x20000 + 8, 0));
        g_assert_cmphex(dir_word(&f, 32), ==, 1);
        reg_write(&f, HSAGPU_REG_DIR_CTRL, HSAGPU_DIR_CTRL_CLEAR_ALL);
    }
    reg_write(&f, HSAGPU_REG_DIR_CURSOR, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_NEXT), ==, 256);

    /* Hostile accesses: reported, nothing changes, QEMU goes on */
    cnt = reg_read(&f, HSAGPU_REG_BAD_ACCESS_COUNT);
    reg_read(&f, HSAGPU_REG_DIR_TAKE);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_BAD_ACCESS_COUNT), ==, cnt + 1);
    g_assert_cmphex(reg_read(&f, HSAGPU_REG_BAD_ACCESS_INFO) &
                    HSAGPU_BAD_ACCESS_REASON_MASK, ==,
                    HSAGPU_BAD_REASON_SIZE << HSAGPU_BAD_ACCESS_REASON_SHIFT);
    reg_write(&f, HSAGPU_REG_DIR_WORDS, 5);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_BAD_ACCESS_COUNT), ==, cnt + 2);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_WORDS), ==, 256);
    reg_write(&f, HSAGPU_REG_DIR_CURSOR, 0xffffffff);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_CURSOR), ==, 256);
    g_assert_cmphex(dir_rdq(&f, HSAGPU_REG_DIR_TAKE), ==, 0);
    reg_write(&f, HSAGPU_REG_DIR_CLEAR_FIRST, 0xffffffff);
    reg_write(&f, HSAGPU_REG_DIR_CLEAR_COUNT, 0xffffffff);
    /* Random accesses of every size in the block: no crash */
    for (int i = 0; i < 2000; i++) {
        uint64_t a = MMIO_BASE + HSAGPU_REG_RALIAS_SIZE_LO +
                     g_test_rand_int_range(0, HSAGPU_REG_DIR_END -
                                              HSAGPU_REG_RALIAS_SIZE_LO);
        uint64_t v = (uint64_t)g_test_rand_int() << 32 | g_test_rand_int();

        switch (g_test_rand_int_range(0, 8)) {
        case 0: qtest_writeb(f.qts, a, v); break;
        case 1: qtest_writew(f.qts, a, v); break;
        case 2: qtest_writel(f.qts, a, v); break;
        case 3: qtest_writeq(f.qts, a, v); break;
        case 4: qtest_readb(f.qts, a); break;
        case 5: qtest_readw(f.qts, a); break;
        case 6: qtest_readl(f.qts, a); break;
        default: qtest_readq(f.qts, a); break;
        }
    }
    qtest_writeq(f.qts, MMIO_BASE + HSAGPU_REG_DIR_MASK, UINT64_MAX);
    reg_write(&f, HSAGPU_REG_DIR_CTRL, HSAGPU_DIR_CTRL_CLEAR_ALL);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_WORDS), ==, 256);

    /* FLR clears the directory and its registers */
    signal_init(&f, Q_SIG, 1);
    dma_packet(&d, HSAGPU_DMA_OP_COPY, VRAM_BASE + 4096, Q_BUF, 64, Q_SIG);
    queue_submit(&f, 0, &d);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    g_assert_cmphex(dir_word(&f, 1), ==, 1);
    exp = find_cap(&f, PCI_CAP_ID_EXP);
    qpci_config_writew(f.gpu, exp + PCI_EXP_DEVCTL, PCI_EXP_DEVCTL_BCR_FLR);
    qpci_config_writel(f.gpu, PCI_BASE_ADDRESS_5, MMIO_BASE);
    qpci_config_writew(f.gpu, PCI_COMMAND, PCI_COMMAND_MEMORY);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_CURSOR), ==, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_NEXT), ==, 256);
    fixture_fini(&f);
}

/*
 * The directory and its registers migrate (subsection hsa-gpu/vram-dir);
 * a destination without the same alias refuses the stream.
 */
static void test_read_alias_migration(void)
{
    g_autofree char *dir = g_dir_make_tmp("hsagpu-mig-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "stream", NULL);
    g_autofree char *st = NULL, *st2 = NULL;
    struct hsagpu_dma_packet d;
    Fixture f, g = { 0 }, h = { 0 };

    alias_fixture(&f);
    g_assert_cmpuint(queue_create(&f, 0, 0), ==, HSAGPU_QRES_OK);
    signal_init(&f, Q_SIG, 1);
    dma_packet(&d, HSAGPU_DMA_OP_FILL, VRAM_BASE + 0x3000 + 5, 0, 3000,
               Q_SIG);
    queue_submit(&f, 0, &d);
    g_assert_true(wait_u64(&f, Q_SIG + 8, 0));
    reg_write(&f, HSAGPU_REG_DIR_CURSOR, 7);
    qtest_writeq(f.qts, MMIO_BASE + HSAGPU_REG_DIR_MASK, 0xff00);
    reg_write(&f, HSAGPU_REG_DIR_CLEAR_FIRST, 99);
    migrate_to_file(&f, path);
    qtest_quit(f.qts);
    g_free(f.gpu);
    g_free(f.rp);
    qpci_free_pc(f.bus);

    st = migrate_from_file_opts(&g, path,
                                "-global hsa-gpu.vram-size=1M "
                                "-global hsa-gpu.read-alias-size=1M");
    g_assert_cmpstr(st, ==, "completed");
    qtest_qmp_assert_success(g.qts, "{ 'execute': 'cont' }");
    g_assert_cmpuint(reg_read(&g, HSAGPU_REG_DIR_CURSOR), ==, 7);
    g_assert_cmphex(dir_rdq(&g, HSAGPU_REG_DIR_MASK), ==, 0xff00);
    g_assert_cmpuint(reg_read(&g, HSAGPU_REG_DIR_CLEAR_FIRST), ==, 99);
    qtest_writeq(g.qts, MMIO_BASE + HSAGPU_REG_DIR_MASK, UINT64_MAX);
    g_assert_cmphex(dir_word(&g, 3), ==, (1ULL << 47) - 1);
    g_assert_cmpuint(reg_read(&g, HSAGPU_REG_DIR_NEXT), ==, 256);
    qtest_quit(g.qts);

    st2 = migrate_from_file_opts(&h, path, "-global hsa-gpu.vram-size=1M");
    g_assert_cmpstr(st2, ==, "failed");
    qtest_quit(h.qts);
    unlink(path);
    rmdir(dir);
}

/* An SDMA ring's copy, fill, fence and atomic into VRAM mark their lines. */
static void test_read_alias_sdma(void)
{
    SdmaRing r;
    Fixture f;

    alias_fixture(&f);
    g_assert_cmpuint(sdma_create(&r, &f, 1, 4096, 0), ==, HSAGPU_QRES_OK);
    sdma_copy(&r, VRAM_BASE + 0x5000 + 3, Q_BUF, 200);
    sdma_fill(&r, VRAM_BASE + 0x6000 + 64 * 10, 0x5a5a5a5a, 32);
    sdma_fence(&r, VRAM_BASE + 0x7000 + 64 * 63 + 4, 5);
    sdma_atomic_dec(&r, VRAM_BASE + 0x8000 + 128);
    sdma_kick(&r);
    g_assert_true(wait_u64(&f, S_PTRS, r.wp));
    g_assert_cmphex(qtest_readl(f.qts, ALIAS_BASE + 0x7000 + 64 * 63 + 4), ==,
                    5);
    g_assert_cmphex(dir_word(&f, 5), ==, 0xf);
    g_assert_cmphex(dir_word(&f, 6), ==, 0x3ULL << 10);
    g_assert_cmphex(dir_word(&f, 7), ==, 1ULL << 63);
    g_assert_cmphex(dir_word(&f, 8), ==, 1ULL << 2);
    reg_write(&f, HSAGPU_REG_DIR_CURSOR, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_NEXT), ==, 5);
    reg_write(&f, HSAGPU_REG_DIR_CURSOR, 9);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_NEXT), ==, 256);
    fixture_fini(&f);
}

/* Without the property: no BAR4, the block reads 0; realize refusals */
static void test_read_alias_props(void)
{
    QTestState *qts;
    uint32_t flags;
    Fixture f;

    fixture_init(&f, "");
    g_assert_cmpuint(bar_size(&f, HSAGPU_BAR_READ_ALIAS, &flags), ==, 0);
    g_assert_false(reg_read(&f, HSAGPU_REG_CAPS) & HSAGPU_CAP_READ_ALIAS);
    fixture_fini(&f);

    /* The prefetchable variant */
    fixture_init(&f, ",read-alias-size=1M,vram-size=1M,"
                 "read-alias-prefetchable=on");
    g_assert_cmpuint(bar_size(&f, HSAGPU_BAR_READ_ALIAS, &flags), ==, 1 << 20);
    g_assert_cmphex(flags, ==, PCI_BASE_ADDRESS_MEM_PREFETCH);
    fixture_fini(&f);

    fixture_init(&f, "");
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_RALIAS_SIZE_LO), ==, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_WORDS), ==, 0);
    g_assert_cmpuint(reg_read(&f, HSAGPU_REG_DIR_NEXT), ==, 0);
    g_assert_cmphex(dir_rdq(&f, HSAGPU_REG_DIR_TAKE), ==, 0);
    reg_write(&f, HSAGPU_REG_DIR_CTRL, HSAGPU_DIR_CTRL_CLEAR_ALL);
    fixture_fini(&f);

    qts = qtest_init("-M q35 -nic none -device pcie-root-port,id=rp1,"
                     "bus=pcie.0,chassis=2,addr=0x5");
    device_add_gpu1(qts, ", 'io-bar': true, 'read-alias-size': 1048576",
                    "read-alias-size and io-bar=on both need BAR4");
    device_add_gpu1(qts, ", 'read-alias-size': 3145728",
                    "read-alias-size must be 0 or a power of two");
    device_add_gpu1(qts, ", 'vram-size': 1048576, "
                    "'read-alias-size': 2097152",
                    "at most vram-size");
    device_add_gpu1(qts, ", 'read-alias-size': 2147483648",
                    "between 1 MiB and 1 GiB");
    device_add_gpu1(qts, ", 'read-alias-size': 1048576", NULL);
    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/hsa-gpu/identity", test_identity);
    qtest_add_func("/hsa-gpu/bars", test_bars);
    qtest_add_func("/hsa-gpu/capabilities", test_capabilities);
    qtest_add_func("/hsa-gpu/registers", test_registers);
    qtest_add_func("/hsa-gpu/timestamp", test_timestamp);
    qtest_add_func("/hsa-gpu/rom", test_rom);
    qtest_add_func("/hsa-gpu/root-port-atomics", test_root_port_atomics);
    qtest_add_func("/hsa-gpu/atomic-engine", test_atomic_engine);
    qtest_add_func("/hsa-gpu/queue-dispatch", test_queue_dispatch);
    qtest_add_func("/hsa-gpu/queue-registration", test_queue_registration);
    qtest_add_func("/hsa-gpu/queue-error", test_queue_error);
    qtest_add_func("/hsa-gpu/dma", test_dma);
    qtest_add_func("/hsa-gpu/link-model", test_link_model);
    qtest_add_func("/hsa-gpu/vendor-packets", test_vendor_packets);
    qtest_add_func("/hsa-gpu/amd-queue", test_amd_queue);
    qtest_add_func("/hsa-gpu/p2p-limit/atomic-engine",
                   test_p2p_limit_atomic_engine);
    qtest_add_func("/hsa-gpu/p2p-limit/queue", test_p2p_limit_queue);
    qtest_add_func("/hsa-gpu/p2p-peer-unplug", test_p2p_peer_unplug);
    qtest_add_func("/hsa-gpu/doorbell-readback", test_doorbell_readback);
    qtest_add_func("/hsa-gpu/queue-long-kernel", test_queue_long_kernel);
    qtest_add_func("/hsa-gpu/queue-suspend-drain", test_queue_suspend_drain);
    qtest_add_func("/hsa-gpu/migration", test_migration);
    qtest_add_func("/hsa-gpu/migration-bad-queue", test_migration_bad_queue);
    qtest_add_func("/hsa-gpu/migration-dma", test_migration_dma);
    qtest_add_func("/hsa-gpu/gcn/long-workgroup", test_gcn_long_workgroup);
    qtest_add_func("/hsa-gpu/gcn/endless", test_gcn_endless);
    qtest_add_func("/hsa-gpu/gcn/setup-bound", test_gcn_setup_bound);
    qtest_add_func("/hsa-gpu/reliability/processor-without-bql",
                   test_processor_without_bql);
    qtest_add_func("/hsa-gpu/reliability/bus-master-off-race",
                   test_bus_master_off_race);
    qtest_add_func("/hsa-gpu/reliability/pass-budget", test_pass_budget);
    qtest_add_func("/hsa-gpu/reliability/migration-error-irq",
                   test_migration_error_irq);
    qtest_add_func("/hsa-gpu/reliability/migration-pending",
                   test_migration_pending);
    qtest_add_func("/hsa-gpu/reliability/load-over-used",
                   test_load_over_used);
    qtest_add_func("/hsa-gpu/reliability/realize-failure",
                   test_realize_failure);
    qtest_add_func("/hsa-gpu/reliability/unplug-busy", test_unplug_busy);
    qtest_add_data_func("/hsa-gpu/mainloop/unplug-busy", test_unplug_busy,
                        run_mainloop);
    qtest_add_func("/hsa-gpu/mainloop/auto", test_processor_auto);
    qtest_add_func("/hsa-gpu/vtd/wrong-size", test_vtd_wrong_size);
    qtest_add_func("/hsa-gpu/mainloop/deterministic",
                   test_mainloop_deterministic);
    qtest_add_data_func("/hsa-gpu/mainloop/queue-dispatch",
                        test_queue_dispatch, run_mainloop);
    qtest_add_data_func("/hsa-gpu/mainloop/queue-error", test_queue_error,
                        run_mainloop);
    qtest_add_data_func("/hsa-gpu/mainloop/dma", test_dma, run_mainloop);
    qtest_add_data_func("/hsa-gpu/mainloop/queue-long-kernel",
                        test_queue_long_kernel, run_mainloop);
    qtest_add_data_func("/hsa-gpu/mainloop/queue-suspend-drain",
                        test_queue_suspend_drain, run_mainloop);
    qtest_add_data_func("/hsa-gpu/mainloop/pass-budget", test_pass_budget,
                        run_mainloop);
    qtest_add_func("/hsa-gpu/fault/atomic", test_fault_atomic);
    qtest_add_func("/hsa-gpu/fault/dma", test_fault_dma);
    qtest_add_func("/hsa-gpu/fault/msix", test_fault_msix);
    qtest_add_func("/hsa-gpu/fault/queue-hang", test_fault_queue_hang);
    qtest_add_func("/hsa-gpu/fault/fatal", test_fault_fatal);
    qtest_add_func("/hsa-gpu/flr", test_flr);
    qtest_add_func("/hsa-gpu/mainloop/irq-burst", test_irq_burst);
    qtest_add_func("/hsa-gpu/mainloop/doorbell-wakeups",
                   test_doorbell_wakeups);
    qtest_add_func("/hsa-gpu/reliability/deliver-unplug-free-bql",
                   test_deliver_unplug_free_bql);
    qtest_add_func("/hsa-gpu/reliability/deliver-unplug",
                   test_deliver_unplug);
    qtest_add_data_func("/hsa-gpu/mainloop/deliver-unplug",
                        test_deliver_unplug, run_mainloop);
    qtest_add_func("/hsa-gpu/mainloop/deliver-reset", test_deliver_reset);
    qtest_add_func("/hsa-gpu/fault/late-msix-unplug", test_late_msix_unplug);
    qtest_add_func("/hsa-gpu/fault/fatal-unplug", test_fatal_unplug);
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
    qtest_add_func("/hsa-gpu/sdma/packets", test_sdma_packets);
    qtest_add_data_func("/hsa-gpu/mainloop/sdma/packets", test_sdma_packets,
                        run_mainloop);
    qtest_add_func("/hsa-gpu/sdma/vm", test_sdma_vm);
    qtest_add_func("/hsa-gpu/sdma/errors", test_sdma_errors);
    qtest_add_func("/hsa-gpu/sdma/wrap", test_sdma_wrap);
    qtest_add_func("/hsa-gpu/sdma/rect", test_sdma_rect);
    qtest_add_func("/hsa-gpu/sdma/migration", test_sdma_migration);
    /* cached read alias */
    qtest_add_func("/hsa-gpu/read-alias/directory", test_read_alias);
    qtest_add_func("/hsa-gpu/read-alias/props", test_read_alias_props);
    qtest_add_func("/hsa-gpu/read-alias/sdma", test_read_alias_sdma);
    qtest_add_func("/hsa-gpu/read-alias/migration", test_read_alias_migration);
    return g_test_run();
}
