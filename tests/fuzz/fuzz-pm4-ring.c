/*
 * libFuzzer harness: the command processor's PM4 ring engine
 * (hsagpu_pm4_ring_run, cp/hsagpu-pm4.c), which runs the rings a driver
 * hands the Vega10 personality (GFX ring, KIQ, compute rings) and the
 * indirect buffers they name. The fuzzer gives the ring's size, read and
 * write pointers (anywhere, behind, a ring ahead, past the ring with
 * FR_F_RAW), its VMID and kind (graphics ME or not), the ring's dwords,
 * a data region the packets point into, and which callbacks exist
 * (registers, the KIQ's queue_packet, end-of-pipe); the ring runs for a
 * few calls with a packet budget, the write pointer moving on between
 * them (fuzz-input.h). Memory is the sparse memory of fuzz-mem.h,
 * registers a small file whose numbers wrap.
 *
 * Besides ASan and UBSan, a run fails when the engine breaks what its
 * callers rely on: the outcome says STOPPED exactly when an error is
 * set, a known one; a live ring's read pointer stays inside the ring and
 * an IB's cursor inside the IB; IDLE means everything up to the write
 * pointer ran; a call runs at most its budget of packets; memory is
 * asked for in a VMID that exists, for 1 to 4096 bytes; queue_packet
 * gets only the KIQ's packets, whole.
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
#include "fuzz-input.h"

static FuzzMem fm;

static struct {
    uint32_t reg[FR_NREGS];
    uint32_t vmid;              /* the ring's VMID */
    uint8_t flags;
    unsigned qp_answer;         /* what queue_packet returns */
    unsigned accesses;          /* memory accesses (FR_F_MEM_FAIL) */
    unsigned eops, queue_packets;
} fr;

/* A VMID the device has, an access of a packet's size */
static bool fr_access(uint32_t vmid, uint32_t len)
{
    FUZZ_CHECK(vmid < HSAGPU_VM_NUM_VMIDS);
    FUZZ_CHECK(len >= 1 && len <= 4 * HSAGPU_PM4_PKT_MAX_DW);
    if ((fr.flags & FR_F_VMID_ONLY) && vmid != fr.vmid) {
        return false;
    }
    /* transient faults at changing places of the packet stream */
    return !(fr.flags & FR_F_MEM_FAIL) || ++fr.accesses % 5;
}

static unsigned fr_read(void *o, uint32_t vmid, uint64_t addr, void *buf,
                        uint32_t len)
{
    if (!fr_access(vmid, len)) {
        return 1;
    }
    return fuzz_mem_read(&fm, addr, buf, len);
}

static unsigned fr_write(void *o, uint32_t vmid, uint64_t addr,
                         const void *buf, uint32_t len)
{
    if (!fr_access(vmid, len)) {
        return 1;
    }
    return fuzz_mem_write(&fm, addr, buf, len);
}

static uint32_t fr_reg_read(void *o, uint32_t reg)
{
    return fr.reg[reg % FR_NREGS];
}

static void fr_reg_write(void *o, uint32_t reg, uint32_t val)
{
    fr.reg[reg % FR_NREGS] = val;
}

static void fr_eop(void *o, uint32_t ctx_id)
{
    fr.eops++;
}

static uint64_t fr_clock(void *o)
{
    return 0x123456789abcULL + fr.eops;
}

/* Only the KIQ's and the HIQ's packets, whole, reach the queue manager */
static unsigned fr_queue_packet(void *o, const uint32_t *pk, uint32_t n)
{
    unsigned op = (pk[0] >> HSAGPU_PM4_OPCODE_SHIFT) & HSAGPU_PM4_OPCODE_MASK;

    FUZZ_CHECK(fr.flags & FR_F_QUEUE);
    FUZZ_CHECK(n >= 2 && n <= HSAGPU_PM4_PKT_MAX_DW);
    FUZZ_CHECK(pk[0] >> HSAGPU_PM4_TYPE_SHIFT == HSAGPU_PM4_TYPE3);
    FUZZ_CHECK(((pk[0] >> HSAGPU_PM4_COUNT_SHIFT) & HSAGPU_PM4_COUNT_MASK)
               + 2 == n);
    FUZZ_CHECK(op == HSAGPU_PM4_OP_SET_RESOURCES ||
               op == HSAGPU_PM4_OP_MAP_PROCESS ||
               op == HSAGPU_PM4_OP_RUN_LIST ||
               op == HSAGPU_PM4_OP_MAP_QUEUES ||
               op == HSAGPU_PM4_OP_UNMAP_QUEUES ||
               op == HSAGPU_PM4_OP_QUERY_STATUS ||
               op == HSAGPU_PM4_OP_INVALIDATE_TLBS);
    fr.queue_packets++;
    return fr.qp_answer;
}

