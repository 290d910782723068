/* SPDX-License-Identifier: (GPL-2.0-or-later OR MIT) */
/*
 * hsagpu hardware interface: the single source of truth for the device's
 * PCI identity, BAR layout, register file, expansion ROM information table
 * AQL packet, signal and queue layouts and the built-in kernels' ABI.
 *
 * Included by the QEMU device model, the Linux driver, the user-space
 * runtime and the tests; it must stay plain C with fixed-width types.
 */
#ifndef HSAGPU_HW_H
#define HSAGPU_HW_H

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
#define HSAGPU_ABI_MAJOR                1U
#define HSAGPU_ABI_MINOR                2U  /* 1: AQL queues, 2: DMA, P2P */
#define HSAGPU_ABI_VERSION \
	((HSAGPU_ABI_MAJOR << 16) | HSAGPU_ABI_MINOR)

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
#define HSAGPU_ATOMIC_REPEAT_MAX        (1U << 24)

/* ATOMIC_STATUS: bits 3:0 outcome, bit 8 done */
#define HSAGPU_ATOMIC_ST_MASK           0xfU
#define HSAGPU_ATOMIC_ST_NONE           0U  /* nothing issued since reset */
#define HSAGPU_ATOMIC_ST_OK             1U  /* successful completion */
#define HSAGPU_ATOMIC_ST_UR             2U  /* Unsupported Request */
#define HSAGPU_ATOMIC_ST_CA             3U  /* Completer Abort */
#define HSAGPU_ATOMIC_ST_MALFORMED      4U  /* misaligned or bad size */
#define HSAGPU_ATOMIC_ST_NOT_ENABLED    5U  /* DevCtl2 requester enable off */
#define HSAGPU_ATOMIC_ST_NO_BUS_MASTER  6U  /* Command.BME off */
#define HSAGPU_ATOMIC_ST_COUNT          7U
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

#define HSAGPU_QUEUE_PRIORITY_MAX       15U
#define HSAGPU_QUEUE_RING_MIN           4U      /* packets */
#define HSAGPU_QUEUE_RING_MAX           (1U << 20)

/* HSAGPU_QREG_FLAGS */
#define HSAGPU_QF_PROFILE               (1U << 0)   /* signal timestamps */
#define HSAGPU_QF_ALL                   0x1U

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

/* HSAGPU_QREG_STATE: bits 3:0 state, bits 15:8 error code */
#define HSAGPU_QSTATE_MASK              0xfU
#define HSAGPU_QSTATE_DISABLED          0U
#define HSAGPU_QSTATE_ACTIVE            1U
#define HSAGPU_QSTATE_SUSPENDED         2U
#define HSAGPU_QSTATE_DRAINING          3U
#define HSAGPU_QSTATE_ERROR             4U
#define HSAGPU_QSTATE_ERR_SHIFT         8
#define HSAGPU_QSTATE_ERR_MASK          (0xffU << HSAGPU_QSTATE_ERR_SHIFT)

/* Queue error codes: why a queue was put into HSAGPU_QSTATE_ERROR */
#define HSAGPU_QERR_NONE                0U
#define HSAGPU_QERR_PACKET_TYPE         1U  /* unknown packet type */
#define HSAGPU_QERR_DIMENSIONS          2U  /* zero or inconsistent grid */
#define HSAGPU_QERR_ADDRESS             3U  /* unmapped address */
#define HSAGPU_QERR_ALIGNMENT           4U  /* misaligned kernarg/buffer */
#define HSAGPU_QERR_SIGNAL              5U  /* signal not 8-byte aligned */
#define HSAGPU_QERR_RING_OVERRUN        6U  /* write id behind read id */
					    /* (or > 2^31 ahead) */
#define HSAGPU_QERR_KERNEL_OBJECT       7U  /* no such built-in kernel */
#define HSAGPU_QERR_FENCE               8U  /* reserved fence scope */
#define HSAGPU_QERR_UNSUPPORTED         9U  /* packet type not handled */
#define HSAGPU_QERR_AGENT_FUNCTION      10U /* unknown agent dispatch type */
#define HSAGPU_QERR_ATOMIC              11U /* AtomicOp for a signal or */
					    /* read id failed (UR/CA) */
#define HSAGPU_QERR_NO_BUS_MASTER       12U /* bus mastering turned off */
#define HSAGPU_QERR_DMA_OP              13U /* unknown DMA op or flags */
#define HSAGPU_QERR_DMA_SIZE            14U /* zero/too large size or */
					    /* descriptor count */
