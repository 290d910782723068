/*
 * hsa-gpu: kernel dispatches of code objects. A KERNEL_DISPATCH packet
 * whose kernel_object is not a built-in kernel but the address of an
 * AMDHSA kernel descriptor runs on the GCN interpreter
 * (hsagpu-gcn-*.c) in slices of about HSAGPU_GCN_SLICE_INSNS wave
 * instructions with the queue's kernel cursor like the built-in kernels:
 * a slice may end in the middle of a workgroup (its waves stop between
 * two instructions and go on next slice), so a long kernel never holds
 * up other queues, commands, reset or migration, and a part-done kernel
 * migrates with its workgroup in flight.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#define g_free free
#define g_malloc malloc
#define g_new0(t, n) ((t *)calloc((n), sizeof(t)))
#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif
#ifndef MAX
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-cp.h"
#include "hw/hsagpu/gcn/hsagpu-gcn.h"

/*
 * Work per slice, in wave instructions (HsaGpuGcnStatus.work: a
 * workgroup's set-up counts too): 0.3-1 ms of compiled code at the
 * interpreter's 18-50 million instructions a second (docs/benchmarks.md);
 * the slowest mix a fuzzer found (per-lane floating point and memory)
 * took twice as long as compiled code when last measured.
 */
#define HSAGPU_GCN_SLICE_INSNS  (1ULL << 14)
/*
 * Instructions one wave may run: 2^40, some 30 hours at today's speed. A
 * wave runs in slices like any long kernel, so an endless loop holds up
 * nothing; it ends by the driver (queue destroy, reset) as on hardware,
 * and only a wave past this fails the queue (TRAP).
 */
#define HSAGPU_GCN_WAVE_INSNS   (1ULL << 40)

typedef struct HsaGpuGcnCtx {
    const HsaGpuProc *p;
    unsigned err;               /* the queue error of a failed access */
    HsaGpuQueue *q;
} HsaGpuGcnCtx;

/* s_memtime, s_memrealtime: the device clock (TIMESTAMP, signals') */
static uint64_t hsagpu_gcn_now(void *opaque)
{
    HsaGpuGcnCtx *c = opaque;

    return c->p->ops->now_ns(c->p->opaque);
}

/*
 * s_sendmsg(MSG_INTERRUPT): the queue's interrupt, as for a signal whose
 * event mailbox the device wrote (the code wrote it itself: ROCm's
 * signals from the GPU, hostcall)
 */
static void hsagpu_gcn_irq(void *opaque, uint32_t m0)
{
    HsaGpuGcnCtx *c = opaque;

    c->p->ops->irq(c->p->opaque, c->q->vector);
}

static unsigned hsagpu_gcn_rd(void *opaque, uint64_t addr, void *buf,
                              uint32_t len)
{
    HsaGpuGcnCtx *c = opaque;

    c->err = hsagpu_read_data(c->p, HSAGPU_VM_CLIENT_KERNEL, addr, buf, len);
    return c->err;
}

static unsigned hsagpu_gcn_wr(void *opaque, uint64_t addr, const void *buf,
                              uint32_t len)
{
    HsaGpuGcnCtx *c = opaque;

    c->err = c->p->ops->write(c->p->opaque, HSAGPU_VM_CLIENT_KERNEL, addr, buf,
                              len);
    return c->err;
}

/* Loads and stores through the pass's mappings (HsaGpuQueueOps.host) */
static void *hsagpu_gcn_host(void *opaque, uint64_t addr, bool write,
                             uint32_t *len)
{
    HsaGpuGcnCtx *c = opaque;

    return c->p->ops->host(c->p->opaque, HSAGPU_VM_CLIENT_KERNEL, addr, write,
                           len);
}

static void hsagpu_gcn_written(void *opaque, uint64_t addr, uint32_t len)
{
    HsaGpuGcnCtx *c = opaque;

    c->p->ops->host_written(c->p->opaque, addr, len);
}

