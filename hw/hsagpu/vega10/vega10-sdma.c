/*
 * hsa-gpu, Vega10 personality: the SDMA engines' ring queues, as
 * amdgpu's sdma_v4_0.c programs them, independent of QEMU. A ring runs
 * on the device's one SDMA engine (cp/hsagpu-sdma.c) as a queue of the
 * processor; this file reads what such a queue is from the registers
 * (vega10-pci.c starts and stops the queues when they change).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "vega10.h"

uint32_t hsagpu_v10_sdma_reg(unsigned engine, unsigned queue, uint32_t off)
{
    return V10_SDMA0_GFX_RB_CNTL + engine * V10_SDMA_ENGINE_STRIDE +
           queue * V10_SDMA_QUEUE_STRIDE + off;
}

bool hsagpu_v10_sdma_is_reg(uint32_t dw)
{
    for (unsigned e = 0; e < V10_SDMA_ENGINES; e++) {
        uint32_t first = hsagpu_v10_sdma_reg(e, 0, 0);

        if (dw == V10_SDMA0_F32_CNTL + e * V10_SDMA_ENGINE_STRIDE ||
            (dw >= first &&
             dw < first + V10_SDMA_QUEUES * V10_SDMA_QUEUE_STRIDE)) {
            return true;
        }
    }
    return false;
}

/* The RLC queues are users': their write pointer is pushed, not polled */
static bool v10_sdma_rlc(unsigned queue)
{
    return queue >= V10_SDMA_QUEUE_RLC0;
}

static const char *const v10_sdma_bad_why[V10_SDMA_BAD_COUNT] = {
    [V10_SDMA_BAD_SIZE] = "RB_SIZE past 2^22 dwords",
    [V10_SDMA_BAD_BASE] = "no ring base (RB_BASE 0)",
    [V10_SDMA_BAD_RPTR_ADDR] = "no read pointer address (RB_RPTR_ADDR 0)",
    [V10_SDMA_BAD_WPTR_ADDR] = "no write pointer poll address",
    [V10_SDMA_BAD_DOORBELL] = "its doorbell is outside BAR2",
    [V10_SDMA_BAD_VMID] = "the scheduler's VMID is past 15",
};

bool hsagpu_v10_sdma_ring(const HsaGpuV10 *v, unsigned engine,
                          unsigned queue, HsaGpuV10SdmaRing *r)
{
#define REG(off) (v->reg[hsagpu_v10_sdma_reg(engine, queue, (off))])
    uint32_t cntl = REG(V10_SDMA_RB_CNTL);
    uint32_t db = REG(V10_SDMA_DOORBELL);
    uint32_t size = V10_SDMA_RB_SIZE(cntl);
    bool halted = v->reg[V10_SDMA0_F32_CNTL +
                         engine * V10_SDMA_ENGINE_STRIDE] & 1;

    memset(r, 0, sizeof(*r));
    r->base = (uint64_t)REG(V10_SDMA_RB_BASE) << 8 |
              (uint64_t)REG(V10_SDMA_RB_BASE + 1) << 40;
    /* RB_SIZE: log2 of the ring's dwords; 2^22 at most, as the CP's */
    r->size = size < V10_RING_DW_LOG2_MAX + 1 ? 4u << size : 0;
    r->vmid = V10_SDMA_RB_VMID(cntl);
    r->rptr = (uint64_t)REG(V10_SDMA_RB_RPTR + 1) << 32 |
              REG(V10_SDMA_RB_RPTR);
    r->rptr_addr = (uint64_t)REG(V10_SDMA_RB_RPTR_ADDR_HI) << 32 |
                   (REG(V10_SDMA_RB_RPTR_ADDR_LO) & ~3u);
    /* an RLC queue's write pointer is its doorbell's value, not polled */
    if (v10_sdma_rlc(queue)) {
        r->wptr = (uint64_t)REG(V10_SDMA_RB_WPTR + 1) << 32 |
                  REG(V10_SDMA_RB_WPTR);
    } else {
        r->wptr_addr = (uint64_t)REG(V10_SDMA_RB_WPTR_POLL_ADDR_HI) << 32 |
                       (REG(V10_SDMA_RB_WPTR_POLL_ADDR_LO) & ~7u);
    }
    r->doorbell = db & V10_SDMA_DOORBELL_ENABLE ?
                  V10_DOORBELL_OFFSET(REG(V10_SDMA_DOORBELL_OFFSET)) :
                  V10_NO_DOORBELL;
    if (!(cntl & V10_SDMA_RB_CNTL_ENABLE) || halted) {
        return false;
    }
    /*
     * A ring runs while enabled on an engine that is not halted; the
     * device needs a place for the read pointer and (GFX, PAGE) the write
     * pointer in memory, as amdgpu gives them. Without its doorbell a
     * queue is parked, not refused: amdkfd's destroy leaves an RLC
     * queue enabled with the doorbell off, once it has read where the
     * queue stopped.
     */
    r->bad = !r->size ? V10_SDMA_BAD_SIZE :
             !r->base ? V10_SDMA_BAD_BASE :
             !r->rptr_addr ? V10_SDMA_BAD_RPTR_ADDR :
             !v10_sdma_rlc(queue) && !r->wptr_addr ? V10_SDMA_BAD_WPTR_ADDR :
             r->doorbell != V10_NO_DOORBELL &&
             r->doorbell >= V10_DOORBELL_BAR_SIZE / 4 ?
             V10_SDMA_BAD_DOORBELL : 0;
    r->run = !r->bad && r->doorbell != V10_NO_DOORBELL;
    return r->run;
#undef REG
}

