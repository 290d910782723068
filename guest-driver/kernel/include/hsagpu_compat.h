/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hsagpu: the kernel APIs that changed between the kernels the driver
 * builds for (Debian bookworm's 6.1 and bookworm-backports' 6.12). Each
 * helper is named after, and behaves as, the newer kernel's API.
 */
#ifndef HSAGPU_COMPAT_H
#define HSAGPU_COMPAT_H

#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/version.h>

/* 6.3 made vma->vm_flags read-only; writes go through these. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}

static inline void vm_flags_clear(struct vm_area_struct *vma,
				  vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}
#endif

/*
 * The largest order the page allocator hands out: MAX_ORDER - 1 until
 * 6.4, MAX_ORDER (now inclusive) in 6.4-6.7, MAX_PAGE_ORDER from 6.8.
 */
#if defined(MAX_PAGE_ORDER)
#define HSAGPU_MAX_PAGE_ORDER   MAX_PAGE_ORDER
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define HSAGPU_MAX_PAGE_ORDER   MAX_ORDER
#else
#define HSAGPU_MAX_PAGE_ORDER   (MAX_ORDER - 1)
#endif

/* 6.4 dropped class_create()'s module argument. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 4, 0)
#define hsagpu_class_create(name)       class_create(THIS_MODULE, name)
#else
#define hsagpu_class_create(name)       class_create(name)
#endif

#endif
