/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Differential test: fp16 (cl_khr_fp16) (tests/unit/test-gcn-diff.c) */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#include "diff.h"
#define H(x) ((ulong)as_ushort((half)(x)))

#define NO 8
/* +, -, *, fma are correctly rounded in fp16 (cl_khr_fp16's table) */
KERN(f16_arith, ushort)
{
	size_t i = get_global_id(0);
	half a = as_half(A[i]), b = as_half(B[i]), c = as_half(C[i]);

	O(0) = H(a + b);
	O(1) = H(a - b);
	O(2) = H(a * b);
	O(3) = H(fma(a, b, c));
	O(4) = H(fmin(a, b));
	O(5) = H(fmax(a, b));
	O(6) = H(fabs(a) + -c);
	O(7) = U((a < b) | (a == b) << 1 | isnan(a) << 2 | isinf(b) << 3 |
		 (a >= c) << 4);
}

KERN(f16_convert, ushort)
{
	size_t i = get_global_id(0);
	half a = as_half(A[i]);
	float f = as_float((uint)B[i] << 16 | C[i]);

	O(0) = F((float)a);
	O(1) = H(convert_half_rte(f));
	O(2) = H(convert_half_rtz(f));
	O(3) = H(convert_half_rtp(f));
	O(4) = H(convert_half_rtn(f));
	O(5) = U(convert_int_sat_rtz(a));
	O(6) = U(convert_short_sat_rte(a));
	O(7) = H(convert_half((int)(short)B[i]));
}

/* half2: packed math */
KERN(f16_half2, uint)
{
	size_t i = get_global_id(0);
	half2 a = as_half2(A[i]), b = as_half2(B[i]), c = as_half2(C[i]);

	O(0) = U(as_uint(a + b));
	O(1) = U(as_uint(a * b));
	O(2) = U(as_uint(fma(a, b, c)));
	O(3) = U(as_uint(a - c));
	O(4) = U(as_uint(fmax(a, b)));
	O(5) = U(as_uint(a.yx * (half)2.0h));
	O(6) = U(as_uint(convert_half2(convert_float2(a) * 0.5f)));
	O(7) = U(as_uint(-a));
}
