// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The DMA engine on one device: copies in every direction (system memory
 * to VRAM, VRAM to system memory, VRAM to VRAM, system to system) from
 * 1 byte to 64 MiB at odd alignments, with guard bytes around every
 * destination checked untouched; fills with every byte phase; scatter-
 * gather lists of 1 to 10,000 entries (lists in system memory and in
 * VRAM); packets of a queue in order, two queues at once; malformed DMA
 * packets give their queue error (and write nothing); the traffic
 * counters equal the MPS/MRRS arithmetic and follow Device Control when
 * setpci changes MPS and MRRS. Device 0 gets everything, the others a
 * round trip. With GPU virtual memory a bus address in a packet (own
 * BARs, unmapped, above the address limit, past VRAM) is only a number
 * nothing is mapped at: a VM fault of the DMA client at that address,
 * nothing written. What the bus layer itself does with such addresses
 * is checked on a queue of a file without GPU VM (VMID 0). Skips where the device has no DMA engine; passes without
 * running where the platform refuses queues (as t-kernels does).
 */
#include "gtdma.h"

#define G 4096                          /* guard bytes either side */
#define BIG_MAX (64ULL << 20)
#define SG_SYS 4096 * 1024              /* contiguous system buffers */
#define LIST_CAP 20000
#define MS_BIG 60000

struct env {
	struct gtq_dev *d;
	hsagpu_queue_t *q;
	hsagpu_dma_list_t *list;
	hsagpu_signal_t sig;
	uint64_t big;                   /* largest transfer */
	/* BIG + 3 G each: src* hold a pattern, dst* are destinations */
	uint8_t *ssrc, *sdst;           /* system memory */
	volatile uint8_t *vsrc, *vdst;  /* VRAM */
	uint8_t *sg_src, *sg_dst;       /* system, 4 MiB, one segment */
	int cases;
};

/* Copy with the runtime (it builds SG lists over segments as needed). */
static int rt_copy(struct env *e, void *dst, const void *src, size_t size)
{
	int64_t id;

	hsagpu_signal_store_release(e->sig, 1);
	id = hsagpu_dma_copy(e->q, e->list, dst, src, size, e->sig);
	CHECK(id >= 0, "hsagpu_dma_copy(%zu bytes): %lld", size, (long long)id);
	if (id < 0)
		return 0;
	if (!gtq_wait_eq(e->sig, 0, MS_BIG)) {
		uint32_t err = 0;
		uint64_t eid = 0;
		int st = hsagpu_queue_state(e->q, &err, &eid);

		CHECK(0, "copy of %zu bytes did not complete: signal %lld, queue state %d error %u",
		      size, (long long)gtq_value(e->sig), st, err);
		return 0;
	}
	return 1;
}

static int rt_fill(struct env *e, void *dst, uint32_t pattern, size_t size)
{
	int64_t id;

	hsagpu_signal_store_release(e->sig, 1);
	id = hsagpu_dma_fill(e->q, e->list, dst, pattern, size, e->sig);
	CHECK(id >= 0, "hsagpu_dma_fill(%zu bytes): %lld", size, (long long)id);
	if (id < 0)
		return 0;
	CHECK(gtq_wait_eq(e->sig, 0, MS_BIG), "fill of %zu bytes: signal %lld",
	      size, (long long)gtq_value(e->sig));
	return 1;
}

/* Bytes around [p, p + n) (G either side) still hold @guard? */
static void check_guards(const volatile uint8_t *p, size_t n, uint8_t guard,
			 const char *what)
{
	size_t a = gtd_find_not(p - G, G, guard);
	size_t b = gtd_find_not(p + n, G, guard);

	CHECK(a == G, "%s: guard byte %zd before the destination is 0x%02x",
	      what, (ssize_t)a - G, p[(ssize_t)a - G]);
	CHECK(b == G, "%s: guard byte %zu after the destination is 0x%02x",
	      what, b, p[n + b]);
}

/* Copies ------------------------------------------------------------- */

struct dir {
	const char *name;
	int src_vram, dst_vram;
};

static const struct dir dirs[] = {
	{ "sys->vram", 0, 1 },
	{ "vram->sys", 1, 0 },
	{ "vram->vram", 1, 1 },
	{ "sys->sys", 0, 0 },
};

static const uint32_t offs[][2] = {     /* src, dst offsets */
	{ 0, 0 }, { 1, 0 }, { 0, 1 }, { 3, 5 }, { 4093, 7 }, { 64, 4095 },
	{ 7, 7 }, { 2048, 3 },
};
#define NOFFS (sizeof(offs) / sizeof(offs[0]))

static void copy_case(struct env *e, const struct dir *dir, size_t size,
		      uint32_t soff, uint32_t doff)
{
	uint8_t *src = (uint8_t *)(dir->src_vram ? e->vsrc : e->ssrc) + G + soff;
	volatile uint8_t *dst = (dir->dst_vram ? e->vdst : e->sdst) + G + doff;
	uint8_t guard = e->cases & 1 ? 0x5a : 0xa5;
	char what[96];
	size_t bad;

	e->cases++;
	snprintf(what, sizeof(what), "%s %zu bytes, src +%u, dst +%u", dir->name,
		 size, soff, doff);
	memset((void *)(dst - G), guard, size + 2 * G);
	__sync_synchronize();
	if (!rt_copy(e, (void *)dst, src, size))
		return;
	bad = gtd_diff(dst, src, size);
	CHECK(bad == size, "%s: byte %zu is 0x%02x, source 0x%02x", what, bad,
	      bad < size ? dst[bad] : 0, bad < size ? src[bad] : 0);
	check_guards(dst, size, guard, what);
}

