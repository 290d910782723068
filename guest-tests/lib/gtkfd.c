// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gt.h"
#include "gtkfd.h"

#define TOPO "/sys/devices/virtual/kfd/kfd/topology/nodes"

int gtkfd_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

static int read_u64(const char *path, uint64_t *v)
{
	char buf[64];
	ssize_t r;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return -EIO;
	buf[r] = 0;
	*v = strtoull(buf, NULL, 0);
	return 0;
}

/* "name value" lines of a node's properties file */
static int prop_u64(int node, const char *name, uint64_t *v)
{
	char path[128], line[256], key[128];
	unsigned long long val;
	FILE *f;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), TOPO "/%d/properties", node);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %llu", key, &val) == 2 && !strcmp(key, name)) {
			*v = val;
			ret = 0;
			break;
		}
	fclose(f);
	return ret;
}

int gtkfd_open(struct gtkfd *k)
{
	struct kfd_ioctl_acquire_vm_args acq = { 0 };
	uint64_t id = 0, minor = 0;
	char path[64];
	int node, e;

	memset(k, 0, sizeof(*k));
	k->fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (k->fd < 0)
		return -errno;
	for (node = 0; node < 64; node++) {
		snprintf(path, sizeof(path), TOPO "/%d/gpu_id", node);
		if (read_u64(path, &id))
			break;
		if (id)
			break;
	}
	if (!id || prop_u64(node, "drm_render_minor", &minor))
		return -ENODEV;
	k->gpu_id = id;
	snprintf(path, sizeof(path), "/dev/dri/renderD%llu", (unsigned long long)minor);
	k->drm_fd = open(path, O_RDWR | O_CLOEXEC);
	if (k->drm_fd < 0)
		return -errno;
	acq.drm_fd = k->drm_fd;
	acq.gpu_id = k->gpu_id;
	e = gtkfd_ioctl(k->fd, AMDKFD_IOC_ACQUIRE_VM, &acq);
	return -e;
}

void gtkfd_close(struct gtkfd *k)
{
	close(k->fd);
	close(k->drm_fd);
}

int gtkfd_bo_alloc(struct gtkfd *k, uint64_t size, struct gtkfd_bo *bo)
{
	return gtkfd_bo_alloc_in(k, size, KFD_IOC_ALLOC_MEM_FLAGS_GTT, bo);
}

int gtkfd_bo_alloc_in(struct gtkfd *k, uint64_t size, uint32_t domain,
		      struct gtkfd_bo *bo)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args a = { 0 };
	struct kfd_ioctl_map_memory_to_gpu_args m = { 0 };
	uint32_t ids[1] = { k->gpu_id };
	void *va, *p;
	int e;

	/* a free range of the address space: the GPU VA is the CPU VA */
	va = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (va == MAP_FAILED)
		return -errno;
	a.va_addr = (uintptr_t)va;
	a.size = size;
	a.gpu_id = k->gpu_id;
	a.flags = domain | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE |
		  KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE | KFD_IOC_ALLOC_MEM_FLAGS_COHERENT;
	e = gtkfd_ioctl(k->fd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a);
	if (e) {
		munmap(va, size);
		return -e;
	}
	p = mmap(va, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, k->drm_fd,
		 a.mmap_offset);
	if (p == MAP_FAILED) {
		e = errno;
		munmap(va, size);
		return -e;
	}
	m.handle = a.handle;
	m.device_ids_array_ptr = (uintptr_t)ids;
	m.n_devices = 1;
	e = gtkfd_ioctl(k->fd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m);
	if (e)
		return -e;
	memset(p, 0, size);
	bo->p = p;
	bo->size = size;
	bo->handle = a.handle;
	return 0;
}

