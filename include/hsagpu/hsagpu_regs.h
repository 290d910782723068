/* SPDX-License-Identifier: (GPL-2.0-or-later OR MIT) */
/*
 * hsagpu registers: the device's PCI identity, BAR layout, BAR5 register
 * file, per-queue register blocks and expansion ROM information table.
 *
 * The single source of truth for the register interface, included by the
 * QEMU device model, the Linux driver and the tests that poke registers.
 * Packets, signals and the queue ABI seen by user space are in
 * hsagpu_aql.h. Plain C with fixed-width types.
 */
#ifndef HSAGPU_REGS_H
#define HSAGPU_REGS_H

#include "hsagpu_aql.h"     /* ABI version, queue limits, states, errors */

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif

/* ------------------------------------------------------------------ */
/* PCI identity                                                        */
/* ------------------------------------------------------------------ */

#define HSAGPU_PCI_VENDOR_ID            0x1b36  /* Red Hat / QEMU */
#define HSAGPU_PCI_DEVICE_ID            0x00f0  /* see QEMU docs/specs/pci-ids.rst */
#define HSAGPU_PCI_SUBSYS_VENDOR_ID     0x1af4
#define HSAGPU_PCI_SUBSYS_ID            0x1100
#define HSAGPU_PCI_REVISION             0x01
/* Processing accelerator, no programming interface */
#define HSAGPU_PCI_CLASS_CODE           0x120000

/* ------------------------------------------------------------------ */
/* BAR layout (Vega-style "large BAR")                                 */
/* ------------------------------------------------------------------ */

#define HSAGPU_BAR_VRAM                 0   /* 64-bit prefetchable, BAR0/1 */
#define HSAGPU_BAR_DOORBELL             2   /* 64-bit prefetchable, BAR2/3 */
#define HSAGPU_BAR_IO                   4   /* optional legacy I/O, 256 B */
#define HSAGPU_BAR_READ_ALIAS           4   /* or: cached read alias */
#define HSAGPU_BAR_MMIO                 5   /* 32-bit non-prefetchable */

#define HSAGPU_VRAM_SIZE_DEFAULT        (256ULL << 20)
#define HSAGPU_VRAM_SIZE_MIN            (1ULL << 20)
#define HSAGPU_VRAM_SIZE_MAX            (64ULL << 30)

#define HSAGPU_DOORBELL_BAR_SIZE        (2U << 20)
#define HSAGPU_DOORBELL_STRIDE          8U
#define HSAGPU_DOORBELL_COUNT \
	(HSAGPU_DOORBELL_BAR_SIZE / HSAGPU_DOORBELL_STRIDE)

#define HSAGPU_MMIO_BAR_SIZE            (256U << 10)
#define HSAGPU_IO_BAR_SIZE              256U
#define HSAGPU_ROM_SIZE                 (128U << 10)

#define HSAGPU_NUM_QUEUES_DEFAULT       64U
#define HSAGPU_NUM_QUEUES_MAX           1024U

/*
 * Compute units the device reports (ROCm topology: SIMDs, wavefronts);
 * the built-in kernels do not depend on it. A device before ABI 1.4 has
 * no register and 0 in the ROM table: take the default.
 */
#define HSAGPU_COMPUTE_UNITS_DEFAULT    8U
#define HSAGPU_COMPUTE_UNITS_MIN        1U
#define HSAGPU_COMPUTE_UNITS_MAX        64U

/*
 * MSI-X: vector 0 carries device errors and events; queues select any
 * vector in 0..N-1 (0 is shared with device errors, 1..N-1 are meant for
 * queues). The table and PBA live at the top of BAR5.
 */
#define HSAGPU_MSIX_VEC_ERROR           0U
#define HSAGPU_MSIX_VECTORS_MAX         2048U
#define HSAGPU_MSIX_TABLE_OFFSET        0x38000U
#define HSAGPU_MSIX_PBA_OFFSET          0x3f000U

/* Largest Max Payload Size the device supports (DevCap) */
#define HSAGPU_MAX_PAYLOAD_SUPPORTED    256U
#define HSAGPU_P2P_ADDR_BITS_DEFAULT    44U     /* GFX9 class; GFX8: 40 */
#define HSAGPU_P2P_ADDR_BITS_MIN        32U
#define HSAGPU_P2P_ADDR_BITS_MAX        64U

/* Config-space placement of capabilities */
#define HSAGPU_CAP_PM_OFFSET            0x50
#define HSAGPU_CAP_PCIE_OFFSET          0x64
#define HSAGPU_CAP_MSIX_OFFSET          0xa0
#define HSAGPU_EXT_CAP_AER_OFFSET       0x100
#define HSAGPU_EXT_CAP_DSN_OFFSET       0x150

/* ------------------------------------------------------------------ */
/* BAR5 register file (32-bit registers, little endian)                */
/* ------------------------------------------------------------------ */

#define HSAGPU_MAGIC_VALUE              0x47415348U  /* "HSAG" */

