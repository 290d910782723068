/*
 * hsa-gpu: SDMA rings, independent of QEMU.
 *
 * A queue registered with HSAGPU_QF_SDMA carries the SDMA v4 packet
 * subset ROCr's BlitSdmaV4 emits (include/hsagpu/hsagpu_sdma.h) instead
 * of AQL packets. It is served by the same scheduler as AQL queues and
 * reaches memory, AtomicOps, the DMA data path and interrupts through
 * the same HsaGpuQueueOps, in the queue's address space. The read and
 * write pointers are byte offsets that only grow; the device reads *WPTR
 * on every turn (the doorbell only wakes it) and writes *RPTR after
 * every packet, which is what ROCr reads to reuse ring space.
 *
 * Every ring runs INDIRECT (an IB, fetched by the same loop as the ring,
 * one level): a kernel ring's in the VMID the packet names, a user's in
 * its own. When the ops reach registers (reg_read/reg_write: the Vega10
 * personality) the ring is one of amdgpu's kernel rings and also runs
 * what sdma_v4_0.c emits beyond ROCr's subset: PTEPDE, SRBM_WRITE and
 * register polls. A user-fed ring never gets them (the personality's
 * too: HSAGPU_QF_OWN_USER, amdkfd's RLC queues): they reach registers
 * and page tables.
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

/* NOP dwords skipped with one ring read (ROCr pads with zero dwords). */
#define HSAGPU_SDMA_NOP_BATCH   256U
/* Rows of a COPY_LINEAR_RECT per slice, besides the byte budget */
#define HSAGPU_SDMA_RECT_ROWS   4096U
/* Dwords a WRITE or PTEPDE moves per bus access */
#define HSAGPU_SDMA_CHUNK_DW    256U
/*
 * A WRITE or PTEPDE storing more than this (up to 4 MiB) counts as a DMA
 * slice in the pass's budget, like a copy; amdgpu's are a few entries.
 */
#define HSAGPU_SDMA_INLINE_BYTES 4096U

typedef enum {
    SDMA_DONE,                  /* consumed */
    SDMA_WAIT,                  /* not consumed: wait (poll, or partial) */
    SDMA_PARTIAL,               /* not consumed: a slice was done */
    SDMA_SHORT,                 /* not all there: in an IB, an error */
    SDMA_IB,                    /* an INDIRECT latched its IB: run it */
    SDMA_ERROR,
} HsaGpuSdmaOutcome;

/* Where packets come from: the ring, or the IB being run */
typedef struct HsaGpuSdmaSrc {
    bool ib;
    uint64_t off;               /* ring: read_index; IB: bytes into it */
    uint64_t avail;             /* bytes there from off */
} HsaGpuSdmaSrc;

/*
 * amdgpu's kernel rings: the ops reach the device's registers; not a
 * user process's ring of the same personality (amdkfd's RLC queues).
 */
static bool hsagpu_sdma_kernel(const HsaGpuQueue *q, const HsaGpuProc *p)
{
    return p->ops->reg_read && p->ops->reg_write &&
           !(q->flags & HSAGPU_QF_OWN_USER);
}

unsigned hsagpu_sdma_check_ring(const HsaGpuQueue *q)
{
    uint64_t ring = hsagpu_reg64(q->ring_lo, q->ring_hi);

    if (q->ring_size < HSAGPU_SDMA_RING_MIN ||
        q->ring_size > HSAGPU_SDMA_RING_MAX ||
        (q->ring_size & (q->ring_size - 1)) ||
        (ring & (HSAGPU_SDMA_RING_ALIGN - 1)) || !ring ||
        ring + q->ring_size < ring) {
        return HSAGPU_QRES_BAD_RING;
    }
    return HSAGPU_QRES_OK;
}

static uint64_t hsagpu_sdma_addr(uint32_t lo, uint32_t hi)
{
    return hsagpu_reg64(lo, hi);
}

/* Read @len bytes of the ring at byte offset @off, across its end. */
static unsigned hsagpu_sdma_ring_read(const HsaGpuQueue *q, const HsaGpuProc *p,
                                      uint64_t off, void *buf, uint32_t len)
{
    uint32_t pos = off & (q->ring_size - 1);
    uint32_t first = MIN(len, q->ring_size - pos);
    unsigned err;

    err = p->ops->read(p->opaque, HSAGPU_VM_CLIENT_PACKET,
                       q->ring_base + pos, buf, first);
    if (err || first == len) {
        return err;
    }
    return p->ops->read(p->opaque, HSAGPU_VM_CLIENT_PACKET, q->ring_base,
                        (uint8_t *)buf + first, len - first);
}

/* Read @len bytes at byte @pos of the packet at @s. */
static unsigned hsagpu_sdma_src_read(const HsaGpuQueue *q,
                                     const HsaGpuProc *p,
                                     const HsaGpuSdmaSrc *s, uint64_t pos,
                                     void *buf, uint32_t len)
{
    if (s->ib) {
        return p->ops->read(p->opaque, HSAGPU_VM_CLIENT_PACKET,
                            q->sdma_ib_base + s->off + pos, buf, len);
    }
    return hsagpu_sdma_ring_read(q, p, s->off + pos, buf, len);
}

/*
 * Packet length in dwords for @hdr (WRITE: without its data), or 0 for an
 * unknown opcode; @kernel: a kernel ring's packets too.
 */
