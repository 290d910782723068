/*
 * hsa-gpu: AQL packet processor for one queue, independent of QEMU.
 *
 * Follows the HSA rules: a packet is consumed only once its header type
 * is no longer INVALID; the barrier bit holds a packet until every earlier
 * packet of the queue has completed; barrier-AND/OR packets hold the queue
 * until their dependency signals are satisfied; after a packet has been
 * consumed its header goes back to INVALID and read_dispatch_id advances
 * with a 64-bit FetchAdd AtomicOp. Malformed input puts the queue into the
 * error state with a code and the failing dispatch id.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-cp.h"

/* ------------------------------------------------------------------ */
/* Register block                                                      */
/* ------------------------------------------------------------------ */

unsigned hsagpu_queue_reg_read(const HsaGpuQueue *q, uint32_t reg,
                               uint32_t *val)
{
    switch (reg) {
    case HSAGPU_QREG_RING_LO:
        *val = q->ring_lo;
        break;
    case HSAGPU_QREG_RING_HI:
        *val = q->ring_hi;
        break;
    case HSAGPU_QREG_RING_SIZE:
        *val = q->ring_size;
        break;
    case HSAGPU_QREG_DOORBELL:
        *val = q->doorbell;
        break;
    case HSAGPU_QREG_RPTR_LO:
        *val = q->rptr_lo;
        break;
    case HSAGPU_QREG_RPTR_HI:
        *val = q->rptr_hi;
        break;
    case HSAGPU_QREG_WPTR_LO:
        *val = q->wptr_lo;
        break;
    case HSAGPU_QREG_WPTR_HI:
        *val = q->wptr_hi;
        break;
    case HSAGPU_QREG_PRIORITY:
        *val = q->priority;
        break;
    case HSAGPU_QREG_VECTOR:
        *val = q->vector;
        break;
    case HSAGPU_QREG_FLAGS:
        *val = q->flags;
        break;
    case HSAGPU_QREG_CMD:
        *val = q->cmd_result;
        break;
    case HSAGPU_QREG_STATE:
        *val = q->state | (q->error << HSAGPU_QSTATE_ERR_SHIFT);
        break;
    case HSAGPU_QREG_ERROR_ID_LO:
        *val = (uint32_t)q->error_id;
        break;
    case HSAGPU_QREG_ERROR_ID_HI:
        *val = (uint32_t)(q->error_id >> 32);
        break;
    case HSAGPU_QREG_RETIRED:
        *val = q->retired;
        break;
    default:
        *val = 0;
        return HSAGPU_BAD_REASON_UNMAPPED;
    }
    return 0;
}

unsigned hsagpu_queue_reg_write(HsaGpuQueue *q, uint32_t reg, uint32_t val)
{
    uint32_t *r;

    switch (reg) {
    case HSAGPU_QREG_RING_LO:
        r = &q->ring_lo;
        break;
    case HSAGPU_QREG_RING_HI:
        r = &q->ring_hi;
        break;
    case HSAGPU_QREG_RING_SIZE:
        r = &q->ring_size;
        break;
    case HSAGPU_QREG_DOORBELL:
        r = &q->doorbell;
        break;
    case HSAGPU_QREG_RPTR_LO:
        r = &q->rptr_lo;
        break;
    case HSAGPU_QREG_RPTR_HI:
        r = &q->rptr_hi;
        break;
    case HSAGPU_QREG_WPTR_LO:
        r = &q->wptr_lo;
        break;
    case HSAGPU_QREG_WPTR_HI:
        r = &q->wptr_hi;
        break;
    case HSAGPU_QREG_PRIORITY:
        r = &q->priority;
        break;
    case HSAGPU_QREG_VECTOR:
        r = &q->vector;
        break;
    case HSAGPU_QREG_FLAGS:
        r = &q->flags;
        break;
    case HSAGPU_QREG_CMD:
        return 0;               /* the caller runs the command */
    case HSAGPU_QREG_STATE:
    case HSAGPU_QREG_ERROR_ID_LO:
    case HSAGPU_QREG_ERROR_ID_HI:
    case HSAGPU_QREG_RETIRED:
        return HSAGPU_BAD_REASON_READONLY;
    default:
        return HSAGPU_BAD_REASON_UNMAPPED;
    }
    /* Registration is frozen while the queue is in use. */
    if (q->state != HSAGPU_QSTATE_DISABLED) {
        return HSAGPU_BAD_REASON_READONLY;
    }
    *r = val;
    return 0;
}

