/*
 * hsa-gpu: QEMU device state shared by the device's source files.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_H
#define HW_HSAGPU_H

#include "hw/pci/pci_device.h"
#include "qemu/event_notifier.h"
#include "qemu/thread.h"
#include "qemu/timer.h"
#include "qom/object.h"
#include "system/runstate.h"
#include "hw/hsagpu/cp/hsagpu-cp.h"
#include "hw/hsagpu/gcn/hsagpu-gcn.h"
#include "hw/hsagpu/core/hsagpu-bus.h"
#include "hw/hsagpu/core/hsagpu-vm.h"
#include "hw/hsagpu/core/hsagpu-link.h"
#include "hw/hsagpu/core/hsagpu-vram-dir.h"

#define TYPE_HSA_GPU "hsa-gpu"

/* BAR2 read-back keeps one doorbell per CPU page (a process's page). */
#define HSAGPU_DOORBELL_PAGE    4096U
#define HSAGPU_DOORBELL_PAGES \
    (HSAGPU_DOORBELL_BAR_SIZE / HSAGPU_DOORBELL_PAGE)

/*
 * Work of the processor that needs the BQL (hsagpu-ops.c records it
 * during a pass, hsagpu_ops_deliver() does it in the main loop).
 */
typedef struct HsaGpuDeferred {
    /*
     * MSI-X vectors to raise: one message per vector per delivery, into
     * which the raises since the last one merge (docs/registers.md,
     * PKT_IRQS). A vector raised after its message went out is a new one.
     */
    unsigned long *vectors;
    bool any_vector;
    uint32_t atomic_st;         /* first failed queue AtomicOp, if any */
    uint64_t atomic_addr;
    GPtrArray *unrefs;          /* peers (Object *) to unreference */
} HsaGpuDeferred;

/* A message of @vector is owed (qlock held if @d is s->pending). */
static inline void hsagpu_deferred_raise(HsaGpuDeferred *d, unsigned vector)
{
    set_bit(vector, d->vectors);
    d->any_vector = true;
}

/*
 * The device's QOM properties (hsagpu-pci.c validates them at realize),
 * apart from the state they configure, as QEMU's nvme keeps NvmeParams.
 */
typedef struct HsaGpuParams {
    uint64_t vram_size;
    uint32_t num_queues;
    uint32_t compute_units;
    bool io_bar;
    bool atomic_comp32;
    bool atomic_comp64;
    bool atomic_comp128;
    uint32_t p2p_addr_bits;
    bool dma_zero_copy;
    char *processor;            /* x-processor: auto, thread, mainloop */
    uint32_t pass_slices;       /* x-pass-slices: the budget of a pass */
    uint16_t vendor_id;
    uint16_t device_id;
    uint16_t subsys_vendor_id;
    uint16_t subsys_id;
    uint8_t revision;
    uint64_t serial;
    uint32_t max_payload;
    bool link_model;                    /* link timing model */
    PCIExpLinkSpeed link_speed;
    PCIExpLinkWidth link_width;
    uint32_t link_port_ns;
    uint32_t link_switch_ns;
    uint32_t link_host_ns;
    uint32_t link_host_write_ns;
    uint32_t link_read_tags;
    uint32_t link_efficiency;           /* per mille */
    uint64_t ralias_size;       /* read-alias-size, 0: none */
    uint64_t gcn_private_budget; /* gcn-private-budget: bytes */
    uint32_t compute_threads;   /* compute-threads, 0: auto (reads back) */
    bool ralias_prefetch;       /* read-alias-prefetchable */
} HsaGpuParams;

OBJECT_DECLARE_SIMPLE_TYPE(HsaGpuState, HSA_GPU)

/*
 * Fault injection (hsagpu-fault.c, docs/reliability.md): what the
 * inject-* properties armed. Counts are taken with qatomic by whichever
 * thread makes the access; not migrated, cleared by reset.
 */
typedef struct HsaGpuFault {
    uint32_t atomic_ur;         /* next N AtomicOps complete with UR */
    uint32_t atomic_ca;         /*  ... with CA */
    uint32_t dma_ur;            /* next N bus-master reads get UR */
    uint32_t dma_ca;            /*  ... CA */
    uint32_t dma_poison;        /*  ... poisoned data */
    uint32_t msix_drop;         /* next N MSI-X messages are lost */
    uint32_t msix_delay;        /* next N MSI-X messages are late */
    uint32_t msix_delay_ms;     /*  by this much virtual time */
    bool fatal;                 /* fatal internal error taken */
    uint32_t pending;           /* HSAGPU_FAULT_PEND_*: report under BQL */
    QEMUBH *bh;                 /* reports pending */
    QEMUTimer *msix_timer;      /* delivers late MSI-X messages */
    int64_t *msix_due;          /* per vector: when, or 0 */
    /*
     * What the queues do about inject-queue-hang and inject-fatal, wired
     * by hsagpu-pci.c: the fault layer calls no other file of the device
     * (everything that sends MSI-X calls it).
     */
    void (*queue_hold)(HsaGpuState *s, int qi);
    int (*queue_held)(HsaGpuState *s);
    void (*queues_fatal)(HsaGpuState *s);
    unsigned hang_ids;          /* inject-queue-hang: ids below this */
} HsaGpuFault;

