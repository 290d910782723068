/*
 * hsa-gpu: AQL queue processor, independent of QEMU: the header of
 * hsagpu-queue.c (queue registers, packets, signals, scheduling),
 * hsagpu-kernels.c (built-in kernels) and hsagpu-dma.c (DMA
 * packets).
 *
 * The processor reaches memory, AtomicOps, time and interrupts only
 * through HsaGpuQueueOps, so the host unit tests can drive it with plain
 * buffers (tests/unit/fakebus.h) and QEMU drives it from its processing
 * thread (hsagpu-ops.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_CP_H
#define HW_HSAGPU_CP_H

#include "hw/hsagpu/core/hsagpu-core.h"
#include "hsagpu/hsagpu_sdma.h"
#include "hw/hsagpu/gcn/hsagpu-gcn.h"

typedef struct HsaGpuQueueOps {
    /*
     * Accesses at addresses of the selected queue's space (bus addresses
     * in VMID 0, else GPU virtual addresses) made by @client
     * (HSAGPU_VM_CLIENT_*): 0, or the queue error (HSAGPU_QERR_ADDRESS,
     * HSAGPU_QERR_P2P_LIMIT, HSAGPU_QERR_VM_FAULT...).
     */
    unsigned (*read)(void *opaque, unsigned client, uint64_t addr, void *buf,
                     uint64_t len);
    unsigned (*write)(void *opaque, unsigned client, uint64_t addr,
                      const void *buf, uint64_t len);
    /* 64-bit FetchAdd AtomicOp; returns an HSAGPU_ATOMIC_ST_* code. */
    unsigned (*fetch_add64)(void *opaque, unsigned client, uint64_t addr,
                            uint64_t val, uint64_t *old);
    uint64_t (*now_ns)(void *opaque);
    /* Raise MSI-X @vector (may be deferred by the caller). */
    void (*irq)(void *opaque, unsigned vector);
    /*
     * DMA engine data movement: @len bytes to @dst from @src, or with
     * @pattern (not NULL) a fill where byte k of @dst gets byte k % 4 of
     * *pattern. Returns 0 or an HSAGPU_QERR_* code, *bad_addr the bus
     * address that failed. Counts the traffic.
     */
    unsigned (*dma)(void *opaque, uint64_t dst, uint64_t src, uint64_t len,
                    const uint32_t *pattern, uint64_t *bad_addr);
    /*
     * A DMA packet ended with @err (0: success, all its data must be
     * visible before this returns; else @bad_addr is what failed).
     */
    void (*dma_done)(void *opaque, unsigned err, uint64_t bad_addr);
    /*
     * Optional: the accesses that follow are made for queue @qi (its
     * address space, once queues have their own). Called by
     * hsagpu_sched_pass() before it serves a queue.
     */
    void (*select)(void *opaque, unsigned qi);
    /*
     * Optional: a data read (DMA descriptors, kernel buffers), where the
     * bus may answer with more than "not memory": 0 or an HSAGPU_QERR_*
     * code (HSAGPU_QERR_POISON: @buf holds the poisoned data). Without
     * it, read() is used.
     */
    unsigned (*read_data)(void *opaque, unsigned client, uint64_t addr,
                          void *buf, uint64_t len);
    /*
     * Optional: an SDMA ring consumed the packet with header @header at
     * byte offset @offset (a run of NOPs: once, header 0). For counters
     * and tracing.
     */
    void (*sdma_packet)(void *opaque, uint32_t header, uint64_t offset);
    /*
     * Optional, both or neither: direct access for the streaming kernels
     * (hsagpu-kernels.c). map() puts a host view of the start of
     * [addr, addr + len) for @client into slot @slot (below
     * HSAGPU_MAP_SLOTS): 0 with *@host and *@mapped (1..@len bytes) set,
     * or the queue error, with every check write() (@is_write) or
     * read_data() makes; a read that fault injection hits fails (UR, CA:
     * HSAGPU_QERR_ADDRESS, poison: HSAGPU_QERR_POISON) with nothing
     * mapped. unmap() releases a mapped slot after @done bytes were
     * accessed (written ones are marked dirty).
     */
    unsigned (*map)(void *opaque, unsigned slot, unsigned client,
                    uint64_t addr, uint64_t len, bool is_write, void **host,
                    uint64_t *mapped);
    void (*unmap)(void *opaque, unsigned slot, uint64_t done);
    /*
     * Optional, all or none: the link timing model (hsagpu-link.c).
     * link_begin(): DMA packet @d (as fetched: not checked yet) starts
     * at @start_ns; true when its transfers are timed (never for a
     * malformed packet). link_end(): its data all moved; when it
     * arrives (0: nothing went on a link), and @mark to ask
     * link_when() with later: true when it arrived (*@end_ns then, 0 if
     * the model forgot it), or false and *@end_ns the projection. With
     * @mark NULL: the packet did not go on (error, no slot), what was
     * not sent yet is taken back.
     */
    bool (*link_begin)(void *opaque, uint64_t start_ns,
                       const struct hsagpu_dma_packet *d);
    uint64_t (*link_end)(void *opaque, uint64_t mark[2]);
    bool (*link_when)(void *opaque, uint64_t mark[2], uint64_t *end_ns);
    /*
     * Any 32- or 64-bit AtomicOp (@ctrl: HSAGPU_ATOMIC_OP_* | _SIZE_*;
     * CAS compares with @src0 and stores @src1), *@old the value before;
     * an HSAGPU_ATOMIC_ST_* code. NULL: code objects' atomics are reads
     * and writes of the device thread.
     */
    unsigned (*atomic)(void *opaque, unsigned client, uint64_t addr,
                       uint32_t ctrl, uint64_t src0, uint64_t src1,
                       uint64_t *old);
    /*
     * Optional, both or neither: the device's registers by dword offset
     * (at most HSAGPU_SDMA_REG_MASK), for a personality whose SDMA rings
     * are amdgpu's kernel rings (hsa-gpu-vega10). With them an SDMA ring
     * also runs WRITE, INDIRECT, PTEPDE, SRBM_WRITE and register polls
     * (hsagpu_sdma.h); without them (hsa-gpu: rings fed by user space)
     * those fail the queue as they always did: error 24, 25 for a
     * register poll.
     */
    uint32_t (*reg_read)(void *opaque, uint32_t reg);
    void (*reg_write)(void *opaque, uint32_t reg, uint32_t val);
    /*
     * Optional: an SDMA TRAP of the selected queue, with the packet's
     * int_context (bits 27:0), instead of raising the queue's vector:
     * the personality's interrupt (Vega10: an IH entry naming the engine
     * and ring). NULL: irq(QREG_VECTOR).
     */
    void (*trap)(void *opaque, uint32_t int_ctx);
    /*
     * Optional: the accesses that follow (every operation above taking an
     * address) are made in VMID @vmid's address space, not the selected
     * queue's, until the next set_vmid() or select(): an SDMA IB's
     * packets and what they access. Called around each packet of an IB
     * whose VMID is not the queue's; the queue's own comes back before
     * anything else is accessed. NULL: an IB must name the queue's VMID.
     */
    void (*set_vmid)(void *opaque, uint32_t vmid);
    /*
     * Optional, both or neither: a host view of the selected queue's
     * @addr for @client (@is_write: to write too): its host address,
     * *@len bytes from there that follow on (to the end of its
     * HSAGPU_GCN_TLB_SPAN at most), valid until the pass ends; NULL:
     * none (read and write go on as before). Bytes written through a
     * view are told with host_written(), after.
     */
    void *(*host)(void *opaque, unsigned client, uint64_t addr,
                  bool is_write, uint32_t *len);
    void (*host_written)(void *opaque, uint64_t addr, uint32_t len);
} HsaGpuQueueOps;

