// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-trixie-sgemm: Debian trixie's rocBLAS (librocblas.so.0, 5.5.1) runs
 * an SGEMM of 128 x 128 x 128 on the device (gfx900, Linux's own amdkfd)
 * and its result matches a CPU SGEMM element by element.
 *
 * Built on the bookworm host without rocBLAS's or HIP's headers: the few
 * entry points it calls (rocblas_create_handle, rocblas_sgemm,
 * rocblas_destroy_handle; hipMalloc, hipMemcpy, hipDeviceSynchronize,
 * hipFree) are taken with dlopen/dlsym from trixie's libraries, with
 * their C prototypes and enum values as rocblas-types.h and
 * hip_runtime_api.h (5.5 / 5.7) declare them. It runs chrooted in the
 * trixie image (guest-tests/trixie/trixie.sh).
 *
 * Two products, column-major as BLAS has it, C = alpha A op(B) + beta C:
 *  - exact: small integers over powers of two, whose products and sums
 *    a float holds exactly in any order: every element must equal the
 *    CPU's (A and B not transposed);
 *  - random: values in [-1, 1), B transposed: each element within
 *    1e-5 of the sum of the magnitudes of its terms (a few float
 *    roundings in a 128-term dot product, whatever the order).
 * Prints the seconds each step took (handle; rocblas_initialize, which
 * loads Tensile's kernels for the device; each SGEMM with its completion). Exit status 0 when every element
 * matched, 1 otherwise (naming the first elements that differ and the
 * failing call with its status).
 *
 * With --bench REPS, then REPS SGEMMs of 256 x 256 x 256 (random values,
 * the first checked as above: a fast wrong kernel cannot win), each
 * timed from the call to its completion; "BENCH" lines with the best and
 * the median for scripts/bench --sgemm, which runs the host's SGEMM in
 * the same run.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define M 128
#define N 128
#define K 128

/* rocblas-types.h */
typedef void *rocblas_handle;
typedef int32_t rocblas_int;
typedef int rocblas_status;		/* rocblas_status_success = 0 */
enum { rocblas_operation_none = 111, rocblas_operation_transpose = 112 };
/* hip_runtime_api.h */
typedef int hipError_t;			/* hipSuccess = 0 */
enum { hipMemcpyHostToDevice = 1, hipMemcpyDeviceToHost = 2 };

static rocblas_status (*create_handle)(rocblas_handle *);
static rocblas_status (*destroy_handle)(rocblas_handle);
static rocblas_status (*sgemm)(rocblas_handle, int, int, rocblas_int, rocblas_int,
			       rocblas_int, const float *, const float *, rocblas_int,
			       const float *, rocblas_int, const float *, float *,
			       rocblas_int);
static const char *(*status_string)(rocblas_status);
static void (*initialize)(void);
static hipError_t (*hip_malloc)(void **, size_t);
static hipError_t (*hip_free)(void *);
static hipError_t (*hip_memcpy)(void *, const void *, size_t, int);
static hipError_t (*hip_sync)(void);
static const char *(*hip_error_string)(hipError_t);

static int failures;

#define FAIL(...) do { failures++; printf("# FAIL: " __VA_ARGS__); printf("\n"); } while (0)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *sym(void *lib, const char *libname, const char *name)
{
	void *p = dlsym(lib, name);

	if (!p)
		FAIL("%s has no %s", libname, name);
	return p;
}

#define HIPCALL(call) do { \
	hipError_t e_ = (call); \
	if (e_) { \
		FAIL("%s: %s (%d)", #call, hip_error_string(e_), e_); \
		goto out; \
	} \
} while (0)

/* C = alpha A op(B) + beta C, column-major, on the CPU (double sums) */
static void cpu_sgemm_n(int m, int n, int kk, int tb, float alpha, const float *a,
			const float *b, float beta, const float *c0, double *ref, double *mag)
{
	for (int j = 0; j < n; j++)
		for (int i = 0; i < m; i++) {
			double s = 0, mg = 0;

			for (int k = 0; k < kk; k++) {
				double t = (double)a[i + k * m] *
					   (tb ? b[j + k * n] : b[k + j * kk]);
				s += t;
				mg += fabs(t);
			}
			ref[i + j * m] = alpha * s + beta * c0[i + j * m];
			mag[i + j * m] = fabs(alpha) * mg + fabs(beta * c0[i + j * m]);
		}
}

static void cpu_sgemm(int tb, float alpha, const float *a, const float *b, float beta,
		      const float *c0, double *ref, double *mag)
{
	cpu_sgemm_n(M, N, K, tb, alpha, a, b, beta, c0, ref, mag);
}

/* one product on the device; 0 when it ran, checks every element */
static int gpu_case(rocblas_handle h, const char *what, int tb, int exact,
		    const float *a, const float *b, const float *c0)
{
	const float alpha = exact ? 1.5f : 0.75f, beta = exact ? 0.5f : -1.25f;
	float *da = NULL, *db = NULL, *dc = NULL, *c = malloc(sizeof(float) * M * N);
	double *ref = malloc(sizeof(double) * M * N), *mag = malloc(sizeof(double) * M * N);
	int bad = 0, ret = 1;
	double t0, t1, worst = 0;
	rocblas_status st;

	HIPCALL(hip_malloc((void **)&da, sizeof(float) * M * K));
	HIPCALL(hip_malloc((void **)&db, sizeof(float) * K * N));
	HIPCALL(hip_malloc((void **)&dc, sizeof(float) * M * N));
	HIPCALL(hip_memcpy(da, a, sizeof(float) * M * K, hipMemcpyHostToDevice));
	HIPCALL(hip_memcpy(db, b, sizeof(float) * K * N, hipMemcpyHostToDevice));
	HIPCALL(hip_memcpy(dc, c0, sizeof(float) * M * N, hipMemcpyHostToDevice));
	t0 = now();
	st = sgemm(h, rocblas_operation_none,
		   tb ? rocblas_operation_transpose : rocblas_operation_none,
		   M, N, K, &alpha, da, M, db, tb ? N : K, &beta, dc, M);
	if (st) {
		FAIL("%s: rocblas_sgemm: %s (%d)", what, status_string(st), st);
		goto out;
	}
	HIPCALL(hip_sync());
	t1 = now();
	HIPCALL(hip_memcpy(c, dc, sizeof(float) * M * N, hipMemcpyDeviceToHost));
	printf("# %s: rocblas_sgemm %dx%dx%d (B %s) and its completion: %.3f s\n", what,
	       M, N, K, tb ? "transposed" : "not transposed", t1 - t0);
	cpu_sgemm(tb, alpha, a, b, beta, c0, ref, mag);
	for (int j = 0; j < N; j++)
		for (int i = 0; i < M; i++) {
			double r = ref[i + j * M], g = c[i + j * M];
			double tol = exact ? 0 : 1e-5 * mag[i + j * M] + 1e-30;
			double err = fabs(g - r);

			if (!exact && err / tol > worst)
				worst = err / tol;
			if (!(err <= tol)) {
				if (bad < 8)
					printf("# %s: C[%d][%d] = %.9g, CPU %.9g\n", what, i, j,
					       g, r);
				bad++;
			}
		}
	if (bad)
		FAIL("%s: %d of %d elements differ from the CPU's%s", what, bad, M * N,
		     exact ? " (exact arithmetic)" : " beyond the tolerance");
	else
		printf("# %s: all %d elements match the CPU's%s\n", what, M * N,
		       exact ? " exactly" : "");
	if (!exact)
		printf("# %s: largest error %.3f of the tolerance\n", what, worst);
	ret = 0;
out:
	if (da)
		hip_free(da);
	if (db)
		hip_free(db);
	if (dc)
		hip_free(dc);
	free(c);
	free(ref);
	free(mag);
	return ret;
}

static float rnd(uint32_t *seed)
{
	*seed = *seed * 1103515245 + 12345;
	return (int32_t)(*seed >> 8 & 0xffff) / 32768.0f - 1;
}

static int cmp_d(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/*
 * @reps timed SGEMMs of BN x BN x BN; the first one's result checked
 * against the CPU within the tolerance of gpu_case's random product
 */
#define BN 256
static void bench(rocblas_handle h, int reps)
{
	const size_t bytes = sizeof(float) * BN * BN;
	const float alpha = 1.0f, beta = 0.0f;
	float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
	float *c0 = calloc(BN * BN, sizeof(float));
	double *ref = malloc(sizeof(double) * BN * BN);
	double *mag = malloc(sizeof(double) * BN * BN);
	double *secs = calloc(reps, sizeof(double));
	float *da = NULL, *db = NULL, *dc = NULL;
	uint32_t seed = 777;
	int bad = 0;

	for (int i = 0; i < BN * BN; i++) {
		a[i] = rnd(&seed);
		b[i] = rnd(&seed);
	}
	HIPCALL(hip_malloc((void **)&da, bytes));
	HIPCALL(hip_malloc((void **)&db, bytes));
	HIPCALL(hip_malloc((void **)&dc, bytes));
	HIPCALL(hip_memcpy(da, a, bytes, hipMemcpyHostToDevice));
	HIPCALL(hip_memcpy(db, b, bytes, hipMemcpyHostToDevice));
	for (int r = 0; r < reps; r++) {
		double t0 = now();
		rocblas_status st = sgemm(h, rocblas_operation_none, rocblas_operation_none,
					  BN, BN, BN, &alpha, da, BN, db, BN, &beta, dc, BN);

		if (st) {
			FAIL("bench: rocblas_sgemm: %s (%d)", status_string(st), st);
			goto out;
		}
		HIPCALL(hip_sync());
		secs[r] = now() - t0;
		printf("# bench: rocblas_sgemm %dx%dx%d and its completion: %.3f s\n", BN, BN,
		       BN, secs[r]);
	}
	HIPCALL(hip_memcpy(c, dc, bytes, hipMemcpyDeviceToHost));
	cpu_sgemm_n(BN, BN, BN, 0, alpha, a, b, beta, c0, ref, mag);
	for (int i = 0; i < BN * BN; i++)
		bad += !(fabs(c[i] - ref[i]) <= 1e-5 * mag[i] + 1e-30);
	if (bad) {
		FAIL("bench: %d of %d elements differ from the CPU's beyond the tolerance",
		     bad, BN * BN);
		goto out;
	}
	qsort(secs, reps, sizeof(*secs), cmp_d);
	printf("BENCH rocblas_sgemm_256_s %.6f %.6f s\n", secs[0], secs[reps / 2]);
	printf("BENCH rocblas_sgemm_256_gflops %.4f %.4f GFLOP/s\n",
	       2.0 * BN * BN * BN / secs[0] / 1e9, 2.0 * BN * BN * BN / secs[reps / 2] / 1e9);
out:
	if (da)
		hip_free(da);
	if (db)
		hip_free(db);
	if (dc)
		hip_free(dc);
	free(a);
	free(b);
	free(c);
	free(c0);
	free(ref);
	free(mag);
	free(secs);
}

int main(int argc, char **argv)
{
	int reps = argc == 3 && !strcmp(argv[1], "--bench") ? atoi(argv[2]) : 0;

	void *hip, *blas;
	rocblas_handle h = NULL;
	rocblas_status st;
	float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
	float *c0 = malloc(sizeof(float) * M * N);
	double t0;
	uint32_t seed = 12345;

	setvbuf(stdout, NULL, _IOLBF, 0);
	hip = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_GLOBAL);
	if (!hip) {
		printf("# FAIL: dlopen libamdhip64.so.5: %s\n", dlerror());
		return 1;
	}
	blas = dlopen("librocblas.so.0", RTLD_NOW | RTLD_GLOBAL);
	if (!blas) {
		printf("# FAIL: dlopen librocblas.so.0: %s\n", dlerror());
		return 1;
	}
	hip_malloc = sym(hip, "libamdhip64", "hipMalloc");
	hip_free = sym(hip, "libamdhip64", "hipFree");
	hip_memcpy = sym(hip, "libamdhip64", "hipMemcpy");
	hip_sync = sym(hip, "libamdhip64", "hipDeviceSynchronize");
	hip_error_string = sym(hip, "libamdhip64", "hipGetErrorString");
	create_handle = sym(blas, "librocblas", "rocblas_create_handle");
	destroy_handle = sym(blas, "librocblas", "rocblas_destroy_handle");
	sgemm = sym(blas, "librocblas", "rocblas_sgemm");
	status_string = sym(blas, "librocblas", "rocblas_status_to_string");
	initialize = sym(blas, "librocblas", "rocblas_initialize");
	if (failures)
		return 1;

	t0 = now();
	st = create_handle(&h);
	if (st) {
		printf("# FAIL: rocblas_create_handle: %s (%d)\n", status_string(st), st);
		return 1;
	}
	printf("# rocblas_create_handle: %.3f s\n", now() - t0);
	/* what the first SGEMM would do otherwise: read Tensile's catalogue
	 * of kernels and load the device's code objects */
	t0 = now();
	initialize();
	printf("# rocblas_initialize (Tensile's kernels for the device): %.3f s\n",
	       now() - t0);

	/* exact: multiples of 1/8 and 1/4 of small integers */
	for (int k = 0; k < K; k++)
		for (int i = 0; i < M; i++)
			a[i + k * M] = ((i * 3 + k * 7) % 17 - 8) / 8.0f;
	for (int j = 0; j < N; j++)
		for (int k = 0; k < K; k++)
			b[k + j * K] = ((k * 5 + j * 11) % 13 - 6) / 4.0f;
	for (int i = 0; i < M * N; i++)
		c0[i] = (i % 7) - 3;
	if (gpu_case(h, "exact", 0, 1, a, b, c0) == 0) {
		/* random, B transposed */
		for (int i = 0; i < M * K; i++)
			a[i] = rnd(&seed);
		for (int i = 0; i < K * N; i++)
			b[i] = rnd(&seed);
		for (int i = 0; i < M * N; i++)
			c0[i] = rnd(&seed);
		gpu_case(h, "random", 1, 0, a, b, c0);
	}
	if (!failures && reps > 0 && reps <= 100)
		bench(h, reps);
	else if (argc > 1 && !(reps > 0 && reps <= 100))
		FAIL("usage: t-trixie-sgemm [--bench REPS (1..100)]");
	st = destroy_handle(h);
	if (st)
		FAIL("rocblas_destroy_handle: %s (%d)", status_string(st), st);
	printf("# %s (%d failed checks)\n", failures ? "FAILED" : "passed", failures);
	return failures ? 1 : 0;
}
