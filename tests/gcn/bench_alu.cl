// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ALU-bound: eight independent fp32 multiply-add chains per work-item,
 * @iters rounds, one store at the end (scripts/bench --gcn).
 */
kernel void bench_alu(global float *out, uint iters)
{
	uint i = get_global_id(0);
	float a = i, b = a + 1, c = a + 2, d = a + 3;
	float e = a + 4, f = a + 5, g = a + 6, h = a + 7;

	for (uint k = 0; k < iters; k++) {
		a = fma(a, 0.999f, 0.5f);
		b = fma(b, 0.998f, 0.25f);
		c = fma(c, 0.997f, 0.125f);
		d = fma(d, 0.996f, 1.0f);
		e = fma(e, 0.995f, 2.0f);
		f = fma(f, 0.994f, 0.75f);
		g = fma(g, 0.993f, 1.5f);
		h = fma(h, 0.992f, 3.0f);
	}
	out[i] = a + b + c + d + e + f + g + h;
}
