/*
 * hsa-gpu: kernel dispatches of code objects. A KERNEL_DISPATCH packet
 * whose kernel_object is not a built-in kernel but the address of an
 * AMDHSA kernel descriptor runs on the GCN interpreter
 * (hsagpu-gcn-core.c), whole workgroups at a time, in slices with the
 * queue's kernel cursor like the built-in kernels: a long kernel never
 * holds up other queues, commands, reset or migration, and a part-done
 * kernel migrates (its next workgroup is all there is to keep).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stddef.h>
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-queue-core.h"
#include "hsagpu-gcn-core.h"

/* Wave instructions per slice (about a millisecond interpreted) */
#define HSAGPU_GCN_SLICE_INSNS  (1ULL << 16)
/* Instructions one wave may run: an endless loop fails the queue. */
#define HSAGPU_GCN_WAVE_INSNS   (1ULL << 24)

typedef struct HsaGpuGcnCtx {
    const HsaGpuProc *p;
    unsigned err;               /* the queue error of a failed access */
} HsaGpuGcnCtx;

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
                         const HsaGpuProc *p)
{
    HsaGpuGcnCtx c = { p, 0 };
    const HsaGpuGcnMem mem = { hsagpu_gcn_rd, hsagpu_gcn_wr, &c };
    HsaGpuGcnDispatch d = { 0 };
    HsaGpuGcnStatus st;
    uint64_t nwg[3], total, insns = 0;
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
    total = hsagpu_kernel_workgroups(k, nwg);
    if (!q->kern_active) {
        q->kern_active = 1;
        q->kern_wg = 0;
        q->kern_start_ns = p->ops->now_ns(p->opaque);
    }
    while (q->kern_wg < total) {
        uint64_t w = q->kern_wg;

        if (hsagpu_gcn_run_group(&mem, &d, w % nwg[0], w / nwg[0] % nwg[1],
                                 w / (nwg[0] * nwg[1]), HSAGPU_GCN_WAVE_INSNS,
                                 &st)) {
            switch (st.code) {
            case HSAGPU_GCN_MEM_FAULT:
                err = c.err ? c.err : HSAGPU_QERR_ADDRESS;
                break;
            case HSAGPU_GCN_UNIMPLEMENTED:
            case HSAGPU_GCN_TRAP:
            case HSAGPU_GCN_RUNAWAY:
                /* The queue's fault registers say where. */
                q->vm_fault_addr = st.pc;
                q->vm_fault_info = st.insn[0];
                err = st.code == HSAGPU_GCN_UNIMPLEMENTED ?
                      HSAGPU_QERR_ILLEGAL_INSTRUCTION : HSAGPU_QERR_TRAP;
                break;
            default:
                err = HSAGPU_QERR_KERNEL_OBJECT;
                break;
            }
            goto out;
        }
        q->kern_wg++;
        insns += st.insns;
        if (insns >= HSAGPU_GCN_SLICE_INSNS && q->kern_wg < total) {
            return HSAGPU_KERNEL_MORE;
        }
    }
    err = 0;
out:
    q->kern_active = 0;
    return err;
}
