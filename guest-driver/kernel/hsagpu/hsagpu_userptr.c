// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: registered user memory (REGISTER_MEM), GPUVM only. The pages
 * under a range of the opener's address space are pinned
 * (FOLL_LONGTERM), DMA-mapped and mapped in the file's GPU space at
 * their own CPU addresses. An MMU interval notifier watches the range:
 * when the process gives the pages up (munmap, mremap, MADV_DONTNEED,
 * page migration, exit...) the whole registration leaves the GPU space
 * (entries cleared, TLB invalidated and acknowledged) before the
 * notifier returns, i.e. before the kernel can free or reuse anything;
 * at exit the file's queues stop first.
 * Later device accesses to the range take a VM fault. The pins go at
 * FREE_MEM or close(), after the device lost the translations.
 *
 * Changes that leave the pages where they are do not unmap: fork()'s
 * write protection of the parent (the pinned pages stay the parent's:
 * the kernel copies them for the child), mprotect(), NUMA hinting and
 * soft-dirty tracking (MMU_NOTIFY_PROTECTION_VMA, _PROTECTION_PAGE,
 * _SOFT_DIRTY, on 6.1 and 6.12 alike). Reclaim or THP collapse may
 * still try (and fail) to unmap a pinned page: that also takes the
 * registration out of the GPU space, which is safe; the process
 * registers again.
 *
 * A registration is an allocation (struct hsagpu_mem, HSAGPU_MEM_USERPTR)
 * with a handle: it counts against the file's limits like SYSTEM memory.
 * The pages are already charged to the process's memory cgroup.
 */
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "hsagpu.h"

/* An invalidation between pinning and mapping: try again that often. */
#define HSAGPU_USERPTR_TRIES    8

static bool hsagpu_userptr_invalidate(struct mmu_interval_notifier *mni,
				      const struct mmu_notifier_range *range,
				      unsigned long cur_seq)
{
	struct hsagpu_mem *mem = container_of(mni, struct hsagpu_mem,
					      notifier);
	struct hsagpu_vm *vm = mem->owner->vm;
	LIST_HEAD(freed);

	switch (range->event) {
	case MMU_NOTIFY_PROTECTION_VMA:
	case MMU_NOTIFY_PROTECTION_PAGE:
	case MMU_NOTIFY_SOFT_DIRTY:
		return true;
	default:
		break;
	}
	if (!mmu_notifier_range_blockable(range))
		return false;
	/*
	 * The address space is going away, and the interval notifiers hear
	 * it before the file's own release notifier (mn_itree_release()
	 * runs first): stop the file's queues now, or a dispatch still
	 * reading the range would fault once it is unmapped. amdkfd, too,
	 * stops a process's queues before its userptrs go.
	 */
	if (range->event == MMU_NOTIFY_RELEASE)
		hsagpu_queue_release(mem->owner);

	mutex_lock(&vm->lock);
	mmu_interval_set_seq(mni, cur_seq);
	if (mem->map.mapped) {
		hsagpu_vm_unmap_locked(vm, &mem->map, &freed);
		atomic_inc(&mem->hdev->userptr_invalidations);
	}
	mutex_unlock(&vm->lock);
	hsagpu_vm_free_tables(vm, &freed);
	return true;
}

static const struct mmu_interval_notifier_ops hsagpu_userptr_mn_ops = {
	.invalidate = hsagpu_userptr_invalidate,
};

static void hsagpu_userptr_unpin(struct hsagpu_mem *mem)
{
	struct hsagpu_sysbuf *b = &mem->sys;

	if (b->mapped || b->sgt.sgl)
		hsagpu_sysbuf_unmap_table(mem->hdev, b);
	memset(&b->sgt, 0, sizeof(b->sgt));
	/* The device may have written them. */
	unpin_user_pages_dirty_lock(b->pages, b->npages, !mem->readonly);
	atomic64_sub(b->npages, &mem->hdev->userptr_pages);
	mem->pinned = false;
}

/*
 * The last reference is gone (FREE_MEM or close(); no queue uses it):
 * out of the GPU space first, then the notifier, the DMA mapping and
 * the pins.
 */