/* Where running queue @qi is now (bytes), or what RB_RPTR holds */
static uint64_t v10_sdma_rptr_now(const HsaGpuV10 *v, unsigned qi)
{
    uint32_t rptr = hsagpu_v10_sdma_reg(qi / V10_SDMA_QUEUES,
                                        qi % V10_SDMA_QUEUES,
                                        V10_SDMA_RB_RPTR);

    if (v->sdma_running[qi].run && v->ops.sdma_rptr) {
        return v->ops.sdma_rptr(v->ops.opaque, qi);
    }
    return (uint64_t)v->reg[rptr + 1] << 32 | v->reg[rptr];
}

/* RB_RPTR/HI hold where a stopped queue stopped: amdkfd reads them back */
static void v10_sdma_keep_rptr(HsaGpuV10 *v, unsigned qi)
{
    uint32_t rptr = hsagpu_v10_sdma_reg(qi / V10_SDMA_QUEUES,
                                        qi % V10_SDMA_QUEUES,
                                        V10_SDMA_RB_RPTR);
    uint64_t pos = v10_sdma_rptr_now(v, qi);

    v->reg[rptr] = pos;
    v->reg[rptr + 1] = pos >> 32;
}

/*
 * A running RLC queue's new write pointer (its doorbell, RB_WPTR), to the
 * device; MINOR_PTR_UPDATE holds it back while the driver writes halves
 */
static void v10_sdma_rlc_wptr(HsaGpuV10 *v, const HsaGpuV10SdmaSync *ops,
                              unsigned qi, uint64_t wptr)
{
    v->sdma_running[qi].wptr = wptr;
    if (ops->wptr) {
        ops->wptr(ops->opaque, qi, wptr);
    }
    v->kick = true;
}

