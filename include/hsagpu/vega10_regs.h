/*
 * hsa-gpu, Vega10 personality: the hardware interface Linux's amdgpu
 * programs, as far as the device implements it (docs/vega10.md).
 *
 * Register numbers are dword offsets into BAR5, absolute: each is its
 * IP block's SOC15 base on Vega10 plus the register's offset in that
 * block (GC base 0x2000 and 0xA000, MMHUB 0x1A000, OSSSYS 0x10A0, NBIO
 * 0x0, 0x14, 0xD20 and 0x10400, HDP 0xF20, SDMA0 0x1260, SDMA1 0x1460,
 * MP0/MP1 0x16000, ...). A register not named here is plain storage:
 * it reads back what was written, 0 after reset.
 * scripts/vega10-regs checks every number here against the offsets in
 * Debian's linux-source packages (6.1 and 6.12).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HSAGPU_VEGA10_REGS_H
#define HSAGPU_VEGA10_REGS_H

/* PCI identity: an MI25 (Vega10 compute card), class "other display" */
#define V10_PCI_VENDOR_ID               0x1002
#define V10_PCI_DEVICE_ID               0x6860
#define V10_PCI_CLASS_CODE              0x038000
#define V10_PCI_REVISION                0x00

/* BARs: 0/1 VRAM (64-bit, prefetchable), 2/3 doorbells, 5 registers */
#define V10_BAR_VRAM                    0
#define V10_BAR_DOORBELL                2
#define V10_BAR_MMIO                    5
#define V10_DOORBELL_BAR_SIZE           (2u << 20)
#define V10_MMIO_BAR_SIZE               (512u << 10)
#define V10_NREGS                       (V10_MMIO_BAR_SIZE / 4)
/*
 * The last 4 KiB page of BAR5: nbio's remap of the HDP flush registers
 * (amdgpu's MMIO_REG_HOLE_OFFSET), which KFD maps into processes.
 * Writes there flush the HDP (nothing to flush here); reads give 0.
 */
#define V10_MMIO_REMAP_OFFSET           (V10_MMIO_BAR_SIZE - 4096)
#define V10_ROM_SIZE                    (128u << 10)

/* NBIO 6.1 (and NBIF): register windows, identity, HDP flush, doorbells */
#define V10_MM_INDEX                    0x0000  /* VRAM window, bit 31: */
#define V10_MM_DATA                     0x0001  /* ... (register space) */
#define V10_MM_INDEX_HI                 0x0006
#define V10_PCIE_INDEX                  0x000c  /* SMN window */
#define V10_PCIE_DATA                   0x000d
#define V10_PCIE_INDEX2                 0x000e  /* SMN window, amdgpu's */
#define V10_PCIE_DATA2                  0x000f
/*
 * The vBIOS's scratch registers (the ATOM image names BIOS_SCRATCH_0 in
 * its firmwareinfo; amdgpu reads them from there):
 * BIOS_SCRATCH_7's ASIC_INIT_COMPLETE set says the board is POSTed (else
 * amdgpu runs AsicInit, which this image has no code for); BIOS_SCRATCH_4
 * [23:16] picks the vram_info module, 0 (the one the image describes).
 */
#define V10_BIOS_SCRATCH_0              0x004c
#define V10_BIOS_SCRATCH_4              0x0050
#define V10_BIOS_SCRATCH_7              0x0053
#define V10_S7_ASIC_INIT_COMPLETE       0x200
#define V10_RCC_DEV0_EPF0_STRAP0        0x0d2f  /* [27:24] ATI_REV_ID */
#define V10_RCC_DOORBELL_APER_EN        0x0de0
#define V10_RCC_CONFIG_MEMSIZE          0x0de3  /* VRAM size, MiB */
#define V10_RCC_IOV_FUNC_IDENTIFIER     0x0de5  /* 0: not an SR-IOV VF */
#define V10_BIF_FB_EN                   0x0e1f
#define V10_GPU_HDP_FLUSH_REQ           0x0e26  /* BIF_BX_PF0_ */
#define V10_GPU_HDP_FLUSH_DONE          0x0e27  /* ... mirrors REQ */
#define V10_REMAP_HDP_MEM_FLUSH_CNTL    0x0e4d
#define V10_REMAP_HDP_REG_FLUSH_CNTL    0x0e4e

