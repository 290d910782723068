/*
 * hsa-gpu, Vega10 personality: DISPATCH_DIRECT on the CP's PM4 rings, as
 * gfx9's MEC runs it for a PM4 compute queue (amdkfd's non-AQL user
 * queues, which AMD's kfdtest dispatches every shader through). The
 * program is the ring's compute state, which its SET_SH_REG packets
 * wrote (COMPUTE_PGM_*, COMPUTE_USER_DATA_*, COMPUTE_NUM_THREAD_*; kept
 * per ring as gfx9 keeps it per queue, in the MQD), the grid is the
 * packet's, and the GCN interpreter runs its workgroups one after the
 * other, a slice of instructions per call, so a long shader holds up no
 * other ring. Independent of QEMU.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <string.h>
#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif
#else
#include "qemu/osdep.h"
#endif
#include "vega10.h"
#include "hw/hsagpu/gcn/hsagpu-gcn.h"

/* Wave instructions a call runs, as for an AQL dispatch's slice */
#define V10_DISPATCH_SLICE      (1ULL << 14)
/* A wave that runs past this is a runaway (as HSAGPU_GCN_WAVE_INSNS) */
#define V10_DISPATCH_WAVE_INSNS (1ULL << 40)

typedef struct V10DispatchCtx {
    const HsaGpuV10CpOps *ops;
    uint32_t vmid;
} V10DispatchCtx;

static unsigned v10_disp_read(void *opaque, uint64_t addr, void *buf,
                              uint32_t len)
{
    V10DispatchCtx *c = opaque;

    return c->ops->read(c->ops->opaque, c->vmid, addr, buf, len);
}

static unsigned v10_disp_write(void *opaque, uint64_t addr, const void *buf,
                               uint32_t len)
{
    V10DispatchCtx *c = opaque;

    return c->ops->write(c->ops->opaque, c->vmid, addr, buf, len);
}

static void *v10_disp_host(void *opaque, uint64_t addr, bool write,
                           uint32_t *len)
{
    V10DispatchCtx *c = opaque;

    return c->ops->host(c->ops->opaque, c->vmid, addr, write, len);
}

static void v10_disp_written(void *opaque, uint64_t addr, uint32_t len)
{
    V10DispatchCtx *c = opaque;

    c->ops->host_written(c->ops->opaque, c->vmid, addr, len);
}

bool hsagpu_v10_compute_reg(uint32_t reg)
{
    return reg >= V10_COMPUTE_FIRST &&
           reg < V10_COMPUTE_FIRST + V10_COMPUTE_NREGS;
}

/*
 * The dispatch from the ring's compute state and the packet: 0, or what
 * the interpreter cannot run (*@what). The checks of an AMDHSA
 * descriptor apply: the registers are one, laid out differently.
 */
static unsigned v10_dispatch_setup(const HsaGpuV10Ring *r,
                                   const uint32_t *pk,
                                   HsaGpuGcnDispatch *d, uint64_t nwg[3],
                                   const char **what)
{
    const uint32_t *cs = r->compute;
    uint8_t raw[HSAGPU_GCN_KD_SIZE] = { 0 };
    uint32_t rsrc1 = cs[V10_COMPUTE_PGM_RSRC1 - V10_COMPUTE_FIRST];
    uint32_t rsrc2 = cs[V10_COMPUTE_PGM_RSRC2 - V10_COMPUTE_FIRST];
    uint32_t lds = ((rsrc2 >> 15) & 0x1ff) * 512;   /* LDS_SIZE: 128 dw */
    int64_t entry = HSAGPU_GCN_KD_SIZE;

    memset(d, 0, sizeof(*d));
    /* the registers as a descriptor would have them, for its checks */
    memcpy(raw, &lds, 4);
    memcpy(raw + 16, &entry, 8);
    memcpy(raw + 48, &rsrc1, 4);
    memcpy(raw + 52, &rsrc2, 4);
    if (hsagpu_gcn_kd_parse(raw, &d->kd)) {
        *what = "COMPUTE_PGM_RSRC1/2 the interpreter cannot run";
        return HSAGPU_PM4_ERR_DISPATCH;
    }
    if (cs[V10_COMPUTE_START_X - V10_COMPUTE_FIRST] ||
        cs[V10_COMPUTE_START_X + 1 - V10_COMPUTE_FIRST] ||
        cs[V10_COMPUTE_START_X + 2 - V10_COMPUTE_FIRST]) {
        *what = "a start offset (COMPUTE_START_*: not modelled)";
        return HSAGPU_PM4_ERR_DISPATCH;
    }
    /*
     * Scratch: in the queue's address space where the shader points its
     * FLAT_SCRATCH (kfdtest's FlatScratchAccess), WAVESIZE KiB a wave
     * (64 lanes), WAVES waves' worth
     */
    if (rsrc2 & V10_RSRC2_SCRATCH_EN) {
        uint32_t tmpring = cs[V10_COMPUTE_TMPRING_SIZE - V10_COMPUTE_FIRST];

        d->scratch_va = true;
        d->scratch_waves = tmpring & V10_TMPRING_WAVES_MASK;
        d->private_segment_size = ((tmpring & V10_TMPRING_WAVESIZE_MASK) >>
                                   V10_TMPRING_WAVESIZE_SHIFT) * 1024 /
                                  HSAGPU_GCN_WAVE;
    }
    d->code = ((uint64_t)cs[V10_COMPUTE_PGM_LO + 1 - V10_COMPUTE_FIRST] << 32 |
               cs[V10_COMPUTE_PGM_LO - V10_COMPUTE_FIRST]) << 8;
    d->user_data = &cs[V10_COMPUTE_USER_DATA_0 - V10_COMPUTE_FIRST];
    d->nuser = (rsrc2 >> 1) & 0x1f;
    d->group_segment_size = lds;
    for (unsigned k = 0; k < 3; k++) {
        uint32_t wg = cs[V10_COMPUTE_NUM_THREAD_X + k - V10_COMPUTE_FIRST] &
                      0xffff;

        /*
         * USE_THREAD_DIMENSIONS: the packet counts work-items and the CP
         * rounds up to workgroups, the last one partial with PARTIAL_TG_EN
         * (kfdtest dispatches so); otherwise it counts workgroups
         */
        nwg[k] = pk[1 + k];
        if ((pk[4] & HSAGPU_PM4_DI_THREAD_DIMS) && wg) {
            nwg[k] = ((uint64_t)pk[1 + k] + wg - 1) / wg;
        }
        d->wg[k] = wg;
        d->grid[k] = (pk[4] & HSAGPU_PM4_DI_THREAD_DIMS) &&
                     (pk[4] & HSAGPU_PM4_DI_PARTIAL_TG) ?
                     pk[1 + k] : (uint32_t)(nwg[k] * wg);
        if (!wg || !nwg[k] || nwg[k] * wg > UINT32_MAX) {
            *what = "a grid of no work-items, or past 2^32 in a dimension";
            return HSAGPU_PM4_ERR_DISPATCH;
        }
    }
    if (d->nuser > HSAGPU_GCN_USER_DATA_MAX) {
        *what = "more than 16 user SGPRs";
        return HSAGPU_PM4_ERR_DISPATCH;
    }
    return 0;
}

