/*
 * hsa-gpu: where an address goes. Every memory access the device makes
 * asks here first: queue packets, signals, kernel arguments and data, DMA
 * descriptors and data, and AtomicOps (queue-issued and register-issued).
 *
 * A requester in a translated address space (VMID 1..15) first has its
 * GPU virtual address translated (hsagpu-vm.c): a local PTE names this
 * device's VRAM directly, a system PTE a bus address that goes on as
 * below; an address that does not translate is a VM fault and touches
 * nothing. A translation holds for the rest of its page only.
 *
 * A bus address goes, as seen from the requesting device, in this order:
 *  - its own BAR0 range: its VRAM, served locally, never on the link
 *    (HSAGPU_BUS_LOCAL);
 *  - a peer's BAR0 when a switch above both devices routes it
 *    (hsagpu-p2p.c): peer to peer without the root complex or IOMMU
 *    (HSAGPU_BUS_PEER_SWITCH), if the peer's whole VRAM BAR lies below
 *    the requester's p2p-addr-bits limit;
 *  - anything else goes upstream through the bus-master address space,
 *    so a virtual IOMMU translates it, if the address is below the
 *    limit: guest RAM (HSAGPU_BUS_SYSTEM), or a peer's VRAM that the root
 *    complex routes to (HSAGPU_BUS_PEER_ROOT, same limit rule).
 * Only RAM is accessed, by construction (one translation; what it
 * found is used directly if memory_access_is_direct(), else refused): the
 * queue processor thread runs without the BQL and must never dispatch
 * into MMIO handlers, which would take it.
 *
 * The QEMU-free rules (ranges, limits, refusal to error mapping, cache)
 * are in hsagpu-bus.h and unit tested.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/main-loop.h"
#include "qemu/rcu.h"
#include "exec/memory.h"
#include "hsagpu.h"
#include "trace.h"

void hsagpu_bus_ctx_init(HsaGpuBusCtx *c, HsaGpuState *s, int queue)
{
    memset(c, 0, sizeof(*c));
    c->s = s;
    c->queue = queue;
}

/*
 * Drop a reference to a peer or to a RAM block's owner. Finalizing one
 * needs the BQL, which the processor thread does not hold: there, a
 * reference that may be the last is handed to the main loop (with qlock
 * held, as during a pass).
 */
static void hsagpu_bus_unref_obj(HsaGpuState *s, Object *obj)
{
    uint32_t ref;

    if (!obj) {
        return;
    }
    if (bql_locked()) {
        object_unref(obj);
        return;
    }
    ref = qatomic_read(&obj->ref);
    while (ref > 1) {
        uint32_t old = qatomic_cmpxchg(&obj->ref, ref, ref - 1);

        if (old == ref) {
            return;
        }
        ref = old;
    }
    trace_hsagpu_bus_unref_deferred(obj);
    g_ptr_array_add(s->pending.unrefs, obj);
}

static void hsagpu_bus_unref(HsaGpuBusCtx *c, HsaGpuState *peer)
{
    hsagpu_bus_unref_obj(c->s, OBJECT(peer));
}

static void hsagpu_bus_cache_drop(HsaGpuBusCtx *c)
{
    if (c->cache_dev && c->cache_dev != c->s) {
        hsagpu_bus_unref(c, c->cache_dev);
    }
    c->cache_dev = NULL;
    c->cache.size = 0;
}

/* The following accesses are made for @queue, in its address space. */
void hsagpu_bus_ctx_select(HsaGpuBusCtx *c, int queue)
{
    if (c->queue != queue) {
        hsagpu_bus_cache_drop(c);
        c->queue = queue;
    }
    c->vmid = queue >= 0 ? c->s->queues[queue].as_vmid : 0;
}

void hsagpu_bus_ctx_end(HsaGpuBusCtx *c)
{
    hsagpu_bus_map_end(c);
    hsagpu_bus_cache_drop(c);
}

