/*
 * hsa-gpu, Vega10 personality: the command processor's rings, as
 * amdgpu's gfx_v9_0.c drives them, independent of QEMU. The GFX ring
 * (RB0) and the MEC queues (the KIQ and the kernel's compute rings) are
 * PM4 rings: their packets run on the one PM4 engine (cp/hsagpu-pm4.c).
 * This file keeps each ring's state from its registers (latched when the
 * ring starts: CP_ME_CNTL un-halted, CP_HQD_ACTIVE set, a MAP_QUEUES),
 * takes write pointers from doorbells and registers, reports read
 * pointers, and runs the KIQ's queue packets.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "vega10.h"

/* The ring a PM4 callback is for */
typedef struct V10RingCtx {
    HsaGpuV10 *v;
    const HsaGpuV10CpOps *ops;
    unsigned ri;                /* index into v->ring */
} V10RingCtx;

static uint64_t v10_reg64(const uint32_t *lo)
{
    return (uint64_t)lo[1] << 32 | lo[0];
}

/* The HQD bank of ring @ri (an MEC queue) */
static uint32_t *v10_bank(HsaGpuV10 *v, unsigned ri)
{
    return v->hqd[ri];
}

#define V10_HQD(bank, reg)      ((bank)[(reg) - V10_HQD_FIRST])

/* Ring @ri's ME/pipe/queue, as the EOP interrupt names it */
void hsagpu_v10_ring_id(unsigned ri, unsigned *me, unsigned *pipe,
                        unsigned *queue)
{
    if (ri == V10_RING_GFX) {
        *me = *pipe = *queue = 0;
        return;
    }
    *me = ri / (V10_MEC_PIPES * V10_MEC_QUEUES) + 1;
    *pipe = ri / V10_MEC_QUEUES % V10_MEC_PIPES;
    *queue = ri % V10_MEC_QUEUES;
}

/* log2 of a ring's dwords from a 6-bit size field: 2^(field + 1) */
static uint32_t v10_ring_dw(uint32_t field)
{
    field &= 0x3f;
    /* beyond 2^22 dwords (16 MiB) no driver asks: refused as no ring */
    return field < V10_RING_DW_LOG2_MAX ? 2u << field : 0;
}

/* A ring about to start afresh: a run of it in progress must notice */
static void v10_ring_clear(HsaGpuV10Ring *r)
{
    uint32_t epoch = r->pm4.epoch + 1;

    memset(r, 0, sizeof(*r));
    r->pm4.epoch = epoch;
}

void hsagpu_v10_cp_gfx_start(HsaGpuV10 *v, bool on)
{
    HsaGpuV10Ring *r = &v->ring[V10_RING_GFX];
    uint32_t db = v->reg[V10_CP_RB_DOORBELL_CONTROL];

    if (!on) {
        r->active = 0;
        r->held = false;
        r->pm4.epoch++;
        return;
    }
    if (r->active) {
        return;
    }
    v10_ring_clear(r);
    r->pm4.base = (uint64_t)v->reg[V10_CP_RB0_BASE] << 8 |
                  (uint64_t)v->reg[V10_CP_RB0_BASE_HI] << 40;
    r->pm4.size_dw = v10_ring_dw(v->reg[V10_CP_RB0_CNTL]);
    r->pm4.gfx_me = 1;
    r->rptr_addr = v10_reg64(&v->reg[V10_CP_RB0_RPTR_ADDR]) & ~3ULL;
    r->wptr = v10_reg64(&v->reg[V10_CP_RB0_WPTR]);
    r->doorbell = db & V10_DOORBELL_EN ? V10_DOORBELL_OFFSET(db)
                                       : V10_NO_DOORBELL;
    r->active = r->pm4.size_dw != 0;
    v->reg[V10_CP_RB0_RPTR] = 0;
    v->kick = true;
}

