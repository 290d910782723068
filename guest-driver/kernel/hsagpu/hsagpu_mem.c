// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: memory for the device. SYSTEM allocations up to
 * HSAGPU_MEM_SYSTEM_CONTIG_MAX are physically contiguous (one segment);
 * larger ones, up to HSAGPU_MEM_SYSTEM_MAX, are chunks of pages (high
 * orders first, down to 64 KiB): one segment per device-contiguous run
 * of the DMA mapping (an IOMMU usually makes it one). Both are driver
 * pages mapped with the DMA API while the device is bound
 * (hsagpu_sysbuf.c), so that they outlive the device for their users.
 * VRAM allocations are carved out of BAR0 with a page-granular gen_pool
 * and mapped write-combined.
 *
 * An allocation is reference counted: its handle holds one reference and
 * every mapping another, so FREE_MEM on a still mapped allocation only
 * drops the handle and the memory goes when the last mapping does.
 *
 * System memory is charged to the allocating task's memory cgroup
 * (__GFP_ACCOUNT; over the cgroup's limit ALLOC_MEM fails with -ENOMEM
 * rather than invoking its OOM killer), and counted against per-file and
 * per-device limits (module parameters below; -EDQUOT beyond them) until
 * it is really freed, i.e. also while only a mapping holds it.
 */
#include <linux/dma-mapping.h>
#include <linux/genalloc.h>
#include <linux/io.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "hsagpu.h"

/* gen_pool returns 0 for failure: offset 0 of BAR0 must not be 0. */
#define HSAGPU_VRAM_POOL_BASE   PAGE_SIZE
/* VRAM is cleared in chunks, rescheduling in between. */
#define HSAGPU_VRAM_CLEAR_CHUNK (1UL << 20)
static unsigned int file_alloc_limit = 65536;
module_param(file_alloc_limit, uint, 0644);
MODULE_PARM_DESC(file_alloc_limit,
		 "Live allocations (SYSTEM and VRAM) per open file; more fail with EDQUOT (default 65536)");

static unsigned int file_sysmem_limit_mb;
module_param(file_sysmem_limit_mb, uint, 0644);
MODULE_PARM_DESC(file_sysmem_limit_mb,
		 "SYSTEM memory per open file in MiB; more fails with EDQUOT (0, the default: half of RAM)");

static unsigned int sysmem_limit_mb;
module_param(sysmem_limit_mb, uint, 0644);
MODULE_PARM_DESC(sysmem_limit_mb,
		 "SYSTEM memory per device in MiB, all files together; more fails with EDQUOT (0, the default: three quarters of RAM)");

/* The ABI 1.1 structure ended before nsegs, 1.2 before vram_offset. */
static_assert(HSAGPU_ALLOC_MEM_SIZE_1_1 ==
	      offsetof(struct hsagpu_alloc_mem, nsegs));
static_assert(HSAGPU_ALLOC_MEM_SIZE_1_2 ==
	      offsetof(struct hsagpu_alloc_mem, vram_offset));

int hsagpu_vram_init(struct hsagpu_device *hdev)
{
	struct pci_dev *pdev = hdev->pdev;
	int nid = dev_to_node(&pdev->dev);

	hdev->vram_phys = pci_resource_start(pdev, HSAGPU_BAR_VRAM);
	hdev->vram_bus = pci_bus_address(pdev, HSAGPU_BAR_VRAM);
	hdev->vram_pool = gen_pool_create(PAGE_SHIFT, nid);
	if (!hdev->vram_pool)
		return -ENOMEM;
	return gen_pool_add(hdev->vram_pool, HSAGPU_VRAM_POOL_BASE,
			    hdev->vram_size, nid);
}

static void hsagpu_mem_free_backing(struct hsagpu_device *hdev,
				    struct hsagpu_mem *mem)
{
	if (mem->flags & HSAGPU_MEM_USERPTR) {
		hsagpu_userptr_free(mem);
		return;
	}
	/* the VRAM is the sharer's: it goes with the last of them */
	if (mem->shared) {
		hsagpu_mem_put(mem->shared);
		return;
	}
	if (mem->segs != &mem->seg0)
		kvfree(mem->segs);
	if (mem->flags & HSAGPU_MEM_SYSTEM)
		hsagpu_sysbuf_free(hdev, &mem->sys);
	else
		gen_pool_free(hdev->vram_pool,
			      mem->vram_offset + HSAGPU_VRAM_POOL_BASE,
			      mem->size);
}

/* A limit in MiB, or @num/@den of RAM when it is 0. */
static u64 hsagpu_limit_bytes(unsigned int mb, u32 num, u32 den)
{
	if (mb)
		return (u64)mb << 20;
	return div_u64(((u64)totalram_pages() << PAGE_SHIFT) * num, den);
}

/* Registered memory counts as system memory (it is the process's). */
#define HSAGPU_MEM_SYSLIKE      (HSAGPU_MEM_SYSTEM | HSAGPU_MEM_USERPTR)

void hsagpu_mem_uncharge(struct hsagpu_mem *mem)
{
	struct hsagpu_file *hf = mem->owner;

	if (mem->flags & HSAGPU_MEM_SYSLIKE) {
		atomic64_sub(mem->size, &hf->sysmem_bytes);
		atomic64_sub(mem->size, &mem->hdev->sysmem_bytes);
	} else {
		atomic_dec(&hf->nvram);
	}
	atomic_dec(&hf->nallocs);
}

