/*
 * hsa-gpu: GCN (gfx9) interpreter, a workgroup in flight: the kernel
 * descriptor checked, its waves (initial state from the AMDHSA ABI),
 * their VGPRs and the LDS, run round robin between barriers for a
 * budget of wave instructions, so a workgroup can stop in the middle of
 * a wave and go on later (the device's slices), and saved to / loaded
 * from bytes (migration). The buffers stay allocated from one workgroup
 * to the next.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdlib.h>
#include <string.h>
#define g_new0(t, n) ((t *)calloc((n), sizeof(t)))
#define g_renew(t, p, n) ((t *)realloc((p), (n) * sizeof(t)))
#define g_malloc malloc
#define g_free free
#include <assert.h>
#define QEMU_BUILD_BUG_ON(x) _Static_assert(!(x), #x)
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-gcn-int.h"

unsigned hsagpu_gcn_kd_parse(const uint8_t raw[HSAGPU_GCN_KD_SIZE],
                             HsaGpuGcnKd *kd)
{
    uint32_t w[HSAGPU_GCN_KD_SIZE / 4];

    memcpy(w, raw, sizeof(w));
    kd->group_segment_size = w[0];
    kd->private_segment_size = w[1];
    kd->kernarg_size = w[2];
    memcpy(&kd->entry_offset, raw + 16, 8);
    kd->rsrc3 = w[11];
    kd->rsrc1 = w[12];
    kd->rsrc2 = w[13];
    kd->props = (uint16_t)w[14];
    /*
     * What this interpreter runs: wave64, LDS and private segment within
     * the limits, entry dword-aligned and not on top of the descriptor,
     * rounding to nearest even, denormals either flushed both ways or
     * kept (rsrc1 modes 0 and 3).
     */
    if ((kd->props & HSAGPU_GCN_KCP_WAVE32) ||
        ((kd->rsrc1 >> 12) & 0xf) ||
        ((kd->rsrc1 >> 16) & 3) == 1 || ((kd->rsrc1 >> 16) & 3) == 2 ||
        ((kd->rsrc1 >> 18) & 3) == 1 || ((kd->rsrc1 >> 18) & 3) == 2 ||
        kd->group_segment_size > HSAGPU_GCN_LDS_MAX ||
        kd->private_segment_size > HSAGPU_GCN_PRIVATE_MAX ||
        (kd->entry_offset & 3) ||
        (kd->entry_offset >= 0 && kd->entry_offset < HSAGPU_GCN_KD_SIZE)) {
        return HSAGPU_GCN_BAD_KD;
    }
    return HSAGPU_GCN_OK;
}

#define GCN_RUN_MAGIC   0x57434e47u     /* "GNCW" */
#define GCN_RUN_VERSION 3

/*
 * The initial state of wave @n of a workgroup (AMDHSA ABI): user SGPRs
 * in the order kernel_code_properties enables them, then the workgroup
 * ids; work-item ids in v0 (and v1, v2); EXEC covers the work-items the
 * workgroup really has (a partial workgroup at the grid's edge).
 */