/* Slots of HsaGpuQueueOps.map: buffers a streaming kernel maps at once */
#define HSAGPU_MAP_SLOTS        3U

/*
 * What one scheduling pass may still do, over all queues: whoever runs
 * the processor holds the queue lock for the whole pass, so this bounds
 * how long register accesses, commands and VM stops wait for it.
 */
typedef struct HsaGpuBudget {
    unsigned slices;            /* kernel and DMA slices left */
    unsigned packets;           /* packets left to consume */
    /*
     * Optional: true when someone waits for the lock; the pass ends, but
     * only once it consumed a packet or ran a slice, so that waiters that
     * never go away cannot starve the queues.
     */
    bool (*yield)(void *opaque);
    void *opaque;
    bool worked;                /* a packet or slice in this pass */
    bool ended;                 /* the pass stopped early: work may remain */
} HsaGpuBudget;

/* Kernel and DMA slices, and packets, per scheduling pass */
#define HSAGPU_PASS_SLICES      2U
#define HSAGPU_PASS_PACKETS     64U

typedef struct HsaGpuProc {
    const HsaGpuQueueOps *ops;
    void *opaque;
    const HsaGpuIdent *ident;
    HsaGpuBudget *budget;       /* NULL: no limit but the quantum */
    struct HsaGpuGcnPrivBudget *gcn_priv;   /* the device's, NULL: none */
    /* host threads for workgroups (compute-threads), NULL: the caller's */
    struct HsaGpuGcnPool *gcn_pool;
} HsaGpuProc;

/*
 * Nothing left of @p's budget (or a waiter asked for the lock). Inline,
 * as the other budget helpers, so that the executors (the SDMA engine,
 * ...) use them without calling back into the queue file that calls them.
 */
static inline bool hsagpu_budget_spent(const HsaGpuProc *p)
{
    HsaGpuBudget *b = p->budget;

    if (!b) {
        return false;
    }
    if (!b->ended && (!b->slices || !b->packets ||
                      (b->yield && b->worked && b->yield(b->opaque)))) {
        b->ended = true;
    }
    return b->ended;
}
/* A packet was consumed. */
static inline void hsagpu_budget_packet(const HsaGpuProc *p)
{
    if (p->budget && p->budget->packets) {
        p->budget->packets--;
        p->budget->worked = true;
    }
}

static inline unsigned hsagpu_read_data(const HsaGpuProc *p, unsigned client,
                                        uint64_t addr, void *buf, uint64_t len)
{
    if (p->ops->read_data) {
        return p->ops->read_data(p->opaque, client, addr, buf, len);
    }
    return p->ops->read(p->opaque, client, addr, buf, len);
}

/* write_dispatch_id further than this ahead of the read index: overrun */
#define HSAGPU_QUEUE_RESERVE_MAX (1ULL << 31)

/* Busy kernels in flight per queue; more wait for a free slot. */
#define HSAGPU_QUEUE_INFLIGHT_MAX 16

