// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /dev/hsagpuN: HSAGPU_IOC_GET_INFO agrees with sysfs (ABI 1.2 fields:
 * BAR0 bus address, P2P address limit and status, IOMMU), the ABI 1.1
 * structure size still works, and hostile arguments give an errno instead
 * of an oops.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gt.h"
#include "hsagpu/hsagpu_uapi.h"

#define INFO_SIZE_1_1 offsetof(struct hsagpu_device_info, vram_bus_addr)

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
	CHECK_EQ_U64(info->reserved1, 0);
	DIAG("%s: BAR0 0x%llx, %u-bit DMA, p2p_status 0x%x, dma_flags 0x%x",
	     dev, (unsigned long long)info->vram_bus_addr, info->p2p_addr_bits,
	     info->p2p_status, info->dma_flags);
}

static void test_dev(const char *dev)
{
	struct hsagpu_device_info info, old;
	char name[32], path[64];
	uint64_t v;
	void *ro;
	int fd;

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

	/* The ABI 1.1 size: that much is written, nothing after it. */
	memset(&old, 0xa5, sizeof(old));
	old.size = INFO_SIZE_1_1;
	CHECK(ioctl(fd, HSAGPU_IOC_GET_INFO, &old) == 0, "GET_INFO 1.1 size: %s",
	      strerror(errno));
	CHECK_EQ_U64(old.size, INFO_SIZE_1_1);
	CHECK(!memcmp((char *)&old + 4, (char *)&info + 4, INFO_SIZE_1_1 - 4),
	      "1.1 layout differs");
	for (size_t i = INFO_SIZE_1_1; i < sizeof(old); i++)
		if (((uint8_t *)&old)[i] != 0xa5) {
			CHECK(0, "GET_INFO 1.1 size wrote byte %zu", i);
			break;
		}

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
