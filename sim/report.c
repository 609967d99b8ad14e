/*
 * report.c - metrics of a simulated run and their outputs: text table,
 * CSV, JSON, SVG pictures (hand-written SVG text), per-job schedule.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_sim.h"

static int _cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank quantile of a sorted array. */
static int64_t _q(const int64_t *v, long n, double q)
{
	long k;

	if (n <= 0)
		return 0;
	k = (long)ceil(q * (double)n) - 1;
	if (k < 0)
		k = 0;
	if (k >= n)
		k = n - 1;
	return v[k];
}

void fss_metrics_compute(const struct fss_run *r, struct fss_metrics *mt)
{
	const struct fss_trace *tr = r->trace;
	const struct fss_machine *m = r->machine;
	int64_t first = INT64_MAX, last = INT64_MIN, *waits, *racks;
	double used = 0, split = 0, wsum = 0, rsum = 0, bsum = 0;
	long n = 0;

	memset(mt, 0, sizeof(*mt));
	waits = malloc((tr->njobs ? tr->njobs : 1) * sizeof(int64_t));
	racks = malloc((tr->njobs ? tr->njobs : 1) * sizeof(int64_t));
	if (!waits || !racks) {
		free(waits);
		free(racks);
		return;
	}
	for (long j = 0; j < tr->njobs; j++) {
		const struct fss_job *job = &tr->jobs[j];
		const struct fss_jobrun *jr = &r->jobs[j];
		int64_t wait, end;
		double nh, rt;

		if (job->submit < first)
			first = job->submit;
		if (jr->start < 0)
			continue;
		wait = jr->start - job->submit;
		end = jr->start + job->run;
		if (end > last)
			last = end;
		nh = (double)job->nodes * (double)job->run;
		used += nh;
		if (jr->nracks > 1)
			split += nh;
		if (job->nodes <= m->max_rack) {
			mt->rack_fit++;
			mt->rack_fit_one += jr->nracks == 1;
		}
		waits[n] = wait;
		racks[n] = jr->nracks;
		wsum += (double)wait;
		rsum += jr->nracks;
		rt = (double)(job->run > FSS_BSLD_TAU ? job->run : FSS_BSLD_TAU);
		bsum += fmax(1.0, (double)(wait + job->run) / rt);
		n++;
	}
	mt->jobs = n;
	if (n) {
		qsort(waits, n, sizeof(int64_t), _cmp_i64);
		qsort(racks, n, sizeof(int64_t), _cmp_i64);
		mt->wait_mean = wsum / n;
		mt->wait_p95 = (double)_q(waits, n, 0.95);
		mt->racks_mean = rsum / n;
		mt->racks_p95 = (double)_q(racks, n, 0.95);
		mt->bsld_mean = bsum / n;
		mt->makespan = last - first;
		mt->utilization =
			mt->makespan > 0 ? used / ((double)m->nnodes * (double)mt->makespan) : 0;
		mt->split_nodehours_share = used > 0 ? split / used : 0;
	}
	mt->rack_fit_share = mt->rack_fit ? (double)mt->rack_fit_one / (double)mt->rack_fit : 0;
	mt->decisions = r->decisions;
	mt->decide_median_us = fss_hist_quantile(&r->hist, 0.5);
	mt->decide_p99_us = fss_hist_quantile(&r->hist, 0.99);
	free(waits);
	free(racks);
}

void fss_report_text(FILE *f, struct fss_run *const *runs, int n)
{
	int pw = 12; /* the policy column: the longest name */

	if (n < 1)
		return;
	for (int i = 0; i < n; i++)
		if ((int)strlen(runs[i]->policy.name) > pw)
			pw = (int)strlen(runs[i]->policy.name);
	fprintf(f, "trace %s: %ld jobs; machine %s\n", runs[0]->trace->name, runs[0]->trace->njobs,
		runs[0]->machine->desc);
	fprintf(f, "%-*s %8s %7s %6s %8s %7s %9s %9s %8s %9s %9s %9s\n", pw, "policy", "1rack%",
		"racks", "p95", "split%", "util%", "wait_h", "p95wait_h", "bsld", "span_d",
		"dec_us", "p99_us");
	for (int i = 0; i < n; i++) {
		struct fss_metrics mt;

		fss_metrics_compute(runs[i], &mt);
		fprintf(f,
			"%-*s %8.2f %7.3f %6.0f %8.2f %7.2f %9.3f %9.3f %8.2f %9.2f %9.1f %9.1f\n",
			pw, runs[i]->policy.name, 100 * mt.rack_fit_share, mt.racks_mean,
			mt.racks_p95, 100 * mt.split_nodehours_share, 100 * mt.utilization,
			mt.wait_mean / 3600, mt.wait_p95 / 3600, mt.bsld_mean,
			mt.makespan / 86400.0, mt.decide_median_us, mt.decide_p99_us);
	}
}