/* x86 MSI messages to the local APICs: address 0xfeeXXXXX */
#define HSAGPU_APIC_MSI_BASE    0xfee00000ULL
/* compute-threads: as many as the most compute units */
#define HSAGPU_COMPUTE_THREADS_MAX      HSAGPU_COMPUTE_UNITS_MAX

#define HSAGPU_MAX_PORTS 16

/* (defined below; the personality's hooks take them) */
struct HsaGpuOpsCtx;
struct HsaGpuBusCtx;
struct HsaGpuPassResult;

/*
 * What the device presents to its driver (docs/vega10.md): the register
 * BAR and doorbells, interrupts, the expansion ROM, the reset values.
 * Behind any of them are the same engines (queues, VM, bus, SDMA, GCN).
 * hsa-gpu is hsagpu_native; hsa-gpu-vega10 (vega10/vega10-pci.c) is
 * what Linux's amdgpu binds.
 */
typedef struct HsaGpuPersonality {
    const char *name;
    uint64_t vram_min;          /* the least vram-size its driver needs */
    /* extended capabilities: a vendor-specific one (0: none), AER, DSN */
    uint16_t ext_vsec, ext_aer, ext_dsn;
    /* BAR5 (and the optional I/O BAR), BAR2: s->mmio, s->doorbell */
    void (*mmio_init)(HsaGpuState *s);
    void (*doorbell_init)(HsaGpuState *s);
    /* MSI or MSI-X, after the PCI Express capability */
    int (*irq_init)(HsaGpuState *s, Error **errp);
    void (*irq_exit)(HsaGpuState *s);
    /* The expansion ROM image into @rom (@size bytes) */
    bool (*rom_build)(HsaGpuState *s, uint8_t *rom, uint32_t size,
                      Error **errp);
    /*
     * A processor pass, qlock held, after the queues' (NULL: none): the
     * personality's own rings, through @ctx's bus; sets pass->ended when
     * work remains, pass->poll when it waits on memory or registers
     */
    void (*pass)(HsaGpuState *s, struct HsaGpuOpsCtx *ctx,
                 struct HsaGpuPassResult *pass);
    /*
     * Translate @va of @c's VMID for its client (NULL: hsa-gpu's own GPU
     * VM, VMIDs 1-15): true with @x, or false with the fault recorded
     */
    bool (*xlat)(struct HsaGpuBusCtx *c, uint64_t va, bool is_write,
                 HsaGpuVmReadFn rd, HsaGpuVmXlat *x);
    /*
     * The queues' register packets and SDMA traps (NULL, all three: they
     * fail the queue, and a trap raises its vector), qlock held
     */
    uint32_t (*reg_read)(HsaGpuState *s, uint32_t reg);
    void (*reg_write)(HsaGpuState *s, uint32_t reg, uint32_t val);
    void (*trap)(HsaGpuState *s, int qi, uint32_t int_ctx);
    /* Device reset: the personality's registers (NULL: none) */
    void (*reset)(HsaGpuState *s);
    /*
     * inject-queue-hang over the personality's own rings as well (NULL:
     * the processor's queues, ids below num-queues): ids below hang_ids
     */
    void (*queue_hold)(HsaGpuState *s, int id);
    int (*queue_held)(HsaGpuState *s);
    unsigned hang_ids;
} HsaGpuPersonality;

extern const HsaGpuPersonality hsagpu_native;
extern const HsaGpuPersonality hsagpu_vega10;
extern const VMStateDescription vmstate_hsagpu_v10;

/*
 * Link timing model (hsagpu-link.c): the device's way up to the root
 * complex, set at realize. Link i is named by the downstream or root
 * port above it, sw[i] is the switch (its upstream port) above that
 * port, 0 for the root port's link.
 */
typedef struct HsaGpuLinkChain {
    unsigned n;
    uintptr_t key[HSAGPU_MAX_PORTS];
    double rate[HSAGPU_MAX_PORTS];      /* wire bytes per ns, each way */
    uintptr_t sw[HSAGPU_MAX_PORTS];
} HsaGpuLinkChain;

/*
 * Per queue: the DMA packet being timed, and the flows of its engine,
 * one for reads and one for writes, kept from packet to packet while the
 * other end stays the same (packets of a queue follow each other).
 */
typedef struct HsaGpuLinkQueue {
    bool timed;
    uint64_t start_ns;
    uint32_t flow[2];                   /* [0] reads, [1] writes */
    const void *target[2];              /* the peer, or host memory */
    double last[2];                     /* wire bytes of the last TLP */
    bool moved[2];                      /* by the current packet */
    bool prepaid[2];                    /* all of it added at its start */
} HsaGpuLinkQueue;

