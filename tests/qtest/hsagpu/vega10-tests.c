/*
 * hsa-gpu qtest: the Vega10 personality (hsa-gpu-vega10, docs/vega10.md):
 * the identity and BARs amdgpu probes, the vBIOS it reads from the
 * expansion ROM, the register handshakes it waits on through BAR5, and
 * its registers across migration and reset.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "hsagpu-qtest.h"
#include "hsagpu/vega10_regs.h"
#include "hsagpu/hsagpu_ctx.h"

#define V10_ROM_BASE    0xe0100000U
#define V10_DEV         "-device hsa-gpu-vega10,id=gpu0,bus=rp0"

static void v10_fixture(Fixture *f, const char *extra)
{
    f->qts = qtest_initf("-M q35 -nic none -device pcie-root-port,id=rp0,"
                         "bus=pcie.0,chassis=1,addr=0x4 " V10_DEV "%s",
                         extra);
    f->bus = qpci_new_pc(f->qts, NULL);
    f->rp = qpci_device_find(f->bus, RP_DEVFN);
    g_assert(f->rp);
    setup_bridge_and_bars(f);
}

static uint32_t v10_rd(Fixture *f, uint32_t dw)
{
    return qtest_readl(f->qts, MMIO_BASE + dw * 4);
}

static void v10_wr(Fixture *f, uint32_t dw, uint32_t val)
{
    qtest_writel(f->qts, MMIO_BASE + dw * 4, val);
}

static void test_v10_identity(void)
{
    Fixture f;
    uint32_t flags;

    v10_fixture(&f, ",vram-size=256M");
    g_assert_cmphex(qpci_config_readw(f.gpu, PCI_VENDOR_ID), ==,
                    V10_PCI_VENDOR_ID);
    g_assert_cmphex(qpci_config_readw(f.gpu, PCI_DEVICE_ID), ==,
                    V10_PCI_DEVICE_ID);
    g_assert_cmphex(qpci_config_readl(f.gpu, PCI_CLASS_REVISION) >> 8, ==,
                    V10_PCI_CLASS_CODE);
    /* one MSI vector, no MSI-X: amdgpu asks for either */
    g_assert_cmpint(find_cap(&f, PCI_CAP_ID_MSI), !=, 0);
    g_assert_cmpint(find_cap(&f, PCI_CAP_ID_MSIX), ==, 0);
    g_assert_cmpint(find_cap(&f, PCI_CAP_ID_EXP), !=, 0);
    /* a vendor-specific extended capability at 0x100, then AER */
    {
        QPCIDevice *mch = qpci_device_find(f.bus, 0);

        qpci_config_writel(mch, 0x60, ECAM_BASE | 1);
        g_free(mch);
    }
    g_assert_cmphex(ecam_readl(&f, 0x100) & 0xffff, ==, PCI_EXT_CAP_ID_VNDR);
    g_assert_cmphex(ecam_readl(&f, 0x100) >> 20, ==, 0x150);
    g_assert_cmphex(ecam_readl(&f, 0x150) & 0xffff, ==, PCI_EXT_CAP_ID_ERR);

    qpci_config_writew(f.gpu, PCI_COMMAND, 0);
    g_assert_cmphex(bar_size(&f, 0, &flags), ==, 256 * 1024 * 1024);
    g_assert_cmphex(flags, ==, PCI_BASE_ADDRESS_MEM_TYPE_64 |
                    PCI_BASE_ADDRESS_MEM_PREFETCH);
    g_assert_cmphex(bar_size(&f, 2, &flags), ==, V10_DOORBELL_BAR_SIZE);
    g_assert_cmphex(flags, ==, PCI_BASE_ADDRESS_MEM_TYPE_64 |
                    PCI_BASE_ADDRESS_MEM_PREFETCH);
    g_assert_cmphex(bar_size(&f, 4, &flags), ==, 0);
    /* 512 KiB: the HDP remap page and the MMHUB live high up */
    g_assert_cmphex(bar_size(&f, 5, &flags), ==, V10_MMIO_BAR_SIZE);
    g_assert_cmphex(flags, ==, PCI_BASE_ADDRESS_MEM_TYPE_32);
    fixture_fini(&f);

    /* too little VRAM for amdgpu is refused at realize */
    {
        QTestState *qts = qtest_init("-M q35 -nic none -device "
                                     "pcie-root-port,id=rp0,bus=pcie.0,"
                                     "chassis=1,addr=0x4");
        QDict *rsp = qtest_qmp(qts, "{ 'execute': 'device_add', "
                               "'arguments': { 'driver': 'hsa-gpu-vega10', "
                               "'bus': 'rp0', 'vram-size': 16777216 } }");
        QDict *err = qdict_get_qdict(rsp, "error");

        g_assert_nonnull(err);
        g_assert_nonnull(strstr(qdict_get_str(err, "desc"), "vram-size"));
        qobject_unref(rsp);
        qtest_quit(qts);
    }
}

static void test_v10_vbios(void)
{
    Fixture f;
    uint32_t pcir, hdr;
    char magic[11] = { 0 };

    v10_fixture(&f, ",vram-size=64M");
    qpci_config_writel(f.gpu, PCI_ROM_ADDRESS,
                       V10_ROM_BASE | PCI_ROM_ADDRESS_ENABLE);
    g_assert_cmphex(qtest_readw(f.qts, V10_ROM_BASE), ==, 0xaa55);
    pcir = qtest_readw(f.qts, V10_ROM_BASE + 0x18);
    g_assert_cmphex(qtest_readl(f.qts, V10_ROM_BASE + pcir), ==, 0x52494350);
    g_assert_cmphex(qtest_readw(f.qts, V10_ROM_BASE + pcir + 4), ==,
                    V10_PCI_VENDOR_ID);
    g_assert_cmphex(qtest_readw(f.qts, V10_ROM_BASE + pcir + 6), ==,
                    V10_PCI_DEVICE_ID);
    g_assert_cmphex(qtest_readb(f.qts, V10_ROM_BASE + pcir + 0x15) & 0x80,
                    ==, 0x80);
    /* ATOM: the magic amdgpu's parser looks for, then the ROM header */
    for (int i = 0; i < 10; i++) {
        magic[i] = qtest_readb(f.qts, V10_ROM_BASE + 0x30 + i);
    }
    g_assert_cmpstr(magic, ==, " 761295520");
    hdr = qtest_readw(f.qts, V10_ROM_BASE + 0x48);
    g_assert_cmphex(qtest_readl(f.qts, V10_ROM_BASE + hdr + 4), ==,
                    0x4d4f5441);    /* "ATOM" */
    fixture_fini(&f);
}

static void test_v10_handshakes(void)
{
    Fixture f;
    uint32_t eng = 17, lo1, lo2;

    v10_fixture(&f, ",vram-size=64M");
    g_assert_cmpuint(v10_rd(&f, V10_RCC_CONFIG_MEMSIZE), ==, 64);
    g_assert_cmphex(v10_rd(&f, V10_MMHUB_FB_LOCATION_BASE), ==,
                    V10_FB_LOCATION_BASE);
    g_assert_cmphex(v10_rd(&f, V10_MMHUB_FB_LOCATION_TOP), ==,
                    V10_FB_LOCATION_BASE + 3);
    g_assert_cmphex(v10_rd(&f, V10_RCC_IOV_FUNC_IDENTIFIER), ==, 0);

    /* HDP flush as the rings' write-then-wait does it */
    v10_wr(&f, V10_GPU_HDP_FLUSH_REQ, 1 << 10);
    g_assert_cmphex(v10_rd(&f, V10_GPU_HDP_FLUSH_DONE), ==, 1 << 10);

    /* TLB flush on the MMHUB: semaphore, request, acknowledge */
    g_assert_cmpuint(v10_rd(&f, V10_MMHUB_INV_ENG0_SEM + eng), ==, 1);
    v10_wr(&f, V10_MMHUB_INV_ENG0_SEM + V10_HUB_INV_REQ + eng, 1 << 0);
    g_assert_cmphex(v10_rd(&f, V10_MMHUB_INV_ENG0_SEM + V10_HUB_INV_ACK +
                           eng), ==, 1);
    v10_wr(&f, V10_MMHUB_INV_ENG0_SEM + eng, 0);

    /* RLC: safe mode taken, SERDES idle, the clock counts */
    v10_wr(&f, V10_RLC_SAFE_MODE, 0x3);
    g_assert_cmphex(v10_rd(&f, V10_RLC_SAFE_MODE), ==, 0x2);
    g_assert_cmphex(v10_rd(&f, V10_RLC_SERDES_CU_MASTER_BUSY), ==, 0);
    v10_wr(&f, V10_RLC_CAPTURE_GPU_CLOCK_COUNT, 1);
    lo1 = v10_rd(&f, V10_RLC_GPU_CLOCK_COUNT_LSB);
    qtest_clock_step(f.qts, 1000000);          /* 1 ms: 100,000 ticks */
    g_assert_cmphex(v10_rd(&f, V10_RLC_GPU_CLOCK_COUNT_LSB), ==, lo1);
    v10_wr(&f, V10_RLC_CAPTURE_GPU_CLOCK_COUNT, 1);
    lo2 = v10_rd(&f, V10_RLC_GPU_CLOCK_COUNT_LSB);
    g_assert_cmpuint(lo2 - lo1, ==, 100000);

    /* VRAM through MM_INDEX/MM_DATA, before any GART exists */
    v10_wr(&f, V10_MM_INDEX, 0x80000000u | 0x3ff000);
    v10_wr(&f, V10_MM_INDEX_HI, 0);
    v10_wr(&f, V10_MM_DATA, 0x600dcafe);
    v10_wr(&f, V10_MM_INDEX, 0x80000000u | 0x3ff004);
    g_assert_cmphex(v10_rd(&f, V10_MM_DATA), ==, 0);
    v10_wr(&f, V10_MM_INDEX, 0x80000000u | 0x3ff000);
    g_assert_cmphex(v10_rd(&f, V10_MM_DATA), ==, 0x600dcafe);
    /* past the end of VRAM: nothing */
    v10_wr(&f, V10_MM_INDEX, 0x80000000u | (64 << 20));
    v10_wr(&f, V10_MM_DATA, 1);
    g_assert_cmphex(v10_rd(&f, V10_MM_DATA), ==, 0);
    fixture_fini(&f);
}

