// SPDX-License-Identifier: GPL-2.0-or-later
/* Memory-bound: a stream copy, 16 bytes per work-item (scripts/bench --gcn). */
kernel void bench_mem(global const float4 *in, global float4 *out)
{
	size_t i = get_global_id(0);

	out[i] = in[i];
}
