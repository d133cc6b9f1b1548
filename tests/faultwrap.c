/*
 * faultwrap.c - what turns the program's objects into
 * tests/fieldmarshal-faults, the program with faults on request: linked
 * with -Wl,--wrap for the allocator (tests/allocwrap.h; SQLite allocates
 * through it too) and for write, fsync and rename, and with a SQLite VFS
 * that hands every call to the default one but can fail a write or a sync.
 * FF_FAULT names the fault (none when unset):
 *
 *   alloc:N    the N-th allocation fails, ours or SQLite's
 *   write:N    the N-th write fails as on a full disk (ENOSPC, SQLITE_FULL)
 *   fsync:N    the N-th fsync fails (EIO, SQLITE_IOERR_FSYNC)
 *   rename:N   the N-th rename fails (EIO)
 *   kill:N     SIGKILL just before the N-th write or fsync, as a crash
 *   full       every write fails as on a full disk, and so does growing
 *              the -shm file of a WAL database (which a reader does)
 *
 * Writes and fsyncs are those of files (the program's own, for -o, and
 * SQLite's); standard output goes through stdio and is not counted.  With
 * FF_FAULT_COUNT=FILE the counts of a run go to FILE at exit:
 * "allocs A writes W fsyncs F renames R".  tests/faults.sh drives it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ALLOCWRAP_SQLITE
#include "allocwrap.h"

ssize_t __real_write(int fd, const void *buf, size_t n);
int __real_fsync(int fd);
int __real_rename(const char *from, const char *to);
ssize_t __wrap_write(int fd, const void *buf, size_t n);
int __wrap_fsync(int fd);
int __wrap_rename(const char *from, const char *to);

enum { F_NONE, F_ALLOC, F_WRITE, F_FSYNC, F_RENAME, F_KILL, F_FULL };

static int fault;
static long fault_n, writes, fsyncs, renames, alloc_base;

/* Counts one write (or fsync, with SYNC); true when it is to fail.  Kills
 * the process when it is the one to die at. */
static bool hit(bool sync)
{
	long n = sync ? ++fsyncs : ++writes;

	if (fault == F_KILL && writes + fsyncs == fault_n)
		raise(SIGKILL);
	return fault == F_FULL ? !sync :
	       fault == (sync ? F_FSYNC : F_WRITE) && n == fault_n;
}

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
	if (hit(false)) {
		errno = ENOSPC;
		return -1;
	}
	return __real_write(fd, buf, n);
}

int __wrap_fsync(int fd)
{
	if (hit(true)) {
		errno = EIO;
		return -1;
	}
	return __real_fsync(fd);
}

int __wrap_rename(const char *from, const char *to)
{
	if (fault == F_RENAME && ++renames == fault_n) {
		errno = EIO;
		return -1;
	}
	if (fault != F_RENAME)
		renames++;
	return __real_rename(from, to);
}

/* --- the SQLite VFS: the default one, with writes and syncs counted ---- */

typedef struct vfile {
	sqlite3_file base;
	sqlite3_file *real;      /* the default VFS's file, just after this */
} vfile;

static sqlite3_vfs *real_vfs;

#define REAL(f) (((vfile *)(f))->real)

static int v_close(sqlite3_file *f)
{
	return REAL(f)->pMethods->xClose(REAL(f));
}

static int v_read(sqlite3_file *f, void *buf, int n, sqlite3_int64 off)
{
	return REAL(f)->pMethods->xRead(REAL(f), buf, n, off);
}

static int v_write(sqlite3_file *f, const void *buf, int n, sqlite3_int64 off)
{
	return hit(false) ? SQLITE_FULL : REAL(f)->pMethods->xWrite(REAL(f), buf, n, off);
}

static int v_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	return REAL(f)->pMethods->xTruncate(REAL(f), size);
}

static int v_sync(sqlite3_file *f, int flags)
{
	return hit(true) ? SQLITE_IOERR_FSYNC : REAL(f)->pMethods->xSync(REAL(f), flags);
}

static int v_size(sqlite3_file *f, sqlite3_int64 *size)
{
	return REAL(f)->pMethods->xFileSize(REAL(f), size);
}

