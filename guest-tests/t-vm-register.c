// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User memory registered by pointer (REGISTER_MEM through
 * hsagpu_memory_register) with GPU virtual memory: memory the program
 * already has is used by the device at its own address.
 *  - malloc'd memory (at an odd offset, over several pages): a kernel
 *    fills it, DMA copies it to VRAM and back into another malloc'd
 *    buffer; guards around every range stay untouched (the registration
 *    is whole pages, the packets name exact bytes);
 *  - the stack: a kernel writes a local array, DMA reads another, and
 *    the kernel arguments themselves live on the stack;
 *  - a file mapping (MAP_SHARED of a file in /tmp): a DMA fill shows up
 *    in the file;
 *  - read-only registration: the device reads it, a write is a VM fault
 *    (PERMISSION, DMA client, write) and the memory is unchanged;
 *  - after unregistering, a device write is a VM fault (NOT_PRESENT)
 *    and the memory is unchanged;
 *  - the process changing what is under a registration, as amdkfd's
 *    userptrs allow: a huge page split (part of it unmapped: the same
 *    pages stay, so does the GPU mapping), MADV_DONTNEED (new pages: the
 *    registration moves to them, the device sees what the CPU writes
 *    there next), munmap (the registration leaves the GPU space: a VM
 *    fault), each in force before the syscall returns;
 *  - REGISTER_MEM's argument errors: empty, wrapping, unknown flags,
 *    beyond the user address range, not mapped, overlapping an
 *    allocation or another registration, and a file without GPU VM.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "gtdev.h"
#include "gtdma.h"
#include "gtioctl.h"

#define MS 5000

static struct gtq_dev d;
static hsagpu_queue_t *q;
static hsagpu_signal_t sig;
static struct gtq_arena arena;

static int reg_raw(int fd, uint64_t addr, uint64_t bytes, uint32_t flags,
		   uint64_t *handle)
{
	struct hsagpu_register_mem rm = {
		.size = sizeof(rm), .flags = flags, .addr = addr, .bytes = bytes,
	};
	int ret = gti_ioctl(fd, HSAGPU_IOC_REGISTER_MEM, &rm);

	if (!ret && handle)
		*handle = rm.handle;
	return ret;
}

/* Run @q's work up to now; 1 when it completed. */
static int run_to(hsagpu_signal_t s, const char *what)
{
	int ok = gtq_wait_eq(s, 0, MS);
	uint32_t err = 0;

	if (!ok)
		CHECK(0, "%s: signal %lld, queue state %d error %u", what,
		      (long long)gtq_value(s), hsagpu_queue_state(q, &err, NULL),
		      err);
	hsagpu_signal_store_release(s, 1);
	return ok;
}

/* The kernel FILL of @n words at @dst, kernel arguments at @ka. */
static int64_t fill_kernel(struct hsagpu_kargs_fill *ka, uint32_t *dst,
			   uint32_t n, uint32_t value, hsagpu_signal_t s)
{
	ka->dst = (uintptr_t)dst;
	ka->value = value;
	ka->reserved = 0;
	__sync_synchronize();
	return gtq_dispatch1(q, HSAGPU_KERNEL_FILL, ka, n, 64, s, 0);
}

