/*
 * hsa-gpu: the DMA engine's data movement. hsagpu-dma.c decodes a
 * DMA packet and its descriptors; each range comes here, is cut into
 * pieces by the bus resolver (hsagpu-bus.c: own VRAM, a peer's VRAM, or
 * system memory through the bus-master address space) and copied or
 * filled, counting TLPs and bytes per traffic class.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/rcu.h"
#include "qemu/units.h"
#include "exec/memory.h"
#include "hsagpu.h"
#include "trace.h"

#define HSAGPU_DMA_BOUNCE (64 * KiB)   /* chunk size without zero-copy */

/* The DMA_CNT traffic class of a bus target. */
static unsigned hsagpu_dma_class(HsaGpuBusClass cls)
{
    switch (cls) {
    case HSAGPU_BUS_LOCAL:
        return HSAGPU_DMA_CLASS_LOCAL;
    case HSAGPU_BUS_PEER_SWITCH:
    case HSAGPU_BUS_PEER_ROOT:
        return HSAGPU_DMA_CLASS_PEER;
    default:
        return HSAGPU_DMA_CLASS_SYSTEM;
    }
}

static void hsagpu_dma_count(HsaGpuState *s, unsigned cls, unsigned n,
                             uint64_t val)
{
    qatomic_add(&s->regs.dma_cnt[cls * 4 + n], val);
}

/* TLPs and bytes for @len bytes at @addr, in one direction. */
static void hsagpu_dma_account(HsaGpuState *s, int cls, bool is_write,
                               uint64_t addr, uint64_t len)
{
    if (cls < 0 || !len) {
        return;
    }
    if (cls != HSAGPU_DMA_CLASS_LOCAL) {
        hsagpu_dma_count(s, cls, is_write ? HSAGPU_DMA_CNT_WR_TLPS
                                          : HSAGPU_DMA_CNT_RD_REQS,
                         hsagpu_tlp_count(addr, len,
                                          is_write ? hsagpu_link_mps(s)
                                                   : hsagpu_link_mrrs(s)));
    }
    hsagpu_dma_count(s, cls, is_write ? HSAGPU_DMA_CNT_WR_BYTES
                                      : HSAGPU_DMA_CNT_RD_BYTES, len);
}

/*
 * Without zero-copy: one bounded chunk through a bounce buffer, between
 * the host views the resolver returned (RAM it mapped), never through a
 * second lookup that could find MMIO there by now.
 */
static void hsagpu_dma_bounce(HsaGpuBusTarget *d, HsaGpuBusTarget *sp,
                              uint64_t n, const uint32_t *pattern,
                              uint64_t phase, bool poison)
{
    uint8_t buf[HSAGPU_DMA_BOUNCE];

    if (pattern) {
        hsagpu_dma_fill_host(buf, n, *pattern, phase);
    } else {
        memcpy(buf, sp->host, n);
    }
    if (poison) {
        hsagpu_fault_poison_data(buf, n);
    }
    memcpy(d->host, buf, n);
}

