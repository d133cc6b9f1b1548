/*
 * solver_bucketq.c - the solver's circular bucket queue (layout in solver_int.h).
 *
 * Blocks come from a LIFO free chain, then from a bump pointer below
 * fresh_lim (repair lowers the limit to keep a work list at the pool's top).
 * When the pool runs dry the ring is compacted (stale entries dropped);
 * when that is not enough the queue spills (solver_int.h): the highest
 * buckets are emptied, keys from klim up are no longer stored, and the grid
 * is scanned for them when the settling reaches klim.  Repair never spills
 * (a failed push makes it fall back to a full solve).
 */
#include <assert.h>

#include "solver_int.h"

/* Buckets that hold entries at once on ordinary levels (a wavefront's
 * width in buckets), which sizes the pool's blocks. */
enum { LIVE_BUCKETS = 1024 };

void ffq_size(size_t n, int *bs, int *nblk)
{
	size_t want = n / ((size_t)LIVE_BUCKETS * 32), blocks;
	int b = 4;

	while (b < 32 && (size_t)b * 2 <= want)
		b *= 2;
	/* 3/8 of an entry per cell, plus room for the live buckets' partly
	 * filled last blocks */
	blocks = (n * 3 / 8 + (size_t)b - 1) / (size_t)b + LIVE_BUCKETS / 2;
	if (blocks < 2 * FF_RING)
		blocks = 2 * FF_RING;
	*bs = b;
	*nblk = (int)blocks + 8;
}

void ffq_reset(ff_solver *s)
{
	for (int i = 0; i < FF_RING; i++)
		s->ring[i] = (ff_bucket){-1, -1, 0};
	s->ovf = (ff_bucket){-1, -1, 0};
	s->ovf_min = LONG_MAX;
	s->klim = LONG_MAX;
	s->freeblk = -1;
	s->fresh = 0;
	s->fresh_lim = s->nblk;
	s->qcount = 0;
	s->kcur = 0;
	s->cur_blk = -1;
	s->cur_pos = 0;
	s->acc_blk = -1;
	s->acc_pos = 0;
	s->qfail = false;
	s->qcheck = false;
}

static int32_t take_block(ff_solver *s)
{
	int32_t b = s->freeblk;

	if (b >= 0) {
		s->freeblk = s->bnext[b];
		return b;
	}
	if (s->fresh < s->fresh_lim)
		return s->fresh++;
	return -1;
}

static void free_chain(ff_solver *s, int32_t head, int32_t tail)
{
	if (head < 0)
		return;
	s->bnext[tail] = s->freeblk;
	s->freeblk = head;
}

/* Entries (stale too) and blocks of bucket B. */
static long bucket_count(const ff_solver *s, const ff_bucket *b, long *blocks)
{
	long n = 0, nb = 0;

	for (int32_t blk = b->head; blk >= 0; blk = blk == b->tail ? -1 : s->bnext[blk]) {
		n += blk == b->tail ? b->fill : s->bs;
		nb++;
	}
	if (blocks)
		*blocks = nb;
	return n;
}

/* True while queued cell C still waits: to be settled, or in repair's
 * check (qcheck) to be examined. */
static bool waiting(const ff_solver *s, int32_t c)
{
	return !(s->cf[c] & (s->qcheck ? FL_INA | FL_CHECKED : FL_SETTLED));
}

static bool live_in(const ff_solver *s, int32_t c, long k)
{
	if (!waiting(s, c))
		return false;
	return s->qcheck ? ffq_key(s, s->val[c]) == k : ffq_key(s, s->val[c]) <= k;
}

/* Rewrites bucket B (holding key K) keeping only live entries. */
static void compact_bucket(ff_solver *s, ff_bucket *b, long k)
{
	int32_t rb = b->head, wb = b->head, wpos = 0;
	size_t bs = (size_t)s->bs;

	while (rb >= 0) {
		int32_t lim = rb == b->tail ? b->fill : s->bs;
		for (int32_t i = 0; i < lim; i++) {
			int32_t c = s->ent[(size_t)rb * bs + (size_t)i];
			if (!live_in(s, c, k))
				continue;
			if (wpos == s->bs)
				wb = s->bnext[wb], wpos = 0;
			s->ent[(size_t)wb * bs + (size_t)wpos++] = c;
			if (b != &s->ovf)
				s->qcount++;
		}
		rb = rb == b->tail ? -1 : s->bnext[rb];
	}
	if (wpos == 0) {
		free_chain(s, b->head, b->tail);
		*b = (ff_bucket){-1, -1, 0};
		return;
	}
	if (wb != b->tail)
		free_chain(s, s->bnext[wb], b->tail);
	b->tail = wb;
	b->fill = wpos;
}

static void compact(ff_solver *s)
{
	long cur = s->cur_blk >= 0 ? s->kcur : -1;

	for (long k = s->kcur; k < s->kcur + FF_RING; k++) {
		ff_bucket *b = &s->ring[k & FF_RING_MASK];
		if (k == cur || b->head < 0)
			continue;
		s->qcount -= bucket_count(s, b, NULL);  /* recounted below */
		compact_bucket(s, b, k);
	}
}

/* Empties the highest buckets (never kcur) until a quarter of the pool is
 * free, and the overflow chain; keys from the lowest emptied one up (or
 * from K, the key that found no room) are no longer stored. */
