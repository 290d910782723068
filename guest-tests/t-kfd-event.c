// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-kfd-event: KFD events behave as amdkfd's (Linux 6.1 kfd_events.c):
 *  - the event page is given once (a second one: EINVAL) and cannot be
 *    freed while the process lives (FREE_MEMORY_OF_GPU: EPERM);
 *  - SET_EVENT wakes a waiter; an auto-reset event is taken by the wait
 *    that sees it, a manual-reset one stays set until RESET_EVENT;
 *  - wait_for_all waits for every event, otherwise any; timeout 0 looks;
 *  - a waiter sleeping in another thread is woken by SET_EVENT, and fails
 *    with EIO (wait_result FAIL) when its event is destroyed;
 *  - unknown ids EINVAL, SET/RESET of a non-signal event EINVAL, a bad
 *    events pointer EFAULT; non-signal event ids start at 2^30;
 *  - a queue's VM fault sets the memory-exception event with the page,
 *    the gpu_id and "not present";
 *  - a wait of ROCr's "for ever" (0xFFFFFFFE ms) on an event whose set
 *    another thread took ends with TIMEOUT within seconds, not weeks
 *    (ROCr 5.2's lost wake-up, docs/kfd.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "gt.h"
#include "gtkfd.h"

static struct gtkfd k;

static int create(uint32_t type, int auto_reset, uint64_t page, uint32_t *id)
{
	struct kfd_ioctl_create_event_args a = {
		.event_type = type, .auto_reset = auto_reset, .event_page_offset = page,
	};
	int e = gtkfd_ioctl(k.fd, AMDKFD_IOC_CREATE_EVENT, &a);

	*id = a.event_id;
	return e;
}

static int op(unsigned long cmd, uint32_t id)
{
	struct kfd_ioctl_set_event_args a = { .event_id = id };

	return gtkfd_ioctl(k.fd, cmd, &a);
}

/* wait_result, or 100 + errno */
static uint32_t waitn(const uint32_t *ids, uint32_t n, int all, uint32_t ms,
		      struct kfd_event_data *ed)
{
	struct kfd_event_data local[4];
	struct kfd_ioctl_wait_events_args w = { 0 };
	uint32_t i;
	int e;

	if (!ed)
		ed = local;
	memset(ed, 0, n * sizeof(*ed));
	for (i = 0; i < n; i++)
		ed[i].event_id = ids[i];
	w.events_ptr = (uintptr_t)ed;
	w.num_events = n;
	w.wait_for_all = all;
	w.timeout = ms;
	e = gtkfd_ioctl(k.fd, AMDKFD_IOC_WAIT_EVENTS, &w);
	if (e) {
		CHECK(w.wait_result == KFD_IOC_WAIT_RESULT_FAIL, "failed wait reports %u",
		      w.wait_result);
		return 100 + e;
	}
	return w.wait_result;
}

static uint32_t thread_id, thread_result;
static volatile pid_t thread_tid;

static void *waiter(void *arg)
{
	thread_tid = syscall(SYS_gettid);
	thread_result = waitn(&thread_id, 1, 0, ~0U, NULL);
	return NULL;
}

static uint32_t pair_ids[2];

/* Waits for both of pair_ids, without a timeout. */
static void *waiter_all(void *arg)
{
	thread_tid = syscall(SYS_gettid);
	thread_result = waitn(pair_ids, 2, 1, ~0U, NULL);
	return NULL;
}

/*
 * ROCr 5.2 waits "for ever" with 0xFFFFFFFE ms, looking at its signal
 * again after every return.
 */
#define ROCR_FOREVER_MS 0xfffffffeU

static volatile int thread_done;

static void *waiter_rocr(void *arg)
{
	thread_tid = syscall(SYS_gettid);
	thread_result = waitn(&thread_id, 1, 0, ROCR_FOREVER_MS, NULL);
	thread_done = 1;
	return NULL;
}

static void on_alarm(int sig)
{
}

static int waiter_asleep(void);

/*
 * A wait for all on one event already set and one not: it sleeps until
 * its timeout (it used to spin in the kernel past it), and destroying
 * the set event under it fails it with EIO (the waiter used to stay
 * pointing at the freed event and completed on it).
 */
static void wait_all_one_set(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };   /* no SA_RESTART */
	uint32_t r;
	pthread_t th;

	EXPECT(create(KFD_IOC_EVENT_SIGNAL, 0, 0, &pair_ids[0]), 0, "CREATE_EVENT e1");
	EXPECT(create(KFD_IOC_EVENT_SIGNAL, 0, 0, &pair_ids[1]), 0, "CREATE_EVENT e2");
	EXPECT(op(AMDKFD_IOC_SET_EVENT, pair_ids[0]), 0, "SET_EVENT e1");
	sigaction(SIGALRM, &sa, NULL);
	alarm(10);
	r = waitn(pair_ids, 2, 1, 200, NULL);
	alarm(0);
	CHECK(r == KFD_IOC_WAIT_RESULT_TIMEOUT,
	      "wait for all, one set, 200 ms: %u (104: still in the kernel after 10 s)", r);

	thread_result = 0;
	thread_tid = 0;
	pthread_create(&th, NULL, waiter_all, NULL);
	CHECK(waiter_asleep(), "waiter for all never slept");
	EXPECT(op(AMDKFD_IOC_DESTROY_EVENT, pair_ids[0]), 0, "DESTROY_EVENT of the set one");
	EXPECT(op(AMDKFD_IOC_SET_EVENT, pair_ids[1]), 0, "SET_EVENT e2");
	pthread_join(th, NULL);
	CHECK(thread_result == 100 + EIO, "wait for all on a destroyed event: %u",
	      thread_result);
	EXPECT(op(AMDKFD_IOC_DESTROY_EVENT, pair_ids[1]), 0, "DESTROY_EVENT e2");
}

