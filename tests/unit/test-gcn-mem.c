// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit test of the GCN interpreter's memory classes, cache control,
 * clocks, messages and hardware registers (issue 28): the small programs
 * of tests/gcn/mem.s (assembled at build time by Debian's llvm-mc into
 * mem.enc, one per s_endpgm) run on one wave over a fake memory, a fake
 * clock and interrupt; each program's results are checked against values
 * worked out here from the ISA's definitions (buffer addressing, range
 * checks, d16 halves, formats). Also what one instruction alone cannot
 * show: v_readlane/writelane/readfirstlane on every lane number, the
 * branches and s_setpc/s_swappc (which instructions ran), the wide SMEM
 * loads. Then every FLAT/GLOBAL and buffer width, d16 half, atomic (on
 * distinct words and, in any order, all lanes on one) and typed format,
 * under a full and a partial EXEC, the atomics once as a read and a write
 * and once through the memory's own atomics (HsaGpuGcnMem.atomic), every
 * register and byte compared; s_sendmsghalt. TAP output.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/gcn/hsagpu-gcn-int.h"

#include "tap.h"

#ifndef GCN_MEM_ENC
#define GCN_MEM_ENC "mem.enc"
#endif

#define BASE    0x100000ULL
#define SIZE    0x10000u
#define BUF     (BASE + 0x4000)         /* the buffer the V#s describe */
#define NV      64
#define PRIV    256                     /* private bytes per lane */
#define NPROG   64

static uint8_t mem[SIZE];
static uint8_t init[SIZE];
static uint8_t lds[1024];
/* the wave's scratch: swizzled pages, taken when first written */
#define PRIV_PAGES ((HSAGPU_GCN_WAVE * PRIV + HSAGPU_GCN_PRIV_PAGE - 1) / \
		    HSAGPU_GCN_PRIV_PAGE)
static uint8_t *priv_page[PRIV_PAGES];
static HsaGpuGcnPriv priv;
static HsaGpuGcnVreg v[NV];
static uint64_t clk;
static unsigned irqs;
static uint32_t irq_m0;
static unsigned nprog;
static uint64_t prog[NPROG];            /* each program's address */
/* reads at or past this fail (test_icache's end of a mapping) */
static uint64_t read_end = BASE + SIZE;

static unsigned f_read(void *o, uint64_t a, void *buf, uint32_t len)
{
	if (a < BASE || a + len > BASE + SIZE || a + len > read_end)
		return 7;
	memcpy(buf, mem + (a - BASE), len);
	return 0;
}

static unsigned f_write(void *o, uint64_t a, const void *buf, uint32_t len)
{
	if (a < BASE || a + len > BASE + SIZE)
		return 7;
	memcpy(mem + (a - BASE), buf, len);
	return 0;
}

/* A clock that moves 123 ns each time it is read */
static uint64_t f_now(void *o)
{
	uint64_t t = clk;

	clk += 123;
	return t;
}

static void f_irq(void *o, uint32_t m0)
{
	irqs++;
	irq_m0 = m0;
}

/*
 * The memory performing an atomic itself (HsaGpuGcnMem.atomic: fetch and
 * add, swap, compare and swap), as a device's PCIe AtomicOps
 */
static unsigned f_atomic(void *o, uint64_t a, unsigned bytes, unsigned op,
			 uint64_t s0, uint64_t s1, uint64_t *old)
{
	uint64_t x = 0, m = bytes == 8 ? ~0ULL : 0xffffffffULL;

	if (a < BASE || a + bytes > BASE + SIZE)
		return 7;
	memcpy(&x, mem + (a - BASE), bytes);
	*old = x;
	if (op == HSAGPU_GCN_ATOMIC_ADD)
		x = (x + s0) & m;
	else if (op == HSAGPU_GCN_ATOMIC_SWAP)
		x = s0;
	else if (x == s0)
		x = s1;
	memcpy(mem + (a - BASE), &x, bytes);
	return 0;
}

static const HsaGpuGcnMem fmem = {
	.read = f_read, .write = f_write, .now_ns = f_now, .interrupt = f_irq,
};

static const HsaGpuGcnMem fmem_at = {
	.read = f_read, .write = f_write, .atomic = f_atomic, .now_ns = f_now,
	.interrupt = f_irq,
};

/* what run() gives the wave: fmem, or fmem_at for the atomics' second go */
static const HsaGpuGcnMem *cur_mem = &fmem;
/* the instruction cache run() gives the group (NULL: none) */
static HsaGpuGcnIcache *cur_icache;

/* the buffer's initial bytes, as loaded */
static uint32_t b8(uint64_t off)
{
	return init[BUF - BASE + off];
}

static uint32_t b16(uint64_t off)
{
	return b8(off) | b8(off + 1) << 8;
}

static uint32_t b32(uint64_t off)
{
	return b16(off) | b16(off + 2) << 16;
}

static uint32_t m32(uint64_t off)
{
	uint32_t x;

	memcpy(&x, mem + (BUF - BASE) + off, 4);
	return x;
}

static uint64_t m64(uint64_t off)
{
	uint64_t x;

	memcpy(&x, mem + (BUF - BASE) + off, 8);
	return x;
}

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static void read_programs(void)
{
	FILE *f = fopen(GCN_MEM_ENC, "r");
	char line[512];
	uint64_t at = BASE;

	TM(f != NULL, "open %s", GCN_MEM_ENC);
	if (!f)
		return;
	prog[nprog++] = at;
	while (fgets(line, sizeof(line), f)) {
		char *e = strstr(line, "; encoding: [");
		unsigned b;

		if (!e)
			continue;
		e += strlen("; encoding: [");
		while (sscanf(e, "0x%x", &b) == 1) {
			mem[at++ - BASE] = b;
			e = strchr(e, ',');
			if (!e)
				break;
			e++;
		}
		if (strstr(line, "s_endpgm") && nprog < NPROG)
			prog[nprog++] = at;
	}
	fclose(f);
	nprog--;                        /* the last one starts at the end */
}

/* A V# for @base: stride, num_records, word 3 */
static void vsharp(HsaGpuGcnWave *w, unsigned s, uint64_t base,
		   uint32_t stride, uint32_t nrec, uint32_t w3)
{
	w->s[s] = (uint32_t)base;
	w->s[s + 1] = (uint32_t)(base >> 32 & 0xffff) | stride << 16;
	w->s[s + 2] = nrec;
	w->s[s + 3] = w3;
}

static HsaGpuGcnDispatch d;
static HsaGpuGcnGroup g;
static HsaGpuGcnStatus st;
static HsaGpuGcnWave w;

/* The group a program's steps run in, fresh */
static void group_init(void)
{
	memset(&g, 0, sizeof(g));
	memset(&st, 0, sizeof(st));
	g.mem = cur_mem;
	g.d = &d;
	g.st = &st;
	g.lds = lds;
	g.lds_size = sizeof(lds);
}

/* Run program @p to its end: the status code (0 ran to s_endpgm) */
static unsigned run(unsigned p)
{
	group_init();
	g.priv_size = PRIV;
	g.priv = &priv;
	g.icache = cur_icache;
	hsagpu_gcn_set_denorm(&g, w.denorm);
	w.pc = prog[p];
	/* a step that ends the wave's turn (s_sleep) is not an end */
	for (unsigned n = 0; n < 100 && !w.done; n++)
		if (!hsagpu_gcn_step(&g, &w) && (st.code || w.at_barrier))
			break;
	return w.done ? 0 : st.code ? st.code : 99;
}

/* A fresh wave: v0 lane, v1 4 x lane, EXEC all; memory as loaded */
static void fresh(void)
{
	memcpy(mem + (BUF - BASE), init + (BUF - BASE), SIZE - (BUF - BASE));
	memset(lds, 0, sizeof(lds));
	for (unsigned i = 0; i < PRIV_PAGES; i++) {
		free(priv_page[i]);
		priv_page[i] = NULL;
	}
	priv.page = priv_page;
	priv.npages = priv.cap = PRIV_PAGES;
	priv.resident = 0;
	priv.wave_bytes = (uint64_t)HSAGPU_GCN_WAVE * PRIV;
	memset(v, 0, sizeof(v));
	memset(&w, 0, sizeof(w));
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
		v[0][l] = l;
		v[1][l] = 4 * l;
	}
	w.vfile = v;
	w.nvgpr = NV;
	w.exec = ~0ULL;
	memset(&d, 0, sizeof(d));
}

#define LANES(cond, want, got)						\
	do {								\
		unsigned bad_ = 0, first_ = 0;				\
		uint64_t w_ = 0, g_ = 0;				\
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {	\
			if ((uint64_t)(want) != (uint64_t)(got) && !bad_++) { \
				first_ = l;				\
				w_ = (want);				\
				g_ = (got);				\
			}						\
		}							\
		TM(!bad_, "%s: %u lanes wrong (lane %u: got 0x%llx, want 0x%llx)", \
		   cond, bad_, first_, (unsigned long long)g_,		\
		   (unsigned long long)w_);				\
	} while (0)

static void test_clocks(void)
{
	fresh();
	clk = 1000;
	TM(run(0) == 0, "clocks: ran (%s)", st.what ? st.what : "");
	/* 1 GHz shader clock = ns; 100 MHz real time = ns / 10 */
	T(w.s[0] == 1000 && w.s[1] == 0);
	T(w.s[2] == 1123 / 10 && w.s[4] == 1246 / 10 && w.s[4] >= w.s[2]);
	T(w.vcc == 1369);
	fresh();
	clk = 0x123456789abULL;
	T(run(0) == 0 && w.s[0] == 0x456789ab && w.s[1] == 0x123 &&
	  ((uint64_t)w.s[3] << 32 | w.s[2]) == (0x123456789abULL + 123) / 10);
}

