// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc top's full screen, with ncurses: the header, the column titles in
 * reverse video, as many rows as the terminal has lines, and the help
 * over them. The lines are the views' text lines (top-view.c), cut to
 * the terminal's width as it is now, so a resize redraws to fit.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "top.h"

static bool open_;

int top_screen_open(void)
{
	if (!initscr())
		return -1;
	open_ = true;
	cbreak();	/* Ctrl-C stays a signal: the journal restores tracefs */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	return 0;
}

static void put(int y, const char *s, int attr)
{
	if (y >= LINES)
		return;
	if (attr)
		attron(attr);
	mvaddnstr(y, 0, s, COLS);
	if (attr) {
		/* the title bar spans the screen */
		int x = (int)strlen(s);

		for (; x < COLS; x++)
			mvaddch(y, x, ' ');
		attroff(attr);
	}
}

static void draw_help(int y)
{
	int i;

	for (i = 0; top_help_lines[i] && y + i < LINES; i++)
		put(y + i, top_help_lines[i], 0);
}

void top_screen_draw(struct top_model *m, const struct top_ui *ui, const struct top_stats *s,
		     const struct top_perf *perf)
{
	char lines[4][256], buf[1024];
	struct top_table t;
	int n = top_header(m, ui, s, lines, 4), y;
	size_t r;

	erase();
	for (y = 0; y < n; y++)
		put(y, lines[y], y ? 0 : A_BOLD);
	y++;
	if (ui->help) {
		draw_help(y);
	} else if (top_table_build(&t, m, ui, perf) == 0) {
		top_table_line(&t, NULL, COLS, ui->sort_col[ui->view], buf, sizeof(buf));
		put(y++, buf, A_REVERSE);
		for (r = 0; r < t.nrows && y < LINES; r++, y++) {
			if (ui->entries && r >= (size_t)ui->entries)
				break;
			top_table_line(&t, &t.rows[r], COLS, -1, buf, sizeof(buf));
			put(y, buf, 0);
		}
		top_table_free(&t);
	}
	refresh();
}

char *top_screen_prompt(const char *prompt, char *buf, size_t size)
{
	size_t len = 0;
	int c;

	nodelay(stdscr, FALSE);
	curs_set(1);
	buf[0] = 0;
	for (;;) {
		move(LINES - 1, 0);
		clrtoeol();
		attron(A_BOLD);
		addnstr(prompt, COLS);
		attroff(A_BOLD);
		addnstr(buf, COLS - (int)strlen(prompt));
		refresh();
		c = getch();
		if (c == '\n' || c == '\r' || c == KEY_ENTER)
			break;
		if (c == 27 || c == ERR) {	/* Escape, or a signal */
			buf = NULL;
			break;
		}
		if ((c == KEY_BACKSPACE || c == 127 || c == 8) && len)
			buf[--len] = 0;
		else if (c >= ' ' && c < 127 && len + 1 < size) {
			buf[len++] = (char)c;
			buf[len] = 0;
		}
	}
	curs_set(0);
	nodelay(stdscr, TRUE);
	return buf;
}

/* Waits for a key up to ms; ERR when none came. */
int top_screen_key(int ms)
{
	timeout(ms);
	return getch();
}

void top_screen_close(void)
{
	if (!open_)
		return;
	open_ = false;
	endwin();
}
