/*
 * hsa-gpu: GCN (gfx9) interpreter, vector ALU: the operation of a VOP1,
 * VOP2, VOPC, VOP3 or VOP3P instruction over the lanes (their encodings
 * are decoded in hsagpu-gcn-decode.c), the integer operations of one
 * lane, compares into VCC or an SGPR pair, EXEC masking. Floating point
 * is in hsagpu-gcn-fpu.c, memory in hsagpu-gcn-vmem.c. Every lane whose
 * EXEC bit is set runs; the others keep their registers.
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

static const uint32_t gcn_zero_lanes[HSAGPU_GCN_WAVE];

static uint32_t gcn_sext24(uint32_t v)
{
    return (uint32_t)((int32_t)(v << 8) >> 8);
}

/* min3, max3, med3 of signed (@sgn) or unsigned dwords */
static uint32_t gcn_mm(uint32_t a, uint32_t b, bool sgn, bool max)
{
    bool lt = sgn ? (int32_t)a < (int32_t)b : a < b;

    return lt != max ? a : b;
}

static uint32_t gcn_med3(uint32_t a, uint32_t b, uint32_t c, bool sgn)
{
    return gcn_mm(gcn_mm(a, b, sgn, false),
                  gcn_mm(gcn_mm(a, b, sgn, true), c, sgn, false), sgn, true);
}

/* v_perm_b32: bytes of {S0, S1} (S1 the low four) chosen by S2's bytes */
static uint32_t gcn_perm(uint32_t s0, uint32_t s1, uint32_t sel)
{
    uint64_t v = (uint64_t)s0 << 32 | s1;
    uint32_t d = 0;

    for (unsigned k = 0; k < 4; k++) {
        unsigned s = (sel >> (8 * k)) & 0xff;
        uint32_t b;

        if (s < 8) {
            b = (v >> (8 * s)) & 0xff;
        } else if (s < 12) {
            /* the sign of byte 1, 3, 5 or 7, replicated */
            b = (v >> (16 * (s - 8) + 15)) & 1 ? 0xff : 0;
        } else {
            b = s == 12 ? 0 : 0xff;
        }
        d |= b << (8 * k);
    }
    return d;
}

/* Sum of the absolute differences of @n fields of @bits bits of @a, @b */
static uint32_t gcn_sad(uint32_t a, uint32_t b, unsigned bits, bool masked)
{
    uint32_t m = (1u << bits) - 1, s = 0;

    for (unsigned k = 0; k < 32 / bits; k++) {
        uint32_t x = (a >> (bits * k)) & m, y = (b >> (bits * k)) & m;

        /* masked (v_msad_u8): a zero reference byte counts nothing */
        if (!masked || y) {
            s += x > y ? x - y : y - x;
        }
    }
    return s;
}

