// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-hsa-multi: two hsa-gpus under Debian's unmodified ROCr 5.2.3. VRAM of
 * each device is made accessible to the other with
 * hsa_amd_agents_allow_access, then copied device to device in both
 * directions (host -> VRAM0 -> VRAM1 -> host and back the other way,
 * each step depending on the previous one); every word is checked. Both
 * agents also run a built-in kernel at the same time, each writing its
 * own buffer. Skips with fewer than two devices.
 *
 * First, ROCr's view: each GPU agent sees the other's VRAM pool as a
 * peer's (HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS not NEVER_ALLOWED: what
 * hipDeviceCanAccessPeer asks), one PCIe hop away. ROCr calls a pool
 * never accessible when libhsakmt found no GPU-GPU link in the KFD
 * topology. Every dual preset of the ROCm boots has peers that reach
 * each other; with the preset's p2p=limit (BARs above the devices'
 * address limit) the answer must be NEVER_ALLOWED instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsat.h"

static struct hsat h;

/*
 * Does @a's agent see @b's VRAM pool as a reachable peer's? Returns
 * whether it may be made accessible.
 */
static int peer_seen(struct hsat_gpu *a, struct hsat_gpu *b)
{
	const char *mode = gt_param("p2p");
	int want = !mode || strcmp(mode, "limit");
	hsa_amd_memory_pool_access_t access = HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
	hsa_amd_memory_pool_link_info_t link;
	uint32_t hops = 0;

	hsat_phase("peer access info");
	memset(&link, 0, sizeof(link));
	HSAT_CHECK(hsa_amd_agent_memory_pool_get_info(a->agent, b->vram,
			HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access));
	HSAT_CHECK(hsa_amd_agent_memory_pool_get_info(a->agent, b->vram,
			HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS, &hops));
	if (hops)
		HSAT_CHECK(hsa_amd_agent_memory_pool_get_info(a->agent, b->vram,
				HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO, &link));
	DIAG("%s -> %s VRAM: access %d, %u hop(s), link type %d", a->pci, b->pci,
	     (int)access, hops, (int)link.link_type);
	if (!want) {
		CHECK(access == HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED,
		      "%s -> %s: peer access %d beyond the P2P limit", a->pci, b->pci,
		      (int)access);
		return 0;
	}
	/* VRAM is coarse grained: allowed once allow_access says so */
	CHECK(access == HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT,
	      "%s -> %s: VRAM pool access %d, not a peer's (%d)", a->pci, b->pci,
	      (int)access, (int)HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT);
	CHECK(hops == 1, "%s -> %s: %u link hops", a->pci, b->pci, hops);
	CHECK(link.link_type == HSA_AMD_LINK_INFO_TYPE_PCIE,
	      "%s -> %s: link type %d", a->pci, b->pci, (int)link.link_type);
	return access != HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
}

static void peer_copy(struct hsat_gpu *a, struct hsat_gpu *b, size_t size, uint32_t seed)
{
	size_t words = size / 4, bad = 0, first = SIZE_MAX;
	uint32_t *src = hsat_alloc(h.sys, size), *dst = hsat_alloc(h.sys, size);
	void *va = hsat_alloc(a->vram, size), *vb = hsat_alloc(b->vram, size);
	hsa_signal_t s1, s2, s3;
	hsa_signal_value_t v;

	DIAG("host -> %s VRAM -> %s VRAM -> host, %zu bytes", a->pci, b->pci, size);
	if (!src || !dst || !va || !vb)
		return;
	hsat_phase("peer copy");
	for (size_t i = 0; i < words; i++)
		src[i] = seed ^ (uint32_t)(i * 0x01000193u);
	memset(dst, 0, size);
	/*
	 * Each device may reach the other's buffer. Without that a copy
	 * would fault (and ROCr abort the process): stop here, failed.
	 */
	if (HSAT_CHECK(hsa_amd_agents_allow_access(1, &b->agent, NULL, va)) |
	    HSAT_CHECK(hsa_amd_agents_allow_access(1, &a->agent, NULL, vb))) {
		DIAG("%s <-> %s: no peer access to VRAM, no copy", a->pci, b->pci);
		goto out;
	}
	HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s1));
	HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s2));
	HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s3));
	if (!HSAT_CHECK(hsa_amd_memory_async_copy(va, a->agent, src, h.cpu, size, 0, NULL, s1)) &&
	    !HSAT_CHECK(hsa_amd_memory_async_copy(vb, b->agent, va, a->agent, size, 1, &s1, s2)) &&
	    !HSAT_CHECK(hsa_amd_memory_async_copy(dst, h.cpu, vb, b->agent, size, 1, &s2, s3))) {
		CHECK(!hsat_wait_below(s3, 1, 60000, HSA_WAIT_STATE_BLOCKED, &v),
		      "%s -> %s: not complete in 60 s (signals %lld %lld %lld)", a->pci, b->pci,
		      (long long)hsa_signal_load_scacquire(s1),
		      (long long)hsa_signal_load_scacquire(s2), (long long)v);
		for (size_t i = 0; i < words; i++)
			if (dst[i] != src[i] && !bad++)
				first = i;
		CHECK(!bad, "%s -> %s: %zu of %zu words wrong, first at %zu", a->pci, b->pci,
		      bad, words, first);
	}
	hsa_signal_destroy(s1);
	hsa_signal_destroy(s2);
	hsa_signal_destroy(s3);
