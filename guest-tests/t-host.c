// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The harness channel (gthost.h) works: PING, a QMP command and its
 * error path, and QOM reads of each device that agree with what the
 * guest sees (VRAM size = BAR0 size). SKIPs without a harness.
 */
#include <errno.h>
#include <string.h>

#include "gt.h"
#include "gthost.h"
#include "gtpci.h"

int main(void)
{
	char devs[GT_MAX_DEVS][16], reply[4096];
	const char *v;
	int n, ret;

	if (!gt_host_attached())
		return gt_skip("no harness channel (hsagpu_test.host=1 not set)");

	/* nothing here waits long: fail fast if the harness does not answer */
	gt_host_timeout_ms = 30000;
	ret = gt_host("PING", reply, sizeof(reply));
	CHECK(ret > 0 && strstr(reply, "\"pong\""), "PING: %d %s", ret, reply);

	ret = gt_qmp("{\"execute\": \"query-status\"}", reply, sizeof(reply));
	CHECK(ret == 0, "query-status: %d", ret);
	v = ret == 0 ? gt_json_find(reply, "running") : NULL;
	CHECK(v && !strncmp(v, "true", 4), "query-status says not running: %s",
	      reply);

	/* errors come back as errors: an unknown command, bad JSON, an
	 * unknown request, a property that cannot change after realize */
	ret = gt_qmp("{\"execute\": \"no-such-command\"}", reply, sizeof(reply));
	CHECK(ret == -EREMOTEIO, "unknown QMP command: %d %s", ret, reply);
	ret = gt_qmp("{\"execute\": ", reply, sizeof(reply));
	CHECK(ret == -EREMOTEIO, "malformed JSON: %d %s", ret, reply);
	ret = gt_host("NO-SUCH-REQUEST", reply, sizeof(reply));
	CHECK(ret > 0 && gt_json_find(reply, "error"), "unknown request: %d %s",
	      ret, reply);
	ret = gt_host("EVENT HSAGPU_NO_SUCH_EVENT 0.2", reply, sizeof(reply));
	CHECK(ret > 0 && gt_json_find(reply, "error"), "EVENT timeout: %d %s",
	      ret, reply);
	CHECK(gt_qom_set("gpu0", "vram-size", "1048576") == -EREMOTEIO,
	      "qom-set of vram-size on a realized device was accepted");

	n = gt_find_devices(devs);
	CHECK(n > 0, "no hsa-gpu in the guest");
	for (int i = 0; i < n; i++) {
		uint64_t vram = 0, addr, size = 0;
		char id[16];

		snprintf(id, sizeof(id), "gpu%d", i);
		ret = gt_qom_get_u64(id, "vram-size", &vram);
		CHECK(ret == 0, "qom-get %s vram-size: %d", id, ret);
		CHECK(gtpci_bar(devs[i], 0, &addr, &size) == 0, "%s: no BAR0",
		      devs[i]);
		CHECK(vram == size, "%s: QEMU's vram-size 0x%llx, BAR0 of %s 0x%llx",
		      id, (unsigned long long)vram, devs[i],
		      (unsigned long long)size);
		DIAG("%s = %s: vram-size 0x%llx", id, devs[i],
		     (unsigned long long)vram);
	}
	/* a device that does not exist */
	{
		uint64_t x;
		char id[16];

		snprintf(id, sizeof(id), "gpu%d", n);
		CHECK(gt_qom_get_u64(id, "vram-size", &x) == -EREMOTEIO,
		      "qom-get of %s (not present) succeeded", id);
	}
	return gt_result();
}
