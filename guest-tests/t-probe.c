// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The driver bound to every hsa-gpu function, validated it, and what it
 * reports in sysfs matches the QEMU properties the host booted with
 * (passed as hsagpu_test.* kernel parameters). Each device has the
 * auxiliary device the KFD facade binds to, hsagpu.kfd.N for /dev/hsagpuN,
 * a child of the PCI function (bound or not: t-kfd-topology checks that).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gt.h"

int main(void)
{
	char devs[GT_MAX_DEVS][16];
	uint64_t want_devs = 1;
	int n = gt_find_devices(devs);

	gt_param_u64("devs", 0, &want_devs);
	CHECK(n == (int)want_devs, "found %d hsa-gpu functions, expected %llu",
	      n, (unsigned long long)want_devs);

	for (int i = 0; i < n; i++) {
		uint64_t want_vram = HSAGPU_VRAM_SIZE_DEFAULT;
		uint64_t want_queues = HSAGPU_NUM_QUEUES_DEFAULT;
		const char *want_atomics = gt_param("atomics");
		char atomics[32] = "";
		char buf[256], path[300], want[16];
		uint64_t v;
		struct stat st;

		if (want_atomics) {
			snprintf(atomics, sizeof(atomics), "%s", want_atomics);
			want_atomics = atomics;
		}
		gt_param_u64("vram", i, &want_vram);
		gt_param_u64("queues", i, &want_queues);
		DIAG("%s: expecting vram %llu queues %llu", devs[i],
		     (unsigned long long)want_vram,
		     (unsigned long long)want_queues);

		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver",
			 devs[i]);
		memset(buf, 0, sizeof(buf));
		CHECK(readlink(path, buf, sizeof(buf) - 1) > 0 &&
		      strstr(buf, "/hsagpu"), "%s: driver not bound (%s)",
		      devs[i], buf);

		CHECK(!gt_sysfs_u64(devs[i], "hsagpu/vram_size", &v), "vram_size");
		CHECK_EQ_U64(v, want_vram);
		CHECK(!gt_sysfs_u64(devs[i], "hsagpu/num_queues", &v), "num_queues");
		CHECK_EQ_U64(v, want_queues);
		CHECK(!gt_sysfs_u64(devs[i], "hsagpu/msix_vectors", &v), "msix");
		CHECK_EQ_U64(v, want_queues + 1);
		CHECK(!gt_sysfs_u64(devs[i], "hsagpu/doorbell_count", &v), "db");
		CHECK_EQ_U64(v, HSAGPU_DOORBELL_COUNT);
		CHECK(!gt_sysfs_u64(devs[i], "hsagpu/doorbell_stride", &v), "db");
		CHECK_EQ_U64(v, HSAGPU_DOORBELL_STRIDE);

		snprintf(want, sizeof(want), "%u.%u", HSAGPU_ABI_MAJOR,
			 HSAGPU_ABI_MINOR);
		CHECK(!gt_sysfs_read(devs[i], "hsagpu/abi_version", buf,
				     sizeof(buf)) && !strcmp(buf, want),
		      "abi_version '%s', expected '%s'", buf, want);
		CHECK(!gt_sysfs_read(devs[i], "hsagpu/product_name", buf,
				     sizeof(buf)) && !strcmp(buf, "QEMU HSA GPU"),
		      "product_name '%s' (from the ROM table)", buf);

		/* The character device exists and is named in sysfs. */
		CHECK(!gt_sysfs_read(devs[i], "hsagpu/devname", buf, sizeof(buf)),
		      "devname");
		snprintf(path, sizeof(path), "/dev/%s", buf);
		CHECK(stat(path, &st) == 0 && S_ISCHR(st.st_mode),
		      "%s is not a character device", path);
		if (!strncmp(buf, "hsagpu", 6)) {
			snprintf(path, sizeof(path),
				 "/sys/bus/pci/devices/%s/hsagpu.kfd.%s", devs[i],
				 buf + 6);
			CHECK(stat(path, &st) == 0 && S_ISDIR(st.st_mode),
			      "%s missing", path);
			snprintf(path, sizeof(path),
				 "/sys/bus/auxiliary/devices/hsagpu.kfd.%s", buf + 6);
			CHECK(stat(path, &st) == 0, "%s missing", path);
		}

		/* MSI-X is enabled (msi_irqs lists one entry per vector). */
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/msi_irqs/",
			 devs[i]);
		CHECK(stat(path, &st) == 0, "%s missing: MSI-X not enabled", path);

		if (want_atomics) {
			CHECK(!gt_sysfs_read(devs[i], "hsagpu/atomic_ops", buf,
					     sizeof(buf)) &&
			      !strcmp(buf, want_atomics),
			      "atomic_ops '%s', expected '%s'", buf,
			      want_atomics);
		}
		CHECK(!gt_sysfs_u64(devs[i], "hsagpu/atomic_ops_errno", &v),
		      "atomic_ops_errno");
		DIAG("%s: atomic_ops=%s errno=%lld", devs[i], buf, (long long)v);
	}
	return gt_result();
}
