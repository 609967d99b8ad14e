/*
 * fuzz_cache.c - fuzz target for ibnetdiscover cache files (written by
 * 'ibnetdiscover --cache' or 'fabsched topo discover --save-cache'): the
 * reader fst_load_cache (libibnetdisc's ibnd_load_fabric, then the
 * conversion into the model), and what follows a cache read as it does
 * a text dump: classify, export, JSON round trip.  The input is the file,
 * given through a memfd (/proc/self/fd/N) as a real file would be.  In a
 * build without libibnetdisc the reader refuses every file.
 *
 * libibnetdisc before rdma-core 49.1 loses 64 bytes for every port whose
 * LID another port already has (add_to_portlid_hash; every port of a
 * switch carries the switch's LID), so LeakSanitizer is told to leave out
 * what is lost inside libibnetdisc.  What fabsched owes the library, one
 * ibnd_destroy_fabric for each fabric loaded, is counted here instead: the
 * two are wrapped, and an input that leaves a fabric undestroyed aborts.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fabsched_topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);
void *ibnd_load_fabric(const char *file, unsigned int flags);
void ibnd_destroy_fabric(void *fabric);

const char *__lsan_default_suppressions(void)
{
	return "leak:libibnetdisc.so\n";
}

static int loaded; /* fabrics loaded and not destroyed */

void *ibnd_load_fabric(const char *file, unsigned int flags)
{
	static void *(*real)(const char *, unsigned int);
	void *f;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "ibnd_load_fabric");
	f = real ? real(file, flags) : NULL;
	loaded += f != NULL;
	return f;
}

void ibnd_destroy_fabric(void *fabric)
{
	static void (*real)(void *);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "ibnd_destroy_fabric");
	loaded -= fabric != NULL;
	if (real)
		real(fabric);
}

static void _all_destroyed(void)
{
	if (loaded) {
		fprintf(stderr, "fuzz_cache: %d fabric(s) loaded and not destroyed\n", loaded);
		abort();
	}
}

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
		_all_destroyed();
		return 0;
	}
	close(fd);
	_all_destroyed();
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
			if (fst_json_read_buf(&m2, js, strlen(js), "cache.json", err,
					      sizeof(err))) {
				fprintf(stderr,
					"fuzz_cache: a model written out does not read back: %s\n",
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
