/* qemu: booting a kernel and initramfs in qemu-system-x86_64 with the
 * serial console in a log file and a hard deadline. */
#ifndef SM_QEMU_QEMU_H
#define SM_QEMU_QEMU_H
#include "qemu/run.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"

struct qemu_opts {
	const char *kernel;	/* bzImage; NULL boots the BIOS alone (a
				 * guest that never finishes, for tests) */
	const char *initrd;	/* or NULL */
	const char *append;	/* extra kernel command line, or NULL */
	const char *log_path;	/* the serial console; truncated first */
	unsigned timeout;	/* seconds; QEMU is killed then */
	const char *accel;	/* "kvm", "tcg" or NULL: kvm if usable */
	unsigned memory_mb;	/* 0: 256 */
};

/* 1 when /dev/kvm opens and creates a VM. */
int kvm_usable(void);

/* The accelerator qemu_boot() would use for opts. */
const char *qemu_accel(const struct qemu_opts *opts);

/* The QEMU command line for opts (into argv, caller clears). */
void qemu_argv(const struct qemu_opts *opts, struct strlist *argv);

/* Boots; QEMU's own stdout/stderr go to qemu_out (may be NULL). Returns 0
 * when QEMU ran (res says how it ended: timed_out, exit code) or -1
 * (sm_error) when it could not be started or the log not created. */
int qemu_boot(const struct qemu_opts *opts, struct run_result *res,
	      struct strbuf *qemu_out);

#endif
