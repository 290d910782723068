/*
 * hsagpu host fuzzers: a small sparse guest address space for the
 * QEMU-free device logic. A few mapped regions (each its own heap block,
 * so that ASan sees an access past one), everything else unmapped: an
 * access there fails the way the device's bus fails it, with an error
 * code, never with a host fault. The same memory serves the GCN
 * interpreter (HsaGpuGcnMem) and the queue processor (HsaGpuQueueOps).
 *
 * Every address and length comes from fuzzer input (through the code
 * under test); fuzz_mem_at() checks them without overflow before any
 * byte is touched.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HSAGPU_FUZZ_MEM_H
#define HSAGPU_FUZZ_MEM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_REGIONS_MAX        8
/* The error the callbacks return for an unmapped address (not 0) */
#define FUZZ_MEM_ERR            7U

typedef struct FuzzRegion {
    uint64_t base;
    uint32_t size;
    bool ro;                    /* writes fault */
    uint8_t *buf;               /* size bytes (at least 1 allocated) */
} FuzzRegion;

typedef struct FuzzMem {
    FuzzRegion r[FUZZ_REGIONS_MAX];
    unsigned n;
    unsigned faults;
} FuzzMem;

/* Map @size bytes at @base, @init's @ilen bytes first (the rest zero). */
static inline uint8_t *fuzz_mem_map(FuzzMem *m, uint64_t base, uint32_t size,
                                    const uint8_t *init, size_t ilen, bool ro)
{
    FuzzRegion *r;

    if (m->n >= FUZZ_REGIONS_MAX) {
        abort();                /* a harness bug */
    }
    r = &m->r[m->n++];
    r->base = base;
    r->size = size;
    r->ro = ro;
    r->buf = calloc(1, size ? size : 1);
    if (!r->buf) {
        abort();
    }
    if (init && ilen) {
        memcpy(r->buf, init, ilen < size ? ilen : size);
    }
    return r->buf;
}

static inline void fuzz_mem_free(FuzzMem *m)
{
    for (unsigned i = 0; i < m->n; i++) {
        free(m->r[i].buf);
    }
    memset(m, 0, sizeof(*m));
}

/* The host bytes of [@addr, @addr + @len), all in one region; or NULL. */
static inline uint8_t *fuzz_mem_at(FuzzMem *m, uint64_t addr, uint64_t len,
                                   bool write)
{
    for (unsigned i = 0; i < m->n && i < FUZZ_REGIONS_MAX; i++) {
        FuzzRegion *r = &m->r[i];
        uint64_t off;

        if (addr < r->base) {
            continue;
        }
        off = addr - r->base;
        if (off > r->size || len > r->size - off) {
            continue;
        }
        if (write && r->ro) {
            break;
        }
        return r->buf + off;
    }
    m->faults++;
    return NULL;
}

/* Bytes from @addr to the end of its region (0: unmapped) */
static inline uint64_t fuzz_mem_span(FuzzMem *m, uint64_t addr, bool write)
{
    for (unsigned i = 0; i < m->n && i < FUZZ_REGIONS_MAX; i++) {
        FuzzRegion *r = &m->r[i];

        if (addr >= r->base && addr - r->base < r->size &&
            !(write && r->ro)) {
            return r->size - (addr - r->base);
        }
    }
    return 0;
}

static inline unsigned fuzz_mem_read(FuzzMem *m, uint64_t addr, void *buf,
                                     uint64_t len)
{
    uint8_t *p = fuzz_mem_at(m, addr, len, false);

    if (!p) {
        return FUZZ_MEM_ERR;
    }
    memcpy(buf, p, len);
    return 0;
}

static inline unsigned fuzz_mem_write(FuzzMem *m, uint64_t addr,
                                      const void *buf, uint64_t len)
{
    uint8_t *p = fuzz_mem_at(m, addr, len, true);

    if (!p) {
        return FUZZ_MEM_ERR;
    }
    memmove(p, buf, len);
    return 0;
}

/*
 * Input bytes, taken front to back; what is missing reads as zeros, so
 * that every input is a valid one.
 */
typedef struct FuzzIn {
    const uint8_t *p;
    size_t n;
} FuzzIn;

static inline size_t fuzz_take(FuzzIn *in, void *dst, size_t len)
{
    size_t got = len < in->n ? len : in->n;

    memset(dst, 0, len);
    if (got) {
        memcpy(dst, in->p, got);
    }
    in->p += got;
    in->n -= got;
    return got;
}

/* Up to @len bytes in place (the pointer stays valid: the input does) */
static inline const uint8_t *fuzz_take_ptr(FuzzIn *in, size_t len,
                                           size_t *got)
{
    const uint8_t *p = in->p;

    *got = len < in->n ? len : in->n;
    in->p += *got;
    in->n -= *got;
    return p;
}

static inline uint16_t fuzz_le16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

static inline uint32_t fuzz_le32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void fuzz_put32(uint8_t *p, uint32_t v)
{
    for (unsigned k = 0; k < 4; k++) {
        p[k] = v >> (8 * k);
    }
}

/* A harness invariant broke: a finding, reported like a crash */
#define FUZZ_CHECK(cond) do { \
    if (!(cond)) { \
        fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, \
                #cond); \
        abort(); \
    } \
} while (0)

#endif