/*
 * Migrate the fixture's guest through the file @path into a fresh QEMU
 * with the same device (64 MiB of VRAM), and find its PCI functions again
 */
static void v10_migrate_through_file(Fixture *f, const char *path)
{
    g_autofree char *uri = g_strdup_printf("file:%s", path);
    g_autofree char *st = NULL;

    migrate_to_file(f, path);
    g_free(f->gpu);
    g_free(f->rp);
    qpci_free_pc(f->bus);
    qtest_quit(f->qts);
    f->qts = qtest_initf("-M q35 -nic none -device pcie-root-port,id=rp0,"
                         "bus=pcie.0,chassis=1,addr=0x4 " V10_DEV
                         ",vram-size=64M -incoming defer");
    qtest_qmp_assert_success(f->qts, "{ 'execute': 'migrate-incoming', "
                             "'arguments': { 'uri': %s, "
                             "'exit-on-error': false } }", uri);
    st = migrate_wait(f->qts);
    g_assert_cmpstr(st, ==, "completed");
    unlink(path);
    f->bus = qpci_new_pc(f->qts, NULL);
    f->rp = qpci_device_find(f->bus, RP_DEVFN);
    f->gpu = qpci_device_find(f->bus, (GPU_BUS << 8) | QPCI_DEVFN(0, 0));
    g_assert(f->gpu);
}

static void test_v10_migration_reset(void)
{
    g_autofree char *path = g_strdup_printf("%s/hsagpu-v10-mig-%d",
                                            g_get_tmp_dir(), getpid());
    uint32_t pq = V10_CP_MQD_BASE_ADDR + 8;
    Fixture f;

    v10_fixture(&f, ",vram-size=64M");
    v10_wr(&f, V10_SCRATCH_REG0 + 3, 0x5ca1ab1e);
    v10_wr(&f, V10_GRBM_GFX_CNTL, 2 | 1 << 2 | 5 << 8);     /* ME1 P2 Q5 */
    v10_wr(&f, pq, 0x12345);
    v10_wr(&f, V10_GRBM_GFX_CNTL, 0);
    v10_migrate_through_file(&f, path);
    g_assert_cmphex(v10_rd(&f, V10_SCRATCH_REG0 + 3), ==, 0x5ca1ab1e);
    g_assert_cmphex(v10_rd(&f, pq), ==, 0);
    v10_wr(&f, V10_GRBM_GFX_CNTL, 2 | 1 << 2 | 5 << 8);
    g_assert_cmphex(v10_rd(&f, pq), ==, 0x12345);

    /* a Function Level Reset puts the POST values back */
    v10_wr(&f, V10_RCC_CONFIG_MEMSIZE, 0);
    qpci_config_writew(f.gpu, find_cap(&f, PCI_CAP_ID_EXP) + PCI_EXP_DEVCTL,
                       PCI_EXP_DEVCTL_BCR_FLR);
    setup_bridge_and_bars(&f);
    g_assert_cmpuint(v10_rd(&f, V10_RCC_CONFIG_MEMSIZE), ==, 64);
    g_assert_cmphex(v10_rd(&f, V10_SCRATCH_REG0 + 3), ==, 0);
    v10_wr(&f, V10_GRBM_GFX_CNTL, 2 | 1 << 2 | 5 << 8);
    g_assert_cmphex(v10_rd(&f, pq), ==, 0);
    fixture_fini(&f);
}

/*
 * A live migration under TCG while the device dirties its VRAM, a RAM
 * block larger than the guest's RAM (1 GiB against 512 MiB): each sync of
 * the VRAM's dirty bitmap must re-arm the TLB dirty tracking of the VRAM,
 * not of the block at ram_addr 0. QEMU 10.0 passed the block-relative
 * offset (patches/0008): the range crossed the RAM block's end and QEMU
 * aborted (tlb_reset_dirty_range_all's assertion), as it did under the
 * amdgpu boot with 512 MiB of guest memory.
 */
static void test_v10_migrate_dirty_vram(void)
{
    g_autofree char *path = g_strdup_printf("%s/hsagpu-v10-dirty-%d",
                                            g_get_tmp_dir(), getpid());
    g_autofree char *uri = g_strdup_printf("file:%s", path);
    g_autofree char *st = NULL;
    Fixture f;

    /*
     * TCG, not qtest's accelerator: the TLB dirty tracking is TCG's; -S:
     * the CPU never runs, so no firmware reprograms the PCI set-up
     */
    v10_fixture(&f, " -accel tcg -m 512 -S");
    /* slow enough for several dirty-bitmap syncs while VRAM changes */
    qtest_qmp_assert_success(f.qts, "{ 'execute': 'migrate-set-parameters',"
                             " 'arguments': { 'max-bandwidth': 33554432 } }");
    qtest_qmp_assert_success(f.qts, "{ 'execute': 'migrate', "
                             "'arguments': { 'uri': %s } }", uri);
    for (int i = 0; i < 400; i++) {
        QDict *rsp;
        const char *status;
        bool active;

        /* a VRAM page dirtied by the device (MM_INDEX/MM_DATA) */
        v10_wr(&f, V10_MM_INDEX_HI, 0);
        v10_wr(&f, V10_MM_INDEX, 0x80000000u | ((i * 4096u) & 0x3ffff000));
        v10_wr(&f, V10_MM_DATA, i);
        rsp = qtest_qmp(f.qts, "{ 'execute': 'query-migrate' }");
        status = qdict_get_try_str(qdict_get_qdict(rsp, "return"), "status");
        active = status && (!strcmp(status, "active") ||
                            !strcmp(status, "setup") ||
                            !strcmp(status, "device"));
        qobject_unref(rsp);
        if (!active) {
            break;
        }
        g_usleep(20 * 1000);
    }
    qtest_qmp_assert_success(f.qts, "{ 'execute': 'migrate-set-parameters',"
                             " 'arguments': { 'max-bandwidth': 0 } }");
    st = migrate_wait(f.qts);
    g_assert_cmpstr(st, ==, "completed");
    unlink(path);
    fixture_fini(&f);
}

/* BAR2 (doorbells) in the root port's prefetchable window, mastering on */
static void v10_doorbells(Fixture *f)
{
    qpci_config_writew(f->rp, PCI_PREF_MEMORY_BASE, DB_BASE >> 16);
    qpci_config_writew(f->rp, PCI_PREF_MEMORY_LIMIT,
                       (DB_BASE + V10_DOORBELL_BAR_SIZE - 1) >> 16);
    qpci_config_writel(f->rp, PCI_PREF_BASE_UPPER32, 0);
    qpci_config_writel(f->rp, PCI_PREF_LIMIT_UPPER32, 0);
    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_2, DB_BASE);
    qpci_config_writel(f->gpu, PCI_BASE_ADDRESS_3, 0);
    qpci_config_writew(f->gpu, PCI_COMMAND,
                       PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
}

static bool v10_wait_reg(Fixture *f, uint32_t dw, uint32_t want)
{
    for (int i = 0; i < 5000; i++) {
        if (v10_rd(f, dw) == want) {
            return true;
        }
        g_usleep(1000);
    }
    return false;
}

static bool v10_wait_mem(Fixture *f, uint64_t addr, uint32_t want)
{
    for (int i = 0; i < 5000; i++) {
        if (qtest_readl(f->qts, addr) == want) {
            return true;
        }
        g_usleep(1000);
    }
    return false;
}

#define V10_AGP         0xf500000000ULL     /* AGP aperture: bus 0 on */
#define V10_RING        0x100000ULL
#define V10_WB          0x120000ULL
#define V10_GART_PAGE   0x130000ULL         /* GART page 0 maps here */
#define V10_GART_TABLE  0x200000ULL         /* in VRAM */

/* VMID 0's apertures as amdgpu sets them: AGP above the FB, bus 0 on */
static void v10_kernel_apertures(Fixture *f)
{
    v10_wr(f, V10_GFXHUB_AGP_BOT, V10_AGP >> 24);
    v10_wr(f, V10_GFXHUB_AGP_TOP, (V10_AGP >> 24) + 15);
    v10_wr(f, V10_GFXHUB_AGP_BASE, 0);
    v10_wr(f, V10_GFXHUB_SYSTEM_APERTURE_LOW, 0xf400000000ULL >> 18);
    v10_wr(f, V10_GFXHUB_SYSTEM_APERTURE_HIGH,
           (V10_AGP + (256 << 20) - 1) >> 18);
}

/*
 * The GFX ring started as gfx_v9_0_cp_gfx_resume does: 1024 dwords at
 * V10_RING in the AGP aperture, its read pointer written back to
 * V10_WB, doorbell 0x116; @int_cntl: CP_INT_CNTL_RING0 before it starts
 */
