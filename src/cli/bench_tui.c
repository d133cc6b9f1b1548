/* bench_tui.c - the editor's rows of 'fieldmarshal bench' (see tui.h). */
#include "bench_tui.h"
#include "tui/tui.h"
#include "util.h"

bool ff_cli_bench_tui(FILE *out, bool quick)
{
	ff_tui_bench_result r;
	char err[200];

	if (ff_tui_bench(200, 60, quick ? 512 : 1024, &r, err, sizeof err)) {
		ff_cli_error("editor benchmark: %s", err);
		return false;
	}
	fprintf(out, "%-44s %10s\n", "editor (200x60 view, numbers shown)", "value");
	fprintf(out, "%-44s %10.3f\n", "full redraw, ms (target <= 2)", r.redraw_ms);
	fprintf(out, "%-44s %10.1f\n", "bytes per cursor move, numbers (few dozen)",
		r.move_bytes);
	fprintf(out, "%-44s %10.1f\n", "bytes per cursor move, 1 char per cell",
		r.move_bytes_narrow);
	fprintf(out, "%-44s %10.0f\n", "bytes for a page scroll (every cell)", r.scroll_bytes);
	fprintf(out, "%-44s %10.3f\n", "redraw, 2000 agents, density, line, ms",
		r.crowd_redraw_ms);
	return true;
}
