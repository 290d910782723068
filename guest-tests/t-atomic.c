// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PCIe AtomicOps issued by the device through its register interface:
 * results of every operation and size, the spec's failure modes (UR when
 * the path or completer lacks support, malformed for misaligned requests,
 * no request without DevCtl2 AtomicOp Requester Enable), AER, counters,
 * atomicity against guest CPUs, egress blocking and peer-to-peer.
 *
 * What the platform supports comes from the boot's preset:
 * hsagpu_test.atomics=unsupported|32,64|32,64,128 and hsagpu_test.preset.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gt.h"
#include "gtpci.h"
#include "gtq.h"
#include "hsagpu/hsagpu_uapi.h"

#define FA   HSAGPU_ATOMIC_OP_FETCHADD
#define SW   HSAGPU_ATOMIC_OP_SWAP
#define CAS  HSAGPU_ATOMIC_OP_CAS
#define S32  HSAGPU_ATOMIC_SIZE_32
#define S64  HSAGPU_ATOMIC_SIZE_64
#define S128 HSAGPU_ATOMIC_SIZE_128

/* Requests test_ops() makes of each size, and malformed (misaligned) ones. */
#define OPS_32          4
#define OPS_64          4
#define OPS_128         2
#define OPS_SIZED       (OPS_32 + OPS_64 + OPS_128)
#define OPS_MALFORMED   4

struct dev {
	char name[16];
	volatile uint32_t *regs;
	int exp;                /* PCIe capability offset */
};

static int sup32, sup64, sup128;

static uint32_t rd(struct dev *d, uint32_t off) { return d->regs[off / 4]; }
static void wr(struct dev *d, uint32_t off, uint32_t v) { d->regs[off / 4] = v; }

/* Issue one AtomicOp; returns the status code, old value in res. */
static unsigned atomic_op(struct dev *d, uint64_t addr, uint32_t ctrl,
			  const uint64_t s0[2], const uint64_t s1[2],
			  uint32_t repeat, uint64_t res[2])
{
	uint32_t st;

	wr(d, HSAGPU_REG_ATOMIC_ADDR_LO, addr);
	wr(d, HSAGPU_REG_ATOMIC_ADDR_HI, addr >> 32);
	for (int i = 0; i < 4; i++) {
		wr(d, HSAGPU_REG_ATOMIC_SRC0 + 4 * i, s0[i / 2] >> (32 * (i & 1)));
		wr(d, HSAGPU_REG_ATOMIC_SRC1 + 4 * i, s1[i / 2] >> (32 * (i & 1)));
	}
	wr(d, HSAGPU_REG_ATOMIC_REPEAT, repeat);
	wr(d, HSAGPU_REG_ATOMIC_CTRL, ctrl | HSAGPU_ATOMIC_GO);
	st = rd(d, HSAGPU_REG_ATOMIC_STATUS);
	CHECK(st & HSAGPU_ATOMIC_DONE, "ATOMIC_STATUS 0x%x not done", st);
	for (int i = 0; i < 2; i++)
		res[i] = rd(d, HSAGPU_REG_ATOMIC_RESULT + 8 * i) |
			 (uint64_t)rd(d, HSAGPU_REG_ATOMIC_RESULT + 8 * i + 4) << 32;
	return st & HSAGPU_ATOMIC_ST_MASK;
}

static unsigned op1(struct dev *d, uint64_t addr, uint32_t ctrl, uint64_t a,
		    uint64_t b, uint64_t *old)
{
	uint64_t s0[2] = { a, 0 }, s1[2] = { b, 0 }, res[2];
	unsigned st = atomic_op(d, addr, ctrl, s0, s1, 1, res);

	*old = res[0];
	return st;
}

/* Guest-physical address of a locked page of ours. */
static void *alloc_phys(uint64_t *pa)
{
	long psz = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, psz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED | MAP_POPULATE,
		       -1, 0);
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (p == MAP_FAILED || fd < 0)
		return NULL;
	memset(p, 0, psz);
	pread(fd, &e, 8, (uintptr_t)p / psz * 8);
	close(fd);
	if (!(e & (1ULL << 63)))
		return NULL;
	*pa = (e & ((1ULL << 55) - 1)) * psz;
	return p;
}

/*
 * Behind an IOMMU a physical address means nothing to the device: ask
 * the driver of @name for a page of system memory and its bus address.
 */
