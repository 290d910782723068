// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counters against known counts. Each part generates a known number of
 * transactions and checks that the device's counters (BAR5) and the
 * driver's (debugfs) move by exactly that number:
 *
 *  - packets: N barrier packets -> PKT_PROCESSED +N;
 *  - doorbells: N packets, each rung while the processor sleeps (its
 *    watch after work has long ended) -> PKT_DOORBELLS +N;
 *  - interrupts: N completions whose signal carries an event, each waited
 *    for asleep before the next -> PKT_IRQS +N, the driver's queue_irqs
 *    +N, its vector_irqs +N on the queue's vector, Linux's count of the
 *    device's MSI-X vectors +N;
 *  - VM faults: N queues each writing an address nothing maps, one
 *    after the other's report -> VM_FAULT_COUNT +N, PKT_ERRORS +N, the
 *    driver's vm_faults +N;
 *  - page walks: copies of 32, 64 and 128 fresh pages into fresh pages
 *    -> VM_WALKS grows by the difference of the pages touched (each data
 *    page is walked once; what else a copy walks is the same each time).
 *
 * docs/counters.md lists every counter, the test that checks it and the
 * ones no workload can pin to an exact number.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gtq.h"
#include "gtdma.h"
#include "gthost.h"

#define N_PACKETS       200
#define N_DOORBELLS     12
#define N_IRQS          12
#define N_FAULTS        3

/* Reads of a counter straddling a workload: wraps are fine (u32 math). */
#define DELTA(d, reg, v0) ((uint32_t)(gtq_reg((d), (reg)) - (v0)))
#define EXPECT_DELTA(d, reg, v0, want, what)                                  \
	CHECK(DELTA(d, reg, v0) == (want), "%s: %s: " #reg " +%u, expected +%u", \
	      (d)->pci, what, DELTA(d, reg, v0), (unsigned int)(want))

static void drop(hsagpu_queue_t *q, hsagpu_signal_t s)
{
	hsagpu_signal_destroy(s);
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
}

static uint64_t dbg(struct gtq_dev *d, const char *name)
{
	uint64_t v = 0;

	CHECK(gt_debugfs_u64(d->pci, name, &v) == 0, "%s: no debugfs %s", d->pci, name);
	return v;
}

/*
 * A part that counts wake-ups or interrupts must not straddle a live
 * migration (boot-migrate; the destination's processor starts with a
 * wake-up of its own): the harness migrates only after a second without
 * a word on its channel, and the parts take well under that.
 */
static void hold_migration(void)
{
	char reply[64];

	if (gt_host_attached())
		gt_host("PING", reply, sizeof(reply));
}

/* Sum of the "<vector> <count>" lines of debugfs vector_irqs. */
static uint64_t vector_irqs(struct gtq_dev *d)
{
	char path[128], line[64];
	uint64_t sum = 0;
	unsigned int v;
	unsigned long long c;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/hsagpu/%s/vector_irqs", d->pci);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%u %llu", &v, &c) == 2)
			sum += c;
	fclose(f);
	return sum;
}

static void test_packets(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 256, 0);
	hsagpu_signal_t s = gtq_signal(d, 1);
	uint32_t p0 = gtq_reg(d, HSAGPU_REG_PKT_PROCESSED);

	if (!q)
		return;
	for (int i = 0; i < N_PACKETS - 1; i++)
		gtq_barrier(q, HSAGPU_PKT_TYPE_BARRIER_AND, NULL, 0, (hsagpu_signal_t){ 0 }, 0);
	gtq_barrier(q, HSAGPU_PKT_TYPE_BARRIER_AND, NULL, 0, s, 0);
	GTQ_WAIT(s, 0, 5000);
	EXPECT_DELTA(d, HSAGPU_REG_PKT_PROCESSED, p0, N_PACKETS, "barrier packets");
	drop(q, s);
}

static void test_doorbells(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 16, 0);
	hsagpu_signal_t s = gtq_signal(d, 0);
	uint32_t b0;

	if (!q)
		return;
	gtq_sleep_ms(20);
	hold_migration();
	b0 = gtq_reg(d, HSAGPU_REG_PKT_DOORBELLS);
	for (int i = 0; i < N_DOORBELLS; i++) {
		/*
		 * The processor watches for 50 us after work, then sleeps;
		 * a doorbell its watch caught still counts once, when it
		 * consumes the eventfd at its next sleep. 20 ms: even a
		 * thread preempted on a loaded host is asleep again by then.
		 */
		gtq_sleep_ms(20);
		hsagpu_signal_store_relaxed(s, 1);
		gtq_barrier(q, HSAGPU_PKT_TYPE_BARRIER_AND, NULL, 0, s, 0);
		GTQ_WAIT(s, 0, 5000);
	}
	EXPECT_DELTA(d, HSAGPU_REG_PKT_DOORBELLS, b0, N_DOORBELLS,
		     "doorbells rung on a sleeping processor");
	drop(q, s);
}

