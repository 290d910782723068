// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: interrupts. MSI-X vector 0 reports device errors; queues raise
 * their own vector (1..N-1, or 0 when only one vector was granted) after
 * writing an event slot. A queue interrupt wakes the waiters of the files
 * that own a queue on that vector, nobody else (hsagpu_event.c).
 */
#include <linux/interrupt.h>
#include <linux/pci.h>

#include "hsagpu.h"

/* One list with the device and the docs: hsagpu_aql.h */
static const char * const hsagpu_qerr_names[HSAGPU_QERR_COUNT] = {
	HSAGPU_QERR_LIST(HSAGPU_QERR_NAME_INIT)
};
static_assert((0 HSAGPU_QERR_LIST(HSAGPU_QERR_COUNT_ONE)) == HSAGPU_QERR_COUNT);

/*
 * Log each queue that went into error once. Only queues the driver
 * enabled are read, starting at the lowest one the device flags.
 */
static void hsagpu_report_queue_errors(struct hsagpu_device *hdev)
{
	u32 q = hsagpu_rd(hdev, HSAGPU_REG_QUEUE_ERROR_FIRST);
	unsigned long bit;

	if (q >= hdev->num_queues)
		return;
	bit = q;
	for_each_set_bit_from(bit, hdev->queues_live, hdev->num_queues) {
		u32 base = HSAGPU_REG_QUEUE(bit);
		u32 st = hsagpu_rd(hdev, base + HSAGPU_QREG_STATE);
		u32 code = (st & HSAGPU_QSTATE_ERR_MASK) >>
			   HSAGPU_QSTATE_ERR_SHIFT;
		u64 id;

		if ((st & HSAGPU_QSTATE_MASK) != HSAGPU_QSTATE_ERROR ||
		    test_and_set_bit(bit, hdev->queues_reported))
			continue;
		id = hsagpu_rd(hdev, base + HSAGPU_QREG_ERROR_ID_LO) |
		     (u64)hsagpu_rd(hdev, base + HSAGPU_QREG_ERROR_ID_HI) << 32;
		dev_warn_ratelimited(&hdev->pdev->dev,
				     "queue %lu: error %u (%s) at dispatch id %llu\n",
				     bit, code,
				     code < HSAGPU_QERR_COUNT ?
				     hsagpu_qerr_names[code] : "unknown", id);
	}
}

/* The dev_id of each vector's handler. */
struct hsagpu_irq_vec {
	struct hsagpu_device *hdev;
	u32 vector;
};

static irqreturn_t hsagpu_error_irq(int irq, void *data)
{
	struct hsagpu_irq_vec *v = data;
	struct hsagpu_device *hdev = v->hdev;
	u32 err = hsagpu_rd(hdev, HSAGPU_REG_ERROR_STATUS);
	bool shared = hdev->msix_vectors == 1;

	atomic_inc(&hdev->vector_irqs[v->vector]);
	if (shared)
		atomic_inc(&hdev->queue_irqs);
	if (err) {
		/* Acknowledge first: whoever sees the count sees it clear. */
		hsagpu_wr(hdev, HSAGPU_REG_ERROR_STATUS, err);
		atomic_inc(&hdev->error_irqs);
		dev_warn_ratelimited(&hdev->pdev->dev,
				     "device error status 0x%08x\n", err);
		if (err & HSAGPU_ERR_VM_FAULT)
			hsagpu_vm_fault_irq(hdev);
		if (err & HSAGPU_ERR_QUEUE)
			hsagpu_report_queue_errors(hdev);
		/* Every queue has stopped: only a reset recovers. */
		if (err & HSAGPU_ERR_FATAL) {
			dev_err_ratelimited(&hdev->pdev->dev,
					    "device fatal error: resetting it\n");
			hsagpu_recover_fatal(hdev);
		}
	}
	/*
	 * With a single vector, queue completions arrive here too; and a
	 * queue in error may never complete what somebody waits for.
	 */
	hsagpu_event_wake_vector(hdev, v->vector);
	return err || shared ? IRQ_HANDLED : IRQ_NONE;
}

static irqreturn_t hsagpu_queue_irq(int irq, void *data)
{
	struct hsagpu_irq_vec *v = data;
	struct hsagpu_device *hdev = v->hdev;

	atomic_inc(&hdev->queue_irqs);
	atomic_inc(&hdev->vector_irqs[v->vector]);
	hsagpu_event_wake_vector(hdev, v->vector);
	return IRQ_HANDLED;
}

int hsagpu_irq_setup(struct hsagpu_device *hdev)
{
	struct pci_dev *pdev = hdev->pdev;
	struct device *dev = &pdev->dev;
	struct hsagpu_irq_vec *vecs;
	unsigned int i;
	int ret;

	vecs = devm_kcalloc(dev, hdev->msix_vectors, sizeof(*vecs),
			    GFP_KERNEL);
	hdev->vector_irqs = devm_kcalloc(dev, hdev->msix_vectors,
					 sizeof(*hdev->vector_irqs),
					 GFP_KERNEL);
	if (!vecs || !hdev->vector_irqs)
		return -ENOMEM;
	for (i = 0; i < hdev->msix_vectors; i++) {
		vecs[i].hdev = hdev;
		vecs[i].vector = i;
	}
	ret = devm_request_irq(dev, pci_irq_vector(pdev, HSAGPU_MSIX_VEC_ERROR),
			       hsagpu_error_irq, 0, HSAGPU_DRV_NAME,
			       &vecs[HSAGPU_MSIX_VEC_ERROR]);
	if (ret)
		return ret;
	for (i = 1; i < hdev->msix_vectors; i++) {
		ret = devm_request_irq(dev, pci_irq_vector(pdev, i),
				       hsagpu_queue_irq, 0, HSAGPU_DRV_NAME "-queue",
				       &vecs[i]);
		if (ret) {
			dev_err(dev, "cannot request MSI-X vector %u: %d\n", i,
				ret);
			return ret;
		}
	}
	return 0;
}
