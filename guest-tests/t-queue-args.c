// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hostile arguments to the queue, memory, event and mmap interfaces give
 * the documented errno and change nothing: bad size fields, unknown flags
 * and reserved bits, rings that are not a power of two or misaligned,
 * addresses outside the caller's own system-memory allocations, another
 * file's queue or allocation, stale handles and ids, mmap of unknown
 * offsets, wrong lengths or past an allocation's end, private mappings;
 * the events page read-only; doorbell and event pages isolated between
 * two open files.
 *
 * Everything runs twice: on files without GPU virtual memory (hsagpu.ko
 * vm=0 at open), where addresses are bus addresses inside the caller's
 * allocations, and on files with it, where they are the process's own
 * addresses and "not the caller's" means "not mapped for the device in
 * this file's space" (EFAULT); the few checks whose meaning differs say
 * so.
 */
#define _GNU_SOURCE             /* mremap */
#include <stdarg.h>
#include <sys/mman.h>

#include "gtioctl.h"
#include "gtq.h"

/* errno for each class of mistake, as the driver documents them */
#define E_ARG           EINVAL  /* size field, flags, reserved, ranges */
#define E_ADDR          (vm_mode ? EFAULT : EINVAL) /* not the caller's memory */
#define E_NOQUEUE       ENOENT  /* no such queue in this file */
#define E_NOHANDLE      ENOENT  /* no such allocation in this file */
#define E_NOEVENT       EINVAL  /* no such event in this file */
#define E_TOOBIG        E2BIG   /* above the interface's limit */

static int fd;
static int vm_mode;     /* this pass's files use GPU virtual memory */

