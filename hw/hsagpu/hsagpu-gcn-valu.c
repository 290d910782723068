/*
 * hsa-gpu: GCN (gfx9) interpreter, vector side: VOP1, VOP2, VOPC and
 * VOP3 (integer and fp32 ALU, compares into VCC or an SGPR pair, EXEC
 * masking), FLAT/GLOBAL loads, stores and atomics, LDS (DS). Every lane
 * whose EXEC bit is set runs; the others keep their registers.
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

/* A source operand resolved once per instruction. */
typedef struct GcnOp {
    bool vgpr;
    unsigned reg;               /* VGPR index */
    uint64_t val;               /* scalar value (uniform) */
} GcnOp;

static bool gcn_op(HsaGpuGcnWave *w, unsigned src, uint32_t lit, bool is64,
                   GcnOp *o)
{
    o->vgpr = src >= GCN_SRC_VGPR;
    if (o->vgpr) {
        o->reg = src - GCN_SRC_VGPR;
        return o->reg + (is64 ? 1 : 0) < w->nvgpr;
    }
    return hsagpu_gcn_sread(w, src, lit, is64, &o->val);
}

static uint64_t gcn_lane(HsaGpuGcnWave *w, const GcnOp *o, unsigned l,
                         bool is64)
{
    if (!o->vgpr) {
        return o->val;
    }
    return w->v[o->reg][l] |
           (is64 ? (uint64_t)w->v[o->reg + 1][l] << 32 : 0);
}

static float gcn_f(uint32_t v, bool ftz)
{
    float f;

    if (ftz && !(v & 0x7f800000)) {
        v &= 0x80000000;        /* denormal: flushed to a signed zero */
    }
    memcpy(&f, &v, 4);
    return f;
}

static uint32_t gcn_u(float f, bool ftz)
{
    uint32_t v;

    memcpy(&v, &f, 4);
    if (ftz && !(v & 0x7f800000)) {
        v &= 0x80000000;
    }
    return v;
}

/* fp32 min/max in IEEE mode: a quiet NaN operand gives the other one. */
static float gcn_fmin(float a, float b)
{
    return isnan(a) ? b : isnan(b) ? a : (a < b || (a == b && signbit(a)))
                                         ? a : b;
}

static float gcn_fmax(float a, float b)
{
    return isnan(a) ? b : isnan(b) ? a : (a > b || (a == b && !signbit(a)))
                                         ? a : b;
}

static uint32_t gcn_cvt_u32(float f)
{
    return isnan(f) || f <= 0 ? 0 : f >= 4294967296.0f ? UINT32_MAX
                                                      : (uint32_t)f;
}

static uint32_t gcn_cvt_i32(float f)
{
    return isnan(f) ? 0 : f <= -2147483648.0f ? (uint32_t)INT32_MIN :
           f >= 2147483648.0f ? (uint32_t)INT32_MAX : (uint32_t)(int32_t)f;
}

static bool gcn_is_float(unsigned op)
{
    return (op >= 0x101 && op <= 0x105) || op == 0x10a || op == 0x10b ||
           (op >= 0x116 && op <= 0x118) || op == 0x145 || op == 0x146 ||
           op == 0x147 || op == 0x148 || op == 0x1c1 || op == 0x1cb ||
           (op >= 0x40 && op <= 0x5f);
}

/*
 * One lane of a 32-bit ALU op in VOP3 numbering (VOP2 op k is 0x100 + k,
 * VOP1 op k is 0x140 + k). *carry: in for the addc/subb forms, out for
 * the carry-producing ones. False: not implemented.
 */