static void v10_gfx_ring_start(Fixture *f, uint32_t int_cntl)
{
    uint64_t ring = V10_AGP + V10_RING;

    v10_wr(f, V10_CP_ME_CNTL, V10_CP_ME_HALTS);
    v10_wr(f, V10_CP_RB0_CNTL, 9);
    v10_wr(f, V10_CP_RB0_WPTR, 0);
    v10_wr(f, V10_CP_RB0_RPTR_ADDR, (uint32_t)(V10_AGP + V10_WB));
    v10_wr(f, V10_CP_RB0_RPTR_ADDR_HI, (V10_AGP + V10_WB) >> 32);
    v10_wr(f, V10_CP_RB0_BASE, ring >> 8);
    v10_wr(f, V10_CP_RB0_BASE_HI, ring >> 40);
    v10_wr(f, V10_CP_RB_DOORBELL_CONTROL, 0x116 << 2 | V10_DOORBELL_EN);
    v10_wr(f, V10_CP_INT_CNTL_RING0, int_cntl);
    v10_wr(f, V10_CP_ME_CNTL, 0);
}

/*
 * The GFX ring as gfx_v9_0_cp_gfx_resume starts it, fed through its
 * doorbell, in the kernel's address space: the ring and write-back in
 * the AGP aperture (bus addresses), a WRITE_DATA into the GART
 */
