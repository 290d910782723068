// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every built-in kernel on real data, on every device: 1-D, 2-D and 3-D
 * grids with partial workgroups, buffers in system memory and in VRAM
 * (read back through the WC mapping), guard words around every array;
 * completion signals, profiling timestamps and the agent dispatch
 * services (NOP, TIMESTAMP, WRITE_VALUE, COPY_INFO); BUSY over the same
 * geometries (device time spent, exactly one completion, nothing written).
 */
#include <stdlib.h>

#include "gtq.h"

#define GUARD 16                        /* u32 words either side */
#define GUARD_WORD(i) (0xa5a50000U | (i))
#define MAXN 4096

struct kcase {
	unsigned int dims;
	uint32_t grid[3];
	uint16_t wg[3];
};

/* Partial workgroups in every dimension except where noted. */
static const struct kcase cases[] = {
	{ 1, { 1000, 1, 1 }, { 64, 1, 1 } },
	{ 1, { 1, 1, 1 }, { 1, 1, 1 } },
	{ 1, { 4096, 1, 1 }, { 1024, 1, 1 } },     /* exact, max workgroup */
	{ 1, { 77, 1, 1 }, { 1024, 1, 1 } },       /* grid < workgroup */
	{ 2, { 37, 19, 1 }, { 8, 4, 1 } },
	{ 2, { 64, 16, 1 }, { 16, 16, 1 } },        /* exact */
	{ 3, { 13, 7, 5 }, { 4, 4, 2 } },
	{ 3, { 20, 9, 9 }, { 16, 8, 8 } },          /* 1024-item workgroups */
};

struct ctx {
	struct gtq_dev *d;
	hsagpu_queue_t *q;
	struct gtq_arena ka;            /* kernarg in the memory under test */
	hsagpu_signal_t sig;
	const char *mem;
	uint32_t flags;
	/* arrays of MAXN + 2 * GUARD u32, data at [GUARD] */
	volatile uint32_t *buf[4];
	volatile uint64_t *cnt;         /* guard, counter, guard */
};

static uint32_t total(const struct kcase *c)
{
	return c->grid[0] * c->grid[1] * c->grid[2];
}

static uint32_t hash(uint32_t i)
{
	return i * 2654435761U ^ 0x5bd1e995U;
}

static float f32(uint32_t bits)
{
	float f;

	memcpy(&f, &bits, 4);
	return f;
}

static uint32_t bits32(float f)
{
	uint32_t b;

	memcpy(&b, &f, 4);
	return b;
}

/* Fill an array's data with @fn(i) and its guards with the guard pattern. */
static void init(volatile uint32_t *a, uint32_t n, uint32_t (*fn)(uint32_t))
{
	for (uint32_t i = 0; i < GUARD; i++) {
		a[i] = GUARD_WORD(i);
		a[GUARD + n + i] = GUARD_WORD(GUARD + i);
	}
	for (uint32_t i = 0; i < n; i++)
		a[GUARD + i] = fn ? fn(i) : 0x11111111U;
	__sync_synchronize();
}

static unsigned int bad_guards(volatile uint32_t *a, uint32_t n)
{
	unsigned int bad = 0;

	for (uint32_t i = 0; i < GUARD; i++) {
		bad += a[i] != GUARD_WORD(i);
		bad += a[GUARD + n + i] != GUARD_WORD(GUARD + i);
	}
	return bad;
}

static int run(struct ctx *c, uint64_t kobj, const void *kargs, size_t len,
	       const struct kcase *k)
{
	const void *ka = gtq_kargs(&c->ka, kargs, len);

	__sync_synchronize();
	hsagpu_signal_store_release(c->sig, 1);
	if (gtq_dispatch(c->q, kobj, ka, k->dims, k->grid, k->wg, c->sig, 0) < 0)
		return 0;
	if (!gtq_wait_eq(c->sig, 0, 5000)) {
		uint32_t err = 0;
		uint64_t id = 0;
		int st = hsagpu_queue_state(c->q, &err, &id);

		CHECK(0, "kernel 0x%llx did not complete: signal %lld, queue state %d error %u id %llu",
		      (unsigned long long)kobj, (long long)gtq_value(c->sig),
		      st, err, (unsigned long long)id);
		return 0;
	}
	return 1;
}

