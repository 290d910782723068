/* SPDX-License-Identifier: (GPL-2.0-or-later OR MIT) */
/*
 * hsagpu SDMA rings: the packet subset of AMD's SDMA v4 (gfx9) engine
 * that ROCr 5.2.3's BlitSdmaV4 emits for hsa_amd_memory_async_copy()
 * and hsa_amd_memory_async_copy_rect(), as the hsa-gpu device decodes it;
 * and, on the kernel rings of the Vega10 personality (the engine reaches
 * registers there), what Linux's amdgpu (sdma_v4_0.c) emits besides:
 * WRITE, INDIRECT, PTEPDE, SRBM_WRITE and register polls.
 *
 * A queue registered with HSAGPU_QF_SDMA is a byte ring of dwords, not an
 * AQL ring (docs/registers.md, "SDMA queues"): RING_SIZE is in bytes,
 * *WPTR and *RPTR are 64-bit byte offsets that only grow (the ring
 * position is the offset modulo the size). Packets are 1 to 13 dwords,
 * little endian; dword 0 is the header: opcode in bits 7:0, sub-opcode in
 * bits 15:8. All addresses are in the queue's address space (bus
 * addresses in VMID 0, else GPU virtual addresses). Plain C, fixed-width
 * types, no bitfields.
 */
#ifndef HSAGPU_SDMA_H
#define HSAGPU_SDMA_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif

/* Ring limits, checked at ENABLE (RING_SIZE in bytes, power of two) */
#define HSAGPU_SDMA_RING_MIN            1024U
#define HSAGPU_SDMA_RING_MAX            (16U << 20)
#define HSAGPU_SDMA_RING_ALIGN          256U
#define HSAGPU_SDMA_PKT_MAX_DW          13U     /* the longest packet */

/* Header, dword 0 */
#define HSAGPU_SDMA_HDR_OP(h)           ((h) & 0xffU)
#define HSAGPU_SDMA_HDR_SUB_OP(h)       (((h) >> 8) & 0xffU)
#define HSAGPU_SDMA_HDR(op, sub)        ((uint32_t)(op) | (uint32_t)(sub) << 8)

/* Opcodes */
#define HSAGPU_SDMA_OP_NOP              0U
#define HSAGPU_SDMA_OP_COPY             1U
#define HSAGPU_SDMA_OP_WRITE            2U      /* kernel rings */
#define HSAGPU_SDMA_OP_INDIRECT         4U      /* kernel rings */
#define HSAGPU_SDMA_OP_FENCE            5U
#define HSAGPU_SDMA_OP_TRAP             6U
#define HSAGPU_SDMA_OP_POLL_REGMEM      8U
#define HSAGPU_SDMA_OP_ATOMIC           10U
#define HSAGPU_SDMA_OP_CONST_FILL       11U
#define HSAGPU_SDMA_OP_PTEPDE           12U     /* kernel rings */
#define HSAGPU_SDMA_OP_TIMESTAMP        13U
#define HSAGPU_SDMA_OP_SRBM_WRITE       14U     /* kernel rings */

/* Sub-opcodes */
#define HSAGPU_SDMA_SUBOP_COPY_LINEAR           0U
#define HSAGPU_SDMA_SUBOP_COPY_LINEAR_RECT      4U
#define HSAGPU_SDMA_SUBOP_TIMESTAMP_GET_GLOBAL  2U
#define HSAGPU_SDMA_SUBOP_WRITE_LINEAR          0U
#define HSAGPU_SDMA_SUBOP_PTEPDE_GEN            0U

/*
 * NOP: 1 + count dwords, the rest ignored. ROCr pads the end of the ring
 * with zero dwords (1-dword NOPs) when a submission would not fit; amdgpu
 * pads rings and IBs with zero dwords, or (firmware feature version 20
 * and later, "burst NOP") with one NOP whose count covers the zeros
 * after it.
 */
#define HSAGPU_SDMA_NOP_COUNT(h)        (((h) >> 16) & 0x3fffU)

/*
 * COPY_LINEAR: 7 dwords. Copies count + 1 bytes (1 .. 4 MiB; ROCr splits
 * at 0x3fffe0) from src to dst; the ranges must not overlap. The swap
 * fields and header bits 31:16 must be 0.
 */
