// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /dev/hsagpuN: HSAGPU_IOC_GET_INFO agrees with sysfs (ABI 1.2 fields:
 * BAR0 bus address, P2P address limit and status, IOMMU); binaries built
 * against older headers (ABI 1.1 GET_INFO and ALLOC_MEM, ABI 1.2
 * WAIT_EVENTS: their command numbers encode the older sizes) reach their
 * handlers and get their old layout; larger structures from newer
 * binaries are taken when the unknown tail is zero; hostile arguments give
 * an errno instead of an oops.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>

#include "gt.h"
#include "gtdev.h"
#include "gtq.h"
#include "hsagpu/hsagpu_uapi.h"

#define INFO_SIZE_1_1 offsetof(struct hsagpu_device_info, vram_bus_addr)

/*
 * The structures and commands exactly as the ABI 1.1 (GET_INFO,
 * ALLOC_MEM) and 1.2 (WAIT_EVENTS) headers declared them: what a binary
 * built then still issues.
 */
struct info_1_1 {
	uint32_t size, abi_version;
	uint16_t vendor_id, device_id;
	uint32_t caps;
	uint64_t vram_size;
	uint32_t doorbell_count, doorbell_stride, num_queues, msix_vectors;
	uint32_t atomics;
	int32_t atomics_errno;
	uint32_t pci_domain;
	uint8_t pci_bus, pci_devfn;
	uint16_t reserved0;
	char name[32];
};

struct alloc_1_1 {
	uint32_t size, flags;
	uint64_t bytes, handle, mmap_offset, bus_addr;
};

struct wait_1_2 {
	uint32_t size, flags;
	uint64_t events_ptr;
	uint32_t num_events, timeout_ms;
	uint64_t signaled;
};

_Static_assert(sizeof(struct info_1_1) == 88, "1.1 GET_INFO is 88 bytes");
_Static_assert(sizeof(struct alloc_1_1) == 40, "1.1 ALLOC_MEM is 40 bytes");
_Static_assert(sizeof(struct wait_1_2) == 32, "1.2 WAIT_EVENTS is 32 bytes");

#define OLD_GET_INFO    _IOWR(HSAGPU_IOCTL_BASE, 0x01, struct info_1_1)
#define OLD_ALLOC_MEM   _IOWR(HSAGPU_IOCTL_BASE, 0x02, struct alloc_1_1)
#define OLD_WAIT_EVENTS _IOWR(HSAGPU_IOCTL_BASE, 0x0b, struct wait_1_2)

/* A GET_INFO structure 16 bytes larger than today's (a newer binary). */
struct info_next {
	struct hsagpu_device_info info;
	uint64_t future[2];
};

#define NEXT_GET_INFO   _IOWR(HSAGPU_IOCTL_BASE, 0x01, struct info_next)

static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

/*
 * Old and new binaries against this driver. @info: today's GET_INFO
 * result, to compare with.
 */
