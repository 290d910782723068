// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for ROCr's blit kernels (hsagpu-blit.c). The kernels'
 * machine code is taken from Debian's installed ROCr 5.2.3
 * (libhsa-runtime64.so.1, where the arrays sit in .rodata): a window
 * that ends in s_endpgm and has a fingerprint the device knows. The
 * dispatches are laid out as ROCr's BlitKernel builds them (the phase
 * arithmetic of SubmitLinearCopyCommand / SubmitLinearFillCommand).
 * Without the library the tests that need its bytes are skipped.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/cp/hsagpu-cp.h"

#include "tap.h"

#include "fakebus.h"

#define ROCR_LIB "/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1"
#define S_ENDPGM 0xbf810000U    /* GCN: end of program */

#define CODE(kind)  (BUF(1) + 0x1000 * (kind))   /* amd_kernel_code_t */
#define ARGS        (BUF(2))
#define SRC         (BUF(4))
#define DST         (BUF(11))
#define NUM_CUS     2U

static const uint32_t code_len[4] = {
	[HSAGPU_BLIT_FILL] = 188,
	[HSAGPU_BLIT_COPY_MISALIGNED] = 412,
	[HSAGPU_BLIT_COPY_ALIGNED] = 496,
};
static uint8_t *code[4];        /* from ROCr's library */

static void skip(const char *func, const char *why)
{
	tap_tests++;
	printf("ok %d - %s # SKIP %s\n", tap_tests, func, why);
}

/* Find each kernel's code in ROCr's library by the device's own rule. */
static int load_rocr(void)
{
	FILE *f = fopen(ROCR_LIB, "rb");
	uint8_t *lib;
	long size;
	int found = 0;

	if (!f)
		return 0;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	lib = malloc(size);
	if (!lib || fread(lib, 1, size, f) != (size_t)size) {
		fclose(f);
		free(lib);
		return 0;
	}
	fclose(f);
	for (long off = 0; off + 4 <= size; off += 4) {
		uint32_t w;

		memcpy(&w, lib + off, 4);
		if (w != S_ENDPGM)
			continue;
		for (unsigned kind = 1; kind < 4; kind++) {
			long start = off + 4 - code_len[kind];

			if (start < 0 || code[kind])
				continue;
			/* the device's test, on the bytes where they sit */
			memcpy(at(CODE(kind)), (uint8_t[256]){ 0 }, 256);
			*(uint64_t *)at(CODE(kind) + 16) = 256;
			memcpy(at(CODE(kind) + 256), lib + start, code_len[kind]);
			if (hsagpu_blit_identify(&proc, CODE(kind)) == kind) {
				code[kind] = malloc(code_len[kind]);
				memcpy(code[kind], lib + start, code_len[kind]);
				found++;
			}
		}
	}
	free(lib);
	return found == 3;
}

/* ROCr's code buffer: amd_kernel_code_t (entry at +256), then the code */
static void place_code(unsigned kind, uint64_t obj)
{
	memset(at(obj), 0, 256);
	*(uint64_t *)at(obj + 16) = 256;
	memcpy(at(obj + 256), code[kind], code_len[kind]);
}

static struct hsagpu_kernel_dispatch_packet blit_pkt(uint64_t obj,
						     uint32_t nwi,
						     uint64_t sig)
{
	struct hsagpu_kernel_dispatch_packet k;

	memset(&k, 0, sizeof(k));
	k.header = hdr(HSAGPU_PKT_TYPE_KERNEL_DISPATCH, 0);
	k.setup = 1;
	k.workgroup_size_x = 64;
	k.workgroup_size_y = k.workgroup_size_z = 1;
	k.grid_size_x = (nwi + 63) & ~63U;
	k.grid_size_y = k.grid_size_z = 1;
	k.kernel_object = obj;
	k.kernarg_address = ARGS;
	k.completion_signal = sig;
	return k;
}

/* BlitKernel::SubmitLinearCopyCommand's kernel arguments */
static uint32_t copy_args(uint64_t dst, uint64_t src, uint64_t size,
			  unsigned *kind)
{
	uint64_t *a = at(ARGS);
	uint32_t nwi = 64 * 4 * NUM_CUS;

	if ((src & 3) == (dst & 3)) {
		uint64_t p1 = size < ((0x100 - (dst & 0xff)) & 0xff) ?
			      size : ((0x100 - (dst & 0xff)) & 0xff);
		uint64_t blk = (uint64_t)nwi * 4 * 4;
		uint64_t p2 = (size - p1) / blk * blk;
		uint64_t p3 = (size - p1 - p2) / 4 * 4;

		a[0] = src;
		a[1] = dst;
		a[2] = src + p1;
		a[3] = dst + p1;
		a[4] = src + p1 + p2;
		a[5] = dst + p1 + p2;
		a[6] = src + p1 + p2 + p3;
		a[7] = dst + p1 + p2 + p3;
		a[8] = src + size;
		a[9] = dst + size;
		*(uint32_t *)&a[10] = nwi;
		*kind = HSAGPU_BLIT_COPY_ALIGNED;
	} else {
		uint64_t blk = nwi * 4;
		uint64_t p1 = size / blk * blk;

		a[0] = src;
		a[1] = dst;
		a[2] = src + p1;
		a[3] = dst + p1;
		a[4] = src + size;
		a[5] = dst + size;
		*(uint32_t *)&a[6] = nwi;
		*kind = HSAGPU_BLIT_COPY_MISALIGNED;
	}
	return nwi;
}

