// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hostile arguments to the ABI 1.2 memory and peer interfaces give the
 * documented errno and change nothing, and what they return is right:
 *  - ALLOC_MEM: both structure sizes, reserved, the SYSTEM limits;
 *    large (chunked) system allocations: segments cover the allocation,
 *    are at least 64 KiB but the last, the CPU mapping is the memory the
 *    segments name (without an IOMMU: /proc/self/pagemap), queue rings
 *    must lie inside one segment;
 *  - MEM_SEGMENTS: sizes, reserved, foreign and stale handles, first out
 *    of range, count clamped, bad pointers;
 *  - PEER_ACCESS: sizes, peer_fd closed / not open / not hsagpu / this
 *    device (same or another file), bad pointers; with two devices the
 *    path (switch or root complex), addresses and sizes, the same answer
 *    twice, and the peer's file closed afterwards.
 *
 * Segments are bus addresses: the ALLOC_MEM and MEM_SEGMENTS checks run
 * on files without GPU virtual memory (hsagpu.ko vm=0 at open). With it
 * MEM_SEGMENTS is EOPNOTSUPP, ALLOC_MEM shows no bus address, a peer's
 * VRAM is a window in the driver aperture, and the big allocation is one
 * range for the DMA helpers; PEER_ACCESS and the DMA checks run in both.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "gtdma.h"
#include "gtioctl.h"
#include "gtpci.h"
#include "gtq.h"

#define ALLOC_SIZE_1_1  offsetof(struct hsagpu_alloc_mem, nsegs)
/* ALLOC_MEM as a binary built against the ABI 1.1 header issues it. */
#define ALLOC_MEM_1_1   _IOC(_IOC_READ | _IOC_WRITE, HSAGPU_IOCTL_BASE, 0x02, \
			     ALLOC_SIZE_1_1)
#define BIG             (64ULL << 20)   /* chunked: above CONTIG_MAX */
#define CHUNK_MIN       (64ULL << 10)

static int fd;

static int xioctl(unsigned long cmd, void *arg)
{
	return gti_ioctl(fd, cmd, arg);
}

static int segments(int f, uint64_t handle, struct hsagpu_mem_segment *segs,
		    uint32_t first, uint32_t *count)
{
	struct hsagpu_mem_segments ms = {
		.size = sizeof(ms), .handle = handle,
		.segs_ptr = (uintptr_t)segs, .first = first, .count = *count,
	};
	int ret = gti_ioctl(f, HSAGPU_IOC_MEM_SEGMENTS, &ms);

	*count = ms.count;
	return ret;
}

