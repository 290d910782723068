/*
 * hsa-gpu: the PM4 command processor, independent of QEMU: one packet
 * engine for every PM4 stream the device runs, the Vega10 personality's
 * rings (amdgpu's GFX ring, KIQ and compute queues) and AMD's PM4_IB
 * vendor AQL packet on hsa-gpu's queues.
 *
 * ROCr (AqlQueue::ExecutePM4, gfx9 and later) puts a PM4 INDIRECT_BUFFER
 * packet into an AQL packet of format 1 and points it at a small buffer
 * of PM4 commands (ACQUIRE_MEM, from GpuAgent::InvalidateCodeCaches).
 * That buffer runs on the engine as a compute ring's IB would, in the
 * queue's address space, without registers or interrupts; a packet the
 * engine refuses there fails the queue with a code that says what was
 * wrong, so that a runtime relying on more fails loudly instead of
 * silently getting nothing done.
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

_Static_assert(sizeof(struct hsagpu_pm4_ib_packet) == HSAGPU_AQL_PACKET_SIZE,
               "PM4_IB packet size");
_Static_assert(offsetof(struct hsagpu_pm4_ib_packet, ib_jump_cmd) == 4,
               "PM4_IB ib_jump_cmd");
_Static_assert(offsetof(struct hsagpu_pm4_ib_packet, completion_signal) ==
               56, "PM4_IB completion_signal");

static unsigned hsagpu_pm4_type(uint32_t h)
{
    return h >> HSAGPU_PM4_TYPE_SHIFT;
}

static unsigned hsagpu_pm4_opcode(uint32_t h)
{
    return (h >> HSAGPU_PM4_OPCODE_SHIFT) & HSAGPU_PM4_OPCODE_MASK;
}

/* Dwords of a type-3 packet, header included. */
static uint32_t hsagpu_pm4_len(uint32_t h)
{
    return ((h >> HSAGPU_PM4_COUNT_SHIFT) & HSAGPU_PM4_COUNT_MASK) + 2;
}

unsigned hsagpu_pm4_ib_decode(const struct hsagpu_pm4_ib_packet *pk,
                              uint64_t *base, uint32_t *ndw)
{
    const uint32_t *j = pk->ib_jump_cmd;

    if (hsagpu_pm4_type(j[0]) != HSAGPU_PM4_TYPE3 ||
        hsagpu_pm4_opcode(j[0]) != HSAGPU_PM4_OP_INDIRECT_BUFFER ||
        hsagpu_pm4_len(j[0]) != 4) {
        return HSAGPU_QERR_PM4_IB;
    }
    /* The base is dword aligned: bits 1:0 of dw1 are not address bits. */
    if ((j[1] & 3) || (j[2] & ~HSAGPU_PM4_IB_BASE_HI_MASK) ||
        !(j[3] & HSAGPU_PM4_IB_VALID)) {
        return HSAGPU_QERR_PM4_IB;
    }
    *base = (uint64_t)j[2] << 32 | j[1];
    *ndw = j[3] & HSAGPU_PM4_IB_SIZE_MASK;
    if (!*base || !*ndw || *ndw > HSAGPU_PM4_IB_MAX_DW) {
        return HSAGPU_QERR_PM4_IB;
    }
    return 0;
}

/*
 * The AQL packet's buffer runs on the PM4 engine below, as the IB of a
 * compute ring would, in the queue's address space: one command
 * processor for hsa-gpu's queues and the Vega10 personality's rings.
 */
typedef struct HsaGpuPm4Aql {
    const HsaGpuProc *p;
    unsigned err;               /* the queue error of the access that failed */
} HsaGpuPm4Aql;

static unsigned hsagpu_pm4_aql_read(void *opaque, uint32_t vmid,
                                    uint64_t addr, void *buf, uint32_t len)
{
    HsaGpuPm4Aql *a = opaque;

    a->err = hsagpu_read_data(a->p, HSAGPU_VM_CLIENT_PACKET, addr, buf, len);
    return a->err;
}