void fss_report_csv(FILE *f, struct fss_run *const *runs, int n, bool header)
{
	if (header)
		fprintf(f,
			"trace,machine_nodes,machine_racks,policy,jobs,never,rack_fittable,rack_fittable_one_rack,rack_fit_share,racks_mean,racks_p95,split_nodehours_share,utilization,wait_mean_s,wait_p95_s,bsld_mean,makespan_s,decisions,decide_median_us,decide_p99_us\n");
	for (int i = 0; i < n; i++) {
		const struct fss_run *r = runs[i];
		struct fss_metrics mt;

		fss_metrics_compute(r, &mt);
		fprintf(f,
			"%s,%d,%d,%s,%ld,%ld,%ld,%ld,%.6f,%.6f,%.0f,%.6f,%.6f,%.1f,%.0f,%.4f,%lld,%ld,%.2f,%.2f\n",
			r->trace->name, r->machine->nnodes, r->machine->nracks, r->policy.name,
			mt.jobs, r->never, mt.rack_fit, mt.rack_fit_one, mt.rack_fit_share,
			mt.racks_mean, mt.racks_p95, mt.split_nodehours_share, mt.utilization,
			mt.wait_mean, mt.wait_p95, mt.bsld_mean, (long long)mt.makespan,
			mt.decisions, mt.decide_median_us, mt.decide_p99_us);
	}
}

static void _json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* The facts of a sacct trace: where from, what was not replayed. */
static void _json_sacct(FILE *f, const struct fss_trace *tr)
{
	const struct fss_sacct_counts *c = &tr->sacct;

	fprintf(f, "  \"sacct\": {\"source\": ");
	_json_str(f, tr->source);
	fprintf(f,
		", \"records\": %ld, \"steps\": %ld, \"cancelled\": %ld, \"not_started\": %ld,"
		" \"running\": %ld, \"no_nodes\": %ld, \"bad_time\": %ld, \"het_components\": %ld,"
		" \"array_tasks\": %ld, \"from_eligible\": %ld, \"hosts\": %d},\n",
		tr->lines, c->steps, c->cancelled, c->not_started, c->running, c->no_nodes,
		c->bad_time, c->het_components, c->array_tasks, c->from_eligible, tr->hosts);
}

