// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-kfd-memaccess: a debugger's view of VRAM. gdb reads a hipMalloc()
 * pointer through ptrace (PTRACE_PEEKDATA) or /proc/PID/mem; a VRAM
 * mapping of the render node is I/O memory (VM_IO | VM_PFNMAP) that
 * get_user_pages() cannot take, so the kernel asks the mapping's access
 * handler, as amdgpu's ttm_bo_vm_access(). Without one every such read
 * or write fails with EIO. On the first device of the KFD topology:
 *  - pread()/pwrite() of /proc/self/mem at a VRAM mapping's address read
 *    what the CPU wrote through the mapping and write what it then
 *    reads, across a page boundary;
 *  - a read that runs past the mapping's end stops at the end (a short
 *    count), one that starts there fails (when nothing is mapped there);
 *  - another process (a child that attaches with ptrace) peeks a word
 *    and pokes one, and /proc/PID/mem of the parent reads the buffer;
 *  - a mapping that was made read-only (mprotect) is read, not written
 *    (EIO), as get_user_pages() refuses a forced write to a shared
 *    mapping that is not writable;
 *  - a GTT buffer (ordinary pages) reads the same way, for comparison;
 *  - the kernel logs no problem.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gt.h"
#include "gtdev.h"
#include "gtkfd.h"

#define SZ      (64 * 1024)

static uint32_t pattern(uint32_t seed, size_t i)
{
	return seed ^ (uint32_t)(i * 0x9e3779b1u);
}

static void fill(volatile uint32_t *p, size_t words, uint32_t seed)
{
	for (size_t i = 0; i < words; i++)
		p[i] = pattern(seed, i);
}

/* Words of @p that differ from @seed's pattern, from @first on. */
static size_t wrong(const uint32_t *p, size_t first, size_t words, uint32_t seed)
{
	size_t bad = 0;

	for (size_t i = 0; i < words; i++)
		bad += p[i] != pattern(seed, first + i);
	return bad;
}

/* pread/pwrite of /proc/self/mem on one buffer; @what names it. */
static void self_mem(int mem, struct gtkfd_bo *bo, const char *what)
{
	volatile uint32_t *v = bo->p;
	uintptr_t base = (uintptr_t)bo->p;
	size_t words = SZ / 4, off = 4096 - 64;
	uint32_t buf[SZ / 4];
	ssize_t n;

	fill(v, words, 0x5eed0000);
	memset(buf, 0, sizeof(buf));
	n = pread(mem, buf, SZ, base);
	CHECK(n == SZ, "%s: pread of /proc/self/mem: %zd (%s)", what, n,
	      n < 0 ? strerror(errno) : "short");
	if (n == SZ)
		CHECK(!wrong(buf, 0, words, 0x5eed0000),
		      "%s: %zu words read through /proc/self/mem differ", what,
		      wrong(buf, 0, words, 0x5eed0000));

	/* 512 bytes across the first page boundary */
	for (size_t i = 0; i < 128; i++)
		buf[i] = pattern(0xabcd0000, off / 4 + i);
	n = pwrite(mem, buf, 512, base + off);
	CHECK(n == 512, "%s: pwrite of /proc/self/mem: %zd (%s)", what, n,
	      n < 0 ? strerror(errno) : "short");
	if (n == 512) {
		for (size_t i = 0; i < 128; i++)
			buf[i] = v[off / 4 + i];
		CHECK(!wrong(buf, off / 4, 128, 0xabcd0000),
		      "%s: the mapping does not show what /proc/self/mem wrote", what);
		CHECK(v[off / 4 - 1] == pattern(0x5eed0000, off / 4 - 1) &&
		      v[off / 4 + 128] == pattern(0x5eed0000, off / 4 + 128),
		      "%s: /proc/self/mem wrote outside its range", what);
	}

	/* bounded by the mapping (when nothing is mapped after it) */
	if (msync((void *)(base + SZ), 4096, MS_ASYNC) && errno == ENOMEM) {
		n = pread(mem, buf, 8192, base + SZ - 4096);
		CHECK(n == 4096, "%s: a read across the mapping's end returned %zd (%s)",
		      what, n, n < 0 ? strerror(errno) : "");
		n = pread(mem, buf, 64, base + SZ);
		CHECK(n <= 0, "%s: a read past the mapping returned %zd", what, n);
	} else {
		DIAG("%s: the page after the mapping is mapped: no bound check", what);
	}
}

/*
 * The child attaches to its parent with ptrace, checks a word and pokes
 * one, and reads the whole buffer through /proc/PPID/mem.
 */