static void hsagpu_gcn_wave_init(const HsaGpuGcnDispatch *d, HsaGpuGcnWave *w,
                                 unsigned n, const uint32_t id[3],
                                 const uint32_t size[3])
{
    unsigned s = 0, items = size[0] * size[1] * size[2];
    uint16_t p = d->kd.props;
    uint32_t r2 = d->kd.rsrc2;
    unsigned vmode = (r2 >> HSAGPU_GCN_RSRC2_VGPR_WORKITEM_SHIFT) &
                     HSAGPU_GCN_RSRC2_VGPR_WORKITEM_MASK;
    HsaGpuGcnVreg *v;
    bool have_v012 = hsagpu_gcn_vregs(w, 0, 3, &v);

    /*
     * Every SGPR the ABI can ask for (15 user, 5 system) fits in s0..s101
     * whatever the descriptor says, and a wave has at least 4 VGPRs
     * (rsrc1 counts granules of 4).
     */
    QEMU_BUILD_BUG_ON(4 + 2 * 4 + 2 + 1 + 3 + 1 + 1 > HSAGPU_GCN_SGPRS);
    assert(have_v012);

#define PUT64(v) do { w->s[s++] = (uint32_t)(v); \
                      w->s[s++] = (uint32_t)((uint64_t)(v) >> 32); } while (0)
    if (d->user_data) {
        /* a PM4 dispatch: props is 0, the registers give them all */
        QEMU_BUILD_BUG_ON(HSAGPU_GCN_USER_DATA_MAX + 5 > HSAGPU_GCN_SGPRS);
        for (unsigned k = 0; k < d->nuser && k < HSAGPU_GCN_USER_DATA_MAX;
             k++) {
            w->s[s++] = d->user_data[k];
        }
    }
    if (p & HSAGPU_GCN_KCP_PRIVATE_SEGMENT_BUFFER) {
        /* base: the lanes' own private memory (hsagpu_gcn_mubuf) */
        PUT64(HSAGPU_GCN_PRIVATE_BASE);
        w->s[s++] = UINT32_MAX;             /* num_records */
        w->s[s++] = 0;
    }
    if (p & HSAGPU_GCN_KCP_DISPATCH_PTR) {
        PUT64(d->dispatch_ptr);
    }
    if (p & HSAGPU_GCN_KCP_QUEUE_PTR) {
        PUT64(d->queue_ptr);
    }
    if (p & HSAGPU_GCN_KCP_KERNARG_SEGMENT_PTR) {
        PUT64(d->kernarg);
    }
    if (p & HSAGPU_GCN_KCP_DISPATCH_ID) {
        PUT64(d->dispatch_id);
    }
    if (p & HSAGPU_GCN_KCP_FLAT_SCRATCH_INIT) {
        s += 2;
    }
    if (p & HSAGPU_GCN_KCP_PRIVATE_SEGMENT_SIZE) {
        s++;
    }
#undef PUT64
    for (unsigned k = 0; k < 3; k++) {
        if (r2 & (HSAGPU_GCN_RSRC2_WORKGROUP_ID_X << k)) {
            w->s[s++] = id[k];
        }
    }
    if (r2 & HSAGPU_GCN_RSRC2_WORKGROUP_INFO) {
        s++;
    }
    if (r2 & HSAGPU_GCN_RSRC2_PRIVATE_SEGMENT) {
        /* the wave's offset in the private segment */
        w->s[s++] = d->scratch_va && d->scratch_waves ?
                    n % d->scratch_waves * HSAGPU_GCN_WAVE *
                    d->private_segment_size : 0;
    }
    w->exec = 0;
    if (n * HSAGPU_GCN_WAVE < items) {
        /* the first lane's ids divided out, then a step a lane */
        unsigned flat = n * HSAGPU_GCN_WAVE;
        uint32_t x = flat % size[0], y = flat / size[0] % size[1];
        uint32_t z = flat / (size[0] * size[1]);

        for (unsigned l = 0; l < HSAGPU_GCN_WAVE && flat + l < items; l++) {
            w->exec |= 1ULL << l;
            v[0][l] = x;
            if (vmode >= 1) {
                v[1][l] = y;
            }
            if (vmode >= 2) {
                v[2][l] = z;
            }
            if (++x == size[0]) {
                x = 0;
                if (++y == size[1]) {
                    y = 0;
                    z++;
                }
            }
        }
    }
    w->pc = d->code;
}


HsaGpuGcnRun *hsagpu_gcn_run_new(void)
{
    return g_new0(HsaGpuGcnRun, 1);
}

