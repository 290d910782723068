/*
 * libFuzzer harness: the AQL queue processor (hsagpu-queue.c) fed
 * packets a guest writes, PM4_IB vendor packets first among them: the
 * PM4 indirect-buffer decoder and command checks (hsagpu-pm4.c),
 * and whatever else the same ring carries (barrier-value, barriers,
 * agent packets, DMA packets and their descriptor lists, built-in
 * kernels, code objects through hsagpu_gcn_object/hsagpu_gcn_exec).
 * These are the parsers of guest memory the device runs outside the
 * BQL; the fuzzer writes the ring, the queue descriptor and a data
 * region (fuzz-input.h), and runs the queue for a few calls or
 * scheduling passes with a bounded quantum, optionally migrating it in
 * between. Besides ASan and UBSan: a live queue passes the checks a
 * migrated one must pass, interrupts go to the queue's vector, mapped
 * buffers are released, the device's private budget is given back.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/cp/hsagpu-cp.h"
#include "hw/hsagpu/gcn/hsagpu-gcn.h"
#include "fuzz-mem.h"
#include "fuzz-qbus.h"
#include "fuzz-input.h"

static FuzzMem fm;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzIn in = { data, size };
    uint8_t h[FQ_HEAD_SIZE], *ring, *desc;
    const uint8_t *pk, *dat;
    size_t pk_len, data_len;
    uint32_t ring_size, npkts, props;
    uint64_t wptr;
    FuzzBus bus = { .m = &fm, .now = 1000, .vectors = fqb_ident.msix_vectors };
    HsaGpuQueueOps ops;
    /* a small device budget: code objects' private pages reach it */
    HsaGpuGcnPrivBudget gpriv = { .limit = 1u << 20 };
    HsaGpuProc proc = { &ops, &bus, &fqb_ident, NULL, &gpriv };
    HsaGpuQueue q;
    unsigned runs, quantum, rr = 0;
    uint8_t flags;

    fuzz_take(&in, h, sizeof(h));
    flags = h[FQ_H_FLAGS];
    ring_size = HSAGPU_QUEUE_RING_MIN << (h[FQ_H_RING] % 5);
    npkts = MIN(h[FQ_H_NPKTS], ring_size);
    pk = fuzz_take_ptr(&in, (size_t)npkts * HSAGPU_AQL_PACKET_SIZE, &pk_len);
    npkts = (pk_len + HSAGPU_AQL_PACKET_SIZE - 1) / HSAGPU_AQL_PACKET_SIZE;
    _Static_assert(UINT16_MAX <= FQ_DATA_SIZE, "u16 data length");
    dat = fuzz_take_ptr(&in, fuzz_le16(h + FQ_H_DATA_LEN), &data_len);
    bus.step = 8 * (uint64_t)h[FQ_H_CLOCK];
    bus.poison = FQ_DATA + FQ_DATA_SIZE - 4096;
    fqb_ops(&ops, flags & FQ_F_READ_DATA, flags & FQ_F_MAP,
            flags & FQ_F_ATOMIC);

    /* The ring: free slots INVALID, then the packets from slot 0 on */
    ring = fuzz_mem_map(&fm, FQ_RING, ring_size * HSAGPU_AQL_PACKET_SIZE,
                        NULL, 0, false);
    for (uint32_t i = 0; i < ring_size; i++) {
        ring[i * HSAGPU_AQL_PACKET_SIZE] = HSAGPU_PKT_TYPE_INVALID;
    }
    FUZZ_CHECK(pk_len <= (size_t)ring_size * HSAGPU_AQL_PACKET_SIZE);
    if (pk_len) {
        memcpy(ring, pk, pk_len);
    }
    /* amd_queue_t: properties, the inactive signal, the indices */
    desc = fuzz_mem_map(&fm, FQ_DESC, FQ_DESC_SIZE, NULL, 0, false);
    props = fuzz_le32(h + FQ_H_PROPS);
    memcpy(desc + HSAGPU_AMD_QUEUE_PROPERTIES, &props, sizeof(props));
    {
        uint64_t inactive = FQ_DATA + 0x40;

        memcpy(desc + HSAGPU_AMD_QUEUE_INACTIVE_SIGNAL, &inactive,
               sizeof(inactive));
    }
    wptr = npkts + ((flags & FQ_F_WPTR) ? fuzz_le32(h + FQ_H_WPTR) : 0);
    memcpy(desc + HSAGPU_QUEUE_DESC_WPTR, &wptr, sizeof(wptr));
    fuzz_mem_map(&fm, FQ_DATA, FQ_DATA_SIZE, dat, data_len, false);

    /* Registered as the driver does, checked as ENABLE checks it */
    memset(&q, 0, sizeof(q));
    q.ring_lo = (uint32_t)FQ_RING;
    q.ring_hi = (uint32_t)(FQ_RING >> 32);
    q.ring_size = ring_size;
    q.rptr_lo = (uint32_t)(FQ_DESC + HSAGPU_QUEUE_DESC_RPTR);
    q.wptr_lo = (uint32_t)(FQ_DESC + HSAGPU_QUEUE_DESC_WPTR);
    q.vector = 1;
    q.flags = ((flags & FQ_F_AMD) ? HSAGPU_QF_AMD_QUEUE : 0) |
              ((flags & FQ_F_PROFILE) ? HSAGPU_QF_PROFILE : 0);
    FUZZ_CHECK(hsagpu_queue_check(&q, &fqb_ident, &q, 1) == HSAGPU_QRES_OK);
    hsagpu_queue_start(&q, 0);

    runs = 1 + h[FQ_H_RUNS] % 4;
    quantum = 1 + h[FQ_H_QUANTUM] % 16;
    for (unsigned i = 0; i < runs; i++) {
        fqb_turn(&bus, &q, &proc, quantum, &rr, flags & FQ_F_BUDGET,
                 (flags & FQ_F_MIGRATE) && i + 1 < runs);
        bus.now += 100000;      /* busy kernels end, polls see time pass */
    }
    hsagpu_queue_clear(&q);
    /* every private page given back, migrated workgroups' too */
    FUZZ_CHECK(gpriv.used == 0);
    fuzz_mem_free(&fm);
    return 0;
}