/*
 * Until the waiter thread sleeps interruptibly: in WAIT_EVENTS (nothing
 * else it does sleeps so; mutexes sleep uninterruptibly).
 */
static int waiter_asleep(void)
{
	char path[64], buf[256], *p;
	int i, fd;
	ssize_t r;

	for (i = 0; i < 10000; i++) {
		if (thread_tid) {
			snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)thread_tid);
			fd = open(path, O_RDONLY);
			r = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
			if (fd >= 0)
				close(fd);
			if (r > 0) {
				buf[r] = 0;
				p = strrchr(buf, ')');
				if (p && p[1] == ' ' && p[2] == 'S')
					return 1;
			}
		}
		usleep(1000);
	}
	return 0;
}

/*
 * ROCr 5.2's lost wake-up, as it happened in hsat_queue_destroy(): the
 * queue's signals share one auto-reset event, the async-events thread
 * stores a signal the main thread waits for and sets the event while the
 * main thread, which has read the old value, is on its way to sleep;
 * the async-events thread's own next wait takes the set (amdkfd's
 * auto-reset), and the main thread sleeps on an event nobody sets again.
 * That wait must end (TIMEOUT), so that ROCr looks at its signal again.
 */
static void lost_wakeup(void)
{
	uint32_t e;
	pthread_t th;
	int i, ended;

	EXPECT(create(KFD_IOC_EVENT_SIGNAL, 1, 0, &e), 0, "CREATE_EVENT (lost wake-up)");
	EXPECT(op(AMDKFD_IOC_SET_EVENT, e), 0, "SET_EVENT with nobody waiting");
	CHECK(waitn(&e, 1, 0, ROCR_FOREVER_MS, NULL) == KFD_IOC_WAIT_RESULT_COMPLETE,
	      "the setter's own wait takes the set");
	thread_id = e;
	thread_result = 0;
	thread_tid = 0;
	thread_done = 0;
	pthread_create(&th, NULL, waiter_rocr, NULL);
	for (i = 0; i < 10000 && !thread_done; i++)
		usleep(1000);
	ended = thread_done;
	CHECK(ended, "a wait of 0xFFFFFFFE ms on an event set and taken before "
	      "still sleeps after 10 s (ROCr's lost wake-up hangs)");
	if (!ended)
		EXPECT(op(AMDKFD_IOC_SET_EVENT, e), 0, "SET_EVENT to end the sleeper");
	pthread_join(th, NULL);
	CHECK(!ended || thread_result == KFD_IOC_WAIT_RESULT_TIMEOUT,
	      "the ended wait reports %u, not TIMEOUT", thread_result);
	EXPECT(op(AMDKFD_IOC_DESTROY_EVENT, e), 0, "DESTROY_EVENT (lost wake-up)");
}

