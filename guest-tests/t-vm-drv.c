// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-vm-drv: the driver side of GPU virtual memory, on raw ioctls (no
 * libhsagpu): GPU address == CPU address for mmap()ed SYSTEM and VRAM
 * allocations and for registered malloc memory (DMA between the plain
 * pointers), the mmap rules (one whole mapping, no split or move, only
 * the opener), munmap of an allocation and of registered memory taking
 * the pages out of the GPU space (a later packet naming them takes a VM
 * fault with that address, client DMA), the aperture addresses of
 * events, -EACCES for a child using the inherited file, and VMIDs: 15
 * processes with queues hold them all, a 16th gets ENOSPC until one of
 * them exits.
 *
 * SKIP when the file does not use GPU virtual memory (hsagpu.ko vm=0, or
 * a device without it) or queues are not allowed on this platform.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gt.h"
#include "gtioctl.h"

#define RING_PKTS       64U
#define NCHILD          15
#define WAIT_MS         5000U

struct vq {
	int fd;
	uint32_t id;
	uint8_t *ring;                  /* RING_PKTS packets */
	volatile uint64_t *rptr, *wptr;
	volatile uint64_t *doorbell;
	void *dbpage;
	void *mem;                      /* the queue's allocation */
	size_t mem_len;
	uint64_t handle;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/* ALLOC_MEM and mmap() it with @prot: the CPU (and GPU) address. */
static void *alloc_map(int fd, uint32_t flags, size_t bytes, int prot,
		       uint64_t *handle)
{
	struct hsagpu_alloc_mem am;
	void *p;
	int e;

	e = gti_alloc(fd, flags, bytes, &am);
	if (e) {
		CHECK(0, "ALLOC_MEM %zu bytes flags 0x%x: %s", bytes, flags,
		      strerror(e));
		return NULL;
	}
	CHECK(am.bus_addr == 0, "GPUVM ALLOC_MEM shows bus address 0x%llx",
	      (unsigned long long)am.bus_addr);
	p = mmap(NULL, bytes, prot, MAP_SHARED, fd, am.mmap_offset);
	if (p == MAP_FAILED) {
		CHECK(0, "mmap of the allocation: %s", strerror(errno));
		gti_free(fd, am.handle);
		return NULL;
	}
	if (handle)
		*handle = am.handle;
	return p;
}

/* A queue whose ring and indices are in one mmap()ed SYSTEM allocation. */
static int vq_create(int fd, struct vq *q)
{
	struct hsagpu_create_queue cq = { .size = sizeof(cq) };
	uint8_t *m;
	int e;

	memset(q, 0, sizeof(*q));
	q->fd = fd;
	q->mem_len = RING_PKTS * HSAGPU_AQL_PACKET_SIZE + 4096;
	m = alloc_map(fd, HSAGPU_MEM_SYSTEM, q->mem_len,
		      PROT_READ | PROT_WRITE, &q->handle);
	if (!m)
		return EIO;
	q->mem = m;
	q->ring = m;
	q->wptr = (volatile uint64_t *)(m + RING_PKTS * 64 + 56);
	q->rptr = (volatile uint64_t *)(m + RING_PKTS * 64 + 128);
	for (e = 0; e < (int)RING_PKTS; e++)
		*(uint16_t *)(q->ring + e * 64) = HSAGPU_PKT_TYPE_INVALID;
	cq.ring_addr = (uintptr_t)q->ring;
	cq.ring_size = RING_PKTS;
	cq.rptr_addr = (uintptr_t)q->rptr;
	cq.wptr_addr = (uintptr_t)q->wptr;
	e = gti_ioctl(fd, HSAGPU_IOC_CREATE_QUEUE, &cq);
	if (e) {
		munmap(q->mem, q->mem_len);
		gti_free(fd, q->handle);
		q->mem = NULL;
		return e;
	}
	q->id = cq.queue_id;
	q->dbpage = mmap(NULL, 4096, PROT_WRITE, MAP_SHARED, fd,
			 cq.doorbell_mmap_offset);
	if (q->dbpage == MAP_FAILED) {
		CHECK(0, "doorbell mmap: %s", strerror(errno));
		q->dbpage = NULL;
		return EIO;
	}
	q->doorbell = (volatile uint64_t *)((uint8_t *)q->dbpage +
					    cq.doorbell_offset);
	return 0;
}

static void vq_destroy(struct vq *q)
{
	struct hsagpu_queue_id qi = { .size = sizeof(qi), .queue_id = q->id };

	if (!q->mem)
		return;
	EXPECT(gti_ioctl(q->fd, HSAGPU_IOC_DESTROY_QUEUE, &qi), 0,
	       "DESTROY_QUEUE");
	if (q->dbpage)
		munmap(q->dbpage, 4096);
	munmap(q->mem, q->mem_len);
	EXPECT(gti_free(q->fd, q->handle), 0, "FREE_MEM of the queue memory");
	q->mem = NULL;
}

/* Write @pkt (64 bytes, header last) and ring the doorbell. */
static void vq_submit(struct vq *q, const void *pkt)
{
	uint64_t w = *q->wptr;
	uint8_t *slot = q->ring + (w % RING_PKTS) * 64;

	memcpy(slot + 4, (const uint8_t *)pkt + 4, 60);
	__atomic_store_n((uint32_t *)slot, *(const uint32_t *)pkt,
			 __ATOMIC_RELEASE);
	__atomic_store_n(q->wptr, w + 1, __ATOMIC_RELEASE);
	*q->doorbell = w;
}

static int vq_status(struct vq *q, struct hsagpu_queue_status *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	st->queue_id = q->id;
	return gti_ioctl(q->fd, HSAGPU_IOC_QUEUE_STATUS, st);
}

/*
 * DMA copy of @n bytes from @src to @dst (GPU = CPU addresses), signal
 * @sig; waits until the signal reaches 0 or the queue fails.
 */
static int vq_copy(struct vq *q, struct hsagpu_signal *sig, void *dst,
		   const void *src, uint64_t n)
{
	struct hsagpu_dma_packet p = {
		.header = HSAGPU_PKT_TYPE_VENDOR_SPECIFIC |
			  HSAGPU_PKT_HDR_BARRIER |
			  HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_ACQUIRE_SHIFT |
			  HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_RELEASE_SHIFT,
		.format = HSAGPU_VENDOR_FORMAT_DMA,
		.op = HSAGPU_DMA_OP_COPY,
		.src = (uintptr_t)src,
		.dst = (uintptr_t)dst,
		.size = n,
		.completion_signal = (uintptr_t)sig,
	};
	struct hsagpu_queue_status st;
	uint64_t t0 = now_ms();

	sig->kind = HSAGPU_SIGNAL_KIND_USER;
	__atomic_store_n(&sig->value, 1, __ATOMIC_RELEASE);
	vq_submit(q, &p);
	while (now_ms() - t0 < WAIT_MS) {
		if (!__atomic_load_n(&sig->value, __ATOMIC_ACQUIRE))
			return 0;
		if (!vq_status(q, &st) && st.state == HSAGPU_QSTATE_ERROR)
			return -(int)st.error;
		usleep(200);
	}
	return -ETIME;
}

static struct hsagpu_signal *sigs;

/* This process's page tables, from debugfs "vm"; -1 if unknown. */
static long my_tables(void)
{
	char line[256];
	long n = -1;
	FILE *f;
	int pid;

	if (access("/sys/kernel/debug/hsagpu", F_OK))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	f = popen("cat /sys/kernel/debug/hsagpu/*/vm", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		long t;

		if (sscanf(line, "file pid %d vmid %*u mappings %*u tables %ld",
			   &pid, &t) == 2 && pid == getpid())
			n = t;
	}
	pclose(f);
	return n;
}

/* debugfs "vm" vmids_used of the first device, or -1. */
static long vmids_used(void)
{
	char line[256];
	long v = -1;
	FILE *f;

	if (access("/sys/kernel/debug/hsagpu", F_OK))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	f = popen("cat /sys/kernel/debug/hsagpu/*/vm", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "vmids_used %li", &v) == 1)
			break;
	pclose(f);
	return v;
}