static void test_abi_sizes(int fd, const struct hsagpu_device_info *info)
{
	uint8_t raw[256];
	struct info_1_1 *oi = (void *)raw;
	struct alloc_1_1 *oa = (void *)raw;
	struct wait_1_2 *ow = (void *)raw;
	struct info_next *ni = (void *)raw;
	struct hsagpu_create_event ce = { .size = sizeof(ce) };
	struct hsagpu_event_id ev = { .size = sizeof(ev) };
	struct hsagpu_free_mem fm = { .size = sizeof(fm) };
	size_t i;
	int ret;

	/* 1.1 GET_INFO: the 88-byte layout, nothing written after it. */
	memset(raw, 0xa5, sizeof(raw));
	memset(oi, 0, sizeof(*oi));
	oi->size = sizeof(*oi);
	ret = xioctl(fd, OLD_GET_INFO, raw);
	CHECK(ret == 0, "ABI 1.1 GET_INFO (cmd 0x%lx): %s",
	      (unsigned long)OLD_GET_INFO, strerror(-ret));
	if (!ret) {
		CHECK_EQ_U64(oi->size, 88);
		CHECK(!memcmp(raw + 4, (const char *)info + 4, 88 - 4),
		      "ABI 1.1 GET_INFO layout differs from today's first 88 bytes");
		for (i = sizeof(*oi); i < sizeof(raw); i++)
			if (raw[i] != 0xa5) {
				CHECK(0, "ABI 1.1 GET_INFO wrote byte %zu", i);
				break;
			}
	}

	/* 1.1 ALLOC_MEM: 40 bytes in and out, a contiguous allocation. */
	memset(raw, 0x5a, sizeof(raw));
	memset(oa, 0, sizeof(*oa));
	oa->size = sizeof(*oa);
	oa->flags = HSAGPU_MEM_SYSTEM;
	oa->bytes = 8192;
	ret = xioctl(fd, OLD_ALLOC_MEM, raw);
	CHECK(ret == 0 && oa->handle && oa->bus_addr && oa->mmap_offset,
	      "ABI 1.1 ALLOC_MEM (cmd 0x%lx): %s", (unsigned long)OLD_ALLOC_MEM,
	      strerror(-ret));
	for (i = sizeof(*oa); i < sizeof(raw); i++)
		if (raw[i] != 0x5a) {
			CHECK(0, "ABI 1.1 ALLOC_MEM wrote byte %zu", i);
			break;
		}
	if (!ret) {
		fm.handle = oa->handle;
		CHECK(xioctl(fd, HSAGPU_IOC_FREE_MEM, &fm) == 0,
		      "FREE_MEM of the 1.1 allocation");
	}
	/* Its callers know nothing of segments: one segment at most. */
	memset(oa, 0, sizeof(*oa));
	oa->size = sizeof(*oa);
	oa->flags = HSAGPU_MEM_SYSTEM;
	oa->bytes = HSAGPU_MEM_SYSTEM_CONTIG_MAX + 4096;
	CHECK(xioctl(fd, OLD_ALLOC_MEM, raw) == -E2BIG,
	      "ABI 1.1 ALLOC_MEM above the contiguous limit");

	/* 1.2 WAIT_EVENTS: reaches the handler, consumes the event. */
	if (xioctl(fd, HSAGPU_IOC_CREATE_EVENT, &ce) == 0) {
		ev.event_id = ce.event_id;
		CHECK(xioctl(fd, HSAGPU_IOC_SET_EVENT, &ev) == 0, "SET_EVENT");
		memset(raw, 0x77, sizeof(raw));
		memset(ow, 0, sizeof(*ow));
		ow->size = sizeof(*ow);
		ow->events_ptr = (uintptr_t)&ce.event_id;
		ow->num_events = 1;
		ow->timeout_ms = 5000;
		ret = xioctl(fd, OLD_WAIT_EVENTS, raw);
		CHECK(ret == 0 && ow->signaled == 1,
		      "ABI 1.2 WAIT_EVENTS (cmd 0x%lx): %s, signaled 0x%llx",
		      (unsigned long)OLD_WAIT_EVENTS, strerror(-ret),
		      (unsigned long long)ow->signaled);
		for (i = sizeof(*ow); i < sizeof(raw); i++)
			if (raw[i] != 0x77) {
				CHECK(0, "ABI 1.2 WAIT_EVENTS wrote byte %zu", i);
				break;
			}
		/* Nothing pending now: -ETIME, .signaled written back. */
		ow->timeout_ms = 0;
		ow->signaled = ~0ULL;
		CHECK(xioctl(fd, OLD_WAIT_EVENTS, raw) == -ETIME &&
		      ow->signaled == 0, "ABI 1.2 WAIT_EVENTS, nothing pending");
		CHECK(xioctl(fd, HSAGPU_IOC_DESTROY_EVENT, &ev) == 0,
		      "DESTROY_EVENT");
	} else {
		CHECK(0, "CREATE_EVENT: %s", strerror(errno));
	}

	/* The size field must be the command's size, old or new. */
	memset(oi, 0, sizeof(*oi));
	oi->size = sizeof(*info);
	CHECK(xioctl(fd, OLD_GET_INFO, raw) == -EINVAL,
	      "1.1 command with today's size field");
	memset(raw, 0, sizeof(raw));
	oi->size = 96;
	CHECK(xioctl(fd, HSAGPU_IOC_GET_INFO, raw) == -EINVAL,
	      "today's command with a size field of no released layout");

	/*
	 * Today's command with the 1.1 size in the field: ABI 1.2 drivers
	 * answered it in the 1.1 layout, and so does this one.
	 */
	memset(raw, 0xa5, sizeof(raw));
	memset(raw, 0, sizeof(*info));
	oi->size = 88;
	ret = xioctl(fd, HSAGPU_IOC_GET_INFO, raw);
	CHECK(ret == 0 && oi->size == 88 &&
	      !memcmp(raw + 4, (const char *)info + 4, 88 - 4),
	      "today's command, 1.1 size field: %s", strerror(-ret));
	for (i = 88; i < sizeof(raw); i++)
		if (raw[i] != (i < sizeof(*info) ? 0 : 0xa5)) {
			CHECK(0, "today's command, 1.1 size field: wrote byte %zu",
			      i);
			break;
		}

	/* Below the first released layout: not a command anyone built. */
	memset(raw, 0, sizeof(raw));
	oi->size = 80;
	CHECK(xioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, HSAGPU_IOCTL_BASE, 0x01,
			      80), raw) == -EINVAL, "GET_INFO of 80 bytes");

	/* A newer binary: unknown tail zero works, non-zero is -E2BIG. */
	memset(raw, 0xc3, sizeof(raw));
	memset(ni, 0, sizeof(*ni));
	ni->info.size = sizeof(*ni);
	ret = xioctl(fd, NEXT_GET_INFO, raw);
	CHECK(ret == 0 && ni->info.size == sizeof(*ni) &&
	      !memcmp(raw + 4, (const char *)info + 4, sizeof(*info) - 4) &&
	      !ni->future[0] && !ni->future[1],
	      "larger GET_INFO with a zero tail: %s", strerror(-ret));
	ni->future[1] = 1;
	CHECK(xioctl(fd, NEXT_GET_INFO, raw) == -E2BIG,
	      "larger GET_INFO with a non-zero tail");

	/* Other direction or type on a known number: not a command. */
	CHECK(xioctl(fd, _IOW(HSAGPU_IOCTL_BASE, 0x02, struct alloc_1_1),
		     raw) == -ENOTTY, "ALLOC_MEM without the read direction");
	CHECK(xioctl(fd, _IOWR('h', 0x01, struct hsagpu_device_info), raw) ==
	      -ENOTTY, "GET_INFO with another ioctl type");
	CHECK(xioctl(fd, _IOWR(HSAGPU_IOCTL_BASE, 0x00, int), raw) == -ENOTTY,
	      "command number 0");
}