#define HSAGPU_QERR_DMA_OVERLAP         15U /* copy source overlaps dest */
#define HSAGPU_QERR_P2P_LIMIT           16U /* peer BAR or address above */
					    /* the p2p-addr-bits limit */
#define HSAGPU_QERR_COUNT               17U

/* ------------------------------------------------------------------ */
/* HSA AQL packets (HSA Platform System Architecture, chapter 2)       */
/* ------------------------------------------------------------------ */

#define HSAGPU_AQL_PACKET_SIZE          64U

/* Header: type 7:0, barrier 8, acquire scope 10:9, release scope 12:11 */
#define HSAGPU_PKT_TYPE_VENDOR_SPECIFIC 0U
#define HSAGPU_PKT_TYPE_INVALID         1U
#define HSAGPU_PKT_TYPE_KERNEL_DISPATCH 2U
#define HSAGPU_PKT_TYPE_BARRIER_AND     3U
#define HSAGPU_PKT_TYPE_AGENT_DISPATCH  4U
#define HSAGPU_PKT_TYPE_BARRIER_OR      5U

#define HSAGPU_PKT_HDR_TYPE_SHIFT       0
#define HSAGPU_PKT_HDR_TYPE_MASK        0xffU
#define HSAGPU_PKT_HDR_BARRIER          (1U << 8)
#define HSAGPU_PKT_HDR_ACQUIRE_SHIFT    9
#define HSAGPU_PKT_HDR_RELEASE_SHIFT    11
#define HSAGPU_PKT_HDR_SCOPE_MASK       0x3U

#define HSAGPU_FENCE_SCOPE_NONE         0U
#define HSAGPU_FENCE_SCOPE_AGENT        1U
#define HSAGPU_FENCE_SCOPE_SYSTEM       2U

/* Kernel dispatch setup field: dimensions in bits 1:0 */
#define HSAGPU_DISPATCH_DIMS_MASK       0x3U
#define HSAGPU_WORKGROUP_MAX            1024U   /* work-items */
#define HSAGPU_GRID_MAX                 0xffffffffULL   /* work-items */
#define HSAGPU_KERNARG_ALIGN            16U
#define HSAGPU_BARRIER_DEPS             5

struct hsagpu_kernel_dispatch_packet {
	uint16_t header;
	uint16_t setup;
	uint16_t workgroup_size_x;
	uint16_t workgroup_size_y;
	uint16_t workgroup_size_z;
	uint16_t reserved0;
	uint32_t grid_size_x;
	uint32_t grid_size_y;
	uint32_t grid_size_z;
	uint32_t private_segment_size;
	uint32_t group_segment_size;
	uint64_t kernel_object;
	uint64_t kernarg_address;
	uint64_t reserved2;
	uint64_t completion_signal;
};

struct hsagpu_agent_dispatch_packet {
	uint16_t header;
	uint16_t type;              /* HSAGPU_AGENT_* */
	uint32_t reserved0;
	uint64_t return_address;
	uint64_t arg[4];
	uint64_t reserved2;
	uint64_t completion_signal;
};

struct hsagpu_barrier_packet {  /* BARRIER_AND and BARRIER_OR */
	uint16_t header;
	uint16_t reserved0;
	uint32_t reserved1;
	uint64_t dep_signal[HSAGPU_BARRIER_DEPS];
	uint64_t reserved2;
	uint64_t completion_signal;
};

/*
 * VENDOR_SPECIFIC packets drive the DMA engine. Addresses are bus
 * addresses as the device emits them: system memory (through the IOMMU
 * if any), this device's VRAM (its BAR0 address; served locally, never
 * through the IOMMU) or a peer's VRAM (a peer BAR0 address routed by a
 * common switch, or an IOMMU address the root complex maps to it).
 * A packet runs to completion before the next packet of its queue
 * starts; a long one is served in slices so other queues keep running.
 * All data is visible at its destination before the completion signal
 * is written (writes to a peer are flushed by a read first).
 */
#define HSAGPU_DMA_OP_COPY              1U  /* size bytes src -> dst */
#define HSAGPU_DMA_OP_FILL              2U  /* size bytes of the pattern */
#define HSAGPU_DMA_OP_COPY_SG           3U  /* src = descriptor list */
#define HSAGPU_DMA_OP_FILL_SG           4U  /* src = list; desc.src = pattern */

