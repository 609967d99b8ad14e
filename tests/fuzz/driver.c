/*
 * driver.c - a standalone main for fuzz targets, for compilers without
 * libFuzzer (gcc): replays every file of the corpus directories, then
 * feeds a bounded number of seeded random mutations of them (byte flips,
 * inserts of bytes and of tokens, deletions, duplications, splices of two
 * inputs), and prints one TAP result.  A bug crashes loudly: the smoke
 * build runs under AddressSanitizer and UBSan, and targets abort() when a
 * property fails.
 *
 * usage: fuzz_<name>_smoke [-n COUNT] [-s SEED] [DIR|FILE]...
 *   COUNT  mutated inputs to run (default $FUZZ_COUNT, else 20000)
 *   SEED   PRNG seed (default $FUZZ_SEED, else 1; "time" for a new one)
 *   DIR    corpus directories (default $FUZZ_CORPUS, else
 *          $FABSCHED_SRCDIR/tests/fuzz/corpus/<name>, plus
 *          $FABSCHED_FIXTURES/<fixtures> when set)
 * To replay a crash: run again with the printed seed, or with
 * FUZZ_SAVE=1, which writes each input to fuzz-<name>-last-input in the
 * current directory before running it; pass that file as the corpus.
 * An input that runs longer than $FUZZ_HANG seconds (default 60) is a
 * hang: the driver writes it to fuzz-<name>-hang-input, names it (its
 * corpus file, or the mutation's number and seed) and fails, rather than
 * wait for ever (a reader blocked on a FIFO, a loop that never ends).
 *
 * The driver serves any target: compile it with -DFUZZ_NAME='"<name>"'
 * (default "conf") and, when the fixtures folder has another name,
 * -DFUZZ_FIXTURES='"<folder>"'.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef FUZZ_NAME
#define FUZZ_NAME "conf"
#endif
#ifndef FUZZ_FIXTURES
#define FUZZ_FIXTURES FUZZ_NAME
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_INPUT (96 * 1024) /* above the parser's 64 KiB line limit */

struct input {
	uint8_t *data;
	size_t len;
	char *name; /* its corpus file; NULL for a mutant */
};

static struct input *corpus;
static size_t ncorpus, capcorpus;

/* Tokens that reach deeper into the parser than random bytes. */
static const char *const tokens[] = {
	"PartitionName=",
	"PartitionName=DEFAULT ",
	"=",
	"\"",
	"#",
	" ",
	"\t",
	"\n",
	"\r\n",
	"\\\n",
	"\\",
	"@",
	":",
	"-",
	"0",
	"59",
	"60",
	"18446744073709551615",
	"18446744073709551616",
	"INFINITE",
	"UNLIMITED",
	"rack",
	"pod",
	"any",
	"rack@30:00",
	"1-2:03:04",
	"FabricModel=",
	"NodeNameMap=",
	"RackMap=",
	"LogLevel=",
	"StateDir=",
	"HugepageMountBase=",
	"ScratchBase=",
	"DefaultLocality=",
	"Locality=",
	"LocalityWait=",
	"MaxRacks=",
	"Include ",
	"/",
	"\xff",
	"\xc3\xa9",
	"\xed\xa0\x80",
	"\0",
	"K",
	"GiB",
	"yes",
	"debug",
};

static uint64_t rng;

static uint64_t next(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ull;
}

static size_t below(size_t n)
{
	return n ? (size_t)(next() % n) : 0;
}

static void die(const char *what, const char *arg)
{
	printf("Bail out! fuzz driver: %s%s%s\n", what, arg ? ": " : "", arg ? arg : "");
	exit(1);
}

static void add_input(const uint8_t *data, size_t len, const char *name)
{
	struct input in;

	if (ncorpus == capcorpus) {
		capcorpus = capcorpus ? capcorpus * 2 : 64;
		corpus = realloc(corpus, capcorpus * sizeof(*corpus));
		if (!corpus)
			die("out of memory", NULL);
	}
	in.len = len;
	in.data = malloc(len ? len : 1);
	if (!in.data)
		die("out of memory", NULL);
	if (len)
		memcpy(in.data, data, len);
	in.name = name ? strdup(name) : NULL;
	corpus[ncorpus++] = in;
}

