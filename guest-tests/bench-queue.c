// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench-queue: latency and throughput of the hsa-gpu queue path, next to
 * QEMU's edu device as a reference for what a trapped MMIO access and a
 * device-thread round trip cost in this QEMU. Prints "BENCH key value
 * unit" lines that scripts/bench turns into a table. Not a test: it
 * fails only when something does not work at all.
 *
 *   hsagpu_test.iters=N      latency samples (default 2000)
 *   hsagpu_test.packets=N    packets in the throughput run (default 1M)
 *   hsagpu_test.multi=0|1    also 8 and 64 queues on one device, and one
 *                            queue on each of 8 devices if there are 8
 *                            (default 1)
 *
 * The hsa-gpu measurements run on a file with GPU virtual memory (keys
 * ending in _vm: ring, indices and signals translated in the file's
 * VMID) and on one without (hsagpu.ko vm=0 at open: keys ending in
 * _vmid0, bus addresses as before GPU VM), alternating sample by sample
 * (latency) and round by round (packet rate), so that the two are
 * comparable within one boot.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "gtq.h"

#define EDU_VENDOR      0x1234
#define EDU_DEVICE      0x11e8
#define EDU_ID          0x00
#define EDU_LIVENESS    0x04
#define EDU_FACTORIAL   0x08
#define EDU_STATUS      0x20
#define EDU_BUSY        0x01

#define BATCH 256
#define RING 4096

static uint64_t iters = 2000;
static uint64_t multi = 1;      /* also 8 and 64 queues, and 8 devices */
static const char *mode = "";   /* key suffix: "_vm" or "_vmid0" */

static void report(const char *key, uint64_t *ns, uint64_t n)
{
	gt_sort_u64(ns, n);
	printf("BENCH %s_p50%s %.2f us\n", key, mode, ns[n / 2] / 1e3);
	printf("BENCH %s_p99%s %.2f us\n", key, mode, ns[n * 99 / 100] / 1e3);
}

static uint64_t clock_cost(uint64_t *ns)
{
	for (uint64_t i = 0; i < iters; i++) {
		uint64_t t0 = gtq_now_ns();

		ns[i] = gtq_now_ns() - t0;
	}
	gt_sort_u64(ns, iters);
	return ns[iters / 2];
}

static volatile uint32_t *map_edu(char name[16])
{
	DIR *dir = opendir("/sys/bus/pci/devices");
	char path[128];
	uint64_t ven, dev;
	struct dirent *e;
	struct stat st;
	void *p;
	int fd;

	while (dir && (e = readdir(dir))) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= 16 ||
		    gt_sysfs_u64(e->d_name, "vendor", &ven) ||
		    gt_sysfs_u64(e->d_name, "device", &dev) ||
		    ven != EDU_VENDOR || dev != EDU_DEVICE)
			continue;
		memcpy(name, e->d_name, strlen(e->d_name) + 1);
		closedir(dir);
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/enable",
			 name);
		gt_sysfs_write(path, "1");      /* memory decoding on */
		snprintf(path, sizeof(path),
			 "/sys/bus/pci/devices/%s/resource0", name);
		fd = open(path, O_RDWR | O_SYNC);
		if (fd < 0 || fstat(fd, &st))
			return NULL;
		p = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 fd, 0);
		close(fd);
		return p == MAP_FAILED ? NULL : p;
	}
	if (dir)
		closedir(dir);
	return NULL;
}

static void bench_edu(uint64_t *ns)
{
	char name[16] = "";
	volatile uint32_t *edu = map_edu(name);
	uint32_t id, bad = 0;

	if (!edu) {
		DIAG("no edu device (1234:11e8): boot the bench preset");
		printf("BENCH edu_present 0 -\n");
		return;
	}
	id = edu[EDU_ID / 4];
	CHECK((id & 0xff) == 0xed, "edu id 0x%08x", id);
	DIAG("edu %s, id 0x%08x", name, id);
	printf("BENCH edu_present 1 -\n");

	for (uint64_t i = 0; i < iters; i++) {
		uint64_t t0 = gtq_now_ns();

		id = edu[EDU_ID / 4];
		ns[i] = gtq_now_ns() - t0;
	}
	report("edu_mmio_read", ns, iters);
	for (uint64_t i = 0; i < iters; i++) {
		uint64_t t0 = gtq_now_ns();

		edu[EDU_LIVENESS / 4] = (uint32_t)i;
		ns[i] = gtq_now_ns() - t0;
	}
	report("edu_mmio_write", ns, iters);
	CHECK(edu[EDU_LIVENESS / 4] == ~(uint32_t)(iters - 1),
	      "edu liveness check");

	/* Factorial: write the input, poll until the device thread is done. */
	DIAG("edu factorial");
	for (uint64_t i = 0; i < iters; i++) {
		uint64_t t0 = gtq_now_ns();

		edu[EDU_FACTORIAL / 4] = 12;
		while (edu[EDU_STATUS / 4] & EDU_BUSY)
			;
		ns[i] = gtq_now_ns() - t0;
		bad += edu[EDU_FACTORIAL / 4] != 479001600U;
	}
	CHECK(bad == 0, "edu computed 12! wrongly %u times", bad);
	report("edu_factorial_rt", ns, iters);
}

