// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fault-injection matrix: one program per injection (built as
 * t-fault-<case>), each arming one of the device's inject-* properties
 * (docs/reliability.md) on gpu0 from the host through the harness channel
 * (QMP qom-set), then doing what a process does and printing what it
 * observed as one "# outcome: ..." line for docs/reliability.md. Checked
 * for each: the process is never left hanging, the driver reports what it
 * promises, and afterwards a new open gets a working queue.
 *
 *  atomic-ur, atomic-ca   the queue's AtomicOp (read index, signal)
 *                         fails: queue error ADDRESS, the waiter ends at
 *                         its timeout, AER logs the request's error
 *  dma-ur, dma-ca         a DMA source read fails: queue error ADDRESS,
 *                         nothing written
 *  poison                 a DMA source read arrives poisoned: queue error
 *                         POISON, corrupted data delivered, AER non-fatal
 *  msix-drop              the completion interrupt is lost: a waiter with
 *                         a timeout still finds its event at the timeout
 *  msix-delay             the interrupt comes 300 ms late: the waiter wakes
 *                         then
 *  hang                   the queue stops consuming packets: the watchdog
 *                         (queue_timeout_ms = 300) takes the file's queues,
 *                         the sleeper and later ioctls get EIO
 *  fatal                  the device takes a fatal internal error: queues
 *                         fail with DEVICE_FATAL; the driver resets the
 *                         function (its AER report, Uncorrectable Internal
 *                         Error, is masked by default), the file's sleeper
 *                         and ioctls get EIO
 *
 * Needs the harness channel and queues (SKIP otherwise). Not in the
 * default run: errors reported through AER stop QEMU 10.0 from migrating
 * the guest, and boot-migrate runs every default test.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>

#include "gtdev.h"
#include "gtdma.h"
#include "gthost.h"
#include "gtioctl.h"
#include "gtq.h"

#ifndef T_FAULT_CASE
#define T_FAULT_CASE "atomic-ur"
#endif

#define PARAM_TIMEOUT "/sys/module/hsagpu/parameters/queue_timeout_ms"
#define DEV "gpu0"

static struct gtq_dev d;
static char outcome[512];

#define OUTCOME(...) \
	snprintf(outcome + strlen(outcome), sizeof(outcome) - strlen(outcome), \
		 __VA_ARGS__)

static uint64_t counter(const char *name)
{
	uint64_t v = ~0ULL;

	gt_debugfs_u64(d.pci, name, &v);
	return v;
}

/* Wait until the injection count reads back 0 (it was used). */
static int injection_used(const char *prop)
{
	uint64_t left = 1;

	for (int i = 0; i < 250 && left; i++) {
		if (gt_qom_get_u64(DEV, prop, &left))
			return 0;
		if (left)
			gtq_sleep_ms(20);
	}
	return !left;
}

struct waiter {
	int fd;
	uint32_t event;
	uint32_t timeout_ms;
	int err;
	uint64_t ms;
	pthread_t th;
};

static void *waiter_fn(void *arg)
{
	struct waiter *w = arg;
	uint64_t t0 = gtq_now_ns();

	w->err = gti_event_wait(w->fd, &w->event, 1, 0, w->timeout_ms, NULL);
	w->ms = (gtq_now_ns() - t0) / GTQ_MS;
	return NULL;
}

static void waiter_start(struct waiter *w, hsagpu_signal_t s, uint32_t ms)
{
	w->fd = hsagpu_agent_fd(d.agent);
	w->event = hsagpu_signal_ptr(s)->event_id;
	w->timeout_ms = ms;
	w->err = -1;
	CHECK(pthread_create(&w->th, NULL, waiter_fn, w) == 0, "waiter");
}

/* 1 when the waiter returned within @ms (real time). */
static int waiter_join(struct waiter *w, unsigned int ms)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000 + 1;
	return !pthread_timedjoin_np(w->th, NULL, &until);
}

