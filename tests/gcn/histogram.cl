// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A 64-bin histogram of bytes: each workgroup counts into LDS with local
 * atomics, then adds its counts to the global bins with global atomics
 * (atomic_add, and atomic_inc for the items it saw); atomic_max keeps the
 * largest byte (a global atomic PCIe has no AtomicOp for).
 */
#define BINS 64

kernel void histogram(global const uchar *in, uint n, global uint *bins,
		      global uint *seen, global uint *largest)
{
	local uint h[BINS];
	uint l = get_local_id(0), i = get_global_id(0);

	if (l < BINS)
		h[l] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	if (i < n) {
		atomic_add(&h[in[i] % BINS], 1);
		atomic_inc(seen);
		atomic_max(largest, in[i]);
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	if (l < BINS && h[l])
		atomic_add(&bins[l], h[l]);
}
