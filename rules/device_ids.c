/* device_ids: device-ID table entries among a diff's added lines (see
 * device_ids.h). */
#include "rules/device_ids.h"
#include "lib/util.h"
#include <ctype.h>
#include <string.h>

/* A line that names a device in an ID table or match list. */
static int has_id_marker(const char *s, size_t len)
{
	static const char *const markers[] = {
		"PCI_DEVICE(", "PCI_VDEVICE(", "PCI_DEVICE_SUB(", "PCI_DEVICE_DATA(",
		"USB_DEVICE(", "USB_DEVICE_AND_INTERFACE_INFO(", "USB_DEVICE_INTERFACE_",
		"USB_VENDOR_AND_INTERFACE_INFO(", "USB_DEVICE_VENDOR_SPEC(", "HID_USB_DEVICE(",
		"HID_BLUETOOTH_DEVICE(", "HID_I2C_DEVICE(", "HID_DEVICE(", "SDIO_DEVICE(",
		".compatible", "ACPI_DEVICE_CLASS(", "MODULE_DEVICE_TABLE(", "INPUT_DEVICE_ID_",
		"DMI_MATCH(", "DMI_EXACT_MATCH(", "X86_MATCH_", "SND_PCI_QUIRK(",
		"SND_PCI_QUIRK_VENDOR(", "SND_HDA_PIN_QUIRK(", "HDA_CODEC_ENTRY(",
		"DEVICE_FLG(", "VENDOR_FLG(", "QMI_FIXED_INTF(", "QMI_QUIRK_SET_DTR(",
		"QMI_MATCH_FF_FF_FF(", "PHY_ID_MATCH_", "HDA_CODEC_QUIRK(", "UNUSUAL_DEV(",
		"DECLARE_PCI_FIXUP_",
	};
	char buf[256];
	size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;
	const char *p = buf;

	memcpy(buf, s, n);
	buf[n] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(markers); i++)
		if (strstr(buf, markers[i]))
			return 1;
	/* { "ABCD0001", 0 },  (ACPI and i2c/platform ID tables) */
	while (isspace((unsigned char)*p))
		p++;
	return p[0] == '{' && strchr(p, '"') && strstr(p, "},");
}

/* "#define PCI_DEVICE_ID_AMD_19H_M78H_DF_F3 0x12fb", a comment after it
 * allowed: an ID's name for a table entry. */
static int is_id_define(const char *s, size_t len)
{
	static const char *const says_id[] = { "_ID", "ID_", "_PID", "_VID", "DEVICE", "VENDOR",
					       "PRODUCT" };
	const char *p = s, *end = s + len, *name;
	char buf[128];
	size_t n;
	int id = 0;

	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p == end || *p++ != '#')
		return 0;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (end - p < 7 || memcmp(p, "define", 6) || !isspace((unsigned char)p[6]))
		return 0;
	p += 7;
	while (p < end && isspace((unsigned char)*p))
		p++;
	for (name = p; p < end && (isalnum((unsigned char)*p) || *p == '_'); p++)
		;
	n = (size_t)(p - name);
	if (!n || n >= sizeof(buf) || p == end || !isspace((unsigned char)*p))
		return 0;
	memcpy(buf, name, n);
	buf[n] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(says_id) && !id; i++)
		id = strstr(buf, says_id[i]) != NULL;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (!id || end - p < 3 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X') ||
	    !isxdigit((unsigned char)p[2]))
		return 0;
	for (p += 2; p < end && isxdigit((unsigned char)*p); p++)
		;
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p == end || (end - p >= 2 && p[0] == '/' && (p[1] == '*' || p[1] == '/'));
}

/* The braces and parentheses the line opens (negative: closes)
 * and whether it has a ';', all outside strings, character constants and
 * comments. Parentheses count as braces do: usb-storage's UNUSUAL_DEV(
 * entry takes five lines. */
static int bracket_balance(const char *s, size_t len, int *semicolon)
{
	int depth = 0;

	*semicolon = 0;
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];

		if (ch == '"' || ch == '\'') {
			while (++i < len && s[i] != ch)
				if (s[i] == '\\')
					i++;
		} else if (ch == '/' && i + 1 < len && (s[i + 1] == '/' || s[i + 1] == '*')) {
			break;	/* a comment to the line's end, in effect */
		} else if (ch == '{' || ch == '(') {
			depth++;
		} else if (ch == '}' || ch == ')') {
			depth--;
		} else if (ch == ';') {
			*semicolon = 1;
		}
	}
	return depth;
}

static void close_group(struct sm_id_run *run, struct sm_diffstat *d)
{
	int directive = run->directive;

	if (run->marker && !run->statement) {
		d->id_table_lines += run->lines;
		d->id_entries++;
	}
	memset(run, 0, sizeof(*run));
	run->directive = directive;
}

void sm_id_run_line(struct sm_id_run *run, struct sm_diffstat *d, const char *s, size_t len)
{
	int semicolon, marker, directive;
	const char *p = s;

	if (!run->lines && is_id_define(s, len)) {
		d->id_table_lines++;
		return;
	}
	marker = has_id_marker(s, len);
	run->lines++;
	run->marker |= marker;
	run->depth += bracket_balance(s, len, &semicolon);
	while (p < s + len && isspace((unsigned char)*p))
		p++;
	/* A directive, and the lines it continues with a backslash, is code:
	 * "#define X86_MATCH_..._STEPPINGS(...)" makes a marker, it adds no
	 * entry. */
	directive = run->directive || *p == '#';
	run->directive = directive && len && s[len - 1] == '\\';
	/* "};" ends a table; any other ';' a statement of code, unless the
	 * line is an ID line itself (MODULE_DEVICE_TABLE(pci, ids);) */
	if ((semicolon && !marker && *p != '}') || directive)
		run->statement = 1;
	if (run->depth <= 0)
		close_group(run, d);
}

void sm_id_run_end(struct sm_id_run *run, struct sm_diffstat *d)
{
	if (run->lines)
		close_group(run, d);
	run->directive = 0;
}

int sm_diff_adds_device_ids_only(const struct sm_diffstat *d)
{
	return d->id_entries && d->id_entries <= 6 && d->id_table_lines == d->code_lines_changed;
}
