/*
 * libFuzzer harness: hsa-gpu-vega10's QEMU-free front end driven as
 * Linux's amdgpu drives it, or as a hostile guest could: a sequence of
 * operations (fuzz-input.h) of register writes and reads anywhere in
 * BAR5 (most of them in the blocks the driver programs: the GRBM bank
 * select, the GFX ring, the HQD bank, the KIQ, the hubs' contexts,
 * apertures, invalidation engines and fault registers, the IH, the SDMA
 * queues, the windows), doorbells, CP passes (vega10-cp.c on the PM4
 * engine, the KIQ's MAP/UNMAP_QUEUES reading MQDs from memory),
 * translations by either hub (vega10-gmc.c on core/hsagpu-vm.c's walker,
 * tables in memory), IH entries (vega10-ih.c), the SDMA queues the
 * registers describe (vega10-sdma.c) run on the processor, resets, time
 * and the driver's own memory writes. Memory is system memory at bus
 * address FV_SYS and the start of VRAM, both of fuzzer bytes; the CP's
 * and the IH's accesses are translated by the hubs as the device does
 * (vega10-pci.c), faults post their IH entries.
 *
 * Besides ASan and UBSan, a run fails when the front end breaks what
 * the device around it relies on: every IH write lands inside the IH
 * ring (a whole entry, aligned) or on its write-back dword, in a VMID
 * that exists; a translation that succeeded (or went to the default
 * page) covers at least one byte and, in VRAM, stays inside it; a bad
 * hub or VMID latches nothing; a started ring has a size the engine
 * takes, its read pointer inside it; the KIQ index stays in range; an
 * SDMA queue that runs has a ring the processor accepts and would
 * migrate (an RLC queue's doorbell value included); register
 * numbers from SDMA fit SRBM's 18 bits; end-of-pipe interrupts name a
 * ring that exists.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/vega10/vega10.h"
#include "hw/hsagpu/vega10/vega10-gmc.h"
#include "hw/hsagpu/cp/hsagpu-cp.h"
#include "fuzz-mem.h"
#include "fuzz-qbus.h"
#include "fuzz-input.h"

static FuzzMem sysm, vram;      /* bus addresses; VRAM offsets */
static HsaGpuV10 *v;

static struct {
    uint8_t flags;
    uint64_t now;               /* the GPU clock, 100 MHz ticks */
    unsigned ih_writes;
    bool ih_busy;               /* an IH write's own faults are not posted */
    /* the SDMA ring queues as the device runs them (qi: ring index) */
    HsaGpuQueue sq[V10_SDMA_RINGS];
    FuzzBus bus;
    HsaGpuQueueOps qops;
    HsaGpuProc proc;
} fv;

/* MM_INDEX/MM_DATA's VRAM window: the backed start of VRAM, else zeros */
static bool fv_vram_rw(void *o, uint64_t off, uint32_t *val, bool write)
{
    uint8_t *p;

    if (off > FV_VRAM_SIZE - 4 || (off & 3)) {
        return false;
    }
    p = fuzz_mem_at(&vram, off, 4, write);
    if (p && write) {
        memcpy(p, val, 4);
    } else if (!write) {
        *val = 0;
        if (p) {
            memcpy(val, p, 4);
        }
    }
    return true;
}

static uint64_t fv_clock(void *o)
{
    return fv.now;
}

/* Table entries: as the device reads them (hsagpu_bus_read_entry) */
static int fv_table_read(void *o, bool system, uint64_t addr, uint64_t *val)
{
    if (!system && addr > FV_VRAM_SIZE - 8) {
        return -1;
    }
    return fuzz_mem_read(system ? &sysm : &vram, addr, val, 8) ? -1 : 0;
}

static void fv_ih_post(const HsaGpuV10Iv *iv);

/*
 * A translation by @hub, checked: what succeeded or went to the default
 * page covers a byte at least, and stays inside VRAM when local; a bad
 * hub or VMID changes no fault register.
 */