/* A code object's atomics are the device's AtomicOps (hsagpu-atomic.c). */
static unsigned hsagpu_gcn_at(void *opaque, uint64_t addr, unsigned bytes,
                              unsigned op, uint64_t src0, uint64_t src1,
                              uint64_t *old)
{
    static const uint32_t ops[] = {
        [HSAGPU_GCN_ATOMIC_ADD] = HSAGPU_ATOMIC_OP_FETCHADD,
        [HSAGPU_GCN_ATOMIC_SWAP] = HSAGPU_ATOMIC_OP_SWAP,
        [HSAGPU_GCN_ATOMIC_CAS] = HSAGPU_ATOMIC_OP_CAS,
    };
    HsaGpuGcnCtx *c = opaque;

    c->err = hsagpu_atomic_qerr(c->p->ops->atomic(c->p->opaque,
                                HSAGPU_VM_CLIENT_KERNEL, addr,
                                ops[op] | (bytes == 8 ? HSAGPU_ATOMIC_SIZE_64
                                                      : HSAGPU_ATOMIC_SIZE_32),
                                src0, src1, old));
    return c->err;
}

bool hsagpu_gcn_object(const HsaGpuProc *p,
                       const struct hsagpu_kernel_dispatch_packet *k,
                       HsaGpuGcnKd *kd)
{
    uint8_t raw[HSAGPU_GCN_KD_SIZE];

    /* A descriptor is 64-byte aligned (the AMDHSA code object rule). */
    return !(k->kernel_object & 63) &&
           !hsagpu_read_data(p, HSAGPU_VM_CLIENT_KERNEL, k->kernel_object, raw,
                             sizeof(raw)) &&
           !hsagpu_gcn_kd_parse(raw, kd);
}