static bool gcn_alu32(HsaGpuGcnGroup *g, unsigned op, uint32_t a, uint32_t b,
                      uint32_t c, uint32_t old, bool *carry, uint32_t *d)
{
    bool z = g->ftz32;
    float fa = gcn_f(a, z), fb = gcn_f(b, z), fc = gcn_f(c, z);
    uint64_t t;

    switch (op) {
    case 0x101:
        *d = gcn_u(fa + fb, z);
        return true;
    case 0x102:
        *d = gcn_u(fa - fb, z);
        return true;
    case 0x103:
        *d = gcn_u(fb - fa, z);
        return true;
    case 0x105:
        *d = gcn_u(fa * fb, z);
        return true;
    case 0x106:                                     /* v_mul_i32_i24 */
        *d = (uint32_t)(((int32_t)(a << 8) >> 8) * ((int32_t)(b << 8) >> 8));
        return true;
    case 0x108:                                     /* v_mul_u32_u24 */
        *d = (a & 0xffffff) * (b & 0xffffff);
        return true;
    case 0x10a:
        *d = gcn_u(gcn_fmin(fa, fb), z);
        return true;
    case 0x10b:
        *d = gcn_u(gcn_fmax(fa, fb), z);
        return true;
    case 0x10c:
        *d = (int32_t)a < (int32_t)b ? a : b;
        return true;
    case 0x10d:
        *d = (int32_t)a > (int32_t)b ? a : b;
        return true;
    case 0x10e:
        *d = a < b ? a : b;
        return true;
    case 0x10f:
        *d = a > b ? a : b;
        return true;
    case 0x110: /* v_lshrrev_b32 */
        *d = b >> (a & 31);
        return true;
    case 0x111:
        *d = (uint32_t)((int32_t)b >> (a & 31));
        return true;
    case 0x112: /* v_lshlrev_b32 */
        *d = b << (a & 31);
        return true;
    case 0x113:
        *d = a & b;
        return true;
    case 0x114:
        *d = a | b;
        return true;
    case 0x115:
        *d = a ^ b;
        return true;
    case 0x116:
        *d = gcn_u(fmaf(fa, fb, gcn_f(old, z)), z);
        return true;
    case 0x117: /* madmk */
        *d = gcn_u(fmaf(fa, fc, fb), z);
        return true;
    case 0x118: /* madak */
        *d = gcn_u(fmaf(fa, fb, fc), z);
        return true;
    case 0x119:                                     /* v_add_co_u32 */
        t = (uint64_t)a + b;
        *d = (uint32_t)t;
        *carry = t >> 32;
        return true;
    case 0x11a:                                     /* v_sub_co_u32 */
        *d = a - b;
        *carry = b > a;
        return true;
    case 0x11b:
        *d = b - a;
        *carry = a > b;
        return true;
    case 0x11c:                                     /* v_addc_co_u32 */
        t = (uint64_t)a + b + *carry;
        *d = (uint32_t)t;
        *carry = t >> 32;
        return true;
    case 0x11d:                                     /* v_subb_co_u32 */
        t = (uint64_t)a - b - *carry;
        *d = (uint32_t)t;
        *carry = (t >> 32) != 0;
        return true;
    case 0x11e:
        t = (uint64_t)b - a - *carry;
        *d = (uint32_t)t;
        *carry = (t >> 32) != 0;
        return true;
    case 0x134: /* v_add_u32 */
        *d = a + b;
        return true;
    case 0x135:
        *d = a - b;
        return true;
    case 0x136:
        *d = b - a;
        return true;
    case 0x141: /* v_mov_b32 */
        *d = a;
        return true;
    case 0x145:
        *d = gcn_u((float)(int32_t)a, z);
        return true;
    case 0x146:
        *d = gcn_u((float)a, z);
        return true;
    case 0x147:
        *d = gcn_cvt_u32(fa);
        return true;
    case 0x148:
        *d = gcn_cvt_i32(fa);
        return true;
    case 0x16b: /* v_not_b32 */
        *d = ~a;
        return true;
    case 0x1c1:                                     /* v_mad_f32 */
    case 0x1cb:                                     /* v_fma_f32 */
        *d = gcn_u(fmaf(fa, fb, fc), z);
        return true;
    case 0x1c2:
        *d = (uint32_t)(((int32_t)(a << 8) >> 8) * ((int32_t)(b << 8) >> 8)) +
             c;
        return true;
    case 0x1c3:
        *d = (a & 0xffffff) * (b & 0xffffff) + c;
        return true;
    case 0x1c8:                                     /* v_bfe_u32 */
    case 0x1c9: {                                   /* v_bfe_i32 */
        unsigned off = b & 31, w = c & 31;
        uint32_t v = w ? (a >> off) & ((1u << w) - 1) : 0;

        if (op == 0x1c9 && w && (v >> (w - 1)) & 1) {
            v |= ~((1u << w) - 1);
        }
        *d = v;
        return true;
    }
    case 0x1ca: /* v_bfi_b32 */
        *d = (a & b) | (~a & c);
        return true;
    case 0x1fd: /* v_lshl_add_u32 */
        *d = (a << (b & 31)) + c;
        return true;
    case 0x1fe:
        *d = (a + b) << (c & 31);
        return true;
    case 0x1ff: /* v_add3_u32 */
        *d = a + b + c;
        return true;
    case 0x200:
        *d = (a << (b & 31)) | c;
        return true;
    case 0x201:
        *d = (a & b) | c;
        return true;
    case 0x202: /* v_or3_b32 */
        *d = a | b | c;
        return true;
    case 0x285: /* v_mul_lo_u32 */
        *d = a * b;
        return true;
    case 0x286:
        *d = ((uint64_t)a * b) >> 32;
        return true;
    case 0x287:
        *d = (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32);
        return true;
    case 0x28c:                 /* v_mbcnt_lo/hi: done by the caller */
    case 0x28d:
    default:
        return false;
    }
}

