// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: the cached read alias of VRAM (BAR4) and the device's
 * directory of the 64-byte lines it wrote there.
 *
 * The same VRAM is mapped twice for user space: BAR0 write-combining
 * (stores, and the mapping in the GPU address space), BAR4 write-back
 * for reads. The CPU caches are not coherent with the device, so a
 * reader flushes the lines the device wrote before reading them; the
 * device keeps those lines in a directory (HSAGPU_REG_DIR_*), which
 * VRAM_DIRTY reads (and clears) for the range of one allocation.
 *
 * Memory type: the whole BAR is memremap()ed write-back at probe. That
 * reserves the range as WB in the PAT memtype tree, so that the pages
 * vmf_insert_pfn() puts in user mappings are WB too (without a
 * reservation x86 would make them UC-).
 *
 * The directory registers (cursor, mask) are one set per device:
 * @ralias_lock serializes their users.
 */
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "hsagpu.h"

int hsagpu_ralias_init(struct hsagpu_device *hdev)
{
	struct pci_dev *pdev = hdev->pdev;
	struct device *dev = &pdev->dev;
	resource_size_t start = pci_resource_start(pdev, HSAGPU_BAR_READ_ALIAS);
	resource_size_t len = pci_resource_len(pdev, HSAGPU_BAR_READ_ALIAS);
	u64 size;

	if (!(hdev->caps & HSAGPU_CAP_READ_ALIAS))
		return 0;
	size = hsagpu_rd(hdev, HSAGPU_REG_RALIAS_SIZE_LO) |
	       (u64)hsagpu_rd(hdev, HSAGPU_REG_RALIAS_SIZE_HI) << 32;
	if (!size || size > hdev->vram_size || len != size ||
	    !(pci_resource_flags(pdev, HSAGPU_BAR_READ_ALIAS) & IORESOURCE_MEM)) {
		/* Not fatal: everything else works without the alias. */
		dev_warn(dev, "read alias: BAR4 %pa bytes, register %llu: not used\n",
			 &len, size);
		return 0;
	}
	if (!devm_request_mem_region(dev, start, len, HSAGPU_DRV_NAME))
		return -EBUSY;
	hdev->ralias_wb = devm_memremap(dev, start, len, MEMREMAP_WB);
	if (IS_ERR(hdev->ralias_wb)) {
		dev_warn(dev, "read alias: cannot map BAR4 write-back: %ld\n",
			 PTR_ERR(hdev->ralias_wb));
		hdev->ralias_wb = NULL;
		return 0;
	}
	hdev->ralias_phys = start;
	hdev->ralias_size = size;
	return 0;
}

static bool hsagpu_ralias_covers(struct hsagpu_device *hdev,
				 struct hsagpu_mem *mem)
{
	return (mem->flags & HSAGPU_MEM_VRAM) && hdev->ralias_size &&
	       mem->vram_offset + mem->size <= hdev->ralias_size;
}

static void hsagpu_ralias_vm_open(struct vm_area_struct *vma)
{
	struct hsagpu_mem *mem = vma->vm_private_data;

	kref_get(&mem->ref);
}

static void hsagpu_ralias_vm_close(struct vm_area_struct *vma)
{
	hsagpu_mem_put(vma->vm_private_data);
}

/* As hsagpu_vram_fault(): inserted at fault time under remove_sem. */
static vm_fault_t hsagpu_ralias_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct hsagpu_mem *mem = vma->vm_private_data;
	struct hsagpu_device *hdev = mem->hdev;
	u64 base = HSAGPU_MMAP_CACHED(mem->mmap_offset) >> PAGE_SHIFT;
	unsigned long page = vmf->pgoff - base;
	vm_fault_t ret = VM_FAULT_SIGBUS;

	if (vmf->pgoff < base || page >= mem->size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	down_read(&hdev->remove_sem);
	if (!hdev->dead && !READ_ONCE(mem->owner->lost))
		ret = vmf_insert_pfn(vma, vmf->address,
				     PHYS_PFN(hdev->ralias_phys +
					      mem->vram_offset) + page);
	up_read(&hdev->remove_sem);
	return ret;
}

static const struct vm_operations_struct hsagpu_ralias_vm_ops = {
	.open = hsagpu_ralias_vm_open,
	.close = hsagpu_ralias_vm_close,
	.fault = hsagpu_ralias_fault,
};

/*
 * HSAGPU_MMAP_TYPE_CACHED: @index names the allocation as in its
 * MEMORY offset. The whole allocation, shared; never in the GPU space.
 */
int hsagpu_ralias_mmap(struct hsagpu_file *hf, struct vm_area_struct *vma,
		       u64 index)
{
	struct hsagpu_mem *mem;
	int ret;

	if (is_cow_mapping(vma->vm_flags))
		return -EINVAL;
	mem = hsagpu_mem_get_handle(hf, index & ~HSAGPU_MMAP_INDEX_VRAM);
	if (!mem)
		return -EINVAL;
	ret = -EINVAL;
	if (!(mem->flags & HSAGPU_MEM_VRAM) ||
	    HSAGPU_MMAP_CACHED(mem->mmap_offset) >> PAGE_SHIFT !=
	    vma->vm_pgoff || vma->vm_end - vma->vm_start != mem->size)
		goto out;
	ret = -ERANGE;
	if (!hsagpu_ralias_covers(hf->hdev, mem))
		goto out;
	vm_flags_set(vma, VM_IO | VM_PFNMAP);
	/* vm_page_prot stays the default: write-back */
	vma->vm_ops = &hsagpu_ralias_vm_ops;
	vma->vm_private_data = mem;
	return 0;               /* the mapping keeps the reference */
out:
	hsagpu_mem_put(mem);
	return ret;
}