/* A page-table entry for the translation: read as VMID 0 reads. */
static int hsagpu_bus_read_entry(void *opaque, bool system, uint64_t addr,
                                uint64_t *val)
{
    HsaGpuState *s = opaque;
    HsaGpuBusCtx w;
    uint64_t le;
    int r;

    if (!system) {
        if (addr > s->params.vram_size - 8) {
            return -1;
        }
        memcpy(&le, (uint8_t *)memory_region_get_ram_ptr(&s->vram) + addr,
               sizeof(le));
        *val = le64_to_cpu(le);
        return 0;
    }
    hsagpu_bus_ctx_init(&w, s, -1);
    /*
     * A bus address: the walk that wants it holds the hubs' lock, and a
     * table is not reached through a translation of its own
     */
    w.untranslated = true;
    r = hsagpu_bus_rw(&w, addr, &le, sizeof(le), false);
    hsagpu_bus_ctx_end(&w);
    *val = le64_to_cpu(le);
    return r ? -1 : 0;
}

/* @t reaches VRAM of @dev at @off; @len bytes are wanted. */
static void hsagpu_bus_vram(HsaGpuState *dev, uint64_t off, uint64_t len,
                            HsaGpuBusClass cls, HsaGpuBusTarget *t)
{
    t->cls = cls;
    t->mr = &dev->vram;
    t->mr_off = off;
    t->host = (uint8_t *)memory_region_get_ram_ptr(&dev->vram) + off;
    t->len = MIN(len, dev->params.vram_size - off);
    t->completer = PCI_DEVICE(dev);
}

static void hsagpu_bus_cache_set(HsaGpuBusCtx *c, HsaGpuState *dev,
                                 uint64_t base, HsaGpuBusClass cls)
{
    hsagpu_bus_cache_drop(c);
    if (dev != c->s) {
        object_ref(OBJECT(dev));
    }
    c->cache_dev = dev;
    c->cache_gen = hsagpu_p2p_generation();
    c->cache = (HsaGpuBusCache) {
        .base = base, .size = dev->params.vram_size, .cls = cls,
    };
}

/*
 * Inside the switch: own VRAM or a switch peer's. 1 when @addr is one of
 * them (then @t or the refusal is set), 0 when it goes upstream.
 */
static int hsagpu_bus_near(HsaGpuBusCtx *c, uint64_t addr, uint64_t len,
                           HsaGpuBusTarget *t, HsaGpuBusRefusal *r)
{
    HsaGpuState *s = c->s, *peer;
    uint64_t bar, off;

    /* A device went away since: the cached peer may be unplugged. */
    if (c->cache.size && c->cache_gen != hsagpu_p2p_generation()) {
        hsagpu_bus_cache_drop(c);
    }
    if (hsagpu_bus_cache_hit(&c->cache, addr)) {
        peer = c->cache_dev;
        if (peer != s) {
            object_ref(OBJECT(peer));
            t->peer = peer;
        }
        hsagpu_bus_vram(peer, addr - c->cache.base, len, c->cache.cls, t);
        *r = HSAGPU_BUS_OK;
        return 1;
    }
    bar = hsagpu_vram_bar(s);
    if (hsagpu_bus_in_bar(bar, s->params.vram_size, addr)) {
        hsagpu_bus_vram(s, addr - bar, len, HSAGPU_BUS_LOCAL, t);
        hsagpu_bus_cache_set(c, s, bar, HSAGPU_BUS_LOCAL);
        *r = HSAGPU_BUS_OK;
        return 1;
    }
    peer = hsagpu_p2p_switch_peer(s, addr, &off);
    if (!peer) {
        return 0;
    }
    t->peer = peer;
    t->completer = PCI_DEVICE(peer);
    if (!hsagpu_p2p_peer_ok(s, peer)) {
        *r = HSAGPU_BUS_PEER_LIMIT;
        return 1;
    }
    hsagpu_bus_vram(peer, off, len, HSAGPU_BUS_PEER_SWITCH, t);
    hsagpu_bus_cache_set(c, peer, addr - off, HSAGPU_BUS_PEER_SWITCH);
    *r = HSAGPU_BUS_OK;
    return 1;
}

