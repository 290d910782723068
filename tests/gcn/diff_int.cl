/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Differential test: integer operations (tests/unit/test-gcn-diff.c) */
#include "diff.h"

#define NO 8
KERN(i32_arith, uint)
{
	size_t i = get_global_id(0);
	uint a = A[i], b = B[i];
	int sa = a, sb = b;

	O(0) = U(a + b);
	O(1) = U(a - b);
	O(2) = U(sa * sb);
	O(3) = U(mul_hi(sa, sb));
	O(4) = U(mul_hi(a, b));
	O(5) = U(-sa);
	O(6) = U(~a ^ (b + 7));
	O(7) = U(a * 0x9e3779b9u + (b >> 3));
}

/* division by zero and INT_MIN / -1 are undefined: the divisor avoids them */
KERN(i32_div, uint)
{
	size_t i = get_global_id(0);
	uint a = A[i], b = B[i] ? B[i] : 1;
	int sa = a, sb = B[i] ? (int)B[i] : 1;

	if (sa == INT_MIN && sb == -1)
		sb = 1;
	O(0) = U(a / b);
	O(1) = U(a % b);
	O(2) = U(sa / sb);
	O(3) = U(sa % sb);
	O(4) = U(a / 7u);
	O(5) = U(sa / -13);
	O(6) = U(sa % 1000);
	O(7) = U(a % 0x10001u);
}

/* OpenCL: shift amounts are taken modulo the width (6.3.j) */
KERN(i32_shift, uint)
{
	size_t i = get_global_id(0);
	uint a = A[i], b = B[i];
	int sa = a;

	O(0) = U(a << b);
	O(1) = U(a >> b);
	O(2) = U(sa >> b);
	O(3) = U(rotate(a, b));
	O(4) = U(rotate(sa, (int)b));
	O(5) = U((a << (b & 7)) | (a >> (32 - (b & 7)) % 32));
	O(6) = U((uchar)a << (b & 15));
	O(7) = U((short)a >> (b & 15));
}

KERN(i32_bits, uint)
{
	size_t i = get_global_id(0);
	uint a = A[i], b = B[i], c = C[i];
	uint off = b & 31, w = c % 32 + 1;
	uint m = w == 32 ? ~0u : (1u << w) - 1;

	O(0) = U(popcount(a) | clz(b) << 8 | ctz(c) << 16 | clz(0u) << 24);
	O(1) = U((a >> off) & m);                       /* v_bfe_u32 */
	O(2) = U(((int)(a << (32 - w) % 32)) >> (32 - w) % 32);
	O(3) = U((a & ~(m << off)) | ((b & m) << off)); /* v_bfi_b32 */
	O(4) = U(bitselect(a, b, c));
	O(5) = U(popcount((int)a) + clz((int)b) + ctz((int)c));
	O(6) = U((a & 0xff00ff00u) >> 8 | (a & 0x00ff00ffu) << 8);
	O(7) = U(a & -a);
}

KERN(i32_minmax, uint)
{
	size_t i = get_global_id(0);
	uint a = A[i], b = B[i], c = C[i];
	int sa = a, sb = b, sc = c;

	O(0) = U(min(a, b) ^ max(a, c) << 1);
	O(1) = U(min(sa, sb));
	O(2) = U(max(sa, sc));
	O(3) = U(abs(sa));
	O(4) = U(abs_diff(sa, sb));
	O(5) = U(abs_diff(a, c));
	O(6) = U(clamp(sa, min(sb, sc), max(sb, sc)));
	O(7) = U(clamp(a, min(b, c), max(b, c)));
}

/* mul24/mad24: defined for operands in 24 bits (sign-extended for int) */
KERN(i32_mul24, uint)
{
	size_t i = get_global_id(0);
	int sa = (int)(A[i] << 8) >> 8, sb = (int)(B[i] << 8) >> 8;
	uint a = A[i] & 0xffffff, b = B[i] & 0xffffff, c = C[i];

	O(0) = U(mul24(sa, sb));
	O(1) = U(mad24(sa, sb, (int)c));
	O(2) = U(mul24(a, b));
	O(3) = U(mad24(a, b, c));
	O(4) = U(mad_hi(A[i], B[i], c));
	O(5) = U(mad_hi((int)A[i], (int)B[i], (int)c));
	O(6) = U(mad_sat((int)A[i], (int)B[i], (int)c));
	O(7) = U(mad_sat(A[i], B[i], c));
}