#define HSAGPU_SDMA_COUNT_MASK          0x3fffffU
struct hsagpu_sdma_copy_linear {
	uint32_t header;
	uint32_t count;             /* bytes - 1 in bits 21:0 */
	uint32_t parameter;         /* dst_swap 17:16, src_swap 25:24: 0 */
	uint32_t src_lo, src_hi;
	uint32_t dst_lo, dst_hi;
};
/*
 * With header bit 27 (broadcast), 9 dwords: the same bytes to a second
 * destination in dwords 7-8 (kfdtest's two-destination copy); the
 * parameter's dst2_swap 9:8 must be 0 too
 */
#define HSAGPU_SDMA_COPY_BROADCAST      (1U << 27)

/*
 * COPY_LINEAR_RECT: 13 dwords. A sub-window of (rect_x + 1) x
 * (rect_y + 1) x (rect_z + 1) elements of 1 << element bytes (element
 * 0..4, header bits 31:29). Element (x, y, z) of the window is at
 *   base + ((off_x + x) + (off_y + y) * (pitch + 1)
 *          + (off_z + z) * (slice_pitch + 1)) << element
 * on each side; pitches, slice pitches and offsets count elements, bases
 * are dword aligned. Rows are copied in order, y fastest, then z.
 */
#define HSAGPU_SDMA_RECT_ELEMENT(h)     (((h) >> 29) & 0x7U)
#define HSAGPU_SDMA_RECT_ELEMENT_MAX    4U
#define HSAGPU_SDMA_RECT_X(v)           ((v) & 0x3fffU)         /* 13:0 */
#define HSAGPU_SDMA_RECT_Y(v)           (((v) >> 16) & 0x3fffU) /* 29:16 */
#define HSAGPU_SDMA_RECT_Z(v)           ((v) & 0x7ffU)          /* 10:0 */
#define HSAGPU_SDMA_RECT_PITCH(v)       ((v) >> 13)             /* 31:13 */
#define HSAGPU_SDMA_RECT_SLICE(v)       ((v) & 0xfffffffU)      /* 27:0 */
/* Reserved bits (must be 0) of the offset and size dwords */
#define HSAGPU_SDMA_RECT_XY_RSVD        0xc000c000U
#define HSAGPU_SDMA_RECT_Z_RSVD         0x00001800U
#define HSAGPU_SDMA_RECT_SLICE_RSVD     0xf0000000U
#define HSAGPU_SDMA_RECT_SIZE_Z_RSVD    0xfffff800U /* incl. the swaps */
struct hsagpu_sdma_copy_rect {
	uint32_t header;            /* element in bits 31:29 */
	uint32_t src_lo, src_hi;
	uint32_t src_xy;            /* off_x 13:0, off_y 29:16 */
	uint32_t src_z_pitch;       /* off_z 10:0, pitch - 1 in 31:13 */
	uint32_t src_slice;         /* slice_pitch - 1 in 27:0 */
	uint32_t dst_lo, dst_hi;
	uint32_t dst_xy;
	uint32_t dst_z_pitch;
	uint32_t dst_slice;
	uint32_t rect_xy;           /* rect_x - 1 in 13:0, rect_y - 1 29:16 */
	uint32_t rect_z;            /* rect_z - 1 in 10:0; swaps 0 */
};

/*
 * CONST_FILL: 5 dwords. fillsize (header bits 31:30) 2: dwords of data,
 * dst dword aligned, (count >> 2) + 1 dwords (ROCr writes (n - 1) * 4,
 * Linux's amdgpu n * 4 - 1: both mean n); fillsize 0: count + 1 bytes of
 * data's low byte (amdgpu's sdma_v4_0 fills: fillsize 0, count bytes - 1,
 * data 0). Other fillsizes and sw (header bits 17:16) are refused.
 */
#define HSAGPU_SDMA_FILL_SIZE(h)        (((h) >> 30) & 0x3U)
#define HSAGPU_SDMA_FILL_SW(h)          (((h) >> 16) & 0x3U)
#define HSAGPU_SDMA_FILL_BYTE           0U
#define HSAGPU_SDMA_FILL_DWORD          2U
struct hsagpu_sdma_const_fill {
	uint32_t header;
	uint32_t dst_lo, dst_hi;
	uint32_t data;
	uint32_t count;             /* bits 21:0 */
};

/*
 * FENCE: 4 dwords. Writes data (32 bits) to a dword-aligned address once
 * every earlier packet's data is visible. Header bits 31:16 are cache
 * policy hints (mtype, gcc, sys, snp, gpa, l2_policy): ignored.
 */
struct hsagpu_sdma_fence {
	uint32_t header;
	uint32_t addr_lo, addr_hi;
	uint32_t data;
};