static unsigned hsagpu_pm4_aql_write(void *opaque, uint32_t vmid,
                                     uint64_t addr, const void *buf,
                                     uint32_t len)
{
    HsaGpuPm4Aql *a = opaque;

    a->err = a->p->ops->write(a->p->opaque, HSAGPU_VM_CLIENT_PACKET, addr,
                              buf, len);
    return a->err;
}

/* The 100 MHz GPU clock */
static uint64_t hsagpu_pm4_aql_clock(void *opaque)
{
    HsaGpuPm4Aql *a = opaque;

    return a->p->ops->now_ns ? a->p->ops->now_ns(a->p->opaque) / 10 : 0;
}

unsigned hsagpu_pm4_exec(const struct hsagpu_pm4_ib_packet *pk,
                         const HsaGpuProc *p, unsigned *cache_invs)
{
    HsaGpuPm4Aql a = { .p = p };
    /*
     * No registers, no end-of-pipe interrupt (an AQL packet completes
     * through its signal), no KIQ packets: those stop it
     */
    HsaGpuPm4Ops ops = {
        .read = hsagpu_pm4_aql_read, .write = hsagpu_pm4_aql_write,
        .gpu_clock = hsagpu_pm4_aql_clock, .opaque = &a,
    };
    /* a ring with nothing on it, its IB started: the IB runs, then idle */
    HsaGpuPm4Ring r = { .size_dw = 1 };
    HsaGpuPm4Outcome o;
    uint64_t base;
    uint32_t ndw;
    unsigned err;

    *cache_invs = 0;
    err = hsagpu_pm4_ib_decode(pk, &base, &ndw);
    if (err) {
        return err;
    }
    r.ib_active = 1;
    r.ib_base = base;
    r.ib_size = ndw;
    /* a packet is at least a dword: one more for the IB's end */
    o = hsagpu_pm4_ring_run(&r, 0, &ops, ndw + 1);
    *cache_invs = r.cache_actions;
    switch (o) {
    case HSAGPU_PM4_IDLE:
        return 0;
    case HSAGPU_PM4_STOPPED:
        if (r.error == HSAGPU_PM4_ERR_MEMORY) {
            return a.err ? a.err : HSAGPU_QERR_ADDRESS;
        }
        return HSAGPU_QERR_PM4_PACKET;
    default:
        /* a WAIT_REG_MEM whose condition does not hold yet */
        return HSAGPU_QERR_PM4_PACKET;
    }
}

/*
 * PM4 rings: the packet engine (hsagpu-cp.h). A ring is read from its
 * read pointer to the driver's write pointer; an INDIRECT_BUFFER runs to
 * its end before the ring goes on (one level, as on gfx9). A packet the
 * engine cannot run stops the ring, as a real CP hangs on it: the driver
 * sees the fence never come and resets the GPU.
 */

/* Dwords of the packet with header @h: 0 for type 0 and 1 */
static uint32_t hsagpu_pm4_pkt_dw(uint32_t h)
{
    switch (hsagpu_pm4_type(h)) {
    case HSAGPU_PM4_TYPE2:
        return 1;
    case HSAGPU_PM4_TYPE3:
        if (hsagpu_pm4_opcode(h) == HSAGPU_PM4_OP_NOP &&
            ((h >> HSAGPU_PM4_COUNT_SHIFT) & HSAGPU_PM4_COUNT_MASK) ==
            HSAGPU_PM4_NOP_FILLER) {
            return 1;
        }
        return hsagpu_pm4_len(h);
    }
    return 0;
}

/* Read @n dwords at dword @pos of what @r runs now (ring or IB) */
static unsigned hsagpu_pm4_fetch(const HsaGpuPm4Ring *r,
                                 const HsaGpuPm4Ops *ops, uint32_t pos,
                                 uint32_t *buf, uint32_t n)
{
    uint32_t first;

    if (r->ib_active) {
        return ops->read(ops->opaque, r->ib_vmid, r->ib_base + pos * 4ULL,
                         buf, n * 4);
    }
    first = MIN(n, r->size_dw - pos);
    if (ops->read(ops->opaque, r->vmid, r->base + pos * 4ULL, buf,
                  first * 4)) {
        return 1;
    }
    if (first < n && ops->read(ops->opaque, r->vmid, r->base, buf + first,
                               (n - first) * 4)) {
        return 1;
    }
    return 0;
}