void fss_report_json(FILE *f, struct fss_run *const *runs, int n)
{
	const struct fss_trace *tr = n ? runs[0]->trace : NULL;

	fprintf(f, "{\n");
	if (tr) {
		fprintf(f, "  \"trace\": ");
		_json_str(f, tr->name);
		fprintf(f,
			",\n  \"jobs\": %ld, \"procs_per_node\": %d, \"machine_nodes\": %d,\n"
			"  \"dropped\": {\"too_wide\": %ld, \"no_run_time\": %ld, \"no_procs\": %ld},\n"
			"  \"filled\": {\"requested_time_from_run_time\": %ld, \"requested_time_raised\": %ld, \"procs_from_allocated\": %ld},\n"
			"  \"machine\": ",
			tr->njobs, tr->procs_per_node, tr->machine_nodes, tr->dropped_too_wide,
			tr->dropped_no_run, tr->dropped_no_procs, tr->req_from_run, tr->req_raised,
			tr->procs_from_alloc);
		_json_str(f, runs[0]->machine->desc);
		fprintf(f, ",\n");
		if (tr->format != FSS_TRACE_SWF)
			_json_sacct(f, tr);
	}
	fprintf(f, "  \"runs\": [");
	for (int i = 0; i < n; i++) {
		const struct fss_run *r = runs[i];
		struct fss_metrics mt;

		fss_metrics_compute(r, &mt);
		fprintf(f, "%s\n    {\"policy\": ", i ? "," : "");
		_json_str(f, r->policy.name);
		fprintf(f,
			", \"jobs\": %ld, \"never\": %ld, \"rack_fittable\": %ld, \"rack_fittable_one_rack\": %ld,"
			" \"rack_fit_share\": %.6f, \"racks_mean\": %.6f, \"racks_p95\": %.0f,"
			" \"split_nodehours_share\": %.6f, \"utilization\": %.6f,"
			" \"wait_mean_s\": %.1f, \"wait_p95_s\": %.0f, \"bsld_mean\": %.4f,"
			" \"makespan_s\": %lld, \"decisions\": %ld, \"decide_median_us\": %.2f,"
			" \"decide_p99_us\": %.2f, \"wall_s\": %.2f}",
			mt.jobs, r->never, mt.rack_fit, mt.rack_fit_one, mt.rack_fit_share,
			mt.racks_mean, mt.racks_p95, mt.split_nodehours_share, mt.utilization,
			mt.wait_mean, mt.wait_p95, mt.bsld_mean, (long long)mt.makespan,
			mt.decisions, mt.decide_median_us, mt.decide_p99_us, r->wall_s);
	}
	fprintf(f, "\n  ]\n}\n");
}

static void _xml(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

/* Engine with a locality target green, other engine policies blue, the
 * tree baseline orange, tree with --switches=1@W purple, first fit grey. */
static const char *_color(const struct fss_policy *p)
{
	if (p->kind == FSS_POL_ENGINE)
		return p->target > 0 ? "#1b9e4b" : "#1f6fb4";
	if (p->kind == FSS_POL_SWITCHES)
		return "#7b3fa0";
	return p->kind == FSS_POL_TREE ? "#d2691e" : "#7a7a7a";
}

/* A "nice" upper bound for an axis. */
static double _nice(double v)
{
	double p = 1;

	if (v <= 0)
		return 1;
	while (p * 10 < v)
		p *= 10;
	while (p > v * 10)
		p /= 10;
	if (v <= p)
		return p;
	if (v <= 2 * p)
		return 2 * p;
	if (v <= 5 * p)
		return 5 * p;
	return 10 * p;
}

/* ------------------------------------------------------------ SVG parts */

/* The picture's element, a white background and its title at (tx, ty). */
static void _svg_begin(FILE *f, double w, double h, double tx, double ty, const char *title)
{
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
		w, h);
	fprintf(f,
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<text x=\"%.0f\" y=\"%.0f\" font-size=\"14\">",
		tx, ty);
	_xml(f, title ? title : "");
	fprintf(f, "</text>\n");
}

/* A line drawn with @style (its stroke attributes); no newline. */
static void _svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *style)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>", x1, y1, x2, y2,
		style);
}

/* The frame of a plot area; y and height with @prec decimals. */
static void _svg_frame(FILE *f, double x, double y, double w, double h, int prec)
{
	fprintf(f,
		"<rect x=\"%.0f\" y=\"%.*f\" width=\"%.0f\" height=\"%.*f\" fill=\"none\" stroke=\"black\"/>\n",
		x, prec, y, w, prec, h);
}

#define SVG_DASH "stroke=\"#1b9e4b\" stroke-dasharray=\"5,4\"" /* the target lines */

/* ------------------------------------------------------------ comparison */

/* The picture's size and margins. */
static const double CMP_W = 760, CMP_H = 420, CMP_L = 70, CMP_R = 230, CMP_T = 40, CMP_B = 50;

/* The comparison picture: its plot area and scales, the runs' figures. */
struct cmp {
	FILE *f;
	struct fss_run *const *runs;
	int n;
	struct fss_metrics *mt;	 /* [n] */
	double *lx, *ly;	 /* [n] where each run's number label went */
	double pw, ph;		 /* the plot area's width and height */
	double xmin, xmax, ymin; /* mean wait (hours), share in one rack */
	double wtree;		 /* the tree run's mean wait (hours), -1: none */
};