/*
 * Relation k of the VOPC encodings (F, LT, EQ, LE, GT, LG, GE, then O for
 * floats or T for integers): LT, EQ and GT are its bits.
 */
static bool gcn_rel(unsigned k, bool lt, bool eq, bool gt, bool un)
{
    return k == 7 ? !un : ((k & 1) && lt) || ((k & 2) && eq) ||
                          ((k & 4) && gt);
}

/* Compare of one lane: VOPC ops (cmpx forms decided by the caller). */
static bool gcn_cmp(unsigned op, uint64_t a, uint64_t b, bool z, bool *r)
{
    unsigned k = op & 7;

    if ((op & 0xf0) == 0x40 || (op & 0xf0) == 0x50) {  /* f32 */
        float fa = gcn_f((uint32_t)a, z), fb = gcn_f((uint32_t)b, z);
        bool un = isnan(fa) || isnan(fb);

        /* U, NGE, NLG, NGT, NLE, NEQ, NLT, TRU: the negations, reversed */
        *r = op & 8 ? !gcn_rel(7 - k, fa < fb, fa == fb, fa > fb, un)
                    : gcn_rel(k, fa < fb, fa == fb, fa > fb, un);
        return true;
    }
    if ((op & 0xe0) == 0xc0 || (op & 0xe0) == 0xe0) {  /* i32, u32, i64, u64 */
        bool is64 = (op & 0xe0) == 0xe0, sgn = !(op & 8);
        int64_t sa = is64 ? (int64_t)a : (int32_t)a;
        int64_t sb = is64 ? (int64_t)b : (int32_t)b;

        a = is64 ? a : (uint32_t)a;
        b = is64 ? b : (uint32_t)b;
        *r = gcn_rel(k, sgn ? sa < sb : a < b, a == b,
                     sgn ? sa > sb : a > b, false);
        return true;
    }
    return false;
}

static bool gcn_cmp_is64(unsigned op)
{
    return (op & 0xe0) == 0xe0;
}

static bool gcn_cmp_isx(unsigned op)
{
    return (op & 0xf0) == 0x50 || (op & 0xf8) == 0xd0 || (op & 0xf8) == 0xd8 ||
           (op & 0xf8) == 0xf0 || (op & 0xf8) == 0xf8;
}

/* Float source modifiers (VOP3): |x|, -x on the bits. */
static uint32_t gcn_mod(uint32_t v, bool abs, bool neg)
{
    return (abs ? v & 0x7fffffff : v) ^ (neg ? 0x80000000 : 0);
}

