/*
 * hsa-gpu: PCIe link timing model, independent of QEMU. The arithmetic
 * is documented in docs/link-model.md; hsagpu-link.c builds the paths
 * from the PCIe hierarchy and feeds the DMA engine's bytes in.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stddef.h>
#include <string.h>
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-link.h"

/* Below this many wire bytes a backlog is empty (rounding). */
#define HSAGPU_LINK_EPS 0.000001
/* A channel or cap this close to its rate is full (rounding). */
#define HSAGPU_LINK_FULL 0.999999999999

double hsagpu_link_lane_rate(unsigned gts_x10)
{
    switch (gts_x10) {
    case 25:                    /* 8b/10b */
        return 2.5 * 8 / 10 / 8;
    case 50:
        return 5.0 * 8 / 10 / 8;
    case 80:                    /* 128b/130b */
        return 8.0 * 128 / 130 / 8;
    case 160:
        return 16.0 * 128 / 130 / 8;
    case 320:
        return 32.0 * 128 / 130 / 8;
    case 640:                   /* FLIT mode: 236 of 256 bytes carry TLPs */
        return 64.0 * 236 / 256 / 8;
    default:
        return 0;
    }
}

unsigned hsagpu_link_tlp_overhead(uint64_t addr)
{
    /* The spec requires the 3DW format below 4 GiB. */
    return HSAGPU_LINK_TLP_FRAMING +
           (addr >> 32 ? HSAGPU_LINK_HDR_4DW : HSAGPU_LINK_HDR_3DW);
}

double hsagpu_link_wire(uint64_t addr, uint64_t len, uint32_t max,
                        unsigned overhead, double *last)
{
    uint64_t ntlp, tail;

    if (!len) {
        *last = 0;
        return 0;
    }
    ntlp = (addr + len - 1) / max - addr / max + 1;
    tail = (addr + len) % max ? (addr + len) % max : max;
    *last = (double)MIN(tail, len) + overhead;
    return (double)len + (double)ntlp * overhead;
}

static HsaGpuLinkFlow *hsagpu_link_flow(HsaGpuLinkModel *m, uint32_t id)
{
    if (!id) {
        return NULL;
    }
    for (unsigned i = 0; i < HSAGPU_LINK_FLOWS_MAX; i++) {
        if (m->fl[i].id == id) {
            return &m->fl[i];
        }
    }
    return NULL;
}

static bool hsagpu_link_active(const HsaGpuLinkFlow *f)
{
    return f->id && f->queued - f->drained > HSAGPU_LINK_EPS;
}

static void hsagpu_link_flow_free(HsaGpuLinkModel *m, HsaGpuLinkFlow *f)
{
    m->stale = true;
    for (unsigned i = 0; i < f->nch; i++) {
        m->ch[f->ch[i]].users--;
    }
    memset(f, 0, sizeof(*f));
}

/* A released flow with nothing left to send or to tell is gone. */
static void hsagpu_link_gc(HsaGpuLinkModel *m, HsaGpuLinkFlow *f)
{
    if (!f->released || hsagpu_link_active(f)) {
        return;
    }
    for (unsigned k = 0; k < HSAGPU_LINK_MARKS_MAX; k++) {
        if (f->mark[k].id) {
            return;
        }
    }
    hsagpu_link_flow_free(m, f);
}

/*
 * Max-min fair rates by progressive filling: every flow with a backlog
 * grows at the same pace until a channel it crosses is full or its own
 * cap is reached; then it keeps that rate and the others go on.
 */
