/*
 * level.h - the level model: a grid of cell costs, a terrain palette, goals,
 * spawn areas and named parameters.
 *
 * Invariants (kept by every mutator; tests check them):
 *  - 1 <= w, h <= FF_LEVEL_MAX_SIDE; cells[y * w + x] is in 1..254 or FF_WALL.
 *  - dyn[y * w + x], the dynamic layer over the painted costs, is 0 (none),
 *    an offset 1..254 added to the cost, or FF_WALL (a temporary wall);
 *    level_dyn.h changes it.
 *  - Every cost present in cells has a palette entry; palette names, glyphs
 *    and costs are each unique, but for walls: several terrains may be
 *    walls (a Moving AI map's '@', trees 'T' and out-of-bounds 'O'), told
 *    apart by the walls layer; glyphs are printable ASCII other than space.
 *  - walls is NULL, or holds for each wall cell which wall terrain it is
 *    (0 the palette's first, k its (k+1)-th) and 0 on passable cells.
 *  - Movement classes 1..nclasses have names unique among them; a terrain
 *    names costs (cls[k]) only for those, and a group's class is one of
 *    them or 0, none.
 *  - Goals and spawns lie inside the level and touch at least one passable
 *    cell when they are added (painting walls over them later is allowed; the
 *    solver reports goals that became unreachable).
 *
 * Readers may read the struct fields directly; only the functions below may
 * change them.  Code that builds a level by writing cells, walls or dyn
 * directly (generators, format readers) calls ff_level_changed() after.
 * Coordinates: x is the column, y the row, (0,0) top left.
 * Every mutator validates first and returns an error leaving the level
 * unchanged; on success it can fill an ff_patch that undoes it (see level_patch.h).
 */
#ifndef FF_LEVEL_H
#define FF_LEVEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define FF_LEVEL_MAX_SIDE 16384
#define FF_COST_MIN 1
#define FF_COST_MAX 254
/* "1..254", for messages and help built at compile time. */
#define FF_COST_RANGE FF_STR(FF_COST_MIN) ".." FF_STR(FF_COST_MAX)
#define FF_STR(x) FF_STR_(x)
#define FF_STR_(x) #x
#define FF_WALL 255
#define FF_NAME_MAX 64      /* level and terrain names, with the NUL */
#define FF_TERRAIN_NAME_MAX 16
#define FF_NOTE_MAX 2048    /* the description kept at the top of a file */
#define FF_PALETTE_MAX 64
#define FF_GOALS_MAX 256
#define FF_SPAWNS_MAX 64
#define FF_GROUPS_MAX 16
#define FF_GROUP_NAME_MAX 16  /* with the NUL */
#define FF_SPAWN_COUNT_MAX 1000000
#define FF_SPAWN_RATE_MAX 10000.0
#define FF_PENALTY_RADIUS_MAX 16 /* wall_penalty_radius, cells */
#define FF_CLASSES_MAX 8    /* named movement classes; class 0 is none */

typedef struct ff_terrain {
	char name[FF_TERRAIN_NAME_MAX];
	char glyph;
	uint8_t cost;            /* 1..254, or FF_WALL */
	/* cls[k]: its cost for movement class k, 1..254 or FF_WALL; 0 when it
	 * names none for k, which then applies its rule (class_walls).
	 * cls[0] is 0: class 0 walks the painted costs. */
	uint8_t cls[FF_CLASSES_MAX + 1];
} ff_terrain;

typedef enum ff_shape_kind {
	FF_SHAPE_CELL,           /* (x, y) */
	FF_SHAPE_RECT,           /* (x, y) top left, w x h cells */
	FF_SHAPE_CIRCLE          /* centre (x, y), radius r: dx^2 + dy^2 <= r^2 */
} ff_shape_kind;

typedef struct ff_shape {
	ff_shape_kind kind;
	int x, y, w, h, r;
} ff_shape;

typedef struct ff_spawn {
	ff_shape area;           /* FF_SHAPE_RECT or FF_SHAPE_CIRCLE */
	int count;               /* agents spawned there, 1..FF_SPAWN_COUNT_MAX */
	double rate;             /* 0: all COUNT at once; else a source that
				    releases RATE agents per second as room
				    frees up, until COUNT (0 < RATE <=
				    FF_SPAWN_RATE_MAX) */
	int group;               /* index into meta.groups; 0 the default */
} ff_spawn;

