// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-vram-alias: the cached read alias of VRAM (BAR4) and the device's
 * dirty-line directory, through hsagpu.ko and libhsagpu.
 *
 * For every device with HSAGPU_CAP_READ_ALIAS, in a VRAM allocation:
 *  - the directory lists exactly the 64-byte lines the device wrote: a
 *    DMA copy and a DMA fill at unaligned starts and ends, a fill kernel
 *    (streaming: mapped pages), the ids kernel (item stores through the
 *    processor's page mappings),
 *    a completion signal in VRAM (AtomicOp), and a peer device's DMA
 *    into this VRAM when the boot has two devices with the alias; the
 *    expected bitmap is computed from the byte ranges;
 *  - CPU stores through the write-combining (BAR0) and the cached (BAR4)
 *    mapping mark nothing;
 *  - a clear of a sub-range clears exactly its lines, which stay clear
 *    until the device writes them again, and a full array stops with
 *    `next` where the caller goes on;
 *  - hsagpu_memory_read_cached() returns the device's new data through
 *    the cached mapping after stale copies were cached there;
 *  - BAR4 is reserved write-back in the PAT memtype list (uncached-minus
 *    where a firmware MTRR makes the 32-bit window uncachable);
 *  - hostile VRAM_DIRTY and mmap arguments get their errno.
 * Devices without the alias: VRAM_DIRTY is -ENODEV (skip if none has it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>

#include "gt.h"
#include "gtdma.h"
#include "gtq.h"
#include "hsagpu_rt.h"

#define BUF_SIZE        (256U << 10)
#define LINES           (BUF_SIZE / 64)
#define MS              10000

static uint8_t want[LINES];     /* expected dirty lines of the buffer */

static void want_bytes(uint64_t off, uint64_t len)
{
	for (uint64_t l = off / 64; l <= (off + len - 1) / 64; l++)
		want[l] = 1;
}

/* The dirty lines of [off, off + len) of @buf as a bitmap (no clear). */
static int got_lines(hsagpu_agent_t *a, uint8_t *buf, uint8_t *got,
		     uint32_t flags)
{
	hsagpu_dirty_range_t r[64];
	size_t done = 0, step;
	uint32_t n;
	int ret;

	memset(got, 0, LINES);
	while (done < BUF_SIZE) {
		ret = hsagpu_memory_dirty_lines(a, buf + done, BUF_SIZE - done,
						flags, r, 64, &n, &step);
		if (ret)
			return ret;
		for (uint32_t i = 0; i < n; i++) {
			CHECK(r[i].offset % 64 == 0 && r[i].bytes % 64 == 0 &&
			      r[i].bytes && r[i].offset + r[i].bytes <= BUF_SIZE,
			      "run %u: 0x%llx + 0x%llx", i,
			      (unsigned long long)r[i].offset,
			      (unsigned long long)r[i].bytes);
			if (i)
				CHECK(r[i].offset > r[i - 1].offset + r[i - 1].bytes,
				      "runs %u and %u not ascending and apart", i - 1, i);
			for (uint64_t o = r[i].offset;
			     o < r[i].offset + r[i].bytes && o < BUF_SIZE; o += 64)
				got[o / 64] = 1;
		}
		if (!step)
			return -EPROTO;
		done += step;
	}
	return 0;
}

/* The directory of @buf equals want[]; says what differs. */
static void check_exact(hsagpu_agent_t *a, uint8_t *buf, const char *what)
{
	static uint8_t got[LINES];
	unsigned int extra = 0, missing = 0, first = LINES;

	CHECK(got_lines(a, buf, got, 0) == 0, "%s: dirty lines", what);
	for (unsigned int l = 0; l < LINES; l++) {
		if (got[l] != want[l]) {
			extra += got[l];
			missing += want[l];
			first = first < l ? first : l;
		}
	}
	CHECK(!extra && !missing,
	      "%s: %u lines marked that the device did not write, %u written not marked (first line %u)",
	      what, extra, missing, first);
}

static void clear_all(hsagpu_agent_t *a, uint8_t *buf)
{
	static uint8_t got[LINES];

	CHECK(got_lines(a, buf, got, HSAGPU_RT_DIRTY_CLEAR) == 0, "clear");
	memset(want, 0, sizeof(want));
}

static void dma_copy(struct gtq_dev *d, hsagpu_queue_t *q, void *dst,
		     const void *src, size_t n)
{
	hsagpu_signal_t s = gtq_signal(d, 1);

	CHECK(hsagpu_dma_copy(q, NULL, dst, src, n, s) >= 0, "copy");
	GTQ_WAIT(s, 0, MS);
	hsagpu_signal_destroy(s);
}

static void dma_fill(struct gtq_dev *d, hsagpu_queue_t *q, void *dst,
		     uint32_t pattern, size_t n)
{
	hsagpu_signal_t s = gtq_signal(d, 1);

	CHECK(hsagpu_dma_fill(q, NULL, dst, pattern, n, s) >= 0, "fill");
	GTQ_WAIT(s, 0, MS);
	hsagpu_signal_destroy(s);
}

static void flush(const void *p, size_t n)
{
	for (size_t o = 0; o < n; o += 64)
		__asm__ volatile("clflush %0" : "+m"(*(volatile char *)((const char *)p + o)));
	__asm__ volatile("mfence" ::: "memory");
}

/* Does a variable MTRR make [start, start + 1) uncachable? */
static int mtrr_uc(unsigned long long start)
{
	unsigned long long base, mb;
	char line[256];
	int uc = 0;
	FILE *f = fopen("/proc/mtrr", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *b = strstr(line, "base="), *z = strstr(line, "size=");

		if (!b || !z || !strstr(line, "uncachable"))
			continue;
		base = strtoull(b + 5, NULL, 16);
		mb = strtoull(z + 5, NULL, 10);
		if (start >= base && start < base + (mb << 20))
			uc = 1;
	}
	fclose(f);
	return uc;
}

/*
 * The driver reserved BAR4 write-back (memremap): the kernel's PAT
 * memtype list holds it as write-back, or as uncached-minus where a
 * firmware MTRR makes the range uncachable (SeaBIOS: 3-4 GiB, the whole
 * 32-bit PCI window), which is what x86 turns a WB request into there.
 * No entry, or another type, is a driver that did not ask for WB.
 */
static void check_memtype(struct gtq_dev *d)
{
	char path[128], line[256], want_s[64];
	unsigned long long start, end, flags;
	const char *want_type;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource", d->pci);
	f = fopen(path, "r");
	if (!f) {
		CHECK(0, "%s: no %s", d->pci, path);
		return;
	}
	for (int i = 0; i <= HSAGPU_BAR_READ_ALIAS; i++)
		if (!fgets(line, sizeof(line), f))
			line[0] = 0;
	fclose(f);
	if (sscanf(line, "%llx %llx %llx", &start, &end, &flags) != 3 || !start) {
		CHECK(0, "%s: BAR4 not assigned: %s", d->pci, line);
		return;
	}
	want_type = mtrr_uc(start) ? "uncached-minus" : "write-back";
	if (access("/sys/kernel/debug/x86", F_OK))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	f = fopen("/sys/kernel/debug/x86/pat_memtype_list", "r");
	if (!f) {
		DIAG("%s: no pat_memtype_list (PAT off?): memory type not checked", d->pci);
		return;
	}
	snprintf(want_s, sizeof(want_s), "0x%016llx-", start);
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, want_s))
			continue;
		found = !!strstr(line, want_type);
		line[strcspn(line, "\n")] = 0;
		DIAG("%s: %s (%s)", d->pci, line,
		     strcmp(want_type, "write-back") ?
		     "a firmware MTRR makes BAR4 uncachable: WB requests become UC-" :
		     "write-back");
	}
	fclose(f);
	CHECK(found, "%s: BAR4 0x%llx not %s in pat_memtype_list", d->pci, start,
	      want_type);
}

