// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A latency heat map in bounded memory: max_columns slices of log2
 * buckets, allocated once. A value past the last slice halves the
 * resolution (pairs of slices merge, the width doubles) instead of
 * growing, so a run of any length costs the same.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ftc.h"
#include "ftc-heat.h"
#include "xml-text.h"

#define CELL_H		14
#define LEFT		90
#define TOP		48
#define BOTTOM		44
#define MAP_W		1100

struct ftc_heat {
	uint64_t (*col)[FTC_HEAT_BUCKETS];
	size_t max, n;
	uint64_t start, width, count;
	bool started;
};

struct ftc_heat *ftc_heat_new(size_t max_columns, uint64_t first_width_ns)
{
	struct ftc_heat *h = calloc(1, sizeof(*h));

	if (max_columns == 1) {
		free(h);
		ftc_error(EINVAL, "a heat map needs 2 columns or more");
		return NULL;
	}
	if (h) {
		h->max = max_columns ? max_columns : 200;
		h->width = first_width_ns ? first_width_ns : 1000000;
		h->col = calloc(h->max, sizeof(*h->col));
	}
	if (!h || !h->col) {
		free(h);
		ftc_error(ENOMEM, "out of memory");
		return NULL;
	}
	return h;
}

void ftc_heat_free(struct ftc_heat *h)
{
	if (!h)
		return;
	free(h->col);
	free(h);
}

int ftc_heat_bucket(uint64_t value)
{
	return value ? 63 - __builtin_clzll(value) : 0;
}

/* Pairs of slices become one slice of twice the width. */
static void halve(struct ftc_heat *h)
{
	size_t n = (h->n + 1) / 2;

	for (size_t j = 0; j < n; j++)
		for (int b = 0; b < FTC_HEAT_BUCKETS; b++)
			h->col[j][b] = h->col[2 * j][b] + (2 * j + 1 < h->n ? h->col[2 * j + 1][b] : 0);
	memset(h->col + n, 0, (h->max - n) * sizeof(*h->col));
	h->n = n;
	h->width = h->width > UINT64_MAX / 2 ? UINT64_MAX : h->width * 2;
}

int ftc_heat_add(struct ftc_heat *h, uint64_t ts, uint64_t value)
{
	uint64_t i;

	if (!h->started) {
		h->start = ts;
		h->started = true;
	}
	i = ts > h->start ? (ts - h->start) / h->width : 0;
	while (i >= h->max) {
		halve(h);
		i = (ts - h->start) / h->width;
	}
	if (i >= h->n)
		h->n = i + 1;
	h->col[i][ftc_heat_bucket(value)]++;
	h->count++;
	return 0;
}

size_t ftc_heat_columns(const struct ftc_heat *h)
{
	return h->n;
}

uint64_t ftc_heat_start(const struct ftc_heat *h)
{
	return h->start;
}

uint64_t ftc_heat_width(const struct ftc_heat *h)
{
	return h->width;
}

uint64_t ftc_heat_count(const struct ftc_heat *h)
{
	return h->count;
}

const uint64_t *ftc_heat_column(const struct ftc_heat *h, size_t i)
{
	return i < h->n ? h->col[i] : NULL;
}

void ftc_heat_time_label(double ns, char *buf, size_t size)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	int u = 0;

	while (u < 3 && ns >= 1000) {
		ns /= 1000;
		u++;
	}
	snprintf(buf, size, u && ns < 1000 ? "%.3g%s" : "%.0f%s", ns, unit[u]);
}

void ftc_heat_bucket_label(int b, char *buf, size_t size)
{
	ftc_heat_time_label(ldexp(1.0, b < 0 ? 0 : b), buf, size);
}

/* From pale yellow (1) to dark red (the most), on a log scale. */
static void colour(uint64_t c, uint64_t most, char *buf, size_t size)
{
	double t = most > 1 ? log1p((double)c) / log1p((double)most) : 1.0;

	snprintf(buf, size, "rgb(%d,%d,%d)", (int)(255 - 95 * t), (int)(235 * (1 - t)),
		 (int)(170 * (1 - t)));
}