static void *alloc_bus(const char *name, uint64_t *bus)
{
	for (int i = 0; i < GT_MAX_DEVS; i++) {
		struct hsagpu_device_info info = { .size = sizeof(info) };
		struct hsagpu_alloc_mem am = { .size = sizeof(am) };
		unsigned int b, dv, fn;
		char node[32];
		void *p;
		int fd, old;

		snprintf(node, sizeof(node), "/dev/hsagpu%d", i);
		/*
		 * A register-level test: the engine is driven through BAR5 in
		 * VMID 0 (ATOMIC_VMID 0), whose addresses are bus addresses.
		 * A file without GPU virtual memory is the one that shows them
		 * (ALLOC_MEM bus_addr).
		 */
		old = gtq_vm_param_set(0);
		fd = open(node, O_RDWR);
		if (old > 0)
			gtq_vm_param_set(old);
		if (fd < 0)
			continue;
		if (ioctl(fd, HSAGPU_IOC_GET_INFO, &info) ||
		    sscanf(name, "%*x:%x:%x.%x", &b, &dv, &fn) != 3 ||
		    info.pci_bus != b || info.pci_devfn != (dv << 3 | fn)) {
			close(fd);
			continue;
		}
		am.flags = HSAGPU_MEM_SYSTEM;
		am.bytes = 4096;
		if (ioctl(fd, HSAGPU_IOC_ALLOC_MEM, &am))
			return NULL;
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 am.mmap_offset);
		/* the file stays open: the memory lives as long as it */
		if (p == MAP_FAILED)
			return NULL;
		memset(p, 0, 4096);
		*bus = am.bus_addr;
		return p;
	}
	return NULL;
}

static void set_reqen(struct dev *d, int on)
{
	uint16_t ctl2 = gtpci_cfg_read16(d->name, d->exp + PCI_EXP_DEVCTL2);

	ctl2 = on ? ctl2 | PCI_EXP_DEVCTL2_ATOMIC_REQ :
		    ctl2 & ~PCI_EXP_DEVCTL2_ATOMIC_REQ;
	CHECK(gtpci_cfg_write16(d->name, d->exp + PCI_EXP_DEVCTL2, ctl2) == 0,
	      "config write %s+0x%x", d->name, d->exp + PCI_EXP_DEVCTL2);
}

static unsigned expect_for(uint32_t size)
{
	int ok = size == S32 ? sup32 : size == S64 ? sup64 : sup128;

	return ok ? HSAGPU_ATOMIC_ST_OK : HSAGPU_ATOMIC_ST_UR;
}

/*
 * Mask (@on) or unmask Unsupported Request and Malformed TLP in @d's AER
 * capability, clearing their status bits. Masked, an error still sets its
 * status bit but sends no message, so Linux's AER driver does not clear
 * the bit before the test reads it (it did now and then: an error message
 * the driver handled first cleared the UR the check then looked for).
 */
static void aer_mask_ur(struct dev *d, int aer_cap, int on, uint32_t *saved)
{
	uint32_t bits = PCI_ERR_UNC_UNSUP | PCI_ERR_UNC_MALF_TLP, mask;

	if (!aer_cap)
		return;
	if (on) {
		gtpci_cfg_read(d->name, aer_cap + PCI_ERR_UNCOR_MASK, saved, 4);
		mask = *saved | bits;
	} else {
		mask = *saved;
	}
	gtpci_cfg_write(d->name, aer_cap + PCI_ERR_UNCOR_STATUS, &bits, 4);
	gtpci_cfg_write(d->name, aer_cap + PCI_ERR_UNCOR_MASK, &mask, 4);
}

