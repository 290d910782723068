// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PCIe hot-unplug under a live user, and hot-add (scripts/test's
 * boot-hotplug: the device behind a pcie-root-port with native hotplug).
 * Two rounds, each with a worker process that has a queue, a thread
 * asleep in WAIT_EVENTS (infinite) on a packet held behind a barrier,
 * and a thread copying system memory -> VRAM -> system memory with the
 * DMA engine in a loop:
 *
 *  1. the host removes the device: QMP device_del gpu0 (pciehp: attention
 *     button, the guest powers the slot off);
 *  2. the guest powers the slot off itself: /sys/bus/pci/slots/N/power.
 *
 * Each time the worker must see the driver's removal contract
 * (include/hsagpu/hsagpu_uapi.h): the sleeper returns ENODEV, ioctls fail
 * with ENODEV, the VRAM and doorbell mappings raise SIGBUS, the DMA loop
 * ends with ENODEV or SIGBUS and never sees wrong data, close() works.
 * QEMU must report DEVICE_DELETED; then the host adds the device again
 * with its original properties (device_add) and the new device probes
 * and runs a queue and a DMA copy. The guest also migrates while the
 * slot is empty and after the device came back (the harness builds the
 * destination with the devices the guest has then). The harness fails the
 * boot on any oops or WARNING in the kernel log.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "gtdma.h"
#include "gthost.h"
#include "gtioctl.h"

#define DMA_BYTES (1u << 20)

/* SIGBUS: back to the faulting thread's own recovery point. */
static __thread sigjmp_buf fault_jmp;
static __thread volatile int fault_armed;

static void on_sigbus(int sig)
{
	if (!fault_armed) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	siglongjmp(fault_jmp, 1);
}

/* 1 if touching @p (a read, or a 64-bit write of @val) raises SIGBUS. */
static int faults(volatile uint64_t *p, int write, uint64_t val)
{
	int hit = 0;

	fault_armed = 1;
	if (sigsetjmp(fault_jmp, 1))
		hit = 1;
	else if (write)
		*p = val;
	else
		(void)*p;
	fault_armed = 0;
	return hit;
}

struct sleeper {
	int fd;
	uint32_t event;
	int err;
	volatile int done;
};

