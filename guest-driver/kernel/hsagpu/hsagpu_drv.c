// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: Linux driver for QEMU's hsa-gpu accelerator model.
 *
 * Probe maps the BARs, validates the identification registers and the
 * expansion ROM's information table, allocates MSI-X vectors, sets up
 * PCIe AtomicOps towards the root complex and creates /dev/hsagpuN.
 * Remove stops every queue before the BARs go away; open files keep the
 * (reference counted) device state and get -ENODEV from then on.
 */
#include <linux/dma-mapping.h>
#include <linux/genalloc.h>
#include <linux/idr.h>
#include <linux/iommu.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "hsagpu.h"

static DEFINE_IDA(hsagpu_ida);

static bool allow_no_atomics;
module_param(allow_no_atomics, bool, 0444);
MODULE_PARM_DESC(allow_no_atomics,
		 "Allow queues when PCIe AtomicOps to the root complex are unavailable (degraded: signals and dispatch ids are not atomic with respect to the CPUs)");

/*
 * The HSA queue model needs platform atomics: queues are refused when
 * PCIe AtomicOps cannot reach system memory, unless the degraded mode was
 * asked for explicitly.
 */
int hsagpu_queues_allowed(struct hsagpu_device *hdev)
{
	if (!hdev->atomics_errno || allow_no_atomics)
		return 0;
	return -EOPNOTSUPP;
}

static int hsagpu_check_ident(struct hsagpu_device *hdev)
{
	struct pci_dev *pdev = hdev->pdev;
	struct device *dev = &pdev->dev;
	u32 magic = hsagpu_rd(hdev, HSAGPU_REG_MAGIC);

	if (magic != HSAGPU_MAGIC_VALUE) {
		dev_err(dev, "bad magic 0x%08x (expected 0x%08x)\n", magic,
			HSAGPU_MAGIC_VALUE);
		return -ENODEV;
	}
	hdev->abi_version = hsagpu_rd(hdev, HSAGPU_REG_ABI_VERSION);
	if (hdev->abi_version >> 16 != HSAGPU_ABI_MAJOR) {
		dev_err(dev, "device ABI %u.%u, driver supports %u.x\n",
			hdev->abi_version >> 16, hdev->abi_version & 0xffff,
			HSAGPU_ABI_MAJOR);
		return -ENODEV;
	}
	hdev->caps = hsagpu_rd(hdev, HSAGPU_REG_CAPS);
	hdev->vram_size = hsagpu_rd(hdev, HSAGPU_REG_VRAM_SIZE_LO) |
			  (u64)hsagpu_rd(hdev, HSAGPU_REG_VRAM_SIZE_HI) << 32;
	hdev->doorbell_count = hsagpu_rd(hdev, HSAGPU_REG_DOORBELL_COUNT);
	hdev->doorbell_stride = hsagpu_rd(hdev, HSAGPU_REG_DOORBELL_STRIDE);
	hdev->num_queues = hsagpu_rd(hdev, HSAGPU_REG_NUM_QUEUES);
	/* An older device has no such register: reading it is a bad access. */
	hdev->compute_units = HSAGPU_COMPUTE_UNITS_DEFAULT;
	if ((hdev->abi_version & 0xffff) >= 4)
		hdev->compute_units = hsagpu_rd(hdev, HSAGPU_REG_COMPUTE_UNITS);

	if (hdev->vram_size != pci_resource_len(pdev, HSAGPU_BAR_VRAM)) {
		dev_err(dev, "VRAM register says %llu bytes, BAR0 is %llu\n",
			hdev->vram_size,
			(u64)pci_resource_len(pdev, HSAGPU_BAR_VRAM));
		return -ENODEV;
	}
	if ((u64)hdev->doorbell_count * hdev->doorbell_stride !=
	    pci_resource_len(pdev, HSAGPU_BAR_DOORBELL)) {
		dev_err(dev, "doorbell registers disagree with BAR2 size\n");
		return -ENODEV;
	}
	if (!hdev->num_queues || hdev->num_queues > HSAGPU_NUM_QUEUES_MAX) {
		dev_err(dev, "bad queue count %u\n", hdev->num_queues);
		return -ENODEV;
	}
	if (hdev->compute_units < HSAGPU_COMPUTE_UNITS_MIN ||
	    hdev->compute_units > HSAGPU_COMPUTE_UNITS_MAX) {
		dev_err(dev, "bad compute unit count %u\n", hdev->compute_units);
		return -ENODEV;
	}
	return 0;
}