/*
 * Resolve the start of [addr, addr + len), under the RCU read lock:
 * HSAGPU_BUS_OK with @t set to what the first t->len bytes reach, or why
 * not. Release @t with hsagpu_bus_release() in both cases.
 */
HsaGpuBusRefusal hsagpu_bus_resolve(HsaGpuBusCtx *c, uint64_t addr,
                                    uint64_t len, bool is_write,
                                    HsaGpuBusTarget *t)
{
    HsaGpuState *s = c->s;
    AddressSpace *as = &PCI_DEVICE(s)->bus_master_as;
    uint64_t limit = hsagpu_addr_limit(s);
    HsaGpuBusRefusal r;
    hwaddr xlat, l;
    ram_addr_t ram_off;
    HsaGpuState *peer;
    MemoryRegion *mr;
    Object *owner;

    memset(t, 0, sizeof(*t));
    if (!hsagpu_bus_range_ok(addr, len)) {
        r = HSAGPU_BUS_BAD_RANGE;
        goto out;
    }
    /*
     * Every GPU address of the Vega10 personality is translated, VMID 0
     * (the kernel's apertures and GART) included
     */
    if (c->vmid || (s->v10 && !c->untranslated)) {
        HsaGpuVmXlat x;
        uint64_t off;

        if (!hsagpu_vm_xlat(c, addr, is_write, hsagpu_bus_read_entry, &x)) {
            r = HSAGPU_BUS_VM_FAULT;
            goto out;
        }
        off = addr - x.va;
        len = MIN(len, x.size - off);
        if (!(x.flags & HSAGPU_PTE_SYSTEM)) {
            /* The walker checked that the page lies inside VRAM. */
            hsagpu_bus_vram(s, x.pa + off, len, HSAGPU_BUS_LOCAL, t);
            r = HSAGPU_BUS_OK;
            goto out;
        }
        addr = x.pa + off;
    }
    if (hsagpu_bus_near(c, addr, len, t, &r)) {
        goto out;
    }
    /* The device cannot put a higher address on the link. */
    if (addr > limit) {
        r = HSAGPU_BUS_ADDR_LIMIT;
        goto out;
    }
    l = hsagpu_bus_below(addr, len, limit);
    mr = address_space_translate(as, addr, &xlat, &l, is_write,
                                 MEMTXATTRS_UNSPECIFIED);
    owner = memory_region_owner(mr);
    t->completer = owner ? (PCIDevice *)object_dynamic_cast(owner,
                                                            TYPE_PCI_DEVICE)
                         : NULL;
    if (!l || !memory_access_is_direct(mr, is_write,
                                       MEMTXATTRS_UNSPECIFIED)) {
        r = memory_region_is_ram(mr) || t->completer ? HSAGPU_BUS_NOT_MEMORY
                                                     : HSAGPU_BUS_UNMAPPED;
        goto out;
    }
    peer = owner ? (HsaGpuState *)object_dynamic_cast(owner, TYPE_HSA_GPU)
                 : NULL;
    if (peer && mr == &peer->vram) {
        /* A peer through the root complex (maybe an IOMMU mapping). */
        if (peer != s && !hsagpu_p2p_peer_ok(s, peer)) {
            r = HSAGPU_BUS_PEER_LIMIT;
            goto out;
        }
        hsagpu_bus_vram(peer, xlat, l, peer == s ? HSAGPU_BUS_LOCAL
                                                 : HSAGPU_BUS_PEER_ROOT, t);
        r = HSAGPU_BUS_OK;
        goto out;
    }
    /*
     * System memory (or RAM of another PCI function): the RAM this very
     * translation found (review of dev, finding 2). A second lookup
     * (address_space_map()) could see another flat view (no BQL here):
     * a ram_device region there would be bounced through MMIO accesses
     * that take the BQL under qlock, a peer's VRAM there would skip the
     * peer checks. The RAM stays valid inside the caller's RCU section;
     * the reference and address_space_unmap() at release mark written
     * bytes dirty for migration and drop translated code, as for a map.
     */
    /*
     * What address_space_map() does for a mapping: under generic-fuzz
     * this fills guest RAM with fuzzer data before the device reads it
     * (a no-op in other builds). Without it, RAM-only resolution hid
     * every packet from the fuzzer.
     */
    if (!c->map_probe) {
        fuzz_dma_read_cb(addr, l, mr);
    }
    t->bus = addr;
    t->host = memory_region_get_ram_ptr(mr) + xlat;
    mr = memory_region_from_host(t->host, &ram_off);
    if (!mr) {
        /* Direct access always has a RAM block: never expected. */
        t->host = NULL;
        r = HSAGPU_BUS_NOT_MEMORY;
        goto out;
    }
    memory_region_ref(mr);
    t->len = l;
    t->mapped = true;
    t->cls = HSAGPU_BUS_SYSTEM;
    r = HSAGPU_BUS_OK;
out:
    if (r) {
        trace_hsagpu_bus_refused(c->queue, addr, len, is_write, r);
    }
    return r;
}