static void test_v10_gfx_ring(void)
{
    uint64_t pte = V10_GART_PAGE | HSAGPU_PTE_VALID | HSAGPU_PTE_SYSTEM |
                   HSAGPU_PTE_SNOOPED | HSAGPU_PTE_READABLE |
                   HSAGPU_PTE_WRITEABLE;
    uint32_t w = 0;
    Fixture f;

#define RING(v) qtest_writel(f.qts, V10_RING + 4 * w++, (v))
/* SET_UCONFIG_REG of SCRATCH_REG0, as gfx_v9_0_ring_test_ring writes it */
#define SCRATCH(v) do { \
        RING(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3)); \
        RING(V10_SCRATCH_REG0 - HSAGPU_PM4_UCONFIG_REG_START); \
        RING(v); \
    } while (0)
    v10_fixture(&f, ",vram-size=64M");
    v10_doorbells(&f);
    /* VMID 0's apertures: FB (at reset), AGP above it, the GART at 0 */
    v10_kernel_apertures(&f);
    /* a flat GART in VRAM: one entry, written through MM_INDEX/DATA */
    v10_wr(&f, V10_MM_INDEX_HI, 0);
    v10_wr(&f, V10_MM_INDEX, 0x80000000u | V10_GART_TABLE);
    v10_wr(&f, V10_MM_DATA, (uint32_t)pte);
    v10_wr(&f, V10_MM_INDEX, 0x80000000u | (V10_GART_TABLE + 4));
    v10_wr(&f, V10_MM_DATA, pte >> 32);
    v10_wr(&f, V10_GFXHUB_CONTEXT0_BASE_LO32, V10_GART_TABLE | 1);
    v10_wr(&f, V10_GFXHUB_CONTEXT0_BASE_HI32, 0);
    v10_wr(&f, V10_GFXHUB_CONTEXT0_START_LO32, 0);
    v10_wr(&f, V10_GFXHUB_CONTEXT0_END_LO32, 0x1fff);
    v10_wr(&f, V10_GFXHUB_CONTEXT0_CNTL, V10_CTX_CNTL_ENABLE);

    /* the ring: 1024 dwords, write-back, doorbell 0x116 */
    v10_gfx_ring_start(&f, 0);

    /* gfx_v9_0_ring_test_ring, a fence, a write through the GART */
    v10_wr(&f, V10_SCRATCH_REG0, 0xcafedead);
    SCRATCH(0xdeadbeef);
    RING(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
    RING(HSAGPU_PM4_SEL_MEM << 8);
    RING(0x40);
    RING(0);
    RING(0x600dda7a);
    RING(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RELEASE_MEM, 8));
    RING(0);
    RING(HSAGPU_PM4_DATA_32 << 29);
    RING((uint32_t)(V10_AGP + V10_WB + 0x100));
    RING((V10_AGP + V10_WB + 0x100) >> 32);
    RING(42);
    RING(0);
    RING(0);
    qtest_writeq(f.qts, DB_BASE + 0x116 * 4, w);
    g_assert_true(v10_wait_reg(&f, V10_SCRATCH_REG0, 0xdeadbeef));
    g_assert_true(v10_wait_mem(&f, V10_WB + 0x100, 42));
    g_assert_cmphex(qtest_readl(f.qts, V10_GART_PAGE + 0x40), ==,
                    0x600dda7a);
    g_assert_cmpuint(qtest_readl(f.qts, V10_WB), ==, w);

    /*
     * inject-queue-hang on the GFX ring (V10_HANG_GFX: after the eight
     * SDMA rings): its doorbell is taken, nothing runs; halting the ME,
     * as amdgpu's reset does, ends the hang, and the restarted ring runs
     */
    g_assert_cmpint(qom_get_int(&f, "inject-queue-hang"), ==, -1);
    qom_set_int(&f, "inject-queue-hang", 8);
    g_assert_cmpint(qom_get_int(&f, "inject-queue-hang"), ==, 8);
    SCRATCH(0x4a96);
    qtest_writeq(f.qts, DB_BASE + 0x116 * 4, w);
    g_usleep(100 * 1000);
    g_assert_cmphex(v10_rd(&f, V10_SCRATCH_REG0), ==, 0xdeadbeef);
    g_assert_cmpuint(qtest_readl(f.qts, V10_WB), ==, w - 3);
    v10_wr(&f, V10_CP_ME_CNTL, V10_CP_ME_HALTS);
    g_assert_cmpint(qom_get_int(&f, "inject-queue-hang"), ==, -1);
    /* a ring that does not run cannot be held */
    qom_set_int(&f, "inject-queue-hang", 8);
    g_assert_cmpint(qom_get_int(&f, "inject-queue-hang"), ==, -1);
    /* restarted where the registers say, as amdgpu's resume does */
    w = 0;
    v10_wr(&f, V10_CP_RB0_WPTR, 0);
    v10_wr(&f, V10_CP_ME_CNTL, 0);
    SCRATCH(0x4a97);
    qtest_writeq(f.qts, DB_BASE + 0x116 * 4, w);
    g_assert_true(v10_wait_reg(&f, V10_SCRATCH_REG0, 0x4a97));
    /* held while it runs, then let go: it goes on where it was */
    qom_set_int(&f, "inject-queue-hang", 8);
    SCRATCH(0x4a98);
    qtest_writeq(f.qts, DB_BASE + 0x116 * 4, w);
    g_usleep(50 * 1000);
    g_assert_cmphex(v10_rd(&f, V10_SCRATCH_REG0), ==, 0x4a97);
    qom_set_int(&f, "inject-queue-hang", -1);
    g_assert_true(v10_wait_reg(&f, V10_SCRATCH_REG0, 0x4a98));
    /* an id past the last MEC queue is refused */
    {
        QDict *rsp = qtest_qmp(f.qts, "{ 'execute': 'qom-set', 'arguments':"
                               " { 'path': '/machine/peripheral/gpu0', "
                               "'property': 'inject-queue-hang', "
                               "'value': 73 } }");

        g_assert_true(qdict_haskey(rsp, "error"));
        qobject_unref(rsp);
    }

    /*
     * Outside every aperture and the GART: with the range class's
     * default page on, the write goes there (amdgpu's dummy page)
     */
    v10_wr(&f, V10_GFXHUB_FAULT_DEFAULT_LO32, (V10_WB + 0x1000) >> 12);
    v10_wr(&f, V10_GFXHUB_CONTEXT0_CNTL, V10_CTX_CNTL_ENABLE |
           V10_CTX_CNTL_DEFAULT(V10_FAULT_CLASS_RANGE));
    v10_wr(&f, V10_GFXHUB_INV_ENG0_SEM + V10_HUB_INV_REQ, 1);
    RING(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
    RING(HSAGPU_PM4_SEL_MEM << 8);
    RING(0x44);
    RING(0x100);                    /* 0x100_0000_0044: no mapping */
    RING(0xdefa);
    qtest_writeq(f.qts, DB_BASE + 0x116 * 4, w);
    g_assert_true(v10_wait_mem(&f, V10_WB, w));
    g_assert_cmphex(qtest_readl(f.qts, V10_WB + 0x1044), ==, 0xdefa);
    /* the hub latched the fault: VMID 0, the page */
    g_assert_cmphex(v10_rd(&f, V10_GFXHUB_FAULT_STATUS), !=, 0);
    g_assert_cmphex(v10_rd(&f, V10_GFXHUB_FAULT_ADDR_LO32), ==,
                    0x10000000000ULL >> 12);

    /* without it the access is refused: the ring stops there */
    v10_wr(&f, V10_GFXHUB_CONTEXT0_CNTL, V10_CTX_CNTL_ENABLE);
    v10_wr(&f, V10_GFXHUB_INV_ENG0_SEM + V10_HUB_INV_REQ, 1);
    RING(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
    RING(HSAGPU_PM4_SEL_MEM << 8);
    RING(0x48);
    RING(0x100);
    RING(0xbad);
    SCRATCH(0x1);
    qtest_writeq(f.qts, DB_BASE + 0x116 * 4, w);
    g_usleep(100 * 1000);
    g_assert_cmphex(v10_rd(&f, V10_SCRATCH_REG0), ==, 0x4a98);
    g_assert_cmpuint(qtest_readl(f.qts, V10_WB), ==, w - 8);
    g_assert_cmphex(qtest_readl(f.qts, V10_WB + 0x1048), ==, 0);
    fixture_fini(&f);
#undef SCRATCH
#undef RING
}

/*
 * A page table in system memory (a PDE with SYSTEM: a bus address): the
 * hub reads its entries from the bus as they are, not through a
 * translation of their own (which took the hubs' lock a second time: a
 * guest could hang QEMU with one register write)
 */
static void test_v10_gart_in_system_memory(void)
{
    uint64_t pte = V10_GART_PAGE | HSAGPU_PTE_VALID | HSAGPU_PTE_SYSTEM |
                   HSAGPU_PTE_SNOOPED | HSAGPU_PTE_READABLE |
                   HSAGPU_PTE_WRITEABLE;
    uint64_t table = 0x160000ULL;
    uint32_t w = 0;
    Fixture f;

#define RING(v) qtest_writel(f.qts, V10_RING + 4 * w++, (v))
    v10_fixture(&f, ",vram-size=64M");
    v10_doorbells(&f);
    v10_kernel_apertures(&f);
    /* the flat GART's one entry in guest RAM, its base a bus address */
    qtest_writeq(f.qts, table, pte);
    v10_wr(&f, V10_GFXHUB_CONTEXT0_BASE_LO32,
           table | HSAGPU_PTE_VALID | HSAGPU_PTE_SYSTEM);
    v10_wr(&f, V10_GFXHUB_CONTEXT0_BASE_HI32, 0);
    v10_wr(&f, V10_GFXHUB_CONTEXT0_START_LO32, 0);
    v10_wr(&f, V10_GFXHUB_CONTEXT0_END_LO32, 0x1fff);
    v10_wr(&f, V10_GFXHUB_CONTEXT0_CNTL, V10_CTX_CNTL_ENABLE);
    v10_gfx_ring_start(&f, 0);
    RING(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
    RING(HSAGPU_PM4_SEL_MEM << 8);
    RING(0x80);
    RING(0);
    RING(0x5157e3);
    qtest_writeq(f.qts, DB_BASE + 0x116 * 4, w);
    g_assert_true(v10_wait_mem(&f, V10_WB, w));
    g_assert_cmphex(qtest_readl(f.qts, V10_GART_PAGE + 0x80), ==, 0x5157e3);
    /* and the registers still answer: the hubs' lock is free */
    g_assert_cmphex(v10_rd(&f, V10_GFXHUB_CONTEXT0_CNTL), ==,
                    V10_CTX_CNTL_ENABLE);
    fixture_fini(&f);
#undef RING
}

#define V10_IH_RING    0x140000ULL         /* bus address: MC_SPACE 1 */
#define V10_IH_WPTR     0x121000ULL
#define V10_MSI         0x150000ULL
#define V10_MSI_DATA    0x4321

/*
 * The IH as vega10_ih_irq_init programs it: 4 KiB at a bus address
 * (V10_IH_RING), the write pointer written back (V10_IH_WPTR), the read
 * pointer by doorbell 0x1e8; its MSI lands in RAM (V10_MSI)
 */
static void v10_ih_start(Fixture *f)
{
    uint8_t msi = find_cap(f, PCI_CAP_ID_MSI);

    qpci_config_writel(f->gpu, msi + PCI_MSI_ADDRESS_LO, V10_MSI);
    qpci_config_writel(f->gpu, msi + PCI_MSI_ADDRESS_HI, 0);
    qpci_config_writew(f->gpu, msi + PCI_MSI_DATA_64, V10_MSI_DATA);
    qpci_config_writew(f->gpu, msi + PCI_MSI_FLAGS, PCI_MSI_FLAGS_ENABLE |
                       PCI_MSI_FLAGS_64BIT);
    v10_wr(f, V10_IH_RB_BASE, V10_IH_RING >> 8);
    v10_wr(f, V10_IH_RB_BASE_HI, 0);
    v10_wr(f, V10_IH_RB_WPTR_ADDR_LO, V10_IH_WPTR);
    v10_wr(f, V10_IH_RB_WPTR_ADDR_HI, 0);
    v10_wr(f, V10_IH_DOORBELL_RPTR, V10_IH_DOORBELL_RPTR_ENABLE | 0x1e8);
    v10_wr(f, V10_IH_RB_RPTR, 0);
    v10_wr(f, V10_IH_RB_WPTR, 0);
    v10_wr(f, V10_IH_RB_CNTL, V10_IH_RB_CNTL_RB_ENABLE | 10 << 1 |
           V10_IH_RB_CNTL_WPTR_WRITEBACK_ENABLE |
           V10_IH_RB_CNTL_WPTR_OVERFLOW_ENABLE |
           V10_IH_RB_CNTL_ENABLE_INTR | V10_IH_RB_CNTL_RPTR_REARM |
           V10_IH_MC_SPACE_BUS << 28);
}

/*
 * An AQL queue of amdkfd's loaded through the HQD registers, as
 * kgd_gfx_v9_hqd_load does without the hardware scheduler (ME1 pipe 1
 * queue 2, CP_HQD_AQL_CONTROL set, here in VMID 0's AGP aperture): the
 * device's queue processor runs its packets; the read_dispatch_id is
 * written back; a completion signal with an event is decremented, the
 * event id goes to the mailbox and the IH gets the end-of-pipe entry
 * naming the queue and the event; CP_HQD_DEQUEUE_REQUEST stops it
 */
#define V10_AQL_RING    0x170000ULL
#define V10_AQL_DESC    0x171000ULL         /* read, write dispatch ids */
#define V10_AQL_SIG     0x172000ULL
#define V10_AQL_MBOX    0x172100ULL

/* ME1 pipe 1 queue 2's HQD bank, as amdkfd's acquire_queue selects */
static void v10_aql_hqd_regs(Fixture *f)
{
    v10_wr(f, V10_GRBM_GFX_CNTL, 1 | 1 << 2 | 2 << 8);
    v10_wr(f, V10_CP_HQD_PQ_BASE, (V10_AGP + V10_AQL_RING) >> 8);
    v10_wr(f, V10_CP_HQD_PQ_BASE + 1, (V10_AGP + V10_AQL_RING) >> 40);
    v10_wr(f, V10_CP_HQD_PQ_CONTROL, 9);       /* 1024 dwords: 64 packets */
    v10_wr(f, V10_CP_HQD_PQ_RPTR_REPORT_ADDR,
           (uint32_t)(V10_AGP + V10_AQL_DESC));
    v10_wr(f, V10_CP_HQD_PQ_RPTR_REPORT_ADDR + 1,
           (V10_AGP + V10_AQL_DESC) >> 32);
    v10_wr(f, V10_CP_HQD_PQ_WPTR_POLL_ADDR,
           (uint32_t)(V10_AGP + V10_AQL_DESC + 8));
    v10_wr(f, V10_CP_HQD_PQ_WPTR_POLL_ADDR + 1,
           (V10_AGP + V10_AQL_DESC + 8) >> 32);
    v10_wr(f, V10_CP_HQD_PQ_DOORBELL_CONTROL,
           0x30 << 2 | V10_DOORBELL_EN);
    v10_wr(f, V10_CP_HQD_VMID, 0);
    v10_wr(f, V10_CP_HQD_AQL_CONTROL, 1);
    qtest_writeq(f->qts, V10_AQL_DESC, 0);
    qtest_writeq(f->qts, V10_AQL_DESC + 8, 0);
}

static void test_v10_aql_hqd(void)
{
    struct hsagpu_barrier_packet b;
    uint32_t dw0;
    Fixture f;

    v10_fixture(&f, ",vram-size=64M");
    v10_doorbells(&f);
    v10_ih_start(&f);
    v10_kernel_apertures(&f);
    v10_aql_hqd_regs(&f);
    v10_wr(&f, V10_CP_HQD_ACTIVE, 1);

    /* a barrier with a completion signal carrying an event */
    qtest_writeq(f.qts, V10_AQL_SIG, 1);                /* kind: user */
    qtest_writeq(f.qts, V10_AQL_SIG + 8, 1);
    qtest_writeq(f.qts, V10_AQL_SIG + 16, V10_AGP + V10_AQL_MBOX);
    qtest_writel(f.qts, V10_AQL_SIG + 24, 0x42);
    barrier_packet(&b, 0);
    b.completion_signal = V10_AGP + V10_AQL_SIG;
    qtest_memwrite(f.qts, V10_AQL_RING + 4, (uint8_t *)&b + 4,
                   sizeof(b) - 4);
    qtest_writew(f.qts, V10_AQL_RING, b.header);
    qtest_writeq(f.qts, V10_AQL_DESC + 8, 1);           /* write_dispatch_id */
    qtest_writeq(f.qts, DB_BASE + 0x30 * 4, 1);
    g_assert_true(v10_wait_mem(&f, V10_AQL_DESC, 1));
    g_assert_true(v10_wait_mem(&f, V10_AQL_SIG + 8, 0));
    g_assert_cmphex(qtest_readq(f.qts, V10_AQL_MBOX), ==, 0x42);
    /* the end-of-pipe entry: client GRBM_CP, source 181, ME1 pipe 1 queue 2 */
    g_assert_true(v10_wait_mem(&f, V10_IH_WPTR, 32));
    dw0 = qtest_readl(f.qts, V10_IH_RING);
    g_assert_cmphex(dw0 & 0xff, ==, 0x14);
    g_assert_cmpuint((dw0 >> 8) & 0xff, ==, 181);
    g_assert_cmphex((dw0 >> 16) & 0xff, ==, 2 << 4 | 1 << 2 | 1);
    g_assert_cmphex(qtest_readl(f.qts, V10_IH_RING + 16), ==, 0x42);

    /* dequeued: a packet written then is not run */
    v10_wr(&f, V10_CP_HQD_DEQUEUE_REQUEST, 1);
    g_assert_cmphex(v10_rd(&f, V10_CP_HQD_ACTIVE) & 1, ==, 0);
    qtest_writeq(f.qts, V10_AQL_SIG + 8, 1);
    qtest_memwrite(f.qts, V10_AQL_RING + 64 + 4, (uint8_t *)&b + 4,
                   sizeof(b) - 4);
    qtest_writew(f.qts, V10_AQL_RING + 64, b.header);
    qtest_writeq(f.qts, V10_AQL_DESC + 8, 2);
    qtest_writeq(f.qts, DB_BASE + 0x30 * 4, 2);
    g_usleep(50 * 1000);
    g_assert_cmpuint(qtest_readq(f.qts, V10_AQL_DESC), ==, 1);
    g_assert_cmpuint(qtest_readq(f.qts, V10_AQL_SIG + 8), ==, 1);

    /*
     * loaded again (amdkfd restoring it after an eviction): it resumes
     * where its read_dispatch_id says, packet 1 (an AQL queue's read
     * index is a packet count, not a multiple of anything), and runs
     * the packet written while it was off, whose doorbell rang then:
     * no new doorbell comes
     */
    v10_wr(&f, V10_CP_HQD_ACTIVE, 1);
    g_assert_cmphex(v10_rd(&f, V10_CP_HQD_ACTIVE) & 1, ==, 1);
    g_assert_true(v10_wait_mem(&f, V10_AQL_DESC, 2));
    g_assert_true(v10_wait_mem(&f, V10_AQL_SIG + 8, 0));

    /*
     * dequeued while a busy kernel is in flight (consumed, its slot
     * freed, its time not up: qtest's clock stands still), as amdkfd's
     * scheduler unmaps a process's queues at every runlist change: the
     * queue is drained, so the kernel's completion signal still comes.
     * It was lost with the queue before, and ROCr waited for ever.
     */
    {
        struct hsagpu_kargs_busy busy = { .ns = 1000000000 };
        struct hsagpu_kernel_dispatch_packet k;

        qtest_memwrite(f.qts, V10_AQL_SIG + 0x200, &busy, sizeof(busy));
        qtest_writeq(f.qts, V10_AQL_SIG + 0x180, 1);    /* kind: user */
        qtest_writeq(f.qts, V10_AQL_SIG + 0x188, 1);
        fill_packet(&k, 1, 1, V10_AGP + V10_AQL_SIG + 0x180);
        k.kernel_object = HSAGPU_KERNEL_BUSY;
        k.kernarg_address = V10_AGP + V10_AQL_SIG + 0x200;
        qtest_memwrite(f.qts, V10_AQL_RING + 128 + 2, (uint8_t *)&k + 2,
                       sizeof(k) - 2);
        qtest_writew(f.qts, V10_AQL_RING + 128, k.header);
        qtest_writeq(f.qts, V10_AQL_DESC + 8, 3);
        qtest_writeq(f.qts, DB_BASE + 0x30 * 4, 3);
        g_assert_true(v10_wait_mem(&f, V10_AQL_DESC, 3));
        g_usleep(20 * 1000);
        g_assert_cmpuint(qtest_readq(f.qts, V10_AQL_SIG + 0x188), ==, 1);
        v10_wr(&f, V10_CP_HQD_DEQUEUE_REQUEST, 1);
        g_assert_cmphex(v10_rd(&f, V10_CP_HQD_ACTIVE) & 1, ==, 0);
        g_assert_true(v10_wait_mem(&f, V10_AQL_SIG + 0x188, 0));
        v10_wr(&f, V10_CP_HQD_ACTIVE, 1);
    }

    /*
     * ROCr's queue (its read_dispatch_id inside an amd_queue_t) fails on
     * a packet of a reserved type: as gfx9 with ROCr's trap handler, the
     * queue_inactive_signal says why, and its event reaches the driver
     * as an end-of-pipe entry, so ROCr's error callback runs instead of
     * the process waiting for ever
     */
    qtest_writeq(f.qts, V10_AQL_DESC - HSAGPU_QUEUE_DESC_RPTR +
                 HSAGPU_AMD_QUEUE_INACTIVE_SIGNAL, V10_AGP + V10_AQL_SIG + 64);
    qtest_writeq(f.qts, V10_AQL_SIG + 64, 1);
    qtest_writeq(f.qts, V10_AQL_SIG + 72, 0);
    qtest_writeq(f.qts, V10_AQL_SIG + 80, V10_AGP + V10_AQL_MBOX + 8);
    qtest_writel(f.qts, V10_AQL_SIG + 88, 0x43);
    qtest_writel(f.qts, V10_AQL_RING + 192 + 4, 0);
    qtest_writew(f.qts, V10_AQL_RING + 192, 7);        /* a reserved type */
    qtest_writeq(f.qts, V10_AQL_DESC + 8, 4);
    qtest_writeq(f.qts, DB_BASE + 0x30 * 4, 4);
    g_assert_true(v10_wait_mem(&f, V10_AQL_MBOX + 8, 0x43));
    g_assert_cmphex(qtest_readq(f.qts, V10_AQL_SIG + 72), ==,
                    HSAGPU_AMD_QUEUE_ERROR | HSAGPU_AMD_QERR_PACKET_FORMAT);
    /* (the third entry: the reloaded queue's barrier made the second) */
    g_assert_true(v10_wait_mem(&f, V10_IH_WPTR, 96));
    g_assert_cmphex(qtest_readl(f.qts, V10_IH_RING + 64) & 0xff, ==, 0x14);
    g_assert_cmphex(qtest_readl(f.qts, V10_IH_RING + 80), ==, 0x43);
    fixture_fini(&f);
}

/*
 * Fences with interrupts: RELEASE_MEM's end-of-pipe entry in the IH ring
 * (as vega10_ih_irq_init programs it), its write pointer written back,
 * the MSI; with RPTR_REARM, the next MSI only after the driver's rptr
 */
static void test_v10_ih(void)
{
    uint32_t w = 0, dw0;
    Fixture f;

#define RING(v) qtest_writel(f.qts, V10_RING + 4 * w++, (v))
#define FENCE(seq, ctx) do { \
        RING(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RELEASE_MEM, 8)); \
        RING(0); \
        RING(HSAGPU_PM4_DATA_32 << 29 | HSAGPU_PM4_INT_CONFIRMED << 24); \
        RING((uint32_t)(V10_AGP + V10_WB + 0x100)); \
        RING((V10_AGP + V10_WB + 0x100) >> 32); \
        RING(seq); \
        RING(0); \
        RING(ctx); \
        qtest_writeq(f.qts, DB_BASE + 0x116 * 4, w); \
    } while (0)
    v10_fixture(&f, ",vram-size=64M");
    v10_doorbells(&f);
    v10_ih_start(&f);
    /* the GFX ring in the AGP aperture, its EOP interrupt on */
    v10_kernel_apertures(&f);
    v10_gfx_ring_start(&f, V10_CP_TIME_STAMP_INT_ENABLE);

    /* a fence: one entry (client GRBM_CP, src 181, ME 0), one MSI */
    FENCE(1, 0x77);
    g_assert_true(v10_wait_mem(&f, V10_IH_WPTR, 32));
    dw0 = qtest_readl(f.qts, V10_IH_RING);
    g_assert_cmphex(dw0 & 0xff, ==, 0x14);
    g_assert_cmpuint((dw0 >> 8) & 0xff, ==, 181);
    g_assert_cmphex((dw0 >> 16) & 0xff, ==, 0);
    g_assert_cmphex(qtest_readl(f.qts, V10_IH_RING + 16), ==, 0x77);
    g_assert_true(v10_wait_mem(&f, V10_MSI, V10_MSI_DATA));
    g_assert_cmpuint(qtest_readl(f.qts, V10_WB + 0x100), ==, 1);

    /* a second fence before the driver read: an entry, no MSI yet */
    qtest_writel(f.qts, V10_MSI, 0);
    FENCE(2, 0x78);
    g_assert_true(v10_wait_mem(&f, V10_IH_WPTR, 64));
    g_usleep(50 * 1000);
    g_assert_cmphex(qtest_readl(f.qts, V10_MSI), ==, 0);
    /* the driver's rptr (doorbell) after the first: the second's MSI */
    qtest_writel(f.qts, DB_BASE + 0x1e8 * 4, 32);
    g_assert_true(v10_wait_mem(&f, V10_MSI, V10_MSI_DATA));
    g_assert_cmphex(qtest_readl(f.qts, V10_IH_RING + 32 + 16), ==, 0x78);

    /* EOP interrupts off: the fence, no entry */
    v10_wr(&f, V10_CP_INT_CNTL_RING0, 0);
    qtest_writel(f.qts, DB_BASE + 0x1e8 * 4, 64);
    FENCE(3, 0x79);
    g_assert_true(v10_wait_mem(&f, V10_WB + 0x100, 3));
    g_usleep(50 * 1000);
    g_assert_cmpuint(qtest_readl(f.qts, V10_IH_WPTR), ==, 64);

    /*
     * A VM fault: VMID 0's context with the range class's interrupt on;
     * a write outside every aperture and the GART is the GFXHUB's entry
     * (client UTCL2, source 0), with the page as gmc_v9_0_process_
     * interrupt reads it back (bits 43:12 in data 0, 47:44 in data 1)
     */
    v10_wr(&f, V10_GFXHUB_CONTEXT0_CNTL, V10_CTX_CNTL_ENABLE |
           V10_CTX_CNTL_INT(V10_FAULT_CLASS_RANGE));
    v10_wr(&f, V10_GFXHUB_CONTEXT0_START_LO32, 0);
    v10_wr(&f, V10_GFXHUB_CONTEXT0_END_LO32, 0xff);
    v10_wr(&f, V10_GFXHUB_INV_ENG0_SEM + V10_HUB_INV_REQ, 1);
    RING(HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5));
    RING(HSAGPU_PM4_SEL_MEM << 8);
    RING(0x3456000);
    RING(0x1002);                   /* 0x1002_0345_6000 */
    RING(0xbad);
    qtest_writeq(f.qts, DB_BASE + 0x116 * 4, w);
    g_assert_true(v10_wait_mem(&f, V10_IH_WPTR, 96));
    dw0 = qtest_readl(f.qts, V10_IH_RING + 64);
    g_assert_cmphex(dw0 & 0xff, ==, 0x1b);
    g_assert_cmpuint((dw0 >> 8) & 0xff, ==, 0);
    g_assert_cmpuint((dw0 >> 24) & 0xf, ==, 0);
    g_assert_cmphex(qtest_readl(f.qts, V10_IH_RING + 64 + 16), ==,
                    (uint32_t)(0x100203456000ULL >> 12));
    g_assert_cmphex(qtest_readl(f.qts, V10_IH_RING + 64 + 20) & 0xf, ==,
                    0x100203456000ULL >> 44);
    g_assert_cmphex(v10_rd(&f, V10_GFXHUB_FAULT_ADDR_LO32), ==,
                    (uint32_t)(0x100203456000ULL >> 12));
    fixture_fini(&f);
