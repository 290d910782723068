// SPDX-License-Identifier: GPL-2.0-or-later
/* Per workgroup sum of 256 items through LDS, with barriers. */
kernel void lds_sum(global const uint *in, global uint *out)
{
	local uint s[256];
	uint l = get_local_id(0);

	s[l] = in[get_global_id(0)];
	for (uint k = 128; k > 0; k >>= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (l < k)
			s[l] += s[l + k];
	}
	if (l == 0)
		out[get_group_id(0)] = s[0];
}