static int vram_dirty(int fd, uint64_t handle, uint64_t off, uint64_t bytes,
		      void *ranges, uint32_t cap, uint32_t flags)
{
	struct hsagpu_vram_dirty vd = {
		.size = sizeof(vd), .flags = flags, .handle = handle,
		.offset = off, .bytes = bytes, .ranges_ptr = (uintptr_t)ranges,
		.capacity = cap,
	};

	return ioctl(fd, HSAGPU_IOC_VRAM_DIRTY, &vd) ? errno : 0;
}

/* Hostile arguments; an allocation of our own to know its handle. */
static void test_args(struct gtq_dev *d, uint64_t alias_size)
{
	int fd = hsagpu_agent_fd(d->agent);
	struct hsagpu_alloc_mem am = { .size = sizeof(am), .flags = HSAGPU_MEM_VRAM,
				       .bytes = 64 << 10 };
	struct hsagpu_alloc_mem sm = { .size = sizeof(sm), .flags = HSAGPU_MEM_SYSTEM,
				       .bytes = 4096 };
	struct hsagpu_free_mem fm = { .size = sizeof(fm) };
	static hsagpu_dirty_range_t r[64];
	void *p;

	if (ioctl(fd, HSAGPU_IOC_ALLOC_MEM, &am) || ioctl(fd, HSAGPU_IOC_ALLOC_MEM, &sm)) {
		CHECK(0, "ALLOC_MEM: %s", strerror(errno));
		return;
	}
	EXPECT(vram_dirty(fd, am.handle, 0, 4096, r, 64, 0), 0, "good call");
	EXPECT(vram_dirty(fd, am.handle, 0, 4096, r, 31, 0), EINVAL, "capacity 31");
	EXPECT(vram_dirty(fd, am.handle, 0, 4096, r, 0, 0), EINVAL, "capacity 0");
	EXPECT(vram_dirty(fd, am.handle, 0, 4096, r, 0xffffffff, 0), EINVAL, "capacity 2^32-1");
	EXPECT(vram_dirty(fd, am.handle, 0, 0, r, 64, 0), EINVAL, "0 bytes");
	EXPECT(vram_dirty(fd, am.handle, 0, (64 << 10) + 1, r, 64, 0), EINVAL, "beyond the allocation");
	EXPECT(vram_dirty(fd, am.handle, 4096, UINT64_MAX - 100, r, 64, 0), EINVAL, "wrapping range");
	EXPECT(vram_dirty(fd, am.handle, 0, 4096, r, 64, 0x80), EINVAL, "unknown flag");
	EXPECT(vram_dirty(fd, am.handle, 0, 4096, NULL, 64, HSAGPU_DIRTY_CLEAR), EFAULT, "NULL array");
	EXPECT(vram_dirty(fd, am.handle, 0, 4096, (void *)-4096L, 64, HSAGPU_DIRTY_CLEAR),
	       EFAULT, "kernel address array");
	/* an array of one page before an inaccessible one, capacity 2 pages */
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED && mprotect((char *)p + 4096, 4096, PROT_NONE) == 0)
		EXPECT(vram_dirty(fd, am.handle, 0, 4096, p, 8192 / sizeof(*r),
				  HSAGPU_DIRTY_CLEAR), EFAULT, "array shorter than its capacity");
	if (p != MAP_FAILED)
		munmap(p, 8192);
	EXPECT(vram_dirty(fd, sm.handle, 0, 4096, r, 64, 0), ENOENT, "system memory");
	EXPECT(vram_dirty(fd, 0, 0, 4096, r, 64, 0), ENOENT, "handle 0");
	EXPECT(vram_dirty(fd, 0xffffffffffffULL, 0, 4096, r, 64, 0), ENOENT, "bogus handle");
	/* mmap of the cached view: whole allocation, shared, existing */
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, HSAGPU_MMAP_CACHED(am.mmap_offset));
	CHECK(p == MAP_FAILED && errno == EINVAL, "short cached mmap: %s",
	      p == MAP_FAILED ? strerror(errno) : "mapped");
	p = mmap(NULL, 64 << 10, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
		 HSAGPU_MMAP_CACHED(am.mmap_offset));
	CHECK(p == MAP_FAILED && errno == EINVAL, "private cached mmap: %s",
	      p == MAP_FAILED ? strerror(errno) : "mapped");
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, HSAGPU_MMAP_CACHED(sm.mmap_offset));
	CHECK(p == MAP_FAILED && errno == EINVAL, "cached mmap of system memory: %s",
	      p == MAP_FAILED ? strerror(errno) : "mapped");
	p = mmap(NULL, 64 << 10, PROT_READ, MAP_SHARED, fd,
		 HSAGPU_MMAP_CACHED(am.mmap_offset) + (1ULL << 30));
	CHECK(p == MAP_FAILED, "cached mmap of another index mapped");
	fm.handle = am.handle;
	ioctl(fd, HSAGPU_IOC_FREE_MEM, &fm);
	fm.handle = sm.handle;
	ioctl(fd, HSAGPU_IOC_FREE_MEM, &fm);

	/* An allocation reaching beyond the window: -ERANGE */
	if (d->info->vram_size > alias_size) {
		struct hsagpu_alloc_mem big = { .size = sizeof(big), .flags = HSAGPU_MEM_VRAM,
						.bytes = alias_size };

		if (ioctl(fd, HSAGPU_IOC_ALLOC_MEM, &big) == 0) {
			CHECK(big.vram_offset + alias_size > alias_size, "offset");
			EXPECT(vram_dirty(fd, big.handle, 0, 4096, r, 64, 0), ERANGE,
			       "allocation beyond the window");
			p = mmap(NULL, alias_size, PROT_READ, MAP_SHARED, fd,
				 HSAGPU_MMAP_CACHED(big.mmap_offset));
			CHECK(p == MAP_FAILED && errno == ERANGE,
			      "cached mmap beyond the window: %s",
			      p == MAP_FAILED ? strerror(errno) : "mapped");
			fm.handle = big.handle;
			ioctl(fd, HSAGPU_IOC_FREE_MEM, &fm);
		} else {
			DIAG("%s: no %llu-byte VRAM allocation (%s): ERANGE not checked",
			     d->pci, (unsigned long long)alias_size, strerror(errno));
		}
	}
}