#undef FENCE
#undef RING
}

/*
 * An SDMA user queue (RLC0 of SDMA0) loaded as amdkfd's
 * kgd_hqd_sdma_load does without the hardware scheduler, in VMID 0's AGP
 * aperture: its write pointer is the 64-bit doorbell's value (there is
 * no poll address); a copy, a fence and a trap (an IH entry of client
 * SDMA0, source 224, the RLC ring); RB_RPTR and CONTEXT_STATUS as it
 * runs; migrated while it runs, it goes on where it was; destroyed as
 * kgd_hqd_sdma_destroy does, RB_RPTR holds where it stopped and a
 * doorbell runs nothing; a write pointer it cannot take fails it; a
 * Function Level Reset stops it
 */
#define V10_RLC_RING    0x180000ULL         /* 4 KiB */
#define V10_RLC_RPTR    0x181000ULL
#define V10_RLC_FENCE   0x181100ULL
#define V10_RLC_SRC     0x182000ULL
#define V10_RLC_DST     0x183000ULL
#define V10_RLC_DB      0x1804              /* BAR2 dword */

static uint32_t v10_rlc_reg(uint32_t off)
{
    return V10_SDMA0_GFX_RB_CNTL + V10_SDMA_QUEUE_RLC0 *
           V10_SDMA_QUEUE_STRIDE + off;
}