/*
 * TRAP: 2 dwords. Raises the queue's MSI-X vector (QREG_VECTOR); the
 * driver then scans its event slots, as for an AQL completion with an
 * event mailbox (ROCr writes the event id to the mailbox with a FENCE
 * first). int_ctx is not interpreted. On the Vega10 personality the
 * interrupt is an IH entry naming the engine and ring, with int_ctx
 * (amdgpu: 0, after its fence).
 */
#define HSAGPU_SDMA_TRAP_CTX_MASK       0x0fffffffU
struct hsagpu_sdma_trap {
	uint32_t header;
	uint32_t int_ctx;           /* bits 27:0 */
};

/*
 * POLL_REGMEM: 6 dwords. With mem_poll (header bit 31) the queue waits
 * until func((*addr & mask), value) holds for the dword at addr (dword
 * aligned), re-reading it like a barrier packet's signals, without
 * holding up other queues; interval and retry_count are not used (it
 * waits as long as it takes, as ROCr's retry_count 0xfff asks).
 * Without mem_poll it is a register poll. On a kernel ring (the engine
 * reaches registers) addr_lo is the byte address of the register to
 * read (its dword offset << 2, below 1 << 20) and addr_hi 0: amdgpu's
 * emit_reg_wait; with hdp_flush (bit 26) addr_hi is the byte address of
 * a request register the engine first writes value to, once, and
 * addr_lo the done register it then polls: amdgpu's HDP flush
 * (GPU_HDP_FLUSH_REQ and _DONE, value = mask = the engine's bit). It
 * waits as a memory poll does. Elsewhere (hsa-gpu) with hdp_flush,
 * ROCr's HDP flush, a no-op (no HDP cache); with func ALWAYS a no-op
 * (the older HDP flush form); any other register poll is refused.
 */
#define HSAGPU_SDMA_POLL_HDP_FLUSH      (1U << 26)
#define HSAGPU_SDMA_POLL_FUNC(h)        (((h) >> 28) & 0x7U)
#define HSAGPU_SDMA_POLL_MEM            (1U << 31)
#define HSAGPU_SDMA_POLL_HDR_RSVD       0x0bff0000U /* bits 25:16, 27 */
#define HSAGPU_SDMA_FUNC_ALWAYS         0U
#define HSAGPU_SDMA_FUNC_LT             1U
#define HSAGPU_SDMA_FUNC_LE             2U
#define HSAGPU_SDMA_FUNC_EQ             3U
#define HSAGPU_SDMA_FUNC_NE             4U
#define HSAGPU_SDMA_FUNC_GE             5U
#define HSAGPU_SDMA_FUNC_GT             6U
#define HSAGPU_SDMA_POLL_RETRY(v)       (((v) >> 16) & 0xfffU)
#define HSAGPU_SDMA_POLL_INTERVAL(v)    ((v) & 0xffffU)
struct hsagpu_sdma_poll_regmem {
	uint32_t header;
	uint32_t addr_lo, addr_hi;
	uint32_t value;
	uint32_t mask;
	uint32_t dw5;               /* interval 15:0, retry_count 27:16 */
};

/*
 * ATOMIC: 8 dwords. operation (header bits 31:25) ADD64: *addr += src
 * (64 bits, addr 8-byte aligned) as a PCIe FetchAdd AtomicOp, the way
 * ROCr completes a signal (src = -1). Other operations are refused.
 */
#define HSAGPU_SDMA_ATOMIC_OPERATION(h) (((h) >> 25) & 0x7fU)
#define HSAGPU_SDMA_ATOMIC_ADD64        47U
struct hsagpu_sdma_atomic {
	uint32_t header;            /* l (loop) bit 16 ignored */
	uint32_t addr_lo, addr_hi;
	uint32_t src_lo, src_hi;
	uint32_t cmp_lo, cmp_hi;
	uint32_t loop_interval;
};

/*
 * TIMESTAMP GET_GLOBAL: 3 dwords. Writes the device time in ns (the
 * TIMESTAMP register's clock, 64 bits) to an 8-byte-aligned address.
 */
struct hsagpu_sdma_timestamp {
	uint32_t header;
	uint32_t addr_lo, addr_hi;
};

/*
 * Registers (kernel rings): dword offsets, 18 bits, as SRBM_WRITE's
 * address field holds them.
 */
#define HSAGPU_SDMA_REG_MASK            0x3ffffU

