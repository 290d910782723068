// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hostile arguments to the queue, memory, event and mmap interfaces give
 * the documented errno and change nothing: bad size fields, unknown flags
 * and reserved bits, rings that are not a power of two or misaligned,
 * addresses outside the caller's own system-memory allocations, another
 * file's queue or allocation, stale handles and ids, mmap of unknown
 * offsets, wrong lengths or past an allocation's end, private mappings.
 */
#define _GNU_SOURCE             /* mremap */
#include <stdarg.h>
#include <sys/mman.h>

#include "gtq.h"

/* errno for each class of mistake, as the driver documents them */
#define E_ARG           EINVAL  /* size field, flags, reserved, ranges */
#define E_ADDR          EINVAL  /* not within the caller's allocations */
#define E_NOQUEUE       ENOENT  /* no such queue in this file */
#define E_NOHANDLE      ENOENT  /* no such allocation in this file */
#define E_NOEVENT       EINVAL  /* no such event in this file */
#define E_TOOBIG        E2BIG   /* above the interface's limit */

static int fd;

static int xioctl(unsigned long cmd, void *arg)
{
	errno = 0;
	return ioctl(fd, cmd, arg) ? errno : 0;
}


struct base {
	uint8_t *ring;                  /* 4 KiB system memory */
	volatile struct hsagpu_queue_desc *desc;
	uint8_t *vram;
	uint64_t ring_bus, desc_bus, vram_bus;
};

static struct hsagpu_create_queue good_cq(const struct base *b)
{
	struct hsagpu_create_queue cq = {
		.size = sizeof(cq),
		.ring_addr = b->ring_bus,
		.ring_size = 16,
		.rptr_addr = b->desc_bus + HSAGPU_QUEUE_DESC_RPTR,
		.wptr_addr = b->desc_bus + HSAGPU_QUEUE_DESC_WPTR,
	};

	return cq;
}

static int destroy_queue(int f, uint32_t id)
{
	struct hsagpu_queue_id qi = { .size = sizeof(qi), .queue_id = id };

	errno = 0;
	return ioctl(f, HSAGPU_IOC_DESTROY_QUEUE, &qi) ? errno : 0;
}