static int load_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t n;

	if (!f)
		return -1;
	buf = malloc(FUZZ_MAX_INPUT);
	if (!buf)
		die("out of memory", NULL);
	n = fread(buf, 1, FUZZ_MAX_INPUT, f);
	fclose(f);
	add_input(buf, n, path);
	free(buf);
	return 0;
}

static int load_path(const char *path)
{
	struct dirent **names;
	struct stat st;
	char file[4096];
	int n;

	if (stat(path, &st))
		return -1;
	if (!S_ISDIR(st.st_mode))
		return load_file(path);
	n = scandir(path, &names, NULL, alphasort); /* stable order */
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		snprintf(file, sizeof(file), "%s/%s", path, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && !stat(file, &st) && S_ISREG(st.st_mode))
			load_file(file);
		free(names[i]);
	}
	free(names);
	return 0;
}

/* One mutation of buf (len bytes, room for FUZZ_MAX_INPUT). */
static size_t mutate(uint8_t *buf, size_t len)
{
	size_t pos = below(len + 1), n;

	switch (below(8)) {
	case 0: /* flip a bit */
		if (len)
			buf[below(len)] ^= (uint8_t)(1u << below(8));
		break;
	case 1: /* set a random byte */
		if (len)
			buf[below(len)] = (uint8_t)next();
		break;
	case 2: /* insert random bytes */
		n = 1 + below(4);
		if (len + n <= FUZZ_MAX_INPUT) {
			memmove(buf + pos + n, buf + pos, len - pos);
			for (size_t i = 0; i < n; i++)
				buf[pos + i] = (uint8_t)next();
			len += n;
		}
		break;
	case 3:
	case 4: { /* insert a token */
		const char *t = tokens[below(sizeof(tokens) / sizeof(*tokens))];

		n = *t ? strlen(t) : 1;
		if (len + n <= FUZZ_MAX_INPUT) {
			memmove(buf + pos + n, buf + pos, len - pos);
			memcpy(buf + pos, t, n);
			len += n;
		}
		break;
	}
	case 5: /* delete a range */
		if (pos < len) {
			n = 1 + below(len - pos < 16 ? len - pos : 16);
			memmove(buf + pos, buf + pos + n, len - pos - n);
			len -= n;
		}
		break;
	case 6: /* duplicate a range, sometimes many times (long lines) */
		if (pos < len) {
			size_t rl = 1 + below(len - pos < 32 ? len - pos : 32);
			size_t reps = below(50) ? 1 : 1 + below(4000);

			/* one move for all the copies: the range at pos,
			   then reps more of it */
			if (reps > (FUZZ_MAX_INPUT - len) / rl)
				reps = (FUZZ_MAX_INPUT - len) / rl;
			memmove(buf + pos + reps * rl, buf + pos, len - pos);
			for (size_t r = 1; r < reps; r++)
				memcpy(buf + pos + r * rl, buf + pos, rl);
			len += reps * rl;
		}
		break;
	case 7: { /* splice: a piece of another input */
		const struct input *o = &corpus[below(ncorpus)];
		size_t from = below(o->len), cnt = below(o->len - from + 1);

		if (len + cnt <= FUZZ_MAX_INPUT && o->len) {
			memmove(buf + pos + cnt, buf + pos, len - pos);
			memcpy(buf + pos, o->data + from, cnt);
			len += cnt;
		}
		break;
	}
	}
	return len;
}

/* The input running now, for the hang watchdog (set before each run). */
static const uint8_t *run_data;
static size_t run_len;
static char run_what[4200];
static unsigned hang_secs = 60;

static void put(const char *s)
{
	ssize_t r = write(STDOUT_FILENO, s, strlen(s));

	(void)r;
}

/* SIGALRM: the input ran past FUZZ_HANG seconds.  Only calls that are
   safe in a signal handler. */
static void on_hang(int sig)
{
	int fd = open("fuzz-" FUZZ_NAME "-hang-input", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		      0644);

	(void)sig;
	if (fd >= 0) {
		ssize_t r = write(fd, run_data, run_len);

		(void)r;
		close(fd);
	}
	put("Bail out! fuzz driver: an input ran longer than FUZZ_HANG "
	    "seconds (a hang): ");
	put(run_what);
	put("; it is in fuzz-" FUZZ_NAME "-hang-input\n");
	_exit(1);
}