/*
 * Count @mem against its file's and its device's limits, or -EDQUOT.
 * The owner file outlives its allocations: mappings hold the file.
 */
int hsagpu_mem_charge(struct hsagpu_mem *mem)
{
	struct hsagpu_file *hf = mem->owner;
	struct hsagpu_device *hdev = mem->hdev;
	bool sys = mem->flags & HSAGPU_MEM_SYSLIKE;
	bool over;

	over = atomic_inc_return(&hf->nallocs) >
	       READ_ONCE(file_alloc_limit);
	if (!sys)
		atomic_inc(&hf->nvram);
	if (sys) {
		over |= atomic64_add_return(mem->size, &hf->sysmem_bytes) >
			hsagpu_limit_bytes(READ_ONCE(file_sysmem_limit_mb),
					   1, 2);
		over |= atomic64_add_return(mem->size, &hdev->sysmem_bytes) >
			hsagpu_limit_bytes(READ_ONCE(sysmem_limit_mb), 3, 4);
	}
	if (over) {
		hsagpu_mem_uncharge(mem);
		return -EDQUOT;
	}
	return 0;
}

static void hsagpu_mem_free(struct kref *ref)
{
	struct hsagpu_mem *mem = container_of(ref, struct hsagpu_mem, ref);
	struct hsagpu_device *hdev = mem->hdev;

	hsagpu_mem_free_backing(hdev, mem);
	hsagpu_mem_uncharge(mem);
	hsagpu_file_put(mem->owner);
	kfree(mem);
	hsagpu_device_put(hdev);
}

void hsagpu_mem_put(struct hsagpu_mem *mem)
{
	kref_put(&mem->ref, hsagpu_mem_free);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_mem_put, HSAGPU);

u64 hsagpu_mem_mmap_offset(struct hsagpu_mem *mem)
{
	return mem->mmap_offset;
}
EXPORT_SYMBOL_NS_GPL(hsagpu_mem_mmap_offset, HSAGPU);

/* SYSTEM memory is driver pages, mappable for the whole of its life. */
void *hsagpu_mem_vmap(struct hsagpu_mem *mem, size_t *size)
{
	void *vaddr;

	if (!(mem->flags & HSAGPU_MEM_SYSTEM) || !mem->sys.pages)
		return NULL;
	vaddr = vmap(mem->sys.pages, mem->sys.npages, VM_MAP, PAGE_KERNEL);
	if (!vaddr)
		return NULL;
	kref_get(&mem->ref);
	*size = mem->size;
	return vaddr;
}
EXPORT_SYMBOL_NS_GPL(hsagpu_mem_vmap, HSAGPU);

void hsagpu_mem_vunmap(struct hsagpu_mem *mem, void *vaddr)
{
	vunmap(vaddr);
	hsagpu_mem_put(mem);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_mem_vunmap, HSAGPU);

u64 hsagpu_device_vram_avail(struct hsagpu_device *hdev)
{
	return gen_pool_avail(hdev->vram_pool);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_device_vram_avail, HSAGPU);

/* The previous user's data must not leak: clear VRAM before handing out. */
static void hsagpu_vram_clear(struct hsagpu_device *hdev,
			      unsigned long offset, size_t size)
{
	while (size) {
		size_t n = min_t(size_t, size, HSAGPU_VRAM_CLEAR_CHUNK);

		memset_io(hdev->vram + offset, 0, n);
		offset += n;
		size -= n;
		cond_resched();
	}
	wmb();  /* flush write-combining before the device sees the memory */
}

/* Segments: the DMA-mapped scatterlist with contiguous entries merged. */
static int hsagpu_mem_segments_build(struct hsagpu_mem *mem)
{
	struct sg_table *sgt = &mem->sys.sgt;
	struct scatterlist *sg;
	u64 end = 0, total = 0;
	unsigned int i, n = 0;

	if (sgt->nents == 1)
		mem->segs = &mem->seg0;
	else
		mem->segs = kvmalloc_array(sgt->nents, sizeof(*mem->segs),
					   HSAGPU_GFP_ACCOUNT);
	if (!mem->segs)
		return -ENOMEM;
	for_each_sgtable_dma_sg(sgt, sg, i) {
		u64 addr = sg_dma_address(sg);
		u64 len = sg_dma_len(sg);

		if (n && addr == end) {
			mem->segs[n - 1].bytes += len;
		} else {
			mem->segs[n].bus_addr = addr;
			mem->segs[n].bytes = len;
			n++;
		}
		end = addr + len;
		total += len;
	}
	if (!n || total != mem->size)
		return -EIO;
	mem->nsegs = n;
	return 0;
}

/*
 * Caller is inside hsagpu_enter(): the DMA API is only used on a bound
 * device.
 */
static int hsagpu_mem_alloc_backing_live(struct hsagpu_device *hdev,
					 struct hsagpu_mem *mem)
{
	unsigned long addr;
	int ret;

	mem->nsegs = 1;
	mem->segs = &mem->seg0;
	if (mem->flags & HSAGPU_MEM_SYSTEM) {
		ret = hsagpu_sysbuf_alloc(hdev, &mem->sys, mem->size,
					  mem->size <= HSAGPU_MEM_SYSTEM_CONTIG_MAX);
		if (ret)
			return ret;
		ret = hsagpu_mem_segments_build(mem);
		if (ret) {
			if (mem->segs != &mem->seg0)
				kvfree(mem->segs);
			mem->segs = &mem->seg0;
			hsagpu_sysbuf_free(hdev, &mem->sys);
			return ret;
		}
		mem->bus_addr = mem->segs[0].bus_addr;
		return 0;
	}

