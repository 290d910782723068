// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The driver's recovery contract (hsagpu_uapi.h, "Errors and recovery"),
 * for two triggers:
 *
 *  - reset: the administrator resets the function
 *    (echo 1 > /sys/bus/pci/devices/<bdf>/reset: FLR, or a secondary bus
 *    reset behind the root port);
 *  - watchdog: a queue with pending work (a BARRIER_AND on a signal the
 *    CPU never sets) and no read-index progress for queue_timeout_ms
 *    (set to 300 ms here) is declared hung and its file loses its
 *    queues and VRAM (no device reset: the device destroys the queue);
 *  - aer-fatal ("t-recover aer", run as t-aer.sh): the host injects a
 *    fatal uncorrectable error (Malformed TLP) into gpu0's AER capability
 *    with HMP pcie_aer_inject_error through the harness channel; Linux's
 *    AER recovery resets the link. Needs a port whose link Linux can
 *    reset (native hotplug: the "hotplug" preset).
 *
 * A non-fatal AER error (Completer Abort, injected the same way) must
 * change nothing: it is counted, and the victim's queue goes on. The AER
 * part is not in every boot's run: QEMU 10.0 fails to migrate a guest
 * after an AER injection, and boot-migrate runs every test.
 *
 * The victim file has a queue (when the platform allows queues), a VRAM
 * allocation mapped and a thread asleep in WAIT_EVENTS on the blocked
 * packet's completion event. After the recovery the sleeper returns EIO,
 * ioctls on that file fail with EIO, its VRAM mapping raises SIGBUS and
 * close works; a bystander file that only had system memory and events
 * keeps working; a new open gets a working queue and VRAM; debugfs
 * counts the reset (and the watchdog firing).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>

#include "gtdev.h"
#include "gthost.h"
#include "gtpci.h"
#include "gtioctl.h"
#include "gtq.h"

#define PARAM_TIMEOUT "/sys/module/hsagpu/parameters/queue_timeout_ms"

static sigjmp_buf fault_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(fault_jmp, 1);
}

static int faults(volatile uint64_t *p)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	int hit = 0;

	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(fault_jmp, 1))
		hit = 1;
	else
		(void)*p;
	sigaction(SIGBUS, &old, NULL);
	return hit;
}

struct victim {
	struct gtq_dev d;
	int queues;
	hsagpu_queue_t *q;
	hsagpu_signal_t gate, done;
	volatile uint64_t *vram;
	int fd;
	uint32_t event;
	pthread_t th;
	int err;
};

static void *sleeper(void *arg)
{
	struct victim *v = arg;

	v->err = gti_event_wait(v->fd, &v->event, 1, 0, HSAGPU_WAIT_INFINITE,
				NULL);
	return NULL;
}

static int victim_setup(struct victim *v)
{
	memset(v, 0, sizeof(*v));
	v->queues = gtq_open(0, &v->d);
	if (v->queues < 0)
		return -1;
	v->fd = hsagpu_agent_fd(v->d.agent);
	v->vram = gtq_alloc(&v->d, 4096, HSAGPU_RT_MEM_VRAM);
	if (!v->vram)
		return -1;
	v->vram[0] = 0x5a5a;
	if (v->queues == 1) {
		v->q = gtq_queue(&v->d, 16, 0);
		v->gate = gtq_signal(&v->d, 1);
		v->done = gtq_signal(&v->d, 1);
		if (!v->q)
			return -1;
		/* Pending work that never progresses: the gate stays 1. */
		gtq_barrier(v->q, HSAGPU_PKT_TYPE_BARRIER_AND, &v->gate, 1,
			    v->done, 0);
		v->event = hsagpu_signal_ptr(v->done)->event_id;
	} else if (gti_event_create(v->fd, &v->event, NULL)) {
		return -1;
	}
	if (pthread_create(&v->th, NULL, sleeper, v))
		return -1;
	gtq_sleep_ms(100);
	return 0;
}