static bool hsagpu_bar_below_limit(struct hsagpu_device *hdev, int bar)
{
	u64 end = pci_bus_address(hdev->pdev, bar) +
		  pci_resource_len(hdev->pdev, bar);

	return hdev->p2p_addr_bits >= 64 ||
	       end <= BIT_ULL(hdev->p2p_addr_bits);
}

/* P2P_STATUS for ABI 1.1 devices, which have no DMA registers. */
static u32 hsagpu_p2p_status_fallback(struct hsagpu_device *hdev)
{
	u32 status = 0;

	if (hsagpu_bar_below_limit(hdev, HSAGPU_BAR_VRAM))
		status |= HSAGPU_P2P_VRAM_OK;
	if (hsagpu_bar_below_limit(hdev, HSAGPU_BAR_DOORBELL))
		status |= HSAGPU_P2P_DOORBELL_OK;
	if (status == (HSAGPU_P2P_VRAM_OK | HSAGPU_P2P_DOORBELL_OK))
		status |= HSAGPU_P2P_OK;
	return status;
}

/*
 * The device cannot emit bus addresses at or above 2^p2p_addr_bits: that
 * is its DMA mask. ABI 1.1 devices have no register for it and the
 * GFX9-class default. DMA is "translated" when the device sits in an
 * IOMMU paging domain (not identity / passthrough).
 */
static int hsagpu_setup_dma(struct hsagpu_device *hdev)
{
	struct device *dev = &hdev->pdev->dev;
	struct iommu_domain *domain;
	int ret;

	if ((hdev->abi_version & 0xffff) >= 2) {
		hdev->p2p_addr_bits = hsagpu_rd(hdev, HSAGPU_REG_P2P_ADDR_BITS);
		hdev->p2p_status = hsagpu_rd(hdev, HSAGPU_REG_P2P_STATUS);
		if (hdev->p2p_addr_bits < HSAGPU_P2P_ADDR_BITS_MIN ||
		    hdev->p2p_addr_bits > HSAGPU_P2P_ADDR_BITS_MAX) {
			dev_err(dev, "bad P2P address width %u\n",
				hdev->p2p_addr_bits);
			return -ENODEV;
		}
	} else {
		hdev->p2p_addr_bits = HSAGPU_P2P_ADDR_BITS_DEFAULT;
		hdev->p2p_status = hsagpu_p2p_status_fallback(hdev);
	}

	/*
	 * With GPUVM, page-table entries hold 48-bit bus addresses: DMA
	 * must stay below that too.
	 */
	ret = dma_set_mask_and_coherent(dev,
					DMA_BIT_MASK(hdev->caps & HSAGPU_CAP_VM ?
						     min(hdev->p2p_addr_bits,
							 HSAGPU_VM_VA_BITS) :
						     hdev->p2p_addr_bits));
	if (ret) {
		dev_err(dev, "no usable %u-bit DMA: %d\n", hdev->p2p_addr_bits,
			ret);
		return ret;
	}
	/*
	 * Let the IOMMU merge a whole allocation into one segment. PCI
	 * devices have DMA parameters, so these cannot fail (6.12 made them
	 * void).
	 */
	dma_set_max_seg_size(dev, UINT_MAX);
	dma_set_seg_boundary(dev, ULONG_MAX);

	domain = iommu_get_domain_for_dev(dev);
	hdev->dma_iommu = domain && (domain->type & __IOMMU_DOMAIN_PAGING);
	if (!(hdev->p2p_status & HSAGPU_P2P_OK))
		dev_warn(dev, "BARs above the %u-bit P2P limit (status 0x%x): peers cannot reach this device\n",
			 hdev->p2p_addr_bits, hdev->p2p_status);
	return 0;
}

