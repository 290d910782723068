// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-hsa-basic: Debian's unmodified ROCr 5.2.3 on the KFD facade, through
 * the HSA API only. Discovery (a gfx900 GPU agent per hsa-gpu with the
 * device's VRAM as its coarse-grained pool, a CPU agent with system and
 * kernarg pools), a user-mode AQL queue, our built-in kernels dispatched
 * by kernel_object with kernel arguments from the kernarg pool (FILL,
 * VADD, IDS, ATOMIC_INC), BARRIER_AND and BARRIER_OR packets held by CPU
 * signals, hsa_signal_wait_scacquire in the ACTIVE and BLOCKED wait
 * states, and four producer threads sharing one queue (a ring smaller
 * than their packets: reservation, wrap-around, doorbell), each result
 * checked in memory. Run on every GPU agent.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hsat.h"

static struct hsat h;
static atomic_int queue_errors;
static atomic_int last_queue_error;

static void on_queue_error(hsa_status_t st, hsa_queue_t *q, void *data)
{
	(void)data;
	atomic_fetch_add(&queue_errors, 1);
	atomic_store(&last_queue_error, st);
	printf("# queue %llu error callback: %s (0x%x)\n",
	       (unsigned long long)q->id, hsat_status_name(st), st);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void check_agent(struct hsat_gpu *g)
{
	char name[64] = "", vendor[64] = "";
	uint32_t features = 0, cu = 0, qmax = 0;
	int64_t vram = hsat_sysfs(g->pci, "vram_size");

	hsat_phase("agent info");
	HSAT_CHECK(hsa_agent_get_info(g->agent, HSA_AGENT_INFO_NAME, name));
	HSAT_CHECK(hsa_agent_get_info(g->agent, HSA_AGENT_INFO_VENDOR_NAME, vendor));
	HSAT_CHECK(hsa_agent_get_info(g->agent, HSA_AGENT_INFO_FEATURE, &features));
	HSAT_CHECK(hsa_agent_get_info(g->agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &qmax));
	HSAT_CHECK(hsa_agent_get_info(g->agent,
		   (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &cu));
	DIAG("%s: agent %s (%s), %u compute units, queues up to %u packets",
	     g->pci, name, vendor, cu, qmax);
	CHECK(!strcmp(name, "gfx900"), "%s: agent name '%s', not gfx900", g->pci, name);
	CHECK(features & HSA_AGENT_FEATURE_KERNEL_DISPATCH,
	      "%s: no KERNEL_DISPATCH feature", g->pci);
	CHECK(cu >= 1 && cu <= 64, "%s: %u compute units", g->pci, cu);
	CHECK(vram > 0 && g->vram_pool_size == (uint64_t)vram,
	      "%s: VRAM pool %llu bytes, the device has %lld", g->pci,
	      (unsigned long long)g->vram_pool_size, (long long)vram);
}

/* One built-in kernel, waited for; 0 when its signal completed. */
static int run_kernel(hsa_queue_t *q, uint64_t kobj, const void *args, size_t asize,
		      uint32_t grid, uint16_t wg, hsa_wait_state_t ws, const char *what)
{
	hsa_kernel_dispatch_packet_t p;
	hsa_signal_t s;
	hsa_signal_value_t v;
	void *ka = hsat_kernarg(&h, args, asize);
	int ret = -1;

	if (!ka || HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s)))
		return -1;
	hsat_phase(what);
	hsat_dispatch_pkt(&p, kobj, ka, grid, wg, s);
	if (hsat_submit(q, &p) != UINT64_MAX) {
		ret = hsat_wait_below(s, 1, 20000, ws, &v);
		CHECK(ret == 0, "%s: completion signal still %lld after 20 s", what,
		      (long long)v);
	}
	hsa_signal_destroy(s);
	hsa_amd_memory_pool_free(ka);
	return ret;
}

