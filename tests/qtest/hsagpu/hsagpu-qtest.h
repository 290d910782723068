/*
 * hsa-gpu qtest: the fixtures and helpers the areas share (the bridge,
 * BAR and queue set-up, packets, migration, shared guest RAM, MSI-X,
 * GPU page tables, SDMA rings), and one registration function per
 * area file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HSAGPU_QTEST_H
#define HSAGPU_QTEST_H

#include "qemu/osdep.h"
#include <sys/resource.h>
#include "libqtest.h"
#include "libqos/pci-pc.h"
#include "qobject/qdict.h"
#include "qobject/qjson.h"
#include "qapi/error.h"
#include "qemu/bswap.h"
#include "hw/pci/pci_regs.h"
#include "hsagpu/hsagpu_regs.h"
#include "hsagpu/hsagpu_aql.h"
#include "hsagpu/hsagpu_sdma.h"

/* Fixtures, registers and config space */
#define RP_DEVFN        QPCI_DEVFN(4, 0)
#define GPU_BUS         1
#define ECAM_BASE       0xb0000000ULL
#define MMIO_BASE       0xe0000000U     /* BAR5 */
#define WINDOW_BASE     0xe0000000U
#define WINDOW_LIMIT    0xe01fffffU

typedef struct Fixture {
    QTestState *qts;
    QPCIBus *bus;
    QPCIDevice *rp;
    QPCIDevice *gpu;
} Fixture;


/* AQL queues */
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
#define BIG_ITEMS       (1U << 23)
#define BIG_COUNTER     (Q_BUF + 0x8000)

/* Peer to peer: one bus resolver for DMA and AtomicOps */
#define SW_UP_BUS       2
#define SW_DN0_BUS      3
#define SW_DN1_BUS      4
#define PEER_VRAM       0x100000000ULL  /* gpu1's BAR0: 2^32 */
#define PEER_COUNTER    (PEER_VRAM + 0x100)

/* Reliability: locking (review of the device, findings 1 and 2) */

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

/* Reliability: migration and loads (findings 4 and 9) */
#define MSI_ADDR        0x160000ULL
#define MSI_DATA        0x4e5

/* Fault injection and Function Level Reset */
#define GPU_PATH        "/machine/peripheral/gpu0"
#define Q_MSI           0x150000ULL     /* MSI-X messages land here */
#define FAULT_MSI_DATA(v)     (0x4100 + (v))

/* GPU virtual memory (docs/vm.md) */

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
#define VA_VRAM         (VA_BUF + 0x2000)   /* VRAM offset 0x1000 */
#define VA_HOLE         (VA_BUF + 0x3000)   /* not mapped */
#define VM_VMID         5
#define PTE_RW          (HSAGPU_PTE_VALID | HSAGPU_PTE_READABLE | \
                         HSAGPU_PTE_WRITEABLE)

/* SDMA rings (HSAGPU_QF_SDMA) */
#define S_RING          0x10c000ULL     /* up to 16 KiB, 256 B aligned */
#define S_PTRS          0x111800ULL     /* rptr, then wptr (u64 each) */

typedef struct SdmaRing {
    Fixture *f;
    unsigned q;
    uint32_t size;              /* bytes */
    uint64_t wp;                /* write pointer, bytes */
} SdmaRing;

#define SDMA_PUT(r, ...) do { \
    const uint32_t p_[] = { __VA_ARGS__ }; \
    sdma_put(r, p_, ARRAY_SIZE(p_)); \
} while (0)

/* ROCr 5.2.3's CopyAligned blit kernel, found in its library */
#define ROCR_LIB        "/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1"
#define BLIT_ALIGNED_LEN 496
#define BLIT_ALIGNED_FNV 0xc9ed7ddde0f282c7ULL
#define BLIT_CODE       (Q_KARG + 0x1000)   /* identity-mapped page */

/* Helpers */
/* Fixtures, registers and config space */
void setup_bridge_and_bars(Fixture *f);
void fixture_init_machine(Fixture *f, const char *machine,
                          const char *rp, const char *extra);
void fixture_init_rp(Fixture *f, const char *rp, const char *extra);
void fixture_init(Fixture *f, const char *extra);
void fixture_fini(Fixture *f);
uint32_t reg_read(Fixture *f, uint32_t off);
void reg_write(Fixture *f, uint32_t off, uint32_t val);
uint32_t ecam_readl(Fixture *f, uint16_t off);
uint64_t bar_size(Fixture *f, int bar, uint32_t *flags);
uint8_t find_cap(Fixture *f, uint8_t id);

/* AQL queues */
void queue_fixture_machine(Fixture *f, const char *machine,
                           const char *props);
void queue_fixture_props(Fixture *f, const char *props);
extern const char *queue_props;
void queue_fixture(Fixture *f);
void qreg_write(Fixture *f, unsigned q, uint32_t reg, uint32_t val);
uint32_t qreg_read(Fixture *f, unsigned q, uint32_t reg);
uint32_t queue_create_vec(Fixture *f, unsigned q, uint32_t flags,
                          unsigned vec);