/* A full array: the call stops at a word and says where to go on. */
static void test_partial(struct gtq_dev *d, hsagpu_queue_t *q, uint8_t *buf,
			 uint8_t *sys)
{
	hsagpu_dirty_range_t r[32];
	uint32_t n;
	size_t done;

	clear_all(d->agent, buf);
	/* every other line of the first 4 pages: 32 runs per page */
	for (unsigned int l = 0; l < 4 * 64; l += 2) {
		dma_copy(d, q, buf + 64 * l, sys, 64);
		want[l] = 1;
	}
	CHECK(hsagpu_memory_dirty_lines(d->agent, buf, BUF_SIZE, 0, r, 32, &n, &done) == 0,
	      "dirty lines, 32 runs");
	CHECK(n == 32 && done == 4096, "first call: %u runs, %zu bytes done", n, done);
	CHECK(hsagpu_memory_dirty_lines(d->agent, buf + done, BUF_SIZE - done, 0, r, 32,
					&n, &done) == 0, "again");
	CHECK(n == 32 && done == 4096 && r[0].offset == 4096,
	      "second call: %u runs from 0x%llx, %zu bytes", n,
	      (unsigned long long)r[0].offset, done);
	check_exact(d->agent, buf, "every other line");
}

/*
 * Both devices' processor threads mark this directory at once: this
 * device fills the even lines of the buffer, the peer the odd ones,
 * 64-byte descriptors of one scatter-gather packet each, submitted
 * back to back; every line must be marked (atomic ORs on shared words)
 * and hold its writer's pattern. Four rounds.
 */