static void *sleeper_thread(void *arg)
{
	struct sleeper *sl = arg;

	sl->err = gti_event_wait(sl->fd, &sl->event, 1, 0, HSAGPU_WAIT_INFINITE,
				 NULL);
	__atomic_store_n(&sl->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

enum { END_NONE, END_ENODEV, END_SIGBUS, END_TIMEOUT, END_OTHER };
static const char *const end_name[] = { "none", "ENODEV", "SIGBUS",
					 "timeout", "other error" };

struct copier {
	hsagpu_agent_t *a;
	hsagpu_queue_t *q;
	uint8_t *src, *dst, *vram;
	hsagpu_signal_t sig;
	volatile unsigned int rounds;
	unsigned int bad;
	int end, err;
};

/* Wait for @s to reach 0, asleep on its event; END_* why it did not. */
static int copier_wait(struct copier *c)
{
	uint32_t ev = hsagpu_signal_ptr(c->sig)->event_id;
	int fd = hsagpu_agent_fd(c->a);

	for (int i = 0; i < 60; i++) {
		int e;

		if (gtq_value(c->sig) == 0)
			return END_NONE;
		e = gti_event_wait(fd, &ev, 1, 0, 1000, NULL);
		if (e == ENODEV)
			return END_ENODEV;
		if (e && e != ETIME) {
			c->err = e;
			return END_OTHER;
		}
	}
	return gtq_value(c->sig) == 0 ? END_NONE : END_TIMEOUT;
}

static void *copier_thread(void *arg)
{
	struct copier *c = arg;

	fault_armed = 1;
	if (sigsetjmp(fault_jmp, 1)) {
		c->end = END_SIGBUS;
		return NULL;
	}
	for (;;) {
		uint64_t seed = 0x686f74ULL + c->rounds;

		gtd_pattern(c->src, DMA_BYTES, seed);
		memset(c->dst, 0, DMA_BYTES);
		hsagpu_signal_store_release(c->sig, 1);
		__sync_synchronize();
		gtd_copy(c->q, (uintptr_t)c->vram, (uintptr_t)c->src,
			 DMA_BYTES, GTD_NONE);
		gtd_copy(c->q, (uintptr_t)c->dst, (uintptr_t)c->vram,
			 DMA_BYTES, c->sig);
		c->end = copier_wait(c);
		if (c->end != END_NONE)
			break;
		if (gtd_diff(c->dst, c->src, DMA_BYTES) != DMA_BYTES)
			c->bad++;
		c->rounds++;
	}
	fault_armed = 0;
	return NULL;
}

/*
 * The worker: sets everything up, says "r" once the DMA loop runs, waits
 * for "g" (the device is gone), then reports "<sleeper errno> <ioctl
 * errno> <vram sigbus> <doorbell sigbus> <dma end> <dma rounds> <dma bad>
 * <close rc>".
 */
static void worker(int wfd, int gofd)
{
	struct sigaction sa = { .sa_handler = on_sigbus };
	struct hsagpu_device_info info = { .size = sizeof(info) };
	struct sleeper sl = { 0 };
	struct copier c = { 0 };
	volatile uint64_t *vram, *sys;
	hsagpu_queue_t *qg;
	hsagpu_signal_t gate, held;
	struct timespec until;
	pthread_t ts, tc;
	char msg[128], go;
	int joined, copier_joined, e_ioctl, f_vram, f_db, rc_close;

	sigaction(SIGBUS, &sa, NULL);
	if (hsagpu_agent_open(0, &c.a) ||
	    hsagpu_memory_allocate(c.a, 4096, HSAGPU_RT_MEM_SYSTEM, (void **)&sys) ||
	    hsagpu_memory_allocate(c.a, 4096, HSAGPU_RT_MEM_VRAM, (void **)&vram) ||
	    hsagpu_memory_allocate(c.a, DMA_BYTES, HSAGPU_RT_MEM_SYSTEM, (void **)&c.src) ||
	    hsagpu_memory_allocate(c.a, DMA_BYTES, HSAGPU_RT_MEM_SYSTEM, (void **)&c.dst) ||
	    hsagpu_memory_allocate(c.a, DMA_BYTES, HSAGPU_RT_MEM_VRAM, (void **)&c.vram) ||
	    hsagpu_signal_create(c.a, 1, &gate) || hsagpu_signal_create(c.a, 1, &held) ||
	    hsagpu_signal_create(c.a, 1, &c.sig) ||
	    hsagpu_queue_create(c.a, 16, 0, 0, &qg) ||
	    hsagpu_queue_create(c.a, 64, 0, 0, &c.q))
		_exit(2);
	vram[0] = 0x7a11;
	/* held until the gate opens, which it never does */
	if (gtq_barrier(qg, HSAGPU_PKT_TYPE_BARRIER_AND, &gate, 1, GTD_NONE, 0) < 0 ||
	    gtq_agent(qg, HSAGPU_AGENT_NOP, NULL, 0, held, 0) < 0)
		_exit(3);
	sl.fd = hsagpu_agent_fd(c.a);
	sl.event = hsagpu_signal_ptr(held)->event_id;
	if (!sl.event || pthread_create(&ts, NULL, sleeper_thread, &sl) ||
	    pthread_create(&tc, NULL, copier_thread, &c))
		_exit(4);
	for (int i = 0; i < 1000 && c.rounds < 2 && c.end == END_NONE; i++)
		gtq_sleep_ms(10);
	if (c.rounds < 2 || write(wfd, "r", 1) != 1 || read(gofd, &go, 1) != 1)
		_exit(5);

	/* The device is gone now. */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 10;
	joined = !pthread_timedjoin_np(ts, NULL, &until);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 70;
	copier_joined = !pthread_timedjoin_np(tc, NULL, &until);
	e_ioctl = ioctl(sl.fd, HSAGPU_IOC_GET_INFO, &info) ? errno : 0;
	f_vram = faults(vram, 0, 0);
	f_db = faults((volatile uint64_t *)qg->doorbell, 1, 1);
	if (!faults(sys, 0, 0))
		sys[1] = 1;
	rc_close = close(sl.fd) ? errno : 0;
	snprintf(msg, sizeof(msg), "%d %d %d %d %d %u %u %d\n",
		 joined ? sl.err : -1, e_ioctl, f_vram, f_db,
		 copier_joined ? c.end : END_TIMEOUT, c.rounds, c.bad, rc_close);
	if (write(wfd, msg, strlen(msg)) < 0)
		_exit(6);
	/* exit releases the mappings: the driver's last release runs now */
	_exit(0);
}

static int read_line(int fd, char *buf, size_t len, int timeout_ms)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	size_t got = 0;

	while (got < len - 1 && poll(&pf, 1, timeout_ms) == 1) {
		ssize_t n = read(fd, buf + got, len - 1 - got);

		if (n <= 0)
			break;
		got += n;
		if (buf[got - 1] == '\n' || (got == 1 && buf[0] == 'r'))
			break;
	}
	buf[got] = 0;
	return got;
}

static int present(const char *pci)
{
	char path[96];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", pci);
	return stat(path, &st) == 0;
}

static int bound(const char *pci)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver/module",
		 pci);
	return stat(path, &st) == 0;
}