/*
 * SDMA 4.0, two engines (SDMA1 is SDMA0's layout 0x200 further on). Each
 * has four ring queues, GFX, PAGE, RLC0 and RLC1, with one register
 * layout 0x60 apart; their numbers here are offsets into that block
 * from its RB_CNTL.
 */
#define V10_SDMA0_STATUS_REG            0x1285  /* [0] IDLE */
#define V10_SDMA0_F32_CNTL              0x128a  /* [0] HALT */
#define V10_SDMA0_GFX_RB_CNTL           0x12e0
#define V10_SDMA_ENGINE_STRIDE          0x200
#define V10_SDMA_QUEUE_STRIDE           0x60
#define V10_SDMA_QUEUES                 4       /* GFX, PAGE, RLC0, RLC1 */
#define V10_SDMA_RB_CNTL                0x00    /* [0] enable */
#define V10_SDMA_RB_SIZE(v)             (((v) >> 1) & 0x3f) /* log2 dw */
#define V10_SDMA_RB_VMID(v)             (((v) >> 24) & 0xf)
#define V10_SDMA_RB_BASE                0x01    /* address >> 8, _HI */
#define V10_SDMA_RB_RPTR                0x03    /* bytes, _HI */
#define V10_SDMA_RB_WPTR                0x05    /* bytes, _HI */
#define V10_SDMA_RB_RPTR_ADDR_HI        0x08
#define V10_SDMA_RB_RPTR_ADDR_LO        0x09
#define V10_SDMA_DOORBELL               0x12    /* [28] enable */
#define V10_SDMA_DOORBELL_ENABLE        (1u << 28)
#define V10_SDMA_DOORBELL_OFFSET        0x2b    /* [27:2] dword offset */
#define V10_SDMA_RB_WPTR_POLL_ADDR_HI   0x32
#define V10_SDMA_RB_WPTR_POLL_ADDR_LO   0x33
#define V10_SDMA_CONTEXT_STATUS         0x11    /* [2] IDLE */
#define V10_SDMA_CONTEXT_STATUS_IDLE    (1u << 2)
#define V10_SDMA_MINOR_PTR_UPDATE       0x35    /* [0]: hold RB_WPTR */
/*
 * The RLC queues (2 and 3: RLC0, RLC1) are amdkfd's user queues: their
 * write pointer comes with the doorbell write (64 bits, bytes) or in
 * RB_WPTR, never from a poll address
 */
#define V10_SDMA_QUEUE_RLC0             2
#define V10_SDMA_RB_CNTL_ENABLE         (1u << 0)
#define V10_SDMA_RB_CNTL_VMID_SHIFT     24
#define V10_SDMA_RB_CNTL_VMID_MASK      (0xfu << 24)

/*
 * The SDMA MQD (v9_structs.h's struct v9_sdma_mqd, 128 dwords): an RLC
 * queue's registers as the scheduler loads them, and saves them back on
 * unmap. Dword indices of the fields the device gives a meaning; the
 * image holds the queue's registers in runs of consecutive ones
 * (V10_SDMA_MQD_RUNS: MQD dword, register offset, count), the rest is
 * the driver's.
 */
#define V10_SDMA_MQD_DW                 128
#define V10_SDMA_MQD_RB_CNTL            0
#define V10_SDMA_MQD_RB_BASE            1
#define V10_SDMA_MQD_RB_BASE_HI         2
#define V10_SDMA_MQD_RB_RPTR            3
#define V10_SDMA_MQD_RB_RPTR_HI         4
#define V10_SDMA_MQD_RB_WPTR            5
#define V10_SDMA_MQD_RB_WPTR_HI         6
#define V10_SDMA_MQD_RB_RPTR_ADDR_HI    8
#define V10_SDMA_MQD_RB_RPTR_ADDR_LO    9
#define V10_SDMA_MQD_CONTEXT_STATUS     17
#define V10_SDMA_MQD_DOORBELL           18
#define V10_SDMA_MQD_DOORBELL_OFFSET    22
#define V10_SDMA_MQD_MINOR_PTR_UPDATE   31
#define V10_SDMA_MQD_ENGINE_ID          126     /* amdkfd's own */
#define V10_SDMA_MQD_QUEUE_ID           127
#define V10_SDMA_MQD_RUNS               { { 0, 0x00, 19 }, { 19, 0x28, 6 }, \
                                          { 25, 0x2f, 7 }, { 32, 0x40, 10 } }