/* "VRAM 2D grid 37x19x1 wg 8x4x1", for messages */
static const char *name(const struct ctx *c, const struct kcase *k)
{
	static char buf[96];

	snprintf(buf, sizeof(buf), "%s %uD grid %ux%ux%u wg %ux%ux%u", c->mem,
		 k->dims, k->grid[0], k->grid[1], k->grid[2], k->wg[0],
		 k->wg[1], k->wg[2]);
	return buf;
}

static uint32_t val_a(uint32_t i) { return bits32((float)i); }
static uint32_t val_b(uint32_t i) { return bits32((float)(i % 97) * 0.25f); }
static uint32_t val_x(uint32_t i) { return bits32((float)(i % 113) * 0.5f); }
static uint32_t val_y(uint32_t i) { return bits32((float)i - 7.0f); }

/* Expected IDS value of flat work-item i. */
static uint32_t ids_expect(const struct kcase *k, uint32_t i)
{
	uint32_t x = i % k->grid[0];
	uint32_t y = i / k->grid[0] % k->grid[1];
	uint32_t z = i / (k->grid[0] * k->grid[1]);
	uint32_t ngx = (k->grid[0] + k->wg[0] - 1) / k->wg[0];
	uint32_t ngy = (k->grid[1] + k->wg[1] - 1) / k->wg[1];
	uint32_t wgid = x / k->wg[0] + y / k->wg[1] * ngx +
			z / k->wg[2] * ngx * ngy;
	uint32_t lid = x % k->wg[0] + y % k->wg[1] * k->wg[0] +
		       z % k->wg[2] * k->wg[0] * k->wg[1];

	return wgid << 16 | lid;
}

