// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-kfd-unbind: hot-unplug of a device a KFD process is using. With GTT
 * and VRAM buffers mapped for the CPU (through the render node) and into
 * the GPU space, the first device is removed (PCI remove):
 *  - its node leaves the topology (generation_id changes), its render
 *    node goes;
 *  - the process's VRAM mapping faults (SIGBUS), its GTT mapping keeps
 *    its data (system memory stays with its users);
 *  - ioctls naming the device fail cleanly; UNMAP and FREE of its
 *    buffers still work, closing everything works;
 *  - with a second device, the VRAM buffer is also mapped there (peer
 *    memory): the removal takes it out of the second device's GPU space
 *    at once (its context's debugfs mapping count drops);
 *  - after a rescan the device is back in the topology and a new
 *    process allocates and maps on it;
 * and the kernel logs no problem on the way.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>

#include "gt.h"
#include "gtdev.h"

#define TOPO "/sys/devices/virtual/kfd/kfd/topology"
#define SZ (64 * 1024)

static sigjmp_buf jb;

static void on_sigbus(int sig)
{
	siglongjmp(jb, 1);
}

static unsigned long read_ul(const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);

	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf) - 1) < 0)
			buf[0] = 0;
		close(fd);
	}
	return strtoul(buf, NULL, 10);
}

