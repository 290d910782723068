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
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-gcn-int.h"

/* Atomic operations, in FLAT numbering (op - 64, or op - 96 for _x2) */
enum {
    GCN_A_SWAP, GCN_A_CMPSWAP, GCN_A_ADD, GCN_A_SUB, GCN_A_SMIN, GCN_A_UMIN,
    GCN_A_SMAX, GCN_A_UMAX, GCN_A_AND, GCN_A_OR, GCN_A_XOR, GCN_A_INC,
    GCN_A_DEC, GCN_A_RSUB, GCN_A_MSKOR, GCN_A_NONE,
};

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
    uint32_t block[HSAGPU_GCN_WAVE * 4];
    unsigned first = __builtin_ctzll(w->exec), n = bytes / 4, lanes;

    if (bytes % 4 || (w->exec >> first) & ((w->exec >> first) + 1)) {
        return false;                   /* not dwords, or EXEC not a run */
    }
    lanes = 64 - first - __builtin_clzll(w->exec);
    for (unsigned l = first + 1; l < first + lanes; l++) {
        if (addr[l] != addr[first] + (uint64_t)(l - first) * bytes) {
            return false;
        }
    }
    if (load) {
        if (g->mem->read(g->mem->opaque, addr[first], block, lanes * bytes)) {
            return false;
        }
        for (unsigned l = 0; l < lanes; l++) {
            for (unsigned k = 0; k < n; k++) {
                r[k][first + l] = block[l * n + k];
            }
        }
        return true;
    }
    for (unsigned l = 0; l < lanes; l++) {
        for (unsigned k = 0; k < n; k++) {
            block[l * n + k] = r[k][first + l];
        }
    }
    return !g->mem->write(g->mem->opaque, addr[first], block, lanes * bytes);
}

/*
 * A byte range of the work-item's private memory (lane @l): NULL when it
 * leaves the private segment, which fails the dispatch (a stack that
 * outgrew the size the descriptor asked for), with the offset reported.
 */
static uint8_t *gcn_private(HsaGpuGcnGroup *g, HsaGpuGcnWave *w, unsigned l,
                            uint64_t off, unsigned bytes)
{
    uint8_t *p = hsagpu_gcn_window(w->priv ? w->priv + (size_t)l *
                                   g->priv_size : NULL, g->priv_size, off,
                                   bytes);

    if (!p) {
        g->st->mem_err = 0;
        g->st->addr = off;
    }
    return p;
}

/* The LDS's @n bytes at @off: NULL out of range */
static uint8_t *gcn_lds(HsaGpuGcnGroup *g, uint64_t off, unsigned n)
{
    return hsagpu_gcn_window(g->lds, g->lds_size, off, n);
}

/*
 * FLAT loads and stores of a wave with lanes in the shared or private
 * aperture (generic pointers to local or private data): those lanes use
 * the LDS (out of range: 0 read, writes dropped, as ds_*) or their
 * private memory, the others global memory. Atomics there: not
 * implemented.
 */