/* Pages the processor may write in one pass before marking early */
#define HSAGPU_BUS_MAP_DIRTY_MAX 32

struct HsaGpuState {
    PCIDevice parent_obj;

    MemoryRegion vram;          /* BAR0/1 */
    MemoryRegion doorbell;      /* BAR2/3 */
    MemoryRegion io;            /* BAR4, optional */
    MemoryRegion mmio;          /* BAR5, MSI-X table/PBA inside */
    MemoryRegion rom;           /* expansion ROM */

    HsaGpuIdent ident;
    HsaGpuRegFile regs;
    /*
     * BAR2 read-back (hsagpu-doorbell.c): per 4 KiB doorbell page, the
     * last doorbell written through the handler and its value. The
     * processor never reads doorbell values (it reads write_dispatch_id).
     */
    uint32_t db_last_index[HSAGPU_DOORBELL_PAGES];
    uint64_t db_last_value[HSAGPU_DOORBELL_PAGES];

    /*
     * Queue processor (hsagpu-queue.c). qlock protects queues[], active[],
     * the processor's work and what it leaves for the BQL (pending). The
     * processor runs in its own thread, which never waits for the BQL, or
     * (x-processor=mainloop, and behind a vIOMMU) in a main-loop bottom
     * half with a per-run budget.
     */
    HsaGpuQueue *queues;
    uint32_t nqueues_migrated;  /* == num_queues, for VMState */
    uint16_t *active;           /* enabled queues, by priority */
    unsigned nactive;
    unsigned rr[HSAGPU_QUEUE_PRIORITY_MAX + 1];
    QemuMutex qlock;
    unsigned qlock_waiters;     /* outside the processor (qatomic) */
    QemuThread qthread;
    EventNotifier qnotifier;    /* doorbells and commands wake the thread */
    bool qnotifier_ok;
    bool qthread_started;
    bool qthread_stop;
    bool vm_running;
    bool dma_iommu;             /* bus-master DMA goes through a vIOMMU */
    bool mainloop;              /* the processor runs in the main loop */
    QEMUBH *proc_bh;            /* mainloop: serve the queues */
    QEMUTimer *proc_timer;      /* mainloop: busy-kernel end, polling */
    int64_t proc_backoff;       /* mainloop: polling interval */
    bool proc_kicked;           /* mainloop: kicked since the last run */
    /*
     * The thread is awake (qatomic: in a pass, or the doorbell watch
     * after work) and reads kick_pending before it sleeps: a kick then
     * only sets kick_pending instead of the eventfd, whose write is a
     * system call in the vCPU's doorbell write (over a microsecond on a
     * nested host)
     */
    int qthread_watching;
    int kick_pending;
    unsigned long *db_listening; /* doorbells with an ioeventfd */
    /*
     * Doorbells written since the processor last looked (set_bit_atomic
     * by the BAR2 handler and by the thread for the eventfds it found
     * set); hsagpu_queues_pass() hands them to their queues, whose write
     * index is fetched only then (hsagpu_queue_wptr()).
     */
    unsigned long *db_rung;
    /*
     * One ioeventfd notifier per hardware queue (the thread must know
     * which doorbell rang): made at the first ENABLE, kept until
     * unrealize; qdb_listen[qi] is the doorbell registered + 1, or 0.
     */
    EventNotifier *qdb;
    bool *qdb_ok;
    uint32_t *qdb_listen;
    /* The thread's poll set: qnotifier, then the listening queues. */
    GPollFD *qpfd;
    uint32_t *qpfd_doorbell;
    unsigned nqpfd;
    VMChangeStateEntry *vm_change;
    /* The processor's mappings (HsaGpuBusMap, hsagpu-bus.c), qlock */
    struct HsaGpuBusMap *bus_maps;
    uint16_t bus_map_dirty[HSAGPU_BUS_MAP_DIRTY_MAX];
    unsigned bus_map_ndirty;
    unsigned bus_map_gen;       /* topology or GPU VM changes (qatomic) */
    unsigned bus_map_seen;      /* bus_map_gen the mappings were made in */
    unsigned bus_map_p2p_gen;   /* hsagpu_p2p_generation() likewise */
    MemoryListener bus_map_listener;
    /*
     * What needs the BQL, left by the processor under qlock and delivered
     * by irq_bh in the main loop (hsagpu_queues_deliver()): MSI-X vectors,
     * the first failed queue AtomicOp, peers whose reference may be the
     * last. Migrated (a subsection) when not empty. A reset drops the
     * vectors and the AtomicOp report: they belong to the old state.
     */
    HsaGpuDeferred pending;
    HsaGpuDeferred delivering;  /* BQL: taken from pending by irq_bh */
    bool in_delivery;           /* BQL: delivering is being sent */
    int32_t msix_nr;            /* bits in the pending bitmaps */
    QEMUBH *irq_bh;
    /*
     * ERROR_STATUS bits (QUEUE, VM_FAULT) the processor raised that the
     * register does not show yet (qatomic). Whoever holds the BQL first
     * folds them in: irq_bh, or a register access, so a guest that saw a
     * queue's ERROR state also sees the bit.
     */
    unsigned qerr_pending;
    /*
     * ERROR_STATUS got a bit from a register access; its interrupt is
     * sent by irq_bh (qatomic), see hsagpu_queue_fold_errors_later().
     */
    unsigned error_irq_due;
    /*
     * Bumped by every reset and by unrealize (BQL). An MSI-X message or
     * an AER report is a write the guest aims anywhere, the ECAM of a
     * root port (slot power, bus reset) or of this device (FLR)
     * included: it may reset or unplug the device before it returns.
     * Whoever sends several compares the generation after each one and
     * stops when it changed (hsagpu_ops_deliver()).
     */
    uint32_t gen;
    /* The most kernel and DMA slices one pass ran (x-pass-max-slices). */
    uint32_t pass_max_slices;
    uint64_t gcn_slice_max_cleared;     /* x-gcn-slice-max-cleared */
    bool gcn_oor_logged;                /* VGPRs past an allocation: told */
    /* the GCN private memory of all queues' workgroups in flight */
    HsaGpuGcnPrivBudget gcn_priv;       /* .used: x-gcn-private-used */
    struct HsaGpuGcnPool *gcn_pool;     /* compute-threads, NULL: one */
    QLIST_ENTRY(HsaGpuState) peer_link; /* hsagpu-p2p.c */
    HsaGpuFault fault;
    /*
     * GPU virtual memory (hsagpu-vm.c): contexts, TLBs, fault registers.
     * vm_lock guards it; writers of the registers also hold qlock, so
     * that an invalidation waits for the pass that may be using an old
     * translation.
     */
    HsaGpuVm vm;
    QemuMutex vm_lock;

