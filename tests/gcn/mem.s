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
// P22 FLAT/GLOBAL loads: bytes and shorts zero- and sign-extended,
// dwordx2-4, the d16 halves (the other half kept); v[2:3] the lane's
// address, GLOBAL's also s[10:11] + v4 and negative offsets
flat_load_ubyte v10, v[2:3] offset:1
flat_load_sbyte v11, v[2:3] offset:3
global_load_sbyte v12, v4, s[10:11] offset:-1
flat_load_sshort v13, v[2:3] offset:2
global_load_sshort v14, v[2:3], off offset:-2
global_load_ubyte v15, v[2:3], off offset:-3
flat_load_dwordx2 v[16:17], v[2:3]
global_load_dwordx3 v[18:20], v4, s[10:11] offset:4
flat_load_dwordx4 v[21:24], v[2:3]
flat_load_ubyte_d16 v25, v[2:3] offset:5
flat_load_ubyte_d16_hi v26, v[2:3] offset:6
global_load_sbyte_d16_hi v27, v4, s[10:11] offset:7
flat_load_short_d16 v28, v[2:3] offset:2
global_load_dwordx4 v[30:33], v4, s[10:11] offset:-16
s_endpgm
// P23 FLAT/GLOBAL stores into the lane's 48-byte slot: v[2:3], and
// s[10:11] + v4 the same address
flat_store_byte v[2:3], v10
flat_store_byte_d16_hi v[2:3], v10 offset:1
global_store_byte v4, v11, s[10:11] offset:2
global_store_byte_d16_hi v[2:3], v11, off offset:3
flat_store_short v[2:3], v12 offset:4
global_store_short v4, v13, s[10:11] offset:6
flat_store_dwordx2 v[2:3], v[14:15] offset:8
global_store_dwordx3 v4, v[16:18], s[10:11] offset:16
flat_store_dwordx4 v[2:3], v[19:22] offset:28
global_store_dwordx4 v[2:3], v[23:26], off offset:-16
s_endpgm
// P24 FLAT/GLOBAL 32-bit atomics, one word per lane and instruction:
// with glc (old value) at v[2:3], without at s[10:11] + v4; data v10,
// cmpswap's compare v11
flat_atomic_swap v12, v[2:3], v10 glc
flat_atomic_cmpswap v13, v[2:3], v[10:11] offset:256 glc
flat_atomic_sub v14, v[2:3], v10 offset:512 glc
flat_atomic_smin v15, v[2:3], v10 offset:768 glc
flat_atomic_umin v16, v[2:3], v10 offset:1024 glc
flat_atomic_smax v17, v[2:3], v10 offset:1280 glc
flat_atomic_and v18, v[2:3], v10 offset:1536 glc
flat_atomic_or v19, v[2:3], v10 offset:1792 glc
flat_atomic_xor v20, v[2:3], v10 offset:2048 glc
flat_atomic_inc v21, v[2:3], v10 offset:2304 glc
flat_atomic_dec v22, v[2:3], v10 offset:2560 glc
global_atomic_swap v4, v10, s[10:11]
global_atomic_cmpswap v4, v[10:11], s[10:11] offset:256
global_atomic_sub v4, v10, s[10:11] offset:512
global_atomic_smin v4, v10, s[10:11] offset:768
global_atomic_umin v4, v10, s[10:11] offset:1024
global_atomic_smax v4, v10, s[10:11] offset:1280
global_atomic_and v4, v10, s[10:11] offset:1536
global_atomic_or v4, v10, s[10:11] offset:1792
global_atomic_xor v4, v10, s[10:11] offset:2048
global_atomic_inc v4, v10, s[10:11] offset:2304
global_atomic_dec v4, v10, s[10:11] offset:2560
s_endpgm
// P25 FLAT/GLOBAL 64-bit atomics, a qword per lane and instruction: with
// glc at v[2:3] and v[6:7] (its + 4096), without at s[10:11] + v4 (s the
// region + 4096); data v[10:11], cmpswap's compare v[12:13]
flat_atomic_swap_x2 v[14:15], v[2:3], v[10:11] glc
flat_atomic_cmpswap_x2 v[16:17], v[2:3], v[10:13] offset:512 glc
flat_atomic_add_x2 v[18:19], v[2:3], v[10:11] offset:1024 glc
flat_atomic_sub_x2 v[20:21], v[2:3], v[10:11] offset:1536 glc
flat_atomic_smin_x2 v[22:23], v[2:3], v[10:11] offset:2048 glc
flat_atomic_umin_x2 v[24:25], v[2:3], v[10:11] offset:2560 glc
flat_atomic_smax_x2 v[26:27], v[2:3], v[10:11] offset:3072 glc
flat_atomic_umax_x2 v[28:29], v[2:3], v[10:11] offset:3584 glc
flat_atomic_and_x2 v[30:31], v[6:7], v[10:11] glc
flat_atomic_or_x2 v[32:33], v[6:7], v[10:11] offset:512 glc
flat_atomic_xor_x2 v[34:35], v[6:7], v[10:11] offset:1024 glc
flat_atomic_inc_x2 v[36:37], v[6:7], v[10:11] offset:1536 glc
flat_atomic_dec_x2 v[38:39], v[6:7], v[10:11] offset:2048 glc
global_atomic_swap_x2 v4, v[10:11], s[10:11] offset:-4096
global_atomic_cmpswap_x2 v4, v[10:13], s[10:11] offset:-3584
global_atomic_add_x2 v4, v[10:11], s[10:11] offset:-3072
global_atomic_sub_x2 v4, v[10:11], s[10:11] offset:-2560
global_atomic_smin_x2 v4, v[10:11], s[10:11] offset:-2048
global_atomic_umin_x2 v4, v[10:11], s[10:11] offset:-1536
global_atomic_smax_x2 v4, v[10:11], s[10:11] offset:-1024
global_atomic_umax_x2 v4, v[10:11], s[10:11] offset:-512
global_atomic_and_x2 v4, v[10:11], s[10:11]
global_atomic_or_x2 v4, v[10:11], s[10:11] offset:512
global_atomic_xor_x2 v4, v[10:11], s[10:11] offset:1024
global_atomic_inc_x2 v4, v[10:11], s[10:11] offset:1536
global_atomic_dec_x2 v4, v[10:11], s[10:11] offset:2048
s_endpgm
// P26 atomics of every lane on one address (v[2:3]; the V# s[8:11]
// there too, no offen): the lanes' order is not defined, so the test
// checks the total and that the old values chain
flat_atomic_sub v12, v[2:3], v10 glc
flat_atomic_inc v13, v[2:3], v17 offset:8 glc
flat_atomic_dec v14, v[2:3], v17 offset:16 glc
flat_atomic_swap v15, v[2:3], v10 offset:24 glc
flat_atomic_cmpswap v16, v[2:3], v[10:11] offset:32 glc
global_atomic_or v18, v[2:3], v19, off offset:40 glc
flat_atomic_xor v[2:3], v19 offset:48
flat_atomic_smin v[2:3], v20 offset:56
flat_atomic_add_x2 v[22:23], v[2:3], v[24:25] offset:64 glc
flat_atomic_sub_x2 v[26:27], v[2:3], v[24:25] offset:72 glc
flat_atomic_umin_x2 v[2:3], v[24:25] offset:80
flat_atomic_inc_x2 v[28:29], v[2:3], v[30:31] offset:88 glc
buffer_atomic_sub v32, off, s[8:11], 0 offset:96 glc
buffer_atomic_add_x2 v[34:35], off, s[8:11], 0 offset:104 glc
buffer_atomic_cmpswap_x2 v[36:39], off, s[8:11], 0 offset:112 glc
buffer_atomic_dec_x2 v[40:41], off, s[8:11], 0 offset:120 glc
buffer_atomic_xor_x2 v[42:43], off, s[8:11], 0 offset:128
buffer_atomic_umax_x2 v[44:45], off, s[8:11], 0 offset:136
buffer_atomic_and v46, off, s[8:11], 0 offset:144
buffer_atomic_or_x2 v[48:49], off, s[8:11], 0 offset:152
s_endpgm
// P27 buffer 32-bit atomics, a word per lane (offen v1) and instruction
// (soffset s20-s41, outside the range check), num_records cutting some
// lanes off: with glc v12-v22 (data, then the old value), without
// v23-v33
buffer_atomic_swap v12, v1, s[8:11], s20 offen glc
buffer_atomic_sub v13, v1, s[8:11], s21 offen glc
buffer_atomic_smin v14, v1, s[8:11], s22 offen glc
buffer_atomic_umin v15, v1, s[8:11], s23 offen glc
buffer_atomic_smax v16, v1, s[8:11], s24 offen glc
buffer_atomic_umax v17, v1, s[8:11], s25 offen glc
buffer_atomic_and v18, v1, s[8:11], s26 offen glc
buffer_atomic_or v19, v1, s[8:11], s27 offen glc
buffer_atomic_xor v20, v1, s[8:11], s28 offen glc
buffer_atomic_inc v21, v1, s[8:11], s29 offen glc
buffer_atomic_dec v22, v1, s[8:11], s30 offen glc
buffer_atomic_swap v23, v1, s[8:11], s31 offen
buffer_atomic_sub v24, v1, s[8:11], s32 offen
buffer_atomic_smin v25, v1, s[8:11], s33 offen
buffer_atomic_umin v26, v1, s[8:11], s34 offen
buffer_atomic_smax v27, v1, s[8:11], s35 offen
buffer_atomic_umax v28, v1, s[8:11], s36 offen
buffer_atomic_and v29, v1, s[8:11], s37 offen
buffer_atomic_or v30, v1, s[8:11], s38 offen
buffer_atomic_xor v31, v1, s[8:11], s39 offen
buffer_atomic_inc v32, v1, s[8:11], s40 offen
buffer_atomic_dec v33, v1, s[8:11], s41 offen
s_endpgm
// P28 buffer 64-bit atomics, the same way: with glc from v12, without
// from v38 (cmpswap_x2 four registers), soffset s20-s43
buffer_atomic_swap_x2 v[12:13], v1, s[8:11], s20 offen glc
buffer_atomic_cmpswap_x2 v[14:17], v1, s[8:11], s21 offen glc
buffer_atomic_add_x2 v[18:19], v1, s[8:11], s22 offen glc
buffer_atomic_sub_x2 v[20:21], v1, s[8:11], s23 offen glc
buffer_atomic_smin_x2 v[22:23], v1, s[8:11], s24 offen glc
buffer_atomic_umin_x2 v[24:25], v1, s[8:11], s25 offen glc
buffer_atomic_umax_x2 v[26:27], v1, s[8:11], s26 offen glc
buffer_atomic_and_x2 v[28:29], v1, s[8:11], s27 offen glc
buffer_atomic_or_x2 v[30:31], v1, s[8:11], s28 offen glc
buffer_atomic_xor_x2 v[32:33], v1, s[8:11], s29 offen glc
buffer_atomic_inc_x2 v[34:35], v1, s[8:11], s30 offen glc
buffer_atomic_dec_x2 v[36:37], v1, s[8:11], s31 offen glc
buffer_atomic_swap_x2 v[38:39], v1, s[8:11], s32 offen
buffer_atomic_cmpswap_x2 v[40:43], v1, s[8:11], s33 offen
buffer_atomic_add_x2 v[44:45], v1, s[8:11], s34 offen
buffer_atomic_sub_x2 v[46:47], v1, s[8:11], s35 offen
buffer_atomic_smin_x2 v[48:49], v1, s[8:11], s36 offen
buffer_atomic_umin_x2 v[50:51], v1, s[8:11], s37 offen
buffer_atomic_umax_x2 v[52:53], v1, s[8:11], s38 offen
buffer_atomic_and_x2 v[54:55], v1, s[8:11], s39 offen
buffer_atomic_or_x2 v[56:57], v1, s[8:11], s40 offen
buffer_atomic_xor_x2 v[58:59], v1, s[8:11], s41 offen
buffer_atomic_inc_x2 v[60:61], v1, s[8:11], s42 offen
buffer_atomic_dec_x2 v[62:63], v1, s[8:11], s43 offen
s_endpgm
// P29 raw buffer loads and stores of each width against num_records
// (100 and 115): v1 4 l, v5 3 l, v6 2 l, v7 12 l, v8 16 l; loads from
// s[8:11] (s16 a soffset), stores through s[12:15] into regions s20-s24
// apart
buffer_load_ubyte v10, v5, s[8:11], 0 offen
buffer_load_sbyte v11, v5, s[8:11], 0 offen offset:1
buffer_load_ushort v12, v6, s[8:11], s16 offen offset:1
buffer_load_dwordx2 v[13:14], v1, s[8:11], 0 offen offset:4
buffer_load_dwordx3 v[15:17], v1, s[8:11], 0 offen
buffer_load_ubyte_d16 v18, v5, s[8:11], 0 offen offset:2
buffer_load_sbyte_d16_hi v19, v5, s[8:11], 0 offen
buffer_load_short_d16_hi v20, v6, s[8:11], 0 offen
buffer_store_byte v21, v5, s[12:15], s20 offen
buffer_store_byte_d16_hi v21, v5, s[12:15], s21 offen offset:1
buffer_store_short v22, v6, s[12:15], s22 offen offset:1
buffer_store_dwordx3 v[23:25], v7, s[12:15], s23 offen
buffer_store_dwordx4 v[26:29], v8, s[12:15], s24 offen offset:4
s_endpgm
// P30 typed buffers: the V#'s formats (buffer_*_format) and MTBUF's,
// raw (offen, num_records in bytes) and structured (idxen, records)
buffer_load_format_x v10, v1, s[8:11], 0 offen offset:1
buffer_load_format_xy v[11:12], v1, s[12:15], 0 offen
buffer_load_format_xyz v[13:15], v1, s[16:19], 0 offen
tbuffer_load_format_xyz v[16:18], v0, s[20:23], dfmt:13, nfmt:7, 0 idxen
tbuffer_load_format_xyzw v[19:22], v0, s[24:27], dfmt:12, nfmt:7, 0 idxen
tbuffer_load_format_xyzw v[23:26], v1, s[8:11], dfmt:10, nfmt:2, 0 offen
tbuffer_load_format_xyzw v[27:30], v1, s[8:11], dfmt:12, nfmt:1, 0 offen offset:2
buffer_store_format_x v31, v1, s[28:31], s40 offen
buffer_store_format_xy v[32:33], v1, s[32:35], s41 offen
buffer_store_format_xyz v[34:36], v7, s[36:39], s42 offen
buffer_store_format_xyzw v[37:40], v1, s[44:47], s43 offen
tbuffer_store_format_xy v[41:42], v1, s[48:51], dfmt:5, nfmt:0, s52 offen
tbuffer_store_format_xyz v[43:45], v7, s[48:51], dfmt:13, nfmt:4, s53 offen
tbuffer_store_format_xyzw v[46:49], v1, s[48:51], dfmt:10, nfmt:1, s54 offen
tbuffer_store_format_xy v[50:51], v0, s[56:59], dfmt:11, nfmt:5, s55 idxen
tbuffer_store_format_xyzw v[52:55], v8, s[48:51], dfmt:12, nfmt:7, s60 offen
s_endpgm
// P31 s_sendmsghalt: the interrupt with M0, then the wave stops
s_mov_b32 m0, 0x33
s_sendmsghalt sendmsg(MSG_INTERRUPT)
s_mov_b32 s0, 1
s_endpgm
// P32 global wave sync: a barrier on resource 1 (M0 base 0 + offset 1),
// bar_val in v2
s_mov_b32 m0, 0
ds_gws_barrier v2 offset:1 gds
s_waitcnt lgkmcnt(0)
s_mov_b32 s0, 1
s_endpgm
// P33 a semaphore on resource 3 (M0 base 2 + offset 1): init to v2,
// V, bulk release of v2, P, release all
s_mov_b32 m0, 0x20000
ds_gws_init v2 offset:1 gds
ds_gws_sema_v offset:1 gds
ds_gws_sema_br v2 offset:1 gds
ds_gws_sema_p offset:1 gds
ds_gws_sema_release_all offset:1 gds
s_endpgm
// P34 P on resource 3: waits while its count is 0
s_mov_b32 m0, 0x20000
ds_gws_sema_p offset:1 gds
s_mov_b32 s0, 1
s_endpgm
// P35 scalar stores at a 64-bit base (s[10:11]), and the buffer forms
// through the V# in s[20:23] (num_records 24: an x8 load from 4 reads 0
// past it, an x4 store at 16 is dropped past it)
s_store_dword s4, s[10:11], 0x0
s_store_dwordx2 s[4:5], s[10:11], 0x8
s_store_dwordx4 s[4:7], s[10:11], s12
s_buffer_load_dwordx8 s[24:31], s[20:23], 0x4
s_buffer_store_dwordx4 s[4:7], s[20:23], 0x10
s_buffer_load_dword s32, s[20:23], s13
s_buffer_load_dwordx2 s[34:35], s[20:23], 0x0
s_buffer_load_dwordx4 s[36:39], s[20:23], 0x14
s_buffer_load_dwordx16 s[40:55], s[20:23], 0x0
s_buffer_store_dword s8, s[20:23], 0x0
s_buffer_store_dwordx2 s[8:9], s[20:23], 0x14
s_dcache_wb
s_waitcnt lgkmcnt(0)
s_endpgm
// P36 code that rewrites itself: s12 (another instruction) stored over
// the s_mov_b32 s20, 1 at 16 bytes in (its address in s[10:11]), then run
// without s_icache_inv: the instruction cache still holds the old one
s_store_dword s12, s[10:11], 0x0 glc
s_waitcnt lgkmcnt(0)
s_nop 0
s_mov_b32 s20, 1
s_endpgm
// P37 the same with s_icache_inv: the rewritten instruction runs
s_store_dword s12, s[10:11], 0x0 glc
s_waitcnt lgkmcnt(0)
s_icache_inv
s_mov_b32 s20, 1
s_endpgm