static int xioctl(unsigned long cmd, void *arg)
{
	return gti_ioctl(fd, cmd, arg);
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
	uint64_t freed_bus = gtq_ptr(d->agent, freed);
	uint64_t foreign_bus = gtq_ptr(other->agent, foreign);
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
	/* The device writes the read index and the ring's headers. */
	cq = good_cq(b);
	cq.wptr_addr = cq.rptr_addr;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ARG, "CREATE_QUEUE rptr == wptr");
	cq = good_cq(b);
	cq.rptr_addr = cq.ring_addr + 64;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ARG,
	       "CREATE_QUEUE rptr inside the ring");
	cq = good_cq(b);
	cq.wptr_addr = cq.ring_addr + 16 * 64 - 8;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ARG,
	       "CREATE_QUEUE wptr in the ring's last slot");
	/* Addresses that are not the caller's system memory */
	cq = good_cq(b);
	cq.ring_addr = 0;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR, "CREATE_QUEUE ring 0");
	cq = good_cq(b);
	cq.ring_addr = GTQ_BAD_ADDR;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR,
	       "CREATE_QUEUE ring unmapped");
	/*
	 * With GPU VM a ring may run on into the next mapping of the file
	 * (the page after the allocation may well be one): the range only
	 * has to be mapped, and these two are not mistakes there.
	 */
	if (!vm_mode) {
		cq = good_cq(b);
		cq.ring_size = 128;     /* 8 KiB in a 4 KiB allocation */
		EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR,
		       "CREATE_QUEUE ring past its allocation");
		cq = good_cq(b);
		cq.ring_addr += 4096 - 64 * 8;  /* the last 8 slots, 16 asked */
		EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR,
		       "CREATE_QUEUE ring straddling the allocation's end");
	}
	cq = good_cq(b);
	cq.rptr_addr = GTQ_BAD_ADDR + HSAGPU_QUEUE_DESC_RPTR;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR,
	       "CREATE_QUEUE rptr unmapped");
	cq = good_cq(b);
	cq.wptr_addr = GTQ_BAD_ADDR;
	EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR,
	       "CREATE_QUEUE wptr unmapped");
	/* With GPU VM, mapped VRAM is device memory like any other */
	if (!vm_mode) {
		cq = good_cq(b);
		cq.ring_addr = b->vram_bus;
		EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR,
		       "CREATE_QUEUE ring in VRAM");
		cq = good_cq(b);
		cq.rptr_addr = b->vram_bus + HSAGPU_QUEUE_DESC_RPTR;
		EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), E_ADDR,
		       "CREATE_QUEUE rptr in VRAM");
	}
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
	return gti_alloc(fd, flags, bytes, am);
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
	const uint64_t vram_bit = HSAGPU_MMAP_MEMORY_VRAM;
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
		/* Linux itself refuses to grow the mapping (VM_DONTEXPAND) */
		if (q != MAP_FAILED)
			p = q;
		else
			EXPECT(errno, EFAULT, "mremap past the allocation");
		/* GPU VM: one mapping, whole, not split, not moved */
		if (vm_mode) {
			void *to = mmap(NULL, 8192, PROT_NONE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			errno = 0;
			q = mremap((void *)p, 8192, 8192,
				   MREMAP_MAYMOVE | MREMAP_FIXED, to);
			CHECK(q == MAP_FAILED && errno == EINVAL,
			      "mremap moving a GPU-VM allocation: %s",
			      q == MAP_FAILED ? strerror(errno) : "moved");
			if (q != MAP_FAILED)
				p = q;
			else
				munmap(to, 8192);
			CHECK(p[1023] == 0x600d, "mapping changed by the refused move");
			EXPECT(mmap_errno(8192, am.mmap_offset), EBUSY,
			       "a second mmap of a mapped allocation");
			errno = 0;
			CHECK(munmap((char *)p + 4096, 4096) == -1 &&
			      errno == EINVAL,
			      "munmap of half an allocation: errno %d", errno);
		}
		CHECK(p[1023] == 0x600d, "mapping changed by the refused mremap");
		munmap((void *)p, q != MAP_FAILED ? 8192 + 4096 : 8192);
	}
	EXPECT(gti_free(fd, am.handle), 0, "FREE_MEM 8 KiB");
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
	/*
	 * The 1.1 layout (40 bytes) knows no segments: one, at most 4 MiB.
	 * A 1.1 binary issues the command number with its own size; the
	 * 1.2 driver also took today's number with the 1.1 size field.
	 */
	am.size = HSAGPU_ALLOC_MEM_SIZE_1_1;
	am.bytes = HSAGPU_MEM_SYSTEM_CONTIG_MAX + 1;
	/* Binaries of ABI 1.1 know bus addresses: the vm=0 pass */
	if (!vm_mode) {
		EXPECT(xioctl(_IOC(_IOC_READ | _IOC_WRITE, HSAGPU_IOCTL_BASE,
				   0x02, HSAGPU_ALLOC_MEM_SIZE_1_1), &am),
		       E_TOOBIG,
		       "ALLOC_MEM 1.1 command above HSAGPU_MEM_SYSTEM_CONTIG_MAX");
		EXPECT(xioctl(HSAGPU_IOC_ALLOC_MEM, &am), E_TOOBIG,
		       "ALLOC_MEM 1.1 size field above HSAGPU_MEM_SYSTEM_CONTIG_MAX");
	}
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
	/* GPU VM shows no bus address */
	CHECK((vm_mode ? !am.bus_addr : am.bus_addr && !(am.bus_addr & 4095)) &&
	      am.mmap_offset, "allocation bus 0x%llx offset 0x%llx",
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
	uint64_t base = vm_mode ? (uintptr_t)p : am.bus_addr;
	struct hsagpu_create_queue cq = {
		.size = sizeof(cq),
		.ring_addr = base,
		.ring_size = 32,
		.rptr_addr = base + 2048 + HSAGPU_QUEUE_DESC_RPTR,
		.wptr_addr = base + 2048 + HSAGPU_QUEUE_DESC_WPTR,
	};
	if (queues) {
		EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), 0,
		       "CREATE_QUEUE in a raw allocation");
		EXPECT(gti_free(fd, am.handle), EBUSY,
		       "FREE_MEM of a live queue's ring");
		EXPECT(destroy_queue(fd, cq.queue_id), 0, "DESTROY_QUEUE");
	} else {
		EXPECT(xioctl(HSAGPU_IOC_CREATE_QUEUE, &cq), EOPNOTSUPP,
		       "CREATE_QUEUE without AtomicOps");
	}

	/* FREE_MEM: another file's handle, reserved, stale */
	EXPECT(gti_free(fd, om.handle), E_NOHANDLE, "FREE_MEM another file's handle");
	fm.size = sizeof(fm);
	fm.reserved = 1;
	fm.handle = am.handle;
	EXPECT(xioctl(HSAGPU_IOC_FREE_MEM, &fm), E_ARG, "FREE_MEM reserved 1");
	fm.reserved = 0;
	fm.size = 4;
	EXPECT(xioctl(HSAGPU_IOC_FREE_MEM, &fm), E_ARG, "FREE_MEM size 4");
	EXPECT(gti_free(fd, 0), E_NOHANDLE, "FREE_MEM handle 0");
	if (p != MAP_FAILED) {
		p[0] = 0x1234;
		munmap((void *)p, 4096);
	}
	EXPECT(gti_free(fd, am.handle), 0, "FREE_MEM");
	EXPECT(gti_free(fd, am.handle), E_NOHANDLE, "FREE_MEM twice");
	EXPECT(mmap_errno(4096, am.mmap_offset), EINVAL, "mmap a freed allocation");
	EXPECT(gti_free(ofd, om.handle), 0, "FREE_MEM other");
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

