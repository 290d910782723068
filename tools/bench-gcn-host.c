// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench-gcn-host: the GCN interpreter alone on the host, without QEMU, a
 * guest or the device's memory path: bench-gcn's two kernels (an
 * ALU-bound one, eight fp32 fma chains a work-item; a float4 copy) run
 * through the grid runner on one host thread over a flat memory, checked
 * against the CPU, next to the host's memcpy in the same run. What the
 * interpreter itself costs, and what perf profiles
 * (scripts/bench --gcn-host; docs/benchmarks.md).
 *
 *   bench-gcn-host [--items N] [--rounds R] [--mb M] [--reps K]
 *                  [--threads T]
 *
 * --threads: workgroups on a pool of T host threads, as the device's
 * compute-threads property runs them (the callbacks take turns).
 * --views 0: loads and stores through the read and write callbacks
 * only, not host views of the memory (HsaGpuGcnMem.host).
 *
 * Prints "BENCH name best median unit" lines.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hw/hsagpu/gcn/hsagpu-gcn.h"
#include "hsagpu/hsagpu_aql.h"
#include "gcn-elf.h"

#ifndef GCN_CO_DIR
#define GCN_CO_DIR "."
#endif

#define BASE    0x100000000ULL
#define CODE    BASE                    /* 1 MiB per code object */
#define PKT     (BASE + 0x200000)
#define KARG    (BASE + 0x201000)
#define DATA    (BASE + 0x400000)

static uint8_t *mem;
static uint64_t size;
static HsaGpuGcnPool *pool;

static unsigned m_read(void *o, uint64_t addr, void *buf, uint32_t len)
{
	if (addr < BASE || addr - BASE > size || len > size - (addr - BASE))
		return 7;
	memcpy(buf, mem + (addr - BASE), len);
	return 0;
}

static unsigned m_write(void *o, uint64_t addr, const void *buf,
			uint32_t len)
{
	if (addr < BASE || addr - BASE > size || len > size - (addr - BASE))
		return 7;
	memcpy(mem + (addr - BASE), buf, len);
	return 0;
}

/* A view from @addr to its 64 KiB span's end: the flat memory itself */
static void *m_host(void *o, uint64_t addr, bool write, uint32_t *len)
{
	if (addr < BASE || addr - BASE >= size)
		return NULL;
	*len = 65536 - (addr & 65535);
	if (*len > size - (addr - BASE))
		*len = size - (addr - BASE);
	return mem + (addr - BASE);
}

static void m_written(void *o, uint64_t addr, uint32_t len)
{
}

static HsaGpuGcnMem gmem = { .read = m_read, .write = m_write };

