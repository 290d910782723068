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

/* v_med3: the middle value; with a NaN operand, the least (min3) */
static double gcn_med3(double a, double b, double c)
{
    if (isnan(a) || isnan(b) || isnan(c)) {
        return gcn_min(gcn_min(a, b), c);
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

static double gcn_div_fmas(double a, double b, double c, bool vcc, bool is64)
{
    int bias = is64 ? 128 : 64;

    if (!vcc) {
        return is64 ? fma(a, b, c) : (double)fmaf((float)a, (float)b,
                                                  (float)c);
    }
    /* scaled before the fp32 rounding: a denormal quotient rounds once */
    return ldexp(fma(a, b, c), fabs(c) >= 1.0 ? bias : -bias);
}

static double gcn_div_fixup(double q, double den, double num)
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
    if (isnan(q)) {
        /*
         * The steps overflowed: only quotients 2^128 (2^1024) apart or
         * more do, and they are infinite (or zero, the other way round).
         */
        return gcn_exp_of(num) > gcn_exp_of(den) ? (neg ? -INFINITY : INFINITY)
                                                 : (neg ? -0.0 : 0.0);
    }
    return neg ? -fabs(q) : fabs(q);
}

unsigned hsagpu_gcn_ftype(unsigned op, unsigned k)
{
    switch (op) {
    /* VOP2 */
    case 0x101 ... 0x105:
    case 0x10a:
    case 0x10b:
    case 0x116 ... 0x118:
        return 32;
    case 0x11f ... 0x125:
    case 0x12d:
    case 0x12e:
        return 16;
    case 0x133:                                     /* v_ldexp_f16 */
        return k == 1 ? 0 : 16;
    /* VOP1 */
    case 0x143:                                     /* v_cvt_i32_f64 */
    case 0x155:
    case 0x170:
        return k == 3 ? 0 : 64;
    case 0x144:                                     /* v_cvt_f64_i32 */
    case 0x156:
        return k == 3 ? 64 : 0;
    case 0x145:                                     /* v_cvt_f32_i32, u32 */
    case 0x146:
    case 0x151 ... 0x154:                           /* v_cvt_f32_ubyteN */
        return k == 3 ? 32 : 0;
    case 0x147:
    case 0x148:
    case 0x14c:
    case 0x14d:
    case 0x173:
        return k == 3 ? 0 : 32;
    case 0x14a:                                     /* v_cvt_f16_f32 */
        return k == 3 ? 16 : 32;
    case 0x14b:
        return k == 3 ? 32 : 16;
    case 0x14f:                                     /* v_cvt_f32_f64 */
        return k == 3 ? 32 : 64;
    case 0x150:
        return k == 3 ? 64 : 32;
    case 0x157 ... 0x15a:
    case 0x165:
    case 0x166:
    case 0x168:
    case 0x171:
    case 0x172:
        return 64;
    case 0x15b ... 0x164:
    case 0x167:
    case 0x169:
    case 0x16a:
    case 0x174:
        return 32;
    case 0x179:                                     /* v_cvt_f16_u16, i16 */
    case 0x17a:
        return k == 3 ? 16 : 0;
    case 0x17b:
    case 0x17c:
        return k == 3 ? 0 : 16;
    case 0x17d ... 0x17f:
    case 0x184 ... 0x188:
        return 16;
    /* VOP3 only */
    case 0x1c0:
    case 0x1c1:
    case 0x1cb:
    case 0x1d0:
    case 0x1d3:
    case 0x1d6:
    case 0x1de:
    case 0x1e0:
    case 0x1e2:
        return 32;
    case 0x1cc:
    case 0x1df:
    case 0x1e1:
    case 0x1e3:
    case 0x280 ... 0x283:
        return 64;
    case 0x203:
    case 0x206:
        return 16;
    case 0x284:                                     /* v_ldexp_f64 */
        return k == 1 ? 0 : 64;
    case 0x288:                                     /* v_ldexp_f32 */
        return k == 1 ? 0 : 32;
    case 0x296:                                     /* v_cvt_pkrtz_f16_f32 */
        return k == 3 ? 0 : 32;
    case 0x2a0:                                     /* v_pack_b32_f16 */
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
           (double)hsagpu_gcn_h2f((uint16_t)v);
}

/* A result of type @t from a double (rounded once to it) */
static uint64_t gcn_put(const HsaGpuGcnGroup *g, unsigned t, double v)
{
    return t == 64 ? gcn_ud(v, g->ftz64) :
           t == 32 ? gcn_uf((float)v, g->ftz32) : hsagpu_gcn_f2h(v, false);
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
    case 0x101:
    case 0x11f:
    case 0x280:
        r = f32 ? (double)((float)a + (float)b) : a + b;
        break;
    case 0x102:
    case 0x120:
        r = f32 ? (double)((float)a - (float)b) : a - b;
        break;
    case 0x103:
    case 0x121:
        r = f32 ? (double)((float)b - (float)a) : b - a;
        break;
    case 0x104:                                     /* v_mul_legacy_f32 */
        r = a == 0 || b == 0 ? 0.0 : (float)a * (float)b;
        break;
    case 0x105:
    case 0x122:
    case 0x281:
        r = f32 ? (double)((float)a * (float)b) : a * b;
        break;
    case 0x10a:
    case 0x12e:
    case 0x282:
        r = gcn_min(a, b);
        break;
    case 0x10b:
    case 0x12d:
    case 0x283:
        r = gcn_max(a, b);
        break;
    /* mac, madmk, madak, mad: not fused (the product is rounded first) */
    case 0x116:                                     /* v_mac_f32 */
        r = (float)((float)a * (float)b) + gcn_f(old, g->ftz32);
        break;
    case 0x123:                                     /* v_mac_f16 */
        r = hsagpu_gcn_h2f(hsagpu_gcn_f2h(a * b, false)) +
            hsagpu_gcn_h2f((uint16_t)old);
        break;
    case 0x117:                                     /* madmk: a * K + b */
        r = (float)((float)a * gcn_f(sc, g->ftz32)) + (float)b;
        break;
    case 0x118:                                     /* madak: a * b + K */
        r = (float)((float)a * (float)b) + gcn_f(sc, g->ftz32);
        break;
    case 0x124:                                     /* v_madmk_f16 */
        r = hsagpu_gcn_h2f(hsagpu_gcn_f2h(a * hsagpu_gcn_h2f((uint16_t)sc),
                                          false)) + b;
        break;
    case 0x125:                                     /* v_madak_f16 */
        r = hsagpu_gcn_h2f(hsagpu_gcn_f2h(a * b, false)) +
            hsagpu_gcn_h2f((uint16_t)sc);
        break;
    case 0x133:
    case 0x284:
    case 0x288:                                     /* v_ldexp */
        r = ldexp(a, (int32_t)(op == 0x133 ? (int16_t)sb : (int32_t)sb));
        break;
    case 0x143:
    case 0x148:
        *d = gcn_to_i32(trunc(a));
        return true;
    case 0x147:
    case 0x155:
        *d = gcn_to_u32(trunc(a));
        return true;
    case 0x14c:                                     /* v_cvt_rpi_i32_f32 */
        *d = gcn_to_i32(floor(a + 0.5));
        return true;
    case 0x14d:                                     /* v_cvt_flr_i32_f32 */
        *d = gcn_to_i32(floor(a));
        return true;
    case 0x144:
    case 0x145:
        r = (int32_t)sa;
        break;
    case 0x146:
    case 0x156:
        r = (uint32_t)sa;
        break;
    case 0x151 ... 0x154:
        r = (sa >> (8 * (op - 0x151))) & 0xff;
        break;
    case 0x14a:                                     /* conversions */
    case 0x14b:
    case 0x14f:
    case 0x150:
        r = a;
        break;
    case 0x157:
    case 0x15c:
    case 0x186:
        r = trunc(a);
        break;
    case 0x158:
    case 0x15d:
    case 0x185:
        r = ceil(a);
        break;
    case 0x159:
    case 0x15e:
    case 0x187:
        r = nearbyint(a);
        break;
    case 0x15a:
    case 0x15f:
    case 0x184:
        r = floor(a);
        break;
    case 0x15b:
        r = gcn_fract(a, nextafterf(1.0f, 0.0f));
        break;
    case 0x172:
        r = gcn_fract(a, nextafter(1.0, 0.0));
        break;
    case 0x188:
        r = gcn_fract(a, 1.0 - 1.0 / 2048);         /* half's under 1 */
        break;
    case 0x160:                                     /* v_exp_f32: 2^x */
        r = exp2f((float)a);
        break;
    case 0x161:                                     /* v_log_f32: log2 */
        r = log2f((float)a);
        break;
    case 0x162:
    case 0x163:
    case 0x165:
    case 0x17d:
        r = f32 ? (double)(1.0f / (float)a) : 1.0 / a;
        break;
    case 0x164:
    case 0x166:
    case 0x17f:
        r = f32 ? (double)(1.0f / sqrtf((float)a)) : 1.0 / sqrt(a);
        break;
    case 0x167:
    case 0x168:
    case 0x17e:
        r = sqrt(a);
        break;
    case 0x169:                                     /* sin(2 pi x) */
        r = sinf((float)(a * 2 * M_PI));
        break;
    case 0x16a:
        r = cosf((float)(a * 2 * M_PI));
        break;
    case 0x170:
    case 0x173:                                     /* v_frexp_exp_i32 */
        *d = isinf(a) || isnan(a) ? 0 : (uint32_t)gcn_exp_of(a);
        return true;
    case 0x171:
    case 0x174:                                     /* v_frexp_mant */
        r = isinf(a) || isnan(a) ? a : frexp(a, &(int){ 0 });
        break;
    case 0x179:
        r = (uint16_t)sa;
        break;
    case 0x17a:
        r = (int16_t)sa;
        break;
    case 0x17b:                                     /* v_cvt_u16_f16 */
        *d = isnan(a) || a <= 0 ? 0 : a >= 65535 ? 65535 : (uint16_t)a;
        return true;
    case 0x17c:
        *d = (uint16_t)(isnan(a) ? 0 : a <= -32768 ? -32768 :
                        a >= 32767 ? 32767 : (int16_t)a);
        return true;
    case 0x1c0:                                     /* v_mad_legacy_f32 */
        r = (a == 0 || b == 0 ? 0.0f : (float)a * (float)b) + (float)c;
        break;
    case 0x1c1:                                     /* v_mad_f32 */
        r = (float)((float)a * (float)b) + (float)c;
        break;
    case 0x1cb:
        r = fmaf((float)a, (float)b, (float)c);
        break;
    case 0x203:                                     /* v_mad_f16 */
        r = hsagpu_gcn_h2f(hsagpu_gcn_f2h(a * b, false)) + c;
        break;
    case 0x1cc:
    case 0x206:
        r = fma(a, b, c);
        break;
    case 0x1d0:
        r = gcn_min(gcn_min(a, b), c);
        break;
    case 0x1d3:
        r = gcn_max(gcn_max(a, b), c);
        break;
    case 0x1d6:
        r = gcn_med3(a, b, c);
        break;
    case 0x1de:
    case 0x1df:
        r = gcn_div_fixup(a, b, c);
        break;
    case 0x1e0:
    case 0x1e1:
        r = gcn_div_scale(a, b, c, op == 0x1e1, flag);
        break;
    case 0x1e2:
    case 0x1e3:
        r = gcn_div_fmas(a, b, c, *flag, op == 0x1e3);
        break;
    case 0x296:                                     /* v_cvt_pkrtz_f16_f32 */
        *d = hsagpu_gcn_f2h(a, true) |
             (uint32_t)hsagpu_gcn_f2h(b, true) << 16;
        return true;
    case 0x2a0:                                     /* v_pack_b32_f16 */
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

/* Is @v (of type @t, as its bits) a signalling NaN? */
static bool gcn_snan(unsigned t, uint64_t v)
{
    return t == 64 ? (v & ~F64_SIGN) > F64_EXP && !(v & (1ULL << 51)) :
           t == 32 ? (v & 0x7fffffff) > F32_EXP && !(v & (1u << 22)) :
           (v & 0x7fff) > 0x7c00 && !(v & 0x200);
}

bool hsagpu_gcn_fcmp(const HsaGpuGcnGroup *g, unsigned op, uint64_t a,
                     uint64_t b, bool *r)
{
    unsigned t, k = op & 7;
    double fa, fb;
    bool un;

    if (op >= 0x10 && op <= 0x15) {                 /* v_cmp(x)_class */
        t = op < 0x12 ? 32 : op < 0x14 ? 64 : 16;
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
    if (op >= 0x20 && op <= 0x7f) {
        t = op < 0x40 ? 16 : op < 0x60 ? 32 : 64;
        fa = gcn_get(g, t, a);
        fb = gcn_get(g, t, b);
        un = isnan(fa) || isnan(fb);
        /* U, NGE, NLG, NGT, NLE, NEQ, NLT, TRU: the negations, reversed */
        *r = op & 8 ? !hsagpu_gcn_rel(7 - k, fa < fb, fa == fb, fa > fb, un)
                    : hsagpu_gcn_rel(k, fa < fb, fa == fb, fa > fb, un);
        return true;
    }
    return false;
}