bool hsagpu_v10_cp_hqd_stop(HsaGpuV10 *v, unsigned ri, bool save)
{
    HsaGpuV10Ring *r = &v->ring[ri];
    uint32_t *b = v10_bank(v, ri);
    bool ok = true;

    if (r->active) {
        /*
         * the queue's state goes back to its registers (and from them to
         * its MQD): both pointers, so that a map restores them together
         */
        if (!r->aql) {
            V10_HQD(b, V10_CP_HQD_PQ_RPTR) = r->pm4.rptr;
            V10_HQD(b, V10_CP_HQD_PQ_WPTR_LO) = (uint32_t)r->wptr;
            V10_HQD(b, V10_CP_HQD_PQ_WPTR_HI) = r->wptr >> 32;
        }
        /*
         * an AQL queue's work in flight is saved now (CWSR), not at the
         * next sync: the caller may write the registers to the MQD next
         */
        if (r->aql && r->aql_run && v->ops.aql_stop) {
            v->ops.aql_stop(v->ops.opaque, ri, save);
            r->aql_run = 0;
        }
        V10_HQD(b, V10_CP_HQD_ACTIVE) &= ~1u;
        if (save) {
            ok = hsagpu_v10_hqd_save(v, ri);
        }
        v->aql_dirty |= r->aql;
        r->active = 0;
        r->pm4.epoch++;
    }
    r->held = false;
    V10_HQD(b, V10_CP_HQD_ACTIVE) &= ~1u;
    return ok;
}

bool hsagpu_v10_cp_hqd_start(HsaGpuV10 *v, unsigned ri, bool on)
{
    HsaGpuV10Ring *r = &v->ring[ri];
    uint32_t *b = v10_bank(v, ri);
    uint32_t db = V10_HQD(b, V10_CP_HQD_PQ_DOORBELL_CONTROL);

    if (!on) {
        hsagpu_v10_cp_hqd_stop(v, ri, false);
        return true;
    }
    V10_HQD(b, V10_CP_HQD_ACTIVE) |= 1;
    if (r->active) {
        return true;
    }
    v10_ring_clear(r);
    r->pm4.base = (uint64_t)V10_HQD(b, V10_CP_HQD_PQ_BASE) << 8 |
                  (uint64_t)V10_HQD(b, V10_CP_HQD_PQ_BASE + 1) << 40;
    r->pm4.size_dw = v10_ring_dw(V10_HQD(b, V10_CP_HQD_PQ_CONTROL));
    r->pm4.vmid = V10_HQD(b, V10_CP_HQD_VMID) & 0xf;
    r->pm4.rptr = V10_HQD(b, V10_CP_HQD_PQ_RPTR) &
                  (r->pm4.size_dw ? r->pm4.size_dw - 1 : 0);
    r->rptr_addr = v10_reg64(&V10_HQD(b, V10_CP_HQD_PQ_RPTR_REPORT_ADDR)) &
                   ~3ULL;
    r->wptr_addr = v10_reg64(&V10_HQD(b, V10_CP_HQD_PQ_WPTR_POLL_ADDR)) &
                   ~7ULL;
    r->wptr = v10_reg64(&V10_HQD(b, V10_CP_HQD_PQ_WPTR_LO));
    r->doorbell = db & V10_DOORBELL_EN ? V10_DOORBELL_OFFSET(db)
                                       : V10_NO_DOORBELL;
    r->active = r->pm4.size_dw != 0;
    /*
     * AQL queues (amdkfd's user queues) are the queue processor's: the
     * device starts one from these fields (aql_dirty); the read pointer
     * report is the queue's read_dispatch_id, 8-byte aligned
     */
    if (V10_HQD(b, V10_CP_HQD_AQL_CONTROL) & 1) {
        r->aql = 1;
        r->rptr_addr = v10_reg64(&V10_HQD(b, V10_CP_HQD_PQ_RPTR_REPORT_ADDR));
        v->aql_dirty = true;
        return true;
    }
    v->kick = true;
    /* a PM4 queue goes on where it was preempted */
    return !r->active || hsagpu_v10_hqd_load(v, ri);
}

void hsagpu_v10_cp_fetch_wptr(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                              unsigned ri)
{
    HsaGpuV10Ring *r = &v->ring[ri];
    uint64_t wptr;

    if (r->active && !r->aql && r->wptr_addr &&
        !ops->read(ops->opaque, r->pm4.vmid, r->wptr_addr, &wptr, 8)) {
        r->wptr = wptr;
        v->kick = true;
    }
}

void hsagpu_v10_cp_wptr(HsaGpuV10 *v, unsigned ri, uint64_t wptr)
{
    if (v->ring[ri].active) {
        v->ring[ri].wptr = wptr;
        v->kick = true;
    }
}

