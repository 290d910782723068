// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Isolation between two processes with GPU virtual memory. Two
 * processes (forked before either opens the device) each have a queue
 * that keeps working, a system and a VRAM buffer with their own
 * pattern, and tell each other through a pipe how their memory is named:
 *  - the GPU virtual addresses of those buffers (their own pointers);
 *  - a bus address of their memory: each also opens a file without GPU
 *    VM (hsagpu.ko vm=0 at open; the only place a bus address is still
 *    shown) and fills a buffer of it, whose bus address ALLOC_MEM gives:
 *    exactly what a packet could reach before GPU VM;
 *  - the physical address of their GPU-VM system buffer
 *    (/proc/self/pagemap, root): without an IOMMU that is its bus
 *    address, the address an attacker would try.
 * Then, one after the other, each names the other's memory by each of
 * those in a DMA write, a DMA read and a kernel's write on fresh queues
 * of its own. Every one must be a VM fault at that address (the page),
 * in the attacker's VMID, of the right client (DMA or kernel) and access,
 * on that queue; the other process's data stays intact, and its queue
 * keeps completing packets the whole time (it runs a loop while it is
 * attacked); the attacker's own healthy queue still runs afterwards.
 * The two files get different VMIDs. A target that happens to be mapped
 * in the attacker itself is skipped (said so): it names the attacker's
 * own memory there, which it may use.
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "gtdev.h"
#include "gtdma.h"

#define MS 5000
#define BUFSZ (64 << 10)

struct info {
	uint64_t va_sys, va_vram;       /* GPU VM buffers: its own pointers */
	uint64_t bus;                   /* its vm=0 file's buffer: bus address */
	uint64_t phys;                  /* va_sys's physical address, or 0 */
	uint32_t vmid;
	int32_t ok;
};

struct side {
	int me;
	int rd, wr;                     /* pipe ends to the other side */
	struct gtq_dev d, d0;
	hsagpu_queue_t *good;
	hsagpu_signal_t sig;
	uint8_t *sys, *busbuf;
	volatile uint8_t *vram;
	volatile uint64_t *mem;         /* WRITE_VALUE targets */
	struct gtq_arena arena;
	uint32_t vmid;
	struct info peer;
	long good_runs;
};

static uint64_t phys_of(const void *p)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	uint64_t e = 0;

	if (fd < 0)
		return 0;
	if (pread(fd, &e, 8, (uintptr_t)p / 4096 * 8) != 8)
		e = 0;
	close(fd);
	if (!(e & (1ULL << 63)))
		return 0;
	return (e & ((1ULL << 55) - 1)) * 4096;
}

/* Is @a inside a mapping of this process? */
static int mapped_here(uint64_t a)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi;
	char line[256];
	int hit = 0;

	if (!f)
		return 1;
	while (!hit && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && a >= lo && a < hi)
			hit = 1;
	fclose(f);
	return hit;
}

static uint32_t queue_vmid(struct gtq_dev *d, hsagpu_queue_t *q)
{
	return gtq_reg(d, HSAGPU_REG_QUEUE_X(q->id) + HSAGPU_QXREG_VMID);
}