unsigned hsagpu_v10_dispatch(HsaGpuV10 *v, unsigned ri,
                             const HsaGpuV10CpOps *ops, uint32_t vmid,
                             const uint32_t *pk)
{
    HsaGpuV10Ring *r = &v->ring[ri];
    V10DispatchCtx c = { ops, vmid };
    const HsaGpuGcnMem mem = {
        .read = v10_disp_read, .write = v10_disp_write, .opaque = &c,
        .host = ops->host ? v10_disp_host : NULL,
        .written = ops->host ? v10_disp_written : NULL,
    };
    HsaGpuGcnDispatch d;
    HsaGpuGcnGridStats acc = { 0 };
    HsaGpuGcnStatus st = { 0 };
    uint64_t nwg[3], total;
    const char *what = NULL;
    unsigned err;

    if (!(pk[4] & HSAGPU_PM4_DI_ENABLE)) {
        return 0;                       /* COMPUTE_SHADER_EN clear: nothing */
    }
    err = v10_dispatch_setup(r, pk, &d, nwg, &what);
    if (err) {
        goto fail;
    }
    if (__builtin_mul_overflow(nwg[0], nwg[1], &total) ||
        __builtin_mul_overflow(total, nwg[2], &total)) {
        what = "more than 2^64 workgroups";
        err = HSAGPU_PM4_ERR_DISPATCH;
        goto fail;
    }
    if (!r->disp_on) {
        /* a new dispatch: nothing of an earlier one goes on */
        hsagpu_gcn_grid_stop(&v->disp_grid[ri]);
        r->disp_on = 1;
        r->disp_wg = 0;
    }
    /* the GWS resources the scheduler gave the queue (its MAP_QUEUES) */
    d.gws = v->hws.gws[ri] ? &v->disp_gws[ri] : NULL;
    if (d.gws) {
        d.gws->num = MIN(v->hws.gws[ri], HSAGPU_GCN_GWS_MAX);
    }
    v->disp_grid[ri].pool = v->gcn_pool;
    err = hsagpu_gcn_grid_run(&v->disp_grid[ri], &r->disp_wg, nwg, total,
                              &mem, &d, NULL, V10_DISPATCH_SLICE,
                              V10_DISPATCH_WAVE_INSNS, &st, &acc);
    v->disp_insns += acc.insns;
    v->disp_oor += acc.vgpr_oor;
    if (err == HSAGPU_GCN_PAUSED) {
        return HSAGPU_PM4_DISPATCH_MORE;
    }
    if (err) {
        what = st.what;
        err = HSAGPU_PM4_ERR_DISPATCH;
        goto fail;
    }
    r->disp_on = 0;
    v->disp_done++;
    return 0;

fail:
    r->disp_on = 0;
    hsagpu_gcn_grid_stop(&v->disp_grid[ri]);
    v->disp_failed++;
    v->disp_what = what;
    return err;
}

void hsagpu_v10_dispatch_free(HsaGpuV10 *v)
{
    for (unsigned ri = 0; ri < V10_NUM_RINGS; ri++) {
        hsagpu_gcn_grid_free(&v->disp_grid[ri]);
    }
}
