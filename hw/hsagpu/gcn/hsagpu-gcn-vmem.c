/*
 * hsa-gpu: GCN (gfx9) interpreter, vector memory: FLAT and GLOBAL loads,
 * stores and atomics through the dispatch's address space (a failing
 * access stops the dispatch with its address), and LDS (DS): the
 * workgroup's own memory, bounds-checked, with its atomics and the
 * cross-lane permutes. Lanes run in order, so atomics from several lanes
 * to one address accumulate as on the hardware.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdlib.h>
#include <string.h>
#define g_malloc0(n) calloc(1, (n))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#else
#include "qemu/osdep.h"
#endif
#include <math.h>
#include "hsagpu-gcn-int.h"

/*
 * Atomic operations, in FLAT's order (op - flat_atomic_swap, or
 * op - flat_atomic_swap_x2), then the ones only DS has
 */
enum {
    GCN_A_SWAP, GCN_A_CMPSWAP, GCN_A_ADD, GCN_A_SUB, GCN_A_SMIN, GCN_A_UMIN,
    GCN_A_SMAX, GCN_A_UMAX, GCN_A_AND, GCN_A_OR, GCN_A_XOR, GCN_A_INC,
    GCN_A_DEC, GCN_A_RSUB, GCN_A_MSKOR, GCN_A_NONE,
};

/*
 * What a FLAT (GLOBAL, SCRATCH) or MUBUF load, store or atomic does, from
 * its opcode in FLAT's numbering (MUBUF's are the same numbers)
 */
typedef struct GcnMemOp {
    unsigned bytes;             /* moved per lane (an atomic's: 4, 8) */
    unsigned nret, ndata;       /* VGPRs written (d16: merged), read */
    unsigned kind;              /* GCN_A_*, GCN_A_NONE */
    bool load, store, sext;
    bool d16, hi;               /* a 16-bit half: which */
} GcnMemOp;

/* @op with glc @glc into *@m: false when it is none of them */
static bool gcn_mem_op(unsigned op, bool glc, GcnMemOp *m)
{
    static const uint8_t sz[] = {           /* from load_ubyte on */
        1, 1, 2, 2, 4, 8, 12, 16,           /* loads */
        1, 1, 2, 2, 4, 8, 12, 16,           /* stores */
        1, 1, 1, 1, 2, 2,                   /* d16 loads */
    };

    memset(m, 0, sizeof(*m));
    m->kind = GCN_A_NONE;
    if (op >= GCN_FLAT_LOAD_UBYTE && op <= GCN_FLAT_LOAD_SHORT_D16_HI) {
        m->bytes = sz[op - GCN_FLAT_LOAD_UBYTE];
        m->store = op >= GCN_FLAT_STORE_BYTE && op <= GCN_FLAT_STORE_DWORDX4;
        m->load = !m->store;
        m->d16 = op >= GCN_FLAT_LOAD_UBYTE_D16 ||
                 op == GCN_FLAT_STORE_BYTE_D16_HI ||
                 op == GCN_FLAT_STORE_SHORT_D16_HI;
        m->hi = op == GCN_FLAT_STORE_BYTE_D16_HI ||
                op == GCN_FLAT_STORE_SHORT_D16_HI ||
                (op >= GCN_FLAT_LOAD_UBYTE_D16 && (op & 1));
        m->sext = op == GCN_FLAT_LOAD_SBYTE || op == GCN_FLAT_LOAD_SSHORT ||
                  op == GCN_FLAT_LOAD_SBYTE_D16 ||
                  op == GCN_FLAT_LOAD_SBYTE_D16_HI;
        if (m->load) {
            m->nret = (m->bytes + 3) / 4;
        } else {
            m->ndata = (m->bytes + 3) / 4;
        }
        return true;
    }
    if (op >= GCN_FLAT_ATOMIC_SWAP && op <= GCN_FLAT_ATOMIC_DEC) {
        m->kind = op - GCN_FLAT_ATOMIC_SWAP;
        m->bytes = 4;
    } else if (op >= GCN_FLAT_ATOMIC_SWAP_X2 && op <= GCN_FLAT_ATOMIC_DEC_X2) {
        m->kind = op - GCN_FLAT_ATOMIC_SWAP_X2;
        m->bytes = 8;
    } else {
        return false;
    }
    m->ndata = m->bytes / 4 * (m->kind == GCN_A_CMPSWAP ? 2 : 1);
    m->nret = glc ? m->bytes / 4 : 0;
    return true;
}

/* A loaded byte (@sbyte) or short (@sshort) sign-extended, else as is */
static uint32_t gcn_sext(uint32_t v, bool sbyte, bool sshort)
{
    return sbyte ? (uint32_t)(int8_t)v : sshort ? (uint32_t)(int16_t)v : v;
}

/* The value an atomic leaves in memory (@bits 32 or 64 wide) */
static uint64_t gcn_atomic(unsigned k, uint64_t old, uint64_t src,
                           uint64_t cmp, unsigned bits)
{
    uint64_t m = bits == 64 ? ~0ULL : 0xffffffffULL;
    int64_t so = bits == 64 ? (int64_t)old : (int32_t)old;
    int64_t ss = bits == 64 ? (int64_t)src : (int32_t)src;

    switch (k) {
    case GCN_A_SWAP:
        return src;
    case GCN_A_CMPSWAP:
        return old == cmp ? src : old;
    case GCN_A_ADD:
        return (old + src) & m;
    case GCN_A_SUB:
        return (old - src) & m;
    case GCN_A_RSUB:
        return (src - old) & m;
    case GCN_A_SMIN:
        return so < ss ? old : src;
    case GCN_A_UMIN:
        return old < src ? old : src;
    case GCN_A_SMAX:
        return so > ss ? old : src;
    case GCN_A_UMAX:
        return old > src ? old : src;
    case GCN_A_AND:
        return old & src;
    case GCN_A_OR:
        return old | src;
    case GCN_A_XOR:
        return old ^ src;
    case GCN_A_INC:
        return old >= src ? 0 : old + 1;
    case GCN_A_DEC:
        return old == 0 || old > src ? src : old - 1;
    default:                                        /* GCN_A_MSKOR */
        return (old & ~cmp) | src;
    }
}

/*
 * An atomic the memory performs: add, sub, swap and cmpswap as one
 * AtomicOp each; the others as a compare-and-swap loop on the value read
 * (what a device with only PCIe's three AtomicOps does), so they stay
 * atomic against the CPU and other devices too.
 */
static unsigned gcn_atomic_mem(HsaGpuGcnGroup *g, uint64_t addr,
                               unsigned bytes, unsigned kind, uint64_t src,
                               uint64_t cmp, uint64_t *old)
{
    const HsaGpuGcnMem *m = g->mem;
    uint64_t mask = bytes == 8 ? ~0ULL : 0xffffffffULL, seen = 0, was;
    unsigned err;

    switch (kind) {
    case GCN_A_ADD:
    case GCN_A_SUB:
        return m->atomic(m->opaque, addr, bytes, HSAGPU_GCN_ATOMIC_ADD,
                         (kind == GCN_A_ADD ? src : -src) & mask, 0, old);
    case GCN_A_SWAP:
        return m->atomic(m->opaque, addr, bytes, HSAGPU_GCN_ATOMIC_SWAP, src,
                         0, old);
    case GCN_A_CMPSWAP:
        return m->atomic(m->opaque, addr, bytes, HSAGPU_GCN_ATOMIC_CAS, cmp,
                         src, old);
    }
    err = m->read(m->opaque, addr, &seen, bytes);
    for (unsigned tries = 0; !err; tries++) {
        err = m->atomic(m->opaque, addr, bytes, HSAGPU_GCN_ATOMIC_CAS, seen,
                        gcn_atomic(kind, seen, src, cmp, 8 * bytes), &was);
        if (err || was == seen) {
            *old = seen;
            return err;
        }
        if (tries >= 1000) {
            return HSAGPU_GCN_CONTENDED;    /* someone always changes it */
        }
        seen = was;
    }
    return err;
}

/* @t's written bytes told to the memory, before it goes */
static void gcn_tlb_written(const HsaGpuGcnMem *mem, HsaGpuGcnTlb *t)
{
    if (t->len && t->dirty_hi > t->dirty_lo) {
        mem->written(mem->opaque, t->va + t->dirty_lo,
                     t->dirty_hi - t->dirty_lo);
    }
    t->dirty_lo = UINT32_MAX;
    t->dirty_hi = 0;
}

/*
 * hsagpu_gcn_tlb() missed: a view from @addr's page on (to the end of its
 * span at most) from the memory, kept in place of the one there; NULL
 * when there is none (or the access crosses the span: the callbacks
 * split it)
 */
