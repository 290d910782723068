// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Device removal while a process is using it (sysfs unbind, as a hot
 * unplug does it): a worker has a queue running a long BUSY kernel, a
 * thread asleep in WAIT_EVENTS, its doorbell page and a VRAM allocation
 * mapped. After the unbind the sleeper returns ENODEV, ioctls fail with
 * ENODEV, the BAR mappings (doorbell, VRAM) raise SIGBUS, system memory
 * stays readable, and closing everything afterwards is clean. Rebinding
 * brings the device back and a new queue runs. The harness fails the
 * boot on any oops or warning in the kernel log.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "gtq.h"

static sigjmp_buf fault_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(fault_jmp, 1);
}

/* 1 if touching @p (a read, or a 64-bit write of @val) raises SIGBUS. */
static int faults(volatile uint64_t *p, int write, uint64_t val)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	int hit = 0;

	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(fault_jmp, 1))
		hit = 1;
	else if (write)
		*p = val;
	else
		(void)*p;
	sigaction(SIGBUS, &old, NULL);
	return hit;
}

struct sleeper {
	int fd;
	uint32_t event;
	int err;                /* errno of WAIT_EVENTS, 0 if it succeeded */
	int done;
};

static void *sleeper_thread(void *arg)
{
	struct sleeper *sl = arg;
	struct hsagpu_wait_events w = {
		.size = sizeof(w),
		.events_ptr = (uintptr_t)&sl->event,
		.num_events = 1,
		.timeout_ms = HSAGPU_WAIT_INFINITE,
	};

	sl->err = ioctl(sl->fd, HSAGPU_IOC_WAIT_EVENTS, &w) ? errno : 0;
	__atomic_store_n(&sl->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * The worker: sets everything up, says "r", waits for the parent's "go"
 * (sent after the unbind), then reports
 * "<sleeper errno> <ioctl errno> <vram sigbus> <doorbell sigbus> <sysmem ok>".
 */
static void worker(int idx, int wfd, int gofd)
{
	struct hsagpu_device_info info = { .size = sizeof(info) };
	struct sleeper sl = { 0 };
	volatile uint64_t *vram, *sys;
	struct hsagpu_kargs_busy *k;
	hsagpu_agent_t *a;
	hsagpu_queue_t *q;
	hsagpu_signal_t s;
	struct timespec until;
	pthread_t th;
	char msg[96], go;
	int joined, e_ioctl, f_vram, f_db, sys_ok;

	if (hsagpu_agent_open(idx, &a) ||
	    hsagpu_memory_allocate(a, 4096, HSAGPU_RT_MEM_SYSTEM, (void **)&sys) ||
	    hsagpu_memory_allocate(a, 4096, HSAGPU_RT_MEM_VRAM, (void **)&vram) ||
	    hsagpu_signal_create(a, 1, &s) || hsagpu_queue_create(a, 16, 0, 0, &q))
		_exit(2);
	sys[0] = 0x5157;
	vram[0] = 0x7a11;
	k = (void *)(sys + 8);
	k->ns = 10000 * GTQ_MS;
	if (gtq_dispatch1(q, HSAGPU_KERNEL_BUSY, k, 1, 1, s, 0) < 0)
		_exit(3);
	sl.fd = hsagpu_agent_fd(a);
	sl.event = hsagpu_signal_ptr(s)->event_id;
	if (!sl.event || pthread_create(&th, NULL, sleeper_thread, &sl))
		_exit(4);
	if (write(wfd, "r", 1) != 1 || read(gofd, &go, 1) != 1)
		_exit(5);

	/* The device is gone now. */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 10;
	joined = !pthread_timedjoin_np(th, NULL, &until);
	e_ioctl = ioctl(sl.fd, HSAGPU_IOC_GET_INFO, &info) ? errno : 0;
	f_vram = faults(vram, 0, 0);
	f_db = faults((volatile uint64_t *)q->doorbell, 1, 1);
	sys_ok = !faults(sys, 0, 0) && sys[0] == 0x5157;
	snprintf(msg, sizeof(msg), "%d %d %d %d %d\n",
		 joined ? sl.err : -1, e_ioctl, f_vram, f_db, sys_ok);
	if (write(wfd, msg, strlen(msg)) < 0)
		_exit(6);
	/* Tear down through the library on a removed device, then exit. */
	if (joined) {
		hsagpu_queue_destroy(q);
		hsagpu_signal_destroy(s);
		hsagpu_agent_close(a);
	}
	_exit(0);
}

static int read_line(int fd, char *buf, size_t len, int timeout_ms)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	size_t got = 0;

	while (got < len - 1 && poll(&pf, 1, timeout_ms) == 1) {
		ssize_t n = read(fd, buf + got, len - 1 - got);

		if (n <= 0)
			break;
		got += n;
		if (buf[got - 1] == '\n' || (got == 1 && buf[0] == 'r'))
			break;
	}
	buf[got] = 0;
	return got;
}

int main(void)
{
	int n = hsagpu_agent_count(), pfd[2], gfd[2], status = 0;
	int e_wait = -2, e_ioctl = -2, f_vram = -2, f_db = -2, sys_ok = -2;
	char msg[96], path[96];
	struct gtq_dev d;
	pid_t pid;

	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	if (n <= 0)
		return gt_result();
	if (gtq_open(0, &d) != 1) {
		gtq_close(&d);
		return gt_skip("no queues on this platform: nothing live to unbind");
	}
	snprintf(path, sizeof(path), "%s", d.pci);
	gtq_close(&d);

	if (pipe(pfd) || pipe(gfd))
		return 1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		close(gfd[1]);
		worker(0, pfd[1], gfd[0]);
	}
	close(pfd[1]);
	close(gfd[0]);
	CHECK(read_line(pfd[0], msg, sizeof(msg), 10000) == 1 && msg[0] == 'r',
	      "worker did not get ready: '%s'", msg);
	/* Give the sleeper time to reach WAIT_EVENTS; correct either way. */
	gtq_sleep_ms(100);

	CHECK(gt_sysfs_write("/sys/bus/pci/drivers/hsagpu/unbind", path) == 0,
	      "unbind %s with a live user", path);
	CHECK(write(gfd[1], "g", 1) == 1, "go");
	CHECK(read_line(pfd[0], msg, sizeof(msg), 20000) > 0 &&
	      sscanf(msg, "%d %d %d %d %d", &e_wait, &e_ioctl, &f_vram, &f_db,
		     &sys_ok) == 5, "no report from the worker: '%s'", msg);
	CHECK(e_wait == ENODEV, "WAIT_EVENTS sleeper: errno %d, expected ENODEV (-1: still asleep)",
	      e_wait);
	CHECK(e_ioctl == ENODEV, "ioctl after removal: errno %d, expected ENODEV",
	      e_ioctl);
	CHECK(f_vram == 1, "VRAM mapping readable after removal");
	CHECK(f_db == 1, "doorbell page writable after removal");
	CHECK(sys_ok == 1, "system memory mapping lost at removal");
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "worker ended with status 0x%x", status);
	close(pfd[0]);
	close(gfd[1]);

	/* Back again, and a queue runs. */
	CHECK(gt_sysfs_write("/sys/bus/pci/drivers/hsagpu/bind", path) == 0,
	      "bind %s", path);
	if (gtq_open(0, &d) == 1) {
		hsagpu_queue_t *q = gtq_queue(&d, 16, 0);
		volatile uint64_t *slot = gtq_alloc(&d, 4096, HSAGPU_RT_MEM_SYSTEM);
		hsagpu_signal_t s = gtq_signal(&d, 1);

		if (q && slot) {
			gtq_write(q, slot, 0xb0b, s, 0);
			GTQ_WAIT(s, 0, 3000);
			CHECK(*slot == 0xb0b, "queue after rebind did not run");
			CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
		}
		hsagpu_signal_destroy(s);
	} else {
		CHECK(0, "device not usable after rebind");
	}
	gtq_close(&d);
	DIAG("%s unbound under a live user: sleeper ENODEV, ioctl ENODEV, BAR mappings SIGBUS, system memory kept; rebound and working",
	     path);
	return gt_result();
}