/*
 * Write a BARRIER_AND into a reserved slot: the body first, built aside
 * so the slot's header stays INVALID until the publishing store.
 */
static void put_barrier(void *slot, hsagpu_signal_t sig)
{
	struct hsagpu_barrier_packet pkt;

	hsagpu_packet_barrier(&pkt, NULL, 0, sig);
	memcpy((char *)slot + 4, (char *)&pkt + 4, sizeof(pkt) - 4);
	hsagpu_packet_publish(slot, GTQ_HDR(HSAGPU_PKT_TYPE_BARRIER_AND, 0), 0);
}

/* One latency probe's queue and signal on one file. */
struct probe {
	struct gtq_dev *d;
	hsagpu_queue_t *q;
	hsagpu_signal_t s;
	volatile struct hsagpu_signal *sp;
	uint64_t mailbox;
	uint32_t ev;
};

static int probe_init(struct probe *p, struct gtq_dev *d, int irq)
{
	p->d = d;
	p->q = gtq_queue(d, 64, 0);
	p->s = gtq_signal(d, 1);
	p->sp = hsagpu_signal_ptr(p->s);
	if (!p->q || !p->sp)
		return 0;
	p->mailbox = p->sp->event_mailbox_ptr;
	p->ev = p->sp->event_id;
	if (!irq)
		p->sp->event_mailbox_ptr = 0;   /* no event, no interrupt */
	return 1;
}

static void probe_fini(struct probe *p)
{
	if (p->sp)
		p->sp->event_mailbox_ptr = p->mailbox;
	if (p->s.handle)
		hsagpu_signal_destroy(p->s);
	if (p->q)
		hsagpu_queue_destroy(p->q);
}

/* How a latency probe waits for its signal */
enum probe_wait {
	WAIT_SPIN,      /* hsagpu_signal_wait_acquire(), ACTIVE */
	WAIT_BARE,      /* a plain load loop: no pause, no clock reads */
	WAIT_BLOCKED,   /* hsagpu_signal_wait_acquire(), BLOCKED */
	WAIT_SLEEP,     /* straight to sleep in WAIT_EVENTS */
};

static const char *const probe_wait_name[] = {
	[WAIT_SPIN] = "active", [WAIT_BARE] = "bare",
	[WAIT_BLOCKED] = "waitblocked", [WAIT_SLEEP] = "blocked",
};

/* One BARRIER_AND with a completion signal: doorbell to signal == 0. */
static int probe_once(struct probe *p, enum probe_wait wait, uint64_t *ns)
{
	struct hsagpu_wait_events we = {
		.size = sizeof(we),
		.events_ptr = (uintptr_t)&p->ev,
		.num_events = 1,
		.timeout_ms = 5000,
	};
	uint64_t idx, t0;
	int64_t v;

	hsagpu_signal_store_relaxed(p->s, 1);
	idx = hsagpu_queue_add_write_index(p->q, 1);
	hsagpu_queue_wait_slot(p->q, idx);
	put_barrier(hsagpu_queue_slot(p->q, idx), p->s);
	t0 = gtq_now_ns();
	hsagpu_queue_ring_doorbell(p->q, idx);
	switch (wait) {
	case WAIT_BARE:
		/* The device's part of the latency, without the runtime's */
		while (__atomic_load_n(&p->sp->value, __ATOMIC_ACQUIRE))
			;
		v = 0;
		break;
	case WAIT_SLEEP:
		/*
		 * No spinning first: doorbell, completion, MSI-X, wake-up:
		 * the interrupt path alone.
		 */
		ioctl(hsagpu_agent_fd(p->d->agent), HSAGPU_IOC_WAIT_EVENTS, &we);
		v = hsagpu_signal_load_acquire(p->s);
		break;
	default:
		v = hsagpu_signal_wait_acquire(p->s, HSAGPU_SIGNAL_CONDITION_EQ, 0,
					       5000 * GTQ_MS,
					       wait == WAIT_SPIN ?
					       HSAGPU_WAIT_STATE_ACTIVE :
					       HSAGPU_WAIT_STATE_BLOCKED);
		break;
	}
	*ns = gtq_now_ns() - t0;
	return v == 0;
}

