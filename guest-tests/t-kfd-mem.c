// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-kfd-mem: /dev/kfd's process, VM and memory ioctls as libhsakmt 5.2.3
 * uses them, with amdkfd's answers to hostile arguments, on the first
 * device of the KFD topology:
 *  - GET_VERSION 1.4; GET_PROCESS_APERTURES(_NEW): one entry per device
 *    with the gfx9 apertures; GET_CLOCK_COUNTERS for gpu_id 0 (no GPU
 *    counter, 1 GHz) and for the device (its TIMESTAMP, not going back);
 *    SET_MEMORY_POLICY / SET_SCRATCH_BACKING_VA / SET_TRAP_HANDLER;
 *    unknown gpu_ids -EINVAL; unsupported ioctls -ENOTTY / -EPERM;
 *  - ACQUIRE_VM: only a render node of that device, one per process;
 *    no allocation before it;
 *  - GTT and VRAM allocations mmap()ed through the render node (data
 *    written there reads back; wrong offset, length, file or a private
 *    writable mapping refused; a PROT_NONE private VRAM mapping works),
 *    USERPTR with a GPU VA unlike its CPU address;
 *  - MAP/UNMAP put the allocation in and out of the device's GPU space
 *    (the driver's debugfs "vm" line of this process counts mappings),
 *    n_success semantics, overlapping VAs, FREE of a mapped buffer,
 *    unknown and foreign handles;
 *  - IPC handles (ROCm's IPC_EXPORT_HANDLE / IPC_IMPORT_HANDLE): GTT and
 *    VRAM buffers exported (the same share handle twice), imported by
 *    this process and by a child at a VA of their own, mmap()ed and
 *    mapped there, the same memory both ways; hostile arguments (unknown
 *    handle, gpu_id or share handle, USERPTR, VA unaligned or out of
 *    range, no ACQUIRE_VM) refused with EINVAL; the memory outlives the
 *    exporter's FREE while imported, and is gone with the last buffer;
 *  - a child that exits with allocations mapped leaves nothing behind
 *    (VRAM available again, no context of its pid), and the kernel logs
 *    no problem.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gt.h"
#include "gtdev.h"
#include "gtkfd.h"

#define TOPO "/sys/devices/virtual/kfd/kfd/topology/nodes"
#define SZ (64 * 1024)

static unsigned int gpu_id, minor;
static char pci[64];

static int kioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

static unsigned long long node_prop(int node, const char *name)
{
	char path[256], buf[4096], key[128], *p = buf;
	unsigned long long v, ret = 0;
	int fd, n;

	snprintf(path, sizeof(path), TOPO "/%d/properties", node);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	while (sscanf(p, "%127s %llu\n%n", key, &v, &n) == 2) {
		if (!strcmp(key, name))
			ret = v;
		p += n;
	}
	return ret;
}

static int vm_mappings_of(const char *dev, pid_t pid);

/* The GPU mappings of this process's context on the device (debugfs). */
static int vm_mappings(pid_t pid)
{
	return vm_mappings_of(pci, pid);
}

static int vm_mappings_of(const char *dev, pid_t pid)
{
	char path[256], line[256];
	int m = -1, p, v, maps;
	FILE *f;

	if (access("/sys/kernel/debug/hsagpu", F_OK))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	snprintf(path, sizeof(path), "/sys/kernel/debug/hsagpu/%s/vm", dev);
	f = fopen(path, "r");
	if (!f)
		return -2;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "file pid %d vmid %d mappings %d", &p, &v,
			   &maps) == 3 && p == pid)
			m = maps;
	fclose(f);
	return m;
}

static uint64_t available(int kfd)
{
	struct kfd_ioctl_get_available_memory_args a = { .gpu_id = gpu_id };

	EXPECT(kioctl(kfd, AMDKFD_IOC_AVAILABLE_MEMORY, &a), 0, "AVAILABLE_MEMORY");
	return a.available;
}

static int alloc(int kfd, uint32_t flags, uint64_t va, uint64_t size,
		 uint64_t offset, uint64_t *handle, uint64_t *mmap_offset)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args a = {
		.va_addr = va, .size = size, .handle = 0, .mmap_offset = offset,
		.gpu_id = gpu_id, .flags = flags,
	};
	int e = kioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a);

	if (handle)
		*handle = a.handle;
	if (mmap_offset)
		*mmap_offset = a.mmap_offset;
	return e;
}

static int map(int kfd, uint64_t handle, uint32_t *ids, uint32_t n,
	       uint32_t *n_success, int unmap)
{
	struct kfd_ioctl_map_memory_to_gpu_args a = {
		.handle = handle, .device_ids_array_ptr = (uintptr_t)ids,
		.n_devices = n, .n_success = *n_success,
	};
	int e = kioctl(kfd, unmap ? AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU :
			    AMDKFD_IOC_MAP_MEMORY_TO_GPU, &a);

	*n_success = a.n_success;
	return e;
}