static const char *qstate(int st)
{
	static const char *const n[] = { "DISABLED", "ACTIVE", "SUSPENDED",
					 "DRAINING", "ERROR" };

	return st >= 0 && st <= 4 ? n[st] : "?";
}

/* The queue's state after a failure it must report; prints it. */
static int queue_failed(hsagpu_queue_t *q, uint32_t want_err)
{
	uint32_t err = 0;
	uint64_t eid = 0;
	int st = gtd_wait_error(q, &err, &eid);

	OUTCOME("queue %s error %u; ", qstate(st), err);
	CHECK(st == HSAGPU_QSTATE_ERROR && err == want_err,
	      "queue state %d error %u, expected ERROR error %u", st, err,
	      want_err);
	return st == HSAGPU_QSTATE_ERROR;
}

/* A fresh open runs a packet: the device works for others afterwards. */
static void new_open_works(void)
{
	struct gtq_dev c;
	hsagpu_queue_t *q;
	volatile uint64_t *slot;
	hsagpu_signal_t s;
	int ok = 0;

	if (gtq_open(0, &c) == 1) {
		q = gtq_queue(&c, 16, 0);
		slot = gtq_alloc(&c, 4096, HSAGPU_RT_MEM_SYSTEM);
		s = gtq_signal(&c, 1);
		if (q && slot) {
			gtq_write(q, slot, 0xf00d, s, 0);
			ok = gtq_wait_eq(s, 0, 5000) && *slot == 0xf00d;
			hsagpu_queue_destroy(q);
		}
		hsagpu_signal_destroy(s);
	}
	gtq_close(&c);
	OUTCOME("new open: %s", ok ? "works" : "BROKEN");
	CHECK(ok, "a new open does not get a working queue");
}