static void test_alloc_sizes(const struct hsagpu_device_info *info)
{
	struct hsagpu_alloc_mem am;
	uint8_t raw[sizeof(am) + 16];

	/* The 1.1 layout: works, writes 40 bytes, nothing after them */
	memset(raw, 0x5a, sizeof(raw));
	memset(&am, 0, sizeof(am));
	am.size = ALLOC_SIZE_1_1;
	am.flags = HSAGPU_MEM_SYSTEM;
	am.bytes = 8192;
	memcpy(raw, &am, ALLOC_SIZE_1_1);
	EXPECT(xioctl(ALLOC_MEM_1_1, raw), 0, "ALLOC_MEM 1.1 layout");
	memcpy(&am, raw, ALLOC_SIZE_1_1);
	CHECK(am.handle && am.bus_addr, "1.1 allocation handle/bus");
	for (size_t i = ALLOC_SIZE_1_1; i < sizeof(raw); i++)
		if (raw[i] != 0x5a) {
			CHECK(0, "ALLOC_MEM 1.1 layout wrote byte %zu", i);
			break;
		}
	EXPECT(gti_free(fd, am.handle), 0, "FREE_MEM 1.1 allocation");
	am.size = ALLOC_SIZE_1_1;
	am.bytes = HSAGPU_MEM_SYSTEM_CONTIG_MAX;
	EXPECT(xioctl(ALLOC_MEM_1_1, &am), 0,
	       "ALLOC_MEM 1.1 layout, HSAGPU_MEM_SYSTEM_CONTIG_MAX");
	EXPECT(gti_free(fd, am.handle), 0, "FREE_MEM");

	EXPECT(gti_alloc(fd, HSAGPU_MEM_SYSTEM, HSAGPU_MEM_SYSTEM_MAX + 1, &am),
	       E2BIG, "ALLOC_MEM above HSAGPU_MEM_SYSTEM_MAX");
	EXPECT(gti_alloc(fd, HSAGPU_MEM_SYSTEM, HSAGPU_MEM_SYSTEM_MAX * 4, &am),
	       E2BIG, "ALLOC_MEM 4 GiB");
	memset(&am, 0, sizeof(am));
	am.size = ALLOC_SIZE_1_1 + 4;
	am.flags = HSAGPU_MEM_SYSTEM;
	am.bytes = 4096;
	EXPECT(xioctl(HSAGPU_IOC_ALLOC_MEM, &am), EINVAL, "ALLOC_MEM size 44");
	am.size = sizeof(am);
	am.reserved = 0x80000000U;
	EXPECT(xioctl(HSAGPU_IOC_ALLOC_MEM, &am), EINVAL,
	       "ALLOC_MEM reserved 0x80000000");
	/* The 1.1 command with a buffer that ends after 40 bytes */
	{
		long pg = sysconf(_SC_PAGESIZE);
		uint8_t *two = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct hsagpu_alloc_mem *tail;

		CHECK(two != MAP_FAILED, "mmap");
		if (two == MAP_FAILED)
			return;
		munmap(two + pg, pg);
		tail = (void *)(two + pg - ALLOC_SIZE_1_1);
		memset(tail, 0, ALLOC_SIZE_1_1);
		tail->size = ALLOC_SIZE_1_1;
		tail->flags = HSAGPU_MEM_VRAM;
		tail->bytes = 4096;
		EXPECT(xioctl(ALLOC_MEM_1_1, tail), 0,
		       "ALLOC_MEM 1.1 layout at the end of a mapping");
		if (tail->handle)
			EXPECT(gti_free(fd, tail->handle), 0, "FREE_MEM");
		tail = (void *)(two + pg - sizeof(am) + 8);
		memset(tail, 0, sizeof(am) - 8);
		tail->size = sizeof(am);
		tail->flags = HSAGPU_MEM_SYSTEM;
		tail->bytes = 4096;
		EXPECT(xioctl(HSAGPU_IOC_ALLOC_MEM, tail), EFAULT,
		       "ALLOC_MEM 48-byte size, 40 bytes readable");
		munmap(two, pg);
	}
	(void)info;
}

/* Physical address of the page at @p, 0 if unknown. */
static uint64_t phys_of(int pm, const void *p)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t e = 0;

	if (pread(pm, &e, 8, (off_t)((uintptr_t)p / pg) * 8) != 8 ||
	    !(e & (1ULL << 63)) || !(e & ((1ULL << 55) - 1)))
		return 0;
	return (e & ((1ULL << 55) - 1)) * pg;
}