/*
 * OSSSYS 4.0: the IH (interrupt handler), ring 0 as vega10_ih.c programs
 * it (hw/hsagpu/vega10/vega10-ih.c); rings 1 and 2 are only stored.
 * Pointers are byte offsets into the ring in [17:2]: a ring holds at
 * most 256 KiB (RB_SIZE 16, 64 Ki dwords).
 */
/*
 * ATHUB 1.0: the PASID of each VMID (amdkfd's set_pasid_vmid_mapping);
 * a write is acknowledged in UPDATE_STATUS (bit n: GFXHUB VMID n, bit
 * 16 + n: MMHUB's), which the driver waits for and clears (1 to clear)
 */
#define V10_ATC_VMID_PASID_MAPPING_UPDATE_STATUS 0x0c2b
#define V10_ATC_VMID0_PASID_MAPPING     0x0c2c  /* ... VMID15: + n */
#define V10_ATC_VMID16_PASID_MAPPING    0x0c5d  /* MMHUB VMID n: + n */
#define V10_ATC_PASID_MAPPING_VALID     (1u << 31)
#define V10_IH_VMID_0_LUT               0x10a0  /* PASID of GFXHUB VMID n */
#define V10_IH_VMID_0_LUT_MM            0x10b0  /* ... of MMHUB VMID n */
#define V10_IH_RB_CNTL                  0x1120
#define V10_IH_RB_BASE                  0x1121  /* address [39:8] */
#define V10_IH_RB_BASE_HI               0x1122  /* address [47:40] */
#define V10_IH_RB_RPTR                  0x1123
#define V10_IH_RB_WPTR                  0x1124
#define V10_IH_RB_WPTR_ADDR_HI          0x1125  /* write-back [47:32] */
#define V10_IH_RB_WPTR_ADDR_LO          0x1126  /* write-back [31:2] */
#define V10_IH_DOORBELL_RPTR            0x1127
#define V10_IH_RB_CNTL_RING1            0x1128
#define V10_IH_RB_BASE_RING1            0x1129
#define V10_IH_RB_BASE_HI_RING1         0x112a
#define V10_IH_RB_RPTR_RING1            0x112b
#define V10_IH_RB_WPTR_RING1            0x112c
#define V10_IH_DOORBELL_RPTR_RING1      0x112f
#define V10_IH_RB_CNTL_RING2            0x1130
#define V10_IH_RB_BASE_RING2            0x1131
#define V10_IH_RB_BASE_HI_RING2         0x1132
#define V10_IH_RB_RPTR_RING2            0x1133
#define V10_IH_RB_WPTR_RING2            0x1134
#define V10_IH_DOORBELL_RPTR_RING2      0x1137
#define V10_IH_CNTL                     0x1160
/* IH_RB_CNTL's fields (ENABLE_INTR: ring 0's interrupt, here) */
#define V10_IH_RB_CNTL_RB_ENABLE        (1u << 0)
#define V10_IH_RB_CNTL_RB_SIZE(v)       (((v) >> 1) & 0x1f) /* log2 dw */
#define V10_IH_RB_CNTL_RB_GPU_TS_ENABLE (1u << 7)
#define V10_IH_RB_CNTL_WPTR_WRITEBACK_ENABLE (1u << 8)
#define V10_IH_RB_CNTL_WPTR_OVERFLOW_ENABLE (1u << 16)
#define V10_IH_RB_CNTL_ENABLE_INTR      (1u << 17)
#define V10_IH_RB_CNTL_MC_SWAP(v)       (((v) >> 18) & 3)
#define V10_IH_RB_CNTL_MC_SNOOP         (1u << 20)
#define V10_IH_RB_CNTL_RPTR_REARM       (1u << 21)
#define V10_IH_RB_CNTL_MC_RO            (1u << 22)
#define V10_IH_RB_CNTL_MC_VMID(v)       (((v) >> 24) & 0xf)
#define V10_IH_RB_CNTL_MC_SPACE(v)      (((v) >> 28) & 7)
#define V10_IH_RB_CNTL_WPTR_OVERFLOW_CLEAR (1u << 31)
/* MC_SPACE: 1, a bus (guest physical) address (amdgpu's use_bus_addr) */
#define V10_IH_MC_SPACE_BUS             1
/* IH_RB_RPTR/IH_RB_WPTR: the offset; WPTR's RB_OVERFLOW */
#define V10_IH_RB_PTR_OFFSET_MASK       0x0003fffcu
#define V10_IH_RB_WPTR_RB_OVERFLOW      (1u << 0)
#define V10_IH_RB_SIZE_MAX              16      /* log2 dwords */
#define V10_IH_RB_BASE_HI_MASK          0xffu
#define V10_IH_RB_WPTR_ADDR_LO_MASK     0xfffffffcu
#define V10_IH_RB_WPTR_ADDR_HI_MASK     0xffffu
/* IH_DOORBELL_RPTR: the doorbell (dword index in BAR2), enable */
#define V10_IH_DOORBELL_RPTR_OFFSET(v)  ((v) & 0x03ffffff)
#define V10_IH_DOORBELL_RPTR_ENABLE     (1u << 28)

