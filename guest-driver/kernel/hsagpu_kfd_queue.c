// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu_amdgpu: KFD queues and doorbells (owner: the kfdq work). Until
 * they exist every queue ioctl answers like an ioctl amdkfd does not
 * have.
 */
#include "hsagpu_kfd.h"

int hsagpu_kfd_ioctl_create_queue(struct hsagpu_kfd_process *p, void *data)
{
	return -EINVAL;
}

int hsagpu_kfd_ioctl_destroy_queue(struct hsagpu_kfd_process *p, void *data)
{
	return -EINVAL;
}

int hsagpu_kfd_ioctl_update_queue(struct hsagpu_kfd_process *p, void *data)
{
	return -EINVAL;
}

int hsagpu_kfd_ioctl_set_cu_mask(struct hsagpu_kfd_process *p, void *data)
{
	return -EINVAL;
}

int hsagpu_kfd_ioctl_get_queue_wave_state(struct hsagpu_kfd_process *p,
					  void *data)
{
	return -EINVAL;
}

int hsagpu_kfd_ioctl_alloc_queue_gws(struct hsagpu_kfd_process *p,
				     void *data)
{
	return -EINVAL;
}

/* /dev/kfd mmap(): doorbell pages (and events on APUs) in amdkfd. */
int hsagpu_kfd_mmap(struct hsagpu_kfd_process *p, struct vm_area_struct *vma)
{
	return -EINVAL;
}

void hsagpu_kfd_queue_release(struct hsagpu_kfd_process *p)
{
}
