// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: modules built on this driver (the KFD facade, hsagpu_amdgpu.ko)
 * are auxiliary drivers. Probe adds an auxiliary device, hsagpu.kfd.N (N
 * as /dev/hsagpuN), once the device is fully set up; remove() deletes it
 * first thing, before the device is marked dead and its queues go. The
 * driver core runs the auxiliary driver's probe() and remove() then, and
 * for every device when that driver registers and unregisters, each
 * under the auxiliary device's lock; udev loads the driver from its
 * modalias (auxiliary:hsagpu.kfd).
 *
 * The hsagpu_device is valid until the auxiliary driver's remove()
 * returns (a driver that keeps it longer takes a reference:
 * hsagpu_device_get()). The auxiliary device may outlive that (a sysfs
 * reference), so its release frees only itself.
 */
#include <linux/auxiliary_bus.h>
#include <linux/slab.h>

#include "hsagpu.h"

struct hsagpu_aux {
	struct auxiliary_device adev;
	struct hsagpu_device *hdev;     /* not referenced: see above */
};

static void hsagpu_aux_release(struct device *dev)
{
	kfree(container_of(dev, struct hsagpu_aux, adev.dev));
}

/*
 * End of probe. A failure leaves the device usable through /dev/hsagpuN,
 * only without the facade: the caller warns and goes on.
 */
int hsagpu_aux_add(struct hsagpu_device *hdev)
{
	struct hsagpu_aux *aux = kzalloc(sizeof(*aux), GFP_KERNEL);
	int ret;

	if (!aux)
		return -ENOMEM;
	aux->hdev = hdev;
	aux->adev.name = HSAGPU_AUX_KFD;
	aux->adev.id = hdev->id;
	aux->adev.dev.parent = &hdev->pdev->dev;
	aux->adev.dev.release = hsagpu_aux_release;
	ret = auxiliary_device_init(&aux->adev);
	if (ret) {
		kfree(aux);
		return ret;
	}
	/* The facade's probe() runs in here when it is loaded. */
	ret = auxiliary_device_add(&aux->adev);
	if (ret) {
		auxiliary_device_uninit(&aux->adev);
		return ret;
	}
	hdev->aux = &aux->adev;
	return 0;
}

/* Start of remove(): the facade's remove() runs in here. */
void hsagpu_aux_del(struct hsagpu_device *hdev)
{
	if (!hdev->aux)
		return;
	auxiliary_device_delete(hdev->aux);
	auxiliary_device_uninit(hdev->aux);
	hdev->aux = NULL;
}

struct hsagpu_device *hsagpu_aux_to_device(struct auxiliary_device *adev)
{
	return container_of(adev, struct hsagpu_aux, adev)->hdev;
}
EXPORT_SYMBOL_NS_GPL(hsagpu_aux_to_device, HSAGPU);
