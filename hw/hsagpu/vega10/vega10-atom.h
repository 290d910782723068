/*
 * hsa-gpu: the synthetic ATOM firmware (vBIOS) image of the Vega10
 * personality, independent of QEMU (vega10-atom.c). Served from the
 * expansion ROM BAR, where Linux's amdgpu reads it (pci_map_rom).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_VEGA10_ATOM_H
#define HW_HSAGPU_VEGA10_ATOM_H

#ifdef HSAGPU_HOST_TEST
#include <stddef.h>
#include <stdint.h>
#endif
#include "hsagpu/vega10_regs.h"

/* The largest part number and name the kernel reads back whole. */
#define HSAGPU_ATOM_PART_NUMBER_MAX 43
#define HSAGPU_ATOM_NAME_MAX        63

typedef struct HsaGpuAtomParams {
    /* PCI data structure ("PCIR") */
    uint16_t vendor_id;
    uint16_t device_id;
    uint32_t class_code;        /* 24 bits, e.g. 0x038000 */
    uint8_t revision;           /* the image's code revision */
    /*
     * 1..43 characters from ' ' to 'z' (the kernel's vbios_pn stops at
     * any other), e.g. "HSAGPU-VEGA10". Not an AMD board code (D1xx...):
     * amdgpu keys RAS and FRU EEPROM quirks on those.
     */
    const char *part_number;
    const char *name;           /* 1..63 printable ASCII characters */
    uint32_t boot_sclk_10khz;   /* nonzero, e.g. 85200 */
    uint32_t boot_mclk_10khz;   /* nonzero, e.g. 94500 */
    uint32_t core_refclk_10khz; /* nonzero; 10000 = 100 MHz */
    uint32_t bios_scratch_reg;  /* V10_BIOS_SCRATCH_0 */
    uint32_t vram_width;        /* bits, 128 per HBM channel: 2048 */
} HsaGpuAtomParams;

/*
 * Build the image into @rom[@size]: zero-fills all @size bytes and
 * returns the image's length, a multiple of 512. Returns 0, leaving @rom
 * untouched, if a parameter is out of range or the image does not fit.
 */
size_t hsagpu_atom_build(uint8_t *rom, size_t size, const HsaGpuAtomParams *p);

#endif
