/*
 * huge.c - gres/hugepages records of a node's pools: the unit each page
 * size is counted in, so that the node stays within the units Slurm can
 * index per node.  See fabsched_gres.h.
 */
#ifdef HAVE_CONFIG_H
#include "fabsched_config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "gres_private.h"

struct size_unit {
	uint64_t page_kb, per_unit, units;
	bool fixed; /* from HugepageUnits: never doubled */
};

/* units of every page size with the current per_unit; the node's total */
static uint64_t _count(const struct fs_gres_hugepool *pools, size_t npools, struct size_unit *su,
		       size_t nsu)
{
	uint64_t total = 0;

	for (size_t k = 0; k < nsu; k++)
		su[k].units = 0;
	for (size_t i = 0; i < npools; i++)
		for (size_t k = 0; k < nsu; k++)
			if (su[k].page_kb == pools[i].page_kb)
				su[k].units += pools[i].total / su[k].per_unit;
	for (size_t k = 0; k < nsu; k++)
		total += su[k].units;
	return total;
}

/* The per_unit of every size (su[k].fixed kept) so that the node's units
 * are at most max_units; false when no doubling gets there. */
static bool _fit(const struct fs_gres_hugepool *pools, size_t npools, struct size_unit *su,
		 size_t nsu, uint64_t max_units)
{
	while (_count(pools, npools, su, nsu) > max_units) {
		size_t big = nsu;

		for (size_t k = 0; k < nsu; k++)
			if (!su[k].fixed && su[k].units &&
			    (big == nsu || su[k].units > su[big].units ||
			     (su[k].units == su[big].units && su[k].page_kb < su[big].page_kb)))
				big = k;
		if (big == nsu || su[big].per_unit >= FS_HP_MAX_PER_UNIT)
			return false;
		su[big].per_unit *= 2;
	}
	return true;
}

int fs_gres_huge_plan(const struct fs_gres_hugepool *pools, size_t npools, uint64_t max_units,
		      const struct fs_hp_units *fixed, struct fs_gres_huge_rec **out, size_t *nout,
		      char *err, size_t errlen)
{
	struct size_unit *su = NULL;
	struct fs_gres_huge_rec *r = NULL;
	size_t nsu = 0, nrec = 0, with_pages = 0;
	uint64_t units;

	*out = NULL;
	*nout = 0;
	if (!npools)
		return 0;
	if (!(su = calloc(npools, sizeof(*su))))
		return fs_errf(err, errlen, "out of memory");
	for (size_t i = 0; i < npools; i++) {
		size_t k;

		if (!pools[i].total)
			continue;
		with_pages++;
		for (k = 0; k < nsu && su[k].page_kb != pools[i].page_kb; k++)
			;
		if (k == nsu) {
			uint64_t f = fs_hp_units_of(fixed, pools[i].page_kb);

			su[nsu].page_kb = pools[i].page_kb;
			su[nsu].fixed = f != 0;
			su[nsu++].per_unit = f ? f : 1;
		}
	}
	if (with_pages > max_units) {
		free(su);
		return fs_errf(err, errlen,
			       "%zu hugepage pools: more than the %llu "
			       "records a node can index; expected at most "
			       "%llu pools with pages",
			       with_pages, (unsigned long long)max_units,
			       (unsigned long long)max_units);
	}
	units = _count(pools, npools, su, nsu);
	if (!_fit(pools, npools, su, nsu, max_units)) {
		char want[160] = "", page[16];
		size_t o = 0;

		for (size_t k = 0; k < nsu; k++) { /* what would fit */
			su[k].fixed = false;
			su[k].per_unit = 1;
		}
		_fit(pools, npools, su, nsu, max_units);
		for (size_t k = 0; k < nsu && o < sizeof(want); k++)
			if (fs_hp_units_of(fixed, su[k].page_kb))
				o += (size_t)snprintf(
					want + o, sizeof(want) - o, "%s%s:%llu", o ? "," : "",
					fs_hp_page_name(su[k].page_kb, page, sizeof(page)),
					(unsigned long long)su[k].per_unit);
		free(su);
		return fs_errf(err, errlen,
			       "HugepageUnits: this node's pools "
			       "make %llu units, more than the %llu Slurm indexes "
			       "per node; expected larger units for this node's "
			       "pages, at least %s",
			       (unsigned long long)units, (unsigned long long)max_units, want);
	}
	if (!(r = calloc(with_pages ? with_pages : 1, sizeof(*r)))) {
		free(su);
		return fs_errf(err, errlen, "out of memory");
	}
	for (size_t i = 0; i < npools; i++) {
		const struct fs_gres_hugepool *p = &pools[i];
		size_t k;

		if (!p->total)
			continue;
		for (k = 0; su[k].page_kb != p->page_kb; k++)
			;
		r[nrec].numa_node = p->numa_node;
		r[nrec].page_kb = p->page_kb;
		r[nrec].per_unit = su[k].per_unit;
		r[nrec].units = p->total / su[k].per_unit;
		r[nrec].left = p->total % su[k].per_unit;
		fs_hp_type_name(p->page_kb, su[k].per_unit, r[nrec].type, sizeof(r[nrec].type));
		nrec++;
	}
	free(su);
	*out = r;
	*nout = nrec;
	return 0;
}