unsigned hsagpu_queue_check_registration(const HsaGpuQueue *q,
                                         const HsaGpuIdent *id,
                                         const HsaGpuQueue *all,
                                         unsigned nqueues)
{
    uint64_t ring = hsagpu_reg64(q->ring_lo, q->ring_hi);
    uint64_t rptr = hsagpu_reg64(q->rptr_lo, q->rptr_hi);
    uint64_t wptr = hsagpu_reg64(q->wptr_lo, q->wptr_hi);

    if (q->flags & HSAGPU_QF_SDMA) {
        if (hsagpu_sdma_check_ring(q) != HSAGPU_QRES_OK) {
            return HSAGPU_QRES_BAD_RING;
        }
    } else if (q->ring_size < HSAGPU_QUEUE_RING_MIN ||
               q->ring_size > HSAGPU_QUEUE_RING_MAX ||
               (q->ring_size & (q->ring_size - 1)) ||
               (ring & (HSAGPU_AQL_PACKET_SIZE - 1)) || !ring ||
               ring + (uint64_t)q->ring_size * HSAGPU_AQL_PACKET_SIZE < ring) {
        return HSAGPU_QRES_BAD_RING;
    }
    if ((q->flags & HSAGPU_QF_OWN) && (q->flags & HSAGPU_QF_SDMA)) {
        /*
         * A personality's SDMA ring, as its registers give it: a read
         * pointer address of dwords, the write pointer polled at 8 bytes
         * or given by the personality (none in memory)
         */
        if (!rptr || (rptr & 3) ||
            ((q->flags & HSAGPU_QF_OWN_WPTR) ? wptr != 0
                                               : !wptr || (wptr & 7))) {
            return HSAGPU_QRES_BAD_POINTER;
        }
    } else if (!rptr || !wptr || (rptr & 7) || (wptr & 7)) {
        return HSAGPU_QRES_BAD_POINTER;
    }
    /* amd_queue_t around the read index: aligned, and not below 0 */
    if ((q->flags & HSAGPU_QF_AMD_QUEUE) &&
        (rptr < HSAGPU_QUEUE_DESC_RPTR ||
         ((rptr - HSAGPU_QUEUE_DESC_RPTR) & (HSAGPU_AMD_QUEUE_ALIGN - 1)))) {
        return HSAGPU_QRES_BAD_POINTER;
    }
    if (q->flags & HSAGPU_QF_OWN) {
        /* a personality's own ring: its doorbells are its own */
        if (q->doorbell != HSAGPU_DOORBELL_NONE) {
            return HSAGPU_QRES_BAD_DOORBELL;
        }
    } else if (q->doorbell >= HSAGPU_DOORBELL_COUNT) {
        return HSAGPU_QRES_BAD_DOORBELL;
    }
    for (unsigned i = 0; i < nqueues; i++) {
        if (&all[i] != q && all[i].state != HSAGPU_QSTATE_DISABLED &&
            !(q->flags & HSAGPU_QF_OWN) && all[i].doorbell == q->doorbell) {
            return HSAGPU_QRES_BAD_DOORBELL;
        }
    }
    if (q->vector >= id->msix_vectors) {
        return HSAGPU_QRES_BAD_VECTOR;
    }
    if (q->priority > HSAGPU_QUEUE_PRIORITY_MAX) {
        return HSAGPU_QRES_BAD_PRIORITY;
    }
    if (q->flags & ~(HSAGPU_QF_ALL | HSAGPU_QF_OWN | HSAGPU_QF_OWN_WPTR |
                     HSAGPU_QF_OWN_USER) ||
        ((q->flags & (HSAGPU_QF_OWN_WPTR | HSAGPU_QF_OWN_USER)) &&
         !(q->flags & HSAGPU_QF_OWN))) {
        return HSAGPU_QRES_BAD_FLAGS;
    }
    return HSAGPU_QRES_OK;
}

unsigned hsagpu_queue_check(const HsaGpuQueue *q, const HsaGpuIdent *id,
                            const HsaGpuQueue *all, unsigned nqueues)
{
    if (q->state != HSAGPU_QSTATE_DISABLED) {
        return HSAGPU_QRES_BAD_STATE;
    }
    /* a driver's queue is never one of the device's own */
    if (q->flags & HSAGPU_QF_OWN) {
        return HSAGPU_QRES_BAD_FLAGS;
    }
    /* Latched at ENABLE (as_vmid): later writes do not matter. */
    if (q->vmid >= HSAGPU_VM_NUM_VMIDS) {
        return HSAGPU_QRES_BAD_VMID;
    }
    return hsagpu_queue_check_registration(q, id, all, nqueues);
}

bool hsagpu_queue_loaded_ok(const HsaGpuQueue *q, const HsaGpuIdent *id,
                            const HsaGpuQueue *all, unsigned nqueues)
{
    switch (q->state) {
    case HSAGPU_QSTATE_ACTIVE:
    case HSAGPU_QSTATE_SUSPENDED:
    case HSAGPU_QSTATE_DRAINING:
    case HSAGPU_QSTATE_ERROR:
        break;
    default:
        return false;
    }
    if (hsagpu_queue_check_registration(q, id, all, nqueues) !=
        HSAGPU_QRES_OK) {
        return false;
    }
    if (q->ninflight > HSAGPU_QUEUE_INFLIGHT_MAX ||
        q->error >= HSAGPU_QERR_COUNT ||
        q->as_vmid >= HSAGPU_VM_NUM_VMIDS || q->fetch_wptr > 1) {
        return false;
    }
    /* The fetched write index: one the run would have accepted. */
    if ((q->flags & HSAGPU_QF_SDMA) ?
        (q->seen_wptr & 3) || q->seen_wptr - q->read_index > q->ring_size :
        q->seen_wptr - q->read_index > HSAGPU_QUEUE_RESERVE_MAX) {
        return false;
    }
    if (q->dma_active && !hsagpu_dma_cursor_ok(q)) {
        return false;
    }
    /* a flat workgroup id; bytes of a blit (ROCr's: four phases) */
    if (q->kern_active && (q->kern_wg > HSAGPU_GRID_MAX ||
                           q->blit_off > 4 * HSAGPU_DMA_SIZE_MAX)) {
        return false;
    }
    if ((q->flags & HSAGPU_QF_SDMA) &&
        (q->ninflight || q->dma_active || q->kern_active ||
         !hsagpu_sdma_cursor_ok(q))) {
        return false;
    }
    return true;
}

unsigned hsagpu_queue_xreg_read(const HsaGpuQueue *q, uint32_t reg,
                                uint32_t *val)
{
    switch (reg) {
    case HSAGPU_QXREG_VMID:
        *val = q->vmid;
        return 0;
    case HSAGPU_QXREG_FAULT_ADDR_LO:
        *val = q->vm_fault_addr;
        return 0;
    case HSAGPU_QXREG_FAULT_ADDR_HI:
        *val = q->vm_fault_addr >> 32;
        return 0;
    case HSAGPU_QXREG_FAULT_INFO:
        *val = q->vm_fault_info;
        return 0;
    default:
        *val = 0;
        return HSAGPU_BAD_REASON_UNMAPPED;
    }
}