/*
 * Doorbell-to-signal latency on the GPU-VM file and the VMID 0 file,
 * one sample of each after the other, so that both see the same host.
 */
static void bench_latency(struct gtq_dev *dv, struct gtq_dev *d0,
			  uint64_t *ns_vm, uint64_t *ns_0, enum probe_wait wait,
			  int irq)
{
	uint64_t n = wait == WAIT_SLEEP ? iters / 4 : iters, i;
	struct probe pv = { 0 }, p0 = { 0 };
	char key[64];

	if (probe_init(&pv, dv, irq) && probe_init(&p0, d0, irq)) {
		for (i = 0; i < n; i++) {
			if (!probe_once(&pv, wait, &ns_vm[i]) ||
			    !probe_once(&p0, wait, &ns_0[i])) {
				CHECK(0, "barrier packet %llu did not complete",
				      (unsigned long long)i);
				break;
			}
		}
		snprintf(key, sizeof(key), "hsagpu_barrier_%s%s",
			 probe_wait_name[wait], irq ? "" : "_noirq");
		mode = "_vm";
		report(key, ns_vm, i);
		mode = "_vmid0";
		report(key, ns_0, i);
	}
	probe_fini(&pv);
	probe_fini(&p0);
}

/*
 * Batches of barrier packets, a completion signal on each batch's last.
 * Returns packets per second (0 when it did not work).
 */
static double bench_throughput(struct gtq_dev *d, uint64_t packets)
{
	hsagpu_queue_t *q = gtq_queue(d, RING, 0);
	uint64_t batches = (packets + BATCH - 1) / BATCH, t0, ns;
	hsagpu_signal_t done = gtq_signal(d, batches);
	hsagpu_signal_t none = { 0 };
	uint32_t proc0 = gtq_reg(d, HSAGPU_REG_PKT_PROCESSED);
	uint32_t bells0 = gtq_reg(d, HSAGPU_REG_PKT_DOORBELLS);
	int64_t v;
	int ok = 1;

	if (!q)
		return 0;
	t0 = gtq_now_ns();
	for (uint64_t b = 0; b < batches; b++) {
		uint64_t base = hsagpu_queue_load_write_index(q);

		/*
		 * Space first, then reserve: the whole batch is written at
		 * once, so its slots must be free. One producer, so nobody
		 * reserves in between.
		 */
		if (hsagpu_queue_wait_slot(q, base + BATCH - 1)) {
			CHECK(0, "no ring space for batch %llu",
			      (unsigned long long)b);
			ok = 0;
			break;
		}
		hsagpu_queue_add_write_index(q, BATCH);
		for (uint64_t i = 0; i < BATCH; i++) {
			put_barrier(hsagpu_queue_slot(q, base + i),
				    i == BATCH - 1 ? done : none);
		}
		hsagpu_queue_ring_doorbell(q, base + BATCH - 1);
	}
	v = hsagpu_signal_wait_acquire(done, HSAGPU_SIGNAL_CONDITION_EQ, 0,
				       ok ? 600000 * GTQ_MS : 0,
				       HSAGPU_WAIT_STATE_ACTIVE);
	ns = gtq_now_ns() - t0;
	CHECK(v == 0, "throughput run: %lld batches left", (long long)v);
	DIAG("%s: %llu packets in %.3f s; device: %u processed, %u wake-ups",
	     d->vm ? "GPU VM" : "VMID 0", (unsigned long long)(batches * BATCH),
	     ns / 1e9, gtq_reg(d, HSAGPU_REG_PKT_PROCESSED) - proc0,
	     gtq_reg(d, HSAGPU_REG_PKT_DOORBELLS) - bells0);
	hsagpu_signal_destroy(done);
	hsagpu_queue_destroy(q);
	return v == 0 ? batches * BATCH / (ns / 1e9) : 0;
}

