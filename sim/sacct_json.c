/*
 * sacct_json.c - the job records of sacct --json, in the form of every
 * release fabsched supports (fields and units: fabsched_sim.h; numbers
 * plain or {"set", "number"}: fs_json.h).  The document is parsed in
 * chunks as zlib gives them, so a gzip-compressed history is read as is.
 */
#define _GNU_SOURCE
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fabsched_sim.h"
#include "fs_err.h"
#include "fs_json.h"
#include "trace_private.h"

#define CHUNK 65536
/* time limits of INFINITE (0xfffffffe) and NO_VAL and beyond: none */
#define LIMIT_MAX 0xfffffffeLL

static const char _form[] = "expected the output of sacct --json (an object with \"jobs\": [...])";

static size_t _parse_end(struct json_tokener *tok)
{
#if JSON_C_VERSION_NUM >= ((0 << 16) | (15 << 8))
	return json_tokener_get_parse_end(tok);
#else
	return (size_t)tok->char_offset;
#endif
}

static long _newlines(const char *s, size_t n)
{
	long k = 0;

	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n';
	return k;
}

/* The first byte of buf[from, n) that is not white space, n if none. */
static size_t _skip_blank(const char *buf, size_t from, size_t n)
{
	while (from < n && buf[from] && strchr(" \t\r\n", buf[from]))
		from++;
	return from;
}

/* Feeds one chunk; 1 the document is complete, 0 more wanted, -1 error
 * (at *line). */
static int _feed(struct json_tokener *tok, const char *buf, int n, json_object **doc, long *line,
		 const char *path, char *err, size_t errlen)
{
	enum json_tokener_error je;
	size_t end = 0;

	if (!*doc) {
		*doc = json_tokener_parse_ex(tok, buf, n);
		je = json_tokener_get_error(tok);
		if (je == json_tokener_continue) {
			*line += _newlines(buf, n);
			return 0;
		}
		end = _parse_end(tok);
		if (je != json_tokener_success)
			return fs_errf(err, errlen, "%s:%ld: not valid JSON: %s; %s", path,
				       *line + _newlines(buf, end), json_tokener_error_desc(je),
				       _form);
	}
	if ((end = _skip_blank(buf, end, n)) < (size_t)n)
		return fs_errf(err, errlen, "%s:%ld: data after the JSON document; %s", path,
			       *line + _newlines(buf, end), _form);
	*line += _newlines(buf, n);
	return 1;
}

/* The whole document of gz; NULL with a message naming file and line. */
static json_object *_parse(gzFile gz, const char *path, char *err, size_t errlen)
{
	struct json_tokener *tok = json_tokener_new();
	char *buf = malloc(CHUNK);
	json_object *doc = NULL;
	long line = 1;
	int n = 0, rc = 0;

	if (!tok || !buf) {
		fs_errf(err, errlen, "%s: out of memory", path);
		rc = -1;
	}
	while (!rc || rc == 1) {
		if ((n = gzread(gz, buf, CHUNK)) <= 0)
			break;
		rc = _feed(tok, buf, n, &doc, &line, path, err, errlen);
	}
	if (rc >= 0 && n < 0)
		rc = fs_errf(err, errlen, "%s:%ld: read error; %s", path, line, _form);
	else if (rc == 0)
		rc = fs_errf(err, errlen,
			     "%s:%ld: the JSON document ends early (a file cut short?); %s", path,
			     line, _form);
	else if (rc == 1 && !doc)
		rc = fs_errf(err, errlen, "%s: the JSON document is null; %s", path, _form);
	if (rc < 0) {
		json_object_put(doc);
		doc = NULL;
	}
	free(buf);
	if (tok)
		json_tokener_free(tok);
	return doc;
}

/* "sacct --json of Slurm 24.11.5 (data_parser/v0.0.42)" from "meta":
 * meta/slurm/release and meta/plugin/data_parser since 23.02, and
 * meta/Slurm/release and meta/plugin/type in 22.05. */
static void _source(json_object *doc, char *buf, size_t size)
{
	json_object *meta = fs_json_obj(doc, "meta");
	json_object *plugin = fs_json_obj(meta, "plugin");
	json_object *slurm = fs_json_obj(meta, "slurm");
	const char *rel, *parser;
	size_t n;

	if (!slurm)
		slurm = fs_json_obj(meta, "Slurm");
	rel = fs_json_str(slurm, "release");
	parser = fs_json_str(plugin, "data_parser");
	if (!*parser)
		parser = fs_json_str(plugin, "type");
	n = (size_t)snprintf(buf, size, "sacct --json");
	if (*rel && n < size)
		n += snprintf(buf + n, size - n, " of Slurm %.32s", rel);
	if (*parser && n < size)
		snprintf(buf + n, size - n, " (%.48s)", parser);
}

/* A time of the job's "time" object, -1 when unset. */
static int64_t _time(json_object *t, const char *key)
{
	int64_t v;

	if (!fs_json_num(t, key, &v) || v <= 0 || v > SACCT_TIME_MAX)
		return -1;
	return v;
}

/* jobs[idx] as a record. */
static int _job(json_object *j, long idx, struct sacct_rec *r, const char *path, char *err,
		size_t errlen)
{
	json_object *t = fs_json_obj(j, "time");
	int64_t v;

	memset(r, 0, sizeof(*r));
	r->line = idx + 1;
	if (!json_object_is_type(j, json_type_object) || !fs_json_num(j, "job_id", &v) || v < 0)
		return fs_errf(err, errlen,
			       "%s: jobs[%ld]: no job_id; expected a job of sacct --json", path,
			       idx);
	r->id = (long)v;
	r->submit = _time(t, "submission");
	if (r->submit < 0)
		return fs_errf(
			err, errlen,
			"%s: job %ld (jobs[%ld]): no time/submission; expected a job of sacct --json",
			path, r->id, idx);
	r->eligible = _time(t, "eligible");
	r->start = _time(t, "start");
	r->end = _time(t, "end");
	r->limit = fs_json_num(t, "limit", &v) && v > 0 && v < LIMIT_MAX ? v * 60 : -1;
	r->nodes = fs_json_num(j, "allocation_nodes", &v) ? v : -1;
	r->cpus = fs_json_num(fs_json_obj(j, "required"), "CPUs", &v) ? v : -1;
	r->state = fs_json_str(fs_json_obj(j, "state"), "current");
	r->partition = fs_json_str(j, "partition");
	r->nodelist = fs_json_str(j, "nodes");
	r->het = fs_json_num(fs_json_obj(j, "het"), "job_id", &v) && v > 0;
	r->array = fs_json_num(fs_json_obj(j, "array"), "job_id", &v) && v > 0;
	return 0;
}

int fss_sacct_json_read(gzFile gz, const char *path, struct sacct_build *b, char *err,
			size_t errlen)
{
	json_object *doc = _parse(gz, path, err, errlen), *jobs;
	int rc = 0;

	if (!doc)
		return -1;
	if (!json_object_is_type(doc, json_type_object) ||
	    !json_object_object_get_ex(doc, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array)) {
		json_object_put(doc);
		return fs_errf(err, errlen, "%s: no \"jobs\" list; %s", path, _form);
	}
	_source(doc, b->tr->source, sizeof(b->tr->source));
	for (size_t i = 0; !rc && i < json_object_array_length(jobs); i++) {
		struct sacct_rec r;

		rc = _job(json_object_array_get_idx(jobs, i), (long)i, &r, path, err, errlen);
		if (!rc && fss_sacct_add(b, &r))
			rc = fs_errf(err, errlen, "%s: out of memory", path);
	}
	json_object_put(doc);
	return rc;
}
