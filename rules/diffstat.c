/* diffstat: what a unified diff changes, in the terms check_relevant needs:
 * how many lines, whether only documentation, comments or whitespace, and
 * whether it only adds device-ID table entries. */
#include "rules/commit.h"
#include "lib/util.h"
#include <ctype.h>
#include <string.h>
#include <strings.h>

enum file_kind { FILE_C, FILE_DOC, FILE_OTHER };

static enum file_kind classify_path(const char *p, size_t len)
{
	const char *dot = NULL;

	if ((len >= 14 && !memcmp(p, "Documentation/", 14)))
		return FILE_DOC;
	for (size_t i = 0; i < len; i++)
		if (p[i] == '.')
			dot = p + i;
		else if (p[i] == '/')
			dot = NULL;
	if (!dot)
		return FILE_OTHER;
	len -= (size_t)(dot - p);
	if ((len == 2 && (dot[1] == 'c' || dot[1] == 'h' || dot[1] == 'S')))
		return FILE_C;
	if ((len == 4 && (!memcmp(dot, ".rst", 4) || !memcmp(dot, ".txt", 4))) ||
	    (len == 3 && !memcmp(dot, ".md", 3)))
		return FILE_DOC;
	return FILE_OTHER;
}

/* An added line that looks like one entry of a device-ID table. */
static int is_id_table_entry(const char *s, size_t len)
{
	static const char *const markers[] = {
		"PCI_DEVICE(", "PCI_VDEVICE(", "PCI_DEVICE_SUB(", "PCI_DEVICE_DATA(",
		"USB_DEVICE(", "USB_DEVICE_AND_INTERFACE_INFO(", "USB_DEVICE_INTERFACE_",
		"USB_VENDOR_AND_INTERFACE_INFO(", "HID_USB_DEVICE(", "HID_BLUETOOTH_DEVICE(",
		"HID_I2C_DEVICE(", "SDIO_DEVICE(", ".compatible", "ACPI_DEVICE_CLASS(",
		"MODULE_DEVICE_TABLE(", "INPUT_DEVICE_ID_", "DMI_MATCH(", "X86_MATCH_",
		"SND_PCI_QUIRK(", "SND_PCI_QUIRK_VENDOR(",
	};
	char buf[256];
	size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;

	memcpy(buf, s, n);
	buf[n] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(markers); i++)
		if (strstr(buf, markers[i]))
			return 1;
	/* { "ABCD0001", 0 },  (ACPI and i2c/platform ID tables) */
	{
		const char *p = buf;

		while (isspace((unsigned char)*p))
			p++;
		if (p[0] == '{' && strchr(p, '"') && strstr(p, "},"))
			return 1;
	}
	return 0;
}

static int is_comment(enum file_kind kind, const char *s, size_t len, int *in_block)
{
	size_t i = 0;

	while (i < len && isspace((unsigned char)s[i]))
		i++;
	s += i;
	len -= i;
	if (kind == FILE_C) {
		if (*in_block) {
			if (len >= 2 && memmem(s, len, "*/", 2))
				*in_block = 0;
			return 1;
		}
		if (len >= 2 && s[0] == '/' && s[1] == '/')
			return 1;
		if (len >= 2 && s[0] == '/' && s[1] == '*') {
			if (!memmem(s + 2, len - 2, "*/", 2))
				*in_block = 1;
			return 1;
		}
		/* " * text" continuation lines of a block comment */
		if (len >= 1 && s[0] == '*' && (len == 1 || s[1] == ' ' || s[1] == '/'))
			return 1;
		return 0;
	}
	if (kind == FILE_OTHER)
		return len && s[0] == '#';
	return 0;
}

/* Whitespace-insensitive hash of a line (FNV-1a over non-space bytes). */
static unsigned long long squeeze_hash(const char *s, size_t len)
{
	unsigned long long h = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i++) {
		if (isspace((unsigned char)s[i]))
			continue;
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

void sm_commit_parse_diff(struct sm_commit *c, const char *diff, size_t len)
{
	const char *pos = diff, *end = diff + len;
	struct sm_diffstat *d = &c->diff;
	enum file_kind kind = FILE_OTHER;
	int in_hunk = 0, in_block_plus = 0, in_block_minus = 0;
	unsigned long long sum_add = 0, sum_del = 0, xor_add = 0, xor_del = 0;
	unsigned code_add = 0, code_del = 0;

	while (pos < end) {
		const char *nl = memchr(pos, '\n', (size_t)(end - pos));
		const char *s = pos;
		size_t n = nl ? (size_t)(nl - pos) : (size_t)(end - pos);

		pos = nl ? nl + 1 : end;
		if (n >= 11 && !memcmp(s, "diff --git ", 11)) {
			const char *b = memmem(s, n, " b/", 3);

			d->files++;
			in_hunk = 0;
			kind = b ? classify_path(b + 3, n - (size_t)(b + 3 - s)) : FILE_OTHER;
			if (kind == FILE_DOC)
				d->doc_files++;
			c->has_diff = 1;
			continue;
		}
		if (n >= 2 && s[0] == '@' && s[1] == '@') {
			in_hunk = 1;
			in_block_plus = in_block_minus = 0;
			continue;
		}
		if (!in_hunk || !n)
			continue;
		if (s[0] == '+' || s[0] == '-') {
			int plus = s[0] == '+';
			const char *t = s + 1;
			size_t tl = n - 1;
			int blank = 1;

			if (plus)
				d->added++;
			else
				d->removed++;
			for (size_t i = 0; i < tl; i++)
				if (!isspace((unsigned char)t[i])) {
					blank = 0;
					break;
				}
			if (blank)
				continue;
			if (kind == FILE_DOC)
				continue;
			if (is_comment(kind, t, tl, plus ? &in_block_plus : &in_block_minus)) {
				d->comment_lines++;
				continue;
			}
			d->code_lines_changed++;
			if (plus) {
				unsigned long long h = squeeze_hash(t, tl);

				sum_add += h, xor_add ^= h, code_add++;
				if (is_id_table_entry(t, tl))
					d->id_table_lines++;
			} else {
				unsigned long long h = squeeze_hash(t, tl);

				sum_del += h, xor_del ^= h, code_del++;
			}
		} else if (s[0] != ' ' && s[0] != '\\') {
			in_hunk = 0;
		}
	}
	d->whitespace_only = code_add && code_add == code_del && sum_add == sum_del &&
			     xor_add == xor_del;
}
