// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * AQL queue mechanics: ring wrap-around (1000 packets through 16 slots),
 * four threads producing into one queue (every packet runs exactly once,
 * dispatch ids and the retired count agree), headers back to INVALID,
 * queues created and destroyed many times without leaking, every
 * hardware queue usable at once; SUSPEND/RESUME through the driver.
 * Wrap-around and every queue on every device, the rest on the first.
 */
#include <pthread.h>
#include <stdlib.h>

#include "gtq.h"

#define WRAP_PACKETS 1000

static void test_wrap(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 16, 0);
	volatile uint64_t *slot = gtq_alloc(d, WRAP_PACKETS * 8 + 4096,
					    HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t s = gtq_signal(d, 1);
	struct hsagpu_queue_status st0, st1;
	uint64_t w0, bad = 0, first = WRAP_PACKETS;
	uint32_t proc0 = gtq_reg(d, HSAGPU_REG_PKT_PROCESSED);

	if (!q || !slot)
		return;
	CHECK(gtq_status(q, &st0) == 0, "QUEUE_STATUS: %s", strerror(errno));
	w0 = hsagpu_queue_load_write_index(q);
	for (int i = 0; i < WRAP_PACKETS; i++) {
		hsagpu_signal_t none = { 0 };

		gtq_write(q, &slot[i], 0xa000000000000000ULL | i,
			  i == WRAP_PACKETS - 1 ? s : none, 0);
	}
	GTQ_WAIT(s, 0, 8000);
	CHECK(gtq_wait_idle(q, 2000), "read %llu, write %llu",
	      (unsigned long long)hsagpu_queue_load_read_index(q),
	      (unsigned long long)hsagpu_queue_load_write_index(q));
	CHECK_EQ_U64(hsagpu_queue_load_write_index(q) - w0, WRAP_PACKETS);
	CHECK_EQ_U64(q->desc->read_dispatch_id, q->desc->write_dispatch_id);
	for (int i = 0; i < WRAP_PACKETS; i++) {
		if (slot[i] != (0xa000000000000000ULL | i)) {
			bad++;
			if (first == WRAP_PACKETS)
				first = i;
		}
	}
	CHECK(bad == 0, "%llu of %d packets did not write (first %llu: 0x%llx)",
	      (unsigned long long)bad, WRAP_PACKETS, (unsigned long long)first,
	      (unsigned long long)(first < WRAP_PACKETS ? slot[first] : 0));
	CHECK(slot[WRAP_PACKETS] == 0, "wrote past the last slot");
	CHECK(gtq_valid_headers(q) == 0, "%u headers not INVALID",
	      gtq_valid_headers(q));
	CHECK(gtq_status(q, &st1) == 0, "QUEUE_STATUS: %s", strerror(errno));
	CHECK_EQ_U64(st1.retired - st0.retired, WRAP_PACKETS);
	CHECK_EQ_U64(st1.state, HSAGPU_QSTATE_ACTIVE);
	CHECK((uint32_t)(gtq_reg(d, HSAGPU_REG_PKT_PROCESSED) - proc0) >=
	      WRAP_PACKETS, "PKT_PROCESSED advanced by %u",
	      gtq_reg(d, HSAGPU_REG_PKT_PROCESSED) - proc0);
	DIAG("%s: %d packets through a ring of %u: read id %llu", d->pci,
	     WRAP_PACKETS, q->size,
	     (unsigned long long)hsagpu_queue_load_read_index(q));
	hsagpu_signal_destroy(s);
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
}

/*
 * HSA producers may reserve slots beyond the free space and wait for
 * each before writing it: the device must wait for the headers, not fail.
 */