/* Named parameters used by the solver and the simulation.  Physical ones
 * are kept in SI units (metres, seconds); cell_size converts them to the
 * grid's cells (docs/simulation.md, "Parameters"). */
typedef enum ff_param_id {
	FF_P_CELL_SIZE,          /* metres per cell */
	FF_P_SPEED,              /* free walking speed v0, m/s */
	FF_P_SPEED_SPREAD,       /* the agents' free speeds' sd over v0 */
	FF_P_ACCEL,              /* acceleration limit, m/s^2 */
	FF_P_RADIUS,             /* body radius, m */
	FF_P_FD_GAMMA,           /* Weidmann's gamma, m^2 */
	FF_P_FD_RHO_MAX,         /* Weidmann's jam density, 1/m^2 */
	FF_P_DENSITY_RADIUS,     /* half-width of the density window, m */
	FF_P_LOOK_AHEAD,         /* where the density ahead is read, m */
	FF_P_SEP_RADIUS,         /* separation reach, m */
	FF_P_SEP_WEIGHT,         /* separation strength */
	FF_P_FUNNEL_DENSITY,     /* density above which funnelling starts, 1/m^2 */
	FF_P_FUNNEL_WEIGHT,      /* strength of the funnelling bias */
	FF_P_PASS_WEIGHT,        /* keeping right of oncoming people */
	FF_P_JITTER,             /* random heading noise, degrees */
	FF_P_ARRIVAL_RADIUS,     /* distance to a goal cell that counts as arrived, m */
	FF_P_DT,                 /* fixed timestep, seconds */
	FF_P_SEED,               /* simulation PRNG seed */
	FF_P_WALL_PENALTY,       /* extra cost beside a wall (cost.h), 0 = off */
	FF_P_WALL_PENALTY_RADIUS,/* cells over which it falls to 0 */
	FF_P_ROUTE_INTERVAL,     /* congestion-aware routing: seconds between
				    solves with the crowd, 0 = off */
	FF_P_ROUTE_WEIGHT,       /* how much of the crowd's slowing counts */
	FF_P__COUNT
} ff_param_id;

/* The unit a parameter is kept in; lengths, speeds and densities also have
 * a cell counterpart (ff_param_parse() takes either). */
typedef enum ff_unit {
	FF_UNIT_NONE,            /* a plain number */
	FF_UNIT_M,               /* metres; cells */
	FF_UNIT_M2,              /* square metres; cells^2 */
	FF_UNIT_MPS,             /* m/s; cells/s */
	FF_UNIT_MPS2,            /* m/s^2; cells/s^2 */
	FF_UNIT_PER_M2,          /* 1/m^2; 1/cell */
	FF_UNIT_S,               /* seconds */
	FF_UNIT_DEG              /* degrees */
} ff_unit;

typedef struct ff_param_info {
	const char *name;
	double def, min, max;
	ff_unit unit;
	const char *doc;
} ff_param_info;

/* Everything but the cells: small, fixed-size, copied whole by undo. */
typedef struct ff_level_meta {
	char name[FF_NAME_MAX];
	char note[FF_NOTE_MAX];  /* free text, lines separated by '\n' */
	ff_terrain palette[FF_PALETTE_MAX];
	int npalette;
	ff_shape goals[FF_GOALS_MAX];
	uint8_t goal_group[FF_GOALS_MAX]; /* each goal's index into groups */
	int ngoals;
	ff_spawn spawns[FF_SPAWNS_MAX];
	int nspawns;
	/* Groups of agents with goals of their own: groups[0] is the default
	 * group (""), the others come in the order they were made (by a goal
	 * or a spawn area naming them, or a 'group' line) and keep their
	 * index for the level's life. */
	char groups[FF_GROUPS_MAX][FF_GROUP_NAME_MAX];
	int ngroups;
	/* Movement classes (docs/simulation.md, "Movement classes"): classes
	 * 1..nclasses are named here (classes[0] is "", none: the painted
	 * costs); a terrain not naming a cost for class k costs k its painted
	 * cost, or is a wall to it when class_walls[k].  group_class[g] is
	 * group g's class, 0 for none. */
	char classes[FF_CLASSES_MAX + 1][FF_GROUP_NAME_MAX];
	uint8_t class_walls[FF_CLASSES_MAX + 1];
	int nclasses;
	uint8_t group_class[FF_GROUPS_MAX];
	double params[FF_P__COUNT];
} ff_level_meta;