static void test_copies(struct env *e)
{
	static const size_t sizes[] = {
		1, 2, 3, 4, 5, 7, 8, 15, 16, 31, 63, 64, 65, 127, 128, 129, 255,
		256, 257, 511, 4095, 4096, 4097, 65535, 65536 + 7,
		(1 << 20) + 1, (4 << 20) + 13, (9 << 20) - 3,
	};
	unsigned int n = 0;

	for (unsigned int di = 0; di < 4; di++) {
		const struct dir *dir = &dirs[di];

		for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			const uint32_t *o = offs[(i + di) % NOFFS];

			/* past the buffers (small VRAM, dma_big): not this run's */
			if (sizes[i] > e->big)
				continue;
			copy_case(e, dir, sizes[i], o[0], o[1]);
			/* small sizes: every alignment pair */
			if (sizes[i] <= 16)
				for (unsigned int k = 1; k < NOFFS; k++)
					copy_case(e, dir, sizes[i],
						  offs[(i + di + k) % NOFFS][0],
						  offs[(i + di + k) % NOFFS][1]);
			n++;
		}
		/* the largest transfer, aligned and not */
		copy_case(e, dir, e->big, 0, 0);
		if (di == 0)
			copy_case(e, dir, e->big - 4096, 4093, 1);
	}
	DIAG("%s: %d copies in 4 directions, 1 B .. %llu MiB, guards intact",
	     e->d->pci, e->cases, (unsigned long long)(e->big >> 20));
	(void)n;
}

/* Fills -------------------------------------------------------------- */

static void test_fills(struct env *e)
{
	static const uint32_t patterns[] = {
		0x00000000, 0xffffffff, 0x11223344, 0xdeadbeef, 0x000000ff,
		0x80000001,
	};
	static const size_t sizes[] = {
		1, 2, 3, 4, 5, 6, 7, 9, 63, 4097, (1 << 20) + 3, (4 << 20) + 5,
	};
	int nfill = 0;

	for (int vram = 0; vram < 2; vram++) {
		volatile uint8_t *base = vram ? e->vdst : e->sdst;

		for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			uint32_t pat = patterns[(i + vram) % 6];
			uint32_t off = offs[i % NOFFS][1];
			volatile uint8_t *dst = base + G + off;
			uint8_t guard = pat & 0xff ? 0x00 : 0xa5;
			char what[96];
			size_t bad;

			if (sizes[i] > e->big)
				continue;
			snprintf(what, sizeof(what), "fill %s %zu bytes at +%u pattern 0x%08x",
				 vram ? "vram" : "sys", sizes[i], off, pat);
			memset((void *)(dst - G), guard, sizes[i] + 2 * G);
			__sync_synchronize();
			if (!rt_fill(e, (void *)dst, pat, sizes[i]))
				continue;
			bad = gtd_check_fill(dst, sizes[i], pat);
			CHECK(bad == sizes[i], "%s: byte %zu is 0x%02x", what, bad,
			      bad < sizes[i] ? dst[bad] : 0);
			check_guards(dst, sizes[i], guard, what);
			nfill++;
		}
	}
	/* the largest fill, into VRAM, odd start */
	memset((void *)e->vdst, 0, e->big + 3 * G);
	__sync_synchronize();
	if (rt_fill(e, (void *)(e->vdst + G + 1), 0xc0ffee42, e->big - 1)) {
		size_t bad = gtd_check_fill(e->vdst + G + 1, e->big - 1, 0xc0ffee42);

		CHECK(bad == e->big - 1, "fill of %llu bytes: byte %zu wrong",
		      (unsigned long long)e->big - 1, bad);
		check_guards(e->vdst + G + 1, e->big - 1, 0, "big fill");
		nfill++;
	}
	DIAG("%s: %d fills, every phase, guards intact", e->d->pci, nfill);
}

/* Scatter-gather ----------------------------------------------------- */

struct sgd {
	uint8_t *src;                   /* NULL for a fill */
	volatile uint8_t *dst;
	uint32_t size, pattern;
};

/*
 * A list of @n descriptors: sources from system memory and VRAM,
 * destinations alternating between system memory and VRAM, each
 * followed by a gap of guard bytes. Checks data, gaps and counts.
 */
static void sg_case(struct env *e, uint32_t n, int fill, int list_in_vram,
		    uint32_t maxsize)
{
	struct gtq_dev *d = e->d;
	struct sgd *v = calloc(n, sizeof(*v));
	struct hsagpu_dma_packet pkt;
	uint64_t seed = gtd_mix(n * 2 + fill);
	size_t scur = 0, vcur = 0, vlimit = e->big + G, slimit = SG_SYS - 2 * G;
	volatile struct hsagpu_dma_desc *vlist = NULL;
	uint32_t err = 0;
	uint64_t eid = 0;
	int bad = 0;

	if (!v)
		return;
	memset(e->sg_dst, 0xa5, SG_SYS);
	memset((void *)e->vdst, 0xa5, e->big + 3 * G);
	__sync_synchronize();
	hsagpu_dma_list_reset(e->list);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t r = gtd_mix(seed + i);
		uint32_t size = 1 + r % maxsize;
		int to_vram = (i % 3) != 0 || scur + size + 64 > slimit;
		int from_vram = (r >> 40) & 1;
		size_t *cur = to_vram ? &vcur : &scur;
		int ret;

		if (*cur + size + 64 > (to_vram ? vlimit : slimit)) {
			n = i;          /* out of room: a shorter list */
			break;
		}
		v[i].size = size;
		v[i].dst = (to_vram ? e->vdst : e->sg_dst) + G + *cur;
		*cur += size + 1 + (r >> 20) % 63;      /* gap of 1..63 guard bytes */
		if (fill) {
			v[i].pattern = (uint32_t)(r >> 8);
			ret = hsagpu_dma_list_add_raw(e->list,
						      (uintptr_t)v[i].dst,
						      v[i].pattern, size);
		} else {
			uint64_t soff = (r >> 32) % (SG_SYS - size);

			v[i].src = (from_vram ? (uint8_t *)e->vsrc : e->sg_src) + soff;
			ret = hsagpu_dma_list_add_raw(e->list,
						      (uintptr_t)v[i].dst,
						      (uintptr_t)v[i].src, size);
		}
		CHECK(ret == 0, "add descriptor %u: %d", i, ret);
		if (ret) {
			n = i;
			break;
		}
	}
	CHECK(hsagpu_dma_list_count(e->list) == n, "list has %u descriptors, added %u",
	      hsagpu_dma_list_count(e->list), n);
	memset(&pkt, 0, sizeof(pkt));
	if (list_in_vram) {
		/* The device fetches the list from its own VRAM (src area end). */
		vlist = (volatile struct hsagpu_dma_desc *)(e->vsrc + SG_SYS);
		memcpy((void *)vlist, hsagpu_dma_list_descs(e->list),
		       n * sizeof(struct hsagpu_dma_desc));
		__sync_synchronize();
		hsagpu_packet_dma_sg(&pkt, fill ? HSAGPU_DMA_OP_FILL_SG : HSAGPU_DMA_OP_COPY_SG,
				     (uintptr_t)vlist, n, e->sig);
	} else {
		hsagpu_packet_dma_sg(&pkt, fill ? HSAGPU_DMA_OP_FILL_SG : HSAGPU_DMA_OP_COPY_SG,
				     hsagpu_dma_list_addr(e->list), n, e->sig);
	}
	hsagpu_signal_store_release(e->sig, 1);
	gtd_submit(e->q, &pkt, 0);
	if (!gtq_wait_eq(e->sig, 0, MS_BIG)) {
		int st = hsagpu_queue_state(e->q, &err, &eid);

		CHECK(0, "SG %s of %u descriptors: signal %lld, queue state %d error %u",
		      fill ? "fill" : "copy", n, (long long)gtq_value(e->sig), st, err);
		free(v);
		return;
	}
	/* data */
	for (uint32_t i = 0; i < n && bad < 5; i++) {
		size_t k = fill ? gtd_check_fill(v[i].dst, v[i].size, v[i].pattern)
				: gtd_diff(v[i].dst, v[i].src, v[i].size);

		if (k != v[i].size) {
			bad++;
			CHECK(0, "SG %s, %u descriptors: descriptor %u (%u bytes) wrong at byte %zu",
			      fill ? "fill" : "copy", n, i, v[i].size, k);
		}
	}
	/*
	 * Gaps: destinations were laid out in increasing order in each
	 * buffer; every byte between them (and 64 after the last) is
	 * still 0xa5.
	 */
	{
		volatile uint8_t *prev[2] = { e->sg_dst, e->vdst };

		for (uint32_t i = 0; i <= n && bad < 5; i++) {
			for (int k = 0; k < 2; k++) {
				volatile uint8_t *next;

				if (i < n && (v[i].dst >= e->vdst &&
					      v[i].dst < e->vdst + e->big + 3 * G) != k)
					continue;
				next = i < n ? v[i].dst : prev[k] + 64;
				if (gtd_find_not(prev[k], next - prev[k], 0xa5) !=
				    (size_t)(next - prev[k])) {
					bad++;
					CHECK(0, "SG %s, %u descriptors: bytes before descriptor %u (or after the last) overwritten",
					      fill ? "fill" : "copy", n, i);
				}
				if (i < n)
					prev[k] = v[i].dst + v[i].size;
			}
		}
	}
	CHECK(gtd_find_not(e->vdst, G, 0xa5) == G &&
	      gtd_find_not(e->sg_dst, G, 0xa5) == G,
	      "SG: guard before the first destination overwritten");
	DIAG("%s: SG %s of %u descriptors (list in %s) %s", d->pci,
	     fill ? "fill" : "copy", n, list_in_vram ? "VRAM" : "system memory",
	     bad ? "FAILED" : "ok");
	free(v);
}

