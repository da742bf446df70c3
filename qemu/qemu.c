/* qemu: the QEMU command line and its run. */
#include "qemu/qemu.h"
#include "lib/util.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int kvm_usable(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC), vm, ok = 0;

	if (fd < 0)
		return 0;
	if (ioctl(fd, KVM_GET_API_VERSION, 0) == KVM_API_VERSION) {
		vm = ioctl(fd, KVM_CREATE_VM, 0);
		if (vm >= 0) {
			ok = 1;
			close(vm);
		}
	}
	close(fd);
	return ok;
}

const char *qemu_accel(const struct qemu_opts *o)
{
	const char *env = getenv("SM_BOOT_ACCEL");

	if (o->accel && *o->accel)
		return o->accel;
	if (env && *env)
		return env;
	return kvm_usable() ? "kvm" : "tcg";
}

void qemu_argv(const struct qemu_opts *o, struct strlist *argv)
{
	const char *accel = qemu_accel(o);

	strlist_append(argv, "qemu-system-x86_64");
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
	if (!strcmp(accel, "kvm")) {
		strlist_append(argv, "-cpu");
		strlist_append(argv, "host");
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
		strlist_append_nodup(argv, xasprintf("console=ttyS0 panic=-1 rdinit=/init%s%s",
						     o->append ? " " : "",
						     o->append ? o->append : ""));
	}
}

int qemu_boot(const struct qemu_opts *o, struct run_result *res,
	      struct strbuf *qemu_out)
{
	struct strlist argv = STRLIST_INIT;
	struct run_opts ro = { .capture = qemu_out, .timeout = o->timeout };
	int fd, ret;

	/* A fresh log: an old run's lines must not be read as this one's. */
	fd = open(o->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return sm_error("%s: %s", o->log_path, strerror(errno));
	close(fd);
	qemu_argv(o, &argv);
	strlist_append_nodup(&argv, NULL);
	ret = run_command((const char *const *)argv.items, &ro, res);
	strlist_clear(&argv);
	return ret;
}
