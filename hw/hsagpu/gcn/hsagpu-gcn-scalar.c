/*
 * hsa-gpu: GCN (gfx9) interpreter, the scalar side: scalar operands,
 * scalar ALU (SOP1, SOP2, SOPK, SOPC), program flow (SOPP: branches,
 * barrier, end) and scalar memory (SMEM); hsagpu-gcn-fetch.c hands them
 * their instructions. Encodings: the "Vega" instruction set architecture
 * reference; opcodes by name from hsagpu-gcn-opcodes.h, checked against
 * llvm-mc.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-gcn-int.h"

unsigned hsagpu_gcn_fail(HsaGpuGcnGroup *g, HsaGpuGcnWave *w, unsigned code,
                         const uint32_t *insn, const char *what)
{
    if (g->st->code == HSAGPU_GCN_OK) {
        g->st->code = code;
        g->st->pc = w->pc;
        g->st->insn[0] = insn ? insn[0] : 0;
        g->st->insn[1] = insn ? insn[1] : 0;
        g->st->what = what;
    }
    return 0;
}

/*
 * Inline constants: integers 0..64, -1..-16, and nine floats encoded for
 * the operand's type @type (GCN_OT_*).
 */
static bool hsagpu_gcn_inline(unsigned src, unsigned type, uint64_t *val)
{
    static const uint16_t f16[] = {
        0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
    };
    static const uint32_t f32[] = {
        0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000,
        0x40000000, 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983,
    };
    static const uint64_t f64[] = {
        0x3fe0000000000000ULL, 0xbfe0000000000000ULL, 0x3ff0000000000000ULL,
        0xbff0000000000000ULL, 0x4000000000000000ULL, 0xc000000000000000ULL,
        0x4010000000000000ULL, 0xc010000000000000ULL, 0x3fc45f306dc9c882ULL,
    };
    bool is64 = type == GCN_OT_B64 || type == GCN_OT_F64;

    if (src >= 128 && src <= 192) {
        *val = src - 128;
    } else if (src >= 193 && src <= 208) {
        *val = (uint64_t)-(int64_t)(src - 192);
        *val = is64 ? *val : (uint32_t)*val;
    } else if (src >= 240 && src <= 248) {
        *val = is64 ? f64[src - 240] :
               type == GCN_OT_F16 || type == GCN_OT_PK_F16 ? f16[src - 240] :
               f32[src - 240];
    } else {
        return false;
    }
    return true;
}

bool hsagpu_gcn_sread(HsaGpuGcnWave *w, unsigned src, uint32_t lit,
                      bool is64, uint64_t *val)
{
    return hsagpu_gcn_sread_as(w, src, lit, is64 ? GCN_OT_B64 : GCN_OT_B32,
                               val);
}

bool hsagpu_gcn_sread_as(HsaGpuGcnWave *w, unsigned src, uint32_t lit,
                         unsigned type, uint64_t *val)
{
    bool is64 = type == GCN_OT_B64 || type == GCN_OT_F64;

    if (src < HSAGPU_GCN_SGPRS) {
        const uint32_t *r = hsagpu_gcn_sregs(w, src, is64 ? 2 : 1);

        if (!r || (is64 && (src & 1))) {
            return false;               /* a pair: even-aligned */
        }
        *val = r[0] | (is64 ? (uint64_t)r[1] << 32 : 0);
        return true;
    }
    switch (src) {
    case 102:
    case 103:
        *val = is64 ? w->flat_scratch[0] | (uint64_t)w->flat_scratch[1] << 32
                    : w->flat_scratch[src - 102];
        return !is64 || src == 102;
    case GCN_SRC_VCC_LO:
        *val = is64 ? w->vcc : (uint32_t)w->vcc;
        return true;
    case GCN_SRC_VCC_HI:
        *val = w->vcc >> 32;
        return !is64;
    case GCN_SRC_M0:
        *val = w->m0;
        return !is64;
    case GCN_SRC_EXEC_LO:
        *val = is64 ? w->exec : (uint32_t)w->exec;
        return true;
    case GCN_SRC_EXEC_HI:
        *val = w->exec >> 32;
        return !is64;
    case 251:                   /* VCCZ */
        *val = !w->vcc;
        return true;
    case 252:                   /* EXECZ */
        *val = !w->exec;
        return true;
    case 253:                   /* SCC */
        *val = w->scc;
        return true;
    default:
        return hsagpu_gcn_const(src, lit, type, val);
    }
}

bool hsagpu_gcn_const(unsigned src, uint32_t lit, unsigned type,
                      uint64_t *val)
{
    if (src == GCN_SRC_LITERAL) {
        /* f64: the double's high half; other 64-bit operands zero-extended */
        *val = type == GCN_OT_F64 ? (uint64_t)lit << 32 : lit;
        return true;
    }
    return hsagpu_gcn_inline(src, type, val);
}

bool hsagpu_gcn_swrite(HsaGpuGcnWave *w, unsigned dst, bool is64,
                       uint64_t val)
{
    if (dst < HSAGPU_GCN_SGPRS) {
        uint32_t *r = hsagpu_gcn_sregs(w, dst, is64 ? 2 : 1);

        if (!r || (is64 && (dst & 1))) {
            return false;
        }
        r[0] = (uint32_t)val;
        if (is64) {
            r[1] = val >> 32;
        }
        return true;
    }
    switch (dst) {
    case 102:
    case 103:
        if (is64) {
            w->flat_scratch[0] = (uint32_t)val;
            w->flat_scratch[1] = val >> 32;
            return dst == 102;
        }
        w->flat_scratch[dst - 102] = (uint32_t)val;
        return true;
    case GCN_SRC_VCC_LO:
        w->vcc = is64 ? val : (w->vcc & ~0xffffffffULL) | (uint32_t)val;
        return true;
    case GCN_SRC_VCC_HI:
        w->vcc = (w->vcc & 0xffffffffULL) | (uint64_t)(uint32_t)val << 32;
        return !is64;
    case GCN_SRC_M0:
        w->m0 = (uint32_t)val;
        return !is64;
    case GCN_SRC_EXEC_LO:
        w->exec = is64 ? val : (w->exec & ~0xffffffffULL) | (uint32_t)val;
        return true;
    case GCN_SRC_EXEC_HI:
        w->exec = (w->exec & 0xffffffffULL) | (uint64_t)(uint32_t)val << 32;
        return !is64;
    case 125:                   /* NULL */
        return true;
    default:
        return false;
    }
}