/* Start and end (exclusive) of BAR @bar from sysfs "resource". */
static int bar_range(const char *dev, int bar, uint64_t *start, uint64_t *end)
{
	char path[96], line[128];
	unsigned long long s, e, f;
	FILE *fp;
	int i, ret = -1;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource", dev);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	for (i = 0; fgets(line, sizeof(line), fp); i++) {
		if (i == bar && sscanf(line, "%llx %llx %llx", &s, &e, &f) == 3) {
			*start = s;
			*end = e + 1;
			ret = 0;
		}
	}
	fclose(fp);
	return ret;
}

/* Whether the device sits in a translating IOMMU domain (DMA, DMA-FQ). */
static int iommu_translated(const char *dev)
{
	char buf[32] = "";

	if (gt_sysfs_read(dev, "iommu_group/type", buf, sizeof(buf)))
		return 0;
	return !strncmp(buf, "DMA", 3);
}

static void test_dma_fields(const char *dev,
			    const struct hsagpu_device_info *info)
{
	uint64_t s0 = 0, e0 = 0, s2 = 0, e2 = 0, lim;
	uint32_t want = 0;
	char abi[16] = "", want_abi[16];

	/* GET_INFO reports what the device (sysfs: probe time) reported. */
	gt_sysfs_read(dev, "hsagpu/abi_version", abi, sizeof(abi));
	snprintf(want_abi, sizeof(want_abi), "%u.%u", info->abi_version >> 16,
		 info->abi_version & 0xffff);
	CHECK(!strcmp(abi, want_abi), "abi_version: sysfs %s, GET_INFO %s",
	      abi, want_abi);
	CHECK(info->abi_version >> 16 == HSAGPU_ABI_MAJOR, "ABI major %u",
	      info->abi_version >> 16);

	CHECK(!bar_range(dev, HSAGPU_BAR_VRAM, &s0, &e0) &&
	      !bar_range(dev, HSAGPU_BAR_DOORBELL, &s2, &e2), "BAR ranges");
	/* x86 without bus offsets: the bus address is the resource start. */
	CHECK_EQ_U64(info->vram_bus_addr, s0);
	CHECK(info->p2p_addr_bits >= HSAGPU_P2P_ADDR_BITS_MIN &&
	      info->p2p_addr_bits <= HSAGPU_P2P_ADDR_BITS_MAX,
	      "p2p_addr_bits %u", info->p2p_addr_bits);
	if ((info->abi_version & 0xffff) < 2)
		CHECK_EQ_U64(info->p2p_addr_bits, HSAGPU_P2P_ADDR_BITS_DEFAULT);
	lim = info->p2p_addr_bits >= 64 ? UINT64_MAX :
	      1ULL << info->p2p_addr_bits;
	if (e0 <= lim)
		want |= HSAGPU_P2P_VRAM_OK;
	if (e2 <= lim)
		want |= HSAGPU_P2P_DOORBELL_OK;
	if (want == (HSAGPU_P2P_VRAM_OK | HSAGPU_P2P_DOORBELL_OK))
		want |= HSAGPU_P2P_OK;
	CHECK(info->p2p_status == want,
	      "p2p_status 0x%x, expected 0x%x (BAR0 end 0x%llx, BAR2 end 0x%llx, %u bits)",
	      info->p2p_status, want, (unsigned long long)e0,
	      (unsigned long long)e2, info->p2p_addr_bits);
	CHECK_EQ_U64(info->dma_flags & ~HSAGPU_DMA_INFO_IOMMU, 0);
	CHECK_EQ_U64(!!(info->dma_flags & HSAGPU_DMA_INFO_IOMMU),
		     iommu_translated(dev));
	DIAG("%s: BAR0 0x%llx, %u-bit DMA, p2p_status 0x%x, dma_flags 0x%x",
	     dev, (unsigned long long)info->vram_bus_addr, info->p2p_addr_bits,
	     info->p2p_status, info->dma_flags);
}