/* The MMHUB's apertures as the GFXHUB's (SDMA reaches memory through it) */
static void v10_mm_apertures(Fixture *f)
{
    v10_wr(f, V10_GFXHUB_AGP_BOT + V10_MMHUB_MC_DIST, V10_AGP >> 24);
    v10_wr(f, V10_GFXHUB_AGP_TOP + V10_MMHUB_MC_DIST, (V10_AGP >> 24) + 15);
    v10_wr(f, V10_GFXHUB_AGP_BASE + V10_MMHUB_MC_DIST, 0);
    v10_wr(f, V10_GFXHUB_SYSTEM_APERTURE_LOW + V10_MMHUB_MC_DIST,
           0xf400000000ULL >> 18);
    v10_wr(f, V10_GFXHUB_SYSTEM_APERTURE_HIGH + V10_MMHUB_MC_DIST,
           (V10_AGP + (256 << 20) - 1) >> 18);
}

/*
 * DISPATCH_DIRECT on a compute queue's PM4 ring (what kfdtest dispatches
 * through), migrated in the middle: the workgroup, which added 1 to a
 * counter and then spins, goes on where it was on the destination and
 * ends with its marker; the counter shows it did not start again (a
 * restarted dispatch would add twice).
 */
#define V10_PM4Q_RING   0x180000ULL
#define V10_PM4Q_RPTR   0x181000ULL
#define V10_PM4Q_CODE   0x182000ULL
#define V10_PM4Q_BUF    0x183000ULL
static void v10_pm4q_sh(Fixture *f, uint32_t *w, uint32_t reg,
                        const uint32_t *val, uint32_t n)
{
    qtest_writel(f->qts, V10_PM4Q_RING + 4 * (*w)++,
                 HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_SH_REG, n + 2));
    qtest_writel(f->qts, V10_PM4Q_RING + 4 * (*w)++,
                 reg - HSAGPU_PM4_SH_REG_START);
    for (uint32_t i = 0; i < n; i++) {
        qtest_writel(f->qts, V10_PM4Q_RING + 4 * (*w)++, val[i]);
    }
}

/*
 * A workgroup that counts once, then spins: llvm-mc -mcpu=gfx900 of
 * v_mov_b32 v0, s0; v_mov_b32 v1, s1; flat_load_dword v2, v[0:1];
 * s_waitcnt; v_add_u32 v2, 1, v2; flat_store_dword v[0:1], v2;
 * s_waitcnt; s_mov_b32 s4, @loops; loop: s_sub_u32 s4, s4, 1;
 * s_cmp_lg_u32 s4, 0; s_cbranch_scc1 loop; v_mov_b32 v3, 0x600d;
 * flat_store_dword v[0:1], v3 offset:4; s_waitcnt; s_endpgm. s[0:1]
 * address the two words: a workgroup run twice counts 2.
 */
#define V10_COUNT_DW    20

static void v10_count_code(uint32_t *code, uint32_t loops)
{
    static const uint32_t c[V10_COUNT_DW] = {
        0x7e000200, 0x7e020201, 0xdc500000, 0x02000000, 0xbf8c0070,
        0x68040481, 0xdc700000, 0x00000200, 0xbf8c0070, 0xbe8400ff,
        0, 0x80848104, 0xbf078004, 0xbf85fffd, 0x7e0602ff,
        0x0000600d, 0xdc700004, 0x00000300, 0xbf8c0070, 0xbf810000,
    };

    memcpy(code, c, sizeof(c));
    code[10] = loops;                   /* the s_mov_b32's literal */
}

/*
 * CWSR: an AQL queue dequeued mid-dispatch with amdkfd's SAVE_WAVES
 * (CP_HQD_DEQUEUE_REQUEST 3, its eviction with CWSR on) keeps its
 * dispatch in its context save area, and the CP_HQD_WG_STATE_OFFSET
 * written back to its MQD says so; loaded again, the dispatch goes on
 * where it was: its one workgroup, which counted once before the
 * dequeue, ends having counted once. Without the save the dispatch ran
 * again from its start and counted twice (a kernel that is not
 * idempotent gave a wrong result after every eviction and every runlist
 * change). RESET_WAVES (2) saves nothing.
 */
#define V10_CWSR_KD     0x173000ULL         /* the descriptor; code +256 */
#define V10_CWSR_BUF    0x174000ULL         /* the kernarg: the counters */
#define V10_CWSR_MQD    0x175000ULL
#define V10_CWSR_AREA   0x180000ULL
#define V10_CWSR_STACK  0x1000
#define V10_CWSR_SIZE   0x80000
#define V10_MQD_WG_STATE (V10_CWSR_MQD + (V10_MQD_HQD_DW + \
                          V10_CP_HQD_WG_STATE_OFFSET - V10_HQD_FIRST) * 4)

static void v10_cwsr_dispatch(Fixture *f, uint64_t id)
{
    struct hsagpu_kernel_dispatch_packet k;

    qtest_writel(f->qts, V10_CWSR_BUF, 0);
    qtest_writel(f->qts, V10_CWSR_BUF + 4, 0);
    qtest_writeq(f->qts, V10_AQL_SIG + 8, 1);
    fill_packet(&k, 64, 64, V10_AGP + V10_AQL_SIG);
    k.kernel_object = V10_AGP + V10_CWSR_KD;
    k.kernarg_address = V10_AGP + V10_CWSR_BUF;
    qtest_memwrite(f->qts, V10_AQL_RING + 64 * id + 2, (uint8_t *)&k + 2,
                   sizeof(k) - 2);
    qtest_writew(f->qts, V10_AQL_RING + 64 * id, k.header);
    qtest_writeq(f->qts, V10_AQL_DESC + 8, id + 1);
    qtest_writeq(f->qts, DB_BASE + 0x30 * 4, id + 1);
}

