/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Differential test: local memory (static and dynamic), private arrays,
 * atomics (global and local, 32 and 64 bit), barriers, work-group
 * reductions (tests/unit/test-gcn-diff.c). Workgroups of at most 256.
 */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#include "diff.h"

#define NO 4
KERN(mem_local_static, uint)
{
	local uint t[256];
	local ushort h[256];
	local uchar c[256];
	local ulong q[256];
	size_t i = get_global_id(0), l = get_local_id(0), s = get_local_size(0);

	t[l] = A[i];
	h[l] = (ushort)B[i];
	c[l] = (uchar)C[i];
	q[l] = (ulong)A[i] << 32 | B[i];
	barrier(CLK_LOCAL_MEM_FENCE);
	O(0) = U(t[(l * 5 + 3) % s] + t[s - 1 - l]);
	O(1) = U(h[(l + 1) % s] | (uint)(short)h[(l + 2) % s] << 16);
	O(2) = U((char)c[(l * 3) % s] + c[s - 1 - l]);
	O(3) = q[(l + 7) % s] ^ q[l / 2];
}

/* a static array and a dynamic one (__local argument) after it */
kernel void mem_local_dynamic(global const uint *A, global const uint *B,
			      global const uint *C, global ulong *out,
			      global uint *aux, uint n, local uint *dyn)
{
	local uint st[64];
	size_t i = get_global_id(0), l = get_local_id(0), s = get_local_size(0);

	dyn[l] = A[i] ^ B[i];
	dyn[s + l] = C[i];
	if (l < 64)
		st[l] = (uint)l * 3;
	barrier(CLK_LOCAL_MEM_FENCE);
	O(0) = U(dyn[s - 1 - l] + st[l % 64]);
	O(1) = U(dyn[s + (l + 1) % s]);
	O(2) = U(dyn[(l * 7) % s]);
	O(3) = U(s);
}

#undef NO
#define NO 4
KERN(mem_private, uint)
{
	size_t i = get_global_id(0);
	uint p[40];
	ushort h[24];
	uchar b[20];
	uint a = A[i], x = B[i], y = C[i];

	for (uint k = 0; k < 40; k++)
		p[k] = a * k + x;
	for (uint k = 0; k < 24; k++)
		h[k] = (ushort)(x >> (k % 16)) + k;
	for (uint k = 0; k < 20; k++)
		b[k] = (uchar)(y * k);
	p[a % 40] ^= y;
	h[x % 24] += (ushort)a;
	b[y % 20] = (uchar)(a >> 3);
	for (uint k = 0; k < 39; k++)
		p[(k * 11 + a) % 40] += p[k];
	O(0) = U(p[x % 40] + p[y % 40]);
	O(1) = U(h[a % 24] | (uint)h[y % 24] << 16);
	O(2) = U(b[x % 20] | b[a % 20] << 8 | b[(a + x) % 20] << 16);
	O(3) = U(p[(a ^ x) % 40]);
}

/* tree reduction in local memory, and OpenCL 2.0's work_group_* */
#undef NO
#define NO 6
KERN(mem_reduce, uint)
{
	local uint sum[256], mx[256];
	size_t i = get_global_id(0), l = get_local_id(0), s = get_local_size(0);

	sum[l] = A[i];
	mx[l] = B[i];
	for (uint k = 128; k; k >>= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (l < k && l + k < s) {
			sum[l] += sum[l + k];
			mx[l] = max(mx[l], mx[l + k]);
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	O(0) = U(sum[0]);
	O(1) = U(mx[0]);
	O(2) = U(work_group_reduce_add(A[i]));
	O(3) = U(work_group_reduce_min((int)B[i]));
	O(4) = U(work_group_scan_inclusive_add(C[i] & 0xffff));
	O(5) = U(work_group_broadcast(A[i], s - 1));
}

/* global 32-bit atomics on aux[0..15]; the old values out */
#undef NO
#define NO 4
KERN(mem_atomic32, uint)
{
	size_t i = get_global_id(0);
	volatile global uint *u = (volatile global uint *)aux;
	volatile global int *s = (volatile global int *)aux;
	uint a = A[i], b = B[i];
	uint old, want;

	O(0) = U(atomic_inc(&u[0]));
	atomic_add(&u[1], a);
	atomic_min(&s[2], (int)a);
	atomic_max(&s[3], (int)b);
	atomic_min(&u[4], b);
	atomic_max(&u[5], a);
	atomic_and(&u[6], a | (1u << (b % 32)));
	atomic_or(&u[7], a & b & C[i]);
	atomic_xor(&u[8], a);
	O(1) = U(atomic_xchg(&u[9], a));
	/* an add made of compare-and-swap */
	old = u[10];
	do {
		want = old + b;
		old = atomic_cmpxchg(&u[10], want - b, want);
	} while (old != want - b);
	O(2) = U(atomic_sub(&u[11], 3u));
	O(3) = U(atomic_dec(&u[12]));
}

/* global 64-bit atomics on aux[16..] as ulong */
KERN(mem_atomic64, ulong)
{
	size_t i = get_global_id(0);
	volatile global ulong *u = (volatile global ulong *)(aux + 32);
	volatile global long *s = (volatile global long *)(aux + 32);
	ulong a = A[i], b = B[i];
	ulong old, want;

	O(0) = atom_inc(&u[0]);
	atom_add(&u[1], a);
	atom_min(&s[2], (long)a);
	atom_max(&s[3], (long)b);
	atom_min(&u[4], b);
	atom_max(&u[5], a);
	atom_and(&u[6], a | (1ul << (b % 64)));
	atom_or(&u[7], a & b & C[i]);
	atom_xor(&u[8], a);
	O(1) = atom_xchg(&u[9], a);
	old = u[10];
	do {
		want = old + b;
		old = atom_cmpxchg(&u[10], want - b, want);
	} while (old != want - b);
	O(2) = 0;
	O(3) = 0;
}

/* local atomics: per-group results, then every item reads them */
#undef NO
#define NO 4
KERN(mem_atomic_local, uint)
{
	local uint r[8];
	local int si[2];
	size_t i = get_global_id(0), l = get_local_id(0);
	uint a = A[i], b = B[i];
	uint t;

	if (l == 0) {
		r[0] = 0; r[1] = 0; r[2] = ~0u; r[3] = 0; r[4] = ~0u;
		r[5] = 0; r[6] = 0; r[7] = 0;
		si[0] = INT_MAX; si[1] = INT_MIN;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	t = atomic_inc(&r[0]);
	atomic_add(&r[1], a);
	atomic_min(&r[2], b);
	atomic_max(&r[3], a);
	atomic_and(&r[4], a | b);
	atomic_or(&r[5], a & b);
	atomic_xor(&r[6], b);
	atomic_min(&si[0], (int)a);
	atomic_max(&si[1], (int)b);
	barrier(CLK_LOCAL_MEM_FENCE);
	O(0) = U(r[1] ^ r[6]) | (ulong)t << 32;
	O(1) = U(r[2]) | (ulong)r[3] << 32;
	O(2) = U(r[4]) | (ulong)r[5] << 32;
	O(3) = U(si[0]) | (ulong)(uint)si[1] << 32 ;
	(void)r[7];
}
