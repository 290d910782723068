// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-link: what the link timing model (hsa-gpu link-model=on) gives a
 * guest that measures with the device's own timestamps: the profiling
 * timestamps of each DMA packet's completion signal (start when the
 * engine took the packet, end when its data arrived). Needs the
 * sw8-study preset's layout (devices 0-3 behind one switch, 4-7 behind
 * another): 0 -> 1 crosses one switch, 0 -> 4 three.
 *
 * As a test (the default): single transfers, whose modelled time does
 * not depend on the host's speed, must take what the model's arithmetic
 * gives for the links as this guest sees them (each port's Link Status
 * in sysfs, the BARs' addresses for the TLP header) and the model's
 * parameters the boot passes (hsagpu_test.linkmodel=port_ns,switch_ns,
 * host_ns,host_write_ns,read_tags,efficiency_permille); the switch
 * ports' links must read as the preset configured them.
 *
 * As the benchmark (hsagpu_test.linkbench=1, scripts/bench --link):
 * prints "BENCH key value unit" lines, adding the payload sweep and 1..8
 * concurrent transfers, for the table of docs/link-model.md and its
 * plots. Every transfer's data is checked once.
 *
 *   hsagpu_test.mb=N     MiB per bulk transfer (default 8)
 *   hsagpu_test.reps=N   repetitions, the median is used (default 3)
 */
#include <limits.h>
#include <stdlib.h>

#include "gtdma.h"
#include "gtpci.h"

static uint64_t mb = 8, reps = 3;

struct bdev {
	struct gtq_dev d;
	hsagpu_queue_t *q;
	hsagpu_dma_list_t *list;
	uint8_t *sys;
	volatile uint8_t *vram, *vram2;
	hsagpu_signal_t sig, go;
	uint16_t devctl;                /* as the guest left it */
};

static struct bdev devs[GT_MAX_DEVS];
static int ndev;

#define SWEEP_BYTES (512U << 10)        /* per payload-size transfer */
#define SWEEP_DESCS (SWEEP_BYTES / 32 + 16)

static int wait_done(hsagpu_signal_t sig)
{
	return hsagpu_signal_wait_acquire(sig, HSAGPU_SIGNAL_CONDITION_EQ, 0,
					  60000 * GTQ_MS,
					  HSAGPU_WAIT_STATE_BLOCKED) == 0;
}

/* The device's start and end of the packet that completed @b's signal. */
static void stamps(struct bdev *b, uint64_t *start, uint64_t *end)
{
	CHECK(hsagpu_signal_timestamps(b->sig, start, end) == 0 &&
	      *end >= *start && *start,
	      "%s: no timestamps (%llu..%llu)", b->d.pci,
	      (unsigned long long)*start, (unsigned long long)*end);
}

/* MPS of @b's Device Control (the DMA engine's write TLPs), 128..4096 */
static void set_mps(struct bdev *b, uint32_t mps)
{
	uint16_t v = (b->devctl & ~PCI_EXP_DEVCTL_PAYLOAD) |
		     (uint16_t)((__builtin_ctz(mps) - 7) << 5);

	CHECK(gtpci_set_devctl(b->d.pci, v) == 0, "%s: MPS %u", b->d.pci, mps);
}

/* Max Payload Size Supported (Device Capabilities) */
static uint32_t mpss(struct bdev *b)
{
	uint32_t cap = 0;
	int exp = gtpci_exp_cap(b->d.pci);

	if (exp > 0)
		gtpci_cfg_read(b->d.pci, exp + PCI_EXP_DEVCAP, &cap, 4);
	return 128U << (cap & PCI_EXP_DEVCAP_PAYLOAD);
}

static void put(const char *key, double v, const char *unit)
{
	printf("BENCH %s %.1f %s\n", key, v, unit);
	fflush(stdout);
}

static double median(double *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[n / 2];
}

/* One packet on @b: copy (@src) or 4-byte-pattern fill; ns it took. */
static double one(struct bdev *b, void *dst, const void *src, size_t size)
{
	uint64_t s, e;
	int64_t id;

	hsagpu_signal_store_release(b->sig, 1);
	id = src ? hsagpu_dma_copy(b->q, b->list, dst, src, size, b->sig)
		 : hsagpu_dma_fill(b->q, b->list, dst, 0x5a5a5a5a, size, b->sig);
	CHECK(id >= 0, "%s: DMA %lld", b->d.pci, (long long)id);
	CHECK(wait_done(b->sig), "%s: DMA did not finish", b->d.pci);
	stamps(b, &s, &e);
	return (double)(e - s);
}

/* Median ns of @reps packets; MB/s when @rate. */
static double measure(struct bdev *b, void *dst, const void *src, size_t size,
		      int rate)
{
	double v[64];

	for (uint64_t r = 0; r < reps; r++) {
		v[r] = one(b, dst, src, size);
		if (rate)
			v[r] = size * 1e3 / v[r];
	}
	if (src)
		CHECK(gtd_diff(dst, src, size) == size, "%s: data wrong", b->d.pci);
	return median(v, reps);
}

/*
 * Peer writes of @payload-byte TLPs: below MPS, one descriptor per
 * payload (the engine never merges descriptors into one TLP); from MPS
 * on, one copy at that MPS.
 */
static double sweep(struct bdev *a, struct bdev *b, uint32_t payload)
{
	struct hsagpu_dma_packet pkt;
	void *dst = (void *)b->vram, *src = (void *)a->vram;
	double v[64];

	if (payload >= 128) {
		set_mps(a, payload);
		return measure(a, dst, src, SWEEP_BYTES, 1);
	}
	set_mps(a, 128);
	hsagpu_dma_list_reset(a->list);
	for (uint32_t off = 0; off < SWEEP_BYTES; off += payload)
		CHECK(hsagpu_dma_list_add_copy(a->list, (uint8_t *)dst + off,
					       (uint8_t *)src + off, payload) == 0,
		      "descriptor %u", off);
	for (uint64_t r = 0; r < reps; r++) {
		uint64_t s, e;

		hsagpu_signal_store_release(a->sig, 1);
		hsagpu_packet_dma_sg(&pkt, HSAGPU_DMA_OP_COPY_SG,
				     hsagpu_dma_list_addr(a->list),
				     hsagpu_dma_list_count(a->list), a->sig);
		CHECK(hsagpu_queue_submit(a->q, &pkt, GTD_DMA_HDR(0)) >= 0,
		      "submit SG");
		CHECK(wait_done(a->sig), "SG copy did not finish");
		stamps(a, &s, &e);
		v[r] = SWEEP_BYTES * 1e3 / (double)(e - s);
	}
	CHECK(gtd_diff(dst, src, SWEEP_BYTES) == SWEEP_BYTES, "sweep data wrong");
	return median(v, reps);
}

/*
 * @k devices at once, each between its own system buffer and its own
 * VRAM (@write: VRAM -> system memory); per device MB/s (the median of
 * the devices' own start..end) and total (all bytes over first start
 * to last end). Each copy waits behind a barrier on its own "go" signal;
 * all are released together and their doorbells rung again, so that
 * the copies start within a few microseconds, not one host time slice
 * of the engine before them apart.
 */
static void concurrent(int k, int write, size_t size)
{
	double dev[64], tot[64];

	for (uint64_t r = 0; r < reps; r++) {
		uint64_t s0 = UINT64_MAX, e1 = 0, idx[GT_MAX_DEVS];
		double per[GT_MAX_DEVS];

		for (int i = 0; i < k; i++) {
			struct bdev *b = &devs[i];
			struct hsagpu_barrier_packet bar;
			int64_t id;

			hsagpu_signal_store_release(b->go, 1);
			hsagpu_signal_store_release(b->sig, 1);
			hsagpu_packet_barrier(&bar, &b->go, 1, GTD_NONE);
			CHECK(hsagpu_queue_submit(b->q, &bar,
				GTQ_HDR(HSAGPU_PKT_TYPE_BARRIER_AND, 0)) >= 0,
			      "%s: barrier", b->d.pci);
			id = write ? hsagpu_dma_copy(b->q, b->list, b->sys,
						     (void *)b->vram, size, b->sig)
				   : hsagpu_dma_copy(b->q, b->list, (void *)b->vram,
						     b->sys, size, b->sig);
			CHECK(id >= 0, "%s: copy", b->d.pci);
			idx[i] = (uint64_t)id;
		}
		for (int i = 0; i < k; i++)
			hsagpu_signal_store_release(devs[i].go, 0);
		for (int i = 0; i < k; i++)
			hsagpu_queue_ring_doorbell(devs[i].q, idx[i]);
		for (int i = 0; i < k; i++) {
			uint64_t s, e;

			CHECK(wait_done(devs[i].sig), "%s: copy did not finish",
			      devs[i].d.pci);
			stamps(&devs[i], &s, &e);
			per[i] = size * 1e3 / (double)(e - s);
			s0 = s < s0 ? s : s0;
			e1 = e > e1 ? e : e1;
		}
		dev[r] = median(per, k);
		tot[r] = (double)k * size * 1e3 / (double)(e1 - s0);
	}
	{
		char key[64];

		snprintf(key, sizeof(key), "%s_k%d_dev", write ? "write" : "read", k);
		put(key, median(dev, reps), "MB/s");
		snprintf(key, sizeof(key), "%s_k%d_total", write ? "write" : "read", k);
		put(key, median(tot, reps), "MB/s");
	}
}

/* The model's parameters (hsagpu_test.linkmodel), preset defaults */
static uint64_t par[6] = { 260, 160, 550, 88, 4, 952 };
enum { P_PORT, P_SWITCH, P_HOST, P_HOSTW, P_TAGS, P_EFF };

/* sysfs components of @pci from the root port down to it; how many */
static int chain(const char *pci, char comp[][16], int max)
{
	char link[128], *p, *tok, *save;
	int n = 0;

	snprintf(link, sizeof(link), "/sys/bus/pci/devices/%s", pci);
	p = realpath(link, NULL);
	if (!p)
		return 0;
	for (tok = strtok_r(p, "/", &save); tok && n < max;
	     tok = strtok_r(NULL, "/", &save)) {
		unsigned d, b, s, f;

		if (sscanf(tok, "%x:%x:%x.%x", &d, &b, &s, &f) == 4)
			snprintf(comp[n++], 16, "%s", tok);
	}
	free(p);
	return n;
}

static int is_down(const char *pci)
{
	int t = gtpci_port_type(pci);

	return t == PCI_EXP_TYPE_ROOT_PORT || t == PCI_EXP_TYPE_DOWNSTREAM;
}

/* The link below port @pci as sysfs shows it: wire bytes per ns */
static double link_rate(const char *pci, double *gts, uint64_t *width)
{
	char buf[64];

	*gts = 0;
	*width = 0;
	if (gt_sysfs_read(pci, "current_link_speed", buf, sizeof(buf)) == 0)
		*gts = strtod(buf, NULL);
	gt_sysfs_u64(pci, "current_link_width", width);
	return *width * *gts * (*gts <= 5 ? 0.8 : 128.0 / 130) / 8 *
	       par[P_EFF] / 1000.0;
}

/*
 * The path between @a and @b (NULL: host memory) as this guest sees
 * it: the links (downstream ports) and the switches crossed.
 */
struct path {
	int nlinks, nsw;
	double rate[16], slowest;
};

static void path(const char *a, const char *b, struct path *p)
{
	char ca[16][16], cb[16][16];
	int na = chain(a, ca, 16), nb = b ? chain(b, cb, 16) : 0, c = 0;
	double gts;
	uint64_t w;

	memset(p, 0, sizeof(*p));
	while (b && c < na && c < nb && !strcmp(ca[c], cb[c]))
		c++;
	for (int side = 0; side < 2; side++) {
		char (*comp)[16] = side ? cb : ca;
		int n = side ? nb : na;

		for (int i = b ? c : 0; i < n - 1; i++) {
			if (is_down(comp[i]))
				p->rate[p->nlinks++] = link_rate(comp[i], &gts, &w);
			else
				p->nsw++;
		}
	}
	/* the switch where the two sides meet */
	p->nsw += b && c > 0 && !is_down(ca[c - 1]);
	p->slowest = p->rate[0];
	for (int i = 1; i < p->nlinks; i++)
		p->slowest = p->rate[i] < p->slowest ? p->rate[i] : p->slowest;
}

static unsigned hdr(const char *pci)
{
	uint64_t bar = 0, len = 0;

	gtpci_bar(pci, HSAGPU_BAR_VRAM, &bar, &len);
	return 8 + (bar >> 32 ? 16 : 12);
}

static void near(const char *what, double got, double want)
{
	double tol = want * 0.005 + 2;

	CHECK(got >= want - tol && got <= want + tol,
	      "%s: measured %.1f, the model's arithmetic %.1f", what, got, want);
	DIAG("%s: %.1f (arithmetic %.1f)", what, got, want);
}

/* Any System RAM above 4 GiB (then host buffers may need 4DW headers)? */
static int ram_above_4g(void)
{
	FILE *f = fopen("/proc/iomem", "r");
	char line[256];
	int above = 0;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long lo;

		if (strstr(line, "System RAM") && line[0] != ' ' &&
		    sscanf(line, "%llx", &lo) == 1 && lo >> 32)
			above = 1;
	}
	if (f)
		fclose(f);
	return above;
}

