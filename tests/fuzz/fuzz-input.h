/*
 * hsagpu host fuzzers: the layout of each harness's input and of the
 * guest address space it builds, shared by the harnesses and the seed
 * generator (fuzz-seeds.c). Fields are little-endian bytes at fixed
 * offsets of a head; whatever an input lacks reads as zeros.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HSAGPU_FUZZ_INPUT_H
#define HSAGPU_FUZZ_INPUT_H

/*
 * The GCN harnesses' address space: the code object (kernel descriptor
 * at its start, code FG_CODE_OFF further on), the dispatch packet, the
 * queue (amd_queue_t, zeros), kernel arguments and the data buffers.
 */
#define FG_KD           0x100000000ULL
#define FG_CODE_OFF     0x1000U
#define FG_CODE         (FG_KD + FG_CODE_OFF)
#define FG_CODE_MAX     0xffffU         /* bytes of code an input brings */
#define FG_PKT          0x100100000ULL
#define FG_QUEUE        0x100101000ULL
#define FG_QUEUE_SIZE   256U
#define FG_KARG         0x100200000ULL
#define FG_KARG_SIZE    4096U
#define FG_DATA         0x100400000ULL
#define FG_DATA_BUF     0x4000U         /* bytes per buffer */
#define FG_DATA_BUFS    7U
#define FG_DATA_SIZE    (FG_DATA_BUF * FG_DATA_BUFS)

/*
 * fuzz-gcn: FG_HEAD_SIZE bytes of head, the 64-byte kernel descriptor,
 * then code, kernel arguments and the start of the data buffers
 * (lengths in the head, cut to what the input has).
 */
#define FG_HEAD_SIZE    32U
#define FG_H_FLAGS      0       /* u8 FG_F_* */
#define FG_H_DIMS       1       /* u8: 1 + v % 3 dimensions */
#define FG_H_WG         2       /* 3 x u16: workgroup size, 1 + v % 1024 */
#define FG_H_GRID       8       /* 3 x u16: grid, 1 + v % (FG_NWG x wg) */
#define FG_H_PICK       14      /* u8: the second workgroup run (FG_F_TWO) */
#define FG_H_PAUSE      15      /* u8: budget of the first slice - 1 */
#define FG_H_MAXI       16      /* u16: instructions per wave - 1 */
#define FG_H_CODE_LEN   18      /* u16 */
#define FG_H_KARG_LEN   20      /* u16, at most FG_KARG_SIZE */
#define FG_H_DATA_LEN   22      /* u16, at most FG_DATA_SIZE */
#define FG_H_KOBJ       24      /* u8: kernel_object misalignment (mod 64) */
#define FG_H_ID         25      /* u8: dispatch id */
/* u8: the queue's GWS resources: 0 all 64 (ds_gws_*), else v % 65 */
#define FG_H_GWS        26
/* u8: FG_F_SCRATCH's scratch waves (COMPUTE_TMPRING_SIZE.WAVES) */
#define FG_H_SCRATCH    27

#define FG_F_REPAIR     0x01    /* a descriptor the parser refuses: fixed */
#define FG_F_NO_ATOMIC  0x02    /* memory without atomics (read + write) */
#define FG_F_BIG        0x04    /* workgroups up to 1024 items, not 256 */
#define FG_F_SAVE       0x08    /* save/load round trip at every pause */
#define FG_F_RO_CODE    0x10    /* the code object is read-only */
#define FG_F_TWO        0x20    /* a second workgroup, same run object */
#define FG_F_KOBJ       0x40    /* a kernel_object FG_H_KOBJ off alignment */
/* private memory in the address space at FLAT_SCRATCH (a PM4 dispatch's) */
#define FG_F_SCRATCH    0x80

#define FG_NWG          4U      /* workgroups per dimension, at most */
#define FG_WG_SMALL     256U    /* items of a workgroup without FG_F_BIG */
/* Wave instructions per input, over all slices and workgroups */
#define FG_BUDGET       12000U

/*
 * fuzz-gcn-load: FL_HEAD_SIZE bytes of head, code (FL_H_CODE_LEN bytes,
 * at FG_CODE), then a saved workgroup (hsagpu_gcn_run_save's bytes: the
 * rest of the input, whatever its length).
 */
