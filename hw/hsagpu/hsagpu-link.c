/*
 * hsa-gpu: the PCIe link. Max Payload Size and Max Read Request Size
 * (Device Control) size the DMA engine's TLPs; with link-model=on, the
 * DMA engine's transfers also take the time the links would take
 * (hsagpu-link.c, docs/link-model.md): this file turns the PCIe
 * hierarchy above the device into the model's paths and the DMA engine's
 * bytes into wire bytes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/thread.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/pci/pcie.h"
#include "hsagpu.h"
#include "trace.h"

/* One model for the machine: links are shared by all devices. */
static HsaGpuLinkModel *hsagpu_link_model;
static QemuMutex hsagpu_link_lock;

/* Where host memory is: the other end of a path to the root complex. */
static const char hsagpu_link_host = 'h';

static uint16_t hsagpu_devctl(HsaGpuState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    return pdev->exp.exp_cap ?
           pci_get_word(pdev->config + pdev->exp.exp_cap + PCI_EXP_DEVCTL) : 0;
}

/* Link Capabilities: its speed (as GT/s x 10) and width; 0 when unknown. */
static void hsagpu_link_cap(PCIDevice *d, unsigned *gts_x10, unsigned *width)
{
    static const unsigned gts[] = { 0, 25, 50, 80, 160, 320, 640 };
    uint32_t cap;
    unsigned sls;

    *gts_x10 = *width = 0;
    if (!pci_is_express(d) || !d->exp.exp_cap) {
        return;
    }
    cap = pci_get_long(d->config + d->exp.exp_cap + PCI_EXP_LNKCAP);
    sls = cap & PCI_EXP_LNKCAP_SLS;
    *gts_x10 = sls < ARRAY_SIZE(gts) ? gts[sls] : 0;
    *width = (cap & PCI_EXP_LNKCAP_MLW) >> 4;
}

/*
 * The link between downstream port @port and @child, trained as the
 * guest reads it in the port's Link Status (QEMU's pcie_sync_bridge_lnk:
 * the lesser of both ends): wire bytes per ns in one direction.
 */
static double hsagpu_link_rate(HsaGpuState *s, PCIDevice *port,
                               PCIDevice *child)
{
    unsigned sp, wp, sc, wc;

    hsagpu_link_cap(port, &sp, &wp);
    hsagpu_link_cap(child, &sc, &wc);
    return MIN(wp, wc) * hsagpu_link_lane_rate(MIN(sp, sc)) *
           s->params.link_efficiency / 1000.0;
}

/*
 * The device's way to the root complex, from its own link up: the links
 * (named by their downstream port) and the switch above each one (named
 * by its upstream port; none above the root port's link).
 */
static void hsagpu_link_chain(HsaGpuState *s)
{
    PCIDevice *ports[HSAGPU_MAX_PORTS];
    PCIDevice *child = PCI_DEVICE(s);
    HsaGpuLinkChain *ch = &s->link_chain;
    int n = hsagpu_ports_above(child, ports);

    memset(ch, 0, sizeof(*ch));
    for (int i = 0; i < n; i++) {
        PCIDevice *p = ports[i];
        int type = pci_is_express(p) && p->exp.exp_cap ?
                   pcie_cap_get_type(p) : -1;

        if (type == PCI_EXP_TYPE_DOWNSTREAM || type == PCI_EXP_TYPE_ROOT_PORT) {
            ch->key[ch->n] = (uintptr_t)p;
            ch->rate[ch->n] = hsagpu_link_rate(s, p, child);
            ch->n++;
        } else if (type == PCI_EXP_TYPE_UPSTREAM && ch->n) {
            ch->sw[ch->n - 1] = (uintptr_t)p;
            child = p;
        }
        /* A conventional PCI bridge is not a link: it is not modelled. */
    }
}

bool hsagpu_link_init(HsaGpuState *s, int exp_pos, Error **errp)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    pcie_cap_fill_link_ep_usp(pdev, s->params.link_width, s->params.link_speed);
    pci_long_test_and_set_mask(pdev->config + exp_pos + PCI_EXP_DEVCAP,
                               ctz32(s->params.max_payload / 128));
    pci_word_test_and_set_mask(pdev->wmask + exp_pos + PCI_EXP_DEVCTL,
                               PCI_EXP_DEVCTL_PAYLOAD | PCI_EXP_DEVCTL_READRQ);
    hsagpu_link_reset(s);
    if (s->params.link_model) {
        if (!hsagpu_link_model) {
            qemu_mutex_init(&hsagpu_link_lock);
            hsagpu_link_model = g_new0(HsaGpuLinkModel, 1);
        }
        hsagpu_link_chain(s);
        if (!s->link_chain.n) {
            error_setg(errp, "hsa-gpu: link-model=on needs the device below a "
                       "PCIe port (on a root bus it has no link to time)");
            return false;
        }
        s->link_q = g_new0(HsaGpuLinkQueue, s->params.num_queues);
    }
    return true;
}