static void test_reserve_ahead(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 16, 0);
	volatile uint64_t *slot = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t s = gtq_signal(d, 64);
	uint32_t err = 0;
	uint64_t base, eid = 0;
	unsigned int bad = 0;
	int state;

	if (!q || !slot)
		return;
	base = hsagpu_queue_add_write_index(q, 64);     /* 4 rings' worth */
	hsagpu_queue_ring_doorbell(q, base + 63);
	for (uint64_t i = 0; i < 64; i++) {
		struct hsagpu_agent_dispatch_packet pkt;
		uint64_t args[4] = { 0xd000 + i, 0, 0, 0 };
		void *p;

		if (hsagpu_queue_wait_slot(q, base + i)) {
			CHECK(0, "slot %llu never became free",
			      (unsigned long long)i);
			break;
		}
		p = hsagpu_queue_slot(q, base + i);
		hsagpu_packet_agent(&pkt, HSAGPU_AGENT_WRITE_VALUE,
				    (uintptr_t)&slot[i],
				    args, s);
		memcpy((char *)p + 4, (char *)&pkt + 4, sizeof(pkt) - 4);
		/* The agent function sits where a dispatch has setup. */
		hsagpu_packet_publish(p, GTQ_HDR(HSAGPU_PKT_TYPE_AGENT_DISPATCH, 0),
				      pkt.type);
		hsagpu_queue_ring_doorbell(q, base + i);
	}
	GTQ_WAIT(s, 0, 5000);
	state = hsagpu_queue_state(q, &err, &eid);
	CHECK(state == HSAGPU_QSTATE_ACTIVE,
	      "reserving 64 slots of a 16-slot ring: state %d error %u", state,
	      err);
	for (int i = 0; i < 64; i++)
		bad += slot[i] != 0xd000ULL + i;
	CHECK(bad == 0, "%u of 64 reserved-ahead packets did not run", bad);
	CHECK(gtq_wait_idle(q, 1000), "not idle");
	hsagpu_signal_destroy(s);
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
}

/* Four producers, one queue of 64 slots, 250 packets each. */
#define PRODUCERS 4
#define PER_THREAD 250
#define MT_PACKETS (PRODUCERS * PER_THREAD)

struct mt {
	hsagpu_queue_t *q;
	volatile uint64_t *slot;        /* one per packet */
	uint8_t *kargs;                 /* 64 bytes per packet */
	hsagpu_signal_t sig;            /* MT_PACKETS, one decrement each */
	volatile int go;
	int failed_submits;
};

struct producer {
	struct mt *mt;
	int idx;
};

/* Packet k: even ATOMIC_INC of slot[k] over (k % 7 + 1) work-items, odd WRITE_VALUE. */
static uint64_t mt_expect(int k)
{
	return k & 1 ? 0xb000000000000000ULL | k : (uint64_t)(k % 7 + 1);
}

static void *producer(void *arg)
{
	struct producer *p = arg;
	struct mt *mt = p->mt;

	while (!mt->go)
		;
	for (int j = 0; j < PER_THREAD; j++) {
		int k = j * PRODUCERS + p->idx;
		int64_t id;

		if (k & 1) {
			struct hsagpu_agent_dispatch_packet pkt;
			uint64_t args[4] = { mt_expect(k), 0, 0, 0 };

			memset(&pkt, 0, sizeof(pkt));
			hsagpu_packet_agent(&pkt, HSAGPU_AGENT_WRITE_VALUE,
					    (uintptr_t)&mt->slot[k],
					    args, mt->sig);
			id = hsagpu_queue_submit(mt->q, &pkt,
						 GTQ_HDR(HSAGPU_PKT_TYPE_AGENT_DISPATCH, 0));
		} else {
			struct hsagpu_kernel_dispatch_packet pkt;
			struct hsagpu_kargs_atomic_inc *ka =
				(void *)(mt->kargs + 64 * k);
			uint32_t grid[3] = { k % 7 + 1, 1, 1 };
			uint16_t wg[3] = { 2, 1, 1 };

			ka->counter = (uintptr_t)&mt->slot[k];
			memset(&pkt, 0, sizeof(pkt));
			hsagpu_packet_dispatch(&pkt, HSAGPU_KERNEL_ATOMIC_INC,
					       (uintptr_t)ka,
					       grid, wg, 1, mt->sig);
			id = hsagpu_queue_submit(mt->q, &pkt,
						 GTQ_HDR(HSAGPU_PKT_TYPE_KERNEL_DISPATCH, 0));
		}
		if (id < 0)
			__atomic_fetch_add(&mt->failed_submits, 1,
					   __ATOMIC_RELAXED);
	}
	return NULL;
}

