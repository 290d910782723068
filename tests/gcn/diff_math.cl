/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Differential test: fp32 built-in math (rocm-device-libs' ocml), each
 * compared with the host's libm in double within the bound of OpenCL C
 * 2.0's Table 7.1 (tests/unit/test-gcn-diff.c).
 */
#include "diff.h"

#define NO 2
KERN(fm_sincos, float)
{
	size_t i = get_global_id(0);

	O(0) = F(sin(A[i]));
	O(1) = F(cos(A[i]));
}

KERN(fm_exp, float)
{
	size_t i = get_global_id(0);

	O(0) = F(exp(A[i]));
	O(1) = F(exp2(B[i]));
}

KERN(fm_log, float)
{
	size_t i = get_global_id(0);

	O(0) = F(log(A[i]));
	O(1) = F(log2(B[i]));
}

KERN(fm_pow, float)
{
	size_t i = get_global_id(0);

	O(0) = F(pow(A[i], B[i]));
	O(1) = F(pow(fabs(A[i]), C[i]));
}

KERN(fm_atan2_hypot, float)
{
	size_t i = get_global_id(0);

	O(0) = F(atan2(A[i], B[i]));
	O(1) = F(hypot(A[i], B[i]));
}

KERN(fm_erf_cbrt, float)
{
	size_t i = get_global_id(0);

	O(0) = F(erf(A[i]));
	O(1) = F(cbrt(B[i]));
}

KERN(fm_fmod_remainder, float)
{
	size_t i = get_global_id(0);

	O(0) = F(fmod(A[i], B[i]));
	O(1) = F(remainder(A[i], B[i]));
}

#undef NO
#define NO 4
KERN(fm_div_sqrt, float)
{
	size_t i = get_global_id(0);

	O(0) = F(A[i] / B[i]);
	O(1) = F(sqrt(A[i]));
	O(2) = F(rsqrt(B[i]));
	O(3) = F(1.0f / A[i]);
}

/* native_*: the instructions themselves (v_sqrt, v_rcp, v_rsq, v_exp, v_log) */
#undef NO
#define NO 6
KERN(fm_native, float)
{
	size_t i = get_global_id(0);
	float a = A[i], b = B[i];

	O(0) = F(native_sqrt(a));
	O(1) = F(native_recip(b));
	O(2) = F(native_rsqrt(a));
	O(3) = F(native_exp2(C[i]));
	O(4) = F(native_log2(a));
	O(5) = F(native_divide(a, b));
}
