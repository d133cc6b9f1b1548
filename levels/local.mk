# Shipped example levels, installed to $(pkgdatadir)/levels.
dist_levels_DATA += \
	levels/chokepoint.level \
	levels/open.level \
	levels/maze.level \
	levels/rooms.level \
	levels/terrain.level \
	levels/exits.level \
	levels/squads.level \
	levels/harbour.level