static void test_control(void)
{
	fresh();
	TM(run(1) == 0, "cache control, waits, s_ttracedata, s_setprio, "
	   "s_sleep, s_nop, s_wakeup, s_inc/decperflevel, v_nop, v_clrexcp: "
	   "run (%s)", st.what ? st.what : "");
	fresh();
	irqs = 0;
	TM(run(2) == 0 && irqs == 1 && irq_m0 == 0x2a,
	   "s_sendmsg(MSG_INTERRUPT): the interrupt with M0 (%u, 0x%x)", irqs,
	   irq_m0);
	fresh();
	TM(run(3) == HSAGPU_GCN_UNIMPLEMENTED && st.pc == prog[3],
	   "s_sendmsg(MSG_GS): refused (%s)", st.what ? st.what : "");
	fresh();
	w.nvgpr = 32;                           /* the descriptor's */
	d.kd.rsrc1 = 2 << 6 | 7 | 1u << 23;     /* 24 SGPRs, 32 VGPRs, IEEE */
	w.denorm = 0xf;
	w.id = 6;
	w.scc = 1;
	w.vcc = 0;
	TM(run(4) == 0, "s_getreg/s_setreg: run (%s)", st.what ? st.what : "");
	T(w.s[0] == (1 | 2 << 4 | 1u << 30));   /* wave 1 of SIMD 2, ME 1 */
	T(w.s[1] == (7 << 8 | 1 << 24));        /* 8 x 4 VGPRs, 2 x 16 SGPRs */
	T(w.s[2] == 2 << 12);                   /* 1 KiB of LDS: 2 x 512 */
	T(w.s[3] == 0 && w.s[4] == 0);
	T(w.s[5] == (0xf0 | 1 << 9));
	T(w.s[6] == (1 | 1 << 10 | 1 << 16));
	T(w.s[7] == 7);
	/* denormals kept for one multiply, then flushed again */
	fresh();
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
		v[3][l] = 1 + l;                /* denormals */
		v[4][l] = 0x3f800000;           /* 1.0 */
	}
	TM(run(5) == 0, "s_setreg MODE denormals: run (%s)",
	   st.what ? st.what : "");
	LANES("denormals kept after s_setreg 3", 1 + l, v[2][l]);
	LANES("flushed after s_setreg 0", 0, v[5][l]);
	T(w.s[0] == 0 && w.denorm == 0 && g.ftz32 && g.ftz64);
	fresh();
	TM(run(6) == HSAGPU_GCN_UNIMPLEMENTED && st.pc == prog[6] && w.denorm == 0,
	   "s_setreg of a rounding mode: refused");
	fresh();
	TM(run(7) == HSAGPU_GCN_TRAP && w.s[0] == 7 && st.pc == prog[7] + 8,
	   "s_trap 3 goes on, s_trap 2 fails at its address (%u, 0x%llx)",
	   st.code, (unsigned long long)st.pc);
}

static void test_buffer(void)
{
	uint8_t want[SIZE];
	uint32_t x;

	/* raw loads, num_records 100 */
	fresh();
	vsharp(&w, 8, BUF, 0, 100, 0);
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
		v[8][l] = 0x1234;
		v[9][l] = 0xabcd0000;
		v[10][l] = 0xffffffff;
	}
	TM(run(8) == 0, "raw buffer loads: run (%s)", st.what ? st.what : "");
	LANES("buffer_load_dword, range", 4 * l + 4 <= 100 ? b32(4 * l) : 0,
	      v[2][l]);
	for (unsigned k = 0; k < 4; k++)
		LANES("buffer_load_dwordx4, per-dword range",
		      4 * l + 4 + 4 * k + 4 <= 100 ? b32(4 * l + 4 + 4 * k) : 0,
		      v[4 + k][l]);
	LANES("buffer_load_ubyte_d16_hi",
	      (4 * l + 1 <= 100 ? b8(4 * l) : 0) << 16 | 0x1234, v[8][l]);
	LANES("buffer_load_short_d16",
	      0xabcd0000 | (4 * l + 2 <= 100 ? b16(4 * l) : 0), v[9][l]);
	LANES("buffer_load_sbyte_d16",
	      0xffff0000 | (4 * l + 4 <= 100 ?
			    (uint16_t)(int8_t)b8(4 * l + 3) : 0), v[10][l]);
	LANES("buffer_load_sshort",
	      4 * l + 4 <= 100 ? (uint32_t)(int16_t)b16(4 * l + 2) : 0,
	      v[11][l]);

	/* stores: soffset 8 (not range-checked), d16_hi, dwordx2 in part */
	fresh();
	vsharp(&w, 8, BUF, 0, 100, 0);
	vsharp(&w, 16, BUF, 0, 0x10000, 0);
	w.s[12] = 8;
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
		v[2][l] = 0x11110000 | l;
		v[3][l] = (0x5a00 + l) << 16 | 0x77;
	}
	memcpy(want, init, SIZE);
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
		if (4 * l + 4 <= 100)
			memcpy(want + (BUF - BASE) + 8 + 4 * l, &l, 4);
	}
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
		x = v[3][l] >> 16;
		memcpy(want + (BUF - BASE) + 1024 + 4 * l, &x, 2);
	}
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
		for (unsigned k = 0; k < 2; k++)
			if (92 + 4 * l + 4 * k + 4 <= 100)
				memcpy(want + (BUF - BASE) + 92 + 4 * l + 4 * k,
				       &v[2 + k][l], 4);
	TM(run(9) == 0, "raw buffer stores: run (%s)", st.what ? st.what : "");
	TM(!memcmp(want, mem, SIZE), "stores: range, soffset, d16_hi, x2 "
	   "by dword");

	/* structured: stride 16, 10 records; add_tid_enable; idxen + offen */
	fresh();
	vsharp(&w, 8, BUF, 16, 10, 0);
	vsharp(&w, 12, BUF, 4, 40, 1u << 23);
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
		v[10][l] = 63 - l;
		v[11][l] = l % 4 * 4;
	}
	TM(run(10) == 0, "structured buffers: run (%s)",
	   st.what ? st.what : "");
	LANES("idxen, stride, num_records in records",
	      l < 10 ? b32(16 * l + 4) : 0, v[2][l]);
	LANES("add_tid_enable", l < 40 ? b32(4 * l + 8) : 0, v[3][l]);
	LANES("idxen + offen", 63 - l < 10 ? b32(16 * (63 - l) + l % 4 * 4) : 0,
	      v[4][l]);

	/* swizzled: stride 8, index_stride 8, 4-byte elements */
	fresh();
	vsharp(&w, 16, BUF, 8, 64, 0);
	w.s[17] |= 1u << 31;
	TM(run(11) == 0, "swizzled: run (%s)", st.what ? st.what : "");
	LANES("swizzled",
	      b32((l / 8 * 8 + 4) * 8 + l % 8 * 4), v[2][l]);

	/* atomics */
	fresh();
	vsharp(&w, 8, BUF, 0, 600, 0);
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
		v[2][l] = l + 1;
		v[4][l] = 0xc0de0000 | l;
		v[5][l] = l % 2 ? 0 : b32(256 + 4 * l);
		v[6][l] = l * 0x10000001;
		v[7][l] = l % 3 ? 0x80000000 : 0x7fff0000;
	}
	memcpy(want, init, SIZE);
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
		uint64_t o, s;
		uint8_t *p = want + (BUF - BASE) + 512 + 4 * l;

		x = b32(4 * l) + l + 1;
		memcpy(want + (BUF - BASE) + 4 * l, &x, 4);
		x = l % 2 ? b32(256 + 4 * l) : 0xc0de0000 | l;
		memcpy(want + (BUF - BASE) + 256 + 4 * l, &x, 4);
		if (512 + 4 * l + 8 > 600)
			continue;
		memcpy(&o, p, 8);
		s = (uint64_t)v[7][l] << 32 | v[6][l];
		o = (int64_t)o > (int64_t)s ? o : s;
		memcpy(p, &o, 8);
	}
	TM(run(12) == 0, "buffer atomics: run (%s)", st.what ? st.what : "");
	LANES("buffer_atomic_add glc: the old value", b32(4 * l), v[2][l]);
	LANES("buffer_atomic_cmpswap glc: the old value", b32(256 + 4 * l),
	      v[4][l]);
	TM(!memcmp(want, mem, SIZE), "atomics: add, cmpswap, smax_x2 (range)");
	T(m32(0) == b32(0) + 1 && m64(512) != 0);

	/* typed */
	fresh();
	vsharp(&w, 8, BUF, 0, 0x2000, 0);
	vsharp(&w, 12, BUF, 0, 0x2000, 11 << 15 | 5 << 12);
	TM(run(13) == 0, "typed buffers: run (%s)", st.what ? st.what : "");
	LANES("tbuffer 16_16 unorm x", fbits((float)b16(4 * l) / 65535.0f),
	      v[2][l]);
	LANES("tbuffer 16_16 unorm y", fbits((float)b16(4 * l + 2) / 65535.0f),
	      v[3][l]);
	LANES("tbuffer_store 8 uint", l, mem[BUF - BASE + 1024 + l]);
	LANES("buffer_load_format 32_32 sint x", b32(4 * l), v[4][l]);
	LANES("buffer_load_format 32_32 sint y", b32(4 * l + 4), v[5][l]);
	LANES("buffer_load_format: z 0", 0, v[6][l]);
	LANES("buffer_load_format: w 1", 1, v[7][l]);
	fresh();
	vsharp(&w, 8, BUF, 0, 0x2000, 0);
	TM(run(16) == HSAGPU_GCN_UNIMPLEMENTED, "tbuffer 10_11_11: refused");

	/* a V# elsewhere: the callbacks refuse it; the private one, idxen */
	fresh();
	vsharp(&w, 8, 0x7000000, 4, UINT32_MAX, 0);
	TM(run(15) == HSAGPU_GCN_MEM_FAULT && st.addr == 0x7000000,
	   "a V# outside memory: a fault at its address (0x%llx)",
	   (unsigned long long)st.addr);
	fresh();
	vsharp(&w, 8, HSAGPU_GCN_PRIVATE_BASE, 4, UINT32_MAX, 0);
	TM(run(15) == HSAGPU_GCN_UNIMPLEMENTED, "private V# with idxen: refused");
}

