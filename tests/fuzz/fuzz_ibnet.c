/*
 * fuzz_ibnet.c — fuzz target for the ibnetdiscover parser and everything
 * downstream (classify, exporters, JSON round trip).
 * With libFuzzer: cc -fsanitize=fuzzer,address -DFST_LIBFUZZER ...
 * Without: a bounded smoke run (TAP) over the corpus and deterministic
 * mutations of it: fuzz_ibnet <corpus dir> [iterations].
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fabsched_topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fst_model *m = NULL, *m2 = NULL;
	char err[512];
	char *buf = NULL, *js;
	size_t len = 0;
	FILE *f;
	struct fst_export_opts eo = { .plane = -1 };

	if (fst_parse_ibnet_buf(&m, (const char *)data, size, "fuzz", err, sizeof(err)))
		return 0;
	if (fst_classify(m, NULL, err, sizeof(err)) == 0) {
		f = open_memstream(&buf, &len);
		if (f) {
			fst_export_tree(m, f, &eo, err, sizeof(err));
			fst_export_block(m, f, &eo, err, sizeof(err));
			fst_export_yaml(m, f, &eo, err, sizeof(err));
			fst_report(m, f, 1);
			fclose(f);
			free(buf);
		}
		js = fst_json_string(m, err, sizeof(err));
		if (js) {
			if (fst_json_read_buf(&m2, js, strlen(js), "fuzz.json", err, sizeof(err)) ==
			    0)
				fst_model_free(m2);
			free(js);
		}
	}
	fst_model_free(m);
	return 0;
}

#ifndef FST_LIBFUZZER
static uint64_t _rng = 0x9e3779b97f4a7c15ULL;
static uint64_t _next(void)
{
	_rng ^= _rng << 13;
	_rng ^= _rng >> 7;
	_rng ^= _rng << 17;
	return _rng;
}

int main(int argc, char **argv)
{
	const char *src = getenv("FABSCHED_SRCDIR");
	char defdir[4096];
	const char *dir;

	snprintf(defdir, sizeof(defdir), "%s/tests/fuzz/corpus/ibnet", src ? src : ".");
	dir = argc > 1 ? argv[1] : defdir;
	long iters = argc > 2 ? atol(argv[2]) : 3000;
	char *inputs[64];
	size_t lens[64];
	int n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	time_t start = time(NULL);
	static const char *tokens[] = { "Switch 8 ", "Ca 2 ", "[1]", "\"S-1\"", "\"H-2\"[1]",
					"# ",	     "4xQDR", "\n",  "\n\n",	"(abc)",
					"[ext 3]",   "=0x",   "\"",  "[" };
	long i;

	printf("1..1\n");
	if (!d) {
		printf("ok 1 # SKIP corpus %s not found\n", dir);
		return 0;
	}
	while ((e = readdir(d)) && n < 64) {
		char path[4096];
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		f = fopen(path, "r");
		if (!f)
			continue;
		inputs[n] = malloc(1 << 16);
		lens[n] = fread(inputs[n], 1, (1 << 16) - 1, f);
		fclose(f);
		LLVMFuzzerTestOneInput((const uint8_t *)inputs[n], lens[n]);
		n++;
	}
	closedir(d);
	for (i = 0; n && i < iters && time(NULL) - start < 20; i++) {
		int k = (int)(_next() % (uint64_t)n);
		size_t len = lens[k], cap = len + 256;
		char *b = malloc(cap);
		int muts = 1 + (int)(_next() % 8);

		memcpy(b, inputs[k], len);
		for (int j = 0; j < muts; j++) {
			size_t pos = len ? _next() % len : 0;

			switch (_next() % 4) {
			case 0:
				if (len)
					b[pos] = (char)_next();
				break;
			case 1:
				len = pos;
				break;
			case 2: {
				const char *t =
					tokens[_next() % (sizeof(tokens) / sizeof(tokens[0]))];
				size_t tl = strlen(t);

				if (len + tl < cap) {
					memmove(b + pos + tl, b + pos, len - pos);
					memcpy(b + pos, t, tl);
					len += tl;
				}
				break;
			}
			default:
				if (len > pos + 4) {
					memmove(b + pos, b + pos + 4, len - pos - 4);
					len -= 4;
				}
			}
		}
		LLVMFuzzerTestOneInput((const uint8_t *)b, len);
		free(b);
	}
	for (int k = 0; k < n; k++)
		free(inputs[k]);
	printf("ok 1 - fuzz ibnet: %d corpus inputs, %ld mutations, no crash\n", n, i);
	return 0;
}
#endif
