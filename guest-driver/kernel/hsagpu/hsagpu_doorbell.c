// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: doorbells. BAR2 is cut into pages; a file gets one page (on its
 * first queue or doorbell mapping) and its queues use doorbells inside
 * it, so a process can only ring its own queues.
 */
#include <linux/idr.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "hsagpu.h"

int hsagpu_doorbell_init(struct hsagpu_device *hdev)
{
	struct pci_dev *pdev = hdev->pdev;
	u64 len = pci_resource_len(pdev, HSAGPU_BAR_DOORBELL);

	if (!hdev->doorbell_stride || PAGE_SIZE % hdev->doorbell_stride ||
	    len < PAGE_SIZE) {
		dev_err(&pdev->dev, "unusable doorbell layout (stride %u, BAR2 %llu bytes)\n",
			hdev->doorbell_stride, len);
		return -ENODEV;
	}
	hdev->doorbell_phys = pci_resource_start(pdev, HSAGPU_BAR_DOORBELL);
	hdev->doorbell_pages = len >> PAGE_SHIFT;
	hdev->doorbells_per_page = PAGE_SIZE / hdev->doorbell_stride;
	return 0;
}

/* The file's doorbell page, allocated on first use. Caller holds hf->lock. */
int hsagpu_doorbell_page_get(struct hsagpu_file *hf)
{
	struct hsagpu_device *hdev = hf->hdev;
	int page;

	lockdep_assert_held(&hf->lock);
	if (hf->doorbell_page >= 0)
		return hf->doorbell_page;
	page = ida_alloc_max(&hdev->doorbell_page_ida,
			     hdev->doorbell_pages - 1, GFP_KERNEL);
	if (page < 0)
		return page;
	hf->doorbell_page = page;
	return page;
}

void hsagpu_doorbell_release(struct hsagpu_file *hf)
{
	struct address_space *slice;

	mutex_lock(&hf->hdev->lock);
	slice = hf->slice_mapping;
	hf->slice_mapping = NULL;
	mutex_unlock(&hf->hdev->lock);
	if (slice)
		iput(slice->host);
	if (hf->doorbell_page >= 0)
		ida_free(&hf->hdev->doorbell_page_ida, hf->doorbell_page);
	hf->doorbell_page = -1;
}

/* Inserted at fault time, like VRAM: see hsagpu_vram_fault(). */
static vm_fault_t hsagpu_doorbell_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct hsagpu_file *hf = vma->vm_private_data;
	struct hsagpu_device *hdev = hf->hdev;
	vm_fault_t ret = VM_FAULT_SIGBUS;

	/* A KFD slice is larger: only its first page has doorbells. */
	if (vmf->pgoff != vma->vm_pgoff)
		return VM_FAULT_SIGBUS;
	down_read(&hdev->remove_sem);
	if (!hdev->dead && !READ_ONCE(hf->lost))
		ret = vmf_insert_pfn(vma, vmf->address,
				     PHYS_PFN(hdev->doorbell_phys) +
				     hf->doorbell_page);
	up_read(&hdev->remove_sem);
	return ret;
}

static const struct vm_operations_struct hsagpu_doorbell_vm_ops = {
	.fault = hsagpu_doorbell_fault,
};

/* Exactly the one page at index 0, uncached, not copy-on-write. */
int hsagpu_doorbell_mmap(struct hsagpu_file *hf, struct vm_area_struct *vma,
			 u64 index)
{
	int ret;

	if (index || vma->vm_end - vma->vm_start != PAGE_SIZE ||
	    is_cow_mapping(vma->vm_flags))
		return -EINVAL;

	mutex_lock(&hf->lock);
	ret = hsagpu_doorbell_page_get(hf);
	mutex_unlock(&hf->lock);
	if (ret < 0)
		return ret;

	vm_flags_set(vma, VM_IO | VM_PFNMAP);
	vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
	vma->vm_ops = &hsagpu_doorbell_vm_ops;
	vma->vm_private_data = hf;
	return 0;
}

/*
 * KFD (exported): the process's doorbell slice of this device, mapped
 * through /dev/kfd at the offset CREATE_QUEUE returned. The slice is
 * larger than one page (8 KiB: amdkfd's 1024 doorbells of 8 bytes); its
 * first page is the context's doorbell page, where all its queues'
 * doorbells are, and touching the rest is SIGBUS.
 */
int hsagpu_doorbell_mmap_slice(struct hsagpu_file *hf,
			       struct vm_area_struct *vma)
{
	int ret;

	if (is_cow_mapping(vma->vm_flags))
		return -EINVAL;
	mutex_lock(&hf->lock);
	ret = hsagpu_doorbell_page_get(hf);
	/* hsagpu_file_zap() runs under hdev->lock */
	mutex_lock(&hf->hdev->lock);
	if (ret >= 0 && !hf->slice_mapping) {
		ihold(vma->vm_file->f_mapping->host);
		hf->slice_mapping = vma->vm_file->f_mapping;
		hf->slice_pgoff = vma->vm_pgoff;
		hf->slice_pages = vma_pages(vma);
	}
	mutex_unlock(&hf->hdev->lock);
	mutex_unlock(&hf->lock);
	if (ret < 0)
		return ret;

	vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTCOPY | VM_DONTEXPAND |
		     VM_DONTDUMP | VM_NORESERVE);
	vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
	vma->vm_ops = &hsagpu_doorbell_vm_ops;
	vma->vm_private_data = hf;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(hsagpu_doorbell_mmap_slice, HSAGPU);