    HsaGpuLinkChain link_chain;
    HsaGpuLinkQueue *link_q;            /* link-model=on: per queue */

    HsaGpuParams params;
    const HsaGpuPersonality *pers;
    struct HsaGpuV10 *v10;              /* hsa-gpu-vega10's registers */
    uint32_t v10_inv_seen;              /* its TLB invalidations, seen */
    QEMUTimer *v10_quantum;             /* its scheduler's time slices */
    bool v10_ih_busy;                   /* its IH is writing an entry */

    /*
     * Cached read alias (hsagpu-vram-dir.c): BAR4 aliasing the first
     * ralias_size bytes of VRAM, and the directory of the lines of that
     * window the device wrote (any requester; atomic words).
     */
    MemoryRegion ralias;
    HsaGpuVramDir vdir;
};

#define HSAGPU_BUS_XLAT_CACHE   4

/* The answer of hsagpu_bus_resolve() for the start of an access. */
typedef struct HsaGpuBusTarget {
    HsaGpuBusClass cls;
    uint8_t *host;              /* the bytes, host view */
    uint64_t len;               /* usable bytes at host */
    MemoryRegion *mr;           /* VRAM: mark dirty after writes */
    hwaddr mr_off;
    bool mapped;                /* address_space_map()ed system memory */
    uint64_t bus;               /* system memory: its bus address */
    HsaGpuState *peer;          /* a peer's VRAM (a reference is held) */
    /*
     * The PCI function that decodes the address when it is not system
     * memory (AtomicOp routing checks); NULL for system memory. Also set
     * for refusals with HSAGPU_BUS_NOT_MEMORY.
     */
    PCIDevice *completer;
} HsaGpuBusTarget;

/*
 * The processor's mappings: the host bytes behind 4 KiB pages it already
 * resolved (ring pages, read/write indices, signals, kernel buffers), so
 * that the next access there is a copy, not a resolution (translation,
 * flat view lookup, RAM block lookup, references). Like a TLB, they
 * outlive a pass; they are dropped when what they were made from may
 * have changed: any memory topology change (a listener), any GPU VM
 * register write (invalidations, contexts), a peer unplugged, reset.
 * Behind a vIOMMU, whose mappings change without either, they only last
 * one pass. Each holds a reference on what it maps; bytes written are
 * marked dirty (migration, translated code) at the end of every pass.
 * Only the processor uses them, under qlock.
 */
#define HSAGPU_BUS_MAP_PAGE     4096ULL
#define HSAGPU_BUS_MAP_SET_BITS 9       /* 512 sets of 2 */

typedef struct HsaGpuBusMap {
    uint64_t page;              /* first address, in the space of vmid */
    uint32_t vmid;
    uint32_t len;               /* bytes usable from page; 0: empty */
    bool read, write, atomic;   /* access kinds it was resolved for */
    bool used;                  /* the way of its set used last */
    bool dirty_listed;
    uint16_t dirty_lo, dirty_hi;    /* written bytes (lo < hi) */
    MemoryRegion *ram;          /* system RAM: the block's region */
    HsaGpuBusTarget t;          /* what resolved (references held) */
} HsaGpuBusMap;

