/*
 * hsa-gpu: GCN (gfx9) interpreter, floating point: the fp16, fp32 and
 * fp64 VALU operations of one lane, their compares and classes. Round to
 * nearest even (descriptors asking for another rounding mode are
 * refused), denormals flushed or kept as rsrc1 says, IEEE-mode min/max.
 * fp32 results are computed in float and fp64 in double; fp16 ones in
 * float, which rounds +, -, * and / exactly once more than enough
 * (24 >= 2 x 11 + 2 bits), then to half with round to nearest even.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include <float.h>
#include <math.h>
#include "hsagpu-gcn-int.h"

#define F32_EXP         0x7f800000u
#define F64_EXP         0x7ff0000000000000ULL
#define F64_SIGN        0x8000000000000000ULL

static float gcn_f(uint64_t v, bool ftz)
{
    return hsagpu_gcn_f32((uint32_t)v, ftz);
}

static uint64_t gcn_uf(float f, bool ftz)
{
    return hsagpu_gcn_u32f(f, ftz);
}

static double gcn_d(uint64_t v, bool ftz)
{
    double d;

    if (ftz && !(v & F64_EXP)) {
        v &= F64_SIGN;
    }
    memcpy(&d, &v, 8);
    return d;
}

static uint64_t gcn_ud(double d, bool ftz)
{
    uint64_t v;

    memcpy(&v, &d, 8);
    if (ftz && !(v & F64_EXP)) {
        v &= F64_SIGN;
    }
    return v;
}

/* Half to float: exact. */
float hsagpu_gcn_h2f(uint16_t h)
{
    unsigned e = (h >> 10) & 31, m = h & 0x3ff;
    float f;

    if (e == 31 && m) {
        /* NaN: quiet, its payload kept in the top bits */
        uint32_t u = (h & 0x8000u) << 16 | 0x7fc00000u | m << 13;

        memcpy(&f, &u, 4);
        return f;
    }
    if (e == 31) {
        f = INFINITY;
    } else if (e == 0) {
        f = ldexpf((float)m, -24);
    } else {
        f = ldexpf((float)(m | 0x400), (int)e - 25);
    }
    return h & 0x8000 ? -f : f;
}

/* To half, rounded to nearest even (or toward zero, for cvt_pkrtz). */
uint16_t hsagpu_gcn_f2h(double v, bool rtz)
{
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    double a = fabs(v), q;
    int e;

    if (isnan(v)) {
        uint64_t u;

        memcpy(&u, &v, 8);
        return sign | 0x7e00 | ((u >> 42) & 0x3ff);   /* quiet, payload */
    }
    if (isinf(v)) {
        return sign | 0x7c00;
    }
    if (a < ldexp(1.0, -14)) {
        /* denormal halves count in units of 2^-24 (1024: the least normal) */
        q = ldexp(a, 24);
        q = rtz ? trunc(q) : nearbyint(q);
        return sign | (uint16_t)q;
    }
    frexp(a, &e);
    e--;                        /* a = 1.m x 2^e */
    q = a * ldexp(1.0, 10 - e);
    q = rtz ? trunc(q) : nearbyint(q);
    if (q >= 2048) {
        q /= 2;
        e++;
    }
    if (e > 15) {
        return sign | (rtz ? 0x7bff : 0x7c00);
    }
    return sign | (uint16_t)((e + 15) << 10) | ((uint16_t)q & 0x3ff);
}

/* IEEE-mode min and max: a NaN operand gives the other one. */
static double gcn_min(double a, double b)
{
    return isnan(a) ? b : isnan(b) ? a : (a < b || (a == b && signbit(a)))
                                         ? a : b;
}

static double gcn_max(double a, double b)
{
    return isnan(a) ? b : isnan(b) ? a : (a > b || (a == b && !signbit(a)))
                                         ? a : b;
}

/* @x, a NaN, quiet (a double keeps a signalling NaN as it is) */
static double gcn_quiet(double x)
{
    uint64_t u;

    memcpy(&u, &x, 8);
    u |= 1ULL << 51;
    memcpy(&x, &u, 8);
    return x;
}

/*
 * V_MIN_F* and V_MAX_F* in IEEE mode: a signalling NaN operand gives
 * itself, quieted (S0's first; IEEE 754-2008 minNum); a quiet one the
 * other operand. @sa, @sb: the operand is a signalling NaN.
 */
static double gcn_minmax(double a, bool sa, double b, bool sb, bool max)
{
    if (sa || sb) {
        return gcn_quiet(sa ? a : b);
    }
    return max ? gcn_max(a, b) : gcn_min(a, b);
}

/*
 * v_min3, v_max3: V_MIN(V_MIN(S0, S1), S2), each with the rule above, so
 * a signalling NaN in S0 or S1 gives S2 (the quieted NaN loses to it)
 */
static double gcn_minmax3(double a, bool sa, double b, bool sb, double c,
                          bool sc, bool max)
{
    return gcn_minmax(gcn_minmax(a, sa, b, sb, max), false, c, sc, max);
}

/*
 * v_med3: the middle value; with a NaN operand, min3 (the ISA's
 * definition; LLVM's fmed3 folding models the same: in IEEE mode a
 * signalling S0 or S1 gives S2, a signalling S2 itself quieted, a quiet
 * NaN the min of the other two)
 */
static double gcn_med3(double a, bool sa, double b, bool sb, double c,
                       bool sc)
{
    if (isnan(a) || isnan(b) || isnan(c)) {
        return gcn_minmax3(a, sa, b, sb, c, sc, false);
    }
    return gcn_max(gcn_min(a, b), gcn_min(gcn_max(a, b), c));
}

