// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for the AQL packet processor and the built-in kernels
 * (hsagpu-queue.c, hsagpu-kernels.c) against a fake bus: a buffer
 * standing for guest memory, host atomics, a settable clock. TAP output.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/cp/hsagpu-cp.h"
#include "hw/hsagpu/gcn/hsagpu-gcn.h"
#include "hsagpu/hsagpu_ctx.h"

#include "tap.h"

#include "fakebus.h"

static struct hsagpu_kernel_dispatch_packet kpkt(uint64_t obj, unsigned dims,
						 const uint32_t g[3],
						 const uint16_t w[3],
						 uint64_t sig)
{
	struct hsagpu_kernel_dispatch_packet k;

	memset(&k, 0, sizeof(k));
	k.header = hdr(HSAGPU_PKT_TYPE_KERNEL_DISPATCH, 0);
	k.setup = dims;
	k.workgroup_size_x = w[0];
	k.workgroup_size_y = w[1];
	k.workgroup_size_z = w[2];
	k.grid_size_x = g[0];
	k.grid_size_y = g[1];
	k.grid_size_z = g[2];
	k.kernel_object = obj;
	k.kernarg_address = KARG;
	k.completion_signal = sig;
	return k;
}

static struct hsagpu_barrier_packet bpkt(unsigned type, int barrier,
					 uint64_t d0, uint64_t d1, uint64_t sig)
{
	struct hsagpu_barrier_packet b;

	memset(&b, 0, sizeof(b));
	b.header = hdr(type, barrier);
	b.dep_signal[0] = d0;
	b.dep_signal[3] = d1;
	b.completion_signal = sig;
	return b;
}

/* The same bus without direct access: kernels run row by row. */
static const HsaGpuQueueOps ops_rows = {
	f_read, f_write, f_add, f_now, f_irq, f_dma, f_dma_done, f_select, NULL,
	f_sdma_packet, NULL, NULL, NULL, NULL, NULL,
};
static const HsaGpuProc proc_rows = { &ops_rows, NULL, &ident, NULL };

static HsaGpuRunResult run_rows(void)
{
	HsaGpuRunResult r;

	hsagpu_queue_run(&q, &proc_rows, 1000, &r);
	return r;
}

/* More queues next to fakebus.h's q: rings and descriptors of their own. */
#define XRING(i) (MEM_BASE + 0x40000 + 0x400 * (i))
#define XDESC(i) (MEM_BASE + 0x48000 + 0x100 * (i))
#define XQUEUES  4

static HsaGpuQueue xq[XQUEUES];
static uint64_t xwptr[XQUEUES];

static void xq_setup(unsigned i, uint32_t prio)
{
	HsaGpuQueue *x = &xq[i];

	memset(x, 0, sizeof(*x));
	for (int n = 0; n < RING_SZ; n++)
		*(uint16_t *)at(XRING(i) + 64 * n) = HSAGPU_PKT_TYPE_INVALID;
	*(uint64_t *)at(XDESC(i) + HSAGPU_QUEUE_DESC_RPTR) = 0;
	*(uint64_t *)at(XDESC(i) + HSAGPU_QUEUE_DESC_WPTR) = 0;
	hsagpu_queue_doorbell(&xq[i]);
	x->ring_lo = (uint32_t)XRING(i);
	x->ring_size = RING_SZ;
	x->rptr_lo = (uint32_t)(XDESC(i) + HSAGPU_QUEUE_DESC_RPTR);
	x->wptr_lo = (uint32_t)(XDESC(i) + HSAGPU_QUEUE_DESC_WPTR);
	x->doorbell = i + 1;
	x->priority = prio;
	x->vector = 1;
	hsagpu_queue_start(x, 0);
	xwptr[i] = 0;
}

static void xq_submit(unsigned i, const void *pkt)
{
	uint8_t *slot = at(XRING(i) + 64 * (xwptr[i] % RING_SZ));

	memcpy(slot + 4, (const uint8_t *)pkt + 4, 60);
	memcpy(slot, pkt, 4);
	xwptr[i]++;
	*(uint64_t *)at(XDESC(i) + HSAGPU_QUEUE_DESC_WPTR) = xwptr[i];
	hsagpu_queue_doorbell(&xq[i]);
}

static HsaGpuRunResult xq_run(unsigned i)
{
	HsaGpuRunResult r;

	hsagpu_queue_run(&xq[i], &proc, 1000, &r);
	return r;
}

static struct hsagpu_agent_dispatch_packet apkt(unsigned type, uint64_t ret,
						uint64_t sig)
{
	struct hsagpu_agent_dispatch_packet a;

	memset(&a, 0, sizeof(a));
	a.header = hdr(HSAGPU_PKT_TYPE_AGENT_DISPATCH, 0);
	a.type = type;
	a.return_address = ret;
	a.completion_signal = sig;
	return a;
}

/* A dispatch's geometry: dimensions, grid, workgroup. */
struct kgeo {
	unsigned dims;
	uint32_t g[3];
	uint16_t w[3];
};

/* Every kernel over 1-D, 2-D and 3-D grids with partial workgroups. */
static void test_kernels(void)
{
	static const struct kgeo geo[] = {
		{ 1, { 1000, 1, 1 }, { 64, 1, 1 } },
		{ 2, { 37, 19, 1 }, { 8, 4, 1 } },
		{ 3, { 7, 5, 9 }, { 4, 2, 4 } },
		{ 1, { 3, 1, 1 }, { 256, 1, 1 } },
	};

	for (unsigned gi = 0; gi < 4; gi++) {
		uint32_t n = geo[gi].g[0] * geo[gi].g[1] * geo[gi].g[2];
		uint32_t *a = at(BUF(0)), *c = at(BUF(2));
		float *fa = at(BUF(0)), *fb = at(BUF(1));
		struct hsagpu_kernel_dispatch_packet k;
		int ok = 1;

		q_setup(0);
		for (uint32_t i = 0; i < n + 4; i++) {
			a[i] = i * 3 + 1;
			c[i] = 0xdeadbeef;
		}
		/* fill */
		*(struct hsagpu_kargs_fill *)at(KARG) =
			(struct hsagpu_kargs_fill){ .dst = BUF(2), .value = 9 };
		k = kpkt(HSAGPU_KERNEL_FILL, geo[gi].dims, geo[gi].g, geo[gi].w, 0);
		submit(&k);
		run();
		for (uint32_t i = 0; i < n; i++)
			ok &= c[i] == 9;
		T(ok && c[n] == 0xdeadbeef && q.state == HSAGPU_QSTATE_ACTIVE);
		/* copy */
		*(struct hsagpu_kargs_copy *)at(KARG) =
			(struct hsagpu_kargs_copy){ .dst = BUF(2), .src = BUF(0) };
		k.kernel_object = HSAGPU_KERNEL_COPY;
		submit(&k);
		run();
		ok = 1;
		for (uint32_t i = 0; i < n; i++)
			ok &= c[i] == i * 3 + 1;
		T(ok && c[n] == 0xdeadbeef);
		/* vadd and saxpy on floats */
		for (uint32_t i = 0; i < n; i++) {
			fa[i] = (float)i;
			fb[i] = 0.5f * i;
		}
		*(struct hsagpu_kargs_vadd *)at(KARG) = (struct hsagpu_kargs_vadd){
			.a = BUF(0), .b = BUF(1), .c = BUF(2) };
		k.kernel_object = HSAGPU_KERNEL_VADD;
		submit(&k);
		run();
		ok = 1;
		for (uint32_t i = 0; i < n; i++)
			ok &= ((float *)c)[i] == 1.5f * i;
		T(ok);
		*(struct hsagpu_kargs_saxpy *)at(KARG) = (struct hsagpu_kargs_saxpy){
			.a = 2.0f, .x = BUF(0), .y = BUF(1) };
		k.kernel_object = HSAGPU_KERNEL_SAXPY;
		submit(&k);
		run();
		ok = 1;
		for (uint32_t i = 0; i < n; i++)
			ok &= fb[i] == 2.5f * i;
		T(ok);
		/* ids: workgroup and local ids from the geometry */
		*(struct hsagpu_kargs_ids *)at(KARG) =
			(struct hsagpu_kargs_ids){ .dst = BUF(2) };
		k.kernel_object = HSAGPU_KERNEL_IDS;
		submit(&k);
		run();
		ok = 1;
		for (uint32_t z = 0; z < geo[gi].g[2]; z++)
			for (uint32_t y = 0; y < geo[gi].g[1]; y++)
				for (uint32_t x = 0; x < geo[gi].g[0]; x++) {
					const uint16_t *w = geo[gi].w;
					uint32_t nwx = (geo[gi].g[0] + w[0] - 1) / w[0];
					uint32_t nwy = (geo[gi].g[1] + w[1] - 1) / w[1];
					uint32_t wgid = x / w[0] + (y / w[1]) * nwx +
							(z / w[2]) * nwx * nwy;
					uint32_t lid = x % w[0] + (y % w[1]) * w[0] +
						       (z % w[2]) * w[0] * w[1];
					uint32_t i = x + y * geo[gi].g[0] +
						     z * geo[gi].g[0] * geo[gi].g[1];

					ok &= c[i] == (wgid << 16 | lid);
				}
		T(ok);
		/* atomic increment: one per work-item */
		*(uint64_t *)at(BUF(3)) = 5;
		*(struct hsagpu_kargs_atomic_inc *)at(KARG) =
			(struct hsagpu_kargs_atomic_inc){ .counter = BUF(3) };
		k.kernel_object = HSAGPU_KERNEL_ATOMIC_INC;
		submit(&k);
		run();
		T(*(uint64_t *)at(BUF(3)) == 5 + n);
		T(q.state == HSAGPU_QSTATE_ACTIVE && q.retired == 6 &&
		  *(uint64_t *)at(RPTR) == 6);
	}
}

/* Completion: decrement, timestamps, mailbox + interrupt, ids, headers. */
static void test_completion(void)
{
	static const uint32_t g[3] = { 1, 1, 1 };
	static const uint16_t w[3] = { 1, 1, 1 };
	struct hsagpu_kernel_dispatch_packet k;
	struct hsagpu_signal *s;
	HsaGpuRunResult r;

	q_setup(HSAGPU_QF_PROFILE);
	sig_init(0, 2);
	s = at(SIG(0));
	s->event_mailbox_ptr = MBOX;
	s->event_id = 42;
	*(struct hsagpu_kargs_fill *)at(KARG) =
		(struct hsagpu_kargs_fill){ .dst = BUF(0), .value = 1 };
	k = kpkt(HSAGPU_KERNEL_FILL, 1, g, w, SIG(0));
	submit(&k);
	now = 5000;
	r = run();
	T(r.completed == 1 && !r.error);
	T(sig_val(0) == 1);
	T(s->start_ts == 5000 && s->end_ts == 5000);
	T(*(uint64_t *)at(MBOX) == 42 && irqs == 1 && last_vector == 3);
	T(*(uint16_t *)at(RING) == HSAGPU_PKT_TYPE_INVALID);
	T(*(uint64_t *)at(RPTR) == 1 && q.read_index == 1);
	/* Not published yet: header INVALID stops the processor. */
	*(uint64_t *)at(WPTR) = 2;
	hsagpu_queue_doorbell(&q);
	r = run();
	T(r.progress == 0 && q.read_index == 1 && q.state == HSAGPU_QSTATE_ACTIVE);
	*(uint64_t *)at(WPTR) = 1;
	hsagpu_queue_doorbell(&q);
	wptr = 1;
	/* Ring wrap: 3 x ring size packets, each completing. */
	atomics = 0;
	for (int i = 0; i < 3 * RING_SZ; i++) {
		submit(&k);
		run();
	}
	T(sig_val(0) == 1 - 3 * RING_SZ && q.read_index == 1 + 3 * RING_SZ);
	T(*(uint64_t *)at(RPTR) == 1 + 3 * RING_SZ);
	/* Batched packets without signals share one read-index AtomicOp. */
	k.completion_signal = 0;
	atomics = 0;
	for (int i = 0; i < RING_SZ; i++)
		submit(&k);
	run();
	T(atomics == 1 && *(uint64_t *)at(RPTR) == 1 + 4 * RING_SZ);
	/* Slots reserved far beyond the free space are not an overrun. */
	*(uint64_t *)at(WPTR) = wptr + 10 * RING_SZ;
	hsagpu_queue_doorbell(&q);
	r = run();
	T(!r.error && q.state == HSAGPU_QSTATE_ACTIVE && r.progress == 0);
	*(uint64_t *)at(WPTR) = wptr;
	hsagpu_queue_doorbell(&q);
}