static void test_concurrent(struct gtq_dev *d, struct gtq_dev *peer,
			    hsagpu_queue_t *q, uint8_t *buf)
{
	hsagpu_queue_t *pq = gtq_queue(peer, 16, 0);
	hsagpu_dma_list_t *l0 = NULL, *l1 = NULL;
	hsagpu_signal_t s0 = gtq_signal(d, 1), s1 = gtq_signal(peer, 1);
	uint32_t pf = 0;

	if (!pq || hsagpu_agent_enable_peer(peer->agent, d->agent, &pf) ||
	    hsagpu_dma_list_create(d->agent, LINES / 2, &l0) ||
	    hsagpu_dma_list_create(peer->agent, LINES / 2, &l1)) {
		DIAG("%s: no peer list: concurrent marking not checked", d->pci);
		goto out;
	}
	for (int round = 0; round < 4; round++) {
		struct hsagpu_dma_packet p0, p1;
		uint32_t a = 0x11111111u * (round + 1), b = ~a;
		unsigned int bad = 0;

		clear_all(d->agent, buf);
		hsagpu_dma_list_reset(l0);
		hsagpu_dma_list_reset(l1);
		for (unsigned int l = 0; l < LINES; l += 2) {
			CHECK(hsagpu_dma_list_add_fill(l0, buf + 64 * l, a, 64) == 0, "list 0");
			CHECK(hsagpu_dma_list_add_fill(l1, buf + 64 * (l + 1), b, 64) == 0,
			      "list 1");
		}
		memset(&p0, 0, sizeof(p0));
		memset(&p1, 0, sizeof(p1));
		hsagpu_packet_dma_sg(&p0, HSAGPU_DMA_OP_FILL_SG, hsagpu_dma_list_addr(l0),
				     hsagpu_dma_list_count(l0), s0);
		hsagpu_packet_dma_sg(&p1, HSAGPU_DMA_OP_FILL_SG, hsagpu_dma_list_addr(l1),
				     hsagpu_dma_list_count(l1), s1);
		hsagpu_signal_store_release(s0, 1);
		hsagpu_signal_store_release(s1, 1);
		gtd_submit(q, &p0, 0);
		gtd_submit(pq, &p1, 0);
		GTQ_WAIT(s0, 0, MS);
		GTQ_WAIT(s1, 0, MS);
		for (unsigned int l = 0; l < LINES; l++) {
			uint32_t want32 = l % 2 ? b : a;

			bad += gtd_check_fill(buf + 64 * l, 64, want32) != 64;
		}
		CHECK(!bad, "round %d: %u lines with the wrong pattern", round, bad);
		memset(want, 1, sizeof(want));
		check_exact(d->agent, buf, "two devices marking at once");
	}
out:
	if (l0)
		hsagpu_dma_list_destroy(l0);
	if (l1)
		hsagpu_dma_list_destroy(l1);
	hsagpu_signal_destroy(s0);
	hsagpu_signal_destroy(s1);
	if (pq)
		hsagpu_queue_destroy(pq);
	clear_all(d->agent, buf);
}

