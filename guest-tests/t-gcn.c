// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-gcn: code objects compiled by Debian's clang for gfx900 (tests/gcn,
 * copied into /tests as *.co) run on the device's GCN interpreter
 * through libhsagpu: the test loads a code object's segments into memory
 * of the device's address space, dispatches its kernel descriptor as
 * kernel_object and checks the results against the CPU: vector add over
 * a partial last workgroup, saxpy with a branch around the tail, a
 * reduction through LDS with barriers; then the kernel corpus
 * (tests/gcn/gcn-corpus.h: tiled matmul on a 2-D grid, histogram with
 * atomics, prefix sum, divergent lanes, a 3-D grid, numerics) with its
 * buffers in system memory and VRAM. An instruction the interpreter does
 * not implement fails the queue with ILLEGAL_INSTRUCTION and its address
 * and dword in the queue's fault registers.
 */
#include <stdlib.h>

#include "gtgcn.h"
#include "gcn-corpus.h"

struct co {
	uint64_t kd;                    /* device address of the descriptor */
};

static int co_load_kernel(struct gtq_dev *d, const char *name,
			  const char *kernel, struct co *co)
{
	return gtgcn_load(d, name, kernel ? kernel : name, &co->kd);
}

static int co_load(struct gtq_dev *d, const char *name, struct co *co)
{
	return co_load_kernel(d, name, NULL, co);
}

/* Dispatch a 1-D grid; wait for its signal (unless @nowait). */
static int run_w(struct gtq_dev *d, hsagpu_queue_t *q, hsagpu_signal_t sig,
		 uint64_t kd, void *kargs, uint32_t grid, uint16_t wg,
		 int nowait)
{
	struct hsagpu_kernel_dispatch_packet pkt;
	const uint32_t g[3] = { grid, 1, 1 };
	const uint16_t w[3] = { wg, 1, 1 };

	if (!nowait)
		return gtgcn_run(d, q, sig, kd, kargs, g, w);
	hsagpu_signal_store_release(sig, 1);
	hsagpu_packet_dispatch(&pkt, kd, gtq_ptr(d->agent, kargs), g, w, 1, sig);
	CHECK(hsagpu_queue_submit(q, &pkt,
		GTQ_HDR(HSAGPU_PKT_TYPE_KERNEL_DISPATCH, 1)) >= 0, "submit");
	return 0;
}

static int run(struct gtq_dev *d, hsagpu_queue_t *q, hsagpu_signal_t sig,
	       uint64_t kd, void *kargs, uint32_t grid, uint16_t wg)
{
	return run_w(d, q, sig, kd, kargs, grid, wg, 0);
}

static float fl(uint32_t i)
{
	return (float)(int32_t)(i * 2654435761u >> 8) / 1024.0f;
}

static void test_kernels(struct gtq_dev *d, hsagpu_queue_t *q,
			 hsagpu_signal_t sig)
{
	float *a = gtq_alloc(d, 4096 * 4, HSAGPU_RT_MEM_SYSTEM);
	float *b = gtq_alloc(d, 4096 * 4, HSAGPU_RT_MEM_SYSTEM);
	float *c = gtq_alloc(d, 4096 * 4, HSAGPU_RT_MEM_VRAM);
	uint64_t *ka = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	struct co vadd, saxpy, lds;
	unsigned bad = 0;

	if (!a || !b || !c || !ka || co_load(d, "vadd", &vadd) ||
	    co_load(d, "saxpy", &saxpy) || co_load(d, "lds_sum", &lds))
		return;
	/* vadd: 1000 items in workgroups of 256, into VRAM */
	for (unsigned i = 0; i < 4096; i++) {
		a[i] = fl(i);
		b[i] = fl(i + 99);
		c[i] = -1;
	}
	memset(ka, 0, 4096);
	ka[0] = gtq_ptr(d->agent, a);
	ka[1] = gtq_ptr(d->agent, b);
	ka[2] = gtq_ptr(d->agent, c);
	CHECK(run(d, q, sig, vadd.kd, ka, 1000, 256) == 0, "vadd did not end");
	for (unsigned i = 0; i < 1024; i++)
		bad += i < 1000 ? c[i] != a[i] + b[i] : c[i] != -1;
	CHECK(!bad, "vadd: %u wrong items", bad);

	/* saxpy: the kernel's own bound at 777 of a 1024 grid */
	{
		float alpha = 0.75f, want[1024];
		uint32_t n = 777;
		uint8_t *k8 = (uint8_t *)ka;

		for (unsigned i = 0; i < 1024; i++)
			want[i] = i < n ? __builtin_fmaf(alpha, a[i], b[i]) : b[i];
		memset(ka, 0, 4096);
		memcpy(k8, &alpha, 4);
		ka[1] = gtq_ptr(d->agent, a);
		ka[2] = gtq_ptr(d->agent, b);
		memcpy(k8 + 24, &n, 4);
		CHECK(run(d, q, sig, saxpy.kd, ka, 1024, 128) == 0,
		      "saxpy did not end");
		bad = 0;
		for (unsigned i = 0; i < 1024; i++)
			bad += memcmp(&b[i], &want[i], 4) != 0;
		CHECK(!bad, "saxpy: %u items differ from fmaf", bad);
	}

	/* lds_sum: 16 workgroups of 256 reduce through LDS */
	{
		uint32_t *in = (uint32_t *)a, *out = (uint32_t *)c;

		for (unsigned i = 0; i < 4096; i++)
			in[i] = i * 3 + (i >> 5);
		memset(ka, 0, 4096);
		ka[0] = gtq_ptr(d->agent, in);
		ka[1] = gtq_ptr(d->agent, out);
		CHECK(run(d, q, sig, lds.kd, ka, 4096, 256) == 0,
		      "lds_sum did not end");
		bad = 0;
		for (unsigned g = 0; g < 16; g++) {
			uint32_t sum = 0;

			for (unsigned i = 0; i < 256; i++)
				sum += in[g * 256 + i];
			bad += out[g] != sum;
		}
		CHECK(!bad, "lds_sum: %u of 16 sums wrong", bad);
	}
}

