// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A private array indexed by values the compiler cannot know: it lives
 * in the private segment (scratch), reached with MUBUF through the
 * private segment buffer.
 */
kernel void private_array(global const uint *in, global uint *out)
{
	uint i = get_global_id(0), a[32];

	for (int k = 0; k < 32; k++)
		a[k] = in[i] * k + (i ^ k);
	for (int k = 0; k < 31; k++)
		a[(k * 7 + i) & 31] += a[k];
	out[i] = a[in[i] & 31] + a[(i * 3) & 31];
}