static bool hsagpu_pm4_compare(uint32_t func, uint32_t v, uint32_t ref)
{
    switch (func) {
    case HSAGPU_PM4_FUNC_ALWAYS:
        return true;
    case HSAGPU_PM4_FUNC_LT:
        return v < ref;
    case HSAGPU_PM4_FUNC_LE:
        return v <= ref;
    case HSAGPU_PM4_FUNC_EQ:
        return v == ref;
    case HSAGPU_PM4_FUNC_NE:
        return v != ref;
    case HSAGPU_PM4_FUNC_GE:
        return v >= ref;
    case HSAGPU_PM4_FUNC_GT:
        return v > ref;
    }
    return false;
}

/* The memory address in dwords @lo, @hi, dword aligned, or ~0 */
static uint64_t hsagpu_pm4_addr(uint32_t lo, uint32_t hi, uint32_t align)
{
    uint64_t a = (uint64_t)hi << 32 | lo;

    return a & (align - 1) ? ~0ULL : a;
}

/* A memory destination of WRITE_DATA or COPY_DATA */
static bool hsagpu_pm4_mem_sel(uint32_t sel)
{
    return sel == HSAGPU_PM4_SEL_MEM_GRBM || sel == HSAGPU_PM4_SEL_TC_L2 ||
           sel == HSAGPU_PM4_SEL_MEM;
}

typedef enum {
    PM4_DONE,                   /* consumed */
    PM4_WAIT,                   /* not consumed: try again later */
    PM4_ERROR,                  /* r->error set */
    PM4_MORE,                   /* not consumed: busy, go on soon */
} HsaGpuPm4Step;

static HsaGpuPm4Step hsagpu_pm4_fail(HsaGpuPm4Ring *r, uint32_t err)
{
    r->error = err;
    return PM4_ERROR;
}

/*
 * Packets read in a process's address space (@vmid not 0: a user queue's
 * ring, the IB of a user's command submission) run unprivileged, as
 * gfx9's CP runs a queue without PRIV_STATE and a user IB: of the
 * registers, only the SH, context and user-config ranges (shader and
 * pipeline state) are theirs. The rest (config registers, and through
 * them the memory hubs, rings and interrupts) would let one process
 * reach the kernel's memory or another's.
 */
static bool hsagpu_pm4_user_reg(uint32_t vmid, uint32_t reg, uint32_t n)
{
    return !vmid ||
           (reg >= HSAGPU_PM4_SH_REG_START && reg < HSAGPU_PM4_SH_REG_END &&
            n <= HSAGPU_PM4_SH_REG_END - reg) ||
           (reg >= HSAGPU_PM4_CONTEXT_REG_START &&
            reg < HSAGPU_PM4_CONTEXT_REG_END &&
            n <= HSAGPU_PM4_CONTEXT_REG_END - reg) ||
           (reg >= HSAGPU_PM4_UCONFIG_REG_START &&
            reg < HSAGPU_PM4_UCONFIG_REG_END &&
            n <= HSAGPU_PM4_UCONFIG_REG_END - reg);
}

static HsaGpuPm4Step hsagpu_pm4_set_reg(HsaGpuPm4Ring *r,
                                        const HsaGpuPm4Ops *ops,
                                        const uint32_t *pk, uint32_t n,
                                        uint32_t start, uint32_t end)
{
    uint32_t reg = start + (pk[1] & HSAGPU_PM4_SET_REG_OFFSET_MASK);

    if (!ops->reg_write) {
        return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_OPCODE);
    }
    if (n < 3 || reg + (n - 2) > end) {
        return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PACKET);
    }
    for (uint32_t i = 2; i < n; i++) {
        ops->reg_write(ops->opaque, reg + i - 2, pk[i]);
    }
    return PM4_DONE;
}