typedef struct HsaGpuInflight {
    uint64_t start_ns;
    uint64_t end_ns;
    uint64_t signal;
    uint64_t dispatch_id;
    /* A timed DMA packet: the link model's marks (not migrated). */
    uint64_t link_mark[2];
    bool link_timed;
} HsaGpuInflight;

/*
 * A queue the device runs for a personality's own ring (hsa-gpu-vega10's
 * SDMA rings, hsagpu_queue_own_start()): never set by a driver's
 * registration (ENABLE refuses it), it has no doorbell of hsa-gpu's
 */
#define HSAGPU_QF_OWN           (1U << 31)
/*
 * With HSAGPU_QF_OWN: the write index is the personality's to give
 * (hsagpu_queue_own_wptr(): a doorbell's value), none is in memory
 */
#define HSAGPU_QF_OWN_WPTR      (1U << 30)
/*
 * With HSAGPU_QF_OWN and HSAGPU_QF_SDMA: a user process's ring (amdkfd's
 * RLC queues): only the packets a user ring may send, none that reach
 * the personality's registers or name another VMID
 */
#define HSAGPU_QF_OWN_USER      (1U << 29)
#define HSAGPU_DOORBELL_NONE    UINT32_MAX

typedef struct HsaGpuQueue {
    /* Registration registers, as written by the driver */
    uint32_t ring_lo, ring_hi, ring_size, doorbell;
    uint32_t rptr_lo, rptr_hi, wptr_lo, wptr_hi;
    uint32_t priority, vector, flags;
    uint32_t vmid;              /* QXREG_VMID */
    /*
     * Global wave sync resources the personality gave the queue (amdkfd's
     * GWS queue on hsa-gpu-vega10); 0: ds_gws_* fail the dispatch
     */
    uint32_t num_gws;
    /* Status */
    uint32_t cmd_result;        /* HSAGPU_QRES_* */
    uint32_t state;             /* HSAGPU_QSTATE_* */
    uint32_t error;             /* HSAGPU_QERR_* */
    uint64_t error_id;
    uint32_t retired;
    /* Fault injection (inject-queue-hang): not served; not migrated */
    uint32_t held;
    /* The VM fault that failed the queue (QXREG_FAULT_*), if any */
    uint64_t vm_fault_addr;
    uint32_t vm_fault_info;
    /* Processor state, latched at ENABLE */
    uint32_t as_vmid;           /* the address space the queue runs in */
    uint64_t ring_base, rptr_addr, wptr_addr;
    uint64_t read_index;        /* next packet to consume */
    uint64_t rptr_unpublished;  /* consumed, not yet added to *rptr */
    uint32_t ninflight;
    HsaGpuInflight inflight[HSAGPU_QUEUE_INFLIGHT_MAX];
    /*
     * DMA packet at read_index, partly done: the packet as fetched and
     * checked at its first slice (later slices use it, not the ring,
     * which the guest may have rewritten) and where to go on.
     */
    struct hsagpu_dma_packet dma_pkt;
    uint32_t dma_active;
    uint32_t dma_desc;          /* descriptor (0 for COPY/FILL) */
    uint64_t dma_off;           /* bytes done in it */
    uint64_t dma_start_ns;
    bool dma_timed;             /* by the link model (not migrated) */
    /*
     * Kernel dispatch at read_index, partly done: where to go on (the
     * cursor hsagpu_dispatch_begin/end keep for every executor)
     */
    uint32_t kern_active;
    uint64_t kern_wg;           /* next flat workgroup id */
    uint64_t blit_off;          /* a blit kernel's bytes done, all phases */
    uint64_t kern_start_ns;
    /*
     * A code object's workgroups in flight (kern_wg's, and with GWS those
     * waiting beside it), kept between slices; gcn_blob: them as bytes
     * while being migrated (hsagpu_queue_gcn_save/load). gws: the state
     * of the queue's num_gws resources (kept while the queue is mapped).
     */
    HsaGpuGcnGrid grid;
    uint8_t *gcn_blob;
    uint32_t gcn_blob_len;
    struct HsaGpuGcnGws *gws;
    /* a code object's failure (error 26/27): its kernel, and what failed */
    uint64_t gcn_kernel;
    const char *gcn_what;
    /* a memory access the interpreter refused itself: where, and what */
    uint64_t gcn_pc, gcn_addr;
    /*
     * SDMA queues (HSAGPU_QF_SDMA): read_index counts bytes. A
     * COPY_LINEAR_RECT at read_index partly done: the packet as fetched
     * and checked at its first slice, and the next row to copy.
     */
    uint32_t sdma_active;
    uint32_t sdma_pkt[HSAGPU_SDMA_PKT_MAX_DW];
    uint64_t sdma_row;
    /*
     * The INDIRECT at read_index whose IB runs (kernel rings): latched
     * from the packet when it started, and the IB's next dword. The
     * INDIRECT is consumed when its IB ends; a packet of the IB that
     * waits (a poll) or runs in slices resumes from here.
     */
    uint32_t sdma_ib_active;
    uint32_t sdma_ib_vmid;
    uint64_t sdma_ib_base;
    uint32_t sdma_ib_size;      /* dwords */
    uint32_t sdma_ib_pos;       /* next dword to run */
    /*
     * A register poll with hdp_flush wrote its request (once per packet;
     * not migrated: a destination requests the flush again, which is
     * harmless).
     */
    uint32_t sdma_poll_written;
    /*
     * amd_queue_t.queue_properties as read in this hsagpu_queue_run()
     * call (ROCr changes it between dispatches, not within a pass's
     * few microseconds); not migrated.
     */
    bool amd_props_valid;
    uint32_t amd_props;
    /*
     * The write index as the last fetch read it (the device's copy, as
     * the CP keeps one), and whether the run stopped at a slot whose
     * header was still INVALID (a producer between reserving and
     * publishing it; not migrated). fetch_wptr: the memory at wptr_addr
     * is read at the next run, and only then: set by a doorbell write
     * for the queue (the glue: hsagpu_queue_doorbell), by ENABLE and
     * RESUME, and by a migration from a source that did not send it;
     * cleared by the fetch. An idle queue (read_index == seen_wptr, no
     * doorbell) touches none of its memory, so a process may free its
     * rings before it destroys its queues (docs/architecture.md, Queue
     * fetch rules). seen_wptr and fetch_wptr migrate in a subsection.
     */
    uint64_t seen_wptr;
    bool awaiting_header;
    uint8_t fetch_wptr;
} HsaGpuQueue;