static unsigned fv_translate(unsigned hub, unsigned vmid, uint64_t addr,
                             unsigned access, unsigned cid, HsaGpuV10Xlat *x,
                             HsaGpuV10Fault *f)
{
    uint32_t st[V10_NUM_HUBS] = {
        v->reg[V10_GFXHUB_FAULT_STATUS],
        v->reg[V10_GFXHUB_FAULT_STATUS + V10_MMHUB_VM_DIST],
    };
    unsigned r = hsagpu_v10_gmc_translate(v, hub, vmid, addr, access, cid,
                                          fv_table_read, NULL, x, f);

    if (hub >= V10_NUM_HUBS || vmid >= V10_NUM_VMIDS) {
        FUZZ_CHECK(r == HSAGPU_VM_REASON_CONTEXT && !f->latched &&
                   !f->redirected);
        FUZZ_CHECK(st[0] == v->reg[V10_GFXHUB_FAULT_STATUS] &&
                   st[1] == v->reg[V10_GFXHUB_FAULT_STATUS +
                                   V10_MMHUB_VM_DIST]);
        return r;
    }
    FUZZ_CHECK(r <= HSAGPU_VM_REASON_CONTEXT);
    if (r && !f->redirected) {
        return r;
    }
    FUZZ_CHECK(x->len >= 1);
    FUZZ_CHECK(!f->redirected || x->system);
    if (!x->system) {
        FUZZ_CHECK(x->addr < FV_VRAM_SIZE &&
                   x->len <= FV_VRAM_SIZE - x->addr);
    }
    return r;
}

/*
 * Memory as the device's bus reaches it for the CP (GFXHUB) and the IH
 * (MMHUB): translated page by page; a fault's interrupt is an IH entry
 * of the hub's client (v10_xlat)
 */
static unsigned fv_rw(unsigned hub, unsigned vmid, uint64_t addr, void *buf,
                      uint64_t len, bool write)
{
    uint8_t *p = buf;

    if ((fv.flags & FV_F_BUS) && hub == V10_GFXHUB) {
        return write ? fuzz_mem_write(&sysm, addr, buf, len)
                     : fuzz_mem_read(&sysm, addr, buf, len);
    }
    while (len) {
        HsaGpuV10Xlat x;
        HsaGpuV10Fault f;
        unsigned cid = hub == V10_MMHUB ? V10_MMHUB_CID_OSS
                                        : V10_GFXHUB_CID_CPC;
        unsigned r = fv_translate(hub, vmid, addr,
                                  write ? HSAGPU_VM_ACCESS_WRITE
                                        : HSAGPU_VM_ACCESS_READ,
                                  cid, &x, &f);
        uint64_t n;
        FuzzMem *m;

        if (r && f.interrupt) {
            HsaGpuV10Iv iv;

            hsagpu_v10_iv_vm_fault(&iv, hub == V10_MMHUB, vmid, addr,
                                   (f.write ? V10_IV_FAULT_WRITE : 0) |
                                   (f.retry ? V10_IV_FAULT_RETRY : 0));
            fv_ih_post(&iv);
        }
        if (r && !f.redirected) {
            return 1;
        }
        n = MIN(len, x.len);
        m = x.system ? &sysm : &vram;
        if (write ? fuzz_mem_write(m, x.addr, p, n)
                  : fuzz_mem_read(m, x.addr, p, n)) {
            return 1;
        }
        addr += n;
        p += n;
        len -= n;
    }
    return 0;
}

/*
 * The IH's writes: a whole entry at an aligned offset inside the ring,
 * or the write-back dword, in the address space MC_SPACE names
 */
static bool fv_ih_write(void *o, uint64_t addr, bool bus, unsigned vmid,
                        const void *buf, uint32_t len)
{
    uint32_t cntl = v->reg[V10_IH_RB_CNTL];
    uint32_t log2 = MIN(V10_IH_RB_CNTL_RB_SIZE(cntl), V10_IH_RB_SIZE_MAX);
    uint64_t size = 4ULL << log2;
    uint64_t base = (uint64_t)(v->reg[V10_IH_RB_BASE_HI] &
                               V10_IH_RB_BASE_HI_MASK) << 40 |
                    (uint64_t)v->reg[V10_IH_RB_BASE] << 8;
    uint64_t wb = (uint64_t)(v->reg[V10_IH_RB_WPTR_ADDR_HI] &
                             V10_IH_RB_WPTR_ADDR_HI_MASK) << 32 |
                  (v->reg[V10_IH_RB_WPTR_ADDR_LO] &
                   V10_IH_RB_WPTR_ADDR_LO_MASK);
    bool entry = len == V10_IV_BYTES && addr >= base &&
                 addr - base <= size - V10_IV_BYTES &&
                 !((addr - base) % V10_IV_BYTES);

    FUZZ_CHECK(entry || (len == 4 && addr == wb));
    FUZZ_CHECK(vmid < V10_NUM_VMIDS);
    FUZZ_CHECK(bus == (V10_IH_RB_CNTL_MC_SPACE(cntl) == V10_IH_MC_SPACE_BUS));
    if ((fv.flags & FV_F_IH_FAIL) && ++fv.ih_writes % 3 == 0) {
        return false;
    }
    if (bus) {
        return !fuzz_mem_write(&sysm, addr, buf, len);
    }
    return !fv_rw(V10_MMHUB, vmid, addr, (void *)buf, len, true);
}