/* What every caller of hsagpu_pm4_ring_run relies on after a call */
static void fr_check(const HsaGpuPm4Ring *r, HsaGpuPm4Outcome o,
                     uint64_t wptr, uint64_t packets, unsigned budget,
                     bool valid)
{
    FUZZ_CHECK((o == HSAGPU_PM4_STOPPED) == (r->error != 0));
    FUZZ_CHECK(r->error <= HSAGPU_PM4_ERR_MAX);
    FUZZ_CHECK(r->packets >= packets && r->packets - packets <= budget);
    if (r->ib_active) {
        FUZZ_CHECK(r->ib_pos <= r->ib_size);
        FUZZ_CHECK(r->ib_size <= HSAGPU_PM4_IB_SIZE_MASK);
        FUZZ_CHECK(r->ib_vmid < HSAGPU_VM_NUM_VMIDS);
    }
    if (valid) {
        FUZZ_CHECK(r->rptr < r->size_dw);
    }
    if (o == HSAGPU_PM4_IDLE) {
        FUZZ_CHECK(!r->ib_active);
        FUZZ_CHECK(r->rptr == ((uint32_t)wptr & (r->size_dw - 1)));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzIn in = { data, size };
    uint8_t h[FR_HEAD_SIZE], *ring;
    const uint8_t *rb, *dat;
    size_t ring_len, data_len;
    uint32_t size_dw, map_dw, mask;
    uint64_t wptr;
    HsaGpuPm4Ops ops = {
        .read = fr_read, .write = fr_write,
    };
    HsaGpuPm4Ring r;
    unsigned runs, budget;
    bool valid;

    fuzz_take(&in, h, sizeof(h));
    memset(&fr, 0, sizeof(fr));
    fr.flags = h[FR_H_FLAGS];
    fr.vmid = h[FR_H_VMID] % HSAGPU_VM_NUM_VMIDS;
    fr.qp_answer = h[FR_H_QP] % (HSAGPU_PM4_ERR_IB + 1);
    if (fr.flags & FR_F_REGS) {
        ops.reg_read = fr_reg_read;
        ops.reg_write = fr_reg_write;
    }
    if (fr.flags & FR_F_QUEUE) {
        ops.queue_packet = fr_queue_packet;
    }
    if (fr.flags & FR_F_EOP) {
        ops.eop = fr_eop;
        ops.gpu_clock = fr_clock;
    }

    memset(&r, 0, sizeof(r));
    size_dw = 1u << (h[FR_H_RING] % (FR_RING_LOG2_MAX + 1));
    r.rptr = fuzz_le32(h + FR_H_RPTR) & (size_dw - 1);
    if (fr.flags & FR_F_RAW) {
        /* what a migration stream or a buggy latch could leave */
        size_dw = fuzz_le16(h + FR_H_SIZE);
        r.rptr = fuzz_le32(h + FR_H_RPTR);
    }
    valid = size_dw && !(size_dw & (size_dw - 1)) && r.rptr < size_dw;
    mask = size_dw ? size_dw - 1 : 0;
    r.base = FR_RING;
    r.size_dw = size_dw;
    r.vmid = fr.vmid;
    r.gfx_me = !!(fr.flags & FR_F_GFX_ME);

    /* The ring's dwords from the read pointer on, wrapping */
    map_dw = size_dw ? size_dw : 1;
    ring = fuzz_mem_map(&fm, FR_RING, map_dw * 4, NULL, 0, false);
    rb = fuzz_take_ptr(&in, MIN(fuzz_le16(h + FR_H_RING_LEN),
                                (size_t)map_dw * 4), &ring_len);
    for (size_t i = 0; i < ring_len; i++) {
        ring[(((r.rptr & mask) * 4) + i) % (map_dw * 4)] = rb[i];
    }
    _Static_assert(UINT16_MAX <= FR_DATA_SIZE, "u16 data length");
    dat = fuzz_take_ptr(&in, in.n, &data_len);
    fuzz_mem_map(&fm, FR_DATA, FR_DATA_SIZE, dat, data_len, false);

    wptr = (uint64_t)fuzz_le32(h + FR_H_WPTR_HI) << 32 |
           (uint32_t)(r.rptr + ((fr.flags & FR_F_WPTR) ?
                                fuzz_le32(h + FR_H_WPTR) : ring_len / 4));
    runs = 1 + h[FR_H_RUNS] % 4;
    budget = 1 + h[FR_H_BUDGET];
    for (unsigned i = 0; i < runs; i++) {
        uint64_t packets = r.packets;
        HsaGpuPm4Outcome o = hsagpu_pm4_ring_run(&r, wptr, &ops, budget);

        fr_check(&r, o, wptr, packets, budget, valid);
        /* the driver writes more and moves the write pointer on */
        wptr += fuzz_le16(h + FR_H_GROW);
    }
    fuzz_mem_free(&fm);
    return 0;
}