/* BlitKernel::SubmitLinearFillCommand's */
static uint32_t fill_args(uint64_t dst, uint32_t value, uint64_t count)
{
	uint64_t *a = at(ARGS);
	uint32_t *w = at(ARGS + 24);
	uint32_t nwi = 64 * NUM_CUS;
	uint64_t size = count * 4, blk = nwi * 4 * 4, p1 = size / blk * blk;

	a[0] = dst;
	a[1] = dst + p1;
	a[2] = dst + size;
	w[0] = value;
	w[1] = nwi;
	return nwi;
}

static void pattern(uint64_t addr, uint64_t len, unsigned seed)
{
	uint8_t *p = at(addr);

	for (uint64_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 7 + seed + (i >> 9));
}

/* Copies of every shape ROCr makes: the bytes, nothing around them. */
static void test_copy(void)
{
	static const struct {
		uint64_t so, doff, size;
	} cases[] = {
		{ 0, 0, 1 << 20 },              /* aligned, no phase 1 */
		{ 3, 0x47, (6 << 20) + 37 },    /* aligned, all phases, slices */
		{ 1, 2, (1 << 20) + 5 },        /* misaligned */
		{ 0, 1, 4096 + 3 },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t src = SRC + cases[i].so, dst = DST + cases[i].doff;
		uint64_t n = cases[i].size;
		struct hsagpu_kernel_dispatch_packet k;
		unsigned kind, slices = 0, passes = 0;
		HsaGpuRunResult r;
		uint32_t nwi;

		q_setup(HSAGPU_QF_AMD_QUEUE);
		sig_init(0, 1);
		pattern(src, n, i);
		nwi = copy_args(dst, src, n, &kind);
		place_code(kind, CODE(kind));
		k = blit_pkt(CODE(kind), nwi, SIG(0));
		submit(&k);
		do {
			hsagpu_queue_run(&q, &proc, 64, &r);
			slices += r.slices;
		} while (!r.error && sig_val(0) && ++passes < 100);
		TM(!r.error && sig_val(0) == 0 && !q.kern_active,
		   "case %u: error %u signal %lld", i, q.error,
		   (long long)sig_val(0));
		T(memcmp(at(dst), at(src), n) == 0);
		T(*(uint8_t *)at(dst - 1) == 0 && *(uint8_t *)at(dst + n) == 0);
		T(slices == (n + HSAGPU_DMA_SLICE_BYTES - 1) /
			    HSAGPU_DMA_SLICE_BYTES);
		T(dma_last_err == 0);
	}
}

static void test_fill(void)
{
	uint64_t count = (2 << 20) / 4 + 17, dst = DST + 0x40;
	struct hsagpu_kernel_dispatch_packet k;
	uint32_t nwi, *d = at(dst);
	int ok = 1;

	q_setup(HSAGPU_QF_AMD_QUEUE);
	sig_init(0, 1);
	nwi = fill_args(dst, 0xa5b6c7d8, count);
	place_code(HSAGPU_BLIT_FILL, CODE(HSAGPU_BLIT_FILL));
	k = blit_pkt(CODE(HSAGPU_BLIT_FILL), nwi, SIG(0));
	submit(&k);
	run();
	T(sig_val(0) == 0 && q.state == HSAGPU_QSTATE_ACTIVE);
	for (uint64_t i = 0; i < count; i++)
		ok &= d[i] == 0xa5b6c7d8;
	T(ok && d[count] == 0 && d[-1] == 0);
}

/*
 * Anything but ROCr's exact code, or a queue not ROCr's, is not taken
 * for a blit kernel: it goes to the GCN interpreter (which, in this
 * test's memory, stops at a bad address or an instruction it does not
 * implement) or is refused (error 7); never the blit's result.
 */
