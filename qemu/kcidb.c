/* kcidb: a boot result as a KCIDB I/O document (schema v4.0), the JSON
 * KernelCI's common database takes from submitters (kcidb-submit). */
#include "qemu/boot.h"
#include "lib/json.h"
#include "lib/util.h"
#include <ctype.h>
#include <string.h>
#include <time.h>

static void add_time(struct json_writer *w, const char *key, long long t)
{
	char buf[40];
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S+00:00", &tm);
	json_string(w, key, buf);
}

/* file:// URL of a local path (the logs stay where the run left them). */
static char *file_url(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "file://");
	for (const char *p = path; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (isalnum(c) || strchr("/-._~", c))
			strbuf_addch(&sb, c);
		else
			strbuf_addf(&sb, "%%%02X", c);
	}
	return strbuf_detach(&sb, NULL);
}

static void add_url(struct json_writer *w, const char *key, const char *path)
{
	char *url = file_url(path);

	json_string(w, key, url);
	free(url);
}

static void add_resource(struct json_writer *w, const char *name, const char *path)
{
	json_object_begin(w, NULL);
	json_string(w, "name", name);
	add_url(w, "url", path);
	json_object_end(w);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* A KTAP name as a KCIDB path component: [.a-zA-Z0-9_-] only, no dots. */
static void path_part(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		strbuf_addch(out, isalnum(c) || c == '-' || c == '_' ? c : '_');
	}
}

static const char *kcidb_status(enum ktap_status s)
{
	switch (s) {
	case KTAP_PASS: return "PASS";
	case KTAP_FAIL: return "FAIL";
	case KTAP_SKIP: return "SKIP";
	case KTAP_MISSING: return "ERROR";
	}
	return "ERROR";
}

/* One checkout (the tree, with r's patches when patched), its build and
 * the build's tests. */
enum section { CHECKOUTS, BUILDS, TESTS };