/* Run one input under the watchdog. */
static void run_one(const uint8_t *data, size_t len)
{
	run_data = data;
	run_len = len;
	alarm(hang_secs);
	LLVMFuzzerTestOneInput(data, len);
	alarm(0);
}

static void save(const uint8_t *buf, size_t len)
{
	FILE *f = fopen("fuzz-" FUZZ_NAME "-last-input", "wb");

	if (f) {
		fwrite(buf, 1, len, f);
		fclose(f);
	}
}

int main(int argc, char **argv)
{
	const char *e, *seedarg = getenv("FUZZ_SEED");
	long count = (e = getenv("FUZZ_COUNT")) ? atol(e) : 20000;
	int save_inputs = (e = getenv("FUZZ_SAVE")) && *e == '1';
	size_t replayed, ndirs = 0;
	struct timespec t0, t1;
	uint64_t seed;
	uint8_t *buf;
	double secs;
	int opt;

	while ((opt = getopt(argc, argv, "n:s:")) != -1) {
		if (opt == 'n')
			count = atol(optarg);
		else if (opt == 's')
			seedarg = optarg;
		else
			die("usage: fuzz_" FUZZ_NAME "_smoke [-n COUNT] "
			    "[-s SEED] [DIR|FILE]...",
			    NULL);
	}
	if (seedarg && !strcmp(seedarg, "time"))
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	else
		seed = seedarg ? strtoull(seedarg, NULL, 10) : 1;
	rng = seed ? seed : 0x9e3779b97f4a7c15ull;
	if ((e = getenv("FUZZ_HANG")) && atoi(e) > 0)
		hang_secs = (unsigned)atoi(e);
	signal(SIGALRM, on_hang);

	for (int i = optind; i < argc; i++, ndirs++)
		if (load_path(argv[i]))
			die("cannot read corpus", argv[i]);
	if (!ndirs) {
		char path[4096];

		if ((e = getenv("FUZZ_CORPUS"))) {
			if (load_path(e))
				die("cannot read corpus", e);
		} else {
			e = getenv("FABSCHED_SRCDIR");
			snprintf(path, sizeof(path), "%s/tests/fuzz/corpus/" FUZZ_NAME,
				 e ? e : ".");
			if (load_path(path))
				die("cannot read corpus (set FABSCHED_SRCDIR "
				    "or FUZZ_CORPUS)",
				    path);
			if ((e = getenv("FABSCHED_FIXTURES"))) {
				snprintf(path, sizeof(path), "%s/" FUZZ_FIXTURES, e);
				load_path(path);
			}
		}
	}
	if (!ncorpus)
		add_input((const uint8_t *)"", 0, NULL);

	printf("1..1\n");
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < ncorpus; i++) {
		snprintf(run_what, sizeof(run_what), "corpus input %s",
			 corpus[i].name ? corpus[i].name : "(empty)");
		run_one(corpus[i].data, corpus[i].len);
	}
	replayed = ncorpus;

	buf = malloc(FUZZ_MAX_INPUT);
	if (!buf)
		die("out of memory", NULL);
	for (long i = 0; i < count; i++) {
		const struct input *in = &corpus[below(ncorpus)];
		size_t len = in->len, rounds = 1 + below(8);
		uint8_t *exact;

		memcpy(buf, in->data, len);
		for (size_t r = 0; r < rounds; r++)
			len = mutate(buf, len);
		if (save_inputs)
			save(buf, len);
		/* an exact-size copy, so that ASan sees reads past the end */
		exact = malloc(len ? len : 1);
		if (!exact)
			die("out of memory", NULL);
		memcpy(exact, buf, len);
		snprintf(run_what, sizeof(run_what), "mutation %ld of seed %llu", i + 1,
			 (unsigned long long)seed);
		run_one(exact, len);
		free(exact);
		/* keep some mutants as new seeds, bounded */
		if (ncorpus < 4096 && !below(64))
			add_input(buf, len, NULL);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("ok 1 - fuzz_" FUZZ_NAME ": %zu corpus inputs and %ld "
	       "mutations, seed %llu\n",
	       replayed, count, (unsigned long long)seed);
	printf("# %.2f s, %.0f inputs/s\n", secs,
	       secs > 0 ? (double)((size_t)count + replayed) / secs : 0.0);
	free(buf);
	for (size_t i = 0; i < ncorpus; i++)
		free(corpus[i].data), free(corpus[i].name);
	free(corpus);
	return 0;
}
