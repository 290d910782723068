// SPDX-License-Identifier: GPL-2.0-or-later
/* Queue helpers of the guest tests: see gtq.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "gtq.h"

uint64_t gtq_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void gtq_sleep_ms(unsigned int ms)
{
	usleep(ms * 1000);
}

int gtq_allow_no_atomics(void)
{
	char buf[8] = "";
	FILE *f = fopen("/sys/module/hsagpu/parameters/allow_no_atomics", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	return buf[0] == 'Y' || buf[0] == '1';
}

int gtq_boot_queues(void)
{
	const char *mp = gt_param("modparams");
	const char *at;

	if (mp && (strstr(mp, "allow_no_atomics=1") ||
		   strstr(mp, "allow_no_atomics=Y")))
		return 1;
	at = gt_param("atomics");
	if (!at)
		return -1;
	return strcmp(at, "unsupported") != 0;
}

void gtq_check_decision(struct gtq_dev *d, int usable)
{
	int want = gtq_boot_queues();
	char what[96] = "";
	int ret = gt_sysfs_read(d->pci, "hsagpu/queues", what, sizeof(what));

	CHECK(ret == 0, "%s: sysfs hsagpu/queues: %d", d->pci, ret);
	if (!ret)
		CHECK(usable == (strcmp(what, "allowed") == 0 ||
				 strcmp(what, "degraded") == 0),
		      "%s: sysfs hsagpu/queues says '%s', but queues are %s",
		      d->pci, what, usable ? "usable" : "refused");
	CHECK(want < 0 || want == usable,
	      "%s: this boot (hsagpu_test.atomics=%s modparams=%s) promises queues %s, the driver %s them (atomics 0x%x, errno %d)",
	      d->pci, gt_param("atomics") ? gt_param("atomics") : "-",
	      gt_param("modparams") ? gt_param("modparams") : "-",
	      want ? "on every device" : "refused", usable ? "allows" : "refuses",
	      d->info->atomics, d->info->atomics_errno);
}

int gtq_boot_vm(void)
{
	const char *mp = gt_param("modparams");

	return !(mp && (strstr(mp, "vm=0") || strstr(mp, "vm=N")));
}

int gtq_vm_param(void)
{
	char buf[8] = "";
	FILE *f = fopen("/sys/module/hsagpu/parameters/vm", "r");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return buf[0] == 'Y' || buf[0] == '1';
}

int gtq_vm_param_set(int vm)
{
	int old = gtq_vm_param();
	int ret;

	if (old < 0)
		return -ENOENT;
	ret = gt_sysfs_write("/sys/module/hsagpu/parameters/vm", vm ? "1" : "0");
	return ret < 0 ? ret : old;
}

uint64_t gtq_ptr(hsagpu_agent_t *a, const volatile void *p)
{
	const struct hsagpu_device_info *info = hsagpu_agent_info(a);

	if (info && (info->vm_flags & HSAGPU_VM_INFO_ENABLED))
		return (uintptr_t)p;
	return hsagpu_addr(a, (const void *)p);
}

int gtq_wait_error_status(hsagpu_queue_t *q, unsigned int ms,
			  struct hsagpu_queue_status *st)
{
	uint64_t end = gtq_now_ns() + ms * GTQ_MS;

	for (;;) {
		if (gtq_status(q, st) == 0 && st->state == HSAGPU_QSTATE_ERROR)
			return 0;
		if (gtq_now_ns() > end)
			return -1;
		usleep(1000);
	}
}

int gtq_check_fault(const char *what, const struct hsagpu_queue_status *st,
		    uint32_t qid, uint64_t lo, uint64_t hi, int client,
		    int access, int reason)
{
	uint32_t fi = st->fault_info;
	unsigned int c = (fi & HSAGPU_VM_FAULT_CLIENT_MASK) >>
			 HSAGPU_VM_FAULT_CLIENT_SHIFT;
	unsigned int acc = (fi & HSAGPU_VM_FAULT_ACCESS_MASK) >>
			   HSAGPU_VM_FAULT_ACCESS_SHIFT;
	unsigned int r = (fi & HSAGPU_VM_FAULT_REASON_MASK) >>
			 HSAGPU_VM_FAULT_REASON_SHIFT;
	unsigned int vmid = (fi & HSAGPU_VM_FAULT_VMID_MASK) >>
			    HSAGPU_VM_FAULT_VMID_SHIFT;
	unsigned int fq = (fi & HSAGPU_VM_FAULT_QUEUE_MASK) >>
			  HSAGPU_VM_FAULT_QUEUE_SHIFT;
	int before = gt_failures;

	DIAG("%s: state %u error %u fault 0x%llx info 0x%x (vmid %u client %u access %u reason %u queue %u)",
	     what, st->state, st->error, (unsigned long long)st->fault_addr,
	     fi, vmid, c, acc, r, fq);
	CHECK(st->state == HSAGPU_QSTATE_ERROR &&
	      st->error == HSAGPU_QERR_VM_FAULT,
	      "%s: state %u error %u, expected ERROR with VM_FAULT (%u)", what,
	      st->state, st->error, HSAGPU_QERR_VM_FAULT);
	CHECK(st->fault_addr >= lo && st->fault_addr < hi,
	      "%s: fault address 0x%llx outside [0x%llx, 0x%llx)", what,
	      (unsigned long long)st->fault_addr, (unsigned long long)lo,
	      (unsigned long long)hi);
	CHECK(fi & HSAGPU_VM_FAULT_VALID, "%s: fault_info 0x%x not VALID",
	      what, fi);
	CHECK(vmid >= 1 && vmid < HSAGPU_VM_NUM_VMIDS,
	      "%s: fault in VMID %u", what, vmid);
	CHECK(fq == qid, "%s: fault of queue %u, expected %u", what, fq, qid);
	CHECK(client < 0 || c == (unsigned int)client,
	      "%s: client %u, expected %d", what, c, client);
	CHECK(access < 0 || acc == (unsigned int)access,
	      "%s: access %u, expected %d", what, acc, access);
	CHECK(reason < 0 || r == (unsigned int)reason,
	      "%s: reason %u, expected %d", what, r, reason);
	return gt_failures - before;
}

/* Open agent @idx (vm: -1 as the driver has it, 0 or 1 forced) */
static int open_agent(int idx, struct gtq_dev *d, int vm)
{
	int old = -1, ret;

	if (vm >= 0) {
		old = gtq_vm_param_set(vm);
		CHECK(old >= 0, "set hsagpu.ko parameter vm=%d: %d", vm, old);
	}
	ret = hsagpu_agent_open(idx, &d->agent);
	if (old >= 0 && old != vm)
		gtq_vm_param_set(old);
	return ret;
}