unsigned hsagpu_gcn_exec(HsaGpuQueue *q,
                         const struct hsagpu_kernel_dispatch_packet *k,
                         const HsaGpuProc *p, HsaGpuRunResult *res)
{
    HsaGpuGcnCtx c = { p, 0, q };
    const HsaGpuGcnMem mem = {
        hsagpu_gcn_rd, hsagpu_gcn_wr, p->ops->atomic ? hsagpu_gcn_at : NULL,
        &c, p->ops->now_ns ? hsagpu_gcn_now : NULL,
        p->ops->irq ? hsagpu_gcn_irq : NULL,
        p->ops->host ? hsagpu_gcn_host : NULL,
        p->ops->host ? hsagpu_gcn_written : NULL,
    };
    HsaGpuGcnDispatch d = { 0 };
    HsaGpuGcnGridStats acc = { 0 };
    HsaGpuGcnStatus st = { 0 };
    uint64_t nwg[3], total;
    unsigned err;

    /* Checked again every slice, as the built-in kernels do. */
    err = hsagpu_kernel_check_geometry(k);
    if (err) {
        goto out;
    }
    if (!hsagpu_gcn_object(p, k, &d.kd)) {
        err = HSAGPU_QERR_KERNEL_OBJECT;
        goto out;
    }
    if (k->kernarg_address & (HSAGPU_KERNARG_ALIGN - 1)) {
        err = HSAGPU_QERR_ALIGNMENT;
        goto out;
    }
    d.code = k->kernel_object + d.kd.entry_offset;
    d.dispatch_ptr = q->ring_base + (q->read_index & (q->ring_size - 1)) *
                     HSAGPU_AQL_PACKET_SIZE;
    d.kernarg = k->kernarg_address;
    d.dispatch_id = q->read_index;
    d.grid[0] = k->grid_size_x;
    d.grid[1] = k->grid_size_y;
    d.grid[2] = k->grid_size_z;
    d.wg[0] = k->workgroup_size_x;
    d.wg[1] = k->workgroup_size_y;
    d.wg[2] = k->workgroup_size_z;
    /* LDS and scratch as the hardware allocates them: from the packet */
    d.group_segment_size = k->group_segment_size;
    d.private_segment_size = k->private_segment_size;
    total = hsagpu_kernel_workgroups(k, nwg);
    if (hsagpu_dispatch_begin(q, p)) {
        hsagpu_gcn_grid_stop(&q->grid); /* nothing of an earlier dispatch */
        q->gcn_pc = 0;
    }
    if (q->num_gws) {
        if (!q->gws) {
            q->gws = g_new0(HsaGpuGcnGws, 1);
        }
        q->gws->num = MIN(q->num_gws, HSAGPU_GCN_GWS_MAX);
        d.gws = q->gws;
    }
    hsagpu_gcn_grid_set_budget(&q->grid, p->gcn_priv);
    q->grid.pool = p->gcn_pool;
    err = hsagpu_gcn_grid_run(&q->grid, &q->kern_wg, nwg, total, &mem, &d,
                              p->gcn_priv, HSAGPU_GCN_SLICE_INSNS,
                              HSAGPU_GCN_WAVE_INSNS, &st, &acc);
    res->gcn_waves += acc.waves;
    res->gcn_insns += acc.insns;
    res->gcn_lane_ops += acc.lane_ops;
    res->gcn_vgpr_oor += acc.vgpr_oor;
    res->gcn_cleared_max = MAX(res->gcn_cleared_max, acc.cleared);
    if (err == HSAGPU_GCN_PAUSED) {
        return HSAGPU_KERNEL_MORE;
    }
    if (err) {
        /* the log says which instruction of which kernel */
        q->gcn_kernel = k->kernel_object;
        q->gcn_what = st.what;
    }
    switch (err) {
    case 0:
        break;
    case HSAGPU_GCN_MEM_FAULT:
        /* the failing access's own error: other threads share c */
        err = st.mem_err == HSAGPU_GCN_CONTENDED ? HSAGPU_QERR_ATOMIC :
              st.mem_err ? st.mem_err : c.err ? c.err : HSAGPU_QERR_ADDRESS;
        q->gcn_pc = st.pc;
        q->gcn_addr = st.addr;
        break;
    case HSAGPU_GCN_GWS_STUCK:
        err = HSAGPU_QERR_TRAP;
        break;
    case HSAGPU_GCN_UNIMPLEMENTED:
    case HSAGPU_GCN_TRAP:
    case HSAGPU_GCN_RUNAWAY:
        /* The queue's fault registers say where; the log, whose. */
        q->vm_fault_addr = st.pc;
        q->vm_fault_info = st.insn[0];
        err = err == HSAGPU_GCN_UNIMPLEMENTED ?
              HSAGPU_QERR_ILLEGAL_INSTRUCTION : HSAGPU_QERR_TRAP;
        break;
    default:
        err = HSAGPU_QERR_KERNEL_OBJECT;
        break;
    }
out:
    hsagpu_dispatch_end(q);
    hsagpu_gcn_grid_stop(&q->grid);
    return err;
}

void hsagpu_queue_gcn_free(HsaGpuQueue *q)
{
    hsagpu_gcn_grid_free(&q->grid);
    g_free(q->gws);
    q->gws = NULL;
    g_free(q->gcn_blob);
    q->gcn_blob = NULL;
    q->gcn_blob_len = 0;
}

void hsagpu_queue_gcn_save(HsaGpuQueue *q)
{
    g_free(q->gcn_blob);
    q->gcn_blob = NULL;
    q->gcn_blob_len = 0;
    if (q->kern_active) {
        q->gcn_blob_len = hsagpu_gcn_grid_save(&q->grid, &q->gcn_blob);
    }
}

bool hsagpu_queue_gcn_load(HsaGpuQueue *q)
{
    bool ok = hsagpu_gcn_grid_load(&q->grid, q->gcn_blob, q->gcn_blob_len);

    g_free(q->gcn_blob);
    q->gcn_blob = NULL;
    q->gcn_blob_len = 0;
    return ok;
}
