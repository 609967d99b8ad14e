/*
 * sanitizer_defaults.c - default sanitizer options of the root helpers and
 * the command in a build made with -DFABSCHED_SANITIZER_LOG='"DIR"' (make
 * check-asan).  slurmd runs Prolog and Epilog with an environment of its
 * own making, without ASAN_OPTIONS: these defaults send their reports to
 * DIR/helper.PID (and DIR/ubsan-helper.PID) all the same, keep leak
 * checking on and do not change the exit status (the reports are read
 * after the suite).  ASAN_OPTIONS and UBSAN_OPTIONS, when set, win.
 * In any other build this file defines nothing.
 */
#ifdef FABSCHED_SANITIZER_LOG
const char *__asan_default_options(void);
const char *__ubsan_default_options(void);

const char *__asan_default_options(void)
{
	return "log_path=" FABSCHED_SANITIZER_LOG
	       "/helper:detect_leaks=1:exitcode=0:abort_on_error=1";
}

const char *__ubsan_default_options(void)
{
	return "log_path=" FABSCHED_SANITIZER_LOG
	       "/ubsan-helper:print_stacktrace=1:halt_on_error=0";
}
#else
typedef int fabsched_no_sanitizer_defaults;
#endif