typedef struct ff_level {
	int w, h;
	uint8_t *cells;          /* w * h costs, row major */
	uint8_t *walls;          /* w * h wall kinds, or NULL: every wall the
				    palette's first wall terrain */
	uint8_t *dyn;            /* w * h dynamic layer, row major */
	/* Counts the changes of cells, walls and dyn (not of meta): every
	 * mutator below, ff_patch_apply() and level_dyn.h's add one.  Equal
	 * counts of one level mean equal grids, so a reader that keeps what it
	 * built from them (the hierarchical field's effective costs) need not
	 * read them again.  Outside meta, so undo never turns it back. */
	uint64_t changes;
	ff_level_meta meta;
} ff_level;

/* A terrain value, what the painting mutators take: a cost 1..254, or
 * FF_WALL_KIND(k) for the palette's (k+1)-th wall terrain (FF_WALL_KIND(0)
 * is FF_WALL).  Walls of every kind cost FF_WALL in cells: the solver and
 * the simulation never see the kind. */
#define FF_WALL_KIND(k) (FF_WALL + (k))
/* Terrain values are below this: tables indexed by value have this size. */
#define FF_TERRAIN_VALUES FF_WALL_KIND(FF_PALETTE_MAX)

struct ff_patch;

/* --- lifecycle --------------------------------------------------------- */

/* Creates a W x H level of grass (cost 1) named NAME with the default palette
 * and parameters.  Returns NULL on a bad size or name or when out of memory.
 * Caller frees with ff_level_destroy(). */
ff_level *ff_level_create(int w, int h, const char *name);
/* Frees LEVEL; NULL is a no-op. */
void ff_level_destroy(ff_level *level);
/* Returns a deep copy or NULL when out of memory. */
ff_level *ff_level_clone(const ff_level *level);
/* True when A and B are equal in every field (cells, dynamic layer, meta,
 * parameters). */
bool ff_level_equal(const ff_level *a, const ff_level *b);

/* --- queries ----------------------------------------------------------- */

static inline bool ff_level_in(const ff_level *l, int x, int y)
{
	return (unsigned)x < (unsigned)l->w && (unsigned)y < (unsigned)l->h;
}
static inline uint8_t ff_level_cost(const ff_level *l, int x, int y)
{
	return l->cells[(size_t)y * (size_t)l->w + (size_t)x];
}
/* The terrain value of cell (x, y): its cost, or FF_WALL_KIND(k). */
static inline int ff_level_value(const ff_level *l, int x, int y)
{
	size_t i = (size_t)y * (size_t)l->w + (size_t)x;

	return l->cells[i] == FF_WALL && l->walls ? FF_WALL_KIND(l->walls[i]) : l->cells[i];
}
/* The dynamic layer at (x, y): 0, an offset 1..254, or FF_WALL. */
static inline uint8_t ff_level_dyn(const ff_level *l, int x, int y)
{
	return l->dyn[(size_t)y * (size_t)l->w + (size_t)x];
}
/* True when (x, y) is a wall, painted or temporary (the dynamic layer's). */
static inline bool ff_level_wall(const ff_level *l, int x, int y)
{
	size_t i = (size_t)y * (size_t)l->w + (size_t)x;

	return l->cells[i] == FF_WALL || l->dyn[i] == FF_WALL;
}
/* Palette lookups: index into meta.palette, or -1.  By cost, FF_WALL finds
 * the first wall terrain; by value, each wall kind its own. */
