// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-kfd-queue: an AQL queue made through /dev/kfd the way libhsakmt makes
 * one for ROCr (ring and amd_queue_t in GTT memory of the KFD memory
 * ioctls, addresses are GPU VAs) runs packets the test writes itself:
 *  - CREATE_QUEUE's doorbell_offset has amdkfd's SOC15 form (mmap cookie
 *    of the 8 KiB doorbell slice | the doorbell's byte offset) and the
 *    slice mapped from /dev/kfd rings the queue;
 *  - a barrier-AND packet completes its signal, whose event (slot in the
 *    event page libhsakmt-style: a GTT buffer handed to CREATE_EVENT)
 *    ends WAIT_EVENTS; the event is auto-reset;
 *  - WAIT_EVENTS sleeping before the packet is even written wakes on the
 *    queue's interrupt (the queue interrupt counter moves);
 *  - a built-in FILL kernel dispatch writes its buffer through the GPU VA;
 *  - UPDATE_QUEUE with percentage 0 stops the queue (a packet stays
 *    pending), 100 restarts it;
 *  - DESTROY_QUEUE takes the hardware queue back (debugfs queues_active).
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "gt.h"
#include "gtkfd.h"

#define KFD_MMAP_TYPE_MASK      (0x3ULL << 62)
#define KFD_MMAP_TYPE_DOORBELL  (0x3ULL << 62)
#define KFD_MMAP_TYPE_EVENTS    (0x2ULL << 62)
#define KFD_MMAP_GPU_ID(id)     (((uint64_t)(id) & 0xffff) << 46)

static struct gtkfd k;
static struct gtkfd_queue q;
static uint64_t *evpage;
static volatile int submitted;

static void barrier_pkt(struct hsagpu_barrier_packet *b, struct hsagpu_signal *s)
{
	memset(b, 0, sizeof(*b));
	b->header = HSAGPU_PKT_TYPE_BARRIER_AND << HSAGPU_PKT_HDR_TYPE_SHIFT |
		    HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_ACQUIRE_SHIFT |
		    HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_RELEASE_SHIFT;
	b->completion_signal = (uintptr_t)s;
}

static void signal_init(struct hsagpu_signal *s, uint32_t event_id, uint32_t slot)
{
	memset(s, 0, sizeof(*s));
	s->kind = HSAGPU_SIGNAL_KIND_USER;
	s->value = 1;
	s->event_mailbox_ptr = (uintptr_t)&evpage[slot];
	s->event_id = event_id;
}

static int wait_event(uint32_t id, uint32_t ms, uint32_t *result)
{
	struct kfd_event_data ed = { .event_id = id };
	struct kfd_ioctl_wait_events_args w = {
		.events_ptr = (uintptr_t)&ed, .num_events = 1, .timeout = ms,
	};
	int e = gtkfd_ioctl(k.fd, AMDKFD_IOC_WAIT_EVENTS, &w);

	*result = w.wait_result;
	return e;
}

static struct hsagpu_signal *late_signal;

static void *late_submit(void *arg)
{
	struct hsagpu_barrier_packet b;

	usleep(200 * 1000);
	barrier_pkt(&b, late_signal);
	submitted = 1;
	gtkfd_queue_submit(&q, &b);
	return NULL;
}

int main(void)
{
	struct kfd_ioctl_create_event_args ce = { 0 };
	struct kfd_ioctl_update_queue_args up = { 0 };
	struct hsagpu_kernel_dispatch_packet kd;
	struct hsagpu_barrier_packet b;
	struct hsagpu_kargs_fill *ka;
	struct gtkfd_bo evbo, buf;
	uint64_t active0, irqs0, off;
	uint32_t res, i, bad;
	pthread_t th;
	int e;

	e = gtkfd_open(&k);
	if (e)
		return gt_skip("no KFD GPU (boot with hsagpu_test.kfd=1): %s", strerror(-e));
	active0 = gtkfd_debugfs_sum("queues_active");

	e = gtkfd_queue_create(&k, &q);
	EXPECT(-e, 0, "CREATE_QUEUE (AQL) and mmap of its doorbell slice");
	if (e)
		return gt_result();
	off = q.doorbell_offset;
	DIAG("queue %u, doorbell_offset 0x%llx", q.queue_id, (unsigned long long)off);
	CHECK((off & KFD_MMAP_TYPE_MASK) == KFD_MMAP_TYPE_DOORBELL, "doorbell cookie type");
	CHECK((off & (0xffffULL << 46)) == KFD_MMAP_GPU_ID(k.gpu_id), "cookie gpu_id");
	CHECK((off & ~(KFD_MMAP_TYPE_MASK | (0xffffULL << 46))) < GTKFD_SLICE &&
	      !(off & 7), "doorbell inside the slice, 8-byte aligned");
	CHECK(gtkfd_debugfs_sum("queues_active") == active0 + 1, "one more hardware queue");

	/* the event page, as libhsakmt: a GTT buffer passed by handle */
	e = gtkfd_bo_alloc(&k, KFD_SIGNAL_EVENT_LIMIT * 8, &evbo);
	EXPECT(-e, 0, "event page buffer");
	if (e)
		return gt_result();
	evpage = evbo.p;
	ce.event_type = KFD_IOC_EVENT_SIGNAL;
	ce.auto_reset = 1;
	ce.node_id = 1;
	ce.event_page_offset = evbo.handle;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_CREATE_EVENT, &ce), 0, "CREATE_EVENT with the page");
	CHECK(ce.event_page_offset == KFD_MMAP_TYPE_EVENTS, "event_page_offset 0x%llx",
	      (unsigned long long)ce.event_page_offset);
	CHECK(ce.event_slot_index == ce.event_id && ce.event_trigger_data == ce.event_id,
	      "slot %u trigger %u id %u", ce.event_slot_index, ce.event_trigger_data,
	      ce.event_id);
	for (bad = 0, i = 0; i < KFD_SIGNAL_EVENT_LIMIT; i++)
		bad += evpage[i] != ~0ULL;
	CHECK(!bad, "%u slots of the page are not all-ones (unsignalled)", bad);

	/* 1. a barrier packet completes and its event ends the wait */
	signal_init(&q.signals[0], ce.event_id, ce.event_slot_index);
	barrier_pkt(&b, &q.signals[0]);
	gtkfd_queue_submit(&q, &b);
	EXPECT(wait_event(ce.event_id, 10000, &res), 0, "WAIT_EVENTS on the completion");
	CHECK(res == KFD_IOC_WAIT_RESULT_COMPLETE, "wait_result %u", res);
	CHECK(q.signals[0].value == 0, "signal value %lld", (long long)q.signals[0].value);
	CHECK(gtkfd_queue_rptr(&q) == 1, "read_dispatch_id %llu",
	      (unsigned long long)gtkfd_queue_rptr(&q));
	CHECK(evpage[ce.event_slot_index] == ~0ULL, "slot acknowledged (all-ones again)");
	/* auto-reset: taken by that wait */
	EXPECT(wait_event(ce.event_id, 0, &res), 0, "WAIT_EVENTS again, timeout 0");
	CHECK(res == KFD_IOC_WAIT_RESULT_TIMEOUT, "auto-reset event still set: %u", res);

	/* 2. asleep before the packet exists: the interrupt wakes it */
	irqs0 = gtkfd_debugfs_sum("queue_irqs");
	signal_init(&q.signals[1], ce.event_id, ce.event_slot_index);
	late_signal = &q.signals[1];
	pthread_create(&th, NULL, late_submit, NULL);
	EXPECT(wait_event(ce.event_id, 30000, &res), 0, "WAIT_EVENTS before submission");
	CHECK(res == KFD_IOC_WAIT_RESULT_COMPLETE, "wait_result %u", res);
	CHECK(submitted, "the wait ended before the packet was written");
	pthread_join(th, NULL);
	CHECK(q.signals[1].value == 0, "late signal value %lld", (long long)q.signals[1].value);
	CHECK(gtkfd_debugfs_sum("queue_irqs") > irqs0, "no queue interrupt counted");

	/* 3. a kernel dispatch (built-in FILL) through GPU VAs */
	e = gtkfd_bo_alloc(&k, 64 * 1024, &buf);
	EXPECT(-e, 0, "buffer for the kernel");
	if (!e) {
		ka = (struct hsagpu_kargs_fill *)((uint8_t *)buf.p + 32768);
		ka->dst = (uintptr_t)buf.p;
		ka->value = 0x5a5a1234;
		memset(&kd, 0, sizeof(kd));
		kd.header = HSAGPU_PKT_TYPE_KERNEL_DISPATCH << HSAGPU_PKT_HDR_TYPE_SHIFT |
			    HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_ACQUIRE_SHIFT |
			    HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_RELEASE_SHIFT;
		kd.setup = 1;
		kd.workgroup_size_x = 64;
		kd.workgroup_size_y = 1;
		kd.workgroup_size_z = 1;
		kd.grid_size_x = 1024;
		kd.grid_size_y = 1;
		kd.grid_size_z = 1;
		kd.kernel_object = HSAGPU_KERNEL_FILL;
		kd.kernarg_address = (uintptr_t)ka;
		signal_init(&q.signals[2], ce.event_id, ce.event_slot_index);
		kd.completion_signal = (uintptr_t)&q.signals[2];
		gtkfd_queue_submit(&q, &kd);
		EXPECT(wait_event(ce.event_id, 10000, &res), 0, "WAIT_EVENTS on the kernel");
		CHECK(res == KFD_IOC_WAIT_RESULT_COMPLETE, "wait_result %u", res);
		for (bad = 0, i = 0; i < 1024; i++)
			bad += ((uint32_t *)buf.p)[i] != 0x5a5a1234;
		CHECK(!bad, "%u of 1024 elements not filled", bad);
		CHECK(((uint32_t *)buf.p)[1024] == 0, "FILL wrote past its grid");
	}

	/* 4. percentage 0 stops the queue, 100 restarts it */
	up.queue_id = q.queue_id;
	up.ring_base_address = (uintptr_t)q.ring;
	up.ring_size = GTKFD_RING_PACKETS * 64;
	up.queue_percentage = 0;
	up.queue_priority = 7;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_UPDATE_QUEUE, &up), 0, "UPDATE_QUEUE 0%%");
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_UPDATE_QUEUE, &up), 0, "UPDATE_QUEUE 0%% again");
	signal_init(&q.signals[3], ce.event_id, ce.event_slot_index);
	barrier_pkt(&b, &q.signals[3]);
	gtkfd_queue_submit(&q, &b);
	EXPECT(wait_event(ce.event_id, 300, &res), 0, "WAIT_EVENTS on a stopped queue");
	CHECK(res == KFD_IOC_WAIT_RESULT_TIMEOUT && q.signals[3].value == 1,
	      "a stopped queue ran a packet (result %u, signal %lld)", res,
	      (long long)q.signals[3].value);
	up.queue_percentage = 100;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_UPDATE_QUEUE, &up), 0, "UPDATE_QUEUE 100%%");
	*q.doorbell = q.wptr - 1;
	EXPECT(wait_event(ce.event_id, 10000, &res), 0, "WAIT_EVENTS after the restart");
	CHECK(res == KFD_IOC_WAIT_RESULT_COMPLETE && q.signals[3].value == 0,
	      "restarted queue did not run the packet (result %u, signal %lld)", res,
	      (long long)q.signals[3].value);

	/* 5. destroy: the hardware queue is given back */
	EXPECT(-gtkfd_queue_destroy(&k, &q), 0, "DESTROY_QUEUE");
	CHECK(gtkfd_debugfs_sum("queues_active") == active0, "queues_active %llu, was %llu",
	      (unsigned long long)gtkfd_debugfs_sum("queues_active"),
	      (unsigned long long)active0);
	{
		struct kfd_ioctl_destroy_queue_args d = { .queue_id = q.queue_id };

		EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_DESTROY_QUEUE, &d), EINVAL,
		       "DESTROY_QUEUE twice");
	}
	gtkfd_close(&k);
	return gt_result();
}