#define HSAGPU_DMA_F_ALL                0x0U  /* no flags defined yet */
#define HSAGPU_DMA_SIZE_MAX             (1ULL << 40)    /* bytes, per op */
#define HSAGPU_DMA_SG_MAX               65536U  /* descriptors per list */
#define HSAGPU_DMA_DESC_ALIGN           8U

struct hsagpu_dma_packet {
	uint16_t header;            /* type HSAGPU_PKT_TYPE_VENDOR_SPECIFIC */
	uint16_t op;                /* HSAGPU_DMA_OP_* */
	uint32_t flags;             /* HSAGPU_DMA_F_*, must be 0 */
	uint64_t src;               /* COPY: source; *_SG: descriptor list */
	uint64_t dst;               /* COPY/FILL: destination; *_SG: 0 */
	uint64_t size;              /* bytes; *_SG: descriptor count */
	uint64_t pattern;           /* FILL: 32-bit pattern in bits 31:0, */
				    /* byte k of dst gets byte k % 4 */
	uint64_t reserved[2];       /* must be 0 */
	uint64_t completion_signal;
};

/* A scatter-gather list entry: 32 bytes, 8-byte aligned lists */
struct hsagpu_dma_desc {
	uint64_t src;               /* COPY_SG: source; FILL_SG: pattern */
	uint64_t dst;
	uint64_t size;              /* bytes, > 0 */
	uint64_t reserved;          /* must be 0 */
};

/* Agent dispatch services */
#define HSAGPU_AGENT_NOP                0U  /* complete the signal only */
#define HSAGPU_AGENT_TIMESTAMP          1U  /* u64 device time -> return_address */
#define HSAGPU_AGENT_WRITE_VALUE        2U  /* u64 arg[0] -> return_address */
#define HSAGPU_AGENT_COPY_INFO          3U  /* struct hsagpu_rom_info -> return_address */

/*
 * Built-in kernels, selected by kernel_object. Arrays hold 32-bit elements
 * indexed by the flat work-item id i = x + y * grid_x + z * grid_x * grid_y;
 * work-items outside the grid (partial workgroups) do nothing. All
 * pointers are bus addresses; kernarg is 16-byte aligned.
 */
#define HSAGPU_KERNEL_OBJECT_MAGIC      0x484b000000000000ULL  /* "HK" */
#define HSAGPU_KERNEL_OBJECT(n)         (HSAGPU_KERNEL_OBJECT_MAGIC | (n))
#define HSAGPU_KERNEL_FILL              HSAGPU_KERNEL_OBJECT(1)
#define HSAGPU_KERNEL_COPY              HSAGPU_KERNEL_OBJECT(2)
#define HSAGPU_KERNEL_VADD              HSAGPU_KERNEL_OBJECT(3)
#define HSAGPU_KERNEL_SAXPY             HSAGPU_KERNEL_OBJECT(4)
#define HSAGPU_KERNEL_ATOMIC_INC        HSAGPU_KERNEL_OBJECT(5)
#define HSAGPU_KERNEL_BUSY              HSAGPU_KERNEL_OBJECT(6)
#define HSAGPU_KERNEL_IDS               HSAGPU_KERNEL_OBJECT(7)
#define HSAGPU_KERNEL_COUNT             7U

struct hsagpu_kargs_fill {      /* dst[i] = value */
	uint64_t dst;
	uint32_t value;
	uint32_t reserved;
};

struct hsagpu_kargs_copy {      /* dst[i] = src[i] */
	uint64_t dst;
	uint64_t src;
};

struct hsagpu_kargs_vadd {      /* c[i] = a[i] + b[i], float */
	uint64_t a;
	uint64_t b;
	uint64_t c;
};

struct hsagpu_kargs_saxpy {     /* y[i] = a * x[i] + y[i], float */
	float a;
	uint32_t reserved;
	uint64_t x;
	uint64_t y;
};

/*
 * *counter (u64) += 1 for every work-item, with PCIe FetchAdd AtomicOps;
 * work-items of one workgroup are combined into one AtomicOp, as GPUs
 * aggregate a wavefront's atomics.
 */
struct hsagpu_kargs_atomic_inc {
	uint64_t counter;           /* 8-byte aligned */
};