/* Float to integer, saturating; NaN gives 0. */
static uint32_t gcn_to_i32(double f)
{
    return isnan(f) ? 0 : f <= -2147483648.0 ? (uint32_t)INT32_MIN :
           f >= 2147483647.0 ? (uint32_t)INT32_MAX : (uint32_t)(int32_t)f;
}

static uint32_t gcn_to_u32(double f)
{
    return isnan(f) || f <= 0 ? 0 : f >= 4294967295.0 ? UINT32_MAX
                                                      : (uint32_t)f;
}

/* x - floor(x), kept below 1 (@below_one: the largest value under 1). */
static double gcn_fract(double x, double below_one)
{
    return isinf(x) ? NAN : fmin(x - floor(x), below_one);
}

static int gcn_exp_of(double x)
{
    int e;

    frexp(x, &e);
    return e;
}

/*
 * Division support (LLVM's fp32/fp64 division sequence): div_scale
 * scales numerator or denominator so that the Newton-Raphson steps meet
 * no denormal and no overflow, and says in VCC when the quotient needs
 * scaling back; div_fmas does that (2^+-64 for fp32, 2^+-128 for fp64,
 * by the size of the quotient); div_fixup takes the special cases.
 * The scale factors are 2^64 (fp32) and 2^128 (fp64); quotients near
 * overflow are those with an exponent gap of 96 (768) or more.
 */
static double gcn_div_scale(double s0, double den, double num, bool is64,
                            bool *vcc)
{
    int bias = is64 ? 128 : 64, lim = is64 ? 768 : 96;
    double tiny = is64 ? DBL_MIN : FLT_MIN;
    double inv = 1.0 / den, q = num / den;

    *vcc = false;
    if (num == 0 || den == 0) {
        return NAN;
    }
    if (!is64) {
        /* the fp32 quotients of the tests below, as fp32 computes them */
        inv = (float)inv;
        q = (float)q;
    }
    if (gcn_exp_of(num) - gcn_exp_of(den) >= lim) {
        *vcc = true;                    /* quotient near overflow */
        return s0 == den ? ldexp(s0, bias) : s0;
    }
    if (fabs(den) < tiny) {
        return ldexp(s0, bias);         /* denormal denominator */
    }
    if (fabs(inv) < tiny && fabs(q) < tiny) {
        *vcc = true;
        return s0 == den ? ldexp(s0, -bias) : s0;
    }
    if (fabs(inv) < tiny) {
        return ldexp(s0, -bias);        /* both down: same quotient */
    }
    if (fabs(q) < tiny) {
        *vcc = true;                    /* denormal quotient */
        return s0 == num ? ldexp(s0, bias) : s0;
    }
    /* biased exponent at most the significand's bits */
    if (gcn_exp_of(num) - 1 <= (is64 ? 53 - 1023 : 23 - 127)) {
        return ldexp(s0, bias);         /* tiny numerator: both up */
    }
    return s0;
}

/* finite nonzero @x = *@m x 2^*@e, *@m in [2^52, 2^53) */
static void gcn_unpack(double x, uint64_t *m, int *e)
{
    *m = (uint64_t)ldexp(frexp(fabs(x), e), 53);
    *e -= 53;
}

/* @x x 2^@sh, the bits a right shift loses kept as a sticky bit 0 */
static unsigned __int128 gcn_align(unsigned __int128 x, int sh)
{
    if (sh >= 0) {
        return x << sh;                         /* no more than 21 */
    }
    if (sh <= -128) {
        return x != 0;
    }
    return x >> -sh | ((x & (((unsigned __int128)1 << -sh) - 1)) != 0);
}

/*
 * a x b + c x 2^@s rounded once (to nearest even) to a float of @p
 * significand bits whose least unit is 2^@emin (53, -1074: double;
 * 24, -149: float, returned exactly as a double), the sum exact in
 * integers: the larger term's top bit at bit 125 of 128, the smaller
 * shifted right to it with the bits it loses kept as a sticky bit 0 (an
 * odd value then stands for the open interval around it, and at least
 * 72 bits are rounded off). fma() then ldexp() would round twice: to
 * double, and again into the denormals (or to float).
 */
static double gcn_fma_scaled(double a, double b, double c, int s, int p,
                             int emin)
{
    unsigned __int128 P, C, M;
    uint64_t ma, mb, mc, r;
    int ea, eb, ec, ep, tp, tc, e, h, q, k;
    bool neg, sub;

    if (!isfinite(a) || !isfinite(b) || !isfinite(c) || a == 0 || b == 0) {
        /* c itself (or its special sum), scaled: one rounding */
        return ldexp(fma(a, b, c), s);
    }
    gcn_unpack(a, &ma, &ea);
    gcn_unpack(b, &mb, &eb);
    P = (unsigned __int128)ma * mb;             /* top bit 104 or 105 */
    ep = ea + eb;
    neg = signbit(a) != signbit(b);
    if (c == 0) {
        M = P;
        e = ep;
    } else {
        gcn_unpack(c, &mc, &ec);
        sub = signbit(c) != neg;
        tp = ep + (P >> 105 ? 105 : 104);       /* top bits' exponents */
        tc = ec + 52;
        /* both at the larger one's: top bit at 125 */
        e = (tp > tc ? tp : tc) - 125;
        P = gcn_align(P, ep - e);
        C = gcn_align(mc, ec - e);
        if (!sub) {
            M = P + C;
        } else if (P >= C) {
            M = P - C;
        } else {
            M = C - P;
            neg = !neg;
        }
        if (!M) {
            return 0.0;                         /* exact: +0 */
        }
    }
    for (h = 127; !((M >> h) & 1); h--) {
        /* M's top bit */
    }
    q = e + s + h - (p - 1);                    /* the result's unit */
    if (q < emin) {
        q = emin;
    }
    k = q - (e + s);                            /* bits rounded off */
    if (k <= 0) {
        r = (uint64_t)M;                        /* exact: fits @p bits */
    } else if (k > h + 1) {
        r = 0;                                  /* below half a unit */
    } else {
        unsigned __int128 rem = M & ((((unsigned __int128)1) << k) - 1);
        unsigned __int128 half = (unsigned __int128)1 << (k - 1);

        r = (uint64_t)(M >> k);
        r += rem > half || (rem == half && (r & 1));
    }
    return neg ? -ldexp((double)r, q) : ldexp((double)r, q);
}

