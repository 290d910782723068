// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A CPU's MMIO reaches the register it addresses while another CPU changes
 * the memory map. CPU 0 reads device A's BAR5 identification register;
 * CPU 1 toggles memory decoding of device B (config space writes through
 * sysfs), whose BARs lie below A's, so that every toggle commits a memory
 * map in which A's regions have other section numbers. QEMU switches the
 * map at once but has each vCPU flush its TLB only when that vCPU next
 * leaves its translated block; a vCPU thread preempted in between used the
 * old TLB entry's section number in the new map and reached another region
 * (here: an MSI-X table; in CI: a lost APIC EOI, a CPU without timer
 * interrupts; assertions in QEMU). QEMU patch 0005 keeps the section the
 * entry was filled from. Locked adds on a register of A run through the
 * other way into translated code (an atomic on an MMIO page) and must
 * all land. The preemption needs more busy host threads
 * than cores: fill kernels on A keep its processor thread busy meanwhile
 * (on a boot with queues). Without the fix: one or two wrong reads in half
 * a million on a quiet host. Needs two devices and two CPUs; B is unbound
 * from its driver meanwhile and bound again.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "gt.h"
#include "gtq.h"

/*
 * At least RUN_SECS, and on until the toggler made MIN_TOGGLES changes of
 * the memory map (a loaded host or an IOMMU makes each slower), for at
 * most MAX_SECS: fewer than that in MAX_SECS is a config space that
 * stalls, not a slow machine.
 */
#define RUN_SECS 4
#define MAX_SECS 60
#define MIN_TOGGLES 120

static volatile int stop;
static char b_config[96];
static long toggles;

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void *toggler(void *arg)
{
	int fd = open(b_config, O_RDWR);
	uint16_t cmd, off;

	(void)arg;
	if (pin(1) || fd < 0 || pread(fd, &cmd, 2, 4) != 2)
		return (void *)1;
	off = cmd & ~2;         /* PCI_COMMAND_MEMORY */
	while (!stop) {
		if (pwrite(fd, &off, 2, 4) != 2 || pwrite(fd, &cmd, 2, 4) != 2)
			return (void *)1;
		toggles++;
	}
	close(fd);
	return NULL;
}

static uint64_t bar5_base(const char *dev)
{
	unsigned long long st = 0, en, fl;
	char path[96];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource", dev);
	f = fopen(path, "r");
	if (!f)
		return 0;
	for (int i = 0; i <= HSAGPU_BAR_MMIO; i++)
		if (fscanf(f, "%llx %llx %llx", &st, &en, &fl) != 3)
			st = 0;
	fclose(f);
	return st;
}

/*
 * A few microseconds of work that takes no lock: the reader's next MMIO
 * access then starts at any moment of the other CPU's commit, not only
 * right after it released the BQL the access waits for.
 */
static void spin(int k)
{
	for (volatile int i = 0; i < 16 + (k * 37) % 200; i++)
		;
}

/*
 * Host load from the device itself: fill kernels over 64 MiB of A's VRAM
 * on a queue of A, topped up while the reads go on; the signal counts the
 * fills still to run.
 */
#define LOAD_BYTES (64u << 20)
static struct {
	hsagpu_queue_t *q;
	void *kargs;
	hsagpu_signal_t sig;
} load;

static void load_more(int n)
{
	hsagpu_signal_add_relaxed(load.sig, n);
	for (int i = 0; i < n; i++)
		gtq_dispatch1(load.q, HSAGPU_KERNEL_FILL, load.kargs, LOAD_BYTES / 4, 256,
			      load.sig, 0);
}

/* 0 when A takes no queues here (no load then) */
static int load_start(int idx, struct gtq_dev *d)
{
	struct hsagpu_kargs_fill fill = { .value = 0x5a5a5a5a };
	struct gtq_arena ar;
	void *buf;

	if (gtq_open(idx, d) != 1)
		return 0;
	buf = gtq_alloc(d, LOAD_BYTES, HSAGPU_RT_MEM_VRAM);
	load.q = gtq_queue(d, 256, 0);
	if (!buf || !load.q)
		return 0;
	gtq_arena_init(d, &ar, 4096);
	fill.dst = (uintptr_t)buf;
	load.kargs = gtq_kargs(&ar, &fill, sizeof(fill));
	load.sig = gtq_signal(d, 0);
	load_more(64);
	return 1;
}

#define READ1(p, bad, last)                                     \
	do {                                                    \
		uint32_t v_ = (p)[HSAGPU_REG_MAGIC / 4];        \
		if (v_ != HSAGPU_MAGIC_VALUE) {                 \
			(bad)++;                                \
			(last) = v_;                            \
		}                                               \
	} while (0)

