// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu_amdgpu: KFD memory ioctls, on hsagpu.ko's allocations and GPU
 * address spaces (no memory manager of its own). A buffer (struct
 * hsagpu_kfd_bo) is an hsagpu.ko allocation of the context on the
 * device it was allocated on:
 *  - GTT: SYSTEM memory (driver pages), mmap()ed through the render
 *    node at the returned offset;
 *  - VRAM: the device's VRAM allocator, likewise (all of it is host
 *    visible; PROT_NONE private mappings are accepted);
 *  - USERPTR: registered user memory at the CPU address mmap_offset,
 *    pinned when mapped; its GPU address va_addr may differ.
 * MAP_MEMORY_TO_GPU maps it at va_addr into each listed device's GPU
 * space (on other devices USERPTR through a registration of the same
 * pages there, GTT through a DMA mapping of its pages for that device,
 * VRAM through the peer path, revoked when its device goes),
 * invalidating and waiting for the device on unmap. Errors as amdkfd: unknown gpu_id
 * or handle -EINVAL (MAP/UNMAP: unknown handle -ENOMEM), FREE of a
 * mapped buffer -EBUSY, an overlapping or misaligned VA -EINVAL,
 * DOORBELL -EINVAL and MMIO_REMAP -ENOMEM (libhsakmt then maps the
 * doorbells through /dev/kfd and does without the HDP flush page).
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "hsagpu_kfd.h"

#define HSAGPU_KFD_ALLOC_KINDS  (KFD_IOC_ALLOC_MEM_FLAGS_VRAM | \
				 KFD_IOC_ALLOC_MEM_FLAGS_GTT | \
				 KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | \
				 KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL | \
				 KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP)

static u64 hsagpu_kfd_bo_perms(const struct hsagpu_kfd_bo *bo)
{
	u64 perms = HSAGPU_PTE_READABLE;

	if (bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE)
		perms |= HSAGPU_PTE_WRITEABLE;
	if (bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE)
		perms |= HSAGPU_PTE_EXECUTABLE;
	return perms;
}

/* The buffer @handle of @p, or NULL. p->lock held. */
struct hsagpu_kfd_bo *hsagpu_kfd_bo_find(struct hsagpu_kfd_process *p,
					 u64 handle)
{
	struct hsagpu_kfd_bo *bo;

	lockdep_assert_held(&p->lock);
	bo = idr_find(&p->bos, HSAGPU_KFD_HANDLE_ID(handle));
	if (!bo || bo->pdd->kdev->gpu_id != HSAGPU_KFD_HANDLE_GPU(handle))
		return NULL;
	return bo;
}

int hsagpu_kfd_ioctl_alloc_memory(struct hsagpu_kfd_process *p, void *data)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args *args = data;
	u32 kind = args->flags & HSAGPU_KFD_ALLOC_KINDS;
	struct hsagpu_kfd_pdd *pdd;
	struct hsagpu_kfd_bo *bo;
	struct hsagpu_mem *mem;
	u64 size, end;
	int ret, id;

	if (!args->size)
		return -EINVAL;
	mutex_lock(&p->lock);
	pdd = hsagpu_kfd_pdd_bind(p, args->gpu_id);
	if (IS_ERR(pdd)) {
		ret = PTR_ERR(pdd);
		goto out;
	}
	ret = -EINVAL;
	/* amdgpu: no VM before ACQUIRE_VM */
	if (!pdd->drm_file)
		goto out;
	if (kind == KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP) {
		ret = args->size == PAGE_SIZE ? -ENOMEM : -EINVAL;
		goto out;
	}
	if (kind != KFD_IOC_ALLOC_MEM_FLAGS_VRAM &&
	    kind != KFD_IOC_ALLOC_MEM_FLAGS_GTT &&
	    kind != KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)
		goto out;
	size = PAGE_ALIGN(args->size);
	if (!size || !PAGE_ALIGNED(args->va_addr) ||
	    check_add_overflow(args->va_addr, size, &end) ||
	    end > HSAGPU_KFD_GPUVM_LIMIT + 1)
		goto out;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo) {
		ret = -ENOMEM;
		goto out;
	}
	INIT_LIST_HEAD(&bo->maps);
	bo->pdd = pdd;
	bo->flags = args->flags;
	bo->va = args->va_addr;
	bo->size = size;
	if (kind == KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) {
		bo->cpu_addr = args->mmap_offset;
		mem = hsagpu_userptr_create(pdd->hf, bo->cpu_addr, size,
					    !(bo->flags &
					      KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE));
	} else {
		mem = hsagpu_mem_alloc(pdd->hf, kind == KFD_IOC_ALLOC_MEM_FLAGS_VRAM ?
				       HSAGPU_MEM_VRAM : HSAGPU_MEM_SYSTEM, size);
	}
	if (IS_ERR(mem)) {
		ret = PTR_ERR(mem);
		/* amdgpu says ENOMEM for sizes it cannot back */
		if (ret == -E2BIG)
			ret = -ENOMEM;
		kfree(bo);
		goto out;
	}
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
	args->handle = HSAGPU_KFD_HANDLE(pdd->kdev->gpu_id, id);
	pr_debug("alloc %u: flags 0x%x va 0x%llx size 0x%llx cpu 0x%llx\n",
		 id, bo->flags, bo->va, bo->size, bo->cpu_addr);
	if (kind != KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)
		args->mmap_offset = hsagpu_mem_mmap_offset(mem);
	ret = 0;
