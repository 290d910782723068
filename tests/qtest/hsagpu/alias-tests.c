/*
 * hsa-gpu qtest: The cached read alias (BAR4) and its dirty-line
 * directory.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "hsagpu-qtest.h"

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
        case 0:
            qtest_writeb(f.qts, a, v);
            break;
        case 1:
            qtest_writew(f.qts, a, v);
            break;
        case 2:
            qtest_writel(f.qts, a, v);
            break;
        case 3:
            qtest_writeq(f.qts, a, v);
            break;
        case 4:
            qtest_readb(f.qts, a);
            break;
        case 5:
            qtest_readw(f.qts, a);
            break;
        case 6:
            qtest_readl(f.qts, a);
            break;
        default:
            qtest_readq(f.qts, a);
            break;
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

void hsagpu_qtest_add_alias(void)
{
    qtest_add_func("/hsa-gpu/read-alias/directory", test_read_alias);
    qtest_add_func("/hsa-gpu/read-alias/props", test_read_alias_props);
    qtest_add_func("/hsa-gpu/read-alias/sdma", test_read_alias_sdma);
    qtest_add_func("/hsa-gpu/read-alias/migration", test_read_alias_migration);
}
