/*
 * hsa-gpu-vega10: the Vega10 personality of hsa-gpu, the device Linux's
 * own amdgpu binds (docs/vega10.md). A QOM subtype: the same device
 * model, engines and properties, with an MI25's identity, Vega10's BAR
 * layout, a 512 KiB register BAR decoded by vega10-regs.c, one MSI
 * vector and a synthetic ATOM vBIOS in the expansion ROM.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/error-report.h"
#include "qemu/units.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/pci/msi.h"
#include "migration/vmstate.h"
#include "hw/hsagpu/hsagpu.h"
#include "hw/hsagpu/vega10/vega10.h"
#include "hw/hsagpu/vega10/vega10-atom.h"
#include "hw/hsagpu/vega10/vega10-gmc.h"
#include "trace/trace-hw_hsagpu.h"
#include "hw/hsagpu/gcn/hsagpu-gcn.h"
#include "hsagpu/hsagpu_ctx.h"

#define TYPE_HSA_GPU_VEGA10 "hsa-gpu-vega10"

static bool v10_vram_rw(void *opaque, uint64_t off, uint32_t *val, bool write)
{
    HsaGpuState *s = opaque;
    uint8_t *p;

    if (off > s->params.vram_size - 4 || (off & 3)) {
        return false;
    }
    p = (uint8_t *)memory_region_get_ram_ptr(&s->vram) + off;
    if (write) {
        stl_le_p(p, *val);
        memory_region_set_dirty(&s->vram, off, 4);
    } else {
        *val = ldl_le_p(p);
    }
    return true;
}

/* The GPU's reference clock, 100 MHz, from the virtual clock */
static uint64_t v10_clock(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) / 10;
}

/*
 * A TLB invalidation (a hub's engine, a KIQ INVALIDATE_TLBS) also drops
 * the processor's page mappings: they were made from translations
 */
static void v10_vm_changed(HsaGpuState *s)
{
    if (s->v10->tlb_invalidations != s->v10_inv_seen) {
        s->v10_inv_seen = s->v10->tlb_invalidations;
        qatomic_inc(&s->bus_map_gen);
    }
}

/*
 * Registers are shared with the processor thread's rings (PM4 register
 * packets): every access holds qlock. One that gave a ring work wakes
 * the processor once the lock is dropped.
 */
/* An SDMA ring queue on the processor (qlock held) */
static void v10_sdma_stop(void *opaque, unsigned qi)
{
    hsagpu_queue_own_stop(opaque, qi);
}

static bool v10_sdma_start(void *opaque, unsigned qi,
                           const HsaGpuV10SdmaRing *r)
{
    /*
     * an RLC queue is a user process's: its write pointer comes with its
     * doorbell, and it sends no packet only the kernel may
     */
    bool rlc = qi % V10_SDMA_QUEUES >= V10_SDMA_QUEUE_RLC0;
    HsaGpuQueue reg = {
        .ring_lo = r->base, .ring_hi = r->base >> 32, .ring_size = r->size,
        .rptr_lo = r->rptr_addr, .rptr_hi = r->rptr_addr >> 32,
        .wptr_lo = r->wptr_addr, .wptr_hi = r->wptr_addr >> 32,
        .vmid = r->vmid,
        .flags = HSAGPU_QF_SDMA |
                 (rlc ? HSAGPU_QF_OWN_WPTR | HSAGPU_QF_OWN_USER : 0),
    };
    /* the driver's RB_RPTR is where the engine starts */
    unsigned res = hsagpu_queue_own_start(opaque, qi, &reg, r->rptr);

    if (res != HSAGPU_QRES_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "hsa-gpu-vega10: SDMA%u queue %u not "
                      "started: result %u\n", qi / V10_SDMA_QUEUES,
                      qi % V10_SDMA_QUEUES, res);
        return false;
    }
    if (rlc) {
        hsagpu_queue_own_wptr(opaque, qi, r->wptr);
    }
    return true;
}

static void v10_sdma_wptr(void *opaque, unsigned qi, uint64_t wptr)
{
    hsagpu_queue_own_wptr(opaque, qi, wptr);
}

static void v10_sdma_refused(void *opaque, unsigned qi, const char *why)
{
    qemu_log_mask(LOG_GUEST_ERROR, "hsa-gpu-vega10: SDMA%u queue %u not "
                  "started: %s\n", qi / V10_SDMA_QUEUES, qi % V10_SDMA_QUEUES,
                  why);
}

/* Where an SDMA queue is (qlock held: the front end asks) */
static uint64_t v10_sdma_rptr(void *opaque, unsigned qi)
{
    return hsagpu_queue_own_rptr(opaque, qi);
}

static void v10_sdma_sync(HsaGpuState *s)
{
    HsaGpuV10SdmaSync ops = {
        .stop = v10_sdma_stop, .start = v10_sdma_start,
        .wptr = v10_sdma_wptr, .refused = v10_sdma_refused, .opaque = s,
    };

    hsagpu_v10_sdma_sync(s->v10, &ops);
}

/* HsaGpuV10Ops.mem: a preempted queue's MQD and context save area */
static unsigned v10_mem_rw(void *opaque, uint32_t vmid, uint64_t addr,
                           void *buf, uint32_t len, bool write)
{
    HsaGpuState *s = opaque;
    HsaGpuBusCtx c;
    unsigned r;

    hsagpu_bus_ctx_init(&c, s, -1);
    c.vmid = vmid;
    c.client = HSAGPU_VM_CLIENT_PACKET;
    r = hsagpu_bus_rw(&c, addr, buf, len, write) != HSAGPU_BUS_OK;
    hsagpu_bus_ctx_end(&c);
    return r;
}

/* The 64 bytes of @q's ring at its read index, through its VMID */
static bool v10_ctx_packet(HsaGpuBusCtx *c, const HsaGpuQueue *q,
                           uint8_t *pkt)
{
    uint64_t at = q->ring_base + (q->read_index & (q->ring_size - 1)) *
                  HSAGPU_AQL_PACKET_SIZE;

    return hsagpu_bus_rw(c, at, pkt, HSAGPU_AQL_PACKET_SIZE, false) ==
           HSAGPU_BUS_OK;
}

/*
 * HQD @ri is preempted (qlock held): what its AQL queue has in flight,
 * a dispatch part-done and its GWS counters, goes to the workgroup data
 * of its context save area, as gfx9's CWSR saves the waves, so that it
 * goes on when the queue is mapped again instead of running again
 */
