/*
 * hsa-gpu, Vega10 personality: an MEC queue's state when it is preempted
 * and mapped again, independent of QEMU. A gfx9 CP writes a preempted
 * queue's HQD registers back to its MQD (CP_MQD_BASE_ADDR), where
 * amdkfd, with or without its scheduler, loads it from again. A PM4
 * queue's state there is its compute registers (its SET_SH_REGs, which
 * the v9 MQD keeps from its second dword on), where it was in an IB
 * (CP_HQD_IB_*), and its DISPATCH_DIRECT part-done, whose workgroups go
 * to the queue's context save area as an AQL queue's do
 * (include/hsagpu/hsagpu_ctx.h). Whatever comes back from memory is
 * the guest's and is checked.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdlib.h>
#include <string.h>
#define g_free free
#define g_try_malloc malloc
#else
#include "qemu/osdep.h"
#endif
#include "vega10.h"
#include "hsagpu/hsagpu_ctx.h"

#define V10_HQD(bank, reg)      ((bank)[(reg) - V10_HQD_FIRST])

static bool v10_mem(HsaGpuV10 *v, uint32_t vmid, uint64_t addr, void *buf,
                    uint32_t len, bool write)
{
    return v->ops.mem && !v->ops.mem(v->ops.opaque, vmid, addr, buf, len,
                                     write);
}

static uint64_t v10_mqd(const uint32_t *b)
{
    uint64_t mqd = (uint64_t)V10_HQD(b, V10_CP_MQD_BASE_ADDR + 1) << 32 |
                   V10_HQD(b, V10_CP_MQD_BASE_ADDR);

    return mqd & 3 ? 0 : mqd;
}

bool hsagpu_v10_ctx_area(const HsaGpuV10 *v, unsigned ri, uint64_t *base,
                         uint32_t *stack, uint32_t *size)
{
    const uint32_t *b = v->hqd[ri];

    *base = (uint64_t)V10_HQD(b, V10_CP_HQD_CTX_SAVE_BASE_ADDR + 1) << 32 |
            V10_HQD(b, V10_CP_HQD_CTX_SAVE_BASE_ADDR);
    *stack = V10_HQD(b, V10_CP_HQD_CNTL_STACK_SIZE);
    *size = V10_HQD(b, V10_CP_HQD_CTX_SAVE_SIZE);
    return *base && *stack < *size;
}

void hsagpu_v10_ctx_taken(HsaGpuV10 *v, unsigned ri)
{
    uint32_t *b = v->hqd[ri];
    uint32_t stack = V10_HQD(b, V10_CP_HQD_CNTL_STACK_SIZE);
    uint64_t mqd = v10_mqd(b);

    V10_HQD(b, V10_CP_HQD_WG_STATE_OFFSET) = stack;
    if (mqd) {
        v10_mem(v, 0, mqd + (V10_MQD_HQD_DW + V10_CP_HQD_WG_STATE_OFFSET -
                             V10_HQD_FIRST) * 4, &stack, 4, true);
    }
}

/*
 * Where a PM4 queue reads next, as a context record's read_index: the
 * ring's read pointer, or in an IB bit 63 and the IB's dword
 */
static uint64_t v10_pm4_pos(const HsaGpuV10Ring *r)
{
    return r->pm4.ib_active ? 1ULL << 63 | r->pm4.ib_pos : r->pm4.rptr;
}

/* The DISPATCH_DIRECT's dwords at the queue's position, in its VMID */
static bool v10_pm4_packet(HsaGpuV10 *v, const HsaGpuV10Ring *r,
                           uint8_t *pkt)
{
    const HsaGpuPm4Ring *p = &r->pm4;
    uint32_t n = HSAGPU_PM4_DISPATCH_DIRECT_DW;

    memset(pkt, 0, HSAGPU_AQL_PACKET_SIZE);
    if (p->ib_active) {
        return p->ib_pos + n <= p->ib_size &&
               v10_mem(v, p->ib_vmid, p->ib_base + p->ib_pos * 4ULL, pkt,
                       n * 4, false);
    }
    /* a ring's packet may wrap: dword by dword */
    for (uint32_t i = 0; i < n; i++) {
        if (!v10_mem(v, p->vmid,
                     p->base + ((p->rptr + i) & (p->size_dw - 1)) * 4ULL,
                     pkt + i * 4, 4, false)) {
            return false;
        }
    }
    return true;
}

