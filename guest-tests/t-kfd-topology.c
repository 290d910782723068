// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-kfd-topology: the KFD topology hsagpu_amdgpu.ko publishes in sysfs,
 * checked against the devices themselves (PCI sysfs, hsagpu's sysfs and
 * the expansion ROM's information table) and against what libhsakmt
 * 5.2.3 needs to accept it:
 *  - generation_id and system_properties readable, nodes 0..N-1 only;
 *  - node 0 is the CPU node: gpu_id 0, cpu_cores_count = online CPUs,
 *    one RAM bank of MemTotal, at least one cache, one io_link per GPU
 *    (node_from 0, node_to that GPU's node);
 *  - one GPU node per hsa-gpu bound to hsagpu (none other): a non-zero
 *    unique gpu_id, the device's vendor/device ids and PCI location, a
 *    gfx900 (gfx_target_version 90000), simd_count = 4 x the ROM's
 *    compute units (8 when the ROM says 0), a public frame-buffer bank
 *    of exactly the device's VRAM, lds > 0, caches, a render node
 *    /dev/dri/renderD<drm_render_minor> whose sysfs parent is the
 *    device, and one io_link from itself to node 0;
 *  - fw_version and sdma_fw_version (amdkfd: the MEC and SDMA firmware
 *    versions) are what the device reports for its packet processor,
 *    which runs both kinds of queue: its ABI_VERSION (GET_INFO), not 0;
 *  - GPU to GPU: a P2P link (p2p_links/M, counted in p2p_links_count)
 *    from node A to node B exactly when A's DMA reaches B's VRAM: B's
 *    BAR below A's P2P address limit (and GPUVM's 48 bits), or A
 *    behind an IOMMU with no common switch (dma_map_resource() gives an
 *    address A can emit); type PCIe, weight of two links, atomics only
 *    when A may issue them and B completes them. libhsakmt 5.2.3 then
 *    takes the GPU-GPU paths from there (ROCr's peer access);
 *  - the facade came to the device through the auxiliary bus: the
 *    device's hsagpu.kfd.N (N of /dev/hsagpuN), a child of the PCI
 *    function, is bound to the facade's driver hsagpu_amdgpu.kfd;
 *  - every "name value" line parses as libhsakmt parses it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gt.h"
#include "gtdev.h"
#include "gtdma.h"
#include "hsagpu/hsagpu_uapi.h"

#define TOPO "/sys/devices/virtual/kfd/kfd/topology"
#define AUX_DEVS "/sys/bus/auxiliary/devices"
#define AUX_DRVS "/sys/bus/auxiliary/drivers"
#define AUX_DRV "hsagpu_amdgpu.kfd"    /* the facade's auxiliary_driver */

static int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

/* Value of @name in a "name value" properties file; -1 if absent. */
static int prop(const char *path, const char *name, unsigned long long *val)
{
	char buf[4096], key[256], *p = buf;
	unsigned long long v;
	int n, found = -1;

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	/* libhsakmt's loop: sscanf("%s %llu\n%n") until it stops matching */
	while (sscanf(p, "%255s %llu\n%n", key, &v, &n) == 2) {
		if (!strcmp(key, name)) {
			*val = v;
			found = 0;
		}
		p += n;
	}
	return found;
}

static unsigned long long nprop(int node, const char *sub, const char *name)
{
	char path[PATH_MAX];
	unsigned long long v = ~0ULL;

	snprintf(path, sizeof(path), TOPO "/nodes/%d/%sproperties", node, sub);
	CHECK(!prop(path, name, &v), "%s: no %s", path, name);
	return v;
}

static int count_dirs(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* The ROM information table's compute units (0 on an older device: 8). */
static unsigned int rom_compute_units(const char *pci)
{
	char path[PATH_MAX];
	unsigned char rom[4096];
	unsigned int info, cu;
	int fd, n;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/rom", pci);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return 0;
	n = write(fd, "1", 1);
	close(fd);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, rom, sizeof(rom));
	if (fd >= 0)
		close(fd);
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "0", 1) < 0)
			DIAG("cannot disable %s", path);
		close(fd);
	}
	if (n < (int)(HSAGPU_ROM_INFO_PTR_OFFSET + 2))
		return 0;
	info = rom[HSAGPU_ROM_INFO_PTR_OFFSET] |
	       rom[HSAGPU_ROM_INFO_PTR_OFFSET + 1] << 8;
	if (info + HSAGPU_ROM_INFO_SIZE > (unsigned int)n)
		return 0;
	/* struct hsagpu_rom_info: compute_units (was reserved0) at 44 */
	memcpy(&cu, rom + info + 44, 4);
	return cu ? cu : 8;
}

