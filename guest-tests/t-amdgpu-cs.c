// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Command submission to Debian's stock amdgpu on the Vega10 personality,
 * as a user-space driver does it (render node, GEM buffers, VM mappings,
 * a context, a CS ioctl with one IB, WAIT_CS), through the kernel's uapi
 * only: no libdrm. Run by guest-tests/amdgpu.sh, one case per run:
 *
 *   fault   a GFX IB writes to a GPU address this process never mapped,
 *           then to its own buffer. The device faults in the job's VMID
 *           and, as amdgpu programs VMIDs 1-15 (no-retry, default page),
 *           the write goes to the dummy page and the IB goes on: the job
 *           completes and the second write lands. Prints "fault-va" and
 *           "pid" for the script to find in amdgpu's fault report.
 *   hang    inject-queue-hang holds the GFX ring (the harness channel's
 *           qom-set of gpu0); an IB submitted then never runs, amdgpu's
 *           job timeout recovers the GPU; the job ends with an error
 *           without having run, its context reads reset and guilty, the
 *           hang is gone, and a new context's IB runs.
 *
 * Exit 0 pass, 1 fail, 77 skip (no render node of amdgpu, no harness).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm/amdgpu_drm.h>

#include "gt.h"
#include "gthost.h"

#define DEV             "gpu0"
/* inject-queue-hang's id of the GFX ring: after the 8 SDMA rings */
#define HANG_GFX        "8"
/* GPU virtual addresses of this process (above amdgpu's reserved bottom) */
#define VA_IB           0x800000ULL
#define VA_DATA         0x900000ULL
/* mapped by nobody: 0x123_4567_8000 */
#define VA_UNMAPPED     0x12345678000ULL
#define BO_SIZE         4096
/* PM4: WRITE_DATA to memory (DST_SEL 5) with write confirm */
#define PKT3(op, n)     (3u << 30 | ((n) - 2) << 16 | (op) << 8)
#define PKT3_WRITE_DATA 0x37
#define WD_DST_MEM      (5u << 8)
#define WD_CONFIRM      (1u << 20)

struct bo {
	uint32_t handle;
	uint32_t *cpu;
	uint64_t va;
};

static int fd = -1;

static int bo_new(struct bo *b, uint64_t va)
{
	union drm_amdgpu_gem_create c = { 0 };
	union drm_amdgpu_gem_mmap m = { 0 };
	struct drm_amdgpu_gem_va v = { 0 };
	void *p;

	c.in.bo_size = BO_SIZE;
	c.in.alignment = 4096;
	c.in.domains = AMDGPU_GEM_DOMAIN_GTT;
	if (ioctl(fd, DRM_IOCTL_AMDGPU_GEM_CREATE, &c)) {
		DIAG("GEM_CREATE: %s", strerror(errno));
		return -1;
	}
	b->handle = c.out.handle;
	m.in.handle = b->handle;
	if (ioctl(fd, DRM_IOCTL_AMDGPU_GEM_MMAP, &m)) {
		DIAG("GEM_MMAP: %s", strerror(errno));
		return -1;
	}
	p = mmap(NULL, BO_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 m.out.addr_ptr);
	if (p == MAP_FAILED) {
		DIAG("mmap: %s", strerror(errno));
		return -1;
	}
	b->cpu = p;
	memset(p, 0, BO_SIZE);
	v.handle = b->handle;
	v.operation = AMDGPU_VA_OP_MAP;
	v.flags = AMDGPU_VM_PAGE_READABLE | AMDGPU_VM_PAGE_WRITEABLE |
		  AMDGPU_VM_PAGE_EXECUTABLE;
	v.va_address = va;
	v.map_size = BO_SIZE;
	if (ioctl(fd, DRM_IOCTL_AMDGPU_GEM_VA, &v)) {
		DIAG("GEM_VA 0x%llx: %s", (unsigned long long)va,
		     strerror(errno));
		return -1;
	}
	b->va = va;
	return 0;
}

static int ctx_new(uint32_t *id)
{
	union drm_amdgpu_ctx c = { 0 };

	c.in.op = AMDGPU_CTX_OP_ALLOC_CTX;
	if (ioctl(fd, DRM_IOCTL_AMDGPU_CTX, &c)) {
		DIAG("CTX alloc: %s", strerror(errno));
		return -1;
	}
	*id = c.out.alloc.ctx_id;
	return 0;
}