bool hsagpu_link_check(HsaGpuState *s, Error **errp)
{
    if (s->params.max_payload < 128 || s->params.max_payload > 4096 ||
        !is_power_of_2(s->params.max_payload)) {
        error_setg(errp, "hsa-gpu: max-payload must be a power of two "
                   "between 128 and 4096 (got %u)", s->params.max_payload);
        return false;
    }
    if (s->params.link_efficiency < 1 || s->params.link_efficiency > 1000) {
        error_setg(errp, "hsa-gpu: link-efficiency is in per mille, 1 to "
                   "1000 (got %u)", s->params.link_efficiency);
        return false;
    }
    if (s->params.link_read_tags < 1 || s->params.link_read_tags > 256) {
        error_setg(errp, "hsa-gpu: link-read-tags must be between 1 and 256 "
                   "(got %u)", s->params.link_read_tags);
        return false;
    }
    return true;
}

/*
 * Forget the device's transfers (reset, unplug): nothing waits on them.
 * qlock held, or the processor stopped.
 */
static void hsagpu_link_drop(HsaGpuState *s)
{
    if (!s->link_q) {
        return;
    }
    qemu_mutex_lock(&hsagpu_link_lock);
    hsagpu_link_drop_owner(hsagpu_link_model, s);
    qemu_mutex_unlock(&hsagpu_link_lock);
    memset(s->link_q, 0, s->params.num_queues * sizeof(*s->link_q));
}

void hsagpu_link_exit(HsaGpuState *s)
{
    hsagpu_link_drop(s);
    g_free(s->link_q);
    s->link_q = NULL;
}

/* DevCtl MPS 128 B, MRRS 512 B: the values the spec gives at reset. */
void hsagpu_link_reset(HsaGpuState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    uint8_t *devctl = pdev->config + pdev->exp.exp_cap + PCI_EXP_DEVCTL;

    pci_word_test_and_clear_mask(devctl, PCI_EXP_DEVCTL_PAYLOAD |
                                 PCI_EXP_DEVCTL_READRQ);
    pci_word_test_and_set_mask(devctl, PCI_EXP_DEVCTL_READRQ_512B);
    if (s->link_q) {
        hsagpu_qlock(s);
        hsagpu_link_drop(s);
        qemu_mutex_unlock(&s->qlock);
    }
}

uint32_t hsagpu_link_mps(HsaGpuState *s)
{
    uint32_t mps = 128U << ((hsagpu_devctl(s) & PCI_EXP_DEVCTL_PAYLOAD) >> 5);

    /* Above what DevCap offers is a misconfiguration: do what we can. */
    return MIN(mps, s->params.max_payload);
}

uint32_t hsagpu_link_mrrs(HsaGpuState *s)
{
    uint32_t mrrs = 128U << ((hsagpu_devctl(s) & PCI_EXP_DEVCTL_READRQ) >> 12);

    return MIN(mrrs, 4096U);
}

/* Channel @i of @ch: the link, and which way the data goes on it. */
static void hsagpu_link_hop(HsaGpuLinkPath *p, const HsaGpuLinkChain *ch,
                            unsigned i, bool up)
{
    if (p->nhops < HSAGPU_LINK_PATH_MAX) {
        p->hop[p->nhops].key = ch->key[i] | up;     /* pointers: bit 0 free */
        p->hop[p->nhops].rate = ch->rate[i];
        p->nhops++;
    }
}

/*
 * The path data takes between the device and @peer (NULL: host memory),
 * as hops from where the data starts; the switches it crosses.
 */
static unsigned hsagpu_link_route(HsaGpuState *s, HsaGpuState *peer,
                                  bool to_target, HsaGpuLinkPath *p)
{
    const HsaGpuLinkChain *a = &s->link_chain;
    const HsaGpuLinkChain *b = peer ? &peer->link_chain : NULL;
    unsigned na = a->n, nb = b ? b->n : 0, nsw = 0;

    /* The nearest switch above both: the data turns around there. */
    for (unsigned i = 0; b && i < a->n && na == a->n; i++) {
        for (unsigned j = 0; a->sw[i] && j < b->n; j++) {
            if (a->sw[i] == b->sw[j]) {
                na = i + 1;
                nb = j + 1;
                break;
            }
        }
    }
    /*
     * Switches below the turning point on either side, and the turning
     * switch (or the root complex between two root ports); to host
     * memory, every switch above the device.
     */
    for (unsigned i = 0; i < na; i++) {
        nsw += (b ? i + 1 < na : true) && a->sw[i];
    }
    for (unsigned j = 0; j + 1 < nb; j++) {
        nsw += !!b->sw[j];
    }
    nsw += b ? 1 : 0;
    memset(p, 0, sizeof(*p));
    if (to_target) {
        for (unsigned i = 0; i < na; i++) {
            hsagpu_link_hop(p, a, i, true);
        }
        for (unsigned j = nb; j-- > 0;) {
            hsagpu_link_hop(p, b, j, false);
        }
    } else {
        for (unsigned j = 0; j < nb; j++) {
            hsagpu_link_hop(p, b, j, true);
        }
        for (unsigned i = na; i-- > 0;) {
            hsagpu_link_hop(p, a, i, false);
        }
    }
    return nsw;
}