/* Release @t, whose bytes [lo, hi) were written (none if lo == hi). */
static void hsagpu_bus_release_range(HsaGpuBusCtx *c, HsaGpuBusTarget *t,
                                     uint64_t lo, uint64_t hi)
{
    if (t->mapped) {
        /* Marks [lo, hi) dirty and drops the reference resolve took. */
        address_space_unmap(&PCI_DEVICE(c->s)->bus_master_as, t->host + lo,
                            t->len - lo, hi > lo, hi - lo);
    } else if (t->mr && hi > lo) {
        memory_region_set_dirty(t->mr, t->mr_off + lo, hi - lo);
        /* cached read alias: VRAM lines the device wrote */
        hsagpu_vram_dir_mark(t->mr, t->mr_off + lo, hi - lo);
    }
    if (t->peer) {
        hsagpu_bus_unref(c, t->peer);
    }
    t->mapped = false;
    t->peer = NULL;
    t->mr = NULL;
}

void hsagpu_bus_release(HsaGpuBusCtx *c, HsaGpuBusTarget *t, bool is_write,
                        uint64_t done)
{
    hsagpu_bus_release_range(c, t, 0, is_write ? done : 0);
}

/* ------------------------------------------------------------------ */
/* The processor's mappings (HsaGpuBusMap)                              */
/* ------------------------------------------------------------------ */

/* Any memory topology change may move what a mapping was made from. */
static void hsagpu_bus_maps_commit(MemoryListener *l)
{
    HsaGpuState *s = container_of(l, HsaGpuState, bus_map_listener);

    qatomic_inc(&s->bus_map_gen);
}

void hsagpu_bus_maps_init(HsaGpuState *s)
{
    s->bus_maps = g_new0(HsaGpuBusMap, 2 << HSAGPU_BUS_MAP_SET_BITS);
    s->bus_map_listener = (MemoryListener) {
        .name = "hsa-gpu-maps",
        .commit = hsagpu_bus_maps_commit,
    };
    memory_listener_register(&s->bus_map_listener,
                             &PCI_DEVICE(s)->bus_master_as);
}

void hsagpu_bus_maps_exit(HsaGpuState *s)
{
    if (s->bus_maps) {
        memory_listener_unregister(&s->bus_map_listener);
        hsagpu_bus_maps_flush(s);
        g_free(s->bus_maps);
        s->bus_maps = NULL;
    }
}

