/* parse-options: the option-table parser and the --help generator. */
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "lib/util.h"
#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <string.h>

#define HELP_COLUMN 24

struct lookup {
	const struct sm_option *found;	/* exact match, else the one prefix match */
	int exact, prefixes;
};

static void find_long(const struct sm_option *o, const char *name, size_t len, int bool_only,
		      struct lookup *l)
{
	for (; o->type != OPTION_END; o++) {
		if (o->type == OPTION_INHERIT) {
			find_long(o->value, name, len, bool_only, l);
			continue;
		}
		if (!o->long_name || strncmp(o->long_name, name, len))
			continue;
		if (bool_only && o->type != OPTION_BOOL)
			continue;
		if (!o->long_name[len]) {
			if (!l->exact)
				l->found = o;
			l->exact = 1;
		} else if (!l->exact) {
			l->found = o;
			l->prefixes++;
		}
	}
}

static const struct sm_option *find_short(const struct sm_option *o, int c)
{
	for (; o->type != OPTION_END; o++) {
		if (o->type == OPTION_INHERIT) {
			const struct sm_option *r = find_short(o->value, c);

			if (r)
				return r;
		} else if (o->type != OPTION_GROUP && o->short_name == c) {
			return o;
		}
	}
	return NULL;
}

/* An alias's target, looked up by its exact long name. */
static const struct sm_option *resolve(const struct sm_option *root, const struct sm_option *o)
{
	for (int depth = 0; o && o->type == OPTION_ALIAS && depth < 8; depth++) {
		struct lookup l = { NULL, 0, 0 };

		find_long(root, o->help, strlen(o->help), 0, &l);
		o = l.exact ? l.found : NULL;
	}
	return o;
}

static int takes_value(const struct sm_option *o)
{
	switch (o->type) {
	case OPTION_STRING:
	case OPTION_STRING_LIST:
	case OPTION_INT:
	case OPTION_UINT:
		return 1;
	case OPTION_CALLBACK:
		return !(o->flags & PARSE_OPT_NOARG);
	default:
		return 0;
	}
}

/* "--name" or "-n", as the user would type it. */
static const char *optname(const struct sm_option *o, int as_short, char *buf, size_t n)
{
	if (as_short || !o->long_name)
		snprintf(buf, n, "-%c", o->short_name);
	else
		snprintf(buf, n, "--%s", o->long_name);
	return buf;
}

static int set_value(const struct sm_option *o, const char *name, const char *arg, int unset)
{
	char *end;

	switch (o->type) {
	case OPTION_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPTION_STRING_LIST:
		strlist_append(o->value, arg);
		return 0;
	case OPTION_BOOL:
		*(int *)o->value = !unset;
		return 0;
	case OPTION_SET_INT:
		*(int *)o->value = (int)o->defval;
		return 0;
	case OPTION_INT: {
		long v;

		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || end == arg || *end || v < INT_MIN || v > INT_MAX)
			return sm_error("%s: '%s' is not a number", name, arg);
		*(int *)o->value = (int)v;
		return 0;
	}
	case OPTION_UINT: {
		unsigned long v;

		errno = 0;
		v = strtoul(arg, &end, 10);
		if (errno || end == arg || *end || arg[0] == '-' || v > UINT_MAX)
			return sm_error("%s: '%s' is not a number", name, arg);
		*(unsigned *)o->value = (unsigned)v;
		return 0;
	}
	case OPTION_CALLBACK:
		return o->callback(o, arg) < 0 ? -1 : 0;
	default:
		return sm_error("%s: not an option", name);
	}
}

static int wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}

static int parse_long(const struct sm_option *opts, int argc, char **argv, int *i)
{
	const char *arg = argv[*i] + 2, *eq = strchr(arg, '='), *value = NULL;
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	struct lookup l = { NULL, 0, 0 };
	const struct sm_option *o;
	int unset = 0;
	char name[128];

	find_long(opts, arg, len, 0, &l);
	if (!l.exact && !l.prefixes && len > 3 && !strncmp(arg, "no-", 3)) {
		find_long(opts, arg + 3, len - 3, 1, &l);
		unset = l.exact || l.prefixes;
	}
	if (!l.exact && l.prefixes > 1)
		return sm_error("ambiguous option '--%.*s'", (int)len, arg);
	if (!l.found)
		return sm_error("unknown option '--%.*s'", (int)len, arg);
	o = resolve(opts, l.found);
	if (!o)
		return sm_error("option '--%.*s' is an alias of an unknown option", (int)len, arg);
	optname(o, 0, name, sizeof(name));
	if (unset && o->type != OPTION_BOOL)
		return sm_error("unknown option '--%.*s'", (int)len, arg);
	if (eq) {
		if (!takes_value(o) || unset)
			return sm_error("option '%s' takes no value", name);
		value = eq + 1;
	} else if (takes_value(o) && !(o->flags & PARSE_OPT_OPTARG)) {
		if (*i + 1 >= argc)
			return sm_error("option '%s' requires a value", name);
		value = argv[++*i];
	}
	return set_value(o, name, value, unset);
}