void hsagpu_v10_sdma_sync(HsaGpuV10 *v, const HsaGpuV10SdmaSync *ops)
{
    if (!v->sdma_dirty) {
        return;
    }
    v->sdma_dirty = false;
    for (unsigned e = 0; e < V10_SDMA_ENGINES; e++) {
        for (unsigned q = 0; q < V10_SDMA_QUEUES; q++) {
            unsigned qi = e * V10_SDMA_QUEUES + q;
            HsaGpuV10SdmaRing r, *cur = &v->sdma_running[qi];
            uint32_t minor = v->reg[hsagpu_v10_sdma_reg(
                                 e, q, V10_SDMA_MINOR_PTR_UPDATE)];

            hsagpu_v10_sdma_ring(v, e, q, &r);
            if (v->sdma_load_bad[qi] && ops->refused) {
                ops->refused(ops->opaque, qi,
                             v10_sdma_bad_why[v->sdma_load_bad[qi]]);
            }
            v->sdma_load_bad[qi] = 0;
            if (r.run && cur->run && r.base == cur->base &&
                r.size == cur->size && r.rptr_addr == cur->rptr_addr &&
                r.wptr_addr == cur->wptr_addr && r.vmid == cur->vmid) {
                cur->doorbell = r.doorbell;
                if (v10_sdma_rlc(q) && r.wptr != cur->wptr && !(minor & 1)) {
                    v10_sdma_rlc_wptr(v, ops, qi, r.wptr);
                }
                continue;
            }
            if (cur->run) {
                /* restarted: the driver moved it, its RB_RPTR says where */
                if (!r.run) {
                    v10_sdma_keep_rptr(v, qi);
                }
                ops->stop(ops->opaque, qi);
                cur->run = false;
            }
            /* a queue the driver enabled and the device cannot run: once */
            if (r.bad != v->sdma_bad[qi] && r.bad && ops->refused) {
                ops->refused(ops->opaque, qi, v10_sdma_bad_why[r.bad]);
            }
            v->sdma_bad[qi] = r.bad;
            if (r.run && ops->start(ops->opaque, qi, &r)) {
                *cur = r;
                v->kick = true;
            }
        }
    }
}

bool hsagpu_v10_sdma_doorbell(HsaGpuV10 *v, uint32_t dw, uint64_t val,
                              unsigned size)
{
    bool hit = false;

    for (unsigned e = 0; e < V10_SDMA_ENGINES; e++) {
        for (unsigned q = V10_SDMA_QUEUE_RLC0; q < V10_SDMA_QUEUES; q++) {
            uint32_t *wptr = &v->reg[hsagpu_v10_sdma_reg(e, q,
                                                        V10_SDMA_RB_WPTR)];
            uint32_t db = v->reg[hsagpu_v10_sdma_reg(e, q,
                                                     V10_SDMA_DOORBELL)];
            uint32_t off = v->reg[hsagpu_v10_sdma_reg(
                                      e, q, V10_SDMA_DOORBELL_OFFSET)];

            if (!(db & V10_SDMA_DOORBELL_ENABLE) ||
                V10_DOORBELL_OFFSET(off) != dw) {
                continue;
            }
            /* 64-bit doorbells: a 4-byte write is the low half */
            wptr[0] = val;
            if (size == 8) {
                wptr[1] = val >> 32;
            }
            v->sdma_dirty = hit = true;
        }
    }
    return hit;
}

bool hsagpu_v10_sdma_read(const HsaGpuV10 *v, uint32_t dw, uint32_t *val)
{
    for (unsigned e = 0; e < V10_SDMA_ENGINES; e++) {
        uint32_t first = hsagpu_v10_sdma_reg(e, 0, 0);
        uint32_t off = (dw - first) % V10_SDMA_QUEUE_STRIDE;
        unsigned q = (dw - first) / V10_SDMA_QUEUE_STRIDE;
        unsigned qi = e * V10_SDMA_QUEUES + q;
        HsaGpuV10SdmaRing r;

        if (dw < first || q >= V10_SDMA_QUEUES) {
            continue;
        }
        switch (off) {
        case V10_SDMA_CONTEXT_STATUS:
            /*
             * IDLE: the queue is off (the device stops it before the
             * driver's access ends); amdkfd waits for it before it loads
             * a queue and after it disables one
             */
            hsagpu_v10_sdma_ring(v, e, q, &r);
            *val = v->reg[dw] & ~V10_SDMA_CONTEXT_STATUS_IDLE;
            if (!r.run || !v->sdma_running[qi].run) {
                *val |= V10_SDMA_CONTEXT_STATUS_IDLE;
            }
            return true;
        case V10_SDMA_RB_RPTR:
        case V10_SDMA_RB_RPTR + 1:
            /* where a running queue is now */
            if (!v->sdma_running[qi].run) {
                return false;
            }
            *val = v10_sdma_rptr_now(v, qi) >> (off == V10_SDMA_RB_RPTR ? 0
                                                                       : 32);
            return true;
        }
        return false;
    }
    return false;
}

/* The MQD image's runs of consecutive registers (vega10_regs.h) */
static const struct {
    uint8_t mqd, reg, n;
} v10_sdma_mqd_runs[] = V10_SDMA_MQD_RUNS;