/* A CPU range of @n bytes aligned to @align, reserved, then released. */
static void *aligned_hole(size_t n, size_t align)
{
	uint8_t *p = mmap(NULL, n + align, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a;

	if (p == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
	munmap(p, n + align);
	return (void *)a;
}

static void fill(void *p, size_t n, uint32_t seed)
{
	uint32_t *w = p;
	size_t i;

	for (i = 0; i < n / 4; i++)
		w[i] = seed * 2654435761U + i;
}

/* SYSTEM -> VRAM -> SYSTEM through the CPU pointers of both. */
static void test_sys_vram(int fd, struct vq *q, size_t n)
{
	uint64_t hs, hv, hd;
	uint8_t *s, *v, *d;
	int r;

	s = alloc_map(fd, HSAGPU_MEM_SYSTEM, n, PROT_READ | PROT_WRITE, &hs);
	v = alloc_map(fd, HSAGPU_MEM_VRAM, n, PROT_READ | PROT_WRITE, &hv);
	d = alloc_map(fd, HSAGPU_MEM_SYSTEM, n, PROT_READ | PROT_WRITE, &hd);
	if (!s || !v || !d)
		return;
	fill(s, n, 7 + n);
	memset(d, 0, n);
	DIAG("system %p, VRAM %p, system %p", s, v, d);
	r = vq_copy(q, &sigs[0], v, s, n);
	CHECK(r == 0, "DMA system %p -> VRAM %p: %d", s, v, r);
	r = vq_copy(q, &sigs[1], d, v, n);
	CHECK(r == 0, "DMA VRAM %p -> system %p: %d", v, d, r);
	CHECK(!memcmp(s, d, n), "data through VRAM differs");
	CHECK(!memcmp(s, v, 4096), "CPU view of VRAM differs from what DMA wrote");
	DIAG("system %p -> VRAM %p -> system %p: %zu bytes by CPU pointers",
	     s, v, d, n);
	munmap(s, n);
	munmap(v, n);
	munmap(d, n);
	gti_free(fd, hs);
	gti_free(fd, hv);
	gti_free(fd, hd);
}

/*
 * VRAM mapped at a 2 MiB aligned CPU address goes in as 2 MiB pages:
 * no last-level tables (4 KiB pages would need 4 for 8 MiB), and DMA
 * through them lands where the CPU sees it.
 */
static void test_large_pages(int fd, struct vq *q)
{
	size_t n = 8 << 20;
	struct hsagpu_alloc_mem am;
	uint8_t *v, *s, *d, *want;
	uint64_t hs, hd;
	long t0, t1;
	int r;

	s = alloc_map(fd, HSAGPU_MEM_SYSTEM, 65536, PROT_READ | PROT_WRITE, &hs);
	d = alloc_map(fd, HSAGPU_MEM_SYSTEM, 65536, PROT_READ | PROT_WRITE, &hd);
	if (!s || !d || gti_alloc(fd, HSAGPU_MEM_VRAM, n, &am))
		return;
	want = aligned_hole(n, 2 << 20);
	t0 = my_tables();
	v = mmap(want, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
		 am.mmap_offset);
	CHECK(v == want, "mmap of VRAM at %p: %s", want, strerror(errno));
	if (v != want)
		return;
	t1 = my_tables();
	if (t0 >= 0 && t1 >= 0)
		CHECK(t1 - t0 <= 2,
		      "8 MiB of 2 MiB aligned VRAM took %ld page tables (2 MiB pages need at most 2)",
		      t1 - t0);
	fill(s, 65536, 3);
	r = vq_copy(q, &sigs[4], v + (6 << 20) + 4096, s, 65536);
	CHECK(r == 0, "DMA into a 2 MiB page: %d", r);
	r = vq_copy(q, &sigs[5], d, v + (6 << 20) + 4096, 65536);
	CHECK(r == 0, "DMA out of a 2 MiB page: %d", r);
	CHECK(!memcmp(d, s, 65536), "data through a 2 MiB page differs");
	CHECK(!memcmp(v + (6 << 20) + 4096, s, 4096),
	      "CPU view of the 2 MiB page differs");
	DIAG("8 MiB VRAM at %p: %ld page tables added", v, t1 - t0);
	munmap(v, n);
	gti_free(fd, am.handle);
	munmap(s, 65536);
	munmap(d, 65536);
	gti_free(fd, hs);
	gti_free(fd, hd);
}

/*
 * fork() write-protects the parent's registered pages for copy-on-write
 * (pinned pages are copied for the child instead): the registration
 * stays in the GPU space, the child's writes stay in the child.
 */
static void test_fork_registered(int fd, struct vq *q)
{
	struct hsagpu_register_mem rm = { .size = sizeof(rm) };
	size_t n = 8192;
	uint8_t *m, *s;
	uint64_t hs;
	pid_t pid;
	int st, r, e;

	s = alloc_map(fd, HSAGPU_MEM_SYSTEM, n, PROT_READ | PROT_WRITE, &hs);
	m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (!s || m == MAP_FAILED)
		return;
	memset(m, 5, n);
	rm.addr = (uintptr_t)m;
	rm.bytes = n;
	e = gti_ioctl(fd, HSAGPU_IOC_REGISTER_MEM, &rm);
	CHECK(!e, "REGISTER_MEM: %s", strerror(e));
	if (e)
		return;
	pid = fork();
	if (pid == 0) {
		memset(m, 9, n);        /* its own copy */
		_exit(0);
	}
	waitpid(pid, &st, 0);
	memset(m, 6, n);                /* the parent's page, still pinned */
	fill(s, n, 21);
	r = vq_copy(q, &sigs[6], m, s, n);
	CHECK(r == 0, "DMA into registered memory after fork(): %d", r);
	CHECK(!memcmp(m, s, n),
	      "the parent does not see the DMA into its registered memory after fork()");
	EXPECT(gti_free(fd, rm.handle), 0, "FREE_MEM");
	munmap(m, n);
	munmap(s, n);
	gti_free(fd, hs);
}

/*
 * A process that exits with a queue still copying into registered and
 * allocated memory: its queues go before its pages (the boot's kernel
 * log check catches an oops or a warning), and its VMID comes back.
 */
static void test_exit_busy(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		int fd = open("/dev/hsagpu0", O_RDWR);
		struct hsagpu_register_mem rm = { .size = sizeof(rm) };
		struct hsagpu_dma_packet p = {
			.header = HSAGPU_PKT_TYPE_VENDOR_SPECIFIC,
			.format = HSAGPU_VENDOR_FORMAT_DMA,
		.op = HSAGPU_DMA_OP_COPY,
			.size = 16 << 20,
		};
		struct vq q;
		uint8_t *src, *dst;
		int i;

		if (fd < 0 || vq_create(fd, &q))
			_exit(1);
		src = alloc_map(fd, HSAGPU_MEM_SYSTEM, 16 << 20,
				PROT_READ | PROT_WRITE, NULL);
		dst = malloc(16 << 20);
		if (!src || !dst)
			_exit(1);
		memset(dst, 0, 16 << 20);
		rm.addr = (uintptr_t)dst;
		rm.bytes = 16 << 20;
		if (gti_ioctl(fd, HSAGPU_IOC_REGISTER_MEM, &rm))
			_exit(1);
		p.src = (uintptr_t)src;
		p.dst = (uintptr_t)dst;
		for (i = 0; i < 8; i++)
			vq_submit(&q, &p);
		_exit(0);               /* everything still in flight */
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	      !WEXITSTATUS(st), "the busy process did not set up and exit");
}

/*
 * Another device's VRAM through PEER_ACCESS: in this file's aperture, a
 * DMA round trip through it.
 */
static void test_peer(int fd, struct vq *q, uint32_t addr_bits)
{
	uint64_t limit = addr_bits >= 64 ? ~0ULL : (1ULL << addr_bits) - 1;
	struct hsagpu_peer_access pa;
	struct hsagpu_peer_access again;
	struct hsagpu_alloc_mem pam;
	uint8_t *s, *d, *peer, *pcpu;
	uint64_t hs, hd;
	int pfd, e, r;

	pfd = open("/dev/hsagpu1", O_RDWR);
	if (pfd < 0)
		return;
	e = gti_peer_access(fd, pfd, &pa);
	if (e) {
		DIAG("no peer access to hsagpu1: %s", strerror(e));
		close(pfd);
		return;
	}
	CHECK(pa.vram_addr >= HSAGPU_VM_APERTURE_BASE &&
	      pa.vram_addr + pa.vram_size - 1 <= HSAGPU_VM_APERTURE_END,
	      "peer VRAM at 0x%llx, not in the aperture",
	      (unsigned long long)pa.vram_addr);
	EXPECT(gti_peer_access(fd, pfd, &again), 0, "PEER_ACCESS again");
	CHECK_EQ_U64(again.vram_addr, pa.vram_addr);
	/*
	 * A peer BAR above this device's address limit: the window exists,
	 * the device refuses to use it (queue error P2P_LIMIT, which t-p2p
	 * checks on a queue of its own; this one must stay usable).
	 */
	if (pa.peer_bar_addr + pa.vram_size - 1 > limit) {
		DIAG("peer BAR 0x%llx above the %u-bit limit: no DMA through it",
		     (unsigned long long)pa.peer_bar_addr, addr_bits);
		close(pfd);
		return;
	}
	s = alloc_map(fd, HSAGPU_MEM_SYSTEM, 65536, PROT_READ | PROT_WRITE, &hs);
	d = alloc_map(fd, HSAGPU_MEM_SYSTEM, 65536, PROT_READ | PROT_WRITE, &hd);
	if (!s || !d)
		return;
	/* A VRAM allocation of the peer file: its vram_offset names it. */
	if (gti_alloc(pfd, HSAGPU_MEM_VRAM, 2 * 65536, &pam))
		return;
	pcpu = mmap(NULL, 2 * 65536, PROT_READ | PROT_WRITE, MAP_SHARED, pfd,
		    pam.mmap_offset);
	CHECK(pcpu != MAP_FAILED, "mmap of the peer allocation: %s",
	      strerror(errno));
	if (pcpu == MAP_FAILED)
		return;
	peer = (uint8_t *)(uintptr_t)(pa.vram_addr + pam.vram_offset + 65536);
	fill(s, 65536, 33);
	r = vq_copy(q, &sigs[7], peer, s, 65536);
	CHECK(r == 0, "DMA to peer VRAM at %p: %d", peer, r);
	r = vq_copy(q, &sigs[8], d, peer, 65536);
	CHECK(r == 0, "DMA from peer VRAM at %p: %d", peer, r);
	CHECK(!memcmp(s, d, 65536), "data through peer VRAM differs");
	CHECK(!memcmp(pcpu + 65536, s, 65536),
	      "the peer's own mapping of its allocation (vram_offset 0x%llx) does not show the data",
	      (unsigned long long)pam.vram_offset);
	munmap(pcpu, 2 * 65536);
	gti_free(pfd, pam.handle);
	DIAG("peer VRAM (%llu MiB) at 0x%llx", (unsigned long long)pa.vram_size >> 20,
	     (unsigned long long)pa.vram_addr);
	munmap(s, 65536);
	munmap(d, 65536);
	gti_free(fd, hs);
	gti_free(fd, hd);
	close(pfd);
}

/* malloc() memory registered by pointer, DMA into it. */
static void test_register(int fd, struct vq *q)
{
	struct hsagpu_register_mem rm = { .size = sizeof(rm) };
	size_t n = 100000;
	uint8_t *s, *m;
	uint64_t hs;
	int r, e;

	s = alloc_map(fd, HSAGPU_MEM_SYSTEM, n, PROT_READ | PROT_WRITE, &hs);
	m = malloc(n + 64);
	if (!s || !m)
		return;
	m += 24;                        /* not page aligned */
	memset(m, 0, n);
	fill(s, n, 11);
	rm.addr = (uintptr_t)m;
	rm.bytes = n;
	e = gti_ioctl(fd, HSAGPU_IOC_REGISTER_MEM, &rm);
	CHECK(e == 0, "REGISTER_MEM of malloc()ed %p: %s", m, strerror(e));
	if (e)
		return;
	r = vq_copy(q, &sigs[2], m, s, n);
	CHECK(r == 0, "DMA into registered malloc memory: %d", r);
	CHECK(!memcmp(m, s, n), "registered memory does not hold the DMA data");
	/* The same pages again: they are in the GPU space already. */
	EXPECT(gti_ioctl(fd, HSAGPU_IOC_REGISTER_MEM, &rm), EBUSY,
	       "REGISTER_MEM of a registered range");
	EXPECT(gti_free(fd, rm.handle), 0, "FREE_MEM of the registration");
	rm.addr = 0;
	rm.bytes = 4096;
	EXPECT(gti_ioctl(fd, HSAGPU_IOC_REGISTER_MEM, &rm), EFAULT,
	       "REGISTER_MEM of unmapped page 0");
	rm.addr = 1ULL << 47;
	EXPECT(gti_ioctl(fd, HSAGPU_IOC_REGISTER_MEM, &rm), EINVAL,
	       "REGISTER_MEM in the driver aperture");
	free(m - 24);
	munmap(s, n);
	gti_free(fd, hs);
}

/*
 * A packet naming an address that was unmapped (@what) faults: queue @q
 * (created before the munmap, so that its memory cannot take the freed
 * CPU range) is in error VM_FAULT with that address, client DMA, write.
 */
static void expect_fault(struct vq *qp, const char *what, void *dst,
			 const void *src)
{
	struct hsagpu_queue_status st;
	struct vq q = *qp;
	uint32_t info;
	int r;

	r = vq_copy(&q, &sigs[3], dst, src, 4096);
	CHECK(r == -(int)HSAGPU_QERR_VM_FAULT,
	      "DMA to %s %p: %d, expected queue error VM_FAULT (-%u)", what,
	      dst, r, HSAGPU_QERR_VM_FAULT);
	if (!vq_status(&q, &st)) {
		info = st.fault_info;
		CHECK_EQ_U64(st.fault_addr, (uintptr_t)dst);
		CHECK((info & HSAGPU_VM_FAULT_VALID) &&
		      (info & HSAGPU_VM_FAULT_CLIENT_MASK) >>
		      HSAGPU_VM_FAULT_CLIENT_SHIFT == HSAGPU_VM_CLIENT_DMA &&
		      (info & HSAGPU_VM_FAULT_ACCESS_MASK) >>
		      HSAGPU_VM_FAULT_ACCESS_SHIFT == HSAGPU_VM_ACCESS_WRITE &&
		      (info & HSAGPU_VM_FAULT_REASON_MASK) >>
		      HSAGPU_VM_FAULT_REASON_SHIFT == HSAGPU_VM_REASON_NOT_PRESENT,
		      "%s: fault_info 0x%x: expected DMA write, not present",
		      what, info);
		CHECK((info & HSAGPU_VM_FAULT_QUEUE_MASK) >>
		      HSAGPU_VM_FAULT_QUEUE_SHIFT == q.id,
		      "fault_info 0x%x names queue %u", info, q.id);
		{
			/* An ABI 1.2 caller: its 32 bytes, nothing beyond. */
			uint8_t old[HSAGPU_QUEUE_STATUS_SIZE_1_2 + 16];
			struct hsagpu_queue_status *o = (void *)old;

			memset(old, 0xee, sizeof(old));
			o->size = HSAGPU_QUEUE_STATUS_SIZE_1_2;
			o->queue_id = q.id;
			o->reserved = 0;
			EXPECT(gti_ioctl(q.fd, _IOC(_IOC_READ | _IOC_WRITE,
						    HSAGPU_IOCTL_BASE, 0x06,
						    HSAGPU_QUEUE_STATUS_SIZE_1_2),
					 o), 0, "ABI 1.2 QUEUE_STATUS");
			CHECK(o->error == HSAGPU_QERR_VM_FAULT &&
			      old[HSAGPU_QUEUE_STATUS_SIZE_1_2] == 0xee,
			      "ABI 1.2 QUEUE_STATUS: error %u, byte past it 0x%x",
			      o->error, old[HSAGPU_QUEUE_STATUS_SIZE_1_2]);
		}
		DIAG("%s: VM fault at 0x%llx, info 0x%x", what,
		     (unsigned long long)st.fault_addr, info);
	}
}

/*
 * GPU permissions follow the CPU mapping: a read-only mmap() and a
 * READONLY registration can be DMA sources but not destinations.
 */
static void test_permissions(int fd)
{
	struct hsagpu_register_mem rm = { .size = sizeof(rm),
					  .flags = HSAGPU_REGISTER_READONLY };
	struct hsagpu_queue_status st;
	uint8_t *ro, *rw, *m;
	uint64_t hro, hrw;
	struct vq q;
	int i, r, e;

	ro = alloc_map(fd, HSAGPU_MEM_SYSTEM, 8192, PROT_READ, &hro);
	rw = alloc_map(fd, HSAGPU_MEM_SYSTEM, 8192, PROT_READ | PROT_WRITE, &hrw);
	m = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!ro || !rw || m == MAP_FAILED)
		return;
	memset(m, 0x5a, 8192);
	rm.addr = (uintptr_t)m;
	rm.bytes = 8192;
	e = gti_ioctl(fd, HSAGPU_IOC_REGISTER_MEM, &rm);
	CHECK(!e, "REGISTER_MEM READONLY: %s", strerror(e));
	if (e)
		return;
	for (i = 0; i < 2; i++) {
		void *dst = i ? (void *)m : (void *)ro;

		if (vq_create(fd, &q))
			return;
		r = vq_copy(&q, &sigs[9], rw, dst, 4096);
		CHECK(r == 0, "DMA from %s: %d", i ? "READONLY registration" :
		      "read-only mapping", r);
		r = vq_copy(&q, &sigs[9], dst, rw, 4096);
		CHECK(r == -(int)HSAGPU_QERR_VM_FAULT,
		      "DMA into a %s: %d, expected VM_FAULT",
		      i ? "READONLY registration" : "read-only mapping", r);
		if (!vq_status(&q, &st))
			CHECK((st.fault_info & HSAGPU_VM_FAULT_REASON_MASK) >>
			      HSAGPU_VM_FAULT_REASON_SHIFT ==
			      HSAGPU_VM_REASON_PERMISSION &&
			      st.fault_addr == (uintptr_t)dst,
			      "fault 0x%x at 0x%llx: expected a permission fault at %p",
			      st.fault_info, (unsigned long long)st.fault_addr,
			      dst);
		vq_destroy(&q);
	}
	CHECK(m[0] == 0x5a, "a READONLY registration was written");
	gti_free(fd, rm.handle);
	munmap(m, 8192);
	munmap(ro, 8192);
	munmap(rw, 8192);
	gti_free(fd, hro);
	gti_free(fd, hrw);
}

