/*
 * hsa-gpu: a dispatch's grid of workgroups on the GCN interpreter, one
 * for every command processor that dispatches code (an AQL queue's
 * KERNEL_DISPATCH, a Vega10 PM4 ring's DISPATCH_DIRECT). Workgroups start
 * in order, a slice of wave instructions per call; a slice may end in
 * the middle of one (its waves stop between two instructions). On a pool
 * of host threads (the device's compute-threads) each thread takes the
 * next workgroup as it finishes one, so several are in flight, as on a
 * GPU's compute units; their memory callbacks take turns under one lock
 * (the device's memory path is one requester's), while loads and stores
 * through host views of the memory (HsaGpuGcnMem.host) take none, and
 * the threads of a slice share the views (one asked a span, not one a
 * thread; what was written through them told once). A workgroup whose
 * waves wait on global wave sync for later ones stays resident beside the
 * next, as the hardware keeps it; once all are started the waiting ones
 * take turns (such a grid runs on one thread). Independent of QEMU.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#ifndef _GNU_SOURCE
#define _GNU_SOURCE                 /* adaptive mutexes */
#endif
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
#include <pthread.h>
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
    for (uint32_t i = 0; i < g->nmore; i++) {
        hsagpu_gcn_run_free(g->more[i]);
    }
    g_free(g->more);
    g->more = NULL;
    g->nmore = 0;
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

/* Workgroups in flight besides run (on a pool) */
static uint32_t grid_more_active(const HsaGpuGcnGrid *g)
{
    uint32_t n = 0;

    for (uint32_t i = 0; i < g->nmore; i++) {
        n += hsagpu_gcn_run_active(g->more[i]);
    }
    return n;
}

bool hsagpu_gcn_grid_busy(const HsaGpuGcnGrid *g)
{
    return g->nwait || hsagpu_gcn_run_active(g->run) || grid_more_active(g);
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
    for (uint32_t i = 0; i < g->nmore; i++) {
        hsagpu_gcn_run_set_budget(g->more[i], b);
    }
}

/*
 * g->run waits on GWS (@insns: what it ran this turn): it joins the
 * waiting workgroups and the next one starts, or (all started) a waiting
 * one goes on. 0, or HSAGPU_GCN_GWS_STUCK (*@what) when no wait can ever
 * end: all started, a whole round of the waiting ones ran nothing; or
 * the waiting ones are more than the device could hold.
 */
