/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Differential test: fp64 (cl_khr_fp64) (tests/unit/test-gcn-diff.c) */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "diff.h"
#define D(x) as_ulong((double)(x))

#define NO 8
/* +, -, *, fma, / and sqrt are correctly rounded in fp64 (Table 7.2) */
KERN(f64_arith, double)
{
	size_t i = get_global_id(0);
	double a = A[i], b = B[i], c = C[i];

	O(0) = D(a + b);
	O(1) = D(a - b);
	O(2) = D(a * b);
	O(3) = D(fma(a, b, c));
	O(4) = D(a / b);
	O(5) = D(sqrt(a));
	O(6) = D(fmin(a, b));
	O(7) = D(fmax(a, c));
}

KERN(f64_round, double)
{
	size_t i = get_global_id(0);
	double a = A[i], ip;
	int e;

	O(0) = D(floor(a));
	O(1) = D(ceil(a));
	O(2) = D(rint(a));
	O(3) = D(trunc(a));
	O(4) = D(round(a));
	O(5) = D(fract(a, &ip));
	O(6) = D(frexp(a, &e));
	O(7) = D(ldexp(ip, e & 63) + copysign(fabs(a), B[i]));
}

KERN(f64_convert, double)
{
	size_t i = get_global_id(0);
	double a = A[i];
	long l = as_long(B[i]);

	O(0) = F(convert_float_rte(a)) | (ulong)F(convert_float_rtz(a)) << 32;
	O(1) = F(convert_float_rtp(a)) | (ulong)F(convert_float_rtn(a)) << 32;
	O(2) = U(convert_int_sat_rte(a)) | (ulong)U(convert_int_sat_rtz(a)) << 32;
	O(3) = U(convert_int_sat_rtp(a)) | (ulong)U(convert_uint_sat_rtn(a)) << 32;
	O(4) = (ulong)convert_long_sat_rtz(a);
	O(5) = D(convert_double(l));
	O(6) = D(convert_double((int)l)) ^ D(convert_double((uint)(l >> 32)));
	O(7) = D((double)(float)a);
}

KERN(f64_compare, double)
{
	size_t i = get_global_id(0);
	double a = A[i], b = B[i];
	uint r = 0;

	r |= (a < b) << 0;
	r |= (a <= b) << 1;
	r |= (a == b) << 2;
	r |= (a != b) << 3;
	r |= isnan(a) << 4;
	r |= isinf(a) << 5;
	r |= isfinite(a) << 6;
	r |= isnormal(a) << 7;
	r |= signbit(a) << 8;
	r |= isunordered(a, b) << 9;
	O(0) = U(r);
	O(1) = D(a > b ? a - b : b);
	O(2) = U(ilogb(a));
	O(3) = D(fabs(a) * -2.0);
	O(4) = D(fmod(a, b));
	O(5) = D(remainder(a, b));
	O(6) = D(copysign(b, a));
	O(7) = D(a == 0.0 ? 1.0 : a);
}

#undef NO
#define NO 8
KERN(f64_math, double)
{
	size_t i = get_global_id(0);
	double a = A[i], b = B[i];

	O(0) = D(sin(a));
	O(1) = D(cos(a));
	O(2) = D(exp(b));
	O(3) = D(log(a));
	O(4) = D(pow(a, b));
	O(5) = D(atan2(a, b));
	O(6) = D(cbrt(a));
	O(7) = D(rsqrt(a));
}
