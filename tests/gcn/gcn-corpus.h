/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel corpus (tests/gcn/, one .cl file per program): for each
 * program its inputs, its dispatches (kernel, grid, workgroup,
 * arguments) and its check against the CPU. Shared by the host test
 * (tests/unit/test-gcn.c, a fake memory), the guest test through
 * libhsagpu (t-gcn) and the one through unmodified ROCr (t-hsa-codeobj),
 * so all three run the same programs on the same data and judge them
 * the same way.
 */
#ifndef GCN_CORPUS_H
#define GCN_CORPUS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#define GCN_CORPUS_BUFS         7
#define GCN_CORPUS_BUF_SIZE     (64u << 10)     /* bytes each */
#define GCN_CORPUS_STEPS        3

/* One dispatch of a program */
struct gcn_step {
	const char *kernel;
	uint32_t grid[3];
	uint16_t wg[3];
	/* its kernel arguments (hidden ones zero) from the buffers' addresses */
	void (*args)(uint8_t *ka, const uint64_t buf[GCN_CORPUS_BUFS]);
};

struct gcn_program {
	const char *file;               /* tests/gcn/<file>.cl */
	const char *what;
	void (*init)(void *buf[GCN_CORPUS_BUFS]);
	/* wrong results (0: all right); @why says which */
	unsigned (*check)(void *buf[GCN_CORPUS_BUFS], char *why, size_t len);
	struct gcn_step step[GCN_CORPUS_STEPS];
};

static uint32_t gcn_rng;

static inline uint32_t gcn_rnd(void)
{
	gcn_rng ^= gcn_rng << 13;
	gcn_rng ^= gcn_rng >> 17;
	gcn_rng ^= gcn_rng << 5;
	return gcn_rng;
}

static inline float gcn_fl(uint32_t i)
{
	return (float)(int32_t)(i * 2654435761u >> 8) / 1024.0f;
}

static inline void gcn_put(uint8_t *ka, unsigned off, const void *v,
			   size_t n)
{
	memcpy(ka + off, v, n);
}

/* matmul: C (37 x 45) = A (37 x 29) B (29 x 45) in 16 x 16 tiles */
#define MM_M 37u
#define MM_N 45u
#define MM_K 29u

static void mm_init(void *buf[])
{
	float *a = buf[0], *b = buf[1], *c = buf[2];

	gcn_rng = 12345;
	for (unsigned i = 0; i < MM_M * MM_K; i++)
		a[i] = gcn_fl(gcn_rnd());
	for (unsigned i = 0; i < MM_K * MM_N; i++)
		b[i] = gcn_fl(gcn_rnd());
	for (unsigned i = 0; i < MM_M * MM_N + 64; i++)
		c[i] = -7;
}

static void mm_args(uint8_t *ka, const uint64_t buf[])
{
	const uint32_t m = MM_M, n = MM_N, k = MM_K;

	gcn_put(ka, 0, &buf[0], 8);
	gcn_put(ka, 8, &buf[1], 8);
	gcn_put(ka, 16, &buf[2], 8);
	gcn_put(ka, 24, &m, 4);
	gcn_put(ka, 28, &n, 4);
	gcn_put(ka, 32, &k, 4);
}

static unsigned mm_check(void *buf[], char *why, size_t len)
{
	const float *a = buf[0], *b = buf[1], *c = buf[2];
	unsigned bad = 0;

	for (unsigned r = 0; r < MM_M; r++)
		for (unsigned col = 0; col < MM_N; col++) {
			float acc = 0;

			/* the kernel's order: one fma per k */
			for (unsigned i = 0; i < MM_K; i++)
				acc = fmaf(a[r * MM_K + i], b[i * MM_N + col],
					   acc);
			bad += memcmp(&acc, &c[r * MM_N + col], 4) != 0;
		}
	for (unsigned i = MM_M * MM_N; i < MM_M * MM_N + 64; i++)
		bad += c[i] != -7;
	snprintf(why, len, "%u of %u elements differ from the CPU's", bad,
		 MM_M * MM_N);
	return bad;
}

/* histogram: 3000 bytes into 64 bins, LDS then global atomics */
#define HI_N 3000u