static void v10_ctx_save(HsaGpuState *s, unsigned ri)
{
    HsaGpuV10 *v = s->v10;
    unsigned qi = V10_AQL_QI(ri);
    uint8_t pkt[HSAGPU_AQL_PACKET_SIZE] = { 0 }, *rec = NULL;
    uint32_t stack, size, wg_end;
    const char *why = NULL;
    uint64_t base;
    HsaGpuQueue *q;
    HsaGpuBusCtx c;
    size_t len;

    if (qi >= s->params.num_queues) {
        return;
    }
    q = &s->queues[qi];
    if (q->state != HSAGPU_QSTATE_ACTIVE || (!q->kern_active && !q->gws)) {
        return;
    }
    if (!hsagpu_v10_ctx_area(v, ri, &base, &stack, &size)) {
        if (q->kern_active) {
            qemu_log_mask(LOG_GUEST_ERROR, "hsa-gpu-vega10: HQD %u preempted "
                          "mid-dispatch without a context save area (CWSR "
                          "off): the dispatch at read index %" PRIu64
                          " starts again when it is mapped\n", ri,
                          q->read_index);
        }
        return;
    }
    hsagpu_bus_ctx_init(&c, s, -1);
    c.vmid = v->ring[ri].pm4.vmid;
    c.client = HSAGPU_VM_CLIENT_KERNEL;
    if (q->kern_active && !v10_ctx_packet(&c, q, pkt)) {
        why = "its packet cannot be read";
    }
    len = why ? 0 : hsagpu_queue_ctx_save(q, pkt, &rec);
    if (len > size - stack) {
        why = "larger than the area";
    } else if (len && hsagpu_bus_rw(&c, base + stack, rec, len, true) !=
               HSAGPU_BUS_OK) {
        why = "the area is not writable";
    }
    hsagpu_bus_ctx_end(&c);
    g_free(rec);
    wg_end = stack + (why ? 0 : len);
    /* (the HQD's registers go back to its MQD next: hsagpu_v10_hqd_save) */
    v->hqd[ri][V10_CP_HQD_WG_STATE_OFFSET - V10_HQD_FIRST] = wg_end;
    trace_hsagpu_v10_ctx(ri, true, q->read_index, why ? 0 : len);
    if (why) {
        qemu_log_mask(LOG_GUEST_ERROR, "hsa-gpu-vega10: HQD %u: its context "
                      "is not saved (%s): the dispatch at read index %" PRIu64
                      " starts again when it is mapped\n", ri, why,
                      q->read_index);
    }
}

/*
 * HQD @ri's AQL queue has started (qlock held): a context its context
 * save area holds comes back into it, and the area is empty again
 */
static void v10_ctx_restore(HsaGpuState *s, unsigned ri)
{
    HsaGpuV10 *v = s->v10;
    HsaGpuQueue *q = &s->queues[V10_AQL_QI(ri)];
    uint8_t pkt[HSAGPU_AQL_PACKET_SIZE] = { 0 }, *rec;
    uint32_t stack, size, wg_end, len;
    const char *why = NULL;
    uint64_t base;
    HsaGpuBusCtx c;

    wg_end = v->hqd[ri][V10_CP_HQD_WG_STATE_OFFSET - V10_HQD_FIRST];
    if (!hsagpu_v10_ctx_area(v, ri, &base, &stack, &size) || wg_end <= stack) {
        return;
    }
    /* taken once, whatever it holds */
    hsagpu_v10_ctx_taken(v, ri);
    len = wg_end - stack;
    if (wg_end > size ||
        len > HSAGPU_CTX_MAX_BYTES + sizeof(struct hsagpu_ctx_record)) {
        why = "it ends past the area";
    }
    rec = why ? NULL : g_try_malloc(len);
    if (!why && !rec) {
        why = "no memory for it";
    }
    hsagpu_bus_ctx_init(&c, s, -1);
    c.vmid = v->ring[ri].pm4.vmid;
    c.client = HSAGPU_VM_CLIENT_KERNEL;
    if (!why && (hsagpu_bus_rw(&c, base + stack, rec, len, false) !=
                 HSAGPU_BUS_OK || !v10_ctx_packet(&c, q, pkt))) {
        why = "the area or the queue's ring cannot be read";
    }
    hsagpu_bus_ctx_end(&c);
    if (!why) {
        why = hsagpu_queue_ctx_load(q, rec, len, pkt);
    }
    g_free(rec);
    trace_hsagpu_v10_ctx(ri, false, q->read_index, why ? 0 : len);
    if (why) {
        qemu_log_mask(LOG_GUEST_ERROR, "hsa-gpu-vega10: HQD %u: its saved "
                      "context is refused (%s): the dispatch at read index %"
                      PRIu64 " starts afresh\n", ri, why, q->read_index);
    }
}

/* HsaGpuV10Ops.aql_stop (qlock held) */
static void v10_aql_stop(void *opaque, unsigned ri, bool save)
{
    HsaGpuState *s = opaque;
    HsaGpuV10Ring *r = &s->v10->ring[ri];

    if (save) {
        v10_ctx_save(s, ri);
    }
    hsagpu_queue_own_stop(s, V10_AQL_QI(ri));
    trace_hsagpu_v10_aql(ri, false, r->pm4.vmid, r->doorbell, 0, 0);
}

/*
 * The MEC's AQL queues on the processor (qlock held): started from the
 * HQD's latched fields, where its read_dispatch_id says; stopped when
 * the HQD is. One the processor refuses (a ring it cannot run, no queue
 * slot left) stays off, logged.
 */
static void v10_aql_sync(HsaGpuState *s)
{
    HsaGpuV10 *v = s->v10;

    if (!v->aql_dirty) {
        return;
    }
    v->aql_dirty = false;
    for (unsigned ri = 0; ri < V10_NUM_HQD; ri++) {
        HsaGpuV10Ring *r = &v->ring[ri];
        unsigned qi = V10_AQL_QI(ri), res = HSAGPU_QRES_BAD_STATE;
        bool want = r->active && r->aql;
        uint64_t read_index = 0;
        HsaGpuBusCtx c;

        if (r->aql_run && !want) {
            hsagpu_queue_own_stop(s, qi);
            r->aql_run = 0;
            trace_hsagpu_v10_aql(ri, false, r->pm4.vmid, r->doorbell, 0, 0);
        }
        if (!want || r->aql_run) {
            continue;
        }
        if (qi < s->params.num_queues) {
            /*
             * ROCr reports amd_queue_t's read_dispatch_id: as gfx9's CP
             * does, the queue then follows amd_queue_t (profiling
             * timestamps when it asks, its queue_inactive_signal set on
             * an error). Another user's queue is a plain AQL queue.
             */
            bool amd = r->rptr_addr >= HSAGPU_QUEUE_DESC_RPTR &&
                       !((r->rptr_addr - HSAGPU_QUEUE_DESC_RPTR) &
                         (HSAGPU_AMD_QUEUE_ALIGN - 1));
            HsaGpuQueue reg = {
                .ring_lo = r->pm4.base, .ring_hi = r->pm4.base >> 32,
                /* 16 dwords an AQL packet */
                .ring_size = r->pm4.size_dw / 16,
                .rptr_lo = r->rptr_addr, .rptr_hi = r->rptr_addr >> 32,
                .wptr_lo = r->wptr_addr, .wptr_hi = r->wptr_addr >> 32,
                .vmid = r->pm4.vmid,
                .flags = amd ? HSAGPU_QF_AMD_QUEUE : 0,
                .num_gws = v->hws.gws[ri],
            };

            hsagpu_bus_ctx_init(&c, s, -1);
            c.vmid = r->pm4.vmid;
            res = hsagpu_bus_rw(&c, r->rptr_addr, &read_index, 8, false) ?
                  HSAGPU_QRES_BAD_ADDRESS :
                  hsagpu_queue_own_start(s, qi, &reg, read_index);
            hsagpu_bus_ctx_end(&c);
        }
        if (res == HSAGPU_QRES_OK) {
            v10_ctx_restore(s, ri);
        }
        trace_hsagpu_v10_aql(ri, true, r->pm4.vmid, r->doorbell, read_index,
                             res);
        if (res != HSAGPU_QRES_OK) {
            qemu_log_mask(LOG_GUEST_ERROR, "hsa-gpu-vega10: AQL queue of HQD "
                          "%u not started: result %u\n", ri, res);
            v->aql_refused++;
            r->active = 0;
            continue;
        }
        /*
         * A mapped queue's write pointer is read, as gfx9's CP does: a
         * doorbell rung while it was off (evicted, or between two of
         * the scheduler's runlists) is not lost
         */
        hsagpu_queue_own_ring(s, qi);
        v->kick = true;
        r->aql_run = 1;
    }
}

