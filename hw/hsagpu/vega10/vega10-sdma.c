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
    r->wptr_addr = (uint64_t)REG(V10_SDMA_RB_WPTR_POLL_ADDR_HI) << 32 |
                   (REG(V10_SDMA_RB_WPTR_POLL_ADDR_LO) & ~7u);
    r->doorbell = db & V10_SDMA_DOORBELL_ENABLE ?
                  V10_DOORBELL_OFFSET(REG(V10_SDMA_DOORBELL_OFFSET)) :
                  V10_NO_DOORBELL;
    /*
     * A ring runs while enabled on an engine that is not halted; the
     * device needs its write pointer in memory (the doorbell only wakes
     * it) and a place for the read pointer, as amdgpu gives them
     */
    r->run = (cntl & 1) && !halted && r->size && r->wptr_addr &&
             r->rptr_addr && r->doorbell != V10_NO_DOORBELL;
    return r->run;
#undef REG
}

void hsagpu_v10_sdma_sync(HsaGpuV10 *v, const HsaGpuV10SdmaSync *ops)
{
    if (!v->sdma_dirty) {
        return;
    }
    v->sdma_dirty = false;
    /* the kernel's GFX and PAGE queues; the RLC (user) ones are not yet */
    for (unsigned e = 0; e < V10_SDMA_ENGINES; e++) {
        for (unsigned q = 0; q < 2; q++) {
            unsigned qi = e * V10_SDMA_QUEUES + q;
            HsaGpuV10SdmaRing r, *cur = &v->sdma_running[qi];

            hsagpu_v10_sdma_ring(v, e, q, &r);
            if (r.run && cur->run && r.base == cur->base &&
                r.size == cur->size && r.rptr_addr == cur->rptr_addr &&
                r.wptr_addr == cur->wptr_addr && r.vmid == cur->vmid) {
                cur->doorbell = r.doorbell;
                continue;
            }
            if (cur->run) {
                ops->stop(ops->opaque, qi);
                cur->run = false;
            }
            if (r.run && ops->start(ops->opaque, qi, &r)) {
                *cur = r;
                v->kick = true;
            }
        }
    }
}