/* MP0 (PSP) and MP1 (SMU) mailboxes: nothing runs there */
#define V10_MP0_C2PMSG_33               0x16061
#define V10_MP0_C2PMSG_35               0x16063
#define V10_MP0_C2PMSG_64               0x16080
#define V10_MP0_C2PMSG_81               0x16091 /* sOS alive: 0 */
#define V10_MP1_C2PMSG_90               0x1629a

/* GC 9.0.1: GRBM, RLC, scratch, the HQD bank */
#define V10_GRBM_STATUS2                0x2002
#define V10_GRBM_STATUS                 0x2004
#define V10_GRBM_GFX_CNTL               0x2022  /* ME/PIPE/QUEUE/VMID */
#define V10_GRBM_GFX_CNTL_PIPE(v)       ((v) & 3)
#define V10_GRBM_GFX_CNTL_ME(v)         (((v) >> 2) & 3)
#define V10_GRBM_GFX_CNTL_VMID(v)       (((v) >> 4) & 15)
#define V10_GRBM_GFX_CNTL_QUEUE(v)      (((v) >> 8) & 7)
#define V10_SH_MEM_BASES                0x230a  /* per VMID */
#define V10_SH_MEM_CONFIG               0x230d  /* per VMID */
/*
 * The hardware queue descriptor registers, banked by GRBM_GFX_CNTL's
 * ME/PIPE/QUEUE: CP_MQD_BASE_ADDR to CP_HQD_PQ_WPTR_HI, the block the
 * v9 MQD mirrors from its cp_mqd_base_addr_lo field on.
 */
#define V10_CP_MQD_BASE_ADDR            0x3245
#define V10_CP_HQD_ACTIVE               0x3247
#define V10_CP_HQD_DEQUEUE_REQUEST      0x325d
#define V10_CP_HQD_PQ_WPTR_HI           0x327c
#define V10_HQD_FIRST                   V10_CP_MQD_BASE_ADDR
#define V10_HQD_NREGS                   (V10_CP_HQD_PQ_WPTR_HI - \
                                         V10_CP_MQD_BASE_ADDR + 1)