/*
 * WRITE linear: 4 + count + 1 dwords. Stores the count + 1 data dwords
 * that follow the packet's first 4 (in the ring or the IB) at dst, dword
 * aligned: amdgpu's ring and IB tests (one dword) and write_pte (two per
 * entry). encrypt, tmz (header bits 16, 18) and sw (bits 25:24 of the
 * count dword) are refused.
 */
#define HSAGPU_SDMA_WRITE_COUNT_MASK    0xfffffU        /* dwords - 1 */
struct hsagpu_sdma_write {
	uint32_t header;
	uint32_t dst_lo, dst_hi;
	uint32_t count;             /* dwords - 1 in bits 19:0 */
	/* the data follows */
};

/*
 * INDIRECT: 6 dwords. Runs the indirect buffer (IB) of size dwords
 * (1 .. 2^20 - 1) at base (32-byte aligned) in VMID vmid (header bits
 * 19:16) to its end, then the ring goes on. The IB's packets are read,
 * and access memory, in that VMID; they are any ring packet but
 * INDIRECT (one level), and must end within the IB. csa (the context
 * save area of a preemption) is not used: the engine does not preempt
 * an IB. amdgpu's emit_ib puts one ending on an 8-dword boundary.
 */
#define HSAGPU_SDMA_IB_VMID(h)          (((h) >> 16) & 0xfU)
#define HSAGPU_SDMA_IB_HDR_RSVD         0xfff00000U
#define HSAGPU_SDMA_IB_SIZE_MASK        0xfffffU
#define HSAGPU_SDMA_IB_ALIGN            32U
struct hsagpu_sdma_indirect {
	uint32_t header;            /* vmid in bits 19:16 */
	uint32_t base_lo, base_hi;
	uint32_t size;              /* dwords in bits 19:0 */
	uint32_t csa_lo, csa_hi;
};

/*
 * PTEPDE (generate): 10 dwords. Writes count + 1 64-bit entries from dst
 * (8-byte aligned) on: entry i is (init + i * incr) | mask, the page
 * table entries of a physically contiguous range (amdgpu's
 * set_pte_pde: mask = the PTE flags, init = the first page's address,
 * incr = the page size). Header bits 31:16 must be 0.
 */
#define HSAGPU_SDMA_PTEPDE_COUNT_MASK   0x7ffffU        /* entries - 1 */
struct hsagpu_sdma_ptepde {
	uint32_t header;
	uint32_t dst_lo, dst_hi;
	uint32_t mask_lo, mask_hi;
	uint32_t init_lo, init_hi;
	uint32_t incr_lo, incr_hi;
	uint32_t count;             /* entries - 1 in bits 18:0 */
};

/*
 * SRBM_WRITE: 3 dwords. Writes data to the register at dword offset addr
 * (bits 17:0), the bytes byte_en (header bits 31:28) selects (a partial
 * write keeps the other bytes): amdgpu's emit_wreg (byte_en 0xf), the VM
 * flush's page table base and invalidation requests, HDP invalidates.
 * Header bits 27:16 and addr bits 31:18 must be 0.
 */
#define HSAGPU_SDMA_SRBM_BYTE_EN(h)     (((h) >> 28) & 0xfU)
#define HSAGPU_SDMA_SRBM_HDR_RSVD       0x0fff0000U
struct hsagpu_sdma_srbm_write {
	uint32_t header;
	uint32_t addr;
	uint32_t data;
};

/* Packet lengths in dwords (NOP: 1 + HSAGPU_SDMA_NOP_COUNT) */
#define HSAGPU_SDMA_COPY_LINEAR_DW      7U
#define HSAGPU_SDMA_COPY_BROADCAST_DW   9U
#define HSAGPU_SDMA_COPY_RECT_DW        13U
#define HSAGPU_SDMA_CONST_FILL_DW       5U
#define HSAGPU_SDMA_FENCE_DW            4U
#define HSAGPU_SDMA_TRAP_DW             2U
#define HSAGPU_SDMA_POLL_REGMEM_DW      6U
#define HSAGPU_SDMA_ATOMIC_DW           8U
#define HSAGPU_SDMA_TIMESTAMP_DW        3U
#define HSAGPU_SDMA_WRITE_DW            4U      /* without the data */
#define HSAGPU_SDMA_INDIRECT_DW         6U
#define HSAGPU_SDMA_PTEPDE_DW           10U
#define HSAGPU_SDMA_SRBM_WRITE_DW       3U

#endif /* HSAGPU_SDMA_H */