static unsigned hsagpu_sdma_pkt_dw(uint32_t hdr, bool kernel)
{
    unsigned sub = HSAGPU_SDMA_HDR_SUB_OP(hdr);

    switch (HSAGPU_SDMA_HDR_OP(hdr)) {
    case HSAGPU_SDMA_OP_WRITE:
        /* memory in the ring's own space: a user's too (kfdtest's) */
        return sub == HSAGPU_SDMA_SUBOP_WRITE_LINEAR ? HSAGPU_SDMA_WRITE_DW
                                                     : 0;
    case HSAGPU_SDMA_OP_INDIRECT:
        /* a user's IB runs in its ring's space (hsagpu_sdma_ib_start) */
        return !sub ? HSAGPU_SDMA_INDIRECT_DW : 0;
    case HSAGPU_SDMA_OP_PTEPDE:
        return kernel && sub == HSAGPU_SDMA_SUBOP_PTEPDE_GEN ?
               HSAGPU_SDMA_PTEPDE_DW : 0;
    case HSAGPU_SDMA_OP_SRBM_WRITE:
        return kernel && !sub ? HSAGPU_SDMA_SRBM_WRITE_DW : 0;
    case HSAGPU_SDMA_OP_NOP:
        return sub ? 0 : 1 + HSAGPU_SDMA_NOP_COUNT(hdr);
    case HSAGPU_SDMA_OP_COPY:
        return sub == HSAGPU_SDMA_SUBOP_COPY_LINEAR ?
               (hdr & HSAGPU_SDMA_COPY_BROADCAST ?
                HSAGPU_SDMA_COPY_BROADCAST_DW : HSAGPU_SDMA_COPY_LINEAR_DW) :
               sub == HSAGPU_SDMA_SUBOP_COPY_LINEAR_RECT ?
               HSAGPU_SDMA_COPY_RECT_DW : 0;
    case HSAGPU_SDMA_OP_FENCE:
        return sub ? 0 : HSAGPU_SDMA_FENCE_DW;
    case HSAGPU_SDMA_OP_TRAP:
        return sub ? 0 : HSAGPU_SDMA_TRAP_DW;
    case HSAGPU_SDMA_OP_POLL_REGMEM:
        return sub ? 0 : HSAGPU_SDMA_POLL_REGMEM_DW;
    case HSAGPU_SDMA_OP_ATOMIC:
        return sub ? 0 : HSAGPU_SDMA_ATOMIC_DW;
    case HSAGPU_SDMA_OP_CONST_FILL:
        return sub ? 0 : HSAGPU_SDMA_CONST_FILL_DW;
    case HSAGPU_SDMA_OP_TIMESTAMP:
        return sub == HSAGPU_SDMA_SUBOP_TIMESTAMP_GET_GLOBAL ?
               HSAGPU_SDMA_TIMESTAMP_DW : 0;
    default:
        return 0;
    }
}

static bool hsagpu_ranges_meet(uint64_t a, uint64_t b, uint64_t len)
{
    return a < b + len && b < a + len;
}

/* One contiguous copy or fill on the DMA data path. */
static unsigned hsagpu_sdma_move(const HsaGpuProc *p, uint64_t dst,
                                 uint64_t src, uint64_t len,
                                 const uint32_t *pattern, uint64_t *bad)
{
    if (dst + len < dst || (!pattern && src + len < src)) {
        *bad = dst + len < dst ? dst : src;
        return HSAGPU_QERR_ADDRESS;
    }
    if (!pattern && hsagpu_ranges_meet(src, dst, len)) {
        *bad = dst;
        return HSAGPU_QERR_DMA_OVERLAP;
    }
    return p->ops->dma(p->opaque, dst, src, len, pattern, bad);
}

static unsigned hsagpu_sdma_copy_linear(const HsaGpuProc *p,
                                        const uint32_t *dw, uint64_t *bad)
{
    struct hsagpu_sdma_copy_linear c;
    bool two;
    unsigned err;

    memcpy(&c, dw, sizeof(c));
    two = c.header & HSAGPU_SDMA_COPY_BROADCAST;
    if (((c.header & ~HSAGPU_SDMA_COPY_BROADCAST) >> 16) ||
        (c.count & ~HSAGPU_SDMA_COUNT_MASK) || c.parameter) {
        return HSAGPU_QERR_SDMA_PACKET;
    }
    err = hsagpu_sdma_move(p, hsagpu_sdma_addr(c.dst_lo, c.dst_hi),
                           hsagpu_sdma_addr(c.src_lo, c.src_hi),
                           (uint64_t)c.count + 1, NULL, bad);
    if (err || !two) {
        return err;
    }
    /* the broadcast's second destination: dwords 7-8 */
    return hsagpu_sdma_move(p, hsagpu_sdma_addr(dw[7], dw[8]),
                            hsagpu_sdma_addr(c.src_lo, c.src_hi),
                            (uint64_t)c.count + 1, NULL, bad);
}

