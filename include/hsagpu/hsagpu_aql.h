/* SPDX-License-Identifier: (GPL-2.0-or-later OR MIT) */
/*
 * hsagpu queue ABI: HSA AQL packets, signals, the queue descriptor, the
 * built-in kernels' and the DMA engine's argument layouts, and the queue
 * states and error codes a queue reports.
 *
 * Shared by the QEMU device model, the user-space runtime, the uapi (queue
 * status) and the tests; it contains no register encodings (those are in
 * hsagpu_regs.h). Plain C with fixed-width types.
 */
#ifndef HSAGPU_AQL_H
#define HSAGPU_AQL_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif
#include "hsagpu_pm4.h"

/*
 * Interface version: REG_ABI_VERSION, the ROM table and GET_INFO report it.
 * A new minor adds to the interface; a new major breaks it.
 */
#define HSAGPU_ABI_MAJOR                1U
#define HSAGPU_ABI_MINOR                5U  /* 1: AQL queues, 2: DMA, P2P, */
					    /* 3: GPU virtual memory, */
					    /* 4: AMD vendor packets, */
					    /* 5: global wave sync */
#define HSAGPU_ABI_VERSION \
	((HSAGPU_ABI_MAJOR << 16) | HSAGPU_ABI_MINOR)

/* Queue limits, checked by the device at ENABLE and by the driver */
#define HSAGPU_QUEUE_PRIORITY_MAX       15U
#define HSAGPU_QUEUE_RING_MIN           4U      /* packets */
#define HSAGPU_QUEUE_RING_MAX           (1U << 20)

/*
 * Queue states and error codes: read by the driver from the queue's STATE
 * register (bits 3:0 state, bits 15:8 error code) and passed unchanged to
 * user space by HSAGPU_IOC_QUEUE_STATUS.
 */
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
#define HSAGPU_QERR_POISON              17U /* a read returned poisoned */
					    /* data (Poisoned TLP) */
#define HSAGPU_QERR_DEVICE_FATAL        18U /* the device took a fatal */
					    /* error; only a reset helps */
#define HSAGPU_QERR_VM_FAULT            19U /* GPU virtual memory fault: */
					    /* see the queue's VM fault regs */
#define HSAGPU_QERR_VENDOR_FORMAT       20U /* unknown vendor packet */
					    /* format (byte 2) */
#define HSAGPU_QERR_PM4_IB              21U /* bad PM4 indirect buffer */
					    /* jump: size, address, valid */
#define HSAGPU_QERR_PM4_PACKET          22U /* PM4 packet not supported: */
					    /* type 0/2, opcode, length */
#define HSAGPU_QERR_CONDITION           23U /* unknown BARRIER_VALUE */
					    /* condition */
#define HSAGPU_QERR_SDMA_OPCODE         24U /* SDMA ring: unknown opcode */
					    /* or sub-opcode */
#define HSAGPU_QERR_SDMA_PACKET         25U /* SDMA ring: bad field or */
					    /* unsupported variant */
#define HSAGPU_QERR_ILLEGAL_INSTRUCTION 26U /* code object: instruction */
					    /* not implemented; the queue's */
					    /* FAULT_ADDR: its pc, */
					    /* FAULT_INFO: its first dword */
#define HSAGPU_QERR_TRAP                27U /* code object: s_trap, or a */
					    /* wave past its instruction */
					    /* budget (FAULT_ADDR: pc) */
#define HSAGPU_QERR_COUNT               28U

/*
 * The queue error codes with a short description each, in code order
 * (an entry's position is its value), for name tables:
 *   static const char *const names[] = {
 *           HSAGPU_QERR_LIST(HSAGPU_QERR_NAME_INIT)
 *   };
 * and (0 HSAGPU_QERR_LIST(HSAGPU_QERR_COUNT_ONE)) == HSAGPU_QERR_COUNT
 * checks that the list and the codes agree.
 */