#define FL_HEAD_SIZE    12U
#define FL_H_FLAGS      0       /* u8 FL_F_* */
#define FL_H_BUDGET     1       /* u8: wave instructions, (1 + v) x 16 */
#define FL_H_MAXI       2       /* u16: instructions per wave - 1 */
#define FL_H_CODE_LEN   4       /* u16 */
#define FL_H_RSRC1      8       /* u32: the descriptor's rsrc1 (s_getreg) */

#define FL_F_NO_ATOMIC  0x01
#define FL_F_QUEUE      0x02    /* through hsagpu_queue_gcn_load() */
/*
 * A context save record (include/hsagpu/hsagpu_ctx.h) through
 * hsagpu_queue_ctx_load(), into a queue at the record's own read index
 * and packet (so that the state is reached), with GWS resources
 */
#define FL_F_CTX        0x04

/*
 * fuzz-pm4: an AQL queue (ring, amd_queue_t with the read and write
 * indices, data) fed packets: FQ_HEAD_SIZE bytes of head, FQ_H_NPKTS
 * packets of 64 bytes, then the start of the data region (PM4 indirect
 * buffers, signals, kernel arguments and code, DMA descriptors).
 */
#define FQ_RING         0x200000ULL
#define FQ_DESC         0x1f0000ULL     /* amd_queue_t */
#define FQ_DESC_SIZE    256U
#define FQ_DATA         0x300000ULL
#define FQ_DATA_SIZE    0x10000U
#define FQ_HEAD_SIZE    16U
#define FQ_H_FLAGS      0       /* u8 FQ_F_* */
#define FQ_H_RING       1       /* u8: ring of 4 << (v % 5) packets */
#define FQ_H_RUNS       2       /* u8: 1 + v % 4 calls */
#define FQ_H_QUANTUM    3       /* u8: 1 + v % 16 packets a call */
#define FQ_H_CLOCK      4       /* u8: ns the clock moves per reading / 8 */
#define FQ_H_NPKTS      5       /* u8: packets, at most the ring's */
#define FQ_H_DATA_LEN   6       /* u16 */
#define FQ_H_PROPS      8       /* u32: amd_queue_t.queue_properties */
#define FQ_H_WPTR       12      /* u32: added to the write index (FQ_F_WPTR) */

#define FQ_F_AMD        0x01    /* HSAGPU_QF_AMD_QUEUE (ROCr's blit kernels) */
#define FQ_F_PROFILE    0x02    /* HSAGPU_QF_PROFILE */
#define FQ_F_READ_DATA  0x04    /* the bus has read_data (poison) */
#define FQ_F_MAP        0x08    /* the bus has map/unmap */
#define FQ_F_ATOMIC     0x10    /* the bus has any AtomicOp */
#define FQ_F_BUDGET     0x20    /* scheduling passes with a budget */
#define FQ_F_MIGRATE    0x40    /* a migration between two calls */
#define FQ_F_WPTR       0x80    /* a write index past the packets */

/*
 * fuzz-sdma: an SDMA ring: FS_HEAD_SIZE bytes of head, the ring's bytes
 * (up to its size), then the start of the data region.
 */
#define FS_RING         0x200000ULL
#define FS_PTRS         0x1f0000ULL     /* read pointer, write pointer */
#define FS_DATA         0x300000ULL
#define FS_DATA_SIZE    0x10000U
#define FS_HEAD_SIZE    16U
#define FS_H_FLAGS      0       /* u8 FS_F_* */
#define FS_H_RING       1       /* u8: ring of 1024 << (v % 3) bytes */
#define FS_H_RUNS       2       /* u8: 1 + v % 4 calls */
#define FS_H_QUANTUM    3       /* u8: 1 + v % 32 packets a call */
#define FS_H_CLOCK      4       /* u8 */
#define FS_H_RING_LEN   6       /* u16: ring bytes the input brings */
#define FS_H_WPTR       8       /* u32: the write pointer (FS_F_WPTR) */
#define FS_H_START      12      /* u32: the read pointer at ENABLE */

#define FS_F_READ_DATA  0x01
#define FS_F_BUDGET     0x02
#define FS_F_MIGRATE    0x04
#define FS_F_WPTR       0x08    /* the write pointer from FS_H_WPTR */
#define FS_F_START      0x10    /* start at FS_H_START, not 0 */
#define FS_F_BUMP       0x20    /* the write pointer grows between calls */
/*
 * amdgpu's kernel ring (the Vega10 personality): register ops (WRITE,
 * INDIRECT, PTEPDE, SRBM_WRITE, register polls) and set_vmid
 */