static void test_flat(void)
{
	fresh();
	w.s[12] = 0x10;
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
		v[3][l] = (0x1000 + l) << 16 | 0xeeee;
		v[6][l] = 4 * (l % 8);
		v[7][l] = HSAGPU_GCN_APERTURE_SHARED << 16;
		v[9][l] = 0x44445555;
		v[10][l] = 0x66660000;
		v[12][l] = (uint32_t)(BUF + 2 * l);
		v[13][l] = (BUF + 2 * l) >> 32;
		v[14][l] = 128;
		v[15][l] = HSAGPU_GCN_APERTURE_PRIVATE << 16;
	}
	TM(run(14) == 0, "scratch, d16, aperture atomics: run (%s)",
	   st.what ? st.what : "");
	LANES("scratch_store/load_dword", l, v[2][l]);
	LANES("scratch_store_short_d16_hi, load_ushort (SGPR offset)",
	      0x1000 + l, v[4][l]);
	LANES("flat_atomic_add in the LDS aperture: old",
	      (l / 8) * (l / 8 - 1) / 2 * 8 + (l / 8) * (l % 8), v[5][l]);
	LANES("... and the sum", 8 * 28 + 8 * (l % 8), v[8][l]);
	LANES("global_load_short_d16_hi", b16(2 * l) << 16 | 0x5555, v[9][l]);
	LANES("flat_load_sbyte_d16",
	      0x66660000 | (uint16_t)(int8_t)b8(2 * l), v[10][l]);
	LANES("flat_atomic_umax in the private aperture", l, v[11][l]);
}

static uint32_t rs = 0x9e3779b9;

static uint32_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 17;
	rs ^= rs << 5;
	return rs;
}

/*
 * v_readlane/v_writelane/v_readfirstlane: every lane number an SGPR can
 * give (0..127 and a few large ones, bits [5:0] kept), under EXEC masks
 * with none, one and many lanes (only v_readfirstlane looks at it)
 */
static void test_lanes(void)
{
	static const uint64_t execs[] = {
		0, 1, 1ULL << 63, 0xf7de1b3f00ff6ac4ULL, ~0ULL,
		0x0000010000000000ULL, 0x8000000080000000ULL,
	};
	unsigned bad = 0;

	for (unsigned n = 0; n < 140; n++) {
		uint32_t sel = n < 128 ? n : rnd(), wsel = rnd() % 7 ? rnd() : n;
		uint32_t msel = rnd(), val = rnd();
		uint64_t ex = n < 7 ? execs[n] : (uint64_t)rnd() << 32 | rnd();
		uint32_t in2[HSAGPU_GCN_WAVE], in3[HSAGPU_GCN_WAVE];
		uint32_t in4[HSAGPU_GCN_WAVE], in5[HSAGPU_GCN_WAVE];
		unsigned first = ex ? (unsigned)__builtin_ctzll(ex) : 0;
		int ok = 1;

		fresh();
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
			v[2][l] = in2[l] = rnd();
			v[3][l] = in3[l] = rnd();
			v[4][l] = in4[l] = rnd();
			v[5][l] = in5[l] = rnd();
		}
		w.exec = ex;
		w.s[4] = sel;
		w.s[5] = val;
		w.s[6] = wsel;
		w.m0 = msel;
		if (run(17)) {
			TM(0, "lanes: run (%s)", st.what ? st.what : "");
			return;
		}
		ok &= w.s[0] == in2[5];
		ok &= w.s[1] == in2[sel & 63];
		ok &= w.s[3] == in2[63];
		ok &= w.s[7] == in2[msel & 63];
		ok &= w.s[2] == in2[first];
		ok &= w.exec == ex;
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
			ok &= v[3][l] == (l == (val & 63) ? val : in3[l]);
			ok &= v[5][l] == (l == (wsel & 63) ? 0xfffffff9u : in5[l]);
			ok &= v[4][l] == (l == 0 ? val : in4[l]);
			ok &= v[2][l] == in2[l];
		}
		if (!ok && !bad++)
			TM(0, "lanes: sel 0x%x wsel 0x%x m0 0x%x exec 0x%llx: s0 "
			   "0x%x s1 0x%x s2 0x%x s3 0x%x s7 0x%x", sel, wsel,
			   msel, (unsigned long long)ex, w.s[0], w.s[1],
			   w.s[2], w.s[3], w.s[7]);
	}
	TM(!bad, "v_readlane (constant, SGPR, M0; -1 is 63), v_writelane "
	   "(SGPR lane, 64 is 0, an inline constant), v_readfirstlane: 140 runs, %u wrong", bad);
}

/* P18: which s<n> = 1 ran, for SCC (s10 == 0), VCC and EXEC */
static void test_branches(void)
{
	static const uint64_t masks[] = { 0, 1, 1ULL << 63, ~0ULL };
	unsigned bad = 0, runs = 0;

	for (unsigned z = 0; z < 2; z++)
		for (unsigned a = 0; a < 4; a++)
			for (unsigned b = 0; b < 4; b++) {
				uint32_t want[8];

				fresh();
				w.s[10] = z ? 0 : 0x100;
				w.vcc = masks[a];
				w.exec = masks[b];
				w.s[7] = 0;
				want[0] = 0;            /* s_branch: always */
				want[1] = z;            /* scc0 not taken */
				want[2] = !z;           /* scc1 not taken */
				want[3] = masks[a] != 0;
				want[4] = masks[a] == 0;
				want[5] = masks[b] != 0;
				want[6] = masks[b] == 0;
				want[7] = 5;
				runs++;
				if (run(18) || w.vcc != masks[a] ||
				    w.exec != masks[b] ||
				    memcmp(w.s, want, sizeof(want))) {
					if (!bad++)
						TM(0, "branches: scc %u vcc 0x%llx "
						   "exec 0x%llx: s0..s7 %u %u %u "
						   "%u %u %u %u %u (%s)", z,
						   (unsigned long long)masks[a],
						   (unsigned long long)masks[b],
						   w.s[0], w.s[1], w.s[2], w.s[3],
						   w.s[4], w.s[5], w.s[6], w.s[7],
						   st.what ? st.what : "");
				}
			}
	TM(!bad, "s_branch, s_cbranch_scc0/scc1/vccz/vccnz/execz/execnz, a "
	   "backward loop: %u runs, %u wrong", runs, bad);

	fresh();
	w.s[4] = (uint32_t)(prog[19] + 12);
	w.s[5] = (prog[19] + 12) >> 32;
	TM(run(19) == 0 && w.s[0] == 0 && w.s[1] == 3 && w.s[2] == 5 &&
	   ((uint64_t)w.s[7] << 32 | w.s[6]) == prog[19] + 4,
	   "s_swappc_b64 (return address), s_setpc_b64: s0 %u s1 %u s2 %u "
	   "s[6:7] 0x%llx (%s)", w.s[0], w.s[1], w.s[2],
	   (unsigned long long)((uint64_t)w.s[7] << 32 | w.s[6]),
	   st.what ? st.what : "");
}

/* P20: s_load_dwordx4/x8/x16 from the loaded image */
static void test_smem(void)
{
	int ok = 1;

	for (unsigned n = 0; n < 4; n++) {
		uint64_t base = BUF + 0x100 * n + n;   /* low bits ignored */
		uint32_t off = 0x40 + 4 * n;

		fresh();
		w.s[10] = (uint32_t)base;
		w.s[11] = base >> 32;
		w.s[12] = off + (n & 1 ? 3 : 0);
		ok = run(20) == 0;
		for (unsigned k = 0; ok && k < 4; k++)
			ok = w.s[16 + k] == b32((base & ~3ULL) + 0x10 - BUF +
						4 * k);
		for (unsigned k = 0; ok && k < 8; k++)
			ok = w.s[24 + k] == b32((base & ~3ULL) + 0x24 - BUF +
						4 * k);
		for (unsigned k = 0; ok && k < 16; k++)
			ok = w.s[32 + k] == b32(((base + w.s[12]) & ~3ULL) -
						BUF + 4 * k);
		if (!ok)
			break;
	}
	TM(ok, "s_load_dwordx4/x8 (immediate offset), x16 (SGPR offset), "
	   "unaligned bases (%s)", st.what ? st.what : "");
}

/*
 * P35: scalar stores (kfdtest's CopyOnSignalIsa stores with
 * s_store_dword) and the buffer forms with their range
 */
static void test_smem_store(void)
{
	static const uint32_t val[4] = { 0x11, 0x22, 0x33, 0x44 };
	uint32_t want[8], want16[16];
	int ok;

	fresh();
	memcpy(&w.s[4], val, sizeof(val));
	w.s[8] = w.s[9] = 0x55;
	w.s[10] = (uint32_t)(BUF + 0x200);
	w.s[11] = (BUF + 0x200) >> 32;
	w.s[12] = 0x20;
	w.s[13] = 8;
	vsharp(&w, 20, BUF + 0x300, 0, 24, 0);
	ok = run(35) == 0;
	TM(ok, "P35 ran (%s)", st.what ? st.what : "");
	T(m32(0x200) == 0x11 && m32(0x204) == b32(0x204));
	T(m32(0x208) == 0x11 && m32(0x20c) == 0x22);
	T(m32(0x220) == 0x11 && m32(0x224) == 0x22 && m32(0x228) == 0x33 &&
	  m32(0x22c) == 0x44);
	for (unsigned k = 0; k < 8; k++)
		want[k] = 4 + 4 * k + 4 <= 24 ? b32(0x304 + 4 * k) : 0;
	TM(!memcmp(&w.s[24], want, sizeof(want)),
	   "s_buffer_load_dwordx8 past num_records: s24 %#x s29 %#x s31 %#x",
	   w.s[24], w.s[29], w.s[31]);
	/* (0x314 is written again below) */
	T(m32(0x310) == 0x11 && m32(0x318) == b32(0x318) &&
	  m32(0x31c) == b32(0x31c));
	T(w.s[32] == b32(0x308));
	T(w.s[34] == b32(0x300) && w.s[35] == b32(0x304));
	T(w.s[36] == 0x22 && !w.s[37] && !w.s[38] && !w.s[39]);
	for (unsigned k = 0; k < 16; k++)
		want16[k] = k < 4 ? b32(0x300 + 4 * k) : k == 4 ? 0x11 :
			    k == 5 ? 0x22 : 0;
	T(!memcmp(&w.s[40], want16, sizeof(want16)));
	T(m32(0x300) == 0x55 && m32(0x314) == 0x55 &&
	  m32(0x318) == b32(0x318));
}

/* the CPU's LDS for P21, written lane by lane in order */
static uint8_t mlds[1024];

static void lw(uint32_t a, const uint32_t *src, unsigned n)
{
	memcpy(mlds + a, src, 4 * n);
}

static void lr(uint32_t a, uint32_t *dst, unsigned n)
{
	memcpy(dst, mlds + a, 4 * n);
}