/* A signed value saturated to @lo .. @hi */
static int64_t gcn_sat(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/*
 * One lane of a 32-bit integer op in VOP3 numbering (GCN_VOP3_FROM_VOP2,
 * GCN_VOP3_FROM_VOP1 for the others). *carry: in for the addc/subb
 * forms, out for the carry-producing ones; @clamp saturates the adds and
 * subtracts. False: not implemented.
 */
static bool gcn_alu32(unsigned op, uint32_t a, uint32_t b, uint32_t c,
                      bool clamp, bool *carry, uint32_t *d)
{
    uint64_t t;
    int64_t st;

    switch (op) {
    case GCN_VOP3_V_MUL_I32_I24:
        *d = gcn_sext24(a) * gcn_sext24(b);
        return true;
    case GCN_VOP3_V_MUL_HI_I32_I24:
        *d = (uint64_t)((int64_t)(int32_t)gcn_sext24(a) *
                        (int32_t)gcn_sext24(b)) >> 32;
        return true;
    case GCN_VOP3_V_MUL_U32_U24:
        *d = (a & 0xffffff) * (b & 0xffffff);
        return true;
    case GCN_VOP3_V_MUL_HI_U32_U24:
        *d = ((uint64_t)(a & 0xffffff) * (b & 0xffffff)) >> 32;
        return true;
    case GCN_VOP3_V_MIN_I32:
    case GCN_VOP3_V_MAX_I32:
    case GCN_VOP3_V_MIN_U32:
    case GCN_VOP3_V_MAX_U32:
        *d = gcn_mm(a, b, op == GCN_VOP3_V_MIN_I32 || op == GCN_VOP3_V_MAX_I32,
                    op == GCN_VOP3_V_MAX_I32 || op == GCN_VOP3_V_MAX_U32);
        return true;
    case GCN_VOP3_V_LSHRREV_B32:
        *d = b >> (a & 31);
        return true;
    case GCN_VOP3_V_ASHRREV_I32:
        *d = (uint32_t)((int32_t)b >> (a & 31));
        return true;
    case GCN_VOP3_V_LSHLREV_B32:
        *d = b << (a & 31);
        return true;
    case GCN_VOP3_V_AND_B32:
        *d = a & b;
        return true;
    case GCN_VOP3_V_OR_B32:
        *d = a | b;
        return true;
    case GCN_VOP3_V_XOR_B32:
        *d = a ^ b;
        return true;
    case GCN_VOP3_V_ADD_CO_U32:
    case GCN_VOP3_V_ADD_U32:
        t = (uint64_t)a + b;
        *carry = t >> 32;
        *d = clamp && *carry ? UINT32_MAX : (uint32_t)t;
        return true;
    case GCN_VOP3_V_SUB_CO_U32:
    case GCN_VOP3_V_SUB_U32:
    case GCN_VOP3_V_SUBREV_CO_U32:
    case GCN_VOP3_V_SUBREV_U32:
        if (op == GCN_VOP3_V_SUBREV_CO_U32 ||
            op == GCN_VOP3_V_SUBREV_U32) {
            t = a;
            a = b;
            b = (uint32_t)t;
        }
        *carry = b > a;
        *d = clamp && *carry ? 0 : a - b;
        return true;
    case GCN_VOP3_V_ADDC_CO_U32:
        t = (uint64_t)a + b + *carry;
        *carry = t >> 32;
        *d = clamp && *carry ? UINT32_MAX : (uint32_t)t;
        return true;
    case GCN_VOP3_V_SUBB_CO_U32:
    case GCN_VOP3_V_SUBBREV_CO_U32:
        t = op == GCN_VOP3_V_SUBB_CO_U32 ? (uint64_t)a - b - *carry
                                         : (uint64_t)b - a - *carry;
        *carry = (t >> 32) != 0;
        *d = clamp && *carry ? 0 : (uint32_t)t;
        return true;
    case GCN_VOP3_V_ADD_U16:
    case GCN_VOP3_V_SUB_U16:
    case GCN_VOP3_V_SUBREV_U16:
        t = op == GCN_VOP3_V_ADD_U16 ? (a & 0xffff) + (b & 0xffff) :
            op == GCN_VOP3_V_SUB_U16 ? (a & 0xffff) - (b & 0xffff) :
                                       (b & 0xffff) - (a & 0xffff);
        *d = clamp && t > 0xffff ? (op == GCN_VOP3_V_ADD_U16 ? 0xffff : 0)
                                 : (uint32_t)t & 0xffff;
        return true;
    case GCN_VOP3_V_MUL_LO_U16:
        *d = ((a & 0xffff) * (b & 0xffff)) & 0xffff;
        return true;
    case GCN_VOP3_V_LSHLREV_B16:
        *d = (b << (a & 15)) & 0xffff;
        return true;
    case GCN_VOP3_V_LSHRREV_B16:
        *d = (b & 0xffff) >> (a & 15);
        return true;
    case GCN_VOP3_V_ASHRREV_I16:
        *d = (uint16_t)((int16_t)b >> (a & 15));
        return true;
    case GCN_VOP3_V_MAX_U16:
    case GCN_VOP3_V_MIN_U16:
        *d = gcn_mm(a & 0xffff, b & 0xffff, false, op == GCN_VOP3_V_MAX_U16);
        return true;
    case GCN_VOP3_V_MAX_I16:
    case GCN_VOP3_V_MIN_I16:
        *d = gcn_mm((int16_t)a, (int16_t)b, true,
                    op == GCN_VOP3_V_MAX_I16) & 0xffff;
        return true;
    case GCN_VOP3_V_MOV_B32:
        *d = a;
        return true;
    case GCN_VOP3_V_NOT_B32:
        *d = ~a;
        return true;
    case GCN_VOP3_V_BFREV_B32:
        a = (a >> 16) | (a << 16);
        a = ((a & 0xff00ff00) >> 8) | ((a & 0x00ff00ff) << 8);
        a = ((a & 0xf0f0f0f0) >> 4) | ((a & 0x0f0f0f0f) << 4);
        a = ((a & 0xcccccccc) >> 2) | ((a & 0x33333333) << 2);
        *d = ((a & 0xaaaaaaaa) >> 1) | ((a & 0x55555555) << 1);
        return true;
    case GCN_VOP3_V_FFBH_U32:
        *d = a ? (uint32_t)__builtin_clz(a) : UINT32_MAX;
        return true;
    case GCN_VOP3_V_FFBL_B32:
        *d = a ? (uint32_t)__builtin_ctz(a) : UINT32_MAX;
        return true;
    case GCN_VOP3_V_FFBH_I32:
        *d = a == 0 || a == UINT32_MAX ? UINT32_MAX
                                       : (uint32_t)__builtin_clrsb(a) + 1;
        return true;
    case GCN_VOP3_V_MAD_I32_I24:
        *d = gcn_sext24(a) * gcn_sext24(b) + c;
        return true;
    case GCN_VOP3_V_MAD_U32_U24:
        *d = (a & 0xffffff) * (b & 0xffffff) + c;
        return true;
    case GCN_VOP3_V_BFE_U32:
    case GCN_VOP3_V_BFE_I32: {
        unsigned off = b & 31, w = c & 31;
        bool sgn = op == GCN_VOP3_V_BFE_I32;
        /* S0.i >> offset for the signed one: arithmetic */
        uint32_t sh = sgn ? (uint32_t)((int32_t)a >> off) : a >> off;
        uint32_t v = w ? sh & ((1u << w) - 1) : 0;

        if (sgn && w && (v >> (w - 1)) & 1) {
            v |= ~((1u << w) - 1);
        }
        *d = v;
        return true;
    }
    case GCN_VOP3_V_BFI_B32:
        *d = (a & b) | (~a & c);
        return true;
    case GCN_VOP3_V_ALIGNBIT_B32:
        *d = (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31));
        return true;
    case GCN_VOP3_V_ALIGNBYTE_B32:
        *d = (uint32_t)((((uint64_t)a << 32) | b) >> (8 * (c & 3)));
        return true;
    case GCN_VOP3_V_MIN3_I32:
    case GCN_VOP3_V_MIN3_U32:
    case GCN_VOP3_V_MAX3_I32:
    case GCN_VOP3_V_MAX3_U32: {
        bool sgn = op == GCN_VOP3_V_MIN3_I32 || op == GCN_VOP3_V_MAX3_I32;
        bool max = op == GCN_VOP3_V_MAX3_I32 || op == GCN_VOP3_V_MAX3_U32;

        *d = gcn_mm(gcn_mm(a, b, sgn, max), c, sgn, max);
        return true;
    }
    case GCN_VOP3_V_MED3_I32:
    case GCN_VOP3_V_MED3_U32:
        *d = gcn_med3(a, b, c, op == GCN_VOP3_V_MED3_I32);
        return true;
    case GCN_VOP3_V_SAD_U32:
        *d = (a > b ? a - b : b - a) + c;
        return true;
    case GCN_VOP3_V_PERM_B32:
        *d = gcn_perm(a, b, c);
        return true;
    case GCN_VOP3_V_MAD_U32_U16:
        *d = (a & 0xffff) * (b & 0xffff) + c;
        return true;
    case GCN_VOP3_V_XAD_U32:
        *d = (a ^ b) + c;
        return true;
    case GCN_VOP3_V_LSHL_ADD_U32:
        *d = (a << (b & 31)) + c;
        return true;
    case GCN_VOP3_V_ADD_LSHL_U32:
        *d = (a + b) << (c & 31);
        return true;
    case GCN_VOP3_V_ADD3_U32:
        *d = a + b + c;
        return true;
    case GCN_VOP3_V_LSHL_OR_B32:
        *d = (a << (b & 31)) | c;
        return true;
    case GCN_VOP3_V_AND_OR_B32:
        *d = (a & b) | c;
        return true;
    case GCN_VOP3_V_OR3_B32:
        *d = a | b | c;
        return true;
    case GCN_VOP3_V_MUL_LO_U32:
        *d = a * b;
        return true;
    case GCN_VOP3_V_MUL_HI_U32:
        *d = ((uint64_t)a * b) >> 32;
        return true;
    case GCN_VOP3_V_MUL_HI_I32:
        *d = (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32);
        return true;
    case GCN_VOP3_V_BCNT_U32_B32:
        *d = __builtin_popcount(a) + b;
        return true;
    case GCN_VOP3_V_BFM_B32:
        *d = ((1u << (a & 31)) - 1) << (b & 31);
        return true;
    case GCN_VOP3_V_CVT_PK_U16_U32:
        *d = (a > 0xffff ? 0xffff : a) | (b > 0xffff ? 0xffff : b) << 16;
        return true;
    case GCN_VOP3_V_SAT_PK_U8_I16:
        *d = (uint32_t)gcn_sat((int16_t)a, 0, 255) |
             (uint32_t)gcn_sat((int16_t)(a >> 16), 0, 255) << 8;
        return true;
    case GCN_VOP3_V_LERP_U8:
        *d = 0;
        for (unsigned k = 0; k < 4; k++) {
            *d |= ((((a >> (8 * k)) & 0xff) + ((b >> (8 * k)) & 0xff) +
                    ((c >> (8 * k)) & 1)) >> 1) << (8 * k);
        }
        return true;
    case GCN_VOP3_V_SAD_U8:
        *d = gcn_sad(a, b, 8, false) + c;
        return true;
    case GCN_VOP3_V_SAD_HI_U8:
        *d = (gcn_sad(a, b, 8, false) << 16) + c;
        return true;
    case GCN_VOP3_V_SAD_U16:
        *d = gcn_sad(a, b, 16, false) + c;
        return true;
    case GCN_VOP3_V_MSAD_U8:
        *d = gcn_sad(a, b, 8, true) + c;
        return true;
    case GCN_VOP3_V_MAD_LEGACY_U16:
    case GCN_VOP3_V_MAD_U16:
        t = (uint64_t)(a & 0xffff) * (b & 0xffff) + (c & 0xffff);
        *d = clamp && t > 0xffff ? 0xffff : (uint32_t)t & 0xffff;
        return true;
    case GCN_VOP3_V_MAD_LEGACY_I16:
    case GCN_VOP3_V_MAD_I16:
        st = (int64_t)(int16_t)a * (int16_t)b + (int16_t)c;
        *d = (uint16_t)(clamp ? gcn_sat(st, INT16_MIN, INT16_MAX) : st);
        return true;
    case GCN_VOP3_V_MAD_I32_I16:
        *d = (uint32_t)((int32_t)(int16_t)a * (int16_t)b + (int32_t)c);
        return true;
    case GCN_VOP3_V_MIN3_I16:
    case GCN_VOP3_V_MAX3_I16:
        *d = gcn_mm(gcn_mm((int16_t)a, (int16_t)b, true,
                           op == GCN_VOP3_V_MAX3_I16),
                    (int16_t)c, true, op == GCN_VOP3_V_MAX3_I16) & 0xffff;
        return true;
    case GCN_VOP3_V_MIN3_U16:
    case GCN_VOP3_V_MAX3_U16:
        *d = gcn_mm(gcn_mm(a & 0xffff, b & 0xffff, false,
                           op == GCN_VOP3_V_MAX3_U16),
                    c & 0xffff, false, op == GCN_VOP3_V_MAX3_U16);
        return true;
    case GCN_VOP3_V_MED3_I16:
        *d = gcn_med3((int16_t)a, (int16_t)b, (int16_t)c, true) & 0xffff;
        return true;
    case GCN_VOP3_V_MED3_U16:
        *d = gcn_med3(a & 0xffff, b & 0xffff, c & 0xffff, false);
        return true;
    case GCN_VOP3_V_CVT_PK_I16_I32:
        *d = (uint16_t)gcn_sat((int32_t)a, INT16_MIN, INT16_MAX) |
             (uint32_t)(uint16_t)gcn_sat((int32_t)b, INT16_MIN,
                                         INT16_MAX) << 16;
        return true;
    case GCN_VOP3_V_ADD_I16:
    case GCN_VOP3_V_SUB_I16:
        st = op == GCN_VOP3_V_ADD_I16 ? (int64_t)(int16_t)a + (int16_t)b
                                      : (int64_t)(int16_t)a - (int16_t)b;
        *d = (uint16_t)(clamp ? gcn_sat(st, INT16_MIN, INT16_MAX) : st);
        return true;
    case GCN_VOP3_V_ADD_I32:
    case GCN_VOP3_V_SUB_I32:
        st = op == GCN_VOP3_V_ADD_I32 ? (int64_t)(int32_t)a + (int32_t)b
                                      : (int64_t)(int32_t)a - (int32_t)b;
        *d = clamp ? (uint32_t)(st > INT32_MAX ? INT32_MAX :
                                st < INT32_MIN ? INT32_MIN : st)
                   : (uint32_t)st;
        return true;
    default:
        return false;
    }
}

/* Does @op saturate with the VOP3 clamp bit (the others ignore nothing) */
static bool gcn_int_clamps(unsigned op)
{
    switch (op) {
    case GCN_VOP3_V_ADD_CO_U32 ... GCN_VOP3_V_SUBBREV_CO_U32:
    case GCN_VOP3_V_ADD_U16 ... GCN_VOP3_V_SUBREV_U16:
    case GCN_VOP3_V_ADD_U32 ... GCN_VOP3_V_SUBREV_U32:
    case GCN_VOP3_V_ADD_I32:
    case GCN_VOP3_V_SUB_I32:
    case GCN_VOP3_V_MAD_LEGACY_U16:
    case GCN_VOP3_V_MAD_LEGACY_I16:
    case GCN_VOP3_V_MAD_U16:
    case GCN_VOP3_V_MAD_I16:
    case GCN_VOP3_V_ADD_I16:
    case GCN_VOP3_V_SUB_I16:
        return true;
    default:
        return false;
    }
}