static int free_bo(int kfd, uint64_t handle)
{
	struct kfd_ioctl_free_memory_of_gpu_args a = { .handle = handle };

	return kioctl(kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &a);
}

static void *reserve(size_t len)
{
	void *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(p != MAP_FAILED, "reserving %zu bytes of VA", len);
	return p;
}

static int acquire(int kfd, int fd)
{
	struct kfd_ioctl_acquire_vm_args a = { .drm_fd = fd, .gpu_id = gpu_id };

	return kioctl(kfd, AMDKFD_IOC_ACQUIRE_VM, &a);
}

static int open_render(void)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/dri/renderD%u", minor);
	return open(path, O_RDWR | O_CLOEXEC);
}

static void test_info(int kfd)
{
	struct kfd_ioctl_get_version_args ver = { 0 };
	struct kfd_ioctl_get_process_apertures_new_args an = { 0 };
	struct kfd_ioctl_get_process_apertures_args ao;
	struct kfd_process_device_apertures pa[8];
	struct kfd_ioctl_get_clock_counters_args cc = { 0 };
	struct kfd_ioctl_set_memory_policy_args mp = {
		.gpu_id = gpu_id,
		.default_policy = KFD_IOC_CACHE_POLICY_NONCOHERENT,
		.alternate_policy = KFD_IOC_CACHE_POLICY_COHERENT,
	};
	struct kfd_ioctl_set_scratch_backing_va_args sb = { .va_addr = 0x1000, .gpu_id = gpu_id };
	struct kfd_ioctl_set_trap_handler_args th = { .tba_addr = 0x2000, .gpu_id = gpu_id };
	unsigned char big[256] = { 0 };
	uint64_t t1;
	uint32_t i, n;

	EXPECT(kioctl(kfd, AMDKFD_IOC_GET_VERSION, &ver), 0, "GET_VERSION");
	CHECK(ver.major_version == 1 && ver.minor_version == 4, "version %u.%u",
	      ver.major_version, ver.minor_version);

	EXPECT(kioctl(kfd, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &an), 0, "APERTURES_NEW count");
	n = an.num_of_nodes;
	CHECK(n >= 1 && n <= 8, "%u devices", n);
	memset(pa, 0xa5, sizeof(pa));
	an.kfd_process_device_apertures_ptr = (uintptr_t)pa;
	EXPECT(kioctl(kfd, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &an), 0, "APERTURES_NEW");
	CHECK(an.num_of_nodes == n, "%u entries of %u", an.num_of_nodes, n);
	for (i = 0; i < n && i < 8; i++) {
		CHECK(pa[i].gpu_id, "entry %u without gpu_id", i);
		CHECK_EQ_U64(pa[i].lds_base, 1ULL << 48);
		CHECK_EQ_U64(pa[i].lds_limit, (1ULL << 48) | 0xffffffff);
		CHECK_EQ_U64(pa[i].scratch_base, 2ULL << 48);
		CHECK_EQ_U64(pa[i].scratch_limit, (2ULL << 48) | 0xffffffff);
		CHECK_EQ_U64(pa[i].gpuvm_limit, (1ULL << 47) - 1);
		CHECK(pa[i].gpuvm_base < pa[i].gpuvm_limit, "gpuvm base");
	}
	CHECK_EQ_U64(pa[0].gpu_id, gpu_id);
	an.num_of_nodes = 1;
	an.kfd_process_device_apertures_ptr = 8;   /* unmapped */
	EXPECT(kioctl(kfd, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &an), EFAULT,
	       "APERTURES_NEW to a bad pointer");
	memset(&ao, 0, sizeof(ao));
	EXPECT(kioctl(kfd, AMDKFD_IOC_GET_PROCESS_APERTURES, &ao), 0, "APERTURES (old)");
	CHECK_EQ_U64(ao.num_of_nodes, n);
	CHECK_EQ_U64(ao.process_apertures[0].gpu_id, gpu_id);

	EXPECT(kioctl(kfd, AMDKFD_IOC_GET_CLOCK_COUNTERS, &cc), 0, "CLOCK_COUNTERS gpu_id 0");
	CHECK_EQ_U64(cc.system_clock_freq, 1000000000ULL);
	CHECK_EQ_U64(cc.gpu_clock_counter, 0);
	CHECK(cc.cpu_clock_counter && cc.system_clock_counter, "CPU clocks 0");
	cc.gpu_id = gpu_id;
	EXPECT(kioctl(kfd, AMDKFD_IOC_GET_CLOCK_COUNTERS, &cc), 0, "CLOCK_COUNTERS");
	t1 = cc.gpu_clock_counter;
	CHECK(t1, "GPU clock 0");
	EXPECT(kioctl(kfd, AMDKFD_IOC_GET_CLOCK_COUNTERS, &cc), 0, "CLOCK_COUNTERS again");
	CHECK(cc.gpu_clock_counter >= t1, "GPU clock went back: %llu after %llu",
	      (unsigned long long)cc.gpu_clock_counter, (unsigned long long)t1);

	EXPECT(kioctl(kfd, AMDKFD_IOC_SET_MEMORY_POLICY, &mp), 0, "SET_MEMORY_POLICY");
	mp.default_policy = 7;
	EXPECT(kioctl(kfd, AMDKFD_IOC_SET_MEMORY_POLICY, &mp), EINVAL, "SET_MEMORY_POLICY policy 7");
	mp.default_policy = KFD_IOC_CACHE_POLICY_COHERENT;
	mp.gpu_id = gpu_id ^ 0x8000;
	EXPECT(kioctl(kfd, AMDKFD_IOC_SET_MEMORY_POLICY, &mp), EINVAL, "SET_MEMORY_POLICY unknown gpu");
	EXPECT(kioctl(kfd, AMDKFD_IOC_SET_SCRATCH_BACKING_VA, &sb), 0, "SET_SCRATCH_BACKING_VA");
	EXPECT(kioctl(kfd, AMDKFD_IOC_SET_TRAP_HANDLER, &th), 0, "SET_TRAP_HANDLER");
	th.gpu_id = 0;
	EXPECT(kioctl(kfd, AMDKFD_IOC_SET_TRAP_HANDLER, &th), EINVAL, "SET_TRAP_HANDLER gpu 0");

	/* what amdkfd (Debian 6.1.192) answers for what it does not do */
	EXPECT(kioctl(kfd, _IOWR('K', 0x82, char[40]), big), ENOTTY, "DBG_TRAP (0x82)");
	EXPECT(kioctl(kfd, _IOWR('K', 0x24, char[16]), big), ENOTTY, "0x24 (after AVAILABLE_MEMORY)");
	EXPECT(kioctl(kfd, _IO('K', 0), NULL), ENOTTY, "ioctl 0");
	EXPECT(kioctl(kfd, AMDKFD_IOC_DBG_REGISTER_DEPRECATED, big), EPERM, "DBG_REGISTER");
	EXPECT(kioctl(kfd, AMDKFD_IOC_SVM, big), EPERM, "SVM");
	EXPECT(kioctl(kfd, AMDKFD_IOC_SET_XNACK_MODE, big), EPERM, "SET_XNACK_MODE");
}

