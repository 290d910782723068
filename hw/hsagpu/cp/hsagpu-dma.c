/*
 * hsa-gpu: the DMA engine's packet logic, independent of QEMU.
 *
 * VENDOR_SPECIFIC AQL packets copy or fill one range, or walk a
 * scatter-gather descriptor list that the device fetches from memory.
 * Work is served in slices (HSAGPU_DMA_SLICE_*) with a cursor in the
 * queue, so a 64 MiB copy never holds up other queues for long; the
 * data movement itself is the caller's (HsaGpuQueueOps.dma).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-cp.h"

#define HSAGPU_DMA_DESC_BATCH 64    /* descriptors fetched per read */

uint64_t hsagpu_tlp_count(uint64_t addr, uint64_t len, uint32_t max)
{
    /* One TLP per max-aligned block touched: none crosses a boundary. */
    return len ? (addr + len - 1) / max - addr / max + 1 : 0;
}

void hsagpu_dma_fill_host(void *dst, uint64_t len, uint32_t pattern,
                          uint64_t phase)
{
    uint8_t *d = dst;
    uint8_t b[4];
    uint64_t rot;

    memcpy(b, &pattern, 4);         /* little endian: byte k at bits 8k */
    if (b[0] == b[1] && b[0] == b[2] && b[0] == b[3]) {
        memset(d, b[0], len);
        return;
    }
    phase %= 4;
    while (len && ((uintptr_t)d & 7)) {
        *d++ = b[phase];
        phase = (phase + 1) % 4;
        len--;
    }
    rot = 0;
    for (unsigned k = 0; k < 8; k++) {
        rot |= (uint64_t)b[(phase + k) % 4] << (8 * k);
    }
    for (; len >= 8; len -= 8, d += 8) {
        memcpy(d, &rot, 8);
    }
    for (unsigned k = 0; k < len; k++) {
        d[k] = b[(phase + k) % 4];
    }
}

static bool hsagpu_ranges_overlap(uint64_t a, uint64_t b, uint64_t len)
{
    return a < b + len && b < a + len;
}

/* One descriptor's worth of work (or the whole of COPY/FILL). */
static unsigned hsagpu_dma_range(HsaGpuQueue *q, const HsaGpuProc *p,
                                 bool fill, uint64_t src, uint64_t dst,
                                 uint64_t size, uint64_t *budget,
                                 uint64_t *bad_addr)
{
    uint64_t n;
    uint32_t pattern = (uint32_t)src;
    unsigned err;

    /* A descriptor rewritten below what was already done is bad too. */
    if (!size || size > HSAGPU_DMA_SIZE_MAX || q->dma_off >= size) {
        return HSAGPU_QERR_DMA_SIZE;
    }
    if (dst + size < dst || (!fill && src + size < src)) {
        *bad_addr = dst + size < dst ? dst : src;
        return HSAGPU_QERR_ADDRESS;
    }
    if (!fill && hsagpu_ranges_overlap(src, dst, size)) {
        *bad_addr = dst;
        return HSAGPU_QERR_DMA_OVERLAP;
    }
    n = MIN(size - q->dma_off, *budget);
    if (fill) {
        /* Rotate so that byte 0 of this piece is byte dma_off % 4. */
        unsigned sh = 8 * (q->dma_off % 4);

        pattern = sh ? pattern >> sh | pattern << (32 - sh) : pattern;
        err = p->ops->dma(p->opaque, dst + q->dma_off, 0, n, &pattern,
                          bad_addr);
    } else {
        err = p->ops->dma(p->opaque, dst + q->dma_off, src + q->dma_off, n,
                          NULL, bad_addr);
    }
    if (err) {
        return err;
    }
    q->dma_off += n;
    *budget -= n;
    return 0;
}

unsigned hsagpu_dma_check(const struct hsagpu_dma_packet *d)
{
    bool sg = d->op == HSAGPU_DMA_OP_COPY_SG || d->op == HSAGPU_DMA_OP_FILL_SG;

    if (d->format != HSAGPU_VENDOR_FORMAT_DMA) {
        return HSAGPU_QERR_VENDOR_FORMAT;
    }
    if (d->op < HSAGPU_DMA_OP_COPY || d->op > HSAGPU_DMA_OP_FILL_SG ||
        (d->flags & ~HSAGPU_DMA_F_ALL) || d->reserved[0] || d->reserved[1] ||
        (sg && (d->dst || d->pattern)) ||
        (d->op == HSAGPU_DMA_OP_COPY && d->pattern) ||
        (d->op == HSAGPU_DMA_OP_FILL && d->pattern >> 32)) {
        return HSAGPU_QERR_DMA_OP;
    }
    if (sg && (!d->size || d->size > HSAGPU_DMA_SG_MAX)) {
        return HSAGPU_QERR_DMA_SIZE;
    }
    if (sg && (d->src & (HSAGPU_DMA_DESC_ALIGN - 1))) {
        return HSAGPU_QERR_ALIGNMENT;
    }
    return 0;
}