	addr = gen_pool_alloc(hdev->vram_pool, mem->size);
	if (!addr)
		return -ENOMEM;
	mem->vram_offset = addr - HSAGPU_VRAM_POOL_BASE;
	mem->bus_addr = hdev->vram_bus + mem->vram_offset;
	mem->seg0.bus_addr = mem->bus_addr;
	mem->seg0.bytes = mem->size;
	hsagpu_vram_clear(hdev, mem->vram_offset, mem->size);
	return 0;
}

static int hsagpu_mem_alloc_backing(struct hsagpu_device *hdev,
				    struct hsagpu_mem *mem)
{
	int ret = hsagpu_enter(hdev);

	if (ret)
		return ret;
	ret = hsagpu_mem_alloc_backing_live(hdev, mem);
	hsagpu_exit(hdev);
	return ret;
}

/* The file's allocation with @handle, or NULL. Caller holds hf->lock. */
static struct hsagpu_mem *hsagpu_mem_lookup(struct hsagpu_file *hf,
					    u64 handle)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_mem *mem = NULL;

	lockdep_assert_held(&hf->lock);
	if (!handle || handle >= HSAGPU_MMAP_INDEX_VRAM)
		return NULL;
	mutex_lock(&hdev->lock);
	mem = idr_find(&hdev->mem_idr, handle);
	if (mem && mem->owner != hf)
		mem = NULL;
	mutex_unlock(&hdev->lock);
	return mem;
}

/* Drop the handle; the caller puts the handle's reference. */
static void hsagpu_mem_unlink(struct hsagpu_file *hf, struct hsagpu_mem *mem)
{
	struct hsagpu_device *hdev = hf->hdev;

	lockdep_assert_held(&hf->lock);
	mutex_lock(&hdev->lock);
	idr_remove(&hdev->mem_idr, mem->handle);
	mutex_unlock(&hdev->lock);
	list_del_init(&mem->node);
}

/*
 * Give @mem a handle and list it in @hf (which then holds the initial
 * reference). Caller holds hf->lock.
 */
int hsagpu_mem_publish(struct hsagpu_file *hf, struct hsagpu_mem *mem)
{
	struct hsagpu_device *hdev = hf->hdev;
	int ret;

	lockdep_assert_held(&hf->lock);
	mutex_lock(&hdev->lock);
	/* Cyclic ids: a stale handle rarely names a newer allocation. */
	ret = idr_alloc_cyclic(&hdev->mem_idr, mem, 1, HSAGPU_MMAP_INDEX_VRAM,
			       GFP_KERNEL);
	mutex_unlock(&hdev->lock);
	if (ret < 0)
		return ret;
	mem->handle = ret;
	if (!(mem->flags & HSAGPU_MEM_USERPTR))
		mem->mmap_offset = hsagpu_mmap_offset(HSAGPU_MMAP_TYPE_MEMORY,
			mem->handle | (mem->flags & HSAGPU_MEM_VRAM ?
				       HSAGPU_MMAP_INDEX_VRAM : 0));
	list_add_tail(&mem->node, &hf->mems);
	return 0;
}

/*
 * For in-kernel users (the KFD facade): publish @mem under hf->lock and
 * return it with a reference of the caller's own; on failure @mem is
 * dropped.
 */
struct hsagpu_mem *hsagpu_mem_publish_get(struct hsagpu_file *hf,
					  struct hsagpu_mem *mem)
{
	int ret;

	mutex_lock(&hf->lock);
	ret = hsagpu_mem_publish(hf, mem);
	if (!ret)
		kref_get(&mem->ref);
	mutex_unlock(&hf->lock);
	if (ret) {
		hsagpu_mem_put(mem);
		return ERR_PTR(ret);
	}
	return mem;
}

/*
 * -EINVAL: bad size field, non-zero reserved, flags other than exactly
 * one of SYSTEM/VRAM, or bytes == 0. -E2BIG: SYSTEM above
 * HSAGPU_MEM_SYSTEM_MAX (the limit of the interface), or above
 * HSAGPU_MEM_SYSTEM_CONTIG_MAX with the ABI 1.1 structure (its callers
 * know nothing of segments). The ABI 1.2 structure (no vram_offset) is
 * zero-extended like any older one. -EDQUOT: beyond the file's or the device's
 * allocation limits. -ENOMEM: not available, including more VRAM than
 * the device has and more than the caller's memory cgroup allows.
 * -EINTR: killed while allocating.
 */