static void test_kernels(struct hsat_gpu *g, hsa_queue_t *q)
{
	enum { N = 4096 };
	uint32_t *buf = hsat_alloc(h.sys, N * 4);
	float *a = hsat_alloc(h.sys, N * 4), *b = hsat_alloc(h.sys, N * 4);
	float *c = hsat_alloc(h.sys, N * 4);
	uint64_t *counter = hsat_alloc(h.sys, 64);
	int bad = 0;

	if (!buf || !a || !b || !c || !counter)
		return;
	/* FILL into fine-grained system memory */
	memset(buf, 0xee, N * 4);
	struct hsagpu_kargs_fill fa = { .dst = (uintptr_t)buf, .value = 0x5a5a0000u | 77 };
	if (!run_kernel(q, HSAGPU_KERNEL_FILL, &fa, sizeof(fa), N - 3, 256,
			HSA_WAIT_STATE_BLOCKED, "FILL")) {
		for (int i = 0; i < N; i++)
			bad += buf[i] != (i < N - 3 ? fa.value : 0xeeeeeeeeu);
		CHECK(!bad, "%s: FILL: %d of %d words wrong (grid N-3: the tail untouched)",
		      g->pci, bad, N);
	}
	/* VADD */
	for (int i = 0; i < N; i++) {
		a[i] = i * 0.5f;
		b[i] = 1000.0f - i;
		c[i] = -1.0f;
	}
	struct hsagpu_kargs_vadd va = { (uintptr_t)a, (uintptr_t)b, (uintptr_t)c };
	if (!run_kernel(q, HSAGPU_KERNEL_VADD, &va, sizeof(va), N, 64,
			HSA_WAIT_STATE_ACTIVE, "VADD")) {
		bad = 0;
		for (int i = 0; i < N; i++)
			bad += c[i] != a[i] + b[i];
		CHECK(!bad, "%s: VADD: %d of %d sums wrong", g->pci, bad, N);
	}
	/* IDS: workgroup id << 16 | id within the workgroup */
	struct hsagpu_kargs_ids ia = { (uintptr_t)buf };
	if (!run_kernel(q, HSAGPU_KERNEL_IDS, &ia, sizeof(ia), 1000, 128,
			HSA_WAIT_STATE_BLOCKED, "IDS")) {
		bad = 0;
		for (int i = 0; i < 1000; i++)
			bad += buf[i] != ((uint32_t)(i / 128) << 16 | (i % 128));
		CHECK(!bad, "%s: IDS: %d of 1000 ids wrong", g->pci, bad);
	}
	/* ATOMIC_INC: a u64 counter, one increment per work-item */
	*counter = 1000;
	struct hsagpu_kargs_atomic_inc ai = { (uintptr_t)counter };
	if (!run_kernel(q, HSAGPU_KERNEL_ATOMIC_INC, &ai, sizeof(ai), 3000, 256,
			HSA_WAIT_STATE_BLOCKED, "ATOMIC_INC"))
		CHECK(*counter == 4000, "%s: ATOMIC_INC: counter %llu, expected 4000",
		      g->pci, (unsigned long long)*counter);
	hsa_amd_memory_pool_free(buf);
	hsa_amd_memory_pool_free(a);
	hsa_amd_memory_pool_free(b);
	hsa_amd_memory_pool_free(c);
	hsa_amd_memory_pool_free(counter);
}

/*
 * A barrier packet of @type on signals @d0, @d1 (completion @done), then
 * a FILL with the barrier bit: nothing may run before the barrier's
 * condition holds.
 */
static void test_barrier(struct hsat_gpu *g, hsa_queue_t *q, hsa_packet_type_t type)
{
	const char *name = type == HSA_PACKET_TYPE_BARRIER_AND ? "BARRIER_AND" : "BARRIER_OR";
	hsa_signal_t d0, d1, done, fdone;
	hsa_barrier_and_packet_t bp;
	hsa_kernel_dispatch_packet_t fp;
	uint32_t *word = hsat_alloc(h.sys, 64);
	struct hsagpu_kargs_fill fa = { .dst = (uintptr_t)word, .value = 0xb0b0 };
	void *ka = hsat_kernarg(&h, &fa, sizeof(fa));
	hsa_signal_value_t v;

	if (!word || !ka)
		return;
	*word = 0;
	hsat_phase(name);
	HSAT_CHECK(hsa_signal_create(1, 0, NULL, &d0));
	HSAT_CHECK(hsa_signal_create(1, 0, NULL, &d1));
	HSAT_CHECK(hsa_signal_create(1, 0, NULL, &done));
	HSAT_CHECK(hsa_signal_create(1, 0, NULL, &fdone));
	memset(&bp, 0, sizeof(bp));
	bp.header = hsat_header(type, 1);
	bp.dep_signal[0] = d0;
	bp.dep_signal[1] = d1;
	bp.completion_signal = done;
	hsat_submit(q, &bp);
	hsat_dispatch_pkt(&fp, HSAGPU_KERNEL_FILL, ka, 1, 1, fdone);
	hsat_submit(q, &fp);

	/* held: neither the barrier nor the FILL behind it completes */
	CHECK(hsat_wait_below(done, 1, 300, HSA_WAIT_STATE_BLOCKED, &v) < 0,
	      "%s: %s completed with both dependencies pending", g->pci, name);
	CHECK(*word == 0, "%s: the FILL behind %s ran early", g->pci, name);
	hsa_signal_store_screlease(d1, 0);
	if (type == HSA_PACKET_TYPE_BARRIER_AND) {
		CHECK(hsat_wait_below(done, 1, 300, HSA_WAIT_STATE_ACTIVE, &v) < 0,
		      "%s: BARRIER_AND completed with one dependency pending", g->pci);
		CHECK(*word == 0, "%s: the FILL behind BARRIER_AND ran early", g->pci);
		hsa_signal_store_screlease(d0, 0);
	}
	CHECK(!hsat_wait_below(done, 1, 20000, HSA_WAIT_STATE_BLOCKED, &v),
	      "%s: %s not complete 20 s after its condition held (signal %lld)",
	      g->pci, name, (long long)v);
	CHECK(!hsat_wait_below(fdone, 1, 20000, HSA_WAIT_STATE_BLOCKED, &v),
	      "%s: the FILL behind %s did not complete", g->pci, name);
	CHECK(*word == 0xb0b0, "%s: FILL behind %s wrote 0x%x", g->pci, name, *word);
	if (type == HSA_PACKET_TYPE_BARRIER_OR)
		CHECK(hsa_signal_load_scacquire(d0) == 1,
		      "%s: BARRIER_OR changed a dependency signal", g->pci);
	hsa_signal_destroy(d0);
	hsa_signal_destroy(d1);
	hsa_signal_destroy(done);
	hsa_signal_destroy(fdone);
	hsa_amd_memory_pool_free(ka);
	hsa_amd_memory_pool_free(word);
}