static void test_case(struct ctx *c, const struct kcase *k)
{
	volatile uint32_t *a = c->buf[0], *b = c->buf[1], *d = c->buf[2];
	uint32_t n = total(k), bad, first;

	/* FILL */
	init(d, n, NULL);
	struct hsagpu_kargs_fill fill = {
		.dst = (uintptr_t)&d[GUARD],
		.value = 0xc0de0000U | n,
	};
	if (run(c, HSAGPU_KERNEL_FILL, &fill, sizeof(fill), k)) {
		for (bad = 0, first = n; bad < n && first == n; bad++)
			if (d[GUARD + bad] != fill.value)
				first = bad;
		CHECK(first == n, "%s FILL: dst[%u] = 0x%x, expected 0x%x",
		      name(c, k), first, first < n ? d[GUARD + first] : 0,
		      fill.value);
		CHECK(!bad_guards(d, n), "%s FILL wrote outside the grid",
		      name(c, k));
	}

	/* COPY */
	init(a, n, hash);
	init(d, n, NULL);
	struct hsagpu_kargs_copy copy = {
		.dst = (uintptr_t)&d[GUARD],
		.src = (uintptr_t)&a[GUARD],
	};
	if (run(c, HSAGPU_KERNEL_COPY, &copy, sizeof(copy), k)) {
		for (bad = 0, first = n; bad < n && first == n; bad++)
			if (d[GUARD + bad] != hash(bad) || a[GUARD + bad] != hash(bad))
				first = bad;
		CHECK(first == n, "%s COPY: element %u = 0x%x, expected 0x%x",
		      name(c, k), first, first < n ? d[GUARD + first] : 0,
		      first < n ? hash(first) : 0);
		CHECK(!bad_guards(d, n) && !bad_guards(a, n),
		      "%s COPY wrote outside the grid", name(c, k));
	}

	/* VADD: exactly representable sums, compared bit for bit */
	init(a, n, val_a);
	init(b, n, val_b);
	init(d, n, NULL);
	struct hsagpu_kargs_vadd vadd = {
		.a = (uintptr_t)&a[GUARD],
		.b = (uintptr_t)&b[GUARD],
		.c = (uintptr_t)&d[GUARD],
	};
	if (run(c, HSAGPU_KERNEL_VADD, &vadd, sizeof(vadd), k)) {
		for (bad = 0, first = n; bad < n && first == n; bad++)
			if (d[GUARD + bad] !=
			    bits32(f32(val_a(bad)) + f32(val_b(bad))))
				first = bad;
		CHECK(first == n, "%s VADD: c[%u] = %g, expected %g",
		      name(c, k), first,
		      first < n ? f32(d[GUARD + first]) : 0.0,
		      first < n ? f32(val_a(first)) + f32(val_b(first)) : 0.0);
		CHECK(!bad_guards(d, n), "%s VADD wrote outside the grid",
		      name(c, k));
	}

	/* SAXPY */
	init(a, n, val_x);
	init(d, n, val_y);
	struct hsagpu_kargs_saxpy saxpy = {
		.a = 2.5f,
		.x = (uintptr_t)&a[GUARD],
		.y = (uintptr_t)&d[GUARD],
	};
	if (run(c, HSAGPU_KERNEL_SAXPY, &saxpy, sizeof(saxpy), k)) {
		for (bad = 0, first = n; bad < n && first == n; bad++)
			if (d[GUARD + bad] !=
			    bits32(2.5f * f32(val_x(bad)) + f32(val_y(bad))))
				first = bad;
		CHECK(first == n, "%s SAXPY: y[%u] = %g, expected %g",
		      name(c, k), first,
		      first < n ? f32(d[GUARD + first]) : 0.0,
		      first < n ? 2.5f * f32(val_x(first)) + f32(val_y(first)) :
		      0.0);
		CHECK(!bad_guards(d, n), "%s SAXPY wrote outside the grid",
		      name(c, k));
	}

	/* ATOMIC_INC: one per work-item inside the grid, none for the rest */
	c->cnt[0] = 0x1111111111111111ULL;
	c->cnt[1] = 1000;
	c->cnt[2] = 0x2222222222222222ULL;
	__sync_synchronize();
	struct hsagpu_kargs_atomic_inc inc = {
		.counter = (uintptr_t)&c->cnt[1],
	};
	if (run(c, HSAGPU_KERNEL_ATOMIC_INC, &inc, sizeof(inc), k)) {
		CHECK(c->cnt[1] == 1000ULL + n,
		      "%s ATOMIC_INC: counter %llu, expected %llu",
		      name(c, k), (unsigned long long)c->cnt[1],
		      1000ULL + n);
		CHECK(c->cnt[0] == 0x1111111111111111ULL &&
		      c->cnt[2] == 0x2222222222222222ULL,
		      "%s ATOMIC_INC wrote next to the counter",
		      name(c, k));
	}

	/* IDS: workgroup and local flat ids, computed here independently */
	init(d, n, NULL);
	struct hsagpu_kargs_ids ids = {
		.dst = (uintptr_t)&d[GUARD],
	};
	if (run(c, HSAGPU_KERNEL_IDS, &ids, sizeof(ids), k)) {
		for (bad = 0, first = n; bad < n && first == n; bad++)
			if (d[GUARD + bad] != ids_expect(k, bad))
				first = bad;
		CHECK(first == n, "%s IDS: dst[%u] = 0x%x, expected 0x%x",
		      name(c, k), first, first < n ? d[GUARD + first] : 0,
		      first < n ? ids_expect(k, first) : 0);
		CHECK(!bad_guards(d, n), "%s IDS wrote outside the grid",
		      name(c, k));
	}
}

static void test_memory(struct gtq_dev *d, hsagpu_queue_t *q, uint32_t flags,
			const char *mem)
{
	size_t words = MAXN + 2 * GUARD;
	struct ctx c = { .d = d, .q = q, .flags = flags, .mem = mem };

	/* Kernarg in the memory under test: VRAM has the device read its own. */
	c.ka.base = gtq_alloc(d, 64 * 1024, flags);
	c.ka.size = c.ka.base ? 64 * 1024 : 0;
	for (int i = 0; i < 4; i++)
		c.buf[i] = gtq_alloc(d, words * 4, flags);
	c.cnt = gtq_alloc(d, 4096, flags);
	c.sig = gtq_signal(d, 1);
	if (!c.ka.base || !c.buf[0] || !c.buf[1] || !c.buf[2] || !c.cnt)
		return;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		test_case(&c, &cases[i]);
	DIAG("%s: %s: %zu grids x 6 kernels checked", d->pci, mem,
	     sizeof(cases) / sizeof(cases[0]));
	hsagpu_signal_destroy(c.sig);
}

