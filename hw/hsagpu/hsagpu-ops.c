/*
 * hsa-gpu: the queue processor's window on the device. The QEMU-free
 * processor (hsagpu-queue.c, hsagpu-kernels.c, hsagpu-dma.c)
 * reaches memory, AtomicOps, time and interrupts only through
 * HsaGpuQueueOps; this file implements them for the processor thread:
 * every address goes through the bus resolver (hsagpu-bus.c) with the
 * pass's request context, AtomicOps through the AtomicOp engine
 * (hsagpu-atomic.c), DMA data through hsagpu-dma.c. What needs the BQL
 * (MSI-X, AtomicOp error reports, ERROR_STATUS, dropping what may be the
 * last reference to a peer) is recorded in the device under qlock during
 * the pass and delivered by the main loop (hsagpu_ops_deliver).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/bitmap.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "hw/pci/msix.h"
#include "hsagpu.h"
#include "trace.h"

static unsigned hsagpu_ops_read(void *opaque, unsigned client, uint64_t addr,
                                void *buf, uint64_t len)
{
    HsaGpuOpsCtx *c = opaque;
    unsigned err;

    c->bus.client = client;
    err = hsagpu_bus_qerr(hsagpu_bus_rw(&c->bus, addr, buf, len, false));
    if (trace_event_get_state_backends(TRACE_HSAGPU_OPS_QUEUE_MEM) &&
        client == HSAGPU_VM_CLIENT_PACKET && len == 8 && !err) {
        uint64_t v = 0;

        memcpy(&v, buf, len);
        trace_hsagpu_ops_queue_mem(client, addr, len, 0, v);
    }
    return err;
}

static unsigned hsagpu_ops_write(void *opaque, unsigned client, uint64_t addr,
                                 const void *buf, uint64_t len)
{
    HsaGpuOpsCtx *c = opaque;

    c->bus.client = client;
    if (trace_event_get_state_backends(TRACE_HSAGPU_OPS_QUEUE_MEM) &&
        len <= 8 && (client == HSAGPU_VM_CLIENT_PACKET ||
                     client == HSAGPU_VM_CLIENT_SIGNAL)) {
        uint64_t v = 0;

        memcpy(&v, buf, len);
        trace_hsagpu_ops_queue_mem(client, addr, len, 1, v);
    }
    return hsagpu_bus_qerr(hsagpu_bus_rw(&c->bus, addr, (void *)buf, len,
                                         true));
}

/*
 * DMA descriptors and kernel buffers: reads that fault injection hits,
 * unless they stay in the device's own VRAM (never on the link).
 */
static unsigned hsagpu_ops_read_data(void *opaque, unsigned client,
                                     uint64_t addr, void *buf, uint64_t len)
{
    HsaGpuOpsCtx *c = opaque;
    HsaGpuState *s = c->bus.s;
    HsaGpuReadFault f = HSAGPU_READ_OK;
    HsaGpuBusRefusal r;
    bool link;

    c->bus.client = client;
    r = hsagpu_bus_rw_link(&c->bus, addr, buf, len, false, &link);
    if (r) {
        return hsagpu_bus_qerr(r);
    }
    if (link) {
        f = hsagpu_fault_read(s, addr);
    }
    if (f == HSAGPU_READ_UR || f == HSAGPU_READ_CA) {
        return HSAGPU_QERR_ADDRESS;
    }
    if (f == HSAGPU_READ_POISON) {
        hsagpu_fault_poison_data(buf, len);
        return HSAGPU_QERR_POISON;
    }
    return 0;
}