static uint64_t counter(const char *pci, const char *name)
{
	uint64_t v = ~0ULL;

	CHECK(gt_debugfs_u64(pci, name, &v) == 0, "debugfs %s of %s", name, pci);
	return v;
}

static int reset_trigger(const char *pci)
{
	char path[128], methods[128] = "?";

	gt_sysfs_read(pci, "reset_method", methods, sizeof(methods));
	DIAG("reset: %s reset_method '%s'", pci, methods);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/reset", pci);
	return gt_sysfs_write(path, "1");
}

static int watchdog_trigger(const char *pci)
{
	(void)pci;
	return gt_sysfs_write(PARAM_TIMEOUT, "300");
}

/* HMP pcie_aer_inject_error on the device with id gpu0 (the harness's). */
static int aer_inject(const char *error)
{
	char cmd[256], reply[512];
	const char *v;
	int ret;

	snprintf(cmd, sizeof(cmd),
		 "{\"execute\": \"human-monitor-command\", \"arguments\": "
		 "{\"command-line\": \"pcie_aer_inject_error gpu0 %s\"}}", error);
	ret = gt_qmp(cmd, reply, sizeof(reply));
	if (ret)
		return ret;
	/* HMP answers in text: "OK id: ..." on success. */
	v = gt_json_find(reply, "return");
	if (!v || strncmp(v, "\"OK", 3)) {
		DIAG("pcie_aer_inject_error: %s", reply);
		return -EREMOTEIO;
	}
	return 0;
}

static int aer_fatal_trigger(const char *pci)
{
	(void)pci;
	return aer_inject("MALF_TLP");
}

/* Wait up to @ms for debugfs counter @name of @pci to pass @old. */
static uint64_t counter_wait(const char *pci, const char *name, uint64_t old,
			     unsigned int ms)
{
	uint64_t v = old;

	for (unsigned int t = 0; t < ms && v == old; t += 20) {
		gt_debugfs_u64(pci, name, &v);
		if (v == old)
			gtq_sleep_ms(20);
	}
	return v;
}

/*
 * Whether Linux can reset the link below @pci's port after a fatal error:
 * its secondary bus reset waits for Data Link Layer Link Active when the
 * port says it reports it, and QEMU's root ports under q35's ACPI
 * hotplug never set it (native hotplug, the "hotplug" preset, does).
 */
static int link_resettable(const char *pci, char *port, size_t len)
{
	char path[128], real[256], *slash;
	uint32_t lnkcap = 0;
	uint16_t lnksta;
	int exp;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", pci);
	if (!realpath(path, real) || !(slash = strrchr(real, '/')))
		return 0;
	*slash = 0;
	slash = strrchr(real, '/');
	snprintf(port, len, "%s", slash ? slash + 1 : "?");
	exp = gtpci_exp_cap(port);
	if (!exp || gtpci_cfg_read(port, exp + PCI_EXP_LNKCAP, &lnkcap, 4))
		return 0;
	lnksta = gtpci_cfg_read16(port, exp + PCI_EXP_LNKSTA);
	return !(lnkcap & PCI_EXP_LNKCAP_DLLLARC) ||
	       (lnksta & PCI_EXP_LNKSTA_DLLLA);
}