static int setup(struct side *s)
{
	int ret;

	if (s->me == 1) {
		/* Shift the second process's mappings: distinct addresses */
		void *gap = mmap(NULL, 64 << 20, PROT_NONE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		CHECK(gap != MAP_FAILED, "gap");
	}
	if (gtq_open(0, &s->d) != 1)
		return 0;
	s->good = gtq_queue(&s->d, 64, 0);
	s->sig = gtq_signal(&s->d, 1);
	s->sys = gtq_alloc(&s->d, BUFSZ, HSAGPU_RT_MEM_SYSTEM);
	s->vram = gtq_alloc(&s->d, BUFSZ, HSAGPU_RT_MEM_VRAM);
	s->mem = gtq_alloc(&s->d, 4096, HSAGPU_RT_MEM_SYSTEM);
	gtq_arena_init(&s->d, &s->arena, 4096);
	if (!s->good || !s->sys || !s->vram || !s->mem || !s->arena.base)
		return 0;
	gtd_pattern(s->sys, BUFSZ, 100 + s->me);
	gtd_pattern((void *)s->vram, BUFSZ, 200 + s->me);
	/*
	 * The bus address of memory of this process: from a file without
	 * GPU VM, the only one that shows bus addresses (hsagpu_addr there).
	 */
	ret = gtq_open_vm(0, &s->d0, 0);
	if (ret != 1)
		return 0;
	s->busbuf = gtq_alloc(&s->d0, 4096, HSAGPU_RT_MEM_SYSTEM);
	if (!s->busbuf)
		return 0;
	gtd_pattern(s->busbuf, 4096, 300 + s->me);
	/* the queue's VMID is latched at ENABLE: the queue exists now */
	s->vmid = queue_vmid(&s->d, s->good);
	CHECK(s->vmid >= 1 && s->vmid < HSAGPU_VM_NUM_VMIDS,
	      "process %d: queue %u in VMID %u", s->me, s->good->id, s->vmid);
	return 1;
}

static struct info my_info(struct side *s, int ok)
{
	struct info i = { .ok = ok };

	if (!ok)
		return i;
	i.va_sys = (uintptr_t)s->sys;
	i.va_vram = (uintptr_t)s->vram;
	i.bus = hsagpu_addr(s->d0.agent, s->busbuf);
	i.phys = phys_of(s->sys);
	i.vmid = s->vmid;
	return i;
}

/* One packet on the healthy queue completes and does its write. */
static int good_run(struct side *s, uint64_t v)
{
	hsagpu_signal_store_release(s->sig, 1);
	s->mem[0] = 0;
	__sync_synchronize();
	if (gtq_write(s->good, &s->mem[0], v, s->sig, 0) < 0)
		return 0;
	return gtq_wait_eq(s->sig, 0, MS) && s->mem[0] == v;
}

/*
 * Name @t (the other process's memory) in a DMA write, a DMA read and a
 * kernel write, each on a fresh queue: VM faults, nothing changed here.
 */
static void attack(struct side *s, uint64_t t, const char *what, int reason)
{
	static const struct { const char *how; int client, access; } ways[] = {
		{ "DMA write", HSAGPU_VM_CLIENT_DMA, HSAGPU_VM_ACCESS_WRITE },
		{ "DMA read", HSAGPU_VM_CLIENT_DMA, HSAGPU_VM_ACCESS_READ },
		{ "kernel write", HSAGPU_VM_CLIENT_KERNEL, HSAGPU_VM_ACCESS_WRITE },
	};
	uint64_t page = t & ~4095ULL;

	if (!t) {
		DIAG("process %d: %s: not known, skipped", s->me, what);
		return;
	}
	if (mapped_here(t)) {
		DIAG("process %d: %s 0x%llx is mapped in this process too: skipped",
		     s->me, what, (unsigned long long)t);
		return;
	}
	for (unsigned int w = 0; w < 3; w++) {
		hsagpu_queue_t *q = gtq_queue(&s->d, 16, 0);
		hsagpu_signal_t sg = gtq_signal(&s->d, 1);
		struct hsagpu_queue_status st;
		char msg[160];
		uint8_t keep[64];

		if (!q)
			return;
		memcpy(keep, s->sys, sizeof(keep));
		if (w == 0) {
			gtd_copy(q, t, (uintptr_t)s->sys, 4096, sg);
		} else if (w == 1) {
			gtd_copy(q, (uintptr_t)s->sys, t, 4096, sg);
		} else {
			struct hsagpu_kargs_fill k = { .dst = t, .value = 0xbad };

			gtq_dispatch1(q, HSAGPU_KERNEL_FILL,
				      gtq_kargs(&s->arena, &k, sizeof(k)), 1024,
				      64, sg, 0);
		}
		snprintf(msg, sizeof(msg), "process %d: %s of %s 0x%llx", s->me,
			 ways[w].how, what, (unsigned long long)t);
		CHECK(gtq_wait_error_status(q, MS, &st) == 0, "%s: no queue error",
		      msg);
		gtq_check_fault(msg, &st, q->id, page, page + 4096,
				ways[w].client, ways[w].access, reason);
		CHECK(((st.fault_info & HSAGPU_VM_FAULT_VMID_MASK) >>
		       HSAGPU_VM_FAULT_VMID_SHIFT) == s->vmid,
		      "%s: fault in VMID %u, the attacker's is %u", msg,
		      (st.fault_info & HSAGPU_VM_FAULT_VMID_MASK) >>
		      HSAGPU_VM_FAULT_VMID_SHIFT, s->vmid);
		CHECK(gtq_value(sg) == 1, "%s: completed its signal", msg);
		CHECK(!memcmp(keep, s->sys, sizeof(keep)),
		      "%s: the attacker's own buffer changed", msg);
		CHECK(hsagpu_queue_destroy(q) == 0, "%s: destroy", msg);
		hsagpu_signal_destroy(sg);
		CHECK(good_run(s, 0xa77ac000 + w), "process %d: own healthy queue stuck after %s",
		      s->me, msg);
	}
}

static void attacker(struct side *s)
{
	const struct info *p = &s->peer;

	attack(s, p->va_sys, "the other's system buffer by its address",
	       HSAGPU_VM_REASON_NOT_PRESENT);
	attack(s, p->va_sys + 4096 + 8, "the other's system buffer + 4104",
	       HSAGPU_VM_REASON_NOT_PRESENT);
	attack(s, p->va_vram, "the other's VRAM buffer by its address",
	       HSAGPU_VM_REASON_NOT_PRESENT);
	attack(s, p->bus, "a bus address of the other's memory", -1);
	attack(s, p->phys, "the physical address of the other's buffer", -1);
}

/* Keep the healthy queue busy until the other side says it is done. */
static void victim(struct side *s)
{
	struct pollfd pf = { .fd = s->rd, .events = POLLIN };
	uint64_t end = gtq_now_ns() + 120000 * GTQ_MS;
	char c = 0;

	for (;;) {
		if (!good_run(s, 0x900d0000 + s->good_runs)) {
			CHECK(0, "process %d: healthy queue stuck while attacked (run %ld)",
			      s->me, s->good_runs);
			break;
		}
		s->good_runs++;
		if (poll(&pf, 1, 0) == 1 || gtq_now_ns() > end)
			break;
	}
	CHECK(gt_read_full(s->rd, &c, 1, 120000) == 0 && c == 'D',
	      "process %d: the other side did not finish", s->me);
	DIAG("process %d: %ld packets completed while the other attacked", s->me,
	     s->good_runs);
}

static void check_intact(struct side *s)
{
	uint8_t *want = malloc(BUFSZ);

	if (!want)
		return;
	gtd_pattern(want, BUFSZ, 100 + s->me);
	CHECK(gtd_diff(s->sys, want, BUFSZ) == BUFSZ,
	      "process %d: system buffer changed at byte %zu", s->me,
	      gtd_diff(s->sys, want, BUFSZ));
	gtd_pattern(want, BUFSZ, 200 + s->me);
	CHECK(gtd_diff(s->vram, want, BUFSZ) == BUFSZ,
	      "process %d: VRAM buffer changed at byte %zu", s->me,
	      gtd_diff(s->vram, want, BUFSZ));
	gtd_pattern(want, 4096, 300 + s->me);
	CHECK(gtd_diff(s->busbuf, want, 4096) == 4096,
	      "process %d: the buffer at the bus address changed at byte %zu",
	      s->me, gtd_diff(s->busbuf, want, 4096));
	CHECK(hsagpu_queue_state(s->good, NULL, NULL) == HSAGPU_QSTATE_ACTIVE &&
	      good_run(s, 0xe7d),
	      "process %d: healthy queue not working at the end", s->me);
	free(want);
}

/* Both processes: setup in turn, swap what they know, attack in turn. */
static void run_side(struct side *s)
{
	struct info mine;
	char c = 'D';
	int ok;

	if (s->me == 0) {
		ok = setup(s);
		mine = my_info(s, ok);
		CHECK(write(s->wr, &mine, sizeof(mine)) == sizeof(mine), "send");
		CHECK(gt_read_full(s->rd, &s->peer, sizeof(s->peer), 60000) == 0, "receive");
	} else {
		/* after the first: both change hsagpu.ko's vm parameter */
		CHECK(gt_read_full(s->rd, &s->peer, sizeof(s->peer), 60000) == 0, "receive");
		ok = setup(s);
		mine = my_info(s, ok);
		CHECK(write(s->wr, &mine, sizeof(mine)) == sizeof(mine), "send");
	}
	if (!ok || !s->peer.ok) {
		CHECK(ok, "process %d: set-up failed", s->me);
		return;
	}
	DIAG("process %d: VMID %u, system 0x%llx, VRAM 0x%llx, bus 0x%llx, phys 0x%llx",
	     s->me, s->vmid, (unsigned long long)mine.va_sys,
	     (unsigned long long)mine.va_vram, (unsigned long long)mine.bus,
	     (unsigned long long)mine.phys);
	CHECK(s->peer.vmid != s->vmid, "both processes in VMID %u", s->vmid);
	for (int attacker_is = 0; attacker_is < 2; attacker_is++) {
		if (attacker_is == s->me) {
			attacker(s);
			CHECK(write(s->wr, &c, 1) == 1, "send done");
		} else {
			victim(s);
		}
	}
	check_intact(s);
}

int main(void)
{
	int n = hsagpu_agent_count(), p2c[2], c2p[2], status = 0;
	struct side s = { 0 };
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(n > 0, "no hsa-gpu agents (%d)", n);
	if (n <= 0)
		return gt_result();
	if (gtq_boot_queues() == 0)
		return gt_skip("this platform refuses queues");
	if (pipe(p2c) || pipe(c2p))
		return gt_skip("pipe");
	pid = fork();
	if (pid < 0)
		return gt_skip("fork");
	if (pid == 0) {
		s.me = 1;
		s.rd = p2c[0];
		s.wr = c2p[1];
		run_side(&s);
		gtq_close(&s.d0);
		gtq_close(&s.d);
		_exit(gt_result());
	}
	s.me = 0;
	s.rd = c2p[0];
	s.wr = p2c[1];
	run_side(&s);
	CHECK(gt_wait_child(pid, &status, 300000) == 0 && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "the second process failed (status 0x%x)",
	      status);
	gtq_close(&s.d0);
	gtq_close(&s.d);
	return gt_result();
}