/* GTT: render-node mmap, GPU mapping, hostile arguments. */
static void test_gtt(int kfd, int render, int render2)
{
	uint64_t h, h2, off, off2;
	uint32_t ids[2] = { gpu_id, gpu_id ^ 0x8000 }, ns;
	int m0 = vm_mappings(getpid()), i;
	uint32_t *p = reserve(SZ), *q;

	CHECK(m0 >= 0, "no debugfs vm line for this process (%d)", m0);
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE,
		     (uintptr_t)p, SZ, 0, &h, &off), 0, "ALLOC GTT");
	CHECK(h >> 32 == gpu_id, "handle 0x%llx has no gpu_id", (unsigned long long)h);
	/* wrong length, wrong offset, unacquired file, private writable */
	CHECK(mmap(NULL, SZ / 2, PROT_READ, MAP_SHARED, render, off) == MAP_FAILED &&
	      errno == EINVAL, "mmap of half the buffer: %s", strerror(errno));
	CHECK(mmap(NULL, SZ, PROT_READ, MAP_SHARED, render, off + SZ * 16) == MAP_FAILED &&
	      errno == EINVAL, "mmap at another offset: %s", strerror(errno));
	CHECK(mmap(NULL, SZ, PROT_READ, MAP_SHARED, render2, off) == MAP_FAILED &&
	      errno == EACCES, "mmap through another render fd: %s", strerror(errno));
	CHECK(mmap(NULL, SZ, PROT_READ | PROT_WRITE, MAP_PRIVATE, render, off) == MAP_FAILED &&
	      errno == EINVAL, "private writable mmap: %s", strerror(errno));
	q = mmap(p, SZ, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, render, off);
	CHECK(q == p, "mmap GTT at its VA: %s", strerror(errno));
	if (q == p) {
		for (i = 0; i < SZ / 4; i++)
			p[i] = 0x5a000000 | i;
		for (i = 0; i < SZ / 4 && p[i] == (0x5a000000u | i); i++)
			;
		CHECK(i == SZ / 4, "GTT word %d reads 0x%x", i, p[i]);
	}

	ns = 0;
	EXPECT(map(kfd, h, ids, 1, &ns, 0), 0, "MAP GTT");
	CHECK_EQ_U64(ns, 1);
	CHECK(vm_mappings(getpid()) == m0 + 1, "mappings %d after MAP (before %d)",
	      vm_mappings(getpid()), m0);
	ns = 0;
	EXPECT(map(kfd, h, ids, 1, &ns, 0), 0, "MAP GTT again");
	CHECK(vm_mappings(getpid()) == m0 + 1, "MAP twice mapped twice");
	EXPECT(free_bo(kfd, h), EBUSY, "FREE of a mapped buffer");

	/* a second buffer at the same VA cannot be mapped */
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_GTT, (uintptr_t)p, SZ, 0, &h2, &off2),
	       0, "ALLOC GTT at a used VA");
	ns = 0;
	EXPECT(map(kfd, h2, ids, 1, &ns, 0), EINVAL, "MAP over a mapped VA");
	CHECK_EQ_U64(ns, 0);
	EXPECT(free_bo(kfd, h2), 0, "FREE the unmapped second buffer");
	EXPECT(free_bo(kfd, h2), EINVAL, "FREE twice");

	/* MAP arguments */
	ns = 0;
	EXPECT(map(kfd, h2, ids, 1, &ns, 0), ENOMEM, "MAP a freed handle");
	EXPECT(map(kfd, h ^ (1ULL << 20), ids, 1, &ns, 0), ENOMEM, "MAP an unknown handle");
	EXPECT(map(kfd, h, ids, 0, &ns, 0), EINVAL, "MAP to no device");
	ns = 2;
	EXPECT(map(kfd, h, ids, 1, &ns, 0), EINVAL, "MAP n_success > n_devices");
	ns = 1;
	EXPECT(map(kfd, h, ids, 2, &ns, 0), EINVAL, "MAP to an unknown device");
	CHECK_EQ_U64(ns, 1);
	ns = 0;
	EXPECT(map(kfd, h, (uint32_t *)8, 1, &ns, 0), EFAULT, "MAP with a bad id array");

	ns = 0;
	EXPECT(map(kfd, h, ids, 1, &ns, 1), 0, "UNMAP GTT");
	CHECK_EQ_U64(ns, 1);
	CHECK(vm_mappings(getpid()) == m0, "mappings %d after UNMAP (before %d)",
	      vm_mappings(getpid()), m0);
	ns = 0;
	EXPECT(map(kfd, h, ids, 1, &ns, 1), EINVAL, "UNMAP twice");
	munmap(p, SZ);
	EXPECT(free_bo(kfd, h), 0, "FREE GTT");
	EXPECT(free_bo(kfd, h), EINVAL, "FREE GTT twice");
	EXPECT(free_bo(kfd, 0), EINVAL, "FREE handle 0");
}