/*
 * P21: ds_write2st64, wrxchg2st64_rtn (b32, b64), write2_b64,
 * wrxchg2_rtn_b64, write_b96, write_b128 under a partial EXEC, against
 * the same writes done here in the ISA's order (ADDR0 then ADDR1)
 */
static void test_ds_wide(void)
{
	static const uint64_t ex = 0xf7de1b3f00ff6ac5ULL;
	uint32_t in[NV][HSAGPU_GCN_WAVE], want[NV][HSAGPU_GCN_WAVE];
	int ok = 1;

	fresh();
	for (unsigned k = 0; k < sizeof(lds); k++)
		lds[k] = mlds[k] = (uint8_t)(k * 29 + 7);
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
		for (unsigned r = 2; r < NV; r++)
			v[r][l] = rnd();
		v[1][l] = 4 * l;
		v[8][l] = 8 * l;
		v[9][l] = 16 * l;
	}
	memcpy(in, v, sizeof(in));
	memcpy(want, v, sizeof(want));
	w.exec = ex;
	TM(run(21) == 0, "LDS pair and wide writes: run (%s)",
	   st.what ? st.what : "");
#define ON(l) ((ex >> (l)) & 1)
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
		if (ON(l)) {
			lw(4 * l + 256, &in[2][l], 1);
			lw(4 * l + 768, &in[3][l], 1);
		}
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
		if (ON(l)) {
			lr(4 * l, &want[10][l], 1);
			lw(4 * l, &in[4][l], 1);
			lr(4 * l + 512, &want[11][l], 1);
			lw(4 * l + 512, &in[5][l], 1);
		}
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
		if (ON(l)) {
			uint32_t a[2] = { in[12][l], in[13][l] };
			uint32_t b[2] = { in[14][l], in[15][l] };

			lw(16 * l, a, 2);
			lw(16 * l + 8, b, 2);
		}
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
		if (ON(l)) {
			uint32_t a[2] = { in[16][l], in[17][l] };
			uint32_t b[2] = { in[18][l], in[19][l] };

			lw(8 * l, a, 2);
			lw(8 * l + 512, b, 2);
		}
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
		if (ON(l)) {
			uint32_t a[2] = { in[14][l], in[15][l] };
			uint32_t b[2] = { in[12][l], in[13][l] };
			uint32_t o[4];

			lr(16 * l + 8, o, 2);
			lw(16 * l + 8, a, 2);
			lr(16 * l, o + 2, 2);
			lw(16 * l, b, 2);
			for (unsigned k = 0; k < 4; k++)
				want[20 + k][l] = o[k];
		}
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
		if (ON(l)) {
			uint32_t a[2] = { in[18][l], in[19][l] };
			uint32_t b[2] = { in[16][l], in[17][l] };
			uint32_t o[4];

			lr(8 * l, o, 2);
			lw(8 * l, a, 2);
			lr(8 * l + 512, o + 2, 2);
			lw(8 * l + 512, b, 2);
			for (unsigned k = 0; k < 4; k++)
				want[24 + k][l] = o[k];
		}
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
		if (ON(l)) {
			uint32_t a[3] = { in[28][l], in[29][l], in[30][l] };

			lw(16 * l + 4, a, 3);
		}
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
		if (ON(l) && 16 * l + 512 + 16 <= sizeof(mlds)) {
			uint32_t a[4] = { in[12][l], in[13][l], in[14][l],
					  in[15][l] };

			lw(16 * l + 512, a, 4);
		}
#undef ON
	for (unsigned r = 0; r < NV; r++)
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
			if (v[r][l] != want[r][l] && ok) {
				ok = 0;
				TM(0, "LDS writes: v%u lane %u 0x%x, want 0x%x", r,
				   l, v[r][l], want[r][l]);
			}
	TM(ok, "ds_wrxchg2st64_rtn_b32/b64, ds_wrxchg2_rtn_b64: the old "
	   "values (EXEC's lanes; the others keep theirs)");
	TM(!memcmp(lds, mlds, sizeof(lds)), "ds_write2st64_b32/b64, "
	   "ds_write2_b64, ds_wrxchg2(st64), ds_write_b96/b128: the LDS "
	   "after");
}

/*
 * P22-P30: every width, sign, d16 half, atomic and format of the vector
 * memory instructions, on 64 lanes under a full and a partial EXEC,
 * against the same accesses done here (rin: the registers before; rwant
 * and wm: the registers and the memory worked out; the ISA's
 * definitions, not the interpreter's code)
 */
#define EXP     0xf7de1b3f00ff6ac5ULL   /* a partial EXEC */
#define ON(ex, l) (((ex) >> (l)) & 1)

static uint32_t rin[NV][HSAGPU_GCN_WAVE], rwant[NV][HSAGPU_GCN_WAVE];
static uint8_t wm[SIZE];
static unsigned perm[HSAGPU_GCN_WAVE];

static uint64_t rnd64(void)
{
	uint64_t hi = rnd();

	return hi << 32 | rnd();
}

/* every register from v2 on random, and a random permutation of lanes */
static void randomize(void)
{
	for (unsigned r = 2; r < NV; r++)
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
			v[r][l] = rnd();
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
		perm[l] = l;
	for (unsigned l = HSAGPU_GCN_WAVE - 1; l > 0; l--) {
		unsigned j = rnd() % (l + 1), t = perm[l];

		perm[l] = perm[j];
		perm[j] = t;
	}
}

/* the registers and memory as the program starts */
static void snap(void)
{
	memcpy(rin, v, sizeof(rin));
	memcpy(rwant, v, sizeof(rwant));
	memcpy(wm, mem, SIZE);
}

/* @n little-endian bytes of image @img at address @a */
static uint64_t get(const uint8_t *img, uint64_t a, unsigned n)
{
	uint64_t x = 0;

	for (unsigned k = 0; k < n; k++)
		x |= (uint64_t)img[a - BASE + k] << 8 * k;
	return x;
}

static void put(uint8_t *img, uint64_t a, uint64_t x, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		img[a - BASE + k] = (uint8_t)(x >> 8 * k);
}

static void set64(unsigned r, unsigned l, uint64_t x)
{
	v[r][l] = (uint32_t)x;
	v[r + 1][l] = x >> 32;
}

static uint64_t reg(uint32_t (*f)[HSAGPU_GCN_WAVE], unsigned r, unsigned l,
		    unsigned bits)
{
	return f[r][l] | (bits == 64 ? (uint64_t)f[r + 1][l] << 32 : 0);
}

/* every register and byte against rwant and wm */
static void compare(const char *what)
{
	unsigned bad = 0, mb = 0, r0 = 0, l0 = 0;
	size_t m0 = 0;

	for (unsigned r = 0; r < NV; r++)
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
			if (v[r][l] != rwant[r][l] && !bad++) {
				r0 = r;
				l0 = l;
			}
	for (size_t k = 0; k < SIZE; k++)
		if (mem[k] != wm[k] && !mb++)
			m0 = k;
	TM(!bad && !mb, "%s: %u registers wrong (v%u lane %u: 0x%x, want "
	   "0x%x), %u bytes (at 0x%llx: 0x%x, want 0x%x)", what, bad, r0, l0,
	   v[r0][l0], rwant[r0][l0], mb, (unsigned long long)(BASE + m0),
	   mem[m0], wm[m0]);
}

/* P22: FLAT/GLOBAL loads; coalesced blocks (EXEC all or a run), lanes */
static void test_flat_loads(void)
{
	static const uint64_t execs[] = { ~0ULL, EXP, 0x000001ffffffffe0ULL };

	for (unsigned c = 0; c < 3; c++) {
		uint64_t ex = execs[c], s = c == 1 ? BUF + 0x2000 : BUF + 16;
		char what[80];

		fresh();
		randomize();
		w.s[10] = (uint32_t)s;
		w.s[11] = s >> 32;
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
			set64(2, l, c == 1 ? BUF + 0x100 + 4 * (rnd() % 0x800)
					   : BUF + 16 + 16 * l);
			v[4][l] = c == 1 ? 4 * (rnd() % 0x800) + 16 : 16 * l;
		}
		w.exec = ex;
		snap();
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
			uint64_t a = reg(rin, 2, l, 64), g = s + rin[4][l];

			if (!ON(ex, l))
				continue;
			rwant[10][l] = get(wm, a + 1, 1);
			rwant[11][l] = (uint32_t)(int8_t)get(wm, a + 3, 1);
			rwant[12][l] = (uint32_t)(int8_t)get(wm, g - 1, 1);
			rwant[13][l] = (uint32_t)(int16_t)get(wm, a + 2, 2);
			rwant[14][l] = (uint32_t)(int16_t)get(wm, a - 2, 2);
			rwant[15][l] = get(wm, a - 3, 1);
			for (unsigned k = 0; k < 2; k++)
				rwant[16 + k][l] = get(wm, a + 4 * k, 4);
			for (unsigned k = 0; k < 3; k++)
				rwant[18 + k][l] = get(wm, g + 4 + 4 * k, 4);
			for (unsigned k = 0; k < 4; k++)
				rwant[21 + k][l] = get(wm, a + 4 * k, 4);
			rwant[25][l] = (rin[25][l] & 0xffff0000u) |
				       get(wm, a + 5, 1);
			rwant[26][l] = (rin[26][l] & 0xffff) |
				       get(wm, a + 6, 1) << 16;
			rwant[27][l] = (rin[27][l] & 0xffff) |
				       (uint32_t)(uint16_t)(int8_t)
				       get(wm, g + 7, 1) << 16;
			rwant[28][l] = (rin[28][l] & 0xffff0000u) |
				       get(wm, a + 2, 2);
			for (unsigned k = 0; k < 4; k++)
				rwant[30 + k][l] = get(wm, g - 16 + 4 * k, 4);
		}
		snprintf(what, sizeof(what), "FLAT/GLOBAL loads, EXEC 0x%llx",
			 (unsigned long long)ex);
		TM(run(22) == 0, "%s: run (%s)", what, st.what ? st.what : "");
		compare(what);
	}
}