static int gtq_open_mode(int idx, struct gtq_dev *d, int vm)
{
	hsagpu_queue_t *q = NULL;
	int ret;

	memset(d, 0, sizeof(*d));
	ret = open_agent(idx, d, vm);
	CHECK(ret == 0 && d->agent, "hsagpu_agent_open(%d): %d", idx, ret);
	if (ret || !d->agent)
		return -1;
	d->info = hsagpu_agent_info(d->agent);
	d->vm = !!(d->info->vm_flags & HSAGPU_VM_INFO_ENABLED);
	snprintf(d->pci, sizeof(d->pci), "%04x:%02x:%02x.%x",
		 d->info->pci_domain, d->info->pci_bus,
		 d->info->pci_devfn >> 3, d->info->pci_devfn & 7);
	CHECK(!!(d->info->caps & HSAGPU_CAP_VM) ==
	      !!(d->info->vm_flags & HSAGPU_VM_INFO_CAPABLE),
	      "%s: caps 0x%x but vm_flags 0x%x", d->pci, d->info->caps,
	      d->info->vm_flags);
	if (vm < 0 && !d->vm) {
		/*
		 * Plain pointers in packets of a file without GPU VM would be
		 * taken as bus addresses: the device would write whatever
		 * memory has those. Never run like that.
		 */
		if (!gtq_boot_vm())
			exit(gt_skip("this boot loads hsagpu.ko with vm=0: the tests put plain pointers into packets and need GPU virtual memory"));
		CHECK(0, "%s: file without GPU virtual memory (caps 0x%x, vm_flags 0x%x, hsagpu.ko vm=%d): the tests put plain pointers into packets",
		      d->pci, d->info->caps, d->info->vm_flags, gtq_vm_param());
		exit(gt_result());
	}
	CHECK(d->vm == (vm != 0), "%s: file %s GPU virtual memory (vm_flags 0x%x), asked for vm=%d",
	      d->pci, d->vm ? "uses" : "does not use", d->info->vm_flags, vm);
	d->regs = gt_map_resource(d->pci, HSAGPU_BAR_MMIO, &d->regs_len);
	CHECK(d->regs, "map BAR5 of %s", d->pci);
	CHECK(d->info->caps & HSAGPU_CAP_AQL_QUEUES,
	      "%s: caps 0x%x without AQL queues", d->pci, d->info->caps);
	if ((d->info->atomics & HSAGPU_ATOMICS_ROUTED) ||
	    gtq_allow_no_atomics()) {
		gtq_check_decision(d, 1);
		return 1;
	}
	gtq_check_decision(d, 0);
	ret = hsagpu_queue_create(d->agent, 16, 0, 0, &q);
	CHECK(ret == -EOPNOTSUPP,
	      "%s: no AtomicOp routing (atomics 0x%x) but queue create gave %d, expected -EOPNOTSUPP",
	      d->pci, d->info->atomics, ret);
	if (!ret)
		hsagpu_queue_destroy(q);
	DIAG("%s: no PCIe AtomicOps to the root complex (errno %d): queues refused with EOPNOTSUPP as required; nothing more to run here",
	     d->pci, d->info->atomics_errno);
	return 0;
}

