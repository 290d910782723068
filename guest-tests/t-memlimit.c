// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Memory a process allocates through the driver is its own (review
 * finding D2): SYSTEM allocations are charged to its memory cgroup, and
 * per-file / per-device limits (hsagpu.ko parameters) bound what any
 * process of the device group can pin.
 *
 *  - memcg: a child in a cgroup v2 with memory.max = 32 MiB allocates
 *    SYSTEM memory in 1 MiB pieces: the cgroup's memory.current must grow
 *    with the allocations, and ALLOC_MEM must fail with ENOMEM before
 *    128 MiB (an unaccounted driver hands out all of it);
 *  - limits: with file_alloc_limit, file_sysmem_limit_mb and
 *    sysmem_limit_mb set small, the allocation past each gives EDQUOT,
 *    memory that is freed but still mapped still counts, and unmapping
 *    gives the room back; the parameters are restored afterwards.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gt.h"
#include "gtdev.h"
#include "gtioctl.h"

#define MiB (1ULL << 20)
#define CG "/sys/fs/cgroup"
#define CG_TEST CG "/hsagpu-t-memlimit"
#define PARAMS "/sys/module/hsagpu/parameters/"
#define CG_MAX (32 * MiB)
#define TRY_MAX (128 * MiB)

static int read_u64(const char *path, uint64_t *v)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	*v = strtoull(buf, NULL, 0);
	return 0;
}

static int set_param(const char *name, unsigned int v)
{
	char path[128], val[32];

	snprintf(path, sizeof(path), PARAMS "%s", name);
	snprintf(val, sizeof(val), "%u", v);
	return gt_sysfs_write(path, val);
}

/* A cgroup v2 with the memory controller and memory.max = @max. */
static int cgroup_setup(uint64_t max)
{
	char val[32];

	if (access(CG "/cgroup.controllers", F_OK) &&
	    mount("cgroup2", CG, "cgroup2", 0, NULL))
		return -1;
	if (gt_sysfs_write(CG "/cgroup.subtree_control", "+memory"))
		return -2;
	if (mkdir(CG_TEST, 0755) && errno != EEXIST)
		return -3;
	snprintf(val, sizeof(val), "%llu", (unsigned long long)max);
	if (gt_sysfs_write(CG_TEST "/memory.max", val))
		return -4;
	return 0;
}

/*
 * In the cgroup: allocate 1 MiB pieces until ALLOC_MEM fails or
 * TRY_MAX; report "<bytes allocated> <errno> <memory.current at 0>
 * <memory.current after 16 MiB>".
 */
static void memcg_child(const char *pci, int wfd)
{
	uint64_t total = 0, cur0 = 0, cur16 = 0;
	struct hsagpu_alloc_mem am;
	char msg[128], pid[32];
	int fd, e = 0;

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (gt_sysfs_write(CG_TEST "/cgroup.procs", pid))
		_exit(2);
	fd = gtd_open(pci);
	if (fd < 0)
		_exit(3);
	read_u64(CG_TEST "/memory.current", &cur0);
	while (total < TRY_MAX) {
		e = gti_alloc(fd, HSAGPU_MEM_SYSTEM, MiB, &am);
		if (e)
			break;
		total += MiB;
		if (total == 16 * MiB)
			read_u64(CG_TEST "/memory.current", &cur16);
	}
	snprintf(msg, sizeof(msg), "%llu %d %llu %llu\n",
		 (unsigned long long)total, e, (unsigned long long)cur0,
		 (unsigned long long)cur16);
	if (write(wfd, msg, strlen(msg)) < 0)
		_exit(4);
	close(fd);
	_exit(0);
}

static void test_memcg(const char *pci)
{
	unsigned long long total = 0, cur0 = 0, cur16 = 0;
	int ret = cgroup_setup(CG_MAX), p[2], e = -1, status = -1;
	char msg[128] = "";
	pid_t pid;

	CHECK(ret == 0, "cgroup v2 memory controller: setup step %d failed", -ret);
	if (ret || pipe(p))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		memcg_child(pci, p[1]);
	}
	close(p[1]);
	gt_read_line(p[0], msg, sizeof(msg), 120000);
	CHECK(gt_wait_child(pid, &status, 60000) == 0 && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "cgroup child: wait status 0x%x", status);
	close(p[0]);
	CHECK(sscanf(msg, "%llu %d %llu %llu", &total, &e, &cur0, &cur16) == 4,
	      "no report from the cgroup child: '%s'", msg);
	DIAG("memory.max %llu MiB: ALLOC_MEM gave %llu MiB, then errno %d; memory.current %llu KiB at start, %llu KiB after 16 MiB",
	     CG_MAX / MiB, total / MiB, e, cur0 >> 10, cur16 >> 10);
	CHECK(cur16 >= cur0 + 16 * MiB,
	      "16 MiB of SYSTEM memory raised memory.current by %lld KiB only: not charged",
	      ((long long)cur16 - (long long)cur0) >> 10);
	CHECK(total <= CG_MAX && e == ENOMEM,
	      "a cgroup with memory.max %llu MiB got %llu MiB (errno %d): expected ENOMEM before the limit",
	      CG_MAX / MiB, total / MiB, e);
	rmdir(CG_TEST);
}