static unsigned gcn_flat_apertures(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                                   const uint32_t *insn, const uint64_t *addr,
                                   unsigned op, unsigned bytes,
                                   HsaGpuGcnVreg *r)
{
    bool load = op >= 16 && op <= 23;
    unsigned n = (bytes + 3) / 4;

    if (!load && (op < 24 || op > 31)) {
        return hsagpu_gcn_refuse(g, w, insn, "flat atomic in an aperture");
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        unsigned ap = addr[l] >> 48;
        uint64_t off = addr[l] & 0xffffffffffffULL;
        uint32_t buf[4] = { 0, 0, 0, 0 };
        uint8_t *p = NULL;
        unsigned err = 0;

        if (!((w->exec >> l) & 1)) {
            continue;
        }
        if (ap == HSAGPU_GCN_APERTURE_PRIVATE) {
            p = gcn_private(g, w, l, off, bytes);
            if (!p) {
                return hsagpu_gcn_fail(g, w, HSAGPU_GCN_MEM_FAULT, insn,
                                       "private segment");
            }
        } else if (ap == HSAGPU_GCN_APERTURE_SHARED) {
            p = gcn_lds(g, off, bytes);
        }
        if (!load) {
            for (unsigned k = 0; k < n; k++) {
                buf[k] = r[k][l];
            }
        }
        if (ap == HSAGPU_GCN_APERTURE_PRIVATE ||
            ap == HSAGPU_GCN_APERTURE_SHARED) {
            if (p && load) {
                memcpy(buf, p, bytes);
            } else if (p) {
                memcpy(p, buf, bytes);
            }
        } else {
            err = load ? g->mem->read(g->mem->opaque, addr[l], buf, bytes)
                       : g->mem->write(g->mem->opaque, addr[l], buf, bytes);
        }
        if (err) {
            g->st->mem_err = err;
            g->st->addr = addr[l];
            return hsagpu_gcn_fail(g, w, HSAGPU_GCN_MEM_FAULT, insn,
                                   load ? "load" : "store");
        }
        if (load) {
            if (op == 17) {
                buf[0] = (uint32_t)(int8_t)buf[0];
            } else if (op == 19) {
                buf[0] = (uint32_t)(int16_t)buf[0];
            }
            for (unsigned k = 0; k < n; k++) {
                r[k][l] = buf[k];
            }
        }
    }
    return 2;
}

/*
 * FLAT and GLOBAL (gfx9 opcodes): loads of bytes, shorts and 1-4 dwords,
 * stores of bytes, shorts and 1-4 dwords, 32- and 64-bit atomics (with
 * the old value returned when glc is set). GLOBAL adds an SGPR base and a
 * signed 13-bit offset. Scratch is not supported (no private segment).
 */