uint32_t queue_create(Fixture *f, unsigned q, uint32_t flags);
uint64_t queue_submit(Fixture *f, unsigned q, const void *pkt);
void signal_init(Fixture *f, uint64_t sig, int64_t value);
bool wait_u64(Fixture *f, uint64_t addr, uint64_t want);
bool wait_qstate(Fixture *f, unsigned q, uint32_t state);
void fill_packet(struct hsagpu_kernel_dispatch_packet *k,
                 uint32_t grid, uint16_t wg, uint64_t sig);
bool wait_u64_long(Fixture *f, uint64_t addr, uint64_t want);
void agent_packet(struct hsagpu_agent_dispatch_packet *a,
                  uint16_t type, uint64_t ret, uint64_t sig);
void submit_big(Fixture *f, uint64_t sig);
void dma_packet(struct hsagpu_dma_packet *d, uint8_t op, uint64_t dst,
                uint64_t src, uint64_t size, uint64_t sig);

/* Peer to peer: one bus resolver for DMA and AtomicOps */
void bridge_setup(QPCIDevice *d, uint8_t pri, uint8_t sec, uint8_t sub,
                  uint64_t pref_base, uint64_t pref_limit);
void p2p_fixture(Fixture *f, unsigned bits);
void nop_pass(Fixture *f, uint64_t sig);
void queue_cmd(Fixture *f, unsigned q, uint32_t cmd, uint32_t want);

/* Migration */
char *migrate_status(QTestState *qts);
char *migrate_wait(QTestState *qts);
void migrate_to_file(Fixture *f, const char *path);
char *migrate_from_file_opts(Fixture *f, const char *path,
                             const char *extra);
char *migrate_from_file(Fixture *f, const char *path);

/* Reliability: locking (review of the device, findings 1 and 2) */
void shared_ram_init(SharedRam *r);
void shared_ram_map(SharedRam *r);
void shared_ram_fini(SharedRam *r);
uint64_t *shm_u64(SharedRam *r, uint64_t addr);
bool shm_wait(SharedRam *r, uint64_t addr, uint64_t want);
int hold_bql(Fixture *f, SharedRam *r);
void release_bql(Fixture *f, int fd);
void barrier_packet(struct hsagpu_barrier_packet *b, uint64_t dep);
void submit_nop_irq(Fixture *f, unsigned q, uint64_t sig);

/* Reliability: how long the processor keeps the queue lock (finding 3) */
uint64_t qom_get_uint(Fixture *f, const char *prop);

/* Reliability: migration and loads (findings 4 and 9) */
void msix_to_ram(Fixture *f, unsigned vec);

/* Reliability: realize (finding 10) */
void device_add_gpu1(QTestState *qts, const char *props,
                     const char *want_error);

/* The main-loop processor (x-processor=mainloop) */
void run_mainloop(const void *data);

/* Fault injection and Function Level Reset */
void qom_set_int(Fixture *f, const char *prop, int64_t val);
int64_t qom_get_int(Fixture *f, const char *prop);
void msix_setup(Fixture *f);
uint32_t msi_seen(Fixture *f, unsigned v);
void expect_qerr(Fixture *f, unsigned q, unsigned err);
void gpu_reprogram(Fixture *f);

/* GPU virtual memory (docs/vm.md) */
void pte_set(Fixture *f, uint64_t table, unsigned idx, uint64_t e);
void vm_tables(Fixture *f);
void vm_ctx(Fixture *f, unsigned v, uint64_t root, uint32_t cntl);
void qxreg_write(Fixture *f, unsigned q, uint32_t reg, uint32_t val);
uint32_t qxreg_read(Fixture *f, unsigned q, uint32_t reg);

/* SDMA rings (HSAGPU_QF_SDMA) */
uint32_t sdma_create(SdmaRing *r, Fixture *f, unsigned q,
                     uint32_t size, uint64_t rptr0);
void sdma_put(SdmaRing *r, const uint32_t *dw, unsigned n);
void sdma_kick(SdmaRing *r);
void sdma_copy(SdmaRing *r, uint64_t dst, uint64_t src, uint32_t n);
void sdma_fill(SdmaRing *r, uint64_t dst, uint32_t v, uint32_t ndw);
void sdma_fence(SdmaRing *r, uint64_t addr, uint32_t v);
void sdma_atomic_dec(SdmaRing *r, uint64_t addr);

/* CopyAligned's code from ROCR_LIB; false without the library */
bool rocr_copy_aligned(uint8_t code[BLIT_ALIGNED_LEN]);

void hsagpu_qtest_add_regs(void);
void hsagpu_qtest_add_queue(void);
void hsagpu_qtest_add_p2p(void);
void hsagpu_qtest_add_migration(void);
void hsagpu_qtest_add_gcn(void);
void hsagpu_qtest_add_reliability(void);
void hsagpu_qtest_add_mainloop(void);
void hsagpu_qtest_add_fault(void);
void hsagpu_qtest_add_vm(void);
void hsagpu_qtest_add_sdma(void);
void hsagpu_qtest_add_alias(void);
void hsagpu_qtest_add_vega10(void);

#endif