int ff_level_terrain_by_name(const ff_level *l, const char *name);
int ff_level_terrain_by_glyph(const ff_level *l, char glyph);
int ff_level_terrain_by_cost(const ff_level *l, int cost);
int ff_level_terrain_by_value(const ff_level *l, int value);
/* The terrain value of palette entry I. */
int ff_level_terrain_value(const ff_level *l, int i);
/* Reads a terrain word of L, as every command and the editor's pen take
 * one: a palette name, "wall", or a cost FF_COST_MIN..FF_COST_MAX, into
 * *VALUE.  On failure says why in WHY (N bytes): FF_E_INVAL for a cost out
 * of range, FF_E_NOTFOUND for a word that is none of these. */
ff_err ff_level_terrain_word(const ff_level *l, const char *word, int *value, char *why,
			     size_t n);
/* Fills OUT with the default palette and returns its size. */
int ff_level_default_palette(ff_terrain out[FF_PALETTE_MAX]);
/* True when cell (x, y) is inside SHAPE (which may reach outside the level). */
bool ff_shape_contains(const ff_shape *s, int x, int y);
/* The bounding box of SHAPE clipped to the level; false when empty. */
bool ff_shape_clip(const ff_level *l, const ff_shape *s, int *x0, int *y0,
		   int *x1, int *y1);
/* True when (x, y) lies in any goal. */
bool ff_level_is_goal(const ff_level *l, int x, int y);
/* The group named NAME: "" and "default" are the default group, 0; -1 when
 * there is none. */
int ff_level_group_by_name(const ff_level *l, const char *name);
/* The name of group G as users see it: "default" for 0. */
const char *ff_level_group_name(const ff_level *l, int g);
/* True when NAME can name a group: 1..15 characters of [A-Za-z0-9_-]. */
bool ff_group_name_ok(const char *name);
/* The index of group NAME in M, made when missing (NULL, "" and "default"
 * are 0): -1 for a bad name, -2 when there is no room for another group.
 * For parsers that fill a meta themselves. */
int ff_level_meta_group(ff_level_meta *m, const char *name);
/* The goals of group G into OUT (FF_GOALS_MAX shapes); how many. */
int ff_level_group_goals(const ff_level *l, int g, ff_shape *out);
/* The group whose field is "the level's field" (what the editor shows on
 * opening, what `solve` solves without --group): the first group, in
 * level order, that has a goal; the default group (0) when none has. */
int ff_level_field_group(const ff_level *l);
/* Checks a shape for use as a goal (GOAL) or spawn area: inside the level,
 * sensible size, touching at least one passable cell (FF_E_WALL). */
ff_err ff_level_check_shape(const ff_level *l, const ff_shape *s, bool goal);
/* The same, passable meaning passable to movement class K (a goal of a
 * group of that class); K 0 is ff_level_check_shape(). */
ff_err ff_level_check_shape_as(const ff_level *l, const ff_shape *s, bool goal, int k);

/* Movement classes.  The class named NAME in M: 1..nclasses, 0 for "none",
 * -1 when there is none. */
int ff_level_class_by_name(const ff_level_meta *m, const char *name);
/* The name of class K of M as users see it: "none" for 0. */
const char *ff_level_class_name(const ff_level_meta *m, int k);
/* True when NAME can name a class: as a group's name, and not "none". */
bool ff_class_name_ok(const char *name);
/* What terrain T of M costs class K: its own cost for K, else its painted
 * cost, or FF_WALL when K's unnamed terrains are walls (1..254 or
 * FF_WALL). */
int ff_level_class_cost(const ff_level_meta *m, int k, int t);
/* The cost to class K of every terrain value (ff_level_value()) of L into
 * OUT: what ff_level_class_cost() gives the value's terrain; a value no
 * terrain has costs its painted cost (walls FF_WALL).  Class 0 gives each
 * cost itself and FF_WALL for every wall kind.  The one table the solver's
 * costs and the crowd's walls read. */
void ff_level_class_table(const ff_level *l, int k, uint8_t out[FF_TERRAIN_VALUES]);
/* Reads the N words WORDS, each "CLASS=COST" naming a class of M and a
 * cost 1..254, "wall" or "default" (0: the class's rule), into CLS
 * (FF_CLASSES_MAX + 1 entries; those not named are left).  On error CLS
 * is unchanged, *BAD is the index of the word at fault and WHY (LEN bytes)
 * says what is wrong, for the caller to place: FF_E_PARSE when it is not
 * of that form, FF_E_NOTFOUND for an unknown class, FF_E_INVAL for a bad
 * cost or a class named twice. */