static uint32_t gcn_omod_clamp(HsaGpuGcnGroup *g, uint32_t v, unsigned omod,
                               bool clamp)
{
    float f = gcn_f(v, g->ftz32);

    f = omod == 1 ? f * 2 : omod == 2 ? f * 4 : omod == 3 ? f / 2 : f;
    if (clamp) {
        f = isnan(f) ? 0 : f < 0 ? 0 : f > 1 ? 1 : f;
    }
    return gcn_u(f, g->ftz32);
}

/* 64-bit VOP3 ALU ops of one lane */
static bool gcn_alu64(unsigned op, uint64_t a, uint64_t b, uint64_t *d)
{
    switch (op) {
    case 0x28f: /* v_lshlrev_b64 */
        *d = b << (a & 63);
        return true;
    case 0x290:
        *d = b >> (a & 63);
        return true;
    case 0x291:
        *d = (uint64_t)((int64_t)b >> (a & 63));
        return true;
    default:
        return false;
    }
}

static unsigned gcn_fail(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                         const uint32_t *insn, const char *what)
{
    return hsagpu_gcn_fail(g, w, HSAGPU_GCN_UNIMPLEMENTED, insn, what);
}

/*
 * VOP1/VOP2/VOPC (e32) and VOP3 share this: op in VOP3 numbering, the
 * sources resolved, the destination VGPR (or SGPR pair for compares and
 * carries).
 */