/* COPY between system memory and VRAM, both directions. */
static void test_cross(struct gtq_dev *d, hsagpu_queue_t *q)
{
	const uint32_t n = 3000;
	volatile uint32_t *sys = gtq_alloc(d, (n + 2 * GUARD) * 4,
					   HSAGPU_RT_MEM_SYSTEM);
	volatile uint32_t *vram = gtq_alloc(d, (n + 2 * GUARD) * 4,
					    HSAGPU_RT_MEM_VRAM);
	struct ctx c = { .d = d, .q = q, .mem = "sys<->vram" };
	struct kcase k = { 1, { n, 1, 1 }, { 128, 1, 1 } };
	unsigned int bad = 0;

	gtq_arena_init(d, &c.ka, 4096);
	c.sig = gtq_signal(d, 1);
	if (!sys || !vram || !c.ka.base)
		return;
	init(sys, n, hash);
	init(vram, n, NULL);
	struct hsagpu_kargs_copy to_vram = {
		.dst = (uintptr_t)&vram[GUARD],
		.src = (uintptr_t)&sys[GUARD],
	};
	if (run(&c, HSAGPU_KERNEL_COPY, &to_vram, sizeof(to_vram), &k)) {
		for (uint32_t i = 0; i < n; i++)
			bad += vram[GUARD + i] != hash(i);
		CHECK(!bad && !bad_guards(vram, n),
		      "COPY system -> VRAM: %u wrong elements", bad);
	}
	init(sys, n, NULL);
	struct hsagpu_kargs_copy to_sys = {
		.dst = (uintptr_t)&sys[GUARD],
		.src = (uintptr_t)&vram[GUARD],
	};
	bad = 0;
	if (run(&c, HSAGPU_KERNEL_COPY, &to_sys, sizeof(to_sys), &k)) {
		for (uint32_t i = 0; i < n; i++)
			bad += sys[GUARD + i] != hash(i);
		CHECK(!bad && !bad_guards(sys, n),
		      "COPY VRAM -> system: %u wrong elements", bad);
	}
	hsagpu_signal_destroy(c.sig);
}

static void check_rom_info(struct gtq_dev *d, const uint8_t *p)
{
	struct hsagpu_rom_info ri;
	uint8_t sum = 0;
	unsigned int tail = 0;

	memcpy(&ri, p, sizeof(ri));
	for (unsigned int i = 0; i < HSAGPU_ROM_INFO_SIZE; i++)
		sum += p[i];
	for (unsigned int i = HSAGPU_ROM_INFO_SIZE; i < 128; i++)
		tail += p[i] != 0xcc;
	CHECK_EQ_U64(ri.signature, HSAGPU_ROM_INFO_SIGNATURE);
	CHECK_EQ_U64(ri.version, HSAGPU_ROM_INFO_VERSION);
	CHECK_EQ_U64(ri.length, HSAGPU_ROM_INFO_SIZE);
	CHECK_EQ_U64(ri.vendor_id, HSAGPU_PCI_VENDOR_ID);
	CHECK_EQ_U64(ri.device_id, HSAGPU_PCI_DEVICE_ID);
	CHECK_EQ_U64(ri.abi_version, d->info->abi_version);
	CHECK_EQ_U64(ri.vram_size, d->info->vram_size);
	CHECK_EQ_U64(ri.num_queues, d->info->num_queues);
	CHECK_EQ_U64(ri.doorbell_count, d->info->doorbell_count);
	CHECK_EQ_U64(ri.caps, d->info->caps);
	CHECK(ri.compute_units >= HSAGPU_COMPUTE_UNITS_MIN &&
	      ri.compute_units <= HSAGPU_COMPUTE_UNITS_MAX,
	      "COPY_INFO compute units %u", ri.compute_units);
	CHECK(!strncmp(ri.name, d->info->name, sizeof(ri.name)),
	      "COPY_INFO name '%.32s', driver says '%.32s'", ri.name,
	      d->info->name);
	CHECK(sum == 0, "COPY_INFO checksum: bytes sum to 0x%02x", sum);
	CHECK(tail == 0, "COPY_INFO wrote %u bytes past the table", tail);
}