static void test_big(struct gtq_dev *d, int queues)
{
	const struct hsagpu_device_info *info = d->info;
	struct hsagpu_mem_segment *segs, *got;
	struct hsagpu_alloc_mem am;
	uint32_t n, count, i;
	uint64_t total = 0, off, mism = 0;
	int pm;
	uint8_t *p;

	EXPECT(gti_alloc(fd, HSAGPU_MEM_SYSTEM, BIG + 4096 + 1, &am), 0,
	       "ALLOC_MEM 64 MiB + 4097 system");
	if (!am.handle)
		return;
	n = am.nsegs;
	DIAG("64 MiB + 8 KiB system allocation: %u segments, bus 0x%llx", n,
	     (unsigned long long)am.bus_addr);
	CHECK(n >= 1 && n <= (BIG + 8192) / CHUNK_MIN + 1, "nsegs %u", n);
	if (info->dma_flags & HSAGPU_DMA_INFO_IOMMU)
		DIAG("IOMMU: %u segment(s)", n);
	segs = calloc(n + 2, sizeof(*segs));
	got = calloc(n + 2, sizeof(*got));
	if (!segs || !got || !n)
		return;
	count = n + 2;
	EXPECT(segments(fd, am.handle, segs, 0, &count), 0, "MEM_SEGMENTS all");
	CHECK(count == n, "MEM_SEGMENTS gave %u of %u", count, n);
	CHECK_EQ_U64(segs[0].bus_addr, am.bus_addr);
	for (i = 0; i < n; i++) {
		total += segs[i].bytes;
		CHECK(segs[i].bytes && !(segs[i].bytes & 4095) &&
		      !(segs[i].bus_addr & 4095), "segment %u: 0x%llx + 0x%llx",
		      i, (unsigned long long)segs[i].bus_addr,
		      (unsigned long long)segs[i].bytes);
		if (i + 1 < n)
			CHECK(segs[i].bytes >= CHUNK_MIN &&
			      segs[i].bus_addr + segs[i].bytes !=
			      segs[i + 1].bus_addr,
			      "segment %u: %llu bytes, next contiguous", i,
			      (unsigned long long)segs[i].bytes);
		CHECK(segs[i].bus_addr + segs[i].bytes <=
		      (info->p2p_addr_bits >= 64 ? UINT64_MAX :
		       1ULL << info->p2p_addr_bits),
		      "segment %u above the %u-bit limit", i,
		      info->p2p_addr_bits);
	}
	CHECK_EQ_U64(total, BIG + 8192);
	for (i = 0; i < n && i < 8; i++)
		DIAG("segment %u: 0x%llx + 0x%llx", i,
		     (unsigned long long)segs[i].bus_addr,
		     (unsigned long long)segs[i].bytes);
	/* Windows: first..end, count clamped, count 0 */
	for (i = 0; i < n; i += (n > 8 ? n / 4 : 1)) {
		count = 3;
		memset(got, 0xee, 3 * sizeof(*got));
		EXPECT(segments(fd, am.handle, got, i, &count), 0,
		       "MEM_SEGMENTS first %u", i);
		CHECK(count == (n - i < 3 ? n - i : 3) &&
		      !memcmp(got, segs + i, count * sizeof(*got)),
		      "MEM_SEGMENTS first %u: count %u", i, count);
	}
	count = 0;
	EXPECT(segments(fd, am.handle, NULL, 0, &count), 0,
	       "MEM_SEGMENTS count 0, NULL pointer");
	CHECK(count == 0, "count 0 gave %u", count);
	count = 1;
	EXPECT(segments(fd, am.handle, segs, n, &count), EINVAL,
	       "MEM_SEGMENTS first == nsegs");
	count = 1;
	EXPECT(segments(fd, am.handle, segs, 0xffffffffU, &count), EINVAL,
	       "MEM_SEGMENTS first 0xffffffff");
	count = 0xffffffffU;
	EXPECT(segments(fd, am.handle, NULL, 0, &count), EFAULT,
	       "MEM_SEGMENTS NULL pointer");
	count = 1;
	EXPECT(segments(fd, am.handle, (void *)-4096L, 0, &count), EFAULT,
	       "MEM_SEGMENTS kernel pointer");

	/* A queue ring must lie inside one segment. */
	if (queues && n > 1) {
		struct hsagpu_create_queue cq = {
			.size = sizeof(cq),
			.ring_addr = segs[0].bus_addr + segs[0].bytes - 1024,
			.ring_size = 64,
			.rptr_addr = segs[1].bus_addr,
			.wptr_addr = segs[1].bus_addr + 8,
		};
		EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), EINVAL,
		       "CREATE_QUEUE ring across two segments");
		cq.ring_addr = segs[1].bus_addr + 4096;
		EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), 0,
		       "CREATE_QUEUE ring in the second segment");
		if (!errno) {
			struct hsagpu_queue_id qi = { .size = sizeof(qi),
						      .queue_id = cq.queue_id };

			EXPECT(xioctl(HSAGPU_IOC_DESTROY_QUEUE, &qi), 0,
			       "DESTROY_QUEUE");
		}
	}
	/* The mapping: every page its own, and (no IOMMU) where segs say */
	p = mmap(NULL, BIG + 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 am.mmap_offset);
	CHECK(p != MAP_FAILED, "mmap 64 MiB: %s", strerror(errno));
	EXPECT(gti_free(fd, am.handle), 0, "FREE_MEM while mapped");
	if (p == MAP_FAILED)
		goto out;
	for (off = 0; off < BIG + 8192; off += 8)
		mism += *(uint64_t *)(p + off) != 0;
	CHECK(!mism, "%llu words not zeroed", (unsigned long long)mism);
	for (off = 0; off < BIG + 8192; off += 4096)
		*(uint64_t *)(p + off) = off ^ 0x5a5a5a5a00000000ULL;
	mism = 0;
	for (off = 0; off < BIG + 8192; off += 4096)
		mism += *(uint64_t *)(p + off) != (off ^ 0x5a5a5a5a00000000ULL);
	CHECK(!mism, "%llu pages read back wrong", (unsigned long long)mism);
	pm = open("/proc/self/pagemap", O_RDONLY);
	if (pm >= 0 && !(info->dma_flags & HSAGPU_DMA_INFO_IOMMU)) {
		mism = 0;
		off = 0;
		for (i = 0; i < n; i++) {
			for (uint64_t o = 0; o < segs[i].bytes; o += 4096)
				mism += phys_of(pm, p + off + o) !=
					segs[i].bus_addr + o;
			off += segs[i].bytes;
		}
		CHECK(!mism, "%llu pages are not where the segments say",
		      (unsigned long long)mism);
	}
	if (pm >= 0)
		close(pm);

	munmap(p, BIG + 8192);