/*
 * PM4 queue @ri's dispatch part-done and GWS counters into its context
 * save area: the area's end (CP_HQD_WG_STATE_OFFSET), or its start when
 * nothing was saved
 */
static uint32_t v10_pm4_ctx_save(HsaGpuV10 *v, unsigned ri, uint64_t base,
                                 uint32_t stack, uint32_t size)
{
    HsaGpuV10Ring *r = &v->ring[ri];
    struct hsagpu_ctx_record h = { 0 };
    uint8_t *rec;
    size_t len;

    if (r->disp_on) {
        if (!v10_pm4_packet(v, r, h.packet)) {
            v->ctx_lost++;
            return stack;
        }
        h.flags = HSAGPU_CTX_DISPATCH;
        h.read_index = v10_pm4_pos(r);
        h.kern_wg = r->disp_wg;
    } else if (!v->hws.gws[ri]) {
        return stack;
    }
    len = hsagpu_ctx_record_make(&h, &v->disp_grid[ri],
                                 v->hws.gws[ri] ? &v->disp_gws[ri] : NULL,
                                 &rec);
    if (len > size - stack || !v10_mem(v, r->pm4.vmid, base + stack, rec, len,
                                       true)) {
        g_free(rec);
        v->ctx_lost++;
        return stack;
    }
    g_free(rec);
    return stack + len;
}

bool hsagpu_v10_hqd_save(HsaGpuV10 *v, unsigned ri)
{
    HsaGpuV10Ring *r = &v->ring[ri];
    uint32_t *b = v->hqd[ri], stack, size;
    uint64_t mqd = v10_mqd(b), base;
    bool ok = true;

    /*
     * A process's queue (amdkfd's: AQL, or PM4 in VMID 1-15). The
     * kernel's own PM4 queues (VMID 0: amdgpu's KIQ and compute rings,
     * amdkfd's HIQ) keep their MQDs as their driver wrote them: amdgpu
     * restores them from its copies and reads them back after dequeuing
     * an active KIQ (gfx_v9_0_kiq_init_register), which a write-back
     * would undo.
     */
    if (!r->pm4.vmid && !r->aql) {
        return true;
    }
    if (!r->aql) {
        /* where in an IB it was: the rest of the IB runs when it is back */
        V10_HQD(b, V10_CP_HQD_IB_BASE_ADDR) = r->pm4.ib_base;
        V10_HQD(b, V10_CP_HQD_IB_BASE_ADDR + 1) = r->pm4.ib_base >> 32;
        V10_HQD(b, V10_CP_HQD_IB_RPTR) = r->pm4.ib_pos;
        V10_HQD(b, V10_CP_HQD_IB_CONTROL) =
            (V10_HQD(b, V10_CP_HQD_IB_CONTROL) & ~(V10_IB_PROCESSING |
                                                   V10_IB_SIZE_MASK)) |
            (r->pm4.ib_active ? V10_IB_PROCESSING |
                                (r->pm4.ib_size & V10_IB_SIZE_MASK) : 0);
        if (hsagpu_v10_ctx_area(v, ri, &base, &stack, &size)) {
            V10_HQD(b, V10_CP_HQD_WG_STATE_OFFSET) =
                v10_pm4_ctx_save(v, ri, base, stack, size);
        } else if (r->disp_on) {
            v->ctx_lost++;              /* CWSR off: it starts again */
        }
        r->disp_on = 0;
        hsagpu_gcn_grid_stop(&v->disp_grid[ri]);
    }
    if (!mqd) {
        return true;
    }
    ok = v10_mem(v, 0, mqd + V10_MQD_HQD_DW * 4, b, V10_HQD_NREGS * 4, true);
    if (!r->aql) {
        ok &= v10_mem(v, 0, mqd + V10_MQD_COMPUTE_DW * 4, r->compute,
                      sizeof(r->compute), true);
    }
    return ok;
}

