// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Waiting: a blocked wait on a BUSY kernel's signal is woken by the
 * queue's interrupt (counted by the device and by Linux) rather than by
 * its timeout; a CPU store wakes every thread blocked on a signal
 * (SET_EVENT, event ages); WAIT_EVENTS consumes events, times out with
 * ETIME and honours WAIT_ALL; a process killed while it waits in
 * WAIT_EVENTS, or while its queues run long kernels, leaves the device
 * usable and its queues gone; a file belongs to its opener: a child
 * after fork() gets EBADF, and the opener's exit stops its queues even
 * while the child still holds the file. Two files of one device are each
 * woken by their own queue's completion, and a waiter is not woken by
 * another file's completions on another vector.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "gtq.h"

#define WAIT_EVENTS_1_2 _IOC(_IOC_READ | _IOC_WRITE, HSAGPU_IOCTL_BASE, 0x0b, 32)

static double ms_since(uint64_t t0)
{
	return (gtq_now_ns() - t0) / 1e6;
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}


static void test_blocked_wait(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 16, 0);
	struct gtq_arena ka;
	hsagpu_signal_t s = gtq_signal(d, 1), never = gtq_signal(d, 1);
	uint32_t irqs0 = gtq_reg(d, HSAGPU_REG_PKT_IRQS);
	uint64_t linux0 = gt_msi_irqs(d->pci), t0, c0;
	double ms, cpu;
	int64_t v;

	gtq_arena_init(d, &ka, 4096);
	if (!q || !ka.base)
		return;
	CHECK(hsagpu_signal_ptr(s)->event_mailbox_ptr != 0,
	      "signal created without an event mailbox");
	gtq_busy(q, &ka, 50 * GTQ_MS, s, 0);
	t0 = gtq_now_ns();
	c0 = cpu_ns();
	v = hsagpu_signal_wait_acquire(s, HSAGPU_SIGNAL_CONDITION_EQ, 0,
				       10000 * GTQ_MS,
				       HSAGPU_WAIT_STATE_BLOCKED);
	ms = ms_since(t0);
	cpu = (cpu_ns() - c0) / 1e6;
	DIAG("%s: blocked wait on BUSY(50 ms): woke after %.1f ms, %.1f ms CPU; device IRQs +%u, Linux IRQs +%llu",
	     d->pci, ms, cpu, gtq_reg(d, HSAGPU_REG_PKT_IRQS) - irqs0,
	     (unsigned long long)(gt_msi_irqs(d->pci) - linux0));
	CHECK(v == 0, "wait returned value %lld", (long long)v);
	CHECK(ms < 5000, "woke after %.0f ms: the timeout, not the interrupt", ms);
	CHECK(gtq_reg(d, HSAGPU_REG_PKT_IRQS) != irqs0,
	      "device sent no queue interrupt");
	CHECK(gt_msi_irqs(d->pci) > linux0, "Linux saw no interrupt on the device's vectors");

	/* A wait nobody ends returns the value at its timeout. */
	t0 = gtq_now_ns();
	v = hsagpu_signal_wait_acquire(never, HSAGPU_SIGNAL_CONDITION_EQ, 0,
				       200 * GTQ_MS,
				       HSAGPU_WAIT_STATE_BLOCKED);
	ms = ms_since(t0);
	DIAG("wait with a 200 ms timeout returned after %.1f ms", ms);
	CHECK(v == 1, "timed-out wait returned %lld", (long long)v);
	CHECK(ms >= 100 && ms < 5000, "200 ms timeout took %.0f ms", ms);
	hsagpu_signal_destroy(s);
	hsagpu_signal_destroy(never);
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
}

static int wait_events(struct gtq_dev *d, const uint32_t *ev, unsigned int n,
		       uint32_t flags, uint32_t timeout_ms, uint64_t *signaled)
{
	struct hsagpu_wait_events w = {
		.size = sizeof(w),
		.flags = flags,
		.events_ptr = (uintptr_t)ev,
		.num_events = n,
		.timeout_ms = timeout_ms,
	};
	int ret = ioctl(hsagpu_agent_fd(d->agent), HSAGPU_IOC_WAIT_EVENTS, &w);

	*signaled = w.signaled;
	return ret ? -errno : 0;
}