/* Preemption meta data, kept until its IB starts (HsaGpuPm4Ring.meta) */
static HsaGpuPm4Step hsagpu_pm4_meta_queue(HsaGpuPm4Ring *r, uint64_t a,
                                           const uint32_t *data, uint32_t n)
{
    uint32_t used = 0;

    for (uint32_t i = 0; i < r->meta_n; i++) {
        used += r->meta_len[i];
    }
    if (r->meta_n >= HSAGPU_PM4_META_MAX || n > HSAGPU_PM4_META_DW - used) {
        return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PACKET);
    }
    r->meta_addr[r->meta_n] = a;
    r->meta_len[r->meta_n++] = n;
    memcpy(&r->meta[used], data, n * 4);
    return PM4_DONE;
}

/* An IB starts in @vmid: the meta data before it is written there */
static HsaGpuPm4Step hsagpu_pm4_meta_write(HsaGpuPm4Ring *r,
                                           const HsaGpuPm4Ops *ops,
                                           uint32_t vmid)
{
    uint32_t used = 0, n = r->meta_n;

    r->meta_n = 0;
    for (uint32_t i = 0; i < n && i < HSAGPU_PM4_META_MAX; i++) {
        if (r->meta_len[i] > HSAGPU_PM4_META_DW - used ||
            ops->write(ops->opaque, vmid, r->meta_addr[i], &r->meta[used],
                       r->meta_len[i] * 4)) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_MEMORY);
        }
        used += r->meta_len[i];
    }
    return PM4_DONE;
}

static HsaGpuPm4Step hsagpu_pm4_write_data(HsaGpuPm4Ring *r,
                                           const HsaGpuPm4Ops *ops,
                                           uint32_t vmid, const uint32_t *pk,
                                           uint32_t n)
{
    uint32_t sel = HSAGPU_PM4_WD_DST_SEL(pk[1]);
    bool one = pk[1] & HSAGPU_PM4_WD_ONE_ADDR;
    uint64_t a;

    if (n < 5) {
        return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PACKET);
    }
    if (sel == HSAGPU_PM4_SEL_REG) {
        if (!ops->reg_write) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_OPCODE);
        }
        if (!hsagpu_pm4_user_reg(vmid, pk[2], one ? 1 : n - 4)) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PRIV);
        }
        for (uint32_t i = 4; i < n; i++) {
            ops->reg_write(ops->opaque, pk[2] + (one ? 0 : i - 4), pk[i]);
        }
        return PM4_DONE;
    }
    a = hsagpu_pm4_addr(pk[2], pk[3], 4);
    if ((!hsagpu_pm4_mem_sel(sel) && sel != HSAGPU_PM4_SEL_PREEMPT_META) ||
        a == ~0ULL) {
        return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PACKET);
    }
    if (sel == HSAGPU_PM4_SEL_PREEMPT_META) {
        return hsagpu_pm4_meta_queue(r, a, one ? &pk[n - 1] : &pk[4],
                                     one ? 1 : n - 4);
    }
    /* to one address, the writes leave the last value */
    if (one ? ops->write(ops->opaque, vmid, a, &pk[n - 1], 4)
            : ops->write(ops->opaque, vmid, a, &pk[4], (n - 4) * 4)) {
        return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_MEMORY);
    }
    return PM4_DONE;
}

static HsaGpuPm4Step hsagpu_pm4_wait(HsaGpuPm4Ring *r, const HsaGpuPm4Ops *ops,
                                     uint32_t vmid, const uint32_t *pk,
                                     uint32_t n)
{
    uint32_t func = HSAGPU_PM4_WAIT_FUNC(pk[1]), v;
    bool mem = pk[1] & HSAGPU_PM4_WAIT_MEM;
    bool write_first = pk[1] & HSAGPU_PM4_WAIT_WRITE_FIRST;

    if (n != HSAGPU_PM4_WAIT_DW || func > HSAGPU_PM4_FUNC_GT ||
        (write_first && mem)) {
        return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PACKET);
    }
    if (mem) {
        uint64_t a = hsagpu_pm4_addr(pk[2], pk[3], 4);

        if (a == ~0ULL) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PACKET);
        }
        if (ops->read(ops->opaque, vmid, a, &v, 4)) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_MEMORY);
        }
    } else {
        if (!ops->reg_read || !ops->reg_write) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_OPCODE);
        }
        if (!hsagpu_pm4_user_reg(vmid, pk[2], 1) ||
            (write_first && !hsagpu_pm4_user_reg(vmid, pk[3], 1))) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PRIV);
        }
        /* write the request once, then wait for the other register */
        if (write_first && !r->wait_written) {
            ops->reg_write(ops->opaque, pk[2], pk[4]);
            r->wait_written = 1;
        }
        v = ops->reg_read(ops->opaque, write_first ? pk[3] : pk[2]);
    }
    /*
     * Both sides masked: a write-then-wait's reference is the value it
     * writes (amdgpu's TLB flush writes the whole request and waits for
     * its VMID's bit of the acknowledgement)
     */
    if (!hsagpu_pm4_compare(func, v & pk[5], pk[4] & pk[5])) {
        return PM4_WAIT;
    }
    r->wait_written = 0;
    return PM4_DONE;
}

