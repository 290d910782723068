// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The expansion ROM as the guest reads it through sysfs: a valid PCI
 * option ROM image for this device, with a correct information table.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "gt.h"

static uint16_t le16(const uint8_t *p) { return p[0] | p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return le16(p) | (uint32_t)le16(p + 2) << 16; }

static void test_dev(const char *dev, int idx)
{
	static uint8_t rom[HSAGPU_ROM_SIZE + 1];
	uint64_t want_vram = HSAGPU_VRAM_SIZE_DEFAULT, cls;
	char path[128];
	const uint8_t *pcir, *info;
	uint8_t sum = 0;
	ssize_t n = 0, r;
	int fd;

	gt_param_u64("vram", idx, &want_vram);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/rom", dev);
	CHECK(!gt_sysfs_write(path, "1"), "enable %s", path);
	fd = open(path, O_RDONLY);
	CHECK(fd >= 0, "open %s", path);
	if (fd < 0)
		return;
	while ((r = read(fd, rom + n, sizeof(rom) - n)) > 0)
		n += r;
	close(fd);
	gt_sysfs_write(path, "0");
	CHECK_EQ_U64(n, HSAGPU_ROM_SIZE);
	CHECK(rom[0] == 0x55 && rom[1] == 0xaa, "no 0x55AA signature");

	pcir = rom + le16(rom + 0x18);
	CHECK(!memcmp(pcir, "PCIR", 4), "no PCIR structure");
	CHECK_EQ_U64(le16(pcir + 4), HSAGPU_PCI_VENDOR_ID);
	CHECK_EQ_U64(le16(pcir + 6), HSAGPU_PCI_DEVICE_ID);
	gt_sysfs_u64(dev, "class", &cls);
	CHECK_EQ_U64(le32(pcir + 0x0c) >> 8, cls);
	CHECK_EQ_U64(le16(pcir + 0x10) * 512, HSAGPU_ROM_SIZE);
	CHECK(pcir[0x15] & 0x80, "last-image indicator not set");
	CHECK(pcir[0x14] != 0 && pcir[0x14] != 3,
	      "code type %u would be executed by firmware", pcir[0x14]);

	info = rom + le16(rom + HSAGPU_ROM_INFO_PTR_OFFSET);
	CHECK_EQ_U64(le32(info), HSAGPU_ROM_INFO_SIGNATURE);
	for (int i = 0; i < HSAGPU_ROM_INFO_SIZE; i++)
		sum += info[i];
	CHECK(sum == 0, "info table checksum 0x%02x", sum);
	CHECK_EQ_U64(le32(info + 16) | (uint64_t)le32(info + 20) << 32,
		     want_vram);
	for (int i = 0; i < HSAGPU_ROM_SIZE; i++)
		sum += rom[i];
	CHECK(sum == 0, "image checksum 0x%02x", sum);
}

int main(void)
{
	char devs[GT_MAX_DEVS][16];
	int n = gt_find_devices(devs);

	CHECK(n > 0, "no hsa-gpu device");
	for (int i = 0; i < n; i++)
		test_dev(devs[i], i);
	return gt_result();
}