/* Spin until the device completed @s, without touching its event. */
static int spin_zero(hsagpu_signal_t s)
{
	uint64_t end = gtq_now_ns() + 3000 * GTQ_MS;

	while (gtq_value(s) != 0)
		if (gtq_now_ns() > end)
			return 0;
	return 1;
}

static void test_wait_events(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 16, 0);
	struct gtq_arena ka;
	hsagpu_signal_t s1 = gtq_signal(d, 1), s2 = gtq_signal(d, 1);
	struct hsagpu_create_event ce = { .size = sizeof(ce) };
	struct hsagpu_event_id de = { .size = sizeof(de) };
	uint32_t ev[2];
	uint64_t sig, t0;
	int ret;

	gtq_arena_init(d, &ka, 4096);
	if (!q || !ka.base)
		return;
	ev[0] = hsagpu_signal_ptr(s1)->event_id;
	ev[1] = hsagpu_signal_ptr(s2)->event_id;
	CHECK(ev[0] && ev[1] && ev[0] != ev[1], "signal event ids %u %u",
	      ev[0], ev[1]);

	/* Woken by the completion, which consumes the event. */
	gtq_busy(q, &ka, 50 * GTQ_MS, s1, 0);
	t0 = gtq_now_ns();
	ret = wait_events(d, ev, 1, 0, 10000, &sig);
	DIAG("WAIT_EVENTS on BUSY(50 ms) returned %d after %.1f ms", ret,
	     ms_since(t0));
	CHECK(ret == 0 && sig == 1, "WAIT_EVENTS: %d, signaled 0x%llx", ret,
	      (unsigned long long)sig);
	CHECK(ms_since(t0) < 5000, "WAIT_EVENTS woke late");
	CHECK(gtq_value(s1) == 0, "woken before the signal completed");
	ret = wait_events(d, ev, 1, 0, 100, &sig);
	CHECK(ret == -ETIME, "event not consumed by the wait: %d", ret);

	/*
	 * WAIT_ALL: one of two is not enough; what a timed-out wait consumed
	 * it reports, so nothing is lost.
	 */
	hsagpu_signal_store_release(s1, 1);
	gtq_agent(q, HSAGPU_AGENT_NOP, NULL, 0, s1, 0);
	CHECK(spin_zero(s1), "NOP did not complete");
	ret = wait_events(d, ev, 2, HSAGPU_WAIT_ALL, 200, &sig);
	CHECK(ret == -ETIME && sig == 1,
	      "WAIT_ALL with one of two events: %d, signaled 0x%llx", ret,
	      (unsigned long long)sig);
	hsagpu_signal_store_release(s1, 1);
	gtq_agent(q, HSAGPU_AGENT_NOP, NULL, 0, s1, 0);
	gtq_agent(q, HSAGPU_AGENT_NOP, NULL, 0, s2, 0);
	CHECK(spin_zero(s1) && spin_zero(s2), "NOPs did not complete");
	ret = wait_events(d, ev, 2, HSAGPU_WAIT_ALL, 5000, &sig);
	CHECK(ret == 0 && sig == 3, "WAIT_ALL with both: %d, signaled 0x%llx",
	      ret, (unsigned long long)sig);
	ret = wait_events(d, ev, 2, 0, 100, &sig);
	CHECK(ret == -ETIME && sig == 0,
	      "events not consumed by WAIT_ALL: %d, signaled 0x%llx", ret,
	      (unsigned long long)sig);

	/* Any of two: reports which one; an event listed twice marks both. */
	hsagpu_signal_store_release(s2, 1);
	gtq_agent(q, HSAGPU_AGENT_NOP, NULL, 0, s2, 0);
	ret = wait_events(d, ev, 2, 0, 5000, &sig);
	CHECK(ret == 0 && sig == 2, "WAIT any: %d, signaled 0x%llx", ret,
	      (unsigned long long)sig);
	hsagpu_signal_store_release(s2, 1);
	gtq_agent(q, HSAGPU_AGENT_NOP, NULL, 0, s2, 0);
	{
		uint32_t twice[3] = { ev[1], ev[0], ev[1] };

		ret = wait_events(d, twice, 3, 0, 5000, &sig);
		CHECK(ret == 0 && sig == 5, "event listed twice: %d, signaled 0x%llx",
		      ret, (unsigned long long)sig);
	}

	/* A fresh event nobody signals: ETIME after the timeout. */
	CHECK(ioctl(hsagpu_agent_fd(d->agent), HSAGPU_IOC_CREATE_EVENT, &ce) == 0,
	      "CREATE_EVENT: %s", strerror(errno));
	CHECK(ce.event_id >= 1 && ce.event_id <= HSAGPU_MAX_EVENTS && ce.mailbox_addr,
	      "event %u mailbox 0x%llx", ce.event_id,
	      (unsigned long long)ce.mailbox_addr);
	t0 = gtq_now_ns();
	ret = wait_events(d, &ce.event_id, 1, 0, 300, &sig);
	DIAG("WAIT_EVENTS with a 300 ms timeout: %d after %.1f ms", ret,
	     ms_since(t0));
	CHECK(ret == -ETIME, "unsignaled event: %d, expected -ETIME", ret);
	CHECK(ms_since(t0) >= 150 && ms_since(t0) < 5000,
	      "300 ms timeout took %.0f ms", ms_since(t0));
	CHECK(sig == 0, "timed-out wait reports signaled 0x%llx",
	      (unsigned long long)sig);
	de.event_id = ce.event_id;
	CHECK(ioctl(hsagpu_agent_fd(d->agent), HSAGPU_IOC_DESTROY_EVENT, &de) == 0,
	      "DESTROY_EVENT: %s", strerror(errno));

	hsagpu_signal_destroy(s1);
	hsagpu_signal_destroy(s2);
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
}

