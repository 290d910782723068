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
 * OSSSYS 4.0: the IH (interrupt handler), ring 0 as vega10_ih.c programs
 * it (hw/hsagpu/vega10/vega10-ih.c); rings 1 and 2 are only stored.
 * Pointers are byte offsets into the ring in [17:2]: a ring holds at
 * most 256 KiB (RB_SIZE 16, 64 Ki dwords).
 */
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

#endif /* HSAGPU_VEGA10_REGS_H */