static void v10_unlock_kick(HsaGpuState *s)
{
    bool kick, msi = s->v10->msi_due;

    v10_sdma_sync(s);
    v10_aql_sync(s);
    kick = s->v10->kick;

    s->v10->kick = false;
    s->v10->msi_due = false;
    v10_vm_changed(s);
    qemu_mutex_unlock(&s->qlock);
    if (kick) {
        hsagpu_queues_kick(s);
    }
    /* the IH's MSI a register or doorbell access owes (BQL held) */
    if (msi) {
        hsagpu_irq_msix(s, 0);
    }
}

/*
 * The IH ring's memory: a bus address (MC_SPACE, as amdgpu sets it) or
 * an address of the MMHUB in @vmid
 */
static bool v10_ih_mem_write(void *opaque, uint64_t addr, bool bus,
                             unsigned vmid, const void *buf, uint32_t len)
{
    HsaGpuState *s = opaque;
    HsaGpuBusCtx w;
    bool ok;

    hsagpu_bus_ctx_init(&w, s, -1);
    w.untranslated = bus;
    w.vmid = bus ? 0 : vmid;
    w.client = HSAGPU_VM_CLIENT_DMA;
    ok = hsagpu_bus_rw(&w, addr, (void *)buf, len, true) == HSAGPU_BUS_OK;
    hsagpu_bus_ctx_end(&w);
    return ok;
}

/*
 * An interrupt source's entry into the IH ring (qlock held, in the
 * processor's pass): its MSI goes out with the pass's other interrupts
 */
static void v10_ih_post(HsaGpuState *s, const HsaGpuV10Iv *iv)
{
    bool msi;

    trace_hsagpu_v10_iv(iv->client_id, iv->src_id, iv->ring_id, iv->vmid,
                        iv->src_data[0]);
    /* a VM fault of the IH's own write is not posted into the IH */
    if (s->v10_ih_busy) {
        return;
    }
    s->v10_ih_busy = true;
    msi = hsagpu_v10_ih_push(s->v10, iv, v10_clock(s), v10_ih_mem_write, s);
    s->v10_ih_busy = false;
    if (msi) {
        hsagpu_deferred_raise(&s->pending, 0);
    }
}

static uint64_t v10_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    HsaGpuState *s = opaque;
    uint32_t val;

    hsagpu_qlock(s);
    val = hsagpu_v10_read(s->v10, addr / 4);
    v10_unlock_kick(s);
    trace_hsagpu_v10_reg_read(addr / 4, val);
    return val;
}

static void v10_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                           unsigned size)
{
    HsaGpuState *s = opaque;

    trace_hsagpu_v10_reg_write(addr / 4, val);
    hsagpu_qlock(s);
    hsagpu_v10_write(s->v10, addr / 4, val);
    v10_unlock_kick(s);
}

/* Registers are dwords; QEMU splits wider accesses, widens narrower */
static const MemoryRegionOps v10_mmio_ops = {
    .read = v10_mmio_read,
    .write = v10_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

static void v10_mmio_init(HsaGpuState *s)
{
    HsaGpuV10Ops ops = {
        .vram_rw = v10_vram_rw,
        .clock = v10_clock,
        .sdma_rptr = v10_sdma_rptr,
        .aql_stop = v10_aql_stop,
        .mem = v10_mem_rw,
        .opaque = s,
    };

    hsagpu_v10_init(s->v10, s->params.vram_size, s->params.revision, &ops);
    memory_region_init_io(&s->mmio, OBJECT(s), &v10_mmio_ops, s,
                          "hsa-gpu-vega10-mmio", V10_MMIO_BAR_SIZE);
}

static uint64_t v10_doorbell_read(void *opaque, hwaddr addr, unsigned size)
{
    return 0;
}

/*
 * A doorbell: the dword offset names a ring (the GFX ring's and each
 * queue's doorbell control register say which), the value is its new
 * write pointer. One that no ring has is dropped (traced).
 */
static void v10_doorbell_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    HsaGpuState *s = opaque;
    bool hit, msi = false;

    hsagpu_qlock(s);
    hit = hsagpu_v10_cp_doorbell(s->v10, addr / 4, val) ||
          hsagpu_v10_ih_doorbell(s->v10, addr / 4, val, &msi);
    /* an RLC queue's: the value is its write pointer (the sync gives it) */
    hit |= hsagpu_v10_sdma_doorbell(s->v10, addr / 4, val, size);
    /* a GFX or PAGE queue's: its write pointer is in memory, fetch it */
    for (unsigned qi = 0; qi < V10_SDMA_RINGS; qi++) {
        if (s->v10->sdma_running[qi].run &&
            s->v10->sdma_running[qi].wptr_addr &&
            s->v10->sdma_running[qi].doorbell == addr / 4) {
            hsagpu_queue_own_ring(s, qi);
            s->v10->kick = hit = true;
        }
    }
    /* an AQL queue's: the same, its write_dispatch_id */
    for (unsigned ri = 0; ri < V10_NUM_HQD; ri++) {
        if (s->v10->ring[ri].aql_run &&
            s->v10->ring[ri].doorbell == addr / 4) {
            hsagpu_queue_own_ring(s, V10_AQL_QI(ri));
            s->v10->kick = hit = true;
        }
    }
    s->v10->msi_due |= msi;
    v10_unlock_kick(s);
    trace_hsagpu_v10_doorbell(addr / 4, val, hit);
}

static const MemoryRegionOps v10_doorbell_ops = {
    .read = v10_doorbell_read,
    .write = v10_doorbell_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 8 },
    .impl = { .min_access_size = 4, .max_access_size = 8 },
};

