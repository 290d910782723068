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
#define g_renew(t, p, n) ((t *)realloc((p), (n) * sizeof(t)))
#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-cp.h"
#include "hw/hsagpu/gcn/hsagpu-gcn.h"

/*
 * Work per slice, in wave instructions (HsaGpuGcnStatus.work: a
 * workgroup's set-up counts too): about 3 ms of compiled code at the
 * interpreter's 6 million instructions a second, about 6 ms of the
 * slowest mix a fuzzer found (per-lane floating point and memory).
 */
#define HSAGPU_GCN_SLICE_INSNS  (1ULL << 14)
/*
 * Instructions one wave may run: 2^40, some 30 hours at today's speed. A
 * wave runs in slices like any long kernel, so an endless loop holds up
 * nothing; it ends by the driver (queue destroy, reset) as on hardware,
 * and only a wave past this fails the queue (TRAP).
 */
#define HSAGPU_GCN_WAVE_INSNS   (1ULL << 40)

/*
 * What a Vega10 holds at once (64 CUs: 40 waves, 256 KiB of VGPRs and
 * 64 KiB of LDS each), the most a cooperative launch can make resident:
 * a GWS dispatch whose waiting workgroups need more can never end here
 * (on the hardware they would never have started) and fails.
 */
#define HSAGPU_GCN_RES_WAVES    (64 * 40)
#define HSAGPU_GCN_RES_VGPR     (64 * 256 * 1024ULL)
#define HSAGPU_GCN_RES_LDS      (64 * 64 * 1024ULL)

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

/*
 * q->gcn waits on GWS (@insns: what it ran this turn): it joins the
 * waiting workgroups and the next one starts, or (all started) a waiting
 * one goes on. 0, or HSAGPU_QERR_TRAP (*@what) when no wait can ever
 * end: all started, a whole round of the waiting ones ran nothing; or
 * the waiting ones are more than the device could hold.
 */
static unsigned hsagpu_gcn_gws_park(HsaGpuQueue *q, uint64_t insns,
                                    uint64_t total, HsaGpuGcnPrivBudget *b,
                                    const char **what)
{
    uint64_t waves = 0, vgpr = 0, lds = 0;

    q->gcn_stalls = insns ? 0 : q->gcn_stalls + 1;
    if (q->gcn_stalls >= q->gcn_nwait + 1 && q->kern_wg >= total) {
        *what = "a GWS wait no resident wave can end";
        return HSAGPU_QERR_TRAP;
    }
    q->gcn_wait = g_renew(HsaGpuGcnRun *, q->gcn_wait, q->gcn_nwait + 1);
    q->gcn_wait[q->gcn_nwait++] = q->gcn;
    for (uint32_t i = 0; i < q->gcn_nwait; i++) {
        HsaGpuGcnFootprint f;

        hsagpu_gcn_run_footprint(q->gcn_wait[i], &f);
        waves += f.waves;
        vgpr += f.vgpr_bytes;
        lds += f.lds_bytes;
    }
    q->gcn = hsagpu_gcn_run_new();
    hsagpu_gcn_run_set_budget(q->gcn, b);
    if (waves > HSAGPU_GCN_RES_WAVES || vgpr > HSAGPU_GCN_RES_VGPR ||
        lds > HSAGPU_GCN_RES_LDS) {
        *what = "a GWS wait for more workgroups than the device holds";
        return HSAGPU_QERR_TRAP;
    }
    if (!q->gcn_from_wait) {
        q->kern_wg++;                   /* started: the next one is due */
    }
    q->gcn_from_wait = false;
    return 0;
}