bool hsagpu_gcn_priv_charge(HsaGpuGcnPriv *pv, long n)
{
    uint64_t bytes = (uint64_t)labs(n) * HSAGPU_GCN_PRIV_PAGE;
    HsaGpuGcnPrivBudget *b = pv->budget;

    if (n < 0) {
        pv->resident -= -n;
        if (b) {
            __atomic_sub_fetch(&b->used, bytes, __ATOMIC_RELAXED);
        }
        return true;
    }
    if (pv->resident + n > HSAGPU_GCN_PRIVATE_RESIDENT / HSAGPU_GCN_PRIV_PAGE) {
        return false;
    }
    if (b && __atomic_add_fetch(&b->used, bytes, __ATOMIC_RELAXED) > b->limit) {
        __atomic_sub_fetch(&b->used, bytes, __ATOMIC_RELAXED);
        return false;
    }
    pv->resident += n;
    return true;
}

void hsagpu_gcn_run_set_budget(HsaGpuGcnRun *r, HsaGpuGcnPrivBudget *b)
{
    if (r->priv.budget != b) {
        uint64_t bytes = (uint64_t)r->priv.resident * HSAGPU_GCN_PRIV_PAGE;

        if (r->priv.budget) {
            __atomic_sub_fetch(&r->priv.budget->used, bytes, __ATOMIC_RELAXED);
        }
        if (b) {
            __atomic_add_fetch(&b->used, bytes, __ATOMIC_RELAXED);
        }
        r->priv.budget = b;
    }
}

void hsagpu_gcn_run_free(HsaGpuGcnRun *r)
{
    if (r) {
        for (size_t k = 0; k < r->priv.cap; k++) {
            if (r->priv.page[k]) {
                hsagpu_gcn_priv_charge(&r->priv, -1);
            }
            g_free(r->priv.page[k]);
        }
        g_free(r->priv.page);
        g_free(r->vregs);
        g_free(r->lds);
        g_free(r);
    }
}

bool hsagpu_gcn_run_active(const HsaGpuGcnRun *r)
{
    return r && r->active;
}

void hsagpu_gcn_run_stop(HsaGpuGcnRun *r)
{
    if (r) {
        r->active = false;
    }
}

/*
 * The private memory of @nwaves waves of @priv bytes a lane: its page
 * table, the pages written by an earlier workgroup zeroed (those past
 * it freed). Returns the bytes cleared.
 */
static size_t hsagpu_gcn_priv_reserve(HsaGpuGcnPriv *pv, unsigned nwaves,
                                      uint32_t priv)
{
    size_t cleared = 0;

    pv->wave_bytes = (uint64_t)HSAGPU_GCN_WAVE * priv;
    pv->npages = (nwaves * pv->wave_bytes + HSAGPU_GCN_PRIV_PAGE - 1) /
                 HSAGPU_GCN_PRIV_PAGE;
    for (size_t k = pv->npages; k < pv->cap; k++) {
        if (pv->page[k]) {
            hsagpu_gcn_priv_charge(pv, -1);
        }
        g_free(pv->page[k]);
        pv->page[k] = NULL;
    }
    if (pv->npages > pv->cap) {
        pv->page = g_renew(uint8_t *, pv->page, pv->npages);
        memset(pv->page + pv->cap, 0,
               (pv->npages - pv->cap) * sizeof(*pv->page));
        pv->cap = pv->npages;
    }
    for (size_t k = 0; k < pv->npages; k++) {
        if (pv->page[k]) {
            memset(pv->page[k], 0, HSAGPU_GCN_PRIV_PAGE);
            cleared += HSAGPU_GCN_PRIV_PAGE;
        }
    }
    return cleared;
}

/*
 * Room for @nvgpr VGPRs of @nwaves waves, @lds bytes and @priv private
 * bytes per lane (kept after), cleared: the bytes cleared.
 */