void hsagpu_userptr_free(struct hsagpu_mem *mem)
{
	struct hsagpu_sysbuf *b = &mem->sys;

	if (mem->owner->vm)
		hsagpu_vm_unmap(mem->owner->vm, &mem->map);
	if (mem->notifier_live)
		mmu_interval_notifier_remove(&mem->notifier);
	if (b->pages) {
		if (mem->pinned)
			hsagpu_userptr_unpin(mem);
		kvfree(b->pages);
		b->pages = NULL;
	}
}

/*
 * Pin the pages at @start, DMA-map them and map them in the GPU space at
 * @va: 0, -EAGAIN (invalidated meanwhile).
 */
static int hsagpu_userptr_map(struct hsagpu_file *hf, struct hsagpu_mem *mem,
			      u64 start, u64 va)
{
	struct hsagpu_sysbuf *b = &mem->sys;
	struct hsagpu_vm_src src = {
		.sgt = &b->sgt,
		.flags = HSAGPU_PTE_SYSTEM | HSAGPU_PTE_SNOOPED,
		.mni = &mem->notifier,
	};
	u64 perms = HSAGPU_PTE_READABLE |
		    (mem->readonly ? 0 : HSAGPU_PTE_WRITEABLE);
	long pinned;
	int ret;

	src.seq = mmu_interval_read_begin(&mem->notifier);
	pinned = pin_user_pages_fast(start, b->npages, FOLL_LONGTERM |
				     (mem->readonly ? 0 : FOLL_WRITE),
				     b->pages);
	if (pinned != b->npages) {
		if (pinned > 0)
			unpin_user_pages(b->pages, pinned);
		return pinned < 0 ? pinned : -EFAULT;
	}
	ret = hsagpu_enter(hf->hdev);
	if (ret)
		goto out_unpin;
	ret = hsagpu_sysbuf_map(hf->hdev, b);
	if (ret) {
		memset(&b->sgt, 0, sizeof(b->sgt));
		hsagpu_exit(hf->hdev);
		goto out_unpin;
	}
	mem->map.kind = HSAGPU_VM_MAP_USERPTR;
	mem->pinned = true;
	atomic64_add(b->npages, &hf->hdev->userptr_pages);
	ret = hsagpu_vm_map(hf->vm, &mem->map, va, mem->size, perms, &src);
	hsagpu_exit(hf->hdev);
	if (!ret)
		return 0;
	hsagpu_userptr_unpin(mem);
	return ret;
out_unpin:
	unpin_user_pages(b->pages, b->npages);
	return ret;
}

/*
 * A registration of [start, start + size) (page aligned) with its
 * notifier, neither pinned nor mapped yet; hsagpu_mem_put() undoes it.
 */
static struct hsagpu_mem *hsagpu_userptr_new(struct hsagpu_file *hf,
					     u64 start, u64 size,
					     bool readonly)
{
	struct hsagpu_mem *mem;
	int ret;

	mem = kzalloc(sizeof(*mem), HSAGPU_GFP_ACCOUNT);
	if (!mem)
		return ERR_PTR(-ENOMEM);
	kref_init(&mem->ref);
	INIT_LIST_HEAD(&mem->node);
	mem->hdev = hf->hdev;
	mem->owner = hf;
	mem->flags = HSAGPU_MEM_USERPTR;
	mem->readonly = readonly;
	mem->user_addr = start;
	mem->size = size;
	mem->nsegs = 1;
	mem->segs = &mem->seg0;
	ret = hsagpu_mem_charge(mem);
	if (ret) {
		kfree(mem);
		return ERR_PTR(ret);
	}
	/* From here on hsagpu_mem_put() undoes everything. */
	kref_get(&hf->hdev->ref);
	hsagpu_file_get(hf);
	mem->sys.npages = mem->size >> PAGE_SHIFT;
	mem->sys.pages = kvmalloc_array(mem->sys.npages,
					sizeof(*mem->sys.pages),
					HSAGPU_GFP_ACCOUNT);
	if (!mem->sys.pages) {
		ret = -ENOMEM;
		goto out_put;
	}
	ret = mmu_interval_notifier_insert(&mem->notifier, current->mm, start,
					   mem->size, &hsagpu_userptr_mn_ops);
	if (ret)
		goto out_put;
	mem->notifier_live = true;
	return mem;
out_put:
	hsagpu_mem_put(mem);
	return ERR_PTR(ret);
}