static void hsagpu_setup_atomics(struct hsagpu_device *hdev)
{
	struct pci_dev *pdev = hdev->pdev;
	u16 ctl2 = 0;

	hdev->atomics_errno = pci_enable_atomic_ops_to_root(pdev,
			PCI_EXP_DEVCAP2_ATOMIC_COMP32 |
			PCI_EXP_DEVCAP2_ATOMIC_COMP64);
	hdev->atomics128_errno = pci_enable_atomic_ops_to_root(pdev,
			PCI_EXP_DEVCAP2_ATOMIC_COMP128);
	/* Confirm the Requester Enable bit really took. */
	pcie_capability_read_word(pdev, PCI_EXP_DEVCTL2, &ctl2);
	hdev->atomic_requester = !!(ctl2 & PCI_EXP_DEVCTL2_ATOMIC_REQ);

	if (hdev->atomics_errno)
		dev_warn(&pdev->dev,
			 "PCIe AtomicOps to root unavailable (%d): the path does not route or complete 32/64-bit AtomicOps; queues %s\n",
			 hdev->atomics_errno,
			 allow_no_atomics ? "allowed in degraded mode (allow_no_atomics=1)" :
			 "refused (load with allow_no_atomics=1 to allow them)");
	else
		dev_info(&pdev->dev, "PCIe AtomicOps to root enabled (32/64%s), requester %s\n",
			 hdev->atomics128_errno ? "" : "/128",
			 hdev->atomic_requester ? "on" : "off");
}

static void hsagpu_debugfs_action(void *data)
{
	hsagpu_debugfs_fini(data);
}

static void hsagpu_free_vectors(void *data)
{
	pci_free_irq_vectors(data);
}

static void hsagpu_free_id(void *data)
{
	struct hsagpu_device *hdev = data;

	ida_free(&hsagpu_ida, hdev->id);
}

static int hsagpu_map_bars(struct hsagpu_device *hdev)
{
	struct pci_dev *pdev = hdev->pdev;
	struct device *dev = &pdev->dev;
	resource_size_t start = pci_resource_start(pdev, HSAGPU_BAR_VRAM);
	resource_size_t len = pci_resource_len(pdev, HSAGPU_BAR_VRAM);
	int ret;

	ret = pcim_iomap_regions(pdev, BIT(HSAGPU_BAR_MMIO) |
				 BIT(HSAGPU_BAR_DOORBELL), HSAGPU_DRV_NAME);
	if (ret) {
		dev_err(dev, "cannot map BAR2/BAR5: %d\n", ret);
		return ret;
	}
	hdev->mmio = pcim_iomap_table(pdev)[HSAGPU_BAR_MMIO];
	hdev->doorbells = pcim_iomap_table(pdev)[HSAGPU_BAR_DOORBELL];

	if (!len || !(pci_resource_flags(pdev, HSAGPU_BAR_VRAM) & IORESOURCE_MEM)) {
		dev_err(dev, "BAR0 (VRAM) is not assigned\n");
		return -ENODEV;
	}
	if (!devm_request_mem_region(dev, start, len, HSAGPU_DRV_NAME))
		return -EBUSY;
	hdev->vram = devm_ioremap_wc(dev, start, len);
	if (!hdev->vram)
		return -ENOMEM;
	return 0;
}

static void hsagpu_device_free(struct kref *ref)
{
	struct hsagpu_device *hdev = container_of(ref, struct hsagpu_device,
						  ref);

	/* Every VRAM allocation holds a reference: the pool is empty. */
	if (hdev->vram_pool)
		gen_pool_destroy(hdev->vram_pool);
	kfree(hdev->good_state);
	bitmap_free(hdev->queues_reported);
	bitmap_free(hdev->queues_live);
	kfree(hdev->queues);
	idr_destroy(&hdev->mem_idr);
	ida_destroy(&hdev->queue_ida);
	ida_destroy(&hdev->doorbell_page_ida);
	pci_dev_put(hdev->pdev);
	kfree(hdev);
}

void hsagpu_device_get(struct hsagpu_device *hdev)
{
	kref_get(&hdev->ref);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_device_get, HSAGPU);

void hsagpu_device_put(struct hsagpu_device *hdev)
{
	kref_put(&hdev->ref, hsagpu_device_free);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_device_put, HSAGPU);

/*
 * The uapi's DEVICE_INFO has more (and is per file); the facade needs
 * these, all set before the auxiliary device exists and fixed since.
 */
void hsagpu_device_props(struct hsagpu_device *hdev,
			 struct hsagpu_device_props *props)
{
	memset(props, 0, sizeof(*props));
	props->pdev = hdev->pdev;
	props->caps = hdev->caps;
	props->num_queues = hdev->num_queues;
	props->compute_units = hdev->compute_units;
	props->abi_version = hdev->abi_version;
	props->vram_size = hdev->vram_size;
	props->atomics_errno = hdev->atomics_errno;
	strscpy(props->name, hdev->name, sizeof(props->name));
}
EXPORT_SYMBOL_NS_GPL(hsagpu_device_props, HSAGPU);