/* The CP: the GFX ring (RB0), the MECs, their interrupts */
#define V10_CP_ME_CNTL                  0x21b6
#define V10_CP_ME_HALTS                 (1u << 24 | 1u << 26 | 1u << 28)
#define V10_CP_RB0_RPTR                 0x21c0
#define V10_CP_MEC_CNTL                 0x208d
#define V10_CP_RB0_BASE                 0x3040  /* address >> 8 */
#define V10_CP_RB0_CNTL                 0x3041  /* [5:0] RB_BUFSZ */
#define V10_CP_RB0_RPTR_ADDR            0x3043
#define V10_CP_RB0_RPTR_ADDR_HI         0x3044
#define V10_CP_RB_WPTR_POLL_ADDR_LO     0x3046
#define V10_CP_RB_WPTR_POLL_ADDR_HI     0x3047
#define V10_CP_RB0_WPTR                 0x3054
#define V10_CP_RB0_WPTR_HI              0x3055
/*
 * The MEC queues (bit pipe * 8 + queue of the ME GRBM_GFX_CNTL selects)
 * whose write pointer the CP reads from its poll address:
 * kgd_gfx_v9_hqd_load's one-shot poll of a reloaded queue
 */
#define V10_CP_PQ_WPTR_POLL_CNTL1       0x3084
#define V10_CP_RB_DOORBELL_CONTROL      0x3059
#define V10_CP_INT_CNTL_RING0           0x306a
#define V10_CP_ME1_PIPE0_INT_CNTL       0x3085  /* 4 pipes, then ME2's */
#define V10_CP_TIME_STAMP_INT_ENABLE    (1u << 26)
/* a ring's bad packet and a privileged register it wrote: interrupts */
#define V10_CP_PRIV_REG_INT_ENABLE      (1u << 23)
#define V10_CP_OPCODE_ERROR_INT_ENABLE  (1u << 24)
/* the GRBM-selected MEC pipe's INT_CNTL (amdkfd's init_interrupts) */
#define V10_CPC_INT_CNTL                0x30b4
#define V10_CP_RB0_BASE_HI              0x30b1
#define V10_CPC_INT_STATUS              0x30b5
/* doorbell control of a ring or queue: [27:2] dword offset, [30] on */
#define V10_DOORBELL_OFFSET(v)          (((v) >> 2) & 0x3ffffff)
#define V10_DOORBELL_EN                 (1u << 30)
/* in the HQD bank */
#define V10_CP_HQD_VMID                 0x3248
#define V10_CP_HQD_PQ_BASE              0x324d  /* address >> 8, and _HI */
#define V10_CP_HQD_PQ_RPTR              0x324f
#define V10_CP_HQD_PQ_RPTR_REPORT_ADDR  0x3250  /* and _HI */
#define V10_CP_HQD_PQ_WPTR_POLL_ADDR    0x3252  /* and _HI */
#define V10_CP_HQD_PQ_DOORBELL_CONTROL  0x3254
#define V10_CP_HQD_PQ_CONTROL           0x3256  /* [5:0] QUEUE_SIZE */
/* The IB a preempted PM4 queue was in, and where (dwords) */
#define V10_CP_HQD_IB_BASE_ADDR         0x3257  /* and _HI */
#define V10_CP_HQD_IB_RPTR              0x3259
#define V10_CP_HQD_IB_CONTROL           0x325a
#define V10_IB_SIZE_MASK                0xfffff         /* IB_SIZE */
#define V10_IB_PROCESSING               (1u << 31)      /* PROCESSING_IB */
/*
 * The context save area (CWSR) amdkfd gives a user queue: base, size,
 * the control stack's size (the workgroup data starts that far in) and
 * the end of the saved workgroup data (CNTL_STACK_SIZE when none)
 */
#define V10_CP_HQD_CTX_SAVE_BASE_ADDR   0x3270  /* and _HI */
#define V10_CP_HQD_CNTL_STACK_SIZE      0x3274
#define V10_CP_HQD_WG_STATE_OFFSET      0x3275
#define V10_CP_HQD_CTX_SAVE_SIZE        0x3276
#define V10_CP_HQD_AQL_CONTROL          0x327a
#define V10_CP_HQD_PQ_WPTR_LO           0x327b
/*
 * A compute queue's dispatch state (SH registers, per queue on gfx9):
 * what SET_SH_REG writes before a DISPATCH_DIRECT
 */
