// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit test of the GCN interpreter, one instruction at a time. The
 * encodings come from Debian's llvm-mc (tests/gcn/insns.s, assembled at
 * build time into insns.enc); each is run once on a wave whose 64 lanes
 * hold random and special values, and every lane's result is compared
 * with the value computed here on the CPU, written from the ISA's
 * definition of the instruction (not from the interpreter's code).
 * Sources are v10, v12, v14 (or pairs from them) and s10, s12; results
 * v0 (v[0:1]), s0 (s[0:1]), VCC or s[20:21], and SCC. Memory
 * instructions read a 64 KiB LDS of lds_pat() and memory of mem_pat()
 * from 0x10000 up. TAP output.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/gcn/hsagpu-gcn-int.h"

#include "tap.h"

#ifndef GCN_ENC
#define GCN_ENC "insns.enc"
#endif

typedef uint64_t (*GcnExpect)(uint64_t a, uint64_t b, uint64_t c);

/* Operand shapes */
#define W0      (1u << 0)       /* source 0 is 64-bit */
#define W1      (1u << 1)
#define W2      (1u << 2)
#define WD      (1u << 3)       /* the result is 64-bit */
#define CMP     (1u << 4)       /* the result is a lane mask in VCC */
#define CMPS    (1u << 5)       /* ... in s[20:21] */
#define SCL     (1u << 6)       /* scalar: s10, s12 -> s0, SCC */
#define SCC     (1u << 7)       /* scalar compare: SCC only */
#define XL      (1u << 8)       /* across lanes: xfn gives every lane */
#define SWP     (1u << 9)       /* v_swap_b32 v0, v10: both checked */
/*
 * DS on the LDS: lane l's address v10 = 8 l, its LDS word (dword; WD: a
 * qword) starts as an input; fn(old, data0 v12, data1 v14) is the word
 * after, and with RTN v0 (v[0:1]) must hold the old one
 */
#define LDS     (1u << 10)
#define RTN     (1u << 11)
#define FTZ     (1u << 12)      /* fp16/fp64 denormals flushed (MODE) */
#define VCI     (1u << 13)      /* VCC holds VCC_PAT (lane_vcc: its bit) */
#define EXM     (1u << 14)      /* EXEC is EXEC_PAT: other lanes unchanged */
#define CX      (1u << 15)      /* v_cmpx: EXEC checked too (CMP, XL) */
#define MRD     (1u << 16)      /* scalar result in s[m0] (s_movreld) */
/*
 * VOPC with DPP, hand-assembled (LLVM 15 does not encode it for gfx9):
 * insns.s has the e32 form with a literal src0, which is the DPP
 * control dword; the test makes src0 0xfa (DPP)
 */
#define DPPL    (1u << 17)
/*
 * a 128-bit result v[0:3] (S2 v[14:17], its upper half lane_c_hi): fn
 * gives v[0:1], the scc slot v[2:3]
 */
#define W4      (1u << 18)
/*
 * the saveexec/wrexec family: EXEC starts as a second input (b, random
 * in every round), fn gives D, xec the EXEC after; SCC is EXEC != 0
 */
#define SXE     (1u << 19)
/* within 1 ulp of the correctly rounded value (the ISA's v_rsq_f64) */
#define ULP     (1u << 20)

#define OLD     0xdeadbeefu     /* v0 before the instruction */
#define OLDHI   0x0badf00du     /* s1 (s0 is OLD) before a scalar one */
#define VCC_PAT 0x96f0c3a55a3c0ff9ULL
#define EXEC_PAT 0xf7de1b3f00ff6ac5ULL

/*
 * VCI: the lane's VCC bit; the lane's number; SCC before a scalar one:
 * for the expected values
 */
static unsigned lane_vcc, lane_no, in_scc;

/* An across-lanes result: out[] holds OLD, lanes left alone keep it */
typedef void (*GcnLanes)(const uint32_t *a, const uint32_t *b,
                         uint32_t *out);

typedef struct GcnCase {
    const char *mnemonic;       /* how llvm-mc prints it starts so */
    unsigned nsrc;
    char type;                  /* u: dwords, k: small, f: float, d: double,
                                   h: half, c/C: class masks, p: selectors,
                                   y: bytes 0..3, a: LDS addresses,
                                   m: SMEM bases */
    unsigned shape;
    GcnExpect fn;
    GcnExpect scc;              /* scalar ones: the SCC expected */
    GcnLanes xfn;               /* XL */
    unsigned m0;                /* M0 before (s_movrels, s_movreld) */
    GcnExpect xec;              /* SXE: EXEC after */
} GcnCase;

static float F(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;

    memcpy(&f, &u, 4);
    return f;
}

static uint64_t UF(float f)
{
    uint32_t u;

    memcpy(&u, &f, 4);
    return u;
}

static double D(uint64_t v)
{
    double d;

    memcpy(&d, &v, 8);
    return d;
}

static uint64_t UD(double d)
{
    uint64_t v;

    memcpy(&v, &d, 8);
    return v;
}

/* halves through the compiler's _Float16 (independent of fpu.c's) */
static float H(uint64_t v)
{
    uint16_t u = (uint16_t)v;
    _Float16 h;

    memcpy(&h, &u, 2);
    return (float)h;
}

static uint64_t UH(float f)
{
    _Float16 h = (_Float16)f;
    uint16_t u;

    memcpy(&u, &h, 2);
    return u;
}

static int32_t I(uint64_t v)
{
    return (int32_t)v;
}

static uint32_t U(uint64_t v)
{
    return (uint32_t)v;
}

/* IEEE-mode min and max (a NaN operand gives the other one) */
static double fmin_ieee(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) ? b : a;
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}

/*
 * IEEE mode's rule for a signalling NaN operand (IEEE 754-2008 minNum,
 * LLVM's fminnum_ieee for v_min/v_max): it comes back quieted, S0's first
 */
#define SNAN32(v) (((v) & 0x7fc00000u) == 0x7f800000u && ((v) & 0x7fffffu))
#define SNAN64(v) (((v) & 0x7ff8000000000000ULL) == 0x7ff0000000000000ULL && \
		   ((v) & 0xfffffffffffffULL))
#define SNAN16(v) (((v) & 0x7e00) == 0x7c00 && ((v) & 0x3ff))
#define SN(q, a, b, bit, r) (q(a) ? ((a) | (bit)) : q(b) ? ((b) | (bit)) : (r))

static double fmax_ieee(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) ? b : a;
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}

/*
 * V_MIN/V_MAX_F32 and _F16 in IEEE mode, on bits: a signalling NaN
 * operand comes back quieted (S0's first), a quiet one gives the other
 */
static uint32_t mm32(uint32_t a, uint32_t b, int max)
{
	if (SNAN32(a) || SNAN32(b))
		return (SNAN32(a) ? a : b) | 0x400000u;
	return UF((float)(max ? fmax_ieee(F(a), F(b)) : fmin_ieee(F(a), F(b))));
}

static uint32_t mm16(uint32_t a, uint32_t b, int max)
{
	a &= 0xffff;
	b &= 0xffff;
	if (SNAN16(a) || SNAN16(b))
		return (SNAN16(a) ? a : b) | 0x200u;
	return UH((float)(max ? fmax_ieee(H(a), H(b)) : fmin_ieee(H(a), H(b))));
}

static uint32_t sat_i(double f)
{
	if (isnan(f))
		return 0;
	if (f < -2147483648.0)
		return 0x80000000u;
	if (f > 2147483647.0)
		return 0x7fffffff;
	return (uint32_t)(int32_t)f;
}

static uint32_t sat_u(double f)
{
	if (isnan(f) || f < 0)
		return 0;
	if (f > 4294967295.0)
		return 0xffffffffu;
	return (uint32_t)f;
}

static uint32_t clz32(uint32_t v)
{
	uint32_t n = 0;

	while (n < 32 && !(v & (0x80000000u >> n)))
		n++;
	return n;
}

static int fexp(double x)
{
	int e;

	frexp(x, &e);
	return e;
}

/* the v_cmp_class mask bit of a value (bits 0..9) */
static unsigned fclass(double x, int snan)
{
	if (isnan(x))
		return snan ? 0 : 1;
	if (isinf(x))
		return x < 0 ? 2 : 9;
	if (x == 0)
		return signbit(x) ? 5 : 6;
	return (x < 0 ? 3 : 8) + (fabs(x) < 0x1p-126 ? (x < 0 ? 1 : -1) : 0);
}

static unsigned fclass64(double x, int snan)
{
	if (!isnan(x) && !isinf(x) && x != 0 && fabs(x) < 0x1p-1022)
		return x < 0 ? 4 : 7;
	return fclass(x, snan) == 4 || fclass(x, snan) == 7 ?
	       (x < 0 ? 3 : 8) : fclass(x, snan);
}

#define E(name, expr) \
	static uint64_t name(uint64_t a, uint64_t b, uint64_t c) \
	{ (void)a; (void)b; (void)c; return (expr); }

E(e_add, U(a) + U(b))
E(e_sub, U(a) - U(b))
E(e_subrev, U(b) - U(a))
E(e_mullo, U(a) * U(b))
E(e_mulhiu, ((uint64_t)U(a) * U(b)) >> 32)
E(e_mulhii, (uint32_t)(((int64_t)I(a) * I(b)) >> 32))
E(e_mulu24, (U(a) & 0xffffff) * (U(b) & 0xffffff))
E(e_muli24, (uint32_t)(((I(a) << 8) >> 8) * ((I(b) << 8) >> 8)))
E(e_mulhiu24, ((uint64_t)(U(a) & 0xffffff) * (U(b) & 0xffffff)) >> 32)
E(e_mulhii24, (uint32_t)(((int64_t)((I(a) << 8) >> 8) *
			 ((I(b) << 8) >> 8)) >> 32))
E(e_mini, (uint32_t)(I(a) < I(b) ? I(a) : I(b)))
E(e_maxu, U(a) > U(b) ? U(a) : U(b))
E(e_lshl, U(b) << (a & 31))
E(e_lshr, U(b) >> (a & 31))
E(e_ashr, (uint32_t)(I(b) >> (a & 31)))
E(e_and, U(a) & U(b))
E(e_or, U(a) | U(b))
E(e_xor, U(a) ^ U(b))
E(e_not, U(~a))

static uint64_t e_bfrev(uint64_t a, uint64_t b, uint64_t c)
{
	uint32_t r = 0;

	for (unsigned k = 0; k < 32; k++)
		if (a & (1u << k))
			r |= 0x80000000u >> k;
	return r;
}

E(e_ffbh, U(a) ? clz32(U(a)) : 0xffffffffu)
E(e_ffbl, U(a) ? (uint32_t)__builtin_ctz(U(a)) : 0xffffffffu)
E(e_ffbhi, U(a) == 0 || U(a) == 0xffffffffu ? 0xffffffffu :
	   clz32(I(a) < 0 ? ~U(a) : U(a)))
E(e_bcnt, (uint32_t)__builtin_popcount(U(a)) + U(b))
E(e_bfm, ((1u << (a & 31)) - 1) << (b & 31))

static uint64_t e_bfeu(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned off = b & 31, w = c & 31;

	return w ? (U(a) >> off) & ((1u << w) - 1) : 0;
}

static uint64_t e_bfei(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned off = b & 31, w = c & 31;
	uint32_t v, m;

	if (!w)
		return 0;
	m = (1u << w) - 1;
	/* S0.i >> offset (arithmetic), the field's top bit its sign */
	v = (uint32_t)(I(a) >> off) & m;
	return (v >> (w - 1)) & 1 ? v | ~m : v;
}

E(e_bfi, (U(a) & U(b)) | (~U(a) & U(c)))
E(e_alignbit, U((((uint64_t)U(a) << 32) | U(b)) >> (c & 31)))
E(e_alignbyte, U((((uint64_t)U(a) << 32) | U(b)) >> (8 * (c & 3))))

static uint64_t e_perm(uint64_t a, uint64_t b, uint64_t c)
{
	uint8_t bytes[8];
	uint32_t r = 0;

	for (unsigned k = 0; k < 4; k++) {
		bytes[k] = U(b) >> (8 * k);
		bytes[4 + k] = U(a) >> (8 * k);
	}
	for (unsigned k = 0; k < 4; k++) {
		unsigned sel = (c >> (8 * k)) & 0xff;
		uint8_t v;

		if (sel < 8)
			v = bytes[sel];
		else if (sel < 12)
			v = bytes[2 * (sel - 8) + 1] & 0x80 ? 0xff : 0;
		else
			v = sel == 12 ? 0 : 0xff;
		r |= (uint32_t)v << (8 * k);
	}
	return r;
}

static int32_t mid3(int64_t a, int64_t b, int64_t c)
{
	int64_t t;

	if (a > b) {
		t = a;
		a = b;
		b = t;
	}
	if (b > c)
		b = c;
	return (int32_t)(a > b ? a : b);
}

E(e_min3i, (uint32_t)(I(a) < I(b) ? (I(a) < I(c) ? I(a) : I(c))
				  : (I(b) < I(c) ? I(b) : I(c))))
E(e_max3u, U(a) > U(b) ? (U(a) > U(c) ? U(a) : U(c))
		       : (U(b) > U(c) ? U(b) : U(c)))
E(e_med3i, (uint32_t)mid3(I(a), I(b), I(c)))
E(e_med3u, (uint32_t)mid3(U(a), U(b), U(c)))
E(e_sad, (U(a) > U(b) ? U(a) - U(b) : U(b) - U(a)) + U(c))
E(e_xad, (U(a) ^ U(b)) + U(c))
E(e_lshladd, (U(a) << (b & 31)) + U(c))
E(e_addlshl, (U(a) + U(b)) << (c & 31))
E(e_add3, U(a) + U(b) + U(c))
E(e_lshlor, (U(a) << (b & 31)) | U(c))
E(e_andor, (U(a) & U(b)) | U(c))
E(e_or3, U(a) | U(b) | U(c))
E(e_madu24, (U(a) & 0xffffff) * (U(b) & 0xffffff) + U(c))
E(e_madu16, (U(a) & 0xffff) * (U(b) & 0xffff) + U(c))
E(e_addu16, (a + b) & 0xffff)
E(e_mulu16, (a * b) & 0xffff)
E(e_ashri16, (uint16_t)((int16_t)b >> (a & 15)))
E(e_maxi16, (uint16_t)((int16_t)a > (int16_t)b ? a : b))
E(e_addi_clamp, (uint32_t)(int32_t)fmax(-2147483648.0,
		fmin(2147483647.0, (double)I(a) + I(b))))
E(e_addu_clamp, (uint64_t)U(a) + U(b) > 0xffffffffu ? 0xffffffffu
						   : U(a) + U(b))
E(e_addlit, 0x12345678u + U(b))
E(e_lshl64, b << (a & 63))
E(e_ashr64, (uint64_t)((int64_t)b >> (a & 63)))

E(e_addf, UF(F(a) + F(b)))
E(e_subf, UF(F(a) - F(b)))
E(e_mulf, UF(F(a) * F(b)))
E(e_mullegacy, UF(F(a) == 0 || F(b) == 0 ? 0.0f : F(a) * F(b)))
E(e_minf, SN(SNAN32, (uint32_t)a, (uint32_t)b, 0x400000u,
	      UF((float)fmin_ieee(F(a), F(b)))))
E(e_maxf, SN(SNAN32, (uint32_t)a, (uint32_t)b, 0x400000u,
	      UF((float)fmax_ieee(F(a), F(b)))))
E(e_addf_mod, UF(-fabsf(F(a)) + F(b)))
E(e_mulf_x2, UF((float)(F(a) * F(b)) * 2.0f))

static uint64_t e_addf_clamp(uint64_t a, uint64_t b, uint64_t c)
{
	float r = F(a) + F(b);

	return UF(isnan(r) ? 0.0f : r < 0 ? 0.0f : r > 1 ? 1.0f : r);
}

E(e_fmaf, UF(fmaf(F(a), F(b), F(c))))
E(e_madf, UF((float)(F(a) * F(b)) + F(c)))
/*
 * v_min3/max3: V_MIN(V_MIN(S0, S1), S2) (ISA), the sNaN rule at each
 * step: a signalling S0 or S1 is quieted by the first and loses to S2
 */
E(e_min3f, mm32(mm32(a, b, 0), c, 0))
E(e_max3f, mm32(mm32(a, b, 1), c, 1))

/* v_med3_f32: with a NaN, min3; else the middle value (ISA) */
static uint64_t e_med3f(uint64_t a, uint64_t b, uint64_t c)
{
	float x = F(a), y = F(b), z = F(c);

	if (isnan(x) || isnan(y) || isnan(z))
		return mm32(mm32(a, b, 0), c, 0);
	if (fmax_ieee(fmax_ieee(x, y), z) == x)
		return UF((float)fmax_ieee(y, z));
	if (fmax_ieee(fmax_ieee(x, y), z) == y)
		return UF((float)fmax_ieee(x, z));
	return UF((float)fmax_ieee(x, y));
}

E(e_ldexpf, UF(ldexpf(F(a), I(b))))
E(e_cvtf_i, UF((float)I(a)))
E(e_cvtf_u, UF((float)U(a)))
E(e_cvti_f, sat_i(truncf(F(a))))
E(e_cvtu_f, sat_u(truncf(F(a))))
E(e_cvtrpi, sat_i(floorf(F(a) + 0.5f)))
E(e_cvtflr, sat_i(floorf(F(a))))
E(e_ubyte2, UF((float)((a >> 16) & 0xff)))
E(e_floorf, UF(floorf(F(a))))
E(e_ceilf, UF(ceilf(F(a))))
E(e_truncf, UF(truncf(F(a))))
E(e_rndnef, UF(rintf(F(a))))
E(e_fractf, UF(isinf(F(a)) ? NAN : fminf(F(a) - floorf(F(a)),
					  0x1.fffffep-1f)))
E(e_sqrtf, UF(sqrtf(F(a))))
E(e_rcpf, UF(1.0f / F(a)))
/* 1 ulp in the ISA; the interpreter rounds the double result once */
E(e_rsqf, UF((float)(1.0 / sqrt((double)F(a)))))
E(e_expf, UF(exp2f(F(a))))
E(e_logf, UF(log2f(F(a))))
E(e_sinf, UF(sinf((float)(F(a) * 2 * M_PI))))
E(e_mantf, UF(isinf(F(a)) || isnan(F(a)) ? F(a) :
	      frexpf(F(a), &(int){ 0 })))
E(e_expif, isinf(F(a)) || isnan(F(a)) ? 0 : (uint32_t)fexp(F(a)))

E(e_addd, UD(D(a) + D(b)))
E(e_muld, UD(D(a) * D(b)))
E(e_fmad, UD(fma(D(a), D(b), D(c))))
E(e_mind, SN(SNAN64, a, b, 1ULL << 51, UD(fmin_ieee(D(a), D(b)))))
E(e_maxd, SN(SNAN64, a, b, 1ULL << 51, UD(fmax_ieee(D(a), D(b)))))
E(e_ldexpd, UD(ldexp(D(a), I(b))))
E(e_subd_mod, UD(D(a) + -D(b)))
E(e_floord, UD(floor(D(a))))
E(e_truncd, UD(trunc(D(a))))
E(e_rndned, UD(rint(D(a))))
E(e_fractd, UD(isinf(D(a)) ? NAN : fmin(D(a) - floor(D(a)),
					0x1.fffffffffffffp-1)))
E(e_sqrtd, UD(sqrt(D(a))))
E(e_rcpd, UD(1.0 / D(a)))
E(e_cvtd_f, UD((double)F(a)))
E(e_cvtf_d, UF((float)D(a)))
E(e_cvtd_i, UD((double)I(a)))
E(e_cvti_d, sat_i(trunc(D(a))))
E(e_cvtu_d, sat_u(trunc(D(a))))
E(e_expid, isinf(D(a)) || isnan(D(a)) ? 0 : (uint32_t)fexp(D(a)))

E(e_cvth_f, UH(F(a)))
E(e_cvtf_h, UF(H(a)))
E(e_addh, UH(H(a) + H(b)))
E(e_mulh, UH(H(a) * H(b)))
E(e_maxh, SN(SNAN16, (uint16_t)a, (uint16_t)b, 0x200u,
	      UH((float)fmax_ieee(H(a), H(b)))))
/* gfx9's v_fma_f16 (the op_sel one) keeps the destination's upper half */
E(e_fmah, (OLD & 0xffff0000u) | UH((float)fma(H(a), H(b), H(c))))

/* round toward zero to half: truncate the float's significand first */
static uint64_t e_pkrtz(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t r[2];
	float in[2] = { F(a), F(b) };

	for (int k = 0; k < 2; k++) {
		float f = in[k];
		uint64_t h = UH(f);

		/* round to nearest went away from zero: one step back */
		if (!isnan(f) && fabsf(H(h)) > fabsf(f))
			h -= 1;
		r[k] = h & 0xffff;
	}
	return r[0] | r[1] << 16;
}

E(e_cvtu16_h, isnan(H(a)) || H(a) <= 0 ? 0 :
	      H(a) >= 65535 ? 65535 : (uint32_t)H(a))

E(e_cmplt_f, F(a) < F(b))
E(e_cmpnge_f, !(F(a) >= F(b)))
E(e_cmpu_f, isnan(F(a)) || isnan(F(b)))
E(e_cmplg_f, F(a) < F(b) || F(a) > F(b))
E(e_class_f, (b >> fclass(F(a), isnan(F(a)) && !(a & 0x400000))) & 1)
E(e_cmple_d, D(a) <= D(b))
E(e_cmpo_d, !isnan(D(a)) && !isnan(D(b)))
E(e_class_d, (b >> fclass64(D(a), isnan(D(a)) &&
				!(a & 0x8000000000000ULL))) & 1)
E(e_cmpgt_h, H(a) > H(b))
E(e_cmplt_i, I(a) < I(b))
E(e_cmpge_u, U(a) >= U(b))
E(e_cmpne_u64, a != b)
E(e_cmplt_i64, (int64_t)a < (int64_t)b)
E(e_cmpeq_u16, (a & 0xffff) == (b & 0xffff))
E(e_cmpgt_i16, (int16_t)a > (int16_t)b)
E(e_cmplt_u, U(a) < U(b))

/* scalar ALU: value, then SCC */
E(s_addu, U(a) + U(b))
E(c_addu, (uint64_t)U(a) + U(b) > 0xffffffffu)
E(s_subu, U(a) - U(b))
E(c_subu, U(b) > U(a))
E(s_addi, U(a) + U(b))
E(c_addi, ((int64_t)I(a) + I(b)) != (int32_t)(U(a) + U(b)))
E(s_mini, (uint32_t)(I(a) < I(b) ? I(a) : I(b)))
E(c_mini, I(a) < I(b))
E(s_maxu, U(a) > U(b) ? U(a) : U(b))
E(c_maxu, U(a) > U(b))
E(s_and, U(a) & U(b))
E(c_and, (U(a) & U(b)) != 0)
E(s_andn2, a & ~b)
E(c_andn2, (a & ~b) != 0)
E(s_orn2, a | ~b)
E(c_orn2, (a | ~b) != 0)
E(s_nand, U(~(a & b)))
E(c_nand, U(~(a & b)) != 0)
E(s_xnor, ~(a ^ b))
E(c_xnor, ~(a ^ b) != 0)
E(s_lshl, U(a) << (b & 31))
E(c_lshl, (U(a) << (b & 31)) != 0)
E(s_lshr64, a >> (b & 63))
E(c_lshr64, (a >> (b & 63)) != 0)
E(s_ashr, (uint32_t)(I(a) >> (b & 31)))
E(c_ashr, (I(a) >> (b & 31)) != 0)
/* s_bfe: offset S1[4:0], width S1[22:16] (32 or more: every bit) */
static uint64_t s_bfeu(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned w = (b >> 16) & 0x7f;

	return w >= 32 ? U(a) >> (b & 31) : e_bfeu(a, b & 31, w);
}

static uint64_t s_bfei(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned w = (b >> 16) & 0x7f;

	return w >= 32 ? (uint32_t)(I(a) >> (b & 31)) : e_bfei(a, b & 31, w);
}

E(c_bfeu, s_bfeu(a, b, c) != 0)
E(c_bfei, s_bfei(a, b, c) != 0)
E(s_mul, U(a) * U(b))
E(s_mulhiu, ((uint64_t)U(a) * U(b)) >> 32)
E(s_absdiff, (uint32_t)llabs((int64_t)I(a) - I(b)))
E(c_absdiff, I(a) != I(b))
E(s_lshl2add, (U(a) << 2) + U(b))
E(c_lshl2add, (((uint64_t)U(a) << 2) + U(b)) > 0xffffffffu)
E(s_not, U(~a))
E(c_not, U(~a) != 0)
E(s_bcnt64, (uint32_t)__builtin_popcountll(a))
E(c_bcnt64, a != 0)
E(s_ff1, U(a) ? (uint32_t)__builtin_ctz(U(a)) : 0xffffffffu)
E(s_abs, (uint32_t)llabs((int64_t)I(a)))
E(c_abs, I(a) != 0)
E(c_lti, I(a) < I(b))
E(c_geu, U(a) >= U(b))
E(c_lg64, a != b)
E(c_bitcmp1, (U(a) >> (b & 31)) & 1)
E(s_addlit, U(a) + 0x89abcdefu)
E(c_addlit, (uint64_t)U(a) + 0x89abcdefu > 0xffffffffu)
E(s_movneg, 0xfffffff9u)

/* SDWA: sources selected, the result placed (old v0 = OLD) */
static uint32_t sext8(uint32_t v)
{
	return (uint32_t)(int32_t)(int8_t)v;
}

E(e_sdwa_add, (OLD & 0xffff) |
	      ((sext8(a >> 16) + (b & 0xffff)) & 0xffff) << 16)
E(e_sdwa_max, ((U(a) & 0xffff) > (b & 0xff) ? U(a) & 0xff : b & 0xff) << 8)
E(e_sdwa_mov, sext8(a >> 24))
E(e_sdwa_addf, UF(-F(a) + fabsf(F(b))))
E(e_sdwa_mulh, (OLD & 0xffff) | UH(H(a >> 16) * H(b)) << 16)
E(e_sdwa_cmpeq, ((a >> 8) & 0xff) == (b & 0xff))
E(e_sdwa_cmplt, (a & 0xff) < ((b >> 16) & 0xffff))