/* Identification block, read only */
#define HSAGPU_REG_MAGIC                0x0000
#define HSAGPU_REG_ABI_VERSION          0x0004  /* major << 16 | minor */
#define HSAGPU_REG_CAPS                 0x0008  /* HSAGPU_CAP_* */
#define HSAGPU_REG_DEVICE_ID            0x000c  /* device << 16 | vendor */
#define HSAGPU_REG_VRAM_SIZE_LO         0x0010
#define HSAGPU_REG_VRAM_SIZE_HI         0x0014
#define HSAGPU_REG_DOORBELL_COUNT       0x0018
#define HSAGPU_REG_DOORBELL_STRIDE      0x001c
#define HSAGPU_REG_NUM_QUEUES           0x0020
#define HSAGPU_REG_MSIX_VECTORS         0x0024
#define HSAGPU_REG_ROM_SIZE             0x0028
#define HSAGPU_REG_REVISION             0x002c
#define HSAGPU_REG_COMPUTE_UNITS        0x0030  /* ABI >= 1.4: property */
						/* compute-units */

/* Control and status */
#define HSAGPU_REG_SCRATCH0             0x0040  /* read/write, no effect */
#define HSAGPU_REG_SCRATCH1             0x0044
#define HSAGPU_REG_STATUS               0x0048  /* HSAGPU_STATUS_*, RO */
#define HSAGPU_REG_ERROR_STATUS         0x004c  /* HSAGPU_ERR_*, W1C */
#define HSAGPU_REG_BAD_ACCESS_COUNT     0x0050  /* RO, saturating */
#define HSAGPU_REG_BAD_ACCESS_ADDR      0x0054  /* bar << 28 | offset, RO */
#define HSAGPU_REG_BAD_ACCESS_INFO      0x0058  /* HSAGPU_BAD_ACCESS_* */
#define HSAGPU_REG_ERROR_INT_ENABLE     0x005c  /* HSAGPU_ERR_*: MSI-X vec 0 */
#define HSAGPU_REG_TIMESTAMP_LO         0x0060  /* ns of virtual time */
#define HSAGPU_REG_TIMESTAMP_HI         0x0064  /* latched on LO read */

/*
 * AtomicOp engine: issue one PCIe AtomicOp (FetchAdd, Swap, CAS) to a bus
 * address, as the queue processor does for signals and dispatch ids.
 * Writing ATOMIC_CTRL with GO set runs it to completion before the write
 * returns; ATOMIC_STATUS then holds the outcome, ATOMIC_RESULT the
 * original value at the target. 128-bit operands only exist for CAS.
 */
#define HSAGPU_REG_ATOMIC_ADDR_LO       0x0100
#define HSAGPU_REG_ATOMIC_ADDR_HI       0x0104
#define HSAGPU_REG_ATOMIC_SRC0          0x0108  /* 4 dwords: add/swap/compare */
#define HSAGPU_REG_ATOMIC_SRC1          0x0118  /* 4 dwords: CAS swap value */
#define HSAGPU_REG_ATOMIC_RESULT        0x0128  /* 4 dwords, RO */
#define HSAGPU_REG_ATOMIC_CTRL          0x0138
#define HSAGPU_REG_ATOMIC_STATUS        0x013c  /* RO */
#define HSAGPU_REG_ATOMIC_REPEAT        0x0140  /* run the op N times (0 = 1) */
#define HSAGPU_REG_ATOMIC_VMID          0x0144  /* address space of ADDR */

#define HSAGPU_ATOMIC_OP_MASK           0x3U
#define HSAGPU_ATOMIC_OP_FETCHADD       0U
#define HSAGPU_ATOMIC_OP_SWAP           1U
#define HSAGPU_ATOMIC_OP_CAS            2U
#define HSAGPU_ATOMIC_SIZE_SHIFT        4
#define HSAGPU_ATOMIC_SIZE_MASK         (0x3U << HSAGPU_ATOMIC_SIZE_SHIFT)
#define HSAGPU_ATOMIC_SIZE_32           (0U << HSAGPU_ATOMIC_SIZE_SHIFT)
#define HSAGPU_ATOMIC_SIZE_64           (1U << HSAGPU_ATOMIC_SIZE_SHIFT)
#define HSAGPU_ATOMIC_SIZE_128          (2U << HSAGPU_ATOMIC_SIZE_SHIFT)
#define HSAGPU_ATOMIC_GO                (1U << 31)
/*
 * The repeats run inside the ATOMIC_CTRL write, with the BQL held: the
 * cap bounds that write to about a millisecond of host atomics.
 */
#define HSAGPU_ATOMIC_REPEAT_MAX        (1U << 16)

