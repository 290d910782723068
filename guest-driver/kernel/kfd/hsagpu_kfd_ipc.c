// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu_amdgpu: IPC handles, as ROCm 5.2.3 uses them. hsa_amd_ipc_memory_
 * create() and _attach() (hipIpcGetMemHandle(), hipIpcOpenMemHandle())
 * call libhsakmt's hsaKmtShareMemory() and hsaKmtRegisterSharedHandle(),
 * which issue IPC_EXPORT_HANDLE (0x81) and IPC_IMPORT_HANDLE (0x80): the
 * ioctls of ROCm's own (DKMS) amdkfd, kfd_ipc.c, which upstream never
 * took (there they are -ENOTTY, and IPC fails). Their semantics here are
 * the DKMS driver's:
 *
 *  - EXPORT names a buffer of the caller (handle and gpu_id, as MAP
 *    does) and returns a 128-bit share handle, random: knowing it is
 *    what lets another process import the buffer, as with the DKMS
 *    driver. Exporting the same buffer again returns the same handle.
 *    The caller's 32-bit flags (libhsakmt's HsaMemFlags) are kept and
 *    handed to importers. Unknown gpu_id or handle -EINVAL; registered
 *    user memory cannot be shared (-EINVAL: amdgpu refuses to export a
 *    userptr), nor can the event page (-EINVAL; amdkfd never lets it
 *    go).
 *  - IMPORT finds the handle (-EINVAL when no live buffer has it),
 *    which must be of the device named by gpu_id (-EINVAL), and makes a
 *    buffer of the caller at va_addr on that device over the same
 *    memory: VRAM by reference to the same range, GTT pages mapped for
 *    the caller's context; it needs ACQUIRE_VM first (-EINVAL), a page
 *    aligned va_addr whose range ends inside the GPUVM range (-EINVAL),
 *    as ALLOC_MEMORY_OF_GPU's. It returns the
 *    buffer's handle, its render-node mmap offset and the exporter's
 *    flags. The buffer is then the importer's like any other (MAP,
 *    UNMAP, FREE, also on other devices as peer memory).
 *
 * An export lives as long as a buffer made from it does (the exported
 * one or an imported one); the memory lives as long as any of them.
 * Handles are compared in full under one lock; a process can only reach
 * memory through a handle somebody gave it.
 */
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "hsagpu_kfd.h"

struct hsagpu_kfd_ipc {
	struct kref ref;                /* buffers made from it */
	struct list_head node;          /* hsagpu_kfd_ipcs */
	u32 share[4];
	u32 gpu_id;
	u32 flags;                      /* libhsakmt's, given at export */
	u32 bo_flags;                   /* the buffer's KFD_IOC_ALLOC_MEM_* */
	u64 size;
	struct hsagpu_mem *mem;         /* referenced */
};

static LIST_HEAD(hsagpu_kfd_ipcs);
/* Taken inside hsagpu_kfd_process.lock (a buffer's last put). */
static DEFINE_MUTEX(hsagpu_kfd_ipc_lock);

static struct hsagpu_kfd_ipc *hsagpu_kfd_ipc_lookup(const u32 *share)
{
	struct hsagpu_kfd_ipc *ipc;

	lockdep_assert_held(&hsagpu_kfd_ipc_lock);
	list_for_each_entry(ipc, &hsagpu_kfd_ipcs, node)
		if (!memcmp(ipc->share, share, sizeof(ipc->share)))
			return ipc;
	return NULL;
}

static void hsagpu_kfd_ipc_free(struct kref *ref)
{
	struct hsagpu_kfd_ipc *ipc = container_of(ref, struct hsagpu_kfd_ipc,
						  ref);

	list_del(&ipc->node);
	mutex_unlock(&hsagpu_kfd_ipc_lock);
	hsagpu_mem_put(ipc->mem);
	kfree(ipc);
}

/* A buffer made from @ipc goes. */
void hsagpu_kfd_ipc_put(struct hsagpu_kfd_ipc *ipc)
{
	kref_put_mutex(&ipc->ref, hsagpu_kfd_ipc_free, &hsagpu_kfd_ipc_lock);
}

