/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one table of subcommands: FTC_CMD(name) declares
 * `const struct ftc_command ftc_cmd_<name>`, defined in cmd/<name>.c.
 * Adding a command is one file plus one line here.
 */
FTC_CMD(check)
