// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: GPU virtual memory (GPUVM). Each open file (with hsagpu.ko
 * vm=1 when it was opened, on a device with HSAGPU_CAP_VM) has an
 * address space: a four-level page table in the device's format
 * (hsagpu_regs.h), 48-bit VAs, 4 KiB pages and 2 MiB pages where a
 * mapping is aligned and contiguous. While the file has queues it holds
 * one of the 15 translated VMIDs, whose context registers point at the
 * root table; its queues run in that VMID.
 *
 * The tables live in driver-owned system memory, one DMA-mapped page
 * each (hsagpu_sysbuf.c): they then follow the lifetime rules of every
 * other driver page (remove() unmaps them with the rest, the CPU
 * updates them with ordinary cached stores on this DMA-coherent
 * platform, they are charged to the opener's memory cgroup) and they
 * take nothing from VRAM, which is the processes' and which the device
 * reads no faster than system memory here.
 *
 * Unmapping clears the entries, invalidates the VMID's TLB and waits for
 * the acknowledgment before any page (or emptied table) is given back.
 * An invalidation that is not acknowledged in time means the device is
 * unreliable: it is logged and the device is reset (hsagpu_recover.c).
 *
 * Tables are allocated before the mapping is made, outside @vm->lock:
 * the MMU notifiers of registered memory take that lock, and reclaim
 * may call them.
 */
#include <linux/debugfs.h>
#include <linux/interval_tree.h>
#include <linux/iopoll.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "hsagpu.h"

static bool hsagpu_vm_param = true;
module_param_named(vm, hsagpu_vm_param, bool, 0644);
MODULE_PARM_DESC(vm,
		 "Give files opened from now on a GPU virtual address space on devices that have one (default 1); 0: bus addresses as in ABI 1.2, for comparison");

#define HSAGPU_VM_ROOT_LEVEL    (HSAGPU_VM_LEVELS - 1)
#define HSAGPU_VM_ENTRIES       BIT(HSAGPU_VM_LEVEL_BITS)
#define HSAGPU_VM_LARGE         BIT_ULL(HSAGPU_VM_LEVEL_SHIFT(1))  /* 2 MiB */
#define HSAGPU_VM_VA_END        BIT_ULL(HSAGPU_VM_VA_BITS)
/* How long the device may take to acknowledge an invalidation. */
#define HSAGPU_VM_INV_TIMEOUT_US 100000

static_assert(HSAGPU_VM_TABLE_SIZE == PAGE_SIZE);

/* A table: 512 entries; directories also know their children. */
struct hsagpu_pt {
	struct list_head node;          /* spare or freed lists */
	struct hsagpu_sysbuf buf;
	u64 *e;
	dma_addr_t dma;
	u32 nvalid;
	struct hsagpu_pt **child;       /* directories only */
};

int hsagpu_vm_file_init(struct hsagpu_file *hf)
{
	struct hsagpu_vm *vm;

	/* KFD contexts always have one (the facade needs GPU VAs). */
	if ((!READ_ONCE(hsagpu_vm_param) && !hf->kfd) ||
	    !(hf->hdev->caps & HSAGPU_CAP_VM))
		return 0;
	vm = kzalloc(sizeof(*vm), GFP_KERNEL_ACCOUNT);
	if (!vm)
		return -ENOMEM;
	vm->hdev = hf->hdev;
	mutex_init(&vm->lock);
	vm->maps = RB_ROOT_CACHED;
	INIT_LIST_HEAD(&vm->spare_dir);
	INIT_LIST_HEAD(&vm->spare_leaf);
	/* The event page is at the aperture's base, peers follow. */
	vm->aperture_next = HSAGPU_VM_APERTURE_BASE + HSAGPU_VM_LARGE;
	hf->vm = vm;
	return 0;
}

static void hsagpu_pt_free(struct hsagpu_vm *vm, struct hsagpu_pt *pt)
{
	hsagpu_sysbuf_free(vm->hdev, &pt->buf);
	kfree(pt->child);
	kfree(pt);
}

/* Inside hsagpu_enter(): the DMA API is only used on a bound device. */
static struct hsagpu_pt *hsagpu_pt_alloc(struct hsagpu_vm *vm, bool dir)
{
	struct hsagpu_pt *pt = kzalloc(sizeof(*pt), HSAGPU_GFP_ACCOUNT);

	if (!pt)
		return NULL;
	if (dir) {
		pt->child = kcalloc(HSAGPU_VM_ENTRIES, sizeof(*pt->child),
				    HSAGPU_GFP_ACCOUNT);
		if (!pt->child) {
			kfree(pt);
			return NULL;
		}
	}
	if (hsagpu_sysbuf_alloc(vm->hdev, &pt->buf, PAGE_SIZE, true)) {
		kfree(pt->child);
		kfree(pt);
		return NULL;
	}
	pt->e = page_address(pt->buf.pages[0]);
	pt->dma = sg_dma_address(pt->buf.sgt.sgl);
	return pt;
}

void hsagpu_vm_free_tables(struct hsagpu_vm *vm, struct list_head *freed)
{
	struct hsagpu_pt *pt, *tmp;

	list_for_each_entry_safe(pt, tmp, freed, node) {
		list_del(&pt->node);
		hsagpu_pt_free(vm, pt);
	}
}

static void hsagpu_pt_free_tree(struct hsagpu_vm *vm, struct hsagpu_pt *pt)
{
	u32 i;

	if (pt->child)
		for (i = 0; i < HSAGPU_VM_ENTRIES; i++)
			if (pt->child[i])
				hsagpu_pt_free_tree(vm, pt->child[i]);
	hsagpu_pt_free(vm, pt);
}

/*
 * close(): the queues are destroyed (so the VMID is back) and every
 * mapping is gone; free the tables that are left.
 */
void hsagpu_vm_file_fini(struct hsagpu_file *hf)
{
	struct hsagpu_vm *vm = hf->vm;
	struct hsagpu_device *hdev = hf->hdev;

	if (!vm)
		return;
	/* Only after a removal whose queue teardown did not run. */
	spin_lock(&hdev->vm_lock);
	if (vm->vmid) {
		hdev->vmids_used &= ~BIT(vm->vmid);
		hdev->vmid_owner[vm->vmid] = NULL;
		vm->vmid = 0;
	}
	spin_unlock(&hdev->vm_lock);
	if (vm->root)
		hsagpu_pt_free_tree(vm, vm->root);
	hsagpu_vm_free_tables(vm, &vm->spare_dir);
	hsagpu_vm_free_tables(vm, &vm->spare_leaf);
	mutex_destroy(&vm->lock);
	kfree(vm);
	hf->vm = NULL;
}

/*
 * Invalidate @vmids' translations (of [va, va + size) when it fits the
 * range registers) and wait for the acknowledgment. hdev->vm_lock held.
 */
static void hsagpu_vm_invalidate(struct hsagpu_device *hdev, u32 vmids,
				 u64 va, u64 size)
{
	u64 pages = size >> HSAGPU_VM_PAGE_SHIFT;
	u32 req = vmids, ack;
	int ret;

	lockdep_assert_held(&hdev->vm_lock);
	if (pages && pages <= U32_MAX) {
		hsagpu_wr(hdev, HSAGPU_REG_VM_INVALIDATE_ADDR_LO,
			  lower_32_bits(va));
		hsagpu_wr(hdev, HSAGPU_REG_VM_INVALIDATE_ADDR_HI,
			  upper_32_bits(va));
		hsagpu_wr(hdev, HSAGPU_REG_VM_INVALIDATE_PAGES, pages);
		req |= HSAGPU_VM_INV_RANGE;
	}
	hsagpu_wr(hdev, HSAGPU_REG_VM_INVALIDATE_REQ, req);
	ret = readl_poll_timeout_atomic(hdev->mmio + HSAGPU_REG_VM_INVALIDATE_ACK,
					ack, (ack & vmids) == vmids, 1,
					HSAGPU_VM_INV_TIMEOUT_US);
	if (ret) {
		/*
		 * The device may still use translations to pages that are
		 * about to be reused: only a reset makes it forget them.
		 */
		dev_err(&hdev->pdev->dev,
			"VM invalidation of VMIDs 0x%x not acknowledged in %u us (ACK 0x%x): resetting the device\n",
			vmids, HSAGPU_VM_INV_TIMEOUT_US, ack);
		hsagpu_recover_fatal(hdev);
	}
}

/* After entries of @vm were cleared: nothing may use them any more. */
static void hsagpu_vm_flush(struct hsagpu_vm *vm, u64 va, u64 size)
{
	struct hsagpu_device *hdev = vm->hdev;

	/*
	 * A VMID taken after the entries were cleared is programmed (which
	 * invalidates it) after this point: nothing to do for it.
	 */
	spin_lock(&hdev->vm_lock);
	if (vm->vmid)
		hsagpu_vm_invalidate(hdev, BIT(vm->vmid), va, size);
	spin_unlock(&hdev->vm_lock);
}

/* Directory entries name the next table, in system memory. */
static u64 hsagpu_pde(struct hsagpu_pt *child)
{
	return child->dma | HSAGPU_PTE_VALID | HSAGPU_PTE_SYSTEM;
}

/* Source cursor: the address of the next page and how far it runs on. */
struct hsagpu_vm_cursor {
	const struct hsagpu_vm_src *src;
	struct scatterlist *sg;
	unsigned int nents;
	u64 pa;
	u64 left;
};

static void hsagpu_cursor_init(struct hsagpu_vm_cursor *c,
			       const struct hsagpu_vm_src *src)
{
	c->src = src;
	if (src->sgt) {
		c->sg = src->sgt->sgl;
		c->nents = src->sgt->nents;
		c->pa = sg_dma_address(c->sg);
		c->left = sg_dma_len(c->sg);
	} else {
		c->pa = src->addr;
		c->left = U64_MAX;
	}
}

static int hsagpu_cursor_advance(struct hsagpu_vm_cursor *c, u64 n)
{
	if (n > c->left)
		return -EIO;
	c->pa += n;
	c->left -= n;
	if (!c->left && c->src->sgt && --c->nents) {
		c->sg = sg_next(c->sg);
		c->pa = sg_dma_address(c->sg);
		c->left = sg_dma_len(c->sg);
	}
	return 0;
}

static struct hsagpu_pt *hsagpu_spare_take(struct hsagpu_vm *vm, bool dir)
{
	struct list_head *l = dir ? &vm->spare_dir : &vm->spare_leaf;
	struct hsagpu_pt *pt;

	pt = list_first_entry_or_null(l, struct hsagpu_pt, node);
	if (!pt)
		return NULL;
	list_del(&pt->node);
	if (dir)
		vm->nspare_dir--;
	else
		vm->nspare_leaf--;
	vm->ntables++;
	return pt;
}

/*
 * Tables missing under @pt (NULL: missing itself) for [va, end): an
 * upper bound that assumes 4 KiB pages unless @large says the source
 * allows 2 MiB pages everywhere they are aligned.
 */
static void hsagpu_pt_count(struct hsagpu_pt *pt, int level, u64 va, u64 end,
			    bool large, u32 *ndir, u32 *nleaf)
{
	u64 size = BIT_ULL(HSAGPU_VM_LEVEL_SHIFT(level));
	u64 next;

	if (!pt) {
		if (level)
			(*ndir)++;
		else
			(*nleaf)++;
	}
	if (!level)
		return;
	for (; va < end; va = next) {
		next = min((va | (size - 1)) + 1, end);
		if (level == 1 && large && next - va == size)
			continue;
		hsagpu_pt_count(pt ? pt->child[HSAGPU_VM_INDEX(va, level)] :
				NULL, level - 1, va, next, large, ndir, nleaf);
	}
}

/* Map [va, end) in @pt (of @level) from the cursor. vm->lock held. */
static int hsagpu_pt_map(struct hsagpu_vm *vm, struct hsagpu_pt *pt,
			 int level, u64 va, u64 end,
			 struct hsagpu_vm_cursor *c, u64 pte)
{
	u64 size = BIT_ULL(HSAGPU_VM_LEVEL_SHIFT(level));
	struct hsagpu_pt *child;
	u64 next;
	u32 i;
	int ret;

	for (; va < end; va = next) {
		i = HSAGPU_VM_INDEX(va, level);
		next = min((va | (size - 1)) + 1, end);
		if (!level || (level == 1 && next - va == size &&
			       IS_ALIGNED(c->pa, size) && c->left >= size)) {
			if (pt->e[i] & HSAGPU_PTE_VALID)
				return -EBUSY;
			if (c->pa & ~HSAGPU_PTE_ADDR_MASK)
				return -ERANGE;
			WRITE_ONCE(pt->e[i], c->pa | pte |
				   (level ? HSAGPU_PDE_PTE : 0));
			pt->nvalid++;
			ret = hsagpu_cursor_advance(c, next - va);
			if (ret)
				return ret;
			continue;
		}
		child = pt->child[i];
		if (!child) {
			if (pt->e[i] & HSAGPU_PTE_VALID)
				return -EBUSY;  /* a large page */
			child = hsagpu_spare_take(vm, level > 1);
			if (!child)
				return -ENOMEM;
			pt->child[i] = child;
			/* The device must never see a PDE before its table. */
			dma_wmb();
			WRITE_ONCE(pt->e[i], hsagpu_pde(child));
			pt->nvalid++;
		}
		ret = hsagpu_pt_map(vm, child, level - 1, va, next, c, pte);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Clear [va, end) under @pt; tables that become empty go to @freed (to
 * be freed after the invalidation). vm->lock held.
 */
static void hsagpu_pt_unmap(struct hsagpu_vm *vm, struct hsagpu_pt *pt,
			    int level, u64 va, u64 end, struct list_head *freed)
{
	u64 size = BIT_ULL(HSAGPU_VM_LEVEL_SHIFT(level));
	struct hsagpu_pt *child;
	u64 next;
	u32 i;

	for (; va < end; va = next) {
		i = HSAGPU_VM_INDEX(va, level);
		next = min((va | (size - 1)) + 1, end);
		if (!(pt->e[i] & HSAGPU_PTE_VALID))
			continue;
		child = level ? pt->child[i] : NULL;
		if (child) {
			hsagpu_pt_unmap(vm, child, level - 1, va, next, freed);
			if (child->nvalid)
				continue;
			pt->child[i] = NULL;
			list_add(&child->node, freed);
			vm->ntables--;
		}
		WRITE_ONCE(pt->e[i], 0);
		pt->nvalid--;
	}
}

/* Give tables to the spare lists (outside vm->lock). */
static int hsagpu_vm_prealloc(struct hsagpu_vm *vm, u32 ndir, u32 nleaf)
{
	struct hsagpu_pt *pt;
	LIST_HEAD(dirs);
	LIST_HEAD(leaves);
	u32 i, d = 0, l = 0;
	int ret = 0;

	for (i = 0; i < ndir + nleaf; i++) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		pt = hsagpu_pt_alloc(vm, i < ndir);
		if (!pt) {
			ret = -ENOMEM;
			break;
		}
		if (i < ndir) {
			list_add(&pt->node, &dirs);
			d++;
		} else {
			list_add(&pt->node, &leaves);
			l++;
		}
	}
	mutex_lock(&vm->lock);
	list_splice(&dirs, &vm->spare_dir);
	list_splice(&leaves, &vm->spare_leaf);
	vm->nspare_dir += d;
	vm->nspare_leaf += l;
	mutex_unlock(&vm->lock);
	return ret;
}

/* Spares left after a mapping: keep a few for the next one. */
static void hsagpu_vm_trim_spares(struct hsagpu_vm *vm, struct list_head *out)
{
	struct hsagpu_pt *pt;

	while (vm->nspare_dir > 2) {
		pt = list_first_entry(&vm->spare_dir, struct hsagpu_pt, node);
		list_move(&pt->node, out);
		vm->nspare_dir--;
	}
	while (vm->nspare_leaf > 2) {
		pt = list_first_entry(&vm->spare_leaf, struct hsagpu_pt, node);
		list_move(&pt->node, out);
		vm->nspare_leaf--;
	}
}

/*
 * Map [va, va + size) (page aligned) with @perms (HSAGPU_PTE_READABLE,
 * _WRITEABLE, _EXECUTABLE) to the pages of @src, as @m. -EBUSY: it
 * overlaps a mapping of the file; -EINVAL: outside the address space;
 * -ENOMEM; -ERANGE: an address the entries cannot hold; -EAGAIN: @src's
 * notifier saw an invalidation. The caller is inside hsagpu_enter().
 */
int hsagpu_vm_map(struct hsagpu_vm *vm, struct hsagpu_vm_map *m, u64 va,
		  u64 size, u64 perms, const struct hsagpu_vm_src *src)
{
	bool large = !src->sgt && IS_ALIGNED(va ^ src->addr, HSAGPU_VM_LARGE);
	struct hsagpu_vm_cursor c;
	LIST_HEAD(freed);
	u32 ndir, nleaf;
	int ret;

	if (!size || !PAGE_ALIGNED(va) || !PAGE_ALIGNED(size) ||
	    va >= HSAGPU_VM_VA_END || size > HSAGPU_VM_VA_END - va)
		return -EINVAL;
	mutex_lock(&vm->lock);
	for (;;) {
		ret = -EBUSY;
		if (interval_tree_iter_first(&vm->maps, va, va + size - 1))
			goto out;
		ndir = 0;
		nleaf = 0;
		hsagpu_pt_count(vm->root, HSAGPU_VM_ROOT_LEVEL, va, va + size,
				large, &ndir, &nleaf);
		if (ndir <= vm->nspare_dir && nleaf <= vm->nspare_leaf)
			break;
		ndir -= min(ndir, vm->nspare_dir);
		nleaf -= min(nleaf, vm->nspare_leaf);
		mutex_unlock(&vm->lock);
		ret = hsagpu_vm_prealloc(vm, ndir, nleaf);
		mutex_lock(&vm->lock);
		if (ret)
			goto out;
	}
	ret = -EAGAIN;
	if (src->mni && mmu_interval_read_retry(src->mni, src->seq))
		goto out;
	if (!vm->root)
		vm->root = hsagpu_spare_take(vm, true);

	hsagpu_cursor_init(&c, src);
	ret = hsagpu_pt_map(vm, vm->root, HSAGPU_VM_ROOT_LEVEL, va, va + size,
			    &c, src->flags | perms | HSAGPU_PTE_VALID);
	if (ret) {
		/* Nothing else is in the range: take back what was set. */
		hsagpu_pt_unmap(vm, vm->root, HSAGPU_VM_ROOT_LEVEL, va,
				va + size, &freed);
		hsagpu_vm_flush(vm, va, size);
		goto out;
	}
	m->it.start = va;
	m->it.last = va + size - 1;
	m->pte = perms;
	m->mapped = true;
	interval_tree_insert(&m->it, &vm->maps);
	vm->nmaps++;
out:
	hsagpu_vm_trim_spares(vm, &freed);
	mutex_unlock(&vm->lock);
	hsagpu_vm_free_tables(vm, &freed);
	return ret;
}

/*
 * Take @m out of the GPU space: entries cleared, TLB invalidated and
 * acknowledged. Emptied tables go to @freed. vm->lock held.
 */
void hsagpu_vm_unmap_locked(struct hsagpu_vm *vm, struct hsagpu_vm_map *m,
			    struct list_head *freed)
{
	u64 va = m->it.start, size = m->it.last - m->it.start + 1;

	lockdep_assert_held(&vm->lock);
	if (!m->mapped)
		return;
	interval_tree_remove(&m->it, &vm->maps);
	m->mapped = false;
	vm->nmaps--;
	hsagpu_pt_unmap(vm, vm->root, HSAGPU_VM_ROOT_LEVEL, va, va + size,
			freed);
	hsagpu_vm_flush(vm, va, size);
}

/* When this returns, the device no longer reaches @m's pages. */
void hsagpu_vm_unmap(struct hsagpu_vm *vm, struct hsagpu_vm_map *m)
{
	LIST_HEAD(freed);

	mutex_lock(&vm->lock);
	hsagpu_vm_unmap_locked(vm, m, &freed);
	mutex_unlock(&vm->lock);
	hsagpu_vm_free_tables(vm, &freed);
}

/* The mapping that holds all of [va, va + len), or NULL. vm->lock held. */
struct hsagpu_vm_map *hsagpu_vm_lookup(struct hsagpu_vm *vm, u64 va, u64 len)
{
	struct interval_tree_node *it;

	lockdep_assert_held(&vm->lock);
	if (!len || va + len < va)
		return NULL;
	it = interval_tree_iter_first(&vm->maps, va, va + len - 1);
	if (!it || it->start > va || it->last < va + len - 1)
		return NULL;
	return container_of(it, struct hsagpu_vm_map, it);
}

/*
 * A range of the driver aperture for @size bytes, 2 MiB aligned so that
 * large pages can map it; 0 when the aperture is full. Never reused: the
 * aperture is 128 TiB.
 */
u64 hsagpu_vm_aperture_alloc(struct hsagpu_vm *vm, u64 size)
{
	u64 va;

	mutex_lock(&vm->lock);
	va = ALIGN(vm->aperture_next, HSAGPU_VM_LARGE);
	if (va > HSAGPU_VM_APERTURE_END || size > HSAGPU_VM_VA_END - va)
		va = 0;
	else
		vm->aperture_next = va + ALIGN(size, HSAGPU_VM_LARGE);
	mutex_unlock(&vm->lock);
	return va;
}

/* Point VMID @v at @vm's tables, whole 48-bit range. hdev->vm_lock held. */
static void hsagpu_vm_ctx_program(struct hsagpu_device *hdev, u32 v,
				  struct hsagpu_vm *vm)
{
	u32 base = HSAGPU_REG_VM_CTX(v);
	u64 last = (HSAGPU_VM_VA_END >> HSAGPU_VM_PAGE_SHIFT) - 1;

	hsagpu_wr(hdev, base + HSAGPU_VM_CTX_CNTL, 0);
	hsagpu_wr(hdev, base + HSAGPU_VM_CTX_PT_BASE_LO,
		  lower_32_bits(vm->root->dma) | HSAGPU_VM_PT_SYSTEM);
	hsagpu_wr(hdev, base + HSAGPU_VM_CTX_PT_BASE_HI,
		  upper_32_bits(vm->root->dma));
	hsagpu_wr(hdev, base + HSAGPU_VM_CTX_START_LO, 0);
	hsagpu_wr(hdev, base + HSAGPU_VM_CTX_START_HI, 0);
	hsagpu_wr(hdev, base + HSAGPU_VM_CTX_END_LO, lower_32_bits(last));
	hsagpu_wr(hdev, base + HSAGPU_VM_CTX_END_HI, upper_32_bits(last));
	hsagpu_wr(hdev, base + HSAGPU_VM_CTX_CNTL, HSAGPU_VM_CNTL_ENABLE);
}

/*
 * The VMID @hf's queues run in: 0 without GPUVM, else the file's,
 * taken now if it holds none. -ENOSPC: all 15 are held by other files;
 * -EFAULT: nothing is mapped yet (no queue could run). Caller holds
 * hdev->lock, inside hsagpu_enter().
 */
int hsagpu_vm_vmid_get(struct hsagpu_file *hf)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_vm *vm = hf->vm;
	unsigned long used;
	u32 v;

	lockdep_assert_held(&hdev->lock);
	if (!vm)
		return 0;
	if (vm->vmid)
		return vm->vmid;
	if (!READ_ONCE(vm->root))
		return -EFAULT;
	spin_lock(&hdev->vm_lock);
	used = hdev->vmids_used | BIT(0);
	v = find_first_zero_bit(&used, HSAGPU_VM_NUM_VMIDS);
	if (v >= HSAGPU_VM_NUM_VMIDS) {
		spin_unlock(&hdev->vm_lock);
		return -ENOSPC;
	}
	hdev->vmids_used |= BIT(v);
	hdev->vmid_owner[v] = vm;
	hsagpu_vm_ctx_program(hdev, v, vm);
	vm->vmid = v;
	spin_unlock(&hdev->vm_lock);
	return v;
}

/*
 * The file's last queue is gone: disable its context, make sure no
 * translation of it survives, give the VMID back. Caller holds
 * hdev->lock; the BARs are still mapped.
 */
void hsagpu_vm_vmid_put(struct hsagpu_file *hf)
{
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_vm *vm = hf->vm;
	u32 v;

	lockdep_assert_held(&hdev->lock);
	if (!vm)
		return;
	spin_lock(&hdev->vm_lock);
	v = vm->vmid;
	if (v) {
		hsagpu_wr(hdev, HSAGPU_REG_VM_CTX(v) + HSAGPU_VM_CTX_CNTL, 0);
		hsagpu_vm_invalidate(hdev, BIT(v), 0, 0);
		hdev->vmids_used &= ~BIT(v);
		hdev->vmid_owner[v] = NULL;
		vm->vmid = 0;
	}
	spin_unlock(&hdev->vm_lock);
}

/*
 * After a reset (which clears the context registers): program again
 * every VMID still held. Recovery destroys the queues of every file
 * that has some first, so none should be; this keeps the registers and
 * the driver consistent whatever happened.
 */
void hsagpu_vm_restore(struct hsagpu_device *hdev)
{
	u32 v;

	spin_lock(&hdev->vm_lock);
	for (v = 1; v < HSAGPU_VM_NUM_VMIDS; v++)
		if (hdev->vmid_owner[v])
			hsagpu_vm_ctx_program(hdev, v, hdev->vmid_owner[v]);
	spin_unlock(&hdev->vm_lock);
}

static const char * const hsagpu_vm_clients[] = {
	[HSAGPU_VM_CLIENT_PACKET] = "packet",
	[HSAGPU_VM_CLIENT_SIGNAL] = "signal",
	[HSAGPU_VM_CLIENT_KERNEL] = "kernel",
	[HSAGPU_VM_CLIENT_DMA] = "DMA",
	[HSAGPU_VM_CLIENT_ATOMIC] = "atomic",
};

static const char * const hsagpu_vm_accesses[] = {
	[HSAGPU_VM_ACCESS_READ] = "read",
	[HSAGPU_VM_ACCESS_WRITE] = "write",
	[HSAGPU_VM_ACCESS_ATOMIC] = "atomic",
	[HSAGPU_VM_ACCESS_EXECUTE] = "execute",
};

static const char * const hsagpu_vm_reasons[] = {
	[HSAGPU_VM_REASON_NOT_PRESENT] = "not present",
	[HSAGPU_VM_REASON_PERMISSION] = "permission",
	[HSAGPU_VM_REASON_RANGE] = "out of range",
	[HSAGPU_VM_REASON_BAD_ENTRY] = "bad entry",
	[HSAGPU_VM_REASON_WALK] = "table unreadable",
	[HSAGPU_VM_REASON_CONTEXT] = "context disabled",
};

static const char *hsagpu_vm_name(const char * const *names, size_t n,
				  u32 i)
{
	return i < n && names[i] ? names[i] : "unknown";
}

/*
 * Error interrupt with ERROR_STATUS.VM_FAULT: log the latched fault,
 * count it and let the device latch the next one. The faulting queue is
 * in ERROR already; QUEUE_STATUS gives its owner the details.
 */
void hsagpu_vm_fault_irq(struct hsagpu_device *hdev)
{
	u32 st = hsagpu_rd(hdev, HSAGPU_REG_VM_FAULT_STATUS);
	u64 addr;
	u32 q;

	if (!(st & HSAGPU_VM_FAULT_VALID) || st == U32_MAX)
		return;
	addr = hsagpu_rd(hdev, HSAGPU_REG_VM_FAULT_ADDR_LO) |
	       (u64)hsagpu_rd(hdev, HSAGPU_REG_VM_FAULT_ADDR_HI) << 32;
	hsagpu_wr(hdev, HSAGPU_REG_VM_FAULT_STATUS, HSAGPU_VM_FAULT_VALID);
	atomic_inc(&hdev->vm_faults);
	q = (st & HSAGPU_VM_FAULT_QUEUE_MASK) >> HSAGPU_VM_FAULT_QUEUE_SHIFT;
	dev_warn_ratelimited(&hdev->pdev->dev,
			     "VM fault: VMID %u, address 0x%llx, client %s, %s access, %s, queue %d%s\n",
			     (st & HSAGPU_VM_FAULT_VMID_MASK) >>
			     HSAGPU_VM_FAULT_VMID_SHIFT, addr,
			     hsagpu_vm_name(hsagpu_vm_clients,
					    ARRAY_SIZE(hsagpu_vm_clients),
					    (st & HSAGPU_VM_FAULT_CLIENT_MASK) >>
					    HSAGPU_VM_FAULT_CLIENT_SHIFT),
			     hsagpu_vm_name(hsagpu_vm_accesses,
					    ARRAY_SIZE(hsagpu_vm_accesses),
					    (st & HSAGPU_VM_FAULT_ACCESS_MASK) >>
					    HSAGPU_VM_FAULT_ACCESS_SHIFT),
			     hsagpu_vm_name(hsagpu_vm_reasons,
					    ARRAY_SIZE(hsagpu_vm_reasons),
					    (st & HSAGPU_VM_FAULT_REASON_MASK) >>
					    HSAGPU_VM_FAULT_REASON_SHIFT),
			     q == HSAGPU_VM_FAULT_QUEUE_NONE ? -1 : (int)q,
			     st & HSAGPU_VM_FAULT_MORE ? " (and more)" : "");
}

/* debugfs "vm": the device's counters, then one line per file. */
static int vm_show(struct seq_file *m, void *unused)
{
	struct hsagpu_device *hdev = m->private;
	struct hsagpu_file *hf;

	down_read(&hdev->remove_sem);
	if (!hdev->dead && !hdev->resetting &&
	    (hdev->caps & HSAGPU_CAP_VM)) {
		seq_printf(m, "walks %u\n",
			   hsagpu_rd(hdev, HSAGPU_REG_VM_WALKS));
		seq_printf(m, "tlb_hits %u\n",
			   hsagpu_rd(hdev, HSAGPU_REG_VM_TLB_HITS));
		seq_printf(m, "invalidations %u\n",
			   hsagpu_rd(hdev, HSAGPU_REG_VM_INVALIDATIONS));
		seq_printf(m, "fault_count %u\n",
			   hsagpu_rd(hdev, HSAGPU_REG_VM_FAULT_COUNT));
	}
	up_read(&hdev->remove_sem);
	seq_printf(m, "vmids_used 0x%04x\n", READ_ONCE(hdev->vmids_used));
	mutex_lock(&hdev->lock);
	list_for_each_entry(hf, &hdev->files, node) {
		if (!hf->vm) {
			seq_printf(m, "file pid %d vm off\n", hf->pid);
			continue;
		}
		seq_printf(m, "file pid %d vmid %u mappings %u tables %u\n",
			   hf->pid, READ_ONCE(hf->vm->vmid),
			   READ_ONCE(hf->vm->nmaps), READ_ONCE(hf->vm->ntables));
	}
	mutex_unlock(&hdev->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vm);

void hsagpu_vm_debugfs_init(struct hsagpu_device *hdev, struct dentry *d)
{
	debugfs_create_atomic_t("vm_faults", 0444, d, &hdev->vm_faults);
	debugfs_create_atomic_t("userptr_invalidations", 0444, d,
				&hdev->userptr_invalidations);
	debugfs_create_atomic_t("userptr_repins", 0444, d,
				&hdev->userptr_repins);
	debugfs_create_file("vm", 0444, d, hdev, &vm_fops);
}