unsigned hsagpu_queue_xreg_write(HsaGpuQueue *q, uint32_t reg, uint32_t val)
{
    switch (reg) {
    case HSAGPU_QXREG_VMID:
        /* Checked at ENABLE, like the other registration registers. */
        q->vmid = val;
        return 0;
    case HSAGPU_QXREG_FAULT_ADDR_LO:
    case HSAGPU_QXREG_FAULT_ADDR_HI:
    case HSAGPU_QXREG_FAULT_INFO:
        return HSAGPU_BAD_REASON_READONLY;
    default:
        return HSAGPU_BAD_REASON_UNMAPPED;
    }
}

void hsagpu_queue_start(HsaGpuQueue *q, uint64_t read_index)
{
    q->as_vmid = q->vmid;
    q->vm_fault_addr = 0;
    q->vm_fault_info = 0;
    q->ring_base = hsagpu_reg64(q->ring_lo, q->ring_hi);
    q->rptr_addr = hsagpu_reg64(q->rptr_lo, q->rptr_hi);
    q->wptr_addr = hsagpu_reg64(q->wptr_lo, q->wptr_hi);
    q->read_index = read_index;
    /* One fetch at the start: packets written before ENABLE. */
    q->seen_wptr = read_index;
    q->awaiting_header = false;
    q->fetch_wptr = 1;
    q->rptr_unpublished = 0;
    q->ninflight = 0;
    q->dma_active = 0;
    q->kern_active = 0;
    q->sdma_active = 0;
    q->sdma_ib_active = 0;
    q->sdma_poll_written = 0;
    q->error = HSAGPU_QERR_NONE;
    q->error_id = 0;
    q->retired = 0;
    q->state = HSAGPU_QSTATE_ACTIVE;
}

void hsagpu_queue_clear(HsaGpuQueue *q)
{
    uint32_t result = q->cmd_result;

    hsagpu_queue_gcn_free(q);
    memset(q, 0, sizeof(*q));
    q->cmd_result = result;
}

/* ------------------------------------------------------------------ */
/* Packet processing                                                   */
/* ------------------------------------------------------------------ */

/* Publish consumed packets: *read_dispatch_id += n with a FetchAdd. */
static unsigned hsagpu_publish_rptr(HsaGpuQueue *q, const HsaGpuProc *p)
{
    uint64_t old;
    unsigned st;

    if (!q->rptr_unpublished) {
        return 0;
    }
    st = p->ops->fetch_add64(p->opaque, HSAGPU_VM_CLIENT_PACKET, q->rptr_addr,
                             q->rptr_unpublished,
                             &old);
    q->rptr_unpublished = 0;
    return hsagpu_atomic_qerr(st);
}

uint32_t hsagpu_amd_queue_code(unsigned qerr)
{
    switch (qerr) {
    case HSAGPU_QERR_DIMENSIONS:
        return HSAGPU_AMD_QERR_DIMENSIONS;
    case HSAGPU_QERR_KERNEL_OBJECT:
        return HSAGPU_AMD_QERR_CODE_OBJECT;
    case HSAGPU_QERR_PACKET_TYPE:
    case HSAGPU_QERR_ALIGNMENT:
    case HSAGPU_QERR_SIGNAL:
    case HSAGPU_QERR_RING_OVERRUN:
    case HSAGPU_QERR_FENCE:
    case HSAGPU_QERR_UNSUPPORTED:
    case HSAGPU_QERR_AGENT_FUNCTION:
        return HSAGPU_AMD_QERR_PACKET_FORMAT;
    case HSAGPU_QERR_DMA_OP:
    case HSAGPU_QERR_DMA_SIZE:
    case HSAGPU_QERR_DMA_OVERLAP:
    case HSAGPU_QERR_VENDOR_FORMAT:
    case HSAGPU_QERR_PM4_IB:
    case HSAGPU_QERR_PM4_PACKET:
    case HSAGPU_QERR_CONDITION:
        return HSAGPU_AMD_QERR_VENDOR_PACKET;
    case HSAGPU_QERR_ADDRESS:
    case HSAGPU_QERR_ATOMIC:
    case HSAGPU_QERR_P2P_LIMIT:
    case HSAGPU_QERR_POISON:
    case HSAGPU_QERR_VM_FAULT:
        return HSAGPU_AMD_QERR_MEMORY;
    default:
        /* Bus mastering off, device fatal, codes ROCr has no name for */
        return HSAGPU_AMD_QERR_FATAL;
    }
}

/*
 * A signal's event: the queue's MSI-X vector, or with a personality's
 * interrupt (trap: hsa-gpu-vega10's IH) an entry naming the event, as
 * amdkfd reads a gfx9 end-of-pipe's context id
 */
static void hsagpu_queue_event(const HsaGpuProc *p, const HsaGpuQueue *q,
                               uint64_t id)
{
    if (p->ops->trap) {
        p->ops->trap(p->opaque, (uint32_t)id);
    } else {
        p->ops->irq(p->opaque, q->vector);
    }
}

/* amd_queue_t.queue_properties (read once per run), or 0 on an error */
static uint32_t hsagpu_amd_queue_props(HsaGpuQueue *q, const HsaGpuProc *p,
                                       unsigned *err)
{
    uint32_t props = 0;

    *err = 0;
    if (q->amd_props_valid) {
        return q->amd_props;
    }
    *err = p->ops->read(p->opaque, HSAGPU_VM_CLIENT_PACKET,
                        q->rptr_addr - HSAGPU_QUEUE_DESC_RPTR +
                        HSAGPU_AMD_QUEUE_PROPERTIES, &props, sizeof(props));
    if (*err) {
        return 0;
    }
    q->amd_props = props;
    q->amd_props_valid = true;
    return props;
}

