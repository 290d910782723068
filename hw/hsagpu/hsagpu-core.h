/*
 * hsa-gpu: device logic that does not depend on QEMU (register file
 * semantics, expansion ROM image). Built into QEMU and into the host unit
 * tests (tests/unit), which define HSAGPU_HOST_TEST.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_CORE_H
#define HW_HSAGPU_CORE_H

#include "hsagpu/hsagpu_hw.h"

/* What the device is: fixed at realize time from its properties. */
typedef struct HsaGpuIdent {
    uint16_t vendor_id;
    uint16_t device_id;
    uint8_t revision;
    uint64_t vram_size;
    uint32_t num_queues;
    uint32_t msix_vectors;
    uint32_t caps;              /* HSAGPU_CAP_* */
} HsaGpuIdent;

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
} HsaGpuRegFile;

/* Inputs a register read needs from the rest of the device. */
typedef struct HsaGpuRegEnv {
    uint64_t now_ns;
    uint32_t status;            /* HSAGPU_STATUS_* */
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
void hsagpu_regs_reset(HsaGpuRegFile *rf);
const char *hsagpu_reg_name(uint32_t offset);

/* Doorbell access check: 0 or an HSAGPU_BAD_REASON_* code. */
unsigned hsagpu_doorbell_check(uint64_t offset, unsigned size);

/* Fill a ROM image of @size bytes (>= 4 KiB) for @id. */
void hsagpu_rom_build(uint8_t *rom, uint32_t size, const HsaGpuIdent *id,
                      const char *name);

#endif