/*
 * The driver's device node exists: probe() has finished (the "driver"
 * link appears before probe() runs). One device, so it is hsagpu0.
 */
static int has_node(const char *pci)
{
	struct stat st;

	(void)pci;
	return stat("/dev/hsagpu0", &st) == 0;
}

/*
 * The driver's sysfs attributes exist: the driver core adds them after
 * probe() returned, so the device node alone does not promise them (a
 * check that read hsagpu/queues right after has_node() saw ENOENT on a
 * loaded machine).
 */
static int has_attrs(const char *pci)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/hsagpu/queues",
		 pci);
	return stat(path, &st) == 0;
}

/* Poll @cond(@pci) == @want for up to @ms. */
static int wait_for(int (*cond)(const char *), const char *pci, int want,
		    unsigned int ms)
{
	for (unsigned int t = 0; t < ms; t += 50) {
		if (!!cond(pci) == want)
			return 1;
		gtq_sleep_ms(50);
	}
	return !!cond(pci) == want;
}

/* The hotplug slot whose address is @pci's bus/device, e.g. "1". */
static int find_slot(const char *pci, char *name, size_t len)
{
	DIR *d = opendir("/sys/bus/pci/slots");
	struct dirent *e;
	int found = 0;

	while (d && (e = readdir(d)) && !found) {
		char path[300], addr[32] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/pci/slots/%s/address",
			 e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(addr, sizeof(addr), f))
			addr[0] = 0;
		fclose(f);
		addr[strcspn(addr, "\n")] = 0;
		/* "0000:01:00" for the function 0000:01:00.0 */
		if (addr[0] && !strncmp(pci, addr, strlen(addr)) &&
		    pci[strlen(addr)] == '.') {
			snprintf(name, len, "%s", e->d_name);
			found = 1;
		}
	}
	if (d)
		closedir(d);
	return found;
}

/* A queue and a DMA copy on the (new) device 0. */
static void check_usable(const char *what)
{
	struct gtq_dev d;
	hsagpu_queue_t *q;
	hsagpu_signal_t s;
	uint8_t *a, *b, *v;

	if (gtq_open(0, &d) != 1) {
		CHECK(0, "%s: device not usable (queues refused or no agent)", what);
		gtq_close(&d);
		return;
	}
	q = gtq_queue(&d, 16, 0);
	s = gtq_signal(&d, 1);
	a = gtq_alloc(&d, DMA_BYTES, HSAGPU_RT_MEM_SYSTEM);
	b = gtq_alloc(&d, DMA_BYTES, HSAGPU_RT_MEM_SYSTEM);
	v = gtq_alloc(&d, DMA_BYTES, HSAGPU_RT_MEM_VRAM);
	if (q && a && b && v) {
		gtd_pattern(a, DMA_BYTES, 42);
		memset(b, 0, DMA_BYTES);
		gtd_copy(q, (uintptr_t)v, (uintptr_t)a,
			 DMA_BYTES, GTD_NONE);
		gtd_copy(q, (uintptr_t)b, (uintptr_t)v,
			 DMA_BYTES, s);
		GTQ_WAIT(s, 0, 10000);
		CHECK(gtd_diff(a, b, DMA_BYTES) == DMA_BYTES,
		      "%s: DMA copy wrong at byte %zu", what,
		      gtd_diff(a, b, DMA_BYTES));
		CHECK(hsagpu_queue_destroy(q) == 0, "%s: destroy", what);
	} else {
		CHECK(0, "%s: queue or memory setup failed", what);
	}
	gtq_close(&d);
}

/*
 * Live migration with the devices as the guest changed them: the harness
 * builds the destination from the current devices (it follows
 * DEVICE_DELETED and device_add).
 */
static int migrate(const char *what, const char *when)
{
	char reply[512];
	int ret = gt_host("MIGRATE", reply, sizeof(reply));

	CHECK(ret > 0 && gt_json_find(reply, "return"),
	      "%s: MIGRATE (%s) failed: %d %s", what, when, ret, reply);
	return ret > 0 && gt_json_find(reply, "return");
}