static size_t hsagpu_gcn_run_reserve(HsaGpuGcnRun *r, unsigned nwaves,
                                     unsigned nvgpr, uint32_t lds,
                                     uint32_t priv)
{
    size_t nv = (size_t)nwaves * nvgpr, cleared;

    if (nv > r->vcap) {
        g_free(r->vregs);
        r->vregs = g_new0(HsaGpuGcnVreg, nv);
        r->vcap = nv;
    }
    if (lds > r->ldscap || !r->lds) {
        g_free(r->lds);
        r->lds = g_new0(uint8_t, lds ? lds : 1);
        r->ldscap = lds;
    }
    cleared = hsagpu_gcn_priv_reserve(&r->priv, nwaves, priv);
    memset(r->vregs, 0, nv * sizeof(HsaGpuGcnVreg));
    memset(r->lds, 0, lds);
    /* (the waves past nwaves are never read) */
    memset(r->waves, 0, nwaves * sizeof(r->waves[0]));
    for (unsigned n = 0; n < nwaves; n++) {
        r->waves[n].nvgpr = nvgpr;
        r->waves[n].vfile = r->vregs + (size_t)n * nvgpr;
        r->waves[n].id = n;
    }
    return nv * sizeof(HsaGpuGcnVreg) + lds + cleared +
           nwaves * sizeof(r->waves[0]);
}

unsigned hsagpu_gcn_run_start(HsaGpuGcnRun *r, const HsaGpuGcnDispatch *d,
                              uint32_t x, uint32_t y, uint32_t z,
                              HsaGpuGcnStatus *st)
{
    const uint32_t id[3] = { x, y, z };
    uint32_t size[3], lpriv;

    memset(st, 0, sizeof(*st));
    r->active = false;
    for (unsigned k = 0; k < 3; k++) {
        uint32_t wg = d->wg[k] ? d->wg[k] : 1;
        uint64_t first = (uint64_t)id[k] * wg;

        /* The last workgroup in each dimension may be partial. */
        size[k] = first + wg > d->grid[k] ? (uint32_t)(d->grid[k] - first)
                                          : wg;
    }
    if ((uint64_t)size[0] * size[1] * size[2] > HSAGPU_GCN_WG_MAX) {
        st->code = HSAGPU_GCN_BAD_KD;
        st->what = "workgroup size";
        return st->code;
    }
    r->nwaves = (size[0] * size[1] * size[2] + HSAGPU_GCN_WAVE - 1) /
                HSAGPU_GCN_WAVE;
    /* rsrc1 VGPRS: granules of 4 */
    r->nvgpr = ((d->kd.rsrc1 & 0x3f) + 1) * 4;
    r->ftz32 = ((d->kd.rsrc1 >> 16) & 3) == 0;
    r->ftz64 = ((d->kd.rsrc1 >> 18) & 3) == 0;
    /*
     * The sizes the hardware takes from the packet (ROCr and HIP put the
     * static and the dynamic LDS there), never below the descriptor's:
     * the code's own need (a packet left 0 still runs it right).
     */
    r->lds_size = MAX(d->kd.group_segment_size, d->group_segment_size);
    lpriv = MAX(d->kd.private_segment_size, d->private_segment_size);
    if (r->lds_size > HSAGPU_GCN_LDS_MAX ||
        lpriv > HSAGPU_GCN_PRIVATE_MAX) {
        st->code = HSAGPU_GCN_BAD_KD;
        st->what = r->lds_size > HSAGPU_GCN_LDS_MAX ? "group segment size"
                                                    : "private segment size";
        return st->code;
    }
    r->priv_size = (lpriv + 3) & ~3u;
    r->cur = 0;
    r->insns = 0;
    memcpy(r->id, id, sizeof(id));
    /* the code memory holds now: nothing of an earlier workgroup's */
    memset(r->icache.tag, 0, sizeof(r->icache.tag));
    /* scratch in the address space (a PM4 dispatch's) needs no pages */
    st->cleared = hsagpu_gcn_run_reserve(r, r->nwaves, r->nvgpr, r->lds_size,
                                         d->scratch_va ? 0 : r->priv_size);
    for (unsigned n = 0; n < r->nwaves; n++) {
        hsagpu_gcn_wave_init(d, &r->waves[n], n, id, size);
        r->waves[n].denorm = (d->kd.rsrc1 >> 16) & 0xf;
    }
    r->active = true;
    st->waves = r->nwaves;
    st->work = r->nwaves + st->cleared / 1024;
    return HSAGPU_GCN_OK;
}

