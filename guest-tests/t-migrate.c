// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Live migration with work in flight (scripts/test's boot-migrate; the
 * harness does the migration on a MIGRATE request, gthost.h):
 *
 * - threads blocked in WAIT_EVENTS (infinite) on completions that come
 *   only after the migration (packets held behind a BARRIER_AND on a
 *   CPU signal the test releases on the destination), and one on a BUSY
 *   kernel running while the guest migrates;
 * - a thread copying system memory -> VRAM -> system memory with the DMA
 *   engine in a loop, checking every round, through the migration;
 * - a VRAM pattern written by the CPU before.
 *
 * On the destination every waiter must return 0 with its event, the
 * packets behind the barrier must have run exactly once, every DMA round
 * must be right and the queues must still take work. Then a second
 * migration while idle. Without a harness: SKIP; without queues on this
 * platform only the VRAM and register part runs.
 */
#include <pthread.h>
#include <string.h>

#include "gtdma.h"
#include "gthost.h"
#include "gtioctl.h"

#define NGATED 3                /* waiters released after the migration */
#define COPY_BYTES HSAGPU_MEM_SYSTEM_CONTIG_MAX  /* one segment: one bus address */
#define VRAM_MARK_BYTES (1u << 20)

struct waiter {
	int fd;
	uint32_t ev;
	pthread_t thread;
	volatile int done;
	int ret;
	uint64_t signaled;
};

static void *waiter_fn(void *arg)
{
	struct waiter *w = arg;

	w->ret = gti_event_wait(w->fd, &w->ev, 1, 0, HSAGPU_WAIT_INFINITE,
				&w->signaled);
	__sync_synchronize();
	w->done = 1;
	return NULL;
}

static void start_waiter(struct waiter *w, struct gtq_dev *d,
			 hsagpu_signal_t s)
{
	w->fd = hsagpu_agent_fd(d->agent);
	w->ev = hsagpu_signal_ptr(s)->event_id;
	w->done = 0;
	CHECK(pthread_create(&w->thread, NULL, waiter_fn, w) == 0,
	      "pthread_create");
}

/* Wait up to @ms for a waiter; 1 if it returned (and was joined). */
static int join_waiter(struct waiter *w, unsigned int ms)
{
	uint64_t end = gtq_now_ns() + ms * GTQ_MS;

	while (!w->done && gtq_now_ns() < end)
		gtq_sleep_ms(10);
	if (!w->done)
		return 0;
	pthread_join(w->thread, NULL);
	return 1;
}

struct copier {
	struct gtq_dev *d;
	hsagpu_queue_t *q;
	uint8_t *src[2], *dst, *vram;
	hsagpu_signal_t sig;
	volatile int stop;
	volatile unsigned int rounds;
	unsigned int bad, stuck;
	pthread_t thread;
};

/*
 * src --DMA--> VRAM --DMA--> dst, a new pattern each round, checked. The
 * next round's pattern is made while the DMA runs: the engine is busy
 * most of the time, so the migration most likely catches it mid-copy.
 */
static void *copier_fn(void *arg)
{
	struct copier *c = arg;

	gtd_pattern(c->src[0], COPY_BYTES, 0x6d6967ULL);
	while (!c->stop) {
		uint8_t *src = c->src[c->rounds & 1];

		memset(c->dst, 0, COPY_BYTES);
		hsagpu_signal_store_release(c->sig, 1);
		__sync_synchronize();
		gtd_copy(c->q, (uintptr_t)c->vram, (uintptr_t)src,
			 COPY_BYTES, GTD_NONE);
		gtd_copy(c->q, (uintptr_t)c->dst, (uintptr_t)c->vram,
			 COPY_BYTES, c->sig);
		gtd_pattern(c->src[(c->rounds + 1) & 1], COPY_BYTES,
			    0x6d6967ULL + c->rounds + 1);
		if (!gtq_wait_eq(c->sig, 0, 60000)) {
			c->stuck++;
			break;
		}
		if (gtd_diff(c->dst, src, COPY_BYTES) != COPY_BYTES) {
			if (!c->bad)
				printf("# DMA round %u: first wrong byte at %zu\n",
				       c->rounds,
				       gtd_diff(c->dst, src, COPY_BYTES));
			c->bad++;
		}
		c->rounds++;
	}
	return NULL;
}

