// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Malformed packets: each class puts its queue into the error state with
 * its HSAGPU_QERR_* code and the failing packet's dispatch id; packets
 * before it ran, packets after it did not; the device reports the queue
 * (QUEUE_ERROR_FIRST, PKT_ERRORS, the error interrupt); another queue
 * keeps working throughout; destroying the broken queue works. With GPU
 * virtual memory an address nothing is mapped at is a VM fault (the
 * address, the kernel client and the access in QUEUE_STATUS).
 */
#include <stdlib.h>

#include "gtq.h"

#define NONE ((hsagpu_signal_t){ 0 })

struct env {
	struct gtq_dev *d;
	hsagpu_queue_t *good;           /* the healthy queue */
	volatile uint64_t *mem;         /* scratch, system memory */
	uint8_t *kargs;                 /* 16-byte aligned kernarg area */
	hsagpu_signal_t sig;
	int cases;
};

enum kind { K_DISPATCH, K_AGENT, K_BARRIER, K_OVERRUN };

struct bad {
	const char *what;
	unsigned int err;                   /* HSAGPU_QERR_* expected */
	enum kind kind;
	unsigned int type;                  /* header type */
	unsigned int acq, rel;              /* fence scopes */
	/* kernel dispatch */
	uint64_t kobj;
	unsigned int dims;                  /* setup field */
	uint32_t grid[3];
	uint16_t wg[3];
	int karg_off;                   /* kernarg address + this */
	int karg_bad;                   /* kernarg at GTQ_BAD_ADDR */
	int buf_off;                    /* FILL/ATOMIC_INC target + this */
	int buf_bad;                    /* target at GTQ_BAD_ADDR */
	/* agent dispatch */
	unsigned int agent_type;
	/* with GPU VM: a VM fault of the kernel client, this access */
	int vm_access;                  /* HSAGPU_VM_ACCESS_* + 1, 0: none */
	/* completion signal handle + this */
	int sig_off;
};

#define KD HSAGPU_PKT_TYPE_KERNEL_DISPATCH
#define SYS HSAGPU_FENCE_SCOPE_SYSTEM
#define FILL_1D .kobj = HSAGPU_KERNEL_FILL, .dims = 1, .grid = { 64, 1, 1 }, \
	.wg = { 64, 1, 1 }