static void test_create_queue(struct gtq_dev *d, struct gtq_dev *other,
			      const struct base *b)
{
	long active0 = gtq_queues_active(d);
	struct hsagpu_create_queue cq = good_cq(b);
	uint8_t *foreign = gtq_alloc(other, 4096, HSAGPU_RT_MEM_SYSTEM);
	uint8_t *freed = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	uint64_t freed_bus = hsagpu_addr(d->agent, freed);
	uint64_t foreign_bus = hsagpu_addr(other->agent, foreign);
	static const uint32_t bad_sizes[] = {
		0, 2, 3, 12, 24, 1000, 1U << 21, 0x80000000U,
	};

	/* The baseline works, so each failure below is its one mistake. */
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), 0, "valid CREATE_QUEUE");
	CHECK(cq.queue_id < d->info->num_queues, "queue id %u", cq.queue_id);
	EXPECT(destroy_queue(fd, cq.queue_id), 0, "DESTROY_QUEUE");
	CHECK(freed && foreign && hsagpu_memory_free(d->agent, freed) == 0,
	      "set-up allocations");

	cq = good_cq(b);
	cq.size = sizeof(cq) - 8;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ARG, "CREATE_QUEUE size - 8");
	cq.size = sizeof(cq) + 8;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ARG, "CREATE_QUEUE size + 8");
	cq.size = 0;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ARG, "CREATE_QUEUE size 0");
	cq = good_cq(b);
	cq.flags = 0x2;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ARG, "CREATE_QUEUE flags 0x2");
	cq.flags = 0x80000000U | HSAGPU_QUEUE_CREATE_PROFILE;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ARG,
	       "CREATE_QUEUE flags 0x80000001");
	cq = good_cq(b);
	cq.priority = HSAGPU_QUEUE_PRIORITY_MAX + 1;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ARG, "CREATE_QUEUE priority 16");
	for (unsigned int i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++) {
		cq = good_cq(b);
		cq.ring_size = bad_sizes[i];
		EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ARG,
		       "CREATE_QUEUE ring_size %u", bad_sizes[i]);
	}
	/* Misaligned ring and dispatch ids */
	cq = good_cq(b);
	cq.ring_addr += 32;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ARG, "CREATE_QUEUE ring + 32");
	cq = good_cq(b);
	cq.ring_addr += 8;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ARG, "CREATE_QUEUE ring + 8");
	cq = good_cq(b);
	cq.rptr_addr += 4;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ARG, "CREATE_QUEUE rptr + 4");
	cq = good_cq(b);
	cq.wptr_addr += 1;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ARG, "CREATE_QUEUE wptr + 1");
	/* Addresses that are not the caller's system memory */
	cq = good_cq(b);
	cq.ring_addr = 0;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR, "CREATE_QUEUE ring 0");
	cq = good_cq(b);
	cq.ring_addr = GTQ_BAD_ADDR;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR,
	       "CREATE_QUEUE ring unmapped");
	cq = good_cq(b);
	cq.ring_size = 128;     /* 8 KiB in a 4 KiB allocation */
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR,
	       "CREATE_QUEUE ring past its allocation");
	cq = good_cq(b);
	cq.ring_addr += 4096 - 64 * 8;  /* the last 8 slots, 16 asked */
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR,
	       "CREATE_QUEUE ring straddling the allocation's end");
	cq = good_cq(b);
	cq.rptr_addr = GTQ_BAD_ADDR + HSAGPU_QUEUE_DESC_RPTR;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR,
	       "CREATE_QUEUE rptr unmapped");
	cq = good_cq(b);
	cq.wptr_addr = GTQ_BAD_ADDR;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR,
	       "CREATE_QUEUE wptr unmapped");
	cq = good_cq(b);
	cq.ring_addr = b->vram_bus;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR, "CREATE_QUEUE ring in VRAM");
	cq = good_cq(b);
	cq.rptr_addr = b->vram_bus + HSAGPU_QUEUE_DESC_RPTR;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR, "CREATE_QUEUE rptr in VRAM");
	cq = good_cq(b);
	cq.ring_addr = foreign_bus;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR,
	       "CREATE_QUEUE ring in another file's allocation");
	cq = good_cq(b);
	cq.wptr_addr = foreign_bus + HSAGPU_QUEUE_DESC_WPTR;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR,
	       "CREATE_QUEUE wptr in another file's allocation");
	cq = good_cq(b);
	cq.ring_addr = freed_bus;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR,
	       "CREATE_QUEUE ring in a freed allocation");
	/* Bad pointer */
	errno = 0;
	CHECK(ioctl(fd, HSAGPU_IOC_CREATE_QUEUE, NULL) == -1 && errno == EFAULT,
	      "CREATE_QUEUE NULL: errno %d", errno);

	CHECK(gtq_queues_active(d) == active0, "failed creates left queues: %ld, was %ld",
	      gtq_queues_active(d), active0);
	cq = good_cq(b);
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), 0, "valid CREATE_QUEUE at the end");
	EXPECT(destroy_queue(fd, cq.queue_id), 0, "DESTROY_QUEUE");
	hsagpu_memory_free(other->agent, foreign);
}