bool hsagpu_v10_cp_doorbell(HsaGpuV10 *v, uint32_t dw, uint64_t val)
{
    bool hit = false;

    for (unsigned ri = 0; ri < V10_NUM_RINGS; ri++) {
        /* (an AQL queue's doorbell is the processor's: the glue's) */
        if (v->ring[ri].active && !v->ring[ri].aql &&
            v->ring[ri].doorbell == dw) {
            hsagpu_v10_cp_wptr(v, ri, val);
            hit = true;
        }
    }
    return hit;
}

/* PM4 callbacks: memory through the GFXHUB, the front end's registers */
static unsigned v10_pm4_read(void *opaque, uint32_t vmid, uint64_t addr,
                             void *buf, uint32_t len)
{
    V10RingCtx *c = opaque;

    return c->ops->read(c->ops->opaque, vmid, addr, buf, len);
}

static unsigned v10_pm4_write(void *opaque, uint32_t vmid, uint64_t addr,
                              const void *buf, uint32_t len)
{
    V10RingCtx *c = opaque;

    return c->ops->write(c->ops->opaque, vmid, addr, buf, len);
}

static uint32_t v10_pm4_reg_read(void *opaque, uint32_t reg)
{
    V10RingCtx *c = opaque;

    /* a compute queue's dispatch state is its own, as in its MQD */
    if (hsagpu_v10_compute_reg(reg)) {
        return c->v->ring[c->ri].compute[reg - V10_COMPUTE_FIRST];
    }
    return reg < V10_NREGS ? c->ops->reg_read(c->ops->opaque, reg) : 0;
}

static void v10_pm4_reg_write(void *opaque, uint32_t reg, uint32_t val)
{
    V10RingCtx *c = opaque;

    if (hsagpu_v10_compute_reg(reg)) {
        c->v->ring[c->ri].compute[reg - V10_COMPUTE_FIRST] = val;
    } else if (reg < V10_NREGS) {
        c->ops->reg_write(c->ops->opaque, reg, val);
    }
}

static unsigned v10_pm4_dispatch(void *opaque, uint32_t vmid,
                                 const uint32_t *pk)
{
    V10RingCtx *c = opaque;

    return hsagpu_v10_dispatch(c->v, c->ri, c->ops, vmid, pk);
}

static uint64_t v10_pm4_clock(void *opaque)
{
    V10RingCtx *c = opaque;

    return c->v->ops.clock ? c->v->ops.clock(c->v->ops.opaque) : 0;
}

/*
 * Interrupt @src of ring @ri, if its pipe has it enabled (@enable of
 * CP_INT_CNTL_RING0, or of the MEC pipe's CP_MEn_PIPEm_INT_CNTL)
 */
static void v10_cp_irq(HsaGpuV10 *v, const HsaGpuV10CpOps *ops, unsigned ri,
                       unsigned src, uint32_t enable, uint32_t ctx_id)
{
    unsigned me, pipe, queue;
    uint32_t cntl;

    hsagpu_v10_ring_id(ri, &me, &pipe, &queue);
    cntl = me ? v->reg[V10_CP_ME1_PIPE0_INT_CNTL +
                       (me - 1) * V10_MEC_PIPES + pipe]
              : v->reg[V10_CP_INT_CNTL_RING0];
    if ((cntl & enable) && ops->irq) {
        ops->irq(ops->opaque, src, me, pipe, queue, v->ring[ri].pm4.vmid,
                 ctx_id);
    }
}

/* An end-of-pipe interrupt, if the ring's pipe has them enabled */
static void v10_pm4_eop(void *opaque, uint32_t ctx_id)
{
    V10RingCtx *c = opaque;

    c->v->eops++;
    v10_cp_irq(c->v, c->ops, c->ri, V10_IV_SRC_CP_EOP,
               V10_CP_TIME_STAMP_INT_ENABLE, ctx_id);
}

/*
 * Ring @ri stopped at a packet the CP refuses (@err): raise what gfx9's
 * CP raises, so that the driver learns which queue of which process (the
 * entry's ring and VMID, hence PASID) went wrong instead of waiting on it.
 * A register write an unprivileged queue may not make: CP_PRIV_REG_FAULT.
 * A packet of a type, opcode or field the CP does not take, or a bad IB:
 * CP_BAD_OPCODE, its context the queue's doorbell index in its process's
 * page ([9:0]) and the runtime's exception code ([25:10],
 * EC_QUEUE_PACKET_*). A memory error raised its VM fault at the access;
 * a dispatch the interpreter refuses raises nothing (on gfx9 the shader's
 * trap would).
 */