static HsaGpuPm4Step hsagpu_pm4_release_mem(HsaGpuPm4Ring *r,
                                            const HsaGpuPm4Ops *ops,
                                            uint32_t vmid, const uint32_t *pk,
                                            uint32_t n)
{
    uint32_t data = HSAGPU_PM4_RM_DATA_SEL(pk[2]);
    uint32_t irq = HSAGPU_PM4_RM_INT_SEL(pk[2]);
    uint64_t v, a;
    uint32_t len;

    /*
     * (INT_SEL 5 and 6, an interrupt when the written data compares
     * equal, are refused: neither amdgpu, ROCr nor kfdtest sends them)
     */
    if (n != HSAGPU_PM4_RELEASE_MEM_DW || data > HSAGPU_PM4_DATA_SYS_CLOCK ||
        irq > HSAGPU_PM4_INT_ALWAYS) {
        return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PACKET);
    }
    /* caches: none to flush, every access went to memory */
    if (data != HSAGPU_PM4_DATA_NONE) {
        len = data == HSAGPU_PM4_DATA_32 ? 4 : 8;
        a = hsagpu_pm4_addr(pk[3], pk[4], len);
        if (a == ~0ULL) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PACKET);
        }
        v = data >= HSAGPU_PM4_DATA_GPU_CLOCK ?
            (ops->gpu_clock ? ops->gpu_clock(ops->opaque) : 0) :
            hsagpu_reg64(pk[5], pk[6]);
        if (ops->write(ops->opaque, vmid, a, &v, len)) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_MEMORY);
        }
    }
    if (irq != HSAGPU_PM4_INT_NONE && irq != HSAGPU_PM4_INT_DATA_CONFIRMED &&
        ops->eop) {
        ops->eop(ops->opaque, pk[7]);
    }
    return PM4_DONE;
}

static HsaGpuPm4Step hsagpu_pm4_copy_data(HsaGpuPm4Ring *r,
                                          const HsaGpuPm4Ops *ops,
                                          uint32_t vmid, const uint32_t *pk,
                                          uint32_t n)
{
    uint32_t src = HSAGPU_PM4_CD_SRC_SEL(pk[1]);
    uint32_t dst = HSAGPU_PM4_CD_DST_SEL(pk[1]);
    uint32_t nd = pk[1] & HSAGPU_PM4_CD_64 ? 2 : 1, v[2];
    uint64_t a;

    if (n != HSAGPU_PM4_COPY_DW) {
        return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PACKET);
    }
    if ((src == HSAGPU_PM4_SEL_REG || dst == HSAGPU_PM4_SEL_REG) &&
        (!ops->reg_read || !ops->reg_write)) {
        return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_OPCODE);
    }
    if ((src == HSAGPU_PM4_SEL_REG && !hsagpu_pm4_user_reg(vmid, pk[2], nd)) ||
        (dst == HSAGPU_PM4_SEL_REG && !hsagpu_pm4_user_reg(vmid, pk[4], nd))) {
        return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PRIV);
    }
    if (src == HSAGPU_PM4_SEL_REG) {
        for (uint32_t i = 0; i < nd; i++) {
            v[i] = ops->reg_read(ops->opaque, pk[2] + i);
        }
    } else if (src == HSAGPU_PM4_SEL_MEM_GRBM || src == HSAGPU_PM4_SEL_TC_L2) {
        /* as a source, 5 is immediate data, not memory */
        a = hsagpu_pm4_addr(pk[2], pk[3], nd * 4);
        if (a == ~0ULL) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PACKET);
        }
        if (ops->read(ops->opaque, vmid, a, v, nd * 4)) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_MEMORY);
        }
    } else if (src == HSAGPU_PM4_SEL_IMM) {
        v[0] = pk[2];
        v[1] = pk[3];
    } else if (src == HSAGPU_PM4_SEL_GPU_CLOCK) {
        uint64_t c = ops->gpu_clock ? ops->gpu_clock(ops->opaque) : 0;

        v[0] = c;
        v[1] = c >> 32;
    } else {
        return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PACKET);
    }
    if (dst == HSAGPU_PM4_SEL_REG) {
        for (uint32_t i = 0; i < nd; i++) {
            ops->reg_write(ops->opaque, pk[4] + i, v[i]);
        }
        return PM4_DONE;
    }
    a = hsagpu_pm4_addr(pk[4], pk[5], nd * 4);
    if (!hsagpu_pm4_mem_sel(dst) || a == ~0ULL) {
        return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PACKET);
    }
    if (ops->write(ops->opaque, vmid, a, v, nd * 4)) {
        return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_MEMORY);
    }
    return PM4_DONE;
}