/* Barrier bit and asynchronous busy kernels. */
static void test_barrier_bit(void)
{
	static const uint32_t g[3] = { 1, 1, 1 };
	static const uint16_t w[3] = { 1, 1, 1 };
	struct hsagpu_kernel_dispatch_packet busy, quick;
	HsaGpuRunResult r;

	for (int barrier = 0; barrier < 2; barrier++) {
		q_setup(HSAGPU_QF_PROFILE);
		sig_init(0, 1);
		sig_init(1, 1);
		*(struct hsagpu_kargs_busy *)at(KARG) =
			(struct hsagpu_kargs_busy){ .ns = 10000 };
		*(struct hsagpu_kargs_fill *)at(KARG + 64) =
			(struct hsagpu_kargs_fill){ .dst = BUF(0), .value = 7 };
		busy = kpkt(HSAGPU_KERNEL_BUSY, 1, g, w, SIG(0));
		quick = kpkt(HSAGPU_KERNEL_FILL, 1, g, w, SIG(1));
		quick.kernarg_address = KARG + 64;
		quick.header = hdr(HSAGPU_PKT_TYPE_KERNEL_DISPATCH, barrier);
		submit(&busy);
		submit(&quick);
		r = run();
		T(sig_val(0) == 1 && r.deadline == 11000);
		/* Without the barrier bit the quick packet overtakes. */
		T(sig_val(1) == (barrier ? 1 : 0));
		now = 11000;
		r = run();
		T(sig_val(0) == 0 && sig_val(1) == 0);
		if (barrier)
			T(((struct hsagpu_signal *)at(SIG(1)))->start_ts >=
			  ((struct hsagpu_signal *)at(SIG(0)))->end_ts);
		T(*(uint64_t *)at(RPTR) == 2 && q.retired == 2);
	}
}

/*
 * A queue preempted while a busy kernel is in flight (issue 30: amdkfd's
 * scheduler unmaps every queue of a process at each runlist change, and
 * ROCr's timed blit was in flight 1 time in 4 on a loaded host): the
 * drain completes it, so its signal is not lost with the queue, and the
 * read index it published stays right for the queue mapped again.
 */
static void test_quiesce(void)
{
	static const uint32_t g[3] = { 1, 1, 1 };
	static const uint16_t w[3] = { 1, 1, 1 };
	struct hsagpu_kernel_dispatch_packet busy;
	HsaGpuRunResult r;
	unsigned err;

	q_setup(HSAGPU_QF_PROFILE);
	sig_init(0, 1);
	*(struct hsagpu_kargs_busy *)at(KARG) =
		(struct hsagpu_kargs_busy){ .ns = 10000 };
	busy = kpkt(HSAGPU_KERNEL_BUSY, 1, g, w, SIG(0));
	submit(&busy);
	r = run();
	T(sig_val(0) == 1 && q.ninflight == 1 && q.read_index == 1);
	T(*(uint16_t *)at(RING) == HSAGPU_PKT_TYPE_INVALID);
	now = 2000;
	err = hsagpu_queue_quiesce(&q, &proc, &r);
	TM(!err && sig_val(0) == 0 && q.ninflight == 0 && r.completed == 1,
	   "drained: the busy kernel's signal %lld, %u in flight (err %u)",
	   (long long)sig_val(0), q.ninflight, err);
	T(*(uint64_t *)at(RPTR) == 1 && q.rptr_unpublished == 0);
	/* nothing in flight: a drain changes nothing */
	err = hsagpu_queue_quiesce(&q, &proc, &r);
	T(!err && r.completed == 0 && sig_val(0) == 0 &&
	  *(uint64_t *)at(RPTR) == 1);
}

/*
 * Global wave sync on a queue given GWS (issue 30: amdkfd's GWS queue,
 * HIP's cooperative launches): four one-wave workgroups meet at a
 * ds_gws_barrier for four waves (bar_val 3). One workgroup in flight
 * could never pass it: the dispatch completes only because waiting
 * workgroups step aside while the next ones start. Waiting for a fifth
 * wave that does not exist fails the queue (TRAP) instead of hanging it;
 * a queue without GWS refuses the instruction.
 */
#define GWS_KD   (MEM_BASE + 0x40000)
/* @part: submitted, not run */
static void gws_dispatch(uint32_t num_gws, uint32_t bar_val, bool part)
{
	static const uint32_t g[3] = { 4, 1, 1 };
	static const uint16_t w[3] = { 1, 1, 1 };
	/*
	 * llvm-mc -mcpu=gfx900: v_mov_b32 v1, bar_val; s_movk_i32 s0,
	 * 0x1800; loop: s_sub_u32 s0, s0, 1; s_cmp_lg_u32 s0, 0;
	 * s_cbranch_scc1 loop (18,432 instructions: each wave spans slices,
	 * so a dispatch is seen part-way); s_mov_b32 m0, 0; ds_gws_barrier
	 * v1 gds; s_waitcnt lgkmcnt(0); s_endpgm
	 */
	const uint32_t code[] = {
		0x7e020280 | (bar_val & 0x3f), 0xb0001800, 0x80808100,
		0xbf078000, 0xbf85fffd, 0xbefc0080, 0xd93b0000, 0x00000001,
		0xbf8cc07f, 0xbf810000,
	};
	struct hsagpu_kernel_dispatch_packet k;
	uint32_t *kd;

	q_setup(0);
	q.num_gws = num_gws;
	/* as ROCclr's ds_gws_init kernel leaves it before the launch */
	q.gws = calloc(1, sizeof(*q.gws));
	q.gws->counter[0] = bar_val;
	sig_init(0, 1);
	kd = at(GWS_KD);
	memset(kd, 0, 64);
	kd[4] = 0x100;                  /* the code, 256 bytes on */
	kd[12] = 0x000f0000;            /* rsrc1: 4 VGPRs, denormals kept */
	memcpy(at(GWS_KD + 0x100), code, sizeof(code));
	k = kpkt(GWS_KD, 1, g, w, SIG(0));
	submit(&k);
	if (!part)
		run_kernel_out();
}

static void test_gws_dispatch(void)
{
	gws_dispatch(64, 3, false);
	TM(q.state == HSAGPU_QSTATE_ACTIVE && sig_val(0) == 0 &&
	   q.read_index == 1 && !q.grid.nwait,
	   "4 workgroups through one GWS barrier: state %u signal %lld, %u "
	   "left waiting (error %u %s)", q.state, (long long)sig_val(0),
	   q.grid.nwait, q.error, q.gcn_what ? q.gcn_what : "-");
	/* released once, reloaded with the last wave's bar_val */
	T(q.gws && q.gws->gen[0] == 1 && q.gws->counter[0] == 3);
	hsagpu_queue_gcn_free(&q);

	gws_dispatch(64, 4, false);
	TM(q.state == HSAGPU_QSTATE_ERROR && q.error == HSAGPU_QERR_TRAP &&
	   q.gcn_what && strstr(q.gcn_what, "GWS") && !q.grid.nwait,
	   "a GWS barrier for 5 waves of 4: error %u (%s), %u left waiting",
	   q.error, q.gcn_what ? q.gcn_what : "-", q.grid.nwait);
	hsagpu_queue_gcn_free(&q);

	gws_dispatch(0, 3, false);
	TM(q.state == HSAGPU_QSTATE_ERROR &&
	   q.error == HSAGPU_QERR_ILLEGAL_INSTRUCTION,
	   "ds_gws_barrier on a queue without GWS: error %u", q.error);
	hsagpu_queue_gcn_free(&q);
}

/*
 * A GWS dispatch saved in the middle (migration): the workgroups waiting
 * and the one in flight come back from the bytes and the dispatch ends
 * as it would have; bytes cut short or changed are refused.
 */
static void test_gws_migrate(void)
{
	uint8_t *blob;
	uint32_t len;
	int n;

	/* a slice at a time until some workgroups wait */
	gws_dispatch(64, 3, true);
	for (n = 0; n < 1000 && q.grid.nwait < 2 && q.state ==
	     HSAGPU_QSTATE_ACTIVE; n++)
		run();
	TM(q.grid.nwait >= 1 && q.kern_active, "%u workgroups waiting mid-dispatch",
	   q.grid.nwait);
	hsagpu_queue_gcn_save(&q);
	T(q.gcn_blob != NULL);
	len = q.gcn_blob_len;
	blob = malloc(len);
	memcpy(blob, q.gcn_blob, len);
	/* a byte short: refused */
	q.gcn_blob_len = len - 1;
	T(!hsagpu_queue_gcn_load(&q));
	/* whole: loaded, and the dispatch ends */
	q.gcn_blob = malloc(len);
	memcpy(q.gcn_blob, blob, len);
	q.gcn_blob_len = len;
	T(hsagpu_queue_gcn_load(&q) && q.grid.nwait >= 1);
	run_kernel_out();
	TM(q.state == HSAGPU_QSTATE_ACTIVE && sig_val(0) == 0 && !q.grid.nwait,
	   "the migrated GWS dispatch ends: state %u signal %lld", q.state,
	   (long long)sig_val(0));
	free(blob);
	hsagpu_queue_gcn_free(&q);
}

/* Wave instructions run until the dispatch at the read index ends */
static uint64_t insns_out(void)
{
	uint64_t insns = 0;

	for (int n = 0; n < 100000 && (n == 0 || q.kern_active) &&
	     q.state == HSAGPU_QSTATE_ACTIVE; n++)
		insns += run().gcn_insns;
	return insns;
}

/*
 * A queue preempted mid-dispatch (amdkfd's evictions, the scheduler's
 * runlist changes) saves its context, workgroups waiting on GWS and the
 * GWS counters included, and goes on from it when it runs again: the
 * dispatch ends having run exactly the instructions of one that was never
 * preempted, not its finished part a second time. A record saved at
 * another read index, for a rewritten packet, or damaged, is refused.
 */
