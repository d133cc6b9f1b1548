/* util.c - file I/O, level loading and error reporting for subcommands. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/bigmem.h"
#include "core/level_text.h"
#include "db.h"
#include "levelfile.h"
#include "scratch.h"
#include "util.h"

/* Where ff_cli_hold() keeps the messages, or NULL: print them. */
static char *held;
static size_t held_size;

/* Prints PREFIX and the message to stderr, control characters escaped;
 * while held, adds it to the held line instead. */
static void vsay(const char *prefix, const char *fmt, va_list ap)
{
	char raw[4096], esc[4096];
	size_t n;

	vsnprintf(raw, sizeof raw, fmt, ap);
	ff_escape(esc, sizeof esc, raw);
	if (!held) {
		fprintf(stderr, "%s%s\n", prefix, esc);
		return;
	}
	n = strlen(held);
	snprintf(held + n, held_size - n, "%s%s%s", n ? "; " : "", prefix, esc);
}

void ff_cli_hold(char *buf, size_t size)
{
	held = size ? buf : NULL, held_size = size;
	if (held)
		held[0] = '\0';
}

void ff_cli_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("", fmt, ap);
	va_end(ap);
}

void ff_cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("fieldmarshal: ", fmt, ap);
	va_end(ap);
}

int ff_cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("fieldmarshal: ", fmt, ap);
	va_end(ap);
	fprintf(stderr, "try 'fieldmarshal %s --help'\n", cmd);
	return FF_EXIT_USAGE;
}

/* What a file that is not a regular one is, for messages. */
static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" :
	       S_ISCHR(m) || S_ISBLK(m) ? "a device" : "not a regular file";
}

/* Reads FD to its end into a NUL-terminated buffer the caller frees; NULL
 * on failure: *BIG when the file holds more than FF_CLI_FILE_MAX bytes,
 * else with ERRNO saying why (set by read() or the allocator).  HINT is
 * the size it probably has (0 when unknown), so a file is read into one
 * buffer without copies. */
static char *slurp(int fd, size_t hint, size_t *len, bool *big)
{
	size_t n = 0, cap = hint + 2 > 1 << 16 ? hint + 2 : 1 << 16;
	char *buf = ff_big_malloc(cap), *b;
	ssize_t got;

	*big = false;
	while (buf) {
		if (n > FF_CLI_FILE_MAX) {
			*big = true;
			break;
		}
		if (n == cap - 1) {
			cap = cap * 2 < FF_CLI_FILE_MAX + 2 ? cap * 2 : FF_CLI_FILE_MAX + 2;
			if (!(b = realloc(buf, cap)))
				break;
			buf = b;
		}
		got = read(fd, buf + n, cap - 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			break;
		if (got == 0) {
			buf[n] = '\0';
			*len = n;
			return buf;
		}
		n += (size_t)got;
	}
	free(buf);
	return NULL;
}

char *ff_cli_read_file_quiet(const char *path, size_t *len, char *why, size_t size,
			     bool *located)
{
	bool in = !strcmp(path, "-");
	/* O_NONBLOCK: a FIFO nobody writes to must not hang the open */
	int fd = in ? STDIN_FILENO : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	const char *name = in ? "standard input" : path;
	struct stat st;
	ff_diag diag;
	bool big;
	char *buf = NULL;

	*located = false;
	if (fd < 0 || (!in && fstat(fd, &st))) {
		snprintf(why, size, "cannot open '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!in && !S_ISREG(st.st_mode)) {
		snprintf(why, size, "cannot read '%s': %s, not a regular file%s", path,
			 file_kind(st.st_mode), S_ISDIR(st.st_mode) ? "" :
			 " (to read a pipe, give '-' and redirect it)");
		close(fd);
		return NULL;
	}
	big = !in && (size_t)st.st_size > FF_CLI_FILE_MAX;
	buf = big ? NULL : slurp(fd, in ? 0 : (size_t)st.st_size, len, &big);
	if (big)
		snprintf(why, size, "cannot read '%s': larger than %zu MiB, more than any level or "
			 "replay needs", name, FF_CLI_FILE_MAX >> 20);
	else if (!buf)
		snprintf(why, size, "cannot read '%s': %s", name, strerror(errno));
	else if (ff_text_has_nul(buf, *len, &diag)) {
		snprintf(why, size, "%s:%d:%d: %s", path, diag.line, diag.col, diag.msg);
		*located = true;
		free(buf);
		buf = NULL;
	}
	if (!in)
		close(fd);
	return buf;
}

char *ff_cli_read_file(const char *path, size_t *len)
{
	char why[PATH_MAX + 256];
	bool located;
	char *buf = ff_cli_read_file_quiet(path, len, why, sizeof why, &located);

	if (!buf && located)
		ff_cli_say("%s", why);
	else if (!buf)
		ff_cli_error("%s", why);
	return buf;
}

/* The mode a rewritten file keeps: its own, or what a new file would get. */
static mode_t file_mode(const char *path)
{
	struct stat st;
	mode_t um;

	if (stat(path, &st) == 0)
		return st.st_mode & 07777;
	um = umask(0);
	umask(um);
	return 0666 & ~um;
}

/* Writes all LEN bytes of DATA to FD; false with ERRNO set when it cannot.
 * Plain write(2), fsync(2) and rename(2) calls, here and below, so the
 * fault-injecting test build (tests/faultwrap.c) reaches every one. */
static bool write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return false;
		}
		data += n, len -= (size_t)n;
	}
	return true;
}