out:
	/* Stale handle; the other file's handle */
	count = 1;
	EXPECT(segments(fd, am.handle, segs, 0, &count), ENOENT,
	       "MEM_SEGMENTS freed handle");
	free(segs);
	free(got);
}

static void test_segments_args(int ofd)
{
	struct hsagpu_alloc_mem am, om, vm;
	struct hsagpu_mem_segments ms;
	struct hsagpu_mem_segment seg[2];
	uint32_t count;

	EXPECT(gti_alloc(fd, HSAGPU_MEM_SYSTEM, 3 * 4096, &am), 0, "ALLOC_MEM");
	EXPECT(gti_alloc(fd, HSAGPU_MEM_VRAM, 5 * 4096, &vm), 0, "ALLOC_MEM VRAM");
	EXPECT(gti_alloc(ofd, HSAGPU_MEM_SYSTEM, 4096, &om), 0, "ALLOC_MEM other");
	CHECK(am.nsegs == 1 && vm.nsegs == 1, "nsegs %u / VRAM %u", am.nsegs,
	      vm.nsegs);

	count = 2;
	memset(seg, 0xee, sizeof(seg));
	EXPECT(segments(fd, am.handle, seg, 0, &count), 0, "MEM_SEGMENTS");
	CHECK(count == 1 && seg[0].bus_addr == am.bus_addr &&
	      seg[0].bytes == 3 * 4096 && seg[1].bytes == 0xeeeeeeeeeeeeeeeeULL,
	      "one segment: count %u 0x%llx + 0x%llx", count,
	      (unsigned long long)seg[0].bus_addr,
	      (unsigned long long)seg[0].bytes);
	count = 1;
	EXPECT(segments(fd, vm.handle, seg, 0, &count), 0, "MEM_SEGMENTS VRAM");
	CHECK(count == 1 && seg[0].bus_addr == vm.bus_addr &&
	      seg[0].bytes == 5 * 4096, "VRAM segment");

	memset(&ms, 0, sizeof(ms));
	ms.size = sizeof(ms);
	ms.handle = am.handle;
	ms.segs_ptr = (uintptr_t)seg;
	ms.count = 1;
	ms.reserved = 1;
	EXPECT(xioctl(HSAGPU_IOC_MEM_SEGMENTS, &ms), EINVAL,
	       "MEM_SEGMENTS reserved 1");
	ms.reserved = 0;
	ms.size = sizeof(ms) - 4;
	EXPECT(xioctl(HSAGPU_IOC_MEM_SEGMENTS, &ms), EINVAL,
	       "MEM_SEGMENTS size - 4");
	ms.size = sizeof(ms) + 8;
	EXPECT(xioctl(HSAGPU_IOC_MEM_SEGMENTS, &ms), EINVAL,
	       "MEM_SEGMENTS size + 8");
	ms.size = 0;
	EXPECT(xioctl(HSAGPU_IOC_MEM_SEGMENTS, &ms), EINVAL,
	       "MEM_SEGMENTS size 0");
	EXPECT(xioctl(HSAGPU_IOC_MEM_SEGMENTS, NULL), EFAULT,
	       "MEM_SEGMENTS NULL argument");
	count = 1;
	EXPECT(segments(fd, 0, seg, 0, &count), ENOENT, "MEM_SEGMENTS handle 0");
	count = 1;
	EXPECT(segments(fd, ~0ULL, seg, 0, &count), ENOENT,
	       "MEM_SEGMENTS handle ~0");
	count = 1;
	EXPECT(segments(fd, om.handle, seg, 0, &count), ENOENT,
	       "MEM_SEGMENTS another file's handle");
	count = 1;
	EXPECT(segments(fd, am.handle, seg, 1, &count), EINVAL,
	       "MEM_SEGMENTS first 1 of 1");
	/* Read-only destination */
	{
		void *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);

		count = 1;
		EXPECT(segments(fd, am.handle, ro, 0, &count), EFAULT,
		       "MEM_SEGMENTS read-only destination");
		munmap(ro, 4096);
	}
	EXPECT(gti_free(fd, am.handle), 0, "FREE_MEM");
	EXPECT(gti_free(fd, vm.handle), 0, "FREE_MEM VRAM");
	EXPECT(gti_free(ofd, om.handle), 0, "FREE_MEM other");
	count = 1;
	EXPECT(segments(fd, am.handle, seg, 0, &count), ENOENT,
	       "MEM_SEGMENTS freed handle");
}