static void test_ctx_save(void)
{
	uint8_t *rec, *bad, pkt[64];
	uint64_t whole, part = 0;
	uint32_t cnt;
	size_t len;
	int n;

	gws_dispatch(64, 3, true);
	whole = insns_out();
	T(q.state == HSAGPU_QSTATE_ACTIVE && sig_val(0) == 0);
	hsagpu_queue_gcn_free(&q);

	gws_dispatch(64, 3, true);
	for (n = 0; n < 1000 && q.grid.nwait < 1 && q.state ==
	     HSAGPU_QSTATE_ACTIVE; n++)
		part += run().gcn_insns;
	TM(q.grid.nwait >= 1 && q.kern_active && part && part < whole,
	   "preempted part-way: %llu of %llu instructions, %u waiting",
	   (unsigned long long)part, (unsigned long long)whole, q.grid.nwait);
	memcpy(pkt, at(RING + 64 * (q.read_index % RING_SZ)), sizeof(pkt));
	T(q.gws);
	cnt = q.gws->counter[0];
	len = hsagpu_queue_ctx_save(&q, pkt, &rec);
	T(len > sizeof(struct hsagpu_ctx_record) && q.kern_active && !q.gcn_blob);

	/* the queue is unmapped: its processor state goes */
	hsagpu_queue_gcn_free(&q);
	q.kern_active = 0;
	T(!hsagpu_queue_ctx_save(&q, pkt, &bad) && !bad);

	/* refused: another read index, a rewritten packet, damage */
	q.read_index++;
	T(hsagpu_queue_ctx_load(&q, rec, len, pkt) != NULL && !q.kern_active);
	q.read_index--;
	pkt[8] ^= 1;
	T(hsagpu_queue_ctx_load(&q, rec, len, pkt) != NULL && !q.kern_active);
	pkt[8] ^= 1;
	T(hsagpu_queue_ctx_load(&q, rec, len - 1, pkt) != NULL);
	bad = malloc(len);
	memcpy(bad, rec, len);
	bad[sizeof(struct hsagpu_ctx_record)] ^= 0xff;
	T(hsagpu_queue_ctx_load(&q, bad, len, pkt) != NULL && !q.kern_active &&
	  !q.gcn_blob);
	free(bad);

	/* taken back: the dispatch goes on and ends */
	hsagpu_queue_gcn_free(&q);
	T(hsagpu_queue_ctx_load(&q, rec, len, pkt) == NULL && q.kern_active &&
	  q.grid.nwait >= 1 && q.gws && q.gws->counter[0] == cnt);
	part += insns_out();
	TM(q.state == HSAGPU_QSTATE_ACTIVE && sig_val(0) == 0 && part == whole,
	   "the restored dispatch ends: state %u signal %lld, %llu instructions "
	   "in all, %llu unpreempted", q.state, (long long)sig_val(0),
	   (unsigned long long)part, (unsigned long long)whole);
	T(q.gws->gen[0] == 1);
	free(rec);

	/* a queue with only GWS counters (between dispatches) keeps them */
	len = hsagpu_queue_ctx_save(&q, pkt, &rec);
	T(len == sizeof(struct hsagpu_ctx_record));
	hsagpu_queue_gcn_free(&q);
	T(!hsagpu_queue_ctx_load(&q, rec, len, pkt) && !q.kern_active && q.gws &&
	  q.gws->gen[0] == 1 && q.gws->counter[0] == 3);
	free(rec);
	hsagpu_queue_gcn_free(&q);
}

/* BARRIER_AND waits for all dependencies, BARRIER_OR for any. */
static void test_barrier_packets(void)
{
	struct hsagpu_barrier_packet b;
	HsaGpuRunResult r;

	q_setup(0);
	sig_init(0, 1);
	sig_init(1, 1);
	sig_init(2, 1);
	b = bpkt(HSAGPU_PKT_TYPE_BARRIER_AND, 0, SIG(0), SIG(1), SIG(2));
	submit(&b);
	r = run();
	T(r.progress == 0 && r.poll && sig_val(2) == 1);
	sig_init(0, 0);
	r = run();
	T(r.progress == 0 && sig_val(2) == 1);
	sig_init(1, 0);
	r = run();
	T(r.completed == 1 && sig_val(2) == 0);

	sig_init(0, 3);
	sig_init(1, 1);
	sig_init(2, 1);
	b = bpkt(HSAGPU_PKT_TYPE_BARRIER_OR, 0, SIG(0), SIG(1), SIG(2));
	submit(&b);
	r = run();
	T(r.progress == 0 && sig_val(2) == 1);
	sig_init(1, 0);
	r = run();
	T(r.completed == 1 && sig_val(2) == 0);
	/* No dependencies: completes at once. */
	sig_init(2, 1);
	b = bpkt(HSAGPU_PKT_TYPE_BARRIER_AND, 0, 0, 0, SIG(2));
	submit(&b);
	run();
	T(sig_val(2) == 0);
}

static void test_agent(void)
{
	struct hsagpu_agent_dispatch_packet a;
	struct hsagpu_rom_info *info = at(BUF(0) + 64);

	q_setup(0);
	memset(&a, 0, sizeof(a));
	a.header = hdr(HSAGPU_PKT_TYPE_AGENT_DISPATCH, 0);
	a.type = HSAGPU_AGENT_WRITE_VALUE;
	a.return_address = BUF(0);
	a.arg[0] = 0x1122334455667788ULL;
	submit(&a);
	now = 987654321;
	a.type = HSAGPU_AGENT_TIMESTAMP;
	a.return_address = BUF(0) + 8;
	submit(&a);
	a.type = HSAGPU_AGENT_COPY_INFO;
	a.return_address = BUF(0) + 64;
	submit(&a);
	a.type = HSAGPU_AGENT_NOP;
	submit(&a);
	run();
	T(*(uint64_t *)at(BUF(0)) == 0x1122334455667788ULL);
	T(*(uint64_t *)at(BUF(0) + 8) == 987654321);
	T(info->signature == HSAGPU_ROM_INFO_SIGNATURE &&
	  info->num_queues == ident.num_queues);
	T(q.retired == 4 && q.state == HSAGPU_QSTATE_ACTIVE);
}

/* Each malformed class: its code and the failing dispatch id. */
static void test_errors(void)
{
	static const uint32_t g1[3] = { 8, 1, 1 };
	static const uint16_t w1[3] = { 8, 1, 1 };
	struct {
		const char *what;
		unsigned err;
	} cases[] = {
		{ "unknown type", HSAGPU_QERR_PACKET_TYPE },
		{ "dims 0", HSAGPU_QERR_DIMENSIONS },
		{ "grid 0", HSAGPU_QERR_DIMENSIONS },
		{ "unused dim", HSAGPU_QERR_DIMENSIONS },
		{ "workgroup > 1024", HSAGPU_QERR_DIMENSIONS },
		{ "grid > 2^32-1", HSAGPU_QERR_DIMENSIONS },
		{ "kernarg unmapped", HSAGPU_QERR_ADDRESS },
		{ "buffer unmapped", HSAGPU_QERR_ADDRESS },
		{ "kernarg misaligned", HSAGPU_QERR_ALIGNMENT },
		{ "buffer misaligned", HSAGPU_QERR_ALIGNMENT },
		{ "signal misaligned", HSAGPU_QERR_SIGNAL },
		{ "signal unmapped", HSAGPU_QERR_ADDRESS },
		{ "kernel object", HSAGPU_QERR_KERNEL_OBJECT },
		{ "fence scope", HSAGPU_QERR_FENCE },
		{ "vendor packet of no known format", HSAGPU_QERR_VENDOR_FORMAT },
		{ "agent function", HSAGPU_QERR_AGENT_FUNCTION },
		{ "barrier dep misaligned", HSAGPU_QERR_SIGNAL },
		{ "ring overrun", HSAGPU_QERR_RING_OVERRUN },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hsagpu_kernel_dispatch_packet k =
			kpkt(HSAGPU_KERNEL_FILL, 1, g1, w1, 0);
		struct hsagpu_agent_dispatch_packet *a = (void *)&k;
		struct hsagpu_barrier_packet *b = (void *)&k;
		HsaGpuRunResult r;

		q_setup(0);
		*(struct hsagpu_kargs_fill *)at(KARG) =
			(struct hsagpu_kargs_fill){ .dst = BUF(0), .value = 1 };
		/* One good packet first: the error id must be 1. */
		submit(&k);
		switch (i) {
		case 0: k.header = (k.header & ~0xff) | 7; break;
		case 1: k.setup = 0; break;
		case 2: k.grid_size_x = 0; break;
		case 3: k.grid_size_z = 2; break;
		case 4: k.workgroup_size_x = 1025; break;
		case 5: k.setup = 3; k.grid_size_x = 65536; k.grid_size_y = 65536;
			k.grid_size_z = 2; k.workgroup_size_y = 1;
			k.workgroup_size_z = 1; break;
		case 6: k.kernarg_address = 0xdead0000000ULL; break;
		case 7: k.kernarg_address = KARG + 64;
			*(struct hsagpu_kargs_fill *)at(KARG + 64) =
				(struct hsagpu_kargs_fill){ .dst = 0x10 };
			break;
		case 8: k.kernarg_address = KARG + 8; break;
		case 9: k.kernarg_address = KARG + 64;
			*(struct hsagpu_kargs_fill *)at(KARG + 64) =
				(struct hsagpu_kargs_fill){ .dst = BUF(0) + 2 };
			break;
		case 10: k.completion_signal = SIG(0) + 4; break;
		case 11: k.completion_signal = 0x8000; break;
		case 12: k.kernel_object = 0x1234; break;
		case 13: k.header |= 3 << HSAGPU_PKT_HDR_RELEASE_SHIFT; break;
		case 14: k.header = (k.header & ~0xff) |
				    HSAGPU_PKT_TYPE_VENDOR_SPECIFIC;
			k.setup = 0x42; break;  /* byte 2: no such format */
		case 15: memset(a, 0, sizeof(*a));
			a->header = hdr(HSAGPU_PKT_TYPE_AGENT_DISPATCH, 0);
			a->type = 99; break;
		case 16: memset(b, 0, sizeof(*b));
			b->header = hdr(HSAGPU_PKT_TYPE_BARRIER_AND, 0);
			b->dep_signal[2] = SIG(0) + 1; break;
		}
		if (i == 17) {
			run();
			/* Rewound behind the read index */
			*(uint64_t *)at(WPTR) = 0;
			hsagpu_queue_doorbell(&q);
		} else {
			submit(&k);
		}
		r = run();
		T(r.error && q.state == HSAGPU_QSTATE_ERROR);
		T(q.error == cases[i].err && q.error_id == 1);
		if (q.error != cases[i].err || q.error_id != 1)
			printf("# %s: error %u id %llu\n", cases[i].what, q.error,
			       (unsigned long long)q.error_id);
		/*
		 * The good packet did complete and was published; a packet
		 * whose completion signal turned out unmapped was consumed.
		 */
		T(*(uint64_t *)at(RPTR) == (i == 11 ? 2 : 1));
		/* An errored queue does nothing more. */
		r = run();
		T(r.progress == 0 && !r.error);
	}
}

