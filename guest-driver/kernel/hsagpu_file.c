// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: /dev/hsagpuN file operations. Each open file is a context of
 * its own (allocations, queues, events, doorbell page); nothing of one
 * file is visible through another.
 *
 * Every ioctl argument starts with its size, which must equal the
 * structure's (or, for GET_INFO and ALLOC_MEM, the ABI 1.1 size of the
 * structure before it grew); reserved fields must be 0 and unknown flags
 * are refused (-EINVAL). Allocation handles and queue ids that the file
 * does not own are -ENOENT, event ids -EINVAL (they are only slot
 * numbers), mmap offsets -EINVAL, file descriptors that are not open
 * -EBADF. Once the device is removed everything but close() and munmap()
 * fails with -ENODEV.
 *
 * A file belongs to the process that opened it (as amdkfd's does): its
 * queues and memory name that process's allocations, so ioctls and mmap
 * from another address space (a child after fork()) are -EBADF.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "hsagpu.h"

/*
 * The opener's address space is going away (exit or kill), possibly while
 * a child still holds the file: stop the queues now, so that the device
 * does not keep running work nobody can see or stop.
 */
static void hsagpu_mm_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	hsagpu_queue_release(container_of(mn, struct hsagpu_file, mn));
}

static const struct mmu_notifier_ops hsagpu_mn_ops = {
	.release = hsagpu_mm_release,
};

static int hsagpu_open(struct inode *inode, struct file *file)
{
	struct hsagpu_device *hdev = container_of(file->private_data,
						  struct hsagpu_device, misc);
	struct hsagpu_file *hf;
	int ret;

	if (!current->mm)
		return -EINVAL;
	hf = kzalloc(sizeof(*hf), GFP_KERNEL);
	if (!hf)
		return -ENOMEM;
	mutex_init(&hf->lock);
	INIT_LIST_HEAD(&hf->mems);
	INIT_LIST_HEAD(&hf->queues);
	INIT_LIST_HEAD(&hf->peers);
	hf->doorbell_page = -1;
	ida_init(&hf->doorbell_slots);
	hsagpu_event_init(hf);
	hf->mapping = file->f_mapping;
	hf->hdev = hdev;

	/* Also keeps the mm_struct (not the address space) until release. */
	hf->mn.ops = &hsagpu_mn_ops;
	ret = mmu_notifier_register(&hf->mn, current->mm);
	if (ret) {
		kfree(hf);
		return ret;
	}
	hf->mm = current->mm;

	/* misc_open() holds off misc_deregister(): the device is alive. */
	kref_get(&hdev->ref);
	mutex_lock(&hdev->lock);
	list_add_tail(&hf->node, &hdev->files);
	mutex_unlock(&hdev->lock);

	file->private_data = hf;
	return 0;
}

/*
 * The file's mappings are all gone by now (each holds the file). Queues
 * go first so that the device stops touching the memory freed after them.
 */
static int hsagpu_release(struct inode *inode, struct file *file)
{
	struct hsagpu_file *hf = file->private_data;
	struct hsagpu_device *hdev = hf->hdev;

	/* Runs hsagpu_mm_release() unless the process already exited. */
	mmu_notifier_unregister(&hf->mn, hf->mm);
	hsagpu_queue_release(hf);
	hsagpu_event_release(hf);
	hsagpu_mem_release(hf);
	hsagpu_doorbell_release(hf);
	hsagpu_peer_release(hf);

	mutex_lock(&hdev->lock);
	list_del(&hf->node);
	mutex_unlock(&hdev->lock);

	ida_destroy(&hf->doorbell_slots);
	mutex_destroy(&hf->lock);
	kfree(hf);
	hsagpu_device_put(hdev);
	return 0;
}

/*
 * Device removal: take every BAR page (doorbells, VRAM) away from user
 * space. Later faults find the device dead and get SIGBUS; system memory
 * and event pages stay mapped until unmapped.
 */
void hsagpu_files_zap(struct hsagpu_device *hdev)
{
	struct hsagpu_file *hf;

	mutex_lock(&hdev->lock);
	list_for_each_entry(hf, &hdev->files, node) {
		unmap_mapping_range(hf->mapping,
				    hsagpu_mmap_offset(HSAGPU_MMAP_TYPE_DOORBELL, 0),
				    1LL << HSAGPU_MMAP_TYPE_SHIFT, 1);
		unmap_mapping_range(hf->mapping,
				    hsagpu_mmap_offset(HSAGPU_MMAP_TYPE_MEMORY,
						       HSAGPU_MMAP_INDEX_VRAM),
				    1LL << (HSAGPU_MMAP_TYPE_SHIFT - 1), 1);
	}
	mutex_unlock(&hdev->lock);
}

/* The ABI 1.1 structure ended before vram_bus_addr: give that much. */
#define HSAGPU_DEVICE_INFO_SIZE_1_1 \
	offsetof(struct hsagpu_device_info, vram_bus_addr)

