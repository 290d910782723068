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

typedef enum {
    SDMA_DONE,                  /* consumed */
    SDMA_WAIT,                  /* not consumed: wait (poll, or partial) */
    SDMA_PARTIAL,               /* not consumed: a slice was done */
    SDMA_ERROR,
} HsaGpuSdmaOutcome;

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

/* Packet length in dwords for @hdr, or 0 for an unknown opcode. */
static unsigned hsagpu_sdma_pkt_dw(uint32_t hdr)
{
    unsigned sub = HSAGPU_SDMA_HDR_SUB_OP(hdr);

    switch (HSAGPU_SDMA_HDR_OP(hdr)) {
    case HSAGPU_SDMA_OP_NOP:
        return sub ? 0 : 1 + HSAGPU_SDMA_NOP_COUNT(hdr);
    case HSAGPU_SDMA_OP_COPY:
        return sub == HSAGPU_SDMA_SUBOP_COPY_LINEAR ?
               HSAGPU_SDMA_COPY_LINEAR_DW :
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

    memcpy(&c, dw, sizeof(c));
    if ((c.header >> 16) || (c.count & ~HSAGPU_SDMA_COUNT_MASK) ||
        c.parameter) {
        return HSAGPU_QERR_SDMA_PACKET;
    }
    return hsagpu_sdma_move(p, hsagpu_sdma_addr(c.dst_lo, c.dst_hi),
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

/* 1: the poll condition holds, 0: not yet, -1: error in *err. */
static int hsagpu_sdma_poll(const HsaGpuProc *p, const uint32_t *dw,
                            unsigned *err)
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
    v &= pr.mask;
    switch (func) {
    case HSAGPU_SDMA_FUNC_ALWAYS:
        return 1;
    case HSAGPU_SDMA_FUNC_LT:
        return v < pr.value;
    case HSAGPU_SDMA_FUNC_LE:
        return v <= pr.value;
    case HSAGPU_SDMA_FUNC_EQ:
        return v == pr.value;
    case HSAGPU_SDMA_FUNC_NE:
        return v != pr.value;
    case HSAGPU_SDMA_FUNC_GE:
        return v >= pr.value;
    default:
        return v > pr.value;
    }
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
        p->ops->irq(p->opaque, q->vector);
        break;
    case HSAGPU_SDMA_OP_POLL_REGMEM:
        ready = hsagpu_sdma_poll(p, dw, err);
        if (ready < 0) {
            return SDMA_ERROR;
        }
        if (!ready) {
            res->poll = true;
            return SDMA_WAIT;
        }
        *err = 0;
        break;
    case HSAGPU_SDMA_OP_ATOMIC:
        *err = hsagpu_sdma_atomic(p, dw);
        break;
    default:
        *err = 0;               /* NOP: nothing to do */
        break;
    }
    return *err ? SDMA_ERROR : SDMA_DONE;
}

/*
 * A run of NOPs from the read index, consumed as one packet: the ring's
 * padding up to its end can be a quarter million of them. The number of
 * dwords (0: the first NOP is not all there yet).
 */
static unsigned hsagpu_sdma_nops(const HsaGpuQueue *q, const HsaGpuProc *p,
                                 uint64_t wptr, unsigned *err)
{
    uint32_t buf[HSAGPU_SDMA_NOP_BATCH];
    uint64_t avail = (wptr - q->read_index) / 4;
    uint32_t pos = q->read_index & (q->ring_size - 1);
    unsigned n = MIN(MIN(avail, HSAGPU_SDMA_NOP_BATCH),
                     (q->ring_size - pos) / 4);
    uint64_t i = 0;

    *err = hsagpu_sdma_ring_read(q, p, q->read_index, buf, n * 4);
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

/* The packet at the read index: 1 consumed, 0 stop, -1 error. */
static int hsagpu_sdma_step(HsaGpuQueue *q, const HsaGpuProc *p,
                            uint64_t wptr, HsaGpuRunResult *res,
                            unsigned *err)
{
    uint32_t dw[HSAGPU_SDMA_PKT_MAX_DW];
    uint64_t len;
    unsigned ndw;

    /*
     * A packet in slices goes on as it was fetched, whatever the ring
     * holds now.
     */
    if (q->sdma_active) {
        memcpy(dw, q->sdma_pkt, sizeof(dw));
    } else {
        *err = hsagpu_sdma_ring_read(q, p, q->read_index, dw, 4);
        if (*err) {
            return -1;
        }
    }
    ndw = hsagpu_sdma_pkt_dw(dw[0]);
    if (!ndw) {
        *err = HSAGPU_QERR_SDMA_OPCODE;
        return -1;
    }
    if (HSAGPU_SDMA_HDR_OP(dw[0]) == HSAGPU_SDMA_OP_NOP) {
        len = 4 * (uint64_t)hsagpu_sdma_nops(q, p, wptr, err);
        if (*err) {
            return -1;
        }
    } else {
        len = 4 * (uint64_t)ndw;
        /* Producers publish whole packets; a part means more is coming. */
        if (len > wptr - q->read_index) {
            len = 0;
        } else {
            HsaGpuSdmaOutcome o;

            *err = q->sdma_active ? 0 :
                   hsagpu_sdma_ring_read(q, p, q->read_index, dw, len);
            if (*err) {
                return -1;
            }
            o = hsagpu_sdma_exec(q, p, dw, err, res);
            if (o == SDMA_ERROR) {
                return -1;
            }
            if (o == SDMA_PARTIAL) {
                res->progress++;
                return 0;
            }
            if (o == SDMA_WAIT) {
                return 0;
            }
        }
    }
    if (!len) {
        return 0;
    }
    if (p->ops->sdma_packet) {
        p->ops->sdma_packet(p->opaque, dw[0], q->read_index);
    }
    q->read_index += len;
    q->retired++;
    res->progress++;
    res->completed++;
    hsagpu_budget_packet(p);
    *err = hsagpu_sdma_publish(q, p);
    return *err ? -1 : 1;
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
    while (res->progress < quantum && q->read_index != wptr &&
           !hsagpu_budget_spent(p)) {
        int r = hsagpu_sdma_step(q, p, wptr, res, &err);

        if (r < 0) {
            goto fail;
        }
        if (r == 0) {
            break;
        }
    }
    if (q->state == HSAGPU_QSTATE_DRAINING && q->read_index == wptr) {
        q->state = HSAGPU_QSTATE_SUSPENDED;
    }
    return;
fail:
    /* ERROR_ID: the byte offset of the packet that failed. */
    hsagpu_queue_fail(q, err, q->read_index);
    res->error = true;
}

bool hsagpu_sdma_cursor_ok(const HsaGpuQueue *q)
{
    struct hsagpu_sdma_copy_rect r;

    if (q->read_index & 3) {
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