static void test_producers(struct gtq_dev *d)
{
	struct mt mt = { 0 };
	struct producer p[PRODUCERS];
	pthread_t t[PRODUCERS];
	struct hsagpu_queue_status st0, st1;
	uint64_t w0;
	int bad = 0, first = -1;
	int64_t v;

	mt.q = gtq_queue(d, 64, 0);
	mt.slot = gtq_alloc(d, MT_PACKETS * 8, HSAGPU_RT_MEM_SYSTEM);
	mt.kargs = gtq_alloc(d, MT_PACKETS * 64, HSAGPU_RT_MEM_SYSTEM);
	mt.sig = gtq_signal(d, MT_PACKETS);
	if (!mt.q || !mt.slot || !mt.kargs)
		return;
	CHECK(gtq_status(mt.q, &st0) == 0, "QUEUE_STATUS");
	w0 = hsagpu_queue_load_write_index(mt.q);
	for (int i = 0; i < PRODUCERS; i++) {
		p[i].mt = &mt;
		p[i].idx = i;
		pthread_create(&t[i], NULL, producer, &p[i]);
	}
	mt.go = 1;
	for (int i = 0; i < PRODUCERS; i++)
		pthread_join(t[i], NULL);
	CHECK(mt.failed_submits == 0, "%d submits failed", mt.failed_submits);

	/* A packet running twice would take the signal below zero. */
	v = hsagpu_signal_wait_acquire(mt.sig, HSAGPU_SIGNAL_CONDITION_LT, 1,
				       8000 * GTQ_MS, HSAGPU_WAIT_STATE_BLOCKED);
	CHECK(v < 1, "shared completion signal %lld after 8 s", (long long)v);
	CHECK(gtq_wait_idle(mt.q, 2000), "read %llu, write %llu",
	      (unsigned long long)hsagpu_queue_load_read_index(mt.q),
	      (unsigned long long)hsagpu_queue_load_write_index(mt.q));
	gtq_sleep_ms(20);
	CHECK(gtq_value(mt.sig) == 0, "shared signal %lld: %s",
	      (long long)gtq_value(mt.sig),
	      gtq_value(mt.sig) < 0 ? "packets ran twice" : "packets lost");
	CHECK_EQ_U64(hsagpu_queue_load_write_index(mt.q) - w0, MT_PACKETS);
	CHECK_EQ_U64(mt.q->desc->read_dispatch_id, mt.q->desc->write_dispatch_id);
	for (int k = 0; k < MT_PACKETS; k++) {
		if (mt.slot[k] != mt_expect(k)) {
			bad++;
			if (first < 0)
				first = k;
		}
	}
	CHECK(bad == 0, "%d of %d per-packet slots wrong (first %d: 0x%llx, expected 0x%llx)",
	      bad, MT_PACKETS, first,
	      (unsigned long long)(first >= 0 ? mt.slot[first] : 0),
	      (unsigned long long)(first >= 0 ? mt_expect(first) : 0));
	CHECK(gtq_valid_headers(mt.q) == 0, "%u headers not INVALID",
	      gtq_valid_headers(mt.q));
	CHECK(gtq_status(mt.q, &st1) == 0, "QUEUE_STATUS");
	CHECK_EQ_U64(st1.retired - st0.retired, MT_PACKETS);
	DIAG("%s: %d producers x %d packets into %u slots: exact", d->pci,
	     PRODUCERS, PER_THREAD, mt.q->size);
	hsagpu_signal_destroy(mt.sig);
	CHECK(hsagpu_queue_destroy(mt.q) == 0, "destroy");
}

/* Queues come and go; every one works; nothing leaks. */
static void test_churn(struct gtq_dev *d)
{
	volatile uint64_t *slot = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t s = gtq_signal(d, 1);
	long active0 = gtq_queues_active(d);
	int bad = 0, rounds = 100;

	if (!slot)
		return;
	CHECK(active0 >= 0, "no hsagpu/queues_active in sysfs");
	for (int i = 0; i < rounds; i++) {
		uint32_t size = 4U << (i % 8);          /* 4 .. 512 */
		hsagpu_queue_t *q = NULL;
		int ret = hsagpu_queue_create(d->agent, size, i % 16,
					      i & 1 ? HSAGPU_QUEUE_PROFILE : 0,
					      &q);

		if (ret) {
			CHECK(0, "round %d: create size %u: %d", i, size, ret);
			break;
		}
		if (i == 0)
			CHECK(gtq_queues_active(d) == active0 + 1,
			      "queues_active %ld with one more queue (was %ld)",
			      gtq_queues_active(d), active0);
		hsagpu_signal_store_release(s, 1);
		gtq_write(q, &slot[i % 256], i + 1, s, 0);
		if (!gtq_wait_eq(s, 0, 2000) || slot[i % 256] != (uint64_t)i + 1)
			bad++;
		ret = hsagpu_queue_destroy(q);
		CHECK(ret == 0, "round %d: destroy: %d", i, ret);
	}
	CHECK(bad == 0, "%d of %d fresh queues did not run their packet", bad,
	      rounds);
	CHECK(gtq_queues_active(d) == active0, "queues_active %ld, was %ld",
	      gtq_queues_active(d), active0);
	hsagpu_signal_destroy(s);
}

static int queue_cmd(hsagpu_queue_t *q, unsigned long cmd)
{
	struct hsagpu_queue_id qi = { .size = sizeof(qi), .queue_id = q->id };

	errno = 0;
	return ioctl(hsagpu_agent_fd(q->agent), cmd, &qi) ? errno : 0;
}

