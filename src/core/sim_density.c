/*
 * sim_density.c - the crowd density the agents walk into, and how fast
 * that lets them walk.
 *
 * Density field: after the tick's counting sort, every passable cell gets
 * the number of agents in the square window of (2k+1) x (2k+1) cells
 * around it divided by the window's passable area in square metres (k is
 * density_radius in whole cells, at least 1; walls and the outside do not
 * count as area, so a crowd along a wall is not thinned by it).  Running
 * sums over columns and rows make it O(cells) whatever k is.
 *
 * Speed-density: Weidmann's fundamental diagram,
 *   v(rho) = v0 * (1 - exp(-gamma * (1/rho - 1/rho_max))),
 * tabulated over 0..rho_max and interpolated linearly; 0 at and above
 * rho_max.  The table is built with an exp of our own (+ - * / and an
 * exact power of two only), so it has the same bits on every IEEE host.
 */
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "sim_impl.h"

/* exp(X) for X <= 0 from + - * / and ldexp (exact): X = k ln 2 + r with
 * |r| <= ln 2 / 2, a Taylor sum for exp(r), times 2^k.  Relative error
 * below 1e-13, far below anything the table needs. */
static double det_exp(double x)
{
	static const double ln2 = 0.6931471805599453094;
	double k, r, term = 1, sum = 1;

	if (x < -700)
		return 0;
	k = (double)(long)(x / ln2 - 0.5);
	r = x - k * ln2;
	for (int n = 1; n <= 14; n++) {
		term = term * r / n;
		sum += term;
	}
	return ldexp(sum, (int)k);
}

void ff_sim_fd_setup(ff_sim *s)
{
	const double *v = s->level->meta.params;
	double g = v[FF_P_FD_GAMMA], rmax = v[FF_P_FD_RHO_MAX];

	if (g == s->fd_gamma && rmax == s->fd_rho_max)
		return;
	s->fd_gamma = g;
	s->fd_rho_max = rmax;
	s->fd[0] = 1;
	for (int i = 1; i < FF_SIM_FD_N; i++) {
		double rho = rmax * i / FF_SIM_FD_N;

		s->fd[i] = (float)(1 - det_exp(-g * (1 / rho - 1 / rmax)));
	}
	s->fd[FF_SIM_FD_N] = s->fd[FF_SIM_FD_N + 1] = 0;
}

void ff_sim_density_setup(ff_sim *s, bool force)
{
	const double *v = s->level->meta.params;
	double cs = v[FF_P_CELL_SIZE];
	int k = (int)floor(v[FF_P_DENSITY_RADIUS] / cs + 0.5), w = s->w, h = s->h;

	if (k < 1)
		k = 1;
	if (!force && k == s->dens_k && cs == s->dens_cs)
		return;
	s->dens_k = k;
	s->dens_cs = cs;
	/* Passable cells per window, by the same running sums as the
	 * density (colsum holds passable cells of the window's rows).  One
	 * density for every movement class: passable to agents of none. */
	memset(s->colsum, 0, (size_t)w * sizeof *s->colsum);
	for (int y = -k; y < h; y++) {
		int add = y + k, sub = y - k - 1;
		uint32_t sum = 0;

		for (int x = 0; x < w; x++) {
			if (add < h)
				s->colsum[x] += !ff_sim_blocked(s, 0, x, add);
			if (sub >= 0)
				s->colsum[x] -= !ff_sim_blocked(s, 0, x, sub);
		}
		if (y < 0)
			continue;
		for (int x = 0; x < k && x < w; x++)
			sum += s->colsum[x];
		for (int x = 0; x < w; x++) {
			size_t at = (size_t)y * (size_t)w + (size_t)x;

			if (x + k < w)
				sum += s->colsum[x + k];
			if (x - k - 1 >= 0)
				sum -= s->colsum[x - k - 1];
			s->inv_area[at] = ff_sim_blocked(s, 0, x, y) || !sum
						  ? 0.0f
						  : (float)(1.0 / (sum * cs * cs));
		}
	}
}

