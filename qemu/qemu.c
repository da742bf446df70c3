/* qemu: the QEMU command line and its run, with the KVM probe. */
#include "qemu/qemu.h"
#include "lib/fileio.h"
#include "lib/util.h"
#include "lib/progress.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define KVM_PROBE_SECONDS 30

void qemu_accel_release(struct qemu_accel *a)
{
	free(a->accel);
	free(a->reason);
	a->accel = a->reason = NULL;
}

const char *kvm_device(void)
{
	const char *env = getenv("SM_KVM_DEVICE");

	return env && *env ? env : "/dev/kvm";
}

int kvm_usable(struct strbuf *why)
{
	const char *dev = kvm_device();
	int fd = open(dev, O_RDWR | O_CLOEXEC), vm, version, ok = 0;
	struct stat st;

	if (fd < 0) {
		if (why)
			strbuf_addf(why, "%s: %s", dev, strerror(errno));
		return 0;
	}
	if (getenv("SM_KVM_DEVICE") && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		close(fd);
		return 1;
	}
	version = ioctl(fd, KVM_GET_API_VERSION, 0);
	if (version != KVM_API_VERSION) {
		if (why)
			strbuf_addf(why, "%s: KVM API version %d, not %d", dev, version,
				    KVM_API_VERSION);
	} else if ((vm = ioctl(fd, KVM_CREATE_VM, 0)) < 0) {
		if (why)
			strbuf_addf(why, "%s: cannot create a VM: %s", dev, strerror(errno));
	} else {
		ok = 1;
		close(vm);
	}
	close(fd);
	return ok;
}

static int is_arm64(const char *arch)
{
	return arch && !strcmp(arch, "arm64");
}

const char *qemu_program(const char *arch)
{
	if (!arch || !strcmp(arch, "x86_64"))
		return "qemu-system-x86_64";
	if (is_arm64(arch))
		return "qemu-system-aarch64";
	return NULL;
}

/* The host's machine in kernel ARCH= terms. */
static const char *host_arch(void)
{
	struct utsname u;

	if (uname(&u) < 0)
		return "?";
	if (!strcmp(u.machine, "x86_64"))
		return "x86_64";
	if (!strcmp(u.machine, "aarch64"))
		return "arm64";
	return "?";
}

void qemu_argv(const struct qemu_opts *o, const char *accel, struct strlist *argv)
{
	int arm = is_arm64(o->arch);

	strlist_append(argv, qemu_program(o->arch));
	if (arm) {
		strlist_append(argv, "-M");
		strlist_append(argv, "virt");
	}
	strlist_append(argv, "-nographic");
	strlist_append(argv, "-no-reboot");
	strlist_append(argv, "-monitor");
	strlist_append(argv, "none");
	strlist_append(argv, "-nic");
	strlist_append(argv, "none");
	strlist_append(argv, "-m");
	strlist_append_nodup(argv, xasprintf("%u", o->memory_mb ? o->memory_mb : 256));
	strlist_append(argv, "-accel");
	strlist_append(argv, accel);
	if (!strcmp(accel, "kvm") || arm) {
		strlist_append(argv, "-cpu");
		strlist_append(argv, !strcmp(accel, "kvm") ? "host" : "cortex-a57");
	}
	strlist_append(argv, "-serial");
	strlist_append_nodup(argv, xasprintf("file:%s", o->log_path));
	if (o->kernel) {
		strlist_append(argv, "-kernel");
		strlist_append(argv, o->kernel);
		if (o->initrd) {
			strlist_append(argv, "-initrd");
			strlist_append(argv, o->initrd);
		}
		strlist_append(argv, "-append");
		strlist_append_nodup(argv, xasprintf("console=%s panic=-1 rdinit=/init%s%s",
						     arm ? "ttyAMA0" : "ttyS0",
						     o->append ? " " : "",
						     o->append ? o->append : ""));
	}
}

struct progress {
	const char *path, *marker;
};

/* 1 once the serial log shows the marker (or any output without one). */
static int guest_progressed(void *arg)
{
	const struct progress *p = arg;
	struct strbuf sb = STRBUF_INIT;
	int ok = 0;

	if (read_file(p->path, &sb) == 0)
		ok = p->marker ? strstr(sb.buf, p->marker) != NULL : sb.len > 0;
	strbuf_release(&sb);
	return ok;
}

/* One QEMU run with accel; probe > 0 adds the progress deadline. */
static int boot_once(const struct qemu_opts *o, const char *accel, unsigned probe,
		     struct run_result *res, struct strbuf *qemu_out)
{
	struct strlist argv = STRLIST_INIT;
	struct progress p = { o->log_path, o->progress_marker };
	struct run_opts ro = { .capture = qemu_out, .timeout = o->timeout, .meter = o->meter };
	int fd, ret;

