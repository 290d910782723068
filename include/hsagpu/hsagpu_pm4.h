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
/*
 * DISPATCH_DIRECT (5 dwords): dw1-3 the workgroups in x, y, z; dw4 the
 * initiator (COMPUTE_DISPATCH_INITIATOR: [0] enable, [1] a last partial
 * workgroup, [5] dims in work-items instead). The program is the SH
 * registers' (COMPUTE_*).
 */
#define HSAGPU_PM4_OP_DISPATCH_DIRECT   0x15U
#define HSAGPU_PM4_DISPATCH_DIRECT_DW   5U
#define HSAGPU_PM4_DI_ENABLE            (1U << 0)
#define HSAGPU_PM4_DI_PARTIAL_TG        (1U << 1)
#define HSAGPU_PM4_DI_THREAD_DIMS       (1U << 5)
#define HSAGPU_PM4_OP_SET_UCONFIG_REG   0x79U
#define HSAGPU_PM4_OP_SWITCH_BUFFER     0x8bU
#define HSAGPU_PM4_OP_FRAME_CONTROL     0x90U
#define HSAGPU_PM4_OP_INVALIDATE_TLBS   0x98U
#define HSAGPU_PM4_OP_SET_RESOURCES     0xa0U
#define HSAGPU_PM4_OP_MAP_PROCESS       0xa1U
#define HSAGPU_PM4_OP_MAP_QUEUES        0xa2U
#define HSAGPU_PM4_OP_UNMAP_QUEUES      0xa3U
#define HSAGPU_PM4_OP_QUERY_STATUS      0xa4U
#define HSAGPU_PM4_OP_RUN_LIST          0xa5U

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
/* the MEC's: the data after its write is confirmed and no interrupt
 * (kfdtest's polled fences); an interrupt whatever the data */
#define HSAGPU_PM4_INT_DATA_CONFIRMED   3U
#define HSAGPU_PM4_INT_ALWAYS           4U

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

/*
 * The queue packets of the KIQ (amdgpu) and of the HIQ (amdkfd's
 * hardware scheduler), gfx9 layouts:
 *
 * SET_RESOURCES (8 dwords): dw1 [15:0] the VMIDs the scheduler may
 * use, [31:29] the queue it talks to (1: HIQ); dw2-3 the MEC queues
 * it may use (bit (me - 1) * 32 + pipe * 8 + queue).
 */
#define HSAGPU_PM4_SET_RESOURCES_DW     8U
#define HSAGPU_PM4_SR_VMID_MASK(dw1)    ((dw1) & 0xffffU)
/*
 * MAP_QUEUES (7 dwords): dw1 [5:4] queue_sel (0: the slot named in
 * [15:13] queue, [17:16] pipe, [19:18] me - 1 (the KIQ's form); 1: a
 * slot the scheduler picks), [23:21] queue type (2, 3: static), [28:26]
 * engine (0 compute, 1 HIQ, 2-3 SDMA0-1), [31:29] number of queues;
 * dw2 [27:2] the doorbell's dword offset; dw3-4 the MQD; dw5-6 the
 * write pointer's address.
 */
#define HSAGPU_PM4_MAP_QUEUES_DW        7U
#define HSAGPU_PM4_MQ_QUEUE_SEL(dw1)    (((dw1) >> 4) & 3U)
#define HSAGPU_PM4_MQ_QUEUE_TYPE(dw1)   (((dw1) >> 21) & 7U)
#define HSAGPU_PM4_MQ_ENGINE(dw1)       (((dw1) >> 26) & 7U)
#define HSAGPU_PM4_MQ_NUM(dw1)          (((dw1) >> 29) & 7U)
/* dw1 [12]: the process's GWS queue (gets MAP_PROCESS's num_gws) */
#define HSAGPU_PM4_MQ_GWS_CONTROL       (1U << 12)
#define HSAGPU_PM4_ENGINE_COMPUTE       0U
#define HSAGPU_PM4_ENGINE_HIQ           1U
#define HSAGPU_PM4_ENGINE_SDMA0         2U
#define HSAGPU_PM4_ENGINE_SDMA1         3U
/*
 * UNMAP_QUEUES (6 dwords): dw1 [1:0] action (0 preempt, 1 reset,
 * 2 disable the process's queues, 3 preempt without unmapping (KIQ)),
 * [5:4] queue_sel (0 by doorbell: dw2-5 [27:2], [31:29] of them; 1 the
 * PASID in dw2 [15:0]; 2 all; 3 all but static queues), [28:26]
 * engine; with action 3, dw3-4 a fence address and dw5 its value.
 */
#define HSAGPU_PM4_UNMAP_QUEUES_DW      6U
#define HSAGPU_PM4_UQ_ACTION(dw1)       ((dw1) & 3U)
#define HSAGPU_PM4_UQ_QUEUE_SEL(dw1)    (((dw1) >> 4) & 3U)
#define HSAGPU_PM4_UQ_ENGINE(dw1)       (((dw1) >> 26) & 7U)
#define HSAGPU_PM4_UQ_NUM(dw1)          (((dw1) >> 29) & 7U)
#define HSAGPU_PM4_UQ_PREEMPT           0U
#define HSAGPU_PM4_UQ_RESET             1U
#define HSAGPU_PM4_UQ_DISABLE_PROCESS   2U
#define HSAGPU_PM4_UQ_NO_UNMAP          3U
#define HSAGPU_PM4_UQ_BY_DOORBELL       0U
#define HSAGPU_PM4_UQ_BY_PASID          1U
#define HSAGPU_PM4_UQ_ALL               2U
#define HSAGPU_PM4_UQ_ALL_DYNAMIC       3U
/* QUERY_STATUS (7 dwords): dw3-4 the fence's address, dw5-6 its value */
#define HSAGPU_PM4_QUERY_STATUS_DW      7U
/*
 * MAP_PROCESS (16 dwords on gfx9): dw1 [15:0] the PASID; dw2-3 the
 * page directory (a PDE, as VM_CONTEXTn_PAGE_TABLE_BASE takes it);
 * dw4 SH_MEM_BASES, dw5 SH_MEM_CONFIG; dw6-9 the trap handler's TBA
 * and TMA; dw13 [6:0] its GWS resources, [31:22] the process's queues,
 * which follow it.
 */
#define HSAGPU_PM4_MAP_PROCESS_DW       16U
#define HSAGPU_PM4_MP_PASID(dw1)        ((dw1) & 0xffffU)
#define HSAGPU_PM4_MP_NUM_QUEUES(dw13)  (((dw13) >> 22) & 0x3ffU)
/* dw13 [6:0]: GWS resources given to the process's GWS queue */
#define HSAGPU_PM4_MP_NUM_GWS(dw13)     ((dw13) & 0x7fU)
/*
 * RUN_LIST (4 dwords): dw1 [31:2] and dw2 [15:0] the runlist IB (the
 * processes' MAP_PROCESS and MAP_QUEUES packets), dw3 [19:0] its
 * dwords, [20] chained (the IB ends in a RUN_LIST of itself), [23]
 * valid
 */
#define HSAGPU_PM4_RUN_LIST_DW          4U
#define HSAGPU_PM4_RL_CHAIN             (1U << 20)
#define HSAGPU_PM4_RL_VALID             (1U << 23)

#endif /* HSAGPU_PM4_H */
