// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Registered memory that the process gives up while the device still
 * has work on it: the device must never write a page the process no
 * longer owns. The memory is registered (hsagpu_memory_register), packets
 * that write it are queued, then the process takes it away and puts a
 * fresh "canary" mapping at the very same address; the canary must
 * never be written by the device and the late packets must take a VM
 * fault inside the old range (with GPU VM the page tables follow the
 * process: the MMU notifier takes the registration out and acknowledges
 * the TLB invalidation before munmap returns).
 *  1. munmap while DMA fills and a kernel are held behind a BARRIER_AND
 *     (deterministic: they run after the munmap, when the gate opens);
 *  2. the same behind a long BUSY kernel that runs through the munmap;
 *     in these two the memory is a memfd mapped twice: the second view
 *     shows the very pages that were registered, which the device must
 *     not write after the munmap either (they are still pinned until the
 *     registration is given back, but no longer the registered range);
 *  3. free() of a large malloc'd block (glibc gives it back with
 *     munmap) while held packets target it;
 *  4. madvise(MADV_DONTNEED) of the range: the range stays, its pages
 *     are replaced by zero pages; as amdkfd's userptrs, the registration
 *     follows them, so the late packets complete without a fault and
 *     their writes are what the process reads there;
 *  5. munmap during a long DMA copy into the range: whatever the timing,
 *     the canary at the same address is not written; the copy either
 *     finished before the munmap or faults inside the range.
 * Each time the queue that faulted is destroyed and a new one works.
 */
#define _GNU_SOURCE             /* memfd_create */
#include <stdlib.h>
#include <sys/mman.h>

#include "gtdev.h"
#include "gtdma.h"

#define MS 10000
#define LEN (256 << 10)
#define CANARY 0xc5

static struct gtq_dev d;
static struct gtq_arena arena;
static uint8_t *src;                    /* system allocation: DMA source */

