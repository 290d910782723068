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

static void fill(void *p, size_t n, uint32_t seed)
{
	uint32_t *w = p;
	size_t i;

	for (i = 0; i < n / 4; i++)
		w[i] = seed * 2654435761U + i;
}

/* SYSTEM -> VRAM -> SYSTEM through the CPU pointers of both. */
static void test_sys_vram(int fd, struct vq *q)
{
	size_t n = 256 << 10;
	uint64_t hs, hv, hd;
	uint8_t *s, *v, *d;
	int r;

	s = alloc_map(fd, HSAGPU_MEM_SYSTEM, n, PROT_READ | PROT_WRITE, &hs);
	v = alloc_map(fd, HSAGPU_MEM_VRAM, n, PROT_READ | PROT_WRITE, &hv);
	d = alloc_map(fd, HSAGPU_MEM_SYSTEM, n, PROT_READ | PROT_WRITE, &hd);
	if (!s || !v || !d)
		return;
	fill(s, n, 7);
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
		DIAG("%s: VM fault at 0x%llx, info 0x%x", what,
		     (unsigned long long)st.fault_addr, info);
	}
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
	test_queue_args(fd);

	sigs = alloc_map(fd, HSAGPU_MEM_SYSTEM, 4096, PROT_READ | PROT_WRITE,
			 &hsig);
	if (!sigs)
		return gt_result();
	e = vq_create(fd, &q);
	if (e == EOPNOTSUPP)
		return gt_skip("queues not allowed on this platform");
	CHECK(e == 0, "CREATE_QUEUE: %s", strerror(e));
	if (e)
		return gt_result();
	test_sys_vram(fd, &q);
	test_register(fd, &q);
	vq_destroy(&q);
	test_unmap_faults(fd);
	munmap(sigs, 4096);
	gti_free(fd, hsig);
	close(fd);
	test_vmids();
	return gt_result();
}