static void memory_fault(void)
{
	struct hsagpu_barrier_packet b;
	struct gtkfd_queue q;
	struct kfd_event_data ed;
	uint32_t mem_id, res;
	uint8_t *hole;

	EXPECT(create(KFD_IOC_EVENT_MEMORY, 0, 0, &mem_id), 0, "CREATE_EVENT (memory)");
	CHECK(mem_id >= 1U << 30, "memory event id 0x%x below 2^30", mem_id);
	/* a range of the process that is not in the GPU address space */
	hole = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (gtkfd_queue_create(&k, &q)) {
		CHECK(0, "CREATE_QUEUE for the fault");
		return;
	}
	memset(&b, 0, sizeof(b));
	b.header = HSAGPU_PKT_TYPE_BARRIER_AND << HSAGPU_PKT_HDR_TYPE_SHIFT;
	b.completion_signal = (uintptr_t)(hole + 0x3040);
	gtkfd_queue_submit(&q, &b);
	res = waitn(&mem_id, 1, 0, 10000, &ed);
	CHECK(res == KFD_IOC_WAIT_RESULT_COMPLETE, "memory event after a VM fault: %u", res);
	CHECK(ed.memory_exception_data.gpu_id == k.gpu_id, "gpu_id %u",
	      ed.memory_exception_data.gpu_id);
	CHECK(ed.memory_exception_data.va == (uintptr_t)(hole + 0x3000), "va 0x%llx, hole %p",
	      (unsigned long long)ed.memory_exception_data.va, hole);
	CHECK(ed.memory_exception_data.failure.NotPresent == 1, "NotPresent %u",
	      ed.memory_exception_data.failure.NotPresent);
	/* manual reset, and the fault happened once */
	CHECK(waitn(&mem_id, 1, 0, 0, NULL) == KFD_IOC_WAIT_RESULT_COMPLETE,
	      "manual-reset memory event was reset");
	EXPECT(op(AMDKFD_IOC_RESET_EVENT, mem_id), EINVAL, "RESET_EVENT of a memory event");
	EXPECT(op(AMDKFD_IOC_SET_EVENT, mem_id), EINVAL, "SET_EVENT of a memory event");
	EXPECT(-gtkfd_queue_destroy(&k, &q), 0, "DESTROY_QUEUE after the fault");
	EXPECT(op(AMDKFD_IOC_DESTROY_EVENT, mem_id), 0, "DESTROY_EVENT (memory)");
}

