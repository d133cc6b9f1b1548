/*
 * scratch.h - the temporary file a command is writing (beside the file it
 * will be renamed over): SIGINT, SIGTERM or SIGHUP while it is set remove
 * it and say, in one line, that the target was not written, before the
 * program dies of the signal as it would have.  Signals the program
 * ignores or handles itself (the editor) are left alone.
 */
#ifndef FF_CLI_SCRATCH_H
#define FF_CLI_SCRATCH_H

/* Before the temporary file is made: those signals wait until it is set
 * (or cleared), so that none can leave it behind in between. */
void ff_cli_scratch_hold(void);
/* TMP is being written in place of TARGET (both copied). */
void ff_cli_scratch_set(const char *tmp, const char *target);
/* TMP is renamed or removed: signals act as before again, and those held
 * arrive. */
void ff_cli_scratch_clear(void);

#endif