static void test_v10_aql_cwsr(void)
{
    uint32_t code[V10_COUNT_DW], kd[16] = { 0 };
    uint32_t wg;
    Fixture f;

    /* 256 bytes to the code; rsrc1 as above, 2 user SGPRs: the kernarg */
    kd[4] = 0x100;
    kd[12] = 0x000f0000;
    kd[13] = 2 << 1;
    kd[14] = 1 << 3;
    v10_fixture(&f, ",vram-size=64M");
    v10_doorbells(&f);
    v10_kernel_apertures(&f);
    qtest_memwrite(f.qts, V10_CWSR_KD, kd, sizeof(kd));
    v10_count_code(code, 1 << 22);     /* s[0:1]: the kernarg pointer */
    qtest_memwrite(f.qts, V10_CWSR_KD + 0x100, code, sizeof(code));
    qtest_writeq(f.qts, V10_AQL_SIG, 1);                /* kind: user */
    v10_aql_hqd_regs(&f);
    /* as amdkfd's init_mqd with CWSR, and hqd_load from that MQD */
    v10_wr(&f, V10_CP_MQD_BASE_ADDR, (uint32_t)(V10_AGP + V10_CWSR_MQD));
    v10_wr(&f, V10_CP_MQD_BASE_ADDR + 1, (V10_AGP + V10_CWSR_MQD) >> 32);
    v10_wr(&f, V10_CP_HQD_CTX_SAVE_BASE_ADDR,
           (uint32_t)(V10_AGP + V10_CWSR_AREA));
    v10_wr(&f, V10_CP_HQD_CTX_SAVE_BASE_ADDR + 1,
           (V10_AGP + V10_CWSR_AREA) >> 32);
    v10_wr(&f, V10_CP_HQD_CNTL_STACK_SIZE, V10_CWSR_STACK);
    v10_wr(&f, V10_CP_HQD_WG_STATE_OFFSET, V10_CWSR_STACK);
    v10_wr(&f, V10_CP_HQD_CTX_SAVE_SIZE, V10_CWSR_SIZE);
    v10_wr(&f, V10_CP_HQD_ACTIVE, 1);

    /* the workgroup has counted and spins: the queue is evicted */
    v10_cwsr_dispatch(&f, 0);
    g_assert_true(v10_wait_mem(&f, V10_CWSR_BUF, 1));
    v10_wr(&f, V10_CP_HQD_DEQUEUE_REQUEST, 3);
    g_assert_cmphex(v10_rd(&f, V10_CP_HQD_ACTIVE) & 1, ==, 0);
    wg = v10_rd(&f, V10_CP_HQD_WG_STATE_OFFSET);
    g_assert_cmphex(wg, >, V10_CWSR_STACK);
    g_assert_cmphex(wg, <=, V10_CWSR_SIZE);
    g_assert_cmphex(qtest_readl(f.qts, V10_MQD_WG_STATE), ==, wg);
    g_assert_cmphex(qtest_readl(f.qts, V10_CWSR_AREA + V10_CWSR_STACK), ==,
                    HSAGPU_CTX_MAGIC);
    g_usleep(50 * 1000);
    g_assert_cmpuint(qtest_readq(f.qts, V10_AQL_DESC), ==, 0);
    g_assert_cmphex(qtest_readl(f.qts, V10_CWSR_BUF + 4), ==, 0);

    /* restored: it goes on, and the area is empty again */
    v10_wr(&f, V10_CP_HQD_ACTIVE, 1);
    g_assert_cmphex(v10_rd(&f, V10_CP_HQD_WG_STATE_OFFSET), ==,
                    V10_CWSR_STACK);
    g_assert_cmphex(qtest_readl(f.qts, V10_MQD_WG_STATE), ==, V10_CWSR_STACK);
    for (int i = 0; i < 120000 &&
         qtest_readl(f.qts, V10_CWSR_BUF + 4) != 0x600d; i++) {
        g_usleep(1000);
    }
    g_assert_cmphex(qtest_readl(f.qts, V10_CWSR_BUF + 4), ==, 0x600d);
    g_assert_cmpuint(qtest_readl(f.qts, V10_CWSR_BUF), ==, 1);
    g_assert_true(v10_wait_mem(&f, V10_AQL_DESC, 1));
    g_assert_true(v10_wait_mem(&f, V10_AQL_SIG + 8, 0));

    /* RESET_WAVES (amdkfd destroying the queue): nothing is saved */
    v10_cwsr_dispatch(&f, 1);
    g_assert_true(v10_wait_mem(&f, V10_CWSR_BUF, 1));
    v10_wr(&f, V10_CP_HQD_DEQUEUE_REQUEST, 2);
    g_assert_cmphex(v10_rd(&f, V10_CP_HQD_ACTIVE) & 1, ==, 0);
    g_assert_cmphex(v10_rd(&f, V10_CP_HQD_WG_STATE_OFFSET), ==,
                    V10_CWSR_STACK);
    g_assert_cmphex(qtest_readl(f.qts, V10_MQD_WG_STATE), ==, V10_CWSR_STACK);
    fixture_fini(&f);
}

static void test_v10_pm4_dispatch_migrate(void)
{
    uint32_t code[V10_COUNT_DW];
    const uint32_t pgm[2] = { (uint32_t)((V10_AGP + V10_PM4Q_CODE) >> 8),
                              (uint32_t)((V10_AGP + V10_PM4Q_CODE) >> 40) };
    const uint32_t rsrc[2] = { 0x000f0000, 2 << 1 };
    const uint32_t nthr[3] = { 1, 1, 1 };
    const uint32_t user[2] = { (uint32_t)(V10_AGP + V10_PM4Q_BUF),
                               (uint32_t)((V10_AGP + V10_PM4Q_BUF) >> 32) };
    g_autofree char *path = g_strdup_printf("%s/hsagpu-v10-pm4q-%d",
                                            g_get_tmp_dir(), getpid());
    uint32_t w = 0;
    Fixture f;

    v10_fixture(&f, ",vram-size=64M");
    v10_doorbells(&f);
    v10_kernel_apertures(&f);
    v10_count_code(code, 1 << 25);
    qtest_memwrite(f.qts, V10_PM4Q_CODE, code, sizeof(code));
    qtest_writel(f.qts, V10_PM4Q_BUF, 0);
    qtest_writel(f.qts, V10_PM4Q_BUF + 4, 0);
    /* ME1 pipe 0 queue 1: a PM4 ring (AQL_CONTROL 0), VMID 0 */
    v10_wr(&f, V10_GRBM_GFX_CNTL, 1 << 2 | 1 << 8);
    v10_wr(&f, V10_CP_HQD_PQ_BASE, (V10_AGP + V10_PM4Q_RING) >> 8);
    v10_wr(&f, V10_CP_HQD_PQ_BASE + 1, (V10_AGP + V10_PM4Q_RING) >> 40);
    v10_wr(&f, V10_CP_HQD_PQ_CONTROL, 9);
    v10_wr(&f, V10_CP_HQD_PQ_RPTR_REPORT_ADDR,
           (uint32_t)(V10_AGP + V10_PM4Q_RPTR));
    v10_wr(&f, V10_CP_HQD_PQ_RPTR_REPORT_ADDR + 1,
           (V10_AGP + V10_PM4Q_RPTR) >> 32);
    v10_wr(&f, V10_CP_HQD_PQ_DOORBELL_CONTROL, 0x31 << 2 | V10_DOORBELL_EN);
    v10_wr(&f, V10_CP_HQD_VMID, 0);
    v10_wr(&f, V10_CP_HQD_AQL_CONTROL, 0);
    v10_wr(&f, V10_CP_HQD_ACTIVE, 1);
    v10_wr(&f, V10_GRBM_GFX_CNTL, 0);

    v10_pm4q_sh(&f, &w, V10_COMPUTE_PGM_LO, pgm, 2);
    v10_pm4q_sh(&f, &w, V10_COMPUTE_PGM_RSRC1, rsrc, 2);
    v10_pm4q_sh(&f, &w, V10_COMPUTE_NUM_THREAD_X, nthr, 3);
    v10_pm4q_sh(&f, &w, V10_COMPUTE_USER_DATA_0, user, 2);
    qtest_writel(f.qts, V10_PM4Q_RING + 4 * w++,
                 HSAGPU_PM4_HDR(HSAGPU_PM4_OP_DISPATCH_DIRECT, 5));
    qtest_writel(f.qts, V10_PM4Q_RING + 4 * w++, 1);
    qtest_writel(f.qts, V10_PM4Q_RING + 4 * w++, 1);
    qtest_writel(f.qts, V10_PM4Q_RING + 4 * w++, 1);
    qtest_writel(f.qts, V10_PM4Q_RING + 4 * w++, HSAGPU_PM4_DI_ENABLE);
    qtest_writeq(f.qts, DB_BASE + 0x31 * 4, w);

    /* the workgroup has added its 1 and spins: migrate it */
    g_assert_true(v10_wait_mem(&f, V10_PM4Q_BUF, 1));
    g_assert_cmphex(qtest_readl(f.qts, V10_PM4Q_BUF + 4), ==, 0);
    v10_migrate_through_file(&f, path);
    /* the destination waits paused, as the source stopped */
    qtest_qmp_assert_success(f.qts, "{ 'execute': 'cont' }");
    for (int i = 0; i < 120000 &&
         qtest_readl(f.qts, V10_PM4Q_BUF + 4) != 0x600d; i++) {
        g_usleep(1000);
    }
    g_assert_cmphex(qtest_readl(f.qts, V10_PM4Q_BUF + 4), ==, 0x600d);
    g_assert_cmpuint(qtest_readl(f.qts, V10_PM4Q_BUF), ==, 1);
    g_assert_true(v10_wait_mem(&f, V10_PM4Q_RPTR, w));
    fixture_fini(&f);
}

