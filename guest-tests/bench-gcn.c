// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench-gcn: the GCN interpreter's speed on device 0, with two code
 * objects compiled by Debian's clang (tests/gcn/bench_*.cl):
 *
 *   alu   eight fp32 fma chains per work-item (ALU-bound)
 *   mem   a float4 stream copy VRAM -> VRAM (memory-bound)
 *
 * Each repetition is timed from submit to signal; the device's own
 * counters (GCN_INSNS, GCN_LANE_OPS, GCN_WAVES) give what it executed,
 * so the rates are wave instructions and lane operations per second of
 * wall time. Results are checked (a fast wrong path cannot win). Prints
 * "BENCH key value unit" lines for scripts/bench --gcn, which runs the
 * host's memcpy in the same run. Not a test: timings depend on the host.
 *
 *   hsagpu_test.items=N    work-items of the ALU kernel (default 65536)
 *   hsagpu_test.iters=N    its rounds (default 64)
 *   hsagpu_test.mb=N       MiB the memory kernel copies (default 64)
 *   hsagpu_test.reps=N     repetitions (default 5)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gtgcn.h"

static uint64_t items = 65536, iters = 64, mb = 64, reps = 5;

struct sample {
	uint64_t ns, insns, lane_ops, waves;
};

static uint64_t reg64(struct gtq_dev *d, uint32_t lo)
{
	uint32_t hi = gtq_reg(d, lo + 4), l = gtq_reg(d, lo);

	/* a carry between the two reads: read again */
	if (gtq_reg(d, lo + 4) != hi)
		l = gtq_reg(d, lo), hi = gtq_reg(d, lo + 4);
	return l | (uint64_t)hi << 32;
}

static int timed(struct gtq_dev *d, hsagpu_queue_t *q, hsagpu_signal_t sig,
		 uint64_t kd, const void *ka, const uint32_t grid[3],
		 const uint16_t wg[3], struct sample *s)
{
	uint64_t i0 = reg64(d, HSAGPU_REG_GCN_INSNS_LO);
	uint64_t l0 = reg64(d, HSAGPU_REG_GCN_LANE_OPS_LO);
	uint32_t w0 = gtq_reg(d, HSAGPU_REG_GCN_WAVES);
	uint64_t t0 = gtq_now_ns();
	int r = gtgcn_run(d, q, sig, kd, ka, grid, wg);

	s->ns = gtq_now_ns() - t0;
	s->insns = reg64(d, HSAGPU_REG_GCN_INSNS_LO) - i0;
	s->lane_ops = reg64(d, HSAGPU_REG_GCN_LANE_OPS_LO) - l0;
	s->waves = gtq_reg(d, HSAGPU_REG_GCN_WAVES) - w0;
	return r;
}

