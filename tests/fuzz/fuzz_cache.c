/*
 * fuzz_cache.c - fuzz target for ibnetdiscover cache files (written by
 * 'ibnetdiscover --cache' or 'fabsched topo discover --save-cache'): the
 * reader fst_load_cache (libibnetdisc's ibnd_load_fabric, then the
 * conversion into the model), and what follows a cache read as it does
 * a text dump: classify, export, JSON round trip.  The input is the file,
 * given through a memfd (/proc/self/fd/N) as a real file would be.  In a
 * build without libibnetdisc the reader refuses every file.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fabsched_topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fst_export_opts eo = { .plane = -1 };
	struct fst_model *m = NULL, *m2 = NULL;
	char path[64], err[512], *buf = NULL, *js;
	size_t len = 0;
	FILE *f;
	int fd = memfd_create("fuzz-cache", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (fst_load_cache(&m, path, err, sizeof(err))) {
		if (!err[0]) {
			fprintf(stderr, "fuzz_cache: refused without a message\n");
			abort();
		}
		close(fd);
		return 0;
	}
	close(fd);
	if (fst_classify(m, NULL, err, sizeof(err)) == 0) {
		f = open_memstream(&buf, &len);
		if (f) {
			fst_export_tree(m, f, &eo, err, sizeof(err));
			fst_report(m, f, 1);
			fclose(f);
			free(buf);
		}
		js = fst_json_string(m, err, sizeof(err));
		if (js) {
			if (fst_json_read_buf(&m2, js, strlen(js), "cache.json", err, sizeof(err))) {
				fprintf(stderr, "fuzz_cache: a model written out does not read back: %s\n",
					err);
				abort();
			}
			fst_model_free(m2);
			free(js);
		}
	}
	fst_model_free(m);
	return 0;
}