/* GET_INFO of the device's own /dev/hsagpuN; -1 if unavailable. */
static int dev_info(const char *pci, struct hsagpu_device_info *info)
{
	int fd = gtd_open(pci), ret;

	if (fd < 0)
		return -1;
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	ret = ioctl(fd, HSAGPU_IOC_GET_INFO, info);
	close(fd);
	return ret;
}

/*
 * Whether a's DMA reaches b's VRAM (hsagpu_peer_reachable()): through
 * the IOMMU unless a common switch routes the request, else at b's BAR
 * bus address, which a must be able to emit (and a GPUVM entry hold).
 */
static int peer_expected(const struct hsagpu_device_info *a,
			 const struct hsagpu_device_info *b)
{
	unsigned int bits = a->p2p_addr_bits < 48 ? a->p2p_addr_bits : 48;

	if ((a->dma_flags & HSAGPU_DMA_INFO_IOMMU) &&
	    strcmp(gtd_p2p_mode(), "switch"))
		return 1;
	return b->vram_bus_addr + b->vram_size <= 1ULL << bits;
}

/* The P2P links of GPU node @node against the devices' own view. */
static void check_p2p(int node, int nodes, const int *node_dev,
		      const struct hsagpu_device_info *info,
		      const unsigned long long *caps)
{
	char path[PATH_MAX], sub[64];
	int n = 0, to, m, want, seen[GT_MAX_DEVS + 1] = { 0 };
	unsigned long long count = nprop(node, "", "p2p_links_count");

	snprintf(path, sizeof(path), TOPO "/nodes/%d/p2p_links", node);
	CHECK_EQ_U64(count_dirs(path), count);
	for (m = 0; m < (int)count; m++) {
		unsigned long long flags, atomics;

		snprintf(sub, sizeof(sub), "p2p_links/%d/", m);
		CHECK_EQ_U64(nprop(node, sub, "node_from"), node);
		to = nprop(node, sub, "node_to");
		CHECK(to >= 1 && to < nodes && to != node,
		      "node %d P2P link %d to node %d", node, m, to);
		if (to < 1 || to >= nodes || to == node)
			continue;
		CHECK(!seen[to]++, "node %d: two P2P links to node %d", node, to);
		CHECK_EQ_U64(nprop(node, sub, "type"), 2);   /* PCIe */
		CHECK_EQ_U64(nprop(node, sub, "weight"), 40);
		flags = nprop(node, sub, "flags");
		CHECK(flags & 1, "node %d P2P link %d not enabled", node, m);
		atomics = info[node_dev[node]].atomics_errno == 0 &&
			  (caps[node_dev[to]] & (HSAGPU_CAP_ATOMIC_COMP32 |
						 HSAGPU_CAP_ATOMIC_COMP64));
		CHECK(!(flags & 0xc) == !!atomics,
		      "node %d -> %d: flags 0x%llx, atomics expected %llu",
		      node, to, flags, atomics);
	}
	for (to = 1; to < nodes; to++) {
		if (to == node || node_dev[to] < 0)
			continue;
		want = peer_expected(&info[node_dev[node]], &info[node_dev[to]]);
		n += want;
		DIAG("node %d -> node %d: P2P link %s, %s", node, to,
		     seen[to] ? "present" : "absent",
		     want ? "expected" : "not expected");
		CHECK(!!seen[to] == want, "node %d -> node %d: P2P link %s",
		      node, to, want ? "missing" : "where the device cannot reach");
	}
	CHECK_EQ_U64(count, n);
}

static unsigned long long mem_total(void)
{
	char buf[4096], *p;

	if (read_file("/proc/meminfo", buf, sizeof(buf)) <= 0)
		return 0;
	p = strstr(buf, "MemTotal:");
	return p ? strtoull(p + 9, NULL, 10) * 1024 : 0;
}