/* Adds the agents of cells x - K .. x + K of ROW to ACC[x] for x in
 * [X0, X1] (all within the row). */
static void add_row(uint32_t *restrict acc, const uint32_t *restrict row, int k, int x0, int x1)
{
	const uint32_t *hi = row + x0 + k + 1, *lo = row + x0 - k;
	uint32_t *a = acc + x0;
	size_t n = x1 >= x0 ? (size_t)(x1 - x0 + 1) : 0, i = 0;

#if defined(__SSE2__)
	for (; i + 4 <= n; i += 4) {
		__m128i d = _mm_sub_epi32(_mm_loadu_si128((const __m128i *)(hi + i)),
					  _mm_loadu_si128((const __m128i *)(lo + i)));

		_mm_storeu_si128((__m128i *)(a + i),
				 _mm_add_epi32(_mm_loadu_si128((const __m128i *)(a + i)), d));
	}
#endif
	for (; i < n; i++)
		a[i] += hi[i] - lo[i];
}

/* DENS[x] = ACC[x] * INV[x] for N cells; the same float operations lane
 * by lane with SSE2 as without. */
static void scale_row(float *restrict dens, const uint32_t *restrict acc,
		      const float *restrict inv, size_t n)
{
	size_t i = 0;

#if defined(__SSE2__)
	for (; i + 4 <= n; i += 4) {
		__m128 c = _mm_cvtepi32_ps(_mm_loadu_si128((const __m128i *)(acc + i)));

		_mm_storeu_ps(dens + i, _mm_mul_ps(c, _mm_loadu_ps(inv + i)));
	}
#endif
	/* counts are far below 2^31, so converting them as int is exact */
	for (; i < n; i++)
		dens[i] = (float)(int32_t)acc[i] * inv[i];
}

void ff_sim_density_build(ff_sim *s)
{
	const uint32_t *start = s->grid.start;
	int k = s->dens_k, w = s->w, h = s->h, x0 = k, x1 = w - k - 1;
	uint32_t *restrict acc = s->colsum;
	float *restrict dens = s->dens;
	const float *restrict inv = s->inv_area;

	/* The agents of cells x - k .. x + k of a row are the difference of
	 * two run starts (start[] is a prefix sum over the cells in row-major
	 * order): per row of the window two loads, in loops the compiler
	 * turns into vector code; the columns within k of an edge clamp. */
	for (int y = 0; y < h; y++) {
		size_t at = (size_t)y * (size_t)w;
		int r0 = y - k > 0 ? y - k : 0, r1 = y + k < h ? y + k : h - 1;

		/* nobody in the window's rows: a row of zeros, written only
		 * when it was not one (large levels are mostly empty) */
		if (start[(size_t)(r1 + 1) * (size_t)w] == start[(size_t)r0 * (size_t)w]) {
			if (!s->dens_zero[y])
				memset(dens + at, 0, (size_t)w * sizeof *dens);
			s->dens_zero[y] = 1;
			continue;
		}
		s->dens_zero[y] = 0;
		memset(acc, 0, (size_t)w * sizeof *acc);
		for (int r = r0; r <= r1; r++) {
			const uint32_t *row = start + (size_t)r * (size_t)w;

			if (row[w] == row[0])
				continue; /* an empty row adds nothing */
			add_row(acc, row, k, x0, x1);
			for (int x = 0; x < w && x < x0; x++)
				acc[x] += row[(x + k < w ? x + k : w - 1) + 1] - row[0];
			for (int x = x1 + 1 > x0 ? x1 + 1 : x0; x < w; x++)
				acc[x] += row[w] - row[x - k > 0 ? x - k : 0];
		}
		scale_row(dens + at, acc, inv + at, (size_t)w);
	}
}