/* ATOMIC_STATUS: bits 3:0 outcome, bit 8 done */
#define HSAGPU_ATOMIC_ST_MASK           0xfU
#define HSAGPU_ATOMIC_ST_NONE           0U  /* nothing issued since reset */
#define HSAGPU_ATOMIC_ST_OK             1U  /* successful completion */
#define HSAGPU_ATOMIC_ST_UR             2U  /* Unsupported Request */
#define HSAGPU_ATOMIC_ST_CA             3U  /* Completer Abort */
#define HSAGPU_ATOMIC_ST_MALFORMED      4U  /* misaligned or bad size */
#define HSAGPU_ATOMIC_ST_NOT_ENABLED    5U  /* DevCtl2 requester enable off */
#define HSAGPU_ATOMIC_ST_NO_BUS_MASTER  6U  /* Command.BME off */
#define HSAGPU_ATOMIC_ST_P2P_LIMIT      7U  /* peer BAR above p2p-addr-bits */
#define HSAGPU_ATOMIC_ST_VM_FAULT       8U  /* ADDR does not translate */
#define HSAGPU_ATOMIC_ST_COUNT          9U
#define HSAGPU_ATOMIC_DONE              (1U << 8)

/* Counters (RO, wrap): ops issued by type, then outcomes by status code */
#define HSAGPU_REG_ATOMIC_CNT_OP(op)    (0x0180 + 4 * (op))
#define HSAGPU_REG_ATOMIC_CNT_ST(st)    (0x01a0 + 4 * (st))

/* Queue processor counters (RO, wrap) */
#define HSAGPU_REG_PKT_PROCESSED        0x0200  /* packets completed */
#define HSAGPU_REG_PKT_DOORBELLS        0x0204  /* processor wake-ups */
#define HSAGPU_REG_PKT_IRQS             0x0208  /* queue interrupts sent */
#define HSAGPU_REG_PKT_ERRORS           0x020c  /* queues put in error */
#define HSAGPU_REG_QUEUE_ERROR_FIRST    0x0210  /* lowest queue in error, */
						/* or 0xffffffff */
/*
 * GCN interpreter counters (RO, wrap; 64-bit ones LO then HI, or one
 * 64-bit read): wave instructions executed, active lanes of the vector
 * instructions among them, waves launched.
 */
#define HSAGPU_REG_GCN_INSNS_LO         0x0220
#define HSAGPU_REG_GCN_INSNS_HI         0x0224
#define HSAGPU_REG_GCN_LANE_OPS_LO      0x0228
#define HSAGPU_REG_GCN_LANE_OPS_HI      0x022c
#define HSAGPU_REG_GCN_WAVES            0x0230

/*
 * DMA engine and link (see "DMA engine" in docs/registers.md). MPS and
 * MRRS are what the guest programmed into the PCIe Device Control
 * register; DMA is split into TLPs of at most that size, never crossing
 * an MPS/MRRS-aligned boundary (so never a 4 KiB one).
 */
#define HSAGPU_REG_LINK_MPS             0x0300  /* RO: bytes, DevCtl */
#define HSAGPU_REG_LINK_MRRS            0x0304  /* RO: bytes, DevCtl */
#define HSAGPU_REG_P2P_ADDR_BITS        0x0308  /* RO: property p2p-addr-bits */
#define HSAGPU_REG_P2P_STATUS           0x030c  /* RO: HSAGPU_P2P_* */
#define HSAGPU_REG_DMA_PACKETS          0x0310  /* RO: DMA packets completed */
#define HSAGPU_REG_SDMA_PACKETS         0x0314  /* RO: SDMA ring packets */
#define HSAGPU_REG_DMA_BAD_ADDR_LO      0x0318  /* RO: bus address behind */
#define HSAGPU_REG_DMA_BAD_ADDR_HI      0x031c  /*  the last DMA error */

/* P2P_STATUS: BAR placement against the device's address limit */
#define HSAGPU_P2P_VRAM_OK              (1U << 0)   /* BAR0 end <= 2^bits */
#define HSAGPU_P2P_DOORBELL_OK          (1U << 1)   /* BAR2 end <= 2^bits */
#define HSAGPU_P2P_OK                   (1U << 2)   /* both: P2P possible */

/*
 * Traffic counters, 64-bit (read as one 64-bit access, or LO then HI
 * without atomicity), wrap, for each target class: read requests
 * (MRRS-sized), bytes read, write TLPs (MPS-sized), bytes written.
 * LOCAL (own VRAM) traffic never reaches the link: bytes only.
 */
#define HSAGPU_DMA_CLASS_SYSTEM         0U  /* system memory, via the RC */
#define HSAGPU_DMA_CLASS_PEER           1U  /* another device's BAR */
#define HSAGPU_DMA_CLASS_LOCAL          2U  /* this device's VRAM */
#define HSAGPU_DMA_CLASS_COUNT          3U
#define HSAGPU_REG_DMA_CNT(cls, n)      (0x0340 + 0x20 * (cls) + 8 * (n))
#define HSAGPU_DMA_CNT_RD_REQS          0U
#define HSAGPU_DMA_CNT_RD_BYTES         1U
#define HSAGPU_DMA_CNT_WR_TLPS          2U
#define HSAGPU_DMA_CNT_WR_BYTES         3U