/* An interrupt source's entry (v10_ih_post): not from the IH's own write */
static void fv_ih_post(const HsaGpuV10Iv *iv)
{
    if (fv.ih_busy) {
        return;
    }
    fv.ih_busy = true;
    hsagpu_v10_ih_push(v, iv, fv.now, fv_ih_write, NULL);
    fv.ih_busy = false;
}

/* The CP's callbacks, as vega10-pci.c gives them */
static unsigned fv_cp_read(void *o, uint32_t vmid, uint64_t addr, void *buf,
                           uint32_t len)
{
    return fv_rw(V10_GFXHUB, vmid, addr, buf, len, false);
}

static unsigned fv_cp_write(void *o, uint32_t vmid, uint64_t addr,
                            const void *buf, uint32_t len)
{
    return fv_rw(V10_GFXHUB, vmid, addr, (void *)buf, len, true);
}

/* HsaGpuV10Ops.mem: a preempted queue's MQD and context save area */
static unsigned fv_mem(void *o, uint32_t vmid, uint64_t addr, void *buf,
                       uint32_t len, bool write)
{
    return fv_rw(V10_GFXHUB, vmid, addr, buf, len, write);
}

static uint32_t fv_cp_reg_read(void *o, uint32_t dw)
{
    FUZZ_CHECK(dw < V10_NREGS);
    return hsagpu_v10_read(v, dw);
}

static void fv_cp_reg_write(void *o, uint32_t dw, uint32_t val)
{
    FUZZ_CHECK(dw < V10_NREGS);
    hsagpu_v10_write(v, dw, val);
}

static void fv_cp_irq(void *o, unsigned src_id, unsigned me, unsigned pipe,
                      unsigned queue, unsigned vmid, uint32_t ctx_id)
{
    HsaGpuV10Iv iv;

    FUZZ_CHECK(me <= V10_MEC_NUM && pipe < V10_MEC_PIPES &&
               queue < V10_MEC_QUEUES && vmid < V10_NUM_VMIDS);
    FUZZ_CHECK(src_id == V10_IV_SRC_CP_EOP ||
               src_id == V10_IV_SRC_CP_BAD_OPCODE ||
               src_id == V10_IV_SRC_CP_PRIV_REG);
    hsagpu_v10_iv_cp(&iv, src_id, me, pipe, queue, vmid, ctx_id);
    fv_ih_post(&iv);
}

static void fv_cp_invalidate(void *o, uint32_t pasid, bool all_hubs)
{
    hsagpu_v10_gmc_invalidate(v, V10_GFXHUB, 0xffff);
    if (all_hubs) {
        hsagpu_v10_gmc_invalidate(v, V10_MMHUB, 0xffff);
    }
}

static void fv_cp_stopped(void *o, unsigned ri, uint32_t err, uint32_t hdr)
{
    FUZZ_CHECK(ri < V10_NUM_RINGS);
    FUZZ_CHECK(err >= HSAGPU_PM4_ERR_TYPE && err <= HSAGPU_PM4_ERR_MAX);
}

/* The SDMA rings' register packets and traps (v10_reg_read, v10_trap) */
static uint32_t fv_sdma_reg_read(void *o, uint32_t reg)
{
    FUZZ_CHECK(reg <= HSAGPU_SDMA_REG_MASK);
    return reg < V10_NREGS ? hsagpu_v10_read(v, reg) : 0;
}

static void fv_sdma_reg_write(void *o, uint32_t reg, uint32_t val)
{
    FUZZ_CHECK(reg <= HSAGPU_SDMA_REG_MASK);
    if (reg < V10_NREGS) {
        hsagpu_v10_write(v, reg, val);
    }
}

static unsigned fv_sdma_qi;     /* the queue being run */