out:
	mutex_unlock(&p->lock);
	return ret;
}

/* Out of one device's GPU space. p->lock held. */
static int hsagpu_kfd_bo_unmap_one(struct hsagpu_kfd_bo *bo,
				   struct hsagpu_kfd_bo_map *m)
{
	int ret = 0;

	if (m->peer)
		hsagpu_peer_unmap_mem(m->pdd->hf, m->peer);
	else
		ret = hsagpu_mem_gpu_unmap(m->pdd->hf, m->mem);
	if (ret == -EBUSY)
		return ret;     /* a queue lives in it: stays mapped */

	pr_debug("unmap %u: va 0x%llx on gpu %u: %d\n", bo->id, bo->va,
		 m->pdd->kdev->gpu_id, ret);
	if (m->mem != bo->mem && !m->peer) {
		hsagpu_mem_free_handle(m->pdd->hf, m->mem);
		hsagpu_mem_put(m->mem);
	}
	list_del(&m->node);
	kfree(m);
	return ret;
}

static void hsagpu_kfd_bo_destroy(struct hsagpu_kfd_process *p,
				  struct hsagpu_kfd_bo *bo)
{
	struct hsagpu_kfd_bo_map *m, *tmp;

	list_for_each_entry_safe(m, tmp, &bo->maps, node)
		hsagpu_kfd_bo_unmap_one(bo, m);
	idr_remove(&p->bos, bo->id);
	hsagpu_mem_free_handle(bo->pdd->hf, bo->mem);
	hsagpu_mem_put(bo->mem);
	if (bo->ipc)
		hsagpu_kfd_ipc_put(bo->ipc);
	kfree(bo);
}

int hsagpu_kfd_ioctl_free_memory(struct hsagpu_kfd_process *p, void *data)
{
	struct kfd_ioctl_free_memory_of_gpu_args *args = data;
	struct hsagpu_kfd_bo *bo;
	int ret = 0;

	mutex_lock(&p->lock);
	bo = hsagpu_kfd_bo_find(p, args->handle);
	/* amdkfd: the event page goes with the process only */
	if (hsagpu_kfd_event_page_is(p, args->handle))
		ret = -EPERM;
	else if (!bo)
		ret = -EINVAL;
	else if (!list_empty(&bo->maps))
		ret = -EBUSY;   /* amdgpu: still mapped */
	else
		hsagpu_kfd_bo_destroy(p, bo);
	mutex_unlock(&p->lock);
	return ret;
}

/* The map of @bo on @pdd, or NULL. */
static struct hsagpu_kfd_bo_map *hsagpu_kfd_bo_map_find(struct hsagpu_kfd_bo *bo,
							struct hsagpu_kfd_pdd *pdd)
{
	struct hsagpu_kfd_bo_map *m;

	list_for_each_entry(m, &bo->maps, node)
		if (m->pdd == pdd)
			return m;
	return NULL;
}

/* Into @pdd's GPU space at bo->va; already there: 0. p->lock held. */
static int hsagpu_kfd_bo_map_one(struct hsagpu_kfd_bo *bo,
				 struct hsagpu_kfd_pdd *pdd)
{
	struct hsagpu_kfd_bo_map *m;
	struct hsagpu_mem *mem = bo->mem;
	int ret;

