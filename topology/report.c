/*
 * report.c — human-readable summary of a classified model.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"

#include <stdlib.h>
#include <string.h>

static const char *_severity(enum fst_severity s)
{
	return s == FST_PROBLEM ? "PROBLEM" : s == FST_WARNING ? "warning" : "note";
}

/* A non-compute HCA's line, with the switch ports it hangs on ("on
 * leaf01 port 5", "on leaf01 port 5 (1/3/1)" with its label).  Its
 * severity leads, as on every issue line, so that the summary's counts
 * are those of the lines below it. */
static void _noncompute(const struct fst_model *m, const struct fst_issue *is, FILE *out)
{
	int n = 0;
	char pt[512];

	fprintf(out, "  %-7s %s", _severity(is->severity), is->msg);
	for (int l = 0; is->dev >= 0 && l < m->nlinks; l++) {
		const struct fst_link *k = &m->links[l];
		int sw = k->a == is->dev ? k->b : k->b == is->dev ? k->a : -1;
		int port = k->a == is->dev ? k->b_port : k->a_port;

		if (sw < 0 || sw >= m->ndevs || m->devs[sw].type != FST_SWITCH)
			continue;
		fprintf(out, "%s%s", n++ ? ", " : "; on ",
			fst_port_text(m, sw, port, pt, sizeof(pt)));
	}
	fputc('\n', out);
}

struct img_dev {
	uint64_t img;
	int dev;
};

static int _by_img(const void *a, const void *b)
{
	const struct img_dev *x = a, *y = b;

	if (x->img != y->img)
		return x->img < y->img ? -1 : 1;
	return x->dev - y->dev;
}

/* One chassis line: its name (of "MF0;<name>:..." descriptions), its
 * system image GUID, its ASICs by role. */
static void _chassis_line(const struct fst_model *m, const struct img_dev *v, int n, FILE *out)
{
	const char *desc = m->devs[v[0].dev].desc, *semi = strchr(desc, ';');
	const char *colon = semi ? strchr(semi, ':') : NULL;

	if (!strncmp(desc, "MF0;", 4) && colon)
		fprintf(out, "  %.*s", (int)(colon - semi - 1), semi + 1);
	else
		fprintf(out, "  chassis");
	fprintf(out, " 0x%016llx: %d switch ASICs", (unsigned long long)v[0].img, n);
	for (int pass = 0; pass < 2; pass++) {
		int k = 0;

		for (int i = 0; i < n; i++) {
			const struct fst_device *dv = &m->devs[v[i].dev];

			if ((dv->level == 0) != (pass == 0))
				continue;
			fprintf(out, "%s%s",
				k++    ? ", "
				: pass ? "; above them "
				       : "; leaves ",
				dv->name);
		}
	}
	fputc('\n', out);
}

/*
 * Director chassis: switch ASICs that share one system image GUID, each
 * the leaf or spine of a line or fabric card; the chassis is one box to
 * an administrator.  Returns how many there are; prints them when @out.
 */
static int _chassis(const struct fst_model *m, FILE *out)
{
	struct img_dev *v = calloc((size_t)m->ndevs + 1, sizeof(*v));
	int n = 0, nch = 0;

	if (!v)
		return 0;
	for (int d = 0; d < m->ndevs; d++)
		if (m->devs[d].type == FST_SWITCH && m->devs[d].sysimgguid)
			v[n++] = (struct img_dev){ m->devs[d].sysimgguid, d };
	qsort(v, (size_t)n, sizeof(*v), _by_img);
	for (int i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && v[j].img == v[i].img; j++)
			;
		if (j - i < 2)
			continue;
		if (out && !nch)
			fprintf(out, "chassis (switch ASICs under one system image GUID):\n");
		if (out)
			_chassis_line(m, v + i, j - i, out);
		nch++;
	}
	free(v);
	return nch;
}

int fst_report(const struct fst_model *m, FILE *out, int verbose)
{
	int nsw = 0, nhca = 0, roles[8] = { 0 }, problems = 0, warnings = 0, ndeg = 0, nnc = 0;

	for (int d = 0; d < m->ndevs; d++) {
		if (m->devs[d].type == FST_SWITCH)
			nsw++;
		else
			nhca++;
		if ((int)m->devs[d].role < 8)
			roles[m->devs[d].role]++;
	}
	for (int i = 0; i < m->nissues; i++) {
		if (m->issues[i].severity == FST_PROBLEM)
			problems++;
		else if (m->issues[i].severity == FST_WARNING)
			warnings++;
		ndeg += m->issues[i].kind == FST_ISSUE_DEGRADED_LINK;
		nnc += m->issues[i].kind == FST_ISSUE_NONCOMPUTE_HCA;
	}
	fprintf(out, "fabric %s\n", m->source ? m->source : "?");
	fprintf(out,
		"  switches: %d (leaves %d, non-compute leaves %d, spines %d, isolated %d), levels %d\n",
		nsw, roles[FST_ROLE_LEAF], roles[FST_ROLE_HOST_LEAF], roles[FST_ROLE_SPINE],
		roles[FST_ROLE_ISOLATED], m->max_level + 1);
	fprintf(out, "  HCAs: %d (compute %d, not compute %d); nodes: %d\n", nhca,
		roles[FST_ROLE_COMPUTE], roles[FST_ROLE_NONCOMPUTE], m->nhosts);
	fprintf(out, "  links: %d; degraded: %d\n", m->nlinks, ndeg);
	fprintf(out, "  planes: %d; pods: %d; racks: %d; director chassis: %d\n", m->nplanes,
		m->npods, m->nracks, _chassis(m, NULL));
	fprintf(out, "  issues: %d problem(s), %d warning(s), %d note(s)\n", problems, warnings,
		m->nissues - problems - warnings);
	if (verbose) {
		for (int lv = m->max_level; lv >= -1; lv--)
			for (int d = 0; d < m->ndevs; d++) {
				const struct fst_device *dv = &m->devs[d];

				if (dv->type != FST_SWITCH || dv->level != lv)
					continue;
				fprintf(out, "  switch %-24s %-18s level %2d plane %d %s \"%s\"\n",
					dv->name, fst_role_name(dv->role), dv->level, dv->plane,
					dv->id, dv->desc);
			}
	}
	_chassis(m, out);
	if (nnc)
		fprintf(out, "HCAs that are not compute nodes:\n");
	for (int i = 0; i < m->nissues; i++)
		if (m->issues[i].kind == FST_ISSUE_NONCOMPUTE_HCA)
			_noncompute(m, &m->issues[i], out);
	if (m->nissues - nnc > 0)
		fprintf(out, "issues:\n");
	for (int i = 0; i < m->nissues; i++)
		if (m->issues[i].kind != FST_ISSUE_NONCOMPUTE_HCA)
			fprintf(out, "  %-7s %-16s %s\n", _severity(m->issues[i].severity),
				fst_issue_kind_name(m->issues[i].kind), m->issues[i].msg);
	return ferror(out) ? -1 : problems;
}
