// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu_amdgpu: KFD memory ioctls, on hsagpu.ko's allocations and GPU
 * address spaces.
 */
#include "hsagpu_kfd.h"

int hsagpu_kfd_ioctl_alloc_memory(struct hsagpu_kfd_process *p, void *data)
{
	return -EINVAL;
}

int hsagpu_kfd_ioctl_free_memory(struct hsagpu_kfd_process *p, void *data)
{
	return -EINVAL;
}

int hsagpu_kfd_ioctl_map_memory(struct hsagpu_kfd_process *p, void *data)
{
	return -EINVAL;
}

int hsagpu_kfd_ioctl_unmap_memory(struct hsagpu_kfd_process *p, void *data)
{
	return -EINVAL;
}

int hsagpu_kfd_ioctl_available_memory(struct hsagpu_kfd_process *p,
				      void *data)
{
	return -EINVAL;
}

void hsagpu_kfd_mem_release(struct hsagpu_kfd_process *p)
{
}

int hsagpu_kfd_mem_mmap(struct hsagpu_file *hf, struct vm_area_struct *vma)
{
	return -EINVAL;
}