u32 hsagpu_device_vm_faults(struct hsagpu_device *hdev)
{
	return atomic_read(&hdev->vm_faults);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_device_vm_faults, HSAGPU);

/* LO latches HI: both under one hsagpu_enter(). */
int hsagpu_device_timestamp(struct hsagpu_device *hdev, u64 *ts)
{
	int ret = hsagpu_enter(hdev);
	u32 lo;

	if (ret)
		return ret;
	lo = hsagpu_rd(hdev, HSAGPU_REG_TIMESTAMP_LO);
	*ts = (u64)hsagpu_rd(hdev, HSAGPU_REG_TIMESTAMP_HI) << 32 | lo;
	hsagpu_exit(hdev);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(hsagpu_device_timestamp, HSAGPU);

static void hsagpu_put_action(void *data)
{
	hsagpu_device_put(data);
}

static struct hsagpu_device *hsagpu_device_alloc(struct pci_dev *pdev)
{
	struct hsagpu_device *hdev = kzalloc(sizeof(*hdev), GFP_KERNEL);

	if (!hdev)
		return NULL;
	hdev->pdev = pci_dev_get(pdev);
	kref_init(&hdev->ref);
	init_rwsem(&hdev->remove_sem);
	mutex_init(&hdev->lock);
	mutex_init(&hdev->dma_lock);
	mutex_init(&hdev->ralias_lock);
	INIT_LIST_HEAD(&hdev->node);
	init_waitqueue_head(&hdev->recover_wq);
	INIT_LIST_HEAD(&hdev->sysbufs);
	INIT_LIST_HEAD(&hdev->files);
	ida_init(&hdev->queue_ida);
	ida_init(&hdev->doorbell_page_ida);
	idr_init(&hdev->mem_idr);
	spin_lock_init(&hdev->wake_lock);
	spin_lock_init(&hdev->vm_lock);
	return hdev;
}

static int hsagpu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	struct hsagpu_device *hdev;
	int nvec, ret;

	hdev = hsagpu_device_alloc(pdev);
	if (!hdev)
		return -ENOMEM;
	/* Registered first, so devres drops probe's reference last. */
	ret = devm_add_action_or_reset(dev, hsagpu_put_action, hdev);
	if (ret)
		return ret;
	pci_set_drvdata(pdev, hdev);

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	ret = hsagpu_map_bars(hdev);
	if (ret)
		return ret;
	ret = hsagpu_check_ident(hdev);
	if (ret)
		return ret;
	ret = hsagpu_rom_validate(hdev);
	if (ret)
		return ret;
	ret = hsagpu_queue_init(hdev);
	if (ret)
		return ret;
	ret = hsagpu_doorbell_init(hdev);
	if (ret)
		return ret;
	ret = hsagpu_vram_init(hdev);
	if (ret)
		return ret;
	ret = hsagpu_ralias_init(hdev);
	if (ret)
		return ret;

	ret = hsagpu_setup_dma(hdev);
	if (ret)
		return ret;
	pci_set_master(pdev);

	nvec = hsagpu_rd(hdev, HSAGPU_REG_MSIX_VECTORS);
	nvec = pci_alloc_irq_vectors(pdev, 1, nvec, PCI_IRQ_MSIX);
	if (nvec < 0) {
		dev_err(dev, "cannot allocate MSI-X vectors: %d\n", nvec);
		return nvec;
	}
	hdev->msix_vectors = nvec;
	ret = devm_add_action_or_reset(dev, hsagpu_free_vectors, pdev);
	if (ret)
		return ret;
	ret = hsagpu_irq_setup(hdev);
	if (ret)
		return ret;

	hsagpu_debugfs_init(hdev);
	ret = devm_add_action_or_reset(dev, hsagpu_debugfs_action, hdev);
	if (ret)
		return ret;

	/* Clear stale errors, then have them interrupt on vector 0. */
	hsagpu_wr(hdev, HSAGPU_REG_ERROR_STATUS, HSAGPU_ERR_ALL);
	hsagpu_wr(hdev, HSAGPU_REG_ERROR_INT_ENABLE, HSAGPU_ERR_ALL);

	hsagpu_setup_atomics(hdev);

	ret = ida_alloc(&hsagpu_ida, GFP_KERNEL);
	if (ret < 0)
		return ret;
	hdev->id = ret;
	ret = devm_add_action_or_reset(dev, hsagpu_free_id, hdev);
	if (ret)
		return ret;

	snprintf(hdev->devname, sizeof(hdev->devname), "hsagpu%d", hdev->id);
	hdev->misc.minor = MISC_DYNAMIC_MINOR;
	hdev->misc.name = hdev->devname;
	hdev->misc.fops = &hsagpu_fops;
	hdev->misc.parent = dev;
	/*
	 * Root and the group a udev rule names (README): without per-process
	 * GPU page tables, whoever can submit packets can make the device
	 * read and write any memory it can reach.
	 */
	hdev->misc.mode = 0660;
	ret = misc_register(&hdev->misc);
	if (ret)
		return ret;
	hsagpu_peer_register(hdev);
	/* What AER recovery restores after a reset of the link. */
	hsagpu_keep_state(hdev);
	hsagpu_recover_init(hdev);
	/* Last: the KFD facade binds to a device ready for use. */
	ret = hsagpu_aux_add(hdev);
	if (ret)
		dev_warn(dev, "no auxiliary device for the KFD facade: %d\n", ret);

	dev_info(dev, "%s: %s, %llu MiB VRAM, %u queues, %u doorbells, %d MSI-X vectors, ABI %u.%u, %u-bit DMA%s\n",
		 hdev->devname, hdev->name, hdev->vram_size >> 20,
		 hdev->num_queues, hdev->doorbell_count, nvec,
		 hdev->abi_version >> 16, hdev->abi_version & 0xffff,
		 hdev->p2p_addr_bits, hdev->dma_iommu ? " (IOMMU)" : "");
	return 0;
}