void hsagpu_amd_queue_inactive(HsaGpuQueue *q, const HsaGpuProc *p)
{
    uint64_t base = q->rptr_addr - HSAGPU_QUEUE_DESC_RPTR, handle, v;
    struct hsagpu_signal sig;

    /*
     * Best effort: the queue has already failed, and STATE says why; a
     * signal the device cannot reach just goes unwritten.
     */
    if (!(q->flags & HSAGPU_QF_AMD_QUEUE) ||
        p->ops->read(p->opaque, HSAGPU_VM_CLIENT_PACKET,
                     base + HSAGPU_AMD_QUEUE_INACTIVE_SIGNAL, &handle,
                     sizeof(handle)) ||
        !handle || (handle & 7) ||
        p->ops->read(p->opaque, HSAGPU_VM_CLIENT_SIGNAL, handle, &sig,
                     sizeof(sig))) {
        return;
    }
    v = HSAGPU_AMD_QUEUE_ERROR | hsagpu_amd_queue_code(q->error);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (p->ops->write(p->opaque, HSAGPU_VM_CLIENT_SIGNAL,
                      handle + offsetof(struct hsagpu_signal, value),
                      &v, sizeof(v))) {
        return;
    }
    if (sig.event_mailbox_ptr && !(sig.event_mailbox_ptr & 7)) {
        uint64_t id = sig.event_id;

        if (!p->ops->write(p->opaque, HSAGPU_VM_CLIENT_SIGNAL,
                           sig.event_mailbox_ptr, &id, sizeof(id))) {
            hsagpu_queue_event(p, q, id);
        }
    }
}

/*
 * Complete @signal (not 0): timestamps when profiling, release fence,
 * atomic decrement, then the event mailbox and the queue's interrupt. Not
 * inlined: scripts/fuzz's seeds must be seen reaching it.
 */