/*
 * GPU virtual memory (docs/vm.md): 16 address spaces (VMIDs). VMID 0 is
 * the driver's: addresses are bus addresses, as without GPUVM. VMIDs
 * 1..15 are translated by a four-level page table the device walks
 * (Vega GMC v9 style: 48-bit VA, 512 entries of 8 bytes per level, 4 KiB
 * pages, 2 MiB and 1 GiB pages where a directory entry is a leaf).
 * Every access made for a queue, ring and indices included, is
 * translated in the queue's VMID (HSAGPU_QXREG_VMID); register-issued
 * AtomicOps in HSAGPU_REG_ATOMIC_VMID.
 */
#define HSAGPU_VM_NUM_VMIDS             16U
#define HSAGPU_VM_VA_BITS               48U
#define HSAGPU_VM_PAGE_SHIFT            12U
#define HSAGPU_VM_LEVELS                4U
#define HSAGPU_VM_LEVEL_BITS            9U      /* 512 entries per table */
#define HSAGPU_VM_TABLE_SIZE            4096U

/* Page directory and page table entries (64-bit, little endian) */
#define HSAGPU_PTE_VALID                (1ULL << 0)
#define HSAGPU_PTE_SYSTEM               (1ULL << 1)  /* bus address, else */
						     /* VRAM offset */
#define HSAGPU_PTE_SNOOPED              (1ULL << 2)  /* coherent with CPUs */
#define HSAGPU_PTE_EXECUTABLE           (1ULL << 4)
#define HSAGPU_PTE_READABLE             (1ULL << 5)
#define HSAGPU_PTE_WRITEABLE            (1ULL << 6)
#define HSAGPU_PTE_ADDR_MASK            0x0000fffffffff000ULL /* 47:12 */
/* In a directory entry of level 2 or 1: a leaf (1 GiB or 2 MiB page). */
#define HSAGPU_PDE_PTE                  (1ULL << 54)
/*
 * A directory entry uses VALID, SYSTEM (the next table is in system
 * memory at a bus address, else in VRAM) and ADDR (4 KiB aligned).
 */
#define HSAGPU_PTE_PERMS \
	(HSAGPU_PTE_READABLE | HSAGPU_PTE_WRITEABLE | HSAGPU_PTE_EXECUTABLE)

/* Level 3 (root) indexes VA bits 47:39, level 0 bits 20:12. */
#define HSAGPU_VM_LEVEL_SHIFT(l) \
	(HSAGPU_VM_PAGE_SHIFT + HSAGPU_VM_LEVEL_BITS * (l))
#define HSAGPU_VM_INDEX(va, l) \
	(((va) >> HSAGPU_VM_LEVEL_SHIFT(l)) & 511U)

/*
 * Invalidation: write the VMIDs (bit v for VMID v) to INVALIDATE_REQ,
 * optionally with RANGE and the pages in INVALIDATE_ADDR/PAGES; the
 * write clears those VMIDs' bits in INVALIDATE_ACK, which are set again
 * once no access can use a translation from before the request. Wait
 * for the ACK bits before reusing a page that was unmapped. Writing a
 * context's PT_BASE or CNTL also invalidates that VMID.
 */
#define HSAGPU_REG_VM_INVALIDATE_REQ    0x0700
#define HSAGPU_REG_VM_INVALIDATE_ACK    0x0704  /* RO */
#define HSAGPU_REG_VM_INVALIDATE_ADDR_LO 0x0708 /* VA, 4 KiB aligned */
#define HSAGPU_REG_VM_INVALIDATE_ADDR_HI 0x070c
#define HSAGPU_REG_VM_INVALIDATE_PAGES  0x0710  /* 4 KiB pages, 0 = all */
#define HSAGPU_VM_INV_VMIDS_MASK        0xffffU
#define HSAGPU_VM_INV_RANGE             (1U << 31)

/*
 * Fault registers: the first fault since FAULT_STATUS.VALID was cleared
 * (write 1 to VALID); MORE says later ones were not latched.
 * FAULT_COUNT counts every fault (wraps). The queue that faulted also
 * holds its own fault (HSAGPU_QXREG_FAULT_*), and goes into ERROR with
 * HSAGPU_QERR_VM_FAULT; ERROR_STATUS.VM_FAULT is raised.
 */
#define HSAGPU_REG_VM_FAULT_STATUS      0x0720  /* W1C: VALID */
#define HSAGPU_REG_VM_FAULT_ADDR_LO     0x0724
#define HSAGPU_REG_VM_FAULT_ADDR_HI     0x0728
#define HSAGPU_REG_VM_FAULT_COUNT       0x072c  /* RO */
/* Counters (RO, wrap): page walks, TLB hits, invalidations served */
#define HSAGPU_REG_VM_WALKS             0x0730
#define HSAGPU_REG_VM_TLB_HITS          0x0734
#define HSAGPU_REG_VM_INVALIDATIONS     0x0738