void hsagpu_v10_cp_fault(HsaGpuV10 *v, const HsaGpuV10CpOps *ops, unsigned ri,
                         uint32_t err)
{
    const HsaGpuV10Ring *r = &v->ring[ri];
    uint32_t db = r->doorbell == V10_NO_DOORBELL ? 0 :
                  (r->doorbell / 2) & V10_CP_FAULT_DOORBELL_MASK;
    uint32_t ec;

    switch (err) {
    case HSAGPU_PM4_ERR_PRIV:
        v->cp_faults++;
        v10_cp_irq(v, ops, ri, V10_IV_SRC_CP_PRIV_REG,
                   V10_CP_PRIV_REG_INT_ENABLE, db);
        return;
    case HSAGPU_PM4_ERR_TYPE:
    case HSAGPU_PM4_ERR_OPCODE:
        ec = V10_EC_QUEUE_PACKET_UNSUPPORTED;
        break;
    case HSAGPU_PM4_ERR_PACKET:
    case HSAGPU_PM4_ERR_IB:
        ec = V10_EC_QUEUE_PACKET_RESERVED;
        break;
    default:
        return;
    }
    v->cp_faults++;
    v10_cp_irq(v, ops, ri, V10_IV_SRC_CP_BAD_OPCODE,
               V10_CP_OPCODE_ERROR_INT_ENABLE,
               db | ec << V10_CP_FAULT_EC_SHIFT);
}

/* MAP_QUEUES: an MEC queue loaded from its MQD and started */
static unsigned v10_map_queues(V10RingCtx *c, const uint32_t *pk)
{
    HsaGpuV10 *v = c->v;
    unsigned queue = (pk[1] >> 13) & 7, pipe = (pk[1] >> 16) & 3;
    unsigned me = ((pk[1] >> 18) & 3) + 1, engine = (pk[1] >> 26) & 7;
    uint64_t mqd = (uint64_t)pk[4] << 32 | pk[3];
    unsigned ri;

    /*
     * One compute queue at a time, as amdgpu maps its rings (engine 0)
     * and amdkfd its HIQ (engine 1, a PM4 ring too)
     */
    if (engine > HSAGPU_PM4_ENGINE_HIQ || HSAGPU_PM4_MQ_NUM(pk[1]) != 1 ||
        me > V10_MEC_NUM || HSAGPU_PM4_MQ_QUEUE_SEL(pk[1]) || (mqd & 3)) {
        return HSAGPU_PM4_ERR_PACKET;
    }
    ri = V10_HQD_INDEX(me, pipe, queue);
    /* the HIQ's packets are the scheduler's (vega10-hws.c) */
    if (engine == HSAGPU_PM4_ENGINE_HIQ) {
        v->hws.hiq_ring = ri;
    } else if (v->hws.hiq_ring == ri) {
        v->hws.hiq_ring = V10_NUM_RINGS;
    }
    hsagpu_v10_cp_hqd_start(v, ri, false);
    if (c->ops->read(c->ops->opaque, 0, mqd + V10_MQD_HQD_DW * 4,
                     v10_bank(v, ri), V10_HQD_NREGS * 4)) {
        return HSAGPU_PM4_ERR_MEMORY;
    }
    /* the packet's MQD, doorbell and write pointer address win */
    V10_HQD(v10_bank(v, ri), V10_CP_MQD_BASE_ADDR) = mqd;
    V10_HQD(v10_bank(v, ri), V10_CP_MQD_BASE_ADDR + 1) = mqd >> 32;
    V10_HQD(v10_bank(v, ri), V10_CP_HQD_PQ_DOORBELL_CONTROL) =
        (pk[2] & 0x0ffffffc) | V10_DOORBELL_EN;
    V10_HQD(v10_bank(v, ri), V10_CP_HQD_PQ_WPTR_POLL_ADDR) = pk[5];
    V10_HQD(v10_bank(v, ri), V10_CP_HQD_PQ_WPTR_POLL_ADDR + 1) = pk[6];
    if (!hsagpu_v10_cp_hqd_start(v, ri, true)) {
        hsagpu_v10_cp_hqd_stop(v, ri, false);
        return HSAGPU_PM4_ERR_MEMORY;
    }
    hsagpu_v10_cp_fetch_wptr(v, c->ops, ri);
    v->maps++;
    return 0;
}