/* P23: FLAT/GLOBAL stores, each lane its 48-byte slot (permuted) */
static void test_flat_stores(void)
{
	for (unsigned c = 0; c < 2; c++) {
		uint64_t ex = c ? EXP : ~0ULL, s = BUF + 0x1000;

		fresh();
		randomize();
		w.s[10] = (uint32_t)s;
		w.s[11] = s >> 32;
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
			v[4][l] = 48 * perm[l];
			set64(2, l, s + 48 * perm[l]);
		}
		w.exec = ex;
		snap();
		for (unsigned i = 0; i < 10; i++)
			for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
				uint64_t a = s + 48 * perm[l];

				if (!ON(ex, l))
					continue;
				switch (i) {
				case 0:
					put(wm, a, rin[10][l], 1);
					break;
				case 1:
					put(wm, a + 1, rin[10][l] >> 16, 1);
					break;
				case 2:
					put(wm, a + 2, rin[11][l], 1);
					break;
				case 3:
					put(wm, a + 3, rin[11][l] >> 16, 1);
					break;
				case 4:
					put(wm, a + 4, rin[12][l], 2);
					break;
				case 5:
					put(wm, a + 6, rin[13][l], 2);
					break;
				case 6:
					for (unsigned k = 0; k < 2; k++)
						put(wm, a + 8 + 4 * k,
						    rin[14 + k][l], 4);
					break;
				case 7:
					for (unsigned k = 0; k < 3; k++)
						put(wm, a + 16 + 4 * k,
						    rin[16 + k][l], 4);
					break;
				case 8:
					for (unsigned k = 0; k < 4; k++)
						put(wm, a + 28 + 4 * k,
						    rin[19 + k][l], 4);
					break;
				default:
					for (unsigned k = 0; k < 4; k++)
						put(wm, a - 16 + 4 * k,
						    rin[23 + k][l], 4);
				}
			}
		TM(run(23) == 0, "FLAT/GLOBAL stores: run (%s)",
		   st.what ? st.what : "");
		compare(c ? "FLAT/GLOBAL stores (byte, d16_hi, short, x2-x4), "
			"partial EXEC" : "FLAT/GLOBAL stores, EXEC all");
	}
}

enum {
	R_SWAP, R_CMPSWAP, R_ADD, R_SUB, R_SMIN, R_UMIN, R_SMAX, R_UMAX,
	R_AND, R_OR, R_XOR, R_INC, R_DEC,
};

static int64_t sx(uint64_t x, unsigned bits)
{
	return bits == 64 ? (int64_t)x : (int64_t)(int32_t)x;
}

/* What atomic @k leaves in a word of @bits that held @old (the ISA's) */
static uint64_t ref_atomic(unsigned k, unsigned bits, uint64_t old,
			   uint64_t src, uint64_t cmp)
{
	uint64_t m = bits == 64 ? ~0ULL : 0xffffffffULL;

	switch (k) {
	case R_SWAP:
		return src;
	case R_CMPSWAP:
		return old == cmp ? src : old;
	case R_ADD:
		return (old + src) & m;
	case R_SUB:
		return (old - src) & m;
	case R_SMIN:
		return sx(src, bits) < sx(old, bits) ? src : old;
	case R_UMIN:
		return src < old ? src : old;
	case R_SMAX:
		return sx(src, bits) > sx(old, bits) ? src : old;
	case R_UMAX:
		return src > old ? src : old;
	case R_AND:
		return old & src;
	case R_OR:
		return old | src;
	case R_XOR:
		return old ^ src;
	case R_INC:                     /* unsigned: 0 once it reaches src */
		return old >= src ? 0 : old + 1;
	default:                        /* R_DEC: src from 0 or above src */
		return old == 0 || old > src ? src : old - 1;
	}
}

/* an atomic's data: the limits, 0, else random */
static uint64_t adata(unsigned bits, unsigned l)
{
	uint64_t m = bits == 64 ? ~0ULL : 0xffffffffULL;

	switch (l % 8) {
	case 7:
		return 0;
	case 6:
		return m;
	case 5:
		return m >> 1;
	case 4:
		return (m >> 1) + 1;
	default:
		return rnd64() & m;
	}
}

/* the word atomic @k finds, chosen to reach each case of its definition */
static uint64_t astart(unsigned k, unsigned bits, uint64_t src, uint64_t cmp,
		       unsigned l)
{
	uint64_t m = bits == 64 ? ~0ULL : 0xffffffffULL, r = rnd64() & m;

	switch (k) {
	case R_CMPSWAP:
		return l % 2 ? r : cmp;
	case R_INC:
		return l % 4 == 0 ? src : l % 4 == 1 ? r : l % 4 == 2 ? src / 2
								 : m;
	case R_DEC:
		return l % 4 == 0 ? 0 : l % 4 == 1 ? src : l % 4 == 2 ? r
								 : src / 2 + 1;
	case R_SMIN:
	case R_SMAX:
	case R_UMIN:
	case R_UMAX:
		return l % 5 == 0 ? src : l % 5 == 1 ? src ^ (1ULL << (bits - 1))
						     : r;
	default:
		return r;
	}
}

/*
 * One atomic of the programs below: @kind on @bits, lane l's word at
 * @at + step x perm[l]; data (and cmpswap's compare after it) from
 * register @data, the old value into @ret (none: -1). atom_ref() does
 * them in order; with @nrec a lane whose offset + size passes it is out
 * of range (buffers: 0 returned, memory kept).
 */
typedef struct Atom {
	unsigned kind, bits;
	uint64_t at;
	int data, ret;
} Atom;

static void atom_prefill(const Atom *a, unsigned step)
{
	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
		uint64_t src = reg(v, a->data, l, a->bits);
		uint64_t cmp = reg(v, a->data + a->bits / 32, l, a->bits);

		put(mem, a->at + step * perm[l],
		    astart(a->kind, a->bits, src, cmp, l), a->bits / 8);
	}
}

static void atom_ref(const Atom *a, unsigned step, uint64_t ex,
		     uint64_t nrec)
{
	unsigned n = a->bits / 8;

	for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
		uint64_t at = a->at + step * perm[l], old;
		uint64_t src = reg(rin, a->data, l, a->bits);
		uint64_t cmp = reg(rin, a->data + a->bits / 32, l, a->bits);

		if (!ON(ex, l))
			continue;
		if (nrec && step * perm[l] + n > nrec) {
			old = 0;                /* out of range: 0, dropped */
		} else {
			old = get(wm, at, n);
			put(wm, at, ref_atomic(a->kind, a->bits, old, src, cmp),
			    n);
		}
		if (a->ret >= 0) {
			rwant[a->ret][l] = (uint32_t)old;
			if (a->bits == 64)
				rwant[a->ret + 1][l] = old >> 32;
		}
	}
}

static const char *const mem_name[2] = {
	"read and write", "the memory's atomics",
};

/* P24, P25: FLAT/GLOBAL atomics, distinct addresses */
static void test_flat_atomics(void)
{
	static const unsigned k32[] = {
		R_SWAP, R_CMPSWAP, R_SUB, R_SMIN, R_UMIN, R_SMAX, R_AND, R_OR,
		R_XOR, R_INC, R_DEC,
	};
	static const unsigned k64[] = {
		R_SWAP, R_CMPSWAP, R_ADD, R_SUB, R_SMIN, R_UMIN, R_SMAX, R_UMAX,
		R_AND, R_OR, R_XOR, R_INC, R_DEC,
	};

	for (unsigned mo = 0; mo < 2; mo++)
		for (unsigned c = 0; c < 2; c++) {
			uint64_t ex = c ? EXP : ~0ULL;
			uint64_t a0 = BUF + 0x2000, g0 = BUF + 0x3000;
			Atom at[2 * 13];
			char what[120];

			cur_mem = mo ? &fmem_at : &fmem;
			/* P24: 32 bits */
			fresh();
			randomize();
			for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
				set64(2, l, a0 + 4 * perm[l]);
				v[4][l] = 4 * perm[l];
				v[10][l] = adata(32, l);
			}
			w.s[10] = (uint32_t)g0;
			w.s[11] = g0 >> 32;
			for (unsigned k = 0; k < 11; k++) {
				at[k] = (Atom) { k32[k], 32, a0 + 256 * k, 10,
						 12 + k };
				at[11 + k] = (Atom) { k32[k], 32, g0 + 256 * k,
						      10, -1 };
				atom_prefill(&at[k], 4);
				atom_prefill(&at[11 + k], 4);
			}
			w.exec = ex;
			snap();
			for (unsigned k = 0; k < 22; k++)
				atom_ref(&at[k], 4, ex, 0);
			snprintf(what, sizeof(what), "FLAT/GLOBAL 32-bit atomics "
				 "(%s), EXEC 0x%llx", mem_name[mo],
				 (unsigned long long)ex);
			TM(run(24) == 0, "%s: run (%s)", what,
			   st.what ? st.what : "");
			compare(what);

			/* P25: 64 bits */
			fresh();
			randomize();
			g0 = BUF + 0x4000;
			for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
				set64(2, l, a0 + 8 * perm[l]);
				set64(6, l, a0 + 4096 + 8 * perm[l]);
				v[4][l] = 8 * perm[l];
				set64(10, l, adata(64, l));
			}
			w.s[10] = (uint32_t)(g0 + 4096);
			w.s[11] = (g0 + 4096) >> 32;
			for (unsigned k = 0; k < 13; k++) {
				at[k] = (Atom) { k64[k], 64, a0 + 512 * k, 10,
						 14 + 2 * k };
				at[13 + k] = (Atom) { k64[k], 64, g0 + 512 * k,
						      10, -1 };
				atom_prefill(&at[k], 8);
				atom_prefill(&at[13 + k], 8);
			}
			w.exec = ex;
			snap();
			for (unsigned k = 0; k < 26; k++)
				atom_ref(&at[k], 8, ex, 0);
			snprintf(what, sizeof(what), "FLAT/GLOBAL 64-bit atomics "
				 "(%s), EXEC 0x%llx", mem_name[mo],
				 (unsigned long long)ex);
			TM(run(25) == 0, "%s: run (%s)", what,
			   st.what ? st.what : "");
			compare(what);
		}
	cur_mem = &fmem;
}

/*
 * P26: every lane on one word. The lanes' order is not defined: for the
 * chained ones the old values returned must link the word's first value
 * to its last through each active lane once (the order they ran in);
 * for the others (no old value, or or's) the total, which any order gives
 */