static void v10_doorbell_init(HsaGpuState *s)
{
    memory_region_init_io(&s->doorbell, OBJECT(s), &v10_doorbell_ops, s,
                          "hsa-gpu-vega10-doorbell", V10_DOORBELL_BAR_SIZE);
}

/* One MSI vector, 64-bit, as amdgpu asks for (it takes MSI or MSI-X) */
static int v10_irq_init(HsaGpuState *s, Error **errp)
{
    return msi_init(PCI_DEVICE(s), HSAGPU_CAP_MSIX_OFFSET, 1, true, false,
                    errp);
}

static void v10_irq_exit(HsaGpuState *s)
{
    msi_uninit(PCI_DEVICE(s));
    /* (the device goes: no more of the scheduler's turns either) */
    timer_del(s->v10_quantum);
}

static bool v10_rom_build(HsaGpuState *s, uint8_t *rom, uint32_t size,
                          Error **errp)
{
    HsaGpuAtomParams p = {
        .vendor_id = s->params.vendor_id,
        .device_id = s->params.device_id,
        .class_code = V10_PCI_CLASS_CODE,
        .revision = s->params.revision,
        .part_number = "HSAGPU-VEGA10",
        .name = "hsa-gpu-vega10 synthetic vBIOS",
        /* an MI25's boot clocks, 852 MHz and 945 MHz, on 100 MHz */
        .boot_sclk_10khz = 85200,
        .boot_mclk_10khz = 94500,
        .core_refclk_10khz = 10000,
        .bios_scratch_reg = V10_BIOS_SCRATCH_0,
        .vram_width = 2048,     /* two HBM2 stacks, 16 channels */
    };

    if (!hsagpu_atom_build(rom, size, &p)) {
        error_setg(errp, "hsa-gpu-vega10: the vBIOS does not fit the ROM");
        return false;
    }
    return true;
}

/* The CP's memory: GPU addresses of the GFXHUB, as the CP asks them */
static unsigned v10_cp_rw(HsaGpuOpsCtx *c, uint32_t vmid, uint64_t addr,
                          void *buf, uint32_t len, bool write)
{
    hsagpu_bus_ctx_select(&c->bus, -1);
    c->bus.vmid = vmid;
    c->bus.client = HSAGPU_VM_CLIENT_PACKET;
    return hsagpu_bus_rw(&c->bus, addr, buf, len, write) != HSAGPU_BUS_OK;
}

static unsigned v10_cp_read(void *opaque, uint32_t vmid, uint64_t addr,
                            void *buf, uint32_t len)
{
    return v10_cp_rw(opaque, vmid, addr, buf, len, false);
}

static unsigned v10_cp_write(void *opaque, uint32_t vmid, uint64_t addr,
                             const void *buf, uint32_t len)
{
    return v10_cp_rw(opaque, vmid, addr, (void *)buf, len, true);
}

/* A dispatch's loads and stores through host views (hsagpu_bus_view) */
static void *v10_cp_host(void *opaque, uint32_t vmid, uint64_t addr,
                         bool is_write, uint32_t *len)
{
    HsaGpuOpsCtx *c = opaque;
    uint64_t got = 0;
    void *h;

#ifdef CONFIG_FUZZ
    return NULL;                /* the generic fuzzer fills what is read */
#endif
    hsagpu_bus_ctx_select(&c->bus, -1);
    c->bus.vmid = vmid;
    c->bus.client = HSAGPU_VM_CLIENT_PACKET;
    h = hsagpu_bus_view(&c->bus, addr, HSAGPU_GCN_TLB_SPAN -
                        (addr & (HSAGPU_GCN_TLB_SPAN - 1)), is_write, &got);
    *len = got;
    return h;
}

static void v10_cp_host_written(void *opaque, uint32_t vmid, uint64_t addr,
                                uint32_t len)
{
    HsaGpuOpsCtx *c = opaque;

    hsagpu_bus_ctx_select(&c->bus, -1);
    c->bus.vmid = vmid;
    c->bus.client = HSAGPU_VM_CLIENT_PACKET;
    hsagpu_bus_view_written(&c->bus, addr, len);
}

/* The CP's interrupts: RELEASE_MEM's end of pipe, a ring's bad packet */
static void v10_cp_irq(void *opaque, unsigned src_id, unsigned me,
                       unsigned pipe, unsigned queue, unsigned vmid,
                       uint32_t ctx_id)
{
    HsaGpuOpsCtx *c = opaque;
    HsaGpuV10Iv iv;

    hsagpu_v10_iv_cp(&iv, src_id, me, pipe, queue, vmid, ctx_id);
    v10_ih_post(c->bus.s, &iv);
}

/* INVALIDATE_TLBS: the VMIDs of the PASID are not known yet, all go */
static void v10_cp_invalidate(void *opaque, uint32_t pasid, bool all_hubs)
{
    HsaGpuOpsCtx *c = opaque;
    HsaGpuState *s = c->bus.s;

    qemu_mutex_lock(&s->vm_lock);
    hsagpu_v10_gmc_invalidate(s->v10, V10_GFXHUB, 0xffff);
    if (all_hubs) {
        hsagpu_v10_gmc_invalidate(s->v10, V10_MMHUB, 0xffff);
    }
    qemu_mutex_unlock(&s->vm_lock);
}

/* Register packets of the rings: qlock is held by the pass */
static uint32_t v10_cp_reg_read(void *opaque, uint32_t dw)
{
    HsaGpuOpsCtx *c = opaque;

    return hsagpu_v10_read(c->bus.s->v10, dw);
}

static void v10_cp_reg_write(void *opaque, uint32_t dw, uint32_t val)
{
    HsaGpuOpsCtx *c = opaque;

    trace_hsagpu_v10_reg_write(dw, val);
    hsagpu_v10_write(c->bus.s->v10, dw, val);
}

static void v10_cp_stopped(void *opaque, unsigned ri, uint32_t err,
                           uint32_t hdr)
{
    HsaGpuOpsCtx *c = opaque;
    const char *what = c->bus.s->v10->disp_what;
    const HsaGpuV10Ring *r = &c->bus.s->v10->ring[ri];

    /* where in the ring, for the driver developer reading the log */
    qemu_log_mask(LOG_GUEST_ERROR, "hsa-gpu-vega10: CP ring %u (VMID %u) "
                  "stopped: error %u at a packet with header 0x%08x, read "
                  "pointer %u of %u dwords, write pointer %" PRIu64 "%s%s\n",
                  ri, r->pm4.vmid, err, hdr, r->pm4.rptr, r->pm4.size_dw,
                  r->wptr, err == HSAGPU_PM4_ERR_DISPATCH && what ? ": " : "",
                  err == HSAGPU_PM4_ERR_DISPATCH && what ? what : "");
    trace_hsagpu_v10_ring_stopped(ri, err, hdr);
}

/* A scheduler's quantum ended: the CP's next pass gives the next turn */
static void v10_quantum_end(void *opaque)
{
    HsaGpuState *s = opaque;

    hsagpu_qlock(s);
    s->v10->hws.rotate_due = true;
    s->v10->kick = true;
    v10_unlock_kick(s);
}