static void hsagpu_link_rates(HsaGpuLinkModel *m)
{
    unsigned left = 0;

    if (!m->stale) {
        return;
    }
    m->stale = false;

    for (unsigned c = 0; c < HSAGPU_LINK_CHANS_MAX; c++) {
        m->ch[c].load = 0;
        m->ch[c].open = 0;
    }
    for (unsigned i = 0; i < HSAGPU_LINK_FLOWS_MAX; i++) {
        HsaGpuLinkFlow *f = &m->fl[i];

        f->rate = 0;
        f->frozen = !hsagpu_link_active(f);
        if (!f->frozen) {
            left++;
            for (unsigned k = 0; k < f->nch; k++) {
                m->ch[f->ch[k]].open++;
            }
        }
    }
    while (left) {
        double inc = -1;

        for (unsigned c = 0; c < HSAGPU_LINK_CHANS_MAX; c++) {
            const HsaGpuLinkChan *ch = &m->ch[c];

            if (ch->open) {
                double d = MAX(ch->rate - ch->load, 0) / ch->open;

                inc = inc < 0 ? d : MIN(inc, d);
            }
        }
        for (unsigned i = 0; i < HSAGPU_LINK_FLOWS_MAX; i++) {
            const HsaGpuLinkFlow *f = &m->fl[i];

            if (!f->frozen && f->cap > 0) {
                double d = MAX(f->cap - f->rate, 0);

                inc = inc < 0 ? d : MIN(inc, d);
            }
        }
        if (inc < 0) {
            inc = 0;            /* no channel and no cap: cannot happen */
        }
        for (unsigned i = 0; i < HSAGPU_LINK_FLOWS_MAX; i++) {
            HsaGpuLinkFlow *f = &m->fl[i];

            if (!f->frozen) {
                f->rate += inc;
                for (unsigned k = 0; k < f->nch; k++) {
                    m->ch[f->ch[k]].load += inc;
                }
            }
        }
        for (unsigned i = 0; i < HSAGPU_LINK_FLOWS_MAX; i++) {
            HsaGpuLinkFlow *f = &m->fl[i];
            bool stop = f->cap > 0 && f->rate >= f->cap * HSAGPU_LINK_FULL;

            if (f->frozen) {
                continue;
            }
            for (unsigned k = 0; k < f->nch && !stop; k++) {
                const HsaGpuLinkChan *ch = &m->ch[f->ch[k]];

                stop = ch->load >= ch->rate * HSAGPU_LINK_FULL;
            }
            if (stop || inc == 0) {
                f->frozen = true;
                left--;
                for (unsigned k = 0; k < f->nch; k++) {
                    m->ch[f->ch[k]].open--;
                }
            }
        }
    }
}

void hsagpu_link_advance(HsaGpuLinkModel *m, uint64_t now_ns)
{
    double target = (double)now_ns;

    while (m->now < target) {
        double dt = target - m->now;
        bool any = false;

        hsagpu_link_rates(m);
        /* Step to the next event: a backlog empties or a mark is reached. */
        for (unsigned i = 0; i < HSAGPU_LINK_FLOWS_MAX; i++) {
            const HsaGpuLinkFlow *f = &m->fl[i];

            if (!hsagpu_link_active(f) || f->rate <= 0) {
                continue;
            }
            any = true;
            dt = MIN(dt, (f->queued - f->drained) / f->rate);
            for (unsigned k = 0; k < HSAGPU_LINK_MARKS_MAX; k++) {
                const HsaGpuLinkMark *mk = &f->mark[k];

                if (mk->id && !mk->crossed && mk->pos > f->drained) {
                    dt = MIN(dt, (mk->pos - f->drained) / f->rate);
                }
            }
        }
        if (!any) {
            m->now = target;
            break;
        }
        m->now += dt;
        for (unsigned i = 0; i < HSAGPU_LINK_FLOWS_MAX; i++) {
            HsaGpuLinkFlow *f = &m->fl[i];

            if (!hsagpu_link_active(f) || f->rate <= 0) {
                continue;
            }
            f->drained = MIN(f->drained + f->rate * dt, f->queued);
            if (f->queued - f->drained <= HSAGPU_LINK_EPS) {
                /* ran dry: its share goes to the others */
                f->drained = f->queued;
                m->stale = true;
            }
            for (unsigned k = 0; k < HSAGPU_LINK_MARKS_MAX; k++) {
                HsaGpuLinkMark *mk = &f->mark[k];

                if (mk->id && !mk->crossed &&
                    mk->pos <= f->drained + HSAGPU_LINK_EPS) {
                    mk->crossed = true;
                    mk->done = m->now;
                }
            }
            hsagpu_link_gc(m, f);
        }
    }
}

static int hsagpu_link_chan(HsaGpuLinkModel *m, const HsaGpuLinkHop *h)
{
    int slot = -1;

    for (unsigned c = 0; c < HSAGPU_LINK_CHANS_MAX; c++) {
        if (m->ch[c].users && m->ch[c].key == h->key) {
            m->ch[c].rate = h->rate;    /* the latest word on the link */
            return c;
        }
        if (!m->ch[c].users && slot < 0) {
            slot = c;
        }
    }
    if (slot >= 0) {
        m->ch[slot].key = h->key;
        m->ch[slot].rate = h->rate;
    }
    return slot;
}