static unsigned hsagpu_ops_atomic(void *opaque, unsigned client,
                                  uint64_t addr, uint32_t ctrl, uint64_t a,
                                  uint64_t b, uint64_t *old)
{
    HsaGpuOpsCtx *c = opaque;
    uint64_t src0[2] = { a, 0 }, src1[2] = { b, 0 }, result[2], val = 0;
    unsigned size = hsagpu_atomic_size(ctrl), op = ctrl & HSAGPU_ATOMIC_OP_MASK;
    HsaGpuBusRefusal r;
    uint32_t done;
    unsigned st;

    c->bus.client = client;
    *old = 0;
    if (!(hsagpu_status(c->bus.s) & HSAGPU_STATUS_ATOMIC_REQ_EN)) {
        /*
         * No AtomicOps allowed (the driver found no path for them): do
         * what a device without them does, a read and a posted write,
         * through the same resolver.
         */
        if ((size != 4 && size != 8) || (addr & (size - 1))) {
            return HSAGPU_ATOMIC_ST_UR;
        }
        c->bus.atomic = true;
        r = hsagpu_bus_rw(&c->bus, addr, old, size, false);
        if (!r) {
            val = op == HSAGPU_ATOMIC_OP_FETCHADD ? *old + a :
                  op == HSAGPU_ATOMIC_OP_SWAP ? a : *old == a ? b : *old;
            r = hsagpu_bus_rw(&c->bus, addr, &val, size, true);
        }
        c->bus.atomic = false;
        return r == HSAGPU_BUS_PEER_LIMIT ? HSAGPU_ATOMIC_ST_P2P_LIMIT :
               r == HSAGPU_BUS_VM_FAULT ? HSAGPU_ATOMIC_ST_VM_FAULT :
               r ? HSAGPU_ATOMIC_ST_UR : HSAGPU_ATOMIC_ST_OK;
    }
    st = hsagpu_atomic_try(&c->bus, addr, ctrl, src0, src1, result, 1, &done);
    *old = result[0];
    trace_hsagpu_ops_queue_mem(client, addr, size, 2 + op, a);
    if (st != HSAGPU_ATOMIC_ST_OK && !c->d->atomic_st) {
        c->d->atomic_st = st;
        c->d->atomic_addr = addr;
    }
    return st;
}

static unsigned hsagpu_ops_fetch_add64(void *opaque, unsigned client,
                                       uint64_t addr, uint64_t val,
                                       uint64_t *old)
{
    return hsagpu_ops_atomic(opaque, client, addr,
                             HSAGPU_ATOMIC_OP_FETCHADD | HSAGPU_ATOMIC_SIZE_64,
                             val, 0, old);
}