long hsagpu_ioctl_alloc_mem(struct hsagpu_file *hf, void *data)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_alloc_mem *args = data;
	struct hsagpu_mem *mem;
	u64 limit;
	int ret;

	if (args->reserved)
		return -EINVAL;
	if (args->flags != HSAGPU_MEM_SYSTEM && args->flags != HSAGPU_MEM_VRAM)
		return -EINVAL;
	if (!args->bytes)
		return -EINVAL;
	/* The dispatcher checked size: at 1.1's, a caller without segments. */
	limit = args->size > HSAGPU_ALLOC_MEM_SIZE_1_1 ? HSAGPU_MEM_SYSTEM_MAX :
		HSAGPU_MEM_SYSTEM_CONTIG_MAX;
	if (args->flags == HSAGPU_MEM_SYSTEM && args->bytes > limit)
		return -E2BIG;
	if (args->flags == HSAGPU_MEM_VRAM && args->bytes > hdev->vram_size)
		return -ENOMEM;

	mem = kzalloc(sizeof(*mem), HSAGPU_GFP_ACCOUNT);
	if (!mem)
		return -ENOMEM;
	kref_init(&mem->ref);
	mem->hdev = hdev;
	mem->owner = hf;
	mem->flags = args->flags;
	mem->size = PAGE_ALIGN(args->bytes);
	ret = hsagpu_mem_charge(mem);
	if (ret) {
		kfree(mem);
		return ret;
	}
	ret = hsagpu_mem_alloc_backing(hdev, mem);
	if (ret) {
		hsagpu_mem_uncharge(mem);
		kfree(mem);
		return ret == -ENOMEM && fatal_signal_pending(current) ?
		       -EINTR : ret;
	}
	kref_get(&hdev->ref);
	hsagpu_file_get(hf);

	mutex_lock(&hf->lock);
	ret = hsagpu_mem_publish(hf, mem);
	mutex_unlock(&hf->lock);
	if (ret < 0) {
		hsagpu_mem_put(mem);
		return ret;
	}

	args->handle = mem->handle;
	args->mmap_offset = mem->mmap_offset;
	/* GPUVM: the allocation's address is where it gets mmap()ed. */
	args->bus_addr = hf->vm ? 0 : mem->bus_addr;
	args->nsegs = mem->nsegs;
	/* What a peer adds to PEER_ACCESS's vram_addr (ABI 1.3). */
	args->vram_offset = mem->flags & HSAGPU_MEM_VRAM ? mem->vram_offset : 0;
	return 0;
}

/* The result could not be copied out: nobody learnt the handle. */
void hsagpu_ioctl_alloc_mem_undo(struct hsagpu_file *hf, void *data)
{
	hsagpu_mem_undo_handle(hf, ((struct hsagpu_alloc_mem *)data)->handle);
}

void hsagpu_mem_undo_handle(struct hsagpu_file *hf, u64 handle)
{
	struct hsagpu_mem *mem;

	mutex_lock(&hf->lock);
	mem = hsagpu_mem_lookup(hf, handle);
	if (mem)
		hsagpu_mem_unlink(hf, mem);
	mutex_unlock(&hf->lock);
	if (mem)
		hsagpu_mem_put(mem);
}

/* -ENOENT: not a live handle of this file; -EBUSY: a queue uses it. */
long hsagpu_ioctl_free_mem(struct hsagpu_file *hf, void *data)
{
	struct hsagpu_free_mem *args = data;
	struct hsagpu_mem *mem;
	int ret = 0;

	if (args->reserved)
		return -EINVAL;

	mutex_lock(&hf->lock);
	mem = hsagpu_mem_lookup(hf, args->handle);
	if (!mem)
		ret = -ENOENT;
	else if (mem->queue_users)
		ret = -EBUSY;
	else
		hsagpu_mem_unlink(hf, mem);
	mutex_unlock(&hf->lock);
	if (!ret)
		hsagpu_mem_put(mem);
	return ret;
}

/*
 * Copy an allocation's segments out. -ENOENT: not a live handle of this
 * file; -EINVAL: reserved, or first >= nsegs; count is clamped to the
 * segments from first on.
 */
long hsagpu_ioctl_mem_segments(struct hsagpu_file *hf, void *data)
{
	struct hsagpu_mem_segments *args = data;
	struct hsagpu_mem *mem;
	long ret = 0;
	u32 n;

	if (args->reserved)
		return -EINVAL;
	/* Bus addresses are never shown with GPU virtual memory. */
	if (hf->vm)
		return -EOPNOTSUPP;

	/* The segments never change: copy them out without the lock. */
	mutex_lock(&hf->lock);
	mem = hsagpu_mem_lookup(hf, args->handle);
	if (mem)
		kref_get(&mem->ref);
	mutex_unlock(&hf->lock);
	if (!mem)
		return -ENOENT;

	if (args->first >= mem->nsegs) {
		ret = -EINVAL;
		goto out;
	}
	n = min(args->count, mem->nsegs - args->first);
	if (copy_to_user(u64_to_user_ptr(args->segs_ptr),
			 mem->segs + args->first, (size_t)n * sizeof(*mem->segs)))
		ret = -EFAULT;
	else
		args->count = n;
out:
	hsagpu_mem_put(mem);
	return ret;
}

/*
 * The system allocation of @hf with a segment that holds
 * [addr, addr + len), or NULL. Caller holds hf->lock.
 */
struct hsagpu_mem *hsagpu_mem_find_system(struct hsagpu_file *hf, u64 addr,
					  u64 len)
{
	const struct hsagpu_mem_segment *seg;
	struct hsagpu_mem *mem;
	u32 i;

	lockdep_assert_held(&hf->lock);
	list_for_each_entry(mem, &hf->mems, node) {
		if (!(mem->flags & HSAGPU_MEM_SYSTEM))
			continue;
		for (i = 0; i < mem->nsegs; i++) {
			seg = &mem->segs[i];
			if (addr >= seg->bus_addr && len <= seg->bytes &&
			    addr - seg->bus_addr <= seg->bytes - len)
				return mem;
		}
	}
	return NULL;
}

