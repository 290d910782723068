// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Dependencies and ordering: BARRIER_AND and BARRIER_OR packets hold
 * their queue until the CPU or another queue (or another device)
 * completes the signals they name; the barrier bit orders a packet after
 * a long BUSY kernel, while without it a quick packet overtakes; a queue
 * blocked on a barrier does not hold up other queues. Each of the five
 * dependency slots counts, for AND and for OR.
 */
#include "gtdma.h"

#define NONE ((hsagpu_signal_t){ 0 })

/* The blocked packet after the barrier did nothing yet. */
#define CHECK_HELD(what, sig, slot)                                     \
	CHECK(gtq_value(sig) == 1 && *(slot) == 0,                      \
	      "%s: packet behind the barrier ran (signal %lld slot 0x%llx)", \
	      what, (long long)gtq_value(sig), (unsigned long long)*(slot))

/* CPU-held signals: AND needs all, OR needs any; 0 handles are ignored. */
static void test_cpu_deps(struct gtq_dev *d, uint32_t type)
{
	const char *name = type == HSAGPU_PKT_TYPE_BARRIER_AND ? "AND" : "OR";
	hsagpu_queue_t *q = gtq_queue(d, 16, 0);
	volatile uint64_t *slot = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t x = gtq_signal(d, 1), y = gtq_signal(d, 1);
	hsagpu_signal_t b = gtq_signal(d, 1), w = gtq_signal(d, 1);
	hsagpu_signal_t deps[3] = { x, NONE, y };

	if (!q || !slot)
		return;
	gtq_barrier(q, type, deps, 3, b, 0);
	gtq_write(q, &slot[0], 0x1234, w, 0);
	gtq_sleep_ms(100);
	CHECK(gtq_value(b) == 1, "BARRIER_%s completed with both deps at 1", name);
	CHECK_HELD(name, w, &slot[0]);
	if (type == HSAGPU_PKT_TYPE_BARRIER_AND) {
		/* One of two: still held. */
		hsagpu_signal_store_release(x, 0);
		gtq_sleep_ms(100);
		CHECK(gtq_value(b) == 1, "BARRIER_AND completed with one dep left");
		CHECK_HELD("AND, one dep left", w, &slot[0]);
	}
	hsagpu_signal_store_release(y, 0);
	GTQ_WAIT(w, 0, 3000);
	CHECK(gtq_value(b) == 0, "BARRIER_%s signal %lld", name,
	      (long long)gtq_value(b));
	CHECK(slot[0] == 0x1234, "packet after BARRIER_%s: 0x%llx", name,
	      (unsigned long long)slot[0]);
	if (type == HSAGPU_PKT_TYPE_BARRIER_OR)
		CHECK(gtq_value(x) == 1, "BARRIER_OR changed its dependency");
	CHECK(gtq_wait_idle(q, 1000), "queue not idle");
	hsagpu_signal_destroy(x);
	hsagpu_signal_destroy(y);
	hsagpu_signal_destroy(b);
	hsagpu_signal_destroy(w);
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
}

/*
 * All HSAGPU_BARRIER_DEPS (5) slots count. AND: for each slot k, the
 * other four complete and the barrier still holds until k does. OR: for
 * each slot k, all five hold it until k alone completes; the others are
 * left alone.
 */
static void test_all_slots(struct gtq_dev *d, uint32_t type)
{
	const int is_and = type == HSAGPU_PKT_TYPE_BARRIER_AND;
	const char *name = is_and ? "AND" : "OR";
	hsagpu_queue_t *q = gtq_queue(d, 16, 0);
	volatile uint64_t *slot = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t deps[HSAGPU_BARRIER_DEPS];
	hsagpu_signal_t b = gtq_signal(d, 1), w = gtq_signal(d, 1);
	char what[48];

	if (!q || !slot)
		return;
	for (int i = 0; i < HSAGPU_BARRIER_DEPS; i++)
		deps[i] = gtq_signal(d, 1);
	for (int k = 0; k < HSAGPU_BARRIER_DEPS; k++) {
		snprintf(what, sizeof(what), "BARRIER_%s, slot %d", name, k);
		for (int i = 0; i < HSAGPU_BARRIER_DEPS; i++)
			hsagpu_signal_store_release(deps[i], 1);
		hsagpu_signal_store_release(b, 1);
		hsagpu_signal_store_release(w, 1);
		gtq_barrier(q, type, deps, HSAGPU_BARRIER_DEPS, b, 0);
		gtq_write(q, &slot[k], 0x5107 + k, w, 0);
		if (is_and) {
			for (int i = 0; i < HSAGPU_BARRIER_DEPS; i++)
				if (i != k)
					hsagpu_signal_store_release(deps[i], 0);
		}
		gtq_sleep_ms(100);
		CHECK(gtq_value(b) == 1, "%s completed with slot %d at 1", what, k);
		CHECK_HELD(what, w, &slot[k]);
		hsagpu_signal_store_release(deps[k], 0);
		GTQ_WAIT(w, 0, 3000);
		CHECK(gtq_value(b) == 0, "%s: barrier signal %lld", what,
		      (long long)gtq_value(b));
		CHECK(slot[k] == 0x5107ULL + k, "%s: packet after it wrote 0x%llx",
		      what, (unsigned long long)slot[k]);
		for (int i = 0; i < HSAGPU_BARRIER_DEPS; i++)
			CHECK(gtq_value(deps[i]) == (is_and || i == k ? 0 : 1),
			      "%s changed dependency %d to %lld", what, i,
			      (long long)gtq_value(deps[i]));
	}
	CHECK(gtq_wait_idle(q, 1000), "queue not idle");
	for (int i = 0; i < HSAGPU_BARRIER_DEPS; i++)
		hsagpu_signal_destroy(deps[i]);
	hsagpu_signal_destroy(b);
	hsagpu_signal_destroy(w);
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
}

