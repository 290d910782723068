// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An aligned 8- or 16-byte access moves whole on the hardware: rocPRIM's
 * decoupled look-back publishes a block's value and its flag in one
 * dwordx2 or dwordx4, and reads them back in one. Two workgroups, one
 * work-item each doing the work: workgroup 0 stores (i, i, i, i) (with
 * @wide; else (i, i)) @rounds times, workgroup 1 loads it until it sees
 * the last, counting loads whose dwords differ (out[0]) and loads in all
 * (out[1]). The two start together: the writer waits until the reader
 * says it is there.
 */
kernel void tear(volatile global uint4 *cell, volatile global uint *go,
		 global uint *out, uint rounds, uint wide)
{
	volatile global uint2 *pair = (volatile global uint2 *)cell;
	uint torn = 0, seen = 0;
	uint4 v;

	if (get_local_id(0) != 0)
		return;
	if (get_group_id(0) == 0) {
		while (*go == 0)
			;
		for (uint i = 1; i <= rounds; i++) {
			if (wide)
				*cell = (uint4)(i, i, i, i);
			else
				*pair = (uint2)(i, i);
		}
		return;
	}
	*go = 1;
	do {
		if (wide) {
			v = *cell;
		} else {
			v.xy = *pair;
			v.zw = v.xy;
		}
		torn += v.x != v.y || v.y != v.z || v.z != v.w;
		seen++;
	} while (v.x != rounds || v.w != rounds);
	out[0] = torn;
	out[1] = seen;
}