/*
 * The cursor of a dispatch, the same for every executor (built-in
 * kernels, ROCr's blits, code objects): the packet's first slice starts
 * it at 0 with its start time (true: this call started it), its last
 * slice or its failure ends it; the packet stays at the read index in
 * between, and the cursor migrates with the queue.
 */
static inline bool hsagpu_dispatch_begin(HsaGpuQueue *q, const HsaGpuProc *p)
{
    if (q->kern_active) {
        return false;
    }
    q->kern_active = 1;
    q->kern_wg = 0;
    q->blit_off = 0;
    q->kern_start_ns = p->ops->now_ns(p->opaque);
    return true;
}

static inline void hsagpu_dispatch_end(HsaGpuQueue *q)
{
    q->kern_active = 0;
}

/* Bytes of memory the queue's ring occupies. */
static inline uint64_t hsagpu_queue_ring_bytes(const HsaGpuQueue *q)
{
    if (q->flags & HSAGPU_QF_SDMA) {
        return q->ring_size;
    }
    return (uint64_t)q->ring_size * HSAGPU_AQL_PACKET_SIZE;
}

/* Outcome of one hsagpu_queue_run() call. */
typedef struct HsaGpuRunResult {
    unsigned progress;          /* packets launched or completed */
    unsigned completed;         /* packets completed */
    unsigned slices;            /* kernel and DMA slices run */
    bool error;                 /* the queue entered the error state */
    bool poll;                  /* blocked on signals the CPU may change */
    uint64_t deadline;          /* earliest busy-kernel end, or UINT64_MAX */
    unsigned pm4_ibs;           /* PM4 indirect buffers run */
    unsigned cache_invs;        /* PM4 cache actions (nothing to do) */
    /* GCN interpreter: wave instructions, vector lane operations, waves */
    uint64_t gcn_insns, gcn_lane_ops;
    unsigned gcn_waves;
    uint64_t gcn_vgpr_oor;      /* instructions past the VGPR allocation */
    uint64_t gcn_cleared_max;   /* most workgroup state one slice cleared */
} HsaGpuRunResult;

/* A kernel or DMA slice is about to run. */
static inline void hsagpu_budget_slice(const HsaGpuProc *p,
                                       HsaGpuRunResult *res)
{
    res->slices++;
    if (p->budget && p->budget->slices) {
        p->budget->slices--;
        p->budget->worked = true;
    }
}

/* Per-queue register block: 0 or an HSAGPU_BAD_REASON_* code. */
unsigned hsagpu_queue_reg_read(const HsaGpuQueue *q, uint32_t reg,
                               uint32_t *val);
unsigned hsagpu_queue_reg_write(HsaGpuQueue *q, uint32_t reg, uint32_t val);
/* Extended per-queue block (HSAGPU_REG_QUEUE_X): VMID, VM fault. */
unsigned hsagpu_queue_xreg_read(const HsaGpuQueue *q, uint32_t reg,
                                uint32_t *val);
unsigned hsagpu_queue_xreg_write(HsaGpuQueue *q, uint32_t reg, uint32_t val);

/*
 * Check a queue's registration registers against the device and the
 * other queues (doorbell in use): HSAGPU_QRES_OK or the reason.
 */
unsigned hsagpu_queue_check_registration(const HsaGpuQueue *q,
                                         const HsaGpuIdent *id,
                                         const HsaGpuQueue *all,
                                         unsigned nqueues);
/* ENABLE: the queue must be disabled and its registration valid. */
unsigned hsagpu_queue_check(const HsaGpuQueue *q, const HsaGpuIdent *id,
                            const HsaGpuQueue *all, unsigned nqueues);
/*
 * Migration: could the device have made this queue, which is in use?
 * State, the same registration rules as ENABLE, and the cursors.
 */
bool hsagpu_queue_loaded_ok(const HsaGpuQueue *q, const HsaGpuIdent *id,
                            const HsaGpuQueue *all, unsigned nqueues);
