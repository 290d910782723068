// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: registered user memory (REGISTER_MEM), GPUVM only. The pages
 * under a range of the opener's address space are pinned
 * (FOLL_LONGTERM), DMA-mapped and mapped in the file's GPU space at
 * their own CPU addresses. An MMU interval notifier watches the range:
 * when the process gives the pages up (munmap, mremap, MADV_DONTNEED,
 * page migration, exit...):
 *  - the range goes (munmap, mremap: MMU_NOTIFY_UNMAP; exit): the whole
 *    registration leaves the GPU space (entries cleared, TLB invalidated
 *    and acknowledged) before the notifier returns, so that the device
 *    never reaches what is mapped there next; later device accesses take
 *    a VM fault. At exit the file's queues stop first.
 *  - anything else (MADV_DONTNEED, a huge page split, reclaim, migration
 *    or collapse trying a pinned page): the registration is checked
 *    again, as amdkfd revalidates its userptrs, before the process
 *    returns to user space (from a work item for kernel threads); the
 *    pins keep the old pages from being freed or reused until then. The
 *    same pages: nothing changes. New ones (MADV_DONTNEED): the
 *    registration moves to them, and the device sees what the process
 *    sees. None: it leaves the GPU space.
 * The pins go at FREE_MEM or close(), after the device lost the
 * translations.
 *
 * Changes that leave the pages where they are do not unmap: fork()'s
 * write protection of the parent (the pinned pages stay the parent's:
 * the kernel copies them for the child), mprotect(), NUMA hinting and
 * soft-dirty tracking (MMU_NOTIFY_PROTECTION_VMA, _PROTECTION_PAGE,
 * _SOFT_DIRTY, on 6.1 and 6.12 alike) are not even checked.
 *
 * A registration is an allocation (struct hsagpu_mem, HSAGPU_MEM_USERPTR)
 * with a handle: it counts against the file's limits like SYSTEM memory.
 * The pages are already charged to the process's memory cgroup.
 */
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/kthread.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/workqueue.h>

#include "hsagpu.h"

/* An invalidation between pinning and mapping: try again that often. */
#define HSAGPU_USERPTR_TRIES    8

/* Checks for kernel threads' invalidations; drained at module exit. */
static struct workqueue_struct *hsagpu_userptr_wq;

int hsagpu_userptr_init(void)
{
	hsagpu_userptr_wq = alloc_workqueue("hsagpu_userptr", 0, 0);
	return hsagpu_userptr_wq ? 0 : -ENOMEM;
}

void hsagpu_userptr_exit(void)
{
	destroy_workqueue(hsagpu_userptr_wq);
}