/* A fresh anonymous mapping exactly at @addr, filled with the canary. */
static uint8_t *canary_at(void *addr, size_t len)
{
	uint8_t *p = mmap(addr, len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			  -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (p != addr) {
		munmap(p, len);
		return NULL;
	}
	memset(p, CANARY, len);
	return p;
}

/* The late work: 3 DMA fills and a kernel fill into [r, r + len). */
static void queue_writes(hsagpu_queue_t *q, uint8_t *r, size_t len,
			 hsagpu_signal_t done)
{
	struct hsagpu_kargs_fill k = { .dst = (uintptr_t)(r + 8192),
				       .value = 0xdeadbeef };

	gtd_fill(q, (uintptr_t)r, 0x11111111, len / 2, GTD_NONE);
	gtd_fill(q, (uintptr_t)(r + len / 2), 0x22222222, len / 2, GTD_NONE);
	gtq_dispatch1(q, HSAGPU_KERNEL_FILL, gtq_kargs(&arena, &k, sizeof(k)),
		      1024, 64, GTD_NONE, 0);
	gtd_fill(q, (uintptr_t)r, 0x33333333, len, done);
}

/* The fault of @q lies in [lo, lo + len); its last packet did not complete. */
static void check_late(const char *what, hsagpu_queue_t *q, uint8_t *lo,
		       size_t len, hsagpu_signal_t done)
{
	struct hsagpu_queue_status st;

	CHECK(gtq_wait_error_status(q, MS, &st) == 0,
	      "%s: the late packets did not fault (state %u, signal %lld)", what,
	      st.state, (long long)gtq_value(done));
	gtq_check_fault(what, &st, q->id, (uintptr_t)lo, (uintptr_t)lo + len,
			HSAGPU_VM_CLIENT_DMA, HSAGPU_VM_ACCESS_WRITE,
			HSAGPU_VM_REASON_NOT_PRESENT);
	CHECK(gtq_value(done) == 1, "%s: the last packet completed", what);
}

static void check_canary(const char *what, const uint8_t *c, size_t len)
{
	size_t k = gtd_find_not(c, len, CANARY);

	CHECK(k == len, "%s: the device wrote the new mapping at the old address (byte %zu is 0x%02x)",
	      what, k, k < len ? c[k] : 0);
}

/* A queue still works after the previous one faulted and was destroyed. */
static void check_fresh_queue(const char *what)
{
	hsagpu_queue_t *q = gtq_queue(&d, 16, 0);
	uint8_t *dst = gtq_alloc(&d, 8192, HSAGPU_RT_MEM_SYSTEM);

	if (q && dst)
		CHECK(gtd_run_copy(&d, q, (uintptr_t)dst, (uintptr_t)src, 8192, MS) &&
		      !memcmp(dst, src, 8192), "%s: a new queue does not work", what);
	if (q)
		hsagpu_queue_destroy(q);
	if (dst)
		hsagpu_memory_free(d.agent, dst);
}

enum how { GATE_MUNMAP, BUSY_MUNMAP, FREE, DONTNEED };

static void held_case(enum how how, const char *what)
{
	hsagpu_queue_t *q = gtq_queue(&d, 64, 0);
	hsagpu_signal_t gate = gtq_signal(&d, 1), done = gtq_signal(&d, 1);
	void *block = NULL;
	uint8_t *r, *c = NULL, *view = NULL;
	int ret, mfd = -1;

	if (!q)
		return;
	if (how == FREE) {
		/* glibc serves this with mmap and gives it back with munmap */
		block = malloc(LEN + 8192);
		r = block ? (uint8_t *)(((uintptr_t)block + 4095) & ~4095ULL) : NULL;
	} else if (how == DONTNEED) {
		r = mmap(NULL, LEN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (r == MAP_FAILED)
			r = NULL;
	} else {
		/* two views of one memfd: r is registered, view stays */
		mfd = memfd_create("t-vm-unmap", 0);
		r = view = NULL;
		if (mfd >= 0 && ftruncate(mfd, LEN) == 0) {
			r = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED,
				 mfd, 0);
			view = mmap(NULL, LEN, PROT_READ | PROT_WRITE,
				    MAP_SHARED, mfd, 0);
			if (r == MAP_FAILED || view == MAP_FAILED)
				r = view = NULL;
		}
	}
	CHECK(r != NULL, "%s: memory", what);
	if (!r)
		return;
	memset(r, 0x5a, LEN);
	ret = hsagpu_memory_register(d.agent, r, LEN, 0);
	CHECK(ret == 0, "%s: register: %d", what, ret);
	if (ret)
		return;
	/* A first write works: the registration is live */
	CHECK(gtd_run_copy(&d, q, (uintptr_t)r, (uintptr_t)src, 4096, MS) &&
	      !memcmp(r, src, 4096), "%s: registered memory not written", what);

	if (how == BUSY_MUNMAP) {
		/* a BUSY kernel runs beside later packets: hold them behind it */
		gtq_busy(q, &arena, 1500 * GTQ_MS, GTD_NONE, 1);
		gtq_barrier(q, HSAGPU_PKT_TYPE_BARRIER_AND, NULL, 0, GTD_NONE, 1);
	} else {
		gtq_barrier(q, HSAGPU_PKT_TYPE_BARRIER_AND, &gate, 1, GTD_NONE, 1);
	}
	queue_writes(q, r, LEN, done);
	gtq_sleep_ms(20);

	switch (how) {
	case GATE_MUNMAP:
	case BUSY_MUNMAP:
		CHECK(munmap(r, LEN) == 0, "%s: munmap", what);
		c = canary_at(r, LEN);
		break;
	case FREE:
		free(block);
		c = canary_at(r, LEN);
		break;
	case DONTNEED:
		CHECK(madvise(r, LEN, MADV_DONTNEED) == 0, "%s: madvise", what);
		/* the range keeps its address: new zero pages, written now */
		memset(r, CANARY, LEN);
		break;
	}
	if (how == DONTNEED) {
		hsagpu_signal_store_release(gate, 0);
		CHECK(gtq_wait_eq(done, 0, MS), "%s: the late packets did not complete", what);
		/* the last fill covers the range */
		CHECK(gtd_check_fill(r, LEN, 0x33333333) == LEN,
		      "%s: the process does not see the device's writes (byte %zu)",
		      what, gtd_check_fill(r, LEN, 0x33333333));
		CHECK(hsagpu_memory_unregister(d.agent, r) == 0, "%s: unregister", what);
		CHECK(hsagpu_queue_destroy(q) == 0, "%s: destroy", what);
		munmap(r, LEN);
		hsagpu_signal_destroy(gate);
		hsagpu_signal_destroy(done);
		return;
	}
	CHECK(c != NULL, "%s: no new mapping at the old address %p", what, (void *)r);
	hsagpu_signal_store_release(gate, 0);
	check_late(what, q, r, LEN, done);
	if (c) {
		gtq_sleep_ms(50);       /* anything late would show by now */
		check_canary(what, c, LEN);
	}
	if (view) {
		/* the registered pages: the first write, nothing after munmap */
		CHECK(!memcmp(view, src, 4096) &&
		      gtd_find_not(view + 4096, LEN - 4096, 0x5a) == LEN - 4096,
		      "%s: the device wrote the unmapped pages (byte %zu)", what,
		      4096 + gtd_find_not(view + 4096, LEN - 4096, 0x5a));
		munmap(view, LEN);
	}
	if (mfd >= 0)
		close(mfd);
	/* The handle is still the process's to give back */
	CHECK(hsagpu_memory_unregister(d.agent, r) == 0, "%s: unregister", what);
	CHECK(hsagpu_queue_destroy(q) == 0, "%s: destroy", what);
	if (c)
		munmap(c, LEN);
	hsagpu_signal_destroy(gate);
	hsagpu_signal_destroy(done);
	check_fresh_queue(what);
}

/* munmap in the middle of a long copy into the range. */
static void inflight_case(void)
{
	const size_t len = 24 << 20;
	const char *what = "munmap during a 24 MiB copy";
	uint8_t *big = gtq_alloc(&d, len, HSAGPU_RT_MEM_VRAM);
	hsagpu_queue_t *q = gtq_queue(&d, 16, 0);
	hsagpu_signal_t done = gtq_signal(&d, 1);
	struct hsagpu_queue_status st;
	uint8_t *r, *c;
	uint64_t end;
	int ret;

	if (!big || !q)
		return;
	r = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (r == MAP_FAILED)
		return;
	memset(r, 0, len);
	memset(big, 0x6b, len);
	ret = hsagpu_memory_register(d.agent, r, len, 0);
	CHECK(ret == 0, "%s: register: %d", what, ret);
	if (ret)
		return;
	gtd_copy(q, (uintptr_t)r, (uintptr_t)big, len, done);
	/* wait until the copy has begun (its first bytes arrived) */
	end = gtq_now_ns() + MS * GTQ_MS;
	while (*(volatile uint8_t *)r != 0x6b && gtq_now_ns() < end)
		;
	CHECK(munmap(r, len) == 0, "%s: munmap", what);
	c = canary_at(r, len);
	CHECK(c != NULL, "%s: no new mapping at the old address", what);
	end = gtq_now_ns() + MS * GTQ_MS;
	while (gtq_value(done) != 0 && gtq_now_ns() < end &&
	       !(gtq_status(q, &st) == 0 && st.state == HSAGPU_QSTATE_ERROR))
		gtq_sleep_ms(5);
	if (gtq_value(done) == 0) {
		DIAG("%s: the copy finished before the munmap", what);
	} else {
		CHECK(gtq_status(q, &st) == 0 && st.state == HSAGPU_QSTATE_ERROR,
		      "%s: neither finished nor faulted", what);
		gtq_check_fault(what, &st, q->id, (uintptr_t)r, (uintptr_t)r + len,
				HSAGPU_VM_CLIENT_DMA, HSAGPU_VM_ACCESS_WRITE,
				HSAGPU_VM_REASON_NOT_PRESENT);
		DIAG("%s: faulted at +%llu", what,
		     (unsigned long long)(st.fault_addr - (uintptr_t)r));
	}
	if (c) {
		gtq_sleep_ms(50);
		check_canary(what, c, len);
		munmap(c, len);
	}
	CHECK(hsagpu_memory_unregister(d.agent, r) == 0, "%s: unregister", what);
	CHECK(hsagpu_queue_destroy(q) == 0, "%s: destroy", what);
	hsagpu_signal_destroy(done);
	hsagpu_memory_free(d.agent, big);
	check_fresh_queue(what);
}

int main(void)
{
	int n = hsagpu_agent_count(), k0;

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
	k0 = gtk_mark();
	gtq_arena_init(&d, &arena, 4096);
	src = gtq_alloc(&d, 8192, HSAGPU_RT_MEM_SYSTEM);
	if (arena.base && src) {
		gtd_pattern(src, 8192, 77);
		held_case(GATE_MUNMAP, "munmap behind a barrier");
		held_case(BUSY_MUNMAP, "munmap during a BUSY kernel");
		held_case(FREE, "free() of a registered malloc block");
		held_case(DONTNEED, "MADV_DONTNEED of the range");
		inflight_case();
	}
	gtq_close(&d);
	CHECK(gtk_problems(k0, NULL) == 0, "kernel log problems");
	return gt_result();
}