/*
 * Does VOP3 @op have op_sel (gfx9's 16-bit instructions: which half of
 * each source it reads, and for a 16-bit result which half it writes)
 */
static bool gcn_has_opsel(unsigned op)
{
    switch (op) {
    case GCN_VOP3_V_MAD_F16 ... GCN_VOP3_V_DIV_FIXUP_F16:
    case GCN_VOP3_V_MIN3_F16 ... GCN_VOP3_V_MED3_U16:
    case GCN_VOP3_V_ADD_I16:
    case GCN_VOP3_V_SUB_I16:
    case GCN_VOP3_V_PACK_B32_F16:
    case GCN_VOP3_V_CVT_PKNORM_I16_F16:
    case GCN_VOP3_V_CVT_PKNORM_U16_F16:
    case GCN_VOP3_V_MAD_U32_U16:
    case GCN_VOP3_V_MAD_I32_I16:
        return true;
    default:
        return false;
    }
}

/*
 * Does @op write only a half of its destination, keeping the other (the
 * 16-bit results of the op_sel instructions, and gfx9's v_mac_f16,
 * v_madmk_f16, v_madak_f16, which LLVM's zeroesHigh16BitsOfDest has
 * zeroing the upper half on gfx8 only; the other older 16-bit ones, the
 * _legacy ones among them, zero it)
 */
static bool gcn_d16_keeps(unsigned op)
{
    switch (op) {
    case GCN_VOP3_V_MAC_F16:
    case GCN_VOP3_V_MADMK_F16:
    case GCN_VOP3_V_MADAK_F16:
    case GCN_VOP3_V_MAD_F16 ... GCN_VOP3_V_DIV_FIXUP_F16:
    case GCN_VOP3_V_MIN3_F16 ... GCN_VOP3_V_MED3_U16:
    case GCN_VOP3_V_ADD_I16:
    case GCN_VOP3_V_SUB_I16:
        return true;
    default:
        return false;
    }
}

/*
 * Relation k of the VOPC encodings (GCN_VOPC_REL: F, LT, EQ, LE, GT, LG,
 * GE, then O for floats or T for integers): LT, EQ and GT are its bits.
 */
bool hsagpu_gcn_rel(unsigned k, bool lt, bool eq, bool gt, bool un)
{
    return k == 7 ? !un : ((k & 1) && lt) || ((k & 2) && eq) ||
                          ((k & 4) && gt);
}

/* Integer compare of one lane: i16/u16, i32/u32, i64/u64 */
static bool gcn_icmp(unsigned op, uint64_t a, uint64_t b, bool *r)
{
    unsigned k = GCN_VOPC_REL(op);
    unsigned bits = op >= GCN_VOP3_V_CMP_F_I64 ? 64 :
                    op >= GCN_VOP3_V_CMP_F_I32 ? 32 : 16;
    bool sgn = !GCN_VOPC_NEG_U(op);
    int64_t sa, sb;

    if (op < GCN_VOP3_V_CMP_F_I16 || op > GCN_VOP3_V_CMPX_T_U64) {
        return false;
    }
    if (bits < 64) {
        a &= (1ULL << bits) - 1;
        b &= (1ULL << bits) - 1;
        sa = (int64_t)(a << (64 - bits)) >> (64 - bits);
        sb = (int64_t)(b << (64 - bits)) >> (64 - bits);
    } else {
        sa = (int64_t)a;
        sb = (int64_t)b;
    }
    *r = hsagpu_gcn_rel(k, sgn ? sa < sb : a < b, a == b,
                        sgn ? sa > sb : a > b, false);
    return true;
}

/* The float type of a compare's source @k: 0 for integers */
static unsigned gcn_cmp_ftype(unsigned op, unsigned k)
{
    switch (op) {
    case GCN_VOP3_V_CMP_CLASS_F32 ... GCN_VOP3_V_CMPX_CLASS_F16:
        /* S1: a mask */
        return k ? 0 : op < GCN_VOP3_V_CMP_CLASS_F64 ? 32 :
                       op < GCN_VOP3_V_CMP_CLASS_F16 ? 64 : 16;
    case GCN_VOP3_V_CMP_F_F16 ... GCN_VOP3_V_CMPX_TRU_F16:
        return 16;
    case GCN_VOP3_V_CMP_F_F32 ... GCN_VOP3_V_CMPX_TRU_F32:
        return 32;
    case GCN_VOP3_V_CMP_F_F64 ... GCN_VOP3_V_CMPX_TRU_F64:
        return 64;
    default:
        return 0;
    }
}

/* Float source modifiers (VOP3): |x|, -x on the sign of type @t */
static uint64_t gcn_mod(uint64_t v, unsigned t, bool abs, bool neg)
{
    uint64_t sign = 1ULL << (t - 1);

    return (abs ? v & ~sign : v) ^ (neg ? sign : 0);
}

/* 64-bit integer VOP3 ops of one lane */
static bool gcn_alu64(unsigned op, uint64_t a, uint64_t b, uint64_t c,
                      uint64_t *d)
{
    switch (op) {
    case GCN_VOP3_V_QSAD_PK_U16_U8:
    case GCN_VOP3_V_MQSAD_PK_U16_U8:
        /* four 16-bit sums: S1 against S0's dword at byte k, plus S2's */
        *d = 0;
        for (unsigned k = 0; k < 4; k++) {
            uint32_t s = gcn_sad((uint32_t)(a >> (8 * k)), (uint32_t)b, 8,
                                 op == GCN_VOP3_V_MQSAD_PK_U16_U8) +
                         (uint32_t)(c >> (16 * k));

            *d |= (uint64_t)(s & 0xffff) << (16 * k);
        }
        return true;
    case GCN_VOP3_V_LSHLREV_B64:
        *d = b << (a & 63);
        return true;
    case GCN_VOP3_V_LSHRREV_B64:
        *d = b >> (a & 63);
        return true;
    case GCN_VOP3_V_ASHRREV_I64:
        *d = (uint64_t)((int64_t)b >> (a & 63));
        return true;
    default:
        return false;
    }
}

/* The float type of source @k (0..2) or result (3) of @op; 0: integer */
static unsigned gcn_type(unsigned op, unsigned k)
{
    if (GCN_VOP3_IS_VOPC(op)) {
        return k == 3 ? 0 : gcn_cmp_ftype(op, k);
    }
    return hsagpu_gcn_ftype(op, k);
}

/*
 * Which operands of @op are 64-bit: bits 0-2 the sources, 3 the result
 * (@t: its float types, gcn_type())
 */
static unsigned gcn_wide(unsigned op, const uint8_t t[4])
{
    unsigned m = 0;

    if (op >= GCN_VOP3_V_CMP_F_I64 && op <= GCN_VOP3_V_CMPX_T_U64) {
        return 3;                                   /* i64, u64 compares */
    }
    for (unsigned k = 0; k < 4; k++) {
        m |= (t[k] == 64) << k;
    }
    if (op == GCN_VOP3_V_LSHLREV_B64 || op == GCN_VOP3_V_LSHRREV_B64 ||
        op == GCN_VOP3_V_ASHRREV_I64) {
        m |= 2 | 8;
    } else if (op == GCN_VOP3_V_MAD_U64_U32 ||
               op == GCN_VOP3_V_MAD_I64_I32) {
        m |= 4 | 8;
    } else if (op == GCN_VOP3_V_QSAD_PK_U16_U8 ||
               op == GCN_VOP3_V_MQSAD_PK_U16_U8) {
        m |= 1 | 4 | 8;
    }
    return m;
}

/* An operand's type (GCN_OT_*) from its float type @ft and width */
static unsigned gcn_ot(unsigned ft, bool wide)
{
    return ft == 16 ? GCN_OT_F16 : ft == 32 ? GCN_OT_F32 :
           ft == 64 ? GCN_OT_F64 : wide ? GCN_OT_B64 : GCN_OT_B32;
}

/*
 * Each VOP3 opcode's operand float types and widths, worked out once
 * (gcn_type, gcn_wide) instead of at every instruction: a table filled
 * when the program loads, before any dispatch runs
 */
#define GCN_VOP3_OPS    1024            /* a 10-bit field */
typedef struct GcnOpInfo {
    uint8_t ftype[4];
    uint8_t wide;
} GcnOpInfo;
static GcnOpInfo gcn_op_info[GCN_VOP3_OPS];

static void __attribute__((constructor)) gcn_op_info_init(void)
{
    for (unsigned op = 0; op < GCN_VOP3_OPS; op++) {
        GcnOpInfo *i = &gcn_op_info[op];

        for (unsigned k = 0; k < 4; k++) {
            i->ftype[k] = gcn_type(op, k);
        }
        i->wide = gcn_wide(op, i->ftype);
    }
}

unsigned hsagpu_gcn_optype(unsigned op, unsigned k)
{
    uint8_t t[4];

    for (unsigned j = 0; j < 4; j++) {
        t[j] = gcn_type(op, j);
    }
    return gcn_ot(t[k], (gcn_wide(op, t) >> k) & 1);
}