static unsigned hsagpu_dma_sg(HsaGpuQueue *q, const struct hsagpu_dma_packet *d,
                              const HsaGpuProc *p, uint64_t *bad_addr)
{
    struct hsagpu_dma_desc batch[HSAGPU_DMA_DESC_BATCH];
    bool fill = d->op == HSAGPU_DMA_OP_FILL_SG;
    uint64_t budget = HSAGPU_DMA_SLICE_BYTES;
    unsigned ndesc = 0;

    while (q->dma_desc < d->size) {
        uint32_t first = q->dma_desc;
        uint32_t n = MIN(d->size - first, HSAGPU_DMA_DESC_BATCH);
        uint64_t list = d->src + (uint64_t)first * sizeof(batch[0]);
        unsigned rerr;

        rerr = hsagpu_read_data(p, HSAGPU_VM_CLIENT_DMA, list, batch,
                                n * sizeof(batch[0]));
        if (rerr) {
            *bad_addr = list;
            return rerr;
        }
        for (uint32_t i = 0; i < n; i++) {
            const struct hsagpu_dma_desc *e = &batch[i];
            unsigned err;

            if (!budget || ndesc == HSAGPU_DMA_SLICE_DESCS) {
                return HSAGPU_DMA_MORE;
            }
            if (e->reserved || (fill && e->src >> 32)) {
                *bad_addr = list + i * sizeof(*e);
                return HSAGPU_QERR_DMA_OP;
            }
            err = hsagpu_dma_range(q, p, fill, e->src, e->dst, e->size,
                                   &budget, bad_addr);
            if (err) {
                if (err == HSAGPU_QERR_DMA_SIZE) {
                    *bad_addr = list + i * sizeof(*e);
                }
                return err;
            }
            if (q->dma_off < e->size) {
                return HSAGPU_DMA_MORE;
            }
            q->dma_desc++;
            q->dma_off = 0;
            ndesc++;
        }
    }
    return 0;
}

/* The cursor lies inside packet @d (checked). */
static bool hsagpu_dma_cursor_in(const HsaGpuQueue *q,
                                 const struct hsagpu_dma_packet *d)
{
    if (d->op == HSAGPU_DMA_OP_COPY || d->op == HSAGPU_DMA_OP_FILL) {
        return !q->dma_desc && q->dma_off < d->size;
    }
    return q->dma_desc < d->size && q->dma_off <= HSAGPU_DMA_SIZE_MAX;
}

bool hsagpu_dma_cursor_ok(const HsaGpuQueue *q)
{
    if (!q->dma_pkt.op) {
        return q->dma_off <= HSAGPU_DMA_SIZE_MAX &&
               q->dma_desc <= HSAGPU_DMA_SG_MAX;
    }
    return !hsagpu_dma_check(&q->dma_pkt) &&
           hsagpu_dma_cursor_in(q, &q->dma_pkt);
}

unsigned hsagpu_dma_exec(HsaGpuQueue *q, const struct hsagpu_dma_packet *ring,
                         const HsaGpuProc *p, uint64_t *bad_addr)
{
    const struct hsagpu_dma_packet *d = &q->dma_pkt;
    uint64_t budget = HSAGPU_DMA_SLICE_BYTES;
    unsigned err;

    *bad_addr = 0;
    /*
     * The device fetches and checks a packet once, like hardware that
     * reads it into its engine: later slices run what was checked, so a
     * guest rewriting the slot cannot push the cursor past the limits.
     * A cursor migrated without its packet takes the ring's, if it fits.
     */
    if (!q->dma_active || !d->op) {
        err = hsagpu_dma_check(ring);
        if (err) {
            return err;
        }
        if (!q->dma_active) {
            /* dma_start_ns: set by the caller, the packet's start */
            q->dma_desc = 0;
            q->dma_off = 0;
        } else if (!hsagpu_dma_cursor_in(q, ring)) {
            return HSAGPU_QERR_DMA_SIZE;
        }
        q->dma_pkt = *ring;
        q->dma_active = 1;
    }
    switch (d->op) {
    case HSAGPU_DMA_OP_COPY:
    case HSAGPU_DMA_OP_FILL:
        err = hsagpu_dma_range(q, p, d->op == HSAGPU_DMA_OP_FILL,
                               d->op == HSAGPU_DMA_OP_FILL ? d->pattern
                                                           : d->src,
                               d->dst, d->size, &budget, bad_addr);
        if (!err && q->dma_off < d->size) {
            err = HSAGPU_DMA_MORE;
        }
        break;
    default:
        err = hsagpu_dma_sg(q, d, p, bad_addr);
        break;
    }
    if (err != HSAGPU_DMA_MORE) {
        q->dma_active = 0;
        p->ops->dma_done(p->opaque, err, *bad_addr);
    }
    return err;
}