uint8_t *hsagpu_gcn_tlb_fill(HsaGpuGcnGroup *g, uint64_t addr, uint32_t len,
                             bool write)
{
    HsaGpuGcnTlb *t = &g->tlb[hsagpu_gcn_tlb_page_slot(addr)];
    uint64_t page = addr & ~(uint64_t)(HSAGPU_GCN_TLB_PAGE - 1);
    uint64_t span = HSAGPU_GCN_TLB_SPAN - (page & (HSAGPU_GCN_TLB_SPAN - 1));
    uint32_t n = 0;
    uint8_t *h;

    if (addr - page + len > span || !len) {
        return NULL;
    }
    if (t->none && t->va == page && (t->write || !write)) {
        return NULL;            /* asked already: the callbacks */
    }
    h = g->mem->host(g->mem->opaque, page, write, &n);
    if (!h || addr - page + len > n) {
        if (!t->len) {
            /* not asked again until something else takes the place */
            *t = (HsaGpuGcnTlb) { .va = page, .write = write, .none = true };
        }
        return NULL;            /* a read view of the page stays */
    }
    n = n < span ? n : span;
    if (n == span) {
        t = &g->tlb[hsagpu_gcn_tlb_slot(addr)];     /* to the span's end */
    }
    gcn_tlb_written(g->mem, t);
    *t = (HsaGpuGcnTlb) {
        .va = page, .host = h, .write = write, .len = n,
        .dirty_lo = write ? addr - page : UINT32_MAX,
        .dirty_hi = write ? addr - page + len : 0,
    };
    return h + (addr - page);
}

void hsagpu_gcn_views_end(HsaGpuGcnViews *v, const HsaGpuGcnMem *mem)
{
    for (unsigned i = 0; mem->host && i < 2 * HSAGPU_GCN_TLB; i++) {
        gcn_tlb_written(mem, &v->tlb[i]);
        v->tlb[i] = (HsaGpuGcnTlb) { .len = 0 };
    }
}

/*
 * @lanes lanes of @n dwords each between a lane-ordered buffer @t and
 * memory @m: each lane's dwordx2 or dwordx4 whole when @m is aligned to
 * it (hsagpu_gcn_put_whole), else in one copy of the row
 */
static void gcn_put_lanes(uint8_t *m, const uint32_t *t, unsigned n,
                          unsigned lanes)
{
    if ((n == 2 || n == 4) && !((uintptr_t)m & (4 * n - 1))) {
        for (unsigned l = 0; l < lanes; l++) {
            hsagpu_gcn_put_whole(m + 4 * n * l, t + n * l, 4 * n);
        }
        return;
    }
    memcpy(m, t, 4 * n * lanes);
}

static void gcn_get_lanes(uint32_t *t, const uint8_t *m, unsigned n,
                          unsigned lanes)
{
    if ((n == 2 || n == 4) && !((uintptr_t)m & (4 * n - 1))) {
        for (unsigned l = 0; l < lanes; l++) {
            hsagpu_gcn_get_whole(t + n * l, m + 4 * n * l, 4 * n);
        }
        return;
    }
    memcpy(t, m, 4 * n * lanes);
}

/*
 * A whole wave's two or four dwords a lane: interleaved groups, which the
 * host compiler turns into vector shuffles (one lane at a time does not)
 */
HSAGPU_GCN_SIMD
static void gcn_unzip_wave(const uint8_t *m, unsigned n, HsaGpuGcnVreg *r)
{
    HSAGPU_GCN_SCRATCH uint32_t t[HSAGPU_GCN_WAVE * 4];

    gcn_get_lanes(t, m, n, HSAGPU_GCN_WAVE);
    if (n == 2) {
        for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
            r[0][l] = t[2 * l];
            r[1][l] = t[2 * l + 1];
        }
        return;
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        r[0][l] = t[4 * l];
        r[1][l] = t[4 * l + 1];
        r[2][l] = t[4 * l + 2];
        r[3][l] = t[4 * l + 3];
    }
}

HSAGPU_GCN_SIMD
static void gcn_zip_wave(HsaGpuGcnVreg *r, unsigned n, uint8_t *m)
{
    HSAGPU_GCN_SCRATCH uint32_t t[HSAGPU_GCN_WAVE * 4];

    if (n == 2) {
        for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
            t[2 * l] = r[0][l];
            t[2 * l + 1] = r[1][l];
        }
    } else {
        for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
            t[4 * l] = r[0][l];
            t[4 * l + 1] = r[1][l];
            t[4 * l + 2] = r[2][l];
            t[4 * l + 3] = r[3][l];
        }
    }
    gcn_put_lanes(m, t, n, HSAGPU_GCN_WAVE);
}

/*
 * @lanes lanes from @first of @n VGPRs from or to @m, lane after lane,
 * @n dwords each (unaligned bytes: a view or a block); one dword a lane
 * is one copy of the whole row
 */
static void gcn_unzip(const uint8_t *m, unsigned n, unsigned lanes,
                      unsigned first, HsaGpuGcnVreg *r)
{
    if (n == 1) {
        memcpy(&r[0][first], m, 4 * lanes);
        return;
    }
    if (lanes == HSAGPU_GCN_WAVE && (n == 2 || n == 4)) {
        gcn_unzip_wave(m, n, r);
        return;
    }
    for (unsigned l = 0; l < lanes; l++) {
        uint32_t t[4];

        gcn_get_lanes(t, m + 4 * n * l, n, 1);
        for (unsigned k = 0; k < n; k++) {
            r[k][first + l] = t[k];
        }
    }
}

static void gcn_zip(HsaGpuGcnVreg *r, unsigned n, unsigned lanes,
                    unsigned first, uint8_t *m)
{
    if (n == 1) {
        memcpy(m, &r[0][first], 4 * lanes);
        return;
    }
    if (lanes == HSAGPU_GCN_WAVE && (n == 2 || n == 4)) {
        gcn_zip_wave(r, n, m);
        return;
    }
    for (unsigned l = 0; l < lanes; l++) {
        uint32_t t[4];

        for (unsigned k = 0; k < n; k++) {
            t[k] = r[k][first + l];
        }
        gcn_put_lanes(m + 4 * n * l, t, n, 1);
    }
}

/* Do @n lanes' addresses @addr follow on, @bytes apart? (vectorised) */
HSAGPU_GCN_SIMD
static bool gcn_lanes_follow(const uint64_t *addr, unsigned n, unsigned bytes)
{
    uint64_t off = 0;

    for (unsigned l = 0; l < n; l++) {
        off |= addr[l] ^ (addr[0] + (uint64_t)l * bytes);
    }
    return !off;
}

/*
 * The lanes' addresses: @base plus a 32-bit offset (@hi NULL), or the
 * VGPR pair @lo, @hi; plus @off (vectorised)
 */
HSAGPU_GCN_SIMD
static void gcn_lane_addrs(const uint32_t *lo, const uint32_t *hi,
                           uint64_t base, int32_t off, uint64_t *addr)
{
    if (!hi) {
        for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
            addr[l] = base + lo[l] + off;
        }
        return;
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        addr[l] = (lo[l] | (uint64_t)hi[l] << 32) + off;
    }
}

/*
 * The coalescer: a dword load or store whose active lanes address one
 * contiguous block (lane l at base + l x size, as a wave's consecutive
 * work-items do) moves as one access of the whole block. True: done; false:
 * not contiguous, or the block access failed (the caller then goes lane
 * by lane and so finds the failing lane's address).
 */
static bool gcn_flat_block(HsaGpuGcnGroup *g, HsaGpuGcnWave *w, bool load,
                           const uint64_t addr[HSAGPU_GCN_WAVE],
                           unsigned bytes, HsaGpuGcnVreg *r)
{
    HSAGPU_GCN_SCRATCH uint32_t block[HSAGPU_GCN_WAVE * 4];
    unsigned first = __builtin_ctzll(w->exec), n = bytes / 4, lanes;
    uint8_t *h;

    if (bytes % 4 || (w->exec >> first) & ((w->exec >> first) + 1)) {
        return false;                   /* not dwords, or EXEC not a run */
    }
    lanes = 64 - first - __builtin_clzll(w->exec);
    if (!gcn_lanes_follow(addr + first, lanes, bytes)) {
        return false;
    }
    /* through a view when there is one: the bytes move once */
    h = hsagpu_gcn_tlb(g, addr[first], lanes * bytes, !load);
    if (load) {
        if (!h && hsagpu_gcn_read(g, addr[first], block, lanes * bytes)) {
            return false;
        }
        gcn_unzip(h ? h : (uint8_t *)block, n, lanes, first, r);
        return true;
    }
    gcn_zip(r, n, lanes, first, h ? h : (uint8_t *)block);
    return h || !hsagpu_gcn_write(g, addr[first], block, lanes * bytes);
}