void hsagpu_queue_gcn_free_waiting(HsaGpuQueue *q)
{
    for (uint32_t i = 0; i < q->gcn_nwait; i++) {
        hsagpu_gcn_run_free(q->gcn_wait[i]);
    }
    g_free(q->gcn_wait);
    q->gcn_wait = NULL;
    q->gcn_nwait = 0;
    q->gcn_from_wait = false;
    q->gcn_stalls = 0;
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
    };
    HsaGpuGcnDispatch d = { 0 };
    HsaGpuGcnStatus st;
    uint64_t nwg[3], total, work = 0, cleared = 0;
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
        hsagpu_gcn_run_stop(q->gcn);    /* nothing of an earlier dispatch */
        hsagpu_queue_gcn_free_waiting(q);
        q->gcn_pc = 0;
    }
    if (!q->gcn) {
        q->gcn = hsagpu_gcn_run_new();
    }
    if (q->num_gws) {
        if (!q->gws) {
            q->gws = g_new0(HsaGpuGcnGws, 1);
        }
        q->gws->num = MIN(q->num_gws, HSAGPU_GCN_GWS_MAX);
        d.gws = q->gws;
    }
    /* new, or migrated in: its private pages count for the device */
    hsagpu_gcn_run_set_budget(q->gcn, p->gcn_priv);
    for (uint32_t i = 0; i < q->gcn_nwait; i++) {
        hsagpu_gcn_run_set_budget(q->gcn_wait[i], p->gcn_priv);
    }
    while (q->kern_wg < total || q->gcn_nwait ||
           hsagpu_gcn_run_active(q->gcn)) {
        uint64_t w = q->kern_wg;
        const uint32_t id[3] = { w % nwg[0], w / nwg[0] % nwg[1],
                                 w / (nwg[0] * nwg[1]) };
        uint32_t was[3];

        if (!hsagpu_gcn_run_active(q->gcn) && q->gcn_nwait &&
            q->kern_wg >= total) {
            /*
             * Every workgroup is resident (started) as a cooperative
             * launch's are: the waiting ones take turns, oldest first
             */
            hsagpu_gcn_run_free(q->gcn);
            q->gcn = q->gcn_wait[0];
            memmove(q->gcn_wait, q->gcn_wait + 1,
                    (q->gcn_nwait - 1) * sizeof(*q->gcn_wait));
            q->gcn_nwait--;
            q->gcn_from_wait = true;
            err = 0;
        } else if (!hsagpu_gcn_run_active(q->gcn)) {
            q->gcn_from_wait = false;
            err = hsagpu_gcn_run_start(q->gcn, &d, id[0], id[1], id[2], &st);
            res->gcn_waves += err ? 0 : st.waves;
            work += st.work;
            cleared += st.cleared;
            res->gcn_cleared_max = MAX(res->gcn_cleared_max, cleared);
            if (!err && work >= HSAGPU_GCN_SLICE_INSNS) {
                return HSAGPU_KERNEL_MORE;  /* set up; its waves run next */
            }
        } else if (!q->gcn_from_wait) {
            /* one carried over (or migrated) must be this workgroup */
            hsagpu_gcn_run_id(q->gcn, was);
            err = q->kern_wg < total && !memcmp(was, id, sizeof(id)) ? 0 :
                  HSAGPU_GCN_BAD_KD;
        } else {
            err = 0;
        }
        if (!err) {
            err = hsagpu_gcn_run_resume(q->gcn, &mem, &d,
                                        HSAGPU_GCN_SLICE_INSNS - work,
                                        HSAGPU_GCN_WAVE_INSNS, &st);
            work += st.work;
            res->gcn_insns += st.insns;
            res->gcn_lane_ops += st.lane_ops;
            res->gcn_vgpr_oor += st.vgpr_oor;
        }
        if (err == HSAGPU_GCN_PAUSED) {
            return HSAGPU_KERNEL_MORE;      /* in the middle of a wave */
        }
        if (err == HSAGPU_GCN_GWS_WAIT) {
            const char *what = NULL;

            err = hsagpu_gcn_gws_park(q, st.insns, total, p->gcn_priv,
                                      &what);
            if (!err) {
                if (work >= HSAGPU_GCN_SLICE_INSNS) {
                    return HSAGPU_KERNEL_MORE;
                }
                continue;
            }
            q->gcn_kernel = k->kernel_object;
            q->gcn_what = what;
            goto out;
        }
        q->gcn_stalls = 0;
        if (err) {
            switch (err) {
            case HSAGPU_GCN_MEM_FAULT:
                err = st.mem_err == HSAGPU_GCN_CONTENDED ? HSAGPU_QERR_ATOMIC :
                      c.err ? c.err : HSAGPU_QERR_ADDRESS;
                /* the log says which instruction of which kernel */
                q->gcn_kernel = k->kernel_object;
                q->gcn_what = st.what;
                q->gcn_pc = st.pc;
                q->gcn_addr = st.addr;
                break;
            case HSAGPU_GCN_UNIMPLEMENTED:
            case HSAGPU_GCN_TRAP:
            case HSAGPU_GCN_RUNAWAY:
                /* The queue's fault registers say where; the log, whose. */
                q->vm_fault_addr = st.pc;
                q->vm_fault_info = st.insn[0];
                q->gcn_kernel = k->kernel_object;
                q->gcn_what = st.what;
                err = err == HSAGPU_GCN_UNIMPLEMENTED ?
                      HSAGPU_QERR_ILLEGAL_INSTRUCTION : HSAGPU_QERR_TRAP;
                break;
            default:
                err = HSAGPU_QERR_KERNEL_OBJECT;
                break;
            }
            goto out;
        }
        if (!q->gcn_from_wait) {
            q->kern_wg++;
        }
        q->gcn_from_wait = false;
        if (work >= HSAGPU_GCN_SLICE_INSNS &&
            (q->kern_wg < total || q->gcn_nwait)) {
            return HSAGPU_KERNEL_MORE;
        }
    }
    err = 0;
out:
    hsagpu_dispatch_end(q);
    hsagpu_gcn_run_stop(q->gcn);
    hsagpu_queue_gcn_free_waiting(q);
    return err;
}

void hsagpu_queue_gcn_free(HsaGpuQueue *q)
{
    hsagpu_queue_gcn_free_waiting(q);
    g_free(q->gws);
    q->gws = NULL;
    hsagpu_gcn_run_free(q->gcn);
    q->gcn = NULL;
    g_free(q->gcn_blob);
    q->gcn_blob = NULL;
    q->gcn_blob_len = 0;
}