/* INDIRECT_BUFFER: the IB runs next (a CONST one is the CE's: none) */
static HsaGpuPm4Step hsagpu_pm4_ib(HsaGpuPm4Ring *r, const HsaGpuPm4Ops *ops,
                                   const uint32_t *pk, uint32_t n, bool ce)
{
    uint32_t size = pk[3] & HSAGPU_PM4_IB_SIZE_MASK, vmid;

    if (n != 4 || r->ib_active || (pk[1] & 3) ||
        (pk[2] & ~HSAGPU_PM4_IB_BASE_HI_MASK) ||
        (!r->gfx_me && !(pk[3] & HSAGPU_PM4_IB_VALID))) {
        return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_IB);
    }
    /* a user queue's IB is its own: the VMID field is the kernel's */
    vmid = r->vmid ? r->vmid : HSAGPU_PM4_IB_VMID(pk[3]);
    if (r->meta_n && hsagpu_pm4_meta_write(r, ops, vmid) != PM4_DONE) {
        return PM4_ERROR;
    }
    /*
     * The constant engine's IBs fill its constant RAM for graphics
     * shaders; nothing here reads that RAM, so they are skipped.
     */
    if (ce || !size) {
        return PM4_DONE;
    }
    r->ib_active = 1;
    r->ib_base = (uint64_t)pk[2] << 32 | pk[1];
    r->ib_size = size;
    r->ib_pos = 0;
    r->ib_vmid = vmid;
    return PM4_DONE;
}

