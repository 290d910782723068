// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-hsa-lost: hsagpu.ko's queue watchdog and ROCr. The watchdog takes a
 * hung queue away (its context loses every queue); a ROCr process must
 * then learn it as ROCr learns of any queue error, not wait for ever, and
 * a queue that is only slow must keep its work. With the watchdog's
 * timeout made short (hsagpu.ko's queue_timeout_ms), on the first device:
 *
 *  - slow, not hung: a GCN kernel (bench_alu, a code object of the
 *    corpus) that runs about four timeouts long, its read index still
 *    the whole time, completes with the CPU's results: no watchdog
 *    firing, no queue error callback;
 *  - hung: the device's fault injection (inject-queue-hang, through the
 *    harness's QMP) holds a child's ROCr queue; the child submits a
 *    packet and waits for it (BLOCKED, no timeout) as an application
 *    does. The watchdog fires, and the child's queue error callback
 *    must come (ROCr: the queue's queue_inactive_signal, as the device
 *    reports a failed queue) with an error; it then exits, as HIP's
 *    callback aborts. The injected queue is destroyed (the injection
 *    reads -1 again) and a new process runs a kernel.
 *
 * SKIP of the second part without the harness's channel.
 */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "gtdev.h"
#include "gthost.h"
#include "hsat.h"
#include "hsagpu/hsagpu_regs.h"

#define PARAM_TIMEOUT   "/sys/module/hsagpu/parameters/queue_timeout_ms"
#define TIMEOUT_MS      1000
#define DEV             "gpu0"
#define LOST_EXIT       42

static struct hsat h;
static char devs[GT_MAX_DEVS][16];
static atomic_int errors;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t firings(void)
{
	uint64_t v = 0;

	gt_debugfs_u64(devs[0], "watchdog_firings", &v);
	return v;
}

/* ---- slow, not hung --------------------------------------------------- */

static void on_error_count(hsa_status_t st, hsa_queue_t *q, void *data)
{
	(void)q;
	(void)data;
	atomic_fetch_add(&errors, 1);
	printf("# queue error callback: %s (0x%x)\n", hsat_status_name(st), st);
	fflush(stdout);
}

static float alu_cpu(uint32_t i, uint32_t iters)
{
	static const float m[8] = { 0.999f, 0.998f, 0.997f, 0.996f, 0.995f,
				    0.994f, 0.993f, 0.992f };
	static const float k[8] = { 0.5f, 0.25f, 0.125f, 1.0f, 2.0f, 0.75f,
				    1.5f, 3.0f };
	float v[8], sum;

	for (int j = 0; j < 8; j++)
		v[j] = (float)i + j;
	for (uint32_t r = 0; r < iters; r++)
		for (int j = 0; j < 8; j++)
			v[j] = fmaf(v[j], m[j], k[j]);
	sum = v[0];
	for (int j = 1; j < 8; j++)
		sum += v[j];
	return sum;
}

static void *read_co(const char *argv0, const char *name, size_t *len)
{
	char path[512], self[256];
	struct stat st;
	void *buf = NULL;
	int fd;

	snprintf(self, sizeof(self), "%s", argv0);
	snprintf(path, sizeof(path), "%s/%s", dirname(self), name);
	fd = open(path, O_RDONLY);
	if (fd >= 0 && !fstat(fd, &st)) {
		buf = malloc(st.st_size);
		*len = st.st_size;
		if (buf && gt_read_full(fd, buf, *len, 1000)) {
			free(buf);
			buf = NULL;
		}
	}
	if (fd >= 0)
		close(fd);
	CHECK(buf, "cannot read %s", path);
	return buf;
}

/* bench_alu over 64 items, @iters rounds; seconds it took, < 0 if it did not end */
static double run_alu(hsa_queue_t *q, uint64_t kobj, uint32_t kasize, float *out,
		      uint32_t iters, unsigned int ms)
{
	uint8_t args[512] = { 0 };      /* the hidden arguments stay 0 */
	uint64_t o = (uintptr_t)out;
	hsa_kernel_dispatch_packet_t p;
	hsa_signal_t s;
	double t0;
	void *ka;
	int r;

	memcpy(args, &o, 8);
	memcpy(args + 8, &iters, 4);
	ka = hsat_kernarg(&h, args, kasize < 16 ? 16 : kasize > 512 ? 512 : kasize);

	if (!ka || HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s)))
		return -1;
	memset(out, 0, 64 * 4);
	hsat_dispatch_pkt(&p, kobj, ka, 64, 64, s);
	t0 = now_s();
	hsat_submit(q, &p);
	r = hsat_wait_below(s, 1, ms, HSA_WAIT_STATE_BLOCKED, NULL);
	t0 = now_s() - t0;
	hsa_signal_destroy(s);
	hsa_amd_memory_pool_free(ka);
	return r ? -1 : t0;
}

