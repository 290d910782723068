/*
 * hsa-gpu qtest: fixtures and helpers shared by the area files
 * (hsagpu-qtest.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "hsagpu-qtest.h"

void setup_bridge_and_bars(Fixture *f)
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
void fixture_init_machine(Fixture *f, const char *machine,
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

void fixture_init_rp(Fixture *f, const char *rp, const char *extra)
{
    fixture_init_machine(f, "", rp, extra);
}

void fixture_init(Fixture *f, const char *extra)
{
    fixture_init_rp(f, "", extra);
}

void fixture_fini(Fixture *f)
{
    g_free(f->gpu);
    g_free(f->rp);
    qpci_free_pc(f->bus);
    qtest_quit(f->qts);
}

uint32_t reg_read(Fixture *f, uint32_t off)
{
    return qtest_readl(f->qts, MMIO_BASE + off);
}

void reg_write(Fixture *f, uint32_t off, uint32_t val)
{
    qtest_writel(f->qts, MMIO_BASE + off, val);
}

uint32_t ecam_readl(Fixture *f, uint16_t off)
{
    return qtest_readl(f->qts, ECAM_BASE + ((uint64_t)GPU_BUS << 20) + off);
}

/* Size a memory BAR (or a 64-bit BAR pair) by the all-ones method. */
uint64_t bar_size(Fixture *f, int bar, uint32_t *flags)
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

uint8_t find_cap(Fixture *f, uint8_t id)
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