static int v_lock(sqlite3_file *f, int lock)
{
	return REAL(f)->pMethods->xLock(REAL(f), lock);
}

static int v_unlock(sqlite3_file *f, int lock)
{
	return REAL(f)->pMethods->xUnlock(REAL(f), lock);
}

static int v_reserved(sqlite3_file *f, int *out)
{
	return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}

static int v_control(sqlite3_file *f, int op, void *arg)
{
	return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}

static int v_sector(sqlite3_file *f)
{
	return REAL(f)->pMethods->xSectorSize(REAL(f));
}

static int v_device(sqlite3_file *f)
{
	return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}

static int v_shm_map(sqlite3_file *f, int page, int size, int extend, void volatile **p)
{
	if (fault == F_FULL && extend) {        /* as the unix VFS fails then */
		errno = ENOSPC;
		return SQLITE_IOERR_SHMSIZE;
	}
	return REAL(f)->pMethods->xShmMap(REAL(f), page, size, extend, p);
}

static int v_shm_lock(sqlite3_file *f, int off, int n, int flags)
{
	return REAL(f)->pMethods->xShmLock(REAL(f), off, n, flags);
}

static void v_shm_barrier(sqlite3_file *f)
{
	REAL(f)->pMethods->xShmBarrier(REAL(f));
}

static int v_shm_unmap(sqlite3_file *f, int del)
{
	return REAL(f)->pMethods->xShmUnmap(REAL(f), del);
}

static int v_fetch(sqlite3_file *f, sqlite3_int64 off, int n, void **p)
{
	return REAL(f)->pMethods->xFetch(REAL(f), off, n, p);
}

static int v_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
	return REAL(f)->pMethods->xUnfetch(REAL(f), off, p);
}

static const sqlite3_io_methods v_methods = {
	3, v_close, v_read, v_write, v_truncate, v_sync, v_size, v_lock, v_unlock,
	v_reserved, v_control, v_sector, v_device, v_shm_map, v_shm_lock, v_shm_barrier,
	v_shm_unmap, v_fetch, v_unfetch,
};

static int v_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out)
{
	vfile *v = (vfile *)f;
	int rc;

	(void)vfs;
	v->real = (sqlite3_file *)(v + 1);
	rc = real_vfs->xOpen(real_vfs, name, v->real, flags, out);
	/* the default VFS's methods are version 3: ours can stand in */
	v->base.pMethods = rc == SQLITE_OK && v->real->pMethods ? &v_methods : NULL;
	return rc;
}

static void count_at_exit(void)
{
	const char *path = getenv("FF_FAULT_COUNT");
	FILE *f = path ? fopen(path, "w") : NULL;

	if (f) {
		fprintf(f, "allocs %ld writes %ld fsyncs %ld renames %ld\n", allocs - alloc_base,
			writes, fsyncs, renames);
		fclose(f);
	}
}

__attribute__((constructor)) static void faults_start(void)
{
	static sqlite3_vfs vfs;
	const char *spec = getenv("FF_FAULT");
	static const char *const names[] = {"", "alloc:", "write:", "fsync:", "rename:", "kill:"};

	if (!allocwrap_sqlite() || sqlite3_initialize() != SQLITE_OK ||
	    !(real_vfs = sqlite3_vfs_find(NULL)))
		abort();
	vfs = *real_vfs;
	vfs.zName = "fffaults";
	vfs.szOsFile = (int)sizeof(vfile) + real_vfs->szOsFile;
	vfs.xOpen = v_open;
	if (sqlite3_vfs_register(&vfs, 1) != SQLITE_OK)
		abort();
	atexit(count_at_exit);
	if (spec && !strcmp(spec, "full"))
		fault = F_FULL;
	for (int k = F_ALLOC; spec && k <= F_KILL; k++)
		if (!strncmp(spec, names[k], strlen(names[k]))) {
			fault = k;
			fault_n = atol(spec + strlen(names[k]));
		}
	alloc_base = allocs;            /* N counts from here */
	if (fault == F_ALLOC)
		alloc_fail_nth(fault_n);
}
