// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Waves of one workgroup that wait for each other through memory, with
 * no barrier between: a ping-pong of @rounds turns on a counter, wave 0
 * taking the even values and wave 1 the odd ones, each spinning until
 * its value comes. On the hardware the waves run interleaved, so this
 * ends; an interpreter that runs one wave until it blocks at a barrier
 * never does. handoff_global spins on global memory; handoff_lds on the
 * LDS, with s_sleep in the loop as spin loops written for AMD GPUs
 * have it.
 */
kernel void handoff_global(global atomic_uint *turn, global uint *out,
			   uint rounds)
{
	uint w = get_local_id(0) / 64, r;

	for (r = 0; r < rounds; r++) {
		uint want = 2 * r + w;

		while (atomic_load_explicit(turn, memory_order_acquire,
					    memory_scope_device) != want)
			;
		if (get_local_id(0) % 64 == 0)
			atomic_store_explicit(turn, want + 1,
					      memory_order_release,
					      memory_scope_device);
	}
	out[get_local_id(0)] = r;
}

kernel void handoff_lds(global uint *out, uint rounds)
{
	local atomic_uint turn;
	uint w = get_local_id(0) / 64;

	if (get_local_id(0) == 0)
		atomic_init(&turn, 0);
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint r = 0; r < rounds; r++) {
		uint want = 2 * r + w;

		while (atomic_load_explicit(&turn, memory_order_acquire,
					    memory_scope_work_group) != want)
			__builtin_amdgcn_s_sleep(1);
		if (get_local_id(0) % 64 == 0)
			atomic_store_explicit(&turn, want + 1,
					      memory_order_release,
					      memory_scope_work_group);
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_local_id(0)] = atomic_load_explicit(&turn,
						    memory_order_relaxed,
						    memory_scope_work_group);
}
