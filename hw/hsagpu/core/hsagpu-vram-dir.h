/*
 * hsa-gpu: the dirty-line directory of the cached read alias (BAR4),
 * independent of QEMU. One bit per 64-byte line of the first
 * HSAGPU_REG_RALIAS_SIZE bytes of VRAM, set for every line the device
 * writes (any engine, any requester: a peer's DMA into this VRAM marks
 * this directory), cleared only by the host through the DIR_* registers.
 * hsagpu-vram-dir.c wraps it for the device (the BAR4 alias, MMIO,
 * migration); tests/unit/test-vram-dir.c drives it directly.
 *
 * Marking runs on the queue processor threads of this device and of its
 * peers at once, register accesses under the BQL: the words are only
 * changed with atomic read-modify-writes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_CORE_VRAM_DIR_H
#define HW_HSAGPU_CORE_VRAM_DIR_H

#ifdef HSAGPU_HOST_TEST
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif
#include "hsagpu/hsagpu_regs.h"

typedef struct HsaGpuVramDir {
    uint64_t size;              /* bytes of VRAM covered, 0: no alias */
    uint32_t nwords;            /* size / HSAGPU_DIR_WORD_BYTES */
    uint64_t *words;            /* nwords: bit b of word i = line */
                                /*  i * 64 + b */
    /* registers */
    uint32_t cursor;            /* DIR_CURSOR: a word index, <= nwords */
    uint64_t mask;              /* DIR_MASK: lines WORD/TAKE return */
    uint32_t clear_first;       /* DIR_CLEAR_FIRST: a line index */
} HsaGpuVramDir;

/* Set up for @size bytes (0: no alias) over @words (nwords zeroed). */
void hsagpu_vram_dir_init(HsaGpuVramDir *d, uint64_t size, uint64_t *words);
/* Reset: no line dirty, registers at their reset values. */
void hsagpu_vram_dir_reset(HsaGpuVramDir *d);
/* The device wrote [off, off + len) of VRAM: mark its lines. */
void hsagpu_vram_dir_mark_lines(HsaGpuVramDir *d, uint64_t off, uint64_t len);
/* Clear lines [first, first + count), clipped to the directory. */
void hsagpu_vram_dir_clear(HsaGpuVramDir *d, uint64_t first, uint64_t count);
/* Is line @line dirty? (tests) */
bool hsagpu_vram_dir_test(const HsaGpuVramDir *d, uint64_t line);

/*
 * The register block (HSAGPU_REG_DIR_*): 0 or HSAGPU_BAD_REASON_*.
 * @size is the access size (4, or 8 for the 64-bit registers).
 */
bool hsagpu_vram_dir_reg(uint32_t offset);
unsigned hsagpu_vram_dir_reg_read(HsaGpuVramDir *d, uint32_t offset,
                                  unsigned size, uint64_t *val);
unsigned hsagpu_vram_dir_reg_write(HsaGpuVramDir *d, uint32_t offset,
                                   unsigned size, uint64_t val);
/* After a migration: the registers are in range. */
bool hsagpu_vram_dir_loaded_ok(const HsaGpuVramDir *d);

#endif
