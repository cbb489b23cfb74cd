/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftc top's parts: the counts (top-model.c), the views that turn them into
 * sorted rows and text lines (top-view.c), the ncurses screen
 * (top-screen.c), its keys (top-keys.c), the hist-trigger source
 * (top-hist.c) and the perf counters per task (top-perf.c); syscall names
 * come from libftc's generated tables (syscall-table.h). top.c sets tracing up and runs the loop.
 */
#ifndef FTC_CMD_TOP_H
#define FTC_CMD_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct tep_handle;
struct tep_record;
struct tep_event;
struct tep_format_field;
struct ftc_symbols;
struct ftc_reader;
struct top_perf;

enum top_view {
	TOP_VIEW_EVENT,
	TOP_VIEW_TASK,
	TOP_VIEW_CPU,
	TOP_VIEW_SYSCALL,
	TOP_VIEW_FUNC,
	TOP_VIEW_PERF,
	TOP_NVIEWS
};

/* One counted thing: an event, a task, a CPU, a syscall, a function. */
struct top_entry {
	uint64_t key;
	uint64_t count;		/* events since the last reset */
	uint64_t prev;		/* count at the previous refresh, for the rate */
	uint64_t rate;		/* per second over the last interval */
	uint64_t v[4];		/* the view's other numbers (runtime, switches...) */
	char *name;		/* owned; NULL until known */
	bool used;
};

/* An open-addressing table of entries by key. */
struct top_map {
	struct top_entry *e;
	size_t n, cap;
};

struct top_entry *top_map_get(struct top_map *m, uint64_t key);
struct top_entry *top_map_find(const struct top_map *m, uint64_t key);
void top_map_clear(struct top_map *m);

/* The user's filter: a comm, a pid, or nothing. */
struct top_filter {
	char comm[64];
	long pid;		/* -1: none */
};

struct top_model {
	struct top_map map[TOP_NVIEWS];
	struct top_map comms;		/* pid -> comm, kept across resets */
	uint64_t total, total_prev, total_rate;
	uint64_t lost;			/* events the kernel dropped (live reader) */
	uint64_t filtered;		/* records the filter left out */
	struct top_filter filter;
	uint64_t filter_gen;		/* bumped at each reset: the comms' verdicts expire */
	/* per-CPU: when the running task started running, for runtime */
	uint64_t *cpu_since;
	int ncpus;
	struct tep_handle *tep;
	struct ftc_reader *reader;	/* parses an event's format on first use */
	/* what each event id is to the views, learnt at its first record */
	unsigned char *kind;
	struct tep_event *ev_exec, *ev_fork;
	struct tep_format_field *f_prev_pid, *f_prev_comm, *f_next_pid, *f_next_comm;
	struct tep_format_field *f_sys_id, *f_func_ip;
	struct ftc_symbols *syms;	/* for the function view, when loaded */
	/* counts from a hist trigger replace the syscall view's (top-hist.c) */
	bool hist_syscalls;
};

int top_model_init(struct top_model *m, int ncpus);
void top_model_set_reader(struct top_model *m, struct ftc_reader *r);
void top_model_record(struct top_model *m, struct tep_record *rec);
void top_model_lost(struct top_model *m, int cpu, uint64_t n);
/* Turns the counts since the last call into rates over secs. */
void top_model_tick(struct top_model *m, double secs);
/* Zeroes every count (the comm cache stays). */
void top_model_reset(struct top_model *m);
/* The comm of pid, from the trace or /proc; "<...>" when unknown. */
const char *top_model_comm(struct top_model *m, uint64_t pid);
/* True when the filter lets pid through. */
bool top_model_pass(struct top_model *m, uint64_t pid);
/* Parses "NAME" or a number into the filter; "" clears it. */
void top_filter_set(struct top_filter *f, const char *text);
void top_model_free(struct top_model *m);

/* A column of a view. */
enum top_fmt { TOP_NUM, TOP_TEXT, TOP_CENTI };	/* CENTI: hundredths, "1.25" */
struct top_col {
	const char *title;
	int width;		/* the minimum; a text column takes what is left */
	enum top_fmt fmt;
};

/* One row: its texts and numbers, indexed by column. */
#define TOP_MAX_COLS 8
struct top_row {
	const char *text[TOP_MAX_COLS];
	uint64_t num[TOP_MAX_COLS];
	bool unsupported[TOP_MAX_COLS];	/* prints "<not supported>" */
};