/*
 * An fp32 denormal flushed to a signed zero when @ftz, as bits: a select
 * the host compiler vectorises
 */
static inline __attribute__((always_inline))
uint32_t gcn_ftz32(uint32_t v, bool ftz)
{
    return ftz && !(v & 0x7f800000u) ? v & 0x80000000u : v;
}

/* Bits as a float, and back (a move the compiler keeps in registers) */
static inline __attribute__((always_inline)) float gcn_bits_f(uint32_t v)
{
    float f;

    memcpy(&f, &v, 4);
    return f;
}

static inline __attribute__((always_inline)) uint32_t gcn_f_bits(float f)
{
    uint32_t v;

    memcpy(&v, &f, 4);
    return v;
}

/* An operand's lanes: its VGPR's, or @buf filled with the uniform @u */
static inline __attribute__((always_inline))
const uint32_t *gcn_f32_src(const uint32_t *v, uint32_t u, uint32_t *buf)
{
    if (v) {
        return v;
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        buf[l] = u;
    }
    return buf;
}

/*
 * A lane mask as one 0/1 dword a lane: 32-bit shifts, which the host
 * compiler vectorises (a 64-bit mask shifted by the lane does not)
 */
static inline __attribute__((always_inline))
void gcn_mask_lanes(uint64_t m, uint32_t *out)
{
    const uint32_t half[2] = { (uint32_t)m, (uint32_t)(m >> 32) };

    for (unsigned h = 0; h < 2; h++) {
        for (unsigned l = 0; l < 32; l++) {
            out[32 * h + l] = (half[h] >> l) & 1;
        }
    }
}

/* @r into @d, the lanes EXEC enables (in the caller's vector clone) */
static inline __attribute__((always_inline))
void gcn_merge(const uint32_t *r, uint64_t exec, uint32_t *d)
{
    HSAGPU_GCN_SCRATCH uint32_t on[HSAGPU_GCN_WAVE];

    if (exec == UINT64_MAX) {
        memcpy(d, r, HSAGPU_GCN_WAVE * 4);
        return;
    }
    gcn_mask_lanes(exec, on);
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        d[l] = on[l] ? r[l] : d[l];
    }
}

/*
 * @op on all 64 lanes of @a, @b (and @c: the addend of v_fma_f32 and
 * v_madak_f32; each a VGPR's lanes, or NULL and the uniform value @av,
 * @bv, @cv), denormals flushed when @ftz, into @r: one loop over the
 * lanes, without a branch, which the host compiler turns into SIMD,
 * compiled for the host's vector units where it has them
 * (HSAGPU_GCN_SIMD). Rounding, fused or not, is the instruction's: the
 * clones keep a multiply and an add apart (fp-contract=off), an FMA is
 * fmaf.
 */
#define GCN_F32_FTZ(v)  (((v) & 0x7f800000u) ? (v) : (v) & keep)
#define GCN_F32_LOOP(expr) \
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) { \
        float x = gcn_bits_f(GCN_F32_FTZ(pa[l])); \
        float y = gcn_bits_f(GCN_F32_FTZ(pb[l])); \
        float z = gcn_bits_f(GCN_F32_FTZ(pc[l])); \
        uint32_t o; \
        \
        (void)z; \
        o = gcn_f_bits(expr); \
        r[l] = GCN_F32_FTZ(o); \
    }

HSAGPU_GCN_SIMD
static void gcn_f32_lanes(unsigned op, const uint32_t *a, uint32_t av,
                          const uint32_t *b, uint32_t bv, const uint32_t *c,
                          uint32_t cv, bool ftz, uint64_t exec, uint32_t *d)
{
    HSAGPU_GCN_SCRATCH uint32_t ua[HSAGPU_GCN_WAVE], ub[HSAGPU_GCN_WAVE];
    HSAGPU_GCN_SCRATCH uint32_t uc[HSAGPU_GCN_WAVE];
    /*
     * the results here first: @d may be a source, and no source is @r;
     * then into @d by EXEC in the same vector unit (a store of one width
     * read back at another would stall)
     */
    HSAGPU_GCN_SCRATCH uint32_t r[HSAGPU_GCN_WAVE];
    const uint32_t *restrict pa = gcn_f32_src(a, av, ua);
    const uint32_t *restrict pb = gcn_f32_src(b, bv, ub);
    const uint32_t *restrict pc = pb;
    /* a denormal keeps its sign only (ftz), or all of it: no branch */
    const uint32_t keep = ftz ? 0x80000000u : UINT32_MAX;

    switch (op) {
    case GCN_VOP3_V_ADD_F32:
        GCN_F32_LOOP(x + y);
        break;
    case GCN_VOP3_V_SUB_F32:
        GCN_F32_LOOP(x - y);
        break;
    case GCN_VOP3_V_SUBREV_F32:
        GCN_F32_LOOP(y - x);
        break;
    case GCN_VOP3_V_MUL_F32:
        GCN_F32_LOOP(x * y);
        break;
    case GCN_VOP3_V_MADAK_F32:
        pc = gcn_f32_src(c, cv, uc);
        /* not fused: the product rounds first */
        GCN_F32_LOOP(x * y + z);
        break;
    default:
        pc = gcn_f32_src(c, cv, uc);
        GCN_F32_LOOP(fmaf(x, y, z));
        break;
    }
    gcn_merge(r, exec, d);
}
#undef GCN_F32_LOOP
#undef GCN_F32_FTZ

/*
 * The fp32 operations compiled code is made of, without modifiers: the
 * lanes at once (gcn_f32_lanes), the same arithmetic hsagpu-gcn-fpu.c
 * does through double (there the general case), written to the lanes
 * EXEC enables. False: not one of them.
 */
static bool gcn_f32_fast_op(unsigned op)
{
    switch (op) {
    case GCN_VOP3_V_ADD_F32:
    case GCN_VOP3_V_SUB_F32:
    case GCN_VOP3_V_SUBREV_F32:
    case GCN_VOP3_V_MUL_F32:
    case GCN_VOP3_V_FMA_F32:
    case GCN_VOP3_V_MADAK_F32:
        return true;
    default:
        return false;
    }
}

static bool gcn_f32_fast(HsaGpuGcnGroup *g, HsaGpuGcnWave *w, unsigned op,
                         const HsaGpuGcnOp o[3], uint32_t lit, uint32_t *d)
{
    const uint32_t *c = NULL;
    uint32_t cv = 0;

    if (!gcn_f32_fast_op(op)) {
        return false;
    }
    if (op == GCN_VOP3_V_FMA_F32) {
        c = o[2].lanes;
        cv = o[2].val;
    } else if (op == GCN_VOP3_V_MADAK_F32) {
        cv = lit;
    }
    gcn_f32_lanes(op, o[0].lanes, o[0].val, o[1].lanes, o[1].val, c, cv,
                  g->ftz32, w->exec, d);
    return true;
}

/* An operand's dwords for all lanes: its VGPR, or @buf filled with it */
static const uint32_t *gcn_lanes(HsaGpuGcnWave *w, const HsaGpuGcnOp *o,
                                 uint32_t *buf)
{
    if (o->lanes) {
        return o->lanes;
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        buf[l] = (uint32_t)o->val;
    }
    return buf;
}

/*
 * The 32-bit integer operations address arithmetic and loops are made of,
 * without modifiers or carries: one loop per operation over the lanes
 * (the general path below dispatches per lane). False: not one of them.
 */
static bool gcn_i32_fast_op(unsigned op)
{
    switch (op) {
    case GCN_VOP3_V_LSHRREV_B32:
    case GCN_VOP3_V_ASHRREV_I32:
    case GCN_VOP3_V_LSHLREV_B32:
    case GCN_VOP3_V_AND_B32:
    case GCN_VOP3_V_OR_B32:
    case GCN_VOP3_V_XOR_B32:
    case GCN_VOP3_V_ADD_U32:
    case GCN_VOP3_V_SUB_U32:
    case GCN_VOP3_V_SUBREV_U32:
    case GCN_VOP3_V_MOV_B32:
    case GCN_VOP3_V_MUL_U32_U24:
    case GCN_VOP3_V_MUL_LO_U32:
    case GCN_VOP3_V_LSHL_ADD_U32:
    case GCN_VOP3_V_ADD3_U32:
    case GCN_VOP3_V_LSHL_OR_B32:
    case GCN_VOP3_V_AND_OR_B32:
    case GCN_VOP3_V_OR3_B32:
    case GCN_VOP3_V_MAD_U32_U24:
        return true;
    default:
        return false;
    }
}

/*
 * The lanes of 32-bit integer operation @op of @a, @b, @c into @d by
 * EXEC: each computed for all lanes first (a loop the host compiler
 * vectorises; @d may be a source), then merged
 */