static bool hsagpu_userptr_invalidate(struct mmu_interval_notifier *mni,
				      const struct mmu_notifier_range *range,
				      unsigned long cur_seq)
{
	struct hsagpu_mem *mem = container_of(mni, struct hsagpu_mem,
					      notifier);
	struct hsagpu_vm *vm = mem->owner->vm;
	LIST_HEAD(freed);
	bool mapped;

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
	 * The range itself goes (munmap, mremap, exit): out of the GPU space
	 * now, before anything else can be mapped at those addresses. At
	 * exit the interval notifiers hear it before the file's own release
	 * notifier (mn_itree_release() runs first): the file's queues stop
	 * first, or a dispatch still reading the range would fault. amdkfd,
	 * too, stops a process's queues before its userptrs go.
	 */
	if (range->event == MMU_NOTIFY_UNMAP ||
	    range->event == MMU_NOTIFY_RELEASE) {
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

	mutex_lock(&vm->lock);
	mmu_interval_set_seq(mni, cur_seq);
	mapped = mem->map.mapped;
	mutex_unlock(&vm->lock);
	if (!mapped || test_and_set_bit(0, &mem->reval_pending))
		return true;
	/*
	 * The check, before the process sees the change's result (it may
	 * write to the new pages and start the GPU on them at once); the
	 * reference keeps the registration until then. Never the last put
	 * here: that would remove this notifier from inside it. A
	 * registration whose last reference is gone is being freed (its
	 * removal waits for this callback): nothing to check.
	 */
	if (!kref_get_unless_zero(&mem->ref)) {
		clear_bit(0, &mem->reval_pending);
		return true;
	}
	if (current->mm != mni->mm || (current->flags & PF_KTHREAD) ||
	    task_work_add(current, &mem->reval_cb, TWA_RESUME))
		queue_work(hsagpu_userptr_wq, &mem->reval_work);
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
 * DMA-map the pages pinned in sys.pages and map them in the GPU space at
 * @va, unless the notifier saw an invalidation since @seq (-EAGAIN). On
 * failure the pins go. Inside hsagpu_enter().
 */
static int hsagpu_userptr_map_pinned(struct hsagpu_file *hf,
				     struct hsagpu_mem *mem, u64 va,
				     unsigned long seq)
{
	struct hsagpu_sysbuf *b = &mem->sys;
	struct hsagpu_vm_src src = {
		.sgt = &b->sgt,
		.flags = HSAGPU_PTE_SYSTEM | HSAGPU_PTE_SNOOPED,
		.mni = &mem->notifier,
		.seq = seq,
	};
	u64 perms = HSAGPU_PTE_READABLE |
		    (mem->readonly ? 0 : HSAGPU_PTE_WRITEABLE);
	int ret;

	ret = hsagpu_sysbuf_map(hf->hdev, b);
	if (ret) {
		memset(&b->sgt, 0, sizeof(b->sgt));
		unpin_user_pages(b->pages, b->npages);
		return ret;
	}
	mem->map.kind = HSAGPU_VM_MAP_USERPTR;
	mem->pinned = true;
	atomic64_add(b->npages, &hf->hdev->userptr_pages);
	ret = hsagpu_vm_map(hf->vm, &mem->map, va, mem->size, perms, &src);
	if (ret)
		hsagpu_userptr_unpin(mem);
	return ret;
}

/*
 * Pin the pages at @start, DMA-map them and map them in the GPU space at
 * @va: 0, -EAGAIN (invalidated meanwhile).
 */
static int hsagpu_userptr_map(struct hsagpu_file *hf, struct hsagpu_mem *mem,
			      u64 start, u64 va)
{
	struct hsagpu_sysbuf *b = &mem->sys;
	unsigned long seq;
	long pinned;
	int ret;

	seq = mmu_interval_read_begin(&mem->notifier);
	pinned = pin_user_pages_fast(start, b->npages, FOLL_LONGTERM |
				     (mem->readonly ? 0 : FOLL_WRITE),
				     b->pages);
	if (pinned != b->npages) {
		if (pinned > 0)
			unpin_user_pages(b->pages, pinned);
		return pinned < 0 ? pinned : -EFAULT;
	}
	ret = hsagpu_enter(hf->hdev);
	if (ret) {
		unpin_user_pages(b->pages, b->npages);
		return ret;
	}
	ret = hsagpu_userptr_map_pinned(hf, mem, va, seq);
	hsagpu_exit(hf->hdev);
	return ret;
}

/*
 * After an invalidation: are the pages under the range still the pinned
 * ones? In the registering process, mmap lock not held. Holds a
 * reference, which it drops.
 */
static void hsagpu_userptr_check(struct hsagpu_mem *mem)
{
	struct hsagpu_file *hf = mem->owner;
	struct hsagpu_sysbuf *b = &mem->sys;
	struct page **pages;
	unsigned long seq;
	long n = -EFAULT;
	u64 va;

	clear_bit(0, &mem->reval_pending);
	pages = kvmalloc_array(b->npages, sizeof(*pages), GFP_KERNEL);
	seq = mmu_interval_read_begin(&mem->notifier);
	/* none (exit, or no memory for the array): out of the GPU space */
	if (pages && current->mm == mem->notifier.mm)
		n = pin_user_pages_fast(mem->user_addr, b->npages,
					FOLL_LONGTERM |
					(mem->readonly ? 0 : FOLL_WRITE), pages);
	if (hsagpu_enter(hf->hdev))
		goto out;
	mutex_lock(&hf->lock);
	/* unmapped or freed meanwhile: nothing to check */
	if (!mem->map.mapped || !mem->pinned)
		goto out_unlock;
	if (n == b->npages && !memcmp(pages, b->pages, n * sizeof(*pages)))
		goto out_unlock;
	va = mem->map.it.start;
	hsagpu_vm_unmap(hf->vm, &mem->map);
	/*
	 * Gone, or a queue's ring or pointers in it (the device holds their
	 * pages): the registration stays out, pinned until freed.
	 */
	if (n != b->npages || mem->queue_users) {
		atomic_inc(&hf->hdev->userptr_invalidations);
		goto out_unlock;
	}
	hsagpu_userptr_unpin(mem);
	swap(b->pages, pages);
	n = 0;                  /* the new pins are the registration's now */
	if (hsagpu_userptr_map_pinned(hf, mem, va, seq))
		atomic_inc(&hf->hdev->userptr_invalidations);
	else
		atomic_inc(&hf->hdev->userptr_repins);
out_unlock:
	mutex_unlock(&hf->lock);
	hsagpu_exit(hf->hdev);
out:
	if (n > 0)
		unpin_user_pages(pages, n);
	kvfree(pages);
	hsagpu_mem_put(mem);
}

static void hsagpu_userptr_check_cb(struct callback_head *cb)
{
	hsagpu_userptr_check(container_of(cb, struct hsagpu_mem, reval_cb));
}

/* A kernel thread (reclaim, khugepaged...) or another process did it. */
static void hsagpu_userptr_check_work(struct work_struct *work)
{
	struct hsagpu_mem *mem = container_of(work, struct hsagpu_mem,
					      reval_work);
	struct mm_struct *mm = mem->notifier.mm;

	if (!mmget_not_zero(mm)) {
		/* exiting: the release takes it out */
		clear_bit(0, &mem->reval_pending);
		hsagpu_mem_put(mem);
		return;
	}
	kthread_use_mm(mm);
	hsagpu_userptr_check(mem);
	kthread_unuse_mm(mm);
	mmput(mm);
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
	init_task_work(&mem->reval_cb, hsagpu_userptr_check_cb);
	INIT_WORK(&mem->reval_work, hsagpu_userptr_check_work);
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