/*
 * The wait states. A BLOCKED wait sleeps in the driver until the
 * completion interrupt wakes it: with a 20 s timeout hint on a 50 ms
 * kernel it must return long before the hint (a missing wake-up returns
 * at the timeout). ACTIVE polls. An unsignalled wait honours its hint.
 */
static void test_waits(struct hsat_gpu *g, hsa_queue_t *q)
{
	const hsa_wait_state_t states[] = { HSA_WAIT_STATE_BLOCKED, HSA_WAIT_STATE_ACTIVE };

	for (int i = 0; i < 2; i++) {
		const char *wn = i ? "ACTIVE" : "BLOCKED";
		struct hsagpu_kargs_busy ba = { .ns = 50 * 1000 * 1000 };
		void *ka = hsat_kernarg(&h, &ba, sizeof(ba));
		hsa_kernel_dispatch_packet_t p;
		hsa_signal_t s;
		hsa_signal_value_t v;
		double t0;

		if (!ka || HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s)))
			return;
		hsat_phase(wn);
		hsat_dispatch_pkt(&p, HSAGPU_KERNEL_BUSY, ka, 1, 1, s);
		t0 = now_s();
		hsat_submit(q, &p);
		v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0,
					      20 * h.ts_freq, states[i]);
		DIAG("%s: %s wait on a 50 ms BUSY kernel returned %lld after %.3f s",
		     g->pci, wn, (long long)v, now_s() - t0);
		CHECK(v == 0, "%s: %s wait returned %lld, not 0", g->pci, wn, (long long)v);
		CHECK(now_s() - t0 < 10, "%s: %s wait was not woken by the completion "
		      "(%.1f s of a 20 s hint)", g->pci, wn, now_s() - t0);
		/* nothing signals it now: the hint (0.2 s) ends the wait */
		t0 = now_s();
		v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 0,
					      h.ts_freq / 5, states[i]);
		CHECK(v == 0, "%s: %s wait on an idle signal returned %lld", g->pci, wn,
		      (long long)v);
		hsa_signal_destroy(s);
		hsa_amd_memory_pool_free(ka);
	}
}

/* Producers sharing one queue */
enum { THREADS = 4, PER_THREAD = 48, WORDS = 64 };
struct producer {
	pthread_t tid;
	int idx;
	hsa_queue_t *q;
	uint32_t *buf;
	uint8_t *kargs;
	hsa_signal_t done;
	int failed;
};

static void *producer(void *arg)
{
	struct producer *p = arg;

	for (int k = 0; k < PER_THREAD; k++) {
		int slot = p->idx * PER_THREAD + k;
		struct hsagpu_kargs_fill *fa = (void *)(p->kargs + slot * 64);
		hsa_kernel_dispatch_packet_t pkt;

		fa->dst = (uintptr_t)(p->buf + slot * WORDS);
		fa->value = (uint32_t)(p->idx + 1) << 16 | k;
		hsat_dispatch_pkt(&pkt, HSAGPU_KERNEL_FILL, fa, WORDS, WORDS, p->done);
		pkt.header = hsat_header(HSA_PACKET_TYPE_KERNEL_DISPATCH, 0);
		if (hsat_submit(p->q, &pkt) == UINT64_MAX) {
			p->failed = 1;
			break;
		}
	}
	return NULL;
}