static uint64_t hsagpu_gcn_mask(unsigned bits)
{
    return bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
}

/* Is source @k (0, 1) of SOP2 @op 64 bits wide */
static bool hsagpu_gcn_sop2_wide(unsigned op, unsigned k)
{
    switch (op) {
    case GCN_SOP2_S_LSHL_B64:
    case GCN_SOP2_S_LSHR_B64:
    case GCN_SOP2_S_ASHR_I64:
    case GCN_SOP2_S_BFE_U64:
    case GCN_SOP2_S_BFE_I64:
        return k == 0;                  /* the shift count: 32 bits */
    case GCN_SOP2_S_CSELECT_B64:
    case GCN_SOP2_S_AND_B64:
    case GCN_SOP2_S_OR_B64:
    case GCN_SOP2_S_XOR_B64:
    case GCN_SOP2_S_ANDN2_B64:
    case GCN_SOP2_S_ORN2_B64:
    case GCN_SOP2_S_NAND_B64:
    case GCN_SOP2_S_NOR_B64:
    case GCN_SOP2_S_XNOR_B64:
        return true;
    default:
        return false;
    }
}

/* SOP2: D = S0 op S1 */
static bool hsagpu_gcn_sop2(HsaGpuGcnWave *w, unsigned op, uint64_t a,
                            uint64_t b, uint64_t *d, bool *is64)
{
    uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b;
    uint64_t t;

    *is64 = false;
    switch (op) {
    case GCN_SOP2_S_ADD_U32:
        t = (uint64_t)a32 + b32;
        w->scc = t >> 32;
        *d = (uint32_t)t;
        return true;
    case GCN_SOP2_S_SUB_U32:
        w->scc = b32 > a32;
        *d = a32 - b32;
        return true;
    case GCN_SOP2_S_ADD_I32:
        *d = a32 + b32;
        w->scc = ((a32 ^ ~b32) & (a32 ^ (uint32_t)*d)) >> 31;
        return true;
    case GCN_SOP2_S_SUB_I32:
        *d = a32 - b32;
        w->scc = ((a32 ^ b32) & (a32 ^ (uint32_t)*d)) >> 31;
        return true;
    case GCN_SOP2_S_ADDC_U32:
        t = (uint64_t)a32 + b32 + w->scc;
        w->scc = t >> 32;
        *d = (uint32_t)t;
        return true;
    case GCN_SOP2_S_SUBB_U32:
        t = (uint64_t)a32 - b32 - w->scc;
        w->scc = (t >> 32) != 0;
        *d = (uint32_t)t;
        return true;
    case GCN_SOP2_S_MIN_I32:
        w->scc = (int32_t)a32 < (int32_t)b32;
        *d = w->scc ? a32 : b32;
        return true;
    case GCN_SOP2_S_MIN_U32:
        w->scc = a32 < b32;
        *d = w->scc ? a32 : b32;
        return true;
    case GCN_SOP2_S_MAX_I32:
        w->scc = (int32_t)a32 > (int32_t)b32;
        *d = w->scc ? a32 : b32;
        return true;
    case GCN_SOP2_S_MAX_U32:
        w->scc = a32 > b32;
        *d = w->scc ? a32 : b32;
        return true;
    case GCN_SOP2_S_CSELECT_B32:
        *d = w->scc ? a32 : b32;
        return true;
    case GCN_SOP2_S_CSELECT_B64:
        *is64 = true;
        *d = w->scc ? a : b;
        return true;
    /* the bitwise ones: below the switch */
    case GCN_SOP2_S_AND_B32:
    case GCN_SOP2_S_AND_B64:
        t = a & b;
        break;
    case GCN_SOP2_S_OR_B32:
    case GCN_SOP2_S_OR_B64:
        t = a | b;
        break;
    case GCN_SOP2_S_XOR_B32:
    case GCN_SOP2_S_XOR_B64:
        t = a ^ b;
        break;
    case GCN_SOP2_S_ANDN2_B32:
    case GCN_SOP2_S_ANDN2_B64:
        t = a & ~b;
        break;
    case GCN_SOP2_S_ORN2_B32:
    case GCN_SOP2_S_ORN2_B64:
        t = a | ~b;
        break;
    case GCN_SOP2_S_NAND_B32:
    case GCN_SOP2_S_NAND_B64:
        t = ~(a & b);
        break;
    case GCN_SOP2_S_NOR_B32:
    case GCN_SOP2_S_NOR_B64:
        t = ~(a | b);
        break;
    case GCN_SOP2_S_XNOR_B32:
    case GCN_SOP2_S_XNOR_B64:
        t = ~(a ^ b);
        break;
    case GCN_SOP2_S_LSHL_B32:
        *d = a32 << (b32 & 31);
        w->scc = *d != 0;
        return true;
    case GCN_SOP2_S_LSHL_B64:
        *is64 = true;
        *d = a << (b32 & 63);
        w->scc = *d != 0;
        return true;
    case GCN_SOP2_S_LSHR_B32:
        *d = a32 >> (b32 & 31);
        w->scc = *d != 0;
        return true;
    case GCN_SOP2_S_LSHR_B64:
        *is64 = true;
        *d = a >> (b32 & 63);
        w->scc = *d != 0;
        return true;
    case GCN_SOP2_S_ASHR_I32:
        *d = (uint32_t)((int32_t)a32 >> (b32 & 31));
        w->scc = *d != 0;
        return true;
    case GCN_SOP2_S_ASHR_I64:
        *is64 = true;
        *d = (uint64_t)((int64_t)a >> (b32 & 63));
        w->scc = *d != 0;
        return true;
    case GCN_SOP2_S_BFM_B32:
        *d = (uint32_t)(hsagpu_gcn_mask(a32 & 31) << (b32 & 31));
        return true;
    case GCN_SOP2_S_BFM_B64:
        *is64 = true;
        *d = hsagpu_gcn_mask(a32 & 63) << (b32 & 63);
        return true;
    case GCN_SOP2_S_MUL_I32:
        *d = (uint32_t)((int64_t)(int32_t)a32 * (int32_t)b32);
        return true;
    case GCN_SOP2_S_BFE_U32:
    case GCN_SOP2_S_BFE_I32: {
        unsigned off = b32 & 31, width = (b32 >> 16) & 0x7f;
        bool sgn = op == GCN_SOP2_S_BFE_I32;
        /* S0.i >> offset for the signed one: arithmetic */
        uint32_t sh = sgn ? (uint32_t)((int32_t)a32 >> off) : a32 >> off;
        uint32_t v = width ? sh & (uint32_t)hsagpu_gcn_mask(width) : 0;

        if (sgn && width && width < 32 && (v >> (width - 1)) & 1) {
            v |= ~(uint32_t)hsagpu_gcn_mask(width);
        }
        *d = v;
        w->scc = v != 0;
        return true;
    }
    case GCN_SOP2_S_BFE_U64:
    case GCN_SOP2_S_BFE_I64: {
        unsigned off = b32 & 63, width = (b32 >> 16) & 0x7f;
        bool sgn = op == GCN_SOP2_S_BFE_I64;
        uint64_t sh = sgn ? (uint64_t)((int64_t)a >> off) : a >> off;
        uint64_t v = width ? sh & hsagpu_gcn_mask(width) : 0;

        if (sgn && width && width < 64 && (v >> (width - 1)) & 1) {
            v |= ~hsagpu_gcn_mask(width);
        }
        *is64 = true;
        *d = v;
        w->scc = v != 0;
        return true;
    }
    case GCN_SOP2_S_PACK_LL_B32_B16:
        *d = (a32 & 0xffff) | b32 << 16;
        return true;
    case GCN_SOP2_S_PACK_LH_B32_B16:
        *d = (a32 & 0xffff) | (b32 & 0xffff0000u);
        return true;
    case GCN_SOP2_S_PACK_HH_B32_B16:
        *d = a32 >> 16 | (b32 & 0xffff0000u);
        return true;
    case GCN_SOP2_S_ABSDIFF_I32:
        t = (uint64_t)((int64_t)(int32_t)a32 - (int32_t)b32);
        *d = (uint32_t)((int64_t)t < 0 ? -(int64_t)t : (int64_t)t);
        w->scc = *d != 0;
        return true;
    case GCN_SOP2_S_MUL_HI_U32:
        *d = ((uint64_t)a32 * b32) >> 32;
        return true;
    case GCN_SOP2_S_MUL_HI_I32:
        *d = (uint32_t)(((int64_t)(int32_t)a32 * (int32_t)b32) >> 32);
        return true;
    case GCN_SOP2_S_LSHL1_ADD_U32 ... GCN_SOP2_S_LSHL4_ADD_U32:
        t = ((uint64_t)a32 << (op - GCN_SOP2_S_LSHL1_ADD_U32 + 1)) + b32;
        w->scc = (t >> 32) != 0;
        *d = (uint32_t)t;
        return true;
    default:
        return false;
    }
    *is64 = hsagpu_gcn_sop2_wide(op, 1);
    *d = *is64 ? t : (uint32_t)t;
    w->scc = *d != 0;
    return true;
}