static void test_ops(struct dev *d, volatile uint64_t *mem, uint64_t pa)
{
	volatile uint32_t *m32 = (volatile uint32_t *)mem;
	uint64_t s0[2], s1[2], res[2], old;
	unsigned e32 = expect_for(S32), e64 = expect_for(S64);
	unsigned e128 = expect_for(S128), st;

	DIAG("%s: expecting 32-bit %s, 64-bit %s, 128-bit CAS %s", d->name,
	     sup32 ? "ok" : "UR", sup64 ? "ok" : "UR", sup128 ? "ok" : "UR");

	/* 32-bit */
	m32[0] = 100;
	st = op1(d, pa, FA | S32, 23, 0, &old);
	CHECK(st == e32, "FetchAdd32 status %u", st);
	CHECK(st != 1 || (old == 100 && m32[0] == 123), "FetchAdd32 old %llu mem %u",
	      (unsigned long long)old, m32[0]);
	CHECK(st == 1 || m32[0] == 100, "failed FetchAdd32 wrote memory");
	m32[0] = 5;
	st = op1(d, pa, SW | S32, 0xdeadbeef, 0, &old);
	CHECK(st == e32 && (st != 1 || (old == 5 && m32[0] == 0xdeadbeef)),
	      "Swap32 status %u old %llu", st, (unsigned long long)old);
	m32[0] = 7;
	m32[1] = 0x55;
	st = op1(d, pa, CAS | S32, 8, 9, &old);     /* compare fails */
	CHECK(st == e32 && (st != 1 || old == 7) && m32[0] == 7,
	      "CAS32 mismatch: status %u old %llu mem %u", st,
	      (unsigned long long)old, m32[0]);
	st = op1(d, pa, CAS | S32, 7, 9, &old);     /* compare matches */
	CHECK(st == e32 && (st != 1 || (old == 7 && m32[0] == 9)),
	      "CAS32: status %u old %llu mem %u", st, (unsigned long long)old,
	      m32[0]);
	CHECK(m32[1] == 0x55, "32-bit op touched the next dword");

	/* 64-bit */
	mem[0] = 0xffffffffULL;
	st = op1(d, pa, FA | S64, 1, 0, &old);
	CHECK(st == e64 && (st != 1 || (old == 0xffffffffULL &&
					mem[0] == 0x100000000ULL)),
	      "FetchAdd64 status %u old 0x%llx mem 0x%llx", st,
	      (unsigned long long)old, (unsigned long long)mem[0]);
	mem[0] = 1;
	st = op1(d, pa, SW | S64, 0x1122334455667788ULL, 0, &old);
	CHECK(st == e64 && (st != 1 || (old == 1 &&
					mem[0] == 0x1122334455667788ULL)),
	      "Swap64 status %u", st);
	mem[0] = 42;
	st = op1(d, pa, CAS | S64, 41, 0, &old);
	CHECK(st == e64 && (st != 1 || old == 42) && mem[0] == 42,
	      "CAS64 mismatch: status %u", st);
	st = op1(d, pa, CAS | S64, 42, 1ULL << 62, &old);
	CHECK(st == e64 && (st != 1 || mem[0] == 1ULL << 62),
	      "CAS64: status %u mem 0x%llx", st, (unsigned long long)mem[0]);
	CHECK(st == 1 || mem[0] == 42, "failed CAS64 wrote memory");

	/* 128-bit CAS */
	mem[2] = 10;
	mem[3] = 20;
	s0[0] = 10; s0[1] = 21; s1[0] = 30; s1[1] = 40;
	st = atomic_op(d, pa + 16, CAS | S128, s0, s1, 1, res);
	CHECK(st == e128 && (st != 1 || (res[0] == 10 && res[1] == 20)) &&
	      mem[2] == 10 && mem[3] == 20, "CAS128 mismatch: status %u", st);
	s0[1] = 20;
	st = atomic_op(d, pa + 16, CAS | S128, s0, s1, 1, res);
	CHECK(st == e128 && (st != 1 || (res[0] == 10 && res[1] == 20 &&
					 mem[2] == 30 && mem[3] == 40)),
	      "CAS128: status %u mem %llu/%llu", st,
	      (unsigned long long)mem[2], (unsigned long long)mem[3]);
	CHECK(st == 1 || (mem[2] == 10 && mem[3] == 20),
	      "failed CAS128 wrote memory");

	/* Misaligned requests are malformed, whatever the platform. */
	mem[4] = 0x0102030405060708ULL;
	mem[5] = 0x1112131415161718ULL;
	st = op1(d, pa + 36, FA | S64, 1, 0, &old);
	CHECK(st == HSAGPU_ATOMIC_ST_MALFORMED, "misaligned FetchAdd64: %u", st);
	st = op1(d, pa + 34, SW | S32, 1, 0, &old);
	CHECK(st == HSAGPU_ATOMIC_ST_MALFORMED, "misaligned Swap32: %u", st);
	s0[0] = mem[4]; s0[1] = mem[5];
	st = atomic_op(d, pa + 40, CAS | S128, s0, s1, 1, res);
	CHECK(st == HSAGPU_ATOMIC_ST_MALFORMED, "misaligned CAS128: %u", st);
	st = op1(d, pa + 32, FA | S128, 1, 0, &old);
	CHECK(st == HSAGPU_ATOMIC_ST_MALFORMED, "128-bit FetchAdd: %u", st);
	CHECK(mem[4] == 0x0102030405060708ULL && mem[5] == 0x1112131415161718ULL,
	      "malformed request changed memory");
}