unsigned hsagpu_gcn_flat(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                         const uint32_t *insn)
{
    unsigned op = (insn[0] >> 18) & 0x7f, seg = (insn[0] >> 14) & 3;
    bool glc = (insn[0] >> 16) & 1;
    /* FLAT: 12-bit unsigned offset; GLOBAL: 13-bit signed */
    int32_t off = seg == 2 ? ((int32_t)(insn[0] << 19) >> 19)
                           : (int32_t)(insn[0] & 0xfff);
    unsigned vdst = insn[1] >> 24, saddr = (insn[1] >> 16) & 0x7f;
    unsigned data = (insn[1] >> 8) & 0xff, vaddr = insn[1] & 0xff;
    unsigned bytes, ndata, nret = 0, kind = GCN_A_NONE, err;
    bool load = op >= 16 && op <= 23, store = op >= 24 && op <= 31;
    bool sbase = seg == 2 && saddr != 0x7f;
    uint64_t base = 0, lane_addr[HSAGPU_GCN_WAVE];
    HsaGpuGcnVreg *rd, *rs, *ra;

    if (seg == 1 || seg == 3) {
        return hsagpu_gcn_refuse(g, w, insn, "scratch");
    }
    if (load) {
        bytes = op < 20 ? (op < 18 ? 1 : 2) : 4 * (op - 19);
        nret = (bytes + 3) / 4;
        ndata = 0;
    } else if (store) {
        if (op == 25 || op == 27) {
            return hsagpu_gcn_refuse(g, w, insn, "flat d16_hi");
        }
        bytes = op < 28 ? (op == 24 ? 1 : 2) : 4 * (op - 27);
        ndata = (bytes + 3) / 4;
    } else if (op >= 64 && op <= 76) {
        kind = op - 64;
        bytes = 4;
        ndata = kind == GCN_A_CMPSWAP ? 2 : 1;
        nret = glc;
    } else if (op >= 96 && op <= 108) {
        kind = op - 96;
        bytes = 8;
        ndata = kind == GCN_A_CMPSWAP ? 4 : 2;
        nret = glc ? 2 : 0;
    } else {
        return hsagpu_gcn_refuse(g, w, insn, "flat");
    }
    if (sbase && !hsagpu_gcn_sread(w, saddr, 0, true, &base)) {
        return hsagpu_gcn_refuse(g, w, insn, "saddr");
    }
    if (!hsagpu_gcn_vregs(w, vdst, nret, &rd) ||
        !hsagpu_gcn_vregs(w, data, ndata, &rs) ||
        !hsagpu_gcn_vregs(w, vaddr, sbase ? 1 : 2, &ra)) {
        return hsagpu_gcn_refuse(g, w, insn, "VGPR past the allocation");
    }
    if (!w->exec) {
        return 2;
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        lane_addr[l] = (sbase ? base + ra[0][l]
                              : ra[0][l] | (uint64_t)ra[1][l] << 32) + off;
    }
    for (unsigned l = 0; seg == 0 && l < HSAGPU_GCN_WAVE; l++) {
        unsigned ap = lane_addr[l] >> 48;

        if ((w->exec >> l) & 1 && (ap == HSAGPU_GCN_APERTURE_SHARED ||
                                   ap == HSAGPU_GCN_APERTURE_PRIVATE)) {
            return gcn_flat_apertures(g, w, insn, lane_addr, op, bytes,
                                      load ? rd : rs);
        }
    }
    if ((load || store) &&
        gcn_flat_block(g, w, load, lane_addr, bytes, load ? rd : rs)) {
        return 2;
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        uint64_t addr = lane_addr[l];
        uint32_t buf[4] = { 0, 0, 0, 0 };

        if (!((w->exec >> l) & 1)) {
            continue;
        }
        if (load) {
            err = g->mem->read(g->mem->opaque, addr, buf, bytes);
            if (!err) {
                /* bytes and shorts: zero- or sign-extended (17, 19) */
                if (op == 17) {
                    buf[0] = (uint32_t)(int8_t)buf[0];
                } else if (op == 19) {
                    buf[0] = (uint32_t)(int16_t)buf[0];
                }
                for (unsigned k = 0; k < nret; k++) {
                    rd[k][l] = buf[k];
                }
            }
        } else if (store) {
            for (unsigned k = 0; k < ndata; k++) {
                buf[k] = rs[k][l];
            }
            err = g->mem->write(g->mem->opaque, addr, buf, bytes);
        } else {
            uint64_t old = 0, src, cmp = 0, nv;
            unsigned h = bytes / 4;                 /* dwords per value */

            src = rs[0][l] | (h > 1 ? (uint64_t)rs[1][l] << 32 : 0);
            if (kind == GCN_A_CMPSWAP) {
                cmp = rs[h][l] | (h > 1 ? (uint64_t)rs[h + 1][l] << 32 : 0);
            }
            if (g->mem->atomic) {
                err = gcn_atomic_mem(g, addr, bytes, kind, src, cmp, &old);
            } else {
                err = g->mem->read(g->mem->opaque, addr, &old, bytes);
                if (!err) {
                    nv = gcn_atomic(kind, old, src, cmp, 8 * bytes);
                    err = g->mem->write(g->mem->opaque, addr, &nv, bytes);
                }
            }
            if (!err && nret) {
                rd[0][l] = (uint32_t)old;
                if (nret > 1) {
                    rd[1][l] = old >> 32;
                }
            }
        }
        if (err) {
            g->st->mem_err = err;
            g->st->addr = addr;
            return hsagpu_gcn_fail(g, w, HSAGPU_GCN_MEM_FAULT, insn,
                                   load ? "load" : store ? "store" : "atomic");
        }
    }
    return 2;
}

/*
 * MUBUF through the private segment buffer the wave started with (its
 * base HSAGPU_GCN_PRIVATE_BASE): loads and stores of bytes, shorts and
 * 1-4 dwords in the lane's own private memory, at the descriptor's base
 * offset + soffset + the instruction's offset (+ the VGPR with offen).
 * An access past the segment fails the dispatch (a stack that outgrew
 * what the descriptor asked for) instead of being dropped. Other
 * descriptors (buffers in memory) and idxen are not implemented.
 */