static void test_sg(struct env *e)
{
	static const uint32_t counts[] = { 1, 2, 17, 64, 65, 1000, 1024, 1025 };

	for (unsigned int i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		sg_case(e, counts[i], 0, 0, 4096);
	sg_case(e, 10000, 0, 0, 600);
	sg_case(e, 100, 0, 1, 4096);
	sg_case(e, 3, 0, 0, 3 << 20);           /* descriptors across slices */
	sg_case(e, 1000, 1, 0, 4096);
	sg_case(e, 10000, 1, 0, 600);
	sg_case(e, 50, 1, 1, 4096);
}

/* Order and concurrency ---------------------------------------------- */

static void test_order(struct env *e)
{
	struct gtq_dev *d = e->d;
	hsagpu_queue_t *q2 = gtq_queue(d, 64, 0);
	hsagpu_signal_t s1 = gtq_signal(d, 1), s2 = gtq_signal(d, 1);
	size_t n = 2 << 20;
	uint8_t *a = e->sg_src;                   /* system, pattern */
	volatile uint8_t *b = e->vdst + G;        /* VRAM */
	uint8_t *c = e->sg_dst;                   /* system */
	uint8_t *big_src = (uint8_t *)e->vsrc + G;
	/* after b's n bytes and a guard; at most 24 MiB (the reference's) */
	volatile uint8_t *big_dst = e->vdst + 2 * G + n;
	size_t big = e->big > n + G ? e->big - n - G : 0;

	if (!q2)
		return;
	/* a -> b, b -> c, b filled, with no barrier bit: in order or wrong */
	memset(c, 0, n);
	memset((void *)e->vdst, 0, G + n);
	__sync_synchronize();
	gtd_copy(e->q, (uintptr_t)b, (uintptr_t)a, n,
		 GTD_NONE);
	gtd_copy(e->q, (uintptr_t)c, (uintptr_t)b, n,
		 GTD_NONE);
	gtd_fill(e->q, (uintptr_t)b, 0x01020304, n, s1);
	GTQ_WAIT(s1, 0, MS_BIG);
	CHECK(gtd_diff(c, a, n) == n, "copy through VRAM: packets out of order (byte %zu)",
	      gtd_diff(c, a, n));
	CHECK(gtd_check_fill(b, n, 0x01020304) == n, "fill after the copies lost");

	/* two queues with long copies at once: slices interleave, both right */
	if (big > (24 << 20))
		big = 24 << 20;
	if (big > (1 << 20)) {
		hsagpu_signal_store_release(s1, 1);
		memset((void *)big_dst, 0, big);
		memset(e->sdst, 0, n);
		__sync_synchronize();
		gtd_copy(e->q, (uintptr_t)big_dst,
			 (uintptr_t)big_src, big, s1);
		for (int i = 0; i < 8; i++)
			gtd_copy(q2, (uintptr_t)(e->sdst + i * (n / 8)),
				 (uintptr_t)(a + i * (n / 8)), n / 8,
				 i == 7 ? s2 : GTD_NONE);
		GTQ_WAIT(s2, 0, MS_BIG);
		GTQ_WAIT(s1, 0, MS_BIG);
		CHECK(gtd_diff(big_dst, big_src, big) == big, "big copy beside another queue wrong");
		CHECK(gtd_diff(e->sdst, a, n) == n, "small copies beside a big one wrong");
	}
	hsagpu_signal_destroy(s1);
	hsagpu_signal_destroy(s2);
	CHECK(hsagpu_queue_destroy(q2) == 0, "destroy second queue");
}

/* Malformed packets -------------------------------------------------- */

enum target { T_SYS, T_VRAM_END, T_BAD, T_BAR5, T_DOORBELL, T_ABOVE_LIMIT };

struct bad {
	const char *what;
	unsigned int err;
	uint8_t op;
	uint16_t format;                /* 0: DMA; else 0x100 | the byte */
	uint32_t flags;
	uint64_t size;                  /* 0: 64 */
	int zero_size;
	uint64_t pattern, res0, res1;
	int sg;                         /* list with these problems: */
	int sg_dst_nonzero, sg_misalign, sg_desc_zero, sg_desc_res, sg_overlap;
	uint32_t sg_count;              /* 0: 4 */
	int overlap;                    /* src = dst + 1 */
	enum target dst_t, src_t;
	int wrote_nothing;              /* validation before any data moves */
	int sig_off;
	int check_bad_addr;
};

/* An address the packet names outright (not our buffer): a VM fault there */
static int bad_addr_case(const struct bad *c)
{
	return c->dst_t != T_SYS || c->src_t != T_SYS;
}

#define COPY .op = HSAGPU_DMA_OP_COPY
#define FILL .op = HSAGPU_DMA_OP_FILL
#define CSG .op = HSAGPU_DMA_OP_COPY_SG, .sg = 1
#define FSG .op = HSAGPU_DMA_OP_FILL_SG, .sg = 1

static const struct bad bads[] = {
	{ "op 0", HSAGPU_QERR_DMA_OP, .op = 0, .wrote_nothing = 1 },
	{ "op 5", HSAGPU_QERR_DMA_OP, .op = 5, .wrote_nothing = 1 },
	{ "op 0xff", HSAGPU_QERR_DMA_OP, .op = 0xff, .wrote_nothing = 1 },
	/* Byte 2 says what a vendor packet is: nothing else is a DMA packet. */
	{ "format 0", HSAGPU_QERR_VENDOR_FORMAT, COPY, .format = 0x100,
	  .wrote_nothing = 1 },
	{ "format 0x81", HSAGPU_QERR_VENDOR_FORMAT, COPY, .format = 0x181,
	  .wrote_nothing = 1 },
	{ "format 0x7f", HSAGPU_QERR_VENDOR_FORMAT, FILL, .format = 0x17f,
	  .wrote_nothing = 1 },
	{ "flags 1", HSAGPU_QERR_DMA_OP, COPY, .flags = 1, .wrote_nothing = 1 },
	{ "flags 0x80000000", HSAGPU_QERR_DMA_OP, FILL, .flags = 0x80000000,
	  .wrote_nothing = 1 },
	{ "reserved[0]", HSAGPU_QERR_DMA_OP, COPY, .res0 = 1, .wrote_nothing = 1 },
	{ "reserved[1]", HSAGPU_QERR_DMA_OP, FILL, .res1 = 1ULL << 63,
	  .wrote_nothing = 1 },
	{ "fill pattern above 32 bits", HSAGPU_QERR_DMA_OP, FILL,
	  .pattern = 0x100000000ULL, .wrote_nothing = 1 },
	{ "COPY_SG with dst", HSAGPU_QERR_DMA_OP, CSG, .sg_dst_nonzero = 1,
	  .wrote_nothing = 1 },
	{ "FILL_SG with dst", HSAGPU_QERR_DMA_OP, FSG, .sg_dst_nonzero = 1,
	  .wrote_nothing = 1 },
	{ "descriptor reserved", HSAGPU_QERR_DMA_OP, CSG, .sg_desc_res = 1 },
	{ "copy size 0", HSAGPU_QERR_DMA_SIZE, COPY, .zero_size = 1, .wrote_nothing = 1 },
	{ "fill size 0", HSAGPU_QERR_DMA_SIZE, FILL, .zero_size = 1, .wrote_nothing = 1 },
	{ "copy size 2^40 + 1", HSAGPU_QERR_DMA_SIZE, COPY,
	  .size = HSAGPU_DMA_SIZE_MAX + 1, .wrote_nothing = 1 },
	{ "fill size 2^64 - 1", HSAGPU_QERR_DMA_SIZE, FILL, .size = ~0ULL,
	  .wrote_nothing = 1 },
	{ "SG count 0", HSAGPU_QERR_DMA_SIZE, CSG, .zero_size = 1, .wrote_nothing = 1 },
	{ "SG count 65537", HSAGPU_QERR_DMA_SIZE, FSG,
	  .sg_count = HSAGPU_DMA_SG_MAX + 1, .wrote_nothing = 1 },
	{ "SG descriptor size 0", HSAGPU_QERR_DMA_SIZE, CSG, .sg_desc_zero = 1 },
	{ "SG list + 4", HSAGPU_QERR_ALIGNMENT, CSG, .sg_misalign = 4,
	  .wrote_nothing = 1 },
	{ "SG list + 1", HSAGPU_QERR_ALIGNMENT, FSG, .sg_misalign = 1,
	  .wrote_nothing = 1 },
	{ "copy onto itself + 1", HSAGPU_QERR_DMA_OVERLAP, COPY, .overlap = 1,
	  .wrote_nothing = 1 },
	{ "SG descriptor overlapping", HSAGPU_QERR_DMA_OVERLAP, CSG, .sg_overlap = 1 },
	{ "unmapped destination", HSAGPU_QERR_ADDRESS, COPY, .dst_t = T_BAD,
	  .check_bad_addr = 1 },
	{ "unmapped source", HSAGPU_QERR_ADDRESS, COPY, .src_t = T_BAD,
	  .check_bad_addr = 1, .wrote_nothing = 1 },
	{ "unmapped fill", HSAGPU_QERR_ADDRESS, FILL, .dst_t = T_BAD,
	  .check_bad_addr = 1 },
	{ "destination = own BAR5 (MMIO)", HSAGPU_QERR_ADDRESS, COPY,
	  .dst_t = T_BAR5, .check_bad_addr = 1 },
	{ "source = own doorbell BAR", HSAGPU_QERR_ADDRESS, COPY,
	  .src_t = T_DOORBELL, .check_bad_addr = 1, .wrote_nothing = 1 },
	{ "address >= 2^p2p-addr-bits", HSAGPU_QERR_ADDRESS, COPY,
	  .src_t = T_ABOVE_LIMIT, .wrote_nothing = 1 },
	{ "fill past the end of VRAM", HSAGPU_QERR_ADDRESS, FILL, .size = 128,
	  .dst_t = T_VRAM_END },
	{ "completion signal + 4", HSAGPU_QERR_SIGNAL, COPY, .sig_off = 4,
	  .wrote_nothing = 1 },
};

struct bad_env {
	struct env *e;
	volatile uint64_t *mem;         /* system scratch */
	uint8_t *buf;                   /* system, 64 KiB: data */
	uint64_t vram_bar, vram_size, bar5, bar2;
};

static uint64_t bad_target(struct bad_env *b, enum target t, uint64_t dflt)
{
	uint64_t bits = 44;

	switch (t) {
	case T_BAD:
		return GTQ_BAD_ADDR;
	case T_BAR5:
		return b->bar5 + 0x1000;
	case T_DOORBELL:
		return b->bar2;
	case T_VRAM_END:
		return b->vram_bar + b->vram_size - 64;
	case T_ABOVE_LIMIT:
		/* 3 << bits: no BAR of this boot and no RAM is up there */
		gt_param_u64("p2pbits", 0, &bits);
		return bits >= 62 ? dflt : (3ULL << bits) + 0x1000;
	default:
		return dflt;
	}
}

static void run_bad(struct bad_env *b, const struct bad *c)
{
	struct env *e = b->e;
	struct gtq_dev *d = e->d;
	hsagpu_agent_t *a = d->agent;
	hsagpu_queue_t *q = gtq_queue(d, 16, 0);
	hsagpu_signal_t before = gtq_signal(d, 1), bsig = gtq_signal(d, 1);
	hsagpu_signal_t after = gtq_signal(d, 1);
	struct hsagpu_dma_packet pkt;
	struct hsagpu_dma_desc *desc = (struct hsagpu_dma_desc *)(b->mem + 64);
	uint8_t *dst = b->buf + 8192, *src = b->buf;
	uint64_t dst_bus = gtq_ptr(a, dst), src_bus = gtq_ptr(a, src);
	uint32_t errs0 = gtq_reg(d, HSAGPU_REG_PKT_ERRORS), err = 0;
	uint64_t eid = ~0ULL;
	struct bad vmc;
	int64_t id;
	int state;

	if (!q)
		return;
	memset(b->buf, 0x33, 8192);
	memset(dst, 0xa5, 8192);
	b->mem[8] = 0;
	__sync_synchronize();
	/* a good packet first */
	gtd_copy(q, gtq_ptr(a, (void *)&b->mem[8]), gtq_ptr(a, src), 8, before);
	GTQ_WAIT(before, 0, 3000);
	CHECK(b->mem[8] == 0x3333333333333333ULL, "%s: good packet before did not run",
	      c->what);

	memset(&pkt, 0, sizeof(pkt));
	pkt.format = c->format ? (uint8_t)c->format : HSAGPU_VENDOR_FORMAT_DMA;
	pkt.op = c->op;
	pkt.flags = c->flags;
	pkt.reserved[0] = c->res0;
	pkt.reserved[1] = c->res1;
	pkt.completion_signal = bsig.handle + c->sig_off;
	if (c->sg) {
		uint32_t n = c->sg_count ? c->sg_count : 4;

		memset(desc, 0, 4 * sizeof(*desc));
		for (int i = 0; i < 4; i++) {
			desc[i].src = c->op == HSAGPU_DMA_OP_FILL_SG ? 0x44444444 :
				      src_bus + 16 * i;
			desc[i].dst = dst_bus + 1024 * i;
			desc[i].size = 16;
		}
		if (c->sg_desc_zero)
			desc[1].size = 0;
		if (c->sg_desc_res)
			desc[1].reserved = 1;
		if (c->sg_overlap) {
			desc[2].src = dst_bus + 2048 + 8;
		}
		pkt.src = gtq_ptr(a, desc) + c->sg_misalign;
		pkt.dst = c->sg_dst_nonzero ? dst_bus : 0;
		pkt.size = c->zero_size ? 0 : n;
	} else {
		pkt.dst = bad_target(b, c->dst_t, dst_bus);
		if (c->op == HSAGPU_DMA_OP_FILL)
			pkt.pattern = c->pattern ? c->pattern : 0x44444444;
		else
			pkt.src = c->overlap ? dst_bus + 1 : bad_target(b, c->src_t, src_bus);
		pkt.size = c->zero_size ? 0 : c->size ? c->size : 64;
	}
	__sync_synchronize();
	id = hsagpu_queue_submit(q, &pkt, GTD_DMA_HDR(0));
	CHECK(id >= 0, "%s: submit %lld", c->what, (long long)id);
	{
		struct hsagpu_agent_dispatch_packet ap;
		uint64_t args[4] = { 3, 0, 0, 0 };

		b->mem[9] = 0;
		hsagpu_packet_agent(&ap, HSAGPU_AGENT_WRITE_VALUE,
				    gtq_ptr(a, (void *)&b->mem[9]), args, after);
		hsagpu_queue_submit(q, &ap, GTQ_HDR(HSAGPU_PKT_TYPE_AGENT_DISPATCH, 0));
	}
	state = gtd_wait_error(q, &err, &eid);
	DIAG("%-32s -> state %d error %u id %llu (bad packet %lld)", c->what,
	     state, err, (unsigned long long)eid, (long long)id);
	CHECK(state == HSAGPU_QSTATE_ERROR, "%s: queue state %d, not ERROR", c->what,
	      state);
	if (d->vm && bad_addr_case(c)) {
		struct hsagpu_queue_status st;
		int wr = c->dst_t != T_SYS;
		uint64_t fa = wr ? pkt.dst : pkt.src;

		CHECK(gtq_status(q, &st) == 0, "%s: QUEUE_STATUS", c->what);
		gtq_check_fault(c->what, &st, q->id, fa & ~4095ULL,
				(fa & ~4095ULL) + 4096 + pkt.size,
				HSAGPU_VM_CLIENT_DMA,
				wr ? HSAGPU_VM_ACCESS_WRITE : HSAGPU_VM_ACCESS_READ,
				-1);
		vmc = (struct bad){ .what = c->what,
				    .err = HSAGPU_QERR_VM_FAULT,
				    .wrote_nothing = 1 };
		c = &vmc;
	}
	CHECK(err == c->err, "%s: error %u, expected %u", c->what, err, c->err);
	CHECK(eid == (uint64_t)id, "%s: error dispatch id %llu, bad packet %lld",
	      c->what, (unsigned long long)eid, (long long)id);
	CHECK(b->mem[9] == 0 && gtq_value(after) == 1, "%s: the packet after the bad one ran",
	      c->what);
	CHECK(gtq_value(bsig) == 1, "%s: bad packet's signal completed", c->what);
	CHECK(gtq_reg(d, HSAGPU_REG_PKT_ERRORS) - errs0 == 1,
	      "%s: PKT_ERRORS advanced by %u", c->what,
	      gtq_reg(d, HSAGPU_REG_PKT_ERRORS) - errs0);
	if (c->wrote_nothing)
		CHECK(gtd_find_not(dst, 8192, 0xa5) == 8192,
		      "%s: the bad packet wrote its destination (byte %zu)", c->what,
		      gtd_find_not(dst, 8192, 0xa5));
	if (c->check_bad_addr) {
		uint64_t want = c->dst_t != T_SYS ? pkt.dst : pkt.src;
		uint64_t got = gtq_reg(d, HSAGPU_REG_DMA_BAD_ADDR_LO) |
			       (uint64_t)gtq_reg(d, HSAGPU_REG_DMA_BAD_ADDR_HI) << 32;

		CHECK(got == want, "%s: DMA_BAD_ADDR 0x%llx, expected 0x%llx", c->what,
		      (unsigned long long)got, (unsigned long long)want);
	}
	CHECK(hsagpu_queue_destroy(q) == 0, "%s: destroy the broken queue", c->what);
	hsagpu_signal_destroy(before);
	hsagpu_signal_destroy(bsig);
	hsagpu_signal_destroy(after);
}

/*
 * The bus layer's own checks of raw addresses (BARs, the address limit,
 * VRAM's end, nothing there): reachable only from VMID 0, i.e. a file
 * without GPU virtual memory.
 */
static void test_malformed_bus(struct env *e)
{
	struct env e0 = { 0 };
	struct bad_env b = { .e = &e0 };
	struct gtq_dev d0;
	uint64_t sz;

	if (gtq_open_vm(0, &d0, 0) != 1) {
		gtq_close(&d0);
		return;
	}
	e0.d = &d0;
	b.mem = gtq_alloc(&d0, 128 << 10, HSAGPU_RT_MEM_SYSTEM);
	b.buf = (uint8_t *)b.mem + 65536;
	CHECK(gtpci_bar(d0.pci, HSAGPU_BAR_VRAM, &b.vram_bar, &b.vram_size) == 0 &&
	      gtpci_bar(d0.pci, HSAGPU_BAR_MMIO, &b.bar5, &sz) == 0 &&
	      gtpci_bar(d0.pci, HSAGPU_BAR_DOORBELL, &b.bar2, &sz) == 0,
	      "%s: BAR addresses from sysfs", d0.pci);
	for (unsigned int i = 0; b.mem && i < sizeof(bads) / sizeof(bads[0]); i++)
		if (bad_addr_case(&bads[i]))
			run_bad(&b, &bads[i]);
	gtq_close(&d0);
	(void)e;
}

static void test_malformed(struct env *e)
{
	struct bad_env b = { .e = e };
	struct gtq_dev *d = e->d;
	uint64_t sz;

	b.mem = (volatile uint64_t *)e->sg_dst;
	b.buf = e->sg_dst + 65536;
	CHECK(gtpci_bar(d->pci, HSAGPU_BAR_VRAM, &b.vram_bar, &b.vram_size) == 0 &&
	      gtpci_bar(d->pci, HSAGPU_BAR_MMIO, &b.bar5, &sz) == 0 &&
	      gtpci_bar(d->pci, HSAGPU_BAR_DOORBELL, &b.bar2, &sz) == 0,
	      "%s: BAR addresses from sysfs", d->pci);
	for (unsigned int i = 0; i < sizeof(bads) / sizeof(bads[0]); i++)
		run_bad(&b, &bads[i]);
	if (d->vm)
		test_malformed_bus(e);
	/* the healthy queue still works */
	CHECK(gtd_run_copy(d, e->q, (uintptr_t)e->sg_dst,
			   (uintptr_t)e->sg_src, 4096, 3000),
	      "the first queue stopped working");
}

/* Counters ----------------------------------------------------------- */

/* One COPY of @n bytes src -> dst, counters checked against @want. */
static void count_case(struct env *e, uint64_t dst, uint64_t src, uint64_t n,
		       const uint64_t want[GTD_NCNT], const char *what)
{
	struct gtd_cnt c0;
	uint32_t pk0 = gtq_reg(e->d, HSAGPU_REG_DMA_PACKETS);

	gtd_counters(e->d, &c0);
	if (!gtd_run_copy(e->d, e->q, dst, src, n, 10000))
		return;
	gtd_check_delta(e->d, &c0, want, what);
	CHECK(gtq_reg(e->d, HSAGPU_REG_DMA_PACKETS) - pk0 == 1,
	      "%s: DMA_PACKETS advanced by %u", what,
	      gtq_reg(e->d, HSAGPU_REG_DMA_PACKETS) - pk0);
}

static void counters_at(struct env *e, uint32_t mps, uint32_t mrrs)
{
	struct gtq_dev *d = e->d;
	uint64_t s = (uintptr_t)(e->sg_src + 3);
	uint64_t sd = (uintptr_t)(e->sg_dst + 1001);
	uint64_t v = (uintptr_t)(e->vdst + 77);
	uint64_t v2 = (uintptr_t)(e->vsrc + 4099);
	uint64_t n = 1000003;   /* < one 4 MiB slice */
	uint64_t w[GTD_NCNT];
	char what[80];

	CHECK(gtq_reg(d, HSAGPU_REG_LINK_MPS) == mps, "%s: LINK_MPS %u, DevCtl says %u",
	      d->pci, gtq_reg(d, HSAGPU_REG_LINK_MPS), mps);
	CHECK(gtq_reg(d, HSAGPU_REG_LINK_MRRS) == mrrs, "%s: LINK_MRRS %u, DevCtl says %u",
	      d->pci, gtq_reg(d, HSAGPU_REG_LINK_MRRS), mrrs);

	snprintf(what, sizeof(what), "sys->vram (MPS %u MRRS %u)", mps, mrrs);
	memset(w, 0, sizeof(w));
	w[0] = gtd_tlps(s, n, mrrs);
	w[1] = n;
	w[HSAGPU_DMA_CLASS_LOCAL * 4 + HSAGPU_DMA_CNT_WR_BYTES] = n;
	count_case(e, v, s, n, w, what);

	snprintf(what, sizeof(what), "vram->sys (MPS %u MRRS %u)", mps, mrrs);
	memset(w, 0, sizeof(w));
	w[HSAGPU_DMA_CLASS_LOCAL * 4 + HSAGPU_DMA_CNT_RD_BYTES] = n;
	w[2] = gtd_tlps(sd, n, mps);
	w[3] = n;
	count_case(e, sd, v, n, w, what);

	snprintf(what, sizeof(what), "sys->sys (MPS %u MRRS %u)", mps, mrrs);
	memset(w, 0, sizeof(w));
	w[0] = gtd_tlps(s, 333333, mrrs);
	w[1] = 333333;
	w[2] = gtd_tlps(sd, 333333, mps);
	w[3] = 333333;
	count_case(e, sd, s, 333333, w, what);

	snprintf(what, sizeof(what), "vram->vram (MPS %u MRRS %u)", mps, mrrs);
	memset(w, 0, sizeof(w));
	w[HSAGPU_DMA_CLASS_LOCAL * 4 + HSAGPU_DMA_CNT_RD_BYTES] = n;
	w[HSAGPU_DMA_CLASS_LOCAL * 4 + HSAGPU_DMA_CNT_WR_BYTES] = n;
	count_case(e, v, v2, n, w, what);

	/* one byte, and one exactly MPS-aligned block */
	snprintf(what, sizeof(what), "1 byte sys->vram (MPS %u)", mps);
	memset(w, 0, sizeof(w));
	w[0] = 1;
	w[1] = 1;
	w[HSAGPU_DMA_CLASS_LOCAL * 4 + HSAGPU_DMA_CNT_WR_BYTES] = 1;
	count_case(e, v, s + mrrs - 4, 1, w, what);
	snprintf(what, sizeof(what), "%u aligned bytes vram->sys", 4 * mps);
	memset(w, 0, sizeof(w));
	w[HSAGPU_DMA_CLASS_LOCAL * 4 + HSAGPU_DMA_CNT_RD_BYTES] = 4 * mps;
	w[2] = 4;
	w[3] = 4 * mps;
	count_case(e, (uintptr_t)(e->sg_dst + 8192), v, 4 * mps, w, what);
	snprintf(what, sizeof(what), "%u bytes at MPS - 1", mps);
	memset(w, 0, sizeof(w));
	w[HSAGPU_DMA_CLASS_LOCAL * 4 + HSAGPU_DMA_CNT_RD_BYTES] = mps;
	w[2] = 2;
	w[3] = mps;
	count_case(e, (uintptr_t)(e->sg_dst + 8192 + mps - 1), v, mps, w, what);
}

static void test_counters(struct env *e)
{
	struct gtq_dev *d = e->d;
	uint16_t ctl0 = gtpci_devctl(d->pci);
	/* MPS 256 is what DevCap offers; MRRS from 128 to 4096 */
	static const uint16_t settings[][2] = { { 256, 128 }, { 128, 4096 },
						{ 256, 1024 } };

	CHECK(gtpci_exp_cap(d->pci) == HSAGPU_CAP_PCIE_OFFSET,
	      "%s: PCIe capability at 0x%x", d->pci, gtpci_exp_cap(d->pci));
	DIAG("%s: DevCtl 0x%04x: MPS %u, MRRS %u", d->pci, ctl0,
	     gtpci_devctl_mps(ctl0), gtpci_devctl_mrrs(ctl0));
	counters_at(e, gtpci_devctl_mps(ctl0), gtpci_devctl_mrrs(ctl0));
	for (unsigned int i = 0; i < 3; i++) {
		uint32_t mps = settings[i][0], mrrs = settings[i][1];
		uint16_t ctl = ctl0 & ~(0x7 << 5) & ~(0x7 << 12);

		ctl |= (__builtin_ctz(mps) - 7) << 5;
		ctl |= (__builtin_ctz(mrrs) - 7) << 12;
		if (gtpci_set_devctl(d->pci, ctl))
			continue;
		counters_at(e, mps, mrrs);
	}
	gtpci_set_devctl(d->pci, ctl0);
	DIAG("%s: counters checked at 4 MPS/MRRS settings (%d failed checks so far)",
	     d->pci, gt_failures);
	CHECK(gtq_reg(d, HSAGPU_REG_LINK_MPS) == gtpci_devctl_mps(ctl0),
	      "%s: LINK_MPS not back to %u", d->pci, gtpci_devctl_mps(ctl0));
}

/* Identification ----------------------------------------------------- */

static void test_info(struct gtq_dev *d, int idx)
{
	const struct hsagpu_device_info *info = d->info;
	uint64_t bits = 44, vbar = 0, vsize = 0, dbar = 0, dsize = 0;
	uint32_t st = gtq_reg(d, HSAGPU_REG_P2P_STATUS), want = 0;
	uint64_t limit;

	gt_param_u64("p2pbits", idx, &bits);
	CHECK(info->caps & HSAGPU_CAP_DMA, "%s: caps 0x%x without DMA", d->pci, info->caps);
	CHECK(gtq_reg(d, HSAGPU_REG_P2P_ADDR_BITS) == bits,
	      "%s: P2P_ADDR_BITS %u, property %llu", d->pci,
	      gtq_reg(d, HSAGPU_REG_P2P_ADDR_BITS), (unsigned long long)bits);
	CHECK(info->p2p_addr_bits == bits, "%s: GET_INFO p2p_addr_bits %u", d->pci,
	      info->p2p_addr_bits);
	gtpci_bar(d->pci, HSAGPU_BAR_VRAM, &vbar, &vsize);
	gtpci_bar(d->pci, HSAGPU_BAR_DOORBELL, &dbar, &dsize);
	limit = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
	want |= vbar && vbar + vsize - 1 <= limit ? HSAGPU_P2P_VRAM_OK : 0;
	want |= dbar && dbar + dsize - 1 <= limit ? HSAGPU_P2P_DOORBELL_OK : 0;
	want |= want == (HSAGPU_P2P_VRAM_OK | HSAGPU_P2P_DOORBELL_OK) ? HSAGPU_P2P_OK : 0;
	CHECK(st == want, "%s: P2P_STATUS 0x%x, expected 0x%x (BAR0 0x%llx, BAR2 0x%llx, %llu bits)",
	      d->pci, st, want, (unsigned long long)vbar, (unsigned long long)dbar,
	      (unsigned long long)bits);
	CHECK(info->p2p_status == st, "%s: GET_INFO p2p_status 0x%x, register 0x%x",
	      d->pci, info->p2p_status, st);
	CHECK(info->vram_bus_addr == vbar, "%s: GET_INFO vram_bus_addr 0x%llx, BAR0 0x%llx",
	      d->pci, (unsigned long long)info->vram_bus_addr, (unsigned long long)vbar);
	CHECK(!!(info->dma_flags & HSAGPU_DMA_INFO_IOMMU) == gtd_iommu_expected(),
	      "%s: dma_flags 0x%x, IOMMU expected %d", d->pci, info->dma_flags,
	      gtd_iommu_expected());
	if (gtd_iommu_expected())
		CHECK(gtpci_iommu_group(d->pci) >= 0, "%s: no IOMMU group", d->pci);
	DIAG("%s: BAR0 0x%llx, %llu address bits, P2P_STATUS 0x%x, dma_flags 0x%x, IOMMU group %d",
	     d->pci, (unsigned long long)vbar, (unsigned long long)bits, st,
	     info->dma_flags, gtpci_iommu_group(d->pci));
}

/* A round trip through VRAM on a device other than the first. */
static void test_round_trip(struct gtq_dev *d)
{
	hsagpu_queue_t *q = gtq_queue(d, 64, 0);
	size_t n = (1 << 20) + 3;
	uint8_t *s = gtq_alloc(d, 2 << 20, HSAGPU_RT_MEM_SYSTEM);
	uint8_t *r = gtq_alloc(d, 2 << 20, HSAGPU_RT_MEM_SYSTEM);
	uint8_t *v = gtq_alloc(d, 2 << 20, HSAGPU_RT_MEM_VRAM);
	hsagpu_signal_t sig = gtq_signal(d, 2);

	if (q && s && r && v) {
		gtd_pattern(s, n, 42 + d->info->pci_bus);
		memset(r, 0, 2 << 20);
		__sync_synchronize();
		gtd_copy(q, (uintptr_t)(v + 5), (uintptr_t)s, n, sig);
		gtd_copy(q, (uintptr_t)(r + 1), (uintptr_t)(v + 5), n,
			 sig);
		GTQ_WAIT(sig, 0, 10000);
		CHECK(gtd_diff(r + 1, s, n) == n, "%s: round trip through VRAM differs",
		      d->pci);
		CHECK(r[0] == 0 && r[n + 1] == 0, "%s: round trip wrote outside", d->pci);
		DIAG("%s: 1 MiB round trip through VRAM ok", d->pci);
	}
	if (sig.handle)
		hsagpu_signal_destroy(sig);
	if (q)
		hsagpu_queue_destroy(q);
}

int main(void)
{
	int n = hsagpu_agent_count();
	struct gtq_dev devs[GT_MAX_DEVS];
	struct env e = { 0 };
	uint64_t vram, cap;
	int ok;

	setvbuf(stdout, NULL, _IOLBF, 0);      /* lines survive a crash */
	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	if (n <= 0)
		return gt_result();
	if (n > GT_MAX_DEVS)
		n = GT_MAX_DEVS;
	ok = gtq_open(0, &devs[0]);
	if (ok != 1) {
		gtq_close(&devs[0]);
		return gtq_result(0, 1);
	}
	if (!(devs[0].info->caps & HSAGPU_CAP_DMA)) {
		DIAG("%s: no DMA engine (caps 0x%x): skip", devs[0].pci, devs[0].info->caps);
		gtq_close(&devs[0]);
		return 77;
	}
	e.d = &devs[0];
	test_info(e.d, 0);
	vram = e.d->info->vram_size;
	e.big = BIG_MAX;
	/*
	 * hsagpu_test.dma_big=SIZE: the topology boots' cap (the 64 MiB
	 * copies are the reference boots'; a topology changes the path, not
	 * how the engine cuts a large copy)
	 */
	if (gt_param_u64("dma_big", 0, &cap) == 0 && cap >= (4 << 20) && cap < e.big)
		e.big = cap;
	while (e.big > (4 << 20) && 2 * (e.big + 3 * G) + (4 << 20) > vram)
		e.big /= 2;
	e.q = gtq_queue(e.d, 256, 0);
	e.sig = gtq_signal(e.d, 1);
	CHECK(hsagpu_dma_list_create(e.d->agent, LIST_CAP, &e.list) == 0 && e.list,
	      "list of %u descriptors", LIST_CAP);
	e.ssrc = gtq_alloc(e.d, e.big + 3 * G, HSAGPU_RT_MEM_SYSTEM);
	e.sdst = gtq_alloc(e.d, e.big + 3 * G, HSAGPU_RT_MEM_SYSTEM);
	e.vsrc = gtq_alloc(e.d, e.big + 3 * G, HSAGPU_RT_MEM_VRAM);
	e.vdst = gtq_alloc(e.d, e.big + 3 * G, HSAGPU_RT_MEM_VRAM);
	e.sg_src = gtq_alloc(e.d, SG_SYS, HSAGPU_RT_MEM_SYSTEM);
	e.sg_dst = gtq_alloc(e.d, SG_SYS, HSAGPU_RT_MEM_SYSTEM);
	if (e.q && e.list && e.ssrc && e.sdst && e.vsrc && e.vdst && e.sg_src && e.sg_dst) {
		gtd_pattern(e.ssrc, e.big + 3 * G, 1);
		gtd_pattern((void *)e.vsrc, e.big + 3 * G, 2);
		gtd_pattern(e.sg_src, SG_SYS, 3);
		__sync_synchronize();
		DIAG("%s: largest transfer %llu MiB", e.d->pci,
		     (unsigned long long)(e.big >> 20));
		test_copies(&e);
		test_fills(&e);
		test_sg(&e);
		test_order(&e);
		test_counters(&e);
		test_malformed(&e);
	}
	hsagpu_dma_list_destroy(e.list);
	gtq_close(&devs[0]);

	for (int i = 1; i < n; i++) {
		if (gtq_open(i, &devs[i]) == 1) {
			test_info(&devs[i], i);
			test_round_trip(&devs[i]);
		}
		gtq_close(&devs[i]);
	}
	return gt_result();
}
