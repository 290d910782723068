/*
 * hsa-gpu: the bus resolver's rules, independent of QEMU.
 *
 * hsagpu-bus.c answers "where does this bus address go" for every access
 * the device makes (packets, signals, kernels, DMA, AtomicOps). The
 * decisions that need no QEMU object live here as inline functions, so
 * the host unit tests (tests/unit/test-core.c) check them directly.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_CORE_BUS_H
#define HW_HSAGPU_CORE_BUS_H

#include "hsagpu-core.h"

/* Where an access goes, as seen from the requesting device. */
typedef enum HsaGpuBusClass {
    HSAGPU_BUS_LOCAL,           /* its own VRAM: never on the link */
    HSAGPU_BUS_PEER_SWITCH,     /* a peer's VRAM, turned around by a switch */
    HSAGPU_BUS_PEER_ROOT,       /* a peer's VRAM through the root complex */
    HSAGPU_BUS_SYSTEM,          /* RAM through the bus-master address space */
} HsaGpuBusClass;

/* Why the resolver refused an access (0: it did not). */
typedef enum HsaGpuBusRefusal {
    HSAGPU_BUS_OK,
    HSAGPU_BUS_BAD_RANGE,       /* empty, or wraps around 2^64 */
    HSAGPU_BUS_ADDR_LIMIT,      /* at or above 2^p2p-addr-bits */
    HSAGPU_BUS_PEER_LIMIT,      /* a peer whose VRAM BAR ends above it */
    HSAGPU_BUS_NOT_MEMORY,      /* decoded, but MMIO or read-only */
    HSAGPU_BUS_UNMAPPED,        /* nothing answers */
    HSAGPU_BUS_VM_FAULT,        /* the GPU virtual address does not */
                                /* translate (recorded as a VM fault) */
} HsaGpuBusRefusal;

#define HSAGPU_BUS_NO_BAR UINT64_MAX   /* == PCI_BAR_UNMAPPED */

/* Highest bus address a device with @bits address bits can emit. */
static inline uint64_t hsagpu_bus_addr_limit(uint32_t bits)
{
    return bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
}

/* Does [addr, addr + 1) fall in a BAR at @bar (or NO_BAR) of @size? */
static inline bool hsagpu_bus_in_bar(uint64_t bar, uint64_t size,
                                     uint64_t addr)
{
    return bar != HSAGPU_BUS_NO_BAR && addr >= bar && addr - bar < size;
}

/* Does the whole BAR lie at or below @limit (peers can reach it)? */
static inline bool hsagpu_bus_bar_below(uint64_t bar, uint64_t size,
                                        uint64_t limit)
{
    return bar != HSAGPU_BUS_NO_BAR && size && bar + size - 1 >= bar &&
           bar + size - 1 <= limit;
}

/* Is [addr, addr + len) a valid, non-wrapping range? */
static inline bool hsagpu_bus_range_ok(uint64_t addr, uint64_t len)
{
    return len && addr + len - 1 >= addr;
}

/* Bytes of [addr, addr + len) that lie inside [base, base + size). */
static inline uint64_t hsagpu_bus_clip(uint64_t base, uint64_t size,
                                       uint64_t addr, uint64_t len)
{
    return MIN(len, size - (addr - base));
}

/* Bytes of [addr, addr + len) at or below @limit (addr <= limit). */
static inline uint64_t hsagpu_bus_below(uint64_t addr, uint64_t len,
                                        uint64_t limit)
{
    return len - 1 <= limit - addr ? len : limit - addr + 1;
}

/* The queue error a refused DMA, packet or signal access reports. */
static inline unsigned hsagpu_bus_qerr(HsaGpuBusRefusal r)
{
    return r == HSAGPU_BUS_OK ? 0 :
           r == HSAGPU_BUS_PEER_LIMIT ? HSAGPU_QERR_P2P_LIMIT :
           r == HSAGPU_BUS_VM_FAULT ? HSAGPU_QERR_VM_FAULT :
           HSAGPU_QERR_ADDRESS;
}

/*
 * The AtomicOp status of a refused AtomicOp. @completer: a PCI function
 * decodes the address (its BAR is not memory: Completer Abort); else
 * nothing answers (Unsupported Request). Above the address limit the
 * device cannot emit the request at all: a peer out of reach is
 * P2P_LIMIT, any other address is treated like a hole (UR).
 */
static inline unsigned hsagpu_bus_atomic_st(HsaGpuBusRefusal r,
                                            bool completer)
{
    switch (r) {
    case HSAGPU_BUS_OK:
        return HSAGPU_ATOMIC_ST_OK;
    case HSAGPU_BUS_PEER_LIMIT:
        return HSAGPU_ATOMIC_ST_P2P_LIMIT;
    case HSAGPU_BUS_NOT_MEMORY:
        return completer ? HSAGPU_ATOMIC_ST_CA : HSAGPU_ATOMIC_ST_UR;
    case HSAGPU_BUS_BAD_RANGE:
        return HSAGPU_ATOMIC_ST_MALFORMED;
    case HSAGPU_BUS_VM_FAULT:
        return HSAGPU_ATOMIC_ST_VM_FAULT;
    default:
        return HSAGPU_ATOMIC_ST_UR;
    }
}

/*
 * A small cache of the last range that resolved without leaving the
 * switch (own VRAM, or a peer's below the same switch): the next access
 * in it skips the peer registry. Valid for one request context.
 */
typedef struct HsaGpuBusCache {
    uint64_t base;              /* bus address of the cached BAR */
    uint64_t size;              /* 0: empty */
    HsaGpuBusClass cls;
} HsaGpuBusCache;

static inline bool hsagpu_bus_cache_hit(const HsaGpuBusCache *c,
                                        uint64_t addr)
{
    return c->size && addr >= c->base && addr - c->base < c->size;
}

#endif