/* FAULT_STATUS and QXREG_FAULT_INFO */
#define HSAGPU_VM_FAULT_VALID           (1U << 0)
#define HSAGPU_VM_FAULT_MORE            (1U << 1)   /* FAULT_STATUS only */
#define HSAGPU_VM_FAULT_VMID_SHIFT      4           /* bits 7:4 */
#define HSAGPU_VM_FAULT_VMID_MASK       (0xfU << HSAGPU_VM_FAULT_VMID_SHIFT)
#define HSAGPU_VM_FAULT_CLIENT_SHIFT    8           /* bits 11:8 */
#define HSAGPU_VM_FAULT_CLIENT_MASK     (0xfU << HSAGPU_VM_FAULT_CLIENT_SHIFT)
#define HSAGPU_VM_FAULT_ACCESS_SHIFT    12          /* bits 13:12 */
#define HSAGPU_VM_FAULT_ACCESS_MASK     (0x3U << HSAGPU_VM_FAULT_ACCESS_SHIFT)
#define HSAGPU_VM_FAULT_REASON_SHIFT    16          /* bits 19:16 */
#define HSAGPU_VM_FAULT_REASON_MASK     (0xfU << HSAGPU_VM_FAULT_REASON_SHIFT)
#define HSAGPU_VM_FAULT_QUEUE_SHIFT     20          /* bits 31:20, */
#define HSAGPU_VM_FAULT_QUEUE_MASK      (0xfffU << HSAGPU_VM_FAULT_QUEUE_SHIFT)
#define HSAGPU_VM_FAULT_QUEUE_NONE      0xfffU      /* not for a queue */

/* Who made the access */
#define HSAGPU_VM_CLIENT_PACKET         1U  /* ring, read/write indices */
#define HSAGPU_VM_CLIENT_SIGNAL         2U  /* signals, event mailboxes */
#define HSAGPU_VM_CLIENT_KERNEL         3U  /* kernargs, kernel buffers */
#define HSAGPU_VM_CLIENT_DMA            4U  /* DMA data and descriptors */
#define HSAGPU_VM_CLIENT_ATOMIC         5U  /* register-issued AtomicOp */

/* What kind of access */
#define HSAGPU_VM_ACCESS_READ           0U
#define HSAGPU_VM_ACCESS_WRITE          1U
#define HSAGPU_VM_ACCESS_ATOMIC         2U  /* needs READABLE and WRITEABLE */
#define HSAGPU_VM_ACCESS_EXECUTE        3U

/* Why it faulted */
#define HSAGPU_VM_REASON_NOT_PRESENT    1U  /* a PDE or PTE without VALID */
#define HSAGPU_VM_REASON_PERMISSION     2U  /* R/W/X bit missing */
#define HSAGPU_VM_REASON_RANGE          3U  /* outside the context's range */
#define HSAGPU_VM_REASON_BAD_ENTRY      4U  /* misaligned large page, leaf */
					    /* at the root, VRAM offset */
					    /* beyond VRAM */
#define HSAGPU_VM_REASON_WALK           5U  /* a table could not be read */
#define HSAGPU_VM_REASON_CONTEXT        6U  /* VMID not enabled */

/*
 * Per-VMID context registers, VMIDs 1..15 (VMID 0's block reads as 0
 * and ignores writes). PT_BASE: the root table (4 KiB aligned), a VRAM
 * offset or, with HSAGPU_VM_PT_SYSTEM, a bus address. START and END:
 * the first and last valid 4 KiB page number of the VA range.
 */
#define HSAGPU_REG_VM_CTX(v)            (0x0800 + 0x20 * (v))
#define HSAGPU_VM_CTX_PT_BASE_LO        0x00
#define HSAGPU_VM_CTX_PT_BASE_HI        0x04
#define HSAGPU_VM_CTX_START_LO          0x08
#define HSAGPU_VM_CTX_START_HI          0x0c
#define HSAGPU_VM_CTX_END_LO            0x10
#define HSAGPU_VM_CTX_END_HI            0x14
#define HSAGPU_VM_CTX_CNTL              0x18
#define HSAGPU_VM_PT_SYSTEM             (1U << 0)   /* in PT_BASE_LO */
#define HSAGPU_VM_CNTL_ENABLE           (1U << 0)
#define HSAGPU_VM_CNTL_ALL              0x1U

/*
 * Cached read alias (HSAGPU_CAP_READ_ALIAS; docs/registers.md
 * "Cached read alias"). With property read-alias-size, BAR4 is a 32-bit
 * memory BAR (prefetchable with read-alias-prefetchable=on) aliasing the
 * first RALIAS_SIZE bytes of VRAM,
 * meant to be mapped cacheable (write-back) for reads while BAR0 stays
 * write-combining for stores. The device keeps a directory of the 64-byte
 * lines of that window it wrote since the host last cleared them (CPU
 * writes through BAR0 or BAR4 mark nothing): the host flushes only those
 * lines from its caches before reading. Word i of the directory covers
 * VRAM [i * 4 KiB, (i + 1) * 4 KiB), bit b the line at i * 4 KiB + b * 64.
 *
 * Finding dirty lines: write DIR_CURSOR with a word index; each read of
 * DIR_NEXT moves the cursor to the first non-zero word at or after it and
 * returns its index (DIR_WORDS: none); DIR_WORD (8-byte reads only)
 * returns the word at the cursor ANDed with DIR_MASK and advances the
 * cursor; DIR_TAKE does the same and clears the returned bits in the same
 * atomic step, so that a line the device marks meanwhile is never lost.
 * DIR_CLEAR_COUNT writes clear lines [DIR_CLEAR_FIRST, + count) (clipped
 * to the window), DIR_CTRL.CLEAR_ALL all of them. Without the alias the
 * block reads as 0 (DIR_WORDS 0) and writes do nothing.
 */