/* The runs' figures, then the axes' ranges. */
static void _cmp_scale(struct cmp *c)
{
	double lo;

	for (int i = 0; i < c->n; i++) {
		fss_metrics_compute(c->runs[i], &c->mt[i]);
		if (c->mt[i].wait_mean / 3600 > c->xmax)
			c->xmax = c->mt[i].wait_mean / 3600;
		if (c->mt[i].rack_fit_share < c->ymin)
			c->ymin = c->mt[i].rack_fit_share;
		if (c->runs[i]->policy.kind == FSS_POL_TREE)
			c->wtree = c->mt[i].wait_mean / 3600;
	}
	/* x: the span of the mean waits, widened a little (the differences
	 * between policies are what the picture is for); from 0 when the
	 * waits differ by more than half the largest */
	lo = c->xmax;
	for (int i = 0; i < c->n; i++)
		if (c->mt[i].wait_mean / 3600 < lo)
			lo = c->mt[i].wait_mean / 3600;
	if (c->xmax <= 0 || lo < c->xmax / 2) {
		c->xmin = 0;
		c->xmax = _nice(c->xmax * 1.05);
	} else {
		double pad = (c->xmax - lo) * 0.1 + c->xmax * 0.005;

		c->xmin = lo - pad;
		c->xmax = c->xmax + pad;
	}
	/* y from a multiple of 10 % below the lowest share up to 100 % */
	c->ymin = floor(c->ymin * 10 - 1e-9) / 10;
	if (c->ymin < 0)
		c->ymin = 0;
}

/* axes: x mean wait (hours), y rack-fittable jobs in one rack (%) */
static void _cmp_axes(const struct cmp *c)
{
	FILE *f = c->f;

	_svg_frame(f, CMP_L, CMP_T, c->pw, c->ph, 0);
	for (int k = 0; k <= 5; k++) {
		double y = CMP_T + c->ph - c->ph * k / 5, x = CMP_L + c->pw * k / 5;

		_svg_line(f, CMP_L, y, CMP_L + c->pw, y, "stroke=\"#ddd\"");
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", CMP_L - 6,
			y + 4, 100 * (c->ymin + (1 - c->ymin) * k / 5));
		_svg_line(f, x, CMP_T, x, CMP_T + c->ph, "stroke=\"#ddd\"");
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.3g</text>\n", x,
			CMP_T + c->ph + 16, c->xmin + (c->xmax - c->xmin) * k / 5);
	}
	fprintf(f,
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">mean wait (hours%s)</text>\n",
		CMP_L + c->pw / 2, CMP_H - 12, c->xmin > 0 ? "; the axis does not start at 0" : "");
	fprintf(f,
		"<text transform=\"translate(18,%.1f) rotate(-90)\" text-anchor=\"middle\">rack-fittable jobs in one rack (%%)</text>\n",
		CMP_T + c->ph / 2);
}

/* the target region: >= 98 % in one rack, mean wait <= 105 % of tree */
static void _cmp_targets(const struct cmp *c)
{
	FILE *f = c->f;

	if (c->ymin < 0.98) {
		double y = CMP_T + c->ph - c->ph * (0.98 - c->ymin) / (1 - c->ymin);

		_svg_line(f, CMP_L, y, CMP_L + c->pw, y, SVG_DASH);
		fputc('\n', f);
	}
	if (c->wtree >= 0 && 1.05 * c->wtree <= c->xmax && 1.05 * c->wtree >= c->xmin) {
		double x = CMP_L + c->pw * (1.05 * c->wtree - c->xmin) / (c->xmax - c->xmin);

		_svg_line(f, x, CMP_T, x, CMP_T + c->ph, SVG_DASH);
		fputc('\n', f);
	}
}

/* number labels: right of the point (x, y) of run i, moved down past
 * labels already drawn so that none overlap */
static void _cmp_place_label(struct cmp *c, int i, double x, double y)
{
	bool moved = true;

	c->lx[i] = x + 7;
	c->ly[i] = y + 4;
	for (int pass = 0; moved && pass < 4 * c->n; pass++) {
		moved = false;
		for (int k = 0; k < i; k++)
			if (fabs(c->lx[k] - c->lx[i]) < 16 && fabs(c->ly[k] - c->ly[i]) < 11) {
				c->ly[i] = c->ly[k] + 11;
				moved = true;
			}
	}
}

