// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * C = A B for row-major M x K and K x N matrices, in 16 x 16 tiles staged
 * through LDS: a 2-D grid whose edge workgroups are partial when M or N
 * is not a multiple of 16 (and K need not be either). The work-items a
 * workgroup has fill the whole tiles between them, so a partial
 * workgroup still multiplies complete (zero-padded) tiles.
 */
#define TS 16

kernel void matmul(global const float *a, global const float *b,
		   global float *c, uint m, uint n, uint k)
{
	local float ta[TS][TS], tb[TS][TS];
	uint col = get_global_id(0), row = get_global_id(1);
	uint lx = get_local_id(0), ly = get_local_id(1);
	uint x0 = get_group_id(0) * TS, y0 = get_group_id(1) * TS;
	uint nl = get_local_size(0) * get_local_size(1);
	uint me = ly * get_local_size(0) + lx;
	float acc = 0.0f;

	for (uint t = 0; t < k; t += TS) {
		for (uint e = me; e < TS * TS; e += nl) {
			uint r = e / TS, q = e % TS;

			ta[r][q] = y0 + r < m && t + q < k ?
				   a[(y0 + r) * k + t + q] : 0.0f;
			tb[r][q] = t + r < k && x0 + q < n ?
				   b[(t + r) * n + x0 + q] : 0.0f;
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		for (uint i = 0; i < TS; i++)
			acc = fma(ta[ly][i], tb[i][lx], acc);
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (row < m && col < n)
		c[row * n + col] = acc;
}