/* Whether @a and @b have a PCIe switch port as lowest common bridge. */
static int via_switch(const char *a, const char *b)
{
	char pa[PATH_MAX], pb[PATH_MAX], path[96];
	char *ra, *rb, *sa, *sb, *last = NULL;
	int type;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", a);
	ra = realpath(path, pa);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", b);
	rb = realpath(path, pb);
	if (!ra || !rb)
		return -1;
	/* /sys/devices/pci0000:00/0000:00:02.0/0000:01:00.0/... */
	for (sa = strtok_r(ra, "/", &ra), sb = strtok_r(rb, "/", &rb);
	     sa && sb && !strcmp(sa, sb);
	     sa = strtok_r(NULL, "/", &ra), sb = strtok_r(NULL, "/", &rb))
		last = sa;
	if (!last || strchr(last, ':') == strrchr(last, ':'))
		return 0;       /* only the host bridge in common */
	type = gtpci_port_type(last);
	DIAG("%s and %s: lowest common bridge %s, PCIe port type %d", a, b,
	     last, type);
	/* 5: switch upstream port, 6: switch downstream port */
	return type == 5 || type == 6;
}

static int same_peer(const struct hsagpu_peer_access *a,
		     const struct hsagpu_peer_access *b)
{
	return a->vram_addr == b->vram_addr && a->vram_size == b->vram_size &&
	       a->peer_bar_addr == b->peer_bar_addr && a->flags == b->flags &&
	       a->peer_p2p_status == b->peer_p2p_status;
}

