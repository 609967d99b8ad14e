/*
 * names.c — HCA -> compute node mapping and switch names.
 *
 * Host name of an HCA, first match wins:
 *   1. node-name-map entry of its node GUID (ibnetdiscover's
 *      "0x<guid> \"<description>\"" form or "H-<guid> <host>");
 *      the mapped text replaces the node description;
 *   2. the optional regex (group 1, or the whole match);
 *   3. the first word of the description ("n001 mlx5_0" -> n001).
 * HCAs that are not compute nodes (SHARP aggregation nodes, default
 * descriptions, localhost, excluded, outside the Slurm node list, and
 * without a list the names of fst_noncompute_name) are kept, with a
 * reason, and listed in the report.
 */
#define _GNU_SOURCE
#include "fabsched_config.h"
#include "topo_private.h"
#include "topo_names.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void _guidkey(char *buf, size_t n, uint64_t g)
{
	snprintf(buf, n, "%016" PRIx64, g);
}

int fst_map_line(char *line, uint64_t *guid, char **name)
{
	char *s = line, *end, *val;
	unsigned long long g;
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '#')
		return 0;
	if ((s[0] == 'H' || s[0] == 'S' || s[0] == 'R') && s[1] == '-')
		s += 2;
	errno = 0;
	g = strtoull(s, &end, 16);
	if (end == s || errno || !isspace((unsigned char)*end))
		return FST_MAP_BAD_GUID;
	val = end;
	while (isspace((unsigned char)*val))
		val++;
	n = strlen(val);
	while (n && isspace((unsigned char)val[n - 1]))
		val[--n] = '\0';
	if (n >= 2 && val[0] == '"' && val[n - 1] == '"') {
		val[n - 1] = '\0';
		val++;
	}
	if (!*val || strchr(val, '"'))
		return FST_MAP_BAD_NAME;
	*guid = g;
	*name = val;
	return 1;
}

int fst_names_load_map(struct fst_names *nm, const char *path, char *err, size_t errlen)
{
	char line[1024], why[128];
	FILE *f = fs_fopen_regular(path, why, sizeof(why));
	int ln = 0;

	if (!f)
		return fs_errf(err, errlen, "%s: cannot open: %s", path, why);
	while (fgets(line, sizeof(line), f)) {
		char *val, key[40];
		uint64_t g;
		int rc;

		ln++;
		if (!strchr(line, '\n') && !feof(f)) {
			fclose(f);
			return fs_errf(err, errlen, "%s:%d: line too long; expected %s", path, ln,
				       FST_MAP_FORM);
		}
		rc = fst_map_line(line, &g, &val);
		if (!rc)
			continue;
		if (rc < 0) {
			fclose(f);
			return fs_errf(err, errlen, "%s:%d: %s; expected %s", path, ln,
				       rc == FST_MAP_BAD_GUID ? "bad GUID"
							      : "missing or unbalanced name",
				       FST_MAP_FORM);
		}
		_guidkey(key, sizeof(key), g);
		{
			char **nv =
				fst_grow(nm->mapval, &nm->cap_map, nm->nmap + 1, sizeof(char *));

			if (!nv || !(nv[nm->nmap] = strdup(val)) ||
			    fst_index_put(&nm->map, key, nm->nmap)) {
				if (nv)
					nm->mapval = nv;
				fclose(f);
				return fs_errf(err, errlen, "out of memory");
			}
			nm->mapval = nv;
			nm->nmap++;
		}
	}
	fclose(f);
	return 0;
}

const char *fst_names_mapped(const struct fst_names *nm, uint64_t guid)
{
	char key[40];
	int i;

	_guidkey(key, sizeof(key), guid);
	i = fst_index_get(&nm->map, key);
	return i < 0 ? NULL : nm->mapval[i];
}

void fst_names_free(struct fst_names *nm)
{
	fst_index_clear(&nm->map);
	for (int i = 0; i < nm->nmap; i++)
		free(nm->mapval[i]);
	free(nm->mapval);
	if (nm->have_re)
		regfree(&nm->re);
	if (nm->have_ex)
		regfree(&nm->ex);
	fst_index_clear(&nm->nodelist);
	fst_strv_free(nm->nodelist_v, nm->nodelist_n);
	fst_index_clear(&nm->rackof);
	fst_strv_free(nm->racknames, nm->nracknames);
	memset(nm, 0, sizeof(*nm));
}

