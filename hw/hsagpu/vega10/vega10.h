/*
 * hsa-gpu, Vega10 personality: the register front end Linux's amdgpu
 * programs, independent of QEMU (docs/vega10.md). vega10-pci.c wraps it
 * for the device; tests/unit/test-vega10.c drives it directly.
 *
 * The front end is a plain register store (BAR5's 128 Ki dwords) with
 * behaviour where the driver waits for the hardware: windows into VRAM
 * and the SMN space, the HDP flush, the VM hubs' invalidation engines,
 * the RLC's handshakes, and the banks GRBM_GFX_CNTL selects (hardware
 * queue descriptors per ME/pipe/queue, SH_MEM per VMID).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_VEGA10_H
#define HW_HSAGPU_VEGA10_H

#ifdef HSAGPU_HOST_TEST
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif
#include "hsagpu/vega10_regs.h"
#include "vega10-ih.h"

/* MEC queues: 2 MECs (ME 1 and 2) of 4 pipes of 8 queues */
#define V10_MEC_NUM                     2
#define V10_MEC_PIPES                   4
#define V10_MEC_QUEUES                  8
#define V10_NUM_HQD                     (V10_MEC_NUM * V10_MEC_PIPES * \
                                         V10_MEC_QUEUES)
/* The bank of MEC @me (1 or 2), @pipe, @queue */
#define V10_HQD_INDEX(me, pipe, queue)  ((((me) - 1) * V10_MEC_PIPES + \
                                          (pipe)) * V10_MEC_QUEUES + (queue))
#define V10_NUM_VMIDS                   16

/* What the front end needs from the device around it. */
typedef struct HsaGpuV10Ops {
    /*
     * Read or write the dword at VRAM offset @off (MM_INDEX/MM_DATA);
     * false when @off is outside VRAM (reads then give 0).
     */
    bool (*vram_rw)(void *opaque, uint64_t off, uint32_t *val, bool write);
    /* The GPU clock, in ticks of 100 MHz (RLC_GPU_CLOCK_COUNT) */
    uint64_t (*clock)(void *opaque);
    void *opaque;
} HsaGpuV10Ops;

typedef struct HsaGpuV10 {
    /* Every register's stored value (banked ones: see below) */
    uint32_t reg[V10_NREGS];
    /* CP_MQD_BASE_ADDR..CP_HQD_PQ_WPTR_HI of each MEC queue */
    uint32_t hqd[V10_NUM_HQD][V10_HQD_NREGS];
    /* SH_MEM_CONFIG and SH_MEM_BASES of each VMID */
    uint32_t sh_mem_config[V10_NUM_VMIDS];
    uint32_t sh_mem_bases[V10_NUM_VMIDS];
    uint64_t clock_latch;       /* RLC_GPU_CLOCK_COUNT, as captured */
    /* The IH's own state (vega10-ih.c; hsagpu_v10_ih_reset) */
    HsaGpuV10Ih ih;
    /* Counters (tests and docs/vega10.md): no effect on behaviour */
    uint32_t hdp_flushes;
    uint32_t tlb_invalidations;

    /* Not migrated: set at realize */
    uint64_t vram_size;
    uint8_t revision;
    HsaGpuV10Ops ops;
} HsaGpuV10;

/* Set up @v for a device of @vram_size bytes, registers at reset. */
void hsagpu_v10_init(HsaGpuV10 *v, uint64_t vram_size, uint8_t revision,
                     const HsaGpuV10Ops *ops);
/* Registers as after the board's power-on and the (skipped) vBIOS POST */
void hsagpu_v10_reset(HsaGpuV10 *v);
/* A dword access to BAR5 at dword @dw (< V10_NREGS) */
uint32_t hsagpu_v10_read(HsaGpuV10 *v, uint32_t dw);
void hsagpu_v10_write(HsaGpuV10 *v, uint32_t dw, uint32_t val);

/* The register an access to @dw stores into (bank selected), or NULL */
uint32_t *hsagpu_v10_reg_slot(HsaGpuV10 *v, uint32_t dw);

#endif /* HW_HSAGPU_VEGA10_H */
