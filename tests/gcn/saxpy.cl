// SPDX-License-Identifier: GPL-2.0-or-later
/* y = a x + y for the first n items: a branch around the tail */
kernel void saxpy(float a, global const float *x, global float *y, uint n)
{
	size_t i = get_global_id(0);

	if (i < n)
		y[i] = a * x[i] + y[i];
}