static void spill(ff_solver *s, long k)
{
	long top = s->kcur + FF_RING - 1, lo, freed = 0, want = s->nblk / 4;

	if (top > s->klim - 1)
		top = s->klim - 1;
	lo = top + 1;
	free_chain(s, s->ovf.head, s->ovf.tail);
	s->ovf = (ff_bucket){-1, -1, 0};
	s->ovf_min = LONG_MAX;
	for (long j = top; j > s->kcur && freed < want; j--) {
		ff_bucket *b = &s->ring[j & FF_RING_MASK];
		long nb;
		lo = j;
		if (b->head < 0)
			continue;
		s->qcount -= bucket_count(s, b, &nb);
		freed += nb;
		free_chain(s, b->head, b->tail);
		*b = (ff_bucket){-1, -1, 0};
	}
	s->klim = freed > 0 || k >= lo ? lo : k;
}

bool ffq_grow(ff_solver *s, ff_bucket *b, long k)
{
	int32_t nb = take_block(s);

	if (nb < 0 && s->fresh_lim == s->nblk) {
		compact(s);
		nb = take_block(s);
		if (nb < 0 && !s->qcheck) {
			spill(s, k);
			if (k >= s->klim)
				return false;        /* not stored, not lost */
			nb = take_block(s);
		}
	}
	if (nb < 0) {
		s->qfail = true;
		return false;
	}
	ffq_link(s, b, nb);
	return true;
}

/* Moves overflow entries whose key falls in the ring's window into the
 * ring; drops stale ones; recomputes ovf_min. */
static void rescan(ff_solver *s)
{
	ff_bucket old = s->ovf;
	size_t bs = (size_t)s->bs;

	s->ovf = (ff_bucket){-1, -1, 0};
	s->ovf_min = LONG_MAX;
	for (int32_t blk = old.head; blk >= 0;) {
		int32_t lim = blk == old.tail ? old.fill : s->bs;
		int32_t next = blk == old.tail ? -1 : s->bnext[blk];
		/* free first: the entries are read before any push reuses it */
		int32_t tmp[64], ntmp = 0;
		for (int32_t i = 0; i < lim; i++) {
			int32_t c = s->ent[(size_t)blk * bs + (size_t)i];
			long k;
			if (!waiting(s, c))
				continue;
			k = ffq_key(s, s->val[c]);
			if (k < s->kcur)
				continue;
			tmp[ntmp++] = c;
			if (ntmp == 64) {
				for (int j = 0; j < ntmp; j++)
					ffq_push(s, tmp[j], ffq_key(s, s->val[tmp[j]]));
				ntmp = 0;
			}
		}
		s->bnext[blk] = s->freeblk;
		s->freeblk = blk;
		for (int j = 0; j < ntmp; j++)
			ffq_push(s, tmp[j], ffq_key(s, s->val[tmp[j]]));
		blk = next;
	}
}

/* After a spill, once everything below klim is settled: queues again every
 * reached, unsettled cell (the ring and the overflow chain are empty). */
static void unspill(ff_solver *s)
{
	const size_t end = s->np - (size_t)s->W - 1;

	assert(s->qcount == 0 && s->ovf.head < 0);
	s->kcur = s->klim;
	s->klim = LONG_MAX;
	s->spills++;
	for (size_t p = (size_t)s->W + 1; p < end; p++) {
		long k;
		if ((s->cf[p] & FL_SETTLED) || s->val[p] == INFINITY)
			continue;
		k = ffq_key(s, s->val[p]);
		ffq_push(s, (int32_t)p, k > s->kcur ? k : s->kcur);
	}
}

bool ffq_next_bucket(ff_solver *s)
{
	for (;;) {
		if (s->klim != LONG_MAX && (s->kcur >= s->klim || s->qcount == 0)) {
			unspill(s);
			continue;
		}
		if (s->kcur >= s->ovf_min || (s->qcount == 0 && s->ovf.head >= 0)) {
			if (s->qcount == 0 && s->ovf_min > s->kcur &&
			    s->ovf_min != LONG_MAX)
				s->kcur = s->ovf_min;
			rescan(s);
			if (s->qcount == 0 && s->ovf.head < 0)
				return false;
			continue;
		}
		if (s->qcount == 0)
			return false;
		if (s->ring[s->kcur & FF_RING_MASK].head >= 0) {
			s->cur_blk = s->ring[s->kcur & FF_RING_MASK].head;
			s->cur_pos = 0;
			return true;
		}
		s->kcur++;
	}
}

void ffq_drop_current(ff_solver *s)
{
	ff_bucket *b = &s->ring[s->kcur & FF_RING_MASK];

	free_chain(s, b->head, b->tail);
	*b = (ff_bucket){-1, -1, 0};
	s->cur_blk = -1;
	s->kcur++;
}

int32_t ffq_pop(ff_solver *s, long kmax)
{
	for (;;) {
		ff_bucket *b;
		int32_t blk, lim, c;

		if (s->cur_blk < 0) {
			if (!ffq_next_bucket(s))
				return -1;
		}
		if (s->kcur > kmax)
			return -2;
		b = &s->ring[s->kcur & FF_RING_MASK];
		blk = s->cur_blk;
		lim = blk == b->tail ? b->fill : s->bs;
		if (s->cur_pos >= lim) {
			if (blk == b->tail) {
				ffq_drop_current(s);
			} else {
				s->cur_blk = s->bnext[blk];
				s->cur_pos = 0;
			}
			continue;
		}
		c = s->ent[(size_t)blk * (size_t)s->bs + (size_t)s->cur_pos++];
		s->qcount--;
		if (live_in(s, c, s->kcur))
			return c;
	}
}