HSAGPU_GCN_SIMD
static void gcn_i32_lanes(unsigned op, const uint32_t *a, const uint32_t *b,
                          const uint32_t *c, uint64_t exec, uint32_t *d)
{
    HSAGPU_GCN_SCRATCH uint32_t r[HSAGPU_GCN_WAVE];

#define GCN_LANES(expr) do { \
        for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) { \
            r[l] = (expr); \
        } \
    } while (0)
    switch (op) {
    case GCN_VOP3_V_LSHRREV_B32:
        GCN_LANES(b[l] >> (a[l] & 31));
        break;
    case GCN_VOP3_V_ASHRREV_I32:
        GCN_LANES((uint32_t)((int32_t)b[l] >> (a[l] & 31)));
        break;
    case GCN_VOP3_V_LSHLREV_B32:
        GCN_LANES(b[l] << (a[l] & 31));
        break;
    case GCN_VOP3_V_AND_B32:
        GCN_LANES(a[l] & b[l]);
        break;
    case GCN_VOP3_V_OR_B32:
        GCN_LANES(a[l] | b[l]);
        break;
    case GCN_VOP3_V_XOR_B32:
        GCN_LANES(a[l] ^ b[l]);
        break;
    case GCN_VOP3_V_ADD_U32:
        GCN_LANES(a[l] + b[l]);
        break;
    case GCN_VOP3_V_SUB_U32:
        GCN_LANES(a[l] - b[l]);
        break;
    case GCN_VOP3_V_SUBREV_U32:
        GCN_LANES(b[l] - a[l]);
        break;
    case GCN_VOP3_V_MOV_B32:
        GCN_LANES(a[l]);
        break;
    case GCN_VOP3_V_MUL_U32_U24:
        GCN_LANES((a[l] & 0xffffff) * (b[l] & 0xffffff));
        break;
    case GCN_VOP3_V_MUL_LO_U32:
        GCN_LANES(a[l] * b[l]);
        break;
    case GCN_VOP3_V_LSHL_ADD_U32:
        GCN_LANES((a[l] << (b[l] & 31)) + c[l]);
        break;
    case GCN_VOP3_V_ADD3_U32:
        GCN_LANES(a[l] + b[l] + c[l]);
        break;
    case GCN_VOP3_V_LSHL_OR_B32:
        GCN_LANES((a[l] << (b[l] & 31)) | c[l]);
        break;
    case GCN_VOP3_V_AND_OR_B32:
        GCN_LANES((a[l] & b[l]) | c[l]);
        break;
    case GCN_VOP3_V_OR3_B32:
        GCN_LANES(a[l] | b[l] | c[l]);
        break;
    default:                                        /* v_mad_u32_u24 */
        GCN_LANES((a[l] & 0xffffff) * (b[l] & 0xffffff) + c[l]);
        break;
    }
#undef GCN_LANES
    gcn_merge(r, exec, d);
}

static bool gcn_i32_fast(HsaGpuGcnWave *w, unsigned op, const HsaGpuGcnOp o[3],
                         uint32_t *d)
{
    HSAGPU_GCN_SCRATCH uint32_t buf[3][HSAGPU_GCN_WAVE];

    if (!gcn_i32_fast_op(op)) {
        return false;
    }
    /* (sources the instruction does not have: zeros, not copied) */
    gcn_i32_lanes(op, gcn_lanes(w, &o[0], buf[0]), gcn_lanes(w, &o[1], buf[1]),
                  gcn_lanes(w, &o[2], buf[2]), w->exec, d);
    return true;
}

/*
 * @a + @b + the carry-in bits @cin into @d by EXEC: the carries out of the
 * lanes EXEC enables (0 for the others), all lanes at once
 */
HSAGPU_GCN_SIMD
static uint64_t gcn_add_co_lanes(const uint32_t *a, const uint32_t *b,
                                 uint64_t cin, uint64_t exec, uint32_t *d)
{
    HSAGPU_GCN_SCRATCH uint32_t r[HSAGPU_GCN_WAVE], ci[HSAGPU_GCN_WAVE];
    HSAGPU_GCN_SCRATCH uint8_t c[HSAGPU_GCN_WAVE];
    uint64_t cout = 0;

    gcn_mask_lanes(cin, ci);
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        uint32_t s = a[l] + b[l], t = s + ci[l];

        r[l] = t;
        c[l] = (s < a[l]) | (t < s);
    }
    /* eight 0/1 bytes into eight bits by one multiply (a mask, vectorised) */
    for (unsigned k = 0; k < HSAGPU_GCN_WAVE / 8; k++) {
        uint64_t x;

        memcpy(&x, c + 8 * k, 8);
        cout |= ((x * 0x0102040810204080ULL) >> 56) << (8 * k);
    }
    gcn_merge(r, exec, d);
    return cout & exec;
}

/*
 * 64-bit address arithmetic: v_add_co_u32 and v_addc_co_u32 (carries
 * in and out: VCC or an SGPR pair, @cin the carry-in mask) and
 * v_lshlrev_b64, one loop each; @dst: the destination (a pair for the
 * shift). -1: not one of them; else 0 or 1 (the carry-out destination
 * was refused).
 */
static int gcn_addr_fast(HsaGpuGcnWave *w, unsigned op, const HsaGpuGcnOp o[3],
                         HsaGpuGcnVreg *dst, int sdst, uint64_t cin)
{
    HSAGPU_GCN_SCRATCH uint32_t buf[2][HSAGPU_GCN_WAVE];
    uint32_t *d = dst[0];
    const uint32_t *a, *b;
    uint64_t exec = w->exec, cout = 0;

    if (op == GCN_VOP3_V_LSHLREV_B64) {
        if (o[1].hi) {                              /* a VGPR pair */
            const uint32_t *lo = o[1].lanes, *hi = o[1].hi;
            uint32_t *dh = dst[1];

            a = gcn_lanes(w, &o[0], buf[0]);
            for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
                if ((exec >> l) & 1) {
                    uint64_t v = (lo[l] | (uint64_t)hi[l] << 32) <<
                                 (a[l] & 63);

                    d[l] = (uint32_t)v;
                    dh[l] = v >> 32;
                }
            }
            return 0;
        }
        return -1;
    }
    if (op != GCN_VOP3_V_ADD_CO_U32 && op != GCN_VOP3_V_ADDC_CO_U32) {
        return -1;
    }
    a = gcn_lanes(w, &o[0], buf[0]);
    b = gcn_lanes(w, &o[1], buf[1]);
    cout = gcn_add_co_lanes(a, b, op == GCN_VOP3_V_ADDC_CO_U32 ? cin : 0,
                            exec, d);
    return !hsagpu_gcn_swrite(w, sdst < 0 ? GCN_SRC_VCC_LO : sdst, true, cout);
}

/* The fast paths hsagpu_gcn_valu_fast takes */
enum {
    GCN_FAST_NONE,
    GCN_FAST_F32,               /* gcn_f32_fast */
    GCN_FAST_I32,               /* gcn_i32_fast */
    GCN_FAST_ADDR,              /* gcn_addr_fast */
};

/* An SGPR pair a carry is read from or written to: VCC, or s0..s101 */
static bool gcn_fast_pair(int s)
{
    return s == GCN_SRC_VCC_LO ||
           (s >= 0 && s + 1 < HSAGPU_GCN_SGPRS && !(s & 1));
}

/*
 * The conditions under which hsagpu_gcn_valu takes one of its fast paths
 * whatever the wave's state, but for its VGPRs lying in the allocation:
 * the same operations, no modifier, no op_sel, every source a VGPR, an
 * SGPR below s102 read as 32 bits or a constant, any carry in VCC or an
 * aligned SGPR pair.
 */
bool hsagpu_gcn_valu_predecode(HsaGpuGcnDec *d)
{
    const HsaGpuGcnVop *v = &d->v;
    const GcnOpInfo *info;
    unsigned need, fl = 0;

    d->fast = GCN_FAST_NONE;
    if (v->op >= GCN_VOP3_OPS || v->opsel || v->abs || v->neg || v->omod ||
        v->clamp || GCN_VOP3_IS_VOPC(v->op)) {
        return false;
    }
    info = &gcn_op_info[v->op];
    need = v->vdst + ((info->wide >> 3) & 1 ? 2 : 1);
    for (unsigned k = 0; k < v->nsrc; k++) {
        unsigned src = v->src[k], type = gcn_ot(info->ftype[k],
                                                (info->wide >> k) & 1);
        bool wide = type == GCN_OT_B64 || type == GCN_OT_F64;
        uint64_t val;

        fl |= info->ftype[k];
        d->cval[k] = 0;
        if (src >= GCN_SRC_VGPR) {
            unsigned end = src - GCN_SRC_VGPR + (wide ? 2 : 1);

            need = end > need ? end : need;
        } else if (wide) {
            return false;
        } else if (src >= HSAGPU_GCN_SGPRS) {
            if (!hsagpu_gcn_const(src, v->lit, type, &val)) {
                return false;
            }
            d->cval[k] = val;
        }
    }
    fl |= info->ftype[3];
    if (gcn_f32_fast_op(v->op)) {
        d->fast = info->ftype[0] == 32 && info->ftype[3] == 32 ?
                  GCN_FAST_F32 : GCN_FAST_NONE;
    } else if (fl) {
        return false;
    } else if (gcn_i32_fast_op(v->op)) {
        d->fast = !info->wide && v->carry_in < 0 && v->sdst < 0 ?
                  GCN_FAST_I32 : GCN_FAST_NONE;
    } else if (v->op == GCN_VOP3_V_LSHLREV_B64) {
        d->fast = v->src[1] >= GCN_SRC_VGPR ? GCN_FAST_ADDR : GCN_FAST_NONE;
    } else if (v->op == GCN_VOP3_V_ADD_CO_U32 ||
               v->op == GCN_VOP3_V_ADDC_CO_U32) {
        d->fast = (v->sdst < 0 || gcn_fast_pair(v->sdst)) &&
                  (v->carry_in < 0 || gcn_fast_pair(v->carry_in)) ?
                  GCN_FAST_ADDR : GCN_FAST_NONE;
    }
    d->vneed = need;
    return d->fast != GCN_FAST_NONE;
}