static void test_peer(struct gtq_dev *d0, struct gtq_dev *d1)
{
	const struct hsagpu_device_info *i0 = d0->info, *i1 = d1->info;
	struct hsagpu_peer_access pa, pb;
	int fd1 = hsagpu_agent_fd(d1->agent), sw, f2;

	sw = via_switch(d0->pci, d1->pci);
	EXPECT(gti_peer_access(fd, fd1, &pa), 0, "PEER_ACCESS 0 -> 1");
	DIAG("%s -> %s: flags 0x%x vram_addr 0x%llx bar 0x%llx status 0x%x",
	     d0->pci, d1->pci, pa.flags, (unsigned long long)pa.vram_addr,
	     (unsigned long long)pa.peer_bar_addr, pa.peer_p2p_status);
	CHECK_EQ_U64(pa.vram_size, i1->vram_size);
	CHECK_EQ_U64(pa.peer_bar_addr, i1->vram_bus_addr);
	CHECK_EQ_U64(pa.peer_p2p_status, i1->p2p_status);
	if (sw >= 0)
		CHECK_EQ_U64(pa.flags & (HSAGPU_PEER_VIA_SWITCH |
					 HSAGPU_PEER_VIA_ROOT),
			     sw ? HSAGPU_PEER_VIA_SWITCH : HSAGPU_PEER_VIA_ROOT);
	if (d0->vm) {
		/* The whole VRAM, in the driver aperture above user space */
		CHECK(pa.vram_addr >= HSAGPU_VM_APERTURE_BASE &&
		      !(pa.vram_addr & 4095) &&
		      pa.vram_addr + pa.vram_size - 1 <= HSAGPU_VM_APERTURE_END,
		      "GPU VM window 0x%llx + 0x%llx outside the aperture",
		      (unsigned long long)pa.vram_addr,
		      (unsigned long long)pa.vram_size);
	} else if (pa.flags & HSAGPU_PEER_VIA_SWITCH ||
	    !(i0->dma_flags & HSAGPU_DMA_INFO_IOMMU)) {
		CHECK_EQ_U64(pa.flags & HSAGPU_PEER_IOMMU, 0);
		CHECK_EQ_U64(pa.vram_addr, i1->vram_bus_addr);
	} else {
		CHECK_EQ_U64(pa.flags, HSAGPU_PEER_VIA_ROOT | HSAGPU_PEER_IOMMU);
		CHECK(pa.vram_addr && pa.vram_addr + pa.vram_size <=
		      (i0->p2p_addr_bits >= 64 ? UINT64_MAX :
		       1ULL << i0->p2p_addr_bits), "IOVA 0x%llx",
		      (unsigned long long)pa.vram_addr);
	}
	/* Asking again: the same answer */
	EXPECT(gti_peer_access(fd, fd1, &pb), 0, "PEER_ACCESS 0 -> 1 again");
	CHECK(same_peer(&pa, &pb), "second PEER_ACCESS differs");
	/* The other direction */
	EXPECT(gti_peer_access(fd1, fd, &pb), 0, "PEER_ACCESS 1 -> 0");
	CHECK_EQ_U64(pb.peer_bar_addr, i0->vram_bus_addr);
	CHECK_EQ_U64(pb.flags & HSAGPU_PEER_VIA_SWITCH,
		     pa.flags & HSAGPU_PEER_VIA_SWITCH);
	/* The peer's file may go: the access stays, a new one still works */
	f2 = open("/dev/hsagpu1", O_RDWR);     /* agent 1's device */
	CHECK(f2 >= 0, "open /dev/hsagpu1: %s", strerror(errno));
	if (f2 < 0)
		return;
	EXPECT(gti_peer_access(fd, f2, &pb), 0,
	       "PEER_ACCESS through another file of the peer");
	CHECK(same_peer(&pa, &pb), "PEER_ACCESS through another file differs");
	close(f2);
	EXPECT(gti_peer_access(fd, fd1, &pb), 0,
	       "PEER_ACCESS after another peer file closed");
}

/*
 * The segments are what the device reaches: a system allocation of
 * several segments copied to VRAM and back through the runtime's
 * scatter-gather lists, and (with a peer) filled into the peer's VRAM.
 */