/*
 * -EINVAL: flags, empty, wraps, beyond the user address range;
 * -EFAULT: not mapped (with write access unless READONLY); -EBUSY: it
 * overlaps another GPU mapping of the file; -EDQUOT: the file's limits;
 * -EOPNOTSUPP: the file has no GPU address space.
 */
long hsagpu_ioctl_register_mem(struct hsagpu_file *hf, void *data)
{
	struct hsagpu_register_mem *args = data;
	struct hsagpu_mem *mem;
	u64 start, end;
	int ret, tries;

	if (!hf->vm)
		return -EOPNOTSUPP;
	if (args->flags & ~HSAGPU_REGISTER_FLAGS_ALL || !args->bytes ||
	    check_add_overflow(args->addr, args->bytes, &end) ||
	    end > HSAGPU_VM_APERTURE_BASE || end > TASK_SIZE)
		return -EINVAL;
	start = round_down(args->addr, PAGE_SIZE);
	end = round_up(end, PAGE_SIZE);

	mem = hsagpu_userptr_new(hf, start, end - start,
				 args->flags & HSAGPU_REGISTER_READONLY);
	if (IS_ERR(mem))
		return PTR_ERR(mem);

	for (tries = 0; tries < HSAGPU_USERPTR_TRIES; tries++) {
		ret = hsagpu_userptr_map(hf, mem, start, start);
		if (ret != -EAGAIN)
			break;
	}
	if (ret)
		goto out_put;

	mutex_lock(&hf->lock);
	ret = hsagpu_mem_publish(hf, mem);
	mutex_unlock(&hf->lock);
	if (ret)
		goto out_put;
	args->handle = mem->handle;
	return 0;
out_put:
	hsagpu_mem_put(mem);
	return ret;
}

/* The result could not be copied out: nobody learnt the handle. */
void hsagpu_ioctl_register_mem_undo(struct hsagpu_file *hf, void *data)
{
	hsagpu_mem_undo_handle(hf, ((struct hsagpu_register_mem *)data)->handle);
}

/*
 * KFD: registered memory whose GPU address is chosen at mapping time
 * (it may differ from the CPU address). Pinned and mapped by
 * hsagpu_userptr_gpu_map() only; the caller gets a reference besides the
 * handle's. -EINVAL: empty, unaligned, beyond the user address range.
 */
struct hsagpu_mem *hsagpu_userptr_create(struct hsagpu_file *hf, u64 addr,
					 u64 size, bool readonly)
{
	struct hsagpu_mem *mem;
	u64 end;
	int ret;

	if (!hf->vm)
		return ERR_PTR(-EOPNOTSUPP);
	ret = hsagpu_file_usable(hf);
	if (ret)
		return ERR_PTR(ret);
	if (!size || !PAGE_ALIGNED(addr) || !PAGE_ALIGNED(size) ||
	    check_add_overflow(addr, size, &end) || end > TASK_SIZE)
		return ERR_PTR(-EINVAL);
	mem = hsagpu_userptr_new(hf, addr, size, readonly);
	if (IS_ERR(mem))
		return mem;
	return hsagpu_mem_publish_get(hf, mem);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_userptr_create, HSAGPU);

/*
 * Pin and map at @va: -EBUSY when mapped elsewhere. Pinning takes the
 * mmap lock, so hf->lock (taken under it by mmap()) is not held; the
 * caller serialises map and unmap of one allocation.
 */
int hsagpu_userptr_gpu_map(struct hsagpu_file *hf, struct hsagpu_mem *mem,
			   u64 va)
{
	int ret = 0, tries;

	if (mem->pinned) {
		/* Taken out by an invalidation: the pins are stale. */
		if (!mem->map.mapped)
			hsagpu_userptr_unpin(mem);
		else
			ret = mem->map.it.start == va ? 0 : -EBUSY;
		if (mem->pinned)
			return ret;
	}
	for (tries = 0; tries < HSAGPU_USERPTR_TRIES; tries++) {
		ret = hsagpu_userptr_map(hf, mem, mem->user_addr, va);
		if (ret != -EAGAIN)
			break;
	}
	return ret;
}

int hsagpu_userptr_gpu_unmap(struct hsagpu_file *hf, struct hsagpu_mem *mem)
{
	if (!mem->pinned)
		return -EINVAL;
	hsagpu_vm_unmap(hf->vm, &mem->map);
	hsagpu_userptr_unpin(mem);
	return 0;
}