#define HSAGPU_REG_RALIAS_SIZE_LO       0x0c00  /* RO: bytes, 0 = no alias */
#define HSAGPU_REG_RALIAS_SIZE_HI       0x0c04  /* RO */
#define HSAGPU_REG_DIR_WORDS            0x0c08  /* RO: RALIAS_SIZE / 4 KiB */
#define HSAGPU_REG_DIR_CURSOR           0x0c0c  /* RW: word index */
#define HSAGPU_REG_DIR_NEXT             0x0c10  /* RO, moves DIR_CURSOR */
#define HSAGPU_REG_DIR_CLEAR_FIRST      0x0c14  /* RW: line index */
#define HSAGPU_REG_DIR_CLEAR_COUNT      0x0c18  /* WO: lines to clear */
#define HSAGPU_REG_DIR_CTRL             0x0c1c  /* WO: HSAGPU_DIR_CTRL_* */
#define HSAGPU_REG_DIR_MASK             0x0c20  /* RW, 64-bit (or 2 x 4 B) */
#define HSAGPU_REG_DIR_WORD             0x0c28  /* RO, 8-byte reads */
#define HSAGPU_REG_DIR_TAKE             0x0c30  /* RO, 8-byte reads, clears */
#define HSAGPU_REG_DIR_END              0x0c38
#define HSAGPU_DIR_CTRL_CLEAR_ALL       (1U << 0)
#define HSAGPU_DIR_LINE_BYTES           64U
#define HSAGPU_DIR_WORD_BYTES           4096U   /* VRAM per directory word */
/* read-alias-size: 0 (no alias) or a power of two in [1 MiB, 1 GiB] */
#define HSAGPU_RALIAS_SIZE_MIN          (1ULL << 20)
#define HSAGPU_RALIAS_SIZE_MAX          (1ULL << 30)

/* End of the global register space; per-queue blocks follow. */
#define HSAGPU_REG_SPACE_END            0x1000

/*
 * Per-queue register blocks: queue q at HSAGPU_REG_QUEUE(q). The driver
 * fills the registration registers, then writes QCMD_ENABLE to QREG_CMD.
 * Commands run to completion before the MMIO write returns, except DRAIN,
 * whose end shows as state SUSPENDED. Reading QREG_CMD returns the last
 * command's result (HSAGPU_QCMD_*).
 */
#define HSAGPU_REG_QUEUE_BASE           0x10000
#define HSAGPU_QUEUE_REG_STRIDE         0x40
#define HSAGPU_REG_QUEUE(q) \
	(HSAGPU_REG_QUEUE_BASE + (q) * HSAGPU_QUEUE_REG_STRIDE)

#define HSAGPU_QREG_RING_LO             0x00    /* ring bus address, 64 B */
#define HSAGPU_QREG_RING_HI             0x04    /*  aligned */
#define HSAGPU_QREG_RING_SIZE           0x08    /* packets, power of two */
						/* (QF_SDMA: bytes) */
#define HSAGPU_QREG_DOORBELL            0x0c    /* doorbell index in BAR2 */
#define HSAGPU_QREG_RPTR_LO             0x10    /* &read_dispatch_id, 8 B */
#define HSAGPU_QREG_RPTR_HI             0x14    /*  aligned */
#define HSAGPU_QREG_WPTR_LO             0x18    /* &write_dispatch_id */
#define HSAGPU_QREG_WPTR_HI             0x1c
#define HSAGPU_QREG_PRIORITY            0x20    /* 0 (low) .. 15 (high) */
#define HSAGPU_QREG_VECTOR              0x24    /* MSI-X vector, 0..N-1 */
#define HSAGPU_QREG_FLAGS               0x28    /* HSAGPU_QF_* */
#define HSAGPU_QREG_CMD                 0x2c    /* W: HSAGPU_QCMD_*; R: result */
#define HSAGPU_QREG_STATE               0x30    /* RO, see below */
#define HSAGPU_QREG_ERROR_ID_LO         0x34    /* RO: dispatch id of the */
#define HSAGPU_QREG_ERROR_ID_HI         0x38    /*  packet that failed */
#define HSAGPU_QREG_RETIRED             0x3c    /* RO: packets completed */