static void hi_init(void *buf[])
{
	uint8_t *in = buf[0];

	gcn_rng = 777;
	for (unsigned i = 0; i < 3072; i++)
		in[i] = gcn_rnd() % 251;
	memset(buf[1], 0, 64 * 4);
	memset(buf[2], 0, 8);
}

static void hi_args(uint8_t *ka, const uint64_t buf[])
{
	const uint32_t n = HI_N;

	gcn_put(ka, 0, &buf[0], 8);
	gcn_put(ka, 8, &n, 4);
	gcn_put(ka, 16, &buf[1], 8);
	gcn_put(ka, 24, &buf[2], 8);
	gcn_put(ka, 32, &buf[3], 8);
}

static unsigned hi_check(void *buf[], char *why, size_t len)
{
	const uint8_t *in = buf[0];
	const uint32_t *bins = buf[1], *seen = buf[2], *largest = buf[3];
	uint32_t want[64] = { 0 }, top = 0;
	unsigned bad = 0;

	for (unsigned i = 0; i < HI_N; i++) {
		want[in[i] % 64]++;
		top = in[i] > top ? in[i] : top;
	}
	for (unsigned i = 0; i < 64; i++)
		bad += bins[i] != want[i];
	bad += *seen != HI_N;
	bad += *largest != top;
	snprintf(why, len, "%u wrong of 64 bins and the largest (%u, want %u), "
		 "%u items seen of %u", bad, *largest, top, *seen, HI_N);
	return bad;
}

/* scan: inclusive prefix sum of 1000 ints in three dispatches */
#define SC_N 1000u

static void sc_init(void *buf[])
{
	int32_t *in = buf[0], *out = buf[1];

	gcn_rng = 4242;
	for (unsigned i = 0; i < 1024; i++) {
		in[i] = (int32_t)(gcn_rnd() % 2001) - 1000;
		out[i] = 0x55555555;
	}
}

static void sc_args_block(uint8_t *ka, const uint64_t buf[])
{
	const uint32_t n = SC_N;

	gcn_put(ka, 0, &buf[0], 8);         /* in */
	gcn_put(ka, 8, &buf[1], 8);         /* out */
	gcn_put(ka, 16, &buf[2], 8);        /* the workgroups' totals */
	gcn_put(ka, 24, &n, 4);
}

static void sc_args_sums(uint8_t *ka, const uint64_t buf[])
{
	const uint32_t n = 4;

	gcn_put(ka, 0, &buf[2], 8);         /* totals, scanned into buf 3 */
	gcn_put(ka, 8, &buf[3], 8);
	gcn_put(ka, 16, &buf[4], 8);
	gcn_put(ka, 24, &n, 4);
}

static void sc_args_add(uint8_t *ka, const uint64_t buf[])
{
	const uint32_t n = SC_N;

	gcn_put(ka, 0, &buf[1], 8);
	gcn_put(ka, 8, &buf[3], 8);
	gcn_put(ka, 16, &n, 4);
}

static unsigned sc_check(void *buf[], char *why, size_t len)
{
	const int32_t *in = buf[0], *out = buf[1];
	int32_t run = 0;
	unsigned bad = 0;

	for (unsigned i = 0; i < SC_N; i++) {
		run += in[i];
		bad += out[i] != run;
	}
	for (unsigned i = SC_N; i < 1024; i++)
		bad += out[i] != 0x55555555;
	snprintf(why, len, "%u of %u prefix sums wrong", bad, SC_N);
	return bad;
}

/* divergent: what divergent.cl computes, on the CPU */
static inline uint32_t gcn_divergent_cpu(uint32_t v)
{
	uint32_t x = v, steps = 0, r;

	while (x != 1 && steps < 1000) {
		x = x & 1 ? 3 * x + 1 : x >> 1;
		steps++;
	}
	if (v % 3 == 0)
		r = steps * 2;
	else if (v % 3 == 1)
		r = steps + 100;
	else
		r = v / 7 + v % 7;
	switch (v & 3) {
	case 0:
		r ^= 0x55;
		break;
	case 1:
		for (uint32_t k = 0; k < v % 13; k++) {
			if (r > 5000)
				break;
			r += k * k;
		}
		break;
	default:
		r = r * 3 - 1;
	}
	return r;
}

