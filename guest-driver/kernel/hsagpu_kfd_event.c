// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu_amdgpu: KFD events (owner: the kfdq work). Until they exist
 * every event ioctl answers like an ioctl amdkfd does not have.
 */
#include "hsagpu_kfd.h"

int hsagpu_kfd_ioctl_create_event(struct hsagpu_kfd_process *p, void *data)
{
	return -EINVAL;
}

int hsagpu_kfd_ioctl_destroy_event(struct hsagpu_kfd_process *p, void *data)
{
	return -EINVAL;
}

int hsagpu_kfd_ioctl_set_event(struct hsagpu_kfd_process *p, void *data)
{
	return -EINVAL;
}

int hsagpu_kfd_ioctl_reset_event(struct hsagpu_kfd_process *p, void *data)
{
	return -EINVAL;
}

int hsagpu_kfd_ioctl_wait_events(struct hsagpu_kfd_process *p, void *data)
{
	return -EINVAL;
}

void hsagpu_kfd_event_release(struct hsagpu_kfd_process *p)
{
}