static void test_registration(void)
{
	HsaGpuQueue all[2];
	uint32_t v;

	memset(all, 0, sizeof(all));
	all[0].ring_lo = 0x10000;
	all[0].ring_size = 64;
	all[0].rptr_lo = 0x20000;
	all[0].wptr_lo = 0x20008;
	all[0].doorbell = 9;
	all[0].vector = 4;
	T(hsagpu_queue_check(&all[0], &ident, all, 2) == HSAGPU_QRES_OK);
	all[1] = all[0];
	all[0].state = HSAGPU_QSTATE_ACTIVE;
	T(hsagpu_queue_check(&all[1], &ident, all, 2) == HSAGPU_QRES_BAD_DOORBELL);
	all[1].doorbell = 10;
	all[1].vector = 5;
	T(hsagpu_queue_check(&all[1], &ident, all, 2) == HSAGPU_QRES_BAD_VECTOR);
	all[1].vector = 0;
	all[1].ring_size = 48;
	T(hsagpu_queue_check(&all[1], &ident, all, 2) == HSAGPU_QRES_BAD_RING);
	all[1].ring_size = 64;
	all[1].rptr_lo = 0x20004;
	T(hsagpu_queue_check(&all[1], &ident, all, 2) == HSAGPU_QRES_BAD_POINTER);
	all[1].rptr_lo = 0x20000;
	all[1].priority = 16;
	T(hsagpu_queue_check(&all[1], &ident, all, 2) == HSAGPU_QRES_BAD_PRIORITY);
	all[1].priority = 15;
	all[1].flags = HSAGPU_QF_ALL + 1;     /* the first undefined flag */
	T(hsagpu_queue_check(&all[1], &ident, all, 2) == HSAGPU_QRES_BAD_FLAGS);
	T(hsagpu_queue_check(&all[0], &ident, all, 2) == HSAGPU_QRES_BAD_STATE);
	T(hsagpu_queue_check_registration(&all[1], &ident, all, 2) ==
	  HSAGPU_QRES_BAD_FLAGS);
	all[1].flags = 0;
	T(hsagpu_queue_check_registration(&all[0], &ident, all, 2) ==
	  HSAGPU_QRES_OK);
	/*
	 * A personality's own queue (a Vega10 SDMA ring): no doorbell of
	 * hsa-gpu's, which its registration and a migrated stream accept
	 * (a live migration with amdgpu loaded failed here); a driver's
	 * registration never makes one
	 */
	all[1].flags = HSAGPU_QF_SDMA | HSAGPU_QF_OWN;
	all[1].ring_size = 1024;
	all[1].doorbell = HSAGPU_DOORBELL_NONE;
	T(hsagpu_queue_check_registration(&all[1], &ident, all, 2) ==
	  HSAGPU_QRES_OK);
	T(hsagpu_queue_check(&all[1], &ident, all, 2) == HSAGPU_QRES_BAD_FLAGS);
	all[1].doorbell = 10;
	T(hsagpu_queue_check_registration(&all[1], &ident, all, 2) ==
	  HSAGPU_QRES_BAD_DOORBELL);
	all[1].flags = HSAGPU_QF_SDMA;
	all[1].doorbell = HSAGPU_DOORBELL_NONE;
	T(hsagpu_queue_check_registration(&all[1], &ident, all, 2) ==
	  HSAGPU_QRES_BAD_DOORBELL);
	all[1].flags = 0;
	all[1].ring_size = 64;
	all[1].doorbell = 10;
	/* Registers: frozen while enabled, status read-only, holes */
	T(hsagpu_queue_reg_write(&all[0], HSAGPU_QREG_RING_SIZE, 8) ==
	  HSAGPU_BAD_REASON_READONLY && all[0].ring_size == 64);
	T(hsagpu_queue_reg_write(&all[1], HSAGPU_QREG_RING_SIZE, 8) == 0 &&
	  all[1].ring_size == 8);
	T(hsagpu_queue_reg_write(&all[1], HSAGPU_QREG_STATE, 0) ==
	  HSAGPU_BAD_REASON_READONLY);
	T(hsagpu_queue_reg_read(&all[0], 0x3e, &v) == HSAGPU_BAD_REASON_UNMAPPED);
	all[0].error = HSAGPU_QERR_FENCE;
	all[0].state = HSAGPU_QSTATE_ERROR;
	T(hsagpu_queue_reg_read(&all[0], HSAGPU_QREG_STATE, &v) == 0 &&
	  v == (HSAGPU_QSTATE_ERROR | HSAGPU_QERR_FENCE << 8));
}

/*
 * Migration uses the registration rules of ENABLE (one check), plus the
 * state and the cursors.
 */
static void test_loaded_ok(void)
{
	HsaGpuQueue all[2];

	memset(all, 0, sizeof(all));
	all[0].ring_lo = 0x10000;
	all[0].ring_size = 64;
	all[0].rptr_lo = 0x20000;
	all[0].wptr_lo = 0x20008;
	all[0].doorbell = 9;
	all[0].vector = 4;
	T(!hsagpu_queue_loaded_ok(&all[0], &ident, all, 2));	/* disabled */
	hsagpu_queue_start(&all[0], 0);
	T(hsagpu_queue_loaded_ok(&all[0], &ident, all, 2));
	all[0].state = HSAGPU_QSTATE_ERROR;
	all[0].error = HSAGPU_QERR_P2P_LIMIT;
	T(hsagpu_queue_loaded_ok(&all[0], &ident, all, 2));
	all[0].error = HSAGPU_QERR_COUNT;
	T(!hsagpu_queue_loaded_ok(&all[0], &ident, all, 2));
	all[0].error = 0;
	all[0].state = 7;
	T(!hsagpu_queue_loaded_ok(&all[0], &ident, all, 2));
	all[0].state = HSAGPU_QSTATE_SUSPENDED;
	/* Same doorbell as another queue in use */
	all[1] = all[0];
	T(!hsagpu_queue_loaded_ok(&all[1], &ident, all, 2));
	all[1].doorbell = 10;
	T(hsagpu_queue_loaded_ok(&all[1], &ident, all, 2));
	all[1].priority = HSAGPU_QUEUE_PRIORITY_MAX + 1;
	T(!hsagpu_queue_loaded_ok(&all[1], &ident, all, 2));
	all[1].priority = 0;
	all[1].vector = ident.msix_vectors;
	T(!hsagpu_queue_loaded_ok(&all[1], &ident, all, 2));
	all[1].vector = 0;
	all[1].ring_size = 48;
	T(!hsagpu_queue_loaded_ok(&all[1], &ident, all, 2));
	all[1].ring_size = 64;
	all[1].rptr_lo = 0x20004;
	T(!hsagpu_queue_loaded_ok(&all[1], &ident, all, 2));
	all[1].rptr_lo = 0x20000;
	all[1].ninflight = HSAGPU_QUEUE_INFLIGHT_MAX + 1;
	T(!hsagpu_queue_loaded_ok(&all[1], &ident, all, 2));
	all[1].ninflight = 0;
	all[1].dma_active = 1;
	all[1].dma_desc = HSAGPU_DMA_SG_MAX + 1;
	T(!hsagpu_queue_loaded_ok(&all[1], &ident, all, 2));
	all[1].dma_active = 0;
	all[1].kern_active = 1;
	all[1].kern_wg = HSAGPU_GRID_MAX + 1ULL;
	T(!hsagpu_queue_loaded_ok(&all[1], &ident, all, 2));
	/* on ROCr's queues too: workgroup ids never count a blit's bytes */
	all[1].flags = HSAGPU_QF_AMD_QUEUE;
	T(!hsagpu_queue_loaded_ok(&all[1], &ident, all, 2));
	all[1].kern_wg = 0;
	/* a blit kernel's own byte cursor: at most its 4 phases */
	all[1].blit_off = 4 * HSAGPU_DMA_SIZE_MAX;
	T(hsagpu_queue_loaded_ok(&all[1], &ident, all, 2));
	all[1].blit_off = 4 * HSAGPU_DMA_SIZE_MAX + 1;
	T(!hsagpu_queue_loaded_ok(&all[1], &ident, all, 2));
	all[1].flags = 0;
	all[1].blit_off = 0;
	T(hsagpu_queue_loaded_ok(&all[1], &ident, all, 2));
}

/*
 * An AtomicOp the bus refuses because the peer is above p2p-addr-bits
 * stops the queue with the P2P limit error, like a DMA would: for
 * ATOMIC_INC and for the completion signal's decrement.
 */
static void test_atomic_p2p_limit(void)
{
	static const uint32_t g[3] = { 1, 1, 1 };
	static const uint16_t w[3] = { 1, 1, 1 };
	struct hsagpu_kernel_dispatch_packet k;
	HsaGpuRunResult r;

	q_setup(0);
	sig_init(0, 1);
	*(struct hsagpu_kargs_atomic_inc *)at(KARG) =
		(struct hsagpu_kargs_atomic_inc){ .counter = FAR_PEER };
	k = kpkt(HSAGPU_KERNEL_ATOMIC_INC, 1, g, w, SIG(0));
	submit(&k);
	r = run();
	T(r.error && q.state == HSAGPU_QSTATE_ERROR &&
	  q.error == HSAGPU_QERR_P2P_LIMIT && q.error_id == 0);
	T(sig_val(0) == 1);
}

/* A packet of unknown type is that error, whatever its signal field. */
static void test_signal_read_once(void)
{
	uint8_t pkt[64] = { 0 };
	struct hsagpu_agent_dispatch_packet a;
	HsaGpuRunResult r;

	q_setup(0);
	*(uint16_t *)pkt = hdr(7, 0);	/* reserved type */
	*(uint64_t *)(pkt + 56) = SIG(0) + 3;
	submit(pkt);
	r = run();
	T(r.error && q.error == HSAGPU_QERR_PACKET_TYPE);
	/* A known type with a misaligned signal */
	q_setup(0);
	a = apkt(HSAGPU_AGENT_NOP, 0, SIG(0) + 4);
	submit(&a);
	r = run();
	T(r.error && q.error == HSAGPU_QERR_SIGNAL);
}

/* DRAIN finishes the queued work, then the queue is suspended. */
static void test_drain_suspend(void)
{
	static const uint32_t g[3] = { 1, 1, 1 };
	static const uint16_t w[3] = { 1, 1, 1 };
	struct hsagpu_kernel_dispatch_packet k;

	q_setup(0);
	sig_init(0, 2);
	*(struct hsagpu_kargs_busy *)at(KARG) =
		(struct hsagpu_kargs_busy){ .ns = 100 };
	k = kpkt(HSAGPU_KERNEL_BUSY, 1, g, w, SIG(0));
	q.state = HSAGPU_QSTATE_SUSPENDED;
	submit(&k);
	run();
	T(q.read_index == 0);
	q.state = HSAGPU_QSTATE_DRAINING;
	submit(&k);
	run();
	T(q.read_index == 2 && q.state == HSAGPU_QSTATE_DRAINING);
	now += 100;
	run();
	T(sig_val(0) == 0 && q.state == HSAGPU_QSTATE_SUSPENDED);
}

/*
 * A large dispatch is served in slices of whole workgroups: each pass
 * does a bounded amount of work and returns, another queue's packet
 * completes in between, suspension stops it at a slice boundary, and the
 * result is exact.
 */
