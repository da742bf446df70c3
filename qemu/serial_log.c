/* serial_log: line-by-line parser of a boot's serial console log. */
#include "qemu/serial_log.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define INIT_START SERIAL_INIT_START
#define INIT_DONE "stablemate-init: done"
#define TEST_HEADER "# selftests: "

const char *ktap_status_name(enum ktap_status s)
{
	switch (s) {
	case KTAP_PASS:
		return "pass";
	case KTAP_FAIL:
		return "fail";
	case KTAP_SKIP:
		return "skip";
	case KTAP_MISSING:
		break;
	}
	return "missing";
}

const char *kernel_event_name(enum kernel_event_kind k)
{
	switch (k) {
	case KEV_OOPS:
		return "oops";
	case KEV_BUG:
		return "bug";
	case KEV_PANIC:
		return "panic";
	case KEV_WARNING:
		break;
	}
	return "warning";
}

/* "[    1.234567] text": returns text and sets *stamp, or NULL. */
static const char *skip_printk_stamp(const char *s, double *stamp)
{
	const char *p = s;
	char *end;
	double v;

	if (*p != '[')
		return NULL;
	p++;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return NULL;
	v = strtod(p, &end);
	if (end == p || *end != ']')
		return NULL;
	*stamp = v;
	p = end + 1;
	if (*p == ' ')
		p++;
	return p;
}

static int kernel_event_kind_of(const char *t, enum kernel_event_kind *kind)
{
	if (starts_with(t, "Kernel panic - not syncing"))
		*kind = KEV_PANIC;
	else if (starts_with(t, "Oops: ") || starts_with(t, "general protection fault"))
		*kind = KEV_OOPS;
	else if (starts_with(t, "BUG: ") || starts_with(t, "kernel BUG at ") ||
		 strstr(t, ": BUG: ") || starts_with(t, "UBSAN: "))
		*kind = KEV_BUG;
	else if (starts_with(t, "WARNING: "))
		*kind = KEV_WARNING;
	else
		return 0;
	return 1;
}

static void add_event(struct serial_log *log, enum kernel_event_kind kind,
		      int line, const char *text)
{
	struct kernel_event *e;

	ALLOC_GROW(log->events, log->events_nr, log->events_alloc);
	e = &log->events[log->events_nr++];
	e->kind = kind;
	e->line = line;
	e->text = xstrdup(text);
}

static struct boot_test *find_test(struct serial_log *log, const char *name)
{
	for (size_t i = log->tests_nr; i-- > 0;)
		if (!strcmp(log->tests[i].name, name))
			return &log->tests[i];
	return NULL;
}

static struct boot_test *add_test(struct serial_log *log, const char *name, int line)
{
	struct boot_test *t;

	ALLOC_GROW(log->tests, log->tests_nr, log->tests_alloc);
	t = &log->tests[log->tests_nr++];
	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	t->status = KTAP_MISSING;
	t->sub_plan = -1;
	t->first_line = t->last_line = line;
	return t;
}

/* "DIR: NAME" (the runner's spelling) -> "DIR:NAME". */
static char *test_name(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == ':' && i + 1 < len && s[i + 1] == ' ') {
			strbuf_addch(&sb, ':');
			i++;
			continue;
		}
		strbuf_addch(&sb, s[i]);
	}
	strbuf_trim(&sb);
	return strbuf_detach(&sb, NULL);
}

struct tap_line {
	int ok;
	int num;
	const char *desc;	/* not NUL-terminated at desc_len */
	size_t desc_len;
	const char *directive;	/* NUL-terminated, or NULL */
};

/* "ok N desc # directive" / "not ok N ...". Returns 1 if it is one. */
static int parse_tap_result(const char *s, struct tap_line *r)
{
	const char *p, *hash;
	char *end;

	memset(r, 0, sizeof(*r));
	if (skip_prefix(s, "not ok", &p))
		r->ok = 0;
	else if (skip_prefix(s, "ok", &p))
		r->ok = 1;
	else
		return 0;
	if (*p != ' ' && *p != '\0')
		return 0;
	while (*p == ' ')
		p++;
	r->num = (int)strtol(p, &end, 10);
	if (end == p)
		r->num = -1;
	p = end;
	while (*p == ' ' || *p == '-')
		p++;
	r->desc = p;
	hash = strstr(p, " # ");
	if (!hash && starts_with(p, "# "))
		hash = p - 1;
	if (hash) {
		r->desc_len = hash >= p ? (size_t)(hash - p) : 0;
		r->directive = hash + 3;
	} else {
		r->desc_len = strlen(p);
	}
	while (r->desc_len && r->desc[r->desc_len - 1] == ' ')
		r->desc_len--;
	return 1;
}

static enum ktap_status tap_status(const struct tap_line *r)
{
	if (r->directive && istarts_with(r->directive, "SKIP"))
		return KTAP_SKIP;
	return r->ok ? KTAP_PASS : KTAP_FAIL;
}

/* A "# "-prefixed line inside a test program's block. */
static void parse_nested(struct boot_test *t, const char *s)
{
	struct tap_line r;
	struct ktap_result *k;
	const char *p;

	if (skip_prefix(s, "1..", &p)) {
		const char *skip;

		t->sub_plan = atoi(p);
		skip = strstr(p, "# ");
		if (skip && istarts_with(skip + 2, "SKIP")) {
			skip += 6;
			while (*skip == ' ')
				skip++;
			free(t->skip_reason);
			t->skip_reason = xstrdup(skip);
		}
		return;
	}
	if (!parse_tap_result(s, &r))
		return;
	ALLOC_GROW(t->sub, t->sub_nr, t->sub_alloc);
	k = &t->sub[t->sub_nr++];
	k->num = r.num;
	k->name = xstrndup(r.desc, r.desc_len);
	k->status = tap_status(&r);
	k->directive = r.directive ? xstrdup(r.directive) : NULL;
}