/* The processor's pass: the CP's rings (qlock held) */
static void v10_pass(HsaGpuState *s, HsaGpuOpsCtx *ctx,
                     HsaGpuPassResult *pass)
{
    HsaGpuV10CpOps ops = {
        .read = v10_cp_read,
        .write = v10_cp_write,
        .reg_read = v10_cp_reg_read,
        .reg_write = v10_cp_reg_write,
        .irq = v10_cp_irq,
        .invalidate = v10_cp_invalidate,
        .stopped = v10_cp_stopped,
        .hiq_packet = hsagpu_v10_hws_packet,
        .hiq_rotate = hsagpu_v10_hws_rotate,
        .host = v10_cp_host,
        .host_written = v10_cp_host_written,
        .opaque = ctx,
    };
    uint64_t ran = 0;
    unsigned more;

    s->v10->gcn_pool = s->gcn_pool;     /* compute-threads */
    more = hsagpu_v10_cp_pass(s->v10, &ops, HSAGPU_PASS_PACKETS, &ran);

    pass->progress += ran;
    pass->gcn_vgpr_oor += s->v10->disp_oor;
    s->v10->disp_oor = 0;
    /* oversubscribed: the scheduler's turns, one a quantum */
    if (s->v10->hws.rl_over && !timer_pending(s->v10_quantum)) {
        timer_mod(s->v10_quantum, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                  V10_HWS_QUANTUM_NS);
    }
    v10_vm_changed(s);
    /* a queue packet may have started or stopped a processor queue */
    v10_sdma_sync(s);
    v10_aql_sync(s);
    /* a queue the pass started may have work already: another pass */
    pass->ended |= !!(more & V10_CP_BUSY) || s->v10->kick;
    pass->poll |= !!(more & V10_CP_WAITING);
    s->v10->kick = false;
}

/*
 * Translation (the bus resolver's first step, hsagpu_bus_resolve()):
 * SDMA's accesses go through the MMHUB, everything else through the
 * GFXHUB, in the requester's VMID. The hubs keep their own TLBs; the
 * walk and the fault registers are shared state: vm_lock.
 */
static bool v10_xlat(HsaGpuBusCtx *c, uint64_t va, bool is_write,
                     HsaGpuVmReadFn rd, HsaGpuVmXlat *x)
{
    HsaGpuState *s = c->s;
    /* the SDMA engines (their rings and data), and the IH: the MMHUB */
    bool mm = c->client == HSAGPU_VM_CLIENT_DMA ||
              (c->queue >= 0 && (s->queues[c->queue].flags & HSAGPU_QF_SDMA));
    unsigned access = c->atomic ? HSAGPU_VM_ACCESS_ATOMIC :
                      is_write ? HSAGPU_VM_ACCESS_WRITE :
                      HSAGPU_VM_ACCESS_READ;
    unsigned cid = mm ? (is_write ? V10_MMHUB_CID_SDMA0_WRITE
                                  : V10_MMHUB_CID_SDMA0_READ)
                      : V10_GFXHUB_CID_CPC;
    HsaGpuV10Xlat t;
    HsaGpuV10Fault f;
    unsigned reason;

    qemu_mutex_lock(&s->vm_lock);
    reason = hsagpu_v10_gmc_translate(s->v10, mm ? V10_MMHUB : V10_GFXHUB,
                                      c->vmid, va, access, cid, rd, s, &t,
                                      &f);
    qemu_mutex_unlock(&s->vm_lock);
    if (reason && !c->map_probe) {
        qemu_log_mask(LOG_GUEST_ERROR, "hsa-gpu-vega10: VM fault: %s VMID "
                      "%u %s at 0x%" PRIx64 " (reason %u, status 0x%08x)\n",
                      mm ? "MMHUB" : "GFXHUB", c->vmid,
                      is_write ? "write" : "read", va, reason, f.status);
        trace_hsagpu_v10_vm_fault(mm, c->vmid, va, reason, f.status);
    }
    /* the hub's interrupt for the fault: an entry of its IH client */
    if (reason && f.interrupt && !c->map_probe) {
        HsaGpuV10Iv iv;

        hsagpu_v10_iv_vm_fault(&iv, mm, c->vmid, va,
                               (f.write ? V10_IV_FAULT_WRITE : 0) |
                               (f.retry ? V10_IV_FAULT_RETRY : 0) |
                               (reason == HSAGPU_VM_REASON_NOT_PRESENT ?
                                V10_IV_FAULT_NOT_PRESENT : 0));
        v10_ih_post(s, &iv);
    }
    if (reason && !f.redirected) {
        return false;
    }
    x->va = va;
    x->size = t.len;
    x->pa = t.addr;
    x->flags = t.flags | (t.system ? HSAGPU_PTE_SYSTEM : 0);
    return true;
}

/* The SDMA rings' register packets and traps (a pass: qlock held) */
static uint32_t v10_reg_read(HsaGpuState *s, uint32_t reg)
{
    return reg < V10_NREGS ? hsagpu_v10_read(s->v10, reg) : 0;
}

static void v10_reg_write(HsaGpuState *s, uint32_t reg, uint32_t val)
{
    if (reg < V10_NREGS) {
        trace_hsagpu_v10_reg_write(reg, val);
        hsagpu_v10_write(s->v10, reg, val);
    }
}

/* TRAP: an IH entry naming the engine and its ring (0 GFX, 3 PAGE) */
static void v10_trap(HsaGpuState *s, int qi, uint32_t int_ctx)
{
    HsaGpuV10Iv iv;
    unsigned e, q;

    if (qi >= V10_AQL_QI(0) && qi < V10_AQL_QI(V10_NUM_HQD)) {
        unsigned me, pipe, queue;

        /* an AQL queue's signal event: an end-of-pipe naming the event */
        hsagpu_v10_ring_id(qi - V10_AQL_QI(0), &me, &pipe, &queue);
        hsagpu_v10_iv_cp_eop(&iv, me, pipe, queue, s->queues[qi].as_vmid,
                             int_ctx);
        v10_ih_post(s, &iv);
        return;
    }
    if (qi < 0 || qi >= V10_SDMA_RINGS) {
        return;
    }
    e = qi / V10_SDMA_QUEUES;
    q = qi % V10_SDMA_QUEUES;
    hsagpu_v10_iv_sdma_trap(&iv, e, q == 0 ? V10_IV_SDMA_RING_GFX :
                            q == 1 ? V10_IV_SDMA_RING_PAGE :
                            V10_IV_SDMA_RING_RLC,
                            s->queues[qi].as_vmid, int_ctx);
    v10_ih_post(s, &iv);
}

static void v10_reset(HsaGpuState *s)
{
    hsagpu_v10_reset(s->v10);
}

/*
 * inject-queue-hang (V10_HANG_*): an SDMA ring is the processor's queue;
 * a CP ring is held here, until the driver stops it (its reset does)
 */