/* A non-fatal error: counted, nothing lost, the blocked queue goes on. */
static void aer_nonfatal(void)
{
	struct hsagpu_device_info info = { .size = sizeof(info) };
	uint64_t aer0, aer1, resets0, resets1;
	struct timespec until;
	struct victim v;
	int joined;

	if (victim_setup(&v)) {
		CHECK(0, "aer-nonfatal: victim setup");
		return;
	}
	aer0 = counter(v.d.pci, "aer_events");
	resets0 = counter(v.d.pci, "resets");
	CHECK(aer_inject("COMP_ABORT") == 0, "aer-nonfatal: inject");
	aer1 = counter_wait(v.d.pci, "aer_events", aer0, 10000);
	resets1 = counter(v.d.pci, "resets");
	EXPECT(gti_ioctl(v.fd, HSAGPU_IOC_GET_INFO, &info), 0,
	       "aer-nonfatal: ioctl on the victim file");
	CHECK(!faults(v.vram) && v.vram[0] == 0x5a5a,
	      "aer-nonfatal: VRAM mapping lost");
	/* Let the blocked packet complete: the sleeper wakes normally. */
	if (v.queues == 1)
		hsagpu_signal_store_release(v.gate, 0);
	else
		gti_event_set(v.fd, v.event);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 10;
	joined = !pthread_timedjoin_np(v.th, NULL, &until);
	DIAG("aer-nonfatal: aer_events %llu -> %llu, resets %llu -> %llu, sleeper %s errno %d",
	     (unsigned long long)aer0, (unsigned long long)aer1,
	     (unsigned long long)resets0, (unsigned long long)resets1,
	     joined ? "returned" : "still asleep", v.err);
	CHECK(aer1 == aer0 + 1, "aer-nonfatal: aer_events did not count the error");
	CHECK(resets1 == resets0, "aer-nonfatal: a non-fatal error reset the device");
	CHECK(joined && v.err == 0, "aer-nonfatal: the victim's queue did not go on (sleeper %s, errno %d)",
	      joined ? "returned" : "still asleep", v.err);
	if (joined)
		gtq_close(&v.d);
}

