// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host test of the Vega10 personality's ATOM firmware image
 * (hw/hsagpu/vega10/vega10-atom.c), read the way Linux 6.1 and 6.12 read
 * it: pci_get_rom_size, check_atom_bios, amdgpu_atom_parse and its string
 * readers, amdgpu_atom_parse_data_header and the amdgpu_atomfirmware_*
 * readers Vega10 runs. The offsets are the kernel's, written down here
 * again; nothing of the builder but its API is used. Every read goes
 * through b8(), which counts the ones past the image instead of making
 * them. TAP output.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/vega10/vega10-atom.h"

#include "tap.h"

#define ROM_BAR (128u << 10)	/* the ROM BAR the image is served from */

/* The bytes the kernel reads from and how many reads fell past them. */
static const uint8_t *img;
static size_t img_len;
static unsigned oob;

static unsigned b8(size_t off)
{
	if (off >= img_len) {
		oob++;
		return 0;
	}
	return img[off];
}

static unsigned b16(size_t off)
{
	return b8(off) | b8(off + 1) << 8;
}

static uint32_t b32(size_t off)
{
	return b16(off) | (uint32_t)b16(off + 2) << 16;
}

/* drivers/pci/rom.c: the length of the image chain, 0 if none is valid. */
static size_t pci_rom_size(size_t bar)
{
	size_t image = 0, pds, dlen, length;
	bool last;

	do {
		if (image % 512 || image + 0x1a > bar || b16(image) != 0xaa55)
			break;
		pds = image + b16(image + 0x18);
		if (pds % 4 || pds + 0x0b >= bar ||
		    b32(pds) != 0x52494350)	/* "PCIR" */
			break;
		dlen = b16(pds + 0x0a);
		if (dlen < 0x18 || dlen == 0xffff || pds + dlen - 1 >= bar)
			break;
		last = b8(pds + 0x15) & 0x80;
		length = b16(pds + 0x10);
		image += length * 512;
		if (!last && (image + 0x1a > bar || b16(image) != 0xaa55))
			break;
	} while (length && !last);
	return image < bar ? image : bar;
}

/* The first place of @s at @start..@end, -1 if none (atom_find_str_in_rom) */
static long find_str(const char *s, long start, long end)
{
	size_t n = strlen(s), k;

	for (; start <= end; start++) {
		for (k = 0; k < n; k++) {
			if ((unsigned char)s[k] != b8(start + k))
				break;
		}
		if (k == n)
			return start;
	}
	return -1;
}

/* amdgpu_atom_parse_data_header: the table's offset, 0 if absent. */
static size_t data_table(size_t master, int index, unsigned *size,
			 unsigned *frev, unsigned *crev)
{
	size_t t = b16(master + 4 + 2 * index);

	if (t) {
		*size = b16(t);
		*frev = b8(t + 2);
		*crev = b8(t + 3);
	}
	return t;
}

/* The IIO programs atom_index_iio would index, -1 if it runs away. */
static int index_iio(size_t base)
{
	static const int iio_len[] = { 1, 2, 3, 3, 3, 3, 4, 4, 4, 3 };
	int programs = 0;

	while (b8(base) == 1) {		/* ATOM_IIO_START */
		programs++;
		base += 2;
		while (b8(base) != 9) {	/* ATOM_IIO_END */
			if (b8(base) > 9 || base >= img_len)
				return -1;
			base += iio_len[b8(base)];
		}
		base += 3;
		if (base >= img_len)
			return -1;
	}
	return programs;
}

