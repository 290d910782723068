/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers for tests that use /dev/kfd directly, the way libhsakmt does
 * (no ROCr): the first GPU node, its render node, GTT buffers mapped at
 * the same CPU and GPU address, AQL queues on ROCr's amd_queue_t layout.
 */
#ifndef HSAGPU_GTKFD_H
#define HSAGPU_GTKFD_H

#include <stdint.h>
#include <linux/kfd_ioctl.h>

struct gtkfd {
	int fd;                 /* /dev/kfd */
	int drm_fd;             /* its render node */
	uint32_t gpu_id;
};

/* A GTT buffer, CPU address == GPU address. */
struct gtkfd_bo {
	void *p;
	uint64_t size;
	uint64_t handle;
};

/*
 * An AQL queue: ring, amd_queue_t (256 bytes: read_dispatch_id at +0x80,
 * write_dispatch_id at +0x38) and 8 signals in one buffer.
 */
#define GTKFD_RING_PACKETS      64
#define GTKFD_NSIGNALS          8
struct gtkfd_queue {
	struct gtkfd_bo bo;
	uint8_t *ring;
	uint8_t *aq;                    /* amd_queue_t */
	struct hsagpu_signal *signals;
	uint32_t queue_id;
	uint64_t doorbell_offset;
	void *doorbells;                /* the 8 KiB slice */
	volatile uint64_t *doorbell;
	uint64_t wptr;
};

/*
 * ROCm 5.2.3's IPC ioctls (libhsakmt's kfd_ioctl.h; not in the kernel's
 * uapi header): what hsaKmtShareMemory / hsaKmtRegisterSharedHandle use.
 */
struct gtkfd_ipc_export_args {
	uint64_t handle;
	uint32_t share_handle[4];
	uint32_t gpu_id;
	uint32_t flags;
};

struct gtkfd_ipc_import_args {
	uint64_t handle;
	uint64_t va_addr;
	uint64_t mmap_offset;
	uint32_t share_handle[4];
	uint32_t gpu_id;
	uint32_t flags;
};

#define GTKFD_IOC_IPC_IMPORT_HANDLE \
	_IOWR(AMDKFD_IOCTL_BASE, 0x80, struct gtkfd_ipc_import_args)
#define GTKFD_IOC_IPC_EXPORT_HANDLE \
	_IOWR(AMDKFD_IOCTL_BASE, 0x81, struct gtkfd_ipc_export_args)

#define GTKFD_SLICE             8192
#define GTKFD_AQ_WPTR           0x38
#define GTKFD_AQ_RPTR           0x80

/* ioctl's errno, 0 on success */
int gtkfd_ioctl(int fd, unsigned long cmd, void *arg);
/* open /dev/kfd, find the first GPU, ACQUIRE_VM; 0 or a negative errno */
int gtkfd_open(struct gtkfd *k);
void gtkfd_close(struct gtkfd *k);
/* GTT (flags | GTT | WRITABLE | EXECUTABLE), mapped for CPU and GPU */
int gtkfd_bo_alloc(struct gtkfd *k, uint64_t size, struct gtkfd_bo *bo);
/* The same in @domain (KFD_IOC_ALLOC_MEM_FLAGS_GTT or _VRAM) */
int gtkfd_bo_alloc_in(struct gtkfd *k, uint64_t size, uint32_t domain,
		      struct gtkfd_bo *bo);
int gtkfd_bo_free(struct gtkfd *k, struct gtkfd_bo *bo);
/* AQL queue of ring size GTKFD_RING_PACKETS, doorbell mapped */
int gtkfd_queue_create(struct gtkfd *k, struct gtkfd_queue *q);
int gtkfd_queue_destroy(struct gtkfd *k, struct gtkfd_queue *q);
/* write a packet (64 bytes, header last) and ring the doorbell */
void gtkfd_queue_submit(struct gtkfd_queue *q, const void *pkt);
uint64_t gtkfd_queue_rptr(struct gtkfd_queue *q);
/* Sum of a debugfs counter over every hsa-gpu */
uint64_t gtkfd_debugfs_sum(const char *name);

#endif