static void test_malloc(void)
{
	const size_t n = (3 << 20) / 4 + 5;     /* words: ~3 MiB */
	uint8_t *m1 = malloc(n * 4 + 3 * 4096), *m2 = malloc(n * 4 + 3 * 4096);
	uint8_t *v = gtq_alloc(&d, n * 4 + 8192, HSAGPU_RT_MEM_VRAM);
	uint32_t *w1, *w2;
	size_t k;
	int ret;

	if (!m1 || !m2 || !v)
		return;
	/* 4 bytes into a page, guard pages either side inside the block */
	w1 = (uint32_t *)(((uintptr_t)m1 + 4095) / 4096 * 4096 + 4096 + 4);
	w2 = (uint32_t *)(((uintptr_t)m2 + 4095) / 4096 * 4096 + 4096 + 4);
	memset(m1, 0x5a, n * 4 + 3 * 4096);
	memset(m2, 0x5a, n * 4 + 3 * 4096);
	ret = hsagpu_memory_register(d.agent, w1, n * 4, 0);
	CHECK(ret == 0, "register malloc'd memory: %d", ret);
	if (ret)
		return;
	ret = hsagpu_memory_register(d.agent, w2, n * 4, 0);
	CHECK(ret == 0, "register a second malloc'd block: %d", ret);
	if (ret)
		return;
	fill_kernel(gtq_kargs(&arena, &(struct hsagpu_kargs_fill){ 0 },
			      sizeof(struct hsagpu_kargs_fill)), w1, n,
		    0x600dcafe, sig);
	if (run_to(sig, "kernel fill of malloc'd memory")) {
		for (k = 0; k < n && w1[k] == 0x600dcafe; k++)
			;
		CHECK(k == n, "kernel on malloc'd memory: word %zu of %zu is 0x%x",
		      k, n, k < n ? w1[k] : 0);
		CHECK(gtd_find_not((uint8_t *)w1 - 4100, 4100, 0x5a) == 4100 &&
		      gtd_find_not(w1 + n, 4096, 0x5a) == 4096,
		      "kernel wrote outside the range");
	}
	/* malloc -> VRAM -> malloc, through the runtime (plain pointers) */
	gtd_pattern(w1, n * 4, 11);
	CHECK(hsagpu_dma_copy(q, NULL, v + 4, w1, n * 4, sig) >= 0, "copy to VRAM");
	run_to(sig, "DMA malloc'd -> VRAM");
	CHECK(hsagpu_dma_copy(q, NULL, w2, v + 4, n * 4, sig) >= 0, "copy back");
	if (run_to(sig, "DMA VRAM -> malloc'd")) {
		CHECK(gtd_diff(w2, w1, n * 4) == n * 4,
		      "malloc'd round trip through VRAM differs at %zu",
		      gtd_diff(w2, w1, n * 4));
		CHECK(gtd_find_not((uint8_t *)w2 - 4100, 4100, 0x5a) == 4100 &&
		      gtd_find_not(w2 + n, 4096, 0x5a) == 4096,
		      "DMA wrote outside the range");
	}
	CHECK(hsagpu_memory_unregister(d.agent, w1) == 0, "unregister 1");
	CHECK(hsagpu_memory_unregister(d.agent, w2) == 0, "unregister 2");
	free(m1);
	free(m2);
	hsagpu_memory_free(d.agent, v);
}

/* A separate frame, so that the locals are a stack the test controls. */
static __attribute__((noinline)) void test_stack(void)
{
	/* one local, so that one registration covers it all */
	struct {
		uint32_t out[1024];
		struct hsagpu_kargs_fill ka __attribute__((aligned(64)));
		uint8_t in[3000];
		uint8_t copy[3000];
	} l __attribute__((aligned(64)));
	uint32_t *out = l.out;
	uint8_t *in = l.in, *copy = l.copy;
	int ret;

	memset(&l, 0, sizeof(l));
	gtd_pattern(in, sizeof(l.in), 5);
	ret = hsagpu_memory_register(d.agent, &l, sizeof(l), 0);
	CHECK(ret == 0, "register the stack: %d", ret);
	if (ret)
		return;
	fill_kernel(&l.ka, out + 1, 1000, 0x57ac4, sig);
	if (run_to(sig, "kernel on the stack")) {
		int k;

		for (k = 1; k <= 1000 && out[k] == 0x57ac4; k++)
			;
		CHECK(k == 1001 && out[0] == 0 && out[1001] == 0,
		      "kernel on a stack array: word %d wrong", k);
	}
	CHECK(hsagpu_dma_copy(q, NULL, copy, in, sizeof(l.in), sig) >= 0,
	      "copy stack -> stack");
	if (run_to(sig, "DMA on the stack"))
		CHECK(!memcmp(copy, in, sizeof(l.in)), "DMA stack copy differs");
	CHECK(hsagpu_memory_unregister(d.agent, &l) == 0, "unregister stack");
}

