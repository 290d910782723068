/*
 * hsa-gpu: the dirty-line directory of the cached read alias, without
 * QEMU (hsagpu-vram-dir.h; registers in hsagpu_regs.h, "Cached read
 * alias" in docs/registers.md).
 *
 * Atomics are the compiler's __atomic builtins (sequentially consistent,
 * what qatomic_or()/qatomic_xchg() are in QEMU), so that the same code
 * runs in the unit tests: a line is marked before the completion signal
 * that tells the host the data is there is written.
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
#include "hsagpu-vram-dir.h"

#define LINE_SHIFT      6
#define LINES_PER_WORD  64

void hsagpu_vram_dir_init(HsaGpuVramDir *d, uint64_t size, uint64_t *words)
{
    memset(d, 0, sizeof(*d));
    d->size = size;
    d->nwords = size / HSAGPU_DIR_WORD_BYTES;
    d->words = words;
    hsagpu_vram_dir_reset(d);
}

void hsagpu_vram_dir_reset(HsaGpuVramDir *d)
{
    for (uint32_t i = 0; i < d->nwords; i++) {
        __atomic_store_n(&d->words[i], 0, __ATOMIC_SEQ_CST);
    }
    d->cursor = 0;
    d->mask = UINT64_MAX;
    d->clear_first = 0;
}

/* Bits [lo, hi) of one word, 0 <= lo < hi <= 64 */
static inline uint64_t dir_bits(unsigned lo, unsigned hi)
{
    uint64_t m = hi == 64 ? UINT64_MAX : (1ULL << hi) - 1;

    return m & ~((1ULL << lo) - 1);
}

/* Apply @set (or clear) to lines [first, end) */
static void dir_update(HsaGpuVramDir *d, uint64_t first, uint64_t end,
                       bool set)
{
    while (first < end) {
        uint64_t w = first / LINES_PER_WORD;
        unsigned lo = first % LINES_PER_WORD;
        unsigned hi = end - w * LINES_PER_WORD >= LINES_PER_WORD ?
                      LINES_PER_WORD : end - w * LINES_PER_WORD;
        uint64_t m = dir_bits(lo, hi);

        if (set) {
            /*
             * Most writes hit lines already dirty (a kernel's slices, a
             * signal written again): skip the locked operation, and the
             * cache-line bouncing between processor threads, then.
             */
            if ((__atomic_load_n(&d->words[w], __ATOMIC_RELAXED) & m) != m) {
                __atomic_fetch_or(&d->words[w], m, __ATOMIC_SEQ_CST);
            }
        } else {
            __atomic_fetch_and(&d->words[w], ~m, __ATOMIC_SEQ_CST);
        }
        first = (w + 1) * LINES_PER_WORD;
    }
}

void hsagpu_vram_dir_mark_lines(HsaGpuVramDir *d, uint64_t off, uint64_t len)
{
    uint64_t end;

    if (!len || off >= d->size) {
        return;
    }
    end = len > d->size - off ? d->size : off + len;
    /* Full barrier: the data stores before the mark's visibility. */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    dir_update(d, off >> LINE_SHIFT,
               (end + (1U << LINE_SHIFT) - 1) >> LINE_SHIFT, true);
}

void hsagpu_vram_dir_clear(HsaGpuVramDir *d, uint64_t first, uint64_t count)
{
    uint64_t lines = (uint64_t)d->nwords * LINES_PER_WORD;

    if (first >= lines || !count) {
        return;
    }
    dir_update(d, first, count > lines - first ? lines : first + count,
               false);
}

bool hsagpu_vram_dir_test(const HsaGpuVramDir *d, uint64_t line)
{
    if (line >= (uint64_t)d->nwords * LINES_PER_WORD) {
        return false;
    }
    return __atomic_load_n(&d->words[line / LINES_PER_WORD],
                           __ATOMIC_SEQ_CST) >> (line % LINES_PER_WORD) & 1;
}

bool hsagpu_vram_dir_reg(uint32_t offset)
{
    return offset >= HSAGPU_REG_RALIAS_SIZE_LO && offset < HSAGPU_REG_DIR_END;
}

/* The first non-zero word at or after the cursor; nwords if none. */
static uint32_t dir_next(HsaGpuVramDir *d)
{
    uint32_t i;

    for (i = d->cursor; i < d->nwords; i++) {
        if (__atomic_load_n(&d->words[i], __ATOMIC_SEQ_CST)) {
            break;
        }
    }
    return i;
}

