/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the queue tests (t-kernels, t-queue, t-barrier,
 * t-wait, t-qerror, t-queue-args): open the agents, decide whether this
 * boot's platform allows queues, build and submit packets, wait with a
 * deadline. Compiled into the gt library (lib/gtq.c), like gt.c.
 */
#ifndef HSAGPU_GTQ_H
#define HSAGPU_GTQ_H

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "gt.h"
#include "hsagpu_rt.h"

#define GTQ_HDR(type, barrier) \
	hsagpu_packet_header((type), (barrier), HSAGPU_FENCE_SCOPE_SYSTEM, \
			     HSAGPU_FENCE_SCOPE_SYSTEM)
#define GTQ_BAD_ADDR 0xdead0000000ULL
#define GTQ_MS 1000000ULL

struct gtq_dev {
	hsagpu_agent_t *agent;
	const struct hsagpu_device_info *info;
	int vm;                         /* the file uses GPU virtual memory */
	char pci[16];                   /* "0000:01:00.0" */
	volatile uint32_t *regs;        /* BAR5 through sysfs, for counters */
	size_t regs_len;
};

uint64_t gtq_now_ns(void);

void gtq_sleep_ms(unsigned int ms);

int gtq_allow_no_atomics(void);

/*
 * What this boot promises about queues, from the harness's kernel
 * parameters (scripts/lib/hsagpu_harness.py boot_cmd()): 1 when they must
 * run on every device (hsagpu_test.atomics lists the sizes the platform
 * routes to the root complex, or the driver is loaded with
 * allow_no_atomics=1 through hsagpu_test.modparams), 0 when they must be
 * refused (atomics=unsupported), -1 when the boot says nothing (not
 * started by the harness).
 */
int gtq_boot_queues(void);

/*
 * The driver's decision (sysfs hsagpu/queues: "allowed", "degraded" or
 * "refused") agrees with @usable, and with what the boot promises.
 */
void gtq_check_decision(struct gtq_dev *d, int usable);

/*
 * Open agent @idx. Returns 1 when queues can be used on it, 0 when the
 * platform has no AtomicOp routing and the driver refused a queue with
 * EOPNOTSUPP as it must (checked here), -1 when the agent did not open.
 * Either way the result must be what the boot promises.
 */
int gtq_open(int idx, struct gtq_dev *d);

/*
 * GPU virtual memory. Guest tests put plain pointers into packets: they
 * need files with GPU VM, which gtq_open() checks (it fails a test on a
 * file without it, saying why). Tests of the bus-address contract and
 * the benchmarks open files without it on purpose (hsagpu.ko's vm
 * parameter is read at open): gtq_open_vm(idx, d, 0); they name memory
 * with gtq_ptr(). @vm: 1 or 0.
 */
int gtq_open_vm(int idx, struct gtq_dev *d, int vm);

/* 0 when this boot loads hsagpu.ko with vm=0 (hsagpu_test.modparams), else 1 */
int gtq_boot_vm(void);
/* hsagpu.ko's vm parameter: 0 or 1, -1 without one (driver before GPU VM). */
int gtq_vm_param(void);
/* Set it (root); returns the old value or -errno. */
int gtq_vm_param_set(int vm);

/*
 * Device address of @p for @a: @p itself with GPU VM; the bus address
 * (hsagpu_addr) on a file without it, for the tests that open one.
 */
uint64_t gtq_ptr(hsagpu_agent_t *a, const volatile void *p);

/*
 * The state of @q after an expected error (ERROR within @ms), with the
 * VM fault fields of QUEUE_STATUS; 0 or -1 (no error state in time).
 */
int gtq_wait_error_status(hsagpu_queue_t *q, unsigned int ms,
			  struct hsagpu_queue_status *st);

/*
 * Check that @st (QUEUE_STATUS of queue @qid) is a VM fault inside
 * [@lo, @hi) by @client (HSAGPU_VM_CLIENT_*) with @access
 * (HSAGPU_VM_ACCESS_*, -1: any) and @reason (HSAGPU_VM_REASON_*, -1:
 * any); each mismatch is a failed check, said with @what. Returns the
 * number of mismatches.
 */