/* Guest CPUs and the device increment one counter at the same time. */
#define CPU_THREADS 2
#define CPU_ADDS 250000
#define DEV_ROUNDS 50
#define DEV_REPEAT 10000

static volatile uint64_t *counter;
static volatile int go;

static void *cpu_adder(void *arg)
{
	while (!go)
		;
	for (int i = 0; i < CPU_ADDS; i++)
		__atomic_fetch_add(counter, 1, __ATOMIC_SEQ_CST);  /* lock xadd */
	return arg;
}

static void test_contention(struct dev *d, volatile uint64_t *mem, uint64_t pa)
{
	pthread_t t[CPU_THREADS];
	uint64_t s0[2] = { 1, 0 }, s1[2] = { 0, 0 }, res[2];
	uint64_t want = (uint64_t)CPU_THREADS * CPU_ADDS +
			(uint64_t)DEV_ROUNDS * DEV_REPEAT;
	unsigned bad = 0;

	counter = &mem[64];
	*counter = 0;
	for (int i = 0; i < CPU_THREADS; i++)
		pthread_create(&t[i], NULL, cpu_adder, NULL);
	go = 1;
	for (int r = 0; r < DEV_ROUNDS; r++)
		bad += atomic_op(d, pa + 512, FA | S64, s0, s1, DEV_REPEAT, res) !=
		       HSAGPU_ATOMIC_ST_OK;
	for (int i = 0; i < CPU_THREADS; i++)
		pthread_join(t[i], NULL);
	CHECK(bad == 0, "%u device rounds failed", bad);
	CHECK(*counter == want, "counter %llu, expected %llu (%llu operations)",
	      (unsigned long long)*counter, (unsigned long long)want,
	      (unsigned long long)want);
	DIAG("contention: %llu increments, final value exact: %s",
	     (unsigned long long)want, *counter == want ? "yes" : "no");
}

/* Egress blocking on the switch upstream port turns AtomicOps into UR. */
static void test_egress(struct dev *d, uint64_t pa)
{
	char link[256], *parts[16], *p;
	int n = 0, exp;
	uint64_t old;
	unsigned st;
	uint16_t ctl2;
	char up[16];

	snprintf(link, sizeof(link), "/sys/bus/pci/devices/%s", d->name);
	p = realpath(link, NULL);
	CHECK(p, "realpath");
	if (!p)
		return;
	for (char *tok = strtok(p, "/"); tok && n < 16; tok = strtok(NULL, "/"))
		parts[n++] = tok;
	/* .../root port/upstream port/downstream port/device */
	snprintf(up, sizeof(up), "%s", parts[n - 3]);
	free(p);
	exp = gtpci_exp_cap(up);
	CHECK(exp, "no PCIe capability on %s", up);
	DIAG("egress blocking on switch upstream port %s", up);
	ctl2 = gtpci_cfg_read16(up, exp + PCI_EXP_DEVCTL2);
	CHECK(gtpci_cfg_write16(up, exp + PCI_EXP_DEVCTL2,
				ctl2 | PCI_EXP_DEVCTL2_ATOMIC_EGRESS_BLOCK) == 0,
	      "config write %s+0x%x", up, exp + PCI_EXP_DEVCTL2);
	CHECK(gtpci_cfg_read16(up, exp + PCI_EXP_DEVCTL2) &
	      PCI_EXP_DEVCTL2_ATOMIC_EGRESS_BLOCK,
	      "egress blocking not writable on %s", up);
	st = op1(d, pa, FA | S64, 1, 0, &old);
	CHECK(st == HSAGPU_ATOMIC_ST_UR, "egress-blocked FetchAdd64: %u", st);
	/* Linux sees the block too when the driver probes again. */
	gt_sh("echo %s > /sys/bus/pci/drivers/hsagpu/unbind; "
	      "echo %s > /sys/bus/pci/drivers/hsagpu/bind", d->name, d->name);
	CHECK(gt_sh("grep -q unsupported /sys/bus/pci/devices/%s/hsagpu/atomic_ops",
		    d->name) == 0, "driver enabled AtomicOps through a blocked port");
	CHECK(gtpci_cfg_write16(up, exp + PCI_EXP_DEVCTL2,
				ctl2 & ~PCI_EXP_DEVCTL2_ATOMIC_EGRESS_BLOCK) == 0,
	      "config write %s+0x%x", up, exp + PCI_EXP_DEVCTL2);
	gt_sh("echo %s > /sys/bus/pci/drivers/hsagpu/unbind; "
	      "echo %s > /sys/bus/pci/drivers/hsagpu/bind", d->name, d->name);
	CHECK(gt_sh("grep -q 32,64,128 /sys/bus/pci/devices/%s/hsagpu/atomic_ops",
		    d->name) == 0, "AtomicOps not back after unblocking");
	st = op1(d, pa, FA | S64, 1, 0, &old);
	CHECK(st == HSAGPU_ATOMIC_ST_OK, "unblocked FetchAdd64: %u", st);
}

