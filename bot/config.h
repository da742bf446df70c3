/* config: the bot's one configuration file, git-config syntax, read with
 * libgit2 (git_config_open_ondisk). README.md ("Configuration") documents every key;
 * bot/stablemate.conf.example is a complete example.
 *
 * All strings are owned by the struct; sm_bot_config_release() frees them.
 * Relative paths in the file are taken relative to the file's directory. */
#ifndef SM_BOT_CONFIG_H
#define SM_BOT_CONFIG_H
#include <stddef.h>
#include "lib/strlist.h"
#include "rules/classify.h"
#include "rules/version.h"

enum sm_smtp_security { SM_SMTP_NONE, SM_SMTP_STARTTLS, SM_SMTP_TLS };

struct sm_bot_tree {
	char *name;			/* [tree "linux-6.1.y"] */
	char *repo;			/* tree.<name>.repo */
	char *branch;			/* tree.<name>.branch, default: the name */
	struct sm_version version;	/* tree.<name>.version, default: from the name */
};

struct sm_bot_subscriber {
	char *name;			/* [subscriber "greg"] */
	char *address;			/* "Greg KH <greg@kroah.com>" (UTF-8) */
	struct strlist trees;		/* tree names; empty: every tree */
	enum sm_verdict_kind min_verdict;	/* default SM_CANDIDATE */
	struct strlist paths;		/* fnmatch globs on touched files; empty: all */
	struct strlist keywords;	/* substrings of subject/body/reason codes; empty: all */
	int patches;			/* send the patches as replies (default 1) */
};

/* The boot stage's settings ([boot], and [boot "TREE"] for one tree: any
 * key it sets overrides [boot]'s). Unset: NULL, empty, -1 (the ints). */
struct sm_bot_boot {
	char *source;			/* boot.source: the kernel source tarball */
	char *arch;			/* boot.arch: x86_64, arm64 */
	struct strlist configs;		/* boot.config: kconfig fragments (a list) */
	struct strlist tests;		/* boot.tests: DIR/NAME programs (a list) */
	long timeout;			/* boot.timeout: QEMU seconds */
	long test_timeout;		/* boot.testTimeout: one test program's */
	char *accel;			/* boot.accel: kvm, tcg */
	int compare;			/* boot.compare */
	int bisect;			/* boot.bisect (implies compare) */
};

/* One booted tree: [boot] merged with its [boot "TREE"]. */
struct sm_bot_boot_tree {
	char *name;			/* the tree */
	struct sm_bot_boot s;
};

struct sm_bot_config {
	char *path;			/* the file, as given */
	char *upstream_repo;
	char *upstream_branch;		/* default "master" */
	char *range;			/* upstream.range, e.g. "v6.6..master"; may be NULL */
	struct sm_bot_tree *trees;
	size_t nr_trees;
	char *notmuch_db;		/* notmuch.database; NULL: no harvest */
	char *notmuch_query;		/* NULL: harvest's default query */
	char *smtp_host;		/* default "127.0.0.1" */
	int smtp_port;			/* default 25 (465 for tls) */
	enum sm_smtp_security smtp_security;	/* default starttls */
	int smtp_allow_plaintext_auth;	/* smtp.allowPlaintextAuth: user with security
					 * none to a host that is not loopback */
	char *smtp_user;
	char *smtp_password_file;
	char *smtp_password_env;
	long smtp_timeout;		/* seconds, default 60 */
	int smtp_verify;		/* verify TLS peer (default 1) */
	char *smtp_ca_file;		/* smtp.caFile: trust these CAs, not the system's */
	char *from;			/* bot.from "Stable Bot <bot@example.org>" */
	char *list_id;			/* bot.listId "<candidates.example.org>" */
	struct strlist cc;		/* bot.cc: extra recipients of every mail (a list) */
	char *state_dir;		/* bot.stateDir */
	char *notes_ref;		/* bot.notesRef, default refs/notes/stable-review */
	char *rules_dir;		/* bot.rulesDir, NULL: default rules */
	char *cache_dir;		/* bot.cacheDir, NULL: scan's default */
	int check_applies;		/* bot.checkApplies, default 1 */
	unsigned search_conflicts;	/* bot.searchConflicts (scan --search), default 0 */
	long lock_timeout;		/* bot.lockTimeout: seconds a cycle waits for
					 * another one's lock on stateDir, default 600 */
	int min_soak_days;		/* bot.minSoakDays, default 0 */
	int series_whole;		/* bot.seriesWhole: promote missing series parts, default 0 */
	char *queue_dir;		/* bot.queueDir: a stable-queue checkout, or NULL */
	char *cve_dir;			/* bot.cveDir: kernel CVE records, or NULL */
	struct sm_bot_subscriber *subs;
	size_t nr_subs;
	/* [boot]: the trees to boot (boot.trees, or a [boot "TREE"] section),
	 * in cfg's tree order, each with its settings; none by default. */
	struct sm_bot_boot boot;	/* [boot] itself */
	struct sm_bot_boot_tree *boot_trees;	/* while loading: the [boot "TREE"]
						 * sections; then the merged trees */
	size_t nr_boot_trees;
	struct strlist boot_names;	/* boot.trees */
	char *boot_cache;		/* boot.cacheDir: kernel trees and builds
					 * (default: `stablemate boot`'s cache) */
	char *boot_distcc;		/* boot.distccHosts */
	int boot_ccache;		/* boot.ccache */
};

/* Reads and validates path. Returns 0, or -1 with sm_error naming the file,
 * the line when it is about one setting, and the key, but never a value:
 * "bot.conf:27: smtp.port: not a number from 1 to 65535" (c is then already
 * released; releasing it again is harmless). */
int sm_bot_config_load(struct sm_bot_config *c, const char *path);
void sm_bot_config_release(struct sm_bot_config *c);
const struct sm_bot_tree *sm_bot_config_tree(const struct sm_bot_config *c, const char *name);
/* The boot settings of tree, or NULL when it is not booted. */
const struct sm_bot_boot_tree *sm_bot_config_boot(const struct sm_bot_config *c, const char *tree);
/* Does the subscriber follow tree? */
int sm_bot_subscriber_wants_tree(const struct sm_bot_subscriber *s, const char *tree);
/* The SMTP password from passwordFile (first line; a warning when others
 * may read the file) or passwordEnv; *out is NULL when neither is set.
 * Caller frees. Returns 0 or -1 (sm_error). */
int sm_bot_config_smtp_password(const struct sm_bot_config *c, char **out);
/* localhost, 127.0.0.0/8 or ::1. */
int sm_bot_host_is_loopback(const char *host);
/* The bare address of an "Name <addr>" string into a new string. */
char *sm_bot_bare_address(const char *addr);

#endif