/* Mark what the processor wrote through @m dirty; the mapping stays. */
static void hsagpu_bus_map_mark(HsaGpuState *s, HsaGpuBusMap *m)
{
    uint64_t lo = m->dirty_lo, hi = m->dirty_hi;

    if (hi > lo) {
        if (m->ram) {
            /*
             * What address_space_unmap() does for written bytes (dirty
             * bitmaps, and dropping translated code there), on a
             * reference of its own.
             */
            memory_region_ref(m->ram);
            address_space_unmap(&PCI_DEVICE(s)->bus_master_as,
                                m->t.host + lo, m->t.len - lo, true, hi - lo);
        } else if (m->t.mr) {
            memory_region_set_dirty(m->t.mr, m->t.mr_off + lo, hi - lo);
        }
    }
    m->dirty_lo = UINT16_MAX;
    m->dirty_hi = 0;
    m->dirty_listed = false;
}

static void hsagpu_bus_map_drop(HsaGpuState *s, HsaGpuBusMap *m)
{
    if (!m->len) {
        return;
    }
    hsagpu_bus_map_mark(s, m);
    if (m->ram) {
        hsagpu_bus_unref_obj(s, m->ram->owner);
    }
    if (m->t.peer) {
        hsagpu_bus_unref_obj(s, OBJECT(m->t.peer));
    }
    memset(m, 0, sizeof(*m));
}

void hsagpu_bus_maps_flush(HsaGpuState *s)
{
    if (!s->bus_maps) {
        return;
    }
    trace_hsagpu_bus_maps_flush(s->bus_map_ndirty);
    for (unsigned i = 0; i < 2 << HSAGPU_BUS_MAP_SET_BITS; i++) {
        hsagpu_bus_map_drop(s, &s->bus_maps[i]);
    }
    s->bus_map_ndirty = 0;
}

void hsagpu_bus_map_begin(HsaGpuBusCtx *c)
{
    HsaGpuState *s = c->s;
    unsigned gen = qatomic_read(&s->bus_map_gen);

    if (!s->bus_maps) {
        return;
    }
    rcu_read_lock();
    if (s->bus_map_seen != gen ||
        s->bus_map_p2p_gen != hsagpu_p2p_generation()) {
        hsagpu_bus_maps_flush(s);
        s->bus_map_seen = gen;
        s->bus_map_p2p_gen = hsagpu_p2p_generation();
    }
    c->map_on = true;
}

void hsagpu_bus_map_end(HsaGpuBusCtx *c)
{
    HsaGpuState *s = c->s;

    if (!c->map_on) {
        return;
    }
    for (unsigned i = 0; i < s->bus_map_ndirty; i++) {
        hsagpu_bus_map_mark(s, &s->bus_maps[s->bus_map_dirty[i]]);
    }
    s->bus_map_ndirty = 0;
    if (s->dma_iommu) {
        hsagpu_bus_maps_flush(s);
    }
    c->map_on = false;
    rcu_read_unlock();
}

/* The two ways of the set of @page in @vmid's space: maps[set * 2 + w] */
static inline HsaGpuBusMap *hsagpu_bus_map_set(HsaGpuState *s, uint32_t vmid,
                                               uint64_t page)
{
    uint64_t key = (page / HSAGPU_BUS_MAP_PAGE) ^ ((uint64_t)vmid << 52);

    /* Fibonacci hashing: rings, indices and buffers spread over sets. */
    return &s->bus_maps[((key * 0x9e3779b97f4a7c15ULL) >>
                         (64 - HSAGPU_BUS_MAP_SET_BITS)) * 2];
}

static inline bool hsagpu_bus_map_is(const HsaGpuBusMap *m, uint32_t vmid,
                                     uint64_t page)
{
    return m->len && m->page == page && m->vmid == vmid;
}

/* May @m serve an access of the kind @c is making (@is_write)? */
static inline bool hsagpu_bus_map_allows(const HsaGpuBusCtx *c,
                                         const HsaGpuBusMap *m, bool is_write)
{
    return c->atomic ? m->atomic : is_write ? m->write : m->read;
}

