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
 * loads. TAP output.
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
#define NV      32
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

static unsigned f_read(void *o, uint64_t a, void *buf, uint32_t len)
{
	if (a < BASE || a + len > BASE + SIZE)
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

static const HsaGpuGcnMem fmem = {
	.read = f_read, .write = f_write, .now_ns = f_now, .interrupt = f_irq,
};

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

/* Run program @p to its end: the status code (0 ran to s_endpgm) */
static unsigned run(unsigned p)
{
	memset(&g, 0, sizeof(g));
	memset(&st, 0, sizeof(st));
	g.mem = &fmem;
	g.d = &d;
	g.st = &st;
	g.lds = lds;
	g.lds_size = sizeof(lds);
	g.priv_size = PRIV;
	g.priv = &priv;
	hsagpu_gcn_set_denorm(&g, w.denorm);
	w.pc = prog[p];
	for (unsigned n = 0; n < 100 && !w.done; n++)
		if (!hsagpu_gcn_step(&g, &w))
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

int main(void)
{
	for (unsigned k = 0; k < SIZE; k++)
		mem[k] = (uint8_t)(k * 7 + 3);
	read_programs();
	memcpy(init, mem, SIZE);
	TM(nprog == 22, "%u programs from llvm-mc", nprog);
	if (nprog != 22)
		return tap_done();
	test_clocks();
	test_control();
	test_buffer();
	test_flat();
	test_lanes();
	test_branches();
	test_smem();
	test_ds_wide();
	return tap_done();
}