static uint64_t bar_addr(const char *name, int bar)
{
	char buf[1024], *line = buf;
	unsigned long long start = 0;

	if (gt_sysfs_read(name, "resource", buf, sizeof(buf)))
		return 0;
	for (int i = 0; i < bar && line; i++) {
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	if (line)
		sscanf(line, "%llx", &start);
	return start;
}

/* Peer-to-peer: gpu1 completes no AtomicOps, gpu0 completes all. */
static void test_p2p(struct dev *d0, struct dev *d1)
{
	uint64_t vram0 = bar_addr(d0->name, HSAGPU_BAR_VRAM);
	uint64_t vram1 = bar_addr(d1->name, HSAGPU_BAR_VRAM);
	uint64_t mmio0 = bar_addr(d0->name, HSAGPU_BAR_MMIO);
	volatile uint64_t *v0;
	uint64_t old;
	size_t len;
	unsigned st;

	DIAG("peer-to-peer: %s <-> %s", d0->name, d1->name);
	set_reqen(d1, 1);   /* the driver enabled it; make sure */
	v0 = gt_map_resource(d0->name, HSAGPU_BAR_VRAM, &len);
	CHECK(v0 && vram0 && vram1 && mmio0, "peer BARs");
	if (!v0)
		return;
	v0[8] = 1000;
	st = op1(d1, vram0 + 64, FA | S64, 24, 0, &old);
	CHECK(st == HSAGPU_ATOMIC_ST_OK && old == 1000 && v0[8] == 1024,
	      "gpu1 -> gpu0 VRAM FetchAdd64: status %u old %llu now %llu", st,
	      (unsigned long long)old, (unsigned long long)v0[8]);
	st = op1(d1, vram0 + 64, CAS | S32, 1024, 5, &old);
	CHECK(st == HSAGPU_ATOMIC_ST_OK && v0[8] == 5, "gpu1 -> gpu0 CAS32: %u", st);
	st = op1(d0, vram1 + 64, FA | S64, 1, 0, &old);
	CHECK(st == HSAGPU_ATOMIC_ST_UR,
	      "gpu0 -> gpu1 (no completer) FetchAdd64: status %u", st);
	st = op1(d1, mmio0 + HSAGPU_REG_SCRATCH0, SW | S32, 1, 0, &old);
	CHECK(st == HSAGPU_ATOMIC_ST_CA,
	      "gpu1 -> gpu0 register BAR: status %u, expected CA", st);
	munmap((void *)v0, len);
}

int main(void)
{
	char names[GT_MAX_DEVS][16];
	const char *atomics = gt_param("atomics"), *preset;
	char presetbuf[32];
	int n = gt_find_devices(names);
	struct dev devs[GT_MAX_DEVS];
	volatile uint64_t *mem;
	uint64_t pa, old;
	uint32_t aer_mask = 0;
	int aer_cap;
	int iommu;
	size_t len;
	unsigned st;

	preset = gt_param("preset");
	snprintf(presetbuf, sizeof(presetbuf), "%s", preset ? preset : "");
	atomics = gt_param("atomics");
	sup32 = atomics && strstr(atomics, "32") != NULL;
	sup64 = atomics && strstr(atomics, "64") != NULL;
	sup128 = atomics && strstr(atomics, "128") != NULL;
	CHECK(n > 0, "no device");
	iommu = gt_param("iommu") && !strcmp(gt_param("iommu"), "1");
	mem = iommu && n ? alloc_bus(names[0], &pa) : alloc_phys(&pa);
	CHECK(mem, "cannot get a page's %s address", iommu ? "bus" : "physical");
	if (!n || !mem)
		return gt_result();

	for (int i = 0; i < n; i++) {
		snprintf(devs[i].name, sizeof(devs[i].name), "%s", names[i]);
		devs[i].regs = gt_map_resource(names[i], HSAGPU_BAR_MMIO, &len);
		devs[i].exp = gtpci_exp_cap(names[i]);
		CHECK(devs[i].regs && devs[i].exp, "map %s", names[i]);
	}

	struct dev *d = &devs[0];
	CHECK(rd(d, HSAGPU_REG_CAPS) & HSAGPU_CAP_ATOMIC_ENGINE, "no engine");

	/* The driver set the requester bit exactly when Linux allowed it. */
	uint16_t ctl2 = gtpci_devctl2(d->name);
	CHECK(!!(ctl2 & PCI_EXP_DEVCTL2_ATOMIC_REQ) == (sup32 && sup64),
	      "DevCtl2 0x%x: requester enable does not match the platform", ctl2);
	if (!(ctl2 & PCI_EXP_DEVCTL2_ATOMIC_REQ)) {
		st = op1(d, pa, FA | S64, 1, 0, &old);
		CHECK(st == HSAGPU_ATOMIC_ST_NOT_ENABLED,
		      "request without requester enable: status %u", st);
		CHECK(mem[0] == 0, "a request that was never sent wrote memory");
		set_reqen(d, 1);    /* send anyway, to see what the platform does */
	}

	uint32_t ok0 = rd(d, HSAGPU_REG_ATOMIC_CNT_ST(HSAGPU_ATOMIC_ST_OK));
	uint32_t ur0 = rd(d, HSAGPU_REG_ATOMIC_CNT_ST(HSAGPU_ATOMIC_ST_UR));
	uint32_t mal0 = rd(d, HSAGPU_REG_ATOMIC_CNT_ST(HSAGPU_ATOMIC_ST_MALFORMED));
	uint32_t op0[3];
	/* what test_ops() issues of each op, whatever the outcome */
	static const uint32_t op_n[3] = {
		[HSAGPU_ATOMIC_OP_FETCHADD] = 4,        /* 32, 64, 2 malformed */
		[HSAGPU_ATOMIC_OP_SWAP] = 3,            /* 32, 64, 1 malformed */
		[HSAGPU_ATOMIC_OP_CAS] = 7,             /* 2 each size, 1 malformed */
	};

	for (int i = 0; i < 3; i++)
		op0[i] = rd(d, HSAGPU_REG_ATOMIC_CNT_OP(i));
	aer_cap = gtpci_ext_cap(d->name, PCI_EXT_CAP_ID_ERR);
	aer_mask_ur(d, aer_cap, 1, &aer_mask);
	test_ops(d, mem, pa);
	for (int i = 0; i < 3; i++)
		CHECK(rd(d, HSAGPU_REG_ATOMIC_CNT_OP(i)) - op0[i] == op_n[i],
		      "ATOMIC_CNT_OP(%d) +%u, %u issued", i,
		      rd(d, HSAGPU_REG_ATOMIC_CNT_OP(i)) - op0[i], op_n[i]);
	int nok = OPS_32 * sup32 + OPS_64 * sup64 + OPS_128 * sup128;
	CHECK_EQ_U64(rd(d, HSAGPU_REG_ATOMIC_CNT_ST(HSAGPU_ATOMIC_ST_OK)) - ok0, nok);
	CHECK_EQ_U64(rd(d, HSAGPU_REG_ATOMIC_CNT_ST(HSAGPU_ATOMIC_ST_UR)) - ur0,
		     OPS_SIZED - nok);
	CHECK_EQ_U64(rd(d, HSAGPU_REG_ATOMIC_CNT_ST(HSAGPU_ATOMIC_ST_MALFORMED)) -
		     mal0, OPS_MALFORMED);
	if (nok < OPS_SIZED) {
		/* AER: the device logged Unsupported Request (masked: no message) */
		uint32_t uesta = 0;

		if (aer_cap)
			gtpci_cfg_read(d->name, aer_cap + PCI_ERR_UNCOR_STATUS,
				       &uesta, sizeof(uesta));
		DIAG("AER: UESta 0x%08x", uesta);
		CHECK(aer_cap && (uesta & PCI_ERR_UNC_UNSUP),
		      "Unsupported Request not visible in AER");
	}
	aer_mask_ur(d, aer_cap, 0, &aer_mask);
	if (sup64)
		test_contention(d, mem, pa);
	if (!strcmp(presetbuf, "switch"))
		test_egress(d, pa);
	if (!strcmp(presetbuf, "p2p") && n >= 2)
		test_p2p(&devs[0], &devs[1]);
	if (!(sup32 && sup64))
		set_reqen(d, 0);
	return gt_result();
}
