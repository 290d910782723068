// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Dynamic local memory (issue 28): a local pointer argument is an LDS
 * offset past the kernel's static LDS, and the dispatch packet's
 * group_segment_size (static + dynamic) is what sizes the LDS.
 */
kernel void dyn_lds(global const uint *in, global uint *out, local uint *t)
{
	local uint s[64];
	uint l = get_local_id(0), g = get_global_id(0);

	s[l % 64] = (l % 64) * 3;
	t[l] = in[g];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[g] = t[get_local_size(0) - 1 - l] + s[(l + 1) % 64];
}