static void test_vram(int kfd, int render, uint64_t vram)
{
	uint64_t a0 = available(kfd), h, off;
	uint32_t ids[1] = { gpu_id }, ns = 0;
	uint32_t *p = reserve(SZ * 16), *q;
	int m0 = vm_mappings(getpid()), i;

	CHECK(a0 <= vram, "available %llu > VRAM %llu", (unsigned long long)a0,
	      (unsigned long long)vram);
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_VRAM, (uintptr_t)p, vram + SZ, 0, &h, &off),
	       ENOMEM, "ALLOC more VRAM than there is");
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE,
		     (uintptr_t)p, SZ * 16, 0, &h, &off), 0, "ALLOC VRAM");
	CHECK(available(kfd) <= a0 - SZ * 16, "available %llu after taking %u of %llu",
	      (unsigned long long)available(kfd), SZ * 16, (unsigned long long)a0);
	/* libhsakmt's reservation of VRAM it does not map for the host */
	q = mmap(p, SZ * 16, PROT_NONE, MAP_PRIVATE | MAP_FIXED, render, off);
	CHECK(q == p, "PROT_NONE private mmap of VRAM: %s", strerror(errno));
	CHECK(mprotect(p, SZ * 16, PROT_READ | PROT_WRITE) && errno == EACCES,
	      "the PROT_NONE private mapping became writable");
	q = mmap(p, SZ * 16, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, render, off);
	CHECK(q == p, "shared mmap of VRAM: %s", strerror(errno));
	if (q == p) {
		for (i = 0; i < SZ * 4; i++)
			p[i] = ~i;
		for (i = 0; i < SZ * 4 && p[i] == ~(uint32_t)i; i++)
			;
		CHECK(i == SZ * 4, "VRAM word %d reads 0x%x", i, p[i]);
	}
	EXPECT(map(kfd, h, ids, 1, &ns, 0), 0, "MAP VRAM");
	CHECK(vm_mappings(getpid()) == m0 + 1, "VRAM not in the GPU space");
	ns = 0;
	EXPECT(map(kfd, h, ids, 1, &ns, 1), 0, "UNMAP VRAM");
	munmap(p, SZ * 16);
	EXPECT(free_bo(kfd, h), 0, "FREE VRAM");
	CHECK_EQ_U64(available(kfd), a0);
}