/* The mapping that holds all of [addr, addr + len) for this access. */
static inline HsaGpuBusMap *hsagpu_bus_map_find(HsaGpuBusCtx *c,
                                                uint64_t addr, uint64_t len,
                                                bool is_write)
{
    uint64_t page = addr & ~(HSAGPU_BUS_MAP_PAGE - 1);
    HsaGpuBusMap *set = hsagpu_bus_map_set(c->s, c->vmid, page);

    for (unsigned w = 0; w < 2; w++) {
        HsaGpuBusMap *m = &set[w];

        if (hsagpu_bus_map_is(m, c->vmid, page) &&
            addr - page + len <= m->len &&
            hsagpu_bus_map_allows(c, m, is_write)) {
            m->used = true;
            set[!w].used = false;
            return m;
        }
    }
    return NULL;
}

/*
 * [addr, addr + len) was just accessed successfully: map its 4 KiB page.
 * The page lies in the same GPU page, IOMMU page and RAM block as the
 * access, so resolving it has the same outcome and no new side effect
 * (no fault can be recorded).
 */
void hsagpu_bus_map_fill(HsaGpuBusCtx *c, uint64_t addr, uint64_t len,
                         bool is_write)
{
    HsaGpuState *s = c->s;
    uint64_t page = addr & ~(HSAGPU_BUS_MAP_PAGE - 1);
    HsaGpuBusMap *set, *m;
    HsaGpuBusRefusal r;
    HsaGpuBusTarget t;
    ram_addr_t off;

    /* Register-issued AtomicOps, for one, are not made in a pass. */
    if (!c->map_on || addr + len - page > HSAGPU_BUS_MAP_PAGE) {
        return;
    }
    set = hsagpu_bus_map_set(s, c->vmid, page);
    /* Only [addr, addr + len) was read: nothing for generic-fuzz here. */
    c->map_probe = true;
    r = hsagpu_bus_resolve(c, page, HSAGPU_BUS_MAP_PAGE, is_write, &t);
    c->map_probe = false;
    if (r || t.len < addr + len - page) {
        hsagpu_bus_release(c, &t, is_write, 0);
        return;
    }
    /*
     * The same bytes resolved for another kind: one mapping for both.
     * Else the way not used last goes.
     */
    m = hsagpu_bus_map_is(&set[1], c->vmid, page) ? &set[1] :
        hsagpu_bus_map_is(&set[0], c->vmid, page) ? &set[0] :
        set[0].used ? &set[1] : &set[0];
    if (hsagpu_bus_map_is(m, c->vmid, page) &&
        m->t.host == t.host && m->len == t.len) {
        m->atomic |= c->atomic;
        m->read |= !c->atomic && !is_write;
        m->write |= !c->atomic && is_write;
        hsagpu_bus_release(c, &t, is_write, 0);
        return;
    }
    if (m->dirty_listed) {
        /* Evicted while on the pass's dirty list: mark it now. */
        for (unsigned i = 0; i < s->bus_map_ndirty; i++) {
            if (&s->bus_maps[s->bus_map_dirty[i]] == m) {
                s->bus_map_dirty[i] = s->bus_map_dirty[--s->bus_map_ndirty];
                break;
            }
        }
    }
    hsagpu_bus_map_drop(s, m);
    *m = (HsaGpuBusMap) {
        .page = page, .len = t.len, .vmid = c->vmid,
        .used = true, .atomic = c->atomic, .read = !c->atomic && !is_write,
        .write = !c->atomic && is_write, .t = t,
        .dirty_lo = UINT16_MAX, .dirty_hi = 0,
        /* resolve's reference on system RAM is the block's region's */
        .ram = t.mapped ? memory_region_from_host(t.host, &off) : NULL,
    };
    /* The references resolve took now belong to the mapping. */
    m->t.mapped = false;
    set[m == set].used = false;
}