static uint32_t queue_state(hsagpu_queue_t *q)
{
	struct hsagpu_queue_status st;

	return gtq_status(q, &st) ? 0xffffffffU : st.state;
}

/*
 * SUSPEND_QUEUE and RESUME_QUEUE through the driver: a suspended queue
 * fetches nothing (packets and doorbells wait, the read index stays),
 * a BUSY already launched still completes, and RESUME runs what waited,
 * in order. SUSPEND twice or RESUME of an active queue: EBUSY. A
 * suspended queue can be destroyed.
 */
static void test_suspend(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 16, 0);
	volatile uint64_t *slot = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	struct gtq_arena ka;
	hsagpu_signal_t s = gtq_signal(d, 3), sb = gtq_signal(d, 1);
	struct hsagpu_queue_status st0, st1;
	long active0 = gtq_queues_active(d);
	uint64_t r0;
	int64_t busy_id;

	gtq_arena_init(d, &ka, 4096);
	if (!q || !slot || !ka.base)
		return;
	EXPECT(queue_cmd(q, HSAGPU_IOC_RESUME_QUEUE), EBUSY, "RESUME of an active queue");
	EXPECT(queue_cmd(q, HSAGPU_IOC_SUSPEND_QUEUE), 0, "SUSPEND_QUEUE");
	CHECK_EQ_U64(queue_state(q), HSAGPU_QSTATE_SUSPENDED);
	EXPECT(queue_cmd(q, HSAGPU_IOC_SUSPEND_QUEUE), EBUSY, "SUSPEND twice");

	/* Submitted (doorbell rung) while suspended: nothing runs. */
	r0 = hsagpu_queue_load_read_index(q);
	CHECK(gtq_status(q, &st0) == 0, "QUEUE_STATUS");
	for (int i = 0; i < 3; i++)
		gtq_write(q, &slot[i], 0x5005 + i, s, 0);
	gtq_sleep_ms(100);
	CHECK(gtq_value(s) == 3 && !slot[0] && !slot[1] && !slot[2],
	      "suspended queue ran packets: signal %lld, slots 0x%llx 0x%llx 0x%llx",
	      (long long)gtq_value(s), (unsigned long long)slot[0],
	      (unsigned long long)slot[1], (unsigned long long)slot[2]);
	CHECK(hsagpu_queue_load_read_index(q) == r0,
	      "read index moved from %llu to %llu while suspended",
	      (unsigned long long)r0,
	      (unsigned long long)hsagpu_queue_load_read_index(q));
	CHECK(gtq_status(q, &st1) == 0 && st1.retired == st0.retired,
	      "retired %u -> %u while suspended", st0.retired, st1.retired);
	CHECK_EQ_U64(queue_state(q), HSAGPU_QSTATE_SUSPENDED);

	EXPECT(queue_cmd(q, HSAGPU_IOC_RESUME_QUEUE), 0, "RESUME_QUEUE");
	GTQ_WAIT(s, 0, 5000);
	CHECK(slot[0] == 0x5005 && slot[1] == 0x5006 && slot[2] == 0x5007,
	      "after RESUME: slots 0x%llx 0x%llx 0x%llx",
	      (unsigned long long)slot[0], (unsigned long long)slot[1],
	      (unsigned long long)slot[2]);
	CHECK(gtq_wait_idle(q, 2000), "not idle after RESUME");
	CHECK_EQ_U64(queue_state(q), HSAGPU_QSTATE_ACTIVE);

	/*
	 * A BUSY launched before SUSPEND completes while suspended; the
	 * packet behind it (barrier bit: it waits for BUSY) does not run
	 * until RESUME. BUSY is long so that SUSPEND comes while it runs;
	 * if the CPU was slower than that, this part says so and is skipped.
	 */
	hsagpu_signal_store_release(s, 1);
	busy_id = gtq_busy(q, &ka, 1000 * GTQ_MS, sb, 0);
	gtq_write(q, &slot[3], 0xb0b0, s, 1);
	for (uint64_t end = gtq_now_ns() + 5000 * GTQ_MS;
	     busy_id >= 0 && hsagpu_queue_load_read_index(q) <= (uint64_t)busy_id &&
	     gtq_now_ns() < end;)
		usleep(200);
	CHECK(busy_id >= 0 && hsagpu_queue_load_read_index(q) > (uint64_t)busy_id,
	      "BUSY not launched: read index %llu",
	      (unsigned long long)hsagpu_queue_load_read_index(q));
	EXPECT(queue_cmd(q, HSAGPU_IOC_SUSPEND_QUEUE), 0, "SUSPEND with BUSY in flight");
	if (gtq_value(sb) == 0) {
		DIAG("BUSY(1 s) ended before SUSPEND: in-flight completion not checked");
	} else {
		GTQ_WAIT(sb, 0, 10000);
		CHECK_EQ_U64(queue_state(q), HSAGPU_QSTATE_SUSPENDED);
		gtq_sleep_ms(100);
		CHECK(gtq_value(s) == 1 && slot[3] == 0,
		      "packet behind BUSY ran while suspended (signal %lld slot 0x%llx)",
		      (long long)gtq_value(s), (unsigned long long)slot[3]);
	}
	EXPECT(queue_cmd(q, HSAGPU_IOC_RESUME_QUEUE), 0, "RESUME_QUEUE");
	GTQ_WAIT(s, 0, 5000);
	CHECK(slot[3] == 0xb0b0, "packet behind BUSY after RESUME: 0x%llx",
	      (unsigned long long)slot[3]);
	CHECK(gtq_value(sb) == 0, "BUSY signal %lld", (long long)gtq_value(sb));

	/* Destroying a suspended queue works and frees it. */
	EXPECT(queue_cmd(q, HSAGPU_IOC_SUSPEND_QUEUE), 0, "SUSPEND before destroy");
	hsagpu_signal_destroy(s);
	hsagpu_signal_destroy(sb);
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy a suspended queue");
	CHECK(gtq_queues_active(d) == active0 - 1, "queues_active %ld, expected %ld",
	      gtq_queues_active(d), active0 - 1);
	DIAG("%s: SUSPEND/RESUME checked", d->pci);
}

