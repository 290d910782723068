/*
 * hsa-gpu: a dispatch's grid of workgroups on the GCN interpreter, one
 * for every command processor that dispatches code (an AQL queue's
 * KERNEL_DISPATCH, a Vega10 PM4 ring's DISPATCH_DIRECT). Workgroups run
 * in order, a slice of wave instructions per call; a slice may end in
 * the middle of one (its waves stop between two instructions). A
 * workgroup whose waves wait on global wave sync for later ones stays
 * resident beside the next, as the hardware keeps it; once all are
 * started the waiting ones take turns. Independent of QEMU.
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
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-gcn.h"

/*
 * What a Vega10 holds at once (64 CUs: 40 waves, 256 KiB of VGPRs and
 * 64 KiB of LDS each), the most a cooperative launch can make resident:
 * a GWS dispatch whose waiting workgroups need more can never end here
 * (on the hardware they would never have started) and fails.
 */
#define GRID_RES_WAVES  (64 * 40)
#define GRID_RES_VGPR   (64 * 256 * 1024ULL)
#define GRID_RES_LDS    (64 * 64 * 1024ULL)

void hsagpu_gcn_grid_stop(HsaGpuGcnGrid *g)
{
    hsagpu_gcn_run_stop(g->run);
    for (uint32_t i = 0; i < g->nwait; i++) {
        hsagpu_gcn_run_free(g->wait[i]);
    }
    g_free(g->wait);
    g->wait = NULL;
    g->nwait = 0;
    g->from_wait = false;
    g->stalls = 0;
}

void hsagpu_gcn_grid_free(HsaGpuGcnGrid *g)
{
    hsagpu_gcn_grid_stop(g);
    hsagpu_gcn_run_free(g->run);
    g->run = NULL;
}

bool hsagpu_gcn_grid_busy(const HsaGpuGcnGrid *g)
{
    return g->nwait || hsagpu_gcn_run_active(g->run);
}

void hsagpu_gcn_grid_set_budget(HsaGpuGcnGrid *g, HsaGpuGcnPrivBudget *b)
{
    if (!g->run) {
        g->run = hsagpu_gcn_run_new();
    }
    /* new, or migrated in: its private pages count for the device */
    hsagpu_gcn_run_set_budget(g->run, b);
    for (uint32_t i = 0; i < g->nwait; i++) {
        hsagpu_gcn_run_set_budget(g->wait[i], b);
    }
}

/*
 * g->run waits on GWS (@insns: what it ran this turn): it joins the
 * waiting workgroups and the next one starts, or (all started) a waiting
 * one goes on. 0, or HSAGPU_GCN_GWS_STUCK (*@what) when no wait can ever
 * end: all started, a whole round of the waiting ones ran nothing; or
 * the waiting ones are more than the device could hold.
 */
static unsigned grid_park(HsaGpuGcnGrid *g, uint64_t *next, uint64_t total,
                          uint64_t insns, HsaGpuGcnPrivBudget *b,
                          const char **what)
{
    uint64_t waves = 0, vgpr = 0, lds = 0;

    g->stalls = insns ? 0 : g->stalls + 1;
    if (g->stalls >= g->nwait + 1 && *next >= total) {
        *what = "a GWS wait no resident wave can end";
        return HSAGPU_GCN_GWS_STUCK;
    }
    g->wait = g_renew(HsaGpuGcnRun *, g->wait, g->nwait + 1);
    g->wait[g->nwait++] = g->run;
    for (uint32_t i = 0; i < g->nwait; i++) {
        HsaGpuGcnFootprint f;

        hsagpu_gcn_run_footprint(g->wait[i], &f);
        waves += f.waves;
        vgpr += f.vgpr_bytes;
        lds += f.lds_bytes;
    }
    g->run = hsagpu_gcn_run_new();
    hsagpu_gcn_run_set_budget(g->run, b);
    if (waves > GRID_RES_WAVES || vgpr > GRID_RES_VGPR ||
        lds > GRID_RES_LDS) {
        *what = "a GWS wait for more workgroups than the device holds";
        return HSAGPU_GCN_GWS_STUCK;
    }
    if (!g->from_wait) {
        (*next)++;                      /* started: the next one is due */
    }
    g->from_wait = false;
    return 0;
}