static const struct bad bads[] = {
	{ "packet type 7", HSAGPU_QERR_PACKET_TYPE, K_DISPATCH, 7, SYS, SYS, FILL_1D },
	{ "packet type 255", HSAGPU_QERR_PACKET_TYPE, K_DISPATCH, 255, SYS, SYS, FILL_1D },
	{ "grid x 0", HSAGPU_QERR_DIMENSIONS, K_DISPATCH, KD, SYS, SYS,
	  .kobj = HSAGPU_KERNEL_FILL, .dims = 1, .grid = { 0, 1, 1 }, .wg = { 64, 1, 1 } },
	{ "grid z 0 in 3-D", HSAGPU_QERR_DIMENSIONS, K_DISPATCH, KD, SYS, SYS,
	  .kobj = HSAGPU_KERNEL_FILL, .dims = 3, .grid = { 4, 4, 0 }, .wg = { 2, 2, 2 } },
	{ "workgroup x 0", HSAGPU_QERR_DIMENSIONS, K_DISPATCH, KD, SYS, SYS,
	  .kobj = HSAGPU_KERNEL_FILL, .dims = 1, .grid = { 64, 1, 1 }, .wg = { 0, 1, 1 } },
	{ "dimensions field 0", HSAGPU_QERR_DIMENSIONS, K_DISPATCH, KD, SYS, SYS,
	  .kobj = HSAGPU_KERNEL_FILL, .dims = 0, .grid = { 64, 1, 1 }, .wg = { 64, 1, 1 } },
	{ "1-D with grid y 2", HSAGPU_QERR_DIMENSIONS, K_DISPATCH, KD, SYS, SYS,
	  .kobj = HSAGPU_KERNEL_FILL, .dims = 1, .grid = { 8, 2, 1 }, .wg = { 8, 1, 1 } },
	{ "2-D with workgroup z 2", HSAGPU_QERR_DIMENSIONS, K_DISPATCH, KD, SYS, SYS,
	  .kobj = HSAGPU_KERNEL_FILL, .dims = 2, .grid = { 8, 8, 1 }, .wg = { 4, 4, 2 } },
	{ "workgroup 2048 items", HSAGPU_QERR_DIMENSIONS, K_DISPATCH, KD, SYS, SYS,
	  .kobj = HSAGPU_KERNEL_FILL, .dims = 2, .grid = { 64, 64, 1 }, .wg = { 64, 32, 1 } },
	{ "unmapped kernarg", HSAGPU_QERR_ADDRESS, K_DISPATCH, KD, SYS, SYS, FILL_1D,
	  .karg_bad = 1, .vm_access = HSAGPU_VM_ACCESS_READ + 1 },
	{ "unmapped FILL buffer", HSAGPU_QERR_ADDRESS, K_DISPATCH, KD, SYS, SYS, FILL_1D,
	  .buf_bad = 1, .vm_access = HSAGPU_VM_ACCESS_WRITE + 1 },
	{ "kernarg + 8", HSAGPU_QERR_ALIGNMENT, K_DISPATCH, KD, SYS, SYS, FILL_1D,
	  .karg_off = 8 },
	{ "FILL buffer + 2", HSAGPU_QERR_ALIGNMENT, K_DISPATCH, KD, SYS, SYS, FILL_1D,
	  .buf_off = 2 },
	{ "ATOMIC_INC counter + 4", HSAGPU_QERR_ALIGNMENT, K_DISPATCH, KD, SYS, SYS,
	  .kobj = HSAGPU_KERNEL_ATOMIC_INC, .dims = 1, .grid = { 4, 1, 1 },
	  .wg = { 4, 1, 1 }, .buf_off = 4 },
	{ "signal + 4", HSAGPU_QERR_SIGNAL, K_DISPATCH, KD, SYS, SYS, FILL_1D,
	  .sig_off = 4 },
	{ "kernel object 99", HSAGPU_QERR_KERNEL_OBJECT, K_DISPATCH, KD, SYS, SYS,
	  .kobj = HSAGPU_KERNEL_OBJECT(99), .dims = 1, .grid = { 64, 1, 1 },
	  .wg = { 64, 1, 1 } },
	{ "kernel object 0", HSAGPU_QERR_KERNEL_OBJECT, K_DISPATCH, KD, SYS, SYS,
	  .kobj = 0, .dims = 1, .grid = { 64, 1, 1 }, .wg = { 64, 1, 1 } },
	{ "kernel object without magic", HSAGPU_QERR_KERNEL_OBJECT, K_DISPATCH, KD,
	  SYS, SYS, .kobj = 1, .dims = 1, .grid = { 64, 1, 1 }, .wg = { 64, 1, 1 } },
	{ "acquire fence scope 3", HSAGPU_QERR_FENCE, K_BARRIER,
	  HSAGPU_PKT_TYPE_BARRIER_AND, 3, SYS, .kobj = 0 },
	{ "release fence scope 3", HSAGPU_QERR_FENCE, K_DISPATCH, KD, SYS, 3, FILL_1D },
	/* byte 2 (a barrier packet's reserved field: 0) is no vendor format */
	{ "VENDOR_SPECIFIC packet of format 0", HSAGPU_QERR_VENDOR_FORMAT,
	  K_BARRIER,
	  HSAGPU_PKT_TYPE_VENDOR_SPECIFIC, SYS, SYS, .kobj = 0 },
	{ "agent function 99", HSAGPU_QERR_AGENT_FUNCTION, K_AGENT,
	  HSAGPU_PKT_TYPE_AGENT_DISPATCH, SYS, SYS, .agent_type = 99 },
	{ "write index behind read index", HSAGPU_QERR_RING_OVERRUN, K_OVERRUN, .type = 0 },
};

static uint16_t header(const struct bad *b)
{
	return (b->type & HSAGPU_PKT_HDR_TYPE_MASK) |
	       (b->acq << HSAGPU_PKT_HDR_ACQUIRE_SHIFT) |
	       (b->rel << HSAGPU_PKT_HDR_RELEASE_SHIFT);
}