#define V10_COMPUTE_FIRST               0x2e00  /* DISPATCH_INITIATOR */
#define V10_COMPUTE_NREGS               0x50    /* to USER_DATA_15 */
/* ... kept in the v9 MQD from this dword on, in the same order */
#define V10_MQD_COMPUTE_DW              1
#define V10_COMPUTE_START_X             0x2e04  /* Y, Z follow */
#define V10_COMPUTE_NUM_THREAD_X        0x2e07  /* Y, Z follow */
#define V10_COMPUTE_PGM_LO              0x2e0c  /* address >> 8, then _HI */
#define V10_COMPUTE_PGM_RSRC1           0x2e12
#define V10_COMPUTE_PGM_RSRC2           0x2e13
#define V10_RSRC2_SCRATCH_EN            (1u << 0)
/* the scratch a wave has (SCRATCH_EN): WAVESIZE in KiB, WAVES of them */
#define V10_COMPUTE_TMPRING_SIZE        0x2e18
#define V10_TMPRING_WAVES_MASK          0x00000fff
#define V10_TMPRING_WAVESIZE_MASK       0x01fff000
#define V10_TMPRING_WAVESIZE_SHIFT      12
#define V10_COMPUTE_USER_DATA_0         0x2e40  /* 16 of them */
/* where the v9 MQD keeps the HQD block (dword 128 on) */
#define V10_MQD_HQD_DW                  128
#define V10_RLC_CP_SCHEDULERS           0xecaa  /* the KIQ: [7] on, */
                                                /* [6:5] me [4:3] pipe */
                                                /* [2:0] queue */
#define V10_SCRATCH_REG0                0xc040
#define V10_SCRATCH_NREGS               8
#define V10_GRBM_GFX_INDEX              0xc200
#define V10_RLC_SAFE_MODE               0xec05  /* CMD, bit 0, clears */
#define V10_RLC_GPU_CLOCK_COUNT_LSB     0xec24
#define V10_RLC_GPU_CLOCK_COUNT_MSB     0xec25
#define V10_RLC_CAPTURE_GPU_CLOCK_COUNT 0xec26  /* latch, bit 0 */
#define V10_RLC_SERDES_CU_MASTER_BUSY   0xec61  /* idle: 0 */
#define V10_RLC_SERDES_NONCU_MASTER_BUSY 0xec62

/*
 * The two VM hubs (GFXHUB in GC, MMHUB), one register layout at two
 * bases: 18 invalidation engines each (SEM, REQ, ACK arrays), the
 * frame buffer's location in the GPU's address space (16 MiB units).
 */
#define V10_GFXHUB_INV_ENG0_SEM         0x2891
#define V10_MMHUB_INV_ENG0_SEM          0x1a6d1
#define V10_HUB_INV_ENGINES             18
#define V10_HUB_INV_REQ                 0x12    /* from ENG0_SEM */
#define V10_HUB_INV_ACK                 0x24
#define V10_HUB_INV_REQ_VMID_MASK       0xffff  /* PER_VMID_INVALIDATE_REQ */
#define V10_GFXHUB_FB_OFFSET            0x296b
#define V10_GFXHUB_FB_LOCATION_BASE     0x2980
#define V10_GFXHUB_FB_LOCATION_TOP      0x2981
#define V10_MMHUB_FB_OFFSET             0x1a817
#define V10_MMHUB_FB_LOCATION_BASE      0x1a82c
#define V10_MMHUB_FB_LOCATION_TOP       0x1a82d
/* where the frame buffer sits after "POST": 0xF4_0000_0000 */
#define V10_FB_LOCATION_BASE            0xf400u

/*
 * GMC v9: apertures, contexts, faults (hw/hsagpu/vega10/vega10-gmc.c).
 * The GFXHUB's numbers; the MMHUB has each at one of two distances: its
 * MC_VM_* block (FB, AGP, system aperture) is V10_MMHUB_MC_DIST further
 * on, its VM_L2_* and VM_CONTEXT* block (with the invalidation engines)
 * V10_MMHUB_VM_DIST. Addresses: FB and AGP in 16 MiB units, the system
 * aperture in 256 KiB units, everything else in 4 KiB pages.
 */
