// SPDX-License-Identifier: GPL-2.0-or-later
// Seeds for the GCN interpreter fuzzer (tests/fuzz/fuzz-gcn.c), assembled
// by llvm-mc for gfx900 (scripts/build-fuzz-host); tests/fuzz/fuzz-seeds.c
// makes each label a seed (an s_endpgm is added at its end). The label's
// first word picks the kernel descriptor (fuzz-seeds.c, gs_template):
//   kern_  s[0:1] kernarg (qwords: seven data buffers, then 64), s2 the
//          workgroup id, v0/v1 the work-item ids, 32 VGPRs
//   lds_   the same with 4 KiB of LDS
//   priv_  s[0:3] private segment buffer, s[4:5] kernarg, s6 workgroup
//          id, s7 private wave offset, 256 private bytes a work-item
// "prologue" goes before each instruction of tests/gcn/insns.s (its
// sources v10, v12, v14 and s10, s12 get values) and is no seed itself.
// Branch offsets are plain numbers: a label starts the next seed.

prologue:
	v_mov_b32 v10, 0x40490fdb
	v_mov_b32 v11, 0xc0490fdb
	v_cvt_f32_u32 v12, v0
	v_mov_b32 v13, -7
	v_lshlrev_b32 v14, 3, v0
	v_mov_b32 v15, 0x7fc00000
	s_mov_b32 s10, 0x41200000
	s_mov_b32 s11, 0x80000001
	s_mov_b32 s12, -5
	s_mov_b32 s13, 0x7f800000

kern_mqsad:
	v_mov_b32 v16, 0x01020304
	v_mov_b32 v17, 0xfffefdfc
	v_mqsad_u32_u8 v[0:3], v[10:11], v12, v[14:17]

kern_global:
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	v_lshlrev_b32 v1, 2, v0
	global_load_dword v2, v1, s[4:5]
	s_waitcnt vmcnt(0)
	v_add_u32 v2, v2, v0
	global_store_dword v1, v2, s[6:7]
	global_load_dwordx2 v[4:5], v1, s[4:5] offset:8
	global_store_dwordx4 v1, v[2:5], s[6:7] offset:1024
	global_atomic_add v3, v1, v2, s[6:7] glc
	global_atomic_cmpswap v1, v[2:3], s[6:7]
	global_atomic_umax_x2 v1, v[4:5], s[6:7]
	global_load_ushort v6, v1, s[4:5] offset:-2
	global_store_short_d16_hi v1, v6, s[6:7]

kern_flat:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	v_lshlrev_b32 v1, 2, v0
	v_mov_b32 v3, s5
	v_add_co_u32 v2, vcc, s4, v1
	v_addc_co_u32 v3, vcc, 0, v3, vcc
	flat_load_dword v4, v[2:3]
	flat_store_dword v[2:3], v4 offset:64
	flat_load_ubyte v5, v[2:3] offset:3
	flat_load_sshort v6, v[2:3]
	flat_store_byte v[2:3], v6
	flat_atomic_swap v7, v[2:3], v4 glc
	flat_atomic_inc v[2:3], v4
	flat_load_dwordx3 v[8:10], v[2:3]
	flat_atomic_cmpswap_x2 v[12:13], v[2:3], v[8:11] glc

kern_smem:
	s_load_dwordx8 s[4:11], s[0:1], 0x0
	s_load_dword s12, s[0:1], 0x38
	s_waitcnt lgkmcnt(0)
	s_load_dwordx16 s[16:31], s[4:5], 0x40
	s_store_dword s12, s[6:7], 0x10
	s_buffer_load_dword s13, s[4:7], 0x4
	s_waitcnt lgkmcnt(0)
	s_memtime s[32:33]
	s_dcache_wb
	s_getpc_b64 s[34:35]
	s_add_u32 s34, s34, 8
	s_addc_u32 s35, s35, 0
	s_setpc_b64 s[34:35]
	s_trap 2
	s_nop 0

