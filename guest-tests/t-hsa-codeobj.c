// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-hsa-codeobj: a real gfx900 code object (hsagpu-store42.co, built on
 * the host by clang/lld from guest-tests/rocm/store42.cl) through ROCr's
 * loader: the executable loads and freezes (ROCr copies the code into
 * VRAM with its blit kernels), its kernel symbol has a kernel object.
 * Dispatched by ROCr's own queue, the device's GCN interpreter
 * (docs/isa.md) runs it: the completion signal reaches 0 without a queue
 * error, each of the 64 work-items stored 42 in its word and nothing
 * past them changed; a second queue on the same device then runs our
 * built-in kernels too. Then the kernel corpus (tests/gcn/gcn-corpus.h:
 * tiled matmul, histogram, prefix sum, divergent, 3-D grid, numerics),
 * compiled by Debian's clang 15 with its device libraries, goes the same
 * way: each code object loaded with hsa_executable_*, each kernel found
 * by its symbol and dispatched on ROCr's queue with the group segment
 * size and kernel arguments ROCr reports; results checked on the CPU.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hsat.h"
#include "gcn-corpus.h"

#define CODE_OBJECT "hsagpu-store42.co"
#define KERNEL_SYMBOL "hsagpu_store42.kd"

static struct hsat h;
static atomic_int errors;
static atomic_int error_status;

static void on_queue_error(hsa_status_t st, hsa_queue_t *q, void *data)
{
	(void)data;
	atomic_store(&error_status, st);
	atomic_fetch_add(&errors, 1);
	printf("# queue %llu error callback: %s (0x%x)\n", (unsigned long long)q->id,
	       hsat_status_name(st), st);
}

static void run_on(struct hsat_gpu *g, const void *co, size_t co_len)
{
	struct hsat_code c;
	uint64_t kobj = 0;
	uint32_t kasize = 0;
	hsa_queue_t *q;
	hsa_kernel_dispatch_packet_t p;
	hsa_signal_t s;
	uint32_t *buf = hsat_alloc(h.sys, 4096);
	void *ka;
	uint64_t arg;
	struct timespec t0, t;
	double waited;
	int n0 = atomic_load(&errors), bad = 0;

	if (!buf)
		return;
	memset(buf, 0x77, 4096);
	hsat_phase("loading the code object");
	if (hsat_code_load(g, co, co_len, &c)) {
		hsa_amd_memory_pool_free(buf);
		return;
	}
	kobj = hsat_code_kernel(g, &c, KERNEL_SYMBOL, &kasize);
	if (!kobj)
		goto out_exe;
	DIAG("%s: %s: kernel object 0x%llx, %u bytes of kernel arguments", g->pci,
	     KERNEL_SYMBOL, (unsigned long long)kobj, kasize);
	CHECK(kobj != 0, "%s: no kernel object", g->pci);
	CHECK(kasize >= 8, "%s: kernarg segment of %u bytes for one pointer", g->pci, kasize);

	hsat_phase("dispatching GCN code");
	if (HSAT_CHECK(hsa_queue_create(g->agent, 64, HSA_QUEUE_TYPE_MULTI, on_queue_error,
					NULL, UINT32_MAX, UINT32_MAX, &q)))
		goto out_exe;
	HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s));
	arg = (uintptr_t)buf;
	ka = hsat_kernarg(&h, &arg, kasize > 8 ? kasize : 8);
	hsat_dispatch_pkt(&p, kobj, ka, 64, 64, s);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	hsat_submit(q, &p);
	CHECK(!hsat_wait_below(s, 1, 20000, HSA_WAIT_STATE_BLOCKED, NULL),
	      "%s: the GCN kernel did not complete within 20 s", g->pci);
	clock_gettime(CLOCK_MONOTONIC, &t);
	waited = t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9;
	DIAG("%s: completed %.3f s after the dispatch", g->pci, waited);
	CHECK(atomic_load(&errors) == n0, "%s: %d queue error callbacks (%s)",
	      g->pci, atomic_load(&errors) - n0,
	      hsat_status_name(atomic_load(&error_status)));
	for (int i = 0; i < 1024; i++)
		bad += buf[i] != (i < 64 ? 42u : 0x77777777u);
	CHECK(!bad, "%s: %d words of the output wrong (64 x 42, then untouched)",
	      g->pci, bad);
	hsa_signal_destroy(s);
	HSAT_CHECK(hsat_queue_destroy(q));
	hsa_amd_memory_pool_free(ka);

	/* a second queue runs the built-in kernels */
	hsat_phase("a second queue");
	if (!HSAT_CHECK(hsa_queue_create(g->agent, 64, HSA_QUEUE_TYPE_MULTI, on_queue_error,
					 NULL, UINT32_MAX, UINT32_MAX, &q))) {
		struct hsagpu_kargs_fill fa = { .dst = (uintptr_t)buf, .value = 42 };

		HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s));
		ka = hsat_kernarg(&h, &fa, sizeof(fa));
		hsat_dispatch_pkt(&p, HSAGPU_KERNEL_FILL, ka, 64, 64, s);
		hsat_submit(q, &p);
		CHECK(!hsat_wait_below(s, 1, 20000, HSA_WAIT_STATE_BLOCKED, NULL),
		      "%s: a built-in kernel on a new queue did not complete", g->pci);
		bad = 0;
		for (int i = 0; i < 64; i++)
			bad += buf[i] != 42;
		CHECK(!bad && buf[64] == 0x77777777u, "%s: FILL on a second queue: %d wrong",
		      g->pci, bad);
		hsa_signal_destroy(s);
		hsat_phase("destroying the second queue");
		HSAT_CHECK(hsat_queue_destroy(q));
		hsa_amd_memory_pool_free(ka);
	}
