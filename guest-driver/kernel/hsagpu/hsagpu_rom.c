// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: expansion ROM parsing. The ROM must be a valid PCI option ROM
 * image for this device and carry an information table that agrees with
 * the identification registers.
 */
#include <linux/io.h>
#include <linux/pci.h>

#include "hsagpu.h"

static int hsagpu_rom_check_table(struct hsagpu_device *hdev,
				  const struct hsagpu_rom_info *t)
{
	struct device *dev = &hdev->pdev->dev;
	const u8 *p = (const u8 *)t;
	u8 sum = 0;
	int i;

	for (i = 0; i < sizeof(*t); i++)
		sum += p[i];

	if (le32_to_cpu(t->signature) != HSAGPU_ROM_INFO_SIGNATURE ||
	    le16_to_cpu(t->version) != HSAGPU_ROM_INFO_VERSION ||
	    le16_to_cpu(t->length) != sizeof(*t)) {
		dev_err(dev, "ROM information table: bad signature/version/length\n");
		return -EINVAL;
	}
	if (sum) {
		dev_err(dev, "ROM information table: checksum mismatch\n");
		return -EINVAL;
	}
	if (le16_to_cpu(t->vendor_id) != hdev->pdev->vendor ||
	    le16_to_cpu(t->device_id) != hdev->pdev->device ||
	    le32_to_cpu(t->abi_version) != hdev->abi_version ||
	    le64_to_cpu(t->vram_size) != hdev->vram_size ||
	    le32_to_cpu(t->doorbell_count) != hdev->doorbell_count ||
	    le32_to_cpu(t->doorbell_stride) != hdev->doorbell_stride ||
	    le32_to_cpu(t->num_queues) != hdev->num_queues ||
	    le32_to_cpu(t->caps) != hdev->caps ||
	    le32_to_cpu(t->compute_units) !=
	    ((hdev->abi_version & 0xffff) >= 4 ? hdev->compute_units : 0)) {
		dev_err(dev, "ROM information table disagrees with the registers\n");
		return -EINVAL;
	}
	return 0;
}

int hsagpu_rom_validate(struct hsagpu_device *hdev)
{
	struct pci_dev *pdev = hdev->pdev;
	struct device *dev = &pdev->dev;
	void __iomem *rom;
	size_t size;
	u16 pcir, info;
	u32 class;
	int ret = -EINVAL;

	rom = pci_map_rom(pdev, &size);
	if (!rom) {
		dev_err(dev, "expansion ROM missing or invalid\n");
		return -ENODEV;
	}
	if (size < HSAGPU_ROM_INFO_OFFSET + sizeof(hdev->rom_info)) {
		dev_err(dev, "expansion ROM too small (%zu bytes)\n", size);
		goto out;
	}
	pcir = readw(rom + 0x18);
	if (pcir + 0x1c > size || readl(rom + pcir) != 0x52494350 /* PCIR */) {
		dev_err(dev, "expansion ROM has no PCI data structure\n");
		goto out;
	}
	class = readl(rom + pcir + 0x0c) >> 8;
	if (readw(rom + pcir + 4) != pdev->vendor ||
	    readw(rom + pcir + 6) != pdev->device ||
	    class != (pdev->class & 0xffffff)) {
		dev_err(dev, "expansion ROM is for %04x:%04x class %06x\n",
			readw(rom + pcir + 4), readw(rom + pcir + 6), class);
		goto out;
	}
	info = readw(rom + HSAGPU_ROM_INFO_PTR_OFFSET);
	if (info + sizeof(hdev->rom_info) > size) {
		dev_err(dev, "ROM information table pointer out of range\n");
		goto out;
	}
	memcpy_fromio(&hdev->rom_info, rom + info, sizeof(hdev->rom_info));
	ret = hsagpu_rom_check_table(hdev, &hdev->rom_info);
	if (!ret)
		strscpy(hdev->name, hdev->rom_info.name, sizeof(hdev->name));
out:
	pci_unmap_rom(pdev, rom);
	return ret;
}