/* UNMAP_QUEUES of compute queues: by doorbell, or all of them */
static unsigned v10_unmap_queues(V10RingCtx *c, const uint32_t *pk)
{
    HsaGpuV10 *v = c->v;
    unsigned action = pk[1] & 3, sel = (pk[1] >> 4) & 3;
    unsigned n = (pk[1] >> 29) & 7;

    if (((pk[1] >> 26) & 7) != 0) {
        return HSAGPU_PM4_ERR_PACKET;
    }
    if (action == 3) {
        /* preempt without unmapping: done at once, the fence says so */
        uint64_t a = (uint64_t)pk[4] << 32 | pk[3];
        uint32_t seq = pk[5];

        return a && c->ops->write(c->ops->opaque, 0, a & ~3ULL, &seq, 4) ?
               HSAGPU_PM4_ERR_MEMORY : 0;
    }
    for (unsigned ri = 0; ri < V10_NUM_HQD; ri++) {
        bool hit = false;

        if (!v->ring[ri].active || ri == v->kiq_ring) {
            continue;
        }
        if (sel >= 2) {
            hit = true;
        } else if (sel == 0) {
            for (unsigned i = 0; i < n && i < 4; i++) {
                hit |= V10_DOORBELL_OFFSET(pk[2 + i]) == v->ring[ri].doorbell;
            }
        }
        if (hit) {
            /* PREEMPT_QUEUES saves what runs; RESET_QUEUES (1) drops it */
            hsagpu_v10_cp_hqd_stop(v, ri, action != 1);
            v->unmaps++;
        }
    }
    return 0;
}

unsigned hsagpu_v10_query_status(const HsaGpuV10CpOps *ops, const uint32_t *pk,
                                 uint32_t n)
{
    uint64_t a = (uint64_t)pk[4] << 32 | pk[3];
    uint64_t d;

    /* every packet before it has completed: the fence holds at once */
    if (n != HSAGPU_PM4_QUERY_STATUS_DW) {
        return HSAGPU_PM4_ERR_PACKET;
    }
    d = (uint64_t)pk[6] << 32 | pk[5];
    return (a & 7) || ops->write(ops->opaque, 0, a, &d, 8) ?
           HSAGPU_PM4_ERR_MEMORY : 0;
}

/* The HIQ's packets: the hardware scheduler's */
static unsigned v10_hiq_packet(void *opaque, const uint32_t *pk, uint32_t n)
{
    V10RingCtx *c = opaque;

    return c->ops->hiq_packet(c->v, c->ops, pk, n);
}

static unsigned v10_queue_packet(void *opaque, const uint32_t *pk,
                                 uint32_t n)
{
    V10RingCtx *c = opaque;

    switch ((pk[0] >> HSAGPU_PM4_OPCODE_SHIFT) & HSAGPU_PM4_OPCODE_MASK) {
    case HSAGPU_PM4_OP_SET_RESOURCES:
        /* the queues and VMIDs the scheduler may use: nothing to do */
        return n == 8 ? 0 : HSAGPU_PM4_ERR_PACKET;
    case HSAGPU_PM4_OP_MAP_QUEUES:
        return n == 7 ? v10_map_queues(c, pk) : HSAGPU_PM4_ERR_PACKET;
    case HSAGPU_PM4_OP_UNMAP_QUEUES:
        return n == 6 ? v10_unmap_queues(c, pk) : HSAGPU_PM4_ERR_PACKET;
    case HSAGPU_PM4_OP_QUERY_STATUS:
        return hsagpu_v10_query_status(c->ops, pk, n);
    case HSAGPU_PM4_OP_INVALIDATE_TLBS:
        if (n != 2) {
            return HSAGPU_PM4_ERR_PACKET;
        }
        /* [20:5] the PASID, [4] both hubs */
        if (c->ops->invalidate) {
            c->ops->invalidate(c->ops->opaque, (pk[1] >> 5) & 0xffff,
                               pk[1] & 0x10);
        }
        c->v->tlb_invalidations++;
        return 0;
    }
    return HSAGPU_PM4_ERR_OPCODE;
}