static void test_producers(struct hsat_gpu *g)
{
	struct producer pr[THREADS];
	const int total = THREADS * PER_THREAD;
	uint32_t *buf = hsat_alloc(h.sys, total * WORDS * 4);
	uint8_t *kargs = hsat_alloc(h.kernarg, total * 64);
	hsa_queue_t *q = NULL;
	hsa_signal_t done;
	hsa_signal_value_t v;
	int bad = 0;

	if (!buf || !kargs)
		return;
	hsat_phase("producer threads");
	/* 64 slots for 192 packets: the producers wait for room and wrap */
	if (HSAT_CHECK(hsa_queue_create(g->agent, 64, HSA_QUEUE_TYPE_MULTI, on_queue_error,
					NULL, UINT32_MAX, UINT32_MAX, &q)))
		return;
	memset(buf, 0, total * WORDS * 4);
	HSAT_CHECK(hsa_signal_create(total, 0, NULL, &done));
	for (int t = 0; t < THREADS; t++) {
		pr[t] = (struct producer){ .idx = t, .q = q, .buf = buf, .kargs = kargs,
					   .done = done };
		pthread_create(&pr[t].tid, NULL, producer, &pr[t]);
	}
	for (int t = 0; t < THREADS; t++) {
		pthread_join(pr[t].tid, NULL);
		CHECK(!pr[t].failed, "%s: producer %d could not submit", g->pci, t);
	}
	CHECK(!hsat_wait_below(done, 1, 30000, HSA_WAIT_STATE_BLOCKED, &v),
	      "%s: %lld of %d packets of the producers not complete after 30 s",
	      g->pci, (long long)v, total);
	for (int t = 0; t < THREADS; t++)
		for (int k = 0; k < PER_THREAD; k++)
			for (int w = 0; w < WORDS; w++)
				bad += buf[(t * PER_THREAD + k) * WORDS + w] !=
				       ((uint32_t)(t + 1) << 16 | k);
	CHECK(!bad, "%s: %d of %d words written by the producers' packets wrong",
	      g->pci, bad, total * WORDS);
	CHECK(hsa_queue_load_read_index_scacquire(q) == (uint64_t)total,
	      "%s: read index %llu after %d packets", g->pci,
	      (unsigned long long)hsa_queue_load_read_index_scacquire(q), total);
	hsa_signal_destroy(done);
	HSAT_CHECK(hsat_queue_destroy(q));
	hsa_amd_memory_pool_free(buf);
	hsa_amd_memory_pool_free(kargs);
}

int main(void)
{
	hsat_watchdog(120);
	if (hsat_init(&h))
		return gt_result();
	for (int i = 0; i < h.ngpu; i++) {
		struct hsat_gpu *g = &h.gpu[i];
		hsa_queue_t *q = NULL;
		uint32_t qmax = 0;

		check_agent(g);
		hsat_phase("queue create");
		hsa_agent_get_info(g->agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &qmax);
		CHECK(hsa_queue_create(g->agent, 1000, HSA_QUEUE_TYPE_MULTI, NULL, NULL,
				       UINT32_MAX, UINT32_MAX, &q) ==
		      HSA_STATUS_ERROR_INVALID_ARGUMENT,
		      "%s: a 1000-packet queue (not a power of two) was accepted", g->pci);
		if (HSAT_CHECK(hsa_queue_create(g->agent, 1024, HSA_QUEUE_TYPE_MULTI,
						on_queue_error, NULL, UINT32_MAX,
						UINT32_MAX, &q)))
			continue;
		DIAG("%s: queue %llu, %u packets at %p", g->pci, (unsigned long long)q->id,
		     q->size, q->base_address);
		test_kernels(g, q);
		test_barrier(g, q, HSA_PACKET_TYPE_BARRIER_AND);
		test_barrier(g, q, HSA_PACKET_TYPE_BARRIER_OR);
		test_waits(g, q);
		HSAT_CHECK(hsat_queue_destroy(q));
		test_producers(g);
	}
	CHECK(atomic_load(&queue_errors) == 0, "%d queue error callbacks (last %s)",
	      atomic_load(&queue_errors), hsat_status_name(atomic_load(&last_queue_error)));
	hsat_phase("hsa_shut_down");
	HSAT_CHECK(hsat_shut_down());
	return gt_result();
}