int hsagpu_kfd_ioctl_ipc_export(struct hsagpu_kfd_process *p, void *data)
{
	struct hsagpu_kfd_ipc_export_handle_args *args = data;
	struct hsagpu_kfd_ipc *ipc;
	struct hsagpu_kfd_pdd *pdd;
	struct hsagpu_kfd_bo *bo;
	int ret = 0;

	mutex_lock(&p->lock);
	pdd = hsagpu_kfd_pdd_bind(p, args->gpu_id);
	if (IS_ERR(pdd)) {
		ret = PTR_ERR(pdd);
		goto out;
	}
	bo = hsagpu_kfd_bo_find(p, args->handle);
	if (!bo || bo->pdd != pdd ||
	    (bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) ||
	    hsagpu_kfd_event_page_is(p, args->handle)) {
		ret = -EINVAL;
		goto out;
	}
	if (!bo->ipc) {
		ipc = kzalloc(sizeof(*ipc), GFP_KERNEL_ACCOUNT);
		if (!ipc) {
			ret = -ENOMEM;
			goto out;
		}
		kref_init(&ipc->ref);          /* the exported buffer's */
		ipc->gpu_id = pdd->kdev->gpu_id;
		ipc->flags = args->flags;
		ipc->bo_flags = bo->flags;
		ipc->size = bo->size;
		hsagpu_mem_get(bo->mem);
		ipc->mem = bo->mem;
		mutex_lock(&hsagpu_kfd_ipc_lock);
		do {
			get_random_bytes(ipc->share, sizeof(ipc->share));
		} while (hsagpu_kfd_ipc_lookup(ipc->share));
		list_add_tail(&ipc->node, &hsagpu_kfd_ipcs);
		mutex_unlock(&hsagpu_kfd_ipc_lock);
		bo->ipc = ipc;
	}
	memcpy(args->share_handle, bo->ipc->share, sizeof(args->share_handle));
out:
	mutex_unlock(&p->lock);
	return ret;
}

int hsagpu_kfd_ioctl_ipc_import(struct hsagpu_kfd_process *p, void *data)
{
	struct hsagpu_kfd_ipc_import_handle_args *args = data;
	struct hsagpu_kfd_pdd *pdd;
	struct hsagpu_kfd_ipc *ipc;
	struct hsagpu_kfd_bo *bo;
	struct hsagpu_mem *mem;
	u64 end;
	int ret, id;

	mutex_lock(&hsagpu_kfd_ipc_lock);
	ipc = hsagpu_kfd_ipc_lookup(args->share_handle);
	if (ipc)
		kref_get(&ipc->ref);
	mutex_unlock(&hsagpu_kfd_ipc_lock);
	if (!ipc)
		return -EINVAL;

	mutex_lock(&p->lock);
	pdd = hsagpu_kfd_pdd_bind(p, args->gpu_id);
	if (IS_ERR(pdd)) {
		ret = PTR_ERR(pdd);
		goto out;
	}
	ret = -EINVAL;
	/* another device's memory is imported on its own device only */
	if (ipc->gpu_id != args->gpu_id || !pdd->drm_file)
		goto out;
	/* ALLOC_MEMORY_OF_GPU's checks of a VA */
	if (!PAGE_ALIGNED(args->va_addr) ||
	    check_add_overflow(args->va_addr, ipc->size, &end) ||
	    end > HSAGPU_KFD_GPUVM_LIMIT + 1)
		goto out;
	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo) {
		ret = -ENOMEM;
		goto out;
	}
	mem = hsagpu_mem_share(pdd->hf, ipc->mem);
	if (IS_ERR(mem)) {
		ret = PTR_ERR(mem);
		kfree(bo);
		goto out;
	}
	INIT_LIST_HEAD(&bo->maps);
	bo->pdd = pdd;
	bo->flags = ipc->bo_flags;
	bo->va = args->va_addr;
	bo->size = ipc->size;
	bo->mem = mem;
	id = idr_alloc_cyclic(&p->bos, bo, 1, INT_MAX, GFP_KERNEL);
	if (id < 0) {
		ret = id;
		hsagpu_mem_free_handle(pdd->hf, mem);
		hsagpu_mem_put(mem);
		kfree(bo);
		goto out;
	}
	bo->id = id;
	bo->ipc = ipc;                  /* the lookup's reference */
	ipc = NULL;
	args->handle = HSAGPU_KFD_HANDLE(pdd->kdev->gpu_id, id);
	args->mmap_offset = hsagpu_mem_mmap_offset(mem);
	args->flags = bo->ipc->flags;
	ret = 0;
out:
	mutex_unlock(&p->lock);
	if (ipc)
		hsagpu_kfd_ipc_put(ipc);
	return ret;
}