unsigned hsagpu_v10_cp_pass(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                            unsigned budget, uint64_t *ran)
{
    uint32_t kiq = v->reg[V10_RLC_CP_SCHEDULERS];
    unsigned more = 0;

    /* RLC_CP_SCHEDULERS names the KIQ: [7] set, me, pipe, queue */
    v->kiq_ring = kiq & 0x80 && ((kiq >> 5) & 3) >= 1 &&
                  ((kiq >> 5) & 3) <= V10_MEC_NUM ?
                  V10_HQD_INDEX((kiq >> 5) & 3, (kiq >> 3) & 3, kiq & 7) :
                  V10_NUM_RINGS;
    /* the scheduler's time slice ended: the next processes' turn */
    if (v->hws.rotate_due && ops->hiq_rotate) {
        unsigned err = ops->hiq_rotate(v, ops);

        if (err && v->hws.hiq_ring < V10_NUM_RINGS) {
            v->ring[v->hws.hiq_ring].pm4.error = err;
            if (ops->stopped) {
                ops->stopped(ops->opaque, v->hws.hiq_ring, err, 0);
            }
            hsagpu_v10_cp_fault(v, ops, v->hws.hiq_ring, err);
        }
    }
    for (unsigned ri = 0; ri < V10_NUM_RINGS; ri++) {
        HsaGpuV10Ring *r = &v->ring[ri];
        V10RingCtx c = { .v = v, .ops = ops, .ri = ri };
        HsaGpuPm4Ops pops = {
            .read = v10_pm4_read, .write = v10_pm4_write,
            .reg_read = v10_pm4_reg_read, .reg_write = v10_pm4_reg_write,
            .eop = v10_pm4_eop, .gpu_clock = v10_pm4_clock,
            .queue_packet = ri == v->kiq_ring ? v10_queue_packet :
                            ri == v->hws.hiq_ring && ops->hiq_packet ?
                            v10_hiq_packet : NULL,
            .dispatch = v10_pm4_dispatch,
            .opaque = &c,
        };
        HsaGpuPm4Outcome o;
        uint32_t rptr, err;
        uint64_t packets;

        /*
         * CP_PQ_WPTR_POLL_CNTL1's one-shot read of a reloaded queue's
         * write pointer (amdkfd without its scheduler guesses it from
         * the read pointer; packets submitted while the queue was off
         * the hardware are past it); an AQL queue reads its own
         */
        if (ri < V10_NUM_HQD && (v->wptr_poll >> ri & 1) && r->active) {
            v->wptr_poll &= ~(1ULL << ri);
            hsagpu_v10_cp_fetch_wptr(v, ops, ri);
        }
        /* a held ring takes write pointers and runs nothing */
        if (!r->active || r->pm4.error || r->held || r->aql) {
            continue;
        }
        /*
         * a ring without a doorbell is polled; the ring's pointers are
         * in its own VMID (a user queue's are the process's addresses)
         */
        if (r->doorbell == V10_NO_DOORBELL && r->wptr_addr &&
            ops->read(ops->opaque, r->pm4.vmid, r->wptr_addr, &r->wptr, 8)) {
            r->pm4.error = HSAGPU_PM4_ERR_MEMORY;
        }
        rptr = r->pm4.rptr;
        packets = r->pm4.packets;
        o = hsagpu_pm4_ring_run(&r->pm4, r->wptr, &pops, budget);
        /* a MAP_QUEUES may have restarted this very ring's state */
        *ran += r->pm4.packets >= packets ? r->pm4.packets - packets : 0;
        if (r->pm4.rptr != rptr || o == HSAGPU_PM4_STOPPED) {
            if (r->rptr_addr) {
                ops->write(ops->opaque, r->pm4.vmid, r->rptr_addr,
                           &r->pm4.rptr, 4);
            }
            if (ri == V10_RING_GFX) {
                v->reg[V10_CP_RB0_RPTR] = r->pm4.rptr;
            } else {
                V10_HQD(v10_bank(v, ri), V10_CP_HQD_PQ_RPTR) = r->pm4.rptr;
            }
        }
        err = r->pm4.error;
        if (o == HSAGPU_PM4_STOPPED) {
            if (ops->stopped) {
                ops->stopped(ops->opaque, ri, err, r->pm4.error_hdr);
            }
            hsagpu_v10_cp_fault(v, ops, ri, err);
        }
        more |= o == HSAGPU_PM4_WAIT ? V10_CP_WAITING :
                o == HSAGPU_PM4_BUDGET ? V10_CP_BUSY : 0;
    }
    return more;
}