#define HSAGPU_QERR_LIST(X) \
	X(NONE, "none") \
	X(PACKET_TYPE, "unknown packet type") \
	X(DIMENSIONS, "zero or inconsistent dimensions") \
	X(ADDRESS, "address is not memory") \
	X(ALIGNMENT, "misaligned address") \
	X(SIGNAL, "signal handle not 8-byte aligned") \
	X(RING_OVERRUN, "ring overrun") \
	X(KERNEL_OBJECT, "unknown kernel object") \
	X(FENCE, "reserved fence scope") \
	X(UNSUPPORTED, "unsupported packet type") \
	X(AGENT_FUNCTION, "unknown agent dispatch function") \
	X(ATOMIC, "AtomicOp failed") \
	X(NO_BUS_MASTER, "bus mastering disabled") \
	X(DMA_OP, "bad DMA op, flags or reserved field") \
	X(DMA_SIZE, "bad DMA size or descriptor count") \
	X(DMA_OVERLAP, "DMA source and destination overlap") \
	X(P2P_LIMIT, "peer BAR above the P2P address limit") \
	X(POISON, "poisoned data received") \
	X(DEVICE_FATAL, "device fatal error") \
	X(VM_FAULT, "GPU virtual memory fault") \
	X(VENDOR_FORMAT, "unknown vendor packet format") \
	X(PM4_IB, "bad PM4 indirect buffer") \
	X(PM4_PACKET, "unsupported PM4 packet") \
	X(CONDITION, "unknown signal condition") \
	X(SDMA_OPCODE, "unknown SDMA opcode") \
	X(SDMA_PACKET, "malformed or unsupported SDMA packet") \
	X(ILLEGAL_INSTRUCTION, "instruction not implemented") \
	X(TRAP, "kernel trap or runaway wave")
#define HSAGPU_QERR_NAME_INIT(name, text)	[HSAGPU_QERR_##name] = text,
#define HSAGPU_QERR_COUNT_ONE(name, text)	+ 1

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
 * Byte 2 of a VENDOR_SPECIFIC packet selects its format, as AMD's
 * AmdFormat (hsa_ext_amd.h) does: AMD's own formats keep their numbers,
 * hsagpu's start at 0x80 so that the two never collide. Any other value
 * fails the queue with HSAGPU_QERR_VENDOR_FORMAT.
 */
#define HSAGPU_VENDOR_FORMAT_OFFSET     2U
#define HSAGPU_VENDOR_FORMAT_PM4_IB     1U      /* AMD: run a PM4 IB */
#define HSAGPU_VENDOR_FORMAT_BARRIER_VALUE 2U   /* AMD: wait on a value */
#define HSAGPU_VENDOR_FORMAT_DMA        0x80U   /* hsagpu DMA engine */

/*
 * Format HSAGPU_VENDOR_FORMAT_DMA packets drive the DMA engine. Addresses are bus
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
	uint8_t format;             /* HSAGPU_VENDOR_FORMAT_DMA */
	uint8_t op;                 /* HSAGPU_DMA_OP_* */
	uint32_t flags;             /* HSAGPU_DMA_F_*, must be 0 */
	uint64_t src;               /* COPY: source; *_SG: descriptor list */
	uint64_t dst;               /* COPY/FILL: destination; *_SG: 0 */
	uint64_t size;              /* bytes; *_SG: descriptor count */
	uint64_t pattern;           /* FILL: 32-bit pattern in bits 31:0, */
				    /* byte k of dst gets byte k % 4 */
	uint64_t reserved[2];       /* must be 0 */
	uint64_t completion_signal;
};

/*
 * AMD's PM4_IB vendor packet (format 1): the command processor runs the
 * PM4 indirect buffer that the INDIRECT_BUFFER packet in ib_jump_cmd
 * names, then completes the AQL packet. ROCr uses it on gfx9 to
 * invalidate caches (ACQUIRE_MEM) after loading code. The device runs
 * the subset ROCr emits; see docs/registers.md.
 */
