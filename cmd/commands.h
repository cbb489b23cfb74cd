/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one table of subcommands: FTC_CMD(name) declares
 * `const struct command cmd_<name>`, defined in cmd/<name>.c.
 * Adding a command is one file plus one line here. The order is the order
 * of `ftc --help`: control, capture, reading, perf.
 */
FTC_CMD(check)
FTC_CMD(list)
FTC_CMD(status)
FTC_CMD(start)
FTC_CMD(stop)
FTC_CMD(restart)
FTC_CMD(clear)
FTC_CMD(reset)
FTC_CMD(show)
FTC_CMD(marker)
FTC_CMD(probe)
FTC_CMD(snapshot)
FTC_CMD(hist)
FTC_CMD(top)
FTC_CMD(boot_args)
FTC_CMD(oops_dump)
FTC_CMD(record)
FTC_CMD(listen)
FTC_CMD(stream)
FTC_CMD(extract)
FTC_CMD(restore)
FTC_CMD(convert)
FTC_CMD(split)
FTC_CMD(import)
FTC_CMD(report)
FTC_CMD(dump)
FTC_CMD(sched)
FTC_CMD(syscalls)
FTC_CMD(stat)
FTC_CMD(profile)