static unsigned hsagpu_sdma_fill(const HsaGpuProc *p, const uint32_t *dw,
                                 uint64_t *bad)
{
    struct hsagpu_sdma_const_fill f;
    uint64_t dst, len;
    uint32_t pattern;

    memcpy(&f, dw, sizeof(f));
    dst = hsagpu_sdma_addr(f.dst_lo, f.dst_hi);
    if (HSAGPU_SDMA_FILL_SW(f.header) || (f.header & 0x3ffc0000U) ||
        (f.count & ~HSAGPU_SDMA_COUNT_MASK)) {
        return HSAGPU_QERR_SDMA_PACKET;
    }
    switch (HSAGPU_SDMA_FILL_SIZE(f.header)) {
    case HSAGPU_SDMA_FILL_DWORD:
        if (dst & 3) {
            *bad = dst;
            return HSAGPU_QERR_ALIGNMENT;
        }
        len = ((uint64_t)(f.count >> 2) + 1) * 4;
        pattern = f.data;
        break;
    case HSAGPU_SDMA_FILL_BYTE:
        len = (uint64_t)f.count + 1;
        pattern = (f.data & 0xffU) * 0x01010101U;
        break;
    default:
        return HSAGPU_QERR_SDMA_PACKET;
    }
    return hsagpu_sdma_move(p, dst, 0, len, &pattern, bad);
}

static bool hsagpu_sdma_rect_ok(const struct hsagpu_sdma_copy_rect *r)
{
    return HSAGPU_SDMA_RECT_ELEMENT(r->header) <=
           HSAGPU_SDMA_RECT_ELEMENT_MAX &&
           !(r->header & 0x1fff0000U) &&
           !(r->src_lo & 3) && !(r->dst_lo & 3) &&
           !(r->src_xy & HSAGPU_SDMA_RECT_XY_RSVD) &&
           !(r->dst_xy & HSAGPU_SDMA_RECT_XY_RSVD) &&
           !(r->rect_xy & HSAGPU_SDMA_RECT_XY_RSVD) &&
           !(r->src_z_pitch & HSAGPU_SDMA_RECT_Z_RSVD) &&
           !(r->dst_z_pitch & HSAGPU_SDMA_RECT_Z_RSVD) &&
           !(r->src_slice & HSAGPU_SDMA_RECT_SLICE_RSVD) &&
           !(r->dst_slice & HSAGPU_SDMA_RECT_SLICE_RSVD) &&
           !(r->rect_z & HSAGPU_SDMA_RECT_SIZE_Z_RSVD);
}

static uint64_t hsagpu_sdma_rect_rows(const struct hsagpu_sdma_copy_rect *r)
{
    return ((uint64_t)HSAGPU_SDMA_RECT_Y(r->rect_xy) + 1) *
           ((uint64_t)HSAGPU_SDMA_RECT_Z(r->rect_z) + 1);
}

/* Byte address of row (y, z) of one side of the window. */
static uint64_t hsagpu_sdma_rect_row(uint32_t lo, uint32_t hi, uint32_t xy,
                                     uint32_t z_pitch, uint32_t slice,
                                     unsigned element, uint64_t y, uint64_t z)
{
    uint64_t el = HSAGPU_SDMA_RECT_X(xy) +
                  (HSAGPU_SDMA_RECT_Y(xy) + y) *
                  ((uint64_t)HSAGPU_SDMA_RECT_PITCH(z_pitch) + 1) +
                  (HSAGPU_SDMA_RECT_Z(z_pitch) + z) *
                  ((uint64_t)HSAGPU_SDMA_RECT_SLICE(slice) + 1);

    return hsagpu_sdma_addr(lo, hi) + (el << element);
}

/*
 * A slice of the COPY_LINEAR_RECT at the read index: up to
 * HSAGPU_DMA_SLICE_BYTES or HSAGPU_SDMA_RECT_ROWS rows (at least one),
 * from the latched packet and row cursor. 0 when done, HSAGPU_DMA_MORE,
 * or an error.
 */
static unsigned hsagpu_sdma_rect(HsaGpuQueue *q, const HsaGpuProc *p,
                                 const uint32_t *ring, uint64_t *bad)
{
    struct hsagpu_sdma_copy_rect r;
    uint64_t rows, ny, row_bytes, budget = HSAGPU_DMA_SLICE_BYTES;
    unsigned element, n = 0;

    if (!q->sdma_active) {
        memcpy(&r, ring, sizeof(r));
        if (!hsagpu_sdma_rect_ok(&r)) {
            return HSAGPU_QERR_SDMA_PACKET;
        }
        memcpy(q->sdma_pkt, ring, sizeof(r));
        q->sdma_row = 0;
        q->sdma_active = 1;
    }
    memcpy(&r, q->sdma_pkt, sizeof(r));
    element = HSAGPU_SDMA_RECT_ELEMENT(r.header);
    rows = hsagpu_sdma_rect_rows(&r);
    ny = HSAGPU_SDMA_RECT_Y(r.rect_xy) + 1;
    row_bytes = ((uint64_t)HSAGPU_SDMA_RECT_X(r.rect_xy) + 1) << element;
    while (q->sdma_row < rows) {
        uint64_t y = q->sdma_row % ny, z = q->sdma_row / ny;
        unsigned err;

        if (n && (budget < row_bytes || n == HSAGPU_SDMA_RECT_ROWS)) {
            return HSAGPU_DMA_MORE;
        }
        err = hsagpu_sdma_move(p,
                               hsagpu_sdma_rect_row(r.dst_lo, r.dst_hi,
                                                    r.dst_xy, r.dst_z_pitch,
                                                    r.dst_slice, element,
                                                    y, z),
                               hsagpu_sdma_rect_row(r.src_lo, r.src_hi,
                                                    r.src_xy, r.src_z_pitch,
                                                    r.src_slice, element,
                                                    y, z),
                               row_bytes, NULL, bad);
        if (err) {
            return err;
        }
        q->sdma_row++;
        n++;
        budget -= MIN(budget, row_bytes);
    }
    return 0;
}