	if (hsagpu_kfd_bo_map_find(bo, pdd))
		return 0;
	if (pdd != bo->pdd && bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM) {
		/* another device's VRAM: through the peer path */
		struct hsagpu_peer *peer;

		if (!pdd->drm_file)
			return -EINVAL;
		m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
		if (!m)
			return -ENOMEM;
		peer = hsagpu_peer_map_mem(pdd->hf, bo->mem, bo->va,
					   hsagpu_kfd_bo_perms(bo));
		if (IS_ERR(peer)) {
			kfree(m);
			ret = PTR_ERR(peer);
			return ret == -EBUSY ? -EINVAL : ret;
		}
		m->pdd = pdd;
		m->mem = bo->mem;
		m->peer = peer;
		list_add_tail(&m->node, &bo->maps);
		return 0;
	}
	if (pdd != bo->pdd) {
		/*
		 * Another device reaches registered pages through a
		 * registration of its own, GTT pages through a DMA mapping
		 * of its own.
		 */
		if (!pdd->drm_file)
			return -EINVAL;
		if (bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)
			mem = hsagpu_userptr_create(pdd->hf, bo->cpu_addr,
						    bo->size,
						    !(bo->flags &
						      KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE));
		else
			mem = hsagpu_mem_alias(pdd->hf, bo->mem);
		if (IS_ERR(mem))
			return PTR_ERR(mem);
	}
	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	ret = m ? hsagpu_mem_gpu_map(pdd->hf, mem, bo->va,
				     hsagpu_kfd_bo_perms(bo)) : -ENOMEM;
	if (ret) {
		kfree(m);
		if (mem != bo->mem) {
			hsagpu_mem_free_handle(pdd->hf, mem);
			hsagpu_mem_put(mem);
		}
		pr_debug("map %u: va 0x%llx on gpu %u: %d\n", bo->id, bo->va,
			 pdd->kdev->gpu_id, ret);
		/* amdgpu_vm_bo_map(): a VA range in use is -EINVAL */
		return ret == -EBUSY ? -EINVAL : ret;
	}
	m->pdd = pdd;
	m->mem = mem;
	list_add_tail(&m->node, &bo->maps);
	pr_debug("map %u: va 0x%llx size 0x%llx on gpu %u\n", bo->id, bo->va,
		 bo->size, pdd->kdev->gpu_id);
	return 0;
}

/*
 * MAP and UNMAP: devices from n_success on, n_success counting those
 * done (a caller retries from there after an error, as with amdkfd).
 */
static int hsagpu_kfd_map_unmap(struct hsagpu_kfd_process *p,
				struct kfd_ioctl_map_memory_to_gpu_args *args,
				bool map)
{
	struct hsagpu_kfd_bo_map *m;
	struct hsagpu_kfd_pdd *pdd;
	struct hsagpu_kfd_bo *bo;
	u32 *ids, i;
	int ret = 0;

	if (!args->n_devices || args->n_success > args->n_devices)
		return -EINVAL;
	/* more than there can be devices: hostile, not worth a copy */
	if (args->n_devices > HSAGPU_KFD_MAX_DEVICES * 16)
		return -EINVAL;
	ids = memdup_user(u64_to_user_ptr(args->device_ids_array_ptr),
			  args->n_devices * sizeof(*ids));
	if (IS_ERR(ids))
		return PTR_ERR(ids);
	mutex_lock(&p->lock);
	bo = hsagpu_kfd_bo_find(p, args->handle);
	if (!bo) {
		ret = -ENOMEM;  /* amdkfd's answer for an unknown handle */
		goto out;
	}
	for (i = args->n_success; i < args->n_devices; i++) {
		/* a removed device's buffers can still be unmapped */
		pdd = map ? hsagpu_kfd_pdd_bind(p, ids[i]) :
		      hsagpu_kfd_pdd_find(p, ids[i]) ?: ERR_PTR(-EINVAL);
		if (IS_ERR(pdd)) {
			ret = PTR_ERR(pdd);
			break;
		}
		if (map) {
			ret = hsagpu_kfd_bo_map_one(bo, pdd);
		} else {
			m = hsagpu_kfd_bo_map_find(bo, pdd);
			ret = m ? hsagpu_kfd_bo_unmap_one(bo, m) : -EINVAL;
		}
		if (ret)
			break;
		args->n_success = i + 1;
	}
out:
	mutex_unlock(&p->lock);
	kfree(ids);
	return ret;
}

int hsagpu_kfd_ioctl_map_memory(struct hsagpu_kfd_process *p, void *data)
{
	return hsagpu_kfd_map_unmap(p, data, true);
}

static_assert(sizeof(struct kfd_ioctl_map_memory_to_gpu_args) ==
	      sizeof(struct kfd_ioctl_unmap_memory_from_gpu_args));

int hsagpu_kfd_ioctl_unmap_memory(struct hsagpu_kfd_process *p, void *data)
{
	return hsagpu_kfd_map_unmap(p, data, false);
}

/* Free VRAM of the device (amdgpu: what an allocation could still get). */
int hsagpu_kfd_ioctl_available_memory(struct hsagpu_kfd_process *p,
				      void *data)
{
	struct kfd_ioctl_get_available_memory_args *args = data;
	struct hsagpu_kfd_pdd *pdd = hsagpu_kfd_pdd_bind(p, args->gpu_id);

	if (IS_ERR(pdd))
		return PTR_ERR(pdd);
	args->available = hsagpu_device_vram_avail(pdd->kdev->hdev);
	return 0;
}

/* Teardown: every buffer out of every GPU space, then freed. */
void hsagpu_kfd_mem_release(struct hsagpu_kfd_process *p)
{
	struct hsagpu_kfd_bo *bo;
	int id;

	lockdep_assert_held(&p->lock);
	idr_for_each_entry(&p->bos, bo, id)
		hsagpu_kfd_bo_destroy(p, bo);
}

int hsagpu_kfd_mem_mmap(struct hsagpu_file *hf, struct vm_area_struct *vma)
{
	return hsagpu_mem_mmap_cpu(hf, vma);
}