static void test_agent(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 16, 0);
	volatile uint64_t *sys = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	volatile uint64_t *vram = gtq_alloc(d, 4096, HSAGPU_RT_MEM_VRAM);
	hsagpu_signal_t s = gtq_signal(d, 3);
	uint64_t r0, r1;

	if (!q || !sys || !vram)
		return;
	for (int i = 0; i < 64; i++)
		sys[i] = vram[i] = 0x5555555555555555ULL + i;
	__sync_synchronize();

	/* NOP: signal decremented by one, nothing written */
	gtq_agent(q, HSAGPU_AGENT_NOP, (void *)&sys[1], 77, s, 0);
	GTQ_WAIT(s, 2, 2000);
	CHECK(sys[1] == 0x5555555555555556ULL, "NOP wrote its return address");
	gtq_agent(q, HSAGPU_AGENT_NOP, NULL, 0, s, 0);
	GTQ_WAIT(s, 1, 2000);
	gtq_agent(q, HSAGPU_AGENT_NOP, NULL, 0, s, 0);
	GTQ_WAIT(s, 0, 2000);
	CHECK(gtq_wait_idle(q, 2000), "read index did not reach write index");
	CHECK(gtq_value(s) == 0, "signal went to %lld after three NOPs",
	      (long long)gtq_value(s));

	/* WRITE_VALUE: exactly 8 bytes, system memory and VRAM */
	hsagpu_signal_store_release(s, 1);
	gtq_write(q, &sys[2], 0x0123456789abcdefULL, s, 0);
	GTQ_WAIT(s, 0, 2000);
	CHECK(sys[2] == 0x0123456789abcdefULL,
	      "WRITE_VALUE to system memory: 0x%llx", (unsigned long long)sys[2]);
	CHECK(sys[1] == 0x5555555555555556ULL && sys[3] == 0x5555555555555558ULL,
	      "WRITE_VALUE wrote next to its target");
	hsagpu_signal_store_release(s, 1);
	gtq_write(q, &vram[5], 0xfedcba9876543210ULL, s, 0);
	GTQ_WAIT(s, 0, 2000);
	CHECK(vram[5] == 0xfedcba9876543210ULL &&
	      vram[4] == 0x5555555555555559ULL && vram[6] == 0x555555555555555bULL,
	      "WRITE_VALUE to VRAM: 0x%llx (neighbours 0x%llx 0x%llx)",
	      (unsigned long long)vram[5], (unsigned long long)vram[4],
	      (unsigned long long)vram[6]);

	/* TIMESTAMP: device time, between register reads, monotonic */
	r0 = gtq_dev_time(d);
	hsagpu_signal_store_release(s, 2);
	gtq_agent(q, HSAGPU_AGENT_TIMESTAMP, (void *)&sys[10], 0, s, 0);
	gtq_agent(q, HSAGPU_AGENT_TIMESTAMP, (void *)&sys[11], 0, s, 1);
	GTQ_WAIT(s, 0, 2000);
	r1 = gtq_dev_time(d);
	CHECK(r0 <= sys[10] && sys[10] <= sys[11] && sys[11] <= r1,
	      "TIMESTAMP: register %llu, packets %llu %llu, register %llu",
	      (unsigned long long)r0, (unsigned long long)sys[10],
	      (unsigned long long)sys[11], (unsigned long long)r1);
	CHECK(sys[12] == 0x5555555555555561ULL, "TIMESTAMP wrote past 8 bytes");

	/* COPY_INFO: the ROM information table */
	memset((void *)&sys[32], 0xcc, 128);
	hsagpu_signal_store_release(s, 1);
	gtq_agent(q, HSAGPU_AGENT_COPY_INFO, (void *)&sys[32], 0, s, 0);
	GTQ_WAIT(s, 0, 2000);
	check_rom_info(d, (const uint8_t *)&sys[32]);

	CHECK(gtq_wait_idle(q, 2000), "read index did not reach write index");
	CHECK(gtq_valid_headers(q) == 0, "%u ring slots not back to INVALID",
	      gtq_valid_headers(q));
	hsagpu_signal_destroy(s);
	CHECK(hsagpu_queue_destroy(q) == 0, "queue destroy");
}