/*
 * A request context: who asks the bus (hsagpu-bus.c). One per scheduling
 * pass, per register-programmed AtomicOp or per queue command; the
 * queue changes with hsagpu_bus_ctx_select().
 */
typedef struct HsaGpuBusCtx {
    HsaGpuState *s;             /* the requester */
    int queue;                  /* the requesting queue, -1: the device */
    /*
     * Address space of the requester: VMID 0 is bus addresses, 1..15 are
     * translated by hsagpu-vm.c before the bus rules apply.
     */
    uint32_t vmid;
    uint32_t client;            /* HSAGPU_VM_CLIENT_*: who accesses */
    bool atomic;                /* an AtomicOp: needs read and write */
    /*
     * The last translations (a packet touches its ring slot, pointers,
     * signal and data: a few pages), for xlat_vmid (0: none). They
     * cannot go stale: a context lives within one pass or one register
     * access, and invalidations and context writes wait for those
     * (hsagpu-vm.c).
     */
    HsaGpuVmXlat xlat[HSAGPU_BUS_XLAT_CACHE];
    uint32_t xlat_vmid;
    uint32_t xlat_n;            /* entries filled */
    uint32_t xlat_next;         /* next to replace */
    HsaGpuBusCache cache;       /* last range resolved inside the switch */
    HsaGpuState *cache_dev;     /* whose VRAM the cache holds (referenced) */
    unsigned cache_gen;         /* hsagpu_p2p_generation() when cached */
    bool map_on;                /* in a pass: s->bus_maps may be used */
    /*
     * Bus addresses even where the personality translates every address
     * (hsa-gpu-vega10's IH ring: MC_SPACE says its address is physical)
     */
    bool untranslated;
    /*
     * Resolving without accessing (a page to map, where a transfer
     * goes): no VM fault is recorded, no generic-fuzz data.
     */
    bool map_probe;
} HsaGpuBusCtx;


/*
 * Prototypes by file, in data-path order: doorbell -> queue (thread,
 * schedule; packets in hsagpu-queue.c) -> ops (the processor's
 * window) -> bus (where an address goes) -> dma / atomic -> irq.
 */

/* hsagpu-doorbell.c: BAR2, and the ioeventfds that wake the processor */
void hsagpu_doorbell_init(HsaGpuState *s);
void hsagpu_doorbell_reset(HsaGpuState *s);
void hsagpu_doorbell_listen(HsaGpuState *s, unsigned qi, uint32_t doorbell,
                            bool on);
void hsagpu_doorbell_unlisten_all(HsaGpuState *s);
void hsagpu_queues_kick(HsaGpuState *s);

/* hsagpu-queue.c: queue registers, commands, the processor, migration */
void hsagpu_queues_instance_init(HsaGpuState *s);
void hsagpu_queues_finalize(HsaGpuState *s);
bool hsagpu_queues_init(HsaGpuState *s, Error **errp);
/* What the processor left, and interrupts owed, go out from irq_bh. */
void hsagpu_queues_deliver_later(HsaGpuState *s);
/* Fault injection: queue @qi (-1: none) is not served; which one is. */
void hsagpu_queue_hold(HsaGpuState *s, int qi);
int hsagpu_queue_held(HsaGpuState *s);
/*
 * Fatal internal error (BQL held): every enabled queue fails with
 * DEVICE_FATAL, ERROR_STATUS.FATAL is raised.
 */
void hsagpu_queues_fatal(HsaGpuState *s);
void hsagpu_queues_exit(HsaGpuState *s);
void hsagpu_queues_reset(HsaGpuState *s);
void hsagpu_queues_pre_save(HsaGpuState *s);
int hsagpu_queues_post_load(HsaGpuState *s);
extern const VMStateDescription vmstate_hsagpu_pending;
/* Queues of a personality's own rings (qlock held): see hsagpu-queue.c */
unsigned hsagpu_queue_own_start(HsaGpuState *s, unsigned qi,
                                const HsaGpuQueue *reg, uint64_t read_index);
void hsagpu_queue_own_stop(HsaGpuState *s, unsigned qi);
void hsagpu_queue_own_ring(HsaGpuState *s, unsigned qi);
void hsagpu_queue_own_wptr(HsaGpuState *s, unsigned qi, uint64_t wptr);
uint64_t hsagpu_queue_own_rptr(HsaGpuState *s, unsigned qi);
bool hsagpu_queue_mmio(HsaGpuState *s, uint32_t offset);
unsigned hsagpu_queue_mmio_read(HsaGpuState *s, uint32_t offset, unsigned size,
                                uint64_t *val);
unsigned hsagpu_queue_mmio_write(HsaGpuState *s, uint32_t offset,
                                 unsigned size, uint64_t val);
uint32_t hsagpu_queue_error_first(HsaGpuState *s);
extern const VMStateDescription vmstate_hsagpu_queue;
/* One queue's GWS resources (HsaGpuGcnGws), for every personality */
extern const VMStateDescription vmstate_hsagpu_gcn_gws;

