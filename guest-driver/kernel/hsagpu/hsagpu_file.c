// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: /dev/hsagpuN file operations. Each open file is a context of
 * its own (allocations, queues, events, doorbell page); nothing of one
 * file is visible through another.
 *
 * ioctls go through one table-driven dispatcher (hsagpu_ioctl(), which
 * states the structure-size rule: older, smaller structures are
 * zero-extended); reserved fields must be 0 and unknown flags are
 * refused (-EINVAL). Allocation handles and queue ids that the file
 * does not own are -ENOENT, event ids -EINVAL (they are only slot
 * numbers), mmap offsets -EINVAL, file descriptors that are not open
 * -EBADF. Once the device is removed everything but close() and munmap()
 * fails with -ENODEV; once recovery took the file's queues and VRAM
 * (hsagpu_recover.c), with -EIO.
 *
 * A file belongs to the process that opened it (as amdkfd's does): its
 * queues and memory name that process's allocations (with GPU virtual
 * memory, its CPU addresses), so ioctls and mmap from another address
 * space (a child after fork()) are -EBADF, -EACCES with GPU virtual
 * memory. close() works from any process.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/nospec.h>
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

/*
 * A context of @hdev for the calling process: what open() of /dev/hsagpuN
 * makes, and what the KFD facade makes per device a process uses (@kfd:
 * GPU mappings only through hsagpu_mem_gpu_map(), mmap() maps for the
 * CPU alone; always with a GPU address space). @mapping: the address
 * space whose BAR pages removal zaps (hsagpu_file_zap()). A device
 * removed meanwhile: -ENODEV.
 */
struct hsagpu_file *hsagpu_file_create(struct hsagpu_device *hdev,
				       struct address_space *mapping, bool kfd)
{
	struct hsagpu_file *hf;
	int ret;

	if (!current->mm)
		return ERR_PTR(-EINVAL);
	if (READ_ONCE(hdev->dead))
		return ERR_PTR(-ENODEV);
	hf = kzalloc(sizeof(*hf), GFP_KERNEL);
	if (!hf)
		return ERR_PTR(-ENOMEM);
	kref_init(&hf->ref);
	mutex_init(&hf->lock);
	INIT_LIST_HEAD(&hf->mems);
	INIT_LIST_HEAD(&hf->queues);
	INIT_LIST_HEAD(&hf->peers);
	hf->doorbell_page = -1;
	ida_init(&hf->doorbell_slots);
	hsagpu_event_init(hf);
	hf->mapping = mapping;
	hf->hdev = hdev;
	hf->kfd = kfd;
	hf->pid = task_tgid_nr(current);
	ret = hsagpu_vm_file_init(hf);
	if (!ret && kfd && !hf->vm)
		ret = -EOPNOTSUPP;
	if (ret)
		goto out_free;

	/* Also keeps the mm_struct (not the address space) until release. */
	hf->mn.ops = &hsagpu_mn_ops;
	ret = mmu_notifier_register(&hf->mn, current->mm);
	if (ret)
		goto out_free;
	hf->mm = current->mm;

	kref_get(&hdev->ref);
	mutex_lock(&hdev->lock);
	list_add_tail(&hf->node, &hdev->files);
	mutex_unlock(&hdev->lock);
	return hf;

out_free:
	hsagpu_vm_file_fini(hf);
	kfree(hf);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_file_create, HSAGPU);

static int hsagpu_open(struct inode *inode, struct file *file)
{
	struct hsagpu_device *hdev = container_of(file->private_data,
						  struct hsagpu_device, misc);
	struct hsagpu_file *hf;

	/* misc_open() holds off misc_deregister(): the device is alive. */
	hf = hsagpu_file_create(hdev, file->f_mapping, false);
	if (IS_ERR(hf))
		return PTR_ERR(hf);
	file->private_data = hf;
	return 0;
}

static void hsagpu_file_free(struct kref *ref)
{
	struct hsagpu_file *hf = container_of(ref, struct hsagpu_file, ref);
	struct hsagpu_device *hdev = hf->hdev;

	mutex_destroy(&hf->lock);
	kfree(hf);
	hsagpu_device_put(hdev);
}

/* Every allocation holds its owner: it may outlive the teardown. */
void hsagpu_file_get(struct hsagpu_file *hf)
{
	kref_get(&hf->ref);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_file_get, HSAGPU);

/* Set at creation, pinned by the context's MMU notifier. */
struct mm_struct *hsagpu_file_mm(struct hsagpu_file *hf)
{
	return hf->mm;
}
EXPORT_SYMBOL_NS_GPL(hsagpu_file_mm, HSAGPU);

void hsagpu_file_put(struct hsagpu_file *hf)
{
	kref_put(&hf->ref, hsagpu_file_free);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_file_put, HSAGPU);