static int slow_child(const char *argv0)
{
	hsa_code_object_reader_t reader;
	hsa_executable_symbol_t sym;
	hsa_executable_t exe;
	hsa_profile_t profile;
	struct hsat_gpu *g;
	uint64_t kobj = 0, f0;
	uint32_t iters, kasize = 0;
	hsa_queue_t *q;
	size_t len = 0;
	void *co;
	float *out;
	double t;
	int bad = 0;

	if (hsat_init(&h))
		return 1;
	g = &h.gpu[0];
	co = read_co(argv0, "bench_alu.co", &len);
	out = hsat_alloc(h.sys, 4096);
	if (!co || !out)
		return 1;
	hsat_phase("slow: loading bench_alu");
	HSAT_CHECK(hsa_agent_get_info(g->agent, HSA_AGENT_INFO_PROFILE, &profile));
	if (HSAT_CHECK(hsa_code_object_reader_create_from_memory(co, len, &reader)) ||
	    HSAT_CHECK(hsa_executable_create_alt(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
						 NULL, &exe)) ||
	    HSAT_CHECK(hsa_executable_load_agent_code_object(exe, g->agent, reader, NULL,
							       NULL)) ||
	    HSAT_CHECK(hsa_executable_freeze(exe, NULL)) ||
	    HSAT_CHECK(hsa_executable_get_symbol_by_name(exe, "bench_alu.kd", &g->agent, &sym)) ||
	    HSAT_CHECK(hsa_executable_symbol_get_info(sym,
					HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kobj)) ||
	    HSAT_CHECK(hsa_executable_symbol_get_info(sym,
			HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kasize)) ||
	    HSAT_CHECK(hsa_queue_create(g->agent, 64, HSA_QUEUE_TYPE_MULTI, on_error_count,
					NULL, UINT32_MAX, UINT32_MAX, &q)))
		return gt_result();

	/*
	 * How fast the interpreter is here (the first dispatches also load
	 * and warm up): rounds for about a quarter of a second, then four
	 * timeouts' worth, longer again while a run ends too soon.
	 */
	hsat_phase("slow: calibrating");
	iters = 4000;
	do {
		t = run_alu(q, kobj, kasize, out, iters, 60000);
		CHECK(t > 0, "bench_alu of %u rounds did not end", iters);
		if (t <= 0)
			return gt_result();
	} while (t < 0.25 && iters < (1u << 22) && (iters *= 4));
	iters = iters * (4.0 * TIMEOUT_MS / 1000) / t;
	if (iters > (1u << 26))
		iters = 1u << 26;

	hsat_phase("slow: a kernel four timeouts long");
	f0 = firings();
	for (int tries = 0; tries < 3; tries++) {
		t = run_alu(q, kobj, kasize, out, iters, 120000);
		DIAG("%u rounds took %.3f s (watchdog timeout %u ms), watchdog firings +%llu",
		     iters, t, TIMEOUT_MS, (unsigned long long)(firings() - f0));
		if (t < 0 || t > 2.0 * TIMEOUT_MS / 1000 || iters >= (1u << 26))
			break;
		iters *= 2;
	}
	CHECK(t > 0, "the slow kernel did not complete (the watchdog took its queue?)");
	CHECK(firings() == f0, "the watchdog fired on a queue whose kernel ran");
	CHECK(t < 0 || t > 2.0 * TIMEOUT_MS / 1000,
	      "the kernel took %.3f s: not twice the timeout, nothing shown", t);
	CHECK(!atomic_load(&errors), "%d queue error callbacks", atomic_load(&errors));
	/* two items against the CPU (each is iters x 8 fma on an emulated CPU) */
	if (t > 0) {
		for (uint32_t i = 0; i < 64; i += 63) {
			float want = alu_cpu(i, iters);

			bad += memcmp(&out[i], &want, 4) != 0;
		}
		CHECK(!bad, "%d of 2 results differ from the CPU's", bad);
	}
	hsat_phase("slow: shutting down");
	HSAT_CHECK(hsat_queue_destroy(q));
	hsa_executable_destroy(exe);
	hsa_code_object_reader_destroy(reader);
	HSAT_CHECK(hsat_shut_down());
	return gt_result();
}

