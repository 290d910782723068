// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A minimal gfx900 kernel for t-hsa-codeobj: real GCN machine code that
 * ROCr loads like any other code object (built by clang/lld, no device
 * libraries), and the device's GCN interpreter runs (docs/isa.md).
 */
__kernel void hsagpu_store42(__global int *p)
{
	p[__builtin_amdgcn_workitem_id_x()] = 42;
}
