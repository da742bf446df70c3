/* fileio: whole-file reads and crash-safe writes.
 * write_file_atomic() writes a temporary file in the same directory, fsyncs
 * it and renames it over the target, so a reader sees the old or the new
 * content, never a torn one; state and queue files all go through it. */
#ifndef SM_FILEIO_H
#define SM_FILEIO_H
#include <stddef.h>
#include "lib/strbuf.h"

/* Reads path ("-" is stdin) into sb (appending). Returns 0 or -1 (sm_error). */
int read_file(const char *path, struct strbuf *sb);
/* path as messages name it: "-" is "(standard input)" */
const char *input_name(const char *path);
int write_file_atomic(const char *path, const void *data, size_t len);
/* write_file_atomic() after creating path's directory (mkdir -p, 0755).
 * 0 or -1 (sm_error). */
int write_file_atomic_mkdir(const char *path, const void *data, size_t len);
/* A cache file's write: write_file_atomic_mkdir(). A cache that cannot be written is not an error:
 * on failure it warns "PATH: cannot write the WHAT: <error>" (sm_warn) and
 * returns -1, else 0. */
int write_cache_file(const char *path, const void *data, size_t len, const char *what);
/* mkdir -p; returns 0 or -1 (sm_error). */
int mkdir_p(const char *path, unsigned mode);
int file_exists(const char *path);
/* path made absolute against the current directory (not resolving links,
 * the file need not exist); NULL stays NULL. Caller frees. */
char *path_absolute(const char *path);
/* A directory of the XDG base directory rules: $ENV/SUB when the variable
 * env (XDG_CACHE_HOME, XDG_CONFIG_HOME) holds an absolute path (a relative
 * one is to be ignored), else $HOME/HOME_DEFAULT/SUB (home_default ".cache"),
 * /tmp for $HOME when it is unset. Caller frees. */
char *xdg_path(const char *env, const char *home_default, const char *sub);
/* Creates a fresh directory under $TMPDIR (or /tmp) from a prefix; caller frees. */
char *make_temp_dir(const char *prefix);
/* rm -rf, for test and cache clean-up; returns 0 or -1. */
int remove_tree(const char *path);

#endif