/* Run the packet @pk (@n dwords) read from @vmid's ring or IB */
static HsaGpuPm4Step hsagpu_pm4_packet(HsaGpuPm4Ring *r,
                                       const HsaGpuPm4Ops *ops,
                                       uint32_t vmid, const uint32_t *pk,
                                       uint32_t n)
{
    switch (hsagpu_pm4_opcode(pk[0])) {
    case HSAGPU_PM4_OP_SET_CONFIG_REG:
        if (vmid) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PRIV);
        }
        return hsagpu_pm4_set_reg(r, ops, pk, n, HSAGPU_PM4_CONFIG_REG_START,
                                  HSAGPU_PM4_CONFIG_REG_END);
    case HSAGPU_PM4_OP_SET_CONTEXT_REG:
        return hsagpu_pm4_set_reg(r, ops, pk, n, HSAGPU_PM4_CONTEXT_REG_START,
                                  HSAGPU_PM4_CONTEXT_REG_END);
    case HSAGPU_PM4_OP_SET_SH_REG:
        return hsagpu_pm4_set_reg(r, ops, pk, n, HSAGPU_PM4_SH_REG_START,
                                  HSAGPU_PM4_SH_REG_END);
    case HSAGPU_PM4_OP_SET_UCONFIG_REG:
        return hsagpu_pm4_set_reg(r, ops, pk, n, HSAGPU_PM4_UCONFIG_REG_START,
                                  HSAGPU_PM4_UCONFIG_REG_END);
    case HSAGPU_PM4_OP_WRITE_DATA:
        return hsagpu_pm4_write_data(r, ops, vmid, pk, n);
    case HSAGPU_PM4_OP_WAIT_REG_MEM:
        return hsagpu_pm4_wait(r, ops, vmid, pk, n);
    case HSAGPU_PM4_OP_RELEASE_MEM:
        return hsagpu_pm4_release_mem(r, ops, vmid, pk, n);
    case HSAGPU_PM4_OP_COPY_DATA:
        return hsagpu_pm4_copy_data(r, ops, vmid, pk, n);
    case HSAGPU_PM4_OP_DISPATCH_DIRECT: {
        unsigned err;

        if (!ops->dispatch) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_OPCODE);
        }
        if (n != HSAGPU_PM4_DISPATCH_DIRECT_DW) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PACKET);
        }
        err = ops->dispatch(ops->opaque, vmid, pk);
        return err == HSAGPU_PM4_DISPATCH_MORE ? PM4_MORE :
               err ? hsagpu_pm4_fail(r, err) : PM4_DONE;
    }
    case HSAGPU_PM4_OP_INDIRECT_BUFFER:
        return hsagpu_pm4_ib(r, ops, pk, n, false);
    case HSAGPU_PM4_OP_INDIRECT_BUFFER_CONST:
        return hsagpu_pm4_ib(r, ops, pk, n, true);
    case HSAGPU_PM4_OP_ACQUIRE_MEM:
        /*
         * gfx9's form (gfx10's is 8 dwords with other fields); no caches
         * to invalidate or write back: every access goes to memory
         */
        if (n != HSAGPU_PM4_ACQUIRE_MEM_DW) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PACKET);
        }
        r->cache_actions++;
        return PM4_DONE;
    case HSAGPU_PM4_OP_NOP:
    case HSAGPU_PM4_OP_SET_BASE:
    case HSAGPU_PM4_OP_CLEAR_STATE:
    case HSAGPU_PM4_OP_CONTEXT_CONTROL:
    case HSAGPU_PM4_OP_PFP_SYNC_ME:
    case HSAGPU_PM4_OP_EVENT_WRITE:
    case HSAGPU_PM4_OP_PREAMBLE_CNTL:
    case HSAGPU_PM4_OP_SWITCH_BUFFER:
    case HSAGPU_PM4_OP_FRAME_CONTROL:
        /*
         * Graphics state and pipeline synchronisation: no graphics
         * pipeline, and every packet completes before the next starts
         */
        return PM4_DONE;
    case HSAGPU_PM4_OP_SET_RESOURCES:
    case HSAGPU_PM4_OP_MAP_PROCESS:
    case HSAGPU_PM4_OP_MAP_QUEUES:
    case HSAGPU_PM4_OP_UNMAP_QUEUES:
    case HSAGPU_PM4_OP_QUERY_STATUS:
    case HSAGPU_PM4_OP_RUN_LIST:
    case HSAGPU_PM4_OP_INVALIDATE_TLBS:
        if (!ops->queue_packet) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_OPCODE);
        }
        if (vmid) {
            return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_PRIV);
        }
        r->error = ops->queue_packet(ops->opaque, pk, n);
        return r->error ? PM4_ERROR : PM4_DONE;
    }
    return hsagpu_pm4_fail(r, HSAGPU_PM4_ERR_OPCODE);
}