static unsigned gcn_run_resume(HsaGpuGcnRun *r, HsaGpuGcnGroup *gp,
                               const HsaGpuGcnDispatch *d, uint64_t budget,
                               uint64_t max_insns, HsaGpuGcnStatus *st)
{
    uint64_t used = 0;
    unsigned running, waiting, gws;

    memset(st, 0, sizeof(*st));
    /*
     * Round robin from wave r->cur: each wave runs for a turn of
     * HSAGPU_GCN_TURN instructions or until it ends, fails, reaches a
     * barrier or sleeps (s_sleep), then the next one; when the budget
     * runs out the wave goes on from there next time. Turns, not "until
     * the barrier", because waves of a workgroup may wait for each other
     * through memory (a flag another wave sets), which on the hardware
     * they do while interleaved. The barrier opens when every wave still
     * running waits at it (a wave that ended no longer counts, as on
     * gfx9).
     */
    do {
        for (; r->cur < r->nwaves; r->cur++) {
            HsaGpuGcnWave *w = &r->waves[r->cur];
            unsigned turn = 0;

            hsagpu_gcn_set_denorm(gp, w->denorm);   /* its s_setreg's */
            if (w->gws_wait) {
                hsagpu_gcn_gws_ready(d, w);
            }
            while (!w->done && !w->at_barrier && !w->gws_wait &&
                   turn++ < HSAGPU_GCN_TURN) {
                if (used >= budget) {
                    st->insns = used;
                    st->work = used + st->cleared / 1024;
                    return HSAGPU_GCN_PAUSED;
                }
                used++;
                if (!hsagpu_gcn_step(gp, w)) {
                    break;
                }
                if (w->insns > max_insns) {
                    hsagpu_gcn_fail(gp, w, HSAGPU_GCN_RUNAWAY, NULL,
                                    "instruction budget");
                    break;
                }
            }
            if (st->code != HSAGPU_GCN_OK) {
                r->active = false;
                st->insns = used;
                st->work = used + st->cleared / 1024;
                return st->code;
            }
        }
        r->cur = 0;
        running = waiting = gws = 0;
        for (unsigned n = 0; n < r->nwaves; n++) {
            HsaGpuGcnWave *w = &r->waves[n];

            running += !w->done;
            waiting += !w->done && w->at_barrier;
            /* released by a wave after it in this round: on with it */
            gws += !w->done && w->gws_wait && !hsagpu_gcn_gws_ready(d, w);
        }
        if (waiting == running) {
            for (unsigned n = 0; n < r->nwaves; n++) {
                r->waves[n].at_barrier = false;
            }
        } else if (gws && waiting + gws == running) {
            /* only waves of other workgroups can let these go on */
            st->code = HSAGPU_GCN_GWS_WAIT;
            st->insns = used;
            st->work = used + st->cleared / 1024;
            return st->code;
        }
    } while (running);
    r->active = false;
    st->insns = used;
    st->work = used + st->cleared / 1024;  /* and the pages it took */
    return HSAGPU_GCN_OK;
}