/* Run i: its point, numbered, and its line of the legend. */
static void _cmp_point(struct cmp *c, int i)
{
	FILE *f = c->f;
	const char *color = _color(&c->runs[i]->policy);
	double x = CMP_L + c->pw * (c->mt[i].wait_mean / 3600 - c->xmin) / (c->xmax - c->xmin);
	double y = CMP_T + c->ph - c->ph * (c->mt[i].rack_fit_share - c->ymin) / (1 - c->ymin);
	double gy = CMP_T + 14 + 18 * i;

	_cmp_place_label(c, i, x, y);
	fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" fill-opacity=\"0.75\"/>",
		x, y, color);
	if (fabs(c->ly[i] - (y + 4)) > 0.5)
		_svg_line(f, x + 3, y, c->lx[i], c->ly[i] - 4,
			  "stroke=\"#999\" stroke-width=\"0.5\"");
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%d</text>\n", c->lx[i], c->ly[i],
		i + 1);
	fprintf(f,
		"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%d ",
		CMP_W - CMP_R + 14, gy - 4, color, CMP_W - CMP_R + 24, gy, i + 1);
	_xml(f, c->runs[i]->policy.name);
	fprintf(f, "</text>\n");
}

/* Below the legend: the target lines' key, how waits and targets read. */
static void _cmp_notes(const struct cmp *c)
{
	FILE *f = c->f;
	double gy = CMP_T + 14 + 18 * c->n + 10;

	_svg_line(f, CMP_W - CMP_R + 6, gy - 4, CMP_W - CMP_R + 22, gy - 4, SVG_DASH);
	fprintf(f,
		"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">targets: 98 %% in one rack,</text>"
		"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">wait 105 %% of tree</text>\n",
		CMP_W - CMP_R + 26, gy, CMP_W - CMP_R + 26, gy + 12);
	fprintf(f,
		"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">waits [D-]HH:MM:SS; /P%%: locality target</text>\n",
		CMP_W - CMP_R + 6, gy + 30);
}

void fss_svg_compare(FILE *f, struct fss_run *const *runs, int n, const char *title)
{
	struct cmp c = { .f = f,
			 .runs = runs,
			 .n = n,
			 .pw = CMP_W - CMP_L - CMP_R,
			 .ph = CMP_H - CMP_T - CMP_B,
			 .xmin = 0,
			 .xmax = 0,
			 .ymin = 1,
			 .wtree = -1 };

	c.mt = calloc(n ? n : 1, sizeof(*c.mt));
	c.lx = calloc(n ? n : 1, sizeof(double));
	c.ly = calloc(n ? n : 1, sizeof(double));
	if (c.mt && c.lx && c.ly) {
		_cmp_scale(&c);
		_svg_begin(f, CMP_W, CMP_H, CMP_L, 22, title);
		_cmp_axes(&c);
		_cmp_targets(&c);
		for (int i = 0; i < n; i++)
			_cmp_point(&c, i);
		_cmp_notes(&c);
		fprintf(f, "</svg>\n");
	}
	free(c.mt);
	free(c.lx);
	free(c.ly);
}

/* ------------------------------------------------------------ occupancy */

#define OCC_BUCKETS 120

/* The left margin, a column's width, the top margin. */
static const double OCC_L = 90, OCC_CW = 5, OCC_T = 40;

/* The occupancy picture: the machine's racks, the span of the runs, the
 * busy time of one run per rack and column. */
struct occ {
	FILE *f;
	const struct fss_machine *m;
	int nr;		/* racks */
	double rh, ph;	/* height of a rack's row; of a run's panel */
	int64_t t0, t1; /* first submission, last end over every run */
	double bw;	/* seconds per column */
	double *busy;	/* [nr * OCC_BUCKETS] busy node-seconds */
	int *cnt;	/* [nr] scratch: one job's nodes per rack */
};

