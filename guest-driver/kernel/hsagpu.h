/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HSAGPU_DRV_H
#define HSAGPU_DRV_H

#include <linux/miscdevice.h>
#include <linux/pci.h>

#include "hsagpu/hsagpu_hw.h"
#include "hsagpu/hsagpu_uapi.h"

#define HSAGPU_DRV_NAME "hsagpu"

struct hsagpu_device {
	struct pci_dev *pdev;
	void __iomem *mmio;             /* BAR5 */
	void __iomem *doorbells;        /* BAR2 */
	void __iomem *vram;             /* BAR0, write-combined */
	int id;                         /* N of /dev/hsagpuN */
	char devname[16];
	struct miscdevice misc;

	/* identification, validated against the ROM table */
	u32 abi_version;
	u32 caps;
	u64 vram_size;
	u32 doorbell_count;
	u32 doorbell_stride;
	u32 num_queues;
	u32 msix_vectors;               /* allocated */
	struct hsagpu_rom_info rom_info;
	char name[32];

	/* PCIe AtomicOps, as set up at probe time */
	int atomics_errno;              /* pci_enable_atomic_ops_to_root() */
	int atomics128_errno;
	bool atomic_requester;          /* DevCtl2 AtomicOp Req Enable read back */

	atomic_t error_irqs;
	atomic_t aer_events;
};

static inline u32 hsagpu_rd(struct hsagpu_device *hdev, u32 reg)
{
	return readl(hdev->mmio + reg);
}

static inline void hsagpu_wr(struct hsagpu_device *hdev, u32 reg, u32 val)
{
	writel(val, hdev->mmio + reg);
}

int hsagpu_rom_validate(struct hsagpu_device *hdev);
int hsagpu_queues_allowed(struct hsagpu_device *hdev);
extern const struct attribute_group *hsagpu_groups[];

#endif