/* Set once, under hdev->lock, before the context's waiters are woken. */
bool hsagpu_file_lost(struct hsagpu_file *hf)
{
	return READ_ONCE(hf->lost);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_file_lost, HSAGPU);

/*
 * Tear a context down: queues first, so that the device stops touching
 * the memory freed after them, then events, allocation handles,
 * doorbells, peers and the GPU address space. With /dev/hsagpuN every
 * mapping is gone by now (each holds the file); a KFD context's CPU
 * mappings (through the render node) hold their allocations, which hold
 * the structure but not its GPU space: the facade took every allocation
 * out of the GPU space before.
 */
void hsagpu_file_destroy(struct hsagpu_file *hf)
{
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
	/* Every GPU mapping is gone: the tables go. */
	hsagpu_vm_file_fini(hf);

	ida_destroy(&hf->doorbell_slots);
	hsagpu_file_put(hf);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_file_destroy, HSAGPU);

static int hsagpu_release(struct inode *inode, struct file *file)
{
	hsagpu_file_destroy(file->private_data);
	return 0;
}

/*
 * Device removal (every file) or recovery (a file that loses its device
 * state), under hdev->lock: take the BAR pages (doorbells, VRAM) away
 * from user space.
 * Later faults find the device dead or the file lost and get SIGBUS;
 * system memory and event pages stay mapped until unmapped.
 */
void hsagpu_file_zap(struct hsagpu_file *hf)
{
	lockdep_assert_held(&hf->hdev->lock);
	/* KFD: the doorbell slice mmap()ed through /dev/kfd */
	if (hf->slice_mapping)
		unmap_mapping_pages(hf->slice_mapping, hf->slice_pgoff,
				    hf->slice_pages, true);
	unmap_mapping_range(hf->mapping,
			    hsagpu_mmap_offset(HSAGPU_MMAP_TYPE_DOORBELL, 0),
			    1LL << HSAGPU_MMAP_TYPE_SHIFT, 1);
	unmap_mapping_range(hf->mapping,
			    hsagpu_mmap_offset(HSAGPU_MMAP_TYPE_MEMORY,
					       HSAGPU_MMAP_INDEX_VRAM),
			    1LL << (HSAGPU_MMAP_TYPE_SHIFT - 1), 1);
	/* cached read alias */
	unmap_mapping_range(hf->mapping,
			    hsagpu_mmap_offset(HSAGPU_MMAP_TYPE_CACHED, 0),
			    1LL << HSAGPU_MMAP_TYPE_SHIFT, 1);
}

void hsagpu_files_zap(struct hsagpu_device *hdev)
{
	struct hsagpu_file *hf;

	mutex_lock(&hdev->lock);
	list_for_each_entry(hf, &hdev->files, node)
		hsagpu_file_zap(hf);
	mutex_unlock(&hdev->lock);
}

static long hsagpu_ioctl_get_info(struct hsagpu_file *hf, void *data)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_device_info *info = data;

	info->abi_version = hdev->abi_version;
	info->vendor_id = hdev->pdev->vendor;
	info->device_id = hdev->pdev->device;
	info->caps = hdev->caps;
	info->vram_size = hdev->vram_size;
	info->doorbell_count = hdev->doorbell_count;
	info->doorbell_stride = hdev->doorbell_stride;
	info->num_queues = hdev->num_queues;
	info->msix_vectors = hdev->msix_vectors;
	info->atomics = (hdev->atomics_errno ? 0 : HSAGPU_ATOMICS_ROUTED) |
			(hdev->atomic_requester ? HSAGPU_ATOMICS_REQUESTER : 0) |
			(hdev->atomics128_errno ? 0 : HSAGPU_ATOMICS_128);
	info->atomics_errno = hdev->atomics_errno;
	info->pci_domain = pci_domain_nr(hdev->pdev->bus);
	info->pci_bus = hdev->pdev->bus->number;
	info->pci_devfn = hdev->pdev->devfn;
	info->reserved0 = 0;
	memcpy(info->name, hdev->name, sizeof(info->name));
	info->vram_bus_addr = hdev->vram_bus;
	info->p2p_addr_bits = hdev->p2p_addr_bits;
	info->p2p_status = hdev->p2p_status;
	info->dma_flags = hdev->dma_iommu ? HSAGPU_DMA_INFO_IOMMU : 0;
	info->vm_flags = (hdev->caps & HSAGPU_CAP_VM ?
			  HSAGPU_VM_INFO_CAPABLE : 0) |
			 (hf->vm ? HSAGPU_VM_INFO_ENABLED : 0);
	return 0;
}

/*
 * The ioctl table, indexed by _IOC_NR as amdkfd's amdkfd_ioctls[].
 *
 * @cmd is the command of the current header; its _IOC_SIZE is the size
 * the handler works on. @min_size is the smallest structure a released
 * header ever had for this number (a binary built against it encodes
 * that size in its command). @undo, if set, takes back what a successful
 * handler created when its result cannot be copied out: nobody learnt
 * the new handle, id or queue.
 */