int gtkfd_bo_free(struct gtkfd *k, struct gtkfd_bo *bo)
{
	struct kfd_ioctl_unmap_memory_from_gpu_args u = { 0 };
	struct kfd_ioctl_free_memory_of_gpu_args f = { 0 };
	uint32_t ids[1] = { k->gpu_id };
	int e;

	u.handle = bo->handle;
	u.device_ids_array_ptr = (uintptr_t)ids;
	u.n_devices = 1;
	e = gtkfd_ioctl(k->fd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &u);
	if (e)
		return -e;
	munmap(bo->p, bo->size);
	f.handle = bo->handle;
	return -gtkfd_ioctl(k->fd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f);
}

int gtkfd_queue_create(struct gtkfd *k, struct gtkfd_queue *q)
{
	struct kfd_ioctl_create_queue_args a = { 0 };
	uint64_t ring_bytes = GTKFD_RING_PACKETS * 64;
	void *db;
	int e, i;

	memset(q, 0, sizeof(*q));
	e = gtkfd_bo_alloc(k, 64 * 1024, &q->bo);
	if (e)
		return e;
	q->ring = q->bo.p;
	q->aq = (uint8_t *)q->bo.p + ring_bytes;
	q->signals = (struct hsagpu_signal *)(q->aq + 256);
	/* invalid headers: the device stops at them */
	for (i = 0; i < GTKFD_RING_PACKETS; i++)
		*(uint16_t *)(q->ring + i * 64) = HSAGPU_PKT_TYPE_INVALID;
	a.gpu_id = k->gpu_id;
	a.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL;
	a.ring_base_address = (uintptr_t)q->ring;
	a.ring_size = ring_bytes;
	a.read_pointer_address = (uintptr_t)(q->aq + GTKFD_AQ_RPTR);
	a.write_pointer_address = (uintptr_t)(q->aq + GTKFD_AQ_WPTR);
	a.queue_percentage = 100;
	a.queue_priority = 7;
	e = gtkfd_ioctl(k->fd, AMDKFD_IOC_CREATE_QUEUE, &a);
	if (e)
		return -e;
	q->queue_id = a.queue_id;
	q->doorbell_offset = a.doorbell_offset;
	db = mmap(NULL, GTKFD_SLICE, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd,
		  a.doorbell_offset & ~(uint64_t)(GTKFD_SLICE - 1));
	if (db == MAP_FAILED)
		return -errno;
	q->doorbells = db;
	q->doorbell = (volatile uint64_t *)((uint8_t *)db +
					    (a.doorbell_offset & (GTKFD_SLICE - 1)));
	return 0;
}

int gtkfd_queue_destroy(struct gtkfd *k, struct gtkfd_queue *q)
{
	struct kfd_ioctl_destroy_queue_args d = { .queue_id = q->queue_id };
	int e = gtkfd_ioctl(k->fd, AMDKFD_IOC_DESTROY_QUEUE, &d);

	if (q->doorbells)
		munmap(q->doorbells, GTKFD_SLICE);
	return -e;
}

void gtkfd_queue_submit(struct gtkfd_queue *q, const void *pkt)
{
	uint8_t *slot = q->ring + (q->wptr % GTKFD_RING_PACKETS) * 64;
	uint16_t header;

	memcpy(&header, pkt, 2);
	memcpy(slot + 2, (const uint8_t *)pkt + 2, 62);
	__atomic_store_n((uint16_t *)slot, header, __ATOMIC_RELEASE);
	q->wptr++;
	__atomic_store_n((uint64_t *)(q->aq + GTKFD_AQ_WPTR), q->wptr, __ATOMIC_RELEASE);
	/* ROCr writes the packet's index (doorbell type 2) */
	*q->doorbell = q->wptr - 1;
}

uint64_t gtkfd_queue_rptr(struct gtkfd_queue *q)
{
	return __atomic_load_n((uint64_t *)(q->aq + GTKFD_AQ_RPTR), __ATOMIC_ACQUIRE);
}

uint64_t gtkfd_debugfs_sum(const char *name)
{
	char devs[GT_MAX_DEVS][16];
	uint64_t sum = 0, v;
	int n = gt_find_devices(devs), i;

	for (i = 0; i < n; i++)
		if (!gt_debugfs_u64(devs[i], name, &v))
			sum += v;
	return sum;
}
