// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-kfd-kill: a process killed while its KFD queue is busy (a dispatch
 * of the built-in BUSY kernel in flight and a barrier waiting behind it)
 * leaves nothing running: by the time its parent reaps it the hardware
 * queue is destroyed (debugfs queues_active back to what it was), and a
 * new process gets a queue that works. The same with the process
 * exiting normally without destroying its queue or closing /dev/kfd.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gt.h"
#include "gtdev.h"
#include "gtkfd.h"

/* In the child: a queue kept busy; 0 on the pipe when it runs. */
static void child(int wfd, int do_exit)
{
	struct hsagpu_kernel_dispatch_packet kd;
	struct hsagpu_barrier_packet b;
	struct hsagpu_kargs_busy *ka;
	struct gtkfd_queue q;
	struct gtkfd k;
	char c = 1;
	int i;

	if (gtkfd_open(&k) || gtkfd_queue_create(&k, &q))
		_exit(2);
	ka = (struct hsagpu_kargs_busy *)((uint8_t *)q.bo.p + 32768);
	ka->ns = 30ULL * 1000 * 1000 * 1000;
	memset(&kd, 0, sizeof(kd));
	kd.header = HSAGPU_PKT_TYPE_KERNEL_DISPATCH << HSAGPU_PKT_HDR_TYPE_SHIFT;
	kd.setup = 1;
	kd.workgroup_size_x = kd.workgroup_size_y = kd.workgroup_size_z = 1;
	kd.grid_size_x = kd.grid_size_y = kd.grid_size_z = 1;
	kd.kernel_object = HSAGPU_KERNEL_BUSY;
	kd.kernarg_address = (uintptr_t)ka;
	gtkfd_queue_submit(&q, &kd);
	memset(&b, 0, sizeof(b));
	b.header = HSAGPU_PKT_TYPE_BARRIER_AND << HSAGPU_PKT_HDR_TYPE_SHIFT |
		   HSAGPU_PKT_HDR_BARRIER;
	for (i = 0; i < 8; i++)
		gtkfd_queue_submit(&q, &b);
	c = 0;
	if (write(wfd, &c, 1) != 1)
		_exit(3);
	if (do_exit)
		_exit(0);
	for (;;)
		pause();
}

static void round_trip(int do_exit)
{
	uint64_t active0 = gtkfd_debugfs_sum("queues_active"), during;
	int fds[2], status;
	char c = 1;
	pid_t pid;

	if (pipe(fds))
		return;
	pid = fork();
	if (!pid) {
		close(fds[0]);
		child(fds[1], do_exit);
	}
	close(fds[1]);
	CHECK(read(fds[0], &c, 1) == 1 && c == 0, "child did not start its queue");
	close(fds[0]);
	during = gtkfd_debugfs_sum("queues_active");
	if (!do_exit) {
		CHECK(during == active0 + 1, "queues_active %llu while the child runs, was %llu",
		      (unsigned long long)during, (unsigned long long)active0);
		kill(pid, SIGKILL);
	}
	CHECK(!gt_wait_child(pid, &status, 60000), "child not reaped");
	CHECK(do_exit ? WIFEXITED(status) && !WEXITSTATUS(status) :
	      WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child status 0x%x", status);
	CHECK(gtkfd_debugfs_sum("queues_active") == active0,
	      "%s: queues_active %llu after the child, was %llu",
	      do_exit ? "exit" : "kill",
	      (unsigned long long)gtkfd_debugfs_sum("queues_active"),
	      (unsigned long long)active0);
}

int main(void)
{
	struct hsagpu_barrier_packet b;
	struct gtkfd_queue q;
	struct gtkfd k;
	int e, i;

	e = gtkfd_open(&k);
	if (e)
		return gt_skip("no KFD GPU (boot with hsagpu_test.kfd=1): %s", strerror(-e));
	gtkfd_close(&k);
	round_trip(0);
	round_trip(1);

	/* and the device still runs a new process's queue */
	e = gtkfd_open(&k);
	EXPECT(-e, 0, "open /dev/kfd again");
	e = e ? e : gtkfd_queue_create(&k, &q);
	EXPECT(-e, 0, "a queue after the kills");
	if (!e) {
		memset(&b, 0, sizeof(b));
		b.header = HSAGPU_PKT_TYPE_BARRIER_AND << HSAGPU_PKT_HDR_TYPE_SHIFT;
		gtkfd_queue_submit(&q, &b);
		for (i = 0; i < 10000 && gtkfd_queue_rptr(&q) < 1; i++)
			usleep(1000);
		CHECK(gtkfd_queue_rptr(&q) == 1, "the new queue did not run its packet");
		EXPECT(-gtkfd_queue_destroy(&k, &q), 0, "DESTROY_QUEUE");
	}
	return gt_result();
}
