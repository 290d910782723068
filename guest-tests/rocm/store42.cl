// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A minimal gfx900 kernel for t-hsa-codeobj: real GCN machine code that
 * ROCr loads like any other code object (built by clang/lld, no device
 * libraries). The hsa-gpu does not execute GCN code: dispatching it must
 * end in a queue error, and these stores must never happen.
 */
__kernel void hsagpu_store42(__global int *p)
{
	p[__builtin_amdgcn_workitem_id_x()] = 42;
}
