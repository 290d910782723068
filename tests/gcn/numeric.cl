// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Floating point beyond add and multiply: fp32 division and square root
 * (correctly rounded, as OpenCL 2.0 on gfx900 emits them), fp64
 * arithmetic, division and conversions, fp16 through conversions, and
 * integer/float conversions with their edge cases.
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
/* each operation rounded on its own, as the CPU reference does */
#pragma OPENCL FP_CONTRACT OFF

kernel void numeric(global const float *a, global const float *b,
		    global const double *da, global const double *db,
		    global float *of, global double *od, global int *oi)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i];
	double p = da[i], q = db[i];
	half h = (half)x;

	of[i * 4 + 0] = x / y;
	of[i * 4 + 1] = sqrt(fabs(x));
	of[i * 4 + 2] = (float)(h * (half)y);
	of[i * 4 + 3] = floor(x) + trunc(y) + fmin(x, y);
	od[i * 4 + 0] = p * q + p;
	od[i * 4 + 1] = p / q;
	od[i * 4 + 2] = (double)x * (double)y - (double)(x * y);
	od[i * 4 + 3] = fmax(p, q) - fmin(p, q);
	oi[i * 4 + 0] = (int)p;
	oi[i * 4 + 1] = convert_int_sat(x * 1e6f);
	oi[i * 4 + 2] = (int)(long)(p * 1000.0);
	oi[i * 4 + 3] = p < q ? 1 : (p == q ? 2 : 3);
}