static void check_image(const HsaGpuAtomParams *p)
{
	uint8_t *rom = malloc(ROM_BAR);
	size_t len, pcir, hdr, cmd, data, fwi, smu, vram, iio, t, n;
	unsigned size, frev, crev, i, num;
	long v61, v612;
	char name[64], pn[64];
	uint32_t cap;

	memset(rom, 0xee, ROM_BAR);
	len = hsagpu_atom_build(rom, ROM_BAR, p);
	TM(len && len % 512 == 0, "%s: image of %zu bytes", p->part_number,
	   len);
	if (!len) {
		free(rom);
		return;
	}

	/* pci_map_rom: the ROM BAR's whole window, then the image's length */
	img = rom;
	img_len = ROM_BAR;
	oob = 0;
	T(pci_rom_size(ROM_BAR) == len);
	T(b8(2) * 512u == len);		/* AMD_VBIOS_LENGTH */
	pcir = b16(0x18);
	T(b32(pcir) == 0x52494350 && b16(pcir + 0x0a) >= 0x18);
	T(b16(pcir + 4) == p->vendor_id && b16(pcir + 6) == p->device_id);
	T((b8(pcir + 0x0d) | b16(pcir + 0x0e) << 8) == p->class_code);
	T(b16(pcir + 0x10) * 512u == len && (b8(pcir + 0x15) & 0x80));
	/* SeaBIOS runs code type 0 (x86), OVMF loads 3 (EFI) */
	T(b8(pcir + 0x14) != 0 && b8(pcir + 0x14) != 3);
	T(b8(3) == 0xcb);		/* retf, should anything call it */
	for (t = len, n = 0; t < ROM_BAR; t++)
		n += rom[t] != 0;
	TM(n == 0, "the BAR past the image is zero (%zu bytes are not)", n);

	/* From here on, the kernel's copy: adev->bios of len bytes */
	img_len = len;
	/* 6.1's version search reads 3..1037 if it finds no anchor */
	T(len >= 1024 + 14);

	/* check_atom_bios */
	hdr = b16(0x48);
	T(len >= 0x49 && b16(0) == 0xaa55 && hdr != 0);
	T(b32(hdr + 4) == 0x4d4f5441);	/* "ATOM" */

	/* amdgpu_atom_parse */
	T(memcmp(rom + 0x30, " 761295520", 10) == 0);
	cmd = b16(hdr + 0x1e);
	data = b16(hdr + 0x20);
	T(cmd != 0 && cmd + 4 + 2 * 81 <= len && b16(cmd) >= 4 + 2 * 81);
	T(data != 0 && data + 4 + 2 * 35 <= len && b16(data) >= 4 + 2 * 35);
	iio = b16(data + 4 + 2 * 23);	/* indirectioaccess */
	TM(iio != 0 && b8(iio + 4) != 1, "IIO scan starts at %zu on %#x",
	   iio + 4, b8(iio + 4));
	T(index_iio(iio + 4) == 0);
	T(b8(4) != 1);			/* where it would start without one */
	fwi = b16(data + 4 + 2 * 4);	/* the firmware revision */
	T(fwi != 0 && b32(fwi + 4) != 0);

	/* atom_get_vbios_name: skip the strings and CR LF */
	num = b8(0x2f);
	T(num != 0);
	for (t = b16(0x6e), i = 0; i < num && t < len; i++) {
		while (b8(t))
			t++;
		t++;
	}
	T(b8(t) == '\r' && b8(t + 1) == '\n');
	for (t += 2, n = 0; n < 63 && b8(t + n); n++)
		name[n] = b8(t + n);
	name[n] = 0;
	TM(strcmp(name, p->name) == 0, "name \"%s\"", name);

	/* atom_get_vbios_pn: the first string, non-empty (NULL + 8 else) */
	t = num ? b16(0x6e) : 0x80;
	T(b8(t) != 0);
	for (n = 0; n < 43 && b8(t + n) >= ' ' && b8(t + n) <= 'z'; n++)
		pn[n] = b8(t + n);
	pn[n] = 0;
	TM(strcmp(pn, p->part_number) == 0, "part number \"%s\"", pn);
	/* ...and had it been empty, its fallback finds something */
	T(find_str("ATOMBIOS", 3, 1024) >= 0);

	/* 6.1: strlcpy of the string at 0x6E (0x80 if 0) reads to its NUL */
	t = b16(0x6e) ? b16(0x6e) : 0x80;
	while (t < len && b8(t))
		t++;
	T(t < len && t - (b16(0x6e) ? b16(0x6e) : 0x80) == strlen(pn));

	/* atom_get_vbios_date: 14 bytes at 0x50, "MM/DD/YY HH:MM" */
	for (n = 0, i = 0; i < 14; i++) {
		unsigned c = b8(0x50 + i);

		if (i == 2 || i == 5)
			n += c == '/';
		else if (i == 8)
			n += c == ' ';
		else if (i == 11)
			n += c == ':';
		else
			n += c >= '0' && c <= '9';
	}
	T(n == 14);

	/* atom_get_vbios_version: 6.1 searches 3..1024, 6.12 the strings */
	v61 = find_str("ATOMBIOSBK-AMD", 3, 1024);
	if (b16(0x48) > b16(0x6e))
		v612 = find_str("ATOMBIOSBK-AMD", b16(0x6e), b16(0x48));
	else
		v612 = v61;
	TM(v61 > 0 && v61 == v612, "version anchor at %ld / %ld", v61, v612);
	T(v61 > 0 && find_str(" VER", v61 + 14, v61 + 14) == v61 + 14);
	/* the 32 bytes copied after it: a non-empty string */
	for (n = 0; v61 > 0 && n < 32 && b8(v61 + 18 + n); n++)
		;
	T(v61 > 0 && n > 0 && n < 32 && v61 + 18 + 32 <= (long)len);

	/* Every table the master lists is inside the image */
	for (i = 0, n = 0; i < 35; i++) {
		t = data_table(data, i, &size, &frev, &crev);
		if (t && (size < 4 || t + size > len))
			n++;
	}
	TM(n == 0, "%zu data tables outside the image", n);
	/*
	 * Command tables: asic_init (0) alone, as amdgpu_atom_execute_table
	 * reads it after a GPU reset: size, workspace, parameter space, then
	 * code whose first opcode is EOT (0x5b): it returns at once
	 */
	t = b16(cmd + 4);
	T(t > 0 && t + 7 <= len && b16(t) >= 7);
	T(t > 0 && b8(t + 4) == 0 && (b8(t + 5) & 0x7f) == 0);
	T(t > 0 && b8(t + 6) == 0x5b);
	for (i = 1, n = 0; i < 81; i++)
		n += b16(cmd + 4 + 2 * i) != 0;
	T(n == 0);

	/* firmwareinfo v3.1 */
	t = data_table(data, 4, &size, &frev, &crev);
	TM(t && frev == 3 && crev == 1 && size >= 72,
	   "firmwareinfo v%u.%u, %u bytes", frev, crev, size);
	T(b32(t + 8) == p->boot_sclk_10khz && b32(t + 12) == p->boot_mclk_10khz);
	T(b32(t + 24) == p->bios_scratch_reg);
	cap = b32(t + 16);
	/* SR-IOV, SRAM ECC, two-stage memory training, dynamic boot config */
	T((cap & (0x2 | 0x200 | 0x400 | 0x20000)) == 0);

	/* smu_info v3.1: the reference clock */
	smu = data_table(data, 8, &size, &frev, &crev);
	TM(smu && frev == 3 && crev == 1 && size >= 20,
	   "smu_info v%u.%u, %u bytes", frev, crev, size);
	T(b32(smu + 16) == p->core_refclk_10khz);

	/* vram_info v2.3, module 0 (BIOS_SCRATCH_4[23:16] reads 0) */
	vram = data_table(data, 28, &size, &frev, &crev);
	TM(vram && frev == 2 && crev == 3, "vram_info v%u.%u", frev, crev);
	T(b8(vram + 20) >= 1);
	t = vram + 24;
	T(b16(t + 20) >= 26 && 24 + b16(t + 20) <= size);
	T(b8(t + 23) == 0x60);		/* HBM2 */
	T(b8(t + 24) * (1u << b8(t + 25)) == p->vram_width);

	/* mem_ecc_supported: no umc_info, no memory ECC */
	T(!data_table(data, 24, &size, &frev, &crev));

	TM(oob == 0, "%u reads past the image", oob);
	free(rom);
}