static void test_dma_segments(struct gtq_dev *d, struct gtq_dev *peer)
{
	const size_t big = (24 << 20) + 12288;  /* a small last chunk */
	uint8_t *a = gtq_alloc(d, big, HSAGPU_RT_MEM_SYSTEM);
	uint8_t *b = gtq_alloc(d, big, HSAGPU_RT_MEM_SYSTEM);
	uint8_t *v = gtq_alloc(d, big, HSAGPU_RT_MEM_VRAM);
	hsagpu_queue_t *q = gtq_queue(d, 64, 0);
	hsagpu_signal_t s = gtq_signal(d, 1);
	hsagpu_dma_list_t *list = NULL;
	uint64_t bad = 0;
	int64_t id;

	if (!a || !b || !v || !q || !s.handle ||
	    hsagpu_dma_list_create(d->agent, 4096, &list)) {
		CHECK(0, "set-up for DMA through segments");
		return;
	}
	for (size_t k = 0; k < big; k += 8)
		*(uint64_t *)(a + k) = k * 0x9e3779b97f4a7c15ULL;
	id = hsagpu_dma_copy(q, list, v, a + 8, big - 8, s);
	CHECK(id >= 0, "copy system -> VRAM: %lld", (long long)id);
	DIAG("system -> VRAM through %u descriptors",
	     hsagpu_dma_list_count(list));
	GTQ_WAIT(s, 0, 20000);
	hsagpu_signal_store_relaxed(s, 1);
	id = hsagpu_dma_copy(q, list, b + 8, v, big - 8, s);
	CHECK(id >= 0, "copy VRAM -> system: %lld", (long long)id);
	GTQ_WAIT(s, 0, 20000);
	hsagpu_signal_store_relaxed(s, 1);
	CHECK(!memcmp(a + 8, b + 8, big - 8), "round trip through VRAM differs");
	CHECK(*(uint64_t *)b == 0, "byte before the copy written");

	if (peer) {
		/*
		 * A peer allocation above VRAM offset 0 (the first one is in
		 * the way): with GPU VM its address is the PEER_ACCESS window
		 * plus ALLOC_MEM's vram_offset, nothing else tells where it is
		 */
		uint8_t *first = gtq_alloc(peer, 1 << 20, HSAGPU_RT_MEM_VRAM);
		uint8_t *pv = gtq_alloc(peer, 1 << 20, HSAGPU_RT_MEM_VRAM);
		uint32_t flags = 0;

		if (first)
			memset(first, 0x3c, 1 << 20);

		CHECK(pv && !hsagpu_agent_enable_peer(d->agent, peer->agent,
						      &flags), "enable peer");
		/* Above the peer's address limit it fails (t-p2p checks). */
		if (!(peer->info->p2p_status & HSAGPU_P2P_OK))
			DIAG("peer beyond the P2P limit: no peer fill");
		else if (pv) {
			id = hsagpu_dma_fill(q, list, pv + 4, 0xc0ffee11,
					     (1 << 20) - 8, s);
			CHECK(id >= 0, "fill peer VRAM: %lld", (long long)id);
			GTQ_WAIT(s, 0, 20000);
			hsagpu_signal_store_relaxed(s, 1);
			for (size_t k = 4; k < (1 << 20) - 4; k += 4)
				bad += *(volatile uint32_t *)(pv + k) !=
				       0xc0ffee11;
			CHECK(!bad && *(volatile uint32_t *)pv == 0,
			      "peer fill: %llu words wrong (flags 0x%x)",
			      (unsigned long long)bad, flags);
			CHECK(!first ||
			      gtd_find_not(first, 1 << 20, 0x3c) == 1 << 20,
			      "peer fill landed in the peer's other allocation (byte %zu): the runtime does not know the VRAM offset (ALLOC_MEM vram_offset)",
			      gtd_find_not(first, 1 << 20, 0x3c));
		}
		if (first)
			hsagpu_memory_free(peer->agent, first);
	}
	hsagpu_dma_list_destroy(list);
	hsagpu_signal_destroy(s);
	hsagpu_queue_destroy(q);
}