static void dv_init(void *buf[])
{
	uint32_t *in = buf[0];

	gcn_rng = 99;
	for (unsigned i = 0; i < 1024; i++)
		in[i] = i < 8 ? i : gcn_rnd() % 100000 + 1;
}

static void dv_args(uint8_t *ka, const uint64_t buf[])
{
	gcn_put(ka, 0, &buf[0], 8);
	gcn_put(ka, 8, &buf[1], 8);
}

static unsigned dv_check(void *buf[], char *why, size_t len)
{
	const uint32_t *in = buf[0], *out = buf[1];
	unsigned bad = 0;

	for (unsigned i = 0; i < 1024; i++)
		bad += out[i] != gcn_divergent_cpu(in[i]);
	snprintf(why, len, "%u of 1024 lanes wrong", bad);
	return bad;
}

/* grid3d: 13 x 7 x 5 in workgroups of 4 x 4 x 2 */
static const uint32_t g3_grid[3] = { 13, 7, 5 };
static const uint16_t g3_wg[3] = { 4, 4, 2 };

static void g3_init(void *buf[])
{
	memset(buf[0], 0xee, 13 * 7 * 5 * 32 + 64);
}

static void g3_args(uint8_t *ka, const uint64_t buf[])
{
	gcn_put(ka, 0, &buf[0], 8);
}

static unsigned g3_check(void *buf[], char *why, size_t len)
{
	const uint32_t *out = buf[0];
	unsigned bad = 0, items = 13 * 7 * 5;
	uint32_t ng[3];

	for (unsigned k = 0; k < 3; k++)
		ng[k] = (g3_grid[k] + g3_wg[k] - 1) / g3_wg[k];
	for (uint32_t z = 0; z < g3_grid[2]; z++)
		for (uint32_t y = 0; y < g3_grid[1]; y++)
			for (uint32_t x = 0; x < g3_grid[0]; x++) {
				uint32_t id[3] = { x, y, z }, l[3], g[3], sz[3];
				uint32_t lin = (z * g3_grid[1] + y) * g3_grid[0] + x;
				uint32_t want[8];

				for (unsigned k = 0; k < 3; k++) {
					l[k] = id[k] % g3_wg[k];
					g[k] = id[k] / g3_wg[k];
					/* the edge workgroups are partial */
					sz[k] = g[k] == ng[k] - 1 ?
						g3_grid[k] - g[k] * g3_wg[k] :
						g3_wg[k];
				}
				want[0] = x | y << 10 | z << 20;
				want[1] = l[0] | l[1] << 10 | l[2] << 20;
				want[2] = g[0] | g[1] << 10 | g[2] << 20;
				want[3] = sz[0] | sz[1] << 10 | sz[2] << 20;
				want[4] = ng[0] | ng[1] << 10 | ng[2] << 20;
				want[5] = g3_wg[0] | g3_wg[1] << 10 |
					  g3_wg[2] << 20;
				want[6] = lin;
				/*
				 * ROCm's device library computes the local
				 * linear id from the packet's (enqueued)
				 * workgroup size, also in partial workgroups
				 */
				want[7] = (l[2] * g3_wg[1] + l[1]) * g3_wg[0] + l[0];
				bad += memcmp(out + lin * 8, want,
					      sizeof(want)) != 0;
			}
	bad += out[items * 8] != 0xeeeeeeee;
	snprintf(why, len, "%u of %u work-items wrong", bad, items);
	return bad;
}

/* numeric: division, sqrt, fp64, fp16 and conversions, 512 items */
#define NU_N 512u