/* Source @k of @d (GCN_PATH_FAST): a VGPR's lanes, or NULL and *@val */
static inline const uint32_t *gcn_fast_src(const HsaGpuGcnWave *w,
                                           const HsaGpuGcnDec *d, unsigned k,
                                           uint32_t *val)
{
    unsigned src = d->v.src[k];

    if (src >= GCN_SRC_VGPR) {
        return w->vfile[src - GCN_SRC_VGPR];
    }
    *val = src < HSAGPU_GCN_SGPRS ? w->s[src] : d->cval[k];
    return NULL;
}

unsigned hsagpu_gcn_valu_fast(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                              const HsaGpuGcnDec *d)
{
    const HsaGpuGcnVop *v = &d->v;
    HSAGPU_GCN_SCRATCH HsaGpuGcnOp o[3];
    HsaGpuGcnVreg *dst = w->vfile + v->vdst;
    uint64_t cin = 0;

    if (d->vneed > w->nvgpr) {
        /* past the allocation: the general path, as the hardware has it */
        return hsagpu_gcn_valu(g, w, d->raw, v, NULL);
    }
    if (d->fast == GCN_FAST_F32) {
        uint32_t av = 0, bv = 0, cv = v->lit;       /* v_madak_f32's K */
        const uint32_t *a = gcn_fast_src(w, d, 0, &av);
        const uint32_t *b = gcn_fast_src(w, d, 1, &bv);
        const uint32_t *c = v->op == GCN_VOP3_V_FMA_F32 ?
                            gcn_fast_src(w, d, 2, &cv) : NULL;

        gcn_f32_lanes(v->op, a, av, b, bv, c, cv, g->ftz32, w->exec, dst[0]);
        return v->len;
    }
    for (unsigned k = 0; k < 3; k++) {
        uint32_t val = 0;

        o[k].hi = NULL;
        o[k].lanes = k < v->nsrc ? gcn_fast_src(w, d, k, &val)
                                 : gcn_zero_lanes;
        o[k].val = val;
    }
    /* only v_lshlrev_b64's src1 is a pair */
    if (v->op == GCN_VOP3_V_LSHLREV_B64) {
        o[1].hi = w->vfile[v->src[1] - GCN_SRC_VGPR + 1];
    }
    switch (d->fast) {
    case GCN_FAST_I32:
        gcn_i32_fast(w, v->op, o, dst[0]);
        return v->len;
    default:
        if (v->carry_in == GCN_SRC_VCC_LO) {
            cin = w->vcc;
        } else if (v->carry_in >= 0) {
            cin = w->s[v->carry_in] | (uint64_t)w->s[v->carry_in + 1] << 32;
        }
        /* (the carry-out pair was checked when decoded: it takes the write) */
        return gcn_addr_fast(w, v->op, o, dst, v->sdst, cin) ?
               hsagpu_gcn_refuse(g, w, d->raw, "carry destination") : v->len;
    }
}

/* The encoding VOP3 @op (a VOP2, VOP1 or VOP3 one) comes from, for logs */
static const char *gcn_vop_name(unsigned op)
{
    return op < GCN_VOP3_VOP1_FIRST ? "vop2" :
           op < GCN_VOP3_ONLY_FIRST ? "vop1" : "vop3";
}

/*
 * v_swap_b32 (VOP1 only): two VGPRs exchange their active lanes. False:
 * refused (another encoding, a source that is not a VGPR, a register past
 * the allocation).
 */
static bool gcn_swap(HsaGpuGcnWave *w, unsigned src, unsigned vdst,
                     unsigned len, const HsaGpuGcnExt *x)
{
    HsaGpuGcnVreg *a, *b;

    if (len != 1 || x || src < GCN_SRC_VGPR) {
        return false;
    }
    /* both are written: either past the allocation makes it a NOP */
    if (!hsagpu_gcn_vregs(w, src - GCN_SRC_VGPR, 1, &a) ||
        !hsagpu_gcn_vregs(w, vdst, 1, &b)) {
        return hsagpu_gcn_vdst_nop(w, 1);
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        if ((w->exec >> l) & 1) {
            uint32_t t = a[0][l];

            a[0][l] = b[0][l];
            b[0][l] = t;
        }
    }
    return true;
}

/*
 * v_mqsad_u32_u8: four 32-bit masked SADs of S1 against S0's dwords at
 * bytes 0..3, each plus its dword of S2 (four VGPRs) into four VGPRs.
 * False: refused (S2 not VGPRs, registers past the allocation).
 */
static bool gcn_mqsad_u32(HsaGpuGcnWave *w, const unsigned src[3],
                          unsigned vdst, unsigned abs, unsigned neg,
                          unsigned omod, bool clamp, const HsaGpuGcnExt *x)
{
    HsaGpuGcnVreg *c, *d;
    HsaGpuGcnOp a, b;
    HSAGPU_GCN_SCRATCH uint32_t out[4][HSAGPU_GCN_WAVE];

    if (x || abs || neg || omod || clamp || src[2] < GCN_SRC_VGPR ||
        !hsagpu_gcn_op(w, src[0], 0, true, &a) ||
        !hsagpu_gcn_op(w, src[1], 0, false, &b) ||
        !hsagpu_gcn_vsrc(w, src[2] - GCN_SRC_VGPR, 4, &c)) {
        return false;
    }
    if (!hsagpu_gcn_vregs(w, vdst, 4, &d)) {
        return hsagpu_gcn_vdst_nop(w, 1);
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        uint64_t s0 = hsagpu_gcn_lane(w, &a, l, true);
        uint32_t s1 = (uint32_t)hsagpu_gcn_lane(w, &b, l, false);

        for (unsigned k = 0; k < 4; k++) {
            out[k][l] = gcn_sad((uint32_t)(s0 >> (8 * k)), s1, 8, true) +
                        c[k][l];
        }
    }
    /* written once all are read: S2 may be the destination */
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        if ((w->exec >> l) & 1) {
            for (unsigned k = 0; k < 4; k++) {
                d[k][l] = out[k][l];
            }
        }
    }
    return true;
}

/*
 * VOP1/VOP2/VOPC (e32) and VOP3 share this: op in VOP3 numbering, the
 * sources resolved, the destination VGPR (or SGPR pair for compares,
 * carries and v_div_scale).
 */
