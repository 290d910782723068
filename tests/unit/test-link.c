// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host unit tests for the PCIe link timing model (hsagpu-link.c):
 * lane rates, TLP arithmetic, one flow's time and latency, max-min fair
 * sharing of a channel and of a shared upstream link, caps, marks that
 * complete packets in order, late bytes, and flows dropped by owner.
 * TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/core/hsagpu-link.h"

#include "tap.h"

#define NEAR(a, b, tol) \
	((double)(a) - (double)(b) <= (tol) && (double)(b) - (double)(a) <= (tol))

static HsaGpuLinkModel *model(void)
{
	return calloc(1, sizeof(HsaGpuLinkModel));
}

/* Path over @n channels with keys 1..n at @rate each. */
static HsaGpuLinkPath line(unsigned first_key, unsigned n, double rate,
			   double lat, double cap)
{
	HsaGpuLinkPath p;

	memset(&p, 0, sizeof(p));
	for (unsigned i = 0; i < n; i++) {
		p.hop[i].key = first_key + i;
		p.hop[i].rate = rate;
	}
	p.nhops = n;
	p.latency = lat;
	p.cap = cap;
	return p;
}

static void test_arith(void)
{
	double last;

	T(NEAR(hsagpu_link_lane_rate(25), 0.25, 1e-12));
	T(NEAR(hsagpu_link_lane_rate(50), 0.5, 1e-12));
	T(NEAR(hsagpu_link_lane_rate(80), 8.0 * 128 / 130 / 8, 1e-12));
	T(hsagpu_link_lane_rate(33) == 0);
	T(hsagpu_link_tlp_overhead(0xfffff000) == 20);
	T(hsagpu_link_tlp_overhead(0x100000000ULL) == 24);
	/* 1 KiB aligned at MPS 128: 8 TLPs */
	T(NEAR(hsagpu_link_wire(0x1000, 1024, 128, 24, &last), 1024 + 8 * 24,
	       1e-9));
	T(NEAR(last, 128 + 24, 1e-9));
	/* 100 bytes from 0x70 cross one 128-byte boundary: 2 TLPs, last 84 */
	T(NEAR(hsagpu_link_wire(0x70, 100, 128, 20, &last), 100 + 2 * 20,
	       1e-9));
	T(NEAR(last, (0x70 + 100) % 128 + 20, 1e-9));
	T(hsagpu_link_wire(0, 0, 128, 20, &last) == 0 && last == 0);
}

/* One flow alone: wire bytes / rate, plus the latency and the tail. */
static void test_single(void)
{
	HsaGpuLinkModel *m = model();
	HsaGpuLinkPath p = line(10, 2, 2.0, 500, 0);
	uint32_t f = hsagpu_link_flow_new(m, &p, m, 1000);
	uint64_t mk, when;

	T(f != 0);
	hsagpu_link_flow_add(m, f, 10000);
	mk = hsagpu_link_mark(m, f, 152);
	T(mk != 0);
	/* drains in 5000 ns; + 500 latency + 152 bytes on the 2nd link */
	T(!hsagpu_link_mark_when(m, mk, 1000, &when));
	TM(when == 1000 + 5000 + 500 + 76, "projection %llu",
	   (unsigned long long)when);
	T(!hsagpu_link_mark_when(m, mk, 6000, &when));
	T(when == 6576);
	T(hsagpu_link_mark_when(m, mk, 7000, &when));
	T(when == 6576);
	/* told once: then unknown */
	T(hsagpu_link_mark_when(m, mk, 7000, &when) && when == 0);
	free(m);
}

/* Two flows on one channel share it equally; the survivor speeds up. */
static void test_fair(void)
{
	HsaGpuLinkModel *m = model();
	HsaGpuLinkPath p = line(1, 1, 4.0, 0, 0);
	uint32_t a = hsagpu_link_flow_new(m, &p, m, 0);
	uint32_t b = hsagpu_link_flow_new(m, &p, m, 0);
	uint64_t ma, mb, when;

	hsagpu_link_flow_add(m, a, 4000);
	hsagpu_link_flow_add(m, b, 12000);
	ma = hsagpu_link_mark(m, a, 0);
	mb = hsagpu_link_mark(m, b, 0);
	T(NEAR(hsagpu_link_flow_rate(m, a), 2.0, 1e-9));
	T(NEAR(hsagpu_link_flow_rate(m, b), 2.0, 1e-9));
	/* a: 4000 at 2/ns = 2000 ns; b: 4000 then 8000 at 4/ns = 4000 ns */
	T(hsagpu_link_mark_when(m, ma, 5000, &when) && when == 2000);
	T(hsagpu_link_mark_when(m, mb, 5000, &when) && when == 4000);
	free(m);
}