static void parse_line(struct serial_log *log, struct boot_test **cur,
		       char *line, int lineno)
{
	const char *text, *p;
	enum kernel_event_kind kind;
	struct tap_line r;
	double stamp;

	text = skip_printk_stamp(line, &stamp);
	/* firmware output without a newline before the kernel's first line
	 * ("Booting from ROM..[    0.000000] Linux version ...") */
	if (!text && line[0] != '#' && !starts_with(line, "ok ") &&
	    !starts_with(line, "not ok ") && strchr(line, '['))
		text = skip_printk_stamp(strchr(line, '['), &stamp);
	if (text) {
		log->last_stamp = stamp;
		if (!log->kernel_version && skip_prefix(text, "Linux version ", &p)) {
			size_t n = strcspn(p, " ");

			log->kernel_version = xstrndup(p, n);
		}
		if (kernel_event_kind_of(text, &kind))
			add_event(log, kind, lineno, text);
		return;
	}
	if (skip_prefix(line, INIT_START, &p)) {
		const char *up = strstr(p, "uptime=");

		log->init_started = 1;
		if (up)
			log->boot_seconds = strtod(up + 7, NULL);
		return;
	}
	if (starts_with(line, INIT_DONE)) {
		log->finished = 1;
		*cur = NULL;
		return;
	}
	if (skip_prefix(line, TEST_HEADER, &p)) {
		char *name = test_name(p, strlen(p));

		*cur = find_test(log, name);
		if (!*cur)
			*cur = add_test(log, name, lineno);
		free(name);
		return;
	}
	if (*cur && (line[0] == '#' && (line[1] == ' ' || line[1] == '\0'))) {
		(*cur)->last_line = lineno;
		parse_nested(*cur, line[1] ? line + 2 : line + 1);
		return;
	}
	if (skip_prefix(line, "1..", &p)) {
		log->plan = atoi(p);
		return;
	}
	if (parse_tap_result(line, &r)) {
		const char *d = r.desc;
		size_t dl = r.desc_len;
		struct boot_test *t;
		char *name;

		if (dl >= 11 && !strncmp(d, "selftests: ", 11)) {
			d += 11;
			dl -= 11;
		}
		name = test_name(d, dl);
		t = find_test(log, name);
		if (!t)
			t = add_test(log, name, lineno);
		free(name);
		t->status = tap_status(&r);
		free(t->directive);
		t->directive = r.directive ? xstrdup(r.directive) : NULL;
		t->last_line = lineno;
		*cur = NULL;
		return;
	}
	/* A kernel without printk time stamps, or a continuation line. */
	if (line[0] != '#' && kernel_event_kind_of(line, &kind))
		add_event(log, kind, lineno, line);
}

void serial_log_parse(struct serial_log *log, const char *buf, size_t len)
{
	struct boot_test *cur = NULL;
	struct strbuf line = STRBUF_INIT;
	size_t i = 0;

	while (i < len) {
		size_t start = i;

		while (i < len && buf[i] != '\n')
			i++;
		strbuf_reset(&line);
		for (size_t j = start; j < i; j++) {
			char c = buf[j];

			if (c == '\r')
				continue;
			if (c == 0x1b) {
				/* a terminal escape (the BIOS clears the
				 * screen): ESC [ params final, or ESC char */
				if (j + 1 < i && buf[j + 1] == '[') {
					j += 2;
					while (j < i && !(buf[j] >= '@' && buf[j] <= '~'))
						j++;
				} else {
					j++;
				}
				continue;
			}
			strbuf_addch(&line, c ? c : '?');
		}
		if (i < len)
			i++;
		log->lines++;
		parse_line(log, &cur, line.buf, log->lines);
	}
	strbuf_release(&line);
}

int serial_log_parse_file(struct serial_log *log, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (read_file(path, &sb) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	serial_log_parse(log, sb.buf, sb.len);
	strbuf_release(&sb);
	return 0;
}

void serial_log_release(struct serial_log *log)
{
	for (size_t i = 0; i < log->tests_nr; i++) {
		struct boot_test *t = &log->tests[i];

		for (size_t j = 0; j < t->sub_nr; j++) {
			free(t->sub[j].name);
			free(t->sub[j].directive);
		}
		FREE_ALL(t->sub, t->name, t->directive, t->skip_reason);
	}
	free(log->tests);
	for (size_t i = 0; i < log->events_nr; i++)
		free(log->events[i].text);
	free(log->events);
	free(log->kernel_version);
	*log = (struct serial_log)SERIAL_LOG_INIT;
}

const char *serial_log_verdict(const struct serial_log *log, int timed_out)
{
	int problem = 0;

	for (size_t i = 0; i < log->events_nr; i++) {
		if (log->events[i].kind == KEV_PANIC)
			return "panic";
		problem = 1;
	}
	if (timed_out || !log->finished)
		return "timeout";
	for (size_t i = 0; i < log->tests_nr; i++)
		if (log->tests[i].status == KTAP_FAIL ||
		    log->tests[i].status == KTAP_MISSING)
			problem = 1;
	if (log->plan >= 0 && (size_t)log->plan > log->tests_nr)
		problem = 1;
	return problem ? "fail" : "pass";
}