/* The span of the runs: first submission to last end; a column's width. */
static void _occ_span(struct occ *o, struct fss_run *const *runs, int n)
{
	for (int i = 0; i < n; i++)
		for (long j = 0; j < runs[i]->trace->njobs; j++) {
			const struct fss_job *job = &runs[i]->trace->jobs[j];
			const struct fss_jobrun *jr = &runs[i]->jobs[j];

			if (job->submit < o->t0)
				o->t0 = job->submit;
			if (jr->start >= 0 && jr->start + job->run > o->t1)
				o->t1 = jr->start + job->run;
		}
	if (o->t1 <= o->t0)
		o->t1 = o->t0 + 1;
	o->bw = (double)(o->t1 - o->t0) / OCC_BUCKETS;
}

/* The title, what the picture shows, and the key of the shades. */
static void _occ_head(const struct occ *o, int n, const char *title)
{
	FILE *f = o->f;

	_svg_begin(f, OCC_L + OCC_CW * OCC_BUCKETS + 20, OCC_T + o->ph * n + 60, 10, 18, title);
	fprintf(f,
		"<text x=\"10\" y=\"34\" font-size=\"11\">busy share of each rack over time, %.1f days across; one column = %.1f days</text>\n",
		(o->t1 - o->t0) / 86400.0, o->bw / 86400.0);
	/* shade legend */
	for (int k = 0; k <= 5; k++)
		fprintf(f,
			"<rect x=\"%.0f\" y=\"%.0f\" width=\"22\" height=\"10\" fill=\"#08306b\" fill-opacity=\"%.1f\" stroke=\"#999\" stroke-width=\"0.5\"/>"
			"<text x=\"%.0f\" y=\"%.0f\" font-size=\"9\" text-anchor=\"middle\">%d%%</text>\n",
			OCC_L + OCC_CW * OCC_BUCKETS - 6 * 26 + 26 * k, OCC_T + o->ph * n + 30,
			k / 5.0, OCC_L + OCC_CW * OCC_BUCKETS - 6 * 26 + 26 * k + 11,
			OCC_T + o->ph * n + 50, 20 * k);
}

/* Busy node-seconds of run r per rack and column (o->busy). */
static void _occ_busy(struct occ *o, const struct fss_run *r)
{
	const struct fss_machine *m = o->m;

	memset(o->busy, 0, (size_t)o->nr * OCC_BUCKETS * sizeof(double));
	for (long j = 0; j < r->trace->njobs; j++) {
		const struct fss_job *job = &r->trace->jobs[j];
		const struct fss_jobrun *jr = &r->jobs[j];
		const int *nodes = r->nodes + jr->node_off;
		int64_t s, e;
		int b0, b1;

		if (jr->start < 0 || job->run <= 0)
			continue;
		s = jr->start;
		e = jr->start + job->run;
		for (int k = 0; k < job->nodes; k++)
			o->cnt[m->node_rack[nodes[k]]]++;
		b0 = (int)((s - o->t0) / o->bw);
		b1 = (int)((e - o->t0) / o->bw);
		if (b1 >= OCC_BUCKETS)
			b1 = OCC_BUCKETS - 1;
		for (int k = 0; k < job->nodes; k++) {
			int rk = m->node_rack[nodes[k]];

			if (!o->cnt[rk])
				continue;
			for (int b = b0; b <= b1; b++) {
				double bs = o->t0 + b * o->bw, be = bs + o->bw;
				double ov = fmin(be, (double)e) - fmax(bs, (double)s);

				if (ov > 0)
					o->busy[(size_t)rk * OCC_BUCKETS + b] += ov * o->cnt[rk];
			}
			o->cnt[rk] = 0;
		}
	}
}

/* time axis: a tick every fifth of the span, in days */
static void _occ_time_axis(const struct occ *o, double y0)
{
	FILE *f = o->f;

	for (int k = 0; k <= 5; k++) {
		double x = OCC_L + OCC_CW * OCC_BUCKETS * k / 5;

		_svg_line(f, x, y0 + o->rh * o->nr, x, y0 + o->rh * o->nr + 4, "stroke=\"black\"");
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" text-anchor=\"middle\">%s%.0f</text>\n",
			x, y0 + o->rh * o->nr + 14, k == 5 ? "day " : "",
			(o->t1 - o->t0) / 86400.0 * k / 5);
	}
}

/* The shade of rack rk (of size nodes) in column b: its busy share in
 * fifths. */