static void test_irqs(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 16, 0);
	hsagpu_signal_t s = gtq_signal(d, 0);
	uint32_t i0;
	uint64_t q0, v0, l0;
	int64_t v;

	if (!q)
		return;
	hold_migration();
	i0 = gtq_reg(d, HSAGPU_REG_PKT_IRQS);
	q0 = dbg(d, "queue_irqs");
	v0 = vector_irqs(d);
	l0 = gt_msi_irqs(d->pci);
	CHECK(hsagpu_signal_ptr(s)->event_mailbox_ptr != 0, "signal without an event");
	for (int i = 0; i < N_IRQS; i++) {
		hsagpu_signal_store_relaxed(s, 1);
		gtq_barrier(q, HSAGPU_PKT_TYPE_BARRIER_AND, NULL, 0, s, 0);
		v = hsagpu_signal_wait_acquire(s, HSAGPU_SIGNAL_CONDITION_EQ, 0,
					       5000 * GTQ_MS, HSAGPU_WAIT_STATE_BLOCKED);
		CHECK(v == 0, "completion %d: signal %lld", i, (long long)v);
		/* the message, not just the signal, before the next one */
		for (int k = 0; k < 500 && dbg(d, "queue_irqs") < q0 + i + 1; k++)
			gtq_sleep_ms(1);
	}
	EXPECT_DELTA(d, HSAGPU_REG_PKT_IRQS, i0, N_IRQS, "completions with an event");
	CHECK(dbg(d, "queue_irqs") - q0 == N_IRQS, "%s: driver queue_irqs +%llu, expected %u",
	      d->pci, (unsigned long long)(dbg(d, "queue_irqs") - q0), N_IRQS);
	CHECK(vector_irqs(d) - v0 == N_IRQS, "%s: driver vector_irqs +%llu, expected %u",
	      d->pci, (unsigned long long)(vector_irqs(d) - v0), N_IRQS);
	CHECK(gt_msi_irqs(d->pci) - l0 == N_IRQS, "%s: /proc/interrupts +%llu, expected %u",
	      d->pci, (unsigned long long)(gt_msi_irqs(d->pci) - l0), N_IRQS);
	drop(q, s);
}

static void test_vm_faults(struct gtq_dev *d)
{
	uint32_t f0 = gtq_reg(d, HSAGPU_REG_VM_FAULT_COUNT);
	uint32_t e0 = gtq_reg(d, HSAGPU_REG_PKT_ERRORS);
	uint64_t v0 = dbg(d, "vm_faults");
	/*
	 * Addresses the GPU address space cannot have: a range the process
	 * keeps reserved (PROT_NONE), so that no allocation made meanwhile
	 * (the queues' rings) lands there, and never registered.
	 */
	uint8_t *hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(hole != MAP_FAILED, "mmap");
	if (hole == MAP_FAILED)
		return;
	for (int i = 0; i < N_FAULTS; i++) {
		hsagpu_queue_t *q = gtq_queue(d, 16, 0);
		struct hsagpu_queue_status st;

		if (!q)
			break;
		gtq_write(q, (volatile uint64_t *)(hole + 8 * i), i, (hsagpu_signal_t){ 0 }, 0);
		CHECK(gtq_wait_error_status(q, 5000, &st) == 0 &&
		      st.error == HSAGPU_QERR_VM_FAULT,
		      "%s: queue %d: error %u, expected VM_FAULT", d->pci, i, st.error);
		/*
		 * The driver counts the fault reports it handles: faults
		 * that come faster than its handler share one. One at a time.
		 */
		for (int k = 0; k < 2000 && dbg(d, "vm_faults") < v0 + i + 1; k++)
			gtq_sleep_ms(1);
		CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
	}
	EXPECT_DELTA(d, HSAGPU_REG_VM_FAULT_COUNT, f0, N_FAULTS, "faulting packets");
	EXPECT_DELTA(d, HSAGPU_REG_PKT_ERRORS, e0, N_FAULTS, "faulting packets");
	CHECK(dbg(d, "vm_faults") - v0 == N_FAULTS, "%s: driver vm_faults +%llu, expected %u",
	      d->pci, (unsigned long long)(dbg(d, "vm_faults") - v0), N_FAULTS);
	munmap(hole, 4096);
}

/* Walks of one copy of @pages fresh 4 KiB pages into fresh pages. */
static uint32_t walks_for(struct gtq_dev *d, hsagpu_queue_t *q, unsigned int pages)
{
	size_t n = (size_t)pages * 4096;
	uint8_t *src = gtq_alloc(d, n, HSAGPU_RT_MEM_SYSTEM);
	uint8_t *dst = gtq_alloc(d, n, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t s = gtq_signal(d, 1);
	uint32_t w0, w;

	if (!src || !dst)
		return 0;
	memset(src, 0x5a, n);
	memset(dst, 0, n);
	w0 = gtq_reg(d, HSAGPU_REG_VM_WALKS);
	gtd_copy(q, (uintptr_t)dst, (uintptr_t)src, n, s);
	GTQ_WAIT(s, 0, 10000);
	w = DELTA(d, HSAGPU_REG_VM_WALKS, w0);
	CHECK(!memcmp(src, dst, n), "%s: copy of %u pages differs", d->pci, pages);
	hsagpu_signal_destroy(s);
	return w;
}

static void test_walks(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 16, 0);
	uint32_t w1, w2, w3;

	if (!q)
		return;
	/* the first copy also walks the queue's own pages: not counted */
	walks_for(d, q, 1);
	w1 = walks_for(d, q, 32);
	w2 = walks_for(d, q, 64);
	w3 = walks_for(d, q, 128);
	DIAG("%s: VM_WALKS +%u, +%u, +%u for copies of 32, 64, 128 pages", d->pci, w1, w2, w3);
	CHECK(w2 - w1 == 64 && w3 - w2 == 128,
	      "%s: 32 and 64 more pages copied (twice as many touched) walked %u and %u more",
	      d->pci, w2 - w1, w3 - w2);
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy");
}

int main(void)
{
	int n = hsagpu_agent_count(), ran = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	for (int i = 0; i < n; i++) {
		struct gtq_dev d;

		if (gtq_open(i, &d) == 1) {
			test_packets(&d);
			test_doorbells(&d);
			test_irqs(&d);
			test_vm_faults(&d);
			test_walks(&d);
			ran++;
		}
		gtq_close(&d);
	}
	return gtq_result(ran, n);
}