unsigned hsagpu_gcn_run_resume_views(HsaGpuGcnRun *r,
                                     const HsaGpuGcnMem *mem,
                                     const HsaGpuGcnDispatch *d,
                                     uint64_t budget, uint64_t max_insns,
                                     HsaGpuGcnViews *v, HsaGpuGcnStatus *st)
{
    HsaGpuGcnGroup g = {
        .mem = mem, .d = d, .lds = r->lds, .lds_size = r->lds_size,
        .priv_size = r->priv_size, .priv = &r->priv, .ftz32 = r->ftz32,
        .ftz64 = r->ftz64, .icache = &r->icache, .tlb = v->tlb,
        .st = st,
    };

    return gcn_run_resume(r, &g, d, budget, max_insns, st);
}

unsigned hsagpu_gcn_run_resume(HsaGpuGcnRun *r, const HsaGpuGcnMem *mem,
                               const HsaGpuGcnDispatch *d, uint64_t budget,
                               uint64_t max_insns, HsaGpuGcnStatus *st)
{
    HsaGpuGcnViews v = { 0 };
    unsigned err = hsagpu_gcn_run_resume_views(r, mem, d, budget, max_insns,
                                               &v, st);

    /* the views end with the call: what went through them is told */
    hsagpu_gcn_views_end(&v, mem);
    return err;
}

void hsagpu_gcn_run_footprint(const HsaGpuGcnRun *r, HsaGpuGcnFootprint *f)
{
    f->waves = r->nwaves;
    f->vgpr_bytes = (uint64_t)r->nwaves * r->nvgpr * sizeof(HsaGpuGcnVreg);
    f->lds_bytes = r->lds_size;
}

void hsagpu_gcn_run_id(const HsaGpuGcnRun *r, uint32_t id[3])
{
    memcpy(id, r->id, sizeof(r->id));
}

unsigned hsagpu_gcn_run_group(const HsaGpuGcnMem *mem,
                              const HsaGpuGcnDispatch *d, uint32_t x,
                              uint32_t y, uint32_t z, uint64_t max_insns,
                              HsaGpuGcnStatus *st)
{
    HsaGpuGcnRun *r = hsagpu_gcn_run_new();
    unsigned err = hsagpu_gcn_run_start(r, d, x, y, z, st);

    if (!err) {
        err = hsagpu_gcn_run_resume(r, mem, d, UINT64_MAX, max_insns, st);
    }
    hsagpu_gcn_run_free(r);
    return err;
}

/* Saved state: little-endian words, wave by wave, then VGPRs and LDS */
static uint8_t *gcn_put32(uint8_t *p, uint32_t v)
{
    for (unsigned k = 0; k < 4; k++) {
        *p++ = v >> (8 * k);
    }
    return p;
}

static uint8_t *gcn_put64(uint8_t *p, uint64_t v)
{
    return gcn_put32(gcn_put32(p, (uint32_t)v), v >> 32);
}

static const uint8_t *gcn_get32(const uint8_t *p, uint32_t *v)
{
    *v = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
    return p + 4;
}

static const uint8_t *gcn_get64(const uint8_t *p, uint64_t *v)
{
    uint32_t lo, hi;

    p = gcn_get32(gcn_get32(p, &lo), &hi);
    *v = lo | (uint64_t)hi << 32;
    return p;
}

#define GCN_RUN_HEAD    (4 * 13 + 8)
#define GCN_WAVE_BYTES  (4 * (HSAGPU_GCN_SGPRS + 2 + 3) + 8 * 4)

/* The private pages written, each saved as its index and its bytes */
static size_t gcn_run_pages(const HsaGpuGcnRun *r)
{
    size_t n = 0;

    for (size_t k = 0; k < r->priv.npages; k++) {
        n += r->priv.page[k] != NULL;
    }
    return n;
}

static size_t gcn_run_bytes(unsigned nwaves, unsigned nvgpr, uint32_t lds,
                            size_t pages)
{
    return GCN_RUN_HEAD + (size_t)nwaves * GCN_WAVE_BYTES +
           (size_t)nwaves * nvgpr * sizeof(HsaGpuGcnVreg) + lds +
           pages * (4 + HSAGPU_GCN_PRIV_PAGE);
}