static void nu_init(void *buf[])
{
	static const uint32_t special[] = {
		0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 1,
		0x807fffff, 0x00800000, 0x7f7fffff, 0x3f800000, 0xbf800000,
		0x0d000000, 0x72000000, 0x00400000, 0x4b000001, 0x3effffff,
	};
	static const double dspecial[] = {
		0.0, -0.0, INFINITY, -INFINITY, NAN, 4.9e-324,
		2.2250738585072014e-308, 1.7976931348623157e308, 1.0, -3.0,
		1e-300, 1e300,
	};
	float *a = buf[0], *b = buf[1];
	double *da = buf[2], *db = buf[3];

	gcn_rng = 31337;
	for (unsigned i = 0; i < NU_N; i++) {
		uint32_t x = gcn_rnd(), y = gcn_rnd();

		/* random bits, random sane values and the special values */
		if (i % 4 == 1) {
			x = special[i / 4 % 16];
			y = special[(i / 64 + i) % 16];
		}
		if (i % 4 == 2) {
			float fx = gcn_fl(x), fy = gcn_fl(y) + 0.5f;

			memcpy(&x, &fx, 4);
			memcpy(&y, &fy, 4);
		}
		memcpy(&a[i], &x, 4);
		memcpy(&b[i], &y, 4);
		da[i] = (double)(int32_t)gcn_rnd() / 2048.0;
		db[i] = i % 3 == 0 ? dspecial[i / 3 % 12] :
			ldexp((double)(int32_t)gcn_rnd(),
			      (int)(gcn_rnd() % 80) - 60);
	}
}

static void nu_args(uint8_t *ka, const uint64_t buf[])
{
	for (unsigned k = 0; k < 7; k++)
		gcn_put(ka, 8 * k, &buf[k], 8);
}

static inline int gcn_same_f(float a, float b)
{
	return (isnan(a) && isnan(b)) || !memcmp(&a, &b, 4);
}

static inline int gcn_same_d(double a, double b)
{
	return (isnan(a) && isnan(b)) || !memcmp(&a, &b, 8);
}

static inline int32_t gcn_sat_i32(float f)
{
	return isnan(f) ? 0 : f <= -2147483648.0f ? INT32_MIN :
	       f >= 2147483648.0f ? INT32_MAX : (int32_t)f;
}

static unsigned nu_check(void *buf[], char *why, size_t len)
{
	const float *a = buf[0], *b = buf[1], *of = buf[4];
	const double *da = buf[2], *db = buf[3], *od = buf[5];
	const int32_t *oi = buf[6];
	unsigned bad[12] = { 0 }, total = 0;

	for (unsigned i = 0; i < NU_N; i++) {
		float x = a[i], y = b[i];
		double p = da[i], q = db[i];
		/* assigned: rounded to half (no excess precision kept) */
		_Float16 h = (_Float16)x, hp = h * (_Float16)y;
		volatile double prod = p * q;   /* no contraction into fma */

		bad[0] += !gcn_same_f(of[i * 4 + 0], x / y);
		bad[1] += !gcn_same_f(of[i * 4 + 1], sqrtf(fabsf(x)));
		bad[2] += !gcn_same_f(of[i * 4 + 2], (float)hp);
		bad[3] += !gcn_same_f(of[i * 4 + 3], floorf(x) + truncf(y) +
				      fminf(x, y));
		bad[4] += !gcn_same_d(od[i * 4 + 0], prod + p);
		bad[5] += !gcn_same_d(od[i * 4 + 1], p / q);
		bad[6] += !gcn_same_d(od[i * 4 + 2], (double)x * (double)y -
				      (double)(x * y));
		bad[7] += !gcn_same_d(od[i * 4 + 3], fmax(p, q) - fmin(p, q));
		bad[8] += oi[i * 4 + 0] != (int32_t)p;
		/*
		 * convert_int_sat: clang 15 clamps with v_med3_f32, which
		 * the ISA defines as the lower bound for a NaN input; OpenCL
		 * wants 0 there. Not compared for NaN inputs.
		 */
		bad[9] += !isnan(x) && oi[i * 4 + 1] != gcn_sat_i32(x * 1e6f);
		bad[10] += oi[i * 4 + 2] != (int32_t)(int64_t)(p * 1000.0);
		bad[11] += oi[i * 4 + 3] != (p < q ? 1 : p == q ? 2 : 3);
	}
	for (unsigned k = 0; k < 12; k++)
		total += bad[k];
	snprintf(why, len, "wrong: x/y %u, sqrt %u, half %u, floor/trunc/fmin "
		 "%u, p*q+p %u, p/q %u, exact product %u, fmax-fmin %u, "
		 "(int)p %u, sat %u, via long %u, compare %u", bad[0], bad[1],
		 bad[2], bad[3], bad[4], bad[5], bad[6], bad[7], bad[8], bad[9],
		 bad[10], bad[11]);
	return total;
}