static void test_not_blit(void)
{
	static const char *const what[] = {
		"one bit of the code flipped", "entry offset not 256-aligned",
		"entry offset beyond 1 MiB", "object not memory",
		"object misaligned", "code not mapped in the VM",
		"a queue without AMD_QUEUE", "code cut short by a hole",
	};

	for (unsigned i = 0; i < sizeof(what) / sizeof(what[0]); i++) {
		struct hsagpu_kernel_dispatch_packet k;
		uint64_t obj = CODE(HSAGPU_BLIT_COPY_ALIGNED);
		unsigned kind;
		uint32_t nwi;

		q_setup(i == 6 ? 0 : HSAGPU_QF_AMD_QUEUE);
		sig_init(0, 1);
		pattern(SRC, 4096, 1);
		nwi = copy_args(DST, SRC, 4096, &kind);
		place_code(kind, obj);
		switch (i) {
		case 0: *(uint8_t *)at(obj + 256 + 100) ^= 0x10; break;
		case 1: *(uint64_t *)at(obj + 16) = 0x80; break;
		case 2: *(uint64_t *)at(obj + 16) = 2 << 20; break;
		case 3: obj = 0x8000; break;
		case 4: obj += 4; break;
		case 5: vmf_page = obj; break;
		case 7: obj = MEM_BASE + MEM_SIZE - 256 - 200;
			obj &= ~255ULL;
			place_code(kind, obj - 0x1000);
			memmove(at(obj), at(obj - 0x1000), 256 + 200);
			break;
		}
		k = blit_pkt(obj, nwi, SIG(0));
		submit(&k);
		/* not a blit: the interpreter runs it (in slices) and fails */
		run_kernel_out();
		vmf_page = 0;
		TM(q.state == HSAGPU_QSTATE_ERROR &&
		   (q.error == HSAGPU_QERR_KERNEL_OBJECT ||
		    q.error == HSAGPU_QERR_ADDRESS ||
		    q.error == HSAGPU_QERR_ILLEGAL_INSTRUCTION),
		   "%s: error %u", what[i], q.error);
		T(sig_val(0) == 1 && *(uint8_t *)at(DST) == 0);
	}
}

/* Hostile kernel arguments: a clear error, nothing past what is valid. */
static void test_bad_args(void)
{
	static const struct {
		const char *what;
		unsigned err;
	} cases[] = {
		{ "destination not memory", HSAGPU_QERR_ADDRESS },
		{ "destination wraps", HSAGPU_QERR_ADDRESS },
		{ "phase overlaps itself", HSAGPU_QERR_DMA_OVERLAP },
		{ "phase above 2^40 bytes", HSAGPU_QERR_DMA_SIZE },
		{ "kernarg not memory", HSAGPU_QERR_ADDRESS },
		{ "kernarg misaligned", HSAGPU_QERR_ALIGNMENT },
		{ "grid 0", HSAGPU_QERR_DIMENSIONS },
		{ "kernarg in a VM hole", HSAGPU_QERR_VM_FAULT },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hsagpu_kernel_dispatch_packet k;
		uint64_t *a = at(ARGS);
		unsigned kind;
		uint32_t nwi;

		q_setup(HSAGPU_QF_AMD_QUEUE);
		sig_init(0, 1);
		/* misaligned: phase 1 [a0, a2) to a1, phase 2 [a2, a4) to a3 */
		nwi = copy_args(DST + 1, SRC + 2, 8192 + 100, &kind);
		place_code(kind, CODE(kind));
		k = blit_pkt(CODE(kind), nwi, SIG(0));
		switch (i) {
		case 0: a[3] = 0x10000; break;          /* phase 2 dst */
		case 1: a[3] = ~0ULL - 10; break;
		case 2: a[3] = a[2] + 1; break;
		case 3: a[4] = a[2] + HSAGPU_DMA_SIZE_MAX + 1; break;
		case 4: k.kernarg_address = 0x8000; break;
		case 5: k.kernarg_address = ARGS + 8; break;
		case 6: k.grid_size_x = 0; break;
		case 7: vmf_page = ARGS; break;
		}
		submit(&k);
		run();
		vmf_page = 0;
		TM(q.state == HSAGPU_QSTATE_ERROR && q.error == cases[i].err,
		   "%s: error %u", cases[i].what, q.error);
		T(sig_val(0) == 1);
	}
}

int main(void)
{
	mem = calloc(1, MEM_SIZE);
	if (!mem)
		return 1;
	/* Fingerprints of nothing: ordinary memory is no blit kernel */
	T(hsagpu_blit_identify(&proc, BUF(1)) == HSAGPU_BLIT_NONE);
	if (load_rocr()) {
		T(code[1] && code[2] && code[3]);
		test_copy();
		test_fill();
		test_not_blit();
		test_bad_args();
	} else {
		skip("main", "ROCr 5.2.3's " ROCR_LIB " not installed");
	}
	free(mem);
	return tap_done();
}