/*
 * Batches of 256 barrier packets spread over @nq queues on each of the
 * @ndev files: one producer fills the next batch of every queue in turn
 * and rings its doorbell, so the device (or devices) serve many queues
 * at once. Returns packets per second over all of them (0: failed).
 */
static void report_rate(const char *key, double *r, int n);

#define MQ_MAX 64
#define MQ_RING 1024

static double bench_multi(struct gtq_dev *devs, int ndev, int nq,
			  uint64_t packets)
{
	hsagpu_queue_t *q[MQ_MAX * 8] = { 0 };
	hsagpu_signal_t done[MQ_MAX * 8] = { 0 }, none = { 0 };
	int n = ndev * nq, ok = 1;
	uint64_t rounds = (packets + (uint64_t)n * BATCH - 1) / (n * BATCH);
	uint64_t t0, ns;

	if (n > MQ_MAX * 8)
		return 0;
	for (int i = 0; i < n && ok; i++) {
		q[i] = gtq_queue(&devs[i / nq], MQ_RING, 0);
		done[i] = gtq_signal(&devs[i / nq], rounds);
		ok = q[i] && done[i].handle;
	}
	t0 = gtq_now_ns();
	for (uint64_t r = 0; r < rounds && ok; r++) {
		for (int i = 0; i < n; i++) {
			uint64_t base = hsagpu_queue_load_write_index(q[i]);

			if (hsagpu_queue_wait_slot(q[i], base + BATCH - 1)) {
				CHECK(0, "queue %d: no ring space", i);
				ok = 0;
				break;
			}
			hsagpu_queue_add_write_index(q[i], BATCH);
			for (uint64_t k = 0; k < BATCH; k++)
				put_barrier(hsagpu_queue_slot(q[i], base + k),
					    k == BATCH - 1 ? done[i] : none);
			hsagpu_queue_ring_doorbell(q[i], base + BATCH - 1);
		}
	}
	for (int i = 0; i < n && ok; i++)
		ok = hsagpu_signal_wait_acquire(done[i],
						HSAGPU_SIGNAL_CONDITION_EQ, 0,
						600000 * GTQ_MS,
						HSAGPU_WAIT_STATE_ACTIVE) == 0;
	ns = gtq_now_ns() - t0;
	CHECK(ok, "%d devices x %d queues: not every batch completed", ndev,
	      nq);
	for (int i = 0; i < n; i++) {
		if (done[i].handle)
			hsagpu_signal_destroy(done[i]);
		if (q[i])
			hsagpu_queue_destroy(q[i]);
	}
	return ok ? rounds * n * BATCH / (ns / 1e9) : 0;
}

/* Rate rows for @nq queues on each of @ndev devices, VM and VMID 0. */
static void report_multi(struct gtq_dev *dv, struct gtq_dev *d0, int ndev,
			 int nq, uint64_t packets)
{
	double rate[2][3];
	char key[64];

	for (int r = 0; r < 6; r++) {
		int vm = !(r & 1);

		rate[vm][r / 2] = bench_multi(vm ? dv : d0, ndev, nq, packets / 3);
	}
	snprintf(key, sizeof(key), "hsagpu_packets_per_s_%ddev_%dq", ndev, nq);
	for (int vm = 1; vm >= 0; vm--) {
		mode = vm ? "_vm" : "_vmid0";
		report_rate(key, rate[vm], 3);
	}
}

/* One queue on each of 8 devices (and one queue on one, for reference) */
static void bench_devices(uint64_t packets)
{
	struct gtq_dev mv[8], m0[8];
	int n = 0;

	if (hsagpu_agent_count() < 8)
		return;
	while (n < 8 && gtq_open_vm(n, &mv[n], 1) == 1) {
		if (gtq_open_vm(n, &m0[n], 0) != 1) {
			gtq_close(&mv[n]);
			break;
		}
		n++;
	}
	DIAG("hsa-gpu throughput on %d devices, one queue each", n);
	if (n == 8) {
		report_multi(mv, m0, 1, 1, packets);
		report_multi(mv, m0, 8, 1, packets);
	}
	while (n--) {
		gtq_close(&m0[n]);
		gtq_close(&mv[n]);
	}
}

/*
 * The producer alone: the same batches written into plain memory, no
 * queue, no device. The guest's own ceiling for the packet rate (under
 * TCG every store is emulated).
 */