static void fv_sdma_trap(void *o, uint32_t int_ctx)
{
    HsaGpuV10Iv iv;
    unsigned q = fv_sdma_qi % V10_SDMA_QUEUES;

    FUZZ_CHECK(int_ctx <= HSAGPU_SDMA_TRAP_CTX_MASK);
    hsagpu_v10_iv_sdma_trap(&iv, fv_sdma_qi / V10_SDMA_QUEUES,
                            q == 0 ? V10_IV_SDMA_RING_GFX :
                            q == 1 ? V10_IV_SDMA_RING_PAGE :
                            V10_IV_SDMA_RING_RLC,
                            fv.sq[fv_sdma_qi].as_vmid, int_ctx);
    fv_ih_post(&iv);
}

static void fv_sdma_set_vmid(void *o, uint32_t vmid)
{
    FUZZ_CHECK(vmid < HSAGPU_VM_NUM_VMIDS);
}

/* The SDMA queues follow their registers, as the device's do */
static void fv_sdma_stop(void *o, unsigned qi)
{
    hsagpu_queue_clear(&fv.sq[qi]);
}

/* an RLC queue's write pointer, as the device takes it (own_wptr) */
static void fv_sdma_wptr(void *o, unsigned qi, uint64_t wptr)
{
    HsaGpuQueue *sq = &fv.sq[qi];

    FUZZ_CHECK(qi % V10_SDMA_QUEUES >= V10_SDMA_QUEUE_RLC0);
    if (sq->state == HSAGPU_QSTATE_DISABLED ||
        sq->state == HSAGPU_QSTATE_ERROR) {
        return;
    }
    if ((wptr & 3) || wptr - sq->read_index > sq->ring_size) {
        hsagpu_queue_fail(sq, HSAGPU_QERR_RING_OVERRUN, sq->read_index);
        return;
    }
    sq->seen_wptr = wptr;
}

static uint64_t fv_sdma_rptr(void *o, unsigned qi)
{
    FUZZ_CHECK(qi < V10_SDMA_RINGS && v->sdma_running[qi].run);
    return fv.sq[qi].read_index;
}

static void fv_sdma_refused(void *o, unsigned qi, const char *why)
{
    FUZZ_CHECK(qi < V10_SDMA_RINGS && why);
}

static bool fv_sdma_start(void *o, unsigned qi, const HsaGpuV10SdmaRing *r)
{
    HsaGpuQueue *sq = &fv.sq[qi];
    bool rlc = qi % V10_SDMA_QUEUES >= V10_SDMA_QUEUE_RLC0;

    FUZZ_CHECK(r->size >= 4 && !(r->size & (r->size - 1)) &&
               r->size <= 4u << V10_RING_DW_LOG2_MAX);
    FUZZ_CHECK(r->doorbell != V10_NO_DOORBELL && !r->bad);
    FUZZ_CHECK(rlc ? !r->wptr_addr : r->wptr_addr != 0);
    memset(sq, 0, sizeof(*sq));
    sq->ring_lo = r->base;
    sq->ring_hi = r->base >> 32;
    sq->ring_size = r->size;
    sq->rptr_lo = r->rptr_addr;
    sq->rptr_hi = r->rptr_addr >> 32;
    sq->wptr_lo = r->wptr_addr;
    sq->wptr_hi = r->wptr_addr >> 32;
    sq->vmid = r->vmid;
    sq->flags = HSAGPU_QF_SDMA | HSAGPU_QF_OWN |
                (rlc ? HSAGPU_QF_OWN_WPTR | HSAGPU_QF_OWN_USER : 0);
    sq->doorbell = HSAGPU_DOORBELL_NONE;
    /* as hsagpu_queue_own_start() */
    if (hsagpu_queue_check_registration(sq, &fqb_ident, fv.sq,
                                        V10_SDMA_RINGS) != HSAGPU_QRES_OK ||
        (r->rptr & 3)) {
        return false;
    }
    hsagpu_queue_start(sq, r->rptr);
    if (rlc) {
        fv_sdma_wptr(o, qi, r->wptr);
    }
    return true;
}

static void fv_sdma_sync(void)
{
    HsaGpuV10SdmaSync ops = {
        .stop = fv_sdma_stop, .start = fv_sdma_start, .wptr = fv_sdma_wptr,
        .refused = fv_sdma_refused,
    };

    hsagpu_v10_sdma_sync(v, &ops);
}

/*
 * What the device relies on after every operation. Not instrumented for
 * coverage: run after every operation, its loop over the rings would
 * cost a quarter of the time in comparison tracing, and it has no
 * branches worth the fuzzer's attention.
 */