static long hsagpu_ioctl_get_info(struct hsagpu_device *hdev,
				  void __user *uarg)
{
	struct hsagpu_device_info info;
	u32 size;

	if (get_user(size, (u32 __user *)uarg))
		return -EFAULT;
	if (size != sizeof(info) && size != HSAGPU_DEVICE_INFO_SIZE_1_1)
		return -EINVAL;

	memset(&info, 0, sizeof(info));
	info.size = size;
	info.abi_version = hdev->abi_version;
	info.vendor_id = hdev->pdev->vendor;
	info.device_id = hdev->pdev->device;
	info.caps = hdev->caps;
	info.vram_size = hdev->vram_size;
	info.doorbell_count = hdev->doorbell_count;
	info.doorbell_stride = hdev->doorbell_stride;
	info.num_queues = hdev->num_queues;
	info.msix_vectors = hdev->msix_vectors;
	info.atomics = (hdev->atomics_errno ? 0 : HSAGPU_ATOMICS_ROUTED) |
		       (hdev->atomic_requester ? HSAGPU_ATOMICS_REQUESTER : 0) |
		       (hdev->atomics128_errno ? 0 : HSAGPU_ATOMICS_128);
	info.atomics_errno = hdev->atomics_errno;
	info.pci_domain = pci_domain_nr(hdev->pdev->bus);
	info.pci_bus = hdev->pdev->bus->number;
	info.pci_devfn = hdev->pdev->devfn;
	memcpy(info.name, hdev->name, sizeof(info.name));
	info.vram_bus_addr = hdev->vram_bus;
	info.p2p_addr_bits = hdev->p2p_addr_bits;
	info.p2p_status = hdev->p2p_status;
	info.dma_flags = hdev->dma_iommu ? HSAGPU_DMA_INFO_IOMMU : 0;

	if (copy_to_user(uarg, &info, size))
		return -EFAULT;
	return 0;
}

static long hsagpu_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct hsagpu_file *hf = file->private_data;
	void __user *uarg = (void __user *)arg;

	if (current->mm != hf->mm)
		return -EBADF;
	if (READ_ONCE(hf->hdev->dead))
		return -ENODEV;

	switch (cmd) {
	case HSAGPU_IOC_GET_INFO:
		return hsagpu_ioctl_get_info(hf->hdev, uarg);
	case HSAGPU_IOC_ALLOC_MEM:
		return hsagpu_ioctl_alloc_mem(hf, uarg);
	case HSAGPU_IOC_FREE_MEM:
		return hsagpu_ioctl_free_mem(hf, uarg);
	case HSAGPU_IOC_MEM_SEGMENTS:
		return hsagpu_ioctl_mem_segments(hf, uarg);
	case HSAGPU_IOC_PEER_ACCESS:
		return hsagpu_ioctl_peer_access(hf, uarg);
	case HSAGPU_IOC_CREATE_QUEUE:
		return hsagpu_ioctl_create_queue(hf, uarg);
	case HSAGPU_IOC_DESTROY_QUEUE:
	case HSAGPU_IOC_SUSPEND_QUEUE:
	case HSAGPU_IOC_RESUME_QUEUE:
		return hsagpu_ioctl_queue_cmd(hf, cmd, uarg);
	case HSAGPU_IOC_QUEUE_STATUS:
		return hsagpu_ioctl_queue_status(hf, uarg);
	case HSAGPU_IOC_CREATE_EVENT:
		return hsagpu_ioctl_create_event(hf, uarg);
	case HSAGPU_IOC_DESTROY_EVENT:
		return hsagpu_ioctl_destroy_event(hf, uarg);
	case HSAGPU_IOC_WAIT_EVENTS:
		return hsagpu_ioctl_wait_events(hf, uarg,
				sizeof(struct hsagpu_wait_events));
	case HSAGPU_IOC_WAIT_EVENTS_1_2:
		return hsagpu_ioctl_wait_events(hf, uarg,
				sizeof(struct hsagpu_wait_events_1_2));
	case HSAGPU_IOC_SET_EVENT:
		return hsagpu_ioctl_set_event(hf, uarg);
	default:
		return -ENOTTY;
	}
}

/*
 * The offset selects what is mapped (see hsagpu_uapi.h); the length must
 * be exactly that object's. Unknown types and offsets the file does not
 * own are -EINVAL.
 */
static int hsagpu_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct hsagpu_file *hf = file->private_data;
	u64 type = vma->vm_pgoff >> HSAGPU_MMAP_INDEX_BITS;
	u64 index = vma->vm_pgoff & HSAGPU_MMAP_INDEX_MASK;

	if (vma->vm_mm != hf->mm)
		return -EBADF;
	if (READ_ONCE(hf->hdev->dead))
		return -ENODEV;

	/* Device memory must not be duplicated into children. */
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);

	switch (type) {
	case HSAGPU_MMAP_TYPE_DOORBELL:
		return hsagpu_doorbell_mmap(hf, vma, index);
	case HSAGPU_MMAP_TYPE_MEMORY:
		return hsagpu_mem_mmap(hf, vma, index);
	case HSAGPU_MMAP_TYPE_EVENTS:
		return hsagpu_event_mmap(hf, vma, index);
	default:
		return -EINVAL;
	}
}

const struct file_operations hsagpu_fops = {
	.owner = THIS_MODULE,
	.open = hsagpu_open,
	.release = hsagpu_release,
	.unlocked_ioctl = hsagpu_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = hsagpu_mmap,
	.llseek = noop_llseek,
};