static void add_state(struct json_writer *w, enum section section, const struct boot_result *r,
		      const struct boot_result *top, const char *origin, int patched)
{
	char *ck, *build;
	const char *stamp = top->run_dir ? base_name(top->run_dir) : "run";
	int built = r->verdict && strcmp(r->verdict, "apply-failed") && r->build_log;

	ck = xasprintf("%s:%lld-", origin, top->start_time);
	{
		struct strbuf id = STRBUF_INIT;

		strbuf_addstr(&id, ck);
		path_part(&id, stamp);
		strbuf_addstr(&id, patched ? "-series" : "-base");
		free(ck);
		ck = strbuf_detach(&id, NULL);
	}
	build = xasprintf("%s-%s", ck, r->arch ? r->arch : "x86_64");

	/* checkout */
	if (section != CHECKOUTS)
		goto build;
	json_object_begin(w, NULL);
	json_string(w, "id", ck);
	json_string(w, "origin", origin);
	json_string(w, "tree_name", "linux-6.1");
	json_string(w, "comment", patched ? top->name ? top->name : "series"
					    : "linux-source-6.1 (Debian) without the series");
	if (patched) {
		json_array_begin(w, "patchset_files");
		for (size_t i = 0; i < top->patches.nr; i++)
			add_resource(w, base_name(top->patches.items[i]), top->patches.items[i]);
		json_array_end(w);
		json_string(w, "patchset_hash", top->patchset_hash ? top->patchset_hash : "");
	} else {
		json_array_begin(w, "patchset_files");
		json_array_end(w);
		json_string(w, "patchset_hash", "");
	}
	add_time(w, "start_time", top->start_time);
	json_bool(w, "valid", !patched || top->applied == top->patches.nr);
	json_object_end(w);
	goto out;
build:
	if (!built)
		goto out;
	if (section != BUILDS)
		goto tests;
	json_object_begin(w, NULL);
	json_string(w, "checkout_id", ck);
	json_string(w, "id", build);
	json_string(w, "origin", origin);
	add_time(w, "start_time", r->start_time ? r->start_time : top->start_time);
	json_double(w, "duration", r->build_seconds);
	json_string(w, "architecture", r->arch ? r->arch : "x86_64");
	json_string(w, "compiler", r->compiler ? r->compiler : "gcc");
	json_string(w, "config_name", "tinyconfig+stablemate");
	json_array_begin(w, "input_files");
	for (size_t i = 0; i < r->configs.nr; i++)
		add_resource(w, base_name(r->configs.items[i]), r->configs.items[i]);
	json_array_end(w);
	add_url(w, "log_url", r->build_log);
	if (r->build_error)
		json_string(w, "log_excerpt", r->build_error);
	json_bool(w, "valid", strcmp(r->verdict, "build-failed") != 0);
	json_object_end(w);
	goto out;
tests:
	if (!strcmp(r->verdict, "build-failed"))
		goto out;
	/* tests: the boot, each program, each subtest */
	{
		struct strbuf env = STRBUF_INIT, path = STRBUF_INIT, id = STRBUF_INIT;
		int boot_ok = r->log.finished && !r->timed_out && r->log.events_nr == 0;
		size_t n = 0;

		strbuf_addf(&env, "%s, accel %s", r->arch && !strcmp(r->arch, "arm64") ?
			    "qemu-system-aarch64 -M virt" : "qemu-system-x86_64",
			    r->accel ? r->accel : "none");
		json_object_begin(w, NULL);
		json_string(w, "build_id", build);
		strbuf_addf(&id, "%s-t%zu", build, n++);
		json_string(w, "id", id.buf);
		json_string(w, "origin", origin);
		json_object_begin(w, "environment");
		json_string(w, "comment", env.buf);
		json_object_end(w);
		json_string(w, "path", "boot");
		json_string(w, "status", boot_ok ? "PASS" : "FAIL");
		json_bool(w, "waived", 0);
		json_double(w, "duration", r->boot_seconds);
		if (r->serial_log)
			add_url(w, "log_url", r->serial_log);
		if (r->log.events_nr)
			json_string(w, "log_excerpt", r->log.events[0].text);
		json_object_end(w);
		for (size_t i = 0; i < r->log.tests_nr; i++) {
			const struct boot_test *t = &r->log.tests[i];

			for (size_t j = 0; j <= t->sub_nr; j++) {
				const char *colon = strchr(t->name, ':');

				strbuf_reset(&path);
				strbuf_reset(&id);
				strbuf_addstr(&path, "kselftest.");
				if (colon) {
					char *dir = xstrndup(t->name, colon - t->name);

					path_part(&path, dir);
					strbuf_addch(&path, '.');
					path_part(&path, colon + 1);
					free(dir);
				} else {
					path_part(&path, t->name);
				}
				if (j > 0) {
					strbuf_addch(&path, '.');
					path_part(&path, t->sub[j - 1].name);
				}
				strbuf_addf(&id, "%s-t%zu", build, n++);
				json_object_begin(w, NULL);
				json_string(w, "build_id", build);
				json_string(w, "id", id.buf);
				json_string(w, "origin", origin);
				json_object_begin(w, "environment");
				json_string(w, "comment", env.buf);
				json_object_end(w);
				json_string(w, "path", path.buf);
				json_string(w, "status", kcidb_status(j ? t->sub[j - 1].status
									  : t->status));
				json_bool(w, "waived", 0);
				if (r->serial_log)
					add_url(w, "log_url", r->serial_log);
				json_object_end(w);
			}
		}
		strbuf_release(&env);
		strbuf_release(&path);
		strbuf_release(&id);
	}
out:
	free(ck);
	free(build);
}

void boot_result_kcidb(const struct boot_result *r, const char *origin, struct strbuf *out)
{
	static const char *const names[] = { "checkouts", "builds", "tests" };
	struct json_writer w;

	if (!origin || !*origin)
		origin = "stablemate";
	json_init(&w, out);
	json_object_begin(&w, NULL);
	json_object_begin(&w, "version");
	json_int(&w, "major", 4);
	json_int(&w, "minor", 0);
	json_object_end(&w);
	for (int sec = CHECKOUTS; sec <= TESTS; sec++) {
		json_array_begin(&w, names[sec]);
		add_state(&w, (enum section)sec, r, r, origin, 1);
		if (r->base)
			add_state(&w, (enum section)sec, r->base, r, origin, 0);
		json_array_end(&w);
	}
	json_object_end(&w);
	strbuf_addch(out, '\n');
}