/*
 * hsagpu_gcn_priv_rw of a dispatch whose scratch is in its address space
 * (HsaGpuGcnDispatch.scratch_va): the bytes at the wave's FLAT_SCRATCH
 * plus the swizzled offset, through the memory callbacks, so the queue's
 * VMID bounds what a shader reaches
 */
static bool gcn_scratch_rw(HsaGpuGcnGroup *g, HsaGpuGcnWave *w, unsigned l,
                           uint64_t a, uint64_t o, uint8_t *b, unsigned n,
                           bool write, const uint32_t *insn)
{
    uint64_t fs = w->flat_scratch[0] | (uint64_t)w->flat_scratch[1] << 32;

    for (unsigned k = 0, len; k < n; k += len) {
        uint64_t ob = o + k;
        uint64_t at = fs + a + (ob >> 2) * 4 * HSAGPU_GCN_WAVE + 4 * l +
                      (ob & 3);
        unsigned err;

        len = MIN(n - k, 4 - (ob & 3));
        err = write ? hsagpu_gcn_write(g, at, b + k, len)
                    : hsagpu_gcn_read(g, at, b + k, len);
        if (err) {
            g->st->mem_err = err;
            g->st->addr = at;
            hsagpu_gcn_fail(g, w, HSAGPU_GCN_MEM_FAULT, insn, "scratch");
            return false;
        }
    }
    return true;
}

bool hsagpu_gcn_priv_rw(HsaGpuGcnGroup *g, HsaGpuGcnWave *w, unsigned l,
                        uint64_t a, uint64_t o, void *buf, unsigned n,
                        bool write, const uint32_t *insn)
{
    HsaGpuGcnPriv *pv = g->priv;
    uint8_t *b = buf;

    if (g->d->scratch_va) {
        return gcn_scratch_rw(g, w, l, a, o, b, n, write, insn);
    }
    /* a run of bytes of one dword at a time (contiguous, in one page) */
    for (unsigned k = 0, len; k < n; k += len) {
        uint64_t ob = o + k, at, page, in;
        uint8_t **pp;

        /* past the wave's private memory: a stack that outgrew it */
        at = a + (ob >> 2) * 4 * HSAGPU_GCN_WAVE + 4 * l + (ob & 3);
        len = MIN(n - k, 4 - (ob & 3));
        page = pv ? (at + w->id * pv->wave_bytes) / HSAGPU_GCN_PRIV_PAGE : 0;
        if (!pv || at + len > pv->wave_bytes || page >= pv->npages) {
            g->st->mem_err = 0;
            g->st->addr = ob;
            hsagpu_gcn_fail(g, w, HSAGPU_GCN_MEM_FAULT, insn,
                            "private segment");
            return false;
        }
        in = (at + w->id * pv->wave_bytes) % HSAGPU_GCN_PRIV_PAGE;
        len = MIN(len, HSAGPU_GCN_PRIV_PAGE - in);
        pp = &pv->page[page];
        if (!write) {
            if (*pp) {
                memcpy(b + k, *pp + in, len);
            } else {
                memset(b + k, 0, len);
            }
            continue;
        }
        if (!*pp) {
            /* taken when first written, within the budget */
            if (!hsagpu_gcn_priv_charge(pv, 1)) {
                g->st->addr = ob;
                hsagpu_gcn_fail(g, w, HSAGPU_GCN_BAD_KD, insn,
                                "private memory past the budget");
                return false;
            }
            *pp = g_malloc0(HSAGPU_GCN_PRIV_PAGE);
            g->st->cleared += HSAGPU_GCN_PRIV_PAGE;
        }
        memcpy(*pp + in, b + k, len);
    }
    return true;
}

/* The LDS's @n bytes at @off: NULL out of range */
static uint8_t *gcn_lds(HsaGpuGcnGroup *g, uint64_t off, unsigned n)
{
    return hsagpu_gcn_window(g->lds, g->lds_size, off, n);
}

/*
 * One lane's access @m: at host bytes @p (the LDS or the lane's private
 * memory; NULL with @drop: out of range, a load gives 0, a store or an
 * atomic does nothing) or else at @addr through the memory callbacks.
 * Registers: @rd written (loads, atomics with glc), @rs read. 0, or the
 * callback's error (g->st->addr set).
 */
static unsigned gcn_lane(HsaGpuGcnGroup *g, const GcnMemOp *m, uint8_t *p,
                         bool drop, uint64_t addr, unsigned l,
                         HsaGpuGcnVreg *rd, HsaGpuGcnVreg *rs)
{
    const HsaGpuGcnMem *mem = g->mem;
    uint32_t buf[4] = { 0, 0, 0, 0 };
    uint64_t old = 0, src = 0, cmp = 0, nv;
    unsigned err = 0, h = m->bytes / 4;

    if (m->store || m->kind != GCN_A_NONE) {
        for (unsigned k = 0; k < m->ndata; k++) {
            buf[k] = rs[k][l];
        }
        if (m->hi) {
            buf[0] >>= 16;                          /* store_*_d16_hi */
        }
    }
    if (m->kind != GCN_A_NONE) {
        src = buf[0] | (h > 1 ? (uint64_t)buf[1] << 32 : 0);
        cmp = buf[h] | (h > 1 ? (uint64_t)buf[h + 1] << 32 : 0);
        if (p) {
            memcpy(&old, p, m->bytes);
            nv = gcn_atomic(m->kind, old, src, cmp, 8 * m->bytes);
            memcpy(p, &nv, m->bytes);
        } else if (drop) {
            old = 0;
        } else if (mem->atomic) {
            err = gcn_atomic_mem(g, addr, m->bytes, m->kind, src, cmp, &old);
        } else {
            err = mem->read(mem->opaque, addr, &old, m->bytes);
            if (!err) {
                nv = gcn_atomic(m->kind, old, src, cmp, 8 * m->bytes);
                err = mem->write(mem->opaque, addr, &nv, m->bytes);
            }
        }
        buf[0] = (uint32_t)old;
        buf[1] = old >> 32;
    } else if (m->store) {
        if (p) {
            memcpy(p, buf, m->bytes);
        } else if (!drop) {
            err = hsagpu_gcn_write(g, addr, buf, m->bytes);
        }
        return err;
    } else if (p) {
        memcpy(buf, p, m->bytes);
    } else if (!drop) {
        err = hsagpu_gcn_read(g, addr, buf, m->bytes);
    }
    if (err) {
        g->st->mem_err = err;
        g->st->addr = addr;
        return err;
    }
    if (m->d16) {
        /* a byte (zero- or sign-extended to 16 bits) or short: one half */
        uint32_t v = m->bytes == 1 ? (m->sext ? (uint16_t)(int8_t)buf[0]
                                              : (uint8_t)buf[0])
                                   : (uint16_t)buf[0];

        rd[0][l] = m->hi ? (rd[0][l] & 0xffff) | v << 16
                         : (rd[0][l] & 0xffff0000u) | v;
        return 0;
    }
    buf[0] = gcn_sext(buf[0], m->sext && m->bytes == 1,
                      m->sext && m->bytes == 2);
    for (unsigned k = 0; k < m->nret; k++) {
        rd[k][l] = buf[k];
    }
    return 0;
}

/*
 * Lane @l's access @m to its private memory at byte @o (@a: what MUBUF's
 * descriptor and soffset add, 0 otherwise; @lane_bound: also within the
 * lane's own segment size, for flat and scratch addresses), through a
 * copy of the bytes since the swizzled scratch is not contiguous per
 * lane. False when it failed the wave (g->st says why).
 */
static bool gcn_private_lane(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                             unsigned l, uint64_t a, uint64_t o,
                             bool lane_bound, const GcnMemOp *m,
                             HsaGpuGcnVreg *rd, HsaGpuGcnVreg *rs,
                             const uint32_t *insn)
{
    uint8_t tmp[16];

    if (lane_bound && o + m->bytes > g->priv_size) {
        /* the lane's own bytes: past its segment, a stack overflow */
        g->st->mem_err = 0;
        g->st->addr = o;
        hsagpu_gcn_fail(g, w, HSAGPU_GCN_MEM_FAULT, insn, "private segment");
        return false;
    }
    /* a plain store replaces the bytes: only loads and atomics read */
    if ((!m->store || m->kind != GCN_A_NONE) &&
        !hsagpu_gcn_priv_rw(g, w, l, a, o, tmp, m->bytes, false, insn)) {
        return false;
    }
    gcn_lane(g, m, tmp, false, 0, l, rd, rs);
    return !(m->store || m->kind != GCN_A_NONE) ||
           hsagpu_gcn_priv_rw(g, w, l, a, o, tmp, m->bytes, true, insn);
}

