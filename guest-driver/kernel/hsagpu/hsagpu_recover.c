// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: recovery. Three things take device state away from files:
 *
 *  - the queue watchdog: a queue that has pending work (write index
 *    ahead of the read index) and whose read index has not moved for
 *    queue_timeout_ms of the device's time is hung. Its file loses its
 *    queues and VRAM (hsagpu_file_lose(): the hardware queues are
 *    destroyed); only when the device does not confirm that is the
 *    device reset. Slow is not hung: the read index stays put for the
 *    whole of a long kernel, and on a loaded host the VM (the guest and
 *    the device with it) may get no CPU for a while. So a stall is
 *    counted only while the device does no work at all (its packet,
 *    GCN and DMA counters stand still: a kernel that runs moves them),
 *    and a look that comes late (the guest was not running) counts for
 *    two periods at most. A queue held up behind another one's work is
 *    not counted either: the device serves every queue in turn, and a
 *    busy device cannot tell which queue it is busy for;
 *  - a device reset: pci_reset_function() (sysfs "reset", the
 *    watchdog's escalation) calls reset_prepare()/reset_done(); a secondary
 *    bus reset of the parent (AER) does too;
 *  - AER: a non-fatal error is counted and changes nothing; a fatal one
 *    (frozen channel) resets: error_detected() loses the files, the PCI
 *    core resets the link, slot_reset() restores and re-initialises;
 *  - a fatal internal error of the device (ERROR_STATUS.FATAL, from the
 *    error interrupt): the driver resets the function (FLR).
 *
 * A reset loses every file that has queues or VRAM allocations: its
 * waiters return -EIO, its later ioctls and mmaps fail with -EIO, its BAR
 * mappings raise SIGBUS, close() works. Files without device state, and
 * files opened afterwards, work normally; ioctls that need the device
 * wait while the reset is under way (hsagpu_enter()), or fail with -EIO
 * when it does not end within HSAGPU_RECOVER_WAIT_MS.
 */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "hsagpu.h"

static unsigned int queue_timeout_ms = 30000;
module_param(queue_timeout_ms, uint, 0644);
MODULE_PARM_DESC(queue_timeout_ms,
		 "A queue with pending work whose read index does not move for this long while the device does no other work is hung: its file loses its queues and VRAM (EIO). 0 disables the watchdog (default 30000)");

static void hsagpu_recover_begin(struct hsagpu_device *hdev, const char *why);
static bool hsagpu_recover_end(struct hsagpu_device *hdev);

/* How often the watchdog looks: a fraction of the timeout, 50 ms..1 s. */
static unsigned long hsagpu_watchdog_period(void)
{
	unsigned int ms = READ_ONCE(queue_timeout_ms);

	return msecs_to_jiffies(ms ? clamp(ms / 4, 50U, 1000U) : 1000U);
}

/*
 * Take @hf's device state away: mark it lost, zap its BAR mappings,
 * destroy its hardware queues and wake its waiters. Caller holds
 * hdev->lock. False when the device did not confirm a DESTROY.
 */
static bool hsagpu_file_lose_locked(struct hsagpu_device *hdev,
				    struct hsagpu_file *hf)
{
	bool ok = true;
	u32 i;

	lockdep_assert_held(&hdev->lock);
	/*
	 * Lost and zapped before anything wakes the file's sleepers (queue
	 * destruction does): whoever sees the -EIO finds the BARs gone.
	 */
	if (!hf->lost) {
		WRITE_ONCE(hf->lost, true);
		atomic_inc(&hdev->files_lost);
	}
	hsagpu_file_zap(hf);
	for (i = 0; i < hdev->num_queues; i++)
		if (hdev->queues[i] && hdev->queues[i]->hf == hf)
			ok &= hsagpu_queue_hw_destroy(hdev, hdev->queues[i]);
	wake_up_all(hf->event_wq);
	return ok;
}

void hsagpu_file_lose(struct hsagpu_device *hdev, struct hsagpu_file *hf)
{
	mutex_lock(&hdev->lock);
	hsagpu_file_lose_locked(hdev, hf);
	mutex_unlock(&hdev->lock);
}

/*
 * Whether the device did any work since the last look: packets retired,
 * GCN instructions or waves, DMA or SDMA packets, bytes moved (the
 * counters wrap; any change is work). Registers the device lacks are
 * not read (that would be a bad access). hdev->lock held.
 */
static bool hsagpu_watchdog_busy(struct hsagpu_device *hdev)
{
	u32 c[HSAGPU_WD_COUNTERS] = { }, n = 0, cls;
	bool busy;

	c[n++] = hsagpu_rd(hdev, HSAGPU_REG_PKT_PROCESSED);
	/* the GCN interpreter's counters came with ABI 1.4 */
	if ((hdev->abi_version & 0xffff) >= 4) {
		c[n++] = hsagpu_rd(hdev, HSAGPU_REG_GCN_INSNS_LO);
		c[n++] = hsagpu_rd(hdev, HSAGPU_REG_GCN_WAVES);
	}
	if (hdev->caps & HSAGPU_CAP_DMA) {
		c[n++] = hsagpu_rd(hdev, HSAGPU_REG_DMA_PACKETS);
		c[n++] = hsagpu_rd(hdev, HSAGPU_REG_SDMA_PACKETS);
		for (cls = 0; cls < HSAGPU_DMA_CLASS_COUNT; cls++) {
			c[n++] = hsagpu_rd(hdev, HSAGPU_REG_DMA_CNT(cls,
					   HSAGPU_DMA_CNT_RD_BYTES));
			c[n++] = hsagpu_rd(hdev, HSAGPU_REG_DMA_CNT(cls,
					   HSAGPU_DMA_CNT_WR_BYTES));
		}
	}
	BUILD_BUG_ON(3 + 2 + 2 * HSAGPU_DMA_CLASS_COUNT > HSAGPU_WD_COUNTERS);
	busy = memcmp(c, hdev->wd_counters, sizeof(c));
	memcpy(hdev->wd_counters, c, sizeof(c));
	return busy;
}

/* The first hung queue, or NULL; hdev->lock held. */
static struct hsagpu_queue *hsagpu_watchdog_scan(struct hsagpu_device *hdev,
						 unsigned int timeout_ms)
{
	unsigned long limit = msecs_to_jiffies(timeout_ms);
	unsigned long now = jiffies, elapsed = now - hdev->wd_last;
	bool busy = hsagpu_watchdog_busy(hdev);
	struct hsagpu_queue *q;
	u64 r, w;
	u32 i, st;

	/* Late: the guest did not run (and the device could not either). */
	hdev->wd_last = now;
	elapsed = min(elapsed, 2 * hsagpu_watchdog_period());
	for (i = 0; i < hdev->num_queues; i++) {
		q = hdev->queues[i];
		if (!q || !q->rptr || !q->wptr)
			continue;
		r = READ_ONCE(*q->rptr);
		w = READ_ONCE(*q->wptr);
		if (w <= r || r != q->wd_rptr || busy) {
			/* Idle, moving, or the device at work: count afresh. */
			q->wd_rptr = r;
			q->wd_stalled = 0;
			continue;
		}
		q->wd_stalled += elapsed;
		if (q->wd_stalled < limit)
			continue;
		/* Suspended queues and queues in error are not hung. */
		st = hsagpu_rd(hdev, HSAGPU_REG_QUEUE(i) + HSAGPU_QREG_STATE) &
		     HSAGPU_QSTATE_MASK;
		if (st == HSAGPU_QSTATE_ACTIVE ||
		    st == HSAGPU_QSTATE_DRAINING)
			return q;
		q->wd_stalled = 0;
	}
	return NULL;
}

static void hsagpu_watchdog_fn(struct work_struct *work)
{
	struct hsagpu_device *hdev = container_of(to_delayed_work(work),
						  struct hsagpu_device,
						  watchdog);
	unsigned int timeout = READ_ONCE(queue_timeout_ms);
	struct hsagpu_queue *q;
	bool reset = false;
	u64 r, w;

	/* A reset or a removal holds the lock: look again later. */
	if (timeout && down_read_trylock(&hdev->remove_sem)) {
		if (!hdev->dead && !hdev->resetting) {
			mutex_lock(&hdev->lock);
			q = hsagpu_watchdog_scan(hdev, timeout);
			if (q) {
				r = READ_ONCE(*q->rptr);
				w = READ_ONCE(*q->wptr);
				atomic_inc(&hdev->watchdog_firings);
				dev_err(&hdev->pdev->dev,
					"queue %u hung: read index %llu, write index %llu, no progress for %u ms of an idle device; its file loses its queues\n",
					q->hw_id, r, w, timeout);
				reset = !hsagpu_file_lose_locked(hdev, q->hf);
			}
			mutex_unlock(&hdev->lock);
		}
		up_read(&hdev->remove_sem);
	}
	if (reset) {
		dev_err(&hdev->pdev->dev, "the device does not destroy the hung queue: resetting it\n");
		/* Not pci_reset_function(): remove() may hold the device lock. */
		if (pci_try_reset_function(hdev->pdev))
			dev_err(&hdev->pdev->dev, "reset failed or busy\n");
	}
	if (!READ_ONCE(hdev->dead))
		schedule_delayed_work(&hdev->watchdog,
				      hsagpu_watchdog_period());
}

/*
 * Save config space (what AER's slot_reset() restores) and keep a copy
 * of it as the last state that worked.
 */
void hsagpu_keep_state(struct hsagpu_device *hdev)
{
	struct pci_saved_state *st;

	pci_save_state(hdev->pdev);
	st = pci_store_saved_state(hdev->pdev);
	if (st) {
		kfree(hdev->good_state);
		hdev->good_state = st;
	}
}

/*
 * A fatal internal error (ERROR_STATUS.FATAL): every queue has stopped
 * and only a reset recovers. AER would only report it if the error were
 * unmasked (Uncorrectable Internal Error is masked by default), so the
 * driver resets the function itself (FLR), retrying while somebody else
 * holds the device lock.
 */
static void hsagpu_fatal_fn(struct work_struct *work)
{
	struct hsagpu_device *hdev = container_of(to_delayed_work(work),
						  struct hsagpu_device,
						  fatal_work);
	int ret;

	if (READ_ONCE(hdev->dead) || READ_ONCE(hdev->resetting))
		return;
	ret = pci_try_reset_function(hdev->pdev);
	if (ret == -EAGAIN) {
		schedule_delayed_work(&hdev->fatal_work, HZ / 10);
		return;
	}
	if (ret) {
		/* No reset method: at least give the files their -EIO. */
		dev_err(&hdev->pdev->dev, "cannot reset after a fatal error (%d)\n",
			ret);
		hsagpu_recover_begin(hdev, "fatal error");
		hsagpu_recover_end(hdev);
	}
}

/* From the error interrupt. */
void hsagpu_recover_fatal(struct hsagpu_device *hdev)
{
	schedule_delayed_work(&hdev->fatal_work, 0);
}

void hsagpu_recover_init(struct hsagpu_device *hdev)
{
	hdev->wd_last = jiffies;
	INIT_DELAYED_WORK(&hdev->watchdog, hsagpu_watchdog_fn);
	INIT_DELAYED_WORK(&hdev->fatal_work, hsagpu_fatal_fn);
	schedule_delayed_work(&hdev->watchdog, hsagpu_watchdog_period());
}

/* remove(): the watchdog never takes the device lock, so this ends. */
void hsagpu_recover_fini(struct hsagpu_device *hdev)
{
	cancel_delayed_work_sync(&hdev->watchdog);
	cancel_delayed_work_sync(&hdev->fatal_work);
}

/*
 * Before the device's state goes (a reset, or a fatal error): every file
 * with queues or VRAM is lost, every hardware queue destroyed, and ioctls
 * that need the device wait until hsagpu_recover_end() (at most
 * HSAGPU_RECOVER_WAIT_MS: an AER recovery that fails never calls
 * slot_reset()). One reset counts once, although AER's error_detected()
 * may be followed by the bus reset's reset_prepare().
 */
static void hsagpu_recover_begin(struct hsagpu_device *hdev, const char *why)
{
	struct hsagpu_file *hf;

	down_write(&hdev->remove_sem);
	if (hdev->dead) {
		up_write(&hdev->remove_sem);
		return;
	}
	if (!hdev->resetting) {
		atomic_inc(&hdev->resets);
		dev_warn(&hdev->pdev->dev, "%s: files with queues or VRAM lose them\n",
			 why);
	}
	WRITE_ONCE(hdev->resetting, true);
	mutex_lock(&hdev->lock);
	list_for_each_entry(hf, &hdev->files, node)
		if (hf->nqueues || atomic_read(&hf->nvram))
			hsagpu_file_lose_locked(hdev, hf);
	mutex_unlock(&hdev->lock);
	up_write(&hdev->remove_sem);
}

/*
 * The device is back from a reset (its config space restored): check
 * that it answers, set up what probe set in its registers. A device that
 * does not answer is treated as removed.
 */
static bool hsagpu_recover_end(struct hsagpu_device *hdev)
{
	bool ok;

	down_write(&hdev->remove_sem);
	if (hdev->dead) {
		up_write(&hdev->remove_sem);
		return false;
	}
	ok = hsagpu_rd(hdev, HSAGPU_REG_MAGIC) == HSAGPU_MAGIC_VALUE;
	if (!ok && hdev->good_state) {
		/*
		 * A link reset that Linux gave up on (failed AER recovery)
		 * lost config space, and a later reset restores what it saved
		 * then: put back the last state that worked.
		 */
		pci_load_saved_state(hdev->pdev, hdev->good_state);
		pci_restore_state(hdev->pdev);
		ok = hsagpu_rd(hdev, HSAGPU_REG_MAGIC) == HSAGPU_MAGIC_VALUE;
	}
	if (ok) {
		hsagpu_keep_state(hdev);
		bitmap_zero(hdev->queues_reported, hdev->num_queues);
		/* The reset cleared the VM contexts. */
		hsagpu_vm_restore(hdev);
		if (hdev->caps & HSAGPU_CAP_VM)
			hsagpu_wr(hdev, HSAGPU_REG_VM_FAULT_STATUS,
				  HSAGPU_VM_FAULT_VALID);
		hsagpu_wr(hdev, HSAGPU_REG_ERROR_STATUS, HSAGPU_ERR_ALL);
		hsagpu_wr(hdev, HSAGPU_REG_ERROR_INT_ENABLE, HSAGPU_ERR_ALL);
	} else {
		dev_err(&hdev->pdev->dev, "no answer after the reset: device unusable\n");
		WRITE_ONCE(hdev->dead, true);
	}
	WRITE_ONCE(hdev->resetting, false);
	up_write(&hdev->remove_sem);
	wake_up_all(&hdev->recover_wq);
	if (!ok)
		hsagpu_event_wake_files(hdev);
	return ok;
}

static void hsagpu_reset_prepare(struct pci_dev *pdev)
{
	hsagpu_recover_begin(pci_get_drvdata(pdev), "reset");
}

static void hsagpu_reset_done(struct pci_dev *pdev)
{
	struct hsagpu_device *hdev = pci_get_drvdata(pdev);

	if (hsagpu_recover_end(hdev))
		dev_info(&pdev->dev, "reset done, device ready\n");
}

/*
 * AER. Non-fatal errors (the link works, e.g. an AtomicOp UR) are only
 * counted. A fatal one loses the files' device state before the core
 * resets the link; slot_reset() brings the device back.
 */
static pci_ers_result_t hsagpu_error_detected(struct pci_dev *pdev,
					      pci_channel_state_t state)
{
	struct hsagpu_device *hdev = pci_get_drvdata(pdev);

	atomic_inc(&hdev->aer_events);
	switch (state) {
	case pci_channel_io_normal:
		dev_warn(&pdev->dev, "AER: non-fatal error reported\n");
		return PCI_ERS_RESULT_CAN_RECOVER;
	case pci_channel_io_frozen:
		hsagpu_recover_begin(hdev, "AER: fatal error");
		return PCI_ERS_RESULT_NEED_RESET;
	default:
		dev_err(&pdev->dev, "AER: permanent failure\n");
		return PCI_ERS_RESULT_DISCONNECT;
	}
}

static pci_ers_result_t hsagpu_mmio_enabled(struct pci_dev *pdev)
{
	return PCI_ERS_RESULT_RECOVERED;
}

static pci_ers_result_t hsagpu_slot_reset(struct pci_dev *pdev)
{
	struct hsagpu_device *hdev = pci_get_drvdata(pdev);

	pci_restore_state(pdev);
	pci_save_state(pdev);
	return hsagpu_recover_end(hdev) ? PCI_ERS_RESULT_RECOVERED :
					  PCI_ERS_RESULT_DISCONNECT;
}

static void hsagpu_resume(struct pci_dev *pdev)
{
	dev_info(&pdev->dev, "AER: recovered\n");
}

const struct pci_error_handlers hsagpu_err_handlers = {
	.error_detected = hsagpu_error_detected,
	.mmio_enabled = hsagpu_mmio_enabled,
	.slot_reset = hsagpu_slot_reset,
	.resume = hsagpu_resume,
	.reset_prepare = hsagpu_reset_prepare,
	.reset_done = hsagpu_reset_done,
};
