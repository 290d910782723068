// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-hsa-procs: more ROCr processes with a queue at once than the GPU has
 * VMIDs for compute processes (amdkfd gives them 8 of a gfx9's 16).
 * HSAT_PROCS processes (default 10) each load hsagpu-store42.co and make
 * a queue; when all have one, each dispatches hsagpu_count and checks
 * every word.
 *
 * - Under amdkfd's hardware scheduler (its default) the runlist is
 *   oversubscribed: the scheduler gives the processes turns (the
 *   device's quantum, docs/vega10.md), and every kernel must end right.
 *   Without turns the processes past the 8th wait for ever.
 * - Without it (amdgpu.sched_policy=2) amdkfd hands out VMIDs itself and
 *   refuses the queue of a process past them (or past its memory: a
 *   queue's context save area is some 20 MiB): that process must get a
 *   clean error, the others must all pass.
 * - The KFD facade gives each process a VMID of its own.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hsat.h"

#define MAX_PROCS       32
#define ITEMS           128
#define ITERS           (1u << 12)

/* what a child says on its pipe, and its exit status */
#define SAID_READY      'R'     /* has its queue, waits for the go */
#define SAID_NO_QUEUE   'Q'     /* the driver refused its queue */
#define SAID_FAILED     'F'     /* could not start */
#define EXIT_NO_QUEUE   2
#define EXIT_NO_START   3

/* One process: 0 its kernel ended right, EXIT_NO_QUEUE, EXIT_NO_START, or 1 */
static int child(const char *argv0, int go, int say)
{
	struct { uint64_t p; uint32_t iters; } args;
	hsa_kernel_dispatch_packet_t pkt;
	struct hsat_code c;
	static struct hsat h;
	uint32_t kasize = 0, *out;
	hsa_queue_t *q;
	hsa_signal_t s;
	uint64_t kobj;
	size_t len = 0;
	void *co, *ka;
	int bad = 0;
	char b;

	hsat_watchdog(240);
	co = hsat_read_file(argv0, "hsagpu-store42.co", &len);
	if (!co || hsat_init(&h) || hsat_code_load(&h.gpu[0], co, len, &c)) {
		b = SAID_FAILED;
		(void)!write(say, &b, 1);
		return EXIT_NO_START;
	}
	kobj = hsat_code_kernel(&h.gpu[0], &c, "hsagpu_count.kd", &kasize);
	hsat_phase("hsa_queue_create");
	if (!kobj || hsa_queue_create(h.gpu[0].agent, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL,
				      UINT32_MAX, UINT32_MAX, &q) != HSA_STATUS_SUCCESS) {
		b = kobj ? SAID_NO_QUEUE : SAID_FAILED;
		(void)!write(say, &b, 1);
		return kobj ? EXIT_NO_QUEUE : EXIT_NO_START;
	}
	b = SAID_READY;
	(void)!write(say, &b, 1);
	hsat_phase("waiting for the other processes");
	if (read(go, &b, 1) != 1)
		return 1;
	out = hsat_alloc(h.sys, ITEMS * 4);
	if (!out)
		return 1;
	memset(out, 0, ITEMS * 4);
	args.p = (uintptr_t)out;
	args.iters = ITERS;
	ka = hsat_kernarg(&h, &args, kasize > sizeof(args) ? kasize : sizeof(args));
	if (!ka || HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s)))
		return 1;
	hsat_dispatch_pkt(&pkt, kobj, ka, ITEMS, 64, s);
	hsat_phase("hsagpu_count");
	hsat_submit(q, &pkt);
	if (hsat_wait_below(s, 1, 180000, HSA_WAIT_STATE_BLOCKED, NULL)) {
		printf("# FAIL: process %d: its kernel did not end in 180 s\n", getpid());
		return 1;
	}
	for (int i = 0; i < ITEMS; i++)
		bad += out[i] != ITERS;
	if (bad)
		printf("# FAIL: process %d: %d words not %u\n", getpid(), bad, ITERS);
	hsat_phase("teardown");
	hsa_signal_destroy(s);
	HSAT_CHECK(hsat_queue_destroy(q));
	hsat_code_free(&c);
	HSAT_CHECK(hsat_shut_down());
	return bad ? 1 : gt_result();
}

/* amdkfd's scheduling policy (0: the hardware scheduler), -1: unknown */
static int sched_policy(void)
{
	FILE *f = fopen("/sys/module/amdgpu/parameters/sched_policy", "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

int main(int argc, char **argv)
{
	const char *np = getenv("HSAT_PROCS");
	int n = np ? atoi(np) : 10, go[2], say[2], ready = 0, noq = 0, failed = 0;
	int passed = 0, other = 0, policy = sched_policy();
	pid_t pid[MAX_PROCS];
	time_t t0 = time(NULL);

	(void)argc;
	if (n < 2 || n > MAX_PROCS)
		n = 10;
	if (hsat_need_kfd())
		return gt_result();
	if (pipe(go) || pipe(say)) {
		CHECK(0, "pipe: %s", strerror(errno));
		return gt_result();
	}
	fflush(stdout);
	for (int i = 0; i < n; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			close(go[1]);
			close(say[0]);
			_exit(child(argv[0], go[0], say[1]));
		}
		CHECK(pid[i] > 0, "fork: %s", strerror(errno));
		if (pid[i] < 0)
			n = i;
	}
	close(go[0]);
	close(say[1]);
	hsat_watchdog(400);
	hsat_phase("the processes");
	/* every process has its queue (or was refused one), within 200 s */
	for (int got = 0; got < n && time(NULL) - t0 < 200;) {
		struct pollfd p = { .fd = say[0], .events = POLLIN };
		char b;

		if (poll(&p, 1, 1000) <= 0)
			continue;
		if (read(say[0], &b, 1) != 1)
			break;
		got++;
		ready += b == SAID_READY;
		noq += b == SAID_NO_QUEUE;
		failed += b == SAID_FAILED;
	}
	DIAG("%d processes: %d with a queue, %d refused one, %d did not start "
	     "(amdgpu.sched_policy %d)", n, ready, noq, failed, policy);
	/* go: all at once */
	for (int i = 0; i < n; i++)
		(void)!write(go[1], "g", 1);
	close(go[1]);
	for (int i = 0; i < n; i++) {
		int st = 0;

		if (waitpid(pid[i], &st, 0) != pid[i] || !WIFEXITED(st))
			other++;
		else if (WEXITSTATUS(st) == 0)
			passed++;
		else if (WEXITSTATUS(st) != EXIT_NO_QUEUE &&
			 WEXITSTATUS(st) != EXIT_NO_START)
			other++;
	}
	DIAG("%d kernels ended right, %d processes failed", passed, other);
	CHECK(!other, "%d of %d processes failed after they had a queue", other, n);
	if (policy == 2) {
		/*
		 * amdkfd's own VMIDs (8 for processes) and memory: a process
		 * past them is refused a queue (its own, or ROCr's for its
		 * loader), cleanly; none that got one may fail
		 */
		CHECK(passed >= 1 && passed + noq + failed == n && passed <= 8,
		      "without the scheduler: %d passed, %d refused a queue, %d did not "
		      "start, of %d", passed, noq, failed, n);
	} else {
		CHECK(passed == n, "%d of %d processes ran their kernel right (%d refused a "
		      "queue, %d did not start)", passed, n, noq, failed);
	}
	return gt_result();
}
