// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc top's keys. A letter picks a view (the view names' first letters,
 * i for IPC), < and > move the sort column, r reverses the order, space
 * or p pauses, z zeroes the counts (perf top's -z), / filters, h or ?
 * shows the help, q quits. Any key closes the help.
 */
#include <curses.h>

#include "top.h"

const char *const top_help_lines[] = {
	"ftc top keys:",
	"  e  per event       t  per task      c  per CPU",
	"  s  per syscall     f  per function  i  perf counters per task (IPC)",
	"  Tab, Right, Left   next and previous view",
	"  <  >   sort by the column to the left / right   r  reverse the sort order",
	"  /  filter by comm or pid (empty: none; the counts restart)",
	"  p or space  pause / resume        z  zero the counts",
	"  h or ?  this help (any key closes it)   q  quit (tracefs is restored)",
	NULL
};

static enum top_action view(struct top_ui *ui, int v)
{
	ui->view = (enum top_view)((v + TOP_NVIEWS) % TOP_NVIEWS);
	return TOP_KEY_VIEW;
}

static enum top_action sort_move(struct top_ui *ui, int step)
{
	int n = top_view_ncols(ui->view);

	ui->sort_col[ui->view] = (ui->sort_col[ui->view] + step + n) % n;
	return TOP_KEY_REDRAW;
}

enum top_action top_key(int key, struct top_ui *ui)
{
	if (key == KEY_RESIZE)	/* curses has resized the screen: draw it anew */
		return TOP_KEY_REDRAW;
	if (ui->help && key != 'q') {
		ui->help = false;
		return TOP_KEY_REDRAW;
	}
	switch (key) {
	case 'q': case 'Q':
		return TOP_KEY_QUIT;
	case 'e': return view(ui, TOP_VIEW_EVENT);
	case 't': return view(ui, TOP_VIEW_TASK);
	case 'c': return view(ui, TOP_VIEW_CPU);
	case 's': return view(ui, TOP_VIEW_SYSCALL);
	case 'f': return view(ui, TOP_VIEW_FUNC);
	case 'i': return view(ui, TOP_VIEW_PERF);
	case '\t': case KEY_RIGHT:
		return view(ui, (int)ui->view + 1);
	case KEY_BTAB: case KEY_LEFT:
		return view(ui, (int)ui->view - 1);
	case '<': return sort_move(ui, -1);
	case '>': return sort_move(ui, 1);
	case 'r':
		ui->sort_asc[ui->view] = !ui->sort_asc[ui->view];
		return TOP_KEY_REDRAW;
	case 'p': case ' ':
		ui->paused = !ui->paused;
		return TOP_KEY_REDRAW;
	case 'z':
		return TOP_KEY_RESET;
	case '/':
		return TOP_KEY_FILTER;	/* the caller asks for the text */
	case 'h': case '?':
		ui->help = true;
		return TOP_KEY_REDRAW;
	default:
		return TOP_KEY_NONE;
	}
}
