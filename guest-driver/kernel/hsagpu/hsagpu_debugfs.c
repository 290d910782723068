// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: debug counters in debugfs, /sys/kernel/debug/hsagpu/<PCI name>/
 * (not ABI: for people and tests that look, like ivpu_debugfs.c):
 *   error_irqs     vector 0 interrupts that reported a device error
 *   aer_events     AER error_detected() calls
 *   watchdog_firings  hung queues the watchdog found
 *   resets         device resets and fatal-error recoveries gone through
 *   files_lost     open files whose queues and VRAM recovery took away
 *   queue_irqs     queue completion interrupts
 *   queues_active  hardware queues in use
 *   vector_irqs    "<vector> <interrupts>", one line per MSI-X vector
 *   vm_faults      VM faults the error interrupt reported
 *   userptr_invalidations  registrations the process's mm took away
 *   userptr_repins registrations moved to the range's new pages
 *   sysmem_bytes   SYSTEM memory allocated by all open files, now
 *   userptr_pages  user pages registrations hold pinned, now
 *   vm             the device's page walks, TLB hits, invalidations and
 *                  VM faults, the VMIDs in use, and per open file: its
 *                  opener, VMID, mappings and page tables
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "hsagpu.h"

static struct dentry *hsagpu_debugfs_root;

static int vector_irqs_show(struct seq_file *m, void *unused)
{
	struct hsagpu_device *hdev = m->private;
	u32 i;

	for (i = 0; i < hdev->msix_vectors; i++)
		seq_printf(m, "%u %d\n", i, atomic_read(&hdev->vector_irqs[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vector_irqs);

static int sysmem_bytes_get(void *data, u64 *val)
{
	*val = atomic64_read(&((struct hsagpu_device *)data)->sysmem_bytes);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(sysmem_bytes_fops, sysmem_bytes_get, NULL, "%llu\n");

static int userptr_pages_get(void *data, u64 *val)
{
	*val = atomic64_read(&((struct hsagpu_device *)data)->userptr_pages);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(userptr_pages_fops, userptr_pages_get, NULL, "%llu\n");

/* Failures are ignored, as debugfs wants: the driver works without it. */
void hsagpu_debugfs_init(struct hsagpu_device *hdev)
{
	struct dentry *d;

	if (!hsagpu_debugfs_root)
		return;
	d = debugfs_create_dir(pci_name(hdev->pdev), hsagpu_debugfs_root);
	hdev->debugfs = d;
	debugfs_create_atomic_t("error_irqs", 0444, d, &hdev->error_irqs);
	debugfs_create_atomic_t("aer_events", 0444, d, &hdev->aer_events);
	debugfs_create_atomic_t("watchdog_firings", 0444, d,
				&hdev->watchdog_firings);
	debugfs_create_atomic_t("resets", 0444, d, &hdev->resets);
	debugfs_create_atomic_t("files_lost", 0444, d, &hdev->files_lost);
	debugfs_create_atomic_t("queue_irqs", 0444, d, &hdev->queue_irqs);
	debugfs_create_u32("queues_active", 0444, d, &hdev->queues_active);
	debugfs_create_file("vector_irqs", 0444, d, hdev, &vector_irqs_fops);
	debugfs_create_file_unsafe("sysmem_bytes", 0444, d, hdev, &sysmem_bytes_fops);
	debugfs_create_file_unsafe("userptr_pages", 0444, d, hdev, &userptr_pages_fops);
	hsagpu_vm_debugfs_init(hdev, d);
}

/* Before the counters go away (remove(), or a failed probe). */
void hsagpu_debugfs_fini(struct hsagpu_device *hdev)
{
	debugfs_remove_recursive(hdev->debugfs);
	hdev->debugfs = NULL;
}

void hsagpu_debugfs_register(void)
{
	hsagpu_debugfs_root = debugfs_create_dir(HSAGPU_DRV_NAME, NULL);
	if (IS_ERR(hsagpu_debugfs_root))
		hsagpu_debugfs_root = NULL;
}

void hsagpu_debugfs_unregister(void)
{
	debugfs_remove_recursive(hsagpu_debugfs_root);
	hsagpu_debugfs_root = NULL;
}