/* The lowest and highest bucket holding a value, and the largest cell. */
static void extent(const struct ftc_heat *h, int *lo, int *hi, uint64_t *most)
{
	*lo = FTC_HEAT_BUCKETS;
	*hi = -1;
	*most = 0;
	for (size_t i = 0; i < h->n; i++)
		for (int b = 0; b < FTC_HEAT_BUCKETS; b++) {
			if (!h->col[i][b])
				continue;
			*lo = b < *lo ? b : *lo;
			*hi = b > *hi ? b : *hi;
			*most = h->col[i][b] > *most ? h->col[i][b] : *most;
		}
}

static void cell(FILE *f, const struct ftc_heat *h, size_t i, int b, int y, double cw,
		 uint64_t most)
{
	char fill[32], from[16], to[16];

	colour(h->col[i][b], most, fill, sizeof(fill));
	ftc_heat_bucket_label(b, from, sizeof(from));
	ftc_heat_bucket_label(b + 1, to, sizeof(to));
	fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\">"
		"<title>+%.6f s: %" PRIu64 " in [%s, %s)</title></rect>\n", LEFT + cw * (double)i, y,
		cw, CELL_H, fill, (double)(h->width * i) / 1e9, h->col[i][b], from, to);
}

static void axes(FILE *f, const struct ftc_heat *h, int lo, int hi, double cw)
{
	int bottom = TOP + (hi - lo + 1) * CELL_H;
	char label[16];

	for (int b = lo; b <= hi + 1; b++) {
		ftc_heat_bucket_label(b, label, sizeof(label));
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", LEFT - 6,
			TOP + (hi + 1 - b) * CELL_H + 4, label);
	}
	for (int k = 0; k <= 5; k++) {
		size_t i = (size_t)((double)h->n * k / 5);

		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">+%.3f s</text>\n",
			LEFT + cw * (double)i, bottom + 16, (double)(h->width * i) / 1e9);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time since the first value "
		"(a column is %.3f ms)</text>\n", LEFT + MAP_W / 2, bottom + 34,
		(double)h->width / 1e6);
}

int ftc_heat_svg(FILE *f, const struct ftc_heat *h, const char *title)
{
	double cw = h->n ? (double)MAP_W / (double)h->n : MAP_W;
	uint64_t most;
	int lo, hi;

	extent(h, &lo, &hi, &most);
	if (hi < 0)
		lo = hi = 0;
	fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n<svg version=\"1.1\" "
		"xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"Verdana\" font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" "
		"fill=\"white\"/>\n<text x=\"%d\" y=\"24\" font-size=\"15\" text-anchor=\"middle\">",
		LEFT + MAP_W + 50, TOP + (hi - lo + 1) * CELL_H + BOTTOM, (LEFT + MAP_W) / 2);
	ftc_xml_text(f, title, strlen(title));
	fputs("</text>\n", f);
	for (size_t i = 0; i < h->n; i++)
		for (int b = lo; b <= hi; b++)
			if (h->col[i][b])
				cell(f, h, i, b, TOP + (hi - b) * CELL_H, cw, most);
	axes(f, h, lo, hi, cw);
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}

uint64_t ftc_heat_percentile(const uint64_t *hist, uint64_t count, uint64_t max, double pct)
{
	uint64_t want, seen = 0;

	if (!count || pct <= 0)
		return 0;
	want = (uint64_t)((double)count * (pct > 100 ? 100 : pct) / 100.0 + 0.999999);
	for (int b = 0; b < FTC_HEAT_BUCKETS; b++) {
		seen += hist[b];
		if (seen >= want) {
			uint64_t top = b >= 63 ? UINT64_MAX : (2ULL << b) - 1;

			return top < max ? top : max;
		}
	}
	return max;
}