static void test_userptr(int kfd)
{
	uint32_t ids[1] = { gpu_id }, ns = 0;
	void *buf = mmap(NULL, SZ, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *va = reserve(SZ), *hole = reserve(SZ);
	int m0 = vm_mappings(getpid());
	uint64_t h;

	memset(buf, 1, SZ);
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, (uintptr_t)va, SZ,
		     (uintptr_t)buf + 8, &h, NULL), EINVAL, "ALLOC USERPTR unaligned");
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE,
		     (uintptr_t)va, SZ, (uintptr_t)buf, &h, NULL), 0, "ALLOC USERPTR");
	EXPECT(map(kfd, h, ids, 1, &ns, 0), 0, "MAP USERPTR (GPU VA != CPU address)");
	CHECK(vm_mappings(getpid()) == m0 + 1, "USERPTR not in the GPU space");
	ns = 0;
	EXPECT(map(kfd, h, ids, 1, &ns, 1), 0, "UNMAP USERPTR");
	CHECK(vm_mappings(getpid()) == m0, "USERPTR still in the GPU space");
	EXPECT(free_bo(kfd, h), 0, "FREE USERPTR");

	/* memory that is not there cannot be pinned */
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, (uintptr_t)va, SZ,
		     (uintptr_t)hole, &h, NULL), 0, "ALLOC USERPTR of a PROT_NONE range");
	ns = 0;
	EXPECT(map(kfd, h, ids, 1, &ns, 0), EFAULT, "MAP USERPTR of a PROT_NONE range");
	EXPECT(free_bo(kfd, h), 0, "FREE it");
	munmap(buf, SZ);
}

static void test_alloc_args(int kfd)
{
	uint64_t h;

	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_GTT, 1 << 21, 0, 0, &h, NULL), EINVAL,
	       "ALLOC size 0");
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_GTT, (1 << 21) + 8, SZ, 0, &h, NULL),
	       EINVAL, "ALLOC unaligned VA");
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_GTT, 1ULL << 47, SZ, 0, &h, NULL),
	       EINVAL, "ALLOC above the GPUVM limit");
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_GTT, ~0ULL << 12, SZ, 0, &h, NULL),
	       EINVAL, "ALLOC wrapping around");
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL, 1 << 21, 8192, 0, &h, NULL),
	       EINVAL, "ALLOC DOORBELL (libhsakmt falls back to /dev/kfd)");
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP, 1 << 21, 4096, 0, &h, NULL),
	       ENOMEM, "ALLOC MMIO_REMAP (no HDP flush page)");
	EXPECT(alloc(kfd, 0, 1 << 21, SZ, 0, &h, NULL), EINVAL, "ALLOC of no kind");
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_GTT, 1ULL << 40, 1ULL << 46, 0, &h, NULL),
	       ENOMEM, "ALLOC 64 TiB of GTT");
	/* registering more than the limits allow is refused before pinning */
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, 1ULL << 40, 1ULL << 45,
		     1ULL << 40, &h, NULL), EDQUOT, "ALLOC USERPTR of 32 TiB");
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, 1ULL << 40, SZ,
		     1ULL << 63, &h, NULL), EINVAL, "ALLOC USERPTR beyond user space");
}

/*
 * Two devices: GTT, USERPTR and VRAM buffers of the first go into both
 * GPU spaces (each device's context gains a mapping; VRAM reaches the
 * second device as peer memory).
 */
static int ipc_export(int kfd, uint64_t handle, uint32_t gpu, uint32_t flags,
		      uint32_t *share)
{
	struct gtkfd_ipc_export_args a = {
		.handle = handle, .gpu_id = gpu, .flags = flags,
	};
	int e = kioctl(kfd, GTKFD_IOC_IPC_EXPORT_HANDLE, &a);

	if (share)
		memcpy(share, a.share_handle, sizeof(a.share_handle));
	return e;
}

static int ipc_import(int kfd, const uint32_t *share, uint32_t gpu, uint64_t va,
		      struct gtkfd_ipc_import_args *out)
{
	struct gtkfd_ipc_import_args a = { .gpu_id = gpu, .va_addr = va };
	int e;

	memcpy(a.share_handle, share, sizeof(a.share_handle));
	e = kioctl(kfd, GTKFD_IOC_IPC_IMPORT_HANDLE, &a);
	if (out)
		*out = a;
	return e;
}

/* Import @share at a fresh VA, mmap it there; the words, or NULL. */
static uint32_t *ipc_attach(int kfd, int render, const uint32_t *share,
			    uint32_t flags, uint64_t *handle)
{
	struct gtkfd_ipc_import_args a;
	uint32_t *p = reserve(SZ), *q;

	EXPECT(ipc_import(kfd, share, gpu_id, (uintptr_t)p, &a), 0, "IMPORT");
	*handle = a.handle;
	CHECK(a.handle >> 32 == gpu_id, "imported handle 0x%llx",
	      (unsigned long long)a.handle);
	CHECK(a.flags == flags, "imported flags 0x%x, exported 0x%x", a.flags, flags);
	q = mmap(p, SZ, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, render,
		 a.mmap_offset);
	CHECK(q == p, "mmap of the import: %s", strerror(errno));
	return q == p ? q : NULL;
}