static unsigned grid_park(HsaGpuGcnGrid *g, uint64_t insns,
                          HsaGpuGcnPrivBudget *b, const char **what)
{
    uint64_t waves = 0, vgpr = 0, lds = 0;

    g->stalls = insns ? 0 : g->stalls + 1;
    /* only a waiting one taken back (all started) can have stalled */
    if (g->stalls >= g->nwait + 1 && g->from_wait) {
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
    g->from_wait = false;
    return 0;
}

/* Workgroup @w's ids (x fastest) */
static void grid_id(uint64_t w, const uint64_t nwg[3], uint32_t id[3])
{
    id[0] = w % nwg[0];
    id[1] = w / nwg[0] % nwg[1];
    id[2] = w / (nwg[0] * nwg[1]);
}

/* @r's workgroup, flat (x fastest); UINT64_MAX when outside @nwg */
static uint64_t grid_flat(const HsaGpuGcnRun *r, const uint64_t nwg[3])
{
    uint32_t id[3];

    hsagpu_gcn_run_id(r, id);
    if (id[0] >= nwg[0] || id[1] >= nwg[1] || id[2] >= nwg[2]) {
        return UINT64_MAX;
    }
    return id[0] + nwg[0] * (id[1] + nwg[1] * id[2]);
}

/*
 * The workgroups in flight (carried over, or migrated in) must be ones
 * this dispatch started: inside its grid and before *@next. A cursor
 * still at the one in flight is how builds before pools counted: it
 * moves past it.
 */
static bool grid_check_flight(HsaGpuGcnGrid *g, uint64_t *next,
                              const uint64_t nwg[3], uint64_t total)
{
    if (hsagpu_gcn_run_active(g->run) && !g->from_wait && !g->nmore &&
        *next < total && grid_flat(g->run, nwg) == *next) {
        (*next)++;
    }
    if (hsagpu_gcn_run_active(g->run) && !g->from_wait &&
        grid_flat(g->run, nwg) >= *next) {
        return false;
    }
    for (uint32_t i = 0; i < g->nmore; i++) {
        if (hsagpu_gcn_run_active(g->more[i]) &&
            grid_flat(g->more[i], nwg) >= *next) {
            return false;
        }
    }
    return true;
}

/* Wave instructions a thread of a pool runs between looks at the others */
#define GRID_PAR_CHUNK  1024

/*
 * A host view the parts of a slice share (GcnGridPar.views): filled once
 * under the lock by whichever part needs it first, then found by the
 * others without it; the bytes written through it are told to the memory
 * once, when the slice ends. @key is published last (release): va (4 KiB
 * aligned) | GRID_VIEW_SET | GRID_VIEW_WRITE; 0, empty.
 */
typedef struct GcnParView {
    uint64_t key;
    uint8_t *host;
    uint32_t len;
    uint32_t dirty_lo, dirty_hi;        /* [lo, hi) of len */
} GcnParView;
#define GRID_VIEW_SET   1u
#define GRID_VIEW_WRITE 2u
/* slots by span (a slice reaches a few dozen), looked up this far on */
#define GRID_VIEW_BITS  9
#define GRID_VIEWS      (1u << GRID_VIEW_BITS)
#define GRID_VIEW_PROBE 8u

/* One parallel slice (grid_run_par): what its parts share */
typedef struct GcnGridPar {
    pthread_mutex_t lock;       /* memory callbacks, todo, stop */
    const HsaGpuGcnMem *mem;    /* the caller's */
    HsaGpuGcnMem wrap;          /* the same, one at a time */
    const HsaGpuGcnDispatch *d;
    uint64_t total, wave_max;
    uint64_t claim;             /* the next to start: *next when done */
    uint64_t budget, spent;     /* the slice's work, all parts' */
    const uint64_t *nwg;
    HsaGpuGcnRun **todo;        /* in flight, not yet taken up */
    uint32_t ntodo;
    HsaGpuGcnRun **slot;        /* part i's workgroup */
    HsaGpuGcnGridStats *acc;
    HsaGpuGcnStatus *st;
    unsigned *err;
    bool stop;                  /* a part failed: no one starts more */
    GcnParView *views;          /* GRID_VIEWS of them, when mem->host */
    uint32_t *used;             /* the slots filled, nused of them */
    uint32_t nused;
} GcnGridPar;

static unsigned par_read(void *o, uint64_t addr, void *buf, uint32_t len)
{
    GcnGridPar *p = o;
    unsigned err;

    pthread_mutex_lock(&p->lock);
    err = p->mem->read(p->mem->opaque, addr, buf, len);
    pthread_mutex_unlock(&p->lock);
    return err;
}

static unsigned par_write(void *o, uint64_t addr, const void *buf,
                          uint32_t len)
{
    GcnGridPar *p = o;
    unsigned err;

    pthread_mutex_lock(&p->lock);
    err = p->mem->write(p->mem->opaque, addr, buf, len);
    pthread_mutex_unlock(&p->lock);
    return err;
}

/*
 * An atomic: the memory's own, or (memory without them) a read and a
 * write with no other thread's access between, which a read-modify-write
 * of the interpreter's would not be across threads
 */
static unsigned par_atomic(void *o, uint64_t addr, unsigned bytes,
                           unsigned op, uint64_t src0, uint64_t src1,
                           uint64_t *old)
{
    GcnGridPar *p = o;
    const HsaGpuGcnMem *m = p->mem;
    uint64_t v = 0, nv;
    unsigned err;

    pthread_mutex_lock(&p->lock);
    if (m->atomic) {
        err = m->atomic(m->opaque, addr, bytes, op, src0, src1, old);
    } else {
        err = m->read(m->opaque, addr, &v, bytes);
        if (!err) {
            nv = op == HSAGPU_GCN_ATOMIC_ADD ? v + src0 :
                 op == HSAGPU_GCN_ATOMIC_SWAP ? src0 :
                 v == src0 ? src1 : v;
            err = nv == v && op == HSAGPU_GCN_ATOMIC_CAS ? 0 :
                  m->write(m->opaque, addr, &nv, bytes);
        }
        *old = v;
    }
    pthread_mutex_unlock(&p->lock);
    return err;
}

static uint64_t par_now(void *o)
{
    GcnGridPar *p = o;
    uint64_t t;

    pthread_mutex_lock(&p->lock);
    t = p->mem->now_ns(p->mem->opaque);
    pthread_mutex_unlock(&p->lock);
    return t;
}

/* The address of a published view's first byte */
static uint64_t par_view_va(const GcnParView *v)
{
    return v->key & ~(uint64_t)(HSAGPU_GCN_TLB_PAGE - 1);
}

static uint32_t par_view_slot(uint64_t addr)
{
    return ((addr / HSAGPU_GCN_TLB_SPAN) * 0x9e3779b97f4a7c15ULL) >>
           (64 - GRID_VIEW_BITS);
}

/*
 * The shared view that holds [@addr, @addr + @len) (@write: for
 * writing), or NULL; without the lock, entries once published never
 * change within the slice
 */
static GcnParView *par_view_find(GcnGridPar *p, uint64_t addr, uint32_t len,
                                 bool write)
{
    uint32_t at = par_view_slot(addr);

    for (unsigned i = 0; i < GRID_VIEW_PROBE; i++) {
        GcnParView *v = &p->views[(at + i) & (GRID_VIEWS - 1)];
        uint64_t key = __atomic_load_n(&v->key, __ATOMIC_ACQUIRE);
        uint64_t va = key & ~(uint64_t)(HSAGPU_GCN_TLB_PAGE - 1);

        if (!key) {
            return NULL;
        }
        if ((!write || (key & GRID_VIEW_WRITE)) && addr - va < v->len &&
            len <= v->len - (addr - va)) {
            return v;
        }
    }
    return NULL;
}

/* Keep a view for the others (lock held); full: not kept, still good */
static void par_view_keep(GcnGridPar *p, uint64_t va, uint8_t *h,
                          uint32_t len, bool write)
{
    uint32_t at = par_view_slot(va);

    for (unsigned i = 0; i < GRID_VIEW_PROBE; i++) {
        uint32_t k = (at + i) & (GRID_VIEWS - 1);
        GcnParView *v = &p->views[k];

        if (!v->key) {
            v->host = h;
            v->len = len;
            v->dirty_lo = UINT32_MAX;
            v->dirty_hi = 0;
            p->used[p->nused++] = k;
            __atomic_store_n(&v->key, va | GRID_VIEW_SET |
                             (write ? GRID_VIEW_WRITE : 0), __ATOMIC_RELEASE);
            return;
        }
    }
}

/*
 * A view for a part: one another part already has, else the memory's
 * from the start of the span (so that parts taking workgroups in turn
 * share one), else from @addr
 */
static void *par_host(void *o, uint64_t addr, bool write, uint32_t *len)
{
    GcnGridPar *p = o;
    uint64_t span = addr & ~(uint64_t)(HSAGPU_GCN_TLB_SPAN - 1);
    GcnParView *v = par_view_find(p, addr, 1, write);
    bool locked = false;
    uint32_t n = 0;
    uint8_t *h;

    if (!v) {
        pthread_mutex_lock(&p->lock);
        locked = true;
        v = par_view_find(p, addr, 1, write);       /* filled meanwhile? */
    }
    if (v) {
        uint64_t va = par_view_va(v);

        *len = v->len - (addr - va);
        h = v->host + (addr - va);
    } else {
        h = span == addr ? NULL
                         : p->mem->host(p->mem->opaque, span, write, &n);
        if (h && n > addr - span) {
            par_view_keep(p, span, h, n, write);
            *len = n - (addr - span);
            h += addr - span;
        } else {
            h = p->mem->host(p->mem->opaque, addr, write, &n);
            if (h && n) {
                par_view_keep(p, addr, h, n, write);
            }
            *len = n;
        }
    }
    if (locked) {
        pthread_mutex_unlock(&p->lock);
    }
    return h;
}

/* *@at becomes @v if @v is below it (@low) or above it (!@low) */
static void par_widen(uint32_t *at, uint32_t v, bool low)
{
    uint32_t was = __atomic_load_n(at, __ATOMIC_RELAXED);

    while ((low ? v < was : v > was) &&
           !__atomic_compare_exchange_n(at, &was, v, true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
        /* another part widened it: compare with what it holds now */
    }
}

/* Bytes written through a shared view: told once the slice ends */
static void par_written(void *o, uint64_t addr, uint32_t len)
{
    GcnGridPar *p = o;
    GcnParView *v = par_view_find(p, addr, len, true);

    if (v) {
        uint64_t va = par_view_va(v);

        par_widen(&v->dirty_lo, addr - va, true);
        par_widen(&v->dirty_hi, addr - va + len, false);
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->mem->written(p->mem->opaque, addr, len);
    pthread_mutex_unlock(&p->lock);
}

/* The slice is over (its parts are done): what they wrote, told */
static void par_views_end(GcnGridPar *p)
{
    for (uint32_t i = 0; i < p->nused; i++) {
        GcnParView *v = &p->views[p->used[i]];

        if (v->dirty_hi > v->dirty_lo) {
            p->mem->written(p->mem->opaque,
                            par_view_va(v) + v->dirty_lo,
                            v->dirty_hi - v->dirty_lo);
        }
    }
}

static void par_interrupt(void *o, uint32_t m0)
{
    GcnGridPar *p = o;

    pthread_mutex_lock(&p->lock);
    p->mem->interrupt(p->mem->opaque, m0);
    pthread_mutex_unlock(&p->lock);
}

/*
 * The slice's work is the parts' together (parts x slice): one thread
 * the host keeps waiting does not hold the others up, they do its share
 */
static uint64_t par_left(GcnGridPar *p)
{
    uint64_t spent = __atomic_load_n(&p->spent, __ATOMIC_RELAXED);

    return spent < p->budget ? p->budget - spent : 0;
}

static void par_spend(GcnGridPar *p, uint64_t work)
{
    __atomic_fetch_add(&p->spent, work, __ATOMIC_RELAXED);
}

/*
 * Part @i of a parallel slice: its workgroup in flight, then others in
 * flight nobody took, then new ones, until the slice's work is done,
 * all are taken, or a part failed
 */
static void grid_par_part(void *opaque, unsigned i)
{
    GcnGridPar *p = opaque;
    HsaGpuGcnRun *r = p->slot[i];
    /*
     * on this thread's stack: the interpreter counts into them at every
     * instruction, and the parts' would share cache lines in p
     */
    HsaGpuGcnGridStats acc_own = { 0 }, *acc = &acc_own;
    HsaGpuGcnStatus st_own = { 0 }, *st = &st_own;
    HsaGpuGcnViews views = { 0 };      /* kept from workgroup to workgroup */
    unsigned err = 0;
    bool first = true;          /* a part takes one whatever is left */

    for (;;) {
        uint64_t left;

        if (!hsagpu_gcn_run_active(r)) {
            uint64_t w = 0;
            bool fresh = false, over;

            over = __atomic_load_n(&p->stop, __ATOMIC_RELAXED) ||
                   (!first && !par_left(p));
            first = false;
            if (!over && __atomic_load_n(&p->ntodo, __ATOMIC_ACQUIRE)) {
                pthread_mutex_lock(&p->lock);
                if (p->ntodo) {
                    /* taken up: its object and this one change places */
                    HsaGpuGcnRun *t = p->todo[--p->ntodo];

                    p->todo[p->ntodo] = r;
                    r = t;
                } else {
                    fresh = true;
                }
                pthread_mutex_unlock(&p->lock);
            } else {
                fresh = !over;
            }
            if (fresh) {
                /* the next not started, without the lock */
                w = __atomic_fetch_add(&p->claim, 1, __ATOMIC_RELAXED);
                over = w >= p->total;
            }
            if (over) {
                break;
            }
            if (fresh) {
                uint32_t id[3];

                grid_id(w, p->nwg, id);
                err = hsagpu_gcn_run_start(r, p->d, id[0], id[1], id[2], st);
                acc->waves += err ? 0 : st->waves;
                acc->work += st->work;
                acc->cleared += st->cleared;
                par_spend(p, st->work);
                if (err) {
                    break;
                }
                if (!par_left(p)) {
                    break;          /* set up; its waves run next slice */
                }
            }
        }
        left = par_left(p) ? par_left(p) : 1;
        err = hsagpu_gcn_run_resume_views(r, &p->wrap, p->d,
                                          left < GRID_PAR_CHUNK ? left
                                                              : GRID_PAR_CHUNK,
                                          p->wave_max, &views, st);
        acc->work += st->work;
        par_spend(p, st->work);
        acc->insns += st->insns;
        acc->lane_ops += st->lane_ops;
        acc->vgpr_oor += st->vgpr_oor;
        if (err == HSAGPU_GCN_PAUSED) {
            err = 0;
            if (!par_left(p) || __atomic_load_n(&p->stop, __ATOMIC_RELAXED)) {
                break;
            }
            continue;
        }
        if (err) {
            if (err == HSAGPU_GCN_GWS_WAIT) {
                /* no GWS here (grid_can_par): as if refused */
                err = HSAGPU_GCN_GWS_STUCK;
                st->what = "a GWS wait on a dispatch without GWS";
            }
            break;
        }
    }
    hsagpu_gcn_views_end(&views, &p->wrap);
    p->slot[i] = r;
    p->err[i] = err;
    p->acc[i] = acc_own;
    p->st[i] = st_own;
    if (err) {
        pthread_mutex_lock(&p->lock);
        p->stop = true;
        pthread_mutex_unlock(&p->lock);
    }
}
/*
 * The parts' lock is held for a callback at a time: a waiter spins a
 * little before it sleeps (a sleep and a wake-up are system calls, each
 * longer than most callbacks)
 */
static void grid_par_lock_init(pthread_mutex_t *m)
{
    pthread_mutexattr_t a;

    pthread_mutexattr_init(&a);
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
    pthread_mutex_init(m, &a);
    pthread_mutexattr_destroy(&a);
}

/* @runs[0..@n) with those in flight first, in order: how many are */
static uint32_t grid_actives_first(HsaGpuGcnRun **runs, uint32_t n)
{
    uint32_t k = 0;

    for (uint32_t i = 0; i < n; i++) {
        if (hsagpu_gcn_run_active(runs[i])) {
            HsaGpuGcnRun *r = runs[i];

            memmove(runs + k + 1, runs + k, (i - k) * sizeof(*runs));
            runs[k++] = r;
        }
    }
    return k;
}

/*
 * A slice on @parts threads of g->pool (several may be in flight from
 * before: a pool's of any size, a migrated grid's). Each part keeps its
 * own count of the work against @slice; the stats add up into @acc.
 */
static unsigned grid_run_par(HsaGpuGcnGrid *g, uint64_t *next,
                             const uint64_t nwg[3], uint64_t total,
                             const HsaGpuGcnMem *mem,
                             const HsaGpuGcnDispatch *d,
                             HsaGpuGcnPrivBudget *b, uint64_t slice,
                             uint64_t wave_max, HsaGpuGcnStatus *st,
                             HsaGpuGcnGridStats *acc, unsigned parts)
{
    GcnGridPar p = {
        .mem = mem, .d = d, .total = total,
        .wave_max = wave_max, .nwg = nwg,
        .wrap = {
            .read = par_read, .write = par_write, .atomic = par_atomic,
            .now_ns = mem->now_ns ? par_now : NULL,
            .interrupt = mem->interrupt ? par_interrupt : NULL,
            /* loads and stores through views take no lock */
            .host = mem->host ? par_host : NULL,
            .written = mem->host ? par_written : NULL,
        },
    };
    uint32_t nobj, nactive;
    HsaGpuGcnRun **all;
    unsigned err = 0, failed = parts;
    bool busy = false;

    p.wrap.opaque = &p;
    if (g->nmore + 1 < parts) {
        g->more = g_renew(HsaGpuGcnRun *, g->more, parts - 1);
        while (g->nmore + 1 < parts) {
            g->more[g->nmore] = hsagpu_gcn_run_new();
            hsagpu_gcn_run_set_budget(g->more[g->nmore++], b);
        }
    }
    nobj = g->nmore + 1;
    all = g_new0(HsaGpuGcnRun *, nobj);
    p.acc = g_new0(HsaGpuGcnGridStats, parts);
    p.st = g_new0(HsaGpuGcnStatus, parts);
    p.err = g_new0(unsigned, parts);
    all[0] = g->run;
    memcpy(all + 1, g->more, g->nmore * sizeof(*all));
    /*
     * Those in flight first: one a part (slot), the rest to be taken up
     * (todo, where a part that takes one leaves its own object), then
     * the objects kept for reuse
     */
    nactive = grid_actives_first(all, nobj);
    p.slot = all;
    p.todo = all + parts;
    p.ntodo = nactive > parts ? nactive - parts : 0;
    p.claim = *next;
    p.budget = slice > UINT64_MAX / parts ? UINT64_MAX : slice * parts;
    if (mem->host) {
        p.views = g_new0(GcnParView, GRID_VIEWS);
        p.used = g_new0(uint32_t, GRID_VIEWS);
    }
    grid_par_lock_init(&p.lock);
    hsagpu_gcn_pool_run(g->pool, parts, grid_par_part, &p);
    pthread_mutex_destroy(&p.lock);
    if (mem->host) {
        par_views_end(&p);
        g_free(p.views);
        g_free(p.used);
    }
    /* each part that found none claimed one past the end */
    *next = p.claim < total ? p.claim : total;
    /* every object back, those in flight first (run is one if any is) */
    grid_actives_first(all, nobj);
    g->run = all[0];
    memcpy(g->more, all + 1, g->nmore * sizeof(*all));
    for (unsigned i = 0; i < parts; i++) {
        acc->insns += p.acc[i].insns;
        acc->lane_ops += p.acc[i].lane_ops;
        acc->vgpr_oor += p.acc[i].vgpr_oor;
        acc->work += p.acc[i].work;
        acc->cleared += p.acc[i].cleared;
        acc->waves += p.acc[i].waves;
        if (p.err[i] && failed == parts) {
            failed = i;
        }
    }
    if (failed < parts) {
        err = p.err[failed];
        *st = p.st[failed];
    }
    busy = hsagpu_gcn_run_active(g->run) || *next < total;
    g_free(all);
    g_free(p.acc);
    g_free(p.st);
    g_free(p.err);
    if (err) {
        hsagpu_gcn_grid_stop(g);
        return err;
    }
    return busy ? HSAGPU_GCN_PAUSED : 0;
}

/* May this slice run on several threads, and on how many: 0, not */
static unsigned grid_can_par(const HsaGpuGcnGrid *g, uint64_t next,
                             uint64_t total, const HsaGpuGcnDispatch *d)
{
    uint64_t work = (hsagpu_gcn_run_active(g->run) ? 1 : 0) +
                    grid_more_active(g) + (total - next);
    unsigned size = hsagpu_gcn_pool_size(g->pool);

    if (size < 2 && !grid_more_active(g)) {
        return 0;
    }
    /*
     * GWS turns and scratch slots follow the serial order; one
     * workgroup in all needs no other thread
     */
    if ((d->gws && d->gws->num) || d->scratch_va || g->nwait ||
        g->from_wait) {
        return 0;
    }
    if (work < 2 && !grid_more_active(g)) {
        return 0;
    }
    return work < size ? (unsigned)work : size;
}

/* A slice on the caller's thread, in order; @views across workgroups */
static unsigned grid_run_serial(HsaGpuGcnGrid *g, uint64_t *next,
                                const uint64_t nwg[3], uint64_t total,
                                const HsaGpuGcnMem *mem,
                                const HsaGpuGcnDispatch *d,
                                HsaGpuGcnPrivBudget *b, uint64_t slice,
                                uint64_t wave_max, HsaGpuGcnStatus *st,
                                HsaGpuGcnGridStats *acc, HsaGpuGcnViews *views)
{
    unsigned err;

    while (*next < total || g->nwait || hsagpu_gcn_run_active(g->run)) {
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
            uint32_t id[3];

            grid_id(*next, nwg, id);
            g->from_wait = false;
            err = hsagpu_gcn_run_start(g->run, d, id[0], id[1], id[2], st);
            acc->waves += err ? 0 : st->waves;
            acc->work += st->work;
            acc->cleared += st->cleared;
            if (!err) {
                (*next)++;
                if (acc->work >= slice) {
                    return HSAGPU_GCN_PAUSED;   /* its waves run next */
                }
            }
        } else {
            err = 0;
        }
        if (!err) {
            err = hsagpu_gcn_run_resume_views(g->run, mem, d,
                                              acc->work < slice ?
                                              slice - acc->work : 1,
                                              wave_max, views, st);
            acc->work += st->work;
            acc->insns += st->insns;
            acc->lane_ops += st->lane_ops;
            acc->vgpr_oor += st->vgpr_oor;
        }
        if (err == HSAGPU_GCN_PAUSED) {
            return err;                     /* in the middle of a wave */
        }
        if (err == HSAGPU_GCN_GWS_WAIT) {
            err = grid_park(g, st->insns, b, &st->what);
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
        g->from_wait = false;
        if (acc->work >= slice && (*next < total || g->nwait)) {
            return HSAGPU_GCN_PAUSED;
        }
    }
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
    HsaGpuGcnViews views = { 0 };
    unsigned err, parts;

    if (!g->run) {
        g->run = hsagpu_gcn_run_new();
        hsagpu_gcn_run_set_budget(g->run, b);
    }
    if (!grid_check_flight(g, next, nwg, total)) {
        st->what = "a workgroup in flight that was not started";
        hsagpu_gcn_grid_stop(g);
        return HSAGPU_GCN_BAD_KD;
    }
    parts = grid_can_par(g, *next, total, d);
    if (parts) {
        return grid_run_par(g, next, nwg, total, mem, d, b, slice, wave_max,
                            st, acc, parts);
    }
    if ((d->gws && d->gws->num) || d->scratch_va) {
        /* several in flight (a pool's) cannot go on in the serial order */
        if (grid_more_active(g)) {
            st->what = "workgroups in flight on several threads for a "
                       "dispatch that runs on one";
            hsagpu_gcn_grid_stop(g);
            return HSAGPU_GCN_BAD_KD;
        }
    }
    err = grid_run_serial(g, next, nwg, total, mem, d, b, slice, wave_max, st,
                          acc, &views);
    hsagpu_gcn_views_end(&views, mem);
    return err;
}

static void grid_put(uint8_t **p, const void *v, size_t n)
{
    memcpy(*p, v, n);
    *p += n;
}

/*
 * @head (@hlen bytes), then each of the @n workgroups @runs as its length
 * and its bytes, into *@buf: the length
 */
static size_t grid_pack(const HsaGpuGcnRun *const *runs, uint32_t n,
                        const uint32_t *head, size_t hlen, uint8_t **buf)
{
    uint8_t **bufs = g_new0(uint8_t *, n), *p;
    size_t *lens = g_new0(size_t, n), len = hlen;

    for (uint32_t i = 0; i < n; i++) {
        lens[i] = hsagpu_gcn_run_save(runs[i], &bufs[i]);
        len += 4 + lens[i];
    }
    *buf = p = g_malloc(len);
    grid_put(&p, head, hlen);
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

size_t hsagpu_gcn_grid_save(const HsaGpuGcnGrid *g, uint8_t **buf)
{
    bool cur = hsagpu_gcn_run_active(g->run);
    uint32_t more = grid_more_active(g), n = 0, head[4];
    const HsaGpuGcnRun **runs;
    size_t len;

    *buf = NULL;
    if (!g->nwait && cur + more < 2) {
        /* one alone (or none): its own bytes */
        for (uint32_t i = 0; i <= g->nmore; i++) {
            const HsaGpuGcnRun *r = i ? g->more[i - 1] : g->run;

            if (hsagpu_gcn_run_active(r)) {
                return hsagpu_gcn_run_save(r, buf);
            }
        }
        return 0;
    }
    runs = g_new0(const HsaGpuGcnRun *, 1 + g->nmore + g->nwait);
    if (!g->nwait) {
        /* several in flight on a pool (never with GWS) */
        for (uint32_t i = 0; i <= g->nmore; i++) {
            const HsaGpuGcnRun *r = i ? g->more[i - 1] : g->run;

            if (hsagpu_gcn_run_active(r)) {
                runs[n++] = r;
            }
        }
        head[0] = HSAGPU_GCN_MULTI_MAGIC;
        head[1] = n;
        len = grid_pack(runs, n, head, 2 * sizeof(head[0]), buf);
    } else {
        if (cur) {
            runs[n++] = g->run;
        }
        for (uint32_t i = 0; i < g->nwait; i++) {
            runs[n++] = g->wait[i];
        }
        head[0] = HSAGPU_GCN_WAIT_MAGIC;
        head[1] = g->from_wait | cur << 1;
        head[2] = g->stalls;
        head[3] = g->nwait;
        len = grid_pack(runs, n, head, sizeof(head), buf);
    }
    g_free(runs);
    return len;
}

/*
 * @n workgroups from @p..@end, each as its length and its bytes, into
 * @runs: the bytes after them, or NULL (none kept) when they are not
 * that
 */
static const uint8_t *grid_unpack(const uint8_t *p, const uint8_t *end,
                                  uint32_t n, HsaGpuGcnRun **runs)
{
    uint32_t got = 0;

    while (got < n) {
        uint32_t l = 0;

        if (end - p < 4) {
            break;
        }
        memcpy(&l, p, 4);
        p += 4;
        if ((size_t)(end - p) < l) {
            break;
        }
        runs[got] = hsagpu_gcn_run_load(p, l);
        if (!runs[got]) {
            break;
        }
        got++;
        p += l;
    }
    if (got < n) {
        for (uint32_t i = 0; i < got; i++) {
            hsagpu_gcn_run_free(runs[i]);
        }
        return NULL;
    }
    return p;
}

/*
 * The HSAGPU_GCN_WAIT_MAGIC form of @p..@end (what _save makes, and
 * nothing else): the workgroup in flight into *@cur, the waiting ones
 * into @g; false, with nothing kept, when the bytes are not that
 */
static bool grid_load_waiting(HsaGpuGcnGrid *g, const uint8_t *p,
                              const uint8_t *end, HsaGpuGcnRun **cur)
{
    HsaGpuGcnRun **all;
    uint32_t head[4], n, active;

    if (end - p < (ptrdiff_t)sizeof(head)) {
        return false;
    }
    memcpy(head, p, sizeof(head));
    p += sizeof(head);
    if (head[1] > 3 || ((head[1] & 1) && !(head[1] & 2)) || !head[3] ||
        head[3] > GRID_RES_WAVES) {
        return false;
    }
    active = head[1] >> 1;
    n = head[3] + active;
    all = g_new0(HsaGpuGcnRun *, n);
    p = grid_unpack(p, end, n, all);
    if (p != end) {
        if (p) {
            for (uint32_t i = 0; i < n; i++) {
                hsagpu_gcn_run_free(all[i]);
            }
        }
        g_free(all);
        return false;
    }
    *cur = active ? all[0] : NULL;
    g->nwait = head[3];
    g->wait = g_new0(HsaGpuGcnRun *, g->nwait);
    memcpy(g->wait, all + active, g->nwait * sizeof(*all));
    g->from_wait = head[1] & 1;
    g->stalls = head[2];
    g_free(all);
    return true;
}

/*
 * The HSAGPU_GCN_MULTI_MAGIC form of @p..@end: the first into *@cur, the
 * others into g->more; false, with nothing kept, when the bytes are not
 * that
 */
static bool grid_load_multi(HsaGpuGcnGrid *g, const uint8_t *p,
                            const uint8_t *end, HsaGpuGcnRun **cur)
{
    HsaGpuGcnRun **all;
    uint32_t head[2];

    if (end - p < (ptrdiff_t)sizeof(head)) {
        return false;
    }
    memcpy(head, p, sizeof(head));
    p += sizeof(head);
    if (head[1] < 2 || head[1] > HSAGPU_GCN_INFLIGHT_MAX) {
        return false;
    }
    all = g_new0(HsaGpuGcnRun *, head[1]);
    p = grid_unpack(p, end, head[1], all);
    if (p != end) {
        if (p) {
            for (uint32_t i = 0; i < head[1]; i++) {
                hsagpu_gcn_run_free(all[i]);
            }
        }
        g_free(all);
        return false;
    }
    *cur = all[0];
    g->nmore = head[1] - 1;
    g->more = g_new0(HsaGpuGcnRun *, g->nmore);
    memcpy(g->more, all + 1, g->nmore * sizeof(*all));
    g_free(all);
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
    if (buf && magic == HSAGPU_GCN_MULTI_MAGIC) {
        if (!grid_load_multi(g, buf, buf + len, &r)) {
            return false;
        }
    } else if (buf && magic == HSAGPU_GCN_WAIT_MAGIC) {
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