/*
 * sysfs holds one value per file (queues: one token); the debug counters
 * are in debugfs, /sys/kernel/debug/hsagpu/<dev>/.
 */
static void test_sysfs_debugfs(const char *dev, unsigned int nvec)
{
	static const char *const counters[] = {
		"error_irqs", "aer_events", "queue_irqs", "queues_active",
		"vector_irqs",
	};
	char q[96] = "", path[160], line[64];
	unsigned int i, n = 0;
	FILE *f;

	CHECK(!gt_sysfs_read(dev, "hsagpu/queues", q, sizeof(q)) &&
	      (!strcmp(q, "allowed") || !strcmp(q, "degraded") ||
	       !strcmp(q, "refused")),
	      "sysfs hsagpu/queues '%s' is not one of allowed, degraded, refused",
	      q);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/hsagpu/queue_irqs",
		 dev);
	CHECK(access(path, F_OK) != 0, "queue_irqs still in sysfs");

	if (access("/sys/kernel/debug/hsagpu", F_OK))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	for (i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/hsagpu/%s/%s",
			 dev, counters[i]);
		CHECK(access(path, R_OK) == 0, "no %s", path);
	}
	f = fopen(path, "r");   /* vector_irqs: "<vector> <count>" lines */
	while (f && fgets(line, sizeof(line), f)) {
		unsigned int v;
		unsigned long long c;

		if (sscanf(line, "%u %llu", &v, &c) == 2 && v == n)
			n++;
	}
	if (f)
		fclose(f);
	CHECK(n == nvec, "debugfs vector_irqs lists %u of %u vectors", n, nvec);
}

