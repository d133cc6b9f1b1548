/*
 * bucketq.c - the solver's circular bucket queue (layout in solver_int.h).
 *
 * Blocks come from a LIFO free chain, then from a bump pointer below
 * fresh_lim (repair lowers the limit to keep a work list at the pool's top).
 * When the pool runs dry the ring is compacted (stale entries dropped);
 * after that every unsettled cell has at most one live entry, so a pool of
 * about one entry per cell always suffices for a solve.
 */
#include <assert.h>

#include "solver_int.h"

void ffq_reset(ff_solver *s)
{
	for (int i = 0; i < FF_RING; i++)
		s->ring[i] = (ff_bucket){-1, -1, 0};
	s->ovf = (ff_bucket){-1, -1, 0};
	s->ovf_min = LONG_MAX;
	s->freeblk = -1;
	s->fresh = 0;
	s->fresh_lim = s->nblk;
	s->qcount = 0;
	s->kcur = 0;
	s->cur_blk = -1;
	s->cur_pos = 0;
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

static bool live_in(const ff_solver *s, int32_t c, long k)
{
	if (s->qcheck)
		return !(s->flag[c] & (FL_INA | FL_CHECKED)) && ffq_key(s, s->val[c]) == k;
	return !(s->flag[c] & FL_SETTLED) && ffq_key(s, s->val[c]) == k;
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
		/* qcount is recounted for this bucket */
		for (int32_t blk = b->head; blk >= 0;
		     blk = blk == b->tail ? -1 : s->bnext[blk])
			s->qcount -= blk == b->tail ? b->fill : s->bs;
		compact_bucket(s, b, k);
	}
}

bool ffq_grow(ff_solver *s, ff_bucket *b)
{
	int32_t nb = take_block(s);

	if (nb < 0 && s->fresh_lim == s->nblk) {
		compact(s);
		nb = take_block(s);
	}
	if (nb < 0) {
		s->qfail = true;
		return false;
	}
	if (b->tail >= 0)
		s->bnext[b->tail] = nb;
	else
		b->head = nb;
	b->tail = nb;
	b->fill = 0;
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
			if (s->flag[c] & FL_SETTLED)
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

/* Moves kcur to the next non-empty bucket; false when the queue is empty. */
static bool next_bucket(ff_solver *s)
{
	for (;;) {
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

int32_t ffq_pop(ff_solver *s, long kmax)
{
	for (;;) {
		ff_bucket *b;
		int32_t blk, lim, c;

		if (s->cur_blk < 0) {
			if (!next_bucket(s))
				return -1;
		}
		if (s->kcur > kmax) {
			return -2;
		}
		b = &s->ring[s->kcur & FF_RING_MASK];
		blk = s->cur_blk;
		lim = blk == b->tail ? b->fill : s->bs;
		if (s->cur_pos >= lim) {
			if (blk == b->tail) {
				free_chain(s, b->head, b->tail);
				*b = (ff_bucket){-1, -1, 0};
				s->cur_blk = -1;
				s->kcur++;
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