static unsigned hsagpu_gcn_popcount(uint64_t v)
{
    return __builtin_popcountll(v);
}

/* Is SOP1 @op's source 64 bits wide */
static bool hsagpu_gcn_sop1_wide(unsigned op)
{
    switch (op) {
    case GCN_SOP1_S_MOV_B64:
    case GCN_SOP1_S_CMOV_B64:
    case GCN_SOP1_S_NOT_B64:
    case GCN_SOP1_S_BCNT1_I32_B64:
    case GCN_SOP1_S_FF1_I32_B64:
    case GCN_SOP1_S_AND_SAVEEXEC_B64 ... GCN_SOP1_S_XNOR_SAVEEXEC_B64:
    case GCN_SOP1_S_WQM_B64:
    case GCN_SOP1_S_BREV_B64:
    case GCN_SOP1_S_BCNT0_I32_B64:
    case GCN_SOP1_S_FF0_I32_B64:
    case GCN_SOP1_S_FLBIT_I32_B64:
    case GCN_SOP1_S_FLBIT_I32_I64:
    case GCN_SOP1_S_QUADMASK_B64:
    case GCN_SOP1_S_MOVRELS_B64:
    case GCN_SOP1_S_MOVRELD_B64:
    case GCN_SOP1_S_ANDN1_SAVEEXEC_B64 ... GCN_SOP1_S_ANDN2_WREXEC_B64:
        return true;
    default:
        return false;
    }
}

/* The bits of @v (@bits wide) in reverse order */
static uint64_t hsagpu_gcn_brev(uint64_t v, unsigned bits)
{
    uint64_t r = 0;

    for (unsigned k = 0; k < bits; k++) {
        r |= ((v >> k) & 1) << (bits - 1 - k);
    }
    return r;
}

/*
 * s_wqm (@quad 4: each quad of bits all set if any is) and s_quadmask
 * (@quad 1: bit k set if quad k has any bit set) of @bits bits
 */
static uint64_t hsagpu_gcn_quads(uint64_t v, unsigned bits, bool wqm)
{
    uint64_t r = 0;

    for (unsigned k = 0; k < bits / 4; k++) {
        if ((v >> (4 * k)) & 0xf) {
            r |= wqm ? 0xfULL << (4 * k) : 1ULL << k;
        }
    }
    return r;
}

/*
 * s_flbit_i32: the count of leading bits equal to the sign (of @bits
 * bits); -1 if all are
 */
static uint32_t hsagpu_gcn_flbit_signed(uint64_t v, unsigned bits)
{
    uint64_t sign = (v >> (bits - 1)) & 1;

    for (unsigned k = 0; k < bits; k++) {
        if (((v >> (bits - 1 - k)) & 1) != sign) {
            return k;
        }
    }
    return UINT32_MAX;
}

