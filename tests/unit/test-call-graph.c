// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of --call-graph MODE as ftc profile and ftc record take it:
 * "--call-graph=MODE" and "--call-graph MODE" alike (getopt_long's
 * required argument), fp, dwarf and dwarf,SIZE, and the values refused
 * with exit 2 (a bad mode, a size that is not a multiple of 8 or beyond
 * what a sample record holds, nothing at all).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
/* cmd/ is not a library: the files under test are built in. */
#include "options.c"
#include "call-graph.c"

enum { OPT_CG = 0x100 };

static const struct cmd_option opts[] = {
	{ 'g', NULL, NULL, "fp call chains", 0 },
	{ 0, "call-graph", "MODE", "call chains", OPT_CG },
	{ 0 }
};

static const struct command cmd = { .name = "profile", .options = opts };

struct got {
	int g;
	unsigned int stack;
	int modes;
};

static int on_opt(int id, const char *arg, void *ctx)
{
	struct got *g = ctx;

	if (id == 'g') {
		g->g++;
		return 0;
	}
	g->modes++;
	return cmd_parse_call_graph(arg, &g->stack);
}

/* Parses "ftc profile A1 [A2] -- true": the index of "true", or -1. */
static int parse(struct got *g, const char *a1, const char *a2)
{
	char *argv[] = { "profile", (char *)a1, (char *)a2, "--", "true", NULL };
	int argc = 5;

	if (!a2) {
		argv[2] = "--";
		argv[3] = "true";
		argv[4] = NULL;
		argc = 4;
	}
	memset(g, 0, sizeof(*g));
	g->stack = 12345;
	return cmd_options_parse(&cmd, argc, argv, on_opt, g);
}

int main(void)
{
	static const char *const bad[] = {
		"dwarf,7", "dwarf,0", "dwarf,65536", "dwarf,70000", "dwarf,", "dwarf,x",
		"dwarf,-8", "lbr", "fp,8", "DWARF", "dwarf 8",
	};
	struct got g;
	int ret;

	/* The messages of the refused values go to stderr: not this output. */
	if (!freopen("/dev/null", "w", stderr))
		return 1;
	ret = parse(&g, "--call-graph=dwarf", NULL);
	CHECK("--call-graph=dwarf takes perf's 8192 bytes", ret == 3 && g.modes == 1 &&
	      g.stack == 8192);
	ret = parse(&g, "--call-graph", "dwarf");
	CHECK("--call-graph dwarf (separate word) is the same", ret == 4 && g.stack == 8192);
	ret = parse(&g, "--call-graph", "dwarf,4096");
	CHECK("--call-graph dwarf,4096", ret == 4 && g.stack == 4096);
	ret = parse(&g, "--call-graph=dwarf,65528", NULL);
	CHECK("--call-graph=dwarf,65528 is the largest", ret == 3 && g.stack == 65528);
	ret = parse(&g, "--call-graph", "fp");
	CHECK("--call-graph fp: no stack copies", ret == 4 && g.stack == 0 && g.modes == 1);
	ret = parse(&g, "-g", NULL);
	CHECK("-g is a flag", ret == 3 && g.g == 1 && g.modes == 0);
	ret = parse(&g, "--call-graph", NULL);
	CHECK("--call-graph without a mode takes the next word ('--') and refuses it",
	      ret == -1 && g.modes == 1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char name[96];

		snprintf(name, sizeof(name), "--call-graph '%s' is refused", bad[i]);
		CHECK(name, parse(&g, "--call-graph", bad[i]) == -1);
	}
	CHECK("--call-graph '' is refused", parse(&g, "--call-graph=", NULL) == -1);
	return CHECK_DONE();
}
