/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers of the ROCm guest tests: programs linked dynamically against
 * Debian's unmodified libhsa-runtime64 (ROCr 5.2.3), talking to the KFD
 * facade hsagpu_amdgpu.ko through libhsakmt. They use the gt library's
 * CHECK/DIAG/exit-status conventions (guest-tests/lib/gt.h).
 *
 * Nothing here may hang a test: every wait is bounded, and a watchdog
 * (hsat_watchdog) ends a stuck program with a FAIL that names the phase
 * it was in.
 */
#ifndef HSAGPU_HSAT_H
#define HSAGPU_HSAT_H

#include <stdint.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "gt.h"

#define HSAT_MAX_GPUS GT_MAX_DEVS

/* Check an HSA call: a FAIL line with its status string when not SUCCESS. */
#define HSAT_CHECK(call)                                                \
	hsat_check_status((call), #call, __FILE__, __LINE__)
hsa_status_t hsat_check_status(hsa_status_t st, const char *what,
			       const char *file, int line);
const char *hsat_status_name(hsa_status_t st);

struct hsat_gpu {
	hsa_agent_t agent;
	char pci[16];               /* "0000:01:00.0", matched by BDFID */
	uint32_t bdfid;
	hsa_amd_memory_pool_t vram; /* GLOBAL coarse-grained, allocatable */
	uint64_t vram_pool_size;
	int has_vram;
};

struct hsat {
	hsa_agent_t cpu;
	hsa_amd_memory_pool_t sys;      /* CPU GLOBAL fine-grained */
	hsa_amd_memory_pool_t kernarg;  /* CPU GLOBAL with KERNARG_INIT */
	int has_sys, has_kernarg;
	int ncpu;
	struct hsat_gpu gpu[HSAT_MAX_GPUS];
	int ngpu;
	uint64_t ts_freq;               /* HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY */
};

/*
 * hsa_init() and discovery: the CPU agent and its pools, the GPU agents
 * (each matched to its hsa-gpu PCI function by BDFID) and their VRAM
 * pools. -1 (with FAIL lines) when HSA does not come up; the caller then
 * returns gt_result().
 */
int hsat_init(struct hsat *h);
/* Number of hsa-gpu PCI functions bound to hsagpu. */
int hsat_count_devices(char names[GT_MAX_DEVS][16]);
/* FAIL and return -1 without /dev/kfd (the boot lacks hsagpu_test.kfd=1). */
int hsat_need_kfd(void);

/*
 * The watchdog: a program stuck for @secs prints
 * "# FAIL: watchdog: no progress in <phase> for N s" and exits 1.
 * HSAT_WATCHDOG_MAX (seconds) in the environment shortens @secs, for a
 * harness whose own timeout would otherwise kill the program silently.
 * hsat_phase() names what is being done now (a static string).
 */
void hsat_watchdog(unsigned int secs);
void hsat_phase(const char *what);

/*
 * hsa_queue_destroy() and hsa_shut_down() with ROCr 5.2.3's lost wake-up
 * worked around. All queues' queue_inactive_signal share one auto-reset
 * KFD event, which ROCr's async thread and ~AqlQueue both sleep on; KFD
 * before interface 1.14 (Linux 6.1) keeps one bit for it, so the async
 * thread can take the wake-up meant for the destroying thread, which
 * then sleeps for ever (on real hardware too; upstream ROCr avoids it
 * with KFD's event age). These set that event every 50 ms while they
 * run: an extra wake-up only makes ROCr look at its signals again. No
 * other event is touched, so a completion interrupt the device fails to
 * raise still fails the test.
 */
hsa_status_t hsat_queue_destroy(hsa_queue_t *q);
hsa_status_t hsat_shut_down(void);

/*
 * Wait until @s's value is below @below, at most @ms, in @ws (ACTIVE or
 * BLOCKED) with hsa_signal_wait_scacquire. 0, or -1 on timeout (the
 * value is then in *@last if not NULL).
 */
int hsat_wait_below(hsa_signal_t s, hsa_signal_value_t below, unsigned int ms,
		    hsa_wait_state_t ws, hsa_signal_value_t *last);

/*
 * Allocate @size bytes from @pool: a pointer, or NULL with a FAIL line.
 * Memory of the CPU's pools is made accessible to every GPU agent.
 */
void *hsat_alloc(hsa_amd_memory_pool_t pool, size_t size);
/* Kernel arguments: @size bytes from the kernarg pool, @args copied in. */
void *hsat_kernarg(struct hsat *h, const void *args, size_t size);

/*
 * One AQL packet on @q: reserve a slot (hsa_queue_add_write_index), wait
 * (bounded) for room, write the 64-byte @pkt with its 16-bit header
 * stored last with release order, ring the doorbell with the slot's
 * index. The packet's first 16 bits are its header. The index, or
 * UINT64_MAX when the ring stayed full.
 */
uint64_t hsat_submit(hsa_queue_t *q, const void *pkt);

/* A dispatch packet of a built-in kernel (HSAGPU_KERNEL_*), 1-D grid. */
void hsat_dispatch_pkt(hsa_kernel_dispatch_packet_t *p, uint64_t kernel_object,
		       void *kernarg, uint32_t grid, uint16_t wg,
		       hsa_signal_t completion);
/* The header of a packet of @type, with system-scope fences and @barrier. */
uint16_t hsat_header(hsa_packet_type_t type, int barrier);

/*
 * The device's active queues, read from its queue registers (BAR5): how
 * many are SDMA rings (HSAGPU_QF_SDMA) and how many packets those
 * retired, how many are ROCr AQL queues (HSAGPU_QF_AMD_QUEUE). Which
 * engine ROCr really used is invisible through the HSA API (it falls
 * back to its blit kernels when an SDMA queue cannot be made). On Linux's
 * amdkfd (a GPU without hsagpu's sysfs): this process's queues on the
 * GPU as amdkfd lists them, and its SDMA activity as sdma_retired. -1 if
 * neither can be read.
 */
struct hsat_engines {
	int sdma, aql;
	uint64_t sdma_retired;
};
int hsat_engines(const char *pci, struct hsat_engines *e);

/*
 * A file next to the program (@argv0's directory), read whole: a
 * malloc'd buffer of *@len bytes, or NULL with a FAIL line.
 */
void *hsat_read_file(const char *argv0, const char *name, size_t *len);
/*
 * Code object @co (@len bytes) loaded for @g's agent and frozen, the
 * way a runtime loads one: 0, or -1 with a FAIL line (nothing to free).
 * hsat_code_free() destroys both.
 */
struct hsat_code {
	hsa_code_object_reader_t reader;
	hsa_executable_t exe;
};
int hsat_code_load(struct hsat_gpu *g, const void *co, size_t len,
		   struct hsat_code *c);
void hsat_code_free(struct hsat_code *c);
/*
 * Kernel @symbol's kernel object ("NAME.kd"), its kernarg segment size
 * in *@kasize if not NULL: 0 with a FAIL line when it is not there.
 */
uint64_t hsat_code_kernel(struct hsat_gpu *g, struct hsat_code *c,
			  const char *symbol, uint32_t *kasize);

/* hsa-gpu sysfs attribute (<pci>/hsagpu/<name>) as a number, -1 if absent. */
int64_t hsat_sysfs(const char *pci, const char *name);

#endif