#define DB_OFFSET (HSAGPU_MMAP_TYPE_DOORBELL << HSAGPU_MMAP_TYPE_SHIFT)
#define EV_OFFSET (HSAGPU_MMAP_TYPE_EVENTS << HSAGPU_MMAP_TYPE_SHIFT)

/* A queue of file @f in its own 4 KiB: a 16-packet ring, ids at 2 KiB. */
struct rawq {
	int f;
	void *map;                      /* GPU VM: the allocation's mapping */
	struct hsagpu_alloc_mem am;
	struct hsagpu_create_queue cq;
	uint32_t hw_doorbell;           /* the device's QREG_DOORBELL */
};

static int rawq_create(struct gtq_dev *d, int f, struct rawq *r)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->am.size = sizeof(r->am);
	r->am.flags = HSAGPU_MEM_SYSTEM;
	r->am.bytes = 4096;
	uint64_t base;

	if (ioctl(f, HSAGPU_IOC_ALLOC_MEM, &r->am))
		return errno;
	base = r->am.bus_addr;
	if (vm_mode) {
		/* In the file's GPU space only while mapped, at that address */
		r->map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			      f, r->am.mmap_offset);
		if (r->map == MAP_FAILED) {
			int e = errno;

			r->map = NULL;
			gti_free(f, r->am.handle);
			r->am.handle = 0;
			return e;
		}
		memset(r->map, 0, 4096);
		base = (uintptr_t)r->map;
	}
	r->cq.size = sizeof(r->cq);
	r->cq.ring_addr = base;
	r->cq.ring_size = 16;
	r->cq.rptr_addr = base + 2048 + HSAGPU_QUEUE_DESC_RPTR;
	r->cq.wptr_addr = base + 2048 + HSAGPU_QUEUE_DESC_WPTR;
	if (ioctl(f, HSAGPU_IOC_CREATE_QUEUE, &r->cq)) {
		int e = errno;

		if (r->map)
			munmap(r->map, 4096);
		r->map = NULL;
		gti_free(f, r->am.handle);
		r->am.handle = 0;
		return e;
	}
	r->hw_doorbell = gtq_reg(d, HSAGPU_REG_QUEUE(r->cq.queue_id) +
				 HSAGPU_QREG_DOORBELL);
	return 0;
}

static void rawq_destroy(struct rawq *r)
{
	if (!r->am.handle)
		return;
	EXPECT(destroy_queue(r->f, r->cq.queue_id), 0, "DESTROY_QUEUE %u",
	       r->cq.queue_id);
	if (r->map)
		munmap(r->map, 4096);
	EXPECT(gti_free(r->f, r->am.handle), 0, "FREE_MEM of a queue's memory");
}

/*
 * 32-bit doorbell halves store their value (docs/registers.md), 64-bit
 * writes to an enabled queue's doorbell do not: mark a free doorbell.
 */
static volatile uint32_t *db_word(volatile void *page, uint32_t slot,
				  uint32_t stride)
{
	return (volatile uint32_t *)((volatile uint8_t *)page + slot * stride);
}

/* Only index 0, exactly one page, shared: with or without queues. */
static void test_doorbell_maps(void)
{
	EXPECT(mmap_errno(4096, DB_OFFSET), 0, "mmap the doorbell page");
	EXPECT(mmap_errno(4096, DB_OFFSET | 4096), EINVAL, "mmap doorbell index 1");
	EXPECT(mmap_errno_how(fd, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE,
			      DB_OFFSET), EINVAL, "MAP_PRIVATE of the doorbell page");
	EXPECT(mmap_errno_how(fd, 4096, PROT_READ, MAP_PRIVATE, DB_OFFSET),
	       EINVAL, "read-only MAP_PRIVATE of the doorbell page");
}

/*
 * Doorbell isolation between two open files ("processes"): every queue's
 * doorbell mapping is (DOORBELL, index 0); the device's doorbell index of
 * each queue lies in its file's BAR2 page, at the offset the driver
 * returned; the two files' pages differ; a file's doorbell mapping is
 * that page of BAR2 and no other (a value stored through it shows up
 * there in BAR2, not in the other file's page).
 */
