/*
 * sim_order.c - the order the agents are stored in.  Spawned agents come in
 * id order, but a crowd mixes as it walks: the agents next to each other
 * on the level end up far apart in memory, and a tick, which visits them
 * in the grid's order, reads its way across all of it.  So every so often
 * (ff_sim_step) they are stored in the order of the tick's grid again.
 *
 * Nothing a tick computes depends on that order: the grid keeps each
 * cell's agents in id order, the tie of two agents on one spot goes by id,
 * sums over all agents run in id order (ord[]), and the hash and
 * ff_sim_agent() go through ord[] too.  A regridded run is the same run
 * bit for bit.
 */
#include <string.h>

#include "sim_impl.h"

/* Moves the N elements of SIZE bytes of array A to where s->from[] says
 * (element K from from[K]), through the spare array. */
static void gather(ff_sim *s, void *a, size_t size, size_t n)
{
	unsigned char *d = s->spare;
	const unsigned char *o = a;

	switch (size) {
	case 1:
		for (size_t k = 0; k < n; k++)
			d[k] = o[s->from[k]];
		break;
	case 4:
		for (size_t k = 0; k < n; k++)
			memcpy(d + 4 * k, o + 4 * (size_t)s->from[k], 4);
		break;
	default:
		for (size_t k = 0; k < n; k++)
			memcpy(d + 8 * k, o + 8 * (size_t)s->from[k], 8);
		break;
	}
	memcpy(a, d, n * size);
}

void ff_sim_regrid(ff_sim *s, size_t ng)
{
	const uint32_t *idx = s->grid.idx;
	size_t n = s->n, k = ng;

	/* slot[]: where each agent goes; from[]: where each place's agent
	 * was.  The grid's points first, then the rest (arrived and kept)
	 * as they were. */
	for (size_t i = 0; i < n; i++)
		s->slot[i] = UINT32_MAX;
	for (size_t j = 0; j < ng; j++) {
		s->slot[idx[j]] = (uint32_t)j;
		s->from[j] = idx[j];
	}
	for (size_t i = 0; i < n; i++)
		if (s->slot[i] == UINT32_MAX) {
			s->slot[i] = (uint32_t)k;
			s->from[k++] = (uint32_t)i;
		}
	gather(s, s->id, sizeof *s->id, n);
	gather(s, s->state, sizeof *s->state, n);
	gather(s, s->grp, sizeof *s->grp, n);
	gather(s, s->x, sizeof *s->x, n);
	gather(s, s->y, sizeof *s->y, n);
	gather(s, s->vx, sizeof *s->vx, n);
	gather(s, s->vy, sizeof *s->vy, n);
	gather(s, s->hd, sizeof *s->hd, n);
	for (size_t r = 0; r < n; r++)
		s->ord[r] = s->slot[ff_sim_slot(s, r)];
	s->regridded = true;
	ff_spatial_renumber(&s->grid, ng);
}

void ff_sim_order_drop(ff_sim *s)
{
	size_t j = 0, n = s->n;

	if (!s->regridded)
		return;
	for (size_t i = 0; i < n; i++)
		s->slot[i] = s->state[i] == FF_AGENT_ARRIVED ? UINT32_MAX : (uint32_t)j++;
	j = 0;
	for (size_t r = 0; r < n; r++) {
		uint32_t to = s->slot[s->ord[r]];

		if (to != UINT32_MAX)
			s->ord[j++] = to;
	}
}
