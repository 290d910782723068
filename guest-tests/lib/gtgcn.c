// SPDX-License-Identifier: GPL-2.0-or-later
/* Code objects for the GCN interpreter (gtgcn.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt.h"
#include "gtgcn.h"
#include "gcn-elf.h"

int gtgcn_load(struct gtq_dev *d, const char *file, const char *kernel,
	       uint64_t *kd)
{
	char path[96], sym[96];
	uint64_t kdoff = 0;
	Elf64_Ehdr eh;
	uint8_t *f;
	void *mem;
	long n;
	FILE *fp;

	snprintf(path, sizeof(path), "/tests/%s.co", file);
	fp = fopen(path, "rb");
	CHECK(fp, "open %s", path);
	if (!fp)
		return -1;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	f = malloc(n);
	CHECK(f && fread(f, 1, n, fp) == (size_t)n, "read %s", path);
	fclose(fp);
	if (!f)
		return -1;
	memcpy(&eh, f, sizeof(eh));
	CHECK(eh.e_machine == EM_AMDGPU, "%s: machine %u", path, eh.e_machine);
	mem = gtq_alloc(d, (gcn_elf_span(f) + 4095) & ~4095ULL,
			HSAGPU_RT_MEM_SYSTEM);
	if (mem) {
		gcn_elf_load(f, mem);
		snprintf(sym, sizeof(sym), "%s.kd", kernel);
		kdoff = gcn_elf_symbol(f, sym);
		CHECK(kdoff, "%s: no symbol %s", path, sym);
		*kd = gtq_ptr(d->agent, (uint8_t *)mem + kdoff);
	}
	free(f);
	return kdoff ? 0 : -1;
}

int gtgcn_run(struct gtq_dev *d, hsagpu_queue_t *q, hsagpu_signal_t sig,
	      uint64_t kd, const void *kargs, const uint32_t grid[3],
	      const uint16_t wg[3])
{
	struct hsagpu_kernel_dispatch_packet pkt;

	hsagpu_signal_store_release(sig, 1);
	hsagpu_packet_dispatch(&pkt, kd, gtq_ptr(d->agent, kargs), grid, wg,
			       grid[2] > 1 ? 3 : grid[1] > 1 ? 2 : 1, sig);
	if (hsagpu_queue_submit(q, &pkt,
				GTQ_HDR(HSAGPU_PKT_TYPE_KERNEL_DISPATCH, 1)) < 0)
		return -1;
	return hsagpu_signal_wait_acquire(sig, HSAGPU_SIGNAL_CONDITION_EQ, 0,
					  60000 * GTQ_MS,
					  HSAGPU_WAIT_STATE_BLOCKED) == 0 ? 0 : -1;
}
