// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Minimal gfx900 kernels for the ROCm guest tests: real GCN machine code
 * that ROCr loads like any other code object (built by clang/lld, no
 * device libraries), and the device's GCN interpreter runs (docs/isa.md).
 */

/* t-hsa-codeobj: each work-item of the first wave stores 42 */
__kernel void hsagpu_store42(__global int *p)
{
	p[__builtin_amdgcn_workitem_id_x()] = 42;
}

/*
 * t-hsa-evict: each work-item adds 1 to its word @iters times, a load
 * and a store each (volatile: not folded into one add). Not idempotent:
 * a dispatch that ran again from its start after a preemption, instead
 * of going on, leaves more than @iters.
 */
__kernel void hsagpu_count(__global volatile uint *p, uint iters)
{
	uint i = __builtin_amdgcn_workgroup_id_x() * 64 +
		 __builtin_amdgcn_workitem_id_x();

	for (uint n = 0; n < iters; n++)
		p[i] = p[i] + 1;
}