/*
 * The kernel address of bus address @addr inside SYSTEM allocation
 * @mem, or NULL. Segments are in the order of the pages.
 */
void *hsagpu_mem_kaddr(struct hsagpu_mem *mem, u64 addr)
{
	const struct hsagpu_mem_segment *seg;
	u64 off = 0;
	u32 i;

	for (i = 0; i < mem->nsegs; i++) {
		seg = &mem->segs[i];
		if (addr >= seg->bus_addr && addr - seg->bus_addr < seg->bytes) {
			off += addr - seg->bus_addr;
			return page_address(mem->sys.pages[off >> PAGE_SHIFT]) +
			       offset_in_page(off);
		}
		off += seg->bytes;
	}
	return NULL;
}

/* close(): drop every handle; mappings are gone already. */
void hsagpu_mem_release(struct hsagpu_file *hf)
{
	struct hsagpu_mem *mem, *tmp;

	mutex_lock(&hf->lock);
	list_for_each_entry_safe(mem, tmp, &hf->mems, node) {
		hsagpu_mem_unlink(hf, mem);
		hsagpu_mem_put(mem);
	}
	mutex_unlock(&hf->lock);
}

/* Mappings hold the allocation; a split vma holds it twice. */
static void hsagpu_mem_vm_open(struct vm_area_struct *vma)
{
	struct hsagpu_mem *mem = vma->vm_private_data;

	kref_get(&mem->ref);
}

static void hsagpu_mem_vm_close(struct vm_area_struct *vma)
{
	hsagpu_mem_put(vma->vm_private_data);
}

/*
 * BAR pages are inserted at fault time, under the removal lock: a mapping
 * can then never outlive the device, whatever the order of mmap() and
 * remove().
 */
static vm_fault_t hsagpu_vram_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct hsagpu_mem *mem = vma->vm_private_data;
	struct hsagpu_device *hdev = mem->hdev;
	unsigned long page = vmf->pgoff - (mem->mmap_offset >> PAGE_SHIFT);
	vm_fault_t ret = VM_FAULT_SIGBUS;

	if (page >= mem->size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	down_read(&hdev->remove_sem);
	if (!hdev->dead && !READ_ONCE(mem->owner->lost))
		ret = vmf_insert_pfn(vma, vmf->address,
				     PHYS_PFN(hdev->vram_phys +
					      mem->vram_offset) + page);
	up_read(&hdev->remove_sem);
	return ret;
}

/*
 * ptrace() and /proc/PID/mem (a debugger reading a hipMalloc() pointer):
 * get_user_pages() takes no page of a VM_PFNMAP mapping, so the core asks
 * the mapping. Through the kernel's mapping of BAR0, bounded by the
 * allocation, under the removal lock as a fault; as amdgpu's
 * ttm_bo_vm_access(). A forced write (ptrace) needs a writable mapping:
 * there is no private copy of VRAM to write instead.
 */
static int hsagpu_vram_access(struct vm_area_struct *vma, unsigned long addr,
			      void *buf, int len, int write)
{
	struct hsagpu_mem *mem = vma->vm_private_data;
	struct hsagpu_device *hdev = mem->hdev;
	u64 off = addr - vma->vm_start +
		  ((u64)vma->vm_pgoff << PAGE_SHIFT) - mem->mmap_offset;
	void __iomem *p;
	int ret = -EIO;

	if (len <= 0 || addr < vma->vm_start || addr >= vma->vm_end ||
	    off >= mem->size)
		return -EIO;
	if (write ? !(vma->vm_flags & VM_WRITE) :
		    !(vma->vm_flags & (VM_READ | VM_MAYREAD)))
		return -EIO;
	len = min3((u64)len, mem->size - off, (u64)(vma->vm_end - addr));
	down_read(&hdev->remove_sem);
	if (!hdev->dead && !READ_ONCE(mem->owner->lost)) {
		p = hdev->vram + mem->vram_offset + off;
		if (write) {
			memcpy_toio(p, buf, len);
			wmb();  /* out of the write-combining buffers */
		} else {
			memcpy_fromio(buf, p, len);
		}
		ret = len;
	}
	up_read(&hdev->remove_sem);
	return ret;
}

static const struct vm_operations_struct hsagpu_vram_vm_ops = {
	.open = hsagpu_mem_vm_open,
	.close = hsagpu_mem_vm_close,
	.fault = hsagpu_vram_fault,
	.access = hsagpu_vram_access,
};

/*
 * System memory is made of ordinary (split) pages: each user page table
 * entry holds its page, with or without the device.
 */
static vm_fault_t hsagpu_sysmem_fault(struct vm_fault *vmf)
{
	struct hsagpu_mem *mem = vmf->vma->vm_private_data;

	return hsagpu_sysbuf_fault(&mem->sys, vmf->pgoff -
				   (mem->mmap_offset >> PAGE_SHIFT), vmf);
}

static const struct vm_operations_struct hsagpu_sysmem_vm_ops = {
	.open = hsagpu_mem_vm_open,
	.close = hsagpu_mem_vm_close,
	.fault = hsagpu_sysmem_fault,
};

/*
 * GPUVM: the mapping that put the allocation in the GPU space takes it
 * out before it lets go of the memory. Another vma (mremap()'s copy,
 * which the refusal below unmaps again) only holds a reference.
 */
