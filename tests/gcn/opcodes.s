// SPDX-License-Identifier: GPL-2.0-or-later
// One instruction per opcode name of hw/hsagpu/gcn/hsagpu-gcn-opcodes.h
// (VOP1, VOP2 and VOPC ones in both their e32 and e64 forms where they
// have both; FLAT's also as GLOBAL): assembled at build time by Debian's
// llvm-mc for gfx900, and tests/unit/test-gcn-opcodes.c compares the
// opcode field of what it prints with the header's number for the name.
// The operands do not matter; the mnemonic gives the name.
// SOP2
s_add_u32 s0, s1, s2
s_sub_u32 s0, s1, s2
s_add_i32 s0, s1, s2
s_sub_i32 s0, s1, s2
s_addc_u32 s0, s1, s2
s_subb_u32 s0, s1, s2
s_min_i32 s0, s1, s2
s_min_u32 s0, s1, s2
s_max_i32 s0, s1, s2
s_max_u32 s0, s1, s2
s_cselect_b32 s0, s1, s2
s_cselect_b64 s[0:1], s[2:3], s[4:5]
s_and_b32 s0, s1, s2
s_and_b64 s[0:1], s[2:3], s[4:5]
s_or_b32 s0, s1, s2
s_or_b64 s[0:1], s[2:3], s[4:5]
s_xor_b32 s0, s1, s2
s_xor_b64 s[0:1], s[2:3], s[4:5]
s_andn2_b32 s0, s1, s2
s_andn2_b64 s[0:1], s[2:3], s[4:5]
s_orn2_b32 s0, s1, s2
s_orn2_b64 s[0:1], s[2:3], s[4:5]
s_nand_b32 s0, s1, s2
s_nand_b64 s[0:1], s[2:3], s[4:5]
s_nor_b32 s0, s1, s2
s_nor_b64 s[0:1], s[2:3], s[4:5]
s_xnor_b32 s0, s1, s2
s_xnor_b64 s[0:1], s[2:3], s[4:5]
s_lshl_b32 s0, s1, s2
s_lshl_b64 s[0:1], s[2:3], s4
s_lshr_b32 s0, s1, s2
s_lshr_b64 s[0:1], s[2:3], s4
s_ashr_i32 s0, s1, s2
s_ashr_i64 s[0:1], s[2:3], s4
s_bfm_b32 s0, s1, s2
s_bfm_b64 s[0:1], s2, s3
s_mul_i32 s0, s1, s2
s_bfe_u32 s0, s1, s2
s_bfe_i32 s0, s1, s2
s_absdiff_i32 s0, s1, s2
s_mul_hi_u32 s0, s1, s2
s_mul_hi_i32 s0, s1, s2
s_lshl1_add_u32 s0, s1, s2
s_lshl2_add_u32 s0, s1, s2
s_lshl3_add_u32 s0, s1, s2
s_lshl4_add_u32 s0, s1, s2
// SOPK
s_movk_i32 s0, 0x1
s_cmovk_i32 s0, 0x1
s_cmpk_eq_i32 s0, 0x1
s_cmpk_lg_i32 s0, 0x1
s_cmpk_gt_i32 s0, 0x1
s_cmpk_ge_i32 s0, 0x1
s_cmpk_lt_i32 s0, 0x1
s_cmpk_eq_u32 s0, 0x1
s_cmpk_lg_u32 s0, 0x1
s_cmpk_gt_u32 s0, 0x1
s_cmpk_ge_u32 s0, 0x1
s_cmpk_lt_u32 s0, 0x1
s_addk_i32 s0, 0x1
s_mulk_i32 s0, 0x1
s_getreg_b32 s0, 0x1
// SOP1
s_mov_b32 s0, s1
s_mov_b64 s[0:1], s[2:3]
s_cmov_b32 s0, s1
s_cmov_b64 s[0:1], s[2:3]
s_not_b32 s0, s1
s_not_b64 s[0:1], s[2:3]
s_bcnt1_i32_b32 s0, s1
s_bcnt1_i32_b64 s0, s[2:3]
s_ff1_i32_b32 s0, s1
s_ff1_i32_b64 s0, s[2:3]
s_getpc_b64 s[0:1]
s_setpc_b64 s[0:1]
s_swappc_b64 s[0:1], s[2:3]
s_and_saveexec_b64 s[0:1], s[2:3]
s_or_saveexec_b64 s[0:1], s[2:3]
s_xor_saveexec_b64 s[0:1], s[2:3]
s_andn2_saveexec_b64 s[0:1], s[2:3]
s_orn2_saveexec_b64 s[0:1], s[2:3]
s_nand_saveexec_b64 s[0:1], s[2:3]
s_nor_saveexec_b64 s[0:1], s[2:3]
s_xnor_saveexec_b64 s[0:1], s[2:3]
s_abs_i32 s0, s1
// SOPC
s_cmp_eq_i32 s0, s1
s_cmp_lg_i32 s0, s1
s_cmp_gt_i32 s0, s1
s_cmp_ge_i32 s0, s1
s_cmp_lt_i32 s0, s1
s_cmp_le_i32 s0, s1
s_cmp_eq_u32 s0, s1
s_cmp_lg_u32 s0, s1
s_cmp_gt_u32 s0, s1
s_cmp_ge_u32 s0, s1
s_cmp_lt_u32 s0, s1
s_cmp_le_u32 s0, s1
s_bitcmp0_b32 s0, s1
s_bitcmp1_b32 s0, s1
s_bitcmp0_b64 s[0:1], s2
s_bitcmp1_b64 s[0:1], s2
s_cmp_eq_u64 s[0:1], s[2:3]
s_cmp_lg_u64 s[0:1], s[2:3]
// SOPP
s_nop 0
s_endpgm
s_branch 0
s_wakeup
s_cbranch_scc0 0
s_cbranch_scc1 0
s_cbranch_vccz 0
s_cbranch_vccnz 0
s_cbranch_execz 0
s_cbranch_execnz 0
s_barrier
s_waitcnt 0
s_sleep 0
s_setprio 0
s_trap 0
s_icache_inv
s_incperflevel 0
s_decperflevel 0
// SMEM
s_load_dword s0, s[2:3], 0x0
s_load_dwordx2 s[0:1], s[2:3], 0x0
s_load_dwordx4 s[0:3], s[2:3], 0x0
s_load_dwordx8 s[0:7], s[2:3], 0x0
s_load_dwordx16 s[0:15], s[2:3], 0x0
s_buffer_load_dword s0, s[4:7], 0x0
s_buffer_load_dwordx2 s[0:1], s[4:7], 0x0
s_buffer_load_dwordx4 s[0:3], s[4:7], 0x0
s_buffer_load_dwordx8 s[8:15], s[4:7], 0x0
s_buffer_load_dwordx16 s[8:23], s[4:7], 0x0
s_store_dword s0, s[2:3], 0x0
s_store_dwordx2 s[0:1], s[2:3], 0x0
s_store_dwordx4 s[0:3], s[4:5], 0x0
s_buffer_store_dword s0, s[4:7], 0x0
s_buffer_store_dwordx2 s[0:1], s[4:7], 0x0
s_buffer_store_dwordx4 s[0:3], s[4:7], 0x0
s_dcache_inv
s_dcache_wb
// VOP2
v_cndmask_b32 v0, v1, v2
v_cndmask_b32_e64 v0, v1, v2, s[0:1]
v_add_f32 v0, v1, v2
v_add_f32_e64 v0, v1, v2
v_sub_f32 v0, v1, v2
v_sub_f32_e64 v0, v1, v2
v_subrev_f32 v0, v1, v2
v_subrev_f32_e64 v0, v1, v2
v_mul_legacy_f32 v0, v1, v2
v_mul_legacy_f32_e64 v0, v1, v2
v_mul_f32 v0, v1, v2
v_mul_f32_e64 v0, v1, v2
v_mul_i32_i24 v0, v1, v2
v_mul_i32_i24_e64 v0, v1, v2
v_mul_hi_i32_i24 v0, v1, v2
v_mul_hi_i32_i24_e64 v0, v1, v2
v_mul_u32_u24 v0, v1, v2
v_mul_u32_u24_e64 v0, v1, v2
v_mul_hi_u32_u24 v0, v1, v2
v_mul_hi_u32_u24_e64 v0, v1, v2
v_min_f32 v0, v1, v2
v_min_f32_e64 v0, v1, v2
v_max_f32 v0, v1, v2
v_max_f32_e64 v0, v1, v2
v_min_i32 v0, v1, v2
v_min_i32_e64 v0, v1, v2
v_max_i32 v0, v1, v2
v_max_i32_e64 v0, v1, v2
v_min_u32 v0, v1, v2
v_min_u32_e64 v0, v1, v2
v_max_u32 v0, v1, v2
v_max_u32_e64 v0, v1, v2
v_lshrrev_b32 v0, v1, v2
v_lshrrev_b32_e64 v0, v1, v2
v_ashrrev_i32 v0, v1, v2
v_ashrrev_i32_e64 v0, v1, v2
v_lshlrev_b32 v0, v1, v2
v_lshlrev_b32_e64 v0, v1, v2
v_and_b32 v0, v1, v2
v_and_b32_e64 v0, v1, v2
v_or_b32 v0, v1, v2
v_or_b32_e64 v0, v1, v2
v_xor_b32 v0, v1, v2
v_xor_b32_e64 v0, v1, v2
v_mac_f32 v0, v1, v2
v_mac_f32_e64 v0, v1, v2
v_madmk_f32 v0, v1, 0x41000000, v2
v_madak_f32 v0, v1, v2, 0x41000000
v_madmk_f16 v0, v1, 0x4100, v2
v_madak_f16 v0, v1, v2, 0x4100
v_add_co_u32 v0, v1, v2
v_add_co_u32_e64 v0, s[0:1], v1, v2
v_sub_co_u32 v0, v1, v2
v_sub_co_u32_e64 v0, s[0:1], v1, v2
v_subrev_co_u32 v0, v1, v2
v_subrev_co_u32_e64 v0, s[0:1], v1, v2
v_addc_co_u32 v0, vcc, v1, v2, vcc
v_addc_co_u32_e64 v0, s[0:1], v1, v2, s[2:3]
v_subb_co_u32 v0, vcc, v1, v2, vcc
v_subb_co_u32_e64 v0, s[0:1], v1, v2, s[2:3]
v_subbrev_co_u32 v0, vcc, v1, v2, vcc
v_subbrev_co_u32_e64 v0, s[0:1], v1, v2, s[2:3]
v_add_f16 v0, v1, v2
v_add_f16_e64 v0, v1, v2
v_sub_f16 v0, v1, v2
v_sub_f16_e64 v0, v1, v2
v_subrev_f16 v0, v1, v2
v_subrev_f16_e64 v0, v1, v2
v_mul_f16 v0, v1, v2
v_mul_f16_e64 v0, v1, v2
v_mac_f16 v0, v1, v2
v_mac_f16_e64 v0, v1, v2
v_add_u16 v0, v1, v2
v_add_u16_e64 v0, v1, v2
v_sub_u16 v0, v1, v2
v_sub_u16_e64 v0, v1, v2
v_subrev_u16 v0, v1, v2
v_subrev_u16_e64 v0, v1, v2
v_mul_lo_u16 v0, v1, v2
v_mul_lo_u16_e64 v0, v1, v2
v_lshlrev_b16 v0, v1, v2
v_lshlrev_b16_e64 v0, v1, v2
v_lshrrev_b16 v0, v1, v2
v_lshrrev_b16_e64 v0, v1, v2
v_ashrrev_i16 v0, v1, v2
v_ashrrev_i16_e64 v0, v1, v2
v_max_f16 v0, v1, v2
v_max_f16_e64 v0, v1, v2
v_min_f16 v0, v1, v2
v_min_f16_e64 v0, v1, v2
v_max_u16 v0, v1, v2
v_max_u16_e64 v0, v1, v2
v_max_i16 v0, v1, v2
v_max_i16_e64 v0, v1, v2
v_min_u16 v0, v1, v2
v_min_u16_e64 v0, v1, v2
v_min_i16 v0, v1, v2
v_min_i16_e64 v0, v1, v2
v_ldexp_f16 v0, v1, v2
v_ldexp_f16_e64 v0, v1, v2
v_add_u32 v0, v1, v2
v_add_u32_e64 v0, v1, v2
v_sub_u32 v0, v1, v2
v_sub_u32_e64 v0, v1, v2
v_subrev_u32 v0, v1, v2
v_subrev_u32_e64 v0, v1, v2
// VOP1
v_nop
v_nop_e64
v_mov_b32 v0, v1
v_mov_b32_e64 v0, v1
v_readfirstlane_b32 s0, v1
v_cvt_i32_f64 v0, v[2:3]
v_cvt_i32_f64_e64 v0, v[2:3]
v_cvt_f64_i32 v[0:1], v2
v_cvt_f64_i32_e64 v[0:1], v2
v_cvt_f32_i32 v0, v1
v_cvt_f32_i32_e64 v0, v1
v_cvt_f32_u32 v0, v1
v_cvt_f32_u32_e64 v0, v1
v_cvt_u32_f32 v0, v1
v_cvt_u32_f32_e64 v0, v1
v_cvt_i32_f32 v0, v1
v_cvt_i32_f32_e64 v0, v1
v_cvt_f16_f32 v0, v1
v_cvt_f16_f32_e64 v0, v1
v_cvt_f32_f16 v0, v1
v_cvt_f32_f16_e64 v0, v1
v_cvt_rpi_i32_f32 v0, v1
v_cvt_rpi_i32_f32_e64 v0, v1
v_cvt_flr_i32_f32 v0, v1
v_cvt_flr_i32_f32_e64 v0, v1
v_cvt_f32_f64 v0, v[2:3]
v_cvt_f32_f64_e64 v0, v[2:3]
v_cvt_f64_f32 v[0:1], v2
v_cvt_f64_f32_e64 v[0:1], v2
v_cvt_f32_ubyte0 v0, v1
v_cvt_f32_ubyte0_e64 v0, v1
v_cvt_f32_ubyte1 v0, v1
v_cvt_f32_ubyte1_e64 v0, v1
v_cvt_f32_ubyte2 v0, v1
v_cvt_f32_ubyte2_e64 v0, v1
v_cvt_f32_ubyte3 v0, v1
v_cvt_f32_ubyte3_e64 v0, v1
v_cvt_u32_f64 v0, v[2:3]
v_cvt_u32_f64_e64 v0, v[2:3]
v_cvt_f64_u32 v[0:1], v2
v_cvt_f64_u32_e64 v[0:1], v2
v_trunc_f64 v[0:1], v[2:3]
v_trunc_f64_e64 v[0:1], v[2:3]
v_ceil_f64 v[0:1], v[2:3]
v_ceil_f64_e64 v[0:1], v[2:3]
v_rndne_f64 v[0:1], v[2:3]
v_rndne_f64_e64 v[0:1], v[2:3]
v_floor_f64 v[0:1], v[2:3]
v_floor_f64_e64 v[0:1], v[2:3]
v_fract_f32 v0, v1
v_fract_f32_e64 v0, v1
v_trunc_f32 v0, v1
v_trunc_f32_e64 v0, v1
v_ceil_f32 v0, v1
v_ceil_f32_e64 v0, v1
v_rndne_f32 v0, v1
v_rndne_f32_e64 v0, v1
v_floor_f32 v0, v1
v_floor_f32_e64 v0, v1
v_exp_f32 v0, v1
v_exp_f32_e64 v0, v1
v_log_f32 v0, v1
v_log_f32_e64 v0, v1
v_rcp_f32 v0, v1
v_rcp_f32_e64 v0, v1
v_rcp_iflag_f32 v0, v1
v_rcp_iflag_f32_e64 v0, v1
v_rsq_f32 v0, v1
v_rsq_f32_e64 v0, v1
v_rcp_f64 v[0:1], v[2:3]
v_rcp_f64_e64 v[0:1], v[2:3]
v_rsq_f64 v[0:1], v[2:3]
v_rsq_f64_e64 v[0:1], v[2:3]
v_sqrt_f32 v0, v1
v_sqrt_f32_e64 v0, v1
v_sqrt_f64 v[0:1], v[2:3]
v_sqrt_f64_e64 v[0:1], v[2:3]
v_sin_f32 v0, v1
v_sin_f32_e64 v0, v1
v_cos_f32 v0, v1
v_cos_f32_e64 v0, v1
v_not_b32 v0, v1
v_not_b32_e64 v0, v1
v_bfrev_b32 v0, v1
v_bfrev_b32_e64 v0, v1
v_ffbh_u32 v0, v1
v_ffbh_u32_e64 v0, v1
v_ffbl_b32 v0, v1
v_ffbl_b32_e64 v0, v1
v_ffbh_i32 v0, v1
v_ffbh_i32_e64 v0, v1
v_frexp_exp_i32_f64 v0, v[2:3]
v_frexp_exp_i32_f64_e64 v0, v[2:3]
v_frexp_mant_f64 v[0:1], v[2:3]
v_frexp_mant_f64_e64 v[0:1], v[2:3]
v_fract_f64 v[0:1], v[2:3]
v_fract_f64_e64 v[0:1], v[2:3]
v_frexp_exp_i32_f32 v0, v1
v_frexp_exp_i32_f32_e64 v0, v1
v_frexp_mant_f32 v0, v1
v_frexp_mant_f32_e64 v0, v1
v_cvt_f16_u16 v0, v1
v_cvt_f16_u16_e64 v0, v1
v_cvt_f16_i16 v0, v1
v_cvt_f16_i16_e64 v0, v1
v_cvt_u16_f16 v0, v1
v_cvt_u16_f16_e64 v0, v1
v_cvt_i16_f16 v0, v1
v_cvt_i16_f16_e64 v0, v1
v_rcp_f16 v0, v1
v_rcp_f16_e64 v0, v1
v_sqrt_f16 v0, v1
v_sqrt_f16_e64 v0, v1
v_rsq_f16 v0, v1
v_rsq_f16_e64 v0, v1
v_floor_f16 v0, v1
v_floor_f16_e64 v0, v1
v_ceil_f16 v0, v1
v_ceil_f16_e64 v0, v1
v_trunc_f16 v0, v1
v_trunc_f16_e64 v0, v1
v_rndne_f16 v0, v1
v_rndne_f16_e64 v0, v1
v_fract_f16 v0, v1
v_fract_f16_e64 v0, v1
// VOPC
v_cmp_class_f32 vcc, v1, v2
v_cmp_class_f32_e64 s[0:1], v1, v2
v_cmpx_class_f32 vcc, v1, v2
v_cmpx_class_f32_e64 s[0:1], v1, v2
v_cmp_class_f64 vcc, v[2:3], v4
v_cmp_class_f64_e64 s[0:1], v[2:3], v4
v_cmpx_class_f64 vcc, v[2:3], v4
v_cmpx_class_f64_e64 s[0:1], v[2:3], v4
v_cmp_class_f16 vcc, v1, v2
v_cmp_class_f16_e64 s[0:1], v1, v2
v_cmpx_class_f16 vcc, v1, v2
v_cmpx_class_f16_e64 s[0:1], v1, v2
v_cmp_f_f16 vcc, v1, v2
v_cmp_f_f16_e64 s[0:1], v1, v2
v_cmp_lt_f16 vcc, v1, v2
v_cmp_lt_f16_e64 s[0:1], v1, v2
v_cmp_eq_f16 vcc, v1, v2
v_cmp_eq_f16_e64 s[0:1], v1, v2
v_cmp_le_f16 vcc, v1, v2
v_cmp_le_f16_e64 s[0:1], v1, v2
v_cmp_gt_f16 vcc, v1, v2
v_cmp_gt_f16_e64 s[0:1], v1, v2
v_cmp_lg_f16 vcc, v1, v2
v_cmp_lg_f16_e64 s[0:1], v1, v2
v_cmp_ge_f16 vcc, v1, v2
v_cmp_ge_f16_e64 s[0:1], v1, v2
v_cmp_o_f16 vcc, v1, v2
v_cmp_o_f16_e64 s[0:1], v1, v2
v_cmp_u_f16 vcc, v1, v2
v_cmp_u_f16_e64 s[0:1], v1, v2
v_cmp_nge_f16 vcc, v1, v2
v_cmp_nge_f16_e64 s[0:1], v1, v2
v_cmp_nlg_f16 vcc, v1, v2
v_cmp_nlg_f16_e64 s[0:1], v1, v2
v_cmp_ngt_f16 vcc, v1, v2
v_cmp_ngt_f16_e64 s[0:1], v1, v2
v_cmp_nle_f16 vcc, v1, v2
v_cmp_nle_f16_e64 s[0:1], v1, v2
v_cmp_neq_f16 vcc, v1, v2
v_cmp_neq_f16_e64 s[0:1], v1, v2
v_cmp_nlt_f16 vcc, v1, v2
v_cmp_nlt_f16_e64 s[0:1], v1, v2
v_cmp_tru_f16 vcc, v1, v2
v_cmp_tru_f16_e64 s[0:1], v1, v2
v_cmpx_f_f16 vcc, v1, v2
v_cmpx_f_f16_e64 s[0:1], v1, v2
v_cmpx_lt_f16 vcc, v1, v2
v_cmpx_lt_f16_e64 s[0:1], v1, v2
v_cmpx_eq_f16 vcc, v1, v2
v_cmpx_eq_f16_e64 s[0:1], v1, v2
v_cmpx_le_f16 vcc, v1, v2
v_cmpx_le_f16_e64 s[0:1], v1, v2
v_cmpx_gt_f16 vcc, v1, v2
v_cmpx_gt_f16_e64 s[0:1], v1, v2
v_cmpx_lg_f16 vcc, v1, v2
v_cmpx_lg_f16_e64 s[0:1], v1, v2
v_cmpx_ge_f16 vcc, v1, v2
v_cmpx_ge_f16_e64 s[0:1], v1, v2
v_cmpx_o_f16 vcc, v1, v2
v_cmpx_o_f16_e64 s[0:1], v1, v2
v_cmpx_u_f16 vcc, v1, v2
v_cmpx_u_f16_e64 s[0:1], v1, v2
v_cmpx_nge_f16 vcc, v1, v2
v_cmpx_nge_f16_e64 s[0:1], v1, v2
v_cmpx_nlg_f16 vcc, v1, v2
v_cmpx_nlg_f16_e64 s[0:1], v1, v2
v_cmpx_ngt_f16 vcc, v1, v2
v_cmpx_ngt_f16_e64 s[0:1], v1, v2
v_cmpx_nle_f16 vcc, v1, v2
v_cmpx_nle_f16_e64 s[0:1], v1, v2
v_cmpx_neq_f16 vcc, v1, v2
v_cmpx_neq_f16_e64 s[0:1], v1, v2
v_cmpx_nlt_f16 vcc, v1, v2
v_cmpx_nlt_f16_e64 s[0:1], v1, v2
v_cmpx_tru_f16 vcc, v1, v2
v_cmpx_tru_f16_e64 s[0:1], v1, v2
v_cmp_f_f32 vcc, v1, v2
v_cmp_f_f32_e64 s[0:1], v1, v2
v_cmp_lt_f32 vcc, v1, v2
v_cmp_lt_f32_e64 s[0:1], v1, v2
v_cmp_eq_f32 vcc, v1, v2
v_cmp_eq_f32_e64 s[0:1], v1, v2
v_cmp_le_f32 vcc, v1, v2
v_cmp_le_f32_e64 s[0:1], v1, v2
v_cmp_gt_f32 vcc, v1, v2
v_cmp_gt_f32_e64 s[0:1], v1, v2
v_cmp_lg_f32 vcc, v1, v2
v_cmp_lg_f32_e64 s[0:1], v1, v2
v_cmp_ge_f32 vcc, v1, v2
v_cmp_ge_f32_e64 s[0:1], v1, v2
v_cmp_o_f32 vcc, v1, v2
v_cmp_o_f32_e64 s[0:1], v1, v2
v_cmp_u_f32 vcc, v1, v2
v_cmp_u_f32_e64 s[0:1], v1, v2
v_cmp_nge_f32 vcc, v1, v2
v_cmp_nge_f32_e64 s[0:1], v1, v2
v_cmp_nlg_f32 vcc, v1, v2
v_cmp_nlg_f32_e64 s[0:1], v1, v2
v_cmp_ngt_f32 vcc, v1, v2
v_cmp_ngt_f32_e64 s[0:1], v1, v2
v_cmp_nle_f32 vcc, v1, v2
v_cmp_nle_f32_e64 s[0:1], v1, v2
v_cmp_neq_f32 vcc, v1, v2
v_cmp_neq_f32_e64 s[0:1], v1, v2
v_cmp_nlt_f32 vcc, v1, v2
v_cmp_nlt_f32_e64 s[0:1], v1, v2
v_cmp_tru_f32 vcc, v1, v2
v_cmp_tru_f32_e64 s[0:1], v1, v2
v_cmpx_f_f32 vcc, v1, v2
v_cmpx_f_f32_e64 s[0:1], v1, v2
v_cmpx_lt_f32 vcc, v1, v2
v_cmpx_lt_f32_e64 s[0:1], v1, v2
v_cmpx_eq_f32 vcc, v1, v2
v_cmpx_eq_f32_e64 s[0:1], v1, v2
v_cmpx_le_f32 vcc, v1, v2
v_cmpx_le_f32_e64 s[0:1], v1, v2
v_cmpx_gt_f32 vcc, v1, v2
v_cmpx_gt_f32_e64 s[0:1], v1, v2
v_cmpx_lg_f32 vcc, v1, v2
v_cmpx_lg_f32_e64 s[0:1], v1, v2
v_cmpx_ge_f32 vcc, v1, v2
v_cmpx_ge_f32_e64 s[0:1], v1, v2
v_cmpx_o_f32 vcc, v1, v2
v_cmpx_o_f32_e64 s[0:1], v1, v2
v_cmpx_u_f32 vcc, v1, v2
v_cmpx_u_f32_e64 s[0:1], v1, v2
v_cmpx_nge_f32 vcc, v1, v2
v_cmpx_nge_f32_e64 s[0:1], v1, v2
v_cmpx_nlg_f32 vcc, v1, v2
v_cmpx_nlg_f32_e64 s[0:1], v1, v2
v_cmpx_ngt_f32 vcc, v1, v2
v_cmpx_ngt_f32_e64 s[0:1], v1, v2
v_cmpx_nle_f32 vcc, v1, v2
v_cmpx_nle_f32_e64 s[0:1], v1, v2
v_cmpx_neq_f32 vcc, v1, v2
v_cmpx_neq_f32_e64 s[0:1], v1, v2
v_cmpx_nlt_f32 vcc, v1, v2
v_cmpx_nlt_f32_e64 s[0:1], v1, v2
v_cmpx_tru_f32 vcc, v1, v2
v_cmpx_tru_f32_e64 s[0:1], v1, v2
v_cmp_f_f64 vcc, v[2:3], v[4:5]
v_cmp_f_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_lt_f64 vcc, v[2:3], v[4:5]
v_cmp_lt_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_eq_f64 vcc, v[2:3], v[4:5]
v_cmp_eq_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_le_f64 vcc, v[2:3], v[4:5]
v_cmp_le_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_gt_f64 vcc, v[2:3], v[4:5]
v_cmp_gt_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_lg_f64 vcc, v[2:3], v[4:5]
v_cmp_lg_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_ge_f64 vcc, v[2:3], v[4:5]
v_cmp_ge_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_o_f64 vcc, v[2:3], v[4:5]
v_cmp_o_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_u_f64 vcc, v[2:3], v[4:5]
v_cmp_u_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_nge_f64 vcc, v[2:3], v[4:5]
v_cmp_nge_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_nlg_f64 vcc, v[2:3], v[4:5]
v_cmp_nlg_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_ngt_f64 vcc, v[2:3], v[4:5]
v_cmp_ngt_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_nle_f64 vcc, v[2:3], v[4:5]
v_cmp_nle_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_neq_f64 vcc, v[2:3], v[4:5]
v_cmp_neq_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_nlt_f64 vcc, v[2:3], v[4:5]
v_cmp_nlt_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_tru_f64 vcc, v[2:3], v[4:5]
v_cmp_tru_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_f_f64 vcc, v[2:3], v[4:5]
v_cmpx_f_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_lt_f64 vcc, v[2:3], v[4:5]
v_cmpx_lt_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_eq_f64 vcc, v[2:3], v[4:5]
v_cmpx_eq_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_le_f64 vcc, v[2:3], v[4:5]
v_cmpx_le_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_gt_f64 vcc, v[2:3], v[4:5]
v_cmpx_gt_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_lg_f64 vcc, v[2:3], v[4:5]
v_cmpx_lg_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_ge_f64 vcc, v[2:3], v[4:5]
v_cmpx_ge_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_o_f64 vcc, v[2:3], v[4:5]
v_cmpx_o_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_u_f64 vcc, v[2:3], v[4:5]
v_cmpx_u_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_nge_f64 vcc, v[2:3], v[4:5]
v_cmpx_nge_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_nlg_f64 vcc, v[2:3], v[4:5]
v_cmpx_nlg_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_ngt_f64 vcc, v[2:3], v[4:5]
v_cmpx_ngt_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_nle_f64 vcc, v[2:3], v[4:5]
v_cmpx_nle_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_neq_f64 vcc, v[2:3], v[4:5]
v_cmpx_neq_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_nlt_f64 vcc, v[2:3], v[4:5]
v_cmpx_nlt_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_tru_f64 vcc, v[2:3], v[4:5]
v_cmpx_tru_f64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_f_i16 vcc, v1, v2
v_cmp_f_i16_e64 s[0:1], v1, v2
v_cmp_lt_i16 vcc, v1, v2
v_cmp_lt_i16_e64 s[0:1], v1, v2
v_cmp_eq_i16 vcc, v1, v2
v_cmp_eq_i16_e64 s[0:1], v1, v2
v_cmp_le_i16 vcc, v1, v2
v_cmp_le_i16_e64 s[0:1], v1, v2
v_cmp_gt_i16 vcc, v1, v2
v_cmp_gt_i16_e64 s[0:1], v1, v2
v_cmp_ne_i16 vcc, v1, v2
v_cmp_ne_i16_e64 s[0:1], v1, v2
v_cmp_ge_i16 vcc, v1, v2
v_cmp_ge_i16_e64 s[0:1], v1, v2
v_cmp_t_i16 vcc, v1, v2
v_cmp_t_i16_e64 s[0:1], v1, v2
v_cmp_f_u16 vcc, v1, v2
v_cmp_f_u16_e64 s[0:1], v1, v2
v_cmp_lt_u16 vcc, v1, v2
v_cmp_lt_u16_e64 s[0:1], v1, v2
v_cmp_eq_u16 vcc, v1, v2
v_cmp_eq_u16_e64 s[0:1], v1, v2
v_cmp_le_u16 vcc, v1, v2
v_cmp_le_u16_e64 s[0:1], v1, v2
v_cmp_gt_u16 vcc, v1, v2
v_cmp_gt_u16_e64 s[0:1], v1, v2
v_cmp_ne_u16 vcc, v1, v2
v_cmp_ne_u16_e64 s[0:1], v1, v2
v_cmp_ge_u16 vcc, v1, v2
v_cmp_ge_u16_e64 s[0:1], v1, v2
v_cmp_t_u16 vcc, v1, v2
v_cmp_t_u16_e64 s[0:1], v1, v2
v_cmpx_f_i16 vcc, v1, v2
v_cmpx_f_i16_e64 s[0:1], v1, v2
v_cmpx_lt_i16 vcc, v1, v2
v_cmpx_lt_i16_e64 s[0:1], v1, v2
v_cmpx_eq_i16 vcc, v1, v2
v_cmpx_eq_i16_e64 s[0:1], v1, v2
v_cmpx_le_i16 vcc, v1, v2
v_cmpx_le_i16_e64 s[0:1], v1, v2
v_cmpx_gt_i16 vcc, v1, v2
v_cmpx_gt_i16_e64 s[0:1], v1, v2
v_cmpx_ne_i16 vcc, v1, v2
v_cmpx_ne_i16_e64 s[0:1], v1, v2
v_cmpx_ge_i16 vcc, v1, v2
v_cmpx_ge_i16_e64 s[0:1], v1, v2
v_cmpx_t_i16 vcc, v1, v2
v_cmpx_t_i16_e64 s[0:1], v1, v2
v_cmpx_f_u16 vcc, v1, v2
v_cmpx_f_u16_e64 s[0:1], v1, v2
v_cmpx_lt_u16 vcc, v1, v2
v_cmpx_lt_u16_e64 s[0:1], v1, v2
v_cmpx_eq_u16 vcc, v1, v2
v_cmpx_eq_u16_e64 s[0:1], v1, v2
v_cmpx_le_u16 vcc, v1, v2
v_cmpx_le_u16_e64 s[0:1], v1, v2
v_cmpx_gt_u16 vcc, v1, v2
v_cmpx_gt_u16_e64 s[0:1], v1, v2
v_cmpx_ne_u16 vcc, v1, v2
v_cmpx_ne_u16_e64 s[0:1], v1, v2
v_cmpx_ge_u16 vcc, v1, v2
v_cmpx_ge_u16_e64 s[0:1], v1, v2
v_cmpx_t_u16 vcc, v1, v2
v_cmpx_t_u16_e64 s[0:1], v1, v2
v_cmp_f_i32 vcc, v1, v2
v_cmp_f_i32_e64 s[0:1], v1, v2
v_cmp_lt_i32 vcc, v1, v2
v_cmp_lt_i32_e64 s[0:1], v1, v2
v_cmp_eq_i32 vcc, v1, v2
v_cmp_eq_i32_e64 s[0:1], v1, v2
v_cmp_le_i32 vcc, v1, v2
v_cmp_le_i32_e64 s[0:1], v1, v2
v_cmp_gt_i32 vcc, v1, v2
v_cmp_gt_i32_e64 s[0:1], v1, v2
v_cmp_ne_i32 vcc, v1, v2
v_cmp_ne_i32_e64 s[0:1], v1, v2
v_cmp_ge_i32 vcc, v1, v2
v_cmp_ge_i32_e64 s[0:1], v1, v2
v_cmp_t_i32 vcc, v1, v2
v_cmp_t_i32_e64 s[0:1], v1, v2
v_cmp_f_u32 vcc, v1, v2
v_cmp_f_u32_e64 s[0:1], v1, v2
v_cmp_lt_u32 vcc, v1, v2
v_cmp_lt_u32_e64 s[0:1], v1, v2
v_cmp_eq_u32 vcc, v1, v2
v_cmp_eq_u32_e64 s[0:1], v1, v2
v_cmp_le_u32 vcc, v1, v2
v_cmp_le_u32_e64 s[0:1], v1, v2
v_cmp_gt_u32 vcc, v1, v2
v_cmp_gt_u32_e64 s[0:1], v1, v2
v_cmp_ne_u32 vcc, v1, v2
v_cmp_ne_u32_e64 s[0:1], v1, v2
v_cmp_ge_u32 vcc, v1, v2
v_cmp_ge_u32_e64 s[0:1], v1, v2
v_cmp_t_u32 vcc, v1, v2
v_cmp_t_u32_e64 s[0:1], v1, v2
v_cmpx_f_i32 vcc, v1, v2
v_cmpx_f_i32_e64 s[0:1], v1, v2
v_cmpx_lt_i32 vcc, v1, v2
v_cmpx_lt_i32_e64 s[0:1], v1, v2
v_cmpx_eq_i32 vcc, v1, v2
v_cmpx_eq_i32_e64 s[0:1], v1, v2
v_cmpx_le_i32 vcc, v1, v2
v_cmpx_le_i32_e64 s[0:1], v1, v2
v_cmpx_gt_i32 vcc, v1, v2
v_cmpx_gt_i32_e64 s[0:1], v1, v2
v_cmpx_ne_i32 vcc, v1, v2
v_cmpx_ne_i32_e64 s[0:1], v1, v2
v_cmpx_ge_i32 vcc, v1, v2
v_cmpx_ge_i32_e64 s[0:1], v1, v2
v_cmpx_t_i32 vcc, v1, v2
v_cmpx_t_i32_e64 s[0:1], v1, v2
v_cmpx_f_u32 vcc, v1, v2
v_cmpx_f_u32_e64 s[0:1], v1, v2
v_cmpx_lt_u32 vcc, v1, v2
v_cmpx_lt_u32_e64 s[0:1], v1, v2
v_cmpx_eq_u32 vcc, v1, v2
v_cmpx_eq_u32_e64 s[0:1], v1, v2
v_cmpx_le_u32 vcc, v1, v2
v_cmpx_le_u32_e64 s[0:1], v1, v2
v_cmpx_gt_u32 vcc, v1, v2
v_cmpx_gt_u32_e64 s[0:1], v1, v2
v_cmpx_ne_u32 vcc, v1, v2
v_cmpx_ne_u32_e64 s[0:1], v1, v2
v_cmpx_ge_u32 vcc, v1, v2
v_cmpx_ge_u32_e64 s[0:1], v1, v2
v_cmpx_t_u32 vcc, v1, v2
v_cmpx_t_u32_e64 s[0:1], v1, v2
v_cmp_f_i64 vcc, v[2:3], v[4:5]
v_cmp_f_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_lt_i64 vcc, v[2:3], v[4:5]
v_cmp_lt_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_eq_i64 vcc, v[2:3], v[4:5]
v_cmp_eq_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_le_i64 vcc, v[2:3], v[4:5]
v_cmp_le_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_gt_i64 vcc, v[2:3], v[4:5]
v_cmp_gt_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_ne_i64 vcc, v[2:3], v[4:5]
v_cmp_ne_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_ge_i64 vcc, v[2:3], v[4:5]
v_cmp_ge_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_t_i64 vcc, v[2:3], v[4:5]
v_cmp_t_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_f_u64 vcc, v[2:3], v[4:5]
v_cmp_f_u64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_lt_u64 vcc, v[2:3], v[4:5]
v_cmp_lt_u64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_eq_u64 vcc, v[2:3], v[4:5]
v_cmp_eq_u64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_le_u64 vcc, v[2:3], v[4:5]
v_cmp_le_u64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_gt_u64 vcc, v[2:3], v[4:5]
v_cmp_gt_u64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_ne_u64 vcc, v[2:3], v[4:5]
v_cmp_ne_u64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_ge_u64 vcc, v[2:3], v[4:5]
v_cmp_ge_u64_e64 s[0:1], v[2:3], v[4:5]
v_cmp_t_u64 vcc, v[2:3], v[4:5]
v_cmp_t_u64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_f_i64 vcc, v[2:3], v[4:5]
v_cmpx_f_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_lt_i64 vcc, v[2:3], v[4:5]
v_cmpx_lt_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_eq_i64 vcc, v[2:3], v[4:5]
v_cmpx_eq_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_le_i64 vcc, v[2:3], v[4:5]
v_cmpx_le_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_gt_i64 vcc, v[2:3], v[4:5]
v_cmpx_gt_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_ne_i64 vcc, v[2:3], v[4:5]
v_cmpx_ne_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_ge_i64 vcc, v[2:3], v[4:5]
v_cmpx_ge_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_t_i64 vcc, v[2:3], v[4:5]
v_cmpx_t_i64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_f_u64 vcc, v[2:3], v[4:5]
v_cmpx_f_u64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_lt_u64 vcc, v[2:3], v[4:5]
v_cmpx_lt_u64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_eq_u64 vcc, v[2:3], v[4:5]
v_cmpx_eq_u64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_le_u64 vcc, v[2:3], v[4:5]
v_cmpx_le_u64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_gt_u64 vcc, v[2:3], v[4:5]
v_cmpx_gt_u64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_ne_u64 vcc, v[2:3], v[4:5]
v_cmpx_ne_u64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_ge_u64 vcc, v[2:3], v[4:5]
v_cmpx_ge_u64_e64 s[0:1], v[2:3], v[4:5]
v_cmpx_t_u64 vcc, v[2:3], v[4:5]
v_cmpx_t_u64_e64 s[0:1], v[2:3], v[4:5]
// VOP3
v_mad_legacy_f32 v0, v1, v2, v3
v_mad_f32 v0, v1, v2, v3
v_mad_i32_i24 v0, v1, v2, v3
v_mad_u32_u24 v0, v1, v2, v3
v_bfe_u32 v0, v1, v2, v3
v_bfe_i32 v0, v1, v2, v3
v_bfi_b32 v0, v1, v2, v3
v_fma_f32 v0, v1, v2, v3
v_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]
v_alignbit_b32 v0, v1, v2, v3
v_alignbyte_b32 v0, v1, v2, v3
v_min3_f32 v0, v1, v2, v3
v_min3_i32 v0, v1, v2, v3
v_min3_u32 v0, v1, v2, v3
v_max3_f32 v0, v1, v2, v3
v_max3_i32 v0, v1, v2, v3
v_max3_u32 v0, v1, v2, v3
v_med3_f32 v0, v1, v2, v3
v_med3_i32 v0, v1, v2, v3
v_med3_u32 v0, v1, v2, v3
v_sad_u32 v0, v1, v2, v3
v_div_fixup_f32 v0, v1, v2, v3
v_div_fixup_f64 v[0:1], v[2:3], v[4:5], v[6:7]
v_div_scale_f32 v0, vcc, v1, v2, v3
v_div_scale_f64 v[0:1], vcc, v[2:3], v[4:5], v[6:7]
v_div_fmas_f32 v0, v1, v2, v3
v_div_fmas_f64 v[0:1], v[2:3], v[4:5], v[6:7]
v_mad_u64_u32 v[0:1], s[2:3], v1, v2, v[4:5]
v_mad_i64_i32 v[0:1], s[2:3], v1, v2, v[4:5]
v_perm_b32 v0, v1, v2, v3
v_mad_u32_u16 v0, v1, v2, v3
v_xad_u32 v0, v1, v2, v3
v_lshl_add_u32 v0, v1, v2, v3
v_add_lshl_u32 v0, v1, v2, v3
v_add3_u32 v0, v1, v2, v3
v_lshl_or_b32 v0, v1, v2, v3
v_and_or_b32 v0, v1, v2, v3
v_or3_b32 v0, v1, v2, v3
v_mad_f16 v0, v1, v2, v3
v_fma_f16 v0, v1, v2, v3
v_add_f64 v[0:1], v[2:3], v[4:5]
v_mul_f64 v[0:1], v[2:3], v[4:5]
v_min_f64 v[0:1], v[2:3], v[4:5]
v_max_f64 v[0:1], v[2:3], v[4:5]
v_ldexp_f64 v[0:1], v[2:3], v4
v_mul_lo_u32 v0, v1, v2
v_mul_hi_u32 v0, v1, v2
v_mul_hi_i32 v0, v1, v2
v_ldexp_f32 v0, v1, v2
v_readlane_b32 s0, v1, s2
v_writelane_b32 v0, s1, 2
v_bcnt_u32_b32 v0, v1, v2
v_mbcnt_lo_u32_b32 v0, v1, v2
v_mbcnt_hi_u32_b32 v0, v1, v2
v_lshlrev_b64 v[0:1], v2, v[4:5]
v_lshrrev_b64 v[0:1], v2, v[4:5]
v_ashrrev_i64 v[0:1], v2, v[4:5]
v_bfm_b32 v0, v1, v2
v_cvt_pkrtz_f16_f32 v0, v1, v2
v_cvt_pk_u16_u32 v0, v1, v2
v_add_i32 v0, v1, v2
v_sub_i32 v0, v1, v2
v_pack_b32_f16 v0, v1, v2
// VOP3P
v_pk_mad_i16 v0, v1, v2, v3
v_pk_mul_lo_u16 v0, v1, v2
v_pk_add_i16 v0, v1, v2
v_pk_sub_i16 v0, v1, v2
v_pk_lshlrev_b16 v0, v1, v2
v_pk_lshrrev_b16 v0, v1, v2
v_pk_ashrrev_i16 v0, v1, v2
v_pk_max_i16 v0, v1, v2
v_pk_min_i16 v0, v1, v2
v_pk_mad_u16 v0, v1, v2, v3
v_pk_add_u16 v0, v1, v2
v_pk_sub_u16 v0, v1, v2
v_pk_max_u16 v0, v1, v2
v_pk_min_u16 v0, v1, v2
v_pk_fma_f16 v0, v1, v2, v3
v_pk_add_f16 v0, v1, v2
v_pk_mul_f16 v0, v1, v2
v_pk_min_f16 v0, v1, v2
v_pk_max_f16 v0, v1, v2
// DS
ds_add_u32 v1, v2
ds_sub_u32 v1, v2
ds_rsub_u32 v1, v2
ds_inc_u32 v1, v2
ds_dec_u32 v1, v2
ds_min_i32 v1, v2
ds_max_i32 v1, v2
ds_min_u32 v1, v2
ds_max_u32 v1, v2
ds_and_b32 v1, v2
ds_or_b32 v1, v2
ds_xor_b32 v1, v2
ds_mskor_b32 v1, v2, v3
ds_write_b32 v1, v2
ds_write2_b32 v1, v2, v3
ds_write2st64_b32 v1, v2, v3
ds_cmpst_b32 v1, v2, v3
ds_write_b8 v1, v2
ds_write_b16 v1, v2
ds_add_rtn_u32 v1, v2, v3
ds_sub_rtn_u32 v1, v2, v3
ds_rsub_rtn_u32 v1, v2, v3
ds_inc_rtn_u32 v1, v2, v3
ds_dec_rtn_u32 v1, v2, v3
ds_min_rtn_i32 v1, v2, v3
ds_max_rtn_i32 v1, v2, v3
ds_min_rtn_u32 v1, v2, v3
ds_max_rtn_u32 v1, v2, v3
ds_and_rtn_b32 v1, v2, v3
ds_or_rtn_b32 v1, v2, v3
ds_xor_rtn_b32 v1, v2, v3
ds_mskor_rtn_b32 v0, v1, v2, v3
ds_wrxchg_rtn_b32 v1, v2, v3
ds_cmpst_rtn_b32 v0, v1, v2, v3
ds_read_b32 v1, v2
ds_read2_b32 v[2:3], v1
ds_read2st64_b32 v[2:3], v1
ds_read_i8 v1, v2
ds_read_u8 v1, v2
ds_read_i16 v1, v2
ds_read_u16 v1, v2
ds_swizzle_b32 v1, v2
ds_permute_b32 v1, v2, v3
ds_bpermute_b32 v1, v2, v3
ds_add_u64 v1, v[2:3]
ds_sub_u64 v1, v[2:3]
ds_rsub_u64 v1, v[2:3]
ds_inc_u64 v1, v[2:3]
ds_dec_u64 v1, v[2:3]
ds_min_i64 v1, v[2:3]
ds_max_i64 v1, v[2:3]
ds_min_u64 v1, v[2:3]
ds_max_u64 v1, v[2:3]
ds_and_b64 v1, v[2:3]
ds_or_b64 v1, v[2:3]
ds_xor_b64 v1, v[2:3]
ds_mskor_b64 v1, v[2:3], v[6:7]
ds_write_b64 v1, v[2:3]
ds_write2_b64 v1, v[2:3], v[6:7]
ds_write2st64_b64 v1, v[2:3], v[6:7]
ds_add_rtn_u64 v[2:3], v1, v[6:7]
ds_sub_rtn_u64 v[2:3], v1, v[6:7]
ds_rsub_rtn_u64 v[2:3], v1, v[6:7]
ds_inc_rtn_u64 v[2:3], v1, v[6:7]
ds_dec_rtn_u64 v[2:3], v1, v[6:7]
ds_min_rtn_i64 v[2:3], v1, v[6:7]
ds_max_rtn_i64 v[2:3], v1, v[6:7]
ds_min_rtn_u64 v[2:3], v1, v[6:7]
ds_max_rtn_u64 v[2:3], v1, v[6:7]
ds_and_rtn_b64 v[2:3], v1, v[6:7]
ds_or_rtn_b64 v[2:3], v1, v[6:7]
ds_xor_rtn_b64 v[2:3], v1, v[6:7]
ds_mskor_rtn_b64 v[2:3], v1, v[6:7], v[10:11]
ds_read_b64 v[2:3], v1
ds_read2_b64 v[2:5], v1
ds_read2st64_b64 v[2:5], v1
ds_write_b96 v1, v[2:4]
ds_write_b128 v1, v[2:5]
ds_read_b96 v[2:4], v1
ds_read_b128 v[2:5], v1
// FLAT
flat_load_ubyte v0, v[8:9]
flat_load_sbyte v0, v[8:9]
flat_load_ushort v0, v[8:9]
flat_load_sshort v0, v[8:9]
flat_load_dword v0, v[8:9]
flat_load_dwordx2 v[0:1], v[8:9]
flat_load_dwordx3 v[0:2], v[8:9]
flat_load_dwordx4 v[0:3], v[8:9]
flat_store_byte v[8:9], v0
flat_store_byte_d16_hi v[8:9], v0
flat_store_short v[8:9], v0
flat_store_short_d16_hi v[8:9], v0
flat_store_dword v[8:9], v0
flat_store_dwordx2 v[0:1], v[8:9]
flat_store_dwordx3 v[8:9], v[0:2]
flat_store_dwordx4 v[8:9], v[0:3]
flat_atomic_swap v[8:9], v0
flat_atomic_cmpswap v[0:1], v[8:9]
flat_atomic_add v[8:9], v0
flat_atomic_sub v[8:9], v0
flat_atomic_smin v[8:9], v0
flat_atomic_umin v[8:9], v0
flat_atomic_smax v[8:9], v0
flat_atomic_umax v[8:9], v0
flat_atomic_and v[8:9], v0
flat_atomic_or v[8:9], v0
flat_atomic_xor v[8:9], v0
flat_atomic_inc v[8:9], v0
flat_atomic_dec v[8:9], v0
flat_atomic_swap_x2 v[0:1], v[8:9]
flat_atomic_cmpswap_x2 v[8:9], v[0:3]
flat_atomic_add_x2 v[0:1], v[8:9]
flat_atomic_sub_x2 v[0:1], v[8:9]
flat_atomic_smin_x2 v[0:1], v[8:9]
flat_atomic_umin_x2 v[0:1], v[8:9]
flat_atomic_smax_x2 v[0:1], v[8:9]
flat_atomic_umax_x2 v[0:1], v[8:9]
flat_atomic_and_x2 v[0:1], v[8:9]
flat_atomic_or_x2 v[0:1], v[8:9]
flat_atomic_xor_x2 v[0:1], v[8:9]
flat_atomic_inc_x2 v[0:1], v[8:9]
flat_atomic_dec_x2 v[0:1], v[8:9]
global_load_ubyte v0, v[8:9], off
global_load_sbyte v0, v[8:9], off
global_load_ushort v0, v[8:9], off
global_load_sshort v0, v[8:9], off
global_load_dword v0, v[8:9], off
global_load_dwordx2 v[0:1], v[8:9], off
global_load_dwordx3 v[0:2], v[8:9], off
global_load_dwordx4 v[0:3], v[8:9], off
global_store_byte v[8:9], v0, off
global_store_byte_d16_hi v[8:9], v0, off
global_store_short v[8:9], v0, off
global_store_short_d16_hi v[8:9], v0, off
global_store_dword v[8:9], v0, off
global_store_dwordx2 v[0:1], v[8:9], off
global_store_dwordx3 v[8:9], v[0:2], off
global_store_dwordx4 v[8:9], v[0:3], off
global_atomic_swap v0, v[8:9], v4 off glc
global_atomic_cmpswap v[0:1], v[8:9], off
global_atomic_add v0, v[8:9], v4 off glc
global_atomic_sub v0, v[8:9], v4 off glc
global_atomic_smin v0, v[8:9], v4 off glc
global_atomic_umin v0, v[8:9], v4 off glc
global_atomic_smax v0, v[8:9], v4 off glc
global_atomic_umax v0, v[8:9], v4 off glc
global_atomic_and v0, v[8:9], v4 off glc
global_atomic_or v0, v[8:9], v4 off glc
global_atomic_xor v0, v[8:9], v4 off glc
global_atomic_inc v0, v[8:9], v4 off glc
global_atomic_dec v0, v[8:9], v4 off glc
global_atomic_swap_x2 v[0:1], v[8:9], off
global_atomic_cmpswap_x2 v[8:9], v[0:3], off
global_atomic_add_x2 v[0:1], v[8:9], off
global_atomic_sub_x2 v[0:1], v[8:9], off
global_atomic_smin_x2 v[0:1], v[8:9], off
global_atomic_umin_x2 v[0:1], v[8:9], off
global_atomic_smax_x2 v[0:1], v[8:9], off
global_atomic_umax_x2 v[0:1], v[8:9], off
global_atomic_and_x2 v[0:1], v[8:9], off
global_atomic_or_x2 v[0:1], v[8:9], off
global_atomic_xor_x2 v[0:1], v[8:9], off
global_atomic_inc_x2 v[0:1], v[8:9], off
global_atomic_dec_x2 v[0:1], v[8:9], off
// MUBUF
buffer_load_ubyte v0, off, s[0:3], s4
buffer_load_sbyte v0, off, s[0:3], s4
buffer_load_ushort v0, off, s[0:3], s4
buffer_load_sshort v0, off, s[0:3], s4
buffer_load_dword v0, off, s[0:3], s4
buffer_load_dwordx2 v[0:1], off, s[0:3], s4
buffer_load_dwordx3 v[0:2], off, s[0:3], s4
buffer_load_dwordx4 v[0:3], off, s[0:3], s4
buffer_store_byte v0, off, s[0:3], s4
buffer_store_byte_d16_hi v0, off, s[0:3], s4
buffer_store_short v0, off, s[0:3], s4
buffer_store_short_d16_hi v0, off, s[0:3], s4
buffer_store_dword v0, off, s[0:3], s4
buffer_store_dwordx2 v[0:1], off, s[0:3], s4
buffer_store_dwordx3 v[0:2], off, s[0:3], s4
buffer_store_dwordx4 v[0:3], off, s[0:3], s4
// issue 28: memory classes, cache control, time, messages
s_setreg_b32 0x1, s0
s_setreg_imm32_b32 0x1, 0x0
s_sendmsg sendmsg(MSG_INTERRUPT)
s_sendmsghalt sendmsg(MSG_INTERRUPT)
s_ttracedata
s_dcache_inv_vol
s_dcache_wb_vol
s_memtime s[0:1]
s_memrealtime s[0:1]
flat_load_ubyte_d16 v0, v[8:9]
flat_load_ubyte_d16_hi v0, v[8:9]
flat_load_sbyte_d16 v0, v[8:9]
flat_load_sbyte_d16_hi v0, v[8:9]
flat_load_short_d16 v0, v[8:9]
flat_load_short_d16_hi v0, v[8:9]
global_load_ubyte_d16 v0, v[8:9], off
global_load_short_d16_hi v0, v[8:9], off
scratch_load_dword v0, v8, off
scratch_load_ubyte_d16_hi v0, off, s4
scratch_store_dword off, v0, s4
scratch_store_short_d16_hi v8, v0, off
buffer_load_format_x v0, off, s[0:3], s4
buffer_load_format_xy v[0:1], off, s[0:3], s4
buffer_load_format_xyz v[0:2], off, s[0:3], s4
buffer_load_format_xyzw v[0:3], off, s[0:3], s4
buffer_store_format_x v0, off, s[0:3], s4
buffer_store_format_xy v[0:1], off, s[0:3], s4
buffer_store_format_xyz v[0:2], off, s[0:3], s4
buffer_store_format_xyzw v[0:3], off, s[0:3], s4
buffer_load_ubyte_d16 v0, off, s[0:3], s4
buffer_load_ubyte_d16_hi v0, off, s[0:3], s4
buffer_load_sbyte_d16 v0, off, s[0:3], s4
buffer_load_sbyte_d16_hi v0, off, s[0:3], s4
buffer_load_short_d16 v0, off, s[0:3], s4
buffer_load_short_d16_hi v0, off, s[0:3], s4
buffer_wbinvl1
buffer_wbinvl1_vol
buffer_atomic_swap v0, off, s[0:3], s4
buffer_atomic_cmpswap v[0:1], off, s[0:3], s4
buffer_atomic_add v0, off, s[0:3], s4
buffer_atomic_sub v0, off, s[0:3], s4
buffer_atomic_smin v0, off, s[0:3], s4
buffer_atomic_umin v0, off, s[0:3], s4
buffer_atomic_smax v0, off, s[0:3], s4
buffer_atomic_umax v0, off, s[0:3], s4
buffer_atomic_and v0, off, s[0:3], s4
buffer_atomic_or v0, off, s[0:3], s4
buffer_atomic_xor v0, off, s[0:3], s4
buffer_atomic_inc v0, off, s[0:3], s4
buffer_atomic_dec v0, off, s[0:3], s4
buffer_atomic_swap_x2 v[0:1], off, s[0:3], s4
buffer_atomic_cmpswap_x2 v[0:3], off, s[0:3], s4
buffer_atomic_add_x2 v[0:1], off, s[0:3], s4
buffer_atomic_sub_x2 v[0:1], off, s[0:3], s4
buffer_atomic_smin_x2 v[0:1], off, s[0:3], s4
buffer_atomic_umin_x2 v[0:1], off, s[0:3], s4
buffer_atomic_smax_x2 v[0:1], off, s[0:3], s4
buffer_atomic_umax_x2 v[0:1], off, s[0:3], s4
buffer_atomic_and_x2 v[0:1], off, s[0:3], s4
buffer_atomic_or_x2 v[0:1], off, s[0:3], s4
buffer_atomic_xor_x2 v[0:1], off, s[0:3], s4
buffer_atomic_inc_x2 v[0:1], off, s[0:3], s4
buffer_atomic_dec_x2 v[0:1], off, s[0:3], s4
tbuffer_load_format_x v0, off, s[0:3], dfmt:4, nfmt:7, s4
tbuffer_load_format_xy v[0:1], off, s[0:3], dfmt:4, nfmt:7, s4
tbuffer_load_format_xyz v[0:2], off, s[0:3], dfmt:4, nfmt:7, s4
tbuffer_load_format_xyzw v[0:3], off, s[0:3], dfmt:4, nfmt:7, s4
tbuffer_store_format_x v0, off, s[0:3], dfmt:4, nfmt:7, s4
tbuffer_store_format_xy v[0:1], off, s[0:3], dfmt:4, nfmt:7, s4
tbuffer_store_format_xyz v[0:2], off, s[0:3], dfmt:4, nfmt:7, s4
tbuffer_store_format_xyzw v[0:3], off, s[0:3], dfmt:4, nfmt:7, s4
// Issue 28: the ALU instructions clang emits that were missing
s_bfe_u64 s[0:1], s[2:3], s4
s_bfe_i64 s[0:1], s[2:3], s4
s_pack_ll_b32_b16 s0, s1, s2
s_pack_lh_b32_b16 s0, s1, s2
s_pack_hh_b32_b16 s0, s1, s2
s_cmpk_le_i32 s0, 0x1
s_cmpk_le_u32 s0, 0x1
s_wqm_b32 s0, s1
s_wqm_b64 s[0:1], s[2:3]
s_brev_b32 s0, s1
s_brev_b64 s[0:1], s[2:3]
s_bcnt0_i32_b32 s0, s1
s_bcnt0_i32_b64 s0, s[2:3]
s_ff0_i32_b32 s0, s1
s_ff0_i32_b64 s0, s[2:3]
s_flbit_i32_b32 s0, s1
s_flbit_i32_b64 s0, s[2:3]
s_flbit_i32 s0, s1
s_flbit_i32_i64 s0, s[2:3]
s_sext_i32_i8 s0, s1
s_sext_i32_i16 s0, s1
s_bitset0_b32 s0, s1
s_bitset0_b64 s[0:1], s2
s_bitset1_b32 s0, s1
s_bitset1_b64 s[0:1], s2
s_quadmask_b32 s0, s1
s_quadmask_b64 s[0:1], s[2:3]
s_movrels_b32 s0, s1
s_movrels_b64 s[0:1], s[2:3]
s_movreld_b32 s0, s1
s_movreld_b64 s[0:1], s[2:3]
s_andn1_saveexec_b64 s[0:1], s[2:3]
s_orn1_saveexec_b64 s[0:1], s[2:3]
s_andn1_wrexec_b64 s[0:1], s[2:3]
s_andn2_wrexec_b64 s[0:1], s[2:3]
s_bitreplicate_b64_b32 s[0:1], s1
v_cvt_off_f32_i4 v0, v1
v_cvt_off_f32_i4_e64 v0, v1
v_clrexcp
v_log_f16 v0, v1
v_log_f16_e64 v0, v1
v_exp_f16 v0, v1
v_exp_f16_e64 v0, v1
v_frexp_mant_f16 v0, v1
v_frexp_mant_f16_e64 v0, v1
v_frexp_exp_i16_f16 v0, v1
v_frexp_exp_i16_f16_e64 v0, v1
v_sin_f16 v0, v1
v_sin_f16_e64 v0, v1
v_cos_f16 v0, v1
v_cos_f16_e64 v0, v1
v_exp_legacy_f32 v0, v1
v_exp_legacy_f32_e64 v0, v1
v_log_legacy_f32 v0, v1
v_log_legacy_f32_e64 v0, v1
v_cvt_norm_i16_f16 v0, v1
v_cvt_norm_i16_f16_e64 v0, v1
v_cvt_norm_u16_f16 v0, v1
v_cvt_norm_u16_f16_e64 v0, v1
v_sat_pk_u8_i16 v0, v1
v_sat_pk_u8_i16_e64 v0, v1
v_swap_b32 v0, v1
v_cubeid_f32 v0, v1, v2, v3
v_cubesc_f32 v0, v1, v2, v3
v_cubetc_f32 v0, v1, v2, v3
v_cubema_f32 v0, v1, v2, v3
v_lerp_u8 v0, v1, v2, v3
v_sad_u8 v0, v1, v2, v3
v_sad_hi_u8 v0, v1, v2, v3
v_sad_u16 v0, v1, v2, v3
v_cvt_pk_u8_f32 v0, v1, v2, v3
v_msad_u8 v0, v1, v2, v3
v_qsad_pk_u16_u8 v[0:1], v[2:3], v4, v[6:7]
v_mqsad_pk_u16_u8 v[0:1], v[2:3], v4, v[6:7]
v_mqsad_u32_u8 v[0:3], v[4:5], v6, v[8:11]
v_mad_legacy_f16 v0, v1, v2, v3
v_mad_legacy_u16 v0, v1, v2, v3
v_mad_legacy_i16 v0, v1, v2, v3
v_fma_legacy_f16 v0, v1, v2, v3
v_div_fixup_legacy_f16 v0, v1, v2, v3
v_cvt_pkaccum_u8_f32 v0, v1, v2
v_mad_i32_i16 v0, v1, v2, v3
v_min3_f16 v0, v1, v2, v3
v_min3_i16 v0, v1, v2, v3
v_min3_u16 v0, v1, v2, v3
v_max3_f16 v0, v1, v2, v3
v_max3_i16 v0, v1, v2, v3
v_max3_u16 v0, v1, v2, v3
v_med3_f16 v0, v1, v2, v3
v_med3_i16 v0, v1, v2, v3
v_med3_u16 v0, v1, v2, v3
v_mad_u16 v0, v1, v2, v3
v_mad_i16 v0, v1, v2, v3
v_div_fixup_f16 v0, v1, v2, v3
v_trig_preop_f64 v[0:1], v[2:3], v4
v_cvt_pknorm_i16_f32 v0, v1, v2
v_cvt_pknorm_u16_f32 v0, v1, v2
v_cvt_pk_i16_i32 v0, v1, v2
v_cvt_pknorm_i16_f16 v0, v1, v2
v_cvt_pknorm_u16_f16 v0, v1, v2
v_add_i16 v0, v1, v2
v_sub_i16 v0, v1, v2
v_mad_mix_f32 v0, v1, v2, v3
v_mad_mixlo_f16 v0, v1, v2, v3
v_mad_mixhi_f16 v0, v1, v2, v3
ds_cmpst_f32 v1, v2, v3
ds_min_f32 v1, v2
ds_max_f32 v1, v2
ds_nop
ds_gws_sema_release_all gds
ds_gws_init v1 offset:3 gds
ds_gws_sema_v gds
ds_gws_sema_br v2 gds
ds_gws_sema_p gds
ds_gws_barrier v1 gds
ds_add_f32 v1, v2
ds_wrxchg2_rtn_b32 v[0:1], v1, v2, v3
ds_wrxchg2st64_rtn_b32 v[0:1], v1, v2, v3
ds_cmpst_rtn_f32 v0, v1, v2, v3
ds_min_rtn_f32 v0, v1, v2
ds_max_rtn_f32 v0, v1, v2
ds_wrap_rtn_b32 v0, v1, v2, v3
ds_add_rtn_f32 v0, v1, v2
ds_cmpst_b64 v1, v[2:3], v[4:5]
ds_cmpst_f64 v1, v[2:3], v[4:5]
ds_min_f64 v1, v[2:3]
ds_max_f64 v1, v[2:3]
ds_write_b8_d16_hi v1, v2
ds_write_b16_d16_hi v1, v2
ds_read_u8_d16 v0, v1
ds_read_u8_d16_hi v0, v1
ds_read_i8_d16 v0, v1
ds_read_i8_d16_hi v0, v1
ds_read_u16_d16 v0, v1
ds_read_u16_d16_hi v0, v1
ds_wrxchg_rtn_b64 v[0:1], v1, v[2:3]
ds_wrxchg2_rtn_b64 v[0:3], v1, v[2:3], v[4:5]
ds_wrxchg2st64_rtn_b64 v[0:3], v1, v[2:3], v[4:5]
ds_cmpst_rtn_b64 v[0:1], v1, v[2:3], v[4:5]
ds_cmpst_rtn_f64 v[0:1], v1, v[2:3], v[4:5]
ds_min_rtn_f64 v[0:1], v1, v[2:3]
ds_max_rtn_f64 v[0:1], v1, v[2:3]