/* SOP1: D = op S0; saveexec forms also set EXEC. */
static bool hsagpu_gcn_sop1(HsaGpuGcnWave *w, unsigned op, uint64_t a,
                            uint64_t *d, bool *is64, bool *write)
{
    uint64_t e = w->exec;
    unsigned bits;

    *write = true;
    *is64 = hsagpu_gcn_sop1_wide(op);
    bits = *is64 ? 64 : 32;
    a = *is64 ? a : (uint32_t)a;
    switch (op) {
    case GCN_SOP1_S_MOV_B32:
    case GCN_SOP1_S_MOV_B64:
        *d = a;
        return true;
    case GCN_SOP1_S_CMOV_B32:
    case GCN_SOP1_S_CMOV_B64:
        *d = a;
        *write = w->scc;
        return true;
    case GCN_SOP1_S_NOT_B32:
    case GCN_SOP1_S_NOT_B64:
        *d = *is64 ? ~a : (uint32_t)~a;
        w->scc = *d != 0;
        return true;
    case GCN_SOP1_S_BCNT1_I32_B32:
    case GCN_SOP1_S_BCNT1_I32_B64:
        *d = hsagpu_gcn_popcount(*is64 ? a : (uint32_t)a);
        *is64 = false;
        w->scc = *d != 0;
        return true;
    case GCN_SOP1_S_FF1_I32_B32:
    case GCN_SOP1_S_FF1_I32_B64:
        a = *is64 ? a : (uint32_t)a;
        *d = a ? (uint32_t)__builtin_ctzll(a) : 0xffffffffU;
        *is64 = false;
        return true;
    case GCN_SOP1_S_AND_SAVEEXEC_B64 ... GCN_SOP1_S_XNOR_SAVEEXEC_B64:
        *d = e;
        switch (op) {
        case GCN_SOP1_S_AND_SAVEEXEC_B64:
            w->exec = a & e;
            break;
        case GCN_SOP1_S_OR_SAVEEXEC_B64:
            w->exec = a | e;
            break;
        case GCN_SOP1_S_XOR_SAVEEXEC_B64:
            w->exec = a ^ e;
            break;
        case GCN_SOP1_S_ANDN2_SAVEEXEC_B64:
            w->exec = a & ~e;
            break;
        case GCN_SOP1_S_ORN2_SAVEEXEC_B64:
            w->exec = a | ~e;
            break;
        case GCN_SOP1_S_NAND_SAVEEXEC_B64:
            w->exec = ~(a & e);
            break;
        case GCN_SOP1_S_NOR_SAVEEXEC_B64:
            w->exec = ~(a | e);
            break;
        default:                /* s_xnor_saveexec_b64 */
            w->exec = ~(a ^ e);
            break;
        }
        w->scc = w->exec != 0;
        return true;
    case GCN_SOP1_S_WQM_B32:
    case GCN_SOP1_S_WQM_B64:
        *d = hsagpu_gcn_quads(a, bits, true);
        w->scc = *d != 0;
        return true;
    case GCN_SOP1_S_QUADMASK_B32:
    case GCN_SOP1_S_QUADMASK_B64:
        *d = hsagpu_gcn_quads(a, bits, false);
        w->scc = *d != 0;
        return true;
    case GCN_SOP1_S_BREV_B32:
    case GCN_SOP1_S_BREV_B64:
        *d = hsagpu_gcn_brev(a, bits);
        return true;
    case GCN_SOP1_S_BCNT0_I32_B32:
    case GCN_SOP1_S_BCNT0_I32_B64:
        *d = bits - hsagpu_gcn_popcount(a);
        *is64 = false;
        w->scc = *d != 0;
        return true;
    case GCN_SOP1_S_FF0_I32_B32:
    case GCN_SOP1_S_FF0_I32_B64:
        a = ~a & hsagpu_gcn_mask(bits);
        *d = a ? (uint32_t)__builtin_ctzll(a) : 0xffffffffU;
        *is64 = false;
        return true;
    case GCN_SOP1_S_FLBIT_I32_B32:
    case GCN_SOP1_S_FLBIT_I32_B64:
        /* leading zeros, counted from the top of the operand */
        *d = a ? (uint32_t)__builtin_clzll(a) - (64 - bits) : 0xffffffffU;
        *is64 = false;
        return true;
    case GCN_SOP1_S_FLBIT_I32:
    case GCN_SOP1_S_FLBIT_I32_I64:
        *d = hsagpu_gcn_flbit_signed(a, bits);
        *is64 = false;
        return true;
    case GCN_SOP1_S_SEXT_I32_I8:
        *d = (uint32_t)(int32_t)(int8_t)a;
        return true;
    case GCN_SOP1_S_SEXT_I32_I16:
        *d = (uint32_t)(int32_t)(int16_t)a;
        return true;
    case GCN_SOP1_S_BITREPLICATE_B64_B32:
        *is64 = true;
        *d = 0;
        for (unsigned k = 0; k < 32; k++) {
            *d |= ((a >> k) & 1) * (3ULL << (2 * k));
        }
        return true;
    case GCN_SOP1_S_ANDN1_SAVEEXEC_B64:
    case GCN_SOP1_S_ORN1_SAVEEXEC_B64:
        *d = e;
        w->exec = op == GCN_SOP1_S_ANDN1_SAVEEXEC_B64 ? ~a & e : ~a | e;
        w->scc = w->exec != 0;
        return true;
    case GCN_SOP1_S_ANDN1_WREXEC_B64:
    case GCN_SOP1_S_ANDN2_WREXEC_B64:
        /* EXEC and the destination both get the result */
        w->exec = op == GCN_SOP1_S_ANDN1_WREXEC_B64 ? ~a & e : a & ~e;
        *d = w->exec;
        w->scc = w->exec != 0;
        return true;
    case GCN_SOP1_S_ABS_I32:
        *is64 = false;
        *d = (uint32_t)((int32_t)a < 0 ? -(int64_t)(int32_t)a : (int32_t)a);
        w->scc = *d != 0;
        return true;
    default:
        return false;
    }
}

/*
 * SOPC and SOPK compares: SCC = S0 op S1, relation @k in the ISA's order
 * (EQ, LG, GT, GE, LT, LE: s_cmp_eq_i32 .. s_cmp_le_i32)
 */
static bool hsagpu_gcn_cmp(unsigned k, bool is_signed, uint64_t a, uint64_t b)
{
    int64_t sa = (int32_t)a, sb = (int32_t)b;

    a = (uint32_t)a;
    b = (uint32_t)b;
    switch (k) {
    case 0:
        return a == b;
    case 1:
        return a != b;
    case 2:
        return is_signed ? sa > sb : a > b;
    case 3:
        return is_signed ? sa >= sb : a >= b;
    case 4:
        return is_signed ? sa < sb : a < b;
    default:
        return is_signed ? sa <= sb : a <= b;
    }
}