/* 4-byte halves of the 64-bit MASK; WORD and TAKE only as 8 bytes. */
static unsigned dir_check(uint32_t offset, unsigned size)
{
    if (offset == HSAGPU_REG_DIR_MASK || offset == HSAGPU_REG_DIR_WORD ||
        offset == HSAGPU_REG_DIR_TAKE) {
        if (size == 8) {
            return 0;
        }
        if (offset == HSAGPU_REG_DIR_MASK && size == 4) {
            return 0;
        }
        return HSAGPU_BAD_REASON_SIZE;
    }
    if (size != 4) {
        return HSAGPU_BAD_REASON_SIZE;
    }
    if (offset & 3) {
        return HSAGPU_BAD_REASON_ALIGN;
    }
    if (offset == HSAGPU_REG_DIR_WORD + 4 ||
        offset == HSAGPU_REG_DIR_TAKE + 4) {
        return HSAGPU_BAD_REASON_SIZE;
    }
    return 0;
}

unsigned hsagpu_vram_dir_reg_read(HsaGpuVramDir *d, uint32_t offset,
                                  unsigned size, uint64_t *val)
{
    unsigned bad = dir_check(offset, size);

    *val = 0;
    if (bad) {
        return bad;
    }
    switch (offset) {
    case HSAGPU_REG_RALIAS_SIZE_LO:
        *val = (uint32_t)d->size;
        break;
    case HSAGPU_REG_RALIAS_SIZE_HI:
        *val = d->size >> 32;
        break;
    case HSAGPU_REG_DIR_WORDS:
        *val = d->nwords;
        break;
    case HSAGPU_REG_DIR_CURSOR:
        *val = d->cursor;
        break;
    case HSAGPU_REG_DIR_NEXT:
        d->cursor = dir_next(d);
        *val = d->cursor;
        break;
    case HSAGPU_REG_DIR_CLEAR_FIRST:
        *val = d->clear_first;
        break;
    case HSAGPU_REG_DIR_CLEAR_COUNT:
    case HSAGPU_REG_DIR_CTRL:
        break;                  /* write-only actions read as 0 */
    case HSAGPU_REG_DIR_MASK:
        *val = size == 8 ? d->mask : (uint32_t)d->mask;
        break;
    case HSAGPU_REG_DIR_MASK + 4:
        *val = d->mask >> 32;
        break;
    case HSAGPU_REG_DIR_WORD:
    case HSAGPU_REG_DIR_TAKE:
        if (d->cursor >= d->nwords) {
            break;
        }
        if (offset == HSAGPU_REG_DIR_WORD) {
            *val = __atomic_load_n(&d->words[d->cursor], __ATOMIC_SEQ_CST) &
                   d->mask;
        } else {
            /* One atomic step: a line marked meanwhile is never lost. */
            *val = __atomic_fetch_and(&d->words[d->cursor], ~d->mask,
                                      __ATOMIC_SEQ_CST) & d->mask;
        }
        d->cursor++;
        break;
    default:
        return HSAGPU_BAD_REASON_UNMAPPED;
    }
    return 0;
}

unsigned hsagpu_vram_dir_reg_write(HsaGpuVramDir *d, uint32_t offset,
                                   unsigned size, uint64_t val)
{
    unsigned bad = dir_check(offset, size);

    if (bad) {
        return bad;
    }
    switch (offset) {
    case HSAGPU_REG_RALIAS_SIZE_LO:
    case HSAGPU_REG_RALIAS_SIZE_HI:
    case HSAGPU_REG_DIR_WORDS:
    case HSAGPU_REG_DIR_NEXT:
    case HSAGPU_REG_DIR_WORD:
    case HSAGPU_REG_DIR_TAKE:
        return HSAGPU_BAD_REASON_READONLY;
    case HSAGPU_REG_DIR_CURSOR:
        d->cursor = val > d->nwords ? d->nwords : (uint32_t)val;
        break;
    case HSAGPU_REG_DIR_CLEAR_FIRST:
        d->clear_first = val;
        break;
    case HSAGPU_REG_DIR_CLEAR_COUNT:
        hsagpu_vram_dir_clear(d, d->clear_first, (uint32_t)val);
        break;
    case HSAGPU_REG_DIR_CTRL:
        if (val & HSAGPU_DIR_CTRL_CLEAR_ALL) {
            hsagpu_vram_dir_clear(d, 0, UINT64_MAX);
        }
        break;
    case HSAGPU_REG_DIR_MASK:
        d->mask = size == 8 ? val : (d->mask & ~0xffffffffULL) |
                                    (uint32_t)val;
        break;
    case HSAGPU_REG_DIR_MASK + 4:
        d->mask = (d->mask & 0xffffffffULL) | (uint64_t)(uint32_t)val << 32;
        break;
    default:
        return HSAGPU_BAD_REASON_UNMAPPED;
    }
    return 0;
}

bool hsagpu_vram_dir_loaded_ok(const HsaGpuVramDir *d)
{
    return d->cursor <= d->nwords;
}