kern_mubuf:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s6, 4096
	s_mov_b32 s7, 0x27000
	v_lshlrev_b32 v1, 2, v0
	buffer_load_dword v2, v1, s[4:7], 0 offen
	buffer_store_dword v2, v1, s[4:7], 0 offen offset:256
	buffer_atomic_add v2, v1, s[4:7], 0 offen
	buffer_load_dwordx2 v[4:5], v0, s[4:7], 0 idxen
	buffer_load_format_x v6, off, s[4:7], 0

kern_branch:
	s_mov_b32 s4, 10
	s_sub_u32 s4, s4, 1
	s_cmp_lg_u32 s4, 0
	s_cbranch_scc1 65533
	v_cmp_gt_u32 vcc, 32, v0
	s_and_saveexec_b64 s[6:7], vcc
	s_cbranch_execz 1
	v_mov_b32 v1, 1
	s_or_b64 exec, exec, s[6:7]
	s_cbranch_vccnz 1
	s_nop 0
	s_setprio 1
	s_sleep 1
	s_waitcnt 0
	s_barrier
	s_getreg_b32 s8, hwreg(HW_REG_SH_MEM_BASES)
	s_getreg_b32 s9, hwreg(HW_REG_MODE)
	s_setreg_b32 hwreg(HW_REG_MODE), s9

kern_lanes:
	v_readlane_b32 s4, v0, 63
	v_readfirstlane_b32 s5, v0
	v_writelane_b32 v2, s4, 17
	s_mov_b32 s7, 70
	v_readlane_b32 s6, v0, s7
	v_writelane_b32 v3, s7, s7
	v_mov_b32_dpp v3, v0 row_shl:1 row_mask:0xf bank_mask:0xf
	v_mov_b32_dpp v4, v0 wave_shr:1 row_mask:0xf bank_mask:0xf
	v_mov_b32_dpp v5, v0 row_bcast:31 row_mask:0xf bank_mask:0xf
	v_add_u32_dpp v6, v0, v0 quad_perm:[3,2,1,0] row_mask:0xa bank_mask:0x5 bound_ctrl:0
	v_add_u32_sdwa v7, v0, v0 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:BYTE_3
	v_cndmask_b32_sdwa v8, v0, v2, vcc dst_sel:WORD_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_0 src1_sel:WORD_0
	s_mov_b32 m0, 4
	s_movrels_b32 s8, s9
	s_movreld_b32 s8, s9
	s_mov_b32 s10, 5
	s_set_gpr_idx_on s10, gpr_idx(SRC0,DST)
	v_mov_b32 v1, v2
	s_set_gpr_idx_off

kern_gws:
	// global wave sync: a semaphore, then a barrier for one more wave
	// than the workgroup has, where the wave waits (HSAGPU_GCN_GWS_WAIT)
	s_mov_b32 m0, 0x10000
	v_mov_b32 v1, 2
	ds_gws_init v1 offset:1 gds
	ds_gws_sema_v offset:1 gds
	ds_gws_sema_br v1 offset:1 gds
	ds_gws_sema_p offset:1 gds
	ds_gws_sema_release_all offset:1 gds
	s_waitcnt lgkmcnt(0)
	ds_gws_init v1 gds
	ds_gws_barrier v1 gds
	s_waitcnt lgkmcnt(0)
kern_valu3:
	v_mov_b32 v10, 0x40490fdb
	v_mov_b32 v11, 0xff800000
	v_cvt_f32_u32 v12, v0
	v_mov_b32 v13, -7
	v_mov_b32 v15, 0x7fc00000
	v_fma_f32 v1, -v10, |v11|, v12 clamp mul:2
	v_add_f64 v[2:3], v[10:11], -v[14:15]
	v_div_scale_f32 v4, vcc, v10, v12, v10
	v_div_fmas_f32 v5, v4, v11, v12
	v_div_fixup_f32 v5, v5, v12, v10
	v_cvt_i32_f32 v6, v15
	v_cvt_u32_f64 v7, v[10:11]
	v_frexp_exp_i32_f32 v8, v13
	v_ldexp_f32 v9, v10, v13
	v_mad_u64_u32 v[16:17], s[4:5], v0, v13, v[10:11]
	v_lshlrev_b64 v[18:19], 63, v[10:11]
	v_cmp_class_f32 vcc, v15, v13
	v_cmpx_lt_f32 vcc, v12, v10
	v_pk_fma_f16 v20, v10, v11, v12 op_sel:[1,0,1]
	v_pk_add_u16 v21, v0, v13
	v_cvt_pkrtz_f16_f32 v22, v10, v11
	v_mad_mix_f32 v23, v10, v11, v12
	v_sin_f32 v24, v10
	v_rsq_f64 v[26:27], v[10:11]
	v_trunc_f64 v[28:29], v[2:3]
	v_bfe_u32 v30, v0, 31, 33
	s_bfe_u32 s6, s7, 0xffff
	s_lshl_b64 s[8:9], s[8:9], 63
	s_mul_i32 s10, s11, -1
	s_bitset1_b32 s12, 31
	s_ff1_i32_b64 s13, exec
	s_quadmask_b64 s[14:15], vcc
	s_wqm_b64 exec, exec

