/*
 * hsa-gpu: the device's memory accesses (bus master reads and writes) and
 * the DMA engine's data movement.
 *
 * Where an address goes, as seen from the device:
 *  - its own BAR0 range: its VRAM, served locally, never on the link;
 *  - a peer's BAR0 when a switch above both devices routes it
 *    (hsagpu-p2p.c): peer to peer without the root complex or IOMMU;
 *  - anything else goes upstream through the bus-master address space,
 *    so a virtual IOMMU translates it: guest RAM, or a peer's VRAM that
 *    the root complex routes to.
 * Only RAM is accessed: the queue processor thread runs without the BQL
 * and must never dispatch into MMIO handlers, which would take it.
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

/* What the start of an access reaches. */
typedef struct HsaGpuDmaPiece {
    uint8_t *host;
    uint64_t len;               /* usable bytes at host */
    unsigned cls;               /* HSAGPU_DMA_CLASS_* */
    MemoryRegion *vram;         /* VRAM: mark dirty after writes */
    hwaddr vram_off;
    bool mapped;                /* address_space_map()ed system memory */
    Object *ref;                /* peer reference to drop */
} HsaGpuDmaPiece;

static void hsagpu_dma_vram(HsaGpuState *t, uint64_t off, uint64_t len,
                            unsigned cls, HsaGpuDmaPiece *pc)
{
    pc->vram = &t->vram;
    pc->vram_off = off;
    pc->host = (uint8_t *)memory_region_get_ram_ptr(&t->vram) + off;
    pc->len = MIN(len, t->vram_size - off);
    pc->cls = cls;
}

/*
 * Resolve the start of [addr, addr + len), under the RCU read lock:
 * 0 or an HSAGPU_QERR_* code. Release the piece with hsagpu_dma_release.
 */
static unsigned hsagpu_dma_resolve(HsaGpuState *s, uint64_t addr,
                                   uint64_t len, bool is_write,
                                   HsaGpuDmaPiece *pc)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    AddressSpace *as = &pdev->bus_master_as;
    pcibus_t bar = pci_get_bar_addr(pdev, HSAGPU_BAR_VRAM);
    uint64_t limit = hsagpu_addr_limit(s);
    hwaddr xlat, l = len;
    HsaGpuState *peer;
    MemoryRegion *mr;
    Object *owner;
    uint64_t off;

    memset(pc, 0, sizeof(*pc));
    if (!len || addr + len - 1 < addr) {
        return HSAGPU_QERR_ADDRESS;
    }
    if (bar != PCI_BAR_UNMAPPED && addr >= bar && addr - bar < s->vram_size) {
        hsagpu_dma_vram(s, addr - bar, len, HSAGPU_DMA_CLASS_LOCAL, pc);
        return 0;
    }
    peer = hsagpu_p2p_switch_peer(s, addr, &off);
    if (peer) {
        pc->ref = OBJECT(peer);
        if (!hsagpu_p2p_peer_ok(s, peer)) {
            return HSAGPU_QERR_P2P_LIMIT;
        }
        hsagpu_dma_vram(peer, off, len, HSAGPU_DMA_CLASS_PEER, pc);
        return 0;
    }
    /* The device cannot put a higher address on the link. */
    if (addr > limit) {
        return HSAGPU_QERR_ADDRESS;
    }
    l = MIN(len, limit - addr + 1);
    mr = address_space_translate(as, addr, &xlat, &l, is_write,
                                 MEMTXATTRS_UNSPECIFIED);
    if (!l || !memory_access_is_direct(mr, is_write, MEMTXATTRS_UNSPECIFIED)) {
        return HSAGPU_QERR_ADDRESS;
    }
    owner = memory_region_owner(mr);
    peer = owner ? (HsaGpuState *)object_dynamic_cast(owner, TYPE_HSA_GPU)
                 : NULL;
    if (peer && mr == &peer->vram) {
        /* A peer through the root complex (maybe an IOMMU mapping). */
        if (peer != s && !hsagpu_p2p_peer_ok(s, peer)) {
            return HSAGPU_QERR_P2P_LIMIT;
        }
        hsagpu_dma_vram(peer, xlat, l, peer == s ? HSAGPU_DMA_CLASS_LOCAL
                                                 : HSAGPU_DMA_CLASS_PEER, pc);
        return 0;
    }
    /*
     * System memory: map it, so that unmapping marks it dirty for
     * migration and drops translated code that the data replaced.
     */
    pc->host = address_space_map(as, addr, &l, is_write,
                                 MEMTXATTRS_UNSPECIFIED);
    if (!pc->host) {
        return HSAGPU_QERR_ADDRESS;
    }
    pc->len = l;
    pc->mapped = true;
    pc->cls = HSAGPU_DMA_CLASS_SYSTEM;
    return 0;
}

