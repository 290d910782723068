// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: system memory the device reaches (SYSTEM allocations and event
 * pages). The driver owns the pages and maps them for the device with
 * dma_map_sgtable(); the two have separate lifetimes:
 *
 *  - the DMA mapping belongs to the bound device. remove() unmaps every
 *    buffer that is still mapped (hsagpu_sysbufs_unmap()), because after
 *    remove() the device may be gone from its IOMMU: a DMA-API call then
 *    takes the direct path and would free or sync the page whose
 *    physical address equals the IOVA;
 *  - the pages belong to the driver's object (an allocation, a file's
 *    event page) and to every user page table entry that maps them
 *    (each holds a page reference), so they outlive the device for as
 *    long as somebody uses them.
 *
 * Pages come in chunks of the highest order that works (never below
 * @min_order), split so that each can be mapped on its own. This relies
 * on a DMA-coherent platform, as the rest of the driver does. Pages and
 * tables are charged to the caller's memory cgroup.
 */
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "hsagpu.h"

#define HSAGPU_SYSBUF_MAX_ORDER min(HSAGPU_MAX_PAGE_ORDER, 22 - PAGE_SHIFT)

static void hsagpu_sysbuf_put_pages(struct hsagpu_sysbuf *b, unsigned long n)
{
	/* A page still mapped by user space stays until it is unmapped. */
	while (n)
		put_page(b->pages[--n]);
	kvfree(b->pages);
	b->pages = NULL;
}

/*
 * Zeroed pages for @b->npages, in chunks of at least @min_order (the last
 * may be smaller); -ENOMEM, or -EINTR when killed meanwhile.
 */
static int hsagpu_sysbuf_get_pages(struct hsagpu_device *hdev,
				   struct hsagpu_sysbuf *b,
				   unsigned int min_order, gfp_t gfp)
{
	unsigned long npages = b->npages, i = 0, j, n;
	unsigned int order = max_t(unsigned int, min_order,
				   HSAGPU_SYSBUF_MAX_ORDER);
	struct page *page;

	/* Never let the DMA API bounce: allocate below a small mask. */
	if (dma_addressing_limited(&hdev->pdev->dev))
		gfp |= GFP_DMA32;
	b->pages = kvmalloc_array(npages, sizeof(*b->pages),
				  HSAGPU_GFP_ACCOUNT);
	if (!b->pages)
		return -ENOMEM;
	while (i < npages) {
		order = min_t(unsigned int, order,
			      get_order((npages - i) << PAGE_SHIFT));
		for (;;) {
			/* Orders above the minimum are only worth a try. */
			page = alloc_pages(order > min_order ?
					   gfp | __GFP_NORETRY :
					   gfp | __GFP_RETRY_MAYFAIL, order);
			if (page || order <= min_order)
				break;
			order--;
		}
		if (!page)
			goto fail;
		split_page(page, order);
		n = min(1UL << order, npages - i);
		for (j = 0; j < n; j++)
			b->pages[i + j] = page + j;
		for (; j < 1UL << order; j++)
			__free_page(page + j);
		i += n;
		if (fatal_signal_pending(current)) {
			hsagpu_sysbuf_put_pages(b, i);
			return -EINTR;
		}
		cond_resched();
	}
	return 0;
fail:
	hsagpu_sysbuf_put_pages(b, i);
	return -ENOMEM;
}

/*
 * @size bytes (page aligned) of zeroed, DMA-mapped system memory;
 * physically contiguous when @contig. The caller is inside
 * hsagpu_enter(): the device is bound and stays so meanwhile.
 */
int hsagpu_sysbuf_alloc(struct hsagpu_device *hdev, struct hsagpu_sysbuf *b,
			size_t size, bool contig)
{
	gfp_t gfp = GFP_USER | __GFP_ACCOUNT | __GFP_ZERO | __GFP_NOWARN;
	int ret;

	INIT_LIST_HEAD(&b->node);
	b->npages = size >> PAGE_SHIFT;
	ret = hsagpu_sysbuf_get_pages(hdev, b,
				      contig ? get_order(size) :
				      HSAGPU_SYSBUF_MIN_ORDER, gfp);
	if (ret)
		return ret;
	ret = hsagpu_sysbuf_map(hdev, b);
	if (ret)
		hsagpu_sysbuf_put_pages(b, b->npages);
	return ret;
}

/*
 * Map @b->pages (@b->npages of them, the caller's) for the device and
 * list the buffer for remove(). Inside hsagpu_enter().
 */
int hsagpu_sysbuf_map(struct hsagpu_device *hdev, struct hsagpu_sysbuf *b)
{
	int ret;

	INIT_LIST_HEAD(&b->node);
	ret = sg_alloc_table_from_pages_segment(&b->sgt, b->pages, b->npages,
						0, b->npages << PAGE_SHIFT,
						UINT_MAX & PAGE_MASK,
						HSAGPU_GFP_ACCOUNT);
	if (ret)
		return ret;
	ret = dma_map_sgtable(&hdev->pdev->dev, &b->sgt, DMA_BIDIRECTIONAL, 0);
	if (ret) {
		sg_free_table(&b->sgt);
		return ret;
	}
	mutex_lock(&hdev->dma_lock);
	list_add_tail(&b->node, &hdev->sysbufs);
	b->mapped = true;
	mutex_unlock(&hdev->dma_lock);
	return 0;
}

/* Caller holds hdev->dma_lock. */
static void hsagpu_sysbuf_unmap(struct hsagpu_device *hdev,
				struct hsagpu_sysbuf *b)
{
	lockdep_assert_held(&hdev->dma_lock);
	if (!b->mapped)
		return;
	dma_unmap_sgtable(&hdev->pdev->dev, &b->sgt, DMA_BIDIRECTIONAL, 0);
	list_del_init(&b->node);
	b->mapped = false;
}

/*
 * The last driver user lets go: unmap unless remove() already did, free
 * the table and drop the driver's page references.
 */
void hsagpu_sysbuf_free(struct hsagpu_device *hdev, struct hsagpu_sysbuf *b)
{
	if (!b->pages)
		return;
	hsagpu_sysbuf_unmap_table(hdev, b);
	hsagpu_sysbuf_put_pages(b, b->npages);
}

/* Undo hsagpu_sysbuf_map() (unless remove() unmapped); pages stay. */
void hsagpu_sysbuf_unmap_table(struct hsagpu_device *hdev,
			       struct hsagpu_sysbuf *b)
{
	mutex_lock(&hdev->dma_lock);
	hsagpu_sysbuf_unmap(hdev, b);
	mutex_unlock(&hdev->dma_lock);
	sg_free_table(&b->sgt);
}

/*
 * remove(): the device no longer runs queues; take every mapping away
 * while the DMA API still knows the device. The pages stay.
 */
void hsagpu_sysbufs_unmap(struct hsagpu_device *hdev)
{
	struct hsagpu_sysbuf *b, *tmp;

	mutex_lock(&hdev->dma_lock);
	list_for_each_entry_safe(b, tmp, &hdev->sysbufs, node)
		hsagpu_sysbuf_unmap(hdev, b);
	mutex_unlock(&hdev->dma_lock);
}

/* A user mapping of @b: pages are inserted at fault time, referenced. */
vm_fault_t hsagpu_sysbuf_fault(struct hsagpu_sysbuf *b, pgoff_t page,
			       struct vm_fault *vmf)
{
	if (page >= b->npages)
		return VM_FAULT_SIGBUS;
	vmf->page = b->pages[page];
	get_page(vmf->page);
	return 0;
}