/* A child's process (its own /dev/kfd and render node) imports @share. */
static int ipc_child(const uint32_t *share, uint32_t flags, uint32_t seed)
{
	int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC), render = open_render(), i;
	uint32_t ids[1] = { gpu_id }, ns = 0, *p;
	uint64_t h;

	EXPECT(ipc_import(kfd, share, gpu_id, 1ULL << 30, NULL), EINVAL,
	       "child: IMPORT before ACQUIRE_VM");
	EXPECT(acquire(kfd, render), 0, "child: ACQUIRE_VM");
	p = ipc_attach(kfd, render, share, flags, &h);
	if (p) {
		for (i = 0; i < SZ / 4 && p[i] == (seed ^ i); i++)
			;
		CHECK(i == SZ / 4, "child: word %d of the import reads 0x%x", i, p[i]);
		for (i = 0; i < SZ / 4; i++)
			p[i] = ~seed ^ i;
	}
	EXPECT(map(kfd, h, ids, 1, &ns, 0), 0, "child: MAP the import");
	/* exits with it mapped: the teardown unmaps and frees it */
	return gt_result();
}

static void test_ipc_one(int kfd, int render, uint32_t domain, const char *what)
{
	uint32_t share[4], share2[4], bad[4], ids[1] = { gpu_id }, ns = 0;
	uint32_t *p = reserve(SZ), *q, *r;
	uint64_t h, hi, off, a0 = available(kfd);
	int i, st = 0;
	pid_t pid;

	EXPECT(alloc(kfd, domain | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, (uintptr_t)p, SZ, 0,
		     &h, &off), 0, what);
	q = mmap(p, SZ, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, render, off);
	CHECK(q == p, "%s: mmap: %s", what, strerror(errno));
	if (q != p)
		return;
	for (i = 0; i < SZ / 4; i++)
		p[i] = 0x1c0000 ^ i;
	EXPECT(ipc_export(kfd, h, gpu_id ^ 0x8000, 7, share), EINVAL, "EXPORT, unknown gpu_id");
	EXPECT(ipc_export(kfd, h ^ (1ULL << 20), gpu_id, 7, share), EINVAL,
	       "EXPORT, unknown handle");
	EXPECT(ipc_export(kfd, h, gpu_id, 0x5eed, share), 0, what);
	EXPECT(ipc_export(kfd, h, gpu_id, 0x5eed, share2), 0, "EXPORT again");
	CHECK(!memcmp(share, share2, sizeof(share)), "%s: two share handles", what);

	memcpy(bad, share, sizeof(bad));
	bad[3] ^= 1;
	EXPECT(ipc_import(kfd, bad, gpu_id, (uintptr_t)p, NULL), EINVAL,
	       "IMPORT, unknown share handle");
	memset(bad, 0, sizeof(bad));
	EXPECT(ipc_import(kfd, bad, gpu_id, (uintptr_t)p, NULL), EINVAL,
	       "IMPORT, share handle 0");
	EXPECT(ipc_import(kfd, share, gpu_id ^ 0x8000, (uintptr_t)p, NULL), EINVAL,
	       "IMPORT, unknown gpu_id");
	EXPECT(ipc_import(kfd, share, gpu_id, (uintptr_t)p + 8, NULL), EINVAL,
	       "IMPORT, unaligned VA");
	EXPECT(ipc_import(kfd, share, gpu_id, ~0ULL & ~4095ULL, NULL), EINVAL,
	       "IMPORT, VA wrapping");
	EXPECT(ipc_import(kfd, share, gpu_id, 1ULL << 47, NULL), EINVAL,
	       "IMPORT, VA beyond the GPU space");

	/* this process: the same memory at another address */
	r = ipc_attach(kfd, render, share, 0x5eed, &hi);
	if (r) {
		CHECK(r[5] == (0x1c0000u ^ 5), "%s: the import reads 0x%x", what, r[5]);
		r[6] = 0xabcdef;
		CHECK(p[6] == 0xabcdef, "%s: a write to the import is not seen", what);
		p[6] = 0x1c0000 ^ 6;
	}
	EXPECT(map(kfd, hi, ids, 1, &ns, 0), 0, "MAP the import");
	ns = 0;
	EXPECT(map(kfd, hi, ids, 1, &ns, 1), 0, "UNMAP the import");
	if (r)
		munmap(r, SZ);
	EXPECT(free_bo(kfd, hi), 0, "FREE the import");

	/* another process */
	fflush(stdout);
	pid = fork();
	if (!pid)
		_exit(ipc_child(share, 0x5eed, 0x1c0000));
	CHECK(!gt_wait_child(pid, &st, 30000) && WIFEXITED(st) && !WEXITSTATUS(st),
	      "%s: the importing child failed (0x%x)", what, st);
	for (i = 0; i < SZ / 4 && p[i] == (~0x1c0000u ^ i); i++)
		;
	CHECK(i == SZ / 4, "%s: word %d is not what the child wrote: 0x%x", what, i, p[i]);

	/* the exporter frees; an import made before keeps the memory */
	r = ipc_attach(kfd, render, share, 0x5eed, &hi);
	munmap(p, SZ);
	EXPECT(free_bo(kfd, h), 0, "FREE the exported buffer");
	if (r) {
		CHECK(r[7] == (~0x1c0000u ^ 7), "%s: the import after the exporter's FREE: 0x%x",
		      what, r[7]);
		munmap(r, SZ);
	}
	EXPECT(free_bo(kfd, hi), 0, "FREE the last import");
	/* every buffer gone: the handle names nothing */
	p = reserve(SZ);
	EXPECT(ipc_import(kfd, share, gpu_id, (uintptr_t)p, NULL), EINVAL,
	       "IMPORT of a freed buffer's handle");
	munmap(p, SZ);
	CHECK_EQ_U64(available(kfd), a0);
}

