// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The harness channel (gthost.h) works: PING, a QMP command and its
 * error path, and QOM reads of each device that agree with what the
 * guest sees (VRAM size = BAR0 size). SKIPs without a harness.
 */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gt.h"
#include "gthost.h"
#include "gtpci.h"

#define PINGERS 3
#define PINGS 20

/*
 * Several processes at once: each gets its own replies (the requests are
 * serialised, the tags match replies to callers).
 */
static void test_concurrent(void)
{
	pid_t pid[PINGERS];
	int status;

	fflush(stdout);
	for (int p = 0; p < PINGERS; p++) {
		pid[p] = fork();
		if (pid[p] == 0) {
			char reply[256], cmd[128];
			int bad = 0;

			for (int i = 0; i < PINGS; i++) {
				/* QMP echoes the id: the reply names its caller */
				snprintf(cmd, sizeof(cmd),
					 "{\"execute\": \"query-status\", \"id\": \"p%d-%d\"}",
					 p, i);
				snprintf(reply, sizeof(reply), "-");
				if (gt_qmp(cmd, reply, sizeof(reply)) != 0)
					bad++;
				snprintf(cmd, sizeof(cmd), "\"id\": \"p%d-%d\"", p, i);
				if (!strstr(reply, cmd)) {
					printf("# pinger %d: request %d got %s\n", p, i, reply);
					bad++;
				}
			}
			fflush(stdout);
			_exit(bad ? 1 : 0);
		}
	}
	for (int p = 0; p < PINGERS; p++)
		CHECK(pid[p] > 0 && waitpid(pid[p], &status, 0) == pid[p] &&
		      WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "concurrent requester %d: wrong or missing replies", p);
}

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
	/* a reply longer than the buffer: truncated, and the next is fine */
	{
		char small[64];

		ret = gt_qmp("{\"execute\": \"query-commands\"}", small,
			     sizeof(small));
		CHECK(ret == -EMSGSIZE, "16 KiB reply into 64 bytes: %d", ret);
	}
	ret = gt_host("PING", reply, sizeof(reply));
	CHECK(ret > 0 && strstr(reply, "\"pong\""), "PING after a long reply: %d %s",
	      ret, reply);
	test_concurrent();
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