unsigned hsagpu_dma_xfer(HsaGpuBusCtx *c, uint64_t dst, uint64_t src,
                         uint64_t len, const uint32_t *pattern,
                         uint64_t *bad_addr, bool *peer_written)
{
    HsaGpuState *s = c->s;
    int scls = -1, dcls = -1;
    uint64_t done = 0;
    unsigned err = 0;

    RCU_READ_LOCK_GUARD();
    while (done < len) {
        HsaGpuBusTarget d, sp = { 0 };
        uint64_t n = len - done;
        HsaGpuReadFault f = HSAGPU_READ_OK;

        err = hsagpu_bus_qerr(hsagpu_bus_resolve(c, dst + done, n, true, &d));
        if (err) {
            hsagpu_bus_release(c, &d, true, 0);
            *bad_addr = dst + done;
            break;
        }
        n = MIN(n, d.len);
        if (!pattern) {
            err = hsagpu_bus_qerr(hsagpu_bus_resolve(c, src + done, n, false,
                                                     &sp));
            /* A read on the link: its completion may carry a fault. */
            if (!err && sp.cls != HSAGPU_BUS_LOCAL) {
                f = hsagpu_fault_read(s, src + done);
                if (f == HSAGPU_READ_UR || f == HSAGPU_READ_CA) {
                    err = HSAGPU_QERR_ADDRESS;
                }
            }
            if (err) {
                hsagpu_bus_release(c, &sp, false, 0);
                hsagpu_bus_release(c, &d, true, 0);
                *bad_addr = src + done;
                break;
            }
            n = MIN(n, sp.len);
            scls = scls < 0 ? (int)hsagpu_dma_class(sp.cls) : scls;
        }
        dcls = dcls < 0 ? (int)hsagpu_dma_class(d.cls) : dcls;
        if (!s->params.dma_zero_copy) {
            n = MIN(n, HSAGPU_DMA_BOUNCE);
            hsagpu_dma_bounce(&d, &sp, n, pattern, done,
                              f == HSAGPU_READ_POISON);
        } else if (pattern) {
            hsagpu_dma_fill_host(d.host, n, *pattern, done);
        } else {
            memmove(d.host, sp.host, n);
            if (f == HSAGPU_READ_POISON) {
                hsagpu_fault_poison_data(d.host, n);
            }
        }
        *peer_written |= hsagpu_dma_class(d.cls) == HSAGPU_DMA_CLASS_PEER;
        if (!pattern) {
            hsagpu_link_move(c, &sp, n, false);
        }
        hsagpu_link_move(c, &d, n, true);
        hsagpu_bus_release(c, &sp, false, n);
        hsagpu_bus_release(c, &d, true, n);
        done += n;
        if (f == HSAGPU_READ_POISON) {
            /* Delivered, but the engine stops at the poisoned data. */
            *bad_addr = src + done - n;
            err = HSAGPU_QERR_POISON;
            break;
        }
    }
    hsagpu_dma_account(s, scls, false, src, done);
    hsagpu_dma_account(s, dcls, true, dst, done);
    trace_hsagpu_dma_xfer(c->queue, dst, src, len, !!pattern, done, err);
    return err;
}

unsigned hsagpu_dma_map(HsaGpuBusCtx *c, uint64_t addr, uint64_t len,
                        bool is_write, HsaGpuBusTarget *t)
{
    HsaGpuReadFault f = HSAGPU_READ_OK;
    unsigned err;

    rcu_read_lock();
    err = hsagpu_bus_qerr(hsagpu_bus_resolve(c, addr, len, is_write, t));
    /* What hsagpu_ops_read_data() does for a read on the link */
    if (!err && !is_write && t->cls != HSAGPU_BUS_LOCAL) {
        f = hsagpu_fault_read(c->s, addr);
        err = f == HSAGPU_READ_POISON ? HSAGPU_QERR_POISON :
              f != HSAGPU_READ_OK ? HSAGPU_QERR_ADDRESS : 0;
    }
    if (err) {
        hsagpu_bus_release(c, t, is_write, 0);
        rcu_read_unlock();
    }
    trace_hsagpu_dma_map(c->queue, addr, len, is_write, err ? 0 : t->len,
                         err);
    return err;
}

void hsagpu_dma_unmap(HsaGpuBusCtx *c, HsaGpuBusTarget *t, bool is_write,
                      uint64_t done)
{
    hsagpu_bus_release(c, t, is_write, done);
    rcu_read_unlock();
}

void hsagpu_dma_flush_peer(HsaGpuState *s)
{
    /*
     * Posted writes to a peer and a later write to system memory take
     * different paths, so nothing orders them: like real devices, read
     * from the peer (a zero-length read request) and wait for the
     * completion, which cannot pass the writes, before signalling.
     */
    hsagpu_dma_count(s, HSAGPU_DMA_CLASS_PEER, HSAGPU_DMA_CNT_RD_REQS, 1);
    smp_mb(); /* the data stores before the completion signal's store */
}