unsigned hsagpu_gcn_mubuf(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                          const uint32_t *insn)
{
    unsigned op = (insn[0] >> 18) & 0x7f, inst_off = insn[0] & 0xfff;
    bool offen = (insn[0] >> 12) & 1, idxen = (insn[0] >> 13) & 1;
    unsigned vaddr = insn[1] & 0xff, vdata = (insn[1] >> 8) & 0xff;
    unsigned srsrc = ((insn[1] >> 16) & 0x1f) * 4, soff = insn[1] >> 24;
    bool load = op >= 16 && op <= 23, store = op >= 24 && op <= 31;
    unsigned bytes, n;
    uint64_t base, so;
    const uint32_t *rsrc = hsagpu_gcn_sregs(w, srsrc, 4);
    HsaGpuGcnVreg *rd, *ra;

    if ((!load && !store) || op == 25 || op == 27 || idxen ||
        (insn[0] >> 16) & 1 /* lds */ || !rsrc) {
        return hsagpu_gcn_refuse(g, w, insn, "mubuf");
    }
    base = rsrc[0] | (uint64_t)(rsrc[1] & 0xffff) << 32;
    if (base < HSAGPU_GCN_PRIVATE_BASE ||
        !hsagpu_gcn_sread(w, soff, 0, false, &so)) {
        return hsagpu_gcn_refuse(g, w, insn, "mubuf: not the private segment");
    }
    bytes = load ? (op < 20 ? (op < 18 ? 1 : 2) : 4 * (op - 19))
                 : (op < 28 ? (op == 24 ? 1 : 2) : 4 * (op - 27));
    n = (bytes + 3) / 4;
    if (!hsagpu_gcn_vregs(w, vdata, n, &rd) ||
        !hsagpu_gcn_vregs(w, vaddr, offen, &ra)) {
        return hsagpu_gcn_refuse(g, w, insn, "VGPR past the allocation");
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        uint64_t off = base - HSAGPU_GCN_PRIVATE_BASE + (uint32_t)so +
                       inst_off + (offen ? ra[0][l] : 0);
        uint32_t buf[4] = { 0, 0, 0, 0 };
        uint8_t *p;

        if (!((w->exec >> l) & 1)) {
            continue;
        }
        p = gcn_private(g, w, l, off, bytes);
        if (!p) {
            return hsagpu_gcn_fail(g, w, HSAGPU_GCN_MEM_FAULT, insn,
                                   "private segment");
        }
        if (load) {
            memcpy(buf, p, bytes);
            if (op == 17) {
                buf[0] = (uint32_t)(int8_t)buf[0];
            } else if (op == 19) {
                buf[0] = (uint32_t)(int16_t)buf[0];
            }
            for (unsigned k = 0; k < n; k++) {
                rd[k][l] = buf[k];
            }
        } else {
            for (unsigned k = 0; k < n; k++) {
                buf[k] = rd[k][l];
            }
            memcpy(p, buf, bytes);
        }
    }
    return 2;
}

/* LDS access of @n bytes: reads out of range give 0, writes are dropped */
static uint64_t gcn_lds_get(HsaGpuGcnGroup *g, uint64_t a, unsigned n)
{
    uint64_t v = 0;
    const uint8_t *p = gcn_lds(g, a, n);

    if (p) {
        memcpy(&v, p, n);
    }
    return v;
}

static void gcn_lds_put(HsaGpuGcnGroup *g, uint64_t a, uint64_t v,
                        unsigned n)
{
    uint8_t *p = gcn_lds(g, a, n);

    if (p) {
        memcpy(p, &v, n);
    }
}