KERN(i32_sat, uint)
{
	size_t i = get_global_id(0);
	uint a = A[i], b = B[i];
	int sa = a, sb = b;

	O(0) = U(add_sat(sa, sb));
	O(1) = U(sub_sat(sa, sb));
	O(2) = U(add_sat(a, b));
	O(3) = U(sub_sat(a, b));
	O(4) = U(hadd(sa, sb));
	O(5) = U(rhadd(sa, sb));
	O(6) = U(hadd(a, b));
	O(7) = U(rhadd(a, b));
}

KERN(i32_convert, uint)
{
	size_t i = get_global_id(0);
	uint a = A[i];
	int sa = a;

	O(0) = U(convert_uchar_sat(sa) | convert_char_sat(sa) << 8);
	O(1) = U(convert_ushort_sat(sa) | (uint)convert_short_sat(sa) << 16);
	O(2) = U(convert_uint_sat(sa));
	O(3) = U(convert_int_sat(a));
	O(4) = U(convert_uchar_sat(a) | (uint)convert_ushort_sat(a) << 8);
	O(5) = U((char)a + (uchar)(a >> 8) * (short)(a >> 16));
	O(6) = U(upsample((ushort)a, (ushort)B[i]));
	O(7) = U(upsample((char)a, (uchar)B[i]));
}

/* uchar4 and short2: byte and half-word lanes (SDWA, packed math) */
KERN(i32_vec, uint)
{
	size_t i = get_global_id(0);
	uchar4 x = as_uchar4(A[i]), y = as_uchar4(B[i]);
	short2 s = as_short2(A[i]), t = as_short2(B[i]);
	ushort2 us = as_ushort2(C[i]);

	O(0) = U(as_uint(x + y));
	O(1) = U(as_uint(x * y));
	O(2) = U(as_uint(max(x, y)));
	O(3) = U(as_uint(add_sat(x, y)));
	O(4) = U(as_uint(s * t + (short2)(3, -5)));
	O(5) = U(as_uint(s >> (short2)(t.s1 & 15, t.s0 & 15)));
	O(6) = U(as_uint(sub_sat(s, t)));
	O(7) = U(as_uint(min(us, as_ushort2(A[i])) + x.s3));
}

#undef NO
#define NO 8
KERN(i64_arith, ulong)
{
	size_t i = get_global_id(0);
	ulong a = A[i], b = B[i];
	long sa = a, sb = b;

	O(0) = a + b;
	O(1) = a - b;
	O(2) = a * b;
	O(3) = mul_hi(sa, sb);
	O(4) = mul_hi(a, b);
	O(5) = (ulong)(sa * (long)(int)C[i]);
	O(6) = (ulong)(int)a * (ulong)(uint)b;
	O(7) = add_sat(sa, sb);
}

KERN(i64_div, ulong)
{
	size_t i = get_global_id(0);
	ulong a = A[i], b = B[i] ? B[i] : 1;
	long sa = a, sb = B[i] ? (long)B[i] : 1;

	if (sa == LONG_MIN && sb == -1)
		sb = 1;
	O(0) = a / b;
	O(1) = a % b;
	O(2) = sa / sb;
	O(3) = sa % sb;
	O(4) = a / 10;
	O(5) = sa / -7;
	O(6) = a % (b >> 32 ? b >> 32 : 3);
	O(7) = sa % 1000000007;
}

KERN(i64_bits, ulong)
{
	size_t i = get_global_id(0);
	ulong a = A[i], b = B[i], c = C[i];
	long sa = a, sb = b;

	O(0) = a << b;
	O(1) = a >> b;
	O(2) = sa >> b;
	O(3) = rotate(a, b);
	O(4) = popcount(a) | clz(b) << 8 | ctz(c) << 16;
	O(5) = min(sa, sb) ^ max(a, c);
	O(6) = abs(sa) + abs_diff(sa, sb);
	O(7) = sub_sat(sa, sb) ^ add_sat(a, c) ^ sub_sat(a, b);
}
