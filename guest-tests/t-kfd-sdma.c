// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-kfd-sdma: an SDMA queue made through /dev/kfd the way libhsakmt makes
 * ROCr's BlitSdma queue (KFD_IOC_QUEUE_TYPE_SDMA, ring size in bytes,
 * 64-bit byte read/write pointers in GTT memory) runs the packets ROCr
 * writes for a copy: COPY_LINEAR, then a FENCE that writes the event id
 * into the event's slot and a TRAP, whose interrupt ends WAIT_EVENTS.
 * The copy lands, the read pointer reaches the write pointer, the queue
 * counts as a hardware queue while it exists. A ring that is not 256-byte
 * aligned and pointers inside the ring are refused (EINVAL).
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gt.h"
#include "gtkfd.h"
#include "hsagpu/hsagpu_sdma.h"

#define RING_BYTES 4096

int main(void)
{
	struct kfd_ioctl_create_queue_args a = { 0 };
	struct kfd_ioctl_create_event_args ce = { 0 };
	struct kfd_ioctl_destroy_queue_args d = { 0 };
	struct kfd_event_data ed = { 0 };
	struct kfd_ioctl_wait_events_args w = { 0 };
	struct hsagpu_sdma_copy_linear *cp;
	struct hsagpu_sdma_fence *fe;
	struct hsagpu_sdma_trap *tr;
	struct gtkfd_bo bo, evbo;
	volatile uint64_t *rptr, *wptr, *doorbell;
	uint8_t *ring, *src, *dst;
	uint64_t active0, end, *evpage, base;
	void *db;
	struct gtkfd k;
	int e, i, bad;

	e = gtkfd_open(&k);
	if (e)
		return gt_skip("no KFD GPU (boot with hsagpu_test.kfd=1): %s", strerror(-e));
	if (gtkfd_bo_alloc(&k, 64 * 1024, &bo) ||
	    gtkfd_bo_alloc(&k, KFD_SIGNAL_EVENT_LIMIT * 8, &evbo)) {
		CHECK(0, "buffers");
		return gt_result();
	}
	active0 = gtkfd_debugfs_sum("queues_active");
	ring = bo.p;
	rptr = (uint64_t *)(ring + RING_BYTES);
	wptr = (uint64_t *)(ring + RING_BYTES + 8);
	src = ring + 8192;
	dst = ring + 16384;
	evpage = evbo.p;
	for (i = 0; i < 4096; i++)
		src[i] = (uint8_t)(i * 7 + 3);

	ce.event_type = KFD_IOC_EVENT_SIGNAL;
	ce.auto_reset = 1;
	ce.event_page_offset = evbo.handle;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_CREATE_EVENT, &ce), 0, "CREATE_EVENT");

	a.gpu_id = k.gpu_id;
	a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
	a.ring_base_address = (uintptr_t)ring + 64;
	a.ring_size = RING_BYTES;
	a.read_pointer_address = (uintptr_t)rptr;
	a.write_pointer_address = (uintptr_t)wptr;
	a.queue_percentage = 100;
	a.queue_priority = 7;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_CREATE_QUEUE, &a), EINVAL,
	       "SDMA ring not 256-byte aligned");
	a.ring_base_address = (uintptr_t)ring;
	a.read_pointer_address = (uintptr_t)ring + 256;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_CREATE_QUEUE, &a), EINVAL,
	       "SDMA read pointer inside the ring");
	a.read_pointer_address = (uintptr_t)rptr;
	e = gtkfd_ioctl(k.fd, AMDKFD_IOC_CREATE_QUEUE, &a);
	EXPECT(e, 0, "CREATE_QUEUE (SDMA)");
	if (e)
		return gt_result();
	CHECK(gtkfd_debugfs_sum("queues_active") == active0 + 1, "SDMA queue not counted");
	base = a.doorbell_offset & ~(uint64_t)(GTKFD_SLICE - 1);
	db = mmap(NULL, GTKFD_SLICE, PROT_READ | PROT_WRITE, MAP_SHARED, k.fd, base);
	CHECK(db != MAP_FAILED, "doorbell slice: %s", strerror(errno));
	if (db == MAP_FAILED)
		return gt_result();
	doorbell = (uint64_t *)((uint8_t *)db + (a.doorbell_offset & (GTKFD_SLICE - 1)));

	/* ROCr's copy: COPY_LINEAR, FENCE(event id -> slot), TRAP */
	cp = (void *)ring;
	memset(cp, 0, sizeof(*cp));
	cp->header = HSAGPU_SDMA_HDR(HSAGPU_SDMA_OP_COPY, HSAGPU_SDMA_SUBOP_COPY_LINEAR);
	cp->count = 4096 - 1;
	cp->src_lo = (uint32_t)(uintptr_t)src;
	cp->src_hi = (uint32_t)((uintptr_t)src >> 32);
	cp->dst_lo = (uint32_t)(uintptr_t)dst;
	cp->dst_hi = (uint32_t)((uintptr_t)dst >> 32);
	fe = (void *)(ring + sizeof(*cp));
	fe->header = HSAGPU_SDMA_HDR(HSAGPU_SDMA_OP_FENCE, 0);
	fe->addr_lo = (uint32_t)(uintptr_t)&evpage[ce.event_slot_index];
	fe->addr_hi = (uint32_t)((uintptr_t)&evpage[ce.event_slot_index] >> 32);
	fe->data = ce.event_id;
	tr = (void *)(ring + sizeof(*cp) + sizeof(*fe));
	tr->header = HSAGPU_SDMA_HDR(HSAGPU_SDMA_OP_TRAP, 0);
	tr->int_ctx = ce.event_id;
	end = sizeof(*cp) + sizeof(*fe) + sizeof(*tr);
	__atomic_store_n(wptr, end, __ATOMIC_RELEASE);
	*doorbell = end;

	ed.event_id = ce.event_id;
	w.events_ptr = (uintptr_t)&ed;
	w.num_events = 1;
	w.timeout = 10000;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_WAIT_EVENTS, &w), 0, "WAIT_EVENTS on the TRAP");
	CHECK(w.wait_result == KFD_IOC_WAIT_RESULT_COMPLETE, "wait_result %u", w.wait_result);
	CHECK(*rptr == end, "read pointer %llu, write pointer %llu",
	      (unsigned long long)*rptr, (unsigned long long)end);
	for (bad = 0, i = 0; i < 4096; i++)
		bad += dst[i] != src[i];
	CHECK(!bad, "%d of 4096 bytes not copied", bad);

	d.queue_id = a.queue_id;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_DESTROY_QUEUE, &d), 0, "DESTROY_QUEUE (SDMA)");
	CHECK(gtkfd_debugfs_sum("queues_active") == active0, "SDMA queue left active");
	munmap(db, GTKFD_SLICE);
	gtkfd_close(&k);
	return gt_result();
}