/*
 * Four flows from separate x4 links onto one x8 upstream: the upstream
 * is the bottleneck (8 / 4 = 2 each, not 4 / 1); a capped flow leaves
 * its share to the others.
 */
static void test_shared_upstream(void)
{
	HsaGpuLinkModel *m = model();
	uint32_t f[4];

	for (unsigned i = 0; i < 4; i++) {
		HsaGpuLinkPath p = line(100 + i, 1, 4.0, 0, i == 3 ? 1.0 : 0);

		p.hop[1].key = 7;           /* the shared upstream channel */
		p.hop[1].rate = 6.0;
		p.nhops = 2;
		f[i] = hsagpu_link_flow_new(m, &p, m, 0);
		hsagpu_link_flow_add(m, f[i], 1e6);
	}
	for (unsigned i = 0; i < 3; i++) {
		TM(NEAR(hsagpu_link_flow_rate(m, f[i]), 5.0 / 3, 1e-9),
		   "flow %u rate %g", i, hsagpu_link_flow_rate(m, f[i]));
	}
	T(NEAR(hsagpu_link_flow_rate(m, f[3]), 1.0, 1e-9));
	free(m);
}

/*
 * Marks complete packets of one flow in order; bytes added after the
 * flow ran dry start from the model's time, not from the past.
 */
static void test_marks_and_idle(void)
{
	HsaGpuLinkModel *m = model();
	HsaGpuLinkPath p = line(1, 1, 1.0, 100, 0);
	uint32_t f = hsagpu_link_flow_new(m, &p, m, 0);
	uint64_t m1, m2, m3, when;

	hsagpu_link_flow_add(m, f, 1000);
	m1 = hsagpu_link_mark(m, f, 0);
	hsagpu_link_flow_add(m, f, 500);
	m2 = hsagpu_link_mark(m, f, 0);
	T(hsagpu_link_mark_when(m, m2, 10000, &when) && when == 1600);
	T(hsagpu_link_mark_when(m, m1, 10000, &when) && when == 1100);
	/* idle since 1500; a packet started at 20000 */
	hsagpu_link_advance(m, 20000);
	hsagpu_link_flow_add(m, f, 300);
	m3 = hsagpu_link_mark(m, f, 0);
	T(!hsagpu_link_mark_when(m, m3, 20000, &when) && when == 20400);
	/* a packet with no bytes completes at once, after the latency */
	hsagpu_link_advance(m, 30000);
	m1 = hsagpu_link_mark(m, f, 0);
	T(hsagpu_link_mark_when(m, m1, 30100, &when) && when == 30100);
	free(m);
}

/* A stopped packet's bytes are taken back, not an earlier packet's. */
static void test_cancel(void)
{
	HsaGpuLinkModel *m = model();
	HsaGpuLinkPath p = line(1, 1, 1.0, 0, 0);
	uint32_t f = hsagpu_link_flow_new(m, &p, m, 0);
	uint64_t m1, when;

	hsagpu_link_flow_add(m, f, 1000);
	m1 = hsagpu_link_mark(m, f, 0);
	hsagpu_link_flow_add(m, f, 5000);       /* the packet that fails */
	hsagpu_link_flow_cancel(m, f);
	T(hsagpu_link_mark_when(m, m1, 2000, &when) && when == 1000);
	T(m->fl[0].queued == 1000 && m->fl[0].drained == 1000);
	/* with nothing pending, back to what was drained */
	hsagpu_link_flow_add(m, f, 5000);
	hsagpu_link_advance(m, 3000);
	hsagpu_link_flow_cancel(m, f);
	T(m->fl[0].queued == 2000);
	free(m);
}