struct cpu_waiter {
	hsagpu_signal_t s;
	pid_t tid;
	int64_t v;
};

static void *cpu_wait_thread(void *arg)
{
	struct cpu_waiter *w = arg;

	__atomic_store_n(&w->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	/* Without a wake-up it sleeps until the 60 s timeout. */
	w->v = hsagpu_signal_wait_acquire(w->s, HSAGPU_SIGNAL_CONDITION_EQ, 0,
					  60000 * GTQ_MS,
					  HSAGPU_WAIT_STATE_BLOCKED);
	return NULL;
}

static char task_state(pid_t tid)
{
	char path[64], buf[256], *p = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (f) {
		p = fgets(buf, sizeof(buf), f);
		fclose(f);
	}
	p = p ? strrchr(buf, ')') : NULL;
	return p ? p[2] : '?';
}

/*
 * Threads asleep on one signal's event are all woken by a CPU store:
 * the runtime sends SET_EVENT, one waiter consumes the event and the
 * others see its age move on. No device work is involved.
 */
static void test_cpu_wake(struct gtq_dev *d)
{
	hsagpu_signal_t s = gtq_signal(d, 1);
	struct cpu_waiter w[3] = { };
	struct timespec until;
	int i, asleep = 0, joined[3];
	pthread_t th[3];

	for (i = 0; i < 3; i++) {
		w[i].s = s;
		CHECK(!pthread_create(&th[i], NULL, cpu_wait_thread, &w[i]),
		      "pthread_create");
	}
	/* Let them reach the sleep, so that the store has to wake them. */
	for (int n = 0; n < 300 && asleep < 3; n++) {
		gtq_sleep_ms(10);
		asleep = 0;
		for (i = 0; i < 3; i++) {
			pid_t tid = __atomic_load_n(&w[i].tid, __ATOMIC_ACQUIRE);

			asleep += tid && task_state(tid) == 'S';
		}
	}
	DIAG("%d of 3 waiters asleep before the store", asleep);
	hsagpu_signal_store_release(s, 0);
	/*
	 * Woken, they return at once; a lost wake-up would keep a waiter
	 * asleep until its 60 s timeout, far beyond this 10 s.
	 */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 10;
	for (i = 0; i < 3; i++) {
		joined[i] = !pthread_timedjoin_np(th[i], NULL, &until);
		CHECK(joined[i] && w[i].v == 0,
		      "waiter %d not woken by the CPU store (value %lld)", i,
		      (long long)w[i].v);
	}
	for (i = 0; i < 3; i++)
		if (!joined[i])
			return;         /* still asleep: leave the signal alone */
	hsagpu_signal_destroy(s);
}

static int set_event(int fd, uint32_t id, uint32_t size)
{
	struct hsagpu_event_id e = { .size = size, .event_id = id };

	return ioctl(fd, HSAGPU_IOC_SET_EVENT, &e) ? -errno : 0;
}

/* SET_EVENT and event ages at the ioctl level, and the ABI 1.2 command. */
static void test_set_event(struct gtq_dev *d)
{
	int fd = hsagpu_agent_fd(d->agent);
	struct hsagpu_create_event ce = { .size = sizeof(ce) };
	struct hsagpu_event_id de = { .size = sizeof(de) };
	struct hsagpu_wait_events w = {
		.size = sizeof(w),
		.events_ptr = (uintptr_t)&ce.event_id,
		.num_events = 1,
	};
	/* The ABI 1.2 structure and command: no ages_ptr, 32 bytes. */
	struct {
		uint32_t size, flags;
		uint64_t events_ptr;
		uint32_t num_events, timeout_ms;
		uint64_t signaled;
	} w12 = {
		.size = sizeof(w12),
		.events_ptr = (uintptr_t)&ce.event_id,
		.num_events = 1,
	};
	uint64_t age = 0, age0;

	if (ioctl(fd, HSAGPU_IOC_CREATE_EVENT, &ce)) {
		CHECK(0, "CREATE_EVENT: %s", strerror(errno));
		return;
	}
	CHECK(set_event(fd, 0, sizeof(de)) == -EINVAL, "SET_EVENT of event 0");
	CHECK(set_event(fd, HSAGPU_MAX_EVENTS + 1, sizeof(de)) == -EINVAL,
	      "SET_EVENT past the last event");
	CHECK(set_event(fd, ce.event_id, sizeof(de) + 4) == -EINVAL,
	      "SET_EVENT with a wrong size");
	CHECK(ce.event_id == HSAGPU_MAX_EVENTS ||
	      set_event(fd, ce.event_id + 1, sizeof(de)) == -EINVAL,
	      "SET_EVENT of an event that does not exist");

	/* Take the age without sleeping: nothing pending, -ETIME. */
	w.ages_ptr = (uintptr_t)&age;
	CHECK(ioctl(fd, HSAGPU_IOC_WAIT_EVENTS, &w) && errno == ETIME &&
	      !w.signaled && age != 0, "age snapshot: signaled 0x%llx age %llu",
	      (unsigned long long)w.signaled, (unsigned long long)age);
	age0 = age;

	/* SET_EVENT then a wait: consumed at once, the age moves on. */
	CHECK(set_event(fd, ce.event_id, sizeof(de)) == 0, "SET_EVENT: %s",
	      strerror(errno));
	w.timeout_ms = 5000;
	CHECK(ioctl(fd, HSAGPU_IOC_WAIT_EVENTS, &w) == 0 && w.signaled == 1 &&
	      age == age0 + 1, "wait after SET_EVENT: %s, signaled 0x%llx, age %llu -> %llu",
	      strerror(errno), (unsigned long long)w.signaled,
	      (unsigned long long)age0, (unsigned long long)age);

	/*
	 * A waiter holding an older age is woken even though the slot is
	 * empty: someone else consumed the event after it last looked.
	 */
	age = age0;
	w.timeout_ms = 5000;
	CHECK(ioctl(fd, HSAGPU_IOC_WAIT_EVENTS, &w) == 0 && w.signaled == 1 &&
	      age == age0 + 1, "stale age: %s, signaled 0x%llx, age %llu",
	      strerror(errno), (unsigned long long)w.signaled,
	      (unsigned long long)age);
	/* With the current age and nothing new: it times out. */
	w.timeout_ms = 50;
	CHECK(ioctl(fd, HSAGPU_IOC_WAIT_EVENTS, &w) && errno == ETIME &&
	      !w.signaled, "current age, nothing new: signaled 0x%llx",
	      (unsigned long long)w.signaled);

	/* The ABI 1.2 structure (no ages) still works. */
	CHECK(set_event(fd, ce.event_id, sizeof(de)) == 0, "SET_EVENT again");
	w12.timeout_ms = 5000;
	CHECK(ioctl(fd, WAIT_EVENTS_1_2, &w12) == 0 &&
	      w12.signaled == 1, "ABI 1.2 WAIT_EVENTS: %s", strerror(errno));
	w12.size = sizeof(w);
	CHECK(ioctl(fd, WAIT_EVENTS_1_2, &w12) && errno == EINVAL,
	      "ABI 1.2 command with the new size accepted");

	/* An unreadable ages pointer: EFAULT, no oops. */
	w.ages_ptr = 8;
	w.timeout_ms = 0;
	CHECK(ioctl(fd, HSAGPU_IOC_WAIT_EVENTS, &w) && errno == EFAULT,
	      "bad ages_ptr: %s", strerror(errno));

	de.event_id = ce.event_id;
	CHECK(ioctl(fd, HSAGPU_IOC_DESTROY_EVENT, &de) == 0, "DESTROY_EVENT");
	CHECK(set_event(fd, ce.event_id, sizeof(de)) == -EINVAL,
	      "SET_EVENT of a destroyed event");
}

/* Child: queues with long work, then wait in WAIT_EVENTS or in pause(). */
static void child(int idx, int in_wait, int wfd)
{
	hsagpu_agent_t *a;
	hsagpu_queue_t *q[2];
	hsagpu_signal_t s;
	struct hsagpu_kargs_busy *k;
	void *mem;
	uint32_t ev;
	uint64_t sig;
	int nq = in_wait ? 1 : 2;

	if (hsagpu_agent_open(idx, &a) ||
	    hsagpu_memory_allocate(a, 4096, HSAGPU_RT_MEM_SYSTEM, &mem) ||
	    hsagpu_signal_create(a, 1, &s))
		_exit(2);
	k = mem;
	k->ns = 5000 * GTQ_MS;
	for (int i = 0; i < nq; i++) {
		if (hsagpu_queue_create(a, 16, 0, 0, &q[i]))
			_exit(3);
		if (gtq_dispatch1(q[i], HSAGPU_KERNEL_BUSY, k, 1, 1, s, 0) < 0)
			_exit(4);
	}
	ev = hsagpu_signal_ptr(s)->event_id;
	if (write(wfd, "r", 1) != 1)
		_exit(5);
	if (in_wait) {
		struct hsagpu_wait_events w = {
			.size = sizeof(w),
			.events_ptr = (uintptr_t)&ev,
			.num_events = 1,
			.timeout_ms = HSAGPU_WAIT_INFINITE,
		};

		ioctl(hsagpu_agent_fd(a), HSAGPU_IOC_WAIT_EVENTS, &w);
		sig = w.signaled;
		_exit(sig ? 6 : 7);
	}
	for (;;)
		pause();
}

static char proc_state(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;
	return p ? p[2] : '?';
}

static void test_kill(struct gtq_dev *d, int idx, int in_wait)
{
	const char *how = in_wait ? "in WAIT_EVENTS" : "with 2 busy queues";
	long active0 = gtq_queues_active(d), active;
	int pfd[2], status = 0, reaped = 0;
	struct pollfd pf;
	char c = 0;
	pid_t pid;

	CHECK(active0 >= 0, "no hsagpu/queues_active in sysfs");
	if (pipe(pfd))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		child(idx, in_wait, pfd[1]);
	}
	close(pfd[1]);
	pf.fd = pfd[0];
	pf.events = POLLIN;
	CHECK(poll(&pf, 1, 5000) == 1 && read(pfd[0], &c, 1) == 1 && c == 'r',
	      "child %s did not get ready", how);
	close(pfd[0]);
	gtq_sleep_ms(100);
	active = gtq_queues_active(d);
	CHECK(active == active0 + (in_wait ? 1 : 2),
	      "queues_active %ld with the child's queues, was %ld", active,
	      active0);
	if (in_wait) {
		for (int i = 0; i < 200 && proc_state(pid) != 'S'; i++)
			gtq_sleep_ms(10);
		CHECK(proc_state(pid) == 'S', "child state '%c', not sleeping in WAIT_EVENTS",
		      proc_state(pid));
	}
	kill(pid, SIGKILL);
	for (int i = 0; i < 500 && !reaped; i++) {
		reaped = waitpid(pid, &status, WNOHANG) == pid;
		if (!reaped)
			gtq_sleep_ms(10);
	}
	CHECK(reaped, "child %s not reaped 5 s after SIGKILL (state '%c')", how,
	      proc_state(pid));
	if (!reaped)
		return;
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	      "child %s ended with status 0x%x before the kill", how, status);
	for (int i = 0; i < 200 && gtq_queues_active(d) != active0; i++)
		gtq_sleep_ms(10);
	CHECK(gtq_queues_active(d) == active0,
	      "queues_active %ld after the child died, was %ld",
	      gtq_queues_active(d), active0);

	/* The device still works. */
	hsagpu_queue_t *q = gtq_queue(d, 16, 0);
	volatile uint64_t *slot = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t s = gtq_signal(d, 1);

	if (q && slot) {
		gtq_write(q, slot, 0x600d, s, 0);
		GTQ_WAIT(s, 0, 3000);
		CHECK(*slot == 0x600d, "new queue after the kill did not run");
		CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
	}
	hsagpu_signal_destroy(s);
	if (slot)
		hsagpu_memory_free(d->agent, (void *)slot);
	DIAG("%s: child killed %s: reaped, queues_active back to %ld, device usable",
	     d->pci, how, gtq_queues_active(d));
}

