// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftc dump: what a trace.dat holds, without reading its events: version,
 * byte order, compression, sections with offsets and sizes, options,
 * buffers with their CPUs' data offsets and sizes.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "options.h"
#include "ftc.h"
#include "ftc-reader.h"

enum { OPT_SECTIONS = 0x100, OPT_OPTIONS, OPT_BUFFERS };

static const struct cmd_option dump_options[] = {
	{ 0, "sections", NULL, "only the sections (v6: the metadata blocks)", OPT_SECTIONS },
	{ 0, "options", NULL, "only the options", OPT_OPTIONS },
	{ 0, "buffers", NULL, "only the buffers and their CPUs", OPT_BUFFERS },
	FTC_HELP_OPTION,
	{ 0 }
};

struct dump_opts {
	unsigned int only;
};

static int dump_run(int argc, char **argv);

const struct command cmd_dump = {
	.name = "dump",
	.summary = "show a trace.dat's metadata: version, compression, sections, options, CPUs",
	.synopsis = "[--sections|--options|--buffers] [FILE]",
	.options = dump_options,
	.run = dump_run,
};

static int dump_opt(int id, const char *arg, void *ctx)
{
	struct dump_opts *o = ctx;

	o->only |= 1U << (id - OPT_SECTIONS);
	return 0;
}

/* What a buffer enabled (a line per event, a tab before each trigger): counted, not listed. */
static void enabled_value(const struct ftc_dat_opt *o)
{
	const char *d = (const char *)o->data, *end = d + o->size;
	const char *nl = memchr(d, '\n', o->size);
	unsigned int events = 0, triggers = 0;

	if (!nl) {
		printf(" (%u bytes of data)", o->size);
		return;
	}
	printf(" buffer=\"%.*s\"", (int)(nl - d), d);
	for (const char *l = nl + 1; l < end && *l; l = nl + 1) {
		nl = memchr(l, '\n', (size_t)(end - l));
		if (*l == '\t')
			triggers++;
		else
			events++;
		if (!nl)
			break;
	}
	printf(" %u events, %u triggers", events, triggers);
}

/* Option payloads: text shown on one line, numbers decoded, the rest sized. */
static void option_value(struct ftc_reader *r, const struct ftc_dat_opt *o)
{
	const unsigned char *d = o->data;
	bool text = o->size > 0;

	switch (o->id) {
	case FTC_OPT_CPUCOUNT:
		if (o->size >= 4) {
			uint32_t v;

			memcpy(&v, d, 4);
			printf(" %u", ftc_reader_big_endian(r) ? __builtin_bswap32(v) : v);
		}
		return;
	case FTC_OPT_TRACEID:
	case FTC_OPT_HEADER_INFO ... FTC_OPT_CMDLINES:
	case FTC_OPT_DONE:
		if (o->size >= 8) {
			uint64_t v;

			memcpy(&v, d, 8);
			printf(" %llu", (unsigned long long)(ftc_reader_big_endian(r) ?
							     __builtin_bswap64(v) : v));
		}
		return;
	case FTC_OPT_FTC_ENABLED:
		enabled_value(o);
		return;
	case FTC_OPT_BUFFER:
	case FTC_OPT_BUFFER_TEXT:
		if (o->size > 8 && memchr(d + 8, '\0', o->size - 8))
			printf(" name=\"%s\"", (const char *)d + 8);
		return;
	}
	for (uint32_t i = 0; i < o->size; i++)
		if (d[i] && !isprint(d[i]) && !isspace(d[i]))
			text = false;
	if (!text) {
		printf(" (%u bytes of data)", o->size);
		return;
	}
	putchar(' ');
	for (uint32_t i = 0; i < o->size && d[i]; i++)
		fputs(d[i] == '\n' ? "\\n" : (char[2]){ (char)d[i], 0 }, stdout);
}