/*
 * FLAT instructions of a wave with lanes in the shared or private
 * aperture (generic pointers to local or private data): those lanes use
 * the LDS (out of range: 0 read, writes and atomics dropped, as ds_*) or
 * their private memory, the others global memory; atomics too.
 */
static unsigned gcn_flat_apertures(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                                   const uint32_t *insn, const uint64_t *addr,
                                   const GcnMemOp *m, HsaGpuGcnVreg *rd,
                                   HsaGpuGcnVreg *rs)
{
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        unsigned ap = addr[l] >> 48;
        uint64_t off = addr[l] & 0xffffffffffffULL;
        uint8_t *p = NULL;

        if (!((w->exec >> l) & 1)) {
            continue;
        }
        if (ap == HSAGPU_GCN_APERTURE_PRIVATE) {
            if (!gcn_private_lane(g, w, l, 0, off, true, m, rd, rs, insn)) {
                return 0;
            }
            continue;
        } else if (ap == HSAGPU_GCN_APERTURE_SHARED) {
            p = gcn_lds(g, off, m->bytes);
        }
        if (gcn_lane(g, m, p, ap == HSAGPU_GCN_APERTURE_SHARED, addr[l], l,
                     rd, rs)) {
            return hsagpu_gcn_fail(g, w, HSAGPU_GCN_MEM_FAULT, insn,
                                   m->load ? "load" : m->store ? "store"
                                                               : "atomic");
        }
    }
    return 2;
}

/*
 * FLAT, GLOBAL and SCRATCH (gfx9 opcodes): loads of bytes, shorts, 1-4
 * dwords and 16-bit halves (d16, d16_hi), stores of the same, 32- and
 * 64-bit atomics (with the old value returned when glc is set). GLOBAL
 * adds an SGPR base (the VGPR then a 32-bit offset) and a signed 13-bit
 * offset; SCRATCH addresses the lane's private memory with an SGPR or a
 * VGPR offset (one of them, SGPR when named) and the signed 13-bit one.
 */
unsigned hsagpu_gcn_flat(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                         const uint32_t *insn)
{
    unsigned op = (insn[0] >> 18) & 0x7f, seg = (insn[0] >> 14) & 3;
    bool glc = (insn[0] >> 16) & 1;
    /* FLAT: 12-bit unsigned offset; GLOBAL, SCRATCH: 13-bit signed */
    int32_t off = seg != GCN_FLAT_SEG_FLAT ? ((int32_t)(insn[0] << 19) >> 19)
                                           : (int32_t)(insn[0] & 0xfff);
    unsigned vdst = insn[1] >> 24, saddr = (insn[1] >> 16) & 0x7f;
    unsigned data = (insn[1] >> 8) & 0xff, vaddr = insn[1] & 0xff;
    bool sbase = seg != GCN_FLAT_SEG_FLAT && saddr != 0x7f;
    bool scratch = seg == GCN_FLAT_SEG_SCRATCH;
    uint64_t base = 0;
    HSAGPU_GCN_SCRATCH uint64_t lane_addr[HSAGPU_GCN_WAVE];
    HsaGpuGcnVreg *rd, *rs, *ra;
    GcnMemOp m;

    if (seg == 3 || !gcn_mem_op(op, glc, &m) ||
        (scratch && m.kind != GCN_A_NONE)) {
        return hsagpu_gcn_refuse(g, w, insn, "flat");
    }
    if (sbase && !hsagpu_gcn_sread(w, saddr, 0, !scratch, &base)) {
        return hsagpu_gcn_refuse(g, w, insn, "saddr");
    }
    /* registers past the allocation: hsagpu_gcn_vsrc() */
    if (!hsagpu_gcn_vregs(w, vdst, m.nret, &rd)) {
        return hsagpu_gcn_vdst_nop(w, 2);
    }
    if (!hsagpu_gcn_vsrc(w, data, m.ndata, &rs) ||
        !hsagpu_gcn_vsrc(w, vaddr, scratch ? !sbase : sbase ? 1 : 2, &ra)) {
        return hsagpu_gcn_refuse(g, w, insn, "VGPR past the allocation");
    }
    if (!w->exec) {
        return 2;
    }
    if (scratch) {
        for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
            uint64_t o = (uint32_t)((sbase ? (uint32_t)base : ra[0][l]) + off);

            if ((w->exec >> l) & 1 &&
                !gcn_private_lane(g, w, l, 0, o, true, &m, rd, rs, insn)) {
                return 0;
            }
        }
        return 2;
    }
    gcn_lane_addrs(ra[0], sbase ? NULL : ra[1], base, off, lane_addr);
    for (unsigned l = 0; seg == GCN_FLAT_SEG_FLAT && l < HSAGPU_GCN_WAVE; l++) {
        unsigned ap = lane_addr[l] >> 48;

        if ((w->exec >> l) & 1 && (ap == HSAGPU_GCN_APERTURE_SHARED ||
                                   ap == HSAGPU_GCN_APERTURE_PRIVATE)) {
            return gcn_flat_apertures(g, w, insn, lane_addr, &m, rd, rs);
        }
    }
    if ((m.load || m.store) && !m.d16 &&
        gcn_flat_block(g, w, m.load, lane_addr, m.bytes, m.load ? rd : rs)) {
        return 2;
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        if ((w->exec >> l) & 1 &&
            gcn_lane(g, &m, NULL, false, lane_addr[l], l, rd, rs)) {
            return hsagpu_gcn_fail(g, w, HSAGPU_GCN_MEM_FAULT, insn,
                                   m.load ? "load" : m.store ? "store"
                                                             : "atomic");
        }
    }
    return 2;
}

/*
 * Typed buffer data (MTBUF's dfmt/nfmt, the V#'s for buffer_*_format):
 * the bits per component of data format @dfmt and how many (0: not one
 * the interpreter converts: the packed 10/11-bit ones, reserved ones)
 */
static unsigned gcn_dfmt(unsigned dfmt, unsigned *count)
{
    static const uint8_t bits[16] = {
        0, 8, 16, 8, 32, 16, 0, 0, 0, 0, 8, 32, 16, 32, 32, 0,
    };
    static const uint8_t cnt[16] = {
        0, 1, 1, 2, 1, 2, 0, 0, 0, 0, 4, 2, 4, 3, 4, 0,
    };

    *count = cnt[dfmt & 15];
    return bits[dfmt & 15];
}

/* Is @nfmt one the interpreter converts for components of @bits */
static bool gcn_nfmt_ok(unsigned nfmt, unsigned bits)
{
    return nfmt <= 5 ? bits < 32 || nfmt >= 4 :    /* norm, scaled: 8, 16 */
           nfmt == 7 && bits >= 16;                 /* float: half, float */
}

/* Component @c (@bits wide, number format @nfmt) as a register's dword */
static uint32_t gcn_fmt_load(uint32_t c, unsigned bits, unsigned nfmt)
{
    uint32_t max = bits == 32 ? UINT32_MAX : (1u << bits) - 1;
    int32_t sc = bits == 32 ? (int32_t)c
                            : (int32_t)(c << (32 - bits)) >> (32 - bits);
    float f;

    switch (nfmt) {
    case 0:                                         /* UNORM */
        f = (float)c / (float)max;
        break;
    case 1:                                         /* SNORM */
        f = (float)sc / (float)(max >> 1);
        f = f < -1.0f ? -1.0f : f;
        break;
    case 2:                                         /* USCALED */
        f = (float)c;
        break;
    case 3:                                         /* SSCALED */
        f = (float)sc;
        break;
    case 4:                                         /* UINT */
        return c;
    case 5:                                         /* SINT */
        return (uint32_t)sc;
    default:                                        /* FLOAT */
        if (bits == 32) {
            return c;
        }
        f = hsagpu_gcn_h2f((uint16_t)c);
        break;
    }
    return hsagpu_gcn_u32f(f, false);
}