/*
 * vm_flags: CAPABLE with the device's CAP_VM, ENABLED as hsagpu.ko's vm
 * parameter was at open (1 in every boot of the suite), for each file.
 */
static void test_vm_flags(const char *dev,
			  const struct hsagpu_device_info *info)
{
	struct hsagpu_device_info i2;
	int param = gtq_vm_param(), fd;

	CHECK_EQ_U64(info->vm_flags & ~(HSAGPU_VM_INFO_CAPABLE |
					HSAGPU_VM_INFO_ENABLED), 0);
	CHECK(!!(info->vm_flags & HSAGPU_VM_INFO_CAPABLE) ==
	      !!(info->caps & HSAGPU_CAP_VM),
	      "vm_flags 0x%x, caps 0x%x", info->vm_flags, info->caps);
	/* on by default; off only in a boot that loads the driver with vm=0 */
	CHECK(param == gtq_boot_vm() &&
	      !!(info->vm_flags & HSAGPU_VM_INFO_ENABLED) == gtq_boot_vm(),
	      "hsagpu.ko vm=%d, vm_flags 0x%x, this boot wants vm=%d",
	      param, info->vm_flags, gtq_boot_vm());
	/* The parameter counts at open: a vm=0 file, then vm=1 again */
	fd = gtd_open_vm(dev, 0);
	CHECK(fd >= 0, "open with vm=0: %d", fd);
	if (fd < 0)
		return;
	memset(&i2, 0, sizeof(i2));
	i2.size = sizeof(i2);
	CHECK(ioctl(fd, HSAGPU_IOC_GET_INFO, &i2) == 0 &&
	      i2.vm_flags == (info->vm_flags & HSAGPU_VM_INFO_CAPABLE),
	      "vm=0 file: vm_flags 0x%x", i2.vm_flags);
	CHECK(gtq_vm_param() == param, "vm parameter not restored");
	close(fd);
}