static void run(const char *what, int (*trigger)(const char *), int need_queues)
{
	struct hsagpu_device_info info = { .size = sizeof(info) };
	uint64_t resets0, wd0, resets1, wd1;
	struct hsagpu_alloc_mem am;
	struct timespec until;
	struct victim v;
	struct gtq_dev c;
	int joined, e_ioctl, f_vram, fb, ret;
	uint32_t bev;

	if (victim_setup(&v)) {
		CHECK(0, "%s: victim setup", what);
		return;
	}
	if (need_queues && v.queues != 1) {
		DIAG("%s: no queues on this platform, nothing can hang", what);
		v.err = 0;
		gti_event_set(v.fd, v.event);
		pthread_join(v.th, NULL);
		gtq_close(&v.d);
		return;
	}
	fb = gtd_open(v.d.pci);
	CHECK(fb >= 0, "%s: bystander open", what);
	EXPECT(gti_alloc(fb, HSAGPU_MEM_SYSTEM, 4096, &am), 0,
	       "%s: bystander ALLOC_MEM SYSTEM", what);
	EXPECT(gti_event_create(fb, &bev, NULL), 0, "%s: bystander event", what);
	resets0 = counter(v.d.pci, "resets");
	wd0 = counter(v.d.pci, "watchdog_firings");

	ret = trigger(v.d.pci);
	CHECK(ret == 0, "%s: trigger: %d", what, ret);

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 20;
	joined = !pthread_timedjoin_np(v.th, NULL, &until);
	e_ioctl = gti_ioctl(v.fd, HSAGPU_IOC_GET_INFO, &info);
	f_vram = faults(v.vram);
	DIAG("%s: sleeper %s errno %d, ioctl errno %d, VRAM mapping %s", what,
	     joined ? "returned" : "STILL ASLEEP after 20 s,", v.err, e_ioctl,
	     f_vram ? "SIGBUS" : "readable");
	CHECK(joined && v.err == EIO, "%s: WAIT_EVENTS sleeper: %s, errno %d, expected EIO",
	      what, joined ? "returned" : "still asleep", v.err);
	CHECK(e_ioctl == EIO, "%s: ioctl on the victim file: errno %d, expected EIO",
	      what, e_ioctl);
	CHECK(f_vram, "%s: the victim's VRAM mapping is still readable", what);
	if (joined)
		gtq_close(&v.d);
	else
		close(v.fd);    /* the sleeper still uses the library */

	/* A file without queues or VRAM goes on. */
	EXPECT(gti_ioctl(fb, HSAGPU_IOC_GET_INFO, &info), 0,
	       "%s: bystander GET_INFO", what);
	EXPECT(gti_event_set(fb, bev), 0, "%s: bystander SET_EVENT", what);
	EXPECT(gti_event_wait(fb, &bev, 1, 0, 0, NULL), 0,
	       "%s: bystander WAIT_EVENTS", what);
	EXPECT(gti_alloc(fb, HSAGPU_MEM_SYSTEM, 4096, &am), 0,
	       "%s: bystander ALLOC_MEM", what);
	close(fb);

	/* A new open works normally. */
	ret = gtq_open(0, &c);
	CHECK(ret >= 0, "%s: open after recovery", what);
	if (ret >= 0) {
		volatile uint64_t *m = gtq_alloc(&c, 4096, HSAGPU_RT_MEM_VRAM);

		CHECK(m && (m[0] = 7, m[0] == 7), "%s: VRAM after recovery", what);
		if (ret == 1) {
			hsagpu_queue_t *q = gtq_queue(&c, 16, 0);
			volatile uint64_t *slot = gtq_alloc(&c, 4096,
							    HSAGPU_RT_MEM_SYSTEM);
			hsagpu_signal_t s = gtq_signal(&c, 1);

			if (q && slot) {
				gtq_write(q, slot, 0xc0de, s, 0);
				GTQ_WAIT(s, 0, 3000);
				CHECK(*slot == 0xc0de, "%s: queue after recovery did not run",
				      what);
				hsagpu_queue_destroy(q);
			}
			hsagpu_signal_destroy(s);
		}
		gtq_close(&c);
	}
	resets1 = counter(v.d.pci, "resets");
	wd1 = counter(v.d.pci, "watchdog_firings");
	DIAG("%s: debugfs resets %llu -> %llu, watchdog_firings %llu -> %llu", what,
	     (unsigned long long)resets0, (unsigned long long)resets1,
	     (unsigned long long)wd0, (unsigned long long)wd1);
	/* The watchdog only takes the hung queue's file; a reset the device. */
	CHECK(resets1 == resets0 + (trigger != watchdog_trigger),
	      "%s: resets counter", what);
	CHECK(wd1 == wd0 + (trigger == watchdog_trigger),
	      "%s: watchdog_firings counter", what);
}

int main(int argc, char **argv)
{
	char devs[GT_MAX_DEVS][16], old[32] = "", port[32] = "?";
	int n = gt_find_devices(devs);
	FILE *f;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (n <= 0)
		return gt_skip("no hsa-gpu device");
	if (argc > 1 && !strcmp(argv[1], "aer")) {
		/* Not in every boot: QEMU cannot migrate a guest after it. */
		if (!gt_host_attached())
			return gt_skip("no harness channel to inject AER errors from the host");
		aer_nonfatal();
		if (link_resettable(devs[0], port, sizeof(port)))
			run("aer-fatal", aer_fatal_trigger, 0);
		else
			DIAG("aer-fatal not run: port %s reports Data Link Layer Link Active but never sets it (ACPI hotplug), so Linux cannot reset the link (the hotplug preset can)",
			     port);
		return gt_result();
	}

	f = fopen(PARAM_TIMEOUT, "r");
	CHECK(f && fgets(old, sizeof(old), f), "hsagpu.ko has no queue_timeout_ms parameter");
	if (f)
		fclose(f);
	old[strcspn(old, "\n")] = 0;
	DIAG("queue_timeout_ms default %s", old);

	run("reset", reset_trigger, 0);
	run("watchdog", watchdog_trigger, 1);
	if (old[0])
		gt_sysfs_write(PARAM_TIMEOUT, old);
	return gt_result();
}
