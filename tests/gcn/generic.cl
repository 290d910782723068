// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Generic pointers into local, private and global memory, passed to
 * functions that are not inlined: flat accesses through the shared and
 * private apertures (s_getreg of SH_MEM_BASES), calls and returns.
 */
__attribute__((noinline)) void add_to(int *p, int v)
{
	*p += v;
}

__attribute__((noinline)) int sum4(const int *p)
{
	return p[0] + p[1] + p[2] + p[3];
}

kernel void generic_ptrs(global const int *in, global int *out)
{
	local int l[256];
	int priv[16];
	size_t i = get_local_id(0), g = get_global_id(0);

	for (int k = 0; k < 16; k++)
		priv[k] = in[g] * k;
	l[i] = (int)i * 3;
	add_to(&priv[in[g] & 15], 100);
	add_to(&l[i], 7);
	barrier(CLK_LOCAL_MEM_FENCE);
	out[g] = 1;
	add_to(&out[g], sum4(&priv[in[g] & 12]) + sum4(&l[i & ~3u]));
}