static uint64_t ctx_flags(uint32_t id)
{
	union drm_amdgpu_ctx c = { 0 };

	c.in.op = AMDGPU_CTX_OP_QUERY_STATE2;
	c.in.ctx_id = id;
	if (ioctl(fd, DRM_IOCTL_AMDGPU_CTX, &c)) {
		DIAG("CTX query: %s", strerror(errno));
		return 0;
	}
	return c.out.state.flags;
}

/* @ndw dwords of @ib as one GFX IB of context @ctx: its handle, or 0 */
static uint64_t submit(uint32_t ctx, struct bo *ib, unsigned int ndw,
		       struct bo *data)
{
	struct drm_amdgpu_bo_list_entry e[2] = {
		{ .bo_handle = ib->handle }, { .bo_handle = data->handle },
	};
	union drm_amdgpu_bo_list l = { 0 };
	struct drm_amdgpu_cs_chunk_ib cib = { 0 };
	struct drm_amdgpu_cs_chunk chunk = { 0 };
	uint64_t chunks = (uintptr_t)&chunk;
	union drm_amdgpu_cs cs = { 0 };
	int r;

	l.in.operation = AMDGPU_BO_LIST_OP_CREATE;
	l.in.bo_number = 2;
	l.in.bo_info_size = sizeof(e[0]);
	l.in.bo_info_ptr = (uintptr_t)e;
	if (ioctl(fd, DRM_IOCTL_AMDGPU_BO_LIST, &l)) {
		DIAG("BO_LIST: %s", strerror(errno));
		return 0;
	}
	cib.va_start = ib->va;
	cib.ib_bytes = ndw * 4;
	cib.ip_type = AMDGPU_HW_IP_GFX;
	chunk.chunk_id = AMDGPU_CHUNK_ID_IB;
	chunk.length_dw = sizeof(cib) / 4;
	chunk.chunk_data = (uintptr_t)&cib;
	cs.in.ctx_id = ctx;
	cs.in.bo_list_handle = l.out.list_handle;
	cs.in.num_chunks = 1;
	cs.in.chunks = (uintptr_t)&chunks;
	r = ioctl(fd, DRM_IOCTL_AMDGPU_CS, &cs);
	if (r)
		DIAG("CS: %s", strerror(errno));
	memset(&l, 0, sizeof(l));
	l.in.operation = AMDGPU_BO_LIST_OP_DESTROY;
	l.in.list_handle = cs.in.bo_list_handle;
	ioctl(fd, DRM_IOCTL_AMDGPU_BO_LIST, &l);
	return r ? 0 : cs.out.handle;
}

/*
 * Wait up to @secs for job @seq of @ctx: 0 done, -errno the job's error
 * (or the ioctl's), -ETIMEDOUT still running
 */
static int wait_cs(uint32_t ctx, uint64_t seq, unsigned int secs)
{
	union drm_amdgpu_wait_cs w = { 0 };
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	w.in.handle = seq;
	w.in.timeout = (now.tv_sec + secs) * 1000000000ULL + now.tv_nsec;
	w.in.ip_type = AMDGPU_HW_IP_GFX;
	w.in.ctx_id = ctx;
	if (ioctl(fd, DRM_IOCTL_AMDGPU_WAIT_CS, &w))
		return -errno;
	return w.out.status ? -ETIMEDOUT : 0;
}

static unsigned int write_data(uint32_t *p, uint64_t va, uint32_t val)
{
	p[0] = PKT3(PKT3_WRITE_DATA, 5);
	p[1] = WD_DST_MEM | WD_CONFIRM;
	p[2] = (uint32_t)va;
	p[3] = va >> 32;
	p[4] = val;
	return 5;
}