static void test_unmap_faults(int fd)
{
	size_t n = 64 << 10;
	uint8_t *s, *d, *a;
	struct hsagpu_register_mem rm = { .size = sizeof(rm) };
	uint64_t hs, hd;
	struct vq q1, q2;
	int e;

	s = alloc_map(fd, HSAGPU_MEM_SYSTEM, n, PROT_READ | PROT_WRITE, &hs);
	d = alloc_map(fd, HSAGPU_MEM_SYSTEM, n, PROT_READ | PROT_WRITE, &hd);
	if (!s || !d)
		return;
	e = vq_create(fd, &q1);
	CHECK(!e, "CREATE_QUEUE: %s", strerror(e));
	if (e)
		return;
	e = vq_create(fd, &q2);
	CHECK(!e, "CREATE_QUEUE: %s", strerror(e));
	if (e)
		return;
	/* The allocation lives on (its handle) but is no longer mapped. */
	munmap(d, n);
	expect_fault(&q1, "a munmap()ed allocation", d, s);
	EXPECT(gti_free(fd, hd), 0, "FREE_MEM after munmap");

	/* Registered anonymous memory whose pages the process gives up. */
	a = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	CHECK(a != MAP_FAILED, "anonymous mmap: %s", strerror(errno));
	if (a == MAP_FAILED)
		return;
	memset(a, 1, n);
	rm.addr = (uintptr_t)a;
	rm.bytes = n;
	e = gti_ioctl(fd, HSAGPU_IOC_REGISTER_MEM, &rm);
	CHECK(e == 0, "REGISTER_MEM of anonymous memory: %s", strerror(e));
	munmap(a, n);
	expect_fault(&q2, "munmap()ed registered memory", a, s);
	vq_destroy(&q1);
	vq_destroy(&q2);
	if (!e)
		EXPECT(gti_free(fd, rm.handle), 0,
		       "FREE_MEM of a registration that was unmapped");
	munmap(s, n);
	gti_free(fd, hs);
}

