/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The differential kernels' common signature (tests/gcn/diff_*.cl, run by
 * tests/unit/test-gcn-diff.c): three input arrays, NO 64-bit result slots
 * per work-item, an auxiliary buffer (atomics' targets), the item count.
 */
#define KERN(name, T) \
	kernel void name(global const T *A, global const T *B, \
			 global const T *C, global ulong *out, \
			 global uint *aux, uint n)
#define O(j) out[i * NO + (j)]
#define F(x) ((ulong)as_uint((float)(x)))
#define U(x) ((ulong)(uint)(x))