static int case_fault(struct bo *ib, struct bo *data)
{
	uint32_t ctx;
	uint64_t seq;
	unsigned int n = 0;
	int r;

	if (ctx_new(&ctx))
		return 1;
	n += write_data(ib->cpu + n, VA_UNMAPPED, 0xbad);
	n += write_data(ib->cpu + n, data->va, 0x600dcafe);
	printf("fault-va 0x%016llx\npid %d\n", (unsigned long long)VA_UNMAPPED,
	       (int)getpid());
	fflush(stdout);
	seq = submit(ctx, ib, n, data);
	CHECK(seq != 0, "the CS ioctl failed");
	if (!seq)
		return 1;
	r = wait_cs(ctx, seq, 30);
	CHECK(r == 0, "WAIT_CS: %s: the job did not complete past its fault",
	      strerror(-r));
	CHECK(data->cpu[0] == 0x600dcafe,
	      "the write after the faulting one: 0x%x, not 0x600dcafe",
	      data->cpu[0]);
	CHECK(!(ctx_flags(ctx) & AMDGPU_CTX_QUERY2_FLAGS_RESET),
	      "a VM fault reset the GPU");
	return gt_result();
}

static int case_hang(struct bo *ib, struct bo *data)
{
	uint32_t ctx, ctx2;
	uint64_t seq, held = 0, flags;
	int r;

	if (!gt_host_attached())
		return gt_skip("no harness channel to inject the hang");
	if (ctx_new(&ctx))
		return 1;
	write_data(ib->cpu, data->va, 0x4a96);
	CHECK(gt_qom_set(DEV, "inject-queue-hang", HANG_GFX) == 0,
	      "qom-set inject-queue-hang");
	gt_qom_get_u64(DEV, "inject-queue-hang", &held);
	CHECK((int64_t)held == 8, "inject-queue-hang reads %lld, not 8",
	      (long long)held);
	seq = submit(ctx, ib, 5, data);
	CHECK(seq != 0, "the CS ioctl failed");
	if (!seq)
		return 1;
	/* amdgpu's GFX job timeout is 10 s (lockup_timeout), then recovery */
	r = wait_cs(ctx, seq, 90);
	printf("hung-job %s\n", r ? strerror(-r) : "completed");
	CHECK(r != -ETIMEDOUT, "the hung job still waits after 90 s");
	CHECK(r != 0, "the hung job completed without an error");
	CHECK(data->cpu[0] == 0, "the held ring ran the IB: 0x%x",
	      data->cpu[0]);
	flags = ctx_flags(ctx);
	printf("ctx-flags 0x%llx\n", (unsigned long long)flags);
	CHECK(flags & AMDGPU_CTX_QUERY2_FLAGS_RESET,
	      "the context does not know of a reset (flags 0x%llx)",
	      (unsigned long long)flags);
	CHECK(flags & AMDGPU_CTX_QUERY2_FLAGS_GUILTY,
	      "the context of the hung job is not guilty (flags 0x%llx)",
	      (unsigned long long)flags);
	gt_qom_get_u64(DEV, "inject-queue-hang", &held);
	CHECK((int64_t)held == -1,
	      "the reset left the GFX ring held (inject-queue-hang %lld)",
	      (long long)held);
	/* a new context's job runs */
	if (ctx_new(&ctx2))
		return 1;
	write_data(ib->cpu, data->va, 0x4a97);
	seq = submit(ctx2, ib, 5, data);
	CHECK(seq != 0, "the CS ioctl after the reset failed");
	if (seq) {
		r = wait_cs(ctx2, seq, 30);
		CHECK(r == 0, "WAIT_CS after the reset: %s", strerror(-r));
		CHECK(data->cpu[0] == 0x4a97,
		      "the IB after the reset wrote 0x%x, not 0x4a97",
		      data->cpu[0]);
	}
	return gt_result();
}

int main(int argc, char **argv)
{
	const char *node = argc > 2 ? argv[2] : "/dev/dri/renderD128";
	struct bo ib, data;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2 || (strcmp(argv[1], "fault") && strcmp(argv[1], "hang"))) {
		fprintf(stderr, "usage: %s fault|hang [RENDER-NODE]\n", argv[0]);
		return 2;
	}
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return gt_skip("%s: %s", node, strerror(errno));
	if (bo_new(&ib, VA_IB) || bo_new(&data, VA_DATA))
		return 1;
	return !strcmp(argv[1], "fault") ? case_fault(&ib, &data)
					 : case_hang(&ib, &data);
}