static void test_ipc(int kfd, int render)
{
	uint32_t share[4];
	uint64_t h;
	char *u = mmap(NULL, SZ, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	test_ipc_one(kfd, render, KFD_IOC_ALLOC_MEM_FLAGS_GTT, "IPC of GTT");
	test_ipc_one(kfd, render, KFD_IOC_ALLOC_MEM_FLAGS_VRAM, "IPC of VRAM");
	/* registered memory is the process's own */
	memset(u, 1, SZ);
	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, (uintptr_t)u, SZ, (uintptr_t)u,
		     &h, NULL), 0, "ALLOC USERPTR");
	EXPECT(ipc_export(kfd, h, gpu_id, 0, share), EINVAL, "EXPORT of a USERPTR");
	EXPECT(free_bo(kfd, h), 0, "FREE USERPTR");
	munmap(u, SZ);
}

static void test_multi(int kfd)
{
	unsigned int loc = node_prop(2, "location_id"), gpu2;
	uint32_t ids[2], ns;
	char pci2[64], path[64], buf[32] = "";
	int fd, render, m1, m2, i;
	uint64_t h[3];
	uint32_t kinds[3] = { KFD_IOC_ALLOC_MEM_FLAGS_GTT,
			      KFD_IOC_ALLOC_MEM_FLAGS_USERPTR,
			      KFD_IOC_ALLOC_MEM_FLAGS_VRAM };
	void *buf2 = mmap(NULL, SZ, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct kfd_ioctl_acquire_vm_args a = { 0 };

	snprintf(pci2, sizeof(pci2), "%04llx:%02x:%02x.%x",
		 node_prop(2, "domain"), loc >> 8, (loc >> 3) & 0x1f, loc & 7);
	fd = open(TOPO "/2/gpu_id", O_RDONLY);
	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf) - 1) < 0)
			buf[0] = 0;
		close(fd);
	}
	gpu2 = strtoul(buf, NULL, 10);
	snprintf(path, sizeof(path), "/dev/dri/renderD%llu",
		 node_prop(2, "drm_render_minor"));
	render = open(path, O_RDWR | O_CLOEXEC);
	a.drm_fd = render;
	a.gpu_id = gpu2;
	EXPECT(kioctl(kfd, AMDKFD_IOC_ACQUIRE_VM, &a), 0, "ACQUIRE_VM second device");
	memset(buf2, 2, SZ);
	ids[0] = gpu_id;
	ids[1] = gpu2;
	for (i = 0; i < 3; i++) {
		void *va = reserve(SZ);

		m1 = vm_mappings(getpid());
		m2 = vm_mappings_of(pci2, getpid());
		EXPECT(alloc(kfd, kinds[i] | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE,
			     (uintptr_t)va, SZ, (uintptr_t)buf2, &h[i], NULL), 0,
		       "ALLOC kind 0x%x", kinds[i]);
		ns = 0;
		EXPECT(map(kfd, h[i], ids, 2, &ns, 0), 0,
		       "MAP kind 0x%x to both devices", kinds[i]);
		CHECK_EQ_U64(ns, 2);
		CHECK(vm_mappings(getpid()) == m1 + 1, "kind 0x%x not on %s", kinds[i], pci);
		CHECK(vm_mappings_of(pci2, getpid()) == m2 + 1,
		      "kind 0x%x: %d mappings on %s (before %d)", kinds[i],
		      vm_mappings_of(pci2, getpid()), pci2, m2);
		ns = 0;
		EXPECT(map(kfd, h[i], ids, 2, &ns, 1), 0,
		       "UNMAP kind 0x%x", kinds[i]);
		CHECK(vm_mappings(getpid()) == m1 && vm_mappings_of(pci2, getpid()) == m2,
		      "kind 0x%x still mapped after UNMAP", kinds[i]);
		EXPECT(free_bo(kfd, h[i]), 0, "FREE kind 0x%x", kinds[i]);
	}
	close(render);
	munmap(buf2, SZ);
}