static void hsagpu_dma_release(HsaGpuState *s, HsaGpuDmaPiece *pc,
                               bool is_write, uint64_t done)
{
    if (pc->mapped) {
        address_space_unmap(&PCI_DEVICE(s)->bus_master_as, pc->host, pc->len,
                            is_write, done);
    } else if (pc->vram && is_write && done) {
        memory_region_set_dirty(pc->vram, pc->vram_off, done);
    }
    if (pc->ref) {
        object_unref(pc->ref);
    }
    pc->mapped = false;
    pc->ref = NULL;
}

int hsagpu_dma_rw(HsaGpuState *s, uint64_t addr, void *buf, uint64_t len,
                  bool is_write)
{
    uint8_t *p = buf;

    RCU_READ_LOCK_GUARD();
    while (len) {
        HsaGpuDmaPiece pc;

        if (hsagpu_dma_resolve(s, addr, len, is_write, &pc)) {
            hsagpu_dma_release(s, &pc, is_write, 0);
            return -1;
        }
        if (is_write) {
            memcpy(pc.host, p, pc.len);
        } else {
            memcpy(p, pc.host, pc.len);
        }
        p += pc.len;
        addr += pc.len;
        len -= pc.len;
        hsagpu_dma_release(s, &pc, is_write, pc.len);
    }
    return 0;
}

bool hsagpu_dma_is_memory(HsaGpuState *s, uint64_t addr, uint64_t len,
                          bool is_write)
{
    RCU_READ_LOCK_GUARD();
    while (len) {
        HsaGpuDmaPiece pc;
        unsigned err = hsagpu_dma_resolve(s, addr, len, is_write, &pc);
        uint64_t l = pc.len;

        hsagpu_dma_release(s, &pc, is_write, 0);
        if (err) {
            return false;
        }
        addr += l;
        len -= l;
    }
    return true;
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

/* Without zero-copy: one bounded chunk through a bounce buffer. */
static void hsagpu_dma_bounce(HsaGpuState *s, HsaGpuDmaPiece *d,
                              HsaGpuDmaPiece *sp, uint64_t dst, uint64_t src,
                              uint64_t n, const uint32_t *pattern,
                              uint64_t phase)
{
    AddressSpace *as = &PCI_DEVICE(s)->bus_master_as;
    uint8_t buf[HSAGPU_DMA_BOUNCE];

    if (pattern) {
        hsagpu_dma_fill_host(buf, n, *pattern, phase);
    } else if (sp->mapped) {
        address_space_read(as, src, MEMTXATTRS_UNSPECIFIED, buf, n);
    } else {
        memcpy(buf, sp->host, n);
    }
    if (d->mapped) {
        address_space_write(as, dst, MEMTXATTRS_UNSPECIFIED, buf, n);
    } else {
        memcpy(d->host, buf, n);
    }
}

unsigned hsagpu_dma_xfer(HsaGpuState *s, uint64_t dst, uint64_t src,
                         uint64_t len, const uint32_t *pattern,
                         uint64_t *bad_addr, bool *peer_written)
{
    int scls = -1, dcls = -1;
    uint64_t done = 0;
    unsigned err = 0;

    RCU_READ_LOCK_GUARD();
    while (done < len) {
        HsaGpuDmaPiece d, sp = { 0 };
        uint64_t n = len - done;

        err = hsagpu_dma_resolve(s, dst + done, n, true, &d);
        if (err) {
            hsagpu_dma_release(s, &d, true, 0);
            *bad_addr = dst + done;
            break;
        }
        n = MIN(n, d.len);
        if (!pattern) {
            err = hsagpu_dma_resolve(s, src + done, n, false, &sp);
            if (err) {
                hsagpu_dma_release(s, &sp, false, 0);
                hsagpu_dma_release(s, &d, true, 0);
                *bad_addr = src + done;
                break;
            }
            n = MIN(n, sp.len);
            scls = scls < 0 ? (int)sp.cls : scls;
        }
        dcls = dcls < 0 ? (int)d.cls : dcls;
        if (!s->dma_zero_copy) {
            n = MIN(n, HSAGPU_DMA_BOUNCE);
            hsagpu_dma_bounce(s, &d, &sp, dst + done, src + done, n, pattern,
                              done);
        } else if (pattern) {
            hsagpu_dma_fill_host(d.host, n, *pattern, done);
        } else {
            memmove(d.host, sp.host, n);
        }
        *peer_written |= d.cls == HSAGPU_DMA_CLASS_PEER;
        hsagpu_dma_release(s, &sp, false, n);
        hsagpu_dma_release(s, &d, true, n);
        done += n;
    }
    hsagpu_dma_account(s, scls, false, src, done);
    hsagpu_dma_account(s, dcls, true, dst, done);
    trace_hsagpu_dma_xfer(dst, src, len, !!pattern, done, err);
    return err;
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
