/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Differential test: fp32 operations (tests/unit/test-gcn-diff.c) */
#include "diff.h"

#define NO 6
KERN(f32_arith, float)
{
	size_t i = get_global_id(0);
	float a = A[i], b = B[i], c = C[i];

	O(0) = F(a + b);
	O(1) = F(a - b);
	O(2) = F(a * b);
	O(3) = F(fma(a, b, c));
	/* either an fma or a product and a sum, each rounded (Table 7.1) */
	O(4) = F(mad(a, b, c));
	O(5) = F(-a * 0.5f + 3.0f);
}

#undef NO
#define NO 6
KERN(f32_minmax, float)
{
	size_t i = get_global_id(0);
	float a = A[i], b = B[i];

	O(0) = F(fmin(a, b));
	O(1) = F(fmax(a, b));
	O(2) = F(fabs(a));
	O(3) = F(copysign(a, b));
	O(4) = F(-b);
	O(5) = F(fmax(fmin(a, 1.0f), -1.0f));
}

#undef NO
#define NO 8
KERN(f32_round, float)
{
	size_t i = get_global_id(0);
	float a = A[i], ip;

	O(0) = F(floor(a));
	O(1) = F(ceil(a));
	O(2) = F(rint(a));
	O(3) = F(trunc(a));
	O(4) = F(round(a));
	O(5) = F(fract(a, &ip));
	O(6) = F(ip);
	O(7) = F(a * 0.25f);
}

#undef NO
#define NO 6
KERN(f32_frexp, float)
{
	size_t i = get_global_id(0);
	float a = A[i];
	int e;
	int k = (int)(as_uint(B[i]) % 320) - 160;

	O(0) = F(frexp(a, &e));
	O(1) = U(e);
	O(2) = F(ldexp(a, k));
	O(3) = U(ilogb(a));
	O(4) = F(logb(a));
	O(5) = U(k);
}

#undef NO
#define NO 2
KERN(f32_compare, float)
{
	size_t i = get_global_id(0);
	float a = A[i], b = B[i];
	uint r = 0;

	r |= (a < b) << 0;
	r |= (a <= b) << 1;
	r |= (a == b) << 2;
	r |= (a != b) << 3;
	r |= (a > b) << 4;
	r |= (a >= b) << 5;
	r |= isnan(a) << 6;
	r |= isinf(a) << 7;
	r |= isfinite(a) << 8;
	r |= isnormal(a) << 9;
	r |= signbit(a) << 10;
	r |= isordered(a, b) << 11;
	r |= isunordered(a, b) << 12;
	r |= islessgreater(a, b) << 13;
	r |= isgreater(a, b) << 14;
	r |= islessequal(a, b) << 15;
	O(0) = U(r);
	O(1) = F(a < b ? a : b > 1.0f ? b : a * b);
}

/* float to integer: every rounding mode, saturated (6.2.3.3) */
#undef NO
#define NO 8
KERN(f32_to_int, float)
{
	size_t i = get_global_id(0);
	float a = A[i];

	O(0) = U(convert_int_sat_rte(a));
	O(1) = U(convert_int_sat_rtz(a));
	O(2) = U(convert_int_sat_rtp(a));
	O(3) = U(convert_int_sat_rtn(a));
	O(4) = U(convert_uint_sat_rtz(a));
	O(5) = U(convert_uint_sat_rte(a));
	O(6) = U(convert_uchar_sat(a) | (uint)(ushort)convert_short_sat_rtn(a) << 8);
	O(7) = (ulong)convert_long_sat_rtz(a);
}

/* in range of int: the conversions without _sat (out of range undefined) */
#undef NO
#define NO 4
KERN(f32_to_int_nosat, float)
{
	size_t i = get_global_id(0);
	float a = A[i];

	O(0) = U(convert_int_rte(a));
	O(1) = U(convert_int_rtz(a));
	O(2) = U(convert_int_rtp(a));
	O(3) = U(convert_int_rtn(a));
}

#undef NO
#define NO 8
KERN(int_to_f32, uint)
{
	size_t i = get_global_id(0);
	int a = A[i];
	uint u = B[i];

	O(0) = F(convert_float_rte(a));
	O(1) = F(convert_float_rtz(a));
	O(2) = F(convert_float_rtp(a));
	O(3) = F(convert_float_rtn(a));
	O(4) = F(convert_float_rte(u));
	O(5) = F(convert_float_rtz(u));
	O(6) = F(convert_float_rtp(u));
	O(7) = F(convert_float_rtn(u));
}

#undef NO
#define NO 6
KERN(long_to_f32, ulong)
{
	size_t i = get_global_id(0);
	long a = A[i];
	ulong u = B[i];

	O(0) = F(convert_float_rte(a));
	O(1) = F(convert_float_rtz(a));
	O(2) = F(convert_float_rtp(a));
	O(3) = F(convert_float_rtn(a));
	O(4) = F(convert_float(u));
	O(5) = F(convert_float_rtz(u));
}