/* Latch the registration and start serving from @read_index. */
void hsagpu_queue_start(HsaGpuQueue *q, uint64_t read_index);
/* Forget the queue: registration, state and work in flight. */
void hsagpu_queue_clear(HsaGpuQueue *q);
/* Put the queue in the error state for packet @id (executors use it too). */
static inline void hsagpu_queue_fail(HsaGpuQueue *q, unsigned err,
                                     uint64_t id)
{
    q->state = HSAGPU_QSTATE_ERROR;
    q->error = err;
    q->error_id = id;
    /* nothing pending: a write index the run refused is not kept */
    q->seen_wptr = q->read_index;
    q->ninflight = 0;
    q->dma_active = 0;
    q->kern_active = 0;
    q->sdma_active = 0;
    q->sdma_ib_active = 0;
    q->sdma_poll_written = 0;
}
/*
 * A doorbell write for @q: its write index is fetched at the next run
 * (never before: hsagpu_queue_run() reads no memory of an idle queue).
 */
static inline void hsagpu_queue_doorbell(HsaGpuQueue *q)
{
    q->fetch_wptr = 1;
}
/*
 * The write index to serve up to: fetched from memory if a doorbell (or
 * a start) asked for it, else the copy of the last fetch. 0 or a queue
 * error code (the fetch failed). In the header: cp/sdma uses it too.
 */
static inline unsigned hsagpu_queue_wptr(HsaGpuQueue *q, const HsaGpuProc *p,
                                         uint64_t *wptr)
{
    unsigned err;

    /*
     * Like the CP: the write index in memory is read after a doorbell
     * for this queue, not on every pass. Work known to be there
     * (read_index != seen_wptr: a quantum or budget ended the run, a
     * packet in slices, a barrier, a slot not yet published) goes on
     * from the copy; an idle queue is not touched at all.
     */
    if (q->flags & HSAGPU_QF_OWN_WPTR) {
        /* ... unless the personality gives it (a doorbell's value) */
        q->fetch_wptr = 0;
    }
    if (q->fetch_wptr) {
        q->fetch_wptr = 0;
        err = p->ops->read(p->opaque, HSAGPU_VM_CLIENT_PACKET, q->wptr_addr,
                           wptr, sizeof(*wptr));
        if (err) {
            return err;
        }
        q->seen_wptr = *wptr;
    }
    *wptr = q->seen_wptr;
    return 0;
}

/* ROCr's queue error code (HSAGPU_AMD_QERR_*) for an HSAGPU_QERR_* code */
uint32_t hsagpu_amd_queue_code(unsigned qerr);
/*
 * A queue with HSAGPU_QF_AMD_QUEUE failed: tell ROCr through
 * amd_queue_t.queue_inactive_signal (best effort; nothing without the
 * flag). hsagpu_queue_run() does it for the errors it finds.
 */
void hsagpu_amd_queue_inactive(HsaGpuQueue *q, const HsaGpuProc *p);

/*
 * The queue is preempted (its personality unmaps it, as gfx9's scheduler
 * does on every runlist change, and gfx9's CP drains it first): the
 * packets it consumed are published in its read index and those in
 * flight (busy kernels, timed DMA) complete now, so that the queue
 * mapped again, here or on another slot, goes on right after them and
 * no completion signal is lost. A dispatch in progress was not consumed:
 * it runs again from its start. 0 or the HSAGPU_QERR_* of a failed write.
 */
unsigned hsagpu_queue_quiesce(HsaGpuQueue *q, const HsaGpuProc *p,
                              HsaGpuRunResult *res);

/*
 * Serve up to @quantum packets of @q; never blocks. With @quantum 0 only
 * finished busy kernels are retired (and a drained queue suspended).
 */
void hsagpu_queue_run(HsaGpuQueue *q, const HsaGpuProc *p, unsigned quantum,
                      HsaGpuRunResult *res);

/* Outcome of one hsagpu_sched_pass() call. */
typedef struct HsaGpuPassResult {
    unsigned progress;          /* packets launched, completed or sliced */
    unsigned completed;         /* packets completed */
    unsigned slices;            /* kernel and DMA slices run */
    bool ended;                 /* cut short by the budget: go on soon */
    bool poll;                  /* some queue waits on CPU-side signals */
    uint64_t deadline;          /* earliest busy-kernel end, or UINT64_MAX */
    unsigned pm4_ibs;           /* PM4 indirect buffers run */
    unsigned cache_invs;        /* PM4 cache actions */
    uint64_t gcn_insns, gcn_lane_ops;
    unsigned gcn_waves;
    uint64_t gcn_vgpr_oor;
    uint64_t gcn_cleared_max;
} HsaGpuPassResult;

/*
 * One scheduling pass over the enabled queues @active[0..@nactive),
 * sorted by priority, highest first. Strict priority: the highest level
 * whose queues make progress is served, each of its queues up to
 * @quantum packets (a kernel or DMA slice ends a queue's turn), starting
 * from queue rr[level] % n of the level, which rotates every pass; lower
 * levels only retire their finished busy kernels. With a budget in @p
 * the pass ends when it is spent, between queues or packets (then
 * pass->ended, and the level's rotation skips the queues served).
 * Without @bus_master
 * every queue visited fails. @failed(@opaque, qi) is told of each queue
 * that entered the error state.
 */
void hsagpu_sched_pass(HsaGpuQueue *queues, const uint16_t *active,
                       unsigned nactive, unsigned *rr, const HsaGpuProc *p,
                       unsigned quantum, bool bus_master,
                       void (*failed)(void *opaque, unsigned qi),
                       void *opaque, HsaGpuPassResult *pass);

