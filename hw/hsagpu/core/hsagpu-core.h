/*
 * hsa-gpu: device logic that does not depend on QEMU: identity and
 * register file (hsagpu-regfile.c, with the doorbell access check), the
 * AtomicOp rules (hsagpu-atomic.c) and the expansion ROM image
 * (hsagpu-rom.c). Built into QEMU and into the host unit tests
 * (tests/unit), which define HSAGPU_HOST_TEST.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_CORE_H
#define HW_HSAGPU_CORE_H

#include "hsagpu/hsagpu_regs.h"
#include "hsagpu/hsagpu_aql.h"

#ifdef HSAGPU_HOST_TEST
#include <stdbool.h>
#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif
#ifndef MAX
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#endif

/* What the device is: fixed at realize time from its properties. */
typedef struct HsaGpuIdent {
    uint16_t vendor_id;
    uint16_t device_id;
    uint8_t revision;
    uint64_t vram_size;
    uint32_t num_queues;
    uint32_t msix_vectors;
    uint32_t caps;              /* HSAGPU_CAP_* */
    uint32_t p2p_addr_bits;     /* bus addresses it can emit: < 2^bits */
    uint32_t compute_units;     /* reported only (ROCm topology) */
} HsaGpuIdent;

/* The queue processor's counters, in register order from PKT_PROCESSED. */
typedef enum HsaGpuPktCounter {
    HSAGPU_PKT_CNT_PROCESSED,   /* packets completed */
    HSAGPU_PKT_CNT_DOORBELLS,   /* thread wake-ups by doorbell or command */
    HSAGPU_PKT_CNT_IRQS,        /* queue MSI-X interrupts sent */
    HSAGPU_PKT_CNT_ERRORS,      /* queues put into the error state */
    HSAGPU_PKT_CNT_COUNT
} HsaGpuPktCounter;

/* A 64-bit value from a lo/hi pair of 32-bit registers. */
static inline uint64_t hsagpu_reg64(uint32_t lo, uint32_t hi)
{
    return lo | (uint64_t)hi << 32;
}

/* Register state that lives in the device and is migrated. */
typedef struct HsaGpuRegFile {
    uint32_t scratch[2];
    uint32_t error_status;
    uint32_t error_int_enable;
    uint32_t bad_access_count;
    uint32_t bad_access_addr;
    uint32_t bad_access_info;
    uint32_t timestamp_hi_latch;
    uint32_t io_index;

    /* AtomicOp engine */
    uint32_t atomic_addr[2];
    uint32_t atomic_src0[4];
    uint32_t atomic_src1[4];
    uint32_t atomic_result[4];
    uint32_t atomic_ctrl;
    uint32_t atomic_status;
    uint32_t atomic_repeat;
    uint32_t atomic_vmid;       /* ATOMIC_VMID: 0..15 */
    uint32_t atomic_cnt_op[3];
    uint32_t atomic_cnt_st[HSAGPU_ATOMIC_ST_COUNT];

    /* Queue processor counters (PKT_PROCESSED...): HsaGpuPktCounter */
    uint32_t pkt_cnt[HSAGPU_PKT_CNT_COUNT];

    /* DMA engine: HSAGPU_REG_DMA_CNT(cls, n) is dma_cnt[cls * 4 + n] */
    uint64_t dma_cnt[HSAGPU_DMA_CLASS_COUNT * 4];
    uint32_t dma_packets;
    uint64_t dma_bad_addr;
    uint32_t sdma_packets;      /* SDMA_PACKETS */
    uint64_t gcn_insns;         /* GCN_INSNS */
    uint64_t gcn_lane_ops;      /* GCN_LANE_OPS */
    uint32_t gcn_waves;         /* GCN_WAVES */
} HsaGpuRegFile;

/* Inputs a register read needs from the rest of the device. */
typedef struct HsaGpuRegEnv {
    uint64_t now_ns;
    uint32_t status;            /* HSAGPU_STATUS_* */
    uint32_t queue_error_first; /* HSAGPU_REG_QUEUE_ERROR_FIRST */
    uint32_t link_mps;          /* bytes, from DevCtl */
    uint32_t link_mrrs;
    uint32_t p2p_status;        /* HSAGPU_P2P_* */
} HsaGpuRegEnv;

/*
 * Register accesses return 0 on success or an HSAGPU_BAD_REASON_* code;
 * on failure a read yields 0 and a write has no effect. The caller
 * records the failure with hsagpu_regs_note_bad().
 */
