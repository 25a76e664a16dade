/* program.h: finding the program to run before anything is started. */
#ifndef OSHRUN_PROGRAM_H
#define OSHRUN_PROGRAM_H

/* The path execve should use for name, looked up like execvp does (in PATH unless name has a
 * '/'). Returns a malloc'ed path, or NULL after printing why the program cannot run. */
char *osh_find_program(const char *name);

#endif