static void _first_word(const char *s, char *out, size_t n)
{
	size_t i = 0;

	while (isspace((unsigned char)*s))
		s++;
	while (*s && !isspace((unsigned char)*s) && i + 1 < n)
		out[i++] = *s++;
	out[i] = '\0';
}

static int _starts_ci(const char *s, const char *p)
{
	return !strncasecmp(s, p, strlen(p));
}

/* A description the HCA firmware or driver sets when nobody configured one. */
static int _default_hca_desc(const char *word, const char *desc)
{
	static const char *const vendor[] = { "mellanox", "connectx", "infinihost", "nvidia",
					      "qlogic",	  "intel",    "hfi",	    "qib",
					      "mlx",	  "hca-",     "ibm",	    NULL };

	if (word[0] == 'M' && word[1] == 'T' && isdigit((unsigned char)word[2]))
		return 1;
	for (int i = 0; vendor[i]; i++)
		if (_starts_ci(word, vendor[i]))
			return 1;
	(void)desc;
	return 0;
}

int fst_is_aggregation_node(const char *desc)
{
	return strcasestr(desc, "aggregation node") != NULL || strcasestr(desc, "sharp") != NULL;
}

static int _in(const char *w, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(w, list[i]))
			return 1;
	return 0;
}

static const char *const os_default[] = { FST_OS_DEFAULT_NAMES, NULL };
static const char *const manager[] = { FST_MANAGER_NAMES, NULL };
static const char *const mgmt[] = { FST_MGMT_NAMES, NULL };
static const char *const storage[] = { FST_STORAGE_NAMES, NULL };
static const struct {
	const char *mark, *why;
} inside[] = { FST_MARKS_INSIDE };

/* The reason one lower-case word of letters marks a host that is not a
 * compute node, NULL none (the OS default names are the caller's). */
static const char *_word_mark(const char *w)
{
	if (_in(w, storage))
		return "storage-host";
	if (_in(w, manager))
		return "fabric-manager-host";
	if (_in(w, mgmt))
		return "management-host";
	for (size_t i = 0; i < sizeof(inside) / sizeof(inside[0]); i++)
		if (strstr(w, inside[i].mark))
			return inside[i].why;
	return NULL;
}

/*
 * Host names that mark a host as not a compute node, for a fabric read
 * without a node list (fst_opts: no nodelist, no exclude_regex, not
 * all_hosts).  The name is cut into words at '-', '_', '.' and between
 * letters and digits ("r510gluster1": r 510 gluster 1), lower case:
 *   - an operating system's default host name: its first word one of
 *     FST_OS_DEFAULT_NAMES, all others digits ("ubuntu", "debian-12");
 *   - a fabric manager: any word one of FST_MANAGER_NAMES ("ufm01",
 *     "sm-1", "pg-compute-ufm001");
 *   - a management or login host: any word one of FST_MGMT_NAMES
 *     ("pg-login-mgmt001", "head-mgt1");
 *   - a storage server: any word one of FST_STORAGE_NAMES ("r510gluster1",
 *     "lustre-oss3", "nas02");
 *   - a mark of FST_MARKS_INSIDE anywhere in a word ("lassenufm2",
 *     "r12-c03-CUFM-02"): marks no compute node's name holds.
 * Returns the reason, or NULL for a name that may be a compute node.
 */
const char *fst_noncompute_name(const char *host)
{
	char w[FST_NAME_MAX + 1];
	int nwords = 0, first_os = 0, other_alpha = 0;
	const char *p = host, *why;

	while (*p) {
		size_t n = 0;
		int digits;

		while (*p && strchr("-_.", *p))
			p++;
		if (!*p)
			break;
		digits = isdigit((unsigned char)*p) != 0;
		while (*p && !strchr("-_.", *p) && (isdigit((unsigned char)*p) != 0) == digits) {
			if (n < sizeof(w) - 1)
				w[n++] = (char)tolower((unsigned char)*p);
			p++;
		}
		w[n] = '\0';
		if (digits) {
			nwords++;
			continue;
		}
		why = _word_mark(w);
		if (why)
			return why;
		if (!nwords)
			first_os = _in(w, os_default);
		else
			other_alpha = 1;
		nwords++;
	}
	return first_os && !other_alpha ? "os-default-name" : NULL;
}