/* A write through @m: remember the bytes for this pass's dirty marking. */
static inline void hsagpu_bus_map_written(HsaGpuState *s, HsaGpuBusMap *m,
                                          uint64_t off, uint64_t len)
{
    /*
     * cached read alias: VRAM lines are marked at once and exactly (the
     * pass-end marking below covers [lo, hi) of the page, and comes
     * after the completion signal a host may already have seen).
     */
    if (m->t.mr) {
        hsagpu_vram_dir_mark(m->t.mr, m->t.mr_off + off, len);
    }
    m->dirty_lo = MIN(m->dirty_lo, off);
    m->dirty_hi = MAX(m->dirty_hi, off + len);
    if (!m->dirty_listed) {
        if (s->bus_map_ndirty == HSAGPU_BUS_MAP_DIRTY_MAX) {
            hsagpu_bus_map_mark(s, m);
            return;
        }
        m->dirty_listed = true;
        s->bus_map_dirty[s->bus_map_ndirty++] = m - s->bus_maps;
    }
}

/*
 * [@addr, @addr + @len) resolved for a view: its host bytes (*@n of them
 * there), or NULL when a view cannot have it
 */
static uint8_t *hsagpu_bus_view_piece(HsaGpuBusCtx *c, uint64_t addr,
                                      uint64_t len, bool is_write,
                                      uint64_t *n)
{
    HsaGpuState *s = c->s;
    HsaGpuBusRefusal r;
    HsaGpuBusTarget t;
    uint8_t *host = NULL;
    ram_addr_t off;

    /* resolving only: a fault is the access's to record */
    c->map_probe = true;
    r = hsagpu_bus_resolve(c, addr, len, is_write, &t);
    c->map_probe = false;
    /*
     * Own VRAM, or system RAM (not a bounce buffer); not a peer's, whose
     * writes a later read must flush; not a VRAM write the read alias
     * must see at once (hsagpu_vram_dir_mark, before a completion)
     */
    if (!r && t.host && !t.peer &&
        (t.mr ? !(is_write && s->params.ralias_size)
              : memory_region_from_host(t.host, &off) != NULL)) {
        host = t.host;
        *n = MIN(t.len, len);
    }
    /* nothing written yet; the pass's RCU read section keeps the bytes */
    hsagpu_bus_release(c, &t, is_write, 0);
    return host;
}

void *hsagpu_bus_view(HsaGpuBusCtx *c, uint64_t addr, uint64_t len,
                      bool is_write, uint64_t *got)
{
    uint8_t *host;
    uint64_t n = 0;

    if (!c->map_on) {
        return NULL;
    }
    RCU_READ_LOCK_GUARD();
    host = hsagpu_bus_view_piece(c, addr, len, is_write, &n);
    *got = n;
    /*
     * The pages after it, while their bytes follow on in the host's (a
     * buffer in 4 KiB pages of contiguous VRAM): one view, not one a page
     */
    while (host && *got < len) {
        uint8_t *more = hsagpu_bus_view_piece(c, addr + *got, len - *got,
                                              is_write, &n);

        if (more != host + *got) {
            break;
        }
        *got += n;
    }
    return host;
}

void hsagpu_bus_view_written(HsaGpuBusCtx *c, uint64_t addr, uint64_t len)
{
    RCU_READ_LOCK_GUARD();
    while (len) {
        HsaGpuBusTarget t;
        HsaGpuBusRefusal r;
        uint64_t n;

        c->map_probe = true;
        r = hsagpu_bus_resolve(c, addr, len, true, &t);
        c->map_probe = false;
        if (r) {
            /* it resolved for the view, in this pass: cannot happen */
            hsagpu_bus_release(c, &t, true, 0);
            return;
        }
        n = MIN(t.len, len);
        /* what a write of @n bytes marks (dirty, translated code, alias) */
        hsagpu_bus_release(c, &t, true, n);
        addr += n;
        len -= n;
    }
}

bool hsagpu_bus_map_peek64(HsaGpuState *s, uint32_t vmid, uint64_t addr,
                           uint64_t *val)
{
    uint64_t page = addr & ~(HSAGPU_BUS_MAP_PAGE - 1);
    HsaGpuBusMap *m = hsagpu_bus_map_set(s, vmid, page);

    if (!hsagpu_bus_map_is(m, vmid, page) || !m->read) {
        m++;
    }
    if (!hsagpu_bus_map_is(m, vmid, page) || !m->read ||
        addr - page + 8 > m->len) {
        return false;
    }
    /* The mapping's reference keeps the bytes there, even if stale. */
    *val = qatomic_read((uint64_t *)(m->t.host + (addr - page)));
    return true;
}

