// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /dev/hsagpuN: HSAGPU_IOC_GET_INFO agrees with sysfs, and hostile
 * arguments give an errno instead of an oops.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gt.h"
#include "hsagpu/hsagpu_uapi.h"

static void test_dev(const char *dev)
{
	struct hsagpu_device_info info;
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
	CHECK_EQ_U64(info.abi_version, HSAGPU_ABI_VERSION);
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

	/* Wrong size field */
	info.size = sizeof(info) - 4;
	errno = 0;
	CHECK(ioctl(fd, HSAGPU_IOC_GET_INFO, &info) == -1 && errno == EINVAL,
	      "short size: errno %d", errno);
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