/* mmap() rules of GPUVM allocations. */
static void test_mmap_rules(int fd)
{
	struct hsagpu_alloc_mem am;
	struct hsagpu_mem_segments ms = { .size = sizeof(ms) };
	uint8_t *p, *q, *r;
	size_t n = 4 * 4096;

	if (gti_alloc(fd, HSAGPU_MEM_SYSTEM, n, &am))
		return;
	p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 am.mmap_offset);
	CHECK(p != MAP_FAILED, "mmap: %s", strerror(errno));
	q = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 am.mmap_offset);
	CHECK(q == MAP_FAILED && errno == EBUSY,
	      "second mmap of a mapped allocation: %s, expected EBUSY",
	      q == MAP_FAILED ? strerror(errno) : "mapped");
	CHECK(munmap(p + 4096, 4096) && errno == EINVAL,
	      "munmap of a part: %s, expected EINVAL", strerror(errno));
	r = mremap(p, n, n, MREMAP_MAYMOVE | MREMAP_FIXED,
		   (uint8_t *)p + (64 << 20));
	CHECK(r == MAP_FAILED && errno == EINVAL,
	      "mremap (move): %s, expected EINVAL",
	      r == MAP_FAILED ? strerror(errno) : "moved");
	p[0] = 42;                      /* still there */
	munmap(p, n);
	q = mmap(NULL, n - 4096, PROT_READ, MAP_SHARED, fd, am.mmap_offset);
	CHECK(q == MAP_FAILED && errno == EINVAL,
	      "mmap of a part: %s, expected EINVAL",
	      q == MAP_FAILED ? strerror(errno) : "mapped");
	/* Unmapped, it can be mapped again (elsewhere is fine). */
	q = mmap(NULL, n, PROT_READ, MAP_SHARED, fd, am.mmap_offset);
	CHECK(q != MAP_FAILED, "mmap after munmap: %s", strerror(errno));
	if (q != MAP_FAILED) {
		CHECK(q[0] == 42, "data lost across mappings");
		munmap(q, n);
	}
	/* MAP_FIXED over a mapped allocation replaces it in the GPU space too. */
	{
		struct hsagpu_alloc_mem am2;
		uint8_t *x, *y;

		if (!gti_alloc(fd, HSAGPU_MEM_SYSTEM, n, &am2)) {
			x = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				 am.mmap_offset);
			y = x == MAP_FAILED ? MAP_FAILED :
			    mmap(x, n, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_FIXED, fd, am2.mmap_offset);
			CHECK(x != MAP_FAILED && y == x,
			      "MAP_FIXED over a mapped allocation: %s",
			      strerror(errno));
			if (y == x) {
				CHECK(x[0] == 0, "the replacing allocation shows the old data");
				munmap(x, n);
			}
			gti_free(fd, am2.handle);
		}
	}
	ms.handle = am.handle;
	ms.segs_ptr = 0;
	ms.count = 0;
	EXPECT(gti_ioctl(fd, HSAGPU_IOC_MEM_SEGMENTS, &ms), EOPNOTSUPP,
	       "MEM_SEGMENTS with GPUVM");
	gti_free(fd, am.handle);
}