/* Queue ids: another file's, unknown, stale. */
static void test_queue_ids(struct gtq_dev *d, struct gtq_dev *other)
{
	hsagpu_queue_t *q = gtq_queue(other, 16, 0);
	hsagpu_queue_t *mine = gtq_queue(d, 16, 0);
	volatile uint64_t *slot = gtq_alloc(other, 4096, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t s = gtq_signal(other, 1);
	struct hsagpu_queue_status st;
	struct hsagpu_queue_id qi = { .size = sizeof(qi) };
	uint32_t ids[4];
	uint32_t stale;

	if (!q || !mine || !slot)
		return;
	stale = mine->id;
	CHECK(hsagpu_queue_destroy(mine) == 0, "destroy");
	ids[0] = q->id;                 /* the other file's */
	ids[1] = stale;                 /* destroyed */
	ids[2] = d->info->num_queues;   /* out of range */
	ids[3] = 0xffffffffU;
	for (int i = 0; i < 4; i++) {
		const char *what = i == 0 ? "another file's queue" :
				   i == 1 ? "a destroyed queue" :
				   i == 2 ? "queue num_queues" : "queue 0xffffffff";

		if (i == 1 && stale == q->id)
			continue;
		qi.queue_id = ids[i];
		EXPECT(xioctl(HSAGPU_IOC_DESTROY_QUEUE, &qi), E_NOQUEUE,
		       "DESTROY_QUEUE %s", what);
		EXPECT(xioctl(HSAGPU_IOC_SUSPEND_QUEUE, &qi), E_NOQUEUE,
		       "SUSPEND_QUEUE %s", what);
		EXPECT(xioctl(HSAGPU_IOC_RESUME_QUEUE, &qi), E_NOQUEUE,
		       "RESUME_QUEUE %s", what);
		memset(&st, 0, sizeof(st));
		st.size = sizeof(st);
		st.queue_id = ids[i];
		EXPECT(xioctl(HSAGPU_IOC_QUEUE_STATUS, &st), E_NOQUEUE,
		       "QUEUE_STATUS %s", what);
	}
	/* Size fields and reserved */
	qi.queue_id = q->id;
	qi.size = sizeof(qi) + 4;
	EXPECT(xioctl(HSAGPU_IOC_DESTROY_QUEUE, &qi), E_ARG, "DESTROY_QUEUE size + 4");
	memset(&st, 0, sizeof(st));
	st.size = sizeof(st) - 8;
	st.queue_id = q->id;
	EXPECT(xioctl(HSAGPU_IOC_QUEUE_STATUS, &st), E_ARG, "QUEUE_STATUS size - 8");

	/* The other file's queue was not touched. */
	gtq_write(q, slot, 0x4242, s, 0);
	GTQ_WAIT(s, 0, 3000);
	CHECK(*slot == 0x4242, "the other file's queue stopped working");
	hsagpu_signal_destroy(s);
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy other");
}

static int alloc_raw(uint32_t flags, uint64_t bytes,
		     struct hsagpu_alloc_mem *am)
{
	memset(am, 0, sizeof(*am));
	am->size = sizeof(*am);
	am->flags = flags;
	am->bytes = bytes;
	return xioctl(HSAGPU_IOC_ALLOC_MEM, am);
}

static int free_raw(int f, uint64_t handle)
{
	struct hsagpu_free_mem fm = { .size = sizeof(fm), .handle = handle };

	errno = 0;
	return ioctl(f, HSAGPU_IOC_FREE_MEM, &fm) ? errno : 0;
}

static int mmap_errno_how(int f, size_t len, int prot, int flags, uint64_t off)
{
	void *p;

	errno = 0;
	p = mmap(NULL, len, prot, flags, f, off);
	if (p != MAP_FAILED) {
		munmap(p, len);
		return 0;
	}
	return errno;
}

static int mmap_errno(size_t len, uint64_t off)
{
	return mmap_errno_how(fd, len, PROT_READ | PROT_WRITE, MAP_SHARED, off);
}

/*
 * Lengths and offsets past the end of this file's own allocation. An
 * offset names a whole allocation (its handle in page units), so "one
 * page further" would name the next handle; past the end is expressed
 * by the length, by growing a mapping, and by the handle's VRAM bit.
 */
static void test_mmap_bounds(void)
{
	/* The index's top bit marks VRAM handles (HSAGPU_MMAP_INDEX_VRAM). */
	const uint64_t vram_bit = 1ULL << (HSAGPU_MMAP_TYPE_SHIFT - 1);
	struct hsagpu_alloc_mem am;
	volatile uint64_t *p, *q;

	if (alloc_raw(HSAGPU_MEM_SYSTEM, 8192, &am)) {
		CHECK(0, "ALLOC_MEM 8 KiB: %s", strerror(errno));
		return;
	}
	EXPECT(mmap_errno(8192 + 4096, am.mmap_offset), EINVAL,
	       "mmap 12 KiB of an 8 KiB allocation");
	EXPECT(mmap_errno(4096, am.mmap_offset), EINVAL,
	       "mmap 4 KiB of an 8 KiB allocation (the length is exact)");
	EXPECT(mmap_errno(8192, am.mmap_offset | vram_bit), EINVAL,
	       "mmap a system allocation's handle as VRAM");
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 am.mmap_offset);
	CHECK(p != MAP_FAILED, "mmap 8 KiB allocation: %s", strerror(errno));
	if (p != MAP_FAILED) {
		p[1023] = 0x600d;
		/* Growing the mapping would reach past the allocation. */
		errno = 0;
		q = mremap((void *)p, 8192, 8192 + 4096, MREMAP_MAYMOVE);
		CHECK(q == MAP_FAILED, "mremap grew an 8 KiB allocation's mapping to 12 KiB");
		if (q != MAP_FAILED)
			p = q;
		else
			EXPECT(errno, EFAULT, "mremap past the allocation");
		CHECK(p[1023] == 0x600d, "mapping changed by the refused mremap");
		munmap((void *)p, q != MAP_FAILED ? 8192 + 4096 : 8192);
	}
	EXPECT(free_raw(fd, am.handle), 0, "FREE_MEM 8 KiB");
}