/* ---- hung ------------------------------------------------------------- */

/* As HIP's callback: an error ends the process. */
static void on_error_exit(hsa_status_t st, hsa_queue_t *q, void *data)
{
	(void)q;
	(void)data;
	printf("# child: queue error callback: %s (0x%x)\n", hsat_status_name(st), st);
	fflush(stdout);
	_exit(st == HSA_STATUS_ERROR_EXCEPTION ? LOST_EXIT : LOST_EXIT + 1);
}

/* The device's hardware queue whose ring is @ring, or -1. */
static int hw_queue_of(const char *pci, const void *ring)
{
	int64_t nq = hsat_sysfs(pci, "num_queues");
	volatile uint32_t *regs;
	size_t len = 0;
	int found = -1;

	regs = gt_map_resource(pci, 5, &len);
	if (!regs)
		return -1;
	for (int64_t i = 0; i < nq && found < 0; i++) {
		size_t off = HSAGPU_REG_QUEUE(i);
		uint64_t r;

		if (off + HSAGPU_QUEUE_REG_STRIDE > len)
			break;
		if ((regs[(off + HSAGPU_QREG_STATE) / 4] & HSAGPU_QSTATE_MASK) !=
		    HSAGPU_QSTATE_ACTIVE ||
		    !(regs[(off + HSAGPU_QREG_FLAGS) / 4] & HSAGPU_QF_AMD_QUEUE))
			continue;
		r = regs[(off + HSAGPU_QREG_RING_LO) / 4] |
		    (uint64_t)regs[(off + HSAGPU_QREG_RING_HI) / 4] << 32;
		if (r == (uintptr_t)ring)
			found = i;
	}
	munmap((void *)regs, len);
	return found;
}

static int hung_child(void)
{
	struct hsagpu_kargs_fill fa;
	hsa_kernel_dispatch_packet_t p;
	hsa_signal_t s;
	hsa_queue_t *q;
	uint32_t *buf;
	char id[16];
	int hw;

	if (hsat_init(&h))
		return 1;
	buf = hsat_alloc(h.sys, 4096);
	if (!buf || HSAT_CHECK(hsa_queue_create(h.gpu[0].agent, 64, HSA_QUEUE_TYPE_MULTI,
						on_error_exit, NULL, UINT32_MAX, UINT32_MAX,
						&q)) ||
	    HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s)))
		return 1;
	hw = hw_queue_of(devs[0], q->base_address);
	CHECK(hw >= 0, "the queue's ring is in no active hardware queue");
	if (hw < 0)
		return 1;
	snprintf(id, sizeof(id), "%d", hw);
	DIAG("child: ROCr queue %llu is hardware queue %d: hanging it",
	     (unsigned long long)q->id, hw);
	if (gt_qom_set(DEV, "inject-queue-hang", id)) {
		CHECK(0, "qom-set inject-queue-hang");
		return 1;
	}
	fa = (struct hsagpu_kargs_fill){ .dst = (uintptr_t)buf, .value = 7 };
	hsat_dispatch_pkt(&p, HSAGPU_KERNEL_FILL, hsat_kernarg(&h, &fa, sizeof(fa)), 64, 64, s);
	hsat_submit(q, &p);
	fflush(stdout);
	/* an application's wait: for ever */
	hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
				  HSA_WAIT_STATE_BLOCKED);
	printf("# FAIL: child: the wait returned with value %lld\n",
	       (long long)hsa_signal_load_relaxed(s));
	return 1;
}

