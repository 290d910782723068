// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-hsa-evict: a ROCr process's queue is evicted and restored under it,
 * and keeps working. Memory locked with hsa_amd_memory_lock is a userptr
 * registration; dropping its pages (madvise MADV_DONTNEED) invalidates
 * it, and the KFD then takes the process's queues off the GPU (amdkfd:
 * kgd2kfd_quiesce_mm, an UNMAP_QUEUES through the hardware scheduler or
 * a dequeue of each HQD without it), revalidates the memory and puts the
 * queues back (a new runlist, or the MQDs loaded again). A kernel on the
 * same queue afterwards must run, from where the queue was, and write
 * the new pages. On Linux's amdkfd the process's evicted_ms (sysfs
 * stats) shows that the eviction happened; the facade has no such file.
 * Then evictions in the middle of a dispatch of GCN code (evict_mid_kernel
 * below): the dispatch must go on where it was, not run again.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hsat.h"
#include "hsagpu/hsagpu_aql.h"

#define BUF_SIZE        (64 * 1024)
#define WORDS           (BUF_SIZE / 4)

static struct hsat h;
static int queue_errors;

static void on_queue_error(hsa_status_t st, hsa_queue_t *q, void *data)
{
	(void)q;
	(void)data;
	queue_errors++;
	printf("# queue error callback: %s (0x%x)\n", hsat_status_name(st), st);
}

/* FILL @value into @words words at @dst on @q; 0 when it completed */
static int fill(hsa_queue_t *q, void *dst, uint32_t value, uint32_t words)
{
	struct hsagpu_kargs_fill a = { .dst = (uintptr_t)dst, .value = value };
	hsa_kernel_dispatch_packet_t p;
	hsa_signal_t s;
	void *ka = hsat_kernarg(&h, &a, sizeof(a));
	int ret;

	if (!ka || HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s)))
		return -1;
	hsat_dispatch_pkt(&p, HSAGPU_KERNEL_FILL, ka, words, 64, s);
	hsat_submit(q, &p);
	ret = hsat_wait_below(s, 1, 30000, HSA_WAIT_STATE_BLOCKED, NULL);
	hsa_signal_destroy(s);
	hsa_amd_memory_pool_free(ka);
	return ret;
}

static int wrong(const uint32_t *buf, uint32_t value)
{
	int bad = 0;

	for (int i = 0; i < WORDS; i++)
		bad += buf[i] != value;
	return bad;
}

/* The process's evicted_ms on Linux's amdkfd (-1: no such file) */
static long evicted_ms(void)
{
	char pat[96];
	glob_t g;
	long ms = -1;

	snprintf(pat, sizeof(pat), "/sys/class/kfd/kfd/proc/%d/stats_*/evicted_ms",
		 (int)getpid());
	if (glob(pat, 0, NULL, &g) == 0) {
		FILE *f = fopen(g.gl_pathv[0], "r");

		if (f) {
			if (fscanf(f, "%ld", &ms) != 1)
				ms = -1;
			fclose(f);
		}
		globfree(&g);
	}
	return ms;
}

static void evict_once(struct hsat_gpu *g)
{
	hsa_queue_t *q;
	uint32_t *buf;
	void *gpu_ptr = NULL;
	long before, after;

	hsat_phase("queue create");
	if (HSAT_CHECK(hsa_queue_create(g->agent, 64, HSA_QUEUE_TYPE_MULTI, on_queue_error,
					NULL, UINT32_MAX, UINT32_MAX, &q)))
		return;
	buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	if (buf == MAP_FAILED) {
		CHECK(0, "mmap of %d bytes failed", BUF_SIZE);
		goto out_queue;
	}
	memset(buf, 0x55, BUF_SIZE);
	hsat_phase("hsa_amd_memory_lock");
	if (HSAT_CHECK(hsa_amd_memory_lock(buf, BUF_SIZE, &g->agent, 1, &gpu_ptr)))
		goto out_buf;

	hsat_phase("a kernel before the eviction");
	CHECK(!fill(q, gpu_ptr, 42, WORDS), "%s: FILL before the eviction did not complete",
	      g->pci);
	CHECK(!wrong(buf, 42), "%s: FILL before the eviction: %d words wrong", g->pci,
	      wrong(buf, 42));

	/* the pages go: the registration is invalid, the queues come off */
	before = evicted_ms();
	hsat_phase("MADV_DONTNEED");
	CHECK(!madvise(buf, BUF_SIZE, MADV_DONTNEED), "madvise(MADV_DONTNEED) failed");
	CHECK(buf[0] == 0 && buf[WORDS - 1] == 0, "the dropped pages read %#x, not 0",
	      buf[0]);

	/* the same queue, its next packet: after the restore, into the new pages */
	hsat_phase("a kernel after the eviction");
	CHECK(!fill(q, gpu_ptr, 43, WORDS), "%s: FILL after the eviction did not complete "
	      "(the queue was not restored)", g->pci);
	CHECK(!wrong(buf, 43), "%s: FILL after the eviction: %d words wrong (not the "
	      "new pages?)", g->pci, wrong(buf, 43));
	after = evicted_ms();
	if (after < 0) {
		DIAG("%s: no evicted_ms for this process (the KFD facade has no stats)",
		     g->pci);
	} else {
		DIAG("%s: evicted_ms %ld before, %ld after", g->pci, before, after);
		CHECK(after > before, "%s: the KFD did not evict the queues (evicted_ms "
		      "%ld, was %ld)", g->pci, after, before);
	}
	CHECK(queue_errors == 0, "%d queue error callbacks", queue_errors);
	HSAT_CHECK(hsa_amd_memory_unlock(buf));
out_buf:
	munmap(buf, BUF_SIZE);
out_queue:
	HSAT_CHECK(hsat_queue_destroy(q));
}