static bool hsagpu_gcn_sopc(HsaGpuGcnWave *w, unsigned op, unsigned s0,
                            unsigned s1, uint32_t lit)
{
    bool cmp64 = op == GCN_SOPC_S_CMP_EQ_U64 || op == GCN_SOPC_S_CMP_LG_U64;
    bool is64 = cmp64 || op == GCN_SOPC_S_BITCMP0_B64 ||
                op == GCN_SOPC_S_BITCMP1_B64;
    uint64_t a, b;

    if (!hsagpu_gcn_sread(w, s0, lit, is64, &a) ||
        !hsagpu_gcn_sread(w, s1, lit, cmp64, &b)) {
        return false;
    }
    switch (op) {
    case GCN_SOPC_S_CMP_EQ_I32 ... GCN_SOPC_S_CMP_LE_I32:
        w->scc = hsagpu_gcn_cmp(op - GCN_SOPC_S_CMP_EQ_I32, true, a, b);
        return true;
    case GCN_SOPC_S_CMP_EQ_U32 ... GCN_SOPC_S_CMP_LE_U32:
        w->scc = hsagpu_gcn_cmp(op - GCN_SOPC_S_CMP_EQ_U32, false, a, b);
        return true;
    case GCN_SOPC_S_BITCMP0_B32:
    case GCN_SOPC_S_BITCMP1_B32:
    case GCN_SOPC_S_BITCMP0_B64:
    case GCN_SOPC_S_BITCMP1_B64:
        w->scc = ((a >> (b & (is64 ? 63 : 31))) & 1) ==
                 (op == GCN_SOPC_S_BITCMP1_B32 ||
                  op == GCN_SOPC_S_BITCMP1_B64);
        return true;
    case GCN_SOPC_S_CMP_EQ_U64:
    case GCN_SOPC_S_CMP_LG_U64:
        w->scc = (a == b) == (op == GCN_SOPC_S_CMP_EQ_U64);
        return true;
    default:
        return false;
    }
}

static bool hsagpu_gcn_sopk(HsaGpuGcnWave *w, unsigned op, unsigned sdst,
                            uint16_t imm)
{
    uint64_t cur = 0;
    int32_t simm = (int16_t)imm;

    if (op != GCN_SOPK_S_MOVK_I32 &&
        !hsagpu_gcn_sread(w, sdst, 0, false, &cur)) {
        return false;
    }
    switch (op) {
    case GCN_SOPK_S_MOVK_I32:
        return hsagpu_gcn_swrite(w, sdst, false, (uint32_t)simm);
    case GCN_SOPK_S_CMOVK_I32:
        return !w->scc || hsagpu_gcn_swrite(w, sdst, false, (uint32_t)simm);
    case GCN_SOPK_S_CMPK_EQ_I32 ... GCN_SOPK_S_CMPK_LE_I32:
        w->scc = hsagpu_gcn_cmp(op - GCN_SOPK_S_CMPK_EQ_I32, true, cur,
                                (uint32_t)simm);
        return true;
    case GCN_SOPK_S_CMPK_EQ_U32 ... GCN_SOPK_S_CMPK_LE_U32:
        w->scc = hsagpu_gcn_cmp(op - GCN_SOPK_S_CMPK_EQ_U32, false, cur, imm);
        return true;
    case GCN_SOPK_S_ADDK_I32: {
        uint32_t r = (uint32_t)cur + (uint32_t)simm;

        w->scc = (((uint32_t)cur ^ ~(uint32_t)simm) &
                  ((uint32_t)cur ^ r)) >> 31;
        return hsagpu_gcn_swrite(w, sdst, false, r);
    }
    case GCN_SOPK_S_MULK_I32:
        return hsagpu_gcn_swrite(w, sdst, false,
                                 (uint32_t)cur * (uint32_t)simm);
    default:
        return false;
    }
}

/*
 * Scalar memory: s_load_dword{,x2,x4,x8,x16} and s_store_dword{,x2,x4}
 * at a 64-bit base, their s_buffer_ forms through a buffer resource (a
 * V#: base, and num_records bytes with stride 0, past which loads give 0
 * and stores are dropped, a dword at a time); the scalar cache's
 * invalidations and write-backs (no cache here: a host fence, the
 * acquire or release they stand for); the clocks.
 */
unsigned hsagpu_gcn_smem(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                         const uint32_t *insn)
{
    unsigned op = (insn[0] >> 18) & 0xff, sdata = (insn[0] >> 6) & 0x7f;
    unsigned sbase = (insn[0] & 0x3f) * 2, n, err;
    bool imm = (insn[0] >> 17) & 1, buffer = false, store = false;
    uint64_t base, off, addr, ns, range = UINT64_MAX;
    uint32_t buf[16], *dst, *v;

    switch (op) {
    case GCN_SMEM_S_DCACHE_INV:
    case GCN_SMEM_S_DCACHE_WB:
    case GCN_SMEM_S_DCACHE_INV_VOL:
    case GCN_SMEM_S_DCACHE_WB_VOL:
        hsagpu_gcn_fence();
        return 2;
    case GCN_SMEM_S_MEMTIME:
    case GCN_SMEM_S_MEMREALTIME:
        /* the device clock (ns): the shader clock, the 100 MHz REFCLK */
        ns = g->mem->now_ns ? g->mem->now_ns(g->mem->opaque) : 0;
        ns /= op == GCN_SMEM_S_MEMTIME ?
              1000000000ULL / HSAGPU_GCN_SHADER_CLOCK_HZ :
              1000000000ULL / HSAGPU_GCN_REALTIME_HZ;
        return hsagpu_gcn_swrite(w, sdata, true, ns) ? 2 :
               hsagpu_gcn_refuse(g, w, insn, "s_memtime: SGPR pair");
    case GCN_SMEM_S_LOAD_DWORD ... GCN_SMEM_S_LOAD_DWORDX16:
        n = 1u << (op - GCN_SMEM_S_LOAD_DWORD);     /* dwords: 1..16 */
        break;
    case GCN_SMEM_S_BUFFER_LOAD_DWORD ... GCN_SMEM_S_BUFFER_LOAD_DWORDX16:
        n = 1u << (op - GCN_SMEM_S_BUFFER_LOAD_DWORD);
        buffer = true;
        break;
    case GCN_SMEM_S_STORE_DWORD ... GCN_SMEM_S_STORE_DWORDX4:
        n = 1u << (op - GCN_SMEM_S_STORE_DWORD);
        store = true;
        break;
    case GCN_SMEM_S_BUFFER_STORE_DWORD ... GCN_SMEM_S_BUFFER_STORE_DWORDX4:
        n = 1u << (op - GCN_SMEM_S_BUFFER_STORE_DWORD);
        buffer = store = true;
        break;
    default:
        return hsagpu_gcn_refuse(g, w, insn, "smem");
    }
    dst = hsagpu_gcn_sregs(w, sdata, n);
    if (!dst) {
        return hsagpu_gcn_refuse(g, w, insn, "smem");
    }
    if (buffer) {
        /* the V# in s[sbase:sbase+3]: a 48-bit base, num_records */
        v = hsagpu_gcn_sregs(w, sbase, 4);
        if (!v || (v[1] >> 16) & 0x3fff) {
            /* (a stride: a scalar buffer access has no index) */
            return hsagpu_gcn_refuse(g, w, insn, "smem: V# with a stride");
        }
        base = (uint64_t)(v[1] & 0xffff) << 32 | v[0];
        range = v[2];
    } else if (!hsagpu_gcn_sread(w, sbase, 0, true, &base)) {
        return hsagpu_gcn_refuse(g, w, insn, "smem");
    }
    if (imm) {
        /* gfx9: a signed 21-bit byte offset (llvm-mc: -4 is 0x1ffffc) */
        off = (uint64_t)(int64_t)((int32_t)(insn[1] << 11) >> 11);
    } else if (!hsagpu_gcn_sread(w, insn[1] & 0x7f, 0, false, &off)) {
        return hsagpu_gcn_refuse(g, w, insn, "smem");
    }
    if (buffer) {
        /* the offset within the buffer, a dword at a time against it */
        off = (uint32_t)off & ~3u;
        addr = (base + off) & ~3ULL;
        for (unsigned k = 0; k < n; k++) {
            bool in = off + 4ULL * (k + 1) <= range;

            err = !in ? 0 : store ?
                  hsagpu_gcn_write(g, addr + 4 * k, &dst[k], 4) :
                  hsagpu_gcn_read(g, addr + 4 * k, &buf[k], 4);
            if (err) {
                addr += 4 * k;
                break;
            }
            if (!in) {
                buf[k] = 0;
            }
        }
    } else {
        addr = (base + off) & ~3ULL;
        err = store ? hsagpu_gcn_write(g, addr, dst, n * 4) :
              hsagpu_gcn_read(g, addr, buf, n * 4);
    }
    if (err) {
        g->st->mem_err = err;
        g->st->addr = addr;
        return hsagpu_gcn_fail(g, w, HSAGPU_GCN_MEM_FAULT, insn,
                               store ? "s_store" : "s_load");
    }
    if (!store) {
        memcpy(dst, buf, n * 4);
    }
    /* a store leaves the data where the release fence finds it */
    return 2;
}