/*
 * Every port's link reads as the preset set it (hsagpu_test.linkwidth:
 * device slots, then the rest; hsagpu_test.linkspeed in GT/s), and the
 * single transfers take what the arithmetic says for those links.
 */
static void check_model(size_t size)
{
	uint64_t wdev = 4, wup = 8, gts_want = 5;
	struct bdev *a = &devs[0];
	struct path p1, p4, ph;
	double tlp1, tlp4, cpl, rtt, v;

	for (int i = 0; i < 6; i++)
		gt_param_u64("linkmodel", i, &par[i]);
	gt_param_u64("linkwidth", 0, &wdev);
	gt_param_u64("linkwidth", 1, &wup);
	gt_param_u64("linkspeed", 0, &gts_want);
	for (int i = 0; i < ndev; i++) {
		char comp[16][16];
		int n = chain(devs[i].d.pci, comp, 16);

		for (int k = 0; k < n - 1; k++) {
			double gts;
			uint64_t w;

			if (!is_down(comp[k]))
				continue;
			link_rate(comp[k], &gts, &w);
			CHECK(w == (k == n - 2 ? wdev : wup) && gts == gts_want,
			      "port %s above %s: link x%llu %.1f GT/s", comp[k],
			      devs[i].d.pci, (unsigned long long)w, gts);
		}
	}
	path(a->d.pci, devs[1].d.pci, &p1);
	path(a->d.pci, devs[4].d.pci, &p4);
	path(a->d.pci, NULL, &ph);
	CHECK(p1.nsw == 1 && p4.nsw == 3 && ph.nsw == 2,
	      "switches crossed: %d, %d, %d to host", p1.nsw, p4.nsw, ph.nsw);
	tlp1 = 4 + hdr(devs[1].d.pci);
	tlp4 = 4 + hdr(devs[4].d.pci);
	v = 2.0 * par[P_PORT] + p1.nsw * (double)par[P_SWITCH];
	for (int i = 0; i < p1.nlinks; i++)
		v += tlp1 / p1.rate[i];
	near("latency, 1 switch [ns]",
	     measure(a, (void *)devs[1].vram2, NULL, 4, 0), v);
	v = 2.0 * par[P_PORT] + p4.nsw * (double)par[P_SWITCH];
	for (int i = 0; i < p4.nlinks; i++)
		v += tlp4 / p4.rate[i];
	near("latency, 3 switches [ns]",
	     measure(a, (void *)devs[4].vram2, NULL, 4, 0), v);
	for (uint32_t mps = 128; mps <= 256; mps *= 2) {
		char what[64];

		set_mps(a, mps);
		snprintf(what, sizeof(what), "peer write, MPS %u [MB/s]", mps);
		v = p1.slowest * mps / (mps + hdr(devs[1].d.pci)) * 1000;
		near(what, measure(a, (void *)devs[1].vram2, (void *)a->vram,
				   size, 1), v);
	}
	set_mps(a, 128);
	if (ram_above_4g()) {
		DIAG("System RAM above 4 GiB: host rows not checked");
		return;
	}
	v = ph.slowest * 128 / 148 * 1000;
	if (par[P_HOSTW] && 128e3 / par[P_HOSTW] < v)
		v = 128e3 / par[P_HOSTW];
	near("host memory write, MPS 128 [MB/s]",
	     measure(a, a->sys, (void *)a->vram, size, 1), v);
	cpl = 512 + 4 * 20;
	rtt = 2.0 * (par[P_PORT] + ph.nsw * (double)par[P_SWITCH]) +
	      par[P_HOST] + cpl / ph.slowest;
	v = par[P_TAGS] * cpl / rtt;
	v = (v < ph.slowest ? v : ph.slowest) * 128 / 148 * 1000;
	gtd_pattern(a->sys, size, 7);
	near("host memory read [MB/s]",
	     measure(a, (void *)a->vram, a->sys, size, 1), v);
}

