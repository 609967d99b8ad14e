/*
 * units.c - the gres plugins' unit table (which gres index is which HCA or
 * NUMA node's pages), its text form (slurmd -> slurmstepd), and what a job
 * holds of it as environment: FABSCHED_HUGEPAGES (read back by the
 * prolog's fs_pl_parse_hugepages) and the rdma devices.  See
 * fabsched_gres.h (struct fs_gres_units).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_gres.h"
#include "gres_private.h"

void fs_gres_units_clear(struct fs_gres_units *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->u[i].cpus);
	free(t->u);
	t->u = NULL;
	t->n = 0;
}

struct fs_gres_unit *fs_gres_units_add(struct fs_gres_units *t)
{
	struct fs_gres_unit *n;

	if (!t || !(n = realloc(t->u, (t->n + 1) * sizeof(*n))))
		return NULL;
	t->u = n;
	memset(&n[t->n], 0, sizeof(*n));
	n[t->n].numa = -1;
	n[t->n].per_unit = 1;
	n[t->n].roce.gid = n[t->n].roce.tc = n[t->n].roce.sl = -1;
	return &n[t->n++];
}

int fs_gres_unit_huge_type(struct fs_gres_unit *u, char *err, size_t errlen)
{
	u->page_kb = 0;
	u->per_unit = 1;
	if (fs_hp_type_parse(u->label, &u->page_kb, &u->per_unit, err, errlen)) {
		u->page_kb = 0;
		u->per_unit = 1;
		return -1;
	}
	return 0;
}

const struct fs_gres_unit *fs_gres_units_of(const struct fs_gres_units *t, uint64_t index)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (index >= t->u[i].first && index < t->u[i].first + t->u[i].count)
			return &t->u[i];
	return NULL;
}

/* one line per unit: first count label numa ports cpus roce ('-' for
 * empty; roce "<gid>,<netdev>,<tc>,<sl>") */
char *fs_gres_units_format(const struct fs_gres_units *t)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; t && i < t->n; i++) {
		const struct fs_gres_unit *u = &t->u[i];

		fprintf(f, "%" PRIu64 " %" PRIu64 " %s %d %s %s ", u->first, u->count,
			u->label[0] ? u->label : "-", u->numa, u->ports[0] ? u->ports : "-",
			u->cpus && u->cpus[0] ? u->cpus : "-");
		if (u->roce.netdev[0])
			fprintf(f, "%d,%s,%d,%d\n", u->roce.gid, u->roce.netdev, u->roce.tc,
				u->roce.sl);
		else
			fputs("-\n", f);
	}
	if (fclose(f)) {
		free(s);
		return NULL;
	}
	return s;
}

int fs_gres_units_parse(struct fs_gres_units *t, const char *s, bool huge, char *err, size_t errlen)
{
	const char *p = s;
	int line = 0;

	fs_gres_units_clear(t);
	while (p && *p) {
		char label[64], ports[64], cpus[8192], roce[64];
		unsigned long long first, count;
		struct fs_gres_roce rc = { -1, "", -1, -1 };
		struct fs_gres_unit *u;
		int numa, n = 0, k = 0;

		line++;
		if (sscanf(p, "%llu %llu %63s %d %63s %8191s %63s%n", &first, &count, label, &numa,
			   ports, cpus, roce, &n) != 7 ||
		    !n ||
		    (strcmp(roce, "-") && (sscanf(roce, "%d,%15[A-Za-z0-9_.-],%d,%d%n", &rc.gid,
						  rc.netdev, &rc.tc, &rc.sl, &k) != 4 ||
					   roce[k]))) {
			fs_gres_units_clear(t);
			return fs_errf(
				err, errlen,
				"unit table line %d: expected \"<first> <count> <label> <numa> <ports|-> <cpus|-> <gid,netdev,tc,sl|->\"",
				line);
		}
		if (!(u = fs_gres_units_add(t)) ||
		    !(u->cpus = strdup(strcmp(cpus, "-") ? cpus : ""))) {
			fs_gres_units_clear(t);
			return fs_errf(err, errlen, "unit table: out of memory");
		}
		u->first = first;
		u->count = count;
		u->numa = numa;
		if (strcmp(label, "-"))
			snprintf(u->label, sizeof(u->label), "%s", label);
		if (strcmp(ports, "-"))
			snprintf(u->ports, sizeof(u->ports), "%s", ports);
		u->roce = rc;
		if (huge)
			fs_gres_unit_huge_type(u, NULL, 0);
		p += n;
		while (*p == '\n' || *p == ' ')
			p++;
	}
	return 0;
}