static void v10_queue_hold(HsaGpuState *s, int id)
{
    int qi = id < V10_SDMA_RINGS ? id : -1;

    /* an MEC queue that is an AQL queue: the processor's queue is held */
    for (unsigned ri = 0; ri < V10_NUM_HQD; ri++) {
        if (s->v10->ring[ri].aql_run && id == V10_HANG_RING(ri)) {
            qi = V10_AQL_QI(ri);
        }
    }
    hsagpu_queue_hold(s, qi);
    hsagpu_qlock(s);
    for (unsigned ri = 0; ri < V10_NUM_RINGS; ri++) {
        s->v10->ring[ri].held = s->v10->ring[ri].active &&
                                !s->v10->ring[ri].aql &&
                                id == V10_HANG_RING(ri);
    }
    /* write pointers given meanwhile were taken: run the rest */
    s->v10->kick = true;
    v10_unlock_kick(s);
}

static int v10_queue_held(HsaGpuState *s)
{
    int id = hsagpu_queue_held(s);

    if (id >= V10_AQL_QI(0)) {
        id = V10_HANG_RING(id - V10_AQL_QI(0));
    }

    hsagpu_qlock(s);
    for (unsigned ri = 0; ri < V10_NUM_RINGS && id < 0; ri++) {
        id = s->v10->ring[ri].held ? V10_HANG_RING(ri) : -1;
    }
    qemu_mutex_unlock(&s->qlock);
    return id;
}

const HsaGpuPersonality hsagpu_vega10 = {
    .name = TYPE_HSA_GPU_VEGA10,
    /*
     * amdgpu reserves VRAM for itself (IB pool, firmware, the GART
     * table, write-back) before any user gets some
     */
    .vram_min = 64 * MiB,
    /* as a Vega10's: a vendor-specific capability first, then AER */
    .ext_vsec = 0x100,
    .ext_aer = 0x150,
    .ext_dsn = 0x1a0,
    .mmio_init = v10_mmio_init,
    .doorbell_init = v10_doorbell_init,
    .irq_init = v10_irq_init,
    .irq_exit = v10_irq_exit,
    .rom_build = v10_rom_build,
    .pass = v10_pass,
    .xlat = v10_xlat,
    .reg_read = v10_reg_read,
    .reg_write = v10_reg_write,
    .trap = v10_trap,
    .reset = v10_reset,
    .queue_hold = v10_queue_hold,
    .queue_held = v10_queue_held,
    .hang_ids = V10_HANG_IDS,
};

static const VMStateDescription vmstate_hsagpu_v10_pm4 = {
    .name = "hsa-gpu-vega10/pm4-ring",
    .version_id = 2,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(base, HsaGpuPm4Ring),
        VMSTATE_UINT32(size_dw, HsaGpuPm4Ring),
        VMSTATE_UINT32(vmid, HsaGpuPm4Ring),
        VMSTATE_UINT32(gfx_me, HsaGpuPm4Ring),
        VMSTATE_UINT32(rptr, HsaGpuPm4Ring),
        VMSTATE_UINT32(ib_active, HsaGpuPm4Ring),
        VMSTATE_UINT32(ib_vmid, HsaGpuPm4Ring),
        VMSTATE_UINT64(ib_base, HsaGpuPm4Ring),
        VMSTATE_UINT32(ib_size, HsaGpuPm4Ring),
        VMSTATE_UINT32(ib_pos, HsaGpuPm4Ring),
        VMSTATE_UINT32(wait_written, HsaGpuPm4Ring),
        VMSTATE_UINT32(error, HsaGpuPm4Ring),
        VMSTATE_UINT32(error_hdr, HsaGpuPm4Ring),
        VMSTATE_UINT64(packets, HsaGpuPm4Ring),
        /* 2: preemption meta data waiting for its IB */
        VMSTATE_UINT32_V(meta_n, HsaGpuPm4Ring, 2),
        VMSTATE_UINT64_ARRAY_V(meta_addr, HsaGpuPm4Ring, HSAGPU_PM4_META_MAX,
                               2),
        VMSTATE_UINT32_ARRAY_V(meta_len, HsaGpuPm4Ring, HSAGPU_PM4_META_MAX,
                               2),
        VMSTATE_UINT32_ARRAY_V(meta, HsaGpuPm4Ring, HSAGPU_PM4_META_DW, 2),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_hsagpu_v10_ring = {
    .name = "hsa-gpu-vega10/ring",
    .version_id = 3,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT(pm4, HsaGpuV10Ring, 1, vmstate_hsagpu_v10_pm4,
                       HsaGpuPm4Ring),
        VMSTATE_UINT32(active, HsaGpuV10Ring),
        VMSTATE_UINT32(doorbell, HsaGpuV10Ring),
        VMSTATE_UINT64(wptr, HsaGpuV10Ring),
        VMSTATE_UINT64(rptr_addr, HsaGpuV10Ring),
        VMSTATE_UINT64(wptr_addr, HsaGpuV10Ring),
        /* 2: an AQL queue, and whether the processor runs it */
        VMSTATE_UINT32_V(aql, HsaGpuV10Ring, 2),
        VMSTATE_UINT32_V(aql_run, HsaGpuV10Ring, 2),
        /* 3: its compute state and DISPATCH_DIRECT in progress */
        VMSTATE_UINT32_ARRAY_V(compute, HsaGpuV10Ring, V10_COMPUTE_NREGS, 3),
        VMSTATE_UINT32_V(disp_on, HsaGpuV10Ring, 3),
        VMSTATE_UINT64_V(disp_wg, HsaGpuV10Ring, 3),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_hsagpu_v10_sdma = {
    .name = "hsa-gpu-vega10/sdma-ring",
    .version_id = 2,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_BOOL(run, HsaGpuV10SdmaRing),
        VMSTATE_UINT64(base, HsaGpuV10SdmaRing),
        VMSTATE_UINT32(size, HsaGpuV10SdmaRing),
        VMSTATE_UINT32(vmid, HsaGpuV10SdmaRing),
        VMSTATE_UINT64(rptr, HsaGpuV10SdmaRing),
        VMSTATE_UINT64(rptr_addr, HsaGpuV10SdmaRing),
        VMSTATE_UINT64(wptr_addr, HsaGpuV10SdmaRing),
        VMSTATE_UINT32(doorbell, HsaGpuV10SdmaRing),
        /* 2: an RLC queue's write pointer, as its doorbell gave it */
        VMSTATE_UINT64_V(wptr, HsaGpuV10SdmaRing, 2),
        VMSTATE_END_OF_LIST()
    }
};

/* The scheduler: which HQDs and RLC queues are its own, for whom */
static bool v10_hws_needed(void *opaque)
{
    HsaGpuV10 *v = opaque;

    return v->hws.hiq_ring != V10_NUM_RINGS || v->hws.vmid_mask;
}

static int v10_hws_post_load(void *opaque, int version_id)
{
    HsaGpuV10 *v = opaque;

    if (v->hws.hiq_ring > V10_NUM_RINGS) {
        error_report("hsa-gpu-vega10: migrated HIQ ring %u", v->hws.hiq_ring);
        return -EINVAL;
    }
    if (v->hws.rl_size > HSAGPU_PM4_IB_SIZE_MASK || v->hws.rl_over > 1 ||
        (v->hws.rl_nproc && v->hws.rl_first >= v->hws.rl_nproc) ||
        (v->hws.rl_queues && v->hws.rl_qfirst >= v->hws.rl_queues) ||
        v->hws.rl_mapped > v->hws.rl_queues) {
        error_report("hsa-gpu-vega10: migrated runlist of %u dwords, "
                     "process %u of %u", v->hws.rl_size, v->hws.rl_first,
                     v->hws.rl_nproc);
        return -EINVAL;
    }
    /* (the quantum timer starts again at the first pass) */
    v->hws.rotate_due = false;
    return 0;
}

static const VMStateDescription vmstate_hsagpu_v10_hws = {
    .name = "hsa-gpu-vega10/regs/hws",
    .version_id = 4,
    .minimum_version_id = 1,
    .needed = v10_hws_needed,
    .post_load = v10_hws_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(hws.hiq_ring, HsaGpuV10),
        VMSTATE_UINT32(hws.vmid_mask, HsaGpuV10),
        VMSTATE_UINT64(hws.queue_mask, HsaGpuV10),
        VMSTATE_UINT32_ARRAY(hws.pasid, HsaGpuV10, V10_NUM_VMIDS),
        VMSTATE_UINT64_ARRAY(hws.mqd, HsaGpuV10, V10_NUM_HQD),
        VMSTATE_UINT64(hws.static_mask, HsaGpuV10),
        VMSTATE_UINT64_ARRAY(hws.sdma_mqd, HsaGpuV10, V10_SDMA_RINGS),
        VMSTATE_UINT32_ARRAY(hws.sdma_pasid, HsaGpuV10, V10_SDMA_RINGS),
        VMSTATE_UINT32(hws.runlists, HsaGpuV10),
        VMSTATE_UINT32(hws.maps, HsaGpuV10),
        VMSTATE_UINT32(hws.unmaps, HsaGpuV10),
        VMSTATE_UINT32(hws.refused, HsaGpuV10),
        VMSTATE_UINT32_ARRAY_V(hws.gws, HsaGpuV10, V10_NUM_HQD, 2),
        VMSTATE_UINT64_V(hws.rl_ib, HsaGpuV10, 3),
        VMSTATE_UINT32_V(hws.rl_size, HsaGpuV10, 3),
        VMSTATE_UINT32_V(hws.rl_first, HsaGpuV10, 3),
        VMSTATE_UINT32_V(hws.rl_nproc, HsaGpuV10, 3),
        VMSTATE_UINT32_V(hws.rl_resident, HsaGpuV10, 3),
        VMSTATE_UINT32_V(hws.rl_over, HsaGpuV10, 3),
        VMSTATE_UINT32_V(hws.rotations, HsaGpuV10, 3),
        VMSTATE_UINT32_V(hws.rl_qfirst, HsaGpuV10, 4),
        VMSTATE_UINT32_V(hws.rl_queues, HsaGpuV10, 4),
        VMSTATE_UINT32_V(hws.rl_mapped, HsaGpuV10, 4),
        VMSTATE_END_OF_LIST()
    }
};