out_exe:
	hsat_code_free(&c);
	hsa_amd_memory_pool_free(buf);
}

/* Run corpus program @p on @g's queue @q; buffers in system memory */
static void corpus_one(struct hsat_gpu *g, hsa_queue_t *q, const char *argv0,
		       const struct gcn_program *p)
{
	struct hsat_code c;
	void *buf[GCN_CORPUS_BUFS] = { NULL };
	uint64_t addr[GCN_CORPUS_BUFS];
	char file[64], why[300];
	size_t len = 0;
	void *co;
	int n0 = atomic_load(&errors), ok = 1;

	snprintf(file, sizeof(file), "%s.co", p->file);
	co = hsat_read_file(argv0, file, &len);
	if (!co)
		return;
	if (hsat_code_load(g, co, len, &c)) {
		free(co);
		return;
	}
	for (unsigned k = 0; k < GCN_CORPUS_BUFS; k++) {
		buf[k] = hsat_alloc(h.sys, GCN_CORPUS_BUF_SIZE);
		if (!buf[k])
			goto out_buf;
		memset(buf[k], 0, GCN_CORPUS_BUF_SIZE);
		addr[k] = (uintptr_t)buf[k];
	}
	p->init(buf);
	for (unsigned k = 0; k < GCN_CORPUS_STEPS && ok; k++) {
		const struct gcn_step *st = &p->step[k];
		hsa_executable_symbol_t sym;
		hsa_kernel_dispatch_packet_t pkt;
		uint64_t kobj = 0;
		uint32_t kasize = 0, lds = 0;
		uint8_t args[256];
		char name[64];
		hsa_signal_t s;
		void *ka;

		if (!st->kernel)
			break;
		snprintf(name, sizeof(name), "%s.kd", st->kernel);
		if (HSAT_CHECK(hsa_executable_get_symbol_by_name(c.exe, name, &g->agent,
								 &sym)))
			break;
		HSAT_CHECK(hsa_executable_symbol_get_info(sym,
			   HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kobj));
		HSAT_CHECK(hsa_executable_symbol_get_info(sym,
			   HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kasize));
		HSAT_CHECK(hsa_executable_symbol_get_info(sym,
			   HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &lds));
		CHECK(kasize >= 8 && kasize <= sizeof(args), "%s: %s: %u bytes of "
		      "kernel arguments", g->pci, name, kasize);
		if (kasize > sizeof(args))
			break;
		memset(args, 0, sizeof(args));      /* hidden ones: zero */
		st->args(args, addr);
		HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s));
		ka = hsat_kernarg(&h, args, kasize);
		hsat_dispatch_pkt(&pkt, kobj, ka, st->grid[0], st->wg[0], s);
		pkt.setup = (st->grid[2] > 1 ? 3 : st->grid[1] > 1 ? 2 : 1)
			    << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
		pkt.workgroup_size_y = st->wg[1];
		pkt.workgroup_size_z = st->wg[2];
		pkt.grid_size_y = st->grid[1];
		pkt.grid_size_z = st->grid[2];
		pkt.group_segment_size = lds;
		hsat_submit(q, &pkt);
		ok = !hsat_wait_below(s, 1, 60000, HSA_WAIT_STATE_BLOCKED, NULL);
		CHECK(ok, "%s: %s (%s) did not complete within 60 s", g->pci,
		      st->kernel, p->what);
		hsa_signal_destroy(s);
		hsa_amd_memory_pool_free(ka);
	}
	CHECK(atomic_load(&errors) == n0, "%s: %s: %d queue error callbacks (%s)",
	      g->pci, p->file, atomic_load(&errors) - n0,
	      hsat_status_name(atomic_load(&error_status)));
	if (ok) {
		CHECK(!p->check(buf, why, sizeof(why)), "%s: %s (%s) through ROCr: %s",
		      g->pci, p->file, p->what, why);
		DIAG("%s: %s through ROCr: %s", g->pci, p->file, why);
	}
out_buf:
	for (unsigned k = 0; k < GCN_CORPUS_BUFS; k++)
		if (buf[k])
			hsa_amd_memory_pool_free(buf[k]);
	hsat_code_free(&c);
	free(co);
}

static void corpus_on(struct hsat_gpu *g, const char *argv0)
{
	hsa_queue_t *q;

	hsat_phase("the kernel corpus through ROCr");
	if (HSAT_CHECK(hsa_queue_create(g->agent, 64, HSA_QUEUE_TYPE_MULTI,
					on_queue_error, NULL, UINT32_MAX,
					UINT32_MAX, &q)))
		return;
	for (unsigned i = 0; i < GCN_CORPUS_N; i++)
		corpus_one(g, q, argv0, &gcn_corpus[i]);
	HSAT_CHECK(hsat_queue_destroy(q));
}

int main(int argc, char **argv)
{
	size_t len = 0;
	void *co;

	(void)argc;
	hsat_watchdog(120);
	co = hsat_read_file(argv[0], CODE_OBJECT, &len);
	if (!co || hsat_init(&h))
		return gt_result();
	for (int i = 0; i < h.ngpu; i++) {
		run_on(&h.gpu[i], co, len);
		corpus_on(&h.gpu[i], argv[0]);
	}
	hsat_phase("hsa_shut_down");
	HSAT_CHECK(hsat_shut_down());
	free(co);
	return gt_result();
}
