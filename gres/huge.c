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
#include <string.h>

#include "gres_private.h"

#define MAX_PER_UNIT (1ULL << 30)

const char *fs_gres_huge_type(uint64_t page_kb, uint64_t per_unit, char *buf,
			      size_t bufsz)
{
	char page[16];

	fs_gres_page_type(page_kb, page, sizeof(page));
	if (per_unit <= 1)
		snprintf(buf, bufsz, "%s", page);
	else
		snprintf(buf, bufsz, "%sx%llu", page,
			 (unsigned long long)per_unit);
	return buf;
}

int fs_gres_huge_type_parse(const char *type, uint64_t *page_kb,
			    uint64_t *per_unit, char *msg, size_t msgsz)
{
	char page[16], q[80];
	const char *x;
	size_t plen;
	unsigned long long v = 0;

	fs_gres_quote(type, q, sizeof(q));
	x = type ? strchr(type, 'x') : NULL;
	plen = x ? (size_t)(x - type) : (type ? strlen(type) : 0);
	if (!type || !plen || plen >= sizeof(page))
		goto bad;
	memcpy(page, type, plen);
	page[plen] = '\0';
	if (fs_gres_page_kb(page, page_kb))
		goto bad;
	*per_unit = 1;
	if (!x)
		return 0;
	for (x++; *x >= '0' && *x <= '9' && v <= MAX_PER_UNIT; x++)
		v = v * 10 + (unsigned long long)(*x - '0');
	if (*x || !v || v > MAX_PER_UNIT || x[-1] == 'x')
		goto bad;
	*per_unit = v;
	return 0;
bad:
	return fs_errf(msg, msgsz,
			   "hugepages type \"%s\": not a page size and unit; "
			   "expected <size>[x<pages per unit>], size 2m, 1g "
			   "(k, m, g), pages 1..%llu, e.g. 2m or 2mx8", q,
			   (unsigned long long)MAX_PER_UNIT);
}

struct size_unit {
	uint64_t page_kb, per_unit, units;
};

/* units of every page size with the current per_unit; the node's total */
static uint64_t _count(const struct fs_gres_hugepool *pools, size_t npools,
		       struct size_unit *su, size_t nsu)
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

int fs_gres_huge_plan(const struct fs_gres_hugepool *pools, size_t npools,
		      uint64_t max_units, struct fs_gres_huge_rec **out,
		      size_t *nout, char *msg, size_t msgsz)
{
	struct size_unit *su = NULL;
	struct fs_gres_huge_rec *r = NULL;
	size_t nsu = 0, nrec = 0, with_pages = 0;

	*out = NULL;
	*nout = 0;
	if (!npools)
		return 0;
	if (!(su = calloc(npools, sizeof(*su))))
		return fs_errf(msg, msgsz, "out of memory");
	for (size_t i = 0; i < npools; i++) {
		size_t k;

		if (!pools[i].total)
			continue;
		with_pages++;
		for (k = 0; k < nsu && su[k].page_kb != pools[i].page_kb; k++)
			;
		if (k == nsu) {
			su[nsu].page_kb = pools[i].page_kb;
			su[nsu++].per_unit = 1;
		}
	}
	if (with_pages > max_units) {
		free(su);
		return fs_errf(msg, msgsz,
				   "%zu hugepage pools: more than the %llu "
				   "records a node can index; expected at most "
				   "%llu pools with pages", with_pages,
				   (unsigned long long)max_units,
				   (unsigned long long)max_units);
	}
	while (_count(pools, npools, su, nsu) > max_units) {
		size_t big = 0;

		for (size_t k = 1; k < nsu; k++)
			if (su[k].units > su[big].units ||
			    (su[k].units == su[big].units &&
			     su[k].page_kb < su[big].page_kb))
				big = k;
		/* > max_units units in all: the biggest has at least one */
		su[big].per_unit *= 2;
	}
	if (!(r = calloc(with_pages ? with_pages : 1, sizeof(*r)))) {
		free(su);
		return fs_errf(msg, msgsz, "out of memory");
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
		fs_gres_huge_type(p->page_kb, su[k].per_unit, r[nrec].type,
				  sizeof(r[nrec].type));
		nrec++;
	}
	free(su);
	*out = r;
	*nout = nrec;
	return 0;
}