/*
 * A leg of a transfer: writes (posted) to @peer or host memory, or reads
 * from there, whose completions come back. Latency is the one-way trip
 * (both ports, every switch) for a write; a read adds the request's trip
 * and the completer. Caps: read requests in flight, and the root
 * complex's pace for posted writes (one TLP of MPS and @overhead per
 * link-host-write-ns).
 */
static void hsagpu_link_path(HsaGpuState *s, HsaGpuState *peer, bool write,
                             unsigned overhead, HsaGpuLinkPath *p)
{
    unsigned nsw = hsagpu_link_route(s, peer, write, p);
    double oneway = s->params.link_port_ns +
                    (peer ? peer->params.link_port_ns : 0) +
                    (double)nsw * s->params.link_switch_ns;
    uint32_t mps = hsagpu_link_mps(s), mrrs = hsagpu_link_mrrs(s);
    double slowest = 0, last;

    for (unsigned i = 0; i < p->nhops; i++) {
        slowest = i ? MIN(slowest, p->hop[i].rate) : p->hop[i].rate;
    }
    if (write) {
        p->latency = oneway;
        if (!peer && s->params.link_host_write_ns) {
            p->cap = (mps + overhead) / (double)s->params.link_host_write_ns;
        }
        return;
    }
    p->latency = 2 * oneway + (peer ? 0 : s->params.link_host_ns);
    if (slowest > 0) {
        double req = hsagpu_link_wire(0, mrrs, mps, HSAGPU_LINK_CPL_OVERHEAD,
                                      &last);

        p->cap = s->params.link_read_tags * req / (p->latency + req / slowest);
    }
}

/* @len bytes to (@is_write) or from @t, at bus address @bus, on @lq. */
static void hsagpu_link_add(HsaGpuBusCtx *c, HsaGpuLinkQueue *lq,
                            const HsaGpuBusTarget *t, uint64_t bus,
                            uint64_t len, bool is_write)
{
    HsaGpuState *s = c->s;
    const void *target = t->peer ? (const void *)t->peer : &hsagpu_link_host;
    unsigned leg = is_write;
    double wire, last;

    /* Writes go out as TLPs of MPS; reads come back as completions. */
    wire = hsagpu_link_wire(bus, len, hsagpu_link_mps(s),
                            is_write ? hsagpu_link_tlp_overhead(bus)
                                     : HSAGPU_LINK_CPL_OVERHEAD, &last);
    qemu_mutex_lock(&hsagpu_link_lock);
    if (lq->flow[leg] && lq->target[leg] != target) {
        hsagpu_link_flow_release(hsagpu_link_model, lq->flow[leg]);
        lq->flow[leg] = 0;
    }
    if (!lq->flow[leg]) {
        HsaGpuLinkPath p;

        hsagpu_link_path(s, t->peer, is_write,
                         hsagpu_link_tlp_overhead(bus), &p);
        lq->flow[leg] = hsagpu_link_flow_new(hsagpu_link_model, &p, s,
                                             lq->start_ns);
        lq->target[leg] = target;
        trace_hsagpu_link_flow(c->queue, is_write, !!t->peer, p.nhops,
                               (uint64_t)p.latency, (uint64_t)(p.cap * 1000),
                               lq->flow[leg]);
    }
    hsagpu_link_flow_add(hsagpu_link_model, lq->flow[leg], wire);
    qemu_mutex_unlock(&hsagpu_link_lock);
    lq->last[leg] = last;
    lq->moved[leg] = lq->flow[leg] != 0;
}

/* The bus address of @t (the engine may have asked for a GPU VA). */
static uint64_t hsagpu_link_bus(const HsaGpuBusTarget *t)
{
    return t->peer ? hsagpu_vram_bar(t->peer) + t->mr_off : t->bus;
}

/*
 * A COPY or FILL range is known at its start: the whole of it goes into
 * the model then, where its first byte goes, so that its time does not
 * depend on how fast the host moves the data (a slow host cannot make
 * the link look slower). Scatter-gather lists are added as they move.
 */