/*
 * A record in PM4 queue @ri's context save area back into it: taken
 * once, whatever it holds; refused when it is not this queue's dispatch
 * at the place it now reads (the dispatch then starts afresh)
 */
static void v10_pm4_ctx_load(HsaGpuV10 *v, unsigned ri)
{
    HsaGpuV10Ring *r = &v->ring[ri];
    uint32_t *b = v->hqd[ri], stack, size, wg_end, len;
    uint64_t base;
    uint8_t pkt[HSAGPU_AQL_PACKET_SIZE], *rec;
    struct hsagpu_ctx_record h;
    const char *why;

    wg_end = V10_HQD(b, V10_CP_HQD_WG_STATE_OFFSET);
    if (!hsagpu_v10_ctx_area(v, ri, &base, &stack, &size) ||
        wg_end <= stack) {
        return;
    }
    hsagpu_v10_ctx_taken(v, ri);
    len = wg_end - stack;
    rec = wg_end <= size && len <= HSAGPU_CTX_MAX_BYTES + sizeof(h) ?
          g_try_malloc(len) : NULL;
    why = !rec ? "it ends past the area" :
          !v10_mem(v, r->pm4.vmid, base + stack, rec, len, false) ?
          "the area cannot be read" : hsagpu_ctx_record_parse(rec, len, &h);
    if (!why && (h.flags & HSAGPU_CTX_DISPATCH)) {
        if (h.read_index != v10_pm4_pos(r) || !v10_pm4_packet(v, r, pkt) ||
            memcmp(pkt, h.packet, sizeof(pkt))) {
            why = "not the dispatch the queue reads next";
        } else if (h.state_len &&
                   !hsagpu_gcn_grid_load(&v->disp_grid[ri], rec + sizeof(h),
                                         h.state_len)) {
            why = "its workgroups are not the interpreter's";
        } else {
            r->disp_on = 1;
            r->disp_wg = h.kern_wg;
        }
    }
    /* a queue given no GWS now keeps none of it */
    if (!why && (h.flags & HSAGPU_CTX_GWS) && v->hws.gws[ri]) {
        hsagpu_ctx_record_gws(&h, &v->disp_gws[ri]);
    }
    g_free(rec);
    v->ctx_refused += why != NULL;
    v->ctx_why = why;
}

bool hsagpu_v10_hqd_load(HsaGpuV10 *v, unsigned ri)
{
    HsaGpuV10Ring *r = &v->ring[ri];
    uint32_t *b = v->hqd[ri];
    uint32_t ctl = V10_HQD(b, V10_CP_HQD_IB_CONTROL);
    uint64_t mqd = v10_mqd(b);
    bool ok = true;

    memset(r->compute, 0, sizeof(r->compute));
    memset(&v->disp_gws[ri], 0, sizeof(v->disp_gws[ri]));
    hsagpu_gcn_grid_stop(&v->disp_grid[ri]);
    r->disp_on = 0;
    if (!r->pm4.vmid) {
        return true;                    /* the kernel's: nothing saved */
    }
    if (mqd && !v10_mem(v, 0, mqd + V10_MQD_COMPUTE_DW * 4, r->compute,
                        sizeof(r->compute), false)) {
        memset(r->compute, 0, sizeof(r->compute));
        ok = false;
    }
    /* in an IB when preempted: it goes on there, in the queue's VMID */
    if ((ctl & V10_IB_PROCESSING) && (ctl & V10_IB_SIZE_MASK) &&
        V10_HQD(b, V10_CP_HQD_IB_RPTR) <= (ctl & V10_IB_SIZE_MASK)) {
        r->pm4.ib_active = 1;
        r->pm4.ib_base = (uint64_t)V10_HQD(b, V10_CP_HQD_IB_BASE_ADDR + 1) <<
                         32 | V10_HQD(b, V10_CP_HQD_IB_BASE_ADDR);
        r->pm4.ib_size = ctl & V10_IB_SIZE_MASK;
        r->pm4.ib_pos = V10_HQD(b, V10_CP_HQD_IB_RPTR);
        r->pm4.ib_vmid = r->pm4.vmid;
    }
    v10_pm4_ctx_load(v, ri);
    return ok;
}
