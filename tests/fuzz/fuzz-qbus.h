/*
 * hsagpu host fuzzers: the bus the queue processor (hsagpu-queue.c
 * and what it calls: PM4, SDMA, DMA, built-in and code-object kernels)
 * reaches memory, AtomicOps, time and interrupts through
 * (HsaGpuQueueOps), over the sparse memory of fuzz-mem.h. Unmapped
 * addresses fail as the device's bus fails them (HSAGPU_QERR_ADDRESS,
 * Unsupported Request); the optional operations (read_data with a
 * poisoned page, map/unmap, any-size AtomicOps) are there or not as the
 * input says. What the processor must never do (an interrupt vector it
 * was not given, a map slot misused) fails the run.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HSAGPU_FUZZ_QBUS_H
#define HSAGPU_FUZZ_QBUS_H

#include "hw/hsagpu/cp/hsagpu-cp.h"
#include "fuzz-mem.h"

typedef struct FuzzBus {
    FuzzMem *m;
    uint64_t now, step;         /* the clock moves @step per reading */
    uint64_t poison;            /* read_data: a page that reads poisoned */
    unsigned vectors;           /* MSI-X vectors the device has */
    unsigned irqs, dma_dones, sdma_pkts, maps_open;
    struct {
        uint64_t len;
        bool write, open;
    } slot[HSAGPU_MAP_SLOTS];
} FuzzBus;

static unsigned fqb_read(void *o, unsigned client, uint64_t addr, void *buf,
                         uint64_t len)
{
    FuzzBus *b = o;

    return fuzz_mem_read(b->m, addr, buf, len) ? HSAGPU_QERR_ADDRESS : 0;
}

static unsigned fqb_write(void *o, unsigned client, uint64_t addr,
                          const void *buf, uint64_t len)
{
    FuzzBus *b = o;

    return fuzz_mem_write(b->m, addr, buf, len) ? HSAGPU_QERR_ADDRESS : 0;
}

static unsigned fqb_add(void *o, unsigned client, uint64_t addr, uint64_t val,
                        uint64_t *old)
{
    FuzzBus *b = o;
    uint8_t *p;

    if (addr & 7) {
        return HSAGPU_ATOMIC_ST_MALFORMED;
    }
    p = fuzz_mem_at(b->m, addr, 8, true);
    if (!p) {
        return HSAGPU_ATOMIC_ST_UR;
    }
    *old = __atomic_fetch_add((uint64_t *)p, val, __ATOMIC_SEQ_CST);
    return HSAGPU_ATOMIC_ST_OK;
}

static uint64_t fqb_now(void *o)
{
    FuzzBus *b = o;

    b->now += b->step;
    return b->now;
}

static void fqb_irq(void *o, unsigned vector)
{
    FuzzBus *b = o;

    FUZZ_CHECK(vector < b->vectors);
    b->irqs++;
}

static unsigned fqb_dma(void *o, uint64_t dst, uint64_t src, uint64_t len,
                        const uint32_t *pattern, uint64_t *bad)
{
    FuzzBus *b = o;
    uint8_t *d, *s = NULL;

    d = fuzz_mem_at(b->m, dst, len, true);
    if (!d) {
        *bad = dst;
        return HSAGPU_QERR_ADDRESS;
    }
    if (!pattern) {
        s = fuzz_mem_at(b->m, src, len, false);
        if (!s) {
            *bad = src;
            return HSAGPU_QERR_ADDRESS;
        }
    }
    if (pattern) {
        hsagpu_dma_fill_host(d, len, *pattern, 0);
    } else {
        memmove(d, s, len);
    }
    return 0;
}

static void fqb_dma_done(void *o, unsigned err, uint64_t bad)
{
    FuzzBus *b = o;

    b->dma_dones++;
}

static void fqb_select(void *o, unsigned qi)
{
}

/* Data reads: the page at b->poison reads as poisoned (bad ECC) */
static unsigned fqb_read_data(void *o, unsigned client, uint64_t addr,
                              void *buf, uint64_t len)
{
    FuzzBus *b = o;
    unsigned err = fqb_read(o, client, addr, buf, len);

    if (!err && addr < b->poison + 4096 && addr + len > b->poison) {
        return HSAGPU_QERR_POISON;
    }
    return err;
}

static void fqb_sdma_packet(void *o, uint32_t header, uint64_t offset)
{
    FuzzBus *b = o;

    b->sdma_pkts++;
}

/* Direct access for the streaming kernels: up to the region's end */
static unsigned fqb_map(void *o, unsigned slot, unsigned client,
                        uint64_t addr, uint64_t len, bool is_write,
                        void **host, uint64_t *mapped)
{
    FuzzBus *b = o;
    uint8_t *p;
    uint64_t n;

    FUZZ_CHECK(slot < HSAGPU_MAP_SLOTS && !b->slot[slot].open && len);
    p = fuzz_mem_at(b->m, addr, 1, is_write);
    if (!p) {
        return HSAGPU_QERR_ADDRESS;
    }
    n = MIN(len, fuzz_mem_span(b->m, addr, is_write));
    FUZZ_CHECK(n >= 1);
    b->slot[slot].len = n;
    b->slot[slot].write = is_write;
    b->slot[slot].open = true;
    b->maps_open++;
    *host = p;
    *mapped = n;
    return 0;
}