size_t hsagpu_gcn_run_save(const HsaGpuGcnRun *r, uint8_t **buf)
{
    size_t pages = gcn_run_pages(r);
    size_t len = gcn_run_bytes(r->nwaves, r->nvgpr, r->lds_size, pages);
    uint8_t *p = g_malloc(len);

    *buf = p;
    p = gcn_put32(p, GCN_RUN_MAGIC);
    p = gcn_put32(p, GCN_RUN_VERSION);
    for (unsigned k = 0; k < 3; k++) {
        p = gcn_put32(p, r->id[k]);
    }
    p = gcn_put32(p, r->nwaves);
    p = gcn_put32(p, r->nvgpr);
    p = gcn_put32(p, r->cur);
    p = gcn_put32(p, r->lds_size);
    p = gcn_put32(p, r->ftz32);
    p = gcn_put32(p, r->ftz64);
    p = gcn_put32(p, r->priv_size);
    p = gcn_put32(p, pages);
    p = gcn_put64(p, r->insns);
    for (unsigned n = 0; n < r->nwaves; n++) {
        const HsaGpuGcnWave *w = &r->waves[n];

        for (unsigned k = 0; k < HSAGPU_GCN_SGPRS; k++) {
            p = gcn_put32(p, w->s[k]);
        }
        p = gcn_put32(p, w->flat_scratch[0]);
        p = gcn_put32(p, w->flat_scratch[1]);
        p = gcn_put32(p, w->m0);
        p = gcn_put32(p, w->scc);
        /*
         * bit 2: the wave's denormal modes in [11:8] (s_setreg); [5:4]
         * its GWS wait, on resource [17:12], at barrier generation [31:18]
         */
        p = gcn_put32(p, w->done | w->at_barrier << 1 | 1 << 2 |
                      w->gws_wait << 4 | w->denorm << 8 |
                      (uint32_t)w->gws_rid << 12 | w->gws_gen << 18);
        p = gcn_put64(p, w->vcc);
        p = gcn_put64(p, w->exec);
        p = gcn_put64(p, w->pc);
        p = gcn_put64(p, w->insns);
    }
    for (size_t k = 0; k < (size_t)r->nwaves * r->nvgpr; k++) {
        for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
            p = gcn_put32(p, r->vregs[k][l]);
        }
    }
    memcpy(p, r->lds, r->lds_size);
    p += r->lds_size;
    for (size_t k = 0; k < r->priv.npages; k++) {
        if (r->priv.page[k]) {
            p = gcn_put32(p, k);
            memcpy(p, r->priv.page[k], HSAGPU_GCN_PRIV_PAGE);
            p += HSAGPU_GCN_PRIV_PAGE;
        }
    }
    return len;
}