/*
 * Queue B waits on a signal queue A completes after a BUSY kernel (A and
 * B may sit on different devices); B's next packet must start after A's
 * BUSY ended, by the device clock of A's queue when both are one device.
 */
static void test_cross_queue(struct gtq_dev *da, struct gtq_dev *db,
			     uint32_t type)
{
	const char *name = type == HSAGPU_PKT_TYPE_BARRIER_AND ? "AND" : "OR";
	hsagpu_queue_t *qa = gtq_queue(da, 16, HSAGPU_QUEUE_PROFILE);
	hsagpu_queue_t *qb = gtq_queue(db, 16, HSAGPU_QUEUE_PROFILE);
	volatile uint64_t *slot = gtq_alloc(db, 4096, HSAGPU_RT_MEM_SYSTEM);
	struct gtq_arena ka;
	hsagpu_signal_t sa = gtq_signal(da, 1), never = gtq_signal(da, 1);
	hsagpu_signal_t w = gtq_signal(db, 1);
	hsagpu_signal_t deps[2] = { sa, never };
	uint64_t a_start = 0, a_end = 0, w_start = 0, w_end = 0;

	gtq_arena_init(da, &ka, 4096);
	if (!qa || !qb || !slot || !ka.base)
		return;
	/* AND over sa alone; OR over sa and a signal nobody completes. */
	gtq_barrier(qb, type, deps,
		    type == HSAGPU_PKT_TYPE_BARRIER_AND ? 1 : 2, NONE, 0);
	gtq_write(qb, &slot[0], 0x5678, w, 0);
	gtq_busy(qa, &ka, 300 * GTQ_MS, sa, 0);
	gtq_sleep_ms(100);
	if (gtq_value(sa) == 1)
		CHECK_HELD(name, w, &slot[0]);
	GTQ_WAIT(w, 0, 5000);
	CHECK(gtq_value(sa) == 0, "B's packet completed before A's BUSY (%lld)",
	      (long long)gtq_value(sa));
	CHECK(slot[0] == 0x5678, "B's packet after the barrier did not run");
	hsagpu_signal_timestamps(sa, &a_start, &a_end);
	hsagpu_signal_timestamps(w, &w_start, &w_end);
	DIAG("%s -> %s BARRIER_%s: A BUSY %llu..%llu, B packet %llu..%llu",
	     da->pci, db->pci, name, (unsigned long long)a_start,
	     (unsigned long long)a_end, (unsigned long long)w_start,
	     (unsigned long long)w_end);
	CHECK(a_end - a_start >= 300 * GTQ_MS, "BUSY lasted %llu ns",
	      (unsigned long long)(a_end - a_start));
	if (da == db)
		CHECK(w_start >= a_end,
		      "B's packet started at %llu, before A's BUSY ended at %llu",
		      (unsigned long long)w_start, (unsigned long long)a_end);
	CHECK(gtq_value(never) == 1, "dependency changed");
	hsagpu_signal_destroy(sa);
	hsagpu_signal_destroy(never);
	hsagpu_signal_destroy(w);
	CHECK(hsagpu_queue_destroy(qa) == 0, "destroy A");
	CHECK(hsagpu_queue_destroy(qb) == 0, "destroy B");
}

/*
 * Without the barrier bit a quick packet completes before an earlier
 * BUSY kernel; with it, after.
 */