/* The corpus: buffers 0-3 in system memory, 4-6 in VRAM */
static void test_corpus(struct gtq_dev *d, hsagpu_queue_t *q,
			hsagpu_signal_t sig)
{
	uint64_t *ka = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	void *buf[GCN_CORPUS_BUFS];
	uint64_t addr[GCN_CORPUS_BUFS];

	if (!ka)
		return;
	for (unsigned k = 0; k < GCN_CORPUS_BUFS; k++) {
		buf[k] = gtq_alloc(d, GCN_CORPUS_BUF_SIZE, k < 4 ?
				   HSAGPU_RT_MEM_SYSTEM : HSAGPU_RT_MEM_VRAM);
		if (!buf[k])
			return;
		addr[k] = gtq_ptr(d->agent, buf[k]);
	}
	for (unsigned i = 0; i < GCN_CORPUS_N; i++) {
		const struct gcn_program *p = &gcn_corpus[i];
		char why[300];
		int ok = 1;

		for (unsigned k = 0; k < GCN_CORPUS_BUFS; k++)
			memset(buf[k], 0, GCN_CORPUS_BUF_SIZE);
		p->init(buf);
		for (unsigned k = 0; k < GCN_CORPUS_STEPS && ok; k++) {
			const struct gcn_step *s = &p->step[k];
			uint64_t kd;

			if (!s->kernel)
				break;
			if (gtgcn_load(d, p->file, s->kernel, &kd))
				return;
			memset(ka, 0, 4096);
			s->args((uint8_t *)ka, addr);
			ok = gtgcn_run(d, q, sig, kd, ka, s->grid, s->wg) == 0;
			CHECK(ok, "%s (%s) did not end", s->kernel, p->what);
		}
		if (ok)
			CHECK(!p->check(buf, why, sizeof(why)), "%s (%s): %s",
			      p->file, p->what, why);
	}
}

/* A hand-made kernel: s_nop, then image_load (MIMG): refused. */
static void test_illegal(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 64, 0);
	uint32_t *kd = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	uint64_t *ka = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t sig = gtq_signal(d, 1);
	struct hsagpu_queue_status st;
	uint32_t *code;

	if (!q || !kd || !ka)
		return;
	memset(kd, 0, 4096);
	kd[4] = 256;                    /* entry offset */
	kd[13] = 1u << 7;               /* rsrc2: workgroup id x */
	code = kd + 64;
	code[0] = 0xbf800000;           /* s_nop 0 */
	/* image_load v[0:3], v[4:7], s[8:15] dmask:0xf: MIMG, not implemented */
	code[1] = 0xf0001f00;
	code[2] = 0x00020004;
	code[3] = 0xbf810000;           /* s_endpgm */
	run_w(d, q, sig, gtq_ptr(d->agent, kd), ka, 64, 64, 1);
	CHECK(gtq_wait_error_status(q, 5000, &st) == 0 &&
	      st.error == HSAGPU_QERR_ILLEGAL_INSTRUCTION,
	      "queue error %u, expected ILLEGAL_INSTRUCTION", st.error);
	CHECK(st.fault_addr == gtq_ptr(d->agent, code + 1) &&
	      st.fault_info == 0xf0001f00,
	      "fault registers: pc 0x%llx dword 0x%08x",
	      (unsigned long long)st.fault_addr, st.fault_info);
	CHECK(gtq_value(sig) == 1, "signal completed anyway");
}

int main(void)
{
	struct gtq_dev d;
	hsagpu_queue_t *q;
	hsagpu_signal_t sig;
	int r;

	r = gtq_open(0, &d);
	if (r != 1) {
		gtq_close(&d);
		return r == 0 ? gt_skip("queues refused on this platform")
			      : gt_result();
	}
	q = gtq_queue(&d, 64, 0);
	sig = gtq_signal(&d, 1);
	if (q) {
		test_kernels(&d, q, sig);
		test_corpus(&d, q, sig);
		test_illegal(&d);
	}
	gtq_close(&d);
	return gt_result();
}