/* ------------------------------------------------------------ hugepages */

struct part {
	uint64_t page_kb, pages;
	int numa;
};

static void _add(struct part *parts, size_t *n, uint64_t page_kb, int numa, uint64_t pages)
{
	size_t k;

	for (k = 0; k < *n; k++)
		if (parts[k].page_kb == page_kb && parts[k].numa == numa)
			break;
	if (k == *n) {
		parts[k].page_kb = page_kb;
		parts[k].numa = numa;
		parts[k].pages = 0;
		(*n)++;
	}
	parts[k].pages += pages;
}

int fs_gres_huge_value(const struct fs_gres_units *t, const uint64_t *held, uint64_t cnt,
		       char **value, uint64_t *total, char *err, size_t errlen)
{
	struct part *parts;
	size_t n = 0, len = 0;
	char page[16];
	FILE *f;
	int rc = 0;

	*value = NULL;
	*total = 0;
	if (!t)
		return 0;
	if (!(parts = calloc(t->n + 1, sizeof(*parts))))
		return fs_errf(err, errlen, "out of memory");
	for (size_t i = 0; held && i < t->n; i++)
		if (held[i] && t->u[i].page_kb)
			_add(parts, &n, t->u[i].page_kb, t->u[i].numa, held[i] * t->u[i].per_unit);
	if (!held && cnt) {
		const struct fs_gres_unit *u0 = t->n ? &t->u[0] : NULL;

		for (size_t i = 1; u0 && i < t->n; i++)
			if (t->u[i].page_kb != u0->page_kb || t->u[i].per_unit != u0->per_unit)
				u0 = NULL;
		if (u0 && u0->page_kb) {
			_add(parts, &n, u0->page_kb, -1, cnt * u0->per_unit);
		} else {
			*total = cnt;
			rc = fs_errf(
				err, errlen,
				"%" PRIu64
				" unit(s) of records without File= of several types: their page sizes are unknown; expected one type per node, or autodetected records (gres_hugepages(8))",
				cnt);
		}
	}
	if (n) {
		if (!(f = open_memstream(value, &len))) {
			free(parts);
			return fs_errf(err, errlen, "out of memory");
		}
		for (size_t k = 0; k < n; k++) {
			fs_hp_page_name(parts[k].page_kb, page, sizeof(page));
			if (parts[k].numa >= 0)
				fprintf(f, "%s%s:%d=%" PRIu64, k ? "," : "", page, parts[k].numa,
					parts[k].pages);
			else
				fprintf(f, "%s%s:any=%" PRIu64, k ? "," : "", page, parts[k].pages);
			*total += parts[k].pages;
		}
		if (fclose(f)) {
			free(*value);
			*value = NULL;
			rc = fs_errf(err, errlen, "out of memory");
		}
	}
	free(parts);
	return rc;
}

/* ------------------------------------------------------------ rdma */

size_t fs_gres_rdma_devs(const struct fs_gres_units *t, const uint8_t *held, size_t nheld,
			 struct fs_gres_rdma_sel *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; t && held && i < nheld && s->n < FS_GRES_RDMA_MAX; i++) {
		const struct fs_gres_unit *u;
		size_t np = 0;
		const char *p;

		if (!held[i] || !(u = fs_gres_units_of(t, i)))
			continue;
		for (p = u->ports; *p && np < FS_GRES_PORTS_MAX;) {
			s->ports[s->n][np++] = (unsigned)strtoul(p, (char **)&p, 10);
			if (*p == ',')
				p++;
			else
				break;
		}
		s->dev[s->n].name = u->label;
		s->dev[s->n].ports = s->ports[s->n];
		s->dev[s->n].nports = np;
		s->dev[s->n].cpus = u->cpus ? u->cpus : "";
		s->dev[s->n].roce = u->roce.netdev[0] ? &u->roce : NULL;
		s->n++;
	}
	return s->n;
}