static __attribute__((noinline)) unsigned
hsagpu_signal_complete(HsaGpuQueue *q, const HsaGpuProc *p, uint64_t signal,
                       uint64_t start, uint64_t end)
{
    struct hsagpu_signal sig;
    uint64_t old;
    unsigned st, err;
    bool profile;

    err = p->ops->read(p->opaque, HSAGPU_VM_CLIENT_SIGNAL, signal, &sig,
                       sizeof(sig));
    if (err) {
        return err;
    }
    profile = q->flags & HSAGPU_QF_PROFILE;
    if (!profile && (q->flags & HSAGPU_QF_AMD_QUEUE)) {
        /* ROCr turns profiling on and off in the descriptor. */
        profile = hsagpu_amd_queue_props(q, p, &err) &
                  HSAGPU_AMD_QUEUE_PROP_PROFILING;
        if (err) {
            return err;
        }
    }
    if (profile) {
        uint64_t ts[2] = { start, end };

        err = p->ops->write(p->opaque, HSAGPU_VM_CLIENT_SIGNAL,
                            signal + offsetof(struct hsagpu_signal, start_ts),
                            ts, sizeof(ts));
        if (err) {
            return err;
        }
    }
    /*
     * Check the mailbox before the decrement: a waiter that sees the
     * value change must also get its event, or see the queue's error.
     */
    if (sig.event_mailbox_ptr) {
        uint64_t probe;

        if (sig.event_mailbox_ptr & 7) {
            return HSAGPU_QERR_ALIGNMENT;
        }
        err = p->ops->read(p->opaque, HSAGPU_VM_CLIENT_SIGNAL,
                           sig.event_mailbox_ptr, &probe, sizeof(probe));
        if (err) {
            return err;
        }
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    st = p->ops->fetch_add64(p->opaque, HSAGPU_VM_CLIENT_SIGNAL,
                             signal + offsetof(struct hsagpu_signal, value),
                             (uint64_t)-1, &old);
    if (st != HSAGPU_ATOMIC_ST_OK) {
        return hsagpu_atomic_qerr(st);
    }
    if (sig.event_mailbox_ptr) {
        uint64_t id = sig.event_id;

        /* Memory that reads but refuses writes: too late to undo. */
        err = p->ops->write(p->opaque, HSAGPU_VM_CLIENT_SIGNAL,
                            sig.event_mailbox_ptr, &id, sizeof(id));
        if (err) {
            return err;
        }
        hsagpu_queue_event(p, q, id);
    }
    return 0;
}

/*
 * A packet finished: publish the read index first, so that whoever sees
 * the signal also sees the slot free, then the signal.
 */
static unsigned hsagpu_packet_done(HsaGpuQueue *q, const HsaGpuProc *p,
                                   uint64_t signal, uint64_t start,
                                   uint64_t end, HsaGpuRunResult *res)
{
    unsigned err = 0;

    /* no call without a signal: the function is kept out of line */
    if (signal) {
        err = hsagpu_publish_rptr(q, p);
        if (!err) {
            err = hsagpu_signal_complete(q, p, signal, start, end);
        }
    }
    q->retired++;
    res->completed++;
    res->progress++;
    return err;
}

/*
 * Finish busy kernels and timed DMA packets whose time is up, oldest
 * end first.
 */
static unsigned hsagpu_retire_inflight(HsaGpuQueue *q, const HsaGpuProc *p,
                                       HsaGpuRunResult *res,
                                       uint64_t *failed_id)
{
    uint64_t now, end;

    if (!q->ninflight) {
        return 0;
    }
    now = p->ops->now_ns(p->opaque);
    while (q->ninflight) {
        unsigned best = 0, err;
        HsaGpuInflight f;

        for (unsigned i = 1; i < q->ninflight; i++) {
            if (q->inflight[i].end_ns < q->inflight[best].end_ns) {
                best = i;
            }
        }
        f = q->inflight[best];
        if (f.end_ns > now) {
            break;
        }
        end = now;
        if (f.link_timed) {
            uint64_t when;

            /* Sharing may have moved the arrival since the launch. */
            if (!p->ops->link_when(p->opaque, q->inflight[best].link_mark,
                                   &when)) {
                q->inflight[best].end_ns = MAX(when, now + 1);
                continue;
            }
            /* Its timestamp is the arrival, not when it was noticed. */
            end = when ? when : f.end_ns;
        }
        q->inflight[best] = q->inflight[--q->ninflight];
        err = hsagpu_packet_done(q, p, f.signal, f.start_ns, end, res);
        if (err) {
            *failed_id = f.dispatch_id;
            return err;
        }
    }
    return 0;
}

unsigned hsagpu_queue_quiesce(HsaGpuQueue *q, const HsaGpuProc *p,
                              HsaGpuRunResult *res)
{
    unsigned err = 0, perr;

    memset(res, 0, sizeof(*res));
    res->deadline = UINT64_MAX;
    while (q->ninflight) {
        HsaGpuInflight f = q->inflight[--q->ninflight];
        unsigned e = hsagpu_packet_done(q, p, f.signal, f.start_ns,
                                        p->ops->now_ns(p->opaque), res);

        err = err ? err : e;
    }
    perr = hsagpu_publish_rptr(q, p);
    return err ? err : perr;
}

/* 1 when the barrier's dependencies hold, 0 when not yet, <0 on error. */
static int hsagpu_barrier_ready(const struct hsagpu_barrier_packet *b,
                                bool is_or, const HsaGpuProc *p,
                                unsigned *err)
{
    unsigned ndeps = 0, nzero = 0;

    for (unsigned i = 0; i < HSAGPU_BARRIER_DEPS; i++) {
        uint64_t h = b->dep_signal[i];
        int64_t v;

        if (!h) {
            continue;
        }
        ndeps++;
        if (h & 7) {
            *err = HSAGPU_QERR_SIGNAL;
            return -1;
        }
        *err = p->ops->read(p->opaque, HSAGPU_VM_CLIENT_SIGNAL,
                            h + offsetof(struct hsagpu_signal, value),
                            &v, sizeof(v));
        if (*err) {
            return -1;
        }
        nzero += v == 0;
    }
    if (!ndeps) {
        return 1;
    }
    return is_or ? nzero > 0 : nzero == ndeps;
}

static unsigned hsagpu_agent_run(const struct hsagpu_agent_dispatch_packet *a,
                                 const HsaGpuProc *p)
{
    uint64_t v;

    switch (a->type) {
    case HSAGPU_AGENT_NOP:
        return 0;
    case HSAGPU_AGENT_TIMESTAMP:
    case HSAGPU_AGENT_WRITE_VALUE:
        if (a->return_address & 7) {
            return HSAGPU_QERR_ALIGNMENT;
        }
        v = a->type == HSAGPU_AGENT_TIMESTAMP ? p->ops->now_ns(p->opaque)
                                              : a->arg[0];
        return p->ops->write(p->opaque, HSAGPU_VM_CLIENT_KERNEL,
                             a->return_address, &v, sizeof(v));
    case HSAGPU_AGENT_COPY_INFO: {
        /* On the stack: each device has its own processor thread. */
        uint8_t rom[4096];

        if (a->return_address & 7) {
            return HSAGPU_QERR_ALIGNMENT;
        }
        hsagpu_rom_build(rom, sizeof(rom), p->ident, "QEMU HSA GPU");
        return p->ops->write(p->opaque, HSAGPU_VM_CLIENT_KERNEL,
                             a->return_address, rom + HSAGPU_ROM_INFO_OFFSET,
                             HSAGPU_ROM_INFO_SIZE);
    }
    default:
        return HSAGPU_QERR_AGENT_FUNCTION;
    }
}

#define HSAGPU_PKT_SIGNAL_OFFSET 56
_Static_assert(offsetof(struct hsagpu_kernel_dispatch_packet,
                        completion_signal) == HSAGPU_PKT_SIGNAL_OFFSET,
               "kernel dispatch completion_signal");
_Static_assert(offsetof(struct hsagpu_barrier_packet, completion_signal) ==
               HSAGPU_PKT_SIGNAL_OFFSET, "barrier completion_signal");
_Static_assert(offsetof(struct hsagpu_agent_dispatch_packet,
                        completion_signal) == HSAGPU_PKT_SIGNAL_OFFSET,
               "agent dispatch completion_signal");
_Static_assert(offsetof(struct hsagpu_dma_packet, completion_signal) ==
               HSAGPU_PKT_SIGNAL_OFFSET, "DMA completion_signal");
_Static_assert(offsetof(struct hsagpu_barrier_value_packet,
                        completion_signal) == HSAGPU_PKT_SIGNAL_OFFSET,
               "BARRIER_VALUE completion_signal");
_Static_assert(offsetof(struct hsagpu_barrier_value_packet, cond) == 32,
               "BARRIER_VALUE cond");

typedef enum {
    PKT_DONE,                   /* consumed and completed */
    PKT_LAUNCHED,               /* consumed, completes later */
    PKT_WAIT,                   /* not consumed: must wait */
    PKT_PARTIAL,                /* not consumed: a slice was done */
    PKT_ERROR,
} HsaGpuPktOutcome;

/* 1 when the BARRIER_VALUE condition holds, 0 when not yet, <0 on error. */
static int hsagpu_barrier_value_ready(
    const struct hsagpu_barrier_value_packet *b, const HsaGpuProc *p,
    unsigned *err)
{
    int64_t v;

    if (b->cond > HSAGPU_SIGNAL_COND_GTE) {
        *err = HSAGPU_QERR_CONDITION;
        return -1;
    }
    if (!b->signal) {
        return 1;
    }
    if (b->signal & 7) {
        *err = HSAGPU_QERR_SIGNAL;
        return -1;
    }
    *err = p->ops->read(p->opaque, HSAGPU_VM_CLIENT_SIGNAL,
                        b->signal + offsetof(struct hsagpu_signal, value),
                        &v, sizeof(v));
    if (*err) {
        return -1;
    }
    v &= b->mask;
    switch (b->cond) {
    case HSAGPU_SIGNAL_COND_EQ:
        return v == b->value;
    case HSAGPU_SIGNAL_COND_NE:
        return v != b->value;
    case HSAGPU_SIGNAL_COND_LT:
        return v < b->value;
    default:
        return v >= b->value;
    }
}

/* AMD's vendor packets (AmdFormat in byte 2), DMA aside. */
static HsaGpuPktOutcome hsagpu_vendor_exec(const HsaGpuProc *p,
                                           const uint8_t *pkt, unsigned *err,
                                           HsaGpuRunResult *res)
{
    switch (pkt[HSAGPU_VENDOR_FORMAT_OFFSET]) {
    case HSAGPU_VENDOR_FORMAT_PM4_IB: {
        struct hsagpu_pm4_ib_packet pk;
        unsigned invs;

        memcpy(&pk, pkt, sizeof(pk));
        *err = hsagpu_pm4_exec(&pk, p, &invs);
        if (*err) {
            return PKT_ERROR;
        }
        res->pm4_ibs++;
        res->cache_invs += invs;
        return PKT_DONE;
    }
    case HSAGPU_VENDOR_FORMAT_BARRIER_VALUE: {
        struct hsagpu_barrier_value_packet b;
        int ready;

        memcpy(&b, pkt, sizeof(b));
        ready = hsagpu_barrier_value_ready(&b, p, err);
        if (ready < 0) {
            return PKT_ERROR;
        }
        if (!ready) {
            /* Like BARRIER_AND: re-checked while other queues run. */
            res->poll = true;
            return PKT_WAIT;
        }
        return PKT_DONE;
    }
    default:
        *err = HSAGPU_QERR_VENDOR_FORMAT;
        return PKT_ERROR;
    }
}

static HsaGpuPktOutcome hsagpu_packet_exec(HsaGpuQueue *q, const HsaGpuProc *p,
                                           const uint8_t *pkt, uint16_t hdr,
                                           uint64_t *signal, unsigned *err,
                                           HsaGpuRunResult *res,
                                           uint64_t *start)
{
    unsigned type = hdr & HSAGPU_PKT_HDR_TYPE_MASK;
    uint64_t busy = 0;
    int ready;

    switch (type) {
    case HSAGPU_PKT_TYPE_KERNEL_DISPATCH:
    case HSAGPU_PKT_TYPE_BARRIER_AND:
    case HSAGPU_PKT_TYPE_BARRIER_OR:
    case HSAGPU_PKT_TYPE_AGENT_DISPATCH:
    case HSAGPU_PKT_TYPE_VENDOR_SPECIFIC:
        break;
    default:
        *err = HSAGPU_QERR_PACKET_TYPE;
        return PKT_ERROR;
    }
    /* Every AQL packet has its completion signal at the same offset. */
    memcpy(signal, pkt + HSAGPU_PKT_SIGNAL_OFFSET, sizeof(*signal));
    if (*signal & 7) {
        *err = HSAGPU_QERR_SIGNAL;
        return PKT_ERROR;
    }

    switch (type) {
    case HSAGPU_PKT_TYPE_KERNEL_DISPATCH: {
        struct hsagpu_kernel_dispatch_packet k;

        memcpy(&k, pkt, sizeof(k));
        if (k.kernel_object == HSAGPU_KERNEL_BUSY &&
            q->ninflight == HSAGPU_QUEUE_INFLIGHT_MAX) {
            return PKT_WAIT;
        }
        if (q->kern_active) {
            *start = q->kern_start_ns;
        }
        if (k.kernel_object != HSAGPU_KERNEL_BUSY) {
            hsagpu_budget_slice(p, res);
        }
        if (!hsagpu_kernel_builtin(k.kernel_object)) {
            /*
             * ROCr's blit kernels (only ROCr's queues have them: others
             * never read memory at an object that is not built in), or
             * an object the device cannot run.
             */
            unsigned kind = (q->flags & HSAGPU_QF_AMD_QUEUE) ?
                            hsagpu_blit_identify(p, k.kernel_object) :
                            HSAGPU_BLIT_NONE;
            uint64_t bad;

            /* else a code object for the GCN interpreter, or unknown */
            *err = kind ? hsagpu_blit_exec(q, &k, kind, p, &bad)
                        : hsagpu_gcn_exec(q, &k, p, res);
        } else {
            *err = hsagpu_kernel_exec(q, &k, p, &busy);
        }
        if (*err == HSAGPU_KERNEL_MORE) {
            /* Let other queues and commands in between slices. */
            *err = 0;
            res->progress++;
            return PKT_PARTIAL;
        }
        if (*err) {
            return PKT_ERROR;
        }
        if (k.kernel_object == HSAGPU_KERNEL_BUSY) {
            HsaGpuInflight *f = &q->inflight[q->ninflight++];

            f->start_ns = p->ops->now_ns(p->opaque);
            f->end_ns = f->start_ns + busy < f->start_ns ? UINT64_MAX
                                                         : f->start_ns + busy;
            f->signal = *signal;
            f->dispatch_id = q->read_index;
            f->link_timed = false;
            return PKT_LAUNCHED;
        }
        return PKT_DONE;
    }
    case HSAGPU_PKT_TYPE_BARRIER_AND:
    case HSAGPU_PKT_TYPE_BARRIER_OR: {
        struct hsagpu_barrier_packet b;

        memcpy(&b, pkt, sizeof(b));
        ready = hsagpu_barrier_ready(&b, type == HSAGPU_PKT_TYPE_BARRIER_OR,
                                     p, err);
        if (ready < 0) {
            return PKT_ERROR;
        }
        if (!ready) {
            res->poll = true;
            return PKT_WAIT;
        }
        return PKT_DONE;
    }
    case HSAGPU_PKT_TYPE_AGENT_DISPATCH: {
        struct hsagpu_agent_dispatch_packet a;

        memcpy(&a, pkt, sizeof(a));
        *err = hsagpu_agent_run(&a, p);
        return *err ? PKT_ERROR : PKT_DONE;
    }
    case HSAGPU_PKT_TYPE_VENDOR_SPECIFIC: {
        struct hsagpu_dma_packet d;
        uint64_t bad;

        /* A DMA packet started keeps its latched copy, whatever the slot. */
        if (!q->dma_active &&
            pkt[HSAGPU_VENDOR_FORMAT_OFFSET] != HSAGPU_VENDOR_FORMAT_DMA) {
            return hsagpu_vendor_exec(p, pkt, err, res);
        }
        memcpy(&d, pkt, sizeof(d));
        if (q->dma_active) {
            *start = q->dma_start_ns;
        } else {
            q->dma_start_ns = *start;
            /* Timed, it completes later: in a slot of its own. */
            q->dma_timed = p->ops->link_begin &&
                           p->ops->link_begin(p->opaque, *start, &d);
            if (q->dma_timed && q->ninflight == HSAGPU_QUEUE_INFLIGHT_MAX) {
                p->ops->link_end(p->opaque, NULL);
                q->dma_timed = false;
                return PKT_WAIT;
            }
        }
        hsagpu_budget_slice(p, res);
        *err = hsagpu_dma_exec(q, &d, p, &bad);
        if (*err == HSAGPU_DMA_MORE) {
            *err = 0;
            res->progress++;
            return PKT_PARTIAL;
        }
        if (*err) {
            if (q->dma_timed) {
                p->ops->link_end(p->opaque, NULL);
                q->dma_timed = false;
            }
            return PKT_ERROR;
        }
        /* The packet that ran, not what the slot holds now. */
        *signal = q->dma_pkt.completion_signal;
        if (q->dma_timed) {
            HsaGpuInflight *f = &q->inflight[q->ninflight];
            uint64_t end = p->ops->link_end(p->opaque, f->link_mark);

            q->dma_timed = false;
            if (end) {
                /* Done when its data arrives (hsagpu_retire_inflight). */
                f->start_ns = *start;
                f->end_ns = MAX(end, *start);
                f->signal = *signal;
                f->dispatch_id = q->read_index;
                f->link_timed = true;
                q->ninflight++;
                return PKT_LAUNCHED;
            }
        }
        return PKT_DONE;
    }
    }
    return PKT_ERROR;           /* not reached: checked above */
}

/* Process the packet at the read index: 1 consumed, 0 stop, -1 error. */
static int hsagpu_queue_step(HsaGpuQueue *q, const HsaGpuProc *p,
                             uint64_t wptr, HsaGpuRunResult *res,
                             unsigned *err, uint64_t *failed_id)
{
    uint64_t slot = q->ring_base +
                    (q->read_index & (q->ring_size - 1)) *
                    HSAGPU_AQL_PACKET_SIZE;
    uint8_t pkt[HSAGPU_AQL_PACKET_SIZE];
    uint16_t hdr, invalid = HSAGPU_PKT_TYPE_INVALID;
    uint64_t signal = 0, start;
    HsaGpuPktOutcome outcome;
    uint32_t word;
    unsigned type;
    bool timed;

    *failed_id = q->read_index;
    /*
     * Producers may reserve slots beyond the free space and wait for them
     * (HSA allows it), so only an index behind the read index, or one no
     * producer could have reserved, is an overrun.
     */
    if (wptr - q->read_index > HSAGPU_QUEUE_RESERVE_MAX) {
        *err = HSAGPU_QERR_RING_OVERRUN;
        return -1;
    }
    /* Header first; the body is only valid once the header is. */
    *err = p->ops->read(p->opaque, HSAGPU_VM_CLIENT_PACKET, slot, &word,
                        sizeof(word));
    if (*err) {
        return -1;
    }
    hdr = (uint16_t)word;
    if ((hdr & HSAGPU_PKT_HDR_TYPE_MASK) == HSAGPU_PKT_TYPE_INVALID) {
        /* Reserved, not written yet: its header is what to watch. */
        q->awaiting_header = true;
        return 0;
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    *err = p->ops->read(p->opaque, HSAGPU_VM_CLIENT_PACKET, slot, pkt,
                        sizeof(pkt));
    if (*err) {
        return -1;
    }
    memcpy(pkt, &word, sizeof(word));
    if (((hdr >> HSAGPU_PKT_HDR_ACQUIRE_SHIFT) & HSAGPU_PKT_HDR_SCOPE_MASK) >
        HSAGPU_FENCE_SCOPE_SYSTEM ||
        ((hdr >> HSAGPU_PKT_HDR_RELEASE_SHIFT) & HSAGPU_PKT_HDR_SCOPE_MASK) >
        HSAGPU_FENCE_SCOPE_SYSTEM) {
        *err = HSAGPU_QERR_FENCE;
        return -1;
    }
    if ((hdr & HSAGPU_PKT_HDR_BARRIER) && q->ninflight) {
        return 0;
    }
    /*
     * Timestamps are for completion signals (profiling) and for kernels
     * and DMA, which latch their start: a barrier without a signal, the
     * bulk of a batch, needs none.
     */
    memcpy(&signal, pkt + HSAGPU_PKT_SIGNAL_OFFSET, sizeof(signal));
    type = hdr & HSAGPU_PKT_HDR_TYPE_MASK;
    timed = signal || type == HSAGPU_PKT_TYPE_KERNEL_DISPATCH ||
            type == HSAGPU_PKT_TYPE_VENDOR_SPECIFIC;
    start = timed ? p->ops->now_ns(p->opaque) : 0;
    outcome = hsagpu_packet_exec(q, p, pkt, hdr, &signal, err, res, &start);
    switch (outcome) {
    case PKT_WAIT:
    case PKT_PARTIAL:
        return 0;
    case PKT_ERROR:
        return -1;
    case PKT_LAUNCHED:
    case PKT_DONE:
        break;
    }
    /* Consumed: free the slot for producers. */
    *err = p->ops->write(p->opaque, HSAGPU_VM_CLIENT_PACKET, slot, &invalid,
                         sizeof(invalid));
    if (*err) {
        return -1;
    }
    q->read_index++;
    q->rptr_unpublished++;
    hsagpu_budget_packet(p);
    /*
     * A cursor belongs to the packet it was started for, even when the
     * slot was rewritten as another packet type in the meantime.
     */
    q->kern_active = 0;
    q->dma_active = 0;
    if (outcome == PKT_LAUNCHED) {
        res->progress++;        /* a busy kernel: completes later */
        return 1;
    }
    *err = hsagpu_packet_done(q, p, signal, start,
                              signal ? p->ops->now_ns(p->opaque) : 0, res);
    if (*err) {
        *failed_id = q->read_index - 1;
        return -1;
    }
    return 1;
}

void hsagpu_queue_run(HsaGpuQueue *q, const HsaGpuProc *p, unsigned quantum,
                      HsaGpuRunResult *res)
{
    uint64_t wptr, failed_id;
    unsigned err = 0;

    memset(res, 0, sizeof(*res));
    res->deadline = UINT64_MAX;
    q->amd_props_valid = false;
    if (q->state != HSAGPU_QSTATE_ACTIVE &&
        q->state != HSAGPU_QSTATE_DRAINING &&
        q->state != HSAGPU_QSTATE_SUSPENDED) {
        return;
    }
    if (q->flags & HSAGPU_QF_SDMA) {
        /* Nothing runs in the background on an SDMA ring. */
        if (q->state != HSAGPU_QSTATE_SUSPENDED && quantum) {
            hsagpu_sdma_run(q, p, quantum, res);
        }
        return;
    }
    /* Work already launched finishes even while suspended. */
    err = hsagpu_retire_inflight(q, p, res, &failed_id);
    if (err) {
        goto fail;
    }
    if (q->state == HSAGPU_QSTATE_SUSPENDED) {
        goto out;
    }
    err = hsagpu_queue_wptr(q, p, &wptr);
    if (err) {
        failed_id = q->read_index;
        goto fail;
    }
    q->awaiting_header = false;
    while (res->progress < quantum && q->read_index != wptr &&
           !hsagpu_budget_spent(p)) {
        int r = hsagpu_queue_step(q, p, wptr, res, &err, &failed_id);

        if (r < 0) {
            goto fail;
        }
        if (r == 0) {
            break;
        }
    }
    err = hsagpu_publish_rptr(q, p);
    if (err) {
        failed_id = q->read_index - 1;
        goto fail;
    }
    if (q->state == HSAGPU_QSTATE_DRAINING && q->read_index == wptr &&
        !q->ninflight) {
        q->state = HSAGPU_QSTATE_SUSPENDED;
    }
out:
    for (unsigned i = 0; i < q->ninflight; i++) {
        res->deadline = MIN(res->deadline, q->inflight[i].end_ns);
    }
    return;
fail:
    /* Keep read_dispatch_id right for the packets that did complete. */
    hsagpu_publish_rptr(q, p);
    hsagpu_queue_fail(q, err, failed_id);
    hsagpu_amd_queue_inactive(q, p);
    res->error = true;
}

/* ------------------------------------------------------------------ */
/* Scheduling                                                          */
/* ------------------------------------------------------------------ */

void hsagpu_sched_pass(HsaGpuQueue *queues, const uint16_t *active,
                       unsigned nactive, unsigned *rr, const HsaGpuProc *p,
                       unsigned quantum, bool bus_master,
                       void (*failed)(void *opaque, unsigned qi),
                       void *opaque, HsaGpuPassResult *pass)
{
    bool served = false;
    unsigned i = 0;

    memset(pass, 0, sizeof(*pass));
    pass->deadline = UINT64_MAX;
    while (i < nactive) {
        uint32_t prio = queues[active[i]].priority;
        unsigned n = 0, level_progress = 0, k;

        while (i + n < nactive && queues[active[i + n]].priority == prio) {
            n++;
        }
        for (k = 0; k < n; k++) {
            unsigned qi = active[i + (rr[prio] + k) % n];
            HsaGpuQueue *q = &queues[qi];
            HsaGpuRunResult res;

            if (hsagpu_budget_spent(p)) {
                break;
            }
            if (q->state == HSAGPU_QSTATE_ERROR || q->held) {
                continue;
            }
            if (p->ops->select) {
                p->ops->select(p->opaque, qi);
            }
            if (served) {
                /*
                 * A level below one that works: its packets wait, but
                 * work already finished must not, so busy kernels whose
                 * time is up still complete their signals.
                 */
                if (!q->ninflight || !bus_master) {
                    continue;
                }
                hsagpu_queue_run(q, p, 0, &res);
            } else if (!bus_master) {
                /* The device cannot reach the queue's memory any more. */
                hsagpu_queue_fail(q, HSAGPU_QERR_NO_BUS_MASTER,
                                  q->read_index);
                failed(opaque, qi);
                continue;
            } else {
                hsagpu_queue_run(q, p, quantum, &res);
                level_progress += res.progress;
            }
            pass->progress += res.progress;
            pass->completed += res.completed;
            pass->slices += res.slices;
            if (res.error) {
                failed(opaque, qi);
            }
            pass->poll |= res.poll;
            pass->deadline = MIN(pass->deadline, res.deadline);
            pass->pm4_ibs += res.pm4_ibs;
            pass->cache_invs += res.cache_invs;
            pass->gcn_insns += res.gcn_insns;
            pass->gcn_lane_ops += res.gcn_lane_ops;
            pass->gcn_vgpr_oor += res.gcn_vgpr_oor;
            pass->gcn_waves += res.gcn_waves;
            pass->gcn_cleared_max = MAX(pass->gcn_cleared_max,
                                        res.gcn_cleared_max);
        }
        if (k < n) {
            /* Spent: the next pass starts at the queue not served. */
            if (!served) {
                rr[prio] += k;
            }
            pass->ended = true;
            return;
        }
        if (!served) {
            rr[prio]++;
            served = level_progress > 0;
        }
        i += n;
    }
    pass->ended = hsagpu_budget_spent(p);
}
