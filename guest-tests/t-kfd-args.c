// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-kfd-args: hostile queue arguments through /dev/kfd get amdkfd's
 * errnos (Linux 6.1 kfd_chardev.c set_queue_properties_from_user() and
 * the queue manager; 6.12's -EINVAL for a ring that is not GPU-mapped),
 * the doorbell mmap refuses what amdkfd refuses, the slice's second page
 * (no doorbells) is SIGBUS, and a process runs out of queues with
 * ENOSPC (the device's queues, at most amdkfd's 127 per device), after
 * which every queue can be destroyed; the ring buffer of a live queue
 * can be neither unmapped nor freed (EBUSY); global wave sync goes to one
 * queue of a process at a time (EBUSY for another until it is given back).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gt.h"
#include "gtdev.h"
#include "gtkfd.h"

#define ENOTSUPP_KERNEL 524     /* amdkfd's -ENOTSUPP */
#define KADDR 0xffff888000000000ULL

static struct gtkfd k;
static struct gtkfd_bo bo;

static void good_args(struct kfd_ioctl_create_queue_args *a)
{
	uint8_t *p = bo.p;

	memset(a, 0, sizeof(*a));
	a->gpu_id = k.gpu_id;
	a->queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL;
	a->ring_base_address = (uintptr_t)p;
	a->ring_size = 4096;
	a->read_pointer_address = (uintptr_t)(p + 4096 + GTKFD_AQ_RPTR);
	a->write_pointer_address = (uintptr_t)(p + 4096 + GTKFD_AQ_WPTR);
	a->queue_percentage = 100;
	a->queue_priority = 7;
}

static int create(struct kfd_ioctl_create_queue_args *a)
{
	return gtkfd_ioctl(k.fd, AMDKFD_IOC_CREATE_QUEUE, a);
}

static int destroy(uint32_t id)
{
	struct kfd_ioctl_destroy_queue_args d = { .queue_id = id };

	return gtkfd_ioctl(k.fd, AMDKFD_IOC_DESTROY_QUEUE, &d);
}

static sigjmp_buf jb;

static void on_bus(int sig)
{
	siglongjmp(jb, 1);
}

int main(void)
{
	struct kfd_ioctl_create_queue_args a;
	struct kfd_ioctl_update_queue_args up;
	struct kfd_ioctl_set_cu_mask_args cm;
	struct kfd_ioctl_alloc_queue_gws_args gws;
	struct kfd_ioctl_get_queue_wave_state_args ws;
	uint32_t mask[64], ids[1100], n, i, qid;
	uint64_t active0, cookie;
	void *unmapped, *p;
	volatile int bus = 0;
	int e;

	e = gtkfd_open(&k);
	if (e)
		return gt_skip("no KFD GPU (boot with hsagpu_test.kfd=1): %s", strerror(-e));
	if (gtkfd_bo_alloc(&k, 64 * 1024, &bo)) {
		CHECK(0, "queue buffer");
		return gt_result();
	}
	active0 = gtkfd_debugfs_sum("queues_active");
	unmapped = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);

	good_args(&a);
	a.queue_percentage = 101;
	EXPECT(create(&a), EINVAL, "percentage 101");
	good_args(&a);
	a.queue_priority = 16;
	EXPECT(create(&a), EINVAL, "priority 16");
	good_args(&a);
	a.ring_base_address = KADDR;
	EXPECT(create(&a), EFAULT, "kernel ring address");
	good_args(&a);
	a.ring_size = 3000;
	EXPECT(create(&a), EINVAL, "ring size not a power of two");
	good_args(&a);
	a.read_pointer_address = KADDR;
	EXPECT(create(&a), EFAULT, "kernel read pointer");
	good_args(&a);
	a.write_pointer_address = KADDR;
	EXPECT(create(&a), EFAULT, "kernel write pointer");
	good_args(&a);
	a.eop_buffer_address = KADDR;
	EXPECT(create(&a), EFAULT, "kernel EOP buffer");
	good_args(&a);
	a.queue_type = 7;
	EXPECT(create(&a), ENOTSUPP_KERNEL, "queue type 7");
	good_args(&a);
	a.gpu_id = k.gpu_id ^ 0x8000;
	EXPECT(create(&a), EINVAL, "unknown gpu_id");
	good_args(&a);
	a.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE;
	EXPECT(create(&a), EINVAL, "PM4 compute queue");
	good_args(&a);
	a.queue_type = KFD_IOC_QUEUE_TYPE_SDMA_XGMI;
	EXPECT(create(&a), ENOMEM, "XGMI SDMA queue");
	/* amdkfd makes rings below 1 KiB 1 KiB, and says so */
	good_args(&a);
	a.ring_size = 0;
	EXPECT(create(&a), 0, "ring size 0");
	CHECK(a.ring_size == KFD_MIN_QUEUE_RING_SIZE, "ring size 0 became %u", a.ring_size);
	EXPECT(destroy(a.queue_id), 0, "DESTROY the 1 KiB queue");
	good_args(&a);
	a.ring_base_address = (uintptr_t)unmapped;
	EXPECT(create(&a), EINVAL, "ring not in the GPU address space");
	good_args(&a);
	a.read_pointer_address = (uintptr_t)unmapped + 0x80;
	EXPECT(create(&a), EINVAL, "read pointer not in the GPU address space");
	good_args(&a);
	a.read_pointer_address = a.ring_base_address + 64;
	EXPECT(create(&a), EINVAL, "read pointer inside the ring");
	CHECK(gtkfd_debugfs_sum("queues_active") == active0, "a refused queue stayed");

	good_args(&a);
	EXPECT(create(&a), 0, "a good queue");
	qid = a.queue_id;
	EXPECT(destroy(qid + 1), EINVAL, "DESTROY_QUEUE unknown");

	memset(&up, 0, sizeof(up));
	up.queue_id = qid + 1;
	up.queue_percentage = 100;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_UPDATE_QUEUE, &up), EFAULT, "UPDATE unknown queue");
	up.queue_id = qid;
	up.queue_percentage = 101;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_UPDATE_QUEUE, &up), EINVAL, "UPDATE 101%%");
	up.queue_percentage = 100;
	up.queue_priority = 16;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_UPDATE_QUEUE, &up), EINVAL, "UPDATE priority 16");
	up.queue_priority = 3;
	up.ring_size = 100;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_UPDATE_QUEUE, &up), EINVAL, "UPDATE ring size 100");

	memset(mask, 0xff, sizeof(mask));
	memset(&cm, 0, sizeof(cm));
	cm.queue_id = qid;
	cm.cu_mask_ptr = (uintptr_t)mask;
	cm.num_cu_mask = 33;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_SET_CU_MASK, &cm), EINVAL, "CU mask of 33 bits");
	cm.num_cu_mask = 0;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_SET_CU_MASK, &cm), EINVAL, "CU mask of 0 bits");
	cm.num_cu_mask = 64;
	cm.cu_mask_ptr = 16;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_SET_CU_MASK, &cm), EFAULT, "CU mask bad pointer");
	cm.cu_mask_ptr = (uintptr_t)mask;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_SET_CU_MASK, &cm), 0, "CU mask");
	cm.num_cu_mask = 1 << 20;       /* only the first 1024 bits are read */
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_SET_CU_MASK, &cm), 0, "CU mask of 2^20 bits");
	cm.queue_id = qid + 1;
	cm.num_cu_mask = 64;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_SET_CU_MASK, &cm), EFAULT, "CU mask unknown queue");

	memset(&gws, 0, sizeof(gws));
	gws.queue_id = qid + 1;
	gws.num_gws = 1;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_ALLOC_QUEUE_GWS, &gws), EINVAL, "GWS unknown queue");
	gws.queue_id = qid;
	gws.first_gws = 7;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_ALLOC_QUEUE_GWS, &gws), 0, "GWS for the queue");
	CHECK(gws.first_gws == 0, "first GWS resource %u, not 0", gws.first_gws);
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_ALLOC_QUEUE_GWS, &gws), 0, "GWS for it again");
	memset(&ws, 0, sizeof(ws));
	ws.queue_id = qid + 1;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_GET_QUEUE_WAVE_STATE, &ws), EFAULT,
	       "wave state unknown queue");
	ws.queue_id = qid;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_GET_QUEUE_WAVE_STATE, &ws), EINVAL,
	       "wave state of an active queue");

	/* doorbell mmap */
	cookie = a.doorbell_offset & ~(uint64_t)(GTKFD_SLICE - 1);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, k.fd, cookie);
	CHECK(p == MAP_FAILED && errno == EINVAL, "4 KiB doorbell mapping: %p", p);
	p = mmap(NULL, GTKFD_SLICE, PROT_READ | PROT_WRITE, MAP_PRIVATE, k.fd, cookie);
	CHECK(p == MAP_FAILED && errno == EINVAL, "private doorbell mapping: %p", p);
	p = mmap(NULL, GTKFD_SLICE, PROT_READ | PROT_WRITE, MAP_SHARED, k.fd,
		 cookie ^ (1ULL << 46));
	CHECK(p == MAP_FAILED && errno == EINVAL, "another gpu_id's doorbells: %p", p);
	p = mmap(NULL, GTKFD_SLICE, PROT_READ | PROT_WRITE, MAP_SHARED, k.fd,
		 cookie ^ (1ULL << 62));
	CHECK(p == MAP_FAILED && errno == EINVAL, "events through /dev/kfd: %p", p);
	p = mmap(NULL, GTKFD_SLICE, PROT_READ | PROT_WRITE, MAP_SHARED, k.fd, cookie);
	CHECK(p != MAP_FAILED, "doorbell slice: %s", strerror(errno));
	if (p != MAP_FAILED) {
		signal(SIGBUS, on_bus);
		if (!sigsetjmp(jb, 1))
			*(volatile uint64_t *)((uint8_t *)p + 4096) = 1;
		else
			bus = 1;
		signal(SIGBUS, SIG_DFL);
		CHECK(bus, "the slice's second page (no doorbells) was writable");
		munmap(p, GTKFD_SLICE);
	}
	EXPECT(destroy(qid), 0, "DESTROY_QUEUE");

	/* the ring's buffer unmapped and freed under a live queue */
	{
		struct kfd_ioctl_unmap_memory_from_gpu_args um = { 0 };
		struct kfd_ioctl_free_memory_of_gpu_args fm = { 0 };
		uint32_t gpus[1] = { k.gpu_id };
		struct gtkfd_queue q2;

		e = gtkfd_queue_create(&k, &q2);
		EXPECT(-e, 0, "a queue on its own buffer");
		if (!e) {
			struct gtkfd_queue q3;

			/*
			 * GWS: free again once its queue went; one queue of
			 * a process at a time, as amdkfd
			 */
			gws.queue_id = q2.queue_id;
			gws.num_gws = 1;
			EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_ALLOC_QUEUE_GWS, &gws), 0,
			       "GWS after its queue was destroyed");
			e = gtkfd_queue_create(&k, &q3);
			EXPECT(-e, 0, "a third queue");
			if (!e) {
				gws.queue_id = q3.queue_id;
				EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_ALLOC_QUEUE_GWS, &gws),
				       EBUSY, "GWS for a second queue");
				gws.queue_id = q2.queue_id;
				gws.num_gws = 0;
				EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_ALLOC_QUEUE_GWS, &gws), 0,
				       "GWS given back");
				gws.queue_id = q3.queue_id;
				gws.num_gws = 1;
				EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_ALLOC_QUEUE_GWS, &gws), 0,
				       "GWS for the second queue then");
				*q3.doorbell = 0;
				EXPECT(-gtkfd_queue_destroy(&k, &q3), 0, "DESTROY the third queue");
			}
			um.handle = q2.bo.handle;
			um.device_ids_array_ptr = (uintptr_t)gpus;
			um.n_devices = 1;
			/*
			 * As amdkfd since Linux 6.10: the queue's ring and
			 * pointers hold the buffer (the driver reads the
			 * pointers through the pages), so it stays.
			 */
			EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &um), EBUSY,
			       "UNMAP the ring of a live queue");
			fm.handle = q2.bo.handle;
			EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fm), EBUSY,
			       "FREE the ring of a live queue");
			*q2.doorbell = 0;
			EXPECT(-gtkfd_queue_destroy(&k, &q2), 0, "DESTROY the queue");
			EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &um), 0,
			       "UNMAP the ring after DESTROY");
			EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fm), 0,
			       "FREE the ring after DESTROY");
		}
	}
	CHECK(gtkfd_debugfs_sum("queues_active") == active0, "queue left after its ring went");

	/* out of queues: ENOSPC, then all of them go */
	for (n = 0; n < 1100; n++) {
		good_args(&a);
		e = create(&a);
		if (e)
			break;
		ids[n] = a.queue_id;
	}
	DIAG("%u queues before %s", n, strerror(e));
	CHECK(n > 0 && n <= 127 && e == ENOSPC, "queue %u: %s, expected ENOSPC", n,
	      strerror(e));
	for (i = 0; i < n; i++)
		EXPECT(destroy(ids[i]), 0, "DESTROY_QUEUE %u", ids[i]);
	CHECK(gtkfd_debugfs_sum("queues_active") == active0, "queues left active");
	gtkfd_close(&k);
	return gt_result();
}