#define FS_F_KERNEL     0x40
#define FS_F_TRAP       0x80    /* the trap op instead of the vector */

/*
 * fuzz-pm4-ring: a PM4 ring as a driver hands it to the command
 * processor's packet engine (hsagpu_pm4_ring_run): FR_HEAD_SIZE bytes of
 * head, the ring's dwords from the read pointer on (FR_H_RING_LEN bytes,
 * at most the ring), then the start of the data region (indirect
 * buffers, fences, what WAIT_REG_MEM and COND_EXEC read).
 */
#define FR_RING         0x200000ULL
#define FR_DATA         0x300000ULL
#define FR_DATA_SIZE    0x10000U
#define FR_RING_LOG2_MAX 12     /* rings of 1 to 4096 dwords */
#define FR_NREGS        4096U   /* the fake register file (numbers wrap) */
#define FR_HEAD_SIZE    24U
#define FR_H_FLAGS      0       /* u8 FR_F_* */
#define FR_H_RING       1       /* u8: 2^(v % 13) dwords */
#define FR_H_RUNS       2       /* u8: 1 + v % 4 calls */
#define FR_H_BUDGET     3       /* u8: 1 + v packets a call */
#define FR_H_VMID       4       /* u8: the ring's VMID, v % 16 */
#define FR_H_QP         5       /* u8: queue_packet's answer, v % 6 (0: ok) */
#define FR_H_RING_LEN   6       /* u16 */
#define FR_H_RPTR       8       /* u32: read pointer (masked, or FR_F_RAW) */
#define FR_H_WPTR       12      /* u32: write pointer, dwords past the read */
                                /* pointer (FR_F_WPTR; else the ring bytes') */
#define FR_H_WPTR_HI    16      /* u32: the write pointer's high half */
#define FR_H_GROW       20      /* u16: dwords it moves on between calls */
#define FR_H_SIZE       22      /* u16: size_dw as is (FR_F_RAW) */

#define FR_F_REGS       0x01    /* reg_read and reg_write */
#define FR_F_QUEUE      0x02    /* queue_packet: the ring is a KIQ */
#define FR_F_GFX_ME     0x04    /* the graphics ME's ring */
#define FR_F_EOP        0x08    /* eop and gpu_clock */
#define FR_F_RAW        0x10    /* size_dw and rptr as given (bad ones too) */
#define FR_F_WPTR       0x20    /* the write pointer from FR_H_WPTR */
#define FR_F_VMID_ONLY  0x40    /* memory faults in VMIDs not the ring's */
#define FR_F_MEM_FAIL   0x80    /* every fifth memory access faults */

/*
 * fuzz-vega10: hsa-gpu-vega10's front end driven as amdgpu (or a hostile
 * guest) drives it: FV_HEAD_SIZE bytes of head, FV_H_OPS_LEN bytes of
 * operations (FV_OP_SIZE each), FV_H_SYS_LEN bytes of system memory (at
 * bus address FV_SYS), then the start of VRAM (offset 0). Addresses the
 * device translates reach these two through the hubs (vega10-gmc.c).
 */
#define FV_SYS          0x0ULL
#define FV_SYS_SIZE     0x40000U        /* the system aperture at reset */
#define FV_VRAM_SIZE    (64ULL << 20)   /* the personality's minimum */
#define FV_VRAM_BACKED  0x40000U        /* VRAM bytes that exist here */
#define FV_HEAD_SIZE    8U
#define FV_H_FLAGS      0       /* u8 FV_F_* */
#define FV_H_REV        1       /* u8: the revision */
#define FV_H_OPS_LEN    2       /* u16 */
#define FV_H_SYS_LEN    4       /* u16 */

#define FV_F_BUS        0x01    /* the CP's addresses are bus addresses */
#define FV_F_IH_FAIL    0x02    /* every third IH memory write fails */
#define FV_F_NO_CLOCK   0x04    /* no clock callback */
#define FV_F_NO_VRAM    0x08    /* no VRAM window callback */
#define FV_F_MIN_OPS    0x10    /* the CP without eop/invalidate/stopped */

