/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Differential test: built with -cl-fp32-correctly-rounded-divide-sqrt,
 * under which x / y and sqrt must be correctly rounded (OpenCL C 2.0,
 * 5.8.4.4 of the API spec; 7.4): compared bit for bit.
 */
#include "diff.h"

#define NO 4
KERN(f32_div_sqrt_cr, float)
{
	size_t i = get_global_id(0);
	float a = A[i], b = B[i];

	O(0) = F(a / b);
	O(1) = F(sqrt(a));
	O(2) = F(1.0f / b);
	O(3) = F(sqrt(fabs(b)));
}