static void test_peer_args(int ofd)
{
	struct hsagpu_peer_access pa;
	int nul = open("/dev/null", O_RDWR), closed;
	char tmpl[] = "/tmp/t-dma-args.XXXXXX";
	int reg = mkstemp(tmpl);

	EXPECT(gti_peer_access(fd, fd, &pa), EINVAL, "PEER_ACCESS to itself");
	EXPECT(gti_peer_access(fd, ofd, &pa), EINVAL,
	       "PEER_ACCESS to another file of the same device");
	EXPECT(gti_peer_access(fd, nul, &pa), EINVAL, "PEER_ACCESS to /dev/null");
	if (reg >= 0) {
		EXPECT(gti_peer_access(fd, reg, &pa), EINVAL,
		       "PEER_ACCESS to a regular file");
		close(reg);
		unlink(tmpl);
	}
	EXPECT(gti_peer_access(fd, -1, &pa), EBADF, "PEER_ACCESS fd -1");
	EXPECT(gti_peer_access(fd, 0x7fffffff, &pa), EBADF,
	       "PEER_ACCESS fd 0x7fffffff");
	closed = dup(nul);
	close(closed);
	EXPECT(gti_peer_access(fd, closed, &pa), EBADF, "PEER_ACCESS closed fd");
	close(nul);
	memset(&pa, 0, sizeof(pa));
	pa.size = sizeof(pa) - 8;
	pa.peer_fd = ofd;
	EXPECT(xioctl(HSAGPU_IOC_PEER_ACCESS, &pa), EINVAL,
	       "PEER_ACCESS size - 8");
	pa.size = sizeof(pa) + 8;
	EXPECT(xioctl(HSAGPU_IOC_PEER_ACCESS, &pa), EINVAL,
	       "PEER_ACCESS size + 8");
	EXPECT(xioctl(HSAGPU_IOC_PEER_ACCESS, NULL), EFAULT,
	       "PEER_ACCESS NULL argument");
	EXPECT(xioctl(HSAGPU_IOC_PEER_ACCESS, (void *)-4096L), EFAULT,
	       "PEER_ACCESS kernel pointer");
}

/* GPU VM: no segments to list, no bus address to show */
static void test_vm_memory(int f)
{
	struct hsagpu_mem_segment seg[2];
	struct hsagpu_alloc_mem am;
	uint32_t count = 2;

	EXPECT(gti_alloc(f, HSAGPU_MEM_SYSTEM, 8 << 20, &am), 0,
	       "ALLOC_MEM 8 MiB");
	CHECK_EQ_U64(am.bus_addr, 0);
	EXPECT(segments(f, am.handle, seg, 0, &count), EOPNOTSUPP,
	       "MEM_SEGMENTS with GPU virtual memory");
	EXPECT(gti_free(f, am.handle), 0, "FREE_MEM");
	EXPECT(gti_alloc(f, HSAGPU_MEM_VRAM, 1 << 20, &am), 0, "ALLOC_MEM VRAM");
	CHECK_EQ_U64(am.bus_addr, 0);
	CHECK(!(am.vram_offset & 4095), "VRAM offset 0x%llx",
	      (unsigned long long)am.vram_offset);
	EXPECT(gti_free(f, am.handle), 0, "FREE_MEM VRAM");
}

static void run(int n, int vm)
{
	struct gtq_dev d, other, peer;
	int ofd, queues;

	DIAG("files %s GPU virtual memory", vm ? "with" : "without");
	queues = gtq_open_vm(0, &d, vm);
	if (queues < 0 || gtq_open_vm(0, &other, vm) < 0) {
		gtq_close(&d);
		return;
	}
	fd = hsagpu_agent_fd(d.agent);
	ofd = hsagpu_agent_fd(other.agent);

	if (!vm) {
		test_alloc_sizes(d.info);
		test_segments_args(ofd);
		test_big(&d, queues > 0);
	} else {
		test_vm_memory(fd);
		test_peer_args(ofd);
	}
	if (n > 1 && gtq_open_vm(1, &peer, vm) >= 0) {
		test_peer(&d, &peer);
		if (queues > 0 && (d.info->caps & HSAGPU_CAP_DMA))
			test_dma_segments(&d, &peer);
		gtq_close(&peer);
	} else {
		DIAG("one device: no peer to reach");
		if (queues > 0 && (d.info->caps & HSAGPU_CAP_DMA))
			test_dma_segments(&d, NULL);
	}
	gtq_close(&other);
	gtq_close(&d);
}

int main(void)
{
	int n = hsagpu_agent_count();

	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	if (n <= 0)
		return gt_result();
	run(n, 0);
	run(n, 1);
	return gt_result();
}