int gtq_check_fault(const char *what, const struct hsagpu_queue_status *st,
		    uint32_t qid, uint64_t lo, uint64_t hi, int client,
		    int access, int reason);

/*
 * Exit status of a queue test that could run on @ran of @n devices. When
 * none could, it checked nothing: SKIP, with the reason. A boot that
 * promises queues fails instead (gtq_open() already said why).
 */
int gtq_result(int ran, int n);

void gtq_close(struct gtq_dev *d);

uint32_t gtq_reg(struct gtq_dev *d, uint32_t off);

/* Device time in ns, as the TIMESTAMP registers give it. */
uint64_t gtq_dev_time(struct gtq_dev *d);

/* Driver's count of live queues on the device, or -1. */
long gtq_queues_active(struct gtq_dev *d);

void *gtq_alloc(struct gtq_dev *d, size_t size, uint32_t flags);

hsagpu_queue_t *gtq_queue(struct gtq_dev *d, uint32_t size,
			  uint32_t flags);

hsagpu_signal_t gtq_signal(struct gtq_dev *d, int64_t value);

int64_t gtq_value(hsagpu_signal_t s);

/* Wait until @s == @want; returns 1 if it got there within @ms. */
int gtq_wait_eq(hsagpu_signal_t s, int64_t want, unsigned int ms);

#define GTQ_WAIT(s, want, ms)                                           \
	CHECK(gtq_wait_eq((s), (want), (ms)),                           \
	      "signal %s: value %lld, expected %lld within %u ms", #s,  \
	      (long long)gtq_value(s), (long long)(want), (unsigned int)(ms))

/* Kernarg arena: 64-byte slots (16-byte alignment needed) in system memory. */
struct gtq_arena {
	uint8_t *base;
	size_t size, used;
};

void gtq_arena_init(struct gtq_dev *d, struct gtq_arena *a,
		    size_t size);

void *gtq_kargs(struct gtq_arena *a, const void *args,
		size_t len);

/* Submit a kernel dispatch; returns the dispatch id (or negative errno). */
int64_t gtq_dispatch(hsagpu_queue_t *q, uint64_t kobj,
		     const void *kargs, unsigned int dims,
		     const uint32_t grid[3], const uint16_t wg[3],
		     hsagpu_signal_t sig, int barrier);

/* A kernel over a 1-D grid of @n items with workgroups of @wg. */
int64_t gtq_dispatch1(hsagpu_queue_t *q, uint64_t kobj,
		      const void *kargs, uint32_t n, uint16_t wg,
		      hsagpu_signal_t sig, int barrier);

int64_t gtq_busy(hsagpu_queue_t *q, struct gtq_arena *a,
		 uint64_t ns, hsagpu_signal_t sig, int barrier);

int64_t gtq_agent(hsagpu_queue_t *q, uint16_t type,
		  void *ret, uint64_t arg0, hsagpu_signal_t sig,
		  int barrier);

/* WRITE_VALUE of @val to the u64 at @dst. */
int64_t gtq_write(hsagpu_queue_t *q, volatile uint64_t *dst,
		  uint64_t val, hsagpu_signal_t sig, int barrier);

int64_t gtq_barrier(hsagpu_queue_t *q, uint32_t type,
		    const hsagpu_signal_t *deps, unsigned int ndeps,
		    hsagpu_signal_t sig, int barrier);

/* Raw QUEUE_STATUS, for the retired count. */
int gtq_status(hsagpu_queue_t *q,
	       struct hsagpu_queue_status *st);

/* Wait until the device consumed everything written to @q. */
int gtq_wait_idle(hsagpu_queue_t *q, unsigned int ms);

/* Every ring slot's header is back to INVALID. */
unsigned int gtq_valid_headers(hsagpu_queue_t *q);

#endif