struct hsagpu_pm4_ib_packet {
	uint16_t header;            /* type HSAGPU_PKT_TYPE_VENDOR_SPECIFIC */
	uint8_t format;             /* HSAGPU_VENDOR_FORMAT_PM4_IB */
	uint8_t reserved0;
	uint32_t ib_jump_cmd[4];    /* a PM4 INDIRECT_BUFFER packet */
	uint32_t dw_cnt_remain;     /* ROCr: 0xa; not used */
	uint32_t reserved1[8];
	uint64_t completion_signal;
};

/* The PM4 packets it carries: hsagpu_pm4.h */

/*
 * AMD's BARRIER_VALUE vendor packet (format 2, hsa_ext_amd.h): holds the
 * queue until (signal value & mask) <cond> value holds; signal 0 is a
 * satisfied dependency. Conditions as hsa_signal_condition_t, signed.
 */
#define HSAGPU_SIGNAL_COND_EQ           0U
#define HSAGPU_SIGNAL_COND_NE           1U
#define HSAGPU_SIGNAL_COND_LT           2U
#define HSAGPU_SIGNAL_COND_GTE          3U

struct hsagpu_barrier_value_packet {
	uint16_t header;            /* type HSAGPU_PKT_TYPE_VENDOR_SPECIFIC */
	uint8_t format;             /* HSAGPU_VENDOR_FORMAT_BARRIER_VALUE */
	uint8_t reserved0;
	uint32_t reserved1;
	uint64_t signal;
	int64_t value;
	int64_t mask;
	uint32_t cond;              /* HSAGPU_SIGNAL_COND_* */
	uint32_t reserved2;
	uint64_t reserved3[2];
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

/*
 * With HSAGPU_QF_AMD_QUEUE the descriptor is ROCr's amd_queue_t (256
 * bytes, 64-byte aligned; amd_hsa_queue.h): RPTR names its
 * read_dispatch_id, so the descriptor starts HSAGPU_QUEUE_DESC_RPTR
 * below it. The device reads queue_properties (ENABLE_PROFILING: signal
 * timestamps, as HSAGPU_QF_PROFILE) at every completion, and on a queue
 * error stores HSAGPU_AMD_QUEUE_ERROR | <ROCr code> into the value of
 * the queue_inactive_signal (then its event mailbox and the queue's
 * interrupt, as for a completion), which ROCr's queue error handler
 * (AqlQueue::DynamicScratchHandler) waits on.
 */
#define HSAGPU_AMD_QUEUE_PROPERTIES     180U    /* u32 queue_properties */
#define HSAGPU_AMD_QUEUE_PROP_PROFILING (1U << 3)
#define HSAGPU_AMD_QUEUE_INACTIVE_SIGNAL 192U   /* u64 signal handle */
#define HSAGPU_AMD_QUEUE_ALIGN          64U
#define HSAGPU_AMD_QUEUE_ERROR          (1ULL << 63)
/* ROCr's codes, as DynamicScratchHandler maps them to hsa_status_t */
#define HSAGPU_AMD_QERR_DIMENSIONS      0x2U        /* INCOMPATIBLE_ARGUMENTS */
#define HSAGPU_AMD_QERR_CODE_OBJECT     0x8U        /* INVALID_CODE_OBJECT */
#define HSAGPU_AMD_QERR_PACKET_FORMAT   0x20U       /* INVALID_PACKET_FORMAT */
#define HSAGPU_AMD_QERR_VENDOR_PACKET   0x100U      /* INVALID_PACKET_FORMAT */
#define HSAGPU_AMD_QERR_MEMORY          0x20000000U /* MEMORY_APERTURE_ */
							/* VIOLATION */
#define HSAGPU_AMD_QERR_FATAL           0x80000000U /* ERROR_EXCEPTION, fatal */

#endif /* HSAGPU_AQL_H */