/* Submit the bad packet; returns its dispatch id. */
static int64_t submit_bad(struct env *e, hsagpu_queue_t *q,
			  const struct bad *b, hsagpu_signal_t bsig)
{
	uint64_t sig = bsig.handle + b->sig_off;
	int64_t id;

	if (b->kind == K_OVERRUN) {
		uint64_t r = hsagpu_queue_load_read_index(q);

		/*
		 * A write index behind the read index: no producer can do
		 * that (running ahead of the free space is legal HSA).
		 */
		CHECK(r >= 1, "overrun: nothing consumed yet");
		q->desc->write_dispatch_id = r - 1;
		__sync_synchronize();
		hsagpu_queue_ring_doorbell(q, r - 1);
		return r;
	}
	if (b->kind == K_DISPATCH) {
		struct hsagpu_kernel_dispatch_packet pkt;
		uint8_t *ka = e->kargs + b->karg_off;
		uint64_t target = (uintptr_t)&e->mem[64] + b->buf_off;

		if (b->buf_bad)
			target = GTQ_BAD_ADDR;
		/* FILL's dst and ATOMIC_INC's counter are both the first field. */
		memset(ka, 0, 32);
		memcpy(ka, &target, 8);
		memset(&pkt, 0, sizeof(pkt));
		pkt.setup = b->dims;
		pkt.workgroup_size_x = b->wg[0];
		pkt.workgroup_size_y = b->wg[1];
		pkt.workgroup_size_z = b->wg[2];
		pkt.grid_size_x = b->grid[0];
		pkt.grid_size_y = b->grid[1];
		pkt.grid_size_z = b->grid[2];
		pkt.kernel_object = b->kobj;
		pkt.kernarg_address = b->karg_bad ? GTQ_BAD_ADDR :
				      (uintptr_t)ka;
		pkt.completion_signal = sig;
		id = hsagpu_queue_submit(q, &pkt, header(b));
	} else if (b->kind == K_AGENT) {
		struct hsagpu_agent_dispatch_packet pkt;

		memset(&pkt, 0, sizeof(pkt));
		pkt.type = b->agent_type;
		pkt.return_address = (uintptr_t)&e->mem[64];
		pkt.completion_signal = sig;
		id = hsagpu_queue_submit(q, &pkt, header(b));
	} else {
		struct hsagpu_barrier_packet pkt;

		memset(&pkt, 0, sizeof(pkt));
		pkt.completion_signal = sig;
		id = hsagpu_queue_submit(q, &pkt, header(b));
	}
	CHECK(id >= 0, "%s: submit %lld", b->what, (long long)id);
	return id;
}

/* One packet on the healthy queue runs. */
static void check_good(struct env *e, const char *when)
{
	hsagpu_signal_store_release(e->sig, 1);
	e->mem[1] = 0;
	gtq_write(e->good, &e->mem[1], 0x900d0000ULL + e->cases, e->sig, 0);
	CHECK(gtq_wait_eq(e->sig, 0, 3000) &&
	      e->mem[1] == 0x900d0000ULL + e->cases,
	      "healthy queue stuck %s (signal %lld)", when,
	      (long long)gtq_value(e->sig));
}