static int cmp_ns(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* best and median rates of @n samples; @bytes moved per run (or 0) */
static void report(const char *key, struct sample *s, int n, uint64_t bytes)
{
	const struct sample *b, *m;

	qsort(s, n, sizeof(*s), cmp_ns);
	b = &s[0];
	m = &s[n / 2];
	printf("BENCH %s_ns_best %llu ns\n", key, (unsigned long long)b->ns);
	printf("BENCH %s_waves %llu waves\n", key, (unsigned long long)b->waves);
	printf("BENCH %s_insns %llu wave-insns\n", key,
	       (unsigned long long)b->insns);
	printf("BENCH %s_lane_ops %llu lane-ops\n", key,
	       (unsigned long long)b->lane_ops);
	printf("BENCH %s_insns_best %.0f wave-insns/s\n", key,
	       b->insns * 1e9 / b->ns);
	printf("BENCH %s_insns_median %.0f wave-insns/s\n", key,
	       m->insns * 1e9 / m->ns);
	printf("BENCH %s_lane_ops_best %.0f lane-ops/s\n", key,
	       b->lane_ops * 1e9 / b->ns);
	printf("BENCH %s_lane_ops_median %.0f lane-ops/s\n", key,
	       m->lane_ops * 1e9 / m->ns);
	if (bytes) {
		printf("BENCH %s_traffic_best %.1f MB/s\n", key, bytes * 1e3 / b->ns);
		printf("BENCH %s_traffic_median %.1f MB/s\n", key,
		       bytes * 1e3 / m->ns);
	}
	fflush(stdout);
}

/* The ALU kernel's result for work-item @i, on the CPU */
static float alu_cpu(uint32_t i)
{
	static const float m[8] = { 0.999f, 0.998f, 0.997f, 0.996f, 0.995f,
				    0.994f, 0.993f, 0.992f };
	static const float k[8] = { 0.5f, 0.25f, 0.125f, 1.0f, 2.0f, 0.75f,
				    1.5f, 3.0f };
	float v[8], sum;

	for (int j = 0; j < 8; j++)
		v[j] = (float)i + j;
	for (uint64_t r = 0; r < iters; r++)
		for (int j = 0; j < 8; j++)
			v[j] = fmaf(v[j], m[j], k[j]);
	/* the kernel's order: ((a + b) + c) + ... */
	sum = v[0];
	for (int j = 1; j < 8; j++)
		sum += v[j];
	return sum;
}

int main(void)
{
	struct sample s_alu[64], s_mem[64];
	struct gtq_dev d;
	hsagpu_queue_t *q;
	hsagpu_signal_t sig;
	uint64_t kd_alu, kd_mem, *ka;
	float *out;
	uint32_t *in, *cp;
	size_t bytes;
	int r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	gt_param_u64("items", 0, &items);
	gt_param_u64("iters", 0, &iters);
	gt_param_u64("mb", 0, &mb);
	gt_param_u64("reps", 0, &reps);
	if (reps < 1 || reps > 64)
		reps = 5;
	items = (items + 63) & ~63ULL;
	bytes = mb << 20;
	r = gtq_open(0, &d);
	if (r != 1) {
		gtq_close(&d);
		return r == 0 ? gt_skip("queues refused") : gt_result();
	}
	q = gtq_queue(&d, 64, 0);
	sig = gtq_signal(&d, 1);
	ka = gtq_alloc(&d, 4096, HSAGPU_RT_MEM_SYSTEM);
	out = gtq_alloc(&d, items * 4, HSAGPU_RT_MEM_VRAM);
	in = gtq_alloc(&d, bytes, HSAGPU_RT_MEM_VRAM);
	cp = gtq_alloc(&d, bytes, HSAGPU_RT_MEM_VRAM);
	if (!q || !ka || !out || !in || !cp ||
	    gtgcn_load(&d, "bench_alu", "bench_alu", &kd_alu) ||
	    gtgcn_load(&d, "bench_mem", "bench_mem", &kd_mem)) {
		gtq_close(&d);
		return gt_result();
	}
	printf("BENCH items %llu work-items\n", (unsigned long long)items);
	printf("BENCH iters %llu rounds\n", (unsigned long long)iters);
	printf("BENCH size %llu MiB\n", (unsigned long long)mb);

	for (uint64_t rep = 0; rep < reps; rep++) {
		const uint32_t g1[3] = { (uint32_t)items, 1, 1 };
		const uint32_t g2[3] = { (uint32_t)(bytes / 16), 1, 1 };
		const uint16_t wg[3] = { 256, 1, 1 };
		unsigned bad = 0;

		memset(ka, 0, 4096);
		ka[0] = gtq_ptr(d.agent, out);
		ka[1] = iters;
		memset(out, 0, items * 4);
		CHECK(timed(&d, q, sig, kd_alu, ka, g1, wg, &s_alu[rep]) == 0,
		      "bench_alu did not end");
		/* every 97th item against the CPU (all of them takes long) */
		for (uint64_t i = 0; i < items; i += 97) {
			float want = alu_cpu(i);

			bad += memcmp(&out[i], &want, 4) != 0;
		}
		CHECK(!bad, "bench_alu: %u items differ from the CPU's", bad);

		for (size_t i = 0; i < bytes / 4; i++)
			in[i] = (uint32_t)(i * 2654435761u + rep);
		memset(ka, 0, 4096);
		ka[0] = gtq_ptr(d.agent, in);
		ka[1] = gtq_ptr(d.agent, cp);
		CHECK(timed(&d, q, sig, kd_mem, ka, g2, wg, &s_mem[rep]) == 0,
		      "bench_mem did not end");
		CHECK(!memcmp(in, cp, bytes), "bench_mem: the copy differs");
	}
	report("gcn_alu", s_alu, reps, 0);
	report("gcn_mem", s_mem, reps, 2 * bytes);
	gtq_close(&d);
	return gt_result();
}