struct hsagpu_ioctl_desc {
	unsigned int cmd;
	u32 min_size;
	u32 flags;
	long (*func)(struct hsagpu_file *hf, void *data);
	void (*undo)(struct hsagpu_file *hf, void *data);
};

/* Copy the structure back on errors too (WAIT_EVENTS: .signaled). */
#define HSAGPU_IOCTL_OUT_ALWAYS         BIT(0)
/*
 * ABI 1.2 drivers took this (current) command with the older layout's
 * size in .size and then acted for an older caller: still do.
 */
#define HSAGPU_IOCTL_OLD_SIZE_FIELD     BIT(1)

#define HSAGPU_IOCTL_DEF(_cmd, _func, _undo, _min, _flags)		\
	[_IOC_NR(_cmd)] = {						\
		.cmd = _cmd,						\
		.min_size = (_min) ? (_min) : _IOC_SIZE(_cmd),		\
		.flags = _flags,					\
		.func = _func,						\
		.undo = _undo,						\
	}

static const struct hsagpu_ioctl_desc hsagpu_ioctls[] = {
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_GET_INFO, hsagpu_ioctl_get_info, NULL,
			 HSAGPU_DEVICE_INFO_SIZE_1_1,
			 HSAGPU_IOCTL_OLD_SIZE_FIELD),
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_ALLOC_MEM, hsagpu_ioctl_alloc_mem,
			 hsagpu_ioctl_alloc_mem_undo,
			 HSAGPU_ALLOC_MEM_SIZE_1_1, HSAGPU_IOCTL_OLD_SIZE_FIELD),
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_FREE_MEM, hsagpu_ioctl_free_mem, NULL,
			 0, 0),
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_CREATE_QUEUE, hsagpu_ioctl_create_queue,
			 hsagpu_ioctl_create_queue_undo, 0, 0),
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_DESTROY_QUEUE, hsagpu_ioctl_destroy_queue,
			 NULL, 0, 0),
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_QUEUE_STATUS, hsagpu_ioctl_queue_status,
			 NULL, HSAGPU_QUEUE_STATUS_SIZE_1_2, 0),
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_SUSPEND_QUEUE, hsagpu_ioctl_suspend_queue,
			 NULL, 0, 0),
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_RESUME_QUEUE, hsagpu_ioctl_resume_queue,
			 NULL, 0, 0),
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_CREATE_EVENT, hsagpu_ioctl_create_event,
			 hsagpu_ioctl_create_event_undo, 0, 0),
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_DESTROY_EVENT, hsagpu_ioctl_destroy_event,
			 NULL, 0, 0),
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_WAIT_EVENTS, hsagpu_ioctl_wait_events,
			 NULL, HSAGPU_WAIT_EVENTS_SIZE_1_2,
			 HSAGPU_IOCTL_OUT_ALWAYS),
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_MEM_SEGMENTS, hsagpu_ioctl_mem_segments,
			 NULL, 0, 0),
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_PEER_ACCESS, hsagpu_ioctl_peer_access,
			 NULL, 0, 0),
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_SET_EVENT, hsagpu_ioctl_set_event, NULL,
			 0, 0),
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_REGISTER_MEM, hsagpu_ioctl_register_mem,
			 hsagpu_ioctl_register_mem_undo, 0, 0),
	/* cached read alias */
	HSAGPU_IOCTL_DEF(HSAGPU_IOC_VRAM_DIRTY, hsagpu_ioctl_vram_dirty, NULL,
			 0, 0),
};

/* Every argument fits the dispatcher's buffer and starts with its size. */
#define HSAGPU_IOCTL_ARG_MAX    128
#define HSAGPU_IOCTL_ARG_CHECK(type)					\
	static_assert(sizeof(type) <= HSAGPU_IOCTL_ARG_MAX &&		\
		      offsetof(type, size) == 0)
HSAGPU_IOCTL_ARG_CHECK(struct hsagpu_device_info);
HSAGPU_IOCTL_ARG_CHECK(struct hsagpu_vram_dirty);
HSAGPU_IOCTL_ARG_CHECK(struct hsagpu_alloc_mem);
HSAGPU_IOCTL_ARG_CHECK(struct hsagpu_free_mem);
HSAGPU_IOCTL_ARG_CHECK(struct hsagpu_mem_segments);
HSAGPU_IOCTL_ARG_CHECK(struct hsagpu_peer_access);
HSAGPU_IOCTL_ARG_CHECK(struct hsagpu_create_queue);
HSAGPU_IOCTL_ARG_CHECK(struct hsagpu_queue_id);
HSAGPU_IOCTL_ARG_CHECK(struct hsagpu_queue_status);
HSAGPU_IOCTL_ARG_CHECK(struct hsagpu_create_event);
HSAGPU_IOCTL_ARG_CHECK(struct hsagpu_event_id);
HSAGPU_IOCTL_ARG_CHECK(struct hsagpu_wait_events);
HSAGPU_IOCTL_ARG_CHECK(struct hsagpu_register_mem);
/* The ABI 1.2 structure ended before the fault fields. */
static_assert(HSAGPU_QUEUE_STATUS_SIZE_1_2 ==
	      offsetof(struct hsagpu_queue_status, fault_addr));