static void test_same_address(void)
{
	static const struct {
		unsigned kind, bits, off;
		int data, ret;
		bool chain;
	} op[] = {
		{ R_SUB, 32, 0, 10, 12, true },
		{ R_INC, 32, 8, 17, 13, true },
		{ R_DEC, 32, 16, 17, 14, true },
		{ R_SWAP, 32, 24, 10, 15, true },
		{ R_CMPSWAP, 32, 32, 10, 16, true },
		{ R_OR, 32, 40, 19, 18, false },
		{ R_XOR, 32, 48, 19, -1, false },
		{ R_SMIN, 32, 56, 20, -1, false },
		{ R_ADD, 64, 64, 24, 22, true },
		{ R_SUB, 64, 72, 24, 26, true },
		{ R_UMIN, 64, 80, 24, -1, false },
		{ R_INC, 64, 88, 30, 28, true },
		{ R_SUB, 32, 96, 32, 32, true },
		{ R_ADD, 64, 104, 34, 34, true },
		{ R_CMPSWAP, 64, 112, 36, 36, true },
		{ R_DEC, 64, 120, 40, 40, true },
		{ R_XOR, 64, 128, 42, -1, false },
		{ R_UMAX, 64, 136, 44, -1, false },
		{ R_AND, 32, 144, 46, -1, false },
		{ R_OR, 64, 152, 48, -1, false },
	};
	const unsigned nop = sizeof(op) / sizeof(op[0]);

	for (unsigned mo = 0; mo < 2; mo++)
		for (unsigned c = 0; c < 2; c++) {
			uint64_t ex = c ? EXP : ~0ULL, a = BUF + 0x6000;
			unsigned bad = 0, which = 0;

			cur_mem = mo ? &fmem_at : &fmem;
			fresh();
			randomize();
			vsharp(&w, 8, a, 0, 0x1000, 0);
			for (unsigned k = 0; k < 160; k += 4)
				put(mem, a + k, rnd(), 4);
			put(mem, a + 8, 70, 4);         /* inc to 100, wraps */
			put(mem, a + 16, 30, 4);        /* dec to 0, wraps */
			put(mem, a + 88, (1ULL << 40) - 20, 8);
			put(mem, a + 120, 10, 8);
			for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
				set64(2, l, a);
				v[10][l] = 1 + rnd() % 0x100000;
				v[11][l] = get(mem, a + 32, 4);
				v[17][l] = 100;
				set64(30, l, (1ULL << 40) + 5);
				v[32][l] = 1 + rnd() % 0x100000;
				set64(38, l, get(mem, a + 112, 8));
				set64(40, l, 1ULL << 33);
			}
			w.exec = ex;
			snap();
			TM(run(26) == 0, "same-address atomics: run (%s)",
			   st.what ? st.what : "");
			for (unsigned i = 0; i < nop; i++) {
				unsigned bits = op[i].bits, n = bits / 8;
				uint64_t at = a + op[i].off;
				uint64_t cur = get(wm, at, n), init = cur;
				uint64_t used = 0, fin = cur;
				int ok = 1;

				/* the total, lanes in order */
				for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
					if (ON(ex, l))
						fin = ref_atomic(op[i].kind, bits,
							fin, reg(rin, op[i].data,
								 l, bits),
							reg(rin, op[i].data +
							    bits / 32, l, bits));
				for (unsigned l = 0; op[i].chain &&
				     l < HSAGPU_GCN_WAVE; l++) {
					unsigned f = HSAGPU_GCN_WAVE;

					if (!ON(ex, l))
						continue;
					for (unsigned j = 0; j < HSAGPU_GCN_WAVE;
					     j++)
						if (ON(ex, j) && !(used >> j & 1) &&
						    reg(v, op[i].ret, j, bits) ==
						    cur) {
							f = j;
							break;
						}
					if (f == HSAGPU_GCN_WAVE) {
						ok = 0;
						break;
					}
					used |= 1ULL << f;
					cur = ref_atomic(op[i].kind, bits, cur,
							 reg(rin, op[i].data, f,
							     bits),
							 reg(rin, op[i].data +
							     bits / 32, f,
							     bits));
				}
				if (op[i].chain) {
					fin = cur;
				} else if (op[i].ret >= 0) {
					/* or: between the first and the last */
					for (unsigned l = 0;
					     l < HSAGPU_GCN_WAVE; l++) {
						uint64_t o = reg(v, op[i].ret, l,
								 bits);

						if (ON(ex, l) &&
						    ((o & ~fin) || (init & ~o)))
							ok = 0;
					}
				}
				if (!ok && !bad++)
					which = i;
				put(wm, at, fin, n);
				for (unsigned l = 0; op[i].ret >= 0 &&
				     l < HSAGPU_GCN_WAVE; l++)
					if (ON(ex, l)) {
						rwant[op[i].ret][l] =
							v[op[i].ret][l];
						if (bits == 64)
							rwant[op[i].ret + 1][l] =
								v[op[i].ret + 1][l];
					}
			}
			TM(!bad, "same address (%s), EXEC 0x%llx: the old "
			   "values chain (%u wrong, first the word at +%u)",
			   mem_name[mo], (unsigned long long)ex, bad,
			   op[which].off);
			compare("same address: the totals, the other lanes "
				"and registers");
		}
	cur_mem = &fmem;
}

/* P27, P28: buffer atomics, distinct words, num_records cutting off */
static void test_buffer_atomics(void)
{
	static const unsigned k32[] = {
		R_SWAP, R_SUB, R_SMIN, R_UMIN, R_SMAX, R_UMAX, R_AND, R_OR,
		R_XOR, R_INC, R_DEC,
	};
	static const unsigned k64[] = {
		R_SWAP, R_CMPSWAP, R_ADD, R_SUB, R_SMIN, R_UMIN, R_UMAX, R_AND,
		R_OR, R_XOR, R_INC, R_DEC,
	};

	for (unsigned mo = 0; mo < 2; mo++)
		for (unsigned c = 0; c < 2; c++) {
			uint64_t ex = c ? EXP : ~0ULL, r0 = BUF + 0x7000;
			Atom at[24];
			char what[120];

			cur_mem = mo ? &fmem_at : &fmem;
			fresh();
			randomize();
			vsharp(&w, 8, r0, 0, 200, 0);
			for (unsigned j = 0; j < 22; j++) {
				w.s[20 + j] = 256 * j;
				for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
					v[12 + j][l] = adata(32, l);
			}
			for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
				v[1][l] = 4 * perm[l];
			for (unsigned j = 0; j < 22; j++) {
				at[j] = (Atom) { k32[j % 11], 32, r0 + 256 * j,
						 12 + j, j < 11 ? 12 + (int)j
								: -1 };
				atom_prefill(&at[j], 4);
			}
			w.exec = ex;
			snap();
			for (unsigned j = 0; j < 22; j++)
				atom_ref(&at[j], 4, ex, 200);
			snprintf(what, sizeof(what), "buffer 32-bit atomics, "
				 "num_records 200 (%s), EXEC 0x%llx",
				 mem_name[mo], (unsigned long long)ex);
			TM(run(27) == 0, "%s: run (%s)", what,
			   st.what ? st.what : "");
			compare(what);

			fresh();
			randomize();
			r0 = BUF + 0x8000;
			vsharp(&w, 8, r0, 0, 400, 0);
			for (unsigned j = 0; j < 24; j++)
				w.s[20 + j] = 512 * j;
			for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
				v[1][l] = 8 * perm[l];
			for (unsigned j = 0; j < 24; j++) {
				unsigned k = j % 12;
				int r = 12 + 2 * k + (k >= 2 ? 2 : 0) +
					(j >= 12 ? 26 : 0);

				for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++)
					set64(r, l, adata(64, l));
				at[j] = (Atom) { k64[k], 64, r0 + 512 * j, r,
						 j < 12 ? r : -1 };
				atom_prefill(&at[j], 8);
			}
			w.exec = ex;
			snap();
			for (unsigned j = 0; j < 24; j++)
				atom_ref(&at[j], 8, ex, 400);
			snprintf(what, sizeof(what), "buffer 64-bit atomics, "
				 "num_records 400 (%s), EXEC 0x%llx",
				 mem_name[mo], (unsigned long long)ex);
			TM(run(28) == 0, "%s: run (%s)", what,
			   st.what ? st.what : "");
			compare(what);
		}
	cur_mem = &fmem;
}

/*
 * P29: raw buffer loads and stores of each width, num_records 100 (loads)
 * and 115 (stores: a dwordx4 with three dwords in range, 2 out)
 */
static void test_buffer_widths(void)
{
	for (unsigned c = 0; c < 2; c++) {
		uint64_t ex = c ? EXP : ~0ULL, s = BUF + 0x1000;

		fresh();
		randomize();
		vsharp(&w, 8, BUF, 0, 100, 0);
		vsharp(&w, 12, s, 0, 115, 0);
		w.s[16] = 7;
		for (unsigned j = 0; j < 5; j++)
			w.s[20 + j] = 0x400 * j;
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
			v[1][l] = 4 * l;
			v[5][l] = 3 * l;
			v[6][l] = 2 * l;
			v[7][l] = 12 * l;
			v[8][l] = 16 * l;
		}
		w.exec = ex;
		snap();
#define IN(o, n) ((o) + (n) <= 100)
#define INS(o, n) ((o) + (n) <= 115)
#define LD(o, n) (IN(o, n) ? (uint32_t)get(wm, BUF + (o), n) : 0)
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
			if (!ON(ex, l))
				continue;
			rwant[10][l] = LD(3 * l, 1);
			rwant[11][l] = (uint32_t)(int8_t)LD(3 * l + 1, 1);
			rwant[12][l] = IN(2 * l + 1, 2) ?
				       get(wm, BUF + 7 + 2 * l + 1, 2) : 0;
			for (unsigned k = 0; k < 2; k++)
				rwant[13 + k][l] = LD(4 * l + 4 + 4 * k, 4);
			for (unsigned k = 0; k < 3; k++)
				rwant[15 + k][l] = LD(4 * l + 4 * k, 4);
			rwant[18][l] = (rin[18][l] & 0xffff0000u) |
				       LD(3 * l + 2, 1);
			rwant[19][l] = (rin[19][l] & 0xffff) |
				       (uint32_t)(uint16_t)(int8_t)LD(3 * l, 1)
				       << 16;
			rwant[20][l] = (rin[20][l] & 0xffff) | LD(2 * l, 2) << 16;
		}
		for (unsigned i = 0; i < 5; i++)
			for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
				uint64_t r = s + 0x400 * i;

				if (!ON(ex, l))
					continue;
				if (i == 0 && INS(3 * l, 1))
					put(wm, r + 3 * l, rin[21][l], 1);
				if (i == 1 && INS(3 * l + 1, 1))
					put(wm, r + 3 * l + 1, rin[21][l] >> 16,
					    1);
				if (i == 2 && INS(2 * l + 1, 2))
					put(wm, r + 2 * l + 1, rin[22][l], 2);
				for (unsigned k = 0; i == 3 && k < 3; k++)
					if (INS(12 * l + 4 * k, 4))
						put(wm, r + 12 * l + 4 * k,
						    rin[23 + k][l], 4);
				for (unsigned k = 0; i == 4 && k < 4; k++)
					if (INS(16 * l + 4 + 4 * k, 4))
						put(wm, r + 16 * l + 4 + 4 * k,
						    rin[26 + k][l], 4);
			}