static void test_doorbells(struct gtq_dev *d, struct gtq_dev *other)
{
	int ofd = hsagpu_agent_fd(other->agent);
	uint32_t stride = d->info->doorbell_stride;
	uint32_t per_page = stride ? 4096 / stride : 0;
	uint32_t page[2], free_slot;
	struct rawq a1, a2, b1;
	volatile void *dba, *dba2, *dbb;
	volatile uint8_t *bar2;
	size_t bar2_len = 0;

	CHECK(stride == HSAGPU_DOORBELL_STRIDE && d->regs,
	      "doorbell stride %u, BAR5 %p", stride, (void *)d->regs);
	if (stride != HSAGPU_DOORBELL_STRIDE || !d->regs)
		return;
	EXPECT(rawq_create(d, fd, &a1), 0, "CREATE_QUEUE A1");
	EXPECT(rawq_create(d, fd, &a2), 0, "CREATE_QUEUE A2");
	EXPECT(rawq_create(d, ofd, &b1), 0, "CREATE_QUEUE B1 (other file)");
	if (!a1.am.handle || !a2.am.handle || !b1.am.handle)
		goto out_queues;

	/* Structure: one page per file, each queue's doorbell inside it. */
	CHECK_EQ_U64(a1.cq.doorbell_mmap_offset, DB_OFFSET);
	CHECK_EQ_U64(a2.cq.doorbell_mmap_offset, DB_OFFSET);
	CHECK_EQ_U64(b1.cq.doorbell_mmap_offset, DB_OFFSET);
	page[0] = a1.hw_doorbell / per_page;
	page[1] = b1.hw_doorbell / per_page;
	DIAG("doorbells: A %u %u (offsets %u %u), B %u (offset %u); %u per page",
	     a1.hw_doorbell, a2.hw_doorbell, a1.cq.doorbell_offset,
	     a2.cq.doorbell_offset, b1.hw_doorbell, b1.cq.doorbell_offset,
	     per_page);
	CHECK(a1.hw_doorbell != a2.hw_doorbell && a1.hw_doorbell != b1.hw_doorbell &&
	      a2.hw_doorbell != b1.hw_doorbell,
	      "queues share a device doorbell: %u %u %u", a1.hw_doorbell,
	      a2.hw_doorbell, b1.hw_doorbell);
	CHECK(a2.hw_doorbell / per_page == page[0],
	      "file A's queues use doorbell pages %u and %u", page[0],
	      a2.hw_doorbell / per_page);
	CHECK(page[0] != page[1], "files A and B share doorbell page %u", page[0]);
	CHECK(a1.hw_doorbell % per_page * stride == a1.cq.doorbell_offset &&
	      a2.hw_doorbell % per_page * stride == a2.cq.doorbell_offset &&
	      b1.hw_doorbell % per_page * stride == b1.cq.doorbell_offset,
	      "a queue's doorbell is not at the offset the driver returned");
	CHECK(a1.cq.doorbell_offset != a2.cq.doorbell_offset,
	      "two queues of file A at doorbell offset %u", a1.cq.doorbell_offset);

	/* Which BAR2 page each file's mapping really is. */
	dba = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, DB_OFFSET);
	dba2 = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, DB_OFFSET);
	dbb = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, ofd, DB_OFFSET);
	bar2 = gt_map_resource(d->pci, HSAGPU_BAR_DOORBELL, &bar2_len);
	CHECK(dba != MAP_FAILED && dba2 != MAP_FAILED && dbb != MAP_FAILED && bar2,
	      "doorbell mappings: %s", strerror(errno));
	free_slot = per_page - 1;       /* above the 2 slots in use */
	if (dba != MAP_FAILED && dba2 != MAP_FAILED && dbb != MAP_FAILED && bar2 &&
	    (uint64_t)(page[1] + 1) * 4096 <= bar2_len &&
	    (uint64_t)(page[0] + 1) * 4096 <= bar2_len) {
		volatile uint32_t *ba = db_word(bar2 + page[0] * 4096ULL, free_slot, stride);
		volatile uint32_t *bb = db_word(bar2 + page[1] * 4096ULL, free_slot, stride);

		*ba = 0;
		*bb = 0;
		*db_word(dba, free_slot, stride) = 0xa1a1a1a1;
		CHECK(*ba == 0xa1a1a1a1 && *bb == 0,
		      "stored through file A's doorbell mapping: BAR2 page %u has 0x%x, page %u 0x%x",
		      page[0], *ba, page[1], *bb);
		CHECK(*db_word(dba2, free_slot, stride) == 0xa1a1a1a1,
		      "file A's second doorbell mapping is another page");
		*db_word(dbb, free_slot, stride) = 0xb2b2b2b2;
		CHECK(*bb == 0xb2b2b2b2 && *ba == 0xa1a1a1a1,
		      "stored through file B's doorbell mapping: BAR2 page %u has 0x%x, page %u 0x%x",
		      page[1], *bb, page[0], *ba);
		CHECK(*db_word(dba, free_slot, stride) == 0xa1a1a1a1,
		      "file A's mapping sees file B's store");
		*ba = 0;
		*bb = 0;
	}
	if (bar2)
		munmap((void *)bar2, bar2_len);
	if (dba != MAP_FAILED)
		munmap((void *)dba, 4096);
	if (dba2 != MAP_FAILED)
		munmap((void *)dba2, 4096);
	if (dbb != MAP_FAILED)
		munmap((void *)dbb, 4096);