/* The state of the display: which view, its sort, pause, entries. */
struct top_ui {
	enum top_view view;
	int sort_col[TOP_NVIEWS];
	bool sort_asc[TOP_NVIEWS];
	bool paused, help;
	int entries;		/* -E: rows at most (0: as many as fit) */
	double delay;
	char note[256];		/* a one-line message under the header */
	/* the reason a view cannot be shown, "" when it can */
	char why[TOP_NVIEWS][256];
	const char *source[TOP_NVIEWS];	/* "ring buffer", "hist trigger" */
};

/* The whole picture for one refresh. */
struct top_table {
	const struct top_col *cols;
	int ncols;
	struct top_row *rows;
	size_t nrows;
	char **owned;		/* formatted texts the rows point to */
	size_t nowned;
};

extern const char *const top_view_names[TOP_NVIEWS];
/* The view named by name ("event", "task", ...); -1 when none. */
int top_view_parse(const char *name);
int top_view_ncols(enum top_view v);
/* The column titled name in view v (case-insensitive); -1 when none. */
int top_view_col(enum top_view v, const char *name);
/* Builds the sorted rows of the current view. */
int top_table_build(struct top_table *t, struct top_model *m, const struct top_ui *ui,
		    const struct top_perf *perf);
void top_table_free(struct top_table *t);
/* Formats the column titles (row NULL) or a row into buf, width columns. */
void top_table_line(const struct top_table *t, const struct top_row *row, int width,
		    int sort_col, char *buf, size_t size);
/* The header lines: totals, lost, rates, ftc's CPU use, filter, view. */
struct top_stats {
	double cpu_pct;		/* ftc's own CPU use over the last interval */
	double elapsed;
	const char *instance;
};
int top_header(const struct top_model *m, const struct top_ui *ui, const struct top_stats *s,
	       char lines[][256], int max);
/* The plain-text table, for --batch. */
void top_print_batch(FILE *f, struct top_model *m, const struct top_ui *ui,
		     const struct top_stats *s, const struct top_perf *perf, int width);

/* The ncurses screen (top-screen.c). */
int top_screen_open(void);
void top_screen_draw(struct top_model *m, const struct top_ui *ui, const struct top_stats *s,
		     const struct top_perf *perf);
/* A line of input at the bottom (the filter prompt); NULL on Escape. */
char *top_screen_prompt(const char *prompt, char *buf, size_t size);
/* Waits up to ms for a key; ERR (-1) when none came. */
int top_screen_key(int ms);
void top_screen_close(void);

/* Keys (top-keys.c). */
enum top_action {
	TOP_KEY_NONE,		/* nothing changed */
	TOP_KEY_REDRAW,		/* the display changed */
	TOP_KEY_RESET,		/* zero the counts */
	TOP_KEY_FILTER,		/* ask for a filter, then zero the counts */
	TOP_KEY_VIEW,		/* the view changed */
	TOP_KEY_QUIT,
};
/* key is a curses key; KEY_RESIZE and the prompt are the caller's. */
enum top_action top_key(int key, struct top_ui *ui);
extern const char *const top_help_lines[];

/* Perf counters per task (top-perf.c): IPC where a PMU exists. */
struct top_perf *top_perf_new(char *why, size_t size);
/* Opens counters for the tasks in pids (closing those no longer there). */
void top_perf_follow(struct top_perf *p, const uint64_t *pids, size_t n);
void top_perf_read(struct top_perf *p);
/* 0 and the last interval's cycles and instructions of pid; -1 when none. */
int top_perf_get(const struct top_perf *p, uint64_t pid, uint64_t *cycles, uint64_t *instr);
bool top_perf_supported(const struct top_perf *p);
void top_perf_free(struct top_perf *p);

/* The hist-trigger source (top-hist.c). */
struct ftc_state;
struct top_hist;
/* Sets a hist trigger on raw_syscalls:sys_enter keyed by pid and id; NULL
 * (with why) when the kernel has none or refuses it. */
struct top_hist *top_hist_start(struct ftc_state *st, const char *instance, char *why,
				size_t size);
/* Reads the hist file into the syscall and task maps of m. */
int top_hist_read(struct top_hist *h, struct top_model *m);
/* Zeroes the kernel's counts (the reset key). */
void top_hist_clear(struct top_hist *h);
void top_hist_free(struct top_hist *h);

#endif