/* A child's process: its own context; what it leaves at exit is freed. */
static void test_child(int kfd, int pipefd[2])
{
	struct kfd_ioctl_get_version_args v = { 0 };
	uint32_t ids[1] = { gpu_id }, ns = 0;
	int ckfd, render, e;
	uint64_t h = 0;
	void *p;

	/* the parent's descriptor is not the child's (as amdkfd) */
	e = kioctl(kfd, AMDKFD_IOC_GET_VERSION, &v);
	ckfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	render = open_render();
	p = reserve(SZ * 16);
	if (e != EBADF || ckfd < 0 || render < 0 ||
	    alloc(ckfd, KFD_IOC_ALLOC_MEM_FLAGS_VRAM, (uintptr_t)p, SZ * 16, 0, &h, NULL) != EINVAL ||
	    acquire(ckfd, render) ||
	    alloc(ckfd, KFD_IOC_ALLOC_MEM_FLAGS_VRAM, (uintptr_t)p, SZ * 16, 0, &h, NULL) ||
	    map(ckfd, h, ids, 1, &ns, 0))
		h = 0;
	if (write(pipefd[1], &h, sizeof(h)) != sizeof(h))
		_exit(2);
	/* exit with the buffer allocated and mapped */
	_exit(h ? 0 : 1);
}

int main(void)
{
	uint64_t vram = 0, h = 0, a0;
	int kfd, render, render2, devnull, kmsg, pipefd[2], status, i;
	uint32_t ids[1], ns = 0;
	pid_t pid;

	if (access("/dev/kfd", F_OK))
		return gt_skip("no /dev/kfd (boot with hsagpu_test.kfd=1)");
	{
		char buf[32] = "";
		int fd = open(TOPO "/1/gpu_id", O_RDONLY);

		if (fd >= 0) {
			if (read(fd, buf, sizeof(buf) - 1) < 0)
				buf[0] = 0;
			close(fd);
		}
		gpu_id = strtoul(buf, NULL, 10);
	}
	if (!gpu_id)
		return gt_skip("no GPU node");
	minor = node_prop(1, "drm_render_minor");
	i = node_prop(1, "location_id");
	snprintf(pci, sizeof(pci), "%04llx:%02x:%02x.%x",
		 node_prop(1, "domain"), i >> 8, (i >> 3) & 0x1f, i & 7);
	gt_sysfs_u64(pci, "hsagpu/vram_size", &vram);
	if (!vram)
		return gt_skip("%s: no hsagpu/vram_size", pci);
	DIAG("gpu_id %u, %s, renderD%u, %llu bytes of VRAM", gpu_id, pci, minor,
	     (unsigned long long)vram);
	kmsg = gtk_mark();

	kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	CHECK(kfd >= 0, "open /dev/kfd: %s", strerror(errno));
	render = open_render();
	render2 = open_render();
	devnull = open("/dev/null", O_RDWR);
	CHECK(render >= 0 && render2 >= 0, "open renderD%u: %s", minor, strerror(errno));
	test_info(kfd);

	EXPECT(alloc(kfd, KFD_IOC_ALLOC_MEM_FLAGS_GTT, 1 << 21, SZ, 0, &h, NULL), EINVAL,
	       "ALLOC before ACQUIRE_VM");
	EXPECT(acquire(kfd, -1), EBADF, "ACQUIRE_VM fd -1");
	EXPECT(acquire(kfd, devnull), EINVAL, "ACQUIRE_VM /dev/null");
	EXPECT(acquire(kfd, kfd), EINVAL, "ACQUIRE_VM /dev/kfd");
	EXPECT(acquire(kfd, render), 0, "ACQUIRE_VM");
	EXPECT(acquire(kfd, render), 0, "ACQUIRE_VM the same file again");
	EXPECT(acquire(kfd, render2), EBUSY, "ACQUIRE_VM a second render file");

	test_alloc_args(kfd);
	test_gtt(kfd, render, render2);
	test_vram(kfd, render, vram);
	test_userptr(kfd);
	test_ipc(kfd, render);
	if (node_prop(2, "gfx_target_version"))
		test_multi(kfd);

	/* a child's buffers: not the parent's, gone with the child */
	a0 = available(kfd);
	CHECK(!pipe(pipefd), "pipe");
	pid = fork();
	if (!pid)
		test_child(kfd, pipefd);
	h = 0;
	CHECK(!gt_read_full(pipefd[0], &h, sizeof(h), 20000) && h,
	      "the child made no buffer");
	CHECK(!gt_wait_child(pid, &status, 20000) && WIFEXITED(status) &&
	      !WEXITSTATUS(status), "child status 0x%x", status);
	ids[0] = gpu_id;
	EXPECT(free_bo(kfd, h), EINVAL, "FREE the child's handle");
	EXPECT(map(kfd, h, ids, 1, &ns, 0), ENOMEM, "MAP the child's handle");
	CHECK_EQ_U64(available(kfd), a0);
	CHECK(vm_mappings(pid) == -1, "the exited child still has a context");

	close(render2);
	close(render);
	close(kfd);
	CHECK(gtk_problems(kmsg, "hsagpu") == 0, "the kernel logged problems");
	return gt_result();
}