unsigned hsagpu_gcn_grid_run(HsaGpuGcnGrid *g, uint64_t *next,
                             const uint64_t nwg[3], uint64_t total,
                             const HsaGpuGcnMem *mem,
                             const HsaGpuGcnDispatch *d,
                             HsaGpuGcnPrivBudget *b, uint64_t slice,
                             uint64_t wave_max, HsaGpuGcnStatus *st,
                             HsaGpuGcnGridStats *acc)
{
    unsigned err;

    if (!g->run) {
        g->run = hsagpu_gcn_run_new();
        hsagpu_gcn_run_set_budget(g->run, b);
    }
    while (*next < total || g->nwait || hsagpu_gcn_run_active(g->run)) {
        uint64_t w = *next;
        const uint32_t id[3] = { w % nwg[0], w / nwg[0] % nwg[1],
                                 w / (nwg[0] * nwg[1]) };
        uint32_t was[3];

        if (!hsagpu_gcn_run_active(g->run) && g->nwait && *next >= total) {
            /*
             * Every workgroup is resident (started) as a cooperative
             * launch's are: the waiting ones take turns, oldest first
             */
            hsagpu_gcn_run_free(g->run);
            g->run = g->wait[0];
            memmove(g->wait, g->wait + 1, (g->nwait - 1) * sizeof(*g->wait));
            g->nwait--;
            g->from_wait = true;
            err = 0;
        } else if (!hsagpu_gcn_run_active(g->run)) {
            g->from_wait = false;
            err = hsagpu_gcn_run_start(g->run, d, id[0], id[1], id[2], st);
            acc->waves += err ? 0 : st->waves;
            acc->work += st->work;
            acc->cleared += st->cleared;
            if (!err && acc->work >= slice) {
                return HSAGPU_GCN_PAUSED;   /* set up; its waves run next */
            }
        } else if (!g->from_wait) {
            /* one carried over (or migrated) must be this workgroup */
            hsagpu_gcn_run_id(g->run, was);
            err = *next < total && !memcmp(was, id, sizeof(id)) ? 0 :
                  HSAGPU_GCN_BAD_KD;
            if (err) {
                st->what = "a workgroup in flight that is not the next";
            }
        } else {
            err = 0;
        }
        if (!err) {
            err = hsagpu_gcn_run_resume(g->run, mem, d,
                                        acc->work < slice ?
                                        slice - acc->work : 1,
                                        wave_max, st);
            acc->work += st->work;
            acc->insns += st->insns;
            acc->lane_ops += st->lane_ops;
            acc->vgpr_oor += st->vgpr_oor;
        }
        if (err == HSAGPU_GCN_PAUSED) {
            return err;                     /* in the middle of a wave */
        }
        if (err == HSAGPU_GCN_GWS_WAIT) {
            err = grid_park(g, next, total, st->insns, b, &st->what);
            if (err) {
                hsagpu_gcn_grid_stop(g);
                return err;
            }
            if (acc->work >= slice) {
                return HSAGPU_GCN_PAUSED;
            }
            continue;
        }
        g->stalls = 0;
        if (err) {
            hsagpu_gcn_grid_stop(g);
            return err;
        }
        if (!g->from_wait) {
            (*next)++;
        }
        g->from_wait = false;
        if (acc->work >= slice && (*next < total || g->nwait)) {
            return HSAGPU_GCN_PAUSED;
        }
    }
    return 0;
}

static void grid_put(uint8_t **p, const void *v, size_t n)
{
    memcpy(*p, v, n);
    *p += n;
}

size_t hsagpu_gcn_grid_save(const HsaGpuGcnGrid *g, uint8_t **buf)
{
    bool cur = hsagpu_gcn_run_active(g->run);
    uint32_t n = g->nwait + cur, head[4];
    uint8_t **bufs, *p;
    size_t *lens, len = sizeof(head);

    *buf = NULL;
    if (!n) {
        return 0;
    }
    if (!g->nwait) {
        return hsagpu_gcn_run_save(g->run, buf);
    }
    bufs = g_new0(uint8_t *, n);
    lens = g_new0(size_t, n);
    for (uint32_t i = 0; i < n; i++) {
        const HsaGpuGcnRun *r = cur && !i ? g->run : g->wait[i - cur];

        lens[i] = hsagpu_gcn_run_save(r, &bufs[i]);
        len += 4 + lens[i];
    }
    head[0] = HSAGPU_GCN_WAIT_MAGIC;
    head[1] = g->from_wait | cur << 1;
    head[2] = g->stalls;
    head[3] = g->nwait;
    *buf = p = g_malloc(len);
    grid_put(&p, head, sizeof(head));
    for (uint32_t i = 0; i < n; i++) {
        uint32_t l = lens[i];

        grid_put(&p, &l, 4);
        grid_put(&p, bufs[i], lens[i]);
        g_free(bufs[i]);
    }
    g_free(bufs);
    g_free(lens);
    return len;
}

/*
 * The HSAGPU_GCN_WAIT_MAGIC form of @p..@end (what _save makes, and
 * nothing else): the workgroup in flight into *@cur, the waiting ones
 * into @g; false, with nothing kept, when the bytes are not that
 */
static bool grid_load_waiting(HsaGpuGcnGrid *g, const uint8_t *p,
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
        head[3] > GRID_RES_WAVES) {
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
    g->wait = wait;
    g->nwait = got;
    g->from_wait = head[1] & 1;
    g->stalls = head[2];
    return true;
}

bool hsagpu_gcn_grid_load(HsaGpuGcnGrid *g, const uint8_t *buf, size_t len)
{
    HsaGpuGcnRun *r = NULL;
    uint32_t magic = 0;

    hsagpu_gcn_grid_stop(g);
    if (buf && len >= 4) {
        memcpy(&magic, buf, 4);
    }
    if (buf && magic == HSAGPU_GCN_WAIT_MAGIC) {
        if (!grid_load_waiting(g, buf, buf + len, &r)) {
            return false;
        }
    } else if (buf) {
        r = hsagpu_gcn_run_load(buf, len);
        if (!r) {
            return false;
        }
    }
    hsagpu_gcn_run_free(g->run);
    g->run = r;
    return true;
}