/* A stream is guest data too: cursors the device could have made */
static int v10_post_load(void *opaque, int version_id)
{
    HsaGpuV10 *v = opaque;

    for (unsigned ri = 0; ri < V10_NUM_RINGS; ri++) {
        const HsaGpuPm4Ring *r = &v->ring[ri].pm4;

        uint32_t meta_dw = 0;

        if (r->ib_active && r->ib_pos > r->ib_size) {
            error_report("hsa-gpu-vega10: migrated ring %u: IB cursor %u "
                         "past its %u dwords", ri, r->ib_pos, r->ib_size);
            return -EINVAL;
        }
        for (unsigned i = 0; i < r->meta_n && i < HSAGPU_PM4_META_MAX; i++) {
            meta_dw += MIN(r->meta_len[i], HSAGPU_PM4_META_DW + 1);
        }
        if (r->meta_n > HSAGPU_PM4_META_MAX || meta_dw > HSAGPU_PM4_META_DW) {
            error_report("hsa-gpu-vega10: migrated ring %u: %u meta data "
                         "writes of %u dwords", ri, r->meta_n, meta_dw);
            return -EINVAL;
        }
    }
    for (unsigned ri = 0; ri < V10_NUM_RINGS; ri++) {
        if (v->ring[ri].aql_run && (ri >= V10_NUM_HQD || !v->ring[ri].aql)) {
            error_report("hsa-gpu-vega10: migrated ring %u: an AQL queue "
                         "that is not one", ri);
            return -EINVAL;
        }
    }
    if (v->kiq_ring > V10_NUM_RINGS) {
        error_report("hsa-gpu-vega10: migrated KIQ ring %u", v->kiq_ring);
        return -EINVAL;
    }
    return 0;
}

/*
 * The PM4 rings' DISPATCH_DIRECT workgroups in flight, as bytes: for
 * each, its ring index, its length and what hsagpu_gcn_grid_save() makes
 */
static bool v10_disp_needed(void *opaque)
{
    HsaGpuV10 *v = opaque;

    for (unsigned ri = 0; ri < V10_NUM_RINGS; ri++) {
        if (v->ring[ri].disp_on && hsagpu_gcn_grid_busy(&v->disp_grid[ri])) {
            return true;
        }
    }
    return false;
}

static int v10_disp_pre_save(void *opaque)
{
    HsaGpuV10 *v = opaque;
    GByteArray *b = g_byte_array_new();

    for (uint32_t ri = 0; ri < V10_NUM_RINGS; ri++) {
        uint8_t *grid;
        uint32_t len;

        if (!v->ring[ri].disp_on ||
            !hsagpu_gcn_grid_busy(&v->disp_grid[ri])) {
            continue;
        }
        len = hsagpu_gcn_grid_save(&v->disp_grid[ri], &grid);
        g_byte_array_append(b, (uint8_t *)&ri, 4);
        g_byte_array_append(b, (uint8_t *)&len, 4);
        g_byte_array_append(b, grid, len);
        g_free(grid);
    }
    g_free(v->disp_blob);
    v->disp_blob_len = b->len;
    v->disp_blob = g_byte_array_free(b, false);
    return 0;
}

static int v10_disp_post_save(void *opaque)
{
    HsaGpuV10 *v = opaque;

    g_free(v->disp_blob);
    v->disp_blob = NULL;
    v->disp_blob_len = 0;
    return 0;
}

