// SPDX-License-Identifier: GPL-2.0-or-later
/* Raw ioctls of the guest tests: see gtioctl.h. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "gtioctl.h"

int gti_ioctl(int fd, unsigned long cmd, void *arg)
{
	errno = 0;
	return ioctl(fd, cmd, arg) ? errno : 0;
}

int gti_alloc(int fd, uint32_t flags, uint64_t bytes,
	      struct hsagpu_alloc_mem *am)
{
	memset(am, 0, sizeof(*am));
	am->size = sizeof(*am);
	am->flags = flags;
	am->bytes = bytes;
	return gti_ioctl(fd, HSAGPU_IOC_ALLOC_MEM, am);
}

int gti_free(int fd, uint64_t handle)
{
	struct hsagpu_free_mem fm = { .size = sizeof(fm), .handle = handle };

	return gti_ioctl(fd, HSAGPU_IOC_FREE_MEM, &fm);
}

int gti_peer_access(int fd, int peer_fd, struct hsagpu_peer_access *pa)
{
	memset(pa, 0, sizeof(*pa));
	pa->size = sizeof(*pa);
	pa->peer_fd = peer_fd;
	return gti_ioctl(fd, HSAGPU_IOC_PEER_ACCESS, pa);
}

int gti_event_create(int fd, uint32_t *id, uint64_t *mailbox)
{
	struct hsagpu_create_event ce = { .size = sizeof(ce) };
	int ret = gti_ioctl(fd, HSAGPU_IOC_CREATE_EVENT, &ce);

	if (!ret) {
		*id = ce.event_id;
		if (mailbox)
			*mailbox = ce.mailbox_addr;
	}
	return ret;
}

int gti_event_destroy(int fd, uint32_t id)
{
	struct hsagpu_event_id e = { .size = sizeof(e), .event_id = id };

	return gti_ioctl(fd, HSAGPU_IOC_DESTROY_EVENT, &e);
}

int gti_event_set(int fd, uint32_t id)
{
	struct hsagpu_event_id e = { .size = sizeof(e), .event_id = id };

	return gti_ioctl(fd, HSAGPU_IOC_SET_EVENT, &e);
}

int gti_event_wait(int fd, const uint32_t *ids, uint32_t n, uint32_t flags,
		   uint32_t timeout_ms, uint64_t *signaled)
{
	struct hsagpu_wait_events w = {
		.size = sizeof(w), .flags = flags,
		.events_ptr = (uintptr_t)ids, .num_events = n,
		.timeout_ms = timeout_ms,
	};
	int ret = gti_ioctl(fd, HSAGPU_IOC_WAIT_EVENTS, &w);

	if (signaled)
		*signaled = w.signaled;
	return ret;
}
