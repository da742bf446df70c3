/* terminal: what stablemate prints to a terminal carries no terminal
 * control characters from the text it prints. Subjects, names, reviews and
 * warnings come from anyone's mail and commits; an ESC in them starts a
 * colour, window-title or clipboard (OSC 52) sequence, a CR writes over a
 * line. On a terminal each C0 control but tab and newline, DEL and each
 * UTF-8 C1 control is shown as one '?' (control_char_len, lib/util.h), as
 * ls shows one in a file name; CRLF stays, and so does stderr's lone CR,
 * the progress line's own. A pipe or a file gets the bytes as they are,
 * and JSON escapes controls anyway. */
#ifndef SM_CLI_TERMINAL_H
#define SM_CLI_TERMINAL_H

/* Puts the guard on stdout and on stderr, each if it is a terminal; call
 * before anything is printed and before any other atexit(). fclose(stdout)
 * flushes and closes the terminal's stream too, with its error; stderr's
 * guard is taken off at exit, after the other atexit() handlers ran. */
void cli_guard_terminal(void);

#endif