static void test_kernel_slices(void)
{
	static const uint32_t g[3] = { 5000, 1, 1 };
	static const uint16_t w[3] = { 1, 1, 1 };
	static const uint32_t gf[3] = { 300000, 1, 1 };
	static const uint16_t wf[3] = { 256, 1, 1 };
	struct hsagpu_kernel_dispatch_packet k;
	struct hsagpu_agent_dispatch_packet nop;
	struct hsagpu_signal *s = at(SIG(0));
	uint32_t *buf = at(BUF(0));
	HsaGpuRunResult r;
	unsigned passes = 0;
	uint64_t wg;
	int ok = 1;

	/* ATOMIC_INC, one row per workgroup: the row limit cuts it. */
	q_setup(HSAGPU_QF_PROFILE);
	xq_setup(0, 0);
	sig_init(0, 1);
	sig_init(1, 1);
	*(uint64_t *)at(BUF(3)) = 0;
	*(struct hsagpu_kargs_atomic_inc *)at(KARG) =
		(struct hsagpu_kargs_atomic_inc){ .counter = BUF(3) };
	k = kpkt(HSAGPU_KERNEL_ATOMIC_INC, 1, g, w, SIG(0));
	submit(&k);
	r = run();
	T(r.progress == 1 && r.completed == 0 && !r.error);
	T(q.kern_active && q.kern_wg == HSAGPU_KERNEL_SLICE_ROWS &&
	  *(uint64_t *)at(BUF(3)) == HSAGPU_KERNEL_SLICE_ROWS);
	T(q.read_index == 0 && sig_val(0) == 1);
	/* Another queue between slices: its packet completes now. */
	nop = apkt(HSAGPU_AGENT_NOP, 0, SIG(1));
	xq_submit(0, &nop);
	r = xq_run(0);
	T(r.completed == 1 && sig_val(1) == 0 && sig_val(0) == 1);
	/* Suspended: stops at the slice boundary, keeps the cursor. */
	q.state = HSAGPU_QSTATE_SUSPENDED;
	wg = q.kern_wg;
	r = run();
	T(r.progress == 0 && q.kern_wg == wg && q.kern_active);
	q.state = HSAGPU_QSTATE_ACTIVE;
	passes = 1;
	do {
		now += 10;
		r = run();
		passes++;
		ok &= !r.error;
	} while (sig_val(0) == 1 && passes < 100);
	T(ok && passes == (5000 + HSAGPU_KERNEL_SLICE_ROWS - 1) /
			  HSAGPU_KERNEL_SLICE_ROWS);
	T(*(uint64_t *)at(BUF(3)) == 5000 && sig_val(0) == 0);
	T(!q.kern_active && q.read_index == 1 && *(uint64_t *)at(RPTR) == 1);
	/* Profiling spans the slices: started at the first one. */
	T(s->start_ts == 1000 && s->end_ts == now);

	/*
	 * FILL with 256-item rows, row by row (no direct access): the
	 * work-item limit cuts it. With it: test_stream_slices().
	 */
	sig_init(0, 1);
	memset(buf, 0, 4 * 300004);
	*(struct hsagpu_kargs_fill *)at(KARG) =
		(struct hsagpu_kargs_fill){ .dst = BUF(0), .value = 7 };
	k = kpkt(HSAGPU_KERNEL_FILL, 1, gf, wf, SIG(0));
	submit(&k);
	passes = 0;
	do {
		r = run_rows();
		passes++;
		/* A slice ends on the first workgroup boundary past a limit. */
		ok &= !q.kern_active ||
		      q.kern_wg * 256 == (uint64_t)passes *
					 HSAGPU_KERNEL_SLICE_ITEMS;
	} while (sig_val(0) == 1 && passes < 100);
	T(ok && passes == (300000 + HSAGPU_KERNEL_SLICE_ITEMS - 1) /
			  HSAGPU_KERNEL_SLICE_ITEMS);
	ok = 1;
	for (uint32_t i = 0; i < 300000; i++)
		ok &= buf[i] == 7;
	T(ok && buf[300000] == 0);

	/* An error in a later slice names the packet and drops the cursor. */
	sig_init(0, 1);
	*(struct hsagpu_kargs_fill *)at(KARG) = (struct hsagpu_kargs_fill){
		.dst = MEM_BASE + MEM_SIZE - 4 * 100000, .value = 7 };
	submit(&k);
	r = run_rows();
	T(!r.error && q.kern_active);
	r = run_rows();
	T(r.error && q.error == HSAGPU_QERR_ADDRESS && q.error_id == 2 &&
	  !q.kern_active && sig_val(0) == 1);

	/* Destroyed in the middle: nothing is left of it. */
	q_setup(0);
	*(uint64_t *)at(BUF(3)) = 0;
	*(struct hsagpu_kargs_atomic_inc *)at(KARG) =
		(struct hsagpu_kargs_atomic_inc){ .counter = BUF(3) };
	k = kpkt(HSAGPU_KERNEL_ATOMIC_INC, 1, g, w, 0);
	submit(&k);
	run();
	T(q.kern_active);
	hsagpu_queue_clear(&q);
	r = run();
	T(r.progress == 0 && !q.kern_active &&
	  *(uint64_t *)at(BUF(3)) == HSAGPU_KERNEL_SLICE_ROWS);
}

/*
 * Grids near 2^32 work-items: the workgroup count needs 64 bits (grid +
 * workgroup - 1 wraps in 32), and the last, partial workgroup is clipped.
 * The cursor is moved to the end so the test need not run 2^31 groups.
 */
static void test_grid_limits(void)
{
	static const uint32_t g[3] = { 0xffffffffU, 1, 1 };
	static const uint16_t w2[3] = { 2, 1, 1 };
	static const uint16_t w256[3] = { 256, 1, 1 };
	struct hsagpu_kernel_dispatch_packet k;
	uint32_t *buf = at(BUF(0));
	uint64_t nwg[3];
	HsaGpuRunResult r;
	int ok = 1;

	k = kpkt(HSAGPU_KERNEL_ATOMIC_INC, 1, g, w2, SIG(0));
	T(hsagpu_kernel_workgroups(&k, nwg) == 0x80000000ULL &&
	  nwg[0] == 0x80000000ULL && nwg[1] == 1 && nwg[2] == 1);
	q_setup(0);
	sig_init(0, 1);
	*(uint64_t *)at(BUF(3)) = 0;
	*(struct hsagpu_kargs_atomic_inc *)at(KARG) =
		(struct hsagpu_kargs_atomic_inc){ .counter = BUF(3) };
	submit(&k);
	r = run();
	T(!r.error && sig_val(0) == 1 && q.kern_active &&
	  *(uint64_t *)at(BUF(3)) == 2 * HSAGPU_KERNEL_SLICE_ROWS);
	/* The last two workgroups: 2 work-items and 1. */
	q.kern_wg = 0x80000000ULL - 2;
	r = run();
	T(!r.error && sig_val(0) == 0 && !q.kern_active &&
	  *(uint64_t *)at(BUF(3)) == 2 * HSAGPU_KERNEL_SLICE_ROWS + 3);

	/* FILL: the last two workgroups (256 and 255 items) land at BUF(0). */
	k = kpkt(HSAGPU_KERNEL_FILL, 1, g, w256, SIG(0));
	T(hsagpu_kernel_workgroups(&k, nwg) == 0x1000000ULL);
	sig_init(0, 1);
	memset(buf, 0, 4 * 1024);
	*(struct hsagpu_kargs_fill *)at(KARG) = (struct hsagpu_kargs_fill){
		.dst = BUF(0) - 4 * (0xffffffffULL - 511), .value = 3 };
	submit(&k);
	q.kern_active = 1;
	q.kern_wg = 0x1000000ULL - 2;
	r = run();
	T(!r.error && sig_val(0) == 0 && q.read_index == 2);
	for (unsigned i = 0; i < 511; i++)
		ok &= buf[i] == 3;
	T(ok && buf[511] == 0);
}

/*
 * A bad event mailbox is found before the signal is decremented: the
 * waiter sees the queue's error, never a value change without an event.
 */
static void test_mailbox_checked_first(void)
{
	static const uint32_t g[3] = { 1, 1, 1 };
	static const uint16_t w[3] = { 1, 1, 1 };
	static const struct {
		uint64_t mbox;
		unsigned err;
	} cases[] = {
		{ MBOX + 4, HSAGPU_QERR_ALIGNMENT },
		{ 0xdead0000000ULL, HSAGPU_QERR_ADDRESS },
	};

	for (unsigned i = 0; i < 2; i++) {
		struct hsagpu_kernel_dispatch_packet k;
		HsaGpuRunResult r;

		q_setup(0);
		sig_init(0, 1);
		((struct hsagpu_signal *)at(SIG(0)))->event_mailbox_ptr =
			cases[i].mbox;
		*(struct hsagpu_kargs_fill *)at(KARG) =
			(struct hsagpu_kargs_fill){ .dst = BUF(0), .value = 1 };
		k = kpkt(HSAGPU_KERNEL_FILL, 1, g, w, SIG(0));
		submit(&k);
		r = run();
		T(r.error && q.error == cases[i].err && q.error_id == 0);
		T(sig_val(0) == 1 && irqs == 0);
	}
}

/* COPY_INFO reports the processor's own device, call by call. */
static void test_copy_info_per_device(void)
{
	static const HsaGpuIdent other = {
		.vendor_id = HSAGPU_PCI_VENDOR_ID,
		.device_id = HSAGPU_PCI_DEVICE_ID,
		.vram_size = 2 << 20, .num_queues = 9, .msix_vectors = 10,
	};
	const HsaGpuProc proc2 = { &ops, NULL, &other, NULL };
	struct hsagpu_agent_dispatch_packet a;
	struct hsagpu_rom_info *i0 = at(BUF(0)), *i1 = at(BUF(0) + 256);
	HsaGpuRunResult r;

	q_setup(0);
	a = apkt(HSAGPU_AGENT_COPY_INFO, BUF(0) + 256, 0);
	submit(&a);
	hsagpu_queue_run(&q, &proc2, 10, &r);
	a = apkt(HSAGPU_AGENT_COPY_INFO, BUF(0), 0);
	submit(&a);
	run();
	T(i0->num_queues == ident.num_queues && i1->num_queues == 9 &&
	  i1->vram_size == 2 << 20);
}

static void noop_failed(void *opaque, unsigned qi)
{
	(*(unsigned *)opaque)++;
}

static HsaGpuPassResult pass(const uint16_t *active, unsigned n,
			     unsigned *rr, unsigned quantum)
{
	HsaGpuPassResult r;
	unsigned nfailed = 0;

	hsagpu_sched_pass(xq, active, n, rr, &proc, quantum, true,
			  noop_failed, &nfailed, &r);
	return r;
}

#define TS(i, n) (BUF(1) + 0x1000 * (i) + 8 * (n))
#define TSV(i, n) (*(uint64_t *)at(TS(i, n)))

/* Two queues of one level share it in quanta, starting in turn. */
static void test_sched_round_robin(void)
{
	const uint16_t active[2] = { 0, 1 };
	unsigned rr[HSAGPU_QUEUE_PRIORITY_MAX + 1] = { 0 };
	struct hsagpu_agent_dispatch_packet a;
	HsaGpuPassResult r;

	q_setup(0);
	xq_setup(0, 5);
	xq_setup(1, 5);
	for (unsigned n = 0; n < 6; n++) {
		for (unsigned i = 0; i < 2; i++) {
			a = apkt(HSAGPU_AGENT_TIMESTAMP, TS(i, n), 0);
			xq_submit(i, &a);
		}
	}
	now_step = 1;
	r = pass(active, 2, rr, 2);
	T(r.progress == 4 && xq[0].read_index == 2 && xq[1].read_index == 2);
	T(TSV(0, 0) < TSV(0, 1) && TSV(0, 1) < TSV(1, 0) &&
	  TSV(1, 0) < TSV(1, 1));
	r = pass(active, 2, rr, 2);
	/* The second pass starts with queue 1. */
	T(r.progress == 4 && TSV(1, 3) < TSV(0, 2) &&
	  TSV(1, 2) > TSV(0, 1));
	r = pass(active, 2, rr, 2);
	T(TSV(0, 5) < TSV(1, 4) && xq[0].read_index == 6 &&
	  xq[1].read_index == 6);
	r = pass(active, 2, rr, 2);
	T(r.progress == 0);
	now_step = 0;
	/* Each queue served is selected first (its address space). */
	nselected = 0;
	r = pass(active, 2, rr, 2);
	T(nselected == 2 && selected[0] != selected[1] &&
	  selected[0] < 2 && selected[1] < 2);
}