/*
 * The opener: a queue running a long BUSY kernel, then a child that
 * inherits the file and reports what ioctl and mmap give it. Exits when
 * told to, leaving the child (which holds the file) behind.
 */
static void opener(int idx, int wfd, int gofd)
{
	struct hsagpu_alloc_mem am = {
		.size = sizeof(am), .bytes = 4096, .flags = HSAGPU_MEM_SYSTEM,
	};
	struct hsagpu_device_info info = { .size = sizeof(info) };
	hsagpu_queue_t *q;
	hsagpu_signal_t s;
	struct hsagpu_kargs_busy *k;
	hsagpu_agent_t *a;
	char msg[64], go;
	void *mem, *m;
	int fd, e1, e2;
	pid_t c;

	if (hsagpu_agent_open(idx, &a) ||
	    hsagpu_memory_allocate(a, 4096, HSAGPU_RT_MEM_SYSTEM, &mem) ||
	    hsagpu_signal_create(a, 1, &s) || hsagpu_queue_create(a, 16, 0, 0, &q))
		_exit(2);
	fd = hsagpu_agent_fd(a);
	if (ioctl(fd, HSAGPU_IOC_ALLOC_MEM, &am))
		_exit(3);
	k = mem;
	k->ns = 5000 * GTQ_MS;
	if (gtq_dispatch1(q, HSAGPU_KERNEL_BUSY, k, 1, 1, s, 0) < 0)
		_exit(4);
	c = fork();
	if (c == 0) {
		e1 = ioctl(fd, HSAGPU_IOC_GET_INFO, &info) ? errno : 0;
		m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, am.mmap_offset);
		e2 = m == MAP_FAILED ? errno : 0;
		snprintf(msg, sizeof(msg), "%d %d %d\n", (int)getpid(), e1, e2);
		if (write(wfd, msg, strlen(msg)) < 0)
			_exit(5);
		for (;;)
			pause();
	}
	if (c < 0 || read(gofd, &go, 1) < 0)
		_exit(6);
	_exit(0);
}