ff_err ff_class_costs_read(const ff_level_meta *m, const char *const *words, int n, uint8_t *cls,
			   int *bad, char *why, size_t len);
/* The words "CLASS=COST" of terrain T of M, each after a space, in BUF (N
 * bytes; at most 8 * 21 needed): how text and commands write them. */
const char *ff_class_cost_words(const ff_level_meta *m, int t, char *buf, size_t n);

/* Parameter table: name, default, range and doc for each ff_param_id. */
const ff_param_info *ff_param_info_get(ff_param_id id);
/* Parameter id by name, or -1. */
int ff_param_by_name(const char *name);
/* True when VALUE is allowed for parameter ID (in range; the seed and the
 * wall penalty's parameters whole). */
bool ff_param_ok(ff_param_id id, double value);
/* What ID allows, "MIN..MAX UNIT" (", a whole number" for whole ones),
 * in BUF. */
const char *ff_param_range(ff_param_id id, char *buf, size_t n);
/* The unit's SI word ("m/s") and its cell counterpart ("cells/s"); ""
 * when it has none. */
const char *ff_unit_si(ff_unit u);
const char *ff_unit_cells(ff_unit u);
/* Converts V in UNIT's cell counterpart to SI with CELL_SIZE m per cell. */
double ff_unit_from_cells(ff_unit u, double v, double cell_size);
/* Reads TEXT as a value of parameter ID: a number, optionally followed by
 * the parameter's SI unit or its cell counterpart ("1.34", "1.34m/s",
 * "2.68cells/s"), converted to SI with CELL_SIZE.  FF_E_PARSE when TEXT
 * is not such a value, FF_E_INVAL when it is out of range; *OUT is set
 * only on success. */
ff_err ff_param_parse(ff_param_id id, const char *text, double cell_size, double *out);

/* --- mutators ---------------------------------------------------------- */
/* Each validates its arguments, returns an error leaving the level
 * unchanged, and on success fills UNDO (when not NULL) with a patch that
 * restores the previous state.  COST is a terrain value: 1..254, FF_WALL,
 * or FF_WALL_KIND(k) of a wall terrain in the palette; a cost with no
 * palette entry gets one ("costN" with a free glyph), or FF_E_FULL. */

ff_err ff_level_paint(ff_level *l, int x, int y, int cost, struct ff_patch *undo);
ff_err ff_level_line(ff_level *l, int x0, int y0, int x1, int y1, int cost,
		     struct ff_patch *undo);
ff_err ff_level_rect(ff_level *l, int x, int y, int w, int h, int cost,
		     struct ff_patch *undo);
/* Filled circle centred on (x, y), which must be inside; clipped at edges. */
ff_err ff_level_circle(ff_level *l, int x, int y, int r, int cost,
		       struct ff_patch *undo);
/* 4-connected flood fill of the same-cost region containing (x, y). */
ff_err ff_level_fill(ff_level *l, int x, int y, int cost, struct ff_patch *undo);
ff_err ff_level_goal_add(ff_level *l, const ff_shape *goal, struct ff_patch *undo);
/* Adds GOAL to group GROUP (NULL or "" the default group), which is made
 * when it does not exist: FF_E_INVAL for a bad name, FF_E_FULL beyond
 * FF_GROUPS_MAX groups. */
ff_err ff_level_goal_add_to(ff_level *l, const ff_shape *goal, const char *group,
			    struct ff_patch *undo);
/* As ff_level_goal_add_to(), for a reader of level files: a goal that walls
 * cover is kept (the editor may paint walls over one, and a file holds
 * what it saved; solving says what is wrong), as the text format keeps
 * it.  No undo. */
ff_err ff_level_goal_load(ff_level *l, const ff_shape *goal, const char *group);
/* An order: the goals of group GROUP become GOAL alone.  FF_E_NOTFOUND
 * when there is no such group. */
ff_err ff_level_order(ff_level *l, const char *group, const ff_shape *goal,
		      struct ff_patch *undo);