unsigned hsagpu_gcn_valu(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                         const uint32_t *insn, const HsaGpuGcnVop *v,
                         const HsaGpuGcnExt *x)
{
    const unsigned op = v->op, nsrc = v->nsrc, *src = v->src;
    const unsigned vdst = v->vdst, abs = v->abs, neg = v->neg;
    const unsigned omod = v->omod, len = v->len, opsel = v->opsel;
    const uint32_t lit = v->lit;
    const int sdst = v->sdst, carry_in = v->carry_in;
    const bool clamp = v->clamp;
    uint8_t ftype[4];
    unsigned wide, ft[3] = { 0, 0, 0 }, td;
    bool fl = false;
    /*
     * sources the encoding does not have read as zeros (set one by one:
     * a block initialiser costs a string store at every instruction)
     */
    HSAGPU_GCN_SCRATCH HsaGpuGcnOp o[3];
    HsaGpuGcnVreg *dst = NULL;
    uint64_t cin = 0, cout = 0, cmp = 0;
    bool keep = gcn_d16_keeps(op);

    if (op == GCN_VOP3_V_SWAP_B32) {
        return gcn_swap(w, src[0], vdst, len, x) ? len :
               hsagpu_gcn_refuse(g, w, insn, "v_swap_b32");
    }
    if (op == GCN_VOP3_V_MQSAD_U32_U8) {
        return gcn_mqsad_u32(w, src, vdst, abs, neg, omod, clamp, x) ? len :
               hsagpu_gcn_refuse(g, w, insn, "v_mqsad_u32_u8");
    }
    if (opsel && !gcn_has_opsel(op)) {
        return hsagpu_gcn_refuse(g, w, insn, "op_sel");
    }
    for (unsigned k = 0; k < 3; k++) {
        o[k].vgpr = false;
        o[k].reg = 0;
        o[k].val = 0;
        o[k].lanes = gcn_zero_lanes;
        o[k].hi = NULL;
    }
    /* the operands' float types and widths, the opcode's */
    if (op < GCN_VOP3_OPS) {
        memcpy(ftype, gcn_op_info[op].ftype, 4);
        wide = gcn_op_info[op].wide;
    } else {
        for (unsigned k = 0; k < 4; k++) {
            ftype[k] = gcn_type(op, k);
        }
        wide = gcn_wide(op, ftype);
    }
    td = ftype[3];
    for (unsigned k = 0; k < nsrc; k++) {
        /* v_cndmask_b32 with modifiers selects among fp32 values */
        ft[k] = op == GCN_VOP3_V_CNDMASK_B32 && ((abs | neg) >> k) & 1 ?
                32 : ftype[k];
        fl |= ft[k] || td;
        if (x && k < 2 && x->src[k]) {
            o[k] = (HsaGpuGcnOp) { .vgpr = true, .lanes = x->src[k] };
            if ((wide >> k) & 1) {
                return hsagpu_gcn_refuse(g, w, insn, "sdwa/dpp operand");
            }
        } else if (!hsagpu_gcn_op(w, src[k], lit,
                                  gcn_ot(ft[k], (wide >> k) & 1), &o[k])) {
            return hsagpu_gcn_refuse(g, w, insn,
                                     "VGPR operand past the allocation");
        }
    }
    /*
     * The VGPR destination (a pair for 64-bit results), before anything
     * runs; compares write an SGPR pair, v_readfirstlane and
     * v_readlane an SGPR (hsagpu_gcn_swrite checks those).
     */
    if (!GCN_VOP3_IS_VOPC(op) && op != GCN_VOP3_V_READFIRSTLANE_B32 &&
        op != GCN_VOP3_V_READLANE_B32 &&
        !hsagpu_gcn_vregs(w, vdst, (wide >> 3) & 1 ? 2 : 1, &dst)) {
        return hsagpu_gcn_vdst_nop(w, len);
    }
    if (!fl && !GCN_VOP3_IS_VOPC(op) && (abs || neg || omod ||
                                          (clamp && !gcn_int_clamps(op)))) {
        return hsagpu_gcn_refuse(g, w, insn, "integer modifiers");
    }
    if (carry_in >= 0 && !hsagpu_gcn_sread(w, carry_in, 0, true, &cin)) {
        return hsagpu_gcn_refuse(g, w, insn, "carry operand");
    }
    if (op == GCN_VOP3_V_DIV_FMAS_F32 || op == GCN_VOP3_V_DIV_FMAS_F64) {
        cin = w->vcc;
    }
    /* the fast paths: only instructions with a VGPR destination */
    if (dst && !opsel && ftype[0] == 32 && td == 32 && !abs && !neg &&
        !omod && !clamp && gcn_f32_fast(g, w, op, o, lit, dst[0])) {
        return len;
    }
    if (dst && !opsel && !fl && !wide && !clamp && carry_in < 0 &&
        sdst < 0 && gcn_i32_fast(w, op, o, dst[0])) {
        return len;
    }
    if (dst && !fl && !clamp) {
        int r = gcn_addr_fast(w, op, o, dst, sdst, cin);

        if (r >= 0) {
            return r ? hsagpu_gcn_refuse(g, w, insn, "carry destination") : len;
        }
    }
    if (op == GCN_VOP3_V_READFIRSTLANE_B32) {
        unsigned l = w->exec ? (unsigned)__builtin_ctzll(w->exec) : 0;

        return hsagpu_gcn_swrite(w, vdst, false,
                                 hsagpu_gcn_lane(w, &o[0], l, false))
               ? len : hsagpu_gcn_refuse(g, w, insn, "destination");
    }
    if (op == GCN_VOP3_V_READLANE_B32) {
        unsigned l = hsagpu_gcn_lane(w, &o[1], 0, false) & 63;

        return hsagpu_gcn_swrite(w, vdst, false,
                                 hsagpu_gcn_lane(w, &o[0], l, false))
               ? len : hsagpu_gcn_refuse(g, w, insn, "destination");
    }
    if (op == GCN_VOP3_V_WRITELANE_B32) {
        dst[0][hsagpu_gcn_lane(w, &o[1], 0, false) & 63] =
            (uint32_t)hsagpu_gcn_lane(w, &o[0], 0, false);
        return len;
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        uint64_t s[3] = { 0, 0, 0 }, d = 0;
        uint32_t d32 = 0;
        bool carry = (cin >> l) & 1, r;

        if (!((w->exec >> l) & 1)) {
            continue;
        }
        for (unsigned k = 0; k < nsrc; k++) {
            s[k] = hsagpu_gcn_lane(w, &o[k], l, (wide >> k) & 1);
            if ((opsel >> k) & 1) {
                s[k] = (uint32_t)s[k] >> 16;        /* the upper half */
            }
            if (ft[k]) {
                s[k] = gcn_mod(s[k], ft[k], (abs >> k) & 1, (neg >> k) & 1);
            }
        }
        if (op == GCN_VOP3_V_MADMK_F32 || op == GCN_VOP3_V_MADAK_F32 ||
            op == GCN_VOP3_V_MADMK_F16 || op == GCN_VOP3_V_MADAK_F16) {
            s[2] = lit;                 /* the constant */
        }
        if (GCN_VOP3_IS_VOPC(op)) {
            if (!(ft[0] ? hsagpu_gcn_fcmp(g, op, s[0], s[1], &r)
                        : gcn_icmp(op, s[0], s[1], &r))) {
                return hsagpu_gcn_refuse(g, w, insn, "vopc");
            }
            cmp |= (uint64_t)r << l;
            continue;
        }
        if (op == GCN_VOP3_V_CNDMASK_B32) {
            d = ((carry_in >= 0 ? cin : w->vcc) >> l) & 1 ? s[1] : s[0];
        } else if (op == GCN_VOP3_V_MBCNT_LO_U32_B32) {
            d = __builtin_popcount((uint32_t)s[0] &
                                   (l >= 32 ? ~0u : (1u << l) - 1)) +
                (uint32_t)s[1];
        } else if (op == GCN_VOP3_V_MBCNT_HI_U32_B32) {
            d = __builtin_popcount(l <= 32 ? 0 : (uint32_t)s[0] &
                                   ((1u << (l - 32)) - 1)) + (uint32_t)s[1];
        } else if (op == GCN_VOP3_V_MAD_U64_U32 ||
                   op == GCN_VOP3_V_MAD_I64_I32) {
            bool u = op == GCN_VOP3_V_MAD_U64_U32;
            uint64_t p = u ? (uint64_t)(uint32_t)s[0] * (uint32_t)s[1] :
                (uint64_t)((int64_t)(int32_t)s[0] * (int32_t)s[1]);

            d = p + s[2];
            carry = u ? d < p : ((int64_t)(p ^ d) & (int64_t)(s[2] ^ d)) < 0;
        } else if (fl) {
            uint64_t old = dst[0][l];

            if (!hsagpu_gcn_falu(g, ftype, op, s[0], s[1], s[2], old,
                                 &carry, &d)) {
                return hsagpu_gcn_refuse(g, w, insn, gcn_vop_name(op));
            }
            if (td && (omod || clamp)) {
                d = hsagpu_gcn_omod(g, td, d, omod, clamp);
            }
        } else if (wide & 8) {
            if (!gcn_alu64(op, s[0], s[1], s[2], &d)) {
                return hsagpu_gcn_refuse(g, w, insn, "vop3");
            }
        } else if (gcn_alu32(op, s[0], s[1], s[2], clamp, &carry, &d32)) {
            d = d32;
        } else {
            return hsagpu_gcn_refuse(g, w, insn, gcn_vop_name(op));
        }
        if (keep) {
            /* a 16-bit result into the half op_sel[3] picks */
            d = opsel & 8 ? (dst[0][l] & 0xffff) | (uint32_t)d << 16
                          : (dst[0][l] & 0xffff0000u) | (d & 0xffff);
        }
        if (dst) {
            dst[0][l] = (uint32_t)d;
            if (wide & 8) {
                dst[1][l] = d >> 32;
            }
        }
        cout |= (uint64_t)carry << l;
    }
    if (GCN_VOP3_IS_VOPC(op)) {
        if (!hsagpu_gcn_swrite(w, sdst < 0 ? GCN_SRC_VCC_LO : sdst, true,
                               cmp)) {
            return hsagpu_gcn_refuse(g, w, insn, "compare destination");
        }
        if (gcn_vopc_is_cmpx(op)) {
            w->exec = cmp;
        }
    } else if (gcn_vop3_is_vop3b(op)) {
        /* carries (or div_scale's flags) of the lanes that ran, 0 others */
        if (!hsagpu_gcn_swrite(w, sdst < 0 ? GCN_SRC_VCC_LO : sdst, true,
                               cout)) {
            return hsagpu_gcn_refuse(g, w, insn, "carry destination");
        }
    }
    return len;
}

/* Is the half @h (its low 16 bits) a signalling NaN? */
#define GCN_SNAN16(h)   (((h) & 0x7fff) > 0x7c00 && !((h) & 0x200))

/* A half of a dword for VOP3P: @hi selects the upper one */
static uint32_t gcn_half(uint32_t v, bool hi)
{
    return hi ? v >> 16 : v & 0xffff;
}

/*
 * One 16-bit half of a packed (VOP3P) operation; false: not implemented.
 * @ftz: flush f16 denormals (inputs and result).
 */