static const HsaGpuAtomParams mi25 = {
	.vendor_id = 0x1002,
	.device_id = 0x6860,
	.class_code = 0x038000,
	.revision = 0,
	.part_number = "HSAGPU-VEGA10",
	.name = "hsagpu Vega10 (synthetic ATOM firmware)",
	.boot_sclk_10khz = 85200,
	.boot_mclk_10khz = 94500,
	.core_refclk_10khz = 10000,
	.bios_scratch_reg = V10_BIOS_SCRATCH_0,
	.vram_width = 2048,
};

static void test_images(void)
{
	HsaGpuAtomParams p = mi25;

	check_image(&mi25);

	/* The longest strings, other IDs and clocks */
	p.device_id = 0x687f;
	p.class_code = 0x030000;
	p.revision = 0xc1;
	p.part_number = "ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnop";
	p.name = "0123456789012345678901234567890"
		 "1234567890123456789012345678901~";
	p.boot_sclk_10khz = 1;
	p.boot_mclk_10khz = 0xffffffff;
	p.core_refclk_10khz = 2500;
	p.bios_scratch_reg = 0x1234;
	p.vram_width = 128 * 255;
	T(strlen(p.part_number) == HSAGPU_ATOM_PART_NUMBER_MAX);
	T(strlen(p.name) == HSAGPU_ATOM_NAME_MAX);
	check_image(&p);
}