static void hsagpu_mem_vm_close_gpu(struct vm_area_struct *vma)
{
	struct hsagpu_mem *mem = vma->vm_private_data;
	struct hsagpu_file *hf = mem->owner;

	mutex_lock(&hf->lock);
	if (mem->vma == vma) {
		hsagpu_vm_unmap(hf->vm, &mem->map);
		mem->vma = NULL;
	}
	mutex_unlock(&hf->lock);
	hsagpu_mem_put(mem);
}

/* GPU address == CPU address: the mapping cannot be split or moved. */
static int hsagpu_mem_may_split(struct vm_area_struct *vma,
				unsigned long addr)
{
	return -EINVAL;
}

static int hsagpu_mem_mremap(struct vm_area_struct *vma)
{
	return -EINVAL;
}

static const struct vm_operations_struct hsagpu_vram_gpu_vm_ops = {
	.open = hsagpu_mem_vm_open,
	.close = hsagpu_mem_vm_close_gpu,
	.may_split = hsagpu_mem_may_split,
	.mremap = hsagpu_mem_mremap,
	.fault = hsagpu_vram_fault,
	.access = hsagpu_vram_access,
};

static const struct vm_operations_struct hsagpu_sysmem_gpu_vm_ops = {
	.open = hsagpu_mem_vm_open,
	.close = hsagpu_mem_vm_close_gpu,
	.may_split = hsagpu_mem_may_split,
	.mremap = hsagpu_mem_mremap,
	.fault = hsagpu_sysmem_fault,
};

/*
 * GPUVM: map @mem in the file's GPU space at the CPU address of @vma,
 * with the vma's permissions. Caller holds hf->lock.
 */
/*
 * Map an allocation's own pages (system chunks or VRAM) at @va in the
 * file's GPU space. Caller holds hf->lock.
 */
static int hsagpu_mem_vm_map(struct hsagpu_file *hf, struct hsagpu_mem *mem,
			     u64 va, u64 perms)
{
	struct hsagpu_vm_src src = { };
	int ret;

	if (mem->flags & HSAGPU_MEM_SYSTEM) {
		src.sgt = &mem->sys.sgt;
		src.flags = HSAGPU_PTE_SYSTEM | HSAGPU_PTE_SNOOPED;
	} else {
		src.addr = mem->vram_offset;
	}
	mem->map.kind = HSAGPU_VM_MAP_MEM;
	ret = hsagpu_enter(hf->hdev);
	if (ret)
		return ret;
	ret = hsagpu_vm_map(hf->vm, &mem->map, va, mem->size, perms, &src);
	hsagpu_exit(hf->hdev);
	return ret;
}

static int hsagpu_mem_mmap_gpu(struct hsagpu_file *hf, struct hsagpu_mem *mem,
			       struct vm_area_struct *vma)
{
	u64 perms = HSAGPU_PTE_READABLE;
	int ret;

	if (mem->vma)
		return -EBUSY;
	if (vma->vm_end > HSAGPU_VM_APERTURE_BASE)
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		perms |= HSAGPU_PTE_WRITEABLE;
	if (vma->vm_flags & VM_EXEC)
		perms |= HSAGPU_PTE_EXECUTABLE;
	ret = hsagpu_mem_vm_map(hf, mem, vma->vm_start, perms);
	if (!ret)
		mem->vma = vma;
	return ret;
}

/*
 * No private writable (copy-on-write) mappings: a private copy would be
 * invisible to the device.
 */
int hsagpu_mem_mmap(struct hsagpu_file *hf, struct vm_area_struct *vma,
		    u64 index)
{
	struct hsagpu_mem *mem;
	bool gpu;
	int ret = 0;

	if (is_cow_mapping(vma->vm_flags))
		return -EINVAL;

	mutex_lock(&hf->lock);
	mem = hsagpu_mem_lookup(hf, index & ~HSAGPU_MMAP_INDEX_VRAM);
	if (!mem || mem->mmap_offset >> PAGE_SHIFT != vma->vm_pgoff) {
		ret = -EINVAL;
		goto out;
	}
	gpu = hf->vm && !hf->kfd;
	if (gpu && mem->vma) {
		ret = -EBUSY;
		goto out;
	}
	if (vma->vm_end - vma->vm_start != mem->size) {
		ret = -EINVAL;
		goto out;
	}
	if (gpu) {
		ret = hsagpu_mem_mmap_gpu(hf, mem, vma);
		if (ret)
			goto out;
	}

	if (mem->flags & HSAGPU_MEM_VRAM) {
		vm_flags_set(vma, VM_IO | VM_PFNMAP);
		vma->vm_page_prot = pgprot_writecombine(vma->vm_page_prot);
		vma->vm_ops = gpu ? &hsagpu_vram_gpu_vm_ops :
				    &hsagpu_vram_vm_ops;
	} else {
		vma->vm_ops = gpu ? &hsagpu_sysmem_gpu_vm_ops :
				    &hsagpu_sysmem_vm_ops;
	}
	vma->vm_private_data = mem;
	kref_get(&mem->ref);
out:
	mutex_unlock(&hf->lock);
	return ret;
}

/*
 * KFD entry points (hsagpu_amdgpu.ko). A KFD allocation is an ordinary
 * allocation of the context with a handle; the facade holds an extra
 * reference, maps it into the GPU space at the VA it was given
 * (hsagpu_mem_gpu_map()) and mmap()s it for the CPU through its render
 * node (hsagpu_mem_mmap_cpu()).
 */