void queue_fixture_machine(Fixture *f, const char *machine,
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

void queue_fixture_props(Fixture *f, const char *props)
{
    queue_fixture_machine(f, "", props);
}

/* Device properties of queue_fixture(): the mainloop variants set them. */
const char *queue_props = "";

void queue_fixture(Fixture *f)
{
    queue_fixture_props(f, queue_props);
}

void qreg_write(Fixture *f, unsigned q, uint32_t reg, uint32_t val)
{
    reg_write(f, HSAGPU_REG_QUEUE(q) + reg, val);
}

uint32_t qreg_read(Fixture *f, unsigned q, uint32_t reg)
{
    return reg_read(f, HSAGPU_REG_QUEUE(q) + reg);
}

/* Register queue @q with its ring, descriptor, doorbell @q, vector @vec. */
uint32_t queue_create_vec(Fixture *f, unsigned q, uint32_t flags,
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

uint32_t queue_create(Fixture *f, unsigned q, uint32_t flags)
{
    return queue_create_vec(f, q, flags, 1);
}

/* Write a packet body at the write index, publish its header, ring. */
uint64_t queue_submit(Fixture *f, unsigned q, const void *pkt)
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

void signal_init(Fixture *f, uint64_t sig, int64_t value)
{
    uint8_t zero[64] = { 0 };

    qtest_memwrite(f->qts, sig, zero, sizeof(zero));
    qtest_writeq(f->qts, sig, HSAGPU_SIGNAL_KIND_USER);
    qtest_writeq(f->qts, sig + 8, value);
}

/* The processor runs in its own thread: poll for its result. */
bool wait_u64(Fixture *f, uint64_t addr, uint64_t want)
{
    for (int i = 0; i < 5000; i++) {
        if (qtest_readq(f->qts, addr) == want) {
            return true;
        }
        g_usleep(1000);
    }
    return false;
}

bool wait_qstate(Fixture *f, unsigned q, uint32_t state)
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

void fill_packet(struct hsagpu_kernel_dispatch_packet *k,
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

/* Wait for a long kernel: no bound on the host's speed, only a backstop. */
bool wait_u64_long(Fixture *f, uint64_t addr, uint64_t want)
{
    for (int i = 0; i < 120000; i++) {
        if (qtest_readq(f->qts, addr) == want) {
            return true;
        }
        g_usleep(1000);
    }
    return false;
}

void agent_packet(struct hsagpu_agent_dispatch_packet *a,
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

/* An ATOMIC_INC of BIG_ITEMS one-item workgroups on queue 0. */
void submit_big(Fixture *f, uint64_t sig)
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

void dma_packet(struct hsagpu_dma_packet *d, uint8_t op, uint64_t dst,
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

void bridge_setup(QPCIDevice *d, uint8_t pri, uint8_t sec, uint8_t sub,
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
void p2p_fixture(Fixture *f, unsigned bits)
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

/* A NOP on queue 1 that completed: the thread has made a pass since. */
void nop_pass(Fixture *f, uint64_t sig)
{
    struct hsagpu_agent_dispatch_packet a;

    signal_init(f, sig, 1);
    agent_packet(&a, HSAGPU_AGENT_NOP, 0, sig);
    queue_submit(f, 1, &a);
    g_assert_true(wait_u64(f, sig + 8, 0));
}

void queue_cmd(Fixture *f, unsigned q, uint32_t cmd, uint32_t want)
{
    qreg_write(f, q, HSAGPU_QREG_CMD, cmd);
    g_assert_cmpuint(qreg_read(f, q, HSAGPU_QREG_CMD), ==, want);
}

char *migrate_status(QTestState *qts)
{
    QDict *rsp = qtest_qmp_assert_success_ref(qts,
                                              "{ 'execute': 'query-migrate' }");
    char *st = g_strdup(qdict_haskey(rsp, "status") ?
                        qdict_get_str(rsp, "status") : "none");

    qobject_unref(rsp);
    return st;
}

/* Poll until the migration on @qts leaves the running states. */
char *migrate_wait(QTestState *qts)
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
void migrate_to_file(Fixture *f, const char *path)
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
char *migrate_from_file_opts(Fixture *f, const char *path,
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

char *migrate_from_file(Fixture *f, const char *path)
{
    return migrate_from_file_opts(f, path, "");
}

void shared_ram_init(SharedRam *r)
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

void shared_ram_map(SharedRam *r)
{
    int fd = open(r->ram, O_RDWR);

    g_assert_cmpint(fd, >=, 0);
    r->p = mmap(NULL, SHM_RAM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                0);
    g_assert_true(r->p != MAP_FAILED);
    close(fd);
}

void shared_ram_fini(SharedRam *r)
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

uint64_t *shm_u64(SharedRam *r, uint64_t addr)
{
    return (uint64_t *)(r->p + addr);
}

/* Poll guest RAM directly, with a backstop: QEMU's main loop is busy. */
bool shm_wait(SharedRam *r, uint64_t addr, uint64_t want)
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
int hold_bql(Fixture *f, SharedRam *r)
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

void release_bql(Fixture *f, int fd)
{
    char buf[65536];

    while (read(fd, buf, sizeof(buf)) > 0) {
        continue;
    }
    close(fd);
    qobject_unref(qtest_qmp_receive(f->qts));
}

void barrier_packet(struct hsagpu_barrier_packet *b, uint64_t dep)
{
    memset(b, 0, sizeof(*b));
    b->header = HSAGPU_PKT_TYPE_BARRIER_AND |
                HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_ACQUIRE_SHIFT |
                HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_RELEASE_SHIFT;
    b->dep_signal[0] = dep;
}

/* A NOP whose signal carries an event: the queue's interrupt fires. */
void submit_nop_irq(Fixture *f, unsigned q, uint64_t sig)
{
    struct hsagpu_agent_dispatch_packet a;

    signal_init(f, sig, 1);
    qtest_writeq(f->qts, sig + 16, Q_MBOX);
    qtest_writel(f->qts, sig + 24, 1);
    agent_packet(&a, HSAGPU_AGENT_NOP, 0, sig);
    queue_submit(f, q, &a);
}

uint64_t qom_get_uint(Fixture *f, const char *prop)
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

/* MSI-X on, vector @vec written to guest RAM at MSI_ADDR + 16 * @vec. */
void msix_to_ram(Fixture *f, unsigned vec)
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

void device_add_gpu1(QTestState *qts, const char *props,
                     const char *want_error)
{
    g_autofree char *args = g_strdup_printf("{ 'driver': 'hsa-gpu', "
                                            "'id': 'gpu1', 'bus': 'rp1' %s }",
                                            props);
    /* parsed here: a built string is no format for qtest_qmp() */
    QObject *obj = qobject_from_json(args, &error_abort);
    QDict *rsp = qtest_qmp(qts, "{ 'execute': 'device_add', "
                           "'arguments': %p }", obj);

    if (want_error) {
        QDict *err = qdict_get_qdict(rsp, "error");

        g_assert_nonnull(err);
        g_assert_nonnull(strstr(qdict_get_str(err, "desc"), want_error));
    } else {
        g_assert_false(qdict_haskey(rsp, "error"));
    }
    qobject_unref(rsp);
}

void run_mainloop(const void *data)
{
    void (*fn)(void) = data;

    queue_props = ",x-processor=mainloop";
    fn();
    queue_props = "";
}

void qom_set_int(Fixture *f, const char *prop, int64_t val)
{
    qtest_qmp_assert_success(f->qts, "{ 'execute': 'qom-set', 'arguments': "
                             "{ 'path': %s, 'property': %s, 'value': %"
                             PRId64 " } }", GPU_PATH, prop, val);
}

int64_t qom_get_int(Fixture *f, const char *prop)
{
    QDict *rsp = qtest_qmp(f->qts, "{ 'execute': 'qom-get', 'arguments': "
                           "{ 'path': %s, 'property': %s } }", GPU_PATH, prop);
    int64_t v;

    g_assert(qdict_haskey(rsp, "return"));
    v = qdict_get_int(rsp, "return");
    qobject_unref(rsp);
    return v;
}

/* MSI-X on, vectors 0 and 1 unmasked, each writing FAULT_MSI_DATA(v) to RAM. */
void msix_setup(Fixture *f)
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

uint32_t msi_seen(Fixture *f, unsigned v)
{
    return qtest_readl(f->qts, Q_MSI + 4 * v);
}

void expect_qerr(Fixture *f, unsigned q, unsigned err)
{
    g_assert_true(wait_qstate(f, q, HSAGPU_QSTATE_ERROR));
    g_assert_cmphex(qreg_read(f, q, HSAGPU_QREG_STATE), ==,
                    HSAGPU_QSTATE_ERROR | err << HSAGPU_QSTATE_ERR_SHIFT);
}

/* After a reset of the function: BARs, decoding, AtomicOp requests. */
void gpu_reprogram(Fixture *f)
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

void pte_set(Fixture *f, uint64_t table, unsigned idx, uint64_t e)
{
    qtest_writeq(f->qts, table + 8 * idx, e);
}

void vm_tables(Fixture *f)
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

void vm_ctx(Fixture *f, unsigned v, uint64_t root, uint32_t cntl)
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

void qxreg_write(Fixture *f, unsigned q, uint32_t reg, uint32_t val)
{
    reg_write(f, HSAGPU_REG_QUEUE_X(q) + reg, val);
}

uint32_t qxreg_read(Fixture *f, unsigned q, uint32_t reg)
{
    return reg_read(f, HSAGPU_REG_QUEUE_X(q) + reg);
}

/* Register queue @q as an SDMA ring of @size bytes, vector 1. */
uint32_t sdma_create(SdmaRing *r, Fixture *f, unsigned q,
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
void sdma_put(SdmaRing *r, const uint32_t *dw, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        qtest_writel(r->f->qts, S_RING + (r->wp & (r->size - 1)), dw[i]);
        r->wp += 4;
    }
}

/* Publish the write pointer in memory, then ring the doorbell with it. */
void sdma_kick(SdmaRing *r)
{
    qtest_writeq(r->f->qts, S_PTRS + 8, r->wp);
    qtest_writeq(r->f->qts, DB_BASE + 8 * r->q, r->wp);
}

void sdma_copy(SdmaRing *r, uint64_t dst, uint64_t src, uint32_t n)
{
    SDMA_PUT(r, HSAGPU_SDMA_HDR(HSAGPU_SDMA_OP_COPY,
                                HSAGPU_SDMA_SUBOP_COPY_LINEAR),
             n - 1, 0, (uint32_t)src, src >> 32, (uint32_t)dst, dst >> 32);
}

void sdma_fill(SdmaRing *r, uint64_t dst, uint32_t v, uint32_t ndw)
{
    SDMA_PUT(r, HSAGPU_SDMA_OP_CONST_FILL | HSAGPU_SDMA_FILL_DWORD << 30,
             (uint32_t)dst, dst >> 32, v, (ndw - 1) * 4);
}

void sdma_fence(SdmaRing *r, uint64_t addr, uint32_t v)
{
    SDMA_PUT(r, HSAGPU_SDMA_OP_FENCE, (uint32_t)addr, addr >> 32, v);
}

void sdma_atomic_dec(SdmaRing *r, uint64_t addr)
{
    SDMA_PUT(r, HSAGPU_SDMA_OP_ATOMIC | HSAGPU_SDMA_ATOMIC_ADD64 << 25,
             (uint32_t)addr, addr >> 32, 0xffffffff, 0xffffffff, 0, 0, 0);
}

bool rocr_copy_aligned(uint8_t code[BLIT_ALIGNED_LEN])
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