static void test_device(struct gtq_dev *d, struct gtq_dev *peer, uint64_t alias_size)
{
	hsagpu_queue_t *q = gtq_queue(d, 64, 0);
	uint8_t *buf = gtq_alloc(d, BUF_SIZE, HSAGPU_RT_MEM_VRAM);
	uint8_t *sys = gtq_alloc(d, BUF_SIZE, HSAGPU_RT_MEM_SYSTEM);
	struct hsagpu_kargs_fill *ka = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	struct hsagpu_signal *vsig;
	volatile uint8_t *view;
	const uint8_t *rd;
	hsagpu_signal_t s;
	size_t flushed;
	int ret;

	if (!q || !buf || !sys || !ka)
		return;
	ret = hsagpu_memory_cached_view(d->agent, buf, (const void **)&view);
	CHECK(ret == 0, "%s: cached view: %s", d->pci, strerror(-ret));
	if (ret)
		return;
	check_memtype(d);
	clear_all(d->agent, buf);
	check_exact(d->agent, buf, "after a clear");

	/* CPU stores through both mappings: nothing */
	memset(buf, 0x11, BUF_SIZE);
	memset((void *)view, 0x22, 8192);
	flush((const void *)view, 8192);
	CHECK(buf[100] == 0x22 && view[BUF_SIZE - 1] == 0x11,
	      "%s: the two mappings show different bytes", d->pci);
	check_exact(d->agent, buf, "CPU stores through BAR0 and BAR4");

	/* DMA copy to +5, 3000 bytes; DMA fill at +0x10000+100, 1000 bytes */
	gtd_pattern(sys, BUF_SIZE, 7);
	dma_copy(d, q, buf + 5, sys, 3000);
	want_bytes(5, 3000);
	check_exact(d->agent, buf, "DMA copy");
	dma_fill(d, q, buf + 0x10000 + 100, 0xa5a5a5a5, 1000);
	want_bytes(0x10000 + 100, 1000);
	check_exact(d->agent, buf, "DMA fill");

	/* A fill kernel, 100 dwords at +0x20000+60 (partial workgroup) */
	ka->dst = (uintptr_t)(buf + 0x20000 + 60);
	ka->value = 0x77;
	s = gtq_signal(d, 1);
	CHECK(gtq_dispatch1(q, HSAGPU_KERNEL_FILL, ka, 100, 32, s, 0) >= 0, "dispatch");
	GTQ_WAIT(s, 0, MS);
	hsagpu_signal_destroy(s);
	want_bytes(0x20000 + 60, 400);
	check_exact(d->agent, buf, "fill kernel");

	/*
	 * The ids kernel stores item by item (ops->write, not a streaming
	 * map): after the first store of a page the processor's page
	 * mapping takes them. 300 items at +0x28000+20.
	 */
	{
		struct hsagpu_kargs_ids *ki = (void *)ka;
		volatile uint32_t *ids = (volatile uint32_t *)(buf + 0x28000 + 20);
		unsigned int bad = 0;

		ki->dst = (uintptr_t)ids;
		s = gtq_signal(d, 1);
		CHECK(gtq_dispatch1(q, HSAGPU_KERNEL_IDS, ki, 300, 64, s, 0) >= 0, "ids");
		GTQ_WAIT(s, 0, MS);
		hsagpu_signal_destroy(s);
		for (unsigned int i = 0; i < 300; i++)
			bad += ids[i] != ((i / 64) << 16 | i % 64);
		CHECK(!bad, "ids kernel: %u wrong items", bad);
		want_bytes(0x28000 + 20, 1200);
		check_exact(d->agent, buf, "ids kernel");
	}

	/* A completion signal in VRAM: its AtomicOp decrement, twice */
	vsig = (struct hsagpu_signal *)(buf + 0x30000);
	for (int i = 0; i < 2; i++) {
		hsagpu_signal_t vs = { .handle = (uintptr_t)vsig };
		struct hsagpu_dma_packet pkt;

		memset(vsig, 0, sizeof(*vsig));
		vsig->value = 1;
		hsagpu_packet_dma_fill(&pkt, (uintptr_t)sys, 0, 64, vs);
		CHECK(gtd_submit(q, &pkt, 0) >= 0, "submit");
		for (int t = 0; t < MS && *(volatile int64_t *)&vsig->value; t++)
			gtq_sleep_ms(1);
		CHECK(vsig->value == 0, "VRAM signal %lld", (long long)vsig->value);
		want_bytes(0x30000 + offsetof(struct hsagpu_signal, value), 8);
		check_exact(d->agent, buf, "VRAM completion signal");
	}

	/* A peer's DMA into this VRAM marks this device's directory */
	if (peer) {
		hsagpu_queue_t *pq = gtq_queue(peer, 16, 0);
		uint8_t *psys = gtq_alloc(peer, 4096, HSAGPU_RT_MEM_SYSTEM);
		uint32_t pf = 0;

		if (pq && psys && hsagpu_agent_enable_peer(peer->agent, d->agent, &pf) == 0) {
			memset(psys, 0x3c, 4096);
			dma_copy(peer, pq, buf + 0x38000 + 33, psys, 200);
			want_bytes(0x38000 + 33, 200);
			check_exact(d->agent, buf, "peer DMA");
			CHECK(buf[0x38000 + 33] == 0x3c, "peer data");
		} else {
			DIAG("%s: peer access from %s not available: peer write not checked",
			     d->pci, peer->pci);
		}
		if (pq)
			hsagpu_queue_destroy(pq);
	}

	/*
	 * Clear a sub-range that cuts lines: exactly its lines go (the
	 * partial ones at both ends included) and stay clear until written
	 * again; the rest stays.
	 */
	{
		hsagpu_dirty_range_t r[64];
		uint32_t n;
		size_t done;

		CHECK(hsagpu_memory_dirty_lines(d->agent, buf + 1000, 1500,
						HSAGPU_RT_DIRTY_CLEAR, r, 64, &n, &done) == 0,
		      "clear 1000..2500");
		CHECK(n == 1 && r[0].offset == 960 && r[0].bytes == 2496 - 960 + 64 &&
		      done == 1500, "cleared run: %u runs, 0x%llx + 0x%llx", n,
		      (unsigned long long)r[0].offset, (unsigned long long)r[0].bytes);
		for (unsigned int l = 1000 / 64; l <= 2499 / 64; l++)
			want[l] = 0;
		check_exact(d->agent, buf, "after a clear of 1000..2500");
		dma_copy(d, q, buf + 0x8000, sys, 64);
		want_bytes(0x8000, 64);
		check_exact(d->agent, buf, "cleared lines stay clear");
		dma_copy(d, q, buf + 1200, sys, 10);
		want_bytes(1200, 10);
		check_exact(d->agent, buf, "a cleared line written again");
	}

	/*
	 * Reads through the cached view after flushing the listed lines:
	 * old data cached first, then the device overwrites it.
	 */
	clear_all(d->agent, buf);
	dma_fill(d, q, buf, 0x01010101, BUF_SIZE);
	CHECK(hsagpu_memory_read_cached(d->agent, buf, BUF_SIZE, (const void **)&rd,
					&flushed) == 0, "read_cached");
	CHECK(flushed == LINES, "first read flushed %zu lines, expected %u", flushed, LINES);
	CHECK(gtd_check_fill(rd, BUF_SIZE, 0x01010101) == BUF_SIZE,
	      "cached view: old data wrong");
	dma_copy(d, q, buf + 0x1000 + 3, sys, 0x2000);
	CHECK(hsagpu_memory_read_cached(d->agent, buf, BUF_SIZE, (const void **)&rd,
					&flushed) == 0, "read_cached");
	CHECK(flushed == (0x1000 + 3 + 0x2000 - 1) / 64 - 0x1000 / 64 + 1,
	      "second read flushed %zu lines", flushed);
	CHECK(gtd_diff(rd + 0x1000 + 3, sys, 0x2000) == 0x2000 &&
	      gtd_check_fill(rd, 0x1000 + 3, 0x01010101) == 0x1000 + 3,
	      "cached view after the flush: not the device's data");
	memset(want, 0, sizeof(want));
	check_exact(d->agent, buf, "after read_cached");

	if (peer)
		test_concurrent(d, peer, q, buf);
	test_partial(d, q, buf, sys);
	test_args(d, alias_size);
	hsagpu_queue_destroy(q);
}