/* Queue addresses must be writeable GPU mappings of the file. */
static void test_queue_args(int fd)
{
	struct hsagpu_create_queue cq = { .size = sizeof(cq) };
	uint64_t h;
	uint8_t *ro = alloc_map(fd, HSAGPU_MEM_SYSTEM, 8192, PROT_READ, &h);
	static uint8_t bss[3 * 4096] __attribute__((aligned(4096)));

	if (!ro)
		return;
	cq.ring_addr = (uintptr_t)ro;
	cq.ring_size = 64;
	cq.rptr_addr = (uintptr_t)ro + 4096;
	cq.wptr_addr = (uintptr_t)ro + 4096 + 64;
	EXPECT(gti_ioctl(fd, HSAGPU_IOC_CREATE_QUEUE, &cq), EFAULT,
	       "CREATE_QUEUE in a read-only mapping");
	cq.ring_addr = (uintptr_t)bss;
	cq.rptr_addr = (uintptr_t)bss + 8192;
	cq.wptr_addr = (uintptr_t)bss + 8192 + 64;
	EXPECT(gti_ioctl(fd, HSAGPU_IOC_CREATE_QUEUE, &cq), EFAULT,
	       "CREATE_QUEUE in memory not in the GPU space");
	munmap(ro, 8192);
	gti_free(fd, h);
}