static void test_memory(struct gtq_dev *d, struct gtq_dev *other, int queues)
{
	struct hsagpu_alloc_mem am, om;
	struct hsagpu_free_mem fm;
	int ofd = hsagpu_agent_fd(other->agent);
	volatile uint64_t *p;

	EXPECT(alloc_raw(0, 4096, &am), E_ARG, "ALLOC_MEM flags 0");
	EXPECT(alloc_raw(HSAGPU_MEM_SYSTEM | HSAGPU_MEM_VRAM, 4096, &am), E_ARG,
	       "ALLOC_MEM SYSTEM|VRAM");
	EXPECT(alloc_raw(HSAGPU_MEM_SYSTEM | 0x4, 4096, &am), E_ARG,
	       "ALLOC_MEM unknown flag");
	EXPECT(alloc_raw(HSAGPU_MEM_SYSTEM, 0, &am), E_ARG, "ALLOC_MEM 0 bytes");
	EXPECT(alloc_raw(HSAGPU_MEM_SYSTEM, HSAGPU_MEM_SYSTEM_MAX + 1, &am),
	       E_TOOBIG, "ALLOC_MEM system above HSAGPU_MEM_SYSTEM_MAX");
	EXPECT(alloc_raw(HSAGPU_MEM_VRAM, d->info->vram_size + 4096, &am),
	       ENOMEM, "ALLOC_MEM more VRAM than the device has");
	EXPECT(alloc_raw(HSAGPU_MEM_SYSTEM, ~0ULL, &am), E_TOOBIG,
	       "ALLOC_MEM system 2^64 - 1 bytes");
	EXPECT(alloc_raw(HSAGPU_MEM_VRAM, ~0ULL, &am), ENOMEM,
	       "ALLOC_MEM VRAM 2^64 - 1 bytes");
	memset(&am, 0, sizeof(am));
	am.size = sizeof(am) - 4;
	am.flags = HSAGPU_MEM_SYSTEM;
	am.bytes = 4096;
	EXPECT(xioctl(HSAGPU_IOC_ALLOC_MEM, &am), E_ARG, "ALLOC_MEM size - 4");
	am.size = sizeof(am) + 8;
	EXPECT(xioctl(HSAGPU_IOC_ALLOC_MEM, &am), E_ARG, "ALLOC_MEM size + 8");
	am.size = 0;
	EXPECT(xioctl(HSAGPU_IOC_ALLOC_MEM, &am), E_ARG, "ALLOC_MEM size 0");
	/* The 1.1 layout (40 bytes) knows no segments: one, at most 4 MiB */
	am.size = sizeof(am) - 8;
	am.bytes = HSAGPU_MEM_SYSTEM_CONTIG_MAX + 1;
	EXPECT(xioctl(HSAGPU_IOC_ALLOC_MEM, &am), E_TOOBIG,
	       "ALLOC_MEM 1.1 layout above HSAGPU_MEM_SYSTEM_CONTIG_MAX");
	memset(&am, 0, sizeof(am));
	am.size = sizeof(am);
	am.flags = HSAGPU_MEM_SYSTEM;
	am.bytes = 4096;
	am.reserved = 1;
	EXPECT(xioctl(HSAGPU_IOC_ALLOC_MEM, &am), E_ARG, "ALLOC_MEM reserved 1");

	/* A good one, from each file */
	EXPECT(alloc_raw(HSAGPU_MEM_SYSTEM, 4096, &am), 0, "ALLOC_MEM");
	CHECK(am.nsegs == 1, "4 KiB allocation has %u segments", am.nsegs);
	memset(&om, 0, sizeof(om));
	om.size = sizeof(om);
	om.flags = HSAGPU_MEM_SYSTEM;
	om.bytes = 4096;
	CHECK(ioctl(ofd, HSAGPU_IOC_ALLOC_MEM, &om) == 0, "ALLOC_MEM other");
	CHECK(am.bus_addr && !(am.bus_addr & 4095) && am.mmap_offset,
	      "allocation bus 0x%llx offset 0x%llx",
	      (unsigned long long)am.bus_addr, (unsigned long long)am.mmap_offset);

	/* mmap: wrong length, unknown offsets, another file's offset */
	EXPECT(mmap_errno(4096, am.mmap_offset), 0, "mmap the allocation");
	EXPECT(mmap_errno(8192, am.mmap_offset), EINVAL,
	       "mmap 8 KiB of a 4 KiB allocation");
	test_mmap_bounds();
	EXPECT(mmap_errno_how(fd, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE,
			      am.mmap_offset), EINVAL,
	       "MAP_PRIVATE of an allocation (a copy the device never sees)");
	EXPECT(mmap_errno_how(fd, 4096, PROT_READ, MAP_PRIVATE, am.mmap_offset),
	       EINVAL, "read-only MAP_PRIVATE of an allocation");
	EXPECT(mmap_errno(4096, 0), EINVAL, "mmap offset 0");
	EXPECT(mmap_errno(4096, 0x55ULL << HSAGPU_MMAP_TYPE_SHIFT), EINVAL,
	       "mmap of an unknown type");
	EXPECT(mmap_errno(4096, (HSAGPU_MMAP_TYPE_MEMORY << HSAGPU_MMAP_TYPE_SHIFT) |
			  (0x7ffULL << 12)), EINVAL,
	       "mmap of an unknown allocation");
	if (om.mmap_offset != am.mmap_offset)
		EXPECT(mmap_errno(4096, om.mmap_offset), EINVAL,
		       "mmap of another file's allocation");
	EXPECT(mmap_errno(8192, HSAGPU_MMAP_TYPE_DOORBELL << HSAGPU_MMAP_TYPE_SHIFT),
	       EINVAL, "mmap two pages of doorbells");

	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 am.mmap_offset);
	CHECK(p != MAP_FAILED, "mmap: %s", strerror(errno));

	/* Memory a queue uses cannot be freed until the queue is gone. */
	struct hsagpu_create_queue cq = {
		.size = sizeof(cq),
		.ring_addr = am.bus_addr,
		.ring_size = 32,
		.rptr_addr = am.bus_addr + 2048 + HSAGPU_QUEUE_DESC_RPTR,
		.wptr_addr = am.bus_addr + 2048 + HSAGPU_QUEUE_DESC_WPTR,
	};
	if (queues) {
		EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), 0,
		       "CREATE_QUEUE in a raw allocation");
		EXPECT(free_raw(fd, am.handle), EBUSY,
		       "FREE_MEM of a live queue's ring");
		EXPECT(destroy_queue(fd, cq.queue_id), 0, "DESTROY_QUEUE");
	} else {
		EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), EOPNOTSUPP,
		       "CREATE_QUEUE without AtomicOps");
	}

	/* FREE_MEM: another file's handle, reserved, stale */
	EXPECT(free_raw(fd, om.handle), E_NOHANDLE, "FREE_MEM another file's handle");
	fm.size = sizeof(fm);
	fm.reserved = 1;
	fm.handle = am.handle;
	EXPECT(xioctl(HSAGPU_IOC_FREE_MEM, &fm), E_ARG, "FREE_MEM reserved 1");
	fm.reserved = 0;
	fm.size = 4;
	EXPECT(xioctl(HSAGPU_IOC_FREE_MEM, &fm), E_ARG, "FREE_MEM size 4");
	EXPECT(free_raw(fd, 0), E_NOHANDLE, "FREE_MEM handle 0");
	if (p != MAP_FAILED) {
		p[0] = 0x1234;
		munmap((void *)p, 4096);
	}
	EXPECT(free_raw(fd, am.handle), 0, "FREE_MEM");
	EXPECT(free_raw(fd, am.handle), E_NOHANDLE, "FREE_MEM twice");
	EXPECT(mmap_errno(4096, am.mmap_offset), EINVAL, "mmap a freed allocation");
	EXPECT(free_raw(ofd, om.handle), 0, "FREE_MEM other");
}