/*
 * s_sendmsg, s_sendmsghalt: what compute code sends. MSG_INTERRUPT (1,
 * with M0 the context id: ROCm's signals, hostcall and printf after
 * writing a signal's event mailbox) raises the queue's interrupt as the
 * device does for its own signals (HsaGpuGcnMem.interrupt); the graphics
 * messages (GS, GS_DONE, GS_ALLOC_REQ), the trap handler's and the
 * system ones are refused. s_sendmsghalt then halts the wave: with no
 * debugger to resume it the dispatch could never end, so it fails the
 * queue as a trap does.
 */
static unsigned hsagpu_gcn_sendmsg(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                                   const uint32_t *insn, bool halt)
{
    if ((insn[0] & 0xf) != 1 /* MSG_INTERRUPT */) {
        return hsagpu_gcn_refuse(g, w, insn, "s_sendmsg: not MSG_INTERRUPT");
    }
    if (g->mem->interrupt) {
        g->mem->interrupt(g->mem->opaque, w->m0);
    }
    return halt ? hsagpu_gcn_fail(g, w, HSAGPU_GCN_TRAP, insn,
                                  "s_sendmsghalt: wave halted") : 1;
}

/* SOPP: program control. Returns dwords, 0 to stop this wave for now. */
unsigned hsagpu_gcn_sopp(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                         const uint32_t *insn)
{
    unsigned op = (insn[0] >> 16) & 0x7f;
    int16_t simm = (int16_t)insn[0];
    bool take;

    switch (op) {
    case GCN_SOPP_S_WAITCNT: {
        /* vmcnt [3:0] and [15:14], expcnt [6:4]; their maxima: no wait */
        unsigned imm = insn[0] & 0xffff;
        unsigned vm = (imm & 0xf) | ((imm >> 14) & 3) << 4;

        /*
         * Memory is synchronous here, nothing to wait for; but the
         * memory model's acquires and releases beyond the workgroup are
         * these (an acquire's "s_waitcnt vmcnt(0)" after its load, a
         * release's before its store): a host fence orders them with
         * the CPU's accesses. A wait on lgkmcnt alone (LDS, scalar
         * loads, messages) orders nothing outside the workgroup, whose
         * waves all run on this thread: no fence (compiled code waits
         * so around every LDS access).
         */
        if (vm != 63 || ((imm >> 4) & 7) != 7) {
            hsagpu_gcn_fence();
        }
        return 1;
    }
    case GCN_SOPP_S_SENDMSG:
    case GCN_SOPP_S_SENDMSGHALT:
        return hsagpu_gcn_sendmsg(g, w, insn, op == GCN_SOPP_S_SENDMSGHALT);
    case GCN_SOPP_S_NOP:
    case GCN_SOPP_S_WAKEUP:
    case GCN_SOPP_S_TTRACEDATA: /* no thread trace: dropped */
    case GCN_SOPP_S_SETPRIO:
    case GCN_SOPP_S_INCPERFLEVEL:
    case GCN_SOPP_S_DECPERFLEVEL:
        return 1;
    case GCN_SOPP_S_ICACHE_INV:
        /* code rewritten since the workgroup read it is read again */
        if (g->icache) {
            memset(g->icache->tag, 0, sizeof(g->icache->tag));
        }
        return 1;
    case GCN_SOPP_S_ENDPGM:
        w->done = true;
        return 0;
    case GCN_SOPP_S_SLEEP:
        /* a wave that waits for another lets it run: its turn ends */
        w->pc += 4;
        return 0;
    case GCN_SOPP_S_BARRIER:
        w->at_barrier = true;
        w->pc += 4;
        return 0;
    case GCN_SOPP_S_TRAP:
        /*
         * ROCr's trap handler (the AMDHSA trap ABI): llvm.debugtrap
         * (s_trap 3) without a debugger goes on; llvm.trap (2) and the
         * others fail the queue with the trap's address.
         */
        if ((simm & 0xff) == 3) {
            return 1;
        }
        return hsagpu_gcn_fail(g, w, HSAGPU_GCN_TRAP, insn, "s_trap");
    case GCN_SOPP_S_BRANCH:
        take = true;
        break;
    case GCN_SOPP_S_CBRANCH_SCC0:
        take = !w->scc;
        break;
    case GCN_SOPP_S_CBRANCH_SCC1:
        take = w->scc;
        break;
    case GCN_SOPP_S_CBRANCH_VCCZ:
        take = !w->vcc;
        break;
    case GCN_SOPP_S_CBRANCH_VCCNZ:
        take = w->vcc != 0;
        break;
    case GCN_SOPP_S_CBRANCH_EXECZ:
        take = !w->exec;
        break;
    case GCN_SOPP_S_CBRANCH_EXECNZ:
        take = w->exec != 0;
        break;
    default:
        return hsagpu_gcn_refuse(g, w, insn, "sopp");
    }
    w->pc += 4 + (take ? (int64_t)simm * 4 : 0);
    return UINT32_MAX;          /* pc set */
}

