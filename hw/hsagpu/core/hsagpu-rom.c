/*
 * hsa-gpu: expansion ROM image, independent of QEMU.
 *
 * One PCI Firmware 3.0 image: ROM header (0x55AA), PCI data structure
 * ("PCIR") carrying the device's IDs, class code and image length, and the
 * hsagpu device information table. The code type is vendor-defined so
 * that neither legacy BIOS nor UEFI firmware tries to run it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-core.h"

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v);
    put16(p + 2, v >> 16);
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, v);
    put32(p + 4, v >> 32);
}

static uint8_t sum8(const uint8_t *p, size_t n)
{
    uint8_t s = 0;

    while (n--) {
        s += *p++;
    }
    return s;
}

void hsagpu_rom_build(uint8_t *rom, uint32_t size, const HsaGpuIdent *id,
                      const char *name)
{
    uint8_t *pcir = rom + HSAGPU_ROM_PCIR_OFFSET;
    uint8_t *info = rom + HSAGPU_ROM_INFO_OFFSET;
    size_t namelen = strlen(name);

    memset(rom, 0, size);

    /* ROM header */
    rom[0] = 0x55;
    rom[1] = 0xaa;
    put16(rom + 0x18, HSAGPU_ROM_PCIR_OFFSET);
    put16(rom + HSAGPU_ROM_INFO_PTR_OFFSET, HSAGPU_ROM_INFO_OFFSET);

    /* PCI data structure, revision 3 */
    memcpy(pcir, "PCIR", 4);
    put16(pcir + 0x04, id->vendor_id);
    put16(pcir + 0x06, id->device_id);
    put16(pcir + 0x0a, 0x1c);                   /* structure length */
    pcir[0x0c] = 3;                             /* structure revision */
    pcir[0x0d] = HSAGPU_PCI_CLASS_CODE & 0xff;  /* prog-if */
    pcir[0x0e] = (HSAGPU_PCI_CLASS_CODE >> 8) & 0xff;
    pcir[0x0f] = (HSAGPU_PCI_CLASS_CODE >> 16) & 0xff;
    put16(pcir + 0x10, size / 512);             /* image length */
    put16(pcir + 0x12, id->revision);           /* code revision */
    pcir[0x14] = HSAGPU_ROM_CODE_TYPE;
    pcir[0x15] = 0x80;                          /* last image */

    /* Device information table */
    put32(info + 0, HSAGPU_ROM_INFO_SIGNATURE);
    put16(info + 4, HSAGPU_ROM_INFO_VERSION);
    put16(info + 6, HSAGPU_ROM_INFO_SIZE);
    put16(info + 8, id->vendor_id);
    put16(info + 10, id->device_id);
    put32(info + 12, HSAGPU_ABI_VERSION);
    put64(info + 16, id->vram_size);
    put32(info + 24, HSAGPU_DOORBELL_COUNT);
    put32(info + 28, HSAGPU_DOORBELL_STRIDE);
    put32(info + 32, id->num_queues);
    put32(info + 36, id->msix_vectors);
    put32(info + 40, id->caps);
    put32(info + 44, id->compute_units);
    if (namelen > 31) {
        namelen = 31;
    }
    memcpy(info + 48, name, namelen);
    info[HSAGPU_ROM_INFO_SIZE - 1] = -sum8(info, HSAGPU_ROM_INFO_SIZE - 1);

    /* Whole-image checksum in the last byte, as option ROMs carry. */
    rom[size - 1] = -sum8(rom, size - 1);
}
