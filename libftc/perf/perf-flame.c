// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Flame graphs drawn by ftc: folded stacks sorted by name so that equal
 * prefixes are adjacent, then walked once; a frame's box spans the
 * samples of every stack that shares its prefix.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "ftc-perf.h"
#include "xml-text.h"

#define FLAME_WIDTH	1200
#define FRAME_H		16
#define TOP		36
#define BOTTOM		8
#define MAX_DEPTH	512

struct flame {
	FILE *f;
	uint64_t total;
	int max_depth;
	bool draw;
};

struct open_frame {
	const char *name;
	size_t len;
	uint64_t start;
};

static unsigned int name_hash(const char *s, size_t len)
{
	unsigned int h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static bool is_kernel(const char *s, size_t len)
{
	return len > 4 && !memcmp(s + len - 4, "_[k]", 4);
}

static void emit(struct flame *fl, const struct open_frame *o, int depth, uint64_t end)
{
	double x = (double)o->start * FLAME_WIDTH / (double)fl->total;
	double w = (double)(end - o->start) * FLAME_WIDTH / (double)fl->total;
	int y = TOP + (fl->max_depth - depth) * FRAME_H;
	unsigned int h = name_hash(o->name, o->len);
	int r, g, b;
	size_t fit;

	if (!fl->draw) {
		if (depth > fl->max_depth)
			fl->max_depth = depth;
		return;
	}
	if (is_kernel(o->name, o->len)) {	/* kernel: orange */
		r = 225 + (int)(h % 30); g = 120 + (int)(h / 30 % 60); b = 30;
	} else {			/* user: red to yellow */
		r = 205 + (int)(h % 50); g = (int)(h / 50 % 200); b = (int)(h / 10000 % 55);
	}
	fprintf(fl->f, "<g><title>");
	ftc_xml_text(fl->f, o->name, o->len);
	fprintf(fl->f, " (%llu samples, %.2f%%)</title>"
		"<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"rgb(%d,%d,%d)\" "
		"rx=\"2\"/>", (unsigned long long)(end - o->start),
		100.0 * (double)(end - o->start) / (double)fl->total, x, y, w, FRAME_H - 1,
		r, g, b);
	fit = w > 14 ? (size_t)((w - 6) / 7) : 0;
	if (fit >= 3) {
		fprintf(fl->f, "<text x=\"%.2f\" y=\"%d\">", x + 3, y + FRAME_H - 4);
		if (o->len <= fit) {
			ftc_xml_text(fl->f, o->name, o->len);
		} else {
			ftc_xml_text(fl->f, o->name, fit - 2);
			fputs("..", fl->f);
		}
		fputs("</text>", fl->f);
	}
	fputs("</g>\n", fl->f);
}

/* One pass over the sorted stacks; frames close when the prefix changes. */
static void walk(struct flame *fl, struct ftc_perf_tally_entry **v, size_t n)
{
	struct open_frame st[MAX_DEPTH + 1];
	struct open_frame root = { "all", 3, 0 };
	int depth = 0;
	uint64_t x = 0;

	for (size_t i = 0; i < n; i++) {
		const char *p = v[i]->key;
		int d = 0;

		while (*p && d < MAX_DEPTH) {
			size_t len = strcspn(p, ";");

			if (d < depth && (st[d].len != len || memcmp(st[d].name, p, len))) {
				while (depth > d) {
					depth--;
					emit(fl, &st[depth], depth + 1, x);
				}
			}
			if (d >= depth) {
				st[d] = (struct open_frame){ p, len, x };
				depth = d + 1;
			}
			d++;
			p += len;
			if (*p == ';')
				p++;
		}
		while (depth > d) {
			depth--;
			emit(fl, &st[depth], depth + 1, x);
		}
		x += v[i]->self;
	}
	while (depth > 0) {
		depth--;
		emit(fl, &st[depth], depth + 1, x);
	}
	emit(fl, &root, 0, x);
}

int ftc_perf_flame_svg(FILE *f, struct ftc_perf_tally *folded, const char *title)
{
	size_t n = 0;
	struct ftc_perf_tally_entry **v = ftc_perf_tally_sorted(folded, FTC_PERF_BY_KEY, &n);
	struct flame fl = { .f = f };
	int height;

	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++)
		fl.total += v[i]->self;
	if (!fl.total) {
		free(v);
		return ftc_error(ENODATA, "no samples to draw a flame graph from");
	}
	walk(&fl, v, n);	/* first pass: depth only */
	fl.draw = true;
	height = TOP + (fl.max_depth + 1) * FRAME_H + BOTTOM;
	fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<style>text { font-family: Verdana, sans-serif; font-size: 12px; "
		"fill: rgb(0,0,0); pointer-events: none; } rect:hover { stroke: black; }</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" fill=\"rgb(250,250,240)\"/>\n"
		"<text x=\"%d\" y=\"24\" text-anchor=\"middle\" style=\"font-size: 17px\">",
		FLAME_WIDTH, height, FLAME_WIDTH, height, FLAME_WIDTH / 2);
	ftc_xml_text(f, title, strlen(title));
	fprintf(f, "</text>\n");
	walk(&fl, v, n);
	fprintf(f, "</svg>\n");
	free(v);
	return ferror(f) ? ftc_error(EIO, "cannot write the flame graph") : 0;
}