/*
 * Strict priority: a lower level waits while a higher one works, but its
 * finished busy kernels still complete; a kernel slice ends a queue's
 * turn so that a same-level queue runs between slices.
 */
static void test_sched_priority(void)
{
	static const uint32_t g1[3] = { 1, 1, 1 };
	static const uint32_t gbig[3] = { 4 * HSAGPU_KERNEL_SLICE_ROWS, 1, 1 };
	static const uint16_t w[3] = { 1, 1, 1 };
	/* sorted by priority: queue 0 (7), then queues 1 and 2 (3) */
	const uint16_t active[3] = { 0, 1, 2 };
	unsigned rr[HSAGPU_QUEUE_PRIORITY_MAX + 1] = { 0 };
	struct hsagpu_agent_dispatch_packet a;
	struct hsagpu_kernel_dispatch_packet k;
	HsaGpuPassResult r;

	q_setup(0);
	xq_setup(0, 7);
	xq_setup(1, 3);
	xq_setup(2, 3);
	sig_init(0, 1);
	sig_init(1, 1);
	/* Queue 1: a busy kernel, then a NOP. */
	*(struct hsagpu_kargs_busy *)at(KARG) =
		(struct hsagpu_kargs_busy){ .ns = 100 };
	k = kpkt(HSAGPU_KERNEL_BUSY, 1, g1, w, SIG(0));
	xq_submit(1, &k);
	r = pass(active, 3, rr, 8);
	T(xq[1].read_index == 1 && xq[1].ninflight == 1 && r.deadline == 1100);
	a = apkt(HSAGPU_AGENT_NOP, 0, SIG(1));
	xq_submit(1, &a);
	for (unsigned n = 0; n < 12; n++) {
		a = apkt(HSAGPU_AGENT_NOP, 0, 0);
		xq_submit(0, &a);
	}
	now = 2000;
	r = pass(active, 3, rr, 8);
	/* Only the high level ran, yet the finished busy kernel retired. */
	T(xq[0].read_index == 8 && xq[1].read_index == 1);
	T(sig_val(0) == 0 && xq[1].ninflight == 0 && sig_val(1) == 1);
	r = pass(active, 3, rr, 8);
	T(xq[0].read_index == 12 && xq[1].read_index == 1 && sig_val(1) == 1);
	r = pass(active, 3, rr, 8);
	T(r.progress == 1 && xq[1].read_index == 2 && sig_val(1) == 0);

	/* Queue 1 (level 3) has a big kernel; queue 2's NOP gets in. */
	sig_init(0, 1);
	sig_init(1, 1);
	*(uint64_t *)at(BUF(3)) = 0;
	*(struct hsagpu_kargs_atomic_inc *)at(KARG + 64) =
		(struct hsagpu_kargs_atomic_inc){ .counter = BUF(3) };
	k = kpkt(HSAGPU_KERNEL_ATOMIC_INC, 1, gbig, w, SIG(0));
	k.kernarg_address = KARG + 64;
	xq_submit(1, &k);
	a = apkt(HSAGPU_AGENT_NOP, 0, SIG(1));
	xq_submit(2, &a);
	r = pass(active, 3, rr, 8);
	T(sig_val(1) == 0 && sig_val(0) == 1 && xq[1].kern_active);
	for (unsigned n = 0; n < 10 && sig_val(0); n++)
		pass(active, 3, rr, 8);
	T(sig_val(0) == 0 &&
	  *(uint64_t *)at(BUF(3)) == 4 * HSAGPU_KERNEL_SLICE_ROWS);
}

static bool yield_now;

static bool f_yield(void *opaque)
{
	return yield_now;
}

/*
 * A pass is bounded over all queues (kernel/DMA slices and packets),
 * ends when someone waits for the lock, and the next pass starts with
 * the first queue it did not serve.
 */
static void test_sched_budget(void)
{
	static const uint32_t g[3] = { 16, 1, 1 };
	static const uint16_t w[3] = { 16, 1, 1 };
	const uint16_t active[3] = { 0, 1, 2 };
	unsigned rr[HSAGPU_QUEUE_PRIORITY_MAX + 1] = { 0 };
	HsaGpuBudget b = { .slices = 2, .packets = 64, .yield = f_yield };
	const HsaGpuProc pb = { &ops, NULL, &ident, &b };
	struct hsagpu_kernel_dispatch_packet k;
	struct hsagpu_agent_dispatch_packet a;
	HsaGpuPassResult r;
	unsigned nfailed = 0;

	q_setup(0);
	*(struct hsagpu_kargs_fill *)at(KARG) =
		(struct hsagpu_kargs_fill){ .dst = BUF(0), .value = 1 };
	for (unsigned i = 0; i < 3; i++) {
		xq_setup(i, 4);
		for (unsigned n = 0; n < 4; n++) {
			k = kpkt(HSAGPU_KERNEL_FILL, 1, g, w, 0);
			xq_submit(i, &k);
		}
	}
	hsagpu_sched_pass(xq, active, 3, rr, &pb, 64, true, noop_failed,
			  &nfailed, &r);
	T(r.slices == 2 && r.ended && r.completed == 2);
	T(xq[0].read_index == 2 && xq[1].read_index == 0 &&
	  xq[2].read_index == 0);
	/* The next pass goes on with queue 1, not queue 0 again. */
	b = (HsaGpuBudget){ .slices = 2, .packets = 64, .yield = f_yield };
	hsagpu_sched_pass(xq, active, 3, rr, &pb, 64, true, noop_failed,
			  &nfailed, &r);
	T(r.slices == 2 && xq[1].read_index == 2 && xq[0].read_index == 2);
	/* Someone waits for the lock: one slice runs, the pass ends. */
	yield_now = true;
	b = (HsaGpuBudget){ .slices = 2, .packets = 64, .yield = f_yield };
	hsagpu_sched_pass(xq, active, 3, rr, &pb, 64, true, noop_failed,
			  &nfailed, &r);
	T(r.slices == 1 && r.ended);
	yield_now = false;
	/* Packets are bounded too (agent packets run no slice). */
	xq_setup(0, 4);
	for (unsigned n = 0; n < 8; n++) {
		a = apkt(HSAGPU_AGENT_NOP, 0, 0);
		xq_submit(0, &a);
	}
	b = (HsaGpuBudget){ .slices = 2, .packets = 3 };
	hsagpu_sched_pass(xq, active, 1, rr, &pb, 64, true, noop_failed,
			  &nfailed, &r);
	T(r.completed == 3 && xq[0].read_index == 3 && r.ended);
	/* An unspent budget: the pass ends normally. */
	b = (HsaGpuBudget){ .slices = 2, .packets = 64 };
	hsagpu_sched_pass(xq, active, 1, rr, &pb, 64, true, noop_failed,
			  &nfailed, &r);
	T(r.completed == 5 && xq[0].read_index == 8 && !r.ended);
	T(nfailed == 0);
}

/*
 * Review of dev, finding 3: waiters that never go away (register readers
 * on several vCPUs) must not starve the queues. A pass does one packet
 * or slice before it yields, and the queue it did not reach is the next
 * pass's first. Before the fix every pass ended before its first packet
 * (and skipped the queue it had not served).
 */
static void test_sched_yield_progress(void)
{
	const uint16_t active[3] = { 0, 1, 2 };
	unsigned rr[HSAGPU_QUEUE_PRIORITY_MAX + 1] = { 0 };
	HsaGpuBudget b;
	const HsaGpuProc pb = { &ops, NULL, &ident, &b };
	struct hsagpu_agent_dispatch_packet a;
	HsaGpuPassResult r;
	unsigned nfailed = 0;

	for (unsigned i = 0; i < 3; i++) {
		xq_setup(i, 4);
		for (unsigned n = 0; n < 2; n++) {
			a = apkt(HSAGPU_AGENT_NOP, 0, 0);
			xq_submit(i, &a);
		}
	}
	yield_now = true;
	for (unsigned n = 0; n < 6; n++) {
		b = (HsaGpuBudget){ .slices = 2, .packets = 64,
				    .yield = f_yield };
		hsagpu_sched_pass(xq, active, 3, rr, &pb, 64, true,
				  noop_failed, &nfailed, &r);
		T(r.completed == 1 && r.ended);
		T(xq[n % 3].read_index == n / 3 + 1);
	}
	yield_now = false;
	T(nfailed == 0);
}

/*
 * GPU virtual memory: an access the bus refuses with a VM fault puts the
 * queue into ERROR with that code, and each kind of access is made as
 * the right client (what the fault registers report).
 */
static void vm_fault_case(uint64_t page, const void *pkt, unsigned client,
			  const char *what)
{
	HsaGpuRunResult r;

	vmf_hits = 0;
	vmf_client = 0;
	vmf_page = page;
	submit(pkt);
	r = run();
	vmf_page = 0;
	TM(r.error && q.state == HSAGPU_QSTATE_ERROR &&
	   q.error == HSAGPU_QERR_VM_FAULT && vmf_client == client,
	   "%s: state %u error %u client %u", what, q.state, q.error,
	   vmf_client);
}

static void test_vm_faults(void)
{
	static const uint32_t g[3] = { 64, 1, 1 };
	static const uint16_t w[3] = { 64, 1, 1 };
	struct hsagpu_kernel_dispatch_packet k;
	struct hsagpu_agent_dispatch_packet a;
	struct hsagpu_signal *sp;

	q_setup(0);
	sig_init(0, 1);
	a = apkt(HSAGPU_AGENT_NOP, 0, SIG(0));
	vm_fault_case(SIG(0) & ~0xfffULL, &a, HSAGPU_VM_CLIENT_SIGNAL,
		      "signal");
	T(sig_val(0) == 1);

	q_setup(0);
	sig_init(0, 1);
	sp = at(SIG(0));
	sp->event_mailbox_ptr = MBOX;
	sp->event_id = 9;
	a = apkt(HSAGPU_AGENT_NOP, 0, SIG(0));
	vm_fault_case(MBOX, &a, HSAGPU_VM_CLIENT_SIGNAL, "mailbox");
	T(sig_val(0) == 1 && irqs == 0);

	q_setup(0);
	a = apkt(HSAGPU_AGENT_WRITE_VALUE, BUF(0), 0);
	vm_fault_case(BUF(0), &a, HSAGPU_VM_CLIENT_KERNEL, "agent return");

	q_setup(0);
	sig_init(0, 1);
	k = kpkt(HSAGPU_KERNEL_FILL, 1, g, w, SIG(0));
	*(struct hsagpu_kargs_fill *)at(KARG) =
		(struct hsagpu_kargs_fill){ .dst = BUF(0), .value = 7 };
	vm_fault_case(KARG, &k, HSAGPU_VM_CLIENT_KERNEL, "kernarg");
	T(sig_val(0) == 1);

	q_setup(0);
	sig_init(0, 1);
	*(struct hsagpu_kargs_fill *)at(KARG) =
		(struct hsagpu_kargs_fill){ .dst = BUF(0), .value = 7 };
	vm_fault_case(BUF(0), &k, HSAGPU_VM_CLIENT_KERNEL, "kernel buffer");
	T(sig_val(0) == 1 && *(uint32_t *)at(BUF(0)) == 0);

	q_setup(0);
	a = apkt(HSAGPU_AGENT_NOP, 0, 0);
	vm_fault_case(RING, &a, HSAGPU_VM_CLIENT_PACKET, "ring");

	q_setup(0);
	a = apkt(HSAGPU_AGENT_NOP, 0, 0);
	vm_fault_case(WPTR & ~0xfffULL, &a, HSAGPU_VM_CLIENT_PACKET,
		      "write index");
}


