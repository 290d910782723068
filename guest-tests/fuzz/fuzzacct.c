// SPDX-License-Identifier: GPL-2.0-or-later
/* The guest fuzzers' end checks: fuzzacct.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzzacct.h"

long fuzz_meminfo_kb(const char *key)
{
	char line[128];
	long v = -1;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			v = strtol(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

static void meminfo_all(struct fuzz_acct *a)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];

	a->n = 0;
	while (f && a->n < FUZZ_MEMINFO_MAX && fgets(line, sizeof(line), f))
		if (sscanf(line, "%31[^:]: %ld", a->key[a->n], &a->kb[a->n]) == 2)
			a->n++;
	if (f)
		fclose(f);
}

static void write_proc(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd >= 0) {
		if (write(fd, val, strlen(val)) < 0)
			DIAG("%s: %s", path, strerror(errno));
		close(fd);
	}
}

/*
 * Page cache and slab caches go; compaction also drains the per-CPU free
 * page lists, which otherwise hide tens of MiB of free pages from
 * MemAvailable at random.
 */
static void drop_caches(void)
{
	sync();
	write_proc("/proc/sys/vm/drop_caches", "3\n");
	write_proc("/proc/sys/vm/compact_memory", "1\n");
}

static long drv_count(const char *pci, const char *name)
{
	uint64_t v;

	return gt_debugfs_u64(pci, name, &v) ? -1 : (long)v;
}

void fuzz_account(struct fuzz_acct *a, char pcis[][16], int ndevs)
{
	long prev = -1;
	int i;

	/*
	 * Deferred frees (RCU, workqueues, exiting children) settle first:
	 * until MemAvailable holds still within 1 MiB over 200 ms (the
	 * faster the device, the more is in flight when the run stops).
	 */
	usleep(300000);
	for (i = 0; i < 15; i++) {
		drop_caches();
		a->avail_kb = fuzz_meminfo_kb("MemAvailable");
		if (prev >= 0 && labs(a->avail_kb - prev) < 1024)
			break;
		prev = a->avail_kb;
		usleep(200000);
	}
	a->slab_kb = fuzz_meminfo_kb("Slab");
	a->unreclaim_kb = fuzz_meminfo_kb("SUnreclaim");
	a->avail_kb = fuzz_meminfo_kb("MemAvailable");
	meminfo_all(a);
	for (i = 0; i < ndevs && i < GT_MAX_DEVS; i++) {
		a->queues[i] = drv_count(pcis[i], "queues_active");
		a->sysmem[i] = drv_count(pcis[i], "sysmem_bytes");
		a->pinned[i] = drv_count(pcis[i], "userptr_pages");
	}
}

void fuzz_acct_check(const struct fuzz_acct *b, const struct fuzz_acct *a,
		     char pcis[][16], int ndevs)
{
	printf("# memory: Slab %ld -> %ld kB, SUnreclaim %ld -> %ld kB, MemAvailable %ld -> %ld kB\n",
	       b->slab_kb, a->slab_kb, b->unreclaim_kb, a->unreclaim_kb,
	       b->avail_kb, a->avail_kb);
	for (int i = 0; i < ndevs && i < GT_MAX_DEVS; i++) {
		printf("# %s: queues_active %ld -> %ld, sysmem_bytes %ld -> %ld, userptr_pages %ld -> %ld\n",
		       pcis[i], b->queues[i], a->queues[i], b->sysmem[i], a->sysmem[i],
		       b->pinned[i], a->pinned[i]);
		/* exact: every queue, allocation and pin went with its file */
		CHECK(b->queues[i] >= 0 && a->queues[i] == b->queues[i],
		      "%s: %ld queues still active after every file closed",
		      pcis[i], a->queues[i] - b->queues[i]);
		CHECK(b->sysmem[i] >= 0 && a->sysmem[i] == b->sysmem[i],
		      "%s: %ld bytes of SYSTEM memory still allocated after every file closed",
		      pcis[i], a->sysmem[i] - b->sysmem[i]);
		CHECK(b->pinned[i] >= 0 && a->pinned[i] == b->pinned[i],
		      "%s: %ld user pages still pinned after every file closed",
		      pcis[i], a->pinned[i] - b->pinned[i]);
	}
	/*
	 * Leaks the driver's counters cannot see (its own slab objects,
	 * pages lost between the kernel's allocators): margins absorb slab
	 * caches that grow once and per-CPU lists, and MemAvailable, which
	 * moves by up to 35 MiB either way between runs with nothing leaked
	 * (the counters above back to the byte); a leak of what the run did
	 * (hundreds of thousands of allocations of pages) is far above them.
	 */
	CHECK(a->unreclaim_kb - b->unreclaim_kb < 4096,
	      "unreclaimable slab grew by %ld kB", a->unreclaim_kb - b->unreclaim_kb);
	CHECK(b->avail_kb - a->avail_kb < 65536,
	      "MemAvailable dropped by %ld kB", b->avail_kb - a->avail_kb);
	if (b->avail_kb - a->avail_kb >= 32768) {
		printf("# meminfo lines that moved by 4 MiB or more:\n");
		for (int i = 0; i < a->n && i < b->n; i++)
			if (labs(a->kb[i] - b->kb[i]) >= 4096)
				printf("#   %s %ld -> %ld kB\n", a->key[i], b->kb[i], a->kb[i]);
	}
}

int fuzz_kernel_trouble(unsigned long *lines)
{
	static const char *const bad[] = {
		"BUG: ", "Oops", "WARNING: ", "general protection fault",
		"Call Trace:", "kernel BUG", "unable to handle", "UBSAN",
		"KASAN", "list_add corruption", "list_del corruption",
		"refcount_t", "Kernel panic", "hsagpu: leak",
	};
	char buf[512];
	unsigned long n = 0;
	int found = 0;
	FILE *p = popen("dmesg", "r");

	if (!p)
		return 0;
	while (fgets(buf, sizeof(buf), p)) {
		if (++n <= *lines)
			continue;
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			if (strstr(buf, bad[i])) {
				printf("# kernel: %s", buf);
				found++;
				break;
			}
	}
	pclose(p);
	*lines = n;
	return found;
}

void fuzz_run_child(void (*fn)(void *), void *arg)
{
	pid_t run, r;
	int st = 0;

	fflush(stdout);
	run = fork();
	if (run == 0) {
		fn(arg);
		fflush(stdout);
		_exit(gt_result() ? 1 : 0);
	}
	CHECK(run > 0, "fork of the run: %s", strerror(errno));
	if (run <= 0)
		return;
	while ((r = waitpid(run, &st, 0)) < 0 && errno == EINTR)
		;
	CHECK(r == run, "waitpid for the run: %s", strerror(errno));
	CHECK(r == run && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "the run failed (its checks above) or died (status 0x%x)", st);
}