int main(void)
{
	int n = hsagpu_agent_count(), ran = 0, with = 0;
	struct gtq_dev devs[GT_MAX_DEVS];
	int usable[GT_MAX_DEVS] = { 0 };

	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	for (int i = 0; i < n && i < GT_MAX_DEVS; i++)
		usable[i] = gtq_open(i, &devs[i]) == 1;
	for (int i = 0; i < n && i < GT_MAX_DEVS; i++) {
		struct gtq_dev *d = &devs[i], *peer = NULL;
		uint64_t size = 0;

		if (!usable[i])
			continue;
		ran++;
		if (!(d->info->caps & HSAGPU_CAP_READ_ALIAS)) {
			static hsagpu_dirty_range_t r[32];
			uint8_t *b = gtq_alloc(d, 4096, HSAGPU_RT_MEM_VRAM);
			uint32_t cnt;

			if (b)
				CHECK(hsagpu_memory_dirty_lines(d->agent, b, 4096, 0, r, 32,
								&cnt, NULL) == -ENODEV,
				      "%s: VRAM_DIRTY without the alias", d->pci);
			continue;
		}
		with++;
		size = gtq_reg(d, HSAGPU_REG_RALIAS_SIZE_LO) |
		       (uint64_t)gtq_reg(d, HSAGPU_REG_RALIAS_SIZE_HI) << 32;
		DIAG("%s: read alias %llu MiB of %llu MiB VRAM", d->pci,
		     (unsigned long long)(size >> 20),
		     (unsigned long long)(d->info->vram_size >> 20));
		for (int j = 0; j < n && j < GT_MAX_DEVS; j++)
			if (j != i && usable[j])
				peer = &devs[j];
		test_device(d, peer, size);
	}
	for (int i = 0; i < n && i < GT_MAX_DEVS; i++)
		gtq_close(&devs[i]);
	if (ran && !with)
		return gt_skip("no device has the read alias (read-alias-size)");
	return gtq_result(ran, n);
}