const char *fst_names_host(const struct fst_names *nm, const struct fst_opts *o,
			   const struct fst_device *d, char *out, size_t n)
{
	const char *text = fst_names_mapped(nm, d->guid);
	int mapped = text != NULL;
	char word[256];

	out[0] = '\0';
	if (!mapped)
		text = d->desc;
	if (fst_is_aggregation_node(d->desc))
		return "sharp-aggregation-node";
	if (!*text)
		return "no-description";
	if (nm->have_re) {
		regmatch_t mt[2];

		if (regexec(&nm->re, text, 2, mt, 0))
			return "regex-mismatch";
		if (mt[1].rm_so < 0)
			mt[1] = mt[0];
		snprintf(word, sizeof(word), "%.*s", (int)(mt[1].rm_eo - mt[1].rm_so),
			 text + mt[1].rm_so);
	} else {
		_first_word(text, word, sizeof(word));
		if (!mapped && _default_hca_desc(word, text))
			return "default-description";
	}
	if (!o->keep_domain && !isdigit((unsigned char)word[0])) {
		char *dot = strchr(word, '.');

		if (dot)
			*dot = '\0';
	}
	if (!strcasecmp(word, "localhost"))
		return "localhost";
	if (!fst_host_name_ok(word))
		return "invalid-host-name";
	snprintf(out, n, "%s", word);
	if (nm->have_ex &&
	    (!regexec(&nm->ex, text, 0, NULL, 0) || !regexec(&nm->ex, out, 0, NULL, 0)))
		return "excluded";
	if (nm->have_nodelist && fst_index_get(&nm->nodelist, out) < 0)
		return "not-in-nodelist";
	if (!nm->have_nodelist && !nm->have_ex && !o->all_hosts)
		return fst_noncompute_name(out);
	return NULL;
}

/*
 * The name in "MF0;<name>:<model>[/<slot>]/U<n>" (@s after the ';'): the
 * name, then the slot of a director chassis and the ASIC when not the
 * first, each after '-': "lassen-ibcore2-mgt1:CS7500/S18/U1" is
 * "lassen-ibcore2-mgt1-S18", "core1:CS8500/L05/U2" "core1-L05-U2",
 * "ib-switch-sequoia:MQM9700/U1" "ib-switch-sequoia".  The ASICs of one
 * chassis share its name and differ by slot, so each keeps a name of its
 * own.
 */
static void _chassis_name(const char *s, char *out, size_t n)
{
	const char *colon = strchr(s, ':'), *p;
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	int o = snprintf(out, n, "%.*s", (int)len, s);

	if (!colon || o < 0 || (size_t)o >= n)
		return;
	p = strchr(colon, '/'); /* past the model */
	while (p && *p == '/') {
		const char *e = p + 1;

		while (*e && *e != '/' && !isspace((unsigned char)*e))
			e++;
		/* the unit of a one-ASIC box or slot: U1 adds nothing */
		if (!(e - p == 3 && (p[1] == 'U' || p[1] == 'u') && p[2] == '1') && e > p + 1)
			o += snprintf(out + o, n - (size_t)o, "-%.*s", (int)(e - p - 1), p + 1);
		if ((size_t)o >= n)
			return;
		p = *e == '/' ? e : NULL;
	}
}

/* Switch name from a description, "" when it only has a vendor default. */
void fst_names_switch(const char *desc, char *out, size_t n)
{
	static const char *const vendor[] = { "mellanox", "voltaire",	    "nvidia",
					      "qlogic",	  "infiniscale",    "switchx",
					      "switchib", "quantum",	    "topspin",
					      "intel",	  "sun datacenter", "sw-",
					      "mf0;",	  "switch",	    NULL };
	const char *semi = strchr(desc, ';'), *hash = strrchr(desc, '#');
	char word[256];

	out[0] = '\0';
	if (!strncmp(desc, "MF0;", 4) && semi) { /* "MF0;<name>:<model>/U1" */
		_chassis_name(semi + 1, word, sizeof(word));
		if (fst_host_name_ok(word))
			snprintf(out, n, "%s", word);
		return;
	}
	if (hash) { /* "Voltaire 4036 # <name>" */
		_first_word(hash + 1, word, sizeof(word));
		if (fst_host_name_ok(word))
			snprintf(out, n, "%s", word);
		return;
	}
	_first_word(desc, word, sizeof(word));
	if (!word[0] || (word[0] == 'M' && word[1] == 'T' && isdigit((unsigned char)word[2])))
		return;
	for (int i = 0; vendor[i] && strpbrk(desc, " \t"); i++)
		if (strcasestr(desc, vendor[i]))
			return;
	/* a model number such as ISR9024, SX6036, MQM8700 */
	{
		const char *c = word;

		while (isupper((unsigned char)*c))
			c++;
		if (c != word && isdigit((unsigned char)c[0]) && isdigit((unsigned char)c[1]) &&
		    isdigit((unsigned char)c[2]))
			return;
	}
	if (fst_host_name_ok(word))
		snprintf(out, n, "%s", word);
}