/* HSAGPU_QREG_FLAGS */
#define HSAGPU_QF_PROFILE               (1U << 0)   /* signal timestamps */
#define HSAGPU_QF_SDMA                  (1U << 1)   /* an SDMA byte ring */
						    /* (hsagpu_sdma.h) */
#define HSAGPU_QF_AMD_QUEUE             (1U << 2)   /* descriptor is ROCr's */
						    /* amd_queue_t (aql.h) */
#define HSAGPU_QF_ALL                   0x7U

/* Commands, written to HSAGPU_QREG_CMD */
#define HSAGPU_QCMD_ENABLE              1U  /* validate, start serving */
#define HSAGPU_QCMD_SUSPEND             2U  /* stop fetching packets */
#define HSAGPU_QCMD_RESUME              3U
#define HSAGPU_QCMD_DRAIN               4U  /* finish queued work, suspend */
#define HSAGPU_QCMD_DESTROY             5U  /* forget; memory no longer used */

/* Command results, read from HSAGPU_QREG_CMD */
#define HSAGPU_QRES_NONE                0U
#define HSAGPU_QRES_OK                  1U
#define HSAGPU_QRES_BAD_COMMAND         2U
#define HSAGPU_QRES_BAD_STATE           3U  /* e.g. ENABLE when enabled */
#define HSAGPU_QRES_BAD_RING            4U  /* size or alignment */
#define HSAGPU_QRES_BAD_POINTER         5U  /* rptr/wptr alignment */
#define HSAGPU_QRES_BAD_ADDRESS         6U  /* ring/rptr/wptr not memory */
#define HSAGPU_QRES_BAD_DOORBELL        7U  /* out of range or in use */
#define HSAGPU_QRES_BAD_VECTOR          8U
#define HSAGPU_QRES_BAD_PRIORITY        9U
#define HSAGPU_QRES_BAD_FLAGS           10U
#define HSAGPU_QRES_NO_BUS_MASTER       11U
#define HSAGPU_QRES_DEVICE_FATAL        12U /* ENABLE after a fatal error */
#define HSAGPU_QRES_BAD_VMID            13U /* QXREG_VMID beyond 15 */

/*
 * Extended per-queue registers: queue q at HSAGPU_REG_QUEUE_X(q). VMID
 * is a registration register (written while the queue is disabled,
 * latched at ENABLE); the fault registers hold the VM fault that put
 * the queue into ERROR (cleared by ENABLE and DESTROY).
 */
#define HSAGPU_REG_QUEUE_X_BASE         0x20000
#define HSAGPU_QUEUE_X_STRIDE           0x10
#define HSAGPU_REG_QUEUE_X(q) \
	(HSAGPU_REG_QUEUE_X_BASE + (q) * HSAGPU_QUEUE_X_STRIDE)
#define HSAGPU_QXREG_VMID               0x00
#define HSAGPU_QXREG_FAULT_ADDR_LO      0x04    /* RO */
#define HSAGPU_QXREG_FAULT_ADDR_HI      0x08    /* RO */
#define HSAGPU_QXREG_FAULT_INFO         0x0c    /* RO: HSAGPU_VM_FAULT_* */

/*
 * Global wave sync (HSAGPU_CAP_GWS): queue q's GWS resources, the
 * counters and barriers ds_gws_* reach, at HSAGPU_REG_QUEUE_GWS(q):
 * 0..HSAGPU_GWS_MAX; 0, none, after a reset and QCMD_DESTROY. ds_gws_*
 * on a resource at or past the count fail the queue
 * (HSAGPU_QERR_ILLEGAL_INSTRUCTION, the reason in the guest-error log),
 * as they fault on a queue without GWS. The resources keep their state
 * from dispatch to dispatch (ds_gws_init sets it). A write above
 * HSAGPU_GWS_MAX is a bad register access (HSAGPU_BAD_REASON_VALUE) and
 * changes nothing. A dispatch with GWS runs on one host thread, its
 * workgroups resident until all have started, so that a grid barrier
 * can be passed (docs/isa.md).
 */
#define HSAGPU_REG_QUEUE_GWS_BASE       0x24000
#define HSAGPU_QUEUE_GWS_STRIDE         4
#define HSAGPU_REG_QUEUE_GWS(q) \
	(HSAGPU_REG_QUEUE_GWS_BASE + (q) * HSAGPU_QUEUE_GWS_STRIDE)
#define HSAGPU_GWS_MAX                  64U

