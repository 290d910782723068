/* SPDX-License-Identifier: (GPL-2.0-or-later OR MIT) */
/*
 * PM4, the command packets of AMD's gfx9 command processor, as far as the
 * device runs them (docs/vega10.md, "Command processor"): packet framing,
 * the opcodes and the fields of each that the device reads. Packet
 * formats are hardware facts; the names are ours.
 *
 * A type-3 packet is a header and count + 1 body dwords:
 *   [31:30] type (3), [29:16] count, [15:8] opcode, [1] shader type.
 * A type-2 packet is one filler dword (0x80000000).
 */
#ifndef HSAGPU_PM4_H
#define HSAGPU_PM4_H

/* Framing */
#define HSAGPU_PM4_TYPE_SHIFT           30
#define HSAGPU_PM4_TYPE2                2U
#define HSAGPU_PM4_TYPE3                3U
#define HSAGPU_PM4_COUNT_SHIFT          16
#define HSAGPU_PM4_COUNT_MASK           0x3fffU
#define HSAGPU_PM4_OPCODE_SHIFT         8
#define HSAGPU_PM4_OPCODE_MASK          0xffU
#define HSAGPU_PM4_HDR(op, ndw) \
	((HSAGPU_PM4_TYPE3 << HSAGPU_PM4_TYPE_SHIFT) | \
	 (((ndw) - 2U) << HSAGPU_PM4_COUNT_SHIFT) | \
	 ((op) << HSAGPU_PM4_OPCODE_SHIFT))
/*
 * A NOP of count 0x3fff is one dword (amdgpu's ring filler on gfx9,
 * which pads with PACKET3(NOP, 0x3fff) one dword at a time)
 */
#define HSAGPU_PM4_NOP_FILLER           0x3fffU

/* Opcodes */
#define HSAGPU_PM4_OP_NOP               0x10U
#define HSAGPU_PM4_OP_SET_BASE          0x11U
#define HSAGPU_PM4_OP_CLEAR_STATE       0x12U
#define HSAGPU_PM4_OP_COND_EXEC         0x22U
#define HSAGPU_PM4_OP_CONTEXT_CONTROL   0x28U
#define HSAGPU_PM4_OP_INDIRECT_BUFFER_CONST 0x33U
#define HSAGPU_PM4_OP_WRITE_DATA        0x37U
#define HSAGPU_PM4_OP_WAIT_REG_MEM      0x3cU
#define HSAGPU_PM4_OP_INDIRECT_BUFFER   0x3fU   /* 4 dwords */
#define HSAGPU_PM4_OP_COPY_DATA         0x40U
#define HSAGPU_PM4_OP_PFP_SYNC_ME       0x42U
#define HSAGPU_PM4_OP_EVENT_WRITE       0x46U
#define HSAGPU_PM4_OP_RELEASE_MEM       0x49U
#define HSAGPU_PM4_OP_PREAMBLE_CNTL     0x4aU
#define HSAGPU_PM4_OP_ACQUIRE_MEM       0x58U   /* 7 dwords on gfx9 */
#define HSAGPU_PM4_OP_SET_CONFIG_REG    0x68U
#define HSAGPU_PM4_OP_SET_CONTEXT_REG   0x69U
#define HSAGPU_PM4_OP_SET_SH_REG        0x76U
#define HSAGPU_PM4_OP_SET_UCONFIG_REG   0x79U
#define HSAGPU_PM4_OP_SWITCH_BUFFER     0x8bU
#define HSAGPU_PM4_OP_FRAME_CONTROL     0x90U
#define HSAGPU_PM4_OP_INVALIDATE_TLBS   0x98U
#define HSAGPU_PM4_OP_SET_RESOURCES     0xa0U
#define HSAGPU_PM4_OP_MAP_QUEUES        0xa2U
#define HSAGPU_PM4_OP_UNMAP_QUEUES      0xa3U
#define HSAGPU_PM4_OP_QUERY_STATUS      0xa4U

#define HSAGPU_PM4_ACQUIRE_MEM_DW       7U

/* INDIRECT_BUFFER(_CONST): dw1 base [31:2], dw2 base [47:32], dw3: */
#define HSAGPU_PM4_IB_BASE_HI_MASK      0xffffU
#define HSAGPU_PM4_IB_SIZE_MASK         0xfffffU        /* dwords */
#define HSAGPU_PM4_IB_VALID             (1U << 23)
#define HSAGPU_PM4_IB_VMID(dw3)         (((dw3) >> 24) & 0xfU)
/* Longest IB the AQL PM4_IB packet takes: ROCr's buffer is 4 KiB. */
#define HSAGPU_PM4_IB_MAX_DW            1024U

