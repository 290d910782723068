// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: other modules built on this driver (the KFD facade,
 * hsagpu_amdgpu.ko) hear about bound devices here. A client's add() runs
 * for every device bound when it registers and for each one probed
 * later, once the device is fully set up; remove() runs when the device
 * is unbound, first thing in remove() (before the device is marked dead
 * and its queues go), and for every device when the client unregisters.
 * Callbacks are serialised by one mutex; the device structure they get
 * is valid until remove() returns (a client that keeps it longer takes
 * a reference: hsagpu_device_get()).
 */
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>

#include "hsagpu.h"

/* Taken before any device or client lock. */
static DEFINE_MUTEX(hsagpu_client_lock);
static LIST_HEAD(hsagpu_clients);
static LIST_HEAD(hsagpu_client_devices);        /* hdev->client_node */

int hsagpu_client_register(struct hsagpu_client *client)
{
	struct hsagpu_device *hdev;

	mutex_lock(&hsagpu_client_lock);
	list_add_tail(&client->node, &hsagpu_clients);
	list_for_each_entry(hdev, &hsagpu_client_devices, client_node)
		client->add(hdev);
	mutex_unlock(&hsagpu_client_lock);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(hsagpu_client_register, HSAGPU);

void hsagpu_client_unregister(struct hsagpu_client *client)
{
	struct hsagpu_device *hdev;

	mutex_lock(&hsagpu_client_lock);
	list_for_each_entry(hdev, &hsagpu_client_devices, client_node)
		client->remove(hdev);
	list_del(&client->node);
	mutex_unlock(&hsagpu_client_lock);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_client_unregister, HSAGPU);

/* End of probe: the device is ready for clients. */
void hsagpu_clients_add(struct hsagpu_device *hdev)
{
	struct hsagpu_client *client;

	mutex_lock(&hsagpu_client_lock);
	list_add_tail(&hdev->client_node, &hsagpu_client_devices);
	list_for_each_entry(client, &hsagpu_clients, node)
		client->add(hdev);
	mutex_unlock(&hsagpu_client_lock);
}

/* Start of remove(): no client uses the device for anything new. */
void hsagpu_clients_remove(struct hsagpu_device *hdev)
{
	struct hsagpu_client *client;

	mutex_lock(&hsagpu_client_lock);
	if (!list_empty(&hdev->client_node)) {
		list_del_init(&hdev->client_node);
		list_for_each_entry(client, &hsagpu_clients, node)
			client->remove(hdev);
	}
	mutex_unlock(&hsagpu_client_lock);
}

void hsagpu_device_get(struct hsagpu_device *hdev)
{
	kref_get(&hdev->ref);
}
EXPORT_SYMBOL_NS_GPL(hsagpu_device_get, HSAGPU);