	if (probe) {
		ro.progress = guest_progressed;
		ro.progress_arg = &p;
		ro.progress_timeout = probe;
	}
	/* A fresh log: an old run's lines must not be read as this one's. */
	fd = open(o->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return sm_error("%s: %s", o->log_path, strerror(errno));
	close(fd);
	qemu_argv(o, accel, &argv);
	strlist_append_nodup(&argv, NULL);
	ret = run_command((const char *const *)argv.items, &ro, res);
	strlist_clear(&argv);
	return ret;
}

static unsigned probe_seconds(const struct qemu_opts *o)
{
	const char *env = getenv("SM_BOOT_KVM_PROBE");
	long v;

	if (o->kvm_probe)
		return o->kvm_probe;
	v = env && *env ? strtol(env, NULL, 10) : 0;
	return v > 0 && v < 86400 ? (unsigned)v : KVM_PROBE_SECONDS;
}

static char *first_line(const struct strbuf *sb)
{
	const char *s = sb->buf, *nl;

	while (*s == '\n' || *s == ' ')
		s++;
	nl = strchr(s, '\n');
	return nl ? xstrndup(s, nl - s) : xstrdup(s);
}

static void set_ran(struct qemu_accel *ran, const char *accel, char *reason)
{
	qemu_accel_release(ran);
	ran->accel = xstrdup(accel);
	ran->reason = reason;
}

int qemu_boot(const struct qemu_opts *o, struct run_result *res,
	      struct strbuf *qemu_out, struct qemu_accel *ran)
{
	const char *env = getenv("SM_BOOT_ACCEL");
	const char *asked = o->accel && *o->accel ? o->accel : env && *env ? env : NULL;
	const char *what = o->progress_marker ? o->progress_marker : "any output";
	unsigned probe = probe_seconds(o);
	struct strbuf why = STRBUF_INIT, out = STRBUF_INIT;
	char *err;
	int ret;

	memset(ran, 0, sizeof(*ran));
	if (!qemu_program(o->arch))
		return sm_error("%s: no QEMU for this architecture", o->arch);
	if (asked && strcmp(asked, "kvm") && strcmp(asked, "tcg"))
		return sm_error("accelerator '%s': not kvm or tcg", asked);
	if (asked && !strcmp(asked, "tcg")) {
		set_ran(ran, "tcg", xstrdup("asked for"));
		return boot_once(o, "tcg", 0, res, qemu_out);
	}
	if (strcmp(host_arch(), o->arch ? o->arch : "x86_64")) {
		if (asked)
			return sm_error("--accel kvm: a %s guest cannot run on KVM on this %s host",
					o->arch ? o->arch : "x86_64", host_arch());
		set_ran(ran, "tcg", xasprintf("a %s guest on a %s host: no KVM",
					      o->arch ? o->arch : "x86_64", host_arch()));
		return boot_once(o, "tcg", 0, res, qemu_out);
	}
	if (!kvm_usable(&why)) {
		if (asked) {
			ret = sm_error("--accel kvm: %s", why.buf);
		} else {
			set_ran(ran, "tcg", xasprintf("KVM unusable (%s)", why.buf));
			ret = boot_once(o, "tcg", 0, res, qemu_out);
		}
		strbuf_release(&why);
		return ret;
	}

	/* KVM opens: the guest must also make progress. */
	if (boot_once(o, "kvm", probe, res, &out) < 0) {
		strbuf_release(&out);
		return -1;
	}
	if (!res->stalled && !(res->exit_code && !res->timed_out && out.len &&
			       !guest_progressed(&(struct progress){ o->log_path,
								      o->progress_marker }))) {
		set_ran(ran, "kvm", xasprintf("%s works and the guest made progress",
					      kvm_device()));
		if (qemu_out)
			strbuf_add(qemu_out, out.buf, out.len);
		strbuf_release(&out);
		return 0;
	}
	err = res->stalled ? xasprintf("no %s%s%s on the serial console in %u s",
				       o->progress_marker ? "'" : "", what,
				       o->progress_marker ? "'" : "", probe)
			   : first_line(&out);
	strbuf_release(&out);
	if (asked) {
		ret = sm_error("--accel kvm: the guest %s: %s", res->stalled ?
			       "made no progress" : "did not start", err);
		free(err);
		return ret;
	}
	set_ran(ran, "tcg", xasprintf("KVM guest %s (%s), fell back to tcg",
				      res->stalled ? "made no progress" : "did not start", err));
	free(err);
	return boot_once(o, "tcg", 0, res, qemu_out);
}