static double bench_producer(uint64_t packets)
{
	uint64_t batches = (packets + BATCH - 1) / BATCH, t0, ns;
	hsagpu_signal_t none = { 0 };
	void *ring;

	if (posix_memalign(&ring, 64, RING * 64))
		return 0;
	t0 = gtq_now_ns();
	for (uint64_t b = 0; b < batches; b++) {
		uint64_t base = b * BATCH;

		for (uint64_t i = 0; i < BATCH; i++)
			put_barrier((char *)ring + ((base + i) % RING) * 64, none);
	}
	ns = gtq_now_ns() - t0;
	free(ring);
	return batches * BATCH / (ns / 1e9);
}

/* Median and best of @n rates (sorted here). */
static void report_rate(const char *key, double *r, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && r[j - 1] > r[j]; j--) {
			double t = r[j];

			r[j] = r[j - 1];
			r[j - 1] = t;
		}
	printf("BENCH %s%s %.0f packets/s\n", key, mode, r[n / 2]);
	printf("BENCH %s_best%s %.0f packets/s\n", key, mode, r[n - 1]);
}

int main(void)
{
	uint64_t packets = 1 << 20;
	uint64_t *ns;

	setvbuf(stdout, NULL, _IOLBF, 0);       /* progress survives a kill */
	gt_param_u64("iters", 0, &iters);
	gt_param_u64("packets", 0, &packets);
	gt_param_u64("multi", 0, &multi);
	if (iters < 100)
		iters = 100;
	ns = calloc(iters, sizeof(*ns));
	if (!ns)
		return 1;
	printf("BENCH clock_gettime %.2f us\n", clock_cost(ns) / 1e3);
	bench_edu(ns);
	if (hsagpu_agent_count() < 1) {
		DIAG("no hsa-gpu: boot the bench preset");
		return gt_result();
	}
	if (multi == 2) {
		/* scripts/bench's second boot (sw8): only the 8 devices */
		bench_devices(packets);
		free(ns);
		return gt_result();
	}
	/*
	 * GPU VM (translated) and VMID 0 (bus addresses): latency samples
	 * alternate between a file of each kind; the packet rate alternates
	 * in 5 rounds of each (a fifth of the packets each), so that drift
	 * of the host hits both alike.
	 */
	double rate[2][5];
	struct gtq_dev dv, d0;
	uint64_t *ns0 = calloc(iters, sizeof(*ns0));

	if (!ns0 || gtq_open_vm(0, &dv, 1) != 1 || gtq_open_vm(0, &d0, 0) != 1) {
		DIAG("no hsa-gpu with queues: boot the bench preset");
		return gt_result();
	}
	DIAG("hsa-gpu latency, GPU VM and VMID 0 alternating");
	bench_latency(&dv, &d0, ns, ns0, WAIT_SPIN, 1);
	bench_latency(&dv, &d0, ns, ns0, WAIT_SPIN, 0);
	bench_latency(&dv, &d0, ns, ns0, WAIT_BARE, 0);
	bench_latency(&dv, &d0, ns, ns0, WAIT_BLOCKED, 1);
	bench_latency(&dv, &d0, ns, ns0, WAIT_SLEEP, 1);
	DIAG("hsa-gpu throughput, GPU VM and VMID 0 alternating");
	for (int r = 0; r < 10; r++) {
		int vm = !(r & 1);

		mode = vm ? "_vm" : "_vmid0";
		rate[vm][r / 2] = bench_throughput(vm ? &dv : &d0, packets / 5);
	}
	if (multi) {
		DIAG("hsa-gpu throughput on 8 and 64 queues");
		report_multi(&dv, &d0, 1, 8, packets);
		report_multi(&dv, &d0, 1, 64, packets);
	}
	gtq_close(&d0);
	gtq_close(&dv);
	free(ns0);
	if (multi)
		bench_devices(packets);
	{
		double w[5];

		for (int r = 0; r < 5; r++)
			w[r] = bench_producer(packets / 5);
		mode = "";
		report_rate("guest_packet_writes_per_s", w, 5);
	}
	for (int vm = 1; vm >= 0; vm--) {
		mode = vm ? "_vm" : "_vmid0";
		printf("BENCH hsagpu_packets%s %llu packets\n", mode,
		       (unsigned long long)packets);
		report_rate("hsagpu_packets_per_s", rate[vm], 5);
	}
	free(ns);
	return gt_result();
}