/* A register's dword @v as component bits of @bits, number format @nfmt */
static uint32_t gcn_fmt_store(uint32_t v, unsigned bits, unsigned nfmt)
{
    uint32_t max = bits == 32 ? UINT32_MAX : (1u << bits) - 1;
    float f = hsagpu_gcn_f32(v, false);
    double d;

    switch (nfmt) {
    case 0:                                         /* UNORM */
    case 1:                                         /* SNORM */
        d = f != f ? 0 : f > 1 ? 1 : f < (nfmt ? -1 : 0) ? (nfmt ? -1 : 0) : f;
        return (uint32_t)(int32_t)nearbyint(d * (nfmt ? max >> 1 : max)) &
               max;
    case 2:                                         /* USCALED */
        d = f != f || f < 0 ? 0 : f > max ? max : f;
        return (uint32_t)d;
    case 3:                                         /* SSCALED */
        d = f != f ? 0 : f;
        d = d > (max >> 1) ? (max >> 1) : d < -(double)(max >> 1) - 1 ?
            -(double)(max >> 1) - 1 : d;
        return (uint32_t)(int32_t)d & max;
    case 4:                                         /* UINT */
    case 5:                                         /* SINT */
        return v & max;
    default:                                        /* FLOAT */
        return bits == 32 ? v : hsagpu_gcn_f2h(f, false);
    }
}

/*
 * MUBUF and MTBUF: the buffer resource (V#, four SGPRs) says where.
 * The descriptor the wave started with (base HSAGPU_GCN_PRIVATE_BASE and
 * up) reaches the lane's own private memory at its base offset + soffset
 * + the offsets (an access past the segment fails the dispatch: a stack
 * that outgrew what the descriptor asked for). Any other is a buffer in
 * the address space: base [47:0], stride [61:48], swizzle [63],
 * num_records, add_tid_enable, index_stride; the index (idxen's VGPR +
 * the lane with add_tid_enable) and offset (the instruction's + offen's
 * VGPR) make the address, swizzled in 4-byte elements when asked (gfx9
 * has no element size). Range checks as the hardware's: with stride 0
 * the offset (soffset not counted) against num_records in bytes, dword
 * by dword for dwordx2-4; else the index against num_records (and,
 * swizzled, the offset against the stride); format loads, stores and
 * atomics all or nothing. Out of range, loads give 0 and stores and
 * atomics do nothing. The address itself goes through the memory
 * callbacks like any other, so a descriptor reaches nothing they refuse.
 */
unsigned hsagpu_gcn_mubuf(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                          const uint32_t *insn)
{
    bool mt = GCN_ENC_MTBUF(insn[0]);
    unsigned op = mt ? (insn[0] >> 15) & 0xf : (insn[0] >> 18) & 0x7f;
    unsigned inst_off = insn[0] & 0xfff;
    bool offen = (insn[0] >> 12) & 1, idxen = (insn[0] >> 13) & 1;
    bool glc = (insn[0] >> 14) & 1;
    unsigned vaddr = insn[1] & 0xff, vdata = (insn[1] >> 8) & 0xff;
    unsigned srsrc = ((insn[1] >> 16) & 0x1f) * 4, soff = insn[1] >> 24;
    unsigned dfmt, nfmt, bits = 0, ncomp = 0, fcount = 0;
    bool fmt = mt || op <= GCN_BUFFER_STORE_FORMAT_XYZW, priv;
    uint64_t base, so, stride, nrec, istride;
    const uint32_t *rsrc = hsagpu_gcn_sregs(w, srsrc, 4);
    HsaGpuGcnVreg *rd, *rs, *ra;
    GcnMemOp m;

    if (!mt && (op == GCN_BUFFER_WBINVL1 || op == GCN_BUFFER_WBINVL1_VOL)) {
        /* no L1 here: the acquire it completes, a host fence */
        hsagpu_gcn_fence();
        return 2;
    }
    if (fmt) {
        if (op > GCN_TBUFFER_STORE_FORMAT_XYZW) {
            return hsagpu_gcn_refuse(g, w, insn, "tbuffer d16");
        }
        m = (GcnMemOp) { .kind = GCN_A_NONE };
        ncomp = (op & 3) + 1;
        m.load = !(op & 4);
        m.store = !m.load;
        m.nret = m.load ? ncomp : 0;
        m.ndata = m.store ? ncomp : 0;
    } else if (!gcn_mem_op(op, glc, &m)) {
        return hsagpu_gcn_refuse(g, w, insn, mt ? "mtbuf" : "mubuf");
    }
    if ((!mt && (insn[0] >> 16) & 1) /* lds */ || !rsrc ||
        soff == GCN_SRC_LITERAL || !hsagpu_gcn_sread(w, soff, 0, false, &so)) {
        return hsagpu_gcn_refuse(g, w, insn, mt ? "mtbuf" : "mubuf");
    }
    base = rsrc[0] | (uint64_t)(rsrc[1] & 0xffff) << 32;
    stride = (rsrc[1] >> 16) & 0x3fff;
    nrec = rsrc[2];
    istride = 8u << ((rsrc[3] >> 21) & 3);
    /* the interpreter's own private memory (AQL: the ABI's descriptor) */
    priv = base >= HSAGPU_GCN_PRIVATE_BASE && !g->d->scratch_va;
    if (fmt) {
        dfmt = mt ? (insn[0] >> 19) & 0xf : (rsrc[3] >> 15) & 0xf;
        nfmt = mt ? (insn[0] >> 23) & 0x7 : (rsrc[3] >> 12) & 0x7;
        bits = gcn_dfmt(dfmt, &fcount);
        if (!bits || !gcn_nfmt_ok(nfmt, bits) || priv) {
            return hsagpu_gcn_refuse(g, w, insn,
                                     "buffer format not converted");
        }
        m.bytes = bits / 8 * (ncomp < fcount ? ncomp : fcount);
    } else {
        dfmt = nfmt = 0;
    }
    if (priv && idxen) {
        return hsagpu_gcn_refuse(g, w, insn, "mubuf: private idxen");
    }
    /* registers past the allocation: hsagpu_gcn_vsrc() */
    if (!hsagpu_gcn_vregs(w, vdata, m.nret, &rd)) {
        return hsagpu_gcn_vdst_nop(w, 2);
    }
    if (!hsagpu_gcn_vsrc(w, vdata, m.ndata, &rs) ||
        !hsagpu_gcn_vsrc(w, vaddr, offen + idxen, &ra)) {
        return hsagpu_gcn_refuse(g, w, insn, "VGPR past the allocation");
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        uint64_t idx = (idxen ? ra[0][l] : 0) +
                       ((rsrc[3] >> 23) & 1 ? l : 0);
        /* the lane's offset: the instruction's and the VGPR, 32 bits */
        uint64_t off = (uint32_t)(inst_off + (offen ? ra[idxen][l] : 0));
        uint64_t boff, addr;
        unsigned n = m.nret + m.ndata, err = 0;

        if (!((w->exec >> l) & 1)) {
            continue;
        }
        if (priv) {
            /*
             * The hardware's swizzled scratch: the lane's offset
             * swizzled, then the descriptor's base offset and soffset
             * (compiled code's wave-scaled stack pointer) added
             */
            if (!gcn_private_lane(g, w, l, base - HSAGPU_GCN_PRIVATE_BASE +
                                  (uint32_t)so, off, false, &m, rd, rs,
                                  insn)) {
                return 0;
            }
            continue;
        }
        if (rsrc[1] >> 31) {                        /* swizzled */
            boff = (idx / istride * stride + off / 4 * 4) * istride +
                   idx % istride * 4 + off % 4;
        } else {
            boff = idx * stride + off;
        }
        addr = base + (uint32_t)so + boff;
        if (stride ? idx >= nrec || (rsrc[1] >> 31 && off >= stride)
                   : off + m.bytes > nrec) {
            if (!stride && !fmt && m.kind == GCN_A_NONE && m.bytes > 4) {
                /* dwordx2-4: each dword in range moves, the others not */
                GcnMemOp one = m;

                one.bytes = 4;
                one.nret = one.ndata = 0;
                for (unsigned k = 0; k < n && !err; k++) {
                    one.nret = m.load;
                    one.ndata = m.store;
                    err = gcn_lane(g, &one, NULL, off + 4 * k + 4 > nrec,
                                   addr + 4 * k, l, m.load ? rd + k : NULL,
                                   m.store ? rs + k : NULL);
                }
            } else if (fmt && m.load) {
                for (unsigned k = 0; k < ncomp; k++) {
                    rd[k][l] = 0;
                }
            } else {
                err = gcn_lane(g, &m, NULL, true, addr, l, rd, rs);
            }
        } else if (fmt) {
            uint32_t raw[4] = { 0, 0, 0, 0 };
            uint8_t bytes[16];
            unsigned cb = bits / 8, have = m.bytes / cb;

            if (m.store) {
                for (unsigned k = 0; k < have; k++) {
                    raw[k] = gcn_fmt_store(rs[k][l], bits, nfmt);
                    memcpy(bytes + k * cb, &raw[k], cb);
                }
                err = hsagpu_gcn_write(g, addr, bytes, m.bytes);
            } else {
                err = hsagpu_gcn_read(g, addr, bytes, m.bytes);
                for (unsigned k = 0; !err && k < ncomp; k++) {
                    /* missing components: 0, and w 1 */
                    if (k < have) {
                        memcpy(&raw[k], bytes + k * cb, cb);
                        rd[k][l] = gcn_fmt_load(raw[k], bits, nfmt);
                    } else {
                        rd[k][l] = k < 3 ? 0 : nfmt == 7 ? 0x3f800000u : 1;
                    }
                }
            }
            if (err) {
                g->st->mem_err = err;
                g->st->addr = addr;
            }
        } else {
            err = gcn_lane(g, &m, NULL, false, addr, l, rd, rs);
        }
        if (err) {
            return hsagpu_gcn_fail(g, w, HSAGPU_GCN_MEM_FAULT, insn,
                                   m.load ? "buffer load" :
                                   m.store ? "buffer store" :
                                   "buffer atomic");
        }
    }
    return 2;
}
/*
 * LDS access of @n bytes at 32-bit address @a (DS addresses wrap at 32
 * bits): reads out of range give 0, writes are dropped
 */