bool hsagpu_bus_map_get(HsaGpuBusCtx *c, uint64_t addr, uint64_t len,
                        bool is_write, HsaGpuBusTarget *t)
{
    HsaGpuBusMap *m = c->map_on ? hsagpu_bus_map_find(c, addr, len, is_write)
                                : NULL;

    if (!m) {
        return false;
    }
    /* Borrowed: no reference of its own, so releasing it does nothing. */
    *t = (HsaGpuBusTarget) {
        .cls = m->t.cls, .host = m->t.host + (addr - m->page),
        .len = m->len - (addr - m->page), .completer = m->t.completer,
    };
    if (is_write) {
        hsagpu_bus_map_written(c->s, m, addr - m->page, len);
    }
    return true;
}

/* Resolve piece by piece (RCU read lock held by the caller). */
static HsaGpuBusRefusal hsagpu_bus_rw_slow(HsaGpuBusCtx *c, uint64_t addr,
                                           void *buf, uint64_t len,
                                           bool is_write, bool *link)
{
    uint8_t *p = buf;

    while (len) {
        HsaGpuBusTarget t;
        HsaGpuBusRefusal r = hsagpu_bus_resolve(c, addr, len, is_write, &t);

        if (r) {
            hsagpu_bus_release(c, &t, is_write, 0);
            return r;
        }
        *link |= t.cls != HSAGPU_BUS_LOCAL;
        if (is_write) {
            memcpy(t.host, p, t.len);
        } else {
            memcpy(p, t.host, t.len);
        }
        p += t.len;
        addr += t.len;
        len -= t.len;
        hsagpu_bus_release(c, &t, is_write, t.len);
    }
    return HSAGPU_BUS_OK;
}

HsaGpuBusRefusal hsagpu_bus_rw_link(HsaGpuBusCtx *c, uint64_t addr,
                                    void *buf, uint64_t len, bool is_write,
                                    bool *link)
{
    HsaGpuBusRefusal r;
    bool fill = c->map_on;

    if (fill) {
        HsaGpuBusMap *m = hsagpu_bus_map_find(c, addr, len, is_write);

        if (m) {
            uint64_t off = addr - m->page;

            *link = m->t.cls != HSAGPU_BUS_LOCAL;
            if (is_write) {
                memcpy(m->t.host + off, buf, len);
                hsagpu_bus_map_written(c->s, m, off, len);
            } else {
                /* generic-fuzz fills what a device reads (a no-op else) */
                if (m->ram) {
                    fuzz_dma_read_cb(m->t.bus + off, len, m->ram);
                }
                memcpy(buf, m->t.host + off, len);
            }
            return HSAGPU_BUS_OK;
        }
    }
    *link = false;
    RCU_READ_LOCK_GUARD();
    r = hsagpu_bus_rw_slow(c, addr, buf, len, is_write, link);
    if (!r && fill) {
        hsagpu_bus_map_fill(c, addr, len, is_write);
    }
    return r;
}

HsaGpuBusRefusal hsagpu_bus_rw(HsaGpuBusCtx *c, uint64_t addr, void *buf,
                               uint64_t len, bool is_write)
{
    bool link;

    return hsagpu_bus_rw_link(c, addr, buf, len, is_write, &link);
}

bool hsagpu_bus_is_memory(HsaGpuBusCtx *c, uint64_t addr, uint64_t len,
                          bool is_write)
{
    RCU_READ_LOCK_GUARD();
    while (len) {
        HsaGpuBusTarget t;
        HsaGpuBusRefusal r = hsagpu_bus_resolve(c, addr, len, is_write, &t);
        uint64_t l = t.len;

        hsagpu_bus_release(c, &t, is_write, 0);
        if (r) {
            return false;
        }
        addr += l;
        len -= l;
    }
    return true;
}