static void test_dev(const char *dev)
{
	struct hsagpu_device_info info;
	char name[32], path[64];
	uint64_t v;
	void *ro;
	int fd, old_fd;

	CHECK(!gt_sysfs_read(dev, "hsagpu/devname", name, sizeof(name)),
	      "devname");
	snprintf(path, sizeof(path), "/dev/%s", name);
	fd = open(path, O_RDWR);
	CHECK(fd >= 0, "open %s: %s", path, strerror(errno));
	if (fd < 0)
		return;

	memset(&info, 0xff, sizeof(info));
	info.size = sizeof(info);
	CHECK(ioctl(fd, HSAGPU_IOC_GET_INFO, &info) == 0, "GET_INFO: %s",
	      strerror(errno));
	CHECK_EQ_U64(info.size, sizeof(info));
	CHECK_EQ_U64(info.vendor_id, HSAGPU_PCI_VENDOR_ID);
	CHECK_EQ_U64(info.device_id, HSAGPU_PCI_DEVICE_ID);
	gt_sysfs_u64(dev, "hsagpu/vram_size", &v);
	CHECK_EQ_U64(info.vram_size, v);
	gt_sysfs_u64(dev, "hsagpu/num_queues", &v);
	CHECK_EQ_U64(info.num_queues, v);
	gt_sysfs_u64(dev, "hsagpu/msix_vectors", &v);
	CHECK_EQ_U64(info.msix_vectors, v);
	CHECK_EQ_U64(info.doorbell_count, HSAGPU_DOORBELL_COUNT);
	CHECK_EQ_U64(info.reserved0, 0);
	CHECK(!strcmp(info.name, "QEMU HSA GPU"), "name '%.32s'", info.name);
	test_dma_fields(dev, &info);
	test_vm_flags(dev, &info);

	/*
	 * Binaries of ABI 1.1 and 1.2 know bus addresses only: their
	 * contract is checked on a file without GPU virtual memory (the
	 * driver's vm parameter at open), where it still holds.
	 */
	old_fd = gtd_open_vm(dev, 0);
	CHECK(old_fd >= 0, "open %s with vm=0: %d", dev, old_fd);
	if (old_fd >= 0) {
		/* that file's own GET_INFO (vm_flags differ) */
		struct hsagpu_device_info oinfo = { .size = sizeof(oinfo) };

		CHECK(ioctl(old_fd, HSAGPU_IOC_GET_INFO, &oinfo) == 0,
		      "GET_INFO of the vm=0 file");
		test_abi_sizes(old_fd, &oinfo);
		close(old_fd);
	}
	test_sysfs_debugfs(dev, info.msix_vectors);

	/* Wrong size field */
	info.size = sizeof(info) - 4;
	errno = 0;
	CHECK(ioctl(fd, HSAGPU_IOC_GET_INFO, &info) == -1 && errno == EINVAL,
	      "short size: errno %d", errno);
	info.size = INFO_SIZE_1_1 + 8;
	errno = 0;
	CHECK(ioctl(fd, HSAGPU_IOC_GET_INFO, &info) == -1 && errno == EINVAL,
	      "1.1 size + 8: errno %d", errno);
	info.size = sizeof(info) + 8;
	errno = 0;
	CHECK(ioctl(fd, HSAGPU_IOC_GET_INFO, &info) == -1 && errno == EINVAL,
	      "size + 8: errno %d", errno);
	info.size = 0xffffffff;
	errno = 0;
	CHECK(ioctl(fd, HSAGPU_IOC_GET_INFO, &info) == -1 && errno == EINVAL,
	      "huge size: errno %d", errno);
	/* Bad pointers */
	errno = 0;
	CHECK(ioctl(fd, HSAGPU_IOC_GET_INFO, NULL) == -1 && errno == EFAULT,
	      "NULL: errno %d", errno);
	errno = 0;
	CHECK(ioctl(fd, HSAGPU_IOC_GET_INFO, (void *)-4096L) == -1 &&
	      errno == EFAULT, "kernel pointer: errno %d", errno);
	/* Read-only memory: the size reads fine but the copy-out faults. */
	ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	((struct hsagpu_device_info *)ro)->size = sizeof(info);
	mprotect(ro, 4096, PROT_READ);
	errno = 0;
	CHECK(ioctl(fd, HSAGPU_IOC_GET_INFO, ro) == -1 && errno == EFAULT,
	      "read-only buffer: errno %d", errno);
	munmap(ro, 4096);
	/* Unknown commands */
	errno = 0;
	CHECK(ioctl(fd, _IOWR(HSAGPU_IOCTL_BASE, 0x7f, int), &info) == -1 &&
	      errno == ENOTTY, "unknown nr: errno %d", errno);
	errno = 0;
	CHECK(ioctl(fd, _IOR(HSAGPU_IOCTL_BASE, 0x01,
			     struct hsagpu_device_info), &info) == -1 &&
	      errno == ENOTTY, "wrong direction: errno %d", errno);
	close(fd);
}

int main(void)
{
	char devs[GT_MAX_DEVS][16];
	int n = gt_find_devices(devs);

	CHECK(n > 0, "no hsa-gpu device");
	for (int i = 0; i < n; i++)
		test_dev(devs[i]);
	return gt_result();
}
