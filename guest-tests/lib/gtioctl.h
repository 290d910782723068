/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Raw ioctls of the guest tests, below libhsagpu: every helper returns 0
 * or the positive errno, so that a test can compare it with what the
 * interface must answer.
 */
#ifndef HSAGPU_GTIOCTL_H
#define HSAGPU_GTIOCTL_H

#include <stdint.h>

#include "hsagpu/hsagpu_uapi.h"

/* ioctl(@fd, @cmd, @arg): 0 or errno. */
int gti_ioctl(int fd, unsigned long cmd, void *arg);

/* ALLOC_MEM of @bytes with @flags (HSAGPU_MEM_*); @am is filled in. */
int gti_alloc(int fd, uint32_t flags, uint64_t bytes,
	      struct hsagpu_alloc_mem *am);
/* FREE_MEM of @handle. */
int gti_free(int fd, uint64_t handle);

/* PEER_ACCESS from @fd's device to @peer_fd's; @pa is filled in. */
int gti_peer_access(int fd, int peer_fd, struct hsagpu_peer_access *pa);

/* CREATE_EVENT; the id in *@id (and the slot's bus address in *@mailbox). */
int gti_event_create(int fd, uint32_t *id, uint64_t *mailbox);
int gti_event_destroy(int fd, uint32_t id);
int gti_event_set(int fd, uint32_t id);
/* WAIT_EVENTS on @n ids (any, or all with HSAGPU_WAIT_ALL in @flags);
 * the signaled mask in *@signaled when not NULL. */
int gti_event_wait(int fd, const uint32_t *ids, uint32_t n, uint32_t flags,
		   uint32_t timeout_ms, uint64_t *signaled);

#endif