/*
 * VCC: the fma scaled by 2^+-64 (fp32) or 2^+-128 (fp64), up when S2 (the
 * numerator) is at least 1, rounded once: a denormal quotient rounds
 * where the hardware's does.
 */
static double gcn_div_fmas(double a, double b, double c, bool vcc, bool is64)
{
    int bias = is64 ? 128 : 64;

    if (!vcc) {
        return is64 ? fma(a, b, c) : (double)fmaf((float)a, (float)b,
                                                  (float)c);
    }
    return gcn_fma_scaled(a, b, c, fabs(c) >= 1.0 ? bias : -bias,
                          is64 ? 53 : 24, is64 ? -1074 : -149);
}

/*
 * @f16: v_div_fixup_f16's definition (a NaN quotient stays NaN; fp16
 * division computes its quotient in fp32, where nothing overflows)
 */
static double gcn_div_fixup(double q, double den, double num, bool f16)
{
    bool neg = signbit(den) != signbit(num);

    if (isnan(num) || isnan(den)) {
        return NAN;
    }
    if ((den == 0 && num == 0) || (isinf(den) && isinf(num))) {
        return NAN;
    }
    if (den == 0 || isinf(num)) {
        return neg ? -INFINITY : INFINITY;
    }
    if (isinf(den) || num == 0) {
        return neg ? -0.0 : 0.0;
    }
    if (isnan(q) && !f16) {
        /*
         * The steps overflowed: only quotients 2^128 (2^1024) apart or
         * more do, and they are infinite (or zero, the other way round).
         */
        return gcn_exp_of(num) > gcn_exp_of(den) ? (neg ? -INFINITY : INFINITY)
                                                 : (neg ? -0.0 : 0.0);
    }
    return neg ? -fabs(q) : fabs(q);
}

/*
 * 2/pi's first 1201 fraction bits (b_1200 .. b_0 of the ISA's
 * v_trig_preop_f64), most significant first; the 15 bits past them zero
 */
static const uint64_t gcn_two_over_pi[19] = {
    0xa2f9836e4e441529ULL, 0xfc2757d1f534ddc0ULL, 0xdb6295993c439041ULL,
    0xfe5163abdebbc561ULL, 0xb7246e3a424dd2e0ULL, 0x06492eea09d1921cULL,
    0xfe1deb1cb129a73eULL, 0xe88235f52ebb4484ULL, 0xe99c7026b45f7e41ULL,
    0x3991d639835339f4ULL, 0x9c845f8bbdf9283bULL, 0x1ff897ffde05980fULL,
    0xef2f118b5a0a6d1fULL, 0x6d367ecf27cb09b7ULL, 0x4f463f669e5fea2dULL,
    0x7527bac7ebe5f17bULL, 0x3d0739f78a5292eaULL, 0x6bfb5fb11f8d5d08ULL,
    0x56033046fc7b0000ULL,
};

/*
 * v_trig_preop_f64: the 53 bits of 2/pi that follow its first
 * S1[4:0] x 53 fraction bits (more for large S0), scaled to their place
 */
static double gcn_trig_preop(uint64_t s0, uint32_t s1)
{
    unsigned e = (s0 >> 52) & 0x7ff, shift = (s1 & 31) * 53;
    uint64_t r = 0;
    int scale;

    if (e > 1077) {
        shift += e - 1077;
    }
    /* fraction bits shift + 1 .. shift + 53 (1-based), past 1201 zero */
    for (unsigned k = shift; k < shift + 53; k++) {
        unsigned bit = k < 64 * 19 ?
            (gcn_two_over_pi[k / 64] >> (63 - k % 64)) & 1 : 0;

        r = r << 1 | bit;
    }
    scale = -53 - (int)shift + (e >= 1968 ? 128 : 0);
    return ldexp((double)r, scale);
}

/* Float to a normalised 16-bit integer (snorm: [-1, 1], else [0, 1]) */
static uint32_t gcn_to_norm16(double x, bool snorm)
{
    if (isnan(x)) {
        return 0;
    }
    x = fmax(fmin(x, 1.0), snorm ? -1.0 : 0.0);
    return (uint16_t)(int32_t)nearbyint(x * (snorm ? 32767.0 : 65535.0));
}

/* Float to an unsigned byte, saturating (NaN: 0) */
static uint32_t gcn_to_u8(double x)
{
    return isnan(x) || x <= 0 ? 0 : x >= 255 ? 255 : (uint32_t)nearbyint(x);
}