static int tracer(pid_t parent, uintptr_t base)
{
	char path[64];
	uint32_t buf[SZ / 4];
	long w;
	int st, fd, ok = 1;

	if (ptrace(PTRACE_ATTACH, parent, NULL, NULL)) {
		printf("# FAIL: PTRACE_ATTACH: %s\n", strerror(errno));
		return 1;
	}
	if (waitpid(parent, &st, 0) != parent || !WIFSTOPPED(st)) {
		printf("# FAIL: the parent did not stop\n");
		return 1;
	}
	errno = 0;
	w = ptrace(PTRACE_PEEKDATA, parent, (void *)(base + 8 * 100), NULL);
	if (errno || (uint32_t)w != pattern(0x5eed0000, 200) ||
	    (uint32_t)(w >> 32) != pattern(0x5eed0000, 201)) {
		printf("# FAIL: PTRACE_PEEKDATA of VRAM: %s, 0x%lx\n",
		       errno ? strerror(errno) : "wrong data", w);
		ok = 0;
	}
	if (ptrace(PTRACE_POKEDATA, parent, (void *)(base + 8 * 300),
		   (void *)0x0123456789abcdefUL)) {
		printf("# FAIL: PTRACE_POKEDATA of VRAM: %s\n", strerror(errno));
		ok = 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)parent);
	fd = open(path, O_RDONLY);
	if (fd < 0 || pread(fd, buf, SZ, base) != SZ ||
	    wrong(buf, 0, 200, 0x5eed0000)) {
		printf("# FAIL: %s of VRAM: %s\n", path, strerror(errno));
		ok = 0;
	}
	if (fd >= 0)
		close(fd);
	ptrace(PTRACE_DETACH, parent, NULL, NULL);
	fflush(stdout);
	return ok ? 0 : 1;
}

static void other_process(struct gtkfd_bo *bo)
{
	volatile uint64_t *v = bo->p;
	pid_t pid;
	int st = 0;

	fill(bo->p, SZ / 4, 0x5eed0000);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		CHECK(0, "fork: %s", strerror(errno));
		return;
	}
	if (!pid)
		_exit(tracer(getppid(), (uintptr_t)bo->p));
	/* the child stops us while it looks */
	CHECK(!gt_wait_child(pid, &st, 30000) && WIFEXITED(st) && !WEXITSTATUS(st),
	      "the tracing child failed (status 0x%x)", st);
	CHECK(v[300] == 0x0123456789abcdefULL, "PTRACE_POKEDATA did not reach VRAM: 0x%llx",
	      (unsigned long long)v[300]);
}

int main(void)
{
	struct gtkfd_bo vram, gtt;
	struct gtkfd k;
	uint32_t buf[64];
	int mem, e, log;
	ssize_t n;

	if (access("/dev/kfd", F_OK))
		return gt_skip("no /dev/kfd (boot with hsagpu_test.kfd=1)");
	log = gtk_mark();
	e = gtkfd_open(&k);
	if (e) {
		CHECK(0, "gtkfd_open: %s", strerror(-e));
		return gt_result();
	}
	e = gtkfd_bo_alloc_in(&k, SZ, KFD_IOC_ALLOC_MEM_FLAGS_VRAM, &vram);
	CHECK(!e, "VRAM buffer: %s", strerror(-e));
	e = e ?: gtkfd_bo_alloc(&k, SZ, &gtt);
	CHECK(!e, "GTT buffer: %s", strerror(-e));
	mem = open("/proc/self/mem", O_RDWR);
	CHECK(mem >= 0, "/proc/self/mem: %s", strerror(errno));
	if (e || mem < 0)
		return gt_result();

	self_mem(mem, &gtt, "GTT");
	self_mem(mem, &vram, "VRAM");
	other_process(&vram);

	/* read-only now: read, not written */
	CHECK(!mprotect(vram.p, SZ, PROT_READ), "mprotect: %s", strerror(errno));
	n = pread(mem, buf, sizeof(buf), (uintptr_t)vram.p);
	CHECK(n == sizeof(buf), "read of read-only VRAM: %zd (%s)", n,
	      n < 0 ? strerror(errno) : "short");
	n = pwrite(mem, buf, sizeof(buf), (uintptr_t)vram.p);
	CHECK(n < 0 && errno == EIO, "write to read-only VRAM through /proc/self/mem: %zd (%s)",
	      n, n < 0 ? strerror(errno) : "written");
	CHECK(!mprotect(vram.p, SZ, PROT_READ | PROT_WRITE), "mprotect back: %s",
	      strerror(errno));

	close(mem);
	CHECK(!gtkfd_bo_free(&k, &vram), "free VRAM");
	CHECK(!gtkfd_bo_free(&k, &gtt), "free GTT");
	gtkfd_close(&k);
	CHECK(!gtk_problems(log, NULL), "kernel problems logged");
	return gt_result();
}