int main(void)
{
	char devs[GT_MAX_DEVS][16], path[PATH_MAX], buf[256], link[PATH_MAX];
	unsigned long long v, gpu_ids[GT_MAX_DEVS + 1] = { 0 };
	int ndev = gt_find_devices(devs), nodes, node, i, j, found;
	struct hsagpu_device_info info[GT_MAX_DEVS];
	int node_dev[GT_MAX_DEVS + 1];
	unsigned long long g1, g2, caps[GT_MAX_DEVS];

	if (access(TOPO, F_OK))
		return gt_skip("no KFD topology (boot with hsagpu_test.kfd=1)");
	CHECK(read_file(TOPO "/generation_id", buf, sizeof(buf)) > 0,
	      "generation_id unreadable");
	g1 = strtoull(buf, NULL, 10);
	CHECK(!prop(TOPO "/system_properties", "platform_oem", &v),
	      "system_properties without platform_oem");
	nodes = count_dirs(TOPO "/nodes");
	DIAG("%d nodes, %d hsa-gpus", nodes, ndev);
	CHECK(nodes == ndev + 1, "%d nodes for %d devices", nodes, ndev);
	if (nodes > GT_MAX_DEVS + 1)
		nodes = GT_MAX_DEVS + 1;

	/* the CPU node */
	CHECK(read_file(TOPO "/nodes/0/gpu_id", buf, sizeof(buf)) > 0 &&
	      strtoull(buf, NULL, 10) == 0, "node 0 gpu_id %s", buf);
	CHECK_EQ_U64(nprop(0, "", "cpu_cores_count"), sysconf(_SC_NPROCESSORS_ONLN));
	CHECK_EQ_U64(nprop(0, "", "simd_count"), 0);
	CHECK_EQ_U64(nprop(0, "", "mem_banks_count"), 1);
	CHECK_EQ_U64(nprop(0, "mem_banks/0/", "heap_type"), 0);
	CHECK_EQ_U64(nprop(0, "mem_banks/0/", "size_in_bytes"), mem_total());
	CHECK(nprop(0, "", "caches_count") >= 1, "CPU node without caches");
	CHECK(nprop(0, "caches/0/", "size") > 0, "CPU cache of size 0");
	CHECK_EQ_U64(nprop(0, "", "io_links_count"), ndev);
	CHECK_EQ_U64(nprop(0, "", "p2p_links_count"), 0);
	for (i = 0; i < ndev; i++) {
		CHECK(!dev_info(devs[i], &info[i]), "%s: GET_INFO", devs[i]);
		caps[i] = info[i].caps;
	}
	for (i = 0; i <= GT_MAX_DEVS; i++)
		node_dev[i] = -1;
	for (i = 0; i < ndev; i++) {
		snprintf(path, sizeof(path), "io_links/%d/", i);
		CHECK_EQ_U64(nprop(0, path, "node_from"), 0);
		CHECK_EQ_U64(nprop(0, path, "node_to"), i + 1);
	}

	/* one GPU node per device, each matching exactly one device */
	for (node = 1; node < nodes; node++) {
		unsigned long long loc = nprop(node, "", "location_id");
		unsigned long long minor = nprop(node, "", "drm_render_minor");
		uint64_t vram = 0, vendor = 0, device = 0;
		unsigned int cu;

		snprintf(path, sizeof(path), TOPO "/nodes/%d/gpu_id", node);
		CHECK(read_file(path, buf, sizeof(buf)) > 0, "%s", path);
		gpu_ids[node] = strtoull(buf, NULL, 10);
		CHECK(gpu_ids[node] && gpu_ids[node] <= 0xffff,
		      "node %d gpu_id %llu", node, gpu_ids[node]);
		for (j = 1; j < node; j++)
			CHECK(gpu_ids[j] != gpu_ids[node], "gpu_id %llu twice",
			      gpu_ids[node]);

		found = -1;
		for (i = 0; i < ndev; i++) {
			unsigned int dom, bus, dev, fn;

			if (sscanf(devs[i], "%x:%x:%x.%x", &dom, &bus, &dev, &fn) == 4 &&
			    (bus << 8 | dev << 3 | fn) == loc &&
			    dom == nprop(node, "", "domain"))
				found = i;
		}
		CHECK(found >= 0, "node %d location_id 0x%llx is no hsa-gpu", node, loc);
		if (found < 0)
			continue;
		node_dev[node] = found;
		DIAG("node %d: %s gpu_id %llu render minor %llu", node,
		     devs[found], gpu_ids[node], minor);
		gt_sysfs_u64(devs[found], "vendor", &vendor);
		gt_sysfs_u64(devs[found], "device", &device);
		gt_sysfs_u64(devs[found], "hsagpu/vram_size", &vram);
		CHECK(vram, "%s: no hsagpu/vram_size", devs[found]);
		CHECK_EQ_U64(nprop(node, "", "vendor_id"), vendor);
		CHECK_EQ_U64(nprop(node, "", "device_id"), device);
		CHECK_EQ_U64(nprop(node, "", "gfx_target_version"), 90000);
		CHECK_EQ_U64(nprop(node, "", "cpu_cores_count"), 0);
		cu = rom_compute_units(devs[found]);
		CHECK(cu, "%s: ROM unreadable", devs[found]);
		CHECK_EQ_U64(nprop(node, "", "simd_count"), 4ULL * cu);
		CHECK_EQ_U64(nprop(node, "", "cu_per_simd_array") *
			     nprop(node, "", "simd_arrays_per_engine") *
			     nprop(node, "", "array_count"), cu);
		CHECK_EQ_U64(nprop(node, "", "simd_per_cu"), 4);
		CHECK(info[found].abi_version, "%s: ABI version 0", devs[found]);
		CHECK_EQ_U64(nprop(node, "", "fw_version"), info[found].abi_version);
		CHECK_EQ_U64(nprop(node, "", "sdma_fw_version"), info[found].abi_version);
		CHECK(nprop(node, "", "lds_size_in_kb") > 0, "no LDS");
		CHECK(nprop(node, "", "caches_count") >= 1, "GPU without caches");
		CHECK_EQ_U64(nprop(node, "", "mem_banks_count"), 1);
		CHECK_EQ_U64(nprop(node, "mem_banks/0/", "heap_type"), 1);
		CHECK_EQ_U64(nprop(node, "mem_banks/0/", "size_in_bytes"), vram);
		CHECK_EQ_U64(nprop(node, "", "io_links_count"), 1);
		CHECK_EQ_U64(nprop(node, "io_links/0/", "node_from"), node);
		CHECK_EQ_U64(nprop(node, "io_links/0/", "node_to"), 0);

		/* the render node is this device's */
		CHECK(minor >= 128 && minor < 256, "render minor %llu", minor);
		snprintf(path, sizeof(path), "/dev/dri/renderD%llu", minor);
		CHECK(!access(path, R_OK | W_OK), "%s: %s", path, strerror(errno));
		snprintf(path, sizeof(path), "/sys/class/drm/renderD%llu/device", minor);
		i = readlink(path, link, sizeof(link) - 1);
		link[i > 0 ? i : 0] = 0;
		CHECK(i > 0 && strstr(link, devs[found]), "%s -> %s", path, link);
		snprintf(path, sizeof(path), TOPO "/nodes/%d/name", node);
		CHECK(read_file(path, buf, sizeof(buf)) > 0, "%s", path);

		/* bound through the auxiliary bus, under the PCI function */
		link[0] = 0;
		CHECK(!gt_sysfs_read(devs[found], "hsagpu/devname", buf, sizeof(buf)) &&
		      !strncmp(buf, "hsagpu", 6), "%s: devname %s", devs[found], buf);
		snprintf(path, sizeof(path), AUX_DEVS "/hsagpu.kfd.%s", buf + 6);
		CHECK(realpath(path, link) && strstr(link, devs[found]),
		      "%s -> %s", path, link);
		snprintf(path, sizeof(path), AUX_DEVS "/hsagpu.kfd.%s/driver", buf + 6);
		i = readlink(path, link, sizeof(link) - 1);
		link[i > 0 ? i : 0] = 0;
		CHECK(i > 0 && strstr(link, "/" AUX_DRV), "%s -> %s", path, link);
		snprintf(path, sizeof(path), AUX_DRVS "/" AUX_DRV "/hsagpu.kfd.%s",
			 buf + 6);
		CHECK(!access(path, F_OK), "%s: %s", path, strerror(errno));
	}
	for (node = 1; node < nodes; node++)
		if (node_dev[node] >= 0)
			check_p2p(node, nodes, node_dev, info, caps);
	CHECK(read_file(TOPO "/generation_id", buf, sizeof(buf)) > 0, "generation_id");
	g2 = strtoull(buf, NULL, 10);
	CHECK(g1 == g2, "generation changed during the test: %llu %llu", g1, g2);
	return gt_result();
}