void hsagpu_v10_sdma_mqd_load(HsaGpuV10 *v, unsigned engine, unsigned queue,
                              const uint32_t *mqd, unsigned vmid,
                              uint32_t doorbell, uint64_t wptr)
{
#define REG(off) (v->reg[hsagpu_v10_sdma_reg(engine, queue, (off))])
    unsigned qi = engine * V10_SDMA_QUEUES + queue;

    if (engine >= V10_SDMA_ENGINES || !v10_sdma_rlc(queue) ||
        queue >= V10_SDMA_QUEUES) {
        return;
    }
    v->sdma_dirty = true;
    /* what RB_CNTL and DOORBELL_OFFSET cannot hold: the queue stays off */
    if (vmid >= V10_NUM_VMIDS || doorbell > V10_DOORBELL_OFFSET(~0u)) {
        REG(V10_SDMA_RB_CNTL) &= ~V10_SDMA_RB_CNTL_ENABLE;
        v->sdma_load_bad[qi] = vmid >= V10_NUM_VMIDS ? V10_SDMA_BAD_VMID
                                                     : V10_SDMA_BAD_DOORBELL;
        return;
    }
    /* the firmware loads the queue's context from the image ... */
    for (unsigned i = 0; i < sizeof(v10_sdma_mqd_runs) /
                             sizeof(v10_sdma_mqd_runs[0]); i++) {
        for (unsigned n = 0; n < v10_sdma_mqd_runs[i].n; n++) {
            REG(v10_sdma_mqd_runs[i].reg + n) =
                mqd[v10_sdma_mqd_runs[i].mqd + n];
        }
    }
    /* ... with the VMID, doorbell and write pointer the packet gives */
    REG(V10_SDMA_RB_WPTR) = wptr;
    REG(V10_SDMA_RB_WPTR + 1) = wptr >> 32;
    REG(V10_SDMA_MINOR_PTR_UPDATE) = 0;
    REG(V10_SDMA_DOORBELL_OFFSET) = doorbell << 2;
    REG(V10_SDMA_DOORBELL) |= V10_SDMA_DOORBELL_ENABLE;
    REG(V10_SDMA_RB_CNTL) = (REG(V10_SDMA_RB_CNTL) &
                             ~V10_SDMA_RB_CNTL_VMID_MASK) |
                            vmid << V10_SDMA_RB_CNTL_VMID_SHIFT |
                            V10_SDMA_RB_CNTL_ENABLE;
#undef REG
}

void hsagpu_v10_sdma_mqd_save(HsaGpuV10 *v, unsigned engine, unsigned queue,
                              uint32_t *mqd)
{
#define REG(off) (v->reg[hsagpu_v10_sdma_reg(engine, queue, (off))])
    unsigned qi = engine * V10_SDMA_QUEUES + queue;

    if (engine >= V10_SDMA_ENGINES || !v10_sdma_rlc(queue) ||
        queue >= V10_SDMA_QUEUES) {
        return;
    }
    /*
     * Stopped where it is (the device stops it before the scheduler's
     * packet ends, no packet of it runs meanwhile); unmapped, its
     * doorbell reaches nothing
     */
    v10_sdma_keep_rptr(v, qi);
    REG(V10_SDMA_RB_CNTL) &= ~V10_SDMA_RB_CNTL_ENABLE;
    REG(V10_SDMA_DOORBELL) &= ~V10_SDMA_DOORBELL_ENABLE;
    v->sdma_dirty = true;
    /* the context the firmware saves: the pointers, and an idle queue */
    mqd[V10_SDMA_MQD_RB_RPTR] = REG(V10_SDMA_RB_RPTR);
    mqd[V10_SDMA_MQD_RB_RPTR_HI] = REG(V10_SDMA_RB_RPTR + 1);
    mqd[V10_SDMA_MQD_RB_WPTR] = REG(V10_SDMA_RB_WPTR);
    mqd[V10_SDMA_MQD_RB_WPTR_HI] = REG(V10_SDMA_RB_WPTR + 1);
    mqd[V10_SDMA_MQD_CONTEXT_STATUS] = V10_SDMA_CONTEXT_STATUS_IDLE;
#undef REG
}