static uint64_t hsagpu_ops_now(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

/* A queue raises its vector: counted now, sent (merged) by the BH. */
static void hsagpu_ops_irq(void *opaque, unsigned vector)
{
    HsaGpuOpsCtx *c = opaque;

    if (msix_enabled(PCI_DEVICE(c->bus.s))) {
        qatomic_inc(&c->bus.s->regs.pkt_cnt[HSAGPU_PKT_CNT_IRQS]);
    }
    hsagpu_deferred_raise(c->d, vector);
}

static unsigned hsagpu_ops_dma(void *opaque, uint64_t dst, uint64_t src,
                               uint64_t len, const uint32_t *pattern,
                               uint64_t *bad_addr)
{
    HsaGpuOpsCtx *c = opaque;

    c->bus.client = HSAGPU_VM_CLIENT_DMA;
    return hsagpu_dma_xfer(&c->bus, dst, src, len, pattern, bad_addr,
                           &c->peer_written);
}

static void hsagpu_ops_dma_done(void *opaque, unsigned err, uint64_t bad_addr)
{
    HsaGpuOpsCtx *c = opaque;
    HsaGpuState *s = c->bus.s;

    trace_hsagpu_dma_done(err, bad_addr);
    if (c->peer_written) {
        hsagpu_dma_flush_peer(s);
        c->peer_written = false;
    }
    if (err) {
        qatomic_set(&s->regs.dma_bad_addr, bad_addr);
    } else {
        qatomic_inc(&s->regs.dma_packets);
    }
}

static void hsagpu_ops_sdma_packet(void *opaque, uint32_t header,
                                   uint64_t offset)
{
    HsaGpuOpsCtx *c = opaque;

    trace_hsagpu_sdma_packet(c->bus.queue, HSAGPU_SDMA_HDR_OP(header),
                             HSAGPU_SDMA_HDR_SUB_OP(header), offset);
    qatomic_inc(&c->bus.s->regs.sdma_packets);
}

static unsigned hsagpu_ops_map(void *opaque, unsigned slot, unsigned client,
                               uint64_t addr, uint64_t len, bool is_write,
                               void **host, uint64_t *mapped)
{
    HsaGpuOpsCtx *c = opaque;
    HsaGpuBusTarget *t = &c->map[slot];
    unsigned err;

    assert(slot < HSAGPU_MAP_SLOTS);
    c->bus.client = client;
    err = hsagpu_dma_map(&c->bus, addr, len, is_write, t);
    if (!err) {
        c->map_write[slot] = is_write;
        *host = t->host;
        *mapped = t->len;
    }
    return err;
}

static void hsagpu_ops_unmap(void *opaque, unsigned slot, uint64_t done)
{
    HsaGpuOpsCtx *c = opaque;

    assert(slot < HSAGPU_MAP_SLOTS);
    hsagpu_dma_unmap(&c->bus, &c->map[slot], c->map_write[slot], done);
}

static void hsagpu_ops_select(void *opaque, unsigned qi)
{
    HsaGpuOpsCtx *c = opaque;

    hsagpu_bus_ctx_select(&c->bus, qi);
}

static bool hsagpu_ops_link_begin(void *opaque, uint64_t start_ns,
                                  const struct hsagpu_dma_packet *d)
{
    HsaGpuOpsCtx *c = opaque;

    return hsagpu_link_begin(&c->bus, start_ns, d);
}

static uint64_t hsagpu_ops_link_end(void *opaque, uint64_t mark[2])
{
    HsaGpuOpsCtx *c = opaque;

    return hsagpu_link_end(&c->bus, mark);
}

static bool hsagpu_ops_link_when(void *opaque, uint64_t mark[2],
                                 uint64_t *end_ns)
{
    HsaGpuOpsCtx *c = opaque;

    return hsagpu_link_when(&c->bus, mark, end_ns);
}

/* An SDMA IB's accesses, in its own VMID (the queue's comes back) */
static void hsagpu_ops_set_vmid(void *opaque, uint32_t vmid)
{
    HsaGpuOpsCtx *c = opaque;

    c->bus.vmid = vmid;
}

/* The personality's registers and interrupts (qlock held: a pass) */
static uint32_t hsagpu_ops_reg_read(void *opaque, uint32_t reg)
{
    HsaGpuOpsCtx *c = opaque;

    return c->bus.s->pers->reg_read(c->bus.s, reg);
}

static void hsagpu_ops_reg_write(void *opaque, uint32_t reg, uint32_t val)
{
    HsaGpuOpsCtx *c = opaque;

    c->bus.s->pers->reg_write(c->bus.s, reg, val);
}

static void hsagpu_ops_trap(void *opaque, uint32_t int_ctx)
{
    HsaGpuOpsCtx *c = opaque;

    c->bus.s->pers->trap(c->bus.s, c->bus.queue, int_ctx);
}

/*
 * A code object's loads and stores through host views of the memory
 * (hsagpu_bus_view): a copy without a call per access. Reads that an
 * armed inject-dma-* may hit go the usual way, as do all of them under
 * the generic fuzzer, which fills what a device reads.
 */
static void *hsagpu_ops_host(void *opaque, unsigned client, uint64_t addr,
                             bool is_write, uint32_t *len)
{
    HsaGpuOpsCtx *c = opaque;
    HsaGpuFault *f = &c->bus.s->fault;
    uint64_t got = 0;
    void *h;

#ifdef CONFIG_FUZZ
    return NULL;
#endif
    if (!is_write && (qatomic_read(&f->dma_ur) || qatomic_read(&f->dma_ca) ||
                      qatomic_read(&f->dma_poison))) {
        return NULL;
    }
    c->bus.client = client;
    h = hsagpu_bus_view(&c->bus, addr, HSAGPU_GCN_TLB_SPAN -
                        (addr & (HSAGPU_GCN_TLB_SPAN - 1)), is_write, &got);
    *len = got;
    return h;
}

static void hsagpu_ops_host_written(void *opaque, uint64_t addr,
                                    uint32_t len)
{
    HsaGpuOpsCtx *c = opaque;

    hsagpu_bus_view_written(&c->bus, addr, len);
}

/* What every queue of the processor reaches the device through */
#define HSAGPU_QUEUE_OPS_COMMON \
    .read = hsagpu_ops_read, \
    .write = hsagpu_ops_write, \
    .fetch_add64 = hsagpu_ops_fetch_add64, \
    .atomic = hsagpu_ops_atomic, \
    .now_ns = hsagpu_ops_now, \
    .irq = hsagpu_ops_irq, \
    .dma = hsagpu_ops_dma, \
    .dma_done = hsagpu_ops_dma_done, \
    .select = hsagpu_ops_select, \
    .read_data = hsagpu_ops_read_data, \
    .sdma_packet = hsagpu_ops_sdma_packet, \
    .map = hsagpu_ops_map, \
    .unmap = hsagpu_ops_unmap, \
    .link_begin = hsagpu_ops_link_begin, \
    .link_end = hsagpu_ops_link_end, \
    .link_when = hsagpu_ops_link_when, \
    .set_vmid = hsagpu_ops_set_vmid, \
    .host = hsagpu_ops_host, \
    .host_written = hsagpu_ops_host_written

const HsaGpuQueueOps hsagpu_queue_ops = {
    HSAGPU_QUEUE_OPS_COMMON,
};

/*
 * The same, for a personality whose own SDMA rings are a kernel driver's
 * (hsa-gpu-vega10): registers (SRBM_WRITE, register polls) and the
 * personality's trap interrupt
 */
const HsaGpuQueueOps hsagpu_queue_ops_regs = {
    HSAGPU_QUEUE_OPS_COMMON,
    .reg_read = hsagpu_ops_reg_read,
    .reg_write = hsagpu_ops_reg_write,
    .trap = hsagpu_ops_trap,
};

/* A pass starts: the device is the requester until a queue is selected. */
void hsagpu_ops_begin(HsaGpuOpsCtx *c, HsaGpuState *s, HsaGpuDeferred *d)
{
    hsagpu_bus_ctx_init(&c->bus, s, -1);
    hsagpu_bus_map_begin(&c->bus);
    c->d = d;
    c->peer_written = false;
}

void hsagpu_ops_end(HsaGpuOpsCtx *c)
{
    hsagpu_bus_ctx_end(&c->bus);
}

bool hsagpu_deferred_any(const HsaGpuDeferred *d)
{
    return d->any_vector || d->atomic_st || d->unrefs->len;
}

/*
 * In the main loop with the BQL, outside qlock: what a pass left in @d
 * (taken from HsaGpuState.pending by hsagpu-queue.c). The processor
 * itself never waits for the BQL.
 */
void hsagpu_ops_deliver(HsaGpuState *s, HsaGpuDeferred *d)
{
    unsigned nvec = s->ident.msix_vectors;
    uint32_t gen = s->gen;

    assert(bql_locked());
    trace_hsagpu_queue_deliver(d->any_vector, d->atomic_st, d->unrefs->len);
    if (d->any_vector) {
        unsigned long v;

        for (v = find_first_bit(d->vectors, nvec); v < nvec;
             v = find_next_bit(d->vectors, nvec, v + 1)) {
            /* One message: a burst is bounded by the vectors. */
            clear_bit(v, d->vectors);
            hsagpu_irq_msix(s, v);
            if (s->gen != gen) {
                goto changed;
            }
        }
        bitmap_zero(d->vectors, nvec);
        d->any_vector = false;
    }
    if (d->atomic_st) {
        unsigned st = d->atomic_st;

        d->atomic_st = 0;
        hsagpu_atomic_report(s, st, d->atomic_addr,
                             HSAGPU_ATOMIC_OP_FETCHADD | HSAGPU_ATOMIC_SIZE_64);
        if (s->gen != gen) {
            goto changed;
        }
    }
    hsagpu_queue_flush_errors(s);
    goto unref;

changed:
    /*
     * A message reset or unplugged the device: the rest belongs to the
     * device before that (the arrays live until finalize, so @d is
     * still there). References are dropped all the same.
     */
    trace_hsagpu_queue_deliver_stopped(gen, s->gen);
    bitmap_zero(d->vectors, nvec);
    d->any_vector = false;
    d->atomic_st = 0;
unref:
    for (unsigned i = 0; i < d->unrefs->len; i++) {
        object_unref(g_ptr_array_index(d->unrefs, i));
    }
    g_ptr_array_set_size(d->unrefs, 0);
}
