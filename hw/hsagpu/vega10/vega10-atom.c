/*
 * hsa-gpu: synthetic ATOM firmware image for the Vega10 personality,
 * independent of QEMU.
 *
 * One PCI expansion ROM image that Linux's amdgpu (Debian's 6.1 and 6.12)
 * takes for a Vega10 vBIOS, with only the tables those kernels read.
 *
 * Found: amdgpu_get_bios -> amdgpu_read_bios -> pci_map_rom, whose
 * pci_get_rom_size wants 0x55AA, a 4-byte aligned "PCIR" of at least 0x18
 * bytes and the last-image bit; check_atom_bios then the ROM header pointer
 * at 0x48 and "ATOM" 4 bytes into that header. No checksum: neither
 * kernel checks one, SeaBIOS only checks the x86 images it copies and OVMF
 * only loads EFI ones, and the code type is neither (HSAGPU_ATOM_CODE_TYPE).
 *
 * Read by both kernels, with or without amdgpu.emu_mode=1:
 * - amdgpu_atom_parse: " 761295520" at 0x30, the ROM header, the master
 *   command and data tables, firmwareinfo's revision, and the indirect-IO
 *   table: atom_index_iio scans from its 5th byte while it reads 1 (start
 *   of an IIO program). Then the strings: atom_get_vbios_name (strings
 *   count at 0x2F, strings at the pointer at 0x6E, CR LF, the name),
 *   atom_get_vbios_pn (the first string: empty, with no "ATOMBIOS" in bytes
 *   3..1024, it dereferences NULL + 8), atom_get_vbios_date (14 bytes at
 *   0x50) and atom_get_vbios_version (32 bytes after "ATOMBIOSBK-AMD VER",
 *   searched in bytes 3..1024 by 6.1, from the strings to the ROM header by
 *   6.12). 6.1 also copies the part number with strlcpy (it must end in a
 *   NUL) into the vbios_version that its sysfs shows; 6.12 shows vbios_pn.
 *   The blind reads stay in the image: it is at least 1536 bytes.
 * - amdgpu_atombios_init: firmwareinfo's bios_scratch_reg_startaddr
 *   (scratch_regs_init) and firmware_capability (0: no SR-IOV, SRAM ECC,
 *   memory training or dynamic boot config); no vram_usagebyfirmware, so
 *   allocate_fb_scratch takes its 20 KiB default.
 * - gmc_v9_0_sw_init: vram_info v2.3 (get_vram_info), one HBM2 module:
 *   vram_type, and without emu_mode vram_width (else DF's channel count).
 * - amdgpu_ras_init (Vega10 is a RAS ASIC): mem_ecc_supported reads
 *   umc_info, absent here (off); sram_ecc_supported the capability bit.
 * Without emu_mode only:
 * - amdgpu_device_need_post: BIOS_SCRATCH_7's ASIC_INIT_COMPLETE (the
 *   device sets it at reset: no POST at probe).
 * After a GPU reset (amdgpu_device_gpu_recover): command table 0,
 *   ASIC_Init, run by the ATOM interpreter (amdgpu_atom_asic_init); here
 *   it ends at once.
 * - amdgpu_atomfirmware_get_clock_info (fatal without firmwareinfo): boot
 *   sclk/mclk (AMDGPU_INFO_DEV_INFO's clocks without dpm); smu_info v3.1
 *   core_refclk_10khz -> soc15_get_xclk -> gpu_counter_freq. The umc_info
 *   it also reads (mpll's reference) has no user on Vega10.
 * Not read for Vega10 (GC 9.0.1): gfx_info (GC 9.4.x), display tables
 * (DC off), powerplay tables (SMU masked), asic_init through
 * amdgpu_atomfirmware_asic_init (GC 11+).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "hw/hsagpu/vega10/vega10-atom.h"

/*
 * PCI firmware code type: reserved, so that SeaBIOS (runs type 0, x86)
 * and OVMF (loads type 3, EFI) leave the image alone; Linux does not look
 * at it. The same value as hsagpu-rom.c's.
 */
#define HSAGPU_ATOM_CODE_TYPE   0x70

/* Fixed places in the first 128 bytes, where the parsers look. */
#define VA_SIZE                 0x02    /* image length / 512 */
#define VA_INIT                 0x03    /* legacy init entry */
#define VA_PCIR_PTR             0x18
#define VA_NUM_STRINGS          0x2f
#define VA_MAGIC                0x30
#define VA_ROM_HEADER_PTR       0x48
#define VA_DATE                 0x50
#define VA_STRINGS_PTR          0x6e
#define VA_STRINGS              0x80

/*
 * 6.1's version search reads bytes 3..1024 (and up to 13 past a partial
 * match) whatever the image says.
 */
#define VA_MIN_LEN              1536

#define VA_DATE_TEXT            "01/01/25 00:00"    /* MM/DD/YY HH:MM */
#define VA_VERSION_ANCHOR       "ATOMBIOSBK-AMD VER"
#define VA_VERSION_TEXT         "001.000.000.000.000000"
#define VA_FW_REVISION          0x00010000