int gtq_open(int idx, struct gtq_dev *d)
{
	return gtq_open_mode(idx, d, -1);
}

int gtq_open_vm(int idx, struct gtq_dev *d, int vm)
{
	return gtq_open_mode(idx, d, !!vm);
}

int gtq_result(int ran, int n)
{
	if (gtq_boot_queues() == 1)
		CHECK(ran == n, "queues ran on %d of %d devices; this boot promises all",
		      ran, n);
	if (ran > 0 || n <= 0)
		return gt_result();
	return gt_skip("queues unusable on all %d device(s): no PCIe AtomicOp path to the root complex (hsagpu_test.atomics=%s)",
		       n, gt_param("atomics") ? gt_param("atomics") : "-");
}

void gtq_close(struct gtq_dev *d)
{
	if (d->agent)
		hsagpu_agent_close(d->agent);
	d->agent = NULL;
}

uint32_t gtq_reg(struct gtq_dev *d, uint32_t off)
{
	return d->regs ? d->regs[off / 4] : 0;
}

uint64_t gtq_dev_time(struct gtq_dev *d)
{
	uint32_t lo = gtq_reg(d, HSAGPU_REG_TIMESTAMP_LO);

	return lo | (uint64_t)gtq_reg(d, HSAGPU_REG_TIMESTAMP_HI) << 32;
}

long gtq_queues_active(struct gtq_dev *d)
{
	uint64_t v;

	if (gt_sysfs_u64(d->pci, "hsagpu/queues_active", &v))
		return -1;
	return (long)v;
}

void *gtq_alloc(struct gtq_dev *d, size_t size, uint32_t flags)
{
	void *p = NULL;
	int ret = hsagpu_memory_allocate(d->agent, size, flags, &p);

	CHECK(ret == 0 && p, "allocate %zu bytes flags 0x%x: %d", size,
	      flags, ret);
	if (ret)
		return NULL;
	if (flags & HSAGPU_RT_MEM_VRAM) {
		/* The WC mapping: keep stores ordered before packets. */
		memset(p, 0, size);
		__sync_synchronize();
	}
	return p;
}

hsagpu_queue_t *gtq_queue(struct gtq_dev *d, uint32_t size,
			  uint32_t flags)
{
	hsagpu_queue_t *q = NULL;
	int ret = hsagpu_queue_create(d->agent, size, 0, flags, &q);

	CHECK(ret == 0 && q, "queue create size %u flags 0x%x: %d", size,
	      flags, ret);
	return ret ? NULL : q;
}

hsagpu_signal_t gtq_signal(struct gtq_dev *d, int64_t value)
{
	hsagpu_signal_t s = { 0 };
	int ret = hsagpu_signal_create(d->agent, value, &s);

	CHECK(ret == 0 && s.handle, "signal create: %d", ret);
	return s;
}

int64_t gtq_value(hsagpu_signal_t s)
{
	return hsagpu_signal_load_acquire(s);
}

int gtq_wait_eq(hsagpu_signal_t s, int64_t want, unsigned int ms)
{
	int64_t v = hsagpu_signal_wait_acquire(s, HSAGPU_SIGNAL_CONDITION_EQ,
					       want, ms * GTQ_MS,
					       HSAGPU_WAIT_STATE_BLOCKED);

	return v == want;
}

void gtq_arena_init(struct gtq_dev *d, struct gtq_arena *a,
		    size_t size)
{
	a->base = gtq_alloc(d, size, HSAGPU_RT_MEM_SYSTEM);
	a->size = a->base ? size : 0;
	a->used = 0;
}

void *gtq_kargs(struct gtq_arena *a, const void *args,
		size_t len)
{
	void *p;

	if (a->used + 64 > a->size)
		a->used = 0;    /* wrap: callers wait before reusing */
	p = a->base + a->used;
	a->used += (len + 63) & ~(size_t)63;
	memcpy(p, args, len);
	return p;
}

