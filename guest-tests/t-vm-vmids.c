// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * More processes than VMIDs. A file holds one of the 15 translated
 * VMIDs while it has queues; with all of them held by other files,
 * CREATE_QUEUE fails with ENOSPC (the documented behaviour: no rebinding
 * of VMIDs across processes), and works again as soon as one is given
 * back, by destroying the last queue or by exiting.
 *
 * Sixteen processes each open the device and create a queue, one after
 * the other: the first fifteen get queues in fifteen different VMIDs
 * (read back from the queue's QXREG_VMID) and each runs a packet; the
 * sixteenth gets ENOSPC, with its file open. One process destroys its
 * queue (its file stays open): the sixteenth's retry now works, and its
 * queue runs. A seventeenth process gets ENOSPC; one process exits with
 * its queue (not destroyed): the seventeenth's retry works. Everything
 * is gone afterwards (the driver's queue count) and the kernel log is
 * clean. Needs a device with at least 16 queues (15 in use and one free
 * when ENOSPC is expected, so that no other limit answers).
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "gtdev.h"
#include "gtq.h"

#define NVM (HSAGPU_VM_NUM_VMIDS - 1)
#define NPROC (NVM + 2)
#define MS 30000

struct reply {
	int32_t ret;
	uint32_t qid;
};

struct kid {
	pid_t pid;
	int to, from;
	int has_queue;
	uint32_t qid;
};

static struct gtq_dev d;
static struct kid kids[NPROC];

/* A child: open, create a queue, answer commands. */
static void child(int rd, int wr)
{
	hsagpu_agent_t *a = NULL;
	hsagpu_queue_t *q = NULL;
	hsagpu_signal_t s = { 0 };
	volatile uint64_t *m = NULL;
	struct reply r = { 0 };
	char cmd;

	r.ret = hsagpu_agent_open(0, &a);
	if (!r.ret)
		r.ret = hsagpu_signal_create(a, 1, &s);
	if (!r.ret)
		r.ret = hsagpu_memory_allocate(a, 4096, HSAGPU_RT_MEM_SYSTEM,
					       (void **)&m);
	if (!r.ret) {
		r.ret = hsagpu_queue_create(a, 16, 0, 0, &q);
		if (!r.ret)
			r.qid = q->id;
	}
	if (write(wr, &r, sizeof(r)) != sizeof(r))
		_exit(2);
	while (gt_read_full(rd, &cmd, 1, 600000) == 0) {
		r.ret = 0;
		switch (cmd) {
		case 'W': {             /* one packet on the queue */
			struct hsagpu_agent_dispatch_packet pkt;
			uint64_t args[4] = { 0x7a5c + (uint64_t)getpid() };

			if (!q) {
				r.ret = -ENOENT;
				break;
			}
			hsagpu_signal_store_release(s, 1);
			m[0] = 0;
			hsagpu_packet_agent(&pkt, HSAGPU_AGENT_WRITE_VALUE,
					    (uintptr_t)m, args, s);
			if (hsagpu_queue_submit(q, &pkt,
				GTQ_HDR(HSAGPU_PKT_TYPE_AGENT_DISPATCH, 0)) < 0 ||
			    hsagpu_signal_wait_acquire(s, HSAGPU_SIGNAL_CONDITION_EQ,
						       0, 10 * 1000000000ULL,
						       HSAGPU_WAIT_STATE_BLOCKED) ||
			    m[0] != args[0])
				r.ret = -EIO;
			break;
		}
		case 'C':               /* (try to) create the queue again */
			if (!q) {
				r.ret = hsagpu_queue_create(a, 16, 0, 0, &q);
				r.qid = r.ret ? 0 : q->id;
			}
			break;
		case 'D':               /* destroy it, keep the file */
			r.ret = q ? hsagpu_queue_destroy(q) : -ENOENT;
			q = NULL;
			break;
		case 'X':               /* exit with whatever is there */
			_exit(0);
		}
		if (write(wr, &r, sizeof(r)) != sizeof(r))
			_exit(2);
	}
	_exit(3);
}

static int spawn(int i)
{
	int to[2], from[2];
	struct reply r;

	if (pipe(to) || pipe(from))
		return -EMFILE;
	kids[i].pid = fork();
	if (kids[i].pid == 0) {
		close(to[1]);
		close(from[0]);
		child(to[0], from[1]);
	}
	close(to[0]);
	close(from[1]);
	kids[i].to = to[1];
	kids[i].from = from[0];
	if (kids[i].pid < 0 || gt_read_full(kids[i].from, &r, sizeof(r), MS))
		return -ECHILD;
	kids[i].has_queue = r.ret == 0;
	kids[i].qid = r.qid;
	return r.ret;
}

static int ask(int i, char cmd, struct reply *r)
{
	if (write(kids[i].to, &cmd, 1) != 1 ||
	    gt_read_full(kids[i].from, r, sizeof(*r), MS))
		return -ECHILD;
	return r->ret;
}

static uint32_t vmid_of(uint32_t qid)
{
	return gtq_reg(&d, HSAGPU_REG_QUEUE_X(qid) + HSAGPU_QXREG_VMID);
}

int main(void)
{
	int n = hsagpu_agent_count(), ret, k0, status;
	uint32_t seen = 0;
	struct reply r;
	long active0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	if (n <= 0)
		return gt_result();
	ret = gtq_open(0, &d);
	if (ret != 1) {
		gtq_close(&d);
		return gtq_result(0, 1);
	}
	/* at most 15 queues live at once, plus one free: ENOSPC is the VMIDs' */
	if (d.info->num_queues < NVM + 1)
		return gt_skip("%s has %u queues: fewer than the %d that leave one free with every VMID held",
			       d.pci, d.info->num_queues, NVM + 1);
	k0 = gtk_mark();
	active0 = gtq_queues_active(&d);

	/* 15 processes get queues in 15 VMIDs */
	for (int i = 0; i < NVM; i++) {
		ret = spawn(i);
		CHECK(ret == 0, "process %d: CREATE_QUEUE %d", i, ret);
		if (ret)
			goto out;
		uint32_t v = vmid_of(kids[i].qid);

		CHECK(v >= 1 && v <= NVM && !(seen & (1U << v)),
		      "process %d: queue %u in VMID %u (held already: 0x%x)", i,
		      kids[i].qid, v, seen);
		seen |= 1U << v;
	}
	for (int i = 0; i < NVM; i++)
		CHECK(ask(i, 'W', &r) == 0, "process %d: its queue did not run: %d", i,
		      r.ret);
	/* the 16th: ENOSPC, its file open */
	ret = spawn(NVM);
	CHECK(ret == -ENOSPC, "process %d: CREATE_QUEUE with every VMID held: %d, expected %d",
	      NVM, ret, -ENOSPC);
	/* one gives its VMID back by destroying its queue */
	CHECK(ask(3, 'D', &r) == 0, "process 3: destroy: %d", r.ret);
	kids[3].has_queue = 0;
	ret = ask(NVM, 'C', &r);
	CHECK(ret == 0, "process %d: CREATE_QUEUE after a VMID came back: %d", NVM, ret);
	if (!ret) {
		kids[NVM].has_queue = 1;
		kids[NVM].qid = r.qid;
		CHECK(vmid_of(r.qid) >= 1 && vmid_of(r.qid) <= NVM,
		      "process %d: VMID %u", NVM, vmid_of(r.qid));
		CHECK(ask(NVM, 'W', &r) == 0, "process %d: its queue did not run", NVM);
	}
	/* the 17th: ENOSPC; then one exits with its queue */
	ret = spawn(NVM + 1);
	CHECK(ret == -ENOSPC, "process %d: CREATE_QUEUE with every VMID held: %d",
	      NVM + 1, ret);
	if (write(kids[4].to, "X", 1) == 1)
		CHECK(gt_wait_child(kids[4].pid, &status, MS) == 0,
		      "process 4 did not exit");
	kids[4].pid = 0;
	ret = ask(NVM + 1, 'C', &r);
	CHECK(ret == 0, "process %d: CREATE_QUEUE after a process exited: %d",
	      NVM + 1, ret);
	if (!ret)
		CHECK(ask(NVM + 1, 'W', &r) == 0, "process %d: its queue did not run",
		      NVM + 1);
out:
	for (int i = 0; i < NPROC; i++) {
		if (kids[i].pid <= 0)
			continue;
		if (write(kids[i].to, "X", 1) != 1 ||
		    gt_wait_child(kids[i].pid, &status, MS)) {
			kill(kids[i].pid, SIGKILL);
			waitpid(kids[i].pid, &status, 0);
		}
		close(kids[i].to);
		close(kids[i].from);
	}
	for (int i = 0; i < 100 && gtq_queues_active(&d) != active0; i++)
		gtq_sleep_ms(50);
	CHECK(gtq_queues_active(&d) == active0, "queues_active %ld, was %ld",
	      gtq_queues_active(&d), active0);
	gtq_close(&d);
	CHECK(gtk_problems(k0, NULL) == 0, "kernel log problems");
	return gt_result();
}