/* hsagpu-ops.c: HsaGpuQueueOps for the processor */
typedef struct HsaGpuOpsCtx {
    HsaGpuBusCtx bus;           /* requester: the device, then each queue */
    HsaGpuDeferred *d;
    bool peer_written;          /* by the current DMA packet */
    HsaGpuBusTarget map[HSAGPU_MAP_SLOTS];  /* HsaGpuQueueOps.map */
    bool map_write[HSAGPU_MAP_SLOTS];
} HsaGpuOpsCtx;

extern const HsaGpuQueueOps hsagpu_queue_ops;
extern const HsaGpuQueueOps hsagpu_queue_ops_regs;
void hsagpu_ops_begin(HsaGpuOpsCtx *c, HsaGpuState *s, HsaGpuDeferred *d);
void hsagpu_ops_end(HsaGpuOpsCtx *c);
void hsagpu_ops_deliver(HsaGpuState *s, HsaGpuDeferred *d);
bool hsagpu_deferred_any(const HsaGpuDeferred *d);

/* hsagpu-bus.c: where a bus address goes (see HsaGpuBusTarget) */
void hsagpu_bus_ctx_init(HsaGpuBusCtx *c, HsaGpuState *s, int queue);
void hsagpu_bus_ctx_select(HsaGpuBusCtx *c, int queue);
void hsagpu_bus_ctx_end(HsaGpuBusCtx *c);
/* A pass starts and ends: mappings are used in between (HsaGpuBusMap). */
void hsagpu_bus_map_begin(HsaGpuBusCtx *c);
void hsagpu_bus_map_end(HsaGpuBusCtx *c);
/*
 * A pass's access to [addr, addr + len) through a mapping: a borrowed
 * target (nothing to release; a write is marked dirty with the pass),
 * or false when no mapping holds it.
 */
bool hsagpu_bus_map_get(HsaGpuBusCtx *c, uint64_t addr, uint64_t len,
                        bool is_write, HsaGpuBusTarget *t);
/*
 * qlock held, between passes: the 8-byte word at @addr (8-aligned) of
 * @vmid's space, if a mapping holds it (a hint: it may be stale).
 */
/*
 * A host view of [@addr, @addr + @len) (@is_write: to write as well) in
 * a pass: its host address, *@got bytes of it that follow on there;
 * valid until the pass ends (its RCU read section keeps them). NULL:
 * none (not in a pass, not memory, a peer's VRAM, or a VRAM write the
 * read alias must see at once). Resolving records no fault. Bytes
 * written through it are told with hsagpu_bus_view_written(), after
 * they are made: they are marked as a write's.
 */
void *hsagpu_bus_view(HsaGpuBusCtx *c, uint64_t addr, uint64_t len,
                      bool is_write, uint64_t *got);
void hsagpu_bus_view_written(HsaGpuBusCtx *c, uint64_t addr, uint64_t len);
bool hsagpu_bus_map_peek64(HsaGpuState *s, uint32_t vmid, uint64_t addr,
                           uint64_t *val);
/* [addr, addr + len) was accessed successfully: map its page. */
void hsagpu_bus_map_fill(HsaGpuBusCtx *c, uint64_t addr, uint64_t len,
                         bool is_write);
/* Drop every mapping (qlock held, or the processor stopped). */
void hsagpu_bus_maps_flush(HsaGpuState *s);
void hsagpu_bus_maps_init(HsaGpuState *s);
void hsagpu_bus_maps_exit(HsaGpuState *s);
HsaGpuBusRefusal hsagpu_bus_resolve(HsaGpuBusCtx *c, uint64_t addr,
                                    uint64_t len, bool is_write,
                                    HsaGpuBusTarget *t);
void hsagpu_bus_release(HsaGpuBusCtx *c, HsaGpuBusTarget *t, bool is_write,
                        uint64_t done);
/* Copy to or from bus memory: 0, or the refusal of the first piece. */
HsaGpuBusRefusal hsagpu_bus_rw(HsaGpuBusCtx *c, uint64_t addr, void *buf,
                               uint64_t len, bool is_write);
/* The same; *@link: some of it went on the link (not own VRAM). */
HsaGpuBusRefusal hsagpu_bus_rw_link(HsaGpuBusCtx *c, uint64_t addr,
                                    void *buf, uint64_t len, bool is_write,
                                    bool *link);
bool hsagpu_bus_is_memory(HsaGpuBusCtx *c, uint64_t addr, uint64_t len,
                          bool is_write);

/*
 * hsagpu-dma.c: DMA engine transfer (HsaGpuQueueOps.dma): 0 or an
 * HSAGPU_QERR_* code; counts the traffic; *peer_written when data went
 * to a peer.
 */
unsigned hsagpu_dma_xfer(HsaGpuBusCtx *c, uint64_t dst, uint64_t src,
                         uint64_t len, const uint32_t *pattern,
                         uint64_t *bad_addr, bool *peer_written);