static uint64_t gcn_lds_get(HsaGpuGcnGroup *g, uint32_t a, unsigned n)
{
    uint64_t v = 0;
    const uint8_t *p = gcn_lds(g, a, n);

    if (p) {
        memcpy(&v, p, n);
    }
    return v;
}

static void gcn_lds_put(HsaGpuGcnGroup *g, uint32_t a, uint64_t v,
                        unsigned n)
{
    uint8_t *p = gcn_lds(g, a, n);

    if (p) {
        memcpy(p, &v, n);
    }
}

/*
 * The atomic kind of DS opcode @op: GCN_A_NONE, or its kind with *@rtn
 * (the old value returned) and *@wide (64 bits)
 */
static unsigned gcn_ds_kind(unsigned op, bool *rtn, bool *wide)
{
    /* the four rows: ds_add_u32 .. ds_mskor_b32 and the same further up */
    static const unsigned row[4] = {
        GCN_DS_ADD_U32, GCN_DS_ADD_RTN_U32, GCN_DS_ADD_U64, GCN_DS_ADD_RTN_U64,
    };
    unsigned r = op >= GCN_DS_ADD_RTN_U64 ? 3 : op >= GCN_DS_ADD_U64 ? 2 :
                 op >= GCN_DS_ADD_RTN_U32 ? 1 : 0;

    *rtn = r & 1;
    *wide = r >= 2;
    switch (op - row[r] + GCN_DS_ADD_U32) {
    case GCN_DS_ADD_U32:
        return GCN_A_ADD;
    case GCN_DS_SUB_U32:
        return GCN_A_SUB;
    case GCN_DS_RSUB_U32:
        return GCN_A_RSUB;
    case GCN_DS_INC_U32:
        return GCN_A_INC;
    case GCN_DS_DEC_U32:
        return GCN_A_DEC;
    case GCN_DS_MIN_I32:
        return GCN_A_SMIN;
    case GCN_DS_MAX_I32:
        return GCN_A_SMAX;
    case GCN_DS_MIN_U32:
        return GCN_A_UMIN;
    case GCN_DS_MAX_U32:
        return GCN_A_UMAX;
    case GCN_DS_AND_B32:
        return GCN_A_AND;
    case GCN_DS_OR_B32:
        return GCN_A_OR;
    case GCN_DS_XOR_B32:
        return GCN_A_XOR;
    case GCN_DS_MSKOR_B32:
        return GCN_A_MSKOR;
    default:
        return GCN_A_NONE;
    }
}

/* An fp32 (@n 4) or fp64 LDS word as a double, denormals as the mode says */
static double gcn_ds_f(HsaGpuGcnGroup *g, uint64_t v, unsigned n)
{
    double d;

    if (n == 4) {
        return hsagpu_gcn_f32((uint32_t)v, g->ftz32);
    }
    if (g->ftz64 && !(v & 0x7ff0000000000000ULL)) {
        v &= 1ULL << 63;
    }
    memcpy(&d, &v, 8);
    return d;
}

static uint64_t gcn_ds_uf(HsaGpuGcnGroup *g, double d, unsigned n)
{
    uint64_t v;

    if (n == 4) {
        return hsagpu_gcn_u32f((float)d, g->ftz32);
    }
    memcpy(&v, &d, 8);
    if (g->ftz64 && !(v & 0x7ff0000000000000ULL)) {
        v &= 1ULL << 63;
    }
    return v;
}

/*
 * The value the LDS float atomics (ds_add_f32, ds_min/max_f32/f64) leave:
 * IEEE-mode min and max (a NaN operand gives the other, -0 below +0)
 */
static uint64_t gcn_ds_fop(HsaGpuGcnGroup *g, unsigned op, uint64_t old,
                           uint64_t src, unsigned n)
{
    double a = gcn_ds_f(g, old, n), b = gcn_ds_f(g, src, n), r;
    bool max = op == GCN_DS_MAX_F32 || op == GCN_DS_MAX_RTN_F32 ||
               op == GCN_DS_MAX_F64 || op == GCN_DS_MAX_RTN_F64;

    if (op == GCN_DS_ADD_F32 || op == GCN_DS_ADD_RTN_F32) {
        return gcn_ds_uf(g, (float)a + (float)b, n);
    }
    if (isnan(a) || isnan(b)) {
        r = isnan(a) ? b : a;
    } else if (a == b) {
        r = signbit(a) == max ? b : a;
    } else {
        r = (a < b) != max ? a : b;
    }
    return gcn_ds_uf(g, r, n);
}

/* ds_swizzle_b32's source lane for lane @l (offset: the pattern) */
static unsigned gcn_swizzle(unsigned off, unsigned l)
{
    if (off & 0x8000) {                             /* quad permute */
        return (l & ~3u) | ((off >> (2 * (l & 3))) & 3);
    }
    /* bit mode, within groups of 32 lanes: and, or, xor masks */
    return (l & 32) | ((((l & 31) & (off & 31)) | ((off >> 5) & 31)) ^
                       ((off >> 10) & 31));
}

/*
 * Global wave sync: ds_gws_* on the queue's resources (HsaGpuGcnGws),
 * resource M0[21:16] + offset. The data is the first active lane's of
 * the VGPR in the ADDR field. A wave that must wait stops here (its pc
 * past the instruction) until hsagpu_gcn_gws_ready() lets it go on.
 */
static unsigned gcn_gws(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                        const uint32_t *insn, unsigned op)
{
    HsaGpuGcnGws *gws = g->d->gws;
    unsigned rid = ((w->m0 >> 16) & 63) + (insn[0] & 63);
    HsaGpuGcnVreg *ra;
    uint32_t data = 0;

    if (!gws || rid >= gws->num) {
        /* a real queue without GWS faults (its memory violation) too */
        return hsagpu_gcn_refuse(g, w, insn, !gws || !gws->num ?
                                 "ds_gws_* on a queue without GWS" :
                                 "GWS resource past the queue's");
    }
    if (op != GCN_DS_GWS_SEMA_RELEASE_ALL && op != GCN_DS_GWS_SEMA_V &&
        op != GCN_DS_GWS_SEMA_P) {
        if (!hsagpu_gcn_vsrc(w, insn[1] & 0xff, 1, &ra)) {
            return hsagpu_gcn_refuse(g, w, insn, "VGPR past the allocation");
        }
        if (!w->exec) {
            return 2;           /* no lane: no data, nothing done */
        }
        data = (*ra)[__builtin_ctzll(w->exec)];
    }
    switch (op) {
    case GCN_DS_GWS_INIT:
        gws->counter[rid] = data;
        break;
    case GCN_DS_GWS_SEMA_V:
        gws->counter[rid]++;
        break;
    case GCN_DS_GWS_SEMA_BR:
        gws->counter[rid] += data;
        break;
    case GCN_DS_GWS_SEMA_RELEASE_ALL:
        /* as many counts as waves wait: every one of them goes on */
        gws->counter[rid] += gws->waiting[rid];
        break;
    case GCN_DS_GWS_SEMA_P:
        if (gws->counter[rid]) {
            gws->counter[rid]--;
            break;
        }
        gws->waiting[rid]++;
        w->gws_wait = GCN_GWS_SEMA;
        w->gws_rid = rid;
        break;
    case GCN_DS_GWS_BARRIER:
        if (!gws->counter[rid]) {
            /* the last to arrive: the others go on, the count reloads */
            gws->counter[rid] = data;
            gws->gen[rid] = (gws->gen[rid] + 1) & HSAGPU_GCN_GWS_GEN_MASK;
            break;
        }
        gws->counter[rid]--;
        w->gws_wait = GCN_GWS_BARRIER;
        w->gws_rid = rid;
        w->gws_gen = gws->gen[rid];
        break;
    }
    return 2;
}