/*
 * Evictions in the middle of a dispatch: hsagpu_count (store42.cl) adds
 * 1 to each work-item's word @iters times while the same kind of
 * userptr invalidation takes the queues off, again and again, and amdkfd
 * puts them back. With CWSR (amdkfd's default on gfx9) each preemption
 * saves the dispatch in the queue's context save area and the restore
 * resumes it: every word ends at exactly @iters. A dispatch run again
 * from its start leaves more. A dispatch that ended before two evictions
 * proved nothing: it runs again, 8 times as long.
 */
#define COUNT_ITEMS     256

static void evict_mid_kernel(struct hsat_gpu *g, const char *argv0)
{
	struct { uint64_t p; uint32_t iters; } args;
	unsigned int evictions = 0, tries;
	uint32_t *out = NULL, *trig, kasize = 0, iters = 1u << 16;
	struct hsat_code c;
	hsa_queue_t *q;
	void *co, *trig_gpu = NULL;
	uint64_t kobj;
	size_t len = 0;
	long before, after;

	hsat_phase("evictions mid-dispatch: the code object");
	co = hsat_read_file(argv0, "hsagpu-store42.co", &len);
	if (!co)
		return;
	if (hsat_code_load(g, co, len, &c))
		goto out_co;
	kobj = hsat_code_kernel(g, &c, "hsagpu_count.kd", &kasize);
	if (!kobj || HSAT_CHECK(hsa_queue_create(g->agent, 64, HSA_QUEUE_TYPE_MULTI,
						 on_queue_error, NULL, UINT32_MAX,
						 UINT32_MAX, &q)))
		goto out_code;
	out = hsat_alloc(h.sys, COUNT_ITEMS * 4);
	trig = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (!out || trig == MAP_FAILED) {
		CHECK(0, "no memory for the evictions mid-dispatch");
		goto out_trig;
	}
	memset(trig, 1, BUF_SIZE);
	if (HSAT_CHECK(hsa_amd_memory_lock(trig, BUF_SIZE, &g->agent, 1, &trig_gpu)))
		goto out_trig;
	before = evicted_ms();
	for (tries = 0; tries < 3 && evictions < 2; tries++, iters <<= 3) {
		hsa_kernel_dispatch_packet_t p;
		hsa_signal_t s;
		void *ka;
		int bad = 0, waits = 0, done;

		hsat_phase("evictions mid-dispatch: the dispatch");
		memset(out, 0, COUNT_ITEMS * 4);
		args.p = (uintptr_t)out;
		args.iters = iters;
		ka = hsat_kernarg(&h, &args, kasize > sizeof(args) ? kasize : sizeof(args));
		if (!ka || HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s)))
			break;
		hsat_dispatch_pkt(&p, kobj, ka, COUNT_ITEMS, 64, s);
		hsat_submit(q, &p);
		evictions = 0;
		/* every 200 ms while it runs (at most 90 s): an eviction */
		while (!(done = !hsat_wait_below(s, 1, 200, HSA_WAIT_STATE_BLOCKED, NULL)) &&
		       ++waits < 450) {
			hsat_phase("evictions mid-dispatch: MADV_DONTNEED");
			memset(trig, 1, BUF_SIZE);
			if (!madvise(trig, BUF_SIZE, MADV_DONTNEED))
				evictions++;
		}
		CHECK(done, "%s: hsagpu_count (%u iterations) did not end in 90 s, "
		      "under %u evictions", g->pci, iters, evictions);
		for (int i = 0; i < COUNT_ITEMS; i++)
			bad += out[i] != iters;
		CHECK(!bad, "%s: after %u evictions mid-dispatch, %d of %d words are "
		      "not %u (word 0: %u): the dispatch did not go on where it was",
		      g->pci, evictions, bad, COUNT_ITEMS, iters, out[0]);
		DIAG("%s: hsagpu_count, %u iterations: %u evictions while it ran, "
		     "%d words wrong", g->pci, iters, evictions, bad);
		hsa_signal_destroy(s);
		hsa_amd_memory_pool_free(ka);
		if (!done || bad)
			break;
	}
	after = evicted_ms();
	if (after >= 0) {
		CHECK(evictions >= 2 && after > before, "%s: the dispatch was not "
		      "evicted while it ran (%u evictions, evicted_ms %ld, was %ld)",
		      g->pci, evictions, after, before);
	}
	CHECK(queue_errors == 0, "%d queue error callbacks", queue_errors);
	HSAT_CHECK(hsa_amd_memory_unlock(trig));
out_trig:
	if (trig != MAP_FAILED)
		munmap(trig, BUF_SIZE);
out_queue:
	if (out)
		hsa_amd_memory_pool_free(out);
	HSAT_CHECK(hsat_queue_destroy(q));
out_code:
	hsat_code_free(&c);
out_co:
	free(co);
}

int main(int argc, char **argv)
{
	(void)argc;
	hsat_watchdog(120);
	if (hsat_init(&h))
		return gt_result();
	for (int i = 0; i < h.ngpu; i++) {
		evict_once(&h.gpu[i]);
		evict_mid_kernel(&h.gpu[i], argv[0]);
	}
	hsat_phase("hsa_shut_down");
	HSAT_CHECK(hsat_shut_down());
	return gt_result();
}