/*
 * v_cube*: the major axis of the direction (S0, S1, S2) = (x, y, z): z
 * if it is the largest in magnitude, else y if at least x's, else x
 */
static double gcn_cube(unsigned op, double x, double y, double z)
{
    bool zm = fabs(z) >= fabs(x) && fabs(z) >= fabs(y);
    bool ym = !zm && fabs(y) >= fabs(x);

    switch (op) {
    case GCN_VOP3_V_CUBEID_F32:
        return zm ? (z < 0 ? 5.0 : 4.0) : ym ? (y < 0 ? 3.0 : 2.0)
                                             : (x < 0 ? 1.0 : 0.0);
    case GCN_VOP3_V_CUBESC_F32:
        return zm ? (z < 0 ? -x : x) : ym ? x : (x < 0 ? z : -z);
    case GCN_VOP3_V_CUBETC_F32:
        return zm ? -y : ym ? (y < 0 ? -z : z) : -y;
    default:                                        /* v_cubema_f32 */
        return 2.0 * (zm ? z : ym ? y : x);
    }
}

unsigned hsagpu_gcn_ftype(unsigned op, unsigned k)
{
    switch (op) {
    /* VOP2 */
    case GCN_VOP3_V_ADD_F32 ... GCN_VOP3_V_MUL_F32:
    case GCN_VOP3_V_MIN_F32:
    case GCN_VOP3_V_MAX_F32:
    case GCN_VOP3_V_MAC_F32 ... GCN_VOP3_V_MADAK_F32:
        return 32;
    case GCN_VOP3_V_ADD_F16 ... GCN_VOP3_V_MADAK_F16:
    case GCN_VOP3_V_MAX_F16:
    case GCN_VOP3_V_MIN_F16:
        return 16;
    case GCN_VOP3_V_LDEXP_F16:
        return k == 1 ? 0 : 16;
    /* VOP1 */
    case GCN_VOP3_V_CVT_I32_F64:
    case GCN_VOP3_V_CVT_U32_F64:
    case GCN_VOP3_V_FREXP_EXP_I32_F64:
        return k == 3 ? 0 : 64;
    case GCN_VOP3_V_CVT_F64_I32:
    case GCN_VOP3_V_CVT_F64_U32:
        return k == 3 ? 64 : 0;
    case GCN_VOP3_V_CVT_F32_I32:
    case GCN_VOP3_V_CVT_F32_U32:
    case GCN_VOP3_V_CVT_F32_UBYTE0 ... GCN_VOP3_V_CVT_F32_UBYTE3:
        return k == 3 ? 32 : 0;
    case GCN_VOP3_V_CVT_U32_F32:
    case GCN_VOP3_V_CVT_I32_F32:
    case GCN_VOP3_V_CVT_RPI_I32_F32:
    case GCN_VOP3_V_CVT_FLR_I32_F32:
    case GCN_VOP3_V_FREXP_EXP_I32_F32:
        return k == 3 ? 0 : 32;
    case GCN_VOP3_V_CVT_F16_F32:
        return k == 3 ? 16 : 32;
    case GCN_VOP3_V_CVT_F32_F16:
        return k == 3 ? 32 : 16;
    case GCN_VOP3_V_CVT_F32_F64:
        return k == 3 ? 32 : 64;
    case GCN_VOP3_V_CVT_F64_F32:
        return k == 3 ? 64 : 32;
    case GCN_VOP3_V_TRUNC_F64 ... GCN_VOP3_V_FLOOR_F64:
    case GCN_VOP3_V_RCP_F64:
    case GCN_VOP3_V_RSQ_F64:
    case GCN_VOP3_V_SQRT_F64:
    case GCN_VOP3_V_FREXP_MANT_F64:
    case GCN_VOP3_V_FRACT_F64:
        return 64;
    case GCN_VOP3_V_FRACT_F32 ... GCN_VOP3_V_RSQ_F32:
    case GCN_VOP3_V_SQRT_F32:
    case GCN_VOP3_V_SIN_F32:
    case GCN_VOP3_V_COS_F32:
    case GCN_VOP3_V_FREXP_MANT_F32:
        return 32;
    case GCN_VOP3_V_CVT_F16_U16:
    case GCN_VOP3_V_CVT_F16_I16:
        return k == 3 ? 16 : 0;
    case GCN_VOP3_V_CVT_U16_F16:
    case GCN_VOP3_V_CVT_I16_F16:
        return k == 3 ? 0 : 16;
    case GCN_VOP3_V_RCP_F16 ... GCN_VOP3_V_FREXP_MANT_F16:
    case GCN_VOP3_V_FLOOR_F16 ... GCN_VOP3_V_COS_F16:
        return 16;
    case GCN_VOP3_V_FREXP_EXP_I16_F16:
    case GCN_VOP3_V_CVT_NORM_I16_F16:
    case GCN_VOP3_V_CVT_NORM_U16_F16:
        return k == 3 ? 0 : 16;
    case GCN_VOP3_V_EXP_LEGACY_F32:
    case GCN_VOP3_V_LOG_LEGACY_F32:
        return 32;
    case GCN_VOP3_V_CVT_OFF_F32_I4:
        return k == 3 ? 32 : 0;
    /* VOP3 only */
    case GCN_VOP3_V_MAD_LEGACY_F32:
    case GCN_VOP3_V_MAD_F32:
    case GCN_VOP3_V_FMA_F32:
    case GCN_VOP3_V_MIN3_F32:
    case GCN_VOP3_V_MAX3_F32:
    case GCN_VOP3_V_MED3_F32:
    case GCN_VOP3_V_DIV_FIXUP_F32:
    case GCN_VOP3_V_DIV_SCALE_F32:
    case GCN_VOP3_V_DIV_FMAS_F32:
        return 32;
    case GCN_VOP3_V_FMA_F64:
    case GCN_VOP3_V_DIV_FIXUP_F64:
    case GCN_VOP3_V_DIV_SCALE_F64:
    case GCN_VOP3_V_DIV_FMAS_F64:
    case GCN_VOP3_V_ADD_F64 ... GCN_VOP3_V_MAX_F64:
        return 64;
    case GCN_VOP3_V_MAD_F16:
    case GCN_VOP3_V_FMA_F16:
    case GCN_VOP3_V_MAD_LEGACY_F16:
    case GCN_VOP3_V_FMA_LEGACY_F16:
    case GCN_VOP3_V_DIV_FIXUP_LEGACY_F16:
    case GCN_VOP3_V_DIV_FIXUP_F16:
    case GCN_VOP3_V_MIN3_F16:
    case GCN_VOP3_V_MAX3_F16:
    case GCN_VOP3_V_MED3_F16:
        return 16;
    case GCN_VOP3_V_CUBEID_F32 ... GCN_VOP3_V_CUBEMA_F32:
        return 32;
    case GCN_VOP3_V_CVT_PK_U8_F32:
    case GCN_VOP3_V_CVT_PKACCUM_U8_F32:
        return k == 0 ? 32 : 0;
    case GCN_VOP3_V_TRIG_PREOP_F64:
        return k == 1 ? 0 : 64;
    case GCN_VOP3_V_CVT_PKNORM_I16_F32:
    case GCN_VOP3_V_CVT_PKNORM_U16_F32:
        return k == 3 ? 0 : 32;
    case GCN_VOP3_V_CVT_PKNORM_I16_F16:
    case GCN_VOP3_V_CVT_PKNORM_U16_F16:
        return k == 3 ? 0 : 16;
    case GCN_VOP3_V_LDEXP_F64:
        return k == 1 ? 0 : 64;
    case GCN_VOP3_V_LDEXP_F32:
        return k == 1 ? 0 : 32;
    case GCN_VOP3_V_CVT_PKRTZ_F16_F32:
        return k == 3 ? 0 : 32;
    case GCN_VOP3_V_PACK_B32_F16:
        return k == 3 ? 0 : 16;
    default:
        return 0;
    }
}