/*
 * A GWS dispatch's workgroups in flight as bytes (HSAGPU_GCN_WAIT_MAGIC's
 * format; gcn first when active, each as hsagpu_gcn_run_save() makes
 * it). One workgroup alone: its bytes only.
 */

static void gcn_blob_put(uint8_t **p, const void *v, size_t n)
{
    memcpy(*p, v, n);
    *p += n;
}

void hsagpu_queue_gcn_save(HsaGpuQueue *q)
{
    bool cur = q->kern_active && hsagpu_gcn_run_active(q->gcn);
    uint32_t n = q->gcn_nwait + cur, head[4];
    uint8_t **bufs, *p;
    size_t *lens, len = sizeof(head);

    g_free(q->gcn_blob);
    q->gcn_blob = NULL;
    q->gcn_blob_len = 0;
    if (!q->kern_active || !n) {
        return;
    }
    if (!q->gcn_nwait) {
        q->gcn_blob_len = hsagpu_gcn_run_save(q->gcn, &q->gcn_blob);
        return;
    }
    bufs = g_new0(uint8_t *, n);
    lens = g_new0(size_t, n);
    for (uint32_t i = 0; i < n; i++) {
        const HsaGpuGcnRun *r = cur && !i ? q->gcn : q->gcn_wait[i - cur];

        lens[i] = hsagpu_gcn_run_save(r, &bufs[i]);
        len += 4 + lens[i];
    }
    head[0] = HSAGPU_GCN_WAIT_MAGIC;
    head[1] = q->gcn_from_wait | cur << 1;
    head[2] = q->gcn_stalls;
    head[3] = q->gcn_nwait;
    q->gcn_blob = p = g_malloc(len);
    q->gcn_blob_len = len;
    gcn_blob_put(&p, head, sizeof(head));
    for (uint32_t i = 0; i < n; i++) {
        uint32_t l = lens[i];

        gcn_blob_put(&p, &l, 4);
        gcn_blob_put(&p, bufs[i], lens[i]);
        g_free(bufs[i]);
    }
    g_free(bufs);
    g_free(lens);
}

/*
 * The HSAGPU_GCN_WAIT_MAGIC form of @p..@end (what _save makes, and
 * nothing else): the workgroup in flight into *@cur, the waiting ones
 * into @q; false, with nothing kept, when the bytes are not that
 */
static bool hsagpu_gcn_load_waiting(HsaGpuQueue *q, const uint8_t *p,
                                    const uint8_t *end, HsaGpuGcnRun **cur)
{
    HsaGpuGcnRun **wait;
    uint32_t head[4], n, got = 0;
    bool ok;

    if (end - p < (ptrdiff_t)sizeof(head)) {
        return false;
    }
    memcpy(head, p, sizeof(head));
    p += sizeof(head);
    if (head[1] > 3 || ((head[1] & 1) && !(head[1] & 2)) || !head[3] ||
        head[3] > HSAGPU_GCN_RES_WAVES) {
        return false;
    }
    n = head[3] + (head[1] >> 1);
    wait = g_new0(HsaGpuGcnRun *, head[3]);
    ok = true;
    for (uint32_t i = 0; ok && i < n; i++) {
        HsaGpuGcnRun *one = NULL;
        uint32_t l = 0;

        ok = end - p >= 4;
        if (ok) {
            memcpy(&l, p, 4);
            p += 4;
            ok = (size_t)(end - p) >= l;
        }
        one = ok ? hsagpu_gcn_run_load(p, l) : NULL;
        ok = one != NULL;
        p += ok ? l : 0;
        if (ok && (head[1] & 2) && !i) {
            *cur = one;
        } else if (ok) {
            wait[got++] = one;
        }
    }
    if (!ok || p != end) {
        hsagpu_gcn_run_free(*cur);
        *cur = NULL;
        for (uint32_t i = 0; i < got; i++) {
            hsagpu_gcn_run_free(wait[i]);
        }
        g_free(wait);
        return false;
    }
    q->gcn_wait = wait;
    q->gcn_nwait = got;
    q->gcn_from_wait = head[1] & 1;
    q->gcn_stalls = head[2];
    return true;
}

bool hsagpu_queue_gcn_load(HsaGpuQueue *q)
{
    const uint8_t *p = q->gcn_blob;
    HsaGpuGcnRun *r = NULL;
    uint32_t magic = 0;
    bool ok = true;

    hsagpu_queue_gcn_free_waiting(q);
    if (p && q->gcn_blob_len >= 4) {
        memcpy(&magic, p, 4);
    }
    if (p && magic == HSAGPU_GCN_WAIT_MAGIC) {
        ok = hsagpu_gcn_load_waiting(q, p, p + q->gcn_blob_len, &r);
    } else if (p) {
        r = hsagpu_gcn_run_load(p, q->gcn_blob_len);
        ok = r != NULL;
    }
    g_free(q->gcn_blob);
    q->gcn_blob = NULL;
    q->gcn_blob_len = 0;
    if (!ok) {
        return false;
    }
    hsagpu_gcn_run_free(q->gcn);
    q->gcn = r;
    return true;
}
