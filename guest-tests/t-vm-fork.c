// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fork() and exit() with queues running, with GPU virtual memory.
 *
 * The parent has a queue, an allocation and registered malloc'd memory,
 * and keeps packets held behind a barrier. It forks:
 *  - the child's inherited file is not its own: GPU-VM ioctls (ALLOC_MEM,
 *    REGISTER_MEM, CREATE_QUEUE, QUEUE_STATUS) fail with EACCES, and so
 *    does mmap() of an allocation (its addresses are the parent's);
 *  - registered memory stays the parent's: after the fork both write
 *    their copy, then the parent's queue fills it; the parent sees the
 *    device's data, the child still sees its own (the pinned pages were
 *    not shared copy-on-write with the child);
 *  - the child opens the device itself, gets queues of its own (another
 *    VMID) and runs work, then exits with a BUSY kernel running and
 *    packets held behind a barrier on a second queue;
 *  - the parent's queues keep working throughout (the held packets run
 *    when the parent opens its gate, after the child is gone), its data
 *    is intact, the driver's live queue count goes back to the parent's,
 *    and the kernel log shows no problem.
 * A second child is killed (SIGKILL) while its queue is busy: the same.
 */
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "gtdev.h"
#include "gtdma.h"
#include "gtioctl.h"

#define MS 10000

static struct gtq_dev d;
static hsagpu_queue_t *q;
static struct gtq_arena arena;
static volatile uint64_t *mem;          /* parent's allocation */
static uint8_t *reg;                    /* parent's registered malloc memory */

/* In the child: every VM ioctl and mmap on the inherited file is EACCES. */
static int child_inherited(int fd, uint64_t mmap_off)
{
	struct hsagpu_alloc_mem am;
	struct hsagpu_register_mem rm = { .size = sizeof(rm), .bytes = 4096 };
	struct hsagpu_create_queue cq = { .size = sizeof(cq), .ring_size = 16 };
	struct hsagpu_queue_status st = { .size = sizeof(st), .queue_id = q->id };
	void *p;

	rm.addr = (uintptr_t)reg;
	cq.ring_addr = (uintptr_t)mem;
	cq.rptr_addr = (uintptr_t)mem + 2048;
	cq.wptr_addr = (uintptr_t)mem + 2056;
	EXPECT(gti_alloc(fd, HSAGPU_MEM_SYSTEM, 4096, &am), EACCES,
	       "child: ALLOC_MEM on the inherited file");
	EXPECT(gti_ioctl(fd, HSAGPU_IOC_REGISTER_MEM, &rm), EACCES,
	       "child: REGISTER_MEM on the inherited file");
	EXPECT(gti_ioctl(fd, HSAGPU_IOC_CREATE_QUEUE, &cq), EACCES,
	       "child: CREATE_QUEUE on the inherited file");
	EXPECT(gti_ioctl(fd, HSAGPU_IOC_QUEUE_STATUS, &st), EACCES,
	       "child: QUEUE_STATUS of the parent's queue");
	errno = 0;
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, mmap_off);
	CHECK(p == MAP_FAILED && errno == EACCES,
	      "child: mmap of the parent's allocation: %s",
	      p == MAP_FAILED ? strerror(errno) : "mapped");
	return gt_failures;
}

/* In the child: its own file, queues, work; exits with work in flight. */
static int child_own(int kill_me_pipe)
{
	struct gtq_dev c;
	hsagpu_queue_t *q1, *q2;
	hsagpu_signal_t s, gate;
	struct gtq_arena a;
	volatile uint64_t *m;
	char ch = 'R';

	if (gtq_open(0, &c) != 1)
		return 1;
	q1 = gtq_queue(&c, 16, 0);
	q2 = gtq_queue(&c, 16, 0);
	s = gtq_signal(&c, 1);
	gate = gtq_signal(&c, 1);
	m = gtq_alloc(&c, 4096, HSAGPU_RT_MEM_SYSTEM);
	gtq_arena_init(&c, &a, 4096);
	if (!q1 || !q2 || !m || !a.base)
		return 1;
	CHECK(gtq_reg(&c, HSAGPU_REG_QUEUE_X(q1->id) + HSAGPU_QXREG_VMID) !=
	      gtq_reg(&d, HSAGPU_REG_QUEUE_X(q->id) + HSAGPU_QXREG_VMID),
	      "child's queue in the parent's VMID");
	gtq_write(q1, &m[0], 0xc41d, s, 0);
	GTQ_WAIT(s, 0, MS);
	CHECK(m[0] == 0xc41d, "child: its own queue did not write");
	/* in flight at exit: a BUSY kernel, and packets behind a barrier */
	gtq_busy(q1, &a, 2000 * GTQ_MS, GTD_NONE, 0);
	gtq_write(q1, &m[1], 1, GTD_NONE, 1);
	gtq_barrier(q2, HSAGPU_PKT_TYPE_BARRIER_AND, &gate, 1, GTD_NONE, 0);
	gtq_write(q2, &m[2], 2, GTD_NONE, 1);
	if (kill_me_pipe >= 0) {
		CHECK(write(kill_me_pipe, &ch, 1) == 1, "tell the parent");
		pause();        /* SIGKILL comes */
	}
	return gt_failures ? 1 : 0;     /* exit without closing anything */
}

/* One byte from @fd within @ms; 0 or -1 */
static int read1(int fd, char *c, unsigned int ms)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };

	if (poll(&pf, 1, ms) != 1)
		return -1;
	return read(fd, c, 1) == 1 ? 0 : -1;
}