/* A read to a peer that flushes the writes before it (ordering). */
void hsagpu_dma_flush_peer(HsaGpuState *s);
/*
 * HsaGpuQueueOps.map/unmap for the streaming kernels: a host view of the
 * start of [addr, addr + len) in @t, under an RCU read lock held until
 * hsagpu_dma_unmap() (see hsagpu-cp.h).
 */
unsigned hsagpu_dma_map(HsaGpuBusCtx *c, uint64_t addr, uint64_t len,
                        bool is_write, HsaGpuBusTarget *t);
void hsagpu_dma_unmap(HsaGpuBusCtx *c, HsaGpuBusTarget *t, bool is_write,
                      uint64_t done);

/* hsagpu-atomic.c: the AtomicOp engine */
unsigned hsagpu_atomic_try(HsaGpuBusCtx *c, uint64_t addr, uint32_t ctrl,
                           const uint64_t src0[2], const uint64_t src1[2],
                           uint64_t result[2], uint32_t count, uint32_t *done);
void hsagpu_atomic_report(HsaGpuState *s, unsigned st, uint64_t addr,
                          uint32_t ctrl);
void hsagpu_atomic_run(HsaGpuState *s);

/* hsagpu-p2p.c: peer registry and PCIe topology */
/* The bridges (ports) above @dev, nearest first: how many. */
int hsagpu_ports_above(PCIDevice *dev, PCIDevice **ports);
void hsagpu_p2p_register(HsaGpuState *s);
void hsagpu_p2p_unregister(HsaGpuState *s);
/* Highest bus address the device can emit (p2p-addr-bits). */
uint64_t hsagpu_addr_limit(HsaGpuState *s);
bool hsagpu_p2p_peer_ok(HsaGpuState *s, HsaGpuState *peer);
uint32_t hsagpu_p2p_status(HsaGpuState *s);
/*
 * The peer whose VRAM a switch above both devices routes @addr to, with
 * a reference the caller drops (object_unref), and the VRAM offset.
 */
HsaGpuState *hsagpu_p2p_switch_peer(HsaGpuState *s, uint64_t addr,
                                    uint64_t *off);
/* Changes whenever a device unregisters (a cached peer may be gone). */
unsigned hsagpu_p2p_generation(void);
/*
 * Lock the registry if @peer is registered (true; hsagpu_p2p_unlock()
 * then): its config space and topology can be read without the BQL.
 */
bool hsagpu_p2p_lock_registered(HsaGpuState *peer);
void hsagpu_p2p_unlock(void);
/* Bus address of the device's VRAM BAR, or HSAGPU_BUS_NO_BAR. */
uint64_t hsagpu_vram_bar(HsaGpuState *s);

/*
 * hsagpu-vm.c: GPU virtual memory. hsagpu_vm_xlat() translates @va for
 * the context's VMID (caller: the bus resolver, which reads the tables
 * through @rd), recording a fault (global and queue fault registers,
 * ERROR_STATUS) when it cannot.
 */
void hsagpu_vm_init(HsaGpuState *s);
void hsagpu_vm_exit(HsaGpuState *s);
void hsagpu_vm_reset_all(HsaGpuState *s);
bool hsagpu_vm_xlat(HsaGpuBusCtx *c, uint64_t va, bool is_write,
                    HsaGpuVmReadFn rd, HsaGpuVmXlat *x);
bool hsagpu_vm_mmio(uint32_t offset);
unsigned hsagpu_vm_mmio_read(HsaGpuState *s, uint32_t offset, unsigned size,
                             uint64_t *val);
unsigned hsagpu_vm_mmio_write(HsaGpuState *s, uint32_t offset, unsigned size,
                              uint64_t val);
int hsagpu_vm_post_load(HsaGpuState *s);
extern const VMStateDescription vmstate_hsagpu_vm;

/* hsagpu-link.c: PCIe link settings (MPS, MRRS) and the timing model */
bool hsagpu_link_check(HsaGpuState *s, Error **errp);
bool hsagpu_link_init(HsaGpuState *s, int exp_pos, Error **errp);
void hsagpu_link_exit(HsaGpuState *s);
void hsagpu_link_reset(HsaGpuState *s);
uint32_t hsagpu_link_mps(HsaGpuState *s);
uint32_t hsagpu_link_mrrs(HsaGpuState *s);
/* DMA packet @d of the context's queue starts: true when it is timed. */
bool hsagpu_link_begin(HsaGpuBusCtx *c, uint64_t start_ns,
                       const struct hsagpu_dma_packet *d);
/* The DMA engine moved @len bytes to (@is_write) or from @t. */
void hsagpu_link_move(HsaGpuBusCtx *c, const HsaGpuBusTarget *t,
                      uint64_t len, bool is_write);
/*
 * The packet's data all moved: when it arrives (0: nothing went on a
 * link), and the marks to ask hsagpu_link_when() again with. @mark NULL:
 * the packet stopped (error); what it had not sent is taken back.
 */
