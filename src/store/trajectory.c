/*
 * trajectory.c - JuPedSim's SQLite trajectory format, version 2 (see
 * trajectory.h).  The walkable area goes in as a GEOMETRYCOLLECTION of
 * axis-aligned rectangles (runs of cells of one row, merged with the rows
 * below while they span the same columns): PedPy unites the parts into
 * one polygon.
 */
#define _XOPEN_SOURCE 700 /* realpath, mkstemp */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"
#include "trajectory.h"

#define FF_TRAJ_VERSION 2

struct ff_traj {
	sqlite3 *db;
	sqlite3_stmt *row;
	int64_t geo;             /* the geometry's hash */
	double cs;               /* metres per cell */
	char tmp[PATH_MAX + 16], target[PATH_MAX];
	char path[PATH_MAX];     /* the target as given, for messages */
};

static void msg(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void msg(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
}

/* Labels the 4-connected regions of passable cells that hold a passable
 * goal cell (all passable cells when none does): a w*h mask the caller
 * frees, or NULL when out of memory.  *PARTS gets how many regions. */
static uint8_t *walkable(const ff_level *l, int *parts)
{
	size_t n = (size_t)l->w * (size_t)l->h, head = 0, tail = 0;
	uint8_t *in = calloc(n, 1);
	int32_t *queue = malloc(n * sizeof *queue);
	bool any = false;

	*parts = 0;
	if (!in || !queue) {
		free(in);
		free(queue);
		return NULL;
	}
	for (int pass = 0; pass < 2 && !any; pass++)
		for (size_t c = 0; c < n; c++) {
			int x = (int)(c % (size_t)l->w), y = (int)(c / (size_t)l->w);

			if (in[c] || l->cells[c] == FF_WALL || (pass == 0 && !ff_level_is_goal(l, x, y)))
				continue;
			(*parts)++;
			any = true;
			in[c] = 1;
			queue[tail++] = (int32_t)c;
			while (head < tail) {
				static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
				int32_t q = queue[head++];
				int qx = q % l->w, qy = q / l->w;

				for (int k = 0; k < 4; k++) {
					int nx = qx + dx[k], ny = qy + dy[k];
					size_t m = (size_t)ny * (size_t)l->w + (size_t)nx;

					if (!ff_level_in(l, nx, ny) || in[m] || l->cells[m] == FF_WALL)
						continue;
					in[m] = 1;
					queue[tail++] = (int32_t)m;
				}
			}
		}
	free(queue);
	return in;
}

int ff_traj_parts(const ff_level *l)
{
	int parts;
	uint8_t *in = walkable(l, &parts);

	free(in);
	return in ? parts : 0;
}

static void rect_wkt(ff_buf *b, double cs, int x0, int y0, int x1, int y1, bool *first)
{
	double ax = x0 * cs, ay = y0 * cs, bx = (x1 + 1) * cs, by = (y1 + 1) * cs;

	ff_buf_printf(b, "%sPOLYGON ((%.10g %.10g, %.10g %.10g, %.10g %.10g, %.10g %.10g, "
		      "%.10g %.10g))", *first ? "" : ", ", ax, ay, bx, ay, bx, by, ax, by, ax, ay);
	*first = false;
}

/* The walkable area of L as WKT in B: rectangles of runs of cells, each
 * grown downwards while the next row has the very same run. */
static bool area_wkt(const ff_level *l, double cs, ff_buf *b)
{
	int parts, w = l->w;
	uint8_t *in = walkable(l, &parts);
	int *x1 = in ? malloc((size_t)w * 3 * sizeof *x1) : NULL, *top, *seen;
	bool first = true;

	if (!x1) {
		free(in);
		return false;
	}
	/* The open rectangle whose run starts at column x: its last column
	 * x1[x] (-1: none), first row top[x], and the last row that
	 * continued it, seen[x]. */
	top = x1 + w;
	seen = top + w;
	for (int x = 0; x < w; x++)
		x1[x] = -1;
	ff_buf_puts(b, "GEOMETRYCOLLECTION (");
	for (int y = 0; y <= l->h; y++) {
		const uint8_t *row = in + (size_t)y * (size_t)w;

		for (int x = 0; y < l->h && x < w; x++) {
			int e = x;

			if (!row[x])
				continue;
			while (e + 1 < w && row[e + 1])
				e++;
			if (x1[x] != e) {
				if (x1[x] >= 0)
					rect_wkt(b, cs, x, top[x], x1[x], y - 1, &first);
				x1[x] = e;
				top[x] = y;
			}
			seen[x] = y;
			x = e;
		}
		for (int x = 0; x < w; x++)
			if (x1[x] >= 0 && seen[x] != y) {
				rect_wkt(b, cs, x, top[x], x1[x], y - 1, &first);
				x1[x] = -1;
			}
	}
	ff_buf_putc(b, ')');
	free(x1);
	free(in);
	return ff_buf_ok(b);
}

static int exec(sqlite3 *db, const char *sql)
{
	return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* True when the file at PATH is a database with our two tables. */
static bool is_trajectory_file(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int found = 0;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return false;
	}
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
			       "AND name IN ('trajectory_data', 'metadata')", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		found = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return found == 2;
}

/* Where to write: PATH, or the file a symbolic link names; refuses what
 * is not a regular file and, unless FORCE, a file that is not ours. */
static bool check_target(ff_traj *t, const char *path, bool force, char *err, size_t n)
{
	struct stat st;

	if (!realpath(path, t->target)) {
		if (errno != ENOENT || strlen(path) >= sizeof t->target) {
			msg(err, n, "cannot write '%s': %s", path, strerror(errno));
			return false;
		}
		strcpy(t->target, path);
		return true;
	}
	if (stat(t->target, &st) != 0) {
		msg(err, n, "cannot write '%s': %s", path, strerror(errno));
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		msg(err, n, "cannot write trajectories to '%s': not a regular file", path);
		return false;
	}
	if (!force && st.st_size > 0 && !is_trajectory_file(t->target)) {
		msg(err, n, "'%s' exists and is not a trajectory file (use --force to replace it)",
		    path);
		return false;
	}
	return true;
}

static uint64_t fnv64(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* Creates the tables and writes the metadata and the geometry. */
static bool schema(ff_traj *t, double fps, const ff_level *l)
{
	ff_buf wkt = FF_BUF_INIT;
	sqlite3_stmt *st = NULL;
	bool ok;
	int rc;

	if (!area_wkt(l, t->cs, &wkt)) {
		ff_buf_fini(&wkt);
		return false;
	}
	t->geo = (int64_t)fnv64(wkt.data, wkt.len);
	rc = exec(t->db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN;"
		  "CREATE TABLE trajectory_data (frame INTEGER NOT NULL, id INTEGER NOT NULL,"
		  " pos_x REAL NOT NULL, pos_y REAL NOT NULL, ori_x REAL NOT NULL,"
		  " ori_y REAL NOT NULL);"
		  "CREATE TABLE metadata (key TEXT NOT NULL UNIQUE PRIMARY KEY, value TEXT NOT NULL);"
		  "CREATE TABLE geometry (hash INTEGER NOT NULL, wkt TEXT NOT NULL);"
		  "CREATE UNIQUE INDEX geometry_hash ON geometry(hash);"
		  "CREATE TABLE frame_data (frame INTEGER NOT NULL, geometry_hash INTEGER NOT NULL);");
	ok = rc == SQLITE_OK &&
	     sqlite3_prepare_v2(t->db, "INSERT INTO metadata VALUES ('version', ?1), ('fps', ?2),"
				" ('xmin', '0'), ('ymin', '0'), ('xmax', ?3), ('ymax', ?4)",
				-1, &st, NULL) == SQLITE_OK &&
	     sqlite3_bind_int(st, 1, FF_TRAJ_VERSION) == SQLITE_OK &&
	     sqlite3_bind_double(st, 2, fps) == SQLITE_OK &&
	     sqlite3_bind_double(st, 3, l->w * t->cs) == SQLITE_OK &&
	     sqlite3_bind_double(st, 4, l->h * t->cs) == SQLITE_OK && sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	st = NULL;
	ok = ok &&
	     sqlite3_prepare_v2(t->db, "INSERT INTO geometry VALUES (?1, ?2)", -1, &st, NULL) == SQLITE_OK &&
	     sqlite3_bind_int64(st, 1, t->geo) == SQLITE_OK &&
	     sqlite3_bind_text(st, 2, wkt.data, (int)wkt.len, SQLITE_STATIC) == SQLITE_OK &&
	     sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	ff_buf_fini(&wkt);
	return ok && sqlite3_prepare_v2(t->db, "INSERT INTO trajectory_data VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
					-1, &t->row, NULL) == SQLITE_OK;
}

ff_traj *ff_traj_create(const char *path, bool force, double fps, const ff_level *l,
			double cell_size, char *err, size_t n)
{
	ff_traj *t = calloc(1, sizeof *t);
	int fd;

	if (!t) {
		msg(err, n, "out of memory");
		return NULL;
	}
	t->cs = cell_size;
	snprintf(t->path, sizeof t->path, "%s", path);
	if (!check_target(t, path, force, err, n)) {
		free(t);
		return NULL;
	}
	snprintf(t->tmp, sizeof t->tmp, "%s.tmpXXXXXX", t->target);
	if ((fd = mkstemp(t->tmp)) < 0) {
		msg(err, n, "cannot write '%s': %s", path, strerror(errno));
		free(t);
		return NULL;
	}
	close(fd);
	if (sqlite3_open_v2(t->tmp, &t->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
	    !schema(t, fps, l)) {
		msg(err, n, "cannot write '%s': %s", path,
		    t->db ? sqlite3_errmsg(t->db) : "out of memory");
		ff_traj_abort(t);
		return NULL;
	}
	return t;
}

ff_err ff_traj_frame(ff_traj *t, long frame, const ff_sim *sim, char *err, size_t n)
{
	sqlite3_stmt *st = NULL;
	size_t count = ff_sim_count(sim);
	bool ok = true;

	for (size_t i = 0; i < count && ok; i++) {
		ff_agent a;
		double v, ox = 0, oy = 0;

		ff_sim_agent(sim, i, &a);
		if (a.state == FF_AGENT_ARRIVED)
			continue;
		v = sqrt(a.vx * a.vx + a.vy * a.vy);
		if (v > 0)
			ox = a.vx / v, oy = a.vy / v;
		ok = sqlite3_reset(t->row) == SQLITE_OK &&
		     sqlite3_bind_int64(t->row, 1, frame) == SQLITE_OK &&
		     sqlite3_bind_int64(t->row, 2, a.id) == SQLITE_OK &&
		     sqlite3_bind_double(t->row, 3, a.x * t->cs) == SQLITE_OK &&
		     sqlite3_bind_double(t->row, 4, a.y * t->cs) == SQLITE_OK &&
		     sqlite3_bind_double(t->row, 5, ox) == SQLITE_OK &&
		     sqlite3_bind_double(t->row, 6, oy) == SQLITE_OK &&
		     sqlite3_step(t->row) == SQLITE_DONE;
	}
	ok = ok &&
	     sqlite3_prepare_v2(t->db, "INSERT INTO frame_data VALUES (?1, ?2)", -1, &st, NULL) == SQLITE_OK &&
	     sqlite3_bind_int64(st, 1, frame) == SQLITE_OK && sqlite3_bind_int64(st, 2, t->geo) == SQLITE_OK &&
	     sqlite3_step(st) == SQLITE_DONE;
	sqlite3_finalize(st);
	if (!ok) {
		msg(err, n, "cannot write '%s': %s", t->path, sqlite3_errmsg(t->db));
		return FF_E_IO;
	}
	return FF_OK;
}

ff_err ff_traj_finish(ff_traj *t, char *err, size_t n)
{
	int rc;

	sqlite3_finalize(t->row);
	t->row = NULL;
	rc = exec(t->db, "CREATE INDEX frame_id_idx ON trajectory_data(frame, id); COMMIT;");
	if (rc != SQLITE_OK) {
		msg(err, n, "cannot write '%s': %s", t->path, sqlite3_errmsg(t->db));
		ff_traj_abort(t);
		return FF_E_IO;
	}
	rc = sqlite3_close(t->db);
	t->db = NULL;
	if (rc != SQLITE_OK || rename(t->tmp, t->target) != 0) {
		msg(err, n, "cannot write '%s': %s", t->path,
		    rc != SQLITE_OK ? "cannot close the database" : strerror(errno));
		ff_traj_abort(t);
		return FF_E_IO;
	}
	free(t);
	return FF_OK;
}

const char *ff_traj_tmp(const ff_traj *t)
{
	return t->tmp;
}

void ff_traj_abort(ff_traj *t)
{
	if (!t)
		return;
	sqlite3_finalize(t->row);
	sqlite3_close(t->db);
	unlink(t->tmp);
	free(t);
}