/* A poll's condition: func((v & mask), value) */
static bool hsagpu_sdma_compare(unsigned func, uint32_t v, uint32_t ref)
{
    switch (func) {
    case HSAGPU_SDMA_FUNC_ALWAYS:
        return true;
    case HSAGPU_SDMA_FUNC_LT:
        return v < ref;
    case HSAGPU_SDMA_FUNC_LE:
        return v <= ref;
    case HSAGPU_SDMA_FUNC_EQ:
        return v == ref;
    case HSAGPU_SDMA_FUNC_NE:
        return v != ref;
    case HSAGPU_SDMA_FUNC_GE:
        return v >= ref;
    default:
        return v > ref;
    }
}

/* A register poll's byte address field: its dword offset, or -1. */
static int64_t hsagpu_sdma_reg(uint32_t addr)
{
    if ((addr & 3) || (addr >> 2) > HSAGPU_SDMA_REG_MASK) {
        return -1;
    }
    return addr >> 2;
}

/*
 * A kernel ring's register poll: the HDP flush form writes its request
 * (once per packet), then both read the register polled into *v. 0, or
 * the queue error.
 */
static unsigned hsagpu_sdma_poll_reg(HsaGpuQueue *q, const HsaGpuProc *p,
                                     const struct hsagpu_sdma_poll_regmem *pr,
                                     uint32_t *v)
{
    int64_t reg = hsagpu_sdma_reg(pr->addr_lo), req;

    if (reg < 0) {
        return HSAGPU_QERR_SDMA_PACKET;
    }
    if (pr->header & HSAGPU_SDMA_POLL_HDP_FLUSH) {
        req = hsagpu_sdma_reg(pr->addr_hi);
        if (req < 0) {
            return HSAGPU_QERR_SDMA_PACKET;
        }
        if (!q->sdma_poll_written) {
            /* the flush must see every earlier packet's data */
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            p->ops->reg_write(p->opaque, req, pr->value);
            q->sdma_poll_written = 1;
        }
    } else if (pr->addr_hi) {
        return HSAGPU_QERR_SDMA_PACKET;
    }
    *v = p->ops->reg_read(p->opaque, reg);
    return 0;
}

/* 1: the poll condition holds, 0: not yet, -1: error in *err. */
static int hsagpu_sdma_poll(HsaGpuQueue *q, const HsaGpuProc *p,
                            const uint32_t *dw, unsigned *err)
{
    struct hsagpu_sdma_poll_regmem pr;
    unsigned func;
    uint64_t addr;
    uint32_t v;

    memcpy(&pr, dw, sizeof(pr));
    func = HSAGPU_SDMA_POLL_FUNC(pr.header);
    if ((pr.header & HSAGPU_SDMA_POLL_HDR_RSVD) || func == 7) {
        *err = HSAGPU_QERR_SDMA_PACKET;
        return -1;
    }
    if (!(pr.header & HSAGPU_SDMA_POLL_MEM)) {
        if (hsagpu_sdma_kernel(q, p)) {
            *err = hsagpu_sdma_poll_reg(q, p, &pr, &v);
            if (*err) {
                return -1;
            }
            return hsagpu_sdma_compare(func, v & pr.mask, pr.value);
        }
        /* Register polls: only the HDP flush forms, which need nothing. */
        if ((pr.header & HSAGPU_SDMA_POLL_HDP_FLUSH) ||
            func == HSAGPU_SDMA_FUNC_ALWAYS) {
            return 1;
        }
        *err = HSAGPU_QERR_SDMA_PACKET;
        return -1;
    }
    if (pr.header & HSAGPU_SDMA_POLL_HDP_FLUSH) {
        *err = HSAGPU_QERR_SDMA_PACKET;
        return -1;
    }
    addr = hsagpu_sdma_addr(pr.addr_lo, pr.addr_hi);
    if (addr & 3) {
        *err = HSAGPU_QERR_ALIGNMENT;
        return -1;
    }
    *err = p->ops->read(p->opaque, HSAGPU_VM_CLIENT_SIGNAL, addr, &v,
                        sizeof(v));
    if (*err) {
        return -1;
    }
    return hsagpu_sdma_compare(func, v & pr.mask, pr.value);
}

/*
 * WRITE: the data dwords after the packet's first four at @s, stored at
 * dst in chunks (the whole packet is there: checked by the caller).
 */