ff_err ff_level_goal_remove(ff_level *l, int index, struct ff_patch *undo);
ff_err ff_level_goal_clear(ff_level *l, struct ff_patch *undo);
/* Adds SPAWN, whose group must be one the level has (0, the default, on
 * a level without groups). */
ff_err ff_level_spawn_add(ff_level *l, const ff_spawn *spawn, struct ff_patch *undo);
/* Adds SPAWN to group GROUP (its own group field is ignored), made when it
 * does not exist, as ff_level_goal_add_to(). */
ff_err ff_level_spawn_add_to(ff_level *l, const ff_spawn *spawn, const char *group,
			     struct ff_patch *undo);
/* As ff_level_spawn_add_to(), keeping one that walls cover, as
 * ff_level_goal_load(). */
ff_err ff_level_spawn_load(ff_level *l, const ff_spawn *spawn, const char *group);
ff_err ff_level_spawn_remove(ff_level *l, int index, struct ff_patch *undo);
ff_err ff_level_spawn_clear(ff_level *l, struct ff_patch *undo);
ff_err ff_level_param_set(ff_level *l, ff_param_id id, double value,
			  struct ff_patch *undo);
ff_err ff_level_set_name(ff_level *l, const char *name, struct ff_patch *undo);
ff_err ff_level_set_note(ff_level *l, const char *note, struct ff_patch *undo);
/* Adds a terrain; NAME, GLYPH and COST must all be unused, but for COST
 * FF_WALL: a further wall terrain is the next wall kind.  CLS (NULL for
 * none) gives its costs for the level's classes, as ff_terrain.cls. */
ff_err ff_level_terrain_add(ff_level *l, const char *name, char glyph, int cost,
			    const uint8_t *cls, struct ff_patch *undo);
/* Gives terrain T the class costs CLS (FF_CLASSES_MAX + 1 entries, as
 * ff_terrain.cls: 0, 1..254 or FF_WALL, only for classes L has).
 * FF_E_NOTFOUND for a bad T, FF_E_INVAL for a bad cost. */
ff_err ff_level_terrain_classes(ff_level *l, int t, const uint8_t *cls,
				struct ff_patch *undo);
/* Declares movement class NAME, whose unnamed terrains are walls to it when
 * WALLS (else it walks them at their painted cost); a class that exists
 * gets that rule.  FF_E_INVAL for a bad name, FF_E_FULL beyond
 * FF_CLASSES_MAX classes. */
ff_err ff_level_class_set(ff_level *l, const char *name, bool walls, struct ff_patch *undo);
/* Gives group GROUP (made when it does not exist, as ff_level_goal_add_to()
 * does) movement class K (0: none).  FF_E_NOTFOUND for a K the level does
 * not have, FF_E_INVAL for a bad group name, FF_E_FULL beyond
 * FF_GROUPS_MAX groups. */
ff_err ff_level_group_class(ff_level *l, const char *group, int k, struct ff_patch *undo);
/* Crops or extends to W x H keeping the top-left corner; new cells are
 * cost 1 with nothing on the dynamic layer; goals and spawns no longer
 * inside are dropped. */
ff_err ff_level_resize(ff_level *l, int w, int h, struct ff_patch *undo);

/* For code that wrote L's cells, walls or dyn directly: counts a change
 * (ff_level.changes). */
static inline void ff_level_changed(ff_level *l)
{
	l->changes++;
}

/* For parsers building a level cell by cell: writes terrain VALUE into
 * (x, y), which must be inside, with no undo and no palette check (the
 * parser checks).  FF_E_NOMEM when a wall kind needs the walls layer and
 * there is no memory for it. */
ff_err ff_level_put(ff_level *l, int x, int y, int value);

/* True when NAME is a valid level name: 1..63 chars of [A-Za-z0-9_.-]. */
bool ff_level_name_ok(const char *name);
/* True when NOTE is text every format holds: no control character but
 * tab, newline and CR (XML, for Tiled's TMX, holds no others). */
bool ff_note_ok(const char *note);
/* True when NAME can name a terrain of COST: 1..15 printable characters,
 * not all digits (commands read those as a cost), and "wall" only for the
 * wall itself. */
bool ff_terrain_name_ok(const char *name, int cost);

#endif