static unsigned gcn_valu(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                         const uint32_t *insn, unsigned op, unsigned nsrc,
                         const unsigned src[3], uint32_t lit, unsigned vdst,
                         int sdst, int carry_in, unsigned abs, unsigned neg,
                         unsigned omod, bool clamp, unsigned len)
{
    bool is64cmp = op < 0x100 && gcn_cmp_is64(op);
    bool wide = op >= 0x28f && op <= 0x291;
    bool mad64 = op == 0x1e8 || op == 0x1e9;
    bool fl = gcn_is_float(op);
    GcnOp o[3];
    uint64_t cin = 0, cout = 0, cmp = 0;

    for (unsigned k = 0; k < nsrc; k++) {
        bool is64 = is64cmp || (wide && k == 1) || (mad64 && k == 2);

        if (!gcn_op(w, src[k], lit, is64, &o[k])) {
            return gcn_fail(g, w, insn, "operand");
        }
    }
    if (carry_in >= 0 && !hsagpu_gcn_sread(w, carry_in, 0, true, &cin)) {
        return gcn_fail(g, w, insn, "carry operand");
    }
    if (op >= 0x100 && vdst + (wide || mad64 ? 1 : 0) >= w->nvgpr) {
        return gcn_fail(g, w, insn, "destination");
    }
    if (op == 0x142) {                  /* v_readfirstlane_b32 */
        unsigned l = w->exec ? (unsigned)__builtin_ctzll(w->exec) : 0;

        return hsagpu_gcn_swrite(w, vdst, false, gcn_lane(w, &o[0], l, false))
               ? len : gcn_fail(g, w, insn, "destination");
    }
    if (op == 0x289) {                  /* v_readlane_b32 */
        unsigned l = gcn_lane(w, &o[1], 0, false) & 63;

        return hsagpu_gcn_swrite(w, vdst, false, gcn_lane(w, &o[0], l, false))
               ? len : gcn_fail(g, w, insn, "destination");
    }
    if (op == 0x28a) {                  /* v_writelane_b32 */
        w->v[vdst][gcn_lane(w, &o[1], 0, false) & 63] =
            (uint32_t)gcn_lane(w, &o[0], 0, false);
        return len;
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        uint32_t a, b, c, d = 0;
        bool carry = (cin >> l) & 1, r;

        if (!((w->exec >> l) & 1)) {
            continue;
        }
        if (op < 0x100) {
            if (!gcn_cmp(op, gcn_lane(w, &o[0], l, is64cmp) ^
                         (fl && (neg & 1) ? 0x80000000 : 0),
                         gcn_lane(w, &o[1], l, is64cmp) ^
                         (fl && (neg & 2) ? 0x80000000 : 0), g->ftz32, &r)) {
                return gcn_fail(g, w, insn, "vopc");
            }
            cmp |= (uint64_t)r << l;
            continue;
        }
        if (wide) {
            uint64_t d64;

            if (!gcn_alu64(op, gcn_lane(w, &o[0], l, false),
                           gcn_lane(w, &o[1], l, true), &d64)) {
                return gcn_fail(g, w, insn, "vop3");
            }
            w->v[vdst][l] = (uint32_t)d64;
            w->v[vdst + 1][l] = d64 >> 32;
            continue;
        }
        a = (uint32_t)gcn_lane(w, &o[0], l, false);
        b = nsrc > 1 ? (uint32_t)gcn_lane(w, &o[1], l, false) : 0;
        c = nsrc > 2 ? (uint32_t)gcn_lane(w, &o[2], l, false) : 0;
        if (op == 0x117 || op == 0x118) {
            c = lit;                    /* madmk/madak: the constant */
        }
        if (fl) {
            a = gcn_mod(a, abs & 1, neg & 1);
            b = gcn_mod(b, abs & 2, neg & 2);
            c = gcn_mod(c, abs & 4, neg & 4);
        }
        if (op == 0x100) {              /* v_cndmask_b32 */
            d = ((carry_in >= 0 ? cin : w->vcc) >> l) & 1 ? b : a;
        } else if (op == 0x28c) {       /* v_mbcnt_lo_u32_b32 */
            d = __builtin_popcount(a & (l >= 32 ? ~0u
                                               : (1u << l) - 1)) + b;
        } else if (op == 0x28d) {       /* v_mbcnt_hi_u32_b32 */
            d = __builtin_popcount(l <= 32 ? 0 :
                                   a & ((1u << (l - 32)) - 1)) + b;
        } else if (op == 0x1e8 || op == 0x1e9) {    /* v_mad_[iu]64_[iu]32 */
            uint64_t c64 = gcn_lane(w, &o[2], l, true), p;

            p = op == 0x1e8 ? (uint64_t)a * b
                            : (uint64_t)((int64_t)(int32_t)a * (int32_t)b);
            w->v[vdst][l] = (uint32_t)(p + c64);
            w->v[vdst + 1][l] = (p + c64) >> 32;
            cout |= (uint64_t)(p + c64 < p) << l;
            continue;
        } else if (!gcn_alu32(g, op, a, b, c, w->v[vdst][l], &carry, &d)) {
            return gcn_fail(g, w, insn, op < 0x140 ? "vop2" :
                            op < 0x1c0 ? "vop1" : "vop3");
        }
        if (fl) {
            d = gcn_omod_clamp(g, d, omod, clamp);
        }
        w->v[vdst][l] = d;
        cout |= (uint64_t)carry << l;
    }
    if (op < 0x100) {
        if (!hsagpu_gcn_swrite(w, sdst < 0 ? GCN_SRC_VCC_LO : sdst, true,
                               cmp)) {
            return gcn_fail(g, w, insn, "compare destination");
        }
        if (gcn_cmp_isx(op)) {
            w->exec = cmp;
        }
    } else if ((op >= 0x119 && op <= 0x11e) || op == 0x1e8 || op == 0x1e9) {
        /* carries of the lanes that ran; the others read as 0 */
        if (!hsagpu_gcn_swrite(w, sdst < 0 ? GCN_SRC_VCC_LO : sdst, true,
                               cout)) {
            return gcn_fail(g, w, insn, "carry destination");
        }
    }
    return len;
}