/* What pre_save makes, and nothing else: each ring once, each run whole */
static int v10_disp_post_load(void *opaque, int version_id)
{
    HsaGpuV10 *v = opaque;
    const uint8_t *p = v->disp_blob;
    const uint8_t *end = p ? p + v->disp_blob_len : NULL;
    uint64_t seen = 0, seen_hi = 0;
    int ret = 0;

    while (p && end - p >= 8 && !ret) {
        uint32_t ri, len;
        bool ok;

        memcpy(&ri, p, 4);
        memcpy(&len, p + 4, 4);
        p += 8;
        ok = ri < V10_NUM_RINGS && len <= end - p && len &&
             !(ri < 64 ? seen >> ri & 1 : seen_hi >> (ri - 64) & 1) &&
             hsagpu_gcn_grid_load(&v->disp_grid[ri], p, len);
        if (!ok) {
            error_report("hsa-gpu-vega10: migrated dispatch of ring %u "
                         "does not load", ri);
            ret = -EINVAL;
            break;
        }
        if (ri < 64) {
            seen |= 1ULL << ri;
        } else {
            seen_hi |= 1ULL << (ri - 64);
        }
        p += len;
    }
    if (!ret && p != end) {
        error_report("hsa-gpu-vega10: migrated dispatches: trailing bytes");
        ret = -EINVAL;
    }
    v10_disp_post_save(v);
    return ret;
}

/* Write pointer reads CP_PQ_WPTR_POLL_CNTL1 asked for, not yet done */
static bool v10_wptr_poll_needed(void *opaque)
{
    HsaGpuV10 *v = opaque;

    return v->wptr_poll != 0;
}

static const VMStateDescription vmstate_hsagpu_v10_wptr_poll = {
    .name = "hsa-gpu-vega10/regs/wptr-poll",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = v10_wptr_poll_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(wptr_poll, HsaGpuV10),
        VMSTATE_END_OF_LIST()
    }
};

/*
 * The PM4 queues' GWS counters (a semaphore ds_gws_init set in an
 * earlier dispatch), while the scheduler gives any queue GWS
 */
static bool v10_gws_needed(void *opaque)
{
    HsaGpuV10 *v = opaque;

    for (unsigned ri = 0; ri < V10_NUM_HQD; ri++) {
        if (v->hws.gws[ri]) {
            return true;
        }
    }
    return false;
}

static bool v10_gws_ok(void *opaque, int version_id)
{
    HsaGpuV10 *v = opaque;

    for (unsigned ri = 0; ri < V10_NUM_RINGS; ri++) {
        if (v->disp_gws[ri].num > HSAGPU_GCN_GWS_MAX) {
            return false;
        }
    }
    return true;
}

static const VMStateDescription vmstate_hsagpu_v10_gws = {
    .name = "hsa-gpu-vega10/regs/pm4-gws",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = v10_gws_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(disp_gws, HsaGpuV10, V10_NUM_RINGS, 1,
                             vmstate_hsagpu_gcn_gws, HsaGpuGcnGws),
        VMSTATE_VALIDATE("PM4 GWS resources", v10_gws_ok),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_hsagpu_v10_disp = {
    .name = "hsa-gpu-vega10/regs/dispatch",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = v10_disp_needed,
    .pre_save = v10_disp_pre_save,
    .post_save = v10_disp_post_save,
    .post_load = v10_disp_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(disp_blob_len, HsaGpuV10),
        VMSTATE_VBUFFER_ALLOC_UINT32(disp_blob, HsaGpuV10, 0, NULL,
                                     disp_blob_len),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_hsagpu_v10_regs = {
    .name = "hsa-gpu-vega10/regs",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = v10_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(reg, HsaGpuV10, V10_NREGS),
        VMSTATE_UINT32_2DARRAY(hqd, HsaGpuV10, V10_NUM_HQD, V10_HQD_NREGS),
        VMSTATE_UINT32_ARRAY(sh_mem_config, HsaGpuV10, V10_NUM_VMIDS),
        VMSTATE_UINT32_ARRAY(sh_mem_bases, HsaGpuV10, V10_NUM_VMIDS),
        VMSTATE_UINT64(clock_latch, HsaGpuV10),
        VMSTATE_UINT32(hdp_flushes, HsaGpuV10),
        VMSTATE_UINT32(tlb_invalidations, HsaGpuV10),
        VMSTATE_STRUCT_ARRAY(ring, HsaGpuV10, V10_NUM_RINGS, 1,
                             vmstate_hsagpu_v10_ring, HsaGpuV10Ring),
        VMSTATE_UINT32(kiq_ring, HsaGpuV10),
        VMSTATE_STRUCT_ARRAY(sdma_running, HsaGpuV10, V10_SDMA_RINGS, 1,
                             vmstate_hsagpu_v10_sdma, HsaGpuV10SdmaRing),
        VMSTATE_BOOL(ih.msi_outstanding, HsaGpuV10),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_hsagpu_v10_hws,
        &vmstate_hsagpu_v10_disp,
        &vmstate_hsagpu_v10_wptr_poll,
        &vmstate_hsagpu_v10_gws,
        NULL
    }
};

static bool v10_vmstate_needed(void *opaque)
{
    HsaGpuState *s = opaque;

    return s->v10 != NULL;
}

const VMStateDescription vmstate_hsagpu_v10 = {
    .name = "hsa-gpu/vega10",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = v10_vmstate_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_POINTER(v10, HsaGpuState, vmstate_hsagpu_v10_regs,
                               HsaGpuV10),
        VMSTATE_END_OF_LIST()
    }
};

static void v10_instance_init(Object *obj)
{
    HsaGpuState *s = HSA_GPU(obj);

    s->pers = &hsagpu_vega10;
    s->v10 = g_new0(HsaGpuV10, 1);
    s->v10_quantum = timer_new_ns(QEMU_CLOCK_VIRTUAL, v10_quantum_end, s);
    /* defaults of the base type's properties that differ here */
    s->params.vendor_id = V10_PCI_VENDOR_ID;
    s->params.device_id = V10_PCI_DEVICE_ID;
    s->params.revision = V10_PCI_REVISION;
    s->params.vram_size = 1ULL << 30;
}

static void v10_instance_finalize(Object *obj)
{
    HsaGpuState *s = HSA_GPU(obj);

    timer_free(s->v10_quantum);
    hsagpu_v10_dispatch_free(s->v10);
    g_free(s->v10->disp_blob);
    g_free(s->v10);
    s->v10 = NULL;
}

static void v10_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

    k->vendor_id = V10_PCI_VENDOR_ID;
    k->device_id = V10_PCI_DEVICE_ID;
    k->revision = V10_PCI_REVISION;
    k->class_id = V10_PCI_CLASS_CODE >> 8;
    dc->desc = "hsa-gpu as a Vega10 (MI25) that Linux's amdgpu drives";
}

static const TypeInfo v10_info = {
    .name = TYPE_HSA_GPU_VEGA10,
    .parent = TYPE_HSA_GPU,
    .instance_init = v10_instance_init,
    .instance_finalize = v10_instance_finalize,
    .class_init = v10_class_init,
};

static void v10_register_types(void)
{
    type_register_static(&v10_info);
}

type_init(v10_register_types)
