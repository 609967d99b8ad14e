/*
 * verbs.c - cross-check of the sysfs HCA list with libibverbs, when
 * fabsched is built with it and a device exists.  Without libibverbs this
 * is a no-op.
 */
#ifdef HAVE_CONFIG_H
#include "fabsched_config.h"
#endif

#include <string.h>

#include "gres_private.h"

#ifdef HAVE_IBVERBS
#include <infiniband/verbs.h>
#endif

int fs_gres_verbs_check(struct fs_gres_inventory *inv, char *err, size_t errlen);

/*
 * libibverbs lists the devices it can open; an HCA that sysfs shows but
 * verbs cannot open has no usable uverbs device, so it loses its ports'
 * ACTIVE status.  No device list (no kernel support) changes nothing.
 */
int fs_gres_verbs_check(struct fs_gres_inventory *inv, char *err, size_t errlen)
{
#ifdef HAVE_IBVERBS
	struct ibv_device **list;
	int n = 0;

	list = ibv_get_device_list(&n);
	if (!list)
		return 0;
	inv->verbs_checked = true;
	for (size_t i = 0; i < inv->nhca; i++) {
		struct fs_gres_hca *h = &inv->hca[i];
		int found = 0;

		for (int j = 0; j < n; j++)
			if (!strcmp(ibv_get_device_name(list[j]), h->name))
				found = 1;
		if (found || !n)
			continue;
		for (size_t p = 0; p < h->nports; p++)
			h->ports[p].active = false;
		h->nactive = 0;
	}
	ibv_free_device_list(list);
#else
	(void)inv;
#endif
	(void)err;
	(void)errlen;
	return 0;
}