HsaGpuGcnRun *hsagpu_gcn_run_load(const uint8_t *buf, size_t len)
{
    uint32_t h[13];
    uint64_t insns;
    const uint8_t *p = buf;
    HsaGpuGcnRun *r;
    uint64_t npages;
    uint32_t prev = 0;

    if (len < GCN_RUN_HEAD) {
        return NULL;
    }
    for (unsigned k = 0; k < 13; k++) {
        p = gcn_get32(p, &h[k]);
    }
    p = gcn_get64(p, &insns);
    /* what hsagpu_gcn_run_start can make, and nothing else */
    if (h[0] != GCN_RUN_MAGIC || h[1] != GCN_RUN_VERSION || !h[5] ||
        h[5] > HSAGPU_GCN_WG_MAX / HSAGPU_GCN_WAVE || !h[6] ||
        h[6] > HSAGPU_GCN_VGPRS || h[6] % 4 || h[7] > h[5] ||
        h[8] > HSAGPU_GCN_LDS_MAX || h[9] > 1 || h[10] > 1 ||
        h[11] > HSAGPU_GCN_PRIVATE_MAX || h[11] % 4 ||
        h[12] > HSAGPU_GCN_PRIVATE_RESIDENT / HSAGPU_GCN_PRIV_PAGE ||
        len != gcn_run_bytes(h[5], h[6], h[8], h[12])) {
        return NULL;
    }
    npages = ((uint64_t)h[5] * HSAGPU_GCN_WAVE * h[11] +
              HSAGPU_GCN_PRIV_PAGE - 1) / HSAGPU_GCN_PRIV_PAGE;
    /* the pages: each within the workgroup's, in order, once */
    for (uint32_t k = 0; k < h[12]; k++) {
        const uint8_t *q = p + (size_t)h[5] * GCN_WAVE_BYTES +
                           (size_t)h[5] * h[6] * sizeof(HsaGpuGcnVreg) +
                           h[8] + (size_t)k * (4 + HSAGPU_GCN_PRIV_PAGE);
        uint32_t idx;

        gcn_get32(q, &idx);
        if (idx >= npages || (k && idx <= prev)) {
            return NULL;
        }
        prev = idx;
    }
    r = hsagpu_gcn_run_new();
    memcpy(r->id, &h[2], sizeof(r->id));
    r->nwaves = h[5];
    r->nvgpr = h[6];
    r->cur = h[7];
    r->lds_size = h[8];
    r->ftz32 = h[9];
    r->ftz64 = h[10];
    r->priv_size = h[11];
    r->insns = insns;
    hsagpu_gcn_run_reserve(r, r->nwaves, r->nvgpr, r->lds_size, r->priv_size);
    for (unsigned n = 0; n < r->nwaves; n++) {
        HsaGpuGcnWave *w = &r->waves[n];
        uint32_t scc, flags;

        for (unsigned k = 0; k < HSAGPU_GCN_SGPRS; k++) {
            p = gcn_get32(p, &w->s[k]);
        }
        p = gcn_get32(p, &w->flat_scratch[0]);
        p = gcn_get32(p, &w->flat_scratch[1]);
        p = gcn_get32(p, &w->m0);
        p = gcn_get32(p, &scc);
        p = gcn_get32(p, &flags);
        p = gcn_get64(p, &w->vcc);
        p = gcn_get64(p, &w->exec);
        p = gcn_get64(p, &w->pc);
        p = gcn_get64(p, &w->insns);
        w->scc = scc & 1;
        w->done = flags & 1;
        w->at_barrier = (flags >> 1) & 1;
        w->gws_wait = (flags >> 4) & 3;
        w->gws_rid = (flags >> 12) & 63;
        w->gws_gen = flags >> 18;
        /* without bit 2 (saved before s_setreg): the workgroup's */
        w->denorm = flags & 4 ? (flags >> 8) & 0xf :
                    (r->ftz32 ? 0 : 3) | (r->ftz64 ? 0 : 3) << 2;
        if ((flags & 0xc8u) || w->gws_wait > GCN_GWS_SEMA ||
            ((w->denorm & 3) && (w->denorm & 3) != 3) ||
            ((w->denorm >> 2) && (w->denorm >> 2) != 3)) {
            hsagpu_gcn_run_free(r);
            return NULL;                /* not a mode s_setreg sets */
        }
    }
    for (size_t k = 0; k < (size_t)r->nwaves * r->nvgpr; k++) {
        for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
            p = gcn_get32(p, &r->vregs[k][l]);
        }
    }
    memcpy(r->lds, p, r->lds_size);
    p += r->lds_size;
    for (uint32_t k = 0; k < h[12]; k++) {
        uint32_t idx;

        p = gcn_get32(p, &idx);
        r->priv.page[idx] = g_malloc(HSAGPU_GCN_PRIV_PAGE);
        memcpy(r->priv.page[idx], p, HSAGPU_GCN_PRIV_PAGE);
        r->priv.resident++;
        p += HSAGPU_GCN_PRIV_PAGE;
    }
    r->active = true;
    return r;
}