/*
 * Built-in kernels run in slices of whole workgroups, so that one large
 * dispatch does not hold the queue lock (and MMIO, commands, VM stop and
 * other queues) for its whole duration: a slice ends after the workgroup
 * that reaches either limit. A workgroup has at most 1024 rows.
 */
#define HSAGPU_KERNEL_SLICE_ROWS    1024U
#define HSAGPU_KERNEL_SLICE_ITEMS   (64U << 10)
/*
 * Streaming kernels on mapped memory (HsaGpuQueueOps.map): a slice ends
 * after the workgroup that reaches HSAGPU_KERNEL_SLICE_ROWS runs of
 * consecutive work-items, or this many bytes read and written, about
 * what a DMA slice moves.
 */
#define HSAGPU_KERNEL_SLICE_BYTES   (8ULL << 20)
/* hsagpu_kernel_exec(): the dispatch needs more slices */
#define HSAGPU_KERNEL_MORE          0x100U

/* Validate a dispatch's geometry, object and kernarg; 0 or HSAGPU_QERR_*. */
unsigned hsagpu_kernel_check(const struct hsagpu_kernel_dispatch_packet *k);
/* The geometry alone (dimensions, sizes) */
unsigned hsagpu_kernel_check_geometry(
    const struct hsagpu_kernel_dispatch_packet *k);
/* One of the HSAGPU_KERNEL_* objects */
bool hsagpu_kernel_builtin(uint64_t kernel_object);
/*
 * hsagpu-gcn-dispatch.c: a kernel_object that is an AMDHSA kernel
 * descriptor the GCN interpreter can run (its parsed form in *@kd);
 * running it: 0, HSAGPU_KERNEL_MORE, or an HSAGPU_QERR_* code.
 */
struct HsaGpuGcnKd;
bool hsagpu_gcn_object(const HsaGpuProc *p,
                       const struct hsagpu_kernel_dispatch_packet *k,
                       struct HsaGpuGcnKd *kd);
unsigned hsagpu_gcn_exec(HsaGpuQueue *q,
                         const struct hsagpu_kernel_dispatch_packet *k,
                         const HsaGpuProc *p, HsaGpuRunResult *res);
/* Free what a queue holds of the interpreter (before it is cleared) */
void hsagpu_queue_gcn_free(HsaGpuQueue *q);
/*
 * Migration of a workgroup in flight: _save puts it in q->gcn_blob (when
 * one is), _load takes it back from there; false: the bytes are not a
 * workgroup the interpreter could have made.
 */
void hsagpu_queue_gcn_save(HsaGpuQueue *q);
bool hsagpu_queue_gcn_load(HsaGpuQueue *q);

/*
 * hsagpu-ctx-save.c, for any command processor: a record of @h's
 * dispatch (the caller fills flags and the HSAGPU_CTX_DISPATCH fields),
 * @grid's workgroups in flight with it, and @gws's counters (non-NULL:
 * HSAGPU_CTX_GWS), in *@rec (g_free it); its length. _parse: the header
 * of untrusted bytes, checked (NULL, or why not); the state follows it.
 * _gws: the record's GWS counters into @gws.
 */
struct hsagpu_ctx_record;
size_t hsagpu_ctx_record_make(struct hsagpu_ctx_record *h,
                              const HsaGpuGcnGrid *grid,
                              const HsaGpuGcnGws *gws, uint8_t **rec);
const char *hsagpu_ctx_record_parse(const uint8_t *rec, size_t len,
                                    struct hsagpu_ctx_record *h);
void hsagpu_ctx_record_gws(const struct hsagpu_ctx_record *h,
                           HsaGpuGcnGws *gws);
/*
 * hsagpu-ctx-save.c: a preempted queue's context (its dispatch part-done
 * at read_index, whose 64-byte @packet the caller read from the ring, and
 * its GWS counters) as a record for its context save area
 * (include/hsagpu/hsagpu_ctx.h), in *@rec (g_free it); its length, 0
 * when there is nothing to save. Leaves the queue's dispatch as it was.
 */
size_t hsagpu_queue_ctx_save(HsaGpuQueue *q, const void *packet,
                             uint8_t **rec);
/*
 * Back into a queue just started at the record's read index (@packet:
 * what its ring holds there now): NULL, or why the record was refused
 * (the queue then starts the dispatch afresh).
 */
const char *hsagpu_queue_ctx_load(HsaGpuQueue *q, const uint8_t *rec,
                                  size_t len, const void *packet);

/*
 * ROCr's blit kernels (hsagpu-blit.c), recognised by their code: the
 * HSAGPU_BLIT_* kind of the code at @kernel_object, or HSAGPU_BLIT_NONE
 * (also when it cannot be read).
 */
#define HSAGPU_BLIT_NONE                0U
#define HSAGPU_BLIT_COPY_ALIGNED        1U
#define HSAGPU_BLIT_COPY_MISALIGNED     2U
#define HSAGPU_BLIT_FILL                3U
unsigned hsagpu_blit_identify(const HsaGpuProc *p, uint64_t kernel_object);
/*
 * Run a slice of blit kernel @k of @kind through the DMA engine,
 * resuming from the queue's blit cursor (blit_off, bytes): 0 when done,
 * HSAGPU_KERNEL_MORE, or an HSAGPU_QERR_* code (*bad_addr: the address
 * to blame, or 0).
 */