static void hsagpu_link_prepay(HsaGpuBusCtx *c, HsaGpuLinkQueue *lq,
                               uint64_t addr, uint64_t len, bool is_write)
{
    HsaGpuBusTarget t = { 0 };
    HsaGpuBusRefusal r;

    if (!len || len > HSAGPU_DMA_SIZE_MAX) {
        return;
    }
    RCU_READ_LOCK_GUARD();
    c->client = HSAGPU_VM_CLIENT_DMA;
    c->map_probe = true;
    r = hsagpu_bus_resolve(c, addr, 1, is_write, &t);
    c->map_probe = false;
    if (r == HSAGPU_BUS_OK && t.cls != HSAGPU_BUS_LOCAL) {
        hsagpu_link_add(c, lq, &t, hsagpu_link_bus(&t), len, is_write);
        lq->prepaid[is_write] = true;
    }
    hsagpu_bus_release(c, &t, is_write, 0);
}

bool hsagpu_link_begin(HsaGpuBusCtx *c, uint64_t start_ns,
                       const struct hsagpu_dma_packet *d)
{
    HsaGpuState *s = c->s;
    HsaGpuLinkQueue *lq;

    /* Model off: nothing to check; a malformed packet is not timed. */
    if (!s->link_q || c->queue < 0 || c->queue >= (int)s->params.num_queues ||
        hsagpu_dma_check(d)) {
        return false;
    }
    lq = &s->link_q[c->queue];
    lq->timed = true;
    lq->start_ns = start_ns;
    lq->moved[0] = lq->moved[1] = false;
    lq->prepaid[0] = lq->prepaid[1] = false;
    qemu_mutex_lock(&hsagpu_link_lock);
    hsagpu_link_advance(hsagpu_link_model, start_ns);
    qemu_mutex_unlock(&hsagpu_link_lock);
    if (d->op == HSAGPU_DMA_OP_COPY || d->op == HSAGPU_DMA_OP_FILL) {
        hsagpu_link_prepay(c, lq, d->dst, d->size, true);
        if (d->op == HSAGPU_DMA_OP_COPY) {
            hsagpu_link_prepay(c, lq, d->src, d->size, false);
        }
    }
    return true;
}

void hsagpu_link_move(HsaGpuBusCtx *c, const HsaGpuBusTarget *t,
                      uint64_t len, bool is_write)
{
    HsaGpuState *s = c->s;
    HsaGpuLinkQueue *lq;

    if (!s->link_q || c->queue < 0 || c->queue >= (int)s->params.num_queues ||
        !s->link_q[c->queue].timed || t->cls == HSAGPU_BUS_LOCAL || !len) {
        return;
    }
    lq = &s->link_q[c->queue];
    if (!lq->prepaid[is_write]) {
        hsagpu_link_add(c, lq, t, hsagpu_link_bus(t), len, is_write);
    }
}

uint64_t hsagpu_link_end(HsaGpuBusCtx *c, uint64_t mark[2])
{
    HsaGpuState *s = c->s;
    HsaGpuLinkQueue *lq = &s->link_q[c->queue];
    uint64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), end = 0;

    lq->timed = false;
    qemu_mutex_lock(&hsagpu_link_lock);
    for (unsigned leg = 0; mark == NULL && leg < 2; leg++) {
        if (lq->moved[leg]) {
            hsagpu_link_flow_cancel(hsagpu_link_model, lq->flow[leg]);
        }
    }
    for (unsigned leg = 0; mark && leg < 2; leg++) {
        uint64_t when;

        mark[leg] = 0;
        if (!lq->moved[leg]) {
            continue;
        }
        mark[leg] = hsagpu_link_mark(hsagpu_link_model, lq->flow[leg],
                                     lq->last[leg]);
        if (hsagpu_link_mark_when(hsagpu_link_model, mark[leg], now, &when)) {
            mark[leg] = 0;
        }
        end = MAX(end, when);
    }
    qemu_mutex_unlock(&hsagpu_link_lock);
    trace_hsagpu_link_end(c->queue, lq->start_ns, end);
    return mark ? end : 0;
}

bool hsagpu_link_when(HsaGpuBusCtx *c, uint64_t mark[2], uint64_t *end_ns)
{
    uint64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    bool done = true;

    *end_ns = 0;
    if (!hsagpu_link_model) {
        return true;
    }
    qemu_mutex_lock(&hsagpu_link_lock);
    for (unsigned leg = 0; leg < 2; leg++) {
        uint64_t when;

        if (!mark[leg]) {
            continue;
        }
        if (hsagpu_link_mark_when(hsagpu_link_model, mark[leg], now, &when)) {
            mark[leg] = 0;
        } else {
            done = false;
        }
        *end_ns = MAX(*end_ns, when);
    }
    qemu_mutex_unlock(&hsagpu_link_lock);
    return done;
}