/* The atomic kind of DS opcode @op (0..12, +32 returning, +64/+96 wide) */
static unsigned gcn_ds_kind(unsigned op)
{
    static const uint8_t kind[13] = {
        GCN_A_ADD, GCN_A_SUB, GCN_A_RSUB, GCN_A_INC, GCN_A_DEC, GCN_A_SMIN,
        GCN_A_SMAX, GCN_A_UMIN, GCN_A_UMAX, GCN_A_AND, GCN_A_OR, GCN_A_XOR,
        GCN_A_MSKOR,
    };

    return (op & 31) < 13 && op < 128 ? kind[op & 31] : GCN_A_NONE;
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
    unsigned kind = gcn_ds_kind(op), n = 0, nret = 0, nd = 0, cnt;
    bool two = false;
    HsaGpuGcnVreg *ra, *r0, *r1, *rd;

    /* sizes: n bytes per element, nret/nd registers read/written */
    switch (op) {
    case 13:                                        /* ds_write_b32 */
    case 30:                                        /* ds_write_b8 */
    case 31:
        n = op == 13 ? 4 : op == 30 ? 1 : 2;
        nd = 1;
        break;
    case 14:                                        /* ds_write2(st64) */
    case 15:
    case 78:
    case 79:
        n = op < 64 ? 4 : 8;
        two = true;
        nd = n / 4;
        break;
    case 16:                                        /* ds_cmpst_b32 */
    case 48:
        n = 4;
        nd = 1;
        nret = op == 48;
        break;
    case 45:                                        /* ds_wrxchg_rtn_b32 */
        n = 4;
        nd = nret = 1;
        break;
    case 54:                                        /* ds_read_b32 */
    case 57 ... 60:
        n = op == 54 ? 4 : op < 59 ? 1 : 2;
        nret = 1;
        break;
    case 55:                                        /* ds_read2(st64) */
    case 56:
    case 119:
    case 120:
        n = op < 64 ? 4 : 8;
        two = true;
        nret = 2 * n / 4;
        break;
    case 61 ... 63:                                 /* swizzle, permutes */
        nret = nd = 1;
        break;
    case 77:                                        /* ds_write_b64 */
    case 222:
    case 223:
        n = op == 77 ? 8 : op == 222 ? 12 : 16;
        nd = n / 4;
        break;
    case 118:                                       /* ds_read_b64 */
    case 254:
    case 255:
        n = op == 118 ? 8 : op == 254 ? 12 : 16;
        nret = n / 4;
        break;
    default:
        if (kind == GCN_A_NONE) {
            return hsagpu_gcn_refuse(g, w, insn, "ds");
        }
        n = op >= 64 ? 8 : 4;
        nd = n / 4;
        nret = (op & 32) ? n / 4 : 0;
        break;
    }
    cnt = kind == GCN_A_MSKOR || op == 16 || op == 48 ? 2 : 1;
    if (!hsagpu_gcn_vregs(w, vaddr, 1, &ra) ||
        !hsagpu_gcn_vregs(w, data0, nd, &r0) ||
        !hsagpu_gcn_vregs(w, data1, cnt == 2 || two ? nd : 0, &r1) ||
        !hsagpu_gcn_vregs(w, vdst, nret, &rd)) {
        return hsagpu_gcn_refuse(g, w, insn, "VGPR past the allocation");
    }
    if (op >= 61 && op <= 63) {
        uint32_t out[HSAGPU_GCN_WAVE];

        memcpy(out, rd[0], sizeof(out));
        for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
            /* lanes from guest data: masked to the wave */
            unsigned t = ((ra[0][l] + off) >> 2) % HSAGPU_GCN_WAVE;

            if (!((w->exec >> l) & 1)) {
                continue;
            }
            if (op == 61) {
                out[l] = ra[0][gcn_swizzle(off, l) % HSAGPU_GCN_WAVE];
            } else if (op == 62) {                  /* ds_permute: push */
                out[t] = r0[0][l];
            } else {                                /* ds_bpermute: pull */
                out[l] = r0[0][t];
            }
        }
        memcpy(rd[0], out, sizeof(out));
        return 2;
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        uint64_t a = ra[0][l], d0 = 0, d1 = 0, old;

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
            unsigned scale = n * (op == 15 || op == 56 || op == 79 ||
                                  op == 120 ? 64 : 1);

            if (nret) {
                uint64_t v0 = gcn_lds_get(g, a + off0 * scale, n);
                uint64_t v1 = gcn_lds_get(g, a + off1 * scale, n);

                for (unsigned k = 0; k < n / 4; k++) {
                    rd[k][l] = (uint32_t)(v0 >> (32 * k));
                    rd[n / 4 + k][l] = (uint32_t)(v1 >> (32 * k));
                }
            } else {
                gcn_lds_put(g, a + off0 * scale, d0, n);
                gcn_lds_put(g, a + off1 * scale, d1, n);
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
        if (op == 57 || op == 59) {                 /* sign-extending */
            old = n == 1 ? (uint64_t)(int8_t)old : (uint64_t)(int16_t)old;
        }
        if (nd) {
            /* ds_cmpst: data0 compared, data1 stored; mskor: data1 or'ed */
            uint64_t nv = op == 16 || op == 48 ?
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
