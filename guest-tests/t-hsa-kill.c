// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-hsa-kill: a ROCr process SIGKILLed while its queue runs a long
 * HSAGPU_KERNEL_BUSY (30 s) and holds packets behind it. Afterwards no
 * queue is left (on the facade: hsagpu's queues_active, which counts the
 * facade's queues too; on Linux's amdkfd, whose GPUs are not hsagpu's:
 * the queues of every process under /sys/class/kfd/kfd/proc, which
 * amdkfd removes with the process), the kernel log shows no problem, and
 * a new ROCr process (this one, which never touched HSA before the fork)
 * runs a kernel on every device and shuts down cleanly.
 */
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gtdev.h"
#include "hsat.h"

/* Queues of every process amdkfd knows, -1 without /dev/kfd's sysfs */
static int64_t amdkfd_queues(void)
{
	glob_t g;
	int64_t n;

	if (access("/sys/class/kfd/kfd/proc", F_OK))
		return -1;
	if (glob("/sys/class/kfd/kfd/proc/*/queues/*", 0, NULL, &g))
		return 0;
	n = g.gl_pathc;
	globfree(&g);
	return n;
}

static int64_t active_queues(char devs[GT_MAX_DEVS][16], int n)
{
	int64_t sum = 0;

	/* GPUs bound to amdgpu (hsat counts a Vega10 there too) */
	if (n > 0 && hsat_sysfs(devs[0], "queues_active") < 0)
		return amdkfd_queues();
	for (int i = 0; i < n; i++) {
		int64_t v = hsat_sysfs(devs[i], "queues_active");

		if (v < 0)
			return -1;
		sum += v;
	}
	return sum;
}

/* The victim gives up: what it printed must reach the log first */
static void child_fail(void)
{
	fflush(stdout);
	_exit(1);
}

/* The victim: a queue busy for 30 s with a FILL held behind it. */
static void child(int fd)
{
	struct hsat h;
	hsa_queue_t *q;
	hsa_kernel_dispatch_packet_t p;
	hsa_signal_t s;
	struct hsagpu_kargs_busy ba = { .ns = 30ULL * 1000 * 1000 * 1000 };
	uint32_t *word;
	struct hsagpu_kargs_fill fa;

	if (hsat_init(&h))
		child_fail();
	for (int i = 0; i < h.ngpu; i++) {
		if (HSAT_CHECK(hsa_queue_create(h.gpu[i].agent, 64, HSA_QUEUE_TYPE_MULTI, NULL,
						NULL, UINT32_MAX, UINT32_MAX, &q)) ||
		    HSAT_CHECK(hsa_signal_create(2, 0, NULL, &s)))
			child_fail();
		hsat_dispatch_pkt(&p, HSAGPU_KERNEL_BUSY, hsat_kernarg(&h, &ba, sizeof(ba)),
				  1, 1, s);
		hsat_submit(q, &p);
		word = hsat_alloc(h.sys, 64);
		fa = (struct hsagpu_kargs_fill){ .dst = (uintptr_t)word, .value = 1 };
		hsat_dispatch_pkt(&p, HSAGPU_KERNEL_FILL, hsat_kernarg(&h, &fa, sizeof(fa)),
				  16, 16, s);
		hsat_submit(q, &p);
	}
	if (write(fd, "R", 1) != 1)
		child_fail();
	for (;;)
		pause();
}

int main(void)
{
	char devs[GT_MAX_DEVS][16];
	int n = hsat_count_devices(devs), pfd[2], status, kmsg, amdkfd;
	int64_t before, after = -1;
	char c = 0;
	pid_t pid;
	struct hsat h;

	if (hsat_need_kfd())
		return gt_result();
	/* Linux's amdkfd: GPUs of amdgpu's, their queues amdkfd's */
	amdkfd = n > 0 && hsat_sysfs(devs[0], "queues_active") < 0;
	CHECK(n > 0, "no hsa-gpu bound to hsagpu or amdgpu");
	hsat_watchdog(240);
	kmsg = gtk_mark();
	CHECK(active_queues(devs, n) == 0, "queues active before the test: %lld",
	      (long long)active_queues(devs, n));
	if (pipe(pfd))
		return 1;
	/* fork before this process initialises HSA: ROCr state is per process */
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		child(pfd[1]);
	}
	close(pfd[1]);
	hsat_phase("waiting for the victim's dispatch");
	if (gt_read_full(pfd[0], &c, 1, 90000) || c != 'R') {
		CHECK(0, "the victim never dispatched (see its output above)");
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return gt_result();
	}
	before = active_queues(devs, n);
	DIAG("victim %d has dispatched: %lld queues active", pid, (long long)before);
	CHECK(before >= n, "%lld active queues with the victim's %d busy queues",
	      (long long)before, n);
	usleep(200 * 1000);
	kill(pid, SIGKILL);
	hsat_phase("reaping the victim");
	CHECK(!gt_wait_child(pid, &status, 30000), "the victim did not die in 30 s");
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	      "victim status 0x%x, not SIGKILL", status);
	hsat_phase("queues going away");
	for (int i = 0; i < 100; i++) {
		after = active_queues(devs, n);
		if (after == 0)
			break;
		usleep(100 * 1000);
	}
	CHECK(after == 0, "%lld queues still active 10 s after the victim died",
	      (long long)after);

	/* the device still works, for a new ROCr process */
	if (hsat_init(&h) == 0) {
		for (int i = 0; i < h.ngpu; i++) {
			hsa_queue_t *q;
			hsa_kernel_dispatch_packet_t p;
			hsa_signal_t s;
			uint32_t *buf = hsat_alloc(h.sys, 4096);
			struct hsagpu_kargs_fill fa = { .dst = (uintptr_t)buf, .value = 0x600d };
			int bad = 0;

			hsat_phase("a kernel after the kill");
			if (!buf || HSAT_CHECK(hsa_queue_create(h.gpu[i].agent, 64,
						HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
						UINT32_MAX, &q)))
				continue;
			memset(buf, 0, 4096);
			HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s));
			hsat_dispatch_pkt(&p, HSAGPU_KERNEL_FILL, hsat_kernarg(&h, &fa, sizeof(fa)),
					  1024, 256, s);
			hsat_submit(q, &p);
			CHECK(!hsat_wait_below(s, 1, 20000, HSA_WAIT_STATE_BLOCKED, NULL),
			      "%s: a kernel after the kill did not complete", h.gpu[i].pci);
			for (int k = 0; k < 1024; k++)
				bad += buf[k] != 0x600d;
			CHECK(!bad, "%s: %d of 1024 words wrong after the kill", h.gpu[i].pci,
			      bad);
			hsa_signal_destroy(s);
			HSAT_CHECK(hsat_queue_destroy(q));
		}
		hsat_phase("hsa_shut_down");
		HSAT_CHECK(hsat_shut_down());
		after = active_queues(devs, n);
		CHECK(after == 0, "%lld queues active after hsa_shut_down", (long long)after);
	}
	CHECK(gtk_problems(kmsg, amdkfd ? "amdgpu" : "hsagpu") == 0,
	      "kernel log problems (above)");
	return gt_result();
}