static bool gcn_pk16(unsigned op, uint32_t a, uint32_t b, uint32_t c,
                     bool clamp, bool ftz, uint32_t *d)
{
    int32_t sa = (int16_t)a, sb = (int16_t)b, sc = (int16_t)c, t;
    float fa, fb, fc;
    double r;                   /* exact, or rounded once: to half below */

    switch (op) {
    case GCN_VOP3P_V_PK_MAD_I16:
        t = sa * sb + sc;
        break;
    case GCN_VOP3P_V_PK_MUL_LO_U16:
        *d = (a * b) & 0xffff;
        return true;
    case GCN_VOP3P_V_PK_ADD_I16:
        t = sa + sb;
        break;
    case GCN_VOP3P_V_PK_SUB_I16:
        t = sa - sb;
        break;
    case GCN_VOP3P_V_PK_LSHLREV_B16:
        *d = (b << (a & 15)) & 0xffff;
        return true;
    case GCN_VOP3P_V_PK_LSHRREV_B16:
        *d = (b & 0xffff) >> (a & 15);
        return true;
    case GCN_VOP3P_V_PK_ASHRREV_I16:
        *d = (uint16_t)(sb >> (a & 15));
        return true;
    case GCN_VOP3P_V_PK_MAX_I16:
        *d = (uint16_t)(sa > sb ? sa : sb);
        return true;
    case GCN_VOP3P_V_PK_MIN_I16:
        *d = (uint16_t)(sa < sb ? sa : sb);
        return true;
    case GCN_VOP3P_V_PK_MAD_U16:
        t = (int32_t)(a * b + c);
        *d = clamp && a * b + c > 0xffff ? 0xffff : (uint32_t)t & 0xffff;
        return true;
    case GCN_VOP3P_V_PK_ADD_U16:
        *d = clamp && a + b > 0xffff ? 0xffff : (a + b) & 0xffff;
        return true;
    case GCN_VOP3P_V_PK_SUB_U16:
        *d = clamp && b > a ? 0 : (a - b) & 0xffff;
        return true;
    case GCN_VOP3P_V_PK_MAX_U16:
        *d = a > b ? a : b;
        return true;
    case GCN_VOP3P_V_PK_MIN_U16:
        *d = a < b ? a : b;
        return true;
    case GCN_VOP3P_V_PK_FMA_F16:
    case GCN_VOP3P_V_PK_ADD_F16:
    case GCN_VOP3P_V_PK_MUL_F16:
    case GCN_VOP3P_V_PK_MIN_F16:
    case GCN_VOP3P_V_PK_MAX_F16:
        fa = hsagpu_gcn_h2f(hsagpu_gcn_hftz(a, ftz));
        fb = hsagpu_gcn_h2f(hsagpu_gcn_hftz(b, ftz));
        fc = hsagpu_gcn_h2f(hsagpu_gcn_hftz(c, ftz));
        /*
         * min and max as V_MIN/V_MAX_F16 in IEEE mode: a signalling NaN
         * gives itself quieted (h2f quiets it), S0's first
         */
        r = op == GCN_VOP3P_V_PK_FMA_F16 ? fma(fa, fb, fc) :
            op == GCN_VOP3P_V_PK_ADD_F16 ? (double)fa + fb :
            op == GCN_VOP3P_V_PK_MUL_F16 ? (double)fa * fb :
            GCN_SNAN16(a) ? fa : GCN_SNAN16(b) ? fb :
            (isnan(fa) ? fb : isnan(fb) ? fa :
             (op == GCN_VOP3P_V_PK_MIN_F16) ==
             (fa < fb || (fa == fb && signbit(fa))) ? fa : fb);
        if (clamp) {
            r = isnan(r) ? 0 : r < 0 ? 0 : r > 1 ? 1 : r;
        }
        *d = hsagpu_gcn_hftz(hsagpu_gcn_f2h(r, false), ftz);
        return true;
    default:
        return false;
    }
    /* the signed ones: wrap, or saturate with clamp */
    *d = (uint16_t)(clamp ? (t > 32767 ? 32767 : t < -32768 ? -32768 : t) : t);
    return true;
}

/*
 * v_mad_mix_f32, v_mad_mixlo_f16, v_mad_mixhi_f16: S0 * S1 + S2 in fp32
 * (the product rounded first, as v_mad_f32), each source an fp32 dword
 * or (op_sel_hi) the fp16 half op_sel picks; neg_lo negates, neg_hi takes
 * the magnitude. The f16 forms round the result to half and write the
 * low or high half, keeping the other.
 */
static uint32_t gcn_mad_mix(const HsaGpuGcnGroup *g, unsigned op,
                            const uint32_t s[3], uint32_t old,
                            unsigned opsel, unsigned opsel_hi, unsigned neg,
                            unsigned abs, bool clamp)
{
    float v[3], r;

    for (unsigned k = 0; k < 3; k++) {
        v[k] = (opsel_hi >> k) & 1 ?
               hsagpu_gcn_h2f(hsagpu_gcn_hftz(gcn_half(s[k],
                                                       (opsel >> k) & 1),
                                              g->ftz64)) :
               hsagpu_gcn_f32(s[k], g->ftz32);
        v[k] = (abs >> k) & 1 ? fabsf(v[k]) : v[k];
        v[k] = (neg >> k) & 1 ? -v[k] : v[k];
    }
    r = v[0] * v[1];
    r = r + v[2];
    if (clamp) {
        r = isnan(r) ? 0 : r < 0 ? 0 : r > 1 ? 1 : r;
    }
    switch (op) {
    case GCN_VOP3P_V_MAD_MIX_F32:
        return hsagpu_gcn_u32f(r, g->ftz32);
    case GCN_VOP3P_V_MAD_MIXLO_F16:
        return (old & 0xffff0000u) |
               hsagpu_gcn_hftz(hsagpu_gcn_f2h(r, false), g->ftz64);
    default:
        return (old & 0xffff) |
               (uint32_t)hsagpu_gcn_hftz(hsagpu_gcn_f2h(r, false), g->ftz64)
               << 16;
    }
}

/*
 * VOP3P (packed 16-bit): each result half from the sources' halves that
 * op_sel (low result) and op_sel_hi (high result) pick, neg_lo/neg_hi
 * on the f16 ones.
 */
unsigned hsagpu_gcn_vop3p(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                          const uint32_t *insn, unsigned op,
                          const unsigned src[3], unsigned vdst,
                          unsigned opsel, unsigned opsel_hi, unsigned neg_lo,
                          unsigned neg_hi, bool clamp)
{
    bool mix = op >= GCN_VOP3P_V_MAD_MIX_F32 &&
               op <= GCN_VOP3P_V_MAD_MIXHI_F16;
    bool fl = (op >= GCN_VOP3P_V_PK_FMA_F16 && op <= GCN_VOP3P_V_PK_MAX_F16) ||
              mix;
    unsigned nsrc = op == GCN_VOP3P_V_PK_MAD_I16 ||
                    op == GCN_VOP3P_V_PK_MAD_U16 ||
                    op == GCN_VOP3P_V_PK_FMA_F16 || mix ? 3 : 2;
    HsaGpuGcnOp o[3];
    HsaGpuGcnVreg *dst;

    if ((op > GCN_VOP3P_V_PK_MAX_F16 && !mix) || (!fl && (neg_lo || neg_hi))) {
        return hsagpu_gcn_refuse(g, w, insn, "vop3p");
    }
    if (!hsagpu_gcn_vregs(w, vdst, 1, &dst)) {
        return hsagpu_gcn_vdst_nop(w, 2);
    }
    for (unsigned k = 0; k < nsrc; k++) {
        if (!hsagpu_gcn_op(w, src[k], 0, fl ? GCN_OT_PK_F16 : GCN_OT_B32,
                           &o[k])) {
            return hsagpu_gcn_refuse(g, w, insn, "vop3p operand");
        }
    }
    for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
        uint32_t s[3] = { 0, 0, 0 }, lo, hi, in[2][3];

        if (!((w->exec >> l) & 1)) {
            continue;
        }
        if (mix) {
            for (unsigned k = 0; k < nsrc; k++) {
                s[k] = (uint32_t)hsagpu_gcn_lane(w, &o[k], l, false);
            }
            dst[0][l] = gcn_mad_mix(g, op, s, dst[0][l], opsel, opsel_hi,
                                    neg_lo, neg_hi, clamp);
            continue;
        }
        for (unsigned k = 0; k < nsrc; k++) {
            s[k] = (uint32_t)hsagpu_gcn_lane(w, &o[k], l, false);
            in[0][k] = gcn_half(s[k], (opsel >> k) & 1) ^
                       ((neg_lo >> k) & 1 ? 0x8000 : 0);
            in[1][k] = gcn_half(s[k], (opsel_hi >> k) & 1) ^
                       ((neg_hi >> k) & 1 ? 0x8000 : 0);
        }
        if (!gcn_pk16(op, in[0][0], in[0][1], in[0][2], clamp, g->ftz64,
                      &lo) ||
            !gcn_pk16(op, in[1][0], in[1][1], in[1][2], clamp, g->ftz64,
                      &hi)) {
            return hsagpu_gcn_refuse(g, w, insn, "vop3p");
        }
        dst[0][l] = lo | hi << 16;
    }
    return 2;
}