/* AtomicOps of a queue: WRITE_VALUE's signal decrement and read index. */
static void case_atomic(const char *prop)
{
	hsagpu_queue_t *q = gtq_queue(&d, 16, 0);
	volatile uint64_t *slot = gtq_alloc(&d, 4096, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t s = gtq_signal(&d, 1);
	uint64_t aer0 = counter("aer_events"), err0 = counter("error_irqs");
	struct waiter w;

	if (!q || !slot)
		return;
	CHECK(gt_qom_set(DEV, prop, "1") == 0, "qom-set %s", prop);
	waiter_start(&w, s, 2000);
	gtq_write(q, slot, 0x77, s, 0);
	queue_failed(q, HSAGPU_QERR_ADDRESS);
	CHECK(injection_used(prop), "%s was not used", prop);
	CHECK(waiter_join(&w, 5000), "the waiter with a 2 s timeout never returned");
	OUTCOME("waiter (2 s timeout) errno %d after %llu ms; signal %lld; ",
		w.err, (unsigned long long)w.ms, (long long)gtq_value(s));
	CHECK(w.err == ETIME, "waiter errno %d, expected ETIME", w.err);
	gtq_sleep_ms(200);
	OUTCOME("error_irqs +%llu, aer_events +%llu; ",
		(unsigned long long)(counter("error_irqs") - err0),
		(unsigned long long)(counter("aer_events") - aer0));
	hsagpu_queue_destroy(q);
	hsagpu_signal_destroy(s);
}

/* DMA source reads: UR, CA or poisoned data. */
static void case_dma(const char *prop, uint32_t want_err)
{
	hsagpu_queue_t *q = gtq_queue(&d, 16, 0);
	uint8_t *src = gtq_alloc(&d, 65536, HSAGPU_RT_MEM_SYSTEM);
	uint8_t *dst = gtq_alloc(&d, 65536, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t s = gtq_signal(&d, 1);
	uint64_t aer0 = counter("aer_events");
	size_t same, zero;

	if (!q || !src || !dst)
		return;
	gtd_pattern(src, 4096, 5);
	memset(dst, 0, 4096);
	CHECK(gt_qom_set(DEV, prop, "1") == 0, "qom-set %s", prop);
	gtd_copy(q, (uintptr_t)dst, (uintptr_t)src, 4096, s);
	queue_failed(q, want_err);
	CHECK(injection_used(prop), "%s was not used", prop);
	same = gtd_diff(dst, src, 4096);
	zero = gtd_find_not(dst, 4096, 0);
	OUTCOME("destination %s; signal %lld; ",
		same == 4096 ? "holds the data" : zero == 4096 ? "untouched" :
		"holds other data", (long long)gtq_value(s));
	CHECK(gtq_value(s) == 1, "the completion signal was touched");
	if (want_err == HSAGPU_QERR_POISON)
		CHECK(zero != 4096 && same != 4096,
		      "poisoned data: destination %s",
		      zero == 4096 ? "untouched" : "holds the good data");
	else
		CHECK(zero == 4096, "a failed read wrote the destination");
	gtq_sleep_ms(200);
	OUTCOME("aer_events +%llu; ",
		(unsigned long long)(counter("aer_events") - aer0));
	hsagpu_queue_destroy(q);
	hsagpu_signal_destroy(s);
}

/* Completion interrupts lost or late: the waiter is not left hanging. */
static void case_msix(int drop)
{
	hsagpu_queue_t *q = gtq_queue(&d, 16, 0);
	volatile uint64_t *slot = gtq_alloc(&d, 4096, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t s = gtq_signal(&d, 1);
	uint32_t timeout = drop ? 1000 : HSAGPU_WAIT_INFINITE;
	struct waiter w;

	if (!q || !slot)
		return;
	if (drop) {
		CHECK(gt_qom_set(DEV, "inject-msix-drop", "1") == 0, "qom-set");
	} else {
		CHECK(gt_qom_set(DEV, "inject-msix-delay-ms", "300") == 0, "qom-set");
		CHECK(gt_qom_set(DEV, "inject-msix-delay", "1") == 0, "qom-set");
	}
	waiter_start(&w, s, timeout);
	gtq_sleep_ms(50);
	gtq_write(q, slot, 0x99, s, 0);
	CHECK(waiter_join(&w, 10000), "the waiter never returned (%s)",
	      drop ? "1 s timeout" : "no timeout");
	CHECK(injection_used(drop ? "inject-msix-drop" : "inject-msix-delay"),
	      "the injection was not used");
	OUTCOME("waiter (%s) errno %d after %llu ms, signal %lld, slot 0x%llx; ",
		drop ? "1 s timeout" : "no timeout", w.err,
		(unsigned long long)w.ms, (long long)gtq_value(s),
		(unsigned long long)*slot);
	CHECK(w.err == 0, "waiter errno %d: the completion was not seen", w.err);
	CHECK(gtq_value(s) == 0 && *slot == 0x99, "the packet did not complete");
	hsagpu_queue_destroy(q);
	hsagpu_signal_destroy(s);
	if (!drop)
		gt_qom_set(DEV, "inject-msix-delay-ms", "100");
}

/* The file lost its device state: sleeper and ioctls see EIO. */
static void check_lost(struct waiter *w, hsagpu_queue_t *q)
{
	struct hsagpu_device_info info = { .size = sizeof(info) };
	int joined = waiter_join(w, 20000), e;

	e = gti_ioctl(hsagpu_agent_fd(d.agent), HSAGPU_IOC_GET_INFO, &info);
	OUTCOME("sleeper %s errno %d after %llu ms, ioctl errno %d; ",
		joined ? "returned" : "STILL ASLEEP,", w->err,
		(unsigned long long)w->ms, e);
	CHECK(joined && w->err == EIO, "sleeper: %s errno %d, expected EIO",
	      joined ? "returned" : "still asleep", w->err);
	CHECK(e == EIO, "ioctl errno %d, expected EIO", e);
	(void)q;
}

static void case_hang(void)
{
	hsagpu_queue_t *q = gtq_queue(&d, 16, 0);
	volatile uint64_t *slot = gtq_alloc(&d, 4096, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t s = gtq_signal(&d, 1);
	uint64_t wd0 = counter("watchdog_firings"), left = 0;
	char id[16], old[32] = "30000";
	struct waiter w;
	FILE *f;

	if (!q || !slot)
		return;
	f = fopen(PARAM_TIMEOUT, "r");
	if (f && fgets(old, sizeof(old), f))
		old[strcspn(old, "\n")] = 0;
	if (f)
		fclose(f);
	snprintf(id, sizeof(id), "%u", q->id);
	CHECK(gt_qom_set(DEV, "inject-queue-hang", id) == 0, "qom-set");
	CHECK(gt_sysfs_write(PARAM_TIMEOUT, "300") == 0, "queue_timeout_ms");
	waiter_start(&w, s, HSAGPU_WAIT_INFINITE);
	gtq_write(q, slot, 0x55, s, 0);
	check_lost(&w, q);
	gt_sysfs_write(PARAM_TIMEOUT, old);
	gt_qom_get_u64(DEV, "inject-queue-hang", &left);
	OUTCOME("watchdog_firings +%llu, inject-queue-hang reads %lld; ",
		(unsigned long long)(counter("watchdog_firings") - wd0),
		(long long)(int32_t)left);
	CHECK(counter("watchdog_firings") == wd0 + 1, "watchdog_firings");
	CHECK((int32_t)left == -1, "the hung queue was not destroyed");
}

static void case_fatal(void)
{
	hsagpu_queue_t *q = gtq_queue(&d, 16, 0);
	hsagpu_signal_t gate = gtq_signal(&d, 1), s = gtq_signal(&d, 1);
	uint64_t resets0 = counter("resets"), aer0 = counter("aer_events");
	struct waiter w;

	if (!q)
		return;
	/* Pending work, and a sleeper on it. */
	gtq_barrier(q, HSAGPU_PKT_TYPE_BARRIER_AND, &gate, 1, s, 0);
	waiter_start(&w, s, HSAGPU_WAIT_INFINITE);
	gtq_sleep_ms(50);
	CHECK(gt_qom_set(DEV, "inject-fatal", "true") == 0, "qom-set");
	check_lost(&w, q);
	gtq_sleep_ms(200);
	OUTCOME("resets +%llu, aer_events +%llu; ",
		(unsigned long long)(counter("resets") - resets0),
		(unsigned long long)(counter("aer_events") - aer0));
	CHECK(counter("resets") == resets0 + 1, "resets counter");
}

int main(void)
{
	const char *c = T_FAULT_CASE;
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!gt_host_attached())
		return gt_skip("no harness channel to arm the injection");
	ret = gtq_open(0, &d);
	if (ret != 1) {
		gtq_close(&d);
		return gt_skip("no queues on this platform");
	}
	if (!strcmp(c, "atomic-ur"))
		case_atomic("inject-atomic-ur");
	else if (!strcmp(c, "atomic-ca"))
		case_atomic("inject-atomic-ca");
	else if (!strcmp(c, "dma-ur"))
		case_dma("inject-dma-ur", HSAGPU_QERR_ADDRESS);
	else if (!strcmp(c, "dma-ca"))
		case_dma("inject-dma-ca", HSAGPU_QERR_ADDRESS);
	else if (!strcmp(c, "poison"))
		case_dma("inject-dma-poison", HSAGPU_QERR_POISON);
	else if (!strcmp(c, "msix-drop"))
		case_msix(1);
	else if (!strcmp(c, "msix-delay"))
		case_msix(0);
	else if (!strcmp(c, "hang"))
		case_hang();
	else if (!strcmp(c, "fatal"))
		case_fatal();
	else
		CHECK(0, "unknown case %s", c);
	gtq_close(&d);
	new_open_works();
	DIAG("outcome: %s: %s", c, outcome);
	return gt_result();
}