static void test_file(void)
{
	char path[] = "/tmp/t-vm-register.XXXXXX";
	int fd = mkstemp(path);
	uint8_t *p, buf[64];

	CHECK(fd >= 0 && ftruncate(fd, 65536) == 0, "temporary file");
	if (fd < 0)
		return;
	unlink(path);
	p = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED, "mmap the file");
	if (p != MAP_FAILED) {
		p[0] = 1;       /* make the pages exist */
		CHECK(hsagpu_memory_register(d.agent, p, 65536, 0) == 0,
		      "register a file mapping");
		CHECK(hsagpu_dma_fill(q, NULL, p + 100, 0xf11ef11e, 4000, sig) >= 0,
		      "fill");
		if (run_to(sig, "DMA fill of a file mapping")) {
			CHECK(pread(fd, buf, sizeof(buf), 100) == sizeof(buf) &&
			      gtd_check_fill(buf, sizeof(buf), 0xf11ef11e) ==
			      sizeof(buf), "the file does not show the device's fill");
		}
		hsagpu_memory_unregister(d.agent, p);
		munmap(p, 65536);
	}
	close(fd);
}

/* A packet expected to fault: on a fresh queue; the status checked. */
static void expect_fault(const char *what, uint64_t dst, uint64_t src,
			 int access, int reason, uint64_t lo)
{
	hsagpu_queue_t *fq = gtq_queue(&d, 16, 0);
	hsagpu_signal_t s = gtq_signal(&d, 1);
	struct hsagpu_queue_status st;

	if (!fq)
		return;
	gtd_copy(fq, dst, src, 4096, s);
	CHECK(gtq_wait_error_status(fq, MS, &st) == 0, "%s: no queue error", what);
	gtq_check_fault(what, &st, fq->id, lo, lo + 4096, HSAGPU_VM_CLIENT_DMA,
			access, reason);
	CHECK(gtq_value(s) == 1, "%s: the faulting packet completed", what);
	hsagpu_signal_destroy(s);
	CHECK(hsagpu_queue_destroy(fq) == 0, "%s: destroy", what);
}

static void test_readonly_and_unregister(void)
{
	uint8_t *ro = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *rw = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (ro == MAP_FAILED || rw == MAP_FAILED)
		return;
	memset(ro, 0x77, 8192);
	memset(rw, 0x11, 8192);
	CHECK(hsagpu_memory_register(d.agent, ro, 8192,
				     HSAGPU_RT_REGISTER_READONLY) == 0,
	      "register read-only");
	CHECK(hsagpu_memory_register(d.agent, rw, 8192, 0) == 0, "register");
	/* read: fine */
	CHECK(gtd_run_copy(&d, q, (uintptr_t)rw, (uintptr_t)ro, 4096, MS),
	      "copy from read-only registered memory");
	CHECK(gtd_find_not(rw, 4096, 0x77) == 4096, "read-only source data");
	/* write: a permission fault, nothing written */
	expect_fault("write to read-only registered memory", (uintptr_t)ro,
		     (uintptr_t)rw + 4096, HSAGPU_VM_ACCESS_WRITE,
		     HSAGPU_VM_REASON_PERMISSION, (uintptr_t)ro);
	CHECK(gtd_find_not(ro, 8192, 0x77) == 8192,
	      "read-only registered memory was written");
	/* unregistered: gone from the device's space */
	CHECK(hsagpu_memory_unregister(d.agent, rw) == 0, "unregister");
	memset(rw, 0x22, 8192);
	expect_fault("write to unregistered memory", (uintptr_t)rw,
		     (uintptr_t)ro, HSAGPU_VM_ACCESS_WRITE,
		     HSAGPU_VM_REASON_NOT_PRESENT, (uintptr_t)rw);
	CHECK(gtd_find_not(rw, 8192, 0x22) == 8192,
	      "unregistered memory was written");
	hsagpu_memory_unregister(d.agent, ro);
	munmap(ro, 8192);
	munmap(rw, 8192);
}

