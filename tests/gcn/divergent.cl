// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Lanes that disagree: a data-dependent loop (Collatz steps, each lane
 * its own trip count), an if/else chain and a switch on the lane's
 * value, a loop exit from the middle, and integer division.
 */
kernel void divergent(global const uint *in, global uint *out)
{
	uint i = get_global_id(0), x = in[i], steps = 0, r;

	while (x != 1 && steps < 1000) {
		x = x & 1 ? 3 * x + 1 : x >> 1;
		steps++;
	}
	if (in[i] % 3 == 0)
		r = steps * 2;
	else if (in[i] % 3 == 1)
		r = steps + 100;
	else
		r = in[i] / 7 + in[i] % 7;
	switch (in[i] & 3) {
	case 0:
		r ^= 0x55;
		break;
	case 1:
		for (uint k = 0; k < in[i] % 13; k++) {
			if (r > 5000)
				break;
			r += k * k;
		}
		break;
	default:
		r = r * 3 - 1;
	}
	out[i] = r;
}