static void test_fork(struct gtq_dev *d, int idx)
{
	long active0 = gtq_queues_active(d);
	int pfd[2], gfd[2], status = 0, cpid = 0, e1 = -1, e2 = -1;
	char msg[64] = "";
	struct pollfd pf;
	ssize_t n = 0;
	pid_t pid;

	if (pipe(pfd) || pipe(gfd))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		close(gfd[1]);
		opener(idx, pfd[1], gfd[0]);
	}
	close(pfd[1]);
	close(gfd[0]);
	pf.fd = pfd[0];
	pf.events = POLLIN;
	if (poll(&pf, 1, 5000) == 1)
		n = read(pfd[0], msg, sizeof(msg) - 1);
	close(pfd[0]);
	msg[n > 0 ? n : 0] = 0;
	CHECK(sscanf(msg, "%d %d %d", &cpid, &e1, &e2) == 3 && cpid > 0,
	      "no report from the opener's child: '%s'", msg);
	/* With GPU VM the file's addresses are the opener's: EACCES */
	int want = d->vm ? EACCES : EBADF;

	CHECK(e1 == want, "ioctl on an inherited file: errno %d, expected %d",
	      e1, want);
	CHECK(e2 == want, "mmap of an inherited file: errno %d, expected %d",
	      e2, want);
	CHECK(gtq_queues_active(d) == active0 + 1,
	      "queues_active %ld with the opener's queue, was %ld",
	      gtq_queues_active(d), active0);

	/* The opener exits; its child still holds the file. */
	close(gfd[1]);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "opener ended with status 0x%x", status);
	for (int i = 0; i < 500 && gtq_queues_active(d) != active0; i++)
		gtq_sleep_ms(10);
	CHECK(cpid > 0 && kill(cpid, 0) == 0,
	      "the child holding the file is gone");
	CHECK(gtq_queues_active(d) == active0,
	      "queues_active %ld after the opener exited (its child holds the file), was %ld",
	      gtq_queues_active(d), active0);
	if (cpid > 0)
		kill(cpid, SIGKILL);
	DIAG("%s: inherited file: ioctl/mmap %s; opener's queue stopped at its exit",
	     d->pci, d->vm ? "EACCES" : "EBADF");
}