unsigned hsagpu_regs_read(HsaGpuRegFile *rf, const HsaGpuIdent *id,
                          const HsaGpuRegEnv *env, uint32_t offset,
                          unsigned size, uint64_t *val);
unsigned hsagpu_regs_write(HsaGpuRegFile *rf, uint32_t offset,
                           unsigned size, uint64_t val);
/* Returns nonzero when the error interrupt (MSI-X vector 0) must fire. */
int hsagpu_regs_note_bad(HsaGpuRegFile *rf, unsigned bar, uint32_t offset,
                         unsigned size, int is_write, unsigned reason);
/* Set an ERROR_STATUS bit; nonzero when the error interrupt must fire. */
int hsagpu_regs_raise_error(HsaGpuRegFile *rf, uint32_t bit);
void hsagpu_regs_reset(HsaGpuRegFile *rf);
const char *hsagpu_reg_name(uint32_t offset);

/* Doorbell access check: 0 or an HSAGPU_BAD_REASON_* code. */
unsigned hsagpu_doorbell_check(uint64_t offset, unsigned size);

/*
 * AtomicOps. The PCIe fields used here have the values of the PCIe
 * specification (Device Capabilities 2, Device Control 2, port types).
 */
#define HSAGPU_PCIE_TYPE_ROOT_PORT      4
#define HSAGPU_PCIE_TYPE_UPSTREAM       5
#define HSAGPU_PCIE_TYPE_DOWNSTREAM     6
#define HSAGPU_DEVCAP2_ATOMIC_ROUTE     0x00000040
#define HSAGPU_DEVCAP2_ATOMIC_COMP32    0x00000080
#define HSAGPU_DEVCAP2_ATOMIC_COMP64    0x00000100
#define HSAGPU_DEVCAP2_ATOMIC_COMP128   0x00000200
#define HSAGPU_DEVCTL2_ATOMIC_REQ       0x0040
#define HSAGPU_DEVCTL2_ATOMIC_EGRESS_BLOCK 0x0080

/* A port an AtomicOp request passes through. */
typedef struct HsaGpuPathHop {
    uint8_t type;               /* HSAGPU_PCIE_TYPE_* */
    uint8_t egress;             /* the request leaves the port here */
    uint8_t routes;             /* the port must route (not complete) it */
    uint32_t devcap2;
    uint16_t devctl2;
} HsaGpuPathHop;

/* Operand size in bytes of an ATOMIC_CTRL value, 0 if invalid. */
unsigned hsagpu_atomic_size(uint32_t ctrl);
/* HSAGPU_ATOMIC_ST_MALFORMED for a request no TLP could carry, else 0. */
unsigned hsagpu_atomic_check(uint64_t addr, uint32_t ctrl);
/* HSAGPU_ATOMIC_ST_UR if a hop or the completer refuses, else 0. */
unsigned hsagpu_atomic_route(const HsaGpuPathHop *hops, int nhops,
                             uint32_t completer_devcap2, unsigned size);
/*
 * The queue error of a failed AtomicOp (0 for HSAGPU_ATOMIC_ST_OK), for
 * the read index, signals and ATOMIC_INC: nothing at the address (UR
 * from a hole, CA) is a bad address, a peer above p2p-addr-bits the P2P
 * limit like for DMA, anything else the path refusing.
 */
static inline unsigned hsagpu_atomic_qerr(unsigned st)
{
    switch (st) {
    case HSAGPU_ATOMIC_ST_OK:
        return 0;
    case HSAGPU_ATOMIC_ST_UR:
    case HSAGPU_ATOMIC_ST_CA:
        return HSAGPU_QERR_ADDRESS;
    case HSAGPU_ATOMIC_ST_P2P_LIMIT:
        return HSAGPU_QERR_P2P_LIMIT;
    case HSAGPU_ATOMIC_ST_VM_FAULT:
        return HSAGPU_QERR_VM_FAULT;
    default:
        return HSAGPU_QERR_ATOMIC;
    }
}

/* Perform the operation with host atomics on @ptr; @result = old value. */
void hsagpu_atomic_exec(void *ptr, uint32_t ctrl, const uint64_t src0[2],
                        const uint64_t src1[2], uint64_t result[2]);

/* Fill a ROM image of @size bytes (>= 4 KiB) for @id. */
void hsagpu_rom_build(uint8_t *rom, uint32_t size, const HsaGpuIdent *id,
                      const char *name);

#endif