static unsigned hsagpu_sdma_write(const HsaGpuQueue *q, const HsaGpuProc *p,
                                  const HsaGpuSdmaSrc *s, const uint32_t *dw,
                                  HsaGpuRunResult *res)
{
    struct hsagpu_sdma_write w;
    uint32_t buf[HSAGPU_SDMA_CHUNK_DW];
    uint64_t dst, n, done, k;
    unsigned err;

    memcpy(&w, dw, sizeof(w));
    dst = hsagpu_sdma_addr(w.dst_lo, w.dst_hi);
    n = (uint64_t)w.count + 1;
    if (dst & 3) {
        return HSAGPU_QERR_ALIGNMENT;
    }
    if (dst + 4 * n < dst) {
        return HSAGPU_QERR_ADDRESS;
    }
    if (4 * n > HSAGPU_SDMA_INLINE_BYTES) {
        hsagpu_budget_slice(p, res);
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (done = 0; done < n; done += k) {
        k = MIN(n - done, HSAGPU_SDMA_CHUNK_DW);
        err = hsagpu_sdma_src_read(q, p, s, 4 * (HSAGPU_SDMA_WRITE_DW + done),
                                   buf, 4 * k);
        if (err) {
            return err;
        }
        err = p->ops->write(p->opaque, HSAGPU_VM_CLIENT_DMA, dst + 4 * done,
                            buf, 4 * k);
        if (err) {
            return err;
        }
    }
    return 0;
}

/* PTEPDE: count + 1 entries (init + i * incr) | mask from dst on. */
static unsigned hsagpu_sdma_ptepde(const HsaGpuProc *p, const uint32_t *dw,
                                   HsaGpuRunResult *res)
{
    struct hsagpu_sdma_ptepde g;
    uint64_t buf[HSAGPU_SDMA_CHUNK_DW / 2];
    uint64_t dst, n, done, k, val, incr, mask;
    unsigned err;

    memcpy(&g, dw, sizeof(g));
    if ((g.header >> 16) || (g.count & ~HSAGPU_SDMA_PTEPDE_COUNT_MASK)) {
        return HSAGPU_QERR_SDMA_PACKET;
    }
    dst = hsagpu_sdma_addr(g.dst_lo, g.dst_hi);
    n = (uint64_t)g.count + 1;
    if (dst & 7) {
        return HSAGPU_QERR_ALIGNMENT;
    }
    if (dst + 8 * n < dst) {
        return HSAGPU_QERR_ADDRESS;
    }
    if (8 * n > HSAGPU_SDMA_INLINE_BYTES) {
        hsagpu_budget_slice(p, res);
    }
    val = hsagpu_sdma_addr(g.init_lo, g.init_hi);
    incr = hsagpu_sdma_addr(g.incr_lo, g.incr_hi);
    mask = hsagpu_sdma_addr(g.mask_lo, g.mask_hi);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (done = 0; done < n; done += k) {
        k = MIN(n - done, HSAGPU_SDMA_CHUNK_DW / 2);
        for (uint64_t i = 0; i < k; i++) {
            buf[i] = val | mask;
            val += incr;
        }
        err = p->ops->write(p->opaque, HSAGPU_VM_CLIENT_DMA, dst + 8 * done,
                            buf, 8 * k);
        if (err) {
            return err;
        }
    }
    return 0;
}

/* SRBM_WRITE: the enabled bytes of data into a register. */
static unsigned hsagpu_sdma_srbm_write(const HsaGpuProc *p,
                                       const uint32_t *dw)
{
    struct hsagpu_sdma_srbm_write w;
    unsigned be;
    uint32_t m = 0;

    memcpy(&w, dw, sizeof(w));
    if ((w.header & HSAGPU_SDMA_SRBM_HDR_RSVD) ||
        (w.addr & ~HSAGPU_SDMA_REG_MASK)) {
        return HSAGPU_QERR_SDMA_PACKET;
    }
    be = HSAGPU_SDMA_SRBM_BYTE_EN(w.header);
    for (unsigned i = 0; i < 4; i++) {
        if (be & (1U << i)) {
            m |= 0xffU << (8 * i);
        }
    }
    if (!m) {
        return 0;
    }
    /* e.g. a page table base after the updates that built the table */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (m != UINT32_MAX) {
        w.data = (p->ops->reg_read(p->opaque, w.addr) & ~m) | (w.data & m);
    }
    p->ops->reg_write(p->opaque, w.addr, w.data);
    return 0;
}

/*
 * INDIRECT on the ring: latch its IB, which the next steps run. Its VMID
 * field is a kernel ring's to choose (amdgpu's jobs name their VM); a
 * user's ring (not privileged) runs its IB in its own space, as gfx9's
 * SDMA runs an RLC queue's, whatever the field says.
 */
static unsigned hsagpu_sdma_ib_start(HsaGpuQueue *q, const HsaGpuProc *p,
                                     const uint32_t *dw)
{
    struct hsagpu_sdma_indirect ib;
    uint64_t base;
    uint32_t vmid;

    memcpy(&ib, dw, sizeof(ib));
    base = hsagpu_sdma_addr(ib.base_lo, ib.base_hi);
    vmid = hsagpu_sdma_kernel(q, p) ? HSAGPU_SDMA_IB_VMID(ib.header)
                                    : q->as_vmid;
    if ((ib.header & HSAGPU_SDMA_IB_HDR_RSVD) || !ib.size ||
        (ib.size & ~HSAGPU_SDMA_IB_SIZE_MASK) ||
        (vmid != q->as_vmid && !p->ops->set_vmid)) {
        return HSAGPU_QERR_SDMA_PACKET;
    }
    if (base & (HSAGPU_SDMA_IB_ALIGN - 1)) {
        return HSAGPU_QERR_ALIGNMENT;
    }
    if (base + 4 * (uint64_t)ib.size < base) {
        return HSAGPU_QERR_ADDRESS;
    }
    q->sdma_ib_vmid = vmid;
    q->sdma_ib_base = base;
    q->sdma_ib_size = ib.size;
    q->sdma_ib_pos = 0;
    q->sdma_ib_active = 1;
    return 0;
}

static unsigned hsagpu_sdma_atomic(const HsaGpuProc *p, const uint32_t *dw)
{
    struct hsagpu_sdma_atomic a;
    uint64_t addr, old;

    memcpy(&a, dw, sizeof(a));
    if (HSAGPU_SDMA_ATOMIC_OPERATION(a.header) != HSAGPU_SDMA_ATOMIC_ADD64 ||
        (a.header & 0x01fe0000U)) {
        return HSAGPU_QERR_SDMA_PACKET;
    }
    addr = hsagpu_sdma_addr(a.addr_lo, a.addr_hi);
    if (addr & 7) {
        return HSAGPU_QERR_ALIGNMENT;
    }
    /* Earlier packets' data before the value others wait on. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return hsagpu_atomic_qerr(p->ops->fetch_add64(p->opaque,
                                                  HSAGPU_VM_CLIENT_SIGNAL,
                                                  addr,
                                                  hsagpu_sdma_addr(a.src_lo,
                                                                   a.src_hi),
                                                  &old));
}

/* A 4- or 8-byte store of a FENCE or TIMESTAMP packet. */
static unsigned hsagpu_sdma_store(const HsaGpuProc *p, uint32_t lo,
                                  uint32_t hi, const void *v, unsigned len)
{
    uint64_t addr = hsagpu_sdma_addr(lo, hi);

    if (addr & (len - 1)) {
        return HSAGPU_QERR_ALIGNMENT;
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return p->ops->write(p->opaque, HSAGPU_VM_CLIENT_SIGNAL, addr, v, len);
}

static HsaGpuSdmaOutcome hsagpu_sdma_exec(HsaGpuQueue *q, const HsaGpuProc *p,
                                          const HsaGpuSdmaSrc *s,
                                          const uint32_t *dw, unsigned *err,
                                          HsaGpuRunResult *res)
{
    uint32_t hdr = dw[0];
    uint64_t bad = 0;
    int ready;

    switch (HSAGPU_SDMA_HDR_OP(hdr)) {
    case HSAGPU_SDMA_OP_COPY:
        hsagpu_budget_slice(p, res);
        if (HSAGPU_SDMA_HDR_SUB_OP(hdr) == HSAGPU_SDMA_SUBOP_COPY_LINEAR) {
            *err = hsagpu_sdma_copy_linear(p, dw, &bad);
        } else {
            *err = hsagpu_sdma_rect(q, p, dw, &bad);
            if (*err == HSAGPU_DMA_MORE) {
                *err = 0;
                return SDMA_PARTIAL;
            }
            q->sdma_active = 0;
        }
        p->ops->dma_done(p->opaque, *err, bad);
        break;
    case HSAGPU_SDMA_OP_CONST_FILL:
        hsagpu_budget_slice(p, res);
        *err = hsagpu_sdma_fill(p, dw, &bad);
        p->ops->dma_done(p->opaque, *err, bad);
        break;
    case HSAGPU_SDMA_OP_FENCE: {
        struct hsagpu_sdma_fence f;

        memcpy(&f, dw, sizeof(f));
        *err = hsagpu_sdma_store(p, f.addr_lo, f.addr_hi, &f.data, 4);
        break;
    }
    case HSAGPU_SDMA_OP_TIMESTAMP: {
        struct hsagpu_sdma_timestamp t;
        uint64_t ns = p->ops->now_ns(p->opaque);

        memcpy(&t, dw, sizeof(t));
        *err = (t.header >> 16) ? HSAGPU_QERR_SDMA_PACKET :
               hsagpu_sdma_store(p, t.addr_lo, t.addr_hi, &ns, 8);
        break;
    }
    case HSAGPU_SDMA_OP_TRAP:
        *err = 0;
        if (p->ops->trap) {
            p->ops->trap(p->opaque, dw[1] & HSAGPU_SDMA_TRAP_CTX_MASK);
        } else {
            p->ops->irq(p->opaque, q->vector);
        }
        break;
    case HSAGPU_SDMA_OP_POLL_REGMEM:
        ready = hsagpu_sdma_poll(q, p, dw, err);
        if (ready < 0) {
            return SDMA_ERROR;
        }
        if (!ready) {
            res->poll = true;
            return SDMA_WAIT;
        }
        q->sdma_poll_written = 0;
        *err = 0;
        break;
    case HSAGPU_SDMA_OP_ATOMIC:
        *err = hsagpu_sdma_atomic(p, dw);
        break;
    case HSAGPU_SDMA_OP_WRITE:
        *err = hsagpu_sdma_write(q, p, s, dw, res);
        break;
    case HSAGPU_SDMA_OP_PTEPDE:
        *err = hsagpu_sdma_ptepde(p, dw, res);
        break;
    case HSAGPU_SDMA_OP_SRBM_WRITE:
        *err = hsagpu_sdma_srbm_write(p, dw);
        break;
    case HSAGPU_SDMA_OP_INDIRECT:
        /* One level, as the hardware: an IB does not call another. */
        *err = s->ib ? HSAGPU_QERR_SDMA_PACKET :
               hsagpu_sdma_ib_start(q, p, dw);
        return *err ? SDMA_ERROR : SDMA_IB;
    default:
        *err = 0;               /* NOP: nothing to do */
        break;
    }
    return *err ? SDMA_ERROR : SDMA_DONE;
}

/*
 * A run of NOPs at @s, consumed as one packet: the ring's padding up to
 * its end can be a quarter million of them. The number of dwords (0: the
 * first NOP is not all there yet).
 */
static unsigned hsagpu_sdma_nops(const HsaGpuQueue *q, const HsaGpuProc *p,
                                 const HsaGpuSdmaSrc *s, unsigned *err)
{
    uint32_t buf[HSAGPU_SDMA_NOP_BATCH];
    uint64_t avail = s->avail / 4;
    unsigned n = MIN(avail, HSAGPU_SDMA_NOP_BATCH);
    uint64_t i = 0;

    if (!s->ib) {
        uint32_t pos = s->off & (q->ring_size - 1);

        n = MIN(n, (q->ring_size - pos) / 4);
    }
    *err = hsagpu_sdma_src_read(q, p, s, 0, buf, n * 4);
    if (*err) {
        return 0;
    }
    while (i < n) {
        uint64_t len;

        if (HSAGPU_SDMA_HDR_OP(buf[i]) != HSAGPU_SDMA_OP_NOP ||
            HSAGPU_SDMA_HDR_SUB_OP(buf[i])) {
            break;
        }
        len = 1 + HSAGPU_SDMA_NOP_COUNT(buf[i]);
        if (i + len > avail) {
            break;
        }
        i += len;
    }
    return i;
}

/* Publish the read index: ROCr reuses ring space up to it. */
static unsigned hsagpu_sdma_publish(const HsaGpuQueue *q, const HsaGpuProc *p)
{
    uint64_t v = q->read_index;

    return p->ops->write(p->opaque, HSAGPU_VM_CLIENT_PACKET, q->rptr_addr, &v,
                         sizeof(v));
}

/*
 * Fetch and run the packet at @s (a packet in slices goes on as it was
 * fetched). SDMA_DONE: consumed, *len bytes of it, *hdr its header.
 */
static HsaGpuSdmaOutcome hsagpu_sdma_packet(HsaGpuQueue *q,
                                            const HsaGpuProc *p,
                                            const HsaGpuSdmaSrc *s,
                                            HsaGpuRunResult *res,
                                            uint32_t *hdr, uint64_t *len,
                                            unsigned *err)
{
    uint32_t dw[HSAGPU_SDMA_PKT_MAX_DW];
    unsigned ndw;

    /*
     * A packet in slices goes on as it was fetched, whatever the ring
     * holds now.
     */
    if (q->sdma_active) {
        memcpy(dw, q->sdma_pkt, sizeof(dw));
    } else {
        *err = hsagpu_sdma_src_read(q, p, s, 0, dw, 4);
        if (*err) {
            return SDMA_ERROR;
        }
    }
    *hdr = dw[0];
    ndw = hsagpu_sdma_pkt_dw(dw[0], hsagpu_sdma_kernel(q, p));
    if (!ndw) {
        *err = HSAGPU_QERR_SDMA_OPCODE;
        return SDMA_ERROR;
    }
    if (HSAGPU_SDMA_HDR_OP(dw[0]) == HSAGPU_SDMA_OP_NOP) {
        *len = 4 * (uint64_t)hsagpu_sdma_nops(q, p, s, err);
        if (*err) {
            return SDMA_ERROR;
        }
        return *len ? SDMA_DONE : SDMA_SHORT;
    }
    /* Producers publish whole packets; a part means more is coming. */
    *len = 4 * (uint64_t)ndw;
    if (*len > s->avail) {
        return SDMA_SHORT;
    }
    *err = q->sdma_active ? 0 : hsagpu_sdma_src_read(q, p, s, 0, dw, *len);
    if (*err) {
        return SDMA_ERROR;
    }
    if (HSAGPU_SDMA_HDR_OP(dw[0]) == HSAGPU_SDMA_OP_WRITE) {
        struct hsagpu_sdma_write w;

        memcpy(&w, dw, sizeof(w));
        if ((w.header >> 16) || (w.count & ~HSAGPU_SDMA_WRITE_COUNT_MASK)) {
            *err = HSAGPU_QERR_SDMA_PACKET;
            return SDMA_ERROR;
        }
        *len += 4 * ((uint64_t)w.count + 1);
        /* one longer than the ring would never be all there */
        if (!s->ib && *len > q->ring_size) {
            *err = HSAGPU_QERR_SDMA_PACKET;
            return SDMA_ERROR;
        }
        if (*len > s->avail) {
            return SDMA_SHORT;
        }
    }
    return hsagpu_sdma_exec(q, p, s, dw, err, res);
}

/* The packet at the read index was consumed: @len bytes, header @hdr. */
static int hsagpu_sdma_retire(HsaGpuQueue *q, const HsaGpuProc *p,
                              uint32_t hdr, uint64_t len,
                              HsaGpuRunResult *res, unsigned *err)
{
    if (p->ops->sdma_packet) {
        p->ops->sdma_packet(p->opaque, hdr, q->read_index);
    }
    q->read_index += len;
    q->retired++;
    res->progress++;
    res->completed++;
    hsagpu_budget_packet(p);
    *err = hsagpu_sdma_publish(q, p);
    return *err ? -1 : 1;
}

/*
 * The packet at the read index: 1 consumed (or its IB latched), 0 stop,
 * -1 error.
 */
static int hsagpu_sdma_step(HsaGpuQueue *q, const HsaGpuProc *p,
                            uint64_t wptr, HsaGpuRunResult *res,
                            unsigned *err)
{
    HsaGpuSdmaSrc s = { false, q->read_index, wptr - q->read_index };
    uint64_t len = 0;
    uint32_t hdr;

    switch (hsagpu_sdma_packet(q, p, &s, res, &hdr, &len, err)) {
    case SDMA_ERROR:
        return -1;
    case SDMA_PARTIAL:
        res->progress++;
        return 0;
    case SDMA_WAIT:
    case SDMA_SHORT:
        return 0;
    case SDMA_IB:
        return 1;
    case SDMA_DONE:
        break;
    }
    return hsagpu_sdma_retire(q, p, hdr, len, res, err);
}

/*
 * The next packet of the IB being run, in the IB's VMID: 1 consumed, 0
 * stop, -1 error. The INDIRECT is consumed with the IB's last packet.
 */
static int hsagpu_sdma_ib_step(HsaGpuQueue *q, const HsaGpuProc *p,
                               HsaGpuRunResult *res, unsigned *err)
{
    HsaGpuSdmaSrc s = {
        true, 4 * (uint64_t)q->sdma_ib_pos,
        4 * (uint64_t)(q->sdma_ib_size - q->sdma_ib_pos),
    };
    bool other = q->sdma_ib_vmid != q->as_vmid;
    HsaGpuSdmaOutcome o;
    uint64_t len = 0;
    uint32_t hdr;

    if (other) {
        /* a migrated IB, on a destination that cannot switch VMIDs */
        if (!p->ops->set_vmid) {
            *err = HSAGPU_QERR_SDMA_PACKET;
            return -1;
        }
        p->ops->set_vmid(p->opaque, q->sdma_ib_vmid);
    }
    o = hsagpu_sdma_packet(q, p, &s, res, &hdr, &len, err);
    if (other) {
        p->ops->set_vmid(p->opaque, q->as_vmid);
    }
    switch (o) {
    case SDMA_ERROR:
        return -1;
    case SDMA_SHORT:
        /* nothing more will come: the packet runs past the IB's end */
        *err = HSAGPU_QERR_SDMA_PACKET;
        return -1;
    case SDMA_PARTIAL:
        res->progress++;
        return 0;
    case SDMA_WAIT:
        return 0;
    case SDMA_IB:               /* refused in an IB */
    case SDMA_DONE:
        break;
    }
    q->sdma_ib_pos += len / 4;
    res->progress++;
    hsagpu_budget_packet(p);
    if (q->sdma_ib_pos < q->sdma_ib_size) {
        return 1;
    }
    q->sdma_ib_active = 0;
    return hsagpu_sdma_retire(q, p,
                              HSAGPU_SDMA_HDR(HSAGPU_SDMA_OP_INDIRECT, 0) |
                              q->sdma_ib_vmid << 16,
                              4 * HSAGPU_SDMA_INDIRECT_DW, res, err);
}

/*
 * Work at the read index: an IB that runs (to its end, whatever the write
 * pointer does meanwhile), or ring packets below the write pointer (not
 * when it went back under an IB: the next fetch refuses it).
 */
static bool hsagpu_sdma_work(const HsaGpuQueue *q, uint64_t wptr)
{
    return q->sdma_ib_active || wptr - q->read_index - 1 < q->ring_size;
}

void hsagpu_sdma_run(HsaGpuQueue *q, const HsaGpuProc *p, unsigned quantum,
                     HsaGpuRunResult *res)
{
    uint64_t wptr;
    unsigned err;

    /* Fetched after a doorbell only (hsagpu_queue_wptr). */
    err = hsagpu_queue_wptr(q, p, &wptr);
    if (err) {
        goto fail;
    }
    /* Whole dwords, never behind the read index nor a ring ahead of it. */
    if ((wptr & 3) || wptr - q->read_index > q->ring_size) {
        err = HSAGPU_QERR_RING_OVERRUN;
        goto fail;
    }
    while (res->progress < quantum && hsagpu_sdma_work(q, wptr) &&
           !hsagpu_budget_spent(p)) {
        int r = q->sdma_ib_active ? hsagpu_sdma_ib_step(q, p, res, &err) :
                hsagpu_sdma_step(q, p, wptr, res, &err);

        if (r < 0) {
            goto fail;
        }
        if (r == 0) {
            break;
        }
    }
    if (q->state == HSAGPU_QSTATE_DRAINING && q->read_index == wptr &&
        !q->sdma_ib_active) {
        q->state = HSAGPU_QSTATE_SUSPENDED;
    }
    return;
fail:
    /* ERROR_ID: the byte offset of the packet that failed (an IB's INDIRECT) */
    hsagpu_queue_fail(q, err, q->read_index);
    res->error = true;
}

/* An IB cursor the engine could have made (migration). */
static bool hsagpu_sdma_ib_ok(const HsaGpuQueue *q)
{
    return q->sdma_ib_active == 1 &&
           q->sdma_ib_vmid < HSAGPU_VM_NUM_VMIDS &&
           q->sdma_ib_size && q->sdma_ib_size <= HSAGPU_SDMA_IB_SIZE_MASK &&
           q->sdma_ib_pos < q->sdma_ib_size &&
           !(q->sdma_ib_base & (HSAGPU_SDMA_IB_ALIGN - 1)) &&
           q->sdma_ib_base + 4 * (uint64_t)q->sdma_ib_size > q->sdma_ib_base;
}

bool hsagpu_sdma_cursor_ok(const HsaGpuQueue *q)
{
    struct hsagpu_sdma_copy_rect r;

    if (q->read_index & 3) {
        return false;
    }
    if (q->sdma_ib_active && !hsagpu_sdma_ib_ok(q)) {
        return false;
    }
    if (!q->sdma_active) {
        return true;
    }
    memcpy(&r, q->sdma_pkt, sizeof(r));
    return q->sdma_active == 1 &&
           HSAGPU_SDMA_HDR_OP(r.header) == HSAGPU_SDMA_OP_COPY &&
           HSAGPU_SDMA_HDR_SUB_OP(r.header) ==
           HSAGPU_SDMA_SUBOP_COPY_LINEAR_RECT &&
           hsagpu_sdma_rect_ok(&r) && q->sdma_row < hsagpu_sdma_rect_rows(&r);
}