/* PCI data structure, revision 3 */
#define VA_PCIR_LEN             0x1c

/* ROM header v2.2 */
#define VA_HDR_LEN              0x28
#define VA_HDR_SIGNATURE        0x04
#define VA_HDR_PCI_INFO         0x1c
#define VA_HDR_MASTER_CMD       0x1e
#define VA_HDR_MASTER_DATA      0x20

/* Master tables v2.1: a common header, then one u16 offset per table */
#define VA_CMD_COUNT            81
#define VA_DATA_COUNT           35
#define VA_DATA_FIRMWAREINFO    4
#define VA_DATA_SMU_INFO        8
#define VA_DATA_INDIRECTIO      23
#define VA_DATA_VRAM_INFO       28

/* firmwareinfo v3.1 */
#define VA_FWI_LEN              72
#define VA_FWI_REVISION         4
#define VA_FWI_SCLK             8
#define VA_FWI_MCLK             12
#define VA_FWI_SCRATCH          24

/* smu_info v3.1 */
#define VA_SMU_LEN              28
#define VA_SMU_REFCLK           16

/* vram_info v2.3 with one atom_vram_module_v9 */
#define VA_VRAM_MODULE_NUM      20
#define VA_VRAM_MODULES         24
#define VA_MOD_LEN              52
#define VA_MOD_SIZE             20
#define VA_MOD_TYPE             23
#define VA_MOD_CHANNELS         24
#define VA_MOD_CHANNEL_WIDTH    25
#define VA_VRAM_LEN             (VA_VRAM_MODULES + VA_MOD_LEN)
#define VA_VRAM_TYPE_HBM2       0x60
#define VA_HBM_CHANNEL_BITS     128
#define VA_HBM_CHANNEL_LOG2     7

/*
 * Command table 0, ASIC_Init: what amdgpu runs to POST the card after a
 * GPU reset (amdgpu_atom_asic_init, with firmwareinfo's boot clocks as
 * its parameters). The device is ready as soon as it is reset, so the
 * table's code is its end (ATOM's EOT): no workspace, no parameters.
 */
#define VA_CMD_ASIC_INIT        0
#define VA_CT_LEN               7
#define VA_CT_WS                4
#define VA_CT_PS                5
#define VA_CT_CODE              6
#define VA_OP_EOT               0x5b

/* Indirect-IO table: no programs; its first byte is not IIO start (1). */
#define VA_IIO_LEN              5
#define VA_IIO_END              9

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

/* Every table starts with its size and format/content revisions. */
static void put_table_header(uint8_t *p, uint16_t len, uint8_t frev,
                             uint8_t crev)
{
    put16(p, len);
    p[2] = frev;
    p[3] = crev;
}

/* 1..max characters, each in lo..hi. */
static bool text_ok(const char *s, size_t max, char lo, char hi)
{
    size_t n;

    if (!s || !s[0]) {
        return false;
    }
    for (n = 0; s[n]; n++) {
        if (n == max || s[n] < lo || s[n] > hi) {
            return false;
        }
    }
    return true;
}

/* The 4-aligned start of the next @len bytes from *@pos. */
static size_t place(size_t *pos, size_t len)
{
    size_t at = (*pos + 3) & ~(size_t)3;

    *pos = at + len;
    return at;
}

