/*
 * report_html.c - the page of `fabsched report --html`: one file with
 * nothing to fetch (no script, font or link; the style inline), so that
 * it can be mailed or kept beside a decision.  A table of the partitions,
 * then per partition an SVG of the share of rack-fittable jobs in one
 * domain per time bucket, got (Slurm) beside would (fabsched), and its
 * jobs.  Partition and rack names and the why of a record came from the
 * log: every such text is escaped, though the reader already refused
 * anything but printable ASCII.
 */
#define _GNU_SOURCE
#include "fabsched_cli.h"
#include "report.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define PLOT_W 720
#define PLOT_H 260
#define PAD_L 52
#define PAD_R 150 /* room for the legend */
#define PAD_T 16
#define PAD_B 40
#define COLOR_GOT "#1f77b4"
#define COLOR_WOULD "#ff7f0e"

/* A bucket's start as its axis label: hours with their time. */
static char *_label(const struct report *r, int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!localtime_r(&tt, &tm) ||
	    !strftime(buf, n, strcmp(r->bucket, "hour") ? "%Y-%m-%d" : "%m-%d %H:00", &tm))
		snprintf(buf, n, "%" PRId64, t);
	return buf;
}

static double _x(const struct report *r, int k)
{
	return PAD_L + (k + 0.5) * (PLOT_W - PAD_L - PAD_R) / r->nb;
}

static double _y(double share)
{
	return PAD_T + (1.0 - share) * (PLOT_H - PAD_T - PAD_B);
}

static unsigned long _num(const struct rep_bucket *b, bool would)
{
	return would ? b->would : b->got;
}

/* One series: a polyline per run of buckets with a rack-fittable job,
 * and a point with its figures at each. */
static void _series(FILE *f, const struct report *r, const struct rep_part *p, bool would)
{
	const char *color = would ? COLOR_WOULD : COLOR_GOT;
	char when[32];
	int k = 0;

	while (k < r->nb) {
		for (; k < r->nb && !p->b[k].fit; k++)
			;
		if (k == r->nb)
			break;
		if (k + 1 < r->nb && p->b[k + 1].fit) { /* a line needs two points */
			fprintf(f,
				"<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" "
				"stroke-width=\"2\" points=\"",
				would ? "would" : "got", color);
			for (int j = k; j < r->nb && p->b[j].fit; j++)
				fprintf(f, "%s%.1f,%.1f", j > k ? " " : "", _x(r, j),
					_y((double)_num(&p->b[j], would) / p->b[j].fit));
			fputs("\"/>\n", f);
		}
		for (; k < r->nb && p->b[k].fit; k++)
			/* got drawn larger: where the two agree it shows round the other */
			fprintf(f,
				"<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\" "
				"data-start=\"%" PRId64 "\"><title>%s: %s %lu of %lu in one domain"
				"</title></circle>\n",
				would ? "would" : "got", _x(r, k),
				_y((double)_num(&p->b[k], would) / p->b[k].fit), would ? "3" : "5",
				color, r->start[k], _label(r, r->start[k], when, sizeof(when)),
				would ? "would" : "got", _num(&p->b[k], would), p->b[k].fit);
	}
}

static void _axes(FILE *f, const struct report *r)
{
	char when[32];
	int step = r->nb > 6 ? (r->nb + 5) / 6 : 1;

	for (int pc = 0; pc <= 100; pc += 25)
		fprintf(f,
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>\n",
			PAD_L, _y(pc / 100.0), PLOT_W - PAD_R, _y(pc / 100.0), PAD_L - 6,
			_y(pc / 100.0) + 4, pc);
	for (int k = 0; k < r->nb; k += step)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", _x(r, k),
			PLOT_H - PAD_B + 18, _label(r, r->start[k], when, sizeof(when)));
	fprintf(f, "<text x=\"%d\" y=\"%d\">per %s</text>\n", PAD_L, PLOT_H - 4, r->bucket);
	fprintf(f,
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-width=\"3\" stroke=\"%s\"/>"
		"<text x=\"%d\" y=\"%d\">got (Slurm)</text>\n",
		PLOT_W - PAD_R + 12, PAD_T + 10, PLOT_W - PAD_R + 32, PAD_T + 10, COLOR_GOT,
		PLOT_W - PAD_R + 38, PAD_T + 14);
	fprintf(f,
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-width=\"3\" stroke=\"%s\"/>"
		"<text x=\"%d\" y=\"%d\">would (fabsched)</text>\n",
		PLOT_W - PAD_R + 12, PAD_T + 30, PLOT_W - PAD_R + 32, PAD_T + 30, COLOR_WOULD,
		PLOT_W - PAD_R + 38, PAD_T + 34);
}

static void _plot(FILE *f, const struct report *r, const struct rep_part *p)
{
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"share\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" data-partition=\"",
		PLOT_W, PLOT_H, PLOT_W, PLOT_H);
	fs_cli_html_esc(f, p->name);
	fputs("\" role=\"img\"><title>share of the rack-fittable jobs of partition ", f);
	fs_cli_html_esc(f, p->name);
	fputs(" in one domain, got and would</title>\n", f);
	_axes(f, r);
	_series(f, r, p, false);
	_series(f, r, p, true);
	fputs("</svg>\n", f);
}

static void _place_cell(FILE *f, const struct fse_obs_place *pl)
{
	char buf[320];

	fputs("<td>", f);
	fs_cli_html_esc(f, fs_cli_obs_place(pl, buf, sizeof(buf)));
	fputs("</td>", f);
}