struct file_waiter {
	int fd;
	uint32_t ev;
	pid_t tid;
	int ret;
	uint64_t woke_ns;
};

static void *file_wait_thread(void *arg)
{
	struct file_waiter *w = arg;
	struct hsagpu_wait_events we = {
		.size = sizeof(we),
		.events_ptr = (uintptr_t)&w->ev,
		.num_events = 1,
		.timeout_ms = 20000,
	};

	__atomic_store_n(&w->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	w->ret = ioctl(w->fd, HSAGPU_IOC_WAIT_EVENTS, &we) ? -errno : 0;
	w->woke_ns = gtq_now_ns();
	return NULL;
}

/* Wait until thread @w is asleep (in WAIT_EVENTS); 0 if it never was. */
static int file_waiter_asleep(struct file_waiter *w)
{
	uint64_t end = gtq_now_ns() + 5000 * GTQ_MS;
	pid_t tid;

	while (gtq_now_ns() < end) {
		tid = __atomic_load_n(&w->tid, __ATOMIC_ACQUIRE);
		if (tid && task_state(tid) == 'S')
			return 1;
		gtq_sleep_ms(5);
	}
	return 0;
}

static long ctxt_switches(pid_t tid)
{
	char path[64], line[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* The driver's rule (hsagpu_queue_vector()): queues over vectors 1..N-1. */
static uint32_t queue_vector(struct gtq_dev *d, uint32_t id)
{
	uint32_t nvec = d->info->msix_vectors;

	return nvec > 1 ? 1 + id % (nvec - 1) : 0;
}

/*
 * Two files of one device, each with a queue and a waiter blocked in
 * WAIT_EVENTS on its own signal's event. Each queue's completion must
 * wake its own file's waiter (a lost wake-up shows as the 20 s timeout),
 * and A's waiter must not depend on B's later completion. Then, when the
 * queues use different vectors, twenty completions on B's queue must not
 * wake a waiter of file A at all (counted in its context switches).
 */
static void test_two_files(struct gtq_dev *d, int idx)
{
	struct gtq_dev d2;
	hsagpu_queue_t *qa, *qb;
	struct gtq_arena ka, kb;
	hsagpu_signal_t sa, sb;
	struct file_waiter wa = { .fd = hsagpu_agent_fd(d->agent) }, wb;
	struct hsagpu_create_event ce = { .size = sizeof(ce) };
	struct hsagpu_event_id ev = { .size = sizeof(ev) };
	uint32_t irqs0;
	uint64_t linux0;
	long c0, c1;
	uint64_t t0;
	pthread_t ta, tb;
	int i;

	if (gtq_open(idx, &d2) != 1) {
		gtq_close(&d2);
		return;
	}
	wb = (struct file_waiter){ .fd = hsagpu_agent_fd(d2.agent) };
	qa = gtq_queue(d, 16, 0);
	qb = gtq_queue(&d2, 16, 0);
	sa = gtq_signal(d, 1);
	sb = gtq_signal(&d2, 1);
	gtq_arena_init(d, &ka, 4096);
	gtq_arena_init(&d2, &kb, 4096);
	if (!qa || !qb || !ka.base || !kb.base)
		goto out;
	wa.ev = hsagpu_signal_ptr(sa)->event_id;
	wb.ev = hsagpu_signal_ptr(sb)->event_id;
	DIAG("two files: queues %u and %u on vectors %u and %u of %u",
	     qa->id, qb->id, queue_vector(d, qa->id), queue_vector(d, qb->id),
	     d->info->msix_vectors);

	pthread_create(&ta, NULL, file_wait_thread, &wa);
	pthread_create(&tb, NULL, file_wait_thread, &wb);
	CHECK(file_waiter_asleep(&wa) && file_waiter_asleep(&wb),
	      "waiters did not fall asleep");
	t0 = gtq_now_ns();
	gtq_busy(qa, &ka, 100 * GTQ_MS, sa, 0);
	gtq_busy(qb, &kb, 600 * GTQ_MS, sb, 0);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	DIAG("file A woke after %.1f ms, file B after %.1f ms",
	     (wa.woke_ns - t0) / 1e6, (wb.woke_ns - t0) / 1e6);
	CHECK(wa.ret == 0 && wb.ret == 0, "waits returned %d and %d",
	      wa.ret, wb.ret);
	CHECK(wa.woke_ns - t0 < 5000 * GTQ_MS && wb.woke_ns - t0 < 5000 * GTQ_MS,
	      "a waiter was woken by its timeout, not its queue's interrupt");
	CHECK(wa.woke_ns < wb.woke_ns,
	      "file A's waiter woke only after file B's completion");

	if (queue_vector(d, qa->id) == queue_vector(d, qb->id) ||
	    ioctl(wa.fd, HSAGPU_IOC_CREATE_EVENT, &ce)) {
		DIAG("queues share a vector: no targeted-wake check");
		goto out;
	}
	/* A waits on an event nobody signals; B's queue completes 20 NOPs. */
	wa.ev = ce.event_id;
	wa.tid = 0;
	pthread_create(&ta, NULL, file_wait_thread, &wa);
	CHECK(file_waiter_asleep(&wa), "waiter A did not fall asleep");
	c0 = ctxt_switches(wa.tid);
	irqs0 = gtq_reg(d, HSAGPU_REG_PKT_IRQS);
	linux0 = gt_msi_irqs(d->pci);
	for (i = 0; i < 20; i++) {
		hsagpu_signal_store_release(sb, 1);
		gtq_agent(qb, HSAGPU_AGENT_NOP, NULL, 0, sb, 0);
		GTQ_WAIT(sb, 0, 5000);
	}
	c1 = ctxt_switches(wa.tid);
	DIAG("20 completions on file B (device IRQs +%u, Linux IRQs +%llu): file A's waiter switched %ld times",
	     gtq_reg(d, HSAGPU_REG_PKT_IRQS) - irqs0,
	     (unsigned long long)(gt_msi_irqs(d->pci) - linux0), c1 - c0);
	/* The device may merge interrupts that are raised close together. */
	CHECK(gtq_reg(d, HSAGPU_REG_PKT_IRQS) - irqs0 >= 10,
	      "B's 20 completions raised only %u interrupts",
	      gtq_reg(d, HSAGPU_REG_PKT_IRQS) - irqs0);
	CHECK(c0 >= 0 && c1 - c0 <= 3,
	      "file A's waiter was woken %ld times by file B's interrupts",
	      c1 - c0);
	ev.event_id = ce.event_id;
	CHECK(ioctl(wa.fd, HSAGPU_IOC_SET_EVENT, &ev) == 0, "SET_EVENT");
	pthread_join(ta, NULL);
	CHECK(wa.ret == 0, "waiter A after SET_EVENT: %d", wa.ret);
	ioctl(wa.fd, HSAGPU_IOC_DESTROY_EVENT, &ev);
out:
	hsagpu_signal_destroy(sa);
	hsagpu_signal_destroy(sb);
	if (qa)
		CHECK(hsagpu_queue_destroy(qa) == 0, "destroy A");
	if (qb)
		CHECK(hsagpu_queue_destroy(qb) == 0, "destroy B");
	gtq_close(&d2);
}

int main(void)
{
	int n = hsagpu_agent_count(), ran = 0;

	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	/* The first device: its interrupts and processes are what counts. */
	for (int i = 0; i < n && i < 1; i++) {
		struct gtq_dev d;

		if (gtq_open(i, &d) == 1) {
			ran++;
			test_blocked_wait(&d);
			test_cpu_wake(&d);
			test_set_event(&d);
			test_wait_events(&d);
			test_two_files(&d, i);
			test_fork(&d, i);
			test_kill(&d, i, 1);
			test_kill(&d, i, 0);
		}
		gtq_close(&d);
	}
	return gtq_result(ran, n < 1 ? n : 1);
}
