// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bytes, shorts and halves in vectors: what clang makes of them for
 * gfx900 is SDWA byte and word selection and packed 16-bit (VOP3P)
 * arithmetic.
 */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void packed(global const uchar4 *in, global uchar4 *out,
		   global short2 *s, global const half2 *h, global half2 *ho,
		   uint n)
{
	size_t i = get_global_id(0);
	uchar4 v;
	short2 t;

	if (i >= n)
		return;
	v = in[i];
	t = s[i];
	out[i] = (uchar4)(v.x + v.y, v.y * 3, v.z ^ v.w, max(v.w, v.x));
	s[i] = (short2)(t.x * t.y, t.y - 7);
	/* contracted: one fused multiply-add per half */
	ho[i] = h[i] * (half2)(2.0h, -1.5h) + h[i];
}