static int _occ_level(const struct occ *o, int rk, int b, int size)
{
	double sh = o->busy[(size_t)rk * OCC_BUCKETS + b] / (o->bw * size);

	return (int)floor(fmin(1, fmax(0, sh)) * 5 + 0.5);
}

/* The racks of one run from y0 down: a label every few racks, shades. */
static void _occ_racks(const struct occ *o, double y0)
{
	FILE *f = o->f;
	int nr = o->nr;

	fprintf(f, "<g fill=\"#08306b\">\n");
	for (int rk = 0; rk < nr; rk++) {
		int size = o->m->rack_start[rk + 1] - o->m->rack_start[rk];
		int b = 0;

		if (rk % (nr > 40 ? 8 : nr > 12 ? 4 : 1) == 0)
			fprintf(f,
				"<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"9\" fill=\"black\">rack %d</text>\n",
				OCC_L - 4, y0 + o->rh * rk + o->rh - 1, rk);
		/* runs of equal shade as one rectangle */
		while (b < OCC_BUCKETS) {
			int lvl = _occ_level(o, rk, b, size), e = b + 1;

			while (e < OCC_BUCKETS && _occ_level(o, rk, e, size) == lvl)
				e++;
			if (lvl > 0)
				fprintf(f,
					"<rect x=\"%.0f\" y=\"%g\" width=\"%.0f\" height=\"%g\" opacity=\"%.1f\"/>\n",
					OCC_L + OCC_CW * b, y0 + o->rh * rk, OCC_CW * (e - b),
					o->rh, lvl / 5.0);
			b = e;
		}
	}
	fprintf(f, "</g>\n");
}

/* Run r, the i-th: its name, time axis, racks and frame. */
static void _occ_panel(struct occ *o, const struct fss_run *r, int i)
{
	FILE *f = o->f;
	double y0 = OCC_T + o->ph * i + 20;

	_occ_busy(o, r);
	fprintf(f, "<text x=\"10\" y=\"%.1f\" font-weight=\"bold\">", y0 - 6);
	_xml(f, r->policy.name);
	fprintf(f, "</text>\n");
	_occ_time_axis(o, y0);
	_occ_racks(o, y0);
	_svg_frame(f, OCC_L, y0, OCC_CW * OCC_BUCKETS, o->rh * o->nr, 1);
}

void fss_svg_occupancy(FILE *f, struct fss_run *const *runs, int n, const char *title)
{
	const struct fss_machine *m = n ? runs[0]->machine : NULL;
	struct occ o = { .f = f, .m = m, .t0 = INT64_MAX, .t1 = INT64_MIN };

	if (!m)
		return;
	o.nr = m->nracks;
	o.rh = o.nr > 40 ? 4 : o.nr > 12 ? 8 : 16;
	o.ph = o.rh * o.nr + 40;
	_occ_span(&o, runs, n);
	o.busy = calloc((size_t)o.nr * OCC_BUCKETS, sizeof(double));
	o.cnt = calloc(o.nr, sizeof(int));
	if (o.busy && o.cnt) {
		_occ_head(&o, n, title);
		for (int i = 0; i < n; i++)
			_occ_panel(&o, runs[i], i);
		fprintf(f, "</svg>\n");
	}
	free(o.busy);
	free(o.cnt);
}

void fss_schedule_csv(FILE *f, const struct fss_run *r)
{
	fprintf(f, "job,submit,start,end,nodes,racks,node_list\n");
	for (long j = 0; j < r->trace->njobs; j++) {
		const struct fss_job *job = &r->trace->jobs[j];
		const struct fss_jobrun *jr = &r->jobs[j];
		const int *nodes = r->nodes + jr->node_off;

		if (jr->start < 0) {
			fprintf(f, "%ld,%lld,-1,-1,%d,0,\n", job->id, (long long)job->submit,
				job->nodes);
			continue;
		}
		fprintf(f, "%ld,%lld,%lld,%lld,%d,%d,", job->id, (long long)job->submit,
			(long long)jr->start, (long long)(jr->start + job->run), job->nodes,
			jr->nracks);
		for (int k = 0; k < job->nodes; k++)
			fprintf(f, "%s%d", k ? " " : "", nodes[k]);
		fputc('\n', f);
	}
}
