// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Synthetic events and fprobes in the dynprobe layer: the spec, the definition line,
 * and which lines of a mock tracefs list and del take for ftc's (group
 * ftc, and synthetic events named ftc_*), and what del writes. The real
 * kernel is tested in tests/lab/synth.sh.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#include "check.h"
#include "ftc.h"
#include "ftc-dynprobe.h"

static void spec(void)
{
	struct ftc_probe_spec *ps;
	const char *file = NULL;
	char *def = NULL, *name;

	CHECK("parse s:ftc_lat", ftc_probe_spec_parse("s:ftc_lat pid_t pid; u64 lat", NULL,
						       &ps) == 0);
	if (!ps)
		return;
	CHECK("synthetic kind", ps->kind == FTC_PROBE_SYNTH && ps->nargs == 2);
	name = ftc_probe_spec_event(ps);
	CHECK_STR("the name as given", name, "ftc_lat");
	CHECK("definition", ftc_probe_definition(ps, name, &def, &file) == 0);
	CHECK_STR("definition line", def, "s:synthetic/ftc_lat pid_t pid; u64 lat");
	CHECK_STR("written to", file, "dynamic_events");
	free(def);
	free(name);
	ftc_probe_spec_free(ps);
	CHECK("s:synthetic/NAME", ftc_probe_spec_parse("s:synthetic/ftc_c char[16] comm", NULL,
							&ps) == 0 && !strcmp(ps->func, "ftc_c") &&
	      !strcmp(ps->args[0].type, "char[16]"));
	ftc_probe_spec_free(ps);
	CHECK("no ftc_ prefix: refused", ftc_probe_spec_parse("s:lat u64 lat", NULL, &ps) < 0 &&
	      errno == EINVAL && strstr(ftc_strerror(), "s:ftc_lat"));
	CHECK("the prefix alone: refused", ftc_probe_spec_parse("s:ftc_ u64 lat", NULL, &ps) < 0);
	CHECK("with -x it is no synthetic event",
	      ftc_probe_spec_parse("s:ftc_lat u64 lat", "/bin/true", &ps) < 0 ||
	      ps->kind != FTC_PROBE_SYNTH);
	if (ps)
		ftc_probe_spec_free(ps);
}

/* fprobes: f:FUNC[%return] ARG..., no offset; their line is for dynamic_events. */
static void fprobe_spec(void)
{
	struct ftc_probe_spec *ps = NULL;
	const char *file = NULL;
	char *def = NULL, *name;

	CHECK("parse f:vfs_read count", ftc_probe_spec_parse("f:vfs_read count", NULL, &ps) == 0);
	if (!ps)
		return;
	CHECK("fprobe kind, one argument", ps->kind == FTC_PROBE_FPROBE && ps->nargs == 1 &&
	      !ps->ret);
	name = ftc_probe_spec_event(ps);
	CHECK_STR("named after the function", name, "vfs_read");
	CHECK("definition", ftc_probe_definition(ps, name, &def, &file) == 0);
	CHECK_STR("definition line", def, "f:ftc/vfs_read vfs_read count");
	CHECK_STR("written to", file, "dynamic_events");
	free(def);
	free(name);
	ftc_probe_spec_free(ps);
	CHECK("parse f:vfs_read%return", ftc_probe_spec_parse("f:vfs_read%return ret=$retval",
							       NULL, &ps) == 0);
	if (ps) {
		name = ftc_probe_spec_event(ps);
		CHECK_STR("an exit probe's name", name, "vfs_read__return");
		def = NULL;
		CHECK("exit definition", ftc_probe_definition(ps, name, &def, &file) == 0);
		CHECK_STR("exit definition line", def, "f:ftc/vfs_read__return vfs_read%return "
			  "ret=$retval");
		free(def);
		free(name);
		ftc_probe_spec_free(ps);
	}
	CHECK("an offset is refused, naming kprobes",
	      ftc_probe_spec_parse("f:vfs_read+4", NULL, &ps) < 0 && errno == EINVAL &&
	      strstr(ftc_strerror(), "an fprobe takes no offset"));
	CHECK("f: with no function is refused", ftc_probe_spec_parse("f:", NULL, &ps) < 0 &&
	      errno == EINVAL);
}

