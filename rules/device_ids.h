/* device_ids: the added lines of a diff that are device-ID table entries.
 * stable-kernel-rules.rst lets a patch "just add a device ID", and real
 * ones rarely fit on one line each: a USB serial composition is
 * "{ USB_DEVICE(...),\n  .driver_info = RSVD(4) },", a reboot quirk a
 * DMI block of nine lines, a PCI ID a "#define ..._DEVICE_ID_... 0x1443"
 * in a header and a PCI_DEVICE() line in the driver.
 *
 * Each run of consecutive added code lines (comments and blank lines do
 * not break it; a context or removed line does) is cut into groups where
 * its braces and parentheses balance; a group holding an ID marker
 * (PCI_DEVICE(, .compatible, ...) and no statement or directive is one
 * entry, and all its lines are ID lines. A "#define NAME 0xHEX" whose NAME
 * says ID, PID, VID, DEVICE, VENDOR or PRODUCT is an ID line of no entry. */
#ifndef SM_RULES_DEVICE_IDS_H
#define SM_RULES_DEVICE_IDS_H
#include "rules/commit.h"
#include <stddef.h>

/* The group being read (sm_id_run_init before the first line). */
struct sm_id_run {
	int depth;		/* braces and parentheses opened, not closed yet */
	unsigned lines;		/* code lines of the group so far */
	int marker;		/* one of them holds an ID marker */
	int statement;		/* one of them is a statement (no table) */
	int directive;		/* the last line continues a directive */
	int hopeless;		/* the diff is no longer device IDs only */
};

void sm_id_run_init(struct sm_id_run *run);

/* One added code line (after its '+'; no comment, not blank): counted
 * into d->id_table_lines and d->id_entries when its group closes. Once a
 * group that is no entry has closed, or a seventh entry, the diff cannot
 * be device IDs only, and the lines after are not read (the counts stop
 * there: every added line of every diff comes here). */
void sm_id_run_line(struct sm_id_run *run, struct sm_diffstat *d, const char *s, size_t len);

/* The run ends (a line that is not an added code line): the open group
 * counts as far as it got. */
void sm_id_run_end(struct sm_id_run *run, struct sm_diffstat *d);

/* The diff's code changes are device-ID entries added, no more than six
 * (a table's worth for one device family), and nothing else. */
int sm_diff_adds_device_ids_only(const struct sm_diffstat *d);

#endif