/*
 * A process frees its rings and descriptor before it destroys its queues
 * (ROCr: hipFree and the VM unmaps, then the queues): the device must not
 * touch an idle queue's memory, only after a doorbell for it or while it
 * knows work is pending, as the CP does. Each case unmaps one page (a
 * fault if read) and serves the idle queue many times.
 */
static void test_idle_untouched(void)
{
	struct hsagpu_agent_dispatch_packet a;
	const uint64_t pages[3] = { WPTR & ~0xfffULL, RING, SIG(0) };
	const uint16_t active[1] = { 0 };
	unsigned rr[HSAGPU_QUEUE_PRIORITY_MAX + 1] = { 0 }, nfailed = 0;
	HsaGpuPassResult pr;
	HsaGpuRunResult r;

	for (unsigned pg = 0; pg < 3; pg++) {
		q_setup(HSAGPU_QF_AMD_QUEUE);
		sig_init(0, 2);
		a = apkt(HSAGPU_AGENT_NOP, 0, SIG(0));
		submit(&a);
		submit(&a);
		r = run();
		T(r.completed == 2 && sig_val(0) == 0 && q.read_index == 2);
		/* Freed: write index, descriptor, ring or signal page. */
		vmf_page = pages[pg];
		vmf_hits = 0;
		for (int i = 0; i < 100; i++) {
			run();
			hsagpu_sched_pass(&q, active, 1, rr, &proc, 64, true,
					  noop_failed, &nfailed, &pr);
		}
		TM(vmf_hits == 0 && q.state == HSAGPU_QSTATE_ACTIVE && !nfailed,
		   "page %u: %u accesses to freed memory by an idle queue",
		   pg, vmf_hits);
		vmf_page = 0;
	}

	/* A doorbell is what makes the device fetch: here the guest's bug. */
	q_setup(0);
	vmf_page = WPTR & ~0xfffULL;
	hsagpu_queue_doorbell(&q);
	r = run();
	T(r.error && q.error == HSAGPU_QERR_VM_FAULT && vmf_hits);
	vmf_page = 0;

	/* Packets known to be there are served without a doorbell... */
	q_setup(0);
	sig_init(0, 3);
	a = apkt(HSAGPU_AGENT_NOP, 0, SIG(0));
	submit(&a);
	submit(&a);
	submit(&a);
	hsagpu_queue_run(&q, &proc, 1, &r);
	T(r.completed == 1 && q.read_index == 1);
	*(uint64_t *)at(WPTR) = 0;	/* an overrun, were it read now */
	hsagpu_queue_run(&q, &proc, 1, &r);
	hsagpu_queue_run(&q, &proc, 1, &r);
	T(q.read_index == 3 && sig_val(0) == 0 &&
	  q.state == HSAGPU_QSTATE_ACTIVE);
	*(uint64_t *)at(WPTR) = wptr;
	/* ... and one written without a doorbell waits for it. */
	sig_init(0, 1);
	memcpy(at(RING + 64 * (wptr % RING_SZ)), &a, sizeof(a));
	*(uint64_t *)at(WPTR) = ++wptr;
	run();
	T(q.read_index == 3 && sig_val(0) == 1);
	hsagpu_queue_doorbell(&q);
	run();
	T(q.read_index == 4 && sig_val(0) == 0);
}

/* Streaming kernels on mapped memory ---------------------------------- */

static void dirty_reset(void)
{
	if (dirty)
		memset(dirty, 0, MEM_SIZE);
}

/* Are the dirty marks of [addr, addr + len) all @v? */
static int dirty_is(uint64_t addr, uint64_t len, uint8_t v)
{
	for (uint64_t i = 0; i < len; i++)
		if ((dirty ? dirty[addr - MEM_BASE + i] : 0) != v)
			return 0;
	return 1;
}

/* Run the dispatch at the read index to its end (or error), slice by slice. */
static HsaGpuRunResult run_dispatch(const HsaGpuProc *pr, unsigned *passes)
{
	HsaGpuRunResult r;
	unsigned n = 0;

	do {
		hsagpu_queue_run(&q, pr, 1000, &r);
		n++;
	} while (q.kern_active && !r.error && n < 10000);
	if (passes)
		*passes = n;
	return r;
}

static void kargs_vadd(uint64_t a, uint64_t b, uint64_t c)
{
	*(struct hsagpu_kargs_vadd *)at(KARG) =
		(struct hsagpu_kargs_vadd){ .a = a, .b = b, .c = c };
}

/*
 * Fill, copy, vector add and saxpy give the row path's results over every
 * geometry, whatever the mappings' lengths: pages, and mappings that end
 * inside an item (through buffers then); exactly the written bytes are
 * reported written (dirty), and every mapping is released.
 */
static void test_stream_kernels(void)
{
	static const struct kgeo geo[] = {
		{ 1, { 1000, 1, 1 }, { 64, 1, 1 } },
		{ 2, { 37, 19, 1 }, { 8, 4, 1 } },
		{ 3, { 7, 5, 9 }, { 4, 2, 4 } },
		{ 2, { 64, 40, 1 }, { 64, 4, 1 } },	/* full rows: one run */
		{ 1, { 5000, 1, 1 }, { 1000, 1, 1 } },
	};
	static const uint64_t page[][2] = {
		{ 0, 0 }, { 4096, 0 }, { 4096, 2 }, { 12, 0 }, { 4096, 4093 },
	};

	for (unsigned gi = 0; gi < ARRAY_SIZE(geo); gi++) {
		for (unsigned pi = 0; pi < ARRAY_SIZE(page); pi++) {
			uint32_t n = geo[gi].g[0] * geo[gi].g[1] * geo[gi].g[2];
			uint32_t *c = at(BUF(2));
			float *fa = at(BUF(0)), *fb = at(BUF(1)), *fc = at(BUF(2));
			struct hsagpu_kernel_dispatch_packet k;
			HsaGpuRunResult r;
			int ok = 1, okd = 1;

			q_setup(0);
			map_page = page[pi][0];
			map_skew = page[pi][1];
			maps = 0;
			for (uint32_t i = 0; i < n + 4; i++) {
				fa[i] = (float)i;
				fb[i] = 0.5f * i;
				c[i] = 0xdeadbeef;
			}
			dirty_reset();
			*(struct hsagpu_kargs_fill *)at(KARG) =
				(struct hsagpu_kargs_fill){ .dst = BUF(2),
							    .value = 0x01020304 };
			k = kpkt(HSAGPU_KERNEL_FILL, geo[gi].dims, geo[gi].g,
				 geo[gi].w, 0);
			submit(&k);
			r = run_dispatch(&proc, NULL);
			for (uint32_t i = 0; i < n; i++)
				ok &= c[i] == 0x01020304;
			ok &= c[n] == 0xdeadbeef && !r.error;
			okd &= dirty_is(BUF(2), 4 * n, 1) &&
			       dirty_is(BUF(2) + 4 * n, 16, 0);

			dirty_reset();
			*(struct hsagpu_kargs_copy *)at(KARG) =
				(struct hsagpu_kargs_copy){ .dst = BUF(2),
							    .src = BUF(0) };
			k.kernel_object = HSAGPU_KERNEL_COPY;
			submit(&k);
			r = run_dispatch(&proc, NULL);
			for (uint32_t i = 0; i < n; i++)
				ok &= fc[i] == (float)i;
			ok &= c[n] == 0xdeadbeef && !r.error;
			okd &= dirty_is(BUF(2), 4 * n, 1) &&
			       dirty_is(BUF(0), 4 * n, 0);

			kargs_vadd(BUF(0), BUF(1), BUF(2));
			k.kernel_object = HSAGPU_KERNEL_VADD;
			submit(&k);
			r = run_dispatch(&proc, NULL);
			for (uint32_t i = 0; i < n; i++)
				ok &= fc[i] == 1.5f * i;
			ok &= c[n] == 0xdeadbeef && !r.error;

			dirty_reset();
			*(struct hsagpu_kargs_saxpy *)at(KARG) =
				(struct hsagpu_kargs_saxpy){
					.a = 2.0f, .x = BUF(0), .y = BUF(1) };
			k.kernel_object = HSAGPU_KERNEL_SAXPY;
			submit(&k);
			r = run_dispatch(&proc, NULL);
			for (uint32_t i = 0; i < n; i++)
				ok &= fb[i] == 2.5f * i;
			ok &= fb[n] == 0.5f * n && !r.error;
			okd &= dirty_is(BUF(1), 4 * n, 1) &&
			       dirty_is(BUF(1) + 4 * n, 16, 0) &&
			       dirty_is(BUF(0), 4 * n, 0);
			TM(ok && q.retired == 4 && q.state == HSAGPU_QSTATE_ACTIVE,
			   "geometry %u, mappings of %llu from %llu: results", gi,
			   (unsigned long long)page[pi][0],
			   (unsigned long long)page[pi][1]);
			TM(okd && maps && !maps_open && !map_misuse,
			   "geometry %u, mappings of %llu from %llu: dirty bytes, "
			   "%u maps released", gi,
			   (unsigned long long)page[pi][0],
			   (unsigned long long)page[pi][1], maps);
		}
	}
	map_page = map_skew = 0;
}

/*
 * On mapped memory a slice ends after the workgroup that reaches
 * HSAGPU_KERNEL_SLICE_BYTES of traffic or HSAGPU_KERNEL_SLICE_ROWS runs;
 * another queue is served in between, and a later slice's error stops
 * the queue after the earlier slices' data was written.
 */