#undef LD
#undef INS
#undef IN
		TM(run(29) == 0, "buffer widths: run (%s)",
		   st.what ? st.what : "");
		compare(c ? "buffer loads and stores of each width, d16, "
			"num_records (dword by dword), partial EXEC" :
			"buffer loads and stores of each width, EXEC all");
	}
}

static float bitsf(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* IEEE binary16 to binary32: exact (denormals kept), NaNs quiet */
static uint32_t ref_h2f(uint32_t h)
{
	uint32_t s = (h >> 15 & 1) << 31, e = h >> 10 & 31, m = h & 0x3ff;

	if (e == 31)
		return s | 0x7f800000 | m << 13 | (m ? 0x400000 : 0);
	if (e)
		return s | (e + 112) << 23 | m << 13;
	return s | fbits(ldexpf((float)m, -24));        /* m x 2^-24 */
}

/* binary32 (not a NaN) to binary16, to nearest even */
static uint32_t ref_f2h(uint32_t u)
{
	double a = fabs((double)bitsf(u)), q;
	uint32_t s = (u >> 31) << 15;
	int e;

	if (a >= 65520.0)               /* past 65504's half ulp: inf */
		return s | 0x7c00;
	if (a < ldexp(1, -14))          /* denormal: units of 2^-24 */
		return s | (uint32_t)nearbyint(a * 16777216.0);
	frexp(a, &e);                   /* 2^(e-1) <= a < 2^e */
	q = nearbyint(ldexp(a, 11 - e));        /* 1024..2048 */
	return s | (((uint32_t)(e - 1 + 15) << 10) + ((uint32_t)q - 1024));
}

/* the number formats of a component of @b bits, loaded (as floats) */
static uint32_t ref_unorm(uint32_t c, unsigned b)
{
	return fbits((float)((double)c / (double)((1u << b) - 1)));
}

static uint32_t ref_snorm(uint32_t c, unsigned b)
{
	int32_t sc = c >> (b - 1) & 1 ? (int32_t)c - (1 << b) : (int32_t)c;
	double d = (double)sc / (double)((1 << (b - 1)) - 1);

	return fbits((float)(d < -1 ? -1 : d));        /* -2^(b-1): -1 */
}

static uint32_t ref_sscaled(uint32_t c, unsigned b)
{
	int32_t sc = c >> (b - 1) & 1 ? (int32_t)c - (1 << b) : (int32_t)c;

	return fbits((float)sc);
}

/* and stored: clamped, scaled, to nearest (D3D's float to UNORM/SNORM) */
static uint32_t ref_to_unorm(uint32_t u, unsigned b)
{
	float f = bitsf(u);
	double m = (double)((1u << b) - 1);

	return !(f > 0) ? 0 : f >= 1 ? (uint32_t)m : (uint32_t)nearbyint(f * m);
}

static uint32_t ref_to_snorm(uint32_t u, unsigned b)
{
	float f = bitsf(u);
	double d = f > 1 ? 1 : f < -1 ? -1 : f;

	return (uint32_t)(int32_t)nearbyint(d * ((1 << (b - 1)) - 1)) &
	       ((1u << b) - 1);
}

/* a random float of magnitude 2^lo..2^hi, either sign */
static uint32_t rfloat(int lo, int hi)
{
	uint32_t e = 127 + lo + rnd() % (hi - lo + 1);

	return (rnd() & 0x807fffffu) | e << 23;
}

/* P30: typed loads and stores, the V#'s formats and MTBUF's */
static void test_formats(void)
{
	static const uint16_t hs[] = {
		0x0000, 0x8000, 0x0001, 0x83ff, 0x7c00, 0xfc00, 0x3c00, 0x7bff,
		0x7e00, 0x0400, 0x3555,
	};

	for (unsigned c = 0; c < 2; c++) {
		uint64_t ex = c ? EXP : ~0ULL, s = BUF + 0x1000;

		fresh();
		randomize();
		/* dfmt << 15 | nfmt << 12: 8 SNORM, 16_16 SSCALED, 8888 UNORM */
		vsharp(&w, 8, BUF, 0, 150, 1 << 15 | 1 << 12);
		vsharp(&w, 12, BUF, 0, 150, 5 << 15 | 3 << 12);
		vsharp(&w, 16, BUF, 0, 150, 10 << 15 | 0 << 12);
		vsharp(&w, 20, BUF + 0x800, 12, 50, 0);
		vsharp(&w, 24, BUF + 0xc00, 8, 40, 0);
		/* 16 FLOAT, 8_8 SINT, 32_32_32 FLOAT, 8888 USCALED */
		vsharp(&w, 28, s, 0, 150, 2 << 15 | 7 << 12);
		vsharp(&w, 32, s, 0, 150, 3 << 15 | 5 << 12);
		vsharp(&w, 36, s, 0, 150, 13 << 15 | 7 << 12);
		vsharp(&w, 44, s, 0, 150, 10 << 15 | 2 << 12);
		vsharp(&w, 48, s, 0, 150, 0);
		vsharp(&w, 56, s, 8, 40, 0);
		w.s[40] = 0;
		w.s[41] = 0x400;
		w.s[42] = 0x800;
		w.s[43] = 0xc00;
		w.s[52] = 0x1000;
		w.s[53] = 0x1400;
		w.s[54] = 0x1800;
		w.s[55] = 0x1c00;
		w.s[60] = 0x2000;
		for (unsigned k = 0; k < 0x100; k++)
			mem[BUF - BASE + k] = rnd();
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
			/* the limits: -2^(b-1) (-1 too), 2^(b-1) - 1, ~0 */
			static const uint16_t lim[3] = { 0x8000, 0x7fff, 0xffff };

			if (l % 8 < 3) {
				put(mem, BUF + 4 * l + 2, lim[l % 8], 2);
				put(mem, BUF + 4 * l + 1, lim[l % 8] >> 8, 1);
			}
			for (unsigned k = 0; k < 3; k++)
				put(mem, BUF + 0x800 + 12 * l + 4 * k,
				    rfloat(-100, 100), 4);
			for (unsigned k = 0; k < 4; k++) {
				uint32_t h = rnd() & 0xffff;

				if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
					h = (h & 0x8000) | 0x7e00;
				put(mem, BUF + 0xc00 + 8 * l + 2 * k,
				    (l + k) % 3 ? h : hs[(l + k) % 11], 2);
			}
		}
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
			static const float tohalf[] = {
				65520.0f, 65519.99f, 1e-8f, 3e-5f, -INFINITY,
				-0.0f, 2.98023224e-8f, 6.1e-5f,
			};

			v[0][l] = l;
			v[1][l] = 4 * l;
			v[7][l] = 12 * l;
			v[8][l] = 16 * l;
			v[31][l] = l % 3 ? rfloat(-26, 17)
					 : fbits(tohalf[l / 3 % 8]);
			for (unsigned k = 0; k < 2; k++)
				v[32 + k][l] = (uint32_t)((int32_t)(rnd() % 256) -
							  128);
			for (unsigned k = 0; k < 3; k++)
				v[34 + k][l] = rfloat(-120, 120);
			for (unsigned k = 0; k < 4; k++)
				v[37 + k][l] = fbits((float)(rnd() % 256));
			for (unsigned k = 0; k < 2; k++)
				v[41 + k][l] = fbits((float)(rnd() % 1500000) /
						     1000000.0f - 0.25f);
			for (unsigned k = 0; k < 4; k++)
				v[46 + k][l] = fbits((float)(rnd() % 3000000) /
						     1000000.0f - 1.5f);
			for (unsigned k = 0; k < 4; k++)
				v[52 + k][l] = rfloat(-20, 15);
		}
		w.exec = ex;
		snap();
		for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
			uint64_t o = 4 * l;

			if (!ON(ex, l))
				continue;
			rwant[10][l] = o + 2 <= 150 ?
				       ref_snorm(get(wm, BUF + o + 1, 1), 8) : 0;
			for (unsigned k = 0; k < 2; k++)
				rwant[11 + k][l] = o + 4 <= 150 ?
					ref_sscaled(get(wm, BUF + o + 2 * k, 2),
						    16) : 0;
			for (unsigned k = 0; k < 3; k++)
				rwant[13 + k][l] = o + 3 <= 150 ?
					ref_unorm(get(wm, BUF + o + k, 1), 8) : 0;
			for (unsigned k = 0; k < 3; k++)
				rwant[16 + k][l] = l < 50 ?
					get(wm, BUF + 0x800 + 12 * l + 4 * k, 4)
					: 0;
			for (unsigned k = 0; k < 4; k++)
				rwant[19 + k][l] = l < 40 ?
					ref_h2f(get(wm, BUF + 0xc00 + 8 * l +
						    2 * k, 2)) : 0;
			for (unsigned k = 0; k < 4; k++)
				rwant[23 + k][l] = o + 4 <= 150 ?
					fbits((float)get(wm, BUF + o + k, 1)) : 0;
			for (unsigned k = 0; k < 4; k++)
				rwant[27 + k][l] = o + 10 <= 150 ?
					ref_snorm(get(wm, BUF + o + 2 + 2 * k, 2),
						  16) : 0;
			/* stores, each into its region (soffset) */
			if (o + 2 <= 150)
				put(wm, s + o, ref_f2h(rin[31][l]), 2);
			for (unsigned k = 0; o + 2 <= 150 && k < 2; k++)
				put(wm, s + 0x400 + o + k, rin[32 + k][l], 1);
			for (unsigned k = 0; 12 * l + 12 <= 150 && k < 3; k++)
				put(wm, s + 0x800 + 12 * l + 4 * k,
				    rin[34 + k][l], 4);
			for (unsigned k = 0; o + 4 <= 150 && k < 4; k++)
				put(wm, s + 0xc00 + o + k,
				    (uint32_t)bitsf(rin[37 + k][l]), 1);
			for (unsigned k = 0; o + 4 <= 150 && k < 2; k++)
				put(wm, s + 0x1000 + o + 2 * k,
				    ref_to_unorm(rin[41 + k][l], 16), 2);
			for (unsigned k = 0; 12 * l + 12 <= 150 && k < 3; k++)
				put(wm, s + 0x1400 + 12 * l + 4 * k,
				    rin[43 + k][l], 4);
			for (unsigned k = 0; o + 4 <= 150 && k < 4; k++)
				put(wm, s + 0x1800 + o + k,
				    ref_to_snorm(rin[46 + k][l], 8), 1);
			for (unsigned k = 0; l < 40 && k < 2; k++)
				put(wm, s + 0x1c00 + 8 * l + 4 * k,
				    rin[50 + k][l], 4);
			for (unsigned k = 0; 16 * l + 8 <= 150 && k < 4; k++)
				put(wm, s + 0x2000 + 16 * l + 2 * k,
				    ref_f2h(rin[52 + k][l]), 2);
		}
		TM(run(30) == 0, "typed buffers: run (%s)",
		   st.what ? st.what : "");
		compare(c ? "typed loads and stores (SNORM, SSCALED, UNORM, "
			"USCALED, FLOAT 16/32, UINT, SINT), range, partial EXEC"
			: "typed loads and stores, EXEC all");
	}
}