/* Released flows go once told; an owner's flows can be dropped. */
static void test_release_drop(void)
{
	HsaGpuLinkModel *m = model();
	HsaGpuLinkPath p = line(1, 1, 1.0, 0, 0);
	uint32_t a = hsagpu_link_flow_new(m, &p, m, 0);
	uint32_t b = hsagpu_link_flow_new(m, &p, &p, 0);
	uint64_t ma, when;
	unsigned used = 0;

	hsagpu_link_flow_add(m, a, 100);
	ma = hsagpu_link_mark(m, a, 0);
	hsagpu_link_flow_release(m, a);
	T(hsagpu_link_mark_when(m, ma, 1000, &when) && when == 100);
	hsagpu_link_drop_owner(m, &p);
	for (unsigned i = 0; i < HSAGPU_LINK_FLOWS_MAX; i++) {
		used += m->fl[i].id != 0;
	}
	T(used == 0);
	T(m->ch[0].users == 0);
	T(b != 0 && hsagpu_link_flow_rate(m, b) == 0);
	/* a full table refuses, it does not overwrite */
	for (unsigned i = 0; i < HSAGPU_LINK_FLOWS_MAX; i++) {
		T(hsagpu_link_flow_new(m, &p, m, 0) != 0);
	}
	T(hsagpu_link_flow_new(m, &p, m, 0) == 0);
	/* more marks than slots: the oldest is forgotten */
	a = m->fl[0].id;
	ma = hsagpu_link_mark(m, a, 0);
	for (unsigned i = 0; i < HSAGPU_LINK_MARKS_MAX; i++) {
		hsagpu_link_mark(m, a, 0);
	}
	T(hsagpu_link_mark_when(m, ma, 2000, &when) && when == 0);
	/* paths without hops or with a dead link are refused */
	p.hop[0].rate = 0;
	hsagpu_link_drop_owner(m, m);
	T(hsagpu_link_flow_new(m, &p, m, 0) == 0);
	p.nhops = 0;
	T(hsagpu_link_flow_new(m, &p, m, 0) == 0);
	free(m);
}

/*
 * A full model: every flow with every mark, on overlapping paths. Every
 * mark arrives, in order within its flow, and the bytes are conserved:
 * no channel ever carried more than its rate over the whole run.
 */
static void test_full_model(void)
{
	HsaGpuLinkModel *m = model();
	uint64_t mk[HSAGPU_LINK_FLOWS_MAX][HSAGPU_LINK_MARKS_MAX];
	uint64_t last[HSAGPU_LINK_FLOWS_MAX] = { 0 }, when;
	double bytes[8] = { 0 };
	unsigned bad = 0, told = 0;

	for (unsigned i = 0; i < HSAGPU_LINK_FLOWS_MAX; i++) {
		HsaGpuLinkPath p = line(1 + i % 4, 1 + i % 3, 1.0 + i % 4, 10, 0);
		uint32_t f = hsagpu_link_flow_new(m, &p, m, 0);

		for (unsigned k = 0; k < HSAGPU_LINK_MARKS_MAX; k++) {
			hsagpu_link_flow_add(m, f, 100 + i);
			for (unsigned h = 0; h < p.nhops; h++)
				bytes[p.hop[h].key - 1] += 100 + i;
			mk[i][k] = hsagpu_link_mark(m, f, 0);
		}
	}
	for (unsigned i = 0; i < HSAGPU_LINK_FLOWS_MAX; i++)
		for (unsigned k = 0; k < HSAGPU_LINK_MARKS_MAX; k++) {
			if (!hsagpu_link_mark_when(m, mk[i][k], 1ULL << 40,
						   &when) || when < last[i])
				bad++;
			told++;
			last[i] = when;
		}
	TM(!bad && told == HSAGPU_LINK_FLOWS_MAX * HSAGPU_LINK_MARKS_MAX,
	   "%u of %u marks late or out of order", bad, told);
	/*
	 * Channel 1 (rate 1 B/ns) is crossed only by the flows i % 4 == 0:
	 * the last of them cannot arrive before their bytes went through.
	 */
	when = 0;
	for (unsigned i = 0; i < HSAGPU_LINK_FLOWS_MAX; i += 4)
		when = last[i] > when ? last[i] : when;
	TM(when + 1 >= bytes[0], "channel 1 carried %.0f bytes by %llu ns",
	   bytes[0], (unsigned long long)when);
	free(m);
}

int main(void)
{
	test_arith();
	test_single();
	test_fair();
	test_shared_upstream();
	test_marks_and_idle();
	test_cancel();
	test_release_drop();
	test_full_model();
	return tap_done();
}