/* A source as a double, in its type (denormals flushed as the mode says) */
static double gcn_get(const HsaGpuGcnGroup *g, unsigned t, uint64_t v)
{
    return t == 64 ? gcn_d(v, g->ftz64) :
           t == 32 ? (double)gcn_f(v, g->ftz32) :
           (double)hsagpu_gcn_h2f(hsagpu_gcn_hftz(v, g->ftz64));
}

/* Is @v (of type @t, as its bits) a signalling NaN? */
static bool gcn_snan(unsigned t, uint64_t v)
{
    return t == 64 ? (v & ~F64_SIGN) > F64_EXP && !(v & (1ULL << 51)) :
           t == 32 ? (v & 0x7fffffff) > F32_EXP && !(v & (1u << 22)) :
           (v & 0x7fff) > 0x7c00 && !(v & 0x200);
}

/* A result of type @t from a double (rounded once to it) */
static uint64_t gcn_put(const HsaGpuGcnGroup *g, unsigned t, double v)
{
    return t == 64 ? gcn_ud(v, g->ftz64) :
           t == 32 ? gcn_uf((float)v, g->ftz32) :
           hsagpu_gcn_hftz(hsagpu_gcn_f2h(v, false), g->ftz64);
}

bool hsagpu_gcn_falu(const HsaGpuGcnGroup *g, const uint8_t t[4],
                     unsigned op, uint64_t sa, uint64_t sb, uint64_t sc,
                     uint64_t old, bool *flag, uint64_t *d)
{
    unsigned ts = t[0], td = t[3];
    double a = ts ? gcn_get(g, ts, sa) : 0, b = 0, c = 0, r;
    bool f32 = ts == 32;

    if (t[1]) {
        b = gcn_get(g, ts, sb);
    }
    if (t[2]) {
        c = gcn_get(g, ts, sc);
    }
    switch (op) {
    case GCN_VOP3_V_ADD_F32:
    case GCN_VOP3_V_ADD_F16:
    case GCN_VOP3_V_ADD_F64:
        r = f32 ? (double)((float)a + (float)b) : a + b;
        break;
    case GCN_VOP3_V_SUB_F32:
    case GCN_VOP3_V_SUB_F16:
        r = f32 ? (double)((float)a - (float)b) : a - b;
        break;
    case GCN_VOP3_V_SUBREV_F32:
    case GCN_VOP3_V_SUBREV_F16:
        r = f32 ? (double)((float)b - (float)a) : b - a;
        break;
    case GCN_VOP3_V_MUL_LEGACY_F32:
        r = a == 0 || b == 0 ? 0.0 : (float)a * (float)b;
        break;
    case GCN_VOP3_V_MUL_F32:
    case GCN_VOP3_V_MUL_F16:
    case GCN_VOP3_V_MUL_F64:
        r = f32 ? (double)((float)a * (float)b) : a * b;
        break;
    case GCN_VOP3_V_MIN_F32:
    case GCN_VOP3_V_MIN_F16:
    case GCN_VOP3_V_MIN_F64:
    case GCN_VOP3_V_MAX_F32:
    case GCN_VOP3_V_MAX_F16:
    case GCN_VOP3_V_MAX_F64:
        r = gcn_minmax(a, gcn_snan(ts, sa), b, gcn_snan(ts, sb),
                       op == GCN_VOP3_V_MAX_F32 || op == GCN_VOP3_V_MAX_F16 ||
                       op == GCN_VOP3_V_MAX_F64);
        break;
    /* mac, madmk, madak, mad: not fused (the product is rounded first) */
    case GCN_VOP3_V_MAC_F32:
        r = (float)((float)a * (float)b) + gcn_f(old, g->ftz32);
        break;
    case GCN_VOP3_V_MAC_F16:
        r = hsagpu_gcn_h2f(hsagpu_gcn_f2h(a * b, false)) +
            gcn_get(g, 16, old);
        break;
    case GCN_VOP3_V_MADMK_F32:                      /* a * K + b */
        r = (float)((float)a * gcn_f(sc, g->ftz32)) + (float)b;
        break;
    case GCN_VOP3_V_MADAK_F32:                      /* a * b + K */
        r = (float)((float)a * (float)b) + gcn_f(sc, g->ftz32);
        break;
    case GCN_VOP3_V_MADMK_F16:
        r = hsagpu_gcn_h2f(hsagpu_gcn_f2h(a * gcn_get(g, 16, sc), false)) +
            b;
        break;
    case GCN_VOP3_V_MADAK_F16:
        r = hsagpu_gcn_h2f(hsagpu_gcn_f2h(a * b, false)) +
            gcn_get(g, 16, sc);
        break;
    case GCN_VOP3_V_LDEXP_F16:
    case GCN_VOP3_V_LDEXP_F64:
    case GCN_VOP3_V_LDEXP_F32:
        r = ldexp(a, (int32_t)(op == GCN_VOP3_V_LDEXP_F16 ? (int16_t)sb
                                                          : (int32_t)sb));
        break;
    case GCN_VOP3_V_CVT_I32_F64:
    case GCN_VOP3_V_CVT_I32_F32:
        *d = gcn_to_i32(trunc(a));
        return true;
    case GCN_VOP3_V_CVT_U32_F32:
    case GCN_VOP3_V_CVT_U32_F64:
        *d = gcn_to_u32(trunc(a));
        return true;
    case GCN_VOP3_V_CVT_RPI_I32_F32:
        *d = gcn_to_i32(floor(a + 0.5));
        return true;
    case GCN_VOP3_V_CVT_FLR_I32_F32:
        *d = gcn_to_i32(floor(a));
        return true;
    case GCN_VOP3_V_CVT_F64_I32:
    case GCN_VOP3_V_CVT_F32_I32:
        r = (int32_t)sa;
        break;
    case GCN_VOP3_V_CVT_F32_U32:
    case GCN_VOP3_V_CVT_F64_U32:
        r = (uint32_t)sa;
        break;
    case GCN_VOP3_V_CVT_F32_UBYTE0 ... GCN_VOP3_V_CVT_F32_UBYTE3:
        r = (sa >> (8 * (op - GCN_VOP3_V_CVT_F32_UBYTE0))) & 0xff;
        break;
    case GCN_VOP3_V_CVT_F16_F32:
    case GCN_VOP3_V_CVT_F32_F16:
    case GCN_VOP3_V_CVT_F32_F64:
    case GCN_VOP3_V_CVT_F64_F32:
        r = a;
        break;
    case GCN_VOP3_V_TRUNC_F64:
    case GCN_VOP3_V_TRUNC_F32:
    case GCN_VOP3_V_TRUNC_F16:
        r = trunc(a);
        break;
    case GCN_VOP3_V_CEIL_F64:
    case GCN_VOP3_V_CEIL_F32:
    case GCN_VOP3_V_CEIL_F16:
        r = ceil(a);
        break;
    case GCN_VOP3_V_RNDNE_F64:
    case GCN_VOP3_V_RNDNE_F32:
    case GCN_VOP3_V_RNDNE_F16:
        r = nearbyint(a);
        break;
    case GCN_VOP3_V_FLOOR_F64:
    case GCN_VOP3_V_FLOOR_F32:
    case GCN_VOP3_V_FLOOR_F16:
        r = floor(a);
        break;
    case GCN_VOP3_V_FRACT_F32:
        r = gcn_fract(a, nextafterf(1.0f, 0.0f));
        break;
    case GCN_VOP3_V_FRACT_F64:
        r = gcn_fract(a, nextafter(1.0, 0.0));
        break;
    case GCN_VOP3_V_FRACT_F16:
        r = gcn_fract(a, 1.0 - 1.0 / 2048);         /* half's under 1 */
        break;
    case GCN_VOP3_V_EXP_F32:
    case GCN_VOP3_V_EXP_F16:
    case GCN_VOP3_V_EXP_LEGACY_F32:
        r = exp2f((float)a);
        break;
    case GCN_VOP3_V_LOG_F32:
    case GCN_VOP3_V_LOG_F16:
    case GCN_VOP3_V_LOG_LEGACY_F32:
        r = log2f((float)a);
        break;
    case GCN_VOP3_V_SIN_F16:
        r = sinf((float)(a * 2 * M_PI));
        break;
    case GCN_VOP3_V_COS_F16:
        r = cosf((float)(a * 2 * M_PI));
        break;
    case GCN_VOP3_V_CVT_OFF_F32_I4:
        /* a signed 4-bit integer, in sixteenths */
        r = ((int32_t)((uint32_t)sa << 28) >> 28) / 16.0;
        break;
    case GCN_VOP3_V_RCP_F32:
    case GCN_VOP3_V_RCP_IFLAG_F32:
    case GCN_VOP3_V_RCP_F64:
    case GCN_VOP3_V_RCP_F16:
        r = f32 ? (double)(1.0f / (float)a) : 1.0 / a;
        break;
    case GCN_VOP3_V_RSQ_F32:
    case GCN_VOP3_V_RSQ_F64:
    case GCN_VOP3_V_RSQ_F16:
        /* in double, rounded once to the result's type (within 1 ulp) */
        r = 1.0 / sqrt(a);
        break;
    case GCN_VOP3_V_SQRT_F32:
    case GCN_VOP3_V_SQRT_F64:
    case GCN_VOP3_V_SQRT_F16:
        r = sqrt(a);
        break;
    case GCN_VOP3_V_SIN_F32:
        r = sinf((float)(a * 2 * M_PI));
        break;
    case GCN_VOP3_V_COS_F32:
        r = cosf((float)(a * 2 * M_PI));
        break;
    case GCN_VOP3_V_FREXP_EXP_I32_F64:
    case GCN_VOP3_V_FREXP_EXP_I32_F32:
        *d = isinf(a) || isnan(a) ? 0 : (uint32_t)gcn_exp_of(a);
        return true;
    case GCN_VOP3_V_FREXP_EXP_I16_F16:
        *d = isinf(a) || isnan(a) ? 0 : (uint16_t)gcn_exp_of(a);
        return true;
    case GCN_VOP3_V_FREXP_MANT_F64:
    case GCN_VOP3_V_FREXP_MANT_F32:
    case GCN_VOP3_V_FREXP_MANT_F16:
        r = isinf(a) || isnan(a) ? a : frexp(a, &(int){ 0 });
        break;
    case GCN_VOP3_V_CVT_F16_U16:
        r = (uint16_t)sa;
        break;
    case GCN_VOP3_V_CVT_F16_I16:
        r = (int16_t)sa;
        break;
    case GCN_VOP3_V_CVT_U16_F16:
        *d = isnan(a) || a <= 0 ? 0 : a >= 65535 ? 65535 : (uint16_t)a;
        return true;
    case GCN_VOP3_V_CVT_I16_F16:
        *d = (uint16_t)(isnan(a) ? 0 : a <= -32768 ? -32768 :
                        a >= 32767 ? 32767 : (int16_t)a);
        return true;
    case GCN_VOP3_V_MAD_LEGACY_F32:
        r = (a == 0 || b == 0 ? 0.0f : (float)a * (float)b) + (float)c;
        break;
    case GCN_VOP3_V_MAD_F32:
        r = (float)((float)a * (float)b) + (float)c;
        break;
    case GCN_VOP3_V_FMA_F32:
        r = fmaf((float)a, (float)b, (float)c);
        break;
    case GCN_VOP3_V_MAD_F16:
    case GCN_VOP3_V_MAD_LEGACY_F16:
        r = hsagpu_gcn_h2f(hsagpu_gcn_f2h(a * b, false)) + c;
        break;
    case GCN_VOP3_V_FMA_F64:
    case GCN_VOP3_V_FMA_F16:
    case GCN_VOP3_V_FMA_LEGACY_F16:
        r = fma(a, b, c);
        break;
    case GCN_VOP3_V_MIN3_F16:
    case GCN_VOP3_V_MAX3_F16:
        r = gcn_minmax3(a, gcn_snan(ts, sa), b, gcn_snan(ts, sb), c,
                        gcn_snan(ts, sc), op == GCN_VOP3_V_MAX3_F16);
        break;
    case GCN_VOP3_V_MED3_F16:
        r = gcn_med3(a, gcn_snan(ts, sa), b, gcn_snan(ts, sb), c,
                     gcn_snan(ts, sc));
        break;
    case GCN_VOP3_V_DIV_FIXUP_F16:
    case GCN_VOP3_V_DIV_FIXUP_LEGACY_F16:
        r = gcn_div_fixup(a, b, c, true);
        break;
    case GCN_VOP3_V_CUBEID_F32 ... GCN_VOP3_V_CUBEMA_F32:
        r = gcn_cube(op, a, b, c);
        break;
    case GCN_VOP3_V_CVT_PK_U8_F32:
    case GCN_VOP3_V_CVT_PKACCUM_U8_F32: {
        /* a byte of S2 (pkaccum: of the destination) replaced */
        unsigned sh = 8 * (sb & 3);
        uint32_t base = op == GCN_VOP3_V_CVT_PK_U8_F32 ? (uint32_t)sc
                                                       : (uint32_t)old;

        *d = (base & ~(0xffu << sh)) | gcn_to_u8(a) << sh;
        return true;
    }
    case GCN_VOP3_V_TRIG_PREOP_F64:
        r = gcn_trig_preop(sa, (uint32_t)sb);
        break;
    case GCN_VOP3_V_CVT_PKNORM_I16_F32:
    case GCN_VOP3_V_CVT_PKNORM_I16_F16:
    case GCN_VOP3_V_CVT_PKNORM_U16_F32:
    case GCN_VOP3_V_CVT_PKNORM_U16_F16: {
        bool sn = op == GCN_VOP3_V_CVT_PKNORM_I16_F32 ||
                  op == GCN_VOP3_V_CVT_PKNORM_I16_F16;

        *d = gcn_to_norm16(a, sn) | gcn_to_norm16(b, sn) << 16;
        return true;
    }
    case GCN_VOP3_V_CVT_NORM_I16_F16:
    case GCN_VOP3_V_CVT_NORM_U16_F16:
        *d = gcn_to_norm16(a, op == GCN_VOP3_V_CVT_NORM_I16_F16);
        return true;
    case GCN_VOP3_V_MIN3_F32:
    case GCN_VOP3_V_MAX3_F32:
        r = gcn_minmax3(a, gcn_snan(ts, sa), b, gcn_snan(ts, sb), c,
                        gcn_snan(ts, sc), op == GCN_VOP3_V_MAX3_F32);
        break;
    case GCN_VOP3_V_MED3_F32:
        r = gcn_med3(a, gcn_snan(ts, sa), b, gcn_snan(ts, sb), c,
                     gcn_snan(ts, sc));
        break;
    case GCN_VOP3_V_DIV_FIXUP_F32:
    case GCN_VOP3_V_DIV_FIXUP_F64:
        r = gcn_div_fixup(a, b, c, false);
        break;
    case GCN_VOP3_V_DIV_SCALE_F32:
    case GCN_VOP3_V_DIV_SCALE_F64:
        r = gcn_div_scale(a, b, c, op == GCN_VOP3_V_DIV_SCALE_F64, flag);
        break;
    case GCN_VOP3_V_DIV_FMAS_F32:
    case GCN_VOP3_V_DIV_FMAS_F64:
        r = gcn_div_fmas(a, b, c, *flag, op == GCN_VOP3_V_DIV_FMAS_F64);
        break;
    case GCN_VOP3_V_CVT_PKRTZ_F16_F32:
        *d = hsagpu_gcn_hftz(hsagpu_gcn_f2h(a, true), g->ftz64) |
             (uint32_t)hsagpu_gcn_hftz(hsagpu_gcn_f2h(b, true), g->ftz64)
             << 16;
        return true;
    case GCN_VOP3_V_PACK_B32_F16:
        *d = (sa & 0xffff) | (uint32_t)(sb & 0xffff) << 16;
        return true;
    default:
        return false;
    }
    *d = gcn_put(g, td, r);
    return true;
}