/* HSAGPU_REG_CAPS bits */
#define HSAGPU_CAP_ROM_INFO             (1U << 0)   /* ROM info table */
#define HSAGPU_CAP_TIMESTAMP            (1U << 1)   /* TIMESTAMP regs */
#define HSAGPU_CAP_IO_BAR               (1U << 2)   /* legacy I/O BAR4 */
#define HSAGPU_CAP_ATOMIC_COMP32        (1U << 3)   /* completer bits */
#define HSAGPU_CAP_ATOMIC_COMP64        (1U << 4)   /*  as in DevCap2 */
#define HSAGPU_CAP_ATOMIC_COMP128       (1U << 5)
#define HSAGPU_CAP_ATOMIC_ENGINE        (1U << 6)   /* ATOMIC_* registers */
#define HSAGPU_CAP_AQL_QUEUES           (1U << 7)   /* queue blocks, AQL */
#define HSAGPU_CAP_DMA                  (1U << 8)   /* DMA packets, P2P */
#define HSAGPU_CAP_VM                   (1U << 9)   /* GPU virtual memory */
#define HSAGPU_CAP_READ_ALIAS           (1U << 10)  /* BAR4 cached read */
						    /* alias, DIR_* regs */
#define HSAGPU_CAP_GWS                  (1U << 11)  /* QUEUE_GWS regs */

/* HSAGPU_REG_STATUS bits */
#define HSAGPU_STATUS_READY             (1U << 0)
#define HSAGPU_STATUS_ATOMIC_REQ_EN     (1U << 1)   /* DevCtl2 bit 6 */
#define HSAGPU_STATUS_BUS_MASTER        (1U << 2)

/* HSAGPU_REG_ERROR_STATUS bits (write 1 to clear) */
#define HSAGPU_ERR_BAD_MMIO             (1U << 0)   /* bad register access */
#define HSAGPU_ERR_BAD_DOORBELL         (1U << 1)   /* bad doorbell access */
#define HSAGPU_ERR_ATOMIC               (1U << 2)   /* AtomicOp failed */
#define HSAGPU_ERR_QUEUE                (1U << 3)   /* a queue hit an error */
#define HSAGPU_ERR_FATAL                (1U << 4)   /* fatal internal error: */
						    /* queues stopped, reset */
#define HSAGPU_ERR_VM_FAULT             (1U << 5)   /* a VM fault was taken */
#define HSAGPU_ERR_ALL                  0x3fU

/* HSAGPU_REG_BAD_ACCESS_INFO */
#define HSAGPU_BAD_ACCESS_WRITE         (1U << 31)
#define HSAGPU_BAD_ACCESS_SIZE_MASK     0xfU        /* access size, bytes */
#define HSAGPU_BAD_ACCESS_REASON_SHIFT  8
#define HSAGPU_BAD_ACCESS_REASON_MASK   (0xfU << HSAGPU_BAD_ACCESS_REASON_SHIFT)
#define HSAGPU_BAD_REASON_UNMAPPED      1U  /* no register at that offset */
#define HSAGPU_BAD_REASON_SIZE          2U  /* not a 32/64-bit access */
#define HSAGPU_BAD_REASON_ALIGN         3U  /* not naturally aligned */
#define HSAGPU_BAD_REASON_READONLY      4U  /* write to a read-only reg */
#define HSAGPU_BAD_REASON_VALUE         5U  /* a value the register */
					    /* cannot hold */

/* Legacy I/O BAR: an index/data window onto the register file */
#define HSAGPU_IO_INDEX                 0x00
#define HSAGPU_IO_DATA                  0x04

/* ------------------------------------------------------------------ */
/* Expansion ROM                                                       */
/* ------------------------------------------------------------------ */

/*
 * The ROM holds one PCI Firmware image (0x55AA header + "PCIR" data
 * structure) whose code type is not x86 or EFI, so firmware never tries
 * to execute it, and a device information table that the driver parses.
 */
#define HSAGPU_ROM_PCIR_OFFSET          0x20
#define HSAGPU_ROM_INFO_PTR_OFFSET      0x1c    /* le16 offset of info table */
#define HSAGPU_ROM_INFO_OFFSET          0x40
#define HSAGPU_ROM_CODE_TYPE            0x70    /* vendor, not executable */

#define HSAGPU_ROM_INFO_SIGNATURE       0x54494748U  /* "HGIT" */
#define HSAGPU_ROM_INFO_VERSION         1U

struct hsagpu_rom_info {
	uint32_t signature;         /* HSAGPU_ROM_INFO_SIGNATURE */
	uint16_t version;           /* HSAGPU_ROM_INFO_VERSION */
	uint16_t length;            /* bytes, this structure */
	uint16_t vendor_id;         /* equal the PCI IDs */
	uint16_t device_id;
	uint32_t abi_version;       /* equal HSAGPU_REG_ABI_VERSION */
	uint64_t vram_size;         /* bytes */
	uint32_t doorbell_count;
	uint32_t doorbell_stride;
	uint32_t num_queues;
	uint32_t msix_vectors;
	uint32_t caps;              /* equal HSAGPU_REG_CAPS */
	uint32_t compute_units;     /* equal HSAGPU_REG_COMPUTE_UNITS; */
				    /* 0 before ABI 1.4 */
	char name[32];              /* NUL-terminated marketing name */
	uint8_t reserved1[15];
	uint8_t checksum;           /* all bytes of the structure sum to 0 */
} __attribute__((packed));

#define HSAGPU_ROM_INFO_SIZE            96

#endif /* HSAGPU_REGS_H */