int main(void)
{
	char devs[GT_MAX_DEVS][16], path[128];
	int n = gt_find_devices(devs), a = -1, b = -1, bound;
	uint64_t base[GT_MAX_DEVS], reads = 0, bad = 0;
	uint32_t last = 0, scratch0, adds = 0;
	volatile uint32_t *regs;
	struct gtq_dev ad;
	long fills = 0;
	int loaded;
	pthread_t t;
	void *tret;
	time_t start;
	size_t len;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (n < 2)
		return gt_skip("needs two hsa-gpu devices (%d)", n);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return gt_skip("needs two CPUs");
	for (int i = 0; i < n; i++) {
		base[i] = bar5_base(devs[i]);
		if (base[i] && (a < 0 || base[i] > base[a]))
			a = i;
	}
	for (int i = 0; i < n; i++)
		if (i != a && base[i] && base[i] < base[a] && (b < 0 || base[i] > base[b]))
			b = i;
	CHECK(a >= 0 && b >= 0, "no two devices with BAR5 assigned");
	if (a < 0 || b < 0)
		return gt_result();
	DIAG("reading %s BAR5 at 0x%llx, toggling decode of %s (BAR5 at 0x%llx)",
	     devs[a], (unsigned long long)base[a], devs[b], (unsigned long long)base[b]);

	regs = gt_map_resource(devs[a], HSAGPU_BAR_MMIO, &len);
	CHECK(regs, "cannot map BAR5 of %s", devs[a]);
	if (!regs)
		return gt_result();
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", devs[b]);
	bound = access(path, F_OK) == 0;
	if (bound)
		CHECK(gt_sysfs_write("/sys/bus/pci/drivers/hsagpu/unbind", devs[b]) == 0,
		      "unbind %s", devs[b]);
	snprintf(b_config, sizeof(b_config), "/sys/bus/pci/devices/%s/config", devs[b]);

	CHECK(pin(0) == 0, "cannot run on CPU 0");

	loaded = load_start(a, &ad);
	scratch0 = regs[HSAGPU_REG_SCRATCH0 / 4];
	CHECK(pthread_create(&t, NULL, toggler, NULL) == 0, "toggler thread");
	start = time(NULL);
	while (time(NULL) < start + RUN_SECS ||
	       (__atomic_load_n(&toggles, __ATOMIC_RELAXED) < MIN_TOGGLES &&
		time(NULL) < start + MAX_SECS)) {
		for (int k = 0; k < 256; k++) {
			READ1(regs, bad, last);
			/*
			 * A locked add on the register: TCG runs an atomic on
			 * an MMIO page outside cpu_exec (EXCP_ATOMIC, the
			 * second half of patch 0005); every one must land.
			 */
			if (!(k & 7)) {
				__atomic_fetch_add(&regs[HSAGPU_REG_SCRATCH0 / 4], 1,
						   __ATOMIC_SEQ_CST);
				adds++;
			}
			spin(k);
		}
		reads += 256;
		if (loaded && gtq_value(load.sig) < 16) {
			load_more(64);
			fills += 64;
		}
	}
	stop = 1;
	pthread_join(t, &tret);
	if (loaded) {
		/* the load is not under test: closing the file drops the rest */
		DIAG("host load: %ld fills of 64 MiB on %s, %lld not run yet", fills + 64,
		     devs[a], (long long)gtq_value(load.sig));
	} else {
		DIAG("no host load: %s takes no queues", devs[a]);
	}
	gtq_close(&ad);
	CHECK(tret == NULL, "config space writes to %s failed", b_config);
	DIAG("%llu reads of the magic register during %ld decode toggles of %s",
	     (unsigned long long)reads, toggles, devs[b]);
	CHECK(toggles >= MIN_TOGGLES, "only %ld toggles in %d s: config space writes stall",
	      toggles, MAX_SECS);
	CHECK(bad == 0, "%llu of %llu reads returned something else (last 0x%08x)",
	      (unsigned long long)bad, (unsigned long long)reads, last);
	CHECK(regs[HSAGPU_REG_SCRATCH0 / 4] - scratch0 == adds,
	      "%u locked adds on SCRATCH0 moved it by %u", adds,
	      regs[HSAGPU_REG_SCRATCH0 / 4] - scratch0);

	if (bound) {
		CHECK(gt_sysfs_write("/sys/bus/pci/drivers/hsagpu/bind", devs[b]) == 0,
		      "bind %s again", devs[b]);
		CHECK(access(path, F_OK) == 0, "%s has no driver after bind", devs[b]);
	}
	return gt_result();
}