/* Hardware registers (s_getreg_b32, s_setreg_b32 simm16's id) */
enum {
    GCN_HWREG_MODE = 1, GCN_HWREG_STATUS = 2, GCN_HWREG_TRAPSTS = 3,
    GCN_HWREG_HW_ID = 4, GCN_HWREG_GPR_ALLOC = 5, GCN_HWREG_LDS_ALLOC = 6,
    GCN_HWREG_IB_STS = 7, GCN_HWREG_SH_MEM_BASES = 15,
};

/*
 * The value of hardware register @id for @w: false when the interpreter
 * has no such register. MODE: rounding (round to nearest even, all the
 * FPU does), the denormal modes the FPU honours for the wave, DX10 clamp
 * and IEEE from rsrc1; STATUS: SCC, EXECZ, VCCZ, VALID; TRAPSTS: no
 * exception recorded; HW_ID: the wave on a SIMD of CU 0 (wave index / 4,
 * index % 4), ME 1 (compute); GPR_ALLOC, LDS_ALLOC: the allocation's
 * sizes in the hardware's granules (4 VGPRs, 16 SGPRs, 128 dwords of
 * LDS), bases 0; IB_STS: every counter 0 (memory is synchronous);
 * SH_MEM_BASES: the flat apertures' top 16 bits (private [15:0], shared
 * [31:16]).
 */
static bool hsagpu_gcn_hwreg(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                             unsigned id, uint32_t *v)
{
    uint32_t r1 = g->d->kd.rsrc1;
    unsigned sgprs = (((r1 >> 6) & 0xf) + 1) * 8;

    switch (id) {
    case GCN_HWREG_MODE:
        *v = (g->ftz32 ? 0 : 3) << 4 | (g->ftz64 ? 0 : 3) << 6 |
             ((r1 >> 21) & 1) << 8 | ((r1 >> 23) & 1) << 9;
        return true;
    case GCN_HWREG_STATUS:
        *v = w->scc | !w->exec << 9 | !w->vcc << 10 | 1u << 16;
        return true;
    case GCN_HWREG_TRAPSTS:
    case GCN_HWREG_IB_STS:
        *v = 0;
        return true;
    case GCN_HWREG_HW_ID:
        *v = (w->id / 4) | (w->id % 4) << 4 | 1u << 30;
        return true;
    case GCN_HWREG_GPR_ALLOC:
        *v = ((w->nvgpr + 3) / 4 - 1) << 8 | ((sgprs + 15) / 16 - 1) << 24;
        return true;
    case GCN_HWREG_LDS_ALLOC:
        *v = ((g->lds_size + 511) / 512) << 12;
        return true;
    case GCN_HWREG_SH_MEM_BASES:
        *v = HSAGPU_GCN_APERTURE_SHARED << 16 | HSAGPU_GCN_APERTURE_PRIVATE;
        return true;
    default:
        return false;
    }
}

/*
 * s_getreg_b32 (SOPK), s_setreg_b32 (SOPK: from SGPR sdst) and
 * s_setreg_imm32_b32 (the literal). simm16: id [5:0], offset [10:6],
 * size - 1 [15:11]. s_setreg changes MODE's denormal modes (each 0,
 * flush, or 3, keep: what the FPU honours, for the wave from then on)
 * and writes zeros to TRAPSTS; any other change (a rounding mode other
 * than nearest even, DX10 clamp, IEEE, exceptions; the read-only
 * registers) is refused rather than ignored.
 */
static unsigned hsagpu_gcn_getreg(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                                  const uint32_t *insn, unsigned op)
{
    unsigned id = insn[0] & 0x3f, off = (insn[0] >> 6) & 31;
    unsigned size = ((insn[0] >> 11) & 31) + 1, sreg = (insn[0] >> 16) & 0x7f;
    uint32_t mask = (size >= 32 ? ~0u : (1u << size) - 1), v, nv;
    uint64_t src;

    if (!hsagpu_gcn_hwreg(g, w, id, &v)) {
        return hsagpu_gcn_refuse(g, w, insn, "s_getreg/s_setreg: register");
    }
    if (op == GCN_SOPK_S_GETREG_B32) {
        v = (uint32_t)((uint64_t)v >> off) & mask;
        return hsagpu_gcn_swrite(w, sreg, false, v) ? 1 :
               hsagpu_gcn_refuse(g, w, insn, "s_getreg");
    }
    if (op == GCN_SOPK_S_SETREG_IMM32_B32) {
        src = insn[1];
    } else if (!hsagpu_gcn_sread(w, sreg, 0, false, &src)) {
        return hsagpu_gcn_refuse(g, w, insn, "s_setreg");
    }
    mask = (uint32_t)((uint64_t)mask << off);
    nv = (v & ~mask) | ((uint32_t)((uint64_t)src << off) & mask);
    if (id == GCN_HWREG_TRAPSTS && !nv) {
        return op == GCN_SOPK_S_SETREG_IMM32_B32 ? 2 : 1;
    }
    if (id != GCN_HWREG_MODE || (nv & ~0xf0u) != (v & ~0xf0u) ||
        ((nv >> 4) & 3) == 1 || ((nv >> 4) & 3) == 2 ||
        ((nv >> 6) & 3) == 1 || ((nv >> 6) & 3) == 2) {
        return hsagpu_gcn_refuse(g, w, insn,
                                 "s_setreg: a mode the FPU cannot honour");
    }
    w->denorm = (nv >> 4) & 0xf;
    hsagpu_gcn_set_denorm(g, w->denorm);
    return op == GCN_SOPK_S_SETREG_IMM32_B32 ? 2 : 1;
}

/*
 * s_bitset0/1 (D's bit S0 cleared or set), s_movrels (D = the SGPR M0
 * past S0) and s_movreld (the SGPR M0 past D = S0): SOP1 instructions
 * that name a register by more than its field. False: refused (an
 * index past s101, an odd pair, not an SGPR).
 */