static void *at(uint64_t a)
{
	return mem + (a - BASE);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* @name's descriptor, its code object loaded at @base: the address */
static uint64_t load(const char *name, uint64_t base)
{
	char path[256], sym[64];
	uint64_t kd = 0;
	uint8_t *f;
	long n;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s.co", GCN_CO_DIR, name);
	fp = fopen(path, "rb");
	if (!fp) {
		perror(path);
		exit(1);
	}
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	f = malloc(n);
	if (f && fread(f, 1, n, fp) == (size_t)n &&
	    gcn_elf_span(f) < (1 << 20)) {
		gcn_elf_load(f, at(base));
		snprintf(sym, sizeof(sym), "%s.kd", name);
		kd = gcn_elf_symbol(f, sym);
	}
	fclose(fp);
	free(f);
	if (!kd) {
		fprintf(stderr, "%s: no %s.kd\n", path, name);
		exit(1);
	}
	return base + kd;
}

/*
 * One dispatch of @items work-items in workgroups of 256: seconds, its
 * wave instructions and lane operations
 */
static double run(uint64_t kd, uint32_t items, uint64_t *insns,
		  uint64_t *lane_ops)
{
	struct hsagpu_kernel_dispatch_packet *p = at(PKT);
	HsaGpuGcnDispatch d;
	HsaGpuGcnGrid grid = { 0 };
	HsaGpuGcnGridStats acc = { 0 };
	HsaGpuGcnStatus st;
	uint64_t next = 0, nwg[3] = { (items + 255) / 256, 1, 1 }, t0;
	unsigned err;

	memset(&d, 0, sizeof(d));
	memset(p, 0, sizeof(*p));
	p->setup = 1;
	p->workgroup_size_x = 256;
	p->workgroup_size_y = p->workgroup_size_z = 1;
	p->grid_size_x = items;
	p->grid_size_y = p->grid_size_z = 1;
	p->kernel_object = kd;
	p->kernarg_address = KARG;
	d.grid[0] = items;
	d.grid[1] = d.grid[2] = 1;
	d.wg[0] = 256;
	d.wg[1] = d.wg[2] = 1;
	d.dispatch_ptr = PKT;
	d.kernarg = KARG;
	if (hsagpu_gcn_kd_parse(at(kd), &d.kd)) {
		fprintf(stderr, "descriptor refused\n");
		exit(1);
	}
	d.code = kd + d.kd.entry_offset;
	grid.pool = pool;
	t0 = now_ns();
	err = hsagpu_gcn_grid_run(&grid, &next, nwg, nwg[0], &gmem, &d, NULL,
				  UINT64_MAX, UINT64_MAX, &st, &acc);
	t0 = now_ns() - t0;
	hsagpu_gcn_grid_free(&grid);
	if (err) {
		fprintf(stderr, "dispatch failed: %u (%s) at pc 0x%llx\n", err,
			st.what ? st.what : "-", (unsigned long long)st.pc);
		exit(1);
	}
	*insns = acc.insns;
	*lane_ops = acc.lane_ops;
	return t0 / 1e9;
}

static void put64(uint64_t a, uint64_t v)
{
	memcpy(at(a), &v, 8);
}

static void report(const char *name, double *v, int n, const char *unit)
{
	qsort(v, n, sizeof(*v), cmp);
	printf("BENCH %s %.4g %.4g %s\n", name, v[n - 1], v[n / 2], unit);
}

int main(int argc, char **argv)
{
	uint32_t items = 65536, rounds = 64, mb = 64;
	int reps = 5, threads = 1, views = 1;
	double alu_w[32], alu_l[32], mem_w[32], mem_b[32], cpy[32];
	uint64_t alu, copy, bytes, insns, lops;
	uint32_t bad = 0;

	for (int i = 1; i + 1 < argc; i += 2) {
		unsigned long v = strtoul(argv[i + 1], NULL, 0);

		if (!strcmp(argv[i], "--items"))
			items = v;
		else if (!strcmp(argv[i], "--rounds"))
			rounds = v;
		else if (!strcmp(argv[i], "--mb"))
			mb = v;
		else if (!strcmp(argv[i], "--reps"))
			reps = v;
		else if (!strcmp(argv[i], "--threads"))
			threads = v;
		else if (!strcmp(argv[i], "--views"))
			views = v;
	}
	if (!items || items > (1u << 24) || !mb || mb > 1024 || reps < 1 ||
	    reps > 32 || threads < 1 || threads > 256 || (argc - 1) % 2) {
		fprintf(stderr, "usage: bench-gcn-host [--items N] [--rounds R] "
			"[--mb M] [--reps 1..32] [--threads 1..256]\n");
		return 2;
	}
	pool = hsagpu_gcn_pool_new(threads, "bench-cu", NULL, NULL);
	if (views) {
		gmem.host = m_host;
		gmem.written = m_written;
	}
	bytes = (uint64_t)mb << 20;
	size = (DATA - BASE) + 2 * bytes + (uint64_t)items * 4;
	mem = calloc(1, size);
	if (!mem) {
		perror("calloc");
		return 1;
	}
	alu = load("bench_alu", CODE);
	copy = load("bench_mem", CODE + 0x100000);

	for (int r = 0; r < reps; r++) {
		double s;

		/* bench_alu(global float *out, uint iters) */
		put64(KARG, DATA);
		memcpy(at(KARG + 8), &rounds, 4);
		s = run(alu, items, &insns, &lops);
		alu_w[r] = insns / s;
		alu_l[r] = lops / s;
		for (uint32_t i = 0; i < items && !r; i++) {
			float a = i, b = a + 1, c = a + 2, dd = a + 3;
			float e = a + 4, f = a + 5, g = a + 6, h = a + 7, got;

			for (uint32_t k = 0; k < rounds; k++) {
				a = fmaf(a, 0.999f, 0.5f);
				b = fmaf(b, 0.998f, 0.25f);
				c = fmaf(c, 0.997f, 0.125f);
				dd = fmaf(dd, 0.996f, 1.0f);
				e = fmaf(e, 0.995f, 2.0f);
				f = fmaf(f, 0.994f, 0.75f);
				g = fmaf(g, 0.993f, 1.5f);
				h = fmaf(h, 0.992f, 3.0f);
			}
			memcpy(&got, at(DATA + 4ULL * i), 4);
			bad += got != a + b + c + dd + e + f + g + h;
		}
		/* bench_mem(global const float4 *in, global float4 *out) */
		put64(KARG, DATA);
		put64(KARG + 8, DATA + bytes);
		if (!r) {
			for (uint64_t i = 0; i < bytes / 4; i++) {
				uint32_t v = (uint32_t)(i * 2654435761u);

				memcpy(at(DATA + 4 * i), &v, 4);
			}
		}
		memset(at(DATA + bytes), 0, bytes);
		s = run(copy, bytes / 16, &insns, &lops);
		mem_w[r] = insns / s;
		mem_b[r] = 2.0 * bytes / s / 1e6;
		bad += memcmp(at(DATA), at(DATA + bytes), bytes) != 0;
		/* the host's memcpy, same buffers, as traffic (read + write) */
		{
			uint64_t t0 = now_ns();

			memcpy(at(DATA + bytes), at(DATA), bytes);
			cpy[r] = 2.0 * bytes / ((now_ns() - t0) / 1e9) / 1e6;
		}
	}
	if (bad) {
		fprintf(stderr, "%u results differ from the CPU's\n", bad);
		return 1;
	}
	report("gcn_host_alu_wave_insns", alu_w, reps, "/s");
	report("gcn_host_alu_lane_ops", alu_l, reps, "/s");
	report("gcn_host_copy_wave_insns", mem_w, reps, "/s");
	report("gcn_host_copy_traffic", mem_b, reps, "MB/s");
	report("host_memcpy_traffic", cpy, reps, "MB/s");
	printf("BENCH gcn_host_threads %u %u threads\n",
	       hsagpu_gcn_pool_size(pool), hsagpu_gcn_pool_size(pool));
	hsagpu_gcn_pool_free(pool);
	return 0;
}