static void test_v10_sdma_rlc(void)
{
    g_autofree char *path = g_strdup_printf("%s/hsagpu-v10-rlc-%d",
                                            g_get_tmp_dir(), getpid());
    uint32_t cntl = 10 << 1 | 1 << 12 | 6 << 16;    /* 1024 dwords */
    uint64_t ring = V10_AGP + V10_RLC_RING;
    uint32_t w = 0, dw0;
    Fixture f;

#define RING(v) qtest_writel(f.qts, V10_RLC_RING + 4 * (w++ % 1024), (v))
#define FENCE(seq) do { \
        RING(HSAGPU_SDMA_OP_FENCE); \
        RING((uint32_t)(V10_AGP + V10_RLC_FENCE)); \
        RING((V10_AGP + V10_RLC_FENCE) >> 32); \
        RING(seq); \
    } while (0)
    v10_fixture(&f, ",vram-size=64M");
    v10_doorbells(&f);
    v10_ih_start(&f);
    v10_kernel_apertures(&f);
    v10_mm_apertures(&f);
    v10_wr(&f, V10_SDMA0_F32_CNTL, 0);

    /* kgd_hqd_sdma_load */
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_CNTL), cntl);
    g_assert_cmphex(v10_rd(&f, v10_rlc_reg(V10_SDMA_CONTEXT_STATUS)) &
                    V10_SDMA_CONTEXT_STATUS_IDLE, ==,
                    V10_SDMA_CONTEXT_STATUS_IDLE);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_DOORBELL_OFFSET), V10_RLC_DB << 2);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_DOORBELL), V10_SDMA_DOORBELL_ENABLE);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_RPTR), 0);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_RPTR + 1), 0);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_MINOR_PTR_UPDATE), 1);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_WPTR), 0);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_WPTR + 1), 0);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_MINOR_PTR_UPDATE), 0);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_BASE), ring >> 8);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_BASE + 1), ring >> 40);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_RPTR_ADDR_LO),
           (uint32_t)(V10_AGP + V10_RLC_RPTR));
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_RPTR_ADDR_HI),
           (V10_AGP + V10_RLC_RPTR) >> 32);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_CNTL), cntl | 1);

    /* ROCr's copy, fence and trap; the doorbell's value is the wptr */
    for (int i = 0; i < 256; i++) {
        qtest_writeb(f.qts, V10_RLC_SRC + i, i ^ 0x5a);
    }
    RING(HSAGPU_SDMA_OP_COPY);
    RING(255);
    RING(0);
    RING((uint32_t)(V10_AGP + V10_RLC_SRC));
    RING((V10_AGP + V10_RLC_SRC) >> 32);
    RING((uint32_t)(V10_AGP + V10_RLC_DST));
    RING((V10_AGP + V10_RLC_DST) >> 32);
    FENCE(1);
    RING(HSAGPU_SDMA_OP_TRAP);
    RING(0x99);
    qtest_writeq(f.qts, DB_BASE + V10_RLC_DB * 4, 4 * w);
    g_assert_true(v10_wait_mem(&f, V10_RLC_FENCE, 1));
    g_assert_cmphex(qtest_readl(f.qts, V10_RLC_DST + 0x80), ==,
                    qtest_readl(f.qts, V10_RLC_SRC + 0x80));
    g_assert_true(v10_wait_mem(&f, V10_RLC_RPTR, 4 * w));
    g_assert_cmpuint(v10_rd(&f, v10_rlc_reg(V10_SDMA_RB_RPTR)), ==, 4 * w);
    g_assert_cmpuint(v10_rd(&f, v10_rlc_reg(V10_SDMA_RB_WPTR)), ==, 4 * w);
    g_assert_cmphex(v10_rd(&f, v10_rlc_reg(V10_SDMA_CONTEXT_STATUS)) &
                    V10_SDMA_CONTEXT_STATUS_IDLE, ==, 0);
    g_assert_true(v10_wait_mem(&f, V10_IH_WPTR, 32));
    dw0 = qtest_readl(f.qts, V10_IH_RING);
    g_assert_cmphex(dw0 & 0xff, ==, 0x08);          /* SDMA0 */
    g_assert_cmpuint((dw0 >> 8) & 0xff, ==, 224);   /* trap */
    g_assert_cmpuint((dw0 >> 16) & 0xff, ==, 2);    /* an RLC queue's */
    g_assert_cmphex(qtest_readl(f.qts, V10_IH_RING + 16), ==, 0x99);

    /* migrated while it runs: it goes on where it was */
    v10_migrate_through_file(&f, path);
    /* the source was stopped for the file: so is the destination */
    qtest_qmp_assert_success(f.qts, "{ 'execute': 'cont' }");
    FENCE(2);
    qtest_writeq(f.qts, DB_BASE + V10_RLC_DB * 4, 4 * w);
    g_assert_true(v10_wait_mem(&f, V10_RLC_FENCE, 2));
    g_assert_true(v10_wait_mem(&f, V10_RLC_RPTR, 4 * w));

    /* kgd_hqd_sdma_destroy: RB_RPTR keeps where it stopped */
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_CNTL), cntl);
    g_assert_cmphex(v10_rd(&f, v10_rlc_reg(V10_SDMA_CONTEXT_STATUS)) &
                    V10_SDMA_CONTEXT_STATUS_IDLE, ==,
                    V10_SDMA_CONTEXT_STATUS_IDLE);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_DOORBELL), 0);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_CNTL), cntl | 1);
    g_assert_cmpuint(v10_rd(&f, v10_rlc_reg(V10_SDMA_RB_RPTR)), ==, 4 * w);
    FENCE(3);
    qtest_writeq(f.qts, DB_BASE + V10_RLC_DB * 4, 4 * w);
    g_usleep(50 * 1000);
    g_assert_cmpuint(qtest_readl(f.qts, V10_RLC_FENCE), ==, 2);

    /* loaded again from there (amdkfd's restore): the fence waiting runs */
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_CNTL), cntl);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_DOORBELL), V10_SDMA_DOORBELL_ENABLE);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_WPTR), 4 * w);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_CNTL), cntl | 1);
    g_assert_true(v10_wait_mem(&f, V10_RLC_FENCE, 3));

    /* a write pointer that is no dword: the queue fails, nothing runs */
    FENCE(4);
    qtest_writeq(f.qts, DB_BASE + V10_RLC_DB * 4, 4 * w + 2);
    g_usleep(50 * 1000);
    g_assert_cmpuint(qtest_readl(f.qts, V10_RLC_FENCE), ==, 3);
    qtest_writeq(f.qts, DB_BASE + V10_RLC_DB * 4, 4 * w);
    g_usleep(50 * 1000);
    g_assert_cmpuint(qtest_readl(f.qts, V10_RLC_FENCE), ==, 3);
    /* a ring size past the largest: refused, not run */
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_CNTL), cntl | 40 << 1 | 1);
    qtest_writeq(f.qts, DB_BASE + V10_RLC_DB * 4, 4 * w);
    g_usleep(50 * 1000);
    g_assert_cmpuint(qtest_readl(f.qts, V10_RLC_FENCE), ==, 3);

    /* restarted, then a Function Level Reset: stopped, registers gone */
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_CNTL), cntl);
    v10_wr(&f, v10_rlc_reg(V10_SDMA_RB_CNTL), cntl | 1);
    g_assert_true(v10_wait_mem(&f, V10_RLC_FENCE, 4));
    qpci_config_writew(f.gpu, find_cap(&f, PCI_CAP_ID_EXP) + PCI_EXP_DEVCTL,
                       PCI_EXP_DEVCTL_BCR_FLR);
    setup_bridge_and_bars(&f);
    v10_doorbells(&f);
    g_assert_cmphex(v10_rd(&f, v10_rlc_reg(V10_SDMA_RB_CNTL)), ==, 0);
    FENCE(5);
    qtest_writeq(f.qts, DB_BASE + V10_RLC_DB * 4, 4 * w);
    g_usleep(50 * 1000);
    g_assert_cmpuint(qtest_readl(f.qts, V10_RLC_FENCE), ==, 4);
    fixture_fini(&f);
#undef FENCE
#undef RING
}

void hsagpu_qtest_add_vega10(void)
{
    qtest_add_func("/hsa-gpu/vega10/identity", test_v10_identity);
    qtest_add_func("/hsa-gpu/vega10/vbios", test_v10_vbios);
    qtest_add_func("/hsa-gpu/vega10/handshakes", test_v10_handshakes);
    qtest_add_func("/hsa-gpu/vega10/migration-reset",
                   test_v10_migration_reset);
    qtest_add_func("/hsa-gpu/vega10/gfx-ring", test_v10_gfx_ring);
    qtest_add_func("/hsa-gpu/vega10/ih", test_v10_ih);
    qtest_add_func("/hsa-gpu/vega10/gart-in-system-memory",
                   test_v10_gart_in_system_memory);
    qtest_add_func("/hsa-gpu/vega10/migrate-dirty-vram",
                   test_v10_migrate_dirty_vram);
    qtest_add_func("/hsa-gpu/vega10/aql-hqd", test_v10_aql_hqd);
    qtest_add_func("/hsa-gpu/vega10/sdma-rlc", test_v10_sdma_rlc);
    qtest_add_func("/hsa-gpu/vega10/aql-cwsr", test_v10_aql_cwsr);
    qtest_add_func("/hsa-gpu/vega10/pm4-dispatch-migrate",
                   test_v10_pm4_dispatch_migrate);
}