/* Collects runs of dirty lines, in allocation offsets. */
struct hsagpu_dirty_out {
	struct hsagpu_dirty_range *r;
	u32 n;
	u32 cap;
};

static void hsagpu_dirty_add(struct hsagpu_dirty_out *o, u64 off)
{
	struct hsagpu_dirty_range *last = o->n ? &o->r[o->n - 1] : NULL;

	if (last && last->offset + last->bytes == off) {
		last->bytes += HSAGPU_DIR_LINE_BYTES;
		return;
	}
	o->r[o->n].offset = off;
	o->r[o->n].bytes = HSAGPU_DIR_LINE_BYTES;
	o->n++;
}

/*
 * Lines [first, end) of VRAM (line numbers), caller holds ralias_lock
 * and is inside hsagpu_enter(). Returns the line where it stopped.
 */
static u64 hsagpu_dirty_scan(struct hsagpu_device *hdev, u64 first, u64 end,
			     bool clear, u64 base_line,
			     struct hsagpu_dirty_out *o)
{
	u32 last_word = (end - 1) / 64;
	u64 mask = ~0ULL;
	u32 w;

	writeq(mask, hdev->mmio + HSAGPU_REG_DIR_MASK);
	hsagpu_wr(hdev, HSAGPU_REG_DIR_CURSOR, first / 64);
	for (;;) {
		u64 lo, hi, want, bits;

		w = hsagpu_rd(hdev, HSAGPU_REG_DIR_NEXT);
		if (w > last_word)
			return end;
		/* A word yields at most 32 runs. */
		if (o->cap - o->n < 32)
			return max_t(u64, first, (u64)w * 64);
		lo = max_t(u64, first, (u64)w * 64) - (u64)w * 64;
		hi = min_t(u64, end, (u64)w * 64 + 64) - (u64)w * 64;
		want = (hi == 64 ? ~0ULL : (1ULL << hi) - 1) & ~((1ULL << lo) - 1);
		if (want != mask) {
			mask = want;
			writeq(mask, hdev->mmio + HSAGPU_REG_DIR_MASK);
		}
		/* Advances the cursor; TAKE clears the bits in the same step. */
		bits = readq(hdev->mmio + (clear ? HSAGPU_REG_DIR_TAKE :
					       HSAGPU_REG_DIR_WORD));
		while (bits) {
			unsigned int b = __ffs64(bits);

			bits &= bits - 1;
			hsagpu_dirty_add(o, ((u64)w * 64 + b - base_line) *
					    HSAGPU_DIR_LINE_BYTES);
		}
	}
}

long hsagpu_ioctl_vram_dirty(struct hsagpu_file *hf, void *data)
{
	struct hsagpu_vram_dirty *args = data;
	struct hsagpu_device *hdev = hf->hdev;
	struct hsagpu_dirty_range __user *uranges;
	struct hsagpu_dirty_out o = { };
	struct hsagpu_mem *mem;
	u64 first, end, base_line, stop;
	size_t bytes;
	long ret;

	if (args->flags & ~HSAGPU_DIRTY_FLAGS_ALL || !args->bytes ||
	    args->offset + args->bytes < args->offset ||
	    args->capacity < HSAGPU_DIRTY_RANGES_MIN ||
	    args->capacity > HSAGPU_DIRTY_RANGES_MAX)
		return -EINVAL;
	if (!hdev->ralias_size)
		return -ENODEV;
	if (args->handle >= HSAGPU_MMAP_INDEX_VRAM)
		return -ENOENT;
	mem = hsagpu_mem_get_handle(hf, args->handle);
	if (!mem)
		return -ENOENT;
	ret = -ENOENT;
	if (!(mem->flags & HSAGPU_MEM_VRAM))
		goto out_put;
	ret = -EINVAL;
	if (args->offset + args->bytes > mem->size)
		goto out_put;
	ret = -ERANGE;
	if (!hsagpu_ralias_covers(hdev, mem))
		goto out_put;

	/* Fault the array in now: nothing is cleared that cannot be told. */
	uranges = u64_to_user_ptr(args->ranges_ptr);
	bytes = (size_t)args->capacity * sizeof(*o.r);
	ret = -EFAULT;
	if (clear_user(uranges, bytes))
		goto out_put;
	ret = -ENOMEM;
	o.r = kvmalloc(bytes, GFP_KERNEL);
	if (!o.r)
		goto out_put;
	o.cap = args->capacity;

	base_line = mem->vram_offset / HSAGPU_DIR_LINE_BYTES;
	first = (mem->vram_offset + args->offset) / HSAGPU_DIR_LINE_BYTES;
	end = DIV_ROUND_UP(mem->vram_offset + args->offset + args->bytes,
			   HSAGPU_DIR_LINE_BYTES);
	ret = hsagpu_enter(hdev);
	if (ret)
		goto out_free;
	mutex_lock(&hdev->ralias_lock);
	stop = hsagpu_dirty_scan(hdev, first, end,
				 args->flags & HSAGPU_DIRTY_CLEAR, base_line, &o);
	mutex_unlock(&hdev->ralias_lock);
	hsagpu_exit(hdev);

	args->count = o.n;
	args->next = stop >= end ? args->offset + args->bytes :
		     max_t(u64, args->offset,
			   (stop - base_line) * HSAGPU_DIR_LINE_BYTES);
	ret = 0;
	if (o.n && copy_to_user(uranges, o.r, o.n * sizeof(*o.r)))
		ret = -EFAULT;
out_free:
	kvfree(o.r);
out_put:
	hsagpu_mem_put(mem);
	return ret;
}