bool hsagpu_gcn_gws_ready(const HsaGpuGcnDispatch *d, HsaGpuGcnWave *w)
{
    HsaGpuGcnGws *gws = d->gws;
    unsigned rid = w->gws_rid;

    if (w->gws_wait == GCN_GWS_NONE) {
        return true;
    }
    if (!gws || rid >= gws->num) {
        /* the queue lost its GWS (a migrated-in wait): nothing to wait on */
        w->gws_wait = GCN_GWS_NONE;
        return true;
    }
    if (w->gws_wait == GCN_GWS_BARRIER ? gws->gen[rid] == w->gws_gen :
        !gws->counter[rid]) {
        return false;
    }
    if (w->gws_wait == GCN_GWS_SEMA) {
        gws->counter[rid]--;
        gws->waiting[rid] -= !!gws->waiting[rid];
    }
    w->gws_wait = GCN_GWS_NONE;
    return true;
}

/*
 * A plain DS load (@nret registers) or store of whole dwords, what
 * compiled code moves through the LDS with (ds_read/ds_write _b32..
 * _b128, read2/write2 of @two elements @scale bytes apart in units of
 * their offsets): the general loop's semantics (32-bit addresses that
 * wrap; an element of up to 8 bytes in range whole or not at all, a
 * wider one dword by dword; out of range: 0 read, nothing written; lanes
 * in order), in one loop without its per-lane tests. @n: bytes per
 * element.
 */
static void gcn_ds_move(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                        const uint32_t *insn, unsigned n, bool two,
                        unsigned scale, bool load, HsaGpuGcnVreg *ra,
                        HsaGpuGcnVreg *rd, HsaGpuGcnVreg *r0,
                        HsaGpuGcnVreg *r1)
{
    unsigned parts = two ? 2 : 1, nw = n / 4;
    uint32_t off[2] = { insn[0] & 0xffff, 0 };

    if (two) {
        off[0] = (insn[0] & 0xff) * scale;
        off[1] = ((insn[0] >> 8) & 0xff) * scale;
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        /* before any result: the address register may be one */
        uint32_t a = ra[0][l];

        if (!((w->exec >> l) & 1)) {
            continue;
        }
        for (unsigned p = 0; p < parts; p++) {
            uint32_t at = a + off[p];
            HsaGpuGcnVreg *data = p ? r1 : r0;

            for (unsigned k = 0; k < nw; k++) {
                /* up to 8 bytes: one window for the element */
                uint8_t *q = n <= 8 ? gcn_lds(g, at, n) :
                             gcn_lds(g, (uint32_t)(at + 4 * k), 4);
                unsigned o = n <= 8 ? 4 * k : 0;

                if (load) {
                    uint32_t v = 0;

                    if (q) {
                        memcpy(&v, q + o, 4);
                    }
                    rd[p * nw + k][l] = v;
                } else if (q) {
                    memcpy(q + o, &data[k][l], 4);
                }
            }
        }
    }
}

/*
 * DS: reads and writes of bytes, shorts, 1-4 dwords and dword or qword
 * pairs; atomics of 32 and 64 bits with and without the old value;
 * compare-store; swizzle, permute and backward permute across lanes.
 */
