// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Inclusive prefix sum in two dispatches: scan_block scans each
 * workgroup's items in LDS (Hillis-Steele, a barrier per step) and
 * writes the workgroup's total; scan_add adds the scanned totals of the
 * workgroups before it (the same scan_block run over the totals).
 */
kernel void scan_block(global const int *in, global int *out,
		       global int *sums, uint n)
{
	local int s[2][256];
	uint l = get_local_id(0), i = get_global_id(0), sz = get_local_size(0);
	uint p = 0;

	s[0][l] = i < n ? in[i] : 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint d = 1; d < sz; d <<= 1) {
		s[p ^ 1][l] = l >= d ? s[p][l] + s[p][l - d] : s[p][l];
		p ^= 1;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (i < n)
		out[i] = s[p][l];
	if (l == sz - 1)
		sums[get_group_id(0)] = s[p][l];
}

kernel void scan_add(global int *out, global const int *scanned, uint n)
{
	uint i = get_global_id(0), g = get_group_id(0);

	if (g > 0 && i < n)
		out[i] += scanned[g - 1];
}
