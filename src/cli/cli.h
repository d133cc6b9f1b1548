/*
 * cli.h - the subcommands of the fieldmarshal program.  Each takes the
 * arguments after the program name (argv[0] is the subcommand's name) and
 * returns the exit code: 0 ok, 1 failure, 2 usage error.
 */
#ifndef FF_CLI_H
#define FF_CLI_H

int ff_cli_bench(int argc, char **argv);
int ff_cli_edit(int argc, char **argv);
int ff_cli_replay(int argc, char **argv);
int ff_cli_replays(int argc, char **argv);
int ff_cli_export(int argc, char **argv);
int ff_cli_import(int argc, char **argv);
int ff_cli_levels(int argc, char **argv);
int ff_cli_run(int argc, char **argv);
int ff_cli_show(int argc, char **argv);
int ff_cli_sim(int argc, char **argv);
int ff_cli_solve(int argc, char **argv);

#endif