int main(int argc, char **argv)
{
	char old[32] = "30000", tmo[16];
	uint64_t f0, left = 0;
	int st = 0, log;
	double t0;
	pid_t pid;
	FILE *f;

	(void)argc;
	if (hsat_need_kfd())
		return gt_result();
	if (hsat_count_devices(devs) < 1)
		return gt_skip("no hsa-gpu");
	if (access(PARAM_TIMEOUT, W_OK))
		return gt_skip("no %s", PARAM_TIMEOUT);
	hsat_watchdog(400);
	log = gtk_mark();
	f = fopen(PARAM_TIMEOUT, "r");
	if (f && fgets(old, sizeof(old), f))
		old[strcspn(old, "\n")] = 0;
	if (f)
		fclose(f);
	snprintf(tmo, sizeof(tmo), "%d", TIMEOUT_MS);
	CHECK(!gt_sysfs_write(PARAM_TIMEOUT, tmo), "queue_timeout_ms");

	/* each part in a process of its own, HSA untouched here until the end */
	hsat_phase("slow kernel");
	fflush(stdout);
	pid = fork();
	if (!pid) {
		gt_failures = 0;        /* the child's own verdict */
		st = slow_child(argv[0]);
		fflush(stdout);
		_exit(st);
	}
	CHECK(!gt_wait_child(pid, &st, 300000) && WIFEXITED(st) && !WEXITSTATUS(st),
	      "the slow kernel's process failed (status 0x%x)", st);

	if (!gt_host_attached()) {
		DIAG("no harness channel: the injected hang is left out");
	} else {
		hsat_phase("hung queue");
		f0 = firings();
		fflush(stdout);
		t0 = now_s();
		pid = fork();
		if (!pid) {
			gt_failures = 0;
			st = hung_child();
			fflush(stdout);
			_exit(st);
		}
		st = 0;
		CHECK(!gt_wait_child(pid, &st, 20 * TIMEOUT_MS + 30000),
		      "the process waiting on a hung queue never ended (killed)");
		DIAG("the waiting process ended %.1f s later: status 0x%x, watchdog firings +%llu",
		     now_s() - t0, st, (unsigned long long)(firings() - f0));
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == LOST_EXIT,
		      "no queue error callback with HSA_STATUS_ERROR_EXCEPTION (status 0x%x)", st);
		CHECK(firings() == f0 + 1, "watchdog firings +%llu",
		      (unsigned long long)(firings() - f0));
		gt_qom_get_u64(DEV, "inject-queue-hang", &left);
		CHECK((int32_t)left == -1, "the hung queue was not destroyed (%lld)",
		      (long long)(int32_t)left);
		gt_qom_set(DEV, "inject-queue-hang", "-1");
	}
	gt_sysfs_write(PARAM_TIMEOUT, old);

	/* the device serves a new process */
	hsat_phase("a new process");
	if (!hsat_init(&h)) {
		struct hsagpu_kargs_fill fa;
		hsa_kernel_dispatch_packet_t p;
		uint32_t *buf = hsat_alloc(h.sys, 4096);
		hsa_signal_t s;
		hsa_queue_t *q;

		if (buf && !HSAT_CHECK(hsa_queue_create(h.gpu[0].agent, 64,
							 HSA_QUEUE_TYPE_MULTI, on_error_count,
							 NULL, UINT32_MAX, UINT32_MAX, &q))) {
			HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s));
			fa = (struct hsagpu_kargs_fill){ .dst = (uintptr_t)buf, .value = 9 };
			hsat_dispatch_pkt(&p, HSAGPU_KERNEL_FILL,
					  hsat_kernarg(&h, &fa, sizeof(fa)), 64, 64, s);
			hsat_submit(q, &p);
			CHECK(!hsat_wait_below(s, 1, 20000, HSA_WAIT_STATE_BLOCKED, NULL) &&
			      buf[0] == 9 && buf[63] == 9, "a FILL after the loss did not run");
			hsa_signal_destroy(s);
			HSAT_CHECK(hsat_queue_destroy(q));
		}
		HSAT_CHECK(hsat_shut_down());
	}
	CHECK(!gtk_problems(log, NULL), "kernel problems logged");
	return gt_result();
}
