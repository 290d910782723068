/*
 * libFuzzer harness: SDMA rings (hsagpu-sdma.c) through the queue
 * processor. A guest writes SDMA v4 packets (copies, rectangles, fills,
 * fences, polls, atomics, timestamps, NOP padding) into a byte ring and
 * moves the write pointer; the device decodes them outside the BQL. The
 * fuzzer gives the ring's size and bytes, the read and write pointers
 * (anywhere, unaligned, behind, a ring ahead), and a data region the
 * packets point into (fuzz-input.h); the queue runs for a few calls or
 * scheduling passes, the write pointer moving between them, optionally
 * migrating. Besides ASan and UBSan: a live SDMA queue passes the checks
 * a migrated one must pass, interrupts go to the queue's vector.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/cp/hsagpu-cp.h"
#include "fuzz-mem.h"
#include "fuzz-qbus.h"
#include "fuzz-input.h"

static FuzzMem fm;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzIn in = { data, size };
    uint8_t h[FS_HEAD_SIZE], *ring, *ptrs;
    const uint8_t *rb, *dat;
    size_t ring_len, data_len;
    uint32_t ring_size;
    uint64_t start = 0, wptr;
    FuzzBus bus = { .m = &fm, .now = 1000, .vectors = fqb_ident.msix_vectors };
    HsaGpuQueueOps ops;
    HsaGpuProc proc = { &ops, &bus, &fqb_ident, NULL };
    HsaGpuQueue q;
    unsigned runs, quantum, rr = 0;
    uint8_t flags;

    fuzz_take(&in, h, sizeof(h));
    flags = h[FS_H_FLAGS];
    ring_size = HSAGPU_SDMA_RING_MIN << (h[FS_H_RING] % 3);
    rb = fuzz_take_ptr(&in, MIN(fuzz_le16(h + FS_H_RING_LEN), ring_size),
                       &ring_len);
    _Static_assert(UINT16_MAX <= FS_DATA_SIZE, "u16 data length");
    dat = fuzz_take_ptr(&in, in.n, &data_len);
    bus.step = 8 * (uint64_t)h[FS_H_CLOCK];
    bus.poison = FS_DATA + FS_DATA_SIZE - 4096;
    fqb_ops(&ops, flags & FS_F_READ_DATA, false, false);

    /*
     * The ring's bytes from the read pointer on (wrapping), as a
     * producer that started there wrote them.
     */
    if (flags & FS_F_START) {
        start = fuzz_le32(h + FS_H_START) & ~3U;
    }
    ring = fuzz_mem_map(&fm, FS_RING, ring_size, NULL, 0, false);
    for (size_t i = 0; i < ring_len; i++) {
        ring[(start + i) & (ring_size - 1)] = rb[i];
    }
    wptr = (flags & FS_F_WPTR) ? fuzz_le32(h + FS_H_WPTR)
                               : start + (ring_len & ~(size_t)3);
    ptrs = fuzz_mem_map(&fm, FS_PTRS, 16, NULL, 0, false);
    memcpy(ptrs, &start, sizeof(start));
    if (flags & FS_F_BUMP) {
        /* half the packets first: the rest is published later */
        uint64_t half = start + ((wptr - start) / 2 & ~3ULL);

        memcpy(ptrs + 8, &half, sizeof(half));
    } else {
        memcpy(ptrs + 8, &wptr, sizeof(wptr));
    }
    _Static_assert(FS_DATA_SIZE >= 4096, "poison page inside the data");
    fuzz_mem_map(&fm, FS_DATA, FS_DATA_SIZE, dat, data_len, false);

    memset(&q, 0, sizeof(q));
    q.ring_lo = (uint32_t)FS_RING;
    q.ring_size = ring_size;
    q.rptr_lo = (uint32_t)FS_PTRS;
    q.wptr_lo = (uint32_t)(FS_PTRS + 8);
    q.vector = 2;
    q.flags = HSAGPU_QF_SDMA;
    FUZZ_CHECK(hsagpu_queue_check(&q, &fqb_ident, &q, 1) == HSAGPU_QRES_OK);
    hsagpu_queue_start(&q, start);

    runs = 1 + h[FS_H_RUNS] % 4;
    quantum = 1 + h[FS_H_QUANTUM] % 32;
    for (unsigned i = 0; i < runs; i++) {
        fqb_turn(&bus, &q, &proc, quantum, &rr, flags & FS_F_BUDGET,
                 (flags & FS_F_MIGRATE) && i + 1 < runs);
        if (flags & FS_F_BUMP) {
            memcpy(ptrs + 8, &wptr, sizeof(wptr));
        }
        bus.now += 100000;
    }
    hsagpu_queue_clear(&q);
    fuzz_mem_free(&fm);
    return 0;
}
