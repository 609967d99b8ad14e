/*
 * notes.c - fabsched's notes in a job's comment text (Slurm's
 * SystemComment): "a; fabsched: Locality: waiting ...; b".  The text is
 * edited in place; it only ever gets shorter, so the caller's allocator
 * stays the owner.
 */
#include <stdbool.h>
#include <string.h>

#include "fabsched_select.h"
#include "fs_env.h"

bool fse_note_drop_wait(char *c)
{
	char *w, *end;

	if (!c || !(w = strstr(c, FS_WAIT_NOTE)))
		return false;
	end = strstr(w, "; ");
	if (end)
		memmove(w, end + 2, strlen(end + 2) + 1);
	else if (w == c)
		*c = '\0';
	else
		w[-2] = '\0'; /* and the "; " before it */
	return !*c;
}

bool fse_note_drop_last(char *c, const char *note)
{
	size_t lc, ln;

	if (!note || !*note || !c || (lc = strlen(c)) < (ln = strlen(note)) ||
	    strcmp(c + lc - ln, note))
		return false;
	if (lc == ln)
		*c = '\0';
	else if (lc >= ln + 2 && !strncmp(c + lc - ln - 2, "; ", 2))
		c[lc - ln - 2] = '\0';
	else
		return false; /* the end of another part, not a note */
	return !*c;
}
