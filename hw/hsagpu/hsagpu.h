/*
 * hsa-gpu: QEMU device state shared by the device's source files.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_H
#define HW_HSAGPU_H

#include "hw/pci/pci_device.h"
#include "qom/object.h"
#include "hsagpu-core.h"

#define TYPE_HSA_GPU "hsa-gpu"
OBJECT_DECLARE_SIMPLE_TYPE(HsaGpuState, HSA_GPU)

struct HsaGpuState {
    PCIDevice parent_obj;

    MemoryRegion vram;          /* BAR0/1 */
    MemoryRegion doorbell;      /* BAR2/3 */
    MemoryRegion io;            /* BAR4, optional */
    MemoryRegion mmio;          /* BAR5, MSI-X table/PBA inside */
    MemoryRegion rom;           /* expansion ROM */

    HsaGpuIdent ident;
    HsaGpuRegFile regs;
    uint64_t doorbells[HSAGPU_DOORBELL_COUNT];

    /* properties */
    uint64_t vram_size;
    uint32_t num_queues;
    bool io_bar;
    bool atomic_comp32;
    bool atomic_comp64;
    bool atomic_comp128;
    uint16_t vendor_id;
    uint16_t device_id;
    uint16_t subsys_vendor_id;
    uint16_t subsys_id;
    uint8_t revision;
    uint64_t serial;
};

/* hsagpu-mmio.c */
void hsagpu_mmio_init(HsaGpuState *s);
uint32_t hsagpu_status(HsaGpuState *s);
void hsagpu_bad_access(HsaGpuState *s, unsigned bar, uint64_t offset,
                       unsigned size, bool is_write, unsigned reason);
void hsagpu_error_irq(HsaGpuState *s);

/* hsagpu-atomic.c */
unsigned hsagpu_atomic_issue(HsaGpuState *s, uint64_t addr, uint32_t ctrl,
                             const uint64_t src0[2], const uint64_t src1[2],
                             uint64_t result[2], uint32_t count,
                             uint32_t *done);
void hsagpu_atomic_run(HsaGpuState *s);

/* hsagpu-doorbell.c */
void hsagpu_doorbell_init(HsaGpuState *s);
void hsagpu_doorbell_reset(HsaGpuState *s);

#endif
