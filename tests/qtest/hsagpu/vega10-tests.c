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

static void test_v10_migration_reset(void)
{
    g_autofree char *path = g_strdup_printf("%s/hsagpu-v10-mig-%d",
                                            g_get_tmp_dir(), getpid());
    g_autofree char *uri = g_strdup_printf("file:%s", path);
    g_autofree char *st = NULL;
    uint32_t pq = V10_CP_MQD_BASE_ADDR + 8;
    Fixture f;

    v10_fixture(&f, ",vram-size=64M");
    v10_wr(&f, V10_SCRATCH_REG0 + 3, 0x5ca1ab1e);
    v10_wr(&f, V10_GRBM_GFX_CNTL, 2 | 1 << 2 | 5 << 8);     /* ME1 P2 Q5 */
    v10_wr(&f, pq, 0x12345);
    v10_wr(&f, V10_GRBM_GFX_CNTL, 0);
    migrate_to_file(&f, path);
    g_free(f.gpu);
    g_free(f.rp);
    qpci_free_pc(f.bus);
    qtest_quit(f.qts);

    f.qts = qtest_initf("-M q35 -nic none -device pcie-root-port,id=rp0,"
                        "bus=pcie.0,chassis=1,addr=0x4 " V10_DEV
                        ",vram-size=64M -incoming defer");
    qtest_qmp_assert_success(f.qts, "{ 'execute': 'migrate-incoming', "
                             "'arguments': { 'uri': %s, "
                             "'exit-on-error': false } }", uri);
    st = migrate_wait(f.qts);
    g_assert_cmpstr(st, ==, "completed");
    unlink(path);
    f.bus = qpci_new_pc(f.qts, NULL);
    f.rp = qpci_device_find(f.bus, RP_DEVFN);
    f.gpu = qpci_device_find(f.bus, (GPU_BUS << 8) | QPCI_DEVFN(0, 0));
    g_assert(f.gpu);
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

void hsagpu_qtest_add_vega10(void)
{
    qtest_add_func("/hsa-gpu/vega10/identity", test_v10_identity);
    qtest_add_func("/hsa-gpu/vega10/vbios", test_v10_vbios);
    qtest_add_func("/hsa-gpu/vega10/handshakes", test_v10_handshakes);
    qtest_add_func("/hsa-gpu/vega10/migration-reset",
                   test_v10_migration_reset);
}
