/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Differential test: control flow (tests/unit/test-gcn-diff.c) */
#include "diff.h"

#define NO 4
KERN(ctrl_loops, uint)
{
	size_t i = get_global_id(0);
	uint a = A[i], b = B[i], acc = 0, k;

	for (k = 0; k < (a & 63); k++) {
		if ((b >> (k & 31)) & 1)
			continue;
		acc = acc * 31 + k;
		if (acc % 97 == 5)
			break;
	}
	O(0) = U(acc);
	O(1) = U(k);
	k = 0;
	while (b > 1 && k < 200) {
		b = b & 1 ? 3 * b + 1 : b >> 1;
		k++;
	}
	O(2) = U(k);
	do {
		a = a * 1103515245u + 12345;
	} while ((a >> 20) & 7);
	O(3) = U(a);
}

KERN(ctrl_nested, uint)
{
	size_t i = get_global_id(0);
	uint a = A[i], b = B[i], c = C[i], r;
	int sa = a;

	if (sa < 0) {
		if (b & 1)
			r = a ^ b;
		else if (c > b)
			r = c - b;
		else
			r = b / (c | 1);
	} else {
		if ((a & 3) == 0) {
			r = a >> 3;
			if (r > 1000)
				r -= 1000;
		} else {
			r = c * 5;
		}
	}
	O(0) = U(r);
	switch (a % 11) {
	case 0: r = 1; break;
	case 1: r = b; break;
	case 2: r = c + 2; /* fall through */
	case 3: r = r * 3; break;
	case 5: r = b ^ c; break;
	case 7: r = ~a; break;
	case 8: case 9: r = a % 9; break;
	default: r = 42;
	}
	O(1) = U(r);
	O(2) = U(sa > 100 ? b : sa < -100 ? c : a);
	O(3) = U(select(b, c, (int)(a & 0x80000000u)) + (b < c ? 7 : 11));
}

/* some items stop early: their later slots keep what was there */
KERN(ctrl_early, uint)
{
	size_t i = get_global_id(0);
	uint a = A[i];

	O(0) = U(a + 1);
	if (a % 3 == 0)
		return;
	O(1) = U(a * 2);
	if (a % 5 == 1)
		return;
	for (uint k = 0; k < (a & 15); k++)
		if (k == (B[i] & 15))
			return;
	O(2) = U(a * 3);
	O(3) = U(B[i]);
}

__attribute__((noinline)) uint callee_mix(uint x, uint y)
{
	uint t[8];

	for (uint k = 0; k < 8; k++)
		t[k] = x * k ^ y;
	return t[y & 7] + t[x & 7];
}

__attribute__((noinline)) uint callee_outer(uint x, uint y, uint z)
{
	if (z & 1)
		return callee_mix(x, y) + z;
	return callee_mix(y, z) ^ x;
}

__attribute__((noinline)) ulong callee64(ulong x, uint s)
{
	return (x << (s & 63)) | (x >> ((64 - (s & 63)) & 63));
}

KERN(ctrl_calls, uint)
{
	size_t i = get_global_id(0);
	uint a = A[i], b = B[i], c = C[i];

	O(0) = U(callee_outer(a, b, c));
	O(1) = a & 2 ? U(callee_mix(c, a)) : U(a);
	O(2) = callee64((ulong)a << 32 | b, c);
	O(3) = U(callee_outer(c, c, a) + callee_mix(b, b));
}