/* FLAT and GLOBAL: loads, stores, 32-bit add atomics. */
static unsigned gcn_flat(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                         const uint32_t *insn)
{
    unsigned op = (insn[0] >> 18) & 0x7f, seg = (insn[0] >> 14) & 3;
    bool glc = (insn[0] >> 16) & 1;
    int32_t off = seg == 2 ? ((int32_t)(insn[0] << 19) >> 19) : 0;
    unsigned vdst = insn[1] >> 24, saddr = (insn[1] >> 16) & 0x7f;
    unsigned data = (insn[1] >> 8) & 0xff, vaddr = insn[1] & 0xff;
    unsigned n, err;
    bool load = op >= 16 && op <= 23, store = op >= 24 && op <= 31;
    bool sbase = seg == 2 && saddr != 0x7f;
    uint64_t base = 0;

    if (seg == 1 || (!load && !store && op != 66)) {
        return gcn_fail(g, w, insn, seg == 1 ? "scratch" : "flat");
    }
    /* dword counts: load_dword 20..23, store_dword 28..31 */
    n = op == 66 ? 1 : load ? (op >= 20 ? op - 19 : 0)
                            : (op >= 28 ? op - 27 : 0);
    if (!n) {
        return gcn_fail(g, w, insn, "flat size");
    }
    if (sbase && !hsagpu_gcn_sread(w, saddr, 0, true, &base)) {
        return gcn_fail(g, w, insn, "saddr");
    }
    if ((load || glc) && vdst + n > w->nvgpr) {
        return gcn_fail(g, w, insn, "destination");
    }
    if ((store || op == 66) && data + n > w->nvgpr) {
        return gcn_fail(g, w, insn, "data");
    }
    if (vaddr + (sbase ? 0 : 1) >= w->nvgpr) {
        return gcn_fail(g, w, insn, "address");
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        uint64_t addr;
        uint32_t buf[4];

        if (!((w->exec >> l) & 1)) {
            continue;
        }
        addr = sbase ? base + w->v[vaddr][l]
                     : w->v[vaddr][l] | (uint64_t)w->v[vaddr + 1][l] << 32;
        addr += off;
        if (load) {
            err = g->mem->read(g->mem->opaque, addr, buf, n * 4);
            if (!err) {
                for (unsigned k = 0; k < n; k++) {
                    w->v[vdst + k][l] = buf[k];
                }
            }
        } else if (store) {
            for (unsigned k = 0; k < n; k++) {
                buf[k] = w->v[data + k][l];
            }
            err = g->mem->write(g->mem->opaque, addr, buf, n * 4);
        } else {
            /* global_atomic_add: lanes in order, each a read-modify-write */
            err = g->mem->read(g->mem->opaque, addr, buf, 4);
            if (!err) {
                uint32_t old = buf[0];

                buf[0] = old + w->v[data][l];
                err = g->mem->write(g->mem->opaque, addr, buf, 4);
                if (!err && glc) {
                    w->v[vdst][l] = old;
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

/* An LDS dword: out-of-range reads give 0, writes are dropped. */
static uint32_t gcn_lds_get(HsaGpuGcnGroup *g, uint64_t a)
{
    uint32_t v = 0;

    if (a + 4 <= g->lds_size) {
        memcpy(&v, g->lds + a, 4);
    }
    return v;
}

static void gcn_lds_put(HsaGpuGcnGroup *g, uint64_t a, uint32_t v)
{
    if (a + 4 <= g->lds_size) {
        memcpy(g->lds + a, &v, 4);
    }
}

/*
 * LDS: ds_add_u32, ds_write_b32, ds_write2(st64)_b32, ds_read_b32,
 * ds_read2(st64)_b32. Lanes run in order, so an add from several lanes
 * to one address accumulates.
 */
static unsigned gcn_ds(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                       const uint32_t *insn)
{
    unsigned op = (insn[0] >> 17) & 0xff, off = insn[0] & 0xffff;
    unsigned off0 = insn[0] & 0xff, off1 = (insn[0] >> 8) & 0xff;
    unsigned vdst = insn[1] >> 24, data0 = (insn[1] >> 8) & 0xff;
    unsigned data1 = (insn[1] >> 16) & 0xff, vaddr = insn[1] & 0xff;
    unsigned scale = op == 15 || op == 56 ? 256 : 4;
    bool two = op == 14 || op == 15 || op == 55 || op == 56;

    if ((op != 0 && op != 13 && op != 14 && op != 15 && op != 54 &&
         op != 55 && op != 56) || vaddr >= w->nvgpr ||
        data0 >= w->nvgpr || data1 >= w->nvgpr ||
        vdst + (two ? 1 : 0) >= w->nvgpr) {
        return gcn_fail(g, w, insn, "ds");
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        uint64_t a = w->v[vaddr][l];

        if (!((w->exec >> l) & 1)) {
            continue;
        }
        switch (op) {
        case 0:
            gcn_lds_put(g, a + off, gcn_lds_get(g, a + off) + w->v[data0][l]);
            break;
        case 13:
            gcn_lds_put(g, a + off, w->v[data0][l]);
            break;
        case 14:
        case 15:
            gcn_lds_put(g, a + off0 * scale, w->v[data0][l]);
            gcn_lds_put(g, a + off1 * scale, w->v[data1][l]);
            break;
        case 54:
            w->v[vdst][l] = gcn_lds_get(g, a + off);
            break;
        default:
            w->v[vdst][l] = gcn_lds_get(g, a + off0 * scale);
            w->v[vdst + 1][l] = gcn_lds_get(g, a + off1 * scale);
            break;
        }
    }
    return 2;
}

unsigned hsagpu_gcn_vector(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                           const uint32_t *insn)
{
    uint32_t i = insn[0];
    unsigned src[3];

    if (!(i >> 31)) {
        if ((i >> 25) == 0x3f) {                    /* VOP1 */
            unsigned op = (i >> 9) & 0xff;

            src[0] = i & 0x1ff;
            if (op == 0) {
                return 1;                           /* v_nop */
            }
            return gcn_valu(g, w, insn, 0x140 + op, 1, src, insn[1],
                            (i >> 17) & 0xff, -1, -1, 0, 0, 0, false,
                            1 + (src[0] == GCN_SRC_LITERAL));
        }
        if ((i >> 25) == 0x3e) {                    /* VOPC */
            src[0] = i & 0x1ff;
            src[1] = GCN_SRC_VGPR + ((i >> 9) & 0xff);
            return gcn_valu(g, w, insn, (i >> 17) & 0xff, 2, src, insn[1], 0,
                            -1, -1, 0, 0, 0, false,
                            1 + (src[0] == GCN_SRC_LITERAL));
        }
        {                                           /* VOP2 */
            unsigned op = (i >> 25) & 0x3f;
            bool k = op == 23 || op == 24;          /* madmk, madak */

            src[0] = i & 0x1ff;
            src[1] = GCN_SRC_VGPR + ((i >> 9) & 0xff);
            return gcn_valu(g, w, insn, 0x100 + op, 2, src, insn[1],
                            (i >> 17) & 0xff, -1,
                            op >= 28 && op <= 30 ? GCN_SRC_VCC_LO : -1, 0, 0,
                            0, false, 1 + (k || src[0] == GCN_SRC_LITERAL));
        }
    }
    switch (i >> 26) {
    case 0x34: {                                    /* VOP3 (a and b) */
        unsigned op = (i >> 16) & 0x3ff;
        bool b = (op >= 0x119 && op <= 0x11e) || op == 0x1e8 || op == 0x1e9;
        bool c_in = op >= 0x11c && op <= 0x11e;
        unsigned nsrc = op < 0x100 ? 2 : op < 0x140 ? (c_in ? 3 : 2) :
                        op < 0x1c0 ? 1 : op >= 0x285 ? 2 : 3;

        src[0] = insn[1] & 0x1ff;
        src[1] = (insn[1] >> 9) & 0x1ff;
        src[2] = (insn[1] >> 18) & 0x1ff;
        if (op == 0x100) {                          /* cndmask: mask in src2 */
            return gcn_valu(g, w, insn, op, 2, src, 0, i & 0xff, -1, src[2],
                            0, 0, 0, false, 2);
        }
        return gcn_valu(g, w, insn, op, c_in ? 2 : nsrc, src, 0,
                        i & 0xff, op < 0x100 ? (int)(i & 0xff) :
                        b ? (int)((i >> 8) & 0x7f) : -1,
                        c_in ? (int)src[2] : -1,
                        b ? 0 : (i >> 8) & 7, insn[1] >> 29,
                        (insn[1] >> 27) & 3, !b && ((i >> 15) & 1), 2);
    }
    case 0x37:                                      /* FLAT, GLOBAL */
        return gcn_flat(g, w, insn);
    case 0x36:                                      /* DS */
        return gcn_ds(g, w, insn);
    default:
        return gcn_fail(g, w, insn, "encoding");
    }
}
