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
 * Bytes a FLAT (GLOBAL) load or store @op moves, *@load which of the
 * two; 0: not one (nor the d16_hi stores, not implemented)
 */
static unsigned gcn_flat_bytes(unsigned op, bool *load)
{
    *load = op >= GCN_FLAT_LOAD_UBYTE && op <= GCN_FLAT_LOAD_DWORDX4;
    switch (op) {
    case GCN_FLAT_LOAD_UBYTE:
    case GCN_FLAT_LOAD_SBYTE:
    case GCN_FLAT_STORE_BYTE:
        return 1;
    case GCN_FLAT_LOAD_USHORT:
    case GCN_FLAT_LOAD_SSHORT:
    case GCN_FLAT_STORE_SHORT:
        return 2;
    case GCN_FLAT_LOAD_DWORD:
    case GCN_FLAT_STORE_DWORD:
        return 4;
    case GCN_FLAT_LOAD_DWORDX2:
    case GCN_FLAT_STORE_DWORDX2:
        return 8;
    case GCN_FLAT_LOAD_DWORDX3:
    case GCN_FLAT_STORE_DWORDX3:
        return 12;
    case GCN_FLAT_LOAD_DWORDX4:
    case GCN_FLAT_STORE_DWORDX4:
        return 16;
    default:
        return 0;
    }
}