static void test_events(int fd)
{
	uint32_t id;
	uint64_t mb;

	EXPECT(gti_event_create(fd, &id, &mb), 0, "CREATE_EVENT");
	CHECK(mb >= HSAGPU_VM_APERTURE_BASE && mb <= HSAGPU_VM_APERTURE_END,
	      "event mailbox 0x%llx not in the driver aperture",
	      (unsigned long long)mb);
	gti_event_destroy(fd, id);
}

/* A child with the inherited file: nothing of the parent's is reachable. */
static void test_fork(int fd)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		struct hsagpu_alloc_mem am;
		int e = gti_alloc(fd, HSAGPU_MEM_SYSTEM, 4096, &am);

		_exit(e == EACCES ? 0 : 1);
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	      WEXITSTATUS(st) == 0,
	      "a child's ALLOC_MEM on the inherited file was not EACCES");
}

/*
 * 15 processes hold a queue (and so a VMID) each; another one's
 * CREATE_QUEUE fails with ENOSPC until one of them exits.
 */
static int child_queue(int cmd_fd, int res_fd)
{
	int fd = open("/dev/hsagpu0", O_RDWR);
	struct vq q;
	char c;
	int e;

	if (fd < 0)
		e = errno;
	else
		e = vq_create(fd, &q);
	if (write(res_fd, &e, sizeof(e)) != sizeof(e))
		return 1;
	/* Hold the queue until told to go (or the parent died). */
	if (read(cmd_fd, &c, 1) < 0)
		return 1;
	return 0;
}

static void test_vmids(void)
{
	int cmd[NCHILD + 1][2], res[2], e, i, n = 0, st;
	pid_t pids[NCHILD + 1];
	struct vq q;
	int fd;

	if (pipe(res))
		return;
	for (i = 0; i < NCHILD; i++) {
		if (pipe(cmd[i]))
			break;
		pids[i] = fork();
		if (pids[i] == 0) {
			int j;

			/* Only the parent may hold the write ends open. */
			for (j = 0; j <= i; j++)
				close(cmd[j][1]);
			_exit(child_queue(cmd[i][0], res[1]));
		}
		if (read(res[0], &e, sizeof(e)) != sizeof(e))
			e = -1;
		CHECK(e == 0, "process %d: CREATE_QUEUE: %d", i + 1, e);
		n++;
	}
	fd = open("/dev/hsagpu0", O_RDWR);
	CHECK(fd >= 0, "open: %s", strerror(errno));
	e = fd >= 0 ? vq_create(fd, &q) : EBADF;
	CHECK(e == ENOSPC, "process 16: CREATE_QUEUE: %s, expected ENOSPC (15 VMIDs held)",
	      strerror(e));
	if (!e)
		vq_destroy(&q);
	/* One of them exits (its file's close gives the VMID back). */
	close(cmd[0][1]);
	CHECK(waitpid(pids[0], &st, 0) == pids[0] && WIFEXITED(st) &&
	      !WEXITSTATUS(st), "process 1 did not exit cleanly");
	e = fd >= 0 ? vq_create(fd, &q) : EBADF;
	CHECK(e == 0, "process 16 after one exited: CREATE_QUEUE: %s",
	      strerror(e));
	if (!e)
		vq_destroy(&q);
	if (fd >= 0)
		close(fd);
	for (i = 1; i < n; i++) {
		close(cmd[i][1]);
		waitpid(pids[i], &st, 0);
	}
	close(res[0]);
	close(res[1]);
	DIAG("%d processes held VMIDs; the next one got ENOSPC, then a VMID", n);
}

/*
 * munmap() and FREE_MEM of registered memory while a DMA into it is in
 * flight: the pages go back to the kernel at once, and a new mapping
 * (which may get those very pages) must never see the device's writes.
 */