/* packed: uchar4, short2 and half2 arithmetic, 1000 of 1024 items */
#define PK_N 1000u

static void pk_init(void *buf[])
{
	uint32_t *in = buf[0], *s = buf[2], *h = buf[3];

	gcn_rng = 2718;
	for (unsigned i = 0; i < 1024; i++) {
		/* halves in -31.25..31.25, steps of 1/64: exact */
		_Float16 a = (_Float16)(((int32_t)(gcn_rnd() % 4001) - 2000) / 64.0f);
		_Float16 b = (_Float16)(((int32_t)(gcn_rnd() % 4001) - 2000) / 64.0f);
		uint16_t ua, ub;

		in[i] = gcn_rnd();
		s[i] = gcn_rnd();
		memcpy(&ua, &a, 2);
		memcpy(&ub, &b, 2);
		h[i] = ua | (uint32_t)ub << 16;
	}
	memcpy(buf[5], buf[2], 1024 * 4);       /* the shorts before */
}

static void pk_args(uint8_t *ka, const uint64_t buf[])
{
	const uint32_t n = PK_N;

	gcn_put(ka, 0, &buf[0], 8);
	gcn_put(ka, 8, &buf[1], 8);
	gcn_put(ka, 16, &buf[2], 8);
	gcn_put(ka, 24, &buf[3], 8);
	gcn_put(ka, 32, &buf[4], 8);
	gcn_put(ka, 40, &n, 4);
}

/* one half: x * k + x, rounded once (the product is exact in float) */
static inline uint16_t gcn_hfma(uint16_t x, float k)
{
	_Float16 h, r;
	uint16_t u;

	memcpy(&h, &x, 2);
	r = (_Float16)((float)h * k + (float)h);
	memcpy(&u, &r, 2);
	return u;
}

static unsigned pk_check(void *buf[], char *why, size_t len)
{
	const uint8_t *in = buf[0], *out = buf[1];
	const int16_t *s = buf[2], *s0 = buf[5];
	const uint16_t *h = buf[3], *ho = buf[4];
	unsigned bad = 0;

	for (unsigned i = 0; i < 1024; i++) {
		const uint8_t *v = in + 4 * i, *o = out + 4 * i;
		uint8_t want[4] = {
			(uint8_t)(v[0] + v[1]), (uint8_t)(v[1] * 3),
			(uint8_t)(v[2] ^ v[3]), v[3] > v[0] ? v[3] : v[0],
		};
		int16_t ws[2] = { (int16_t)(s0[2 * i] * s0[2 * i + 1]),
				  (int16_t)(s0[2 * i + 1] - 7) };
		uint16_t wh[2] = { gcn_hfma(h[2 * i], 2.0f),
				   gcn_hfma(h[2 * i + 1], -1.5f) };

		if (i >= PK_N) {
			/* past n: nothing written */
			bad += o[0] || o[1] || o[2] || o[3] || ho[2 * i] ||
			       s[2 * i] != s0[2 * i];
			continue;
		}
		bad += memcmp(o, want, 4) != 0;
		bad += s[2 * i] != ws[0] || s[2 * i + 1] != ws[1];
		bad += ho[2 * i] != wh[0] || ho[2 * i + 1] != wh[1];
	}
	snprintf(why, len, "%u wrong (of %u items, 3 results each)", bad, PK_N);
	return bad;
}

/* private: a dynamically indexed private array (scratch), 1024 items */
static void pv_init(void *buf[])
{
	uint32_t *in = buf[0];

	gcn_rng = 1618;
	for (unsigned i = 0; i < 1024; i++)
		in[i] = gcn_rnd();
}

static void pv_args(uint8_t *ka, const uint64_t buf[])
{
	gcn_put(ka, 0, &buf[0], 8);
	gcn_put(ka, 8, &buf[1], 8);
}