unsigned hsagpu_blit_exec(HsaGpuQueue *q,
                          const struct hsagpu_kernel_dispatch_packet *k,
                          unsigned kind, const HsaGpuProc *p,
                          uint64_t *bad_addr);
uint64_t hsagpu_fnv1a64(const void *buf, size_t len);
/* Workgroups per dimension (@nwg) and in all of a checked dispatch. */
uint64_t hsagpu_kernel_workgroups(const struct hsagpu_kernel_dispatch_packet *k,
                                  uint64_t nwg[3]);
/*
 * Run a slice of the built-in kernel @k at @q's read index, resuming from
 * the queue's kernel cursor: 0 when done, HSAGPU_KERNEL_MORE, or an
 * HSAGPU_QERR_* code. For the busy kernel nothing runs: *busy_ns gets
 * its duration.
 */
unsigned hsagpu_kernel_exec(HsaGpuQueue *q,
                            const struct hsagpu_kernel_dispatch_packet *k,
                            const HsaGpuProc *p, uint64_t *busy_ns);

/* DMA packets are served in slices of at most this much work. */
#define HSAGPU_DMA_SLICE_BYTES  (4ULL << 20)
#define HSAGPU_DMA_SLICE_DESCS  1024U
/* 0 when DMA packet @d is well formed, else its HSAGPU_QERR_* code */
unsigned hsagpu_dma_check(const struct hsagpu_dma_packet *d);
/* hsagpu_dma_exec(): the packet needs more slices */
#define HSAGPU_DMA_MORE         0x100U

/*
 * Run a slice of the DMA packet @d at @q's read index, resuming from the
 * queue's DMA cursor: 0 when done, HSAGPU_DMA_MORE, or an HSAGPU_QERR_*
 * code with *bad_addr set when an address is to blame (else 0).
 */
unsigned hsagpu_dma_exec(HsaGpuQueue *q, const struct hsagpu_dma_packet *d,
                         const HsaGpuProc *p, uint64_t *bad_addr);
/*
 * Is the DMA cursor of @q one the device could have made: its latched
 * packet valid and the cursor inside it (migration)? A cursor without a
 * latched packet (a stream from before latching) is checked for bounds.
 */
bool hsagpu_dma_cursor_ok(const HsaGpuQueue *q);
/*
 * PM4_IB vendor packets (hsagpu-pm4.c). Decode the INDIRECT_BUFFER
 * jump of @pk: 0 or HSAGPU_QERR_PM4_IB.
 */
unsigned hsagpu_pm4_ib_decode(const struct hsagpu_pm4_ib_packet *pk,
                              uint64_t *base, uint32_t *ndw);
/*
 * Read and run the indirect buffer of @pk: 0 or an HSAGPU_QERR_* code
 * (nothing is done unless the whole buffer is valid); *cache_invs gets
 * the cache actions (ACQUIRE_MEM) it held.
 */
unsigned hsagpu_pm4_exec(const struct hsagpu_pm4_ib_packet *pk,
                         const HsaGpuProc *p, unsigned *cache_invs);

/*
 * PM4 rings (hsagpu-pm4.c): the command processor's packet engine for
 * the rings a driver hands it (the Vega10 personality's GFX ring, KIQ
 * and compute rings; docs/vega10.md). It reaches memory, registers,
 * interrupts and the KIQ's queue manager through HsaGpuPm4Ops only.
 */
typedef struct HsaGpuPm4Ops {
    /* Memory at GPU address @addr of VMID @vmid: 0 or nonzero (fault) */
    unsigned (*read)(void *opaque, uint32_t vmid, uint64_t addr, void *buf,
                     uint32_t len);
    unsigned (*write)(void *opaque, uint32_t vmid, uint64_t addr,
                      const void *buf, uint32_t len);
    /* Registers by dword offset; NULL: register packets are refused */
    uint32_t (*reg_read)(void *opaque, uint32_t reg);
    void (*reg_write)(void *opaque, uint32_t reg, uint32_t val);
    /* RELEASE_MEM asked for an end-of-pipe interrupt with @ctx_id */
    void (*eop)(void *opaque, uint32_t ctx_id);
    uint64_t (*gpu_clock)(void *opaque);        /* the 100 MHz counter */
    /*
     * The queue packets of a KIQ or a HIQ (SET_RESOURCES, MAP_PROCESS,
     * MAP/UNMAP_QUEUES, QUERY_STATUS, RUN_LIST, INVALIDATE_TLBS), whole:
     * 0 or HSAGPU_PM4_ERR_*. NULL on other rings: refused there.
     */
    unsigned (*queue_packet)(void *opaque, const uint32_t *pkt, uint32_t ndw);
    /*
     * DISPATCH_DIRECT (whole, read in @vmid's space), a slice of it: 0
     * when the dispatch has ended, HSAGPU_PM4_DISPATCH_MORE to be called
     * again with the same packet, else HSAGPU_PM4_ERR_*. NULL: refused.
     */
    unsigned (*dispatch)(void *opaque, uint32_t vmid, const uint32_t *pkt);
    void *opaque;
} HsaGpuPm4Ops;
#define HSAGPU_PM4_DISPATCH_MORE        0x100U