lds_basic:
	v_lshlrev_b32 v1, 2, v0
	ds_write_b32 v1, v0
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b32 v2, v1 offset:4
	ds_add_u32 v1, v0
	ds_add_rtn_u32 v3, v1, v0 offset:256
	ds_read2_b32 v[4:5], v1 offset1:1
	ds_write2_b32 v1, v4, v5 offset0:2 offset1:3
	ds_read_b64 v[6:7], v1
	ds_write_b64 v1, v[6:7] offset:512
	ds_cmpst_rtn_b32 v8, v1, v2, v3
	ds_max_u32 v1, v0
	ds_read_u8 v9, v1 offset:65535
	ds_write_b8 v1, v0 offset:4095
	ds_read2st64_b32 v[10:11], v1 offset1:2
	ds_bpermute_b32 v12, v1, v0
	ds_permute_b32 v13, v1, v0
	ds_swizzle_b32 v14, v0 offset:swizzle(SWAP,16)
	ds_read_b128 v[16:19], v1
	ds_write_b96 v1, v[16:18] offset:16
	ds_wrxchg_rtn_b32 v20, v1, v0
	ds_read_addtid_b32 v21 offset:8

lds_generic:
	s_getreg_b32 s4, hwreg(HW_REG_SH_MEM_BASES, 16, 16)
	s_lshl_b32 s4, s4, 16
	v_lshlrev_b32 v2, 2, v0
	v_mov_b32 v3, s4
	flat_store_dword v[2:3], v0
	flat_load_dword v4, v[2:3] offset:4
	s_getreg_b32 s5, hwreg(HW_REG_SH_MEM_BASES, 0, 16)
	s_lshl_b32 s5, s5, 16
	v_mov_b32 v3, s5
	flat_atomic_add v[2:3], v0

// run with FG_F_SCRATCH (a PM4 dispatch's scratch): FLAT_SCRATCH set to
// the first data buffer, then flat accesses in the private aperture
kern_scratch:
	s_load_dwordx2 s[4:5], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	s_mov_b32 flat_scratch_lo, s4
	s_mov_b32 flat_scratch_hi, s5
	v_lshlrev_b32 v2, 2, v0
	s_getreg_b32 s6, hwreg(HW_REG_SH_MEM_BASES, 0, 16)
	s_lshl_b32 s6, s6, 16
	v_mov_b32 v3, s6
	flat_store_dword v[2:3], v0
	flat_load_dword v4, v[2:3]
	flat_store_dwordx2 v[2:3], v[0:1] offset:8
	flat_load_ushort v5, v[2:3] offset:2
	s_waitcnt vmcnt(0) lgkmcnt(0)
	s_mov_b32 s7, 0
	scratch_store_dword off, v4, s7 offset:64
	scratch_load_dword v6, off, s7 offset:64

priv_basic:
	v_lshlrev_b32 v1, 2, v0
	buffer_store_dword v0, v1, s[0:3], s7 offen
	buffer_load_dword v2, v1, s[0:3], s7 offen offset:4
	buffer_store_dwordx2 v[0:1], off, s[0:3], s7 offset:16
	buffer_load_dwordx4 v[4:7], off, s[0:3], s7
	buffer_load_ubyte v8, v1, s[0:3], s7 offen offset:255
	buffer_store_short v0, off, s[0:3], s7 offset:254
	buffer_load_dword v9, v1, s[0:3], s7 offen offset:4095
