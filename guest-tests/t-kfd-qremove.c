// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-kfd-qremove: the device under a KFD process with a running queue and
 * its doorbell slice mapped through /dev/kfd is removed (PCI remove):
 * the doorbell page mapped before is taken away (a write is SIGBUS, not
 * a store into a BAR that is no longer the device's), the queue is gone
 * from the driver, destroying it and the process's teardown still work,
 * and after a rescan a new queue runs.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gt.h"
#include "gtdev.h"
#include "gtkfd.h"

#define TOPO "/sys/devices/virtual/kfd/kfd/topology/nodes"

static sigjmp_buf jb;

static void on_sigbus(int sig)
{
	siglongjmp(jb, 1);
}

static unsigned long prop(int node, const char *name)
{
	char path[128], line[256], key[128];
	unsigned long long v, ret = 0;
	FILE *f;

	snprintf(path, sizeof(path), TOPO "/%d/properties", node);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %llu", key, &v) == 2 && !strcmp(key, name))
			ret = v;
	fclose(f);
	return ret;
}

int main(void)
{
	struct hsagpu_barrier_packet b;
	struct gtkfd_queue q, q2;
	struct gtkfd k, k2;
	unsigned long loc;
	char pci[32];
	int e, faulted, i;

	e = gtkfd_open(&k);
	if (e)
		return gt_skip("no KFD GPU (boot with hsagpu_test.kfd=1): %s", strerror(-e));
	/* gtkfd_open() takes the first GPU node: node 1 */
	loc = prop(1, "location_id");
	snprintf(pci, sizeof(pci), "%04lx:%02lx:%02lx.%lx", prop(1, "domain"), loc >> 8,
		 (loc >> 3) & 0x1f, loc & 7);
	e = gtkfd_queue_create(&k, &q);
	EXPECT(-e, 0, "CREATE_QUEUE");
	if (e)
		return gt_result();
	memset(&b, 0, sizeof(b));
	b.header = HSAGPU_PKT_TYPE_BARRIER_AND << HSAGPU_PKT_HDR_TYPE_SHIFT;
	gtkfd_queue_submit(&q, &b);    /* the doorbell page is mapped now */
	for (i = 0; i < 10000 && gtkfd_queue_rptr(&q) < 1; i++)
		usleep(1000);
	CHECK(gtkfd_queue_rptr(&q) == 1, "the queue did not run its packet");

	DIAG("removing %s", pci);
	CHECK(!gtd_remove(pci), "remove %s", pci);
	signal(SIGBUS, on_sigbus);
	faulted = sigsetjmp(jb, 1);
	if (!faulted)
		*q.doorbell = 1;
	signal(SIGBUS, SIG_DFL);
	CHECK(faulted, "the doorbell of a removed device is still mapped");
	EXPECT(-gtkfd_queue_destroy(&k, &q), 0, "DESTROY_QUEUE after the removal");
	gtkfd_close(&k);

	CHECK(!gtd_rescan(pci, 20000), "rescan %s", pci);
	e = gtkfd_open(&k2);
	EXPECT(-e, 0, "KFD after the rescan");
	e = e ? e : gtkfd_queue_create(&k2, &q2);
	EXPECT(-e, 0, "a queue after the rescan");
	if (!e) {
		gtkfd_queue_submit(&q2, &b);
		for (i = 0; i < 10000 && gtkfd_queue_rptr(&q2) < 1; i++)
			usleep(1000);
		CHECK(gtkfd_queue_rptr(&q2) == 1, "the new queue did not run its packet");
		EXPECT(-gtkfd_queue_destroy(&k2, &q2), 0, "DESTROY_QUEUE");
	}
	return gt_result();
}