static int migrate(const char *why)
{
	char reply[512];
	uint64_t t0 = gtq_now_ns();
	int ret = gt_host("MIGRATE", reply, sizeof(reply));

	DIAG("MIGRATE (%s): %d %s, %.1f ms of guest time", why, ret, reply,
	     (gtq_now_ns() - t0) / 1e6);
	CHECK(ret > 0 && gt_json_find(reply, "return"),
	      "MIGRATE (%s) failed: %d %s", why, ret, reply);
	return ret > 0 && gt_json_find(reply, "return");
}

/* The VRAM through BAR0 as the CPU sees it, before and after. */
static volatile uint8_t *mark_vram(struct gtq_dev *d, uint8_t *copy)
{
	size_t len;
	volatile uint8_t *v = gt_map_resource(d->pci, 0, &len);

	if (!v || len < 2 * VRAM_MARK_BYTES) {
		CHECK(0, "%s: cannot map BAR0", d->pci);
		return NULL;
	}
	/* the end of VRAM, away from what the driver allocates first */
	v += len - VRAM_MARK_BYTES;
	gtd_pattern(copy, VRAM_MARK_BYTES, 0x7672616dULL);
	for (size_t i = 0; i < VRAM_MARK_BYTES; i++)
		v[i] = copy[i];
	return v;
}

static void test_in_flight(struct gtq_dev *d)
{
	hsagpu_queue_t *qg = gtq_queue(d, 64, 0), *qb = gtq_queue(d, 16, 0);
	hsagpu_queue_t *qc = gtq_queue(d, 64, 0);
	hsagpu_signal_t gate = gtq_signal(d, 1), busy = gtq_signal(d, 1);
	hsagpu_signal_t s[NGATED], after = gtq_signal(d, 1);
	volatile uint64_t *slots = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	struct waiter w[NGATED], wb;
	struct copier c = { .d = d, .q = qc };
	struct gtq_arena ka;
	unsigned int before;

	gtq_arena_init(d, &ka, 4096);
	c.src[0] = gtq_alloc(d, COPY_BYTES, HSAGPU_RT_MEM_SYSTEM);
	c.src[1] = gtq_alloc(d, COPY_BYTES, HSAGPU_RT_MEM_SYSTEM);
	c.dst = gtq_alloc(d, COPY_BYTES, HSAGPU_RT_MEM_SYSTEM);
	c.vram = gtq_alloc(d, COPY_BYTES, HSAGPU_RT_MEM_VRAM);
	c.sig = gtq_signal(d, 1);
	if (!qg || !qb || !qc || !slots || !ka.base || !c.src[0] || !c.src[1] || !c.dst ||
	    !c.vram) {
		CHECK(0, "setup failed");
		return;
	}
	/* held: BARRIER_AND on the CPU's gate, then one WRITE per waiter */
	gtq_barrier(qg, HSAGPU_PKT_TYPE_BARRIER_AND, &gate, 1, GTD_NONE, 0);
	for (int i = 0; i < NGATED; i++) {
		s[i] = gtq_signal(d, 1);
		slots[i] = 0;
		start_waiter(&w[i], d, s[i]);
	}
	__sync_synchronize();
	for (int i = 0; i < NGATED; i++)
		gtq_write(qg, &slots[i], 0x1000 + i, s[i], 0);
	/* running during the migration: a BUSY kernel and the DMA loop */
	start_waiter(&wb, d, busy);
	gtq_busy(qb, &ka, 1500 * GTQ_MS, busy, 0);
	CHECK(pthread_create(&c.thread, NULL, copier_fn, &c) == 0, "copier");
	gtq_sleep_ms(200);
	for (int i = 0; i < NGATED; i++)
		CHECK(!w[i].done, "waiter %d returned %d before its completion",
		      i, w[i].ret);
	before = c.rounds;
	DIAG("before MIGRATE: %u DMA rounds, BUSY signal %lld", before,
	     (long long)gtq_value(busy));

	if (!migrate("waiters blocked, BUSY and DMA running")) {
		/* release everything so that the threads end */
		c.stop = 1;
		hsagpu_signal_store_release(gate, 0);
	}

	/* destination: the held packets have not run; the BUSY finishes */
	for (int i = 0; i < NGATED; i++)
		CHECK(!w[i].done && slots[i] == 0 && gtq_value(s[i]) == 1,
		      "held packet %d ran before the gate opened (waiter done %d, slot 0x%llx)",
		      i, w[i].done, (unsigned long long)slots[i]);
	CHECK(join_waiter(&wb, 30000), "waiter on the BUSY kernel never returned");
	CHECK(wb.ret == 0 && wb.signaled == 1, "BUSY waiter: errno %d, signaled 0x%llx",
	      wb.ret, (unsigned long long)wb.signaled);
	CHECK(gtq_value(busy) == 0, "BUSY signal %lld", (long long)gtq_value(busy));
	/* the DMA loop goes on on the destination */
	for (int k = 0; k < 300 && c.rounds < before + 3 && !c.stuck; k++)
		gtq_sleep_ms(100);
	c.stop = 1;
	pthread_join(c.thread, NULL);
	DIAG("DMA rounds: %u before the migration, %u in all, %u wrong",
	     before, c.rounds, c.bad);
	CHECK(!c.stuck, "a DMA round never completed (round %u, signal %lld)",
	      c.rounds, (long long)gtq_value(c.sig));
	CHECK(c.bad == 0, "%u DMA rounds gave wrong data", c.bad);
	CHECK(c.rounds >= before + 3, "DMA loop stalled after the migration");

	hsagpu_signal_store_release(gate, 0);
	for (int i = 0; i < NGATED; i++) {
		CHECK(join_waiter(&w[i], 30000), "waiter %d never returned", i);
		CHECK(w[i].ret == 0 && w[i].signaled == 1,
		      "waiter %d: errno %d, signaled 0x%llx", i, w[i].ret,
		      (unsigned long long)w[i].signaled);
		CHECK(slots[i] == 0x1000u + i, "held packet %d wrote 0x%llx", i,
		      (unsigned long long)slots[i]);
	}
	/* the queues take new work */
	gtq_agent(qg, HSAGPU_AGENT_NOP, NULL, 0, after, 0);
	GTQ_WAIT(after, 0, 10000);
	CHECK(gtq_wait_idle(qg, 3000) && gtq_wait_idle(qb, 3000) &&
	      gtq_wait_idle(qc, 3000), "a queue is not idle");
	CHECK(hsagpu_queue_destroy(qg) == 0 && hsagpu_queue_destroy(qb) == 0 &&
	      hsagpu_queue_destroy(qc) == 0, "queue destroy");
}