/* ... and a MUBUF one */
static unsigned gcn_buffer_bytes(unsigned op, bool *load)
{
    *load = op >= GCN_BUFFER_LOAD_UBYTE && op <= GCN_BUFFER_LOAD_DWORDX4;
    switch (op) {
    case GCN_BUFFER_LOAD_UBYTE:
    case GCN_BUFFER_LOAD_SBYTE:
    case GCN_BUFFER_STORE_BYTE:
        return 1;
    case GCN_BUFFER_LOAD_USHORT:
    case GCN_BUFFER_LOAD_SSHORT:
    case GCN_BUFFER_STORE_SHORT:
        return 2;
    case GCN_BUFFER_LOAD_DWORD:
    case GCN_BUFFER_STORE_DWORD:
        return 4;
    case GCN_BUFFER_LOAD_DWORDX2:
    case GCN_BUFFER_STORE_DWORDX2:
        return 8;
    case GCN_BUFFER_LOAD_DWORDX3:
    case GCN_BUFFER_STORE_DWORDX3:
        return 12;
    case GCN_BUFFER_LOAD_DWORDX4:
    case GCN_BUFFER_STORE_DWORDX4:
        return 16;
    default:
        return 0;
    }
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
    bool load = op >= GCN_FLAT_LOAD_UBYTE && op <= GCN_FLAT_LOAD_DWORDX4;
    unsigned n = (bytes + 3) / 4;

    if (!load && (op < GCN_FLAT_STORE_BYTE || op > GCN_FLAT_STORE_DWORDX4)) {
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
            buf[0] = gcn_sext(buf[0], op == GCN_FLAT_LOAD_SBYTE,
                                  op == GCN_FLAT_LOAD_SSHORT);
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
    int32_t off = seg == GCN_FLAT_SEG_GLOBAL ? ((int32_t)(insn[0] << 19) >> 19)
                                             : (int32_t)(insn[0] & 0xfff);
    unsigned vdst = insn[1] >> 24, saddr = (insn[1] >> 16) & 0x7f;
    unsigned data = (insn[1] >> 8) & 0xff, vaddr = insn[1] & 0xff;
    unsigned bytes, ndata, nret = 0, kind = GCN_A_NONE, err;
    bool load = op >= GCN_FLAT_LOAD_UBYTE && op <= GCN_FLAT_LOAD_DWORDX4;
    bool store = op >= GCN_FLAT_STORE_BYTE && op <= GCN_FLAT_STORE_DWORDX4;
    bool sbase = seg == GCN_FLAT_SEG_GLOBAL && saddr != 0x7f;
    uint64_t base = 0, lane_addr[HSAGPU_GCN_WAVE];
    HsaGpuGcnVreg *rd, *rs, *ra;

    if (seg != GCN_FLAT_SEG_FLAT && seg != GCN_FLAT_SEG_GLOBAL) {
        return hsagpu_gcn_refuse(g, w, insn, "scratch");
    }
    if (load) {
        bytes = gcn_flat_bytes(op, &load);
        nret = (bytes + 3) / 4;
        ndata = 0;
    } else if (store) {
        if (op == GCN_FLAT_STORE_BYTE_D16_HI ||
            op == GCN_FLAT_STORE_SHORT_D16_HI) {
            return hsagpu_gcn_refuse(g, w, insn, "flat d16_hi");
        }
        bytes = gcn_flat_bytes(op, &load);
        ndata = (bytes + 3) / 4;
    } else if (op >= GCN_FLAT_ATOMIC_SWAP && op <= GCN_FLAT_ATOMIC_DEC) {
        kind = op - GCN_FLAT_ATOMIC_SWAP;
        bytes = 4;
        ndata = kind == GCN_A_CMPSWAP ? 2 : 1;
        nret = glc;
    } else if (op >= GCN_FLAT_ATOMIC_SWAP_X2 &&
               op <= GCN_FLAT_ATOMIC_DEC_X2) {
        kind = op - GCN_FLAT_ATOMIC_SWAP_X2;
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
    for (unsigned l = 0; seg == GCN_FLAT_SEG_FLAT && l < HSAGPU_GCN_WAVE; l++) {
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
                /* bytes and shorts: zero- or sign-extended */
                buf[0] = gcn_sext(buf[0], op == GCN_FLAT_LOAD_SBYTE,
                                  op == GCN_FLAT_LOAD_SSHORT);
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
    bool load;
    unsigned bytes = gcn_buffer_bytes(op, &load), n;
    uint64_t base, so;
    const uint32_t *rsrc = hsagpu_gcn_sregs(w, srsrc, 4);
    HsaGpuGcnVreg *rd, *ra;

    if (!bytes || idxen ||
        (insn[0] >> 16) & 1 /* lds */ || !rsrc) {
        return hsagpu_gcn_refuse(g, w, insn, "mubuf");
    }
    base = rsrc[0] | (uint64_t)(rsrc[1] & 0xffff) << 32;
    if (base < HSAGPU_GCN_PRIVATE_BASE ||
        !hsagpu_gcn_sread(w, soff, 0, false, &so)) {
        return hsagpu_gcn_refuse(g, w, insn, "mubuf: not the private segment");
    }
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
            buf[0] = gcn_sext(buf[0], op == GCN_BUFFER_LOAD_SBYTE,
                              op == GCN_BUFFER_LOAD_SSHORT);
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
    unsigned n = 0, nret = 0, nd = 0, cnt, kind;
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
    if (!hsagpu_gcn_vregs(w, vaddr, 1, &ra) ||
        !hsagpu_gcn_vregs(w, data0, nd, &r0) ||
        !hsagpu_gcn_vregs(w, data1, cnt == 2 || two ? nd : 0, &r1) ||
        !hsagpu_gcn_vregs(w, vdst, nret, &rd)) {
        return hsagpu_gcn_refuse(g, w, insn, "VGPR past the allocation");
    }
    if (cross) {
        uint32_t out[HSAGPU_GCN_WAVE];

        memcpy(out, rd[0], sizeof(out));
        for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
            /* lanes from guest data: masked to the wave */
            unsigned t = ((ra[0][l] + off) >> 2) % HSAGPU_GCN_WAVE;

            if (!((w->exec >> l) & 1)) {
                continue;
            }
            if (op == GCN_DS_SWIZZLE_B32) {
                out[l] = ra[0][gcn_swizzle(off, l) % HSAGPU_GCN_WAVE];
            } else if (op == GCN_DS_PERMUTE_B32) {  /* push */
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
            bool st64 = op == GCN_DS_WRITE2ST64_B32 ||
                        op == GCN_DS_READ2ST64_B32 ||
                        op == GCN_DS_WRITE2ST64_B64 ||
                        op == GCN_DS_READ2ST64_B64 ||
                        op == GCN_DS_WRXCHG2ST64_RTN_B32 ||
                        op == GCN_DS_WRXCHG2ST64_RTN_B64;
            unsigned scale = n * (st64 ? 64 : 1);
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
