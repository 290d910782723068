/*
 * The GCN interpreter's memory (HsaGpuGcnMem) on a fuzzer's sparse
 * address space (fuzz-mem.h): reads and writes that fail where nothing
 * is mapped, and the device's AtomicOps (naturally aligned, 4 or 8
 * bytes). Shared by the fuzz-gcn and fuzz-gcn-load harnesses.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HSAGPU_FUZZ_GCNMEM_H
#define HSAGPU_FUZZ_GCNMEM_H

#include <string.h>

#include "hw/hsagpu/gcn/hsagpu-gcn.h"
#include "fuzz-mem.h"

static unsigned fgm_read(void *o, uint64_t addr, void *buf, uint32_t len)
{
    return fuzz_mem_read(o, addr, buf, len);
}

static unsigned fgm_write(void *o, uint64_t addr, const void *buf,
                          uint32_t len)
{
    return fuzz_mem_write(o, addr, buf, len);
}

static unsigned fgm_atomic(void *o, uint64_t addr, unsigned bytes,
                           unsigned op, uint64_t src0, uint64_t src1,
                           uint64_t *old)
{
    uint64_t mask = bytes == 8 ? UINT64_MAX : UINT32_MAX, v = 0, nv;
    uint8_t *p;

    FUZZ_CHECK(bytes == 4 || bytes == 8);
    FUZZ_CHECK(op <= HSAGPU_GCN_ATOMIC_CAS);
    p = (addr % bytes) ? NULL : fuzz_mem_at(o, addr, bytes, true);
    if (!p) {
        return FUZZ_MEM_ERR;
    }
    memcpy(&v, p, bytes);
    switch (op) {
    case HSAGPU_GCN_ATOMIC_ADD:
        nv = v + src0;
        break;
    case HSAGPU_GCN_ATOMIC_SWAP:
        nv = src0;
        break;
    default:
        nv = v == (src0 & mask) ? src1 : v;
        break;
    }
    memcpy(p, &nv, bytes);
    *old = v;
    return 0;
}

/* A clock for s_memtime, s_memrealtime: moving, deterministic */
static inline uint64_t fgm_now(void *opaque)
{
    static uint64_t ns;

    return ns += 1000;
}

/* s_sendmsg(MSG_INTERRUPT): nothing to raise */
static inline void fgm_interrupt(void *opaque, uint32_t m0)
{
}

/*
 * Host views (HsaGpuGcnMem.host) of a writable region from a page on, up
 * to the region's end or the view's 64 KiB span's: a read-only region (FG_F_RO_CODE's code) has none, so
 * its reads go through fgm_read, as a device's unmapped pages do
 */
static void *fgm_host(void *o, uint64_t addr, bool write, uint32_t *len)
{
    FuzzMem *m = o;

    FUZZ_CHECK(!(addr & 4095));
    for (unsigned i = 0; i < m->n && i < FUZZ_REGIONS_MAX; i++) {
        FuzzRegion *r = &m->r[i];
        uint64_t end = r->base + r->size;

        if (addr >= r->base && addr < end && !r->ro) {
            /* to the region's end, within the view's span */
            uint64_t span = 65536 - (addr & 65535);

            *len = end - addr < span ? end - addr : span;
            return r->buf + (addr - r->base);
        }
    }
    return NULL;
}

/* what went through a writable view: it must be one */
static void fgm_written(void *o, uint64_t addr, uint32_t len)
{
    FUZZ_CHECK(len && fuzz_mem_at(o, addr, len, true));
}

/* @m as the interpreter's memory (.atomic = NULL: without AtomicOps) */
static inline HsaGpuGcnMem fuzz_gcn_mem(FuzzMem *m)
{
    return (HsaGpuGcnMem) {
        fgm_read, fgm_write, fgm_atomic, m, fgm_now, fgm_interrupt,
        fgm_host, fgm_written,
    };
}

#endif