static int parse_short(const struct sm_option *opts, int argc, char **argv, int *i)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		const struct sm_option *o = resolve(opts, find_short(opts, *p));
		char name[128];

		if (*p == 'h')
			return PARSE_OPT_HELP;
		if (!o)
			return sm_error("unknown option '-%c'", *p);
		optname(o, 1, name, sizeof(name));
		name[1] = *p;
		if (takes_value(o) && !(o->flags & PARSE_OPT_OPTARG)) {
			const char *value = p[1] ? p + 1 : NULL;

			if (!value) {
				if (*i + 1 >= argc)
					return sm_error("option '%s' requires a value", name);
				value = argv[++*i];
			}
			return set_value(o, name, value, 0);
		}
		if (set_value(o, name, NULL, 0) < 0)
			return -1;
	}
	return 0;
}

int parse_options(int argc, char **argv, const struct sm_option *opts, unsigned flags)
{
	int nr = 0, i;

	if (wants_help(argc, argv))
		return PARSE_OPT_HELP;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r;

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[nr++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--version"))
			return PARSE_OPT_VERSION;
		r = a[1] == '-' ? parse_long(opts, argc, argv, &i) : parse_short(opts, argc, argv, &i);
		if (r < 0)
			return r == PARSE_OPT_HELP ? r : PARSE_OPT_ERROR;
	}
	while (i < argc)
		argv[nr++] = argv[i++];
	argv[nr] = NULL;
	return nr;
}

/* Appends text, its continuation lines indented to the help column. */
static void add_help(struct strbuf *out, const char *help, size_t col)
{
	if (col + 2 > HELP_COLUMN) {
		strbuf_addch(out, '\n');
		col = 0;
	}
	for (const char *p = help; *p; ) {
		size_t n = strcspn(p, "\n");

		for (; col < HELP_COLUMN; col++)
			strbuf_addch(out, ' ');
		strbuf_add(out, p, n);
		strbuf_addch(out, '\n');
		p += n;
		if (*p)
			p++;
		col = 0;
	}
}

static void usage_block(const struct sm_option *o, struct strbuf *out)
{
	for (; o->type != OPTION_END; o++) {
		size_t start = out->len;

		if (o->type == OPTION_INHERIT) {
			usage_block(o->value, out);
			continue;
		}
		if (o->type == OPTION_GROUP) {
			strbuf_addf(out, "\n%s\n", o->help);
			continue;
		}
		if (o->type == OPTION_ALIAS || (o->flags & PARSE_OPT_HIDDEN) || !o->help)
			continue;
		strbuf_addstr(out, "  ");
		if (o->short_name)
			strbuf_addf(out, "-%c%s", o->short_name, o->long_name ? ", " : "");
		else
			strbuf_addstr(out, "    ");
		if (o->long_name)
			strbuf_addf(out, "--%s", o->long_name);
		if (takes_value(o) && o->argh)
			strbuf_addf(out, (o->flags & PARSE_OPT_OPTARG) ? "[=%s]" : " %s", o->argh);
		add_help(out, o->help, out->len - start);
	}
}

void parse_options_usage(const struct sm_option *opts, const struct sm_usage *u,
			 struct strbuf *out)
{
	const char *line = u->synopsis;

	strbuf_addstr(out, "usage: ");
	for (const char *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		strbuf_add(out, line, nl - line + 1);
		strbuf_addstr(out, "       ");
	}
	strbuf_addf(out, "%s\n", line);
	if (u->description)
		strbuf_addf(out, "\n%s", u->description);
	strbuf_addstr(out, "\nOptions:\n");
	usage_block(opts, out);
	strbuf_addstr(out, "  -h, --help            this text\n"
		      "      --version         print stablemate's version\n");
	if (u->epilog)
		strbuf_addf(out, "\n%s", u->epilog);
}
