/*
 * spec.c - the job as the prolog environment describes it: every value
 * validated (digits only, ranges, known page sizes) before it is used.
 */
#include <errno.h>
#include <pwd.h>
#include <stdarg.h>
#include <string.h>

#include "fs_env.h"
#include "fabsched_prolog.h"
#include "fs_ib.h"
#include "fs_hugepages.h"
#include "fs_jobreq.h"
#include "fs_values.h"
#include "prolog_private.h"

const char *fs_pl_page_type(uint64_t page_kb)
{
	switch (page_kb) {
	case 2048:
		return "2m";
	case 1048576:
		return "1g";
	default:
		return NULL;
	}
}

/* Digits only, no sign, no blank, at most 19 digits; within [min, max]. */
static int _digits(const char *name, const char *s, size_t len, uint64_t min, uint64_t max,
		   uint64_t *out, char *err, size_t errlen)
{
	char esc[FS_ESCAPE_SIZE];
	uint64_t v = 0;

	if (len == 0 || len > 19) {
		fs_errf(err, errlen, "%s=\"%s\": %s; expected digits (%llu..%llu)", name,
			fs_escape(esc, sizeof(esc), s, len), len ? "too many digits" : "empty",
			(unsigned long long)min, (unsigned long long)max);
		return -1;
	}
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9') {
			fs_errf(err, errlen,
				"%s=\"%s\": not a number; expected digits only (%llu..%llu)", name,
				fs_escape(esc, sizeof(esc), s, len), (unsigned long long)min,
				(unsigned long long)max);
			return -1;
		}
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v < min || v > max) {
		fs_errf(err, errlen, "%s=\"%s\": out of range; expected %llu..%llu", name,
			fs_escape(esc, sizeof(esc), s, len), (unsigned long long)min,
			(unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

int fs_pl_parse_sluid(const char *name, const char *s, char out[16], char *err, size_t errlen)
{
	static const char b32[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

	out[0] = '\0';
	if (!s || s[0] != 's' || strlen(s) != 14 || strspn(s + 1, b32) != 13)
		return fs_errf(err, errlen,
			       "%s=\"%.32s\": expected a job SLUID "
			       "(s and 13 of 0-9 A-Z without I L O U)",
			       name, s ? s : "");
	memcpy(out, s, 15);
	return 0;
}

int fs_pl_parse_jobid(const char *name, const char *s, uint32_t *out, char *err, size_t errlen)
{
	uint64_t v;

	if (!s) {
		fs_errf(err, errlen, "%s is not set; expected a job id", name);
		return -1;
	}
	if (_digits(name, s, strlen(s), 1, FS_PL_MAX_JOBID, &v, err, errlen))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

#define HP_FORM                                                       \
	"comma-separated <type>:<numa node>=<pages>, type 2m or 1g, " \
	"node 0..1023 or any, e.g. 2m:0=256,2m:1=256"

/* One entry "<type>:<node>=<pages>" of FABSCHED_HUGEPAGES s, the len bytes
 * at p, into pg. */
static int _hp_entry(const char *s, const char *p, size_t len, struct fs_pl_pages *pg, char *err,
		     size_t errlen)
{
	const char *name = FS_ENV_HUGEPAGES;
	const char *colon = memchr(p, ':', len);
	const char *eq = memchr(p, '=', len);
	char esc[FS_ESCAPE_SIZE], esc2[FS_ESCAPE_SIZE];
	uint64_t v;

	if (!colon || !eq || eq < colon) {
		fs_errf(err, errlen, "%s=\"%s\": bad entry \"%s\"; expected %s", name,
			fs_escape(esc, sizeof(esc), s, strlen(s)),
			fs_escape(esc2, sizeof(esc2), p, len), HP_FORM);
		return -1;
	}
	/* the canonical names only: what gres/hugepages writes */
	if (fs_hp_page_kb(p, (size_t)(colon - p), &pg->page_kb) || !fs_pl_page_type(pg->page_kb) ||
	    strncmp(p, fs_pl_page_type(pg->page_kb), (size_t)(colon - p))) {
		fs_errf(err, errlen, "%s: page size \"%s\" unknown; expected 2m or 1g", name,
			fs_escape(esc, sizeof(esc), p, colon - p));
		return -1;
	}
	if (eq - colon - 1 == 3 && !memcmp(colon + 1, "any", 3))
		pg->node = FS_PL_NODE_ANY;
	else if (_digits("FABSCHED_HUGEPAGES NUMA node", colon + 1, eq - colon - 1, 0,
			 FS_PL_MAX_NODE, &v, err, errlen))
		return -1;
	else
		pg->node = (int)v;
	if (_digits("FABSCHED_HUGEPAGES pages", eq + 1, p + len - eq - 1, 1, 1u << 31, &v, err,
		    errlen))
		return -1;
	pg->pages = v;
	return 0;
}

/* pg, of the entry of len bytes at p, appended to the job's pages: not a
 * pair twice, at most FS_PL_MAX_POOLS. */
static int _hp_add(struct fs_pl_job *job, const struct fs_pl_pages *pg, const char *p, size_t len,
		   char *err, size_t errlen)
{
	const char *name = FS_ENV_HUGEPAGES;
	const char *eq = memchr(p, '=', len);
	char esc[FS_ESCAPE_SIZE];

	for (size_t i = 0; i < job->npages; i++)
		if (job->pages[i].node == pg->node && job->pages[i].page_kb == pg->page_kb) {
			fs_errf(err, errlen, "%s: \"%s\" given twice", name,
				fs_escape(esc, sizeof(esc), p, eq - p));
			return -1;
		}
	if (job->npages == FS_PL_MAX_POOLS) {
		fs_errf(err, errlen, "%s: more than %d entries", name, FS_PL_MAX_POOLS);
		return -1;
	}
	job->pages[job->npages++] = *pg;
	return 0;
}

/* The whole of FABSCHED_HUGEPAGES s (total pages, total_kb KiB) against the
 * machine's memory (mem_kb, 0: no check) and FABSCHED_HUGEPAGES_COUNT
 * (count, NULL: unset). */
static int _hp_totals(const char *s, const char *count, uint64_t mem_kb, uint64_t total,
		      uint64_t total_kb, char *err, size_t errlen)
{
	const char *name = FS_ENV_HUGEPAGES;
	char esc[FS_ESCAPE_SIZE];

	if (mem_kb && total_kb > mem_kb) {
		fs_errf(err, errlen,
			"%s=\"%s\": %llu KiB of hugepages asked, more than the "
			"machine's memory (%llu KiB)",
			name, fs_escape(esc, sizeof(esc), s, strlen(s)),
			(unsigned long long)total_kb, (unsigned long long)mem_kb);
		return -1;
	}
	if (count) {
		uint64_t c;

		if (_digits(FS_ENV_HUGEPAGES_COUNT, count, strlen(count), 0, UINT64_MAX / 2, &c,
			    err, errlen))
			return -1;
		if (c != total) {
			fs_errf(err, errlen,
				"FABSCHED_HUGEPAGES_COUNT=%llu does not match "
				"FABSCHED_HUGEPAGES=\"%s\" (%llu pages)",
				(unsigned long long)c, fs_escape(esc, sizeof(esc), s, strlen(s)),
				(unsigned long long)total);
			return -1;
		}
	}
	return 0;
}

int fs_pl_parse_hugepages(const char *s, const char *count, uint64_t mem_kb, struct fs_pl_job *job,
			  char *err, size_t errlen)
{
	char esc[FS_ESCAPE_SIZE];
	uint64_t total = 0, total_kb = 0;

	job->npages = 0;
	if (!s || !*s) {
		if (count && *count && strcmp(count, "0")) {
			fs_errf(err, errlen,
				"FABSCHED_HUGEPAGES_COUNT=\"%s\" but FABSCHED_HUGEPAGES is empty",
				fs_escape(esc, sizeof(esc), count, strlen(count)));
			return -1;
		}
		return 0;
	}
	for (const char *p = s;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		struct fs_pl_pages pg;

		if (_hp_entry(s, p, len, &pg, err, errlen) ||
		    _hp_add(job, &pg, p, len, err, errlen))
			return -1;
		total += pg.pages;
		total_kb += pg.pages * pg.page_kb; /* < 2^31 * 2^20 * 64 */
		if (!end)
			break;
		p = end + 1;
	}
	return _hp_totals(s, count, mem_kb, total, total_kb, err, errlen);
}

int fs_pl_trim_hugepages(const char *asked, struct fs_pl_job *job, char *err, size_t errlen)
{
	const char *name = FS_ENV_SPANK FS_ENV_HUGEPAGES_ASKED;
	struct fs_hp_ask a[FS_HP_SIZES_MAX];
	size_t n, o = 0;

	if (!asked || !*asked)
		return 0;
	if (fs_hp_asked_parse(name, asked, a, &n, err, errlen))
		return -1;
	for (size_t k = 0; k < n; k++) {
		uint64_t held = 0, over;

		for (size_t i = 0; i < job->npages; i++)
			if (job->pages[i].page_kb == a[k].page_kb)
				held += job->pages[i].pages;
		if (a[k].pages > held) {
			char page[16];

			return fs_errf(err, errlen,
				       "%s=%s: %llu pages of %s asked "
				       "but FABSCHED_HUGEPAGES gives the job %llu "
				       "on this node; expected at most the pages "
				       "of its gres",
				       name, asked, (unsigned long long)a[k].pages,
				       fs_hp_page_name(a[k].page_kb, page, sizeof(page)),
				       (unsigned long long)held);
		}
		/* the units' pages beyond the request, from the last pool on */
		over = held - a[k].pages;
		for (size_t i = job->npages; i-- > 0 && over;) {
			struct fs_pl_pages *pg = &job->pages[i];
			uint64_t cut;

			if (pg->page_kb != a[k].page_kb)
				continue;
			cut = pg->pages < over ? pg->pages : over;
			pg->pages -= cut;
			over -= cut;
		}
	}
	for (size_t i = 0; i < job->npages; i++)
		if (job->pages[i].pages)
			job->pages[o++] = job->pages[i];
	job->npages = o;
	return 0;
}

int fs_pl_parse_scratch(const char *s, struct fs_pl_job *job, char *err, size_t errlen)
{
	struct fs_scratch sc;
	char m[FS_MSG_SIZE];

	job->scratch_gib = 0;
	job->scratch_fs = 0;
	if (!s || !*s)
		return 0;
	if (fs_parse_scratch(FS_ENV_SPANK FS_ENV_SCRATCH, s, &sc, m, sizeof(m)))
		return fs_errf(err, errlen, "%s", m);
	job->scratch_gib = sc.gib;
	job->scratch_fs = (int)sc.fs;
	return 0;
}

int fs_pl_parse_rdma(const char *s, char *out, size_t outsz, char *err, size_t errlen)
{
	char esc[FS_ESCAPE_SIZE];

	if (strlen(s) >= outsz)
		goto bad;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("_.-:,", *p)))
			goto bad;
	memcpy(out, s, strlen(s) + 1);
	return 0;
bad:
	fs_errf(err, errlen,
		"FABSCHED_RDMA_DEVICES=\"%s\": expected comma-separated HCA "
		"names [A-Za-z0-9_.-] with an optional :<port>",
		fs_escape(esc, sizeof(esc), s, strlen(s)));
	return -1;
}

int fs_pl_job_from_env(const char *(*get)(const char *), uint64_t mem_kb, struct fs_pl_job *job,
		       char *err, size_t errlen)
{
	const char *s;
	uint64_t v;

	memset(job, 0, sizeof(*job));
	if (fs_pl_parse_jobid("SLURM_JOB_ID", get("SLURM_JOB_ID"), &job->jobid, err, errlen))
		return -1;
	if (!(s = get("SLURM_JOB_UID"))) {
		fs_errf(err, errlen, "SLURM_JOB_UID is not set; expected a uid");
		return -1;
	}
	if (_digits("SLURM_JOB_UID", s, strlen(s), 0, 4294967294ULL, &v, err, errlen))
		return -1;
	job->uid = (uid_t)v;
	if ((s = get("SLURM_JOB_GID"))) {
		if (_digits("SLURM_JOB_GID", s, strlen(s), 0, 4294967294ULL, &v, err, errlen))
			return -1;
		job->gid = (gid_t)v;
	} else {
		struct passwd *pw = getpwuid(job->uid);

		if (!pw) {
			fs_errf(err, errlen,
				"SLURM_JOB_GID is not set and uid %u has no "
				"passwd entry",
				(unsigned)job->uid);
			return -1;
		}
		job->gid = pw->pw_gid;
	}
	if (fs_pl_parse_hugepages(get(FS_ENV_HUGEPAGES), get(FS_ENV_HUGEPAGES_COUNT), mem_kb, job,
				  err, errlen))
		return -1;
	if (fs_pl_trim_hugepages(get(FS_ENV_SPANK FS_ENV_HUGEPAGES_ASKED), job, err, errlen))
		return -1;
	if (fs_pl_parse_scratch(get(FS_ENV_SPANK FS_ENV_SCRATCH), job, err, errlen))
		return -1;
	/* --scratch reaches the prolog as the SPANK option itself (sbatch,
	   salloc and srun put it in the job's SPANK environment); only
	   job_submit/fabsched turns it into SPANK_FABSCHED_SCRATCH.  The
	   option without it: that plugin never saw the job, and the job
	   would run without the volume it asked for. */
	if (!job->scratch_gib && (s = get(FS_PL_SCRATCH_OPT_ENV)) && *s) {
		char esc[FS_ESCAPE_SIZE];

		fs_errf(err, errlen,
			"the job asked --scratch=%s (%s) but "
			"SPANK_FABSCHED_SCRATCH is not set: job_submit/fabsched "
			"did not accept it (expected JobSubmitPlugins=fabsched "
			"in slurm.conf); not running it without its volume",
			fs_escape(esc, sizeof(esc), s, strlen(s)), FS_PL_SCRATCH_OPT_ENV);
		return -1;
	}
	if ((s = get(FS_ENV_RDMA_DEVICES)) && *s &&
	    fs_pl_parse_rdma(s, job->rdma, sizeof(job->rdma), err, errlen))
		return -1;
	/* the account only picks a P_Key: a name no map can hold is noted
	   (fs_pl_job_pkey), never a reason to fail jobs that use none */
	if ((s = get("SLURM_JOB_ACCOUNT")) && *s) {
		if (fs_account_ok(s) && strlen(s) < sizeof(job->account))
			strcpy(job->account, s);
		else
			job->account_unusable = true;
	}
	return 0;
}

int fs_pl_job_pkey(struct fs_pl_job *job, const char *map, char *err, size_t errlen)
{
	char m[FS_MSG_SIZE];
	int rc;

	job->ib_pkey = 0;
	if (!map || !job->account[0])
		return 0;
	rc = fs_pkey_map_find("AccountIbPkeys", map, job->account, &job->ib_pkey, m, sizeof(m));
	if (rc < 0)
		return fs_errf(err, errlen, "%s", m);
	return 0;
}