/* Timestamps in signals, only on profiling queues; BUSY's duration. */
static void test_profile(struct gtq_dev *d)
{
	hsagpu_queue_t *p = gtq_queue(d, 16, HSAGPU_QUEUE_PROFILE);
	hsagpu_queue_t *np = gtq_queue(d, 16, 0);
	volatile uint64_t *ts = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	struct gtq_arena ka;
	hsagpu_signal_t s = gtq_signal(d, 1), s2 = gtq_signal(d, 1);
	hsagpu_signal_t s3 = gtq_signal(d, 1);
	const uint64_t busy = 20 * GTQ_MS;
	uint64_t st = 0, en = 0;
	volatile struct hsagpu_signal *sp;

	gtq_arena_init(d, &ka, 4096);
	if (!p || !np || !ts || !ka.base)
		return;
	gtq_agent(p, HSAGPU_AGENT_TIMESTAMP, (void *)&ts[0], 0, s2, 0);
	gtq_busy(p, &ka, busy, s, 1);
	gtq_agent(p, HSAGPU_AGENT_TIMESTAMP, (void *)&ts[1], 0, s3, 1);
	GTQ_WAIT(s3, 0, 5000);
	CHECK(gtq_value(s) == 0 && gtq_value(s2) == 0,
	      "earlier packets' signals %lld %lld", (long long)gtq_value(s),
	      (long long)gtq_value(s2));
	CHECK(hsagpu_signal_timestamps(s, &st, &en) == 0, "timestamps");
	DIAG("%s: BUSY(%llu ns): start %llu end %llu (%llu ns)", d->pci,
	     (unsigned long long)busy, (unsigned long long)st,
	     (unsigned long long)en, (unsigned long long)(en - st));
	CHECK(st != 0 && st <= en, "BUSY timestamps start %llu end %llu",
	      (unsigned long long)st, (unsigned long long)en);
	CHECK(en - st >= busy, "BUSY took %llu ns of device time, asked %llu",
	      (unsigned long long)(en - st), (unsigned long long)busy);
	CHECK(ts[0] <= st && en <= ts[1],
	      "TIMESTAMP before %llu / BUSY %llu..%llu / TIMESTAMP after %llu",
	      (unsigned long long)ts[0], (unsigned long long)st,
	      (unsigned long long)en, (unsigned long long)ts[1]);
	sp = hsagpu_signal_ptr(s2);
	CHECK(sp->start_ts && sp->start_ts <= sp->end_ts && sp->end_ts <= st,
	      "agent dispatch timestamps %llu..%llu (BUSY starts %llu)",
	      (unsigned long long)sp->start_ts, (unsigned long long)sp->end_ts,
	      (unsigned long long)st);

	/* Without HSAGPU_QUEUE_PROFILE the device leaves them alone. */
	sp = hsagpu_signal_ptr(s3);
	sp->start_ts = 0;
	sp->end_ts = 0;
	hsagpu_signal_store_release(s3, 1);
	gtq_busy(np, &ka, GTQ_MS, s3, 0);
	GTQ_WAIT(s3, 0, 5000);
	CHECK(sp->start_ts == 0 && sp->end_ts == 0,
	      "non-profiling queue wrote timestamps %llu..%llu",
	      (unsigned long long)sp->start_ts, (unsigned long long)sp->end_ts);

	hsagpu_signal_destroy(s);
	hsagpu_signal_destroy(s2);
	hsagpu_signal_destroy(s3);
	CHECK(hsagpu_queue_destroy(p) == 0, "destroy profiling queue");
	CHECK(hsagpu_queue_destroy(np) == 0, "destroy queue");
}

/*
 * BUSY over every geometry of cases[] (1-D, 2-D, 3-D, partial workgroups,
 * grid < workgroup): it occupies the device for its kernarg's ns of
 * device time whatever the grid, completes once, and writes nothing (it
 * has no pointer arguments). On a profiling queue its signal's end -
 * start is at least ns, inside TIMESTAMP packets before and after it.
 */
#define NCASES (sizeof(cases) / sizeof(cases[0]))
#define BUSY_KARG_FILL 0xa5

static int busy_kargs_intact(const volatile uint8_t *kb, uint64_t ns)
{
	uint64_t v;

	memcpy(&v, (const void *)kb, 8);
	for (int i = 8; i < 64; i++)
		if (kb[i] != BUSY_KARG_FILL)
			return 0;
	return v == ns;
}

