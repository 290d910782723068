// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a work-item knows about itself on a 3-D grid whose edge
 * workgroups are partial: ids, sizes, counts (the dispatch packet's
 * fields through the dispatch pointer), written at its linear index.
 */
kernel void grid3d(global uint *out)
{
	size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
	size_t lin = (z * get_global_size(1) + y) * get_global_size(0) + x;
	global uint *o = out + lin * 8;

	o[0] = x | y << 10 | z << 20;
	o[1] = get_local_id(0) | get_local_id(1) << 10 | get_local_id(2) << 20;
	o[2] = get_group_id(0) | get_group_id(1) << 10 | get_group_id(2) << 20;
	o[3] = get_local_size(0) | get_local_size(1) << 10 |
	       get_local_size(2) << 20;
	o[4] = get_num_groups(0) | get_num_groups(1) << 10 |
	       get_num_groups(2) << 20;
	o[5] = get_enqueued_local_size(0) | get_enqueued_local_size(1) << 10 |
	       get_enqueued_local_size(2) << 20;
	o[6] = get_global_linear_id();
	o[7] = get_local_linear_id();
}