out:
	hsa_amd_memory_pool_free(src);
	hsa_amd_memory_pool_free(dst);
	hsa_amd_memory_pool_free(va);
	hsa_amd_memory_pool_free(vb);
}

/* Both devices run a FILL at once, each on its own queue and buffer. */
static void both_kernels(void)
{
	enum { N = 8192 };
	hsa_queue_t *q[2] = { NULL, NULL };
	hsa_signal_t s[2];
	uint32_t *buf[2];
	void *ka[2];
	int bad;

	hsat_phase("kernels on both devices");
	for (int i = 0; i < 2; i++) {
		struct hsagpu_kargs_fill fa;
		hsa_kernel_dispatch_packet_t p;

		buf[i] = hsat_alloc(h.sys, N * 4);
		if (!buf[i] || HSAT_CHECK(hsa_queue_create(h.gpu[i].agent, 256,
					  HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
					  UINT32_MAX, &q[i])))
			return;
		memset(buf[i], 0, N * 4);
		fa = (struct hsagpu_kargs_fill){ .dst = (uintptr_t)buf[i], .value = 0xd00 + i };
		ka[i] = hsat_kernarg(&h, &fa, sizeof(fa));
		HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s[i]));
		hsat_dispatch_pkt(&p, HSAGPU_KERNEL_FILL, ka[i], N, 256, s[i]);
		hsat_submit(q[i], &p);
	}
	for (int i = 0; i < 2; i++) {
		CHECK(!hsat_wait_below(s[i], 1, 20000, HSA_WAIT_STATE_BLOCKED, NULL),
		      "%s: FILL did not complete", h.gpu[i].pci);
		bad = 0;
		for (int k = 0; k < N; k++)
			bad += buf[i][k] != 0xd00u + i;
		CHECK(!bad, "%s: FILL: %d of %d words wrong", h.gpu[i].pci, bad, N);
		hsa_signal_destroy(s[i]);
		HSAT_CHECK(hsat_queue_destroy(q[i]));
		hsa_amd_memory_pool_free(buf[i]);
		hsa_amd_memory_pool_free(ka[i]);
	}
}

int main(void)
{
	char devs[GT_MAX_DEVS][16];

	if (hsat_count_devices(devs) < 2)
		return gt_skip("needs two hsa-gpus (the dual presets)");
	hsat_watchdog(180);
	if (hsat_init(&h))
		return gt_result();
	/* no peer copies where ROCr says the pools are never accessible */
	if (peer_seen(&h.gpu[0], &h.gpu[1]) & peer_seen(&h.gpu[1], &h.gpu[0])) {
		peer_copy(&h.gpu[0], &h.gpu[1], 256 * 1024, 0x1234);
		peer_copy(&h.gpu[1], &h.gpu[0], 2 << 20, 0xbeef);
	}
	both_kernels();
	hsat_phase("hsa_shut_down");
	HSAT_CHECK(hsat_shut_down());
	return gt_result();
}