static void dump_sections(struct ftc_reader *r)
{
	printf("sections: %d\n", ftc_reader_nsections(r));
	for (int i = 0; i < ftc_reader_nsections(r); i++) {
		const struct ftc_dat_section *s = ftc_reader_section(r, i);

		printf("  section %-2u %-14s offset %-10llu size %-10llu%s \"%s\"\n", s->id,
		       ftc_section_name(s->id), (unsigned long long)s->offset,
		       (unsigned long long)s->size, s->flags & 1 ? " compressed" : "",
		       s->description);
	}
}

static void dump_options_list(struct ftc_reader *r)
{
	printf("options: %d\n", ftc_reader_noptions(r));
	for (int i = 0; i < ftc_reader_noptions(r); i++) {
		const struct ftc_dat_opt *o = ftc_reader_option(r, i);

		printf("  option %-2u %-14s offset %-10llu size %-6u", o->id, ftc_option_name(o->id),
		       (unsigned long long)o->offset, o->size);
		option_value(r, o);
		putchar('\n');
	}
}

static void dump_buffers(struct ftc_reader *r)
{
	printf("buffers: %d\n", ftc_reader_nbuffers(r));
	for (int i = 0; i < ftc_reader_nbuffers(r); i++) {
		const struct ftc_dat_buffer *b = ftc_reader_buffer(r, i);

		printf("  buffer \"%s\" clock %s page %u cpus %d%s\n", b->name,
		       b->clock ? b->clock : ftc_reader_clock(r), b->page_size, b->ncpus,
		       b->compressed ? " compressed" : "");
		for (int c = 0; c < b->ncpus; c++)
			printf("    cpu %-3d offset %-10llu size %-10llu entries %lld overrun %lld\n",
			       b->cpus[c].cpu, (unsigned long long)b->cpus[c].offset,
			       (unsigned long long)b->cpus[c].size, b->cpus[c].entries,
			       b->cpus[c].overrun);
	}
}

static int dump_run(int argc, char **argv)
{
	struct dump_opts o = { 0 };
	int ret = cmd_options_parse(&cmd_dump, argc, argv, dump_opt, &o);
	const char *path = "trace.dat", *warn;
	struct ftc_reader_opts ro = FTC_OPTS_INIT(ftc_reader_opts, .flags = FTC_READER_METADATA);
	struct ftc_reader *r;
	char stdin_path[64];

	if (ret < 0)
		return cmd_options_exit(ret);
	if (ret < argc)
		path = argv[ret++];
	if (ret < argc) {
		cmd_error(&cmd_dump, "unexpected argument '%s'", argv[ret]);
		return FTC_EXIT_USAGE;
	}
	ro.name = cmd_input_name(path);
	path = cmd_input_path("dump", path, stdin_path, sizeof(stdin_path));
	if (!path)
		return FTC_EXIT_FAIL;
	r = ftc_reader_open_opts(path, &ro);
	if (!r) {
		cmd_error(&cmd_dump, "%s", ftc_strerror());
		return FTC_EXIT_FAIL;
	}
	if (!o.only) {
		printf("file: %s\nsize: %llu\nversion: %d\nendian: %s\nlong size: %d\n"
		       "page size: %u\ncompression: %s %s\ncpus: %d\nclock: %s\n", ro.name,
		       (unsigned long long)ftc_reader_file_size(r), ftc_reader_version(r),
		       ftc_reader_big_endian(r) ? "big" : "little", ftc_reader_long_size(r),
		       ftc_reader_page_size(r), ftc_reader_compression(r),
		       ftc_reader_compression_version(r), ftc_reader_ncpus(r),
		       ftc_reader_clock(r));
		o.only = 7;
	}
	if (o.only & 1)
		dump_sections(r);
	if (o.only & 2)
		dump_options_list(r);
	if (o.only & 4)
		dump_buffers(r);
	warn = ftc_reader_warnings(r);
	if (warn)
		fprintf(stderr, "ftc dump: the file is damaged:\n%s", warn);
	ftc_reader_close(r);
	return warn ? FTC_EXIT_FAIL : FTC_EXIT_OK;
}