__attribute__((no_sanitize("coverage")))
static void fv_check(void)
{
    FUZZ_CHECK(v->kiq_ring <= V10_NUM_RINGS);
    for (unsigned ri = 0; ri < V10_NUM_RINGS; ri++) {
        const HsaGpuV10Ring *r = &v->ring[ri];
        uint32_t sz = r->pm4.size_dw;

        if (!r->active) {
            continue;
        }
        FUZZ_CHECK(sz >= 2 && !(sz & (sz - 1)) &&
                   sz <= 1u << V10_RING_DW_LOG2_MAX);
        FUZZ_CHECK(r->pm4.vmid < V10_NUM_VMIDS);
        FUZZ_CHECK(r->doorbell == V10_NO_DOORBELL ||
                   r->doorbell <= V10_DOORBELL_OFFSET(~0u));
        if (!r->pm4.error) {
            FUZZ_CHECK(r->pm4.rptr < sz);
        }
        if (r->pm4.ib_active) {
            FUZZ_CHECK(r->pm4.ib_pos <= r->pm4.ib_size);
        }
    }
    for (unsigned qi = 0; qi < V10_SDMA_RINGS; qi++) {
        FUZZ_CHECK(!v->sdma_running[qi].run ||
                   fv.sq[qi].state != HSAGPU_QSTATE_DISABLED);
        /* a queue the device runs would migrate: nothing it refuses */
        FUZZ_CHECK(fv.sq[qi].state == HSAGPU_QSTATE_DISABLED ||
                   hsagpu_queue_loaded_ok(&fv.sq[qi], &fqb_ident, fv.sq,
                                          V10_SDMA_RINGS));
    }
}