/* Allocate and map @bytes; the handle, the mapping in *@map. */
static int alloc_map(int fd, uint64_t bytes, struct hsagpu_alloc_mem *am,
		     void **map)
{
	int e = gti_alloc(fd, HSAGPU_MEM_SYSTEM, bytes, am);

	*map = NULL;
	if (e)
		return e;
	*map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    am->mmap_offset);
	if (*map == MAP_FAILED)
		*map = NULL;
	return 0;
}

static void test_limits(const char *pci)
{
	struct hsagpu_alloc_mem am[10], big, x;
	uint64_t v;
	void *map = NULL;
	int fa, fb, i, e;

	CHECK(read_u64(PARAMS "file_alloc_limit", &v) == 0 && v > 0,
	      "hsagpu.ko has no file_alloc_limit parameter (or it is 0)");
	CHECK(read_u64(PARAMS "file_sysmem_limit_mb", &v) == 0,
	      "hsagpu.ko has no file_sysmem_limit_mb parameter");
	CHECK(read_u64(PARAMS "sysmem_limit_mb", &v) == 0,
	      "hsagpu.ko has no sysmem_limit_mb parameter");
	if (gt_failures)
		return;

	/* Allocations per file (VRAM ones count too). */
	set_param("file_alloc_limit", 8);
	fa = gtd_open(pci);
	CHECK(fa >= 0, "open");
	for (i = 0; i < 8; i++)
		EXPECT(gti_alloc(fa, i & 1 ? HSAGPU_MEM_VRAM : HSAGPU_MEM_SYSTEM,
				 4096, &am[i]), 0, "allocation %d of 8", i + 1);
	EXPECT(gti_alloc(fa, HSAGPU_MEM_SYSTEM, 4096, &am[8]), EDQUOT,
	       "allocation 9 with file_alloc_limit=8");
	EXPECT(gti_alloc(fa, HSAGPU_MEM_VRAM, 4096, &am[8]), EDQUOT,
	       "VRAM allocation 9 with file_alloc_limit=8");
	EXPECT(gti_free(fa, am[0].handle), 0, "free one");
	EXPECT(gti_alloc(fa, HSAGPU_MEM_SYSTEM, 4096, &am[0]), 0,
	       "allocation after a free");
	close(fa);
	set_param("file_alloc_limit", 65536);

	/* SYSTEM bytes per file; freed but mapped still counts. */
	set_param("file_sysmem_limit_mb", 4);
	fa = gtd_open(pci);
	EXPECT(alloc_map(fa, 3 * MiB, &big, &map), 0, "3 MiB of a 4 MiB file limit");
	CHECK(map, "mmap 3 MiB");
	EXPECT(gti_alloc(fa, HSAGPU_MEM_SYSTEM, 2 * MiB, &x), EDQUOT,
	       "2 MiB more with file_sysmem_limit_mb=4");
	EXPECT(gti_alloc(fa, HSAGPU_MEM_SYSTEM, MiB, &x), 0, "1 MiB more");
	EXPECT(gti_free(fa, x.handle), 0, "free the 1 MiB");
	EXPECT(gti_free(fa, big.handle), 0, "free the 3 MiB (still mapped)");
	EXPECT(gti_alloc(fa, HSAGPU_MEM_SYSTEM, 2 * MiB, &x), EDQUOT,
	       "2 MiB while the freed 3 MiB is still mapped");
	if (map)
		munmap(map, 3 * MiB);
	EXPECT(gti_alloc(fa, HSAGPU_MEM_SYSTEM, 2 * MiB, &x), 0,
	       "2 MiB once the 3 MiB is unmapped");
	close(fa);

	/* SYSTEM bytes per device, all files together. */
	set_param("sysmem_limit_mb", 6);
	fa = gtd_open(pci);
	fb = gtd_open(pci);
	EXPECT(gti_alloc(fa, HSAGPU_MEM_SYSTEM, 4 * MiB, &x), 0, "file A: 4 MiB");
	EXPECT(gti_alloc(fb, HSAGPU_MEM_SYSTEM, 2 * MiB, &x), 0, "file B: 2 MiB");
	e = gti_alloc(fb, HSAGPU_MEM_SYSTEM, 4096, &x);
	EXPECT(e, EDQUOT, "file B: 4 KiB more with sysmem_limit_mb=6");
	close(fa);
	EXPECT(gti_alloc(fb, HSAGPU_MEM_SYSTEM, 2 * MiB, &x), 0,
	       "file B: 2 MiB after file A closed");
	close(fb);
	set_param("sysmem_limit_mb", 0);
	set_param("file_sysmem_limit_mb", 0);
	DIAG("limits: 9th allocation, 2 MiB over a 4 MiB file, 4 KiB over a 6 MiB device: EDQUOT (%d)",
	     e);
}

int main(void)
{
	char devs[GT_MAX_DEVS][16];
	int n = gt_find_devices(devs);

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (n <= 0)
		return gt_skip("no hsa-gpu device");
	test_memcg(devs[0]);
	test_limits(devs[0]);
	return gt_result();
}