static void test_events(struct gtq_dev *d)
{
	struct hsagpu_create_event ce = { .size = sizeof(ce) };
	struct hsagpu_event_id de = { .size = sizeof(de) };
	struct hsagpu_wait_events w;
	uint32_t ev[HSAGPU_WAIT_EVENTS_MAX + 1];

#define WAIT_INIT(n, ptr) do {                                  \
		memset(&w, 0, sizeof(w));                       \
		w.size = sizeof(w);                             \
		w.events_ptr = (uintptr_t)(ptr);                \
		w.num_events = (n);                             \
		w.timeout_ms = 10;                              \
	} while (0)

	EXPECT(xioctl(HSAGPU_IOC_CREATE_EVENT, &ce), 0, "CREATE_EVENT");
	for (unsigned int i = 0; i <= HSAGPU_WAIT_EVENTS_MAX; i++)
		ev[i] = ce.event_id;

	WAIT_INIT(1, ev);
	EXPECT(xioctl(HSAGPU_IOC_WAIT_EVENTS, &w), ETIME, "WAIT_EVENTS valid");
	WAIT_INIT(1, ev);
	w.size = sizeof(w) - 8;
	EXPECT(xioctl(HSAGPU_IOC_WAIT_EVENTS, &w), E_ARG, "WAIT_EVENTS size - 8");
	WAIT_INIT(1, ev);
	w.flags = 0x2;
	EXPECT(xioctl(HSAGPU_IOC_WAIT_EVENTS, &w), E_ARG, "WAIT_EVENTS flags 0x2");
	WAIT_INIT(0, ev);
	EXPECT(xioctl(HSAGPU_IOC_WAIT_EVENTS, &w), E_ARG, "WAIT_EVENTS 0 events");
	WAIT_INIT(HSAGPU_WAIT_EVENTS_MAX + 1, ev);
	EXPECT(xioctl(HSAGPU_IOC_WAIT_EVENTS, &w), E_ARG, "WAIT_EVENTS 65 events");
	WAIT_INIT(1, NULL);
	EXPECT(xioctl(HSAGPU_IOC_WAIT_EVENTS, &w), EFAULT, "WAIT_EVENTS NULL list");
	WAIT_INIT(2, ev);
	ev[1] = 0;
	EXPECT(xioctl(HSAGPU_IOC_WAIT_EVENTS, &w), E_NOEVENT, "WAIT_EVENTS event 0");
	ev[1] = HSAGPU_MAX_EVENTS + 1;
	EXPECT(xioctl(HSAGPU_IOC_WAIT_EVENTS, &w), E_NOEVENT,
	       "WAIT_EVENTS event above HSAGPU_MAX_EVENTS");
	ev[1] = ce.event_id == HSAGPU_MAX_EVENTS ? 1 : HSAGPU_MAX_EVENTS;
	EXPECT(xioctl(HSAGPU_IOC_WAIT_EVENTS, &w), E_NOEVENT,
	       "WAIT_EVENTS event never created");

	de.event_id = ce.event_id;
	EXPECT(xioctl(HSAGPU_IOC_DESTROY_EVENT, &de), 0, "DESTROY_EVENT");
	EXPECT(xioctl(HSAGPU_IOC_DESTROY_EVENT, &de), E_NOEVENT, "DESTROY_EVENT twice");
	WAIT_INIT(1, ev);
	ev[0] = ce.event_id;
	EXPECT(xioctl(HSAGPU_IOC_WAIT_EVENTS, &w), E_NOEVENT,
	       "WAIT_EVENTS a destroyed event");
	ce.size = sizeof(ce) + 4;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_EVENT, &ce), E_ARG, "CREATE_EVENT size + 4");
	(void)d;
}