uint32_t hsagpu_link_flow_new(HsaGpuLinkModel *m, const HsaGpuLinkPath *p,
                              const void *owner, uint64_t start_ns)
{
    HsaGpuLinkFlow *f = NULL;

    if (!p->nhops || p->nhops > HSAGPU_LINK_PATH_MAX) {
        return 0;
    }
    for (unsigned i = 0; i < p->nhops; i++) {
        if (!(p->hop[i].rate > 0)) {
            return 0;
        }
    }
    hsagpu_link_advance(m, start_ns);
    for (unsigned i = 0; i < HSAGPU_LINK_FLOWS_MAX && !f; i++) {
        f = m->fl[i].id ? NULL : &m->fl[i];
    }
    if (!f) {
        return 0;
    }
    for (unsigned i = 0; i < p->nhops; i++) {
        int c = hsagpu_link_chan(m, &p->hop[i]);

        if (c < 0) {
            hsagpu_link_flow_free(m, f);
            return 0;
        }
        m->ch[c].users++;
        f->ch[f->nch++] = c;
        if (i) {
            f->ser_tail += 1 / p->hop[i].rate;
        }
    }
    m->stale = true;
    f->owner = owner;
    f->latency = p->latency;
    f->cap = p->cap;
    if (!++m->next_id) {
        m->next_id = 1;
    }
    f->id = m->next_id;
    return f->id;
}

void hsagpu_link_flow_add(HsaGpuLinkModel *m, uint32_t id, double wire)
{
    HsaGpuLinkFlow *f = hsagpu_link_flow(m, id);

    if (f && wire > 0) {
        m->stale |= !hsagpu_link_active(f);
        f->queued += wire;
    }
}

uint64_t hsagpu_link_mark(HsaGpuLinkModel *m, uint32_t id, double last_tlp)
{
    HsaGpuLinkFlow *f = hsagpu_link_flow(m, id);
    HsaGpuLinkMark *mk = NULL;

    if (!f) {
        return 0;
    }
    for (unsigned k = 0; k < HSAGPU_LINK_MARKS_MAX; k++) {
        HsaGpuLinkMark *c = &f->mark[k];

        /* Full: the oldest goes; its packet keeps its projected time. */
        if (!c->id) {
            mk = c;
            break;
        }
        if (!mk || c->id < mk->id) {
            mk = c;
        }
    }
    if (!++m->next_mark) {
        m->next_mark = 1;
    }
    mk->id = (uint64_t)id << 32 | m->next_mark;
    mk->pos = f->queued;
    mk->tail = f->latency + last_tlp * f->ser_tail;
    mk->crossed = f->queued - f->drained <= HSAGPU_LINK_EPS;
    mk->done = m->now;
    return mk->id;
}

bool hsagpu_link_mark_when(HsaGpuLinkModel *m, uint64_t mark,
                           uint64_t now_ns, uint64_t *when)
{
    HsaGpuLinkFlow *f;
    HsaGpuLinkMark *mk = NULL;
    double t;

    hsagpu_link_advance(m, now_ns);
    f = hsagpu_link_flow(m, mark >> 32);
    for (unsigned k = 0; f && k < HSAGPU_LINK_MARKS_MAX && !mk; k++) {
        mk = f->mark[k].id == mark ? &f->mark[k] : NULL;
    }
    if (!mk) {
        *when = 0;
        return true;
    }
    if (mk->crossed) {
        t = mk->done + mk->tail;
    } else {
        hsagpu_link_rates(m);
        t = m->now + mk->tail +
            (f->rate > 0 ? (mk->pos - f->drained) / f->rate : 1e6);
    }
    /* A hostile size cannot take this past what a uint64_t holds. */
    *when = (uint64_t)(MIN(t, 1e18) + 0.5);
    if (mk->crossed && *when <= now_ns) {
        memset(mk, 0, sizeof(*mk));
        hsagpu_link_gc(m, f);
        return true;
    }
    return false;
}

void hsagpu_link_flow_cancel(HsaGpuLinkModel *m, uint32_t id)
{
    HsaGpuLinkFlow *f = hsagpu_link_flow(m, id);
    double keep;

    if (!f) {
        return;
    }
    keep = f->drained;
    for (unsigned k = 0; k < HSAGPU_LINK_MARKS_MAX; k++) {
        if (f->mark[k].id) {
            keep = MAX(keep, f->mark[k].pos);
        }
    }
    f->queued = MIN(f->queued, keep);
    m->stale = true;
}

void hsagpu_link_flow_release(HsaGpuLinkModel *m, uint32_t id)
{
    HsaGpuLinkFlow *f = hsagpu_link_flow(m, id);

    if (f) {
        f->released = true;
        hsagpu_link_gc(m, f);
    }
}

void hsagpu_link_drop_owner(HsaGpuLinkModel *m, const void *owner)
{
    for (unsigned i = 0; i < HSAGPU_LINK_FLOWS_MAX; i++) {
        if (m->fl[i].id && m->fl[i].owner == owner) {
            hsagpu_link_flow_free(m, &m->fl[i]);
        }
    }
}

double hsagpu_link_flow_rate(HsaGpuLinkModel *m, uint32_t id)
{
    HsaGpuLinkFlow *f = hsagpu_link_flow(m, id);

    hsagpu_link_rates(m);
    return f ? f->rate : 0;
}