/* VOP3P: each half on its own */
static uint32_t lo16(uint64_t v)
{
	return v & 0xffff;
}

static uint32_t hi16(uint64_t v)
{
	return (v >> 16) & 0xffff;
}

static uint32_t sat16(int32_t v)
{
	return (uint16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
}

static uint32_t hmax(uint32_t a, uint32_t b)
{
	return mm16(a, b, 1);
}

static uint32_t hfma(uint32_t a, uint32_t b, uint32_t c)
{
	return UH((float)fma(H(a), H(b), H(c)));
}

E(e_pk_mul, ((lo16(a) * lo16(b)) & 0xffff) |
	    ((hi16(a) * hi16(b)) & 0xffff) << 16)
E(e_pk_add_sel, ((hi16(a) + lo16(b)) & 0xffff) |
		((lo16(a) + hi16(b)) & 0xffff) << 16)
E(e_pk_sub_sat, sat16((int16_t)lo16(a) - (int16_t)lo16(b)) |
		sat16((int16_t)hi16(a) - (int16_t)hi16(b)) << 16)
E(e_pk_max_i, (uint16_t)((int16_t)lo16(a) > (int16_t)lo16(b) ? lo16(a)
							       : lo16(b)) |
	      (uint32_t)((int16_t)hi16(a) > (int16_t)hi16(b) ? hi16(a)
							     : hi16(b)) << 16)
E(e_pk_lshl, ((lo16(b) << (lo16(a) & 15)) & 0xffff) |
	     ((hi16(b) << (hi16(a) & 15)) & 0xffff) << 16)
E(e_pk_fma, hfma(lo16(a), lo16(b), lo16(c)) |
	    hfma(hi16(a), hi16(b), hi16(c)) << 16)
E(e_pk_fma_neg, hfma(lo16(a) ^ 0x8000, lo16(b), lo16(c)) |
		hfma(hi16(a), hi16(b) ^ 0x8000, hi16(c)) << 16)
E(e_pk_addh, UH(H(lo16(a)) + H(lo16(b))) | UH(H(hi16(a)) + H(hi16(b))) << 16)
E(e_pk_maxh, hmax(lo16(a), lo16(b)) | hmax(hi16(a), hi16(b)) << 16)

/* DPP: each lane reads src0 from another lane */
static void x_quad(const uint32_t *a, const uint32_t *b, uint32_t *out)
{
	for (unsigned l = 0; l < 64; l++)
		out[l] = a[l ^ 1];
}

static void x_shr1(const uint32_t *a, const uint32_t *b, uint32_t *out)
{
	/* bound_ctrl: a lane with nothing to its left in the row reads 0 */
	for (unsigned l = 0; l < 64; l++)
		out[l] = (l % 16 ? a[l - 1] : 0) + b[l];
}

static void x_shl2(const uint32_t *a, const uint32_t *b, uint32_t *out)
{
	for (unsigned l = 0; l < 64; l++)
		if (l % 16 < 14)
			out[l] = a[l + 2];
}

static void x_bcast15(const uint32_t *a, const uint32_t *b, uint32_t *out)
{
	/* row_mask 0xa: rows 1 and 3 only */
	for (unsigned l = 0; l < 64; l++)
		if (l / 16 == 1 || l / 16 == 3)
			out[l] = a[(l / 16) * 16 - 1];
}

static void x_ror1(const uint32_t *a, const uint32_t *b, uint32_t *out)
{
	for (unsigned l = 0; l < 64; l++)
		out[l] = a[(l + 63) % 64];
}

static void x_mirror(const uint32_t *a, const uint32_t *b, uint32_t *out)
{
	/* bank_mask 0x5: lanes 0-3 and 8-11 of each row */
	for (unsigned l = 0; l < 64; l++)
		if ((l % 16) / 4 == 0 || (l % 16) / 4 == 2)
			out[l] = UF(-F(a[(l & ~15u) | (15 - l % 16)]) + F(b[l]));
}

/* Inline constants by operand type */
E(e_h_add1, UH(1.0f + H(a)))
E(e_h_mulhalf, UH(0.5f * H(a)))
E(e_h_subm4, UH(-4.0f - H(a)))
E(e_h_mulinv2pi, UH(H(a) * H(0x3118)))
E(e_h_fma2m1, (OLD & 0xffff0000u) | UH((float)fma(H(a), 2.0, -1.0)))
E(e_h_maxm2, SN(SNAN16, (uint16_t)a, 0, 0x200u, UH((float)fmax_ieee(H(a), -2.0))))
E(e_h_cvtm05, UF(-0.5f))
E(e_h_sdwa1, UH(1.0f + H(hi16(a))))
E(e_d_addm05, UD(-0.5 + D(a)))
E(e_d_trunc25, UD(2.0))
E(e_d_cvtm3, UF(-3.0f))
E(e_u_add1f, U(a) + 0x3f800000u)
E(e_u16_addm1, (U(a) + 0xffff) & 0xffff)
E(e_f_add4, UF(4.0f + F(a)))
/* packed: the constant's high half is 0 (op_sel_hi 1 reads it) */
E(e_pk_add1, UH(H(lo16(a)) + 1.0f) | UH(H(hi16(a)) + 0.0f) << 16)
E(e_pk_add1_lo, UH(H(lo16(a)) + 1.0f) | UH(H(hi16(a)) + 1.0f) << 16)
E(e_pk_mulm2, UH(-2.0f * H(lo16(a))) | UH(-2.0f * H(hi16(a))) << 16)
E(e_pk_fma05, hfma(lo16(a), 0x3800, lo16(b)) |
	      hfma(hi16(a), 0x3800, hi16(b)) << 16)
E(e_pk_addu_m1, ((lo16(a) + 0xffff) & 0xffff) |
		((hi16(a) + 0xffff) & 0xffff) << 16)

/* DS: 64 KiB of LDS holding lds_pat(); addresses wrap at 32 bits */
#define LDS_SIZE 0x10000u

static uint8_t lds_pat(uint32_t i)
{
	return (uint8_t)(i * 37 + (i >> 8) * 11 + 5);
}

static uint64_t lds_rd(uint32_t a, unsigned n)
{
	uint64_t v = 0;

	if ((uint64_t)a + n > LDS_SIZE)
		return 0;			/* out of range: 0 */
	for (unsigned k = 0; k < n; k++)
		v |= (uint64_t)lds_pat(a + k) << (8 * k);
	return v;
}

E(e_ds_u16, lds_rd(U(a) + 510, 2))
E(e_ds_b32, lds_rd(U(a) + 8, 4))
E(e_ds_i8, (uint32_t)(int8_t)lds_rd(U(a) + 65535, 1))
E(e_ds_read2, lds_rd(U(a) + 4, 4) | lds_rd(U(a) + 1020, 4) << 32)
E(e_ds_b64, lds_rd(U(a) + 65528, 8))

/* SMEM: memory from 0x10000 up holds mem_pat() */
static uint8_t mem_pat(uint64_t a)
{
	uint32_t x = (uint32_t)(a ^ (a >> 7) ^ (a >> 17)) * 0x9e3779b1u;

	return (uint8_t)(x >> 24);
}

static uint64_t mem_rd(uint64_t a, unsigned n)
{
	uint64_t v = 0;

	for (unsigned k = 0; k < n; k++)
		v |= (uint64_t)mem_pat(a + k) << (8 * k);
	return v;
}

E(s_load_m4, mem_rd(a - 4, 4))
E(s_load_m1m, mem_rd(a - 0x100000, 8))
E(s_load_fffff, mem_rd((a + 0xfffff) & ~3ULL, 4))

/*
 * Issue 28's instructions. 2/pi's hex digits as bc prints them
 * (scale=400; obase=16; 2/(4*a(1))): v_trig_preop_f64's bits
 */
static const char two_over_pi_hex[] =
	"A2F9836E4E441529FC2757D1F534DDC0DB6295993C439041FE5163ABDEBBC561"
	"B7246E3A424DD2E006492EEA09D1921CFE1DEB1CB129A73EE88235F52EBB4484"
	"E99C7026B45F7E413991D639835339F49C845F8BBDF9283B1FF897FFDE05980F"
	"EF2F118B5A0A6D1F6D367ECF27CB09B74F463F669E5FEA2D7527BAC7EBE5F17B"
	"3D0739F78A5292EA6BFB5FB11F8D5D0856033046FC7B6BABF0CFBC209AF4361D";

/* fraction bit @i (1-based) of 2/pi; the ISA keeps 1201 of them */
static unsigned tpi_bit(unsigned i)
{
	char ch[2] = { 0, 0 };

	if (i < 1 || i > 1201)
		return 0;
	ch[0] = two_over_pi_hex[(i - 1) / 4];
	return (strtoul(ch, NULL, 16) >> (3 - (i - 1) % 4)) & 1;
}

static uint64_t e_trigpre(uint64_t a, uint64_t b, uint64_t c)
{
	int e = (int)((a >> 52) & 0x7ff);
	int shift = (int)(b & 31) * 53 + (e > 1077 ? e - 1077 : 0);
	uint64_t r = 0;

	for (int i = shift + 1; i <= shift + 53; i++)
		r = r * 2 + tpi_bit(i);
	return UD(ldexp((double)r, -53 - shift + (e >= 1968 ? 128 : 0)));
}

static uint32_t rbits(uint64_t v, unsigned n)
{
	uint64_t r = 0;

	for (unsigned k = 0; k < n; k++)
		r = r << 1 | ((v >> k) & 1);
	return r;
}

E(s_brev32, rbits(a, 32))
E(s_brev64, (uint64_t)rbits(a, 32) << 32 | rbits(a >> 32, 32))

static uint64_t s_wqm64(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t r = 0;

	for (unsigned q = 0; q < 16; q++)
		if (a & (0xfULL << (4 * q)))
			r |= 0xfULL << (4 * q);
	return r;
}

E(c_wqm64, s_wqm64(a, b, c) != 0)

static uint64_t s_qmask32(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t r = 0;

	for (unsigned q = 0; q < 8; q++)
		if (U(a) & (0xfu << (4 * q)))
			r |= 1u << q;
	return r;
}

E(c_qmask32, s_qmask32(a, b, c) != 0)
E(s_bcnt0, 32 - __builtin_popcount(U(a)))
E(c_bcnt0, U(a) != 0xffffffffu)

static uint64_t s_ff0_64(uint64_t a, uint64_t b, uint64_t c)
{
	for (unsigned k = 0; k < 64; k++)
		if (!((a >> k) & 1))
			return k;
	return 0xffffffffu;
}

E(s_flbit, U(a) ? clz32(U(a)) : 0xffffffffu)

static uint64_t s_flbiti(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned n = 0;

	while (n < 32 && ((U(a) >> (31 - n)) & 1) == (U(a) >> 31))
		n++;
	return n == 32 ? 0xffffffffu : n;
}

static uint64_t s_flbiti64(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned n = 0;

	while (n < 64 && ((a >> (63 - n)) & 1) == (a >> 63))
		n++;
	return n == 64 ? 0xffffffffu : n;
}

E(s_sext8, (uint32_t)(int32_t)(int8_t)a)
E(s_sext16, (uint32_t)(int32_t)(int16_t)a)
/* s_bitset0/1: D's other bits kept (s0 OLD, s1 OLDHI before) */
E(s_bitset1, OLD | 1u << (a & 31))
E(s_bitset1_64, (OLD | (uint64_t)OLDHI << 32) | 1ULL << (a & 63))

static uint64_t s_brep(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t r = 0;

	for (unsigned k = 0; k < 32; k++)
		if ((a >> k) & 1)
			r |= 3ULL << (2 * k);
	return r;
}

E(s_andn1sx, ~0ULL)
E(c_andn1sx, ~a != 0)
E(s_packlh, (U(a) & 0xffff) | (U(b) & 0xffff0000u))
E(s_packhh, (U(a) >> 16) | (U(b) & 0xffff0000u))

static uint64_t s_bfeu64(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned off = b & 63, w = (b >> 16) & 0x7f;

	if (!w)
		return 0;
	return w >= 64 ? a >> off : (a >> off) & ((1ULL << w) - 1);
}

static uint64_t s_bfei64(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned off = b & 63, w = (b >> 16) & 0x7f;
	uint64_t v = (uint64_t)((int64_t)a >> off), m;

	if (!w)
		return 0;
	if (w >= 64)
		return v;
	m = (1ULL << w) - 1;
	v &= m;
	return (v >> (w - 1)) & 1 ? v | ~m : v;
}

E(c_bfeu64, s_bfeu64(a, b, c) != 0)
E(c_bfei64, s_bfei64(a, b, c) != 0)
E(c_cmpk_lei, I(a) <= 0x1234)
E(c_cmpk_leu, U(a) <= 0xfff0u)
E(s_movrels, U(a))

/* fp16 transcendentals: through float, as the ISA's 1-ulp ones */
E(e_exph, UH(exp2f(H(a))))
E(e_logh, UH(log2f(H(a))))
E(e_sinh, UH(sinf((float)(H(a) * 2 * M_PI))))
E(e_cosh, UH(cosf((float)(H(a) * 2 * M_PI))))
E(e_manth, UH(isinf(H(a)) || isnan(H(a)) ? H(a) : frexpf(H(a), &(int){ 0 })))
E(e_expih, isinf(H(a)) || isnan(H(a)) ? 0 : (uint16_t)fexp(H(a)))
E(e_explf, UF(exp2f(F(a))))
E(e_loglf, UF(log2f(F(a))))

/* to snorm (-1..1 -> -32767..32767) and unorm (0..1 -> 0..65535) */
static uint32_t snorm16(double x)
{
	if (isnan(x))
		return 0;
	x = x < -1 ? -1 : x > 1 ? 1 : x;
	return (uint16_t)(int16_t)rint(x * 32767);
}

static uint32_t unorm16(double x)
{
	if (isnan(x) || x < 0)
		return 0;
	return (uint16_t)rint((x > 1 ? 1 : x) * 65535);
}

E(e_normi_h, snorm16(H(a)))
E(e_normu_h, unorm16(H(a)))
E(e_pknormi_f, snorm16(F(a)) | snorm16(F(b)) << 16)
E(e_pknormu_h, unorm16(H(a)) | unorm16(H(b)) << 16)

static uint32_t sat_u8(int32_t v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (uint32_t)v;
}

E(e_satpk, sat_u8((int16_t)a) | sat_u8((int16_t)(a >> 16)) << 8)

static uint64_t e_offi4(uint64_t a, uint64_t b, uint64_t c)
{
	static const float t[16] = {
		0, 0.0625f, 0.125f, 0.1875f, 0.25f, 0.3125f, 0.375f, 0.4375f,
		-0.5f, -0.4375f, -0.375f, -0.3125f, -0.25f, -0.1875f, -0.125f,
		-0.0625f,
	};

	return UF(t[a & 15]);
}


/* v_cube*: ISA pseudo-code, (x, y, z) = (S0, S1, S2) */
static int cube_axis(float x, float y, float z)
{
	if (fabsf(z) >= fabsf(x) && fabsf(z) >= fabsf(y))
		return 2;
	return fabsf(y) >= fabsf(x) ? 1 : 0;
}

static uint64_t e_cubeid(uint64_t a, uint64_t b, uint64_t c)
{
	float v[3] = { F(a), F(b), F(c) };
	int m = cube_axis(v[0], v[1], v[2]);

	return UF(2.0f * m + (v[m] < 0 ? 1 : 0));
}

static uint64_t e_cubesc(uint64_t a, uint64_t b, uint64_t c)
{
	float x = F(a), y = F(b), z = F(c);

	switch (cube_axis(x, y, z)) {
	case 2:
		return UF(z < 0 ? -x : x);
	case 1:
		return UF(x);
	default:
		return UF(x < 0 ? z : -z);
	}
}

static uint64_t e_cubetc(uint64_t a, uint64_t b, uint64_t c)
{
	float y = F(b), z = F(c);

	return UF(cube_axis(F(a), y, z) == 1 ? (y < 0 ? -z : z) : -y);
}

static uint64_t e_cubema(uint64_t a, uint64_t b, uint64_t c)
{
	float v[3] = { F(a), F(b), F(c) };

	return UF(2.0f * v[cube_axis(v[0], v[1], v[2])]);
}

static uint32_t byte_of(uint64_t v, unsigned k)
{
	return (v >> (8 * k)) & 0xff;
}

static uint64_t e_lerp(uint64_t a, uint64_t b, uint64_t c)
{
	uint32_t r = 0;

	for (unsigned k = 0; k < 4; k++)
		r |= ((byte_of(a, k) + byte_of(b, k) + (byte_of(c, k) & 1)) / 2)
		     << (8 * k);
	return r;
}

static uint32_t sad8(uint64_t a, uint64_t b, int masked)
{
	uint32_t s = 0;

	for (unsigned k = 0; k < 4; k++) {
		int d = (int)byte_of(a, k) - (int)byte_of(b, k);

		if (!masked || byte_of(b, k))
			s += d < 0 ? -d : d;
	}
	return s;
}

E(e_sad8, sad8(a, b, 0) + U(c))
E(e_sadhi8, (sad8(a, b, 0) << 16) + U(c))
static uint64_t e_sad16(uint64_t a, uint64_t b, uint64_t c)
{
	int lo = (int)(a & 0xffff) - (int)(b & 0xffff);
	int hi = (int)((a >> 16) & 0xffff) - (int)((b >> 16) & 0xffff);

	return (uint32_t)(abs(lo) + abs(hi)) + U(c);
}
E(e_msad8, sad8(a, b, 1) + U(c))

static uint64_t qsad(uint64_t a, uint64_t b, uint64_t c, int masked)
{
	uint64_t r = 0;

	for (unsigned k = 0; k < 4; k++) {
		uint32_t sum = sad8(a >> (8 * k), b, masked) +
			       ((c >> (16 * k)) & 0xffff);

		r |= (uint64_t)(sum & 0xffff) << (16 * k);
	}
	return r;
}

E(e_qsad, qsad(a, U(b), c, 0))
E(e_mqsad, qsad(a, U(b), c, 1))

/* the 16-bit ones before gfx9's op_sel ones: the upper half zeroed */
E(e_madlh, UH((float)(_Float16)(H(a) * H(b)) + H(c)))
E(e_madlu16, (uint16_t)((a & 0xffff) * (b & 0xffff) + (c & 0xffff)))
E(e_madli16, (uint16_t)((int16_t)a * (int16_t)b + (int16_t)c))
E(e_fmalh, UH((float)fma(H(a), H(b), H(c))))

/* div_fixup: the quotient S0's magnitude with the sign of S2 / S1 */
static float fixup(float q, float den, float num)
{
	int neg = signbit(den) != signbit(num);

	if (isnan(num) || isnan(den) || (den == 0 && num == 0) ||
	    (isinf(den) && isinf(num)))
		return NAN;
	if (den == 0 || isinf(num))
		return neg ? -INFINITY : INFINITY;
	if (isinf(den) || num == 0)
		return neg ? -0.0f : 0.0f;
	return neg ? -fabsf(q) : fabsf(q);
}

E(e_fixuplh, UH(fixup(H(a), H(b), H(c))))
E(e_fixuph, (OLD & 0xffff0000u) | UH(fixup(H(a), H(b), H(c))))
/* v_mad_u16 op_sel:[1,0,1,1]: S0's and S2's upper halves, into D's */
E(e_madu16_sel, (OLD & 0xffff) |
		(uint32_t)(uint16_t)(((a >> 16) & 0xffff) * (b & 0xffff) +
				     ((c >> 16) & 0xffff)) << 16)

static int32_t clamp16(int64_t v)
{
	return v < -32768 ? -32768 : v > 32767 ? 32767 : (int32_t)v;
}

E(e_madi16_clamp, (OLD & 0xffff0000u) |
		  (uint16_t)clamp16((int64_t)(int16_t)a * (int16_t)b +
				    (int16_t)c))
E(e_min3h, (OLD & 0xffff0000u) | mm16(mm16(a, b, 0), c, 0))

static uint64_t e_med3h(uint64_t a, uint64_t b, uint64_t c)
{
	float x = H(a), y = H(b), z = H(c), r;

	if (isnan(x) || isnan(y) || isnan(z))
		return (OLD & 0xffff0000u) | mm16(mm16(a, b, 0), c, 0);
	if (fmax_ieee(fmax_ieee(x, y), z) == x)
		r = (float)fmax_ieee(y, z);
	else if (fmax_ieee(fmax_ieee(x, y), z) == y)
		r = (float)fmax_ieee(x, z);
	else
		r = (float)fmax_ieee(x, y);
	return (OLD & 0xffff0000u) | UH(r);
}

E(e_max3i16, (OLD & 0xffff0000u) |
	     (uint16_t)((int16_t)a > (int16_t)b ?
			((int16_t)a > (int16_t)c ? a : c) :
			((int16_t)b > (int16_t)c ? b : c)))
E(e_med3u16, (OLD & 0xffff0000u) |
	     (uint32_t)mid3(a & 0xffff, b & 0xffff, c & 0xffff))
/* op_sel:[1,1,0]: both upper halves, into the lower one */
E(e_addi16_sel, (OLD & 0xffff0000u) |
		(uint16_t)clamp16((int16_t)(a >> 16) + (int16_t)(b >> 16)))
E(e_subi16, (OLD & 0xffff0000u) | (uint16_t)((int16_t)a - (int16_t)b))
E(e_madi32i16_sel, (uint32_t)((int16_t)(a >> 16) * (int16_t)(b >> 16) +
			      I(c)))
E(e_cvtpki16, (uint16_t)clamp16(I(a)) | (uint32_t)(uint16_t)clamp16(I(b)) << 16)

static uint32_t f2u8(float f)
{
	if (isnan(f) || f <= 0)
		return 0;
	return f >= 255 ? 255 : (uint32_t)rintf(f);
}

E(e_cvtpku8, (U(c) & ~(0xffu << (8 * (b & 3)))) | f2u8(F(a)) << (8 * (b & 3)))
E(e_pkaccum, (OLD & ~(0xffu << (8 * (b & 3)))) | f2u8(F(a)) << (8 * (b & 3)))
E(e_pack_sel, ((a >> 16) & 0xffff) | (b & 0xffff) << 16)

/* v_mad_mix: fp16 (op_sel_hi) or fp32 sources, S0 * S1 rounded, + S2 */
static float mixsrc(uint64_t v, int f16, int hi)
{
	return f16 ? H(hi ? v >> 16 : v) : F(v);
}

/* op_sel_hi:[1,0,1]: S0, S2 fp16 (low halves), S1 fp32 */
E(e_mix32, UF((float)(mixsrc(a, 1, 0) * mixsrc(b, 0, 0)) + mixsrc(c, 1, 0)))
/* op_sel:[1,0,0] op_sel_hi:[1,1,1]: S0's upper half, into D's lower half */
E(e_mixlo, (OLD & 0xffff0000u) |
	   UH((float)(mixsrc(a, 1, 1) * mixsrc(b, 1, 0)) + mixsrc(c, 1, 0)))
E(e_mixhi, (OLD & 0xffff) |
	   UH((float)(mixsrc(a, 1, 0) * mixsrc(b, 1, 0)) + mixsrc(c, 1, 0))
	   << 16)


/* LDS float atomics and compare-stores (IEEE-mode min and max) */
E(l_addf, UF(F(a) + F(b)))
E(l_minf, UF((float)fmin_ieee(F(a), F(b))))
E(l_maxd, UD(fmax_ieee(D(a), D(b))))
E(l_cmpstf, F(a) == F(b) ? U(c) : U(a))
E(l_cmpstd, D(a) == D(b) ? c : a)
E(l_wrap, U(a) >= U(b) ? U(a) - U(b) : U(a) + U(c))
E(l_xchg64, b)

/*
 * Compares from the ISA's relations. Float: F, LT, EQ, LE, GT, LG, GE,
 * O, then U, NGE, NLG, NGT, NLE, NEQ, NLT, TRU (the negations: true
 * with a NaN); integer: F, LT, EQ, LE, GT, NE, GE, T
 */
static int frel(unsigned k, double x, double y)
{
	int un = isnan(x) || isnan(y);
	int r[8] = { 0, x < y, x == y, x <= y, x > y, x < y || x > y, x >= y,
		     !un };

	return k < 8 ? r[k] : !r[15 - k];
}

static int irel(unsigned k, int lt, int eq, int gt)
{
	int r[8] = { 0, lt, eq, lt || eq, gt, !eq, gt || eq, 1 };

	return r[k];
}

#define IREL(k, T) irel(k, (T)a < (T)b, (T)a == (T)b, (T)a > (T)b)

/* the v_cmp_class mask bit of a half, from its bits */
static unsigned fclass16(uint64_t v)
{
	unsigned e = (v >> 10) & 31, m = v & 0x3ff, neg = (v >> 15) & 1;

	if (e == 31 && m)
		return m & 0x200 ? 1 : 0;
	if (e == 31)
		return neg ? 2 : 9;
	if (!e && !m)
		return neg ? 5 : 6;
	if (!e)
		return neg ? 4 : 7;
	return neg ? 3 : 8;
}

E(r_cmpx_class_f32, (b >> fclass(F(a), SNAN32((uint32_t)a))) & 1)
E(r_cmpx_class_f64, (b >> fclass64(D(a), SNAN64(a))) & 1)
E(r_cmp_class_f16, (b >> fclass16(a)) & 1)
E(r_cmpx_class_f16, (b >> fclass16(a)) & 1)
E(r_cmp_f_f16, frel(0, H(a), H(b)))
E(r_cmp_lt_f16, frel(1, H(a), H(b)))
E(r_cmp_le_f16, frel(3, H(a), H(b)))
E(r_cmp_lg_f16, frel(5, H(a), H(b)))
E(r_cmp_ge_f16, frel(6, H(a), H(b)))
E(r_cmp_o_f16, frel(7, H(a), H(b)))
E(r_cmp_u_f16, frel(8, H(a), H(b)))
E(r_cmp_nge_f16, frel(9, H(a), H(b)))
E(r_cmp_nlg_f16, frel(10, H(a), H(b)))
E(r_cmp_ngt_f16, frel(11, H(a), H(b)))
E(r_cmp_nle_f16, frel(12, H(a), H(b)))
E(r_cmp_neq_f16, frel(13, H(a), H(b)))
E(r_cmp_nlt_f16, frel(14, H(a), H(b)))
E(r_cmp_tru_f16, frel(15, H(a), H(b)))
E(r_cmpx_f_f16, frel(0, H(a), H(b)))
E(r_cmpx_lt_f16, frel(1, H(a), H(b)))
E(r_cmpx_eq_f16, frel(2, H(a), H(b)))
E(r_cmpx_le_f16, frel(3, H(a), H(b)))
E(r_cmpx_gt_f16, frel(4, H(a), H(b)))
E(r_cmpx_lg_f16, frel(5, H(a), H(b)))
E(r_cmpx_ge_f16, frel(6, H(a), H(b)))
E(r_cmpx_o_f16, frel(7, H(a), H(b)))
E(r_cmpx_u_f16, frel(8, H(a), H(b)))
E(r_cmpx_nge_f16, frel(9, H(a), H(b)))
E(r_cmpx_nlg_f16, frel(10, H(a), H(b)))
E(r_cmpx_ngt_f16, frel(11, H(a), H(b)))
E(r_cmpx_nle_f16, frel(12, H(a), H(b)))
E(r_cmpx_neq_f16, frel(13, H(a), H(b)))
E(r_cmpx_nlt_f16, frel(14, H(a), H(b)))
E(r_cmpx_tru_f16, frel(15, H(a), H(b)))
E(r_cmp_f_f32, frel(0, F(a), F(b)))
E(r_cmp_eq_f32, frel(2, F(a), F(b)))
E(r_cmp_le_f32, frel(3, F(a), F(b)))
E(r_cmp_gt_f32, frel(4, F(a), F(b)))
E(r_cmp_ge_f32, frel(6, F(a), F(b)))
E(r_cmp_o_f32, frel(7, F(a), F(b)))
E(r_cmp_nlg_f32, frel(10, F(a), F(b)))
E(r_cmp_ngt_f32, frel(11, F(a), F(b)))
E(r_cmp_nle_f32, frel(12, F(a), F(b)))
E(r_cmp_neq_f32, frel(13, F(a), F(b)))
E(r_cmp_nlt_f32, frel(14, F(a), F(b)))
E(r_cmp_tru_f32, frel(15, F(a), F(b)))
E(r_cmpx_f_f32, frel(0, F(a), F(b)))
E(r_cmpx_lt_f32, frel(1, F(a), F(b)))
E(r_cmpx_eq_f32, frel(2, F(a), F(b)))
E(r_cmpx_le_f32, frel(3, F(a), F(b)))
E(r_cmpx_gt_f32, frel(4, F(a), F(b)))
E(r_cmpx_lg_f32, frel(5, F(a), F(b)))
E(r_cmpx_ge_f32, frel(6, F(a), F(b)))
E(r_cmpx_o_f32, frel(7, F(a), F(b)))
E(r_cmpx_u_f32, frel(8, F(a), F(b)))
E(r_cmpx_nge_f32, frel(9, F(a), F(b)))
E(r_cmpx_nlg_f32, frel(10, F(a), F(b)))
E(r_cmpx_ngt_f32, frel(11, F(a), F(b)))
E(r_cmpx_nle_f32, frel(12, F(a), F(b)))
E(r_cmpx_neq_f32, frel(13, F(a), F(b)))
E(r_cmpx_nlt_f32, frel(14, F(a), F(b)))
E(r_cmpx_tru_f32, frel(15, F(a), F(b)))
E(r_cmp_f_f64, frel(0, D(a), D(b)))
E(r_cmp_lt_f64, frel(1, D(a), D(b)))
E(r_cmp_eq_f64, frel(2, D(a), D(b)))
E(r_cmp_gt_f64, frel(4, D(a), D(b)))
E(r_cmp_lg_f64, frel(5, D(a), D(b)))
E(r_cmp_ge_f64, frel(6, D(a), D(b)))
E(r_cmp_u_f64, frel(8, D(a), D(b)))
E(r_cmp_nge_f64, frel(9, D(a), D(b)))
E(r_cmp_nlg_f64, frel(10, D(a), D(b)))
E(r_cmp_ngt_f64, frel(11, D(a), D(b)))
E(r_cmp_nle_f64, frel(12, D(a), D(b)))
E(r_cmp_neq_f64, frel(13, D(a), D(b)))
E(r_cmp_nlt_f64, frel(14, D(a), D(b)))
E(r_cmp_tru_f64, frel(15, D(a), D(b)))
E(r_cmpx_f_f64, frel(0, D(a), D(b)))
E(r_cmpx_lt_f64, frel(1, D(a), D(b)))
E(r_cmpx_eq_f64, frel(2, D(a), D(b)))
E(r_cmpx_le_f64, frel(3, D(a), D(b)))
E(r_cmpx_gt_f64, frel(4, D(a), D(b)))
E(r_cmpx_lg_f64, frel(5, D(a), D(b)))
E(r_cmpx_ge_f64, frel(6, D(a), D(b)))
E(r_cmpx_o_f64, frel(7, D(a), D(b)))
E(r_cmpx_u_f64, frel(8, D(a), D(b)))
E(r_cmpx_nge_f64, frel(9, D(a), D(b)))
E(r_cmpx_nlg_f64, frel(10, D(a), D(b)))
E(r_cmpx_ngt_f64, frel(11, D(a), D(b)))
E(r_cmpx_nle_f64, frel(12, D(a), D(b)))
E(r_cmpx_neq_f64, frel(13, D(a), D(b)))
E(r_cmpx_nlt_f64, frel(14, D(a), D(b)))
E(r_cmpx_tru_f64, frel(15, D(a), D(b)))
E(r_cmp_f_i16, IREL(0, int16_t))
E(r_cmp_lt_i16, IREL(1, int16_t))
E(r_cmp_eq_i16, IREL(2, int16_t))
E(r_cmp_le_i16, IREL(3, int16_t))
E(r_cmp_ne_i16, IREL(5, int16_t))
E(r_cmp_ge_i16, IREL(6, int16_t))
E(r_cmp_t_i16, IREL(7, int16_t))
E(r_cmp_f_u16, IREL(0, uint16_t))
E(r_cmp_lt_u16, IREL(1, uint16_t))
E(r_cmp_le_u16, IREL(3, uint16_t))
E(r_cmp_gt_u16, IREL(4, uint16_t))
E(r_cmp_ne_u16, IREL(5, uint16_t))
E(r_cmp_ge_u16, IREL(6, uint16_t))
E(r_cmp_t_u16, IREL(7, uint16_t))
E(r_cmpx_f_i16, IREL(0, int16_t))
E(r_cmpx_lt_i16, IREL(1, int16_t))
E(r_cmpx_eq_i16, IREL(2, int16_t))
E(r_cmpx_le_i16, IREL(3, int16_t))
E(r_cmpx_gt_i16, IREL(4, int16_t))
E(r_cmpx_ne_i16, IREL(5, int16_t))
E(r_cmpx_ge_i16, IREL(6, int16_t))
E(r_cmpx_t_i16, IREL(7, int16_t))
E(r_cmpx_f_u16, IREL(0, uint16_t))
E(r_cmpx_lt_u16, IREL(1, uint16_t))
E(r_cmpx_eq_u16, IREL(2, uint16_t))
E(r_cmpx_le_u16, IREL(3, uint16_t))
E(r_cmpx_gt_u16, IREL(4, uint16_t))
E(r_cmpx_ne_u16, IREL(5, uint16_t))
E(r_cmpx_ge_u16, IREL(6, uint16_t))
E(r_cmpx_t_u16, IREL(7, uint16_t))
E(r_cmp_f_i32, IREL(0, int32_t))
E(r_cmp_eq_i32, IREL(2, int32_t))
E(r_cmp_le_i32, IREL(3, int32_t))
E(r_cmp_gt_i32, IREL(4, int32_t))
E(r_cmp_ne_i32, IREL(5, int32_t))
E(r_cmp_ge_i32, IREL(6, int32_t))
E(r_cmp_t_i32, IREL(7, int32_t))
E(r_cmp_f_u32, IREL(0, uint32_t))
E(r_cmp_eq_u32, IREL(2, uint32_t))
E(r_cmp_le_u32, IREL(3, uint32_t))
E(r_cmp_gt_u32, IREL(4, uint32_t))
E(r_cmp_ne_u32, IREL(5, uint32_t))
E(r_cmp_t_u32, IREL(7, uint32_t))
E(r_cmpx_f_i32, IREL(0, int32_t))
E(r_cmpx_lt_i32, IREL(1, int32_t))
E(r_cmpx_eq_i32, IREL(2, int32_t))
E(r_cmpx_le_i32, IREL(3, int32_t))
E(r_cmpx_gt_i32, IREL(4, int32_t))
E(r_cmpx_ne_i32, IREL(5, int32_t))
E(r_cmpx_ge_i32, IREL(6, int32_t))
E(r_cmpx_t_i32, IREL(7, int32_t))
E(r_cmpx_f_u32, IREL(0, uint32_t))
E(r_cmpx_lt_u32, IREL(1, uint32_t))
E(r_cmpx_eq_u32, IREL(2, uint32_t))
E(r_cmpx_le_u32, IREL(3, uint32_t))
E(r_cmpx_gt_u32, IREL(4, uint32_t))
E(r_cmpx_ne_u32, IREL(5, uint32_t))
E(r_cmpx_ge_u32, IREL(6, uint32_t))
E(r_cmpx_t_u32, IREL(7, uint32_t))
E(r_cmp_f_i64, IREL(0, int64_t))
E(r_cmp_eq_i64, IREL(2, int64_t))
E(r_cmp_le_i64, IREL(3, int64_t))
E(r_cmp_gt_i64, IREL(4, int64_t))
E(r_cmp_ne_i64, IREL(5, int64_t))
E(r_cmp_ge_i64, IREL(6, int64_t))
E(r_cmp_t_i64, IREL(7, int64_t))
E(r_cmp_f_u64, IREL(0, uint64_t))
E(r_cmp_lt_u64, IREL(1, uint64_t))
E(r_cmp_eq_u64, IREL(2, uint64_t))
E(r_cmp_le_u64, IREL(3, uint64_t))
E(r_cmp_gt_u64, IREL(4, uint64_t))
E(r_cmp_ge_u64, IREL(6, uint64_t))
E(r_cmp_t_u64, IREL(7, uint64_t))
E(r_cmpx_f_i64, IREL(0, int64_t))
E(r_cmpx_lt_i64, IREL(1, int64_t))
E(r_cmpx_eq_i64, IREL(2, int64_t))
E(r_cmpx_le_i64, IREL(3, int64_t))
E(r_cmpx_gt_i64, IREL(4, int64_t))
E(r_cmpx_ne_i64, IREL(5, int64_t))
E(r_cmpx_ge_i64, IREL(6, int64_t))
E(r_cmpx_t_i64, IREL(7, int64_t))
E(r_cmpx_f_u64, IREL(0, uint64_t))
E(r_cmpx_lt_u64, IREL(1, uint64_t))
E(r_cmpx_eq_u64, IREL(2, uint64_t))
E(r_cmpx_le_u64, IREL(3, uint64_t))
E(r_cmpx_gt_u64, IREL(4, uint64_t))
E(r_cmpx_ne_u64, IREL(5, uint64_t))
E(r_cmpx_ge_u64, IREL(6, uint64_t))
E(r_cmpx_t_u64, IREL(7, uint64_t))

/*
 * v_div_fmas with VCC: fma(S0, S1, S2) x 2^+-@bias (up when S2's biased
 * exponent is at least the bias, |S2| >= 1), rounded once to @p
 * significand bits whose least unit is 2^@emin. The reference sums
 * exactly in a big integer counting units of 2^-BIGU (every double, and
 * every product of two, is a whole number of them) and rounds it bit by
 * bit at the result's unit: not the FPU's 128-bit way.
 */
#define BIGU    2200
#define BIGW    140                     /* 32-bit words: 4480 bits */

typedef struct Big {
	uint32_t w[BIGW];
} Big;

/* @x += @v x 2^@pos */
static void big_add(Big *x, uint64_t v, int pos)
{
	unsigned i = pos / 32, sh = pos % 32;
	uint32_t part[3] = { (uint32_t)(v << sh), (uint32_t)(v >> (32 - sh)),
			     sh ? (uint32_t)(v >> (64 - sh)) : 0 };
	uint64_t carry = 0;

	for (unsigned k = 0; i + k < BIGW && (k < 3 || carry); k++) {
		carry += (uint64_t)x->w[i + k] + (k < 3 ? part[k] : 0);
		x->w[i + k] = (uint32_t)carry;
		carry >>= 32;
	}
}

static int big_bit(const Big *x, int i)
{
	return i < 0 ? 0 : (x->w[i / 32] >> (i % 32)) & 1;
}

static int big_cmp(const Big *x, const Big *y)
{
	for (int i = BIGW - 1; i >= 0; i--)
		if (x->w[i] != y->w[i])
			return x->w[i] < y->w[i] ? -1 : 1;
	return 0;
}

/* @x -= @y (@x >= @y) */
static void big_sub(Big *x, const Big *y)
{
	int64_t borrow = 0;

	for (int i = 0; i < BIGW; i++) {
		int64_t t = (int64_t)x->w[i] - y->w[i] - borrow;

		borrow = t < 0;
		x->w[i] = (uint32_t)(t + (borrow ? 1LL << 32 : 0));
	}
}

/* finite @x = *@m x 2^*@e from its bits */
static void dbits(double x, uint64_t *m, int *e)
{
	uint64_t u = UD(x);
	int be = (int)((u >> 52) & 0x7ff);

	*m = u & 0xfffffffffffffULL;
	if (be)
		*m |= 1ULL << 52;
	*e = (be ? be : 1) - 1075;
}

static double ref_fmas(double a, double b, double c, int bias, int p,
		       int emin)
{
	int s = ((UD(c) >> 52) & 0x7ff) >= 1023 ? bias : -bias;
	uint64_t ma, mb, mc, r = 0;
	int ea, eb, ec, h, q, k, guard, sticky = 0, neg;
	Big P, C;

	if (isnan(a) || isnan(b) || isnan(c) || isinf(a) || isinf(b) ||
	    isinf(c))
		return fma(a, b, c);            /* NaN or infinite: exact */
	memset(&P, 0, sizeof(P));
	memset(&C, 0, sizeof(C));
	dbits(a, &ma, &ea);
	dbits(b, &mb, &eb);
	dbits(c, &mc, &ec);
	for (int j = 0; j < 53; j++)
		if ((mb >> j) & 1)
			big_add(&P, ma, ea + eb + j + BIGU);
	big_add(&C, mc, ec + BIGU);
	neg = signbit(a) != signbit(b);
	if (neg == !!signbit(c)) {
		for (int i = 0; i < BIGW; i++)
			big_add(&P, C.w[i], 32 * i);
	} else if (big_cmp(&P, &C) >= 0) {
		big_sub(&P, &C);
	} else {
		big_sub(&C, &P);
		P = C;
		neg = !neg;
	}
	for (h = 32 * BIGW - 1; h >= 0 && !big_bit(&P, h); h--)
		;
	if (h < 0)
		return fma(a, b, c);            /* exactly zero: its sign */
	q = h - BIGU + s - (p - 1);
	if (q < emin)
		q = emin;
	k = q - s + BIGU;                       /* the unit's bit */
	for (int i = h; i >= k; i--)
		r = r << 1 | big_bit(&P, i);
	guard = big_bit(&P, k - 1);
	for (int i = k - 2; i >= 0 && !sticky; i--)
		sticky = big_bit(&P, i);
	r += guard && (sticky || (r & 1));
	return neg ? -ldexp((double)r, q) : ldexp((double)r, q);
}

/* VCC (lane_vcc) clear: a plain fma */
E(e_fmasd, UD(lane_vcc ? ref_fmas(D(a), D(b), D(c), 128, 53, -1074)
		       : fma(D(a), D(b), D(c))))
E(e_fmasf, UF(lane_vcc ? (float)ref_fmas(F(a), F(b), F(c), 64, 24, -149)
		       : fmaf(F(a), F(b), F(c))))

/*
 * VOPC DPP (v_cmpx): quad_perm:[1,0,3,2] row_mask:0xa: rows 0 and 2 do
 * not run (0 in VCC and EXEC)
 */
static void x_cmpx_quad(const uint32_t *a, const uint32_t *b, uint32_t *out)
{
	for (unsigned l = 0; l < 64; l++)
		out[l] = l / 16 == 1 || l / 16 == 3 ? a[l ^ 1] > b[l] : 0;
}

/*
 * row_shr:1 bound_ctrl:0 with -src0, EXEC_PAT: a lane whose source lane
 * is outside its row or inactive reads 0; inactive lanes give 0
 */
static void x_cmpx_shr(const uint32_t *a, const uint32_t *b, uint32_t *out)
{
	for (unsigned l = 0; l < 64; l++) {
		int s = l % 16 ? (int)l - 1 : -1;
		float src = s < 0 || !((EXEC_PAT >> s) & 1) ? 0.0f : F(a[s]);

		out[l] = (EXEC_PAT >> l) & 1 ? -src < F(b[l]) : 0;
	}
}

/*
 * v_mqsad_u32_u8: D.u32[k] = the masked SAD of S0's bytes k..k+3 with
 * S1 (a zero byte of S1 skipped) + S2.u32[k]; lane_c_hi: S2's upper half
 */
static uint64_t lane_c_hi;

static uint32_t mq32(uint64_t a, uint64_t b, uint64_t c2, unsigned k)
{
	return sad8(a >> (8 * k), U(b), 1) + (uint32_t)(c2 >> (32 * (k & 1)));
}

E(e_mqsad32, mq32(a, b, c, 0) | (uint64_t)mq32(a, b, c, 1) << 32)
E(e_mqsad32_hi, mq32(a, b, lane_c_hi, 2) |
		(uint64_t)mq32(a, b, lane_c_hi, 3) << 32)

/* s_bitset0; s_movrels/s_movreld: M0 (the case's m0) past the field */
E(s_bitset0, OLD & ~(1u << (a & 31)))
E(s_bitset0_64, (OLD | (uint64_t)OLDHI << 32) & ~(1ULL << (a & 63)))
E(s_movrels_m0, b)
E(s_movreld_m0, a)

/* In the order of tests/gcn/insns.s */
/* a double to half, rounded once (the compiler's conversion) */
static uint64_t UHD(double d)
{
	_Float16 h = (_Float16)d;
	uint16_t u;

	memcpy(&u, &h, 2);
	return u;
}

/* a half's bits, a denormal flushed to its signed zero */
static uint32_t FZ(uint64_t h)
{
	h &= 0xffff;
	return !(h & 0x7c00) ? (uint32_t)h & 0x8000 : (uint32_t)h;
}

/*
 * gfx9's v_mac_f16, v_madmk_f16, v_madak_f16: the product rounded to half,
 * then the sum; the destination's upper half kept (LLVM's
 * zeroesHigh16BitsOfDest: zeroed on gfx8 only). v0 is OLD, the addend of
 * v_mac_f16 its low half.
 */
E(e_mach, (OLD & 0xffff0000u) |
	  UHD((double)H(UH(H(a) * H(b))) + H(OLD)))
E(e_madakh, (OLD & 0xffff0000u) | UHD((double)H(UH(H(a) * H(b))) + 3.0))
E(e_madmkh, (OLD & 0xffff0000u) | UHD((double)H(UH(H(a) * 3.0f)) + H(b)))

/* MODE's fp16 denormals flushed: inputs and results */
E(z_addh, FZ(UHD((double)H(FZ(a)) + H(FZ(b)))))
E(z_mulh, FZ(UH(H(FZ(a)) * H(FZ(b)))))
E(z_fmah, (OLD & 0xffff0000u) |
	  FZ(UHD(fma(H(FZ(a)), H(FZ(b)), H(FZ(c))))))
E(z_cvtf_h, UF(H(FZ(a))))
E(z_cvth_f, FZ(UH(F(a))))
E(z_cmp0h, H(FZ(a)) == 0)
E(e_cmp0h, H(a) == 0)
E(z_pk_addh, FZ(UHD((double)H(FZ(lo16(a))) + H(FZ(lo16(b))))) |
	     FZ(UHD((double)H(FZ(hi16(a))) + H(FZ(hi16(b))))) << 16)
E(z_mixlo, (OLD & 0xffff0000u) |
	   FZ(UH((float)(H(FZ(a >> 16)) * H(FZ(b))) + H(FZ(c)))))

/* More integer, scalar, fp16 and packed ones (issue: per-instruction gaps) */
E(e_cndmask, lane_vcc ? U(b) : U(a))
E(e_subrevf, UF(F(b) - F(a)))
E(e_maxi, (uint32_t)(I(a) > I(b) ? I(a) : I(b)))
E(e_minu, U(a) < U(b) ? U(a) : U(b))
E(e_macf, UF((float)(F(a) * F(b)) + F(OLD)))
E(e_madmkf, UF((float)(F(a) * 3.0f) + F(b)))
E(e_madakf, UF((float)(F(a) * F(b)) + 3.0f))
E(e_addco, U(a) + U(b))
E(c_addco, (uint64_t)U(a) + U(b) > 0xffffffffu)
E(c_subco, U(b) > U(a))
E(e_subrevco, U(b) - U(a))
E(e_addcco, U(a) + U(b) + lane_vcc)
E(c_addcco, (uint64_t)U(a) + U(b) + lane_vcc > 0xffffffffu)
E(c_subbco, (uint64_t)U(b) + lane_vcc > U(a))
E(e_subbrevco, U(b) - U(a) - lane_vcc)
E(e_subu16, (a - b) & 0xffff)
E(e_subrevu16, (b - a) & 0xffff)
E(e_lshl16, ((b & 0xffff) << (a & 15)) & 0xffff)
E(e_lshr16, (b & 0xffff) >> (a & 15))
E(e_minu16, (a & 0xffff) < (b & 0xffff) ? a & 0xffff : b & 0xffff)
E(e_mini16, (uint16_t)((int16_t)a < (int16_t)b ? a : b))
E(e_minh, mm16(a, b, 0))
E(e_subrevh, UH(H(b) - H(a)))
E(e_ldexph, UHD(ldexp(H(a), (int16_t)b)))
E(e_ubyte0, UF((float)(a & 0xff)))
E(e_ubyte1, UF((float)((a >> 8) & 0xff)))
E(e_ubyte3, UF((float)((a >> 24) & 0xff)))
E(e_cvtd_u, UD((double)U(a)))
E(e_ceild, UD(ceil(D(a))))
E(e_mantd, UD(isinf(D(a)) || isnan(D(a)) ? D(a) : frexp(D(a), &(int){ 0 })))
E(e_cosf, UF(cosf((float)(F(a) * 2 * M_PI))))
E(e_cvth_u16, UH((float)(uint16_t)a))
E(e_cvth_i16, UH((float)(int16_t)a))
E(e_cvti16_h,
  (uint16_t)(isnan(H(a)) ? 0 : H(a) <= -32768 ? -32768 : H(a) >= 32767
  ? 32767 : (int16_t)H(a)))
E(e_rcph, UH(1.0f / H(a)))
E(e_sqrth, UH(sqrtf(H(a))))
E(e_rsqh, UHD(1.0 / sqrt((double)H(a))))
E(e_floorh, UH(floorf(H(a))))
E(e_ceilh, UH(ceilf(H(a))))
E(e_trunch, UH(truncf(H(a))))
E(e_rndneh, UH(rintf(H(a))))
E(e_fracth, UH(isinf(H(a)) ? NAN : fminf(H(a) - floorf(H(a)), 0x1.ffcp-1f)))
E(e_madlegf, UF((F(a) == 0 || F(b) == 0 ? 0.0f : (float)(F(a) * F(b))) + F(c)))
E(e_madi24, (uint32_t)(((I(a) << 8) >> 8) * ((I(b) << 8) >> 8)) + U(c))
E(e_min3u,
  U(a) < U(b) ? (U(a) < U(c) ? U(a) : U(c)) : (U(b) < U(c) ? U(b) : U(c)))
E(e_max3i,
  (uint32_t)(I(a) > I(b) ? (I(a) > I(c) ? I(a) : I(c)) : (I(b) > I(c) ? I(b)
  : I(c))))
E(e_madu64, (uint64_t)U(a) * U(b) + c)
E(e_madi64, (uint64_t)((int64_t)I(a) * I(b)) + c)
E(e_min3i16,
  (OLD & 0xffff0000u) | (uint16_t)((int16_t)a < (int16_t)b
  ? ((int16_t)a < (int16_t)c ? a : c) : ((int16_t)b < (int16_t)c ? b : c)))
E(e_min3u16,
  (OLD & 0xffff0000u) | (uint32_t)(lo16(a) < lo16(b) ? (lo16(a) < lo16(c)
  ? lo16(a) : lo16(c)) : (lo16(b) < lo16(c) ? lo16(b) : lo16(c))))
E(e_max3u16,
  (OLD & 0xffff0000u) | (uint32_t)(lo16(a) > lo16(b) ? (lo16(a) > lo16(c)
  ? lo16(a) : lo16(c)) : (lo16(b) > lo16(c) ? lo16(b) : lo16(c))))
E(e_max3h, (OLD & 0xffff0000u) | mm16(mm16(a, b, 1), c, 1))
E(e_med3i16,
  (OLD & 0xffff0000u) | (uint16_t)mid3((int16_t)a, (int16_t)b, (int16_t)c))
E(e_madh, (OLD & 0xffff0000u) | UHD((double)H(UH(H(a) * H(b))) + H(c)))
E(e_lshr64, b >> (a & 63))
E(e_pknormu_f, unorm16(F(a)) | unorm16(F(b)) << 16)
E(e_pknormi_h, snorm16(H(a)) | snorm16(H(b)) << 16)
E(e_cvtpku16,
  (U(a) > 0xffff ? 0xffff : U(a)) | (U(b) > 0xffff ? 0xffff : U(b)) << 16)
E(e_subi, U(a) - U(b))
static uint32_t madi16(uint32_t a, uint32_t b, uint32_t c)
{
	return (uint16_t)((int16_t)a * (int16_t)b + (int16_t)c);
}

E(e_pk_madi, madi16(lo16(a), lo16(b), lo16(c)) |
	     madi16(hi16(a), hi16(b), hi16(c)) << 16)
E(e_pk_madu,
  ((lo16(a) * lo16(b) + lo16(c)) & 0xffff)
  | ((hi16(a) * hi16(b) + hi16(c)) & 0xffff) << 16)
E(e_pk_addi,
  ((lo16(a) + lo16(b)) & 0xffff) | ((hi16(a) + hi16(b)) & 0xffff) << 16)
E(e_pk_subu,
  ((lo16(a) - lo16(b)) & 0xffff) | ((hi16(a) - hi16(b)) & 0xffff) << 16)
E(e_pk_lshr, (lo16(b) >> (lo16(a) & 15)) | (hi16(b) >> (hi16(a) & 15)) << 16)
E(e_pk_ashr,
  (uint16_t)((int16_t)lo16(b) >> (lo16(a) & 15))
  | (uint32_t)(uint16_t)((int16_t)hi16(b) >> (hi16(a) & 15)) << 16)
E(e_pk_mini,
  (uint16_t)((int16_t)lo16(a) < (int16_t)lo16(b) ? lo16(a) : lo16(b))
  | (uint32_t)((int16_t)hi16(a) < (int16_t)hi16(b) ? hi16(a) : hi16(b)) << 16)
E(e_pk_minu,
  (lo16(a) < lo16(b) ? lo16(a) : lo16(b)) | (hi16(a) < hi16(b) ? hi16(a)
  : hi16(b)) << 16)
E(e_pk_maxu,
  (lo16(a) > lo16(b) ? lo16(a) : lo16(b)) | (hi16(a) > hi16(b) ? hi16(a)
  : hi16(b)) << 16)
E(e_pk_minh, mm16(lo16(a), lo16(b), 0) | mm16(hi16(a), hi16(b), 0) << 16)
E(e_mbcntlo,
  __builtin_popcount(U(a) & (lane_no >= 32 ? ~0u : (1u << lane_no) - 1)) + U(b))
E(e_mbcnthi,
  __builtin_popcount(U(a) & (lane_no < 32 ? 0
  : (uint32_t)((1ULL << (lane_no - 32)) - 1))) + U(b))
E(s_subi, U(a) - U(b))
E(c_subi, ((int64_t)I(a) - I(b)) != (int32_t)(U(a) - U(b)))
E(s_minu, U(a) < U(b) ? U(a) : U(b))
E(c_minu, U(a) < U(b))
E(s_maxi, (uint32_t)(I(a) > I(b) ? I(a) : I(b)))
E(c_maxi, I(a) > I(b))
E(s_and64, (a & b))
E(c_and64, (a & b) != 0)
E(s_or32, U(a | b))
E(c_or32, U(a | b) != 0)
E(s_or64, (a | b))
E(c_or64, (a | b) != 0)
E(s_xor32, U(a ^ b))
E(c_xor32, U(a ^ b) != 0)
E(s_xor64, (a ^ b))
E(c_xor64, (a ^ b) != 0)
E(s_andn2_32, U(a & ~b))
E(c_andn2_32, U(a & ~b) != 0)
E(s_orn2_32, U(a | ~b))
E(c_orn2_32, U(a | ~b) != 0)
E(s_nand64, ~(a & b))
E(c_nand64, ~(a & b) != 0)
E(s_nor32, U(~(a | b)))
E(c_nor32, U(~(a | b)) != 0)
E(s_nor64, ~(a | b))
E(c_nor64, ~(a | b) != 0)
E(s_xnor32, U(~(a ^ b)))
E(c_xnor32, U(~(a ^ b)) != 0)
E(s_lshl64, a << (b & 63))
E(c_lshl64, (a << (b & 63)) != 0)
E(s_lshr32, U(a) >> (b & 31))
E(c_lshr32, (U(a) >> (b & 31)) != 0)
E(s_ashr64, (uint64_t)((int64_t)a >> (b & 63)))
E(c_ashr64, ((int64_t)a >> (b & 63)) != 0)
E(s_bfm32, ((1u << (a & 31)) - 1) << (b & 31))
E(s_bfm64, ((1ULL << (a & 63)) - 1) << (b & 63))
E(s_mulhii, (uint32_t)(((int64_t)I(a) * I(b)) >> 32))
E(s_lshl1add, (U(a) << 1) + U(b))
E(c_lshl1add, (((uint64_t)U(a) << 1) + U(b)) > 0xffffffffu)
E(s_lshl3add, (U(a) << 3) + U(b))
E(c_lshl3add, (((uint64_t)U(a) << 3) + U(b)) > 0xffffffffu)
E(s_lshl4add, (U(a) << 4) + U(b))
E(c_lshl4add, (((uint64_t)U(a) << 4) + U(b)) > 0xffffffffu)
E(s_packll, (U(a) & 0xffff) | U(b) << 16)
E(s_csel32, in_scc ? U(a) : U(b))
E(c_csel32, in_scc)
E(s_csel64, in_scc ? a : b)
E(c_csel64, in_scc)
E(s_addc, U(a) + U(b) + in_scc)
E(c_addc, (uint64_t)U(a) + U(b) + in_scc > 0xffffffffu)
E(s_subb, U(a) - U(b) - in_scc)
E(c_subb, (uint64_t)U(b) + in_scc > U(a))
E(s_mov64, a)
E(s_not64, ~a)
E(c_not64, ~a != 0)
E(s_wqm32, (uint32_t)s_wqm64(U(a), 0, 0))
E(c_wqm32, s_wqm64(U(a), 0, 0) != 0)
E(s_bcnt0_64, 64 - __builtin_popcountll(a))
E(c_bcnt0_64, a != ~0ULL)
E(s_bcnt1_32, __builtin_popcount(U(a)))
E(c_bcnt1_32, U(a) != 0)
E(s_ff0_32, ~U(a) ? (uint32_t)__builtin_ctz(~U(a)) : 0xffffffffu)
E(s_ff1_64, a ? (uint32_t)__builtin_ctzll(a) : 0xffffffffu)
E(s_flbit64, a ? (uint32_t)__builtin_clzll(a) : 0xffffffffu)
E(s_qmask64, s_qmask32(a, 0, 0) | s_qmask32(a >> 32, 0, 0) << 8)
E(c_qmask64, (s_qmask32(a, 0, 0) | s_qmask32(a >> 32, 0, 0)) != 0)
E(s_cmov32, in_scc ? U(a) : OLD)
E(s_cmov64, in_scc ? a : (OLD | (uint64_t)OLDHI << 32))
E(s_movk, 0xffff8765u)
E(s_cmovk, in_scc ? 0x1234u : OLD)
E(s_addk, OLD + 0x7654u)
E(c_addk, ((int64_t)(int32_t)OLD + 0x7654) != (int32_t)(OLD + 0x7654u))
E(s_mulk, OLD * 0xfffffffdu)
E(s_getpc, 0x1004)
E(c_eqi, I(a) == I(b))
E(c_lgi, I(a) != I(b))
E(c_gti, I(a) > I(b))
E(c_gei, I(a) >= I(b))
E(c_lei, I(a) <= I(b))
E(c_equ, U(a) == U(b))
E(c_lgu, U(a) != U(b))
E(c_gtu, U(a) > U(b))
E(c_ltu, U(a) < U(b))
E(c_leu, U(a) <= U(b))
E(c_eq64, a == b)
E(c_bitcmp0, !((U(a) >> (b & 31)) & 1))
E(c_bitcmp0_64, !((a >> (b & 63)) & 1))
E(c_bitcmp1_64, (a >> (b & 63)) & 1)
E(c_keqi, I(a) == -1)
E(c_klgi, I(a) != -1)
E(c_kgti, I(a) > -1)
E(c_kgei, I(a) >= -1)
E(c_klti, I(a) < -1)
E(c_kequ, U(a) == 0xffffu)
E(c_klgu, U(a) != 0xffffu)
E(c_kgtu, U(a) > 0xffffu)
E(c_kgeu, U(a) >= 0xffffu)
E(c_kltu, U(a) < 0xffffu)

/* saveexec: D the old EXEC (b); wrexec: D the new one */
E(s_oldexec, b)
E(x_and, a & b)
E(x_or, a | b)
E(x_xor, a ^ b)
E(x_andn2, a & ~b)
E(x_orn2, a | ~b)
E(x_nand, ~(a & b))
E(x_nor, ~(a | b))
E(x_xnor, ~(a ^ b))
E(x_orn1, ~a | b)
E(x_andn1, ~a & b)
E(s_andn1wr, ~a & b)
E(s_andn2wr, a & ~b)

/*
 * v_div_scale_f32/f64 (the ISA's pseudo-code): exponent() is the biased
 * exponent field, DENORM a finite value below the least normal (0 too:
 * the quotient underflowed); D = S0 unless a clause sets it. One
 * departure from the text: where 1/S1 and S2/S1 are both denormal it
 * says ldexp(S0, +64), which would send S1 (above 2^126) to infinity
 * and the division with it; S1 goes down instead (x 2^-64), VCC set so
 * v_div_fmas scales the quotient back.
 */
static int bexp(double x, int is64)
{
	return is64 ? (int)((UD(x) >> 52) & 0x7ff) :
	       (int)((UF((float)x) >> 23) & 0xff);
}

static double ref_dscale(double s0, double s1, double s2, int is64,
			 int *vcc)
{
	int bias = is64 ? 128 : 64, lim = is64 ? 768 : 96;
	double tiny = is64 ? 0x1p-1022 : 0x1p-126;
	double inv = is64 ? 1.0 / s1 : (float)(1.0f / (float)s1);
	double q = is64 ? s2 / s1 : (float)((float)s2 / (float)s1);

	*vcc = 0;
	if (s2 == 0 || s1 == 0)
		return NAN;
	if (bexp(s2, is64) - bexp(s1, is64) >= lim) {
		*vcc = 1;
		return s0 == s1 ? ldexp(s0, bias) : s0;
	}
	if (fabs(s1) < tiny)
		return ldexp(s0, bias);
	if (fabs(inv) < tiny && fabs(q) < tiny) {
		*vcc = 1;
		return s0 == s1 ? ldexp(s0, -bias) : s0;
	}
	if (fabs(inv) < tiny)
		return ldexp(s0, -bias);
	if (fabs(q) < tiny) {
		*vcc = 1;
		return s0 == s2 ? ldexp(s0, bias) : s0;
	}
	if (bexp(s2, is64) <= (is64 ? 53 : 23))
		return ldexp(s0, bias);
	return s0;
}

static uint64_t e_dscalef(uint64_t a, uint64_t b, uint64_t c)
{
	int vcc;

	return UF((float)ref_dscale(F(a), F(b), F(c), 0, &vcc));
}

static uint64_t c_dscalef(uint64_t a, uint64_t b, uint64_t c)
{
	int vcc;

	ref_dscale(F(a), F(b), F(c), 0, &vcc);
	return vcc;
}

static uint64_t e_dscaled(uint64_t a, uint64_t b, uint64_t c)
{
	int vcc;

	return UD(ref_dscale(D(a), D(b), D(c), 1, &vcc));
}

static uint64_t c_dscaled(uint64_t a, uint64_t b, uint64_t c)
{
	int vcc;

	ref_dscale(D(a), D(b), D(c), 1, &vcc);
	return vcc;
}

/*
 * v_div_fixup_f32/f64 (ISA): S0 the quotient, S1 the denominator, S2 the
 * numerator; the inputs (dfix_in) keep S2/S1 within 2^+-100, away from
 * the text's exponent-difference clauses
 */
static double ref_dfixup(double q, double den, double num)
{
	int neg = signbit(den) != signbit(num);

	if (isnan(num) || isnan(den))
		return NAN;
	if ((den == 0 && num == 0) || (isinf(den) && isinf(num)))
		return NAN;
	if (den == 0 || isinf(num))
		return neg ? -INFINITY : INFINITY;
	if (isinf(den) || num == 0)
		return neg ? -0.0 : 0.0;
	return neg ? -fabs(q) : fabs(q);
}

E(e_dfixupf, UF((float)ref_dfixup(F(a), F(b), F(c))))
E(e_dfixupd, UD(ref_dfixup(D(a), D(b), D(c))))
/* 1 ulp in the ISA: the reference rounded once from long double */
E(e_rsqd, UD((double)(1.0L / sqrtl((long double)D(a)))))

/*
 * The EXEC the across-lanes instruction ran with (XL cases; EXM:
 * EXEC_PAT): DS_SWIZZLE, DS_PERMUTE and DS_BPERMUTE read
 * only active source lanes (an inactive one gives 0) and write only active
 * destinations.
 */
static uint64_t xl_exec = ~0ULL;

#define XL_ON(l) ((xl_exec >> (l)) & 1)

/*
 * ds_swizzle_b32 (data v10): offset[15] set, quad_perm: lane l reads lane
 * (l & ~3) + offset[2(l&3)+1:2(l&3)]; clear, bitmask in each 32 lanes:
 * ((l & and) | or) ^ xor, and offset[4:0], or [9:5], xor [14:10]
 */
static void swz(const uint32_t *a, uint32_t *out, unsigned off)
{
	for (unsigned l = 0; l < 64; l++) {
		unsigned s;

		if (off & 0x8000)
			s = (l & ~3u) | ((off >> (2 * (l & 3))) & 3);
		else
			s = (l & 32) | ((((l & 31) & (off & 31)) |
					 ((off >> 5) & 31)) ^ ((off >> 10) & 31));
		if (XL_ON(l))
			out[l] = XL_ON(s) ? a[s] : 0;
	}
}

static void x_swz_quad(const uint32_t *a, const uint32_t *b, uint32_t *out)
{
	swz(a, out, 0x8000 | 1 | 0 << 2 | 3 << 4 | 2 << 6);
}

/* "01pip": bit 4 0, bit 3 1, bits 2 and 0 kept, bit 1 inverted */
static void x_swz_bits(const uint32_t *a, const uint32_t *b, uint32_t *out)
{
	swz(a, out, 7 | 8 << 5 | 2 << 10);
}

static void x_swz_raw(const uint32_t *a, const uint32_t *b, uint32_t *out)
{
	swz(a, out, 0x3c4a);
}

/* ds_bpermute_b32 v0, v10, v12 offset:8: lane l reads lane ((v10 + 8) >> 2) & 63 */
static void x_bperm(const uint32_t *a, const uint32_t *b, uint32_t *out)
{
	for (unsigned l = 0; l < 64; l++) {
		unsigned s = ((a[l] + 8) >> 2) & 63;

		if (XL_ON(l))
			out[l] = XL_ON(s) ? b[s] : 0;
	}
}

/*
 * ds_permute_b32 v0, v10, v12 offset:4: lane l writes its v12 there; the
 * highest active lane pushing to a lane wins, an active lane nobody
 * pushes to gets 0
 */
static void x_perm(const uint32_t *a, const uint32_t *b, uint32_t *out)
{
	uint32_t tmp[64] = { 0 };

	for (unsigned l = 0; l < 64; l++)
		if (XL_ON(l))
			tmp[((a[l] + 4) >> 2) & 63] = b[l];
	for (unsigned l = 0; l < 64; l++)
		if (XL_ON(l))
			out[l] = tmp[l];
}

/* LDS: integer atomics, writes, reads of every width and half */
E(l_add_u32, U(U(a) + U(b)))
E(l_sub_u32, U(U(a) - U(b)))
E(l_rsub_u32, U(U(b) - U(a)))
E(l_inc_u32, U(a) >= U(b) ? 0 : U(a) + 1)
E(l_dec_u32, U(a) == 0 || U(a) > U(b) ? U(b) : U(a) - 1)
E(l_min_i32, (int32_t)a < (int32_t)b ? a : b)
E(l_max_i32, (int32_t)a > (int32_t)b ? a : b)
E(l_min_u32, U(a) < U(b) ? a : b)
E(l_max_u32, U(a) > U(b) ? a : b)
E(l_and_b32, U(a) & U(b))
E(l_or_b32, U(a) | U(b))
E(l_xor_b32, U(a) ^ U(b))
E(l_mskor32, (a & ~b) | c)
E(l_write32, b)
E(l_cmpst32, a == b ? c : a)
E(l_add_u64, a + b)
E(l_sub_u64, a - b)
E(l_rsub_u64, b - a)
E(l_inc_u64, a >= b ? 0 : a + 1)
E(l_dec_u64, a == 0 || a > b ? b : a - 1)
E(l_min_i64, (int64_t)a < (int64_t)b ? a : b)
E(l_max_i64, (int64_t)a > (int64_t)b ? a : b)
E(l_min_u64, a < b ? a : b)
E(l_max_u64, a > b ? a : b)
E(l_and_b64, a & b)
E(l_or_b64, a | b)
E(l_xor_b64, a ^ b)
E(l_mskor64, (a & ~b) | c)
E(l_write64, b)
E(l_cmpst64, a == b ? c : a)
E(l_maxf, UF((float)fmax_ieee(F(a), F(b))))
E(l_mind, UD(fmin_ieee(D(a), D(b))))
E(l_nop, a)
E(l_wb8, (a & ~0xffULL) | (b & 0xff))
E(l_wb16, (a & ~0xffffULL) | (b & 0xffff))
E(l_wb8hi, (a & ~0xffULL) | ((b >> 16) & 0xff))
E(l_wb16hi, (a & ~0xffffULL) | ((b >> 16) & 0xffff))
E(l_w2, U(b) | (uint64_t)U(c) << 32)
E(e_ds_u8, lds_rd(U(a) + 3, 1))
E(e_ds_i16, (uint32_t)(int16_t)lds_rd(U(a) + 6, 2))
E(e_ds_r2st64, lds_rd(U(a) + 256, 4) | lds_rd(U(a) + 512, 4) << 32)
E(e_ds_r2b64, lds_rd(U(a) + 8, 8))
E(e_ds_r2b64_hi, lds_rd(U(a) + 24, 8))
E(e_ds_r2st64b64, lds_rd(U(a) + 512, 8))
E(e_ds_r2st64b64_hi, lds_rd(U(a) + 1024, 8))
E(e_ds_b128, lds_rd(U(a) + 16, 8))
E(e_ds_b128_hi, lds_rd(U(a) + 24, 8))
E(e_ds_b96, lds_rd(U(a) + 4, 8))
E(e_ds_b96_hi, lds_rd(U(a) + 12, 4))
E(e_ds_u8d16, (OLD & 0xffff0000u) | lds_rd(U(a) + 1, 1))
E(e_ds_u8d16hi, (OLD & 0xffff) | lds_rd(U(a) + 1, 1) << 16)
E(e_ds_i8d16, (OLD & 0xffff0000u) | (uint16_t)(int8_t)lds_rd(U(a) + 2, 1))
E(e_ds_i8d16hi,
  (OLD & 0xffff) | (uint32_t)(uint16_t)(int8_t)lds_rd(U(a) + 2, 1) << 16)
E(e_ds_u16d16, (OLD & 0xffff0000u) | lds_rd(U(a) + 2, 2))
E(e_ds_u16d16hi, (OLD & 0xffff) | lds_rd(U(a) + 2, 2) << 16)

static const GcnCase cases[] = {
	{ "v_add_u32", 2, 'u', 0, e_add, NULL },
	{ "v_sub_u32", 2, 'u', 0, e_sub, NULL },
	{ "v_subrev_u32", 2, 'u', 0, e_subrev, NULL },
	{ "v_mul_lo_u32", 2, 'u', 0, e_mullo, NULL },
	{ "v_mul_hi_u32", 2, 'u', 0, e_mulhiu, NULL },
	{ "v_mul_hi_i32", 2, 'u', 0, e_mulhii, NULL },
	{ "v_mul_u32_u24", 2, 'u', 0, e_mulu24, NULL },
	{ "v_mul_i32_i24", 2, 'u', 0, e_muli24, NULL },
	{ "v_mul_hi_u32_u24", 2, 'u', 0, e_mulhiu24, NULL },
	{ "v_mul_hi_i32_i24", 2, 'u', 0, e_mulhii24, NULL },
	{ "v_min_i32", 2, 'u', 0, e_mini, NULL },
	{ "v_max_u32", 2, 'u', 0, e_maxu, NULL },
	{ "v_lshlrev_b32", 2, 'k', 0, e_lshl, NULL },
	{ "v_lshrrev_b32", 2, 'k', 0, e_lshr, NULL },
	{ "v_ashrrev_i32", 2, 'k', 0, e_ashr, NULL },
	{ "v_and_b32", 2, 'u', 0, e_and, NULL },
	{ "v_or_b32", 2, 'u', 0, e_or, NULL },
	{ "v_xor_b32", 2, 'u', 0, e_xor, NULL },
	{ "v_not_b32", 1, 'u', 0, e_not, NULL },
	{ "v_bfrev_b32", 1, 'u', 0, e_bfrev, NULL },
	{ "v_ffbh_u32", 1, 'u', 0, e_ffbh, NULL },
	{ "v_ffbl_b32", 1, 'u', 0, e_ffbl, NULL },
	{ "v_ffbh_i32", 1, 'u', 0, e_ffbhi, NULL },
	{ "v_bcnt_u32_b32", 2, 'u', 0, e_bcnt, NULL },
	{ "v_bfm_b32", 2, 'k', 0, e_bfm, NULL },
	{ "v_bfe_u32", 3, 'k', 0, e_bfeu, NULL },
	{ "v_bfe_i32", 3, 'k', 0, e_bfei, NULL },
	{ "v_bfi_b32", 3, 'u', 0, e_bfi, NULL },
	{ "v_alignbit_b32", 3, 'k', 0, e_alignbit, NULL },
	{ "v_alignbyte_b32", 3, 'k', 0, e_alignbyte, NULL },
	{ "v_perm_b32", 3, 'p', 0, e_perm, NULL },
	{ "v_min3_i32", 3, 'u', 0, e_min3i, NULL },
	{ "v_max3_u32", 3, 'u', 0, e_max3u, NULL },
	{ "v_med3_i32", 3, 'u', 0, e_med3i, NULL },
	{ "v_med3_u32", 3, 'u', 0, e_med3u, NULL },
	{ "v_sad_u32", 3, 'u', 0, e_sad, NULL },
	{ "v_xad_u32", 3, 'u', 0, e_xad, NULL },
	{ "v_lshl_add_u32", 3, 'k', 0, e_lshladd, NULL },
	{ "v_add_lshl_u32", 3, 'k', 0, e_addlshl, NULL },
	{ "v_add3_u32", 3, 'u', 0, e_add3, NULL },
	{ "v_lshl_or_b32", 3, 'k', 0, e_lshlor, NULL },
	{ "v_and_or_b32", 3, 'u', 0, e_andor, NULL },
	{ "v_or3_b32", 3, 'u', 0, e_or3, NULL },
	{ "v_mad_u32_u24", 3, 'u', 0, e_madu24, NULL },
	{ "v_mad_u32_u16", 3, 'u', 0, e_madu16, NULL },
	{ "v_add_u16", 2, 'u', 0, e_addu16, NULL },
	{ "v_mul_lo_u16", 2, 'u', 0, e_mulu16, NULL },
	{ "v_ashrrev_i16", 2, 'k', 0, e_ashri16, NULL },
	{ "v_max_i16", 2, 'u', 0, e_maxi16, NULL },
	{ "v_add_i32", 2, 'u', 0, e_addi_clamp, NULL },
	{ "v_add_u32_e64", 2, 'u', 0, e_addu_clamp, NULL },
	{ "v_add_u32", 2, 'u', 0, e_addlit, NULL },
	{ "v_lshlrev_b64", 2, 'k', W1 | WD, e_lshl64, NULL },
	{ "v_ashrrev_i64", 2, 'k', W1 | WD, e_ashr64, NULL },
	{ "v_add_f32", 2, 'f', 0, e_addf, NULL },
	{ "v_sub_f32", 2, 'f', 0, e_subf, NULL },
	{ "v_mul_f32", 2, 'f', 0, e_mulf, NULL },
	{ "v_mul_legacy_f32", 2, 'f', 0, e_mullegacy, NULL },
	{ "v_min_f32", 2, 'f', 0, e_minf, NULL },
	{ "v_max_f32", 2, 'f', 0, e_maxf, NULL },
	{ "v_add_f32_e64", 2, 'f', 0, e_addf_mod, NULL },
	{ "v_mul_f32_e64", 2, 'f', 0, e_mulf_x2, NULL },
	{ "v_add_f32_e64", 2, 'f', 0, e_addf_clamp, NULL },
	{ "v_fma_f32", 3, 'f', 0, e_fmaf, NULL },
	{ "v_mad_f32", 3, 'f', 0, e_madf, NULL },
	{ "v_min3_f32", 3, 'f', 0, e_min3f, NULL },
	{ "v_max3_f32", 3, 'f', 0, e_max3f, NULL },
	{ "v_med3_f32", 3, 'f', 0, e_med3f, NULL },
	{ "v_ldexp_f32", 2, 'f', 0, e_ldexpf, NULL },
	{ "v_cvt_f32_i32", 1, 'u', 0, e_cvtf_i, NULL },
	{ "v_cvt_f32_u32", 1, 'u', 0, e_cvtf_u, NULL },
	{ "v_cvt_i32_f32", 1, 'f', 0, e_cvti_f, NULL },
	{ "v_cvt_u32_f32", 1, 'f', 0, e_cvtu_f, NULL },
	{ "v_cvt_rpi_i32_f32", 1, 'f', 0, e_cvtrpi, NULL },
	{ "v_cvt_flr_i32_f32", 1, 'f', 0, e_cvtflr, NULL },
	{ "v_cvt_f32_ubyte2", 1, 'u', 0, e_ubyte2, NULL },
	{ "v_floor_f32", 1, 'f', 0, e_floorf, NULL },
	{ "v_ceil_f32", 1, 'f', 0, e_ceilf, NULL },
	{ "v_trunc_f32", 1, 'f', 0, e_truncf, NULL },
	{ "v_rndne_f32", 1, 'f', 0, e_rndnef, NULL },
	{ "v_fract_f32", 1, 'f', 0, e_fractf, NULL },
	{ "v_sqrt_f32", 1, 'f', 0, e_sqrtf, NULL },
	{ "v_rcp_f32", 1, 'f', 0, e_rcpf, NULL },
	{ "v_rsq_f32", 1, 'f', 0, e_rsqf, NULL },
	{ "v_exp_f32", 1, 'f', 0, e_expf, NULL },
	{ "v_log_f32", 1, 'f', 0, e_logf, NULL },
	{ "v_sin_f32", 1, 'f', 0, e_sinf, NULL },
	{ "v_frexp_mant_f32", 1, 'f', 0, e_mantf, NULL },
	{ "v_frexp_exp_i32_f32", 1, 'f', 0, e_expif, NULL },
	{ "v_add_f64", 2, 'd', W0 | W1 | WD, e_addd, NULL },
	{ "v_mul_f64", 2, 'd', W0 | W1 | WD, e_muld, NULL },
	{ "v_fma_f64", 3, 'd', W0 | W1 | W2 | WD, e_fmad, NULL },
	{ "v_min_f64", 2, 'd', W0 | W1 | WD, e_mind, NULL },
	{ "v_max_f64", 2, 'd', W0 | W1 | WD, e_maxd, NULL },
	{ "v_ldexp_f64", 2, 'd', W0 | WD, e_ldexpd, NULL },
	{ "v_add_f64", 2, 'd', W0 | W1 | WD, e_subd_mod, NULL },
	{ "v_floor_f64", 1, 'd', W0 | WD, e_floord, NULL },
	{ "v_trunc_f64", 1, 'd', W0 | WD, e_truncd, NULL },
	{ "v_rndne_f64", 1, 'd', W0 | WD, e_rndned, NULL },
	{ "v_fract_f64", 1, 'd', W0 | WD, e_fractd, NULL },
	{ "v_sqrt_f64", 1, 'd', W0 | WD, e_sqrtd, NULL },
	{ "v_rcp_f64", 1, 'd', W0 | WD, e_rcpd, NULL },
	{ "v_cvt_f64_f32", 1, 'f', WD, e_cvtd_f, NULL },
	{ "v_cvt_f32_f64", 1, 'd', W0, e_cvtf_d, NULL },
	{ "v_cvt_f64_i32", 1, 'u', WD, e_cvtd_i, NULL },
	{ "v_cvt_i32_f64", 1, 'd', W0, e_cvti_d, NULL },
	{ "v_cvt_u32_f64", 1, 'd', W0, e_cvtu_d, NULL },
	{ "v_frexp_exp_i32_f64", 1, 'd', W0, e_expid, NULL },
	{ "v_cvt_f16_f32", 1, 'f', 0, e_cvth_f, NULL },
	{ "v_cvt_f32_f16", 1, 'h', 0, e_cvtf_h, NULL },
	{ "v_add_f16", 2, 'h', 0, e_addh, NULL },
	{ "v_mul_f16", 2, 'h', 0, e_mulh, NULL },
	{ "v_max_f16", 2, 'h', 0, e_maxh, NULL },
	{ "v_fma_f16", 3, 'h', 0, e_fmah, NULL },
	{ "v_cvt_pkrtz_f16_f32", 2, 'f', 0, e_pkrtz, NULL },
	{ "v_cvt_u16_f16", 1, 'h', 0, e_cvtu16_h, NULL },
	{ "v_cmp_lt_f32", 2, 'f', CMP, e_cmplt_f, NULL },
	{ "v_cmp_nge_f32", 2, 'f', CMP, e_cmpnge_f, NULL },
	{ "v_cmp_u_f32", 2, 'f', CMP, e_cmpu_f, NULL },
	{ "v_cmp_lg_f32", 2, 'f', CMP, e_cmplg_f, NULL },
	{ "v_cmp_class_f32", 2, 'c', CMP, e_class_f, NULL },
	{ "v_cmp_le_f64", 2, 'd', W0 | W1 | CMP, e_cmple_d, NULL },
	{ "v_cmp_o_f64", 2, 'd', W0 | W1 | CMP, e_cmpo_d, NULL },
	{ "v_cmp_class_f64", 2, 'C', W0 | CMP, e_class_d, NULL },
	{ "v_cmp_gt_f16", 2, 'h', CMP, e_cmpgt_h, NULL },
	{ "v_cmp_lt_i32", 2, 'u', CMP, e_cmplt_i, NULL },
	{ "v_cmp_ge_u32", 2, 'u', CMP, e_cmpge_u, NULL },
	{ "v_cmp_ne_u64", 2, 'u', W0 | W1 | CMP, e_cmpne_u64, NULL },
	{ "v_cmp_lt_i64", 2, 'u', W0 | W1 | CMP, e_cmplt_i64, NULL },
	{ "v_cmp_eq_u16", 2, 'u', CMP, e_cmpeq_u16, NULL },
	{ "v_cmp_gt_i16", 2, 'u', CMP, e_cmpgt_i16, NULL },
	{ "v_cmp_lt_u32_e64", 2, 'u', CMPS, e_cmplt_u, NULL },
	{ "s_add_u32", 2, 'u', SCL, s_addu, c_addu },
	{ "s_sub_u32", 2, 'u', SCL, s_subu, c_subu },
	{ "s_add_i32", 2, 'u', SCL, s_addi, c_addi },
	{ "s_min_i32", 2, 'u', SCL, s_mini, c_mini },
	{ "s_max_u32", 2, 'u', SCL, s_maxu, c_maxu },
	{ "s_and_b32", 2, 'u', SCL, s_and, c_and },
	{ "s_andn2_b64", 2, 'u', SCL | W0 | W1 | WD, s_andn2, c_andn2 },
	{ "s_orn2_b64", 2, 'u', SCL | W0 | W1 | WD, s_orn2, c_orn2 },
	{ "s_nand_b32", 2, 'u', SCL, s_nand, c_nand },
	{ "s_xnor_b64", 2, 'u', SCL | W0 | W1 | WD, s_xnor, c_xnor },
	{ "s_lshl_b32", 2, 'k', SCL, s_lshl, c_lshl },
	{ "s_lshr_b64", 2, 'k', SCL | W0 | WD, s_lshr64, c_lshr64 },
	{ "s_ashr_i32", 2, 'k', SCL, s_ashr, c_ashr },
	{ "s_bfe_u32", 2, 'k', SCL, s_bfeu, c_bfeu },
	{ "s_bfe_i32", 2, 'k', SCL, s_bfei, c_bfei },
	{ "s_mul_i32", 2, 'u', SCL, s_mul, NULL },
	{ "s_mul_hi_u32", 2, 'u', SCL, s_mulhiu, NULL },
	{ "s_absdiff_i32", 2, 'u', SCL, s_absdiff, c_absdiff },
	{ "s_lshl2_add_u32", 2, 'u', SCL, s_lshl2add, c_lshl2add },
	{ "s_not_b32", 1, 'u', SCL, s_not, c_not },
	{ "s_bcnt1_i32_b64", 1, 'u', SCL | W0, s_bcnt64, c_bcnt64 },
	{ "s_ff1_i32_b32", 1, 'u', SCL, s_ff1, NULL },
	{ "s_abs_i32", 1, 'u', SCL, s_abs, c_abs },
	{ "s_cmp_lt_i32", 2, 'u', SCC, NULL, c_lti },
	{ "s_cmp_ge_u32", 2, 'u', SCC, NULL, c_geu },
	{ "s_cmp_lg_u64", 2, 'u', SCC | W0 | W1, NULL, c_lg64 },
	{ "s_bitcmp1_b32", 2, 'k', SCC, NULL, c_bitcmp1 },
	{ "s_add_u32", 2, 'u', SCL, s_addlit, c_addlit },
	{ "s_mov_b32", 1, 'u', SCL, s_movneg, NULL },
	{ "v_add_u32_sdwa", 2, 'u', 0, e_sdwa_add, NULL },
	{ "v_max_u16_sdwa", 2, 'u', 0, e_sdwa_max, NULL },
	{ "v_mov_b32_sdwa", 1, 'u', 0, e_sdwa_mov, NULL },
	{ "v_add_f32_sdwa", 2, 'f', 0, e_sdwa_addf, NULL },
	{ "v_mul_f16_sdwa", 2, 'h', 0, e_sdwa_mulh, NULL },
	{ "v_cmp_eq_u16_sdwa", 2, 'y', CMP, e_sdwa_cmpeq, NULL },
	{ "v_cmp_lt_u32_sdwa", 2, 'y', CMPS, e_sdwa_cmplt, NULL },
	{ "v_pk_mul_lo_u16", 2, 'u', 0, e_pk_mul, NULL },
	{ "v_pk_add_u16", 2, 'u', 0, e_pk_add_sel, NULL },
	{ "v_pk_sub_i16", 2, 'u', 0, e_pk_sub_sat, NULL },
	{ "v_pk_max_i16", 2, 'u', 0, e_pk_max_i, NULL },
	{ "v_pk_lshlrev_b16", 2, 'u', 0, e_pk_lshl, NULL },
	{ "v_pk_fma_f16", 3, 'H', 0, e_pk_fma, NULL },
	{ "v_pk_fma_f16", 3, 'H', 0, e_pk_fma_neg, NULL },
	{ "v_pk_add_f16", 2, 'H', 0, e_pk_addh, NULL },
	{ "v_pk_max_f16", 2, 'H', 0, e_pk_maxh, NULL },
	{ "v_mov_b32_dpp", 1, 'u', XL, NULL, NULL, x_quad },
	{ "v_add_u32_dpp", 2, 'u', XL, NULL, NULL, x_shr1 },
	{ "v_mov_b32_dpp", 1, 'u', XL, NULL, NULL, x_shl2 },
	{ "v_mov_b32_dpp", 1, 'u', XL, NULL, NULL, x_bcast15 },
	{ "v_mov_b32_dpp", 1, 'u', XL, NULL, NULL, x_ror1 },
	{ "v_add_f32_dpp", 2, 'f', XL, NULL, NULL, x_mirror },
	{ "v_add_f16", 1, 'h', 0, e_h_add1, NULL },
	{ "v_mul_f16", 1, 'h', 0, e_h_mulhalf, NULL },
	{ "v_sub_f16", 1, 'h', 0, e_h_subm4, NULL },
	{ "v_mul_f16_e64", 1, 'h', 0, e_h_mulinv2pi, NULL },
	{ "v_fma_f16", 1, 'h', 0, e_h_fma2m1, NULL },
	{ "v_max_f16_e64", 1, 'h', 0, e_h_maxm2, NULL },
	{ "v_cvt_f32_f16", 0, 'h', 0, e_h_cvtm05, NULL },
	{ "v_add_f16_sdwa", 1, 'H', 0, e_h_sdwa1, NULL },
	{ "v_add_f64", 1, 'd', W0 | WD, e_d_addm05, NULL },
	{ "v_trunc_f64", 0, 'd', WD, e_d_trunc25, NULL },
	{ "v_cvt_f32_f64", 0, 'f', 0, e_d_cvtm3, NULL },
	{ "v_add_u32", 1, 'u', 0, e_u_add1f, NULL },
	{ "v_add_u16", 1, 'u', 0, e_u16_addm1, NULL },
	{ "v_add_f32", 1, 'f', 0, e_f_add4, NULL },
	{ "v_pk_add_f16", 1, 'H', 0, e_pk_add1, NULL },
	{ "v_pk_add_f16", 1, 'H', 0, e_pk_add1_lo, NULL },
	{ "v_pk_mul_f16", 1, 'H', 0, e_pk_mulm2, NULL },
	{ "v_pk_fma_f16", 2, 'H', 0, e_pk_fma05, NULL },
	{ "v_pk_add_u16", 1, 'u', 0, e_pk_addu_m1, NULL },
	{ "ds_read_u16", 1, 'a', 0, e_ds_u16, NULL },
	{ "ds_read_b32", 1, 'a', 0, e_ds_b32, NULL },
	{ "ds_read_i8", 1, 'a', 0, e_ds_i8, NULL },
	{ "ds_read2_b32", 1, 'a', WD, e_ds_read2, NULL },
	{ "ds_read_b64", 1, 'a', WD, e_ds_b64, NULL },
	{ "s_load_dword", 1, 'm', SCL, s_load_m4, NULL },
	{ "s_load_dwordx2", 1, 'm', SCL | WD, s_load_m1m, NULL },
	{ "s_load_dword", 1, 'm', SCL, s_load_fffff, NULL },
	{ "s_brev_b32", 1, 'u', SCL, s_brev32, NULL },
	{ "s_brev_b64", 1, 'u', SCL | W0 | WD, s_brev64, NULL },
	{ "s_wqm_b64", 1, 'y', SCL | W0 | WD, s_wqm64, c_wqm64 },
	{ "s_quadmask_b32", 1, 'y', SCL, s_qmask32, c_qmask32 },
	{ "s_bcnt0_i32_b32", 1, 'u', SCL, s_bcnt0, c_bcnt0 },
	{ "s_ff0_i32_b64", 1, 'u', SCL | W0, s_ff0_64, NULL },
	{ "s_flbit_i32_b32", 1, 'u', SCL, s_flbit, NULL },
	{ "s_flbit_i32", 1, 'u', SCL, s_flbiti, NULL },
	{ "s_flbit_i32_i64", 1, 'u', SCL | W0, s_flbiti64, NULL },
	{ "s_sext_i32_i8", 1, 'u', SCL, s_sext8, NULL },
	{ "s_sext_i32_i16", 1, 'u', SCL, s_sext16, NULL },
	{ "s_bitset1_b32", 1, 'k', SCL, s_bitset1, NULL },
	{ "s_bitset1_b64", 1, 'k', SCL | WD, s_bitset1_64, NULL },
	{ "s_bitreplicate_b64_b32", 1, 'u', SCL | WD, s_brep, NULL },
	{ "s_andn1_saveexec_b64", 1, 'u', SCL | W0 | WD, s_andn1sx, c_andn1sx },
	{ "s_pack_lh_b32_b16", 2, 'u', SCL, s_packlh, NULL },
	{ "s_pack_hh_b32_b16", 2, 'u', SCL, s_packhh, NULL },
	{ "s_bfe_u64", 2, 'k', SCL | W0 | WD, s_bfeu64, c_bfeu64 },
	{ "s_bfe_i64", 2, 'k', SCL | W0 | WD, s_bfei64, c_bfei64 },
	{ "s_cmpk_le_i32", 1, 'u', SCC, NULL, c_cmpk_lei },
	{ "s_cmpk_le_u32", 1, 'u', SCC, NULL, c_cmpk_leu },
	{ "s_movrels_b32", 1, 'u', SCL, s_movrels, NULL },
	{ "v_exp_f16", 1, 'h', 0, e_exph, NULL },
	{ "v_log_f16", 1, 'h', 0, e_logh, NULL },
	{ "v_sin_f16", 1, 'h', 0, e_sinh, NULL },
	{ "v_cos_f16", 1, 'h', 0, e_cosh, NULL },
	{ "v_frexp_mant_f16", 1, 'h', 0, e_manth, NULL },
	{ "v_frexp_exp_i16_f16", 1, 'h', 0, e_expih, NULL },
	{ "v_exp_legacy_f32", 1, 'f', 0, e_explf, NULL },
	{ "v_log_legacy_f32", 1, 'f', 0, e_loglf, NULL },
	{ "v_cvt_norm_i16_f16", 1, 'h', 0, e_normi_h, NULL },
	{ "v_cvt_norm_u16_f16", 1, 'h', 0, e_normu_h, NULL },
	{ "v_cvt_pknorm_i16_f32", 2, 'f', 0, e_pknormi_f, NULL },
	{ "v_cvt_pknorm_u16_f16", 2, 'h', 0, e_pknormu_h, NULL },
	{ "v_sat_pk_u8_i16", 1, 'u', 0, e_satpk, NULL },
	{ "v_cvt_off_f32_i4", 1, 'u', 0, e_offi4, NULL },
	{ "v_swap_b32", 1, 'u', SWP, NULL, NULL },
	{ "v_cubeid_f32", 3, 'f', 0, e_cubeid, NULL },
	{ "v_cubesc_f32", 3, 'f', 0, e_cubesc, NULL },
	{ "v_cubetc_f32", 3, 'f', 0, e_cubetc, NULL },
	{ "v_cubema_f32", 3, 'f', 0, e_cubema, NULL },
	{ "v_lerp_u8", 3, 'u', 0, e_lerp, NULL },
	{ "v_sad_u8", 3, 'u', 0, e_sad8, NULL },
	{ "v_sad_hi_u8", 3, 'u', 0, e_sadhi8, NULL },
	{ "v_sad_u16", 3, 'u', 0, e_sad16, NULL },
	{ "v_msad_u8", 3, 'y', 0, e_msad8, NULL },
	{ "v_qsad_pk_u16_u8", 3, 'u', W0 | W2 | WD, e_qsad, NULL },
	{ "v_mqsad_pk_u16_u8", 3, 'y', W0 | W2 | WD, e_mqsad, NULL },
	{ "v_mad_legacy_f16", 3, 'h', 0, e_madlh, NULL },
	{ "v_mad_legacy_u16", 3, 'u', 0, e_madlu16, NULL },
	{ "v_mad_legacy_i16", 3, 'u', 0, e_madli16, NULL },
	{ "v_fma_legacy_f16", 3, 'h', 0, e_fmalh, NULL },
	{ "v_div_fixup_legacy_f16", 3, 'h', 0, e_fixuplh, NULL },
	{ "v_div_fixup_f16", 3, 'h', 0, e_fixuph, NULL },
	{ "v_mad_u16", 3, 'u', 0, e_madu16_sel, NULL },
	{ "v_mad_i16", 3, 'u', 0, e_madi16_clamp, NULL },
	{ "v_min3_f16", 3, 'h', 0, e_min3h, NULL },
	{ "v_med3_f16", 3, 'h', 0, e_med3h, NULL },
	{ "v_max3_i16", 3, 'u', 0, e_max3i16, NULL },
	{ "v_med3_u16", 3, 'u', 0, e_med3u16, NULL },
	{ "v_add_i16", 2, 'u', 0, e_addi16_sel, NULL },
	{ "v_sub_i16", 2, 'u', 0, e_subi16, NULL },
	{ "v_mad_i32_i16", 3, 'u', 0, e_madi32i16_sel, NULL },
	{ "v_cvt_pk_i16_i32", 2, 'u', 0, e_cvtpki16, NULL },
	{ "v_cvt_pk_u8_f32", 3, 'f', 0, e_cvtpku8, NULL },
	{ "v_cvt_pkaccum_u8_f32", 2, 'f', 0, e_pkaccum, NULL },
	{ "v_trig_preop_f64", 2, 'd', W0 | WD, e_trigpre, NULL },
	{ "v_pack_b32_f16", 2, 'h', 0, e_pack_sel, NULL },
	{ "v_mad_mix_f32", 3, 'f', 0, e_mix32, NULL },
	{ "v_mad_mixlo_f16", 3, 'H', 0, e_mixlo, NULL },
	{ "v_mad_mixhi_f16", 3, 'H', 0, e_mixhi, NULL },
	{ "ds_add_rtn_f32", 2, 'f', LDS | RTN, l_addf, NULL },
	{ "ds_add_f32", 2, 'f', LDS, l_addf, NULL },
	{ "ds_min_rtn_f32", 2, 'f', LDS | RTN, l_minf, NULL },
	{ "ds_max_rtn_f64", 2, 'd', LDS | RTN | WD, l_maxd, NULL },
	{ "ds_cmpst_rtn_f32", 3, 'f', LDS | RTN, l_cmpstf, NULL },
	{ "ds_cmpst_rtn_b64", 3, 'u', LDS | RTN | WD, l_cmpst64, NULL },
	{ "ds_cmpst_f64", 3, 'd', LDS | WD, l_cmpstd, NULL },
	{ "ds_wrap_rtn_b32", 3, 'u', LDS | RTN, l_wrap, NULL },
	{ "ds_wrxchg_rtn_b64", 2, 'u', LDS | RTN | WD, l_xchg64, NULL },
	{ "v_mac_f16", 2, 'h', 0, e_mach, NULL },
	{ "v_madak_f16", 2, 'h', 0, e_madakh, NULL },
	{ "v_madmk_f16", 2, 'h', 0, e_madmkh, NULL },
	{ "v_mac_f16", 2, 'h', 0, e_mach, NULL },
	{ "v_cmp_eq_f16", 1, 'e', CMP, e_cmp0h, NULL },
	{ "v_add_f16", 2, 'e', FTZ, z_addh, NULL },
	{ "v_mul_f16", 2, 'e', FTZ, z_mulh, NULL },
	{ "v_fma_f16", 3, 'e', FTZ, z_fmah, NULL },
	{ "v_cvt_f32_f16", 1, 'e', FTZ, z_cvtf_h, NULL },
	{ "v_cvt_f16_f32", 1, 'f', FTZ, z_cvth_f, NULL },
	{ "v_cmp_eq_f16", 1, 'e', CMP | FTZ, z_cmp0h, NULL },
	{ "v_pk_add_f16", 2, 'e', FTZ, z_pk_addh, NULL },
	{ "v_mad_mixlo_f16", 3, 'e', FTZ, z_mixlo, NULL },
	{ "v_div_fmas_f64", 3, 'q', W0 | W1 | W2 | WD | VCI, e_fmasd, NULL },
	{ "v_div_fmas_f32", 3, 'r', VCI, e_fmasf, NULL },
	{ "v_cmpx_gt_u32", 2, 'u', XL | CMP | CX | DPPL, NULL, NULL,
	  x_cmpx_quad },
	{ "v_cmpx_lt_f32", 2, 'f', XL | CMP | CX | DPPL | EXM, NULL, NULL,
	  x_cmpx_shr },
	{ "v_mqsad_u32_u8", 3, 'Y', W0 | W2 | WD | W4 | EXM, e_mqsad32,
	  e_mqsad32_hi },
	{ "s_bitset0_b32", 1, 'k', SCL, s_bitset0, NULL },
	{ "s_bitset0_b64", 1, 'k', SCL | WD, s_bitset0_64, NULL },
	{ "s_movrels_b32", 2, 'u', SCL, s_movrels_m0, NULL, NULL, 2 },
	{ "s_movrels_b64", 2, 'u', SCL | W0 | W1 | WD, s_movrels_m0, NULL, NULL,
	  2 },
	{ "s_movreld_b32", 1, 'u', SCL | MRD, s_movreld_m0, NULL, NULL, 5 },
	{ "s_movreld_b64", 1, 'u', SCL | W0 | WD | MRD, s_movreld_m0, NULL,
	  NULL, 4 },
	{ "v_cmpx_class_f32", 2, 'c', CMP | EXM | CX, r_cmpx_class_f32, NULL },
	{ "v_cmpx_class_f64", 2, 'C', W0 | CMP | EXM | CX,
	  r_cmpx_class_f64, NULL },
	{ "v_cmp_class_f16", 2, 'j', CMP | EXM, r_cmp_class_f16, NULL },
	{ "v_cmpx_class_f16", 2, 'j', CMP | EXM | CX, r_cmpx_class_f16, NULL },
	{ "v_cmp_f_f16", 2, 'h', CMP | EXM, r_cmp_f_f16, NULL },
	{ "v_cmp_lt_f16", 2, 'h', CMP | EXM, r_cmp_lt_f16, NULL },
	{ "v_cmp_le_f16", 2, 'h', CMP | EXM, r_cmp_le_f16, NULL },
	{ "v_cmp_lg_f16", 2, 'h', CMP | EXM, r_cmp_lg_f16, NULL },
	{ "v_cmp_ge_f16", 2, 'h', CMP | EXM, r_cmp_ge_f16, NULL },
	{ "v_cmp_o_f16", 2, 'h', CMP | EXM, r_cmp_o_f16, NULL },
	{ "v_cmp_u_f16", 2, 'h', CMP | EXM, r_cmp_u_f16, NULL },
	{ "v_cmp_nge_f16", 2, 'h', CMP | EXM, r_cmp_nge_f16, NULL },
	{ "v_cmp_nlg_f16", 2, 'h', CMP | EXM, r_cmp_nlg_f16, NULL },
	{ "v_cmp_ngt_f16", 2, 'h', CMP | EXM, r_cmp_ngt_f16, NULL },
	{ "v_cmp_nle_f16", 2, 'h', CMP | EXM, r_cmp_nle_f16, NULL },
	{ "v_cmp_neq_f16", 2, 'h', CMP | EXM, r_cmp_neq_f16, NULL },
	{ "v_cmp_nlt_f16", 2, 'h', CMP | EXM, r_cmp_nlt_f16, NULL },
	{ "v_cmp_tru_f16", 2, 'h', CMP | EXM, r_cmp_tru_f16, NULL },
	{ "v_cmpx_f_f16", 2, 'h', CMP | EXM | CX, r_cmpx_f_f16, NULL },
	{ "v_cmpx_lt_f16", 2, 'h', CMP | EXM | CX, r_cmpx_lt_f16, NULL },
	{ "v_cmpx_eq_f16", 2, 'h', CMP | EXM | CX, r_cmpx_eq_f16, NULL },
	{ "v_cmpx_le_f16", 2, 'h', CMP | EXM | CX, r_cmpx_le_f16, NULL },
	{ "v_cmpx_gt_f16", 2, 'h', CMP | EXM | CX, r_cmpx_gt_f16, NULL },
	{ "v_cmpx_lg_f16", 2, 'h', CMP | EXM | CX, r_cmpx_lg_f16, NULL },
	{ "v_cmpx_ge_f16", 2, 'h', CMP | EXM | CX, r_cmpx_ge_f16, NULL },
	{ "v_cmpx_o_f16", 2, 'h', CMP | EXM | CX, r_cmpx_o_f16, NULL },
	{ "v_cmpx_u_f16", 2, 'h', CMP | EXM | CX, r_cmpx_u_f16, NULL },
	{ "v_cmpx_nge_f16", 2, 'h', CMP | EXM | CX, r_cmpx_nge_f16, NULL },
	{ "v_cmpx_nlg_f16", 2, 'h', CMP | EXM | CX, r_cmpx_nlg_f16, NULL },
	{ "v_cmpx_ngt_f16", 2, 'h', CMP | EXM | CX, r_cmpx_ngt_f16, NULL },
	{ "v_cmpx_nle_f16", 2, 'h', CMP | EXM | CX, r_cmpx_nle_f16, NULL },
	{ "v_cmpx_neq_f16", 2, 'h', CMP | EXM | CX, r_cmpx_neq_f16, NULL },
	{ "v_cmpx_nlt_f16", 2, 'h', CMP | EXM | CX, r_cmpx_nlt_f16, NULL },
	{ "v_cmpx_tru_f16", 2, 'h', CMP | EXM | CX, r_cmpx_tru_f16, NULL },
	{ "v_cmp_f_f32", 2, 'f', CMP | EXM, r_cmp_f_f32, NULL },
	{ "v_cmp_eq_f32", 2, 'f', CMP | EXM, r_cmp_eq_f32, NULL },
	{ "v_cmp_le_f32", 2, 'f', CMP | EXM, r_cmp_le_f32, NULL },
	{ "v_cmp_gt_f32", 2, 'f', CMP | EXM, r_cmp_gt_f32, NULL },
	{ "v_cmp_ge_f32", 2, 'f', CMP | EXM, r_cmp_ge_f32, NULL },
	{ "v_cmp_o_f32", 2, 'f', CMP | EXM, r_cmp_o_f32, NULL },
	{ "v_cmp_nlg_f32", 2, 'f', CMP | EXM, r_cmp_nlg_f32, NULL },
	{ "v_cmp_ngt_f32", 2, 'f', CMP | EXM, r_cmp_ngt_f32, NULL },
	{ "v_cmp_nle_f32", 2, 'f', CMP | EXM, r_cmp_nle_f32, NULL },
	{ "v_cmp_neq_f32", 2, 'f', CMP | EXM, r_cmp_neq_f32, NULL },
	{ "v_cmp_nlt_f32", 2, 'f', CMP | EXM, r_cmp_nlt_f32, NULL },
	{ "v_cmp_tru_f32", 2, 'f', CMP | EXM, r_cmp_tru_f32, NULL },
	{ "v_cmpx_f_f32", 2, 'f', CMP | EXM | CX, r_cmpx_f_f32, NULL },
	{ "v_cmpx_lt_f32", 2, 'f', CMP | EXM | CX, r_cmpx_lt_f32, NULL },
	{ "v_cmpx_eq_f32", 2, 'f', CMP | EXM | CX, r_cmpx_eq_f32, NULL },
	{ "v_cmpx_le_f32", 2, 'f', CMP | EXM | CX, r_cmpx_le_f32, NULL },
	{ "v_cmpx_gt_f32", 2, 'f', CMP | EXM | CX, r_cmpx_gt_f32, NULL },
	{ "v_cmpx_lg_f32", 2, 'f', CMP | EXM | CX, r_cmpx_lg_f32, NULL },
	{ "v_cmpx_ge_f32", 2, 'f', CMP | EXM | CX, r_cmpx_ge_f32, NULL },
	{ "v_cmpx_o_f32", 2, 'f', CMP | EXM | CX, r_cmpx_o_f32, NULL },
	{ "v_cmpx_u_f32", 2, 'f', CMP | EXM | CX, r_cmpx_u_f32, NULL },
	{ "v_cmpx_nge_f32", 2, 'f', CMP | EXM | CX, r_cmpx_nge_f32, NULL },
	{ "v_cmpx_nlg_f32", 2, 'f', CMP | EXM | CX, r_cmpx_nlg_f32, NULL },
	{ "v_cmpx_ngt_f32", 2, 'f', CMP | EXM | CX, r_cmpx_ngt_f32, NULL },
	{ "v_cmpx_nle_f32", 2, 'f', CMP | EXM | CX, r_cmpx_nle_f32, NULL },
	{ "v_cmpx_neq_f32", 2, 'f', CMP | EXM | CX, r_cmpx_neq_f32, NULL },
	{ "v_cmpx_nlt_f32", 2, 'f', CMP | EXM | CX, r_cmpx_nlt_f32, NULL },
	{ "v_cmpx_tru_f32", 2, 'f', CMP | EXM | CX, r_cmpx_tru_f32, NULL },
	{ "v_cmp_f_f64", 2, 'd', W0 | W1 | CMP | EXM, r_cmp_f_f64, NULL },
	{ "v_cmp_lt_f64", 2, 'd', W0 | W1 | CMP | EXM, r_cmp_lt_f64, NULL },
	{ "v_cmp_eq_f64", 2, 'd', W0 | W1 | CMP | EXM, r_cmp_eq_f64, NULL },
	{ "v_cmp_gt_f64", 2, 'd', W0 | W1 | CMP | EXM, r_cmp_gt_f64, NULL },
	{ "v_cmp_lg_f64", 2, 'd', W0 | W1 | CMP | EXM, r_cmp_lg_f64, NULL },
	{ "v_cmp_ge_f64", 2, 'd', W0 | W1 | CMP | EXM, r_cmp_ge_f64, NULL },
	{ "v_cmp_u_f64", 2, 'd', W0 | W1 | CMP | EXM, r_cmp_u_f64, NULL },
	{ "v_cmp_nge_f64", 2, 'd', W0 | W1 | CMP | EXM, r_cmp_nge_f64, NULL },
	{ "v_cmp_nlg_f64", 2, 'd', W0 | W1 | CMP | EXM, r_cmp_nlg_f64, NULL },
	{ "v_cmp_ngt_f64", 2, 'd', W0 | W1 | CMP | EXM, r_cmp_ngt_f64, NULL },
	{ "v_cmp_nle_f64", 2, 'd', W0 | W1 | CMP | EXM, r_cmp_nle_f64, NULL },
	{ "v_cmp_neq_f64", 2, 'd', W0 | W1 | CMP | EXM, r_cmp_neq_f64, NULL },
	{ "v_cmp_nlt_f64", 2, 'd', W0 | W1 | CMP | EXM, r_cmp_nlt_f64, NULL },
	{ "v_cmp_tru_f64", 2, 'd', W0 | W1 | CMP | EXM, r_cmp_tru_f64, NULL },
	{ "v_cmpx_f_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_f_f64, NULL },
	{ "v_cmpx_lt_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_lt_f64, NULL },
	{ "v_cmpx_eq_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_eq_f64, NULL },
	{ "v_cmpx_le_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_le_f64, NULL },
	{ "v_cmpx_gt_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_gt_f64, NULL },
	{ "v_cmpx_lg_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_lg_f64, NULL },
	{ "v_cmpx_ge_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_ge_f64, NULL },
	{ "v_cmpx_o_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_o_f64, NULL },
	{ "v_cmpx_u_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_u_f64, NULL },
	{ "v_cmpx_nge_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_nge_f64, NULL },
	{ "v_cmpx_nlg_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_nlg_f64, NULL },
	{ "v_cmpx_ngt_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_ngt_f64, NULL },
	{ "v_cmpx_nle_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_nle_f64, NULL },
	{ "v_cmpx_neq_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_neq_f64, NULL },
	{ "v_cmpx_nlt_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_nlt_f64, NULL },
	{ "v_cmpx_tru_f64", 2, 'd', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_tru_f64, NULL },
	{ "v_cmp_f_i16", 2, 'i', CMP | EXM, r_cmp_f_i16, NULL },
	{ "v_cmp_lt_i16", 2, 'i', CMP | EXM, r_cmp_lt_i16, NULL },
	{ "v_cmp_eq_i16", 2, 'i', CMP | EXM, r_cmp_eq_i16, NULL },
	{ "v_cmp_le_i16", 2, 'i', CMP | EXM, r_cmp_le_i16, NULL },
	{ "v_cmp_ne_i16", 2, 'i', CMP | EXM, r_cmp_ne_i16, NULL },
	{ "v_cmp_ge_i16", 2, 'i', CMP | EXM, r_cmp_ge_i16, NULL },
	{ "v_cmp_t_i16", 2, 'i', CMP | EXM, r_cmp_t_i16, NULL },
	{ "v_cmp_f_u16", 2, 'i', CMP | EXM, r_cmp_f_u16, NULL },
	{ "v_cmp_lt_u16", 2, 'i', CMP | EXM, r_cmp_lt_u16, NULL },
	{ "v_cmp_le_u16", 2, 'i', CMP | EXM, r_cmp_le_u16, NULL },
	{ "v_cmp_gt_u16", 2, 'i', CMP | EXM, r_cmp_gt_u16, NULL },
	{ "v_cmp_ne_u16", 2, 'i', CMP | EXM, r_cmp_ne_u16, NULL },
	{ "v_cmp_ge_u16", 2, 'i', CMP | EXM, r_cmp_ge_u16, NULL },
	{ "v_cmp_t_u16", 2, 'i', CMP | EXM, r_cmp_t_u16, NULL },
	{ "v_cmpx_f_i16", 2, 'i', CMPS | EXM | CX, r_cmpx_f_i16, NULL },
	{ "v_cmpx_lt_i16", 2, 'i', CMPS | EXM | CX, r_cmpx_lt_i16, NULL },
	{ "v_cmpx_eq_i16", 2, 'i', CMPS | EXM | CX, r_cmpx_eq_i16, NULL },
	{ "v_cmpx_le_i16", 2, 'i', CMPS | EXM | CX, r_cmpx_le_i16, NULL },
	{ "v_cmpx_gt_i16", 2, 'i', CMPS | EXM | CX, r_cmpx_gt_i16, NULL },
	{ "v_cmpx_ne_i16", 2, 'i', CMPS | EXM | CX, r_cmpx_ne_i16, NULL },
	{ "v_cmpx_ge_i16", 2, 'i', CMPS | EXM | CX, r_cmpx_ge_i16, NULL },
	{ "v_cmpx_t_i16", 2, 'i', CMPS | EXM | CX, r_cmpx_t_i16, NULL },
	{ "v_cmpx_f_u16", 2, 'i', CMPS | EXM | CX, r_cmpx_f_u16, NULL },
	{ "v_cmpx_lt_u16", 2, 'i', CMPS | EXM | CX, r_cmpx_lt_u16, NULL },
	{ "v_cmpx_eq_u16", 2, 'i', CMPS | EXM | CX, r_cmpx_eq_u16, NULL },
	{ "v_cmpx_le_u16", 2, 'i', CMPS | EXM | CX, r_cmpx_le_u16, NULL },
	{ "v_cmpx_gt_u16", 2, 'i', CMPS | EXM | CX, r_cmpx_gt_u16, NULL },
	{ "v_cmpx_ne_u16", 2, 'i', CMPS | EXM | CX, r_cmpx_ne_u16, NULL },
	{ "v_cmpx_ge_u16", 2, 'i', CMPS | EXM | CX, r_cmpx_ge_u16, NULL },
	{ "v_cmpx_t_u16", 2, 'i', CMPS | EXM | CX, r_cmpx_t_u16, NULL },
	{ "v_cmp_f_i32", 2, 'i', CMP | EXM, r_cmp_f_i32, NULL },
	{ "v_cmp_eq_i32", 2, 'i', CMP | EXM, r_cmp_eq_i32, NULL },
	{ "v_cmp_le_i32", 2, 'i', CMP | EXM, r_cmp_le_i32, NULL },
	{ "v_cmp_gt_i32", 2, 'i', CMP | EXM, r_cmp_gt_i32, NULL },
	{ "v_cmp_ne_i32", 2, 'i', CMP | EXM, r_cmp_ne_i32, NULL },
	{ "v_cmp_ge_i32", 2, 'i', CMP | EXM, r_cmp_ge_i32, NULL },
	{ "v_cmp_t_i32", 2, 'i', CMP | EXM, r_cmp_t_i32, NULL },
	{ "v_cmp_f_u32", 2, 'i', CMP | EXM, r_cmp_f_u32, NULL },
	{ "v_cmp_eq_u32", 2, 'i', CMP | EXM, r_cmp_eq_u32, NULL },
	{ "v_cmp_le_u32", 2, 'i', CMP | EXM, r_cmp_le_u32, NULL },
	{ "v_cmp_gt_u32", 2, 'i', CMP | EXM, r_cmp_gt_u32, NULL },
	{ "v_cmp_ne_u32", 2, 'i', CMP | EXM, r_cmp_ne_u32, NULL },
	{ "v_cmp_t_u32", 2, 'i', CMP | EXM, r_cmp_t_u32, NULL },
	{ "v_cmpx_f_i32", 2, 'i', CMP | EXM | CX, r_cmpx_f_i32, NULL },
	{ "v_cmpx_lt_i32", 2, 'i', CMP | EXM | CX, r_cmpx_lt_i32, NULL },
	{ "v_cmpx_eq_i32", 2, 'i', CMP | EXM | CX, r_cmpx_eq_i32, NULL },
	{ "v_cmpx_le_i32", 2, 'i', CMP | EXM | CX, r_cmpx_le_i32, NULL },
	{ "v_cmpx_gt_i32", 2, 'i', CMP | EXM | CX, r_cmpx_gt_i32, NULL },
	{ "v_cmpx_ne_i32", 2, 'i', CMP | EXM | CX, r_cmpx_ne_i32, NULL },
	{ "v_cmpx_ge_i32", 2, 'i', CMP | EXM | CX, r_cmpx_ge_i32, NULL },
	{ "v_cmpx_t_i32", 2, 'i', CMP | EXM | CX, r_cmpx_t_i32, NULL },
	{ "v_cmpx_f_u32", 2, 'i', CMP | EXM | CX, r_cmpx_f_u32, NULL },
	{ "v_cmpx_lt_u32", 2, 'i', CMP | EXM | CX, r_cmpx_lt_u32, NULL },
	{ "v_cmpx_eq_u32", 2, 'i', CMP | EXM | CX, r_cmpx_eq_u32, NULL },
	{ "v_cmpx_le_u32", 2, 'i', CMP | EXM | CX, r_cmpx_le_u32, NULL },
	{ "v_cmpx_gt_u32", 2, 'i', CMP | EXM | CX, r_cmpx_gt_u32, NULL },
	{ "v_cmpx_ne_u32", 2, 'i', CMP | EXM | CX, r_cmpx_ne_u32, NULL },
	{ "v_cmpx_ge_u32", 2, 'i', CMP | EXM | CX, r_cmpx_ge_u32, NULL },
	{ "v_cmpx_t_u32", 2, 'i', CMP | EXM | CX, r_cmpx_t_u32, NULL },
	{ "v_cmp_f_i64", 2, 'i', W0 | W1 | CMP | EXM, r_cmp_f_i64, NULL },
	{ "v_cmp_eq_i64", 2, 'i', W0 | W1 | CMP | EXM, r_cmp_eq_i64, NULL },
	{ "v_cmp_le_i64", 2, 'i', W0 | W1 | CMP | EXM, r_cmp_le_i64, NULL },
	{ "v_cmp_gt_i64", 2, 'i', W0 | W1 | CMP | EXM, r_cmp_gt_i64, NULL },
	{ "v_cmp_ne_i64", 2, 'i', W0 | W1 | CMP | EXM, r_cmp_ne_i64, NULL },
	{ "v_cmp_ge_i64", 2, 'i', W0 | W1 | CMP | EXM, r_cmp_ge_i64, NULL },
	{ "v_cmp_t_i64", 2, 'i', W0 | W1 | CMP | EXM, r_cmp_t_i64, NULL },
	{ "v_cmp_f_u64", 2, 'i', W0 | W1 | CMP | EXM, r_cmp_f_u64, NULL },
	{ "v_cmp_lt_u64", 2, 'i', W0 | W1 | CMP | EXM, r_cmp_lt_u64, NULL },
	{ "v_cmp_eq_u64", 2, 'i', W0 | W1 | CMP | EXM, r_cmp_eq_u64, NULL },
	{ "v_cmp_le_u64", 2, 'i', W0 | W1 | CMP | EXM, r_cmp_le_u64, NULL },
	{ "v_cmp_gt_u64", 2, 'i', W0 | W1 | CMP | EXM, r_cmp_gt_u64, NULL },
	{ "v_cmp_ge_u64", 2, 'i', W0 | W1 | CMP | EXM, r_cmp_ge_u64, NULL },
	{ "v_cmp_t_u64", 2, 'i', W0 | W1 | CMP | EXM, r_cmp_t_u64, NULL },
	{ "v_cmpx_f_i64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_f_i64, NULL },
	{ "v_cmpx_lt_i64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_lt_i64, NULL },
	{ "v_cmpx_eq_i64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_eq_i64, NULL },
	{ "v_cmpx_le_i64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_le_i64, NULL },
	{ "v_cmpx_gt_i64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_gt_i64, NULL },
	{ "v_cmpx_ne_i64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_ne_i64, NULL },
	{ "v_cmpx_ge_i64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_ge_i64, NULL },
	{ "v_cmpx_t_i64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_t_i64, NULL },
	{ "v_cmpx_f_u64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_f_u64, NULL },
	{ "v_cmpx_lt_u64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_lt_u64, NULL },
	{ "v_cmpx_eq_u64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_eq_u64, NULL },
	{ "v_cmpx_le_u64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_le_u64, NULL },
	{ "v_cmpx_gt_u64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_gt_u64, NULL },
	{ "v_cmpx_ne_u64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_ne_u64, NULL },
	{ "v_cmpx_ge_u64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_ge_u64, NULL },
	{ "v_cmpx_t_u64", 2, 'i', W0 | W1 | CMP | EXM | CX,
	  r_cmpx_t_u64, NULL },
	{ "v_cndmask_b32", 2, 'u', VCI | EXM, e_cndmask, NULL },
	{ "v_subrev_f32", 2, 'f', EXM, e_subrevf, NULL },
	{ "v_max_i32", 2, 'u', EXM, e_maxi, NULL },
	{ "v_min_u32", 2, 'u', EXM, e_minu, NULL },
	{ "v_mac_f32", 2, 'f', EXM, e_macf, NULL },
	{ "v_madmk_f32", 2, 'f', EXM, e_madmkf, NULL },
	{ "v_madak_f32", 2, 'f', EXM, e_madakf, NULL },
	{ "v_add_co_u32", 2, 'u', EXM, e_addco, NULL },
	{ "v_add_co_u32", 2, 'u', CMP | EXM, c_addco, NULL },
	{ "v_sub_co_u32", 2, 'u', CMP | EXM, c_subco, NULL },
	{ "v_subrev_co_u32", 2, 'u', EXM, e_subrevco, NULL },
	{ "v_addc_co_u32", 2, 'u', VCI | EXM, e_addcco, NULL },
	{ "v_addc_co_u32", 2, 'u', VCI | CMP | EXM, c_addcco, NULL },
	{ "v_subb_co_u32", 2, 'u', VCI | CMP | EXM, c_subbco, NULL },
	{ "v_subbrev_co_u32", 2, 'u', VCI | EXM, e_subbrevco, NULL },
	{ "v_sub_u16", 2, 'u', EXM, e_subu16, NULL },
	{ "v_subrev_u16", 2, 'u', EXM, e_subrevu16, NULL },
	{ "v_lshlrev_b16", 2, 'k', EXM, e_lshl16, NULL },
	{ "v_lshrrev_b16", 2, 'k', EXM, e_lshr16, NULL },
	{ "v_min_u16", 2, 'u', EXM, e_minu16, NULL },
	{ "v_min_i16", 2, 'i', EXM, e_mini16, NULL },
	{ "v_min_f16", 2, 'h', EXM, e_minh, NULL },
	{ "v_subrev_f16", 2, 'h', EXM, e_subrevh, NULL },
	{ "v_ldexp_f16", 2, 'h', EXM, e_ldexph, NULL },
	{ "v_cvt_f32_ubyte0", 1, 'u', EXM, e_ubyte0, NULL },
	{ "v_cvt_f32_ubyte1", 1, 'u', EXM, e_ubyte1, NULL },
	{ "v_cvt_f32_ubyte3", 1, 'u', EXM, e_ubyte3, NULL },
	{ "v_cvt_f64_u32", 1, 'u', WD | EXM, e_cvtd_u, NULL },
	{ "v_ceil_f64", 1, 'd', W0 | WD | EXM, e_ceild, NULL },
	{ "v_frexp_mant_f64", 1, 'd', W0 | WD | EXM, e_mantd, NULL },
	{ "v_cos_f32", 1, 'f', EXM, e_cosf, NULL },
	{ "v_cvt_f16_u16", 1, 'u', EXM, e_cvth_u16, NULL },
	{ "v_cvt_f16_i16", 1, 'u', EXM, e_cvth_i16, NULL },
	{ "v_cvt_i16_f16", 1, 'h', EXM, e_cvti16_h, NULL },
	{ "v_rcp_f16", 1, 'h', EXM, e_rcph, NULL },
	{ "v_sqrt_f16", 1, 'h', EXM, e_sqrth, NULL },
	{ "v_rsq_f16", 1, 'h', EXM, e_rsqh, NULL },
	{ "v_floor_f16", 1, 'h', EXM, e_floorh, NULL },
	{ "v_ceil_f16", 1, 'h', EXM, e_ceilh, NULL },
	{ "v_trunc_f16", 1, 'h', EXM, e_trunch, NULL },
	{ "v_rndne_f16", 1, 'h', EXM, e_rndneh, NULL },
	{ "v_fract_f16", 1, 'h', EXM, e_fracth, NULL },
	{ "v_mad_legacy_f32", 3, 'f', EXM, e_madlegf, NULL },
	{ "v_mad_i32_i24", 3, 'u', EXM, e_madi24, NULL },
	{ "v_min3_u32", 3, 'u', EXM, e_min3u, NULL },
	{ "v_max3_i32", 3, 'u', EXM, e_max3i, NULL },
	{ "v_mad_u64_u32", 3, 'u', W2 | WD | EXM, e_madu64, NULL },
	{ "v_mad_i64_i32", 3, 'u', W2 | WD | EXM, e_madi64, NULL },
	{ "v_min3_i16", 3, 'i', EXM, e_min3i16, NULL },
	{ "v_min3_u16", 3, 'u', EXM, e_min3u16, NULL },
	{ "v_max3_u16", 3, 'u', EXM, e_max3u16, NULL },
	{ "v_max3_f16", 3, 'h', EXM, e_max3h, NULL },
	{ "v_med3_i16", 3, 'i', EXM, e_med3i16, NULL },
	{ "v_mad_f16", 3, 'h', EXM, e_madh, NULL },
	{ "v_lshrrev_b64", 2, 'k', W1 | WD | EXM, e_lshr64, NULL },
	{ "v_cvt_pknorm_u16_f32", 2, 'f', EXM, e_pknormu_f, NULL },
	{ "v_cvt_pknorm_i16_f16", 2, 'h', EXM, e_pknormi_h, NULL },
	{ "v_cvt_pk_u16_u32", 2, 'u', EXM, e_cvtpku16, NULL },
	{ "v_sub_i32", 2, 'u', EXM, e_subi, NULL },
	{ "v_pk_mad_i16", 3, 'u', EXM, e_pk_madi, NULL },
	{ "v_pk_mad_u16", 3, 'u', EXM, e_pk_madu, NULL },
	{ "v_pk_add_i16", 2, 'u', EXM, e_pk_addi, NULL },
	{ "v_pk_sub_u16", 2, 'u', EXM, e_pk_subu, NULL },
	{ "v_pk_lshrrev_b16", 2, 'u', EXM, e_pk_lshr, NULL },
	{ "v_pk_ashrrev_i16", 2, 'u', EXM, e_pk_ashr, NULL },
	{ "v_pk_min_i16", 2, 'u', EXM, e_pk_mini, NULL },
	{ "v_pk_min_u16", 2, 'u', EXM, e_pk_minu, NULL },
	{ "v_pk_max_u16", 2, 'u', EXM, e_pk_maxu, NULL },
	{ "v_pk_min_f16", 2, 'H', EXM, e_pk_minh, NULL },
	{ "v_mbcnt_lo_u32_b32", 2, 'u', EXM, e_mbcntlo, NULL },
	{ "v_mbcnt_hi_u32_b32", 2, 'u', EXM, e_mbcnthi, NULL },
	{ "s_sub_i32", 2, 'u', SCL, s_subi, c_subi },
	{ "s_min_u32", 2, 'u', SCL, s_minu, c_minu },
	{ "s_max_i32", 2, 'u', SCL, s_maxi, c_maxi },
	{ "s_and_b64", 2, 'u', SCL | W0 | W1 | WD, s_and64, c_and64 },
	{ "s_or_b32", 2, 'u', SCL, s_or32, c_or32 },
	{ "s_or_b64", 2, 'u', SCL | W0 | W1 | WD, s_or64, c_or64 },
	{ "s_xor_b32", 2, 'u', SCL, s_xor32, c_xor32 },
	{ "s_xor_b64", 2, 'u', SCL | W0 | W1 | WD, s_xor64, c_xor64 },
	{ "s_andn2_b32", 2, 'u', SCL, s_andn2_32, c_andn2_32 },
	{ "s_orn2_b32", 2, 'u', SCL, s_orn2_32, c_orn2_32 },
	{ "s_nand_b64", 2, 'u', SCL | W0 | W1 | WD, s_nand64, c_nand64 },
	{ "s_nor_b32", 2, 'u', SCL, s_nor32, c_nor32 },
	{ "s_nor_b64", 2, 'u', SCL | W0 | W1 | WD, s_nor64, c_nor64 },
	{ "s_xnor_b32", 2, 'u', SCL, s_xnor32, c_xnor32 },
	{ "s_lshl_b64", 2, 'k', SCL | W0 | WD, s_lshl64, c_lshl64 },
	{ "s_lshr_b32", 2, 'k', SCL, s_lshr32, c_lshr32 },
	{ "s_ashr_i64", 2, 'k', SCL | W0 | WD, s_ashr64, c_ashr64 },
	{ "s_bfm_b32", 2, 'k', SCL, s_bfm32, NULL },
	{ "s_bfm_b64", 2, 'k', SCL | WD, s_bfm64, NULL },
	{ "s_mul_hi_i32", 2, 'u', SCL, s_mulhii, NULL },
	{ "s_lshl1_add_u32", 2, 'u', SCL, s_lshl1add, c_lshl1add },
	{ "s_lshl3_add_u32", 2, 'u', SCL, s_lshl3add, c_lshl3add },
	{ "s_lshl4_add_u32", 2, 'u', SCL, s_lshl4add, c_lshl4add },
	{ "s_pack_ll_b32_b16", 2, 'u', SCL, s_packll, NULL },
	{ "s_cselect_b32", 2, 'u', SCL, s_csel32, c_csel32 },
	{ "s_cselect_b64", 2, 'u', SCL | W0 | W1 | WD, s_csel64, c_csel64 },
	{ "s_addc_u32", 2, 'u', SCL, s_addc, c_addc },
	{ "s_subb_u32", 2, 'u', SCL, s_subb, c_subb },
	{ "s_mov_b64", 1, 'u', SCL | W0 | WD, s_mov64, NULL },
	{ "s_not_b64", 1, 'u', SCL | W0 | WD, s_not64, c_not64 },
	{ "s_wqm_b32", 1, 'y', SCL, s_wqm32, c_wqm32 },
	{ "s_bcnt0_i32_b64", 1, 'u', SCL | W0, s_bcnt0_64, c_bcnt0_64 },
	{ "s_bcnt1_i32_b32", 1, 'u', SCL, s_bcnt1_32, c_bcnt1_32 },
	{ "s_ff0_i32_b32", 1, 'u', SCL, s_ff0_32, NULL },
	{ "s_ff1_i32_b64", 1, 'u', SCL | W0, s_ff1_64, NULL },
	{ "s_flbit_i32_b64", 1, 'u', SCL | W0, s_flbit64, NULL },
	{ "s_quadmask_b64", 1, 'Y', SCL | W0 | WD, s_qmask64, c_qmask64 },
	{ "s_cmov_b32", 1, 'u', SCL, s_cmov32, NULL },
	{ "s_cmov_b64", 1, 'u', SCL | W0 | WD, s_cmov64, NULL },
	{ "s_movk_i32", 0, 'u', SCL, s_movk, NULL },
	{ "s_cmovk_i32", 0, 'u', SCL, s_cmovk, NULL },
	{ "s_addk_i32", 0, 'u', SCL, s_addk, c_addk },
	{ "s_mulk_i32", 0, 'u', SCL, s_mulk, NULL },
	{ "s_getpc_b64", 0, 'u', SCL | WD, s_getpc, NULL },
	{ "s_cmp_eq_i32", 2, 'i', SCC, NULL, c_eqi },
	{ "s_cmp_lg_i32", 2, 'i', SCC, NULL, c_lgi },
	{ "s_cmp_gt_i32", 2, 'i', SCC, NULL, c_gti },
	{ "s_cmp_ge_i32", 2, 'i', SCC, NULL, c_gei },
	{ "s_cmp_le_i32", 2, 'i', SCC, NULL, c_lei },
	{ "s_cmp_eq_u32", 2, 'i', SCC, NULL, c_equ },
	{ "s_cmp_lg_u32", 2, 'i', SCC, NULL, c_lgu },
	{ "s_cmp_gt_u32", 2, 'i', SCC, NULL, c_gtu },
	{ "s_cmp_lt_u32", 2, 'i', SCC, NULL, c_ltu },
	{ "s_cmp_le_u32", 2, 'i', SCC, NULL, c_leu },
	{ "s_cmp_eq_u64", 2, 'i', SCC | W0 | W1, NULL, c_eq64 },
	{ "s_bitcmp0_b32", 2, 'k', SCC, NULL, c_bitcmp0 },
	{ "s_bitcmp0_b64", 2, 'k', SCC | W0, NULL, c_bitcmp0_64 },
	{ "s_bitcmp1_b64", 2, 'k', SCC | W0, NULL, c_bitcmp1_64 },
	{ "s_cmpk_eq_i32", 1, 'i', SCC, NULL, c_keqi },
	{ "s_cmpk_lg_i32", 1, 'i', SCC, NULL, c_klgi },
	{ "s_cmpk_gt_i32", 1, 'i', SCC, NULL, c_kgti },
	{ "s_cmpk_ge_i32", 1, 'i', SCC, NULL, c_kgei },
	{ "s_cmpk_lt_i32", 1, 'i', SCC, NULL, c_klti },
	{ "s_cmpk_eq_u32", 1, 'i', SCC, NULL, c_kequ },
	{ "s_cmpk_lg_u32", 1, 'i', SCC, NULL, c_klgu },
	{ "s_cmpk_gt_u32", 1, 'i', SCC, NULL, c_kgtu },
	{ "s_cmpk_ge_u32", 1, 'i', SCC, NULL, c_kgeu },
	{ "s_cmpk_lt_u32", 1, 'i', SCC, NULL, c_kltu },
	{ "ds_add_u32", 2, 'i', LDS | EXM, l_add_u32, NULL },
	{ "ds_add_rtn_u32", 2, 'i', LDS | RTN | EXM, l_add_u32, NULL },
	{ "ds_sub_u32", 2, 'i', LDS | EXM, l_sub_u32, NULL },
	{ "ds_sub_rtn_u32", 2, 'i', LDS | RTN | EXM, l_sub_u32, NULL },
	{ "ds_rsub_u32", 2, 'i', LDS | EXM, l_rsub_u32, NULL },
	{ "ds_rsub_rtn_u32", 2, 'i', LDS | RTN | EXM, l_rsub_u32, NULL },
	{ "ds_inc_u32", 2, 'i', LDS | EXM, l_inc_u32, NULL },
	{ "ds_inc_rtn_u32", 2, 'i', LDS | RTN | EXM, l_inc_u32, NULL },
	{ "ds_dec_u32", 2, 'i', LDS | EXM, l_dec_u32, NULL },
	{ "ds_dec_rtn_u32", 2, 'i', LDS | RTN | EXM, l_dec_u32, NULL },
	{ "ds_min_i32", 2, 'i', LDS | EXM, l_min_i32, NULL },
	{ "ds_min_rtn_i32", 2, 'i', LDS | RTN | EXM, l_min_i32, NULL },
	{ "ds_max_i32", 2, 'i', LDS | EXM, l_max_i32, NULL },
	{ "ds_max_rtn_i32", 2, 'i', LDS | RTN | EXM, l_max_i32, NULL },
	{ "ds_min_u32", 2, 'i', LDS | EXM, l_min_u32, NULL },
	{ "ds_min_rtn_u32", 2, 'i', LDS | RTN | EXM, l_min_u32, NULL },
	{ "ds_max_u32", 2, 'i', LDS | EXM, l_max_u32, NULL },
	{ "ds_max_rtn_u32", 2, 'i', LDS | RTN | EXM, l_max_u32, NULL },
	{ "ds_and_b32", 2, 'i', LDS | EXM, l_and_b32, NULL },
	{ "ds_and_rtn_b32", 2, 'i', LDS | RTN | EXM, l_and_b32, NULL },
	{ "ds_or_b32", 2, 'i', LDS | EXM, l_or_b32, NULL },
	{ "ds_or_rtn_b32", 2, 'i', LDS | RTN | EXM, l_or_b32, NULL },
	{ "ds_xor_b32", 2, 'i', LDS | EXM, l_xor_b32, NULL },
	{ "ds_xor_rtn_b32", 2, 'i', LDS | RTN | EXM, l_xor_b32, NULL },
	{ "ds_mskor_b32", 3, 'u', LDS | EXM, l_mskor32, NULL },
	{ "ds_mskor_rtn_b32", 3, 'u', LDS | RTN | EXM, l_mskor32, NULL },
	{ "ds_write_b32", 2, 'u', LDS | EXM, l_write32, NULL },
	{ "ds_cmpst_b32", 3, 'i', LDS | EXM, l_cmpst32, NULL },
	{ "ds_add_u64", 2, 'i', LDS | EXM | WD, l_add_u64, NULL },
	{ "ds_add_rtn_u64", 2, 'i', LDS | RTN | EXM | WD, l_add_u64, NULL },
	{ "ds_sub_u64", 2, 'i', LDS | EXM | WD, l_sub_u64, NULL },
	{ "ds_sub_rtn_u64", 2, 'i', LDS | RTN | EXM | WD, l_sub_u64, NULL },
	{ "ds_rsub_u64", 2, 'i', LDS | EXM | WD, l_rsub_u64, NULL },
	{ "ds_rsub_rtn_u64", 2, 'i', LDS | RTN | EXM | WD, l_rsub_u64, NULL },
	{ "ds_inc_u64", 2, 'i', LDS | EXM | WD, l_inc_u64, NULL },
	{ "ds_inc_rtn_u64", 2, 'i', LDS | RTN | EXM | WD, l_inc_u64, NULL },
	{ "ds_dec_u64", 2, 'i', LDS | EXM | WD, l_dec_u64, NULL },
	{ "ds_dec_rtn_u64", 2, 'i', LDS | RTN | EXM | WD, l_dec_u64, NULL },
	{ "ds_min_i64", 2, 'i', LDS | EXM | WD, l_min_i64, NULL },
	{ "ds_min_rtn_i64", 2, 'i', LDS | RTN | EXM | WD, l_min_i64, NULL },
	{ "ds_max_i64", 2, 'i', LDS | EXM | WD, l_max_i64, NULL },
	{ "ds_max_rtn_i64", 2, 'i', LDS | RTN | EXM | WD, l_max_i64, NULL },
	{ "ds_min_u64", 2, 'i', LDS | EXM | WD, l_min_u64, NULL },
	{ "ds_min_rtn_u64", 2, 'i', LDS | RTN | EXM | WD, l_min_u64, NULL },
	{ "ds_max_u64", 2, 'i', LDS | EXM | WD, l_max_u64, NULL },
	{ "ds_max_rtn_u64", 2, 'i', LDS | RTN | EXM | WD, l_max_u64, NULL },
	{ "ds_and_b64", 2, 'i', LDS | EXM | WD, l_and_b64, NULL },
	{ "ds_and_rtn_b64", 2, 'i', LDS | RTN | EXM | WD, l_and_b64, NULL },
	{ "ds_or_b64", 2, 'i', LDS | EXM | WD, l_or_b64, NULL },
	{ "ds_or_rtn_b64", 2, 'i', LDS | RTN | EXM | WD, l_or_b64, NULL },
	{ "ds_xor_b64", 2, 'i', LDS | EXM | WD, l_xor_b64, NULL },
	{ "ds_xor_rtn_b64", 2, 'i', LDS | RTN | EXM | WD, l_xor_b64, NULL },
	{ "ds_mskor_b64", 3, 'u', LDS | EXM | WD, l_mskor64, NULL },
	{ "ds_mskor_rtn_b64", 3, 'u', LDS | RTN | EXM | WD, l_mskor64, NULL },
	{ "ds_write_b64", 2, 'u', LDS | EXM | WD, l_write64, NULL },
	{ "ds_cmpst_b64", 3, 'i', LDS | EXM | WD, l_cmpst64, NULL },
	{ "ds_cmpst_rtn_b32", 3, 'i', LDS | RTN | EXM, l_cmpst32, NULL },
	{ "ds_wrxchg_rtn_b32", 2, 'u', LDS | RTN | EXM, l_write32, NULL },
	{ "ds_cmpst_f32", 3, 'f', LDS | EXM, l_cmpstf, NULL },
	{ "ds_min_f32", 2, 'f', LDS | EXM, l_minf, NULL },
	{ "ds_max_f32", 2, 'f', LDS | EXM, l_maxf, NULL },
	{ "ds_max_rtn_f32", 2, 'f', LDS | RTN | EXM, l_maxf, NULL },
	{ "ds_min_f64", 2, 'd', LDS | WD | EXM, l_mind, NULL },
	{ "ds_min_rtn_f64", 2, 'd', LDS | RTN | WD | EXM, l_mind, NULL },
	{ "ds_max_f64", 2, 'd', LDS | WD | EXM, l_maxd, NULL },
	{ "ds_cmpst_rtn_f64", 3, 'd', LDS | RTN | WD | EXM, l_cmpstd, NULL },
	{ "ds_nop", 0, 'u', LDS | EXM, l_nop, NULL },
	{ "ds_write_b8", 2, 'u', LDS | EXM, l_wb8, NULL },
	{ "ds_write_b16", 2, 'u', LDS | EXM, l_wb16, NULL },
	{ "ds_write_b8_d16_hi", 2, 'u', LDS | EXM, l_wb8hi, NULL },
	{ "ds_write_b16_d16_hi", 2, 'u', LDS | EXM, l_wb16hi, NULL },
	{ "ds_write2_b32", 3, 'u', LDS | WD | EXM, l_w2, NULL },
	{ "ds_wrxchg2_rtn_b32", 3, 'u', LDS | RTN | WD | EXM, l_w2, NULL },
	{ "ds_read_u8", 1, 'a', EXM, e_ds_u8, NULL },
	{ "ds_read_i16", 1, 'a', EXM, e_ds_i16, NULL },
	{ "ds_read2st64_b32", 1, 'a', WD | EXM, e_ds_r2st64, NULL },
	{ "ds_read2_b64", 1, 'a', WD | W4 | EXM, e_ds_r2b64, e_ds_r2b64_hi },
	{ "ds_read2st64_b64", 1, 'a', WD | W4 | EXM, e_ds_r2st64b64,
	  e_ds_r2st64b64_hi },
	{ "ds_read_b128", 1, 'a', WD | W4 | EXM, e_ds_b128, e_ds_b128_hi },
	{ "ds_read_b96", 1, 'a', WD | W4 | EXM, e_ds_b96, e_ds_b96_hi },
	{ "ds_read_u8_d16", 1, 'a', EXM, e_ds_u8d16, NULL },
	{ "ds_read_u8_d16_hi", 1, 'a', EXM, e_ds_u8d16hi, NULL },
	{ "ds_read_i8_d16", 1, 'a', EXM, e_ds_i8d16, NULL },
	{ "ds_read_i8_d16_hi", 1, 'a', EXM, e_ds_i8d16hi, NULL },
	{ "ds_read_u16_d16", 1, 'a', EXM, e_ds_u16d16, NULL },
	{ "ds_read_u16_d16_hi", 1, 'a', EXM, e_ds_u16d16hi, NULL },
	{ "s_and_saveexec_b64", 1, 'u', SCL | SXE | W0 | WD, s_oldexec, NULL,
	  NULL, 0, x_and },
	{ "s_or_saveexec_b64", 1, 'u', SCL | SXE | W0 | WD, s_oldexec, NULL,
	  NULL, 0, x_or },
	{ "s_xor_saveexec_b64", 1, 'u', SCL | SXE | W0 | WD, s_oldexec, NULL,
	  NULL, 0, x_xor },
	{ "s_andn2_saveexec_b64", 1, 'u', SCL | SXE | W0 | WD, s_oldexec, NULL,
	  NULL, 0, x_andn2 },
	{ "s_orn2_saveexec_b64", 1, 'u', SCL | SXE | W0 | WD, s_oldexec, NULL,
	  NULL, 0, x_orn2 },
	{ "s_nand_saveexec_b64", 1, 'u', SCL | SXE | W0 | WD, s_oldexec, NULL,
	  NULL, 0, x_nand },
	{ "s_nor_saveexec_b64", 1, 'u', SCL | SXE | W0 | WD, s_oldexec, NULL,
	  NULL, 0, x_nor },
	{ "s_xnor_saveexec_b64", 1, 'u', SCL | SXE | W0 | WD, s_oldexec, NULL,
	  NULL, 0, x_xnor },
	{ "s_orn1_saveexec_b64", 1, 'u', SCL | SXE | W0 | WD, s_oldexec, NULL,
	  NULL, 0, x_orn1 },
	{ "s_andn1_saveexec_b64", 1, 'u', SCL | SXE | W0 | WD, s_oldexec, NULL,
	  NULL, 0, x_andn1 },
	{ "s_andn1_wrexec_b64", 1, 'u', SCL | SXE | W0 | WD, s_andn1wr, NULL,
	  NULL, 0, x_andn1 },
	{ "s_andn2_wrexec_b64", 1, 'u', SCL | SXE | W0 | WD, s_andn2wr, NULL,
	  NULL, 0, x_andn2 },
	{ "v_div_scale_f32", 3, 's', EXM, e_dscalef, NULL },
	{ "v_div_scale_f32", 3, 's', CMP | EXM, c_dscalef, NULL },
	{ "v_div_scale_f64", 3, 'S', W0 | W1 | W2 | WD | EXM, e_dscaled, NULL },
	{ "v_div_scale_f64", 3, 'S', W0 | W1 | W2 | CMP | EXM, c_dscaled,
	  NULL },
	{ "v_div_fixup_f32", 3, 'x', EXM, e_dfixupf, NULL },
	{ "v_div_fixup_f64", 3, 'X', W0 | W1 | W2 | WD | EXM, e_dfixupd, NULL },
	{ "v_rcp_iflag_f32", 1, 'f', EXM, e_rcpf, NULL },
	{ "v_rsq_f64", 1, 'd', W0 | WD | EXM | ULP, e_rsqd, NULL },
	{ "ds_swizzle_b32", 1, 'u', XL, NULL, NULL, x_swz_quad },
	{ "ds_swizzle_b32", 1, 'u', XL, NULL, NULL, x_swz_bits },
	{ "ds_swizzle_b32", 1, 'u', XL, NULL, NULL, x_swz_raw },
	{ "ds_bpermute_b32", 2, 'u', XL, NULL, NULL, x_bperm },
	{ "ds_permute_b32", 2, 'P', XL, NULL, NULL, x_perm },
	{ "ds_bpermute_b32", 2, 'u', XL | EXM, NULL, NULL, x_bperm },
	{ "ds_permute_b32", 2, 'u', XL | EXM, NULL, NULL, x_perm },
	{ "ds_swizzle_b32", 1, 'u', XL | EXM, NULL, NULL, x_swz_quad },
	{ "ds_swizzle_b32", 1, 'u', XL | EXM, NULL, NULL, x_swz_bits },
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* The encodings llvm-mc printed, in order */
static unsigned nenc;
static char enc_text[NCASES][96];
static uint32_t enc[NCASES][3];
static unsigned enc_len[NCASES];

static void read_encodings(void)
{
	char line[512];
	FILE *f = fopen(GCN_ENC, "r");

	if (!f) {
		TM(0, "cannot open %s", GCN_ENC);
		return;
	}
	while (fgets(line, sizeof(line), f) && nenc < NCASES) {
		char *e = strstr(line, "; encoding: [");
		unsigned b[12], n = 0;
		char *t = line;

		if (!e)
			continue;
		while (*t == ' ' || *t == '\t')
			t++;
		snprintf(enc_text[nenc], sizeof(enc_text[0]), "%.*s",
			 (int)(e - t), t);
		e += strlen("; encoding: [");
		while (n < 12 && sscanf(e, "0x%x", &b[n]) == 1) {
			n++;
			e = strchr(e, ',');
			if (!e)
				break;
			e++;
		}
		memset(enc[nenc], 0, sizeof(enc[0]));
		for (unsigned k = 0; k < n; k++)
			enc[nenc][k / 4] |= b[k] << (8 * (k % 4));
		enc_len[nenc++] = n / 4;
	}
	fclose(f);
}

static uint32_t rng = 0x2545f491;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/*
 * v_div_fmas inputs (lanes 16-63; @f64 or f32), the same for each of a
 * lane's three operands (from a hash of the lane, not rnd()):
 * - 16-39: a x b tiny beside S2 = (2m+1) x unit, |S2| < 1, whose scaled
 *   value is a midpoint of the denormals (fma() rounds to S2 itself: a
 *   second rounding of it goes to even, whatever the sign of a x b); for
 *   f32, lanes 16-27 instead put a x b (a float product of 48 bits) half
 *   a unit minus a little beside an odd S2 >= 1: the double fma rounds to
 *   the midpoint
 * - 40-51: S2 = -(a x b rounded): the sum is the product's rounding error
 * - 52-63: random ones near the scaled denormals
 */
static uint64_t fmas_in(int f64, unsigned lane, unsigned k)
{
	uint64_t h = (lane + 1) * 0x9e3779b97f4a7c15ULL;
	double v[3], sgn = (lane & 1) ? -1 : 1, sc = (lane & 2) ? -1 : 1;
	uint64_t m;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	if (!f64 && lane < 28) {
		int j = lane % 6, i = lane % 5;

		m = h & ((1u << 21) - 1);
		v[2] = sc * ldexp(1.0 + ldexp((double)(2 * m + 1), -23), j);
		v[0] = ldexp(1.0 + 0x1p-18, i);
		v[1] = sc * ldexp(1.0 - 0x1p-18, j - 24 - i);
	} else if (lane < 40) {
		unsigned bits = f64 ? 51 - lane % 20 : 22 - lane % 10;

		m = h & ((1ULL << bits) - 1);
		v[2] = sc * ldexp((double)(2 * m + 1), f64 ? -947 : -86);
		v[0] = f64 ? ldexp(1.0 + (h >> 56) * 0x1p-10, -600) : 0x1p-60;
		v[1] = sgn * (f64 ? ldexp(1.0 + ((h >> 48) & 0xff) * 0x1p-10,
					  -500) : 0x1p-60);
	} else {
		int mb = f64 ? 53 : 24;
		double fa = ldexp((double)((h >> (64 - mb)) | 1ULL << (mb - 1)),
				  -(mb - 1) - (int)(lane % 7));
		double fb = ldexp((double)(((h * 3) >> (64 - mb)) |
					   1ULL << (mb - 1)),
				  -(mb - 1) - (f64 ? 900 : 50) -
				  (int)(lane % 9));

		v[0] = sgn * fa;
		v[1] = fb;
		if (lane < 52) {
			v[2] = f64 ? -(v[0] * v[1])
				   : -(double)(float)(v[0] * v[1]);
		} else {
			double fc = ldexp((double)(((h * 5) >> (64 - mb)) |
						   1ULL << (mb - 1)),
					  -(mb - 1) - (int)(lane % 11));

			v[2] = sc * fc * (f64 ? ldexp(v[1], -(int)(lane % 40)) :
					  ldexp(v[1], -(int)(lane % 20)));
		}
	}
	return f64 ? UD(v[k]) : UF((float)v[k]);
}


/*
 * v_div_scale (s: f32, S: f64) and v_div_fixup (x, X) inputs, from a
 * hash of the lane (S0 depends on S1 and S2): div_scale S1 and S2 finite
 * over the whole exponent range, denormals and zeros among them, S0 one
 * of the two (the ISA's use); div_fixup S1 and S2 with zeros,
 * infinities and NaNs in lanes 0..15, S0 near S2/S1 of either sign
 */
static uint64_t div_in(char type, unsigned lane, unsigned k)
{
	int f64 = type == 'S' || type == 'X', scale = type == 's' || type == 'S';
	uint64_t h = (lane + 7) * 0x9e3779b97f4a7c15ULL, h2;
	double v[3];
	int emax = f64 ? 1023 : 127, emin = f64 ? -1074 : -149;
	static const double sp[8] = { 0, -0.0, INFINITY, -INFINITY, NAN, 1, -3,
				      0.5 };

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	h2 = h * 0x94d049bb133111ebULL;
	h2 ^= h2 >> 32;
	for (unsigned j = 1; j < 3; j++) {
		uint64_t r = j == 1 ? h : h2;
		double m = 1.0 + (double)(r >> 12) * 0x1p-52;
		int e;

		if (scale)
			e = emin + (int)((r & 0xfff) % (unsigned)(emax - emin + 1));
		else
			e = (int)((r & 0xff) % 201) - 100;
		v[j] = ldexp(m, e) * ((r >> 8) & 1 ? -1 : 1);
		if (!f64)
			v[j] = (float)v[j];
	}
	if (scale) {
		/* a few operands near each other's exponent, zeros */
		if (lane % 5 == 1)
			v[2] = ldexp(v[2], bexp(v[1], f64) - bexp(v[2], f64));
		if (lane % 13 == 3)
			v[1 + lane % 2] = 0;
		if (lane % 9 == 4)
			v[2] = ldexp(v[1], (f64 ? 768 : 96) + (int)(h % 5) - 2);
		/* S1 above 2^(emax-1): 1/S1 denormal; S2/S1 too, or not */
		if (lane % 11 == 6 || lane % 11 == 7) {
			v[1] = ldexp(v[1], emax - 1 - ilogb(v[1]) +
				     (int)(h2 % 2));
			v[2] = ldexp(v[2], -ilogb(v[2]) + (lane % 11 == 6 ?
				     -10 - (int)(h2 % 20) : (int)(h2 % 20)));
		}
		v[0] = lane & 1 ? v[1] : v[2];
	} else {
		if (lane < 16) {
			v[1] = sp[lane % 8];
			v[2] = sp[(lane / 2 + 3 * (lane & 1)) % 8];
		}
		v[0] = (v[2] / v[1]) * (1 + ((h2 >> 20) & 0xff) * 0x1p-30) *
		       ((h2 >> 40) & 1 ? -1 : 1);
	}
	return f64 ? UD(v[k]) : UF((float)v[k]);
}

static const uint32_t usp8[8] = {
	0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 2, 0xffff, 0x10000,
};

/* A lane's input of @type; lanes 0..15 take the special values */
static uint64_t input(char type, unsigned lane, unsigned k)
{
	static const uint32_t fsp[16] = {
		0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00000,
		1, 0x807fffff, 0x00800000, 0x7f7fffff, 0x3f800000, 0xbf000000,
		0x3fc00000, 0x40200000, 0xc0300000, 0x4effffff,
	};
	static const uint64_t dsp[16] = {
		0, 1ULL << 63, 0x7ff0000000000000ULL, 0xfff0000000000000ULL,
		0x7ff8000000000000ULL, 0x7ff4000000000000ULL, 1,
		0x800fffffffffffffULL, 0x0010000000000000ULL,
		0x7fefffffffffffffULL, 0x3ff0000000000000ULL,
		0xbfe0000000000000ULL, 0x3ff8000000000000ULL,
		0x4004000000000000ULL, 0xc006000000000000ULL,
		0x41dfffffffc00000ULL,
	};
	static const uint16_t hsp[16] = {
		0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7d00, 1, 0x83ff, 0x0400,
		0x7bff, 0x3c00, 0xb800, 0x3e00, 0x4100, 0xc180, 0x5bff,
	};
	uint32_t r = rnd(), s = (lane + 5 * k) & 15;
	float f;
	double d;

	switch (type) {
	case 'a': {                     /* LDS addresses, wrapping ones too */
		static const uint32_t asp[16] = {
			0xfffffe02, 0xfffffe00, 0xfffffffc, 0xfffffff8,
			0xffffffff, 0, 2, 0xfffe, 0xfff0, 0x10000, 0xffff0000,
			0x80000000, 0xffff0008, 0xfffffe01, 0x7ffffffe,
			0xfffff00c,
		};

		if (lane < 16)
			return asp[s];
		return (uint32_t)(r % 0x10800) - 0x400;
	}
	case 'm':                       /* SMEM bases: 0x110000 and up */
		return (0x110000 + r % 0x800000) & ~3u;
	case 'y':                       /* bytes 0..3: equal ones are common */
		return r & 0x03030303;
	case 'H':                       /* two halves, special ones too */
		if (lane < 16)
			return hsp[s] | (uint64_t)hsp[(s + 5) & 15] << 16;
		return r;
	case 'p':                       /* v_perm_b32: selectors 0..13 */
		if (k < 2)
			return r;
		return r % 14 | (rnd() % 14) << 8 | (rnd() % 14) << 16 |
		       (rnd() % 14) << 24;
	case 'k':                       /* shift counts and small fields */
		return lane < 8 ? r % 40 : (uint64_t)r << 32 | rnd();
	case 'f':
	case 'c':
		if (type == 'c' && k == 1)
			return r & 0x3ff;       /* a class mask */
		if (lane < 16)
			return fsp[s];
		if (lane < 40) {
			f = ldexpf((float)(int32_t)r, (int)(rnd() % 60) - 60);
			return UF(f);
		}
		return r;
	case 'd':
	case 'C':
		if (type == 'C' && k == 1)
			return r & 0x3ff;
		if (lane < 16)
			return dsp[s];
		if (lane < 40) {
			d = ldexp((double)(int32_t)r, (int)(rnd() % 120) - 100);
			return UD(d);
		}
		return (uint64_t)r << 32 | rnd();
	case 'h':
		if (lane < 16)
			return hsp[s] | (uint64_t)(rnd() & 0xffff) << 16;
		return r;
	case 'P':                       /* ds_permute: a permutation */
		if (k)
			return r;
		return 4 * ((lane * 37 + 11) & 63) | (r & 3) | rnd() << 8;
	case 's':
	case 'S':
	case 'x':
	case 'X':
		return div_in(type, lane, k);
	case 'q':                       /* v_div_fmas_f64 (see fmas_in) */
	case 'r':                       /* v_div_fmas_f32 */
		if (lane < 16)
			return type == 'q' ? dsp[s] : fsp[s];
		return fmas_in(type == 'q', lane, k);
	case 'i':                       /* integers: -1, 0, 1 often (equal) */
		if (lane >= 8 && lane < 40)
			return (uint64_t)(int64_t)((int32_t)(r % 3) - 1);
		if (lane >= 8)
			return (uint64_t)r << 32 | rnd();
		return usp8[(lane + k) & 7] | (uint64_t)usp8[(lane + 3 * k) & 7]
		       << 32;
	case 'Y':                       /* bytes 0..3, 64 bits */
		return (uint64_t)(rnd() & 0x03030303) << 32 | (r & 0x03030303);
	case 'j':                       /* halves; S1 a class mask */
		if (k == 1)
			return r & 0x3ff;
		if (lane < 16)
			return hsp[s] | (uint64_t)(rnd() & 0xffff) << 16;
		return r;
	case 'e':                       /* halves, a third of them denormal */
		if (lane < 16)
			return hsp[s] | (uint64_t)(rnd() & 0xffff) << 16;
		return lane % 3 ? r : r & 0xffff83ffu;
	default:
		if (lane < 8) {
			static const uint32_t usp[8] = {
				0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 2,
				0xffff, 0x10000,
			};
			return usp[(lane + k) & 7] |
			       (uint64_t)usp[(lane + 3 * k) & 7] << 32;
		}
		return (uint64_t)r << 32 | rnd();
	}
}

static uint8_t code[64];
static unsigned paths_fast;

static unsigned m_read(void *o, uint64_t addr, void *buf, uint32_t len)
{
	if (addr >= 0x10000 && addr + len <= 0x10000000) {
		for (uint32_t k = 0; k < len; k++)
			((uint8_t *)buf)[k] = mem_pat(addr + k);
		return 0;
	}
	if (addr < 0x1000 || addr + len > 0x1000 + sizeof(code))
		return 7;
	memcpy(buf, code + (addr - 0x1000), len);
	return 0;
}

static uint8_t lds[LDS_SIZE];

static unsigned m_write(void *o, uint64_t addr, const void *buf,
			uint32_t len)
{
	return 7;
}

static const HsaGpuGcnMem cmem = { .read = m_read, .write = m_write };

static int half_nan(uint64_t h)
{
	return (h & 0x7fff) > 0x7c00;
}

/* Is @got the @want of a result of type @type (NaNs all alike) */
static int same(char type, unsigned shape, uint64_t got, uint64_t want)
{
	if ((shape & ULP) && !isnan(D(want)) &&
	    (got >> 63) == (want >> 63) &&
	    (got > want ? got - want : want - got) <= 1)
		return 1;
	if (type == 's' || type == 'x')
		type = 'f';
	if (type == 'S' || type == 'X')
		type = 'd';
	if (shape & (CMP | CMPS | SCL | SCC))
		return got == want;
	/* a half NaN in either half of a dword: any NaN will do */
	if (!(shape & WD) && want < 0x100000000ULL &&
	    (half_nan(want) || half_nan(want >> 16)) &&
	    (half_nan(want) ? half_nan(got) : (got & 0xffff) == (want & 0xffff)) &&
	    (half_nan(want >> 16) ? half_nan(got >> 16)
				  : ((got >> 16) & 0xffff) == ((want >> 16) & 0xffff)))
		return 1;
	if ((shape & WD) && (type == 'd' || type == 'f') &&
	    isnan(D(want)))
		return isnan(D(got));
	if (!(shape & WD) && (type == 'f' || type == 'd') && isnan(F(want)))
		return isnan(F(got));
	if ((type == 'h' || type == 'e') && !(shape & WD) && isnan(H(want)) &&
	    want < 0x10000)
		return isnan(H(got));
	return got == want;
}

/* Is lane @l active (EXM: in EXEC_PAT) */
#define EXM_ON(c, l) (!((c)->shape & EXM) || ((EXEC_PAT >> (l)) & 1))

static void run_case(unsigned i)
{
	const GcnCase *c = &cases[i];
	HsaGpuGcnDispatch d;
	HsaGpuGcnStatus st;
	HsaGpuGcnGroup g;
	HsaGpuGcnVreg v[20];
	HsaGpuGcnWave w;
	unsigned bad = 0, first = 0, rounds = c->shape & (SCL | SCC) ? 64 : 1;
	uint64_t got = 0, want = 0, in[3] = { 0, 0, 0 }, fgot = 0, fwant = 0;
	uint32_t xa[HSAGPU_GCN_WAVE], xb[HSAGPU_GCN_WAVE], xo[HSAGPU_GCN_WAVE];
	uint32_t pre10[HSAGPU_GCN_WAVE];
	uint64_t alds[HSAGPU_GCN_WAVE], lold[HSAGPU_GCN_WAVE];
	size_t ml = strlen(c->mnemonic);

	/* the table and insns.s must agree line by line */
	if (strncmp(enc_text[i], c->mnemonic, ml) ||
	    (enc_text[i][ml] != ' ' && enc_text[i][ml] != '_')) {
		TM(0, "case %u: table says %s, llvm-mc printed '%s'", i,
		   c->mnemonic, enc_text[i]);
		return;
	}
	memset(&d, 0, sizeof(d));
	memset(&g, 0, sizeof(g));
	g.mem = &cmem;
	g.ftz64 = !!(c->shape & FTZ);
	g.d = &d;
	g.st = &st;
	for (uint32_t k = 0; k < LDS_SIZE; k++)
		lds[k] = lds_pat(k);
	g.lds = lds;
	g.lds_size = LDS_SIZE;
	memset(code, 0, sizeof(code));
	memcpy(code, enc[i], 4 * enc_len[i]);
	if (c->shape & DPPL) {
		uint32_t i0 = (enc[i][0] & ~0x1ffu) | 0xfa;

		memcpy(code, &i0, 4);
	}
	for (unsigned r = 0; r < rounds; r++) {
		memset(&w, 0, sizeof(w));
		memset(&st, 0, sizeof(st));
		memset(v, 0, sizeof(v));
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
			v[0][l] = OLD;
		w.vfile = v;
		w.nvgpr = 20;
		w.exec = c->shape & EXM ? EXEC_PAT : ~0ULL;
		w.vcc = c->shape & VCI ? VCC_PAT : 0;
		w.m0 = c->m0;
		w.pc = 0x1000;
		if (c->shape & (SCL | SCC)) {
			for (unsigned k = 0; k < c->nsrc; k++) {
				in[k] = input(c->type, r, k);
				w.s[10 + 2 * k] = (uint32_t)in[k];
				w.s[11 + 2 * k] = in[k] >> 32;
			}
			if (c->shape & SXE) {
				/* EXEC before: all, none, the sources' */
				in[1] = r == 1 ? ~0ULL : r == 2 ? 0 :
					r == 3 ? in[0] : input('u', r, 1);
				w.exec = in[1];
			}
			w.scc = r & 1;
			in_scc = r & 1;
			w.s[0] = OLD;
			w.s[1] = OLDHI;
		} else {
			for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
				for (unsigned k = 0; k < c->nsrc; k++) {
					uint64_t x = input(c->type, l, k);

					v[10 + 2 * k][l] = (uint32_t)x;
					v[11 + 2 * k][l] = x >> 32;
				}
			for (unsigned l = 0; c->shape & W4 &&
			     l < HSAGPU_GCN_WAVE; l++) {
				uint64_t x = input(c->type, l, 3);

				v[16][l] = (uint32_t)x;
				v[17][l] = x >> 32;
			}
		}
		if (c->shape & LDS) {
			g.lds = (uint8_t *)alds;
			g.lds_size = sizeof(alds);
			for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
				/*
				 * the LDS word: another input (k = 3), or
				 * in every fourth lane data0 (compares equal)
				 */
				alds[l] = l % 4 == 3 ? v[12][l] |
					 (uint64_t)v[13][l] << 32 :
					 input(c->type, l, 3);
				if (!(c->shape & WD))
					alds[l] &= 0xffffffffu;
				lold[l] = alds[l];
				v[10][l] = 8 * l;
			}
		}
		memcpy(pre10, v[10], sizeof(pre10));
		if (!hsagpu_gcn_step(&g, &w) || w.pc != 0x1000 + 4 * enc_len[i]) {
			TM(0, "%s: stopped (%u, %s) or pc 0x%llx", enc_text[i],
			   st.code, st.what ? st.what : "",
			   (unsigned long long)w.pc);
			return;
		}
		if (c->shape & XL) {
			for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
				xa[l] = v[10][l];
				xb[l] = v[12][l];
				xo[l] = OLD;
			}
			xl_exec = c->shape & EXM ? EXEC_PAT : ~0ULL;
			c->xfn(xa, xb, xo);
		}
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
			uint64_t m[3];

			if (c->shape & LDS) {
				m[1] = v[12][l] | (uint64_t)v[13][l] << 32;
				m[2] = v[14][l] | (uint64_t)v[15][l] << 32;
				if (!(c->shape & WD)) {
					m[1] &= 0xffffffffu;
					m[2] &= 0xffffffffu;
				}
				got = alds[l];
				want = c->fn(lold[l], m[1], m[2]);
				if (!(c->shape & WD))
					want &= 0xffffffffu;
				/* EXM: a lane left out changes nothing */
				if (!EXM_ON(c, l))
					want = lold[l];
				/* the old word returned: counted as a miss */
				if ((c->shape & RTN) && EXM_ON(c, l) &&
				    (v[0][l] != (uint32_t)lold[l] ||
				     ((c->shape & WD) &&
				      v[1][l] != lold[l] >> 32)))
					got ^= 1ULL << 62;
				if ((c->shape & RTN) && !EXM_ON(c, l) &&
				    (v[0][l] != OLD || v[1][l]))
					got ^= 1ULL << 62;
			} else if (c->shape & SWP) {
				got = v[0][l] | (uint64_t)v[10][l] << 32;
				want = pre10[l] | (uint64_t)OLD << 32;
			} else if ((c->shape & XL) && (c->shape & CMP)) {
				got = (w.vcc >> l) & 1;
				want = xo[l];
				if (c->shape & CX) {
					got |= ((w.exec >> l) & 1) << 1;
					want |= want << 1;
				}
			} else if (c->shape & XL) {
				got = v[0][l];
				want = xo[l];
			} else if (c->shape & (SCL | SCC)) {
				if (l)
					break;
				memcpy(m, in, sizeof(m));
			} else {
				for (unsigned k = 0; k < 3; k++)
					m[k] = v[10 + 2 * k][l] |
					       ((c->shape >> k) & 1 ?
						(uint64_t)v[11 + 2 * k][l] << 32
						: 0);
			}
			if (c->shape & (XL | SWP | LDS)) {
				/* got and want: above */
			} else if (c->shape & SCC) {
				got = w.scc;
				want = c->scc(m[0], m[1], m[2]);
			} else if (c->shape & SCL) {
				unsigned sd = c->shape & MRD ? c->m0 : 0;

				got = w.s[sd];
				if (c->shape & WD)
					got |= (uint64_t)w.s[sd + 1] << 32;
				want = c->fn(m[0], m[1], m[2]);
				if (!(c->shape & WD))
					want = (uint32_t)want;
				if (c->scc && w.scc != c->scc(m[0], m[1], m[2]))
					got ^= 1ULL << 63;  /* count it wrong */
				/* SXE: EXEC after and SCC = EXEC != 0 */
				if ((c->shape & SXE) &&
				    (w.exec != c->xec(m[0], m[1], m[2]) ||
				     w.scc != (c->xec(m[0], m[1], m[2]) != 0)))
					got ^= 1ULL << 62;
			} else if (c->shape & (CMP | CMPS)) {
				uint64_t mask = c->shape & CMP ? w.vcc :
						w.s[20] | (uint64_t)w.s[21] << 32;

				got = (mask >> l) & 1;
				lane_vcc = (VCC_PAT >> l) & 1;
				lane_no = l;
				want = (EXM_ON(c, l) ? c->fn(m[0], m[1], m[2])
						     : 0) & 1;
				if (c->shape & CX) {
					got |= ((w.exec >> l) & 1) << 1;
					want |= want << 1;
				}
			} else {
				got = v[0][l] | (c->shape & WD ?
						 (uint64_t)v[1][l] << 32 : 0);
				lane_vcc = (VCC_PAT >> l) & 1;
				lane_no = l;
				lane_c_hi = v[16][l] | (uint64_t)v[17][l] << 32;
				/* a lane EXEC leaves out keeps v0 (v1: 0) */
				want = EXM_ON(c, l) ? c->fn(m[0], m[1], m[2])
						    : OLD;
				if (!(c->shape & WD))
					want = (uint32_t)want;
				/* W4: v[2:3] (0 before) wrong counts too */
				if ((c->shape & W4) &&
				    (v[2][l] | (uint64_t)v[3][l] << 32) !=
				    (EXM_ON(c, l) ? c->scc(m[0], m[1], m[2])
						  : 0))
					got ^= 1ULL << 63;
			}
			if (!same(c->type, c->shape, got, want) && !bad++) {
				first = l;
				fgot = got;
				fwant = want;
			}
		}
		if (bad)
			break;
	}
	if (!(c->shape & (SCL | SCC))) {
		in[0] = v[10][first];
		in[1] = v[12][first];
		in[2] = v[14][first];
	}
	TM(!bad, "%s: %u lanes wrong (first lane %u: got 0x%llx, want 0x%llx; "
	   "inputs 0x%llx 0x%llx 0x%llx)", enc_text[i], bad, first,
	   (unsigned long long)fgot, (unsigned long long)fwant,
	   (unsigned long long)in[0], (unsigned long long)in[1],
	   (unsigned long long)in[2]);
}

/*
 * The two ways an instruction runs give the same state: decoded once and
 * on a fast path (the default), and through the general paths
 * (hsagpu_gcn_general). Each VALU encoding above is varied: every source
 * as a VGPR (one past the allocation too), an SGPR, a special register,
 * an inline constant of each kind or the literal; modifiers, op_sel,
 * clamp; destinations past the allocation; carry pairs that are and are
 * not a pair. Each variant runs on random registers with EXEC full and
 * partial; the wave, its VGPRs and the status must match exactly.
 */
static const uint16_t var_src[] = {
	256 + 10, 256 + 12, 256 + 19, 256 + 200, 10, 11, 0, 101, 102, 106,
	107, 124, 125, 126, 128, 135, 192, 193, 208, 240, 242, 245, 248, 251,
	253, 255,
};
#define NVSRC (sizeof(var_src) / sizeof(var_src[0]))
#define VARS (3 * NVSRC + 16)

/* Variant @k of the VALU instruction @e (two dwords; false: no such) */
static bool vary(uint32_t *e, unsigned k)
{
	bool vop3 = e[0] >> 26 == 0x34;

	if (k < 3 * NVSRC) {
		unsigned pos = k / NVSRC, src = var_src[k % NVSRC];

		if (!vop3) {
			if (pos == 0) {
				e[0] = (e[0] & ~0x1ffu) | src;
				return true;
			}
			/* VOP1's [16:9] is its opcode, VOP2/VOPC's vsrc1 */
			if (pos == 1 && e[0] >> 25 != 0x3f && src >= 256) {
				e[0] = (e[0] & ~(0xffu << 9)) |
				       (src - 256) << 9;
				return true;
			}
			return false;
		}
		e[1] = (e[1] & ~(0x1ffu << (9 * pos))) | src << (9 * pos);
		return true;
	}
	k -= 3 * NVSRC;
	if (k < 2) {                    /* a destination at the end, past it */
		if (vop3)
			e[0] = (e[0] & ~0xffu) | (k ? 200 : 19);
		else if (e[0] >> 25 != 0x3e)
			e[0] = (e[0] & ~(0xffu << 17)) | (k ? 200u : 19u) << 17;
		return true;
	}
	if (!vop3)
		return false;
	k -= 2;
	switch (k) {
	case 0: case 1: case 2: case 3: /* neg, abs (VOP3b: sdst bits) */
		e[1] ^= 1u << (29 + k % 3);
		if (k == 3)
			e[0] ^= 1u << 8;
		return true;
	case 4:
		e[0] ^= 1u << 15;       /* clamp */
		return true;
	case 5: case 6:
		e[1] ^= (k - 4) << 27;  /* omod */
		return true;
	case 7: case 8:
		e[0] ^= 1u << (11 + 3 * (k - 7));   /* op_sel */
		return true;
	default:                        /* the VOP3b/VOPC SGPR destination */
		e[0] = (e[0] & ~(0x7fu << 8)) |
		       (uint32_t)(k == 9 ? 106 : k == 10 ? 20 : k == 11 ? 21 :
				  k == 12 ? 126 : 101) << 8;
		return true;
	}
}

/*
 * DS variants: the address register as a result, results and sources
 * past the allocation, random offsets (addresses themselves are random:
 * in range, past the LDS's end, wrapping at 32 bits)
 */
#define DS_VARS 10

static bool vary_ds(uint32_t *e, unsigned k)
{
	switch (k) {
	case 0:
		return true;
	case 1:                         /* vdst = vaddr */
		e[1] = (e[1] & 0x00ffffffu) | (e[1] & 0xff) << 24;
		return true;
	case 2:
		e[1] = (e[1] & 0x00ffffffu) | 19u << 24;
		return true;
	case 3:
		e[1] = (e[1] & ~0xffu) | 200;
		return true;
	case 4:
		e[1] = (e[1] & ~(0xffu << 8)) | 19u << 8;
		return true;
	default:                        /* offset, or offset0 and offset1 */
		e[0] = (e[0] & ~0xffffu) | (rnd() & 0xffff);
		return true;
	}
}

typedef struct {
	HsaGpuGcnWave w;
	HsaGpuGcnVreg v[20];
	HsaGpuGcnStatus st;
	bool ran, ds;
	uint8_t lds[LDS_SIZE];
} PathState;

static void run_path(PathState *p, const PathState *from, bool general)
{
	HsaGpuGcnDispatch d;
	HsaGpuGcnGroup g;

	*p = *from;
	p->w.vfile = p->v;
	memset(&d, 0, sizeof(d));
	memset(&g, 0, sizeof(g));
	g.mem = &cmem;
	g.d = &d;
	g.st = &p->st;
	g.lds = lds;
	g.lds_size = LDS_SIZE;
	g.ftz32 = from->w.denorm & 1;
	if (from->ds)
		memcpy(lds, from->lds, LDS_SIZE);
	hsagpu_gcn_general = general;
	p->ran = hsagpu_gcn_step(&g, &p->w);
	hsagpu_gcn_general = false;
	if (from->ds)
		memcpy(p->lds, lds, LDS_SIZE);
}

static bool same_path(const PathState *a, const PathState *b)
{
	const HsaGpuGcnWave *x = &a->w, *y = &b->w;

	return a->ran == b->ran && !memcmp(a->v, b->v, sizeof(a->v)) &&
	       (!a->ds || !memcmp(a->lds, b->lds, LDS_SIZE)) &&
	       !memcmp(x->s, y->s, sizeof(x->s)) && x->vcc == y->vcc &&
	       x->exec == y->exec && x->m0 == y->m0 && x->scc == y->scc &&
	       x->pc == y->pc && x->done == y->done && x->insns == y->insns &&
	       !memcmp(x->flat_scratch, y->flat_scratch,
		       sizeof(x->flat_scratch)) &&
	       a->st.code == b->st.code && a->st.lane_ops == b->st.lane_ops &&
	       a->st.vgpr_oor == b->st.vgpr_oor &&
	       (a->st.what == b->st.what ||
		(a->st.what && b->st.what && !strcmp(a->st.what, b->st.what)));
}

static void check_paths(unsigned i)
{
	static PathState from, fast, gen;
	unsigned fast_runs = 0, bad = 0, tried = 0;
	uint32_t e0 = enc[i][0];
	char first[160] = "";

	/* the fast paths': VALU (VOP1, VOP2, VOPC, VOP3 but VOP3P) and DS */
	bool ds = e0 >> 26 == 0x36;

	if (!ds && ((e0 >> 31 && e0 >> 26 != 0x34) || e0 >> 23 == 0x1a7))
		return;
	for (unsigned k = 0; k < (ds ? DS_VARS : VARS); k++) {
		uint32_t e[3];

		memcpy(e, enc[i], sizeof(e));
		if (!(ds ? vary_ds(e, k) : vary(e, k)))
			continue;
		for (unsigned r = 0; r < 4; r++) {
			HsaGpuGcnDec dd = { .raw = { e[0], e[1] } };
			uint32_t lit = rnd();

			memset(code, 0, sizeof(code));
			memcpy(code, e, 8);
			if (enc_len[i] == 1 || (e[0] >> 26 != 0x34 &&
						(e[0] & 0x1ff) == 255))
				memcpy(code + 4, &lit, 4);
			memset(&from, 0, sizeof(from));
			for (unsigned n = 0; n < 20; n++)
				for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
					from.v[n][l] = r & 2 ? rnd() :
						input('f', l, n % 3);
			for (unsigned n = 0; n < HSAGPU_GCN_SGPRS; n++)
				from.w.s[n] = rnd();
			from.w.vcc = (uint64_t)rnd() << 32 | rnd();
			from.w.exec = r & 1 ? (uint64_t)rnd() << 32 | rnd()
					    : ~0ULL;
			from.w.m0 = rnd() & 0xffff;
			from.w.scc = rnd() & 1;
			from.w.nvgpr = 20;
			from.w.pc = 0x1000;
			from.w.denorm = r & 2 ? 0 : 0xf;
			from.ds = ds;
			for (unsigned l = 0; ds && l < HSAGPU_GCN_WAVE; l++) {
				uint32_t a = rnd();

				/* in range, past the end, wrapping */
				a = l % 4 == 0 ? a % LDS_SIZE : l % 4 == 1 ?
				    a % (LDS_SIZE + 512) : l % 4 == 2 ?
				    0xffffff00u + a % 256 : a & ~3u;
				for (unsigned n = 0; n < 20; n += 2)
					from.v[n][l] = a;
			}
			for (unsigned b = 0; ds && b < LDS_SIZE; b += 4) {
				uint32_t x = rnd();

				memcpy(from.lds + b, &x, 4);
			}
			run_path(&gen, &from, true);
			run_path(&fast, &from, false);
			tried++;
			if (hsagpu_gcn_vop_decode(e, &dd.v) == GCN_VOP_PLAIN &&
			    hsagpu_gcn_valu_predecode(&dd))
				fast_runs++;
			if (!same_path(&gen, &fast) && !bad++)
				snprintf(first, sizeof(first),
					 "variant %u (%08x %08x) EXEC %s: "
					 "general %u (%s), fast %u (%s)", k,
					 e[0], e[1], r & 1 ? "partial" : "full",
					 gen.st.code, gen.st.what ? gen.st.what
					 : "", fast.st.code, fast.st.what ?
					 fast.st.what : "");
		}
	}
	paths_fast += fast_runs;
	TM(!bad, "%.60s: decoded once and the general paths agree on %u of "
	   "%u variants (%u on a fast VALU path)%s%.60s", enc_text[i], tried - bad,
	   tried, fast_runs, bad ? "; first: " : "", first);
}

int main(void)
{
	read_encodings();
	TM(nenc == NCASES, "%u encodings from llvm-mc for %zu cases", nenc,
	   NCASES);
	for (unsigned i = 0; i < nenc; i++)
		run_case(i);
	/* and every case again through the general paths alone */
	hsagpu_gcn_general = true;
	for (unsigned i = 0; i < nenc; i++)
		run_case(i);
	hsagpu_gcn_general = false;
	for (unsigned i = 0; i < nenc; i++)
		check_paths(i);
	/* the variants reach the fast paths, not only the general ones */
	TM(paths_fast >= 4000, "%u variants ran on a fast path", paths_fast);
	return tap_done();
}