static void test_args(void)
{
	int fd = hsagpu_agent_fd(d.agent), fd0;
	uint8_t *p = mmap(NULL, 16384, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *alloc = gtq_alloc(&d, 8192, HSAGPU_RT_MEM_SYSTEM);
	uint64_t h = 0, h2 = 0;
	void *hole;

	if (p == MAP_FAILED || !alloc)
		return;
	memset(p, 1, 16384);
	hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(hole, 4096);
	EXPECT(reg_raw(fd, (uintptr_t)p, 0, 0, NULL), EINVAL, "REGISTER_MEM 0 bytes");
	EXPECT(reg_raw(fd, (uintptr_t)p, ~0ULL - 100, 0, NULL), EINVAL,
	       "REGISTER_MEM wrapping");
	EXPECT(reg_raw(fd, (uintptr_t)p, 4096, 2, NULL), EINVAL,
	       "REGISTER_MEM flags 2");
	EXPECT(reg_raw(fd, HSAGPU_VM_APERTURE_BASE, 4096, 0, NULL), EINVAL,
	       "REGISTER_MEM in the driver aperture");
	EXPECT(reg_raw(fd, (uintptr_t)hole, 4096, 0, NULL), EFAULT,
	       "REGISTER_MEM of unmapped memory");
	EXPECT(reg_raw(fd, (uintptr_t)alloc + 16, 64, 0, NULL), EBUSY,
	       "REGISTER_MEM over an allocation");
	EXPECT(reg_raw(fd, (uintptr_t)p + 4096, 8192, 0, &h), 0, "REGISTER_MEM");
	EXPECT(reg_raw(fd, (uintptr_t)p + 3 * 4096 - 1, 2, 0, &h2), EBUSY,
	       "REGISTER_MEM overlapping a registration by one byte");
	EXPECT(reg_raw(fd, (uintptr_t)p, 4096, 0, &h2), 0,
	       "REGISTER_MEM of the page just before");
	EXPECT(gti_free(fd, h), 0, "FREE_MEM of a registration");
	EXPECT(gti_free(fd, h), ENOENT, "FREE_MEM of it again");
	EXPECT(gti_free(fd, h2), 0, "FREE_MEM of the other");
	/* a file without GPU virtual memory has no registrations */
	fd0 = gtd_open_vm(d.pci, 0);
	CHECK(fd0 >= 0, "open with vm=0: %d", fd0);
	if (fd0 >= 0) {
		EXPECT(reg_raw(fd0, (uintptr_t)p, 4096, 0, NULL), EOPNOTSUPP,
		       "REGISTER_MEM without GPU virtual memory");
		close(fd0);
	}
	hsagpu_memory_free(d.agent, alloc);
	munmap(p, 16384);
}

static uint64_t dbg(const char *name)
{
	uint64_t v = 0;

	CHECK(gt_debugfs_u64(d.pci, name, &v) == 0, "no debugfs %s", name);
	return v;
}

/* DMA @n bytes from @src to @dst; 1 when it completed. */
static int dma_to(void *dst, const void *src, uint32_t n, const char *what)
{
	CHECK(hsagpu_dma_copy(q, NULL, dst, src, n, sig) >= 0, "%s: DMA copy", what);
	return run_to(sig, what);
}

#define HUGE    (2u << 20)
#define RSZ     65536u

static void test_remap(void)
{
	uint8_t *raw, *p, *r, *out;
	uint64_t inv0, rep0;
	size_t i;

	raw = mmap(NULL, 2 * HUGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	out = malloc(RSZ);
	CHECK(raw != MAP_FAILED && out, "buffers");
	if (raw == MAP_FAILED || !out)
		return;
	/* a huge page if the kernel gives one; small pages test the rest */
	p = (uint8_t *)(((uintptr_t)raw + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	madvise(p, HUGE, MADV_HUGEPAGE);
	memset(p, 0x11, HUGE);
	r = p + RSZ;
	CHECK(hsagpu_memory_register(d.agent, r, RSZ, 0) == 0, "register");
	CHECK(hsagpu_memory_register(d.agent, out, RSZ, 0) == 0, "register out");
	inv0 = dbg("userptr_invalidations");
	rep0 = dbg("userptr_repins");

	/* 1: the huge page split; the registered pages stay */
	CHECK(munmap(p + HUGE - 4096, 4096) == 0, "munmap the last page");
	memset(out, 0, RSZ);
	if (dma_to(out, r, RSZ, "copy from the registration after a split"))
		CHECK(out[0] == 0x11 && out[RSZ - 1] == 0x11,
		      "after a split: 0x%02x 0x%02x", out[0], out[RSZ - 1]);
	CHECK(dbg("userptr_invalidations") == inv0 && dbg("userptr_repins") == rep0,
	      "a split moved or took away the registration");

	/* 2: MADV_DONTNEED: zero pages from now on, written by the CPU */
	CHECK(madvise(r, RSZ, MADV_DONTNEED) == 0, "MADV_DONTNEED");
	for (i = 0; i < RSZ; i++)
		r[i] = (uint8_t)(i * 7 + 3);
	memset(out, 0, RSZ);
	if (dma_to(out, r, RSZ, "copy from the registration after MADV_DONTNEED"))
		CHECK(!memcmp(out, r, RSZ),
		      "after MADV_DONTNEED the device does not see the new pages");
	memset(out, 0x5c, RSZ);
	if (dma_to(r, out, RSZ, "copy into the registration after MADV_DONTNEED"))
		CHECK(r[0] == 0x5c && r[RSZ - 1] == 0x5c,
		      "device writes after MADV_DONTNEED do not reach the CPU");
	CHECK(dbg("userptr_repins") == rep0 + 1, "userptr_repins +%llu, expected +1",
	      (unsigned long long)(dbg("userptr_repins") - rep0));

	/* 3: munmap: out of the GPU space before munmap() returns */
	CHECK(munmap(r, RSZ) == 0, "munmap the registration");
	CHECK(dbg("userptr_invalidations") == inv0 + 1,
	      "userptr_invalidations +%llu after munmap, expected +1",
	      (unsigned long long)(dbg("userptr_invalidations") - inv0));
	expect_fault("write after munmap", (uintptr_t)r, (uintptr_t)arena.base,
		     HSAGPU_VM_ACCESS_WRITE, HSAGPU_VM_REASON_NOT_PRESENT,
		     (uintptr_t)r);
	hsagpu_memory_unregister(d.agent, r);
	hsagpu_memory_unregister(d.agent, out);
	munmap(raw, 2 * HUGE);
	free(out);
}

int main(void)
{
	int n = hsagpu_agent_count();

	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	if (n <= 0)
		return gt_result();
	if (gtq_open(0, &d) != 1) {
		gtq_close(&d);
		return gtq_result(0, 1);
	}
	if (!(d.info->caps & HSAGPU_CAP_DMA)) {
		gtq_close(&d);
		return gt_skip("no DMA engine");
	}
	q = gtq_queue(&d, 64, 0);
	sig = gtq_signal(&d, 1);
	gtq_arena_init(&d, &arena, 4096);
	if (q && sig.handle && arena.base) {
		test_args();
		test_malloc();
		test_stack();
		test_file();
		test_readonly_and_unregister();
		test_remap();
		CHECK(hsagpu_queue_state(q, NULL, NULL) == HSAGPU_QSTATE_ACTIVE,
		      "the main queue is not ACTIVE at the end");
	}
	gtq_close(&d);
	return gt_result();
}