static unsigned pv_check(void *buf[], char *why, size_t len)
{
	const uint32_t *in = buf[0], *out = buf[1];
	unsigned bad = 0;

	for (uint32_t i = 0; i < 1024; i++) {
		uint32_t a[32];

		for (uint32_t k = 0; k < 32; k++)
			a[k] = in[i] * k + (i ^ k);
		for (uint32_t k = 0; k < 31; k++)
			a[(k * 7 + i) & 31] += a[k];
		bad += out[i] != a[in[i] & 31] + a[(i * 3) & 31];
	}
	snprintf(why, len, "%u of 1024 items wrong", bad);
	return bad;
}

/* generic: generic pointers into local, private, global; calls */
static void ge_init(void *buf[])
{
	int32_t *in = buf[0];

	gcn_rng = 4669;
	for (unsigned i = 0; i < 1024; i++)
		in[i] = (int32_t)(gcn_rnd() % 100000);
}

static void ge_args(uint8_t *ka, const uint64_t buf[])
{
	gcn_put(ka, 0, &buf[0], 8);
	gcn_put(ka, 8, &buf[1], 8);
}

static unsigned ge_check(void *buf[], char *why, size_t len)
{
	const int32_t *in = buf[0], *out = buf[1];
	unsigned bad = 0;

	for (uint32_t g = 0; g < 1024; g++) {
		int32_t priv[16], l[4], want;
		uint32_t i = g % 256, q = i & ~3u;

		for (int k = 0; k < 16; k++)
			priv[k] = in[g] * k;
		priv[in[g] & 15] += 100;
		for (unsigned k = 0; k < 4; k++)
			l[k] = (int32_t)(q + k) * 3 + 7;
		want = 1 + priv[(in[g] & 12) + 0] + priv[(in[g] & 12) + 1] +
		       priv[(in[g] & 12) + 2] + priv[(in[g] & 12) + 3] +
		       l[0] + l[1] + l[2] + l[3];
		bad += out[g] != want;
	}
	snprintf(why, len, "%u of 1024 items wrong", bad);
	return bad;
}

static const struct gcn_program gcn_corpus[] = {
	{ "matmul", "tiled matrix multiply, 2-D grid, partial workgroups",
	  mm_init, mm_check,
	  { { "matmul", { MM_N, MM_M, 1 }, { 16, 16, 1 }, mm_args } } },
	{ "histogram", "histogram, LDS and global atomics", hi_init, hi_check,
	  { { "histogram", { 3072, 1, 1 }, { 256, 1, 1 }, hi_args } } },
	{ "scan", "prefix sum, three dispatches", sc_init, sc_check,
	  { { "scan_block", { 1024, 1, 1 }, { 256, 1, 1 }, sc_args_block },
	    { "scan_block", { 4, 1, 1 }, { 256, 1, 1 }, sc_args_sums },
	    { "scan_add", { 1024, 1, 1 }, { 256, 1, 1 }, sc_args_add } } },
	{ "divergent", "branch-divergent lanes", dv_init, dv_check,
	  { { "divergent", { 1024, 1, 1 }, { 64, 1, 1 }, dv_args } } },
	{ "grid3d", "3-D grid, partial workgroups", g3_init, g3_check,
	  { { "grid3d", { 13, 7, 5 }, { 4, 4, 2 }, g3_args } } },
	{ "numeric", "fp32/fp64/fp16 numerics", nu_init, nu_check,
	  { { "numeric", { NU_N, 1, 1 }, { 64, 1, 1 }, nu_args } } },
	{ "packed", "uchar4, short2, half2: SDWA and packed math", pk_init,
	  pk_check, { { "packed", { 1024, 1, 1 }, { 64, 1, 1 }, pk_args } } },
	{ "private", "a private array in scratch (MUBUF)", pv_init, pv_check,
	  { { "private_array", { 1024, 1, 1 }, { 128, 1, 1 }, pv_args } } },
	{ "generic", "generic pointers, function calls", ge_init, ge_check,
	  { { "generic_ptrs", { 1024, 1, 1 }, { 256, 1, 1 }, ge_args } } },
};

#define GCN_CORPUS_N (sizeof(gcn_corpus) / sizeof(gcn_corpus[0]))

#endif