unsigned hsagpu_gcn_ds(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                       const uint32_t *insn)
{
    unsigned op = (insn[0] >> 17) & 0xff, off = insn[0] & 0xffff;
    unsigned off0 = insn[0] & 0xff, off1 = (insn[0] >> 8) & 0xff;
    unsigned vdst = insn[1] >> 24, data0 = (insn[1] >> 8) & 0xff;
    unsigned data1 = (insn[1] >> 16) & 0xff, vaddr = insn[1] & 0xff;
    unsigned n = 0, nret = 0, nd = 0, cnt, kind, scale;
    bool two = false, rtn, wide;
    bool cmpst = op == GCN_DS_CMPST_B32 || op == GCN_DS_CMPST_RTN_B32 ||
                 op == GCN_DS_CMPST_F32 || op == GCN_DS_CMPST_RTN_F32 ||
                 op == GCN_DS_CMPST_B64 || op == GCN_DS_CMPST_RTN_B64 ||
                 op == GCN_DS_CMPST_F64 || op == GCN_DS_CMPST_RTN_F64;
    /* compares as floats: ds_cmpst_f32/f64 */
    bool fcmp = op == GCN_DS_CMPST_F32 || op == GCN_DS_CMPST_RTN_F32 ||
                op == GCN_DS_CMPST_F64 || op == GCN_DS_CMPST_RTN_F64;
    /* float atomics: ds_add_f32, ds_min/max_f32/f64 */
    bool fat = false, d16 = false;
    bool cross = op == GCN_DS_SWIZZLE_B32 || op == GCN_DS_PERMUTE_B32 ||
                 op == GCN_DS_BPERMUTE_B32;
    HsaGpuGcnVreg *ra, *r0, *r1, *rd;

    if (op >= GCN_DS_GWS_SEMA_RELEASE_ALL && op <= GCN_DS_GWS_BARRIER) {
        return gcn_gws(g, w, insn, op);
    }
    kind = gcn_ds_kind(op, &rtn, &wide);
    /* sizes: n bytes per element, nret/nd registers read/written */
    switch (op) {
    case GCN_DS_WRITE_B8:
        n = 1;
        nd = 1;
        break;
    case GCN_DS_WRITE_B16:
        n = 2;
        nd = 1;
        break;
    case GCN_DS_WRITE_B32:
        n = 4;
        nd = 1;
        break;
    case GCN_DS_WRITE2_B32:
    case GCN_DS_WRITE2ST64_B32:
        n = 4;
        two = true;
        nd = 1;
        break;
    case GCN_DS_WRITE2_B64:
    case GCN_DS_WRITE2ST64_B64:
        n = 8;
        two = true;
        nd = 2;
        break;
    case GCN_DS_NOP:
        return 2;
    case GCN_DS_CMPST_B32:
    case GCN_DS_CMPST_RTN_B32:
    case GCN_DS_CMPST_F32:
    case GCN_DS_CMPST_RTN_F32:
    case GCN_DS_WRAP_RTN_B32:
        n = 4;
        nd = 1;
        nret = op != GCN_DS_CMPST_B32 && op != GCN_DS_CMPST_F32;
        break;
    case GCN_DS_CMPST_B64:
    case GCN_DS_CMPST_RTN_B64:
    case GCN_DS_CMPST_F64:
    case GCN_DS_CMPST_RTN_F64:
        n = 8;
        nd = 2;
        nret = op == GCN_DS_CMPST_RTN_B64 || op == GCN_DS_CMPST_RTN_F64 ? 2
                                                                        : 0;
        break;
    case GCN_DS_ADD_F32:
    case GCN_DS_MIN_F32:
    case GCN_DS_MAX_F32:
    case GCN_DS_ADD_RTN_F32:
    case GCN_DS_MIN_RTN_F32:
    case GCN_DS_MAX_RTN_F32:
        fat = true;
        n = 4;
        nd = 1;
        nret = op >= GCN_DS_ADD_RTN_U32;
        break;
    case GCN_DS_MIN_F64:
    case GCN_DS_MAX_F64:
    case GCN_DS_MIN_RTN_F64:
    case GCN_DS_MAX_RTN_F64:
        fat = true;
        n = 8;
        nd = 2;
        nret = op >= GCN_DS_ADD_RTN_U64 ? 2 : 0;
        break;
    case GCN_DS_WRXCHG_RTN_B32:
    case GCN_DS_WRXCHG_RTN_B64:
        n = op == GCN_DS_WRXCHG_RTN_B32 ? 4 : 8;
        nd = nret = n / 4;
        break;
    case GCN_DS_WRXCHG2_RTN_B32:
    case GCN_DS_WRXCHG2ST64_RTN_B32:
    case GCN_DS_WRXCHG2_RTN_B64:
    case GCN_DS_WRXCHG2ST64_RTN_B64:
        n = op <= GCN_DS_WRXCHG2ST64_RTN_B32 ? 4 : 8;
        two = true;
        nd = n / 4;
        nret = 2 * nd;
        break;
    case GCN_DS_WRITE_B8_D16_HI:
    case GCN_DS_WRITE_B16_D16_HI:
        n = op == GCN_DS_WRITE_B8_D16_HI ? 1 : 2;
        nd = 1;
        break;
    case GCN_DS_READ_U8_D16 ... GCN_DS_READ_U16_D16_HI:
        n = op >= GCN_DS_READ_U16_D16 ? 2 : 1;
        nret = 1;
        d16 = true;
        break;
    case GCN_DS_READ_I8:
    case GCN_DS_READ_U8:
        n = 1;
        nret = 1;
        break;
    case GCN_DS_READ_I16:
    case GCN_DS_READ_U16:
        n = 2;
        nret = 1;
        break;
    case GCN_DS_READ_B32:
        n = 4;
        nret = 1;
        break;
    case GCN_DS_READ2_B32:
    case GCN_DS_READ2ST64_B32:
        n = 4;
        two = true;
        nret = 2;
        break;
    case GCN_DS_READ2_B64:
    case GCN_DS_READ2ST64_B64:
        n = 8;
        two = true;
        nret = 4;
        break;
    case GCN_DS_SWIZZLE_B32:
    case GCN_DS_PERMUTE_B32:
    case GCN_DS_BPERMUTE_B32:
        nret = nd = 1;
        break;
    case GCN_DS_WRITE_B64:
    case GCN_DS_WRITE_B96:
    case GCN_DS_WRITE_B128:
        n = op == GCN_DS_WRITE_B64 ? 8 : op == GCN_DS_WRITE_B96 ? 12 : 16;
        nd = n / 4;
        break;
    case GCN_DS_READ_B64:
    case GCN_DS_READ_B96:
    case GCN_DS_READ_B128:
        n = op == GCN_DS_READ_B64 ? 8 : op == GCN_DS_READ_B96 ? 12 : 16;
        nret = n / 4;
        break;
    default:
        if (kind == GCN_A_NONE) {
            return hsagpu_gcn_refuse(g, w, insn, "ds");
        }
        n = wide ? 8 : 4;
        nd = n / 4;
        nret = rtn ? n / 4 : 0;
        break;
    }
    cnt = kind == GCN_A_MSKOR || cmpst || op == GCN_DS_WRAP_RTN_B32 ? 2 : 1;
    /* registers past the allocation: hsagpu_gcn_vsrc() */
    if (!hsagpu_gcn_vregs(w, vdst, nret, &rd)) {
        return hsagpu_gcn_vdst_nop(w, 2);
    }
    if (!hsagpu_gcn_vsrc(w, vaddr, 1, &ra) ||
        !hsagpu_gcn_vsrc(w, data0, nd, &r0) ||
        !hsagpu_gcn_vsrc(w, data1, cnt == 2 || two ? nd : 0, &r1)) {
        return hsagpu_gcn_refuse(g, w, insn, "VGPR past the allocation");
    }
    /* the second element's distance, in units of the offsets */
    scale = n * (op == GCN_DS_WRITE2ST64_B32 || op == GCN_DS_READ2ST64_B32 ||
                 op == GCN_DS_WRITE2ST64_B64 || op == GCN_DS_READ2ST64_B64 ||
                 op == GCN_DS_WRXCHG2ST64_RTN_B32 ||
                 op == GCN_DS_WRXCHG2ST64_RTN_B64 ? 64 : 1);
    /* whole dwords loaded or stored, nothing else (atomics: both) */
    if (!hsagpu_gcn_general && kind == GCN_A_NONE && !cmpst && !fat &&
        !d16 && !cross && n >= 4 && !(n % 4) && !nret != !nd) {
        gcn_ds_move(g, w, insn, n, two, scale, nret, ra, rd, r0, r1);
        return 2;
    }
    if (cross) {
        /*
         * The ISA's two passes: EXEC gates the reads of the source
         * lanes (an inactive one gives 0: a pull, swizzle's or
         * bpermute's, from it reads 0, a lane no active lane pushes to
         * gets 0; the highest pushing lane wins), then the writes of
         * the destination lanes.
         */
        uint32_t tmp[HSAGPU_GCN_WAVE] = { 0 };

        for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
            /* lanes from guest data: masked to the wave */
            unsigned t = ((ra[0][l] + off) >> 2) % HSAGPU_GCN_WAVE;

            if (op == GCN_DS_SWIZZLE_B32) {             /* pull */
                unsigned s = gcn_swizzle(off, l) % HSAGPU_GCN_WAVE;

                tmp[l] = (w->exec >> s) & 1 ? ra[0][s] : 0;
            } else if (op == GCN_DS_PERMUTE_B32) {  /* push */
                if ((w->exec >> l) & 1) {
                    tmp[t] = r0[0][l];
                }
            } else if ((w->exec >> t) & 1) {        /* ds_bpermute: pull */
                tmp[l] = r0[0][t];
            }
        }
        for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
            if ((w->exec >> l) & 1) {
                rd[0][l] = tmp[l];
            }
        }
        return 2;
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        /* LDS addresses are 32 bits: base + offset wraps there */
        uint32_t a = ra[0][l];
        uint64_t d0 = 0, d1 = 0, old;

        if (!((w->exec >> l) & 1)) {
            continue;
        }
        if (nd) {
            d0 = r0[0][l] | (nd > 1 ? (uint64_t)r0[1][l] << 32 : 0);
        }
        if (r1) {
            d1 = r1[0][l] | (nd > 1 ? (uint64_t)r1[1][l] << 32 : 0);
        }
        if (two) {
            /* read2 reads, write2 writes, wrxchg2 both */
            uint64_t v0 = gcn_lds_get(g, a + off0 * scale, n);
            uint64_t v1 = gcn_lds_get(g, a + off1 * scale, n);

            if (nd) {
                gcn_lds_put(g, a + off0 * scale, d0, n);
                gcn_lds_put(g, a + off1 * scale, d1, n);
            }
            for (unsigned k = 0; nret && k < n / 4; k++) {
                rd[k][l] = (uint32_t)(v0 >> (32 * k));
                rd[n / 4 + k][l] = (uint32_t)(v1 >> (32 * k));
            }
            continue;
        }
        a += off;
        if (n > 8) {                                /* b96, b128 */
            for (unsigned k = 0; k < n / 4; k++) {
                if (nret) {
                    rd[k][l] = gcn_lds_get(g, a + 4 * k, 4);
                } else {
                    gcn_lds_put(g, a + 4 * k, r0[k][l], 4);
                }
            }
            continue;
        }
        old = gcn_lds_get(g, a, n);
        if (op == GCN_DS_READ_I8 || op == GCN_DS_READ_I16) {
            old = n == 1 ? (uint64_t)(int8_t)old : (uint64_t)(int16_t)old;
        }
        if (d16) {
            /* a 16-bit value into one half, the other kept */
            bool hi = op == GCN_DS_READ_U8_D16_HI ||
                      op == GCN_DS_READ_I8_D16_HI ||
                      op == GCN_DS_READ_U16_D16_HI;
            uint32_t h = op == GCN_DS_READ_I8_D16 ||
                         op == GCN_DS_READ_I8_D16_HI ?
                         (uint16_t)(int8_t)old : (uint16_t)old;

            rd[0][l] = hi ? (rd[0][l] & 0xffff) | h << 16
                          : (rd[0][l] & 0xffff0000u) | h;
            continue;
        }
        if (op == GCN_DS_WRITE_B8_D16_HI || op == GCN_DS_WRITE_B16_D16_HI) {
            gcn_lds_put(g, a, d0 >> 16, n);
            continue;
        }
        if (fcmp || fat || op == GCN_DS_WRAP_RTN_B32) {
            uint64_t nv;

            if (fcmp) {
                nv = gcn_ds_f(g, old, n) == gcn_ds_f(g, d0, n) ? d1 : old;
            } else if (fat) {
                nv = gcn_ds_fop(g, op, old, d0, n);
            } else {                                /* ds_wrap_rtn_b32 */
                nv = old >= d0 ? old - d0 : (old + d1) & 0xffffffffu;
            }
            gcn_lds_put(g, a, nv, n);
            for (unsigned k = 0; k < nret; k++) {
                rd[k][l] = (uint32_t)(old >> (32 * k));
            }
            continue;
        }
        if (nd) {
            /* ds_cmpst: data0 compared, data1 stored; mskor: data1 or'ed */
            uint64_t nv = cmpst ?
                          (old == d0 ? d1 : old) :
                          kind == GCN_A_MSKOR ? gcn_atomic(kind, old, d1, d0,
                                                           8 * n) :
                          kind != GCN_A_NONE ? gcn_atomic(kind, old, d0, 0,
                                                          8 * n) : d0;
            gcn_lds_put(g, a, nv, n);
        }
        for (unsigned k = 0; k < nret; k++) {
            rd[k][l] = (uint32_t)(old >> (32 * k));
        }
    }
    return 2;
}
