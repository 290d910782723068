// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Private segments as large as the code object asks (issue 28): a
 * private array of 4.7 KiB a work-item, indexed by data; a recursive
 * function (clang gives the kernel a 16 KiB dynamic stack) whose frames
 * hold arrays, so its stack grows through the wave-scaled stack pointer.
 */
kernel void priv_big(global const uint *in, global uint *out)
{
	uint i = get_global_id(0), a[1200];

	for (uint k = 0; k < 1200; k++)
		a[k] = in[i] * k + (i ^ k);
	for (uint k = 0; k < 1199; k++)
		a[(k * 13 + in[i]) % 1200] += a[k];
	out[i] = a[in[i] % 1200] + a[(i * 7) % 1200];
}

__attribute__((noinline)) uint rec(uint v, uint depth)
{
	uint f[8];

	for (uint k = 0; k < 8; k++)
		f[k] = v * (k + 1) + depth;
	if (depth == 0)
		return f[v & 7];
	f[(v >> 5) & 7] += rec(f[(v >> 3) & 7], depth - 1);
	return f[v & 7] ^ rec(v * 5 + 1, depth - 1);
}

kernel void recurse(global const uint *in, global uint *out)
{
	uint i = get_global_id(0);

	out[i] = rec(in[i], in[i] % 7);
}