#define V10_MMHUB_MC_DIST               0x17eac
#define V10_MMHUB_VM_DIST               0x17e40
#define V10_GFXHUB_SYSTEM_DEFAULT_LSB   0x296c  /* physical page [31:0] */
#define V10_GFXHUB_SYSTEM_DEFAULT_MSB   0x296d  /* ... [35:32] */
#define V10_GFXHUB_AGP_TOP              0x2982
#define V10_GFXHUB_AGP_BOT              0x2983
#define V10_GFXHUB_AGP_BASE             0x2984
#define V10_GFXHUB_SYSTEM_APERTURE_LOW  0x2985
#define V10_GFXHUB_SYSTEM_APERTURE_HIGH 0x2986
#define V10_GFXHUB_FAULT_CNTL           0x2847  /* VM_L2_PROTECTION_FAULT_ */
#define V10_GFXHUB_FAULT_CNTL2          0x2848
#define V10_GFXHUB_FAULT_STATUS         0x284b
#define V10_GFXHUB_FAULT_ADDR_LO32      0x284c  /* logical page [31:0] */
#define V10_GFXHUB_FAULT_ADDR_HI32      0x284d  /* ... [35:32] */
#define V10_GFXHUB_FAULT_DEFAULT_LO32   0x284e  /* physical page [31:0] */
#define V10_GFXHUB_FAULT_DEFAULT_HI32   0x284f  /* ... [35:32] */
/* VM_CONTEXTn_CNTL at + n; the others at + 2 * n */
#define V10_GFXHUB_CONTEXT0_CNTL        0x2880
#define V10_GFXHUB_CONTEXT0_BASE_LO32   0x28eb  /* a PDE: the root table */
#define V10_GFXHUB_CONTEXT0_BASE_HI32   0x28ec
#define V10_GFXHUB_CONTEXT0_START_LO32  0x290b  /* first page [31:0] */
#define V10_GFXHUB_CONTEXT0_START_HI32  0x290c  /* ... [35:32] */
#define V10_GFXHUB_CONTEXT0_END_LO32    0x292b  /* last page */
#define V10_GFXHUB_CONTEXT0_END_HI32    0x292c
#define V10_HUB_CTX_CNTL_STRIDE         1
#define V10_HUB_CTX_ADDR_STRIDE         2

/*
 * VM_CONTEXTn_CNTL. Per fault class c (V10_FAULT_CLASS_*): an interrupt
 * enable at bit 9 + 2c, a default-page enable at bit 10 + 2c. Power-on
 * value 0x007ffe80 (gc_9_0_default.h): all of them, and retry.
 */
#define V10_CTX_CNTL_ENABLE             0x00000001u
#define V10_CTX_CNTL_DEPTH_MASK         0x00000006u
#define V10_CTX_CNTL_DEPTH_SHIFT        1
#define V10_CTX_CNTL_BLOCK_SIZE_MASK    0x00000078u
#define V10_CTX_CNTL_BLOCK_SIZE_SHIFT   3
#define V10_CTX_CNTL_RETRY_PERM_INVALID 0x00000080u /* permission, invalid */
#define V10_CTX_CNTL_RETRY_OTHER        0x00000100u
#define V10_CTX_CNTL_INT(c)             (1u << (9 + 2 * (c)))
#define V10_CTX_CNTL_DEFAULT(c)         (1u << (10 + 2 * (c)))
#define V10_CTX_CNTL_RESET              0x007ffe80u
#define V10_FAULT_CLASS_RANGE           0
#define V10_FAULT_CLASS_DUMMY_PAGE      1
#define V10_FAULT_CLASS_PDE0            2
#define V10_FAULT_CLASS_VALID           3
#define V10_FAULT_CLASS_READ            4
#define V10_FAULT_CLASS_WRITE           5
#define V10_FAULT_CLASS_EXECUTE         6