int64_t gtq_dispatch(hsagpu_queue_t *q, uint64_t kobj,
		     const void *kargs, unsigned int dims,
		     const uint32_t grid[3], const uint16_t wg[3],
		     hsagpu_signal_t sig, int barrier)
{
	struct hsagpu_kernel_dispatch_packet pkt;
	int64_t id;

	memset(&pkt, 0, sizeof(pkt));
	hsagpu_packet_dispatch(&pkt, kobj, gtq_ptr(q->agent, kargs), grid,
			       wg, dims, sig);
	id = hsagpu_queue_submit(q, &pkt,
				 GTQ_HDR(HSAGPU_PKT_TYPE_KERNEL_DISPATCH,
					 barrier));
	CHECK(id >= 0, "submit kernel 0x%llx: %lld",
	      (unsigned long long)kobj, (long long)id);
	return id;
}

int64_t gtq_dispatch1(hsagpu_queue_t *q, uint64_t kobj,
		      const void *kargs, uint32_t n, uint16_t wg,
		      hsagpu_signal_t sig, int barrier)
{
	uint32_t grid[3] = { n, 1, 1 };
	uint16_t wgs[3] = { wg, 1, 1 };

	return gtq_dispatch(q, kobj, kargs, 1, grid, wgs, sig, barrier);
}

int64_t gtq_busy(hsagpu_queue_t *q, struct gtq_arena *a,
		 uint64_t ns, hsagpu_signal_t sig, int barrier)
{
	struct hsagpu_kargs_busy k = { .ns = ns };

	return gtq_dispatch1(q, HSAGPU_KERNEL_BUSY, gtq_kargs(a, &k, sizeof(k)),
			     1, 1, sig, barrier);
}

int64_t gtq_agent(hsagpu_queue_t *q, uint16_t type,
		  void *ret, uint64_t arg0, hsagpu_signal_t sig,
		  int barrier)
{
	struct hsagpu_agent_dispatch_packet pkt;
	uint64_t args[4] = { arg0, 0, 0, 0 };
	int64_t id;

	memset(&pkt, 0, sizeof(pkt));
	hsagpu_packet_agent(&pkt, type, ret ? gtq_ptr(q->agent, ret) : 0,
			    args, sig);
	id = hsagpu_queue_submit(q, &pkt,
				 GTQ_HDR(HSAGPU_PKT_TYPE_AGENT_DISPATCH,
					 barrier));
	CHECK(id >= 0, "submit agent dispatch %u: %lld", type, (long long)id);
	return id;
}

int64_t gtq_write(hsagpu_queue_t *q, volatile uint64_t *dst,
		  uint64_t val, hsagpu_signal_t sig, int barrier)
{
	return gtq_agent(q, HSAGPU_AGENT_WRITE_VALUE, (void *)dst, val, sig,
			 barrier);
}

int64_t gtq_barrier(hsagpu_queue_t *q, uint32_t type,
		    const hsagpu_signal_t *deps, unsigned int ndeps,
		    hsagpu_signal_t sig, int barrier)
{
	struct hsagpu_barrier_packet pkt;
	int64_t id;

	memset(&pkt, 0, sizeof(pkt));
	hsagpu_packet_barrier(&pkt, deps, ndeps, sig);
	id = hsagpu_queue_submit(q, &pkt, GTQ_HDR(type, barrier));
	CHECK(id >= 0, "submit barrier: %lld", (long long)id);
	return id;
}

int gtq_status(hsagpu_queue_t *q,
	       struct hsagpu_queue_status *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	st->queue_id = q->id;
	return ioctl(hsagpu_agent_fd(q->agent), HSAGPU_IOC_QUEUE_STATUS, st);
}

int gtq_wait_idle(hsagpu_queue_t *q, unsigned int ms)
{
	uint64_t end = gtq_now_ns() + ms * GTQ_MS;

	while (hsagpu_queue_load_read_index(q) !=
	       hsagpu_queue_load_write_index(q)) {
		if (gtq_now_ns() > end)
			return 0;
		usleep(200);
	}
	return 1;
}

unsigned int gtq_valid_headers(hsagpu_queue_t *q)
{
	unsigned int n = 0;

	for (uint32_t i = 0; i < q->size; i++) {
		volatile uint16_t *h = hsagpu_queue_slot(q, i);

		n += (*h & HSAGPU_PKT_HDR_TYPE_MASK) != HSAGPU_PKT_TYPE_INVALID;
	}
	return n;
}
