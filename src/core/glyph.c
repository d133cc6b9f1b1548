/* glyph.c - the glyph tables (glyph.h). */
#include "glyph.h"
#include "solver.h"

static const struct {
	const char *utf8, *ascii, *meaning;
} marks[FF_GLYPH__COUNT] = {
	[FF_GLYPH_GOAL] = {"*", "*", "goal"},
	[FF_GLYPH_FRONTIER] = {"+", "+", "frontier: reached, not yet settled"},
	[FF_GLYPH_LAST] = {"@", "@", "the cell settled last"},
	[FF_GLYPH_UNREACH] = {"x", "x", "no path to any goal"},
	[FF_GLYPH_AGENT] = {"o", "o", "an agent (2..9: that many)"},
	[FF_GLYPH_CROWD] = {"O", "O", "ten agents or more"},
	[FF_GLYPH_DYN_WALL] = {"▒", "%", "a temporary wall (the dynamic layer)"},
	[FF_GLYPH_PORTAL] = {"◆", "=", "a portal between sectors (hier)"},
};

/* FF_DIR_* order: E, S, W, N, SE, SW, NW, NE */
static const char *const arrows[2][8] = {
	{"→", "↓", "←", "↑", "↘", "↙", "↖", "↗"},
	{">", "v", "<", "^", "b", "d", "q", "p"},
};
static const char *const froms[8] = {"⇒", "⇓", "⇐", "⇑", "⇘", "⇙", "⇖", "⇗"};
static const char *const digits[10] = {"", "o", "2", "3", "4", "5", "6", "7", "8", "9"};
/* Named groups' agents: the letters that are no arrow (b d p q v), no
 * mark (o O x) and no terrain of the default palette (f m s). */
static const char *const groups[FF_GROUPS_MAX] = {
	"o", "a", "c", "e", "g", "h", "k", "n", "r", "t", "u", "w", "y", "z", "i", "j",
};

const char *ff_glyph(ff_glyph_id g, bool utf8)
{
	if ((unsigned)g >= FF_GLYPH__COUNT)
		return "?";
	return utf8 ? marks[g].utf8 : marks[g].ascii;
}

const char *ff_glyph_meaning(ff_glyph_id g)
{
	return (unsigned)g < FF_GLYPH__COUNT ? marks[g].meaning : "?";
}

const char *ff_glyph_arrow(int d, bool utf8)
{
	return (unsigned)d < 8 ? arrows[!utf8][d] : "";
}

const char *ff_glyph_from(int d, bool utf8)
{
	if ((unsigned)d >= 8)
		return "";
	return utf8 ? froms[d] : arrows[1][d];
}

const char *ff_glyph_agents(long n, bool utf8)
{
	if (n <= 0)
		return "";
	return n < 10 ? digits[n] : ff_glyph(FF_GLYPH_CROWD, utf8);
}

const char *ff_glyph_group(int g, bool utf8)
{
	if (g == 0)
		return ff_glyph(FF_GLYPH_AGENT, utf8);
	return g > 0 && g < FF_GROUPS_MAX ? groups[g] : "?";
}

const char *ff_glyph_cell(long n, int g, bool utf8)
{
	if (n > 0 && g > 0)
		return ff_glyph_group(g, utf8);
	return ff_glyph_agents(n, utf8);
}

const char *ff_glyph_line(double dx, double dy, bool utf8)
{
	static const char *const lines[2][4] = {{"│", "─", "╲", "╱"}, {"|", "-", "\\", "/"}};
	double ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
	int k = ay > 2 * ax ? 0 : ax > 2 * ay ? 1 : (dx < 0) == (dy < 0) ? 2 : 3;

	return lines[!utf8][k];
}

char ff_glyph_terrain(const ff_level *l, int value)
{
	int t = ff_level_terrain_by_value(l, value);

	if (t >= 0)
		return l->meta.palette[t].glyph;
	return value >= FF_WALL ? '#' : '?';
}