/*
 * Occupies the device for ns nanoseconds of virtual time without
 * holding up other queues; its completion is asynchronous, so a later
 * packet without the barrier bit may complete first.
 */
struct hsagpu_kargs_busy {
	uint64_t ns;
};

/* dst[i] = workgroup flat id << 16 | flat id within the workgroup */
struct hsagpu_kargs_ids {
	uint64_t dst;
};

/* ------------------------------------------------------------------ */
/* Signals and queue descriptors, laid out like ROCm's amd_signal_t    */
/* and amd_queue_t                                                     */
/* ------------------------------------------------------------------ */

#define HSAGPU_SIGNAL_KIND_USER         1
#define HSAGPU_SIGNAL_ALIGN             64U     /* recommended; the */
						/* device requires 8 */

struct hsagpu_signal {          /* 64 bytes; handle = its bus address */
	int64_t kind;               /* +0  HSAGPU_SIGNAL_KIND_USER */
	int64_t value;              /* +8  decremented on completion */
	uint64_t event_mailbox_ptr; /* +16 0, or where event_id is written */
	uint32_t event_id;          /* +24 */
	uint32_t reserved1;
	uint64_t start_ts;          /* +32 device ns, with HSAGPU_QF_PROFILE */
	uint64_t end_ts;            /* +40 */
	uint64_t queue_ptr;         /* +48 unused by the device */
	uint64_t reserved3;
};

#define HSAGPU_QUEUE_TYPE_MULTI         0U

struct hsagpu_queue_desc {      /* 256 bytes, 64-byte aligned */
	uint32_t type;              /* +0 HSAGPU_QUEUE_TYPE_* */
	uint32_t features;
	uint64_t base_address;      /* +8  ring bus address */
	uint64_t doorbell_offset;   /* +16 byte offset in the doorbell BAR */
	uint32_t size;              /* +24 packets */
	uint32_t reserved0;
	uint64_t id;                /* +32 queue number */
	uint64_t reserved1[2];
	uint64_t write_dispatch_id; /* +56 producers reserve slots here */
	uint64_t reserved2[8];
	uint64_t read_dispatch_id;  /* +128 advanced by the device */
	uint64_t reserved3[15];
};

#define HSAGPU_QUEUE_DESC_WPTR          56U
#define HSAGPU_QUEUE_DESC_RPTR          128U

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

/* HSAGPU_REG_STATUS bits */
#define HSAGPU_STATUS_READY             (1U << 0)
#define HSAGPU_STATUS_ATOMIC_REQ_EN     (1U << 1)   /* DevCtl2 bit 6 */
#define HSAGPU_STATUS_BUS_MASTER        (1U << 2)

/* HSAGPU_REG_ERROR_STATUS bits (write 1 to clear) */
#define HSAGPU_ERR_BAD_MMIO             (1U << 0)   /* bad register access */
#define HSAGPU_ERR_BAD_DOORBELL         (1U << 1)   /* bad doorbell access */
#define HSAGPU_ERR_ATOMIC               (1U << 2)   /* AtomicOp failed */
#define HSAGPU_ERR_QUEUE                (1U << 3)   /* a queue hit an error */
#define HSAGPU_ERR_ALL                  0xfU

/* HSAGPU_REG_BAD_ACCESS_INFO */
#define HSAGPU_BAD_ACCESS_WRITE         (1U << 31)
#define HSAGPU_BAD_ACCESS_SIZE_MASK     0xfU        /* access size, bytes */
#define HSAGPU_BAD_ACCESS_REASON_SHIFT  8
#define HSAGPU_BAD_ACCESS_REASON_MASK   (0xfU << HSAGPU_BAD_ACCESS_REASON_SHIFT)
#define HSAGPU_BAD_REASON_UNMAPPED      1U  /* no register at that offset */
#define HSAGPU_BAD_REASON_SIZE          2U  /* not a 32/64-bit access */
#define HSAGPU_BAD_REASON_ALIGN         3U  /* not naturally aligned */
#define HSAGPU_BAD_REASON_READONLY      4U  /* write to a read-only reg */

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
	uint32_t reserved0;
	char name[32];              /* NUL-terminated marketing name */
	uint8_t reserved1[15];
	uint8_t checksum;           /* all bytes of the structure sum to 0 */
} __attribute__((packed));

#define HSAGPU_ROM_INFO_SIZE            96

#endif /* HSAGPU_HW_H */