static void run_bad(struct env *e, const struct bad *b)
{
	struct gtq_dev *d = e->d;
	hsagpu_queue_t *q = gtq_queue(d, 16, 0);
	hsagpu_signal_t before = gtq_signal(d, 2), bsig = gtq_signal(d, 1);
	hsagpu_signal_t after = gtq_signal(d, 1);
	uint32_t errs0 = gtq_reg(d, HSAGPU_REG_PKT_ERRORS), err = 0;
	uint64_t eid = ~0ULL, irq0 = 0, irq = 0;
	unsigned int want = d->vm && b->vm_access ? HSAGPU_QERR_VM_FAULT :
			    b->err;
	struct hsagpu_queue_status st;
	int64_t id;
	int state = -1;

	e->cases++;
	gt_debugfs_u64(d->pci, "error_irqs", &irq0);
	if (!q)
		return;
	for (int i = 0; i < 8; i++)
		e->mem[8 + i] = 0;
	e->mem[64] = 0x7777777777777777ULL;
	__sync_synchronize();
	/* Good packets first: they must run, the error is only the bad one. */
	gtq_write(q, &e->mem[8], 1, before, 0);
	gtq_write(q, &e->mem[9], 2, before, 0);
	GTQ_WAIT(before, 0, 3000);
	id = submit_bad(e, q, b, bsig);
	if (b->kind != K_OVERRUN) {
		struct hsagpu_agent_dispatch_packet pkt;
		uint64_t args[4] = { 3, 0, 0, 0 };

		/* May be refused (-EIO) if the queue already failed. */
		hsagpu_packet_agent(&pkt, HSAGPU_AGENT_WRITE_VALUE,
				    (uintptr_t)&e->mem[10], args, after);
		hsagpu_queue_submit(q, &pkt,
				    GTQ_HDR(HSAGPU_PKT_TYPE_AGENT_DISPATCH, 0));
	}
	for (int i = 0; i < 300; i++) {
		state = hsagpu_queue_state(q, &err, &eid);
		if (state == HSAGPU_QSTATE_ERROR)
			break;
		gtq_sleep_ms(10);
	}
	DIAG("%-28s -> state %d error %u id %llu (bad packet %lld)", b->what,
	     state, err, (unsigned long long)eid, (long long)id);
	CHECK(state == HSAGPU_QSTATE_ERROR, "%s: queue state %d, not ERROR",
	      b->what, state);
	CHECK(err == want, "%s: error %u, expected %u", b->what, err, want);
	if (want == HSAGPU_QERR_VM_FAULT && !gtq_status(q, &st))
		gtq_check_fault(b->what, &st, q->id, GTQ_BAD_ADDR,
				GTQ_BAD_ADDR + 4096, HSAGPU_VM_CLIENT_KERNEL,
				b->vm_access - 1, HSAGPU_VM_REASON_NOT_PRESENT);
	CHECK(eid == (uint64_t)id, "%s: error dispatch id %llu, bad packet %lld",
	      b->what, (unsigned long long)eid, (long long)id);
	CHECK(e->mem[8] == 1 && e->mem[9] == 2, "%s: earlier packets did not run",
	      b->what);
	CHECK(e->mem[10] == 0 && gtq_value(after) == 1,
	      "%s: the packet after the bad one ran", b->what);
	CHECK(gtq_value(bsig) == 1, "%s: bad packet's signal completed",
	      b->what);
	/* Validation comes before execution, also for the signal. */
	CHECK(e->mem[64] == 0x7777777777777777ULL,
	      "%s: bad packet wrote its target", b->what);
	CHECK(gtq_reg(d, HSAGPU_REG_QUEUE_ERROR_FIRST) == q->id,
	      "%s: QUEUE_ERROR_FIRST %u, queue %u", b->what,
	      gtq_reg(d, HSAGPU_REG_QUEUE_ERROR_FIRST), q->id);
	CHECK(gtq_reg(d, HSAGPU_REG_PKT_ERRORS) - errs0 == 1,
	      "%s: PKT_ERRORS advanced by %u", b->what,
	      gtq_reg(d, HSAGPU_REG_PKT_ERRORS) - errs0);
	for (int i = 0; i < 100; i++) {
		gt_debugfs_u64(d->pci, "error_irqs", &irq);
		if (irq > irq0)
			break;
		gtq_sleep_ms(10);
	}
	CHECK(irq > irq0, "%s: no error interrupt (error_irqs %llu)", b->what,
	      (unsigned long long)irq);

	check_good(e, "while a queue is in error");
	CHECK(hsagpu_queue_destroy(q) == 0, "%s: destroy the broken queue",
	      b->what);
	CHECK(gtq_reg(d, HSAGPU_REG_QUEUE_ERROR_FIRST) == 0xffffffffU,
	      "%s: QUEUE_ERROR_FIRST %u after destroy", b->what,
	      gtq_reg(d, HSAGPU_REG_QUEUE_ERROR_FIRST));
	check_good(e, "after destroying the broken queue");
	hsagpu_signal_destroy(before);
	hsagpu_signal_destroy(bsig);
	hsagpu_signal_destroy(after);
}

int main(void)
{
	int n = hsagpu_agent_count();
	struct gtq_dev d;
	struct env e = { .d = &d };
	long active0;

	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	if (n <= 0)
		return gt_result();
	if (gtq_open(0, &d) != 1) {
		gtq_close(&d);
		return gtq_result(0, 1);
	}
	active0 = gtq_queues_active(&d);
	e.good = gtq_queue(&d, 64, 0);
	e.mem = gtq_alloc(&d, 4096, HSAGPU_RT_MEM_SYSTEM);
	e.kargs = gtq_alloc(&d, 4096, HSAGPU_RT_MEM_SYSTEM);
	e.sig = gtq_signal(&d, 1);
	if (e.good && e.mem && e.kargs) {
		for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++)
			run_bad(&e, &bads[i]);
		uint32_t err = 0;
		uint64_t eid = 0;

		CHECK(hsagpu_queue_state(e.good, &err, &eid) == HSAGPU_QSTATE_ACTIVE,
		      "healthy queue not ACTIVE at the end (error %u)", err);
		CHECK(hsagpu_queue_destroy(e.good) == 0, "destroy healthy queue");
		CHECK(gtq_queues_active(&d) == active0, "queues_active %ld, was %ld",
		      gtq_queues_active(&d), active0);
	}
	gtq_close(&d);
	return gt_result();
}