int main(void)
{
	int n = hsagpu_agent_count();
	size_t size;

	gt_param_u64("mb", 0, &mb);
	gt_param_u64("reps", 0, &reps);
	if (reps < 1 || reps > 64)
		reps = 3;
	size = mb << 20;
	for (int i = 0; i < n && ndev < GT_MAX_DEVS; i++) {
		struct bdev *b = &devs[ndev];

		if (gtq_open(i, &b->d) != 1) {
			gtq_close(&b->d);
			continue;
		}
		b->q = gtq_queue(&b->d, 64, HSAGPU_QUEUE_PROFILE);
		b->sig = gtq_signal(&b->d, 1);
		b->go = gtq_signal(&b->d, 1);
		b->sys = gtq_alloc(&b->d, size, HSAGPU_RT_MEM_SYSTEM);
		b->vram = gtq_alloc(&b->d, size, HSAGPU_RT_MEM_VRAM);
		b->vram2 = gtq_alloc(&b->d, size, HSAGPU_RT_MEM_VRAM);
		CHECK(hsagpu_dma_list_create(b->d.agent, SWEEP_DESCS, &b->list) == 0,
		      "list");
		if (!b->q || !b->sys || !b->vram || !b->vram2 || !b->list)
			return gt_result();
		b->devctl = gtpci_devctl(b->d.pci);
		gtd_pattern(b->sys, size, 7 + i);
		gtd_pattern((void *)b->vram, size, 9 + i);
		ndev++;
	}
	if (ndev < 5) {
		CHECK(0, "t-link needs the sw8-study layout (8 devices), has %d",
		      ndev);
		return gt_result();
	}
	for (int i = 1; i < ndev; i++)
		CHECK(hsagpu_agent_enable_peer(devs[0].d.agent, devs[i].d.agent,
					       NULL) == 0, "peer 0 -> %d", i);
	/* TLP headers: 4DW above 4 GiB (the peers' VRAM BARs), 3DW below */
	for (int i = 1; i <= 4; i += 3) {
		uint64_t bar = 0, len = 0;

		gtpci_bar(devs[i].d.pci, HSAGPU_BAR_VRAM, &bar, &len);
		printf("BENCH addr64_peer%d %d flag\n", i, bar >> 32 ? 1 : 0);
	}
	printf("BENCH devices %d count\n", ndev);
	printf("BENCH size %llu MiB\n", (unsigned long long)mb);
	if (!gt_param("linkbench")) {
		check_model(size);
		goto out;
	}

	/* One 4-byte posted write to a peer: the latency of the path. */
	put("lat_1sw", measure(&devs[0], (void *)devs[1].vram2, NULL, 4, 0), "ns");
	put("lat_3sw", measure(&devs[0], (void *)devs[4].vram2, NULL, 4, 0), "ns");

	set_mps(&devs[0], 128);
	put("e2e_write_mps128", measure(&devs[0], (void *)devs[1].vram2,
					(void *)devs[0].vram, size, 1), "MB/s");
	set_mps(&devs[0], 256);
	put("e2e_write_mps256", measure(&devs[0], (void *)devs[1].vram2,
					(void *)devs[0].vram, size, 1), "MB/s");
	set_mps(&devs[0], 128);
	put("host_write_mps128", measure(&devs[0], devs[0].sys,
					 (void *)devs[0].vram, size, 1), "MB/s");
	gtd_pattern(devs[0].sys, size, 7);
	put("host_read", measure(&devs[0], (void *)devs[0].vram, devs[0].sys,
				 size, 1), "MB/s");

	for (uint32_t p = 32; p <= mpss(&devs[0]); p *= 2) {
		char key[32];

		snprintf(key, sizeof(key), "payload_%u", p);
		put(key, sweep(&devs[0], &devs[1], p), "MB/s");
	}
	set_mps(&devs[0], 128);

	for (int k = 1; k <= ndev; k++) {
		concurrent(k, 1, size);
		concurrent(k, 0, size);
	}
out:
	for (int i = 0; i < ndev; i++) {
		gtpci_set_devctl(devs[i].d.pci, devs[i].devctl);
		hsagpu_dma_list_destroy(devs[i].list);
		gtq_close(&devs[i].d);
	}
	return gt_result();
}