static void test_unmap_in_flight(int fd)
{
	size_t n = 8 << 20;
	struct hsagpu_dma_packet p = {
		.header = HSAGPU_PKT_TYPE_VENDOR_SPECIFIC,
		.format = HSAGPU_VENDOR_FORMAT_DMA,
		.op = HSAGPU_DMA_OP_COPY,
		.size = n,
	};
	struct hsagpu_register_mem rm = { .size = sizeof(rm) };
	struct hsagpu_queue_status st;
	int round, faults = 0, e;
	uint8_t *s, *a, *b;
	uint64_t hs, t0;
	size_t i;
	struct vq q;

	s = alloc_map(fd, HSAGPU_MEM_SYSTEM, n, PROT_READ | PROT_WRITE, &hs);
	if (!s)
		return;
	memset(s, 0xa5, n);
	for (round = 0; round < 10; round++) {
		if (vq_create(fd, &q))
			break;
		a = mmap(NULL, n, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (a == MAP_FAILED)
			break;
		rm.addr = (uintptr_t)a;
		rm.bytes = n;
		e = gti_ioctl(fd, HSAGPU_IOC_REGISTER_MEM, &rm);
		CHECK(!e, "REGISTER_MEM: %s", strerror(e));
		p.src = (uintptr_t)s;
		p.dst = (uintptr_t)a;
		vq_submit(&q, &p);
		vq_submit(&q, &p);
		munmap(a, n);
		if (!e)
			gti_free(fd, rm.handle);
		b = mmap(NULL, n, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (b == MAP_FAILED)
			break;
		memset(b, 0x11, n);
		/* until the device is done with both packets, or failed */
		t0 = now_ms();
		while (now_ms() - t0 < WAIT_MS && *q.rptr < 2 &&
		       !(vq_status(&q, &st) == 0 &&
			 st.state == HSAGPU_QSTATE_ERROR))
			usleep(500);
		if (!vq_status(&q, &st) && st.error == HSAGPU_QERR_VM_FAULT)
			faults++;
		for (i = 0; i < n && b[i] == 0x11; i++)
			;
		CHECK(i == n, "round %d: a new mapping changed at byte %zu (0x%02x): the device wrote an unmapped page",
		      round, i, i < n ? b[i] : 0);
		munmap(b, n);
		vq_destroy(&q);
	}
	DIAG("%d rounds of munmap + FREE_MEM under DMA: %d faulted, none wrote a freed page",
	     round, faults);
	munmap(s, n);
	gti_free(fd, hs);
}

/* Physical address of the page at @p (root: /proc/self/pagemap), or 0. */
static uint64_t phys_of(const void *p)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0)
		return 0;
	if (pread(fd, &e, 8, ((uintptr_t)p / 4096) * 8) != 8)
		e = 0;
	close(fd);
	if (!(e & (1ULL << 63)) || !(e & ((1ULL << 55) - 1)))
		return 0;
	return (e & ((1ULL << 55) - 1)) * 4096 + (uintptr_t)p % 4096;
}

/*
 * Isolation: another process (its own file) names this process's buffer
 * by its virtual address and, without an IOMMU, by its bus address
 * (= physical): both fault in its own address space with that address,
 * this process's data stays intact and its queue keeps running.
 */
static void test_isolation(int fd, struct vq *q)
{
	size_t n = 65536;
	uint8_t *mine, *s;
	uint64_t hm, hs, bus;
	pid_t pid;
	int st, r;

	mine = alloc_map(fd, HSAGPU_MEM_SYSTEM, n, PROT_READ | PROT_WRITE, &hm);
	s = alloc_map(fd, HSAGPU_MEM_SYSTEM, n, PROT_READ | PROT_WRITE, &hs);
	if (!mine || !s)
		return;
	memset(mine, 0x3c, n);
	bus = phys_of(mine);
	pid = fork();
	if (pid == 0) {
		/* Its own file; nothing of the parent's is in its space. */
		int cfd = open("/dev/hsagpu0", O_RDWR), i, bad = 0;
		uint64_t targets[2] = { (uintptr_t)mine, bus }, hb, hsg;
		struct hsagpu_queue_status cst;
		struct hsagpu_signal *csig;
		struct vq cq;
		uint8_t *buf;

		if (cfd < 0)
			_exit(2);
		csig = alloc_map(cfd, HSAGPU_MEM_SYSTEM, 4096,
				 PROT_READ | PROT_WRITE, &hsg);
		buf = alloc_map(cfd, HSAGPU_MEM_SYSTEM, n, PROT_READ | PROT_WRITE,
				&hb);
		if (!csig || !buf)
			_exit(2);
		for (i = 0; i < 2; i++) {
			if (!targets[i])
				continue;
			/* Not if the child happens to have it mapped itself. */
			if ((uintptr_t)buf <= targets[i] &&
			    targets[i] < (uintptr_t)buf + n)
				continue;
			if (vq_create(cfd, &cq))
				_exit(2);
			r = vq_copy(&cq, csig, (void *)(uintptr_t)targets[i],
				    buf, 4096);
			if (r != -(int)HSAGPU_QERR_VM_FAULT || vq_status(&cq, &cst) ||
			    cst.fault_addr != targets[i]) {
				printf("# FAIL child: DMA to 0x%llx: %d, fault at 0x%llx\n",
				       (unsigned long long)targets[i], r,
				       (unsigned long long)cst.fault_addr);
				bad = 1;
			}
			vq_destroy(&cq);
		}
		_exit(bad);
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	      !WEXITSTATUS(st),
	      "another process reached this one's buffer (exit status 0x%x)", st);
	for (r = 0; r < (int)n; r++)
		if (mine[r] != 0x3c)
			break;
	CHECK(r == (int)n, "this process's buffer changed at byte %d", r);
	fill(s, n, 99);
	r = vq_copy(q, &sigs[10], mine, s, n);
	CHECK(r == 0, "this process's queue after the other's faults: %d", r);
	CHECK(!memcmp(mine, s, n), "this process's DMA after the other's faults");
	DIAG("another process faulted on %p and on bus address 0x%llx", mine,
	     (unsigned long long)bus);
	munmap(mine, n);
	munmap(s, n);
	gti_free(fd, hm);
	gti_free(fd, hs);
}

/*
 * A device reset under a file that holds a VMID: the file is lost (EIO),
 * its VMID is dropped with its queues, and a new file's queue runs in a
 * freshly programmed context (DMA by pointer works).
 */