static void test_stream_slices(void)
{
	static const uint32_t gf[3] = { 3000000, 1, 1 };
	static const uint32_t gv[3] = { 1000000, 1, 1 };
	static const uint32_t g2[3] = { 64, 256, 1 };
	static const uint16_t w256[3] = { 256, 1, 1 };
	static const uint16_t w42[3] = { 4, 2, 1 };
	const uint64_t fill_wg = (HSAGPU_KERNEL_SLICE_BYTES / 4 + 255) / 256;
	const uint64_t vadd_wg = (HSAGPU_KERNEL_SLICE_BYTES / 12 + 255) / 256;
	const uint64_t va = MEM_BASE + (1 << 20), vb = va + (4 << 20),
		       vc = vb + (4 << 20);
	struct hsagpu_kernel_dispatch_packet k;
	struct hsagpu_agent_dispatch_packet nop;
	uint32_t *buf = at(BUF(0));
	float *fa = at(va), *fb = at(vb), *fc = at(vc);
	HsaGpuRunResult r;
	unsigned passes;
	int ok = 1;

	/* FILL of 3 M items: 2 M (8 MiB) in the first slice, then the rest */
	q_setup(0);
	xq_setup(0, 0);
	sig_init(0, 1);
	sig_init(1, 1);
	memset(buf, 0, 4 * 3000004);
	*(struct hsagpu_kargs_fill *)at(KARG) =
		(struct hsagpu_kargs_fill){ .dst = BUF(0), .value = 7 };
	k = kpkt(HSAGPU_KERNEL_FILL, 1, gf, w256, SIG(0));
	submit(&k);
	r = run();
	T(r.progress == 1 && !r.error && q.kern_active &&
	  q.kern_wg == fill_wg && sig_val(0) == 1);
	T(buf[fill_wg * 256 - 1] == 7 && buf[fill_wg * 256] == 0);
	nop = apkt(HSAGPU_AGENT_NOP, 0, SIG(1));
	xq_submit(0, &nop);
	r = xq_run(0);
	T(r.completed == 1 && sig_val(1) == 0 && sig_val(0) == 1);
	r = run_dispatch(&proc, &passes);
	T(!r.error && passes == 1 && sig_val(0) == 0 && !q.kern_active);
	for (uint32_t i = 0; i < 3000000; i++)
		ok &= buf[i] == 7;
	T(ok && buf[3000000] == 0);

	/* VADD, 3 buffers of 4 MB: 12 bytes of traffic per item */
	q_setup(0);
	for (uint32_t i = 0; i < 1000000; i++) {
		fa[i] = (float)i;
		fb[i] = 1.0f;
		fc[i] = -1.0f;
	}
	kargs_vadd(va, vb, vc);
	k = kpkt(HSAGPU_KERNEL_VADD, 1, gv, w256, 0);
	submit(&k);
	run();
	T(q.kern_active && q.kern_wg == vadd_wg &&
	  fc[vadd_wg * 256 - 1] == vadd_wg * 256.0f &&
	  fc[vadd_wg * 256] == -1.0f);
	r = run_dispatch(&proc, &passes);
	ok = !r.error && passes == 1 && q.retired == 1;
	for (uint32_t i = 0; i < 1000000; i++)
		ok &= fc[i] == i + 1.0f;
	T(ok);

	/*
	 * 2-D, workgroups of two 4-item rows a grid row apart: two runs
	 * each, but the last workgroup of a block row ends where the first
	 * of the next begins, so 16 workgroups make 31 runs; the run limit
	 * ends the slice after 33 x 16.
	 */
	q_setup(0);
	memset(buf, 0, 4 * 64 * 257);
	*(struct hsagpu_kargs_fill *)at(KARG) =
		(struct hsagpu_kargs_fill){ .dst = BUF(0), .value = 5 };
	k = kpkt(HSAGPU_KERNEL_FILL, 2, g2, w42, 0);
	submit(&k);
	run();
	TM(q.kern_active && q.kern_wg == 33 * 16 &&
	   31 * 33 + 1 == HSAGPU_KERNEL_SLICE_ROWS,
	   "first slice: %llu workgroups", (unsigned long long)q.kern_wg);
	r = run_dispatch(&proc, &passes);
	ok = !r.error && passes == 3;
	for (uint32_t i = 0; i < 64 * 256; i++)
		ok &= buf[i] == 5;
	T(ok && buf[64 * 256] == 0);

	/* An error in a later slice: memory ends inside it. */
	q_setup(0);
	sig_init(0, 1);
	*(struct hsagpu_kargs_fill *)at(KARG) = (struct hsagpu_kargs_fill){
		.dst = MEM_BASE + MEM_SIZE - 4 * 2200000, .value = 9 };
	k = kpkt(HSAGPU_KERNEL_FILL, 1, (const uint32_t[3]){ 2300000, 1, 1 },
		 w256, SIG(0));
	submit(&k);
	r = run();
	T(!r.error && q.kern_active);
	r = run();
	T(r.error && q.error == HSAGPU_QERR_ADDRESS && q.error_id == 0 &&
	  !q.kern_active && sig_val(0) == 1);
	T(*(uint32_t *)at(MEM_BASE + MEM_SIZE - 4) == 9 && !maps_open);
}

/*
 * Mapped memory keeps the checks of the row path: a VM fault, a page the
 * kernel may read but not write, poisoned reads; nothing at or past the
 * failing page is written, the data before it is. Overlapping buffers
 * give what running the items in order gives.
 */
static void test_stream_checks(void)
{
	static const uint32_t g[3] = { 4096, 1, 1 };
	static const uint16_t w[3] = { 256, 1, 1 };
	static const uint32_t gn[3] = { 400000, 1, 1 };
	struct hsagpu_kernel_dispatch_packet k;
	float *fa = at(BUF(0)), *fb = at(BUF(1)), *fc = at(BUF(2));
	float ref[1100];
	HsaGpuRunResult r;
	int ok = 1;

	for (int path = 0; path < 2; path++) {
		const HsaGpuProc *pr = path ? &proc_rows : &proc;

		/* VM fault on the third page of b: c is done up to it */
		q_setup(0);
		for (uint32_t i = 0; i < 4096; i++) {
			fa[i] = (float)i;
			fb[i] = 1.0f;
			fc[i] = -1.0f;
		}
		dirty_reset();
		vmf_page = BUF(1) + 8192;
		vmf_hits = 0;
		kargs_vadd(BUF(0), BUF(1), BUF(2));
		k = kpkt(HSAGPU_KERNEL_VADD, 1, g, w, 0);
		submit(&k);
		r = run_dispatch(pr, NULL);
		vmf_page = 0;
		TM(r.error && q.error == HSAGPU_QERR_VM_FAULT && vmf_hits &&
		   vmf_client == HSAGPU_VM_CLIENT_KERNEL,
		   "%s: VM fault in an input", path ? "rows" : "mapped");
		TM(fc[2047] == 2048.0f && fc[2048] == -1.0f &&
		   fc[4095] == -1.0f, "%s: output up to the faulting page",
		   path ? "rows" : "mapped");
		if (!path)
			T(dirty_is(BUF(2), 8192, 1) &&
			  dirty_is(BUF(2) + 8192, 8192, 0) && !maps_open);

		/* saxpy's y: readable, not writable on its second page */
		q_setup(0);
		for (uint32_t i = 0; i < 4096; i++) {
			fa[i] = (float)i;
			fb[i] = 1.0f;
		}
		ro_page = BUF(1) + 4096;
		*(struct hsagpu_kargs_saxpy *)at(KARG) =
			(struct hsagpu_kargs_saxpy){
				.a = 2.0f, .x = BUF(0), .y = BUF(1) };
		k.kernel_object = HSAGPU_KERNEL_SAXPY;
		submit(&k);
		r = run_dispatch(pr, NULL);
		/* The row path has no such page: it only runs the mapped one */
		if (!path)
			T(r.error && q.error == HSAGPU_QERR_VM_FAULT &&
			  fb[1023] == 2.0f * 1023 + 1 && fb[1024] == 1.0f &&
			  !maps_open);
		/* ...and reading it is allowed: vector add with a there */
		q_setup(0);
		for (uint32_t i = 0; i < 4096; i++) {
			fa[i] = (float)i;
			fb[i] = 1.0f;
		}
		ro_page = BUF(0) + 4096;
		kargs_vadd(BUF(0), BUF(1), BUF(2));
		k.kernel_object = HSAGPU_KERNEL_VADD;
		submit(&k);
		r = run_dispatch(pr, NULL);
		ro_page = 0;
		TM(!r.error && fc[4095] == 4096.0f && fc[0] == 1.0f,
		   "%s: read-only input", path ? "rows" : "mapped");

		/* Poisoned source page: the copy stops before it */
		if (!path) {
			q_setup(0);
			for (uint32_t i = 0; i < 4096; i++) {
				fa[i] = (float)i;
				fc[i] = -1.0f;
			}
			poison_page = BUF(0) + 4096;
			*(struct hsagpu_kargs_copy *)at(KARG) =
				(struct hsagpu_kargs_copy){ .dst = BUF(2),
							    .src = BUF(0) };
			k.kernel_object = HSAGPU_KERNEL_COPY;
			submit(&k);
			r = run_dispatch(pr, NULL);
			poison_page = 0;
			T(r.error && q.error == HSAGPU_QERR_POISON &&
			  fc[1023] == 1023.0f && fc[1024] == -1.0f && !maps_open);
		}
	}

	/* Partial overlap c = a + 1 item: in order, as one work-item each */
	q_setup(0);
	for (uint32_t i = 0; i < 1100; i++) {
		fa[i] = (float)i;
		fb[i] = 0.25f;
		ref[i] = fa[i];
	}
	for (uint32_t i = 0; i < 1000; i++)
		ref[i + 1] = ref[i] + 0.25f;
	kargs_vadd(BUF(0), BUF(1), BUF(0) + 4);
	k = kpkt(HSAGPU_KERNEL_VADD, 1, (const uint32_t[3]){ 1000, 1, 1 }, w, 0);
	submit(&k);
	r = run_dispatch(&proc, NULL);
	ok = !r.error;
	for (uint32_t i = 0; i < 1100; i++)
		ok &= fa[i] == ref[i];
	T(ok);
	/* Exact alias c = a */
	for (uint32_t i = 0; i < 1000; i++)
		fa[i] = (float)i;
	kargs_vadd(BUF(0), BUF(1), BUF(0));
	submit(&k);
	r = run_dispatch(&proc, NULL);
	ok = !r.error;
	for (uint32_t i = 0; i < 1000; i++)
		ok &= fa[i] == i + 0.25f;
	T(ok);

	/* A run past the caches (stored around them), c misaligned by 4 */
	q_setup(0);
	{
		const uint64_t va = MEM_BASE + (1 << 20), vb = va + (2 << 20),
			       vc = vb + (2 << 20) + 4;
		float *xa = at(va), *xb = at(vb), *xc = at(vc);

		for (uint32_t i = 0; i < 400001; i++) {
			xa[i] = (float)i;
			xb[i] = 2.0f;
			xc[i] = -1.0f;
		}
		/* saxpy (y = 0.5 x + 2), then c = x + y */
		*(struct hsagpu_kargs_saxpy *)at(KARG) =
			(struct hsagpu_kargs_saxpy){ .a = 0.5f, .x = va,
						     .y = vb };
		k = kpkt(HSAGPU_KERNEL_SAXPY, 1, gn, w, 0);
		submit(&k);
		r = run_dispatch(&proc, NULL);
		ok = !r.error;
		for (uint32_t i = 0; i < 400000; i++)
			ok &= xb[i] == 0.5f * i + 2.0f;
		T(ok && xb[400000] == 2.0f);
		kargs_vadd(va, vb, vc);
		k.kernel_object = HSAGPU_KERNEL_VADD;
		submit(&k);
		r = run_dispatch(&proc, NULL);
		ok = !r.error;
		for (uint32_t i = 0; i < 400000; i++)
			ok &= xc[i] == xa[i] + xb[i];
		T(ok && xc[400000] == -1.0f && !maps_open && !map_misuse);
	}
}

int main(void)
{
	mem = calloc(1, MEM_SIZE);
	test_kernels();
	test_completion();
	test_barrier_bit();
	test_quiesce();
	test_gws_dispatch();
	test_gws_migrate();
	test_ctx_save();
	test_barrier_packets();
	test_agent();
	test_errors();
	test_registration();
	test_loaded_ok();
	test_atomic_p2p_limit();
	test_signal_read_once();
	test_drain_suspend();
	test_kernel_slices();
	test_grid_limits();
	test_mailbox_checked_first();
	test_copy_info_per_device();
	test_sched_round_robin();
	test_sched_yield_progress();
	test_vm_faults();
	test_idle_untouched();
	test_sched_priority();
	test_sched_budget();
	test_stream_kernels();
	test_stream_slices();
	test_stream_checks();
	free(mem);
	return tap_done();
}
