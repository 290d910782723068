// SPDX-License-Identifier: GPL-2.0-or-later
// Small programs for tests/unit/test-gcn-mem.c (issue 28: memory
// classes, cache control, time, messages), each ending with s_endpgm, in
// the order of its table: assembled at build time by Debian's llvm-mc
// for gfx900, and the encodings it prints are what the test runs.
// P0 clocks
s_memtime s[0:1]
s_memrealtime s[2:3]
s_waitcnt lgkmcnt(0)
s_memrealtime s[4:5]
s_memtime vcc
s_endpgm
// P1 cache control, waits and harmless SOPP
buffer_wbinvl1_vol
buffer_wbinvl1
s_dcache_inv
s_dcache_inv_vol
s_dcache_wb
s_dcache_wb_vol
s_icache_inv
s_waitcnt vmcnt(0) lgkmcnt(0)
s_ttracedata
s_setprio 2
s_sleep 1
s_nop 3
s_wakeup
s_incperflevel 1
s_decperflevel 1
v_nop
v_clrexcp
s_endpgm
// P2 MSG_INTERRUPT
s_mov_b32 m0, 0x2a
s_sendmsg sendmsg(MSG_INTERRUPT)
s_endpgm
// P3 a graphics message: refused
s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 0)
s_endpgm
// P4 hardware registers
s_getreg_b32 s0, hwreg(HW_REG_HW_ID)
s_getreg_b32 s1, hwreg(HW_REG_GPR_ALLOC)
s_getreg_b32 s2, hwreg(HW_REG_LDS_ALLOC)
s_getreg_b32 s3, hwreg(HW_REG_IB_STS)
s_getreg_b32 s4, hwreg(HW_REG_TRAPSTS)
s_getreg_b32 s5, hwreg(HW_REG_MODE)
s_getreg_b32 s6, hwreg(HW_REG_STATUS)
s_getreg_b32 s7, hwreg(HW_REG_GPR_ALLOC, 8, 6)
s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS), 0
s_endpgm
// P5 s_setreg of the fp32 denormal mode around a multiply (LLVM's fdiv)
s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
v_mul_f32 v2, v3, v4
s_mov_b32 s1, 0
s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s1
v_mul_f32 v5, v3, v4
s_getreg_b32 s0, hwreg(HW_REG_MODE, 4, 4)
s_endpgm
// P6 a rounding mode the FPU does not have: refused
s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 1
s_endpgm
// P7 llvm.debugtrap goes on, llvm.trap stops
s_trap 3
s_mov_b32 s0, 7
s_trap 2
s_endpgm
// P8 raw buffer loads: per-dword range checks, d16
buffer_load_dword v2, v1, s[8:11], 0 offen
buffer_load_dwordx4 v[4:7], v1, s[8:11], 0 offen offset:4
buffer_load_ubyte_d16_hi v8, v1, s[8:11], 0 offen
buffer_load_short_d16 v9, v1, s[8:11], 0 offen
buffer_load_sbyte_d16 v10, v1, s[8:11], 0 offen offset:3
buffer_load_sshort v11, v1, s[8:11], 0 offen offset:2
s_endpgm
// P9 raw buffer stores: soffset not range-checked, d16_hi
buffer_store_dword v0, v1, s[8:11], s12 offen
buffer_store_short_d16_hi v3, v1, s[16:19], 0 offen offset:1024
buffer_store_dwordx2 v[2:3], v1, s[8:11], 0 offen offset:92
s_endpgm
// P10 structured: idxen, stride, add_tid_enable, idxen + offen
buffer_load_dword v2, v0, s[8:11], 0 idxen offset:4
buffer_load_dword v3, off, s[12:15], 0 offset:8
buffer_load_dword v4, v[10:11], s[8:11], 0 idxen offen
s_endpgm
// P11 swizzled
buffer_load_dword v2, v0, s[16:19], 0 idxen offset:4
s_endpgm
// P12 buffer atomics
buffer_atomic_add v2, v1, s[8:11], 0 offen glc
buffer_atomic_cmpswap v[4:5], v1, s[8:11], 0 offen offset:256 glc
buffer_atomic_smax_x2 v[6:7], v1, s[8:11], 0 offen offset:512
s_endpgm
// P13 typed: MTBUF, buffer_*_format
tbuffer_load_format_xy v[2:3], v1, s[8:11], dfmt:5, nfmt:0, 0 offen
tbuffer_store_format_x v0, v0, s[8:11], dfmt:1, nfmt:4, 0 offen offset:1024
buffer_load_format_xyzw v[4:7], v1, s[12:15], 0 offen
s_endpgm
// P14 scratch, d16 in FLAT/GLOBAL, atomics in the apertures
scratch_store_dword v1, v0, off
scratch_load_dword v2, v1, off
scratch_store_short_d16_hi off, v3, s12 offset:2
scratch_load_ushort v4, off, s12 offset:2
flat_atomic_add v5, v[6:7], v0 glc
flat_load_dword v8, v[6:7]
global_load_short_d16_hi v9, v[12:13], off
flat_load_sbyte_d16 v10, v[12:13]
flat_atomic_umax v[14:15], v0
flat_load_dword v11, v[14:15]
s_endpgm
// P15 a V# elsewhere: the memory callbacks decide
buffer_load_dword v2, v0, s[8:11], 0 idxen
s_endpgm
// P16 a packed format (10_11_11): refused
tbuffer_load_format_x v8, v1, s[8:11], dfmt:6, nfmt:7, 0 offen
s_endpgm
// P17 across lanes: v_readlane with a constant, an SGPR and M0 as the
// lane (bits [5:0]: -1 and 64 are 63 and 0), v_writelane (EXEC ignored;
// one SGPR both value and lane: the constant bus),
// v_readfirstlane (the first lane EXEC has, lane 0 when it has none)
v_readlane_b32 s0, v2, 5
v_readlane_b32 s1, v2, s4
v_readlane_b32 s3, v2, -1
v_readlane_b32 s7, v2, m0
v_writelane_b32 v3, s5, s5
v_writelane_b32 v4, s5, 64
v_writelane_b32 v5, -7, s6
v_readfirstlane_b32 s2, v2
s_endpgm
// P18 branches (offsets in dwords from the next instruction): each
// s_mov_b32 s<n>, 1 runs only if the branch before it is not taken; a
// backward s_cbranch_scc1 loops s7 up to 5
s_branch 1
s_mov_b32 s0, 1
s_cmp_eq_u32 s10, 0
s_cbranch_scc0 1
s_mov_b32 s1, 1
s_cbranch_scc1 1
s_mov_b32 s2, 1
s_cbranch_vccz 1
s_mov_b32 s3, 1
s_cbranch_vccnz 1
s_mov_b32 s4, 1
s_cbranch_execz 1
s_mov_b32 s5, 1
s_cbranch_execnz 1
s_mov_b32 s6, 1
s_add_u32 s7, s7, 1
s_cmp_lt_u32 s7, 5
s_cbranch_scc1 -3
s_endpgm
// P19 a call and its return: s_swappc_b64 to s[4:5] (this program's
// +12), s_setpc_b64 back through the saved s[6:7]; s0 never set
s_swappc_b64 s[6:7], s[4:5]
s_mov_b32 s1, 3
s_branch 3
s_mov_b32 s2, 5
s_setpc_b64 s[6:7]
s_mov_b32 s0, 1
s_endpgm
// P20 wide SMEM loads: immediate and SGPR offsets, the address's low
// two bits ignored
s_load_dwordx4 s[16:19], s[10:11], 0x10
s_load_dwordx8 s[24:31], s[10:11], 0x24
s_load_dwordx16 s[32:47], s[10:11], s12
s_waitcnt lgkmcnt(0)
s_endpgm
// P21 LDS pair and wide writes: v1 = 4 l, v8 = 8 l, v9 = 16 l; the st64
// offsets in 256 (b32) and 512 (b64) bytes, the others in elements
ds_write2st64_b32 v1, v2, v3 offset0:1 offset1:3
ds_wrxchg2st64_rtn_b32 v[10:11], v1, v4, v5 offset1:2
ds_write2_b64 v9, v[12:13], v[14:15] offset1:1
ds_write2st64_b64 v8, v[16:17], v[18:19] offset1:1
ds_wrxchg2_rtn_b64 v[20:23], v9, v[14:15], v[12:13] offset0:1
ds_wrxchg2st64_rtn_b64 v[24:27], v8, v[18:19], v[16:17] offset1:1
ds_write_b96 v9, v[28:30] offset:4
ds_write_b128 v9, v[12:15] offset:512
s_endpgm