out_queues:
	rawq_destroy(&a1);
	rawq_destroy(&a2);
	rawq_destroy(&b1);
}

/*
 * The EVENTS page: mapped read-only (writable: EPERM, and it cannot be
 * made writable later), one page at index 0. It is the file's own event
 * page: a completion the device reports to one of the file's events is
 * visible in it, not in the other file's page, and WAIT_EVENTS taking
 * the event back shows there too.
 */
static void test_event_page(struct gtq_dev *d, struct gtq_dev *other, int queues)
{
	int ofd = hsagpu_agent_fd(other->agent);
	struct hsagpu_create_event ce = { .size = sizeof(ce) };
	struct hsagpu_event_id de = { .size = sizeof(de) };
	volatile const uint64_t *ev, *oev;

	EXPECT(mmap_errno(4096, EV_OFFSET), EPERM, "writable mmap of the events page");
	EXPECT(mmap_errno_how(fd, 4096, PROT_WRITE, MAP_SHARED, EV_OFFSET), EPERM,
	       "write-only mmap of the events page");
	EXPECT(mmap_errno_how(fd, 8192, PROT_READ, MAP_SHARED, EV_OFFSET), EINVAL,
	       "mmap two pages of events");
	EXPECT(mmap_errno_how(fd, 4096, PROT_READ, MAP_SHARED, EV_OFFSET | 4096),
	       EINVAL, "mmap events index 1");
	EXPECT(mmap_errno_how(fd, 4096, PROT_READ, MAP_PRIVATE, EV_OFFSET), EINVAL,
	       "MAP_PRIVATE of the events page");
	EXPECT(xioctl(HSAGPU_IOC_CREATE_EVENT, &ce), 0, "CREATE_EVENT");
	ev = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, EV_OFFSET);
	oev = mmap(NULL, 4096, PROT_READ, MAP_SHARED, ofd, EV_OFFSET);
	CHECK(ev != MAP_FAILED && oev != MAP_FAILED, "read-only mmap of the events page: %s",
	      strerror(errno));
	if (ev == MAP_FAILED || oev == MAP_FAILED || !ce.event_id)
		goto out;
	errno = 0;
	CHECK(mprotect((void *)ev, 4096, PROT_READ | PROT_WRITE) == -1 &&
	      errno == EACCES, "mprotect of the events page to writable: errno %d",
	      errno);
	CHECK(ev[ce.event_id - 1] == HSAGPU_EVENT_SLOT_UNSIGNALED,
	      "new event's slot reads 0x%llx",
	      (unsigned long long)ev[ce.event_id - 1]);

	if (queues) {
		/* A raw signal that names the event; a NOP completes it. */
		volatile struct hsagpu_signal *sg = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
		hsagpu_queue_t *q = gtq_queue(d, 16, 0);
		struct hsagpu_wait_events w = { .size = sizeof(w) };
		struct hsagpu_create_event oce = { .size = sizeof(oce) };
		uint32_t id = ce.event_id, oids[64], noids = 0;
		uint64_t end = gtq_now_ns() + 5000 * GTQ_MS;

		if (!sg || !q)
			goto out;
		/*
		 * The other file's slot of the same number may hold a stale
		 * value: claim that event there too (ids are handed out
		 * lowest first, creating clears the slot), so it reads 0.
		 */
		do {
			oce.event_id = 0;
			if (ioctl(ofd, HSAGPU_IOC_CREATE_EVENT, &oce))
				break;
			oids[noids++] = oce.event_id;
		} while (oce.event_id < id && noids < 64);
		CHECK(oce.event_id == id && oev[id - 1] == HSAGPU_EVENT_SLOT_UNSIGNALED,
		      "other file: event %u (slot 0x%llx), wanted %u", oce.event_id,
		      (unsigned long long)oev[id - 1], id);
		sg->kind = HSAGPU_SIGNAL_KIND_USER;
		sg->value = 1;
		sg->event_mailbox_ptr = ce.mailbox_addr;
		sg->event_id = id;
		__sync_synchronize();
		gtq_agent(q, HSAGPU_AGENT_NOP, NULL, 0,
			  (hsagpu_signal_t){ gtq_ptr(d->agent, sg) }, 0);
		while (ev[id - 1] == HSAGPU_EVENT_SLOT_UNSIGNALED &&
		       gtq_now_ns() < end)
			usleep(1000);
		CHECK(ev[id - 1] == id,
		      "event slot through the mapping: 0x%llx, expected %u (signal %lld)",
		      (unsigned long long)ev[id - 1], id, (long long)sg->value);
		CHECK(sg->value == 0, "signal %lld after the NOP", (long long)sg->value);
		CHECK(oev[id - 1] == HSAGPU_EVENT_SLOT_UNSIGNALED,
		      "the other file's event page shows 0x%llx in slot %u",
		      (unsigned long long)oev[id - 1], id - 1);
		w.events_ptr = (uintptr_t)&id;
		w.num_events = 1;
		w.timeout_ms = 1000;
		EXPECT(xioctl(HSAGPU_IOC_WAIT_EVENTS, &w), 0, "WAIT_EVENTS on the signaled event");
		CHECK(w.signaled == 1, "WAIT_EVENTS signaled 0x%llx",
		      (unsigned long long)w.signaled);
		CHECK(ev[id - 1] == HSAGPU_EVENT_SLOT_UNSIGNALED,
		      "slot after WAIT_EVENTS consumed it: 0x%llx",
		      (unsigned long long)ev[id - 1]);
		CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
		hsagpu_memory_free(d->agent, (void *)sg);
		for (uint32_t i = 0; i < noids; i++) {
			de.event_id = oids[i];
			CHECK(ioctl(ofd, HSAGPU_IOC_DESTROY_EVENT, &de) == 0,
			      "DESTROY_EVENT %u in the other file", oids[i]);
		}
	}