/* Output modifier and clamp of a float result of type @t */
uint64_t hsagpu_gcn_omod(const HsaGpuGcnGroup *g, unsigned t, uint64_t v,
                         unsigned omod, bool clamp)
{
    double f;

    if (!omod && !clamp) {
        return v;
    }
    f = gcn_get(g, t, v);
    f = omod == 1 ? f * 2 : omod == 2 ? f * 4 : omod == 3 ? f / 2 : f;
    if (clamp) {
        f = isnan(f) ? 0 : f < 0 ? 0 : f > 1 ? 1 : f;
    }
    return gcn_put(g, t, f);
}

/* The v_cmp_class mask bit of a value */
static unsigned gcn_class(double x, bool snan)
{
    bool neg = signbit(x);

    if (isnan(x)) {
        return snan ? 0 : 1;
    }
    if (isinf(x)) {
        return neg ? 2 : 9;
    }
    if (x == 0) {
        return neg ? 5 : 6;
    }
    if (fpclassify(x) == FP_SUBNORMAL) {
        return neg ? 4 : 7;
    }
    return neg ? 3 : 8;
}

bool hsagpu_gcn_fcmp(const HsaGpuGcnGroup *g, unsigned op, uint64_t a,
                     uint64_t b, bool *r)
{
    unsigned t, k = GCN_VOPC_REL(op);
    double fa, fb;
    bool un;

    if (op >= GCN_VOP3_V_CMP_CLASS_F32 && op <= GCN_VOP3_V_CMPX_CLASS_F16) {
        t = op < GCN_VOP3_V_CMP_CLASS_F64 ? 32 :
            op < GCN_VOP3_V_CMP_CLASS_F16 ? 64 : 16;
        /* class sees the value itself: denormals are not flushed here */
        fa = t == 64 ? gcn_d(a, false) : t == 32 ? (double)gcn_f(a, false)
                                                 : hsagpu_gcn_h2f(a);
        if (t == 32 && fpclassify((float)fa) == FP_SUBNORMAL) {
            *r = (b >> (signbit(fa) ? 4 : 7)) & 1;
            return true;
        }
        if (t == 16 && !(a & 0x7c00) && (a & 0x3ff)) {
            *r = (b >> (a & 0x8000 ? 4 : 7)) & 1;
            return true;
        }
        *r = (b >> gcn_class(fa, gcn_snan(t, a))) & 1;
        return true;
    }
    if (op >= GCN_VOP3_V_CMP_F_F16 && op <= GCN_VOP3_V_CMPX_TRU_F64) {
        t = op < GCN_VOP3_V_CMP_F_F32 ? 16 :
            op < GCN_VOP3_V_CMP_F_F64 ? 32 : 64;
        fa = gcn_get(g, t, a);
        fb = gcn_get(g, t, b);
        un = isnan(fa) || isnan(fb);
        /* U, NGE, NLG, NGT, NLE, NEQ, NLT, TRU: the negations, reversed */
        *r = GCN_VOPC_NEG_U(op) ?
             !hsagpu_gcn_rel(7 - k, fa < fb, fa == fb, fa > fb, un) :
             hsagpu_gcn_rel(k, fa < fb, fa == fb, fa > fb, un);
        return true;
    }
    return false;
}