/*
 * What the dispatcher of /dev/hsagpuN checks before any ioctl, for the
 * KFD entry points that make or map something (cleanup always works).
 */
int hsagpu_file_usable(struct hsagpu_file *hf)
{
	if (READ_ONCE(hf->hdev->dead))
		return -ENODEV;
	if (READ_ONCE(hf->lost))
		return -EIO;
	return 0;
}

/* @hf's allocation @handle with a reference, or NULL. */
struct hsagpu_mem *hsagpu_mem_get_handle(struct hsagpu_file *hf, u64 handle)
{
	struct hsagpu_mem *mem;

	mutex_lock(&hf->lock);
	mem = hsagpu_mem_lookup(hf, handle);
	if (mem)
		kref_get(&mem->ref);
	mutex_unlock(&hf->lock);
	return mem;
}
EXPORT_SYMBOL_NS_GPL(hsagpu_mem_get_handle, HSAGPU);

/*
 * SYSTEM or VRAM memory for @hf, as ALLOC_MEM makes it (same limits and
 * errors); the caller gets a reference besides the handle's.
 */
struct hsagpu_mem *hsagpu_mem_alloc(struct hsagpu_file *hf, u32 flags,
				    u64 bytes)
{
	struct hsagpu_alloc_mem args = {
		.size = sizeof(args),
		.flags = flags,
		.bytes = bytes,
	};
	struct hsagpu_mem *mem;
	long ret;

	ret = hsagpu_file_usable(hf);
	if (!ret)
		ret = hsagpu_ioctl_alloc_mem(hf, &args);
	if (ret)
		return ERR_PTR(ret);
	mem = hsagpu_mem_get_handle(hf, args.handle);
	return mem ?: ERR_PTR(-ENOENT);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_mem_alloc, HSAGPU);

/* Drop the handle (FREE_MEM): -EBUSY while a queue uses the memory. */
int hsagpu_mem_free_handle(struct hsagpu_file *hf, struct hsagpu_mem *mem)
{
	struct hsagpu_free_mem args = {
		.size = sizeof(args),
		.handle = mem->handle,
	};

	return hsagpu_ioctl_free_mem(hf, &args);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_mem_free_handle, HSAGPU);

/*
 * Map @mem into @hf's GPU space at @va with @perms (HSAGPU_PTE_*
 * access bits). Registered memory is pinned now (and unpinned by
 * hsagpu_mem_gpu_unmap()). Already mapped: 0 at the same VA, -EBUSY
 * elsewhere. Errors as hsagpu_vm_map(), and those of pinning.
 */