static unsigned long node_prop(int node, const char *name)
{
	char path[128], buf[4096], key[128], *p = buf;
	unsigned long long v, ret = 0;
	int fd, n;

	snprintf(path, sizeof(path), TOPO "/nodes/%d/properties", node);
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

static int kio(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

struct ctx {
	int kfd, render;
	uint32_t gpu_id;
};

static int ctx_open(struct ctx *c, int node)
{
	struct kfd_ioctl_acquire_vm_args a = { 0 };
	char path[64];

	snprintf(path, sizeof(path), TOPO "/nodes/%d/gpu_id", node);
	c->gpu_id = read_ul(path);
	snprintf(path, sizeof(path), "/dev/dri/renderD%lu",
		 node_prop(node, "drm_render_minor"));
	c->kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	c->render = open(path, O_RDWR | O_CLOEXEC);
	if (c->kfd < 0 || c->render < 0 || !c->gpu_id)
		return -1;
	a.drm_fd = c->render;
	a.gpu_id = c->gpu_id;
	return kio(c->kfd, AMDKFD_IOC_ACQUIRE_VM, &a);
}

/* ALLOC, mmap at the VA, MAP: the buffer's handle, or 0. */
static uint64_t buffer(struct ctx *c, uint32_t kind, void **cpu)
{
	void *va = mmap(NULL, SZ, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct kfd_ioctl_alloc_memory_of_gpu_args a = {
		.va_addr = (uintptr_t)va, .size = SZ, .gpu_id = c->gpu_id,
		.flags = kind | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE,
	};
	struct kfd_ioctl_map_memory_to_gpu_args m = { 0 };
	uint32_t id = c->gpu_id;

	if (va == MAP_FAILED || kio(c->kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a))
		return 0;
	*cpu = mmap(va, SZ, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		    c->render, a.mmap_offset);
	if (*cpu != va)
		return 0;
	memset(va, 0x3c, SZ);
	m.handle = a.handle;
	m.device_ids_array_ptr = (uintptr_t)&id;
	m.n_devices = 1;
	return kio(c->kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m) ? 0 : a.handle;
}

static int unmap_free(struct ctx *c, uint64_t h)
{
	struct kfd_ioctl_map_memory_to_gpu_args m = { 0 };
	struct kfd_ioctl_free_memory_of_gpu_args f = { .handle = h };
	uint32_t id = c->gpu_id;
	int e;

	m.handle = h;
	m.device_ids_array_ptr = (uintptr_t)&id;
	m.n_devices = 1;
	e = kio(c->kfd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &m);
	return e ? e : kio(c->kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f);
}

/* GPU mappings of this process's context on PCI device @dev (debugfs). */
static int vm_mappings(const char *dev)
{
	char path[128], line[256];
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
			   &maps) == 3 && p == getpid())
			m = maps;
	fclose(f);
	return m;
}

int main(void)
{
	struct kfd_ioctl_get_clock_counters_args cc = { 0 };
	unsigned long gen0, loc;
	char pci[32], path[64];
	uint64_t hv, hg;
	volatile unsigned char *vram, *gtt;
	void *pv = NULL, *pg = NULL;
	struct ctx c, c2;
	int kmsg, nodes0, i, faulted, minor, m2 = -1;
	uint32_t id2 = 0;
	char pci2[32] = "";

	if (access("/dev/kfd", F_OK))
		return gt_skip("no /dev/kfd (boot with hsagpu_test.kfd=1)");
	loc = node_prop(1, "location_id");
	snprintf(pci, sizeof(pci), "%04lx:%02lx:%02lx.%lx", node_prop(1, "domain"),
		 loc >> 8, (loc >> 3) & 0x1f, loc & 7);
	minor = node_prop(1, "drm_render_minor");
	gen0 = read_ul(TOPO "/generation_id");
	nodes0 = 1;
	while (1) {
		snprintf(path, sizeof(path), TOPO "/nodes/%d", nodes0);
		if (access(path, F_OK))
			break;
		nodes0++;
	}
	DIAG("removing %s (renderD%d) of %d nodes", pci, minor, nodes0);
	kmsg = gtk_mark();
	CHECK(!ctx_open(&c, 1), "KFD context on %s", pci);
	hv = buffer(&c, KFD_IOC_ALLOC_MEM_FLAGS_VRAM, &pv);
	hg = buffer(&c, KFD_IOC_ALLOC_MEM_FLAGS_GTT, &pg);
	CHECK(hv && hg, "buffers 0x%llx 0x%llx", (unsigned long long)hv,
	      (unsigned long long)hg);
	if (!hv || !hg)
		return gt_result();
	vram = pv;
	gtt = pg;

	/* a second device maps the VRAM buffer as peer memory */
	if (nodes0 > 2) {
		struct kfd_ioctl_acquire_vm_args a = { 0 };
		struct kfd_ioctl_map_memory_to_gpu_args m = { 0 };
		unsigned long loc2 = node_prop(2, "location_id");
		int r2;

		snprintf(pci2, sizeof(pci2), "%04lx:%02lx:%02lx.%lx",
			 node_prop(2, "domain"), loc2 >> 8, (loc2 >> 3) & 0x1f,
			 loc2 & 7);
		snprintf(path, sizeof(path), TOPO "/nodes/2/gpu_id");
		id2 = read_ul(path);
		snprintf(path, sizeof(path), "/dev/dri/renderD%lu",
			 node_prop(2, "drm_render_minor"));
		r2 = open(path, O_RDWR | O_CLOEXEC);
		a.drm_fd = r2;
		a.gpu_id = id2;
		EXPECT(kio(c.kfd, AMDKFD_IOC_ACQUIRE_VM, &a), 0, "ACQUIRE_VM %s", pci2);
		m2 = vm_mappings(pci2);
		m.handle = hv;
		m.device_ids_array_ptr = (uintptr_t)&id2;
		m.n_devices = 1;
		EXPECT(kio(c.kfd, AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m), 0,
		       "MAP the VRAM buffer on %s", pci2);
		CHECK(vm_mappings(pci2) == m2 + 1, "peer VRAM not mapped on %s", pci2);
	}

	CHECK(!gtd_remove(pci), "remove %s", pci);
	if (m2 >= 0)
		CHECK(vm_mappings(pci2) == m2, "%s still maps the removed device's VRAM (%d)",
		      pci2, vm_mappings(pci2));
	CHECK(read_ul(TOPO "/generation_id") != gen0, "generation unchanged");
	snprintf(path, sizeof(path), TOPO "/nodes/%d", nodes0 - 1);
	CHECK(access(path, F_OK), "still %d nodes", nodes0);
	snprintf(path, sizeof(path), "/dev/dri/renderD%d", minor);
	CHECK(access(path, F_OK), "%s still there", path);

	signal(SIGBUS, on_sigbus);
	faulted = sigsetjmp(jb, 1);
	if (!faulted)
		i = vram[0];
	CHECK(faulted, "VRAM of a removed device still readable (0x%x)", i);
	faulted = sigsetjmp(jb, 1);
	if (!faulted)
		for (i = 0; i < SZ && gtt[i] == 0x3c; i++)
			;
	CHECK(!faulted && i == SZ, "GTT lost its data (%d, fault %d)", i, faulted);
	signal(SIGBUS, SIG_DFL);

	cc.gpu_id = c.gpu_id;
	EXPECT(kio(c.kfd, AMDKFD_IOC_GET_CLOCK_COUNTERS, &cc), 0,
	       "CLOCK_COUNTERS of a removed device (no GPU counter)");
	CHECK(!cc.gpu_clock_counter, "GPU clock of a removed device");
	if (m2 >= 0) {
		struct kfd_ioctl_map_memory_to_gpu_args m = {
			.handle = hv, .device_ids_array_ptr = (uintptr_t)&id2,
			.n_devices = 1,
		};

		EXPECT(kio(c.kfd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &m), 0,
		       "UNMAP the revoked peer mapping");
	}
	EXPECT(unmap_free(&c, hv), 0, "UNMAP+FREE VRAM after removal");
	EXPECT(unmap_free(&c, hg), 0, "UNMAP+FREE GTT after removal");
	munmap(pv, SZ);
	munmap(pg, SZ);
	close(c.render);
	close(c.kfd);

	CHECK(!gtd_rescan(pci, 20000), "rescan %s", pci);
	/* back, as the last node */
	CHECK(node_prop(nodes0 - 1, "location_id") == loc, "not back as node %d",
	      nodes0 - 1);
	CHECK(!ctx_open(&c2, nodes0 - 1), "KFD context after rescan");
	hv = buffer(&c2, KFD_IOC_ALLOC_MEM_FLAGS_VRAM, &pv);
	CHECK(hv, "no VRAM buffer after rescan");
	if (hv)
		EXPECT(unmap_free(&c2, hv), 0, "UNMAP+FREE after rescan");
	close(c2.render);
	close(c2.kfd);
	CHECK(gtk_problems(kmsg, "hsagpu") == 0, "the kernel logged problems");
	return gt_result();
}