int fst_names_setup(struct fst_names *nm, const struct fst_opts *o, char *err, size_t errlen)
{
	char **v = NULL;
	int n = 0, rc;

	if (o->name_map && fst_names_load_map(nm, o->name_map, err, errlen))
		return -1;
	if (o->host_regex) {
		rc = regcomp(&nm->re, o->host_regex, REG_EXTENDED);
		if (rc) {
			char b[128];

			regerror(rc, &nm->re, b, sizeof(b));
			return fs_errf(err, errlen,
				       "host regex \"%s\": %s; expected a POSIX extended regex",
				       o->host_regex, b);
		}
		nm->have_re = 1;
	}
	if (o->exclude_regex) {
		rc = regcomp(&nm->ex, o->exclude_regex, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			char b[128];

			regerror(rc, &nm->ex, b, sizeof(b));
			return fs_errf(err, errlen,
				       "exclude regex \"%s\": %s; expected a POSIX extended regex",
				       o->exclude_regex, b);
		}
		nm->have_ex = 1;
	}
	if (o->nodelist) {
		char e2[256];

		if (fst_hostlist_expand(o->nodelist, &v, &n, e2, sizeof(e2)))
			return fs_errf(err, errlen, "node list: %s", e2);
		for (int i = 0; i < n; i++)
			if (fst_index_put(&nm->nodelist, v[i], i)) {
				fst_strv_free(v, n);
				return fs_errf(err, errlen, "out of memory");
			}
		nm->have_nodelist = 1;
		nm->nodelist_v = v;
		nm->nodelist_n = n;
	}
	if (o->rack_map && fst_names_load_racks(nm, o->rack_map, err, errlen))
		return -1;
	return 0;
}

int fst_names_load_racks(struct fst_names *nm, const char *path, char *err, size_t errlen)
{
	char line[8192], why[128];
	FILE *f = fs_fopen_regular(path, why, sizeof(why));
	int ln = 0;

	if (!f)
		return fs_errf(err, errlen, "%s: cannot open: %s", path, why);
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *rack, *list, *save = NULL, e2[256];
		char **v;
		int n, ri;

		ln++;
		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			continue;
		rack = strtok_r(s, " \t\r\n", &save);
		list = strtok_r(NULL, " \t\r\n", &save);
		if (!rack || !list || strtok_r(NULL, " \t\r\n", &save) || !fst_host_name_ok(rack)) {
			fclose(f);
			return fs_errf(err, errlen, "%s:%d: bad line; expected '<rack> <hostlist>'",
				       path, ln);
		}
		if (fst_hostlist_expand_max(list, FST_RACK_NAMES_MAX, &v, &n, e2, sizeof(e2))) {
			fclose(f);
			return fs_errf(err, errlen, "%s:%d: %s", path, ln, e2);
		}
		{
			char **nr = fst_grow(nm->racknames, &nm->cap_racknames, nm->nracknames + 1,
					     sizeof(char *));

			if (!nr || !(nr[nm->nracknames] = strdup(rack))) {
				if (nr)
					nm->racknames = nr;
				fst_strv_free(v, n);
				fclose(f);
				return fs_errf(err, errlen, "out of memory");
			}
			nm->racknames = nr;
			ri = nm->nracknames++;
		}
		for (int i = 0; i < n; i++)
			if (fst_index_put(&nm->rackof, v[i], ri)) {
				fst_strv_free(v, n);
				fclose(f);
				return fs_errf(err, errlen, "out of memory");
			}
		fst_strv_free(v, n);
	}
	fclose(f);
	return 0;
}