static void _jobs(FILE *f, const struct rep_part *p)
{
	char t[32], jn[32];

	if (p->ndiffer)
		fputs("<h3>Where they differ most: fabsched would have used one rack</h3>\n"
		      "<table class=\"differ\"><tr><th>job</th><th>started</th><th>got</th>"
		      "<th>would</th><th>why</th></tr>\n",
		      f);
	for (int i = 0; i < p->ndiffer; i++) {
		fprintf(f, "<tr><td>%s</td><td>%s</td>",
			fs_cli_obs_job_name(&p->differ[i], jn, sizeof(jn)),
			fs_cli_report_time(p->differ[i].time, t, sizeof(t)));
		_place_cell(f, &p->differ[i].got);
		_place_cell(f, &p->differ[i].would);
		fputs("<td>", f);
		fs_cli_html_esc(f, p->differ[i].why);
		fputs("</td></tr>\n", f);
	}
	if (p->ndiffer)
		fputs("</table>\n", f);
	if (p->nheld)
		fputs("<h3>Held back: fabsched would have kept them waiting (latest)</h3>\n"
		      "<table class=\"held\"><tr><th>job</th><th>started</th><th>got</th>"
		      "<th>waiting for</th></tr>\n",
		      f);
	for (int i = 0; i < p->nheld; i++) {
		fprintf(f, "<tr><td>%s</td><td>%s</td>",
			fs_cli_obs_job_name(&p->held_last[i], jn, sizeof(jn)),
			fs_cli_report_time(p->held_last[i].time, t, sizeof(t)));
		_place_cell(f, &p->held_last[i].got);
		fputs("<td>", f);
		fs_cli_html_esc(f, p->held_last[i].why);
		fputs("</td></tr>\n", f);
	}
	if (p->nheld)
		fputs("</table>\n", f);
}

static void _mean(FILE *f, unsigned long long sum, unsigned long n)
{
	if (n)
		fprintf(f, "<td>%.2f</td>", (double)sum / n);
	else
		fputs("<td>-</td>", f);
}

static void _summary(FILE *f, const struct report *r)
{
	char a[64], b[64];

	fputs("<table class=\"summary\"><tr><th>partition</th><th>jobs</th><th>rack-fittable</th>"
	      "<th>one domain: got</th><th>one domain: would</th><th>held back</th>"
	      "<th>racks per job: got</th><th>racks per job: would</th></tr>\n",
	      f);
	for (int i = 0; i < r->np; i++) {
		const struct rep_part *p = &r->p[i];

		fputs("<tr><td>", f);
		fs_cli_html_esc(f, p->name);
		fprintf(f, "</td><td>%lu</td><td>%lu</td><td>%s</td><td>%s</td><td>%lu</td>",
			p->jobs, p->fit, fs_cli_report_share(p->got, p->fit, a, sizeof(a)),
			fs_cli_report_share(p->would + p->held_fit, p->fit, b, sizeof(b)), p->held);
		_mean(f, p->racks_got, p->placed);
		_mean(f, p->racks_would, p->placed);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void _head(FILE *f, const struct report *r)
{
	char t1[32], t2[32];

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<title>fabsched: what Locality=observe saw</title>\n<style>\n"
	      "body { font-family: sans-serif; margin: 1em; color: #222; }\n"
	      "svg text { font-family: sans-serif; font-size: 11px; }\n"
	      "table { border-collapse: collapse; margin: 0.5em 0 1em; }\n"
	      "th, td { padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: left; }\n"
	      "</style></head><body>\n<h1>fabsched: what Locality=observe saw</h1>\n",
	      f);
	fprintf(f, "<p>%lu job%s observed from %s to %s (period: from %s to ", r->jobs,
		r->jobs == 1 ? "" : "s", fs_cli_report_time(r->first, t1, sizeof(t1)),
		fs_cli_report_time(r->last, t2, sizeof(t2)),
		r->since_set ? fs_cli_report_time(r->since, t1, sizeof(t1)) : "the log's start");
	fprintf(f, "%s). Log: ",
		r->until_set ? fs_cli_report_time(r->until, t2, sizeof(t2)) : "its end");
	for (int k = 0; k < 2; k++)
		if (r->file[k]) {
			fputs(k && r->file[0] ? ", " : "", f);
			fs_cli_html_esc(f, r->file[k]);
		}
	fprintf(f,
		"; %lu bad line%s, not counted.</p>\n<p>Rack-fittable: the job fits one domain "
		"of its locality on the idle machine; the shares are of those jobs. A job fabsched "
		"would have held back counts as in one domain under <em>would</em>: it would have "
		"waited for one.</p>\n",
		r->bad, r->bad == 1 ? "" : "s");
}

void fs_cli_report_html(FILE *f, const struct report *r)
{
	_head(f, r);
	_summary(f, r);
	for (int i = 0; i < r->np; i++) {
		const struct rep_part *p = &r->p[i];

		fputs("<h2>partition ", f);
		fs_cli_html_esc(f, p->name);
		fputs("</h2>\n", f);
		if (!p->jobs) {
			fputs("<p>No observation in the period.</p>\n", f);
			continue;
		}
		if (p->fit)
			_plot(f, r, p);
		else
			fputs("<p>No rack-fittable job: no share to plot.</p>\n", f);
		_jobs(f, p);
	}
	fputs("</body></html>\n", f);
}