/*
 * The one place where arguments cross the user boundary (handlers still
 * copy the arrays their structure points to).
 *
 * The size encoded in the command is the caller's structure size (usize):
 *  - a known number with another type or direction: -ENOTTY;
 *  - usize below the first released layout: -EINVAL;
 *  - smaller than the current structure (an older binary): zero-extended,
 *    so every newer field reads as 0 / "not asked for";
 *  - larger (a newer binary): accepted if every byte the driver does not
 *    know is 0, else -E2BIG, as copy_struct_from_user() does;
 *  - the structure's own size field must equal usize (-EINVAL), so a
 *    handler that must behave differently for older callers reads it;
 *    GET_INFO and ALLOC_MEM also take the current command with the ABI
 *    1.1 size in the field, as ABI 1.2 drivers did: that caller is
 *    treated exactly as an ABI 1.1 binary (usize = the field).
 * Results are copied back once, min(usize, ksize) bytes: an old binary
 * gets exactly its old layout, nothing is written past it.
 */
static long hsagpu_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct hsagpu_file *hf = file->private_data;
	void __user *uarg = (void __user *)arg;
	const struct hsagpu_ioctl_desc *ioctl;
	u8 kdata[HSAGPU_IOCTL_ARG_MAX] __aligned(8);
	unsigned int nr = _IOC_NR(cmd);
	u32 usize = _IOC_SIZE(cmd), ksize, size;
	long ret;

	if (_IOC_TYPE(cmd) != HSAGPU_IOCTL_BASE ||
	    nr >= ARRAY_SIZE(hsagpu_ioctls) || !hsagpu_ioctls[nr].func)
		return -ENOTTY;
	ioctl = &hsagpu_ioctls[array_index_nospec(nr,
						  ARRAY_SIZE(hsagpu_ioctls))];
	if (_IOC_DIR(cmd) != _IOC_DIR(ioctl->cmd))
		return -ENOTTY;

	/*
	 * A file belongs to the process that opened it (as in amdkfd);
	 * with GPUVM its GPU addresses are that process's CPU addresses.
	 */
	if (current->mm != hf->mm)
		return hf->vm ? -EACCES : -EBADF;
	if (READ_ONCE(hf->hdev->dead))
		return -ENODEV;
	if (READ_ONCE(hf->lost))
		return -EIO;

	ksize = _IOC_SIZE(ioctl->cmd);
	if (usize < ioctl->min_size)
		return -EINVAL;
	/* Every hsagpu command passes a structure in (_IOW or _IOWR). */
	ret = copy_struct_from_user(kdata, ksize, uarg, usize);
	if (ret)
		return ret;
	size = *(u32 *)kdata;
	if (size != usize) {
		if (!(ioctl->flags & HSAGPU_IOCTL_OLD_SIZE_FIELD) ||
		    size != ioctl->min_size || size >= min(usize, ksize))
			return -EINVAL;
		memset(kdata + size, 0, ksize - size);
		usize = size;
	}

	ret = ioctl->func(hf, kdata);

	if ((_IOC_DIR(cmd) & _IOC_READ) &&
	    (!ret || ioctl->flags & HSAGPU_IOCTL_OUT_ALWAYS) &&
	    copy_to_user(uarg, kdata, min(usize, ksize))) {
		if (!ret && ioctl->undo)
			ioctl->undo(hf, kdata);
		ret = -EFAULT;
	}
	return ret;
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
		return hf->vm ? -EACCES : -EBADF;
	if (READ_ONCE(hf->hdev->dead))
		return -ENODEV;
	if (READ_ONCE(hf->lost))
		return -EIO;

	/* Device memory must not be duplicated into children. */
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);

	switch (type) {
	case HSAGPU_MMAP_TYPE_DOORBELL:
		return hsagpu_doorbell_mmap(hf, vma, index);
	case HSAGPU_MMAP_TYPE_MEMORY:
		return hsagpu_mem_mmap(hf, vma, index);
	case HSAGPU_MMAP_TYPE_EVENTS:
		return hsagpu_event_mmap(hf, vma, index);
	case HSAGPU_MMAP_TYPE_CACHED:
		return hsagpu_ralias_mmap(hf, vma, index);
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