uint64_t hsagpu_link_end(HsaGpuBusCtx *c, uint64_t mark[2]);
/* Arrived (true, *@end_ns when; 0 if forgotten), or the projection. */
bool hsagpu_link_when(HsaGpuBusCtx *c, uint64_t mark[2], uint64_t *end_ns);

/* hsagpu-mmio.c: BAR5 and the legacy I/O BAR */
void hsagpu_mmio_init(HsaGpuState *s);

/*
 * hsagpu-fault.c: fault injection on demand (inject-* properties). The
 * hooks return what to do to the access; reports that need the BQL are
 * made from a bottom half when the caller does not hold it.
 */
typedef enum HsaGpuReadFault {
    HSAGPU_READ_OK,
    HSAGPU_READ_UR,             /* completion with Unsupported Request */
    HSAGPU_READ_CA,             /* completion with Completer Abort */
    HSAGPU_READ_POISON,         /* data arrives poisoned */
} HsaGpuReadFault;

void hsagpu_fault_class_init(ObjectClass *klass);
void hsagpu_fault_init(HsaGpuState *s);
void hsagpu_fault_exit(HsaGpuState *s);
void hsagpu_fault_reset(HsaGpuState *s);
/* An AtomicOp reaches its completer: 0, or the injected UR/CA status. */
unsigned hsagpu_fault_atomic(HsaGpuState *s, uint64_t addr);
/* A bus-master read of data at @addr: what the completion brings. */
HsaGpuReadFault hsagpu_fault_read(HsaGpuState *s, uint64_t addr);
/* Make @len bytes of poisoned data recognisably wrong. */
void hsagpu_fault_poison_data(void *buf, uint64_t len);
/* BQL held: true when the fault layer took the message (lost or late). */
bool hsagpu_fault_msix(HsaGpuState *s, unsigned vector);
/* The device took a fatal internal error (only a reset clears it). */
/*
 * qlock from outside the processor thread (MMIO, commands, VM state
 * changes, the main-loop processor). The thread ends its pass when
 * someone is queued here (between queues and packets) and waits for them
 * before the next: a register access waits for one slice at most. Here,
 * next to the lock, so that the files taking it need not call into the
 * queue file.
 */
static inline void hsagpu_qlock(HsaGpuState *s)
{
    qatomic_inc(&s->qlock_waiters);
    qemu_mutex_lock(&s->qlock);
    qatomic_dec(&s->qlock_waiters);
}

static inline bool hsagpu_fault_is_fatal(HsaGpuState *s)
{
    return qatomic_read(&s->fault.fatal);
}

/* hsagpu-irq.c: device status, error reporting and the error interrupt */
uint32_t hsagpu_status(HsaGpuState *s);
void hsagpu_bad_access(HsaGpuState *s, unsigned bar, uint64_t offset,
                       unsigned size, bool is_write, unsigned reason);
void hsagpu_error_irq(HsaGpuState *s);
/*
 * Every MSI-X message of the device goes through here (BQL held): the
 * fault injection layer may take it first (drop or delay). Nothing is
 * sent for a device that is no longer realized.
 */
void hsagpu_irq_msix(HsaGpuState *s, unsigned vector);
/* Fold a queue failure the processor noted into ERROR_STATUS (BQL). */
void hsagpu_queue_flush_errors(HsaGpuState *s);
/* The same without the interrupt: true when one is due. */
bool hsagpu_queue_fold_errors(HsaGpuState *s);
/*
 * Register accesses: fold now, so that a guest that saw a queue's ERROR
 * state also sees the bit; the interrupt is left to irq_bh. True when
 * one is due (the caller schedules hsagpu_queues_deliver_later()).
 */
bool hsagpu_queue_fold_errors_later(HsaGpuState *s);
/* Log and count a queue that entered the error state. */
void hsagpu_queue_failed(HsaGpuState *s, unsigned qi, const HsaGpuQueue *q);

/*
 * hsagpu-vram-dir.c: the cached read alias (BAR4) and its dirty-line
 * directory. hsagpu_vram_dir_mark() is called for every device write
 * into the VRAM region @vram (own or a peer's: the region's owner keeps
 * the directory), from any processor thread.
 */
bool hsagpu_vram_dir_check(HsaGpuState *s, Error **errp);
void hsagpu_vram_dir_realize(HsaGpuState *s);
void hsagpu_vram_dir_finalize(HsaGpuState *s);
void hsagpu_vram_dir_reset_dev(HsaGpuState *s);
void hsagpu_vram_dir_mark(MemoryRegion *vram, uint64_t off, uint64_t len);
bool hsagpu_vram_dir_mmio(uint32_t offset);
unsigned hsagpu_vram_dir_mmio_read(HsaGpuState *s, uint32_t offset,
                                   unsigned size, uint64_t *val);
unsigned hsagpu_vram_dir_mmio_write(HsaGpuState *s, uint32_t offset,
                                    unsigned size, uint64_t val);
extern const VMStateDescription vmstate_hsagpu_vram_dir;

#endif