HsaGpuPm4Outcome hsagpu_pm4_ring_run(HsaGpuPm4Ring *r, uint64_t wptr,
                                     const HsaGpuPm4Ops *ops,
                                     unsigned budget)
{
    /* On the stack: each device has its own processor thread. */
    uint32_t pk[HSAGPU_PM4_PKT_MAX_DW];
    uint32_t mask = r->size_dw - 1;

    if (r->error) {
        return HSAGPU_PM4_STOPPED;
    }
    if (!r->size_dw || (r->size_dw & mask) || r->rptr > mask) {
        r->error = HSAGPU_PM4_ERR_PACKET;
        return HSAGPU_PM4_STOPPED;
    }
    for (; budget; budget--) {
        uint32_t pos = r->ib_active ? r->ib_pos : r->rptr;
        uint32_t avail, n, skip = 0;
        HsaGpuPm4Step st;

        if (r->ib_active) {
            avail = r->ib_size - r->ib_pos;
            if (!avail) {
                r->ib_active = 0;
                budget++;
                continue;
            }
        } else {
            avail = ((uint32_t)wptr - r->rptr) & mask;
            if (!avail) {
                return HSAGPU_PM4_IDLE;
            }
        }
        if (hsagpu_pm4_fetch(r, ops, pos, pk, 1)) {
            r->error = HSAGPU_PM4_ERR_MEMORY;
            break;
        }
        r->error_hdr = pk[0];
        n = hsagpu_pm4_pkt_dw(pk[0]);
        if (!n) {
            r->error = HSAGPU_PM4_ERR_TYPE;
            break;
        }
        if (n > avail) {
            /* the rest of a ring's packet is still to come */
            if (!r->ib_active && n < r->size_dw) {
                return HSAGPU_PM4_WAIT;
            }
            r->error = HSAGPU_PM4_ERR_PACKET;
            break;
        }
        if (hsagpu_pm4_type(pk[0]) == HSAGPU_PM4_TYPE2 ||
            hsagpu_pm4_opcode(pk[0]) == HSAGPU_PM4_OP_NOP) {
            st = PM4_DONE;      /* a filler or NOP: its body is not read */
        } else if (n > HSAGPU_PM4_PKT_MAX_DW) {
            r->error = HSAGPU_PM4_ERR_PACKET;
            break;
        } else if (hsagpu_pm4_fetch(r, ops, pos, pk, n)) {
            r->error = HSAGPU_PM4_ERR_MEMORY;
            break;
        } else if (hsagpu_pm4_opcode(pk[0]) == HSAGPU_PM4_OP_COND_EXEC) {
            uint64_t a = hsagpu_pm4_addr(pk[1], pk[2], 4);
            uint32_t v;

            if (n != HSAGPU_PM4_COND_EXEC_DW || a == ~0ULL) {
                r->error = HSAGPU_PM4_ERR_PACKET;
                break;
            }
            if (ops->read(ops->opaque, r->ib_active ? r->ib_vmid : r->vmid,
                          a, &v, 4)) {
                r->error = HSAGPU_PM4_ERR_MEMORY;
                break;
            }
            /* 0 there: the dwords that follow are discarded */
            skip = v ? 0 : pk[4] & HSAGPU_PM4_COND_EXEC_COUNT_MASK;
            if (skip > avail - n) {
                if (!r->ib_active && skip < r->size_dw) {
                    return HSAGPU_PM4_WAIT;
                }
                r->error = HSAGPU_PM4_ERR_PACKET;
                break;
            }
            st = PM4_DONE;
        } else {
            bool was_ib = r->ib_active;
            uint32_t epoch = r->epoch;

            st = hsagpu_pm4_packet(r, ops, was_ib ? r->ib_vmid : r->vmid,
                                   pk, n);
            if (r->epoch != epoch) {
                /* the packet restarted this very ring: it is not ours */
                return HSAGPU_PM4_BUDGET;
            }
            if (st == PM4_DONE && !was_ib && r->ib_active) {
                /* the ring moves past the IB packet; the IB runs next */
                r->rptr = (r->rptr + n) & mask;
                r->packets++;
                continue;
            }
        }
        if (st == PM4_WAIT) {
            return HSAGPU_PM4_WAIT;
        }
        if (st == PM4_MORE) {
            return HSAGPU_PM4_BUDGET;  /* a slice of it ran: more soon */
        }
        if (st == PM4_ERROR) {
            break;
        }
        r->packets++;
        if (r->ib_active) {
            r->ib_pos += n + skip;
        } else {
            r->rptr = (r->rptr + n + skip) & mask;
        }
    }
    return r->error ? HSAGPU_PM4_STOPPED : HSAGPU_PM4_BUDGET;
}