int main(void)
{
	struct kfd_ioctl_free_memory_of_gpu_args fr = { 0 };
	struct kfd_ioctl_wait_events_args w = { 0 };
	uint32_t a, m, ids[2], bogus = 12345;
	struct gtkfd_bo page, page2;
	pthread_t th;
	int e;

	e = gtkfd_open(&k);
	if (e)
		return gt_skip("no KFD GPU (boot with hsagpu_test.kfd=1): %s", strerror(-e));
	if (gtkfd_bo_alloc(&k, KFD_SIGNAL_EVENT_LIMIT * 8, &page) ||
	    gtkfd_bo_alloc(&k, KFD_SIGNAL_EVENT_LIMIT * 8, &page2)) {
		CHECK(0, "event page buffers");
		return gt_result();
	}
	EXPECT(create(KFD_IOC_EVENT_SIGNAL, 1, page.handle, &a), 0, "CREATE_EVENT auto-reset");
	EXPECT(create(KFD_IOC_EVENT_SIGNAL, 0, page2.handle, &m), EINVAL,
	       "CREATE_EVENT with a second page");
	EXPECT(create(KFD_IOC_EVENT_SIGNAL, 0, 0, &m), 0, "CREATE_EVENT manual reset");
	CHECK(a < KFD_SIGNAL_EVENT_LIMIT && m < KFD_SIGNAL_EVENT_LIMIT && a != m,
	      "signal ids %u %u", a, m);
	fr.handle = page.handle;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &fr), EPERM,
	       "FREE_MEMORY_OF_GPU of the event page");

	/* auto-reset */
	CHECK(waitn(&a, 1, 0, 0, NULL) == KFD_IOC_WAIT_RESULT_TIMEOUT, "unset event completes");
	EXPECT(op(AMDKFD_IOC_SET_EVENT, a), 0, "SET_EVENT");
	CHECK(waitn(&a, 1, 0, 1000, NULL) == KFD_IOC_WAIT_RESULT_COMPLETE, "set event");
	CHECK(waitn(&a, 1, 0, 0, NULL) == KFD_IOC_WAIT_RESULT_TIMEOUT, "auto-reset kept");
	/* manual reset */
	EXPECT(op(AMDKFD_IOC_SET_EVENT, m), 0, "SET_EVENT (manual)");
	CHECK(waitn(&m, 1, 0, 0, NULL) == KFD_IOC_WAIT_RESULT_COMPLETE, "manual set");
	CHECK(waitn(&m, 1, 0, 0, NULL) == KFD_IOC_WAIT_RESULT_COMPLETE, "manual stays set");
	EXPECT(op(AMDKFD_IOC_RESET_EVENT, m), 0, "RESET_EVENT");
	CHECK(waitn(&m, 1, 0, 0, NULL) == KFD_IOC_WAIT_RESULT_TIMEOUT, "manual reset");
	/* any / all */
	ids[0] = a;
	ids[1] = m;
	EXPECT(op(AMDKFD_IOC_SET_EVENT, m), 0, "SET_EVENT (manual)");
	CHECK(waitn(ids, 2, 1, 0, NULL) == KFD_IOC_WAIT_RESULT_TIMEOUT, "all with one set");
	CHECK(waitn(ids, 2, 0, 0, NULL) == KFD_IOC_WAIT_RESULT_COMPLETE, "any with one set");
	EXPECT(op(AMDKFD_IOC_SET_EVENT, a), 0, "SET_EVENT");
	CHECK(waitn(ids, 2, 1, 0, NULL) == KFD_IOC_WAIT_RESULT_COMPLETE, "all with both set");
	EXPECT(op(AMDKFD_IOC_RESET_EVENT, m), 0, "RESET_EVENT");
	/* errors */
	CHECK(waitn(&bogus, 1, 0, 0, NULL) == 100 + EINVAL, "WAIT on an unknown id");
	EXPECT(op(AMDKFD_IOC_SET_EVENT, bogus), EINVAL, "SET_EVENT unknown");
	EXPECT(op(AMDKFD_IOC_RESET_EVENT, bogus), EINVAL, "RESET_EVENT unknown");
	EXPECT(op(AMDKFD_IOC_DESTROY_EVENT, bogus), EINVAL, "DESTROY_EVENT unknown");
	w.events_ptr = 16;
	w.num_events = 1;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_WAIT_EVENTS, &w), EFAULT, "WAIT bad pointer");
	CHECK(w.wait_result == KFD_IOC_WAIT_RESULT_FAIL, "EFAULT wait_result %u",
	      w.wait_result);
	w.events_ptr = 0;
	w.num_events = 0;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_WAIT_EVENTS, &w), 0, "WAIT on no events");
	CHECK(w.wait_result == KFD_IOC_WAIT_RESULT_COMPLETE, "no events: %u", w.wait_result);
	w.num_events = 0x40000000;
	w.events_ptr = 16;
	EXPECT(gtkfd_ioctl(k.fd, AMDKFD_IOC_WAIT_EVENTS, &w), ENOMEM, "WAIT on 2^30 events");

	/* another thread: woken by SET_EVENT, failed by DESTROY_EVENT */
	thread_id = a;
	thread_result = 0;
	thread_tid = 0;
	pthread_create(&th, NULL, waiter, NULL);
	CHECK(waiter_asleep(), "waiter thread never slept");
	EXPECT(op(AMDKFD_IOC_SET_EVENT, a), 0, "SET_EVENT for the sleeper");
	pthread_join(th, NULL);
	CHECK(thread_result == KFD_IOC_WAIT_RESULT_COMPLETE, "sleeper: %u", thread_result);
	thread_result = 0;
	thread_tid = 0;
	pthread_create(&th, NULL, waiter, NULL);
	CHECK(waiter_asleep(), "waiter thread never slept");
	EXPECT(op(AMDKFD_IOC_DESTROY_EVENT, a), 0, "DESTROY_EVENT under a sleeper");
	pthread_join(th, NULL);
	CHECK(thread_result == 100 + EIO, "sleeper on a destroyed event: %u", thread_result);
	EXPECT(op(AMDKFD_IOC_DESTROY_EVENT, a), EINVAL, "DESTROY_EVENT twice");

	wait_all_one_set();
	lost_wakeup();
	memory_fault();
	EXPECT(op(AMDKFD_IOC_DESTROY_EVENT, m), 0, "DESTROY_EVENT");
	gtkfd_close(&k);
	return gt_result();
}