static void test_barrier_bit(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 16, HSAGPU_QUEUE_PROFILE);
	volatile uint64_t *slot = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	struct gtq_arena ka;
	hsagpu_signal_t busy = gtq_signal(d, 1), quick = gtq_signal(d, 1);
	uint64_t bs, be, qs, qe;

	gtq_arena_init(d, &ka, 4096);
	if (!q || !slot || !ka.base)
		return;
	for (int barrier = 0; barrier < 2; barrier++) {
		int64_t busy_at_quick;

		hsagpu_signal_store_release(busy, 1);
		hsagpu_signal_store_release(quick, 1);
		slot[0] = 0;
		gtq_busy(q, &ka, 200 * GTQ_MS, busy, 0);
		gtq_write(q, &slot[0], 1, quick, barrier);
		GTQ_WAIT(quick, 0, 5000);
		busy_at_quick = gtq_value(busy);
		GTQ_WAIT(busy, 0, 5000);
		bs = be = qs = qe = 0;
		hsagpu_signal_timestamps(busy, &bs, &be);
		hsagpu_signal_timestamps(quick, &qs, &qe);
		DIAG("barrier bit %d: BUSY %llu..%llu, quick %llu..%llu",
		     barrier, (unsigned long long)bs, (unsigned long long)be,
		     (unsigned long long)qs, (unsigned long long)qe);
		CHECK(slot[0] == 1, "quick packet did not write");
		CHECK(be - bs >= 200 * GTQ_MS, "BUSY lasted %llu ns",
		      (unsigned long long)(be - bs));
		if (barrier) {
			CHECK(busy_at_quick == 0,
			      "with the barrier bit the quick packet completed while BUSY was running");
			CHECK(qs >= be, "quick packet started at %llu, BUSY ended at %llu",
			      (unsigned long long)qs, (unsigned long long)be);
		} else {
			/* The device clock decides; the CPU may look late. */
			DIAG("BUSY's signal when the quick one completed: %lld",
			     (long long)busy_at_quick);
			CHECK(qe < be, "without the barrier bit the quick packet ended at %llu, after BUSY at %llu",
			      (unsigned long long)qe, (unsigned long long)be);
		}
	}
	hsagpu_signal_destroy(busy);
	hsagpu_signal_destroy(quick);
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
}

/* A queue held by a barrier leaves others alone. */
static void test_independent(struct gtq_dev *d)
{
	hsagpu_queue_t *qa = gtq_queue(d, 16, 0), *qb = gtq_queue(d, 64, 0);
	volatile uint64_t *slot = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t x = gtq_signal(d, 1), wa = gtq_signal(d, 1);
	hsagpu_signal_t wb = gtq_signal(d, 50);
	unsigned int bad = 0;

	if (!qa || !qb || !slot)
		return;
	gtq_barrier(qa, HSAGPU_PKT_TYPE_BARRIER_AND, &x, 1, NONE, 0);
	gtq_write(qa, &slot[0], 0xaaaa, wa, 0);
	for (int i = 0; i < 50; i++)
		gtq_write(qb, &slot[1 + i], 0xbb00 + i, wb, 0);
	GTQ_WAIT(wb, 0, 3000);
	for (int i = 0; i < 50; i++)
		bad += slot[1 + i] != 0xbb00ULL + i;
	CHECK(bad == 0, "%u of 50 packets on the free queue did not run", bad);
	CHECK_HELD("blocked queue", wa, &slot[0]);
	hsagpu_signal_store_release(x, 0);
	GTQ_WAIT(wa, 0, 3000);
	CHECK(slot[0] == 0xaaaa, "released queue did not run its packet");
	hsagpu_signal_destroy(x);
	hsagpu_signal_destroy(wa);
	hsagpu_signal_destroy(wb);
	CHECK(hsagpu_queue_destroy(qa) == 0, "destroy A");
	CHECK(hsagpu_queue_destroy(qb) == 0, "destroy B");
}

int main(void)
{
	int n = hsagpu_agent_count(), ok = 0;
	struct gtq_dev devs[2];

	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	if (n > 2)
		n = 2;
	for (int i = 0; i < n; i++)
		if (gtq_open(i, &devs[i]) == 1)
			ok++;
	if (ok == n && n > 0) {
		test_cpu_deps(&devs[0], HSAGPU_PKT_TYPE_BARRIER_AND);
		test_cpu_deps(&devs[0], HSAGPU_PKT_TYPE_BARRIER_OR);
		test_all_slots(&devs[0], HSAGPU_PKT_TYPE_BARRIER_AND);
		test_all_slots(&devs[0], HSAGPU_PKT_TYPE_BARRIER_OR);
		test_cross_queue(&devs[0], &devs[0], HSAGPU_PKT_TYPE_BARRIER_AND);
		test_cross_queue(&devs[0], &devs[0], HSAGPU_PKT_TYPE_BARRIER_OR);
		/*
		 * One device's queue waits for the other's signal: only if it
		 * can read it. Behind an IOMMU, devices in different groups
		 * have separate I/O address spaces; a signal is mapped for
		 * its own agent's device only.
		 */
		if (n == 2 && gtpci_iommu_group(devs[0].pci) !=
			      gtpci_iommu_group(devs[1].pci)) {
			DIAG("cross-device barriers skipped: IOMMU groups %d and %d",
			     gtpci_iommu_group(devs[0].pci),
			     gtpci_iommu_group(devs[1].pci));
		} else if (n == 2) {
			test_cross_queue(&devs[0], &devs[1],
					 HSAGPU_PKT_TYPE_BARRIER_AND);
			test_cross_queue(&devs[1], &devs[0],
					 HSAGPU_PKT_TYPE_BARRIER_OR);
		}
		test_barrier_bit(&devs[0]);
		test_independent(&devs[0]);
	}
	for (int i = 0; i < n; i++)
		gtq_close(&devs[i]);
	/* Only all devices or none: the cross-device part needs both. */
	return gtq_result(ok == n ? ok : 0, n);
}