/* The fields of a signal the device has no business changing. */
static int signal_rest_same(const volatile struct hsagpu_signal *a,
			    const struct hsagpu_signal *b)
{
	return a->kind == b->kind && a->event_mailbox_ptr == b->event_mailbox_ptr &&
	       a->event_id == b->event_id && a->reserved1 == b->reserved1 &&
	       a->queue_ptr == b->queue_ptr && a->reserved3 == b->reserved3;
}

static void test_busy_geometry(struct gtq_dev *d)
{
	hsagpu_queue_t *p = gtq_queue(d, 16, HSAGPU_QUEUE_PROFILE);
	hsagpu_queue_t *q = gtq_queue(d, 64, 0);
	volatile uint64_t *ts = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	volatile uint8_t *kb = gtq_alloc(d, 4096, HSAGPU_RT_MEM_SYSTEM);
	hsagpu_signal_t s = gtq_signal(d, 1), before = gtq_signal(d, 1);
	hsagpu_signal_t after = gtq_signal(d, 1);
	volatile struct hsagpu_signal *sp = hsagpu_signal_ptr(s);
	struct hsagpu_queue_status st0, st1;
	struct hsagpu_signal snap;
	unsigned int bad = 0;
	const int many = 40;    /* > 16 in flight per queue: some must wait */

	if (!p || !q || !ts || !kb || !sp)
		return;
	for (size_t i = 0; i < NCASES; i++) {
		const struct kcase *k = &cases[i];
		volatile uint8_t *ka = kb + 64 * i;
		uint64_t ns = (3 + i) * GTQ_MS, bs = 0, be = 0;

		memset((void *)ka, BUSY_KARG_FILL, 64);
		memcpy((void *)ka, &ns, 8);
		sp->start_ts = 0;
		sp->end_ts = 0;
		hsagpu_signal_store_release(s, 1);
		hsagpu_signal_store_release(before, 1);
		hsagpu_signal_store_release(after, 1);
		memcpy(&snap, (const void *)sp, sizeof(snap));
		ts[2 * i] = ts[2 * i + 1] = 0;
		__sync_synchronize();
		gtq_agent(p, HSAGPU_AGENT_TIMESTAMP, (void *)&ts[2 * i], 0, before, 0);
		gtq_dispatch(p, HSAGPU_KERNEL_BUSY, (const void *)ka, k->dims,
			     k->grid, k->wg, s, 1);
		gtq_agent(p, HSAGPU_AGENT_TIMESTAMP, (void *)&ts[2 * i + 1], 0,
			  after, 1);
		if (!gtq_wait_eq(after, 0, 5000)) {
			uint32_t err = 0;
			uint64_t id = 0;

			CHECK(0, "BUSY %uD grid %ux%ux%u: queue state %d error %u id %llu",
			      k->dims, k->grid[0], k->grid[1], k->grid[2],
			      hsagpu_queue_state(p, &err, &id), err,
			      (unsigned long long)id);
			break;
		}
		hsagpu_signal_timestamps(s, &bs, &be);
		CHECK(gtq_value(s) == 0, "BUSY %uD grid %ux%ux%u wg %ux%ux%u: signal %lld, expected 0",
		      k->dims, k->grid[0], k->grid[1], k->grid[2], k->wg[0],
		      k->wg[1], k->wg[2], (long long)gtq_value(s));
		CHECK(bs && be - bs >= ns,
		      "BUSY %uD grid %ux%ux%u: %llu..%llu is %llu ns of device time, asked %llu",
		      k->dims, k->grid[0], k->grid[1], k->grid[2],
		      (unsigned long long)bs, (unsigned long long)be,
		      (unsigned long long)(be - bs), (unsigned long long)ns);
		CHECK(ts[2 * i] && ts[2 * i] <= bs && be <= ts[2 * i + 1],
		      "BUSY %uD grid %ux%ux%u: TIMESTAMP %llu / BUSY %llu..%llu / TIMESTAMP %llu",
		      k->dims, k->grid[0], k->grid[1], k->grid[2],
		      (unsigned long long)ts[2 * i], (unsigned long long)bs,
		      (unsigned long long)be, (unsigned long long)ts[2 * i + 1]);
		CHECK(busy_kargs_intact(ka, ns),
		      "BUSY %uD grid %ux%ux%u wrote into its kernarg block",
		      k->dims, k->grid[0], k->grid[1], k->grid[2]);
		CHECK(signal_rest_same(sp, &snap),
		      "BUSY %uD grid %ux%ux%u changed its signal beyond value and timestamps",
		      k->dims, k->grid[0], k->grid[1], k->grid[2]);
	}
	DIAG("%s: BUSY over %zu geometries", d->pci, NCASES);

	/*
	 * Many multi-dimensional BUSYs in flight at once, more than a queue
	 * holds (16): each completes exactly once (one decrement, one
	 * retired packet) whatever the number of work-items.
	 */
	CHECK(gtq_status(q, &st0) == 0, "QUEUE_STATUS");
	hsagpu_signal_store_release(s, many);
	hsagpu_signal_store_release(after, 1);
	for (int i = 0; i < many; i++) {
		const struct kcase *k = &cases[4 + i % (NCASES - 4)];
		volatile uint8_t *ka = kb + 64 * (NCASES + i);
		uint64_t ns = GTQ_MS + i * 100000ULL;

		memset((void *)ka, BUSY_KARG_FILL, 64);
		memcpy((void *)ka, &ns, 8);
		__sync_synchronize();
		gtq_dispatch(q, HSAGPU_KERNEL_BUSY, (const void *)ka, k->dims,
			     k->grid, k->wg, s, 0);
	}
	/* Behind all of them: when it completes, every BUSY has. */
	gtq_agent(q, HSAGPU_AGENT_NOP, NULL, 0, after, 1);
	GTQ_WAIT(after, 0, 10000);
	CHECK(gtq_value(s) == 0, "%d BUSYs in flight: signal %lld, expected 0 (%s)",
	      many, (long long)gtq_value(s),
	      gtq_value(s) < 0 ? "completed twice" : "not all completed");
	CHECK(gtq_status(q, &st1) == 0, "QUEUE_STATUS");
	CHECK(st1.retired - st0.retired == (uint32_t)many + 1,
	      "retired %u packets, expected %d BUSY + 1 NOP",
	      st1.retired - st0.retired, many);
	for (int i = 0; i < many; i++)
		bad += !busy_kargs_intact(kb + 64 * (NCASES + i),
					  GTQ_MS + i * 100000ULL);
	CHECK(bad == 0, "%u of %d in-flight BUSYs wrote into their kernarg", bad,
	      many);
	CHECK(gtq_wait_idle(q, 2000) && gtq_valid_headers(q) == 0,
	      "ring not idle with every header INVALID");

	hsagpu_signal_destroy(s);
	hsagpu_signal_destroy(before);
	hsagpu_signal_destroy(after);
	CHECK(hsagpu_queue_destroy(p) == 0, "destroy profiling queue");
	CHECK(hsagpu_queue_destroy(q) == 0, "destroy queue");
}

int main(void)
{
	int n = hsagpu_agent_count();
	int ran = 0;

	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	for (int i = 0; i < n; i++) {
		struct gtq_dev d;
		hsagpu_queue_t *q;

		if (gtq_open(i, &d) != 1) {
			gtq_close(&d);
			continue;
		}
		DIAG("%s: %s, VRAM %llu MiB", d.pci, d.info->name,
		     (unsigned long long)(d.info->vram_size >> 20));
		q = gtq_queue(&d, 64, 0);
		if (q) {
			test_memory(&d, q, HSAGPU_RT_MEM_SYSTEM, "system");
			test_memory(&d, q, HSAGPU_RT_MEM_VRAM, "VRAM");
			test_cross(&d, q);
			CHECK(gtq_wait_idle(q, 2000), "queue not idle");
			CHECK(gtq_valid_headers(q) == 0,
			      "ring slots not back to INVALID");
			CHECK(hsagpu_queue_destroy(q) == 0, "queue destroy");
		}
		test_agent(&d);
		test_profile(&d);
		test_busy_geometry(&d);
		gtq_close(&d);
		ran++;
	}
	DIAG("kernels checked on %d of %d devices", ran, n);
	return gtq_result(ran, n);
}