/* Why a ring stopped (HsaGpuPm4Ring.error); the ring does nothing more */
#define HSAGPU_PM4_ERR_TYPE     1U  /* a type-0 or type-1 packet */
#define HSAGPU_PM4_ERR_OPCODE   2U  /* an opcode the device does not run */
#define HSAGPU_PM4_ERR_PACKET   3U  /* a field or length out of range */
#define HSAGPU_PM4_ERR_MEMORY   4U  /* an address that does not translate */
#define HSAGPU_PM4_ERR_IB       5U  /* a bad INDIRECT_BUFFER, or nested */
/*
 * A user's packet (from a process's address space: a user queue's ring,
 * a user IB on a kernel ring) reaching a privileged register
 */
#define HSAGPU_PM4_ERR_PRIV     6U
/* A dispatch failed: its program, or a fault of it (the device logs why) */
#define HSAGPU_PM4_ERR_DISPATCH 7U
#define HSAGPU_PM4_ERR_MAX      HSAGPU_PM4_ERR_DISPATCH

/* Longest packet the engine buffers (a clear state is about 200) */
#define HSAGPU_PM4_PKT_MAX_DW   1024U
/*
 * Preemption meta data waiting for its IB: writes, and their dwords in
 * all (gfx9's CE and DE payloads, one each per IB: 24 dwords)
 */
#define HSAGPU_PM4_META_MAX     4U
#define HSAGPU_PM4_META_DW      64U

typedef struct HsaGpuPm4Ring {
    uint64_t base;              /* GPU address of the ring's dword 0 */
    uint32_t size_dw;           /* a power of two */
    uint32_t vmid;
    /*
     * The graphics ME's ring: its INDIRECT_BUFFER has no VALID bit (the
     * MEC's compute rings set it)
     */
    uint32_t gfx_me;
    uint32_t rptr;              /* next dword to read, < size_dw */
    /* The INDIRECT_BUFFER being run (one level, as gfx9's) */
    uint32_t ib_active;
    uint32_t ib_vmid;
    uint64_t ib_base;
    uint32_t ib_size;           /* dwords */
    uint32_t ib_pos;            /* next dword of the IB */
    /* A write-then-wait WAIT_REG_MEM made its write (once per packet) */
    uint32_t wait_written;
    /* Stopped: HSAGPU_PM4_ERR_*, and the header of the packet */
    uint32_t error;
    uint32_t error_hdr;
    uint64_t packets;           /* packets run (counters, tracing) */
    uint32_t cache_actions;     /* ACQUIRE_MEMs run (not migrated) */
    /*
     * Preemption meta data (WRITE_DATA to DST_SEL 8: the payloads amdgpu
     * keeps in the context save area it maps into every process's VM)
     * belongs to the IB it precedes: it is written in that IB's VMID
     * when the IB starts
     */
    uint32_t meta_n;
    uint64_t meta_addr[HSAGPU_PM4_META_MAX];
    uint32_t meta_len[HSAGPU_PM4_META_MAX];     /* dwords */
    uint32_t meta[HSAGPU_PM4_META_DW];          /* the writes' data */
    /*
     * Bumped by whoever restarts the ring from its registers: a packet
     * that restarts its own ring (a register write, a MAP_QUEUES of
     * itself) ends the run there, the new ring left as started
     */
    uint32_t epoch;
} HsaGpuPm4Ring;

typedef enum HsaGpuPm4Outcome {
    HSAGPU_PM4_IDLE,            /* everything up to the write pointer ran */
    HSAGPU_PM4_WAIT,            /* a WAIT_REG_MEM does not hold yet */
    HSAGPU_PM4_BUDGET,          /* @budget packets ran; more are there */
    HSAGPU_PM4_STOPPED,         /* r->error says why */
} HsaGpuPm4Outcome;

/*
 * Run packets of @r from its read pointer up to @wptr (in dwords; taken
 * modulo the ring's size), at most @budget of them. A packet that is not
 * all below @wptr waits for the rest.
 */
HsaGpuPm4Outcome hsagpu_pm4_ring_run(HsaGpuPm4Ring *r, uint64_t wptr,
                                     const HsaGpuPm4Ops *ops,
                                     unsigned budget);

/* Fill @len bytes with @pattern, starting at byte @phase of it. */
void hsagpu_dma_fill_host(void *dst, uint64_t len, uint32_t pattern,
                          uint64_t phase);
/* TLPs needed for @len bytes at @addr with @max-byte TLPs (power of 2). */
uint64_t hsagpu_tlp_count(uint64_t addr, uint64_t len, uint32_t max);

/*
 * SDMA queues (hsagpu-sdma.c). Registration of an SDMA ring:
 * HSAGPU_QRES_OK or HSAGPU_QRES_BAD_RING.
 */
unsigned hsagpu_sdma_check_ring(const HsaGpuQueue *q);
/*
 * Serve up to @quantum packets of the SDMA queue @q (state ACTIVE or
 * DRAINING); never blocks. A POLL_REGMEM that does not hold yet sets
 * res->poll and ends the turn; a COPY_LINEAR_RECT runs in slices. On a
 * kernel ring (register ops) an INDIRECT's IB runs to its end before
 * the ring goes on, each of its packets counting in the quantum.
 */
void hsagpu_sdma_run(HsaGpuQueue *q, const HsaGpuProc *p, unsigned quantum,
                     HsaGpuRunResult *res);
/* Migration: is the SDMA cursor of @q one the device could have made? */
bool hsagpu_sdma_cursor_ok(const HsaGpuQueue *q);

#endif
