# Documentation: the man page is installed; the rest is distributed.
dist_man_MANS += docs/fieldmarshal.1
EXTRA_DIST += docs/formats.md docs/commands.md
EXTRA_DIST += docs/store.md docs/json.md docs/pictures.md docs/tiled.md docs/embedding.md
EXTRA_DIST += docs/teaching.md
EXTRA_DIST += docs/simulation.md
EXTRA_DIST += docs/solver.md