/* SET_*_REG: dw1 the first register, relative to its range's start */
#define HSAGPU_PM4_CONFIG_REG_START     0x2000U
#define HSAGPU_PM4_CONFIG_REG_END       0x2c00U
#define HSAGPU_PM4_SH_REG_START         0x2c00U
#define HSAGPU_PM4_SH_REG_END           0x3000U
#define HSAGPU_PM4_CONTEXT_REG_START    0xa000U
#define HSAGPU_PM4_CONTEXT_REG_END      0xa400U
#define HSAGPU_PM4_UCONFIG_REG_START    0xc000U
#define HSAGPU_PM4_UCONFIG_REG_END      0xc400U
#define HSAGPU_PM4_SET_REG_OFFSET_MASK  0xffffU

/* WRITE_DATA: dw1 control, dw2-3 address (or register), dw4.. data */
#define HSAGPU_PM4_WD_DST_SEL(dw1)      (((dw1) >> 8) & 0xfU)
#define HSAGPU_PM4_WD_ONE_ADDR          (1U << 16)
/* destinations (WRITE_DATA, COPY_DATA): */
#define HSAGPU_PM4_SEL_REG              0U
#define HSAGPU_PM4_SEL_MEM_GRBM         1U  /* memory, through GRBM */
#define HSAGPU_PM4_SEL_TC_L2            2U  /* memory, through L2 */
#define HSAGPU_PM4_SEL_MEM              5U  /* memory, directly */
/* memory: gfx9's preemption meta data (the CE/DE payloads in the CSA) */
#define HSAGPU_PM4_SEL_PREEMPT_META     8U

/*
 * WAIT_REG_MEM (7 dwords): dw1 [2:0] function, [4] memory (else a
 * register), [6] write-then-wait; dw2-3 the address (a register: dw2,
 * and with write-then-wait dw2 is written with the reference and dw3 is
 * the register waited on), dw4 reference, dw5 mask, dw6 poll interval.
 */
#define HSAGPU_PM4_WAIT_DW              7U
#define HSAGPU_PM4_WAIT_FUNC(dw1)       ((dw1) & 7U)
#define HSAGPU_PM4_WAIT_MEM             (1U << 4)
#define HSAGPU_PM4_WAIT_WRITE_FIRST     (1U << 6)
#define HSAGPU_PM4_FUNC_ALWAYS          0U
#define HSAGPU_PM4_FUNC_LT              1U
#define HSAGPU_PM4_FUNC_LE              2U
#define HSAGPU_PM4_FUNC_EQ              3U
#define HSAGPU_PM4_FUNC_NE              4U
#define HSAGPU_PM4_FUNC_GE              5U
#define HSAGPU_PM4_FUNC_GT              6U

/*
 * RELEASE_MEM (8 dwords on gfx9): dw1 event and cache actions, dw2
 * [31:29] data, [26:24] interrupt, [17:16] destination; dw3-4 address,
 * dw5-6 data, dw7 the interrupt's context id.
 */
#define HSAGPU_PM4_RELEASE_MEM_DW       8U
#define HSAGPU_PM4_RM_DATA_SEL(dw2)     (((dw2) >> 29) & 7U)
#define HSAGPU_PM4_RM_INT_SEL(dw2)      (((dw2) >> 24) & 7U)
#define HSAGPU_PM4_DATA_NONE            0U
#define HSAGPU_PM4_DATA_32              1U
#define HSAGPU_PM4_DATA_64              2U
#define HSAGPU_PM4_DATA_GPU_CLOCK       3U
#define HSAGPU_PM4_DATA_SYS_CLOCK       4U
#define HSAGPU_PM4_INT_NONE             0U
#define HSAGPU_PM4_INT_ONLY             1U
#define HSAGPU_PM4_INT_CONFIRMED        2U

/*
 * COPY_DATA (6 dwords): dw1 [3:0] source, [11:8] destination, [16]
 * 64 bits, dw2-3 source address, register or data, dw4-5 destination
 */
#define HSAGPU_PM4_COPY_DW              6U
#define HSAGPU_PM4_CD_SRC_SEL(dw1)      ((dw1) & 0xfU)
#define HSAGPU_PM4_CD_DST_SEL(dw1)      (((dw1) >> 8) & 0xfU)
#define HSAGPU_PM4_CD_64                (1U << 16)
#define HSAGPU_PM4_SEL_IMM              5U  /* as a COPY_DATA source */
#define HSAGPU_PM4_SEL_GPU_CLOCK        9U  /* as a COPY_DATA source */

/* COND_EXEC (5 dwords): dw1-2 address, dw4 dwords to skip when 0 */
#define HSAGPU_PM4_COND_EXEC_DW         5U
#define HSAGPU_PM4_COND_EXEC_COUNT_MASK 0x3fffU

#endif /* HSAGPU_PM4_H */
