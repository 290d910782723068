/*
 * libFuzzer harness: SDMA rings (hsagpu-sdma.c) through the queue
 * processor. A guest writes SDMA v4 packets (copies, rectangles, fills,
 * fences, polls, atomics, timestamps, NOP padding; on amdgpu's kernel
 * rings, FS_F_KERNEL, also WRITE, INDIRECT buffers, PTEPDE, SRBM_WRITE
 * and register polls) into a byte ring and
 * moves the write pointer; the device decodes them outside the BQL. The
 * fuzzer gives the ring's size and bytes, the read and write pointers
 * (anywhere, unaligned, behind, a ring ahead), and a data region the
 * packets point into (fuzz-input.h); the queue runs for a few calls or
 * scheduling passes, the write pointer moving between them, optionally
 * migrating. Besides ASan and UBSan: a live SDMA queue passes the checks
 * a migrated one must pass, interrupts go to the queue's vector, register
 * numbers fit SRBM's 18 bits, trap contexts 28 bits, and after every
 * turn the accesses are back in the queue's own VMID.
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

/*
 * The kernel ring's registers: a small file (numbers wrap), where a
 * write to register r also sets r + 1, as an HDP flush's done register
 * follows its request; the VMID set_vmid() last named.
 */
#define FS_NREGS        64U
static struct {
    uint32_t reg[FS_NREGS];
    uint32_t vmid;
    unsigned traps;
} fk;

static uint32_t fs_reg_read(void *o, uint32_t reg)
{
    FUZZ_CHECK(reg <= HSAGPU_SDMA_REG_MASK);
    return fk.reg[reg % FS_NREGS];
}

static void fs_reg_write(void *o, uint32_t reg, uint32_t val)
{
    FUZZ_CHECK(reg <= HSAGPU_SDMA_REG_MASK);
    fk.reg[reg % FS_NREGS] = val;
    fk.reg[(reg + 1) % FS_NREGS] = val;
}

static void fs_trap(void *o, uint32_t int_ctx)
{
    FUZZ_CHECK(int_ctx <= HSAGPU_SDMA_TRAP_CTX_MASK);
    fk.traps++;
}

static void fs_set_vmid(void *o, uint32_t vmid)
{
    FUZZ_CHECK(vmid < HSAGPU_VM_NUM_VMIDS);
    fk.vmid = vmid;
}

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
    memset(&fk, 0, sizeof(fk));
    if (flags & FS_F_KERNEL) {
        ops.reg_read = fs_reg_read;
        ops.reg_write = fs_reg_write;
        ops.set_vmid = fs_set_vmid;
    }
    if (flags & FS_F_TRAP) {
        ops.trap = fs_trap;
    }

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
        FUZZ_CHECK(fk.vmid == q.as_vmid);
        if (flags & FS_F_BUMP) {
            memcpy(ptrs + 8, &wptr, sizeof(wptr));
        }
        bus.now += 100000;
    }
    hsagpu_queue_clear(&q);
    fuzz_mem_free(&fm);
    return 0;
}
