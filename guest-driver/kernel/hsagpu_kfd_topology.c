// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu_amdgpu: the KFD topology in sysfs.
 */
#include "hsagpu_kfd.h"

int hsagpu_kfd_topology_init(void)
{
	return 0;
}

void hsagpu_kfd_topology_exit(void)
{
}

void hsagpu_kfd_topology_update(void)
{
}