/*
 * An operation: u8 op (% FV_NOPS), u8 a, u16 b, u32 val. Registers are
 * named by a and b: a < FV_NBLOCKS picks a block of interesting
 * registers (fv_blocks) and b an offset in it; a larger a is a raw
 * number, ((a - FV_NBLOCKS) << 16 | b) % V10_NREGS.
 */
#define FV_OP_SIZE      8U
#define FV_OP_WRITE     0       /* register (a, b) = val */
#define FV_OP_READ      1       /* register (a, b) */
#define FV_OP_DOORBELL  2       /* dword b (a & 0x80: (a & 0x1f) << 16 | b) */
                                /* = val (a & 0x40: val in the high half), */
                                /* 8 bytes (a & 0x20: 4) */
#define FV_OP_PASS      3       /* a CP pass of 1 + b % 64 packets a ring */
                                /* (a & 1: the scheduler's quantum ended) */
#define FV_OP_XLAT      4       /* translate b << 32 | val: hub a & 1, */
                                /* VMID a >> 1 & 31, access a >> 6 */
#define FV_OP_IH_PUSH   5       /* an IV: client a, src b & 0xff, ... */
#define FV_OP_SDMA      6       /* run SDMA queue a % 8, 1 + b % 32 packets */
#define FV_OP_RESET     7       /* the driver's GPU reset */
#define FV_OP_CLOCK     8       /* the clock moves on by val */
#define FV_OP_MEM       9       /* the driver writes val to memory: */
                                /* a & 1 VRAM, else system, at b << 2 | */
                                /* (a >> 1) << 18 */
#define FV_NOPS         10

#ifdef HW_HSAGPU_VEGA10_H
/* Blocks of registers the fuzzer names most (the driver programs them) */
static const struct {
    uint32_t base, span;
} fv_blocks[] = {
    { V10_MM_INDEX, 0x10 },             /* MM and SMN windows */
    { V10_GRBM_GFX_CNTL, 1 },           /* the bank select */
    { V10_CP_ME_CNTL, 1 },
    { V10_CP_RB0_BASE, 0x78 },          /* RB0, doorbell, INT_CNTLs */
    { V10_HQD_FIRST, V10_HQD_NREGS },   /* the selected HQD */
    { V10_RLC_CP_SCHEDULERS, 1 },       /* the KIQ */
    { V10_SH_MEM_BASES, 4 },
    { V10_RLC_SAFE_MODE, 0x60 },        /* RLC, clock capture */
    { V10_GFXHUB_FAULT_CNTL, 9 },
    { V10_GFXHUB_CONTEXT0_CNTL, 0xcc }, /* contexts, invalidation */
    { V10_GFXHUB_FB_OFFSET, 0x1c },     /* apertures */
    { V10_GFXHUB_FAULT_CNTL + V10_MMHUB_VM_DIST, 9 },
    { V10_GFXHUB_CONTEXT0_CNTL + V10_MMHUB_VM_DIST, 0xcc },
    { V10_GFXHUB_FB_OFFSET + V10_MMHUB_MC_DIST, 0x1c },
    { V10_IH_VMID_0_LUT, 0x20 },
    { V10_IH_RB_CNTL, 0x41 },           /* rings 0-2, IH_CNTL */
    { V10_SDMA0_F32_CNTL, 1 },
    { V10_SDMA0_GFX_RB_CNTL, V10_SDMA_QUEUES * V10_SDMA_QUEUE_STRIDE },
    { V10_SDMA0_F32_CNTL + V10_SDMA_ENGINE_STRIDE, 1 },
    { V10_SDMA0_GFX_RB_CNTL + V10_SDMA_ENGINE_STRIDE,
      V10_SDMA_QUEUES * V10_SDMA_QUEUE_STRIDE },
    { V10_GPU_HDP_FLUSH_REQ, 2 },
    { V10_SCRATCH_REG0, V10_SCRATCH_NREGS },
    { V10_MMIO_REMAP_OFFSET / 4, 1024 },
};
#define FV_NBLOCKS      (sizeof(fv_blocks) / sizeof(fv_blocks[0]))

static inline uint32_t fv_reg(uint8_t a, uint16_t b)
{
    if (a < FV_NBLOCKS) {
        return fv_blocks[a].base + b % fv_blocks[a].span;
    }
    return ((uint32_t)(a - FV_NBLOCKS) << 16 | b) % V10_NREGS;
}
#endif

#endif