static char *slurp(const char *dir, const char *file)
{
	char path[600], *buf = calloc(1, 4096);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (f && buf) {
		if (!fread(buf, 1, 4095, f))
			buf[0] = '\0';
	}
	if (f)
		fclose(f);
	return buf;
}

static void list_del(void)
{
	char dir[] = "/tmp/ftc-unit-XXXXXX", *out = NULL, *v;
	size_t len = 0;
	FILE *m;

	if (!mkdtemp(dir)) {
		SKIP("synthetic list", "cannot make a temporary directory");
		return;
	}
	check_put_file(dir, "uprobe_events", "p:ftc/greet /tmp/prog:0x0000000000001139\n");
	/* dynamic_events shows a synthetic event's name, a tab, its fields */
	check_put_file(dir, "dynamic_events", "p:ftc/greet /tmp/prog:0x0000000000001139\n"
		       "s:synthetic/ftc_lat\tpid_t pid; u64 lat\n"
		       "s:synthetic/wakeup_lat\tu64 lat\n"
		       "e:ftc/ep sched.sched_switch\n"
		       "f:ftc/vfs_read vfs_read count\n"
		       "s:synthetic/ftc_two\tu64 x\n");
	if (tracefs_set_tracing_dir(dir) < 0) {
		SKIP("synthetic list", "libtracefs cannot use a mock directory");
		return;
	}
	m = open_memstream(&out, &len);
	CHECK("list", m && ftc_probe_list(m) == 0);
	if (m)
		fclose(m);
	CHECK_STR("list: ftc's probes and ftc_ synthetic events, no one else's", out,
		  "ftc:greet\tp:ftc/greet /tmp/prog:0x0000000000001139\n"
		  "synthetic:ftc_lat\ts:synthetic/ftc_lat\tpid_t pid; u64 lat\n"
		  "ftc:ep\te:ftc/ep sched.sched_switch\n"
		  "ftc:vfs_read\tf:ftc/vfs_read vfs_read count\n"
		  "synthetic:ftc_two\ts:synthetic/ftc_two\tu64 x\n");
	free(out);
	/* a plain file takes the removals as appended lines: they show what
	 * del asked of the kernel */
	CHECK("del synthetic:* removes 2", ftc_probe_del("synthetic:*") == 2);
	v = slurp(dir, "dynamic_events");
	CHECK("del wrote -:synthetic/ftc_lat", strstr(v, "\n-:synthetic/ftc_lat\n") != NULL);
	CHECK("del wrote -:synthetic/ftc_two", strstr(v, "\n-:synthetic/ftc_two\n") != NULL);
	CHECK("del left wakeup_lat alone", !strstr(v, "-:synthetic/wakeup_lat"));
	CHECK("synthetic:* left group ftc alone", !strstr(v, "-:ftc/"));
	free(v);
	CHECK("del ftc:* leaves synthetic events alone", ftc_probe_del("ftc:ftc_lat") < 0 &&
	      errno == ENOENT);
	CHECK("del wakeup_lat: not ftc's", ftc_probe_del("wakeup_lat") < 0 && errno == ENOENT);
	CHECK("del of a bare name finds the synthetic event", ftc_probe_del("ftc_two") == 1);
	CHECK("del ftc:vfs_read removes the fprobe", ftc_probe_del("ftc:vfs_read") == 1);
	v = slurp(dir, "dynamic_events");
	CHECK("... from dynamic_events", strstr(v, "\n-:ftc/vfs_read\n") != NULL);
	free(v);
	tracefs_set_tracing_dir(NULL);
	for (const char *const *f = (const char *const[]){ "uprobe_events", "dynamic_events", NULL };
	     *f; f++) {
		char path[600];

		snprintf(path, sizeof(path), "%s/%s", dir, *f);
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	spec();
	fprobe_spec();
	list_del();
	return CHECK_DONE();
}