static void check_parent_queue(const char *when)
{
	hsagpu_signal_t s = gtq_signal(&d, 1);

	mem[5] = 0;
	__sync_synchronize();
	gtq_write(q, &mem[5], 0x9a9e47, s, 0);
	CHECK(gtq_wait_eq(s, 0, MS) && mem[5] == 0x9a9e47,
	      "parent's queue stuck %s", when);
	hsagpu_signal_destroy(s);
}

int main(void)
{
	int n = hsagpu_agent_count(), status = 0, k0, p[2];
	hsagpu_queue_t *held;
	hsagpu_signal_t gate, hdone;
	void *alloc;
	uint64_t mmap_off = 0;
	long active0;
	pid_t pid;
	char ch;

	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	if (n <= 0)
		return gt_result();
	if (gtq_open(0, &d) != 1) {
		gtq_close(&d);
		return gtq_result(0, 1);
	}
	k0 = gtk_mark();
	q = gtq_queue(&d, 64, 0);
	held = gtq_queue(&d, 16, 0);
	gate = gtq_signal(&d, 1);
	hdone = gtq_signal(&d, 1);
	mem = gtq_alloc(&d, 4096, HSAGPU_RT_MEM_SYSTEM);
	gtq_arena_init(&d, &arena, 4096);
	reg = aligned_alloc(4096, 8192);
	if (!q || !held || !mem || !reg || !arena.base) {
		gtq_close(&d);
		return gt_result();
	}
	{
		/* the offset of an allocation, for the child's mmap attempt */
		struct hsagpu_alloc_mem am;

		if (!gti_alloc(hsagpu_agent_fd(d.agent), HSAGPU_MEM_SYSTEM, 4096,
			       &am))
			mmap_off = am.mmap_offset;
		alloc = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			     hsagpu_agent_fd(d.agent), mmap_off);
		CHECK(alloc != MAP_FAILED, "parent mmap");
	}
	memset(reg, 0x11, 8192);
	CHECK(hsagpu_memory_register(d.agent, reg, 8192, 0) == 0, "register");
	/* held behind a gate the parent opens at the end */
	gtq_barrier(held, HSAGPU_PKT_TYPE_BARRIER_AND, &gate, 1, GTD_NONE, 0);
	gtq_write(held, &mem[7], 0x7e1d, hdone, 1);
	active0 = gtq_queues_active(&d);

	/* 1: inherited file, registered memory across fork, exit with work */
	if (pipe(p))
		return gt_result();
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		child_inherited(hsagpu_agent_fd(d.agent), mmap_off);
		/* the child's copy of the registered buffer */
		memset(reg, 0x22, 8192);
		CHECK(read1(p[0], &ch, 30000) == 0, "child: wait for the parent's fill");
		CHECK(gtd_find_not(reg, 8192, 0x22) == 8192,
		      "child: the device's fill of the parent's registered memory reached the child's copy (byte %zu)",
		      gtd_find_not(reg, 8192, 0x22));
		_exit(child_own(-1) || gt_failures ? 1 : 0);
	}
	close(p[0]);
	memset(reg, 0x33, 8192);        /* the parent writes its own copy */
	memset((void *)&mem[64], 0xab, 64);
	CHECK(gtd_run_copy(&d, q, (uintptr_t)reg, (uintptr_t)&mem[64], 64, MS),
	      "copy into the registered memory after fork");
	CHECK(gtd_find_not(reg, 64, 0xab) == 64 && reg[64] == 0x33,
	      "parent does not see the device's write to its registered memory (0x%02x 0x%02x)",
	      reg[0], reg[64]);
	CHECK(write(p[1], "F", 1) == 1, "tell the child");
	close(p[1]);
	CHECK(gt_wait_child(pid, &status, 60000) == 0 && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "child 1 failed (status 0x%x)", status);
	check_parent_queue("after a child exited with queues running");

	/* 2: a child killed while its queue is busy */
	if (pipe(p))
		return gt_result();
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		_exit(child_own(p[1]));
	}
	close(p[1]);
	CHECK(read1(p[0], &ch, 30000) == 0, "child 2 did not start");
	close(p[0]);
	check_parent_queue("while a child's queue is busy");
	kill(pid, SIGKILL);
	CHECK(gt_wait_child(pid, &status, 30000) == 0 && WIFSIGNALED(status),
	      "child 2 not killed (status 0x%x)", status);
	check_parent_queue("after a child was killed with queues running");

	/* the parent's held packets, its data, the queue count */
	CHECK(gtq_value(hdone) == 1 && mem[7] == 0,
	      "the parent's held packet ran before its gate opened");
	hsagpu_signal_store_release(gate, 0);
	GTQ_WAIT(hdone, 0, MS);
	CHECK(mem[7] == 0x7e1d, "the parent's held packet did not write");
	for (int i = 0; i < 100 && gtq_queues_active(&d) != active0; i++)
		gtq_sleep_ms(50);
	CHECK(gtq_queues_active(&d) == active0,
	      "queues_active %ld after the children, %ld before",
	      gtq_queues_active(&d), active0);
	CHECK(hsagpu_memory_unregister(d.agent, reg) == 0, "unregister");
	free(reg);
	if (alloc != MAP_FAILED)
		munmap(alloc, 4096);
	gtq_close(&d);
	CHECK(gtk_problems(k0, NULL) == 0, "kernel log problems");
	return gt_result();
}