int hsagpu_mem_gpu_map(struct hsagpu_file *hf, struct hsagpu_mem *mem,
		       u64 va, u64 perms)
{
	int ret;

	if (!hf->vm || mem->owner != hf)
		return -EINVAL;
	ret = hsagpu_file_usable(hf);
	if (ret)
		return ret;
	if (mem->flags & HSAGPU_MEM_USERPTR) {
		/*
		 * Out of the space after an invalidation but still pinned:
		 * mapping again replaces the pins, which a queue's read and
		 * write pointers may point into.
		 */
		mutex_lock(&hf->lock);
		ret = mem->queue_users && !mem->map.mapped ? -EBUSY : 0;
		mutex_unlock(&hf->lock);
		return ret ?: hsagpu_userptr_gpu_map(hf, mem, va);
	}
	mutex_lock(&hf->lock);
	if (mem->map.mapped)
		ret = mem->map.it.start == va ? 0 : -EBUSY;
	else
		ret = hsagpu_mem_vm_map(hf, mem, va, perms);
	mutex_unlock(&hf->lock);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(hsagpu_mem_gpu_map, HSAGPU);

/*
 * Out of the GPU space (invalidated and acknowledged); -EINVAL: not in;
 * -EBUSY while a queue's ring or pointers are in it (as amdkfd since
 * Linux 6.10): the queue holds kernel pointers into its pages.
 */
int hsagpu_mem_gpu_unmap(struct hsagpu_file *hf, struct hsagpu_mem *mem)
{
	int ret = 0;

	if (!hf->vm || mem->owner != hf)
		return -EINVAL;
	mutex_lock(&hf->lock);
	if (mem->queue_users)
		ret = -EBUSY;
	else if (mem->flags & HSAGPU_MEM_USERPTR)
		ret = hsagpu_userptr_gpu_unmap(hf, mem);
	else if (mem->map.mapped)
		hsagpu_vm_unmap(hf->vm, &mem->map);
	else
		ret = -EINVAL;
	mutex_unlock(&hf->lock);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(hsagpu_mem_gpu_unmap, HSAGPU);

/*
 * KFD: a CPU mapping of the allocation at the vma's offset, for the CPU
 * alone. A PROT_NONE private mapping (libhsakmt reserves VRAM it does
 * not map for the host that way) is made a shared one that can never
 * become writable, as amdgpu does.
 */
int hsagpu_mem_mmap_cpu(struct hsagpu_file *hf, struct vm_area_struct *vma)
{
	u64 index = vma->vm_pgoff & HSAGPU_MMAP_INDEX_MASK;

	if (vma->vm_pgoff >> HSAGPU_MMAP_INDEX_BITS != HSAGPU_MMAP_TYPE_MEMORY)
		return -EINVAL;
	if (READ_ONCE(hf->hdev->dead))
		return -ENODEV;
	if (READ_ONCE(hf->lost))
		return -EIO;
	if (is_cow_mapping(vma->vm_flags) &&
	    !(vma->vm_flags & (VM_READ | VM_WRITE | VM_EXEC)))
		vm_flags_clear(vma, VM_MAYWRITE);
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	return hsagpu_mem_mmap(hf, vma, index);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_mem_mmap_cpu, HSAGPU);

/*
 * KFD: the pages of SYSTEM allocation @src as an allocation of @hf, a
 * context on another device (a GTT buffer mapped to several devices):
 * DMA-mapped for that device, with a handle there; the caller gets a
 * reference besides the handle's. Each side holds its own page
 * references, so either may go first.
 */
struct hsagpu_mem *hsagpu_mem_alias(struct hsagpu_file *hf,
				    struct hsagpu_mem *src)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_mem *mem;
	unsigned long i;
	int ret;

	if (!(src->flags & HSAGPU_MEM_SYSTEM) || !src->sys.pages)
		return ERR_PTR(-EINVAL);
	ret = hsagpu_file_usable(hf);
	if (ret)
		return ERR_PTR(ret);
	mem = kzalloc(sizeof(*mem), HSAGPU_GFP_ACCOUNT);
	if (!mem)
		return ERR_PTR(-ENOMEM);
	kref_init(&mem->ref);
	INIT_LIST_HEAD(&mem->node);
	mem->hdev = hdev;
	mem->owner = hf;
	mem->flags = HSAGPU_MEM_SYSTEM;
	mem->size = src->size;
	ret = hsagpu_mem_charge(mem);
	if (ret)
		goto out_free;
	mem->sys.npages = src->sys.npages;
	mem->sys.pages = kvmalloc_array(mem->sys.npages, sizeof(*mem->sys.pages),
					HSAGPU_GFP_ACCOUNT);
	if (!mem->sys.pages) {
		ret = -ENOMEM;
		goto out_uncharge;
	}
	for (i = 0; i < mem->sys.npages; i++) {
		mem->sys.pages[i] = src->sys.pages[i];
		get_page(mem->sys.pages[i]);
	}
	ret = hsagpu_enter(hdev);
	if (ret)
		goto out_pages;
	ret = hsagpu_sysbuf_map(hdev, &mem->sys);
	if (ret) {
		hsagpu_exit(hdev);
		goto out_pages;
	}
	ret = hsagpu_mem_segments_build(mem);
	if (ret) {
		if (mem->segs && mem->segs != &mem->seg0)
			kvfree(mem->segs);
		hsagpu_sysbuf_free(hdev, &mem->sys);
		hsagpu_exit(hdev);
		goto out_uncharge;
	}
	hsagpu_exit(hdev);
	mem->bus_addr = mem->segs[0].bus_addr;
	kref_get(&hdev->ref);
	hsagpu_file_get(hf);

	return hsagpu_mem_publish_get(hf, mem);

out_pages:
	for (i = 0; i < mem->sys.npages; i++)
		put_page(mem->sys.pages[i]);
	kvfree(mem->sys.pages);
out_uncharge:
	hsagpu_mem_uncharge(mem);
out_free:
	kfree(mem);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_mem_alias, HSAGPU);

/*
 * KFD IPC: allocation @src of another context on the same device, as an
 * allocation of @hf (its handle, mmap offset, GPU mappings, limits): VRAM
 * by reference to the same range, which stays allocated until both are
 * gone; SYSTEM pages as hsagpu_mem_alias() shares them. Registered user
 * memory belongs to its process alone: -EINVAL. The caller gets a
 * reference besides the handle's.
 */
struct hsagpu_mem *hsagpu_mem_share(struct hsagpu_file *hf,
				    struct hsagpu_mem *src)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_mem *mem;
	int ret;

	if (src->hdev != hdev)
		return ERR_PTR(-EINVAL);
	if (src->flags & HSAGPU_MEM_SYSTEM)
		return hsagpu_mem_alias(hf, src);
	if (!(src->flags & HSAGPU_MEM_VRAM))
		return ERR_PTR(-EINVAL);
	ret = hsagpu_file_usable(hf);
	if (ret)
		return ERR_PTR(ret);
	mem = kzalloc(sizeof(*mem), HSAGPU_GFP_ACCOUNT);
	if (!mem)
		return ERR_PTR(-ENOMEM);
	kref_init(&mem->ref);
	INIT_LIST_HEAD(&mem->node);
	mem->hdev = hdev;
	mem->owner = hf;
	mem->flags = HSAGPU_MEM_VRAM;
	mem->size = src->size;
	ret = hsagpu_mem_charge(mem);
	if (ret) {
		kfree(mem);
		return ERR_PTR(ret);
	}
	/* a share of a share is a share of the allocation */
	while (src->shared)
		src = src->shared;
	kref_get(&src->ref);
	mem->shared = src;
	mem->vram_offset = src->vram_offset;
	mem->bus_addr = src->bus_addr;
	mem->nsegs = 1;
	mem->segs = &mem->seg0;
	mem->seg0 = src->seg0;
	kref_get(&hdev->ref);
	hsagpu_file_get(hf);
	return hsagpu_mem_publish_get(hf, mem);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_mem_share, HSAGPU);

/* Another reference to @mem (the caller holds one). */
void hsagpu_mem_get(struct hsagpu_mem *mem)
{
	kref_get(&mem->ref);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_mem_get, HSAGPU);