/*
 * Memory, events and mmap do not depend on AtomicOps: they are checked on
 * every preset, queues only where the platform allows them.
 */
int main(void)
{
	int n = hsagpu_agent_count(), queues, q2;
	struct gtq_dev d, other;
	struct base b;

	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	if (n <= 0)
		return gt_result();
	queues = gtq_open(0, &d);
	/* A second open file on the same device: "another process". */
	q2 = gtq_open(0, &other);
	if (queues < 0 || q2 < 0) {
		gtq_close(&d);
		gtq_close(&other);
		return gt_result();
	}
	fd = hsagpu_agent_fd(d.agent);
	b.ring = gtq_alloc(&d, 4096, HSAGPU_RT_MEM_SYSTEM);
	b.desc = gtq_alloc(&d, 4096, HSAGPU_RT_MEM_SYSTEM);
	b.vram = gtq_alloc(&d, 4096, HSAGPU_RT_MEM_VRAM);
	if (b.ring && b.desc && b.vram) {
		b.ring_bus = hsagpu_addr(d.agent, b.ring);
		b.desc_bus = hsagpu_addr(d.agent, (void *)b.desc);
		b.vram_bus = hsagpu_addr(d.agent, b.vram);
		if (queues) {
			test_create_queue(&d, &other, &b);
			test_queue_ids(&d, &other);
		}
		test_memory(&d, &other, queues);
		test_events(&d);
	}
	gtq_close(&other);
	gtq_close(&d);
	return gt_result();
}
