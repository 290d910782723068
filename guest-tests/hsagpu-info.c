// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hsagpu-info: print what the driver and the device report, and exercise
 * registers, a doorbell and VRAM from user space. Used by scripts/demo.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "gt.h"
#include "hsagpu/hsagpu_uapi.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	const char *node = argc > 1 ? argv[1] : "/dev/hsagpu0";
	struct hsagpu_device_info info = { .size = sizeof(info) };
	char devs[GT_MAX_DEVS][16], bdf[16];
	volatile uint32_t *regs;
	volatile uint64_t *db, *vram;
	size_t len, dlen, vlen, n;
	double t;
	int fd = open(node, O_RDWR);

	if (fd < 0 || ioctl(fd, HSAGPU_IOC_GET_INFO, &info)) {
		fprintf(stderr, "%s: %s\n", node, strerror(errno));
		return 1;
	}
	snprintf(bdf, sizeof(bdf), "%04x:%02x:%02x.%x", info.pci_domain,
		 info.pci_bus, info.pci_devfn >> 3, info.pci_devfn & 7);
	printf("%s at %s: %s\n", node, bdf, info.name);
	printf("  ABI %u.%u, IDs %04x:%04x, caps 0x%08x\n",
	       info.abi_version >> 16, info.abi_version & 0xffff,
	       info.vendor_id, info.device_id, info.caps);
	printf("  VRAM %llu MiB, %u queues, %u doorbells x %u bytes, %u MSI-X vectors\n",
	       (unsigned long long)info.vram_size >> 20, info.num_queues,
	       info.doorbell_count, info.doorbell_stride, info.msix_vectors);
	printf("  PCIe AtomicOps to root: %s (errno %d), requester %s\n",
	       info.atomics & HSAGPU_ATOMICS_ROUTED ? "routed" : "not available",
	       info.atomics_errno,
	       info.atomics & HSAGPU_ATOMICS_REQUESTER ? "enabled" : "disabled");
	close(fd);
	(void)gt_find_devices(devs);

	regs = gt_map_resource(bdf, HSAGPU_BAR_MMIO, &len);
	db = gt_map_resource(bdf, HSAGPU_BAR_DOORBELL, &dlen);
	vram = gt_map_resource(bdf, HSAGPU_BAR_VRAM, &vlen);
	if (!regs || !db || !vram) {
		fprintf(stderr, "cannot map the BARs of %s\n", bdf);
		return 1;
	}
	printf("  BAR5 MAGIC 0x%08x STATUS 0x%08x TIMESTAMP %u ns\n",
	       regs[HSAGPU_REG_MAGIC / 4], regs[HSAGPU_REG_STATUS / 4],
	       regs[HSAGPU_REG_TIMESTAMP_LO / 4]);
	regs[HSAGPU_REG_SCRATCH0 / 4] = 0xc0ffee;
	printf("  SCRATCH0 <- 0xc0ffee, reads back 0x%x\n",
	       regs[HSAGPU_REG_SCRATCH0 / 4]);
	db[1] = 128;
	printf("  doorbell 1 <- 128, reads back %llu\n",
	       (unsigned long long)db[1]);

	n = (vlen < (16u << 20) ? vlen : (16u << 20)) / 8;
	t = now();
	for (size_t i = 0; i < n; i++)
		vram[i] = i;
	t = now() - t;
	printf("  VRAM: wrote %zu MiB through BAR0 (write-combined) at %.0f MiB/s\n",
	       n * 8 >> 20, n * 8 / t / 1048576);
	for (size_t i = 0; i < n; i += 4099)
		if (vram[i] != i) {
			printf("  VRAM readback mismatch at word %zu\n", i);
			return 1;
		}
	printf("  VRAM readback verified\n");
	return 0;
}
