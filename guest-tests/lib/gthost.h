/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest <-> host channel of the test harness (docs/testing.md): the
 * harness serves the guest's second serial port, /dev/ttyS1, one request
 * line and one reply line at a time.
 *
 *   PING                  -> {"return": "pong"}
 *   QMP <one-line JSON>   -> QEMU's QMP response, one line
 *   MIGRATE               -> the host live-migrates the guest to a fresh
 *                            QEMU; {"return": {}} comes from the destination
 *   EVENT NAME [K=V] [S]  -> the next QMP event NAME (whose data has K == V)
 *                            not yet handed out, waiting up to S seconds
 *                            (default 30); {"error": ...} on timeout
 *   DEVARGS ID            -> {"return": "hsa-gpu,id=gpu0,bus=rp0,..."}: the
 *                            -device option QEMU was started with for ID
 *
 * Every reply is one JSON object with "return" or "error". The harness
 * puts hsagpu_test.host=1 on the kernel command line when it serves the
 * channel; without it every call returns -ENODEV and a test SKIPs.
 */
#ifndef HSAGPU_GTHOST_H
#define HSAGPU_GTHOST_H

#include <stddef.h>
#include <stdint.h>

/* How long gt_host() waits for a reply (default 300 s: a migration). */
extern unsigned int gt_host_timeout_ms;

/* Whether a harness serves the channel (hsagpu_test.host=1). */
int gt_host_attached(void);

/*
 * Send one request line and read its reply line into @reply (NUL
 * terminated, newline stripped). Returns the reply's length, -ENODEV
 * without a harness, -ETIMEDOUT, -EMSGSIZE when the reply did not fit
 * (truncated), or another -errno from the serial port. Callers in several
 * processes or threads are serialised.
 */
int gt_host(const char *request, char *reply, size_t n);

/*
 * A QMP command (one-line JSON). 0 when QEMU answered "return" (the
 * reply is in @reply if not NULL), -EREMOTEIO when it answered "error"
 * (printed as a diagnostic), or gt_host()'s error.
 */
int gt_qmp(const char *cmd_json, char *reply, size_t n);

/*
 * qom-set of property @prop of the device with id @dev_id ("gpu0": QOM
 * path /machine/peripheral/gpu0) to @json_value ("3", "true", "\"x\"").
 */
int gt_qom_set(const char *dev_id, const char *prop, const char *json_value);

/* qom-get of an integer (or boolean: 0/1) property into *@val. */
int gt_qom_get_u64(const char *dev_id, const char *prop, uint64_t *val);

/*
 * device_add of @dev_id again, with the -device option it had on QEMU's
 * command line (DEVARGS; through HMP, so that the option string is used
 * exactly as given). 0, -EREMOTEIO (QEMU refused: printed) or gt_host()'s
 * error.
 */
int gt_device_add_again(const char *dev_id);

/*
 * Find "@key": in a JSON reply and return a pointer to its value (after
 * the colon and blanks), or NULL. Good enough for QMP's flat replies.
 */
const char *gt_json_find(const char *json, const char *key);

#endif