int main(void)
{
	static uint8_t vram_copy[VRAM_MARK_BYTES];
	struct gtq_dev d;
	volatile uint8_t *v = NULL;
	uint64_t t0;
	int usable;

	if (!gt_host_attached())
		return gt_skip("no harness channel (hsagpu_test.host=1 not set)");
	usable = gtq_open(0, &d);
	if (usable < 0)
		return gt_result();
	t0 = gtq_dev_time(&d);
	v = mark_vram(&d, vram_copy);
	if (usable)
		test_in_flight(&d);
	else
		CHECK(migrate("no queues on this platform"), "MIGRATE");
	if (v)
		CHECK(gtd_diff(v, vram_copy, VRAM_MARK_BYTES) == VRAM_MARK_BYTES,
		      "VRAM changed across the migration at byte %zu",
		      gtd_diff(v, vram_copy, VRAM_MARK_BYTES));
	CHECK(gtq_dev_time(&d) > t0, "device time went backwards: %llu -> %llu",
	      (unsigned long long)t0, (unsigned long long)gtq_dev_time(&d));
	/*
	 * Once more, idle, to a fresh QEMU: the device still works, and what
	 * the guest set through QMP that QEMU does not migrate is carried
	 * over by the harness (fault-injection counts; here a property of
	 * the machine: dump-guest-core, true by default).
	 */
	CHECK(gt_qmp("{\"execute\": \"qom-set\", \"arguments\": {\"path\": \"/machine\", "
		     "\"property\": \"dump-guest-core\", \"value\": false}}", NULL, 0) == 0,
	      "qom-set /machine dump-guest-core false");
	if (migrate("idle") && usable) {
		hsagpu_queue_t *q = gtq_queue(&d, 16, 0);
		hsagpu_signal_t s = gtq_signal(&d, 1);

		if (q) {
			gtq_agent(q, HSAGPU_AGENT_NOP, NULL, 0, s, 0);
			GTQ_WAIT(s, 0, 10000);
			CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
		}
	}
	{
		char reply[256];
		const char *v;

		CHECK(gt_qmp("{\"execute\": \"qom-get\", \"arguments\": {\"path\": "
			     "\"/machine\", \"property\": \"dump-guest-core\"}}",
			     reply, sizeof(reply)) == 0, "qom-get dump-guest-core");
		v = gt_json_find(reply, "return");
		CHECK(v && !strncmp(v, "false", 5),
		      "a qom-set value did not survive the migration: %s", reply);
		gt_qmp("{\"execute\": \"qom-set\", \"arguments\": {\"path\": \"/machine\", "
		       "\"property\": \"dump-guest-core\", \"value\": true}}", NULL, 0);
	}
	gtq_close(&d);
	return gt_result();
}