static void round_trip(int by_slot_power)
{
	const char *what = by_slot_power ? "slot power-off" : "device_del";
	int e_wait = -2, e_ioctl = -2, f_vram = -2, f_db = -2, end = -2, rc_close = -2;
	unsigned int rounds = 0, bad = 0;
	char devs[GT_MAX_DEVS][16], pci[16], slot[256], path[300], msg[128];
	char reply[1024];
	int pfd[2], gfd[2], status = 0, n;
	pid_t pid;

	n = gt_find_devices(devs);
	CHECK(n == 1, "%s: %d hsa-gpu functions before, expected 1", what, n);
	if (n < 1)
		return;
	snprintf(pci, sizeof(pci), "%s", devs[0]);
	CHECK(find_slot(pci, slot, sizeof(slot)), "%s: no hotplug slot for %s",
	      what, pci);
	if (pipe(pfd) || pipe(gfd))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		close(gfd[1]);
		worker(pfd[1], gfd[0]);
	}
	close(pfd[1]);
	close(gfd[0]);
	CHECK(read_line(pfd[0], msg, sizeof(msg), 20000) == 1 && msg[0] == 'r',
	      "%s: worker did not get ready: '%s'", what, msg);
	gtq_sleep_ms(100);

	if (by_slot_power) {
		snprintf(path, sizeof(path), "/sys/bus/pci/slots/%s/power", slot);
		CHECK(gt_sysfs_write(path, "0") == 0, "%s: echo 0 > %s", what, path);
	} else {
		CHECK(gt_qmp("{\"execute\": \"device_del\", \"arguments\": {\"id\": \"gpu0\"}}",
			     NULL, 0) == 0, "%s: QMP device_del gpu0", what);
	}
	CHECK(wait_for(present, pci, 0, 30000), "%s: %s still present after 30 s",
	      what, pci);
	n = gt_host("EVENT DEVICE_DELETED device=gpu0 30", reply, sizeof(reply));
	CHECK(n > 0 && gt_json_find(reply, "return"),
	      "%s: QEMU reported no DEVICE_DELETED for gpu0: %s", what, reply);

	CHECK(write(gfd[1], "g", 1) == 1, "go");
	CHECK(read_line(pfd[0], msg, sizeof(msg), 100000) > 0 &&
	      sscanf(msg, "%d %d %d %d %d %u %u %d", &e_wait, &e_ioctl, &f_vram,
		     &f_db, &end, &rounds, &bad, &rc_close) == 8,
	      "%s: no report from the worker: '%s'", what, msg);
	DIAG("%s: sleeper errno %d, ioctl errno %d, VRAM SIGBUS %d, doorbell SIGBUS %d, DMA loop ended by %s after %u rounds (%u wrong), close %d",
	     what, e_wait, e_ioctl, f_vram, f_db,
	     end >= 0 && end <= END_OTHER ? end_name[end] : "?", rounds, bad,
	     rc_close);
	CHECK(e_wait == ENODEV, "%s: WAIT_EVENTS sleeper: errno %d, expected ENODEV (-1: still asleep)",
	      what, e_wait);
	CHECK(e_ioctl == ENODEV, "%s: ioctl after removal: errno %d, expected ENODEV",
	      what, e_ioctl);
	CHECK(f_vram == 1, "%s: VRAM mapping readable after removal", what);
	CHECK(f_db == 1, "%s: doorbell page writable after removal", what);
	CHECK(end == END_ENODEV || end == END_SIGBUS,
	      "%s: DMA loop ended by %s, expected ENODEV or SIGBUS", what,
	      end >= 0 && end <= END_OTHER ? end_name[end] : "?");
	CHECK(bad == 0, "%s: %u DMA rounds gave wrong data before the removal",
	      what, bad);
	CHECK(rc_close == 0, "%s: close: errno %d", what, rc_close);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "%s: worker ended with status 0x%x", what,
	      status);
	close(pfd[0]);
	close(gfd[1]);

	/* the slot empty: a migration target must be built without gpu0 */
	if (!by_slot_power)
		migrate(what, "slot empty");

	/* back, with the properties it had */
	CHECK(gt_device_add_again("gpu0") == 0, "%s: device_add gpu0 again", what);
	if (by_slot_power && !wait_for(present, pci, 1, 10000)) {
		/* pciehp may leave a slot the admin turned off alone */
		DIAG("%s: the new device did not appear by itself; echo 1 > power",
		     what);
		CHECK(gt_sysfs_write(path, "1") == 0, "%s: echo 1 > %s", what, path);
	}
	CHECK(wait_for(present, pci, 1, 30000) && wait_for(bound, pci, 1, 10000) &&
	      wait_for(has_node, pci, 1, 10000) &&
	      wait_for(has_attrs, pci, 1, 10000),
	      "%s: %s did not come back with its driver, /dev/hsagpu0 and its sysfs attributes",
	      what, pci);
	check_usable(what);
	/* and the device added at run time migrates */
	if (by_slot_power && migrate(what, "device added again"))
		check_usable("after the migration");
}

int main(void)
{
	if (!gt_host_attached())
		return gt_skip("no harness channel (hsagpu_test.host=1 not set)");
	if (gtq_boot_queues() != 1)
		return gt_skip("this boot promises no queues (use the hotplug preset)");
	round_trip(0);
	if (!gt_failures)
		round_trip(1);
	return gt_result();
}