static bool hsagpu_gcn_sop1_reg(HsaGpuGcnWave *w, unsigned op, unsigned sdst,
                                unsigned src, uint32_t lit)
{
    bool is64 = op == GCN_SOP1_S_BITSET0_B64 ||
                op == GCN_SOP1_S_BITSET1_B64 ||
                op == GCN_SOP1_S_MOVRELS_B64 || op == GCN_SOP1_S_MOVRELD_B64;
    uint64_t a, d;
    /* the register M0 past the field (64-bit: no wrap whatever M0) */
    uint64_t rel = (uint64_t)(op == GCN_SOP1_S_MOVRELS_B32 ||
                              op == GCN_SOP1_S_MOVRELS_B64 ? src : sdst) +
                   w->m0;

    switch (op) {
    case GCN_SOP1_S_BITSET0_B32:
    case GCN_SOP1_S_BITSET0_B64:
    case GCN_SOP1_S_BITSET1_B32:
    case GCN_SOP1_S_BITSET1_B64:
        if (!hsagpu_gcn_sread(w, src, lit, false, &a) ||
            !hsagpu_gcn_sread(w, sdst, 0, is64, &d)) {
            return false;
        }
        a &= is64 ? 63 : 31;
        d = op == GCN_SOP1_S_BITSET0_B32 || op == GCN_SOP1_S_BITSET0_B64 ?
            d & ~(1ULL << a) : d | 1ULL << a;
        return hsagpu_gcn_swrite(w, sdst, is64, d);
    case GCN_SOP1_S_MOVRELS_B32:
    case GCN_SOP1_S_MOVRELS_B64:
        return src < HSAGPU_GCN_SGPRS && rel < HSAGPU_GCN_SGPRS &&
               hsagpu_gcn_sread(w, (unsigned)rel, 0, is64, &a) &&
               hsagpu_gcn_swrite(w, sdst, is64, a);
    case GCN_SOP1_S_MOVRELD_B32:
    case GCN_SOP1_S_MOVRELD_B64:
        return sdst < HSAGPU_GCN_SGPRS && rel < HSAGPU_GCN_SGPRS &&
               hsagpu_gcn_sread(w, src, lit, is64, &a) &&
               hsagpu_gcn_swrite(w, (unsigned)rel, is64, a);
    default:
        return false;
    }
}

/* A scalar ALU instruction (SOP1, SOP2, SOPK, SOPC). */
unsigned hsagpu_gcn_scalar(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                           const uint32_t *insn)
{
    uint32_t i = insn[0], lit = insn[1];
    uint64_t a, b, d;
    bool is64, write, ok;
    unsigned len = 1;

    if (GCN_ENC_SOP1(i)) {
        unsigned op = (i >> 8) & 0xff, sdst = (i >> 16) & 0x7f;

        len += (i & 0xff) == GCN_SRC_LITERAL;
        if (op == GCN_SOP1_S_GETPC_B64) {
            return hsagpu_gcn_swrite(w, sdst, true, w->pc + 4) ? 1 :
                   hsagpu_gcn_refuse(g, w, insn,
                                   "sop1");
        }
        if (op == GCN_SOP1_S_SETPC_B64 || op == GCN_SOP1_S_SWAPPC_B64) {
            if (!hsagpu_gcn_sread(w, i & 0xff, lit, true, &a) ||
                (op == GCN_SOP1_S_SWAPPC_B64 &&
                 !hsagpu_gcn_swrite(w, sdst, true, w->pc + 4))) {
                return hsagpu_gcn_refuse(g, w, insn,
                                       "sop1");
            }
            w->pc = a;
            return UINT32_MAX;
        }
        if ((op >= GCN_SOP1_S_BITSET0_B32 && op <= GCN_SOP1_S_BITSET1_B64) ||
            (op >= GCN_SOP1_S_MOVRELS_B32 && op <= GCN_SOP1_S_MOVRELD_B64)) {
            return hsagpu_gcn_sop1_reg(w, op, sdst, i & 0xff, lit) ? len :
                   hsagpu_gcn_refuse(g, w, insn, "sop1");
        }
        ok = hsagpu_gcn_sread(w, i & 0xff, lit, hsagpu_gcn_sop1_wide(op),
                              &a) &&
             hsagpu_gcn_sop1(w, op, a, &d, &is64, &write) &&
             (!write || hsagpu_gcn_swrite(w, sdst, is64, d));
        return ok ? len : hsagpu_gcn_refuse(g, w, insn,
                                          "sop1");
    }
    if (GCN_ENC_SOPC(i)) {
        len += (i & 0xff) == GCN_SRC_LITERAL ||
               ((i >> 8) & 0xff) == GCN_SRC_LITERAL;
        return hsagpu_gcn_sopc(w, (i >> 16) & 0x7f, i & 0xff, (i >> 8) & 0xff,
                               lit) ? len :
               hsagpu_gcn_refuse(g, w, insn, "sopc");
    }
    if (GCN_ENC_SOPK(i)) {
        unsigned op = (i >> 23) & 0x1f;

        if (op == GCN_SOPK_S_GETREG_B32 || op == GCN_SOPK_S_SETREG_B32 ||
            op == GCN_SOPK_S_SETREG_IMM32_B32) {
            return hsagpu_gcn_getreg(g, w, insn, op);
        }
    }
    if (GCN_ENC_SOPK(i)) {
        return hsagpu_gcn_sopk(w, (i >> 23) & 0x1f, (i >> 16) & 0x7f,
                               (uint16_t)i) ? 1 :
               hsagpu_gcn_refuse(g, w, insn, "sopk");
    }
    /* SOP2 */
    {
        unsigned op = (i >> 23) & 0x7f, sdst = (i >> 16) & 0x7f;

        len += (i & 0xff) == GCN_SRC_LITERAL ||
               ((i >> 8) & 0xff) == GCN_SRC_LITERAL;
        ok = hsagpu_gcn_sread(w, i & 0xff, lit, hsagpu_gcn_sop2_wide(op, 0),
                              &a) &&
             hsagpu_gcn_sread(w, (i >> 8) & 0xff, lit,
                              hsagpu_gcn_sop2_wide(op, 1), &b) &&
             hsagpu_gcn_sop2(w, op, a, b, &d, &is64) &&
             hsagpu_gcn_swrite(w, sdst, is64, d);
        return ok ? len : hsagpu_gcn_refuse(g, w, insn,
                                          "sop2");
    }
}