/* VM_L2_PROTECTION_FAULT_CNTL; power-on value 0x3ffffffc */
#define V10_FAULT_CNTL_CLEAR            0x00000001u /* clears STATUS, ADDR */
#define V10_FAULT_CNTL_ALLOW_UPDATES    0x00000002u /* later faults latch */
#define V10_FAULT_CNTL_RANGE_DEFAULT    0x00000004u
#define V10_FAULT_CNTL_PDE0_DEFAULT     0x00000008u /* PDE1: << 1, PDE2 */
#define V10_FAULT_CNTL_NACK_DEFAULT     0x00000080u
#define V10_FAULT_CNTL_VALID_DEFAULT    0x00000200u
#define V10_FAULT_CNTL_READ_DEFAULT     0x00000400u
#define V10_FAULT_CNTL_WRITE_DEFAULT    0x00000800u
#define V10_FAULT_CNTL_EXECUTE_DEFAULT  0x00001000u
#define V10_FAULT_CNTL_CID_INT_SHIFT    13  /* clients 0-15: interrupt */
#define V10_FAULT_CNTL_OTHER_CID_INT    0x20000000u /* the other clients */
#define V10_FAULT_CNTL_RESET            0x3ffffffcu
/* VM_L2_PROTECTION_FAULT_CNTL2; power-on value 0x000a0000 */
#define V10_FAULT_CNTL2_RETRY_INT       0x00080000u
#define V10_FAULT_CNTL2_RESET           0x000a0000u

/* VM_L2_PROTECTION_FAULT_STATUS */
#define V10_FAULT_STATUS_MORE_FAULTS    0x00000001u
#define V10_FAULT_STATUS_WALKER_SHIFT   1   /* WALKER_ERROR [3:1] */
#define V10_FAULT_STATUS_WALKER_MASK    0x0000000eu
#define V10_FAULT_STATUS_PERM_VALID     0x00000010u /* PERMISSION_FAULTS: */
#define V10_FAULT_STATUS_PERM_READ      0x00000020u /* ... not present, */
#define V10_FAULT_STATUS_PERM_WRITE     0x00000040u /* ... no read, write, */
#define V10_FAULT_STATUS_PERM_EXECUTE   0x00000080u /* ... execute */
#define V10_FAULT_STATUS_MAPPING_ERROR  0x00000100u
#define V10_FAULT_STATUS_CID_SHIFT      9
#define V10_FAULT_STATUS_CID_MASK       0x0003fe00u
#define V10_FAULT_STATUS_RW             0x00040000u /* a write */
#define V10_FAULT_STATUS_ATOMIC         0x00080000u
#define V10_FAULT_STATUS_VMID_SHIFT     20
#define V10_FAULT_STATUS_VMID_MASK      0x00f00000u

/* VM_INVALIDATE_ENGn_REQ: also clears the fault status and address */
#define V10_HUB_INV_REQ_CLEAR_FAULT     0x00800000u

/*
 * The hubs' client IDs (the status's CID) amdgpu names: GFXHUB's UTCL2
 * clients; MMHUB's on Vega10 depend on the direction (read, write).
 */
#define V10_GFXHUB_CID_CPF              4
#define V10_GFXHUB_CID_CPC              5
#define V10_GFXHUB_CID_CPG              6
#define V10_GFXHUB_CID_RLC              7
#define V10_GFXHUB_CID_TCP              8
#define V10_GFXHUB_CID_SQC_INST         9
#define V10_GFXHUB_CID_SQC_DATA         10
#define V10_MMHUB_CID_HDP_READ          3
#define V10_MMHUB_CID_HDP_WRITE         4
#define V10_MMHUB_CID_OSS               14  /* IH, both directions */
#define V10_MMHUB_CID_SDMA0_READ        46
#define V10_MMHUB_CID_SDMA0_WRITE       15
#define V10_MMHUB_CID_SDMA1_READ        15
#define V10_MMHUB_CID_SDMA1_WRITE       46

#endif /* HSAGPU_VEGA10_REGS_H */