/* Closes FD, keeping OK false and ERRNO at the first failure. */
static bool close_ok(int fd, bool ok)
{
	int e = errno;

	if (close(fd) != 0 && ok)
		return false;           /* ERRNO from close() */
	errno = e;
	return ok;
}

/* Writes to TARGET in place: a pipe, a device, a terminal. */
static bool write_in_place(const char *path, const char *target, const char *data, size_t len)
{
	int fd = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	bool ok = fd >= 0 && close_ok(fd, write_all(fd, data, len));

	if (!ok)
		ff_cli_error("cannot write '%s': %s", path, strerror(errno));
	return ok;
}

/* The file PATH names once symbolic links are followed (at most 40), into
 * OUT: a link whose target does not exist names that target all the same,
 * so writing through a link always writes the file it names, new or not,
 * and the link stays.  False with ERRNO set when a link cannot be read or
 * the chain is too long. */
static bool follow_links(const char *path, char out[PATH_MAX])
{
	char link[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (snprintf(out, PATH_MAX, "%s", path) >= PATH_MAX)
		return errno = ENAMETOOLONG, false;
	for (int i = 0; i < 40; i++) {
		if (lstat(out, &st) || !S_ISLNK(st.st_mode))
			return true;
		if ((n = readlink(out, link, sizeof link - 1)) < 0)
			return false;
		link[n] = '\0';
		ff_cli_dir_of(out, dir, sizeof dir);
		if ((link[0] == '/' ? snprintf(out, PATH_MAX, "%s", link) :
		     snprintf(out, PATH_MAX, "%s/%s", dir, link)) >= PATH_MAX)
			return errno = ENAMETOOLONG, false;
	}
	return errno = ELOOP, false;
}

bool ff_cli_write_file(const char *path, const char *data, size_t len)
{
	char target[PATH_MAX], tmp[PATH_MAX + 16];
	struct stat st;
	bool ok;
	int fd;

	if (!strcmp(path, "-"))
		return fwrite(data, 1, len, stdout) == len && ff_cli_flush_stdout();
	if (!follow_links(path, target)) {
		ff_cli_error("cannot write '%s': %s", path, strerror(errno));
		return false;
	}
	if (stat(target, &st) == 0 && S_ISDIR(st.st_mode)) {
		ff_cli_error("cannot write '%s': it is a directory", path);
		return false;
	}
	/* only a regular file is replaced; anything else is written to */
	if (stat(target, &st) == 0 && !S_ISREG(st.st_mode))
		return write_in_place(path, target, data, len);
	if (snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", target) >= (int)sizeof tmp) {
		ff_cli_error("path too long: '%s'", path);
		return false;
	}
	ff_cli_scratch_hold();
	if ((fd = mkstemp(tmp)) < 0) {
		ff_cli_error("cannot write '%s': %s", path, strerror(errno));
		ff_cli_scratch_clear();
		return false;
	}
	ff_cli_scratch_set(tmp, path);
	ok = fchmod(fd, file_mode(target)) == 0 && write_all(fd, data, len) && fsync(fd) == 0;
	ok = close_ok(fd, ok);
	ff_cli_scratch_clear();
	ok = ok && rename(tmp, target) == 0;
	if (!ok) {
		ff_cli_error("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
	}
	return ok;
}

bool ff_cli_flush_stdout(void)
{
	static bool told;
	int err = errno;

	if (fflush(stdout) != 0)
		err = errno;
	if (!ferror(stdout))
		return true;
	if (!told)
		ff_cli_error("cannot write to standard output: %s", strerror(err));
	told = true;
	return false;
}

void ff_cli_dir_of(const char *path, char *dir, size_t n)
{
	char copy[PATH_MAX];

	snprintf(copy, sizeof copy, "%s", path);
	snprintf(dir, n, "%s", dirname(copy));
}

void ff_cli_name_from_path(const char *path, char name[FF_NAME_MAX])
{
	const char *base = strrchr(path, '/'), *dot;
	size_t n;

	base = base ? base + 1 : path;
	dot = strchr(base, '.');
	n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	if (n >= FF_NAME_MAX)
		n = FF_NAME_MAX - 1;
	for (size_t i = 0; i < n; i++) {
		char c = base[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
		name[i] = ok ? c : '_';
	}
	if (n == 0)
		name[n++] = '_';
	name[n] = '\0';
}

ff_level *ff_cli_load_level(const char *arg)
{
	if (strcmp(arg, "-") && access(arg, F_OK) != 0)
		return ff_cli_load_stored(arg); /* no such file: a stored level */
	return ff_cli_parse_level(arg, NULL);
}

void ff_cli_solve_error(const char *what, const ff_solver *s, const ff_level *l,
			const ff_shape *goals, int ngoals, ff_err e)
{
	ff_cli_goal_error(what, l, goals, ngoals, ff_solver_bad_goal(s), e);
}

void ff_cli_goal_error(const char *what, const ff_level *l, const ff_shape *goals, int ngoals,
		       int i, ff_err e)
{
	const ff_shape *g = i >= 0 && i < ngoals ? &goals[i] : NULL;

	if (!g)
		ff_cli_error("cannot solve '%s': %s", what, e == FF_E_WALL ?
			     "every goal cell is a wall" : ff_strerror(e));
	else if (e == FF_E_WALL)
		ff_cli_error("cannot solve '%s': goal %d at %d,%d lies entirely on walls", what,
			     i + 1, g->x, g->y);
	else if (e == FF_E_RANGE)
		ff_cli_error("cannot solve '%s': goal %d at %d,%d is outside the %dx%d level",
			     what, i + 1, g->x, g->y, l->w, l->h);
	else
		ff_cli_error("cannot solve '%s': goal %d at %d,%d: %s", what, i + 1, g->x, g->y,
			     ff_strerror(e));
}

/* The value of KEY ("MemAvailable:") in kB in /proc/meminfo, as bytes;
 * 0 when unknown. */
static size_t meminfo(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	size_t v = 0, k = strlen(key);

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, key, k)) {
			v = (size_t)strtoull(line + k, NULL, 10) * 1024;
			break;
		}
	fclose(f);
	return v;
}

/* What limit RES leaves above USED bytes; SIZE_MAX when unlimited. */
static size_t left_under(int res, size_t used)
{
	struct rlimit rl;

	if (getrlimit(res, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return SIZE_MAX;
	return rl.rlim_cur > used ? (size_t)(rl.rlim_cur - used) : 1;
}

size_t ff_cli_mem_avail(void)
{
	size_t avail = meminfo("MemAvailable:"), vm = 0, as;
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long pages;

	if (f) {
		if (fscanf(f, "%lu", &pages) == 1)
			vm = (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
		fclose(f);
	}
	as = left_under(RLIMIT_AS, vm);
	if (left_under(RLIMIT_DATA, vm) < as)
		as = left_under(RLIMIT_DATA, vm);
	if (as != SIZE_MAX && (!avail || as < avail))
		avail = as;
	return avail;
}

ff_solver *ff_cli_solver_for(const char *what, const ff_level *l, const ff_solver_opts *o)
{
	char why[200];
	ff_solver *s;

	if (o->method == FF_METHOD_HIER) {
		if (!(s = ff_solver_create_hier(l->w, l->h)))
			ff_cli_error("cannot solve '%s': out of memory", what);
		return s;
	}
	if (ff_solver_too_big(l->w, l->h, ff_cli_mem_avail(), why, sizeof why)) {
		ff_cli_error("cannot solve '%s': %s", what, why);
		return NULL;
	}
	if (!(s = ff_solver_create(l->w, l->h)))
		ff_cli_error("cannot solve '%s': out of memory", what);
	return s;
}

bool ff_cli_parse_xy(const char *s, int *x, int *y)
{
	char *e;
	long a, b;

	errno = 0;
	a = strtol(s, &e, 10);
	if (e == s || *e != ',' || errno)
		return false;
	s = e + 1;
	b = strtol(s, &e, 10);
	if (e == s || *e || errno || a < -1000000 || a > 1000000 || b < -1000000 || b > 1000000)
		return false;
	*x = (int)a, *y = (int)b;
	return true;
}