/* One operation of the input (fuzz-input.h) */
static void fv_op(const uint8_t *op, const HsaGpuV10CpOps *cp)
{
    uint8_t a = op[1];
    uint16_t b = fuzz_le16(op + 2);
    uint32_t val = fuzz_le32(op + 4);

    switch (op[0] % FV_NOPS) {
    case FV_OP_WRITE:
        hsagpu_v10_write(v, fv_reg(a, b), val);
        break;
    case FV_OP_READ:
        (void)hsagpu_v10_read(v, fv_reg(a, b));
        break;
    case FV_OP_DOORBELL: {
        uint32_t dw = a & 0x80 ? (uint32_t)(a & 0x1f) << 16 | b : b;
        uint64_t x = a & 0x40 ? (uint64_t)val << 32 : val;
        bool msi;

        /* as v10_doorbell_write: the CP's rings, the IH, SDMA queues */
        if (!hsagpu_v10_cp_doorbell(v, dw, x)) {
            hsagpu_v10_ih_doorbell(v, dw, (uint32_t)x, &msi);
        }
        hsagpu_v10_sdma_doorbell(v, dw, x, a & 0x20 ? 4 : 8);
        for (unsigned qi = 0; qi < V10_SDMA_RINGS; qi++) {
            if (v->sdma_running[qi].run && v->sdma_running[qi].wptr_addr &&
                v->sdma_running[qi].doorbell == dw) {
                hsagpu_queue_doorbell(&fv.sq[qi]);
            }
        }
        break;
    }
    case FV_OP_PASS: {
        uint64_t ran = 0;

        /* the glue's quantum timer (v10_quantum_end) */
        v->hws.rotate_due |= a & 1;
        hsagpu_v10_cp_pass(v, cp, 1 + b % 64, &ran);
        break;
    }
    case FV_OP_XLAT: {
        HsaGpuV10Xlat x;
        HsaGpuV10Fault f;

        fv_translate(a & 1, (a >> 1) & 31, (uint64_t)b << 32 | val, a >> 6,
                     b >> 10, &x, &f);
        break;
    }
    case FV_OP_IH_PUSH: {
        HsaGpuV10Iv iv;

        memset(&iv, 0, sizeof(iv));
        iv.client_id = a;
        iv.src_id = b;
        iv.ring_id = b >> 8;
        iv.vmid = val & 0xf;
        iv.vmid_src = (val >> 4) & 1;
        iv.pasid = (val >> 16) & 0xff;
        iv.src_data[0] = val;
        fv_ih_post(&iv);
        break;
    }
    case FV_OP_SDMA: {
        unsigned qi = a % V10_SDMA_RINGS;
        HsaGpuRunResult res;

        if (fv.sq[qi].state == HSAGPU_QSTATE_DISABLED) {
            break;
        }
        fv_sdma_qi = qi;
        hsagpu_queue_run(&fv.sq[qi], &fv.proc, 1 + b % 32, &res);
        FUZZ_CHECK(!res.error || fv.sq[qi].state == HSAGPU_QSTATE_ERROR);
        FUZZ_CHECK(!fv.bus.maps_open);
        break;
    }
    case FV_OP_RESET:
        /* the device's reset: its queues, then the front end */
        for (unsigned qi = 0; qi < V10_SDMA_RINGS; qi++) {
            hsagpu_queue_clear(&fv.sq[qi]);
        }
        hsagpu_v10_reset(v);
        break;
    case FV_OP_CLOCK:
        fv.now += val;
        break;
    case FV_OP_MEM: {
        uint64_t addr = (uint64_t)b << 2 | (uint64_t)(a >> 1) << 18;

        fuzz_mem_write(a & 1 ? &vram : &sysm, addr, &val, 4);
        break;
    }
    }
    /* the glue's end of every access and pass (v10_unlock_kick) */
    fv_sdma_sync();
    v->kick = false;
    v->msi_due = false;
    fv_check();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzIn in = { data, size };
    uint8_t h[FV_HEAD_SIZE];
    const uint8_t *ops, *sys, *vr;
    size_t ops_len, sys_len, vr_len;
    HsaGpuV10Ops vops = { .mem = fv_mem };
    HsaGpuV10CpOps cp = {
        .read = fv_cp_read, .write = fv_cp_write,
        .reg_read = fv_cp_reg_read, .reg_write = fv_cp_reg_write,
        .irq = fv_cp_irq, .invalidate = fv_cp_invalidate,
        .stopped = fv_cp_stopped, .hiq_packet = hsagpu_v10_hws_packet,
        .hiq_rotate = hsagpu_v10_hws_rotate,
    };

    if (!v) {
        v = calloc(1, sizeof(*v));
        FUZZ_CHECK(v);
    }
    fuzz_take(&in, h, sizeof(h));
    ops = fuzz_take_ptr(&in, fuzz_le16(h + FV_H_OPS_LEN), &ops_len);
    sys = fuzz_take_ptr(&in, fuzz_le16(h + FV_H_SYS_LEN), &sys_len);
    vr = fuzz_take_ptr(&in, in.n, &vr_len);
    fuzz_mem_map(&sysm, FV_SYS, FV_SYS_SIZE, sys, sys_len, false);
    fuzz_mem_map(&vram, 0, FV_VRAM_BACKED, vr, vr_len, false);

    memset(&fv, 0, sizeof(fv));
    fv.flags = h[FV_H_FLAGS];
    fv.now = 0x1000;
    if (fv.flags & FV_F_MIN_OPS) {
        cp.irq = NULL;
        cp.invalidate = NULL;
        cp.stopped = NULL;
    }
    vops.vram_rw = fv.flags & FV_F_NO_VRAM ? NULL : fv_vram_rw;
    vops.clock = fv.flags & FV_F_NO_CLOCK ? NULL : fv_clock;
    vops.sdma_rptr = fv_sdma_rptr;
    /* the SDMA queues' bus: system memory, registers of the front end */
    fv.bus = (FuzzBus) { .m = &sysm, .now = 1000, .step = 8,
                         .poison = UINT64_MAX - 4096,
                         .vectors = fqb_ident.msix_vectors };
    fqb_ops(&fv.qops, false, false, false);
    fv.qops.reg_read = fv_sdma_reg_read;
    fv.qops.reg_write = fv_sdma_reg_write;
    fv.qops.trap = fv_sdma_trap;
    fv.qops.set_vmid = fv_sdma_set_vmid;
    fv.proc = (HsaGpuProc) { &fv.qops, &fv.bus, &fqb_ident, NULL, NULL };

    /* a fresh device: nothing left over from the last input */
    hsagpu_v10_dispatch_free(v);
    memset(v, 0, sizeof(*v));
    hsagpu_v10_init(v, FV_VRAM_SIZE, h[FV_H_REV], &vops);
    for (size_t i = 0; i + FV_OP_SIZE <= ops_len; i += FV_OP_SIZE) {
        fv_op(ops + i, &cp);
    }
    for (unsigned qi = 0; qi < V10_SDMA_RINGS; qi++) {
        hsagpu_queue_clear(&fv.sq[qi]);
    }
    fuzz_mem_free(&sysm);
    fuzz_mem_free(&vram);
    return 0;
}