static void hsagpu_remove(struct pci_dev *pdev)
{
	struct hsagpu_device *hdev = pci_get_drvdata(pdev);

	/* The KFD facade first: it stops offering the device. */
	hsagpu_aux_del(hdev);
	/* No new opens; misc_open() runs under the lock this takes. */
	misc_deregister(&hdev->misc);
	hsagpu_peer_unregister(hdev);
	hsagpu_recover_fini(hdev);

	/*
	 * Wait for BAR users to leave, take the BAR pages away from user
	 * space, stop every queue (DESTROY is synchronous: the device no
	 * longer touches their memory) and wake the waiters; they all see
	 * -ENODEV or SIGBUS from now on. The watchdog is stopped first: it
	 * must not reset a device on its way out.
	 *
	 * Every DMA mapping goes here too: after remove() the device may
	 * be deleted from its IOMMU, and the DMA API would then free or
	 * unmap IOVAs as if they were physical addresses. System memory
	 * stays with its users (hsagpu_sysbuf.c).
	 */
	down_write(&hdev->remove_sem);
	WRITE_ONCE(hdev->dead, true);
	/* Zapped before queue destruction wakes anybody. */
	hsagpu_files_zap(hdev);
	hsagpu_queue_shutdown(hdev);
	up_write(&hdev->remove_sem);
	hsagpu_peers_unmap(hdev);
	hsagpu_peers_revoke(hdev);
	hsagpu_sysbufs_unmap(hdev);
	hsagpu_event_wake_files(hdev);
	wake_up_all(&hdev->recover_wq);

	hsagpu_wr(hdev, HSAGPU_REG_ERROR_INT_ENABLE, 0);
	pci_clear_master(pdev);
}

static const struct pci_device_id hsagpu_ids[] = {
	{ PCI_DEVICE(HSAGPU_PCI_VENDOR_ID, HSAGPU_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, hsagpu_ids);

static struct pci_driver hsagpu_driver = {
	.name = HSAGPU_DRV_NAME,
	.id_table = hsagpu_ids,
	.probe = hsagpu_probe,
	.remove = hsagpu_remove,
	.dev_groups = hsagpu_groups,
	.err_handler = &hsagpu_err_handlers,
};

static int __init hsagpu_init(void)
{
	int ret;

	ret = hsagpu_userptr_init();
	if (ret)
		return ret;
	hsagpu_debugfs_register();
	ret = pci_register_driver(&hsagpu_driver);
	if (ret) {
		hsagpu_debugfs_unregister();
		hsagpu_userptr_exit();
	}
	return ret;
}
module_init(hsagpu_init);

static void __exit hsagpu_cleanup(void)
{
	pci_unregister_driver(&hsagpu_driver);
	hsagpu_debugfs_unregister();
	hsagpu_userptr_exit();
}
module_exit(hsagpu_cleanup);

MODULE_DESCRIPTION("Driver for the QEMU hsa-gpu accelerator model");
MODULE_LICENSE("GPL");
