/* qemu: booting a kernel and initramfs in QEMU (qemu-system-x86_64, or
 * qemu-system-aarch64 -M virt for arm64) with the serial console in a log
 * file and a hard deadline, on KVM when it works and TCG otherwise. */
#ifndef SM_QEMU_QEMU_H
#define SM_QEMU_QEMU_H
#include "qemu/run.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"

struct qemu_opts {
	const char *arch;	/* "x86_64" (NULL) or "arm64" */
	const char *kernel;	/* bzImage / Image; NULL boots the firmware
				 * alone (a guest that never finishes, for
				 * tests) */
	const char *initrd;	/* or NULL */
	const char *append;	/* extra kernel command line, or NULL */
	const char *log_path;	/* the serial console; truncated first */
	unsigned timeout;	/* seconds; QEMU is killed then */
	const char *accel;	/* "kvm", "tcg" or NULL: kvm when it works */
	unsigned memory_mb;	/* 0: 256 */
	/* Text on the serial console that shows a KVM guest makes progress
	 * (NULL: any output), and how long it has to appear (0:
	 * $SM_BOOT_KVM_PROBE, else 30 s). */
	const char *progress_marker;
	unsigned kvm_probe;
	struct sm_progress *meter;	/* ticked while QEMU runs (lib/progress.h), or NULL */
};

/* What qemu_boot() ran: the accelerator and why that one. */
struct qemu_accel {
	char *accel;		/* "kvm" or "tcg" */
	char *reason;		/* one line */
};

void qemu_accel_release(struct qemu_accel *a);

/* The KVM device: $SM_KVM_DEVICE (tests), else /dev/kvm. */
const char *kvm_device(void);

/* 1 when the KVM device opens and creates a VM; else 0 with the reason in
 * why (may be NULL). When $SM_KVM_DEVICE names a plain file it stands in
 * for a device that works (tests of a KVM that opens but stalls). */
int kvm_usable(struct strbuf *why);

/* The QEMU program for an arch ("x86_64", "arm64"); NULL when unknown. */
const char *qemu_program(const char *arch);

/* The QEMU command line for opts with accelerator accel (into argv,
 * caller clears). */
void qemu_argv(const struct qemu_opts *opts, const char *accel, struct strlist *argv);

/* Boots; QEMU's own stdout/stderr go to qemu_out (may be NULL).
 *
 * Without opts->accel (or $SM_BOOT_ACCEL) the guest runs on KVM when the
 * device works and the guest shows progress (progress_marker on the serial
 * console) within the probe time; a KVM guest that does not, or a QEMU
 * that cannot start KVM, is killed and the boot rerun on TCG. An explicit
 * "kvm" that does not work or stalls is an error. ran says which ran and
 * why. Returns 0 when QEMU ran (res says how it ended: timed_out, exit
 * code) or -1 (sm_error) when it could not be started, the log not
 * created, or an explicit kvm failed. */
int qemu_boot(const struct qemu_opts *opts, struct run_result *res,
	      struct strbuf *qemu_out, struct qemu_accel *ran);

#endif