/* P31: s_sendmsghalt sends, then the wave stops as a trap does */
static void test_sendmsghalt(void)
{
	fresh();
	irqs = 0;
	TM(run(31) == HSAGPU_GCN_TRAP && irqs == 1 && irq_m0 == 0x33 &&
	   st.pc == prog[31] + 4 && w.s[0] == 0,
	   "s_sendmsghalt(MSG_INTERRUPT): the interrupt with M0, then "
	   "halted at its address (%u, %u irqs, m0 0x%x, pc +0x%llx)",
	   st.code, irqs, irq_m0, (unsigned long long)(st.pc - prog[31]));
}

/*
 * Global wave sync (issue 30: ROCclr's cooperative launches on amdkfd's
 * GWS queue). Waves of different workgroups are separate waves here,
 * stepped by hand as the dispatcher would turn between workgroups.
 */
static HsaGpuGcnVreg gv[3][NV];
static HsaGpuGcnWave gw[3];
static uint32_t gws_v2;                 /* lane 0's v2 of a wave started */

/* Wave @k steps program @p until it ends, fails or waits on GWS */
static unsigned gws_run(unsigned k, unsigned p, bool start)
{
	group_init();
	if (start) {
		memset(&gw[k], 0, sizeof(gw[k]));
		memset(gv[k], 0, sizeof(gv[k]));
		gw[k].vfile = gv[k];
		gw[k].nvgpr = NV;
		gw[k].exec = ~0ULL;
		gw[k].pc = prog[p];
		gv[k][2][0] = gws_v2;
	}
	for (unsigned n = 0; n < 100 && !gw[k].done && !gw[k].gws_wait; n++)
		if (!hsagpu_gcn_step(&g, &gw[k]) && st.code)
			break;
	return gw[k].done ? 0 : st.code ? st.code : 99;
}

static void test_gws(void)
{
	HsaGpuGcnGws gws = { .num = 4 };
	unsigned r[3];
	bool ok;

	fresh();
	d.gws = &gws;
	/* three waves, bar_val 2: two wait, the third lets them go */
	gws.counter[1] = 2;             /* as ds_gws_init 2 leaves it */
	for (unsigned k = 0; k < 3; k++) {
		memset(&gw[k], 0, sizeof(gw[k]));
		gw[k].vfile = gv[k];
		gv[k][2][0] = 2;        /* lane 0 gives the data */
		gv[k][2][1] = 99;
	}
	for (unsigned k = 0; k < 3; k++) {
		gw[k].nvgpr = NV;
		gw[k].exec = ~0ULL;
		gw[k].pc = prog[32];
		r[k] = gws_run(k, 32, false);
	}
	TM(r[0] == 99 && r[1] == 99 && gw[0].gws_wait == GCN_GWS_BARRIER &&
	   gw[1].gws_wait == GCN_GWS_BARRIER && gw[0].gws_rid == 1 &&
	   gw[0].s[0] == 0 && gw[1].s[0] == 0,
	   "ds_gws_barrier: the first two of three waves wait on resource 1 "
	   "(%u %u, wait %u %u, rid %u)", r[0], r[1], gw[0].gws_wait,
	   gw[1].gws_wait, gw[0].gws_rid);
	TM(r[2] == 0 && gw[2].s[0] == 1 && gws.counter[1] == 2 &&
	   gws.gen[1] == 1,
	   "ds_gws_barrier: the third goes through and releases them, the "
	   "count reloaded from its data (%u, count %u, gen %u)", r[2],
	   gws.counter[1], gws.gen[1]);
	ok = hsagpu_gcn_gws_ready(&d, &gw[0]) && hsagpu_gcn_gws_ready(&d, &gw[1]);
	r[0] = gws_run(0, 32, false);
	r[1] = gws_run(1, 32, false);
	TM(ok && !r[0] && !r[1] && gw[0].s[0] == 1 && gw[1].s[0] == 1,
	   "ds_gws_barrier: the released waves go on to their end (%u %u)",
	   r[0], r[1]);

	/* semaphores: init 5, V 6, BR +5 11, P 10, release all (none wait) */
	gws_v2 = 5;
	r[0] = gws_run(0, 33, true);
	TM(!r[0] && gws.counter[3] == 10 && gws.waiting[3] == 0,
	   "ds_gws_init/sema_v/sema_br/sema_p/release_all on resource 3: "
	   "count %u, want 10 (%u)", gws.counter[3], r[0]);
	/* P at 0 waits; a V lets it take the count */
	gws.counter[3] = 0;
	r[0] = gws_run(0, 34, true);
	ok = !hsagpu_gcn_gws_ready(&d, &gw[0]);
	TM(r[0] == 99 && gw[0].gws_wait == GCN_GWS_SEMA && ok &&
	   gws.waiting[3] == 1,
	   "ds_gws_sema_p at count 0 waits (%u, waiting %u)", r[0],
	   gws.waiting[3]);
	gws.counter[3]++;               /* another wave's V */
	ok = hsagpu_gcn_gws_ready(&d, &gw[0]);
	r[0] = gws_run(0, 34, false);
	TM(ok && !r[0] && gw[0].s[0] == 1 && gws.counter[3] == 0 &&
	   gws.waiting[3] == 0,
	   "ds_gws_sema_p: a V lets it go on, taking the count (%u, count "
	   "%u)", r[0], gws.counter[3]);

	/* a resource past the queue's, and a queue without GWS: refused */
	gws.num = 1;
	r[0] = gws_run(0, 32, true);
	TM(r[0] == HSAGPU_GCN_UNIMPLEMENTED && st.what &&
	   strstr(st.what, "past"), "ds_gws_barrier on resource 1 of 1: "
	   "refused (%u, %s)", r[0], st.what ? st.what : "-");
	d.gws = NULL;
	r[0] = gws_run(0, 33, true);
	TM(r[0] == HSAGPU_GCN_UNIMPLEMENTED && st.what &&
	   strstr(st.what, "without GWS"), "ds_gws_init on a queue without "
	   "GWS: refused (%u, %s)", r[0], st.what ? st.what : "-");
}

/*
 * The workgroup's instruction cache (HsaGpuGcnIcache), gfx9's rule: code
 * a wave rewrites under itself runs as it was until s_icache_inv, and
 * as rewritten after it; a line that does not read whole (a mapping that
 * ends inside it) is not kept, its instructions are read one at a time
 * and so always as memory has them.
 */
static void test_icache(void)
{
	static HsaGpuGcnIcache ic;
	/* s_mov_b32 s20, 1 and s_mov_b32 s20, 2 (SOP1, inline 1 and 2) */
	const uint32_t mov1 = 0xbe940081, mov2 = 0xbe940082;

	cur_icache = &ic;
	for (unsigned inv = 0; inv < 3; inv++) {
		unsigned p = inv == 1 ? 37 : 36;
		uint64_t at = prog[p] + 16, end = inv == 2 ? at + 8 : BASE + SIZE;
		uint32_t was;

		memcpy(&was, mem + (at - BASE), 4);
		T(was == mov1);
		fresh();
		memset(ic.tag, 0, sizeof(ic.tag));
		read_end = end;
		w.s[10] = (uint32_t)at;
		w.s[11] = at >> 32;
		w.s[12] = mov2;
		TM(run(p) == 0 && w.s[20] == (inv ? 2u : 1u),
		   "%s: ran %u, s20 = %u", inv == 2 ? "a mapping's end in the line" :
		   inv ? "with s_icache_inv" : "without s_icache_inv", st.code,
		   w.s[20]);
		if (inv == 2) {
			unsigned kept = 0;

			for (unsigned i = 0; i < HSAGPU_GCN_ICACHE_LINES; i++)
				kept += ic.tag[i] != 0;
			TM(!kept && (end & (HSAGPU_GCN_ICACHE_LINE - 1)),
			   "a line past the mapping: %u kept", kept);
		}
		read_end = BASE + SIZE;
		memcpy(mem + (at - BASE), &mov1, 4);
	}
	cur_icache = NULL;
}

int main(void)
{
	for (unsigned k = 0; k < SIZE; k++)
		mem[k] = (uint8_t)(k * 7 + 3);
	read_programs();
	memcpy(init, mem, SIZE);
	TM(nprog == 38, "%u programs from llvm-mc", nprog);
	if (nprog != 38)
		return tap_done();
	test_clocks();
	test_control();
	test_buffer();
	test_flat();
	test_lanes();
	test_branches();
	test_smem();
	test_smem_store();
	test_ds_wide();
	test_flat_loads();
	test_flat_stores();
	test_flat_atomics();
	test_same_address();
	test_buffer_atomics();
	test_buffer_widths();
	test_formats();
	test_sendmsghalt();
	test_gws();
	test_icache();
	return tap_done();
}