static void test_reset(void)
{
	char devs[GT_MAX_DEVS][16], path[128];
	struct hsagpu_device_info info = { .size = sizeof(info) };
	struct hsagpu_signal *sg;
	uint8_t *s, *d;
	struct vq a, b;
	uint64_t hsg, hs, hd;
	int fa, fb, e, r;

	if (gt_find_devices(devs) < 1)
		return;
	fa = open("/dev/hsagpu0", O_RDWR);
	if (fa < 0 || vq_create(fa, &a))
		return;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/reset", devs[0]);
	e = gt_sysfs_write(path, "1");
	CHECK(!e, "reset %s: %d", devs[0], e);
	EXPECT(gti_ioctl(fa, HSAGPU_IOC_GET_INFO, &info), EIO,
	       "GET_INFO on a file the reset took the queues of");
	/* The lost file's VMID went with its queues (the reset cleared it). */
	CHECK(vmids_used() == 0, "VMIDs held after the reset: 0x%lx",
	      vmids_used());
	fb = open("/dev/hsagpu0", O_RDWR);
	CHECK(fb >= 0, "open after the reset: %s", strerror(errno));
	if (fb < 0)
		return;
	e = vq_create(fb, &b);
	CHECK(!e, "CREATE_QUEUE after the reset: %s", strerror(e));
	sg = alloc_map(fb, HSAGPU_MEM_SYSTEM, 4096, PROT_READ | PROT_WRITE, &hsg);
	s = alloc_map(fb, HSAGPU_MEM_SYSTEM, 65536, PROT_READ | PROT_WRITE, &hs);
	d = alloc_map(fb, HSAGPU_MEM_SYSTEM, 65536, PROT_READ | PROT_WRITE, &hd);
	if (!e && sg && s && d) {
		fill(s, 65536, 77);
		r = vq_copy(&b, sg, d, s, 65536);
		CHECK(r == 0, "DMA after the reset: %d", r);
		CHECK(!memcmp(s, d, 65536), "data after the reset differs");
		vq_destroy(&b);
	}
	close(fb);
	close(fa);                      /* its mappings go with the process */
}

/*
 * The device goes away (unbind) under a file with mappings, a
 * registration, a queue and events; the process then unmaps and closes
 * (tables and pins go after the DMA mappings did: no oops, no warning),
 * and the rebound device works.
 */
static void test_unbind(void)
{
	struct hsagpu_register_mem rm = { .size = sizeof(rm) };
	char devs[GT_MAX_DEVS][16], path[128];
	uint8_t *s, *v, *m;
	uint64_t hs, hv, mb;
	struct vq q;
	uint32_t id;
	int fd, e;

	if (gt_find_devices(devs) < 1)
		return;
	fd = open("/dev/hsagpu0", O_RDWR);
	if (fd < 0 || vq_create(fd, &q))
		return;
	s = alloc_map(fd, HSAGPU_MEM_SYSTEM, 65536, PROT_READ | PROT_WRITE, &hs);
	v = alloc_map(fd, HSAGPU_MEM_VRAM, 65536, PROT_READ | PROT_WRITE, &hv);
	m = malloc(65536);
	rm.addr = (uintptr_t)m;
	rm.bytes = 65536;
	EXPECT(gti_ioctl(fd, HSAGPU_IOC_REGISTER_MEM, &rm), 0, "REGISTER_MEM");
	EXPECT(gti_event_create(fd, &id, &mb), 0, "CREATE_EVENT");
	e = gt_sysfs_write("/sys/bus/pci/drivers/hsagpu/unbind", devs[0]);
	CHECK(!e, "unbind %s: %d", devs[0], e);
	EXPECT(gti_free(fd, hs), ENODEV, "FREE_MEM after unbind");
	if (s)
		munmap(s, 65536);
	if (v)
		munmap(v, 65536);
	free(m);
	close(fd);
	e = gt_sysfs_write("/sys/bus/pci/drivers/hsagpu/bind", devs[0]);
	CHECK(!e, "bind %s: %d", devs[0], e);
	snprintf(path, sizeof(path), "/sys/bus/pci/drivers/hsagpu/%s", devs[0]);
	CHECK(!access(path, F_OK), "%s not bound again", devs[0]);
	fd = open("/dev/hsagpu0", O_RDWR);
	CHECK(fd >= 0, "open after rebind: %s", strerror(errno));
	if (fd >= 0) {
		e = vq_create(fd, &q);
		CHECK(!e, "CREATE_QUEUE after rebind: %s", strerror(e));
		if (!e)
			vq_destroy(&q);
		close(fd);
	}
}

int main(void)
{
	struct hsagpu_device_info info = { .size = sizeof(info) };
	uint64_t hsig;
	struct vq q;
	int fd, e;

	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = open("/dev/hsagpu0", O_RDWR);
	if (fd < 0)
		return gt_skip("no /dev/hsagpu0");
	if (gti_ioctl(fd, HSAGPU_IOC_GET_INFO, &info))
		return gt_skip("GET_INFO failed");
	if (!(info.vm_flags & HSAGPU_VM_INFO_ENABLED))
		return gt_skip("the file does not use GPU virtual memory (vm_flags 0x%x)",
			       info.vm_flags);
	CHECK(info.vm_flags & HSAGPU_VM_INFO_CAPABLE, "vm_flags 0x%x",
	      info.vm_flags);
	test_mmap_rules(fd);
	test_events(fd);
	test_fork(fd);

	sigs = alloc_map(fd, HSAGPU_MEM_SYSTEM, 4096, PROT_READ | PROT_WRITE,
			 &hsig);
	if (!sigs)
		return gt_result();
	e = vq_create(fd, &q);
	if (e == EOPNOTSUPP)
		return gt_skip("queues not allowed on this platform (the mmap, event and fork checks ran)");
	CHECK(e == 0, "CREATE_QUEUE: %s", strerror(e));
	if (e)
		return gt_result();
	test_queue_args(fd);
	test_sys_vram(fd, &q, 256 << 10);
	/* Above HSAGPU_MEM_SYSTEM_CONTIG_MAX: several DMA segments. */
	test_sys_vram(fd, &q, 6 << 20);
	test_register(fd, &q);
	test_large_pages(fd, &q);
	test_fork_registered(fd, &q);
	test_peer(fd, &q, info.p2p_addr_bits);
	test_isolation(fd, &q);
	vq_destroy(&q);
	test_exit_busy();
	test_unmap_faults(fd);
	test_permissions(fd);
	test_unmap_in_flight(fd);
	munmap(sigs, 4096);
	gti_free(fd, hsig);
	close(fd);
	test_vmids();
	test_reset();
	test_unbind();
	return gt_result();
}