size_t hsagpu_atom_build(uint8_t *rom, size_t size, const HsaGpuAtomParams *p)
{
    size_t pn_len, name_len, pos, len;
    size_t ver, pcir, hdr, cmd, data, fwi, smu, vram, iio, init;
    uint8_t *t;

    if (!text_ok(p->part_number, HSAGPU_ATOM_PART_NUMBER_MAX, ' ', 'z') ||
        !text_ok(p->name, HSAGPU_ATOM_NAME_MAX, ' ', '~') ||
        !p->boot_sclk_10khz || !p->boot_mclk_10khz ||
        !p->core_refclk_10khz || !p->bios_scratch_reg ||
        !p->vram_width || p->vram_width % VA_HBM_CHANNEL_BITS ||
        p->vram_width / VA_HBM_CHANNEL_BITS > 255) {
        return 0;
    }
    pn_len = strlen(p->part_number);
    name_len = strlen(p->name);

    /*
     * Strings: the part number, CR LF, the name; then the version, before
     * the ROM header (6.12 searches up to it), then the tables.
     */
    pos = VA_STRINGS + pn_len + 1 + 2 + name_len + 1;
    ver = pos;
    pos += strlen(VA_VERSION_ANCHOR) + strlen(VA_VERSION_TEXT) + 1;
    pcir = place(&pos, VA_PCIR_LEN);
    hdr = place(&pos, VA_HDR_LEN);
    cmd = place(&pos, 4 + 2 * VA_CMD_COUNT);
    data = place(&pos, 4 + 2 * VA_DATA_COUNT);
    fwi = place(&pos, VA_FWI_LEN);
    smu = place(&pos, VA_SMU_LEN);
    vram = place(&pos, VA_VRAM_LEN);
    iio = place(&pos, VA_IIO_LEN);
    init = place(&pos, VA_CT_LEN);
    len = (pos > VA_MIN_LEN ? pos : VA_MIN_LEN);
    len = (len + 511) & ~(size_t)511;
    if (len > size || len / 512 > 255) {
        return 0;
    }
    memset(rom, 0, size);

    rom[0] = 0x55;
    rom[1] = 0xaa;
    rom[VA_SIZE] = len / 512;
    rom[VA_INIT] = 0xcb;    /* retf, should anything call the entry */
    put16(rom + VA_PCIR_PTR, pcir);
    rom[VA_NUM_STRINGS] = 1;
    memcpy(rom + VA_MAGIC, " 761295520", 10);
    put16(rom + VA_ROM_HEADER_PTR, hdr);
    memcpy(rom + VA_DATE, VA_DATE_TEXT, strlen(VA_DATE_TEXT));
    put16(rom + VA_STRINGS_PTR, VA_STRINGS);
    t = rom + VA_STRINGS;
    memcpy(t, p->part_number, pn_len);
    memcpy(t + pn_len + 1, "\r\n", 2);
    memcpy(t + pn_len + 3, p->name, name_len);
    /* The 32 bytes the kernel copies after the anchor end in NULs. */
    memcpy(rom + ver, VA_VERSION_ANCHOR, strlen(VA_VERSION_ANCHOR));
    memcpy(rom + ver + strlen(VA_VERSION_ANCHOR), VA_VERSION_TEXT,
           strlen(VA_VERSION_TEXT));

    t = rom + pcir;
    memcpy(t, "PCIR", 4);
    put16(t + 0x04, p->vendor_id);
    put16(t + 0x06, p->device_id);
    put16(t + 0x0a, VA_PCIR_LEN);
    t[0x0c] = 3;                                /* structure revision */
    t[0x0d] = p->class_code;
    t[0x0e] = p->class_code >> 8;
    t[0x0f] = p->class_code >> 16;
    put16(t + 0x10, len / 512);
    put16(t + 0x12, p->revision);
    t[0x14] = HSAGPU_ATOM_CODE_TYPE;
    t[0x15] = 0x80;                             /* last image */

    t = rom + hdr;
    put_table_header(t, VA_HDR_LEN, 2, 2);
    memcpy(t + VA_HDR_SIGNATURE, "ATOM", 4);
    put16(t + VA_HDR_PCI_INFO, pcir);
    put16(t + VA_HDR_MASTER_CMD, cmd);
    put16(t + VA_HDR_MASTER_DATA, data);

    /* One command table, ASIC_Init; nothing here reclocks the card. */
    put_table_header(rom + cmd, 4 + 2 * VA_CMD_COUNT, 2, 1);
    put16(rom + cmd + 4 + 2 * VA_CMD_ASIC_INIT, init);
    t = rom + init;
    put_table_header(t, VA_CT_LEN, 1, 1);
    t[VA_CT_WS] = 0;
    t[VA_CT_PS] = 0;
    t[VA_CT_CODE] = VA_OP_EOT;

    t = rom + data;
    put_table_header(t, 4 + 2 * VA_DATA_COUNT, 2, 1);
    put16(t + 4 + 2 * VA_DATA_FIRMWAREINFO, fwi);
    put16(t + 4 + 2 * VA_DATA_SMU_INFO, smu);
    put16(t + 4 + 2 * VA_DATA_INDIRECTIO, iio);
    put16(t + 4 + 2 * VA_DATA_VRAM_INFO, vram);

    t = rom + fwi;
    put_table_header(t, VA_FWI_LEN, 3, 1);
    put32(t + VA_FWI_REVISION, VA_FW_REVISION);
    put32(t + VA_FWI_SCLK, p->boot_sclk_10khz);
    put32(t + VA_FWI_MCLK, p->boot_mclk_10khz);
    put32(t + VA_FWI_SCRATCH, p->bios_scratch_reg);

    t = rom + smu;
    put_table_header(t, VA_SMU_LEN, 3, 1);
    put32(t + VA_SMU_REFCLK, p->core_refclk_10khz);

    t = rom + vram;
    put_table_header(t, VA_VRAM_LEN, 2, 3);
    t[VA_VRAM_MODULE_NUM] = 1;
    t += VA_VRAM_MODULES;
    put16(t + VA_MOD_SIZE, VA_MOD_LEN);
    t[VA_MOD_TYPE] = VA_VRAM_TYPE_HBM2;
    t[VA_MOD_CHANNELS] = p->vram_width / VA_HBM_CHANNEL_BITS;
    t[VA_MOD_CHANNEL_WIDTH] = VA_HBM_CHANNEL_LOG2;

    /* The kernel does not check this table's revisions. */
    put_table_header(rom + iio, VA_IIO_LEN, 1, 1);
    rom[iio + 4] = VA_IIO_END;

    return len;
}