/* Every hardware queue at once, each running a packet; one more fails. */
static void test_all_queues(struct gtq_dev *d)
{
	uint32_t nq = d->info->num_queues;
	hsagpu_queue_t **qs = calloc(nq + 1, sizeof(*qs));
	volatile uint64_t *slot = gtq_alloc(d, 8 * (nq + 1),
					    HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t s = gtq_signal(d, 0);
	uint32_t n = 0, bad = 0, ids_ok = 1;
	long active0 = gtq_queues_active(d);
	int ret;

	if (!qs || !slot)
		return;
	for (n = 0; n < nq; n++) {
		ret = hsagpu_queue_create(d->agent, 8, 0, 0, &qs[n]);
		if (ret)
			break;
		ids_ok &= qs[n]->id < nq;
	}
	CHECK(n == nq, "created %u of %u queues (%d)", n, nq, ret);
	CHECK(ids_ok, "a queue id >= num_queues");
	ret = hsagpu_queue_create(d->agent, 8, 0, 0, &qs[nq]);
	CHECK(ret == -ENOSPC, "queue %u of %u: %d, expected -ENOSPC", nq + 1,
	      nq, ret);
	if (!ret)
		hsagpu_queue_destroy(qs[nq]);
	DIAG("%s: %u queues live; one more gives %d", d->pci, n, ret);
	CHECK(gtq_queues_active(d) == active0 + n, "queues_active %ld, expected %ld",
	      gtq_queues_active(d), active0 + n);
	hsagpu_signal_store_release(s, n);
	for (uint32_t i = 0; i < n; i++)
		gtq_write(qs[i], &slot[i], 0xc0000000ULL + i, s, 0);
	GTQ_WAIT(s, 0, 5000);
	for (uint32_t i = 0; i < n; i++)
		bad += slot[i] != 0xc0000000ULL + i;
	CHECK(bad == 0, "%u of %u queues did not write", bad, n);
	for (uint32_t i = 0; i < n; i++)
		CHECK(hsagpu_queue_destroy(qs[i]) == 0, "destroy queue %u", i);
	CHECK(gtq_queues_active(d) == active0, "queues_active %ld, was %ld",
	      gtq_queues_active(d), active0);
	hsagpu_signal_destroy(s);
	free(qs);
}

int main(void)
{
	int n = hsagpu_agent_count(), ran = 0;

	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	for (int i = 0; i < n; i++) {
		struct gtq_dev d;

		if (gtq_open(i, &d) == 1) {
			/*
			 * Every device's own path (its signals' AtomicOps,
			 * its interrupts, every queue slot); the queue
			 * mechanics, the same code on every device, once.
			 */
			test_wrap(&d);
			test_all_queues(&d);
			if (!ran) {
				test_reserve_ahead(&d);
				test_producers(&d);
				test_churn(&d);
				test_suspend(&d);
			}
			ran++;
		}
		gtq_close(&d);
	}
	return gtq_result(ran, n);
}