/* Returns 0 and leaves the buffer as it was. */
static bool refused(const HsaGpuAtomParams *p, size_t size)
{
	uint8_t *rom = malloc(ROM_BAR);
	size_t n = 0, i;
	bool ok;

	memset(rom, 0xee, ROM_BAR);
	ok = hsagpu_atom_build(rom, size, p) == 0;
	for (i = 0; i < ROM_BAR; i++)
		n += rom[i] != 0xee;
	free(rom);
	return ok && n == 0;
}

static void test_refused(void)
{
	uint8_t *rom = malloc(ROM_BAR);
	HsaGpuAtomParams p;
	size_t len = hsagpu_atom_build(rom, ROM_BAR, &mi25);

	free(rom);
	/* Fits exactly, not in a byte less, not in a 512-byte BAR */
	T(len && !refused(&mi25, len));
	T(refused(&mi25, len - 1));
	T(refused(&mi25, 512));

	p = mi25;
	p.part_number = "";		/* the NULL + 8 trap */
	T(refused(&p, ROM_BAR));
	p.part_number = NULL;
	T(refused(&p, ROM_BAR));
	p.part_number = "HSAGPU{VEGA10}";	/* '{' ends vbios_pn */
	T(refused(&p, ROM_BAR));
	p.part_number = "ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopq";
	T(refused(&p, ROM_BAR));
	p = mi25;
	p.name = "";
	T(refused(&p, ROM_BAR));
	p.name = "a name with a newline\n";
	T(refused(&p, ROM_BAR));
	p = mi25;
	p.boot_sclk_10khz = 0;		/* amdgpu_atom_asic_init refuses 0 */
	T(refused(&p, ROM_BAR));
	p = mi25;
	p.boot_mclk_10khz = 0;
	T(refused(&p, ROM_BAR));
	p = mi25;
	p.core_refclk_10khz = 0;
	T(refused(&p, ROM_BAR));
	p = mi25;
	p.bios_scratch_reg = 0;
	T(refused(&p, ROM_BAR));
	p = mi25;
	p.vram_width = 2000;		/* not whole 128-bit channels */
	T(refused(&p, ROM_BAR));
	p.vram_width = 0;
	T(refused(&p, ROM_BAR));
	p.vram_width = 128 * 256;
	T(refused(&p, ROM_BAR));
}

int main(void)
{
	test_images();
	test_refused();
	return tap_done();
}