out:
	if (ev != MAP_FAILED)
		munmap((void *)ev, 4096);
	if (oev != MAP_FAILED)
		munmap((void *)oev, 4096);
	de.event_id = ce.event_id;
	EXPECT(xioctl(HSAGPU_IOC_DESTROY_EVENT, &de), 0, "DESTROY_EVENT");
}

/*
 * Memory, events and mmap do not depend on AtomicOps: they are checked on
 * every preset, queues only where the platform allows them.
 */
static void run(int vm)
{
	int queues, q2;
	struct gtq_dev d, other;
	struct base b;

	vm_mode = vm;
	DIAG("files %s GPU virtual memory", vm ? "with" : "without");
	queues = gtq_open_vm(0, &d, vm);
	/* A second open file on the same device: "another process". */
	q2 = gtq_open_vm(0, &other, vm);
	if (queues < 0 || q2 < 0) {
		gtq_close(&d);
		gtq_close(&other);
		return;
	}
	fd = hsagpu_agent_fd(d.agent);
	b.ring = gtq_alloc(&d, 4096, HSAGPU_RT_MEM_SYSTEM);
	b.desc = gtq_alloc(&d, 4096, HSAGPU_RT_MEM_SYSTEM);
	b.vram = gtq_alloc(&d, 4096, HSAGPU_RT_MEM_VRAM);
	if (b.ring && b.desc && b.vram) {
		b.ring_bus = gtq_ptr(d.agent, b.ring);
		b.desc_bus = gtq_ptr(d.agent, b.desc);
		b.vram_bus = gtq_ptr(d.agent, b.vram);
		if (queues) {
			test_create_queue(&d, &other, &b);
			test_queue_ids(&d, &other);
		}
		test_memory(&d, &other, queues);
		test_events(&d);
		test_event_page(&d, &other, queues);
		test_doorbell_maps();
		if (queues)
			test_doorbells(&d, &other);
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
	run(0);
	run(1);
	return gt_result();
}