static void fqb_unmap(void *o, unsigned slot, uint64_t done)
{
    FuzzBus *b = o;

    FUZZ_CHECK(slot < HSAGPU_MAP_SLOTS && b->slot[slot].open &&
               done <= b->slot[slot].len);
    b->slot[slot].open = false;
    b->maps_open--;
}

/* Any 32- or 64-bit AtomicOp, with the PCIe rules (natural alignment) */
static unsigned fqb_atomic(void *o, unsigned client, uint64_t addr,
                           uint32_t ctrl, uint64_t src0, uint64_t src1,
                           uint64_t *old)
{
    FuzzBus *b = o;
    const uint64_t s0[2] = { src0, 0 }, s1[2] = { src1, 0 };
    uint64_t res[2];
    unsigned size = hsagpu_atomic_size(ctrl);
    uint8_t *p;

    FUZZ_CHECK(size == 4 || size == 8);
    if (hsagpu_atomic_check(addr, ctrl)) {
        return HSAGPU_ATOMIC_ST_MALFORMED;
    }
    p = fuzz_mem_at(b->m, addr, size, true);
    if (!p) {
        return HSAGPU_ATOMIC_ST_UR;
    }
    hsagpu_atomic_exec(p, ctrl, s0, s1, res);
    *old = res[0];
    return HSAGPU_ATOMIC_ST_OK;
}

/* The operations, with the optional ones the input asks for */
static void fqb_ops(HsaGpuQueueOps *ops, bool read_data, bool map,
                    bool atomic)
{
    memset(ops, 0, sizeof(*ops));
    ops->read = fqb_read;
    ops->write = fqb_write;
    ops->fetch_add64 = fqb_add;
    ops->now_ns = fqb_now;
    ops->irq = fqb_irq;
    ops->dma = fqb_dma;
    ops->dma_done = fqb_dma_done;
    ops->select = fqb_select;
    ops->read_data = read_data ? fqb_read_data : NULL;
    ops->sdma_packet = fqb_sdma_packet;
    ops->map = map ? fqb_map : NULL;
    ops->unmap = map ? fqb_unmap : NULL;
    ops->atomic = atomic ? fqb_atomic : NULL;
}

static const HsaGpuIdent fqb_ident = {
    .vendor_id = HSAGPU_PCI_VENDOR_ID, .device_id = HSAGPU_PCI_DEVICE_ID,
    .vram_size = 1 << 20, .num_queues = 4, .msix_vectors = 5,
    .p2p_addr_bits = 44,
};

/*
 * A migration between two passes, as the device does it: the queue
 * must pass the checks a loaded one must pass, and its workgroup in
 * flight (a code object's) must save and load.
 */
static void fqb_migrate(HsaGpuQueue *q)
{
    if (q->state == HSAGPU_QSTATE_DISABLED) {
        return;
    }
    hsagpu_queue_gcn_save(q);
    FUZZ_CHECK(hsagpu_queue_loaded_ok(q, &fqb_ident, q, 1));
    FUZZ_CHECK(hsagpu_queue_gcn_load(q));
}

/* Nothing left open once a pass is over */
static void fqb_pass_end(FuzzBus *b)
{
    FUZZ_CHECK(!b->maps_open);
}

/* The only queue is queue 0 */
static void fqb_failed(void *opaque, unsigned qi)
{
    FUZZ_CHECK(qi == 0);
}

/*
 * One turn of the harness's only queue @q: a scheduling pass under the
 * device's pass budget (@pass) or a plain hsagpu_queue_run, the checks
 * of a pass's end, then a migration if @migrate.
 */
static inline void fqb_turn(FuzzBus *b, HsaGpuQueue *q, HsaGpuProc *proc,
                            unsigned quantum, unsigned *rr, bool pass,
                            bool migrate)
{
    static const uint16_t active[1] = { 0 };

    if (pass) {
        HsaGpuBudget budget = {
            .slices = HSAGPU_PASS_SLICES, .packets = HSAGPU_PASS_PACKETS,
        };
        HsaGpuPassResult res;

        proc->budget = &budget;
        hsagpu_sched_pass(q, active, 1, rr, proc, quantum, true, fqb_failed,
                          NULL, &res);
        proc->budget = NULL;
    } else {
        HsaGpuRunResult res;

        hsagpu_queue_run(q, proc, quantum, &res);
        FUZZ_CHECK(!res.error || q->state == HSAGPU_QSTATE_ERROR);
    }
    fqb_pass_end(b);
    if (migrate) {
        fqb_migrate(q);
    }
}

#endif
