// SPDX-License-Identifier: GPL-2.0-or-later
// One instruction per line, in the order of the table in
// tests/unit/test-gcn-insn.c: assembled at build time by Debian's
// llvm-mc for gfx900, and the encodings it prints are what the test runs.
// Sources v10, v12, v14 (pairs v[10:11]...), s10, s12; results v0, s0, vcc,
// s[20:21]. v0 starts as 0xdeadbeef (SDWA and DPP leave parts or lanes),
// s0 too and s1 0x0badf00d (scalar ones that keep bits of D). Cases the
// table marks run with VCC, EXEC (partial: lanes it leaves out must keep
// v0, and compares give them 0) or M0 set.
v_add_u32 v0, v10, v12
v_sub_u32 v0, v10, v12
v_subrev_u32 v0, v10, v12
v_mul_lo_u32 v0, v10, v12
v_mul_hi_u32 v0, v10, v12
v_mul_hi_i32 v0, v10, v12
v_mul_u32_u24 v0, v10, v12
v_mul_i32_i24 v0, v10, v12
v_mul_hi_u32_u24 v0, v10, v12
v_mul_hi_i32_i24 v0, v10, v12
v_min_i32 v0, v10, v12
v_max_u32 v0, v10, v12
v_lshlrev_b32 v0, v10, v12
v_lshrrev_b32 v0, v10, v12
v_ashrrev_i32 v0, v10, v12
v_and_b32 v0, v10, v12
v_or_b32 v0, v10, v12
v_xor_b32 v0, v10, v12
v_not_b32 v0, v10
v_bfrev_b32 v0, v10
v_ffbh_u32 v0, v10
v_ffbl_b32 v0, v10
v_ffbh_i32 v0, v10
v_bcnt_u32_b32 v0, v10, v12
v_bfm_b32 v0, v10, v12
v_bfe_u32 v0, v10, v12, v14
v_bfe_i32 v0, v10, v12, v14
v_bfi_b32 v0, v10, v12, v14
v_alignbit_b32 v0, v10, v12, v14
v_alignbyte_b32 v0, v10, v12, v14
v_perm_b32 v0, v10, v12, v14
v_min3_i32 v0, v10, v12, v14
v_max3_u32 v0, v10, v12, v14
v_med3_i32 v0, v10, v12, v14
v_med3_u32 v0, v10, v12, v14
v_sad_u32 v0, v10, v12, v14
v_xad_u32 v0, v10, v12, v14
v_lshl_add_u32 v0, v10, v12, v14
v_add_lshl_u32 v0, v10, v12, v14
v_add3_u32 v0, v10, v12, v14
v_lshl_or_b32 v0, v10, v12, v14
v_and_or_b32 v0, v10, v12, v14
v_or3_b32 v0, v10, v12, v14
v_mad_u32_u24 v0, v10, v12, v14
v_mad_u32_u16 v0, v10, v12, v14
v_add_u16 v0, v10, v12
v_mul_lo_u16 v0, v10, v12
v_ashrrev_i16 v0, v10, v12
v_max_i16 v0, v10, v12
v_add_i32 v0, v10, v12 clamp
v_add_u32_e64 v0, v10, v12 clamp
v_add_u32 v0, 0x12345678, v12
v_lshlrev_b64 v[0:1], v10, v[12:13]
v_ashrrev_i64 v[0:1], v10, v[12:13]
v_add_f32 v0, v10, v12
v_sub_f32 v0, v10, v12
v_mul_f32 v0, v10, v12
v_mul_legacy_f32 v0, v10, v12
v_min_f32 v0, v10, v12
v_max_f32 v0, v10, v12
v_add_f32_e64 v0, -|v10|, v12
v_mul_f32_e64 v0, v10, v12 mul:2
v_add_f32_e64 v0, v10, v12 clamp
v_fma_f32 v0, v10, v12, v14
v_mad_f32 v0, v10, v12, v14
v_min3_f32 v0, v10, v12, v14
v_max3_f32 v0, v10, v12, v14
v_med3_f32 v0, v10, v12, v14
v_ldexp_f32 v0, v10, v12
v_cvt_f32_i32 v0, v10
v_cvt_f32_u32 v0, v10
v_cvt_i32_f32 v0, v10
v_cvt_u32_f32 v0, v10
v_cvt_rpi_i32_f32 v0, v10
v_cvt_flr_i32_f32 v0, v10
v_cvt_f32_ubyte2 v0, v10
v_floor_f32 v0, v10
v_ceil_f32 v0, v10
v_trunc_f32 v0, v10
v_rndne_f32 v0, v10
v_fract_f32 v0, v10
v_sqrt_f32 v0, v10
v_rcp_f32 v0, v10
v_rsq_f32 v0, v10
v_exp_f32 v0, v10
v_log_f32 v0, v10
v_sin_f32 v0, v10
v_frexp_mant_f32 v0, v10
v_frexp_exp_i32_f32 v0, v10
v_add_f64 v[0:1], v[10:11], v[12:13]
v_mul_f64 v[0:1], v[10:11], v[12:13]
v_fma_f64 v[0:1], v[10:11], v[12:13], v[14:15]
v_min_f64 v[0:1], v[10:11], v[12:13]
v_max_f64 v[0:1], v[10:11], v[12:13]
v_ldexp_f64 v[0:1], v[10:11], v12
v_add_f64 v[0:1], v[10:11], -v[12:13]
v_floor_f64 v[0:1], v[10:11]
v_trunc_f64 v[0:1], v[10:11]
v_rndne_f64 v[0:1], v[10:11]
v_fract_f64 v[0:1], v[10:11]
v_sqrt_f64 v[0:1], v[10:11]
v_rcp_f64 v[0:1], v[10:11]
v_cvt_f64_f32 v[0:1], v10
v_cvt_f32_f64 v0, v[10:11]
v_cvt_f64_i32 v[0:1], v10
v_cvt_i32_f64 v0, v[10:11]
v_cvt_u32_f64 v0, v[10:11]
v_frexp_exp_i32_f64 v0, v[10:11]
v_cvt_f16_f32 v0, v10
v_cvt_f32_f16 v0, v10
v_add_f16 v0, v10, v12
v_mul_f16 v0, v10, v12
v_max_f16 v0, v10, v12
v_fma_f16 v0, v10, v12, v14
v_cvt_pkrtz_f16_f32 v0, v10, v12
v_cvt_u16_f16 v0, v10
v_cmp_lt_f32 vcc, v10, v12
v_cmp_nge_f32 vcc, v10, v12
v_cmp_u_f32 vcc, v10, v12
v_cmp_lg_f32 vcc, v10, v12
v_cmp_class_f32 vcc, v10, v12
v_cmp_le_f64 vcc, v[10:11], v[12:13]
v_cmp_o_f64 vcc, v[10:11], v[12:13]
v_cmp_class_f64 vcc, v[10:11], v12
v_cmp_gt_f16 vcc, v10, v12
v_cmp_lt_i32 vcc, v10, v12
v_cmp_ge_u32 vcc, v10, v12
v_cmp_ne_u64 vcc, v[10:11], v[12:13]
v_cmp_lt_i64 vcc, v[10:11], v[12:13]
v_cmp_eq_u16 vcc, v10, v12
v_cmp_gt_i16 vcc, v10, v12
v_cmp_lt_u32_e64 s[20:21], v10, v12
s_add_u32 s0, s10, s12
s_sub_u32 s0, s10, s12
s_add_i32 s0, s10, s12
s_min_i32 s0, s10, s12
s_max_u32 s0, s10, s12
s_and_b32 s0, s10, s12
s_andn2_b64 s[0:1], s[10:11], s[12:13]
s_orn2_b64 s[0:1], s[10:11], s[12:13]
s_nand_b32 s0, s10, s12
s_xnor_b64 s[0:1], s[10:11], s[12:13]
s_lshl_b32 s0, s10, s12
s_lshr_b64 s[0:1], s[10:11], s12
s_ashr_i32 s0, s10, s12
s_bfe_u32 s0, s10, s12
s_bfe_i32 s0, s10, s12
s_mul_i32 s0, s10, s12
s_mul_hi_u32 s0, s10, s12
s_absdiff_i32 s0, s10, s12
s_lshl2_add_u32 s0, s10, s12
s_not_b32 s0, s10
s_bcnt1_i32_b64 s0, s[10:11]
s_ff1_i32_b32 s0, s10
s_abs_i32 s0, s10
s_cmp_lt_i32 s10, s12
s_cmp_ge_u32 s10, s12
s_cmp_lg_u64 s[10:11], s[12:13]
s_bitcmp1_b32 s10, s12
s_add_u32 s0, s10, 0x89abcdef
s_mov_b32 s0, -7
v_add_u32_sdwa v0, sext(v10), v12 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_2 src1_sel:WORD_0
v_max_u16_sdwa v0, v10, v12 dst_sel:BYTE_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0
v_mov_b32_sdwa v0, v10 dst_sel:BYTE_0 dst_unused:UNUSED_SEXT src0_sel:BYTE_3
v_add_f32_sdwa v0, -v10, |v12| dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
v_mul_f16_sdwa v0, v10, v12 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0
v_cmp_eq_u16_sdwa vcc, v10, v12 src0_sel:BYTE_1 src1_sel:BYTE_0
v_cmp_lt_u32_sdwa s[20:21], v10, v12 src0_sel:BYTE_0 src1_sel:WORD_1
v_pk_mul_lo_u16 v0, v10, v12
v_pk_add_u16 v0, v10, v12 op_sel:[1,0] op_sel_hi:[0,1]
v_pk_sub_i16 v0, v10, v12 clamp
v_pk_max_i16 v0, v10, v12
v_pk_lshlrev_b16 v0, v10, v12
v_pk_fma_f16 v0, v10, v12, v14
v_pk_fma_f16 v0, v10, v12, v14 neg_lo:[1,0,0] neg_hi:[0,1,0]
v_pk_add_f16 v0, v10, v12
v_pk_max_f16 v0, v10, v12
v_mov_b32_dpp v0, v10 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_add_u32_dpp v0, v10, v12 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
v_mov_b32_dpp v0, v10 row_shl:2 row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v0, v10 row_bcast:15 row_mask:0xa bank_mask:0xf
v_mov_b32_dpp v0, v10 wave_ror:1 row_mask:0xf bank_mask:0xf
v_add_f32_dpp v0, -v10, v12 row_mirror row_mask:0xf bank_mask:0x5
// Inline constants by operand type (issue 28): f16 ones are halves
// (1.0 = 0x3c00), f64 ones doubles, a f64 literal the double's high
// half, 32-bit integer operands the f32 bit pattern; packed f16 ones
// the half in the low 16 bits and 0 in the high ones (op_sel_hi picks)
v_add_f16 v0, 1.0, v10
v_mul_f16 v0, 0.5, v10
v_sub_f16 v0, -4.0, v10
v_mul_f16_e64 v0, v10, 0.15915494
v_fma_f16 v0, v10, 2.0, -1.0
v_max_f16_e64 v0, v10, -2.0
v_cvt_f32_f16 v0, -0.5
v_add_f16_sdwa v0, 1.0, v10 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:WORD_1
v_add_f64 v[0:1], -0.5, v[10:11]
v_trunc_f64 v[0:1], 2.5
v_cvt_f32_f64 v0, -3.0
v_add_u32 v0, 1.0, v10
v_add_u16 v0, -1, v10
v_add_f32 v0, 4.0, v10
v_pk_add_f16 v0, v10, 1.0
v_pk_add_f16 v0, v10, 1.0 op_sel_hi:[1,0]
v_pk_mul_f16 v0, -2.0, v10 op_sel_hi:[0,1]
v_pk_fma_f16 v0, v10, 0.5, v12 op_sel_hi:[1,0,1]
v_pk_add_u16 v0, v10, -1
// Addresses at the ISA's widths: DS base + offset wraps at 32 bits (LDS
// 64 KiB of a pattern); SMEM's immediate offset is signed 21 bits
ds_read_u16 v0, v10 offset:510
ds_read_b32 v0, v10 offset:8
ds_read_i8 v0, v10 offset:65535
ds_read2_b32 v[0:1], v10 offset0:1 offset1:255
ds_read_b64 v[0:1], v10 offset:65528
s_load_dword s0, s[10:11], -4
s_load_dwordx2 s[0:1], s[10:11], -0x100000
s_load_dword s0, s[10:11], 0xfffff
s_brev_b32 s0, s10
s_brev_b64 s[0:1], s[10:11]
s_wqm_b64 s[0:1], s[10:11]
s_quadmask_b32 s0, s10
s_bcnt0_i32_b32 s0, s10
s_ff0_i32_b64 s0, s[10:11]
s_flbit_i32_b32 s0, s10
s_flbit_i32 s0, s10
s_flbit_i32_i64 s0, s[10:11]
s_sext_i32_i8 s0, s10
s_sext_i32_i16 s0, s10
s_bitset1_b32 s0, s10
s_bitset1_b64 s[0:1], s10
s_bitreplicate_b64_b32 s[0:1], s10
s_andn1_saveexec_b64 s[0:1], s[10:11]
s_pack_lh_b32_b16 s0, s10, s12
s_pack_hh_b32_b16 s0, s10, s12
s_bfe_u64 s[0:1], s[10:11], s12
s_bfe_i64 s[0:1], s[10:11], s12
s_cmpk_le_i32 s10, 0x1234
s_cmpk_le_u32 s10, 0xfff0
s_movrels_b32 s0, s10
v_exp_f16 v0, v10
v_log_f16 v0, v10
v_sin_f16 v0, v10
v_cos_f16 v0, v10
v_frexp_mant_f16 v0, v10
v_frexp_exp_i16_f16 v0, v10
v_exp_legacy_f32 v0, v10
v_log_legacy_f32 v0, v10
v_cvt_norm_i16_f16 v0, v10
v_cvt_norm_u16_f16 v0, v10
v_cvt_pknorm_i16_f32 v0, v10, v12
v_cvt_pknorm_u16_f16 v0, v10, v12
v_sat_pk_u8_i16 v0, v10
v_cvt_off_f32_i4 v0, v10
v_swap_b32 v0, v10
v_cubeid_f32 v0, v10, v12, v14
v_cubesc_f32 v0, v10, v12, v14
v_cubetc_f32 v0, v10, v12, v14
v_cubema_f32 v0, v10, v12, v14
v_lerp_u8 v0, v10, v12, v14
v_sad_u8 v0, v10, v12, v14
v_sad_hi_u8 v0, v10, v12, v14
v_sad_u16 v0, v10, v12, v14
v_msad_u8 v0, v10, v12, v14
v_qsad_pk_u16_u8 v[0:1], v[10:11], v12, v[14:15]
v_mqsad_pk_u16_u8 v[0:1], v[10:11], v12, v[14:15]
v_mad_legacy_f16 v0, v10, v12, v14
v_mad_legacy_u16 v0, v10, v12, v14
v_mad_legacy_i16 v0, v10, v12, v14
v_fma_legacy_f16 v0, v10, v12, v14
v_div_fixup_legacy_f16 v0, v10, v12, v14
v_div_fixup_f16 v0, v10, v12, v14
v_mad_u16 v0, v10, v12, v14 op_sel:[1,0,1,1]
v_mad_i16 v0, v10, v12, v14 clamp
v_min3_f16 v0, v10, v12, v14
v_med3_f16 v0, v10, v12, v14
v_max3_i16 v0, v10, v12, v14
v_med3_u16 v0, v10, v12, v14
v_add_i16 v0, v10, v12 op_sel:[1,1,0] clamp
v_sub_i16 v0, v10, v12
v_mad_i32_i16 v0, v10, v12, v14 op_sel:[1,1,0,0]
v_cvt_pk_i16_i32 v0, v10, v12
v_cvt_pk_u8_f32 v0, v10, v12, v14
v_cvt_pkaccum_u8_f32 v0, v10, v12
v_trig_preop_f64 v[0:1], v[10:11], v12
v_pack_b32_f16 v0, v10, v12 op_sel:[1,0]
v_mad_mix_f32 v0, v10, v12, v14 op_sel_hi:[1,0,1]
v_mad_mixlo_f16 v0, v10, v12, v14 op_sel:[1,0,0] op_sel_hi:[1,1,1]
v_mad_mixhi_f16 v0, v10, v12, v14 op_sel_hi:[1,1,1]
ds_add_rtn_f32 v0, v10, v12
ds_add_f32 v10, v12
ds_min_rtn_f32 v0, v10, v12
ds_max_rtn_f64 v[0:1], v10, v[12:13]
ds_cmpst_rtn_f32 v0, v10, v12, v14
ds_cmpst_rtn_b64 v[0:1], v10, v[12:13], v[14:15]
ds_cmpst_f64 v10, v[12:13], v[14:15]
ds_wrap_rtn_b32 v0, v10, v12, v14
ds_wrxchg_rtn_b64 v[0:1], v10, v[12:13]
v_mac_f16 v0, v10, v12
v_madak_f16 v0, v10, v12, 0x4200
v_madmk_f16 v0, v10, 0x4200, v12
v_mac_f16_e64 v0, v10, v12
v_cmp_eq_f16 vcc, 0, v10
v_add_f16 v0, v10, v12
v_mul_f16 v0, v10, v12
v_fma_f16 v0, v10, v12, v14
v_cvt_f32_f16 v0, v10
v_cvt_f16_f32 v0, v10
v_cmp_eq_f16 vcc, 0, v10
v_pk_add_f16 v0, v10, v12
v_mad_mixlo_f16 v0, v10, v12, v14 op_sel:[1,0,0] op_sel_hi:[1,1,1]
// v_div_fmas with VCC set in some lanes (VCC_PAT): the scaled fma
// rounded once, into the denormals too
v_div_fmas_f64 v[0:1], v[10:11], v[12:13], v[14:15]
v_div_fmas_f32 v0, v10, v12, v14
// VOPC DPP, hand-assembled: the literal is the DPP control dword (src0
// v10; quad_perm:[1,0,3,2] row_mask:0xa bank_mask:0xf, then row_shr:1
// bound_ctrl:0 src0_neg row_mask:0xf bank_mask:0xf), the test makes
// src0 0xfa
v_cmpx_gt_u32 vcc, 0xaf00b10a, v12
v_cmpx_lt_f32 vcc, 0xff19110a, v12
v_mqsad_u32_u8 v[0:3], v[10:11], v12, v[14:17]
// s0 OLD, s1 OLDHI before; M0 2, 2, 5, 4
s_bitset0_b32 s0, s10
s_bitset0_b64 s[0:1], s10
s_movrels_b32 s0, s10
s_movrels_b64 s[0:1], s[10:11]
s_movreld_b32 s0, s10
s_movreld_b64 s[0:1], s[10:11]
// Compares with EXEC_PAT (0 in the lanes it leaves out; v_cmpx: EXEC too)
v_cmpx_class_f32 vcc, v10, v12
v_cmpx_class_f64 vcc, v[10:11], v12
v_cmp_class_f16 vcc, v10, v12
v_cmpx_class_f16 vcc, v10, v12
v_cmp_f_f16 vcc, v10, v12
v_cmp_lt_f16 vcc, v10, v12
v_cmp_le_f16 vcc, v10, v12
v_cmp_lg_f16 vcc, v10, v12
v_cmp_ge_f16 vcc, v10, v12
v_cmp_o_f16 vcc, v10, v12
v_cmp_u_f16 vcc, v10, v12
v_cmp_nge_f16 vcc, v10, v12
v_cmp_nlg_f16 vcc, v10, v12
v_cmp_ngt_f16 vcc, v10, v12
v_cmp_nle_f16 vcc, v10, v12
v_cmp_neq_f16 vcc, v10, v12
v_cmp_nlt_f16 vcc, v10, v12
v_cmp_tru_f16 vcc, v10, v12
v_cmpx_f_f16 vcc, v10, v12
v_cmpx_lt_f16 vcc, v10, v12
v_cmpx_eq_f16 vcc, v10, v12
v_cmpx_le_f16 vcc, v10, v12
v_cmpx_gt_f16 vcc, v10, v12
v_cmpx_lg_f16 vcc, v10, v12
v_cmpx_ge_f16 vcc, v10, v12
v_cmpx_o_f16 vcc, v10, v12
v_cmpx_u_f16 vcc, v10, v12
v_cmpx_nge_f16 vcc, v10, v12
v_cmpx_nlg_f16 vcc, v10, v12
v_cmpx_ngt_f16 vcc, v10, v12
v_cmpx_nle_f16 vcc, v10, v12
v_cmpx_neq_f16 vcc, v10, v12
v_cmpx_nlt_f16 vcc, v10, v12
v_cmpx_tru_f16 vcc, v10, v12
v_cmp_f_f32 vcc, v10, v12
v_cmp_eq_f32 vcc, v10, v12
v_cmp_le_f32 vcc, v10, v12
v_cmp_gt_f32 vcc, v10, v12
v_cmp_ge_f32 vcc, v10, v12
v_cmp_o_f32 vcc, v10, v12
v_cmp_nlg_f32 vcc, v10, v12
v_cmp_ngt_f32 vcc, v10, v12
v_cmp_nle_f32 vcc, v10, v12
v_cmp_neq_f32 vcc, v10, v12
v_cmp_nlt_f32 vcc, v10, v12
v_cmp_tru_f32 vcc, v10, v12
v_cmpx_f_f32 vcc, v10, v12
v_cmpx_lt_f32 vcc, v10, v12
v_cmpx_eq_f32 vcc, v10, v12
v_cmpx_le_f32 vcc, v10, v12
v_cmpx_gt_f32 vcc, v10, v12
v_cmpx_lg_f32 vcc, v10, v12
v_cmpx_ge_f32 vcc, v10, v12
v_cmpx_o_f32 vcc, v10, v12
v_cmpx_u_f32 vcc, v10, v12
v_cmpx_nge_f32 vcc, v10, v12
v_cmpx_nlg_f32 vcc, v10, v12
v_cmpx_ngt_f32 vcc, v10, v12
v_cmpx_nle_f32 vcc, v10, v12
v_cmpx_neq_f32 vcc, v10, v12
v_cmpx_nlt_f32 vcc, v10, v12
v_cmpx_tru_f32 vcc, v10, v12
v_cmp_f_f64 vcc, v[10:11], v[12:13]
v_cmp_lt_f64 vcc, v[10:11], v[12:13]
v_cmp_eq_f64 vcc, v[10:11], v[12:13]
v_cmp_gt_f64 vcc, v[10:11], v[12:13]
v_cmp_lg_f64 vcc, v[10:11], v[12:13]
v_cmp_ge_f64 vcc, v[10:11], v[12:13]
v_cmp_u_f64 vcc, v[10:11], v[12:13]
v_cmp_nge_f64 vcc, v[10:11], v[12:13]
v_cmp_nlg_f64 vcc, v[10:11], v[12:13]
v_cmp_ngt_f64 vcc, v[10:11], v[12:13]
v_cmp_nle_f64 vcc, v[10:11], v[12:13]
v_cmp_neq_f64 vcc, v[10:11], v[12:13]
v_cmp_nlt_f64 vcc, v[10:11], v[12:13]
v_cmp_tru_f64 vcc, v[10:11], v[12:13]
v_cmpx_f_f64 vcc, v[10:11], v[12:13]
v_cmpx_lt_f64 vcc, v[10:11], v[12:13]
v_cmpx_eq_f64 vcc, v[10:11], v[12:13]
v_cmpx_le_f64 vcc, v[10:11], v[12:13]
v_cmpx_gt_f64 vcc, v[10:11], v[12:13]
v_cmpx_lg_f64 vcc, v[10:11], v[12:13]
v_cmpx_ge_f64 vcc, v[10:11], v[12:13]
v_cmpx_o_f64 vcc, v[10:11], v[12:13]
v_cmpx_u_f64 vcc, v[10:11], v[12:13]
v_cmpx_nge_f64 vcc, v[10:11], v[12:13]
v_cmpx_nlg_f64 vcc, v[10:11], v[12:13]
v_cmpx_ngt_f64 vcc, v[10:11], v[12:13]
v_cmpx_nle_f64 vcc, v[10:11], v[12:13]
v_cmpx_neq_f64 vcc, v[10:11], v[12:13]
v_cmpx_nlt_f64 vcc, v[10:11], v[12:13]
v_cmpx_tru_f64 vcc, v[10:11], v[12:13]
v_cmp_f_i16 vcc, v10, v12
v_cmp_lt_i16 vcc, v10, v12
v_cmp_eq_i16 vcc, v10, v12
v_cmp_le_i16 vcc, v10, v12
v_cmp_ne_i16 vcc, v10, v12
v_cmp_ge_i16 vcc, v10, v12
v_cmp_t_i16 vcc, v10, v12
v_cmp_f_u16 vcc, v10, v12
v_cmp_lt_u16 vcc, v10, v12
v_cmp_le_u16 vcc, v10, v12
v_cmp_gt_u16 vcc, v10, v12
v_cmp_ne_u16 vcc, v10, v12
v_cmp_ge_u16 vcc, v10, v12
v_cmp_t_u16 vcc, v10, v12
v_cmpx_f_i16_e64 s[20:21], v10, v12
v_cmpx_lt_i16_e64 s[20:21], v10, v12
v_cmpx_eq_i16_e64 s[20:21], v10, v12
v_cmpx_le_i16_e64 s[20:21], v10, v12
v_cmpx_gt_i16_e64 s[20:21], v10, v12
v_cmpx_ne_i16_e64 s[20:21], v10, v12
v_cmpx_ge_i16_e64 s[20:21], v10, v12
v_cmpx_t_i16_e64 s[20:21], v10, v12
v_cmpx_f_u16_e64 s[20:21], v10, v12
v_cmpx_lt_u16_e64 s[20:21], v10, v12
v_cmpx_eq_u16_e64 s[20:21], v10, v12
v_cmpx_le_u16_e64 s[20:21], v10, v12
v_cmpx_gt_u16_e64 s[20:21], v10, v12
v_cmpx_ne_u16_e64 s[20:21], v10, v12
v_cmpx_ge_u16_e64 s[20:21], v10, v12
v_cmpx_t_u16_e64 s[20:21], v10, v12
v_cmp_f_i32 vcc, v10, v12
v_cmp_eq_i32 vcc, v10, v12
v_cmp_le_i32 vcc, v10, v12
v_cmp_gt_i32 vcc, v10, v12
v_cmp_ne_i32 vcc, v10, v12
v_cmp_ge_i32 vcc, v10, v12
v_cmp_t_i32 vcc, v10, v12
v_cmp_f_u32 vcc, v10, v12
v_cmp_eq_u32 vcc, v10, v12
v_cmp_le_u32 vcc, v10, v12
v_cmp_gt_u32 vcc, v10, v12
v_cmp_ne_u32 vcc, v10, v12
v_cmp_t_u32 vcc, v10, v12
v_cmpx_f_i32 vcc, v10, v12
v_cmpx_lt_i32 vcc, v10, v12
v_cmpx_eq_i32 vcc, v10, v12
v_cmpx_le_i32 vcc, v10, v12
v_cmpx_gt_i32 vcc, v10, v12
v_cmpx_ne_i32 vcc, v10, v12
v_cmpx_ge_i32 vcc, v10, v12
v_cmpx_t_i32 vcc, v10, v12
v_cmpx_f_u32 vcc, v10, v12
v_cmpx_lt_u32 vcc, v10, v12
v_cmpx_eq_u32 vcc, v10, v12
v_cmpx_le_u32 vcc, v10, v12
v_cmpx_gt_u32 vcc, v10, v12
v_cmpx_ne_u32 vcc, v10, v12
v_cmpx_ge_u32 vcc, v10, v12
v_cmpx_t_u32 vcc, v10, v12
v_cmp_f_i64 vcc, v[10:11], v[12:13]
v_cmp_eq_i64 vcc, v[10:11], v[12:13]
v_cmp_le_i64 vcc, v[10:11], v[12:13]
v_cmp_gt_i64 vcc, v[10:11], v[12:13]
v_cmp_ne_i64 vcc, v[10:11], v[12:13]
v_cmp_ge_i64 vcc, v[10:11], v[12:13]
v_cmp_t_i64 vcc, v[10:11], v[12:13]
v_cmp_f_u64 vcc, v[10:11], v[12:13]
v_cmp_lt_u64 vcc, v[10:11], v[12:13]
v_cmp_eq_u64 vcc, v[10:11], v[12:13]
v_cmp_le_u64 vcc, v[10:11], v[12:13]
v_cmp_gt_u64 vcc, v[10:11], v[12:13]
v_cmp_ge_u64 vcc, v[10:11], v[12:13]
v_cmp_t_u64 vcc, v[10:11], v[12:13]
v_cmpx_f_i64 vcc, v[10:11], v[12:13]
v_cmpx_lt_i64 vcc, v[10:11], v[12:13]
v_cmpx_eq_i64 vcc, v[10:11], v[12:13]
v_cmpx_le_i64 vcc, v[10:11], v[12:13]
v_cmpx_gt_i64 vcc, v[10:11], v[12:13]
v_cmpx_ne_i64 vcc, v[10:11], v[12:13]
v_cmpx_ge_i64 vcc, v[10:11], v[12:13]
v_cmpx_t_i64 vcc, v[10:11], v[12:13]
v_cmpx_f_u64 vcc, v[10:11], v[12:13]
v_cmpx_lt_u64 vcc, v[10:11], v[12:13]
v_cmpx_eq_u64 vcc, v[10:11], v[12:13]
v_cmpx_le_u64 vcc, v[10:11], v[12:13]
v_cmpx_gt_u64 vcc, v[10:11], v[12:13]
v_cmpx_ne_u64 vcc, v[10:11], v[12:13]
v_cmpx_ge_u64 vcc, v[10:11], v[12:13]
v_cmpx_t_u64 vcc, v[10:11], v[12:13]
// Integer, scalar (SCC before: the round's parity), fp16 and packed ones
v_cndmask_b32 v0, v10, v12, vcc
v_subrev_f32 v0, v10, v12
v_max_i32 v0, v10, v12
v_min_u32 v0, v10, v12
v_mac_f32 v0, v10, v12
v_madmk_f32 v0, v10, 0x40400000, v12
v_madak_f32 v0, v10, v12, 0x40400000
v_add_co_u32 v0, vcc, v10, v12
v_add_co_u32 v0, vcc, v10, v12
v_sub_co_u32 v0, vcc, v10, v12
v_subrev_co_u32 v0, vcc, v10, v12
v_addc_co_u32 v0, vcc, v10, v12, vcc
v_addc_co_u32 v0, vcc, v10, v12, vcc
v_subb_co_u32 v0, vcc, v10, v12, vcc
v_subbrev_co_u32 v0, vcc, v10, v12, vcc
v_sub_u16 v0, v10, v12
v_subrev_u16 v0, v10, v12
v_lshlrev_b16 v0, v10, v12
v_lshrrev_b16 v0, v10, v12
v_min_u16 v0, v10, v12
v_min_i16 v0, v10, v12
v_min_f16 v0, v10, v12
v_subrev_f16 v0, v10, v12
v_ldexp_f16 v0, v10, v12
v_cvt_f32_ubyte0 v0, v10
v_cvt_f32_ubyte1 v0, v10
v_cvt_f32_ubyte3 v0, v10
v_cvt_f64_u32 v[0:1], v10
v_ceil_f64 v[0:1], v[10:11]
v_frexp_mant_f64 v[0:1], v[10:11]
v_cos_f32 v0, v10
v_cvt_f16_u16 v0, v10
v_cvt_f16_i16 v0, v10
v_cvt_i16_f16 v0, v10
v_rcp_f16 v0, v10
v_sqrt_f16 v0, v10
v_rsq_f16 v0, v10
v_floor_f16 v0, v10
v_ceil_f16 v0, v10
v_trunc_f16 v0, v10
v_rndne_f16 v0, v10
v_fract_f16 v0, v10
v_mad_legacy_f32 v0, v10, v12, v14
v_mad_i32_i24 v0, v10, v12, v14
v_min3_u32 v0, v10, v12, v14
v_max3_i32 v0, v10, v12, v14
v_mad_u64_u32 v[0:1], s[20:21], v10, v12, v[14:15]
v_mad_i64_i32 v[0:1], s[20:21], v10, v12, v[14:15]
v_min3_i16 v0, v10, v12, v14
v_min3_u16 v0, v10, v12, v14
v_max3_u16 v0, v10, v12, v14
v_max3_f16 v0, v10, v12, v14
v_med3_i16 v0, v10, v12, v14
v_mad_f16 v0, v10, v12, v14
v_lshrrev_b64 v[0:1], v10, v[12:13]
v_cvt_pknorm_u16_f32 v0, v10, v12
v_cvt_pknorm_i16_f16 v0, v10, v12
v_cvt_pk_u16_u32 v0, v10, v12
v_sub_i32 v0, v10, v12
v_pk_mad_i16 v0, v10, v12, v14
v_pk_mad_u16 v0, v10, v12, v14
v_pk_add_i16 v0, v10, v12
v_pk_sub_u16 v0, v10, v12
v_pk_lshrrev_b16 v0, v10, v12
v_pk_ashrrev_i16 v0, v10, v12
v_pk_min_i16 v0, v10, v12
v_pk_min_u16 v0, v10, v12
v_pk_max_u16 v0, v10, v12
v_pk_min_f16 v0, v10, v12
v_mbcnt_lo_u32_b32 v0, v10, v12
v_mbcnt_hi_u32_b32 v0, v10, v12
s_sub_i32 s0, s10, s12
s_min_u32 s0, s10, s12
s_max_i32 s0, s10, s12
s_and_b64 s[0:1], s[10:11], s[12:13]
s_or_b32 s0, s10, s12
s_or_b64 s[0:1], s[10:11], s[12:13]
s_xor_b32 s0, s10, s12
s_xor_b64 s[0:1], s[10:11], s[12:13]
s_andn2_b32 s0, s10, s12
s_orn2_b32 s0, s10, s12
s_nand_b64 s[0:1], s[10:11], s[12:13]
s_nor_b32 s0, s10, s12
s_nor_b64 s[0:1], s[10:11], s[12:13]
s_xnor_b32 s0, s10, s12
s_lshl_b64 s[0:1], s[10:11], s12
s_lshr_b32 s0, s10, s12
s_ashr_i64 s[0:1], s[10:11], s12
s_bfm_b32 s0, s10, s12
s_bfm_b64 s[0:1], s10, s12
s_mul_hi_i32 s0, s10, s12
s_lshl1_add_u32 s0, s10, s12
s_lshl3_add_u32 s0, s10, s12
s_lshl4_add_u32 s0, s10, s12
s_pack_ll_b32_b16 s0, s10, s12
s_cselect_b32 s0, s10, s12
s_cselect_b64 s[0:1], s[10:11], s[12:13]
s_addc_u32 s0, s10, s12
s_subb_u32 s0, s10, s12
s_mov_b64 s[0:1], s[10:11]
s_not_b64 s[0:1], s[10:11]
s_wqm_b32 s0, s10
s_bcnt0_i32_b64 s0, s[10:11]
s_bcnt1_i32_b32 s0, s10
s_ff0_i32_b32 s0, s10
s_ff1_i32_b64 s0, s[10:11]
s_flbit_i32_b64 s0, s[10:11]
s_quadmask_b64 s[0:1], s[10:11]
s_cmov_b32 s0, s10
s_cmov_b64 s[0:1], s[10:11]
s_movk_i32 s0, 0x8765
s_cmovk_i32 s0, 0x1234
s_addk_i32 s0, 0x7654
s_mulk_i32 s0, 0xfffd
s_getpc_b64 s[0:1]
s_cmp_eq_i32 s10, s12
s_cmp_lg_i32 s10, s12
s_cmp_gt_i32 s10, s12
s_cmp_ge_i32 s10, s12
s_cmp_le_i32 s10, s12
s_cmp_eq_u32 s10, s12
s_cmp_lg_u32 s10, s12
s_cmp_gt_u32 s10, s12
s_cmp_lt_u32 s10, s12
s_cmp_le_u32 s10, s12
s_cmp_eq_u64 s[10:11], s[12:13]
s_bitcmp0_b32 s10, s12
s_bitcmp0_b64 s[10:11], s12
s_bitcmp1_b64 s[10:11], s12
s_cmpk_eq_i32 s10, -1
s_cmpk_lg_i32 s10, -1
s_cmpk_gt_i32 s10, -1
s_cmpk_ge_i32 s10, -1
s_cmpk_lt_i32 s10, -1
s_cmpk_eq_u32 s10, 0xffff
s_cmpk_lg_u32 s10, 0xffff
s_cmpk_gt_u32 s10, 0xffff
s_cmpk_ge_u32 s10, 0xffff
s_cmpk_lt_u32 s10, 0xffff
// LDS, with EXEC_PAT: atomics (with and without the old value), writes of
// every width and half, reads past the end and wrapping
ds_add_u32 v10, v12
ds_add_rtn_u32 v0, v10, v12
ds_sub_u32 v10, v12
ds_sub_rtn_u32 v0, v10, v12
ds_rsub_u32 v10, v12
ds_rsub_rtn_u32 v0, v10, v12
ds_inc_u32 v10, v12
ds_inc_rtn_u32 v0, v10, v12
ds_dec_u32 v10, v12
ds_dec_rtn_u32 v0, v10, v12
ds_min_i32 v10, v12
ds_min_rtn_i32 v0, v10, v12
ds_max_i32 v10, v12
ds_max_rtn_i32 v0, v10, v12
ds_min_u32 v10, v12
ds_min_rtn_u32 v0, v10, v12
ds_max_u32 v10, v12
ds_max_rtn_u32 v0, v10, v12
ds_and_b32 v10, v12
ds_and_rtn_b32 v0, v10, v12
ds_or_b32 v10, v12
ds_or_rtn_b32 v0, v10, v12
ds_xor_b32 v10, v12
ds_xor_rtn_b32 v0, v10, v12
ds_mskor_b32 v10, v12, v14
ds_mskor_rtn_b32 v0, v10, v12, v14
ds_write_b32 v10, v12
ds_cmpst_b32 v10, v12, v14
ds_add_u64 v10, v[12:13]
ds_add_rtn_u64 v[0:1], v10, v[12:13]
ds_sub_u64 v10, v[12:13]
ds_sub_rtn_u64 v[0:1], v10, v[12:13]
ds_rsub_u64 v10, v[12:13]
ds_rsub_rtn_u64 v[0:1], v10, v[12:13]
ds_inc_u64 v10, v[12:13]
ds_inc_rtn_u64 v[0:1], v10, v[12:13]
ds_dec_u64 v10, v[12:13]
ds_dec_rtn_u64 v[0:1], v10, v[12:13]
ds_min_i64 v10, v[12:13]
ds_min_rtn_i64 v[0:1], v10, v[12:13]
ds_max_i64 v10, v[12:13]
ds_max_rtn_i64 v[0:1], v10, v[12:13]
ds_min_u64 v10, v[12:13]
ds_min_rtn_u64 v[0:1], v10, v[12:13]
ds_max_u64 v10, v[12:13]
ds_max_rtn_u64 v[0:1], v10, v[12:13]
ds_and_b64 v10, v[12:13]
ds_and_rtn_b64 v[0:1], v10, v[12:13]
ds_or_b64 v10, v[12:13]
ds_or_rtn_b64 v[0:1], v10, v[12:13]
ds_xor_b64 v10, v[12:13]
ds_xor_rtn_b64 v[0:1], v10, v[12:13]
ds_mskor_b64 v10, v[12:13], v[14:15]
ds_mskor_rtn_b64 v[0:1], v10, v[12:13], v[14:15]
ds_write_b64 v10, v[12:13]
ds_cmpst_b64 v10, v[12:13], v[14:15]
ds_cmpst_rtn_b32 v0, v10, v12, v14
ds_wrxchg_rtn_b32 v0, v10, v12
ds_cmpst_f32 v10, v12, v14
ds_min_f32 v10, v12
ds_max_f32 v10, v12
ds_max_rtn_f32 v0, v10, v12
ds_min_f64 v10, v[12:13]
ds_min_rtn_f64 v[0:1], v10, v[12:13]
ds_max_f64 v10, v[12:13]
ds_cmpst_rtn_f64 v[0:1], v10, v[12:13], v[14:15]
ds_nop
ds_write_b8 v10, v12
ds_write_b16 v10, v12
ds_write_b8_d16_hi v10, v12
ds_write_b16_d16_hi v10, v12
ds_write2_b32 v10, v12, v14 offset1:1
ds_wrxchg2_rtn_b32 v[0:1], v10, v12, v14 offset1:1
ds_read_u8 v0, v10 offset:3
ds_read_i16 v0, v10 offset:6
ds_read2st64_b32 v[0:1], v10 offset0:1 offset1:2
ds_read2_b64 v[0:3], v10 offset0:1 offset1:3
ds_read2st64_b64 v[0:3], v10 offset0:1 offset1:2
ds_read_b128 v[0:3], v10 offset:16
ds_read_b96 v[0:2], v10 offset:4
ds_read_u8_d16 v0, v10 offset:1
ds_read_u8_d16_hi v0, v10 offset:1
ds_read_i8_d16 v0, v10 offset:2
ds_read_i8_d16_hi v0, v10 offset:2
ds_read_u16_d16 v0, v10 offset:2
ds_read_u16_d16_hi v0, v10 offset:2
// the saveexec and wrexec family: EXEC before is random (and all, none,
// S0 itself), D and the EXEC after checked, SCC = EXEC != 0
s_and_saveexec_b64 s[0:1], s[10:11]
s_or_saveexec_b64 s[0:1], s[10:11]
s_xor_saveexec_b64 s[0:1], s[10:11]
s_andn2_saveexec_b64 s[0:1], s[10:11]
s_orn2_saveexec_b64 s[0:1], s[10:11]
s_nand_saveexec_b64 s[0:1], s[10:11]
s_nor_saveexec_b64 s[0:1], s[10:11]
s_xnor_saveexec_b64 s[0:1], s[10:11]
s_orn1_saveexec_b64 s[0:1], s[10:11]
s_andn1_saveexec_b64 s[0:1], s[10:11]
s_andn1_wrexec_b64 s[0:1], s[10:11]
s_andn2_wrexec_b64 s[0:1], s[10:11]
// v_div_scale (D, then VCC) and v_div_fixup on inputs made for them
// (S0 one of S1 and S2; S0 near S2 / S1), v_rcp_iflag, v_rsq_f64
v_div_scale_f32 v0, vcc, v10, v12, v14
v_div_scale_f32 v0, vcc, v10, v12, v14
v_div_scale_f64 v[0:1], vcc, v[10:11], v[12:13], v[14:15]
v_div_scale_f64 v[0:1], vcc, v[10:11], v[12:13], v[14:15]
v_div_fixup_f32 v0, v10, v12, v14
v_div_fixup_f64 v[0:1], v[10:11], v[12:13], v[14:15]
v_rcp_iflag_f32 v0, v10
v_rsq_f64 v[0:1], v[10:11]
// across lanes through the LDS unit: ds_swizzle's quad_perm and bitmask
// modes (and a raw offset), ds_bpermute (pull) on random addresses,
// ds_permute (push) on a permutation with the address's other bits set
ds_swizzle_b32 v0, v10 offset:swizzle(QUAD_PERM,1,0,3,2)
ds_swizzle_b32 v0, v10 offset:swizzle(BITMASK_PERM,"01pip")
ds_swizzle_b32 v0, v10 offset:0x3c4a
ds_bpermute_b32 v0, v10, v12 offset:8
ds_permute_b32 v0, v10, v12 offset:4
// the same under a partial EXEC (rocPRIM's warp shuffles with inactive
// lanes): a pull from an inactive lane reads 0, a push from one is lost
// (its target reads 0), inactive destinations are left alone
ds_bpermute_b32 v0, v10, v12 offset:8
ds_permute_b32 v0, v10, v12 offset:4
// ds_swizzle too: a lane whose source lane is inactive reads 0, as gem5's
// model of the instruction and the same crossbar's ds_bpermute do
ds_swizzle_b32 v0, v10 offset:swizzle(QUAD_PERM,1,0,3,2)
ds_swizzle_b32 v0, v10 offset:swizzle(BITMASK_PERM,"01pip")
